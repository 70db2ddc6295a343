/*
** route_dijkstra.c — the plain search: Dijkstra over links with the cost
** model of route.h and no caches. It is the oracle the cached routes are
** tested against, the baseline the benchmark compares them with, and the
** router's answer when its caches cannot fit under the memory cap. It
** runs in the router's search state, which no cache build holds between
** calls. route_forward is the search itself, with hooks that the queries
** around a start (route_query.c) use too.
*/
#include "route/route_internal.h"


uint32_t route_forward(NavRouter *r, uint32_t start, const float p[3], uint32_t flags, const RouteForward *f)
{
    uint32_t *dist = r->cdist, *first = r->cfirst, *prev = r->cprev;
    for (uint32_t i = 0; i < r->links; i++) dist[i] = ROUTE_UNREACHABLE;
    RouteHeap h = { r->cnode, r->cpos, dist, 0 };
    for (uint32_t s = r->out_first[start]; s < r->out_first[start] + r->out_count[start]; s++) {
        if (!route_usable(r, s, flags)) continue;
        uint32_t x = f->extra ? f->extra(f->user, r, s) : 0;
        if (x == ROUTE_UNREACHABLE) continue;
        uint32_t t = route_add(route_take_from_point(r, start, p, s, flags), x);
        if (t < dist[s]) {
            dist[s] = t;
            first[s] = s;
            prev[s] = ROUTE_NONE;
            heap_push(&h, s);
        }
    }
    uint32_t found = ROUTE_NONE;
    while (h.count) {
        uint32_t t = heap_pop(&h);
        if (f->max_time && dist[t] > f->max_time) break;
        if (f->accept && f->accept(f->user, r, t, dist[t])) {
            found = t;
            break;
        }
        uint32_t b = r->to[t];
        for (uint32_t s = r->out_first[b]; s < r->out_first[b] + r->out_count[b]; s++) {
            if (!route_usable(r, s, flags)) continue;
            uint32_t x = f->extra ? f->extra(f->user, r, s) : 0;
            if (x == ROUTE_UNREACHABLE) continue;
            uint32_t c = route_add(route_add(dist[t], route_take(r, t, s, flags)), x);
            if (c < dist[s]) {
                dist[s] = c;
                first[s] = first[t];
                prev[s] = t;
                heap_push(&h, s);
            }
        }
    }
    /* Leave the search state clean for the next user. */
    for (uint32_t i = 0; i < h.count; i++) r->cpos[h.node[i]] = ROUTE_NONE;
    return found;
}

static bool reached(void *user, const NavRouter *r, uint32_t s, uint32_t time)
{
    (void)time;
    return r->to[s] == *(const uint32_t *)user;
}

NavStatus route_dijkstra(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                         NavRoute *out)
{
    NavStatus st;
    if (route_trivial(r, start, goal, out, &st)) return st;
    RouteForward f = { NULL, reached, &goal, 0 };
    const float *p = point ? point : area_get(r->ag, start)->center;
    uint32_t s = route_forward(r, start, p, route_query_flags(r, start, goal, flags), &f);
    if (s != ROUTE_NONE) {
        out->time = r->cdist[s];
        out->next_reach = r->cfirst[s];
    }
    return NAV_OK;
}

/* {======= a route round links one bot finds it cannot take ======= */

typedef struct Avoiding {
    const RouteAvoid *avoid;
    int count;
    uint32_t goal;
} Avoiding;

static uint32_t avoid_extra(void *user, const NavRouter *r, uint32_t s)
{
    (void)r;
    const Avoiding *a = user;
    for (int i = 0; i < a->count; i++)
        if (a->avoid[i].link == s) return a->avoid[i].extra;
    return 0;
}

static bool avoid_reached(void *user, const NavRouter *r, uint32_t s, uint32_t time)
{
    (void)time;
    return r->to[s] == ((const Avoiding *)user)->goal;
}

NavStatus router_route_links_avoiding(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                                      const RouteAvoid *avoid, int avoid_count, uint32_t *links, int cap, int *count,
                                      NavRoute *out)
{
    if (avoid_count <= 0) return router_route_links(r, start, point, goal, flags, links, cap, count, out);
    *count = 0;
    NavStatus st;
    if (route_trivial(r, start, goal, out, &st)) return st;
    Avoiding a = { avoid, avoid_count, goal };
    RouteForward f = { avoid_extra, avoid_reached, &a, 0 };
    const float *p = point ? point : area_get(r->ag, start)->center;
    uint32_t s = route_forward(r, start, p, route_query_flags(r, start, goal, flags), &f);
    if (s == ROUTE_NONE) return NAV_OK;
    out->time = r->cdist[s];
    out->next_reach = r->cfirst[s];
    /* The links back from the last, then in order. */
    int n = 0;
    for (uint32_t k = s; k != ROUTE_NONE; k = r->cprev[k]) n++;
    int i = n;
    for (uint32_t k = s; k != ROUTE_NONE; k = r->cprev[k])
        if (--i < cap) links[i] = k;
    *count = n;
    return NAV_OK;
}

/* }======= */

/*
** route_costs.c — routes under per-query area costs (route.h). Each cache
** is one backward Dijkstra from the goal over link states with weighted
** costs: dist[s] is the weighted cost from the end of link s to entering
** the goal, next[s] the link to take after s. A query from a point picks
** the cheapest first link and follows next to the goal, adding up the
** real times on the way. The cost model is route.h's, with the crossing
** of an area scaled by its multiplier and each link's own time by its
** target's.
*/
#include "route/route_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct RouteCostCache {
    uint32_t goal, flags, version;
    float *mult;    /* per area, as given (the key) */
    uint32_t *dist; /* per link */
    uint32_t *next; /* per link, ROUTE_NONE at the goal or when unreachable */
} RouteCostCache;

static void cache_free(RouteCostCache *c)
{
    nav_free(c->mult);
    nav_free(c->dist);
    nav_free(c->next);
}

void route_costs_free(NavRouter *r)
{
    for (uint32_t i = 0; i < r->costed_count; i++) cache_free(&r->costed[i]);
    nav_free(r->costed);
    r->costed = NULL;
    r->costed_count = 0;
}

/* A multiplier as used: forbidden areas are INFINITY. */
static float mult_of(const float *m, uint32_t a)
{
    float x = m[a];
    return (x >= 0.0f && x <= ROUTE_COST_MAX) ? x : INFINITY;
}

static uint32_t scaled(uint32_t t, float m)
{
    double v = (double)t * m + 0.5;
    return v >= (double)ROUTE_UNREACHABLE ? ROUTE_UNREACHABLE - 1 : (uint32_t)v;
}

/* The weighted cost of taking link u having arrived by link t (t enters u's
** source area). */
static uint32_t weighted_take(const NavRouter *r, const float *m, uint32_t t, uint32_t u, uint32_t flags)
{
    uint32_t b = r->from[u];
    uint32_t cross = r->cross[b][r->in_pos[t] * r->out_count[b] + (u - r->out_first[b])];
    return route_add(route_add(scaled(cross, m[b] == INFINITY ? 1.0f : m[b]), scaled(r->time[u], m[r->to[u]])),
                     route_ledge(r, u, flags));
}

/* Fill c (goal, flags, mult set) with the backward search. m: the
** multipliers as used, goal at 1 when forbidden. */
static void search(NavRouter *r, RouteCostCache *c, const float *m)
{
    uint32_t *dist = c->dist, *next = c->next;
    for (uint32_t i = 0; i < r->links; i++) dist[i] = ROUTE_UNREACHABLE, next[i] = ROUTE_NONE;
    RouteHeap h = { r->cnode, r->cpos, dist, 0 };
    uint32_t n;
    const uint32_t *in = route_incoming(r, c->goal, &n);
    for (uint32_t i = 0; i < n; i++) {
        dist[in[i]] = 0;
        heap_push(&h, in[i]);
    }
    while (h.count) {
        uint32_t u = heap_pop(&h);
        if (!route_usable(r, u, c->flags) || m[r->to[u]] == INFINITY) continue;
        uint32_t b = r->from[u];
        const uint32_t *into = route_incoming(r, b, &n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = into[i];
            if (r->to[t] == c->goal) continue; /* a route ends on entering the goal */
            uint32_t cost = route_add(weighted_take(r, m, t, u, c->flags), dist[u]);
            if (cost < dist[t]) { /* strict: zero costs must not make cycles */
                dist[t] = cost;
                next[t] = u;
                heap_push(&h, t);
            }
        }
    }
    for (uint32_t i = 0; i < h.count; i++) r->cpos[h.node[i]] = ROUTE_NONE;
}

/* The cache for (goal, flags, mult): found and moved to the front, or made. */
static RouteCostCache *cache_for(NavRouter *r, uint32_t goal, uint32_t flags, const float *mult, const float *m)
{
    size_t mb = (size_t)r->areas * sizeof(float);
    for (uint32_t i = 0; i < r->costed_count; i++) {
        RouteCostCache *c = &r->costed[i];
        if (c->goal != goal || c->flags != flags || memcmp(c->mult, mult, mb) != 0) continue;
        RouteCostCache hit = *c;
        memmove(r->costed + 1, r->costed, i * sizeof *c);
        r->costed[0] = hit;
        if (hit.version != r->links_version) {
            search(r, &r->costed[0], m);
            r->costed[0].version = r->links_version;
        }
        return &r->costed[0];
    }
    if (!r->costed) {
        r->costed = nav_calloc(ROUTE_COSTED_MAX, sizeof *r->costed);
        if (!r->costed) return NULL;
    }
    RouteCostCache c = { goal, flags, r->links_version, NULL, NULL, NULL };
    if (r->costed_count == ROUTE_COSTED_MAX) { /* reuse the least recent one's memory */
        c = r->costed[--r->costed_count];
        c.goal = goal, c.flags = flags, c.version = r->links_version;
    } else {
        c.mult = nav_malloc(mb ? mb : 1);
        c.dist = nav_malloc(((size_t)r->links + 1) * sizeof(uint32_t));
        c.next = nav_malloc(((size_t)r->links + 1) * sizeof(uint32_t));
        if (!c.mult || !c.dist || !c.next) {
            cache_free(&c);
            return NULL;
        }
    }
    memcpy(c.mult, mult, mb);
    search(r, &c, m);
    memmove(r->costed + 1, r->costed, r->costed_count * sizeof c);
    r->costed[0] = c;
    r->costed_count++;
    return &r->costed[0];
}

int router_route_links_costed(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                              const float *area_costs, uint32_t *links, int cap, NavRoute *out, uint32_t *cost)
{
    if (!area_costs) {
        int n = 0;
        if (NAV_FAILED(router_route_links(r, start, point, goal, flags, links, cap, &n, out))) return -1;
        *cost = out->time;
        return n;
    }
    NavStatus st;
    *cost = ROUTE_UNREACHABLE;
    if (route_trivial(r, start, goal, out, &st)) {
        if (!NAV_FAILED(st)) *cost = 0;
        return NAV_FAILED(st) ? -1 : 0;
    }
    flags = route_query_flags(r, start, goal, flags);
    /* The multipliers as used (forbidden ones INFINITY, the goal allowed),
    ** for the search when the cache is missing or stale. */
    float *m = nav_malloc((size_t)r->areas * sizeof *m + 1);
    if (!m) return -2;
    for (uint32_t a = 0; a < r->areas; a++) m[a] = mult_of(area_costs, a);
    if (m[goal] == INFINITY) m[goal] = 1.0f;
    float mstart = m[start] == INFINITY ? 1.0f : m[start];
    RouteCostCache *c = cache_for(r, goal, flags, area_costs, m);
    nav_free(m);
    if (!c) return -2;
    const float *p = point ? point : area_get(r->ag, start)->center;
    uint32_t best = ROUTE_NONE, best_cost = ROUTE_UNREACHABLE;
    for (uint32_t s = r->out_first[start]; s < r->out_first[start] + r->out_count[start]; s++) {
        if (!route_usable(r, s, flags) || c->dist[s] == ROUTE_UNREACHABLE) continue;
        float mt = mult_of(area_costs, r->to[s]);
        if (r->to[s] == goal && mt == INFINITY) mt = 1.0f;
        if (mt == INFINITY) continue;
        uint32_t walk = area_time_between(r->ag, start, p, area_reach(r->ag, s)->start);
        uint32_t w = route_add(
            route_add(route_add(scaled(walk, mstart), scaled(r->time[s], mt)), route_ledge(r, s, flags)), c->dist[s]);
        if (w < best_cost) best = s, best_cost = w;
    }
    if (best == ROUTE_NONE) return 0;
    *cost = best_cost;
    out->next_reach = best;
    uint32_t time = route_take_from_point(r, start, p, best, flags);
    int n = 0;
    for (uint32_t s = best;;) {
        if (n < cap) links[n] = s;
        n++;
        uint32_t u = c->next[s];
        if (u == ROUTE_NONE || (uint32_t)n > r->links) break;
        time = route_add(time, route_take(r, s, u, flags));
        s = u;
    }
    out->time = time;
    return n;
}

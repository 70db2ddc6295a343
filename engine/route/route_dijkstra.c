/*
** route_dijkstra.c — the plain search: Dijkstra over links with the cost
** model of route.h and no caches. It is the oracle the cached routes are
** tested against, the baseline the benchmark compares them with, and the
** router's answer when its caches cannot fit under the memory cap. It
** runs in the router's search state, which no cache build holds between
** calls.
*/
#include "route/route_internal.h"


static NavStatus search(const NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                        uint32_t *dist, uint32_t *first, uint32_t *pos, uint32_t *node, NavRoute *out)
{
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    if (start >= r->areas || goal >= r->areas) return NAV_FAILURE | NAV_E_PARAM;
    if (start == goal) {
        out->time = 0;
        return NAV_OK;
    }
    flags = route_query_flags(r, start, goal, flags);
    for (uint32_t i = 0; i < r->links; i++) {
        dist[i] = ROUTE_UNREACHABLE;
        pos[i] = ROUTE_NONE;
    }
    RouteHeap h = { node, pos, dist, 0 };
    const float *p = point ? point : area_get(r->ag, start)->center;
    for (uint32_t s = r->out_first[start]; s < r->out_first[start] + r->out_count[start]; s++) {
        if (!route_usable(r, s, flags)) continue;
        uint32_t t = route_take_from_point(r, start, p, s, flags);
        if (t < dist[s]) {
            dist[s] = t;
            first[s] = s;
            heap_push(&h, s);
        }
    }
    while (h.count) {
        uint32_t t = heap_pop(&h);
        uint32_t b = r->to[t];
        if (b == goal) {
            out->time = dist[t];
            out->next_reach = first[t];
            /* Leave the search state clean for the next user. */
            for (uint32_t i = 0; i < h.count; i++) pos[node[i]] = ROUTE_NONE;
            return NAV_OK;
        }
        for (uint32_t s = r->out_first[b]; s < r->out_first[b] + r->out_count[b]; s++) {
            if (!route_usable(r, s, flags)) continue;
            uint32_t c = route_add(dist[t], route_take(r, t, s, flags));
            if (c < dist[s]) {
                dist[s] = c;
                first[s] = first[t];
                heap_push(&h, s);
            }
        }
    }
    return NAV_OK;
}

NavStatus route_dijkstra(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                         NavRoute *out)
{
    return search(r, start, point, goal, flags, r->cdist, r->cfirst, r->cpos, r->cnode, out);
}

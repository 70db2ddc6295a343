/*
** route_query.c — looking ahead along a route and around the start:
** predicting what a route meets, the nearest wanted area, a hiding place,
** and alternative routes (route.h).
**
** The searches around the start are route_forward (route_dijkstra.c)
** with hooks: one may add to or forbid each link (hiding keeps away from
** the enemy), one stops the search at the first state it accepts.
*/
#include "route/route_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= predicting ======= */

static bool stops_in(const NavRouter *r, uint32_t area, const RoutePredict *stop, RouteStop *why)
{
    const NavArea *a = area_get(r->ag, area);
    if (a->flags & stop->area_flags) {
        *why = ROUTE_STOP_AREA_FLAGS;
        return true;
    }
    if (stop->contents & (1u << a->contents)) {
        *why = ROUTE_STOP_CONTENTS;
        return true;
    }
    return false;
}

NavStatus router_predict(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                         const RoutePredict *stop, RoutePrediction *out)
{
    memset(out, 0, sizeof *out);
    out->reach = ROUTE_NONE;
    out->area = start;
    if (start >= r->areas || goal >= r->areas) return NAV_FAILURE | NAV_E_PARAM;
    const float *p = point ? point : area_get(r->ag, start)->center;
    memcpy(out->point, p, sizeof out->point);
    if (start == goal) {
        out->stop = ROUTE_STOP_GOAL;
        return NAV_OK;
    }
    NavRoute q;
    NavStatus st = router_route(r, start, p, goal, flags, &q);
    if (NAV_FAILED(st)) return st;
    uint32_t qflags = route_query_flags(r, start, goal, flags), prev = ROUTE_NONE, s = q.next_reach;
    if (s == ROUTE_NONE) {
        out->stop = ROUTE_STOP_NO_ROUTE;
        return NAV_OK;
    }
    while (s != ROUTE_NONE) {
        if (stop->travel_types & NAV_TFL_TYPE(area_reach(r->ag, s)->type)) {
            out->stop = ROUTE_STOP_TRAVEL;
            out->reach = s;
            return NAV_OK;
        }
        uint32_t step =
            prev == ROUTE_NONE ? route_take_from_point(r, start, p, s, qflags) : route_take(r, prev, s, qflags);
        out->time = route_add(out->time, step);
        out->hops++;
        out->reach = s;
        out->area = r->to[s];
        memcpy(out->point, area_reach(r->ag, s)->end, sizeof out->point);
        RouteStop why;
        if (out->area == goal) {
            out->stop = ROUTE_STOP_GOAL;
            return NAV_OK;
        }
        if (stops_in(r, out->area, stop, &why)) {
            out->stop = why;
            return NAV_OK;
        }
        if (stop->max_hops && out->hops >= stop->max_hops) {
            out->stop = ROUTE_STOP_HOPS;
            return NAV_OK;
        }
        if (stop->max_time && out->time >= stop->max_time) {
            out->stop = ROUTE_STOP_TIME;
            return NAV_OK;
        }
        NavRoute next;
        router_next(r, s, goal, qflags, &next);
        prev = s;
        s = next.next_reach;
    }
    out->stop = ROUTE_STOP_NO_ROUTE;
    return NAV_OK;
}

/* }======= */

/* {======= the nearest wanted area ======= */

/* Search from the start for the first state f accepts: its area, time and
** first link (NAV_NO_AREA when none). */
static NavStatus search_around(NavRouter *r, uint32_t start, const float point[3], uint32_t flags,
                               const RouteForward *f, uint32_t *area, NavRoute *out)
{
    const float *p = point ? point : area_get(r->ag, start)->center;
    uint32_t s = route_forward(r, start, p, route_query_flags(r, start, start, flags), f);
    if (s != ROUTE_NONE) {
        *area = r->to[s];
        out->time = r->cdist[s];
        out->next_reach = r->cfirst[s];
    }
    return NAV_OK;
}

typedef struct Wanted {
    RouteAccept accept;
    void *user;
} Wanted;

static bool accept_wanted(void *user, const NavRouter *r, uint32_t s, uint32_t time)
{
    (void)time;
    const Wanted *w = user;
    return w->accept(w->user, r->ag, r->to[s]);
}

NavStatus router_nearest_goal(NavRouter *r, uint32_t start, const float point[3], uint32_t flags, uint32_t max_time,
                              RouteAccept accept, void *user, uint32_t *area, NavRoute *out)
{
    *area = NAV_NO_AREA;
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    if (start >= r->areas || !accept) return NAV_FAILURE | NAV_E_PARAM;
    if (accept(user, r->ag, start)) {
        *area = start;
        out->time = 0;
        return NAV_OK;
    }
    Wanted w = { accept, user };
    RouteForward f = { NULL, accept_wanted, &w, max_time };
    return search_around(r, start, point, flags, &f, area, out);
}

/* }======= */

/* {======= hiding ======= */

typedef struct Hide {
    float enemy[3];
    float keep_away;
    float eye; /* eye height above the floor */
} Hide;

static float dist2d(const float a[3], const float b[3]) { return hypotf(a[0] - b[0], a[1] - b[1]); }

/* Never within keep_away of the enemy; 1 s per metre closer to him. */
static uint32_t hide_extra(void *user, const NavRouter *r, uint32_t s)
{
    const Hide *hd = user;
    const NavReach *re = area_reach(r->ag, s);
    float before = dist2d(re->start, hd->enemy), after = dist2d(re->end, hd->enemy);
    if (after < hd->keep_away) return ROUTE_UNREACHABLE;
    return after < before ? (uint32_t)lroundf(100.0f * (before - after)) : 0;
}

static bool hidden(const NavRouter *r, const Hide *hd, uint32_t area)
{
    const NavArea *a = area_get(r->ag, area);
    float eye[3] = { a->center[0], a->center[1], a->center[2] + hd->eye };
    return !world_line_of_sight(area_world(r->ag), hd->enemy, eye);
}

static bool accept_hidden(void *user, const NavRouter *r, uint32_t s, uint32_t time)
{
    (void)time;
    return hidden(r, user, r->to[s]);
}

NavStatus router_hide(NavRouter *r, uint32_t start, const float point[3], const float enemy[3], float keep_away,
                      uint32_t flags, uint32_t max_time, uint32_t *area, NavRoute *out)
{
    *area = NAV_NO_AREA;
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    if (start >= r->areas) return NAV_FAILURE | NAV_E_PARAM;
    Hide hd = { { enemy[0], enemy[1], enemy[2] }, keep_away, 0.9f * area_class(r->ag)->height };
    if (hidden(r, &hd, start)) {
        *area = start;
        out->time = 0;
        return NAV_OK;
    }
    RouteForward f = { hide_extra, accept_hidden, &hd, max_time };
    return search_around(r, start, point, flags, &f, area, out);
}

/* }======= */

/* {======= alternatives ======= */

static int by_extra(const void *pa, const void *pb)
{
    const RouteAlternative *a = pa, *b = pb;
    if (a->extra != b->extra) return a->extra < b->extra ? -1 : 1;
    return (a->area > b->area) - (a->area < b->area);
}

int router_alternatives(NavRouter *r, uint32_t start, uint32_t goal, uint32_t flags, float slack, RouteAlternative *out,
                        int cap)
{
    if (start >= r->areas || goal >= r->areas || start == goal) return 0;
    NavRoute direct;
    if (NAV_FAILED(router_route(r, start, NULL, goal, flags, &direct)) || direct.time == ROUTE_UNREACHABLE) return 0;
    uint32_t n = r->areas, qflags = route_query_flags(r, start, goal, flags);
    uint32_t *arrive = nav_malloc(n * sizeof *arrive), *leave = nav_malloc(n * sizeof *leave),
             *blob = nav_malloc(n * sizeof *blob);
    uint32_t *stack = nav_malloc(n * sizeof *stack);
    RouteAlternative *found = nav_malloc(n * sizeof *found);
    uint8_t *on_route = nav_calloc(n, 1);
    int count = 0;
    if (!arrive || !leave || !blob || !stack || !found || !on_route) goto done;

    /* Start to every area: one full search. */
    RouteForward f = { NULL, NULL, NULL, 0 };
    route_forward(r, start, area_get(r->ag, start)->center, qflags, &f);
    for (uint32_t a = 0; a < n; a++) arrive[a] = ROUTE_UNREACHABLE;
    arrive[start] = 0;
    for (uint32_t s = 0; s < r->links; s++)
        if (r->cdist[s] < arrive[r->to[s]]) arrive[r->to[s]] = r->cdist[s];
    /* Every area to the goal: the caches. */
    for (uint32_t a = 0; a < n; a++) {
        NavRoute q;
        leave[a] = ROUTE_UNREACHABLE;
        if (arrive[a] != ROUTE_UNREACHABLE && NAV_SUCCEEDED(router_route(r, a, NULL, goal, qflags, &q)))
            leave[a] = q.time;
    }
    /* The fastest route's areas are not alternatives. */
    uint32_t links[1024];
    NavRoute again;
    int nl;
    router_route_links(r, start, NULL, goal, flags, links, 1024, &nl, &again);
    on_route[start] = on_route[goal] = 1;
    for (int i = 0; i < nl && i < 1024; i++) on_route[r->to[links[i]]] = 1;

    /* Candidates: mid-way areas off the route within the slack; patches of
    ** them joined by links, each given by its area nearest mid-detour. */
    double limit = (double)slack * direct.time, low = 0.2 * direct.time;
    for (uint32_t a = 0; a < n; a++) {
        blob[a] = ROUTE_NONE;
        bool cand = !on_route[a] && arrive[a] != ROUTE_UNREACHABLE && leave[a] != ROUTE_UNREACHABLE &&
                    (double)arrive[a] + leave[a] <= limit && arrive[a] >= low && leave[a] >= low;
        if (cand) blob[a] = ROUTE_NONE - 1; /* a candidate not yet in a patch */
    }
    for (uint32_t a = 0; a < n; a++) {
        if (blob[a] != ROUTE_NONE - 1) continue;
        uint32_t top = 0, best = a;
        blob[a] = a;
        stack[top++] = a;
        while (top) {
            uint32_t x = stack[--top];
            int64_t dx = (int64_t)arrive[x] - leave[x], db = (int64_t)arrive[best] - leave[best];
            if (llabs(dx) < llabs(db) || (llabs(dx) == llabs(db) && x < best)) best = x;
            for (uint32_t s = r->out_first[x]; s < r->out_first[x] + r->out_count[x]; s++) {
                uint32_t y = r->to[s];
                if (blob[y] == ROUTE_NONE - 1) {
                    blob[y] = a;
                    stack[top++] = y;
                }
            }
        }
        found[count].area = best;
        found[count].extra = arrive[best] + leave[best] > direct.time ? arrive[best] + leave[best] - direct.time : 0;
        count++;
    }
    qsort(found, (size_t)count, sizeof *found, by_extra);
    for (int i = 0; i < count && i < cap; i++) out[i] = found[i];
done:
    nav_free(arrive);
    nav_free(leave);
    nav_free(blob);
    nav_free(stack);
    nav_free(found);
    nav_free(on_route);
    return count;
}

/* }======= */

/* {======= areas around a point ======= */

typedef struct Within {
    const NavAreaGraph *ag;
    float c[2], r2;
    uint32_t *out;
    int cap, count;
    uint8_t *mark; /* per area: 1 inside, 2 outside, 0 not seen; 3 = listed */
} Within;

/* Does area a's footprint meet the circle? Cached in mark. */
static bool meets(Within *w, uint32_t a)
{
    if (w->mark[a] == 0) {
        const NavArea *ar = area_get(w->ag, a);
        const NavWorld *world = area_world(w->ag);
        float half = 0.5f * world_cell_size(world), x0, y0, x1, y1;
        world_cell_center(world, ar->x0, ar->y0, &x0, &y0);
        world_cell_center(world, ar->x1, ar->y1, &x1, &y1);
        float nx = fminf(fmaxf(w->c[0], x0 - half), x1 + half) - w->c[0];
        float ny = fminf(fmaxf(w->c[1], y0 - half), y1 + half) - w->c[1];
        w->mark[a] = nx * nx + ny * ny <= w->r2 ? 1 : 2;
    }
    return w->mark[a] != 2;
}

static uint32_t within_extra(void *user, const NavRouter *r, uint32_t s)
{
    return meets(user, r->to[s]) ? 0 : ROUTE_UNREACHABLE;
}

static void list_area(Within *w, uint32_t a)
{
    if (w->mark[a] == 3) return;
    w->mark[a] = 3;
    if (w->count < w->cap) w->out[w->count] = a;
    w->count++;
}

static bool within_accept(void *user, const NavRouter *r, uint32_t s, uint32_t time)
{
    (void)time;
    list_area(user, r->to[s]);
    return false;
}

int router_areas_within(NavRouter *r, uint32_t start, const float point[3], uint32_t flags, const float centre[2],
                        float radius, uint32_t *out, int cap)
{
    if (start >= r->areas || !(radius >= 0.0f)) return -1;
    Within w = { r->ag, { centre[0], centre[1] }, radius * radius, out, cap, 0, r->area_mark };
    if (!meets(&w, start)) {
        memset(r->area_mark, 0, r->areas);
        return 0;
    }
    list_area(&w, start);
    RouteForward f = { within_extra, within_accept, &w, 0 };
    const float *p = point ? point : area_get(r->ag, start)->center;
    route_forward(r, start, p, route_query_flags(r, start, start, flags), &f);
    /* The obstacle code expects its scratch zeroed. */
    memset(r->area_mark, 0, r->areas);
    return w.count;
}

/* }======= */

/*
** test_route_costs.c — routes under per-area costs (route_costs.c)
** against a plain Dijkstra written here from the public area API with the
** same weighted cost model, over every pair of a sample of areas.
*/
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "route/route.h"
#include "sim/sim.h"
#include "test_support.h"

/* The weighted cost of the cheapest route from area s's centre to entering
** area g; UINT32_MAX if none. Dense O(links^2): small maps only. */
static uint32_t oracle(const NavAreaGraph *ag, uint32_t s, uint32_t g, uint32_t flags, const float *m)
{
    uint32_t nl = area_reach_count(ag);
    flags |= area_get(ag, s)->travel_flags | area_get(ag, g)->travel_flags;
    double *d = nav_malloc(nl * sizeof *d);
    char *done = nav_calloc(nl, 1);
    for (uint32_t i = 0; i < nl; i++) d[i] = INFINITY;
    const NavArea *sa = area_get(ag, s);
#define MULT(a) ((a) == s || (a) == g ? (isinf(m[a]) ? 1.0 : m[a]) : (double)m[a])
#define SCALE(t, k) floor((double)(t) * (k) + 0.5)
#define LEDGE(l) ((area_get(ag, area_reach(ag, l)->to)->flags & NAV_AREA_LEDGE) && !(flags & NAV_TFL_FLY) ? 100.0 : 0.0)
#define USABLE(l) ((area_reach(ag, l)->travel_flags & ~flags) == 0 && !isinf(MULT(area_reach(ag, l)->to)))
    for (uint32_t k = 0; k < sa->reach_count; k++) {
        uint32_t l = sa->first_reach + k;
        if (!USABLE(l)) continue;
        const NavReach *re = area_reach(ag, l);
        d[l] = SCALE(area_time_between(ag, s, sa->center, re->start), MULT(s)) + SCALE(re->time, MULT(re->to)) + LEDGE(l);
    }
    double best = INFINITY;
    for (;;) {
        uint32_t t = UINT32_MAX;
        for (uint32_t i = 0; i < nl; i++)
            if (!done[i] && !isinf(d[i]) && (t == UINT32_MAX || d[i] < d[t])) t = i;
        if (t == UINT32_MAX) break;
        done[t] = 1;
        const NavReach *rt = area_reach(ag, t);
        if (rt->to == g) {
            best = d[t];
            break;
        }
        const NavArea *b = area_get(ag, rt->to);
        uint32_t in_count;
        const uint32_t *in = area_incoming(ag, rt->to, &in_count);
        uint32_t pos = 0;
        while (in[pos] != t) pos++;
        for (uint32_t k = 0; k < b->reach_count; k++) {
            uint32_t u = b->first_reach + k;
            if (!USABLE(u)) continue;
            const NavReach *ru = area_reach(ag, u);
            double c = d[t] + SCALE(area_crossing_time(ag, rt->to, pos, k), MULT(rt->to)) + SCALE(ru->time, MULT(ru->to)) + LEDGE(u);
            if (c < d[u]) d[u] = c;
        }
    }
    nav_free(d);
    nav_free(done);
    return isinf(best) ? UINT32_MAX : (uint32_t)best;
}

Test(route_costs, equal_the_oracle_and_plain_routes_at_cost_one)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    NavRouter *r = sim_router(sim, 0, &err);
    cr_assert_not_null(r, "%s", err.message);
    const NavAreaGraph *ag = router_graph(r);
    uint32_t n = area_count(ag);
    float *ones = nav_malloc(n * sizeof *ones), *m = nav_malloc(n * sizeof *m);
    for (uint32_t a = 0; a < n; a++) {
        ones[a] = 1.0f;
        const NavArea *ar = area_get(ag, a);
        /* Water dear, ledges dearer, every fifth area free, lava forbidden. */
        m[a] = (ar->travel_flags & NAV_TFL_WATER) ? 4.0f : (ar->flags & NAV_AREA_LEDGE) ? 2.5f : a % 5 == 0 ? 0.0f : 1.0f;
        if (ar->flags & NAV_AREA_LAVA) m[a] = INFINITY;
    }
    uint32_t links[4096];
    int checked = 0, differ = 0;
    for (uint32_t s = 0; s < n; s += n / 15 + 1) {
        for (uint32_t g = 1; g < n; g += n / 17 + 1) {
            NavRoute plain, q;
            uint32_t cost;
            router_route(r, s, NULL, g, NAV_TFL_DEFAULT, &plain);
            router_route_links_costed(r, s, NULL, g, NAV_TFL_DEFAULT, ones, links, 4096, &q, &cost);
            cr_assert_eq(q.time, plain.time, "%u -> %u: %u with costs of 1, %u plain", s, g, q.time, plain.time);
            if (s != g) cr_assert_eq(cost, plain.time);
            int k = router_route_links_costed(r, s, NULL, g, NAV_TFL_DEFAULT, m, links, 4096, &q, &cost);
            uint32_t want = s == g ? 0 : oracle(ag, s, g, NAV_TFL_DEFAULT, m);
            cr_assert_eq(cost, want == UINT32_MAX ? ROUTE_UNREACHABLE : want, "%u -> %u: cost %u, oracle %u", s, g, cost, want);
            if (k > 0) {
                /* The links chain from s to g, and the real time is at least the fastest. */
                cr_assert_eq(area_reach(ag, links[0])->from, s);
                cr_assert_eq(area_reach(ag, links[k - 1])->to, g, "%u -> %u: %d links, last to %u, cost %u", s, g, k, area_reach(ag, links[k - 1])->to, cost);
                for (int i = 1; i < k; i++) cr_assert_eq(area_reach(ag, links[i])->from, area_reach(ag, links[i - 1])->to);
                cr_assert_geq(q.time, plain.time);
                differ += q.time != plain.time;
            }
            checked++;
        }
    }
    cr_assert_gt(checked, 50);
    cr_assert_gt(differ, 0, "the costs never changed a route: the test proves nothing");
    nav_free(ones);
    nav_free(m);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(route_costs, an_obstacle_refreshes_the_cache)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    NavRouter *r = sim_router(sim, 0, &err);
    const NavAreaGraph *ag = router_graph(r);
    uint32_t n = area_count(ag);
    float *m = nav_malloc(n * sizeof *m);
    for (uint32_t a = 0; a < n; a++) m[a] = 2.0f;
    uint32_t links[4096], cost;
    NavRoute before, after, plain;
    uint32_t s = 0, g = n - 1;
    int k = router_route_links_costed(r, s, NULL, g, NAV_TFL_DEFAULT, m, links, 4096, &before, &cost);
    cr_assert_gt(k, 1);
    /* Block the area the route crosses after its first link: the cached
    ** answer must go round it now. */
    uint32_t blocked = area_reach(ag, links[0])->to;
    cr_assert_neq(blocked, g);
    const NavArea *mid = area_get(ag, blocked);
    const float *c = mid->center;
    uint32_t ob = router_add_obstacle(r, (float[3]){ c[0] - 0.2f, c[1] - 0.2f, c[2] }, (float[3]){ c[0] + 0.2f, c[1] + 0.2f, c[2] + 1 });
    cr_assert_neq(ob, 0u);
    k = router_route_links_costed(r, s, NULL, g, NAV_TFL_DEFAULT, m, links, 4096, &after, &cost);
    router_route(r, s, NULL, g, NAV_TFL_DEFAULT, &plain);
    cr_assert_eq(k > 0, plain.time != ROUTE_UNREACHABLE);
    for (int i = 0; i < k; i++) cr_assert_neq(area_reach(ag, links[i])->to, blocked, "link %d enters the blocked area", i);
    cr_assert_geq(after.time, before.time);
    /* And back when it goes. */
    cr_assert(router_remove_obstacle(r, ob));
    NavRoute again;
    router_route_links_costed(r, s, NULL, g, NAV_TFL_DEFAULT, m, links, 4096, &again, &cost);
    cr_assert_eq(again.time, before.time);
    cr_assert_eq(area_reach(ag, links[0])->to, blocked);
    nav_free(m);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* router_areas_within against a flood written here: every area it lists
** meets the circle and is reached through such areas; every such area is
** listed. */
Test(route_costs, areas_within_a_circle_are_those_a_flood_inside_it_reaches)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    NavRouter *r = sim_router(sim, 0, &err);
    const NavAreaGraph *ag = router_graph(r);
    uint32_t n = area_count(ag);
    uint32_t *got = nav_malloc(n * sizeof *got), *stack = nav_malloc(n * sizeof *stack);
    char *in = nav_calloc(n, 1), *want = nav_calloc(n, 1);
    float cs = world_cell_size(w);
    int nonempty = 0;
    for (uint32_t start = 0; start < n; start += n / 12 + 1) {
        const NavArea *sa = area_get(ag, start);
        float c[2] = { sa->center[0] + 1.0f, sa->center[1] - 0.5f };
        float radius = 6.0f;
        /* Which areas meet the circle. */
        for (uint32_t a = 0; a < n; a++) {
            const NavArea *ar = area_get(ag, a);
            float x0, y0, x1, y1;
            world_cell_center(w, ar->x0, ar->y0, &x0, &y0);
            world_cell_center(w, ar->x1, ar->y1, &x1, &y1);
            float nx = fminf(fmaxf(c[0], x0 - cs / 2), x1 + cs / 2) - c[0], ny = fminf(fmaxf(c[1], y0 - cs / 2), y1 + cs / 2) - c[1];
            in[a] = nx * nx + ny * ny <= radius * radius;
            want[a] = 0;
        }
        /* Flood over usable links (default flags plus the start's own contents) inside the circle. */
        uint32_t flags = NAV_TFL_DEFAULT | sa->travel_flags;
        int top = 0;
        if (in[start]) want[start] = 1, stack[top++] = start;
        while (top) {
            const NavArea *ar = area_get(ag, stack[--top]);
            for (uint32_t k = 0; k < ar->reach_count; k++) {
                const NavReach *re = area_reach(ag, ar->first_reach + k);
                if ((re->travel_flags & ~flags) || !in[re->to] || want[re->to]) continue;
                want[re->to] = 1;
                stack[top++] = re->to;
            }
        }
        int count = router_areas_within(r, start, NULL, NAV_TFL_DEFAULT, c, radius, got, (int)n);
        int expect = 0;
        for (uint32_t a = 0; a < n; a++) expect += want[a];
        cr_assert_eq(count, expect, "start %u: %d areas listed, the flood finds %d", start, count, expect);
        for (int i = 0; i < count; i++) cr_assert(want[got[i]], "start %u: area %u listed, not in the flood", start, got[i]);
        if (count > 0) cr_assert_eq(got[0], start);
        nonempty += count > 1;
    }
    cr_assert_gt(nonempty, 3);
    nav_free(got);
    nav_free(stack);
    nav_free(in);
    nav_free(want);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

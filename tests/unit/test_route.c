/*
** test_route.c — routing caches against the plain Dijkstra oracle.
**
** On every bundled map, thousands of random (start, goal, flags) queries:
** the cached travel time must equal route_dijkstra's, and the links the
** router names, followed one by one, must lead into the goal in exactly
** that time, recomputed here from the area graph's public numbers (link
** times, crossing tables, the ledge penalty) rather than the router's.
** The same with random obstacles added and removed, and under a memory
** cap so small that caches are evicted all the time.
*/
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/random.h"
#include "map/map.h"
#include "route/route.h"
#include "test_support.h"

/* {======= helpers ======= */


static NavAreaGraph *compile(const NavWorld *w, int limit)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_build(w, world_find_class(w, "human"), &(NavAreaDesc){ .max_cluster_areas = limit }, &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    return ag;
}

static uint32_t in_index(const NavAreaGraph *ag, uint32_t area, uint32_t link)
{
    uint32_t n;
    const uint32_t *in = area_incoming(ag, area, &n);
    for (uint32_t i = 0; i < n; i++)
        if (in[i] == link) return i;
    cr_assert_fail("link %u is not among area %u's incoming links", link, area);
    return 0;
}

static uint32_t ledge(const NavAreaGraph *ag, uint32_t link, uint32_t flags)
{
    bool is_ledge = (area_get(ag, area_reach(ag, link)->to)->flags & NAV_AREA_LEDGE) != 0;
    return is_ledge && !(flags & NAV_TFL_FLY) ? ROUTE_LEDGE_PENALTY : 0;
}

/* The time of a chain of links from a point, from the graph's numbers. */
static uint64_t chain_time(const NavAreaGraph *ag, uint32_t start, const float p[3], const uint32_t *links, int n,
                           uint32_t flags)
{
    const NavReach *first = area_reach(ag, links[0]);
    cr_assert_eq(first->from, start, "the route's first link leaves area %u, not the start %u", first->from, start);
    uint64_t t = (uint64_t)area_time_between(ag, start, p, first->start) + first->time + ledge(ag, links[0], flags);
    for (int i = 1; i < n; i++) {
        const NavReach *a = area_reach(ag, links[i - 1]), *b = area_reach(ag, links[i]);
        cr_assert_eq(b->from, a->to, "link %d of the route leaves area %u, the one before ends in %u", i, b->from, a->to);
        uint32_t out = links[i] - area_get(ag, b->from)->first_reach;
        t += (uint64_t)area_crossing_time(ag, b->from, in_index(ag, b->from, links[i - 1]), out) + b->time +
             ledge(ag, links[i], flags);
    }
    return t;
}

/* Random flags: usually the default, sometimes without a travel type or
** two, sometimes flying or allowing lava and slime. */
static uint32_t random_flags(uint64_t *seed)
{
    uint64_t r = nav_rand_next(seed);
    uint32_t f = NAV_TFL_DEFAULT;
    if (r % 3 == 0) f &= ~NAV_TFL_TYPE((r >> 8) % NAV_TRAVEL_COUNT);
    if (r % 5 == 0) f &= ~NAV_TFL_TYPE((r >> 16) % NAV_TRAVEL_COUNT);
    if ((r >> 24) % 4 == 0) f |= NAV_TFL_FLY;
    if ((r >> 28) % 6 == 0) f |= NAV_TFL_LAVA | NAV_TFL_SLIME;
    if ((r >> 32) % 7 == 0) f &= ~NAV_TFL_WATER;
    return f;
}

/* One query checked against the oracle and walked link by link. */
static void check_query(NavRouter *r, uint32_t start, uint32_t goal, uint32_t flags, const char *what)
{
    const NavAreaGraph *ag = router_graph(r);
    const float *p = area_get(ag, start)->center;
    NavRoute got, want;
    cr_assert(NAV_SUCCEEDED(router_route(r, start, p, goal, flags, &got)));
    cr_assert(NAV_SUCCEEDED(route_dijkstra(r, start, p, goal, flags, &want)));
    cr_assert_eq(got.time, want.time, "%s: %u -> %u flags %#x: cached time %u, Dijkstra %u", what, start, goal, flags,
                 got.time, want.time);
    if (start == goal) {
        cr_assert_eq(got.time, 0);
        return;
    }
    if (want.time == ROUTE_UNREACHABLE) {
        cr_assert_eq(got.next_reach, UINT32_MAX, "%s: unreachable but a next link", what);
        return;
    }
    enum { CAP = 4096 };
    static uint32_t links[CAP];
    NavRoute again;
    int n;
    cr_assert(NAV_SUCCEEDED(router_route_links(r, start, p, goal, flags, links, CAP, &n, &again)));
    cr_assert_eq(again.time, got.time);
    cr_assert_gt(n, 0, "%s: %u -> %u reachable in %u but no links", what, start, goal, got.time);
    cr_assert_leq(n, CAP);
    cr_assert_eq(links[0], got.next_reach);
    cr_assert_eq(area_reach(ag, links[n - 1])->to, goal, "%s: %u -> %u: the links end in area %u", what, start, goal,
                 area_reach(ag, links[n - 1])->to);
    uint32_t f = flags | area_get(ag, start)->travel_flags | area_get(ag, goal)->travel_flags;
    for (int i = 0; i < n; i++)
        cr_assert((area_reach(ag, links[i])->travel_flags & ~f) == 0, "%s: link %u needs flags %#x, allowed %#x",
                  what, links[i], area_reach(ag, links[i])->travel_flags, f);
    uint64_t t = chain_time(ag, start, p, links, n, f);
    cr_assert_eq(t, (uint64_t)got.time, "%s: %u -> %u: the links take %llu, the router says %u", what, start, goal,
                 (unsigned long long)t, got.time);
}

static void random_box(const NavWorld *w, uint64_t *seed, float lo[3], float hi[3])
{
    float W = (float)world_width(w) * world_cell_size(w), H = (float)world_height(w) * world_cell_size(w);
    float cx = (float)(nav_rand_next(seed) % 10000) / 10000.0f * W, cy = (float)(nav_rand_next(seed) % 10000) / 10000.0f * H;
    float s = 0.5f + (float)(nav_rand_next(seed) % 100) / 100.0f * 3.0f;
    lo[0] = cx - s;
    lo[1] = cy - s;
    lo[2] = -100.0f;
    hi[0] = cx + s;
    hi[1] = cy + s;
    hi[2] = 100.0f;
}

/* Random queries on a map, then again around random obstacles. */
static void oracle(const char *map, int limit, size_t cap, int queries, uint64_t seed)
{
    NavWorld *w = test_load_map(map);
    NavAreaGraph *ag = compile(w, limit);
    NavError err;
    NavRouter *r = router_create(ag, &(NavRouterDesc){ .cache_bytes = cap }, &err);
    cr_assert_not_null(r, "%s", err.message);
    uint32_t n = area_count(ag);
    uint32_t fixed[4];
    for (int i = 0; i < 4; i++) fixed[i] = (uint32_t)(nav_rand_next(&seed) % n);
    char what[160];
    for (int round = 0; round < 3; round++) {
        uint32_t ids[3] = { 0 };
        int obstacles = round == 1 ? 3 : 0;
        for (int o = 0; o < obstacles; o++) {
            float lo[3], hi[3];
            random_box(w, &seed, lo, hi);
            if (o % 2 == 0 && area_portal_count(ag) > 0) {
                /* On a portal: the portal times change, so cached area
                ** caches of other clusters must notice. */
                const NavArea *pa = area_get(ag, area_portal(ag, (uint32_t)(nav_rand_next(&seed) % area_portal_count(ag)))->area);
                for (int k = 0; k < 2; k++) {
                    lo[k] = pa->center[k] - 0.3f;
                    hi[k] = pa->center[k] + 0.3f;
                }
            }
            ids[o] = router_add_obstacle(r, lo, hi);
            cr_assert_neq(ids[o], 0);
        }
        snprintf(what, sizeof what, "%s (limit %d, cap %zu, %s)", map, limit, cap,
                 round == 1 ? "with obstacles" : round == 2 ? "obstacles removed" : "no obstacles");
        for (int q = 0; q < queries; q++) {
            uint32_t a = (uint32_t)(nav_rand_next(&seed) % n), b = (uint32_t)(nav_rand_next(&seed) % n);
            /* A third of the goals near the start (those stay in one
            ** cluster), a third from a few fixed goals with the default
            ** flags (their caches live across obstacle changes). */
            uint32_t flags = random_flags(&seed);
            if (q % 3 == 1) b = (uint32_t)((a + nav_rand_next(&seed) % 8) % n);
            if (q % 3 == 2) {
                b = fixed[nav_rand_next(&seed) % 4];
                flags = NAV_TFL_DEFAULT;
            }
            check_query(r, a, b, flags, what);
            NavRouterStats st;
            router_stats(r, &st);
            cr_assert_leq(st.cache_bytes, st.cap_bytes, "%s: caches hold %zu bytes over the cap of %zu", what,
                          st.cache_bytes, st.cap_bytes);
        }
        for (int o = 0; o < obstacles; o++) cr_assert(router_remove_obstacle(r, ids[o]));
        NavRouterStats st;
        router_stats(r, &st);
        if (round == 2) cr_assert_eq(st.disabled_links, 0, "%s: %u links still disabled", what, st.disabled_links);
    }
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
}

/* }======= */

Test(route, oracle_on_the_small_maps)
{
    oracle("maps/arena.lua", 16, 0, 300, 1);
    oracle("maps/gauntlet.lua", 24, 0, 400, 2);
    oracle("maps/tower.lua", 32, 0, 400, 3);
    oracle("maps/tower.lua", 256, 0, 200, 4);
    NAV_TEST_LEAK_CHECK();
}

Test(route, oracle_on_valley, .timeout = 120)
{
    oracle("maps/valley.lua", 256, 0, 150, 5);
    NAV_TEST_LEAK_CHECK();
}

Test(route, oracle_under_a_tiny_memory_cap)
{
    /* A few kilobytes: a portal cache and an area cache or two at most. */
    oracle("maps/gauntlet.lua", 16, 3000, 300, 6);
    oracle("maps/tower.lua", 32, 6000, 300, 7);
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, 32);
    NavError err;
    NavRouter *r = router_create(ag, &(NavRouterDesc){ .cache_bytes = 6000 }, &err);
    uint64_t seed = 8;
    for (int q = 0; q < 300; q++)
        check_query(r, (uint32_t)(nav_rand_next(&seed) % area_count(ag)), (uint32_t)(nav_rand_next(&seed) % area_count(ag)),
                    NAV_TFL_DEFAULT, "tower, cap 6000");
    NavRouterStats st;
    router_stats(r, &st);
    cr_expect_gt(st.evictions, 0, "no cache was ever evicted under a 6000-byte cap");
    cr_expect_leq(st.cache_bytes, 6000u);
    router_destroy(r);
    /* 200 bytes hold no cache at all: every answer comes from the
    ** fallback search, still exact, and the cap still holds. */
    r = router_create(ag, &(NavRouterDesc){ .cache_bytes = 200 }, &err);
    for (int q = 0; q < 200; q++)
        check_query(r, (uint32_t)(nav_rand_next(&seed) % area_count(ag)), (uint32_t)(nav_rand_next(&seed) % area_count(ag)),
                    random_flags(&seed), "tower, cap 200");
    router_stats(r, &st);
    cr_expect_gt(st.fallbacks, 0, "no fallback under a 200-byte cap");
    cr_expect_eq(st.cache_bytes, 0u);
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(route, same_area_and_bad_areas)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavAreaGraph *ag = compile(w, 0);
    NavError err;
    NavRouter *r = router_create(ag, NULL, &err);
    NavRoute q;
    cr_assert(NAV_SUCCEEDED(router_route(r, 3, NULL, 3, NAV_TFL_DEFAULT, &q)));
    cr_assert_eq(q.time, 0);
    cr_assert_eq(q.next_reach, UINT32_MAX);
    cr_assert(NAV_FAILED(router_route(r, area_count(ag), NULL, 0, NAV_TFL_DEFAULT, &q)));
    cr_assert_eq(q.time, ROUTE_UNREACHABLE);
    cr_assert(NAV_FAILED(router_route(r, 0, NULL, UINT32_MAX, NAV_TFL_DEFAULT, &q)));
    uint32_t links[4];
    int nq = 7;
    cr_assert_eq(router_route_links(r, 0, NULL, area_count(ag) + 5, NAV_TFL_DEFAULT, links, 4, &nq, &q),
                 NAV_FAILURE | NAV_E_PARAM);
    cr_assert_eq(nq, 0);
    cr_assert_not(router_remove_obstacle(r, 12345));
    /* No travel type allowed: nothing is reachable but the start itself. */
    cr_assert(NAV_SUCCEEDED(router_route(r, 0, NULL, 5, 0, &q)));
    cr_assert_eq(q.time, ROUTE_UNREACHABLE);
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Every area to one goal, with an obstacle on each portal in turn: the
** area caches of clusters the obstacle is not in stay, and must still be
** exact (they notice when the portal times they used have changed). */
Test(route, obstacles_on_portals_keep_far_caches_exact)
{
    static const struct { const char *map; int limit; } cases[] = { { "maps/tower.lua", 32 }, { "maps/tower.lua", 24 } };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(cases); m++) {
        NavWorld *w = test_load_map(cases[m].map);
        NavAreaGraph *ag = compile(w, cases[m].limit);
        NavError err;
        NavRouter *r = router_create(ag, NULL, &err);
        uint32_t n = area_count(ag), np = area_portal_count(ag);
        cr_assert_gt(np, 1, "%s at %d: too few portals for this test", cases[m].map, cases[m].limit);
        uint32_t goals[2] = { 0, n - 1 };
        uint32_t kept = 0;
        uint32_t every = np > 6 ? np / 6 : 1; /* six portals or so keep it quick */
        for (uint32_t p = 0; p < np; p += every) {
            for (int g = 0; g < 2; g++)
                for (uint32_t a = 0; a < n; a++) check_query(r, a, goals[g], NAV_TFL_DEFAULT, cases[m].map);
            const NavArea *pa = area_get(ag, area_portal(ag, p)->area);
            float lo[3] = { pa->center[0] - 0.3f, pa->center[1] - 0.3f, pa->zmin - 1.0f };
            float hi[3] = { pa->center[0] + 0.3f, pa->center[1] + 0.3f, pa->zmax + 1.0f };
            uint32_t id = router_add_obstacle(r, lo, hi);
            cr_assert_neq(id, 0);
            NavRouterStats st;
            router_stats(r, &st);
            kept += st.area_caches;
            cr_assert_eq(st.portal_caches, 0, "portal caches survived an obstacle");
            for (int g = 0; g < 2; g++)
                for (uint32_t a = 0; a < n; a++) check_query(r, a, goals[g], NAV_TFL_DEFAULT, cases[m].map);
            cr_assert(router_remove_obstacle(r, id));
        }
        cr_expect_gt(kept, 0, "%s: every area cache was dropped by every obstacle", cases[m].map);
        router_destroy(r);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* Area caches answer from a search that stopped where the queries so far
** needed it. When an obstacle comes or goes, such a half-done cache is
** kept only if the exits it was offered keep their times and no other
** exit now lies below where it stopped; these queries leave half-done
** caches on both sides of every change and check every start after it. */
Test(route, half_done_area_caches_stay_exact_across_obstacles, .timeout = 120)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *built = map_generate_building(48, 48, 2, 7, &err);
    cr_assert_not_null(built, "%s", err.message);
    struct { NavWorld *w; int limit; } cases[] = { { test_load_map("maps/tower.lua"), 24 }, { built, 64 } };
    uint64_t seed = 0x68616c66ull;
    for (size_t m = 0; m < NAV_ARRAY_COUNT(cases); m++) {
        NavAreaGraph *ag = compile(cases[m].w, cases[m].limit);
        NavRouter *r = router_create(ag, NULL, &err);
        const char *name = world_name(cases[m].w);
        uint32_t n = area_count(ag), np = area_portal_count(ag);
        cr_assert_gt(np, 3, "%s: too few portals for this test", name);
        uint32_t every = np > 8 ? np / 8 : 1;
        for (uint32_t p = 0; p < np; p += every) {
            uint32_t goals[2] = { (uint32_t)(nav_rand_next(&seed) % n), (uint32_t)(nav_rand_next(&seed) % n) };
            const NavArea *pa = area_get(ag, area_portal(ag, p)->area);
            float lo[3] = { pa->center[0] - 0.3f, pa->center[1] - 0.3f, pa->zmin - 1.0f };
            float hi[3] = { pa->center[0] + 0.3f, pa->center[1] + 0.3f, pa->zmax + 1.0f };
            /* A few routes before, under and after the obstacle, each
            ** leaving caches half done; then every start after. */
            for (int phase = 0; phase < 3; phase++) {
                uint32_t id = 0;
                if (phase == 1) id = router_add_obstacle(r, lo, hi);
                for (int q = 0; q < 4; q++)
                    check_query(r, (uint32_t)(nav_rand_next(&seed) % n), goals[q & 1], NAV_TFL_DEFAULT, name);
                if (phase == 1) {
                    for (uint32_t a = 0; a < n; a += 3) check_query(r, a, goals[a & 1], NAV_TFL_DEFAULT, name);
                    cr_assert(router_remove_obstacle(r, id));
                }
            }
            for (uint32_t a = 0; a < n; a++)
                for (int g = 0; g < 2; g++) check_query(r, a, goals[g], NAV_TFL_DEFAULT, name);
        }
        router_destroy(r);
        area_destroy(ag);
        world_destroy(cases[m].w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* The next link to take must not depend on what was asked before (a half
** done cache sees offers in another order than a whole one): two routers
** asked the same questions in opposite orders, one with a cap that keeps
** evicting, give the same links. */
Test(route, answers_do_not_depend_on_the_order_of_queries, .timeout = 120)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *built = map_generate_building(48, 48, 2, 11, &err);
    cr_assert_not_null(built, "%s", err.message);
    struct { NavWorld *w; int limit; } cases[] = { { test_load_map("maps/tower.lua"), 24 },
                                                   { test_load_map("maps/gauntlet.lua"), 16 }, { built, 64 } };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(cases); m++) {
        NavAreaGraph *ag = compile(cases[m].w, cases[m].limit);
        NavRouter *fwd = router_create(ag, NULL, &err), *back = router_create(ag, &(NavRouterDesc){ .cache_bytes = 48 << 10 }, &err);
        const char *name = world_name(cases[m].w);
        uint32_t n = area_count(ag), step = n > 200 ? n / 100 : 1;
        for (uint32_t g = 0; g < n; g += step)
            for (uint32_t a = 0; a < n; a++) {
                uint32_t g2 = n - 1 - g, a2 = n - 1 - a;
                NavRoute x, y;
                router_route(fwd, a, NULL, g, NAV_TFL_DEFAULT, &x);
                router_route(back, a2, NULL, g2, NAV_TFL_DEFAULT, &y);
                (void)x, (void)y;
            }
        for (uint32_t g = 0; g < n; g += step)
            for (uint32_t a = 0; a < n; a++) {
                NavRoute x, y;
                router_route(fwd, a, NULL, g, NAV_TFL_DEFAULT, &x);
                router_route(back, a, NULL, g, NAV_TFL_DEFAULT, &y);
                cr_assert_eq(x.time, y.time, "%s: %u -> %u: %u, then %u", name, a, g, x.time, y.time);
                cr_assert_eq(x.next_reach, y.next_reach, "%s: %u -> %u: first link %u, asked in another order %u", name, a,
                             g, x.next_reach, y.next_reach);
                for (uint32_t s = area_get(ag, a)->first_reach; s < area_get(ag, a)->first_reach + area_get(ag, a)->reach_count; s++) {
                    router_next(fwd, s, g, NAV_TFL_DEFAULT, &x);
                    router_next(back, s, g, NAV_TFL_DEFAULT, &y);
                    cr_assert_eq(x.next_reach, y.next_reach, "%s: after link %u to %u: next %u, asked in another order %u",
                                 name, s, g, x.next_reach, y.next_reach);
                }
            }
        router_destroy(fwd);
        router_destroy(back);
        area_destroy(ag);
        world_destroy(cases[m].w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* {======= looking ahead and around ======= */

Test(route, predict_stops_where_the_route_does_what_was_asked)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile(w, 0);
    NavError err;
    NavRouter *r = router_create(ag, NULL, &err);
    uint32_t n = area_count(ag), checked = 0;
    uint32_t links[1024];
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b += 3) {
            NavRoute q;
            int nl;
            cr_assert(NAV_SUCCEEDED(router_route_links(r, a, NULL, b, NAV_TFL_DEFAULT, links, 1024, &nl, &q)));
            if (nl < 2) continue;
            RoutePrediction pr;
            /* No conditions: it reaches the goal in the route's time. */
            RoutePredict none = { 0 };
            cr_assert(NAV_SUCCEEDED(router_predict(r, a, NULL, b, NAV_TFL_DEFAULT, &none, &pr)));
            cr_assert_eq(pr.stop, ROUTE_STOP_GOAL);
            cr_assert_eq(pr.time, q.time, "%u -> %u: predicted %u, routed %u", a, b, pr.time, q.time);
            cr_assert_eq(pr.hops, (uint32_t)nl);
            /* Stop before the first link that is not a walk. */
            int k = -1;
            for (int i = 0; i < nl && k < 0; i++)
                if (area_reach(ag, links[i])->type != NAV_TRAVEL_WALK) k = i;
            if (k >= 0) {
                RoutePredict st = { .travel_types = NAV_TFL_ALL_TYPES & ~NAV_TFL_TYPE(NAV_TRAVEL_WALK) };
                router_predict(r, a, NULL, b, NAV_TFL_DEFAULT, &st, &pr);
                cr_assert_eq(pr.stop, ROUTE_STOP_TRAVEL);
                cr_assert_eq(pr.reach, links[k], "%u -> %u: stopped at link %u, the route's first non-walk is %u", a,
                             b, pr.reach, links[k]);
                cr_assert_eq(pr.hops, (uint32_t)k);
                checked++;
            }
            RoutePredict hops = { .max_hops = 1 };
            router_predict(r, a, NULL, b, NAV_TFL_DEFAULT, &hops, &pr);
            cr_assert_eq(pr.stop, ROUTE_STOP_HOPS);
            cr_assert_eq(pr.reach, links[0]);
            cr_assert_eq(pr.area, area_reach(ag, links[0])->to);
        }
    cr_assert_gt(checked, 10, "few routes with a jump, ladder or teleport on gauntlet");
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static bool want_ladder(void *user, const NavAreaGraph *ag, uint32_t a)
{
    (void)user;
    return (area_get(ag, a)->flags & NAV_AREA_LADDER) != 0;
}

Test(route, nearest_goal_is_the_nearest_by_dijkstra)
{
    const char *maps[] = { "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, 0);
        NavError err;
        NavRouter *r = router_create(ag, NULL, &err);
        uint32_t n = area_count(ag);
        for (uint32_t a = 0; a < n; a += 2) {
            uint32_t got;
            NavRoute q;
            cr_assert(NAV_SUCCEEDED(router_nearest_goal(r, a, NULL, NAV_TFL_DEFAULT, 0, want_ladder, NULL, &got, &q)));
            /* The oracle: every ladder area by Dijkstra. */
            uint32_t best = ROUTE_UNREACHABLE;
            for (uint32_t b = 0; b < n; b++) {
                if (!want_ladder(NULL, ag, b)) continue;
                NavRoute d;
                route_dijkstra(r, a, NULL, b, NAV_TFL_DEFAULT, &d);
                if (d.time < best) best = d.time;
            }
            cr_assert_eq(q.time, best, "%s: from %u the nearest ladder takes %u, Dijkstra says %u", maps[m], a, q.time,
                         best);
            if (best != ROUTE_UNREACHABLE) cr_assert(want_ladder(NULL, ag, got));
        }
        router_destroy(r);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* The segment sampled densely: any sample outside every span blocks it. */
static bool sampled_blocked(const NavWorld *w, const float a[3], const float b[3])
{
    for (int i = 0; i <= 4000; i++) {
        float t = (float)i / 4000.0f, p[3];
        for (int k = 0; k < 3; k++) p[k] = a[k] + (b[k] - a[k]) * t;
        int cx, cy, nf;
        if (!world_point_cell(w, p[0], p[1], &cx, &cy)) return true;
        const NavFloor *f = world_column(w, cx, cy, &nf);
        bool open = false;
        for (int j = 0; j < nf && !open; j++)
            open = (f[j].contents == NAV_CONTENTS_VOID || f[j].z <= p[2] + 1e-3f) && f[j].ceiling >= p[2] - 1e-3f;
        if (!open) return true;
    }
    return false;
}

Test(route, line_of_sight_and_hiding)
{
    const char *maps[] = { "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua" };
    uint64_t seed = 42;
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, 0);
        uint32_t n = area_count(ag);
        /* Brute force: a segment a dense sampling finds blocked is never seen
        ** through; one the traversal calls blocked is found blocked by a
        ** sampling (up to a corner grazed exactly). */
        int agree = 0, total = 0;
        for (int i = 0; i < 400; i++) {
            const NavArea *x = area_get(ag, (uint32_t)(nav_rand_next(&seed) % n)), *y = area_get(ag, (uint32_t)(nav_rand_next(&seed) % n));
            float a[3] = { x->center[0], x->center[1], x->center[2] + 1.5f }, b[3] = { y->center[0], y->center[1], y->center[2] + 1.5f };
            bool los = world_line_of_sight(w, a, b), blocked = sampled_blocked(w, a, b);
            if (blocked) cr_assert_not(los, "%s: seen through a blocked segment", maps[m]);
            agree += los == !blocked;
            total++;
        }
        cr_expect_geq(agree * 100, total * 98, "%s: sight and sampling agree on %d of %d", maps[m], agree, total);

        NavError err;
        NavRouter *r = router_create(ag, NULL, &err);
        for (int i = 0; i < 40; i++) {
            uint32_t start = (uint32_t)(nav_rand_next(&seed) % n), ea = (uint32_t)(nav_rand_next(&seed) % n);
            const NavArea *e = area_get(ag, ea);
            float enemy[3] = { e->center[0], e->center[1], e->center[2] + 1.6f };
            uint32_t got;
            NavRoute q;
            cr_assert(NAV_SUCCEEDED(router_hide(r, start, NULL, enemy, 1.0f, NAV_TFL_DEFAULT, 0, &got, &q)));
            if (got == NAV_NO_AREA) continue;
            const NavArea *h = area_get(ag, got);
            float eye[3] = { h->center[0], h->center[1], h->center[2] + 0.9f * area_class(ag)->height };
            cr_assert_not(world_line_of_sight(w, enemy, eye), "%s: hiding area %u is in the enemy's sight", maps[m], got);
        }
        router_destroy(r);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(route, alternatives_leave_the_fastest_route)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, 0);
    NavError err;
    NavRouter *r = router_create(ag, NULL, &err);
    uint32_t n = area_count(ag), links[1024];
    int seen = 0;
    for (uint32_t a = 0; a < n; a += 7)
        for (uint32_t b = 1; b < n; b += 11) {
            RouteAlternative alt[16];
            int k = router_alternatives(r, a, b, NAV_TFL_DEFAULT, 1.5f, alt, 16);
            NavRoute q;
            int nl;
            cr_assert(NAV_SUCCEEDED(router_route_links(r, a, NULL, b, NAV_TFL_DEFAULT, links, 1024, &nl, &q)));
            for (int i = 0; i < k && i < 16; i++) {
                seen++;
                cr_assert_neq(alt[i].area, a);
                cr_assert_neq(alt[i].area, b);
                for (int j = 0; j < nl; j++) cr_assert_neq(area_reach(ag, links[j])->to, alt[i].area);
                if (i) cr_assert_geq(alt[i].extra, alt[i - 1].extra, "alternatives out of order");
                /* Through the alternative (to it, then on from its centre):
                ** within the slack, and the extra time as reported. */
                NavRoute x, y;
                route_dijkstra(r, a, NULL, alt[i].area, NAV_TFL_DEFAULT, &x);
                router_route(r, alt[i].area, NULL, b, NAV_TFL_DEFAULT, &y);
                cr_assert_leq((double)x.time + y.time, 1.5 * q.time + 1.0);
                uint32_t extra = x.time + y.time > q.time ? x.time + y.time - q.time : 0;
                cr_assert_eq(alt[i].extra, extra, "alternative %u: extra %u, measured %u", alt[i].area, alt[i].extra, extra);
            }
        }
    cr_assert_gt(seen, 0, "no alternative route anywhere in the tower");
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= routes round links one mover shuns ======= */

/* The oracle: a Dijkstra of its own over link states, from the graph's
** public numbers (the model of chain_time), with one link's time raised
** by `extra` (ROUTE_UNREACHABLE: never taken). O(links^2): small graphs. */
static uint32_t oracle_avoiding(const NavAreaGraph *ag, uint32_t start, const float p[3], uint32_t goal, uint32_t flags,
                                uint32_t avoid, uint32_t extra)
{
    uint32_t m = area_reach_count(ag);
    uint64_t *dist = nav_malloc(m * sizeof *dist);
    bool *done = nav_calloc(m, sizeof *done);
    cr_assert(dist && done);
    uint32_t f = flags | area_get(ag, start)->travel_flags | area_get(ag, goal)->travel_flags;
    for (uint32_t s = 0; s < m; s++) dist[s] = UINT64_MAX;
    const NavArea *sa = area_get(ag, start);
    for (uint32_t s = sa->first_reach; s < sa->first_reach + sa->reach_count; s++) {
        if (area_reach(ag, s)->travel_flags & ~f) continue;
        if (s == avoid && extra == ROUTE_UNREACHABLE) continue;
        dist[s] = (uint64_t)area_time_between(ag, start, p, area_reach(ag, s)->start) + area_reach(ag, s)->time +
                  ledge(ag, s, f) + (s == avoid ? extra : 0);
    }
    uint64_t best = UINT64_MAX;
    for (;;) {
        uint32_t t = UINT32_MAX;
        for (uint32_t s = 0; s < m; s++)
            if (!done[s] && dist[s] != UINT64_MAX && (t == UINT32_MAX || dist[s] < dist[t])) t = s;
        if (t == UINT32_MAX) break;
        done[t] = true;
        uint32_t a = area_reach(ag, t)->to;
        if (a == goal) {
            best = dist[t];
            break;
        }
        const NavArea *ar = area_get(ag, a);
        uint32_t in = in_index(ag, a, t);
        for (uint32_t s = ar->first_reach; s < ar->first_reach + ar->reach_count; s++) {
            if (done[s] || (area_reach(ag, s)->travel_flags & ~f)) continue;
            if (s == avoid && extra == ROUTE_UNREACHABLE) continue;
            uint64_t c = dist[t] + area_crossing_time(ag, a, in, s - ar->first_reach) + area_reach(ag, s)->time +
                         ledge(ag, s, f) + (s == avoid ? extra : 0);
            if (c < dist[s]) dist[s] = c;
        }
    }
    nav_free(dist);
    nav_free(done);
    return best == UINT64_MAX ? ROUTE_UNREACHABLE : (uint32_t)best;
}

/* The links of an avoiding route: contiguous from start, into goal,
** allowed by the flags; their time from the graph's numbers plus the
** avoided link's extra each time it is taken. */
static void check_avoiding_links(const NavAreaGraph *ag, uint32_t start, const float p[3], uint32_t goal, uint32_t flags,
                                 const uint32_t *links, int n, const RouteAvoid *av, const NavRoute *got,
                                 const char *what)
{
    cr_assert_gt(n, 0, "%s: a time %u but no links", what, got->time);
    cr_assert_eq(links[0], got->next_reach, "%s: next_reach %u, first link %u", what, got->next_reach, links[0]);
    cr_assert_eq(area_reach(ag, links[n - 1])->to, goal, "%s: the links end in area %u, not the goal %u", what,
                 area_reach(ag, links[n - 1])->to, goal);
    uint32_t f = flags | area_get(ag, start)->travel_flags | area_get(ag, goal)->travel_flags;
    uint64_t extra = 0;
    for (int i = 0; i < n; i++) {
        cr_assert((area_reach(ag, links[i])->travel_flags & ~f) == 0, "%s: link %u not allowed", what, links[i]);
        if (links[i] == av->link) {
            cr_assert_neq(av->extra, ROUTE_UNREACHABLE, "%s: the forbidden link %u is taken", what, av->link);
            extra += av->extra;
        }
    }
    /* chain_time checks each link leaves the area the last one entered. */
    uint64_t t = chain_time(ag, start, p, links, n, f) + extra;
    cr_assert_eq(t, (uint64_t)got->time, "%s: the links take %llu, the answer says %u", what, (unsigned long long)t,
                 got->time);
}

static void avoiding_oracle(NavWorld *w, int limit, int queries, uint64_t seed)
{
    NavAreaGraph *ag = compile(w, limit);
    NavError err;
    NavRouter *r = router_create(ag, NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    uint32_t n = area_count(ag);
    enum { CAP = 1024 };
    static uint32_t links[CAP], plain[CAP];
    int checked = 0, rerouted = 0, finite = 0;
    char what[200];
    for (int q = 0; q < queries; q++) {
        uint32_t a = (uint32_t)(nav_rand_next(&seed) % n), b = (uint32_t)(nav_rand_next(&seed) % n);
        uint32_t flags = q % 2 ? NAV_TFL_DEFAULT : random_flags(&seed);
        const float *p = area_get(ag, a)->center;
        NavRoute base;
        int nb;
        cr_assert(NAV_SUCCEEDED(router_route_links(r, a, p, b, flags, plain, CAP, &nb, &base)));
        if (nb <= 0 || base.time == ROUTE_UNREACHABLE) continue;
        /* No avoid entries: router_route_links's answer. */
        NavRoute same;
        int ns;
        cr_assert(NAV_SUCCEEDED(router_route_links_avoiding(r, a, p, b, flags, NULL, 0, links, CAP, &ns, &same)));
        cr_assert_eq(ns, nb);
        cr_assert_eq(same.time, base.time);
        cr_assert_eq(memcmp(links, plain, (size_t)nb * sizeof *links), 0, "no avoid entries, other links");
        /* One link on the fastest route forbidden. */
        RouteAvoid av = { plain[nav_rand_next(&seed) % (uint64_t)nb], ROUTE_UNREACHABLE };
        snprintf(what, sizeof what, "%s: %u -> %u flags %#x, link %u forbidden", world_name(w), a, b, flags, av.link);
        uint32_t want = oracle_avoiding(ag, a, p, b, flags, av.link, ROUTE_UNREACHABLE);
        NavRoute got;
        int k;
        cr_assert(NAV_SUCCEEDED(router_route_links_avoiding(r, a, p, b, flags, &av, 1, links, CAP, &k, &got)));
        cr_assert_eq(got.time, want, "%s: %u, the oracle says %u", what, got.time, want);
        cr_assert_geq(got.time, base.time);
        if (want == ROUTE_UNREACHABLE) {
            cr_assert_eq(k, 0, "%s: no route, but %d links", what, k);
        } else {
            cr_assert_leq(k, CAP);
            check_avoiding_links(ag, a, p, b, flags, links, k, &av, &got, what);
            rerouted++;
        }
        /* A finite extra: the old route plus it, or the best without the
        ** link, whichever is faster. */
        av.extra = 1 + (uint32_t)(nav_rand_next(&seed) % 800);
        snprintf(what, sizeof what, "%s: %u -> %u flags %#x, link %u +%u", world_name(w), a, b, flags, av.link, av.extra);
        cr_assert(NAV_SUCCEEDED(router_route_links_avoiding(r, a, p, b, flags, &av, 1, links, CAP, &k, &got)));
        uint64_t expect = (uint64_t)base.time + av.extra;
        if (want < expect) expect = want;
        cr_assert_eq((uint64_t)got.time, expect, "%s: %u, expected min(%u + %u, %u)", what, got.time, base.time, av.extra,
                     want);
        cr_assert_eq(got.time, oracle_avoiding(ag, a, p, b, flags, av.link, av.extra), "%s: the oracle differs", what);
        check_avoiding_links(ag, a, p, b, flags, links, k, &av, &got, what);
        finite++;
        /* The shared caches are untouched: the plain route is as before. */
        NavRoute again;
        cr_assert(NAV_SUCCEEDED(router_route(r, a, p, b, flags, &again)));
        cr_assert_eq(again.time, base.time, "%s: the plain route changed after an avoiding query", what);
        checked++;
    }
    cr_assert_gt(checked, queries / 4, "%s: only %d of %d queries had a route", world_name(w), checked, queries);
    cr_assert_gt(rerouted, 0, "%s: no query had a way round its forbidden link", world_name(w));
    cr_assert_gt(finite, 0);
    router_destroy(r);
    area_destroy(ag);
}

Test(route, avoiding_a_link_matches_the_oracle, .timeout = 120)
{
    for (size_t m = 0; m < NAV_ARRAY_COUNT(BUNDLED_MAPS); m++) {
        if (strstr(BUNDLED_MAPS[m], "valley")) continue; /* the oracle is quadratic */
        NavWorld *w = test_load_map(BUNDLED_MAPS[m]);
        avoiding_oracle(w, 32, 150, 100 + m);
        world_destroy(w);
    }
    NavError err;
    nav_error_clear(&err);
    NavWorld *built = map_generate_building(48, 48, 2, 5, &err);
    cr_assert_not_null(built, "%s", err.message);
    avoiding_oracle(built, 64, 150, 99);
    world_destroy(built);
    NAV_TEST_LEAK_CHECK();
}

/* Several entries; bad areas. */
Test(route, avoiding_several_links_and_bad_areas)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, 32);
    NavError err;
    NavRouter *r = router_create(ag, NULL, &err);
    uint32_t links[256];
    NavRoute q;
    int nq = 7;
    cr_assert_eq(router_route_links_avoiding(r, area_count(ag), NULL, 0, NAV_TFL_DEFAULT,
                                             &(RouteAvoid){ 0, ROUTE_UNREACHABLE }, 1, links, 256, &nq, &q),
                 NAV_FAILURE | NAV_E_PARAM);
    cr_assert_eq(nq, 0);
    cr_assert(NAV_SUCCEEDED(router_route_links_avoiding(r, 0, NULL, 0, NAV_TFL_DEFAULT,
                                                        &(RouteAvoid){ 0, ROUTE_UNREACHABLE }, 1, links, 256, &nq, &q)));
    cr_assert_eq(nq, 0);
    cr_assert_eq(q.time, 0);
    /* Forbid every link of the route in turn, cumulatively: each answer
    ** avoids them all, until there is no way left. */
    uint32_t a = 0, b = area_count(ag) - 1;
    RouteAvoid av[32];
    int na = 0;
    uint32_t last = 0;
    while (na < 32) {
        int n;
        cr_assert(NAV_SUCCEEDED(router_route_links_avoiding(r, a, NULL, b, NAV_TFL_DEFAULT, av, na, links, 256, &n, &q)));
        if (q.time == ROUTE_UNREACHABLE) break;
        cr_assert_gt(n, 0);
        cr_assert_geq(q.time, last, "forbidding more made the route faster");
        last = q.time;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < na; j++) cr_assert_neq(links[i], av[j].link, "forbidden link %u taken", av[j].link);
        av[na++] = (RouteAvoid){ links[n / 2], ROUTE_UNREACHABLE };
    }
    cr_assert_gt(na, 1, "the tower has a second way round its first route's links");
    router_destroy(r);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

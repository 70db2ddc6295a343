/*
** test_route_memsearch.c — routing within a navigation memory
** (route_memory.h, route_memsearch.c) against the plain Dijkstra of
** memory_support.h, restricted to the links a memory knows:
**
**   memory_route on the bundled maps with random memories: the oracle's
**   time, a route of known links that chains from the start into the goal
**   in exactly that time, and the same unreachable pairs; with a memory
**   that knows everything, the router's time;
**   the sliced search: any budget gives the one-pass answer, no slice
**   expands more than its budget, partial answers are routes of known
**   links into the goal or none, a start moved mid-search gets the
**   oracle's time from where it is, and a search is stale (then right
**   again once reset) after the memory or the obstacles change;
**   memory_explore: the frontier it names is the best under its score, by
**   brute force over every candidate.
*/
#include <math.h>
#include <string.h>

#include "route/route_internal.h"
#include "memory_support.h"

enum { CAP = 4096 };
static uint32_t links[CAP];

static NavRouter *make_router(const MemGraph *g)
{
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = router_create(g->ag, NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    return r;
}

/* A route's links against the oracle's time: known to m (when m), allowed
** by the flags, chained from p in start into goal, in out->time. */
static void check_route(const MemGraph *g, const NavMemory *m, uint32_t start, const float p[3], uint32_t goal,
                        uint32_t flags, const uint32_t *ls, int n, const NavRoute *out, const char *what)
{
    cr_assert_gt(n, 0, "%s: a time %u but no links", what, out->time);
    cr_assert_leq(n, CAP, "%s: %d links", what, n);
    cr_assert_eq(out->next_reach, ls[0], "%s: next_reach %u, the first link %u", what, out->next_reach, ls[0]);
    for (int i = 0; i < n; i++) {
        if (m) cr_assert(memory_knows_link(m, ls[i]), "%s: link %d of the route (%u) is not known", what, i, ls[i]);
        cr_assert_eq(area_reach(g->ag, ls[i])->travel_flags & ~flags, 0, "%s: link %u needs flags %#x, not in %#x",
                     what, ls[i], area_reach(g->ag, ls[i])->travel_flags, flags);
    }
    cr_assert_eq(area_reach(g->ag, ls[n - 1])->to, goal, "%s: the route ends in area %u, not the goal %u", what,
                 area_reach(g->ag, ls[n - 1])->to, goal);
    uint64_t t = mem_chain_time(g, start, p, ls, n, flags, what);
    cr_assert_eq(t, (uint64_t)out->time, "%s: the links take %llu, the route says %u", what, (unsigned long long)t,
                 out->time);
}

/* {======= memory_route against the oracle ======= */

static void route_oracle(const char *map, int queries, uint64_t seed)
{
    MemGraph g = mem_graph_load(map);
    NavRouter *r = make_router(&g);
    static const uint32_t densities[] = { 300, 600, 900 };
    char what[256];
    uint32_t reachable = 0, unreachable = 0;
    for (size_t d = 0; d < NAV_ARRAY_COUNT(densities); d++) {
        NavMemory *m = mem_random(&g, d == 2 ? 64 : 0, densities[d], &seed);
        for (int q = 0; q < queries; q++) {
            uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
            if (q % 4 == 1) b = (uint32_t)((a + 1 + nav_rand_next(&seed) % 6) % g.areas);
            uint32_t flags = mem_random_flags(&seed);
            const float *p = area_get(g.ag, a)->center;
            uint32_t f = mem_query_flags(&g, a, b, flags);
            MemAllow allow = { m, NULL, f };
            uint32_t want = mem_oracle_route(&g, &allow, a, p, b);
            NavRoute out;
            int n = -1;
            snprintf(what, sizeof what, "%s, memory of %u links (%u per mille): %u -> %u, flags %#x", map,
                     memory_link_count(m), densities[d], a, b, flags);
            cr_assert(NAV_SUCCEEDED(memory_route(r, m, a, p, b, flags, links, CAP, &n, &out)), "%s", what);
            cr_assert_eq(out.time, want, "%s: memory_route %u, the oracle %u", what, out.time, want);
            if (a == b) {
                cr_assert_eq(n, 0, "%s: links for a route in place", what);
            } else if (want == ROUTE_UNREACHABLE) {
                cr_assert_eq(n, 0, "%s: unreachable but %d links", what, n);
                cr_assert_eq(out.next_reach, UINT32_MAX);
                unreachable++;
            } else {
                check_route(&g, m, a, p, b, f, links, n, &out, what);
                reachable++;
            }
        }
        memory_destroy(m);
    }
    cr_assert_gt(reachable, (uint32_t)queries / 4, "%s: few routes within memory (%u)", map, reachable);
    cr_assert_gt(unreachable, 0, "%s: every pair was reachable within random memories", map);
    /* Out of range. */
    NavMemory *m = mem_random(&g, 0, 500, &seed);
    NavRoute out;
    int n = 5;
    cr_assert_eq(memory_route(r, m, g.areas, NULL, 0, NAV_TFL_DEFAULT, links, CAP, &n, &out),
                 NAV_FAILURE | NAV_E_PARAM);
    cr_assert_eq(n, 0);
    cr_assert_eq(memory_route(r, m, 0, NULL, g.areas, NAV_TFL_DEFAULT, links, CAP, &n, &out),
                 NAV_FAILURE | NAV_E_PARAM);
    memory_destroy(m);
    router_destroy(r);
    mem_graph_free(&g);
}

Test(memory_route, equals_the_oracle_on_the_small_maps, .timeout = 120)
{
    route_oracle("maps/tower.lua", 400, 1);
    route_oracle("maps/gauntlet.lua", 400, 2);
    route_oracle("maps/arena.lua", 300, 3);
    NAV_TEST_LEAK_CHECK();
}

Test(memory_route, equals_the_oracle_on_valley, .timeout = 240)
{
    route_oracle("maps/valley.lua", 120, 4);
    NAV_TEST_LEAK_CHECK();
}

/* A memory that knows every link routes as the router does. */
Test(memory_route, knowing_everything_is_the_router, .timeout = 120)
{
    for (size_t i = 0; i < 3; i++) {
        MemGraph g = mem_graph_load(MEM_MAPS[i]);
        NavRouter *r = make_router(&g);
        NavMemory *m = mem_random(&g, 64, 1000, &(uint64_t){ 9 });
        cr_assert_eq(memory_link_count(m), g.links, "%s: an area has more than 64 ways in", MEM_MAPS[i]);
        uint64_t seed = 50 + i;
        for (int q = 0; q < 300; q++) {
            uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
            uint32_t flags = mem_random_flags(&seed);
            NavRoute want, got;
            int n;
            cr_assert(NAV_SUCCEEDED(router_route(r, a, NULL, b, flags, &want)));
            cr_assert(NAV_SUCCEEDED(memory_route(r, m, a, NULL, b, flags, links, CAP, &n, &got)));
            cr_assert_eq(got.time, want.time, "%s: %u -> %u flags %#x: memory_route %u, router_route %u", MEM_MAPS[i],
                         a, b, flags, got.time, want.time);
        }
        memory_destroy(m);
        router_destroy(r);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the sliced search ======= */

/* The times along a finished route: from its start, each link's time to
** the goal (memsearch_link_time) is the next link's plus taking it. */
static void check_link_times(const MemGraph *g, const MemSearch *s, const uint32_t *ls, int n, uint32_t flags,
                             const char *what)
{
    for (int i = 0; i < n; i++) {
        uint32_t t = memsearch_link_time(s, ls[i]);
        uint64_t want = i == n - 1 ? 0 : memsearch_link_time(s, ls[i + 1]) + mem_take(g, ls[i], ls[i + 1], flags);
        cr_assert_eq((uint64_t)t, want, "%s: link %d of the route (%u) has time %u to the goal, not %llu", what, i,
                     ls[i], t, (unsigned long long)want);
    }
    cr_assert_eq(memsearch_link_time(s, g->links), ROUTE_UNREACHABLE);
}

/* Step s with budget until it is not running; each slice within the
** budget, the stats counting it, every partial answer a route of known
** links into the goal no faster than `best` (or none). Returns slices. */
static int run_sliced(const MemGraph *g, MemSearch *s, uint32_t budget, uint32_t start, const float p[3], uint32_t best,
                      const char *what)
{
    const NavMemory *m = memsearch_memory(s);
    uint32_t goal = memsearch_goal(s), flags = memsearch_flags(s);
    int slices = 0;
    MemSearchStats st0;
    memsearch_stats(s, &st0);
    while (memsearch_state(s) == MEMSEARCH_RUNNING) {
        uint32_t did = memsearch_step(s, budget);
        MemSearchStats st;
        memsearch_stats(s, &st);
        if (budget) cr_assert_leq(did, budget, "%s: a slice of budget %u expanded %u", what, budget, did);
        cr_assert_eq(st.expanded, st0.expanded + did, "%s: expanded %u after %u, the slice said %u", what, st.expanded,
                     st0.expanded, did);
        if (did) cr_assert_eq(st.slices, st0.slices + 1);
        cr_assert(did > 0 || memsearch_state(s) != MEMSEARCH_RUNNING, "%s: a slice expanded nothing, still running",
                  what);
        st0 = st;
        slices++;
        cr_assert_lt(slices, 10 * (int)g->links + 10, "%s: the search does not end", what);
        NavRoute part;
        int n = -1;
        memsearch_route(s, links, CAP, &n, &part);
        if (part.time == ROUTE_UNREACHABLE) {
            cr_assert_eq(n, 0, "%s: no time but %d links", what, n);
            continue;
        }
        cr_assert_geq(part.time, best, "%s: a partial route (%u) faster than the best (%u)", what, part.time, best);
        check_route(g, m, start, p, goal, flags, links, n, &part, what);
    }
    return slices;
}

/* Returns whether the goal is within memory. */
static bool sliced_case(const MemGraph *g, NavRouter *r, const NavMemory *m, uint32_t a, uint32_t b, uint32_t flags,
                        const char *map)
{
    const float *p = area_get(g->ag, a)->center;
    uint32_t f = mem_query_flags(g, a, b, flags);
    MemAllow allow = { m, NULL, f };
    uint32_t want = mem_oracle_route(g, &allow, a, p, b);
    static const uint32_t budgets[] = { 0, 1, 7, 100 };
    char what[200];
    for (size_t k = 0; k < NAV_ARRAY_COUNT(budgets); k++) {
        snprintf(what, sizeof what, "%s: %u -> %u flags %#x, budget %u", map, a, b, f, budgets[k]);
        NavError err;
        MemSearch *s = memsearch_create(r, m, b, f, &err);
        cr_assert_not_null(s, "%s", err.message);
        cr_assert_eq(memsearch_goal(s), b);
        cr_assert_eq(memsearch_memory(s), m);
        cr_assert_eq(memsearch_version(s), memory_version(m));
        cr_assert_not(memsearch_stale(s));
        cr_assert_geq(memsearch_bytes(s), 16u * g->links);
        memsearch_set_start(s, a, p);
        int slices = run_sliced(g, s, budgets[k], a, p, want, what);
        if (budgets[k] == 0) cr_assert_leq(slices, 1, "%s: %d slices without a budget", what, slices);
        NavRoute out;
        int n = -1;
        memsearch_route(s, links, CAP, &n, &out);
        cr_assert_eq(out.time, want, "%s: the search says %u, the oracle %u", what, out.time, want);
        MemSearchState state = memsearch_state(s);
        if (want == ROUTE_UNREACHABLE) {
            cr_assert_eq(state, MEMSEARCH_NO_ROUTE, "%s: state %d for no route", what, state);
            cr_assert_eq(n, 0);
        } else {
            cr_assert_eq(state, MEMSEARCH_READY, "%s: state %d", what, state);
            if (a != b) {
                check_route(g, m, a, p, b, f, links, n, &out, what);
                check_link_times(g, s, links, n, f, what);
            }
        }
        memsearch_destroy(s);
    }
    return want != ROUTE_UNREACHABLE;
}

Test(memory_route, slices_of_any_budget_give_the_one_pass_answer, .timeout = 120)
{
    for (size_t i = 0; i < 3; i++) {
        MemGraph g = mem_graph_load(MEM_MAPS[i]);
        NavRouter *r = make_router(&g);
        uint64_t seed = 70 + i;
        NavMemory *m = mem_random(&g, 0, 850, &seed);
        int within = 0;
        for (int q = 0; q < 120; q++) {
            uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
            if (q % 3 == 1) b = (uint32_t)((a + 1 + nav_rand_next(&seed) % 8) % g.areas);
            if (q == 0) b = a;
            within += sliced_case(&g, r, m, a, b, mem_random_flags(&seed), MEM_MAPS[i]);
        }
        cr_assert_gt(within, 40, "%s: the goal was within memory %d times of 120", MEM_MAPS[i], within);
        memory_destroy(m);
        router_destroy(r);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* A bot that walked on while its search ran: the start moved to another
** area mid-search, or after the answer was ready; the answer, once ready,
** is the oracle's from where it is now. */
Test(memory_route, a_start_moved_mid_search_gets_the_route_from_there, .timeout = 120)
{
    for (size_t i = 0; i < 2; i++) {
        MemGraph g = mem_graph_load(MEM_MAPS[i]);
        NavRouter *r = make_router(&g);
        uint64_t seed = 90 + i;
        NavMemory *m = mem_random(&g, 0, 800, &seed);
        char what[200];
        int moved = 0;
        for (int q = 0; q < 60; q++) {
            uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
            uint32_t goal = (uint32_t)(nav_rand_next(&seed) % g.areas);
            if (q % 10 == 3) b = goal;
            /* Flags that allow whatever either start needs. */
            uint32_t f = mem_query_flags(&g, a, goal, NAV_TFL_DEFAULT) | area_get(g.ag, b)->travel_flags;
            MemAllow allow = { m, NULL, f };
            const float *pa = area_get(g.ag, a)->center;
            /* b's start point: where a link out of it begins, if any. */
            const NavArea *bb = area_get(g.ag, b);
            const float *pb = bb->reach_count ? area_reach(g.ag, bb->first_reach)->start : bb->center;
            uint32_t want = mem_oracle_route(&g, &allow, b, pb, goal);
            NavError err;
            MemSearch *s = memsearch_create(r, m, goal, f, &err);
            cr_assert_not_null(s);
            memsearch_set_start(s, a, pa);
            int before = 1 + (int)(nav_rand_next(&seed) % 4);
            if (q % 2) before = 1000000; /* to the end first */
            for (int k = 0; k < before && memsearch_state(s) == MEMSEARCH_RUNNING; k++) memsearch_step(s, 7);
            memsearch_set_start(s, b, pb);
            snprintf(what, sizeof what, "%s: %u -> %u moved to %u after %d slices", MEM_MAPS[i], a, goal, b, before);
            run_sliced(&g, s, 7, b, pb, want, what);
            NavRoute out;
            int n;
            memsearch_route(s, links, CAP, &n, &out);
            cr_assert_eq(out.time, want, "%s: %u, the oracle from there %u", what, out.time, want);
            if (want != ROUTE_UNREACHABLE && b != goal) check_route(&g, m, b, pb, goal, f, links, n, &out, what);
            /* And back to the first start. */
            uint32_t back = mem_oracle_route(&g, &allow, a, pa, goal);
            memsearch_set_start(s, a, pa);
            run_sliced(&g, s, 7, a, pa, back, what);
            memsearch_route(s, links, CAP, &n, &out);
            cr_assert_eq(out.time, back, "%s, then back: %u, the oracle %u", what, out.time, back);
            memsearch_destroy(s);
            moved++;
        }
        cr_assert_eq(moved, 60);
        memory_destroy(m);
        router_destroy(r);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* The search is stale once the memory learns or forgets a link, or an
** obstacle changes which links are usable; reset, it answers the oracle
** of the new memory and obstacles. */
Test(memory_route, a_stale_search_is_right_again_once_reset, .timeout = 120)
{
    MemGraph g = mem_graph_load("maps/tower.lua");
    NavRouter *r = make_router(&g);
    uint64_t seed = 123;
    NavMemory *m = mem_random(&g, 0, 600, &seed);
    int obstacle_cases = 0;
    char what[200];
    for (int q = 0; q < 40; q++) {
        uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
        uint32_t f = mem_query_flags(&g, a, b, NAV_TFL_DEFAULT);
        const float *p = area_get(g.ag, a)->center;
        NavError err;
        MemSearch *s = memsearch_create(r, m, b, f, &err);
        memsearch_set_start(s, a, p);
        memsearch_step(s, 0);
        NavRoute out;
        int n;
        memsearch_route(s, links, CAP, &n, &out);
        /* 1. learn a link (or forget one of the route's) */
        uint32_t l = (uint32_t)(nav_rand_next(&seed) % g.links);
        if (q % 3 == 0 && n > 0) cr_assert(memory_forget_link(m, links[n / 2]));
        else if (memory_knows_link(m, l)) cr_assert(memory_forget_link(m, l));
        else cr_assert_geq(memory_learn_link(m, l, 2000, NULL), 0);
        cr_assert(memsearch_stale(s), "a search over a memory that changed is not stale");
        memsearch_reset(s, m, b, f);
        cr_assert_not(memsearch_stale(s));
        memsearch_set_start(s, a, p);
        MemAllow allow = { m, NULL, f };
        snprintf(what, sizeof what, "tower %u -> %u after the memory changed", a, b);
        uint32_t want = mem_oracle_route(&g, &allow, a, p, b);
        run_sliced(&g, s, 13, a, p, want, what);
        memsearch_route(s, links, CAP, &n, &out);
        cr_assert_eq(out.time, want, "%s: %u, the oracle %u", what, out.time, want);
        /* 2. an obstacle on the route's middle link's target */
        if (n > 0) {
            const NavArea *mid = area_get(g.ag, area_reach(g.ag, links[n / 2])->to);
            float lo[3] = { mid->center[0] - 0.2f, mid->center[1] - 0.2f, mid->center[2] - 1.0f };
            float hi[3] = { mid->center[0] + 0.2f, mid->center[1] + 0.2f, mid->center[2] + 1.0f };
            uint32_t id = router_add_obstacle(r, lo, hi);
            cr_assert_neq(id, 0);
            NavRouterStats rst;
            router_stats(r, &rst);
            if (rst.disabled_links > 0) {
                obstacle_cases++;
                cr_assert(memsearch_stale(s), "a search is not stale after an obstacle disabled %u links",
                          rst.disabled_links);
                memsearch_reset(s, m, b, f);
                memsearch_set_start(s, a, p);
                MemAllow blocked = { m, r->disabled, f };
                want = mem_oracle_route(&g, &blocked, a, p, b);
                snprintf(what, sizeof what, "tower %u -> %u round an obstacle", a, b);
                run_sliced(&g, s, 13, a, p, want, what);
                memsearch_route(s, links, CAP, &n, &out);
                cr_assert_eq(out.time, want, "%s: %u, the oracle %u", what, out.time, want);
                if (want != ROUTE_UNREACHABLE && a != b)
                    for (int k = 0; k < n; k++) cr_assert_eq(r->disabled[links[k]], 0, "%s: a disabled link", what);
            }
            cr_assert(router_remove_obstacle(r, id));
            if (rst.disabled_links > 0) cr_assert(memsearch_stale(s), "not stale after an obstacle was removed");
        }
        memsearch_destroy(s);
    }
    cr_assert_gt(obstacle_cases, 5, "few obstacles disabled anything");
    memory_destroy(m);
    router_destroy(r);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= exploring ======= */

typedef struct Frontier {
    uint64_t best; /* the least score, UINT64_MAX when there is no candidate */
    uint32_t candidates;
    uint32_t *list; /* the candidate links, each once */
    uint32_t listed;
} Frontier;

static bool in_list(const uint32_t *list, int n, uint32_t l)
{
    for (int i = 0; i < n; i++)
        if (list[i] == l) return true;
    return false;
}

/* The straight-line part of the score: from the end of u to the goal's
** centre at speed, in hundredths. */
static uint32_t straight(const MemGraph *g, uint32_t u, uint32_t goal, float speed)
{
    const float *e = area_reach(g->ag, u)->end, *c = area_get(g->ag, goal)->center;
    float dx = c[0] - e[0], dy = c[1] - e[1], dz = c[2] - e[2];
    return (uint32_t)(sqrtf(dx * dx + dy * dy + dz * dz) / speed * 100.0f);
}

/* Every candidate by brute force: an unknown link of a tried type, usable,
** not shunned, out of the start or out of any area a state reached over
** known links enters; its score the time to take it there plus the
** straight line from its end to the goal. */
static Frontier frontier(const MemGraph *g, const NavMemory *m, uint32_t start, const float p[3], uint32_t goal,
                         uint32_t flags, uint32_t try_types, const uint32_t *shun, int shun_count, float speed)
{
    Frontier fr = { UINT64_MAX, 0, nav_malloc((g->links + 1) * sizeof(uint32_t)), 0 };
    uint64_t *dist = nav_malloc((g->links + 1) * sizeof *dist);
    MemAllow allow = { m, NULL, flags };
    mem_oracle_search(g, &allow, start, p, UINT32_MAX, dist);
    bool *seen = nav_calloc(g->links + 1, 1);
    for (uint32_t s = UINT32_MAX;; s = s == UINT32_MAX ? 0 : s + 1) {
        if (s != UINT32_MAX && s >= g->links) break;
        if (s != UINT32_MAX && dist[s] == UINT64_MAX) continue;
        uint32_t a = s == UINT32_MAX ? start : area_reach(g->ag, s)->to;
        const NavArea *ar = area_get(g->ag, a);
        for (uint32_t u = ar->first_reach; u < ar->first_reach + ar->reach_count; u++) {
            const NavReach *r = area_reach(g->ag, u);
            if (memory_knows_link(m, u) || (r->travel_flags & ~flags) || !(NAV_TFL_TYPE(r->type) & try_types)) continue;
            if (in_list(shun, shun_count, u)) continue;
            fr.candidates++;
            if (!seen[u]) seen[u] = true, fr.list[fr.listed++] = u;
            uint64_t c = (s == UINT32_MAX ? mem_take_from_point(g, p, u, flags) : dist[s] + mem_take(g, s, u, flags)) +
                         straight(g, u, goal, speed);
            if (c < fr.best) fr.best = c;
        }
    }
    nav_free(seen);
    nav_free(dist);
    return fr;
}

static void explore_case(const MemGraph *g, NavRouter *r, const NavMemory *m, uint32_t a, uint32_t b, uint32_t flags,
                         const MemExplore *opt, const char *what)
{
    uint32_t f = mem_query_flags(g, a, b, flags);
    const float *p = area_get(g->ag, a)->center;
    uint32_t try_types =
        opt->try_types ? opt->try_types : NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
    float speed = opt->speed > 0 ? opt->speed : area_class(g->ag)->run_speed;
    MemAllow allow = { m, NULL, f };
    uint32_t within = mem_oracle_route(g, &allow, a, p, b);
    Frontier fr = frontier(g, m, a, p, b, f, try_types, opt->shun, opt->shun_count, speed);
    NavRoute out;
    int n = -1;
    cr_assert(NAV_SUCCEEDED(memory_explore(r, m, a, p, b, flags, opt, links, CAP, &n, &out)), "%s", what);
    if (a == b || within != ROUTE_UNREACHABLE) {
        /* The goal is within memory: memory_route's business. */
        cr_assert_eq(n, 0, "%s: the goal is within memory (%u), yet %d links to explore", what, within, n);
        cr_assert_eq(out.time, within, "%s: the goal is within memory in %u, explore says %u", what, within, out.time);
    } else if (fr.best == UINT64_MAX) {
        cr_assert_eq(n, 0, "%s: no frontier, yet %d links", what, n);
        cr_assert_eq(out.time, ROUTE_UNREACHABLE);
    } else {
        cr_assert_gt(n, 0, "%s: %u candidates (best %llu), none chosen", what, fr.candidates,
                     (unsigned long long)fr.best);
        cr_assert_leq(n, CAP);
        cr_assert_eq(out.next_reach, links[0]);
        for (int i = 0; i < n - 1; i++)
            cr_assert(memory_knows_link(m, links[i]), "%s: link %d (%u) on the way to the frontier is unknown", what, i,
                      links[i]);
        uint32_t u = links[n - 1];
        const NavReach *ru = area_reach(g->ag, u);
        cr_assert_not(memory_knows_link(m, u), "%s: the frontier link %u is known", what, u);
        cr_assert(NAV_TFL_TYPE(ru->type) & try_types, "%s: the frontier link %u is a %s, not a type it tries", what, u,
                  area_travel_name(ru->type));
        cr_assert_eq(ru->travel_flags & ~f, 0, "%s: the frontier link %u is not usable", what, u);
        cr_assert_not(in_list(opt->shun, opt->shun_count, u), "%s: the frontier link %u is shunned", what, u);
        for (int i = 0; i < n; i++) cr_assert_eq(area_reach(g->ag, links[i])->travel_flags & ~f, 0);
        uint64_t score = mem_chain_time(g, a, p, links, n, f, what) + straight(g, u, b, speed);
        cr_assert_eq(score, (uint64_t)out.time, "%s: the route scores %llu, explore says %u", what,
                     (unsigned long long)score, out.time);
        cr_assert_eq(score, fr.best, "%s: the frontier %u scores %llu, the best of %u candidates %llu", what, u,
                     (unsigned long long)score, fr.candidates, (unsigned long long)fr.best);
    }
    nav_free(fr.list);
}

Test(memory_route, explore_names_the_best_frontier, .timeout = 120)
{
    static const uint32_t tries[] = { 0, NAV_TFL_TYPE(NAV_TRAVEL_WALK),
                                      NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_JUMP) |
                                          NAV_TFL_TYPE(NAV_TRAVEL_LADDER),
                                      NAV_TFL_ALL_TYPES };
    char what[200];
    for (size_t i = 0; i < 3; i++) {
        MemGraph g = mem_graph_load(MEM_MAPS[i]);
        NavRouter *r = make_router(&g);
        uint64_t seed = 300 + i;
        int chosen = 0, none = 0, within = 0;
        for (int k = 0; k < 6; k++) {
            NavMemory *m = mem_random(&g, 0, 50 + 60 * (uint32_t)k, &seed);
            for (int q = 0; q < 50; q++) {
                uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
                MemExplore opt = { 0 };
                opt.try_types = tries[nav_rand_next(&seed) % NAV_ARRAY_COUNT(tries)];
                opt.speed = q % 3 == 0 ? 2.5f : 0.0f;
                uint32_t flags = mem_random_flags(&seed);
                /* Shun about a third of the candidates. */
                uint32_t f = mem_query_flags(&g, a, b, flags);
                uint32_t try_types =
                    opt.try_types ? opt.try_types : NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
                Frontier all = frontier(&g, m, a, area_get(g.ag, a)->center, b, f, try_types, NULL, 0, 1.0f);
                uint32_t shun[64];
                for (uint32_t c = 0; c < all.listed && opt.shun_count < 64; c++)
                    if (nav_rand_next(&seed) % 3 == 0) shun[opt.shun_count++] = all.list[c];
                opt.shun = shun;
                nav_free(all.list);
                snprintf(what, sizeof what, "%s: explore %u -> %u, flags %#x, try %#x, %d shunned", MEM_MAPS[i], a, b,
                         flags, opt.try_types, opt.shun_count);
                explore_case(&g, r, m, a, b, flags, &opt, what);
                int n;
                NavRoute out;
                memory_explore(r, m, a, NULL, b, flags, &opt, links, CAP, &n, &out);
                if (n > 0) chosen++;
                else if (out.time == ROUTE_UNREACHABLE) none++;
                else within++;
            }
            memory_destroy(m);
        }
        cr_assert_gt(chosen, 50, "%s: a frontier was named only %d times", MEM_MAPS[i], chosen);
        cr_assert_gt(within, 5, "%s: the goal was within memory only %d times", MEM_MAPS[i], within);
        router_destroy(r);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* With every candidate shunned there is nothing left to explore; with one
** left, it is the one. */
Test(memory_route, explore_names_nothing_when_every_frontier_is_shunned)
{
    MemGraph g = mem_graph_load("maps/tower.lua");
    NavRouter *r = make_router(&g);
    uint64_t seed = 400;
    int cases = 0;
    const uint32_t on_foot = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
    for (int q = 0; q < 200 && cases < 20; q++) {
        /* A learner that knows its floor on foot; a goal on another. */
        uint32_t a = (uint32_t)(nav_rand_next(&seed) % g.areas), b = (uint32_t)(nav_rand_next(&seed) % g.areas);
        NavError err;
        NavMemory *m = memory_create(g.ag, 64, &err);
        memory_learn_reachable(m, a, on_foot, NAV_TFL_DEFAULT, area_get(g.ag, a)->layer, 1);
        /* Forget a few of its links, so there is a frontier on foot. */
        for (uint32_t l = 0; l < g.links; l++)
            if (memory_knows_link(m, l) && nav_rand_next(&seed) % 8 == 0) memory_forget_link(m, l);
        uint32_t f = mem_query_flags(&g, a, b, NAV_TFL_DEFAULT);
        const float *p = area_get(g.ag, a)->center;
        MemAllow allow = { m, NULL, f };
        Frontier all = frontier(&g, m, a, p, b, f, on_foot, NULL, 0, 1.0f);
        if (mem_oracle_route(&g, &allow, a, p, b) != ROUTE_UNREACHABLE || all.listed < 2) {
            nav_free(all.list);
            memory_destroy(m);
            continue;
        }
        cases++;
        MemExplore opt = { .shun = all.list, .shun_count = (int)all.listed };
        NavRoute out;
        int n = -1;
        cr_assert(NAV_SUCCEEDED(memory_explore(r, m, a, NULL, b, NAV_TFL_DEFAULT, &opt, links, CAP, &n, &out)));
        cr_assert_eq(n, 0, "tower %u -> %u: all %u candidates shunned, yet a frontier (%u)", a, b, all.listed,
                     n > 0 ? links[n - 1] : 0);
        cr_assert_eq(out.time, ROUTE_UNREACHABLE);
        /* All but the last: the last it is. */
        opt.shun_count--;
        cr_assert(NAV_SUCCEEDED(memory_explore(r, m, a, NULL, b, NAV_TFL_DEFAULT, &opt, links, CAP, &n, &out)));
        cr_assert_gt(n, 0);
        cr_assert_eq(links[n - 1], all.list[all.listed - 1], "the one link not shunned is %u, explore names %u",
                     all.list[all.listed - 1], links[n - 1]);
        nav_free(all.list);
        memory_destroy(m);
    }
    cr_assert_geq(cases, 10, "few cases with a frontier (%d)", cases);
    router_destroy(r);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

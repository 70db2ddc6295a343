/*
** test_route_memory.c — navigation memories (route_memory.h): learning and
** forgetting, the bound per area and its replacement rule against a model
** written here, versions, copies and merges, learn_reachable against a
** plain flood, memory_bytes, and the memory file: round trips and every
** kind of corrupt input refused with its line and field, the memory left
** as it was.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memory_support.h"

static NavMemory *make(const MemGraph *g, int cap)
{
    NavError err;
    nav_error_clear(&err);
    NavMemory *m = memory_create(g->ag, cap, &err);
    cr_assert_not_null(m, "%s", err.message);
    return m;
}

/* {======= learning, forgetting, versions ======= */

Test(memory, create_refuses_a_bound_out_of_range)
{
    MemGraph g = mem_graph_load("maps/arena.lua");
    static const int bad[] = { -1, 65, 1000, -64 };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        NavError err;
        nav_error_clear(&err);
        cr_assert_null(memory_create(g.ag, bad[i], &err), "links_per_area %d accepted", bad[i]);
        cr_assert_eq(err.status, NAV_FAILURE | NAV_E_PARAM);
        cr_assert_str_eq(err.field, "links_per_area");
        cr_assert_not_null(strstr(err.message, "1 to 64"), "%s", err.message);
    }
    NavMemory *m = make(&g, 0);
    cr_assert_eq(memory_links_per_area(m), MEMORY_LINKS_PER_AREA);
    cr_assert_eq(memory_graph(m), g.ag);
    cr_assert_eq(memory_area_count(m), 0);
    cr_assert_eq(memory_link_count(m), 0);
    memory_destroy(m);
    m = make(&g, 1);
    cr_assert_eq(memory_links_per_area(m), 1);
    memory_destroy(m);
    m = make(&g, 64);
    cr_assert_eq(memory_links_per_area(m), 64);
    memory_destroy(m);
    memory_destroy(NULL);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

Test(memory, learning_and_forgetting)
{
    MemGraph g = mem_graph_load("maps/tower.lua");
    NavMemory *m = make(&g, 64);
    /* Areas: new once, out of range never. */
    cr_assert(memory_learn_area(m, 3));
    cr_assert_not(memory_learn_area(m, 3));
    cr_assert_not(memory_learn_area(m, g.areas));
    cr_assert_not(memory_learn_area(m, UINT32_MAX));
    cr_assert(memory_knows_area(m, 3));
    cr_assert_not(memory_knows_area(m, g.areas));
    cr_assert_eq(memory_area_count(m), 1);
    /* A link: new (1), then known (0) with its stamp raised, never lowered;
    ** both its areas are known; a bad id is -1 and changes nothing. */
    uint32_t l = g.links / 2, forgot = 7;
    const NavReach *r = area_reach(g.ag, l);
    cr_assert_eq(memory_learn_link(m, l, 50, &forgot), 1);
    cr_assert_eq(forgot, UINT32_MAX);
    cr_assert(memory_knows_link(m, l));
    cr_assert(memory_knows_area(m, r->from) && memory_knows_area(m, r->to));
    cr_assert_eq(memory_link_seen(m, l), 50);
    cr_assert_eq(memory_learn_link(m, l, 40, NULL), 0);
    cr_assert_eq(memory_link_seen(m, l), 50, "a stamp was lowered");
    cr_assert_eq(memory_learn_link(m, l, 60, NULL), 0);
    cr_assert_eq(memory_link_seen(m, l), 60);
    cr_assert_eq(memory_learn_link(m, g.links, 5, &forgot), -1);
    cr_assert_eq(forgot, UINT32_MAX);
    cr_assert_not(memory_knows_link(m, g.links));
    cr_assert_eq(memory_link_seen(m, g.links), 0);
    /* Stamp 0 is taken as 1: a known link is never seen at 0. */
    cr_assert_eq(memory_learn_link(m, l + 1, 0, NULL), 1);
    cr_assert_eq(memory_link_seen(m, l + 1), 1);
    cr_assert_eq(memory_link_count(m), 2);
    /* Forgetting a link keeps its areas. */
    cr_assert(memory_forget_link(m, l + 1));
    cr_assert_not(memory_forget_link(m, l + 1));
    cr_assert_not(memory_forget_link(m, g.links));
    cr_assert_eq(memory_link_count(m), 1);
    cr_assert(memory_knows_area(m, area_reach(g.ag, l + 1)->from));
    /* Forgetting an area forgets every known link into and out of it, and
    ** no other. Learn every link touching area a, and a few elsewhere. */
    memory_clear(m);
    uint32_t a = area_reach(g.ag, l)->to;
    uint32_t n_in;
    const uint32_t *in = area_incoming(g.ag, a, &n_in);
    for (uint32_t k = 0; k < n_in; k++) memory_learn_link(m, in[k], 10, NULL);
    const NavArea *ar = area_get(g.ag, a);
    for (uint32_t k = 0; k < ar->reach_count; k++) memory_learn_link(m, ar->first_reach + k, 10, NULL);
    uint32_t others = 0;
    for (uint32_t k = 0; k < g.links; k += 97) {
        const NavReach *o = area_reach(g.ag, k);
        if (o->from == a || o->to == a) continue;
        if (memory_learn_link(m, k, 10, NULL) == 1) others++;
    }
    cr_assert(memory_forget_area(m, a));
    cr_assert_not(memory_knows_area(m, a));
    cr_assert_not(memory_forget_area(m, a));
    cr_assert_not(memory_forget_area(m, g.areas));
    for (uint32_t k = 0; k < g.links; k++) {
        const NavReach *o = area_reach(g.ag, k);
        if (o->from == a || o->to == a) cr_assert_not(memory_knows_link(m, k), "link %u of area %u kept", k, a);
    }
    cr_assert_eq(memory_link_count(m), others);
    memory_destroy(m);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* Every change of the known links bumps the version. */
Test(memory, every_change_of_the_known_links_bumps_the_version)
{
    MemGraph g = mem_graph_load("maps/gauntlet.lua");
    NavMemory *m = make(&g, 2), *o = make(&g, 2);
    uint32_t v = memory_version(m);
#define BUMPED(what)                                                                                                \
    do {                                                                                                            \
        cr_assert_gt(memory_version(m), v, "%s did not bump the version (%u, was %u)", what, memory_version(m), v); \
        v = memory_version(m);                                                                                      \
    } while (0)
    memory_learn_link(m, 0, 1, NULL);
    BUMPED("learning a link");
    memory_forget_link(m, 0);
    BUMPED("forgetting a link");
    /* The bound: three links into one area with a bound of two. */
    uint32_t area = UINT32_MAX, n = 0;
    const uint32_t *in = NULL;
    for (uint32_t a = 0; a < g.areas && area == UINT32_MAX; a++) {
        in = area_incoming(g.ag, a, &n);
        if (n >= 3) area = a;
    }
    cr_assert_neq(area, UINT32_MAX);
    memory_learn_link(m, in[0], 1, NULL);
    memory_learn_link(m, in[1], 2, NULL);
    v = memory_version(m);
    uint32_t forgot;
    cr_assert_eq(memory_learn_link(m, in[2], 3, &forgot), 1);
    cr_assert_eq(forgot, in[0]);
    BUMPED("learning a link that replaced another");
    memory_forget_area(m, area);
    BUMPED("forgetting an area with links");
    memory_learn_link(m, in[0], 1, NULL);
    v = memory_version(m);
    memory_clear(m);
    BUMPED("clearing");
    memory_learn_link(o, in[1], 4, NULL);
    memory_copy(m, o);
    BUMPED("copying");
    memory_learn_link(o, in[2], 5, NULL);
    cr_assert(memory_merge(m, o));
    BUMPED("merging");
    memory_clear(m);
    v = memory_version(m);
    cr_assert_gt(memory_learn_reachable(m, 0, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 3), 0);
    BUMPED("learn_reachable");
    char *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(memory_save_buffer(o, &data, &len, &err)), "%s", err.message);
    cr_assert(NAV_SUCCEEDED(memory_load_buffer(m, data, len, "o", &err)), "%s", err.message);
    BUMPED("loading");
    nav_free(data);
#undef BUMPED
    memory_destroy(m);
    memory_destroy(o);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the bound per area ======= */

/* The rule, modelled on one area's incoming links: a known link's stamp
** only rises; learning one more into a full area forgets the known link
** into it seen longest ago, ties the lowest id. Returns what it forgot. */
static uint32_t model_learn(uint32_t *seen, const uint32_t *in, uint32_t n, int cap, uint32_t k, uint32_t stamp)
{
    if (seen[k]) {
        if (stamp > seen[k]) seen[k] = stamp;
        return UINT32_MAX;
    }
    uint32_t known = 0, victim = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (!seen[i]) continue;
        known++;
        if (victim == UINT32_MAX || seen[i] < seen[victim] || (seen[i] == seen[victim] && in[i] < in[victim]))
            victim = i;
    }
    uint32_t forgot = UINT32_MAX;
    if ((int)known >= cap) {
        forgot = in[victim];
        seen[victim] = 0;
    }
    seen[k] = stamp;
    return forgot;
}

/* Every area of a graph with at least two ways in, every bound below its
** count, random learning (ticks that rise, as a run gives them, or small
** stamps with many ties, as merges and files give them). */
static void bound_everywhere(const char *map, uint64_t seed)
{
    MemGraph g = mem_graph_load(map);
    uint32_t *seen = nav_calloc(g.links + 1, sizeof *seen);
    uint32_t areas_checked = 0, evictions = 0;
    for (uint32_t a = 0; a < g.areas; a++) {
        uint32_t n;
        const uint32_t *in = area_incoming(g.ag, a, &n);
        if (n < 2) continue;
        areas_checked++;
        for (int cap = 1; cap < (int)n && cap <= MEMORY_LINKS_PER_AREA_MAX; cap++) {
            for (int rising = 0; rising < 2; rising++) {
                NavMemory *m = make(&g, cap);
                memset(seen, 0, n * sizeof *seen);
                uint32_t tick = 1;
                for (uint32_t step = 0; step < 4 * n; step++) {
                    uint32_t k = (uint32_t)(nav_rand_next(&seed) % n);
                    uint32_t stamp = rising ? tick++ : 1 + (uint32_t)(nav_rand_next(&seed) % 3);
                    bool was = seen[k] != 0;
                    uint32_t want = model_learn(seen, in, n, cap, k, stamp), forgot;
                    int got = memory_learn_link(m, in[k], stamp, &forgot);
                    cr_assert_eq(got, was ? 0 : 1, "%s area %u cap %d: learning link %u gave %d", map, a, cap, in[k],
                                 got);
                    cr_assert_eq(forgot, want, "%s area %u cap %d: learning link %u (stamp %u) forgot %u, not %u", map,
                                 a, cap, in[k], stamp, forgot, want);
                    if (want != UINT32_MAX) evictions++;
                    uint32_t known = 0;
                    for (uint32_t i = 0; i < n; i++) {
                        cr_assert_eq(memory_link_seen(m, in[i]), seen[i],
                                     "%s area %u cap %d: link %u seen at %u, the model says %u", map, a, cap, in[i],
                                     memory_link_seen(m, in[i]), seen[i]);
                        known += seen[i] != 0;
                    }
                    cr_assert_leq(known, (uint32_t)cap);
                    cr_assert_eq(memory_link_count(m), known);
                }
                memory_destroy(m);
            }
        }
    }
    cr_assert_gt(areas_checked, 10, "%s: few areas with two ways in", map);
    cr_assert_gt(evictions, 100, "%s: the bound was rarely reached", map);
    nav_free(seen);
    mem_graph_free(&g);
}

Test(memory, the_bound_per_area_forgets_the_oldest_everywhere, .timeout = 120)
{
    bound_everywhere("maps/gauntlet.lua", 11);
    bound_everywhere("maps/tower.lua", 12);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= copies and merges ======= */

Test(memory, copy_clone_and_clear)
{
    MemGraph g = mem_graph_load("maps/tower.lua"), h = mem_graph_load("maps/arena.lua");
    uint64_t seed = 21;
    NavMemory *a = mem_random(&g, 3, 300, &seed);
    for (uint32_t i = 0; i < g.areas; i += 7) memory_learn_area(a, i);
    NavError err;
    NavMemory *c = memory_clone(a, &err);
    cr_assert_not_null(c, "%s", err.message);
    mem_expect_equal(a, c, "a clone");
    /* Independent: changing the clone leaves the original. */
    uint32_t known = memory_link_count(a);
    memory_clear(c);
    cr_assert_eq(memory_link_count(c), 0);
    cr_assert_eq(memory_area_count(c), 0);
    for (uint32_t l = 0; l < g.links; l++) cr_assert_not(memory_knows_link(c, l));
    for (uint32_t i = 0; i < g.areas; i++) cr_assert_not(memory_knows_area(c, i));
    cr_assert_eq(memory_link_count(a), known);
    /* Copy takes everything, the bound too. */
    NavMemory *d = make(&g, 9);
    memory_learn_link(d, 1, 2, NULL);
    cr_assert(memory_copy(d, a));
    mem_expect_equal(a, d, "a copy");
    cr_assert(memory_copy(d, d));
    mem_expect_equal(a, d, "a copy onto itself");
    /* Not across graphs. */
    NavMemory *x = make(&h, 0);
    memory_learn_link(x, 0, 1, NULL);
    cr_assert_not(memory_copy(d, x));
    cr_assert_not(memory_merge(d, x));
    mem_expect_equal(a, d, "after a refused copy");
    memory_destroy(a);
    memory_destroy(c);
    memory_destroy(d);
    memory_destroy(x);
    mem_graph_free(&g);
    mem_graph_free(&h);
    NAV_TEST_LEAK_CHECK();
}

/* Sort key for "kept under the bound": newer first, then the higher id
** (the rule forgets the oldest, ties the lowest id). */
static int newer_first(const void *pa, const void *pb)
{
    const uint32_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] > b[0] ? -1 : 1;
    return a[1] > b[1] ? -1 : a[1] < b[1];
}

/* A merge learns everything the other knows; under the bound, the links
** into each area are the most recently seen of both (a link both know at
** its later stamp), whatever the order they were learned in. */
static void merge_case(const MemGraph *g, int cap, uint64_t seed)
{
    NavMemory *dst = mem_random(g, cap, 350, &seed), *src = mem_random(g, cap, 350, &seed);
    for (uint32_t i = 0; i < g->areas; i += 5) memory_learn_area(src, i);
    NavError err;
    NavMemory *before = memory_clone(dst, &err);
    cr_assert(memory_merge(dst, src));
    uint32_t(*cand)[2] = nav_malloc(sizeof *cand * 256);
    for (uint32_t a = 0; a < g->areas; a++) {
        cr_assert_eq(memory_knows_area(dst, a), memory_knows_area(before, a) || memory_knows_area(src, a),
                     "cap %d: area %u known %d after the merge", cap, a, memory_knows_area(dst, a));
        uint32_t n;
        const uint32_t *in = area_incoming(g->ag, a, &n);
        cr_assert_leq(n, 256);
        uint32_t c = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t s0 = memory_link_seen(before, in[k]), s1 = memory_link_seen(src, in[k]);
            uint32_t s = s0 > s1 ? s0 : s1;
            if (s) cand[c][0] = s, cand[c][1] = in[k], c++;
        }
        qsort(cand, c, sizeof *cand, newer_first);
        for (uint32_t k = 0; k < c; k++) {
            uint32_t want = k < (uint32_t)cap ? cand[k][0] : 0;
            cr_assert_eq(memory_link_seen(dst, cand[k][1]), want,
                         "cap %d, area %u: link %u (seen at %u, %u of %u by recency) is seen at %u after the merge, "
                         "not %u",
                         cap, a, cand[k][1], cand[k][0], k + 1, c, memory_link_seen(dst, cand[k][1]), want);
        }
    }
    nav_free(cand);
    memory_destroy(before);
    memory_destroy(dst);
    memory_destroy(src);
}

Test(memory, a_merge_keeps_the_most_recently_seen)
{
    MemGraph g = mem_graph_load("maps/tower.lua");
    for (int cap = 1; cap <= 4; cap++) merge_case(&g, cap, 100 + (uint64_t)cap);
    merge_case(&g, 64, 7);
    /* Merging a memory into itself changes nothing. */
    uint64_t seed = 5;
    NavMemory *m = mem_random(&g, 2, 400, &seed);
    NavError err;
    NavMemory *c = memory_clone(m, &err);
    cr_assert(memory_merge(m, m));
    mem_expect_equal(c, m, "merged into itself");
    memory_destroy(m);
    memory_destroy(c);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= learn_reachable against a flood ======= */

/* The links learn_reachable should learn: a plain breadth-first flood from
** start over links of the types and flags, into areas of the layer. */
static uint32_t flood(const MemGraph *g, uint32_t start, uint32_t types, uint32_t flags, int layer, bool *link_in,
                      bool *area_in)
{
    memset(link_in, 0, g->links);
    memset(area_in, 0, g->areas);
    uint32_t *queue = nav_malloc((g->areas + 1) * sizeof *queue), head = 0, tail = 0, links = 0;
    queue[tail++] = start;
    area_in[start] = true;
    while (head < tail) {
        const NavArea *a = area_get(g->ag, queue[head++]);
        for (uint32_t l = a->first_reach; l < a->first_reach + a->reach_count; l++) {
            const NavReach *r = area_reach(g->ag, l);
            if (!(types & NAV_TFL_TYPE(r->type)) || (r->travel_flags & ~flags)) continue;
            if (layer >= 0 && area_get(g->ag, r->to)->layer != layer) continue;
            link_in[l] = true;
            links++;
            if (!area_in[r->to]) {
                area_in[r->to] = true;
                queue[tail++] = r->to;
            }
        }
    }
    nav_free(queue);
    return links;
}

static void reachable_case(const MemGraph *g, uint32_t start, uint32_t types, uint32_t flags, int layer, int cap,
                           const char *map)
{
    bool *link_in = nav_malloc(g->links + 1), *area_in = nav_malloc(g->areas + 1);
    uint32_t want = flood(g, start, types, flags, layer, link_in, area_in);
    NavMemory *m = make(g, cap);
    uint32_t got = memory_learn_reachable(m, start, types, flags, layer, 9);
    uint32_t *into = nav_calloc(g->areas + 1, sizeof *into);
    for (uint32_t l = 0; l < g->links; l++)
        if (link_in[l]) into[area_reach(g->ag, l)->to]++;
    bool bounded = false;
    for (uint32_t a = 0; a < g->areas; a++) bounded |= into[a] > (uint32_t)cap;
    char what[200];
    snprintf(what, sizeof what, "%s: from area %u, types %#x, flags %#x, layer %d, bound %d", map, start, types, flags,
             layer, cap);
    if (!bounded) {
        cr_assert_eq(got, want, "%s: learned %u links, the flood reaches %u", what, got, want);
        for (uint32_t l = 0; l < g->links; l++)
            cr_assert_eq(memory_knows_link(m, l), link_in[l], "%s: link %u known %d, in the flood %d", what, l,
                         memory_knows_link(m, l), link_in[l]);
    } else {
        /* Under a bound the flood's links into an area are cut to it. */
        for (uint32_t l = 0; l < g->links; l++)
            if (memory_knows_link(m, l)) cr_assert(link_in[l], "%s: link %u learned, not in the flood", what, l);
        for (uint32_t a = 0; a < g->areas; a++) {
            uint32_t n, k = 0;
            const uint32_t *in = area_incoming(g->ag, a, &n);
            for (uint32_t i = 0; i < n; i++) k += memory_knows_link(m, in[i]);
            uint32_t expect = into[a] < (uint32_t)cap ? into[a] : (uint32_t)cap;
            cr_assert_eq(k, expect, "%s: %u links into area %u known, %u expected", what, k, a, expect);
        }
    }
    for (uint32_t a = 0; a < g->areas; a++)
        cr_assert_eq(memory_knows_area(m, a), area_in[a], "%s: area %u known %d, in the flood %d", what, a,
                     memory_knows_area(m, a), area_in[a]);
    for (uint32_t l = 0; l < g->links; l++)
        if (memory_knows_link(m, l)) cr_assert_eq(memory_link_seen(m, l), 9);
    memory_destroy(m);
    nav_free(into);
    nav_free(link_in);
    nav_free(area_in);
}

Test(memory, learn_reachable_is_a_flood_by_types_flags_and_layer, .timeout = 120)
{
    static const char *const maps[] = { "maps/tower.lua", "maps/gauntlet.lua" };
    const uint32_t on_foot = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
    for (size_t i = 0; i < NAV_ARRAY_COUNT(maps); i++) {
        MemGraph g = mem_graph_load(maps[i]);
        uint64_t seed = 31 + i;
        for (int q = 0; q < 12; q++) {
            uint32_t start = (uint32_t)(nav_rand_next(&seed) % g.areas);
            int layer = area_get(g.ag, start)->layer;
            reachable_case(&g, start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 64, maps[i]);
            reachable_case(&g, start, on_foot, NAV_TFL_DEFAULT, layer, 64, maps[i]);
            reachable_case(&g, start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, layer, 64, maps[i]);
            reachable_case(&g, start, on_foot | NAV_TFL_TYPE(NAV_TRAVEL_LADDER), NAV_TFL_DEFAULT & ~NAV_TFL_WATER, -1,
                           64, maps[i]);
            reachable_case(&g, start, (uint32_t)(nav_rand_next(&seed) & NAV_TFL_ALL_TYPES), mem_random_flags(&seed), -1,
                           64, maps[i]);
            reachable_case(&g, start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 2, maps[i]);
        }
        /* Out of range: nothing. */
        NavMemory *m = make(&g, 0);
        cr_assert_eq(memory_learn_reachable(m, g.areas, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 1), 0);
        cr_assert_eq(memory_area_count(m), 0);
        memory_destroy(m);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* What a memory costs: 4 bytes per link and 9 bits per area, and a small
** fixed part; the same whatever it knows. */
Test(memory, bytes_are_four_per_link_and_nine_bits_per_area)
{
    for (size_t i = 0; i < 3; i++) {
        MemGraph g = mem_graph_load(MEM_MAPS[i]);
        NavMemory *m = make(&g, 0);
        size_t b = memory_bytes(m), least = 4u * (size_t)g.links + (9u * (size_t)g.areas + 7) / 8;
        cr_assert_geq(b, least, "%s: %zu bytes, below %zu", MEM_MAPS[i], b, least);
        cr_assert_leq(b, least + 256, "%s: %zu bytes, far above %zu", MEM_MAPS[i], b, least);
        uint64_t seed = 3;
        NavMemory *r = mem_random(&g, 0, 500, &seed);
        cr_assert_eq(memory_bytes(r), b);
        memory_destroy(m);
        memory_destroy(r);
        mem_graph_free(&g);
    }
    NAV_TEST_LEAK_CHECK();
}

/* {======= files ======= */

static char tmp_dir[64];

static void remove_tmp(void)
{
    if (!tmp_dir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    cr_assert_eq(system(cmd), 0);
    tmp_dir[0] = '\0';
}

static const char *tmp_path(char *buf, size_t cap, const char *name)
{
    if (!tmp_dir[0]) {
        snprintf(tmp_dir, sizeof tmp_dir, "/tmp/navbot_memory_XXXXXX");
        cr_assert_not_null(mkdtemp(tmp_dir));
    }
    snprintf(buf, cap, "%s/%s", tmp_dir, name);
    return buf;
}

Test(memory, files_round_trip, .fini = remove_tmp)
{
    MemGraph g = mem_graph_load("maps/tower.lua");
    static const int caps[] = { 1, 3, 8, 64 };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(caps); i++) {
        uint64_t seed = 40 + i;
        NavMemory *m = mem_random(&g, caps[i], 100 + 250 * (uint32_t)i, &seed);
        for (uint32_t a = (uint32_t)i; a < g.areas; a += 11) memory_learn_area(m, a);
        if (i == 2) memory_learn_link(m, 5, UINT32_MAX, NULL);
        char path[128];
        tmp_path(path, sizeof path, "m.mem");
        NavError err;
        nav_error_clear(&err);
        cr_assert(NAV_SUCCEEDED(memory_save(m, path, &err)), "%s", err.message);
        /* Loaded into a memory with another bound and other contents. */
        NavMemory *l = make(&g, 5);
        memory_learn_link(l, 17, 3, NULL);
        memory_learn_area(l, g.areas - 1);
        cr_assert(NAV_SUCCEEDED(memory_load(l, path, &err)), "%s", err.message);
        mem_expect_equal(m, l, "saved and loaded");
        /* The same through buffers, and with CRLF line ends (an edited
        ** file) and comments and blank lines added. */
        char *data;
        size_t len;
        cr_assert(NAV_SUCCEEDED(memory_save_buffer(m, &data, &len, &err)), "%s", err.message);
        cr_assert_eq(strlen(data), len);
        cr_assert_eq(strncmp(data, "navbot-memory 1\n", 16), 0);
        char *crlf = nav_malloc(2 * len + 64);
        size_t n = 0;
        n += (size_t)sprintf(crlf, "# a comment\r\n\r\n");
        for (size_t k = 0; k < len; k++) {
            if (data[k] == '\n') crlf[n++] = '\r';
            crlf[n++] = data[k];
        }
        NavMemory *l2 = make(&g, 0);
        cr_assert(NAV_SUCCEEDED(memory_load_buffer(l2, data, len, "buffer", &err)), "%s", err.message);
        mem_expect_equal(m, l2, "through a buffer");
        memory_clear(l2);
        nav_error_clear(&err);
        cr_assert(NAV_SUCCEEDED(memory_load_buffer(l2, crlf, n, "crlf", &err)), "CRLF: line %d, %s: %s", err.line,
                  err.field, err.message);
        mem_expect_equal(m, l2, "with CRLF line ends");
        nav_free(crlf);
        nav_free(data);
        memory_destroy(l);
        memory_destroy(l2);
        memory_destroy(m);
    }
    /* A file that is not there. */
    NavMemory *m = make(&g, 0);
    NavError err;
    nav_error_clear(&err);
    char path[128];
    cr_assert(NAV_FAILED(memory_load(m, tmp_path(path, sizeof path, "none.mem"), &err)));
    cr_assert(err.message[0]);
    memory_destroy(m);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= corrupt files ======= */

typedef struct FileCase {
    const char *what;
    char text[2048];
    int line;          /* the line named */
    const char *field; /* the field named ("" for none) */
    const char *says;  /* in the message */
} FileCase;

/* Load c's text into m, which must refuse it naming the line and field and
** stay as it was. */
static void expect_refused(NavMemory *m, const FileCase *c)
{
    NavError err;
    nav_error_clear(&err);
    NavMemory *before = memory_clone(m, &err);
    cr_assert_not_null(before);
    uint32_t version = memory_version(m);
    NavStatus st = memory_load_buffer(m, c->text, strlen(c->text), "bad.mem", &err);
    cr_assert(NAV_FAILED(st), "%s: loaded:\n%s", c->what, c->text);
    cr_assert_eq(err.status, NAV_FAILURE | NAV_E_FORMAT, "%s: status %#x (%s)", c->what, (unsigned)err.status,
                 err.message);
    cr_assert_str_eq(err.file, "bad.mem", "%s", c->what);
    cr_assert_eq(err.line, c->line, "%s: line %d named, not %d (%s: %s)", c->what, err.line, c->line, err.field,
                 err.message);
    cr_assert_str_eq(err.field, c->field, "%s: field '%s' named, not '%s' (%s)", c->what, err.field, c->field,
                     err.message);
    cr_assert_not_null(strstr(err.message, c->says), "%s: '%s' does not say '%s'", c->what, err.message, c->says);
    cr_assert_eq(memory_version(m), version, "%s: the version changed", c->what);
    mem_expect_equal(before, m, c->what);
    memory_destroy(before);
}

Test(memory, corrupt_files_are_refused_naming_line_and_field)
{
    MemGraph g = mem_graph_load("maps/arena.lua");
    /* An area with three ways in (for the bound) and two links elsewhere. */
    uint32_t area = UINT32_MAX, n = 0;
    const uint32_t *in = NULL;
    for (uint32_t a = 0; a < g.areas && area == UINT32_MAX; a++) {
        in = area_incoming(g.ag, a, &n);
        if (n >= 3) area = a;
    }
    cr_assert_neq(area, UINT32_MAX);
    char head[256];
    snprintf(head, sizeof head, "navbot-memory 1\ngraph %u %u %016llx\n", g.areas, g.links,
             (unsigned long long)memory_graph_fingerprint(g.ag));
    /* The good file: eight lines, the links on 6 and 7, 'end' on 8. */
    char good[1024];
    snprintf(good, sizeof good, "%slinks_per_area 2\n# known\narea %u\nlink %u 5\nlink %u 7\nend\n", head, area, in[0],
             in[1]);
    uint64_t seed = 77;
    NavMemory *m = mem_random(&g, 0, 200, &seed);
    {
        NavMemory *t = make(&g, 0);
        NavError err;
        cr_assert(NAV_SUCCEEDED(memory_load_buffer(t, good, strlen(good), "good.mem", &err)), "%s", err.message);
        cr_assert_eq(memory_link_count(t), 2);
        cr_assert_eq(memory_link_seen(t, in[1]), 7);
        cr_assert_eq(memory_links_per_area(t), 2);
        memory_destroy(t);
    }
    static FileCase cases[32];
    int k = 0;
#define CASE(w, ln, fld, msg, ...)                                                 \
    do {                                                                           \
        cases[k] = (FileCase){ .what = w, .line = ln, .field = fld, .says = msg }; \
        snprintf(cases[k].text, sizeof cases[k].text, __VA_ARGS__);                \
        k++;                                                                       \
    } while (0)
    CASE("a wrong header", 1, "header", "not a navigation memory", "navbot-mem 1\n%s", good + 16);
    CASE("another file", 1, "header", "not a navigation memory", "return { name = 'x' }\n");
    CASE("a newer version", 1, "version", "version 2 is not supported", "navbot-memory 2\n%s", good + 16);
    CASE("no version", 1, "version", "version number", "navbot-memory\n%s", good + 16);
    CASE("a version with text", 1, "version", "version number", "navbot-memory 1x\n%s", good + 16);
    CASE("another fingerprint", 2, "graph", "another area graph",
         "navbot-memory 1\ngraph %u %u %016llx\nlinks_per_area 2\nend\n", g.areas, g.links,
         (unsigned long long)memory_graph_fingerprint(g.ag) ^ 1ull);
    CASE("another area count", 2, "graph", "another area graph",
         "navbot-memory 1\ngraph %u %u %016llx\nlinks_per_area 2\nend\n", g.areas + 1, g.links,
         (unsigned long long)memory_graph_fingerprint(g.ag));
    CASE("a short fingerprint", 2, "graph", "16 hex digits", "navbot-memory 1\ngraph %u %u abc\nend\n", g.areas,
         g.links);
    CASE("no graph line", 2, "graph", "expected 'graph", "navbot-memory 1\nlinks_per_area 2\nend\n");
    CASE("a bound of 0", 3, "links_per_area", "1 to 64", "%slinks_per_area 0\nend\n", head);
    CASE("a bound of 65", 3, "links_per_area", "1 to 64", "%slinks_per_area 65\nend\n", head);
    CASE("no bound", 3, "links_per_area", "expected 'links_per_area", "%sarea 1\nend\n", head);
    CASE("an area out of range", 5, "area", "out of range", "%slinks_per_area 2\n\narea %u\nend\n", head, g.areas);
    CASE("a negative area", 4, "area", "expected 'area ID'", "%slinks_per_area 2\narea -1\nend\n", head);
    CASE("an area past 32 bits", 4, "area", "expected 'area ID'", "%slinks_per_area 2\narea 4294967296\nend\n", head);
    CASE("an area listed twice", 5, "area", "listed twice", "%slinks_per_area 2\narea 1\narea 1\nend\n", head);
    CASE("a link out of range", 4, "link", "out of range", "%slinks_per_area 2\nlink %u 1\nend\n", head, g.links);
    CASE("a link seen at 0", 4, "link", "at least 1", "%slinks_per_area 2\nlink %u 0\nend\n", head, in[0]);
    CASE("a link without a stamp", 4, "link", "expected 'link ID SEEN'", "%slinks_per_area 2\nlink %u\nend\n", head,
         in[0]);
    CASE("a link listed twice", 5, "link", "listed twice", "%slinks_per_area 2\nlink %u 1\nlink %u 2\nend\n", head,
         in[0], in[0]);
    CASE("more links into an area than the bound", 6, "link", "more than 2 links into area",
         "%slinks_per_area 2\nlink %u 1\nlink %u 2\nlink %u 3\nend\n", head, in[0], in[1], in[2]);
    CASE("no 'end'", 8, "end", "ends early", "%slinks_per_area 2\n# known\narea %u\nlink %u 5\nlink %u 7\n", head, area,
         in[0], in[1]);
    CASE("text after 'end'", 9, "end", "after 'end'", "%sarea 1\n", good);
    CASE("a second 'end'", 9, "end", "after 'end'", "%send\n", good);
    CASE("words after 'end'", 4, "end", "nothing may follow", "%slinks_per_area 2\nend now\n", head);
    CASE("a garbage line", 5, "", "unknown line", "%slinks_per_area 2\narea 1\nwhat is this\nend\n", head);
    CASE("a binary line", 4, "", "unknown line", "%slinks_per_area 2\n\x01\x02\xff\nend\n", head);
    CASE("an empty file", 1, "end", "ends early", "%s", "");
#undef CASE
    for (int i = 0; i < k; i++) expect_refused(m, &cases[i]);
    /* Every truncation of the good file before its 'end' is refused. */
    size_t end_at = strstr(good, "\nend\n") - good + 1;
    for (size_t cut = 0; cut < end_at + 3; cut++) {
        NavError err;
        nav_error_clear(&err);
        NavMemory *before = memory_clone(m, &err);
        uint32_t version = memory_version(m);
        NavStatus st = memory_load_buffer(m, good, cut, "cut.mem", &err);
        cr_assert(NAV_FAILED(st), "cut at %zu of %zu: loaded", cut, strlen(good));
        cr_assert(err.message[0] && err.line >= 1 && err.line <= 9, "cut at %zu: line %d: %s", cut, err.line,
                  err.message);
        cr_assert_eq(memory_version(m), version);
        mem_expect_equal(before, m, "a truncated file");
        memory_destroy(before);
    }
    memory_destroy(m);
    mem_graph_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* A memory saved for one graph is refused by the graph of another map and
** by another class's graph of the same map. */
Test(memory, a_file_of_another_map_or_class_is_refused, .fini = remove_tmp)
{
    MemGraph arena = mem_graph_load("maps/arena.lua");
    uint64_t seed = 8;
    NavMemory *a = mem_random(&arena, 0, 300, &seed);
    char path[128];
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(memory_save(a, tmp_path(path, sizeof path, "arena.mem"), &err)), "%s", err.message);
    MemGraph tower = mem_graph_load("maps/tower.lua");
    NavMemory *t = mem_random(&tower, 0, 300, &seed);
    NavMemory *before = memory_clone(t, &err);
    cr_assert(NAV_FAILED(memory_load(t, path, &err)));
    cr_assert_eq(err.line, 2);
    cr_assert_str_eq(err.field, "graph");
    cr_assert_not_null(strstr(err.message, "the map or the class changed"), "%s", err.message);
    cr_assert_not_null(strstr(err.file, "arena.mem"), "%s", err.file);
    mem_expect_equal(before, t, "after loading another map's memory");
    /* valley's infantry and cavalry: one map, two graphs. */
    NavWorld *w = test_load_map("maps/valley.lua");
    NavAreaGraph *inf = area_build(w, world_find_class(w, "infantry"), NULL, &err);
    cr_assert_not_null(inf, "%s", err.message);
    NavAreaGraph *cav = area_build(w, world_find_class(w, "cavalry"), NULL, &err);
    cr_assert_not_null(cav, "%s", err.message);
    NavMemory *mi = memory_create(inf, 0, &err), *mc = memory_create(cav, 0, &err);
    memory_learn_reachable(mi, 0, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 2);
    cr_assert(NAV_SUCCEEDED(memory_save(mi, path, &err)), "%s", err.message);
    cr_assert(NAV_FAILED(memory_load(mc, path, &err)), "cavalry loaded infantry's memory");
    cr_assert_str_eq(err.field, "graph");
    cr_assert_eq(memory_link_count(mc), 0);
    memory_destroy(mi);
    memory_destroy(mc);
    area_destroy(inf);
    area_destroy(cav);
    world_destroy(w);
    memory_destroy(before);
    memory_destroy(a);
    memory_destroy(t);
    mem_graph_free(&arena);
    mem_graph_free(&tower);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/*
** memory_support.h — what the tests of navigation memories share
** (test_route_memory.c, test_route_memsearch.c, test_sim_learn.c): a
** bundled map's graph, random memories, and the oracles written here from
** the area graph's public numbers, not from the router's tables:
**
**   mem_oracle_route  a plain Dijkstra over link states restricted to the
**                     links a predicate allows, with route.h's cost model
**                     (the time from the start point to the first link's
**                     start, each link's time, the crossing time of every
**                     area between the link that entered it and the one
**                     that leaves it, the ledge penalty unless flying);
**   mem_chain_time    the time of a chain of links, checking that it
**                     chains (each link leaves the area the one before
**                     entered; the first leaves the start).
*/
#ifndef NAV_MEMORY_SUPPORT_H
#define NAV_MEMORY_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "area/area.h"
#include "core/alloc.h"
#include "core/random.h"
#include "map/map.h"
#include "route/route.h"
#include "route/route_memory.h"
#include "test_support.h"

/* The maps the routing oracles run on. */
static const char *const MEM_MAPS[] = { "maps/tower.lua", "maps/gauntlet.lua", "maps/arena.lua", "maps/valley.lua" };

/* A bundled map, its human graph and, per link, its place among its
** target's incoming links (the row of the crossing table it enters by). */
typedef struct MemGraph {
    NavWorld *w;
    NavAreaGraph *ag;
    uint32_t *in_pos;
    uint32_t areas, links;
} MemGraph;

static inline MemGraph mem_graph_load(const char *map)
{
    MemGraph g;
    memset(&g, 0, sizeof g);
    g.w = test_load_map(map);
    NavError err;
    nav_error_clear(&err);
    g.ag = area_build(g.w, world_find_class(g.w, "human"), NULL, &err);
    cr_assert_not_null(g.ag, "%s: %s", map, err.message);
    g.areas = area_count(g.ag);
    g.links = area_reach_count(g.ag);
    g.in_pos = nav_malloc((size_t)(g.links + 1) * sizeof *g.in_pos);
    for (uint32_t i = 0; i < g.links; i++) g.in_pos[i] = UINT32_MAX;
    for (uint32_t a = 0; a < g.areas; a++) {
        uint32_t n;
        const uint32_t *in = area_incoming(g.ag, a, &n);
        for (uint32_t k = 0; k < n; k++) {
            cr_assert_eq(area_reach(g.ag, in[k])->to, a, "%s: link %u is listed into area %u", map, in[k], a);
            g.in_pos[in[k]] = k;
        }
    }
    for (uint32_t i = 0; i < g.links; i++)
        cr_assert_neq(g.in_pos[i], UINT32_MAX, "%s: link %u is among no area's incoming links", map, i);
    return g;
}

static inline void mem_graph_free(MemGraph *g)
{
    nav_free(g->in_pos);
    area_destroy(g->ag);
    world_destroy(g->w);
    memset(g, 0, sizeof *g);
}

/* Which links a route may take: known to a memory (or all when m is
** NULL), allowed by the flags, not disabled (disabled may be NULL). */
typedef struct MemAllow {
    const NavMemory *m;
    const uint16_t *disabled; /* per link: obstacles disabling it */
    uint32_t flags;           /* the query's flags, start and goal included */
} MemAllow;

static inline bool mem_allowed(const NavAreaGraph *ag, const MemAllow *a, uint32_t l)
{
    if (a->m && !memory_knows_link(a->m, l)) return false;
    if (area_reach(ag, l)->travel_flags & ~a->flags) return false;
    return !a->disabled || a->disabled[l] == 0;
}

static inline uint32_t mem_ledge(const NavAreaGraph *ag, uint32_t l, uint32_t flags)
{
    bool ledge = (area_get(ag, area_reach(ag, l)->to)->flags & NAV_AREA_LEDGE) != 0;
    return ledge && !(flags & NAV_TFL_FLY) ? ROUTE_LEDGE_PENALTY : 0;
}

/* Taking link l from point p of its source area. */
static inline uint64_t mem_take_from_point(const MemGraph *g, const float p[3], uint32_t l, uint32_t flags)
{
    const NavReach *r = area_reach(g->ag, l);
    return (uint64_t)area_time_between(g->ag, r->from, p, r->start) + r->time + mem_ledge(g->ag, l, flags);
}

/* Taking link s having arrived in its source area by link `in`. */
static inline uint64_t mem_take(const MemGraph *g, uint32_t in, uint32_t s, uint32_t flags)
{
    const NavReach *r = area_reach(g->ag, s);
    uint32_t out = s - area_get(g->ag, r->from)->first_reach;
    return (uint64_t)area_crossing_time(g->ag, r->from, g->in_pos[in], out) + r->time + mem_ledge(g->ag, s, flags);
}

/* {======= a plain heap of (time, link) with lazy deletion ======= */

typedef struct MemHeapItem {
    uint64_t key;
    uint32_t link;
} MemHeapItem;

typedef struct MemHeap {
    MemHeapItem *a;
    size_t n, cap;
} MemHeap;

static inline void mem_heap_push(MemHeap *h, uint64_t key, uint32_t link)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->a = nav_realloc(h->a, h->cap * sizeof *h->a);
        cr_assert_not_null(h->a);
    }
    size_t i = h->n++;
    while (i > 0 && h->a[(i - 1) / 2].key > key) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = (MemHeapItem){ key, link };
}

static inline MemHeapItem mem_heap_pop(MemHeap *h)
{
    MemHeapItem top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->a[c + 1].key < h->a[c].key) c++;
        if (h->a[c].key >= last.key) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

/* }======= */

/* The forward Dijkstra from point p in start: dist[l] (UINT64_MAX when
** not reached) for every link state it reaches, stopping at the first
** state entering goal (goal UINT32_MAX: never). Returns that state's
** time, UINT64_MAX when none. dist has g->links entries. */
static inline uint64_t mem_oracle_search(const MemGraph *g, const MemAllow *allow, uint32_t start, const float p[3],
                                         uint32_t goal, uint64_t *dist)
{
    for (uint32_t i = 0; i < g->links; i++) dist[i] = UINT64_MAX;
    MemHeap h = { 0 };
    const NavArea *sa = area_get(g->ag, start);
    for (uint32_t l = sa->first_reach; l < sa->first_reach + sa->reach_count; l++) {
        if (!mem_allowed(g->ag, allow, l)) continue;
        uint64_t t = mem_take_from_point(g, p, l, allow->flags);
        if (t < dist[l]) {
            dist[l] = t;
            mem_heap_push(&h, t, l);
        }
    }
    uint64_t found = UINT64_MAX;
    bool *done = nav_calloc(g->links + 1, 1);
    while (h.n) {
        MemHeapItem it = mem_heap_pop(&h);
        if (done[it.link] || it.key > dist[it.link]) continue;
        done[it.link] = true;
        const NavReach *r = area_reach(g->ag, it.link);
        if (r->to == goal) {
            found = it.key;
            break;
        }
        const NavArea *b = area_get(g->ag, r->to);
        for (uint32_t s = b->first_reach; s < b->first_reach + b->reach_count; s++) {
            if (!mem_allowed(g->ag, allow, s)) continue;
            uint64_t c = it.key + mem_take(g, it.link, s, allow->flags);
            if (c < dist[s]) {
                dist[s] = c;
                mem_heap_push(&h, c, s);
            }
        }
    }
    nav_free(done);
    nav_free(h.a);
    return found;
}

/* The time of the fastest route from p in start into goal over the allowed
** links; ROUTE_UNREACHABLE when there is none, 0 when start is the goal. */
static inline uint32_t mem_oracle_route(const MemGraph *g, const MemAllow *allow, uint32_t start, const float p[3],
                                        uint32_t goal)
{
    if (start == goal) return 0;
    uint64_t *dist = nav_malloc((g->links + 1) * sizeof *dist);
    uint64_t t = mem_oracle_search(g, allow, start, p, goal, dist);
    nav_free(dist);
    cr_assert(t == UINT64_MAX || t < ROUTE_UNREACHABLE);
    return t == UINT64_MAX ? ROUTE_UNREACHABLE : (uint32_t)t;
}

/* The flags a query runs with (route.h): the mover's, and whatever the
** start's and the goal's areas need. */
static inline uint32_t mem_query_flags(const MemGraph *g, uint32_t start, uint32_t goal, uint32_t flags)
{
    return flags | area_get(g->ag, start)->travel_flags | area_get(g->ag, goal)->travel_flags;
}

/* The time of links[0..n) from p in start; fails the test, naming what,
** when they do not chain. */
static inline uint64_t mem_chain_time(const MemGraph *g, uint32_t start, const float p[3], const uint32_t *links, int n,
                                      uint32_t flags, const char *what)
{
    cr_assert_gt(n, 0, "%s: an empty chain", what);
    for (int i = 0; i < n; i++) cr_assert_lt(links[i], g->links, "%s: link %d is %u, out of range", what, i, links[i]);
    cr_assert_eq(area_reach(g->ag, links[0])->from, start, "%s: the first link (%u) leaves area %u, not the start %u",
                 what, links[0], area_reach(g->ag, links[0])->from, start);
    uint64_t t = mem_take_from_point(g, p, links[0], flags);
    for (int i = 1; i < n; i++) {
        cr_assert_eq(area_reach(g->ag, links[i])->from, area_reach(g->ag, links[i - 1])->to,
                     "%s: link %d (%u) leaves area %u, but link %u before it entered %u", what, i, links[i],
                     area_reach(g->ag, links[i])->from, links[i - 1], area_reach(g->ag, links[i - 1])->to);
        t += mem_take(g, links[i - 1], links[i], flags);
    }
    return t;
}

/* A random memory: each link known with probability `permille`/1000, seen
** at a random tick in 1..1000. cap 0: the default bound. */
static inline NavMemory *mem_random(const MemGraph *g, int cap, uint32_t permille, uint64_t *seed)
{
    NavError err;
    nav_error_clear(&err);
    NavMemory *m = memory_create(g->ag, cap, &err);
    cr_assert_not_null(m, "%s", err.message);
    for (uint32_t l = 0; l < g->links; l++)
        if (nav_rand_next(seed) % 1000 < permille)
            cr_assert_geq(memory_learn_link(m, l, 1 + (uint32_t)(nav_rand_next(seed) % 1000), NULL), 0);
    return m;
}

/* Random flags: mostly the default, sometimes without a travel type,
** sometimes flying or allowing lava and slime. */
static inline uint32_t mem_random_flags(uint64_t *seed)
{
    uint64_t r = nav_rand_next(seed);
    uint32_t f = NAV_TFL_DEFAULT;
    if (r % 4 == 0) f &= ~NAV_TFL_TYPE((r >> 8) % NAV_TRAVEL_COUNT);
    if ((r >> 24) % 5 == 0) f |= NAV_TFL_FLY;
    if ((r >> 28) % 6 == 0) f |= NAV_TFL_LAVA | NAV_TFL_SLIME;
    return f;
}

/* Two memories hold the same areas, links, stamps and bound. */
static inline void mem_expect_equal(const NavMemory *a, const NavMemory *b, const char *what)
{
    const NavAreaGraph *ag = memory_graph(a);
    cr_assert_eq(memory_graph(b), ag, "%s: memories of two graphs", what);
    cr_assert_eq(memory_links_per_area(a), memory_links_per_area(b), "%s: links per area %d, then %d", what,
                 memory_links_per_area(a), memory_links_per_area(b));
    cr_assert_eq(memory_area_count(a), memory_area_count(b), "%s: %u areas known, then %u", what, memory_area_count(a),
                 memory_area_count(b));
    cr_assert_eq(memory_link_count(a), memory_link_count(b), "%s: %u links known, then %u", what, memory_link_count(a),
                 memory_link_count(b));
    for (uint32_t i = 0; i < area_count(ag); i++)
        cr_assert_eq(memory_knows_area(a, i), memory_knows_area(b, i), "%s: area %u known %d, then %d", what, i,
                     memory_knows_area(a, i), memory_knows_area(b, i));
    for (uint32_t l = 0; l < area_reach_count(ag); l++)
        cr_assert_eq(memory_link_seen(a, l), memory_link_seen(b, l), "%s: link %u seen at %u, then %u", what, l,
                     memory_link_seen(a, l), memory_link_seen(b, l));
}

#endif

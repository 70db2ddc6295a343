/*
** cmd_bench_route.c — `navbot bench route [--json] [--queries N]
** [--generate-large] MAP...`: the routing caches against a plain Dijkstra
** in the same process, on the same random queries.
**
** Per map (class human, or the map's first class), with entity links:
**   dijkstra   route_dijkstra per query: the baseline, and the oracle
**   first      a query after dropping every cache, overlays too
**   prepare    router_prepare: every cluster's overlay for the flags, as a
**              game does at map load (they depend on the flags and the
**              obstacles, not the goal)
**   cold       then per query, with no per-goal caches: portal cache,
**              area cache and answer
**   warm       repeated lookups over the first 50 queries once their
**              caches are built, and router_next from the first link (an
**              area cache read)
**   links      the whole route as links, warm
**   obstacles  adding and removing a random box, invalidation included
** Every cold and warm answer is compared with Dijkstra's; mismatches are
** counted (there must be none).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "cli/cli.h"
#include "core/json.h"
#include "core/random.h"
#include "core/timer.h"
#include "map/map.h"
#include "route/route.h"

#define ROUTE_BENCH_SEED 0x726f757465ull /* "route" */
#define ROUTE_BENCH_OBSTACLES 200
#define ROUTE_BENCH_WARM 50 /* routes whose caches the warm figures reuse */

typedef struct RouteBench {
    char map[160];
    uint32_t areas, links, clusters, portals;
    uint32_t queries, reachable, mismatches;
    double dijkstra_mean_us, cold_mean_us, cold_p99_us, first_mean_us, prepare_ms;
    size_t overlay_bytes;
    bool prepared;
    double warm_lookup_ns, warm_next_ns, links_mean_us, links_per_route;
    uint64_t warm_misses;
    double obstacle_add_us, obstacle_remove_us;
    size_t cache_bytes, fixed_bytes;
    uint32_t caches;
    double bytes_per_cache;
    uint64_t evictions, fallbacks;
    double compile_ms;
} RouteBench;


static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Areas with a way out: starts and goals worth asking about. */
static uint32_t pick_area(const NavAreaGraph *ag, uint64_t *seed)
{
    uint32_t n = area_count(ag);
    for (int tries = 0; tries < 64; tries++) {
        uint32_t a = (uint32_t)(nav_rand_next(seed) % n);
        if (area_get(ag, a)->reach_count > 0) return a;
    }
    return (uint32_t)(nav_rand_next(seed) % n);
}

static bool run_map(const CliContext *cx, const NavWorld *w, const char *label, uint32_t queries, RouteBench *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->map, sizeof b->map, "%s", label);
    int cls = world_find_class(w, "human");
    if (cls < 0) cls = 0;
    NavError e;
    uint64_t t0 = timer_now_ns();
    NavAreaGraph *ag = area_build(w, cls, NULL, &e);
    NavRouter *r = ag ? router_create(ag, NULL, &e) : NULL;
    if (!r) {
        char buf[1024];
        fprintf(cx->err, "navbot bench route: %s: %s\n", label, nav_error_format(&e, buf, sizeof buf));
        area_destroy(ag);
        return false;
    }
    b->compile_ms = timer_ms_since(t0);
    NavAreaStats as;
    area_stats(ag, &as);
    b->areas = as.areas;
    b->links = as.reaches;
    b->clusters = as.clusters;
    b->portals = as.portals;
    b->queries = queries;

    uint32_t *start = nav_malloc(queries * sizeof *start), *goal = nav_malloc(queries * sizeof *goal);
    NavRoute *want = nav_malloc(queries * sizeof *want);
    double *cold = nav_malloc(queries * sizeof *cold);
    uint32_t *links = nav_malloc(4096 * sizeof *links);
    if (!start || !goal || !want || !cold || !links) {
        fprintf(cx->err, "navbot bench route: out of memory\n");
        nav_free(start), nav_free(goal), nav_free(want), nav_free(cold), nav_free(links);
        router_destroy(r);
        area_destroy(ag);
        return false;
    }
    uint64_t seed = ROUTE_BENCH_SEED;
    for (uint32_t q = 0; q < queries; q++) {
        start[q] = pick_area(ag, &seed);
        goal[q] = pick_area(ag, &seed);
    }
    const uint32_t flags = NAV_TFL_DEFAULT;

    /* The baseline. */
    uint64_t t = timer_now_ns();
    for (uint32_t q = 0; q < queries; q++) route_dijkstra(r, start[q], NULL, goal[q], flags, &want[q]);
    b->dijkstra_mean_us = timer_ms_since(t) * 1000.0 / queries;
    for (uint32_t q = 0; q < queries; q++) b->reachable += want[q].time != ROUTE_UNREACHABLE;

    /* First queries with nothing cached, overlays included (a few). */
    uint32_t firsts = queries < 20 ? queries : 20;
    double first_total = 0.0;
    for (uint32_t q = 0; q < firsts; q++) {
        router_flush(r, false);
        NavRoute got;
        t = timer_now_ns();
        router_route(r, start[q], NULL, goal[q], flags, &got);
        first_total += timer_ms_since(t) * 1000.0;
        b->mismatches += got.time != want[q].time;
    }
    b->first_mean_us = first_total / firsts;

    router_flush(r, false);
    t = timer_now_ns();
    b->prepared = router_prepare(r, flags);
    b->prepare_ms = timer_ms_since(t);
    NavRouterStats prep;
    router_stats(r, &prep);
    b->overlay_bytes = prep.cache_bytes;

    /* Cold: per-goal caches dropped before each query. */
    for (uint32_t q = 0; q < queries; q++) {
        router_flush(r, true);
        NavRoute got;
        t = timer_now_ns();
        router_route(r, start[q], NULL, goal[q], flags, &got);
        cold[q] = timer_ms_since(t) * 1000.0;
        b->cold_mean_us += cold[q];
        b->mismatches += got.time != want[q].time;
    }
    b->cold_mean_us /= queries;
    qsort(cold, queries, sizeof *cold, cmp_double);
    b->cold_p99_us = cold[(size_t)((queries - 1) * 0.99)];

    /* Warm: the caches of the first ROUTE_BENCH_WARM queries built (a few
    ** dozen goals, as a game has), then passes over them timed. */
    uint32_t warm = queries < ROUTE_BENCH_WARM ? queries : ROUTE_BENCH_WARM;
    for (uint32_t q = 0; q < warm; q++) {
        NavRoute got;
        router_route(r, start[q], NULL, goal[q], flags, &got);
    }
    NavRouterStats before;
    router_stats(r, &before);
    uint64_t lookups = 0;
    t = timer_now_ns();
    double elapsed = 0.0;
    do {
        for (uint32_t q = 0; q < warm; q++) {
            NavRoute got;
            router_route(r, start[q], NULL, goal[q], flags, &got);
            if (lookups < warm) b->mismatches += got.time != want[q].time;
            lookups++;
        }
        elapsed = timer_ms_since(t);
    } while (elapsed < 100.0);
    b->warm_lookup_ns = elapsed * 1e6 / (double)lookups;

    uint64_t nexts = 0;
    t = timer_now_ns();
    do {
        for (uint32_t q = 0; q < warm; q++) {
            if (want[q].next_reach == UINT32_MAX) continue;
            NavRoute got;
            router_next(r, want[q].next_reach, goal[q], flags, &got);
            nexts++;
        }
        elapsed = timer_ms_since(t);
    } while (elapsed < 100.0 && nexts > 0);
    b->warm_next_ns = nexts ? elapsed * 1e6 / (double)nexts : 0.0;
    NavRouterStats after;
    router_stats(r, &after);
    b->warm_misses = after.misses - before.misses;

    uint64_t total_links = 0;
    t = timer_now_ns();
    for (uint32_t q = 0; q < queries; q++) {
        NavRoute got;
        int nl;
        if (NAV_SUCCEEDED(router_route_links(r, start[q], NULL, goal[q], flags, links, 4096, &nl, &got)))
            total_links += (uint64_t)nl;
    }
    b->links_mean_us = timer_ms_since(t) * 1000.0 / queries;
    b->links_per_route = b->reachable ? (double)total_links / b->reachable : 0.0;

    NavRouterStats st;
    router_stats(r, &st);
    b->cache_bytes = st.cache_bytes;
    b->fixed_bytes = st.fixed_bytes;
    b->caches = st.caches;
    b->bytes_per_cache = st.caches ? (double)st.cache_bytes / st.caches : 0.0;
    b->evictions = st.evictions;
    b->fallbacks = st.fallbacks;

    /* Obstacles: add then remove random boxes 1 to 4 m across. */
    float W = (float)world_width(w) * world_cell_size(w), H = (float)world_height(w) * world_cell_size(w);
    double add = 0.0, remove = 0.0;
    for (int i = 0; i < ROUTE_BENCH_OBSTACLES; i++) {
        float cx0 = (float)(nav_rand_next(&seed) % 10000) / 10000.0f * W,
              cy0 = (float)(nav_rand_next(&seed) % 10000) / 10000.0f * H;
        float s = 0.5f + (float)(nav_rand_next(&seed) % 100) / 100.0f * 1.5f;
        float lo[3] = { cx0 - s, cy0 - s, -1000.0f }, hi[3] = { cx0 + s, cy0 + s, 1000.0f };
        t = timer_now_ns();
        uint32_t id = router_add_obstacle(r, lo, hi);
        add += timer_ms_since(t) * 1000.0;
        t = timer_now_ns();
        router_remove_obstacle(r, id);
        remove += timer_ms_since(t) * 1000.0;
    }
    b->obstacle_add_us = add / ROUTE_BENCH_OBSTACLES;
    b->obstacle_remove_us = remove / ROUTE_BENCH_OBSTACLES;

    nav_free(start), nav_free(goal), nav_free(want), nav_free(cold), nav_free(links);
    router_destroy(r);
    area_destroy(ag);
    return true;
}

static void write_text(const CliContext *cx, const RouteBench *b)
{
    FILE *o = cx->out;
    fprintf(o, "%s: %u areas, %u links, %u clusters, %u portals (compiled in %.1f ms)\n", b->map, b->areas, b->links,
            b->clusters, b->portals, b->compile_ms);
    fprintf(o, "  queries        %u (%u reachable), mismatches with Dijkstra %u\n", b->queries, b->reachable,
            b->mismatches);
    fprintf(o, "  dijkstra       %.1f us per query\n", b->dijkstra_mean_us);
    fprintf(o, "  cold route     %.1f us mean, %.1f us p99 (%.1fx faster than Dijkstra)\n", b->cold_mean_us,
            b->cold_p99_us, b->cold_mean_us > 0 ? b->dijkstra_mean_us / b->cold_mean_us : 0.0);
    fprintf(o, "  first query    %.1f us with every cache cold, overlays too\n", b->first_mean_us);
    fprintf(o, "  prepare        %.1f ms: overlays of every cluster, %zu bytes%s\n", b->prepare_ms, b->overlay_bytes,
            b->prepared ? "" : " (not all fit the cap)");
    fprintf(o,
            "  warm lookup    %.0f ns (%.0f per second); next link %.0f ns (%d routes cached, %llu misses meanwhile)\n",
            b->warm_lookup_ns, b->warm_lookup_ns > 0 ? 1e9 / b->warm_lookup_ns : 0.0, b->warm_next_ns, ROUTE_BENCH_WARM,
            (unsigned long long)b->warm_misses);
    fprintf(o, "  whole route    %.1f us, %.1f links per route\n", b->links_mean_us, b->links_per_route);
    fprintf(o,
            "  caches         %u holding %zu bytes (%.0f per cache), router tables %zu bytes, %llu evictions, %llu "
            "fallbacks\n",
            b->caches, b->cache_bytes, b->bytes_per_cache, b->fixed_bytes, (unsigned long long)b->evictions,
            (unsigned long long)b->fallbacks);
    fprintf(o, "  obstacle       add %.1f us, remove %.1f us (invalidation included)\n", b->obstacle_add_us,
            b->obstacle_remove_us);
}

static void write_json(const CliContext *cx, const RouteBench *b)
{
    JsonWriter j;
    json_init(&j, cx->out, false);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, b->map);
    json_key(&j, "areas");
    json_int(&j, b->areas);
    json_key(&j, "links");
    json_int(&j, b->links);
    json_key(&j, "clusters");
    json_int(&j, b->clusters);
    json_key(&j, "portals");
    json_int(&j, b->portals);
    json_key(&j, "queries");
    json_int(&j, b->queries);
    json_key(&j, "reachable");
    json_int(&j, b->reachable);
    json_key(&j, "mismatches");
    json_int(&j, b->mismatches);
    json_key(&j, "dijkstra_mean_us");
    json_number(&j, b->dijkstra_mean_us);
    json_key(&j, "cold_mean_us");
    json_number(&j, b->cold_mean_us);
    json_key(&j, "cold_p99_us");
    json_number(&j, b->cold_p99_us);
    json_key(&j, "cold_speedup");
    json_number(&j, b->cold_mean_us > 0 ? b->dijkstra_mean_us / b->cold_mean_us : 0.0);
    json_key(&j, "first_query_us");
    json_number(&j, b->first_mean_us);
    json_key(&j, "prepare_ms");
    json_number(&j, b->prepare_ms);
    json_key(&j, "overlay_bytes");
    json_int(&j, (int64_t)b->overlay_bytes);
    json_key(&j, "warm_lookup_ns");
    json_number(&j, b->warm_lookup_ns);
    json_key(&j, "warm_next_ns");
    json_number(&j, b->warm_next_ns);
    json_key(&j, "warm_misses");
    json_int(&j, (int64_t)b->warm_misses);
    json_key(&j, "route_links_us");
    json_number(&j, b->links_mean_us);
    json_key(&j, "links_per_route");
    json_number(&j, b->links_per_route);
    json_key(&j, "cache_bytes");
    json_int(&j, (int64_t)b->cache_bytes);
    json_key(&j, "caches");
    json_int(&j, b->caches);
    json_key(&j, "bytes_per_cache");
    json_number(&j, b->bytes_per_cache);
    json_key(&j, "router_bytes");
    json_int(&j, (int64_t)b->fixed_bytes);
    json_key(&j, "evictions");
    json_int(&j, (int64_t)b->evictions);
    json_key(&j, "fallbacks");
    json_int(&j, (int64_t)b->fallbacks);
    json_key(&j, "obstacle_add_us");
    json_number(&j, b->obstacle_add_us);
    json_key(&j, "obstacle_remove_us");
    json_number(&j, b->obstacle_remove_us);
    json_object_end(&j);
    json_finish(&j);
}

/* Benchmark and print one world (NULL: it failed to load; counts as a
** failure), then free it. */
static bool report_map(const CliContext *cx, NavWorld *w, const char *label, uint32_t queries, bool json)
{
    RouteBench b;
    bool ok = w && run_map(cx, w, label, queries, &b);
    if (ok && json) write_json(cx, &b);
    else if (ok) write_text(cx, &b);
    world_destroy(w);
    return ok;
}

int bench_route_run(const CliContext *cx, int argc, char **argv);
int bench_route_run(const CliContext *cx, int argc, char **argv)
{
    bool json = false, large = false;
    uint32_t queries = 1000;
    int maps = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--generate-large") == 0) large = true;
        else if (strcmp(argv[i], "--queries") == 0) {
            if (i + 1 >= argc || !cli_parse_u32(argv[i + 1], &queries) || queries < 1 || queries > 1000000)
                return cli_usage_error(cx, &cli_cmd_bench, "--queries needs a count from 1 to 1000000");
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_bench, "unknown option '%s'", argv[i]);
        } else {
            maps++;
        }
    }
    if (!maps && !large) return cli_usage_error(cx, &cli_cmd_bench, "bench route needs maps or --generate-large");
    int status = CLI_OK;
    for (int i = 2; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (strcmp(argv[i], "--queries") == 0) i++;
            continue;
        }
        NavError e;
        NavWorld *w = cli_load_map(cx, NULL, argv[i], &e);
        if (!json && w) fprintf(cx->err, "bench route: %s...\n", argv[i]);
        if (!report_map(cx, w, argv[i], queries, json)) status = CLI_BAD_INPUT;
    }
    if (large) {
        NavError e;
        if (!json) fprintf(cx->err, "bench route: generating a 256 x 256 building of 4 storeys...\n");
        NavWorld *w = map_generate_building(256, 256, 4, 1, &e);
        if (!w) cli_print_error(cx, NULL, &e);
        if (!report_map(cx, w, w ? world_name(w) : "building", queries, json)) status = CLI_BAD_INPUT;
    }
    return status;
}

/*
** cmd_bench.c — `navbot bench grid SCENFILE...`: the grid pathfinder on
** Moving AI scenario files: JPS against textbook A* on every problem, the
** grid's build time, memory per navcell and obstruction update times.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "cli/bench_compare.h"
#include "cli/bench_plot.h"
#include "cli/cli.h"
#include "core/fileio.h"
#include "core/json.h"
#include "core/random.h"
#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"

#define BENCH_WARMUP 50
#define BENCH_DEFAULT_UPDATES 200u
#define BENCH_TOLERANCE 0.005 /* the data set's README: covers every printed precision */
#define BENCH_MAX_BUILDS 10
#define BENCH_BUILD_BUDGET_MS 300.0 /* repeat builds while the total stays under this */
#define BENCH_MAX_SCEN_BYTES (64u * 1024u * 1024u)
#define BENCH_SEED 0x6e6176626f74ull /* "navbot" */
#define BENCH_REPORT_MISMATCHES 3    /* per algorithm and map, on stderr */
#define PI_D 3.14159265358979323846

typedef struct BenchArgs {
    bool json;
    uint32_t limit; /* 0: every scenario */
    uint32_t updates;
    int first_file; /* argv index of the first SCENFILE */
} BenchArgs;

typedef MapScenProblem Scenario;

typedef struct Timing {
    double mean_us, median_us, p99_us;
    int optimal; /* |length - optimal| <= BENCH_TOLERANCE, and found */
    int found;
} Timing;

typedef struct MapResult {
    const char *scen;
    char name[128]; /* the map's file name */
    int width, height;
    int queries;
    Timing jps, astar;
    double speedup;
    double bytes_per_cell, grid_bytes_per_cell;
    double build_ms;
    int builds;
    uint32_t updates; /* obstruction add/remove pairs timed */
    double add_us, remove_us;
} MapResult;

/* {======= small helpers ======= */


/* splitmix64: a fixed-seed generator living on the caller's stack. */
typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) { return nav_rand_next(&r->s); }

/* Uniform in [0, 1). */
static double rng_unit(Rng *r) { return nav_rand_unit(&r->s); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean, median and 99th percentile (nearest rank) of n times; sorts t. */
static void summarize(double *t, int n, Timing *out)
{
    out->mean_us = out->median_us = out->p99_us = 0.0;
    if (n <= 0) return;
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += t[i];
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    out->mean_us = sum / n;
    out->median_us = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    int rank = (int)ceil(0.99 * n);
    out->p99_us = t[NAV_MAX(rank, 1) - 1];
}

/* }======= */

/* {======= one map ======= */

typedef struct Query {
    int sx, sy;
    GridGoal goal;
    double optimal;
    int line;
} Query;

/* Runs every query once with algo; times into t (us) and scores into tm.
** lengths (opt) receives each length. */
static void run_queries(const CliContext *cx, const char *scen, GridSearch *s, int cls, const Query *q, int n,
                        GridAlgorithm algo, GridPath *path, double *t, double *lengths, Timing *tm)
{
    const char *name = algo == GRID_ASTAR ? "A*" : "JPS";
    int reported = 0;
    tm->optimal = tm->found = 0;
    for (int i = 0; i < n; i++) {
        GridQuery gq = { .cls = cls, .sx = q[i].sx, .sy = q[i].sy, .goal = q[i].goal, .algorithm = algo };
        path->count = 0;
        path->flags = 0;
        path->length = 0.0;
        uint64_t t0 = timer_now_ns();
        NavStatus st = grid_find_path(s, &gq, path);
        t[i] = (double)(timer_now_ns() - t0) / 1e3;
        bool found = NAV_SUCCEEDED(st) && (path->flags & GRID_PATH_FOUND);
        bool optimal = found && fabs(path->length - q[i].optimal) <= BENCH_TOLERANCE;
        tm->found += found;
        tm->optimal += optimal;
        if (lengths) lengths[i] = found ? path->length : -1.0;
        if (!optimal && reported < BENCH_REPORT_MISMATCHES) {
            reported++;
            fprintf(cx->err, "\nnavbot bench: %s:%d: %s ", scen, q[i].line, name);
            if (NAV_FAILED(st)) fprintf(cx->err, "refused the query (%s)", nav_status_name(st));
            else if (!found) fprintf(cx->err, "found no path (flags 0x%x)", (unsigned)path->flags);
            else fprintf(cx->err, "length %.5f, optimal %.5f", path->length, q[i].optimal);
            fprintf(cx->err, " from cell (%d, %d) to (%.1f, %.1f) m\n", q[i].sx, q[i].sy, (double)q[i].goal.x,
                    (double)q[i].goal.y);
        }
    }
}

/* Adds and removes `updates` random obstructions, timing each call. Checks
** the grid comes back as it was. */
static void bench_updates(const CliContext *cx, const char *scen, NavGrid *g, uint32_t updates, MapResult *res)
{
    res->updates = 0;
    res->add_us = res->remove_us = NAN;
    if (updates == 0) return;
    int w = grid_width(g), h = grid_height(g), classes = grid_class_count(g);
    float cs = grid_cell_size(g);
    size_t cells = (size_t)w * (size_t)h;
    uint8_t *before = nav_malloc(cells * (size_t)classes);
    if (before)
        for (int c = 0; c < classes; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    before[(size_t)c * cells + (size_t)y * (size_t)w + (size_t)x] = grid_passable(g, c, x, y);

    Rng rng = { BENCH_SEED };
    double add_total = 0.0, remove_total = 0.0;
    uint32_t done = 0, failed = 0;
    NavError e;
    for (uint32_t i = 0; i < updates; i++) {
        GridShape shape;
        int sw = 1 + (int)(rng_next(&rng) % 10), sh = 1 + (int)(rng_next(&rng) % 10);
        shape.hw = 0.5f * (float)sw * cs;
        shape.hh = 0.5f * (float)sh * cs;
        shape.angle = (float)(rng_unit(&rng) * PI_D);
        shape.x = (float)(rng_unit(&rng) * w) * cs;
        shape.y = (float)(rng_unit(&rng) * h) * cs;
        GridObstructionId id;
        nav_error_clear(&e);
        uint64_t t0 = timer_now_ns();
        NavStatus st = grid_add_obstruction(g, &shape, &id, &e);
        uint64_t t1 = timer_now_ns();
        if (NAV_FAILED(st)) {
            if (!failed++) {
                char buf[1024];
                fprintf(cx->err, "\nnavbot bench: %s: adding obstruction %u failed: %s\n", scen, i,
                        nav_error_format(&e, buf, sizeof buf));
            }
            continue;
        }
        nav_error_clear(&e);
        uint64_t t2 = timer_now_ns();
        st = grid_remove_obstruction(g, id, &e);
        uint64_t t3 = timer_now_ns();
        if (NAV_FAILED(st)) {
            if (!failed++) {
                char buf[1024];
                fprintf(cx->err, "\nnavbot bench: %s: removing obstruction %u failed: %s\n", scen, i,
                        nav_error_format(&e, buf, sizeof buf));
            }
            continue;
        }
        add_total += (double)(t1 - t0) / 1e3;
        remove_total += (double)(t3 - t2) / 1e3;
        done++;
    }
    if (failed) fprintf(cx->err, "\nnavbot bench: %s: %u of %u obstruction updates failed\n", scen, failed, updates);
    res->updates = done;
    if (done) {
        res->add_us = add_total / done;
        res->remove_us = remove_total / done;
    }
    if (grid_obstruction_count(g) != 0)
        fprintf(cx->err, "\nnavbot bench: %s: %d obstructions remain after removing all of them (engine bug?)\n", scen,
                grid_obstruction_count(g));
    if (before) {
        size_t diff = 0;
        int fx = -1, fy = -1, fc = -1;
        for (int c = 0; c < classes; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    if (before[(size_t)c * cells + (size_t)y * (size_t)w + (size_t)x] != grid_passable(g, c, x, y)) {
                        if (!diff++) {
                            fx = x;
                            fy = y;
                            fc = c;
                        }
                    }
        if (diff)
            fprintf(cx->err,
                    "\nnavbot bench: %s: %zu cell passabilities differ after adding and removing the obstructions, "
                    "first class %d cell (%d, %d) (engine bug?)\n",
                    scen, diff, fc, fx, fy);
        nav_free(before);
    }
}

/* Benchmarks one scenario file. Returns CLI_OK or CLI_BAD_INPUT (reported). */
static int bench_map(const CliContext *cx, const BenchArgs *a, const char *scen, int index, int total, MapResult *res)
{
    memset(res, 0, sizeof *res);
    res->scen = scen;
    res->add_us = res->remove_us = NAN;
    uint64_t t_start = timer_now_ns();
    fprintf(cx->err, "bench [%d/%d] %s:", index + 1, total, fileio_basename(scen));
    fflush(cx->err);

    /* The map: the same path without ".scen". */
    size_t len = strlen(scen);
    char *map_path = nav_malloc(len - 4);
    if (!map_path) {
        fprintf(cx->err, "\nnavbot bench: out of memory\n");
        return CLI_BAD_INPUT;
    }
    memcpy(map_path, scen, len - 5);
    map_path[len - 5] = '\0';
    snprintf(res->name, sizeof res->name, "%s", fileio_basename(map_path));

    int rc = CLI_BAD_INPUT;
    char *text = NULL;
    size_t text_len;
    Scenario *sc = NULL;
    int nsc = 0;
    NavWorld *w = NULL;
    NavGrid *g = NULL;
    GridSearch *s = NULL;
    GridWaypoint *buf = NULL;
    Query *q = NULL;
    double *times = NULL, *lengths = NULL;
    NavError e;
    char ebuf[1024];

    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(scen, BENCH_MAX_SCEN_BYTES, &text, &text_len, &e))) {
        fprintf(cx->err, "\nnavbot bench: %s\n", nav_error_format(&e, ebuf, sizeof ebuf));
        goto done;
    }
    if (NAV_FAILED(map_movingai_scen_parse(scen, text, &sc, &nsc, &e))) {
        fprintf(cx->err, "\nnavbot bench: %s\n", nav_error_format(&e, ebuf, sizeof ebuf));
        goto done;
    }
    if (nsc == 0) {
        fprintf(cx->err, "\nnavbot bench: %s: no scenarios in the file\n", scen);
        goto done;
    }
    if (a->limit && (uint32_t)nsc > a->limit) fprintf(cx->err, " the first %u of %d scenarios, load...", a->limit, nsc);
    else fprintf(cx->err, " %d scenarios, load...", nsc);
    fflush(cx->err);

    nav_error_clear(&e);
    w = map_load_file(map_path, NULL, &e);
    if (!w) {
        fprintf(cx->err, "\nnavbot bench: %s: cannot load its map (the same path without .scen): %s\n", scen,
                nav_error_format(&e, ebuf, sizeof ebuf));
        goto done;
    }
    int W = world_width(w), H = world_height(w);
    res->width = W;
    res->height = H;
    for (int i = 0; i < nsc; i++)
        if (sc[i].map_w != W || sc[i].map_h != H) {
            fprintf(cx->err, "\nnavbot bench: %s:%d: the scenario is for a %d x %d map but %s is %d x %d\n", scen,
                    sc[i].line, sc[i].map_w, sc[i].map_h, map_path, W, H);
            goto done;
        }
    if (world_find_class(w, "point") < 0) {
        fprintf(cx->err, "\nnavbot bench: %s: the map has no class \"point\" (Moving AI maps have it)\n", map_path);
        goto done;
    }

    /* Build: the mean of several builds when they are cheap. */
    fprintf(cx->err, " build...");
    fflush(cx->err);
    double build_total = 0.0;
    for (res->builds = 0; res->builds < BENCH_MAX_BUILDS;) {
        grid_destroy(g);
        nav_error_clear(&e);
        uint64_t t0 = timer_now_ns();
        g = grid_create(w, NULL, &e);
        double ms = timer_ms_since(t0);
        if (!g) {
            fprintf(cx->err, "\nnavbot bench: %s: grid build failed: %s\n", map_path,
                    nav_error_format(&e, ebuf, sizeof ebuf));
            goto done;
        }
        build_total += ms;
        res->builds++;
        if (build_total >= BENCH_BUILD_BUDGET_MS) break;
    }
    res->build_ms = build_total / res->builds;
    int cls = grid_find_class(g, "point");
    if (cls < 0) {
        fprintf(cx->err, "\nnavbot bench: %s: the grid lost class \"point\" (engine bug)\n", map_path);
        goto done;
    }
    nav_error_clear(&e);
    s = grid_search_create(g, &e);
    if (!s) {
        fprintf(cx->err, "\nnavbot bench: %s: %s\n", map_path, nav_error_format(&e, ebuf, sizeof ebuf));
        goto done;
    }

    int n = a->limit && (uint32_t)nsc > a->limit ? (int)a->limit : nsc;
    res->queries = n;
    int cap = W * H + 8;
    buf = nav_malloc(sizeof *buf * (size_t)cap);
    q = nav_calloc((size_t)n, sizeof *q);
    times = nav_malloc(sizeof *times * (size_t)n);
    lengths = nav_malloc(sizeof *lengths * (size_t)n);
    if (!buf || !q || !times || !lengths) {
        fprintf(cx->err, "\nnavbot bench: out of memory for %d queries\n", n);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        float gx, gy;
        grid_cell_center(g, sc[i].gx, map_movingai_row_to_cy(sc[i].gy, H), &gx, &gy);
        q[i] = (Query){ .sx = sc[i].sx,
                        .sy = map_movingai_row_to_cy(sc[i].sy, H),
                        .goal = grid_goal_point(gx, gy),
                        .optimal = sc[i].optimal,
                        .line = sc[i].line };
    }
    GridPath path = { .points = buf, .cap = cap };

    /* Warm-up, then the timed runs. */
    int warm = NAV_MIN(n, BENCH_WARMUP);
    for (int i = 0; i < warm; i++)
        for (int algo = GRID_JPS; algo <= GRID_ASTAR; algo++)
            grid_find_path(
                s,
                &(GridQuery){
                    .cls = cls, .sx = q[i].sx, .sy = q[i].sy, .goal = q[i].goal, .algorithm = (GridAlgorithm)algo },
                &path);
    fprintf(cx->err, " jps...");
    fflush(cx->err);
    run_queries(cx, scen, s, cls, q, n, GRID_JPS, &path, times, lengths, &res->jps);
    summarize(times, n, &res->jps);
    fprintf(cx->err, " astar...");
    fflush(cx->err);
    run_queries(cx, scen, s, cls, q, n, GRID_ASTAR, &path, times, NULL, &res->astar);
    summarize(times, n, &res->astar);
    res->speedup = res->jps.mean_us > 0.0 ? res->astar.mean_us / res->jps.mean_us : NAN;

    GridStats gs;
    grid_stats(g, &gs);
    double cells = (double)W * (double)H;
    res->grid_bytes_per_cell = (double)gs.bytes / cells;
    res->bytes_per_cell = ((double)gs.bytes + (double)grid_search_memory(s)) / cells;

    fprintf(cx->err, " updates...");
    fflush(cx->err);
    bench_updates(cx, scen, g, a->updates, res);

    /* The grid should be as before: the first queries give the same lengths. */
    for (int i = 0; i < warm; i++) {
        grid_find_path(s, &(GridQuery){ .cls = cls, .sx = q[i].sx, .sy = q[i].sy, .goal = q[i].goal }, &path);
        double l = (path.flags & GRID_PATH_FOUND) ? path.length : -1.0;
        if (fabs(l - lengths[i]) > 1e-9) {
            fprintf(cx->err,
                    "\nnavbot bench: %s:%d: JPS length %.5f after the obstruction updates, %.5f before "
                    "(engine bug?)\n",
                    scen, q[i].line, l, lengths[i]);
            break;
        }
    }
    fprintf(cx->err, " %.1f s\n", timer_ms_since(t_start) / 1e3);
    rc = CLI_OK;

done:
    if (rc != CLI_OK) fflush(cx->err);
    nav_free(lengths);
    nav_free(times);
    nav_free(q);
    nav_free(buf);
    grid_search_destroy(s);
    grid_destroy(g);
    world_destroy(w);
    nav_free(sc);
    nav_free(text);
    nav_free(map_path);
    return rc;
}

/* }======= */

/* {======= output ======= */

static void write_text(const CliContext *cx, const MapResult *r)
{
    FILE *o = cx->out;
    fprintf(o, "%s: %d x %d cells, %d queries (class point)\n", r->name, r->width, r->height, r->queries);
    fprintf(o, "  JPS      mean %9.2f us  median %9.2f us  p99 %9.2f us  optimal %d/%d\n", r->jps.mean_us,
            r->jps.median_us, r->jps.p99_us, r->jps.optimal, r->queries);
    fprintf(o, "  A*       mean %9.2f us  median %9.2f us  p99 %9.2f us  optimal %d/%d\n", r->astar.mean_us,
            r->astar.median_us, r->astar.p99_us, r->astar.optimal, r->queries);
    fprintf(o, "  speedup  %.2fx (A* mean / JPS mean)\n", r->speedup);
    fprintf(o, "  memory   %.2f bytes per navcell (grid %.2f + search %.2f)\n", r->bytes_per_cell,
            r->grid_bytes_per_cell, r->bytes_per_cell - r->grid_bytes_per_cell);
    fprintf(o, "  build    %.3f ms (grid and hierarchy, mean of %d)\n", r->build_ms, r->builds);
    if (r->updates)
        fprintf(o, "  updates  add %.2f us, remove %.2f us (mean of %u obstructions of 1x1 to 10x10 cells)\n",
                r->add_us, r->remove_us, r->updates);
    else fprintf(o, "  updates  none timed\n");
    fflush(o);
}

static void write_summary(const CliContext *cx, const MapResult *r, int n)
{
    FILE *o = cx->out;
    fprintf(o, "\n%-20s %7s %9s %9s %9s %10s %10s %10s %8s %11s %11s %7s %6s %9s %8s %8s\n", "map", "queries",
            "jps_mean", "jps_med", "jps_p99", "astar_mean", "astar_med", "astar_p99", "speedup", "jps_opt", "astar_opt",
            "B/cell", "grid", "build_ms", "add_us", "rm_us");
    for (int i = 0; i < n; i++) {
        char jo[32], ao[32];
        snprintf(jo, sizeof jo, "%d/%d", r[i].jps.optimal, r[i].queries);
        snprintf(ao, sizeof ao, "%d/%d", r[i].astar.optimal, r[i].queries);
        fprintf(o, "%-20s %7d %9.2f %9.2f %9.2f %10.2f %10.2f %10.2f %7.2fx %11s %11s %7.2f %6.2f %9.3f %8.2f %8.2f\n",
                r[i].name, r[i].queries, r[i].jps.mean_us, r[i].jps.median_us, r[i].jps.p99_us, r[i].astar.mean_us,
                r[i].astar.median_us, r[i].astar.p99_us, r[i].speedup, jo, ao, r[i].bytes_per_cell,
                r[i].grid_bytes_per_cell, r[i].build_ms, r[i].add_us, r[i].remove_us);
    }
    fprintf(o,
            "(times in microseconds per query; B/cell = (grid + search) bytes per navcell, grid = the grid alone)\n");
}

static void write_json(const CliContext *cx, const MapResult *r)
{
    JsonWriter j;
    json_init(&j, cx->out, false);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, r->name);
    json_key(&j, "scen");
    json_string(&j, r->scen);
    json_key(&j, "width");
    json_int(&j, r->width);
    json_key(&j, "height");
    json_int(&j, r->height);
    json_key(&j, "queries");
    json_int(&j, r->queries);
    json_key(&j, "optimal_matches");
    json_int(&j, r->jps.optimal);
    json_key(&j, "astar_optimal_matches");
    json_int(&j, r->astar.optimal);
    json_key(&j, "jps_found");
    json_int(&j, r->jps.found);
    json_key(&j, "astar_found");
    json_int(&j, r->astar.found);
    json_key(&j, "jps_mean_us");
    json_number(&j, r->jps.mean_us);
    json_key(&j, "jps_median_us");
    json_number(&j, r->jps.median_us);
    json_key(&j, "jps_p99_us");
    json_number(&j, r->jps.p99_us);
    json_key(&j, "astar_mean_us");
    json_number(&j, r->astar.mean_us);
    json_key(&j, "astar_median_us");
    json_number(&j, r->astar.median_us);
    json_key(&j, "astar_p99_us");
    json_number(&j, r->astar.p99_us);
    json_key(&j, "speedup");
    json_number(&j, r->speedup);
    json_key(&j, "bytes_per_cell");
    json_number(&j, r->bytes_per_cell);
    json_key(&j, "grid_bytes_per_cell");
    json_number(&j, r->grid_bytes_per_cell);
    json_key(&j, "build_ms");
    json_number(&j, r->build_ms);
    json_key(&j, "builds");
    json_int(&j, r->builds);
    json_key(&j, "obstruction_updates");
    json_int(&j, r->updates);
    json_key(&j, "obstruction_add_us");
    json_number(&j, r->add_us); /* null when none were timed */
    json_key(&j, "obstruction_remove_us");
    json_number(&j, r->remove_us);
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

static int parse_args(const CliContext *cx, int argc, char **argv, BenchArgs *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->updates = BENCH_DEFAULT_UPDATES;
    a->first_file = 0;
    if (argc < 2)
        return cli_usage_error(cx, cmd, "which benchmark? 'grid', 'compile', 'route', 'crowd' or 'competence'");
    if (strcmp(argv[1], "grid") != 0)
        return cli_usage_error(cx, cmd, "unknown benchmark '%s' ('grid', 'compile', 'route', 'crowd' or 'competence')",
                               argv[1]);
    bool options_done = false;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && arg[0] == '-' && arg[1]) {
            const char *name = arg, *val = NULL;
            const char *eq = strchr(arg, '=');
            size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
            if (strcmp(arg, "--") == 0) {
                options_done = true;
                continue;
            }
            if (strcmp(arg, "--json") == 0) {
                a->json = true;
                continue;
            }
            bool is_limit = nlen == 7 && strncmp(name, "--limit", 7) == 0;
            bool is_updates = nlen == 9 && strncmp(name, "--updates", 9) == 0;
            if (!is_limit && !is_updates) return cli_usage_error(cx, cmd, "unknown option '%s'", arg);
            const char *opt = is_limit ? "--limit" : "--updates";
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return cli_usage_error(cx, cmd, "%s needs a number", opt);
            uint32_t v;
            if (!cli_parse_u32(val, &v) || (is_limit && v == 0))
                return cli_usage_error(cx, cmd, "%s '%s' is not a whole number%s", opt, val,
                                       is_limit ? " from 1 up" : " from 0 up");
            if (is_limit) a->limit = v;
            else a->updates = v;
            continue;
        }
        if (!a->first_file) a->first_file = i;
        size_t len = strlen(arg);
        if (len <= 5 || strcmp(arg + len - 5, ".scen") != 0)
            return cli_usage_error(cx, cmd, "'%s' is not a scenario file (NAME.map.scen)", arg);
    }
    if (!a->first_file)
        return cli_usage_error(cx, cmd, "no scenario files (give NAME.map.scen, with NAME.map beside it)");
    return CLI_OK;
}

int bench_compile_run(const CliContext *cx, int argc, char **argv);
int bench_route_run(const CliContext *cx, int argc, char **argv);
int bench_crowd_run(const CliContext *cx, int argc, char **argv);
int bench_competence_run(const CliContext *cx, int argc, char **argv);
int bench_shortpath_run(const CliContext *cx, int argc, char **argv);
int bench_learning_run(const CliContext *cx, int argc, char **argv);
int bench_replay_run(const CliContext *cx, int argc, char **argv);

static int run_one(const CliContext *cx, int argc, char **argv);

/* "--NAME FILE" or "--NAME=FILE" at argv[*i]: its value ("" when none
** follows). */
static bool take_file(const char *name, int argc, char **argv, int *i, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0 || (argv[*i][n] != '\0' && argv[*i][n] != '=')) return false;
    if (argv[*i][n] == '=') *val = argv[*i] + n + 1;
    else if (*i + 1 < argc) *val = argv[++*i];
    else *val = "";
    return true;
}

/* --compare FILE and --plot FILE.png (any benchmark): runs it with --json
** into memory, then prints the JSON if --json was asked for, the
** comparison (to stderr after JSON, so the JSON stays clean; else to
** stdout) and draws the chart (bench_plot.c; its figures as a table on
** stdout when nothing else goes there). */
static int run_bench(const CliContext *cx, int argc, char **argv)
{
    const char *compare = NULL, *plot = NULL;
    bool json = false;
    char **args = nav_malloc(sizeof *args * (size_t)(argc + 2));
    if (!args) {
        fprintf(cx->err, "navbot bench: out of memory\n");
        return CLI_BAD_INPUT;
    }
    int n = 0;
    bool options_done = false;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && !options_done && strcmp(argv[i], "--") == 0) options_done = true;
        if (i >= 2 && !options_done &&
            (take_file("--compare", argc, argv, &i, &compare) || take_file("--plot", argc, argv, &i, &plot)))
            continue;
        if (i >= 2 && !options_done && strcmp(argv[i], "--json") == 0) json = true;
        args[n++] = argv[i];
    }
    if (!compare && !plot) {
        nav_free(args);
        return run_one(cx, argc, argv);
    }
    const char *usage = NULL;
    char why[1200];
    if (compare && !compare[0]) usage = "--compare needs a file (an earlier run's --json output)";
    else if (plot && !plot[0]) usage = "--plot needs a file name (FILE.png)";
    else if (plot && (argc < 2 || !bench_plot_known(argv[1])))
        usage = "--plot goes with a benchmark: grid, compile, route, crowd, competence, shortpath or learning";
    else if (plot && !plot_path_ok(plot, why, sizeof why)) usage = why;
    if (usage) {
        nav_free(args);
        return cli_usage_error(cx, &cli_cmd_bench, "%s", usage);
    }
    BenchCompare before = { 0 };
    if (compare && !bench_compare_load(compare, &before, cx->err)) {
        nav_free(args);
        return CLI_BAD_INPUT;
    }
    if (!json) {
        /* After the benchmark's name, so "--" and files stay where they are. */
        memmove(args + 3, args + 2, sizeof *args * (size_t)(n - 2));
        args[2] = "--json";
        n++;
    }
    args[n] = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = CLI_BAD_INPUT;
    if (mem) {
        CliContext sub = *cx;
        sub.out = mem;
        rc = run_one(&sub, n, args);
        fclose(mem);
        if (json) fwrite(buf, 1, len, cx->out);
        FILE *text = json ? cx->err : cx->out;
        if (compare && len > 0 && bench_compare_print(&before, buf, text, cx->err) != 0) rc = CLI_BAD_INPUT;
        if (plot && len > 0) {
            if (bench_plot_write(argv[1], buf, plot, json || compare ? NULL : cx->out, cx->err) != 0)
                rc = CLI_BAD_INPUT;
            else fprintf(cx->err, "navbot bench: chart written to %s\n", plot);
        }
    } else {
        fprintf(cx->err, "navbot bench: out of memory\n");
    }
    free(buf); /* open_memstream's buffer is the C library's */
    if (compare) bench_compare_free(&before);
    nav_free(args);
    return rc;
}

static int run_one(const CliContext *cx, int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "compile") == 0) return bench_compile_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "route") == 0) return bench_route_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "crowd") == 0) return bench_crowd_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "competence") == 0) return bench_competence_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "shortpath") == 0) return bench_shortpath_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "learning") == 0) return bench_learning_run(cx, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "replay") == 0) return bench_replay_run(cx, argc, argv);
    BenchArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;

    /* The files, in order (options may sit between them). */
    int total = 0;
    const char **files = nav_malloc(sizeof *files * (size_t)argc);
    MapResult *res = nav_calloc((size_t)argc, sizeof *res);
    if (!files || !res) {
        nav_free(files);
        nav_free(res);
        fprintf(cx->err, "navbot bench: out of memory\n");
        return CLI_BAD_INPUT;
    }
    bool options_done = false;
    for (int i = 2; i < argc; i++) {
        if (!options_done && strcmp(argv[i], "--") == 0) {
            options_done = true;
            continue;
        }
        if (!options_done && argv[i][0] == '-' && argv[i][1]) {
            if (!strchr(argv[i], '=') && strcmp(argv[i], "--json") != 0) i++; /* its value */
            continue;
        }
        files[total++] = argv[i];
    }

    int done = 0;
    for (int k = 0; k < total; k++) {
        if (bench_map(cx, &a, files[k], k, total, &res[done]) != CLI_OK) {
            rc = CLI_BAD_INPUT;
            continue;
        }
        if (a.json) write_json(cx, &res[done]);
        else write_text(cx, &res[done]);
        done++;
    }
    if (!a.json && done > 1) write_summary(cx, res, done);
    if (rc != CLI_OK) fprintf(cx->err, "navbot bench: %d of %d scenario files failed\n", total - done, total);
    nav_free(files);
    nav_free(res);
    return rc;
}

const CliCommand cli_cmd_bench = {
    .name = "bench",
    .summary =
        "Benchmark grid paths, area graph compiles, routing, Lua crowds, short paths, arrivals, learners or replays",
    .usage =
        "navbot bench grid [--json] [--limit N] [--updates N] SCENFILE...\n"
        "       navbot bench compile [--json] [--generate N] [--generate-mesh T] MAP...\n"
        "       navbot bench route [--json] [--queries N] [--generate-large] MAP...\n"
        "       navbot bench crowd [--json] [--bots N,...] [--ticks N] [--warmup N] [--map FILE] [--class NAME]\n"
        "       navbot bench competence [MAPS...] [--missions N] [--crowd K] [--modes solo,crowd,shared]\n"
        "                 [--seed S] [--time-factor F] [--time-margin S] [--jobs N] [--failures N] [--stuck N] "
        "[--json]\n"
        "       navbot bench shortpath [--json] [--seed S] [--queries N] [--units N,...] [--map FILE] [--class NAME]\n"
        "       navbot bench learning [MAPS...] [--modes explore,watch,searches] [--seed S] [--time-limit SECONDS]\n"
        "                 [--jobs N] [--search-bots N] [--search-budget BOT,WORLD] [--repeat N] [--json]\n"
        "       navbot bench replay TRACE [--seeks N] [--map FILE]\n"
        "       navbot bench ANY ... --compare EARLIER.json\n"
        "       navbot bench ANY ... --plot FILE.png",
    .help = "For each SCENFILE (NAME.map.scen; the map NAME.map must sit beside it),\n"
            "loads the map, builds its navcell grid (the mean of several builds when\n"
            "they are cheap), then runs every scenario with class point and a point\n"
            "goal at the goal cell's centre: once with jump point search and once with\n"
            "the textbook A* baseline, after a warm-up of the first 50, each query\n"
            "timed on its own. Prints per map:\n"
            "  - JPS and A* mean, median and 99th percentile microseconds per query\n"
            "  - speedup: A* mean / JPS mean\n"
            "  - optimal matches: found paths within 0.005 of the scenario's length\n"
            "  - memory per navcell: (grid + search state) bytes / cells, and the grid's part\n"
            "  - grid build time (grid and hierarchy), ms\n"
            "  - obstruction updates: the mean time of one add and one remove (grid and\n"
            "    hierarchy), over N random rectangles of 1x1 to 10x10 cells at random\n"
            "    angles and places (a fixed seed, so runs repeat)\n"
            "and, for several maps, a table of all of them. Progress and any paths that\n"
            "miss the optimal length (the first 3 per algorithm and map) go to stderr.\n"
            "\n"
            "options:\n"
            "  --json        one JSON object per map, one per line (JSON Lines), with map,\n"
            "                queries, optimal_matches (JPS), astar_optimal_matches,\n"
            "                jps_mean_us, jps_median_us, jps_p99_us, astar_mean_us,\n"
            "                astar_median_us, astar_p99_us, speedup, bytes_per_cell,\n"
            "                grid_bytes_per_cell, build_ms, obstruction_add_us and\n"
            "                obstruction_remove_us (null with --updates 0)\n"
            "  --limit N     run only the first N scenarios of each file\n"
            "  --updates N   obstruction add/remove pairs to time (default 200; 0: none)\n"
            "\n"
            "Any benchmark takes --compare FILE, FILE being an earlier run's --json\n"
            "output of the same benchmark: it then prints every figure found in both\n"
            "runs, before and now, with the change, and marks the times (keys ending in\n"
            "_us, _ms or _ns) that moved by over 10 % as slower or faster (to stderr\n"
            "after the JSON when --json is given too). Results are matched by their\n"
            "map, mode, class, name, brain, bots or units.\n"
            "  navbot bench grid --json tests/data/movingai/8room_000.map.scen > before.json\n"
            "  navbot bench grid --compare before.json tests/data/movingai/8room_000.map.scen\n"
            "\n"
            "Any benchmark takes --plot FILE.png too: its figures drawn as a bar chart, a\n"
            "group of bars per map (or bot or unit count) with the baseline measured in\n"
            "the same run in grey beside, a value over each bar (the charted figures are\n"
            "printed as a table unless --json or --compare print something else). Per\n"
            "benchmark: grid, JPS and A* mean us per query; compile, ms per map and class;\n"
            "route, cold routing-cache and Dijkstra mean us; crowd, Lua and C-loop mean ms\n"
            "per tick per bot count; competence, % arrived per mode; shortpath, short and\n"
            "long-range mean us per unit count; learning, seconds until every goal per\n"
            "mode beside the runner's, and the searches' ms per tick per budget (two\n"
            "charts, one above the other). The file must end in .png, in a folder that\n"
            "exists.\n"
            "  navbot bench grid --limit 200 tests/data/movingai/*.scen --plot build/grid.png\n"
            "\n"
            "Exit status: 0 every file ran (timings never fail a run); 1 a map failed\n"
            "to load or a scenario line is malformed (named file:line; the other files\n"
            "still run); 2 bad usage.\n"
            "\n"
            "bench compile: for each MAP and each of its classes, the time to compile\n"
            "the area graph (with entity links; the mean of up to 5 runs), its areas,\n"
            "links, clusters, portals and bytes. --generate N adds a generated N x N\n"
            "single-floor map (hills, buildings, ponds, trees). A mesh map (.obj) first\n"
            "reports its load: triangles, columns, spans, the read, voxelize and floor\n"
            "times, the voxelizing time per million triangles and the cells made a\n"
            "second; --generate-mesh T adds a generated mesh level of about T triangles\n"
            "(rolling ground and two-storey houses) at 0.25 m cells, or --cell's.\n"
            "--json prints one object per map and class, one per line (and one per mesh\n"
            "load, with mesh_triangles).\n"
            "  navbot bench compile maps/*.lua --generate 1024\n"
            "  navbot bench compile maps/*.obj --generate-mesh 100000\n"
            "\n"
            "bench route: for each MAP (class human, with entity links), N random\n"
            "queries (default 1000, a fixed seed) answered by a plain Dijkstra and by\n"
            "the routing caches in the same process: Dijkstra's mean; the cold route\n"
            "(no per-goal caches) mean and p99; the first query with every cache cold;\n"
            "warm lookups and next-link reads in ns; whole-route extraction; cache\n"
            "memory; obstacle add and remove times; and how many answers differ from\n"
            "Dijkstra's (none should). --generate-large adds a generated 256 x 256\n"
            "building of 4 storeys (10,000+ areas). --json: one object per map with\n"
            "map, areas, queries, cold_mean_us, cold_p99_us, warm_lookup_ns,\n"
            "dijkstra_mean_us, mismatches, cache_bytes and more.\n"
            "  navbot bench route maps/*.lua --generate-large\n"
            "\n"
            "bench crowd: RTS units on bots/rts.lua (run from the repository's root)\n"
            "walking grid paths on MAP (default maps/valley.lua), class NAME (default\n"
            "infantry, else the first): for each count in --bots (default 1000,10000)\n"
            "the bots are placed on passable dry cells spread over the map, never\n"
            "overlapping; --warmup ticks (default 90) let the crowd plan its first\n"
            "paths, then --ticks ticks (default 150) are timed: tick mean and p99 ms,\n"
            "the split into Lua, path queries and movement (means per tick), bytes per\n"
            "bot (growth of the C heap over the bots: Lua states, sim, and the shared\n"
            "grid and search state; with its Lua and sim parts), and a baseline in the\n"
            "same process: the same bots driven by a C loop with rts.lua's rules and the\n"
            "same grid paths, no Lua. The two make the same run (their trace hashes are\n"
            "compared), so the ratio of their ticks is what Lua costs. Every unit has\n"
            "the engine's avoidance on in both. The target is 10,000 bots within 25 ms\n"
            "a tick on one core (release build). --json: one object with map, class,\n"
            "ticks, warmup and runs, each with bots,\n"
            "tick_mean_ms, tick_p99_ms, lua_ms, path_ms, move_ms, bytes_per_bot,\n"
            "lua_bytes_per_bot, sim_bytes_per_bot, faults, speed_mps, baseline {...},\n"
            "lua_cost_ratio and same_run. Progress goes to stderr for 5,000 bots and more.\n"
            "  navbot bench crowd --bots 1000,5000,10000 --ticks 300\n"
            "\n"
            "bench competence: do bots arrive? bots/runner.lua on random missions on\n"
            "each MAP (default: every maps/*.lua, found here or beside the executable,\n"
            "and the generated building generate:building:64:64:2:1), class --class\n"
            "NAME or the map's first. A mission is a start and a goal on dry ground at\n"
            "least --min-distance metres apart (default 5), both places a body stands\n"
            "free, with a finite route for the runner's travel flags (every travel type\n"
            "and water); its optimum is the router's travel time from start to goal.\n"
            "Modes (--modes, default all three):\n"
            "  solo    one bot per mission, each in its own sim (N missions)\n"
            "  crowd   sims of K bots (--crowd, default 8), each with its own mission\n"
            "  shared  sims of K bots from different starts sent to one goal\n"
            "(crowd and shared run ceil(N/K) sims, N rounded up to whole sims). A bot\n"
            "has --time-factor (3) x its optimum + --time-margin (10) s to arrive. Per\n"
            "map and mode: missions, arrived (count, %), ratio = arrival time / optimum\n"
            "over the bots that arrived (mean, p95), stuck>3s (bots whose longest stuck\n"
            "spell passed 3 s) and faults; then totals per mode and over all. Missions\n"
            "come from --seed (default 1), the map's name and the mode: the same seed\n"
            "gives the same missions (their hash is printed) and the same results,\n"
            "whatever --jobs (sims run in up to N child processes, default 2; 1: in\n"
            "this process). The first --failures (default 3) bots per map and mode that\n"
            "did not arrive go to stderr: start, goal, where it ended, its state text,\n"
            "longest stuck spell, fault, and a `navbot run` command replaying its sim\n"
            "(watch it with `navbot sim` and the same bots); --stuck N (default 0) the\n"
            "same for the first N per map and mode that arrived after a stuck spell\n"
            "over 3 s (marked STUCK). --missions N (default 200),\n"
            "--root DIR (bots/, lua/ and maps/; default found). --json: one object with\n"
            "seed, missions_hash, runs[] (map, mode, missions, arrived, arrived_pct,\n"
            "ratio_mean, ratio_p95, stuck_over_3s, faults), totals[] (per mode and\n"
            "\"all\") and failures[] (map, mode, start, goal, optimum_s, limit_s, end,\n"
            "state, stuck_longest, stuck_time, faulted, error, reproduce). Exit 0\n"
            "however many arrive; 1 a map is missing or cannot be run; 2 bad usage.\n"
            "The optimum is the router's cost model (its area crossing times and 1 s\n"
            "ledge penalty included), so a ratio below 1 is no error.\n"
            "  navbot bench competence --missions 50 --crowd 8\n"
            "  navbot bench competence tests/data/maps/*.lua --modes shared --json\n"
            "\n"
            "bench shortpath: the short-range vertex pathfinder among other units on MAP\n"
            "(default maps/valley.lua), class NAME (default infantry, else the first).\n"
            "For each count in --units (default 50,200,500), --queries N (default 500)\n"
            "from --seed S (default 1): a start and a waypoint 8-16 m away in line of\n"
            "sight over the cells, range = their distance + 1 m, and that many units\n"
            "(squares of the class's radius, grown by it) dropped in the search square on\n"
            "passable cells, not overlapping each other, the start or the waypoint.\n"
            "Prints per count: mean and p99 microseconds per query (and the means of the\n"
            "queries found and of the others), vertices, expansions and segment tests\n"
            "(means), found / unreachable / partial shares; blocked:\n"
            "queries whose straight segment to the waypoint units block, and saved: the\n"
            "share of those the short path reaches the waypoint for (no long re-plan\n"
            "needed); and a baseline in the same process, the long-range grid_find_path\n"
            "from the start's cell to the waypoint (which ignores units): its mean and\n"
            "p99 and the ratio short / long. The aim, under 100 us mean with 200 units,\n"
            "is printed, never enforced. --json: one object with map, class, queries,\n"
            "seed and runs[] (units, units_placed_mean, mean_us, p99_us, found_mean_us,\n"
            "other_mean_us, vertices_mean,\n"
            "expanded_mean, tests_mean, found_rate, unreachable_rate, partial_rate,\n"
            "blocked_by_units, replans_saved, long_mean_us, long_p99_us,\n"
            "short_long_ratio).\n"
            "  navbot bench shortpath --seed 7\n"
            "\n"
            "bench learning: bots that know only what they saw (bots/learner.lua: a\n"
            "navigation memory, exploring on foot, watching others) on each MAP (default:\n"
            "every maps/*.lua, found here or beside the executable; class: the map's\n"
            "first). Per map, one simulation per mode, in up to --jobs child processes:\n"
            "  explore  one learner at the map's first spawn point; its brain queues every\n"
            "           goal of the map itself, nearest first by the router's time\n"
            "  watch    the same, with a runner (bots/runner.lua, omniscient, touring the\n"
            "           same goals) beside it at that spawn from the start\n"
            "until the learner reached every goal or --time-limit simulated seconds\n"
            "passed (default 600). Per map and mode: goals reached, the time until it\n"
            "reached all (and the runner), areas and links it knows / the graph's, pairs:\n"
            "ordered pairs among its spawn and the goals its memory connects / the\n"
            "router connects, ratio: its route time over the router's on the pairs both\n"
            "connect (mean, max; never below 1), its memory's bytes, its sliced searches'\n"
            "ms per tick (mean over the ticks that searched, max), links learned by\n"
            "crossing / watching a body / seeing floor, wall time.\n"
            "searches: per map, --search-bots N (default 100) bots on random missions,\n"
            "each knowing the whole graph, walked from C along the route they have while\n"
            "their sliced searches run, under the default budgets (600 link expansions\n"
            "a tick per bot, 6000 for the world) and under --search-budget BOT,WORLD\n"
            "(default 40,400, set to keep 100 bots on maps/valley.lua within 0.2 ms a\n"
            "tick). Each is run --repeat times (default 3; the runs are the same) and a\n"
            "tick's time is the least of its runs. Per map and budget: ticks, search ms\n"
            "per tick (mean, p99, max), expansions per tick, ticks from a bot's ask to\n"
            "its final route (mean, max), and every route handed back checked: it starts\n"
            "in the bot's area, its links are known and follow on, a final one ends in\n"
            "the goal's area; one that does not goes to stderr and is counted (there\n"
            "must be none). --modes picks sections (default all three), --seed (default\n"
            "1) the missions and the runs, --root DIR the bots/ and lua/. --json: one\n"
            "object with runs[] (map, mode, goals, reached, all_s, runner_all_s,\n"
            "areas_pct, links_pct, pairs, pairs_router, pairs_memory, ratio_mean,\n"
            "ratio_min, ratio_max, memory_bytes, search_tick_mean_ms, search_tick_max_ms,\n"
            "learned_crossed, learned_watched, learned_sighted, ...) and searches[] (map,\n"
            "name: default or tight, budget_bot, budget_world, search_tick_mean_ms,\n"
            "search_tick_p99_ms, search_tick_max_ms, expanded_per_tick,\n"
            "ready_ticks_mean, ready_ticks_max, violations, partial_violations, ...).\n"
            "Exit 0 whatever the learners do; 1 a map is missing, does not load, or has\n"
            "no spawn point or goals; 2 bad usage.\n"
            "  navbot bench learning --json > learning.json\n"
            "  navbot bench learning maps/valley.lua --modes searches --search-budget 60,600\n"
            "\n"
            "bench replay: seeking in a recorded run (navbot sim or run --trace; docs/replay.md).\n"
            "Prints the time to load and index TRACE, then --seeks N (default 20) round\n"
            "trips posing the last tick and the first, and every tick posed in order: each\n"
            "with the index and, as the baseline in the same run, reading every change\n"
            "from the start, with the ratio. --map FILE when the recorded map moved.\n"
            "  navbot bench replay build/valley.trace --seeks 50\n"
            "\n"
            "examples:\n"
            "  navbot bench grid tests/data/movingai/lak303d.map.scen\n"
            "  navbot bench grid tests/data/movingai/*.scen\n"
            "  navbot bench grid --json --limit 200 tests/data/movingai/*.scen > bench.jsonl\n",
    .run = run_bench,
};

/*
** cmd_bench_shortpath.c — `navbot bench shortpath [--json] [--seed S]
** [--queries N] [--units N,...] [--map FILE] [--class NAME]`: the
** short-range vertex pathfinder (grid/grid_short.h) among other units.
**
** Per unit count (default 50, 200 and 500), N queries (default 500) from
** --seed (default 1):
**   query     a start on a passable cell of the class and a waypoint 8 to
**             16 m away with a clear line over the cells (what a smoothed
**             long path gives a unit as its next waypoint); range = the
**             distance + 1 m (the whole waypoint in the square)
**   units     the count's other units, squares of the class's radius,
**             dropped at random in the search square on passable cells,
**             not overlapping each other, and with their grown squares
**             (radius + the mover's clearance) off the start and the
**             waypoint, so both stay usable; fewer when no more fit
**   short     grid_short_find_path to the waypoint (a point goal): mean
**             and p99 microseconds (and the means of the queries found
**             and of the others), vertices, expansions, segment tests,
**             found / unreachable / partial shares
**   baseline  in the same process, grid_find_path from the start's cell
**             to the same waypoint (the long-range search, which ignores
**             units): mean and p99; the ratio short mean / long mean
**   saved     the queries whose straight segment to the waypoint is
**             blocked by units (a unit walking it would have to replan)
**             and, of those, the share the short path reaches the
**             waypoint for: re-plans of the long path it saves
** The first 20 queries of each count are run once more before timing.
**
** DOES NOT: fail on timing (the aim, 100 us mean with 200 units, is
** printed beside it), or move units between queries.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "cli/cli.h"
#include "core/json.h"
#include "core/random.h"
#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "grid/grid_short.h"
#include "map/map.h"

#define SP_MAX_COUNTS 8
#define SP_MAX_UNITS 4096
#define SP_WARMUP 20
#define SP_MIN_DIST 8.0
#define SP_MAX_DIST 16.0
#define SP_AIM_US 100.0
#define SP_AIM_UNITS 200u
#define SP_PATH_CAP 256

typedef struct SpArgs {
    const char *map, *cls_name;
    uint32_t counts[SP_MAX_COUNTS];
    int runs;
    uint32_t queries;
    uint64_t seed;
    bool json;
} SpArgs;

typedef struct SpRun {
    uint32_t units; /* asked for */
    double placed;  /* mean placed per query */
    double mean_us, p99_us, long_mean_us, long_p99_us;
    double vertices, expanded, tests; /* means */
    double found_us, other_us;        /* mean time of the queries found, of the others */
    uint32_t found, unreachable, partial;
    uint32_t blocked, saved; /* straight segment blocked by units; of those, found */
} SpRun;

/* One query's setup. */
typedef struct SpQuery {
    float sx, sy, gx, gy, range;
    int n;
} SpQuery;

/* {======= arguments ======= */

static int parse_counts(const CliContext *cx, const char *val, SpArgs *a)
{
    a->runs = 0;
    const char *s = val;
    while (*s) {
        char num[16];
        size_t n = strcspn(s, ",");
        uint32_t v;
        if (n == 0 || n >= sizeof num || a->runs == SP_MAX_COUNTS)
            return cli_usage_error(cx, &cli_cmd_bench, "--units '%s' is not up to %d counts separated by commas", val,
                                   SP_MAX_COUNTS);
        memcpy(num, s, n);
        num[n] = '\0';
        if (!cli_parse_u32(num, &v) || v > SP_MAX_UNITS)
            return cli_usage_error(cx, &cli_cmd_bench, "--units: '%s' is not a count from 0 to %d", num, SP_MAX_UNITS);
        a->counts[a->runs++] = v;
        s += n;
        if (*s == ',') s++;
    }
    if (!a->runs) return cli_usage_error(cx, &cli_cmd_bench, "--units needs counts such as 50,200,500");
    return CLI_OK;
}

static int parse_args(const CliContext *cx, int argc, char **argv, SpArgs *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->map = "maps/valley.lua";
    a->counts[0] = 50;
    a->counts[1] = 200;
    a->counts[2] = 500;
    a->runs = 3;
    a->queries = 500;
    a->seed = 1;
    for (int i = 2; i < argc; i++) {
        const char *val = NULL;
        int r;
        uint32_t v;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &v)) return cli_usage_error(cx, cmd, "--seed needs a number");
            a->seed = v;
        } else if ((r = cli_take_value("--queries", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &a->queries) || a->queries < 1 || a->queries > 1000000)
                return cli_usage_error(cx, cmd, "--queries needs a number from 1 to 1000000");
        } else if ((r = cli_take_value("--units", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--units needs counts such as 50,200,500");
            int rc = parse_counts(cx, val, a);
            if (rc != CLI_OK) return rc;
        } else if ((r = cli_take_value("--map", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--map needs a map file");
            a->map = val;
        } else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else {
            return cli_usage_error(cx, cmd, "bench shortpath: unknown argument '%s'", argv[i]);
        }
    }
    return CLI_OK;
}

/* }======= */

/* {======= queries ======= */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean and p99 (nearest rank) of n times; sorts t. */
static void summarise(double *t, uint32_t n, double *mean, double *p99)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++) sum += t[i];
    *mean = sum / n;
    qsort(t, n, sizeof *t, cmp_double);
    uint32_t at = (uint32_t)ceil(0.99 * n);
    *p99 = t[at ? at - 1 : 0];
}

static bool passable_at(const NavGrid *g, int cls, double x, double y)
{
    int cx, cy;
    return grid_cell_of(g, (float)x, (float)y, &cx, &cy) && grid_passable(g, cls, cx, cy);
}

/* A start and a waypoint with a clear line over the cells; false when a
** million draws find none (a map with no room for one). */
static bool pick_query(const NavGrid *g, int cls, uint64_t *rs, SpQuery *q)
{
    double W = grid_width(g) * (double)grid_cell_size(g), H = grid_height(g) * (double)grid_cell_size(g);
    for (int tries = 0; tries < 1000000; tries++) {
        double sx = nav_rand_unit(rs) * W, sy = nav_rand_unit(rs) * H;
        double d = SP_MIN_DIST + nav_rand_unit(rs) * (SP_MAX_DIST - SP_MIN_DIST);
        double a = nav_rand_unit(rs) * 2.0 * 3.14159265358979323846;
        double gx = sx + d * cos(a), gy = sy + d * sin(a);
        if (!passable_at(g, cls, sx, sy) || !passable_at(g, cls, gx, gy)) continue;
        if (grid_short_segment_blocked(g, cls, (float)sx, (float)sy, (float)gx, (float)gy, NULL, 0, 0.0f)) continue;
        q->sx = (float)sx;
        q->sy = (float)sy;
        q->gx = (float)gx;
        q->gy = (float)gy;
        q->range = (float)(d + 1.0);
        return true;
    }
    return false;
}

/* Up to n units in the search square (see the file's comment). */
static int place_units(const NavGrid *g, int cls, uint64_t *rs, const SpQuery *q, uint32_t n, float half,
                       float clearance, GridShortSquare *out)
{
    int placed = 0;
    double grown = (double)half + clearance;
    for (uint32_t tries = 0; (uint32_t)placed < n && tries < 40u * n; tries++) {
        double x = q->sx + (2.0 * nav_rand_unit(rs) - 1.0) * q->range;
        double y = q->sy + (2.0 * nav_rand_unit(rs) - 1.0) * q->range;
        if (!passable_at(g, cls, x, y)) continue;
        if ((fabs(x - q->sx) < grown + 0.05 && fabs(y - q->sy) < grown + 0.05) ||
            (fabs(x - q->gx) < grown + 0.05 && fabs(y - q->gy) < grown + 0.05))
            continue;
        bool overlaps = false;
        for (int k = 0; k < placed && !overlaps; k++)
            overlaps = fabs(x - out[k].x) < 2.0 * half && fabs(y - out[k].y) < 2.0 * half;
        if (overlaps) continue;
        out[placed++] = (GridShortSquare){ (float)x, (float)y, half };
    }
    return placed;
}

static bool run_count(const CliContext *cx, const SpArgs *a, const NavGrid *g, int cls, uint32_t count, SpRun *r)
{
    NavError e;
    GridShortSearch *ss = grid_short_create(g, &e);
    GridSearch *ls = grid_search_create(g, &e);
    uint32_t n = a->queries;
    SpQuery *qs = nav_malloc(n * sizeof *qs);
    GridShortSquare *units = nav_malloc((size_t)n * (count ? count : 1) * sizeof *units);
    double *t_short = nav_malloc(n * sizeof(double)), *t_long = nav_malloc(n * sizeof(double));
    GridWaypoint lbuf[4096];
    GridShortPoint sbuf[SP_PATH_CAP];
    bool ok = ss && ls && qs && units && t_short && t_long;
    if (!ok) {
        if (ss && ls) nav_error_set(&e, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for %u queries", n);
        cli_print_error(cx, "bench shortpath", &e);
        goto done;
    }
    memset(r, 0, sizeof *r);
    r->units = count;
    float radius = grid_class(g, cls)->radius;
    /* The queries depend on the seed and the count only. */
    uint64_t rs = a->seed * 0x9E3779B97F4A7C15ull + count;
    double placed = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        if (!pick_query(g, cls, &rs, &qs[i])) {
            fprintf(cx->err, "navbot bench shortpath: %s: no start and waypoint %.0f-%.0f m apart in line of sight\n",
                    a->map, SP_MIN_DIST, SP_MAX_DIST);
            ok = false;
            goto done;
        }
        qs[i].n = place_units(g, cls, &rs, &qs[i], count, radius, radius, units + (size_t)i * count);
        placed += qs[i].n;
    }
    r->placed = placed / n;
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t upto = pass == 0 ? NAV_MIN(n, SP_WARMUP) : n;
        for (uint32_t i = 0; i < upto; i++) {
            const SpQuery *q = &qs[i];
            GridShortSquare *u = units + (size_t)i * count;
            GridShortQuery sq = { .cls = cls,
                                  .sx = q->sx,
                                  .sy = q->sy,
                                  .goal = grid_goal_point(q->gx, q->gy),
                                  .range = q->range,
                                  .squares = u,
                                  .square_count = q->n,
                                  .clearance = radius };
            GridShortPath sp = { .points = sbuf, .cap = SP_PATH_CAP };
            uint64_t t0 = timer_now_ns();
            NavStatus st = grid_short_find_path(ss, &sq, &sp, &e);
            double us = (double)(timer_now_ns() - t0) / 1e3;
            if (NAV_FAILED(st)) {
                cli_print_error(cx, "bench shortpath", &e);
                ok = false;
                goto done;
            }
            int cx0, cy0;
            grid_cell_of(g, q->sx, q->sy, &cx0, &cy0);
            GridQuery lq = { .cls = cls, .sx = cx0, .sy = cy0, .goal = grid_goal_point(q->gx, q->gy) };
            GridPath lp = { .points = lbuf, .cap = 4096 };
            t0 = timer_now_ns();
            grid_find_path(ls, &lq, &lp);
            double long_us = (double)(timer_now_ns() - t0) / 1e3;
            if (pass == 0) continue;
            t_short[i] = us;
            t_long[i] = long_us;
            r->vertices += sp.vertices;
            r->expanded += sp.expanded;
            r->tests += sp.tests;
            bool found = (sp.flags & GRID_SHORT_FOUND) != 0;
            r->found += found;
            if (found) r->found_us += us;
            else r->other_us += us;
            r->unreachable += (sp.flags & GRID_SHORT_UNREACHABLE) != 0;
            r->partial += (sp.flags & GRID_SHORT_PARTIAL) != 0;
            if (grid_short_segment_blocked(g, cls, q->sx, q->sy, q->gx, q->gy, u, q->n, radius) &
                GRID_SHORT_BLOCK_SQUARES) {
                r->blocked++;
                r->saved += found;
            }
        }
    }
    summarise(t_short, n, &r->mean_us, &r->p99_us);
    summarise(t_long, n, &r->long_mean_us, &r->long_p99_us);
    r->found_us = r->found ? r->found_us / r->found : 0.0;
    r->other_us = r->found < n ? r->other_us / (n - r->found) : 0.0;
    r->vertices /= n;
    r->expanded /= n;
    r->tests /= n;
done:
    grid_short_destroy(ss);
    grid_search_destroy(ls);
    nav_free(qs);
    nav_free(units);
    nav_free(t_short);
    nav_free(t_long);
    return ok;
}

/* }======= */

/* {======= output ======= */

static double pct(uint32_t a, uint32_t b) { return b ? 100.0 * a / b : 0.0; }

static void write_text(const CliContext *cx, const SpArgs *a, const char *cls_name, float radius, const SpRun *runs,
                       int n)
{
    FILE *o = cx->out;
    fprintf(o, "shortpath  %s, class %s (radius %.2f m), %u queries per count, seed %llu\n", a->map, cls_name,
            (double)radius, a->queries, (unsigned long long)a->seed);
    fprintf(o, "           waypoint 8-16 m away in line of sight over the cells; range = distance + 1 m;\n"
               "           units: squares of the class radius, grown by it; baseline: grid_find_path (JPS)\n");
    fprintf(o, "%6s %7s %9s %9s %9s %9s %9s %9s %9s %7s %7s %7s %8s %7s %9s %9s %10s\n", "units", "placed", "mean_us",
            "p99_us", "found_us", "other_us", "vertices", "expanded", "tests", "found", "unreach", "partial", "blocked",
            "saved", "long_us", "long_p99", "short/long");
    for (int i = 0; i < n; i++) {
        const SpRun *r = &runs[i];
        fprintf(o,
                "%6u %7.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %6.1f%% %6.1f%% %6.1f%% %8u %6.1f%% %9.1f %9.1f "
                "%10.2f\n",
                r->units, r->placed, r->mean_us, r->p99_us, r->found_us, r->other_us, r->vertices, r->expanded,
                r->tests, pct(r->found, a->queries), pct(r->unreachable, a->queries), pct(r->partial, a->queries),
                r->blocked, pct(r->saved, r->blocked), r->long_mean_us, r->long_p99_us, r->mean_us / r->long_mean_us);
    }
    for (int i = 0; i < n; i++)
        if (runs[i].units == SP_AIM_UNITS)
            fprintf(o, "aim: under %.0f us mean with %u units: %.1f us\n", SP_AIM_US, SP_AIM_UNITS, runs[i].mean_us);
    fprintf(o, "saved: of the queries whose straight segment to the waypoint units block, the share whose\n"
               "short path reaches it (no long re-plan needed)\n");
}

static void write_json(const CliContext *cx, const SpArgs *a, const char *cls_name, const SpRun *runs, int n)
{
    JsonWriter j;
    json_init(&j, cx->out, false);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, a->map);
    json_key(&j, "class");
    json_string(&j, cls_name);
    json_key(&j, "queries");
    json_int(&j, a->queries);
    json_key(&j, "seed");
    json_int(&j, (int64_t)a->seed);
    json_key(&j, "runs");
    json_array_begin(&j);
    for (int i = 0; i < n; i++) {
        const SpRun *r = &runs[i];
        json_object_begin(&j);
        json_key(&j, "units");
        json_int(&j, r->units);
        json_key(&j, "units_placed_mean");
        json_number(&j, r->placed);
        json_key(&j, "mean_us");
        json_number(&j, r->mean_us);
        json_key(&j, "p99_us");
        json_number(&j, r->p99_us);
        json_key(&j, "found_mean_us");
        json_number(&j, r->found_us);
        json_key(&j, "other_mean_us");
        json_number(&j, r->other_us);
        json_key(&j, "vertices_mean");
        json_number(&j, r->vertices);
        json_key(&j, "expanded_mean");
        json_number(&j, r->expanded);
        json_key(&j, "tests_mean");
        json_number(&j, r->tests);
        json_key(&j, "found_rate");
        json_number(&j, (double)r->found / a->queries);
        json_key(&j, "unreachable_rate");
        json_number(&j, (double)r->unreachable / a->queries);
        json_key(&j, "partial_rate");
        json_number(&j, (double)r->partial / a->queries);
        json_key(&j, "blocked_by_units");
        json_int(&j, r->blocked);
        json_key(&j, "replans_saved");
        json_number(&j, r->blocked ? (double)r->saved / r->blocked : 0.0);
        json_key(&j, "long_mean_us");
        json_number(&j, r->long_mean_us);
        json_key(&j, "long_p99_us");
        json_number(&j, r->long_p99_us);
        json_key(&j, "short_long_ratio");
        json_number(&j, r->mean_us / r->long_mean_us);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

int bench_shortpath_run(const CliContext *cx, int argc, char **argv);
int bench_shortpath_run(const CliContext *cx, int argc, char **argv)
{
    SpArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    NavError e;
    NavWorld *w = cli_load_map(cx, "bench shortpath", a.map, &e);
    if (!w) return CLI_BAD_INPUT;
    int cls = a.cls_name ? world_find_class(w, a.cls_name) : world_find_class(w, "infantry");
    if (cls < 0 && a.cls_name) {
        fprintf(cx->err, "navbot bench shortpath: %s has no class '%s'\n", a.map, a.cls_name);
        world_destroy(w);
        return CLI_BAD_INPUT;
    }
    if (cls < 0) cls = 0;
    NavGrid *g = grid_create(w, NULL, &e);
    if (!g) {
        cli_print_error(cx, "bench shortpath", &e);
        world_destroy(w);
        return CLI_BAD_INPUT;
    }
    SpRun runs[SP_MAX_COUNTS];
    int done = 0;
    for (int i = 0; i < a.runs; i++) {
        if (!a.json) fprintf(cx->err, "bench shortpath: %u units...\n", a.counts[i]);
        if (!run_count(cx, &a, g, cls, a.counts[i], &runs[done])) {
            rc = CLI_BAD_INPUT;
            break;
        }
        done++;
    }
    const char *cls_name = grid_class(g, cls)->name;
    if (a.json) write_json(cx, &a, cls_name, runs, done);
    else write_text(cx, &a, cls_name, grid_class(g, cls)->radius, runs, done);
    grid_destroy(g);
    world_destroy(w);
    return rc;
}

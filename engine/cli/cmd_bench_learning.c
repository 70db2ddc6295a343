/*
** cmd_bench_learning.c — `navbot bench learning [MAPS...]`: bots that know
** only what they saw. The options, the maps, and the report: per map and
** mode (explore: a learner alone; watch: with an omniscient runner) the
** goals it reached and when, the share of the area graph it learned, its
** routes' times over the router's between the map's places, its memory and
** its searches' time per tick; then the searches section: many bots that
** know the whole graph searching at once under the default budgets and a
** tighter one, their time per tick and every route checked. The runs are
** scenario/learning.h's.
**
** DOES NOT: judge (exit 0 whatever the learners do; timings never fail a
** run), except that a route breaking a rule is printed to stderr.
*/
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/bench_maps.h"
#include "cli/cli.h"
#include "core/alloc.h"
#include "core/json.h"
#include "core/timer.h"
#include "scenario/learning.h"
#include "sim/sim.h"

#define LB_MAX_MAPS 64
#define LB_MAX_JOBS 64
#define LB_PATH_MAX 1024
#define LB_SEARCH_BOTS 100
/* The tighter budget: 100 bots searching at once on maps/valley.lua (10,000
** links) stay within 0.2 ms a tick with it on a 2-core AMD EPYC virtual
** machine busy with other work (p99 0.12-0.13 ms, max 0.15-0.18 ms: the
** first tick, whose slices are the first to touch their searches' memory).
** 50,500 passed 0.2 ms on that tick; the default budgets take 0.8-1.3 ms. */
#define LB_TIGHT_BOT 40u
#define LB_TIGHT_WORLD 400u

enum { MODE_EXPLORE, MODE_WATCH, MODE_SEARCHES, MODE_COUNT };
static const char *const MODE_NAMES[MODE_COUNT] = { "explore", "watch", "searches" };

typedef struct Args {
    const char *maps[LB_MAX_MAPS];
    int map_count;
    uint32_t seed, jobs, search_bots, repeats;
    uint32_t tight_bot, tight_world;
    double time_limit;
    bool modes[MODE_COUNT];
    bool json;
    const char *root;
} Args;

typedef struct MapInfo {
    char name[128];
    const char *path;
    NavWorld *w;
    bool ok;
} MapInfo;

/* {======= arguments ======= */

static bool parse_modes(const char *val, bool modes[MODE_COUNT])
{
    memset(modes, 0, sizeof(bool) * MODE_COUNT);
    int any = 0;
    for (const char *s = val; *s;) {
        size_t n = strcspn(s, ",");
        int found = -1;
        for (int m = 0; m < MODE_COUNT; m++)
            if (strlen(MODE_NAMES[m]) == n && strncmp(s, MODE_NAMES[m], n) == 0) found = m;
        if (found < 0) return false;
        modes[found] = true;
        any++;
        s += n;
        if (*s == ',') s++;
    }
    return any > 0;
}

/* "BOT,WORLD": two whole numbers from 1 up. */
static bool parse_budget(const char *val, uint32_t *bot, uint32_t *world)
{
    const char *comma = strchr(val, ',');
    if (!comma) return false;
    char a[32];
    size_t n = (size_t)(comma - val);
    if (n == 0 || n >= sizeof a) return false;
    memcpy(a, val, n);
    a[n] = '\0';
    return cli_parse_u32(a, bot) && cli_parse_u32(comma + 1, world) && *bot > 0 && *world > 0;
}

static int parse_args(const CliContext *cx, int argc, char **argv, Args *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->jobs = 2;
    a->search_bots = LB_SEARCH_BOTS;
    a->repeats = 5;
    a->tight_bot = LB_TIGHT_BOT;
    a->tight_world = LB_TIGHT_WORLD;
    a->time_limit = 600.0;
    for (int m = 0; m < MODE_COUNT; m++) a->modes[m] = true;
    for (int i = 2; i < argc; i++) {
        const char *val = NULL;
        int r;
        uint32_t u;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u))
                return cli_usage_error(cx, cmd, "--seed needs a whole number from 0 to 4294967295");
            a->seed = u;
        } else if ((r = cli_take_value("--jobs", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > LB_MAX_JOBS)
                return cli_usage_error(cx, cmd, "--jobs needs a number of processes from 1 to %d", LB_MAX_JOBS);
            a->jobs = u;
        } else if ((r = cli_take_value("--time-limit", argc, argv, &i, &val)) != 0) {
            char *end = NULL;
            errno = 0;
            double v = r < 0 ? NAN : strtod(val, &end);
            if (r < 0 || end == val || *end || errno || !isfinite(v) || v < 1.0 || v > 36000.0)
                return cli_usage_error(cx, cmd, "--time-limit needs seconds from 1 to 36000");
            a->time_limit = v;
        } else if ((r = cli_take_value("--modes", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_modes(val, a->modes))
                return cli_usage_error(cx, cmd,
                                       "--modes needs a list of explore, watch and searches such as explore,searches");
        } else if ((r = cli_take_value("--search-bots", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 1000)
                return cli_usage_error(cx, cmd, "--search-bots needs a number of bots from 1 to 1000");
            a->search_bots = u;
        } else if ((r = cli_take_value("--repeat", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 20)
                return cli_usage_error(cx, cmd, "--repeat needs a number of runs from 1 to 20");
            a->repeats = u;
        } else if ((r = cli_take_value("--search-budget", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_budget(val, &a->tight_bot, &a->tight_world))
                return cli_usage_error(cx, cmd,
                                       "--search-budget needs BOT,WORLD: link expansions per tick per bot and for "
                                       "the world, whole numbers from 1 up (such as 100,1000)");
        } else if ((r = cli_take_value("--root", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--root needs a folder");
            a->root = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, cmd, "bench learning: unknown option '%s'", argv[i]);
        } else {
            if (a->map_count == LB_MAX_MAPS)
                return cli_usage_error(cx, cmd, "bench learning: at most %d maps", LB_MAX_MAPS);
            a->maps[a->map_count++] = argv[i];
        }
    }
    return CLI_OK;
}

/* }======= */

/* {======= where the maps and brains are ======= */

static bool has_brains(const char *dir)
{
    char p[LB_PATH_MAX + 32], q[LB_PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/bots/" LEARN_BRAIN ".lua", dir);
    snprintf(q, sizeof q, "%s/bots/" LEARN_TEACHER ".lua", dir);
    return bench_is_file(p) && bench_is_file(q);
}

/* What a learning run needs of a map: a spawn point and goals. */
static const char *unfit_for_learning(const NavWorld *w)
{
    int spawns = 0, goals = 0;
    for (int i = 0; i < world_entity_count(w); i++) {
        spawns += world_entity(w, i)->type == NAV_ENTITY_SPAWN;
        goals += world_entity(w, i)->type == NAV_ENTITY_GOAL;
    }
    if (!spawns) return "it has no spawn point (the learner starts at the first)";
    if (!goals) return "it has no goal entities (the learner's tour)";
    return NULL;
}

/* }======= */

/* {======= output ======= */

static void fmt_seconds(char *buf, size_t cap, double s)
{
    if (s < 0.0 || isnan(s)) snprintf(buf, cap, "-");
    else snprintf(buf, cap, "%.1f", s);
}

static void fmt_number(char *buf, size_t cap, const char *fmt, double v)
{
    if (isnan(v)) snprintf(buf, cap, "-");
    else snprintf(buf, cap, fmt, v);
}

static double pct(uint32_t part, uint32_t whole) { return whole ? 100.0 * part / whole : NAN; }

static void text_learning(FILE *o, const Args *a, const MapInfo *maps, const LearnResult *res)
{
    fprintf(o,
            "learning: bots/" LEARN_BRAIN ".lua (knows only what it saw) at each map's first spawn point, its brain "
            "queueing every goal of the map (nearest first by the router's time); watch: with bots/" LEARN_TEACHER
            ".lua (omniscient) beside it from the start; seed %u, time limit %.0f s\n\n",
            (unsigned)a->seed, a->time_limit);
    fprintf(o, "%-12s %-7s %5s %7s %8s %11s %6s %11s %6s %7s %6s %6s %7s %8s %8s %14s %6s\n", "map", "mode", "goals",
            "all_s", "runner_s", "areas", "%", "links", "%", "pairs", "ratio", "r_max", "mem_B", "srch_ms", "srch_max",
            "learned c/w/s", "wall_s");
    for (int i = 0; i < a->map_count; i++) {
        if (!maps[i].ok) continue;
        for (int m = 0; m < LEARN_MODE_COUNT; m++) {
            if (!a->modes[m]) continue;
            const LearnResult *r = &res[i * LEARN_MODE_COUNT + m];
            if (!r->done) continue;
            char goals[16], all[16], runner[16], areas[24], links[24], pairs[24], ratio[16], rmax[16], srch[16],
                smax[16], learned[32], ap[16], lp[16];
            snprintf(goals, sizeof goals, "%d/%d", r->reached, r->goals);
            fmt_seconds(all, sizeof all, r->all_time);
            fmt_seconds(runner, sizeof runner, m == LEARN_WATCH ? r->runner_time : -1.0);
            snprintf(areas, sizeof areas, "%u/%u", r->areas_known, r->areas);
            snprintf(links, sizeof links, "%u/%u", r->links_known, r->links);
            fmt_number(ap, sizeof ap, "%.1f", pct(r->areas_known, r->areas));
            fmt_number(lp, sizeof lp, "%.1f", pct(r->links_known, r->links));
            snprintf(pairs, sizeof pairs, "%u/%u", r->pairs_memory, r->pairs_router);
            fmt_number(ratio, sizeof ratio, "%.2f", r->ratio_mean);
            fmt_number(rmax, sizeof rmax, "%.2f", r->ratio_max);
            fmt_number(srch, sizeof srch, "%.4f", r->search_ms_mean);
            fmt_number(smax, sizeof smax, "%.4f", r->search_ms_max);
            snprintf(learned, sizeof learned, "%u/%u/%u", r->learned[0], r->learned[1], r->learned[2]);
            fprintf(o, "%-12s %-7s %5s %7s %8s %11s %6s %11s %6s %7s %6s %6s %7llu %8s %8s %14s %6.2f\n", maps[i].name,
                    learning_mode_name(m), goals, all, runner, areas, ap, links, lp, pairs, ratio, rmax,
                    (unsigned long long)r->memory_bytes, srch, smax, learned, r->wall_s);
        }
    }
    fprintf(o,
            "\ngoals: reached / goal entities; all_s, runner_s: simulated seconds until the learner (the runner) had "
            "reached every goal ('-': not within the limit); areas, links: known by the learner at the end / the "
            "class's graph; pairs: ordered pairs among its spawn and the goals its memory connects / the router "
            "connects; ratio, r_max: memory route time / router route time over the pairs both connect (mean, "
            "max); mem_B: its memory's bytes; srch_ms, srch_max: its sliced searches' time per tick, mean over the "
            "ticks that searched and max; learned: links learned by crossing / by watching a body / by seeing "
            "floor\n");
}

static void text_searches(FILE *o, const Args *a, const MapInfo *maps, const SearchResult *sr, const bool *ran)
{
    fprintf(o,
            "\nsearches: up to %u bots per map on random missions (seed %u), each with its own memory of the whole "
            "graph, walking the route they have while their sliced searches run; budget: link expansions per tick "
            "per bot / for the world; each run made %u times, a tick's time the least of its runs\n\n",
            (unsigned)a->search_bots, (unsigned)a->seed, (unsigned)a->repeats);
    fprintf(o, "%-12s %-8s %10s %4s %6s %6s %6s %8s %8s %8s %7s %7s %6s %7s %6s %9s %9s %5s %6s\n", "map", "budget",
            "bot/world", "bots", "known%", "ticks", "srch_t", "ms_mean", "ms_p99", "ms_max", "exp", "exp_max", "us/exp",
            "ready_t", "r_max", "ready/arr", "routes", "viol", "wall_s");
    for (int i = 0; i < a->map_count; i++) {
        for (int b = 0; b < 2; b++) {
            if (!ran[2 * i + b]) continue;
            const SearchResult *r = &sr[2 * i + b];
            char budget[24], mean[16], p99[16], exp[16], usx[16], rt[16], rm[16], ra[24], routes[24], viol[16];
            snprintf(budget, sizeof budget, "%u/%u", r->per_bot, r->per_world);
            fmt_number(mean, sizeof mean, "%.4f", r->ms_mean);
            fmt_number(p99, sizeof p99, "%.4f", r->ms_p99);
            fmt_number(exp, sizeof exp, "%.0f", r->expanded_mean);
            fmt_number(usx, sizeof usx, "%.3f", r->us_per_expansion);
            fmt_number(rt, sizeof rt, "%.1f", r->ready_mean);
            fmt_number(rm, sizeof rm, "%.0f", r->ready_bots ? r->ready_max : NAN);
            snprintf(ra, sizeof ra, "%d/%d", r->ready_bots, r->arrived_bots);
            snprintf(routes, sizeof routes, "%llu", (unsigned long long)(r->ready_routes + r->partial_routes));
            snprintf(viol, sizeof viol, "%u", r->violations + r->partial_violations);
            fprintf(o, "%-12s %-8s %10s %4d %6.1f %6u %6u %8s %8s %8.4f %7s %7u %6s %7s %6s %9s %9s %5s %6.2f\n",
                    maps[i].name, b == 0 ? "default" : "tight", budget, r->bots, pct(r->links_known, r->links),
                    r->ticks, r->search_ticks, mean, p99, r->ms_max, exp, r->expanded_max, usx, rt, rm, ra, routes,
                    viol, r->wall_s);
        }
    }
    fprintf(o, "\nknown%%: links each bot knows / the graph's; ticks: until no bot waited for a search; srch_t: ticks "
               "that stepped a search; ms_mean, ms_p99, ms_max: the searches' time per such tick; exp, exp_max: link "
               "expansions per such tick (mean, max); us/exp: microseconds per expansion; ready_t, r_max: ticks from a "
               "bot's ask to its final route (mean, max); ready/arr: bots that got a final route / reached their goal "
               "(walked from C: jumps and ladders stop some); routes: routes handed back and checked (final and "
               "partial); viol: routes that broke a rule (must be 0)\n");
    for (int i = 0; i < a->map_count; i++) {
        const SearchResult *r = &sr[2 * i + 1];
        if (!ran[2 * i + 1]) continue;
        bool fits = !isnan(r->ms_p99) && r->ms_p99 <= 0.2;
        fprintf(o, "%s: budget %u/%u %s 0.2 ms a tick at p99 (%.4f ms; max %.4f ms, %.4f ms unfiltered)\n",
                maps[i].name, r->per_bot, r->per_world, fits ? "keeps within" : "passes", r->ms_p99, r->ms_max,
                r->ms_max_raw);
    }
}

static void json_learning(JsonWriter *j, const char *map, const char *path, int mode, const LearnResult *r)
{
    json_object_begin(j);
    json_key(j, "map");
    json_string(j, map);
    json_key(j, "path");
    json_string(j, path);
    json_key(j, "mode");
    json_string(j, learning_mode_name(mode));
    json_key(j, "goals");
    json_int(j, r->goals);
    json_key(j, "reached");
    json_int(j, r->reached);
    json_key(j, "all_s");
    json_number(j, r->all_time >= 0.0f ? r->all_time : NAN);
    json_key(j, "runner_reached");
    if (mode == LEARN_WATCH) json_int(j, r->runner_reached);
    else json_null(j);
    json_key(j, "runner_all_s");
    json_number(j, r->runner_time >= 0.0f ? r->runner_time : NAN);
    json_key(j, "sim_s");
    json_number(j, r->sim_time);
    json_key(j, "distance_m");
    json_number(j, r->distance);
    json_key(j, "areas");
    json_int(j, r->areas);
    json_key(j, "areas_known");
    json_int(j, r->areas_known);
    json_key(j, "areas_pct");
    json_number(j, pct(r->areas_known, r->areas));
    json_key(j, "links");
    json_int(j, r->links);
    json_key(j, "links_known");
    json_int(j, r->links_known);
    json_key(j, "links_pct");
    json_number(j, pct(r->links_known, r->links));
    json_key(j, "pairs");
    json_int(j, r->pairs);
    json_key(j, "pairs_router");
    json_int(j, r->pairs_router);
    json_key(j, "pairs_memory");
    json_int(j, r->pairs_memory);
    json_key(j, "ratio_mean");
    json_number(j, r->ratio_mean);
    json_key(j, "ratio_min");
    json_number(j, r->ratio_min);
    json_key(j, "ratio_max");
    json_number(j, r->ratio_max);
    json_key(j, "memory_bytes");
    json_int(j, (int64_t)r->memory_bytes);
    json_key(j, "ticks");
    json_int(j, r->ticks);
    json_key(j, "search_ticks");
    json_int(j, r->search_ticks);
    json_key(j, "search_tick_mean_ms");
    json_number(j, r->search_ms_mean);
    json_key(j, "search_tick_max_ms");
    json_number(j, r->search_ms_max);
    json_key(j, "expanded");
    json_int(j, (int64_t)r->expanded);
    json_key(j, "learned_crossed");
    json_int(j, r->learned[0]);
    json_key(j, "learned_watched");
    json_int(j, r->learned[1]);
    json_key(j, "learned_sighted");
    json_int(j, r->learned[2]);
    json_key(j, "faulted");
    json_bool(j, r->faulted);
    json_key(j, "error");
    if (r->error[0]) json_string(j, r->error);
    else json_null(j);
    json_key(j, "wall_s");
    json_number(j, r->wall_s);
    json_object_end(j);
}

static void json_search(JsonWriter *j, const char *map, const char *name, const SearchResult *r)
{
    json_object_begin(j);
    json_key(j, "map");
    json_string(j, map);
    json_key(j, "name");
    json_string(j, name);
    json_key(j, "budget_bot");
    json_int(j, r->per_bot);
    json_key(j, "budget_world");
    json_int(j, r->per_world);
    json_key(j, "bots");
    json_int(j, r->bots);
    json_key(j, "links");
    json_int(j, r->links);
    json_key(j, "links_known");
    json_int(j, r->links_known);
    json_key(j, "ticks");
    json_int(j, r->ticks);
    json_key(j, "search_ticks");
    json_int(j, r->search_ticks);
    json_key(j, "search_tick_mean_ms");
    json_number(j, r->ms_mean);
    json_key(j, "search_tick_p99_ms");
    json_number(j, r->ms_p99);
    json_key(j, "search_tick_max_ms");
    json_number(j, r->ms_max);
    json_key(j, "search_tick_max_raw_ms");
    json_number(j, r->ms_max_raw);
    json_key(j, "repeats");
    json_int(j, r->repeats);
    json_key(j, "repeats_differ");
    json_bool(j, r->repeats_differ);
    json_key(j, "expanded_per_tick");
    json_number(j, r->expanded_mean);
    json_key(j, "expanded_per_tick_max");
    json_int(j, r->expanded_max);
    json_key(j, "expanded");
    json_int(j, (int64_t)r->expanded);
    json_key(j, "expansion_us");
    json_number(j, r->us_per_expansion);
    json_key(j, "ready_bots");
    json_int(j, r->ready_bots);
    json_key(j, "no_route_bots");
    json_int(j, r->no_route_bots);
    json_key(j, "waiting_bots");
    json_int(j, r->waiting_bots);
    json_key(j, "arrived_bots");
    json_int(j, r->arrived_bots);
    json_key(j, "asks");
    json_int(j, r->episodes);
    json_key(j, "ready_ticks_mean");
    json_number(j, r->ready_mean);
    json_key(j, "ready_ticks_max");
    json_number(j, r->ready_bots ? r->ready_max : NAN);
    json_key(j, "ready_routes");
    json_int(j, (int64_t)r->ready_routes);
    json_key(j, "partial_routes");
    json_int(j, (int64_t)r->partial_routes);
    json_key(j, "queued");
    json_int(j, (int64_t)r->queued);
    json_key(j, "violations");
    json_int(j, r->violations);
    json_key(j, "partial_violations");
    json_int(j, r->partial_violations);
    json_key(j, "within_0_2_ms");
    json_bool(j, !isnan(r->ms_p99) && r->ms_p99 <= 0.2);
    json_key(j, "wall_s");
    json_number(j, r->wall_s);
    json_object_end(j);
}

static void write_json(const CliContext *cx, const Args *a, const MapInfo *maps, const LearnResult *res,
                       const SearchResult *sr, const bool *ran, double wall)
{
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "benchmark");
    json_string(&j, "learning");
    json_key(&j, "brain");
    json_string(&j, LEARN_BRAIN);
    json_key(&j, "teacher");
    json_string(&j, LEARN_TEACHER);
    json_key(&j, "seed");
    json_int(&j, a->seed);
    json_key(&j, "time_limit_s");
    json_number(&j, a->time_limit);
    json_key(&j, "search_bots");
    json_int(&j, a->search_bots);
    json_key(&j, "repeats");
    json_int(&j, a->repeats);
    json_key(&j, "wall_s");
    json_number(&j, wall);
    json_key(&j, "runs");
    json_array_begin(&j);
    for (int i = 0; i < a->map_count; i++) {
        if (!maps[i].ok) continue;
        for (int m = 0; m < LEARN_MODE_COUNT; m++)
            if (a->modes[m] && res[i * LEARN_MODE_COUNT + m].done)
                json_learning(&j, maps[i].name, maps[i].path, m, &res[i * LEARN_MODE_COUNT + m]);
    }
    json_array_end(&j);
    json_key(&j, "searches");
    json_array_begin(&j);
    for (int i = 0; i < a->map_count; i++)
        for (int b = 0; b < 2; b++)
            if (ran[2 * i + b]) json_search(&j, maps[i].name, b == 0 ? "default" : "tight", &sr[2 * i + b]);
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

/* {======= running ======= */

typedef struct Progress {
    const CliContext *cx;
    bool tty;
} Progress;

static void progress(void *user, int done, int total)
{
    const Progress *p = user;
    if (!p->tty) return;
    fprintf(p->cx->err, "\rbench learning: %d/%d runs%s", done, total, done == total ? "\n" : "");
    fflush(p->cx->err);
}

static void print_violations(const CliContext *cx, const char *map, const char *budget, const SearchResult *r)
{
    for (int k = 0; k < r->kept; k++) {
        const SearchViolation *v = &r->kept_v[k];
        fprintf(cx->err, "navbot bench learning: %s, %s budget: bot %u at tick %u in area %u: a %s route %s", map,
                budget, v->bot, v->tick, v->area, v->partial ? "partial" : "ready", learning_violation_name(v->why));
        if (v->link != UINT32_MAX) fprintf(cx->err, " (link %u from area %u)", v->link, v->from);
        fputc('\n', cx->err);
    }
    uint32_t all = r->violations + r->partial_violations;
    if (all > (uint32_t)r->kept) fprintf(cx->err, "navbot bench learning: ... and %u more\n", all - (uint32_t)r->kept);
}

/* The learning runs: every map's modes in child processes. */
static void run_learning(const CliContext *cx, const Args *a, const char *root, MapInfo *maps, LearnResult *res)
{
    LearnDesc *d = nav_calloc((size_t)a->map_count * LEARN_MODE_COUNT + 1, sizeof *d);
    LearnResult *got = nav_calloc((size_t)a->map_count * LEARN_MODE_COUNT + 1, sizeof *got);
    int *slot = nav_calloc((size_t)a->map_count * LEARN_MODE_COUNT + 1, sizeof *slot);
    if (!d || !got || !slot) {
        fprintf(cx->err, "navbot bench learning: out of memory\n");
        for (int i = 0; i < a->map_count; i++) maps[i].ok = false;
    } else {
        int n = 0;
        for (int i = 0; i < a->map_count; i++) {
            if (!maps[i].ok) continue;
            for (int m = 0; m < LEARN_MODE_COUNT; m++) {
                if (!a->modes[m]) continue;
                d[n] = (LearnDesc){
                    .w = maps[i].w, .root = root, .cls = 0, .seed = a->seed, .time_limit = a->time_limit, .mode = m
                };
                slot[n++] = i * LEARN_MODE_COUNT + m;
            }
        }
        Progress pr = { cx, isatty(fileno(cx->err)) == 1 };
        if (n > 0) learning_run_all(d, n, (int)a->jobs, got, progress, &pr);
        for (int k = 0; k < n; k++) res[slot[k]] = got[k];
    }
    nav_free(d);
    nav_free(got);
    nav_free(slot);
}

/* The searches, one map and budget at a time in this process (timed). */
static bool run_searches(const CliContext *cx, const Args *a, MapInfo *maps, SearchResult *sr, bool *ran)
{
    bool ok = true;
    bool tty = isatty(fileno(cx->err)) == 1;
    for (int i = 0; i < a->map_count; i++) {
        if (!maps[i].ok) continue;
        for (int b = 0; b < 2; b++) {
            const char *name = b == 0 ? "default" : "tight";
            if (tty) {
                fprintf(cx->err, "bench learning: searches on %s, %s budget...\n", maps[i].name, name);
                fflush(cx->err);
            }
            SearchDesc d = { .w = maps[i].w,
                             .cls = 0,
                             .seed = a->seed,
                             .label = maps[i].name,
                             .bots = (int)a->search_bots,
                             .per_bot = b == 0 ? SIM_SEARCH_BOT_BUDGET : a->tight_bot,
                             .per_world = b == 0 ? SIM_SEARCH_WORLD_BUDGET : a->tight_world,
                             .time_limit = a->time_limit,
                             .repeats = (int)a->repeats };
            NavError e;
            nav_error_clear(&e);
            if (NAV_FAILED(learning_searches(&d, &sr[2 * i + b], &e))) {
                fprintf(cx->err, "navbot bench learning: %s: searches: %s\n", maps[i].path, e.message);
                ok = false;
                break;
            }
            ran[2 * i + b] = true;
            print_violations(cx, maps[i].name, name, &sr[2 * i + b]);
            if (sr[2 * i + b].repeats_differ)
                fprintf(cx->err,
                        "navbot bench learning: %s, %s budget: a repeat expanded otherwise than the first run; "
                        "its times are the first run's alone\n",
                        maps[i].name, name);
        }
    }
    return ok;
}

/* }======= */

int bench_learning_run(const CliContext *cx, int argc, char **argv);
int bench_learning_run(const CliContext *cx, int argc, char **argv)
{
    Args a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    char root[LB_PATH_MAX];
    if (a.root) snprintf(root, sizeof root, "%s", a.root);
    else if (!nav_lua_bundled_root(root, sizeof root)) {
        fprintf(cx->err, "navbot bench learning: cannot find bots/" LEARN_BRAIN
                         ".lua beside the executable (give --root DIR)\n");
        return CLI_BAD_INPUT;
    }
    if (!has_brains(root)) {
        fprintf(cx->err,
                "navbot bench learning: %s: no bots/" LEARN_BRAIN ".lua and bots/" LEARN_TEACHER ".lua there\n", root);
        return CLI_BAD_INPUT;
    }
    char *found[LB_MAX_MAPS];
    int nfound = 0;
    if (a.map_count == 0) {
        nfound = bench_bundled_maps(root, NULL, found, LB_MAX_MAPS);
        if (nfound <= 0) {
            fprintf(cx->err, "navbot bench learning: %s\n",
                    nfound < 0 ? "out of memory listing the maps" : "no maps found (give MAPS)");
            return CLI_BAD_INPUT;
        }
        for (int i = 0; i < nfound; i++) a.maps[a.map_count++] = found[i];
    }
    size_t n = (size_t)a.map_count;
    MapInfo *maps = nav_calloc(n + 1, sizeof *maps);
    LearnResult *res = nav_calloc(n * LEARN_MODE_COUNT + 1, sizeof *res);
    SearchResult *sr = nav_calloc(2 * n + 1, sizeof *sr);
    bool *ran = nav_calloc(2 * n + 1, sizeof *ran);
    if (!maps || !res || !sr || !ran) {
        fprintf(cx->err, "navbot bench learning: out of memory for %d maps\n", a.map_count);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    /* A map that is not there stops the run before any bot runs. */
    for (int i = 0; i < a.map_count; i++) {
        if (strncmp(a.maps[i], CLI_GENERATED_PREFIX, 9) == 0 || bench_is_file(a.maps[i])) continue;
        fprintf(cx->err, "navbot bench learning: %s: %s\n", a.maps[i],
                bench_is_dir(a.maps[i]) ? "is a folder, not a map" : "no such map file");
        rc = CLI_BAD_INPUT;
    }
    if (rc != CLI_OK) goto done;
    bool learning = a.modes[MODE_EXPLORE] || a.modes[MODE_WATCH];
    for (int i = 0; i < a.map_count; i++) {
        MapInfo *mi = &maps[i];
        mi->path = a.maps[i];
        bench_map_label(mi->path, mi->name, sizeof mi->name);
        NavError e;
        nav_error_clear(&e);
        mi->w = cli_load_map(cx, "bench learning", mi->path, &e);
        if (!mi->w) {
            rc = CLI_BAD_INPUT;
            continue;
        }
        const char *why = world_class_count(mi->w) == 0 ? "it has no mover classes"
                          : learning                    ? unfit_for_learning(mi->w)
                                                        : NULL;
        if (why) {
            fprintf(cx->err, "navbot bench learning: %s: %s\n", mi->path, why);
            rc = CLI_BAD_INPUT;
            continue;
        }
        mi->ok = true;
    }
    uint64_t t0 = timer_now_ns();
    if (learning) run_learning(cx, &a, root, maps, res);
    for (int i = 0; i < a.map_count; i++)
        for (int m = 0; m < LEARN_MODE_COUNT; m++) {
            const LearnResult *r = &res[i * LEARN_MODE_COUNT + m];
            if (maps[i].ok && a.modes[m] && r->done && r->error[0])
                fprintf(cx->err, "navbot bench learning: %s %s: %s\n", maps[i].path, learning_mode_name(m), r->error);
        }
    if (a.modes[MODE_SEARCHES] && !run_searches(cx, &a, maps, sr, ran)) rc = CLI_BAD_INPUT;
    double wall = timer_ms_since(t0) / 1e3;
    if (a.json) {
        write_json(cx, &a, maps, res, sr, ran, wall);
    } else {
        if (learning) text_learning(cx->out, &a, maps, res);
        if (a.modes[MODE_SEARCHES]) text_searches(cx->out, &a, maps, sr, ran);
        fprintf(cx->out, "\n%.1f s\n", wall);
    }
done:
    if (maps)
        for (int i = 0; i < a.map_count; i++) world_destroy(maps[i].w);
    nav_free(maps);
    nav_free(res);
    nav_free(sr);
    nav_free(ran);
    for (int k = 0; k < nfound; k++) nav_free(found[k]);
    return rc;
}

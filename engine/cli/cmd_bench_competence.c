/*
** cmd_bench_competence.c — `navbot bench competence [MAPS...]`: do bots
** arrive? The options, finding the maps, and the report: per map and mode
** missions, arrivals, arrival time over the routed optimum (mean and p95
** over the bots that arrived), bots whose longest stuck spell passed 3 s,
** faults; then totals per mode. The first failures of each map and mode go
** to stderr with a `navbot run` command that replays them. The missions
** and the runs are scenario/competence.h's.
**
** DOES NOT: judge speed (wall time is printed, never compared), or fail on
** how many bots arrive (exit 0 whatever they do).
*/
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cli/bench_maps.h"
#include "cli/cli.h"
#include "core/json.h"
#include "core/timer.h"
#include "script/session.h"
#include "scenario/competence.h"
#include "sim/mission.h"

#define COMP_MAX_MAPS 64
#define COMP_MAX_JOBS 64
#define COMP_PATH_MAX 1024
/* The generated building in the default maps: small, so it runs fast. */
#define COMP_BUILDING "generate:building:64:64:2:1"


typedef struct CompArgs {
    const char *maps[COMP_MAX_MAPS];
    int map_count;
    uint32_t missions, crowd, seed, jobs, failures, stuck;
    double time_factor, time_margin, min_distance;
    bool modes[COMP_MODE_COUNT];
    bool json;
    const char *cls_name;
    const char *root; /* NULL: found (cwd, else beside the executable) */
} CompArgs;

typedef struct MapRun {
    char name[128];
    const char *path;
    bool ok;
    CompSummary s[COMP_MODE_COUNT];
    uint64_t hash;
} MapRun;

/* A bot that did not arrive, kept for the report. */
typedef struct Failure {
    char map[128];
    int mode, sim, bot;
    NavMission m;
    uint32_t limit_ticks;
    CompResult r;
    char *reproduce; /* the `navbot run` line */
} Failure;

/* What the whole run gathers: failures, and every arrival's ratio per mode
** for the totals. */
typedef struct Gathered {
    Failure *fail;
    int fail_count, fail_cap;
    double *ratios[COMP_MODE_COUNT];
    int nratios[COMP_MODE_COUNT], ratio_cap[COMP_MODE_COUNT];
} Gathered;

/* {======= arguments ======= */

static bool parse_modes(const char *val, bool modes[COMP_MODE_COUNT])
{
    memset(modes, 0, sizeof(bool) * COMP_MODE_COUNT);
    const char *s = val;
    int any = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        int found = -1;
        for (int m = 0; m < COMP_MODE_COUNT; m++)
            if (strlen(competence_mode_name(m)) == n && strncmp(s, competence_mode_name(m), n) == 0) found = m;
        if (found < 0) return false;
        modes[found] = true;
        any++;
        s += n;
        if (*s == ',') s++;
    }
    return any > 0;
}

static bool parse_real(const char *val, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static int parse_args(const CliContext *cx, int argc, char **argv, CompArgs *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->missions = 200;
    a->crowd = 8;
    a->seed = 1;
    a->jobs = 2;
    a->failures = 3;
    a->time_factor = 3.0;
    a->time_margin = 10.0;
    a->min_distance = MISSION_DEFAULT_MIN_DISTANCE;
    for (int m = 0; m < COMP_MODE_COUNT; m++) a->modes[m] = true;
    for (int i = 2; i < argc; i++) {
        const char *val = NULL;
        int r;
        uint32_t u;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--missions", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 100000)
                return cli_usage_error(cx, cmd, "--missions needs a number of missions from 1 to 100000");
            a->missions = u;
        } else if ((r = cli_take_value("--crowd", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 2 || u > COMP_MAX_CROWD)
                return cli_usage_error(cx, cmd, "--crowd needs a number of bots from 2 to %d", COMP_MAX_CROWD);
            a->crowd = u;
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u))
                return cli_usage_error(cx, cmd, "--seed needs a whole number from 0 to 4294967295");
            a->seed = u;
        } else if ((r = cli_take_value("--jobs", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > COMP_MAX_JOBS)
                return cli_usage_error(cx, cmd, "--jobs needs a number of processes from 1 to %d", COMP_MAX_JOBS);
            a->jobs = u;
        } else if ((r = cli_take_value("--failures", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u > 100000)
                return cli_usage_error(cx, cmd, "--failures needs a number from 0 to 100000");
            a->failures = u;
        } else if ((r = cli_take_value("--stuck", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u > 100000)
                return cli_usage_error(cx, cmd, "--stuck needs a number from 0 to 100000");
            a->stuck = u;
        } else if ((r = cli_take_value("--modes", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_modes(val, a->modes))
                return cli_usage_error(cx, cmd, "--modes needs a list of solo, crowd and shared such as solo,shared");
        } else if ((r = cli_take_value("--time-factor", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 1.0, 100.0, &a->time_factor))
                return cli_usage_error(cx, cmd, "--time-factor needs a number from 1 to 100");
        } else if ((r = cli_take_value("--time-margin", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 0.0, 600.0, &a->time_margin))
                return cli_usage_error(cx, cmd, "--time-margin needs seconds from 0 to 600");
        } else if ((r = cli_take_value("--min-distance", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 0.5, 1000.0, &a->min_distance))
                return cli_usage_error(cx, cmd, "--min-distance needs metres from 0.5 to 1000");
        } else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else if ((r = cli_take_value("--root", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--root needs a folder");
            a->root = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, cmd, "bench competence: unknown option '%s'", argv[i]);
        } else {
            if (a->map_count == COMP_MAX_MAPS)
                return cli_usage_error(cx, cmd, "bench competence: at most %d maps", COMP_MAX_MAPS);
            a->maps[a->map_count++] = argv[i];
        }
    }
    return CLI_OK;
}

/* }======= */

/* {======= where the maps and brains are ======= */

static bool has_project(const char *dir)
{
    char p[COMP_PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/bots/" COMP_BRAIN ".lua", dir);
    return bench_is_file(p);
}

/* The folder with bots/, lua/ and maps/: --root, else navbot's bundled
** one (beside the executable, whatever the current folder). */
static bool find_root(const CompArgs *a, char *out, size_t cap)
{
    if (a->root) {
        snprintf(out, cap, "%s", a->root);
        return true;
    }
    return nav_lua_bundled_root(out, cap);
}

/* }======= */

/* {======= failures ======= */


static void add_point(CliText *t, const float p[3])
{
    cli_text_add(t, "%.2f,%.2f,%.2f", (double)p[0], (double)p[1], (double)p[2]);
}

/* The `navbot run` line that replays mission i's sim. */
static void reproduce(CliText *t, const CompArgs *a, const char *map, const CompMission *ms, const CompSim *j,
                      uint32_t max_ticks)
{
    cli_text_add(t, "navbot run %s", map);
    for (int k = j->first; k < j->first + j->count; k++) {
        cli_text_add(t, " --bot " COMP_BRAIN "@");
        add_point(t, ms[k].m.start);
        if (j->mode == COMP_CROWD) {
            cli_text_add(t, " --bot-goal ");
            add_point(t, ms[k].m.goal);
        }
    }
    if (j->mode != COMP_CROWD) {
        cli_text_add(t, " --goal ");
        add_point(t, ms[j->first].m.goal);
    }
    if (a->cls_name) cli_text_add(t, " --class %s", a->cls_name);
    cli_text_add(t, " --seed %u --until-arrived --max-ticks %u", (unsigned)a->seed, (unsigned)max_ticks);
}

static float hdist(const float a[3], const float b[3]) { return hypotf(a[0] - b[0], a[1] - b[1]); }

static void print_failure(const CliContext *cx, const Failure *f)
{
    CliText t = { 0 };
    cli_text_add(&t, "%s %s %s sim %d bot %d: start ", f->r.arrived ? "STUCK" : "FAIL", f->map,
                 competence_mode_name(f->mode), f->sim, f->bot);
    add_point(&t, f->m.start);
    cli_text_add(&t, " goal ");
    add_point(&t, f->m.goal);
    cli_text_add(&t, ", optimum %.1f s, limit %.1f s\n     ended at ", f->m.time / 100.0,
                 f->limit_ticks / (double)SIM_DEFAULT_TICK_HZ);
    add_point(&t, f->r.pos);
    cli_text_add(&t, ", %.1f m from the goal; state \"%s\"; stuck %.1f s in all, longest %.1f s",
                 (double)hdist(f->r.pos, f->m.goal), f->r.say, (double)f->r.stuck_total, (double)f->r.stuck_max);
    if (f->r.faulted) cli_text_add(&t, "; fault: %s", f->r.error[0] ? f->r.error : "(no message)");
    cli_text_add(&t, "\n     %s\n", f->reproduce ? f->reproduce : "");
    if (t.s) fputs(t.s, cx->err);
    nav_free(t.s);
}

static void json_point(JsonWriter *j, const char *key, const float p[3])
{
    json_key(j, key);
    json_array_begin(j);
    for (int k = 0; k < 3; k++) json_number(j, p[k]);
    json_array_end(j);
}

static void json_failure(JsonWriter *j, const Failure *f)
{
    json_object_begin(j);
    json_key(j, "map");
    json_string(j, f->map);
    json_key(j, "mode");
    json_string(j, competence_mode_name(f->mode));
    json_key(j, "sim");
    json_int(j, f->sim);
    json_key(j, "bot");
    json_int(j, f->bot);
    json_point(j, "start", f->m.start);
    json_point(j, "goal", f->m.goal);
    json_key(j, "optimum_s");
    json_number(j, f->m.time / 100.0);
    json_key(j, "limit_s");
    json_number(j, f->limit_ticks / (double)SIM_DEFAULT_TICK_HZ);
    json_point(j, "end", f->r.pos);
    json_key(j, "distance_left");
    json_number(j, hdist(f->r.pos, f->m.goal));
    json_key(j, "state");
    json_string(j, f->r.say);
    json_key(j, "stuck_longest");
    json_number(j, f->r.stuck_max);
    json_key(j, "stuck_time");
    json_number(j, f->r.stuck_total);
    json_key(j, "faulted");
    json_bool(j, f->r.faulted);
    json_key(j, "error");
    if (f->r.error[0]) json_string(j, f->r.error);
    else json_null(j);
    json_key(j, "reproduce");
    json_string(j, f->reproduce ? f->reproduce : "");
    json_object_end(j);
}

/* }======= */

/* {======= output ======= */

static void json_summary(JsonWriter *j, const CompSummary *s)
{
    json_key(j, "missions");
    json_int(j, s->missions);
    json_key(j, "arrived");
    json_int(j, s->arrived);
    json_key(j, "arrived_pct");
    json_number(j, s->missions ? 100.0 * s->arrived / s->missions : NAN);
    json_key(j, "ratio_mean");
    json_number(j, s->ratio_mean);
    json_key(j, "ratio_p95");
    json_number(j, s->ratio_p95);
    json_key(j, "stuck_over_3s");
    json_int(j, s->stuck);
    json_key(j, "faults");
    json_int(j, s->faults);
}

static void text_row(FILE *o, const char *map, const char *mode, const CompSummary *s)
{
    char mean[16], p95[16];
    if (isnan(s->ratio_mean)) snprintf(mean, sizeof mean, "-"), snprintf(p95, sizeof p95, "-");
    else snprintf(mean, sizeof mean, "%.2f", s->ratio_mean), snprintf(p95, sizeof p95, "%.2f", s->ratio_p95);
    fprintf(o, "%-24s %-7s %8d %8d %6.1f %10s %9s %9d %7d\n", map, mode, s->missions, s->arrived,
            s->missions ? 100.0 * s->arrived / s->missions : 0.0, mean, p95, s->stuck, s->faults);
}

static void text_header(FILE *o)
{
    fprintf(o, "%-24s %-7s %8s %8s %6s %10s %9s %9s %7s\n", "map", "mode", "missions", "arrived", "%", "ratio_mean",
            "ratio_p95", "stuck>3s", "faults");
}

/* }======= */


/* {======= one map ======= */

typedef struct Progress {
    const CliContext *cx;
    bool tty;
    const char *label;
} Progress;

static void progress(void *user, int done, int total)
{
    const Progress *p = user;
    if (!p->tty) return;
    fprintf(p->cx->err, "\rbench competence: %-24s %d/%d sims%s", p->label, done, total, done == total ? "\n" : "");
    fflush(p->cx->err);
}

static bool gather_failure(Gathered *g, const CompArgs *a, const MapRun *mr, const CompSet *set, const CompResult *r,
                           int i)
{
    if (g->fail_count == g->fail_cap) {
        int cap = g->fail_cap ? 2 * g->fail_cap : 16;
        Failure *f = nav_realloc(g->fail, sizeof *f * (size_t)cap);
        if (!f) return false;
        g->fail = f;
        g->fail_cap = cap;
    }
    const CompMission *m = &set->missions[i];
    const CompSim *j = &set->sims[m->sim];
    Failure *f = &g->fail[g->fail_count++];
    memset(f, 0, sizeof *f);
    snprintf(f->map, sizeof f->map, "%s", mr->name);
    f->mode = m->mode;
    f->sim = m->sim_in_mode;
    f->bot = i - j->first;
    f->m = m->m;
    f->limit_ticks = m->limit_ticks;
    f->r = *r;
    CliText t = { 0 };
    reproduce(&t, a, mr->path, set->missions, j, competence_sim_ticks(set, m->sim));
    f->reproduce = t.s;
    return true;
}

static bool keep_ratios(Gathered *g, int mode, const double *r, int n)
{
    if (n <= 0) return true;
    if (g->nratios[mode] + n > g->ratio_cap[mode]) {
        int cap = 2 * (g->nratios[mode] + n) + 64;
        double *d = nav_realloc(g->ratios[mode], sizeof *d * (size_t)cap);
        if (!d) return false;
        g->ratios[mode] = d;
        g->ratio_cap[mode] = cap;
    }
    memcpy(g->ratios[mode] + g->nratios[mode], r, sizeof *r * (size_t)n);
    g->nratios[mode] += n;
    return true;
}

/* Runs every mode on one map into mr, its failures (the first --failures
** per mode) printed to stderr and kept in g. False when the map could not
** be run (reported). */
static bool bench_map(const CliContext *cx, const CompArgs *a, const char *root, MapRun *mr, Gathered *g)
{
    NavError e;
    nav_error_clear(&e);
    bench_map_label(mr->path, mr->name, sizeof mr->name);
    NavWorld *w = cli_load_map(cx, "bench competence", mr->path, &e);
    if (!w) return false;
    int cls = 0;
    if (world_class_count(w) == 0) {
        fprintf(cx->err, "navbot bench competence: %s has no mover classes\n", mr->path);
        world_destroy(w);
        return false;
    }
    if (a->cls_name && (cls = world_find_class(w, a->cls_name)) < 0) {
        fprintf(cx->err, "navbot bench competence: %s has no class '%s'\n", mr->path, a->cls_name);
        world_destroy(w);
        return false;
    }
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = a->seed }, &e);
    MissionPicker *pk =
        sim ? mission_picker_create(sim, &(MissionDesc){ .cls = cls, .min_distance = (float)a->min_distance }, &e)
            : NULL;
    if (!pk) {
        fprintf(cx->err, "navbot bench competence: %s: %s\n", mr->path, e.message);
        sim_destroy(sim);
        world_destroy(w);
        return false;
    }
    CompSet set;
    CompDesc d = { .missions = a->missions,
                   .crowd = a->crowd,
                   .seed = a->seed,
                   .time_factor = a->time_factor,
                   .time_margin = a->time_margin,
                   .min_distance = a->min_distance };
    memcpy(d.modes, a->modes, sizeof d.modes);
    NavStatus st = competence_missions(&d, mr->name, pk, &set, &e);
    mission_picker_destroy(pk);
    sim_destroy(sim);
    if (NAV_FAILED(st)) {
        fprintf(cx->err, "navbot bench competence: %s\n", e.message);
        world_destroy(w);
        return false;
    }
    mr->hash = competence_hash(COMP_HASH_START, mr->name, &set);
    CompResult *res = nav_calloc((size_t)set.count + 1, sizeof *res);
    double *ratios = nav_malloc(sizeof *ratios * ((size_t)set.count + 1));
    bool ok = res && ratios;
    if (ok) {
        Progress pr = { cx, isatty(fileno(cx->err)) == 1, mr->name };
        competence_run(&(CompRunDesc){ .w = w,
                                       .root = root,
                                       .cls = cls,
                                       .seed = a->seed,
                                       .jobs = (int)a->jobs,
                                       .progress = progress,
                                       .user = &pr },
                       &set, res);
        for (int mode = 0; mode < COMP_MODE_COUNT && ok; mode++) {
            if (!a->modes[mode]) continue;
            int nr = competence_summarise(&set, res, mode, &mr->s[mode], ratios);
            ok = keep_ratios(g, mode, ratios, nr);
            competence_ratio_stats(ratios, nr, &mr->s[mode]);
            uint32_t shown = 0;
            for (int i = 0; i < set.count && shown < a->failures && ok; i++) {
                if (set.missions[i].mode != mode || res[i].arrived) continue;
                ok = gather_failure(g, a, mr, &set, &res[i], i);
                if (ok) print_failure(cx, &g->fail[g->fail_count - 1]);
                shown++;
            }
            /* --stuck: bots that arrived after a stuck spell over 3 s,
            ** told the same way (stderr only, not in --json). */
            shown = 0;
            for (int i = 0; i < set.count && shown < a->stuck && ok; i++) {
                if (set.missions[i].mode != mode || !res[i].arrived || res[i].stuck_max <= COMP_STUCK_SECONDS) continue;
                ok = gather_failure(g, a, mr, &set, &res[i], i);
                if (ok) {
                    print_failure(cx, &g->fail[--g->fail_count]);
                    nav_free(g->fail[g->fail_count].reproduce);
                }
                shown++;
            }
        }
    }
    if (!ok) fprintf(cx->err, "navbot bench competence: out of memory\n");
    nav_free(res);
    nav_free(ratios);
    competence_free(&set);
    world_destroy(w);
    return ok;
}

/* }======= */

static void write_json(const CliContext *cx, const CompArgs *a, const MapRun *runs, const CompSummary *total,
                       const Gathered *g, uint64_t hash, double wall)
{
    JsonWriter j;
    char hs[32];
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "benchmark");
    json_string(&j, "competence");
    json_key(&j, "brain");
    json_string(&j, COMP_BRAIN);
    json_key(&j, "class");
    if (a->cls_name) json_string(&j, a->cls_name);
    else json_null(&j);
    json_key(&j, "seed");
    json_int(&j, a->seed);
    json_key(&j, "missions_per_mode");
    json_int(&j, a->missions);
    json_key(&j, "crowd");
    json_int(&j, a->crowd);
    json_key(&j, "time_factor");
    json_number(&j, a->time_factor);
    json_key(&j, "time_margin");
    json_number(&j, a->time_margin);
    json_key(&j, "min_distance");
    json_number(&j, a->min_distance);
    snprintf(hs, sizeof hs, "%016llx", (unsigned long long)hash);
    json_key(&j, "missions_hash");
    json_string(&j, hs);
    json_key(&j, "wall_s");
    json_number(&j, wall);
    json_key(&j, "runs");
    json_array_begin(&j);
    for (int i = 0; i < a->map_count; i++) {
        if (!runs[i].ok) continue;
        for (int m = 0; m < COMP_MODE_COUNT; m++) {
            if (!a->modes[m]) continue;
            json_object_begin(&j);
            json_key(&j, "map");
            json_string(&j, runs[i].name);
            json_key(&j, "path");
            json_string(&j, runs[i].path);
            json_key(&j, "mode");
            json_string(&j, competence_mode_name(m));
            json_key(&j, "bots_per_sim");
            json_int(&j, m == COMP_SOLO ? 1 : a->crowd);
            json_summary(&j, &runs[i].s[m]);
            snprintf(hs, sizeof hs, "%016llx", (unsigned long long)runs[i].hash);
            json_key(&j, "map_missions_hash");
            json_string(&j, hs);
            json_object_end(&j);
        }
    }
    json_array_end(&j);
    json_key(&j, "totals");
    json_array_begin(&j);
    for (int m = 0; m <= COMP_MODE_COUNT; m++) {
        if (m < COMP_MODE_COUNT && !a->modes[m]) continue;
        json_object_begin(&j);
        json_key(&j, "mode");
        json_string(&j, m < COMP_MODE_COUNT ? competence_mode_name(m) : "all");
        json_summary(&j, &total[m]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "failures");
    json_array_begin(&j);
    for (int i = 0; i < g->fail_count; i++) json_failure(&j, &g->fail[i]);
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

static void write_text(const CliContext *cx, const CompArgs *a, const MapRun *runs, const CompSummary *total,
                       uint64_t hash, double wall)
{
    FILE *o = cx->out;
    fprintf(o,
            "competence: bots/%s.lua on random missions, class %s, seed %u, %u missions per map and mode (crowd and "
            "shared: sims of %u bots), time limit %.3g x the routed optimum + %.3g s\n\n",
            COMP_BRAIN, a->cls_name ? a->cls_name : "the map's first", (unsigned)a->seed, (unsigned)a->missions,
            (unsigned)a->crowd, a->time_factor, a->time_margin);
    text_header(o);
    for (int i = 0; i < a->map_count; i++) {
        if (!runs[i].ok) continue;
        for (int m = 0; m < COMP_MODE_COUNT; m++)
            if (a->modes[m]) text_row(o, runs[i].name, competence_mode_name(m), &runs[i].s[m]);
    }
    fprintf(o, "\n");
    for (int m = 0; m <= COMP_MODE_COUNT; m++)
        if (m == COMP_MODE_COUNT || a->modes[m])
            text_row(o, "total", m < COMP_MODE_COUNT ? competence_mode_name(m) : "all", &total[m]);
    fprintf(o,
            "\nratio: arrival time / routed optimum, over the bots that arrived; stuck>3s: bots whose longest "
            "stuck spell passed 3 s\nmissions hash %016llx; %.1f s\n",
            (unsigned long long)hash, wall);
}

int bench_competence_run(const CliContext *cx, int argc, char **argv);
int bench_competence_run(const CliContext *cx, int argc, char **argv)
{
    CompArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    char root[COMP_PATH_MAX];
    if (!find_root(&a, root, sizeof root)) {
        fprintf(cx->err, "navbot bench competence: cannot find bots/" COMP_BRAIN
                         ".lua here or beside the executable (run from the project's root, or give --root DIR)\n");
        return CLI_BAD_INPUT;
    }
    if (!has_project(root)) {
        fprintf(cx->err, "navbot bench competence: --root %s: no bots/" COMP_BRAIN ".lua there\n", root);
        return CLI_BAD_INPUT;
    }
    char *found[COMP_MAX_MAPS];
    int nfound = 0;
    if (a.map_count == 0) {
        nfound = bench_bundled_maps(root, COMP_BUILDING, found, COMP_MAX_MAPS);
        if (nfound < 0) {
            fprintf(cx->err, "navbot bench competence: out of memory listing the maps\n");
            return CLI_BAD_INPUT;
        }
        for (int i = 0; i < nfound; i++) a.maps[a.map_count++] = found[i];
    }
    MapRun *runs = nav_calloc((size_t)a.map_count + 1, sizeof *runs);
    Gathered g;
    memset(&g, 0, sizeof g);
    /* A map that is not there stops the run before any bot runs. */
    for (int i = 0; i < a.map_count && rc == CLI_OK; i++) {
        if (strncmp(a.maps[i], CLI_GENERATED_PREFIX, 9) == 0 || bench_is_file(a.maps[i])) continue;
        fprintf(cx->err, "navbot bench competence: %s: %s\n", a.maps[i],
                bench_is_dir(a.maps[i]) ? "is a folder, not a map" : "no such map file");
        rc = CLI_BAD_INPUT;
    }
    if (!runs && rc == CLI_OK) {
        fprintf(cx->err, "navbot bench competence: out of memory for %d maps\n", a.map_count);
        rc = CLI_BAD_INPUT;
    }
    if (rc != CLI_OK) goto done;

    uint64_t t0 = timer_now_ns(), hash = COMP_HASH_START;
    for (int i = 0; i < a.map_count; i++) {
        runs[i].path = a.maps[i];
        runs[i].ok = bench_map(cx, &a, root, &runs[i], &g);
        if (!runs[i].ok) rc = CLI_BAD_INPUT;
        else hash = competence_hash_bytes(hash, &runs[i].hash, sizeof runs[i].hash);
    }
    double wall = timer_ms_since(t0) / 1e3;

    CompSummary total[COMP_MODE_COUNT + 1];
    memset(total, 0, sizeof total);
    double *all = NULL;
    int nall = 0;
    for (int m = 0; m < COMP_MODE_COUNT; m++) nall += g.nratios[m];
    all = nav_malloc(sizeof *all * ((size_t)nall + 1));
    if (!all) {
        fprintf(cx->err, "navbot bench competence: out of memory for the summary\n");
        rc = CLI_BAD_INPUT;
        goto done;
    }
    nall = 0;
    for (int m = 0; m <= COMP_MODE_COUNT; m++) {
        for (int i = 0; i < a.map_count; i++) {
            if (!runs[i].ok) continue;
            for (int k = 0; k < COMP_MODE_COUNT; k++) {
                if (!a.modes[k] || (m < COMP_MODE_COUNT && k != m)) continue;
                total[m].missions += runs[i].s[k].missions;
                total[m].arrived += runs[i].s[k].arrived;
                total[m].stuck += runs[i].s[k].stuck;
                total[m].faults += runs[i].s[k].faults;
            }
        }
        if (m < COMP_MODE_COUNT) {
            if (all && g.nratios[m] > 0) {
                memcpy(all + nall, g.ratios[m], sizeof *all * (size_t)g.nratios[m]);
                nall += g.nratios[m];
            }
            competence_ratio_stats(g.ratios[m], g.nratios[m], &total[m]);
        } else {
            competence_ratio_stats(all, all ? nall : 0, &total[m]);
        }
    }
    nav_free(all);
    if (a.json) write_json(cx, &a, runs, total, &g, hash, wall);
    else write_text(cx, &a, runs, total, hash, wall);

done:
    for (int i = 0; i < g.fail_count; i++) nav_free(g.fail[i].reproduce);
    nav_free(g.fail);
    for (int m = 0; m < COMP_MODE_COUNT; m++) nav_free(g.ratios[m]);
    nav_free(runs);
    for (int k = 0; k < nfound; k++) nav_free(found[k]);
    return rc;
}

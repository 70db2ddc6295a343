/*
** cmd_bench_crowd.c — `navbot bench crowd [--json] [--bots N,...]
** [--ticks N] [--warmup N] [--map FILE] [--class NAME]`: how long a tick
** takes with thousands of Lua-driven RTS units (bots/rts.lua) walking grid
** paths, and what Lua costs against the same units driven from C.
**
** Per run (one per --bots count, default 1,000 and 10,000):
**   placement  bots on passable dry cells of the class's largest component,
**              on a lattice a little wider than the body (so no two
**              overlap), shuffled with a fixed seed so they spread over the
**              whole map; the same places for both drivers
**   lua        a session (script/session.h), every bot on bots/rts.lua;
**              the grid is built before the clock starts; warm-up ticks
**              (the crowd plans its first paths, PLANS_PER_TICK a tick),
**              then --ticks timed ticks: mean and p99 of the tick, and the
**              session's split into Lua, path queries and movement
**   avoidance  on for every unit in both runs (sim_bot_set_avoid, the same
**              settings), set from C after each bot is added
**   baseline   a bare sim whose bots a C loop drives by the same rules as
**              rts.lua (same budgets, ranges, random draws and grid paths
**              through sim_grid_path), timed the same way. It makes the
**              same run, bit for bit (the trace hashes are compared and
**              shown), so lua / baseline is exactly what Lua costs
**   memory     bytes_per_bot = growth of the C heap (mallinfo2; null under
**              the sanitizers, whose allocator it cannot see) from before
**              the session to after the warm-up, over the bots: every
**              bot's Lua environment, thread and state, the brain host's
**              and session's records, the sim's bots and buckets, and the
**              grid and search state (shared, so their share shrinks with
**              more bots). Its parts: the Lua states' allocator count, and
**              sim_memory (bots, buckets, grid, search state), per bot.
** Brains and modules are navbot's bundled bots/ and lua/, found beside
** the executable.
**
** DOES NOT: fail on timing (the target, 25 ms per tick for 10,000 bots on
** one core with avoidance on, is printed beside the figure), or run bots
** in parallel.
*/
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "core/json.h"
#include "core/random.h"
#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "script/session.h"
#include "sim/sim.h"
#include "sim/sim_debug.h"
#include "sim/sim_unit.h"

#define CROWD_MAX_RUNS 16
#define CROWD_SEED 0x63726f7764ull /* "crowd" */
#define CROWD_TARGET_MS 25.0
#define CROWD_TARGET_BOTS 10000

/* The rules of bots/rts.lua, for the C driver. Keep them in step. */
#define RTS_RANGE 60.0
#define RTS_LOOK_EVERY 8
#define RTS_RETRY 30

/* The avoidance both runs turn on for every unit, by whether its class
** swims: never lava or slime, deep water only for a swimmer (the ground
** its grid paths use). */
static const NavAvoidDesc CROWD_AVOID[2] = {
    { .on = true, .forbid = SIM_AVOID_LAVA | SIM_AVOID_SLIME | SIM_AVOID_DEEP_WATER },
    { .on = true, .forbid = SIM_AVOID_LAVA | SIM_AVOID_SLIME },
};

typedef struct CrowdArgs {
    const char *map;
    const char *cls_name;
    uint32_t bots[CROWD_MAX_RUNS];
    int runs;
    uint32_t ticks, warmup;
    bool json;
} CrowdArgs;

typedef struct TickStats {
    double mean_ms, p99_ms;
    double lua_ms, path_ms, move_ms; /* means per tick; lua: the C driver's own time for the baseline */
} TickStats;

typedef struct CrowdRun {
    uint32_t bots;
    TickStats lua, base;
    double bytes_per_bot, lua_bytes_per_bot, sim_bytes_per_bot;
    uint32_t faults;
    double lua_speed, base_speed; /* mean metres per second walked over the timed ticks: moving, not jammed */
    uint64_t lua_hash, base_hash; /* sim_trace_hash at the end: equal when C and Lua made the same run */
    char first_fault[256];
} CrowdRun;

/* {======= arguments ======= */

static int parse_args(const CliContext *cx, int argc, char **argv, CrowdArgs *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->map = "maps/valley.lua";
    a->ticks = 150;
    a->warmup = 90;
    a->bots[0] = 1000;
    a->bots[1] = 10000;
    a->runs = 2;
    for (int i = 2; i < argc; i++) {
        const char *val = NULL;
        int r;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--bots", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--bots needs counts such as 1000,10000");
            a->runs = 0;
            const char *s = val;
            while (*s) {
                char num[16];
                size_t n = strcspn(s, ",");
                uint32_t v;
                if (n == 0 || n >= sizeof num || a->runs == CROWD_MAX_RUNS)
                    return cli_usage_error(cx, cmd, "--bots '%s' is not up to %d counts separated by commas", val,
                                           CROWD_MAX_RUNS);
                memcpy(num, s, n);
                num[n] = '\0';
                if (!cli_parse_u32(num, &v) || v < 1 || v > SIM_MAX_BOTS)
                    return cli_usage_error(cx, cmd, "--bots: '%s' is not a count from 1 to %d", num, SIM_MAX_BOTS);
                a->bots[a->runs++] = v;
                s += n;
                if (*s == ',') s++;
            }
            if (!a->runs) return cli_usage_error(cx, cmd, "--bots needs counts such as 1000,10000");
        } else if ((r = cli_take_value("--ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &a->ticks) || a->ticks < 1 || a->ticks > 1000000)
                return cli_usage_error(cx, cmd, "--ticks needs a number of ticks from 1 to 1000000");
        } else if ((r = cli_take_value("--warmup", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &a->warmup) || a->warmup > 1000000)
                return cli_usage_error(cx, cmd, "--warmup needs a number of ticks from 0 to 1000000");
        } else if ((r = cli_take_value("--map", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--map needs a map file");
            a->map = val;
        } else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else {
            return cli_usage_error(cx, cmd, "bench crowd: unknown argument '%s'", argv[i]);
        }
    }
    return CLI_OK;
}

/* }======= */

/* {======= timing ======= */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarise(double *tick_ms, uint32_t n, TickStats *st)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++) sum += tick_ms[i];
    st->mean_ms = sum / n;
    qsort(tick_ms, n, sizeof *tick_ms, cmp_double);
    uint32_t at = (uint32_t)ceil(0.99 * n);
    st->p99_ms = tick_ms[at ? at - 1 : 0];
    st->lua_ms /= n;
    st->path_ms /= n;
    st->move_ms /= n;
}

static void progress(const CliContext *cx, const CrowdArgs *a, const char *what, uint32_t bots, uint32_t t)
{
    uint32_t total = a->warmup + a->ticks;
    if (bots < 5000) return;                  /* short runs need none */
    if (isatty(fileno(cx->err)) != 1) return; /* a terminal's line, rewritten: not for logs */
    if (t % 10 == 0 || t == total)
        fprintf(cx->err, "\rbench crowd: %u bots, %s: tick %u/%u%s", (unsigned)bots, what, (unsigned)t, (unsigned)total,
                t == total ? "\n" : "");
}

/* Bytes malloc has handed out: small blocks and the large ones it maps. */
static size_t heap_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static double total_distance(const NavSim *sim)
{
    double d = 0.0;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) d += sim_bot(sim, i)->distance;
    return d;
}

/* }======= */

/* {======= the Lua run ======= */

static void quiet_log(void *user, const char *line)
{
    /* Brains' prints and faults: the first fault is kept for the report. */
    CrowdRun *r = user;
    if (!r->first_fault[0] && strstr(line, "fault")) snprintf(r->first_fault, sizeof r->first_fault, "%s", line);
}

static bool run_lua(const CliContext *cx, const CrowdArgs *a, const NavWorld *w, int cls, const float *pos, CrowdRun *r)
{
    size_t heap0 = heap_bytes();
    NavError e;
    nav_error_clear(&e);
    NavSession *s = session_create(w, &(NavSessionDesc){ .seed = 1, .log = quiet_log, .log_user = r }, &e);
    if (!s) {
        cli_print_error(cx, "bench crowd", &e);
        return false;
    }
    NavSim *sim = session_sim(s);
    if (!sim_grid(sim, &e)) {
        cli_print_error(cx, "bench crowd", &e);
        session_destroy(s);
        return false;
    }
    for (uint32_t i = 0; i < r->bots; i++) {
        NavBotDesc d = { .cls = cls, .pos = { pos[3 * i], pos[3 * i + 1], pos[3 * i + 2] } };
        if (session_add_bot(s, "rts", &d, &e) < 0) {
            cli_print_error(cx, "bench crowd", &e);
            session_destroy(s);
            return false;
        }
        /* Every unit avoids the others (the same settings in both runs). */
        if (!sim_bot_set_avoid(sim, i, &CROWD_AVOID[class_can_swim(world_class(w, cls))])) {
            fprintf(cx->err, "navbot bench crowd: out of memory setting the bots' avoidance\n");
            session_destroy(s);
            return false;
        }
        if (session_bot_faulted(s, i)) {
            fprintf(cx->err, "navbot bench crowd: bots/rts.lua: %s\n", session_bot_error(s, i));
            session_destroy(s);
            return false;
        }
    }
    double *ms = nav_malloc(a->ticks * sizeof *ms);
    if (!ms) {
        fprintf(cx->err, "navbot bench crowd: out of memory for %u ticks' times\n", (unsigned)a->ticks);
        session_destroy(s);
        return false;
    }
    for (uint32_t t = 0; t < a->warmup; t++) {
        session_step(s);
        progress(cx, a, "lua", r->bots, t + 1);
    }
    size_t heap1 = heap_bytes();
    BrainHostStats hs;
    brain_host_stats(session_brains(s), &hs);
    r->bytes_per_bot = heap1 > heap0 ? (double)(heap1 - heap0) / r->bots : NAN; /* NAN: no mallinfo (sanitizers) */
    r->lua_bytes_per_bot = (double)hs.memory / r->bots;
    r->sim_bytes_per_bot = (double)sim_memory(sim) / r->bots;
    double dist0 = total_distance(sim);
    for (uint32_t t = 0; t < a->ticks; t++) {
        session_step(s);
        NavSessionTimes tm;
        session_times(s, &tm);
        ms[t] = tm.tick_ms;
        r->lua.lua_ms += tm.lua_ms;
        r->lua.path_ms += tm.path_ms;
        r->lua.move_ms += tm.move_ms;
        progress(cx, a, "lua", r->bots, a->warmup + t + 1);
    }
    summarise(ms, a->ticks, &r->lua);
    r->lua_speed = (total_distance(sim) - dist0) / r->bots / (a->ticks * (double)sim_dt(sim));
    r->lua_hash = sim_trace_hash(sim);
    for (uint32_t i = 0; i < r->bots; i++) r->faults += session_bot_faulted(s, i);
    nav_free(ms);
    session_destroy(s);
    return true;
}

/* }======= */

/* {======= the C baseline: rts.lua's rules without Lua ======= */

/* In doubles where rts.lua computes in Lua numbers, and floats where the
** engine takes or gives floats, so the same rules give the same run: the
** trace hashes of the two runs are compared in the report. */
typedef struct CDriver {
    NavSim *sim;
    NavGrid *g;
    int64_t *wake; /* per bot: the tick of its next look */
    bool nomem;    /* an order could not be given: the run stops */
} CDriver;

/* nav.random() */
static double unit_random(NavSim *sim) { return (double)(sim_random(sim) >> 11) * (1.0 / 9007199254740992.0); }

/* random_goal, with nav.grid_reachable's rule for a bot on a blocked cell. */
static bool c_random_goal(CDriver *d, const NavBot *nb, double *ox, double *oy)
{
    double W = (double)((float)grid_width(d->g) * grid_cell_size(d->g));
    double H = (double)((float)grid_height(d->g) * grid_cell_size(d->g));
    double px = nb->pos[0], py = nb->pos[1];
    int ax, ay;
    bool from = grid_cell_of(d->g, nb->pos[0], nb->pos[1], &ax, &ay);
    if (from && !grid_passable(d->g, nb->cls, ax, ay)) from = grid_nearest_passable(d->g, nb->cls, ax, ay, &ax, &ay);
    double x0 = fmax(0.5, px - RTS_RANGE), x1 = fmin(W - 0.5, px + RTS_RANGE);
    double y0 = fmax(0.5, py - RTS_RANGE), y1 = fmin(H - 0.5, py + RTS_RANGE);
    for (int i = 0; i < 8; i++) {
        double x = x0 + unit_random(d->sim) * (x1 - x0);
        double y = y0 + unit_random(d->sim) * (y1 - y0);
        int bx, by;
        if (from && grid_cell_of(d->g, (float)x, (float)y, &bx, &by) && grid_reachable(d->g, nb->cls, ax, ay, bx, by)) {
            *ox = x, *oy = y;
            return true;
        }
    }
    return false;
}

/* rts.lua's look for a unit with no queued goal: a new random goal when
** its last order is done. */
static int64_t c_look(CDriver *d, uint32_t id, int64_t t)
{
    NavUnitInfo in;
    sim_unit_info(d->sim, id, &in);
    if (in.status == NAV_UNIT_MOVING) return t + RTS_LOOK_EVERY;
    double x, y;
    if (!c_random_goal(d, sim_bot(d->sim, id), &x, &y)) return t + RTS_RETRY;
    GridGoal goal = grid_goal_point((float)x, (float)y);
    NavError e;
    nav_error_clear(&e);
    if (!sim_unit_move(d->sim, id, &goal, &e)) d->nomem = true; /* the goal is valid: only memory fails */
    return t + RTS_LOOK_EVERY;
}

static bool run_baseline(const CliContext *cx, const CrowdArgs *a, const NavWorld *w, int cls, const float *pos,
                         CrowdRun *r)
{
    NavError e;
    nav_error_clear(&e);
    CDriver d = { 0 };
    d.sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &e);
    if (!d.sim || !(d.g = sim_grid(d.sim, &e))) {
        cli_print_error(cx, "bench crowd", &e);
        sim_destroy(d.sim);
        return false;
    }
    d.wake = nav_calloc(r->bots, sizeof *d.wake);
    double *ms = nav_malloc(a->ticks * sizeof *ms);
    bool ok = d.wake && ms;
    for (uint32_t i = 0; ok && i < r->bots; i++) {
        NavBotDesc bd = { .cls = cls, .pos = { pos[3 * i], pos[3 * i + 1], pos[3 * i + 2] } };
        if (sim_add_bot(d.sim, &bd, &e) < 0) {
            cli_print_error(cx, "bench crowd", &e);
            ok = false;
        }
        if (ok && !sim_bot_set_avoid(d.sim, (uint32_t)i, &CROWD_AVOID[class_can_swim(world_class(w, cls))])) {
            d.nomem = true;
            ok = false;
        }
        if (ok) d.wake[i] = (i + 1) % RTS_LOOK_EVERY; /* rts.lua's slot is the id + 1 */
    }
    double dist0 = 0.0;
    if (!d.wake || !ms) d.nomem = true;
    for (uint32_t t = 0; ok && !d.nomem && t < a->warmup + a->ticks; t++) {
        if (t == a->warmup) dist0 = total_distance(d.sim);
        uint64_t t0 = timer_now_ns();
        int64_t tick = (int64_t)sim_tick(d.sim);
        for (uint32_t i = 0; i < r->bots; i++)
            if (tick >= d.wake[i]) d.wake[i] = c_look(&d, i, tick);
        uint64_t t1 = timer_now_ns();
        sim_step(d.sim);
        uint64_t t2 = timer_now_ns();
        progress(cx, a, "C baseline", r->bots, t + 1);
        if (t < a->warmup) continue;
        ms[t - a->warmup] = (double)(t2 - t0) / 1e6;
        r->base.lua_ms += (double)(t1 - t0) / 1e6;
        r->base.move_ms += (double)(t2 - t1) / 1e6;
    }
    if (d.nomem) {
        fprintf(cx->err, "navbot bench crowd: out of memory running the C baseline with %u bots\n", (unsigned)r->bots);
        ok = false;
    }
    if (ok) {
        summarise(ms, a->ticks, &r->base);
        r->base_speed = (total_distance(d.sim) - dist0) / r->bots / (a->ticks * (double)sim_dt(d.sim));
        r->base_hash = sim_trace_hash(d.sim);
    }
    nav_free(d.wake);
    nav_free(ms);
    sim_destroy(d.sim);
    return ok;
}

/* }======= */

/* {======= output ======= */

static void write_text(const CliContext *cx, const CrowdArgs *a, const char *cls_name, const CrowdRun *r)
{
    FILE *o = cx->out;
    fprintf(o, "crowd      %s, class %s, %u bots on bots/rts.lua with avoidance, %u ticks after %u of warm-up\n",
            a->map, cls_name, (unsigned)r->bots, (unsigned)a->ticks, (unsigned)a->warmup);
    fprintf(o, "tick       mean %.2f ms, p99 %.2f ms", r->lua.mean_ms, r->lua.p99_ms);
    if (r->bots == CROWD_TARGET_BOTS)
        fprintf(o, " (target %.0f ms: %s)", CROWD_TARGET_MS, r->lua.mean_ms <= CROWD_TARGET_MS ? "met" : "missed");
    fprintf(o, "\nsplit      lua %.2f ms, path %.2f ms, move %.2f ms (means per tick)\n", r->lua.lua_ms, r->lua.path_ms,
            r->lua.move_ms);
    fprintf(o, "memory     %.0f bytes per bot (heap growth; Lua states %.0f, sim with grid %.0f)\n", r->bytes_per_bot,
            r->lua_bytes_per_bot, r->sim_bytes_per_bot);
    fprintf(o,
            "baseline   C driver, same rules and grid paths: mean %.2f ms, p99 %.2f ms; driver %.2f, path %.2f, "
            "move %.2f ms\n",
            r->base.mean_ms, r->base.p99_ms, r->base.lua_ms, r->base.path_ms, r->base.move_ms);
    fprintf(o, "lua cost   %.2fx the baseline's tick; Lua's part %.2f ms against the C driver's %.2f ms\n",
            r->lua.mean_ms / r->base.mean_ms, r->lua.lua_ms, r->base.lua_ms);
    fprintf(o, "walking    %.3f m/s per bot on Lua, %.3f m/s on C; trace hashes %016llx, %016llx (%s)\n", r->lua_speed,
            r->base_speed, (unsigned long long)r->lua_hash, (unsigned long long)r->base_hash,
            r->lua_hash == r->base_hash ? "the same run" : "runs differ");
    fprintf(o, "faults     %u%s%s\n\n", (unsigned)r->faults, r->first_fault[0] ? ": " : "", r->first_fault);
}

static void json_stats(JsonWriter *j, const TickStats *s, const char *lua_key)
{
    json_key(j, "tick_mean_ms");
    json_number(j, s->mean_ms);
    json_key(j, "tick_p99_ms");
    json_number(j, s->p99_ms);
    json_key(j, lua_key);
    json_number(j, s->lua_ms);
    json_key(j, "path_ms");
    json_number(j, s->path_ms);
    json_key(j, "move_ms");
    json_number(j, s->move_ms);
}

static void write_json(const CliContext *cx, const CrowdArgs *a, const char *cls_name, const CrowdRun *runs, int n)
{
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, a->map);
    json_key(&j, "class");
    json_string(&j, cls_name);
    json_key(&j, "brain");
    json_string(&j, "rts");
    json_key(&j, "avoidance");
    json_bool(&j, true);
    json_key(&j, "ticks");
    json_int(&j, a->ticks);
    json_key(&j, "warmup");
    json_int(&j, a->warmup);
    json_key(&j, "target_ms");
    json_number(&j, CROWD_TARGET_MS);
    json_key(&j, "runs");
    json_array_begin(&j);
    for (int i = 0; i < n; i++) {
        const CrowdRun *r = &runs[i];
        json_object_begin(&j);
        json_key(&j, "bots");
        json_int(&j, r->bots);
        json_stats(&j, &r->lua, "lua_ms");
        json_key(&j, "bytes_per_bot");
        json_number(&j, r->bytes_per_bot);
        json_key(&j, "lua_bytes_per_bot");
        json_number(&j, r->lua_bytes_per_bot);
        json_key(&j, "sim_bytes_per_bot");
        json_number(&j, r->sim_bytes_per_bot);
        json_key(&j, "faults");
        json_int(&j, r->faults);
        json_key(&j, "speed_mps");
        json_number(&j, r->lua_speed);
        json_key(&j, "baseline");
        json_object_begin(&j);
        json_stats(&j, &r->base, "driver_ms");
        json_key(&j, "speed_mps");
        json_number(&j, r->base_speed);
        json_object_end(&j);
        json_key(&j, "lua_cost_ratio");
        json_number(&j, r->lua.mean_ms / r->base.mean_ms);
        json_key(&j, "same_run");
        json_bool(&j, r->lua_hash == r->base_hash);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

int bench_crowd_run(const CliContext *cx, int argc, char **argv);
int bench_crowd_run(const CliContext *cx, int argc, char **argv)
{
    CrowdArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    NavError e;
    NavWorld *w = cli_load_map(cx, "bench crowd", a.map, &e);
    if (!w) return CLI_BAD_INPUT;
    int cls = a.cls_name ? world_find_class(w, a.cls_name) : world_find_class(w, "infantry");
    if (cls < 0 && a.cls_name) {
        fprintf(cx->err, "navbot bench crowd: %s has no class '%s'\n", a.map, a.cls_name);
        world_destroy(w);
        return CLI_BAD_INPUT;
    }
    if (cls < 0) cls = 0;
    const char *cls_name = world_class(w, cls)->name;
    uint32_t most = 0;
    for (int i = 0; i < a.runs; i++) most = a.bots[i] > most ? a.bots[i] : most;
    float *pos = nav_malloc((size_t)most * 3 * sizeof *pos);
    NavGrid *g = grid_create(w, NULL, &e);
    if (!pos || !g) {
        if (!g) cli_print_error(cx, "bench crowd", &e);
        else fprintf(cx->err, "navbot bench crowd: out of memory for %u bots' places\n", (unsigned)most);
        grid_destroy(g);
        nav_free(pos);
        world_destroy(w);
        return CLI_BAD_INPUT;
    }
    uint32_t placed = grid_spread_bodies(g, w, cls, most, CROWD_SEED, pos);
    grid_destroy(g);
    CrowdRun runs[CROWD_MAX_RUNS];
    memset(runs, 0, sizeof runs);
    int done = 0;
    for (int i = 0; i < a.runs; i++) {
        CrowdRun *r = &runs[done];
        r->bots = a.bots[i];
        if (placed < r->bots) {
            fprintf(cx->err, "navbot bench crowd: room for only %u %s bots on %s\n", (unsigned)placed, cls_name, a.map);
            rc = CLI_BAD_INPUT;
            continue;
        }
        if (!run_lua(cx, &a, w, cls, pos, r) || !run_baseline(cx, &a, w, cls, pos, r)) {
            rc = CLI_BAD_INPUT;
            continue;
        }
        if (!a.json) write_text(cx, &a, cls_name, r);
        done++;
    }
    if (a.json) write_json(cx, &a, cls_name, runs, done);
    nav_free(pos);
    world_destroy(w);
    return rc;
}

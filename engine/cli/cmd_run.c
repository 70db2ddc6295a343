/*
** cmd_run.c — `navbot run MAP --bot BRAIN[:COUNT][@WHERE] ...`: a headless
** simulation with Lua brains (script/session.h). Prints per bot whether
** and when it arrived, distance, travel types used, stuck time and faults,
** then the trace hash; --json gives the same as an object; --trace FILE
** records every tick for replay.
**
** A brain that fails to load or faults is reported in its bot's error and
** the run goes on: exit 0. Bad arguments and maps are errors (2 and 1).
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "cli/cli.h"
#include "core/json.h"
#include "core/timer.h"
#include "map/map.h"
#include "script/run_trace.h"
#include "script/session.h"

#define RUN_MAX_GROUPS 64
#define RUN_MAX_GOALS SIM_MAX_GOALS
#define RUN_DEFAULT_MAX_SECONDS 300.0

/* One --bot argument. */
typedef struct BotGroup {
    char brain[BRAIN_NAME_MAX];
    int count;
    const char *where;   /* spawn name, "X,Y[,Z]", or NULL: the map's spawns in turn */
} BotGroup;

typedef struct RunArgs {
    const char *map;
    const char *root;
    const char *cls_name;
    const char *trace;
    BotGroup groups[RUN_MAX_GROUPS];
    int group_count;
    const char *goals[RUN_MAX_GOALS];
    int goal_count;
    uint64_t seed;
    uint32_t ticks;       /* 0: until arrived */
    uint32_t max_ticks;   /* cap for --until-arrived */
    uint32_t hz;
    bool until_arrived;
    bool json;
    bool quiet;
} RunArgs;

/* {======= arguments ======= */

static bool parse_group(const char *s, BotGroup *g)
{
    memset(g, 0, sizeof *g);
    g->count = 1;
    size_t n = strcspn(s, ":@");
    if (n == 0 || n >= sizeof g->brain) return false;
    memcpy(g->brain, s, n);
    s += n;
    if (*s == ':') {
        s++;
        char *end;
        errno = 0;
        long c = strtol(s, &end, 10);
        if (end == s || errno || c < 1 || c > SIM_MAX_BOTS) return false;
        g->count = (int)c;
        s = end;
    }
    if (*s == '@') {
        if (!s[1]) return false;
        g->where = s + 1;
        s += strlen(s);
    }
    return *s == '\0';
}

/* "X,Y" or "X,Y,Z"; false when it is not numbers. */
static bool parse_point(const char *s, float p[3], bool *has_z)
{
    float v[3] = { 0, 0, 0 };
    int n = 0;
    while (n < 3) {
        if (!cli_parse_number(&s, &v[n])) return false;
        n++;
        if (*s == '\0') break;
        if (*s != ',') return false;
        s++;
    }
    if (*s != '\0' || n < 2) return false;
    memcpy(p, v, sizeof v);
    if (has_z) *has_z = n == 3;
    return true;
}

static int parse_args(const CliContext *cx, int argc, char **argv, RunArgs *a);

/* }======= */

/* {======= placing bots ======= */

/* A free spot for a body of class cls near `want`: on a spiral of spots a
** body apart, the first where it stands on a floor within a step and
** overlaps nothing (world, entities, bots already placed). */
static bool place_free(NavSim *sim, int cls, const float want[3], float out[3])
{
    const NavWorld *w = sim_world(sim);
    const NavClass *c = world_class(w, cls);
    float spacing = 2.0f * c->radius + 0.1f;
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    for (int ring = 0; ring < 12; ring++) {
        int n = ring ? 8 * ring : 1;
        for (int k = 0; k < n; k++) {
            float ang = 6.2831853f * (float)k / (float)n, r = spacing * (float)ring;
            float x = want[0] + r * cosf(ang), y = want[1] + r * sinf(ang);
            const NavFloor *f = world_floor_at(w, x, y, want[2], c->step);
            if (!f || !isfinite(f->z)) continue;
            float p[3] = { x, y, f->z + 0.01f }, zero[3] = { 0, 0, 0 };
            NavTrace tr;
            sim_trace(sim, mins, maxs, p, zero, -1, &tr);
            if (tr.start_solid) continue;
            memcpy(out, p, sizeof p);
            return true;
        }
    }
    return false;
}

/* An entity's spot: the middle of its box's floor. */
static void entity_spot(const NavEntity *en, float p[3])
{
    p[0] = 0.5f * (en->mins[0] + en->maxs[0]);
    p[1] = 0.5f * (en->mins[1] + en->maxs[1]);
    p[2] = en->mins[2];
}

/* WHERE: "X,Y[,Z]" (no Z: the highest floor there) or an entity's name.
** False when it is neither; *yaw gets the entity's facing (0 for points). */
static bool where_point(const NavWorld *w, const char *s, float p[3], float *yaw)
{
    bool has_z;
    *yaw = 0.0f;
    if (parse_point(s, p, &has_z)) {
        if (!has_z) {
            const NavFloor *f = world_floor_at(w, p[0], p[1], 1e6f, 1e6f);
            p[2] = f ? f->z : 0.0f;
        }
        return true;
    }
    int e = world_find_entity(w, s);
    if (e < 0) return false;
    entity_spot(world_entity(w, e), p);
    *yaw = world_entity(w, e)->yaw;
    return true;
}

/* Where a group's next bot starts: its WHERE, else the map's spawn points
** in turn. CLI_OK with pos set, else the error is printed. */
static int group_start(const CliContext *cx, const NavWorld *w, const BotGroup *g, int *spawn_turn, float pos[3],
                       float *yaw)
{
    if (g->where) {
        if (where_point(w, g->where, pos, yaw)) return CLI_OK;
        fprintf(cx->err, "navbot run: --bot %s@%s: no spawn or entity '%s' in %s, and not X,Y[,Z]\n", g->brain,
                g->where, g->where, world_source(w));
        return CLI_USAGE;
    }
    int spawns = 0;
    for (int i = 0; i < world_entity_count(w); i++) spawns += world_entity(w, i)->type == NAV_ENTITY_SPAWN;
    if (!spawns) {
        fprintf(cx->err, "navbot run: %s has no spawn points; say where: --bot %s@X,Y[,Z]\n", world_source(w),
                g->brain);
        return CLI_USAGE;
    }
    int want = (*spawn_turn)++ % spawns;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *en = world_entity(w, i);
        if (en->type != NAV_ENTITY_SPAWN || want-- > 0) continue;
        entity_spot(en, pos);
        *yaw = en->yaw;
        break;
    }
    return CLI_OK;
}

/* }======= */

/* {======= the report ======= */

static void travel_names(uint32_t used, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        if (!(used & NAV_TFL_TYPE(t))) continue;
        int k = snprintf(buf + n, cap - n, "%s%s", n ? "," : "", area_travel_name((NavTravelType)t));
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
    if (!n) snprintf(buf, cap, "-");
}

static void report_text(const CliContext *cx, NavSession *s, const RunArgs *a)
{
    NavSim *sim = session_sim(s);
    uint32_t n = sim_bot_count(sim);
    int arrived = 0, faulted = 0;
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        char travel[256];
        travel_names(b->travel_used, travel, sizeof travel);
        bool ok = sim_bot_arrived(sim, i), bad = session_bot_faulted(s, i);
        arrived += ok;
        faulted += bad;
        fprintf(cx->out, "bot %-3u %-10s ", i, session_bot_brain(s, i));
        if (ok) fprintf(cx->out, "arrived %7.2f s", b->arrival_time);
        else fprintf(cx->out, "%-17s", "not arrived");
        fprintf(cx->out, "  goals %d/%d  distance %7.1f m  stuck %5.1f s  travel %s\n", b->goals_reached,
                b->goals_reached + b->goal_count, b->distance, b->stuck_total, travel);
        const char *e = session_bot_error(s, i);
        if (e) {
            /* The first line is the message; the traceback follows, indented. */
            fprintf(cx->out, "        faulted: ");
            for (const char *p = e; *p; p++) {
                fputc(*p, cx->out);
                if (*p == '\n' && p[1]) fputs("        ", cx->out);
            }
            fputc('\n', cx->out);
        }
    }
    fprintf(cx->out, "%u bots: %d arrived, %d faulted; %llu ticks (%.2f s) at %u Hz, seed %llu\n", n, arrived,
            faulted, (unsigned long long)sim_tick(sim), sim_time(sim), a->hz, (unsigned long long)a->seed);
    fprintf(cx->out, "trace hash %016llx\n", (unsigned long long)sim_trace_hash(sim));
}

static void report_json(const CliContext *cx, NavSession *s, const RunArgs *a, double wall_ms)
{
    NavSim *sim = session_sim(s);
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)sim_trace_hash(sim));
    json_key(&j, "map"), json_string(&j, a->map);
    json_key(&j, "seed"), json_int(&j, (int64_t)a->seed);
    json_key(&j, "hz"), json_int(&j, a->hz);
    json_key(&j, "ticks"), json_int(&j, (int64_t)sim_tick(sim));
    json_key(&j, "time"), json_number(&j, sim_time(sim));
    json_key(&j, "trace_hash"), json_string(&j, hash);
    NavSessionTimes t;
    session_times(s, &t);
    json_key(&j, "wall_ms"), json_number(&j, wall_ms);
    json_key(&j, "lua_ms"), json_number(&j, t.lua_total_ms);
    json_key(&j, "path_ms"), json_number(&j, t.path_total_ms);
    json_key(&j, "move_ms"), json_number(&j, t.move_total_ms);
    json_key(&j, "bots");
    json_array_begin(&j);
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        json_object_begin(&j);
        json_key(&j, "id"), json_int(&j, i);
        json_key(&j, "brain"), json_string(&j, session_bot_brain(s, i));
        json_key(&j, "class"), json_string(&j, world_class(sim_world(sim), b->cls)->name);
        bool ok = sim_bot_arrived(sim, i);
        json_key(&j, "arrived"), json_bool(&j, ok);
        json_key(&j, "arrival_time");
        if (ok) json_number(&j, b->arrival_time);
        else json_null(&j);
        json_key(&j, "goals_reached"), json_int(&j, b->goals_reached);
        json_key(&j, "goals_left"), json_int(&j, b->goal_count);
        json_key(&j, "distance"), json_number(&j, b->distance);
        json_key(&j, "travel_types");
        json_array_begin(&j);
        for (int k = 0; k < NAV_TRAVEL_COUNT; k++)
            if (b->travel_used & NAV_TFL_TYPE(k)) json_string(&j, area_travel_name((NavTravelType)k));
        json_array_end(&j);
        json_key(&j, "stuck_time"), json_number(&j, b->stuck_total);
        json_key(&j, "pos");
        json_array_begin(&j);
        for (int k = 0; k < 3; k++) json_number(&j, b->pos[k]);
        json_array_end(&j);
        json_key(&j, "faulted"), json_bool(&j, session_bot_faulted(s, i));
        const char *e = session_bot_error(s, i);
        json_key(&j, "error");
        if (e) json_string(&j, e);
        else json_null(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void log_line(void *user, const char *line)
{
    const CliContext *cx = user;
    fprintf(cx->err, "%s\n", line);
}

static bool all_done(NavSession *s)
{
    NavSim *sim = session_sim(s);
    bool any = false;
    uint32_t alive = 0;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (session_bot_faulted(s, i)) continue;
        alive++;
        bool had = b->goals_reached + b->goals_skipped + b->goal_count > 0;
        any |= had;
        /* Bots that never had a goal (wanderers, hiders) do not hold the run. */
        if (had && b->goal_count > 0) return false;
    }
    /* No live bot with goals: nothing to wait for but the cap, unless all faulted. */
    return alive == 0 || any;
}

static int run_run(const CliContext *cx, int argc, char **argv)
{
    RunArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;

    NavError e;
    nav_error_clear(&e);
    NavWorld *w = cli_load_map(cx, "run", a.map, &e);
    if (!w) return CLI_BAD_INPUT;
    NavSession *s = NULL;
    RunTraceWriter *trace = NULL;
    int cls = 0, spawn_turn = 0;

    if (world_class_count(w) == 0) {
        fprintf(cx->err, "navbot run: %s: the map has no mover classes\n", a.map);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    if (a.cls_name && (cls = world_find_class(w, a.cls_name)) < 0) {
        fprintf(cx->err, "navbot run: --class: no class '%s' in %s; its classes are:", a.cls_name, a.map);
        for (int i = 0; i < world_class_count(w); i++) fprintf(cx->err, " %s", world_class(w, i)->name);
        fprintf(cx->err, "\n");
        rc = CLI_USAGE;
        goto done;
    }
    float goals[RUN_MAX_GOALS][3];
    for (int g = 0; g < a.goal_count; g++) {
        float ignored;
        if (!where_point(w, a.goals[g], goals[g], &ignored)) {
            fprintf(cx->err, "navbot run: --goal %s: no entity '%s' in %s, and not X,Y[,Z]\n", a.goals[g],
                    a.goals[g], a.map);
            rc = CLI_USAGE;
            goto done;
        }
    }
    s = session_create(w, &(NavSessionDesc){ .root = a.root, .seed = a.seed, .tick_hz = (int)a.hz,
                                             .log = a.quiet ? log_none : log_line, .log_user = (void *)cx },
                       &e);
    if (!s) {
        cli_print_error(cx, "run", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    for (int gi = 0; gi < a.group_count; gi++) {
        const BotGroup *g = &a.groups[gi];
        for (int k = 0; k < g->count; k++) {
            float want[3] = { 0, 0, 0 }, pos[3], yaw = 0.0f;
            if ((rc = group_start(cx, w, g, &spawn_turn, want, &yaw)) != CLI_OK) goto done;
            if (!place_free(session_sim(s), cls, want, pos)) {
                fprintf(cx->err, "navbot run: --bot %s: no room for a %s near (%.2f, %.2f, %.2f)\n", g->brain,
                        world_class(w, cls)->name, (double)want[0], (double)want[1], (double)want[2]);
                rc = CLI_BAD_INPUT;
                goto done;
            }
            /* The bot and its goals first, then the brain, so spawn() sees them. */
            nav_error_clear(&e);
            NavBotDesc bd = { .cls = cls, .pos = { pos[0], pos[1], pos[2] }, .yaw = yaw };
            int got = session_add_bot(s, NULL, &bd, &e);
            if (got < 0) {
                cli_print_error(cx, "run", &e);
                rc = CLI_BAD_INPUT;
                goto done;
            }
            for (int q = 0; q < a.goal_count; q++) sim_bot_push_goal(session_sim(s), (uint32_t)got, goals[q], 0.0f);
            session_attach_brain(s, (uint32_t)got, g->brain);
        }
    }
    if (a.trace && !(trace = run_trace_create(a.trace, s, a.map, a.root, a.seed, &e))) {
        cli_print_error(cx, "run", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }

    uint64_t t0 = timer_now_ns(), last_progress = t0;
    uint32_t limit = a.ticks ? a.ticks : a.max_ticks;
    for (uint32_t t = 0; t < limit; t++) {
        if (!a.ticks && all_done(s)) break;
        session_step(s);
        if (trace) run_trace_tick(trace, s);
        uint64_t now = timer_now_ns();
        if (!a.json && now - last_progress > 2000000000ull) {
            last_progress = now;
            fprintf(cx->err, "navbot run: tick %u of at most %u (%.0f s simulated)\n", t + 1, limit,
                    sim_time(session_sim(s)));
        }
    }
    double wall = timer_ms_since(t0);
    NavStatus closed = run_trace_close(trace, &e);
    trace = NULL;
    if (NAV_FAILED(closed)) {
        cli_print_error(cx, "run", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    if (!a.ticks && !all_done(s) && !a.json)
        fprintf(cx->err, "navbot run: stopped at the cap of %u ticks (--max-ticks) before every bot arrived\n",
                a.max_ticks);
    if (a.json) report_json(cx, s, &a, wall);
    else report_text(cx, s, &a);
    if (a.trace && !a.json) fprintf(cx->err, "navbot run: trace written to %s\n", a.trace);

done:
    run_trace_close(trace, NULL);
    session_destroy(s);
    world_destroy(w);
    return rc;
}

static int parse_args(const CliContext *cx, int argc, char **argv, RunArgs *a)
{
    memset(a, 0, sizeof *a);
    a->root = ".";
    a->seed = 1;
    a->hz = SIM_DEFAULT_TICK_HZ;
    bool has_ticks = false, has_max = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        uint32_t u;
        if (strcmp(argv[i], "--json") == 0) a->json = true;
        else if (strcmp(argv[i], "--until-arrived") == 0) a->until_arrived = true;
        else if (strcmp(argv[i], "--quiet") == 0) a->quiet = true;
        else if ((r = cli_take_value("--bot", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--bot needs BRAIN[:COUNT][@WHERE]");
            if (a->group_count == RUN_MAX_GROUPS)
                return cli_usage_error(cx, &cli_cmd_run, "at most %d --bot options", RUN_MAX_GROUPS);
            if (!parse_group(val, &a->groups[a->group_count]))
                return cli_usage_error(cx, &cli_cmd_run,
                                       "--bot %s: expected BRAIN[:COUNT][@WHERE], COUNT from 1 to %d", val,
                                       SIM_MAX_BOTS);
            a->group_count++;
        } else if ((r = cli_take_value("--goal", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--goal needs an entity name or X,Y[,Z]");
            if (a->goal_count == RUN_MAX_GOALS)
                return cli_usage_error(cx, &cli_cmd_run, "at most %d --goal options", RUN_MAX_GOALS);
            a->goals[a->goal_count++] = val;
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u))
                return cli_usage_error(cx, &cli_cmd_run, "--seed needs a whole number (0 to 4294967295)");
            a->seed = u;
        } else if ((r = cli_take_value("--ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u == 0)
                return cli_usage_error(cx, &cli_cmd_run, "--ticks needs a whole number above 0");
            a->ticks = u;
            has_ticks = true;
        } else if ((r = cli_take_value("--max-ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u == 0)
                return cli_usage_error(cx, &cli_cmd_run, "--max-ticks needs a whole number above 0");
            a->max_ticks = u;
            has_max = true;
        } else if ((r = cli_take_value("--hz", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 1000)
                return cli_usage_error(cx, &cli_cmd_run, "--hz needs a whole number from 1 to 1000");
            a->hz = u;
        } else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--class needs a class name");
            a->cls_name = val;
        } else if ((r = cli_take_value("--root", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--root needs a folder");
            a->root = val;
        } else if ((r = cli_take_value("--trace", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--trace needs a file name");
            a->trace = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_run, "unknown option '%s'", argv[i]);
        } else if (!a->map) {
            a->map = argv[i];
        } else {
            return cli_usage_error(cx, &cli_cmd_run, "one map only (got '%s' and '%s')", a->map, argv[i]);
        }
    }
    if (!a->map) return cli_usage_error(cx, &cli_cmd_run, "which map?");
    if (!a->group_count) return cli_usage_error(cx, &cli_cmd_run, "no bots: give at least one --bot BRAIN");
    if (has_ticks && a->until_arrived)
        return cli_usage_error(cx, &cli_cmd_run, "--ticks and --until-arrived exclude each other");
    if (has_ticks && has_max) return cli_usage_error(cx, &cli_cmd_run, "--max-ticks goes with --until-arrived");
    if (!has_max) a->max_ticks = (uint32_t)(RUN_DEFAULT_MAX_SECONDS * a->hz);
    return CLI_OK;
}

const CliCommand cli_cmd_run = {
    .name = "run",
    .summary = "run bots with Lua brains headless; report arrivals, travel types, faults, trace hash",
    .usage = "navbot run MAP --bot BRAIN[:COUNT][@WHERE] ... [--goal WHERE ...] [--seed N]\n"
             "                  [--ticks N | --until-arrived [--max-ticks N]] [--json] [--trace FILE]",
    .help = "Simulates MAP at a fixed tick with bots driven by Lua brains (bots/BRAIN.lua,\n"
            "modules from lua/), without a window, and reports per bot whether and when it\n"
            "arrived, its goals, distance, the travel types it used, time stuck and faults;\n"
            "then the trace hash, which is the same for the same map, bots, goals and seed.\n"
            "\n"
            "  --bot BRAIN[:COUNT][@WHERE]  COUNT bots (default 1) with brain BRAIN, starting at\n"
            "                       WHERE: a spawn or entity name, or X,Y[,Z] in metres; by\n"
            "                       default the map's spawn points in turn. Bots at one place\n"
            "                       stand side by side. Repeat for more groups.\n"
            "  --goal WHERE         queue a goal (entity name or X,Y[,Z]) for every bot, in\n"
            "                       order; a bot has arrived when its queue is empty and it\n"
            "                       reached at least one. Brains may queue their own (runner\n"
            "                       visits every goal of the map when given none).\n"
            "  --class NAME         the bots' mover class (default: the map's first)\n"
            "  --seed N             the world's RNG and every brain's math.random (default 1)\n"
            "  --ticks N            run exactly N ticks\n"
            "  --until-arrived      run until every bot arrived or faulted (the default), at\n"
            "  --max-ticks N        most N ticks (default 300 s of simulated time)\n"
            "  --hz N               ticks per second (default 30)\n"
            "  --root DIR           the folder holding bots/ and lua/ (default .)\n"
            "  --trace FILE         record every tick (positions, states, hash) for replay\n"
            "  --json               the report as JSON: trace_hash, ticks, bots[] with brain,\n"
            "                       arrived, arrival_time, travel_types, stuck_time, faulted, error\n"
            "  --quiet              no console lines from brains (print, faults as they happen)\n"
            "\n"
            "A brain that fails to load, or faults while running, is reported in its bot's\n"
            "error and the run goes on (exit 0).\n"
            "\n"
            "Examples:\n"
            "  navbot run maps/gauntlet.lua --bot runner\n"
            "  navbot run maps/tower.lua --bot runner:3 --seed 7 --json\n"
            "  navbot run maps/gauntlet.lua --bot cautious@spawn_hall --goal goal_pool --trace /tmp/run.trace\n",
    .run = run_run,
};

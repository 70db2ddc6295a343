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
#include <string.h>
#include <unistd.h>

#include "area/area.h"
#include "cli/bench_plot.h"
#include "cli/cli.h"
#include "cli/run_plot.h"
#include "cli/sim_setup.h"
#include "core/json.h"
#include "core/timer.h"
#include "script/run_trace.h"
#include "script/session.h"

#define RUN_DEFAULT_MAX_SECONDS 300.0

typedef struct RunArgs {
    SimSetup setup;
    const char *trace;
    const char *plot;   /* --plot FILE.png */
    uint32_t ticks;     /* 0: until arrived */
    uint32_t max_ticks; /* cap for --until-arrived */
    bool max_given;
    bool until_arrived;
    bool json;
} RunArgs;

/* {======= arguments ======= */

static int parse_args(const CliContext *cx, int argc, char **argv, RunArgs *a);

/* }======= */

/* {======= the report ======= */

static void report_json(const CliContext *cx, NavSession *s, const RunArgs *a, const SimPlayer *pl, double wall_ms)
{
    NavSim *sim = session_sim(s);
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)sim_trace_hash(sim));
    json_key(&j, "map"), json_string(&j, a->setup.map);
    json_key(&j, "seed"), json_int(&j, (int64_t)a->setup.seed);
    json_key(&j, "hz"), json_int(&j, a->setup.hz);
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
        json_key(&j, "player"), json_bool(&j, pl->body && (int)i == pl->bot);
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
        json_key(&j, "stuck_longest"), json_number(&j, b->stuck_max);
        json_key(&j, "wait_time"), json_number(&j, b->wait_total);
        json_key(&j, "wait_longest"), json_number(&j, b->wait_max);
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

/* Every bot arrived and none faulted (what --until-arrived asks for); a
** player counts only when it had goals (a brain drove it to them). */
static bool every_bot_arrived(NavSession *s, const SimPlayer *pl)
{
    NavSim *sim = session_sim(s);
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (pl->body && (int)i == pl->bot && b->goals_reached + b->goals_skipped + b->goal_count == 0) continue;
        if (session_bot_faulted(s, i) || !sim_bot_arrived(sim, i)) return false;
    }
    return true;
}

static int run_run(const CliContext *cx, int argc, char **argv)
{
    RunArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;

    const SimSetup *su = &a.setup;
    NavError e;
    nav_error_clear(&e);
    NavWorld *w;
    NavSession *s;
    SimPlayer pl;
    RunPlot plot = { 0 }; /* --plot: the ticks' times and arrivals */
    if ((rc = sim_player_prepare(cx, &cli_cmd_run, &a.setup, &pl, true)) != CLI_OK) return rc;
    /* After the player's recording set the tick rate; a recording longer
    ** than the default cap is played whole. */
    if (!a.max_given) {
        a.max_ticks = (uint32_t)(RUN_DEFAULT_MAX_SECONDS * a.setup.hz);
        if (pl.replay && pl.replay->ticks > a.max_ticks) a.max_ticks = (uint32_t)pl.replay->ticks;
    }
    if ((rc = sim_setup_start(cx, "run", su, &pl, &w, &s)) != CLI_OK) {
        sim_player_free(&pl);
        return rc;
    }
    RunTraceWriter *trace = NULL;
    if (a.trace && !(trace = run_trace_create(a.trace, s, su->map, su->root, su->seed, &e))) {
        cli_print_error(cx, "run", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }

    uint64_t t0 = timer_now_ns(), last_progress = t0;
    bool progress = !a.json && isatty(fileno(cx->err)); /* not into logs and pipes */
    uint32_t limit = a.ticks ? a.ticks : a.max_ticks;
    for (uint32_t t = 0; t < limit; t++) {
        if (!a.ticks && sim_setup_all_done(s, &pl)) break;
        session_step(s);
        if (trace) run_trace_tick(trace, s);
        if (a.plot) run_plot_tick(&plot, s);
        uint64_t now = timer_now_ns();
        if (progress && now - last_progress > 2000000000ull) {
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
    if (!a.ticks && !sim_setup_all_done(s, &pl) && !a.json)
        fprintf(cx->err, "navbot run: stopped at the cap of %u ticks (--max-ticks) before every bot arrived\n",
                a.max_ticks);
    if (a.json) report_json(cx, s, &a, &pl, wall);
    else sim_setup_report(cx, s, su, &pl);
    if (!a.ticks && !every_bot_arrived(s, &pl)) rc = CLI_NOT_ARRIVED;
    if (a.trace && !a.json) fprintf(cx->err, "navbot run: trace written to %s\n", a.trace);
    if (a.plot) {
        if (NAV_FAILED(run_plot_write(&plot, s, su->map, a.plot, &e))) {
            cli_print_error(cx, "run", &e);
            rc = CLI_BAD_INPUT;
        } else if (!a.json) {
            fprintf(cx->err, "navbot run: chart written to %s\n", a.plot);
        }
    }
    int saved = sim_player_finish(cx, "run", su, &pl);
    if (saved != CLI_OK) rc = saved;

done:
    run_plot_free(&plot);
    run_trace_close(trace, NULL);
    sim_player_free(&pl);
    session_destroy(s);
    world_destroy(w);
    return rc;
}

static int parse_args(const CliContext *cx, int argc, char **argv, RunArgs *a)
{
    memset(a, 0, sizeof *a);
    sim_setup_defaults(&a->setup);
    bool has_ticks = false, has_max = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        uint32_t u;
        if ((r = sim_setup_option(cx, &cli_cmd_run, &a->setup, argc, argv, &i)) != 0) {
            if (r < 0) return CLI_USAGE;
        } else if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if (strcmp(argv[i], "--until-arrived") == 0) {
            a->until_arrived = true;
        } else if ((r = cli_take_value("--ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u == 0 || u > NAV_LIMIT_TICKS)
                return cli_usage_error(cx, &cli_cmd_run, "--ticks needs a whole number from 1 to %u (the limit)",
                                       NAV_LIMIT_TICKS);
            a->ticks = u;
            has_ticks = true;
        } else if ((r = cli_take_value("--max-ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u == 0 || u > NAV_LIMIT_TICKS)
                return cli_usage_error(cx, &cli_cmd_run, "--max-ticks needs a whole number from 1 to %u (the limit)",
                                       NAV_LIMIT_TICKS);
            a->max_ticks = u;
            has_max = true;
        } else if ((r = cli_take_value("--trace", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_run, "--trace needs a file name");
            a->trace = val;
        } else if ((r = cli_take_value("--plot", argc, argv, &i, &val)) != 0) {
            char why[1200];
            if (r < 0 || !*val) return cli_usage_error(cx, &cli_cmd_run, "--plot needs a file name (FILE.png)");
            if (!plot_path_ok(val, why, sizeof why)) return cli_usage_error(cx, &cli_cmd_run, "--plot: %s", why);
            a->plot = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_run, "unknown option '%s'", argv[i]);
        } else if (!a->setup.map) {
            a->setup.map = argv[i];
        } else {
            return cli_usage_error(cx, &cli_cmd_run, "one map only (got '%s' and '%s')", a->setup.map, argv[i]);
        }
    }
    if (!a->setup.map) return cli_usage_error(cx, &cli_cmd_run, "which map?");
    if (!a->setup.group_count && !a->setup.player.on)
        return cli_usage_error(cx, &cli_cmd_run, "no bots: give at least one --bot BRAIN (or a player)");
    if (has_ticks && a->until_arrived)
        return cli_usage_error(cx, &cli_cmd_run, "--ticks and --until-arrived exclude each other");
    if (has_ticks && has_max) return cli_usage_error(cx, &cli_cmd_run, "--max-ticks goes with --until-arrived");
    a->max_given = has_max;
    return CLI_OK;
}

const CliCommand cli_cmd_run = {
    .name = "run",
    .summary = "run bots with Lua brains headless; report arrivals, travel types, faults, trace hash",
    .usage =
        "navbot run MAP --bot BRAIN[:COUNT][@WHERE] [--bot-goal WHERE ...] ... [--goal WHERE ...] [--seed N]\n"
        "                  [--ticks N | --until-arrived [--max-ticks N]] [--json] [--trace FILE] [--plot FILE.png]\n"
        "                  [--player [CLASS][@WHERE] (--player-brain BRAIN | --play-player FILE)\n"
        "                   [--record-player FILE]]",
    .help = "Simulates MAP at a fixed tick with bots driven by Lua brains, without a\n"
            "window, and reports per bot whether and when it\n"
            "arrived, its goals, distance, the travel types it used, time stuck and faults;\n"
            "then the trace hash, which is the same for the same map, bots, goals and seed.\n"
            "\n"
            "  --bot BRAIN[:COUNT][@WHERE]  COUNT bots (default 1) with brain BRAIN (a .lua\n"
            "                       file's path, or a name looked up as NAME.lua along the\n"
            "                       --lua-path folders, NAVBOT_PATH, then navbot's bots/),\n"
            "                       starting at\n"
            "                       WHERE: a spawn or entity name, or X,Y[,Z] in metres; by\n"
            "                       default the map's spawn points in turn. Bots at one place\n"
            "                       stand side by side. Repeat for more groups.\n"
            "  --goal WHERE         queue a goal (entity name or X,Y[,Z]) for every bot, in\n"
            "                       order; a bot has arrived when its queue is empty and it\n"
            "                       reached at least one. Brains may queue their own (runner\n"
            "                       visits every goal of the map when given none).\n"
            "  --bot-goal WHERE     queue a goal for the bots of the --bot just before it only\n"
            "                       (before any --goal ones): bots with missions of their own\n"
            "  --class NAME         the bots' mover class (default: the map's first)\n"
            "  --seed N             the world's RNG and every brain's math.random (default 1)\n"
            "  --ticks N            run exactly N ticks\n"
            "  --until-arrived      run until every bot arrived or faulted (the default), at\n"
            "  --max-ticks N        most N ticks (default 300 s of simulated time)\n"
            "  --hz N               ticks per second (default 30)\n"
            "  --lua-path DIR       look for modules (require) and brain names in DIR, after\n"
            "                       the brain's own folder (repeatable; then NAVBOT_PATH's\n"
            "                       folders, colon-separated; then navbot's lua/ and bots/)\n"
            "  --root DIR           use DIR's bots/ and lua/ instead of navbot's own (found\n"
            "                       beside the executable, whatever the current folder)\n"
            "  --trace FILE         record every tick (positions, states, hash) for replay\n"
            "  --plot FILE.png      draw the run as a chart: each tick's wall time split into\n"
            "                       Lua, routing, grid queries and movement (stacked), and\n"
            "                       the bots arrived, over the simulated time (the folder\n"
            "                       must exist; the run and its trace hash stay the same)\n"
            "  --json               the report as JSON: trace_hash, ticks, bots[] with brain,\n"
            "                       arrived, arrival_time, travel_types, stuck_time, faulted, error\n"
            "  --quiet              no console lines from brains (print, faults as they happen)\n"
            "\n"
            "A player: one more body, added after the bots, with no brain of its own\n"
            "(docs/player.md). Here a brain or a recording drives it:\n"
            "  --player [CLASS][@WHERE]  its class (default: the map's first) and start (a\n"
            "                       spawn or entity name, or X,Y[,Z]; default: the map's\n"
            "                       first spawn). The next argument is taken when it is\n"
            "                       @WHERE or CLASS@WHERE; --player=CLASS names a class alone\n"
            "  --player-brain BRAIN drive it with BRAIN (it gets the --goal goals); its\n"
            "                       avoidance is off, so its controls alone move it\n"
            "  --record-player FILE write the controls it moved by, tick by tick\n"
            "  --play-player FILE   replay a recording: class, start, seed and tick rate are\n"
            "                       the recording's (a different --seed or --hz, or another\n"
            "                       map, is refused); the run lasts at least the recording\n"
            "A player without goals is not waited for and does not count as a bot that did\n"
            "not arrive. The same map, bots and recording give the same trace hash.\n"
            "\n"
            "A brain that fails to load, or faults while running, is reported in its bot's\n"
            "error and the run goes on.\n"
            "\n"
            "Exit status: 0 the run ended (with --ticks), or every bot arrived (until\n"
            "arrived, the default); 3 some bot faulted or did not arrive by the cap;\n"
            "1 bad input; 2 bad usage.\n"
            "\n"
            "Examples:\n"
            "  navbot run maps/gauntlet.lua --bot runner\n"
            "  navbot run maps/arena.lua --bot ./guard.lua --lua-path ~/mygame/lua\n"
            "  navbot run maps/tower.lua --bot runner:3 --seed 7 --json\n"
            "  navbot run maps/arena.lua --bot runner:8 --plot build/run.png\n"
            "  navbot run maps/gauntlet.lua --bot cautious@spawn_hall --goal goal_pool --trace /tmp/run.trace\n"
            "  navbot run maps/arena.lua --bot runner@2,12 --bot-goal 20,2 --bot runner@20,2 --bot-goal 2,12\n"
            "  navbot run generate:building:64:64:2:1 --bot runner --goal 20,20,4   (a generated map)\n"
            "  navbot run maps/tower.lua --player @25.2,6 --player-brain runner --goal goal_roof \\\n"
            "      --record-player /tmp/roof.player\n"
            "  navbot run maps/tower.lua --play-player /tmp/roof.player\n",
    .run = run_run,
};

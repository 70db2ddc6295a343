/*
** scenario.h — regression scenarios: a Lua file (tests/scenarios/NAME.lua,
** written with lua/scenario.lua) says which map, seed and bots to run,
** what to change in the world while they run, and what the run must meet.
** This module loads it, runs it headless in a session (session.h) and
** reports the first expectation that failed, with the bot, tick, position
** and state at that moment, or that it passed and its trace hash.
**
** The scenario file runs in its own sandbox state (lua/sandbox.h), with
** `require "scenario"` (ROOT/lua/scenario.lua), the engine module
** "scenario.core" (only there: bot brains never see it) and, once the
** session exists, the `nav` module over its simulation, which events and
** checks use. Brains are found in the scenario file's folder first
** (FOLDER/bots/NAME.lua: brains that belong with the tests), then in
** ROOT/bots; a scenario's temp_brains are copied into a work folder
** searched before both, so events can rewrite them and reload.
**
** A RUN
**   setup: map, session, bots placed free of each other (their goals
**          queued before their brains start, so spawn sees them), the
**          routed optimum for near_optimal, the trace writer;
**   each tick: events due (at a time, at a tick, or when a condition
**          holds) run, then session_step, then every per-tick expectation
**          in the order written; the first failure ends the run;
**   the end: `until` met ("arrived": every live bot that had goals has
**          none left; "time": the time limit; or a function), or the time
**          limit; then the end-of-run expectations; running out of time
**          before "arrived" is a failure of its own.
**   runs = 2: the whole scenario again in the same process; a different
**          trace hash or tick count is a failure (nondeterminism).
**
** DOES NOT: compare golden hashes, find scenario files, run them in
** parallel or draw (the `navbot test` command does those, through
** on_failure for the picture); change anything outside the work folder.
*/
#ifndef NAV_SCENARIO_H
#define NAV_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "script/session.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCENARIO_TEXT_MAX 1024
#define SCENARIO_LOG_LINES 12

/* The expectation that failed and the moment it did. */
typedef struct ScenarioFailure {
    char expectation[SCENARIO_TEXT_MAX]; /* "tests/scenarios/x.lua:12: arrives(runner, within 20 s)" */
    char message[SCENARIO_TEXT_MAX];     /* what went wrong */
    int bot;                             /* the bot it is about, -1 for none */
    char bot_name[64];
    char bot_state[SCENARIO_TEXT_MAX]; /* brain, position, say text, goals, travel used, ... */
    uint64_t tick;                     /* ticks simulated when it failed */
    double time;                       /* seconds */
} ScenarioFailure;

typedef struct ScenarioResult {
    char name[128]; /* the file's name without folder and .lua */
    char description[256];
    char map[512];
    bool passed;
    ScenarioFailure failure; /* when !passed */
    uint64_t hash;           /* the trace hash at the end of the (first) run */
    uint64_t ticks;
    double sim_time; /* seconds simulated */
    int bots;
    int runs; /* 1, or 2 when the scenario asks to check determinism */
    /* The last lines of the run's log (events that ran, brains' prints,
    ** faults, reloads), oldest first: printed with a failure. */
    char log[SCENARIO_LOG_LINES][256];
    int log_count;
} ScenarioResult;

/* Zero means default. */
typedef struct ScenarioOptions {
    /* The folder holding lua/, bots/ and maps/; NULL or "": navbot's
    ** bundled one (nav_lua_bundled_root). A scenario's map is found beside
    ** the scenario file, else in this folder. */
    const char *root;
    /* Folders searched for modules and brains after the scenario's own
    ** folder and before root (--lua-path, NAVBOT_PATH); NULL: none. */
    const NavLuaPath *lua_path;
    const char *trace_path; /* record the first run here (run_trace.h); NULL: none */
    const char *work_dir;   /* where temp_brains are copied (a folder made and removed); default /tmp */
    /* Called when an expectation fails, with the session as it is at that
    ** moment (before anything else runs) and the failure filled in. */
    void (*on_failure)(void *user, NavSession *s, const ScenarioFailure *f);
    /* Called when the first run ends with every expectation met, with the
    ** session at its last tick (a caller comparing the hash can draw it). */
    void (*on_end)(void *user, NavSession *s);
    /* Called after every tick of the first run (not the determinism
    ** re-run), with the session as the tick left it. */
    void (*on_tick)(void *user, NavSession *s);
    void *user;
    /* Stop each run after this many ticks (0: none): a run cut short ends
    ** as if its `until` held, the expectations checked at the end run,
    ** the time limit's own check does not. For fuzzing setups. */
    uint64_t max_ticks;
} ScenarioOptions;

/* Load and run the scenario file at path. NAV_OK: it ran; out->passed
** says whether every expectation held. A failed status: it could not run,
** err naming the file and line and what is wrong (a syntax error, an
** unknown field, an entity, class or bot that does not exist, a map that
** does not load); out->name is still set. */
NavStatus scenario_run_file(const char *path, const ScenarioOptions *opt, ScenarioResult *out, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

/*
** session.h — a simulation with Lua brains: the world's NavSim, a brain
** host whose states see it through the `nav` module, and which brain
** drives which bot. What `navbot run`, `navbot bench crowd` and the
** window drive, one session_step per tick.
**
** A tick: every brain thinks (in bot order, under its budget), reading the
** world as the last tick left it and setting its bot's controls; then the
** simulation moves everything (sim_step). The split of the tick's wall
** time into Lua, paths (queries brains made) and movement is kept.
**
** STEP BY STEP
**   NavSession *s = session_create(world, &(NavSessionDesc){ .seed = 1 }, &err);
**   int id = session_add_bot(s, "runner", &(NavBotDesc){ .cls = 0, .pos = {x, y, z} }, &err);
**       -1: the bot could not be placed (err says why). A brain that fails
**       to load leaves the bot standing, faulted, with the reason in
**       session_bot_error.
**   while (...) session_step(s);
**   session_destroy(s);
**
** DOES NOT: own the world (the caller keeps it alive), draw, or parse
** command lines.
*/
#ifndef NAV_SESSION_H
#define NAV_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/nav.h"
#include "script/brain.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero means default. */
typedef struct NavSessionDesc {
    const char *root; /* holds bots/ and lua/; default navbot's bundled folder */
    /* Folders with bots/ and lua/ searched before root (brain.h:
    ** BrainHostDesc.extra_roots); NULL ends the list. */
    const char *extra_roots[BRAIN_MAX_ROOTS];
    /* Folders of modules and brains searched after the extra roots and
    ** before root (--lua-path, NAVBOT_PATH; BrainHostDesc.lua_path). */
    const NavLuaPath *lua_path;
    uint64_t seed;                  /* the world RNG and every Lua state's math.random */
    int tick_hz;                    /* default 30 */
    size_t memory_limit;            /* per brain state; default BRAIN_DEFAULT_MEMORY */
    uint64_t instructions_per_tick; /* per bot; default BRAIN_DEFAULT_INSTRUCTIONS */
    size_t route_cache_bytes;       /* per class's router */
    /* Console lines (print, faults, reloads); NULL: stderr. */
    void (*log)(void *user, const char *line);
    void *log_user;
} NavSessionDesc;

/* Wall time of the last tick, and totals since created (milliseconds). */
typedef struct NavSessionTimes {
    double lua_ms, path_ms, move_ms, tick_ms; /* last tick; lua_ms excludes path_ms */
    double grid_ms;                           /* the grid queries' part of path_ms */
    double lua_total_ms, path_total_ms, move_total_ms, grid_total_ms;
} NavSessionTimes;

typedef struct NavSession NavSession;

NavSession *session_create(const NavWorld *w, const NavSessionDesc *desc, NavError *err);
void session_destroy(NavSession *s);

NavSim *session_sim(NavSession *s);
BrainHost *session_brains(NavSession *s);

/* Add a bot with a brain (a name or a .lua path, brain.h; NULL or "" for none: it stands
** still unless something else sets its controls). */
int session_add_bot(NavSession *s, const char *brain, const NavBotDesc *desc, NavError *err);

/* Give bot id the brain NAME (replacing any it had): false when the brain
** failed to load, the reason kept for session_bot_error. */
bool session_attach_brain(NavSession *s, uint32_t id, const char *brain);

/* One tick: brains, then movement. A bot whose brain faulted stops: its
** controls are cleared once, when the fault is first seen. */
void session_step(NavSession *s);

/* Called by session_step after the brains thought (and faulted bots were
** stopped) and before the simulation moves: what sets bodies' controls
** from outside the brains (a player's keys or recording,
** script/player_body.h) goes here, so the move uses them. In the order
** added; at most SESSION_MAX_BEFORE_MOVE. Add: false when full. Remove:
** the pair as added (false when it was not). */
#define SESSION_MAX_BEFORE_MOVE 16
typedef void (*SessionBeforeMove)(void *user, NavSession *s);
bool session_add_before_move(NavSession *s, SessionBeforeMove fn, void *user);
bool session_remove_before_move(NavSession *s, SessionBeforeMove fn, void *user);

/* Per bot: its brain's name ("" for none), whether it faulted (a brain
** that failed to load counts), and the error text (NULL when none). */
const char *session_bot_brain(const NavSession *s, uint32_t id);
bool session_bot_faulted(const NavSession *s, uint32_t id);
const char *session_bot_error(const NavSession *s, uint32_t id);

/* Reload the brains whose files changed on disk; how many did. */
int session_reload_changed(NavSession *s);

/* Fault bot id's brain from outside (brain_fault: a test injecting a
** failure) with `message` as its error; it stops like a bot whose script
** failed. False when it has no running brain or has faulted already. */
bool session_bot_fault(NavSession *s, uint32_t id, const char *message);

void session_times(const NavSession *s, NavSessionTimes *out);

/* Events told to brains so far (arrive, stuck, contact, fall;
** session_events.h), with a handler or not. */
uint64_t session_event_count(const NavSession *s);

#ifdef __cplusplus
}
#endif

#endif

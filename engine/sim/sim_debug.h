/*
** sim_debug.h — looking into a simulation and steering it from outside:
** what bots intend, for display (sim_show.c); a replay's state posed
** without simulating (sim_pose.c); the claims listed (sim_claim.c);
** memory held; an elevator held for a test (sim_control.c).
**
** The window, headless pictures, replays, scenarios, the `nav` module's
** drawing and tests use these; a program that only runs bots needs
** sim/sim.h alone.
**
** DOES NOT: change what a running simulation does, except
** sim_elevator_hold and the sim_pose_* calls (a posed sim is for drawing,
** not for stepping on).
*/
#ifndef NAV_SIM_DEBUG_H
#define NAV_SIM_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= what bots intend (sim_show.c) ======= */

/* What bots intend, for display (sim_show.c). Off until enabled (the
** window, headless pictures and scenarios enable it), so crowds pay
** nothing: every record call returns at once while off. The brain API
** records each bot's last route (bot:route, bot:show_path), its move
** requests and the hull traces it made while thinking. */
#define SIM_SHOW_ROUTE 48
#define SIM_SHOW_REQUESTS 8
#define SIM_SHOW_TRACES 12

typedef struct SimShowRequest {
    float dir[2];
    int priority;
    char reason[16];
} SimShowRequest;

typedef struct SimShowTrace {
    float start[3], end[3]; /* the box's centre line (feet), end where it stopped */
    float half[2];          /* the box's half sizes across */
    bool hit;
} SimShowTrace;

typedef struct SimBotShow {
    uint64_t tick; /* the tick the requests and traces were made in */
    int cls;
    uint32_t links[SIM_SHOW_ROUTE]; /* the last route's links (area graph of cls) */
    int link_count;
    float path[SIM_SHOW_ROUTE][3]; /* or a polyline the brain follows */
    int path_count;
    int detour_count; /* the first this many points of path: a unit's detour round other units */
    SimShowRequest req[SIM_SHOW_REQUESTS];
    int req_count;
    SimShowTrace traces[SIM_SHOW_TRACES];
    int trace_count;
} SimBotShow;

void sim_show_enable(NavSim *sim, bool on);
bool sim_show_enabled(const NavSim *sim);
/* Bot id's record to write into, its per-tick lists emptied when the tick
** moved on; NULL when off (or out of memory). */
SimBotShow *sim_show_bot(NavSim *sim, uint32_t id);
/* Read only; NULL when the bot has none. */
const SimBotShow *sim_show_peek(const NavSim *sim, uint32_t id);
/* The last grid search's cells (open and closed), for display. */
void sim_grid_visit_search(const NavSim *sim, void (*fn)(void *user, int x, int y, bool closed), void *user);

/* }======= */

/* {======= replay ======= */

/* Replay (sim_pose.c): set what a record says, simulating nothing. The
** window draws a replay from a NavSim posed like this each frame. */
void sim_pose_clock(NavSim *sim, uint64_t tick, uint64_t hash);
/* Body state of bot id (position, velocity, yaw, facing, the state flags,
** say text, the goal queue, and of its control look, priority and
** reason); a ridden elevator is not known. */
void sim_pose_bot(NavSim *sim, uint32_t id, const NavBot *state);
/* What bot id shows (route, this tick's requests and traces; tick as the
** window reads it), or NULL: nothing, its record dropped. Show must be on. */
void sim_pose_show(NavSim *sim, uint32_t id, const SimBotShow *state);
/* Keep a debug drawing as it is (sim_mark_add without the pruning).
** False when show is off, SIM_MARKS_MAX are kept or out of memory. */
bool sim_pose_mark(NavSim *sim, const SimMark *m);
void sim_pose_entity(NavSim *sim, int index, float offset, int phase, const float pos[3]);
/* Drop every obstacle, then add one with the given id. */
void sim_pose_clear_obstacles(NavSim *sim);
bool sim_pose_obstacle(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3]);

/* }======= */

/* {======= claims (sim_claim.c) ======= */

/* Inspection, leaving out members that have lapsed: the keys with a
** member now, index 0 .. sim_claim_count - 1 in table order, then each
** key's members, j = 0, 1, ...: holders by rank, then waiters in queue
** order. The key's text stays valid until the next claim or release. */
typedef struct SimClaimInfo {
    const char *key;
    int capacity, side;    /* side: the holders' (0 when none hold it) */
    int holders, members;  /* members: holders and waiters */
    float lapse, patience; /* seconds */
} SimClaimInfo;

typedef struct SimClaimMemberInfo {
    uint32_t bot;
    bool holding;
    int side;
    uint64_t since; /* the tick it first asked */
} SimClaimMemberInfo;

uint32_t sim_claim_count(const NavSim *sim);
bool sim_claim_at(const NavSim *sim, uint32_t index, SimClaimInfo *out);
bool sim_claim_member(const NavSim *sim, uint32_t index, uint32_t j, SimClaimMemberInfo *out);
size_t sim_claim_memory(const NavSim *sim);

/* }======= */

/* {======= memory and tests ======= */

/* Bytes held: the grid and its search state (0 before the first use), and
** the whole simulation, grid included. */
size_t sim_grid_memory(const NavSim *sim);
size_t sim_memory(const NavSim *sim);

/* The class's router if one was made (sim_router), else NULL: for counters
** that must not build a graph just to read them. */
const NavRouter *sim_router_built(const NavSim *sim, int cls);

/* Hold elevator `index` where it is, or let it go on: a held platform
** neither moves nor counts down its wait (riders stay on it, mid-shaft
** too), and carries on from the same state when released. False for an
** index that is not an elevator. */
bool sim_elevator_hold(NavSim *sim, int index, bool hold);

/* }======= */

/* Debug drawings from brains (sim_marks.c): lines, circles and text with
** a lifetime, drawn over the world by the window and pictures. Kept only
** while show is on (sim_show_enable); never part of the trace hash. */
#define SIM_MARKS_MAX 4096
#define SIM_MARK_TEXT_MAX 48

typedef enum SimMarkKind { SIM_MARK_LINE = 0, SIM_MARK_CIRCLE, SIM_MARK_TEXT } SimMarkKind;

struct SimMark {
    SimMarkKind kind;
    float a[3];   /* line start, circle centre, text anchor */
    float b[3];   /* line end */
    float radius; /* circle, metres */
    uint8_t rgba[4];
    double until; /* shown while sim_time <= until */
    char text[SIM_MARK_TEXT_MAX];
};

/* Keep a mark (m->until set by the caller); marks past their time are
** dropped first. False when show is off or SIM_MARKS_MAX are alive. */
bool sim_mark_add(NavSim *sim, const SimMark *m);
/* The marks kept, in the order they were made: those alive now
** (sim_time <= until, with a nanosecond of slack) and some past their time
** that the next sim_mark_add drops; a reader skips those. */
uint32_t sim_mark_count(const NavSim *sim);
const SimMark *sim_mark_at(const NavSim *sim, uint32_t i);
void sim_marks_clear(NavSim *sim);

#ifdef __cplusplus
}
#endif

#endif

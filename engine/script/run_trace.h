/*
** run_trace.h — the record of a run, tick by tick, as text: what
** `navbot run --trace`, `navbot sim --trace` and failing scenarios write,
** and what `navbot replay` reads back to show the run again.
**
** FORMAT (one record per line, fields separated by one space; docs/replay.md)
**   navbot-trace 3
**   map PATH / seed N / hz N / root DIR
**   bot ID BRAIN CLASS                 a bot joined (before the tick it is first in)
**   tick N HASH                        then, for that tick:
**   b ID X Y Z YAW VX VY VZ FLAGS      every bot; FLAGS: g ground, w water, l ladder,
**                                      c crouched, k climbing, r riding, F faulted, - none
**   say ID TEXT                        a bot's state text changed (TEXT may be empty)
**   goals ID N X Y Z R ...             its goal queue changed (N goals, head first)
**   route ID CLS DETOUR NL NP L.. P..  the route it shows changed: NL links of the area
**                                      graph of class CLS, or NP points X Y Z of a path
**                                      whose first DETOUR points are a detour
**   intent ID FACING LOOK PRIO REASON NQ NT Q.. T..   this tick only: where it faces,
**                                      the move request that won, NQ requests
**                                      (DX DY PRIO REASON) and NT hull traces
**                                      (X0 Y0 Z0 X1 Y1 Z1 HX HY HIT)
**   mark l|c|t UNTIL R G B A X Y Z ... a debug drawing (line: X1 Y1 Z1; circle: RADIUS;
**                                      text: TEXT), shown while the time <= UNTIL
**   marks -                            the drawings were redrawn: forget the earlier ones
**   fault ID MESSAGE                   a bot faulted (the first line of the error)
**   e INDEX OFFSET PHASE X Y Z         an elevator, door or crate changed
**   obstacle + ID X0 Y0 Z0 X1 Y1 Z1    an obstacle came ... obstacle - ID  ... went
** Only changes are written after the first tick, so a record stays small;
** the reader rebuilds the state at any tick. Version 2 records (no routes,
** intents or marks; `goal ID X Y Z R` or `goal ID -` for the queue's head)
** still load and show what they have. None of this enters the trace hash,
** which is the simulation's own (sim_trace_hash).
**
** SEEKING: loading indexes the record: the first change of every tick and,
** every RUN_TRACE_KEY_EVERY ticks, a key holding which change is the
** latest of each kind per bot, entity, obstacle and drawing. Posing a tick
** starts from the key before it, so it costs the changes of at most that
** many ticks, wherever it is.
**
** DOES NOT: run anything. Replaying poses a NavSim with what was recorded
** (sim_pose_*), it does not simulate.
*/
#ifndef NAV_RUN_TRACE_H
#define NAV_RUN_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/nav.h"
#include "core/limits.h"
#include "script/session.h"
#include "sim/sim_debug.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RUN_TRACE_VERSION 3
#ifndef RUN_TRACE_KEY_EVERY
#define RUN_TRACE_KEY_EVERY 32 /* ticks between the index's keys */
#endif
#define RUN_TRACE_MAX_BYTES NAV_LIMIT_TRACE_BYTES /* core/limits.h */

/* {======= writing ======= */

typedef struct RunTraceWriter RunTraceWriter;

/* Create path and write the header (map and root as given). NULL with err
** naming the path when it cannot be written. */
RunTraceWriter *run_trace_create(const char *path, const NavSession *s, const char *map, const char *root,
                                 uint64_t seed, NavError *err);
/* Append the tick just stepped. False after a write error (kept for close). */
bool run_trace_tick(RunTraceWriter *t, NavSession *s);
/* Flush and close; NAV_OK or the first write error naming the path. */
NavStatus run_trace_close(RunTraceWriter *t, NavError *err);

/* }======= */

/* {======= reading ======= */

enum {
    RUN_TRACE_GROUND = 1 << 0,
    RUN_TRACE_WATER = 1 << 1,
    RUN_TRACE_LADDER = 1 << 2,
    RUN_TRACE_CROUCHED = 1 << 3,
    RUN_TRACE_CLIMBING = 1 << 4,
    RUN_TRACE_RIDING = 1 << 5,
    RUN_TRACE_FAULTED = 1 << 6,
};

typedef struct RunTraceBot {
    uint32_t id;
    float pos[3], vel[3], yaw;
    uint32_t flags; /* RUN_TRACE_* */
} RunTraceBot;

typedef enum RunTraceEventKind {
    RUN_TRACE_SAY,             /* text */
    RUN_TRACE_GOAL,            /* n goals, data: float[n][4] x y z r (NULL when none) */
    RUN_TRACE_FAULT,           /* text */
    RUN_TRACE_ENTITY,          /* id = entity index; v offset, phase, x, y, z */
    RUN_TRACE_OBSTACLE_ADD,    /* id; v mins, maxs */
    RUN_TRACE_OBSTACLE_REMOVE, /* id */
    RUN_TRACE_ROUTE,           /* data: RunTraceRoute */
    RUN_TRACE_INTENT,          /* data: RunTraceIntent; this frame only */
    RUN_TRACE_MARK,            /* data: SimMark */
    RUN_TRACE_MARKS_CLEAR,
} RunTraceEventKind;

/* The route a bot shows (SimBotShow's links or path); the arrays live in
** the same allocation, sized to what was recorded, since a crowd's record
** holds many. */
typedef struct RunTraceRoute {
    int cls, detour_count, link_count, path_count; /* counts up to SIM_SHOW_ROUTE */
    uint32_t *links;
    float (*path)[3];
} RunTraceRoute;

/* What a bot meant in one tick: its facing, the request that won, and
** the requests and hull traces it made (SimBotShow's per-tick lists). */
typedef struct RunTraceIntent {
    bool look;
    float facing;
    int priority;
    char reason[SIM_REASON_MAX];
    int req_count, trace_count; /* up to SIM_SHOW_REQUESTS, SIM_SHOW_TRACES */
    SimShowRequest *req;        /* in the same allocation, as for routes */
    SimShowTrace *traces;
} RunTraceIntent;

typedef struct RunTraceEvent {
    uint32_t frame; /* index into frames */
    RunTraceEventKind kind;
    uint32_t id;
    uint32_t n; /* goal: how many */
    float v[6];
    char *text; /* say, fault: owned by the RunTrace */
    void *data; /* goal, route, intent, mark: owned by the RunTrace */
} RunTraceEvent;

typedef struct RunTraceFrame {
    uint64_t tick, hash;
    uint32_t first, count; /* into bots */
} RunTraceFrame;

typedef struct RunTraceBotInfo {
    char brain[BRAIN_NAME_MAX];
    char cls[64];
} RunTraceBotInfo;

typedef struct RunTrace {
    int version;
    char map[1024], root[1024];
    uint64_t seed;
    int hz;
    RunTraceBotInfo *bot_info; /* by bot id */
    uint32_t bot_count;
    RunTraceFrame *frames;
    uint32_t frame_count;
    RunTraceBot *bots; /* every frame's bots, flat */
    uint32_t bot_state_count;
    RunTraceEvent *events; /* in frame order */
    uint32_t event_count;
    /* The index (SEEKING above), made by run_trace_load. */
    uint32_t *frame_event; /* frame_count + 1: each frame's first event */
    struct RunTraceKey *keys;
    uint32_t key_count;
} RunTrace;

/* Read and index a record. NULL with err naming the file, line, field
** and tick of the first problem (a version newer than RUN_TRACE_VERSION
** is refused by name). */
RunTrace *run_trace_load(const char *path, NavError *err);
void run_trace_destroy(RunTrace *t);

/* The frame whose tick is the last at or before `tick` (0 when before all). */
uint32_t run_trace_frame_at(const RunTrace *t, uint64_t tick);

/* {======= replaying ======= */

/* A simulation of world w with the record's bots, for run_trace_pose;
** NULL with err set when a bot's class is not in the world or its first
** position has no floor. Brains are not loaded: a replay only shows. */
NavSim *run_trace_sim(const RunTrace *t, const NavWorld *w, NavError *err);
/* Pose sim as the record was at frame: bodies, state text, goal queues,
** routes, this tick's intents, debug drawings, entities and obstacles
** (from the index's key before frame: no reading from the start). */
void run_trace_pose(const RunTrace *t, uint32_t frame, NavSim *sim);
/* The same pose, reading every change from the first instead of from the
** key before frame: what a pose cost without the index, for `navbot bench
** replay` and the tests that check the two agree. */
void run_trace_pose_from_start(const RunTrace *t, uint32_t frame, NavSim *sim);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

/*
** soak.h — long runs: does memory stay flat? The run behind `navbot soak`.
**
** One map, one class, headless and with no trace: RTS units (bots/rts.lua)
** wander in a crowd and runners (bots/runner.lua) run to random goals, a
** new one each time they arrive (or give up after SOAK_GOAL_TICKS), while
** the world changes under them:
**   obstacles  every obstacle_every ticks a body-sized box is dropped on a
**              free point of dry ground; the oldest goes once
**              SOAK_OBSTACLES are down
**   doors      every door_every ticks each door moves on: open, shut,
**              locked, open ... (each door starts at its own place in
**              the cycle)
**   reloads    every reload_every ticks both brains are rewritten (a copy
**              in desc.work, one comment line changed, a safe write) and
**              reloaded (session_reload_changed)
** Every tick of the run after the first is sampled SOAK_SAMPLES times:
**   rss    the process's resident memory (/proc/self/statm)
**   heap   the C heap in use (mallinfo2; 0 under the sanitizers)
**   lua    every brain state's bytes (brain_host_stats)
**   sim    the simulation's own tables (sim_memory: bots, buckets,
**          obstacles, grid and search state, claims)
**   route  the routers' caches (router_stats cache_bytes), against the sum
**          of their caps
** FLAT: after the warm-up (the first SOAK_WARMUP_PERCENT of the ticks) the
** samples split into two halves by tick; a meter is flat when the second
** half's maximum is within max(5 %, 256 KiB) of the first half's. The run
** is made twice (a fresh session each time, same seed) and the two trace
** hashes must be the same.
**
** DOES NOT: load the map, print (progress goes to desc.progress), or judge
** speed.
*/
#ifndef NAV_SOAK_H
#define NAV_SOAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/nav.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SOAK_SAMPLES 200
#define SOAK_WARMUP_PERCENT 20
#define SOAK_FLAT_PERCENT 5
#define SOAK_FLAT_BYTES (256u * 1024u)
#define SOAK_OBSTACLES 4
#define SOAK_GOAL_TICKS 3000                  /* a runner that has not arrived by then gets another goal */
#define SOAK_ROUTE_CACHE_BYTES (512u * 1024u) /* per router: small, so the cap is reached and held */
#define SOAK_DEFAULT_OBSTACLE_EVERY 150
#define SOAK_DEFAULT_DOOR_EVERY 400
#define SOAK_DEFAULT_RELOAD_EVERY 2500

enum { SOAK_RSS, SOAK_HEAP, SOAK_LUA, SOAK_SIM, SOAK_ROUTE, SOAK_METERS };

/* "rss", "heap", "lua", "sim", "route". */
const char *soak_meter_name(int meter);

/* Zero means default. */
typedef struct SoakDesc {
    const NavWorld *w;
    const char *label; /* the map, in progress lines */
    const char *root;  /* holds bots/rts.lua, bots/runner.lua and lua/ */
    const char *work;  /* an existing folder for the brains' copies (a bots/ is made in it) */
    int cls;
    uint64_t ticks; /* per run; 0: 100,000 */
    uint64_t seed;
    uint32_t rts, runners; /* 0 rts and 0 runners: 48 and 6 */
    uint32_t obstacle_every, door_every, reload_every;
    /* A line of progress (each tenth of a run); NULL: none. */
    void (*progress)(void *user, const char *line);
    void *user;
} SoakDesc;

typedef struct SoakMeter {
    size_t first_max, last_max; /* after the warm-up: each half's maximum */
    size_t peak;                /* over the whole run */
    size_t end;                 /* the last sample */
    bool flat;
} SoakMeter;

typedef struct SoakRun {
    uint64_t hash;
    uint64_t ticks;
    double seconds; /* wall */
    SoakMeter m[SOAK_METERS];
    size_t route_cap;     /* all routers' caps together, at the end */
    bool route_under_cap; /* every sample */
    uint32_t bots, faulted;
    uint32_t obstacles_added, obstacles_removed, door_changes;
    uint32_t reloads, reload_misses; /* brains reloaded; rounds that did not reload both */
    uint32_t goals, arrivals;
} SoakRun;

typedef struct SoakResult {
    SoakRun run[2];
    bool same_hash;
    bool flat;     /* every meter of both runs */
    bool passed;   /* flat, same hash, routes under their cap, every reload round reloaded, no fault */
    char why[256]; /* the first reason it did not pass */
} SoakResult;

/* Run the map twice. NAV_OK with *out filled (passed or not); a failure
** (a bad class, a brain that cannot be copied, bots that cannot be
** placed) with err set. */
NavStatus soak_map(const SoakDesc *desc, SoakResult *out, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

/*
** learning.h — how far bots that know only what they saw get, and what
** their sliced searches cost: the runs behind `navbot bench learning`.
**
** LEARNING (one simulation per map and mode). A learner (bots/learner.lua:
** a navigation memory, explores on foot, watches others) starts at the
** map's first spawn point with no goals, so its brain queues every goal
** of the map itself, nearest first by the router's time (lua/tour.lua).
**   explore  the learner alone
**   watch    the learner and a runner (bots/runner.lua, omniscient, touring
**            the same goals) side by side at that spawn from the start
** It runs until the learner reached every goal, faulted, or the time limit
** passed. Then, with the memory it ended with: the share of the graph it
** knows, and for every ordered pair of distinct places among its spawn
** and the goals (spawn to each goal, goal to goal) whether the memory
** connects them (memory_route) and whether the router does
** (router_route), and the time over the router's where both do. A memory
** is part of the graph under the router's cost model, so that ratio is
** never below 1.
**
** SEARCHES (the budget of sliced searches). N bots on random missions
** (sim/mission.h), each with its own memory of the whole graph (every
** link, up to MEMORY_LINKS_PER_AREA_MAX into an area), are driven from C:
** each tick a bot without a final route asks sim_bot_memory_route
** (sliced) for its goal and walks the route it has (final, or the best
** partial one); a bot that leaves its route asks again. Every route handed
** back is checked: it starts in the area the bot stands in at that tick,
** each link is known, each link leaves the area the one before entered
** and, when final, it ends in the goal's area. It runs until no bot is
** waiting for a search (or the time limit), under the budgets given. The
** run is deterministic (budgets count expansions, not time), so it is
** made again `repeats` times and each tick's time is the least it took:
** a tick the machine gave another process counts as what the searches
** cost, not what the scheduler did. The ticks' expansions must repeat.
**
** Results are plain bytes (a child process hands them back through a
** pipe); learning runs are deterministic for a seed, whatever the jobs.
**
** DOES NOT: find maps, print, or judge: the command reports.
*/
#ifndef NAV_LEARNING_H
#define NAV_LEARNING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LEARN_BRAIN "learner"
#define LEARN_TEACHER "runner"
#define LEARN_ERROR_MAX 160
#define LEARN_CHILD_SECONDS 900 /* one sim in a child: stopped if it runs away */
#define LEARN_MAX_GOALS 32      /* goal entities measured per map */
#define LEARN_KEPT_VIOLATIONS 8

enum { LEARN_EXPLORE, LEARN_WATCH, LEARN_MODE_COUNT };

/* "explore", "watch" ("?" out of range). */
const char *learning_mode_name(int mode);

typedef struct LearnDesc {
    const NavWorld *w;
    const char *root; /* where bots/ and lua/ are; NULL: the bundled folder */
    int cls;
    uint32_t seed;
    double time_limit; /* seconds simulated */
    int mode;          /* LEARN_EXPLORE, LEARN_WATCH */
} LearnDesc;

/* One run's outcome (plain bytes). */
typedef struct LearnResult {
    uint8_t done, faulted;
    int32_t goals;     /* goal entities (at most LEARN_MAX_GOALS) */
    int32_t reached;   /* by the learner */
    float all_time;    /* seconds until it reached every goal; < 0 when it did not */
    float runner_time; /* watch: the runner's, the same way; < 0 when not (or no runner) */
    int32_t runner_reached;
    float sim_time; /* seconds simulated */
    float distance; /* metres the learner walked */
    uint32_t areas, areas_known, links, links_known;
    uint32_t pairs;                          /* ordered pairs of distinct areas among spawn and goals */
    uint32_t pairs_router;                   /* ...the router connects */
    uint32_t pairs_memory;                   /* ...the memory connects */
    double ratio_mean, ratio_min, ratio_max; /* memory time / router time; NAN when none */
    uint64_t memory_bytes;
    uint32_t ticks, search_ticks; /* ticks run; ticks in which a search was stepped */
    double search_ms_mean;        /* search_ms_total / search_ticks; NAN when none */
    double search_ms_max;
    uint64_t expanded;
    uint32_t learned[3]; /* links learned, by SIM_LEARN_CROSSED, WATCHED, SIGHTED */
    double wall_s;
    char error[LEARN_ERROR_MAX];
} LearnResult;

/* One run in this process. */
void learning_run(const LearnDesc *d, LearnResult *out);

/* Every run of d[0..count) in up to `jobs` child processes (1: here);
** res[i] is d[i]'s. A run whose process died is faulted with the reason. */
void learning_run_all(const LearnDesc *d, int count, int jobs, LearnResult *res,
                      void (*progress)(void *user, int done, int total), void *user);

typedef struct SearchDesc {
    const NavWorld *w;
    int cls;
    uint32_t seed;
    const char *label; /* the map's name: its missions are drawn from seed and label */
    int bots;
    uint32_t per_bot, per_world; /* sim_set_search_budget */
    double time_limit;           /* seconds simulated */
    int repeats;                 /* runs; each tick's time is the least over them (1: one run) */
} SearchDesc;

/* A route that broke a rule. */
enum { SEARCH_BAD_START, SEARCH_UNKNOWN_LINK, SEARCH_BROKEN_CHAIN, SEARCH_BAD_END, SEARCH_EMPTY };

typedef struct SearchViolation {
    uint32_t bot;
    uint32_t tick;
    uint32_t area; /* the bot's area then */
    uint32_t link; /* the offending link (UINT32_MAX: none) */
    uint32_t from; /* its from area */
    int why;       /* SEARCH_* */
    bool partial;  /* a searching route (else a ready one) */
} SearchViolation;

/* "starts outside the bot's area", ... */
const char *learning_violation_name(int why);

typedef struct SearchResult {
    int bots; /* placed */
    uint32_t per_bot, per_world;
    uint32_t links, links_known; /* each bot's memory */
    uint32_t ticks, search_ticks;
    double ms_mean, ms_p99, ms_max; /* per tick that searched, its least over the repeats */
    double ms_max_raw;              /* the most any tick took in any run */
    int repeats;
    bool repeats_differ;  /* a repeat expanded otherwise (then only the first run counts) */
    double expanded_mean; /* per tick that searched */
    uint32_t expanded_max;
    uint64_t expanded;
    double us_per_expansion;
    int ready_bots, no_route_bots, arrived_bots, waiting_bots; /* waiting: still searching at the end */
    uint32_t episodes;                                         /* asks from a bot without a route until it had one */
    double ready_mean, ready_max;                              /* ticks from the first ask to the ready route */
    uint64_t ready_routes, partial_routes, queued;
    uint32_t violations, partial_violations;
    int kept;
    SearchViolation kept_v[LEARN_KEPT_VIOLATIONS];
    double wall_s;
} SearchResult;

/* The searches run in this process (timed: run nothing else meanwhile).
** NAV_FAILURE with err set when the map has no room for the missions or
** memory runs out. */
NavStatus learning_searches(const SearchDesc *d, SearchResult *out, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

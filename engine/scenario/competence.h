/*
** competence.h — do bots arrive? The runs behind `navbot bench
** competence`: runner bots (bots/runner.lua) on random missions
** (sim/mission.h), in three modes:
**   solo    one bot per mission, one sim per mission
**   crowd   K bots in one sim, each with its own mission
**   shared  K bots in one sim from different starts, all sent to one goal
** Each bot has until F x the routed optimum + M seconds (its own limit); it
** arrived when its goal was reached by then.
**
** Missions are drawn from the seed, the map's label and the mode (so a
** map's missions do not depend on the other maps), and snapped through
** "%.2f" text (x and y on a quarter-metre lattice, z to the centimetre) so
** a printed command replays the same run. Each sim runs in a child
** process (scenario/jobs.h; with jobs <= 1 in this process); results are
** kept in mission order, so they do not depend on the number of jobs.
**
** STEP BY STEP
**   CompSet set;
**   competence_missions(&desc, "tower", picker, &set, &err);
**   CompResult *res = nav_calloc(set.count, sizeof *res);
**   competence_run(&(CompRunDesc){ .w = w, .root = ".", .seed = 1, .jobs = 2 }, &set, res);
**   competence_summarise(&set, res, COMP_SOLO, &summary, ratios) ...
**   competence_free(&set);
**
** DOES NOT: find maps, print, judge speed, or fail on how many bots
** arrive (the command reports, whatever they do).
*/
#ifndef NAV_COMPETENCE_H
#define NAV_COMPETENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "sim/mission.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COMP_BRAIN "runner"
#define COMP_MAX_CROWD 64
#define COMP_STUCK_SECONDS 3.0
#define COMP_CHILD_SECONDS 900 /* one sim in a child: stopped if it runs away */
#define COMP_ERROR_MAX 160
#define COMP_HASH_START 0xcbf29ce484222325ull

enum { COMP_SOLO, COMP_CROWD, COMP_SHARED, COMP_MODE_COUNT };

/* "solo", "crowd", "shared" ("?" out of range). */
const char *competence_mode_name(int mode);

typedef struct CompDesc {
    uint32_t missions; /* per mode */
    uint32_t crowd;    /* bots per sim in crowd and shared */
    uint32_t seed;
    double time_factor, time_margin;
    double min_distance; /* the picker's, for the error message */
    bool modes[COMP_MODE_COUNT];
} CompDesc;

/* A mission as run: the mode, its sim and its bot's limit. */
typedef struct CompMission {
    NavMission m;
    int mode;
    int sim;         /* index into CompSet.sims */
    int sim_in_mode; /* the sim's number within its mode */
    uint32_t limit_ticks;
} CompMission;

/* One sim: missions [first, first + count). */
typedef struct CompSim {
    int mode;
    int first, count;
} CompSim;

/* Every mission of a map, in mode order, and its sims. */
typedef struct CompSet {
    CompMission *missions;
    int count;
    CompSim *sims;
    int sim_count;
} CompSet;

/* A bot's outcome (plain bytes: a child hands it back through a pipe). */
typedef struct CompResult {
    uint8_t arrived; /* by its own limit */
    uint8_t faulted;
    uint8_t done;       /* filled in */
    float arrival_time; /* seconds; < 0 when not arrived */
    float stuck_max;    /* longest stuck spell, seconds */
    float stuck_total;  /* all its stuck time: many short spells show here */
    float pos[3];       /* where it was at the end of its time (or on arrival) */
    char say[SIM_SAY_MAX];
    char error[COMP_ERROR_MAX];
} CompResult;

typedef struct CompSummary {
    int missions, arrived, stuck, faults;
    double ratio_mean, ratio_p95; /* NAN when none arrived */
} CompSummary;

/* Draws every mission of the modes on in d for the map labelled `label`.
** NAV_FAILURE|NAV_E_PARAM with err set when the map has too little room
** for them; NAV_E_NOMEM when memory runs out. out is empty on failure. */
NavStatus competence_missions(const CompDesc *d, const char *label, MissionPicker *pk, CompSet *out, NavError *err);
void competence_free(CompSet *s);

/* FNV-1a over bytes, and over a map's missions (label, modes, sims,
** points, optimum, limits): two runs that hash the same ran the same. */
uint64_t competence_hash_bytes(uint64_t h, const void *data, size_t n);
uint64_t competence_hash(uint64_t h, const char *label, const CompSet *s);

/* The ticks the longest limit of sim j's bots allows. */
uint32_t competence_sim_ticks(const CompSet *s, int j);

typedef struct CompRunDesc {
    const NavWorld *w;
    const char *root; /* where bots/ and lua/ are */
    int cls;
    uint32_t seed;
    int jobs;                                          /* sims at once, each in a child process */
    void (*progress)(void *user, int done, int total); /* after each sim; may be NULL */
    void *user;
} CompRunDesc;

/* Runs every sim of s as `navbot run` would (same placement, goals, brain
** and seed) until each bot arrived, faulted or ran out of its time;
** res[i] is mission i's. A sim whose process died counts every bot of it
** as faulted, with the reason. */
void competence_run(const CompRunDesc *d, const CompSet *s, CompResult *res);

/* Counts mode's bots into sum; their ratios (arrival time over the
** optimum) go to ratios[0..), how many returned. */
int competence_summarise(const CompSet *s, const CompResult *res, int mode, CompSummary *sum, double *ratios);

/* Mean and p95 (nearest rank) of ratios[0..n) into s; sorts them. */
void competence_ratio_stats(double *ratios, int n, CompSummary *s);

#ifdef __cplusplus
}
#endif

#endif

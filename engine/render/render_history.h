/*
** render_history.h — what the pictures remember of the last seconds of
** each bot: where it was and how it moved there (the trails overlay), its
** speed and its state (the selected bot's panel plots them), and its last
** few route choices. The renderer draws only what a simulation is now;
** this is what it was, kept by whoever steps it (the window and headless
** pictures: cli/player.h) one call per tick.
**
** Per bot a flat ring of RENDER_HISTORY_SAMPLES samples, one every few
** ticks so that the ring spans RENDER_HISTORY_SECONDS whatever the tick
** rate; the travel type of a sample is the most telling way the body
** moved since the one before (a ladder, a jump, a lift over a walk).
** Memory grows only when bots are added, never per tick.
**
** How a body moved is read from its state, the same in a live run and in
** a replay (whose record has positions, velocities and the ground, water,
** ladder, crouch, climb and riding flags): riding an elevator, on a
** ladder, climbing, swimming, in the air (a jump when it left the ground
** rising or from a jump, a jump pad when launched by one, a water jump
** out of water, else a walk off a ledge), crouched, walking. A body that
** moved farther in one tick than any body can run was teleported.
**
** DOES NOT: draw (render_trails.c, render_panel.c) or change the
** simulation.
*/
#ifndef NAV_RENDER_HISTORY_H
#define NAV_RENDER_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "render/render.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RENDER_HISTORY_SAMPLES 120
#define RENDER_HISTORY_SECONDS 12.0
#define RENDER_HISTORY_ROUTES 4

/* What a bot was doing, for the panel's strip; the order is the order of
** precedence (a faulted bot is faulted, whatever else). */
typedef enum HistoryState {
    HISTORY_FAULTED,
    HISTORY_ARRIVED, /* as the run report says (script/bot_outcome.h) */
    HISTORY_STUCK,   /* stuck for more than a second (as the HUD counts) */
    HISTORY_WAITING, /* for a lift, a claim (sim_bot_waiting) */
    HISTORY_MOVING,
    HISTORY_IDLE, /* standing, not waiting */
    HISTORY_STATES
} HistoryState;

const char *render_history_state_name(HistoryState s);
NavColor render_history_state_color(HistoryState s);

enum {
    HISTORY_TELEPORTED = 1 << 0, /* arrived here by a jump across space: no trail to it */
};

typedef struct HistorySample {
    uint64_t tick;
    float pos[3];
    float speed;    /* horizontal, m/s */
    uint8_t travel; /* NavTravelType it moved by since the sample before */
    uint8_t state;  /* HistoryState */
    uint8_t flags;  /* HISTORY_* */
} HistorySample;

typedef struct HistoryRoute {
    uint64_t tick;
    char text[96]; /* "path: 9 links (ladder, jump) to 40,12" */
} HistoryRoute;

typedef struct HistoryBot HistoryBot;
typedef struct RenderHistory RenderHistory;

/* NULL when out of memory. */
RenderHistory *render_history_create(void);
void render_history_destroy(RenderHistory *h);
/* Forget everything (a replay jumped elsewhere, a map reloaded). */
void render_history_clear(RenderHistory *h);

/* After each tick: the bodies of sim now. info says which bots faulted
** and which is the player (info->session or info->trace, as the renderer
** reads them); a live sim that shows what bots intend (sim_show_enable)
** gives the route choices. Out of memory for new bots, they go without. */
void render_history_record(RenderHistory *h, NavSim *sim, const RenderInfo *info);
/* A replay seeking: forget, then remember the record's frames that end
** at `frame` (as many as the ring spans) and their route changes; sim
** (the replay's, or NULL) names the kinds of travel on routes. */
void render_history_replay(RenderHistory *h, const struct RunTrace *t, uint32_t frame, NavSim *sim);

/* Seconds per tick of what was recorded (0 before anything was). */
double render_history_dt(const RenderHistory *h);
/* Samples held for bot id, oldest first; 0 for a bot it does not know. */
int render_history_count(const RenderHistory *h, uint32_t id);
const HistorySample *render_history_sample(const RenderHistory *h, uint32_t id, int i);
/* Route choices held for bot id, oldest first. */
int render_history_route_count(const RenderHistory *h, uint32_t id);
const HistoryRoute *render_history_route(const RenderHistory *h, uint32_t id, int i);

#ifdef __cplusplus
}
#endif

#endif

/*
** player.h — what the window and headless pictures play: a live session
** (brains think, the sim moves, optionally recorded) or a recorded run
** posed frame by frame. Both end up as a NavSim the renderer draws.
*/
#ifndef NAV_PLAYER_H
#define NAV_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "render/render.h"
#include "render/render_history.h"
#include "script/player_body.h"
#include "script/run_trace.h"
#include "script/session.h"

typedef struct Player {
    NavSim *sim;
    NavSession *session;    /* live; NULL in a replay */
    RunTraceWriter *record; /* live, --trace */
    const RunTrace *trace;  /* replay */
    uint32_t frame;         /* replay: the frame shown */
    const char *title;
    const char *shots;      /* folder for F12 screenshots */
    const char *last_frame; /* the window's last frame goes to this PNG when it closes (--screenshot) */
    /* The body the user drives (--player; script/player_body.h), NULL when
    ** none. The window drives it from the keys unless a brain or a
    ** recording already does. */
    PlayerBody *body;
    /* The last seconds of every bot, for trails and the panel's plots
    ** (render/render_history.h): recorded at each step, refilled from the
    ** record when a replay seeks. NULL: none kept. */
    RenderHistory *history;
} Player;

/* One tick forward: false when a replay is at its end. */
bool player_step(Player *p);
/* Replay: show frame (clamped); live: nothing. */
void player_seek(Player *p, int64_t frame);
/* The HUD's view of the player. */
void player_info(const Player *p, RenderInfo *info);

/* The keys, for the help screen and `navbot help sim`: without a player,
** and with one the keys drive (the movement keys move it; pausing, the
** storey and the class move to other keys). */
extern const char *const PLAYER_KEYS;
extern const char *const PLAYER_KEYS_DRIVING;

/* Run the SDL2 window until it is closed (or max_ticks ticks played when
** above 0). CLI_OK, or CLI_BAD_INPUT with the reason printed when there
** is no display. */
int window_run(const CliContext *cx, Player *p, RenderView *v, int width, int height, uint64_t max_ticks,
               float time_scale);

#endif

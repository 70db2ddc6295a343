/*
** player_body.h — a body the user drives: an ordinary bot of the session
** (same physics as every bot: ladders, swimming, elevators, teleporters,
** jump pads, doors) whose controls are set each tick, after the brains
** thought and before the simulation moves (session_add_before_move), by
** one of:
**   input    a function the caller gives (the window's keys and mouse,
**            turned into controls by player_keys_controls);
**   replay   a recording (player_record.h), tick k of the run getting its
**            tick k; past its end the body stands still;
**   brain    the Lua brain attached to the bot, as for any bot: how a
**            recording is made without a window. The body's avoidance is
**            turned off before each move, so that what moves it is its
**            controls alone, as in a replay.
** Whichever drives it, the controls the move uses can be recorded
** (player_body_record), so a replay of that recording moves the body the
** same way, tick for tick: the same map, seed, bots and recording give the
** same trace hash.
**
** Not recorded, so not replayed: what a brain does besides the controls
** (goals, claims, its say text, unit motion and formations, which steer a
** body from C; a player brain should steer with move, jump, crouch, use,
** ladder_down, climb_to and look).
**
** DOES NOT: read the keyboard (cli/window.c does), place the body, or
** own the session.
*/
#ifndef NAV_PLAYER_BODY_H
#define NAV_PLAYER_BODY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "script/player_record.h"
#include "script/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= keys to controls ======= */

/* What the user holds down this tick. Directions are the top-down view's:
** north (up on the screen) is +y, east (right) is +x. */
typedef struct PlayerKeys {
    bool north, south, east, west;
    bool jump, crouch, use;
    bool look; /* face look_at (the mouse's world point) */
    float look_at[3];
} PlayerKeys;

/* The controls bot `bot` gets from keys k: move toward the held
** directions (diagonals at full speed, not faster), jump, crouch and use
** as held, look at the mouse. On a ladder (the floor under the body is a
** ladder's and the body is below its top), moving into the wall it leans
** on climbs it (the simulation's rule) and moving away from the wall, or
** crouching, climbs down (ladder_down) once the body is above the
** ladder's foot; going down, the body is kept against the wall so that it
** passes the hatch it came through rather than stepping off into the
** hole. At the foot, moving away walks away. */
void player_keys_controls(const NavSim *sim, uint32_t bot, const PlayerKeys *k, PlayerControls *out);

/* }======= */

/* {======= a driven body ======= */

typedef enum PlayerDrive { PLAYER_DRIVE_NONE, PLAYER_DRIVE_INPUT, PLAYER_DRIVE_REPLAY, PLAYER_DRIVE_BRAIN } PlayerDrive;

/* The controls the caller wants for the body this tick. */
typedef void (*PlayerInputFn)(void *user, NavSim *sim, uint32_t bot, PlayerControls *out);

typedef struct PlayerBody PlayerBody;

/* Drive bot `bot` of session s (it must be there). Until a drive is
** chosen the body stands still. NULL with err set when out of memory or
** when the session has no room for another before-move hook. */
PlayerBody *player_body_create(NavSession *s, uint32_t bot, NavError *err);
/* Stop driving (the body keeps its last controls) and free what it holds
** (a recording not saved is lost). */
void player_body_destroy(PlayerBody *p);

void player_body_drive_input(PlayerBody *p, PlayerInputFn fn, void *user);
/* rec stays the caller's and must outlive the body. The replay's tick 0
** is the session's next tick. */
void player_body_drive_replay(PlayerBody *p, const PlayerRecord *rec);
void player_body_drive_brain(PlayerBody *p);

/* Record the controls of every tick from the next on, under header info.
** False when out of memory. */
bool player_body_record(PlayerBody *p, const PlayerRecordInfo *info);
/* What was recorded so far (NULL when not recording); false when a tick
** could not be added (out of memory): the recording is then incomplete. */
const PlayerRecord *player_body_recording(const PlayerBody *p);
bool player_body_record_ok(const PlayerBody *p);

uint32_t player_body_bot(const PlayerBody *p);
PlayerDrive player_body_drive(const PlayerBody *p);
/* Replay: ticks played so far, and whether the recording is over. */
uint64_t player_body_ticks(const PlayerBody *p);
bool player_body_replay_over(const PlayerBody *p);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

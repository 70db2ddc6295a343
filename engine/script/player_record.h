/*
** player_record.h — a player's controls, tick by tick, as text: what
** `--record-player FILE` writes, and what `--play-player FILE` and a
** scenario's S.player replay into a body, so the same run happens again
** (the same trace hash). Only the controls are kept (NavBotControl: move,
** jump, crouch, use, ladder_down, look, climb): the body goes where its
** physics takes it, as on the run recorded.
**
** FORMAT (version 1; fields separated by one space; blank lines and lines
** starting with '#' are skipped)
**   navbot-player 1
**   map PATH            the map it was recorded on (checked by file name)
**   seed N              the run's seed
**   hz N                ticks per second (1 to 1000)
**   class NAME          the body's mover class
**   spawn X Y Z YAW     where the body was put (feet, metres) and its facing
**   ticks N             how many ticks the runs below hold in all
**   COUNT MX MY BUTTONS LOOK CLIMB    a run: COUNT ticks with these controls
**     MX MY     the wished direction (move[0], move[1])
**     BUTTONS   '-' or letters, each once: j jump, c crouch, u use,
**               d ladder down
**     LOOK      '-' or X,Y,Z: the point the body faces
**     CLIMB     '-' or X,Y,Z: the ledge it climbs to
**   end
** Numbers are written with nine significant digits, which give every
** float back bit for bit. Tick k of the run (from 0) gets the controls of
** the run line that covers it, set just before the simulation moves.
**
** A file that is not this (a missing or misspelt header line, a number
** that is not one, a run of 0 ticks, runs that do not add up to `ticks`,
** no `end`, text after it) is refused: the error names the file, the line
** and the field.
**
** DOES NOT: drive a body (script/player_body.h does) or read the map.
*/
#ifndef NAV_PLAYER_RECORD_H
#define NAV_PLAYER_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/limits.h"
#include "core/nav.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PLAYER_RECORD_VERSION 1
#define PLAYER_RECORD_MAX_BYTES NAV_LIMIT_PLAYER_BYTES /* core/limits.h */
#define PLAYER_RECORD_MAP_MAX 1024
#define PLAYER_RECORD_CLASS_MAX 64

/* One tick's controls as recorded: a NavBotControl without its display
** fields (priority, reason). look_at and climb_to are kept only while
** look and climb are on (zero otherwise). */
typedef struct PlayerControls {
    float move[2];
    bool jump, crouch, use, ladder_down;
    bool look, climb;
    float look_at[3], climb_to[3];
} PlayerControls;

/* The controls of c; set c to p (reason becomes `reason`, priority 0). */
void player_controls_get(const NavBotControl *c, PlayerControls *out);
void player_controls_set(NavBotControl *c, const PlayerControls *p, const char *reason);
/* Bit for bit the same (0.0 and -0.0 differ). */
bool player_controls_equal(const PlayerControls *a, const PlayerControls *b);

/* The header: the run the controls belong to. */
typedef struct PlayerRecordInfo {
    char map[PLAYER_RECORD_MAP_MAX];
    uint64_t seed;
    uint32_t hz;
    char cls[PLAYER_RECORD_CLASS_MAX];
    float spawn[3];
    float yaw;
} PlayerRecordInfo;

/* COUNT ticks with the same controls. */
typedef struct PlayerRun {
    uint32_t count;
    PlayerControls c;
} PlayerRun;

typedef struct PlayerRecord {
    PlayerRecordInfo info;
    uint64_t ticks; /* all runs' counts */
    PlayerRun *runs;
    uint32_t run_count, run_cap;
    /* Read from a file: its name and the lines of the header fields, for
    ** mismatch errors (player_record_check); "" and 0 when made here. */
    char path[512];
    int line_map, line_seed, line_hz, line_class, line_spawn;
} PlayerRecord;

/* An empty record for a run of info (copied). NULL with err set when out
** of memory. */
PlayerRecord *player_record_new(const PlayerRecordInfo *info, NavError *err);
void player_record_destroy(PlayerRecord *r);

/* Append one tick. False (the record as it was) when out of memory or
** at NAV_LIMIT_TICKS ticks. */
bool player_record_add(PlayerRecord *r, const PlayerControls *c);

/* The whole file as text (nav_free it), *len its length; NULL when out
** of memory. */
char *player_record_text(const PlayerRecord *r, size_t *len);
/* Write it safely (core/fileio.h: whole or not at all). */
NavStatus player_record_save(const PlayerRecord *r, const char *path, NavError *err);

/* Read a record from text (len bytes; path names it in errors) or from a
** file. NULL with err naming the file, line and field of the first
** problem (NAV_E_FORMAT), or the file (NAV_E_IO), or NAV_E_NOMEM. */
PlayerRecord *player_record_parse(const char *text, size_t len, const char *path, NavError *err);
PlayerRecord *player_record_load(const char *path, NavError *err);

/* Reading tick by tick: a cursor remembers the run, so going forward a
** tick at a time costs nothing. Zero it to start. */
typedef struct PlayerCursor {
    uint32_t run;
    uint64_t first; /* the tick the run starts at */
} PlayerCursor;

/* The controls of tick `tick` (from 0); false past the last tick (out
** zeroed). */
bool player_record_at(const PlayerRecord *r, uint64_t tick, PlayerCursor *cur, PlayerControls *out);

/* Does the record belong to this run? Its map's file name must be map's
** (maps/tower.lua and /home/me/navbot/maps/tower.lua are the same), and
** seed and hz the same. NAV_OK, or NAV_E_FORMAT naming the record's file,
** the header line and the field, with both values. */
NavStatus player_record_check(const PlayerRecord *r, const char *map, uint64_t seed, uint32_t hz, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

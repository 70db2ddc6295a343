/*
** sim_setup.h — what `navbot run` and `navbot sim` share: the options that
** say which map, bots, brains, goals and seed; placing the bots; the
** per-bot report at the end.
**
**   --bot BRAIN[:COUNT][@WHERE]  (sim also takes BRAIN[:COUNT][@WHERE] after the map)
**   --goal WHERE  --bot-goal WHERE  --class NAME  --seed N  --hz N  --root DIR  --quiet
**   --player [CLASS][@WHERE]  --player-brain BRAIN  --record-player FILE  --play-player FILE
** (and --lua-path DIR, which cli_main takes for every command)
** WHERE is a spawn or entity name, or X,Y[,Z] in metres.
**
** The player (sim_setup_player.c, script/player_body.h) is one more body,
** added after the bots, with no brain of its own: the window's keys drive
** it, or --player-brain's brain, or --play-player's recording;
** --record-player writes the controls it moved by.
*/
#ifndef NAV_SIM_SETUP_H
#define NAV_SIM_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "script/player_body.h"
#include "script/session.h"

#define SETUP_MAX_GROUPS 64
#define SETUP_MAX_GOALS SIM_MAX_GOALS

/* One --bot argument. */
typedef struct BotGroup {
    char brain[1024]; /* a name, or a .lua file's path */
    int count;
    const char *where;                /* spawn name, "X,Y[,Z]", or NULL: the map's spawns in turn */
    const char *goals[SIM_MAX_GOALS]; /* --bot-goal: this group's own goals, before the --goal ones */
    int goal_count;
} BotGroup;

/* --player and the options that go with it. */
typedef struct PlayerArgs {
    bool on;            /* any of them given */
    const char *spec;   /* --player's [CLASS][@WHERE]; NULL: the defaults */
    const char *brain;  /* --player-brain */
    const char *record; /* --record-player FILE */
    const char *play;   /* --play-player FILE */
} PlayerArgs;

typedef struct SimSetup {
    const char *map;
    const char *root;
    const char *cls_name;
    BotGroup groups[SETUP_MAX_GROUPS];
    int group_count;
    const char *goals[SETUP_MAX_GOALS];
    int goal_count;
    uint64_t seed;
    uint32_t hz;
    bool seed_given, hz_given; /* else a replayed player's recording sets them */
    bool quiet;
    PlayerArgs player;
} SimSetup;

/* The player of a run: NULL body when there is none. */
typedef struct SimPlayer {
    PlayerRecord *replay; /* --play-player's, loaded by sim_player_prepare */
    PlayerBody *body;
    int bot; /* its bot id, -1 when none */
} SimPlayer;

void sim_setup_defaults(SimSetup *a);
/* "BRAIN[:COUNT][@WHERE]"; false when malformed. */
bool sim_setup_parse_group(const char *s, BotGroup *g);
/* Add a group from text; CLI_OK, or the usage error printed for cmd. */
int sim_setup_add_group(const CliContext *cx, const CliCommand *cmd, SimSetup *a, const char *text);
/* An option both commands take, at argv[*i]: 1 taken (and *i advanced
** past its value), 0 not one of them, -1 a usage error (printed). */
int sim_setup_option(const CliContext *cx, const CliCommand *cmd, SimSetup *a, int argc, char **argv, int *i);

/* Load the map, make the session, place the bots with their goals and
** brains, then the player when a->player.on (pl may be NULL otherwise).
** CLI_OK with *w and *s set (the caller frees pl with sim_player_free,
** then destroys both), else the error is printed and nothing is left to
** free. */
int sim_setup_start(const CliContext *cx, const char *cmd, const SimSetup *a, SimPlayer *pl, NavWorld **w,
                    NavSession **s);

/* WHERE (a spawn or entity name, or X,Y[,Z]) as a point on the floor and
** the entity's facing (0 for points); CLI_OK, else the error is printed
** (arg names the option in it). */
int sim_setup_where(const CliContext *cx, const char *cmd, const char *arg, const NavWorld *w, const char *where,
                    float p[3], float *yaw);
/* The map's first spawn point; false when it has none. */
bool sim_setup_first_spawn(const NavWorld *w, float p[3], float *yaw);

/* Per bot: arrived and when, goals, distance, stuck time, travel types,
** faults; then the counts and the trace hash. */
void sim_setup_report(const CliContext *cx, NavSession *s, const SimSetup *a, const SimPlayer *pl);
/* Every live bot that had goals has none left (or every bot faulted), and
** the player's recording, when one is replayed, is over. The player
** counts as a bot only when it has goals (a brain drives it). */
bool sim_setup_all_done(NavSession *s, const SimPlayer *pl);

/* {======= the player (sim_setup_player.c) ======= */

/* After parsing: check the player's options go together, load
** --play-player's recording (its seed and hz become the run's unless
** given, and must match when given). CLI_OK, or the error printed and
** nothing to free. `run` says whether the command runs headless only
** (navbot run: the player needs a brain or a recording there). */
int sim_player_prepare(const CliContext *cx, const CliCommand *cmd, SimSetup *a, SimPlayer *pl, bool run);
/* Where the player will start, worked out before the bots are placed
** (which keep off it): its class and its feet, on the world alone. */
typedef struct SimPlayerSpot {
    int cls;
    float pos[3], yaw;
    float radius, height;
} SimPlayerSpot;
int sim_player_spot(const CliContext *cx, const char *cmd, const SimSetup *a, const SimPlayer *pl, const NavSim *sim,
                    SimPlayerSpot *out);
/* Put the player there, after the bots (sim_setup_start calls both). */
int sim_player_place(const CliContext *cx, const char *cmd, const SimSetup *a, NavSession *s, SimPlayer *pl,
                     const SimPlayerSpot *spot, const float (*goals)[3], int goal_count);
/* After the run: write --record-player's file. CLI_OK, or the error printed. */
int sim_player_finish(const CliContext *cx, const char *cmd, const SimSetup *a, SimPlayer *pl);
/* Before the session is destroyed. */
void sim_player_free(SimPlayer *pl);

/* }======= */
/* The travel types in `used` as "walk,jump" ("-" for none). */
void sim_setup_travel_names(uint32_t used, char *buf, size_t cap);

#endif

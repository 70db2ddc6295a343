/*
** sim_setup.h — what `navbot run` and `navbot sim` share: the options that
** say which map, bots, brains, goals and seed; placing the bots; the
** per-bot report at the end.
**
**   --bot BRAIN[:COUNT][@WHERE]  (sim also takes BRAIN[:COUNT][@WHERE] after the map)
**   --goal WHERE  --bot-goal WHERE  --class NAME  --seed N  --hz N  --root DIR  --quiet
** (and --lua-path DIR, which cli_main takes for every command)
** WHERE is a spawn or entity name, or X,Y[,Z] in metres.
*/
#ifndef NAV_SIM_SETUP_H
#define NAV_SIM_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
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
    bool quiet;
} SimSetup;

void sim_setup_defaults(SimSetup *a);
/* "BRAIN[:COUNT][@WHERE]"; false when malformed. */
bool sim_setup_parse_group(const char *s, BotGroup *g);
/* Add a group from text; CLI_OK, or the usage error printed for cmd. */
int sim_setup_add_group(const CliContext *cx, const CliCommand *cmd, SimSetup *a, const char *text);
/* An option both commands take, at argv[*i]: 1 taken (and *i advanced
** past its value), 0 not one of them, -1 a usage error (printed). */
int sim_setup_option(const CliContext *cx, const CliCommand *cmd, SimSetup *a, int argc, char **argv, int *i);

/* Load the map, make the session, place the bots with their goals and
** brains. CLI_OK with *w and *s set (the caller destroys both), else the
** error is printed and nothing is left to free. */
int sim_setup_start(const CliContext *cx, const char *cmd, const SimSetup *a, NavWorld **w, NavSession **s);

/* Per bot: arrived and when, goals, distance, stuck time, travel types,
** faults; then the counts and the trace hash. */
void sim_setup_report(const CliContext *cx, NavSession *s, const SimSetup *a);
/* Every live bot that had goals has none left (or every bot faulted). */
bool sim_setup_all_done(NavSession *s);
/* The travel types in `used` as "walk,jump" ("-" for none). */
void sim_setup_travel_names(uint32_t used, char *buf, size_t cap);

#endif

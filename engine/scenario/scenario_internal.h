/*
** scenario_internal.h — what the scenario runner's files share: the run's
** state and the functions one file calls in another. scenario.c runs a
** scenario start to end (and holds the small helpers and failure
** reports); scenario_lua.c is the scenario's own Lua (require, the core
** module) and reads its tables; scenario_setup.c builds the bots, the
** expectations and the events; scenario_check.c runs the events and the
** expectations each tick and at the end.
*/
#ifndef NAV_SCENARIO_INTERNAL_H
#define NAV_SCENARIO_INTERNAL_H

#include "scenario/scenario.h"

#include <lua.h>
#include <time.h>

#include "lua/sandbox.h"
#include "script/player_body.h"
#include "script/run_trace.h"

/* {======= types ======= */

#define SCEN_PATH_MAX 1024
#define SCEN_WHERE_MAX 320
#define SCEN_MAX_TEMP_BRAINS 8
#define SCEN_MEMORY (256u << 20)      /* the scenario's own Lua state */
#define SCEN_INSTRUCTIONS 20000000ull /* per call into the scenario's Lua: checks are small */
#define SCEN_FILE_MAX (4u << 20)
#define SCEN_DEFAULT_TIME 60.0
#define SCEN_MAX_MEMORY ((int64_t)1 << 40) /* a brain state's cap, bytes */
#define SCEN_OVERLAP_EPS 1e-3f

typedef enum ExpectKind {
    EX_ARRIVES,
    EX_NEAR_OPTIMAL,
    EX_USES,
    EX_NEVER_USES,
    EX_NEVER_ENTERS,
    EX_NEVER_STUCK,
    EX_NO_FAULTS,
    EX_FAULTS,
    EX_NO_OVERLAP,
    EX_CHECK,
} ExpectKind;

typedef struct Expect {
    ExpectKind kind;
    char where[SCEN_WHERE_MAX];
    char text[256];
    uint32_t *bots; /* ids it is about */
    int nbots;
    uint8_t *done;   /* per bot: met (arrives, faults, near_optimal) */
    double *optimum; /* near_optimal: per bot, seconds; < 0 when there is no route */
    double within;   /* seconds; 0: the time limit */
    double factor;
    double longer;
    uint32_t travel;     /* NAV_TFL_TYPE bits */
    uint32_t area_flags; /* NAV_AREA_* */
    uint32_t contents;   /* 1 << NavContents */
    uint32_t route_flags;
    char matching[128];
    int fn; /* check: registry ref */
    bool at_end;
} Expect;

typedef enum Trigger { TRIG_TIME, TRIG_TICK, TRIG_WHEN } Trigger;

typedef struct Event {
    Trigger trigger;
    double at;   /* seconds or ticks */
    int cond;    /* when: registry ref */
    int actions; /* registry ref: the list of {text, fn, where} */
    char where[SCEN_WHERE_MAX];
    char text[256];
    bool fired;
} Event;

typedef struct NamedBot {
    char name[64];  /* "runner", "crowd#3" */
    char group[64]; /* its bot{}'s name */
} NamedBot;

/* A player{}: a body replaying a recording. */
typedef struct ScenPlayer {
    PlayerRecord *rec;
    PlayerBody *body;
} ScenPlayer;

typedef enum Until { UNTIL_ARRIVED, UNTIL_TIME, UNTIL_FUNCTION } Until;

typedef struct Run {
    const char *path;
    char *source;                   /* the file's text, for where() after a tail call */
    char dir[SCEN_PATH_MAX];        /* the scenario file's folder */
    char root[SCEN_PATH_MAX];       /* opt->root, else the bundled root; "" if none */
    char lib_prefix[SCEN_PATH_MAX]; /* "@lua/": frames where() skips */
    NavLuaPath search;              /* require's: dir, opt->lua_path, root's lua/ and bots/ */
    const ScenarioOptions *opt;
    ScenarioResult *out;
    bool record; /* write the trace */

    Sandbox *sb;
    lua_State *L;
    int ref_core, ref_loaded, ref_spec, ref_ctx, ref_until;

    char where[SCEN_WHERE_MAX];   /* the scenario { } call */
    char map[SCEN_PATH_MAX];      /* as the scenario says */
    char map_path[SCEN_PATH_MAX]; /* where it was found */
    uint64_t seed;
    int hz;
    double time_limit;
    Until until;
    int runs;
    uint64_t instructions;
    size_t memory;

    char temp_brains[SCEN_MAX_TEMP_BRAINS][BRAIN_NAME_MAX];
    int ntemp;
    char work[SCEN_PATH_MAX]; /* made for temp_brains; "" when none */
    time_t stamp_base;
    int brain_writes;

    NavWorld *w;
    NavSession *s;
    NavSim *sim;
    NamedBot *names; /* by bot id */
    uint32_t nnames;
    ScenPlayer *players;
    int nplayers;
    /* select_bots' scratch: held here, not on the C stack, because a Lua
    ** call in between may fail for memory and unwind past it. */
    uint8_t *pick;
    Expect *ex;
    int nex;
    Event *ev;
    int nev;
    RunTraceWriter *trace;
    bool failed;
} Run;

/* }======= */

/* {======= shared between the files ======= */

bool scen_textf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void scen_log_line(Run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void scen_fail(Run *r, const char *where, const char *text, int bot, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void scen_copy_first_line(char *out, size_t cap, const char *text);
void scen_join_path(char *out, size_t cap, const char *root, const char *rel);
void scen_travel_names(uint32_t used, char *buf, size_t cap);
NavStatus scen_spec_error(NavError *err, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for an error that another module reported (cause): out of
** memory stays NAV_E_NOMEM, anything else is the scenario's format. */
NavStatus scen_spec_error_from(NavError *err, const NavError *cause, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool scen_resolve_place(lua_State *L, int idx, const NavWorld *w, float p[3], float *yaw, char *why, size_t cap);
bool scen_stamp_write(Run *r, const char *path);
bool scen_write_file(const char *path, const char *text, size_t n);
int scen_op_setup(lua_State *L);
bool scen_call_ref(Run *r, int ref, int nres, char *msg, size_t cap);
int scen_get_field(lua_State *L, int idx, const char *k);
bool scen_get_string(lua_State *L, int idx, const char *k, char *out, size_t cap);
bool scen_get_number(lua_State *L, int idx, const char *k, double *out);
bool scen_get_bool(lua_State *L, int idx, const char *k);
int scen_push_list(lua_State *L, int idx, const char *k);
/* A number field k of the table at idx, checked before it is converted:
** 0 when absent (*out untouched), 1 with *out set, -1 with err naming
** where, what and the field when it is not a number in [lo, hi] (whole
** for scen_get_whole; finite for scen_get_finite). */
int scen_get_whole(lua_State *L, int idx, const char *where, const char *what, const char *k, int64_t lo, int64_t hi,
                   int64_t *out, NavError *err);
int scen_get_finite(lua_State *L, int idx, const char *where, const char *what, const char *k, double lo, double hi,
                    double *out, NavError *err);
int scen_push_table_list(Run *r, int idx, const char *k, const char *what, NavError *err);
NavStatus scen_read_spec(Run *r, NavError *err);
NavStatus scen_make_work(Run *r, NavError *err);
void scen_remove_work(Run *r);
NavStatus scen_setup_bots(Run *r, NavError *err);
/* Name the bots scripts spawned since (nav.spawn): "spawned#ID", group
** "spawned", so reports can name them. False when out of memory. */
bool scen_name_spawned(Run *r);
NavStatus scen_setup_expectations(Run *r, NavError *err);
NavStatus scen_setup_events(Run *r, NavError *err);
void scen_compute_optimum(Run *r, Expect *x);
/* The player{} whose body is bot id, NULL when it is not a player's. */
const ScenPlayer *scen_player_of(const Run *r, uint32_t id);
void scen_simulate(Run *r);

/* }======= */

#endif

/*
** scenario.c — loading and running regression scenarios (scenario.h).
**
** The scenario file is Lua; lua/scenario.lua checks what it writes and
** hands back plain tables (each expectation, event and bot carrying
** `where`, the file:line it was written at). This file reads those
** tables, builds the world and the session, and keeps the expectations'
** state in C, so a check over 200 bots each tick costs no Lua. Free-form
** checks, event conditions and actions are Lua functions called under the
** sandbox's instruction budget.
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include "script/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "area/area.h"
#include "core/fileio.h"
#include "map/map.h"
#include "route/route.h"
#include "script/nav_api.h"
#include "script/run_trace.h"
#include "lua/sandbox.h"

/* {======= types ======= */

#define SCEN_PATH_MAX 1024
#define SCEN_WHERE_MAX 320
#define SCEN_MAX_TEMP_BRAINS 8
#define SCEN_MEMORY (256u << 20)           /* the scenario's own Lua state */
#define SCEN_INSTRUCTIONS 20000000ull      /* per call into the scenario's Lua: checks are small */
#define SCEN_FILE_MAX (4u << 20)
#define SCEN_DEFAULT_TIME 60.0
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

static const char *const EXPECT_NAMES[] = {
    "arrives", "near_optimal", "uses", "never_uses", "never_enters", "never_stuck",
    "no_faults", "faults", "no_overlap", "check",
};

typedef struct Expect {
    ExpectKind kind;
    char where[SCEN_WHERE_MAX];
    char text[256];
    uint32_t *bots;          /* ids it is about */
    int nbots;
    uint8_t *done;           /* per bot: met (arrives, faults, near_optimal) */
    double *optimum;         /* near_optimal: per bot, seconds; < 0 when there is no route */
    double within;           /* seconds; 0: the time limit */
    double factor;
    double longer;
    uint32_t travel;         /* NAV_TFL_TYPE bits */
    uint32_t area_flags;     /* NAV_AREA_* */
    uint32_t contents;       /* 1 << NavContents */
    uint32_t route_flags;
    char matching[128];
    int fn;                  /* check: registry ref */
    bool at_end;
} Expect;

typedef enum Trigger { TRIG_TIME, TRIG_TICK, TRIG_WHEN } Trigger;

typedef struct Event {
    Trigger trigger;
    double at;               /* seconds or ticks */
    int cond;                /* when: registry ref */
    int actions;             /* registry ref: the list of {text, fn, where} */
    char where[SCEN_WHERE_MAX];
    char text[256];
    bool fired;
} Event;

typedef struct NamedBot {
    char name[64];           /* "runner", "crowd#3" */
    char group[64];          /* its bot{}'s name */
} NamedBot;

typedef enum Until { UNTIL_ARRIVED, UNTIL_TIME, UNTIL_FUNCTION } Until;

typedef struct Run {
    const char *path;
    char *source;                      /* the file's text, for where() after a tail call */
    char dir[SCEN_PATH_MAX];           /* the scenario file's folder */
    char root[SCEN_PATH_MAX];
    char lib_prefix[SCEN_PATH_MAX];    /* "@lua/": frames where() skips */
    const ScenarioOptions *opt;
    ScenarioResult *out;
    bool record;                       /* write the trace */

    Sandbox *sb;
    lua_State *L;
    int ref_core, ref_loaded, ref_spec, ref_ctx, ref_until;

    char where[SCEN_WHERE_MAX];        /* the scenario { } call */
    char map[SCEN_PATH_MAX];
    uint64_t seed;
    int hz;
    double time_limit;
    Until until;
    int runs;
    uint64_t instructions;
    size_t memory;

    char temp_brains[SCEN_MAX_TEMP_BRAINS][BRAIN_NAME_MAX];
    int ntemp;
    char work[SCEN_PATH_MAX];          /* made for temp_brains; "" when none */
    time_t stamp_base;
    int brain_writes;

    NavWorld *w;
    NavSession *s;
    NavSim *sim;
    NamedBot *names;                   /* by bot id */
    uint32_t nnames;
    Expect *ex;
    int nex;
    Event *ev;
    int nev;
    RunTraceWriter *trace;
    bool failed;
} Run;

/* }======= */

/* {======= small helpers ======= */

static bool textf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* snprintf for paths and messages: false when the text did not fit (it
** is cut, never overrun). */
static bool textf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < cap;
}

static void copy_first_line(char *out, size_t cap, const char *text)
{
    size_t n = strcspn(text, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

static void join_path(char *out, size_t cap, const char *root, const char *rel)
{
    if (rel[0] == '/' || strcmp(root, ".") == 0) snprintf(out, cap, "%s", rel);
    else textf(out, cap, "%s/%s", root, rel);
}

static void log_line(Run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Into the result's ring of the last lines: what happened before a failure. */
static void log_line(Run *r, const char *fmt, ...)
{
    ScenarioResult *o = r->out;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (o->log_count == SCENARIO_LOG_LINES) {
        memmove(o->log[0], o->log[1], (SCENARIO_LOG_LINES - 1) * sizeof o->log[0]);
        o->log_count--;
    }
    copy_first_line(o->log[o->log_count++], sizeof o->log[0], buf);
}

static void session_log(void *user, const char *line)
{
    Run *r = user;
    log_line(r, "%.2f s  %s", r->sim ? sim_time(r->sim) : 0.0, line);
}

static void travel_names(uint32_t used, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        if (!(used & NAV_TFL_TYPE(t))) continue;
        int k = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", area_travel_name((NavTravelType)t));
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
    if (!n) snprintf(buf, cap, "none");
}

/* }======= */

/* {======= failures ======= */

/* Everything the report says about a bot at this moment. */
static void bot_state(Run *r, uint32_t id, char *out, size_t cap)
{
    const NavBot *b = sim_bot(r->sim, id);
    char used[256], body[128] = "";
    travel_names(b->travel_used, used, sizeof used);
    size_t n = 0;
    const struct { bool on; const char *what; } flags[] = {
        { b->on_ground, "on ground" }, { b->in_water, "in water" }, { b->on_ladder, "on a ladder" },
        { b->crouched, "crouched" },   { b->climbing, "climbing" },  { b->riding >= 0, "riding an elevator" },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(flags); k++)
        if (flags[k].on) n += (size_t)snprintf(body + n, sizeof body - n, "%s%s", n ? ", " : "", flags[k].what);
    if (!n) snprintf(body, sizeof body, "in the air");
    int k = snprintf(out, cap,
                     "%s (bot %u, brain %s, class %s) at (%.2f, %.2f, %.2f), %s; says \"%s\"; goals %d reached, "
                     "%d left, %d skipped; travel used: %s; stuck %.1f s (%.1f s in all)",
                     r->names[id].name, id, *session_bot_brain(r->s, id) ? session_bot_brain(r->s, id) : "none",
                     world_class(r->w, b->cls)->name, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2], body,
                     b->say, b->goals_reached, b->goal_count, b->goals_skipped, used, (double)b->stuck_time,
                     b->stuck_total);
    const char *e = session_bot_error(r->s, id);
    if (e && k > 0 && (size_t)k < cap) {
        char first[512];
        copy_first_line(first, sizeof first, e);
        snprintf(out + k, cap - (size_t)k, "; faulted: %s", first);
    }
}

static void fail(Run *r, const char *where, const char *text, int bot, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The first failure ends the run: filled in, reported to on_failure with
** the session as it is now. */
static void fail(Run *r, const char *where, const char *text, int bot, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = true;
    ScenarioFailure *f = &r->out->failure;
    memset(f, 0, sizeof *f);
    snprintf(f->expectation, sizeof f->expectation, "%s: %s", where, text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    f->bot = bot;
    f->tick = r->sim ? sim_tick(r->sim) : 0;
    f->time = r->sim ? sim_time(r->sim) : 0.0;
    if (bot >= 0) {
        snprintf(f->bot_name, sizeof f->bot_name, "%s", r->names[bot].name);
        bot_state(r, (uint32_t)bot, f->bot_state, sizeof f->bot_state);
    }
    if (r->opt->on_failure && r->s) r->opt->on_failure(r->opt->user, r->s, f);
}

/* }======= */

/* {======= the scenario's Lua: require and scenario.core ======= */

static Run *run_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static bool valid_module_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= BRAIN_NAME_MAX || name[0] == '.' || name[n - 1] == '.' || strstr(name, "..")) return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
            return false;
    }
    return true;
}

/* require NAME: "scenario.core", else ROOT/lua/NAME.lua, else NAME.lua
** beside the scenario file; once each. */
static int scen_require(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    if (strcmp(name, "scenario.core") == 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_core);
        return 1;
    }
    if (!valid_module_name(name))
        return luaL_error(L, "require '%s': only letters, digits, '_' and '.' between folders", name);
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_loaded); /* 2 */
    if (lua_getfield(L, 2, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    char rel[BRAIN_NAME_MAX + 8], path[SCEN_PATH_MAX], tried[SCEN_PATH_MAX];
    snprintf(rel, sizeof rel, "%s.lua", name);
    for (char *p = rel; p < rel + strlen(name); p++)
        if (*p == '.') *p = '/';
    char lua_dir[SCEN_PATH_MAX];
    join_path(lua_dir, sizeof lua_dir, r->root, "lua");
    textf(path, sizeof path, "%s/%s", lua_dir, rel);
    snprintf(tried, sizeof tried, "%s", path);
    struct stat st;
    if (stat(path, &st) != 0) {
        textf(path, sizeof path, "%s/%s", r->dir, rel);
        if (stat(path, &st) != 0) return luaL_error(L, "module '%s' not found: no %s or %s", name, tried, path);
    }
    char *buf;
    size_t n;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(path, SCEN_FILE_MAX, &buf, &n, &e)))
        return luaL_error(L, "require '%s': %s: %s", name, path, e.message);
    char chunk[SCEN_PATH_MAX + 1];
    snprintf(chunk, sizeof chunk, "@%s", path);
    int rc = luaL_loadbufferx(L, buf, n, chunk, "t");
    free(buf);
    if (rc != LUA_OK) return lua_error(L);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, 2, name);
    return 1;
}

/* The first line of the scenario file where `key =` is written (a table
** field), or, with no key, where `scenario {` or `scenario(` is; 0 if none. */
static int source_line(const Run *r, const char *key)
{
    if (!r->source) return 0;
    size_t k = key ? strlen(key) : 0;
    int line = 1;
    for (const char *p = r->source; *p; line++) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        for (size_t i = 0; i < n; i++) {
            const char *q = p + i;
            if (key) {
                bool start = i == 0 || !(isalnum((unsigned char)q[-1]) || q[-1] == '_');
                if (!start || n - i < k || strncmp(q, key, k) != 0) continue;
                const char *after = q + k;
                while (after < p + n && (*after == ' ' || *after == '\t')) after++;
                if (after < p + n && *after == '=' && (after + 1 >= p + n || after[1] != '=')) return line;
            } else if (n - i >= 8 && strncmp(q, "scenario", 8) == 0) {
                const char *after = q + 8;
                while (after < p + n && (*after == ' ' || *after == '\t')) after++;
                if (after < p + n && (*after == '{' || *after == '(')) return line;
            }
        }
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* core.where([key]): "file:line" of the innermost frame outside lua/, so
** the library's messages name the scenario file's line. `return
** S.scenario { ... }` is a tail call, which leaves no frame of the file:
** then the line is found in its text (where `key =` is written, else the
** scenario call). */
static int core_where(lua_State *L)
{
    Run *r = run_of(L);
    const char *key = luaL_optstring(L, 1, NULL);
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        if (strncmp(ar.source, r->lib_prefix, strlen(r->lib_prefix)) == 0) continue;
        const char *src = ar.source[0] == '@' ? ar.source + 1 : ar.short_src;
        lua_pushfstring(L, "%s:%d", src, ar.currentline);
        return 1;
    }
    int line = key ? source_line(r, key) : 0;
    if (!line) line = source_line(r, NULL);
    if (line) lua_pushfstring(L, "%s:%d", r->path, line);
    else lua_pushstring(L, r->path);
    return 1;
}

/* core.ids(name): the ids of a bot, of a group, or of every bot ("*"). */
static int core_ids(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    lua_newtable(L);
    int n = 0;
    for (uint32_t i = 0; i < r->nnames; i++) {
        if (strcmp(name, "*") == 0 || strcmp(name, r->names[i].name) == 0 || strcmp(name, r->names[i].group) == 0) {
            lua_pushinteger(L, i);
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

/* core.names(): bots and groups by name, each once, in bot order. */
static int core_names(lua_State *L)
{
    Run *r = run_of(L);
    lua_newtable(L);
    int n = 0;
    for (uint32_t i = 0; i < r->nnames; i++) {
        if (i > 0 && strcmp(r->names[i].group, r->names[i - 1].group) == 0) continue;
        lua_pushstring(L, r->names[i].group);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static uint32_t check_id(lua_State *L, Run *r, int arg)
{
    lua_Integer id = luaL_checkinteger(L, arg);
    luaL_argcheck(L, id >= 0 && (lua_Integer)id < (lua_Integer)r->nnames, arg, "no such bot");
    return (uint32_t)id;
}

/* core.info(id): the engine's view of a bot beyond nav.Bot. */
static int core_info(lua_State *L)
{
    Run *r = run_of(L);
    uint32_t id = check_id(L, r, 1);
    const NavBot *b = sim_bot(r->sim, id);
    lua_createtable(L, 0, 14);
    lua_pushstring(L, r->names[id].name), lua_setfield(L, -2, "name");
    lua_pushinteger(L, id), lua_setfield(L, -2, "id");
    lua_pushstring(L, session_bot_brain(r->s, id)), lua_setfield(L, -2, "brain");
    lua_pushstring(L, b->say), lua_setfield(L, -2, "say");
    lua_pushboolean(L, session_bot_faulted(r->s, id)), lua_setfield(L, -2, "faulted");
    const char *e = session_bot_error(r->s, id);
    if (e) lua_pushstring(L, e), lua_setfield(L, -2, "error");
    lua_pushboolean(L, sim_bot_arrived(r->sim, id)), lua_setfield(L, -2, "arrived");
    lua_pushinteger(L, b->goal_count), lua_setfield(L, -2, "goals_left");
    lua_pushinteger(L, b->goals_reached), lua_setfield(L, -2, "goals_reached");
    lua_pushinteger(L, b->goals_skipped), lua_setfield(L, -2, "goals_skipped");
    if (b->arrival_time >= 0.0) lua_pushnumber(L, b->arrival_time), lua_setfield(L, -2, "arrival_time");
    lua_pushnumber(L, b->stuck_total), lua_setfield(L, -2, "stuck_total");
    lua_newtable(L);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        if (!(b->travel_used & NAV_TFL_TYPE(t))) continue;
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, area_travel_name((NavTravelType)t));
    }
    lua_setfield(L, -2, "travel");
    return 1;
}

/* An entity's spot: the middle of its box's floor. */
static void entity_spot(const NavEntity *en, float p[3])
{
    p[0] = 0.5f * (en->mins[0] + en->maxs[0]);
    p[1] = 0.5f * (en->mins[1] + en->maxs[1]);
    p[2] = en->mins[2];
}

/* A place: an entity's name, or {x, y [, z]} (no z: the highest floor
** there). False with why filled when it names nothing. */
static bool resolve_place(lua_State *L, int idx, const NavWorld *w, float p[3], float *yaw, char *why, size_t cap)
{
    if (yaw) *yaw = 0.0f;
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        int e = world_find_entity(w, name);
        if (e < 0) {
            snprintf(why, cap, "no entity '%s' in %s", name, world_source(w));
            return false;
        }
        entity_spot(world_entity(w, e), p);
        if (yaw) *yaw = world_entity(w, e)->yaw;
        return true;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        snprintf(why, cap, "a place is an entity's name or {x, y [, z]}");
        return false;
    }
    idx = lua_absindex(L, idx);
    bool has_z = false;
    for (int k = 0; k < 3; k++) {
        int t = lua_rawgeti(L, idx, k + 1);
        if (t == LUA_TNUMBER) {
            p[k] = (float)lua_tonumber(L, -1);
            if (!isfinite(p[k])) t = LUA_TNIL;
            if (k == 2) has_z = true;
        }
        lua_pop(L, 1);
        if (t != LUA_TNUMBER && !(k == 2 && t == LUA_TNIL)) {
            snprintf(why, cap, "a place is an entity's name or {x, y [, z]} with finite numbers");
            return false;
        }
    }
    if (!has_z) {
        const NavFloor *f = world_floor_at(w, p[0], p[1], 1e6f, 1e6f);
        if (!f || !isfinite(f->z)) {
            snprintf(why, cap, "no floor at (%.2f, %.2f) in %s", (double)p[0], (double)p[1], world_source(w));
            return false;
        }
        p[2] = f->z;
    }
    return true;
}

static int core_point(lua_State *L)
{
    Run *r = run_of(L);
    float p[3];
    char why[256];
    if (!resolve_place(L, 1, r->w, p, NULL, why, sizeof why)) return luaL_error(L, "%s", why);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, p[k]);
    return 3;
}

static int core_hold_elevator(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    int e = world_find_entity(r->w, name);
    if (e < 0 || !sim_elevator_hold(r->sim, e, lua_toboolean(L, 2)))
        return luaL_error(L, "no elevator '%s' in %s", name, world_source(r->w));
    return 0;
}

static int core_fault(lua_State *L)
{
    Run *r = run_of(L);
    uint32_t id = check_id(L, r, 1);
    const char *msg = luaL_optstring(L, 2, "fault injected by the scenario");
    lua_pushboolean(L, session_bot_fault(r->s, id, msg));
    return 1;
}

static int core_reload(lua_State *L)
{
    Run *r = run_of(L);
    lua_pushinteger(L, session_reload_changed(r->s));
    return 1;
}

/* The temporary copy of brain NAME; errors unless it is in temp_brains. */
static void temp_brain_path(lua_State *L, Run *r, const char *name, char *out, size_t cap)
{
    for (int i = 0; i < r->ntemp; i++) {
        if (strcmp(r->temp_brains[i], name) == 0) {
            textf(out, cap, "%s/bots/%s.lua", r->work, name);
            return;
        }
    }
    luaL_error(L, "brain '%s' is not in this scenario's temp_brains: only those copies can be rewritten", name);
}

/* Every write gets a later modification time than the one before, so the
** reload sees the change however fast the rewrite follows. */
static bool stamp_write(Run *r, const char *path)
{
    struct timespec t[2];
    t[0].tv_sec = t[1].tv_sec = r->stamp_base + ++r->brain_writes;
    t[0].tv_nsec = t[1].tv_nsec = 0;
    return utimensat(AT_FDCWD, path, t, 0) == 0;
}

static bool write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static int core_write_brain(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    size_t n;
    const char *text = luaL_checklstring(L, 2, &n);
    char path[SCEN_PATH_MAX];
    temp_brain_path(L, r, name, path, sizeof path);
    if (!write_file(path, text, n) || !stamp_write(r, path))
        return luaL_error(L, "write_brain: cannot write %s: %s", path, strerror(errno));
    log_line(r, "%.2f s  wrote %s (%zu bytes)", sim_time(r->sim), path, n);
    return 0;
}

static int core_read_brain(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    char path[SCEN_PATH_MAX];
    temp_brain_path(L, r, name, path, sizeof path);
    char *buf;
    size_t n;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(path, SCEN_FILE_MAX, &buf, &n, &e))) return luaL_error(L, "read_brain: %s", e.message);
    lua_pushlstring(L, buf, n);
    free(buf);
    return 1;
}

static int core_log(lua_State *L)
{
    Run *r = run_of(L);
    log_line(r, "%.2f s  %s", r->sim ? sim_time(r->sim) : 0.0, luaL_checkstring(L, 1));
    return 0;
}

static const luaL_Reg CORE[] = {
    { "where", core_where },       { "ids", core_ids },           { "names", core_names },
    { "info", core_info },         { "point", core_point },       { "hold_elevator", core_hold_elevator },
    { "fault", core_fault },       { "reload", core_reload },     { "write_brain", core_write_brain },
    { "read_brain", core_read_brain }, { "log", core_log },       { NULL, NULL },
};

/* In protected mode: the require function, the core module, the cache. */
static int op_setup(lua_State *L)
{
    Run *r = lua_touserdata(L, 1);
    lua_newtable(L);
    lua_pushlightuserdata(L, r);
    luaL_setfuncs(L, CORE, 1);
    r->ref_core = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    r->ref_loaded = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushlightuserdata(L, r);
    lua_pushcclosure(L, scen_require, 1);
    lua_setglobal(L, "require");
    return 0;
}

/* Calls the function at ref with the context (sc) as its argument, under
** the budget; leaves nres results. On failure, msg gets the error's first
** line. */
static bool call_ref(Run *r, int ref, int nres, char *msg, size_t cap)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_ctx);
    NavError e;
    nav_error_clear(&e);
    if (NAV_SUCCEEDED(sandbox_call(r->sb, 1, nres, &e))) return true;
    copy_first_line(msg, cap, e.message);
    return false;
}

/* }======= */

/* {======= reading the scenario's tables ======= */

/* Field k of the table at idx as a string into out; false when absent. */
static bool get_string(lua_State *L, int idx, const char *k, char *out, size_t cap)
{
    bool ok = lua_getfield(L, idx, k) == LUA_TSTRING;
    if (ok) snprintf(out, cap, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return ok;
}

static bool get_number(lua_State *L, int idx, const char *k, double *out)
{
    bool ok = lua_getfield(L, idx, k) == LUA_TNUMBER;
    if (ok) *out = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return ok;
}

static bool get_bool(lua_State *L, int idx, const char *k)
{
    lua_getfield(L, idx, k);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* A list field: pushed (a table) and its length, or 0 with nil pushed. */
static int push_list(lua_State *L, int idx, const char *k)
{
    if (lua_getfield(L, idx, k) != LUA_TTABLE) return 0;
    return (int)luaL_len(L, -1);
}

static NavStatus spec_error(NavError *err, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "file:line: message", the file and line kept in err as well. */
static NavStatus spec_error(NavError *err, const char *where, const char *fmt, ...)
{
    char msg[512], file[256] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0;
    const char *colon = strrchr(where, ':');
    if (colon) {
        line = atoi(colon + 1);
        size_t n = (size_t)(colon - where);
        if (n >= sizeof file) n = sizeof file - 1;
        memcpy(file, where, n);
        file[n] = '\0';
    }
    return nav_error_set(err, NAV_E_FORMAT, file, line, 0, NULL, "%s: %s", where, msg);
}

static NavStatus read_spec(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    if (!get_string(L, t, "where", r->where, sizeof r->where)) snprintf(r->where, sizeof r->where, "%s", r->path);
    char s[256];
    if (get_string(L, t, "description", s, sizeof s))
        snprintf(r->out->description, sizeof r->out->description, "%s", s);
    if (!get_string(L, t, "map", r->map, sizeof r->map)) return spec_error(err, r->where, "scenario: no map");
    textf(r->out->map, sizeof r->out->map, "%s", r->map);
    double v;
    r->seed = get_number(L, t, "seed", &v) ? (uint64_t)v : 1;
    r->hz = get_number(L, t, "hz", &v) ? (int)v : SIM_DEFAULT_TICK_HZ;
    r->time_limit = get_number(L, t, "time_limit", &v) ? v : SCEN_DEFAULT_TIME;
    r->runs = get_number(L, t, "runs", &v) ? (int)v : 1;
    r->instructions = get_number(L, t, "instructions", &v) && v > 0 ? (uint64_t)v : 0;
    r->memory = get_number(L, t, "memory", &v) && v > 0 ? (size_t)v : 0;
    r->until = UNTIL_ARRIVED;
    int ut = lua_getfield(L, t, "until");
    if (ut == LUA_TFUNCTION) {
        r->until = UNTIL_FUNCTION;
        r->ref_until = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (ut == LUA_TSTRING && strcmp(lua_tostring(L, -1), "time") == 0) r->until = UNTIL_TIME;
        lua_pop(L, 1);
    }
    int n = push_list(L, t, "temp_brains");
    if (n > SCEN_MAX_TEMP_BRAINS) {
        lua_settop(L, t - 1);
        return spec_error(err, r->where, "scenario: at most %d temp_brains", SCEN_MAX_TEMP_BRAINS);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *name = lua_tostring(L, -1);
        if (!name || !valid_module_name(name) || strchr(name, '.')) {
            lua_settop(L, t - 1);
            return spec_error(err, r->where, "scenario: temp_brains[%d] is not a brain's name", i);
        }
        snprintf(r->temp_brains[r->ntemp++], BRAIN_NAME_MAX, "%s", name);
        lua_pop(L, 1);
    }
    lua_settop(L, t - 1);
    return NAV_OK;
}

/* }======= */

/* {======= setting up: temp brains, bots, expectations, events ======= */

static NavStatus make_work(Run *r, NavError *err)
{
    if (!r->ntemp) return NAV_OK;
    const char *base = r->opt->work_dir && *r->opt->work_dir ? r->opt->work_dir : "/tmp";
    snprintf(r->work, sizeof r->work, "%s/navbot-%s-XXXXXX", base, r->out->name);
    if (!mkdtemp(r->work)) {
        NavStatus st = nav_error_set(err, NAV_E_IO, r->work, 0, 0, NULL, "cannot make a folder for temp_brains: %s",
                                     strerror(errno));
        r->work[0] = '\0';
        return st;
    }
    char bots[SCEN_PATH_MAX];
    textf(bots, sizeof bots, "%s/bots", r->work);
    if (mkdir(bots, 0755) != 0)
        return nav_error_set(err, NAV_E_IO, bots, 0, 0, NULL, "cannot make the folder: %s", strerror(errno));
    r->stamp_base = time(NULL);
    for (int i = 0; i < r->ntemp; i++) {
        /* The brain as the session would find it without the copy. */
        char from[SCEN_PATH_MAX], root_bots[SCEN_PATH_MAX], to[SCEN_PATH_MAX];
        textf(from, sizeof from, "%s/bots/%s.lua", r->dir, r->temp_brains[i]);
        struct stat st;
        if (stat(from, &st) != 0) {
            join_path(root_bots, sizeof root_bots, r->root, "bots");
            textf(from, sizeof from, "%s/%s.lua", root_bots, r->temp_brains[i]);
        }
        char *buf;
        size_t n;
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(fileio_read(from, SCEN_FILE_MAX, &buf, &n, &e)))
            return spec_error(err, r->where, "temp_brains: brain '%s': no %s/bots/%s.lua nor %s", r->temp_brains[i],
                              r->dir, r->temp_brains[i], from);
        textf(to, sizeof to, "%s/bots/%s.lua", r->work, r->temp_brains[i]);
        bool ok = write_file(to, buf, n);
        free(buf);
        if (!ok || !stamp_write(r, to))
            return nav_error_set(err, NAV_E_IO, to, 0, 0, NULL, "cannot write: %s", strerror(errno));
    }
    return NAV_OK;
}

static void remove_work(Run *r)
{
    if (!r->work[0]) return;
    char path[SCEN_PATH_MAX];
    for (int i = 0; i < r->ntemp; i++) {
        textf(path, sizeof path, "%s/bots/%s.lua", r->work, r->temp_brains[i]);
        unlink(path);
    }
    textf(path, sizeof path, "%s/bots", r->work);
    rmdir(path);
    rmdir(r->work);
    r->work[0] = '\0';
}

static bool add_name(Run *r, const char *name, const char *group)
{
    NamedBot *nb = realloc(r->names, (r->nnames + 1) * sizeof *nb);
    if (!nb) return false;
    r->names = nb;
    snprintf(nb[r->nnames].name, sizeof nb[r->nnames].name, "%s", name);
    snprintf(nb[r->nnames].group, sizeof nb[r->nnames].group, "%s", group);
    r->nnames++;
    return true;
}

static bool name_taken(const Run *r, const char *name)
{
    for (uint32_t i = 0; i < r->nnames; i++)
        if (strcmp(r->names[i].name, name) == 0 || strcmp(r->names[i].group, name) == 0) return true;
    return false;
}

/* One bot{} at the top of the stack (index b): its bots placed, goals
** queued, brains attached. */
static NavStatus add_bots(Run *r, int b, int default_cls, NavError *err)
{
    lua_State *L = r->L;
    char where[SCEN_WHERE_MAX], name[64], brain[BRAIN_NAME_MAX] = "", cls_name[64];
    if (!get_string(L, b, "where", where, sizeof where)) snprintf(where, sizeof where, "%s", r->where);
    if (!get_string(L, b, "name", name, sizeof name)) snprintf(name, sizeof name, "bot");
    get_string(L, b, "brain", brain, sizeof brain);
    int cls = default_cls;
    if (get_string(L, b, "class", cls_name, sizeof cls_name) && (cls = world_find_class(r->w, cls_name)) < 0)
        return spec_error(err, where, "bot '%s': no class '%s' in %s", name, cls_name, r->map);
    if (name_taken(r, name))
        return spec_error(err, where, "bot '%s': the name is taken; give each bot{} its own name", name);
    double v;
    int count = get_number(L, b, "count", &v) ? (int)v : 1;
    if (count < 1 || count > SIM_MAX_BOTS) return spec_error(err, where, "bot '%s': count out of range", name);
    double goal_radius = get_number(L, b, "goal_radius", &v) ? v : 0.0;
    bool formation = get_bool(L, b, "formation");

    float at[3], yaw;
    char why[256];
    lua_getfield(L, b, "at");
    bool ok = resolve_place(L, -1, r->w, at, &yaw, why, sizeof why);
    lua_pop(L, 1);
    if (!ok) return spec_error(err, where, "bot '%s': at: %s", name, why);
    if (get_number(L, b, "yaw", &v)) yaw = (float)v;

    float goals[SIM_MAX_GOALS][3];
    int ngoals = push_list(L, b, "goals");
    if (ngoals > SIM_MAX_GOALS) {
        lua_pop(L, 1);
        return spec_error(err, where, "bot '%s': at most %d goals", name, SIM_MAX_GOALS);
    }
    for (int g = 0; g < ngoals; g++) {
        lua_rawgeti(L, -1, g + 1);
        ok = resolve_place(L, -1, r->w, goals[g], NULL, why, sizeof why);
        lua_pop(L, 1);
        if (!ok) {
            lua_pop(L, 1);
            return spec_error(err, where, "bot '%s': goals[%d]: %s", name, g + 1, why);
        }
    }
    lua_pop(L, 1);

    for (int k = 0; k < count; k++) {
        float pos[3];
        /* Rings enough for the whole group a body apart. */
        int rings = 11;
        while (1 + 4 * rings * (rings + 1) < 2 * count) rings++;
        if (!sim_place_free(r->sim, cls, at, rings, pos))
            return spec_error(err, where, "bot '%s': no room for a %s near (%.2f, %.2f, %.2f) (bot %d of %d)", name,
                              world_class(r->w, cls)->name, (double)at[0], (double)at[1], (double)at[2], k + 1, count);
        NavError e;
        nav_error_clear(&e);
        int id = session_add_bot(r->s, NULL, &(NavBotDesc){ .cls = cls, .pos = { pos[0], pos[1], pos[2] }, .yaw = yaw },
                                 &e);
        if (id < 0) return spec_error(err, where, "bot '%s': %s", name, e.message);
        char full[64];
        if (count == 1) snprintf(full, sizeof full, "%s", name);
        else textf(full, sizeof full, "%s#%d", name, k + 1);
        if (!add_name(r, full, name)) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
        for (int g = 0; g < ngoals; g++) {
            float p[3] = { goals[g][0], goals[g][1], goals[g][2] };
            if (formation) {
                /* Keep its place in the group: the goal moved as the bot
                ** stands from `at`, onto the nearest spot a body fits. */
                float want[3] = { p[0] + pos[0] - at[0], p[1] + pos[1] - at[1], p[2] }, got[3];
                if (sim_place_free(r->sim, cls, want, 6, got)) memcpy(p, got, sizeof p);
            }
            sim_bot_push_goal(r->sim, (uint32_t)id, p, (float)goal_radius);
        }
        /* Goals first, then the brain, so spawn() sees them. */
        if (brain[0]) session_attach_brain(r->s, (uint32_t)id, brain);
    }
    return NAV_OK;
}

static NavStatus setup_bots(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    char cls_name[64];
    int cls = 0;
    if (get_string(L, t, "class", cls_name, sizeof cls_name) && (cls = world_find_class(r->w, cls_name)) < 0) {
        lua_settop(L, t - 1);
        return spec_error(err, r->where, "scenario: no class '%s' in %s", cls_name, r->map);
    }
    int n = push_list(L, t, "bots");
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        NavStatus st = add_bots(r, lua_gettop(L), cls, err);
        lua_pop(L, 1);
        if (NAV_FAILED(st)) {
            lua_settop(L, t - 1);
            return st;
        }
    }
    lua_settop(L, t - 1);
    return NAV_OK;
}

/* The bots a selector list names (bots, groups, "*"), minus `except`. */
static NavStatus select_bots(Run *r, int list, int except, const char *where, Expect *x, NavError *err)
{
    lua_State *L = r->L;
    uint8_t *pick = calloc(r->nnames + 1, 1);
    if (!pick) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        int idx = pass ? except : list;
        if (!idx || lua_type(L, idx) != LUA_TTABLE) continue;
        int n = (int)luaL_len(L, idx);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, idx, i);
            const char *name = lua_tostring(L, -1);
            bool any = false;
            for (uint32_t b = 0; name && b < r->nnames; b++) {
                if (strcmp(name, "*") == 0 || strcmp(name, r->names[b].name) == 0 ||
                    strcmp(name, r->names[b].group) == 0) {
                    pick[b] = pass ? 0 : 1;
                    any = true;
                }
            }
            if (!any) {
                char known[512] = "";
                size_t k = 0;
                for (uint32_t b = 0; b < r->nnames && k < sizeof known - 64; b++) {
                    if (b > 0 && strcmp(r->names[b].group, r->names[b - 1].group) == 0) continue;
                    k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", r->names[b].group);
                }
                NavStatus st = spec_error(err, where, "%s: no bot or group named '%s' (bots: %s)", x->text,
                                          name ? name : "?", known);
                lua_pop(L, 1);
                free(pick);
                return st;
            }
            lua_pop(L, 1);
        }
    }
    x->bots = malloc((r->nnames + 1) * sizeof *x->bots);
    x->done = calloc(r->nnames + 1, 1);
    x->optimum = calloc(r->nnames + 1, sizeof *x->optimum);
    if (!x->bots || !x->done || !x->optimum) {
        free(pick);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    for (uint32_t b = 0; b < r->nnames; b++)
        if (pick[b]) x->bots[x->nbots++] = b;
    free(pick);
    return NAV_OK;
}

/* Names in the list field k of the table at idx, mapped to bits by fn. */
static NavStatus name_bits(Run *r, int idx, const char *k, const char *where, const char *what,
                           int (*fn)(const char *), uint32_t *bits, NavError *err)
{
    lua_State *L = r->L;
    int n = push_list(L, idx, k);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *name = lua_tostring(L, -1);
        int bit = name ? fn(name) : -1;
        lua_pop(L, 1);
        if (bit < 0) {
            lua_pop(L, 1);
            return spec_error(err, where, "%s: unknown %s '%s'", k, what, name ? name : "?");
        }
        *bits |= 1u << bit;
    }
    lua_pop(L, 1);
    return NAV_OK;
}

static int travel_bit(const char *name) { return area_travel_from_name(name); }

static int area_flag_bit(const char *name)
{
    static const struct { const char *name; uint32_t flag; } F[] = {
        { "ledge", NAV_AREA_LEDGE },   { "liquid", NAV_AREA_LIQUID }, { "lava", NAV_AREA_LAVA },
        { "slime", NAV_AREA_SLIME },   { "crouch", NAV_AREA_CROUCH }, { "ladder", NAV_AREA_LADDER },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(F); i++)
        if (strcmp(F[i].name, name) == 0) {
            int bit = 0;
            while (!(F[i].flag & (1u << bit))) bit++;
            return bit;
        }
    return -1;
}

static int contents_bit(const char *name)
{
    for (int c = 0; c < NAV_CONTENTS_COUNT; c++)
        if (strcmp(world_contents_name((NavContents)c), name) == 0) return c;
    return -1;
}

static int route_flag_bit(const char *name)
{
    uint32_t f = route_flag_of_name(name);
    if (!f || (f & (f - 1))) return -1;
    int bit = 0;
    while (!(f & (1u << bit))) bit++;
    return bit;
}

static NavStatus setup_expectations(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    int n = push_list(L, t, "expect");
    int list = lua_gettop(L);
    NavStatus st = NAV_OK;
    if (n > 0 && !(r->ex = calloc((size_t)n, sizeof *r->ex))) st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
    for (int i = 1; i <= n && NAV_SUCCEEDED(st); i++) {
        lua_rawgeti(L, list, i);
        int e = lua_gettop(L);
        Expect *x = &r->ex[r->nex++];
        x->fn = LUA_NOREF;
        char kind[32] = "";
        if (!get_string(L, e, "where", x->where, sizeof x->where)) snprintf(x->where, sizeof x->where, "%s", r->where);
        get_string(L, e, "text", x->text, sizeof x->text);
        get_string(L, e, "kind", kind, sizeof kind);
        int k = -1;
        for (size_t j = 0; j < NAV_ARRAY_COUNT(EXPECT_NAMES); j++)
            if (strcmp(kind, EXPECT_NAMES[j]) == 0) k = (int)j;
        if (k < 0) {
            st = spec_error(err, x->where, "expect[%d]: unknown expectation '%s'", i, kind);
            break;
        }
        x->kind = (ExpectKind)k;
        double v;
        if (get_number(L, e, "within", &v)) x->within = v;
        if (get_number(L, e, "factor", &v)) x->factor = v;
        if (get_number(L, e, "longer", &v)) x->longer = v;
        get_string(L, e, "matching", x->matching, sizeof x->matching);
        x->at_end = get_bool(L, e, "at_end");
        if (x->kind == EX_CHECK) {
            if (lua_getfield(L, e, "fn") == LUA_TFUNCTION) x->fn = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_pop(L, 1);
        }
        st = name_bits(r, e, "types", x->where, "travel type", travel_bit, &x->travel, err);
        if (NAV_SUCCEEDED(st)) st = name_bits(r, e, "flags", x->where, x->kind == EX_NEAR_OPTIMAL ? "travel flag" : "area flag",
                                          x->kind == EX_NEAR_OPTIMAL ? route_flag_bit : area_flag_bit,
                                          x->kind == EX_NEAR_OPTIMAL ? &x->route_flags : &x->area_flags, err);
        if (NAV_SUCCEEDED(st)) st = name_bits(r, e, "contents", x->where, "contents", contents_bit, &x->contents, err);
        if (x->kind == EX_NEAR_OPTIMAL && !x->route_flags) x->route_flags = NAV_TFL_DEFAULT;
        if (NAV_SUCCEEDED(st)) {
            lua_getfield(L, e, "bots");
            lua_getfield(L, e, "except");
            st = select_bots(r, e + 1, e + 2, x->where, x, err);
        }
        lua_settop(L, list);
    }
    lua_settop(L, t - 1);
    return st;
}

static NavStatus setup_events(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    int n = push_list(L, t, "events");
    int list = lua_gettop(L);
    if (n > 0 && !(r->ev = calloc((size_t)n, sizeof *r->ev))) {
        lua_settop(L, t - 1);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        int e = lua_gettop(L);
        Event *x = &r->ev[r->nev++];
        x->cond = x->actions = LUA_NOREF;
        if (!get_string(L, e, "where", x->where, sizeof x->where)) snprintf(x->where, sizeof x->where, "%s", r->where);
        get_string(L, e, "text", x->text, sizeof x->text);
        char trig[16] = "";
        get_string(L, e, "trigger", trig, sizeof trig);
        x->trigger = strcmp(trig, "tick") == 0 ? TRIG_TICK : strcmp(trig, "when") == 0 ? TRIG_WHEN : TRIG_TIME;
        if (x->trigger == TRIG_WHEN) {
            if (lua_getfield(L, e, "value") == LUA_TFUNCTION) x->cond = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_pop(L, 1);
        } else {
            get_number(L, e, "value", &x->at);
        }
        if (lua_getfield(L, e, "actions") == LUA_TTABLE) x->actions = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
        lua_settop(L, list);
        if (x->actions == LUA_NOREF || (x->trigger == TRIG_WHEN && x->cond == LUA_NOREF)) {
            lua_settop(L, t - 1);
            return spec_error(err, x->where, "events[%d]: not an event made by scenario.at, .at_tick or .when", i);
        }
    }
    lua_settop(L, t - 1);
    return NAV_OK;
}

/* Route time from p to q for class cls, seconds; < 0 when there is none. */
static double route_seconds(Run *r, int cls, const float p[3], const float q[3], uint32_t flags)
{
    NavError e;
    nav_error_clear(&e);
    NavRouter *rt = sim_router(r->sim, cls, &e);
    if (!rt) return -1.0;
    const NavAreaGraph *ag = router_graph(rt);
    float snap[3];
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    if (a == NAV_NO_AREA) a = area_nearest_area(ag, p[0], p[1], p[2], 2.0f, snap);
    uint32_t b = area_point_area(ag, q[0], q[1], q[2]);
    if (b == NAV_NO_AREA) b = area_nearest_area(ag, q[0], q[1], q[2], 2.0f, snap);
    if (a == NAV_NO_AREA || b == NAV_NO_AREA) return -1.0;
    /* A route's time ends on entering the goal's area; crossing that area
    ** to the goal itself is part of getting there. */
    uint32_t links[4096];
    NavRoute route = { .time = ROUTE_UNREACHABLE };
    int n = router_route_links(rt, a, p, b, flags, links, (int)NAV_ARRAY_COUNT(links), &route);
    if (n < 0 || route.time == ROUTE_UNREACHABLE) return -1.0;
    if (n == 0) return area_time_between(ag, a, p, q) / 100.0;
    if (n > (int)NAV_ARRAY_COUNT(links)) return route.time / 100.0; /* too long to list: without the last part */
    const NavReach *last = area_reach(ag, links[n - 1]);
    return (route.time + area_time_between(ag, b, last->end, q)) / 100.0;
}

/* near_optimal: the routed optimum from where each bot starts through its
** goals in order (after spawn, so goals a brain queued count). */
static void compute_optimum(Run *r, Expect *x)
{
    for (int i = 0; i < x->nbots; i++) {
        const NavBot *b = sim_bot(r->sim, x->bots[i]);
        double total = 0.0;
        const float *from = b->pos;
        for (int g = 0; g < b->goal_count && total >= 0.0; g++) {
            double leg = route_seconds(r, b->cls, from, b->goals[g], x->route_flags);
            total = leg < 0.0 ? -1.0 : total + leg;
            from = b->goals[g];
        }
        x->optimum[i] = b->goal_count ? total : -1.0;
    }
}

/* }======= */

/* {======= running: events, expectations each tick and at the end ======= */

static void run_actions(Run *r, Event *x)
{
    lua_State *L = r->L;
    log_line(r, "%.2f s  %s (%s)", sim_time(r->sim), x->text, x->where);
    lua_rawgeti(L, LUA_REGISTRYINDEX, x->actions);
    int list = lua_gettop(L);
    int n = (int)luaL_len(L, list);
    for (int i = 1; i <= n && !r->failed; i++) {
        lua_rawgeti(L, list, i);
        char text[128] = "action", where[SCEN_WHERE_MAX];
        get_string(L, -1, "text", text, sizeof text);
        if (!get_string(L, -1, "where", where, sizeof where)) snprintf(where, sizeof where, "%s", x->where);
        lua_getfield(L, -1, "fn");
        lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_ctx);
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(sandbox_call(r->sb, 1, 0, &e))) {
            char msg[512];
            copy_first_line(msg, sizeof msg, e.message);
            fail(r, x->where, x->text, -1, "the action '%s' (%s) failed: %s", text, where, msg);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, list - 1);
}

static void fire_events(Run *r)
{
    for (int i = 0; i < r->nev && !r->failed; i++) {
        Event *x = &r->ev[i];
        if (x->fired) continue;
        bool due = false;
        if (x->trigger == TRIG_TIME) due = sim_time(r->sim) + 1e-9 >= x->at;
        else if (x->trigger == TRIG_TICK) due = (double)sim_tick(r->sim) >= x->at;
        else {
            char msg[512];
            if (!call_ref(r, x->cond, 1, msg, sizeof msg)) {
                fail(r, x->where, x->text, -1, "the condition failed: %s", msg);
                return;
            }
            due = lua_toboolean(r->L, -1);
            lua_pop(r->L, 1);
        }
        if (!due) continue;
        x->fired = true;
        run_actions(r, x);
    }
}

/* Bot a's and b's bodies overlap (by more than a hair). */
static bool overlap(const NavSim *sim, const NavBot *a, const NavBot *b)
{
    float alo[3], ahi[3], blo[3], bhi[3];
    sim_bot_box(sim, a, alo, ahi);
    sim_bot_box(sim, b, blo, bhi);
    for (int k = 0; k < 3; k++)
        if (a->pos[k] + ahi[k] <= b->pos[k] + blo[k] + SCEN_OVERLAP_EPS ||
            b->pos[k] + bhi[k] <= a->pos[k] + alo[k] + SCEN_OVERLAP_EPS)
            return false;
    return true;
}

static double deadline(const Run *r, const Expect *x)
{
    return x->within > 0.0 ? x->within : r->time_limit;
}

/* A free-form check: true when it held. */
static bool run_check(Run *r, Expect *x)
{
    lua_State *L = r->L;
    char msg[512];
    int top = lua_gettop(L);
    if (!call_ref(r, x->fn, 3, msg, sizeof msg)) {
        fail(r, x->where, x->text, -1, "the check raised an error: %s", msg);
        return false;
    }
    bool ok = lua_isnil(L, top + 1) || lua_toboolean(L, top + 1);
    if (!ok) {
        const char *m = lua_tostring(L, top + 2);
        int bot = -1;
        if (lua_type(L, top + 3) == LUA_TSTRING) {
            for (uint32_t b = 0; b < r->nnames; b++)
                if (strcmp(r->names[b].name, lua_tostring(L, top + 3)) == 0) bot = (int)b;
        } else if (lua_isinteger(L, top + 3) && lua_tointeger(L, top + 3) >= 0 &&
                   lua_tointeger(L, top + 3) < (lua_Integer)r->nnames) {
            bot = (int)lua_tointeger(L, top + 3);
        }
        fail(r, x->where, x->text, bot, "%s", m ? m : "the check returned false");
    }
    lua_settop(L, top);
    return ok;
}

static void check_tick(Run *r, Expect *x)
{
    NavSim *sim = r->sim;
    double now = sim_time(sim);
    for (int i = 0; i < x->nbots && !r->failed; i++) {
        uint32_t id = x->bots[i];
        const NavBot *b = sim_bot(sim, id);
        switch (x->kind) {
        case EX_ARRIVES:
            if (x->done[i]) break;
            if (sim_bot_arrived(sim, id)) x->done[i] = 1;
            else if (now > deadline(r, x) + 1e-9)
                fail(r, x->where, x->text, (int)id, "not arrived after %.2f s (%d goals reached, %d left)", now,
                     b->goals_reached, b->goal_count);
            break;
        case EX_NEAR_OPTIMAL: {
            if (x->done[i]) break;
            double opt = x->optimum[i], allowed = opt * x->factor;
            if (opt < 0.0) {
                fail(r, x->where, x->text, (int)id, "no routed optimum: no route from its start through its goals");
            } else if (sim_bot_arrived(sim, id)) {
                x->done[i] = 1;
                if (b->arrival_time > allowed + 1e-9)
                    fail(r, x->where, x->text, (int)id,
                         "arrived after %.2f s; the routed optimum is %.2f s, so %.2fx, over the %gx allowed",
                         b->arrival_time, opt, opt > 0 ? b->arrival_time / opt : 0.0, x->factor);
            } else if (now > allowed + 1e-9) {
                fail(r, x->where, x->text, (int)id,
                     "not arrived after %.2f s: %gx the routed optimum of %.2f s (%d goals reached, %d left)", now,
                     x->factor, opt, b->goals_reached, b->goal_count);
            }
            break;
        }
        case EX_NEVER_USES:
            if (b->travel_used & x->travel) {
                char names[256];
                travel_names(b->travel_used & x->travel, names, sizeof names);
                fail(r, x->where, x->text, (int)id, "used %s", names);
            }
            break;
        case EX_NEVER_ENTERS: {
            NavAreaGraph *ag = sim_graph(sim, b->cls, NULL);
            uint32_t a = ag ? area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]) : NAV_NO_AREA;
            if (a == NAV_NO_AREA) break;
            const NavArea *ar = area_get(ag, a);
            /* A body whose feet are above a liquid's surface stands on the
            ** bank beside it, its centre just over the edge: not in it. */
            bool liquid = ar->flags & (NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME);
            if (liquid && b->pos[2] >= ar->zmax - 0.01f) break;
            if ((ar->flags & x->area_flags) || (x->contents & (1u << ar->contents)))
                fail(r, x->where, x->text, (int)id, "entered area %u (%s%s%s%s%s%s)", a,
                     world_contents_name((NavContents)ar->contents), ar->flags & NAV_AREA_LEDGE ? ", ledge" : "",
                     ar->flags & NAV_AREA_LIQUID ? ", liquid" : "", ar->flags & NAV_AREA_CROUCH ? ", crouch" : "",
                     ar->flags & NAV_AREA_LADDER ? ", ladder" : "",
                     ar->flags & (NAV_AREA_LAVA | NAV_AREA_SLIME) ? ", hurts" : "");
            break;
        }
        case EX_NEVER_STUCK:
            if (b->stuck_time > x->longer)
                fail(r, x->where, x->text, (int)id, "stuck for %.2f s (wishing to move without moving)",
                     (double)b->stuck_time);
            break;
        case EX_NO_FAULTS:
            if (session_bot_faulted(r->s, id)) {
                char first[512];
                copy_first_line(first, sizeof first, session_bot_error(r->s, id));
                fail(r, x->where, x->text, (int)id, "faulted: %s", first);
            }
            break;
        case EX_FAULTS:
            if (x->done[i]) break;
            if (session_bot_faulted(r->s, id)) {
                const char *e = session_bot_error(r->s, id);
                if (x->matching[0] && !strstr(e, x->matching)) {
                    char first[512];
                    copy_first_line(first, sizeof first, e);
                    fail(r, x->where, x->text, (int)id, "faulted, but with '%s' (expected it to mention '%s')", first,
                         x->matching);
                }
                x->done[i] = 1;
            } else if (x->within > 0.0 && now > x->within + 1e-9) {
                fail(r, x->where, x->text, (int)id, "has not faulted after %.2f s", now);
            }
            break;
        default:
            break;
        }
    }
    if (r->failed) return;
    if (x->kind == EX_NO_OVERLAP) {
        uint32_t n = sim_bot_count(sim);
        for (uint32_t i = 0; i < n && !r->failed; i++) {
            const NavBot *a = sim_bot(sim, i);
            for (uint32_t j = i + 1; j < n; j++) {
                const NavBot *b = sim_bot(sim, j);
                if (fabsf(a->pos[0] - b->pos[0]) > 4.0f || fabsf(a->pos[1] - b->pos[1]) > 4.0f) continue;
                if (!overlap(sim, a, b)) continue;
                fail(r, x->where, x->text, (int)i, "%s and %s overlap: at (%.3f, %.3f, %.3f) and (%.3f, %.3f, %.3f)",
                     r->names[i].name, r->names[j].name, (double)a->pos[0], (double)a->pos[1], (double)a->pos[2],
                     (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
                break;
            }
        }
    } else if (x->kind == EX_CHECK && !x->at_end) {
        run_check(r, x);
    }
}

static void check_end(Run *r, Expect *x)
{
    NavSim *sim = r->sim;
    double now = sim_time(sim);
    for (int i = 0; i < x->nbots && !r->failed; i++) {
        uint32_t id = x->bots[i];
        const NavBot *b = sim_bot(sim, id);
        switch (x->kind) {
        case EX_ARRIVES:
            if (!x->done[i])
                fail(r, x->where, x->text, (int)id, "not arrived when the run ended at %.2f s (%d goals reached, %d left)",
                     now, b->goals_reached, b->goal_count);
            break;
        case EX_NEAR_OPTIMAL:
            if (!x->done[i])
                fail(r, x->where, x->text, (int)id,
                     "not arrived when the run ended at %.2f s (routed optimum %.2f s)", now, x->optimum[i]);
            break;
        case EX_USES:
            if ((b->travel_used & x->travel) != x->travel) {
                char missing[256], used[256];
                travel_names(x->travel & ~b->travel_used, missing, sizeof missing);
                travel_names(b->travel_used, used, sizeof used);
                fail(r, x->where, x->text, (int)id, "never used %s (used: %s)", missing, used);
            }
            break;
        case EX_FAULTS:
            if (!x->done[i]) fail(r, x->where, x->text, (int)id, "never faulted (the run ended at %.2f s)", now);
            break;
        default:
            break;
        }
    }
    if (!r->failed && x->kind == EX_CHECK && x->at_end) run_check(r, x);
}

/* Every live bot that had goals has none left (and some bot had goals);
** or every bot faulted. */
static bool all_arrived(Run *r)
{
    bool any = false;
    uint32_t alive = 0;
    for (uint32_t i = 0; i < r->nnames; i++) {
        const NavBot *b = sim_bot(r->sim, i);
        if (session_bot_faulted(r->s, i)) continue;
        alive++;
        bool had = b->goals_reached + b->goals_skipped + b->goal_count > 0;
        any |= had;
        if (had && b->goal_count > 0) return false;
    }
    return alive == 0 || any;
}

static bool should_stop(Run *r)
{
    if (r->until == UNTIL_ARRIVED) return all_arrived(r);
    if (r->until == UNTIL_FUNCTION) {
        char msg[512];
        if (!call_ref(r, r->ref_until, 1, msg, sizeof msg)) {
            fail(r, r->where, "until", -1, "the until function failed: %s", msg);
            return true;
        }
        bool stop = lua_toboolean(r->L, -1);
        lua_pop(r->L, 1);
        return stop;
    }
    return false;
}

static void simulate(Run *r)
{
    uint64_t limit = (uint64_t)ceil(r->time_limit * r->hz - 1e-9);
    bool stopped = false;
    while (!r->failed && sim_tick(r->sim) < limit) {
        fire_events(r);
        if (r->failed) break;
        session_step(r->s);
        if (r->trace) run_trace_tick(r->trace, r->s);
        for (int i = 0; i < r->nex && !r->failed; i++) check_tick(r, &r->ex[i]);
        if (!r->failed && should_stop(r)) {
            stopped = true;
            break;
        }
    }
    for (int i = 0; i < r->nex && !r->failed; i++) check_end(r, &r->ex[i]);
    if (!r->failed && !stopped && r->until != UNTIL_TIME) {
        if (r->until == UNTIL_ARRIVED) {
            int left = 0, first = -1;
            for (uint32_t i = 0; i < r->nnames; i++) {
                if (session_bot_faulted(r->s, i) || sim_bot(r->sim, i)->goal_count == 0) continue;
                left++;
                if (first < 0) first = (int)i;
            }
            fail(r, r->where, "scenario", first,
                 "the time limit of %g s ran out with %d bot%s still short of %s goals", r->time_limit, left,
                 left == 1 ? "" : "s", left == 1 ? "its" : "their");
        } else {
            fail(r, r->where, "scenario", -1, "the time limit of %g s ran out before the until function held",
                 r->time_limit);
        }
    }
}

/* }======= */

/* {======= one run, start to end ======= */

static void release(Run *r)
{
    if (r->trace) run_trace_close(r->trace, NULL);
    r->trace = NULL;
    sandbox_destroy(r->sb); /* first: its nav module points into the simulation */
    r->sb = NULL;
    session_destroy(r->s);
    world_destroy(r->w);
    remove_work(r);
    for (int i = 0; i < r->nex; i++) {
        free(r->ex[i].bots);
        free(r->ex[i].done);
        free(r->ex[i].optimum);
    }
    free(r->ex);
    free(r->ev);
    free(r->names);
    free(r->source);
    r->source = NULL;
}

static NavStatus load_file(Run *r, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    r->sb = sandbox_create(&(SandboxDesc){ .memory_limit = SCEN_MEMORY, .instruction_limit = SCEN_INSTRUCTIONS,
                                           .seed = 1, .what = "scenario scripts", .print = session_log,
                                           .print_user = r },
                           err);
    if (!r->sb) return err ? err->status : NAV_E_NOMEM;
    r->L = sandbox_state(r->sb);
    lua_State *L = r->L;
    r->ref_core = r->ref_loaded = r->ref_spec = r->ref_ctx = r->ref_until = LUA_NOREF;
    lua_pushcfunction(L, op_setup);
    lua_pushlightuserdata(L, r);
    if (NAV_FAILED(sandbox_call(r->sb, 1, 0, &e)))
        return nav_error_set(err, NAV_E_NOMEM, r->path, 0, 0, NULL, "cannot set up its Lua state: %s", e.message);

    char *buf;
    size_t n;
    if (NAV_FAILED(fileio_read(r->path, SCEN_FILE_MAX, &buf, &n, &e)))
        return nav_error_set(err, e.status & ~NAV_FAILURE, r->path, 0, 0, NULL, "%s: %s", r->path, e.message);
    char chunk[SCEN_PATH_MAX + 1];
    snprintf(chunk, sizeof chunk, "@%s", r->path);
    NavStatus st = sandbox_load(r->sb, buf, n, chunk, &e);
    r->source = buf; /* fileio_read ends it with a NUL */
    if (NAV_SUCCEEDED(st)) st = sandbox_call(r->sb, 0, 1, &e);
    if (NAV_FAILED(st)) {
        char msg[512];
        const char *m = e.message;
        if (strncmp(m, "syntax error: ", 14) == 0) m += 14; /* Lua's own message says what is wrong */
        copy_first_line(msg, sizeof msg, m);
        /* Lua's messages start with "file:line:"; add the file when not. */
        if (strncmp(msg, r->path, strlen(r->path)) == 0 || strstr(msg, ".lua:"))
            return nav_error_set(err, NAV_E_FORMAT, r->path, e.line, 0, NULL, "%s", msg);
        return nav_error_set(err, NAV_E_FORMAT, r->path, e.line, 0, NULL, "%s: %s", r->path, msg);
    }
    bool is_spec = false;
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_getfield(L, -1, "_kind");
        is_spec = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "scenario") == 0;
        lua_pop(L, 1);
    }
    if (!is_spec) {
        const char *got = luaL_typename(L, -1);
        return nav_error_set(err, NAV_E_FORMAT, r->path, 0, 0, NULL,
                             "%s: the file must return the scenario: `local S = require \"scenario\"` ... "
                             "`return S.scenario { ... }` (it returned %s)",
                             r->path, got);
    }
    r->ref_spec = luaL_ref(L, LUA_REGISTRYINDEX);
    /* The context every check and action gets: the library's `context`. */
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_loaded);
    lua_getfield(L, -1, "scenario");
    if (lua_type(L, -1) == LUA_TTABLE) lua_getfield(L, -1, "context");
    else lua_pushnil(L);
    r->ref_ctx = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, 0);
    return NAV_OK;
}

static NavStatus one_run(Run *r, NavError *err)
{
    NavStatus st = load_file(r, err);
    if (NAV_FAILED(st)) return st;
    if (NAV_FAILED(st = read_spec(r, err))) return st;

    char map_path[SCEN_PATH_MAX];
    join_path(map_path, sizeof map_path, r->root, r->map);
    NavError e;
    nav_error_clear(&e);
    r->w = map_load_file(map_path, NULL, &e);
    if (!r->w) {
        char buf[512];
        return spec_error(err, r->where, "map: %s", nav_error_format(&e, buf, sizeof buf));
    }
    if (world_class_count(r->w) == 0) return spec_error(err, r->where, "map: %s has no mover classes", r->map);
    if (NAV_FAILED(st = make_work(r, err))) return st;

    NavSessionDesc sd = { .root = r->root, .seed = r->seed, .tick_hz = r->hz, .log = session_log, .log_user = r,
                          .instructions_per_tick = r->instructions, .memory_limit = r->memory };
    int k = 0;
    if (r->work[0]) sd.extra_roots[k++] = r->work;
    sd.extra_roots[k++] = r->dir;
    r->s = session_create(r->w, &sd, &e);
    if (!r->s) {
        char buf[512];
        return spec_error(err, r->where, "session: %s", nav_error_format(&e, buf, sizeof buf));
    }
    r->sim = session_sim(r->s);
    nav_api_open(r->L, r->sim);

    if (NAV_FAILED(st = setup_bots(r, err))) return st;
    if (NAV_FAILED(st = setup_expectations(r, err))) return st;
    if (NAV_FAILED(st = setup_events(r, err))) return st;
    for (int i = 0; i < r->nex; i++)
        if (r->ex[i].kind == EX_NEAR_OPTIMAL) compute_optimum(r, &r->ex[i]);
    r->out->bots = (int)r->nnames;

    if (r->record && r->opt->trace_path) {
        r->trace = run_trace_create(r->opt->trace_path, r->s, r->map, r->root, r->seed, &e);
        if (!r->trace) {
            char buf[512];
            return nav_error_set(err, NAV_E_IO, r->opt->trace_path, 0, 0, NULL, "trace: %s",
                                 nav_error_format(&e, buf, sizeof buf));
        }
    }
    simulate(r);
    r->out->passed = !r->failed;
    r->out->hash = sim_trace_hash(r->sim);
    r->out->ticks = sim_tick(r->sim);
    r->out->sim_time = sim_time(r->sim);
    if (r->out->passed && r->opt->on_end) r->opt->on_end(r->opt->user, r->s);
    if (r->trace) {
        NavStatus closed = run_trace_close(r->trace, &e);
        r->trace = NULL;
        if (NAV_FAILED(closed)) {
            char buf[512];
            return nav_error_set(err, NAV_E_IO, r->opt->trace_path, 0, 0, NULL, "trace: %s",
                                 nav_error_format(&e, buf, sizeof buf));
        }
    }
    return NAV_OK;
}

static void init_run(Run *r, const char *path, const ScenarioOptions *opt, ScenarioResult *out, bool record)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->opt = opt;
    r->out = out;
    r->record = record;
    snprintf(r->root, sizeof r->root, "%s", opt->root && *opt->root ? opt->root : ".");
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(r->dir, sizeof r->dir, "%.*s", (int)(slash - path), path);
    else snprintf(r->dir, sizeof r->dir, ".");
    if (!r->dir[0]) snprintf(r->dir, sizeof r->dir, "/");
    char lua_dir[SCEN_PATH_MAX];
    join_path(lua_dir, sizeof lua_dir, r->root, "lua");
    textf(r->lib_prefix, sizeof r->lib_prefix, "@%s/", lua_dir);
}

NavStatus scenario_run_file(const char *path, const ScenarioOptions *opt, ScenarioResult *out, NavError *err)
{
    ScenarioOptions none = { 0 };
    if (!opt) opt = &none;
    memset(out, 0, sizeof *out);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out->name, sizeof out->name, "%.*s", (int)n, base);
    out->runs = 1;

    Run *r = malloc(sizeof *r);
    if (!r) return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory");
    init_run(r, path, opt, out, true);
    NavStatus st = one_run(r, err);
    int runs = r->runs;
    release(r);
    if (NAV_SUCCEEDED(st) && out->passed && runs == 2) {
        /* Determinism: the same file again in this process must give the
        ** same run, bit for bit. */
        out->runs = 2;
        ScenarioResult *again = malloc(sizeof *again);
        if (!again) {
            free(r);
            return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory");
        }
        memset(again, 0, sizeof *again);
        snprintf(again->name, sizeof again->name, "%s", out->name);
        ScenarioOptions quiet = *opt;
        quiet.on_failure = NULL;
        quiet.on_end = NULL;
        quiet.trace_path = NULL;
        init_run(r, path, &quiet, again, false);
        st = one_run(r, err);
        release(r);
        if (NAV_SUCCEEDED(st) && !again->passed) {
            out->passed = false;
            out->failure = again->failure;
            textf(out->failure.message, sizeof out->failure.message,
                  "the second run failed where the first passed: %s", again->failure.message);
        } else if (NAV_SUCCEEDED(st) && (again->hash != out->hash || again->ticks != out->ticks)) {
            out->passed = false;
            memset(&out->failure, 0, sizeof out->failure);
            out->failure.bot = -1;
            out->failure.tick = again->ticks;
            out->failure.time = again->sim_time;
            snprintf(out->failure.expectation, sizeof out->failure.expectation, "%s: runs = 2 (determinism)", path);
            snprintf(out->failure.message, sizeof out->failure.message,
                     "two runs in one process differ: trace hash %016llx after %llu ticks, then %016llx after %llu "
                     "ticks",
                     (unsigned long long)out->hash, (unsigned long long)out->ticks, (unsigned long long)again->hash,
                     (unsigned long long)again->ticks);
        }
        free(again);
    }
    free(r);
    return st;
}

/* }======= */

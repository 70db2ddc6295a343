/*
** scenario_lua.c — the scenario's own Lua: require, the core module
** (scenario.core) its lua/scenario.lua builds on, and reading the tables
** the scenario file returns.
*/
#include "scenario/scenario_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/fileio.h"
#include "map/map.h"
#include "route/route.h"
#include "script/nav_api.h"
#include "script/run_trace.h"
#include "lua/sandbox.h"
#include "sim/sim_debug.h"

/* {======= the scenario's Lua: require and scenario.core ======= */

static Run *run_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

/* require NAME: "scenario.core", else NAME.lua along the Lua path (the
** scenario's folder, --lua-path, NAVBOT_PATH, the root's lua/ and bots/);
** once each. */
static int scen_require(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    if (strcmp(name, "scenario.core") == 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_core);
        return 1;
    }
    const char *why = nav_lua_name_problem(name);
    if (why) return luaL_error(L, "require '%s' refused: %s", name, why);
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_loaded); /* 2 */
    if (lua_getfield(L, 2, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    char path[SCEN_PATH_MAX], tried[2048], shown[SCEN_PATH_MAX];
    if (nav_lua_path_find(&r->search, name, false, path, sizeof path, tried, sizeof tried) < 0)
        return luaL_error(L, "module '%s' not found:%s", name, tried);
    nav_lua_display_name(path, r->root, shown, sizeof shown);
    char *buf;
    size_t n;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(path, SCEN_FILE_MAX, &buf, &n, &e)))
        return luaL_error(L, "require '%s': %s: %s", name, path, e.message);
    char chunk[SCEN_PATH_MAX + 1];
    snprintf(chunk, sizeof chunk, "@%s", shown);
    int rc = luaL_loadbufferx(L, buf, n, chunk, "t");
    nav_free(buf);
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
bool scen_resolve_place(lua_State *L, int idx, const NavWorld *w, float p[3], float *yaw, char *why, size_t cap)
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
        /* The lowest floor there, as the command line reads X,Y. */
        int cx, cy, n = 0;
        const NavFloor *f = NULL;
        if (world_point_cell(w, p[0], p[1], &cx, &cy)) {
            const NavFloor *col = world_column(w, cx, cy, &n);
            for (int i = 0; i < n && !f; i++)
                if (isfinite(col[i].z)) f = &col[i];
        }
        if (!f) {
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
    if (!scen_resolve_place(L, 1, r->w, p, NULL, why, sizeof why)) return luaL_error(L, "%s", why);
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

/* core.teleport(id, x, y, z): move the bot there at once (sim_bot_teleport). */
static int core_teleport(lua_State *L)
{
    Run *r = run_of(L);
    uint32_t id = check_id(L, r, 1);
    float p[3] = { (float)luaL_checknumber(L, 2), (float)luaL_checknumber(L, 3), (float)luaL_checknumber(L, 4) };
    if (!sim_bot_teleport(r->sim, id, p))
        return luaL_error(L, "teleport: no room for bot %d at (%.2f, %.2f, %.2f)", (int)id, (double)p[0], (double)p[1],
                          (double)p[2]);
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
            scen_textf(out, cap, "%s/bots/%s.lua", r->work, name);
            return;
        }
    }
    luaL_error(L, "brain '%s' is not in this scenario's temp_brains: only those copies can be rewritten", name);
}

/* Every write gets a later modification time than the one before, so the
** reload sees the change however fast the rewrite follows. */
bool scen_stamp_write(Run *r, const char *path)
{
    struct timespec t[2];
    t[0].tv_sec = t[1].tv_sec = r->stamp_base + ++r->brain_writes;
    t[0].tv_nsec = t[1].tv_nsec = 0;
    return utimensat(AT_FDCWD, path, t, 0) == 0;
}

/* A safe write: a brain reloading meanwhile reads the old text or the
** new, never half of it. */
bool scen_write_file(const char *path, const char *text, size_t n)
{
    NavError e;
    return NAV_SUCCEEDED(fileio_write(path, text, n, 0, &e));
}

static int core_write_brain(lua_State *L)
{
    Run *r = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    size_t n;
    const char *text = luaL_checklstring(L, 2, &n);
    char path[SCEN_PATH_MAX];
    temp_brain_path(L, r, name, path, sizeof path);
    if (!scen_write_file(path, text, n) || !scen_stamp_write(r, path))
        return luaL_error(L, "write_brain: cannot write %s: %s", path, strerror(errno));
    scen_log_line(r, "%.2f s  wrote %s (%zu bytes)", sim_time(r->sim), path, n);
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
    nav_free(buf);
    return 1;
}

static int core_log(lua_State *L)
{
    Run *r = run_of(L);
    scen_log_line(r, "%.2f s  %s", r->sim ? sim_time(r->sim) : 0.0, luaL_checkstring(L, 1));
    return 0;
}

static const luaL_Reg CORE[] = {
    { "travel_types", nav_api_travel_types },
    { "area_flags", nav_api_area_flags }, /* the engine's names */
    { "where", core_where },
    { "ids", core_ids },
    { "names", core_names },
    { "info", core_info },
    { "point", core_point },
    { "hold_elevator", core_hold_elevator },
    { "teleport", core_teleport },
    { "fault", core_fault },
    { "reload", core_reload },
    { "write_brain", core_write_brain },
    { "read_brain", core_read_brain },
    { "log", core_log },
    { NULL, NULL },
};

/* In protected mode: the require function, the core module, the cache. */
int scen_op_setup(lua_State *L)
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
bool scen_call_ref(Run *r, int ref, int nres, char *msg, size_t cap)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_ctx);
    NavError e;
    nav_error_clear(&e);
    if (NAV_SUCCEEDED(sandbox_call(r->sb, 1, nres, &e))) return true;
    scen_copy_first_line(msg, cap, e.message);
    return false;
}

/* }======= */

/* {======= reading the scenario's tables ======= */

/* Field k of the table at idx, pushed, and its type. Raw: the scenario's
** tables are read outside any protected call, so no metamethod may run
** (one that raised would abort the process); anything but a table gives
** nil. */
int scen_get_field(lua_State *L, int idx, const char *k)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* Field k of the table at idx as a string into out; false when absent. */
bool scen_get_string(lua_State *L, int idx, const char *k, char *out, size_t cap)
{
    bool ok = scen_get_field(L, idx, k) == LUA_TSTRING;
    if (ok) snprintf(out, cap, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return ok;
}

bool scen_get_number(lua_State *L, int idx, const char *k, double *out)
{
    bool ok = scen_get_field(L, idx, k) == LUA_TNUMBER;
    if (ok) *out = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return ok;
}

bool scen_get_bool(lua_State *L, int idx, const char *k)
{
    scen_get_field(L, idx, k);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* The number at the top of the stack as text for a message. */
static const char *number_text(lua_State *L, char *buf, size_t cap)
{
    if (lua_isinteger(L, -1)) snprintf(buf, cap, "%lld", (long long)lua_tointeger(L, -1));
    else snprintf(buf, cap, "%.17g", (double)lua_tonumber(L, -1));
    return buf;
}

int scen_get_whole(lua_State *L, int idx, const char *where, const char *what, const char *k, int64_t lo, int64_t hi,
                   int64_t *out, NavError *err)
{
    int t = scen_get_field(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    bool ok = false;
    int64_t v = 0;
    if (t == LUA_TNUMBER && lua_isinteger(L, -1)) {
        v = (int64_t)lua_tointeger(L, -1);
        ok = true;
    } else if (t == LUA_TNUMBER) {
        /* A float with a whole value in range (2^63 is the first double
        ** past int64_t). */
        double d = lua_tonumber(L, -1);
        if (d == floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
            v = (int64_t)d;
            ok = true;
        }
    }
    if (!ok || v < lo || v > hi) {
        char got[64];
        if (t == LUA_TNUMBER) number_text(L, got, sizeof got);
        else snprintf(got, sizeof got, "a %s", lua_typename(L, t));
        lua_pop(L, 1);
        scen_spec_error(err, where, "%s: field '%s' must be a whole number from %lld to %lld, got %s", what, k,
                        (long long)lo, (long long)hi, got);
        return -1;
    }
    lua_pop(L, 1);
    *out = v;
    return 1;
}

int scen_get_finite(lua_State *L, int idx, const char *where, const char *what, const char *k, double lo, double hi,
                    double *out, NavError *err)
{
    int t = scen_get_field(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    double v = t == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
    if (!(v >= lo && v <= hi)) { /* NaN and infinities fail too */
        char got[64];
        if (t == LUA_TNUMBER) number_text(L, got, sizeof got);
        else snprintf(got, sizeof got, "a %s", lua_typename(L, t));
        lua_pop(L, 1);
        scen_spec_error(err, where, "%s: field '%s' must be a number from %g to %g, got %s", what, k, lo, hi, got);
        return -1;
    }
    lua_pop(L, 1);
    *out = v;
    return 1;
}

/* A list field: pushed (a table) and its length, or 0 with nil pushed. */
int scen_push_list(lua_State *L, int idx, const char *k)
{
    if (scen_get_field(L, idx, k) != LUA_TTABLE) return 0;
    lua_Unsigned n = lua_rawlen(L, -1);
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* The list field k of the table at idx, pushed, every element 1..n a
** table: its length, or -1 with err naming the element that is not (a
** hole, a number where a bot{} or an expectation belongs) and nothing
** pushed. what names an element for the message ("an expectation"). */
int scen_push_table_list(Run *r, int idx, const char *k, const char *what, NavError *err)
{
    lua_State *L = r->L;
    int n = scen_push_list(L, idx, k);
    for (int i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, -1, i);
        lua_pop(L, 1);
        if (t != LUA_TTABLE) {
            lua_pop(L, 1);
            scen_spec_error(err, r->where, "scenario: field '%s': %s[%d] is %s, not %s%s", k, k, i, lua_typename(L, t),
                            what, t == LUA_TNIL ? " (a hole in the list)" : "");
            return -1;
        }
    }
    return n;
}

static NavStatus spec_errorv(NavError *err, NavStatus detail, const char *where, const char *fmt, va_list ap)
{
    char msg[512], file[256] = "";
    vsnprintf(msg, sizeof msg, fmt, ap);
    int line = 0;
    const char *colon = strrchr(where, ':');
    if (colon) {
        line = atoi(colon + 1);
        size_t n = (size_t)(colon - where);
        if (n >= sizeof file) n = sizeof file - 1;
        memcpy(file, where, n);
        file[n] = '\0';
    }
    return nav_error_set(err, detail, file, line, 0, NULL, "%s: %s", where, msg);
}

/* "file:line: message", the file and line kept in err as well. */
NavStatus scen_spec_error(NavError *err, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    NavStatus st = spec_errorv(err, NAV_E_FORMAT, where, fmt, ap);
    va_end(ap);
    return st;
}

NavStatus scen_spec_error_from(NavError *err, const NavError *cause, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    NavStatus st = spec_errorv(err, cause->status & NAV_E_NOMEM ? NAV_E_NOMEM : NAV_E_FORMAT, where, fmt, ap);
    va_end(ap);
    return st;
}

NavStatus scen_read_spec(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    if (!scen_get_string(L, t, "where", r->where, sizeof r->where)) snprintf(r->where, sizeof r->where, "%s", r->path);
    char s[256];
    if (scen_get_string(L, t, "description", s, sizeof s))
        snprintf(r->out->description, sizeof r->out->description, "%s", s);
    if (!scen_get_string(L, t, "map", r->map, sizeof r->map)) return scen_spec_error(err, r->where, "scenario: no map");
    scen_textf(r->out->map, sizeof r->out->map, "%s", r->map);
    /* lua/scenario.lua checks these, but a file may return a plain table
    ** marked as a scenario: every number is checked again here before it
    ** is converted (a negative seed, an infinite time limit). */
    int64_t whole;
    double v;
    int got;
    r->seed = 1;
    r->hz = SIM_DEFAULT_TICK_HZ;
    r->time_limit = SCEN_DEFAULT_TIME;
    r->runs = 1;
    if ((got = scen_get_whole(L, t, r->where, "scenario", "seed", 0, INT64_MAX, &whole, err)) < 0) goto bad;
    if (got) r->seed = (uint64_t)whole;
    if ((got = scen_get_whole(L, t, r->where, "scenario", "hz", 1, 1000, &whole, err)) < 0) goto bad;
    if (got) r->hz = (int)whole;
    if (scen_get_number(L, t, "time_limit", &v)) r->time_limit = v; /* checked below: NaN, inf, too long */
    if ((got = scen_get_whole(L, t, r->where, "scenario", "runs", 1, 2, &whole, err)) < 0) goto bad;
    if (got) r->runs = (int)whole;
    if ((got = scen_get_whole(L, t, r->where, "scenario", "instructions", 1, INT64_MAX, &whole, err)) < 0) goto bad;
    if (got) r->instructions = (uint64_t)whole;
    if ((got = scen_get_whole(L, t, r->where, "scenario", "memory", 1, SCEN_MAX_MEMORY, &whole, err)) < 0) goto bad;
    if (got) r->memory = (size_t)whole;
    /* Refused here rather than run for days: core/limits.h. */
    if (!(r->time_limit > 0.0) || r->time_limit * r->hz > (double)NAV_LIMIT_TICKS)
        return scen_spec_error(err, r->where,
                               "time_limit: %g s is not from 0 to the limit of %u ticks (%.0f s at %d Hz)",
                               r->time_limit, NAV_LIMIT_TICKS, (double)NAV_LIMIT_TICKS / r->hz, r->hz);
    r->until = UNTIL_ARRIVED;
    int ut = scen_get_field(L, t, "until");
    if (ut == LUA_TFUNCTION) {
        r->until = UNTIL_FUNCTION;
        r->ref_until = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (ut == LUA_TSTRING && strcmp(lua_tostring(L, -1), "time") == 0) r->until = UNTIL_TIME;
        lua_pop(L, 1);
    }
    int n = scen_push_list(L, t, "temp_brains");
    if (n > SCEN_MAX_TEMP_BRAINS) {
        lua_settop(L, t - 1);
        return scen_spec_error(err, r->where, "scenario: at most %d temp_brains", SCEN_MAX_TEMP_BRAINS);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *name = lua_tostring(L, -1);
        if (!name || nav_lua_name_problem(name) || strchr(name, '.')) {
            lua_settop(L, t - 1);
            return scen_spec_error(err, r->where, "scenario: temp_brains[%d] is not a brain's name", i);
        }
        snprintf(r->temp_brains[r->ntemp++], BRAIN_NAME_MAX, "%s", name);
        lua_pop(L, 1);
    }
    lua_settop(L, t - 1);
    return NAV_OK;
bad:
    lua_settop(L, t - 1);
    return NAV_FAILURE | NAV_E_FORMAT;
}

/* }======= */

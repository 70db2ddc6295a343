/*
** nav_module.c — `require "nav"` in a stock lua5.4 (nav.so): maps, routes,
** grid paths, traces, sampling and simulations from plain Lua, over the
** public C API (include/navbot.h). docs/lua-module.md is the reference.
**
**   local nav = require "nav"
**   local map = nav.load_map("maps/arena.lua")      or a map table, or nav.bundled("maps/arena.lua")
**   map:route({2, 2}, {20, 12})                      {time, points, links, from, to} or nil, why
**   map:route_time(from, to [, flags [, class]])     seconds or nil
**   map:grid_path(from, to [, opts])  map:trace(mins, maxs, start, delta)
**   map:random_point(near [, radius [, class]])  map:compile([class])  map:point(name)
**   local sim = map:sim{ seed = 1 }
**   sim:add_bot{ brain = "runner", at = map:point("spawn_a"), goal = map:point("goal") }
**   sim:step(300)  sim:bots()  sim:png("run.png")
**
** Every argument is checked and a bad one raises a Lua error naming it
** (luaL_argerror style); a query with no answer returns nil and why. The
** engine's state lives in full userdata with __gc and __close, so a map or
** simulation is freed when collected, or at once by :close() or a
** to-be-closed variable. A simulation keeps its map alive.
**
** The module is built without liblua: the interpreter that loads it
** provides the Lua C API.
*/
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navbot.h"
#include "lua/lua_paths.h"
#include "script/nav_api.h"

#define MAP_MT "nav.Map"
#define SIM_MT "nav.Sim"
#define MOD_ROUTE_MAX 4096
#define MOD_GRID_MAX 8192
#define MOD_LOG_MAX (64 * 1024)

typedef struct LMap {
    NavbotWorld *w;
    int sims; /* live simulations on it */
} LMap;

typedef struct LSim {
    NavbotSession *s;
    LMap *map; /* kept alive by the simulation's user value */
    char *log; /* brain output of the step in progress */
    size_t log_len, log_cap;
    bool log_dropped;
} LSim;

/* {======= helpers ======= */

static LMap *check_map(lua_State *L, int i)
{
    LMap *m = luaL_checkudata(L, i, MAP_MT);
    if (!m->w) luaL_argerror(L, i, "the map is closed");
    return m;
}

static LSim *check_sim(lua_State *L, int i)
{
    LSim *s = luaL_checkudata(L, i, SIM_MT);
    if (!s->s) luaL_argerror(L, i, "the simulation is closed");
    return s;
}

/* A number field of a point table: t[k] or t[name]; nil when absent. */
static bool point_field(lua_State *L, int t, int k, const char *name, float *out, const char *what, int arg)
{
    lua_rawgeti(L, t, k);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, t, name);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    int ok;
    lua_Number v = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(v)) {
        const char *msg =
            lua_pushfstring(L, "%s: %s must be a finite number, got %s", what, name, luaL_typename(L, -1));
        luaL_argerror(L, arg, msg);
    }
    lua_pop(L, 1);
    *out = (float)v;
    return true;
}

/* A point table {x, y [, z]} or {x = .., y = .., z = ..} at arg. A missing
** z is the lowest floor of class cls under (x, y) (map given) or 0. */
static void check_point_at(lua_State *L, int idx, int arg, const char *what, LMap *m, int cls, float p[3])
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        const char *msg =
            lua_pushfstring(L, "%s: a point table {x, y [, z]} expected, got %s", what, luaL_typename(L, idx));
        luaL_argerror(L, arg, msg);
    }
    if (!point_field(L, idx, 1, "x", &p[0], what, arg) || !point_field(L, idx, 2, "y", &p[1], what, arg)) {
        const char *msg = lua_pushfstring(L, "%s: a point needs x and y", what);
        luaL_argerror(L, arg, msg);
    }
    if (point_field(L, idx, 3, "z", &p[2], what, arg)) return;
    p[2] = 0.0f;
    if (m && navbot_world_floor_z(m->w, cls, p[0], p[1], &p[2]) != NAVBOT_OK) {
        const char *msg = lua_pushfstring(L, "%s: %s", what, navbot_world_error(m->w));
        luaL_argerror(L, arg, msg);
    }
}

static void check_point(lua_State *L, int arg, const char *what, LMap *m, int cls, float p[3])
{
    check_point_at(L, arg, lua_absindex(L, arg), what, m, cls, p);
}

static void push_point(lua_State *L, const float p[3], int n)
{
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushnumber(L, p[k]);
        lua_rawseti(L, -2, k + 1);
    }
}

/* A class: nil (the first), a name, or an index (0-based, as C). */
static int check_class(lua_State *L, int arg, LMap *m)
{
    if (lua_isnoneornil(L, arg)) return 0;
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Integer i = luaL_checkinteger(L, arg);
        if (i < 0 || i > 1000000 || !navbot_world_class_name(m->w, (int)i))
            luaL_argerror(L, arg, lua_pushfstring(L, "no class %I", (LUAI_UACINT)i));
        return (int)i;
    }
    const char *name = luaL_checkstring(L, arg);
    int c = navbot_world_find_class(m->w, name);
    if (c < 0) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addstring(&b, "no class '");
        luaL_addstring(&b, name);
        luaL_addstring(&b, "'; the map's classes are:");
        for (int i = 0; navbot_world_class_name(m->w, i); i++) {
            luaL_addchar(&b, ' ');
            luaL_addstring(&b, navbot_world_class_name(m->w, i));
        }
        luaL_pushresult(&b);
        luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    return c;
}

/* Travel flags: nil (default), an integer mask, a list of names, or a
** comma-separated string of names. */
static uint32_t check_flags(lua_State *L, int arg)
{
    int t = lua_type(L, arg);
    if (t == LUA_TNONE || t == LUA_TNIL) return 0;
    if (t == LUA_TNUMBER) {
        lua_Integer v = luaL_checkinteger(L, arg);
        if (v <= 0 || v > 0x1FFFFF) luaL_argerror(L, arg, "flags: a mask of travel bits (1 to 2097151)");
        return (uint32_t)v;
    }
    NavbotError e;
    uint32_t out = 0, bits;
    if (t == LUA_TSTRING) {
        if (navbot_travel_flags(lua_tostring(L, arg), &out, &e) != NAVBOT_OK) luaL_argerror(L, arg, e.text);
        return out;
    }
    if (t != LUA_TTABLE)
        luaL_argerror(
            L, arg,
            lua_pushfstring(L, "flags: nil, a list of names or an integer expected, got %s", luaL_typename(L, arg)));
    lua_Integer n = luaL_len(L, arg);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, arg, i);
        const char *name = lua_tostring(L, -1);
        if (!name || lua_type(L, -1) != LUA_TSTRING)
            luaL_argerror(L, arg, lua_pushfstring(L, "flags[%d]: a travel name expected", (int)i));
        if (navbot_travel_flags(name, &bits, &e) != NAVBOT_OK) luaL_argerror(L, arg, e.text);
        out |= bits;
        lua_pop(L, 1);
    }
    if (!out) luaL_argerror(L, arg, "flags: an empty list allows nothing");
    return out;
}

/* Fields of an options table that must be known: names the first unknown
** key and the ones allowed. */
static void check_keys(lua_State *L, int arg, const char *const *known, const char *what)
{
    if (!lua_istable(L, arg)) return;
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; known[i]; i++)
                if (strcmp(lua_tostring(L, -1), known[i]) == 0) ok = true;
        if (!ok) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            lua_pushfstring(L, "%s: unknown key '%s'; the keys are:", what,
                            lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2));
            luaL_addvalue(&b);
            for (int i = 0; known[i]; i++) {
                luaL_addchar(&b, ' ');
                luaL_addstring(&b, known[i]);
            }
            luaL_pushresult(&b);
            luaL_argerror(L, arg, lua_tostring(L, -1));
        }
    }
}

/* }======= */

/* {======= maps from tables ======= */

/* A map table as the chunk the map loader reads: maps are data (numbers,
** strings, booleans, tables), written with %q (floats exactly, in hex)
** and keys in a fixed order, so the same table gives the same text and so
** the same world hash (compiled graphs stay valid across runs). */
static const char SERIALISE[] =
    "local t = ...\n"
    "local out, n, seen = {}, 0, {}\n"
    "local function put(s) n = n + 1; out[n] = s end\n"
    "local function before(a, b)\n"
    "  local ta, tb = type(a), type(b)\n"
    "  if ta ~= tb then return ta < tb end\n"
    "  return a < b\n"
    "end\n"
    "local function ser(v, path, depth)\n"
    "  local ty = type(v)\n"
    "  if ty == 'number' then\n"
    "    if v ~= v or v == math.huge or v == -math.huge then error(path .. ': numbers must be finite', 0) end\n"
    "    put(string.format('%q', v))\n"
    "  elseif ty == 'string' or ty == 'boolean' then put(string.format('%q', v))\n"
    "  elseif ty == 'table' then\n"
    "    if seen[v] then error(path .. ': a table that contains itself', 0) end\n"
    "    if depth > 64 then error(path .. ': tables nested deeper than 64', 0) end\n"
    "    seen[v] = true\n"
    "    local keys = {}\n"
    "    for k in next, v do\n"
    "      local kt = type(k)\n"
    "      if kt ~= 'number' and kt ~= 'string' then error(path .. ': keys must be numbers or strings, got a ' .. kt, "
    "0) end\n"
    "      keys[#keys + 1] = k\n"
    "    end\n"
    "    table.sort(keys, before)\n"
    "    put('{')\n"
    "    for _, k in ipairs(keys) do\n"
    "      put('['); ser(k, path, depth + 1); put(']=')\n"
    "      ser(rawget(v, k), type(k) == 'string' and (path .. '.' .. k) or (path .. '[' .. tostring(k) .. ']'), depth "
    "+ 1)\n"
    "      put(',')\n"
    "    end\n"
    "    put('}')\n"
    "    seen[v] = nil\n"
    "  else error(path .. ': a ' .. ty .. ' cannot be part of a map (maps are data)', 0) end\n"
    "end\n"
    "ser(t, 'map', 0)\n"
    "return 'return ' .. table.concat(out)\n";

/* }======= */

/* {======= module functions ======= */

/* The userdata comes first, so a Lua memory error cannot lose a world. */
static LMap *new_map(lua_State *L)
{
    LMap *m = lua_newuserdatauv(L, sizeof *m, 0);
    m->w = NULL;
    m->sims = 0;
    luaL_setmetatable(L, MAP_MT);
    return m;
}

static NavbotWorldDesc world_desc(lua_State *L, int opts)
{
    NavbotWorldDesc d = { 0 };
    if (lua_isnoneornil(L, opts)) return d;
    luaL_checktype(L, opts, LUA_TTABLE);
    static const char *const KEYS[] = { "seed", "name", NULL };
    check_keys(L, opts, KEYS, "options");
    lua_getfield(L, opts, "seed");
    if (!lua_isnil(L, -1)) {
        if (!lua_isinteger(L, -1)) luaL_argerror(L, opts, "options: seed must be an integer");
        d.seed = (uint64_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return d;
}

/* nav.load_map(path | table | {source = text} [, opts]) */
static int mod_load_map(lua_State *L)
{
    NavbotWorldDesc d = world_desc(L, 2);
    NavbotError e;
    NavbotStatus st;
    if (lua_type(L, 1) == LUA_TSTRING) {
        LMap *m = new_map(L);
        st = navbot_world_load(lua_tostring(L, 1), &d, &m->w, &e);
        if (st != NAVBOT_OK) return luaL_error(L, "load_map: %s", e.text);
        return 1;
    } else if (lua_istable(L, 1)) {
        const char *name = "map";
        if (lua_istable(L, 2)) {
            lua_getfield(L, 2, "name");
            if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1);
            lua_pop(L, 1);
        }
        if (luaL_loadbuffer(L, SERIALISE, sizeof SERIALISE - 1, "=nav.load_map") != LUA_OK) return lua_error(L);
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) return luaL_argerror(L, 1, lua_tostring(L, -1));
        size_t len;
        const char *src = lua_tolstring(L, -1, &len);
        LMap *m = new_map(L);
        st = navbot_world_load_string(src, len, name, &d, &m->w, &e);
        if (st != NAVBOT_OK) return luaL_error(L, "load_map: %s", e.text);
        return 1;
    } else {
        return luaL_argerror(L, 1,
                             lua_pushfstring(L, "a map path or a map table expected, got %s", luaL_typename(L, 1)));
    }
}

/* nav.bundled([relative]): navbot's bundled folder (lua/, bots/, maps/,
** found from nav.so's own place), or a path inside it; nil, why when it
** cannot be found. */
static int mod_bundled(lua_State *L)
{
    const char *rel = luaL_optstring(L, 1, NULL);
    char root[4096];
    if (!nav_lua_bundled_root(root, sizeof root)) {
        lua_pushnil(L);
        lua_pushstring(L, "navbot's bundled folder was not found beside nav.so (../../../share/navbot)");
        return 2;
    }
    if (rel && rel[0]) lua_pushfstring(L, "%s/%s", root, rel);
    else lua_pushstring(L, root);
    return 1;
}

static int mod_version(lua_State *L)
{
    lua_pushstring(L, navbot_version());
    return 1;
}

/* }======= */

/* {======= map methods ======= */

static int map_close(lua_State *L)
{
    LMap *m = luaL_checkudata(L, 1, MAP_MT);
    if (m->sims > 0 && m->w)
        return luaL_error(L, "map:close: %d simulation(s) still run on it; close them first", m->sims);
    navbot_world_destroy(m->w);
    m->w = NULL;
    return 0;
}

/* __gc and __close. A simulation holds its map (user value), so the map
** is collected after its simulations; a map closed while simulations
** still run on it stays open for them and is freed when collected. */
static int map_gc(lua_State *L)
{
    LMap *m = luaL_checkudata(L, 1, MAP_MT);
    if (m->sims > 0) return 0;
    navbot_world_destroy(m->w);
    m->w = NULL;
    return 0;
}

static int map_tostring(lua_State *L)
{
    LMap *m = luaL_checkudata(L, 1, MAP_MT);
    NavbotWorldInfo info;
    if (m->w && navbot_world_info(m->w, &info) == NAVBOT_OK) lua_pushfstring(L, "nav.Map %s", info.name);
    else lua_pushstring(L, "nav.Map (closed)");
    return 1;
}

static int map_info(lua_State *L)
{
    LMap *m = check_map(L, 1);
    NavbotWorldInfo info;
    navbot_world_info(m->w, &info);
    lua_createtable(L, 0, 8);
    lua_pushstring(L, info.name), lua_setfield(L, -2, "name");
    lua_pushstring(L, info.source), lua_setfield(L, -2, "source");
    lua_pushinteger(L, info.width), lua_setfield(L, -2, "width");
    lua_pushinteger(L, info.height), lua_setfield(L, -2, "height");
    lua_pushnumber(L, info.cell_size), lua_setfield(L, -2, "cell_size");
    float size[3] = { info.size[0], info.size[1], 0 };
    push_point(L, size, 2), lua_setfield(L, -2, "size");
    lua_createtable(L, info.class_count, 0);
    for (int i = 0; i < info.class_count; i++)
        lua_pushstring(L, navbot_world_class_name(m->w, i)), lua_rawseti(L, -2, i + 1);
    lua_setfield(L, -2, "classes");
    lua_pushinteger(L, info.entity_count), lua_setfield(L, -2, "entities");
    return 1;
}

/* map:point(name): an entity's point (spawn, goal, ...). */
static int map_point(lua_State *L)
{
    LMap *m = check_map(L, 1);
    const char *name = luaL_checkstring(L, 2);
    float p[3];
    if (navbot_world_entity_point(m->w, name, p) != NAVBOT_OK) return luaL_argerror(L, 2, navbot_world_error(m->w));
    push_point(L, p, 3);
    return 1;
}

static int map_floor_z(lua_State *L)
{
    LMap *m = check_map(L, 1);
    float x = (float)luaL_checknumber(L, 2), y = (float)luaL_checknumber(L, 3), z;
    int cls = check_class(L, 4, m);
    if (navbot_world_floor_z(m->w, cls, x, y, &z) != NAVBOT_OK) {
        lua_pushnil(L);
        lua_pushstring(L, navbot_world_error(m->w));
        return 2;
    }
    lua_pushnumber(L, z);
    return 1;
}

static void push_graph_info(lua_State *L, const NavbotGraphInfo *g)
{
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, g->areas), lua_setfield(L, -2, "areas");
    lua_pushinteger(L, g->links), lua_setfield(L, -2, "links");
    lua_pushinteger(L, g->clusters), lua_setfield(L, -2, "clusters");
    lua_pushinteger(L, g->portals), lua_setfield(L, -2, "portals");
    lua_pushnumber(L, g->compile_ms), lua_setfield(L, -2, "compile_ms");
    lua_pushboolean(L, g->loaded), lua_setfield(L, -2, "loaded");
}

static int map_compile(lua_State *L)
{
    LMap *m = check_map(L, 1);
    int cls = check_class(L, 2, m);
    NavbotGraphInfo g;
    if (navbot_world_compile(m->w, cls, &g) != NAVBOT_OK) return luaL_error(L, "compile: %s", navbot_world_error(m->w));
    push_graph_info(L, &g);
    return 1;
}

static int map_save_graph(lua_State *L)
{
    LMap *m = check_map(L, 1);
    const char *path = luaL_checkstring(L, 2);
    int cls = check_class(L, 3, m);
    if (navbot_world_save_graph(m->w, cls, path) != NAVBOT_OK)
        return luaL_error(L, "save_graph: %s", navbot_world_error(m->w));
    return 0;
}

static int map_load_graph(lua_State *L)
{
    LMap *m = check_map(L, 1);
    const char *path = luaL_checkstring(L, 2);
    int cls = check_class(L, 3, m);
    if (navbot_world_load_graph(m->w, cls, path) != NAVBOT_OK)
        return luaL_error(L, "load_graph: %s", navbot_world_error(m->w));
    NavbotGraphInfo g;
    navbot_world_compile(m->w, cls, &g);
    push_graph_info(L, &g);
    return 1;
}

/* The no-answer statuses are returned (nil, why); the rest are errors. */
static int answer_or_error(lua_State *L, LMap *m, NavbotStatus st, const char *fn)
{
    if (st == NAVBOT_E_NO_AREA || st == NAVBOT_E_NO_ROUTE) {
        lua_pushnil(L);
        lua_pushstring(L, navbot_world_error(m->w));
        return 2;
    }
    return luaL_error(L, "%s: %s", fn, navbot_world_error(m->w));
}

/* map:route(from, to [, opts]) opts: flags, class. */
static int map_route(lua_State *L)
{
    LMap *m = check_map(L, 1);
    int cls = 0;
    uint32_t flags = 0;
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        static const char *const KEYS[] = { "flags", "class", NULL };
        check_keys(L, 4, KEYS, "options");
        lua_getfield(L, 4, "class");
        cls = check_class(L, lua_gettop(L), m);
        lua_getfield(L, 4, "flags");
        flags = check_flags(L, lua_gettop(L));
        lua_pop(L, 2);
    }
    NavbotRouteQuery q = { .cls = cls, .flags = flags };
    check_point(L, 2, "from", m, cls, q.from);
    check_point(L, 3, "to", m, cls, q.to);
    NavbotWaypoint buf[256];
    NavbotWaypoint *pts = buf;
    NavbotRoute r = { .points = pts, .cap = 256 };
    NavbotStatus st = navbot_route(m->w, &q, &r);
    if (st == NAVBOT_OK && r.count > r.cap) {
        int cap = r.count < MOD_ROUTE_MAX ? r.count : MOD_ROUTE_MAX;
        pts = lua_newuserdatauv(L, (size_t)cap * sizeof *pts, 0);
        r = (NavbotRoute){ .points = pts, .cap = cap };
        st = navbot_route(m->w, &q, &r);
    }
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "route");
    int n = r.count < r.cap ? r.count : r.cap;
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, r.time), lua_setfield(L, -2, "time");
    lua_pushinteger(L, r.links), lua_setfield(L, -2, "links");
    push_point(L, r.from, 3), lua_setfield(L, -2, "from");
    push_point(L, r.to, 3), lua_setfield(L, -2, "to");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_point(L, pts[i].pos, 3);
        const char *how = navbot_travel_name(pts[i].travel);
        lua_pushstring(L, i == 0 ? "start" : how ? how : "walk");
        lua_setfield(L, -2, "travel");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "points");
    return 1;
}

/* map:route_time(from, to [, flags [, class]]) as nav.route_time. */
static int map_route_time(lua_State *L)
{
    LMap *m = check_map(L, 1);
    uint32_t flags = check_flags(L, 4);
    int cls = check_class(L, 5, m);
    NavbotRouteQuery q = { .cls = cls, .flags = flags };
    check_point(L, 2, "from", m, cls, q.from);
    check_point(L, 3, "to", m, cls, q.to);
    float t;
    NavbotStatus st = navbot_route_time(m->w, &q, &t);
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "route_time");
    lua_pushnumber(L, t);
    return 1;
}

/* map:grid_path(from, to [, opts]) opts: class, smooth. */
static int map_grid_path(lua_State *L)
{
    LMap *m = check_map(L, 1);
    int cls = 0;
    bool smooth = false;
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        static const char *const KEYS[] = { "class", "smooth", NULL };
        check_keys(L, 4, KEYS, "options");
        lua_getfield(L, 4, "class");
        cls = check_class(L, lua_gettop(L), m);
        lua_getfield(L, 4, "smooth");
        smooth = lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    float a[3], b[3];
    check_point(L, 2, "from", NULL, cls, a);
    check_point(L, 3, "to", NULL, cls, b);
    float(*pts)[2] = lua_newuserdatauv(L, MOD_GRID_MAX * sizeof *pts, 0);
    NavbotGridPath p = { .points = pts, .cap = MOD_GRID_MAX };
    NavbotStatus st = navbot_grid_path(m->w, cls, a[0], a[1], b[0], b[1], smooth, &p);
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "grid_path");
    int n = p.count < p.cap ? p.count : p.cap;
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, p.length), lua_setfield(L, -2, "length");
    lua_pushboolean(L, p.goal_moved), lua_setfield(L, -2, "goal_moved");
    lua_pushboolean(L, p.start_moved), lua_setfield(L, -2, "start_moved");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        float q[3] = { pts[i][0], pts[i][1], 0 };
        push_point(L, q, 2);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "points");
    return 1;
}

/* map:trace(mins, maxs, start, delta) as nav.trace (no bots here). */
static int map_trace(lua_State *L)
{
    LMap *m = check_map(L, 1);
    float mins[3], maxs[3], start[3], delta[3];
    check_point(L, 2, "mins", NULL, 0, mins);
    check_point(L, 3, "maxs", NULL, 0, maxs);
    check_point(L, 4, "start", NULL, 0, start);
    check_point(L, 5, "delta", NULL, 0, delta);
    if (!(mins[0] < maxs[0] && mins[1] < maxs[1] && mins[2] <= maxs[2])) return luaL_argerror(L, 3, "an empty box");
    NavbotTrace t;
    if (navbot_trace(m->w, mins, maxs, start, delta, &t) != NAVBOT_OK)
        return luaL_error(L, "trace: %s", navbot_world_error(m->w));
    lua_createtable(L, 0, 7);
    lua_pushnumber(L, t.fraction), lua_setfield(L, -2, "fraction");
    lua_pushboolean(L, t.hit), lua_setfield(L, -2, "hit");
    lua_pushboolean(L, t.start_solid), lua_setfield(L, -2, "start_solid");
    lua_pushboolean(L, t.world), lua_setfield(L, -2, "static");
    push_point(L, t.end, 3), lua_setfield(L, -2, "end_pos");
    push_point(L, t.normal, 3), lua_setfield(L, -2, "normal");
    if (t.hit) lua_pushstring(L, t.world ? "world" : "entity"), lua_setfield(L, -2, "what");
    return 1;
}

/* map:random_point(near [, radius [, class]]) */
static int map_random_point(lua_State *L)
{
    LMap *m = check_map(L, 1);
    int cls = check_class(L, 4, m);
    float near[3], out[3];
    check_point(L, 2, "near", m, cls, near);
    lua_Number radius = luaL_optnumber(L, 3, 0.0);
    if (!isfinite(radius) || radius < 0) return luaL_argerror(L, 3, "radius: a number >= 0 (0: anywhere)");
    NavbotStatus st = navbot_world_random_point(m->w, cls, near, (float)radius, out);
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "random_point");
    push_point(L, out, 3);
    return 1;
}

static int map_sim(lua_State *L);

/* }======= */

/* {======= simulations ======= */

static void lsim_log(void *user, const char *line)
{
    LSim *s = user;
    size_t len = strlen(line) + 1;
    if (s->log_len + len > MOD_LOG_MAX) {
        s->log_dropped = true;
        return;
    }
    if (s->log_len + len > s->log_cap) {
        size_t cap = s->log_cap ? s->log_cap : 1024;
        while (cap < s->log_len + len) cap *= 2;
        char *n = realloc(s->log, cap);
        if (!n) {
            s->log_dropped = true;
            return;
        }
        s->log = n;
        s->log_cap = cap;
    }
    memcpy(s->log + s->log_len, line, len);
    s->log_len += len;
}

static void lsim_release(LSim *s)
{
    if (s->s) {
        navbot_session_destroy(s->s);
        s->s = NULL;
        if (s->map) s->map->sims--;
    }
    s->map = NULL;
    free(s->log);
    s->log = NULL;
    s->log_len = s->log_cap = 0;
}

static int lsim_close(lua_State *L)
{
    lsim_release(luaL_checkudata(L, 1, SIM_MT));
    return 0;
}

static int lsim_tostring(lua_State *L)
{
    LSim *s = luaL_checkudata(L, 1, SIM_MT);
    if (s->s)
        lua_pushfstring(L, "nav.Sim tick %I, %d bots", (LUAI_UACINT)navbot_session_tick(s->s),
                        navbot_session_bot_count(s->s));
    else lua_pushstring(L, "nav.Sim (closed)");
    return 1;
}

/* map:sim([opts]) opts: seed, hz, dirs (project folders), print (function
** for brain output; default: standard error). */
static int map_sim(lua_State *L)
{
    LMap *m = check_map(L, 1);
    NavbotSessionDesc d = { 0 };
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        static const char *const KEYS[] = { "seed", "hz", "dirs", "print", NULL };
        check_keys(L, 2, KEYS, "options");
        lua_getfield(L, 2, "seed");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1)) return luaL_argerror(L, 2, "options: seed must be an integer");
            d.seed = (uint64_t)lua_tointeger(L, -1);
        }
        lua_getfield(L, 2, "hz");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 1000)
                return luaL_argerror(L, 2, "options: hz must be an integer from 1 to 1000");
            d.tick_hz = (int)lua_tointeger(L, -1);
        }
        lua_getfield(L, 2, "dirs");
        if (!lua_isnil(L, -1)) {
            if (!lua_istable(L, -1)) return luaL_argerror(L, 2, "options: dirs must be a list of folders");
            lua_Integer n = luaL_len(L, -1);
            if (n > NAVBOT_MAX_PROJECT_DIRS) return luaL_argerror(L, 2, "options: dirs holds at most 4 folders");
            for (lua_Integer i = 1; i <= n; i++) {
                lua_rawgeti(L, -1, i);
                if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 2, "options: dirs must hold strings");
                d.project_dirs[i - 1] = lua_tostring(L, -1); /* anchored in the options table */
                lua_pop(L, 1);
            }
        }
        lua_getfield(L, 2, "print");
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            return luaL_argerror(L, 2, "options: print must be a function");
        lua_pop(L, 4);
    }
    LSim *s = lua_newuserdatauv(L, sizeof *s, 2);
    memset(s, 0, sizeof *s);
    luaL_setmetatable(L, SIM_MT);
    d.log = lsim_log;
    d.log_user = s;
    NavbotError e;
    if (navbot_session_create(m->w, &d, &s->s, &e) != NAVBOT_OK) return luaL_error(L, "sim: %s", e.text);
    s->map = m;
    m->sims++;
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "print");
        lua_setiuservalue(L, -2, 2);
    }
    return 1;
}

/* sim:add_bot{brain=, at=, goal=, class=, yaw=, radius=} -> id [, why] */
static int lsim_add_bot(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    static const char *const KEYS[] = { "brain", "at", "goal", "class", "yaw", "radius", NULL };
    check_keys(L, 2, KEYS, "bot");
    NavbotBotDesc d = { 0 };
    int top = lua_gettop(L);
    lua_getfield(L, 2, "class");
    d.cls = check_class(L, top + 1, s->map);
    lua_getfield(L, 2, "brain");
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 2, "bot: brain must be a name or a path");
        d.brain = lua_tostring(L, -1);
    }
    lua_getfield(L, 2, "at");
    if (lua_isnil(L, -1)) return luaL_argerror(L, 2, "bot: at (a point) is required");
    check_point_at(L, top + 3, 2, "at", s->map, d.cls, d.at);
    lua_getfield(L, 2, "goal");
    if (!lua_isnil(L, -1)) {
        check_point_at(L, top + 4, 2, "goal", s->map, d.cls, d.goal);
        d.has_goal = true;
    }
    lua_getfield(L, 2, "yaw");
    if (!lua_isnil(L, -1)) {
        int ok;
        d.yaw = (float)lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(d.yaw)) return luaL_argerror(L, 2, "bot: yaw must be a number (degrees)");
    }
    lua_getfield(L, 2, "radius");
    if (!lua_isnil(L, -1)) {
        int ok;
        d.goal_radius = (float)lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(d.goal_radius) || d.goal_radius < 0)
            return luaL_argerror(L, 2, "bot: radius must be a number >= 0");
    }
    int id;
    NavbotStatus st = navbot_session_add_bot(s->s, &d, &id);
    if (st == NAVBOT_E_BRAIN) {
        lua_pushinteger(L, id);
        lua_pushstring(L, navbot_session_error(s->s));
        return 2;
    }
    if (st != NAVBOT_OK) return luaL_error(L, "add_bot: %s", navbot_session_error(s->s));
    lua_pushinteger(L, id);
    return 1;
}

static int check_bot(lua_State *L, LSim *s, int arg)
{
    lua_Integer id = luaL_checkinteger(L, arg);
    if (id < 0 || id >= navbot_session_bot_count(s->s))
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "no bot %I (there are %d)", (LUAI_UACINT)id, navbot_session_bot_count(s->s)));
    return (int)id;
}

/* sim:control(id, {move = {dx, dy}, jump =, crouch =, use =}) */
static int lsim_control(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    int id = check_bot(L, s, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    static const char *const KEYS[] = { "move", "jump", "crouch", "use", NULL };
    check_keys(L, 3, KEYS, "controls");
    NavbotControls c = { 0 };
    lua_getfield(L, 3, "move");
    if (!lua_isnil(L, -1)) {
        float v[3];
        check_point_at(L, lua_gettop(L), 3, "move", NULL, 0, v);
        c.move[0] = v[0];
        c.move[1] = v[1];
    }
    lua_getfield(L, 3, "jump");
    c.jump = lua_toboolean(L, -1);
    lua_getfield(L, 3, "crouch");
    c.crouch = lua_toboolean(L, -1);
    lua_getfield(L, 3, "use");
    c.use = lua_toboolean(L, -1);
    if (navbot_session_set_controls(s->s, id, &c) != NAVBOT_OK)
        return luaL_error(L, "control: %s", navbot_session_error(s->s));
    return 0;
}

/* sim:add_goal(id, point [, radius]) */
static int lsim_add_goal(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    int id = check_bot(L, s, 2);
    float p[3];
    check_point(L, 3, "goal", s->map, 0, p);
    lua_Number r = luaL_optnumber(L, 4, 0.0);
    if (!isfinite(r) || r < 0) return luaL_argerror(L, 4, "radius: a number >= 0");
    if (navbot_session_add_goal(s->s, id, p, (float)r) != NAVBOT_OK)
        return luaL_error(L, "add_goal: %s", navbot_session_error(s->s));
    return 0;
}

/* Hand the brains' output of the last step to print (or stderr). */
static void flush_log(lua_State *L, LSim *s, int self)
{
    if (!s->log_len && !s->log_dropped) return;
    lua_getiuservalue(L, self, 2);
    bool fn = lua_isfunction(L, -1);
    size_t at = 0;
    /* Take the text out first: print may step this simulation again. */
    char *log = s->log;
    size_t len = s->log_len;
    bool dropped = s->log_dropped;
    s->log = NULL;
    s->log_len = s->log_cap = 0;
    s->log_dropped = false;
    while (at < len) {
        const char *line = log + at;
        at += strlen(line) + 1;
        if (fn) {
            lua_pushvalue(L, -1);
            lua_pushstring(L, line);
            if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
                free(log);
                lua_error(L);
            }
        } else {
            fprintf(stderr, "%s\n", line);
        }
    }
    if (dropped && !fn) fprintf(stderr, "nav: brain output over %d bytes in one step was dropped\n", MOD_LOG_MAX);
    free(log);
    lua_pop(L, 1);
}

static int lsim_step(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    if (n < 0 || n > 100000000) return luaL_argerror(L, 2, "ticks: 0 to 100000000");
    /* Step in slices so print output reaches the caller as it goes. */
    while (n > 0) {
        int k = n > 30 ? 30 : (int)n;
        navbot_session_step(s->s, k);
        n -= k;
        flush_log(L, s, 1);
        if (!s->s) break; /* closed from print */
    }
    lua_pushinteger(L, s->s ? (lua_Integer)navbot_session_tick(s->s) : 0);
    return 1;
}

static int lsim_tick(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)navbot_session_tick(check_sim(L, 1)->s));
    return 1;
}

static int lsim_time(lua_State *L)
{
    lua_pushnumber(L, navbot_session_time(check_sim(L, 1)->s));
    return 1;
}

static int lsim_hash(lua_State *L)
{
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)navbot_session_hash(check_sim(L, 1)->s));
    lua_pushstring(L, hex);
    return 1;
}

static void push_bot(lua_State *L, LSim *s, int id)
{
    NavbotBotState b;
    navbot_session_bot(s->s, id, &b);
    lua_createtable(L, 0, 20);
    lua_pushinteger(L, b.id), lua_setfield(L, -2, "id");
    lua_pushstring(L, navbot_world_class_name(s->map->w, b.cls)), lua_setfield(L, -2, "class");
    push_point(L, b.pos, 3), lua_setfield(L, -2, "pos");
    push_point(L, b.vel, 3), lua_setfield(L, -2, "velocity");
    lua_pushnumber(L, b.yaw), lua_setfield(L, -2, "yaw");
    lua_pushboolean(L, b.on_ground), lua_setfield(L, -2, "on_ground");
    lua_pushboolean(L, b.in_water), lua_setfield(L, -2, "in_water");
    lua_pushboolean(L, b.on_ladder), lua_setfield(L, -2, "on_ladder");
    lua_pushboolean(L, b.crouched), lua_setfield(L, -2, "crouched");
    lua_pushboolean(L, b.arrived), lua_setfield(L, -2, "arrived");
    lua_pushinteger(L, b.goals_reached), lua_setfield(L, -2, "goals_reached");
    lua_pushinteger(L, b.goals_left), lua_setfield(L, -2, "goals_left");
    if (b.arrival_time >= 0) lua_pushnumber(L, b.arrival_time), lua_setfield(L, -2, "arrival_time");
    lua_pushnumber(L, b.stuck_time), lua_setfield(L, -2, "stuck_time");
    lua_pushnumber(L, b.distance), lua_setfield(L, -2, "distance");
    lua_pushboolean(L, b.faulted), lua_setfield(L, -2, "faulted");
    if (b.error) lua_pushstring(L, b.error), lua_setfield(L, -2, "error");
    lua_pushstring(L, b.brain), lua_setfield(L, -2, "brain");
    lua_pushstring(L, b.state), lua_setfield(L, -2, "state");
}

static int lsim_bot(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    push_bot(L, s, check_bot(L, s, 2));
    return 1;
}

static int lsim_bots(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    int n = navbot_session_bot_count(s->s);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_bot(L, s, i);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int lsim_png(lua_State *L)
{
    LSim *s = check_sim(L, 1);
    const char *path = luaL_checkstring(L, 2);
    lua_Integer width = luaL_optinteger(L, 3, 0);
    if (width != 0 && (width < 64 || width > 8192)) return luaL_argerror(L, 3, "width: 64 to 8192 pixels (0: 1280)");
    if (navbot_session_png(s->s, path, (int)width) != NAVBOT_OK)
        return luaL_error(L, "png: %s", navbot_session_error(s->s));
    return 0;
}

/* }======= */

/* {======= registration ======= */

static const luaL_Reg MAP_METHODS[] = {
    { "info", map_info },
    { "point", map_point },
    { "floor_z", map_floor_z },
    { "compile", map_compile },
    { "save_graph", map_save_graph },
    { "load_graph", map_load_graph },
    { "route", map_route },
    { "route_time", map_route_time },
    { "grid_path", map_grid_path },
    { "trace", map_trace },
    { "random_point", map_random_point },
    { "sim", map_sim },
    { "close", map_close },
    { NULL, NULL },
};

static const luaL_Reg SIM_METHODS[] = {
    { "add_bot", lsim_add_bot }, { "control", lsim_control }, { "add_goal", lsim_add_goal }, { "step", lsim_step },
    { "tick", lsim_tick },       { "time", lsim_time },       { "hash", lsim_hash },         { "bot", lsim_bot },
    { "bots", lsim_bots },       { "png", lsim_png },         { "close", lsim_close },       { NULL, NULL },
};

static const luaL_Reg MOD_FUNCTIONS[] = {
    { "load_map", mod_load_map },         { "bundled", mod_bundled },
    { "version", mod_version },           { "travel_types", nav_api_travel_types },
    { "area_flags", nav_api_area_flags }, { NULL, NULL },
};

static void new_class(lua_State *L, const char *name, const luaL_Reg *methods, lua_CFunction gc, lua_CFunction close,
                      lua_CFunction tostring)
{
    luaL_newmetatable(L, name);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, gc), lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, close), lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, tostring), lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, name), lua_setfield(L, -2, "__name");
    lua_pushboolean(L, 0), lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
int luaopen_nav(lua_State *L);

int luaopen_nav(lua_State *L)
{
    new_class(L, MAP_MT, MAP_METHODS, map_gc, map_gc, map_tostring);
    new_class(L, SIM_MT, SIM_METHODS, lsim_close, lsim_close, lsim_tostring);
    luaL_newlib(L, MOD_FUNCTIONS);
    lua_pushstring(L, navbot_version());
    lua_setfield(L, -2, "VERSION");
    return 1;
}

/* }======= */

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
#include "nav_module_internal.h"

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
    navmod_check_keys(L, opts, KEYS, "options");
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
    LMap *m = navmod_check_map(L, 1);
    NavbotWorldInfo info;
    navbot_world_info(m->w, &info);
    lua_createtable(L, 0, 8);
    lua_pushstring(L, info.name), lua_setfield(L, -2, "name");
    lua_pushstring(L, info.source), lua_setfield(L, -2, "source");
    lua_pushinteger(L, info.width), lua_setfield(L, -2, "width");
    lua_pushinteger(L, info.height), lua_setfield(L, -2, "height");
    lua_pushnumber(L, info.cell_size), lua_setfield(L, -2, "cell_size");
    float size[3] = { info.size[0], info.size[1], 0 };
    navmod_push_point(L, size, 2), lua_setfield(L, -2, "size");
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
    LMap *m = navmod_check_map(L, 1);
    const char *name = luaL_checkstring(L, 2);
    float p[3];
    if (navbot_world_entity_point(m->w, name, p) != NAVBOT_OK) return luaL_argerror(L, 2, navbot_world_error(m->w));
    navmod_push_point(L, p, 3);
    return 1;
}

static int map_floor_z(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    float x = (float)luaL_checknumber(L, 2), y = (float)luaL_checknumber(L, 3), z;
    int cls = navmod_check_class(L, 4, m);
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
    LMap *m = navmod_check_map(L, 1);
    int cls = navmod_check_class(L, 2, m);
    NavbotGraphInfo g;
    if (navbot_world_compile(m->w, cls, &g) != NAVBOT_OK) return luaL_error(L, "compile: %s", navbot_world_error(m->w));
    push_graph_info(L, &g);
    return 1;
}

static int map_save_graph(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    const char *path = luaL_checkstring(L, 2);
    int cls = navmod_check_class(L, 3, m);
    if (navbot_world_save_graph(m->w, cls, path) != NAVBOT_OK)
        return luaL_error(L, "save_graph: %s", navbot_world_error(m->w));
    return 0;
}

static int map_load_graph(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    const char *path = luaL_checkstring(L, 2);
    int cls = navmod_check_class(L, 3, m);
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
    LMap *m = navmod_check_map(L, 1);
    int cls = 0;
    uint32_t flags = 0;
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        static const char *const KEYS[] = { "flags", "class", NULL };
        navmod_check_keys(L, 4, KEYS, "options");
        lua_getfield(L, 4, "class");
        cls = navmod_check_class(L, lua_gettop(L), m);
        lua_getfield(L, 4, "flags");
        flags = navmod_check_flags(L, lua_gettop(L));
        lua_pop(L, 2);
    }
    NavbotRouteQuery q = { .cls = cls, .flags = flags };
    navmod_check_point(L, 2, "from", m, cls, q.from);
    navmod_check_point(L, 3, "to", m, cls, q.to);
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
    navmod_push_point(L, r.from, 3), lua_setfield(L, -2, "from");
    navmod_push_point(L, r.to, 3), lua_setfield(L, -2, "to");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        navmod_push_point(L, pts[i].pos, 3);
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
    LMap *m = navmod_check_map(L, 1);
    uint32_t flags = navmod_check_flags(L, 4);
    int cls = navmod_check_class(L, 5, m);
    NavbotRouteQuery q = { .cls = cls, .flags = flags };
    navmod_check_point(L, 2, "from", m, cls, q.from);
    navmod_check_point(L, 3, "to", m, cls, q.to);
    float t;
    NavbotStatus st = navbot_route_time(m->w, &q, &t);
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "route_time");
    lua_pushnumber(L, t);
    return 1;
}

/* map:grid_path(from, to [, opts]) opts: class, smooth. */
static int map_grid_path(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    int cls = 0;
    bool smooth = false;
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        static const char *const KEYS[] = { "class", "smooth", NULL };
        navmod_check_keys(L, 4, KEYS, "options");
        lua_getfield(L, 4, "class");
        cls = navmod_check_class(L, lua_gettop(L), m);
        lua_getfield(L, 4, "smooth");
        smooth = lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    float a[3], b[3];
    navmod_check_point(L, 2, "from", NULL, cls, a);
    navmod_check_point(L, 3, "to", NULL, cls, b);
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
        navmod_push_point(L, q, 2);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "points");
    return 1;
}

/* map:trace(mins, maxs, start, delta) as nav.trace (no bots here). */
static int map_trace(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    float mins[3], maxs[3], start[3], delta[3];
    navmod_check_point(L, 2, "mins", NULL, 0, mins);
    navmod_check_point(L, 3, "maxs", NULL, 0, maxs);
    navmod_check_point(L, 4, "start", NULL, 0, start);
    navmod_check_point(L, 5, "delta", NULL, 0, delta);
    if (!(mins[0] < maxs[0] && mins[1] < maxs[1] && mins[2] <= maxs[2])) return luaL_argerror(L, 3, "an empty box");
    NavbotTrace t;
    if (navbot_trace(m->w, mins, maxs, start, delta, &t) != NAVBOT_OK)
        return luaL_error(L, "trace: %s", navbot_world_error(m->w));
    lua_createtable(L, 0, 7);
    lua_pushnumber(L, t.fraction), lua_setfield(L, -2, "fraction");
    lua_pushboolean(L, t.hit), lua_setfield(L, -2, "hit");
    lua_pushboolean(L, t.start_solid), lua_setfield(L, -2, "start_solid");
    lua_pushboolean(L, t.world), lua_setfield(L, -2, "static");
    navmod_push_point(L, t.end, 3), lua_setfield(L, -2, "end_pos");
    navmod_push_point(L, t.normal, 3), lua_setfield(L, -2, "normal");
    if (t.hit) lua_pushstring(L, t.world ? "world" : "entity"), lua_setfield(L, -2, "what");
    return 1;
}

/* map:random_point(near [, radius [, class]]) */
static int map_random_point(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    int cls = navmod_check_class(L, 4, m);
    float near[3], out[3];
    navmod_check_point(L, 2, "near", m, cls, near);
    lua_Number radius = luaL_optnumber(L, 3, 0.0);
    if (!isfinite(radius) || radius < 0) return luaL_argerror(L, 3, "radius: a number >= 0 (0: anywhere)");
    NavbotStatus st = navbot_world_random_point(m->w, cls, near, (float)radius, out);
    if (st != NAVBOT_OK) return answer_or_error(L, m, st, "random_point");
    navmod_push_point(L, out, 3);
    return 1;
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
    { "sim", navmod_map_sim },
    { "close", map_close },
    { NULL, NULL },
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
    new_class(L, SIM_MT, navmod_sim_methods, navmod_sim_close, navmod_sim_close, navmod_sim_tostring);
    luaL_newlib(L, MOD_FUNCTIONS);
    lua_pushstring(L, navbot_version());
    lua_setfield(L, -2, "VERSION");
    return 1;
}

/* }======= */

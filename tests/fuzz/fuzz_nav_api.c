/*
** fuzz_nav_api.c — the Lua `nav` API: random calls with random arguments.
**
** One sandboxed Lua state per input holds both faces of the API: the
** brains' `nav` (script/nav_api.h) on a simulation of maps/arena.lua with
** two bots, and the stock-Lua module (nav.so's luaopen_nav, engine/api)
** as `navm`, with a map and a simulation of its own plus a map and a
** simulation already closed. The input is decoded into up to
** FUZZ_MAX_CALLS operations:
**   byte 0x00-0xEF  a call: the callable (every function of nav, nav.draw,
**                   navm, and every method of nav.Bot, nav.Map, nav.Sim, in
**                   name order) is the byte; then a byte for `self` (for
**                   methods: mostly an object of the right kind, else any
**                   value), a byte for the argument count (0-5) and one
**                   byte per argument, picked from a pool of values:
**                   numbers (0, -1, huge, NaN, inf, the integer limits),
**                   strings (entity, travel, event names, shapes; empty;
**                   long), tables (points good and bad, name lists,
**                   footprints, spawn, foundation and formation options, a
**                   table whose __index raises), functions, a coroutine, bots, maps
**                   and simulations (of every kind, open and closed), and
**                   the results of earlier calls.
**   0xF0-0xF7       the brains' simulation steps one tick
**   0xF8            navm's simulation and then its map are closed (the
**                   pool still holds them: objects used after they are gone)
**   0xF9            a full garbage collection
**   else            nothing
** A call may fail (a Lua error naming the argument); it must not crash,
** hang or leak. Methods that write files (png, save_graph) are left out;
** sim:step is called with at most 60 ticks.
*/
#include "fuzz_support.h"

#include <lauxlib.h>
#include <stdbool.h>

#include "lua/sandbox.h"
#include "script/nav_api.h"

int luaopen_nav(lua_State *L);

#define FUZZ_MAX_CALLS 48

/* Arguments: nav, navm, bot methods, map methods, sim methods, root.
** Returns the callables {name, fn, kind} (kind: 0 function, 1 bot, 2 map,
** 3 sim method) and the pool of values, then the objects by kind. */
static const char SETUP[] =
    "local nav, navm, botm, mapm, simm, root = ...\n"
    "local F = {}\n"
    "local function add(prefix, t, kind)\n"
    "  local names = {}\n"
    "  for k, v in pairs(t) do if type(v) == 'function' then names[#names + 1] = k end end\n"
    "  table.sort(names)\n"
    "  for _, k in ipairs(names) do\n"
    "    if k ~= 'png' and k ~= 'save_graph' then F[#F + 1] = { prefix .. k, t[k], kind } end\n"
    "  end\n"
    "end\n"
    "add('nav.', nav, 0)\n"
    "if type(nav.draw) == 'table' then add('nav.draw.', nav.draw, 0) end\n"
    "add('navm.', navm, 0)\n"
    "add('bot:', botm, 1)\n"
    "add('map:', mapm, 2)\n"
    "add('sim:', simm, 3)\n"
    "for _, f in ipairs(F) do\n"
    "  if f[1] == 'sim:step' then\n"
    "    local step = f[2]\n"
    "    f[2] = function(s, n, ...)\n"
    "      if math.type(n) == 'integer' and n > 60 then n = 60 end\n"
    "      return step(s, n, ...)\n"
    "    end\n"
    "  end\n"
    "end\n"
    "local map = navm.load_map(root .. '/maps/arena.lua')\n"
    "local sim = map:sim { seed = 1 }\n"
    "sim:add_bot { at = map:point('spawn_a'), goal = map:point('centre') }\n"
    "local gone_map = navm.load_map(root .. '/tests/scenarios/maps/hole.lua')\n"
    "local gone_sim = gone_map:sim {}\n"
    "gone_sim:close()\n"
    "gone_map:close()\n"
    "local b0, b1 = nav.bot(0), nav.bot(1)\n"
    "local P = {\n"
    "  true, false, 0, 1, -1, 2, 3, 7, 0.5, -0.25, 100, 1e308, -1e308, 0 / 0, math.huge, -math.huge,\n"
    "  math.maxinteger, math.mininteger, 1e30, 2 ^ 53, 1e-300,\n"
    "  '', 'spawn_a', 'spawn_b', 'centre', 'walk', 'swim', 'ladder', 'ledge', 'lava', 'runner', 'human',\n"
    "  'arrive', 'stuck', 'nope', 'a.b', '../x', string.rep('x', 300), '\\0',\n"
    "  {}, { 1, 2 }, { 2, 2, 0 }, { 12, 7, 0 }, { x = 5, y = 5, z = 0 }, { 1e308, 0 / 0, 1 }, { 'walk', 'swim' },\n"
    "  { flags = { 'walk' }, radius = 2 }, { 1, 2, 3, 4 }, { { 1, 2 }, { 3, 4 } }, { seed = 1 }, { brain = 'runner' "
    "},\n"
    "  { x = 12, y = 7, hw = 2, hh = 2, angle = 0.5 }, { x = 12, y = 7, hw = 3, hh = 1, class = 'human', n = 4,\n"
    "    rally_x = 2, rally_y = 2, rings = 3 }, { x = 12, y = 7, hw = 1, hh = 1, height = 2, builder = 0 },\n"
    "  { x = 3, y = 3, rules = { max_slope = 10, shore = 1e308, spacing = -1 } }, { shape = 'wedge', spacing = 2 },\n"
    "  { shape = 'line', spacing = 0 / 0 }, { min = 2, range = 5 }, { inverted = true, radius = 3 }, 'box', 'wedge',\n"
    "  setmetatable({}, { __index = function() error('no such field', 0) end }),\n"
    "  function() return 1 end, coroutine.create(function() end),\n"
    "  b0, b1, map, sim, gone_map, gone_sim,\n"
    "}\n"
    "return F, P, { b0, b1, b1 }, { map, gone_map, map }, { sim, gone_sim, sim }, map, sim\n";

/* Registry references of what the setup returned. */
typedef struct Api {
    int fns, pool, objs[4], map, sim;
    int nfns, npool;
} Api;

static NavWorld *world;
static float spawn_a[3], spawn_b[3], centre[3];

#define RESULTS 8 /* pool slots that hold the last calls' first results */

static void push_pool(lua_State *L, const Api *a, unsigned pick)
{
    unsigned n = (unsigned)a->npool + RESULTS + 1;
    pick %= n;
    if (pick == 0) {
        lua_pushnil(L);
        return;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->pool);
    lua_rawgeti(L, -1, (lua_Integer)pick);
    lua_remove(L, -2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) {
        world = fuzz_load_map("maps/arena.lua");
        fuzz_entity_point(world, "spawn_a", spawn_a);
        fuzz_entity_point(world, "spawn_b", spawn_b);
        fuzz_entity_point(world, "centre", centre);
    }
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(world, &(NavSimDesc){ .seed = 3 }, &err);
    if (!sim) abort();
    int b0 = sim_add_bot(sim, &(NavBotDesc){ .pos = { spawn_a[0], spawn_a[1], spawn_a[2] } }, &err);
    int b1 = sim_add_bot(sim, &(NavBotDesc){ .pos = { spawn_b[0], spawn_b[1], spawn_b[2] } }, &err);
    if (b0 < 0 || b1 < 0) abort();
    sim_bot_push_goal(sim, (uint32_t)b0, centre, 0.5f);
    Sandbox *sb = sandbox_create(
        &(SandboxDesc){ .memory_limit = 64u << 20, .instruction_limit = 200000, .what = "bot brains" }, &err);
    if (!sb) abort();
    lua_State *L = sandbox_state(sb);
    nav_api_open(L, sim);
    lua_pushcfunction(L, luaopen_nav);
    if (NAV_FAILED(sandbox_call(sb, 0, 1, &err))) {
        fprintf(stderr, "luaopen_nav: %s\n", err.message);
        abort();
    }
    lua_setglobal(L, "navm");

    Api a = { 0 };
    if (NAV_FAILED(sandbox_load(sb, SETUP, sizeof SETUP - 1, "=setup", &err))) {
        fprintf(stderr, "setup: %s\n", err.message);
        abort();
    }
    lua_getglobal(L, "nav");
    lua_getglobal(L, "navm");
    const char *metas[] = { "nav.Bot", "nav.Map", "nav.Sim" };
    for (int i = 0; i < 3; i++) {
        luaL_getmetatable(L, metas[i]);
        lua_getfield(L, -1, "__index");
        lua_remove(L, -2);
    }
    lua_pushstring(L, FUZZ_ROOT);
    if (NAV_FAILED(sandbox_call(sb, 6, 7, &err))) {
        fprintf(stderr, "setup: %s\n", err.message);
        abort();
    }
    a.sim = luaL_ref(L, LUA_REGISTRYINDEX);
    a.map = luaL_ref(L, LUA_REGISTRYINDEX);
    for (int k = 3; k >= 1; k--) a.objs[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    a.npool = (int)lua_rawlen(L, -1);
    a.pool = luaL_ref(L, LUA_REGISTRYINDEX);
    a.nfns = (int)lua_rawlen(L, -1);
    a.fns = luaL_ref(L, LUA_REGISTRYINDEX);

    /* FUZZ_VERBOSE=1: each call on standard error, to read a finding. */
    const char *v = getenv("FUZZ_VERBOSE");
    bool verbose = v && *v && strcmp(v, "0") != 0;
    size_t at = 0;
    int calls = 0, result = 0;
#define NEXT() (at < size ? data[at++] : 0u)
    while (at < size && calls < FUZZ_MAX_CALLS) {
        unsigned op = data[at++];
        if (op >= 0xF0) {
            if (op <= 0xF7) {
                sim_step(sim);
            } else if (op == 0xF8) {
                static const char CLOSE[] = "local map, sim = ...\nsim:close()\nmap:close()\n";
                if (NAV_SUCCEEDED(sandbox_load(sb, CLOSE, sizeof CLOSE - 1, "=close", &err))) {
                    lua_rawgeti(L, LUA_REGISTRYINDEX, a.map);
                    lua_rawgeti(L, LUA_REGISTRYINDEX, a.sim);
                    (void)sandbox_call(sb, 2, 0, &err);
                }
            } else if (op == 0xF9) {
                lua_gc(L, LUA_GCCOLLECT);
            }
            continue;
        }
        calls++;
        lua_settop(L, 0);
        lua_rawgeti(L, LUA_REGISTRYINDEX, a.fns);
        lua_rawgeti(L, -1, (lua_Integer)(op % (unsigned)a.nfns) + 1);
        lua_rawgeti(L, -1, 2);
        int kind = (lua_rawgeti(L, -2, 3), (int)lua_tointeger(L, -1));
        lua_pop(L, 1);
        lua_remove(L, 1);
        lua_remove(L, 1); /* the function alone */
        if (verbose) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, a.fns);
            lua_rawgeti(L, -1, (lua_Integer)(op % (unsigned)a.nfns) + 1);
            lua_rawgeti(L, -1, 1);
            fprintf(stderr, "call %s", lua_tostring(L, -1));
            lua_pop(L, 3);
        }
        int nargs = 0;
        if (kind > 0) {
            unsigned self = NEXT();
            if (self & 3) {
                lua_rawgeti(L, LUA_REGISTRYINDEX, a.objs[kind]);
                lua_rawgeti(L, -1, (lua_Integer)(self & 3));
                lua_remove(L, -2);
            } else {
                push_pool(L, &a, self >> 2);
            }
            nargs++;
        }
        int more = (int)(NEXT() % 6);
        for (int i = 0; i < more; i++) push_pool(L, &a, NEXT());
        nargs += more;
        if (verbose) {
            for (int i = 2; i <= lua_gettop(L); i++) {
                const char *t = luaL_typename(L, i);
                if (lua_type(L, i) == LUA_TNUMBER || lua_type(L, i) == LUA_TSTRING)
                    fprintf(stderr, " %s", lua_tostring(L, i));
                else fprintf(stderr, " <%s>", t);
            }
            fprintf(stderr, "\n");
        }
        NavStatus st = sandbox_call(sb, nargs, 1, &err);
        if (NAV_FAILED(st)) {
            if (verbose) fprintf(stderr, "  -> %s\n", err.message);
            fuzz_must_say_why(&err);
            continue;
        }
        /* The first result joins the pool (an obstacle id, an area, a
        ** route, a bot...), for later calls to use. */
        lua_rawgeti(L, LUA_REGISTRYINDEX, a.pool);
        lua_pushvalue(L, -2);
        lua_rawseti(L, -2, (lua_Integer)(a.npool + 1 + (result++ % RESULTS)));
        lua_settop(L, 0);
    }
#undef NEXT
    lua_settop(L, 0);
    sandbox_destroy(sb);
    sim_destroy(sim);
    return 0;
}

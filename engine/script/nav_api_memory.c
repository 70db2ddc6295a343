/*
** nav_api_memory.c — navigation memories from Lua (route_memory.h, sim.h
** "navigation memories"); docs/lua-api.md, "Navigation memory".
**
**   bot:memory([opts]) -> mem        the bot's memory, made empty the first
**                                    time (opts.links_per_area, default 8):
**                                    from then on it learns what it sees
**   bot:has_memory() -> bool         false: it knows everything
**   bot:drop_memory()                back to knowing everything
**   bot:share_memory(other)          learn into other's memory (a team's)
**   bot:sight([metres]) -> metres    how far it sees bodies to learn from
**   bot:sight_floors([on]) -> on     learns walks to the floor it sees (default true)
**   bot:sees(other | x, y, z) -> bool    a body there in its sight?
**   bot:memory_route(x, y, z [, opts]) -> route | nil, why
**       the route within what it knows: opts.flags, opts.now (search to
**       the end at once; default: sliced over the next ticks). A route
**       table as bot:route's, plus state ("ready", "searching"), partial
**       (true while searching: the best route found so far) and expanded.
**       nil and "searching" while there is nothing yet, "queued" when the
**       pool is full, "no route within memory" when there is none.
**   bot:explore_route(x, y, z [, opts]) -> route | nil, why
**       the route over known links to the frontier link (last, unknown)
**       best for reaching x, y, z: opts.flags, opts.try (travel types it
**       may try, default walk and crouch), opts.shun (link ids not to try)
**   mem:knows_area(id), mem:knows_link(id), mem:learn_area(id),
**   mem:learn_link(id), mem:forget_area(id), mem:forget_link(id), mem:clear()
**   mem:learn_reachable(x, y, z [, {types=, layer=, flags=}]) -> links learned
**   mem:areas() -> {ids}, mem:links() -> {ids}
**   mem:stats() -> {areas, links, bytes, version, links_per_area, users}
**   mem:copy(other_mem), mem:merge(other_mem)
**   mem:save(file), mem:load(file) -> true | nil, why
**   mem:search() -> {state, goal, expanded, settled, frontier, time} | nil
**   mem:route(from, to [, {flags=}]) -> route | nil, why   between two points
**       {x, y, z}, within the memory, searched at once
**   nav.search_budget([{bot=, world=}]) -> bot, world   link expansions per tick
**   nav.learn_stats() -> {...}                          sim.h SimLearnStats
**
** A memory object holds its bot's id and finds the memory on each call, so
** one kept after the bot dropped its memory is refused, never dangling.
*/
#include "script/nav_api_internal.h"

#include <math.h>
#include <string.h>

#include "core/timer.h"
#include "route/route_memory.h"

#define MEM_META "nav.Memory"

typedef struct MemRef {
    uint32_t bot;
} MemRef;

static NavMemory *check_mem(lua_State *L, int arg, NavSim **sim_out)
{
    const MemRef *ref = luaL_checkudata(L, arg, MEM_META);
    NavSim *sim = nav_api_sim(L);
    NavMemory *m = sim_bot_memory(sim, ref->bot);
    if (!m) luaL_argerror(L, arg, "its bot has no memory any more");
    if (sim_out) *sim_out = sim;
    return m;
}

static void push_mem(lua_State *L, uint32_t bot)
{
    MemRef *ref = lua_newuserdatauv(L, sizeof *ref, 0);
    ref->bot = bot;
    luaL_setmetatable(L, MEM_META);
}

static uint32_t check_area(lua_State *L, int arg, const NavMemory *m)
{
    lua_Integer a = luaL_checkinteger(L, arg);
    if (a < 0 || (uint64_t)a >= area_count(memory_graph(m))) luaL_argerror(L, arg, "no such area");
    return (uint32_t)a;
}

static uint32_t check_link(lua_State *L, int arg, const NavMemory *m)
{
    lua_Integer l = luaL_checkinteger(L, arg);
    if (l < 0 || (uint64_t)l >= area_reach_count(memory_graph(m))) luaL_argerror(L, arg, "no such link");
    return (uint32_t)l;
}

/* A memory file name: relative, without "..", ending in ".navmem", so a
** brain writes only memory files, below the folder navbot runs in (a
** brain's sandbox has no io: this is the one file it may write). */
static const char *check_file(lua_State *L, int arg)
{
    size_t n;
    const char *f = luaL_checklstring(L, arg, &n);
    luaL_argcheck(L, f[0] != '\0', arg, "a file name expected");
    luaL_argcheck(L, n > 7 && strcmp(f + n - 7, ".navmem") == 0, arg, "a memory file's name ends in .navmem");
    luaL_argcheck(L, f[0] != '/', arg, "a relative file name expected (below the folder navbot runs in)");
    for (const char *p = f; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == f || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            luaL_argerror(L, arg, "'..' is not allowed in a memory file name");
    return f;
}

static uint32_t stamp_now(NavSim *sim)
{
    uint64_t t = sim_tick(sim) + 1;
    return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

/* {======= memory methods ======= */

static int mem_knows_area(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_pushboolean(L, memory_knows_area(m, check_area(L, 2, m)));
    return 1;
}

static int mem_knows_link(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_pushboolean(L, memory_knows_link(m, check_link(L, 2, m)));
    return 1;
}

static int mem_learn_area(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_pushboolean(L, memory_learn_area(m, check_area(L, 2, m)));
    return 1;
}

static int mem_learn_link(lua_State *L)
{
    NavSim *sim;
    NavMemory *m = check_mem(L, 1, &sim);
    uint32_t forgot;
    lua_pushboolean(L, memory_learn_link(m, check_link(L, 2, m), stamp_now(sim), &forgot) == 1);
    if (forgot == UINT32_MAX) lua_pushnil(L);
    else lua_pushinteger(L, forgot);
    return 2;
}

static int mem_forget_area(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_pushboolean(L, memory_forget_area(m, check_area(L, 2, m)));
    return 1;
}

static int mem_forget_link(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_pushboolean(L, memory_forget_link(m, check_link(L, 2, m)));
    return 1;
}

static int mem_clear(lua_State *L)
{
    memory_clear(check_mem(L, 1, NULL));
    return 0;
}

static uint32_t check_types(lua_State *L, int arg)
{
    uint32_t bits = 0;
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = luaL_len(L, arg);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, arg, i);
        const char *name = lua_tostring(L, -1);
        int t = name ? area_travel_from_name(name) : -1;
        if (t < 0) luaL_argerror(L, arg, lua_pushfstring(L, "unknown travel type '%s'", name ? name : "?"));
        bits |= NAV_TFL_TYPE(t);
        lua_pop(L, 1);
    }
    return bits;
}

/* mem:learn_reachable(x, y, z [, {types=, layer=, flags=}]) */
static int mem_learn_reachable(lua_State *L)
{
    NavSim *sim;
    NavMemory *m = check_mem(L, 1, &sim);
    const NavAreaGraph *ag = memory_graph(m);
    float p[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    uint32_t types = NAV_TFL_ALL_TYPES, flags = NAV_TFL_DEFAULT;
    int layer = -1;
    if (!lua_isnoneornil(L, 5)) {
        static const char *const KEYS[] = { "types", "layer", "flags", NULL };
        luaL_checktype(L, 5, LUA_TTABLE);
        nav_api_check_keys(L, 5, 5, KEYS, "option", "types, layer, flags");
        if (lua_getfield(L, 5, "types") != LUA_TNIL) types = check_types(L, lua_gettop(L));
        lua_pop(L, 1);
        if (lua_getfield(L, 5, "flags") != LUA_TNIL) flags = nav_api_check_flags(L, lua_gettop(L));
        lua_pop(L, 1);
        int kind = lua_getfield(L, 5, "layer");
        const NavWorld *w = area_world(ag);
        if (kind == LUA_TNUMBER) {
            lua_Integer k = lua_tointeger(L, -1);
            if (k < 1 || k > world_layer_count(w)) luaL_argerror(L, 5, "layer: no such storey number");
            layer = (int)k - 1;
        } else if (kind == LUA_TSTRING) {
            const char *name = lua_tostring(L, -1);
            for (int i = 0; i < world_layer_count(w) && layer < 0; i++)
                if (strcmp(world_layer(w, i)->name, name) == 0) layer = i;
            if (layer < 0) luaL_argerror(L, 5, lua_pushfstring(L, "layer: the map has no storey '%s'", name));
        } else if (kind != LUA_TNIL) {
            luaL_argerror(L, 5, "layer: a storey's number (from 1) or name expected");
        }
        lua_pop(L, 1);
    }
    uint32_t a = area_point_area(memory_graph(m), p[0], p[1], p[2]);
    if (a == NAV_NO_AREA) {
        float q[3];
        a = area_nearest_area(memory_graph(m), p[0], p[1], p[2], 2.0f, q);
    }
    if (a == NAV_NO_AREA) luaL_argerror(L, 2, "the point is on no area");
    lua_pushinteger(L, memory_learn_reachable(m, a, types, flags, layer, stamp_now(sim)));
    return 1;
}

static int mem_areas(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_createtable(L, (int)memory_area_count(m), 0);
    lua_Integer k = 0;
    for (uint32_t a = 0; a < area_count(memory_graph(m)); a++)
        if (memory_knows_area(m, a)) lua_pushinteger(L, a), lua_rawseti(L, -2, ++k);
    return 1;
}

static int mem_links(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    lua_createtable(L, (int)memory_link_count(m), 0);
    lua_Integer k = 0;
    for (uint32_t l = 0; l < area_reach_count(memory_graph(m)); l++)
        if (memory_knows_link(m, l)) lua_pushinteger(L, l), lua_rawseti(L, -2, ++k);
    return 1;
}

static int mem_stats(lua_State *L)
{
    NavSim *sim;
    NavMemory *m = check_mem(L, 1, &sim);
    const MemRef *ref = lua_touserdata(L, 1);
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, memory_area_count(m)), lua_setfield(L, -2, "areas");
    lua_pushinteger(L, memory_link_count(m)), lua_setfield(L, -2, "links");
    lua_pushinteger(L, (lua_Integer)memory_bytes(m)), lua_setfield(L, -2, "bytes");
    lua_pushinteger(L, memory_version(m)), lua_setfield(L, -2, "version");
    lua_pushinteger(L, memory_links_per_area(m)), lua_setfield(L, -2, "links_per_area");
    lua_pushinteger(L, sim_bot_memory_users(sim, ref->bot)), lua_setfield(L, -2, "users");
    return 1;
}

static int mem_copy(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    NavMemory *o = check_mem(L, 2, NULL);
    luaL_argcheck(L, memory_copy(m, o), 2, "a memory of another class's graph");
    return 0;
}

static int mem_merge(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    NavMemory *o = check_mem(L, 2, NULL);
    luaL_argcheck(L, memory_graph(m) == memory_graph(o), 2, "a memory of another class's graph");
    if (!memory_merge(m, o)) luaL_error(L, "out of memory merging memories");
    return 0;
}

static int io_result(lua_State *L, NavStatus st, const NavError *err)
{
    if (!NAV_FAILED(st)) {
        lua_pushboolean(L, 1);
        return 1;
    }
    char buf[1024];
    lua_pushnil(L);
    lua_pushstring(L, nav_error_format(err, buf, sizeof buf));
    return 2;
}

static int mem_save(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    NavError err;
    nav_error_clear(&err);
    return io_result(L, memory_save(m, check_file(L, 2), &err), &err);
}

static int mem_load(lua_State *L)
{
    NavMemory *m = check_mem(L, 1, NULL);
    NavError err;
    nav_error_clear(&err);
    return io_result(L, memory_load(m, check_file(L, 2), &err), &err);
}

static const char *const STATE_NAMES[] = { "searching", "ready", "no route" };

static int mem_search(lua_State *L)
{
    NavSim *sim;
    check_mem(L, 1, &sim);
    const MemRef *ref = lua_touserdata(L, 1);
    const MemSearch *s = sim_bot_search(sim, ref->bot);
    if (!s) return 0;
    MemSearchStats st;
    memsearch_stats(s, &st);
    lua_createtable(L, 0, 6);
    lua_pushstring(L, STATE_NAMES[memsearch_state(s)]), lua_setfield(L, -2, "state");
    lua_pushinteger(L, memsearch_goal(s)), lua_setfield(L, -2, "goal");
    lua_pushinteger(L, st.expanded), lua_setfield(L, -2, "expanded");
    lua_pushinteger(L, st.settled), lua_setfield(L, -2, "settled");
    lua_pushinteger(L, st.frontier), lua_setfield(L, -2, "frontier");
    if (st.best_time != ROUTE_UNREACHABLE) lua_pushnumber(L, st.best_time / 100.0), lua_setfield(L, -2, "time");
    return 1;
}

#define MEMORY_ROUTE_MAX 256

/* mem:route(from, to [, {flags=}]) */
static int mem_route(lua_State *L)
{
    NavSim *sim;
    NavMemory *m = check_mem(L, 1, &sim);
    float a[3], b[3];
    nav_api_check_point(L, 2, a);
    nav_api_check_point(L, 3, b);
    uint32_t flags = NAV_TFL_DEFAULT;
    if (!lua_isnoneornil(L, 4)) {
        static const char *const KEYS[] = { "flags", NULL };
        luaL_checktype(L, 4, LUA_TTABLE);
        nav_api_check_keys(L, 4, 4, KEYS, "option", "flags");
        if (lua_getfield(L, 4, "flags") != LUA_TNIL) flags = nav_api_check_flags(L, lua_gettop(L));
        lua_pop(L, 1);
    }
    const NavAreaGraph *ag = memory_graph(m);
    float q[3];
    uint32_t from = area_point_area(ag, a[0], a[1], a[2]), to = area_point_area(ag, b[0], b[1], b[2]);
    if (from == NAV_NO_AREA) from = area_nearest_area(ag, a[0], a[1], a[2], 2.0f, q);
    if (to == NAV_NO_AREA) to = area_nearest_area(ag, b[0], b[1], b[2], 2.0f, q);
    if (from == NAV_NO_AREA || to == NAV_NO_AREA) {
        lua_pushnil(L);
        lua_pushstring(L, from == NAV_NO_AREA ? "the start is on no area" : "the goal is on no area");
        return 2;
    }
    const MemRef *ref = lua_touserdata(L, 1);
    NavError err;
    NavRouter *r = sim_router(sim, sim_bot(sim, ref->bot)->cls, &err);
    if (!r) luaL_error(L, "mem:route: %s", err.message);
    uint32_t *links = lua_newuserdatauv(L, MEMORY_ROUTE_MAX * sizeof *links, 0);
    int count = 0;
    NavRoute out;
    uint64_t t0 = timer_now_ns();
    NavStatus st = memory_route(r, m, from, a, to, flags, links, MEMORY_ROUTE_MAX, &count, &out);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(st)) luaL_error(L, "mem:route: out of memory");
    if (out.time == ROUTE_UNREACHABLE) {
        lua_pushnil(L);
        lua_pushstring(L, "no route within memory");
        return 2;
    }
    nav_api_push_route(L, ag, from, out.time / 100.0, links, count < MEMORY_ROUTE_MAX ? count : MEMORY_ROUTE_MAX,
                       count);
    return 1;
}

static int mem_tostring(lua_State *L)
{
    const MemRef *ref = luaL_checkudata(L, 1, MEM_META);
    NavMemory *m = sim_bot_memory(nav_api_sim(L), ref->bot);
    if (!m) lua_pushfstring(L, "nav.Memory(bot %d, dropped)", (int)ref->bot);
    else
        lua_pushfstring(L, "nav.Memory(bot %d: %d areas, %d links)", (int)ref->bot, (int)memory_area_count(m),
                        (int)memory_link_count(m));
    return 1;
}

static const luaL_Reg MEM_METHODS[] = {
    { "knows_area", mem_knows_area },
    { "knows_link", mem_knows_link },
    { "learn_area", mem_learn_area },
    { "learn_link", mem_learn_link },
    { "forget_area", mem_forget_area },
    { "forget_link", mem_forget_link },
    { "clear", mem_clear },
    { "learn_reachable", mem_learn_reachable },
    { "areas", mem_areas },
    { "links", mem_links },
    { "stats", mem_stats },
    { "copy", mem_copy },
    { "merge", mem_merge },
    { "save", mem_save },
    { "load", mem_load },
    { "search", mem_search },
    { "route", mem_route },
    { NULL, NULL },
};

/* }======= */

/* {======= bot methods ======= */

static int bot_memory(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    int per_area = 0;
    if (!lua_isnoneornil(L, 2)) {
        static const char *const KEYS[] = { "links_per_area", NULL };
        luaL_checktype(L, 2, LUA_TTABLE);
        nav_api_check_keys(L, 2, 2, KEYS, "option", "links_per_area");
        if (lua_getfield(L, 2, "links_per_area") != LUA_TNIL) {
            lua_Integer k = luaL_checkinteger(L, -1);
            if (k < 1 || k > MEMORY_LINKS_PER_AREA_MAX)
                luaL_argerror(L, 2, lua_pushfstring(L, "links_per_area must be 1 to %d", MEMORY_LINKS_PER_AREA_MAX));
            per_area = (int)k;
        }
        lua_pop(L, 1);
    }
    NavError err;
    nav_error_clear(&err);
    if (!sim_bot_learn(sim, b->id, per_area, &err)) luaL_error(L, "bot:memory: %s", err.message);
    push_mem(L, b->id);
    return 1;
}

static int bot_has_memory(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    lua_pushboolean(L, sim_bot_memory(sim, b->id) != NULL);
    return 1;
}

static int bot_drop_memory(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_drop_memory(sim, b->id);
    return 0;
}

static int bot_share_memory(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    const NavBot *o = nav_api_check_bot(L, 2, NULL);
    if (!sim_bot_memory(sim, o->id)) luaL_argerror(L, 2, "that bot has no memory to share");
    if (!sim_bot_share_memory(sim, b->id, o->id)) luaL_argerror(L, 2, "a bot of another class (or out of memory)");
    return 0;
}

static int bot_sight(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    if (!lua_isnoneornil(L, 2)) {
        float v = nav_api_check_finite(L, 2);
        luaL_argcheck(L, v >= 0.0f, 2, "metres must not be negative");
        if (!sim_bot_set_sight(sim, b->id, v)) luaL_argerror(L, 1, "the bot has no memory (bot:memory() first)");
    }
    lua_pushnumber(L, sim_bot_sight(sim, b->id));
    return 1;
}

static int bot_sight_floors(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TBOOLEAN);
        if (!sim_bot_set_sight_floors(sim, b->id, lua_toboolean(L, 2)))
            luaL_argerror(L, 1, "the bot has no memory (bot:memory() first)");
    }
    lua_pushboolean(L, sim_bot_sight_floors(sim, b->id));
    return 1;
}

static int bot_sees(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float p[3];
    float h;
    if (lua_isuserdata(L, 2)) {
        const NavBot *o = nav_api_check_bot(L, 2, NULL);
        memcpy(p, o->pos, sizeof p);
        h = world_class(sim_world(sim), o->cls)->height;
    } else {
        p[0] = nav_api_check_finite(L, 2), p[1] = nav_api_check_finite(L, 3), p[2] = nav_api_check_finite(L, 4);
        h = world_class(sim_world(sim), b->cls)->height;
    }
    lua_pushboolean(L, sim_bot_sees(sim, b->id, p, h));
    return 1;
}


/* bot:memory_route(x, y, z [, {flags=, now=}]) */
static int bot_memory_route(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float goal[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    uint32_t flags = NAV_TFL_DEFAULT;
    bool now = false;
    if (!lua_isnoneornil(L, 5)) {
        static const char *const KEYS[] = { "flags", "now", NULL };
        luaL_checktype(L, 5, LUA_TTABLE);
        nav_api_check_keys(L, 5, 5, KEYS, "option", "flags, now");
        if (lua_getfield(L, 5, "flags") != LUA_TNIL) flags = nav_api_check_flags(L, lua_gettop(L));
        lua_pop(L, 1);
        lua_getfield(L, 5, "now");
        now = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    const NavAreaGraph *ag;
    uint32_t from, to;
    if (!nav_api_route_ends(L, sim, b, goal, &from, &to, &ag)) return 2;
    sim_bot_set_route(sim, b->id, flags, NULL, 0);
    uint32_t *links = lua_newuserdatauv(L, MEMORY_ROUTE_MAX * sizeof *links, 0);
    SimMemRoute q;
    uint64_t t0 = timer_now_ns();
    bool ok = sim_bot_memory_route(sim, b->id, to, flags, now, links, MEMORY_ROUTE_MAX, &q);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (!ok) luaL_error(L, "bot:memory_route: out of memory");
    if (q.time == ROUTE_UNREACHABLE) {
        lua_pushnil(L);
        lua_pushstring(L, q.queued ? "queued" : q.state == MEMSEARCH_RUNNING ? "searching" : "no route within memory");
        return 2;
    }
    int n = q.count < MEMORY_ROUTE_MAX ? q.count : MEMORY_ROUTE_MAX;
    nav_api_push_route(L, ag, from, q.time / 100.0, links, n, q.count);
    lua_pushstring(L, STATE_NAMES[q.state]), lua_setfield(L, -2, "state");
    lua_pushboolean(L, q.state == MEMSEARCH_RUNNING), lua_setfield(L, -2, "partial");
    lua_pushinteger(L, q.expanded), lua_setfield(L, -2, "expanded");
    return 1;
}

/* bot:explore_route(x, y, z [, {flags=, try=, shun=}]) */
static int bot_explore_route(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float goal[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    NavMemory *m = sim_bot_memory(sim, b->id);
    if (!m) luaL_argerror(L, 1, "the bot has no memory (bot:memory() first): it knows everything");
    uint32_t flags = NAV_TFL_DEFAULT;
    MemExplore opt = { 0 };
    uint32_t shun[32];
    if (!lua_isnoneornil(L, 5)) {
        static const char *const KEYS[] = { "flags", "try", "shun", NULL };
        luaL_checktype(L, 5, LUA_TTABLE);
        nav_api_check_keys(L, 5, 5, KEYS, "option", "flags, try, shun");
        if (lua_getfield(L, 5, "flags") != LUA_TNIL) flags = nav_api_check_flags(L, lua_gettop(L));
        lua_pop(L, 1);
        if (lua_getfield(L, 5, "try") != LUA_TNIL) opt.try_types = check_types(L, lua_gettop(L));
        lua_pop(L, 1);
        if (lua_getfield(L, 5, "shun") != LUA_TNIL) {
            luaL_argcheck(L, lua_istable(L, -1), 5, "shun: a list of link ids expected");
            lua_Integer n = luaL_len(L, -1);
            luaL_argcheck(L, n <= 32, 5, "shun: at most 32 links");
            for (lua_Integer i = 1; i <= n; i++) {
                lua_geti(L, -1, i);
                lua_Integer id = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
                luaL_argcheck(L, id >= 0 && (uint64_t)id < area_reach_count(memory_graph(m)), 5, "shun: link ids");
                shun[opt.shun_count++] = (uint32_t)id;
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    opt.shun = shun;
    const NavAreaGraph *ag;
    uint32_t from, to;
    if (!nav_api_route_ends(L, sim, b, goal, &from, &to, &ag)) return 2;
    NavError err;
    NavRouter *r = sim_router(sim, b->cls, &err);
    uint32_t *links = lua_newuserdatauv(L, MEMORY_ROUTE_MAX * sizeof *links, 0);
    int count = 0;
    NavRoute q;
    uint64_t t0 = timer_now_ns();
    NavStatus st = memory_explore(r, m, from, b->pos, to, flags, &opt, links, MEMORY_ROUTE_MAX, &count, &q);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(st) || count == 0) {
        lua_pushnil(L);
        lua_pushstring(L, from == to                                       ? "already in the goal's area"
                          : !NAV_FAILED(st) && q.time != ROUTE_UNREACHABLE ? "the goal is within memory (memory_route)"
                                                                           : "nothing left to explore");
        return 2;
    }
    int n = count < MEMORY_ROUTE_MAX ? count : MEMORY_ROUTE_MAX;
    nav_api_push_route(L, ag, from, q.time / 100.0, links, n, count);
    if (count <= MEMORY_ROUTE_MAX) {
        nav_api_push_link(L, ag, links[count - 1]);
        lua_setfield(L, -2, "frontier");
    }
    return 1;
}

static const luaL_Reg BOT_METHODS[] = {
    { "memory", bot_memory },
    { "has_memory", bot_has_memory },
    { "drop_memory", bot_drop_memory },
    { "share_memory", bot_share_memory },
    { "sight", bot_sight },
    { "sight_floors", bot_sight_floors },
    { "sees", bot_sees },
    { "memory_route", bot_memory_route },
    { "explore_route", bot_explore_route },
    { NULL, NULL },
};

/* }======= */

/* nav.search_budget([{bot=, world=}]) -> bot, world */
static int nav_search_budget(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    uint32_t per_bot, per_world;
    sim_search_budget(sim, &per_bot, &per_world);
    if (!lua_isnoneornil(L, 1)) {
        static const char *const KEYS[] = { "bot", "world", NULL };
        luaL_checktype(L, 1, LUA_TTABLE);
        nav_api_check_keys(L, 1, 1, KEYS, "option", "bot, world");
        const char *names[2] = { "bot", "world" };
        uint32_t *v[2] = { &per_bot, &per_world };
        for (int k = 0; k < 2; k++) {
            if (lua_getfield(L, 1, names[k]) != LUA_TNIL) {
                lua_Integer x = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
                if (x < 0 || x > 100000000)
                    luaL_argerror(L, 1, lua_pushfstring(L, "%s: link expansions from 0 to 100000000", names[k]));
                *v[k] = (uint32_t)x;
            }
            lua_pop(L, 1);
        }
        sim_set_search_budget(sim, per_bot, per_world);
    }
    lua_pushinteger(L, per_bot);
    lua_pushinteger(L, per_world);
    return 2;
}

static int nav_learn_stats(lua_State *L)
{
    SimLearnStats st;
    sim_learn_stats(nav_api_sim(L), &st);
    lua_createtable(L, 0, 12);
    lua_pushinteger(L, st.learners), lua_setfield(L, -2, "learners");
    lua_pushinteger(L, st.memories), lua_setfield(L, -2, "memories");
    lua_pushinteger(L, (lua_Integer)st.memory_bytes), lua_setfield(L, -2, "memory_bytes");
    lua_pushinteger(L, (lua_Integer)st.search_bytes), lua_setfield(L, -2, "search_bytes");
    lua_pushinteger(L, st.searches), lua_setfield(L, -2, "searches");
    lua_pushinteger(L, st.searching), lua_setfield(L, -2, "searching");
    lua_pushinteger(L, (lua_Integer)st.transitions), lua_setfield(L, -2, "transitions");
    lua_pushinteger(L, (lua_Integer)st.unmatched), lua_setfield(L, -2, "unmatched");
    lua_pushinteger(L, (lua_Integer)st.learned), lua_setfield(L, -2, "learned");
    lua_pushinteger(L, (lua_Integer)st.expanded), lua_setfield(L, -2, "expanded");
    lua_pushinteger(L, st.expanded_tick), lua_setfield(L, -2, "expanded_tick");
    return 1;
}

static const luaL_Reg NAV_FNS[] = {
    { "search_budget", nav_search_budget },
    { "learn_stats", nav_learn_stats },
    { NULL, NULL },
};

void nav_api_memory_register(lua_State *L, int nav_index)
{
    if (luaL_newmetatable(L, MEM_META)) {
        luaL_newlib(L, MEM_METHODS);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, mem_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
    nav_api_add(L, nav_index, NAV_FNS, BOT_METHODS);
}

/*
** nav_api_show.c — what a bot intends, shown in the window and pictures
** (sim_debug.h, sim_show), from Lua. nav_api_open adds these through
** nav_api_show_register.
**
**   bot:show_route(route)   the route (bot:route's table) drawn for the bot; nil clears
**   bot:show_path(points)   a polyline it follows instead; nil clears
**   bot:show_request(dx, dy, priority, reason)   a move request this tick, as an arrow
**   nav.watching() -> is anything showing them (skip gathering them when not)
**
** The sim is an upvalue of each function (read once from nav_api.c's
** registry entry); the bot is the "nav.Bot" userdata holding its id.
*/
#include "script/nav_api.h"
#include "sim/sim_debug.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define BOT_META "nav.Bot" /* nav_api.c's bot userdata */
#define SIM_KEY "nav.sim"  /* nav_api.c's registry entry for the sim */

static NavSim *up_sim(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static const NavBot *check_bot(lua_State *L, int arg, NavSim *sim)
{
    const uint32_t *ref = luaL_checkudata(L, arg, BOT_META); /* BotRef: its id first */
    const NavBot *b = sim_bot(sim, *ref);
    if (!b) luaL_argerror(L, arg, "no such bot");
    return b;
}

static float check_finite(lua_State *L, int arg)
{
    lua_Number v = luaL_checknumber(L, arg);
    luaL_argcheck(L, isfinite(v), arg, "finite number expected");
    return (float)v;
}

/* bot:show_route(route): the route (a table from bot:route) the window
** draws for this bot, with the link it is taking. */
static int bot_show_route(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    if (lua_isnoneornil(L, 2)) {
        SimBotShow *sh = sim_show_bot(sim, b->id);
        if (sh) sh->link_count = sh->path_count = 0;
        return 0;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (!sh) return 0;
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, b->cls, &err);
    if (!r) return luaL_error(L, "routing: %s", err.message);
    uint32_t reach_count = area_reach_count(router_graph(r));
    sh->cls = b->cls;
    sh->link_count = sh->path_count = 0;
    if (lua_getfield(L, 2, "links") != LUA_TTABLE) return luaL_argerror(L, 2, "a route from bot:route (no links)");
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n && sh->link_count < SIM_SHOW_ROUTE; i++) {
        lua_geti(L, -1, i);
        if (lua_type(L, -1) != LUA_TTABLE) return luaL_argerror(L, 2, "links must be tables from bot:route");
        lua_getfield(L, -1, "id");
        lua_Integer id = lua_tointeger(L, -1);
        if (!lua_isinteger(L, -1) || id < 0 || (lua_Unsigned)id >= reach_count)
            return luaL_argerror(L, 2, "a link without a valid id (routes come from bot:route)");
        sh->links[sh->link_count++] = (uint32_t)id;
        lua_pop(L, 2);
    }
    return 0;
}

/* bot:show_path(points): a polyline the bot follows, for the window. */
static int bot_show_path(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (lua_isnoneornil(L, 2)) {
        if (sh) sh->link_count = sh->path_count = 0;
        return 0;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    if (!sh) return 0;
    sh->link_count = sh->path_count = 0;
    lua_Integer n = luaL_len(L, 2);
    for (lua_Integer i = 1; i <= n && sh->path_count < SIM_SHOW_ROUTE; i++) {
        lua_geti(L, 2, i);
        float p[3];
        nav_api_check_point(L, lua_gettop(L), p);
        memcpy(sh->path[sh->path_count++], p, sizeof p);
        lua_pop(L, 1);
    }
    return 0;
}

/* bot:show_request(dx, dy, priority, reason): a move request this tick
** (the arbiter sends each one), drawn as an arrow. */
static int bot_show_request(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    float d[2] = { check_finite(L, 2), check_finite(L, 3) };
    lua_Integer pr = luaL_checkinteger(L, 4);
    const char *why = luaL_optstring(L, 5, "");
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (!sh || sh->req_count == SIM_SHOW_REQUESTS) return 0;
    SimShowRequest *q = &sh->req[sh->req_count++];
    q->dir[0] = d[0], q->dir[1] = d[1];
    q->priority = (int)pr;
    snprintf(q->reason, sizeof q->reason, "%s", why);
    return 0;
}

/* nav.watching() -> is anything showing what bots intend (the window, a
** picture)? Brains can skip gathering what only a display needs. */
static int nav_watching(lua_State *L)
{
    lua_pushboolean(L, sim_show_enabled(up_sim(L)));
    return 1;
}

void nav_api_show_register(lua_State *L, int nav_table_index)
{
    static const luaL_Reg NAV_FUNCS[] = { { "watching", nav_watching }, { NULL, NULL } };
    static const luaL_Reg BOT_FUNCS[] = { { "show_route", bot_show_route },
                                          { "show_path", bot_show_path },
                                          { "show_request", bot_show_request },
                                          { NULL, NULL } };
    int nav = lua_absindex(L, nav_table_index);
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    if (!lua_touserdata(L, -1)) luaL_error(L, "the nav module has no simulation");
    int sim = lua_gettop(L);
    lua_pushvalue(L, nav);
    lua_pushvalue(L, sim);
    luaL_setfuncs(L, NAV_FUNCS, 1);
    lua_pop(L, 1);
    luaL_getmetatable(L, BOT_META);
    lua_getfield(L, -1, "__index");
    lua_pushvalue(L, sim);
    luaL_setfuncs(L, BOT_FUNCS, 1);
    lua_pop(L, 3);
}

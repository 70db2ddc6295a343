/*
** nav_api_show.c — what a bot shows of its intent, for the window and
** pictures (sim_show): its route or path, its move requests, the hull
** traces it made. nav.watching() says whether anyone looks.
*/
#include "script/nav_api_internal.h"

#include <string.h>

/* {======= showing intent (sim_show) ======= */

/* A hull trace the bot made while thinking, kept for the window. */
void nav_api_show_trace(NavSim *sim, const NavBot *b, const float start[3], const float d[3], const NavTrace *tr)
{
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (!sh || sh->trace_count == SIM_SHOW_TRACES) return;
    SimShowTrace *t = &sh->traces[sh->trace_count++];
    const NavClass *c = world_class(sim_world(sim), b->cls);
    for (int k = 0; k < 3; k++) {
        t->start[k] = start[k];
        t->end[k] = start[k] + d[k] * tr->fraction;
    }
    t->half[0] = t->half[1] = c->radius;
    t->hit = tr->fraction < 1.0f || tr->start_solid;
}

/* bot:show_route(route): the route (a table from bot:route) the window
** draws for this bot, with the link it is taking. */
static int bot_show_route(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    if (lua_isnoneornil(L, 2)) {
        SimBotShow *sh = sim_show_bot(sim, b->id);
        if (sh) sh->link_count = sh->path_count = sh->detour_count = 0;
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
    sh->link_count = sh->path_count = sh->detour_count = 0;
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
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (lua_isnoneornil(L, 2)) {
        if (sh) sh->link_count = sh->path_count = sh->detour_count = 0;
        return 0;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    if (!sh) return 0;
    sh->link_count = sh->path_count = sh->detour_count = 0;
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
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float d[2] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3) };
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
    lua_pushboolean(L, sim_show_enabled(nav_api_sim(L)));
    return 1;
}

/* }======= */

void nav_api_show_register(lua_State *L, int nav_index)
{
    static const luaL_Reg NAV[] = { { "watching", nav_watching }, { NULL, NULL } };
    static const luaL_Reg BOT[] = {
        { "show_route", bot_show_route },
        { "show_path", bot_show_path },
        { "show_request", bot_show_request },
        { NULL, NULL },
    };
    nav_api_add(L, nav_index, NAV, BOT);
}

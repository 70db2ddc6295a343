/*
** nav_api_goals.c — a bot's goal queue, from Lua (sim.h, goals).
** nav_api_open adds these through nav_api_goals_register.
**
**   bot:goal() -> x, y, z, radius of the goal it heads for, or nil
**   bot:add_goal(x, y, z [, radius]) -> false when its queue is full
**   bot:clear_goals()
**   bot:skip_goal() -> true when there was a goal to drop
**   bot:goals() -> queued, reached, arrived
**
** The sim is an upvalue of each function (read once from nav_api.c's
** registry entry); the bot is the "nav.Bot" userdata holding its id.
*/
#include "script/nav_api.h"

#include <lauxlib.h>
#include <math.h>

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

/* bot:goal() -> x, y, z, radius of the goal it heads for, or nil. */
static int bot_goal(lua_State *L)
{
    const NavBot *b = check_bot(L, 1, up_sim(L));
    if (!b->goal_count) return 0;
    for (int k = 0; k < 4; k++) lua_pushnumber(L, b->goals[0][k]);
    return 4;
}

/* bot:add_goal(x, y, z [, radius]) -> true, or false when its queue is full. */
static int bot_add_goal(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    float p[3] = { check_finite(L, 2), check_finite(L, 3), check_finite(L, 4) };
    float radius = lua_isnoneornil(L, 5) ? 0.0f : check_finite(L, 5);
    luaL_argcheck(L, radius >= 0.0f, 5, "radius must not be negative");
    lua_pushboolean(L, sim_bot_push_goal(sim, b->id, p, radius));
    return 1;
}

static int bot_clear_goals(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    sim_bot_clear_goals(sim, b->id);
    return 0;
}

/* bot:skip_goal() -> true when there was a goal to drop. */
static int bot_skip_goal(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    lua_pushboolean(L, sim_bot_skip_goal(sim, b->id));
    return 1;
}

/* bot:goals() -> how many are queued, how many reached, arrived? */
static int bot_goals(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    lua_pushinteger(L, b->goal_count);
    lua_pushinteger(L, b->goals_reached);
    lua_pushboolean(L, sim_bot_arrived(sim, b->id));
    return 3;
}

void nav_api_goals_register(lua_State *L)
{
    static const luaL_Reg BOT_FUNCS[] = {
        { "goal", bot_goal },           { "add_goal", bot_add_goal }, { "clear_goals", bot_clear_goals },
        { "skip_goal", bot_skip_goal }, { "goals", bot_goals },       { NULL, NULL }
    };
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    if (!lua_touserdata(L, -1)) luaL_error(L, "the nav module has no simulation");
    int sim = lua_gettop(L);
    luaL_getmetatable(L, BOT_META);
    lua_getfield(L, -1, "__index");
    lua_pushvalue(L, sim);
    luaL_setfuncs(L, BOT_FUNCS, 1);
    lua_pop(L, 3);
}

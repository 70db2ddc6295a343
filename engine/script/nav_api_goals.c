/*
** nav_api_goals.c — a bot's goal queue from Lua: the goal it heads for,
** adding, clearing and skipping goals, and how many it reached (the sim
** judges arrival: sim_goal.c).
*/
#include "script/nav_api_internal.h"

/* bot:goal() -> x, y, z, radius of the goal it heads for, or nil. */
static int bot_goal(lua_State *L)
{
    const NavBot *b = nav_api_check_bot(L, 1, NULL);
    if (!b->goal_count) return 0;
    for (int k = 0; k < 4; k++) lua_pushnumber(L, b->goals[0][k]);
    return 4;
}

/* bot:add_goal(x, y, z [, radius]) -> true, or false when its queue is full. */
static int bot_add_goal(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float p[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    float radius = lua_isnoneornil(L, 5) ? 0.0f : nav_api_check_finite(L, 5);
    luaL_argcheck(L, radius >= 0.0f, 5, "radius must not be negative");
    lua_pushboolean(L, sim_bot_push_goal(sim, b->id, p, radius));
    return 1;
}

static int bot_clear_goals(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_clear_goals(sim, b->id);
    return 0;
}

/* bot:skip_goal() -> true when there was a goal to drop. */
static int bot_skip_goal(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    lua_pushboolean(L, sim_bot_skip_goal(sim, b->id));
    return 1;
}

/* bot:goals() -> how many are queued, how many reached, arrived? */
static int bot_goals(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    lua_pushinteger(L, b->goal_count);
    lua_pushinteger(L, b->goals_reached);
    lua_pushboolean(L, sim_bot_arrived(sim, b->id));
    return 3;
}

void nav_api_goals_register(lua_State *L, int nav_index)
{
    static const luaL_Reg BOT[] = {
        { "goal", bot_goal },           { "add_goal", bot_add_goal }, { "clear_goals", bot_clear_goals },
        { "skip_goal", bot_skip_goal }, { "goals", bot_goals },       { NULL, NULL },
    };
    nav_api_add(L, nav_index, NULL, BOT);
}

/*
** nav_api_avoid.c — a bot's avoidance of other bots from Lua:
** bot:avoidance{...} turns the engine's reciprocal avoidance on with its
** settings (sim.h, "avoidance"), bot:avoid_velocity asks it for one
** velocity.
*/
#include "script/nav_api_internal.h"

#include <math.h>
#include <string.h>

/* {======= avoidance ======= */

static const struct {
    const char *name;
    uint32_t bit;
} AVOID_FORBID[] = {
    { "water", SIM_AVOID_WATER }, { "deep_water", SIM_AVOID_DEEP_WATER }, { "lava", SIM_AVOID_LAVA },
    { "slime", SIM_AVOID_SLIME }, { "ledge", SIM_AVOID_LEDGE },
};
#define AVOID_KEYS "horizon, wall_horizon, range, neighbours, responsibility, forbid"
#define AVOID_FORBID_NAMES "water, deep_water, lava, slime, ledge"

/* A number field of the settings table at arg, in [lo, hi]; 0 when absent. */
static float avoid_number(lua_State *L, int arg, const char *key, float lo, float hi)
{
    float v = 0.0f;
    if (lua_getfield(L, arg, key) != LUA_TNIL) {
        int ok;
        lua_Number x = lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(x) || x < lo || x > hi)
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "'%s' must be a number from %f to %f", key, (double)lo, (double)hi));
        v = (float)x;
    }
    lua_pop(L, 1);
    return v;
}

/* bot:avoidance{...} | bot:avoidance(false) | bot:avoidance() -> settings */
static int bot_avoidance(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    if (lua_isnone(L, 2)) {
        NavAvoidDesc d;
        sim_bot_avoid(sim, b->id, &d);
        lua_createtable(L, 0, 7);
        lua_pushboolean(L, d.on), lua_setfield(L, -2, "on");
        lua_pushnumber(L, d.horizon), lua_setfield(L, -2, "horizon");
        lua_pushnumber(L, d.wall_horizon), lua_setfield(L, -2, "wall_horizon");
        lua_pushnumber(L, d.range), lua_setfield(L, -2, "range");
        lua_pushinteger(L, d.max_neighbours), lua_setfield(L, -2, "neighbours");
        lua_pushnumber(L, d.responsibility), lua_setfield(L, -2, "responsibility");
        lua_createtable(L, 5, 0);
        int k = 0;
        for (size_t i = 0; i < sizeof AVOID_FORBID / sizeof AVOID_FORBID[0]; i++)
            if (d.forbid & AVOID_FORBID[i].bit) lua_pushstring(L, AVOID_FORBID[i].name), lua_rawseti(L, -2, ++k);
        lua_setfield(L, -2, "forbid");
        return 1;
    }
    if (lua_isboolean(L, 2) && !lua_toboolean(L, 2)) {
        sim_bot_set_avoid(sim, b->id, NULL);
        return 0;
    }
    if (lua_isboolean(L, 2)) lua_newtable(L), lua_replace(L, 2); /* true: the defaults */
    luaL_checktype(L, 2, LUA_TTABLE);
    /* Unknown keys first, so a typo is named rather than ignored. */
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        static const char *KNOWN[] = { "horizon", "wall_horizon", "range", "neighbours", "responsibility", "forbid" };
        bool known = false;
        for (size_t i = 0; key && i < sizeof KNOWN / sizeof KNOWN[0]; i++) known = known || strcmp(key, KNOWN[i]) == 0;
        if (!known)
            luaL_argerror(
                L, 2,
                lua_pushfstring(L, "unknown key '%s' (accepted: " AVOID_KEYS ")", key ? key : luaL_typename(L, -2)));
        lua_pop(L, 1);
    }
    NavAvoidDesc d = { .on = true };
    d.horizon = avoid_number(L, 2, "horizon", 0.01f, 10.0f);
    d.wall_horizon = avoid_number(L, 2, "wall_horizon", 0.01f, 5.0f);
    d.range = avoid_number(L, 2, "range", 0.1f, 16.0f);
    d.responsibility = avoid_number(L, 2, "responsibility", 0.01f, 1.0f);
    if (lua_getfield(L, 2, "neighbours") != LUA_TNIL) {
        int ok;
        lua_Integer k = lua_tointegerx(L, -1, &ok);
        if (!ok || k < 1 || k > SIM_AVOID_MAX_NEIGHBOURS)
            luaL_argerror(L, 2,
                          lua_pushfstring(L, "'neighbours' must be an integer from 1 to %d", SIM_AVOID_MAX_NEIGHBOURS));
        d.max_neighbours = (int)k;
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, 2, "forbid");
    if (t != LUA_TNIL) {
        if (t != LUA_TTABLE) luaL_argerror(L, 2, "'forbid' must be a list of names (" AVOID_FORBID_NAMES ")");
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            uint32_t bit = 0;
            for (size_t k = 0; name && k < sizeof AVOID_FORBID / sizeof AVOID_FORBID[0]; k++)
                if (strcmp(name, AVOID_FORBID[k].name) == 0) bit = AVOID_FORBID[k].bit;
            if (!bit)
                luaL_argerror(L, 2,
                              lua_pushfstring(L, "unknown forbid name '%s' (accepted: " AVOID_FORBID_NAMES ")",
                                              name ? name : luaL_typename(L, -1)));
            d.forbid |= bit;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (!sim_bot_set_avoid(sim, b->id, &d)) luaL_error(L, "avoidance: out of memory");
    return 0;
}

/* bot:avoid_velocity(vx, vy) -> vx, vy */
static int bot_avoid_velocity(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float pref[2] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3) }, out[2];
    sim_bot_avoid_velocity(sim, b->id, pref, out);
    lua_pushnumber(L, out[0]);
    lua_pushnumber(L, out[1]);
    return 2;
}

/* }======= */

void nav_api_avoid_register(lua_State *L, int nav_index)
{
    static const luaL_Reg BOT[] = {
        { "avoidance", bot_avoidance },
        { "avoid_velocity", bot_avoid_velocity },
        { NULL, NULL },
    };
    nav_api_add(L, nav_index, NULL, BOT);
}

/*
** nav_api_costs.c — per-query area costs for nav.route (route.h,
** router_route_links_costed):
**
**   opts.costs = { water = 4, ledge = 2, lava = math.huge, ... }
**       a multiplier per kind of area (the names of nav.area_flags() and
**       "water"); an area of several kinds multiplies them; others cost 1.
**   opts.cost = function(area) return 3 end
**       a multiplier per area from a function given the area's table (as
**       nav.area gives it, without links): a number >= 0, math.huge or
**       false to keep out, nil for 1. It is called once per area of the
**       class the first time it is used; the answers are kept with the
**       function (a weak table in the registry) while the function lives,
**       so pass the same function every time, not a new closure.
**
** The router caches routes by the multipliers' content, so equal costs
** share one cache whatever table or function they came from.
*/
#include "script/nav_api_internal.h"

#include <math.h>
#include <string.h>

#define COSTFN_KEY "nav.costfns"

/* The multipliers a `costs` table asks for, into a new userdata on the stack. */
static const float *by_kind(lua_State *L, int arg, int tbl, const NavAreaGraph *ag)
{
    uint32_t kind_bits[16];
    float kind_mult[16];
    int nk = 0;
    float water = 1.0f;
    lua_pushnil(L);
    while (lua_next(L, tbl)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        uint32_t bit = key ? area_kind_flag(key) : 0;
        bool is_water = key && strcmp(key, "water") == 0;
        if (!bit && !is_water) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (int k = 0; area_kind_name(k, NULL); k++) {
                luaL_addstring(&b, area_kind_name(k, NULL));
                luaL_addstring(&b, ", ");
            }
            luaL_addstring(&b, "water");
            luaL_pushresult(&b);
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "costs: unknown area kind '%s' (accepted: %s)",
                                          key ? key : luaL_typename(L, -3), lua_tostring(L, -1)));
        }
        int ok;
        lua_Number v = lua_tonumberx(L, -1, &ok);
        if (!ok || !(v >= 0.0))
            luaL_argerror(L, arg, lua_pushfstring(L, "costs: '%s' must be a number >= 0 (math.huge: keep out)", key));
        float m = v > ROUTE_COST_MAX ? INFINITY : (float)v;
        if (is_water) {
            water = m;
        } else if (nk < 16) {
            kind_bits[nk] = bit;
            kind_mult[nk++] = m;
        }
        lua_pop(L, 1);
    }
    uint32_t n = area_count(ag);
    float *out = lua_newuserdatauv(L, (size_t)n * sizeof *out + 1, 0);
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = area_get(ag, a);
        float m = (ar->travel_flags & NAV_TFL_WATER) ? water : 1.0f;
        for (int k = 0; k < nk; k++)
            if (ar->flags & kind_bits[k]) m *= kind_mult[k];
        out[a] = m;
    }
    return out;
}

/* The multipliers of a cost function (at the top of the stack), from its
** cache or computed now. */
static const float *by_function(lua_State *L, int arg, int cls, const NavAreaGraph *ag)
{
    int fn = lua_gettop(L);
    if (lua_getfield(L, LUA_REGISTRYINDEX, COSTFN_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, COSTFN_KEY);
    }
    int cache = lua_gettop(L);
    lua_pushvalue(L, fn);
    if (lua_rawget(L, cache) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, fn);
        lua_pushvalue(L, -2);
        lua_rawset(L, cache);
    }
    int per_class = lua_gettop(L);
    if (lua_rawgeti(L, per_class, cls + 1) == LUA_TUSERDATA) return lua_touserdata(L, -1);
    lua_pop(L, 1);
    uint32_t n = area_count(ag);
    float *out = lua_newuserdatauv(L, (size_t)n * sizeof *out + 1, 0);
    int ud = lua_gettop(L);
    for (uint32_t a = 0; a < n; a++) {
        lua_pushvalue(L, fn);
        nav_api_push_area(L, ag, a, false);
        lua_call(L, 1, 1);
        int t = lua_type(L, -1);
        if (t == LUA_TNIL) {
            out[a] = 1.0f;
        } else if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
            out[a] = INFINITY;
        } else {
            int ok;
            lua_Number v = lua_tonumberx(L, -1, &ok);
            if (!ok || !(v >= 0.0))
                luaL_argerror(
                    L, arg,
                    lua_pushfstring(
                        L, "cost function returned %s for area %d (a number >= 0, math.huge, false or nil expected)",
                        luaL_typename(L, -1), (int)a));
            out[a] = v > ROUTE_COST_MAX ? INFINITY : (float)v;
        }
        lua_pop(L, 1);
    }
    lua_pushvalue(L, ud);
    lua_rawseti(L, per_class, cls + 1);
    return out;
}

const float *nav_api_costs(lua_State *L, int arg, NavSim *sim, int cls)
{
    int tc = lua_getfield(L, arg, "costs");
    int tf = lua_getfield(L, arg, "cost");
    if (tc != LUA_TNIL && tf != LUA_TNIL) luaL_argerror(L, arg, "give 'costs' or 'cost', not both");
    if (tc == LUA_TNIL && tf == LUA_TNIL) {
        lua_pop(L, 2);
        return NULL;
    }
    NavError err;
    nav_error_clear(&err);
    const NavAreaGraph *ag = sim_graph(sim, cls, &err);
    if (!ag) luaL_error(L, "routing: %s", err.message);
    if (tc != LUA_TNIL) {
        if (tc != LUA_TTABLE) luaL_argerror(L, arg, "'costs' must be a table {kind = multiplier}");
        lua_pop(L, 1);
        return by_kind(L, arg, lua_gettop(L), ag);
    }
    if (tf != LUA_TFUNCTION) luaL_argerror(L, arg, "'cost' must be a function(area) -> multiplier");
    return by_function(L, arg, cls, ag);
}

/*
** nav_api_claim.c — chokepoints taken in turn, from Lua (sim.h, claims).
** nav_api_open adds these through nav_api_claim_register.
**
**   bot:claim(key [, opts]) -> granted, holder, place, holders
**       Ask for the place named key (a string the bots that share it
**       agree on: "ladder/human/29"), now and every tick while wanting or
**       holding it. granted: true when the bot holds it. holder: the id
**       of the bot holding it longest, nil when nobody does. place: when
**       granted, its rank among the holders (1 = held longest); else its
**       place in the queue (1 = next). holders: how many hold it.
**       opts (all optional): capacity (holders at once, default 1), side
**       (an integer: holders all share one; default 0), lapse (seconds
**       without asking before the claim is dropped, default 1), patience
**       (seconds a waiter of another side waits before its side goes
**       next, default 6).
**   bot:release(key) -> true when it held or waited for key
**   nav.claims() -> { {key=, capacity=, side=, holders={ids}, waiting={ids}}, ... }
**
** The sim is an upvalue of each function (read once from nav_api.c's
** registry entry); the bot is the "nav.Bot" userdata holding its id.
*/
#include "script/nav_api.h"
#include "sim/sim_debug.h"

#include <lauxlib.h>
#include <math.h>
#include <string.h>

#define BOT_META "nav.Bot" /* nav_api.c's bot userdata */
#define SIM_KEY "nav.sim"  /* nav_api.c's registry entry for the sim */

static NavSim *up_sim(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static uint32_t check_bot_id(lua_State *L, int arg, NavSim *sim)
{
    const uint32_t *ref = luaL_checkudata(L, arg, BOT_META); /* BotRef: its id first */
    if (!sim_bot(sim, *ref)) luaL_argerror(L, arg, "no such bot");
    return *ref;
}

static const char *check_key(lua_State *L, int arg)
{
    size_t n;
    const char *key = luaL_checklstring(L, arg, &n);
    luaL_argcheck(L, n > 0, arg, "a key that is not empty expected");
    if (n >= SIM_CLAIM_KEY_MAX)
        luaL_argerror(L, arg, lua_pushfstring(L, "key longer than %d characters", SIM_CLAIM_KEY_MAX - 1));
    luaL_argcheck(L, strlen(key) == n, arg, "a key without zero bytes expected");
    return key;
}

/* opts at arg: capacity, side, lapse, patience; anything else is a mistake. */
static void check_opts(lua_State *L, int arg, SimClaimDesc *d)
{
    memset(d, 0, sizeof *d);
    if (lua_isnoneornil(L, arg)) return;
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (name && strcmp(name, "capacity") == 0) {
            lua_Integer v;
            if (!lua_isinteger(L, -1) || (v = lua_tointeger(L, -1)) < 1 || v > SIM_CLAIM_MAX_QUEUE)
                luaL_argerror(L, arg, lua_pushfstring(L, "capacity must be an integer in 1..%d", SIM_CLAIM_MAX_QUEUE));
            d->capacity = (int)lua_tointeger(L, -1);
        } else if (name && strcmp(name, "side") == 0) {
            lua_Integer v;
            if (!lua_isinteger(L, -1) || (v = lua_tointeger(L, -1)) < -1000000000 || v > 1000000000)
                luaL_argerror(L, arg, "side must be an integer");
            d->side = (int)lua_tointeger(L, -1);
        } else if (name && (strcmp(name, "lapse") == 0 || strcmp(name, "patience") == 0)) {
            int ok;
            lua_Number v = lua_tonumberx(L, -1, &ok);
            if (!ok || !isfinite(v) || v <= 0.0 || v > 3600.0)
                luaL_argerror(L, arg, lua_pushfstring(L, "%s must be seconds in (0, 3600]", name));
            if (name[0] == 'l') d->lapse = (float)v;
            else d->patience = (float)v;
        } else {
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "unknown option '%s' (options: capacity, side, lapse, patience)",
                                          name ? name : luaL_typename(L, -2)));
        }
        lua_pop(L, 1);
    }
}

static int bot_claim(lua_State *L)
{
    NavSim *sim = up_sim(L);
    uint32_t id = check_bot_id(L, 1, sim);
    const char *key = check_key(L, 2);
    SimClaimDesc d;
    check_opts(L, 3, &d);
    NavError err;
    nav_error_clear(&err);
    SimClaimResult r;
    if (NAV_FAILED(sim_claim(sim, id, key, &d, &r, &err))) return luaL_error(L, "claim: %s", err.message);
    lua_pushboolean(L, r.granted);
    if (r.holder >= 0) lua_pushinteger(L, r.holder);
    else lua_pushnil(L);
    lua_pushinteger(L, r.place);
    lua_pushinteger(L, r.holders);
    return 4;
}

static int bot_release(lua_State *L)
{
    NavSim *sim = up_sim(L);
    uint32_t id = check_bot_id(L, 1, sim);
    lua_pushboolean(L, sim_claim_release(sim, id, check_key(L, 2)));
    return 1;
}

static int nav_claims(lua_State *L)
{
    NavSim *sim = up_sim(L);
    uint32_t n = sim_claim_count(sim);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        SimClaimInfo info;
        if (!sim_claim_at(sim, i, &info)) break;
        lua_createtable(L, 0, 5);
        lua_pushstring(L, info.key), lua_setfield(L, -2, "key");
        lua_pushinteger(L, info.capacity), lua_setfield(L, -2, "capacity");
        lua_pushinteger(L, info.side), lua_setfield(L, -2, "side");
        lua_createtable(L, info.holders, 0);
        lua_createtable(L, info.members - info.holders, 0);
        int h = 0, w = 0;
        SimClaimMemberInfo m;
        for (uint32_t j = 0; sim_claim_member(sim, i, j, &m); j++) {
            lua_pushinteger(L, m.bot);
            if (m.holding) lua_rawseti(L, -3, ++h);
            else lua_rawseti(L, -2, ++w);
        }
        lua_setfield(L, -3, "waiting");
        lua_setfield(L, -2, "holders");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

void nav_api_claim_register(lua_State *L, int nav_table_index)
{
    static const luaL_Reg NAV_FUNCS[] = { { "claims", nav_claims }, { NULL, NULL } };
    static const luaL_Reg BOT_FUNCS[] = { { "claim", bot_claim }, { "release", bot_release }, { NULL, NULL } };
    int nav = lua_absindex(L, nav_table_index);
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    if (!lua_touserdata(L, -1)) luaL_error(L, "the nav module has no simulation");
    int sim = lua_gettop(L);
    lua_pushvalue(L, nav);
    lua_pushvalue(L, sim);
    luaL_setfuncs(L, NAV_FUNCS, 1);
    lua_pop(L, 1);
    /* The bot methods: into the metatable's __index table. */
    luaL_getmetatable(L, BOT_META);
    lua_getfield(L, -1, "__index");
    lua_pushvalue(L, sim);
    luaL_setfuncs(L, BOT_FUNCS, 1);
    lua_pop(L, 3);
}

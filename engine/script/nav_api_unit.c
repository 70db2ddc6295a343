/*
** nav_api_unit.c — unit motion from Lua (sim/sim_unit.h): the brain gives
** a unit an order and reads how it goes; the sim walks it, in C.
**
**   bot:move_unit(x, y [, opts])  -> true
**       Order the bot to (x, y), metres, on the navcell grid. opts: goal
**       ("point" default, "circle", "square", "inv_circle", "inv_square"),
**       radius, width, height, angle (degrees), as nav.grid_path takes
**       them. From then on the sim drives the bot (its controls are set
**       every tick) until the order is done or dropped.
**   bot:unit()        -> status, doing
**       status: "none", "moving", "arrived", "failed" (its class has no
**       way there); doing: what it is at ("walking", "following", "detour",
**       "waiting for a way round", "waiting for a path", ...).
**   bot:unit_info()   -> table: status, doing, x, y (the goal), waypoints,
**       detour (waypoints left of each), plans, detours, failed, wait
**       (seconds), goal_moved; nil when it has no order
**   bot:unit_path()   -> path, detour: the long path's waypoints left and
**       the detour's, each a flat {x1, y1, x2, y2, ...} (empty when none)
**   bot:stop_unit()   drop the order; the bot stands
**   nav.unit_stats()  -> table: plans, detours, detour_fails, replans,
**       blocked, over every unit since the start
**
** Formations (sim_unit.h): a group moving as one.
**   nav.formation(bots [, opts])  -> id
**       bots: a list of bots (nav.Bot, or ids). opts: shape ("line",
**       "box" default, "column", "wedge"), spacing (metres; default the
**       widest member's width + 0.6). A bot in another formation leaves it.
**   nav.formation_move(id, x, y [, facing])  -> true: slots by nearest, one path
**   nav.formation_info(id)        -> table: status ("idle", "moving",
**       "arrived", "failed"), shape, members, x, y, facing (degrees),
**       files, full_files, spacing, slot_error, slot_error_max (metres),
**       path_left; nil for no such formation
**   nav.formation_slots(id)       -> ids, slots: the members' ids and their
**       slot points now (flat {x1, y1, ...}), in member order
**   nav.formation_disband(id)     its members stand, without orders
**   bot:formation()               -> the id of its formation, or nil
*/
#include "script/nav_api_internal.h"

#include <stdlib.h>
#include <string.h>

#include "grid/grid_search.h"
#include "sim/sim_unit.h"

static const char *const STATUS[] = { "none", "moving", "arrived", "failed" };
static const char *const OPTIONS[] = { "goal", "radius", "width", "height", "angle", NULL };

static int bot_move_unit(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float x = nav_api_check_finite(L, 2), y = nav_api_check_finite(L, 3);
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        nav_api_check_keys(L, 4, 4, OPTIONS, "option", "goal, radius, width, height, angle");
    }
    GridGoal goal;
    nav_api_goal_options(L, 4, x, y, &goal);
    NavError err;
    nav_error_clear(&err);
    if (!sim_unit_move(sim, b->id, &goal, &err)) return luaL_error(L, "move_unit: %s", err.message);
    lua_pushboolean(L, 1);
    return 1;
}

static int bot_unit(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    NavUnitInfo in;
    sim_unit_info(sim, b->id, &in);
    lua_pushstring(L, STATUS[in.status]);
    lua_pushstring(L, in.doing);
    return 2;
}

static int bot_unit_info(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    NavUnitInfo in;
    sim_unit_info(sim, b->id, &in);
    if (in.status == NAV_UNIT_NONE) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 11);
    lua_pushstring(L, STATUS[in.status]), lua_setfield(L, -2, "status");
    lua_pushstring(L, in.doing), lua_setfield(L, -2, "doing");
    lua_pushnumber(L, in.goal.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, in.goal.y), lua_setfield(L, -2, "y");
    lua_pushinteger(L, in.waypoints), lua_setfield(L, -2, "waypoints");
    lua_pushinteger(L, in.detour_points), lua_setfield(L, -2, "detour");
    lua_pushinteger(L, in.plans), lua_setfield(L, -2, "plans");
    lua_pushinteger(L, in.detours), lua_setfield(L, -2, "detours");
    lua_pushinteger(L, in.failed), lua_setfield(L, -2, "failed");
    lua_pushnumber(L, in.wait), lua_setfield(L, -2, "wait");
    lua_pushboolean(L, in.goal_moved), lua_setfield(L, -2, "goal_moved");
    return 1;
}

static void push_flat(lua_State *L, const float *xy, int n)
{
    lua_createtable(L, 2 * n, 0);
    for (int k = 0; k < 2 * n; k++) lua_pushnumber(L, xy[k]), lua_rawseti(L, -2, k + 1);
}

static int bot_unit_path(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    int n, m;
    const float *path = sim_unit_path(sim, b->id, &n);
    const float *detour = sim_unit_detour(sim, b->id, &m);
    push_flat(L, path, n);
    push_flat(L, detour, m);
    return 2;
}

static int bot_stop_unit(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_unit_stop(sim, b->id);
    return 0;
}

static int nav_unit_stats(lua_State *L)
{
    NavUnitStats st;
    sim_unit_stats(nav_api_sim(L), &st);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)st.plans), lua_setfield(L, -2, "plans");
    lua_pushinteger(L, (lua_Integer)st.detours), lua_setfield(L, -2, "detours");
    lua_pushinteger(L, (lua_Integer)st.detour_fails), lua_setfield(L, -2, "detour_fails");
    lua_pushinteger(L, (lua_Integer)st.replans), lua_setfield(L, -2, "replans");
    lua_pushinteger(L, (lua_Integer)st.blocked), lua_setfield(L, -2, "blocked");
    return 1;
}

/* {======= formations ======= */

static const char *const SHAPES[] = { "line", "box", "column", "wedge", NULL };
static const char *const FORMATION_STATUS[] = { "idle", "moving", "arrived", "failed" };

static int check_formation(lua_State *L, int arg, NavSim *sim)
{
    lua_Integer f = luaL_checkinteger(L, arg);
    NavFormationInfo in;
    if (f < 1 || f > INT32_MAX || !sim_formation_info(sim, (int)f, &in)) luaL_argerror(L, arg, "no such formation");
    return (int)f;
}

static int nav_formation(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    luaL_argcheck(L, n >= 1 && n <= (lua_Integer)sim_bot_count(sim), 1, "a list of 1 or more bots expected");
    NavFormationDesc d = { .shape = NAV_FORMATION_BOX };
    if (!lua_isnoneornil(L, 2)) {
        static const char *const FORMATION_OPTIONS[] = { "shape", "spacing", NULL };
        luaL_checktype(L, 2, LUA_TTABLE);
        nav_api_check_keys(L, 2, 2, FORMATION_OPTIONS, "option", "shape, spacing");
        if (lua_getfield(L, 2, "shape") != LUA_TNIL) {
            const char *name = lua_tostring(L, -1);
            int i = 0;
            while (name && SHAPES[i] && strcmp(SHAPES[i], name) != 0) i++;
            if (!name || !SHAPES[i])
                luaL_argerror(L, 2, "option 'shape': \"line\", \"box\", \"column\" or \"wedge\" expected");
            d.shape = (NavFormationShape)i;
        }
        lua_pop(L, 1);
        if (lua_getfield(L, 2, "spacing") != LUA_TNIL) {
            int ok;
            lua_Number v = lua_tonumberx(L, -1, &ok);
            if (!ok || !(v > 0.0 && v <= 50.0))
                luaL_argerror(L, 2, "option 'spacing': metres above 0, at most 50, expected");
            d.spacing = (float)v;
        }
        lua_pop(L, 1);
    }
    uint32_t *ids = lua_newuserdatauv(L, (size_t)n * sizeof *ids, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        if (lua_type(L, -1) == LUA_TNUMBER) {
            lua_Integer id = lua_tointeger(L, -1);
            if (id < 0 || id >= (lua_Integer)sim_bot_count(sim))
                luaL_argerror(L, 1, lua_pushfstring(L, "bots[%d]: no bot %d", (int)i, (int)id));
            ids[i - 1] = (uint32_t)id;
        } else {
            if (!luaL_testudata(L, -1, NAV_API_BOT_META))
                luaL_argerror(L, 1, lua_pushfstring(L, "bots[%d]: a bot or a bot id expected", (int)i));
            ids[i - 1] = nav_api_check_bot(L, lua_gettop(L), NULL)->id;
        }
        lua_pop(L, 1);
    }
    for (lua_Integer i = 1; i < n; i++)
        for (lua_Integer j = 0; j < i; j++)
            if (ids[i] == ids[j])
                luaL_argerror(L, 1, lua_pushfstring(L, "bots[%d]: bot %d is listed twice", (int)i + 1, (int)ids[i]));
    NavError err;
    nav_error_clear(&err);
    int f = sim_formation_create(sim, ids, (int)n, &d, &err);
    if (f < 0) return luaL_error(L, "formation: %s", err.message);
    lua_pushinteger(L, f);
    return 1;
}

static int nav_formation_move(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    int f = check_formation(L, 1, sim);
    float x = nav_api_check_finite(L, 2), y = nav_api_check_finite(L, 3);
    NavError err;
    nav_error_clear(&err);
    bool face = !lua_isnoneornil(L, 4);
    float facing = face ? nav_api_check_finite(L, 4) : 0.0f;
    if (!sim_formation_move(sim, f, x, y, &err) || (face && !sim_formation_face(sim, f, facing, &err)))
        return luaL_error(L, "formation_move: %s", err.message);
    lua_pushboolean(L, 1);
    return 1;
}

static int nav_formation_info(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    lua_Integer f = luaL_checkinteger(L, 1);
    NavFormationInfo in;
    if (f < 1 || f > INT32_MAX || !sim_formation_info(sim, (int)f, &in)) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 13);
    lua_pushstring(L, FORMATION_STATUS[in.status]), lua_setfield(L, -2, "status");
    lua_pushstring(L, SHAPES[in.shape]), lua_setfield(L, -2, "shape");
    lua_pushinteger(L, in.members), lua_setfield(L, -2, "members");
    lua_pushnumber(L, in.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, in.y), lua_setfield(L, -2, "y");
    lua_pushnumber(L, in.facing), lua_setfield(L, -2, "facing");
    lua_pushinteger(L, in.files), lua_setfield(L, -2, "files");
    lua_pushinteger(L, in.full_files), lua_setfield(L, -2, "full_files");
    lua_pushnumber(L, in.spacing), lua_setfield(L, -2, "spacing");
    lua_pushnumber(L, in.slot_error), lua_setfield(L, -2, "slot_error");
    lua_pushnumber(L, in.slot_error_max), lua_setfield(L, -2, "slot_error_max");
    lua_pushinteger(L, in.path_left), lua_setfield(L, -2, "path_left");
    return 1;
}

static int nav_formation_slots(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    int f = check_formation(L, 1, sim);
    NavFormationInfo in;
    sim_formation_info(sim, f, &in);
    uint32_t *ids = lua_newuserdatauv(L, (size_t)in.members * sizeof *ids, 0);
    float *xy = lua_newuserdatauv(L, (size_t)in.members * 2 * sizeof *xy, 0);
    int n = sim_formation_slots(sim, f, ids, xy, in.members);
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) lua_pushinteger(L, ids[k]), lua_rawseti(L, -2, k + 1);
    lua_createtable(L, 2 * n, 0);
    for (int k = 0; k < 2 * n; k++) lua_pushnumber(L, xy[k]), lua_rawseti(L, -2, k + 1);
    return 2;
}

static int nav_formation_disband(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    sim_formation_disband(sim, check_formation(L, 1, sim));
    return 0;
}

static int bot_formation(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    int f = sim_formation_of(sim, b->id);
    if (f) lua_pushinteger(L, f);
    else lua_pushnil(L);
    return 1;
}

/* }======= */

void nav_api_unit_register(lua_State *L, int nav_index)
{
    static const luaL_Reg NAV[] = {
        { "unit_stats", nav_unit_stats },
        { "formation", nav_formation },
        { "formation_move", nav_formation_move },
        { "formation_info", nav_formation_info },
        { "formation_slots", nav_formation_slots },
        { "formation_disband", nav_formation_disband },
        { NULL, NULL },
    };
    static const luaL_Reg BOT[] = {
        { "move_unit", bot_move_unit },
        { "unit", bot_unit },
        { "unit_info", bot_unit_info },
        { "unit_path", bot_unit_path },
        { "stop_unit", bot_stop_unit },
        { "formation", bot_formation },
        { NULL, NULL },
    };
    nav_api_add(L, nav_index, NAV, BOT);
}

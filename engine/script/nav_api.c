/*
** nav_api.c — the `nav` Lua module over a simulation (nav_api.h).
*/
#include "script/nav_api.h"

#include <lauxlib.h>
#include <math.h>
#include <string.h>

#define BOT_META "nav.Bot"
#define SIM_KEY "nav.sim"
#define ROUTE_MAX_LINKS 4096

typedef struct BotRef {
    uint32_t id;
} BotRef;

static NavSim *get_sim(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    NavSim *sim = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!sim) luaL_error(L, "the nav module has no simulation");
    return sim;
}

/* {======= arguments ======= */

/* A point: a table {x, y, z} (or {x=, y=, z=}) at arg, z defaulting to 0. */
static void check_point(lua_State *L, int arg, float out[3])
{
    luaL_checktype(L, arg, LUA_TTABLE);
    static const char *names[3] = { "x", "y", "z" };
    for (int k = 0; k < 3; k++) {
        if (lua_rawgeti(L, arg, k + 1) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_getfield(L, arg, names[k]);
        }
        if (lua_isnil(L, -1) && k == 2) {
            out[k] = 0.0f;
        } else {
            int ok;
            lua_Number v = lua_tonumberx(L, -1, &ok);
            if (!ok || !isfinite(v))
                luaL_argerror(L, arg, lua_pushfstring(L, "point with a finite number for %s expected", names[k]));
            out[k] = (float)v;
        }
        lua_pop(L, 1);
    }
}

static void push_point(lua_State *L, const float p[3])
{
    lua_createtable(L, 3, 0);
    for (int k = 0; k < 3; k++) {
        lua_pushnumber(L, p[k]);
        lua_rawseti(L, -2, k + 1);
    }
}

static float check_finite(lua_State *L, int arg)
{
    lua_Number v = luaL_checknumber(L, arg);
    luaL_argcheck(L, isfinite(v), arg, "finite number expected");
    return (float)v;
}

static const NavBot *check_bot(lua_State *L, int arg, NavSim **sim_out)
{
    BotRef *ref = luaL_checkudata(L, arg, BOT_META);
    NavSim *sim = get_sim(L);
    const NavBot *b = sim_bot(sim, ref->id);
    if (!b) luaL_argerror(L, arg, "no such bot");
    if (sim_out) *sim_out = sim;
    return b;
}

/* Travel flags: nil (default), a number, or a table of names. */
static uint32_t check_flags(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg)) return NAV_TFL_DEFAULT;
    if (lua_type(L, arg) == LUA_TNUMBER) return (uint32_t)luaL_checkinteger(L, arg);
    luaL_checktype(L, arg, LUA_TTABLE);
    uint32_t flags = 0;
    lua_Integer n = luaL_len(L, arg);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, arg, i);
        const char *name = lua_tostring(L, -1);
        uint32_t bits = name ? route_flag_of_name(name) : 0;
        if (!bits) luaL_argerror(L, arg, lua_pushfstring(L, "unknown travel flag '%s'", name ? name : "?"));
        flags |= bits;
        lua_pop(L, 1);
    }
    return flags;
}

/* }======= */

/* {======= bots ======= */

void nav_api_push_bot(lua_State *L, uint32_t id)
{
    BotRef *ref = lua_newuserdatauv(L, sizeof *ref, 0);
    ref->id = id;
    luaL_setmetatable(L, BOT_META);
}

static int bot_id(lua_State *L)
{
    lua_pushinteger(L, check_bot(L, 1, NULL)->id);
    return 1;
}

static int bot_pos(lua_State *L)
{
    const NavBot *b = check_bot(L, 1, NULL);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, b->pos[k]);
    return 3;
}

static int bot_velocity(lua_State *L)
{
    const NavBot *b = check_bot(L, 1, NULL);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, b->vel[k]);
    return 3;
}

static int bot_yaw(lua_State *L)
{
    lua_pushnumber(L, check_bot(L, 1, NULL)->yaw);
    return 1;
}

static int bot_class(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    const NavClass *c = world_class(sim_world(sim), b->cls);
    lua_createtable(L, 0, 8);
    lua_pushstring(L, c->name), lua_setfield(L, -2, "name");
    lua_pushnumber(L, c->radius), lua_setfield(L, -2, "radius");
    lua_pushnumber(L, c->height), lua_setfield(L, -2, "height");
    lua_pushnumber(L, c->step), lua_setfield(L, -2, "step");
    lua_pushnumber(L, c->barrier_jump), lua_setfield(L, -2, "barrier_jump");
    lua_pushnumber(L, c->climb), lua_setfield(L, -2, "climb");
    lua_pushnumber(L, c->run_speed), lua_setfield(L, -2, "run_speed");
    lua_pushnumber(L, c->max_fall), lua_setfield(L, -2, "max_fall");
    return 1;
}

static int bot_state(lua_State *L)
{
    const NavBot *b = check_bot(L, 1, NULL);
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, b->on_ground), lua_setfield(L, -2, "on_ground");
    lua_pushboolean(L, b->in_water), lua_setfield(L, -2, "in_water");
    lua_pushboolean(L, b->on_ladder), lua_setfield(L, -2, "on_ladder");
    lua_pushboolean(L, b->crouched), lua_setfield(L, -2, "crouched");
    lua_pushboolean(L, b->climbing), lua_setfield(L, -2, "climbing");
    lua_pushinteger(L, b->riding), lua_setfield(L, -2, "riding");
    lua_pushnumber(L, b->stuck_time), lua_setfield(L, -2, "stuck_time");
    lua_pushnumber(L, b->distance), lua_setfield(L, -2, "distance");
    return 1;
}

static int bot_move(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    float dx = check_finite(L, 2), dy = check_finite(L, 3);
    int priority = (int)luaL_optinteger(L, 4, 0);
    const char *reason = luaL_optstring(L, 5, "");
    NavBotControl *c = sim_bot_control(sim, b->id);
    c->move[0] = dx;
    c->move[1] = dy;
    c->priority = priority;
    snprintf(c->reason, sizeof c->reason, "%s", reason);
    return 0;
}

static int bot_jump(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->jump = true;
    return 0;
}

static int bot_crouch(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->crouch = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_use(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->use = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_ladder_down(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->ladder_down = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_climb_to(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    NavBotControl *c = sim_bot_control(sim, b->id);
    if (lua_isnoneornil(L, 2)) {
        c->climb = false;
        return 0;
    }
    c->climb_to[0] = check_finite(L, 2);
    c->climb_to[1] = check_finite(L, 3);
    c->climb_to[2] = check_finite(L, 4);
    c->climb = true;
    return 0;
}

static int push_trace(lua_State *L, const NavTrace *tr)
{
    lua_createtable(L, 0, 6);
    lua_pushnumber(L, tr->fraction), lua_setfield(L, -2, "fraction");
    lua_pushboolean(L, tr->hit), lua_setfield(L, -2, "hit");
    lua_pushboolean(L, tr->start_solid), lua_setfield(L, -2, "start_solid");
    lua_pushboolean(L, tr->is_static), lua_setfield(L, -2, "static");
    push_point(L, tr->end), lua_setfield(L, -2, "end_pos");
    push_point(L, tr->normal), lua_setfield(L, -2, "normal");
    return 1;
}

static int bot_trace(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    float d[3] = { check_finite(L, 2), check_finite(L, 3), (float)luaL_optnumber(L, 4, 0.0) };
    float mins[3], maxs[3];
    sim_bot_box(sim, b, mins, maxs);
    NavTrace tr;
    sim_trace(sim, mins, maxs, b->pos, d, (int)b->id, &tr);
    return push_trace(L, &tr);
}

/* bot:route(x, y, z [, flags]) -> { time = seconds, links = { {type, from, to, start, finish}, ... } }
** or nil and why. */
static int bot_route(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = check_bot(L, 1, &sim);
    float goal[3] = { check_finite(L, 2), check_finite(L, 3), check_finite(L, 4) };
    uint32_t flags = check_flags(L, 5);
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, b->cls, &err);
    if (!r) return luaL_error(L, "route: %s", err.message);
    const NavAreaGraph *ag = router_graph(r);
    float snapped[3];
    uint32_t from = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    if (from == NAV_NO_AREA) from = area_nearest_area(ag, b->pos[0], b->pos[1], b->pos[2], 2.0f, snapped);
    uint32_t to = area_point_area(ag, goal[0], goal[1], goal[2]);
    if (to == NAV_NO_AREA) to = area_nearest_area(ag, goal[0], goal[1], goal[2], 2.0f, snapped);
    if (from == NAV_NO_AREA || to == NAV_NO_AREA) {
        lua_pushnil(L);
        lua_pushstring(L, from == NAV_NO_AREA ? "the bot is on no area" : "the goal is on no area");
        return 2;
    }
    /* Scratch for the links, on the Lua stack so an error cannot leak it. */
    uint32_t *links = lua_newuserdatauv(L, ROUTE_MAX_LINKS * sizeof *links, 0);
    NavRoute q;
    int n = router_route_links(r, from, b->pos, to, flags, links, ROUTE_MAX_LINKS, &q);
    if (n < 0 || q.time == ROUTE_UNREACHABLE) {
        lua_pushnil(L);
        lua_pushstring(L, "no route");
        return 2;
    }
    if (n > ROUTE_MAX_LINKS) n = ROUTE_MAX_LINKS;
    lua_createtable(L, 0, 3);
    lua_pushnumber(L, q.time / 100.0), lua_setfield(L, -2, "time");
    lua_pushinteger(L, from), lua_setfield(L, -2, "area");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const NavReach *re = area_reach(ag, links[i]);
        lua_createtable(L, 0, 6);
        lua_pushstring(L, area_travel_name((NavTravelType)re->type)), lua_setfield(L, -2, "type");
        lua_pushinteger(L, re->from), lua_setfield(L, -2, "from");
        lua_pushinteger(L, re->to), lua_setfield(L, -2, "to");
        push_point(L, re->start), lua_setfield(L, -2, "start");
        push_point(L, re->end), lua_setfield(L, -2, "finish");
        lua_pushinteger(L, re->entity), lua_setfield(L, -2, "entity");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "links");
    return 1; /* the route table, above the scratch */
}

static int bot_tostring(lua_State *L)
{
    BotRef *ref = luaL_checkudata(L, 1, BOT_META);
    lua_pushfstring(L, "bot %d", (int)ref->id);
    return 1;
}

static int bot_eq(lua_State *L)
{
    BotRef *a = luaL_testudata(L, 1, BOT_META), *b = luaL_testudata(L, 2, BOT_META);
    lua_pushboolean(L, a && b && a->id == b->id);
    return 1;
}

/* }======= */

/* {======= the module ======= */

static int nav_tick(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)sim_tick(get_sim(L)));
    return 1;
}

static int nav_time(lua_State *L)
{
    lua_pushnumber(L, sim_time(get_sim(L)));
    return 1;
}

static int nav_dt(lua_State *L)
{
    lua_pushnumber(L, sim_dt(get_sim(L)));
    return 1;
}

/* Like math.random, from the world's RNG. */
static int nav_random(lua_State *L)
{
    uint64_t r = sim_random(get_sim(L));
    if (lua_isnone(L, 1)) {
        lua_pushnumber(L, (double)(r >> 11) * (1.0 / 9007199254740992.0));
        return 1;
    }
    lua_Integer lo = 1, hi = luaL_checkinteger(L, 1);
    if (!lua_isnone(L, 2)) {
        lo = hi;
        hi = luaL_checkinteger(L, 2);
    }
    luaL_argcheck(L, lo <= hi, lua_isnone(L, 2) ? 1 : 2, "interval is empty");
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    lua_pushinteger(L, lo + (lua_Integer)(span ? r % span : r));
    return 1;
}

static int nav_bot(lua_State *L)
{
    lua_Integer id = luaL_checkinteger(L, 1);
    NavSim *sim = get_sim(L);
    if (id < 0 || (uint64_t)id >= sim_bot_count(sim)) return luaL_argerror(L, 1, "no such bot");
    nav_api_push_bot(L, (uint32_t)id);
    return 1;
}

static int nav_bots(lua_State *L)
{
    NavSim *sim = get_sim(L);
    uint32_t n = sim_bot_count(sim);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        nav_api_push_bot(L, i);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int nav_entity(lua_State *L)
{
    NavSim *sim = get_sim(L);
    const char *name = luaL_checkstring(L, 1);
    int i = world_find_entity(sim_world(sim), name);
    if (i < 0) return luaL_argerror(L, 1, lua_pushfstring(L, "no entity '%s'", name));
    const NavEntity *e = world_entity(sim_world(sim), i);
    const NavEntityState *s = sim_entity(sim, i);
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, i), lua_setfield(L, -2, "index");
    lua_pushstring(L, entity_type_name(e->type)), lua_setfield(L, -2, "type");
    lua_pushstring(L, e->name), lua_setfield(L, -2, "name");
    push_point(L, e->mins), lua_setfield(L, -2, "mins");
    push_point(L, e->maxs), lua_setfield(L, -2, "maxs");
    float lo[3], hi[3];
    if (sim_entity_box(sim, i, lo, hi)) {
        push_point(L, lo), lua_setfield(L, -2, "box_mins");
        push_point(L, hi), lua_setfield(L, -2, "box_maxs");
    }
    lua_pushnumber(L, s->offset), lua_setfield(L, -2, "offset");
    lua_pushinteger(L, s->phase), lua_setfield(L, -2, "phase");
    if (e->type == NAV_ENTITY_TELEPORTER) push_point(L, e->u.teleporter.dest), lua_setfield(L, -2, "dest");
    if (e->type == NAV_ENTITY_JUMP_PAD) push_point(L, e->u.jump_pad.target), lua_setfield(L, -2, "target");
    return 1;
}

static int nav_door(lua_State *L)
{
    NavSim *sim = get_sim(L);
    const char *name = luaL_checkstring(L, 1);
    int i = world_find_entity(sim_world(sim), name);
    if (i < 0 || world_entity(sim_world(sim), i)->type != NAV_ENTITY_DOOR)
        return luaL_argerror(L, 1, lua_pushfstring(L, "no door '%s'", name));
    sim_door_set(sim, i, lua_toboolean(L, 2), lua_toboolean(L, 3));
    return 0;
}

static int nav_add_obstacle(lua_State *L)
{
    float lo[3], hi[3];
    check_point(L, 1, lo);
    check_point(L, 2, hi);
    for (int k = 0; k < 3; k++) luaL_argcheck(L, lo[k] <= hi[k], 2, "maxs below mins");
    uint32_t id = sim_add_obstacle(get_sim(L), lo, hi);
    if (!id) return luaL_error(L, "add_obstacle: out of memory");
    lua_pushinteger(L, id);
    return 1;
}

static int nav_remove_obstacle(lua_State *L)
{
    lua_pushboolean(L, sim_remove_obstacle(get_sim(L), (uint32_t)luaL_checkinteger(L, 1)));
    return 1;
}

static int nav_trace(lua_State *L)
{
    float mins[3], maxs[3], start[3], delta[3];
    check_point(L, 1, mins);
    check_point(L, 2, maxs);
    check_point(L, 3, start);
    check_point(L, 4, delta);
    luaL_argcheck(L, mins[0] < maxs[0] && mins[1] < maxs[1] && mins[2] <= maxs[2], 2, "an empty box");
    int ignore = (int)luaL_optinteger(L, 5, -1);
    NavTrace tr;
    sim_trace(get_sim(L), mins, maxs, start, delta, ignore, &tr);
    return push_trace(L, &tr);
}

static int nav_sight(lua_State *L)
{
    float a[3], b[3];
    check_point(L, 1, a);
    check_point(L, 2, b);
    lua_pushboolean(L, world_line_of_sight(sim_world(get_sim(L)), a, b));
    return 1;
}

static const luaL_Reg BOT_METHODS[] = {
    { "id", bot_id },         { "pos", bot_pos },       { "velocity", bot_velocity }, { "yaw", bot_yaw },
    { "class", bot_class },   { "state", bot_state },   { "move", bot_move },         { "jump", bot_jump },
    { "crouch", bot_crouch }, { "use", bot_use },       { "climb_to", bot_climb_to }, { "ladder_down", bot_ladder_down },
    { "route", bot_route },   { "trace", bot_trace },   { NULL, NULL },
};

static const luaL_Reg NAV_FUNCTIONS[] = {
    { "tick", nav_tick },     { "time", nav_time },       { "dt", nav_dt },
    { "random", nav_random }, { "bot", nav_bot },         { "bots", nav_bots },
    { "entity", nav_entity }, { "door", nav_door },       { "add_obstacle", nav_add_obstacle },
    { "remove_obstacle", nav_remove_obstacle },           { "trace", nav_trace },
    { "sight", nav_sight },   { NULL, NULL },
};

void nav_api_open(lua_State *L, NavSim *sim)
{
    lua_pushlightuserdata(L, sim);
    lua_setfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    if (luaL_newmetatable(L, BOT_META)) {
        luaL_newlib(L, BOT_METHODS);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, bot_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushcfunction(L, bot_eq);
        lua_setfield(L, -2, "__eq");
        lua_pushliteral(L, "nav.Bot");
        lua_setfield(L, -2, "__name");
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
    luaL_newlib(L, NAV_FUNCTIONS);
    lua_setglobal(L, "nav");
}

/* }======= */

/*
** nav_api.c — the `nav` Lua module over a simulation (nav_api.h).
*/
#include "script/nav_api_internal.h"

#include "core/timer.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define BOT_META NAV_API_BOT_META
#define SIM_KEY NAV_API_SIM_KEY
#define ROUTE_MAX_LINKS 4096

typedef struct BotRef {
    uint32_t id;
} BotRef;

NavSim *nav_api_sim(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    NavSim *sim = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!sim) luaL_error(L, "the nav module has no simulation");
    return sim;
}

/* {======= query time, counted into the session's clock ======= */

#define CLOCK_KEY "nav.clock"

void nav_api_count_into(lua_State *L, NavQueryClock *clock)
{
    lua_pushlightuserdata(L, clock);
    lua_setfield(L, LUA_REGISTRYINDEX, CLOCK_KEY);
}

static NavQueryClock *get_clock(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, CLOCK_KEY);
    NavQueryClock *c = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return c;
}

void nav_api_count_path(lua_State *L, double seconds)
{
    NavQueryClock *c = get_clock(L);
    if (c) c->path_seconds += seconds;
}

void nav_api_count_grid(lua_State *L, double seconds)
{
    NavQueryClock *c = get_clock(L);
    if (!c) return;
    c->path_seconds += seconds;
    c->grid_seconds += seconds;
}

/* }======= */

/* {======= arguments ======= */

/* A point: a table {x, y, z} (or {x=, y=, z=}) at arg, z defaulting to 0. */
void nav_api_check_point(lua_State *L, int arg, float out[3])
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
            if (!ok || !isfinite(v) || fabs(v) > FLT_MAX)
                luaL_argerror(L, arg, lua_pushfstring(L, "point with a finite number for %s expected", names[k]));
            out[k] = (float)v;
        }
        lua_pop(L, 1);
    }
}

void nav_api_push_point(lua_State *L, const float p[3])
{
    lua_createtable(L, 3, 0);
    for (int k = 0; k < 3; k++) {
        lua_pushnumber(L, p[k]);
        lua_rawseti(L, -2, k + 1);
    }
}

float nav_api_check_finite(lua_State *L, int arg)
{
    lua_Number v = luaL_checknumber(L, arg);
    /* Finite as a float too: 1e308 would become an infinity. */
    luaL_argcheck(L, isfinite(v) && fabs(v) <= FLT_MAX, arg, "finite number expected");
    return (float)v;
}

const NavBot *nav_api_check_bot(lua_State *L, int arg, NavSim **sim_out)
{
    BotRef *ref = luaL_checkudata(L, arg, BOT_META);
    NavSim *sim = nav_api_sim(L);
    const NavBot *b = sim_bot(sim, ref->id);
    if (!b) luaL_argerror(L, arg, "no such bot");
    if (sim_out) *sim_out = sim;
    return b;
}

/* Travel flags: nil (default), a number, or a table of names. */
uint32_t nav_api_check_flags(lua_State *L, int arg)
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
    lua_pushinteger(L, nav_api_check_bot(L, 1, NULL)->id);
    return 1;
}

static int bot_pos(lua_State *L)
{
    const NavBot *b = nav_api_check_bot(L, 1, NULL);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, b->pos[k]);
    return 3;
}

static int bot_velocity(lua_State *L)
{
    const NavBot *b = nav_api_check_bot(L, 1, NULL);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, b->vel[k]);
    return 3;
}

static int bot_yaw(lua_State *L)
{
    lua_pushnumber(L, nav_api_check_bot(L, 1, NULL)->yaw);
    return 1;
}

static int bot_class(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
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
    lua_pushnumber(L, c->swim_speed), lua_setfield(L, -2, "swim_speed");
    lua_pushnumber(L, c->wade_depth), lua_setfield(L, -2, "wade_depth");
    return 1;
}

static int bot_state(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, b->on_ground), lua_setfield(L, -2, "on_ground");
    lua_pushboolean(L, b->in_water), lua_setfield(L, -2, "in_water");
    lua_pushboolean(L, b->on_ladder), lua_setfield(L, -2, "on_ladder");
    lua_pushboolean(L, b->crouched), lua_setfield(L, -2, "crouched");
    lua_pushboolean(L, b->climbing), lua_setfield(L, -2, "climbing");
    lua_pushinteger(L, b->riding), lua_setfield(L, -2, "riding");
    lua_pushnumber(L, b->stuck_time), lua_setfield(L, -2, "stuck_time");
    lua_pushboolean(L, sim_bot_waiting(sim, b->id)), lua_setfield(L, -2, "waiting");
    lua_pushnumber(L, b->distance), lua_setfield(L, -2, "distance");
    lua_pushnumber(L, b->facing), lua_setfield(L, -2, "facing");
    if (b->contact >= 0) lua_pushinteger(L, b->contact), lua_setfield(L, -2, "contact");
    return 1;
}

static int bot_move(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float dx = nav_api_check_finite(L, 2), dy = nav_api_check_finite(L, 3);
    int priority = (int)luaL_optinteger(L, 4, 0);
    const char *reason = luaL_optstring(L, 5, "");
    NavBotControl *c = sim_bot_control(sim, b->id);
    c->move[0] = dx;
    c->move[1] = dy;
    c->priority = priority;
    nav_copy_text(c->reason, sizeof c->reason, reason);
    return 0;
}

static int bot_jump(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->jump = true;
    return 0;
}

static int bot_crouch(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->crouch = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_use(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->use = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_ladder_down(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_control(sim, b->id)->ladder_down = lua_isnone(L, 2) ? true : lua_toboolean(L, 2);
    return 0;
}

static int bot_climb_to(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    NavBotControl *c = sim_bot_control(sim, b->id);
    if (lua_isnoneornil(L, 2)) {
        c->climb = false;
        return 0;
    }
    c->climb_to[0] = nav_api_check_finite(L, 2);
    c->climb_to[1] = nav_api_check_finite(L, 3);
    c->climb_to[2] = nav_api_check_finite(L, 4);
    c->climb = true;
    return 0;
}

static int push_trace(lua_State *L, const NavTrace *tr)
{
    lua_createtable(L, 0, 8);
    /* What was hit: the level, or whose box (sim_trace: kind << 24 | index). */
    if (tr->hit) {
        int kind = tr->box >= 0 ? tr->box >> 24 : -1;
        const char *what = tr->is_static || kind < 0 ? "world"
                           : kind == SIM_BOX_BOT     ? "bot"
                           : kind == SIM_BOX_ENTITY  ? "entity"
                                                     : "obstacle";
        lua_pushstring(L, what), lua_setfield(L, -2, "what");
    }
    lua_pushnumber(L, tr->fraction), lua_setfield(L, -2, "fraction");
    lua_pushboolean(L, tr->hit), lua_setfield(L, -2, "hit");
    lua_pushboolean(L, tr->start_solid), lua_setfield(L, -2, "start_solid");
    lua_pushboolean(L, tr->is_static), lua_setfield(L, -2, "static");
    nav_api_push_point(L, tr->end), lua_setfield(L, -2, "end_pos");
    nav_api_push_point(L, tr->normal), lua_setfield(L, -2, "normal");
    /* What was hit, when not the world: sim_trace names the box's owner. */
    if (tr->hit && !tr->is_static && tr->box >= 0) {
        int kind = tr->box >> 24, index = tr->box & 0xffffff;
        const char *field = kind == SIM_BOX_BOT ? "bot" : kind == SIM_BOX_ENTITY ? "entity" : "obstacle";
        lua_pushinteger(L, index), lua_setfield(L, -2, field);
    }
    return 1;
}


static int bot_trace(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float d[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3),
                   lua_isnoneornil(L, 4) ? 0.0f : nav_api_check_finite(L, 4) };
    float mins[3], maxs[3];
    sim_bot_box(sim, b, mins, maxs);
    NavTrace tr;
    sim_trace(sim, mins, maxs, b->pos, d, (int)b->id, &tr);
    nav_api_show_trace(sim, b, b->pos, d, &tr);
    return push_trace(L, &tr);
}

/* The area under a point for a class's graph; NAV_NO_AREA when none
** within `radius` (snapped gets the nearest floor point). */
uint32_t nav_api_area_under(lua_State *L, NavSim *sim, int cls, const float p[3], float radius,
                            const NavAreaGraph **ag_out)
{
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, cls, &err);
    if (!r) luaL_error(L, "routing: %s", err.message);
    const NavAreaGraph *ag = router_graph(r);
    *ag_out = ag;
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    float snapped[3];
    if (a == NAV_NO_AREA && radius > 0.0f) a = area_nearest_area(ag, p[0], p[1], p[2], radius, snapped);
    return a;
}

/* {======= the area a bot stands in ======= */

/* A body on the ground with its centre just over a liquid's edge stands on
** the bank beside it (its feet are above the surface): its routes and
** walks start from the bank's area, not the liquid's, which a bot that may
** not swim could never route out of. */
uint32_t nav_api_bot_area_under(lua_State *L, NavSim *sim, const NavBot *b, float radius, const NavAreaGraph **ag_out)
{
    uint32_t a = nav_api_area_under(L, sim, b->cls, b->pos, radius, ag_out);
    const NavAreaGraph *ag = *ag_out;
    const uint32_t wet = NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME;
    if (a == NAV_NO_AREA || !b->on_ground) return a;
    const NavArea *ar = area_get(ag, a);
    if (!(ar->flags & wet) || b->pos[2] < ar->zmax - 0.01f) return a;
    static const float DIRS[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },  { 0, -1 },
                                      { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
    float r = area_class(ag)->radius;
    for (int k = 0; k < 8; k++) {
        uint32_t c = area_point_area(ag, b->pos[0] + r * DIRS[k][0], b->pos[1] + r * DIRS[k][1], b->pos[2]);
        if (c != NAV_NO_AREA && !(area_get(ag, c)->flags & wet)) return c;
    }
    return a;
}

/* }======= */

/* An optional class name at arg: its index, or the world's first class. */
void nav_api_check_keys(lua_State *L, int arg, int at, const char *const *names, const char *noun, const char *list)
{
    lua_pushnil(L);
    while (lua_next(L, at)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int i = 0;
        while (k && names[i] && strcmp(names[i], k) != 0) i++;
        if (!k || !names[i])
            luaL_argerror(L, arg, lua_pushfstring(L, "unknown %s '%s' (%s)", noun, k ? k : luaL_typename(L, -1), list));
    }
}

int nav_api_opt_class(lua_State *L, int arg, NavSim *sim)
{
    if (lua_isnoneornil(L, arg)) return 0;
    const char *name = luaL_checkstring(L, arg);
    int cls = world_find_class(sim_world(sim), name);
    if (cls < 0) luaL_argerror(L, arg, lua_pushfstring(L, "no class '%s'", name));
    return cls;
}

/* bot:route(x, y, z [, flags]) -> { time = seconds, links = { {type, from, to, start, finish}, ... } }
** or nil and why. */
/* The links a route should shun, at arg: a table { [link id] = extra
** seconds } (math.huge: never), from a route's links' ids. */
#define ROUTE_MAX_AVOID SIM_ROUTE_AVOID_MAX
static int check_avoid(lua_State *L, int arg, NavSim *sim, int cls, RouteAvoid *out)
{
    if (lua_isnoneornil(L, arg)) return 0;
    luaL_checktype(L, arg, LUA_TTABLE);
    NavError err;
    nav_error_clear(&err);
    const NavAreaGraph *ag = sim_graph(sim, cls, &err);
    if (!ag) luaL_error(L, "routing: %s", err.message);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        lua_Integer link = lua_isinteger(L, -2) ? lua_tointeger(L, -2) : -1;
        if (link < 0 || (uint64_t)link >= area_reach_count(ag))
            luaL_argerror(L, arg, "keys must be link ids (a route link's id)");
        if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) >= 0))
            luaL_argerror(L, arg, lua_pushfstring(L, "link %d: extra seconds must be a number >= 0", (int)link));
        if (n == ROUTE_MAX_AVOID) luaL_argerror(L, arg, "at most 32 links to avoid");
        double extra = lua_tonumber(L, -1) * 100.0;
        out[n].link = (uint32_t)link;
        out[n].extra = extra >= 4e9 ? ROUTE_UNREACHABLE : (uint32_t)extra;
        n++;
        lua_pop(L, 1);
    }
    return n;
}

static int bot_in_the_way(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float away[2];
    const char *what;
    if (!sim_bot_in_the_way(sim, b->id, away, &what)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, away[0]);
    lua_pushnumber(L, away[1]);
    lua_pushstring(L, what);
    return 3;
}

static int bot_wait(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    sim_bot_wait(sim, b->id);
    return 0;
}

static int bot_route(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float goal[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    uint32_t flags = nav_api_check_flags(L, 5);
    RouteAvoid avoid[ROUTE_MAX_AVOID];
    int avoid_count = check_avoid(L, 6, sim, b->cls, avoid);
    lua_Integer limit = luaL_optinteger(L, 7, ROUTE_MAX_LINKS);
    luaL_argcheck(L, limit >= 1, 7, "at least 1 link");
    const NavAreaGraph *ag;
    uint32_t from, to;
    if (!nav_api_route_ends(L, sim, b, goal, &from, &to, &ag)) return 2;
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, b->cls, &err);
    sim_bot_set_route(sim, b->id, flags, avoid, avoid_count);
    /* Scratch for the links, on the Lua stack so an error cannot leak it. */
    uint32_t *links = lua_newuserdatauv(L, ROUTE_MAX_LINKS * sizeof *links, 0);
    NavRoute q;
    uint64_t t0 = timer_now_ns();
    int n = 0;
    NavStatus st =
        router_route_links_avoiding(r, from, b->pos, to, flags, avoid, avoid_count, links, ROUTE_MAX_LINKS, &n, &q);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(st) || q.time == ROUTE_UNREACHABLE) {
        lua_pushnil(L);
        lua_pushstring(L, "no route");
        return 2;
    }
    int count = n;
    if (n > limit) n = (int)limit;
    if (n > ROUTE_MAX_LINKS) n = ROUTE_MAX_LINKS;
    nav_api_push_route(L, ag, from, q.time / 100.0, links, n, count);
    return 1; /* the route table, above the scratch */
}

bool nav_api_route_ends(lua_State *L, NavSim *sim, const NavBot *b, const float goal[3], uint32_t *from, uint32_t *to,
                        const NavAreaGraph **ag)
{
    *from = nav_api_bot_area_under(L, sim, b, 2.0f, ag);
    *to = nav_api_area_under(L, sim, b->cls, goal, 2.0f, ag);
    if (*from != NAV_NO_AREA && *to != NAV_NO_AREA) return true;
    lua_pushnil(L);
    lua_pushstring(L, *from == NAV_NO_AREA ? "the bot is on no area" : "the goal is on no area");
    return false;
}

void nav_api_push_route(lua_State *L, const NavAreaGraph *ag, uint32_t from, double time, const uint32_t *links, int n,
                        int count)
{
    lua_createtable(L, 0, 8);
    lua_pushnumber(L, time), lua_setfield(L, -2, "time");
    lua_pushinteger(L, count), lua_setfield(L, -2, "count");
    lua_pushinteger(L, from), lua_setfield(L, -2, "area");
    lua_pushboolean(L, (area_get(ag, from)->flags & NAV_AREA_CROUCH) != 0), lua_setfield(L, -2, "crouch");
    nav_api_push_links(L, ag, links, n);
    lua_setfield(L, -2, "links");
}


/* bot:say(text): the state text shown beside it. */
static int bot_say(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    const char *text = luaL_optstring(L, 2, "");
    snprintf(((NavBot *)sim_bot(sim, b->id))->say, SIM_SAY_MAX, "%s", text);
    return 0;
}

/* Can a walker follow the floor from `from` to `to` (area_trace), ending
** within a step (+5 cm) of to's height? The end must be on the floor the
** trace followed, not above or below it: the floor's height there, not
** the height it entered the area at (an area can hold a long slope). */
static bool floor_walk(const NavAreaGraph *ag, const float from[3], const float to[3], uint32_t stop,
                       const uint32_t *within, int within_count)
{
    NavAreaTraceHit hits[64];
    bool done = false;
    float endz;
    int n = area_trace(ag, from, to, stop, hits, 64, &done, &endz);
    if (!done || n > 64 || fabsf(endz - to[2]) > area_class(ag)->step + 0.05f) return false;
    for (int k = 0; k < n && within; k++) {
        bool listed = false;
        for (int i = 0; i < within_count && !listed; i++) listed = hits[k].area == within[i];
        if (!listed) return false;
    }
    return true;
}

/* bot:walkable(x, y, z [, avoid [, wide [, areas]]]) -> can it walk
** straight there along the floor: no wall, no drop deeper than a step,
** and no area of a kind in `avoid` (a list of "liquid", "lava", "slime",
** "crouch", "ladder", "ledge"; by default all but "ledge")? wide: its
** body's sides too; areas: only through these areas. */
#define WALK_WITHIN_MAX 64
static int bot_walkable(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float to[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    uint32_t stop = NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME | NAV_AREA_CROUCH | NAV_AREA_LADDER;
    if (!lua_isnoneornil(L, 5)) {
        luaL_checktype(L, 5, LUA_TTABLE);
        stop = 0;
        lua_Integer n = luaL_len(L, 5);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, 5, i);
            const char *name = lua_tostring(L, -1);
            uint32_t flag = name ? area_kind_flag(name) : 0;
            if (!flag) return luaL_argerror(L, 5, lua_pushfstring(L, "unknown area kind '%s'", name ? name : "?"));
            stop |= flag;
            lua_pop(L, 1);
        }
    }
    bool wide = lua_toboolean(L, 6);
    /* within: the areas it may cross (a route's), at most WALK_WITHIN_MAX */
    uint32_t within[WALK_WITHIN_MAX];
    const uint32_t *w = NULL;
    int within_count = 0;
    if (!lua_isnoneornil(L, 7)) {
        w = within;
        luaL_checktype(L, 7, LUA_TTABLE);
        lua_Integer n = luaL_len(L, 7);
        luaL_argcheck(L, n <= WALK_WITHIN_MAX, 7, "at most 64 areas");
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, 7, i);
            lua_Integer id = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
            if (id < 0 || id > UINT32_MAX)
                luaL_argerror(L, 7, lua_pushfstring(L, "areas[%d]: an area id (an integer >= 0) expected", (int)i));
            within[within_count++] = (uint32_t)id;
            lua_pop(L, 1);
        }
    }
    const NavAreaGraph *ag;
    uint64_t t0 = timer_now_ns();
    uint32_t from = nav_api_bot_area_under(L, sim, b, 0.0f, &ag);
    bool ok = from != NAV_NO_AREA && floor_walk(ag, b->pos, to, stop, w, within_count);
    if (ok && wide) {
        /* The body's sides: lines to a radius either side of the end. A
        ** centre line past the corner of higher ground leaves the body's
        ** side on it. */
        float dx = to[0] - b->pos[0], dy = to[1] - b->pos[1], len = sqrtf(dx * dx + dy * dy);
        float r = area_class(ag)->radius;
        for (int side = -1; side <= 1 && ok && len > r; side += 2) {
            float end[3] = { to[0] - dy / len * r * (float)side, to[1] + dx / len * r * (float)side, to[2] };
            ok = floor_walk(ag, b->pos, end, stop, w, within_count);
        }
    }
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    lua_pushboolean(L, ok);
    return 1;
}

/* bot:area() -> the id of the area it stands in (or nearest, within 1 m), or nil. */
static int bot_area(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    const NavAreaGraph *ag;
    uint32_t a = nav_api_bot_area_under(L, sim, b, 1.0f, &ag);
    if (a == NAV_NO_AREA) return 0;
    lua_pushinteger(L, a);
    return 1;
}

/* bot:area_center(id) -> x, y, z: the middle of an area of the bot's class's graph. */
static int bot_area_center(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    lua_Integer id = luaL_checkinteger(L, 2);
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, b->cls, &err);
    if (!r) return luaL_error(L, "routing: %s", err.message);
    const NavAreaGraph *ag = router_graph(r);
    luaL_argcheck(L, id >= 0 && (uint64_t)id < area_count(ag), 2, "no such area");
    const NavArea *a = area_get(ag, (uint32_t)id);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, a->center[k]);
    return 3;
}

/* bot:hide(ex, ey, ez [, keep_away [, flags]]) -> x, y, z of the nearest
** place out of sight of an eye at (ex, ey, ez), and the travel time; nil
** when there is none within a minute. */
static int bot_hide(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    float enemy[3] = { nav_api_check_finite(L, 2), nav_api_check_finite(L, 3), nav_api_check_finite(L, 4) };
    float keep = lua_isnoneornil(L, 5) ? 2.0f : nav_api_check_finite(L, 5);
    uint32_t flags = nav_api_check_flags(L, 6);
    const NavAreaGraph *ag;
    uint64_t t0 = timer_now_ns();
    uint32_t from = nav_api_bot_area_under(L, sim, b, 1.0f, &ag);
    uint32_t hide = NAV_NO_AREA;
    NavRoute q;
    if (from != NAV_NO_AREA) {
        NavError err;
        nav_error_clear(&err);
        NavRouter *r = sim_router(sim, b->cls, &err);
        router_hide(r, from, b->pos, enemy, keep, flags, 6000, &hide, &q);
    }
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (hide == NAV_NO_AREA) return 0;
    const NavArea *a = area_get(ag, hide);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, a->center[k]);
    lua_pushnumber(L, q.time / 100.0);
    return 4;
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
    lua_pushinteger(L, (lua_Integer)sim_tick(nav_api_sim(L)));
    return 1;
}

static int nav_time(lua_State *L)
{
    lua_pushnumber(L, sim_time(nav_api_sim(L)));
    return 1;
}

static int nav_dt(lua_State *L)
{
    lua_pushnumber(L, sim_dt(nav_api_sim(L)));
    return 1;
}

/* Like math.random, from the world's RNG. */
static int nav_random(lua_State *L)
{
    uint64_t r = sim_random(nav_api_sim(L));
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
    /* In unsigned arithmetic, as Lua's math.random: hi - lo overflows a
    ** signed integer for the widest intervals (span 0 is all of them). */
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + (span ? r % span : r)));
    return 1;
}

static int nav_bot(lua_State *L)
{
    lua_Integer id = luaL_checkinteger(L, 1);
    NavSim *sim = nav_api_sim(L);
    if (id < 0 || (uint64_t)id >= sim_bot_count(sim)) return luaL_argerror(L, 1, "no such bot");
    nav_api_push_bot(L, (uint32_t)id);
    return 1;
}

static int nav_bots(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
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
    NavSim *sim = nav_api_sim(L);
    int i;
    if (lua_type(L, 1) == LUA_TNUMBER) {
        lua_Integer k = luaL_checkinteger(L, 1);
        if (k < 0 || k >= world_entity_count(sim_world(sim))) return luaL_argerror(L, 1, "no such entity");
        i = (int)k;
    } else {
        const char *name = luaL_checkstring(L, 1);
        i = world_find_entity(sim_world(sim), name);
        if (i < 0) return luaL_argerror(L, 1, lua_pushfstring(L, "no entity '%s'", name));
    }
    const NavEntity *e = world_entity(sim_world(sim), i);
    const NavEntityState *s = sim_entity(sim, i);
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, i), lua_setfield(L, -2, "index");
    lua_pushstring(L, entity_type_name(e->type)), lua_setfield(L, -2, "type");
    lua_pushstring(L, e->name), lua_setfield(L, -2, "name");
    nav_api_push_point(L, e->mins), lua_setfield(L, -2, "mins");
    nav_api_push_point(L, e->maxs), lua_setfield(L, -2, "maxs");
    float lo[3], hi[3];
    if (sim_entity_box(sim, i, lo, hi)) {
        nav_api_push_point(L, lo), lua_setfield(L, -2, "box_mins");
        nav_api_push_point(L, hi), lua_setfield(L, -2, "box_maxs");
    }
    lua_pushnumber(L, s->offset), lua_setfield(L, -2, "offset");
    lua_pushinteger(L, s->phase), lua_setfield(L, -2, "phase");
    if (e->type == NAV_ENTITY_TELEPORTER) nav_api_push_point(L, e->u.teleporter.dest), lua_setfield(L, -2, "dest");
    if (e->type == NAV_ENTITY_JUMP_PAD) nav_api_push_point(L, e->u.jump_pad.target), lua_setfield(L, -2, "target");
    if (e->type == NAV_ENTITY_GOAL) lua_pushstring(L, e->u.goal.item), lua_setfield(L, -2, "item");
    if (e->type == NAV_ENTITY_ELEVATOR) {
        const NavElevator *el = &e->u.elevator;
        lua_createtable(L, el->stop_count, 0);
        for (int k = 0; k < el->stop_count; k++) lua_pushnumber(L, el->stops[k]), lua_rawseti(L, -2, k + 1);
        lua_setfield(L, -2, "stops");
        lua_pushinteger(L, s->stop + 1), lua_setfield(L, -2, "stop");
        /* Seconds it still waits at this stop: boarding takes time. */
        lua_pushnumber(L, s->phase != 0 ? 0.0 : s->held ? HUGE_VAL : (double)(s->timer > 0.0f ? s->timer : 0.0f));
        lua_setfield(L, -2, "wait_left");
        lua_createtable(L, el->stop_count, 0);
        for (int k = 0; k < el->stop_count; k++)
            lua_pushnumber(L, sim_elevator_eta(sim, i, k)), lua_rawseti(L, -2, k + 1);
        lua_setfield(L, -2, "eta");
    }
    float c[3] = { 0.5f * (e->mins[0] + e->maxs[0]), 0.5f * (e->mins[1] + e->maxs[1]), e->mins[2] };
    nav_api_push_point(L, c), lua_setfield(L, -2, "pos");
    return 1;
}

/* nav.entities([type]) -> a list of entity names (or indices when unnamed), in map order. */
static int nav_entities(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    const NavWorld *w = sim_world(sim);
    int want = -1;
    if (!lua_isnoneornil(L, 1)) {
        const char *t = luaL_checkstring(L, 1);
        want = entity_type_from_name(t);
        if (want < 0) return luaL_argerror(L, 1, lua_pushfstring(L, "unknown entity type '%s'", t));
    }
    lua_newtable(L);
    int n = 0;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        if (want >= 0 && (int)e->type != want) continue;
        if (e->name[0]) lua_pushstring(L, e->name);
        else lua_pushinteger(L, i);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static int nav_door(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    const char *name = luaL_checkstring(L, 1);
    int i = world_find_entity(sim_world(sim), name);
    if (i < 0 || world_entity(sim_world(sim), i)->type != NAV_ENTITY_DOOR)
        return luaL_argerror(L, 1, lua_pushfstring(L, "no door '%s'", name));
    if (!sim_door_set(sim, i, lua_toboolean(L, 2), lua_toboolean(L, 3)))
        return luaL_error(L, "door: out of memory for the locked door's obstacle");
    return 0;
}

static int nav_add_obstacle(lua_State *L)
{
    float lo[3], hi[3];
    nav_api_check_point(L, 1, lo);
    nav_api_check_point(L, 2, hi);
    for (int k = 0; k < 3; k++) luaL_argcheck(L, lo[k] <= hi[k], 2, "maxs below mins");
    uint32_t id = sim_add_obstacle(nav_api_sim(L), lo, hi);
    if (!id) return luaL_error(L, "add_obstacle: out of memory");
    lua_pushinteger(L, id);
    return 1;
}

static int nav_remove_obstacle(lua_State *L)
{
    lua_pushboolean(L, sim_remove_obstacle(nav_api_sim(L), (uint32_t)luaL_checkinteger(L, 1)));
    return 1;
}

static int nav_trace(lua_State *L)
{
    float mins[3], maxs[3], start[3], delta[3];
    nav_api_check_point(L, 1, mins);
    nav_api_check_point(L, 2, maxs);
    nav_api_check_point(L, 3, start);
    nav_api_check_point(L, 4, delta);
    luaL_argcheck(L, mins[0] < maxs[0] && mins[1] < maxs[1] && mins[2] <= maxs[2], 2, "an empty box");
    int ignore = (int)luaL_optinteger(L, 5, -1);
    NavTrace tr;
    sim_trace(nav_api_sim(L), mins, maxs, start, delta, ignore, &tr);
    return push_trace(L, &tr);
}

static int nav_sight(lua_State *L)
{
    float a[3], b[3];
    nav_api_check_point(L, 1, a);
    nav_api_check_point(L, 2, b);
    lua_pushboolean(L, world_line_of_sight(sim_world(nav_api_sim(L)), a, b));
    return 1;
}

/* nav.route_time(from, to [, flags [, class]]) -> seconds, or nil when no route. */
static int nav_route_time(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    float a[3], b[3];
    nav_api_check_point(L, 1, a);
    nav_api_check_point(L, 2, b);
    uint32_t flags = nav_api_check_flags(L, 3);
    int cls = nav_api_opt_class(L, 4, sim);
    const NavAreaGraph *ag;
    uint64_t t0 = timer_now_ns();
    uint32_t from = nav_api_area_under(L, sim, cls, a, 2.0f, &ag), to = nav_api_area_under(L, sim, cls, b, 2.0f, &ag);
    NavRoute q = { .time = ROUTE_UNREACHABLE };
    if (from != NAV_NO_AREA && to != NAV_NO_AREA) {
        NavError err;
        nav_error_clear(&err);
        router_route(sim_router(sim, cls, &err), from, a, to, flags, &q);
    }
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (q.time == ROUTE_UNREACHABLE) return 0;
    lua_pushnumber(L, q.time / 100.0);
    return 1;
}

static const luaL_Reg BOT_METHODS[] = {
    { "id", bot_id },
    { "pos", bot_pos },
    { "velocity", bot_velocity },
    { "yaw", bot_yaw },
    { "class", bot_class },
    { "state", bot_state },
    { "move", bot_move },
    { "jump", bot_jump },
    { "crouch", bot_crouch },
    { "use", bot_use },
    { "climb_to", bot_climb_to },
    { "ladder_down", bot_ladder_down },
    { "in_the_way", bot_in_the_way },
    { "wait", bot_wait },
    { "route", bot_route },
    { "trace", bot_trace },
    { "say", bot_say },
    { "walkable", bot_walkable },
    { "area", bot_area },
    { "hide", bot_hide },
    { "area_center", bot_area_center },
    { NULL, NULL },
};

/* The names the engine knows, from its one table of each: lists in order. */
int nav_api_travel_types(lua_State *L)
{
    lua_createtable(L, NAV_TRAVEL_COUNT, 0);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++)
        lua_pushstring(L, area_travel_name((NavTravelType)t)), lua_rawseti(L, -2, t + 1);
    return 1;
}

int nav_api_area_flags(lua_State *L)
{
    lua_newtable(L);
    for (int k = 0; area_kind_name(k, NULL); k++) lua_pushstring(L, area_kind_name(k, NULL)), lua_rawseti(L, -2, k + 1);
    return 1;
}

static const luaL_Reg NAV_FUNCTIONS[] = {
    { "travel_types", nav_api_travel_types },
    { "area_flags", nav_api_area_flags },
    { "tick", nav_tick },
    { "time", nav_time },
    { "dt", nav_dt },
    { "random", nav_random },
    { "bot", nav_bot },
    { "bots", nav_bots },
    { "entity", nav_entity },
    { "door", nav_door },
    { "add_obstacle", nav_add_obstacle },
    { "remove_obstacle", nav_remove_obstacle },
    { "trace", nav_trace },
    { "sight", nav_sight },
    { "entities", nav_entities },
    { "route_time", nav_route_time },
    { NULL, NULL },
};

void nav_api_add(lua_State *L, int nav_index, const luaL_Reg *nav_fns, const luaL_Reg *bot_methods)
{
    if (nav_fns) {
        lua_pushvalue(L, nav_index);
        luaL_setfuncs(L, nav_fns, 0);
        lua_pop(L, 1);
    }
    if (bot_methods) {
        luaL_getmetatable(L, BOT_META);
        lua_getfield(L, -1, "__index");
        luaL_setfuncs(L, bot_methods, 0);
        lua_pop(L, 2);
    }
}

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
    nav_api_grid_register(L, lua_gettop(L));
    nav_api_claim_register(L, lua_gettop(L));
    nav_api_show_register(L, lua_gettop(L));
    nav_api_avoid_register(L, lua_gettop(L));
    nav_api_unit_register(L, lua_gettop(L));
    nav_api_area_register(L, lua_gettop(L));
    nav_api_draw_register(L, lua_gettop(L));
    nav_api_event_register(L, lua_gettop(L));
    nav_api_place_register(L, lua_gettop(L));
    nav_api_memory_register(L, lua_gettop(L));
    nav_api_goals_register(L, lua_gettop(L));
    lua_setglobal(L, "nav");
}

/* }======= */

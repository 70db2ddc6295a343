/*
** nav_api_area.c — areas and routes between any two points, from Lua:
**
**   nav.area(id [, class]) | nav.area(x, y, z [, class]) | nav.area(point [, class])
**                      an area's table with its links out and neighbours
**   nav.area_at(point [, class])        the same, for the area under a point
**   nav.route(from, to [, opts])        the route between two points, with
**                                       the time to the goal point
**   nav.random_point(near, radius [, opts])   a reachable point near one
**
** The Detour/Unity/NextBot names for these are findNearestPoly and
** getNeighbors (nav.area_at, area.links), findPath/CalculatePath
** (nav.route) and findRandomPointAroundCircle / SamplePosition
** (nav.random_point). Areas belong to one class's graph (opts.class, the
** map's first class by default). docs/lua-api.md has examples.
*/
#include "script/nav_api_internal.h"

#include <math.h>
#include <string.h>

#include "core/timer.h"

#define ROUTE_MAX_LINKS 4096
#define SNAP_RADIUS 2.0f /* a route's end off every area: the nearest within this */

/* {======= links and areas as tables ======= */

void nav_api_push_link(lua_State *L, const NavAreaGraph *ag, uint32_t link)
{
    const NavReach *re = area_reach(ag, link);
    lua_createtable(L, 0, 10);
    lua_pushinteger(L, link), lua_setfield(L, -2, "id");
    lua_pushstring(L, area_travel_name((NavTravelType)re->type)), lua_setfield(L, -2, "type");
    lua_pushinteger(L, re->from), lua_setfield(L, -2, "from");
    lua_pushinteger(L, re->to), lua_setfield(L, -2, "to");
    nav_api_push_point(L, re->start), lua_setfield(L, -2, "start");
    nav_api_push_point(L, re->end), lua_setfield(L, -2, "finish");
    lua_pushinteger(L, re->entity), lua_setfield(L, -2, "entity");
    lua_pushnumber(L, re->time / 100.0), lua_setfield(L, -2, "time");
    /* Headroom only for a crouched body where it lands. */
    lua_pushboolean(L, (area_get(ag, re->to)->flags & NAV_AREA_CROUCH) != 0), lua_setfield(L, -2, "crouch");
    /* The opening it crosses, wall to wall where walls bound it: under
    ** two bodies' width, one body passes at a time. */
    double width = hypot((double)re->edge[1][0] - re->edge[0][0], (double)re->edge[1][1] - re->edge[0][1]);
    lua_pushnumber(L, width), lua_setfield(L, -2, "width");
}

void nav_api_push_links(lua_State *L, const NavAreaGraph *ag, const uint32_t *links, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        nav_api_push_link(L, ag, links[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* An area's footprint in metres: x0, y0, x1, y1. */
static void area_rect(const NavAreaGraph *ag, const NavArea *a, float r[4])
{
    const NavWorld *w = area_world(ag);
    float half = 0.5f * world_cell_size(w);
    world_cell_center(w, a->x0, a->y0, &r[0], &r[1]);
    world_cell_center(w, a->x1, a->y1, &r[2], &r[3]);
    r[0] -= half, r[1] -= half, r[2] += half, r[3] += half;
}

void nav_api_push_area(lua_State *L, const NavAreaGraph *ag, uint32_t id, bool with_links)
{
    const NavArea *a = area_get(ag, id);
    lua_createtable(L, 0, 16);
    lua_pushinteger(L, id), lua_setfield(L, -2, "id");
    nav_api_push_point(L, a->center), lua_setfield(L, -2, "center");
    lua_pushinteger(L, a->cluster), lua_setfield(L, -2, "cluster");
    lua_pushboolean(L, a->portal >= 0), lua_setfield(L, -2, "portal");
    uint32_t flag;
    for (int k = 0; area_kind_name(k, &flag); k++)
        lua_pushboolean(L, (a->flags & flag) != 0), lua_setfield(L, -2, area_kind_name(k, NULL));
    lua_pushboolean(L, (a->travel_flags & NAV_TFL_WATER) != 0), lua_setfield(L, -2, "water");
    lua_pushnumber(L, a->zmin), lua_setfield(L, -2, "zmin");
    lua_pushnumber(L, a->zmax), lua_setfield(L, -2, "zmax");
    float r[4];
    area_rect(ag, a, r);
    nav_api_push_point(L, (float[3]){ r[0], r[1], a->zmin }), lua_setfield(L, -2, "mins");
    nav_api_push_point(L, (float[3]){ r[2], r[3], a->zmax }), lua_setfield(L, -2, "maxs");
    if (!with_links) return;
    /* Links out in link order, and the areas they lead to, each once, ascending. */
    lua_createtable(L, (int)a->reach_count, 0);
    for (uint32_t k = 0; k < a->reach_count; k++) {
        nav_api_push_link(L, ag, a->first_reach + k);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_setfield(L, -2, "links");
    lua_createtable(L, (int)a->reach_count, 0);
    int n = 0;
    uint32_t last = NAV_NO_AREA;
    for (;;) { /* the smallest target above `last`: reach counts are small */
        uint32_t best = NAV_NO_AREA;
        for (uint32_t k = 0; k < a->reach_count; k++) {
            uint32_t to = area_reach(ag, a->first_reach + k)->to;
            if ((last == NAV_NO_AREA || to > last) && (best == NAV_NO_AREA || to < best)) best = to;
        }
        if (best == NAV_NO_AREA) break;
        lua_pushinteger(L, best), lua_rawseti(L, -2, ++n);
        last = best;
    }
    lua_setfield(L, -2, "neighbours");
}

static const NavAreaGraph *class_graph(lua_State *L, NavSim *sim, int cls)
{
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, cls, &err);
    if (!r) luaL_error(L, "routing: %s", err.message);
    return router_graph(r);
}

/* nav.area(id [, class]) | nav.area(x, y, z [, class]) | nav.area(point [, class]) */
static int nav_area(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    if (lua_isinteger(L, 1) && !lua_isnumber(L, 2)) {
        lua_Integer id = lua_tointeger(L, 1);
        int cls = nav_api_opt_class(L, 2, sim);
        const NavAreaGraph *ag = class_graph(L, sim, cls);
        luaL_argcheck(L, id >= 0 && (lua_Unsigned)id < area_count(ag), 1, "no such area");
        nav_api_push_area(L, ag, (uint32_t)id, true);
        return 1;
    }
    float p[3];
    int class_arg;
    if (lua_istable(L, 1)) {
        nav_api_check_point(L, 1, p);
        class_arg = 2;
    } else {
        p[0] = nav_api_check_finite(L, 1), p[1] = nav_api_check_finite(L, 2), p[2] = nav_api_check_finite(L, 3);
        class_arg = 4;
    }
    int cls = nav_api_opt_class(L, class_arg, sim);
    const NavAreaGraph *ag;
    uint32_t id = nav_api_area_under(L, sim, cls, p, 0.0f, &ag);
    if (id == NAV_NO_AREA) return 0;
    nav_api_push_area(L, ag, id, true);
    return 1;
}

/* nav.area_at(point [, class]) */
static int nav_area_at(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    return nav_area(L);
}

/* }======= */

/* {======= options ======= */

typedef struct QueryOpts {
    uint32_t flags;
    int cls;
    const float *costs; /* per area, NULL: none (in a userdata on the stack) */
} QueryOpts;

/* The options table at arg: flags, class, and (with costs allowed) costs
** or cost; unknown keys are errors that name the accepted ones. */
static void check_opts(lua_State *L, int arg, NavSim *sim, bool costs, QueryOpts *o)
{
    o->flags = NAV_TFL_DEFAULT;
    o->cls = 0;
    o->costs = NULL;
    if (lua_isnoneornil(L, arg)) return;
    luaL_checktype(L, arg, LUA_TTABLE);
    const char *accepted = costs ? "flags, class, costs, cost" : "flags, class";
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        bool known = key && (strcmp(key, "flags") == 0 || strcmp(key, "class") == 0 ||
                             (costs && (strcmp(key, "costs") == 0 || strcmp(key, "cost") == 0)));
        if (!known)
            luaL_argerror(
                L, arg,
                lua_pushfstring(L, "unknown option '%s' (accepted: %s)", key ? key : luaL_typename(L, -2), accepted));
        lua_pop(L, 1);
    }
    if (lua_getfield(L, arg, "class") != LUA_TNIL) {
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!name) luaL_argerror(L, arg, "'class' must be a class name");
        o->cls = world_find_class(sim_world(sim), name);
        if (o->cls < 0) luaL_argerror(L, arg, lua_pushfstring(L, "no class '%s'", name));
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, arg, "flags");
    if (t == LUA_TNUMBER) {
        if (!lua_isinteger(L, -1)) luaL_argerror(L, arg, "'flags' must be a list of names or an integer");
        o->flags = (uint32_t)lua_tointeger(L, -1);
    } else if (t == LUA_TTABLE) {
        o->flags = 0;
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            uint32_t bits = name ? route_flag_of_name(name) : 0;
            if (!bits) luaL_argerror(L, arg, lua_pushfstring(L, "unknown travel flag '%s'", name ? name : "?"));
            o->flags |= bits;
            lua_pop(L, 1);
        }
    } else if (t != LUA_TNIL) {
        luaL_argerror(L, arg, "'flags' must be a list of names or an integer");
    }
    lua_pop(L, 1);
    if (costs) o->costs = nav_api_costs(L, arg, sim, o->cls); /* may leave a userdata on the stack */
}

/* The area under p for cls, or the nearest within SNAP_RADIUS; *snapped
** gets p or the nearest floor point. */
static uint32_t locate(lua_State *L, NavSim *sim, int cls, const float p[3], float snapped[3], const NavAreaGraph **ag)
{
    *ag = class_graph(L, sim, cls);
    memcpy(snapped, p, 3 * sizeof *p);
    uint32_t a = area_point_area(*ag, p[0], p[1], p[2]);
    if (a == NAV_NO_AREA) a = area_nearest_area(*ag, p[0], p[1], p[2], SNAP_RADIUS, snapped);
    return a;
}

/* }======= */

/* {======= routes between points ======= */

/* nav.route(from, to [, opts]) -> { time, area_time, cost, from, to, start, goal, links } | nil, why */
static int nav_route(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    float a[3], b[3], sa[3], sb[3];
    nav_api_check_point(L, 1, a);
    nav_api_check_point(L, 2, b);
    QueryOpts o;
    check_opts(L, 3, sim, true, &o);
    const NavAreaGraph *ag;
    uint64_t t0 = timer_now_ns();
    uint32_t from = locate(L, sim, o.cls, a, sa, &ag), to = locate(L, sim, o.cls, b, sb, &ag);
    if (from == NAV_NO_AREA || to == NAV_NO_AREA) {
        nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
        lua_pushnil(L);
        lua_pushstring(L, from == NAV_NO_AREA ? "the start is on no area" : "the goal is on no area");
        return 2;
    }
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, o.cls, &err);
    uint32_t *links = lua_newuserdatauv(L, ROUTE_MAX_LINKS * sizeof *links, 0);
    NavRoute q;
    uint32_t cost;
    int n = router_route_links_costed(r, from, sa, to, o.flags, o.costs, links, ROUTE_MAX_LINKS, &q, &cost);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (n == -2) return luaL_error(L, "route: out of memory");
    if (n < 0 || q.time == ROUTE_UNREACHABLE) {
        lua_pushnil(L);
        lua_pushstring(L, "no route");
        return 2;
    }
    if (n > ROUTE_MAX_LINKS) n = ROUTE_MAX_LINKS;
    /* The last leg: from where the route enters the goal's area to the goal point. */
    const float *entry = n > 0 ? area_reach(ag, links[n - 1])->end : sa;
    uint32_t leg = area_time_between(ag, to, entry, sb);
    float m = o.costs ? o.costs[to] : 1.0f;
    if (!(m >= 0.0f && m <= ROUTE_COST_MAX)) m = 1.0f;
    lua_createtable(L, 0, 8);
    lua_pushnumber(L, (q.time + (double)leg) / 100.0), lua_setfield(L, -2, "time");
    lua_pushnumber(L, q.time / 100.0), lua_setfield(L, -2, "area_time");
    lua_pushnumber(L, (cost + (double)leg * m) / 100.0), lua_setfield(L, -2, "cost");
    lua_pushinteger(L, from), lua_setfield(L, -2, "from");
    lua_pushinteger(L, to), lua_setfield(L, -2, "to");
    nav_api_push_point(L, sa), lua_setfield(L, -2, "start");
    nav_api_push_point(L, sb), lua_setfield(L, -2, "goal");
    nav_api_push_links(L, ag, links, n);
    lua_setfield(L, -2, "links");
    return 1;
}

/* }======= */

/* {======= random reachable points ======= */

typedef struct Around {
    const NavAreaGraph *ag;
    float c[2], radius;
    uint32_t *ids; /* areas found */
    float *weight; /* each one's footprint within the circle's box, m^2 */
    uint32_t count;
} Around;

/* The area's footprint inside the circle's box, m^2 (0: none). */
static float weight_of(const Around *s, uint32_t area)
{
    float r[4];
    area_rect(s->ag, area_get(s->ag, area), r);
    float x0 = fmaxf(r[0], s->c[0] - s->radius), x1 = fminf(r[2], s->c[0] + s->radius);
    float y0 = fmaxf(r[1], s->c[1] - s->radius), y1 = fminf(r[3], s->c[1] + s->radius);
    return x0 < x1 && y0 < y1 ? (x1 - x0) * (y1 - y0) : 0.0f;
}

static double uniform(NavSim *sim) { return (double)(sim_random(sim) >> 11) * (1.0 / 9007199254740992.0); }

/* A point of area `id` within the circle, drawn uniformly from the
** footprint's part in the circle's box; false after 16 misses. */
static bool point_in(NavSim *sim, const Around *s, uint32_t id, float out[3])
{
    const NavArea *a = area_get(s->ag, id);
    const NavWorld *w = area_world(s->ag);
    float r[4];
    area_rect(s->ag, a, r);
    float x0 = fmaxf(r[0], s->c[0] - s->radius), x1 = fminf(r[2], s->c[0] + s->radius);
    float y0 = fmaxf(r[1], s->c[1] - s->radius), y1 = fminf(r[3], s->c[1] + s->radius);
    for (int k = 0; k < 16; k++) {
        float x = x0 + (float)uniform(sim) * (x1 - x0), y = y0 + (float)uniform(sim) * (y1 - y0);
        float dx = x - s->c[0], dy = y - s->c[1];
        if (dx * dx + dy * dy > s->radius * s->radius) continue;
        const NavFloor *f = world_floor_at(w, x, y, a->zmax, 0.05f);
        if (!f) continue;
        float z = world_standing_height(f);
        if (area_point_area(s->ag, x, y, z) != id) continue;
        out[0] = x, out[1] = y, out[2] = z;
        return true;
    }
    return false;
}

/* nav.random_point(near, radius [, opts]) -> point, area id | nil, why:
** the areas reached without leaving the circle (router_areas_within),
** drawn by their floor inside the circle's box, then a point in one. */
static int nav_random_point(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    float p[3], sp[3];
    nav_api_check_point(L, 1, p);
    float radius = nav_api_check_finite(L, 2);
    luaL_argcheck(L, radius > 0.0f, 2, "radius must be above 0");
    QueryOpts o;
    check_opts(L, 3, sim, false, &o);
    const NavAreaGraph *ag;
    uint64_t t0 = timer_now_ns();
    uint32_t start = locate(L, sim, o.cls, p, sp, &ag);
    if (start == NAV_NO_AREA) {
        lua_pushnil(L);
        lua_pushstring(L, "the point is on no area");
        return 2;
    }
    uint32_t n = area_count(ag);
    Around s = { ag, { p[0], p[1] }, radius, NULL, NULL, 0 };
    /* Scratch on the Lua stack, so an error cannot leak it. */
    char *mem = lua_newuserdatauv(L, (size_t)n * (sizeof(uint32_t) + sizeof(float)) + 1, 0);
    s.ids = (uint32_t *)mem;
    s.weight = (float *)(mem + (size_t)n * sizeof(uint32_t));
    NavError err;
    nav_error_clear(&err);
    int found = router_areas_within(sim_router(sim, o.cls, &err), start, sp, o.flags, s.c, radius, s.ids, (int)n);
    s.count = found > 0 ? (uint32_t)found : 0;
    for (uint32_t i = 0; i < s.count; i++) s.weight[i] = weight_of(&s, s.ids[i]);
    nav_api_count_path(L, (double)(timer_now_ns() - t0) * 1e-9);
    /* Weighted by footprint; an area where no point falls is dropped and
    ** another drawn. Areas are in search order, which is deterministic. */
    double total = 0.0;
    for (uint32_t i = 0; i < s.count; i++) total += s.weight[i];
    while (total > 0.0) {
        double x = uniform(sim) * total;
        uint32_t i = 0;
        while (i + 1 < s.count && (x >= s.weight[i] || s.weight[i] == 0.0f)) x -= s.weight[i++];
        float out[3];
        if (s.weight[i] > 0.0f && point_in(sim, &s, s.ids[i], out)) {
            nav_api_push_point(L, out);
            lua_pushinteger(L, s.ids[i]);
            return 2;
        }
        total -= s.weight[i];
        s.weight[i] = 0.0f;
        if (total < 1e-9) break;
    }
    lua_pushnil(L);
    lua_pushstring(L, "no reachable floor within the radius");
    return 2;
}

/* }======= */

/* nav.link(id [, class]) -> the link's table (as a route gives it) */
static int nav_link(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    lua_Integer id = luaL_checkinteger(L, 1);
    int cls = nav_api_opt_class(L, 2, sim);
    const NavAreaGraph *ag = class_graph(L, sim, cls);
    luaL_argcheck(L, id >= 0 && (lua_Unsigned)id < area_reach_count(ag), 1, "no such link");
    nav_api_push_link(L, ag, (uint32_t)id);
    return 1;
}

void nav_api_area_register(lua_State *L, int nav_index)
{
    static const luaL_Reg NAV[] = {
        { "area", nav_area },   { "area_at", nav_area_at },
        { "route", nav_route }, { "random_point", nav_random_point },
        { "link", nav_link },   { NULL, NULL },
    };
    nav_api_add(L, nav_index, NAV, NULL);
}

/*
** nav_api_grid.c — the grid half of the `nav` module: long-range grid paths
** and passability, for units that move on the navcell grid (RTS crowds)
** rather than along the area graph. nav_api_open adds these to the nav
** table through nav_api_grid_register.
**
**   nav.grid_path(bot, x, y [, opts])  -> {x1, y1, x2, y2, ...}, how, length
**                                      or nil, why
**       A path for the bot's class from where it stands to (x, y), metres.
**       The list holds the waypoints after the bot's own cell (cell
**       centres; empty when it is in the goal already) as one flat array,
**       cheap to keep per bot. how: "found", "goal_moved" (the goal cannot
**       be reached: the path ends at the reachable cell nearest it),
**       "partial" (max_nodes ran out), "truncated" (too many waypoints:
**       the first ones). length in metres. nil, why: the bot is outside
**       the grid, or its class has nowhere to go.
**       opts (all optional):
**         goal      "point" (default), "circle", "square", "inv_circle",
**                   "inv_square" (the inverted ones: get out of it)
**         radius    circles, metres
**         width, height, angle   squares: full sizes (metres), degrees
**         smooth    any-angle smoothing (default false)
**         max_nodes expansion budget (default none)
**   nav.short_path(bot, x, y [, opts])  -> {x1, y1, x2, y2, ...}, how, length
**                                       or nil, why
**       A short-range path (grid_short.h) for the bot's class from its
**       feet to (x, y), metres, around the other bots near it (squares of
**       their radius, grown by its own) and the class's impassable cells,
**       inside a square of half side `range` around it. The list holds the
**       waypoints after the bot's feet (empty when it is in the goal). how:
**       "found", "unreachable" (no point of the goal can be reached in
**       range: the path ends at the reachable point nearest it),
**       "partial" (max_vertices ran out), "truncated". nil, why: the bot
**       is outside the grid.
**       opts (all optional):
**         range     half side of the search square, metres (default 12)
**         goal      "point" (default), "circle", "square", "inv_circle",
**                   "inv_square"
**         radius    circles; squares: the half side (or width, height)
**         width, height, angle   squares: full sizes (metres), degrees
**         inverted  true: get out of the circle or square
**         max_vertices  expansion budget (default none)
**   nav.grid_passable(x, y, class_name)  -> true when the cell under (x, y)
**                                         is passable for that class
**   nav.grid_reachable(bot, x, y)        -> can the bot's class get from
**                                         its cell to (x, y)? O(1)
**   nav.grid_size()                      -> width, height (metres), cell size
**
** The wall time of every path query, and of the call that builds the
** grid, goes to nav_api_count_grid (part of the path time), so a session
** can tell grid and routing time from Lua time (the O(1) lookups are not timed: the clock would cost more).
** The sim is an upvalue of each function (read once from the registry
** entry nav_api.c keeps), and the bot is the "nav.Bot" userdata, which
** holds only its id (nav_api.h).
*/
#include "script/nav_api.h"
#include "script/nav_api_internal.h"

#include <float.h>
#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "grid/grid_short.h"
#include "sim/sim_debug.h"

#define BOT_META "nav.Bot" /* nav_api.c's bot userdata */
#define SIM_KEY "nav.sim"  /* nav_api.c's registry entry for the sim */
#define PI_F 3.14159265358979f

/* {======= arguments ======= */

static NavSim *up_sim(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static NavGrid *get_grid(lua_State *L, NavSim *sim)
{
    NavError err;
    nav_error_clear(&err);
    /* The first call builds the grid: path time, like the queries. */
    bool building = sim_grid_memory(sim) == 0;
    uint64_t t0 = building ? timer_now_ns() : 0;
    NavGrid *g = sim_grid(sim, &err);
    if (building) nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (!g) luaL_error(L, "the navcell grid cannot be built: %s", err.message);
    return g;
}

static const NavBot *check_bot(lua_State *L, int arg, NavSim *sim)
{
    const uint32_t *id = luaL_checkudata(L, arg, BOT_META);
    const NavBot *b = sim_bot(sim, *id);
    if (!b) luaL_argerror(L, arg, "no such bot");
    return b;
}

static float check_finite(lua_State *L, int arg)
{
    lua_Number v = luaL_checknumber(L, arg);
    luaL_argcheck(L, isfinite(v) && fabs(v) <= FLT_MAX, arg, "finite number expected");
    return (float)v;
}

/* opts.key as a finite number (def when absent). */
static float opt_number(lua_State *L, int arg, const char *key, float def, bool required, float min)
{
    int t = lua_getfield(L, arg, key);
    float v = def;
    if (t == LUA_TNIL) {
        if (required) luaL_argerror(L, arg, lua_pushfstring(L, "option '%s' is needed for this goal", key));
    } else {
        int ok;
        lua_Number n = lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(n))
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "option '%s': finite number expected, got %s", key, luaL_typename(L, -1)));
        if (n < min) luaL_argerror(L, arg, lua_pushfstring(L, "option '%s' must be at least %f", key, (double)min));
        v = (float)n;
    }
    lua_pop(L, 1);
    return v;
}

static const char *const GOAL_NAMES[] = { "point", "circle", "square", "inv_circle", "inv_square", NULL };
static const char *const OPTION_NAMES[] = { "goal", "radius", "width", "height", "angle", "smooth", "max_nodes", NULL };

/* The goal options of opts at arg (goal, radius, width, height, angle) into
** a goal at (x, y); a point when there are none. Unknown keys are the
** caller's to refuse. */
void nav_api_goal_options(lua_State *L, int arg, float x, float y, GridGoal *goal)
{
    *goal = grid_goal_point(x, y);
    if (lua_isnoneornil(L, arg)) return;
    int type = 0;
    if (lua_getfield(L, arg, "goal") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_argerror(L, arg, lua_pushfstring(L, "option 'goal': string expected, got %s", luaL_typename(L, -1)));
        const char *name = lua_tostring(L, -1);
        while (GOAL_NAMES[type] && strcmp(GOAL_NAMES[type], name) != 0) type++;
        if (!GOAL_NAMES[type])
            luaL_argerror(
                L, arg, lua_pushfstring(L, "unknown goal '%s' (point, circle, square, inv_circle, inv_square)", name));
    }
    lua_pop(L, 1);
    switch (type) {
    case 1:
    case 3: *goal = grid_goal_circle(x, y, opt_number(L, arg, "radius", 0.0f, true, 0.0f), type == 3); break;
    case 2:
    case 4: {
        float w = opt_number(L, arg, "width", 0.0f, true, 0.0f), h = opt_number(L, arg, "height", 0.0f, true, 0.0f);
        float a = opt_number(L, arg, "angle", 0.0f, false, -1e6f);
        *goal = grid_goal_square(x, y, 0.5f * w, 0.5f * h, a * PI_F / 180.0f, type == 4);
        break;
    }
    default: break;
    }
}

/* The options table at arg (or none) into a goal at (x, y) and a query. */
static void check_options(lua_State *L, int arg, float x, float y, GridGoal *goal, SimGridQuery *q)
{
    *goal = grid_goal_point(x, y);
    memset(q, 0, sizeof *q);
    if (lua_isnoneornil(L, arg)) return;
    luaL_checktype(L, arg, LUA_TTABLE);
    nav_api_check_keys(L, arg, arg, OPTION_NAMES, "option", "goal, radius, width, height, angle, smooth, max_nodes");
    nav_api_goal_options(L, arg, x, y, goal);
    int t = lua_getfield(L, arg, "smooth");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        luaL_argerror(L, arg, lua_pushfstring(L, "option 'smooth': boolean expected, got %s", luaL_typename(L, -1)));
    q->smooth = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (lua_getfield(L, arg, "max_nodes") != LUA_TNIL) {
        int ok;
        lua_Integer n = lua_tointegerx(L, -1, &ok);
        if (!ok || n < 0 || n > (lua_Integer)UINT32_MAX)
            luaL_argerror(L, arg, "option 'max_nodes': a whole number from 0 (no budget) expected");
        q->max_nodes = (uint32_t)n;
    }
    lua_pop(L, 1);
}

/* }======= */

/* {======= functions ======= */

static const char *how_of(uint32_t flags)
{
    if (flags & GRID_PATH_PARTIAL) return "partial";
    if (flags & GRID_PATH_TRUNCATED) return "truncated";
    if (flags & GRID_PATH_GOAL_MOVED) return "goal_moved";
    return "found";
}

static int grid_path(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    float x = check_finite(L, 2), y = check_finite(L, 3);
    GridGoal goal;
    SimGridQuery q;
    check_options(L, 4, x, y, &goal, &q);
    NavGrid *g = get_grid(L, sim);
    int cx, cy;
    if (!grid_cell_of(g, b->pos[0], b->pos[1], &cx, &cy)) {
        lua_pushnil(L);
        lua_pushliteral(L, "the bot is outside the grid");
        return 2;
    }
    NavError err;
    nav_error_clear(&err);
    SimGridPath path;
    uint64_t t0 = timer_now_ns();
    NavStatus s = sim_grid_path(sim, b->cls, b->pos[0], b->pos[1], &goal, &q, &path, &err);
    nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(s) || (path.flags & GRID_PATH_NO_PATH) || path.count == 0) {
        lua_pushnil(L);
        if (NAV_FAILED(s)) lua_pushstring(L, err.message);
        else lua_pushfstring(L, "no path: a %s has nowhere to go", grid_class(g, b->cls)->name);
        return 2;
    }
    /* After the bot's own cell; the points are the sim's scratch, so they
    ** are read before anything else can query. */
    int n = path.count - 1;
    lua_createtable(L, 2 * n, 0);
    for (int i = 0; i < n; i++) {
        float px, py;
        grid_cell_center(g, path.points[i + 1].x, path.points[i + 1].y, &px, &py);
        lua_pushnumber(L, px);
        lua_rawseti(L, -2, 2 * i + 1);
        lua_pushnumber(L, py);
        lua_rawseti(L, -2, 2 * i + 2);
    }
    lua_pushstring(L, how_of(path.flags));
    lua_pushnumber(L, path.length);
    return 3;
}

static int grid_passable_fn(lua_State *L)
{
    NavSim *sim = up_sim(L);
    float x = check_finite(L, 1), y = check_finite(L, 2);
    const char *name = luaL_checkstring(L, 3);
    NavGrid *g = get_grid(L, sim);
    int cls = grid_find_class(g, name);
    if (cls < 0) return luaL_argerror(L, 3, lua_pushfstring(L, "no class '%s' in this world", name));
    int cx, cy;
    lua_pushboolean(L, grid_cell_of(g, x, y, &cx, &cy) && grid_passable(g, cls, cx, cy));
    return 1;
}

static int grid_reachable_fn(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    float x = check_finite(L, 2), y = check_finite(L, 3);
    NavGrid *g = get_grid(L, sim);
    int ax, ay, bx, by;
    bool ok = grid_cell_of(g, b->pos[0], b->pos[1], &ax, &ay) && grid_cell_of(g, x, y, &bx, &by);
    /* A bot pressed onto a blocked cell (clearance is conservative near
    ** walls) asks from the passable cell nearest it, as a path would. */
    if (ok && !grid_passable(g, b->cls, ax, ay)) ok = grid_nearest_passable(g, b->cls, ax, ay, &ax, &ay);
    lua_pushboolean(L, ok && grid_reachable(g, b->cls, ax, ay, bx, by));
    return 1;
}

static int grid_size(lua_State *L)
{
    NavGrid *g = get_grid(L, up_sim(L));
    float cs = grid_cell_size(g);
    lua_pushnumber(L, (lua_Number)grid_width(g) * cs);
    lua_pushnumber(L, (lua_Number)grid_height(g) * cs);
    lua_pushnumber(L, cs);
    return 3;
}

static const char *const SHORT_OPTION_NAMES[] = { "goal",  "radius",   "width",        "height", "angle",
                                                  "range", "inverted", "max_vertices", NULL };

/* nav.short_path's options at arg into a goal at (x, y) and a query. */
static void check_short_options(lua_State *L, int arg, float x, float y, GridGoal *goal, SimShortQuery *q)
{
    *goal = grid_goal_point(x, y);
    memset(q, 0, sizeof *q);
    if (lua_isnoneornil(L, arg)) return;
    luaL_checktype(L, arg, LUA_TTABLE);
    nav_api_check_keys(L, arg, arg, SHORT_OPTION_NAMES, "option",
                       "goal, radius, width, height, angle, range, inverted, max_vertices");
    int type = 0;
    if (lua_getfield(L, arg, "goal") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_argerror(L, arg, lua_pushfstring(L, "option 'goal': string expected, got %s", luaL_typename(L, -1)));
        const char *name = lua_tostring(L, -1);
        while (GOAL_NAMES[type] && strcmp(GOAL_NAMES[type], name) != 0) type++;
        if (!GOAL_NAMES[type])
            luaL_argerror(
                L, arg, lua_pushfstring(L, "unknown goal '%s' (point, circle, square, inv_circle, inv_square)", name));
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, arg, "inverted");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        luaL_argerror(L, arg, lua_pushfstring(L, "option 'inverted': boolean expected, got %s", luaL_typename(L, -1)));
    bool inverted = lua_toboolean(L, -1) || type == 3 || type == 4;
    lua_pop(L, 1);
    if (inverted && type == 0) luaL_argerror(L, arg, "option 'inverted' needs a circle or square goal");
    switch (type) {
    case 1:
    case 3: *goal = grid_goal_circle(x, y, opt_number(L, arg, "radius", 0.0f, true, 0.0f), inverted); break;
    case 2:
    case 4: {
        /* width and height (full sizes), or radius: the half side */
        lua_getfield(L, arg, "width");
        bool sized = !lua_isnil(L, -1);
        lua_pop(L, 1);
        float hw, hh;
        if (sized) {
            hw = 0.5f * opt_number(L, arg, "width", 0.0f, true, 0.0f);
            hh = 0.5f * opt_number(L, arg, "height", 0.0f, true, 0.0f);
        } else {
            hw = hh = opt_number(L, arg, "radius", 0.0f, true, 0.0f);
        }
        float a = opt_number(L, arg, "angle", 0.0f, false, -1e6f);
        *goal = grid_goal_square(x, y, hw, hh, a * PI_F / 180.0f, inverted);
        break;
    }
    default: break;
    }
    float range = opt_number(L, arg, "range", SIM_SHORT_RANGE, false, 0.0f);
    if (!(range > 0.0f && range <= GRID_SHORT_MAX_RANGE))
        luaL_argerror(
            L, arg,
            lua_pushfstring(L, "option 'range' must be more than 0 and at most %d metres", (int)GRID_SHORT_MAX_RANGE));
    q->range = range;
    if (lua_getfield(L, arg, "max_vertices") != LUA_TNIL) {
        int ok;
        lua_Integer n = lua_tointegerx(L, -1, &ok);
        if (!ok || n < 0 || n > (lua_Integer)UINT32_MAX)
            luaL_argerror(L, arg, "option 'max_vertices': a whole number from 0 (no budget) expected");
        q->max_vertices = (uint32_t)n;
    }
    lua_pop(L, 1);
}

static const char *short_how(uint32_t flags)
{
    if (flags & GRID_SHORT_PARTIAL) return "partial";
    if (flags & GRID_SHORT_TRUNCATED) return "truncated";
    if (flags & GRID_SHORT_UNREACHABLE) return "unreachable";
    return "found";
}

static int short_path(lua_State *L)
{
    NavSim *sim = up_sim(L);
    const NavBot *b = check_bot(L, 1, sim);
    float x = check_finite(L, 2), y = check_finite(L, 3);
    GridGoal goal;
    SimShortQuery q;
    check_short_options(L, 4, x, y, &goal, &q);
    NavGrid *g = get_grid(L, sim);
    int cx, cy;
    if (!grid_cell_of(g, b->pos[0], b->pos[1], &cx, &cy)) {
        lua_pushnil(L);
        lua_pushliteral(L, "the bot is outside the grid");
        return 2;
    }
    NavError err;
    nav_error_clear(&err);
    SimShortPath path;
    uint64_t t0 = timer_now_ns();
    NavStatus s = sim_grid_short_path(sim, b->id, &goal, &q, &path, &err);
    nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(s)) {
        lua_pushnil(L);
        lua_pushstring(L, err.message);
        return 2;
    }
    /* After the bot's own feet; the points are the sim's scratch. */
    int n = path.count - 1;
    lua_createtable(L, 2 * n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, path.points[i + 1].x);
        lua_rawseti(L, -2, 2 * i + 1);
        lua_pushnumber(L, path.points[i + 1].y);
        lua_rawseti(L, -2, 2 * i + 2);
    }
    lua_pushstring(L, short_how(path.flags));
    lua_pushnumber(L, path.length);
    return 3;
}

static const luaL_Reg GRID_FUNCTIONS[] = {
    { "grid_path", grid_path },
    { "short_path", short_path },
    { "grid_passable", grid_passable_fn },
    { "grid_reachable", grid_reachable_fn },
    { "grid_size", grid_size },
    { NULL, NULL },
};

/* }======= */

void nav_api_grid_register(lua_State *L, int nav_table_index)
{
    int nav = lua_absindex(L, nav_table_index);
    lua_getfield(L, LUA_REGISTRYINDEX, SIM_KEY);
    if (!lua_touserdata(L, -1)) luaL_error(L, "the nav module has no simulation");
    /* luaL_setfuncs sets into the table just below the upvalues. */
    lua_pushvalue(L, nav);
    lua_insert(L, -2);
    luaL_setfuncs(L, GRID_FUNCTIONS, 1);
    lua_pop(L, 1);
}

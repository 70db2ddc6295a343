/*
** nav_api_place.c — buildings from Lua (sim.h, "buildings"): may a
** footprint be built, where units appear round it, laying a foundation
** that moves the bots under it out, and adding a bot at a point.
** nav_api_open adds these through nav_api_place_register.
**
**   nav.can_place{ x=, y=, hw=, hh= [, angle=] [, rules=] }
**       -> true | false, reason, text
**   nav.spawn_points{ x=, y=, hw=, hh= [, angle=] [, class=] [, n=]
**                     [, rally_x=, rally_y=] [, rings=] } -> {x1, y1, ...}
**   nav.place_foundation{ x=, y=, hw=, hh= [, angle=] [, height=]
**                         [, builder=] [, rules=] }
**       -> obstacle id, moved, stranded | nil, reason, text
**   nav.spawn{ x=, y= [, z=] [, class=] [, yaw=] [, team=] } -> bot | nil, why
**
** A footprint is its centre (x, y), half extents (hw, hh) and a rotation
** in degrees, counter-clockwise. rules: max_slope (degrees, default any),
** min_water, max_water (metres of liquid; default 0 to 0, dry land; with
** min_water alone, any depth from it), shore, spacing, edge (metres;
** default 0). reason is one of grid_place_reason_name's words. Every
** table refuses a field it does not know, so a misspelt one is an error
** rather than a rule silently left out. The grid queries' time goes to
** nav_api_count_grid.
**
** DOES NOT: give spawned bots a brain (the host attaches brains; a bot
** added here stands still unless a script moves it).
*/
#include "script/nav_api_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/timer.h"

#define DEG (3.14159265358979 / 180.0)
#define DEFAULT_HEIGHT 3.0f /* metres a foundation stands over its highest ground */

/* {======= fields ======= */

/* Refuse any key of the table at arg that is not in names. */
static void check_keys(lua_State *L, int arg, const char *const *names, const char *list)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    nav_api_check_keys(L, arg, arg, names, "field", list);
}

enum { ANY = 0, NOT_NEGATIVE, POSITIVE };

/* Field `key` of the table at index t as a finite number; def when
** absent, or an error when required. Errors name argument arg, the field
** with `prefix` before it ("rules."). */
static float field_number(lua_State *L, int arg, int t, const char *prefix, const char *key, bool required, float def,
                          int sign)
{
    float v = def;
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        if (required) luaL_argerror(L, arg, lua_pushfstring(L, "field '%s%s' is needed", prefix, key));
    } else {
        int ok;
        lua_Number n = lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(n) || fabs(n) > FLT_MAX)
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "field '%s%s': finite number expected, got %s", prefix, key,
                                          ok ? "a number out of range" : luaL_typename(L, -1)));
        if ((sign == NOT_NEGATIVE && n < 0) || (sign == POSITIVE && n <= 0))
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "field '%s%s' must be %s", prefix, key,
                                          sign == POSITIVE ? "above 0" : "at least 0"));
        v = (float)n;
    }
    lua_pop(L, 1);
    return v;
}

static GridShape check_footprint(lua_State *L, int arg)
{
    GridShape s;
    s.x = field_number(L, arg, arg, "", "x", true, 0.0f, ANY);
    s.y = field_number(L, arg, arg, "", "y", true, 0.0f, ANY);
    s.hw = field_number(L, arg, arg, "", "hw", true, 0.0f, POSITIVE);
    s.hh = field_number(L, arg, arg, "", "hh", true, 0.0f, POSITIVE);
    s.angle = (float)(field_number(L, arg, arg, "", "angle", false, 0.0f, ANY) * DEG);
    return s;
}

static const char *const RULE_NAMES[] = { "max_slope", "min_water", "max_water", "shore", "spacing", "edge", NULL };

/* The field `rules` of the table at arg (absent: the defaults). */
static GridPlaceRules check_rules(lua_State *L, int arg)
{
    GridPlaceRules r = GRID_PLACE_RULES_DEFAULT;
    int t = lua_getfield(L, arg, "rules");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return r;
    }
    if (t != LUA_TTABLE)
        luaL_argerror(L, arg, lua_pushfstring(L, "field 'rules': table expected, got %s", luaL_typename(L, -1)));
    int at = lua_gettop(L);
    nav_api_check_keys(L, arg, at, RULE_NAMES, "rule", "max_slope, min_water, max_water, shore, spacing, edge");
    r.max_slope = field_number(L, arg, at, "rules.", "max_slope", false, 90.0f, NOT_NEGATIVE);
    r.min_water = field_number(L, arg, at, "rules.", "min_water", false, 0.0f, NOT_NEGATIVE);
    r.max_water =
        field_number(L, arg, at, "rules.", "max_water", false, r.min_water > 0.0f ? 1e9f : 0.0f, NOT_NEGATIVE);
    r.shore = field_number(L, arg, at, "rules.", "shore", false, 0.0f, NOT_NEGATIVE);
    r.spacing = field_number(L, arg, at, "rules.", "spacing", false, 0.0f, NOT_NEGATIVE);
    r.edge = field_number(L, arg, at, "rules.", "edge", false, 0.0f, NOT_NEGATIVE);
    if (r.max_slope > 90.0f) luaL_argerror(L, arg, "field 'rules.max_slope' must be at most 90 (degrees)");
    if (r.min_water > r.max_water) luaL_argerror(L, arg, "field 'rules.min_water' is over 'rules.max_water'");
    lua_pop(L, 1);
    return r;
}

/* The field `class` (a class name) of the table at arg; the map's first
** class when absent. */
static int check_class(lua_State *L, int arg, NavSim *sim)
{
    int t = lua_getfield(L, arg, "class"), cls = 0;
    if (t != LUA_TNIL) {
        if (t != LUA_TSTRING)
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "field 'class': class name expected, got %s", luaL_typename(L, -1)));
        const char *name = lua_tostring(L, -1);
        cls = world_find_class(sim_world(sim), name);
        if (cls < 0) luaL_argerror(L, arg, lua_pushfstring(L, "field 'class': no class '%s' in this world", name));
    }
    lua_pop(L, 1);
    return cls;
}

static lua_Integer field_integer(lua_State *L, int arg, const char *key, lua_Integer def, lua_Integer lo,
                                 lua_Integer hi)
{
    lua_Integer v = def;
    if (lua_getfield(L, arg, key) != LUA_TNIL) {
        int ok;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok || v < lo || v > hi)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s': a whole number from %I to %I expected", key, lo, hi));
    }
    lua_pop(L, 1);
    return v;
}

/* A grid call's error: a bad value names its field; anything else (the
** grid could not be built, memory) is an error of its own. */
static int raise(lua_State *L, const char *fn, const NavError *err)
{
    if (err->status & NAV_E_PARAM) return luaL_argerror(L, 1, err->message);
    return luaL_error(L, "%s: %s", fn, err->message);
}

/* }======= */

/* {======= functions ======= */

static const char *const CAN_PLACE_KEYS[] = { "x", "y", "hw", "hh", "angle", "rules", NULL };

static int nav_can_place(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    check_keys(L, 1, CAN_PLACE_KEYS, "x, y, hw, hh, angle, rules");
    GridShape fp = check_footprint(L, 1);
    GridPlaceRules rules = check_rules(L, 1);
    GridPlaceResult res;
    char text[GRID_PLACE_TEXT_MAX];
    NavError err;
    nav_error_clear(&err);
    uint64_t t0 = timer_now_ns();
    NavStatus s = sim_place_check(sim, &fp, &rules, &res, text, sizeof text, &err);
    nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(s)) return raise(L, "can_place", &err);
    lua_pushboolean(L, res.reason == GRID_PLACE_OK);
    if (res.reason == GRID_PLACE_OK) return 1;
    lua_pushstring(L, grid_place_reason_name(res.reason));
    lua_pushstring(L, text);
    return 3;
}

static const char *const SPAWN_POINTS_KEYS[] = { "x", "y",       "hw",      "hh",    "angle", "class",
                                                 "n", "rally_x", "rally_y", "rings", NULL };

static int nav_spawn_points(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    check_keys(L, 1, SPAWN_POINTS_KEYS, "x, y, hw, hh, angle, class, n, rally_x, rally_y, rings");
    GridShape fp = check_footprint(L, 1);
    int cls = check_class(L, 1, sim);
    int n = (int)field_integer(L, 1, "n", 1, 0, SIM_MAX_BOTS);
    int rings = (int)field_integer(L, 1, "rings", GRID_SPAWN_RINGS, 1, GRID_SPAWN_MAX_RINGS);
    lua_getfield(L, 1, "rally_x");
    lua_getfield(L, 1, "rally_y");
    bool has_x = !lua_isnil(L, -2), has_y = !lua_isnil(L, -1);
    lua_pop(L, 2);
    if (has_x != has_y) luaL_argerror(L, 1, "fields 'rally_x' and 'rally_y' go together");
    float rally[2] = { 0, 0 };
    if (has_x) {
        rally[0] = field_number(L, 1, 1, "", "rally_x", true, 0.0f, ANY);
        rally[1] = field_number(L, 1, 1, "", "rally_y", true, 0.0f, ANY);
    }
    float *out = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * 2 * sizeof *out, 0); /* freed by the collector */
    NavError err;
    nav_error_clear(&err);
    uint64_t t0 = timer_now_ns();
    int got = sim_spawn_points(sim, cls, &fp, has_x ? rally : NULL, rings, out, n, &err);
    nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (got < 0) return raise(L, "spawn_points", &err);
    lua_createtable(L, 2 * got, 0);
    for (int i = 0; i < 2 * got; i++) {
        lua_pushnumber(L, out[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const char *const FOUNDATION_KEYS[] = { "x", "y", "hw", "hh", "angle", "height", "builder", "rules", NULL };

static int nav_place_foundation(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    check_keys(L, 1, FOUNDATION_KEYS, "x, y, hw, hh, angle, height, builder, rules");
    GridShape fp = check_footprint(L, 1);
    GridPlaceRules rules = check_rules(L, 1);
    float height = field_number(L, 1, 1, "", "height", false, DEFAULT_HEIGHT, POSITIVE);
    int builder = -1;
    if (lua_getfield(L, 1, "builder") != LUA_TNIL) {
        const uint32_t *id = luaL_testudata(L, -1, NAV_API_BOT_META); /* BotRef: its id first */
        if (!id || !sim_bot(sim, *id))
            luaL_argerror(L, 1,
                          lua_pushfstring(L, "field 'builder': a bot (nav.Bot) expected, got %s",
                                          id ? "a bot that is gone" : luaL_typename(L, -1)));
        builder = (int)*id;
    }
    lua_pop(L, 1);
    GridPlaceResult res;
    char text[GRID_PLACE_TEXT_MAX];
    NavError err;
    nav_error_clear(&err);
    uint64_t t0 = timer_now_ns();
    NavStatus s = sim_place_check(sim, &fp, &rules, &res, text, sizeof text, &err);
    SimFoundation f = { 0 };
    if (NAV_SUCCEEDED(s) && res.reason == GRID_PLACE_OK) s = sim_place_foundation(sim, &fp, height, builder, &f, &err);
    nav_api_count_grid(L, (double)(timer_now_ns() - t0) * 1e-9);
    if (NAV_FAILED(s)) return raise(L, "place_foundation", &err);
    if (res.reason != GRID_PLACE_OK) {
        lua_pushnil(L);
        lua_pushstring(L, grid_place_reason_name(res.reason));
        lua_pushstring(L, text);
        return 3;
    }
    lua_pushinteger(L, f.obstacle);
    lua_pushinteger(L, f.moved);
    lua_pushinteger(L, f.stranded);
    return 3;
}

static const char *const SPAWN_KEYS[] = { "x", "y", "z", "class", "yaw", "team", NULL };

static int nav_spawn(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    check_keys(L, 1, SPAWN_KEYS, "x, y, z, class, yaw, team");
    NavBotDesc d = { 0 };
    d.pos[0] = field_number(L, 1, 1, "", "x", true, 0.0f, ANY);
    d.pos[1] = field_number(L, 1, 1, "", "y", true, 0.0f, ANY);
    d.cls = check_class(L, 1, sim);
    d.yaw = field_number(L, 1, 1, "", "yaw", false, 0.0f, ANY);
    d.team = (int)field_integer(L, 1, "team", 0, INT32_MIN, INT32_MAX);
    lua_getfield(L, 1, "z");
    bool has_z = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (has_z) {
        d.pos[2] = field_number(L, 1, 1, "", "z", true, 0.0f, ANY);
    } else {
        /* No z: the lowest floor there. */
        const NavWorld *w = sim_world(sim);
        int cx, cy, n = 0;
        const NavFloor *f = world_point_cell(w, d.pos[0], d.pos[1], &cx, &cy) ? world_column(w, cx, cy, &n) : NULL;
        if (!f || n == 0 || !isfinite(f[0].z)) {
            lua_pushnil(L);
            lua_pushfstring(L, "no floor at (%f, %f)", (double)d.pos[0], (double)d.pos[1]);
            return 2;
        }
        d.pos[2] = world_standing_height(&f[0]);
    }
    NavError err;
    nav_error_clear(&err);
    int id = sim_spawn_bot(sim, &d, &err);
    if (id < 0) {
        if (err.status & NAV_E_NOMEM) return luaL_error(L, "spawn: %s", err.message);
        lua_pushnil(L);
        lua_pushstring(L, err.message);
        return 2;
    }
    nav_api_push_bot(L, (uint32_t)id);
    return 1;
}

static const luaL_Reg PLACE_FUNCTIONS[] = {
    { "can_place", nav_can_place },
    { "spawn_points", nav_spawn_points },
    { "place_foundation", nav_place_foundation },
    { "spawn", nav_spawn },
    { NULL, NULL },
};

/* }======= */

void nav_api_place_register(lua_State *L, int nav_index) { nav_api_add(L, nav_index, PLACE_FUNCTIONS, NULL); }

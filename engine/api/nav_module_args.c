/*
** nav_module_args.c — the argument checks of nav.so: points (tables
** {x, y[, z]} or {x=, y=, z=}), classes, travel flags and option tables.
** Each raises a Lua error naming the argument, luaL_argerror style.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav_module_internal.h"

/* {======= helpers ======= */

LMap *navmod_check_map(lua_State *L, int i)
{
    LMap *m = luaL_checkudata(L, i, MAP_MT);
    if (!m->w) luaL_argerror(L, i, "the map is closed");
    return m;
}

LSim *navmod_check_sim(lua_State *L, int i)
{
    LSim *s = luaL_checkudata(L, i, SIM_MT);
    if (!s->s) luaL_argerror(L, i, "the simulation is closed");
    return s;
}

/* A number field of a point table: t[k] or t[name]; nil when absent. */
static bool point_field(lua_State *L, int t, int k, const char *name, float *out, const char *what, int arg)
{
    lua_rawgeti(L, t, k);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, t, name);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    int ok;
    lua_Number v = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(v)) {
        const char *msg =
            lua_pushfstring(L, "%s: %s must be a finite number, got %s", what, name, luaL_typename(L, -1));
        luaL_argerror(L, arg, msg);
    }
    lua_pop(L, 1);
    *out = (float)v;
    return true;
}

/* A point table {x, y [, z]} or {x = .., y = .., z = ..} at arg. A missing
** z is the lowest floor of class cls under (x, y) (map given) or 0. */
void navmod_check_point_at(lua_State *L, int idx, int arg, const char *what, LMap *m, int cls, float p[3])
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        const char *msg =
            lua_pushfstring(L, "%s: a point table {x, y [, z]} expected, got %s", what, luaL_typename(L, idx));
        luaL_argerror(L, arg, msg);
    }
    if (!point_field(L, idx, 1, "x", &p[0], what, arg) || !point_field(L, idx, 2, "y", &p[1], what, arg)) {
        const char *msg = lua_pushfstring(L, "%s: a point needs x and y", what);
        luaL_argerror(L, arg, msg);
    }
    if (point_field(L, idx, 3, "z", &p[2], what, arg)) return;
    p[2] = 0.0f;
    if (m && navbot_world_floor_z(m->w, cls, p[0], p[1], &p[2]) != NAVBOT_OK) {
        const char *msg = lua_pushfstring(L, "%s: %s", what, navbot_world_error(m->w));
        luaL_argerror(L, arg, msg);
    }
}

void navmod_check_point(lua_State *L, int arg, const char *what, LMap *m, int cls, float p[3])
{
    navmod_check_point_at(L, arg, lua_absindex(L, arg), what, m, cls, p);
}

void navmod_push_point(lua_State *L, const float p[3], int n)
{
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushnumber(L, p[k]);
        lua_rawseti(L, -2, k + 1);
    }
}

/* A class: nil (the first), a name, or an index (0-based, as C). */
int navmod_check_class(lua_State *L, int arg, LMap *m)
{
    if (lua_isnoneornil(L, arg)) return 0;
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Integer i = luaL_checkinteger(L, arg);
        if (i < 0 || i > 1000000 || !navbot_world_class_name(m->w, (int)i))
            luaL_argerror(L, arg, lua_pushfstring(L, "no class %I", (LUAI_UACINT)i));
        return (int)i;
    }
    const char *name = luaL_checkstring(L, arg);
    int c = navbot_world_find_class(m->w, name);
    if (c < 0) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addstring(&b, "no class '");
        luaL_addstring(&b, name);
        luaL_addstring(&b, "'; the map's classes are:");
        for (int i = 0; navbot_world_class_name(m->w, i); i++) {
            luaL_addchar(&b, ' ');
            luaL_addstring(&b, navbot_world_class_name(m->w, i));
        }
        luaL_pushresult(&b);
        luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    return c;
}

/* Travel flags: nil (default), an integer mask, a list of names, or a
** comma-separated string of names. */
uint32_t navmod_check_flags(lua_State *L, int arg)
{
    int t = lua_type(L, arg);
    if (t == LUA_TNONE || t == LUA_TNIL) return 0;
    if (t == LUA_TNUMBER) {
        lua_Integer v = luaL_checkinteger(L, arg);
        if (v <= 0 || v > 0x1FFFFF) luaL_argerror(L, arg, "flags: a mask of travel bits (1 to 2097151)");
        return (uint32_t)v;
    }
    NavbotError e;
    uint32_t out = 0, bits;
    if (t == LUA_TSTRING) {
        if (navbot_travel_flags(lua_tostring(L, arg), &out, &e) != NAVBOT_OK) luaL_argerror(L, arg, e.text);
        return out;
    }
    if (t != LUA_TTABLE)
        luaL_argerror(
            L, arg,
            lua_pushfstring(L, "flags: nil, a list of names or an integer expected, got %s", luaL_typename(L, arg)));
    lua_Integer n = luaL_len(L, arg);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, arg, i);
        const char *name = lua_tostring(L, -1);
        if (!name || lua_type(L, -1) != LUA_TSTRING)
            luaL_argerror(L, arg, lua_pushfstring(L, "flags[%d]: a travel name expected", (int)i));
        if (navbot_travel_flags(name, &bits, &e) != NAVBOT_OK) luaL_argerror(L, arg, e.text);
        out |= bits;
        lua_pop(L, 1);
    }
    if (!out) luaL_argerror(L, arg, "flags: an empty list allows nothing");
    return out;
}

/* Fields of an options table that must be known: names the first unknown
** key and the ones allowed. */
void navmod_check_keys(lua_State *L, int arg, const char *const *known, const char *what)
{
    if (!lua_istable(L, arg)) return;
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; known[i]; i++)
                if (strcmp(lua_tostring(L, -1), known[i]) == 0) ok = true;
        if (!ok) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            lua_pushfstring(L, "%s: unknown key '%s'; the keys are:", what,
                            lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2));
            luaL_addvalue(&b);
            for (int i = 0; known[i]; i++) {
                luaL_addchar(&b, ' ');
                luaL_addstring(&b, known[i]);
            }
            luaL_pushresult(&b);
            luaL_argerror(L, arg, lua_tostring(L, -1));
        }
    }
}

/* }======= */

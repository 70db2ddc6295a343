/*
** nav_api_draw.c — debug drawing and facing from Lua:
**
**   nav.draw.line(a, b [, colour [, seconds]])
**   nav.draw.circle(centre, radius [, colour [, seconds]])
**   nav.draw.text(point, text [, colour [, seconds]])
**   nav.draw.clear()
**       Marks over the world in the window and in pictures (sim.h, "debug
**       drawings"), kept for `seconds` of simulated time (default 0: until
**       the next tick is drawn). Each returns true when kept, false when
**       nothing is watching (then they cost next to nothing) or 4,096
**       marks are alive. Colours: a name (white, black, red, green, blue,
**       yellow, orange, cyan, magenta, grey) or {r, g, b [, a]} from 0 to 1.
**   bot:look_at(x, y, z) | bot:look_at(point) | bot:look_at(nil)
**       Face a point whatever way the bot walks (until told nil);
**       bot:facing() and bot:state().facing give where it faces.
*/
#include "script/nav_api_internal.h"
#include "sim/sim_debug.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *name;
    uint8_t rgba[4];
} COLOURS[] = {
    { "white", { 255, 255, 255, 255 } }, { "black", { 0, 0, 0, 255 } },     { "red", { 235, 60, 50, 255 } },
    { "green", { 60, 210, 80, 255 } },   { "blue", { 70, 120, 255, 255 } }, { "yellow", { 250, 220, 40, 255 } },
    { "orange", { 255, 150, 30, 255 } }, { "cyan", { 60, 220, 230, 255 } }, { "magenta", { 230, 70, 220, 255 } },
    { "grey", { 150, 150, 150, 255 } },
};
#define COLOUR_NAMES "white, black, red, green, blue, yellow, orange, cyan, magenta, grey"

static void check_colour(lua_State *L, int arg, uint8_t out[4])
{
    memcpy(out, COLOURS[0].rgba, 4);
    if (lua_isnoneornil(L, arg)) return;
    if (lua_type(L, arg) == LUA_TSTRING) {
        const char *name = lua_tostring(L, arg);
        for (size_t i = 0; i < sizeof COLOURS / sizeof COLOURS[0]; i++)
            if (strcmp(name, COLOURS[i].name) == 0) {
                memcpy(out, COLOURS[i].rgba, 4);
                return;
            }
        luaL_argerror(
            L, arg, lua_pushfstring(L, "unknown colour '%s' (%s, or {r, g, b [, a]} from 0 to 1)", name, COLOUR_NAMES));
    }
    if (!lua_istable(L, arg)) luaL_typeerror(L, arg, "colour name or {r, g, b [, a]}");
    for (int k = 0; k < 4; k++) {
        int t = lua_rawgeti(L, arg, k + 1);
        if (t == LUA_TNIL && k == 3) {
            lua_pop(L, 1);
            break;
        }
        int ok;
        lua_Number v = lua_tonumberx(L, -1, &ok);
        if (!ok || !(v >= 0.0 && v <= 1.0)) luaL_argerror(L, arg, "colour components must be numbers from 0 to 1");
        out[k] = (uint8_t)lround(v * 255.0);
        lua_pop(L, 1);
    }
}

static double check_seconds(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg)) return 0.0;
    double s = nav_api_check_finite(L, arg);
    luaL_argcheck(L, s >= 0.0, arg, "seconds must not be negative");
    return s;
}

/* Kept from now for `seconds`, at least until the tick after this one is drawn. */
static int keep(lua_State *L, NavSim *sim, SimMark *m, double seconds)
{
    double dt = sim_dt(sim);
    m->until = sim_time(sim) + (seconds > dt ? seconds : dt);
    lua_pushboolean(L, sim_mark_add(sim, m));
    return 1;
}

static int draw_line(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    SimMark m = { .kind = SIM_MARK_LINE };
    nav_api_check_point(L, 1, m.a);
    nav_api_check_point(L, 2, m.b);
    check_colour(L, 3, m.rgba);
    return keep(L, sim, &m, check_seconds(L, 4));
}

static int draw_circle(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    SimMark m = { .kind = SIM_MARK_CIRCLE };
    nav_api_check_point(L, 1, m.a);
    m.radius = nav_api_check_finite(L, 2);
    luaL_argcheck(L, m.radius > 0.0f, 2, "radius must be above 0");
    check_colour(L, 3, m.rgba);
    return keep(L, sim, &m, check_seconds(L, 4));
}

static int draw_text(lua_State *L)
{
    NavSim *sim = nav_api_sim(L);
    SimMark m = { .kind = SIM_MARK_TEXT };
    nav_api_check_point(L, 1, m.a);
    const char *text = luaL_checkstring(L, 2);
    snprintf(m.text, sizeof m.text, "%s", text);
    check_colour(L, 3, m.rgba);
    return keep(L, sim, &m, check_seconds(L, 4));
}

static int draw_clear(lua_State *L)
{
    sim_marks_clear(nav_api_sim(L));
    return 0;
}

static int bot_look_at(lua_State *L)
{
    NavSim *sim;
    const NavBot *b = nav_api_check_bot(L, 1, &sim);
    NavBotControl *c = sim_bot_control(sim, b->id);
    if (lua_isnoneornil(L, 2)) {
        c->look = false;
        return 0;
    }
    float p[3];
    if (lua_istable(L, 2)) {
        nav_api_check_point(L, 2, p);
    } else {
        p[0] = nav_api_check_finite(L, 2), p[1] = nav_api_check_finite(L, 3);
        p[2] = lua_isnoneornil(L, 4) ? b->pos[2] : nav_api_check_finite(L, 4);
    }
    memcpy(c->look_at, p, sizeof p);
    c->look = true;
    return 0;
}

static int bot_facing(lua_State *L)
{
    const NavBot *b = nav_api_check_bot(L, 1, NULL);
    lua_pushnumber(L, b->facing);
    return 1;
}

void nav_api_draw_register(lua_State *L, int nav_index)
{
    static const luaL_Reg DRAW[] = {
        { "line", draw_line }, { "circle", draw_circle }, { "text", draw_text }, { "clear", draw_clear },
        { NULL, NULL },
    };
    static const luaL_Reg BOT[] = { { "look_at", bot_look_at }, { "facing", bot_facing }, { NULL, NULL } };
    luaL_newlib(L, DRAW);
    lua_setfield(L, nav_index, "draw");
    nav_api_add(L, nav_index, NULL, BOT);
}

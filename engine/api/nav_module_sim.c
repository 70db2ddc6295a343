/*
** nav_module_sim.c — simulations in nav.so: map:sim{...} makes one; its
** methods add bots, step, read bots back and paint PNGs, over the public
** C API's sessions. Brain output is collected per step and returned.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "nav_module_internal.h"

/* {======= simulations ======= */

static void lsim_log(void *user, const char *line)
{
    LSim *s = user;
    size_t len = strlen(line) + 1;
    if (s->log_len + len > MOD_LOG_MAX) {
        s->log_dropped = true;
        return;
    }
    if (s->log_len + len > s->log_cap) {
        size_t cap = s->log_cap ? s->log_cap : 1024;
        while (cap < s->log_len + len) cap *= 2;
        char *n = nav_realloc(s->log, cap);
        if (!n) {
            s->log_dropped = true;
            return;
        }
        s->log = n;
        s->log_cap = cap;
    }
    memcpy(s->log + s->log_len, line, len);
    s->log_len += len;
}

static void lsim_release(LSim *s)
{
    if (s->s) {
        navbot_session_destroy(s->s);
        s->s = NULL;
        if (s->map) s->map->sims--;
    }
    s->map = NULL;
    nav_free(s->log);
    s->log = NULL;
    s->log_len = s->log_cap = 0;
}

int navmod_sim_close(lua_State *L)
{
    lsim_release(luaL_checkudata(L, 1, SIM_MT));
    return 0;
}

int navmod_sim_tostring(lua_State *L)
{
    LSim *s = luaL_checkudata(L, 1, SIM_MT);
    if (s->s)
        lua_pushfstring(L, "nav.Sim tick %I, %d bots", (LUAI_UACINT)navbot_session_tick(s->s),
                        navbot_session_bot_count(s->s));
    else lua_pushstring(L, "nav.Sim (closed)");
    return 1;
}

/* map:sim([opts]) opts: seed, hz, dirs (project folders), print (function
** for brain output; default: standard error). */
int navmod_map_sim(lua_State *L)
{
    LMap *m = navmod_check_map(L, 1);
    NavbotSessionDesc d = { 0 };
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        static const char *const KEYS[] = { "seed", "hz", "dirs", "print", NULL };
        navmod_check_keys(L, 2, KEYS, "options");
        lua_getfield(L, 2, "seed");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1)) return luaL_argerror(L, 2, "options: seed must be an integer");
            d.seed = (uint64_t)lua_tointeger(L, -1);
        }
        lua_getfield(L, 2, "hz");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 1000)
                return luaL_argerror(L, 2, "options: hz must be an integer from 1 to 1000");
            d.tick_hz = (int)lua_tointeger(L, -1);
        }
        lua_getfield(L, 2, "dirs");
        if (!lua_isnil(L, -1)) {
            if (!lua_istable(L, -1)) return luaL_argerror(L, 2, "options: dirs must be a list of folders");
            lua_Integer n = luaL_len(L, -1);
            if (n > NAVBOT_MAX_PROJECT_DIRS) return luaL_argerror(L, 2, "options: dirs holds at most 4 folders");
            for (lua_Integer i = 1; i <= n; i++) {
                lua_rawgeti(L, -1, i);
                if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 2, "options: dirs must hold strings");
                d.project_dirs[i - 1] = lua_tostring(L, -1); /* anchored in the options table */
                lua_pop(L, 1);
            }
        }
        lua_getfield(L, 2, "print");
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            return luaL_argerror(L, 2, "options: print must be a function");
        lua_pop(L, 4);
    }
    LSim *s = lua_newuserdatauv(L, sizeof *s, 2);
    memset(s, 0, sizeof *s);
    luaL_setmetatable(L, SIM_MT);
    d.log = lsim_log;
    d.log_user = s;
    NavbotError e;
    if (navbot_session_create(m->w, &d, &s->s, &e) != NAVBOT_OK) return luaL_error(L, "sim: %s", e.text);
    s->map = m;
    m->sims++;
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "print");
        lua_setiuservalue(L, -2, 2);
    }
    return 1;
}

/* sim:add_bot{brain=, at=, goal=, class=, yaw=, radius=} -> id [, why] */
static int lsim_add_bot(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    static const char *const KEYS[] = { "brain", "at", "goal", "class", "yaw", "radius", NULL };
    navmod_check_keys(L, 2, KEYS, "bot");
    NavbotBotDesc d = { 0 };
    int top = lua_gettop(L);
    lua_getfield(L, 2, "class");
    d.cls = navmod_check_class(L, top + 1, s->map);
    lua_getfield(L, 2, "brain");
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 2, "bot: brain must be a name or a path");
        d.brain = lua_tostring(L, -1);
    }
    lua_getfield(L, 2, "at");
    if (lua_isnil(L, -1)) return luaL_argerror(L, 2, "bot: at (a point) is required");
    navmod_check_point_at(L, top + 3, 2, "at", s->map, d.cls, d.at);
    lua_getfield(L, 2, "goal");
    if (!lua_isnil(L, -1)) {
        navmod_check_point_at(L, top + 4, 2, "goal", s->map, d.cls, d.goal);
        d.has_goal = true;
    }
    lua_getfield(L, 2, "yaw");
    if (!lua_isnil(L, -1)) {
        int ok;
        d.yaw = (float)lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(d.yaw)) return luaL_argerror(L, 2, "bot: yaw must be a number (degrees)");
    }
    lua_getfield(L, 2, "radius");
    if (!lua_isnil(L, -1)) {
        int ok;
        d.goal_radius = (float)lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(d.goal_radius) || d.goal_radius < 0)
            return luaL_argerror(L, 2, "bot: radius must be a number >= 0");
    }
    int id;
    NavbotStatus st = navbot_session_add_bot(s->s, &d, &id);
    if (st == NAVBOT_E_BRAIN) {
        lua_pushinteger(L, id);
        lua_pushstring(L, navbot_session_error(s->s));
        return 2;
    }
    if (st != NAVBOT_OK) return luaL_error(L, "add_bot: %s", navbot_session_error(s->s));
    lua_pushinteger(L, id);
    return 1;
}

static int check_bot(lua_State *L, LSim *s, int arg)
{
    lua_Integer id = luaL_checkinteger(L, arg);
    if (id < 0 || id >= navbot_session_bot_count(s->s))
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "no bot %I (there are %d)", (LUAI_UACINT)id, navbot_session_bot_count(s->s)));
    return (int)id;
}

/* sim:control(id, {move = {dx, dy}, jump =, crouch =, use =}) */
static int lsim_control(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    int id = check_bot(L, s, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    static const char *const KEYS[] = { "move", "jump", "crouch", "use", NULL };
    navmod_check_keys(L, 3, KEYS, "controls");
    NavbotControls c = { 0 };
    lua_getfield(L, 3, "move");
    if (!lua_isnil(L, -1)) {
        float v[3];
        navmod_check_point_at(L, lua_gettop(L), 3, "move", NULL, 0, v);
        c.move[0] = v[0];
        c.move[1] = v[1];
    }
    lua_getfield(L, 3, "jump");
    c.jump = lua_toboolean(L, -1);
    lua_getfield(L, 3, "crouch");
    c.crouch = lua_toboolean(L, -1);
    lua_getfield(L, 3, "use");
    c.use = lua_toboolean(L, -1);
    if (navbot_session_set_controls(s->s, id, &c) != NAVBOT_OK)
        return luaL_error(L, "control: %s", navbot_session_error(s->s));
    return 0;
}

/* sim:add_goal(id, point [, radius]) */
static int lsim_add_goal(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    int id = check_bot(L, s, 2);
    float p[3];
    navmod_check_point(L, 3, "goal", s->map, 0, p);
    lua_Number r = luaL_optnumber(L, 4, 0.0);
    if (!isfinite(r) || r < 0) return luaL_argerror(L, 4, "radius: a number >= 0");
    if (navbot_session_add_goal(s->s, id, p, (float)r) != NAVBOT_OK)
        return luaL_error(L, "add_goal: %s", navbot_session_error(s->s));
    return 0;
}

/* Hand the brains' output of the last step to print (or stderr). */
static void flush_log(lua_State *L, LSim *s, int self)
{
    if (!s->log_len && !s->log_dropped) return;
    lua_getiuservalue(L, self, 2);
    bool fn = lua_isfunction(L, -1);
    size_t at = 0;
    /* Take the text out first: print may step this simulation again. */
    char *log = s->log;
    size_t len = s->log_len;
    bool dropped = s->log_dropped;
    s->log = NULL;
    s->log_len = s->log_cap = 0;
    s->log_dropped = false;
    while (at < len) {
        const char *line = log + at;
        at += strlen(line) + 1;
        if (fn) {
            lua_pushvalue(L, -1);
            lua_pushstring(L, line);
            if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
                nav_free(log);
                lua_error(L);
            }
        } else {
            fprintf(stderr, "%s\n", line);
        }
    }
    if (dropped && !fn) fprintf(stderr, "nav: brain output over %d bytes in one step was dropped\n", MOD_LOG_MAX);
    nav_free(log);
    lua_pop(L, 1);
}

static int lsim_step(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    if (n < 0 || n > 100000000) return luaL_argerror(L, 2, "ticks: 0 to 100000000");
    /* Step in slices so print output reaches the caller as it goes. */
    while (n > 0) {
        int k = n > 30 ? 30 : (int)n;
        navbot_session_step(s->s, k);
        n -= k;
        flush_log(L, s, 1);
        if (!s->s) break; /* closed from print */
    }
    lua_pushinteger(L, s->s ? (lua_Integer)navbot_session_tick(s->s) : 0);
    return 1;
}

static int lsim_tick(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)navbot_session_tick(navmod_check_sim(L, 1)->s));
    return 1;
}

static int lsim_time(lua_State *L)
{
    lua_pushnumber(L, navbot_session_time(navmod_check_sim(L, 1)->s));
    return 1;
}

static int lsim_hash(lua_State *L)
{
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)navbot_session_hash(navmod_check_sim(L, 1)->s));
    lua_pushstring(L, hex);
    return 1;
}

static void push_bot(lua_State *L, LSim *s, int id)
{
    NavbotBotState b;
    navbot_session_bot(s->s, id, &b);
    lua_createtable(L, 0, 20);
    lua_pushinteger(L, b.id), lua_setfield(L, -2, "id");
    lua_pushstring(L, navbot_world_class_name(s->map->w, b.cls)), lua_setfield(L, -2, "class");
    navmod_push_point(L, b.pos, 3), lua_setfield(L, -2, "pos");
    navmod_push_point(L, b.vel, 3), lua_setfield(L, -2, "velocity");
    lua_pushnumber(L, b.yaw), lua_setfield(L, -2, "yaw");
    lua_pushboolean(L, b.on_ground), lua_setfield(L, -2, "on_ground");
    lua_pushboolean(L, b.in_water), lua_setfield(L, -2, "in_water");
    lua_pushboolean(L, b.on_ladder), lua_setfield(L, -2, "on_ladder");
    lua_pushboolean(L, b.crouched), lua_setfield(L, -2, "crouched");
    lua_pushboolean(L, b.arrived), lua_setfield(L, -2, "arrived");
    lua_pushinteger(L, b.goals_reached), lua_setfield(L, -2, "goals_reached");
    lua_pushinteger(L, b.goals_left), lua_setfield(L, -2, "goals_left");
    if (b.arrival_time >= 0) lua_pushnumber(L, b.arrival_time), lua_setfield(L, -2, "arrival_time");
    lua_pushnumber(L, b.stuck_time), lua_setfield(L, -2, "stuck_time");
    lua_pushnumber(L, b.distance), lua_setfield(L, -2, "distance");
    lua_pushboolean(L, b.faulted), lua_setfield(L, -2, "faulted");
    if (b.error) lua_pushstring(L, b.error), lua_setfield(L, -2, "error");
    lua_pushstring(L, b.brain), lua_setfield(L, -2, "brain");
    lua_pushstring(L, b.state), lua_setfield(L, -2, "state");
}

static int lsim_bot(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    push_bot(L, s, check_bot(L, s, 2));
    return 1;
}

static int lsim_bots(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    int n = navbot_session_bot_count(s->s);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_bot(L, s, i);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int lsim_png(lua_State *L)
{
    LSim *s = navmod_check_sim(L, 1);
    const char *path = luaL_checkstring(L, 2);
    lua_Integer width = luaL_optinteger(L, 3, 0);
    if (width != 0 && (width < 64 || width > 8192)) return luaL_argerror(L, 3, "width: 64 to 8192 pixels (0: 1280)");
    if (navbot_session_png(s->s, path, (int)width) != NAVBOT_OK)
        return luaL_error(L, "png: %s", navbot_session_error(s->s));
    return 0;
}

const luaL_Reg navmod_sim_methods[] = {
    { "add_bot", lsim_add_bot }, { "control", lsim_control }, { "add_goal", lsim_add_goal }, { "step", lsim_step },
    { "tick", lsim_tick },       { "time", lsim_time },       { "hash", lsim_hash },         { "bot", lsim_bot },
    { "bots", lsim_bots },       { "png", lsim_png },         { "close", navmod_sim_close }, { NULL, NULL },
};

/* }======= */

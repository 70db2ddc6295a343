/*
** nav_module_internal.h — what the files of nav.so share: the userdata
** types, the argument checks (nav_module_args.c) and the simulation class
** (nav_module_sim.c). Not installed; nav_module.c is the module's entry.
*/
#ifndef NAV_MODULE_INTERNAL_H
#define NAV_MODULE_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

#include "navbot.h"

#define MAP_MT "nav.Map"
#define SIM_MT "nav.Sim"
#define MOD_ROUTE_MAX 4096
#define MOD_GRID_MAX 8192
#define MOD_LOG_MAX (64 * 1024)

typedef struct LMap {
    NavbotWorld *w;
    int sims; /* live simulations on it */
} LMap;

typedef struct LSim {
    NavbotSession *s;
    LMap *map; /* kept alive by the simulation's user value */
    char *log; /* brain output of the step in progress */
    size_t log_len, log_cap;
    bool log_dropped;
} LSim;

/* Argument checks: each raises a Lua argument error naming what is wrong. */
LMap *navmod_check_map(lua_State *L, int i);
LSim *navmod_check_sim(lua_State *L, int i);
void navmod_check_point_at(lua_State *L, int idx, int arg, const char *what, LMap *m, int cls, float p[3]);
void navmod_check_point(lua_State *L, int arg, const char *what, LMap *m, int cls, float p[3]);
void navmod_push_point(lua_State *L, const float p[3], int n);
int navmod_check_class(lua_State *L, int arg, LMap *m);
uint32_t navmod_check_flags(lua_State *L, int arg);
void navmod_check_keys(lua_State *L, int arg, const char *const *known, const char *what);

/* The simulation class: map:sim{...} and the methods of what it returns. */
int navmod_sim_close(lua_State *L);
int navmod_sim_tostring(lua_State *L);
int navmod_map_sim(lua_State *L);
extern const luaL_Reg navmod_sim_methods[];

#endif

/*
** nav_api_internal.h — what the files of the `nav` module share: the
** argument checks, the bot userdata and the way each file adds its
** functions. nav_api.c holds the core (clock, bots, entities, routes
** from a bot); nav_api_goals.c a bot's goal queue; nav_api_area.c areas, links and routes between
** points; nav_api_costs.c per-query area costs; nav_api_draw.c debug
** drawing and facing; nav_api_event.c events; nav_api_show.c what a bot
** shows of its intent; nav_api_avoid.c avoidance; nav_api_grid.c and
** nav_api_claim.c the grid and the claims; nav_api_unit.c unit motion and
** formations; nav_api_place.c buildings (placement, spawn points,
** foundations, spawning bots); nav_api_memory.c navigation memories.
*/
#ifndef NAV_NAV_API_INTERNAL_H
#define NAV_NAV_API_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>

#include "script/nav_api.h"
#include "sim/sim_debug.h"

#define NAV_API_BOT_META "nav.Bot" /* the bot userdata's metatable */
#define NAV_API_SIM_KEY "nav.sim"  /* registry entry: the NavSim, light userdata */

/* The sim the module was opened for (a Lua error when none). */
NavSim *nav_api_sim(lua_State *L);
/* A point table {x, y, z} or {x=, y=, z=} at arg, z defaulting to 0. */
void nav_api_check_point(lua_State *L, int arg, float out[3]);
/* Push {x, y, z}. */
void nav_api_push_point(lua_State *L, const float p[3]);
float nav_api_check_finite(lua_State *L, int arg);
/* The bot at arg (a nav.Bot), and the sim when sim_out is not NULL. */
const NavBot *nav_api_check_bot(lua_State *L, int arg, NavSim **sim_out);
/* Travel flags: nil (NAV_TFL_DEFAULT), an integer, or a list of names. */
uint32_t nav_api_check_flags(lua_State *L, int arg);
/* Refuse a key of the table at index `at` that is not in names (NULL
** ended): a Lua error naming argument arg, "unknown NOUN 'key' (LIST)".
** A misspelt option would otherwise be silently ignored. */
void nav_api_check_keys(lua_State *L, int arg, int at, const char *const *names, const char *noun, const char *list);
/* An optional class name at arg: its index, or 0 (the map's first class). */
int nav_api_opt_class(lua_State *L, int arg, NavSim *sim);
/* The area of class cls's graph under p, or the nearest within radius
** (0: none); NAV_NO_AREA when none. *ag_out gets the graph. */
uint32_t nav_api_area_under(lua_State *L, NavSim *sim, int cls, const float p[3], float radius,
                            const NavAreaGraph **ag_out);
/* The area a bot stands in (the bank, not the liquid, at a water's edge). */
uint32_t nav_api_bot_area_under(lua_State *L, NavSim *sim, const NavBot *b, float radius, const NavAreaGraph **ag_out);
/* A hull trace the bot made while thinking, kept for the window. */
void nav_api_show_trace(NavSim *sim, const NavBot *b, const float start[3], const float d[3], const NavTrace *tr);

/* Push a list of route links (tables: id, type, from, to, start, finish,
** entity, crouch, width, time), as bot:route and nav.route give them. */
void nav_api_push_links(lua_State *L, const NavAreaGraph *ag, const uint32_t *links, int n);
/* The areas of a route from bot b to goal; false, with nil and why pushed
** (the caller returns 2), when either is on no area. */
bool nav_api_route_ends(lua_State *L, NavSim *sim, const NavBot *b, const float goal[3], uint32_t *from, uint32_t *to,
                        const NavAreaGraph **ag);
/* Push a route's table as bot:route gives it: time (seconds), count (links
** in the whole route), area, crouch, links (the first n). */
void nav_api_push_route(lua_State *L, const NavAreaGraph *ag, uint32_t from, double time, const uint32_t *links, int n,
                        int count);
/* Push one link's table. */
void nav_api_push_link(lua_State *L, const NavAreaGraph *ag, uint32_t link);

/* An area's table: id, center, cluster, portal, the kinds (ledge, liquid,
** lava, slime, crouch, ladder), water, zmin, zmax, mins, maxs, and with
** with_links its links out and neighbours (nav_api_area.c). */
void nav_api_push_area(lua_State *L, const NavAreaGraph *ag, uint32_t id, bool with_links);
/* The per-area cost multipliers the options table at arg asks for
** (`costs` by area kind, or a `cost` function), for class cls; NULL when
** it asks for none. The array is kept alive by a value left on the stack
** or by the function's cache (nav_api_costs.c). */
const float *nav_api_costs(lua_State *L, int arg, NavSim *sim, int cls);

/* The goal options of the opts table at arg -- goal ("point", "circle",
** "square", "inv_circle", "inv_square"), radius, width, height, angle --
** into a goal at (x, y) (nav_api_grid.c). Unknown keys are the caller's
** to refuse. */
struct GridGoal;
void nav_api_goal_options(lua_State *L, int arg, float x, float y, struct GridGoal *goal);

/* Add nav functions to the table at nav_index and bot methods (either may
** be NULL) to the nav.Bot metatable's __index. */
void nav_api_add(lua_State *L, int nav_index, const luaL_Reg *nav_fns, const luaL_Reg *bot_methods);

/* Each file's part, added by nav_api_open. */
void nav_api_show_register(lua_State *L, int nav_index);
void nav_api_avoid_register(lua_State *L, int nav_index);
void nav_api_unit_register(lua_State *L, int nav_index);
void nav_api_area_register(lua_State *L, int nav_index);
void nav_api_draw_register(lua_State *L, int nav_index);
void nav_api_event_register(lua_State *L, int nav_index);
void nav_api_place_register(lua_State *L, int nav_index);
void nav_api_memory_register(lua_State *L, int nav_index);
void nav_api_goals_register(lua_State *L, int nav_index);

#endif

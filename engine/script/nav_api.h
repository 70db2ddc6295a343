/*
** nav_api.h — the `nav` Lua module: a simulation seen from a bot's brain.
**
** Installed into a Lua state (a brain's sandbox) for one simulation; the
** state must not outlive it. Bots are userdata ("nav.Bot") holding only
** their id, so a script can keep them in tables freely. Every function
** checks its arguments and raises a Lua error naming the argument
** ("bad argument #2 to 'move' (number expected, got string)"), never
** crashes. docs/lua-api.md lists every function with an example.
**
**   nav.tick(), nav.time(), nav.dt()          the clock
**   nav.random([m [, n]])                     the world's seeded RNG
**   nav.bot(id), nav.bots()                   bots by id, all bots
**   nav.entity(name)                          {type, name, mins, maxs, ...} and state
**   nav.door(name, open [, locked])           open or shut a door
**   nav.add_obstacle(mins, maxs), nav.remove_obstacle(id)
**   nav.trace(mins, maxs, start, delta [, ignore_bot])   a hull trace
**   nav.sight(a, b)                           line of sight through the world
**   bot:id() bot:pos() bot:velocity() bot:yaw() bot:class() bot:state()
**   bot:move(dx, dy [, priority [, reason]])  the wished direction this tick
**   bot:jump() bot:crouch(on) bot:use() bot:climb_to(x, y, z | nil) bot:ladder_down(on)
**   bot:route(x, y, z [, flags])              the route as a list of links
**   bot:trace(dx, dy, dz)                     its own hull swept by a vector
**   nav.area(id | point), nav.area_at(point)  areas, their links and neighbours
**   nav.route(from, to [, opts]), nav.random_point(near, radius [, opts])
**                                             (nav_api_area.c; costs: nav_api_costs.c)
**   nav.draw.line/circle/text/clear, bot:look_at, bot:facing (nav_api_draw.c)
**   bot:on(event, fn)                         event handlers (nav_api_event.c)
**   nav.can_place{...}, nav.spawn_points{...}, nav.place_foundation{...},
**   nav.spawn{...}                            buildings and new bots (nav_api_place.c)
** Points are {x, y, z} tables or three numbers where noted. The files
** share nav_api_internal.h.
*/
#ifndef NAV_NAV_API_H
#define NAV_NAV_API_H

#include <lua.h>
#include <stdint.h>

#include "sim/sim.h"

/* Set the global `nav` (and package-style loaded entry) in L for sim. */
void nav_api_open(lua_State *L, NavSim *sim);
/* Seconds the brains of a state spent in path queries (routes, grid
** paths; grid_seconds is the grid queries' part of path_seconds), so a
** session can split a tick into Lua, paths and movement. */
typedef struct NavQueryClock {
    double path_seconds, grid_seconds;
} NavQueryClock;

/* Count L's query time into clock from now on (NULL: count nothing, the
** default). The clock must outlive L or be replaced. */
void nav_api_count_into(lua_State *L, NavQueryClock *clock);
/* For the nav module's files: add a query's seconds to L's clock, if any
** (a grid query counts as a path query too). */
void nav_api_count_path(lua_State *L, double seconds);
void nav_api_count_grid(lua_State *L, double seconds);

/* Push the userdata for bot id. */
void nav_api_push_bot(lua_State *L, uint32_t id);
/* Add the grid functions (nav.grid_path, nav.grid_passable,
** nav.grid_reachable, nav.grid_size; nav_api_grid.c) to the nav table at
** nav_table_index; nav_api_open calls it. */
void nav_api_grid_register(lua_State *L, int nav_table_index);
/* Add the claims (bot:claim, bot:release, nav.claims; nav_api_claim.c):
** chokepoints taken in turn. nav_api_open calls it. */
void nav_api_claim_register(lua_State *L, int nav_table_index);

/* nav.travel_types() and nav.area_flags() as plain C functions, for other
** Lua states that want the engine's names (the scenario runner's). */
int nav_api_travel_types(lua_State *L);
int nav_api_area_flags(lua_State *L);

#endif

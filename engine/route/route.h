/*
** route.h — routing over an area graph: travel times and next links to a
** goal area for a set of travel flags, from caches kept under a memory cap.
**
** THE COST MODEL
** A route is a chain of reachabilities. Its time is the sum, in hundredths
** of a second, of: the time from the start point to the first link's
** start; each link's own time; the time to cross every area on the way
** from the end of the link that entered it to the start of the link that
** leaves it (area_crossing_time); and, unless the flags allow flying
** (NAV_TFL_FLY), ROUTE_LEDGE_PENALTY on entering a ledge area. A route
** ends on entering the goal area. A link may be taken when its travel
** flags (its type and the target's contents) are all allowed and no
** obstacle disables it. A start or goal in an area that needs a contents
** flag (water, lava, slime) allows that flag for the query.
**
** Because crossing an area depends on the link that entered it, a route's
** state is the link it arrived by, not the area: cached times are exact,
** equal to route_dijkstra's (a plain Dijkstra over the same model), which
** the tests check. Quake III kept one time per area and charged every
** portal at its worst case.
**
** THE CACHES (route_cache.c)
**   overlay  per (cluster, flags): from each link entering the cluster
**            from a portal to each link leaving it for a portal, the
**            shortest time inside the cluster.
**   portal   per (goal, flags): for every link into a portal area, the time
**            to the goal; a Dijkstra over the overlays.
**   area     per (cluster, goal, flags): for every link into a member area
**            of the cluster, the time to the goal and the next link, inside
**            the cluster or out through a portal, whichever is faster.
** Portal and area caches are searches kept open: each runs only until the
** state a query asks about is final, and goes on when a later query needs
** more. A route's later steps, whose times only fall, are mostly answered
** already; a cold route pays for the part of the graph nearer the goal
** than its start. Among equally fast links the lowest-numbered is taken,
** so answers do not depend on the order of earlier queries (tested).
** One LRU list holds all three under the router's memory cap; the oldest
** are freed first and the cap is never passed. A query that cannot fit its
** caches under the cap is answered by a plain Dijkstra instead (counted
** in the statistics as a fallback), so answers never depend on the cap.
**
** STEP BY STEP
**   NavRouter *r = router_create(ag, NULL, &err);
**   NavRoute q;
**   router_route(r, start_area, start_point, goal_area, NAV_TFL_DEFAULT, &q);
**   ... q.time, q.next_reach ...
**   router_destroy(r);
**
** DOES NOT: own the area graph (it must outlive the router and not change:
** add or remove entity links before creating the router), or sample
** points to areas (area_point_area, area_nearest_area).
*/
#ifndef NAV_ROUTE_H
#define NAV_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "area/area.h"
#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flying movers skip the ledge penalty. */
#define NAV_TFL_FLY (1u << 20)
/* Every travel type and water: what a bot may do unless told otherwise
** (lava, slime and do-not-enter areas are left out). */
#define NAV_TFL_DEFAULT (NAV_TFL_ALL_TYPES | NAV_TFL_WATER)
/* Added on entering a ledge area unless NAV_TFL_FLY: 1 s. */
#define ROUTE_LEDGE_PENALTY 100u
/* A time no route takes: unreachable. */
#define ROUTE_UNREACHABLE UINT32_MAX

typedef struct NavRouterDesc {
    size_t cache_bytes; /* memory cap for caches; 0: 16 MiB */
} NavRouterDesc;

typedef struct NavRouterStats {
    size_t cache_bytes; /* in use by caches now */
    size_t cap_bytes;
    size_t fixed_bytes; /* the router's own tables and search state */
    uint32_t caches;    /* held now, all kinds */
    uint32_t area_caches, portal_caches, overlay_caches;
    uint64_t hits, misses, evictions;
    uint64_t fallbacks;      /* queries answered by Dijkstra for lack of room */
    uint32_t obstacles;      /* in place now */
    uint32_t disabled_links; /* links an obstacle disables now */
} NavRouterStats;

/* One query's answer. */
typedef struct NavRoute {
    uint32_t time;       /* hundredths of a second, ROUTE_UNREACHABLE if none */
    uint32_t next_reach; /* the first link to take; UINT32_MAX when already
                              ** in the goal area or unreachable */
} NavRoute;

typedef struct NavRouter NavRouter;

NavRouter *router_create(const NavAreaGraph *ag, const NavRouterDesc *desc, NavError *err);
void router_destroy(NavRouter *r);
const NavAreaGraph *router_graph(const NavRouter *r);

/* {======= queries ======= */

/* The fastest route from `point` in area `start` to area `goal`. The
** point should lie in the start area; NULL means the area's centre.
** Returns NAV_OK, or NAV_FAILURE|NAV_E_PARAM for an area out of range. */
NavStatus router_route(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                       NavRoute *out);

/* Having arrived in area reach->to by link `arrived`, the next link toward
** the goal (UINT32_MAX when arrived is in the goal, or no route) and the
** time left from the end of `arrived`. */
NavStatus router_next(NavRouter *r, uint32_t arrived, uint32_t goal, uint32_t flags, NavRoute *out);

/* The whole route as links, in order: writes at most cap link indices and
** sets *count to how many the route has (it may exceed cap), never more
** than area_reach_count: 0 when start is the goal (out->time 0) or there
** is no route (out->time ROUTE_UNREACHABLE). Returns NAV_OK, or
** NAV_FAILURE|NAV_E_PARAM for an area out of range (*count 0). out->time
** is the time to enter the goal area, as for router_route. */
NavStatus router_route_links(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                             uint32_t *links, int cap, int *count, NavRoute *out);

/* A link one query should shun: taking it costs `extra` hundredths more
** (ROUTE_UNREACHABLE: not at all). */
typedef struct RouteAvoid {
    uint32_t link;
    uint32_t extra;
} RouteAvoid;

/* router_route_links for one mover that found links it cannot take (a
** bot stuck at a ledge it cannot climb, a door that will not open): the
** same cost model plus each avoided link's extra time. Answered by a
** plain search in the router's search state, not from the caches (the
** caches are shared by every mover of the flags; these costs are one
** mover's). With no links to avoid it is router_route_links. out->time
** includes the extra time of avoided links taken. */
NavStatus router_route_links_avoiding(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                                      const RouteAvoid *avoid, int avoid_count, uint32_t *links, int cap, int *count,
                                      NavRoute *out);

/* {======= per-query area costs (route_costs.c) ======= */

/* A multiplier per area for one query: the time of crossing an area and of
** every link into it counts `area[a]` times (Unity's area costs, Garry's
** Mod's cost functors). >= 0; INFINITY (or anything above
** ROUTE_COST_MAX) means never enter it, except that the start and goal
** areas are always allowed (at 1 when forbidden). The route chosen is the
** cheapest under these costs; its reported time is still the real travel
** time (out->time), and *cost the weighted one, both in hundredths.
**
** Answers are cached per (goal, flags, multipliers): a backward search
** from the goal over every link, kept for the ROUTE_COSTED_MAX most
** recently used keys and dropped when an obstacle changes which links are
** usable. A key is the multipliers' content (compared in full, so two
** callers with equal costs share one cache), not where they live. */
#define ROUTE_COST_MAX 1000.0f

/* router_route_links under per-area costs (area_costs has area_count(ag)
** entries; NULL: plain router_route_links, *cost = out->time). Returns
** as router_route_links; -2 when out of memory for the cache. */
int router_route_links_costed(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                              const float *area_costs, uint32_t *links, int cap, NavRoute *out, uint32_t *cost);

/* }======= */

/* {======= looking ahead and around (route_query.c) ======= */

typedef enum RouteStop {
    ROUTE_STOP_GOAL = 0, /* reached the goal */
    ROUTE_STOP_NO_ROUTE,
    ROUTE_STOP_AREA_FLAGS, /* entered an area with any of the flags */
    ROUTE_STOP_CONTENTS,   /* entered an area of one of the contents */
    ROUTE_STOP_TRAVEL,     /* about to take a link of one of the types */
    ROUTE_STOP_HOPS,
    ROUTE_STOP_TIME,
} RouteStop;

typedef struct RoutePredict {
    uint32_t area_flags;   /* NAV_AREA_* that stop it on entering */
    uint32_t contents;     /* bit (1 << NavContents) per contents that stops it */
    uint32_t travel_types; /* NAV_TFL_TYPE(t) per link type that stops it */
    uint32_t max_hops;     /* 0: no limit */
    uint32_t max_time;     /* hundredths; 0: no limit */
} RoutePredict;

typedef struct RoutePrediction {
    RouteStop stop;
    uint32_t area;  /* where it stopped: the area entered last */
    uint32_t reach; /* the link that stopped it (or the last taken), UINT32_MAX if none */
    uint32_t hops;  /* links taken */
    uint32_t time;  /* hundredths from the start to where it stopped */
    float point[3]; /* the last link's end (the start point if none) */
} RoutePrediction;

/* Walk the route from a point toward the goal until one of `stop`'s
** conditions holds ("is there a door, lava or a jump ahead?"). */
NavStatus router_predict(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                         const RoutePredict *stop, RoutePrediction *out);

/* Does the caller want area a? */
typedef bool (*RouteAccept)(void *user, const NavAreaGraph *ag, uint32_t area);

/* The area nearest in travel time that `accept` wants, searching up to
** max_time hundredths (0: no limit); *area is NAV_NO_AREA if none. The
** start area itself counts (time 0). out gets the time and first link. */
NavStatus router_nearest_goal(NavRouter *r, uint32_t start, const float point[3], uint32_t flags, uint32_t max_time,
                              RouteAccept accept, void *user, uint32_t *area, NavRoute *out);

/* The nearest area in travel time where a mover of the class, standing
** at its centre, cannot be seen from `enemy` (an eye point): a real line
** of sight through the world's columns (world_line_of_sight). The search
** never passes within `keep_away` metres of the enemy and pays 1 s per
** metre it moves closer to him. *area is NAV_NO_AREA if none within
** max_time hundredths. */
NavStatus router_hide(NavRouter *r, uint32_t start, const float point[3], const float enemy[3], float keep_away,
                      uint32_t flags, uint32_t max_time, uint32_t *area, NavRoute *out);

/* The areas a mover reaches from `point` in `start` without leaving a
** circle (an area counts when its footprint meets the circle, and the
** search goes on only through such areas, as Detour's random point
** search does): the start first, then in search order, each once.
** Returns how many (at most cap written), 0 when the start's own area is
** outside the circle, -1 for a bad start. A search over the areas near
** the circle, not the whole graph. */
int router_areas_within(NavRouter *r, uint32_t start, const float point[3], uint32_t flags, const float centre[2],
                        float radius, uint32_t *out, int cap);

typedef struct RouteAlternative {
    uint32_t area;  /* a goal to route through */
    uint32_t extra; /* hundredths longer than the fastest route */
} RouteAlternative;

/* Other ways to the goal, so that bots do not all take one corridor:
** areas off the fastest route, neither near its start nor near its goal
** (each leg at least a fifth of the fastest time), whose detour (start to
** entering the area, then the area's centre to the goal) costs at most
** `slack` times the fastest route; grouped into patches joined by links,
** each given by its area nearest the middle of the detour, `extra` being
** that detour less the fastest time. Sorted by extra; returns how many
** (at most cap written). A setup query: it searches the whole graph. */
int router_alternatives(NavRouter *r, uint32_t start, uint32_t goal, uint32_t flags, float slack, RouteAlternative *out,
                        int cap);

/* }======= */

/* {======= obstacles ======= */

/* Disable the links into the areas a box overlaps and the links whose path
** crosses it; counted, so overlapping obstacles compose. Returns an id for
** router_remove_obstacle, or 0 when out of memory. Only the caches that can
** depend on the changed links are dropped. */
uint32_t router_add_obstacle(NavRouter *r, const float mins[3], const float maxs[3]);
/* Undo one obstacle; false if there is no such id. */
bool router_remove_obstacle(NavRouter *r, uint32_t id);

/* }======= */

/* The NAV_TFL_* bits a name stands for: a travel type ("walk", "ladder",
** ...), "water", "lava", "slime", "donotenter", "fly", or "default"
** (NAV_TFL_DEFAULT); 0 when it is none. */
uint32_t route_flag_of_name(const char *name);
/* The i-th of the words besides the travel types (water ... fly), NULL
** past the last; *bits gets its flags. */
const char *route_flag_word(int i, uint32_t *bits);

void router_stats(const NavRouter *r, NavRouterStats *out);
/* Build the overlays of every cluster for one flag set now (at map load,
** for the flag sets bots use) instead of on the first queries that cross
** each cluster. They depend on the flags and obstacles, not on goals, and
** are freed last under the cap. False when they do not all fit the cap;
** the queries are right either way. */
bool router_prepare(NavRouter *r, uint32_t flags);
/* Drop the caches (for cold measurements): every one, or with
** keep_overlays the per-goal ones only (overlays depend on the flags and
** the obstacles, not on goals). */
void router_flush(NavRouter *r, bool keep_overlays);

/* {======= the oracle ======= */

/* The same query answered by a plain Dijkstra over the link graph with the
** same cost model and no caches, in the router's reusable search state. */
NavStatus route_dijkstra(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                         NavRoute *out);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

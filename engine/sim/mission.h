/*
** mission.h — random missions for measuring bots: a start and a goal on
** floors the router says are connected for a class, both places a body of
** the class stands free, with the router's optimum travel time between
** them. What `navbot bench competence` sends its bots on.
**
** Points are drawn uniformly over the class's dry ground: an area is
** picked with odds by its size in cells, then a point inside it, moved to
** the nearest point of a lattice (MissionDesc.quantum, a power-of-two
** fraction of a metre, so coordinates print exactly and a printed mission
** replays bit for bit). A point is kept when
**   - its floor is dry ground (no water, ladder or crouch-only area),
**   - it keeps a body's radius clear of every elevator shaft, teleporter
**     trigger, jump pad, door and crate (a bot set down there would be
**     carried off or walled in before its run began),
**   - a body of the class stands there overlapping nothing
**     (sim_place_free finds the point itself free, not a spot near it),
**   - and it keeps clear of the points in `taken` (a crowd's starts).
** A mission also needs its start and goal `min_distance` apart in a
** straight line, and a finite route time for `flags`.
**
** The optimum (mission_route_time) is the router's cost model to the goal
** point: the route's time to enter the goal area, plus the time to cross
** the goal area from where the last link ends to the goal itself
** (area_time_between); inside one area, just that crossing.
**
** STEP BY STEP
**   MissionPicker *p = mission_picker_create(sim, &(MissionDesc){ .cls = 0 }, &err);
**   uint64_t rng = seed;
**   NavMission m;
**   if (mission_pick(p, &rng, NULL, 0, &m)) ... m.start, m.goal, m.time ...
**   mission_picker_destroy(p);
**
** Deterministic: the same sim (world, obstacles, bots), description and
** generator state give the same missions. A pick draws until it finds one
** or gives up after MISSION_MAX_TRIES draws (false).
**
** DOES NOT: add bots, give them goals or run them; take bots already in the
** sim into account beyond sim_place_free (they are obstacles to it).
*/
#ifndef NAV_MISSION_H
#define NAV_MISSION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MISSION_MAX_TRIES 2000
#define MISSION_DEFAULT_MIN_DISTANCE 5.0f
#define MISSION_DEFAULT_QUANTUM 0.25f

/* Zero means default. */
typedef struct MissionDesc {
    int cls;            /* world class index */
    uint32_t flags;     /* travel flags the route may use; 0: NAV_TFL_DEFAULT */
    float min_distance; /* metres from start to goal in a straight line; 0: 5 */
    float quantum;      /* lattice of x and y, metres (1/2^k); 0: 0.25 */
} MissionDesc;

typedef struct NavMission {
    float start[3]; /* feet, on the floor (z is the floor's height) */
    float goal[3];
    uint32_t start_area, goal_area;
    uint32_t time; /* routed optimum, hundredths of a second */
} NavMission;

typedef struct MissionPicker MissionPicker;

/* Builds the class's area graph and router in sim (sim_router) and the
** table of ground areas to draw from. NULL with err set when the class
** does not exist, the graph cannot be built, or it has no dry ground. */
MissionPicker *mission_picker_create(NavSim *sim, const MissionDesc *desc, NavError *err);
void mission_picker_destroy(MissionPicker *p);

/* One free point on dry ground, clear of `taken` (n points, x y z each;
** NULL for none) by a body width. False after MISSION_MAX_TRIES draws. */
bool mission_pick_point(MissionPicker *p, uint64_t *rng, const float *taken, int n, float out[3], uint32_t *area);

/* A start and a goal (the start clear of `taken`). */
bool mission_pick(MissionPicker *p, uint64_t *rng, const float *taken, int n, NavMission *out);

/* A start for the given goal (clear of `taken`), as mission_pick would
** choose one; goal_area is the goal's area. */
bool mission_pick_start(MissionPicker *p, uint64_t *rng, const float goal[3], uint32_t goal_area, const float *taken,
                        int n, NavMission *out);

/* The routed optimum from start (in area sa) to goal (in area ga), in
** hundredths; ROUTE_UNREACHABLE when there is no route. */
uint32_t mission_route_time(MissionPicker *p, const float start[3], uint32_t sa, const float goal[3], uint32_t ga);

/* Does a body of the picker's class stand free at p exactly (the point
** itself, on a floor within a step, overlapping nothing in the sim)? */
bool mission_point_free(const MissionPicker *p, const float pt[3]);

/* The area a point stands in, for the picker's class (NAV_NO_AREA if none). */
uint32_t mission_point_area(const MissionPicker *p, const float pt[3]);

/* The class and flags the picker was made for. */
int mission_class(const MissionPicker *p);
uint32_t mission_flags(const MissionPicker *p);

#ifdef __cplusplus
}
#endif

#endif

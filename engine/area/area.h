/*
** area.h — the area graph of one passability class: convex areas grown
** from the world's floor cells, reachabilities of every travel type
** between them, clusters and portals, and sampling.
**
** An area is a rectangle of floor cells on one floor, all of one kind
** (ground, liquid, ladder, crouch-only), whose neighbouring cells differ by
** no more than the class's step: a mover of the class walks in a straight
** line between any two of its points. Cells too close to a wall for the
** class's radius belong to no area.
**
** A reachability leads from one area to another by one travel type, from
** a start point in the first to an end point in the second, in a travel
** time in hundredths of a second computed from the class's physics
** (area_reach.c documents each formula). Counts and times are 32-bit:
** Quake III's 256 links per area and 16-bit times are gone.
**
** STEP BY STEP
**   NavAreaGraph *ag = area_build(world, class_index, NULL, &err);
**   ... area_point_area / area_reach ...
**   area_destroy(ag);
**
** DOES NOT: route (the routing caches sit on top), or own the world: the
** world must outlive the graph.
*/
#ifndef NAV_AREA_H
#define NAV_AREA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum NavTravelType {
    NAV_TRAVEL_WALK = 0,
    NAV_TRAVEL_CROUCH,
    NAV_TRAVEL_BARRIER_JUMP,
    NAV_TRAVEL_WALK_OFF_LEDGE,
    NAV_TRAVEL_JUMP,
    NAV_TRAVEL_CLIMB,
    NAV_TRAVEL_LADDER,
    NAV_TRAVEL_SWIM,
    NAV_TRAVEL_WATER_JUMP,
    NAV_TRAVEL_TELEPORT,
    NAV_TRAVEL_ELEVATOR,
    NAV_TRAVEL_JUMP_PAD,
    NAV_TRAVEL_COUNT
} NavTravelType;

/* Travel flags: one bit per travel type, then the contents a route enters. */
#define NAV_TFL_TYPE(t) (1u << (t))
#define NAV_TFL_WATER (1u << 16)
#define NAV_TFL_LAVA (1u << 17)
#define NAV_TFL_SLIME (1u << 18)
#define NAV_TFL_DONOTENTER (1u << 19)
#define NAV_TFL_ALL_TYPES ((1u << NAV_TRAVEL_COUNT) - 1u)

/* NavArea.flags */
#define NAV_AREA_GROUND 0x001u /* a floor to stand on */
#define NAV_AREA_LEDGE 0x002u  /* borders a drop deeper than the step */
#define NAV_AREA_LIQUID 0x004u
#define NAV_AREA_LAVA 0x008u
#define NAV_AREA_SLIME 0x010u
#define NAV_AREA_CROUCH 0x020u /* headroom only for a crouched mover */
#define NAV_AREA_LADDER 0x040u
#define NAV_AREA_PORTAL 0x080u          /* a cluster portal */
#define NAV_AREA_DESIGNER_PORTAL 0x100u /* made of cells the map marks as portal */
#define NAV_AREA_CUT 0x200u             /* on a line cut through open ground to bound cluster size */

typedef struct NavArea {
    int32_t x0, y0, x1, y1; /* cells, inclusive */
    float zmin, zmax;       /* floor heights (liquids: the surface) */
    float center[3];        /* the point to move toward, on the floor */
    uint32_t flags;         /* NAV_AREA_* */
    uint32_t travel_flags;  /* NAV_TFL_* a route needs to enter it */
    uint16_t layer;         /* authored layer of its floors */
    uint8_t contents;       /* NavContents */
    uint8_t reserved;
    uint32_t cluster;                  /* 1-based cluster; 0 for a portal */
    int32_t portal;                    /* portal index, -1 if none */
    uint32_t first_reach, reach_count; /* outgoing: reaches[first .. first + count) */
} NavArea;

typedef struct NavReach {
    uint32_t from, to;      /* areas */
    uint32_t type;          /* NavTravelType */
    uint32_t travel_flags;  /* NAV_TFL_TYPE(type) | contents of the target */
    float start[3], end[3]; /* where the move begins and lands */
    float edge[2][3];       /* the crossed edge (both ends equal when none) */
    uint32_t time;          /* hundredths of a second */
    int32_t entity;         /* entity it comes from, -1 for terrain */
} NavReach;

/* An opening between two areas that the class's body does not fit
** through: a doorway, a gap between blocks, a hatch round a ladder, or the
** space beside a step or a ledge, narrower than the body (2 x radius),
** where the two areas have no link. */
typedef struct NavNarrow {
    uint32_t from, to; /* the areas it would join (from < to) */
    uint32_t type;     /* NavTravelType the link would have had */
    float point[3];    /* the middle of the opening, on the higher floor */
    float width;       /* its free width, metres (< 2 x radius when too narrow) */
} NavNarrow;

typedef struct NavPortal {
    uint32_t area;
    uint32_t front, back; /* the two clusters it separates */
} NavPortal;

typedef struct NavCluster {
    uint32_t area_count; /* areas in the cluster (portals excluded) */
    uint32_t portal_count;
    uint32_t first_portal; /* into area_cluster_portals() */
} NavCluster;

/* Zero means default. */
typedef struct NavAreaDesc {
    int max_area_side;     /* cells; default 32 */
    int max_cluster_areas; /* default 256 */
} NavAreaDesc;

typedef struct NavAreaStats {
    uint32_t areas, reaches, clusters, portals;
    uint32_t reaches_by_type[NAV_TRAVEL_COUNT];
    size_t bytes;
    double compile_ms;
    /* where compiling spent its time: areas, reachabilities, clusters and
    ** portals, crossing-time tables */
    double areas_ms, reaches_ms, clusters_ms, travel_ms;
    uint32_t cluster_rounds;  /* compile passes the cluster cuts took */
    uint32_t largest_cluster; /* areas in the largest cluster */
} NavAreaStats;

typedef struct NavAreaGraph NavAreaGraph;

/* {======= building ======= */

/* The whole graph a mover of class `cls` routes on: area_compile, then
** area_add_entities. NULL with err set on failure (nothing to free). */
NavAreaGraph *area_build(const NavWorld *world, int cls, const NavAreaDesc *desc, NavError *err);

/* The static graph alone: areas and the links the cells give, without the
** links of elevators, teleporters and jump pads (area_add_entities). */
NavAreaGraph *area_compile(const NavWorld *world, int cls, const NavAreaDesc *desc, NavError *err);
void area_destroy(NavAreaGraph *ag);

/* Add the reachabilities of the world's elevators, teleporters and jump
** pads, as entity links layered on the static graph. Idempotent. */
NavStatus area_add_entities(NavAreaGraph *ag, NavError *err);
/* Remove exactly what area_add_entities added. NAV_E_NOMEM when the
** static graph's tables cannot be rebuilt: the graph is then only fit
** for area_destroy. */
NavStatus area_remove_entities(NavAreaGraph *ag);

/* }======= */

/* {======= compiled files ======= */

/* The graph as bytes (a new buffer, nav_free() it) or written to path
** (atomically: a temporary file renamed). */
NavStatus area_save_buffer(const NavAreaGraph *ag, uint8_t **data, size_t *len, NavError *err);
NavStatus area_save(const NavAreaGraph *ag, const char *path, NavError *err);
/* Load a compiled graph for class cls of world. Refused with a clear
** error (never a crash) when the file is not one, is truncated or corrupt,
** or is stale: compiled from another version of the map or class values
** (the message starts "stale:" then). */
NavAreaGraph *area_load_buffer(const NavWorld *world, int cls, const uint8_t *data, size_t len, const char *name,
                               NavError *err);
NavAreaGraph *area_load(const NavWorld *world, int cls, const char *path, NavError *err);
/* Same areas, links, floors, clusters and portals. */
bool area_graph_equal(const NavAreaGraph *a, const NavAreaGraph *b);

/* }======= */

/* {======= reading ======= */

const NavWorld *area_world(const NavAreaGraph *ag);
const NavClass *area_class(const NavAreaGraph *ag);
uint32_t area_count(const NavAreaGraph *ag);
const NavArea *area_get(const NavAreaGraph *ag, uint32_t i);
uint32_t area_reach_count(const NavAreaGraph *ag);
const NavReach *area_reach(const NavAreaGraph *ag, uint32_t i);
uint32_t area_cluster_count(const NavAreaGraph *ag);
const NavCluster *area_cluster(const NavAreaGraph *ag, uint32_t i); /* 1-based */
uint32_t area_portal_count(const NavAreaGraph *ag);
const NavPortal *area_portal(const NavAreaGraph *ag, uint32_t i);
const uint32_t *area_cluster_portals(const NavAreaGraph *ag); /* portal indices, grouped by cluster */
/* Openings between areas too narrow for the body (NavNarrow), ordered by
** area; kept in compiled files. */
uint32_t area_narrow_count(const NavAreaGraph *ag);
const NavNarrow *area_narrow(const NavAreaGraph *ag, uint32_t i);
void area_stats(const NavAreaGraph *ag, NavAreaStats *out);

const char *area_travel_name(NavTravelType t);
/* The kinds of area a bot can ask about by name ("ledge", "liquid",
** "lava", "slime", "crouch", "ladder"): the i-th name, NULL past the last,
** *flag its NAV_AREA_* bit; and the bit of a name, 0 for none. The one
** table of these names (Lua gets it from nav.area_flags()). */
const char *area_kind_name(int i, uint32_t *flag);
uint32_t area_kind_flag(const char *name);
int area_travel_from_name(const char *name);

/* Links into area a: their indices, *count of them. */
const uint32_t *area_incoming(const NavAreaGraph *ag, uint32_t a, uint32_t *count);
/* Time to cross area a from the end of its in-th incoming link to the
** start of its out-th outgoing link, hundredths of a second: the straight
** distance (the area is convex) at the speed of the area's kind (run,
** crouch, swim, ladder), at least 1. */
uint32_t area_crossing_time(const NavAreaGraph *ag, uint32_t a, uint32_t in, uint32_t out);
/* Area a's whole table: row `in` holds the times to each outgoing link, so
** entry [in * reach_count + out]; NULL for an area out of range. */
const uint32_t *area_crossing_table(const NavAreaGraph *ag, uint32_t a);
/* The same between any two points of area a. */
uint32_t area_time_between(const NavAreaGraph *ag, uint32_t a, const float p[3], const float q[3]);

/* }======= */

/* {======= sampling ======= */

#define NAV_NO_AREA UINT32_MAX

/* Area of floor f (index within its column) of cell (cx, cy), O(1). */
uint32_t area_of_floor(const NavAreaGraph *ag, int cx, int cy, int f);
/* Area under a point standing at height z (a small tolerance above the
** floor is allowed), or NAV_NO_AREA. */
uint32_t area_point_area(const NavAreaGraph *ag, float x, float y, float z);
/* Nearest area with reachabilities to a point, searching a box of half
** size `radius` around it; writes the nearest point on that area's floor.
** NAV_NO_AREA when none is found. */
uint32_t area_nearest_area(const NavAreaGraph *ag, float x, float y, float z, float radius, float out[3]);
/* A point as a user gives it (a command's --from), placed in an area. */
typedef struct NavAreaPlace {
    float asked[3]; /* as given, z filled in when it was left out */
    float point[3]; /* on the floor of the area: under asked, or the nearest */
    uint32_t area;  /* NAV_NO_AREA: none within the radius */
    bool nearest;   /* not over an area: the nearest floor point of one */
} NavAreaPlace;
/* Places p: in the area under it, else the nearest within `radius`
** (area_nearest_area). Without z (has_z false) the point stands on the
** lowest floor of its cell that belongs to an area, else the cell's
** lowest floor, else at 0. */
void area_place_point(const NavAreaGraph *ag, const float p[3], bool has_z, float radius, NavAreaPlace *out);
/* Areas overlapping a box; returns how many there are (writes at most cap). */
int area_box_areas(const NavAreaGraph *ag, const float mins[3], const float maxs[3], uint32_t *out, int cap);

typedef struct NavAreaTraceHit {
    uint32_t area;
    float point[3]; /* where the trace entered it */
} NavAreaTraceHit;

/* Follow the floor from a point toward another (x, y only, on the start's
** floor, stepping as a walker would, following the floor's height cell by
** cell): the areas crossed in order with their entry points. Stops at the
** end, at a wall or drop, or on entering an area with any of stop_flags.
** Returns the count (at most cap written); *done is true when the end was
** reached. *end_z (may be NULL): the floor's height where it stopped. */
int area_trace(const NavAreaGraph *ag, const float from[3], const float to[3], uint32_t stop_flags,
               NavAreaTraceHit *out, int cap, bool *done, float *end_z);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

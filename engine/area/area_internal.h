/*
** area_internal.h — the NavAreaGraph layout, shared by the area modules.
*/
#ifndef NAV_AREA_INTERNAL_H
#define NAV_AREA_INTERNAL_H

#include "area/area.h"

/* How a floor cell can be used by the class: the kinds an area may not mix. */
typedef enum CellKind {
    KIND_NONE = 0,   /* not usable: wall too close, no headroom, void, clip */
    KIND_GROUND,
    KIND_CROUCH,     /* ground with headroom for a crouched mover only */
    KIND_WADE,       /* liquid shallow enough to walk */
    KIND_SWIM,       /* liquid to swim in */
    KIND_LAVA,
    KIND_SLIME,
    KIND_LADDER,
} CellKind;

struct NavAreaGraph {
    const NavWorld *world;
    NavClass cls;
    int cls_index;
    int w, h;
    float cs;
    NavAreaDesc desc;
    /* per world floor (world_column_first order) */
    uint32_t *floor_area;    /* area of the floor, NAV_NO_AREA if none */
    uint8_t *floor_kind;     /* CellKind */
    uint8_t *floor_portal;   /* designer portal mark */
    NavArea *areas;
    uint32_t area_count, area_cap;
    NavReach *reaches;       /* sorted by (from, then creation order) */
    uint32_t reach_count, reach_cap;
    uint32_t static_reaches; /* reaches from terrain; entity reaches come after in creation order */
    bool entities_added;
    /* incoming links per area (reach indices), and the time to cross the
    ** area from each incoming link's end to each outgoing link's start:
    ** area a's table is in_count x reach_count at times[time_first[a]] */
    uint32_t *rev_first;     /* area_count + 1 */
    uint32_t *rev;
    uint32_t *time_first;    /* area_count + 1 */
    uint32_t *times;
    NavPortal *portals;
    uint32_t portal_count;
    NavCluster *clusters;    /* index 0 unused */
    uint32_t cluster_count;
    uint32_t *cluster_portals;
    double compile_ms;
};

/* area_build.c */
NavStatus area_build_areas(NavAreaGraph *ag, NavError *err);
float area_standing_height(const NavFloor *f);

/* area_reach.c */
NavStatus area_build_reaches(NavAreaGraph *ag, NavError *err);
NavStatus area_push_reach(NavAreaGraph *ag, const NavReach *r);
/* Sort reaches by area and set each area's first_reach and reach_count. */
void area_index_reaches(NavAreaGraph *ag);

/* area.c */
NavStatus area_index_travel(NavAreaGraph *ag);

/* area_cluster.c */
NavStatus area_build_clusters(NavAreaGraph *ag, NavError *err);

#endif

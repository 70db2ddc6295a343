/*
** area_internal.h — the NavAreaGraph layout, shared by the area modules.
*/
#ifndef NAV_AREA_INTERNAL_H
#define NAV_AREA_INTERNAL_H

#include "area/area.h"

/* How a floor cell can be used by the class: the kinds an area may not mix. */
typedef enum CellKind {
    KIND_NONE = 0, /* not usable: wall too close, no headroom, void, clip */
    KIND_GROUND,
    KIND_CROUCH, /* ground with headroom for a crouched mover only */
    KIND_WADE,   /* liquid shallow enough to walk */
    KIND_SWIM,   /* liquid to swim in */
    KIND_LAVA,
    KIND_SLIME,
    KIND_LADDER,
} CellKind;

struct NavAreaGraph {
    const NavWorld *world;
    const NavFloor *floors; /* the world's floor store (world_floor_store) */
    const uint32_t *column_start;
    NavClass cls;
    int cls_index;
    int w, h;
    float cs;
    NavAreaDesc desc;
    /* per world floor (world_column_first order) */
    uint32_t *floor_area;  /* area of the floor, NAV_NO_AREA if none */
    uint8_t *floor_kind;   /* CellKind */
    uint8_t *floor_portal; /* designer portal mark */
    NavArea *areas;
    uint32_t area_count, area_cap;
    NavReach *reaches; /* sorted by (from, then creation order) */
    uint32_t reach_count, reach_cap;
    uint32_t static_reaches; /* reaches from terrain; entity reaches come after in creation order */
    bool entities_added;
    /* incoming links per area (reach indices), and the time to cross the
    ** area from each incoming link's end to each outgoing link's start:
    ** area a's table is in_count x reach_count at times[time_first[a]] */
    uint32_t *rev_first; /* area_count + 1 */
    uint32_t *rev;
    uint32_t *time_first; /* area_count + 1 */
    uint32_t *times;
    NavPortal *portals;
    uint32_t portal_count;
    NavCluster *clusters; /* index 0 unused */
    uint32_t cluster_count;
    uint32_t *cluster_portals;
    /* Cut lines through open ground (area_cut.c): a k-d tree over the
    ** cells, and per cell the zone of the line segment it lies on (0 for
    ** none; NULL until a cut is made). */
    struct AreaCutNode *cuts;
    uint32_t cut_count, cut_cap;
    uint32_t *cell_zone;
    /* Openings too narrow for the body between two areas with no link
    ** (area_reach.c), from < to. */
    NavNarrow *narrow;
    uint32_t narrow_count, narrow_cap;
    double compile_ms;
    double phase_ms[4]; /* areas, reaches, clusters, travel tables */
    uint32_t cluster_rounds;
};

/* The floors of column (x, y), which must be on the map; *first is the
** index of the first in per-floor arrays. */
static inline const NavFloor *area_column(const NavAreaGraph *ag, int x, int y, int *n, uint32_t *first)
{
    size_t c = (size_t)y * (size_t)ag->w + (size_t)x;
    *first = ag->column_start[c];
    *n = (int)(ag->column_start[c + 1] - *first);
    return ag->floors + *first;
}

static inline bool area_cell_valid(const NavAreaGraph *ag, int x, int y)
{
    return x >= 0 && y >= 0 && x < ag->w && y < ag->h;
}

/* Is column (x, y), which must be on the map, open over [lo, hi]: does
** some span hold the whole band? */
static inline bool area_column_open(const NavAreaGraph *ag, int x, int y, float lo, float hi)
{
    int n;
    uint32_t first;
    const NavFloor *f = area_column(ag, x, y, &n, &first);
    for (int i = 0; i < n; i++)
        if (f[i].z <= lo + 1e-4f && f[i].ceiling >= hi - 1e-4f) return true;
    return false;
}

/* area_build.c */
NavStatus area_build_areas(NavAreaGraph *ag, NavError *err);

/* area_reach.c */
NavStatus area_build_reaches(NavAreaGraph *ag, NavError *err);
NavStatus area_push_reach(NavAreaGraph *ag, const NavReach *r);
/* Sort reaches by area and set each area's first_reach and reach_count;
** NAV_E_NOMEM (nothing changed) when out of memory, never when the reaches
** are in order already. */
NavStatus area_index_reaches(NavAreaGraph *ag);

/* area.c */
NavStatus area_index_travel(NavAreaGraph *ag);

/* area_cluster.c */
NavStatus area_build_clusters(NavAreaGraph *ag, NavError *err);

/* area_cut.c */
static inline uint32_t area_cell_zone(const NavAreaGraph *ag, int x, int y)
{
    return ag->cell_zone ? ag->cell_zone[(size_t)y * (size_t)ag->w + (size_t)x] : 0;
}
/* Plan more cut lines through the clusters over the size limit, for the
** next compile pass; *added says whether any line was added. `pass` counts
** from 1 and makes each pass cut finer. */
NavStatus area_plan_cuts(NavAreaGraph *ag, int pass, bool *added, NavError *err);
void area_free_cuts(NavAreaGraph *ag);

#endif

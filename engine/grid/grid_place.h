/*
** grid_place.h — buildings on the navcell grid: may a footprint be built
** here (placement rules), and where do units appear round one (spawn
** points).
**
** A footprint is an oriented rectangle (GridShape). Placement judges the
** ground of the grid's world (the lowest floor of each column, as the
** grid does) and the grid's obstructions, which stand for the buildings
** already there:
**   - the footprint lies on the map, every corner at least `edge` metres
**     inside it;
**   - every navcell whose centre is under the footprint (or, for a
**     footprint too small to cover a centre, the cell under its centre)
**     has ground: no solid column, void, clip, lava or slime;
**   - the liquid over that ground is min_water to max_water deep (dry
**     ground is 0 deep: the default of 0 to 0 is dry land only);
**   - the steepest step from that cell to one of its four neighbours with
**     ground, as an angle over the cell size, is at most max_slope;
**   - that cell's centre is at least `shore` metres from every cell with
**     liquid (measured to the liquid cell's square);
**   - the footprint keeps `spacing` metres from every obstruction and
**     never overlaps one (touching is allowed when spacing is 0).
** The first rule broken is reported with where and by how much: map rules
** first, then the obstructions in the order they were added, then the
** cells row by row from the south-west, each cell's rules in the order
** above.
**
** Spawn points: spots round a footprint where units of a class may
** appear, each a square of half size radius + GRID_SPAWN_PAD, on rings
** round the footprint (the innermost touching it, each next one a body
** further out), on passable navcells for the class, overlapping neither
** each other, nor the footprint, nor the occupied squares given (units
** standing there). Nearest the rally point first within a ring (without
** one, nearest the footprint's front: its local -y side).
**
** DOES NOT: add or remove obstructions (grid.h), know about bots or
** bodies (sim/sim.h gathers the occupied squares and checks bodies), or
** look at floors above the lowest.
*/
#ifndef NAV_GRID_PLACE_H
#define NAV_GRID_PLACE_H

#include <stddef.h>

#include "grid/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRID_SPAWN_PAD 0.125f   /* metres added to a unit's radius for its spawn square */
#define GRID_SPAWN_RINGS 8      /* rings tried by default */
#define GRID_SPAWN_MAX_RINGS 64 /* rings at most */
#define GRID_PLACE_TEXT_MAX 160 /* a reason's text, with its terminating zero */

/* The rules of a building class. Every field is a limit in metres or
** degrees, finite and not negative. GRID_PLACE_RULES_DEFAULT: any slope,
** dry land only, no shore, spacing or edge distance. */
typedef struct GridPlaceRules {
    float max_slope; /* degrees, at most 90 (90: any) */
    float min_water; /* metres of liquid over the ground, at least */
    float max_water; /* ...and at most (>= min_water) */
    float shore;     /* metres from the nearest liquid cell */
    float spacing;   /* metres from every obstruction */
    float edge;      /* metres from the map's edge */
} GridPlaceRules;

#define GRID_PLACE_RULES_DEFAULT            \
    {                                       \
        90.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f \
    }

typedef enum GridPlaceReason {
    GRID_PLACE_OK = 0,
    GRID_PLACE_OFF_MAP,     /* a corner off the map */
    GRID_PLACE_EDGE,        /* a corner nearer the map's edge than `edge` */
    GRID_PLACE_OBSTRUCTION, /* overlaps an obstruction or is nearer than `spacing` */
    GRID_PLACE_BLOCKED,     /* a cell without ground to build on */
    GRID_PLACE_WATER,       /* liquid deeper than max_water */
    GRID_PLACE_DRY,         /* liquid shallower than min_water */
    GRID_PLACE_SLOPE,       /* steeper than max_slope */
    GRID_PLACE_SHORE,       /* nearer liquid than `shore` */
    GRID_PLACE_REASON_COUNT
} GridPlaceReason;

typedef struct GridPlaceResult {
    GridPlaceReason reason;
    float x, y;  /* where: a corner, a cell centre, or the footprint's point nearest the obstruction */
    float value; /* what was found: metres (distance, depth) or degrees (slope) */
    float limit; /* the rule's limit */
    GridObstructionId obstruction; /* GRID_PLACE_OBSTRUCTION: which... */
    bool overlap;                  /* ...and whether they overlap (value is then 0) */
    /* GRID_PLACE_BLOCKED: what the ground is (NAV_CONTENTS_COUNT: a solid
    ** column); GRID_PLACE_SHORE: the liquid's contents. */
    int contents;
} GridPlaceResult;

/* May the footprint be built on g's map under the rules? out->reason is
** GRID_PLACE_OK when so, else the first rule broken. NAV_E_PARAM (err
** naming the field) for a footprint or a rule that is not finite,
** negative, a slope over 90 or min_water over max_water. Allocates
** nothing. */
NavStatus grid_place_check(const NavGrid *g, const GridShape *footprint, const GridPlaceRules *rules,
                           GridPlaceResult *out, NavError *err);

/* NAV_E_PARAM, err naming `field`, unless the shape's values are finite,
** its half extents not negative and all of it within a few map sides of
** the origin (the bounds obstructions have). */
NavStatus grid_check_footprint(const NavGrid *g, const GridShape *footprint, const char *field, NavError *err);

/* The reason's name: "ok", "off_map", "edge", "obstruction", "blocked",
** "water", "dry", "slope", "shore". */
const char *grid_place_reason_name(GridPlaceReason reason);

/* A person's line for a result: "slope 34 deg at (12.5, 40.5) over the
** limit of 20". `other` names the obstruction ("obstacle 3"; NULL: its
** grid id). Returns buf. */
const char *grid_place_describe(const GridPlaceResult *r, const char *other, char *buf, size_t cap);

/* Is the navcell's centre under the footprint (the cells placement
** judges, less the one-cell rule for tiny footprints)? */
bool grid_place_covers(const NavGrid *g, const GridShape *footprint, int cx, int cy);

typedef struct GridSpawnDesc {
    int cls;    /* the units' class */
    bool rally; /* rally_x, rally_y given */
    float rally_x, rally_y;
    int rings;             /* 0: GRID_SPAWN_RINGS; at most GRID_SPAWN_MAX_RINGS */
    const float *occupied; /* x, y, half size per square units stand in */
    int occupied_count;
    /* Optional: a last say on a spot (a body fits there); false refuses it. */
    bool (*accept)(void *user, float x, float y);
    void *user;
} GridSpawnDesc;

/* Up to n spawn points round the footprint into out (x, y pairs), in the
** order units should take them. Returns how many (fewer when the rings
** are full), or -1 with err set for a bad class, footprint, rally point,
** ring count or occupied list (NAV_E_PARAM) or out of memory. Deterministic
** in its arguments. */
int grid_spawn_points(const NavGrid *g, const GridShape *footprint, const GridSpawnDesc *d, float *out, int n,
                      NavError *err);

#ifdef __cplusplus
}
#endif

#endif

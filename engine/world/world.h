/*
** world.h — the world: a grid of cell columns holding stacked floors,
** the entities placed in it and the passability classes that move in it.
**
** Coordinates: top-down, z up, x grows east, y grows north, metres. Cell
** (cx, cy) covers [cx*s, (cx+1)*s) x [cy*s, (cy+1)*s) where s is the cell
** size; cell (0, 0) is the south-west corner.
**
** A column is a list of floors ("spans") in ascending height. Each floor is
** the open space between a bottom surface at z and a ceiling; everything in
** the column that lies outside every span is solid. A column with no span is
** solid all the way up (a wall). A span whose contents are NAV_CONTENTS_VOID
** has no bottom: falling there leaves the world.
**
** STEP BY STEP
**   NavWorld *w = world_create(&(NavWorldDesc){ .width = 64, .height = 32 }, &err);
**   world_set_floors(w, items, count, &err);     (once, from a loader)
**   world_add_class / world_add_entity / world_add_layer
**   ... queries ...
**   world_destroy(w);
**
** DOES NOT: load files (see map/), build navigation data (see grid/, area/),
** or keep any global state: two worlds can live side by side.
*/
#ifndef NAV_WORLD_H
#define NAV_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "core/limits.h"
#include "world/entity.h"
#include "world/mover_class.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Defines ======= */

#define NAV_DEFAULT_CELL_SIZE 0.5f
#define NAV_DEFAULT_GRAVITY 20.0f
/* core/limits.h says why these sizes. */
#define NAV_MAX_WORLD_SIDE NAV_LIMIT_WORLD_SIDE
#define NAV_MAX_CELLS NAV_LIMIT_CELLS
#define NAV_MAX_LAYERS NAV_LIMIT_LAYERS
#define NAV_MAX_ENTITIES NAV_LIMIT_ENTITIES
#define NAV_NAME_MAX 32

/* }======= */

/* {======= Types ======= */

typedef enum NavContents {
    NAV_CONTENTS_FLOOR = 0, /* dry ground */
    NAV_CONTENTS_WATER,     /* liquid; top is the surface */
    NAV_CONTENTS_LAVA,      /* liquid that hurts */
    NAV_CONTENTS_SLIME,     /* liquid that hurts less */
    NAV_CONTENTS_LADDER,    /* ground with a ladder on one side, up to top */
    NAV_CONTENTS_CLIP,      /* no-walk: movers may not stand here */
    NAV_CONTENTS_VOID,      /* no bottom: a bottomless drop */
    NAV_CONTENTS_COUNT
} NavContents;

typedef enum NavDir { NAV_DIR_NORTH = 0, NAV_DIR_EAST, NAV_DIR_SOUTH, NAV_DIR_WEST } NavDir;

/* NavFloor.flags */
#define NAV_FLOOR_PORTAL 0x01u /* designer-marked cluster portal */
#define NAV_FLOOR_FACE_SHIFT 4 /* ladder: NavDir of the wall it leans on */
#define NAV_FLOOR_FACE_MASK 0x30u

typedef struct NavFloor {
    float z;          /* surface a mover stands on (liquids: the bed); -INFINITY for void */
    float ceiling;    /* lowest solid above; INFINITY for open sky */
    float top;        /* liquids: surface height; ladders: ladder top; else z */
    uint8_t contents; /* NavContents */
    uint8_t flags;    /* NAV_FLOOR_* */
    uint16_t layer;   /* index of the authored layer this floor came from */
} NavFloor;

/* A floor tagged with its cell, the loaders' input to world_set_floors. */
typedef struct NavFloorAt {
    uint32_t cell; /* cy * width + cx */
    NavFloor floor;
} NavFloorAt;

/* An authored storey, kept for display and statistics. */
typedef struct NavLayer {
    char name[NAV_NAME_MAX];
    float z;
} NavLayer;

/* Zero means default for every field. */
typedef struct NavWorldDesc {
    int width, height;  /* cells; required */
    float cell_size;    /* metres; default NAV_DEFAULT_CELL_SIZE */
    float gravity;      /* m/s^2; default NAV_DEFAULT_GRAVITY */
    const char *name;   /* default "untitled" */
    const char *source; /* file the world came from, for messages */
} NavWorldDesc;

typedef struct NavWorldStats {
    uint32_t floors_by_contents[NAV_CONTENTS_COUNT];
    uint32_t floors;        /* all spans */
    uint32_t solid_columns; /* columns with no span at all */
    uint32_t portal_floors; /* spans marked as cluster portals */
    uint32_t max_floors_in_column;
    uint32_t entities_by_type[NAV_ENTITY_TYPE_COUNT];
    float min_z, max_z; /* range of floor heights (voids excluded) */
} NavWorldStats;

typedef struct NavWorld NavWorld;

/* }======= */

/* {======= Functions ======= */

/* Create an empty world (every column solid). Returns NULL on a bad desc or
** out of memory, with err set. */
NavWorld *world_create(const NavWorldDesc *desc, NavError *err);
void world_destroy(NavWorld *w);

/* Replace all floors. items may be in any order; they are sorted by cell and
** height. Fails (world unchanged) if a cell is out of range, a floor has
** ceiling <= z, or two floors of a column overlap. */
NavStatus world_set_floors(NavWorld *w, const NavFloorAt *items, size_t count, NavError *err);

/* Append an authored layer (name may be NULL). */
NavStatus world_add_layer(NavWorld *w, const char *name, float z, NavError *err);

/* Add a class; its values are checked (class_validate) and its name must be
** new. Returns its index in *index (opt). */
NavStatus world_add_class(NavWorld *w, const NavClass *c, int *index, NavError *err);

/* Add an entity; it is checked against the world (entity_validate) and
** against the entities already there. Returns its index in *index (opt). */
NavStatus world_add_entity(NavWorld *w, const NavEntity *e, int *index, NavError *err);

/* NAV_E_NOMEM (the world unchanged) when out of memory for the copies. */
NavStatus world_set_metadata(NavWorld *w, const char *description, const char *author, NavError *err);
void world_set_source_hash(NavWorld *w, uint64_t hash);

/* Geometry */
int world_width(const NavWorld *w);
int world_height(const NavWorld *w);
float world_cell_size(const NavWorld *w);
float world_gravity(const NavWorld *w);
const char *world_name(const NavWorld *w);
const char *world_source(const NavWorld *w);
const char *world_description(const NavWorld *w);
const char *world_author(const NavWorld *w);
uint64_t world_source_hash(const NavWorld *w);

/* Cell of a point; false when outside the map. */
bool world_point_cell(const NavWorld *w, float x, float y, int *cx, int *cy);
/* Centre of a cell in metres. */
void world_cell_center(const NavWorld *w, int cx, int cy, float *x, float *y);
bool world_cell_valid(const NavWorld *w, int cx, int cy);

/* The floors of a column, lowest first. Out-of-range cells have none. */
const NavFloor *world_column(const NavWorld *w, int cx, int cy, int *count);
/* Index of the first floor of column (cx, cy) in the world's flat floor
** array (floors of a column are consecutive), and the total; data that
** keeps one value per floor indexes with these. */
uint32_t world_column_first(const NavWorld *w, int cx, int cy);
uint32_t world_floor_total(const NavWorld *w);
/* The whole floor store, for tight loops over many columns: column
** c = cy * width + cx holds floors[start[c] .. start[c + 1]). Valid until
** the world's floors change. */
const NavFloor *world_floor_store(const NavWorld *w, const uint32_t **column_start);

/* Can one see from a to b? True when the segment stays inside open space
** (some span of each column it crosses holds its part of the segment);
** the cells are walked exactly (a grid traversal, no sampling gaps). False
** when either end is off the map. */
bool world_line_of_sight(const NavWorld *w, const float a[3], const float b[3]);

/* The floor a point at height z is standing over: the highest floor of its
** column with floor.z <= z + tolerance and z < ceiling. NULL in solid or
** outside the map. */
const NavFloor *world_floor_at(const NavWorld *w, float x, float y, float z, float tolerance);

int world_layer_count(const NavWorld *w);
const NavLayer *world_layer(const NavWorld *w, int i);

int world_class_count(const NavWorld *w);
const NavClass *world_class(const NavWorld *w, int i);
/* Index of the class called name, or -1. */
int world_find_class(const NavWorld *w, const char *name);

int world_entity_count(const NavWorld *w);
const NavEntity *world_entity(const NavWorld *w, int i);
int world_find_entity(const NavWorld *w, const char *name);

void world_stats(const NavWorld *w, NavWorldStats *out);
/* Bytes held by the world. */
size_t world_memory(const NavWorld *w);

const char *world_contents_name(NavContents c);
const char *world_dir_name(NavDir d);
/* Where a mover stands on a floor: liquids at their surface (top), every
** other floor on its bottom (z). */
static inline float world_standing_height(const NavFloor *f)
{
    bool liquid =
        f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME;
    return liquid ? f->top : f->z;
}

static inline NavDir world_floor_face(const NavFloor *f)
{
    return (NavDir)((f->flags & NAV_FLOOR_FACE_MASK) >> NAV_FLOOR_FACE_SHIFT);
}

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAV_WORLD_H */

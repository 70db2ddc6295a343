/*
** grid.h — the navcell grid: one passability bit per class for every cell
** of a world's ground floor, with clearance, rasterized obstructions that
** come and go at run time, and the hierarchical connectivity that answers
** "is b reachable from a" in O(1).
**
** Navcells are the world's cells. Navcell (x, y) covers
** [x*s, (x+1)*s) x [y*s, (y+1)*s) metres, s the cell size; y grows north.
**
** Passability of a class, in three layers:
**   1. terrain: the lowest floor of the column, judged by the class's rules
**      (contents, liquid depth against wade depth and swimming, headroom
**      against height and crouch height, steps to the four neighbours
**      against the step height and the maximum slope);
**   2. clearance: a cell stays passable only if its centre is at least the
**      class's radius from every terrain-blocked cell and from the map's
**      edge. Round (Euclidean) clearance is the default: it is exact for
**      round movers, keeps corners rounded and leaves open the diagonal gaps
**      a square filter closes. GRID_CLEARANCE_SQUARE gives the square
**      (Chebyshev) filter 0 A.D. uses;
**   3. obstructions: oriented rectangles blocking every cell whose four
**      corners are all inside the shape or within the class's radius of it.
**      A thin shape is rasterized with a clearance of at least
**      (3 cells - its smaller side) / 2, so fences block at any angle.
**
** Changes touch only the dirty region: the obstruction's box grown by the
** largest clearance, then the chunks of the hierarchy under it.
**
** DOES NOT: search paths (grid_search.h), or look at floors above the
** lowest: stacked maps use the area graph.
*/
#ifndef NAV_GRID_H
#define NAV_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRID_MAX_CLASSES NAV_MAX_CLASSES
#define GRID_DEFAULT_CHUNK 16 /* hierarchy chunk side in cells; at most 16 (regions fit a byte) */

typedef enum GridClearance {
    GRID_CLEARANCE_ROUND = 0, /* default */
    GRID_CLEARANCE_SQUARE,
} GridClearance;

/* Zero means default. */
typedef struct NavGridDesc {
    GridClearance clearance;
    int chunk_size; /* 4 to 16 */
    /* Metres added to every class's radius for clearance (0 to 1). A body
    ** as wide as a gap fits it exactly on paper; one that moves by hull
    ** traces, which stop a hair short of what they hit, never gets in. */
    float clearance_margin;
    /* Metres (0 to 2; 0: none): each class gets a roomy twin, the same
    ** class kept this much further from what blocks it, for planners that
    ** prefer wide ways and fall back to the class itself
    ** (grid_roomy_class). Twins take class slots while there are some
    ** (GRID_MAX_CLASSES in all). */
    float roomy_margin;
} NavGridDesc;

/* An oriented rectangle in metres: centre, half extents along its own
** axes, rotation counter-clockwise in radians. */
typedef struct GridShape {
    float x, y;
    float hw, hh;
    float angle;
} GridShape;

/* A generation-checked handle: a stale id is refused, never reused. */
typedef struct GridObstructionId {
    uint32_t id;
} GridObstructionId;

typedef struct GridStats {
    int classes;
    int chunks;
    int obstructions;
    size_t bytes;           /* everything the grid holds */
    double build_ms;        /* last full build */
    uint64_t updates;       /* dirty-region updates applied */
    uint64_t cells_updated; /* cells recomputed by them */
} GridStats;

typedef struct NavGrid NavGrid;

/* {======= building ======= */

/* Build the grid and hierarchy for every class of the world. The world
** must outlive the grid. NULL with err set on failure. */
NavGrid *grid_create(const NavWorld *world, const NavGridDesc *desc, NavError *err);
void grid_destroy(NavGrid *g);

/* Rebuild everything from the world and the current obstructions. */
NavStatus grid_rebuild(NavGrid *g, NavError *err);

/* }======= */

/* {======= queries ======= */

int grid_width(const NavGrid *g);
int grid_height(const NavGrid *g);
float grid_cell_size(const NavGrid *g);
const NavWorld *grid_world(const NavGrid *g);
GridClearance grid_clearance_mode(const NavGrid *g);

/* The world's classes (roomy twins are not counted; their indices follow). */
int grid_class_count(const NavGrid *g);
const NavClass *grid_class(const NavGrid *g, int cls);
int grid_find_class(const NavGrid *g, const char *name);
/* The roomy twin of class cls (NavGridDesc.roomy_margin): a class index
** every query takes, or -1 when the grid has none for it. */
int grid_roomy_class(const NavGrid *g, int cls);

bool grid_in_bounds(const NavGrid *g, int x, int y);
/* Passable for class cls (out of bounds: false). */
bool grid_passable(const NavGrid *g, int cls, int x, int y);
/* Blocked by terrain alone, before clearance (out of bounds: true). */
bool grid_terrain_blocked(const NavGrid *g, int cls, int x, int y);

/* Cell of a point in metres; false outside the map. */
bool grid_cell_of(const NavGrid *g, float x, float y, int *cx, int *cy);
void grid_cell_center(const NavGrid *g, int cx, int cy, float *x, float *y);

void grid_stats(const NavGrid *g, GridStats *out);

/* Row-bit access for searches: bit b of word w of line l covers cell
** (w*64 + b - GRID_PAD) of that line; cells outside the map read as
** blocked. Rows run west to east; columns (the transposed grid) south to
** north. */
#define GRID_PAD 64
const uint64_t *grid_row_bits(const NavGrid *g, int cls, int y);
const uint64_t *grid_col_bits(const NavGrid *g, int cls, int x);

/* }======= */

/* {======= obstructions ======= */

/* Add an obstruction; it blocks cells for every class. A shape may lie
** partly or wholly off the map; values must be finite, half extents not
** negative, and everything within 4 map sides of the origin. */
NavStatus grid_add_obstruction(NavGrid *g, const GridShape *shape, GridObstructionId *out, NavError *err);
NavStatus grid_move_obstruction(NavGrid *g, GridObstructionId id, const GridShape *shape, NavError *err);
NavStatus grid_remove_obstruction(NavGrid *g, GridObstructionId id, NavError *err);
/* The shape of a live obstruction; false for a stale id. */
bool grid_obstruction_shape(const NavGrid *g, GridObstructionId id, GridShape *out);
int grid_obstruction_count(const NavGrid *g);

/* Would an obstruction block cell (x, y) for class cls? (The corner rule
** and the narrow-shape rule above; exposed for tests and tools.) */
bool grid_shape_blocks_cell(const NavGrid *g, int cls, const GridShape *shape, int x, int y);

/* }======= */

/* {======= hierarchy ======= */

/* Both cells passable and connected (8-connected under the no corner
** cutting rule, which connects exactly what 4-connectivity does). O(1). */
bool grid_reachable(const NavGrid *g, int cls, int ax, int ay, int bx, int by);

/* Connected-component id of a passable cell, or UINT32_MAX. */
uint32_t grid_component(const NavGrid *g, int cls, int x, int y);

/* Up to n feet positions (x, y, z triples into out) for bodies of class
** cls, spread over the largest connected part of the class's passable dry
** floor: a lattice a body and a quarter metre apart, each spot one where
** the body fits in world w (the grid's world), shuffled with `seed`.
** Returns how many (fewer when there is no more room; 0 when memory runs
** out). Deterministic in its arguments. */
uint32_t grid_spread_bodies(const NavGrid *g, const NavWorld *w, int cls, uint32_t n, uint64_t seed, float *out);

/* Nearest passable cell to (x, y) by Euclidean distance between centres
** (ties: lower y, then lower x). False if the class has no passable cell. */
bool grid_nearest_passable(const NavGrid *g, int cls, int x, int y, int *ox, int *oy);

/* Nearest cell to (tx, ty) that is passable and in component comp. */
bool grid_nearest_in_component(const NavGrid *g, int cls, uint32_t comp, int tx, int ty, int *ox, int *oy);

int grid_region_count(const NavGrid *g, int cls);
/* Region index of a cell (for drawing), or -1. */
int grid_region_of(const NavGrid *g, int cls, int x, int y);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

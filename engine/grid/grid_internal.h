/*
** grid_internal.h — the NavGrid layout, shared by grid.c (build,
** obstructions), grid_hier.c (regions and components) and grid_search.c.
** Not part of the public API.
*/
#ifndef NAV_GRID_INTERNAL_H
#define NAV_GRID_INTERNAL_H

#include "grid/grid.h"

/* Regions in a chunk of at most 16 x 16 cells: a 4-connected checkerboard
** has 128, so a byte holds a local id. */
#define GRID_MAX_CHUNK 16
#define GRID_REGIONS_PER_CHUNK 128
#define GRID_NO_REGION 0xFFu
#define GRID_BORDER_EDGES GRID_MAX_CHUNK
#define GRID_ADJ_PER_CHUNK (4 * GRID_BORDER_EDGES) /* fits adj_start's uint8_t */

typedef struct GridEdge {
    uint8_t a, b; /* local region here, local region in the neighbour chunk */
} GridEdge;

typedef struct GridClassData {
    NavClass cls;
    float radius; /* in cells */
    /* Clearance stamp: offsets whose cell, if blocked, blocks the centre. */
    int16_t *stamp; /* pairs dx, dy */
    int stamp_count;
    /* Passability bitsets, 1 = passable. rows: (h + 2) lines of row_words
    ** words, line y + 1 for row y; cols: (w + 2) lines of col_words words,
    ** the transposed grid. Cell x of a line is bit x + GRID_PAD. */
    uint64_t *rows;
    uint64_t *cols;
    /* Where straight scans stop, same layouts: 1 = the cell is blocked or
    ** has a forced neighbour for a scan in that direction. stop_e, stop_w
    ** (scans towards +x, -x) are row lines; stop_n, stop_s column lines.
    ** A scan then reads one word per 63 cells. */
    uint64_t *stop_e, *stop_w, *stop_n, *stop_s;
    /* Hierarchy. */
    uint8_t *region;       /* per cell: local region id in its chunk */
    uint8_t *region_count; /* per chunk */
    GridEdge *east;        /* per chunk: edges to the chunk east, GRID_BORDER_EDGES each */
    uint8_t *east_count;
    GridEdge *north; /* per chunk: edges to the chunk north */
    uint8_t *north_count;
    /* Per chunk: each region's neighbours across the four borders, as
    ** region slots (the edges above, gathered so a flood reads a list
    ** instead of scanning four edge lists per region): region r's are
    ** adj[ch * GRID_ADJ_PER_CHUNK + adj_start[slot] .. adj_start[slot + 1]),
    ** adj_start having GRID_REGIONS_PER_CHUNK + 1 entries per chunk. */
    uint32_t *adj;
    uint8_t *adj_start;
    uint32_t *comp; /* per chunk * GRID_REGIONS_PER_CHUNK: component id */
    /* Per chunk: a bit (id % 64) for each component id its regions hold,
    ** maybe more (never fewer): a rename skips the chunks without it. */
    uint64_t *comp_sig;
    uint32_t *uf;          /* union-find scratch, same size */
    uint32_t *region_base; /* per chunk: dense index of its first region */
    /* Incremental component update (grid_hier.c): per region slot a visit
    ** stamp, a group and the queue; per group union-find, pending count and
    ** the old component seen. */
    uint32_t *mark, *group, *queue;
    uint32_t *gparent, *gpending, *gold, *gnew;
    uint8_t *gmulti;
    uint32_t mark_gen;
    uint32_t next_comp; /* fresh component ids start past every slot */
    int regions;        /* total */
} GridClassData;

typedef struct GridObstruction {
    GridShape shape;
    uint32_t generation; /* odd while live */
    int next_free;
    int x0, y0, x1, y1; /* cells it can block (bbox grown by the largest clearance) */
} GridObstruction;

struct NavGrid {
    const NavWorld *world;
    int w, h;
    float cs;
    GridClearance mode;
    float margin; /* metres added to each radius (NavGridDesc.clearance_margin) */
    int chunk;
    int chunks_x, chunks_y;
    int row_words, col_words;
    int ncls;   /* classes built: the world's, then their roomy twins in order (as many as fit) */
    int nworld; /* the world's classes (the first nworld); world class c's twin is nworld + c */
    GridClassData cls[GRID_MAX_CLASSES];
    uint32_t *terrain_raw; /* per cell: bit c = terrain blocks class c (before clearance) */
    uint32_t *terrain;     /* per cell: bit c = blocked after clearance */
    uint32_t *blocked;     /* per cell: bit c = blocked (terrain or obstruction) */
    float max_reach;       /* largest obstruction clearance in cells, narrow rule included */
    GridObstruction *obs;
    int obs_count, obs_cap, obs_live, obs_free;
    GridStats stats;
};

static inline int grid_index(const NavGrid *g, int x, int y) { return y * g->w + x; }

static inline bool grid_bit(const uint64_t *line, int x)
{
    unsigned b = (unsigned)(x + GRID_PAD);
    return (line[b >> 6] >> (b & 63)) & 1u;
}

static inline const uint64_t *grid_row_line(const NavGrid *g, int cls, int y)
{
    return g->cls[cls].rows + (size_t)(y + 1) * (size_t)g->row_words;
}

static inline const uint64_t *grid_col_line(const NavGrid *g, int cls, int x)
{
    return g->cls[cls].cols + (size_t)(x + 1) * (size_t)g->col_words;
}

/* Fast passability, no bounds check beyond the padding (x in -64..w+63,
** y in -1..h). */
static inline bool grid_open(const NavGrid *g, int cls, int x, int y) { return grid_bit(grid_row_line(g, cls, y), x); }

/* The handle of the obstruction in slot (live or not): 12 bits of its
** generation over the slot + 1. */
static inline GridObstructionId grid_obstruction_handle(const NavGrid *g, int slot)
{
    return (GridObstructionId){ ((g->obs[slot].generation & 0xFFFu) << 20) | (uint32_t)(slot + 1) };
}

/* grid_hier.c */
NavStatus grid_hier_alloc(NavGrid *g, int cls);
void grid_hier_free(GridClassData *d);
/* Relabel the chunks covering cells [x0, x1] x [y0, y1], fix their border
** edges and recompute components. opened_only: the change only opened
** cells for the class (components can only have joined). */
void grid_hier_update(NavGrid *g, int cls, int x0, int y0, int x1, int y1, bool opened_only);
size_t grid_hier_memory(const NavGrid *g, int cls);

#endif

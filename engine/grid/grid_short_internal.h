/*
** grid_short_internal.h — the short-range search's state, shared by
** grid_short.c (segment tests, the search, drawing), grid_short_build.c
** (memory, unit squares, vertices and edges) and grid_short_reach.c (what
** the start might reach). Not part
** of the public API.
*/
#ifndef NAV_GRID_SHORT_INTERNAL_H
#define NAV_GRID_SHORT_INTERNAL_H

#include "grid/grid_internal.h"
#include "grid/grid_short.h"

#define NONE UINT32_MAX
#define ST_OPEN 1u
#define ST_CLOSED 2u
#define BK_MAX 64 /* bucket grid side, at most */

/* The goal in metres. */
typedef struct ShortGoal {
    GridGoalType type;
    double cx, cy, r, hw, hh, ux, uy;
} ShortGoal;

struct GridShortSearch {
    const NavGrid *g;
    /* the query */
    int cls;
    double cs, inv_cs, eps;
    double bx0, by0, bx1, by1; /* search square, cut to the map */
    int cx0, cy0, cx1, cy1;    /* cells it overlaps */
    ShortGoal goal;
    bool start_blocked;
    /* grown unit squares in the search square: x0, y0, x1, y1 each */
    double *sq;
    uint8_t *sq_start; /* holds the start: segments from inside may leave it */
    uint32_t *sq_stamp;
    uint32_t nsq, cap_sq;
    uint32_t stamp;
    /* bucket grid over the search square: squares listed in every bucket
    ** their box touches */
    double bk_size, bk_inv;
    int bk_w, bk_h;
    uint32_t bk_first[BK_MAX * BK_MAX + 1];
    uint32_t *bk_items;
    uint32_t cap_items;
    /* vertices: 0 the start, then corners; the goal node is index nv */
    double *vx, *vy, *g_cost, *h;
    int8_t *qx, *qy; /* direction from the vertex to its corner's obstacle (0: none) */
    uint8_t *kind, *state;
    uint32_t *parent, *heap_pos, *heap;
    uint32_t nv, cap_v, heap_size;
    /* lazy edges: g_cost and parent are a guess until `verified`; the best
    ** parent seen to be visible (g_seen, from_seen) among the first
    ** `checked` closed vertices (closed[], in closing order) */
    uint8_t *verified;
    double *g_seen;
    uint32_t *from_seen, *checked, *closed;
    uint32_t *blocker; /* per vertex: the square that last blocked a segment to it, or NONE */
    /* the reach raster (grid_short_reach.c): rows of reach_words words,
    ** cells of reach_r metres from (reach_x0, reach_y0) */
    bool reach_on;
    int reach_w, reach_h, reach_words;
    double reach_r, reach_inv, reach_x0, reach_y0;
    uint64_t *reach_free, *reach; /* 1 = free; 1 = reached */
    uint32_t cap_reach;
    uint32_t *span_first; /* per band: into spans */
    uint32_t *key_first;  /* per raster line (+ 2): a counting sort of the squares */
    uint32_t cap_lines;
    uint32_t *sq_order; /* squares by where they start along the bands (cap_sq) */
    uint32_t cap_order;
    double *spans; /* (a, b) intervals of the squares spanning a band */
    uint32_t cap_spans;
    uint32_t nclosed;
    uint32_t expanded, tests, edges;
    bool found;
};

static inline bool point_in_box(double x, double y, const double *b)
{
    return x > b[0] && x < b[2] && y > b[1] && y < b[3];
}

/* floor and ceil to int, for the cell and bucket arithmetic of the hot
** loops: a convert and a compare (the library's floor is a long sequence
** without SSE4.1). Clamped to +-1e9 first, inside int's range. */
static inline int short_ifloor(double v)
{
    v = v < -1e9 ? -1e9 : (v > 1e9 ? 1e9 : v);
    int i = (int)v;
    return i - (v < (double)i);
}

static inline int short_iceil(double v)
{
    v = v < -1e9 ? -1e9 : (v > 1e9 ? 1e9 : v);
    int i = (int)v;
    return i + (v > (double)i);
}

/* 64 bits of a bit line starting at cell `first` (bit i = cell first + i). */
static inline uint64_t short_bits64(const uint64_t *line, int first)
{
    unsigned b = (unsigned)(first + GRID_PAD);
    unsigned w = b >> 6, sh = b & 63u;
    return sh ? (line[w] >> sh) | (line[w + 1] << (64u - sh)) : line[w];
}

/* grid_short_build.c */
/* Room for n vertices (and the goal node), n squares, n bucket entries. */
bool short_reserve_vertices(GridShortSearch *s, uint32_t n);
bool short_reserve_squares(GridShortSearch *s, uint32_t n);
bool short_reserve_items(GridShortSearch *s, uint32_t n);
/* The grown squares that reach into the search square, and the buckets. */
bool short_build_squares(GridShortSearch *s, const GridShortQuery *q, double sx, double sy);
/* The corner vertices: of impassable cells, then of squares. */
bool short_cell_vertices(GridShortSearch *s);
bool short_square_vertices(GridShortSearch *s);
/* Static outline runs in the square (to v->edge when v is not NULL). */
uint32_t short_cell_edges(const GridShortSearch *s, const GridShortVisitor *v);

/* grid_short_reach.c */
/* Flood the raster of what the start might reach (after the squares). */
bool short_build_reach(GridShortSearch *s, double sx, double sy);
/* Might the start reach (x, y)? False only when it cannot. */
bool short_reachable(const GridShortSearch *s, double x, double y);

#endif

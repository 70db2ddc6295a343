/*
** grid_short.h — the short-range vertex pathfinder (points of visibility):
** an any-angle A* over obstruction corners inside a square around a unit,
** for when its next move is blocked by other units.
**
** The world it sees, all in metres:
**   - the search square: half side `range` around the start, cut to the
**     map. The search stays inside it;
**   - static edges: the outlines of the cells that are impassable for the
**     class. The grid's passability already holds the class's clearance
**     (a cell is passable when its centre is clear), so the unit is a point
**     against them. Edges are single-sided: they stop a move from a
**     passable cell into an impassable one, never the way out, so a unit a
**     little inside an impassable region can leave it (and moves freely
**     inside it until it is out);
**   - unit squares: the other units, axis-aligned squares (x, y, half
**     size), each grown by the moving unit's clearance and not quantised
**     to cells. Single-sided too: a segment starting inside a grown square
**     may leave it; one starting outside may not enter it.
** Vertices: the start; the convex corners of impassable cell regions
** (grid points with exactly one impassable cell of the four around them),
** set a hair diagonally outward (1/64 of a cell); the corners of the grown
** squares, a hair outward, unless inside another grown square that does
** not hold the start, or on an impassable cell while the start is not.
** Only vertices strictly inside the search square count. The goal vertex
** is the point of the goal shape nearest the vertex being expanded (so
** circles, squares and their inverted forms work as they do for
** grid_find_path), taken when the segment to it is clear.
**
** Search: A* on straight-line distance to the goal, with segments tested
** lazily: an expanded vertex offers every vertex it could improve on
** trust, and the segment is tested when that vertex comes off the open
** list; when it is blocked, the best visible parent among the closed
** vertices takes over (the same paths as testing every pair, far fewer
** tests). Segments are tested against the unit squares through a bucket
** grid over the search square (nearest squares first, so a blocked segment
** stops early) and against the cells by walking the cells the segment
** crosses (the same test as crossing the single-sided outline edges,
** without building them). When obstacles cover half the square or more, a
** raster flood from the start first leaves out corners it cannot reach (a
** unit walled in by others). Ties break on (f, h, vertex index): the same
** query gives the same path.
**
** Results: FOUND with the shortest path (in this visibility graph) to the
** goal; UNREACHABLE when no point of the goal can be reached inside the
** square: the path then ends at the reachable point nearest the goal (a
** vertex, or the goal's nearest point clamped to the square); PARTIAL when
** the vertex or time budget ran out: the path ends at the point nearest the
** goal seen so far.
**
** Memory: a GridShortSearch is made once per grid; its arrays grow to the
** largest query seen (geometrically) and are reused, so steady queries
** allocate nothing. Results go into the caller's buffer.
**
** STEP BY STEP
**   GridShortSearch *s = grid_short_create(grid, &err);
**   GridShortSquare units[] = { { 10.5f, 7.0f, 0.5f }, ... };
**   GridShortPoint buf[64];
**   GridShortPath path = { .points = buf, .cap = 64 };
**   grid_short_find_path(s, &(GridShortQuery){ .cls = 0, .sx = 8, .sy = 7,
**       .goal = grid_goal_point(14, 7), .range = 12, .squares = units,
**       .square_count = n, .clearance = 0.5f }, &path, &err);
**   ...
**   grid_short_destroy(s);
**
** DOES NOT: look past the search square (that is grid_find_path's job),
** move the unit, or know about bots: the caller lists the squares (the
** sim does it for bots: sim_grid_short_path).
*/
#ifndef NAV_GRID_SHORT_H
#define NAV_GRID_SHORT_H

#include "grid/grid.h"
#include "grid/grid_search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest range accepted (metres, half side of the search square) and the
** most unit squares a query takes: the search is quadratic in the
** vertices, so a wider one belongs to the long-range search. */
#define GRID_SHORT_MAX_RANGE 128.0f
#define GRID_SHORT_MAX_SQUARES 65536

/* Another unit: an axis-aligned square, centre and half side in metres. */
typedef struct GridShortSquare {
    float x, y;
    float half;
} GridShortSquare;

typedef struct GridShortQuery {
    int cls;                        /* class index: passability of the cells */
    float sx, sy;                   /* start, metres; on the map */
    GridGoal goal;                  /* any goal grid_search.h takes */
    float range;                    /* half side of the search square, metres (> 0) */
    const GridShortSquare *squares; /* the other units (may be NULL when square_count is 0) */
    int square_count;
    float clearance;       /* the moving unit's radius: each square grows by it */
    uint32_t max_expanded; /* vertex budget (vertices taken off the open list); 0 = none */
    uint32_t max_time_us;  /* time budget; 0 = none */
} GridShortQuery;

typedef struct GridShortPoint {
    float x, y;
} GridShortPoint;

/* GridShortPath.flags */
#define GRID_SHORT_FOUND 0x01u        /* the path ends in the goal */
#define GRID_SHORT_PARTIAL 0x02u      /* a budget stopped it: it ends at the point nearest the goal seen */
#define GRID_SHORT_UNREACHABLE 0x04u  /* no point of the goal is reachable in range: ends at the nearest point */
#define GRID_SHORT_START_INSIDE 0x08u /* the start was inside a grown unit square or on an impassable cell */
#define GRID_SHORT_TRUNCATED 0x20u    /* more waypoints than cap: points holds the first cap */

typedef struct GridShortPath {
    GridShortPoint *points; /* (in) caller's buffer, (out) start, turns, end */
    int cap;                /* (in) */
    int count;              /* (out) 1 when the start is in the goal already */
    double length;          /* (out) metres */
    double end_distance;    /* (out) metres from the path's end to the goal (0 when found) */
    uint32_t flags;         /* (out) GRID_SHORT_* */
    uint32_t vertices;      /* (out) vertices of the graph (the start included, the goal not) */
    uint32_t edges;         /* (out) static outline edges (maximal runs) in the square, plus 4 per unit square */
    uint32_t squares;       /* (out) unit squares that reach into the search square */
    uint32_t expanded;      /* (out) vertices taken off the open list */
    uint32_t tests;         /* (out) segment visibility tests */
} GridShortPath;

typedef struct GridShortSearch GridShortSearch;

GridShortSearch *grid_short_create(const NavGrid *g, NavError *err);
void grid_short_destroy(GridShortSearch *s);
size_t grid_short_memory(const GridShortSearch *s);

/* One query. NAV_OK (see path->flags; NAV_OK | NAV_PARTIAL when a budget
** stopped it), or a failure naming the bad field in err (may be NULL):
** class, start off the map, goal, range, squares[i], clearance; or out of
** memory. */
NavStatus grid_short_find_path(GridShortSearch *s, const GridShortQuery *q, GridShortPath *path, NavError *err);

/* Is the segment a -> b clear for class cls with these unit squares grown
** by clearance, under the search's rules (single-sided cell edges and
** squares)? Returns 0 when clear, else which kind blocks it. Tests every
** square (no search state needed): for movement checks and the tools. */
#define GRID_SHORT_BLOCK_CELLS 0x01u
#define GRID_SHORT_BLOCK_SQUARES 0x02u
uint32_t grid_short_segment_blocked(const NavGrid *g, int cls, float ax, float ay, float bx, float by,
                                    const GridShortSquare *squares, int square_count, float clearance);

/* {======= drawing: the last query's graph ======= */

typedef enum GridShortEdgeKind {
    GRID_SHORT_EDGE_CELLS = 0, /* a static outline run; the passable side is on the left of a -> b */
    GRID_SHORT_EDGE_SQUARE,    /* a side of a grown unit square, counter-clockwise */
    GRID_SHORT_EDGE_RANGE,     /* a side of the search square, counter-clockwise */
} GridShortEdgeKind;

typedef enum GridShortVertexKind {
    GRID_SHORT_VERTEX_START = 0,
    GRID_SHORT_VERTEX_CELLS,  /* a convex corner of impassable cells */
    GRID_SHORT_VERTEX_SQUARE, /* a corner of a grown unit square */
} GridShortVertexKind;

typedef struct GridShortVisitor {
    void (*edge)(void *user, float ax, float ay, float bx, float by, GridShortEdgeKind kind);
    /* expanded: taken off the open list; reached: given a cost */
    void (*vertex)(void *user, float x, float y, GridShortVertexKind kind, bool reached, bool expanded);
    void *user;
} GridShortVisitor;

/* Visit the last query's edges and vertices (either callback may be NULL).
** Cell edges are read from the grid again: call before the grid changes. */
void grid_short_visit(const GridShortSearch *s, const GridShortVisitor *v);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

/*
** grid_search.h — long-range paths on the navcell grid.
**
** Movement rule: 8-connected; a diagonal step needs both orthogonal
** neighbours passable; straight steps cost 1 cell, diagonal steps sqrt(2).
** The same rule as the Moving AI benchmarks, whose optimal lengths the
** tests reproduce.
**
** Searches: A* with jump point search (the default; block-based: straight
** scans read 64 cells per step from row bitsets and the transposed grid)
** and a textbook A* (binary heap, octile heuristic) kept as the baseline
** the benchmark compares against. Both break ties on (f, h, cell index), so
** the same query always gives the same path.
**
** Goals: a point (only its own cell), a circle, an oriented square, or the
** inverted circle and square (get out of a minimum range). A cell is in a
** shaped goal if any point of the cell is in the shape; in an inverted goal
** if any point of the cell is outside it. A goal with no reachable cell is
** replaced by the reachable cell nearest its centre and the result says so
** (GRID_PATH_GOAL_MOVED); a start on a blocked cell first steps straight out
** to the nearest passable cell (GRID_PATH_START_MOVED).
**
** Memory: a GridSearch holds per-cell search state for one grid, allocated
** once; queries allocate nothing. Results go into the caller's buffer.
**
** STEP BY STEP
**   GridSearch *s = grid_search_create(grid, &err);
**   GridWaypoint buf[1024];
**   GridPath path = { .points = buf, .cap = 1024 };
**   grid_find_path(s, &(GridQuery){ .cls = 0, .sx = 3, .sy = 4,
**                  .goal = grid_goal_point(10.5f, 7.5f) }, &path);
**   ...
**   grid_search_destroy(s);
** Time-sliced: grid_search_begin, then grid_search_step(s, budget) until it
** stops returning NAV_IN_PROGRESS, then grid_search_end(s, &path).
*/
#ifndef NAV_GRID_SEARCH_H
#define NAV_GRID_SEARCH_H

#include "grid/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum GridGoalType {
    GRID_GOAL_POINT = 0,
    GRID_GOAL_CIRCLE,
    GRID_GOAL_SQUARE,
    GRID_GOAL_INV_CIRCLE,
    GRID_GOAL_INV_SQUARE,
} GridGoalType;

/* In metres. Squares: half extents hw, hh along axes rotated by angle
** (radians, counter-clockwise). Circles: radius r. */
typedef struct GridGoal {
    GridGoalType type;
    float x, y;
    float r;
    float hw, hh, angle;
} GridGoal;

/* Goals (centres and sizes) are refused beyond this many metres. */
#define GRID_GOAL_MAX 1.0e6f
/* A goal the searches take: a known type, and the fields its type uses
** finite and within GRID_GOAL_MAX (sizes not negative). */
bool grid_goal_valid(const GridGoal *goal);

GridGoal grid_goal_point(float x, float y);
GridGoal grid_goal_circle(float x, float y, float r, bool inverted);
GridGoal grid_goal_square(float x, float y, float hw, float hh, float angle, bool inverted);
/* Is cell (cx, cy) in the goal? */
bool grid_goal_contains(const NavGrid *g, const GridGoal *goal, int cx, int cy);
const char *grid_goal_type_name(GridGoalType t);

typedef enum GridAlgorithm { GRID_JPS = 0, GRID_ASTAR } GridAlgorithm;

typedef struct GridQuery {
    int cls;    /* class index */
    int sx, sy; /* start cell */
    GridGoal goal;
    GridAlgorithm algorithm; /* default JPS */
    uint32_t max_nodes;      /* expansion budget for grid_find_path; 0 = none */
    uint32_t max_time_us;    /* time budget for grid_find_path; 0 = none */
} GridQuery;

typedef struct GridWaypoint {
    int x, y;
} GridWaypoint;

/* GridPath.flags */
#define GRID_PATH_FOUND 0x01u       /* the path ends in the goal */
#define GRID_PATH_PARTIAL 0x02u     /* a budget stopped it: it ends at the node nearest the goal */
#define GRID_PATH_GOAL_MOVED 0x04u  /* goal unreachable: the path ends at the reachable cell nearest it */
#define GRID_PATH_START_MOVED 0x08u /* the start was blocked: the first leg steps out of it */
#define GRID_PATH_NO_PATH 0x10u     /* the class has nowhere to go */
#define GRID_PATH_TRUNCATED 0x20u   /* more waypoints than cap: points holds the first cap */

typedef struct GridPath {
    GridWaypoint *points; /* (in) caller's buffer, (out) start, turns, end */
    int cap;              /* (in) */
    int count;            /* (out) */
    double length;        /* (out) in cells, under the movement rule */
    uint32_t flags;       /* (out) GRID_PATH_* */
    uint32_t expanded;    /* (out) nodes taken off the open list */
    uint32_t generated;   /* (out) nodes pushed or improved */
    uint32_t touched;     /* (out) cells whose state the search wrote */
} GridPath;

typedef struct GridSearch GridSearch;

GridSearch *grid_search_create(const NavGrid *g, NavError *err);
void grid_search_destroy(GridSearch *s);
size_t grid_search_memory(const GridSearch *s);

/* The cell a search for this goal will end in: a reachable cell in the
** goal nearest the start (true), or, when no cell of the goal is
** reachable, the reachable cell nearest the goal's centre (false). A
** blocked start is first moved to its nearest passable cell. *ok is false
** when the class has nowhere to go. */
bool grid_make_goal_reachable(const NavGrid *g, int cls, int sx, int sy, const GridGoal *goal, int *cx, int *cy,
                              bool *ok);

/* Whole search. Returns NAV_OK (see path->flags), NAV_OK|NAV_PARTIAL when
** a budget stopped it, or a failure for bad arguments. */
NavStatus grid_find_path(GridSearch *s, const GridQuery *q, GridPath *path);

/* Sliced search. */
NavStatus grid_search_begin(GridSearch *s, const GridQuery *q);
/* Expand up to max_nodes nodes: NAV_IN_PROGRESS while work is left. */
NavStatus grid_search_step(GridSearch *s, uint32_t max_nodes);
NavStatus grid_search_end(GridSearch *s, GridPath *path);

/* Cells the last search closed (state written), for drawing: visits each
** cell whose state belongs to the last search; closed says whether it was
** expanded or only generated. */
void grid_search_visit(const GridSearch *s, void (*fn)(void *user, int x, int y, bool closed), void *user);

/* Straight line of sight between cell centres under the movement rule: no
** blocked cell is touched and the line never squeezes between two
** diagonal blocked cells. */
bool grid_line_clear(const NavGrid *g, int cls, int ax, int ay, int bx, int by);

/* Any-angle smoothing: keep a waypoint only when the previous kept one
** cannot see the next. In place; returns the new count and its Euclidean
** length in *length (opt). */
int grid_smooth_path(const NavGrid *g, int cls, GridWaypoint *points, int count, double *length);

/* Octile length of a waypoint list (cells). */
double grid_path_length(const GridWaypoint *points, int count);

#ifdef __cplusplus
}
#endif

#endif

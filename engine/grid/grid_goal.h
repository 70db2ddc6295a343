/*
** grid_goal.h — goal shapes in cell units, for the searches (internal).
*/
#ifndef NAV_GRID_GOAL_H
#define NAV_GRID_GOAL_H

#include "grid/grid_search.h"

typedef struct GoalCells {
    GridGoalType type;
    int px, py; /* point goal cell */
    double cx, cy, r, hw, hh;
    double ux, uy;          /* square's x axis */
    int bx0, by0, bx1, by1; /* cells that can touch the shape */
} GoalCells;

void goal_prepare(GoalCells *gc, const GridGoal *goal, float cell_size);
bool goal_contains_cell(const GoalCells *gc, int x, int y);
bool goal_is_inverted(const GoalCells *gc);
/* Admissible and consistent: never more than the cost to the nearest goal
** cell under the movement rule. */
double goal_heuristic(const GoalCells *gc, int x, int y);
/* The run of cells on row (row = true) or column `line`, clipped to
** [lo_limit, hi_limit], that are in the goal (shaped goals) or wholly
** inside the shape (inverted goals). Empty when *lo > *hi. */
void goal_line_span(const GoalCells *gc, bool row, int line, int lo_limit, int hi_limit, int *lo, int *hi);

#endif

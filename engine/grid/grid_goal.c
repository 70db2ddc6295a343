/*
** grid_goal.c — goal shapes: which cells are in a goal, per-line spans
** for the searches' straight scans, and admissible heuristics.
*/
#include "grid/grid_goal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HALF_DIAGONAL 0.70710678118654752

GridGoal grid_goal_point(float x, float y) { return (GridGoal){ .type = GRID_GOAL_POINT, .x = x, .y = y }; }

GridGoal grid_goal_circle(float x, float y, float r, bool inverted)
{
    return (GridGoal){ .type = inverted ? GRID_GOAL_INV_CIRCLE : GRID_GOAL_CIRCLE, .x = x, .y = y, .r = r };
}

GridGoal grid_goal_square(float x, float y, float hw, float hh, float angle, bool inverted)
{
    return (GridGoal){
        .type = inverted ? GRID_GOAL_INV_SQUARE : GRID_GOAL_SQUARE, .x = x, .y = y, .hw = hw, .hh = hh, .angle = angle
    };
}

const char *grid_goal_type_name(GridGoalType t)
{
    switch (t) {
    case GRID_GOAL_POINT: return "point";
    case GRID_GOAL_CIRCLE: return "circle";
    case GRID_GOAL_SQUARE: return "square";
    case GRID_GOAL_INV_CIRCLE: return "inv-circle";
    case GRID_GOAL_INV_SQUARE: return "inv-square";
    }
    return "unknown";
}

/* Finite and within GRID_GOAL_MAX metres: cells are ints. */
static bool within(float v) { return isfinite(v) && fabsf(v) <= GRID_GOAL_MAX; }

bool grid_goal_valid(const GridGoal *goal)
{
    if (!within(goal->x) || !within(goal->y)) return false;
    switch (goal->type) {
    case GRID_GOAL_POINT: return true;
    case GRID_GOAL_CIRCLE:
    case GRID_GOAL_INV_CIRCLE: return within(goal->r) && goal->r >= 0.0f;
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE:
        return within(goal->hw) && within(goal->hh) && isfinite(goal->angle) && goal->hw >= 0.0f && goal->hh >= 0.0f;
    }
    return false;
}

void goal_prepare(GoalCells *gc, const GridGoal *goal, float cell_size)
{
    memset(gc, 0, sizeof *gc);
    gc->type = goal->type;
    gc->cx = (double)goal->x / cell_size;
    gc->cy = (double)goal->y / cell_size;
    gc->px = (int)floor(gc->cx);
    gc->py = (int)floor(gc->cy);
    gc->r = (double)goal->r / cell_size;
    gc->hw = (double)goal->hw / cell_size;
    gc->hh = (double)goal->hh / cell_size;
    gc->ux = cos((double)goal->angle);
    gc->uy = sin((double)goal->angle);
    double ex, ey;
    switch (gc->type) {
    case GRID_GOAL_CIRCLE:
    case GRID_GOAL_INV_CIRCLE: ex = ey = gc->r; break;
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE:
        ex = fabs(gc->ux) * gc->hw + fabs(gc->uy) * gc->hh;
        ey = fabs(gc->uy) * gc->hw + fabs(gc->ux) * gc->hh;
        break;
    default: ex = ey = 0.0; break;
    }
    /* Cells that can touch the shape. */
    gc->bx0 = (int)floor(gc->cx - ex) - 1;
    gc->by0 = (int)floor(gc->cy - ey) - 1;
    gc->bx1 = (int)floor(gc->cx + ex) + 1;
    gc->by1 = (int)floor(gc->cy + ey) + 1;
}

/* Point (px, py) in the square's frame. */
static void to_local(const GoalCells *gc, double px, double py, double *lx, double *ly)
{
    double rx = px - gc->cx, ry = py - gc->cy;
    *lx = rx * gc->ux + ry * gc->uy;
    *ly = -rx * gc->uy + ry * gc->ux;
}

static double rect_distance(const GoalCells *gc, double px, double py)
{
    double lx, ly;
    to_local(gc, px, py, &lx, &ly);
    double ex = fmax(0.0, fabs(lx) - gc->hw), ey = fmax(0.0, fabs(ly) - gc->hh);
    return sqrt(ex * ex + ey * ey);
}

static bool corner_outside_rect(const GoalCells *gc, double px, double py)
{
    double lx, ly;
    to_local(gc, px, py, &lx, &ly);
    return fabs(lx) > gc->hw || fabs(ly) > gc->hh;
}

/* Does the cell square [x, x+1] x [y, y+1] meet the oriented rectangle?
** Separating axes: the cell's two and the rectangle's two. */
static bool cell_meets_rect(const GoalCells *gc, int x, int y)
{
    double cx = x + 0.5, cy = y + 0.5;
    double ex = fabs(gc->ux) * gc->hw + fabs(gc->uy) * gc->hh;
    double ey = fabs(gc->uy) * gc->hw + fabs(gc->ux) * gc->hh;
    if (fabs(cx - gc->cx) > 0.5 + ex || fabs(cy - gc->cy) > 0.5 + ey) return false;
    double lx, ly;
    to_local(gc, cx, cy, &lx, &ly);
    double rx = 0.5 * (fabs(gc->ux) + fabs(gc->uy)); /* the cell's half extent along the rect's axes */
    return fabs(lx) <= gc->hw + rx && fabs(ly) <= gc->hh + rx;
}

bool goal_contains_cell(const GoalCells *gc, int x, int y)
{
    switch (gc->type) {
    case GRID_GOAL_POINT: return x == gc->px && y == gc->py;
    case GRID_GOAL_CIRCLE: {
        double ex = fmax(fmax((double)x - gc->cx, gc->cx - (double)(x + 1)), 0.0);
        double ey = fmax(fmax((double)y - gc->cy, gc->cy - (double)(y + 1)), 0.0);
        return ex * ex + ey * ey <= gc->r * gc->r;
    }
    case GRID_GOAL_INV_CIRCLE: {
        double fx = fmax(fabs((double)x - gc->cx), fabs((double)(x + 1) - gc->cx));
        double fy = fmax(fabs((double)y - gc->cy), fabs((double)(y + 1) - gc->cy));
        return fx * fx + fy * fy > gc->r * gc->r;
    }
    case GRID_GOAL_SQUARE: return cell_meets_rect(gc, x, y);
    case GRID_GOAL_INV_SQUARE:
        return corner_outside_rect(gc, x, y) || corner_outside_rect(gc, x + 1, y) ||
               corner_outside_rect(gc, x, y + 1) || corner_outside_rect(gc, x + 1, y + 1);
    }
    return false;
}

bool grid_goal_contains(const NavGrid *g, const GridGoal *goal, int cx, int cy)
{
    if (!grid_goal_valid(goal)) return false;
    GoalCells gc;
    goal_prepare(&gc, goal, grid_cell_size(g));
    return goal_contains_cell(&gc, cx, cy);
}

double goal_heuristic(const GoalCells *gc, int x, int y)
{
    double px = x + 0.5, py = y + 0.5;
    switch (gc->type) {
    case GRID_GOAL_POINT: {
        int dx = abs(x - gc->px), dy = abs(y - gc->py);
        int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
        return (double)(hi - lo) + (double)lo * NAV_SQRT2;
    }
    case GRID_GOAL_CIRCLE: return fmax(0.0, hypot(px - gc->cx, py - gc->cy) - gc->r - HALF_DIAGONAL);
    case GRID_GOAL_SQUARE: return fmax(0.0, rect_distance(gc, px, py) - HALF_DIAGONAL);
    case GRID_GOAL_INV_CIRCLE: return fmax(0.0, gc->r - hypot(px - gc->cx, py - gc->cy) - HALF_DIAGONAL);
    case GRID_GOAL_INV_SQUARE: {
        double lx, ly;
        to_local(gc, px, py, &lx, &ly);
        double depth = fmin(gc->hw - fabs(lx), gc->hh - fabs(ly));
        return fmax(0.0, depth - HALF_DIAGONAL);
    }
    }
    return 0.0;
}

bool goal_is_inverted(const GoalCells *gc)
{
    return gc->type == GRID_GOAL_INV_CIRCLE || gc->type == GRID_GOAL_INV_SQUARE;
}

/* Spans, found by testing cells, so they agree with goal_contains_cell
** exactly. A shaped goal meets a line in one run of cells (the shape is
** convex); an inverted goal is everything but one run (the cells wholly
** inside the shape). */
void goal_line_span(const GoalCells *gc, bool row, int line, int lo_limit, int hi_limit, int *lo, int *hi)
{
    *lo = 1;
    *hi = 0;
    int a = row ? gc->bx0 : gc->by0, b = row ? gc->bx1 : gc->by1;
    int l0 = row ? gc->by0 : gc->bx0, l1 = row ? gc->by1 : gc->bx1;
    if (line < l0 || line > l1) return;
    a = a < lo_limit ? lo_limit : a;
    b = b > hi_limit ? hi_limit : b;
    bool inv = goal_is_inverted(gc);
    int first = 1, last = 0;
    for (int p = a; p <= b; p++) {
        bool in = row ? goal_contains_cell(gc, p, line) : goal_contains_cell(gc, line, p);
        if (inv) in = !in;
        if (in) {
            if (first > last) first = p;
            last = p;
        }
    }
    *lo = first;
    *hi = last;
}

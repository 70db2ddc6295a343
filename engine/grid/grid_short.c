/*
** grid_short.c — the short-range vertex pathfinder (grid_short.h): the
** query, goal shapes in metres, segment tests (squares by buckets, cells
** by a walk), the lazy A* and the graph for drawing. The graph itself is
** built by grid_short_build.c and grid_short_reach.c.
**
** Geometry is in metres, in doubles: vertices sit 1/64 of a cell off the
** corners they stand for, far above double rounding at any map size, so
** no test depends on where a rounding falls.
**
** DOES NOT: cache anything between queries (units move every tick; the
** build is a few microseconds against the search), or use the hierarchy:
** reachability inside a square this small is the search itself.
*/
#include "grid/grid_short_internal.h"

#include "grid/grid_goal.h"

#include "core/timer.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define TIME_SLICE 16u /* expansions between looks at the clock */

/* The best end seen for a path that does not reach the goal. */
typedef struct Approach {
    uint32_t parent; /* vertex the leg starts from */
    double x, y;     /* end point (the vertex itself, or a point toward the goal) */
    double h, g;     /* distance to the goal, path length */
} Approach;

/* {======= memory ======= */

GridShortSearch *grid_short_create(const NavGrid *g, NavError *err)
{
    GridShortSearch *s = nav_calloc(1, sizeof *s);
    if (!s || !short_reserve_vertices(s, 1024) || !short_reserve_squares(s, 256) || !short_reserve_items(s, 2048)) {
        grid_short_destroy(s);
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the short-range search state");
        return NULL;
    }
    s->g = g;
    return s;
}

void grid_short_destroy(GridShortSearch *s)
{
    if (!s) return;
    nav_free(s->vx);
    nav_free(s->vy);
    nav_free(s->g_cost);
    nav_free(s->h);
    nav_free(s->qx);
    nav_free(s->qy);
    nav_free(s->kind);
    nav_free(s->state);
    nav_free(s->parent);
    nav_free(s->heap_pos);
    nav_free(s->heap);
    nav_free(s->verified);
    nav_free(s->g_seen);
    nav_free(s->from_seen);
    nav_free(s->checked);
    nav_free(s->closed);
    nav_free(s->blocker);
    nav_free(s->reach_free);
    nav_free(s->reach);
    nav_free(s->span_first);
    nav_free(s->key_first);
    nav_free(s->sq_order);
    nav_free(s->spans);
    nav_free(s->sq);
    nav_free(s->sq_start);
    nav_free(s->sq_stamp);
    nav_free(s->bk_items);
    nav_free(s);
}

size_t grid_short_memory(const GridShortSearch *s)
{
    return sizeof *s + (size_t)s->cap_v * (5 * sizeof(double) + 5 + 7 * sizeof(uint32_t)) +
           (size_t)s->cap_sq * (4 * sizeof(double) + 1 + sizeof(uint32_t)) + (size_t)s->cap_items * sizeof(uint32_t) +
           2 * (size_t)s->cap_reach * sizeof(uint64_t) + 2 * ((size_t)s->cap_lines + 2) * sizeof(uint32_t) +
           (size_t)s->cap_order * sizeof(uint32_t) + 2 * (size_t)s->cap_spans * sizeof(double);
}

/* }======= */

/* {======= goal shapes in metres ======= */

static void goal_metres(ShortGoal *sg, const GridGoal *goal)
{
    sg->type = goal->type;
    sg->cx = goal->x;
    sg->cy = goal->y;
    sg->r = goal->r;
    sg->hw = goal->hw;
    sg->hh = goal->hh;
    sg->ux = cos((double)goal->angle);
    sg->uy = sin((double)goal->angle);
}

/* The point of the goal nearest (x, y) into (px, py); returns the distance
** (0 when (x, y) is in the goal). Inverted goals are reached on their
** outline. */
static double goal_nearest(const ShortGoal *sg, double x, double y, double *px, double *py)
{
    double rx = x - sg->cx, ry = y - sg->cy;
    switch (sg->type) {
    case GRID_GOAL_POINT: break;
    case GRID_GOAL_CIRCLE: {
        double d = hypot(rx, ry);
        if (d <= sg->r) {
            *px = x;
            *py = y;
            return 0.0;
        }
        *px = sg->cx + rx * (sg->r / d);
        *py = sg->cy + ry * (sg->r / d);
        return d - sg->r;
    }
    case GRID_GOAL_INV_CIRCLE: {
        double d = hypot(rx, ry);
        if (d >= sg->r) {
            *px = x;
            *py = y;
            return 0.0;
        }
        double dx = d > 0.0 ? rx / d : 1.0, dy = d > 0.0 ? ry / d : 0.0;
        *px = sg->cx + dx * sg->r;
        *py = sg->cy + dy * sg->r;
        return sg->r - d;
    }
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE: {
        double lx = rx * sg->ux + ry * sg->uy, ly = -rx * sg->uy + ry * sg->ux;
        double nx = lx, ny = ly, d;
        if (sg->type == GRID_GOAL_SQUARE) {
            nx = fmax(-sg->hw, fmin(sg->hw, lx));
            ny = fmax(-sg->hh, fmin(sg->hh, ly));
            d = hypot(lx - nx, ly - ny);
        } else {
            double ex = sg->hw - fabs(lx), ey = sg->hh - fabs(ly);
            if (ex <= 0.0 || ey <= 0.0) {
                d = 0.0;
            } else if (ex <= ey) {
                nx = lx < 0.0 ? -sg->hw : sg->hw;
                d = ex;
            } else {
                ny = ly < 0.0 ? -sg->hh : sg->hh;
                d = ey;
            }
        }
        if (d == 0.0) {
            *px = x;
            *py = y;
            return 0.0;
        }
        *px = sg->cx + nx * sg->ux - ny * sg->uy;
        *py = sg->cy + nx * sg->uy + ny * sg->ux;
        return d;
    }
    }
    *px = sg->cx;
    *py = sg->cy;
    return hypot(rx, ry);
}

static double goal_distance(const ShortGoal *sg, double x, double y)
{
    double px, py;
    return goal_nearest(sg, x, y, &px, &py);
}

/* }======= */

/* {======= segment tests ======= */

/* Does the segment (ax, ay) + t (dx, dy), t in [0, 1], meet the open box
** b = x0, y0, x1, y1? Slabs; inv = 1 / d (infinite for d = 0). */
static inline bool seg_meets_box(double ax, double ay, double dx, double dy, double ix, double iy, const double *b)
{
    double t0 = 0.0, t1 = 1.0;
    if (dx == 0.0) {
        if (ax <= b[0] || ax >= b[2]) return false;
    } else {
        double ta = (b[0] - ax) * ix, tb = (b[2] - ax) * ix;
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        t0 = fmax(t0, ta);
        t1 = fmin(t1, tb);
        if (t0 >= t1) return false;
    }
    if (dy == 0.0) return ay > b[1] && ay < b[3];
    double ta = (b[1] - ay) * iy, tb = (b[3] - ay) * iy;
    if (ta > tb) {
        double t = ta;
        ta = tb;
        tb = t;
    }
    return fmax(t0, ta) < fmin(t1, tb);
}

/* The cells the segment crosses, in order: blocked when it goes from a
** passable cell into an impassable one (the single-sided outline edge
** between them). Through a cell corner exactly, the two cells beside it
** count as crossed too. Coordinates in cells; both ends on the map. */
static bool cells_clear(const NavGrid *g, int cls, double x0, double y0, double x1, double y1)
{
    int ix = short_ifloor(x0), iy = short_ifloor(y0);
    int ex = short_ifloor(x1), ey = short_ifloor(y1);
    int n = abs(ex - ix) + abs(ey - iy);
    bool open = grid_open(g, cls, ix, iy);
    if (n == 0) return true;
    double dx = x1 - x0, dy = y1 - y0;
    int sx = ex > ix ? 1 : (ex < ix ? -1 : 0), sy = ey > iy ? 1 : (ey < iy ? -1 : 0);
    double tdx = sx ? fabs(1.0 / dx) : DBL_MAX, tdy = sy ? fabs(1.0 / dy) : DBL_MAX;
    double tmx = sx ? ((double)(sx > 0 ? ix + 1 : ix) - x0) / dx : DBL_MAX;
    double tmy = sy ? ((double)(sy > 0 ? iy + 1 : iy) - y0) / dy : DBL_MAX;
    while (n > 0) {
        if (tmx < tmy) {
            ix += sx;
            tmx += tdx;
            n--;
        } else if (tmy < tmx) {
            iy += sy;
            tmy += tdy;
            n--;
        } else {
            if (open && (!grid_open(g, cls, ix + sx, iy) || !grid_open(g, cls, ix, iy + sy))) return false;
            ix += sx;
            iy += sy;
            tmx += tdx;
            tmy += tdy;
            n -= 2;
        }
        bool o = grid_open(g, cls, ix, iy);
        if (open && !o) return false;
        open = o;
    }
    return true;
}

/* Squares along the segment, bucket by bucket from a, so the nearest ones
** are tested first. Squares holding the start are skipped when a is
** inside them (a segment may leave a square, not enter it). */
static bool squares_clear(GridShortSearch *s, double ax, double ay, double bx, double by, uint32_t *blocker)
{
    if (s->nsq == 0) return true;
    uint32_t stamp = ++s->stamp;
    if (stamp == 0) { /* wrapped: old stamps could match */
        memset(s->sq_stamp, 0, (size_t)s->cap_sq * sizeof(uint32_t));
        stamp = s->stamp = 1;
    }
    double dx = bx - ax, dy = by - ay;
    double ix = dx != 0.0 ? 1.0 / dx : 0.0, iy = dy != 0.0 ? 1.0 / dy : 0.0;
    double x0 = (ax - s->bx0) * s->bk_inv, y0 = (ay - s->by0) * s->bk_inv;
    double x1 = (bx - s->bx0) * s->bk_inv, y1 = (by - s->by0) * s->bk_inv;
    int cx = NAV_MIN(NAV_MAX(short_ifloor(x0), 0), s->bk_w - 1),
        cy = NAV_MIN(NAV_MAX(short_ifloor(y0), 0), s->bk_h - 1);
    int ex = NAV_MIN(NAV_MAX(short_ifloor(x1), 0), s->bk_w - 1),
        ey = NAV_MIN(NAV_MAX(short_ifloor(y1), 0), s->bk_h - 1);
    int n = abs(ex - cx) + abs(ey - cy);
    int sx = ex > cx ? 1 : (ex < cx ? -1 : 0), sy = ey > cy ? 1 : (ey < cy ? -1 : 0);
    double tdx = sx ? fabs(1.0 / (x1 - x0)) : DBL_MAX, tdy = sy ? fabs(1.0 / (y1 - y0)) : DBL_MAX;
    double tmx = sx ? ((double)(sx > 0 ? cx + 1 : cx) - x0) / (x1 - x0) : DBL_MAX;
    double tmy = sy ? ((double)(sy > 0 ? cy + 1 : cy) - y0) / (y1 - y0) : DBL_MAX;
    for (;;) {
        uint32_t bk = (uint32_t)(cy * s->bk_w + cx);
        for (uint32_t k = s->bk_first[bk]; k < s->bk_first[bk + 1]; k++) {
            uint32_t i = s->bk_items[k];
            if (s->sq_stamp[i] == stamp) continue;
            s->sq_stamp[i] = stamp;
            const double *b = s->sq + 4 * (size_t)i;
            if (s->sq_start[i] && point_in_box(ax, ay, b)) continue;
            if (seg_meets_box(ax, ay, dx, dy, ix, iy, b)) {
                *blocker = i;
                return false;
            }
        }
        if (n <= 0) return true;
        /* Through a bucket corner the diagonal bucket comes next: a square
        ** the segment can enter there touches it as well. */
        if (tmx < tmy) {
            cx += sx;
            tmx += tdx;
            n--;
        } else if (tmy < tmx) {
            cy += sy;
            tmy += tdy;
            n--;
        } else {
            cx += sx;
            cy += sy;
            tmx += tdx;
            tmy += tdy;
            n -= 2;
        }
        cx = NAV_MIN(NAV_MAX(cx, 0), s->bk_w - 1);
        cy = NAV_MIN(NAV_MAX(cy, 0), s->bk_h - 1);
    }
}

/* Is the segment clear? hint (may be NULL) holds the square that last
** blocked a segment to the same end: tested first, since an end behind a
** wall of squares is mostly blocked by the same one (the search asks
** again for every newly closed vertex), and set to the one that blocks. */
static bool visible(GridShortSearch *s, double ax, double ay, double bx, double by, uint32_t *hint)
{
    if (ax == bx && ay == by) return true;
    s->tests++;
    if (hint && *hint != NONE) {
        const double *b = s->sq + 4 * (size_t)*hint;
        double dx = bx - ax, dy = by - ay;
        if (!(s->sq_start[*hint] && point_in_box(ax, ay, b)) &&
            seg_meets_box(ax, ay, dx, dy, dx != 0.0 ? 1.0 / dx : 0.0, dy != 0.0 ? 1.0 / dy : 0.0, b))
            return false;
    }
    uint32_t blocker = NONE;
    if (!squares_clear(s, ax, ay, bx, by, &blocker)) {
        if (hint) *hint = blocker;
        return false;
    }
    return cells_clear(s->g, s->cls, ax * s->inv_cs, ay * s->inv_cs, bx * s->inv_cs, by * s->inv_cs);
}

uint32_t grid_short_segment_blocked(const NavGrid *g, int cls, float ax, float ay, float bx, float by,
                                    const GridShortSquare *squares, int square_count, float clearance)
{
    uint32_t out = 0;
    double dx = (double)bx - ax, dy = (double)by - ay;
    double ix = dx != 0.0 ? 1.0 / dx : 0.0, iy = dy != 0.0 ? 1.0 / dy : 0.0;
    for (int i = 0; i < square_count && squares; i++) {
        double h = (double)squares[i].half + clearance;
        double b[4] = { squares[i].x - h, squares[i].y - h, squares[i].x + h, squares[i].y + h };
        if (point_in_box(ax, ay, b)) continue;
        if (seg_meets_box(ax, ay, dx, dy, ix, iy, b)) {
            out |= GRID_SHORT_BLOCK_SQUARES;
            break;
        }
    }
    int cx, cy;
    if (cls < 0 || cls >= g->ncls || !grid_cell_of(g, ax, ay, &cx, &cy) || !grid_cell_of(g, bx, by, &cx, &cy))
        return out | GRID_SHORT_BLOCK_CELLS;
    double inv = 1.0 / (double)g->cs;
    if (!cells_clear(g, cls, ax * inv, ay * inv, bx * inv, by * inv)) out |= GRID_SHORT_BLOCK_CELLS;
    return out;
}

/* }======= */

/* {======= open list: binary heap on (f, h, index) ======= */

static inline bool before(const GridShortSearch *s, uint32_t a, uint32_t b)
{
    double fa = s->g_cost[a] + s->h[a], fb = s->g_cost[b] + s->h[b];
    if (fa != fb) return fa < fb;
    if (s->h[a] != s->h[b]) return s->h[a] < s->h[b];
    return a < b;
}

static void sift_up(GridShortSearch *s, uint32_t pos)
{
    uint32_t node = s->heap[pos];
    while (pos > 0) {
        uint32_t up = (pos - 1) >> 1;
        if (!before(s, node, s->heap[up])) break;
        s->heap[pos] = s->heap[up];
        s->heap_pos[s->heap[pos]] = pos;
        pos = up;
    }
    s->heap[pos] = node;
    s->heap_pos[node] = pos;
}

static void sift_down(GridShortSearch *s, uint32_t pos)
{
    uint32_t node = s->heap[pos];
    for (;;) {
        uint32_t l = 2 * pos + 1;
        if (l >= s->heap_size) break;
        uint32_t c = (l + 1 < s->heap_size && before(s, s->heap[l + 1], s->heap[l])) ? l + 1 : l;
        if (!before(s, s->heap[c], node)) break;
        s->heap[pos] = s->heap[c];
        s->heap_pos[s->heap[pos]] = pos;
        pos = c;
    }
    s->heap[pos] = node;
    s->heap_pos[node] = pos;
}

static uint32_t pop(GridShortSearch *s)
{
    uint32_t top = s->heap[0];
    s->heap_size--;
    if (s->heap_size > 0) {
        s->heap[0] = s->heap[s->heap_size];
        sift_down(s, 0);
    }
    return top;
}

static void relax(GridShortSearch *s, uint32_t v, double cost, uint32_t from, bool verified)
{
    s->g_cost[v] = cost;
    s->parent[v] = from;
    s->verified[v] = verified;
    if (s->state[v] == ST_OPEN) {
        sift_up(s, s->heap_pos[v]);
        return;
    }
    s->state[v] = ST_OPEN;
    s->heap[s->heap_size] = v;
    s->heap_size++;
    sift_up(s, s->heap_size - 1);
}

/* }======= */

/* {======= the search ======= */

static void approach_offer(Approach *a, uint32_t parent, double x, double y, double h, double g)
{
    if (a->parent != NONE && (h > a->h || (h == a->h && g >= a->g))) return;
    *a = (Approach){ .parent = parent, .x = x, .y = y, .h = h, .g = g };
}

static void expand(GridShortSearch *s, uint32_t u, Approach *best)
{
    uint32_t goal = s->nv;
    double ux = s->vx[u], uy = s->vy[u], gu = s->g_cost[u];
    approach_offer(best, u, ux, uy, s->h[u], gu);

    /* The leg to the goal: its point nearest u, kept in the square. */
    double px, py;
    double d = goal_nearest(&s->goal, ux, uy, &px, &py);
    double cx = fmin(fmax(px, s->bx0 + s->eps), s->bx1 - s->eps);
    double cy = fmin(fmax(py, s->by0 + s->eps), s->by1 - s->eps);
    if (cx == px && cy == py) {
        double cost = gu + d;
        if ((s->state[goal] == 0 || cost < s->g_cost[goal]) && visible(s, ux, uy, px, py, &s->blocker[goal])) {
            s->vx[goal] = px;
            s->vy[goal] = py;
            relax(s, goal, cost, u, true);
        }
    } else {
        /* The goal is outside the square: the nearest way toward it. */
        double h = goal_distance(&s->goal, cx, cy), cost = gu + hypot(cx - ux, cy - uy);
        if ((best->parent == NONE || h < best->h || (h == best->h && cost < best->g)) &&
            visible(s, ux, uy, cx, cy, NULL))
            approach_offer(best, u, cx, cy, h, cost);
    }

    /* Every vertex u could improve, on trust: the segment is tested when
    ** the vertex comes off the open list (settle). */
    double limit = s->state[goal] ? s->g_cost[goal] : DBL_MAX;
    for (uint32_t v = 1; v < s->nv; v++) {
        if (s->state[v] == ST_CLOSED) continue;
        double dx = s->vx[v] - ux, dy = s->vy[v] - uy;
        double cost = gu + sqrt(dx * dx + dy * dy);
        if (s->state[v] == ST_OPEN && cost >= s->g_cost[v]) continue;
        if (cost >= s->g_seen[v] || cost + s->h[v] >= limit) continue;
        relax(s, v, cost, u, false);
    }
}

/* Vertex v came off the open list. Its segment from its parent, if not
** yet tested, is tested now; when blocked, the best visible parent among
** the closed vertices (those not looked at for v before) takes its place
** and v goes back on the open list, or, with none, waits for a vertex
** closed later to offer it again. True when v is settled. Correct as A*
** is: a vertex closed later has f no lower than v's, so with a consistent
** heuristic it cannot offer v a lower cost than v gets from the closed. */
static bool settle(GridShortSearch *s, uint32_t v)
{
    if (s->verified[v]) return true;
    uint32_t p = s->parent[v];
    double x = s->vx[v], y = s->vy[v];
    if (visible(s, s->vx[p], s->vy[p], x, y, &s->blocker[v])) {
        s->verified[v] = 1;
        s->g_seen[v] = s->g_cost[v];
        s->from_seen[v] = p;
        return true;
    }
    for (uint32_t k = s->checked[v]; k < s->nclosed; k++) {
        uint32_t w = s->closed[k];
        if (w == p) continue;
        double dx = s->vx[w] - x, dy = s->vy[w] - y;
        double cost = s->g_cost[w] + sqrt(dx * dx + dy * dy);
        if (cost >= s->g_seen[v] || !visible(s, s->vx[w], s->vy[w], x, y, &s->blocker[v])) continue;
        s->g_seen[v] = cost;
        s->from_seen[v] = w;
    }
    s->checked[v] = s->nclosed;
    if (s->g_seen[v] < DBL_MAX) relax(s, v, s->g_seen[v], s->from_seen[v], true);
    else s->state[v] = 0;
    return false;
}

static NavStatus check_query(const NavGrid *g, const GridShortQuery *q, NavError *err)
{
    int cx, cy;
    if (q->cls < 0 || q->cls >= g->ncls)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "cls", "no class %d (the grid has %d)", q->cls, g->ncls);
    if (!grid_cell_of(g, q->sx, q->sy, &cx, &cy))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "start", "(%g, %g) is not on the map", (double)q->sx,
                             (double)q->sy);
    if (!grid_goal_valid(&q->goal) || fabsf(q->goal.x) > 1e9f || fabsf(q->goal.y) > 1e9f)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "goal", "not a valid goal (finite, sizes not negative)");
    if (!isfinite(q->range) || q->range <= 0.0f || q->range > GRID_SHORT_MAX_RANGE)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "range", "%g is not in (0, %g] metres", (double)q->range,
                             (double)GRID_SHORT_MAX_RANGE);
    if (!isfinite(q->clearance) || q->clearance < 0.0f || q->clearance > GRID_SHORT_MAX_RANGE)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "clearance", "%g is not in [0, %g] metres",
                             (double)q->clearance, (double)GRID_SHORT_MAX_RANGE);
    if (q->square_count < 0 || q->square_count > GRID_SHORT_MAX_SQUARES || (q->square_count > 0 && !q->squares))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "squares", "%d squares (0 to %d, and a list)",
                             q->square_count, GRID_SHORT_MAX_SQUARES);
    for (int i = 0; i < q->square_count; i++) {
        const GridShortSquare *u = &q->squares[i];
        if (!isfinite(u->x) || !isfinite(u->y) || !isfinite(u->half) || u->half < 0.0f || fabsf(u->x) > 1e9f ||
            fabsf(u->y) > 1e9f || u->half > GRID_SHORT_MAX_RANGE) {
            char field[32];
            snprintf(field, sizeof field, "squares[%d]", i);
            return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, field,
                                 "(%g, %g) half %g: want finite numbers and a half size in [0, %g]", (double)u->x,
                                 (double)u->y, (double)u->half, (double)GRID_SHORT_MAX_RANGE);
        }
    }
    return NAV_OK;
}

/* Writes the chain ending at vertex `end` (then the point (ex, ey) when it
** is not that vertex) into the path, start first. */
static void write_path(GridShortSearch *s, uint32_t end, double ex, double ey, GridShortPath *path)
{
    bool extra = ex != s->vx[end] || ey != s->vy[end];
    int total = extra ? 1 : 0;
    for (uint32_t v = end;; v = s->parent[v]) {
        total++;
        if (s->parent[v] == v) break;
    }
    int k = total - 1;
    double len = 0.0, lx = ex, ly = ey;
    if (extra) {
        if (k < path->cap) path->points[k] = (GridShortPoint){ (float)ex, (float)ey };
        k--;
    }
    for (uint32_t v = end;; v = s->parent[v]) {
        len += hypot(lx - s->vx[v], ly - s->vy[v]);
        lx = s->vx[v];
        ly = s->vy[v];
        if (k < path->cap) path->points[k] = (GridShortPoint){ (float)lx, (float)ly };
        k--;
        if (s->parent[v] == v) break;
    }
    path->count = NAV_MIN(total, path->cap);
    if (total > path->cap) path->flags |= GRID_SHORT_TRUNCATED;
    path->length = len;
}

NavStatus grid_short_find_path(GridShortSearch *s, const GridShortQuery *q, GridShortPath *path, NavError *err)
{
    const NavGrid *g = s->g;
    path->count = 0;
    path->length = 0.0;
    path->end_distance = 0.0;
    path->flags = 0;
    path->vertices = path->edges = path->squares = path->expanded = path->tests = 0;
    s->nv = 0;
    s->nsq = 0;
    s->heap_size = 0;
    s->expanded = s->tests = s->edges = 0;
    s->found = false;
    NavStatus st = check_query(g, q, err);
    if (NAV_FAILED(st)) return st;
    if (path->cap < 0 || (path->cap > 0 && !path->points))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "points", "no buffer for %d points", path->cap);

    s->cls = q->cls;
    s->cs = g->cs;
    s->inv_cs = 1.0 / s->cs;
    s->eps = s->cs / 64.0;
    double sx = q->sx, sy = q->sy, r = q->range;
    s->bx0 = fmax(sx - r, 0.0);
    s->by0 = fmax(sy - r, 0.0);
    s->bx1 = fmin(sx + r, g->w * s->cs);
    s->by1 = fmin(sy + r, g->h * s->cs);
    s->cx0 = NAV_MAX(short_ifloor(s->bx0 * s->inv_cs), 0);
    s->cy0 = NAV_MAX(short_ifloor(s->by0 * s->inv_cs), 0);
    s->cx1 = NAV_MIN(short_ifloor(s->bx1 * s->inv_cs), g->w - 1);
    s->cy1 = NAV_MIN(short_ifloor(s->by1 * s->inv_cs), g->h - 1);
    goal_metres(&s->goal, &q->goal);
    int scx, scy;
    grid_cell_of(g, q->sx, q->sy, &scx, &scy);
    s->start_blocked = !grid_passable(g, s->cls, scx, scy);

    if (!short_build_squares(s, q, sx, sy) || !short_build_reach(s, sx, sy)) goto nomem;
    /* the start is vertex 0 */
    if (!short_reserve_vertices(s, 1)) goto nomem;
    s->vx[0] = sx;
    s->vy[0] = sy;
    s->qx[0] = s->qy[0] = 0;
    s->kind[0] = GRID_SHORT_VERTEX_START;
    s->nv = 1;
    if (!short_cell_vertices(s) || !short_square_vertices(s)) goto nomem;
    uint32_t goal = s->nv;
    for (uint32_t v = 0; v <= goal; v++) {
        s->state[v] = 0;
        s->g_seen[v] = DBL_MAX;
        s->checked[v] = 0;
        s->blocker[v] = NONE;
    }
    s->nclosed = 0;
    for (uint32_t v = 0; v < goal; v++) s->h[v] = goal_distance(&s->goal, s->vx[v], s->vy[v]);
    s->h[goal] = 0.0;
    s->kind[goal] = GRID_SHORT_VERTEX_START;
    s->qx[goal] = s->qy[goal] = 0;
    s->edges = short_cell_edges(s, NULL) + 4 * s->nsq;
    for (uint32_t i = 0; i < s->nsq; i++)
        if (s->sq_start[i]) path->flags |= GRID_SHORT_START_INSIDE;
    if (s->start_blocked) path->flags |= GRID_SHORT_START_INSIDE;

    s->parent[0] = 0;
    relax(s, 0, 0.0, 0, true);
    Approach best = { .parent = NONE };
    uint32_t budget = q->max_expanded ? q->max_expanded : UINT32_MAX;
    uint64_t deadline = q->max_time_us ? timer_now_ns() + (uint64_t)q->max_time_us * 1000u : 0;
    bool stopped = false;
    while (s->heap_size > 0) {
        uint32_t u = pop(s);
        s->state[u] = ST_CLOSED;
        if (u == goal) {
            s->found = true;
            break;
        }
        if (s->expanded >= budget ||
            (deadline && s->expanded % TIME_SLICE == TIME_SLICE - 1 && timer_now_ns() >= deadline)) {
            s->state[u] = ST_OPEN; /* not expanded after all */
            stopped = true;
            break;
        }
        s->state[u] = 0; /* off the open list, not closed until settled */
        if (!settle(s, u)) continue;
        s->state[u] = ST_CLOSED;
        s->closed[s->nclosed++] = u;
        s->expanded++;
        expand(s, u, &best);
    }

    path->vertices = s->nv;
    path->edges = s->edges;
    path->squares = s->nsq;
    path->expanded = s->expanded;
    path->tests = s->tests;
    if (s->found) {
        path->flags |= GRID_SHORT_FOUND;
        write_path(s, goal, s->vx[goal], s->vy[goal], path);
        /* the goal leg may end on the last vertex (it is in the goal) */
        if (path->count >= 2 && !(path->flags & GRID_SHORT_TRUNCATED)) {
            GridShortPoint a = path->points[path->count - 2], b = path->points[path->count - 1];
            if (a.x == b.x && a.y == b.y) path->count--;
        }
        return NAV_OK;
    }
    path->flags |= stopped ? GRID_SHORT_PARTIAL : GRID_SHORT_UNREACHABLE;
    write_path(s, best.parent, best.x, best.y, path);
    path->end_distance = best.h;
    return stopped ? NAV_OK | NAV_PARTIAL : NAV_OK;
nomem:
    return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the short-range search");
}

/* }======= */

/* {======= drawing ======= */

void grid_short_visit(const GridShortSearch *s, const GridShortVisitor *v)
{
    if (s->nv == 0 || !v) return;
    if (v->edge) {
        short_cell_edges(s, v);
        for (uint32_t i = 0; i < s->nsq; i++) {
            const double *b = s->sq + 4 * (size_t)i;
            float x0 = (float)b[0], y0 = (float)b[1], x1 = (float)b[2], y1 = (float)b[3];
            v->edge(v->user, x0, y0, x1, y0, GRID_SHORT_EDGE_SQUARE);
            v->edge(v->user, x1, y0, x1, y1, GRID_SHORT_EDGE_SQUARE);
            v->edge(v->user, x1, y1, x0, y1, GRID_SHORT_EDGE_SQUARE);
            v->edge(v->user, x0, y1, x0, y0, GRID_SHORT_EDGE_SQUARE);
        }
        float x0 = (float)s->bx0, y0 = (float)s->by0, x1 = (float)s->bx1, y1 = (float)s->by1;
        v->edge(v->user, x0, y0, x1, y0, GRID_SHORT_EDGE_RANGE);
        v->edge(v->user, x1, y0, x1, y1, GRID_SHORT_EDGE_RANGE);
        v->edge(v->user, x1, y1, x0, y1, GRID_SHORT_EDGE_RANGE);
        v->edge(v->user, x0, y1, x0, y0, GRID_SHORT_EDGE_RANGE);
    }
    if (v->vertex)
        for (uint32_t i = 0; i < s->nv; i++)
            v->vertex(v->user, (float)s->vx[i], (float)s->vy[i], (GridShortVertexKind)s->kind[i], s->state[i] != 0,
                      s->state[i] == ST_CLOSED);
}

/* }======= */

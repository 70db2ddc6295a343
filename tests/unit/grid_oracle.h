/*
** grid_oracle.h — independent reference implementations for the grid
** tests: a seeded PRNG, plain passability maps, path checks under the
** movement rule, Dijkstra, flood fill, and the geometry behind clearance,
** obstruction rasterization, goal shapes and line of sight.
**
** Nothing here calls the grid module: the tests compare the engine against
** these. Everything is static inline so each test file takes what it needs.
**
** Movement rule (grid_search.h, the Moving AI rule): 8-connected, a diagonal
** step needs both orthogonal neighbours passable, straight steps cost 1 and
** diagonal steps sqrt(2).
*/
#ifndef NAV_TEST_GRID_ORACLE_H
#define NAV_TEST_GRID_ORACLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid_search.h"

#define ORACLE_SQRT2 1.4142135623730951

/* {======= PRNG (splitmix64): the same sequence on every machine ======= */

typedef struct OracleRng {
    uint64_t s;
} OracleRng;

static inline uint64_t orng_next(OracleRng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double orng_unit(OracleRng *r) { return (double)(orng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
/* Uniform in [0, n). */
static inline int orng_int(OracleRng *r, int n) { return (int)(orng_unit(r) * n); }
static inline double orng_range(OracleRng *r, double a, double b) { return a + (b - a) * orng_unit(r); }

/* }======= */

/* {======= passability maps ======= */

/* pass[y * w + x], y grows north (the grid's orientation). */
typedef struct OracleMap {
    int w, h;
    uint8_t *pass;
} OracleMap;

static inline bool om_pass(const OracleMap *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m->w && y < m->h && m->pass[(size_t)y * (size_t)m->w + (size_t)x];
}

static inline double oracle_octile(int dx, int dy)
{
    dx = abs(dx);
    dy = abs(dy);
    int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + ORACLE_SQRT2 * (double)lo;
}

static inline int oracle_sign(int v) { return (v > 0) - (v < 0); }

/* Is the single step (x, y) -> (x + sx, y + sy) legal (sx, sy in -1..1)? */
static inline bool oracle_step_ok(const OracleMap *m, int x, int y, int sx, int sy)
{
    if (!om_pass(m, x + sx, y + sy)) return false;
    if (sx && sy) return om_pass(m, x + sx, y) && om_pass(m, x, y + sy);
    return true;
}

/* Check one segment: straight or exactly diagonal, every step legal.
** Writes a reason into why on failure. */
static inline bool oracle_segment_ok(const OracleMap *m, int ax, int ay, int bx, int by, char *why, size_t cap)
{
    int dx = bx - ax, dy = by - ay;
    if (!(dx == 0 || dy == 0 || abs(dx) == abs(dy))) {
        snprintf(why, cap, "segment (%d,%d)->(%d,%d) is neither straight nor diagonal", ax, ay, bx, by);
        return false;
    }
    if (!om_pass(m, ax, ay)) {
        snprintf(why, cap, "segment (%d,%d)->(%d,%d) starts on a blocked cell", ax, ay, bx, by);
        return false;
    }
    int sx = oracle_sign(dx), sy = oracle_sign(dy), n = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    int x = ax, y = ay;
    for (int i = 0; i < n; i++) {
        if (!oracle_step_ok(m, x, y, sx, sy)) {
            snprintf(why, cap, "segment (%d,%d)->(%d,%d): step (%d,%d)->(%d,%d) is %s", ax, ay, bx, by, x, y, x + sx,
                     y + sy, om_pass(m, x + sx, y + sy) ? "a diagonal past a blocked corner" : "into a blocked cell");
            return false;
        }
        x += sx;
        y += sy;
    }
    return true;
}

/* Check a waypoint list from point first: every segment legal. *len gets
** the octile sum of the segments from first on. */
static inline bool oracle_path_ok(const OracleMap *m, const GridWaypoint *p, int count, int first, double *len,
                                  char *why, size_t cap)
{
    double sum = 0.0;
    if (count <= first) {
        snprintf(why, cap, "path has %d waypoints", count);
        return false;
    }
    if (!om_pass(m, p[first].x, p[first].y)) {
        snprintf(why, cap, "waypoint %d (%d,%d) is blocked", first, p[first].x, p[first].y);
        return false;
    }
    for (int i = first; i + 1 < count; i++) {
        if (!oracle_segment_ok(m, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, why, cap)) return false;
        sum += oracle_octile(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
    }
    if (len) *len = sum;
    return true;
}

/* Dijkstra from a set of sources under the movement rule. dist[] gets the
** cost in cells, INFINITY where unreachable. */
typedef struct OracleHeapItem {
    double d;
    int i;
} OracleHeapItem;

static inline void oracle_heap_push(OracleHeapItem *h, int *n, double d, int i)
{
    int k = (*n)++;
    while (k > 0) {
        int p = (k - 1) / 2;
        if (h[p].d <= d) break;
        h[k] = h[p];
        k = p;
    }
    h[k] = (OracleHeapItem){ d, i };
}

static inline OracleHeapItem oracle_heap_pop(OracleHeapItem *h, int *n)
{
    OracleHeapItem top = h[0], last = h[--(*n)];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
        if (last.d <= h[c].d) break;
        h[k] = h[c];
        k = c;
    }
    if (*n > 0) h[k] = last;
    return top;
}

static inline void oracle_dijkstra(const OracleMap *m, const int *src, int nsrc, double *dist)
{
    int cells = m->w * m->h;
    for (int i = 0; i < cells; i++) dist[i] = INFINITY;
    OracleHeapItem *heap = nav_malloc(sizeof *heap * (size_t)(cells * 8 + nsrc + 1));
    int n = 0;
    for (int s = 0; s < nsrc; s++) {
        if (!om_pass(m, src[s] % m->w, src[s] / m->w)) continue;
        dist[src[s]] = 0.0;
        oracle_heap_push(heap, &n, 0.0, src[s]);
    }
    while (n > 0) {
        OracleHeapItem it = oracle_heap_pop(heap, &n);
        if (it.d > dist[it.i]) continue;
        int x = it.i % m->w, y = it.i / m->w;
        for (int sy = -1; sy <= 1; sy++)
            for (int sx = -1; sx <= 1; sx++) {
                if (!sx && !sy) continue;
                if (!oracle_step_ok(m, x, y, sx, sy)) continue;
                int j = (y + sy) * m->w + x + sx;
                double nd = it.d + (sx && sy ? ORACLE_SQRT2 : 1.0);
                if (nd < dist[j] - 1e-12) {
                    dist[j] = nd;
                    oracle_heap_push(heap, &n, nd, j);
                }
            }
    }
    nav_free(heap);
}

/* 4-connected flood fill over passable cells. comp[] gets a component
** number (0, 1, ...) or -1 for blocked cells; returns the count. */
static inline int oracle_components(const OracleMap *m, int *comp)
{
    int cells = m->w * m->h, count = 0;
    int *stack = nav_malloc(sizeof *stack * (size_t)(cells + 1));
    for (int i = 0; i < cells; i++) comp[i] = -1;
    for (int i = 0; i < cells; i++) {
        if (!m->pass[i] || comp[i] >= 0) continue;
        int top = 0;
        stack[top++] = i;
        comp[i] = count;
        while (top > 0) {
            int c = stack[--top], x = c % m->w, y = c / m->w;
            static const int D[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
            for (int d = 0; d < 4; d++) {
                int nx = x + D[d][0], ny = y + D[d][1];
                if (!om_pass(m, nx, ny)) continue;
                int j = ny * m->w + nx;
                if (comp[j] >= 0) continue;
                comp[j] = count;
                stack[top++] = j;
            }
        }
        count++;
    }
    nav_free(stack);
    return count;
}

/* }======= */

/* {======= geometry, in metres (doubles) ======= */

/* Distance from a point to an oriented rectangle (0 inside or on it). */
static inline double oracle_dist_rect(double px, double py, double cx, double cy, double hw, double hh, double angle)
{
    double dx = px - cx, dy = py - cy, c = cos(angle), s = sin(angle);
    double u = dx * c + dy * s, v = -dx * s + dy * c;
    double ex = fabs(u) - hw, ey = fabs(v) - hh;
    if (ex < 0) ex = 0;
    if (ey < 0) ey = 0;
    return sqrt(ex * ex + ey * ey);
}

/* Signed distance: the distance outside, minus the depth inside. */
static inline double oracle_signed_dist_rect(double px, double py, double cx, double cy, double hw, double hh,
                                             double angle)
{
    double dx = px - cx, dy = py - cy, c = cos(angle), s = sin(angle);
    double u = dx * c + dy * s, v = -dx * s + dy * c;
    double ex = fabs(u) - hw, ey = fabs(v) - hh;
    if (ex <= 0 && ey <= 0) return ex > ey ? ex : ey;
    if (ex < 0) ex = 0;
    if (ey < 0) ey = 0;
    return sqrt(ex * ex + ey * ey);
}

/* How far a point is outside the closed oriented rectangle, in the
** rectangle's axis sense: > 0 outside, <= 0 inside or on it. */
static inline double oracle_rect_outside(double px, double py, double cx, double cy, double hw, double hh, double angle)
{
    double dx = px - cx, dy = py - cy, c = cos(angle), s = sin(angle);
    double u = dx * c + dy * s, v = -dx * s + dy * c;
    double a = fabs(u) - hw, b = fabs(v) - hh;
    return a > b ? a : b;
}

/* Gaps between a point and the axis-aligned square of cell (x, y), size s. */
static inline void oracle_cell_gaps(double px, double py, int x, int y, double s, double *gx, double *gy)
{
    double x0 = x * s, x1 = (x + 1) * s, y0 = y * s, y1 = (y + 1) * s;
    *gx = px < x0 ? x0 - px : px > x1 ? px - x1 : 0.0;
    *gy = py < y0 ? y0 - py : py > y1 ? py - y1 : 0.0;
}

/* Euclidean distance from a point to the square of cell (x, y). */
static inline double oracle_dist_cell(double px, double py, int x, int y, double s)
{
    double gx, gy;
    oracle_cell_gaps(px, py, x, y, s, &gx, &gy);
    return sqrt(gx * gx + gy * gy);
}

/* Chebyshev distance from a point to the square of cell (x, y). */
static inline double oracle_cheb_cell(double px, double py, int x, int y, double s)
{
    double gx, gy;
    oracle_cell_gaps(px, py, x, y, s, &gx, &gy);
    return gx > gy ? gx : gy;
}

/* Largest distance from a corner of cell (x, y) to a point. */
static inline double oracle_far_corner(double px, double py, int x, int y, double s)
{
    double best = 0;
    for (int k = 0; k < 4; k++) {
        double cx = (x + (k & 1)) * s - px, cy = (y + (k >> 1)) * s - py;
        double d = sqrt(cx * cx + cy * cy);
        if (d > best) best = d;
    }
    return best;
}

/* The obstruction rule of grid.h: a cell is blocked when all four corners
** are inside the shape or within c of it, c = max(radius, (3 cells - the
** shape's smaller side) / 2). Returns the largest corner distance minus c:
** <= 0 blocks. Corners inside count by their (negative) depth, so a cell
** deep inside a shape is not mistaken for a close call when c is 0. */
static inline double oracle_shape_margin(const GridShape *sh, double cell, double radius, int x, int y)
{
    double hw = sh->hw, hh = sh->hh;
    double narrow = (3.0 * cell - 2.0 * (hw < hh ? hw : hh)) / 2.0;
    double c = radius > narrow ? radius : narrow;
    double worst = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double d = oracle_signed_dist_rect((x + (k & 1)) * cell, (y + (k >> 1)) * cell, sh->x, sh->y, hw, hh, sh->angle);
        if (d > worst) worst = d;
    }
    return worst - c;
}

/* Separating-axis gap between the square of cell (x, y) and an oriented
** rectangle: > 0 apart, <= 0 touching or overlapping. */
static inline double oracle_cell_rect_gap(int x, int y, double s, double cx, double cy, double hw, double hh,
                                          double angle)
{
    double c = cos(angle), sn = sin(angle);
    double axes[4][2] = { { 1, 0 }, { 0, 1 }, { c, sn }, { -sn, c } };
    double cell_pts[4][2], rect_pts[4][2];
    for (int k = 0; k < 4; k++) {
        cell_pts[k][0] = (x + (k & 1)) * s;
        cell_pts[k][1] = (y + (k >> 1)) * s;
        double u = (k & 1) ? hw : -hw, v = (k >> 1) ? hh : -hh;
        rect_pts[k][0] = cx + u * c - v * sn;
        rect_pts[k][1] = cy + u * sn + v * c;
    }
    double gap = -INFINITY;
    for (int a = 0; a < 4; a++) {
        double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int k = 0; k < 4; k++) {
            double pa = cell_pts[k][0] * axes[a][0] + cell_pts[k][1] * axes[a][1];
            double pb = rect_pts[k][0] * axes[a][0] + rect_pts[k][1] * axes[a][1];
            if (pa < amin) amin = pa;
            if (pa > amax) amax = pa;
            if (pb < bmin) bmin = pb;
            if (pb > bmax) bmax = pb;
        }
        double g = bmin - amax > amin - bmax ? bmin - amax : amin - bmax;
        if (g > gap) gap = g;
    }
    return gap;
}

/* Goal membership by grid_search.h: a point goal holds only its own cell; a
** shaped goal holds a cell if any point of the cell is in the shape; an
** inverted one if any point of the cell is outside it. Returns +1 in, -1 out,
** 0 too close to the boundary to call (within eps metres). */
static inline int oracle_goal_contains(const GridGoal *g, double s, int x, int y, double eps)
{
    double d;
    switch (g->type) {
    case GRID_GOAL_POINT: {
        double fx = g->x / s, fy = g->y / s;
        if (fabs(fx - round(fx)) < eps / s || fabs(fy - round(fy)) < eps / s) return 0;
        return (int)floor(fx) == x && (int)floor(fy) == y ? 1 : -1;
    }
    case GRID_GOAL_CIRCLE:
        d = oracle_dist_cell(g->x, g->y, x, y, s) - g->r;   /* in iff <= 0 */
        break;
    case GRID_GOAL_INV_CIRCLE:
        d = -(oracle_far_corner(g->x, g->y, x, y, s) - g->r); /* in iff far corner > r */
        if (fabs(d) < eps) return 0;
        return d < 0 ? 1 : -1;
    case GRID_GOAL_SQUARE:
        d = oracle_cell_rect_gap(x, y, s, g->x, g->y, g->hw, g->hh, g->angle);
        break;
    case GRID_GOAL_INV_SQUARE: {
        double worst = -INFINITY;
        for (int k = 0; k < 4; k++) {
            double o = oracle_rect_outside((x + (k & 1)) * s, (y + (k >> 1)) * s, g->x, g->y, g->hw, g->hh, g->angle);
            if (o > worst) worst = o;
        }
        if (fabs(worst) < eps) return 0;
        return worst > 0 ? 1 : -1;
    }
    default:
        return 0;
    }
    if (fabs(d) < eps) return 0;
    return d <= 0 ? 1 : -1;
}

/* }======= */

/* {======= line of sight ======= */

/* How the closed segment between the centres of cells a and b meets cell
** (x, y): 0 not at all, 1 only at a corner point, 2 through its interior.
** Exact: centres and corners are rationals with small denominators, and
** IEEE division rounds equal rationals to the same double. */
static inline int oracle_segment_meets_cell(int ax, int ay, int bx, int by, int x, int y)
{
    /* doubled coordinates: centres odd, cell edges even */
    double px = 2 * ax + 1, py = 2 * ay + 1, dx = 2 * (bx - ax), dy = 2 * (by - ay);
    double lo = 0.0, hi = 1.0;
    double e[2][3] = { { px, dx, 2.0 * x }, { py, dy, 2.0 * y } };
    for (int k = 0; k < 2; k++) {
        double p = e[k][0], d = e[k][1], e0 = e[k][2], e1 = e[k][2] + 2.0;
        if (d == 0) {
            if (p < e0 || p > e1) return 0;
            continue; /* odd p against even edges: strictly inside the slab */
        }
        double t0 = (e0 - p) / d, t1 = (e1 - p) / d;
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        if (t0 > lo) lo = t0;
        if (t1 < hi) hi = t1;
    }
    if (lo > hi) return 0;
    return lo < hi ? 2 : 1;
}

/* Line of sight between cell centres under the movement rule, read
** strictly: every cell the closed segment touches, corners included, must
** be passable (so a line through a corner needs all four cells there, as a
** diagonal step does). *corner_only is set when the only blocked cells met
** are met at a single corner point and no corner has both of its
** corner-only cells blocked: the one case where a looser reading ("no
** blocked cell crossed, no squeeze between two diagonal blocked cells")
** would answer differently. */
static inline bool oracle_line_clear(const OracleMap *m, int ax, int ay, int bx, int by, bool *corner_only)
{
    int x0 = ax < bx ? ax : bx, x1 = ax < bx ? bx : ax, y0 = ay < by ? ay : by, y1 = ay < by ? by : ay;
    bool any_interior = false, any_corner = false;
    for (int y = y0 - 1; y <= y1 + 1; y++)
        for (int x = x0 - 1; x <= x1 + 1; x++) {
            int how = oracle_segment_meets_cell(ax, ay, bx, by, x, y);
            if (!how || om_pass(m, x, y)) continue;
            if (how == 2) any_interior = true;
            else any_corner = true;
        }
    bool squeeze = false;
    if (any_corner && !any_interior) {
        /* a corner-only blocked cell squeezes when its diagonal partner at
        ** the same corner is blocked too */
        for (int y = y0 - 1; y <= y1 + 1 && !squeeze; y++)
            for (int x = x0 - 1; x <= x1 + 1 && !squeeze; x++) {
                if (oracle_segment_meets_cell(ax, ay, bx, by, x, y) != 1 || om_pass(m, x, y)) continue;
                for (int k = 0; k < 4 && !squeeze; k++) {
                    int cx = x + (k & 1), cy = y + (k >> 1); /* corner (cx, cy) in cell units */
                    /* does the segment pass through this corner? */
                    long nx = 2L * cx - (2L * ax + 1), ny = 2L * cy - (2L * ay + 1);
                    long ddx = 2L * (bx - ax), ddy = 2L * (by - ay);
                    if (nx * ddy - ny * ddx != 0) continue;
                    if (nx * ddx + ny * ddy < 0 || nx * ddx + ny * ddy > ddx * ddx + ddy * ddy) continue;
                    /* partner: the cell diagonally across that corner */
                    int px = (cx == x) ? x - 1 : x + 1, py = (cy == y) ? y - 1 : y + 1;
                    if (oracle_segment_meets_cell(ax, ay, bx, by, px, py) == 1 && !om_pass(m, px, py)) squeeze = true;
                }
            }
    }
    if (corner_only) *corner_only = any_corner && !any_interior && !squeeze;
    return !any_interior && !any_corner;
}

/* }======= */

#endif

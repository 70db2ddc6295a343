/*
** trace.c — the hull trace: a swept axis-aligned box against the map's
** edges, the world's cell columns and a list of dynamic boxes.
**
** Every solid piece is an axis-aligned box: a map edge is a half-space
** (unbounded on its other axes), a column gives one box per gap between its
** spans (the cell square times the open heights between one span's ceiling
** and the next one's z; a zero-height gap is a slab of no thickness), and a
** dynamic box is itself. On one axis, a moving box [lo + d t, hi + d t]
** overlaps a piece (a, b) while lo + d t < b and hi + d t > a: an open
** interval of t found with two products by 1 / d. The three axes' intervals meet in
** the piece's overlap interval; its start is the time of impact, and the
** axis that entered last is the face hit. Everything is in double.
**
** Which columns: the columns are walked in strips along the move's larger
** horizontal axis (p), in the order the box enters them; for each strip
** only the rows (along q) the box covers while inside the strip, and only
** up to the best hit so far, are read. A strip entered after the best hit
** ends the walk.
*/
#include "world/trace.h"

#include <math.h>
#include <string.h>

/* {======= swept intervals ======= */

/* An overlap shorter than this (a fraction of the move) is a graze along an
** edge the box only touches, blown up by rounding: not a hit. */
#define TRACE_GRAZE 1e-12
/* How many times a stopped box is pulled back by another NAV_TRACE_EPSILON
** when rounding its end to float put it into solid, before it is left at
** the start. */
#define TRACE_PULLBACK_TRIES 4

typedef enum HitKind { HIT_NONE = 0, HIT_COLUMN, HIT_EDGE, HIT_BOX } HitKind;

typedef struct Sweep {
    double lo[3], hi[3]; /* the box at the start */
    double d[3];         /* the move */
    double inv[3];       /* 1 / d (0 where d is 0): multiplying is 4x faster than dividing */
    double best;         /* earliest entry so far; 1 = nothing hit */
    double best_out;     /* when the box would leave what it hit */
    int axis;            /* axis the best hit entered on */
    HitKind kind;        /* what the best hit (or the start overlap) is */
    int index, cx, cy;
    bool start_solid;
} Sweep;

/* min and max of numbers that are never NaN (fmin and fmax are calls into
** libm without -ffinite-math-only). */
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* The open interval of t in which [lo + d t, hi + d t] overlaps (a, b), in
** *t0, *t1 (possibly empty: t0 >= t1). False when it never does (d = 0 and
** apart). a may be -INFINITY and b INFINITY; lo, hi and d are finite, inv
** is 1 / d: finite, as d is a difference of floats (at least 2^-149). The
** sign of each time is exact (that of a - hi or b - lo), so the test at
** t = 0 is the static one. */
static inline bool slab(double lo, double hi, double d, double inv, double a, double b, double *t0, double *t1)
{
    if (d > 0.0) {
        *t0 = (a - hi) * inv;
        *t1 = (b - lo) * inv;
        return true;
    }
    if (d < 0.0) {
        *t0 = (b - lo) * inv;
        *t1 = (a - hi) * inv;
        return true;
    }
    if (lo < b && hi > a) {
        *t0 = -INFINITY;
        *t1 = INFINITY;
        return true;
    }
    return false;
}

/* One solid piece, by its overlap interval on each axis. Keeps it when it is
** the earliest hit so far; returns true when the box starts inside it (the
** sweep is over: that is the answer). Of pieces entered at the same instant
** (a row of cells behind one face) the one the box would stay in longest is
** named, so the name is never a corner the box only clips; but the world
** keeps a tie against a dynamic box. */
static inline bool consider(Sweep *sw, const double t0[3], const double t1[3], HitKind kind, int index, int cx, int cy)
{
    /* Ties between axes: z, then x, then y. */
    int axis = 0;
    double tin = t0[0];
    if (t0[1] > tin) {
        tin = t0[1];
        axis = 1;
    }
    if (t0[2] >= tin) {
        tin = t0[2];
        axis = 2;
    }
    double tout = dmin(t1[0], dmin(t1[1], t1[2]));
    if (tin < 0.0) {
        /* Overlapping at t = 0: the sign of each t0, t1 is exactly that of
        ** the static test, so this agrees with world_box_fits. */
        if (!(tout > 0.0)) return false;
        sw->start_solid = true;
    } else if (!(tout - tin > TRACE_GRAZE)) {
        return false;
    } else if (!(tin < sw->best) && !(tin == sw->best && sw->kind != HIT_NONE && tout > sw->best_out &&
                                      (kind == HIT_BOX) == (sw->kind == HIT_BOX))) {
        return false;
    }
    sw->best = tin <= 0.0 ? 0.0 : tin; /* not -0 */
    sw->best_out = tout;
    sw->axis = axis;
    sw->kind = kind;
    sw->index = index;
    sw->cx = cx;
    sw->cy = cy;
    return sw->start_solid;
}

/* }======= */

/* {======= cells ======= */

/* The first cell k whose far side is past v ((k + 1) * s > v), clamped to
** 0 .. n (n: none). The floor is off by one at most; the products are the
** same doubles the slab tests use. */
static int first_cell(double v, double s, double inv_s, int n)
{
    double k = floor(v * inv_s);
    if ((k + 1.0) * s <= v) k += 1.0;
    else if (k * s > v) k -= 1.0;
    if (!(k > 0.0)) return 0;
    if (k > (double)n) return n;
    return (int)k;
}

/* The last cell k whose near side is before v (k * s < v), clamped to
** -1 (none) .. n - 1. */
static int last_cell(double v, double s, double inv_s, int n)
{
    double k = ceil(v * inv_s) - 1.0;
    if (k * s >= v) k -= 1.0;
    else if ((k + 1.0) * s < v) k += 1.0;
    if (!(k > -1.0)) return -1;
    if (k > (double)(n - 1)) return n - 1;
    return (int)k;
}

/* Widening of computed ranges of cells (only ever adds cells, which the
** exact tests then reject). */
static inline double margin(double v) { return 1e-9 * (1.0 + fabs(v)); }

/* Does the box [lo, hi] overlap the world's solid? The static form of the
** sweep below, with the same comparisons. */
static bool overlaps_world(const NavWorld *w, const double lo[3], const double hi[3])
{
    const double s = world_cell_size(w), inv_s = 1.0 / s;
    const int wd = world_width(w), ht = world_height(w);
    if (lo[0] < 0.0 || lo[1] < 0.0 || hi[0] > (double)wd * s || hi[1] > (double)ht * s) return true;
    const uint32_t *first;
    const NavFloor *floors = world_floor_store(w, &first);
    int x0 = first_cell(lo[0], s, inv_s, wd), x1 = last_cell(hi[0], s, inv_s, wd);
    int y0 = first_cell(lo[1], s, inv_s, ht), y1 = last_cell(hi[1], s, inv_s, ht);
    for (int cy = y0; cy <= y1; cy++) {
        for (int cx = x0; cx <= x1; cx++) {
            size_t col = (size_t)cy * (size_t)wd + (size_t)cx;
            const NavFloor *f = floors + first[col];
            int n = (int)(first[col + 1] - first[col]);
            for (int i = 0; i <= n; i++) {
                double a = i == 0 ? -INFINITY : (double)f[i - 1].ceiling;
                double b = i == n ? INFINITY : (double)f[i].z;
                if (lo[2] < b && hi[2] > a) return true;
            }
        }
    }
    return false;
}

static bool overlaps_boxes(const NavBox *boxes, int count, int ignore, const double lo[3], const double hi[3])
{
    for (int i = 0; i < count; i++) {
        if (i == ignore) continue;
        const NavBox *b = &boxes[i];
        bool in = true;
        for (int a = 0; a < 3 && in; a++)
            in = b->mins[a] <= b->maxs[a] && lo[a] < (double)b->maxs[a] && hi[a] > (double)b->mins[a];
        if (in) return true;
    }
    return false;
}

/* }======= */

/* {======= the sweep ======= */

static bool sweep_edges(Sweep *sw, double ex, double ey)
{
    const double far[2] = { ex, ey };
    for (int axis = 0; axis < 2; axis++) {
        for (int side = 0; side < 2; side++) {
            double t0[3] = { -INFINITY, -INFINITY, -INFINITY }, t1[3] = { INFINITY, INFINITY, INFINITY };
            double a = side ? far[axis] : -INFINITY, b = side ? INFINITY : 0.0;
            if (!slab(sw->lo[axis], sw->hi[axis], sw->d[axis], sw->inv[axis], a, b, &t0[axis], &t1[axis])) continue;
            if (consider(sw, t0, t1, HIT_EDGE, -1, -1, -1)) return true;
        }
    }
    return false;
}

static bool sweep_columns(Sweep *sw, const NavWorld *w)
{
    const uint32_t *first;
    const NavFloor *floors = world_floor_store(w, &first);
    const double s = world_cell_size(w), inv_s = 1.0 / s;
    const int n[2] = { world_width(w), world_height(w) };
    const int p = fabs(sw->d[0]) >= fabs(sw->d[1]) ? 0 : 1, q = 1 - p;

    double plo = sw->lo[p] + dmin(0.0, sw->d[p]), phi = sw->hi[p] + dmax(0.0, sw->d[p]);
    int k0 = first_cell(plo - margin(plo), s, inv_s, n[p]), k1 = last_cell(phi + margin(phi), s, inv_s, n[p]);
    if (k0 > k1) return false;
    int step = sw->d[p] < 0.0 ? -1 : 1;
    for (int k = step > 0 ? k0 : k1; k >= k0 && k <= k1; k += step) {
        double t0[3], t1[3];
        if (!slab(sw->lo[p], sw->hi[p], sw->d[p], sw->inv[p], (double)k * s, (double)(k + 1) * s, &t0[p], &t1[p]))
            continue;
        /* Strips come in the order the box enters them (d[p] = 0: all at
        ** once, t0 = -inf): past the best hit, so are all the rest. One
        ** entered at the very instant may hold a tie (see consider). */
        if (t0[p] > sw->best) break;
        if (!(t1[p] > 0.0)) continue;
        /* The rows the box covers while in this strip, until the best hit.
        ** From t = 0 at the earliest, so overlaps at the start are seen. */
        double ta = dmax(t0[p], 0.0), tb = dmin(t1[p], sw->best);
        double qa = sw->d[q] * ta, qb = sw->d[q] * tb;
        double qlo = sw->lo[q] + dmin(qa, qb), qhi = sw->hi[q] + dmax(qa, qb);
        int c0 = first_cell(qlo - margin(qlo), s, inv_s, n[q]), c1 = last_cell(qhi + margin(qhi), s, inv_s, n[q]);
        for (int c = c0; c <= c1; c++) {
            if (!slab(sw->lo[q], sw->hi[q], sw->d[q], sw->inv[q], (double)c * s, (double)(c + 1) * s, &t0[q], &t1[q]))
                continue;
            int cx = p == 0 ? k : c, cy = p == 0 ? c : k;
            size_t col = (size_t)cy * (size_t)n[0] + (size_t)cx;
            const NavFloor *f = floors + first[col];
            int nf = (int)(first[col + 1] - first[col]);
            /* Gap i is the solid under span i (over span i - 1); below a
            ** void and above an open sky it is empty. */
            for (int i = 0; i <= nf; i++) {
                double a = i == 0 ? -INFINITY : (double)f[i - 1].ceiling;
                double b = i == nf ? INFINITY : (double)f[i].z;
                if (b == -INFINITY || a == INFINITY) continue;
                if (!slab(sw->lo[2], sw->hi[2], sw->d[2], sw->inv[2], a, b, &t0[2], &t1[2])) continue;
                if (consider(sw, t0, t1, HIT_COLUMN, -1, cx, cy)) return true;
            }
        }
    }
    return false;
}

static bool sweep_boxes(Sweep *sw, const NavBox *boxes, int count, int ignore)
{
    for (int i = 0; i < count; i++) {
        if (i == ignore) continue;
        const NavBox *b = &boxes[i];
        double t0[3], t1[3];
        bool ok = true;
        for (int a = 0; a < 3 && ok; a++)
            ok = b->mins[a] <= b->maxs[a] &&
                 slab(sw->lo[a], sw->hi[a], sw->d[a], sw->inv[a], b->mins[a], b->maxs[a], &t0[a], &t1[a]);
        if (ok && consider(sw, t0, t1, HIT_BOX, i, -1, -1)) return true;
    }
    return false;
}

/* }======= */

/* {======= API ======= */

static void set_what(NavTrace *out, HitKind kind, int index, int cx, int cy)
{
    out->is_static = kind == HIT_COLUMN || kind == HIT_EDGE;
    out->box = kind == HIT_BOX ? index : -1;
    out->cell[0] = kind == HIT_COLUMN ? cx : -1;
    out->cell[1] = kind == HIT_COLUMN ? cy : -1;
}

void world_trace_box(const NavWorld *w, const float mins[3], const float maxs[3], const float start[3],
                     const float delta[3], const NavBox *boxes, int count, int ignore, NavTrace *out)
{
    NAV_ASSERT(count <= 0 || boxes);
    NAV_ASSERT(!(mins[0] >= maxs[0]) && !(mins[1] >= maxs[1]) && !(mins[2] > maxs[2]));
    if (count < 0 || !boxes) count = 0;

    memset(out, 0, sizeof *out);
    out->box = -1;
    out->cell[0] = out->cell[1] = -1;

    Sweep sw = { .best = 1.0, .axis = -1, .kind = HIT_NONE, .index = -1, .cx = -1, .cy = -1 };
    float end1[3];
    bool finite = true;
    for (int i = 0; i < 3; i++) {
        end1[i] = start[i] + delta[i];
        finite = finite && isfinite(start[i]) && isfinite(end1[i]) && isfinite(mins[i]) && isfinite(maxs[i]);
        sw.lo[i] = (double)start[i] + (double)mins[i];
        sw.hi[i] = (double)start[i] + (double)maxs[i];
        sw.d[i] = (double)end1[i] - (double)start[i];
        sw.inv[i] = sw.d[i] != 0.0 ? 1.0 / sw.d[i] : 0.0;
    }
    if (!finite) {
        out->hit = out->start_solid = true;
        memcpy(out->end, start, sizeof out->end);
        return;
    }

    const double s = world_cell_size(w);
    if (!sweep_edges(&sw, (double)world_width(w) * s, (double)world_height(w) * s) && !sweep_columns(&sw, w))
        sweep_boxes(&sw, boxes, count, ignore);

    if (sw.start_solid) {
        out->hit = out->start_solid = true;
        memcpy(out->end, start, sizeof out->end);
        set_what(out, sw.kind, sw.index, sw.cx, sw.cy);
        return;
    }
    if (sw.kind == HIT_NONE) {
        out->fraction = out->touch = 1.0f;
        memcpy(out->end, end1, sizeof out->end);
        return;
    }

    /* Leave the box NAV_TRACE_EPSILON off the face along its normal, and make
    ** sure the float end is clear of everything (rounding a coordinate may
    ** push the box into a face it was running along). */
    const double below_one = (double)nextafterf(1.0f, 0.0f);
    double back = (double)NAV_TRACE_EPSILON / fabs(sw.d[sw.axis]);
    double f = sw.best - back;
    for (int tries = 0;; tries++) {
        if (!(f > 0.0) || tries == TRACE_PULLBACK_TRIES) {
            f = 0.0;
            memcpy(out->end, start, sizeof out->end);
            break;
        }
        double lo[3], hi[3];
        for (int i = 0; i < 3; i++) {
            out->end[i] = (float)((double)start[i] + sw.d[i] * f);
            lo[i] = (double)out->end[i] + (double)mins[i];
            hi[i] = (double)out->end[i] + (double)maxs[i];
        }
        if (!overlaps_world(w, lo, hi) && !overlaps_boxes(boxes, count, ignore, lo, hi)) break;
        f -= back;
    }
    out->hit = true;
    out->fraction = (float)dmin(f, below_one);
    out->touch = (float)dmin(sw.best, below_one);
    out->normal[sw.axis] = sw.d[sw.axis] > 0.0 ? -1.0f : 1.0f;
    set_what(out, sw.kind, sw.index, sw.cx, sw.cy);
}

bool world_box_fits(const NavWorld *w, const float mins[3], const float maxs[3], const float origin[3])
{
    NAV_ASSERT(!(mins[0] >= maxs[0]) && !(mins[1] >= maxs[1]) && !(mins[2] > maxs[2]));
    double lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        if (!isfinite(origin[i]) || !isfinite(mins[i]) || !isfinite(maxs[i])) return false;
        lo[i] = (double)origin[i] + (double)mins[i];
        hi[i] = (double)origin[i] + (double)maxs[i];
    }
    return !overlaps_world(w, lo, hi);
}

/* }======= */

/*
** short_oracle.h — the brute-force side of test_grid_short.c: small maps,
** the short-range search's visibility graph rebuilt cell by cell from
** grid_passable (nothing shared with grid_short.c), exact segment tests
** against every impassable cell and grown square, a plain O(V^2) Dijkstra,
** dense sampling of returned paths, and the check that runs a query and
** compares it with all of that.
**
** Visibility in the oracle: a segment may not enter a grown square unless
** it starts inside it, and may not touch an impassable cell at all, not
** even at a corner (the search counts every cell around a grid point it
** passes through, so a path never squeezes between two impassable cells
** meeting at a corner). Starts are on passable cells.
**
** Only test_grid_short.c includes it.
*/
#ifndef NAV_TEST_SHORT_ORACLE_H
#define NAV_TEST_SHORT_ORACLE_H

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "test_support.h"

#include "grid/grid.h"
#include "grid/grid_search.h"
#include "grid/grid_short.h"
#include "map/map.h"

#include "grid_oracle.h"

#define PI 3.14159265358979323846
#define CAP 256
#define MAXV 1024
#define MAXSQ 40
#define LEN_TOL 1e-6

/* {======= helpers ======= */

typedef struct Tally {
    int failures, checked;
    int fewer; /* queries whose graph left out corners the oracle has (the reach raster) */
    char first[900];
} Tally;

__attribute__((format(printf, 2, 3))) static void fail(Tally *t, const char *fmt, ...)
{
    if (t->failures < 6) {
        char msg[900];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (t->failures == 0) memcpy(t->first, msg, sizeof msg);
        cr_log_error("%s", msg);
    }
    t->failures++;
}

#define TALLY_OK(t) \
    cr_assert_eq((t).failures, 0, "%d failures in %d checks; first: %s", (t).failures, (t).checked, (t).first)

static const char CLASSES[] = "classes = { { name = 'point', radius = 0 }, { name = 'wide', radius = 0.9 } }";

/* rows: north row first, each ending in '\n'. */
static NavWorld *load_rows(const char *rows, double cell)
{
    size_t cap = strlen(rows) + sizeof CLASSES + 256;
    char *src = malloc(cap);
    snprintf(src, cap, "return { cell_size = %g, layers = { { z = 0, rows = [[\n%s]] } },\n  %s }\n", cell, rows,
             CLASSES);
    NavError err;
    char buf[1024];
    NavWorld *w = map_load_buffer(src, strlen(src), "short.lua", NULL, &err);
    cr_assert_not_null(w, "map fails to load: %s\n%s", nav_error_format(&err, buf, sizeof buf), src);
    free(src);
    return w;
}

/* w x h cells: '#' with the given density and a few wall runs. */
static char *random_rows(OracleRng *r, int w, int h, double density)
{
    char *cells = malloc((size_t)w * (size_t)h);
    for (int i = 0; i < w * h; i++) cells[i] = orng_unit(r) < density ? '#' : '.';
    int runs = 1 + orng_int(r, 4);
    for (int i = 0; i < runs; i++) {
        int x = orng_int(r, w), y = orng_int(r, h), len = 3 + orng_int(r, w / 2);
        bool vertical = orng_int(r, 2);
        for (int k = 0; k < len; k++) {
            int cx = x + (vertical ? 0 : k), cy = y + (vertical ? k : 0);
            if (cx < w && cy < h) cells[cy * w + cx] = '#';
        }
    }
    char *rows = malloc((size_t)(w + 1) * (size_t)h + 1);
    int n = 0;
    for (int y = 0; y < h; y++) {
        memcpy(rows + n, cells + (size_t)y * (size_t)w, (size_t)w);
        n += w;
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    free(cells);
    return rows;
}

typedef struct Ctx {
    NavWorld *world;
    NavGrid *g;
    GridShortSearch *s;
    int cls;
    double cs;
    GridShortPoint buf[CAP];
} Ctx;

static Ctx *ctx_open(NavWorld *w, const char *cls)
{
    Ctx *c = calloc(1, sizeof *c);
    NavError err;
    c->world = w;
    c->g = grid_create(w, NULL, &err);
    cr_assert_not_null(c->g, "grid_create: %s", err.message);
    c->s = grid_short_create(c->g, &err);
    cr_assert_not_null(c->s, "grid_short_create: %s", err.message);
    c->cls = grid_find_class(c->g, cls);
    cr_assert_geq(c->cls, 0, "no class %s", cls);
    c->cs = grid_cell_size(c->g);
    return c;
}

static void ctx_close(Ctx *c)
{
    grid_short_destroy(c->s);
    grid_destroy(c->g);
    world_destroy(c->world);
    free(c);
}

static bool pass_at(const Ctx *c, int x, int y)
{
    return x >= 0 && y >= 0 && x < grid_width(c->g) && y < grid_height(c->g) && grid_passable(c->g, c->cls, x, y);
}

/* }======= */

/* {======= the oracle ======= */

/* Nearest point of the goal to (x, y) and the distance; a plain
** restatement of the shapes (inverted goals: nearest point of the outline
** from inside). */
static double o_goal_nearest(const GridGoal *gl, double x, double y, double *px, double *py)
{
    double cx = gl->x, cy = gl->y;
    if (gl->type == GRID_GOAL_POINT) {
        *px = cx;
        *py = cy;
        return hypot(x - cx, y - cy);
    }
    if (gl->type == GRID_GOAL_CIRCLE || gl->type == GRID_GOAL_INV_CIRCLE) {
        double d = hypot(x - cx, y - cy), r = gl->r;
        bool inv = gl->type == GRID_GOAL_INV_CIRCLE;
        if (inv ? d >= r : d <= r) {
            *px = x;
            *py = y;
            return 0.0;
        }
        double ux = d > 0 ? (x - cx) / d : 1.0, uy = d > 0 ? (y - cy) / d : 0.0;
        *px = cx + ux * r;
        *py = cy + uy * r;
        return fabs(d - r);
    }
    /* squares: in the square's frame */
    double c = cos(gl->angle), s = sin(gl->angle);
    double lx = (x - cx) * c + (y - cy) * s, ly = -(x - cx) * s + (y - cy) * c;
    double nx = lx, ny = ly;
    if (gl->type == GRID_GOAL_SQUARE) {
        if (nx < -gl->hw) nx = -gl->hw;
        if (nx > gl->hw) nx = gl->hw;
        if (ny < -gl->hh) ny = -gl->hh;
        if (ny > gl->hh) ny = gl->hh;
    } else if (fabs(lx) < gl->hw && fabs(ly) < gl->hh) {
        if (gl->hw - fabs(lx) <= gl->hh - fabs(ly)) nx = lx < 0 ? -gl->hw : gl->hw;
        else ny = ly < 0 ? -gl->hh : gl->hh;
    }
    *px = cx + nx * c - ny * s;
    *py = cy + nx * s + ny * c;
    return hypot(nx - lx, ny - ly);
}

static double o_goal_dist(const GridGoal *gl, double x, double y)
{
    double px, py;
    return o_goal_nearest(gl, x, y, &px, &py);
}

typedef struct Oracle {
    const Ctx *c;
    double bx0, by0, bx1, by1, eps;
    double sq[MAXSQ][4];
    bool sq_start[MAXSQ];
    int nsq;
    double vx[MAXV], vy[MAXV];
    int nv;
    double dist[MAXV];
    int from[MAXV];
    bool reachable; /* the goal */
    double goal_len;
    double approach; /* unreachable: least distance to the goal of a reachable end */
} Oracle;

static bool o_in_open_box(double x, double y, const double *b) { return x > b[0] && x < b[2] && y > b[1] && y < b[3]; }

/* Does segment a-b meet the box (open: its inside; closed: its outline
** too)? The parameter interval where the segment is inside both slabs,
** intersected with [0, 1]. */
static bool o_seg_box(double ax, double ay, double bx, double by, const double *b, bool closed)
{
    double lo = 0.0, hi = 1.0;
    double a[2] = { ax, ay }, d[2] = { bx - ax, by - ay };
    for (int k = 0; k < 2; k++) {
        double mn = b[k], mx = b[k + 2];
        if (d[k] == 0.0) {
            if (closed ? (a[k] < mn || a[k] > mx) : (a[k] <= mn || a[k] >= mx)) return false;
            continue;
        }
        double t0 = (mn - a[k]) / d[k], t1 = (mx - a[k]) / d[k];
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        if (t0 > lo) lo = t0;
        if (t1 < hi) hi = t1;
    }
    return closed ? lo <= hi : lo < hi;
}

/* Visibility for a start on a passable cell: no grown square entered, no
** impassable cell touched, even at a corner (a segment through a grid
** point may not squeeze between two impassable cells that meet there; the
** search counts every cell at a corner it passes through). */
static bool o_visible(const Oracle *o, double ax, double ay, double bx, double by)
{
    if (ax == bx && ay == by) return true;
    for (int i = 0; i < o->nsq; i++) {
        if (o->sq_start[i] && o_in_open_box(ax, ay, o->sq[i])) continue;
        if (o_seg_box(ax, ay, bx, by, o->sq[i], false)) return false;
    }
    double cs = o->c->cs;
    int x0 = (int)floor(fmin(ax, bx) / cs) - 1, x1 = (int)floor(fmax(ax, bx) / cs) + 1;
    int y0 = (int)floor(fmin(ay, by) / cs) - 1, y1 = (int)floor(fmax(ay, by) / cs) + 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (pass_at(o->c, x, y)) continue;
            double b[4] = { x * cs, y * cs, (x + 1) * cs, (y + 1) * cs };
            if (o_seg_box(ax, ay, bx, by, b, true)) return false;
        }
    return true;
}

static void o_add(Oracle *o, double x, double y, bool start_blocked)
{
    if (!(x > o->bx0 && x < o->bx1 && y > o->by0 && y < o->by1)) return;
    if (!start_blocked && !pass_at(o->c, (int)floor(x / o->c->cs), (int)floor(y / o->c->cs))) return;
    for (int i = 0; i < o->nsq; i++)
        if (!o->sq_start[i] && o_in_open_box(x, y, o->sq[i])) return;
    cr_assert_lt(o->nv, MAXV, "oracle: too many vertices");
    o->vx[o->nv] = x;
    o->vy[o->nv] = y;
    o->nv++;
}

static void oracle_build(Oracle *o, const Ctx *c, const GridShortQuery *q)
{
    memset(o, 0, sizeof *o);
    o->c = c;
    double cs = c->cs, W = grid_width(c->g) * cs, H = grid_height(c->g) * cs;
    o->eps = cs / 64.0;
    o->bx0 = fmax(q->sx - (double)q->range, 0.0);
    o->by0 = fmax(q->sy - (double)q->range, 0.0);
    o->bx1 = fmin(q->sx + (double)q->range, W);
    o->by1 = fmin(q->sy + (double)q->range, H);
    for (int i = 0; i < q->square_count; i++) {
        double h = (double)q->squares[i].half + q->clearance;
        double *b = o->sq[o->nsq];
        b[0] = q->squares[i].x - h;
        b[1] = q->squares[i].y - h;
        b[2] = q->squares[i].x + h;
        b[3] = q->squares[i].y + h;
        o->sq_start[o->nsq] = o_in_open_box(q->sx, q->sy, b);
        o->nsq++;
    }
    bool start_blocked = !pass_at(c, (int)floor(q->sx / cs), (int)floor(q->sy / cs));
    o->vx[0] = q->sx;
    o->vy[0] = q->sy;
    o->nv = 1;
    /* corners: grid points with exactly one impassable cell of the four */
    for (int Y = 0; Y <= grid_height(c->g); Y++)
        for (int X = 0; X <= grid_width(c->g); X++) {
            bool sw = !pass_at(c, X - 1, Y - 1), se = !pass_at(c, X, Y - 1);
            bool nw = !pass_at(c, X - 1, Y), ne = !pass_at(c, X, Y);
            if (sw + se + nw + ne != 1) continue;
            double dx = (sw || nw) ? 1 : -1, dy = (sw || se) ? 1 : -1; /* away from the blocked one */
            o_add(o, X * cs + dx * o->eps, Y * cs + dy * o->eps, start_blocked);
        }
    for (int i = 0; i < o->nsq; i++) {
        const double *b = o->sq[i];
        double e = o->eps;
        o_add(o, b[0] - e, b[1] - e, start_blocked);
        o_add(o, b[2] + e, b[1] - e, start_blocked);
        o_add(o, b[2] + e, b[3] + e, start_blocked);
        o_add(o, b[0] - e, b[3] + e, start_blocked);
    }
}

/* Dijkstra over every vertex, then the best goal leg; the best approach
** when no leg reaches the goal. */
static void oracle_solve(Oracle *o, const GridGoal *goal)
{
    bool done[MAXV] = { false };
    for (int i = 0; i < o->nv; i++) o->dist[i] = INFINITY;
    o->dist[0] = 0.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < o->nv; i++)
            if (!done[i] && isfinite(o->dist[i]) && (u < 0 || o->dist[i] < o->dist[u])) u = i;
        if (u < 0) break;
        done[u] = true;
        for (int v = 0; v < o->nv; v++) {
            if (done[v]) continue;
            double nd = o->dist[u] + hypot(o->vx[v] - o->vx[u], o->vy[v] - o->vy[u]);
            if (nd < o->dist[v] && o_visible(o, o->vx[u], o->vy[u], o->vx[v], o->vy[v])) {
                o->dist[v] = nd;
                o->from[v] = u;
            }
        }
    }
    o->reachable = false;
    o->goal_len = INFINITY;
    o->approach = INFINITY;
    for (int u = 0; u < o->nv; u++) {
        if (!isfinite(o->dist[u])) continue;
        double px, py;
        double d = o_goal_nearest(goal, o->vx[u], o->vy[u], &px, &py);
        o->approach = fmin(o->approach, d);
        double cx = fmin(fmax(px, o->bx0 + o->eps), o->bx1 - o->eps);
        double cy = fmin(fmax(py, o->by0 + o->eps), o->by1 - o->eps);
        if (!o_visible(o, o->vx[u], o->vy[u], cx, cy)) continue;
        if (cx == px && cy == py) {
            o->reachable = true;
            o->goal_len = fmin(o->goal_len, o->dist[u] + d);
        } else {
            o->approach = fmin(o->approach, o_goal_dist(goal, cx, cy));
        }
    }
}

/* Dense sampling of a returned path: every sample's cell passable once the
** path has stood on a passable cell, no sample inside a grown square other
** than those holding the start, and those only until the path left them.
** Returns NULL or what is wrong. */
static const char *sample_path(const Ctx *c, const GridShortQuery *q, const GridShortPath *p, char *why, size_t cap)
{
    double cs = c->cs;
    bool on_open = pass_at(c, (int)floor(q->sx / cs), (int)floor(q->sy / cs));
    bool left[MAXSQ] = { false };
    for (int i = 0; i + 1 < p->count; i++) {
        double ax = p->points[i].x, ay = p->points[i].y, bx = p->points[i + 1].x, by = p->points[i + 1].y;
        double len = hypot(bx - ax, by - ay);
        int n = (int)ceil(len / (cs / 200.0)) + 1;
        for (int k = 0; k <= n; k++) {
            double t = (double)k / n, x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
            bool open = pass_at(c, (int)floor(x / cs), (int)floor(y / cs));
            if (on_open && !open) {
                snprintf(why, cap, "leg %d at (%.5f, %.5f) is on an impassable cell", i, x, y);
                return why;
            }
            on_open = on_open || open;
            for (int j = 0; j < q->square_count; j++) {
                double h = (double)q->squares[j].half + q->clearance - 1e-6;
                bool in = fabs(x - q->squares[j].x) < h && fabs(y - q->squares[j].y) < h;
                bool holds_start = fabs(q->sx - q->squares[j].x) < h + 1e-6 && fabs(q->sy - q->squares[j].y) < h + 1e-6;
                if (!in) {
                    left[j] = true;
                    continue;
                }
                if (holds_start && !left[j]) continue;
                snprintf(why, cap, "leg %d at (%.5f, %.5f) is inside square %d (%.3f, %.3f) grown half %.3f", i, x, y,
                         j, q->squares[j].x, q->squares[j].y, h);
                return why;
            }
        }
    }
    return NULL;
}

static double polyline_length(const GridShortPath *p)
{
    double len = 0.0;
    for (int i = 1; i < p->count; i++)
        len += hypot((double)p->points[i].x - p->points[i - 1].x, (double)p->points[i].y - p->points[i - 1].y);
    return len;
}

static const char *query_str(const GridShortQuery *q, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "from (%.4f, %.4f) range %.3f, %s goal (%.4f, %.4f) r %.3f hw %.3f hh %.3f angle %.3f, %d squares", q->sx,
             q->sy, q->range, grid_goal_type_name(q->goal.type), q->goal.x, q->goal.y, q->goal.r, q->goal.hw,
             q->goal.hh, q->goal.angle, q->square_count);
    return buf;
}

typedef struct VertexList {
    float x[MAXV], y[MAXV];
    int n;
} VertexList;

static void collect_vertex(void *user, float x, float y, GridShortVertexKind kind, bool reached, bool expanded)
{
    (void)kind;
    (void)reached;
    (void)expanded;
    VertexList *l = user;
    if (l->n < MAXV) {
        l->x[l->n] = x;
        l->y[l->n] = y;
        l->n++;
    }
}

/* The search's vertices must be the oracle's, less some it cannot reach
** (its reach raster leaves those out): NULL, or the first that breaks the
** rule. */
static const char *vertex_diff(const Ctx *c, const Oracle *o, char *out, size_t cap)
{
    VertexList *l = calloc(1, sizeof *l);
    grid_short_visit(c->s, &(GridShortVisitor){ .vertex = collect_vertex, .user = l });
    const char *bad = NULL;
    for (int i = 0; i < o->nv && !bad; i++) {
        bool seen = false;
        for (int k = 0; k < l->n && !seen; k++)
            seen = fabs(l->x[k] - o->vx[i]) < 1e-4 && fabs(l->y[k] - o->vy[i]) < 1e-4;
        if (!seen && isfinite(o->dist[i]))
            bad = (snprintf(out, cap, "the search lacks (%.5f, %.5f), %.5f from the start", o->vx[i], o->vy[i],
                            o->dist[i]),
                   out);
    }
    for (int k = 0; k < l->n && !bad; k++) {
        bool seen = false;
        for (int i = 0; i < o->nv && !seen; i++)
            seen = fabs(l->x[k] - o->vx[i]) < 1e-4 && fabs(l->y[k] - o->vy[i]) < 1e-4;
        if (!seen) bad = (snprintf(out, cap, "the oracle lacks (%.5f, %.5f)", l->x[k], l->y[k]), out);
    }
    free(l);
    return bad;
}

/* Both paths, for a failure's log. */
static void log_paths(const Oracle *o, const GridShortPath *p, const GridShortQuery *q)
{
    for (int i = 0; i < p->count; i++) cr_log_error("  search %d: (%.6f, %.6f)", i, p->points[i].x, p->points[i].y);
    int best = -1;
    double len = INFINITY;
    for (int u = 0; u < o->nv; u++) {
        double px, py;
        double d = o_goal_nearest(&q->goal, o->vx[u], o->vy[u], &px, &py);
        if (isfinite(o->dist[u]) && o->dist[u] + d < len && o_visible(o, o->vx[u], o->vy[u], px, py)) {
            len = o->dist[u] + d;
            best = u;
        }
    }
    for (int u = best; u >= 0; u = u ? o->from[u] : -1)
        cr_log_error("  oracle: (%.6f, %.6f) at %.6f", o->vx[u], o->vy[u], o->dist[u]);
    for (int i = 0; i < q->square_count; i++)
        cr_log_error("  square (%.4f, %.4f) grown half %.4f", q->squares[i].x, q->squares[i].y,
                     q->squares[i].half + q->clearance);
}

/* Run q and check it against the oracle. Returns the path's flags. */
static uint32_t check_query(Ctx *c, const GridShortQuery *q, Tally *t, const char *label)
{
    char qs[400], why[300];
    query_str(q, qs, sizeof qs);
    t->checked++;
    GridShortPath p = { .points = c->buf, .cap = CAP };
    NavError err;
    NavStatus st = grid_short_find_path(c->s, q, &p, &err);
    if (!NAV_SUCCEEDED(st)) {
        fail(t, "%s: %s: status 0x%x: %s", label, qs, st, err.message);
        return 0;
    }
    Oracle *o = malloc(sizeof *o);
    oracle_build(o, c, q);
    oracle_solve(o, &q->goal);
    uint32_t flags = p.flags;
    char diff[200];
    if (p.vertices < (uint32_t)o->nv) t->fewer++;
    if (vertex_diff(c, o, diff, sizeof diff))
        fail(t, "%s: %s: %u vertices, the oracle has %d; %s", label, qs, p.vertices, o->nv, diff);
    if (p.count < 1 || p.points[0].x != q->sx || p.points[0].y != q->sy)
        fail(t, "%s: %s: the path does not start at the start", label, qs);
    if (fabs(polyline_length(&p) - p.length) > 1e-3)
        fail(t, "%s: %s: length %.6f, its points add up to %.6f", label, qs, p.length, polyline_length(&p));
    if (sample_path(c, q, &p, why, sizeof why)) fail(t, "%s: %s: %s", label, qs, why);
    if (o->reachable != ((flags & GRID_SHORT_FOUND) != 0)) {
        fail(t, "%s: %s: flags 0x%x, the oracle %s (length %.6f)", label, qs, flags,
             o->reachable ? "reaches the goal" : "does not", o->goal_len);
        if (t->failures <= 2) log_paths(o, &p, q);
    } else if (o->reachable) {
        double end_d = o_goal_dist(&q->goal, p.points[p.count - 1].x, p.points[p.count - 1].y);
        if (fabs(p.length - o->goal_len) > LEN_TOL + 1e-6 * o->goal_len) {
            fail(t, "%s: %s: length %.9f, the oracle's %.9f", label, qs, p.length, o->goal_len);
            if (t->failures <= 2) log_paths(o, &p, q);
        }
        if (end_d > 1e-4) fail(t, "%s: %s: the end is %.6f m from the goal", label, qs, end_d);
    } else {
        if (!(flags & GRID_SHORT_UNREACHABLE))
            fail(t, "%s: %s: not found and not flagged unreachable (0x%x)", label, qs, flags);
        double end_d = o_goal_dist(&q->goal, p.points[p.count - 1].x, p.points[p.count - 1].y);
        if (fabs(end_d - p.end_distance) > 1e-4)
            fail(t, "%s: %s: end_distance %.6f, the end is %.6f away", label, qs, p.end_distance, end_d);
        if (end_d > o->approach + 1e-5) /* the end is stored in floats */
            fail(t, "%s: %s: ends %.6f m from the goal, the oracle gets within %.6f", label, qs, end_d, o->approach);
    }
    free(o);
    return flags;
}

static GridGoal random_goal(OracleRng *r, double sx, double sy, double spread)
{
    double gx = sx + orng_range(r, -spread, spread), gy = sy + orng_range(r, -spread, spread);
    switch (orng_int(r, 5)) {
    case 0: return grid_goal_point((float)gx, (float)gy);
    case 1: return grid_goal_circle((float)gx, (float)gy, (float)orng_range(r, 0.2, 3.0), false);
    case 2:
        return grid_goal_square((float)gx, (float)gy, (float)orng_range(r, 0.2, 2.5), (float)orng_range(r, 0.2, 2.5),
                                (float)orng_range(r, 0, PI), false);
    case 3:
        return grid_goal_circle((float)(sx + orng_range(r, -1, 1)), (float)(sy + orng_range(r, -1, 1)),
                                (float)orng_range(r, 1.0, 5.0), true);
    default:
        return grid_goal_square((float)(sx + orng_range(r, -1, 1)), (float)(sy + orng_range(r, -1, 1)),
                                (float)orng_range(r, 1.0, 4.0), (float)orng_range(r, 1.0, 4.0),
                                (float)orng_range(r, 0, PI), true);
    }
}

/* }======= */

#endif

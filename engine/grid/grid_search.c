/*
** grid_search.c — A* with jump point search, the textbook A* baseline,
** sliced searches, path extraction, line of sight and smoothing.
**
** Jump point search under the no-corner-cutting rule (the rule of the
** Moving AI benchmarks):
**   - a straight scan east from a cell stops at a jump point c when the cell
**     beside c is open while the one beside c - 1 was blocked (a diagonal
**     path round that corner cannot bypass c), at the goal, or dies at a
**     wall;
**   - a diagonal step needs both orthogonal cells open; at every diagonal
**     cell two straight scans run, and the cell is a jump point if either
**     finds something;
**   - diagonal arrivals have no forced neighbours under this rule (the
**     cells behind are open, or the step would not have been allowed).
** Straight scans read 63 cells per step: a row's bits, its two neighbours'
** bits and a count-trailing-zeros find the first wall or forced neighbour.
** Vertical scans do the same on the transposed grid.
**
** Search state is per cell, stamped with a search generation so nothing is
** cleared between searches; the open list is a binary heap ordered on
** (f, h, cell index), which makes every result repeatable.
*/
#include "grid/grid_goal.h"
#include "grid/grid_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ST_OPEN 1u
#define ST_CLOSED 2u
#define NONE UINT32_MAX

struct GridSearch {
    const NavGrid *g;
    int w, h;
    size_t cells;
    /* per cell */
    double *gcost;
    double *f;
    double *hcost;
    uint32_t *parent;
    uint32_t *state;        /* generation << 2 | ST_* */
    uint32_t *heap_pos;
    /* open list */
    uint32_t *heap;
    uint32_t heap_size;
    uint32_t generation;
    /* goal spans per row and column (area goals) */
    int *row_lo, *row_hi, *col_lo, *col_hi;
    /* the current query */
    GridQuery q;
    GoalCells goal;
    int cls;
    int sx, sy;              /* search start (after stepping out of a blocked cell) */
    int osx, osy;            /* the caller's start */
    uint32_t flags;
    uint32_t found;          /* goal node, or NONE */
    uint32_t best;           /* node with the lowest h so far */
    bool active;
    uint32_t expanded, generated, touched;
};

/* {======= state ======= */

GridSearch *grid_search_create(const NavGrid *g, NavError *err)
{
    GridSearch *s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->g = g;
    s->w = g->w;
    s->h = g->h;
    s->cells = (size_t)g->w * (size_t)g->h;
    s->gcost = malloc(s->cells * sizeof *s->gcost);
    s->f = malloc(s->cells * sizeof *s->f);
    s->hcost = malloc(s->cells * sizeof *s->hcost);
    s->parent = malloc(s->cells * sizeof *s->parent);
    s->state = calloc(s->cells, sizeof *s->state);
    s->heap_pos = malloc(s->cells * sizeof *s->heap_pos);
    s->heap = malloc(s->cells * sizeof *s->heap);
    s->row_lo = malloc((size_t)g->h * sizeof(int));
    s->row_hi = malloc((size_t)g->h * sizeof(int));
    s->col_lo = malloc((size_t)g->w * sizeof(int));
    s->col_hi = malloc((size_t)g->w * sizeof(int));
    if (!s->gcost || !s->f || !s->hcost || !s->parent || !s->state || !s->heap_pos || !s->heap || !s->row_lo ||
        !s->row_hi || !s->col_lo || !s->col_hi)
        goto nomem;
    return s;
nomem:
    grid_search_destroy(s);
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the search state");
    return NULL;
}

void grid_search_destroy(GridSearch *s)
{
    if (!s) return;
    free(s->gcost);
    free(s->f);
    free(s->hcost);
    free(s->parent);
    free(s->state);
    free(s->heap_pos);
    free(s->heap);
    free(s->row_lo);
    free(s->row_hi);
    free(s->col_lo);
    free(s->col_hi);
    free(s);
}

size_t grid_search_memory(const GridSearch *s)
{
    return sizeof *s + s->cells * (3 * sizeof(double) + 4 * sizeof(uint32_t)) +
           2 * ((size_t)s->w + (size_t)s->h) * sizeof(int);
}

static inline bool touched_now(const GridSearch *s, uint32_t i) { return (s->state[i] >> 2) == s->generation; }
static inline uint32_t st(const GridSearch *s, uint32_t i) { return touched_now(s, i) ? (s->state[i] & 3u) : 0u; }

/* }======= */

/* {======= open list: binary heap on (f, h, index) ======= */

static inline bool before(const GridSearch *s, uint32_t a, uint32_t b)
{
    if (s->f[a] != s->f[b]) return s->f[a] < s->f[b];
    if (s->hcost[a] != s->hcost[b]) return s->hcost[a] < s->hcost[b];
    return a < b;
}

static void sift_up(GridSearch *s, uint32_t pos)
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

static void sift_down(GridSearch *s, uint32_t pos)
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

static uint32_t pop(GridSearch *s)
{
    uint32_t top = s->heap[0];
    s->heap_size--;
    if (s->heap_size > 0) {
        s->heap[0] = s->heap[s->heap_size];
        sift_down(s, 0);
    }
    return top;
}

/* Offer node i at cost gval through parent p. */
static void relax(GridSearch *s, uint32_t i, double gval, uint32_t p)
{
    uint32_t state = st(s, i);
    if (state == ST_CLOSED) return;
    if (state == 0) {
        int x = (int)(i % (uint32_t)s->w), y = (int)(i / (uint32_t)s->w);
        s->hcost[i] = goal_heuristic(&s->goal, x, y);
        s->gcost[i] = gval;
        s->f[i] = gval + s->hcost[i];
        s->parent[i] = p;
        s->state[i] = (s->generation << 2) | ST_OPEN;
        s->heap[s->heap_size] = i;
        s->heap_size++;
        sift_up(s, s->heap_size - 1);
        s->generated++;
        s->touched++;
        if (s->best == NONE || s->hcost[i] < s->hcost[s->best] ||
            (s->hcost[i] == s->hcost[s->best] && i < s->best))
            s->best = i;
    } else if (gval < s->gcost[i]) {
        s->gcost[i] = gval;
        s->f[i] = gval + s->hcost[i];
        s->parent[i] = p;
        sift_up(s, s->heap_pos[i]);
        s->generated++;
    }
}

/* }======= */

/* {======= straight scans on bit lines ======= */

/* 64 bits of a line starting at cell `cell` (bit i = cell + i). */
static inline uint64_t load64(const uint64_t *line, int cell)
{
    unsigned b = (unsigned)(cell + GRID_PAD);
    unsigned w = b >> 6, sh = b & 63u;
    return sh ? (line[w] >> sh) | (line[w + 1] << (64u - sh)) : line[w];
}

/* Scan from p towards higher positions on line `cur` with side lines a and
** b. Returns the first jump point, the goal stop gstop when it comes
** first (positions > p only; INT_MAX for none), or -1 at a dead end. */
static int scan_up(const uint64_t *cur, const uint64_t *a, const uint64_t *b, int p, int gstop)
{
    int base = p;
    for (;;) {
        uint64_t c = load64(cur, base), u = load64(a, base), d = load64(b, base);
        uint64_t forced = ((~u << 1) & u) | ((~d << 1) & d);
        uint64_t stop = (forced | ~c) & ~1ull;
        if (stop) {
            int i = __builtin_ctzll(stop);
            int cell = base + i;
            bool open = (c >> i) & 1u;
            if (gstop <= cell) return (gstop < cell || open) ? gstop : -1;
            return open ? cell : -1;
        }
        if (gstop <= base + 63) return gstop;
        base += 63;
    }
}

/* The same towards lower positions; gstop is INT_MIN for none. */
static int scan_down(const uint64_t *cur, const uint64_t *a, const uint64_t *b, int p, int gstop)
{
    int base = p; /* bit 63 of the loaded words is cell base */
    for (;;) {
        uint64_t c = load64(cur, base - 63), u = load64(a, base - 63), d = load64(b, base - 63);
        uint64_t forced = ((~u >> 1) & u) | ((~d >> 1) & d);
        uint64_t stop = (forced | ~c) & ~(1ull << 63);
        if (stop) {
            int j = 63 - __builtin_clzll(stop);
            int cell = base - 63 + j;
            bool open = (c >> j) & 1u;
            if (gstop >= cell) return (gstop > cell || open) ? gstop : -1;
            return open ? cell : -1;
        }
        if (gstop >= base - 63) return gstop;
        base -= 63;
    }
}

/* First goal cell after p on a line in direction dir, from the goal's
** span for that line (or the point goal). */
static int goal_stop(const GridSearch *s, bool row, int line, int p, int dir)
{
    const GoalCells *gc = &s->goal;
    int none = dir > 0 ? INT_MAX : INT_MIN;
    if (gc->type == GRID_GOAL_POINT) {
        if (row ? line != gc->py : line != gc->px) return none;
        int at = row ? gc->px : gc->py;
        return (dir > 0 ? at > p : at < p) ? at : none;
    }
    int lo = row ? s->row_lo[line] : s->col_lo[line];
    int hi = row ? s->row_hi[line] : s->col_hi[line];
    int q = p + dir;
    if (!goal_is_inverted(gc)) {
        if (lo > hi) return none;
        if (q >= lo && q <= hi) return q;
        if (dir > 0) return q < lo ? lo : none;
        return q > hi ? hi : none;
    }
    /* Inverted: everything outside [lo, hi] is goal. */
    if (lo > hi || q < lo || q > hi) return q;
    return dir > 0 ? hi + 1 : lo - 1;
}

/* Straight jump from (x, y) in direction (dx, dy), one of them zero.
** Returns the jump point's index or NONE. */
static uint32_t jump_straight(GridSearch *s, int x, int y, int dx, int dy)
{
    const NavGrid *g = s->g;
    int cls = s->cls;
    if (dy == 0) {
        const uint64_t *cur = grid_row_line(g, cls, y);
        const uint64_t *a = grid_row_line(g, cls, y + 1), *b = grid_row_line(g, cls, y - 1);
        int gs = goal_stop(s, true, y, x, dx);
        int r = dx > 0 ? scan_up(cur, a, b, x, gs) : scan_down(cur, a, b, x, gs);
        return r < 0 ? NONE : (uint32_t)grid_index(g, r, y);
    }
    const uint64_t *cur = grid_col_line(g, cls, x);
    const uint64_t *a = grid_col_line(g, cls, x + 1), *b = grid_col_line(g, cls, x - 1);
    int gs = goal_stop(s, false, x, y, dy);
    int r = dy > 0 ? scan_up(cur, a, b, y, gs) : scan_down(cur, a, b, y, gs);
    return r < 0 ? NONE : (uint32_t)grid_index(g, x, r);
}

static uint32_t jump_diagonal(GridSearch *s, int x, int y, int dx, int dy)
{
    const NavGrid *g = s->g;
    int cls = s->cls;
    for (;;) {
        int nx = x + dx, ny = y + dy;
        if (!grid_open(g, cls, nx, ny) || !grid_open(g, cls, nx, y) || !grid_open(g, cls, x, ny)) return NONE;
        if (goal_contains_cell(&s->goal, nx, ny)) return (uint32_t)grid_index(g, nx, ny);
        if (jump_straight(s, nx, ny, dx, 0) != NONE || jump_straight(s, nx, ny, 0, dy) != NONE)
            return (uint32_t)grid_index(g, nx, ny);
        x = nx;
        y = ny;
    }
}

static double octile(int dx, int dy)
{
    dx = abs(dx);
    dy = abs(dy);
    int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + (double)lo * NAV_SQRT2;
}

static void push_jump(GridSearch *s, uint32_t from, uint32_t to)
{
    if (to == NONE) return;
    int fx = (int)(from % (uint32_t)s->w), fy = (int)(from / (uint32_t)s->w);
    int tx = (int)(to % (uint32_t)s->w), ty = (int)(to / (uint32_t)s->w);
    relax(s, to, s->gcost[from] + octile(tx - fx, ty - fy), from);
}

static int sign(int v) { return (v > 0) - (v < 0); }

static void expand_jps(GridSearch *s, uint32_t n)
{
    const NavGrid *g = s->g;
    int cls = s->cls;
    int x = (int)(n % (uint32_t)s->w), y = (int)(n / (uint32_t)s->w);
    uint32_t p = s->parent[n];
    if (p == n) {
        static const int DX[8] = { 1, -1, 0, 0, 1, 1, -1, -1 }, DY[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
        for (int k = 0; k < 4; k++) push_jump(s, n, jump_straight(s, x, y, DX[k], DY[k]));
        for (int k = 4; k < 8; k++) push_jump(s, n, jump_diagonal(s, x, y, DX[k], DY[k]));
        return;
    }
    int px = (int)(p % (uint32_t)s->w), py = (int)(p / (uint32_t)s->w);
    int dx = sign(x - px), dy = sign(y - py);
    if (dx != 0 && dy != 0) {
        push_jump(s, n, jump_straight(s, x, y, dx, 0));
        push_jump(s, n, jump_straight(s, x, y, 0, dy));
        push_jump(s, n, jump_diagonal(s, x, y, dx, dy));
    } else if (dy == 0) {
        push_jump(s, n, jump_straight(s, x, y, dx, 0));
        for (int sy = -1; sy <= 1; sy += 2) {
            if (grid_open(g, cls, x, y + sy) && !grid_open(g, cls, x - dx, y + sy)) {
                push_jump(s, n, jump_straight(s, x, y, 0, sy));
                push_jump(s, n, jump_diagonal(s, x, y, dx, sy));
            }
        }
    } else {
        push_jump(s, n, jump_straight(s, x, y, 0, dy));
        for (int sx = -1; sx <= 1; sx += 2) {
            if (grid_open(g, cls, x + sx, y) && !grid_open(g, cls, x + sx, y - dy)) {
                push_jump(s, n, jump_straight(s, x, y, sx, 0));
                push_jump(s, n, jump_diagonal(s, x, y, sx, dy));
            }
        }
    }
}

/* The textbook baseline: all eight neighbours under the movement rule. */
static void expand_astar(GridSearch *s, uint32_t n)
{
    const NavGrid *g = s->g;
    int cls = s->cls;
    int x = (int)(n % (uint32_t)s->w), y = (int)(n / (uint32_t)s->w);
    static const int DX[8] = { 1, -1, 0, 0, 1, 1, -1, -1 }, DY[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
    for (int k = 0; k < 8; k++) {
        int nx = x + DX[k], ny = y + DY[k];
        if (!grid_open(g, cls, nx, ny)) continue;
        if (k >= 4 && (!grid_open(g, cls, nx, y) || !grid_open(g, cls, x, ny))) continue;
        relax(s, (uint32_t)grid_index(g, nx, ny), s->gcost[n] + (k < 4 ? 1.0 : NAV_SQRT2), n);
    }
}

/* }======= */

/* {======= queries ======= */

static void fill_spans(GridSearch *s)
{
    const GoalCells *gc = &s->goal;
    if (gc->type == GRID_GOAL_POINT) return;
    for (int y = 0; y < s->h; y++) goal_line_span(gc, true, y, 0, s->w - 1, &s->row_lo[y], &s->row_hi[y]);
    for (int x = 0; x < s->w; x++) goal_line_span(gc, false, x, 0, s->h - 1, &s->col_lo[x], &s->col_hi[x]);
}

/* Is some cell of the goal open and in component comp? Scans the cells
** that can touch the shape; an inverted goal also holds every cell past
** them, so any open cell of comp outside the box answers yes. */
static bool goal_reachable(const GridSearch *s, uint32_t comp)
{
    const NavGrid *g = s->g;
    const GoalCells *gc = &s->goal;
    if (gc->type == GRID_GOAL_POINT) return grid_component(g, s->cls, gc->px, gc->py) == comp;
    int x0 = NAV_MAX(gc->bx0, 0), y0 = NAV_MAX(gc->by0, 0);
    int x1 = NAV_MIN(gc->bx1, g->w - 1), y1 = NAV_MIN(gc->by1, g->h - 1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (goal_contains_cell(gc, x, y) && grid_component(g, s->cls, x, y) == comp) return true;
    if (!goal_is_inverted(gc)) return false;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            if (x >= x0 && x <= x1 && y >= y0 && y <= y1) continue;
            if (grid_component(g, s->cls, x, y) == comp) return true;
        }
    return false;
}

NavStatus grid_search_begin(GridSearch *s, const GridQuery *q)
{
    const NavGrid *g = s->g;
    s->active = false;
    s->flags = 0;
    s->found = NONE;
    s->best = NONE;
    s->expanded = s->generated = s->touched = 0;
    s->heap_size = 0;
    if (q->cls < 0 || q->cls >= g->ncls || !grid_in_bounds(g, q->sx, q->sy) || !goal_valid(&q->goal) ||
        (q->algorithm != GRID_JPS && q->algorithm != GRID_ASTAR))
        return NAV_FAILURE | NAV_E_PARAM;
    s->q = *q;
    s->cls = q->cls;
    s->osx = s->sx = q->sx;
    s->osy = s->sy = q->sy;
    if (++s->generation >= (1u << 30)) {
        memset(s->state, 0, s->cells * sizeof *s->state);
        s->generation = 1;
    }
    goal_prepare(&s->goal, &q->goal, g->cs);

    if (!grid_passable(g, s->cls, s->sx, s->sy)) {
        int nx, ny;
        if (!grid_nearest_passable(g, s->cls, s->sx, s->sy, &nx, &ny)) {
            s->flags |= GRID_PATH_NO_PATH;
            return NAV_OK;
        }
        s->sx = nx;
        s->sy = ny;
        s->flags |= GRID_PATH_START_MOVED;
    }
    uint32_t comp = grid_component(g, s->cls, s->sx, s->sy);
    if (!goal_reachable(s, comp)) {
        int tx, ty;
        if (!grid_nearest_in_component(g, s->cls, comp, s->goal.px, s->goal.py, &tx, &ty)) {
            s->flags |= GRID_PATH_NO_PATH;
            return NAV_OK;
        }
        float cx, cy;
        grid_cell_center(g, tx, ty, &cx, &cy);
        GridGoal moved = grid_goal_point(cx, cy);
        goal_prepare(&s->goal, &moved, g->cs);
        s->flags |= GRID_PATH_GOAL_MOVED;
    }
    fill_spans(s);
    uint32_t start = (uint32_t)grid_index(g, s->sx, s->sy);
    relax(s, start, 0.0, start);
    s->active = true;
    return NAV_OK;
}

NavStatus grid_search_step(GridSearch *s, uint32_t max_nodes)
{
    if (!s->active) return NAV_OK;
    for (uint32_t k = 0; k < max_nodes; k++) {
        if (s->heap_size == 0) {
            s->active = false;
            return NAV_OK;
        }
        uint32_t n = pop(s);
        s->state[n] = (s->generation << 2) | ST_CLOSED;
        s->expanded++;
        int x = (int)(n % (uint32_t)s->w), y = (int)(n / (uint32_t)s->w);
        if (goal_contains_cell(&s->goal, x, y)) {
            s->found = n;
            s->active = false;
            return NAV_OK;
        }
        if (s->q.algorithm == GRID_ASTAR) expand_astar(s, n);
        else expand_jps(s, n);
    }
    return s->heap_size ? NAV_IN_PROGRESS : (s->active = false, NAV_OK);
}

/* Writes the chain of parents ending at node end into the path, start
** first, dropping points that do not turn. */
static void write_path(GridSearch *s, uint32_t end, GridPath *path)
{
    int n = 0;
    bool moved = (s->flags & GRID_PATH_START_MOVED) != 0;
    /* Count the chain first, so the points can be written start first
    ** into the caller's buffer without a scratch array. */
    for (uint32_t i = end;; i = s->parent[i]) {
        n++;
        if (s->parent[i] == i) break;
    }
    int total = n + (moved ? 1 : 0);
    int cap = path->cap;
    int k = total - 1;
    for (uint32_t i = end;; i = s->parent[i], k--) {
        if (k < cap) path->points[k] = (GridWaypoint){ (int)(i % (uint32_t)s->w), (int)(i / (uint32_t)s->w) };
        if (s->parent[i] == i) break;
    }
    if (moved && cap > 0) path->points[0] = (GridWaypoint){ s->osx, s->osy };
    int stored = total < cap ? total : cap;
    if (total > cap) path->flags |= GRID_PATH_TRUNCATED;

    /* Drop collinear points: a jump point where the direction stays the
    ** same is not a turn. */
    int out = 0;
    for (int i = 0; i < stored; i++) {
        if (out >= 2) {
            GridWaypoint a = path->points[out - 2], b = path->points[out - 1], c = path->points[i];
            int d1x = sign(b.x - a.x), d1y = sign(b.y - a.y), d2x = sign(c.x - b.x), d2y = sign(c.y - b.y);
            bool straight_run = (b.x - a.x == 0 || b.y - a.y == 0 || abs(b.x - a.x) == abs(b.y - a.y)) &&
                                (c.x - b.x == 0 || c.y - b.y == 0 || abs(c.x - b.x) == abs(c.y - b.y));
            if (d1x == d2x && d1y == d2y && straight_run && !(moved && out - 1 == 1)) {
                path->points[out - 1] = c;
                continue;
            }
        }
        path->points[out++] = path->points[i];
    }
    path->count = out;
    path->length = s->gcost[end];
    if (moved) path->length += hypot((double)(s->sx - s->osx), (double)(s->sy - s->osy));
}

NavStatus grid_search_end(GridSearch *s, GridPath *path)
{
    path->count = 0;
    path->length = 0.0;
    path->flags = s->flags;
    path->expanded = s->expanded;
    path->generated = s->generated;
    path->touched = s->touched;
    if (s->flags & GRID_PATH_NO_PATH) return NAV_OK;
    if (s->found != NONE) {
        path->flags |= GRID_PATH_FOUND;
        write_path(s, s->found, path);
        return NAV_OK;
    }
    if (s->best == NONE) {
        path->flags |= GRID_PATH_NO_PATH;
        return NAV_OK;
    }
    /* Stopped by a budget (or, should the hierarchy ever disagree, by an
    ** empty open list): go as near as the search got. */
    path->flags |= GRID_PATH_PARTIAL;
    write_path(s, s->best, path);
    return NAV_OK | NAV_PARTIAL;
}

NavStatus grid_find_path(GridSearch *s, const GridQuery *q, GridPath *path)
{
    NavStatus st = grid_search_begin(s, q);
    if (NAV_FAILED(st)) {
        path->count = 0;
        path->flags = GRID_PATH_NO_PATH;
        return st;
    }
    grid_search_step(s, q->max_nodes ? q->max_nodes : UINT32_MAX);
    s->active = false;
    return grid_search_end(s, path);
}

void grid_search_visit(const GridSearch *s, void (*fn)(void *user, int x, int y, bool closed), void *user)
{
    for (size_t i = 0; i < s->cells; i++) {
        if (!touched_now(s, (uint32_t)i) || !(s->state[i] & 3u)) continue;
        fn(user, (int)(i % (size_t)s->w), (int)(i / (size_t)s->w), (s->state[i] & 3u) == ST_CLOSED);
    }
}

/* }======= */

/* {======= line of sight and smoothing ======= */

bool grid_line_clear(const NavGrid *g, int cls, int ax, int ay, int bx, int by)
{
    if (!grid_passable(g, cls, ax, ay) || !grid_passable(g, cls, bx, by)) return false;
    int dx = abs(bx - ax), dy = abs(by - ay);
    int xs = bx > ax ? 1 : -1, ys = by > ay ? 1 : -1;
    int x = ax, y = ay;
    /* Walk the cells the segment between centres crosses; err compares how
    ** far it is to the next vertical and the next horizontal cell edge. */
    long err = (long)dx - dy;
    long dx2 = 2L * dx, dy2 = 2L * dy;
    int n = dx + dy;
    while (n > 0) {
        if (err > 0) {
            x += xs;
            err -= dy2;
            n--;
        } else if (err < 0) {
            y += ys;
            err += dx2;
            n--;
        } else {
            /* Through a corner: both cells beside it must be open. */
            if (!grid_passable(g, cls, x + xs, y) || !grid_passable(g, cls, x, y + ys)) return false;
            x += xs;
            y += ys;
            err += dx2 - dy2;
            n -= 2;
        }
        if (!grid_passable(g, cls, x, y)) return false;
    }
    return true;
}

int grid_smooth_path(const NavGrid *g, int cls, GridWaypoint *points, int count, double *length)
{
    if (count <= 2) {
        if (length) *length = count == 2 ? hypot(points[1].x - points[0].x, points[1].y - points[0].y) : 0.0;
        return count;
    }
    int out = 1;
    int anchor = 0;
    for (int i = 1; i < count; i++) {
        bool last = i == count - 1;
        if (last || !grid_line_clear(g, cls, points[anchor].x, points[anchor].y, points[i + 1].x, points[i + 1].y)) {
            points[out++] = points[i];
            anchor = out - 1;
        }
    }
    if (length) {
        double len = 0.0;
        for (int i = 1; i < out; i++) len += hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
        *length = len;
    }
    return out;
}

double grid_path_length(const GridWaypoint *points, int count)
{
    double len = 0.0;
    for (int i = 1; i < count; i++) len += octile(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
    return len;
}

/* }======= */

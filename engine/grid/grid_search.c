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

#include "core/timer.h"

#include <limits.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define ST_OPEN 1u
#define ST_CLOSED 2u
#define NONE UINT32_MAX

/* Everything a search keeps per cell, in one place: a relaxation touches
** one cache line, not six. */
typedef struct Node {
    double g;
    double f;
    double h;
    uint32_t parent;
    uint32_t state; /* generation << 2 | ST_* */
    uint32_t heap_pos;
    int8_t dx, dy; /* direction of arrival: the last leg from the parent */
} Node;

struct GridSearch {
    const NavGrid *g;
    int w, h;
    size_t cells;
    Node *node;
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
    int sx, sy;   /* search start (after stepping out of a blocked cell) */
    int osx, osy; /* the caller's start */
    uint32_t flags;
    uint32_t found; /* goal node, or NONE */
    uint32_t best;  /* node with the lowest h so far */
    bool active;
    bool point_goal;
    uint32_t expanded, generated, touched;
    /* the class's bit lines, cached for the scans */
    const uint64_t *rows, *cols;
    const uint64_t *stop_e, *stop_w, *stop_n, *stop_s;
    int row_words, col_words;
};

/* {======= state ======= */

GridSearch *grid_search_create(const NavGrid *g, NavError *err)
{
    GridSearch *s = nav_calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->g = g;
    s->w = g->w;
    s->h = g->h;
    s->cells = (size_t)g->w * (size_t)g->h;
    s->node = nav_calloc(s->cells, sizeof *s->node);
    s->heap = nav_malloc(s->cells * sizeof *s->heap);
    s->row_lo = nav_malloc((size_t)g->h * sizeof(int));
    s->row_hi = nav_malloc((size_t)g->h * sizeof(int));
    s->col_lo = nav_malloc((size_t)g->w * sizeof(int));
    s->col_hi = nav_malloc((size_t)g->w * sizeof(int));
    if (!s->node || !s->heap || !s->row_lo || !s->row_hi || !s->col_lo || !s->col_hi) goto nomem;
    return s;
nomem:
    grid_search_destroy(s);
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the search state");
    return NULL;
}

void grid_search_destroy(GridSearch *s)
{
    if (!s) return;
    nav_free(s->node);
    nav_free(s->heap);
    nav_free(s->row_lo);
    nav_free(s->row_hi);
    nav_free(s->col_lo);
    nav_free(s->col_hi);
    nav_free(s);
}

size_t grid_search_memory(const GridSearch *s)
{
    return sizeof *s + s->cells * (sizeof(Node) + sizeof(uint32_t)) + 2 * ((size_t)s->w + (size_t)s->h) * sizeof(int);
}

static inline bool touched_now(const GridSearch *s, uint32_t i) { return (s->node[i].state >> 2) == s->generation; }
static inline uint32_t st(const GridSearch *s, uint32_t i) { return touched_now(s, i) ? (s->node[i].state & 3u) : 0u; }

/* }======= */

/* {======= open list: binary heap on (f, h, index) ======= */

static inline bool before(const GridSearch *s, uint32_t a, uint32_t b)
{
    if (s->node[a].f != s->node[b].f) return s->node[a].f < s->node[b].f;
    if (s->node[a].h != s->node[b].h) return s->node[a].h < s->node[b].h;
    return a < b;
}

static void sift_up(GridSearch *s, uint32_t pos)
{
    uint32_t node = s->heap[pos];
    while (pos > 0) {
        uint32_t up = (pos - 1) >> 1;
        if (!before(s, node, s->heap[up])) break;
        s->heap[pos] = s->heap[up];
        s->node[s->heap[pos]].heap_pos = pos;
        pos = up;
    }
    s->heap[pos] = node;
    s->node[node].heap_pos = pos;
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
        s->node[s->heap[pos]].heap_pos = pos;
        pos = c;
    }
    s->heap[pos] = node;
    s->node[node].heap_pos = pos;
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
static void relax(GridSearch *s, uint32_t i, double gval, uint32_t p, int dx, int dy)
{
    uint32_t state = st(s, i);
    if (state == ST_CLOSED) return;
    if (state == 0) {
        int x = (int)(i % (uint32_t)s->w), y = (int)(i / (uint32_t)s->w);
        s->node[i].h = goal_heuristic(&s->goal, x, y);
        s->node[i].g = gval;
        s->node[i].f = gval + s->node[i].h;
        s->node[i].parent = p;
        s->node[i].dx = (int8_t)dx;
        s->node[i].dy = (int8_t)dy;
        s->node[i].state = (s->generation << 2) | ST_OPEN;
        s->heap[s->heap_size] = i;
        s->heap_size++;
        sift_up(s, s->heap_size - 1);
        s->generated++;
        s->touched++;
        if (s->best == NONE || s->node[i].h < s->node[s->best].h || (s->node[i].h == s->node[s->best].h && i < s->best))
            s->best = i;
    } else if (gval < s->node[i].g) {
        s->node[i].g = gval;
        s->node[i].f = gval + s->node[i].h;
        s->node[i].parent = p;
        s->node[i].dx = (int8_t)dx;
        s->node[i].dy = (int8_t)dy;
        sift_up(s, s->node[i].heap_pos);
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

/* Scan from p towards higher positions: `stop` marks where scans in that
** direction stop, `cur` which cells are open. Returns the first jump
** point, the goal stop gstop when it comes first (positions > p; INT_MAX
** for none), or -1 at a dead end. */
static inline __attribute__((always_inline)) int scan_up(const uint64_t *stop, const uint64_t *cur, int p, int gstop)
{
    int base = p;
    for (;;) {
        uint64_t st = load64(stop, base) & ~1ull;
        if (st) {
            int cell = base + __builtin_ctzll(st);
            bool open = grid_bit(cur, cell);
            if (gstop <= cell) return (gstop < cell || open) ? gstop : -1;
            return open ? cell : -1;
        }
        if (gstop <= base + 63) return gstop;
        base += 63;
    }
}

/* The same towards lower positions; gstop is INT_MIN for none. */
static inline __attribute__((always_inline)) int scan_down(const uint64_t *stop, const uint64_t *cur, int p, int gstop)
{
    int base = p; /* bit 63 of the loaded word is cell base */
    for (;;) {
        uint64_t st = load64(stop, base - 63) & ~(1ull << 63);
        if (st) {
            int cell = base - 63 + (63 - __builtin_clzll(st));
            bool open = grid_bit(cur, cell);
            if (gstop >= cell) return (gstop > cell || open) ? gstop : -1;
            return open ? cell : -1;
        }
        if (gstop >= base - 63) return gstop;
        base -= 63;
    }
}

/* First goal cell after p on a line in direction dir, from the goal's
** span for that line (or the point goal). */
static inline __attribute__((always_inline)) int goal_stop(const GridSearch *s, bool row, int line, int p, int dir)
{
    const GoalCells *gc = &s->goal;
    int none = dir > 0 ? INT_MAX : INT_MIN;
    if (s->point_goal) {
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

/* Straight scans along a row (x moves) or a column (y moves). Return the
** position reached (jump point or goal) or -1. */
static inline __attribute__((always_inline)) int scan_row(const GridSearch *s, int x, int y, int dx)
{
    size_t at = (size_t)(y + 1) * (size_t)s->row_words;
    int gs = goal_stop(s, true, y, x, dx);
    return dx > 0 ? scan_up(s->stop_e + at, s->rows + at, x, gs) : scan_down(s->stop_w + at, s->rows + at, x, gs);
}

static inline __attribute__((always_inline)) int scan_col(const GridSearch *s, int x, int y, int dy)
{
    size_t at = (size_t)(x + 1) * (size_t)s->col_words;
    int gs = goal_stop(s, false, x, y, dy);
    return dy > 0 ? scan_up(s->stop_n + at, s->cols + at, y, gs) : scan_down(s->stop_s + at, s->cols + at, y, gs);
}

/* Straight jump from (x, y) in direction (dx, dy), one of them zero.
** Returns the jump point's index or NONE. */
static uint32_t jump_straight(GridSearch *s, int x, int y, int dx, int dy)
{
    if (dy == 0) {
        int r = scan_row(s, x, y, dx);
        return r < 0 ? NONE : (uint32_t)(y * s->w + r);
    }
    int r = scan_col(s, x, y, dy);
    return r < 0 ? NONE : (uint32_t)(r * s->w + x);
}

static double octile(int dx, int dy)
{
    dx = abs(dx);
    dy = abs(dy);
    int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + (double)lo * NAV_SQRT2;
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* Offer the jump point `to`, reached from n by a diagonal run (maybe
** empty) and then a last leg in direction (dx, dy). */
static void push_jump(GridSearch *s, uint32_t n, uint32_t to, int dx, int dy)
{
    if (to == NONE) return;
    int fx = (int)(n % (uint32_t)s->w), fy = (int)(n / (uint32_t)s->w);
    int tx = (int)(to % (uint32_t)s->w), ty = (int)(to / (uint32_t)s->w);
    relax(s, to, s->node[n].g + octile(tx - fx, ty - fy), n, dx, dy);
}

/* Walk the diagonal from n's cell (x, y). Every diagonal cell whose
** straight scans find something would be a jump point; rather than queue
** it and expand it later, its straight successors are queued at once with
** n as their parent (the path bends at the diagonal cell, which the path
** writer puts back). This is the intermediate-node pruning of Harabor and
** Grastien (2014): the same paths, less heap traffic on open ground. */
static void jump_diagonal(GridSearch *s, uint32_t n, int x, int y, int dx, int dy)
{
    const uint64_t *row = s->rows + (size_t)(y + 1) * (size_t)s->row_words;
    ptrdiff_t step = dy > 0 ? s->row_words : -(ptrdiff_t)s->row_words;
    for (;;) {
        int nx = x + dx, ny = y + dy;
        const uint64_t *next = row + step;
        /* the target and both orthogonal cells must be open */
        if (!grid_bit(next, nx) || !grid_bit(row, nx) || !grid_bit(next, x)) return;
        if (s->point_goal ? (nx == s->goal.px && ny == s->goal.py) : goal_contains_cell(&s->goal, nx, ny)) {
            push_jump(s, n, (uint32_t)(ny * s->w + nx), dx, dy);
            return;
        }
        int r = scan_row(s, nx, ny, dx);
        if (r >= 0) push_jump(s, n, (uint32_t)(ny * s->w + r), dx, 0);
        int c = scan_col(s, nx, ny, dy);
        if (c >= 0) push_jump(s, n, (uint32_t)(c * s->w + nx), 0, dy);
        x = nx;
        y = ny;
        row = next;
    }
}

static void straight(GridSearch *s, uint32_t n, int x, int y, int dx, int dy)
{
    push_jump(s, n, jump_straight(s, x, y, dx, dy), dx, dy);
}

static void expand_jps(GridSearch *s, uint32_t n)
{
    const NavGrid *g = s->g;
    int cls = s->cls;
    int x = (int)(n % (uint32_t)s->w), y = (int)(n / (uint32_t)s->w);
    int dx = s->node[n].dx, dy = s->node[n].dy;
    if (dx == 0 && dy == 0) { /* the start */
        static const int DX[8] = { 1, -1, 0, 0, 1, 1, -1, -1 }, DY[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
        for (int k = 0; k < 4; k++) straight(s, n, x, y, DX[k], DY[k]);
        for (int k = 4; k < 8; k++) jump_diagonal(s, n, x, y, DX[k], DY[k]);
        return;
    }
    if (dx != 0 && dy != 0) {
        straight(s, n, x, y, dx, 0);
        straight(s, n, x, y, 0, dy);
        jump_diagonal(s, n, x, y, dx, dy);
    } else if (dy == 0) {
        straight(s, n, x, y, dx, 0);
        for (int sy = -1; sy <= 1; sy += 2) {
            if (grid_open(g, cls, x, y + sy) && !grid_open(g, cls, x - dx, y + sy)) {
                straight(s, n, x, y, 0, sy);
                jump_diagonal(s, n, x, y, dx, sy);
            }
        }
    } else {
        straight(s, n, x, y, 0, dy);
        for (int sx = -1; sx <= 1; sx += 2) {
            if (grid_open(g, cls, x + sx, y) && !grid_open(g, cls, x + sx, y - dy)) {
                straight(s, n, x, y, sx, 0);
                jump_diagonal(s, n, x, y, sx, dy);
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
        relax(s, (uint32_t)grid_index(g, nx, ny), s->node[n].g + (k < 4 ? 1.0 : NAV_SQRT2), n, DX[k], DY[k]);
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
    if (q->cls < 0 || q->cls >= g->ncls || !grid_in_bounds(g, q->sx, q->sy) || !grid_goal_valid(&q->goal) ||
        (q->algorithm != GRID_JPS && q->algorithm != GRID_ASTAR))
        return NAV_FAILURE | NAV_E_PARAM;
    s->q = *q;
    s->cls = q->cls;
    s->osx = s->sx = q->sx;
    s->osy = s->sy = q->sy;
    if (++s->generation >= (1u << 30)) {
        for (size_t i = 0; i < s->cells; i++) s->node[i].state = 0;
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
    s->point_goal = s->goal.type == GRID_GOAL_POINT;
    s->rows = g->cls[s->cls].rows;
    s->cols = g->cls[s->cls].cols;
    s->stop_e = g->cls[s->cls].stop_e;
    s->stop_w = g->cls[s->cls].stop_w;
    s->stop_n = g->cls[s->cls].stop_n;
    s->stop_s = g->cls[s->cls].stop_s;
    s->row_words = g->row_words;
    s->col_words = g->col_words;
    fill_spans(s);
    uint32_t start = (uint32_t)grid_index(g, s->sx, s->sy);
    relax(s, start, 0.0, start, 0, 0);
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
        s->node[n].state = (s->generation << 2) | ST_CLOSED;
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

/* The bend in a link from parent (px, py) to (x, y) that is neither
** straight nor diagonal: the path runs diagonally first, then straight. */
static bool link_bend(int px, int py, int x, int y, GridWaypoint *bend)
{
    int ax = abs(x - px), ay = abs(y - py);
    if (ax == 0 || ay == 0 || ax == ay) return false;
    int k = ax < ay ? ax : ay;
    *bend = (GridWaypoint){ px + k * sign(x - px), py + k * sign(y - py) };
    return true;
}

/* Writes the chain of parents ending at node end into the path, start
** first, with the bends of pruned diagonal runs put back and the points
** that do not turn dropped. */
static void write_path(GridSearch *s, uint32_t end, GridPath *path)
{
    bool moved = (s->flags & GRID_PATH_START_MOVED) != 0;
    uint32_t w = (uint32_t)s->w;
    GridWaypoint bend;
    /* Count first, so the points can go start first into the caller's
    ** buffer without a scratch array. */
    int total = moved ? 1 : 0;
    for (uint32_t i = end;; i = s->node[i].parent) {
        total++;
        uint32_t p = s->node[i].parent;
        if (p == i) break;
        if (link_bend((int)(p % w), (int)(p / w), (int)(i % w), (int)(i / w), &bend)) total++;
    }
    int cap = path->cap;
    int k = total - 1;
    for (uint32_t i = end;; i = s->node[i].parent) {
        if (k < cap) path->points[k] = (GridWaypoint){ (int)(i % w), (int)(i / w) };
        k--;
        uint32_t p = s->node[i].parent;
        if (p == i) break;
        if (link_bend((int)(p % w), (int)(p / w), (int)(i % w), (int)(i / w), &bend)) {
            if (k < cap) path->points[k] = bend;
            k--;
        }
    }
    if (moved && cap > 0) path->points[0] = (GridWaypoint){ s->osx, s->osy };
    int stored = total < cap ? total : cap;
    if (total > cap) path->flags |= GRID_PATH_TRUNCATED;

    /* Drop points where the direction does not change. The leg out of a
    ** moved start is not a grid move and keeps its end. */
    int out = 0;
    for (int i = 0; i < stored; i++) {
        if (out >= 2 && !(moved && out - 1 == 1)) {
            GridWaypoint a = path->points[out - 2], b = path->points[out - 1], c = path->points[i];
            if (sign(b.x - a.x) == sign(c.x - b.x) && sign(b.y - a.y) == sign(c.y - b.y)) {
                path->points[out - 1] = c;
                continue;
            }
        }
        path->points[out++] = path->points[i];
    }
    path->count = out;
    path->length = s->node[end].g;
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
    uint32_t nodes = q->max_nodes ? q->max_nodes : UINT32_MAX;
    if (!q->max_time_us) {
        grid_search_step(s, nodes);
    } else {
        /* Slices of 64 expansions between looks at the clock. */
        uint64_t deadline = timer_now_ns() + (uint64_t)q->max_time_us * 1000u;
        while (nodes > 0 && grid_search_step(s, NAV_MIN(nodes, 64u)) == NAV_IN_PROGRESS) {
            nodes -= NAV_MIN(nodes, 64u);
            if (timer_now_ns() >= deadline) break;
        }
    }
    s->active = false;
    return grid_search_end(s, path);
}

bool grid_make_goal_reachable(const NavGrid *g, int cls, int sx, int sy, const GridGoal *goal, int *cx, int *cy,
                              bool *ok)
{
    *ok = false;
    if (cls < 0 || cls >= g->ncls || !grid_in_bounds(g, sx, sy) || !grid_goal_valid(goal)) return false;
    if (!grid_passable(g, cls, sx, sy) && !grid_nearest_passable(g, cls, sx, sy, &sx, &sy)) return false;
    uint32_t comp = grid_component(g, cls, sx, sy);
    GoalCells gc;
    goal_prepare(&gc, goal, g->cs);
    long best = -1;
    int bx = 0, by = 0;
    /* Inverted goals hold nearly everything: look outwards from the start. */
    int x0 = 0, y0 = 0, x1 = g->w - 1, y1 = g->h - 1;
    if (!goal_is_inverted(&gc)) {
        x0 = NAV_MAX(gc.bx0, 0);
        y0 = NAV_MAX(gc.by0, 0);
        x1 = NAV_MIN(gc.bx1, g->w - 1);
        y1 = NAV_MIN(gc.by1, g->h - 1);
    }
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (!goal_contains_cell(&gc, x, y) || grid_component(g, cls, x, y) != comp) continue;
            long d2 = (long)(x - sx) * (x - sx) + (long)(y - sy) * (y - sy);
            if (best < 0 || d2 < best) {
                best = d2;
                bx = x;
                by = y;
            }
        }
    *ok = true;
    if (best >= 0) {
        *cx = bx;
        *cy = by;
        return true;
    }
    if (!grid_nearest_in_component(g, cls, comp, gc.px, gc.py, cx, cy)) *ok = false;
    return false;
}

void grid_search_visit(const GridSearch *s, void (*fn)(void *user, int x, int y, bool closed), void *user)
{
    for (size_t i = 0; i < s->cells; i++) {
        if (!touched_now(s, (uint32_t)i) || !(s->node[i].state & 3u)) continue;
        fn(user, (int)(i % (size_t)s->w), (int)(i / (size_t)s->w), (s->node[i].state & 3u) == ST_CLOSED);
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

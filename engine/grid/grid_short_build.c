/*
** grid_short_build.c — building the short-range search's graph for a
** query (grid_short.h): memory that grows to the largest query, the grown
** unit squares and their bucket grid, corner vertices read from the row
** bitsets, and the static outline runs for counting and drawing.
**
** DOES NOT: test segments or search (grid_short.c).
*/
#include "grid/grid_short_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= memory ======= */

static bool grow(void **p, size_t elem, uint32_t n)
{
    void *q = nav_realloc(*p, elem * (size_t)n);
    if (!q) return false;
    *p = q;
    return true;
}

bool short_reserve_vertices(GridShortSearch *s, uint32_t n)
{
    if (n + 1 <= s->cap_v) return true;
    uint32_t cap = s->cap_v ? s->cap_v : 256;
    while (cap < n + 1) cap *= 2;
    if (!grow((void **)&s->vx, sizeof(double), cap) || !grow((void **)&s->vy, sizeof(double), cap) ||
        !grow((void **)&s->g_cost, sizeof(double), cap) || !grow((void **)&s->h, sizeof(double), cap) ||
        !grow((void **)&s->qx, 1, cap) || !grow((void **)&s->qy, 1, cap) || !grow((void **)&s->kind, 1, cap) ||
        !grow((void **)&s->state, 1, cap) || !grow((void **)&s->parent, sizeof(uint32_t), cap) ||
        !grow((void **)&s->heap_pos, sizeof(uint32_t), cap) || !grow((void **)&s->heap, sizeof(uint32_t), cap) ||
        !grow((void **)&s->verified, 1, cap) || !grow((void **)&s->g_seen, sizeof(double), cap) ||
        !grow((void **)&s->from_seen, sizeof(uint32_t), cap) || !grow((void **)&s->checked, sizeof(uint32_t), cap) ||
        !grow((void **)&s->closed, sizeof(uint32_t), cap) || !grow((void **)&s->blocker, sizeof(uint32_t), cap))
        return false;
    s->cap_v = cap;
    return true;
}

bool short_reserve_squares(GridShortSearch *s, uint32_t n)
{
    if (n <= s->cap_sq) return true;
    uint32_t cap = s->cap_sq ? s->cap_sq : 64;
    while (cap < n) cap *= 2;
    if (!grow((void **)&s->sq, 4 * sizeof(double), cap) || !grow((void **)&s->sq_start, 1, cap) ||
        !grow((void **)&s->sq_stamp, sizeof(uint32_t), cap))
        return false;
    memset(s->sq_stamp + s->cap_sq, 0, (size_t)(cap - s->cap_sq) * sizeof(uint32_t));
    s->cap_sq = cap;
    return true;
}

bool short_reserve_items(GridShortSearch *s, uint32_t n)
{
    if (n <= s->cap_items) return true;
    uint32_t cap = s->cap_items ? s->cap_items : 256;
    while (cap < n) cap *= 2;
    if (!grow((void **)&s->bk_items, sizeof(uint32_t), cap)) return false;
    s->cap_items = cap;
    return true;
}


/* }======= */

/* {======= vertices, edges, squares ======= */

static bool add_vertex(GridShortSearch *s, double x, double y, int qx, int qy, GridShortVertexKind kind)
{
    if (!(x > s->bx0 && x < s->bx1 && y > s->by0 && y < s->by1)) return true;
    int cx = short_ifloor(x * s->inv_cs), cy = short_ifloor(y * s->inv_cs);
    if (!s->start_blocked && !grid_open(s->g, s->cls, cx, cy)) return true;
    if (!short_reachable(s, x, y)) return true;
    /* Inside a grown square that does not hold the start: never reached. */
    int bx = NAV_MIN((int)((x - s->bx0) * s->bk_inv), s->bk_w - 1);
    int by = NAV_MIN((int)((y - s->by0) * s->bk_inv), s->bk_h - 1);
    uint32_t bk = (uint32_t)(by * s->bk_w + bx);
    for (uint32_t k = s->bk_first[bk]; k < s->bk_first[bk + 1]; k++) {
        uint32_t i = s->bk_items[k];
        if (!s->sq_start[i] && point_in_box(x, y, s->sq + 4 * (size_t)i)) return true;
    }
    if (!short_reserve_vertices(s, s->nv + 1)) return false;
    uint32_t v = s->nv++;
    s->vx[v] = x;
    s->vy[v] = y;
    s->qx[v] = (int8_t)qx;
    s->qy[v] = (int8_t)qy;
    s->kind[v] = (uint8_t)kind;
    return true;
}

/* Convex corners of impassable cells: grid points (X, Y) with exactly one
** impassable cell among the four around them. Rows Y - 1 and Y, 63 grid
** points per step: bit i stands for point X = first + i + 1, between cells
** first + i (bit i of a row) and first + i + 1 (bit i of the row >> 1). */
bool short_cell_vertices(GridShortSearch *s)
{
    const NavGrid *g = s->g;
    double e = s->eps;
    for (int Y = s->cy0; Y <= s->cy1 + 1; Y++) {
        const uint64_t *lo = grid_row_line(g, s->cls, Y - 1), *hi = grid_row_line(g, s->cls, Y);
        for (int first = s->cx0 - 1; first <= s->cx1 + 1; first += 63) {
            uint64_t bl = ~short_bits64(lo, first), bu = ~short_bits64(hi, first); /* 1 = impassable */
            uint64_t l0 = bl, l1 = bl >> 1, u0 = bu, u1 = bu >> 1;
            uint64_t pairs = (l0 & l1) | (l0 & u0) | (l0 & u1) | (l1 & u0) | (l1 & u1) | (u0 & u1);
            uint64_t one = (l0 ^ l1 ^ u0 ^ u1) & ~pairs & 0x7FFFFFFFFFFFFFFFull;
            while (one) {
                int i = __builtin_ctzll(one);
                one &= one - 1;
                int X = first + i + 1;
                if (X < s->cx0 || X > s->cx1 + 1) continue;
                /* The blocked cell is the obstacle; the vertex sits off the
                ** corner on the other side. */
                int qx = ((l0 | u0) >> i) & 1u ? -1 : 1;
                int qy = ((l0 | l1) >> i) & 1u ? -1 : 1;
                double x = X * s->cs - qx * e, y = Y * s->cs - qy * e;
                if (!add_vertex(s, x, y, qx, qy, GRID_SHORT_VERTEX_CELLS)) return false;
            }
        }
    }
    return true;
}

/* Static outline runs in the search square's cells: horizontal ones along
** grid lines between rows, vertical ones between columns (from the
** transposed bits). fn (may be NULL) gets each run with the passable side
** on its left. Returns how many. */
uint32_t short_cell_edges(const GridShortSearch *s, const GridShortVisitor *v)
{
    const NavGrid *g = s->g;
    uint32_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        bool rows = pass == 0;
        int l0 = rows ? s->cy0 : s->cx0, l1 = rows ? s->cy1 + 1 : s->cx1 + 1; /* grid lines */
        int c0 = rows ? s->cx0 : s->cy0, c1 = rows ? s->cx1 : s->cy1;         /* cells along them */
        for (int L = l0; L <= l1; L++) {
            /* lines on the square's border are the border's business */
            double at = L * s->cs;
            if (rows ? (at <= s->by0 || at >= s->by1) : (at <= s->bx0 || at >= s->bx1)) continue;
            const uint64_t *a = rows ? grid_row_line(g, s->cls, L - 1) : grid_col_line(g, s->cls, L - 1);
            const uint64_t *b = rows ? grid_row_line(g, s->cls, L) : grid_col_line(g, s->cls, L);
            for (int first = c0; first <= c1; first += 64) {
                uint64_t pa = short_bits64(a, first), pb = short_bits64(b, first);
                int span = c1 - first + 1;
                uint64_t mask = span >= 64 ? ~0ull : ((1ull << span) - 1);
                for (int side = 0; side < 2; side++) {
                    /* side 0: blocked below / west, open above / east */
                    uint64_t m = (side == 0 ? (~pa & pb) : (pa & ~pb)) & mask;
                    uint64_t starts = m & ~(m << 1);
                    /* a run carried over from the previous word starts no new one */
                    if (first > c0 && (m & 1u)) {
                        uint64_t qa = short_bits64(a, first - 1) & 1u, qb = short_bits64(b, first - 1) & 1u;
                        bool prev = side == 0 ? (!qa && qb) : (qa && !qb);
                        if (prev) starts &= ~1ull;
                    }
                    count += (uint32_t)__builtin_popcountll(starts);
                    if (!v || !v->edge) continue;
                    while (starts) {
                        int i = __builtin_ctzll(starts);
                        starts &= starts - 1;
                        int j = i;
                        while (j + 1 < 64 && ((m >> (j + 1)) & 1u)) j++;
                        double p0 = (first + i) * s->cs, p1 = (first + j + 1) * s->cs;
                        if (rows) {
                            p0 = fmax(p0, s->bx0);
                            p1 = fmin(p1, s->bx1);
                            /* open above: run west to east (open side left) */
                            if (side == 0)
                                v->edge(v->user, (float)p0, (float)at, (float)p1, (float)at, GRID_SHORT_EDGE_CELLS);
                            else v->edge(v->user, (float)p1, (float)at, (float)p0, (float)at, GRID_SHORT_EDGE_CELLS);
                        } else {
                            p0 = fmax(p0, s->by0);
                            p1 = fmin(p1, s->by1);
                            /* open east: run north to south */
                            if (side == 0)
                                v->edge(v->user, (float)at, (float)p1, (float)at, (float)p0, GRID_SHORT_EDGE_CELLS);
                            else v->edge(v->user, (float)at, (float)p0, (float)at, (float)p1, GRID_SHORT_EDGE_CELLS);
                        }
                    }
                }
            }
        }
    }
    return count;
}

/* Grown squares that reach into the search square, and the buckets. */
bool short_build_squares(GridShortSearch *s, const GridShortQuery *q, double sx, double sy)
{
    s->nsq = 0;
    if (!short_reserve_squares(s, (uint32_t)q->square_count)) return false;
    double grow_by = q->clearance, big = 0.0;
    for (int i = 0; i < q->square_count; i++) {
        const GridShortSquare *u = &q->squares[i];
        double h = (double)u->half + grow_by;
        double b[4] = { u->x - h, u->y - h, u->x + h, u->y + h };
        /* kept when a corner vertex (a hair outside) can be in the square */
        double m = 2.0 * s->eps;
        if (b[2] + m <= s->bx0 || b[0] - m >= s->bx1 || b[3] + m <= s->by0 || b[1] - m >= s->by1 || h <= 0.0) continue;
        memcpy(s->sq + 4 * (size_t)s->nsq, b, sizeof b);
        s->sq_start[s->nsq] = point_in_box(sx, sy, b);
        big = fmax(big, 2.0 * h);
        s->nsq++;
    }
    /* Buckets about the size of a square (each square in 4 of them or so),
    ** at most BK_MAX a side. */
    double side = fmax(s->bx1 - s->bx0, s->by1 - s->by0);
    s->bk_size = fmax(big, side / BK_MAX);
    if (s->bk_size <= 0.0) s->bk_size = side;
    s->bk_inv = 1.0 / s->bk_size;
    s->bk_w = NAV_MIN(NAV_MAX(short_iceil((s->bx1 - s->bx0) * s->bk_inv), 1), BK_MAX);
    s->bk_h = NAV_MIN(NAV_MAX(short_iceil((s->by1 - s->by0) * s->bk_inv), 1), BK_MAX);
    uint32_t nb = (uint32_t)(s->bk_w * s->bk_h);
    memset(s->bk_first, 0, (nb + 1) * sizeof(uint32_t));
    /* Count (into bk_first[b + 1]), prefix sums, fill. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < s->nsq; i++) {
            const double *b = s->sq + 4 * (size_t)i;
            int x0 = NAV_MAX(short_ifloor((b[0] - s->bx0) * s->bk_inv), 0);
            int y0 = NAV_MAX(short_ifloor((b[1] - s->by0) * s->bk_inv), 0);
            int x1 = NAV_MIN(short_ifloor((b[2] - s->bx0) * s->bk_inv), s->bk_w - 1);
            int y1 = NAV_MIN(short_ifloor((b[3] - s->by0) * s->bk_inv), s->bk_h - 1);
            for (int y = y0; y <= y1; y++)
                for (int x = x0; x <= x1; x++) {
                    uint32_t bk = (uint32_t)(y * s->bk_w + x);
                    if (pass == 0) s->bk_first[bk + 1]++;
                    else s->bk_items[s->bk_first[bk]++] = i;
                }
        }
        if (pass == 0) {
            for (uint32_t b = 0; b < nb; b++) s->bk_first[b + 1] += s->bk_first[b];
            /* bk_first[b] is now b's start: the fill moves it to b's end */
            if (!short_reserve_items(s, s->bk_first[nb])) return false;
        }
    }
    /* After the fill bk_first[b] is the end of b = the start of b + 1. */
    for (uint32_t b = nb; b > 0; b--) s->bk_first[b] = s->bk_first[b - 1];
    s->bk_first[0] = 0;
    return true;
}

bool short_square_vertices(GridShortSearch *s)
{
    double e = s->eps;
    for (uint32_t i = 0; i < s->nsq; i++) {
        const double *b = s->sq + 4 * (size_t)i;
        if (!add_vertex(s, b[0] - e, b[1] - e, 1, 1, GRID_SHORT_VERTEX_SQUARE) ||
            !add_vertex(s, b[2] + e, b[1] - e, -1, 1, GRID_SHORT_VERTEX_SQUARE) ||
            !add_vertex(s, b[2] + e, b[3] + e, -1, -1, GRID_SHORT_VERTEX_SQUARE) ||
            !add_vertex(s, b[0] - e, b[3] + e, 1, -1, GRID_SHORT_VERTEX_SQUARE))
            return false;
    }
    return true;
}

/* }======= */

/*
** grid_short_reach.c — where in the search square the start might get
** to, so that corners it cannot reach never enter the graph. A unit
** walled in by others would otherwise test every corner outside the wall
** against every corner inside it before the search gives up.
**
** A raster of half cells over the square's cells (whole cells when that
** would pass REACH_MAX_WORDS words a row), one bit each: free unless the
** raster cell is on an impassable grid cell (when the start is not) or
** wholly inside the union of the grown unit squares that do not hold the
** start. Then a flood, 4-connected, from the start's raster cell. Any
** path the search can take passes only through raster cells holding a
** free point, each beside the last: through a raster corner it would
** touch the two cells beside it, and the corner is free only if both of
** those are (a covered cell is covered up to its outline; the search
** counts every grid cell at a corner it passes). So every corner it can
** reach lies in a flooded raster cell: the raster can only err toward
** keeping a corner.
**
** The union is judged a line of raster cells at a time: per row band the
** squares spanning the whole band, their x intervals merged, and the same
** per column band; a raster cell wholly inside a merged interval of
** either is covered. Two squares that overlap side by side or one above
** the other leave no gap between them that way; cells the union covers
** only in more tangled ways stay free (kept, never wrongly dropped).
**
** Rows are bit lines: the flood spreads along a row's free runs 64 cells
** at a time (a Kogge-Stone fill) and sweeps up and down until nothing
** changes.
**
** Only when obstacles cover at least half the square (REACH_MIN_COVER):
** in the open the raster costs more than the corners it could drop.
**
** DOES NOT: decide reachability; the search does. This only leaves out
** what it could never reach.
*/
#include "grid/grid_short_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define REACH_MAX_WORDS 8 /* raster rows of up to 512 cells */
#define REACH_MARGIN 1e-9 /* metres: a raster cell must be inside an interval by more */
/* The raster costs about as much as a few dozen segment tests; below this
** share of the square covered by obstacles walls are rare and it would
** seldom pay. */
#define REACH_MIN_COVER 0.5

/* {======= memory ======= */

static bool reserve(GridShortSearch *s, uint32_t words, uint32_t lines, uint32_t spans)
{
    if (words > s->cap_reach) {
        uint64_t *a = nav_realloc(s->reach_free, words * sizeof *a);
        if (!a) return false;
        s->reach_free = a;
        uint64_t *b = nav_realloc(s->reach, words * sizeof *b);
        if (!b) return false;
        s->reach = b;
        s->cap_reach = words;
    }
    if (lines + 1 > s->cap_lines) {
        uint32_t *f = nav_realloc(s->span_first, (lines + 1) * sizeof *f);
        if (!f) return false;
        s->span_first = f;
        uint32_t *k = nav_realloc(s->key_first, (lines + 3) * sizeof *k);
        if (!k) return false;
        s->key_first = k;
        s->cap_lines = lines + 1;
    }
    if (s->nsq > s->cap_order) {
        uint32_t *o = nav_realloc(s->sq_order, s->cap_sq * sizeof *o);
        if (!o) return false;
        s->sq_order = o;
        s->cap_order = s->cap_sq;
    }
    if (spans > s->cap_spans) {
        uint32_t cap = s->cap_spans ? s->cap_spans : 256;
        while (cap < spans) cap *= 2;
        double *sp = nav_realloc(s->spans, 2 * (size_t)cap * sizeof *sp);
        if (!sp) return false;
        s->spans = sp;
        s->cap_spans = cap;
    }
    return true;
}

/* }======= */

/* {======= the free raster ======= */

static inline void clear_bit(uint64_t *line, int c) { line[c >> 6] &= ~(1ull << (c & 63)); }

/* The low 32 bits of x, each twice: bit i to bits 2i and 2i + 1. */
static inline uint64_t spread_bits(uint64_t x)
{
    x &= 0xFFFFFFFFull;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | (x << 2)) & 0x3333333333333333ull;
    x = (x | (x << 1)) & 0x5555555555555555ull;
    return x | (x << 1);
}

/* Raster cells wholly inside the union of the squares, one band direction
** at a time: rows (bands across y, intervals along x) or columns. */
static bool cover_bands(GridShortSearch *s, bool rows)
{
    int lines = rows ? s->reach_h : s->reach_w, along = rows ? s->reach_w : s->reach_h;
    double o_line = rows ? s->reach_y0 : s->reach_x0, o_along = rows ? s->reach_x0 : s->reach_y0;
    double inv = s->reach_inv;
    uint32_t *first = s->span_first;
    /* The squares by the raster line they start on along the bands (a
    ** counting sort), so each band's spans come nearly sorted. */
    uint32_t *kf = s->key_first, n_order = 0;
    memset(kf, 0, ((size_t)along + 3) * sizeof *kf);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < s->nsq; i++) {
            if (s->sq_start[i]) continue;
            double a = rows ? s->sq[4 * (size_t)i] : s->sq[4 * (size_t)i + 1];
            int key = NAV_MIN(NAV_MAX(short_ifloor((a - o_along) * inv) + 1, 0), along + 1);
            if (pass == 0) kf[key + 1]++;
            else s->sq_order[kf[key]++] = i;
        }
        if (pass == 0)
            for (int k = 0; k <= along + 1; k++) kf[k + 1] += kf[k];
    }
    n_order = kf[along + 1];
    memset(first, 0, ((size_t)lines + 1) * sizeof *first);
    /* Count the bands each square spans wholly, then fill (a, b) pairs. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t o = 0; o < n_order; o++) {
            uint32_t i = s->sq_order[o];
            const double *b = s->sq + 4 * (size_t)i;
            double lo = rows ? b[1] : b[0], hi = rows ? b[3] : b[2];
            int j0 = NAV_MAX(short_ifloor((lo + REACH_MARGIN - o_line) * inv) + 1, 0);
            int j1 = NAV_MIN(short_iceil((hi - REACH_MARGIN - o_line) * inv) - 2, lines - 1);
            for (int j = j0; j <= j1; j++) {
                if (pass == 0) {
                    first[j + 1]++;
                } else {
                    uint32_t k = first[j]++;
                    s->spans[2 * k] = rows ? b[0] : b[1];
                    s->spans[2 * k + 1] = rows ? b[2] : b[3];
                }
            }
        }
        if (pass == 0) {
            for (int j = 0; j < lines; j++) first[j + 1] += first[j];
            if (!reserve(s, 0, 0, first[lines])) return false;
        }
    }
    for (int j = lines; j > 0; j--) first[j] = first[j - 1];
    first[0] = 0;
    int W = s->reach_words;
    for (int j = 0; j < lines; j++) {
        double *sp = s->spans + 2 * (size_t)first[j];
        uint32_t n = first[j + 1] - first[j];
        /* insertion sort on the start: a few squares a band */
        for (uint32_t a = 1; a < n; a++) {
            double x0 = sp[2 * a], x1 = sp[2 * a + 1];
            uint32_t b = a;
            for (; b > 0 && sp[2 * (b - 1)] > x0; b--) {
                sp[2 * b] = sp[2 * (b - 1)];
                sp[2 * b + 1] = sp[2 * (b - 1) + 1];
            }
            sp[2 * b] = x0;
            sp[2 * b + 1] = x1;
        }
        /* merge open intervals that overlap (touching ones leave a point
        ** free between them), and clear the cells inside each */
        for (uint32_t a = 0; a < n;) {
            double x0 = sp[2 * a], x1 = sp[2 * a + 1];
            uint32_t b = a + 1;
            for (; b < n && sp[2 * b] < x1; b++) x1 = fmax(x1, sp[2 * b + 1]);
            int c0 = NAV_MAX(short_ifloor((x0 + REACH_MARGIN - o_along) * inv) + 1, 0);
            int c1 = NAV_MIN(short_iceil((x1 - REACH_MARGIN - o_along) * inv) - 2, along - 1);
            for (int c = c0; c <= c1; c++) {
                if (rows) clear_bit(s->reach_free + (size_t)j * (size_t)W, c);
                else clear_bit(s->reach_free + (size_t)c * (size_t)W, j);
            }
            a = b;
        }
    }
    return true;
}

/* }======= */

/* {======= the flood ======= */

/* Spread the bits of S along the runs of F they lie in (S within F), a
** row of W words. */
static void fill_runs(uint64_t *S, const uint64_t *F, int W)
{
    for (bool again = true; again;) {
        again = false;
        for (int w = 0; w < W; w++) {
            uint64_t g = S[w], p = F[w];
            /* upward, then downward, by doubling steps */
            uint64_t q = p;
            g |= q & (g << 1);
            q &= q << 1;
            g |= q & (g << 2);
            q &= q << 2;
            g |= q & (g << 4);
            q &= q << 4;
            g |= q & (g << 8);
            q &= q << 8;
            g |= q & (g << 16);
            q &= q << 16;
            g |= q & (g << 32);
            q = p;
            g |= q & (g >> 1);
            q &= q >> 1;
            g |= q & (g >> 2);
            q &= q >> 2;
            g |= q & (g >> 4);
            q &= q >> 4;
            g |= q & (g >> 8);
            q &= q >> 8;
            g |= q & (g >> 16);
            q &= q >> 16;
            g |= q & (g >> 32);
            S[w] = g;
            /* across word edges */
            if (w + 1 < W && (g >> 63) && (F[w + 1] & 1u) && !(S[w + 1] & 1u)) {
                S[w + 1] |= 1u;
                again = true;
            }
            if (w > 0 && (g & 1u) && (F[w - 1] >> 63) && !(S[w - 1] >> 63)) {
                S[w - 1] |= 1ull << 63;
                again = true;
            }
        }
    }
}

/* Row dst gains the free cells beside row src's; true when it gained
** any. */
static bool spread_row(uint64_t *dst, const uint64_t *src, const uint64_t *F, int W)
{
    bool grew = false;
    for (int w = 0; w < W; w++) {
        uint64_t add = src[w] & F[w] & ~dst[w];
        if (add) {
            dst[w] |= add;
            grew = true;
        }
    }
    if (grew) fill_runs(dst, F, W);
    return grew;
}

/* }======= */

/* Do the square's obstacles cover enough of it to wall anything in? The
** grown squares' areas (overlaps counted twice) and the impassable cells,
** against REACH_MIN_COVER of the square. */
static bool crowded(const GridShortSearch *s)
{
    double area = 0.0;
    for (uint32_t i = 0; i < s->nsq; i++) {
        const double *b = s->sq + 4 * (size_t)i;
        area += (fmin(b[2], s->bx1) - fmax(b[0], s->bx0)) * (fmin(b[3], s->by1) - fmax(b[1], s->by0));
    }
    int blocked = 0;
    for (int y = s->cy0; y <= s->cy1 && !s->start_blocked; y++) {
        const uint64_t *row = grid_row_line(s->g, s->cls, y);
        for (int x = s->cx0; x <= s->cx1; x += 64) {
            int n = NAV_MIN(64, s->cx1 - x + 1);
            uint64_t open = short_bits64(row, x) | (n == 64 ? 0ull : ~0ull << n);
            blocked += __builtin_popcountll(~open);
        }
    }
    area += blocked * s->cs * s->cs;
    return area >= REACH_MIN_COVER * (s->bx1 - s->bx0) * (s->by1 - s->by0);
}

bool short_build_reach(GridShortSearch *s, double sx, double sy)
{
    const NavGrid *g = s->g;
    int cells_w = s->cx1 - s->cx0 + 1, cells_h = s->cy1 - s->cy0 + 1;
    int k = cells_w * 2 <= 64 * REACH_MAX_WORDS && cells_h * 2 <= 64 * REACH_MAX_WORDS ? 2 : 1;
    s->reach_on = cells_w * k <= 64 * REACH_MAX_WORDS && cells_h * k <= 64 * REACH_MAX_WORDS && crowded(s);
    if (!s->reach_on) return true;
    s->reach_w = cells_w * k;
    s->reach_h = cells_h * k;
    s->reach_words = (s->reach_w + 63) / 64;
    s->reach_r = s->cs / k;
    s->reach_inv = k * s->inv_cs;
    s->reach_x0 = s->cx0 * s->cs;
    s->reach_y0 = s->cy0 * s->cs;
    int W = s->reach_words;
    uint32_t words = (uint32_t)(s->reach_h * W);
    if (!reserve(s, words, (uint32_t)NAV_MAX(s->reach_w, s->reach_h), 0)) return false;
    /* free: the passable cells (all of them when the start is on an
    ** impassable one: it may walk through those), from the row bits, each
    ** bit doubled for half cells */
    for (int cy = 0; cy < cells_h; cy++) {
        uint64_t *line = s->reach_free + (size_t)(cy * k) * (size_t)W;
        const uint64_t *row = grid_row_line(g, s->cls, s->cy0 + cy);
        for (int w = 0; w < W; w++) {
            int first = s->cx0 + w * 64 / k; /* grid cell of this word's bit 0 */
            int count = NAV_MIN(64 / k, cells_w - w * 64 / k);
            uint64_t bits = s->start_blocked ? ~0ull : short_bits64(row, first);
            bits &= count >= 64 ? ~0ull : (count <= 0 ? 0ull : ((1ull << count) - 1));
            line[w] = k == 2 ? spread_bits(bits) : bits;
        }
        for (int i = 1; i < k; i++) memcpy(line + (size_t)i * (size_t)W, line, (size_t)W * sizeof *line);
    }
    if (!cover_bands(s, true) || !cover_bands(s, false)) return false;
    /* the flood */
    memset(s->reach, 0, words * sizeof *s->reach);
    int c = NAV_MIN(NAV_MAX(short_ifloor((sx - s->reach_x0) * s->reach_inv), 0), s->reach_w - 1);
    int r = NAV_MIN(NAV_MAX(short_ifloor((sy - s->reach_y0) * s->reach_inv), 0), s->reach_h - 1);
    uint64_t *seed = s->reach + (size_t)r * (size_t)W;
    /* The start's own cell holds a free point (the start), so it is free
    ** unless the raster is wrong; keep it either way. */
    seed[c >> 6] |= 1ull << (c & 63);
    fill_runs(seed, s->reach_free + (size_t)r * (size_t)W, W);
    for (bool again = true; again;) {
        again = false;
        for (int y = 1; y < s->reach_h; y++)
            again |=
                spread_row(s->reach + (size_t)y * W, s->reach + (size_t)(y - 1) * W, s->reach_free + (size_t)y * W, W);
        for (int y = s->reach_h - 2; y >= 0; y--)
            again |=
                spread_row(s->reach + (size_t)y * W, s->reach + (size_t)(y + 1) * W, s->reach_free + (size_t)y * W, W);
    }
    return true;
}

bool short_reachable(const GridShortSearch *s, double x, double y)
{
    if (!s->reach_on) return true;
    int c = short_ifloor((x - s->reach_x0) * s->reach_inv), r = short_ifloor((y - s->reach_y0) * s->reach_inv);
    if (c < 0 || r < 0 || c >= s->reach_w || r >= s->reach_h) return false;
    return (s->reach[(size_t)r * (size_t)s->reach_words + (size_t)(c >> 6)] >> (c & 63)) & 1u;
}

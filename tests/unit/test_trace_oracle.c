/*
** test_trace_oracle.c — hull traces against a brute-force oracle: random
** worlds, the bundled maps, long traces (helpers in trace_support.h).
*/
#include "core/alloc.h"
#include "trace_support.h"

/* {======= the brute-force oracle ======= */

typedef struct Scene {
    const NavWorld *w;
    const NavBox *boxes;
    int count, ignore;
} Scene;

/* Does the column hold [lo, hi] in one span? */
static bool column_holds_box(const NavWorld *w, int cx, int cy, double lo, double hi)
{
    int n;
    const NavFloor *f = world_column(w, cx, cy, &n);
    for (int i = 0; i < n; i++) {
        double bottom = f[i].contents == NAV_CONTENTS_VOID ? -INFINITY : (double)f[i].z;
        if (bottom <= lo && hi <= (double)f[i].ceiling) return true;
    }
    return false;
}

static bool oracle_outside(const NavWorld *w, const double lo[3], const double hi[3])
{
    double s = world_cell_size(w);
    return lo[0] < 0.0 || lo[1] < 0.0 || hi[0] > world_width(w) * s || hi[1] > world_height(w) * s;
}

/* Does the open square of column (cx, cy) meet the box's footprint? */
static bool footprint_meets(const NavWorld *w, int cx, int cy, const double lo[3], const double hi[3])
{
    double s = world_cell_size(w);
    return cx * s < hi[0] && (cx + 1) * s > lo[0] && cy * s < hi[1] && (cy + 1) * s > lo[1];
}

static bool oracle_world_fits(const NavWorld *w, const double lo[3], const double hi[3])
{
    if (oracle_outside(w, lo, hi)) return false;
    double s = world_cell_size(w);
    /* Every column near the footprint, tested one by one (a generous range). */
    int x0 = (int)floor(lo[0] / s) - 2, x1 = (int)floor(hi[0] / s) + 2;
    int y0 = (int)floor(lo[1] / s) - 2, y1 = (int)floor(hi[1] / s) + 2;
    for (int cy = NAV_MAX(y0, 0); cy <= NAV_MIN(y1, world_height(w) - 1); cy++)
        for (int cx = NAV_MAX(x0, 0); cx <= NAV_MIN(x1, world_width(w) - 1); cx++)
            if (footprint_meets(w, cx, cy, lo, hi) && !column_holds_box(w, cx, cy, lo[2], hi[2])) return false;
    return true;
}

static bool oracle_box_meets(const NavBox *b, const double lo[3], const double hi[3])
{
    for (int a = 0; a < 3; a++)
        if (!(b->mins[a] <= b->maxs[a]) || !(lo[a] < b->maxs[a] && hi[a] > b->mins[a])) return false;
    return true;
}

static bool oracle_fits(const Scene *sc, const double lo[3], const double hi[3])
{
    for (int i = 0; i < sc->count; i++)
        if (i != sc->ignore && oracle_box_meets(&sc->boxes[i], lo, hi)) return false;
    return oracle_world_fits(sc->w, lo, hi);
}

typedef struct Probe {
    float mins[3], maxs[3], start[3], delta[3];
} Probe;

/* The box at start + d * t (double all the way). */
static void box_at(const Probe *pr, const double d[3], double t, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        double o = (double)pr->start[i] + d[i] * t;
        lo[i] = o + pr->mins[i];
        hi[i] = o + pr->maxs[i];
    }
}

/* Does what the trace names overlap the box [lo, hi]? */
static bool named_thing_meets(const Scene *sc, const NavTrace *tr, const double lo[3], const double hi[3])
{
    if (!tr->is_static) return tr->box >= 0 && tr->box < sc->count && tr->box != sc->ignore &&
                               oracle_box_meets(&sc->boxes[tr->box], lo, hi);
    if (tr->cell[0] < 0) return oracle_outside(sc->w, lo, hi);
    return footprint_meets(sc->w, tr->cell[0], tr->cell[1], lo, hi) &&
           !column_holds_box(sc->w, tr->cell[0], tr->cell[1], lo[2], hi[2]);
}

typedef struct Tally {
    int traces, hits, misses, start_solid, box_hits, edge_hits, long_moves, fits_checked, fits_true;
} Tally;

/* One trace against the oracle; `what` names it in failures. */
static void check_trace(const Scene *sc, const Probe *pr, Tally *tally, const char *what)
{
    NavTrace tr;
    world_trace_box(sc->w, pr->mins, pr->maxs, pr->start, pr->delta, sc->boxes, sc->count, sc->ignore, &tr);
    double d[3], lo[3], hi[3], len = 0.0;
    for (int i = 0; i < 3; i++) {
        float e = pr->start[i] + pr->delta[i]; /* the move is start -> fl(start + delta) */
        d[i] = (double)e - (double)pr->start[i];
        len += d[i] * d[i];
    }
    len = sqrt(len);
    tally->traces++;
    if (len > 4.0) tally->long_moves++;

    box_at(pr, d, 0.0, lo, hi);
    bool fits0 = oracle_fits(sc, lo, hi);
    cr_assert_eq(tr.start_solid, !fits0, "%s: start_solid %d but the oracle says the start %s", what,
                 tr.start_solid, fits0 ? "fits" : "does not fit");
    if (tr.start_solid) {
        tally->start_solid++;
        cr_assert(tr.hit && tr.fraction == 0.0f && tr.touch == 0.0f, "%s", what);
        cr_assert(memcmp(tr.end, pr->start, sizeof tr.end) == 0, "%s: end moved", what);
        cr_assert(named_thing_meets(sc, &tr, lo, hi), "%s: the named thing (static %d, box %d, cell %d,%d) is "
                  "not where the box starts", what, tr.is_static, tr.box, tr.cell[0], tr.cell[1]);
        return;
    }

    if (!tr.hit) {
        tally->misses++;
        cr_assert(tr.fraction == 1.0f && tr.touch == 1.0f, "%s", what);
        for (int i = 0; i < 3; i++)
            cr_assert_eq(tr.end[i], pr->start[i] + pr->delta[i], "%s: end is not start + delta", what);
        /* 200 steps, and at least one every quarter of the box's smallest side. */
        double side = fmin(pr->maxs[0] - pr->mins[0], pr->maxs[1] - pr->mins[1]);
        if (pr->maxs[2] > pr->mins[2]) side = fmin(side, pr->maxs[2] - pr->mins[2]);
        int steps = (int)fmin(20000.0, fmax(200.0, ceil(len / (0.25 * side))));
        for (int k = 0; k <= steps; k++) {
            double t = (double)k / steps;
            box_at(pr, d, t, lo, hi);
            cr_assert(oracle_fits(sc, lo, hi), "%s: no hit reported but the box at t = %.9g of the path does "
                      "not fit", what, t);
        }
        return;
    }

    tally->hits++;
    if (!tr.is_static) tally->box_hits++;
    if (tr.is_static && tr.cell[0] < 0) tally->edge_hits++;
    cr_assert(tr.touch >= 0.0f && tr.touch < 1.0f, "%s: touch %g", what, (double)tr.touch);
    cr_assert(tr.fraction >= 0.0f && tr.fraction <= tr.touch, "%s: fraction %g, touch %g", what,
              (double)tr.fraction, (double)tr.touch);

    /* The normal: one unit axis against the move. */
    int axis = -1, nonzero = 0;
    for (int i = 0; i < 3; i++)
        if (tr.normal[i] != 0.0f) {
            nonzero++;
            axis = i;
        }
    cr_assert(nonzero == 1 && fabsf(tr.normal[axis]) == 1.0f, "%s: normal (%g, %g, %g)", what,
              (double)tr.normal[0], (double)tr.normal[1], (double)tr.normal[2]);
    cr_assert(tr.normal[axis] * d[axis] < 0.0, "%s: the normal does not face the move", what);

    /* end: start + d * fraction, and the box there fits (exactly). */
    for (int i = 0; i < 3; i++) {
        double want = (double)pr->start[i] + d[i] * tr.fraction;
        cr_assert(fabs(tr.end[i] - want) <= 1e-4 + 1e-6 * len, "%s: end[%d] %.9g, start + d * fraction %.9g",
                  what, i, (double)tr.end[i], want);
        lo[i] = (double)tr.end[i] + pr->mins[i];
        hi[i] = (double)tr.end[i] + pr->maxs[i];
    }
    cr_assert(oracle_fits(sc, lo, hi), "%s: the box at end (fraction %.9g) does not fit", what,
              (double)tr.fraction);

    /* Pulled back by a few epsilons along the normal at most (or to 0). */
    double dn = fabs(d[axis]);
    double pulled = ((double)tr.touch - (double)tr.fraction) * dn;
    cr_assert(tr.fraction == 0.0f || pulled <= 4.0 * NAV_TRACE_EPSILON + 1e-6 * fmax(1.0, len),
              "%s: pulled back %.9g m along the normal", what, pulled);
    cr_assert(pulled >= 0.5 * NAV_TRACE_EPSILON || tr.fraction == 0.0f,
              "%s: pulled back only %.9g m along the normal", what, pulled);

    /* Clear before touch... */
    for (int k = 0; k < 50; k++) {
        double t = (double)tr.touch * k / 50.0;
        box_at(pr, d, t, lo, hi);
        cr_assert(oracle_fits(sc, lo, hi), "%s: the box at t = %.9g, before touch %.9g, does not fit", what, t,
                  (double)tr.touch);
    }
    /* ...and in what the trace names just after it. touch is a float (off by
    ** up to 2^-24 of itself), and the box may clip a corner for a moment, so
    ** the box is tried at touch plus and minus 2^-23 .. 2^-45 and plus up to
    ** 2^-10 of the move: some must be blocked, and by the thing named. */
    bool blocked = false, named = false;
    for (int k = 10; k <= 46; k++) {
        for (int sign = 1; sign >= -1; sign -= 2) {
            if (sign < 0 && k < 23) continue;
            double t = (double)tr.touch + (k == 46 ? 0.0 : sign * ldexp(1.0, -k));
            box_at(pr, d, t, lo, hi);
            if (!oracle_fits(sc, lo, hi)) blocked = true;
            if (named_thing_meets(sc, &tr, lo, hi)) named = true;
        }
    }
    cr_assert(blocked, "%s: a hit at touch %.9g (fraction %.9g) but the box fits just after it", what,
              (double)tr.touch, (double)tr.fraction);
    cr_assert(named, "%s: a hit at %.9g names static %d, box %d, cell (%d, %d), which the box does not reach",
              what, (double)tr.touch, tr.is_static, tr.box, tr.cell[0], tr.cell[1]);
}

static float rnd(uint64_t *st, double a, double b) { return (float)(a + (b - a) * nav_rand_unit(st)); }
static int rndi(uint64_t *st, int n) { return (int)(nav_rand_next(st) % (uint64_t)n); }
/* A multiple of q in [a, b]. */
static float rndq(uint64_t *st, double a, double b, double q)
{
    return (float)(q * floor(nav_rand_unit(st) * ((b - a) / q + 1.0)) + a);
}

/* A random hull and a random start and move over w: starts often stand
** exactly on a floor or flush with a cell line, moves are short, axis
** aligned, falls or long. */
static void random_probe(const NavWorld *w, uint64_t *st, Probe *pr)
{
    double s = world_cell_size(w), mx = world_width(w) * s, my = world_height(w) * s;
    bool quantized = rndi(st, 2) == 0;
    for (int i = 0; i < 2; i++) {
        float half = quantized ? rndq(st, 0.125, 0.75, 0.125) : rnd(st, 0.05, 0.8);
        pr->mins[i] = rndi(st, 4) == 0 ? -rnd(st, 0.05, 0.8) : -half;
        pr->maxs[i] = half;
    }
    pr->mins[2] = rndi(st, 3) == 0 ? rnd(st, -1.0, 0.5) : 0.0f;
    pr->maxs[2] = pr->mins[2] + (rndi(st, 20) == 0 ? 0.0f : quantized ? rndq(st, 0.25, 2.5, 0.25) : rnd(st, 0.1, 2.5));

    /* Three starts in four are drawn until the box fits (the oracle says so). */
    bool want_fit = rndi(st, 4) != 0;
    for (int tries = 0; tries < (want_fit ? 40 : 1); tries++) {
        pr->start[0] = rnd(st, -0.5, mx + 0.5);
        pr->start[1] = rnd(st, -0.5, my + 0.5);
        pr->start[2] = rnd(st, -2.0, 14.0);
        int cx, cy;
        if (world_point_cell(w, pr->start[0], pr->start[1], &cx, &cy) && rndi(st, 4) != 0) {
            int n;
            const NavFloor *f = world_column(w, cx, cy, &n);
            if (n > 0) {
                const NavFloor *sp = &f[rndi(st, n)];
                float base = sp->contents == NAV_CONTENTS_VOID ? rnd(st, -3.0, 3.0) : sp->z;
                pr->start[2] = rndi(st, 2) ? base - pr->mins[2] : base - pr->mins[2] + rnd(st, 0.0, 1.0);
            }
        }
        if (rndi(st, 4) == 0) pr->start[0] = (float)(rndi(st, world_width(w) + 1) * s) - pr->maxs[0];
        if (rndi(st, 4) == 0) pr->start[1] = (float)(rndi(st, world_height(w) + 1) * s) - pr->mins[1];
        double lo[3], hi[3];
        for (int i = 0; i < 3; i++) {
            lo[i] = (double)pr->start[i] + pr->mins[i];
            hi[i] = (double)pr->start[i] + pr->maxs[i];
        }
        if (oracle_world_fits(w, lo, hi)) break;
    }
    memset(pr->delta, 0, sizeof pr->delta);
    switch (rndi(st, 6)) {
    case 0: /* a tick's walk */
        pr->delta[0] = rnd(st, -0.5, 0.5);
        pr->delta[1] = rnd(st, -0.5, 0.5);
        break;
    case 1: /* a tick's walk, jump or fall */
        for (int i = 0; i < 3; i++) pr->delta[i] = rnd(st, -1.0, 1.0);
        break;
    case 2: /* along one axis */
        pr->delta[rndi(st, 3)] = rndi(st, 2) ? rnd(st, -3.0, 3.0) : rndq(st, -3.0, 3.0, 0.25);
        break;
    case 3: /* a fall */
        pr->delta[2] = rnd(st, -20.0, 0.0);
        pr->delta[0] = rndi(st, 2) ? 0.0f : rnd(st, -0.3, 0.3);
        break;
    case 4: /* across the map */
        pr->delta[0] = rnd(st, -0.5, mx + 0.5) - pr->start[0];
        pr->delta[1] = rnd(st, -0.5, my + 0.5) - pr->start[1];
        pr->delta[2] = rndi(st, 2) ? 0.0f : rnd(st, -2.0, 2.0);
        break;
    default: /* nothing, or almost */
        if (rndi(st, 2)) pr->delta[rndi(st, 3)] = rnd(st, -1e-4, 1e-4);
        break;
    }
}

/* Up to three boxes near the start, sometimes one in the mover's place
** (then usually ignored). */
static int random_boxes(uint64_t *st, const Probe *pr, NavBox *boxes, int *ignore)
{
    int count = rndi(st, 4);
    for (int i = 0; i < count; i++) {
        for (int a = 0; a < 3; a++) {
            float c = pr->start[a] + pr->delta[a] * rnd(st, 0.0, 1.2) + rnd(st, -1.0, 1.0);
            float half = rndi(st, 10) == 0 ? 0.0f : rnd(st, 0.1, 0.8);
            boxes[i].mins[a] = c - half;
            boxes[i].maxs[a] = c + half;
        }
    }
    *ignore = -1;
    if (count > 0 && rndi(st, 3) == 0) {
        int i = rndi(st, count);
        for (int a = 0; a < 3; a++) {
            boxes[i].mins[a] = pr->start[a] + pr->mins[a];
            boxes[i].maxs[a] = pr->start[a] + pr->maxs[a];
        }
        *ignore = rndi(st, 4) ? i : -1;
    }
    return count;
}

/* world_box_fits against the oracle, for the probe's box at a few places. */
static void check_fits(const NavWorld *w, const Probe *pr, uint64_t *st, Tally *tally, const char *what)
{
    for (int k = 0; k < 4; k++) {
        float o[3];
        for (int i = 0; i < 3; i++) o[i] = pr->start[i] + (k == 0 ? 0.0f : pr->delta[i] * rnd(st, 0.0, 1.0));
        double lo[3], hi[3];
        for (int i = 0; i < 3; i++) {
            lo[i] = (double)o[i] + pr->mins[i];
            hi[i] = (double)o[i] + pr->maxs[i];
        }
        bool want = oracle_world_fits(w, lo, hi), got = world_box_fits(w, pr->mins, pr->maxs, o);
        cr_assert_eq(got, want, "%s: world_box_fits says %d at (%.9g, %.9g, %.9g), the oracle %d", what, got,
                     (double)o[0], (double)o[1], (double)o[2], want);
        tally->fits_checked++;
        tally->fits_true += want;
    }
}

static void run_oracle(const NavWorld *w, uint64_t *st, int traces, Tally *tally, const char *name)
{
    for (int k = 0; k < traces; k++) {
        Probe pr;
        NavBox boxes[3];
        random_probe(w, st, &pr);
        Scene sc = { .w = w, .boxes = boxes };
        sc.count = random_boxes(st, &pr, boxes, &sc.ignore);
        char what[512];
        snprintf(what, sizeof what,
                 "%s trace %d: box (%.9g, %.9g, %.9g)-(%.9g, %.9g, %.9g) from (%.9g, %.9g, %.9g) by (%.9g, %.9g, "
                 "%.9g), %d boxes, ignore %d",
                 name, k, (double)pr.mins[0], (double)pr.mins[1], (double)pr.mins[2], (double)pr.maxs[0],
                 (double)pr.maxs[1], (double)pr.maxs[2], (double)pr.start[0], (double)pr.start[1],
                 (double)pr.start[2], (double)pr.delta[0], (double)pr.delta[1], (double)pr.delta[2], sc.count,
                 sc.ignore);
        check_fits(w, &pr, st, tally, what);
        check_trace(&sc, &pr, tally, what);
    }
}

/* A random column of up to three spans: `kind` picks the shape, the
** heights come from st (often on a 0.25 m grid so boxes meet faces exactly). */
static int random_column(uint64_t *st, int kind, float *zc, NavContents *contents)
{
    float z = rndi(st, 2) ? rndq(st, -1.0, 2.0, 0.25) : rnd(st, -1.0, 2.0);
    float room = rndi(st, 2) ? rndq(st, 1.0, 4.0, 0.25) : rnd(st, 1.0, 4.0);
    /* The slab between storeys: of no thickness one time in four. */
    float slab = rndi(st, 4) == 0 ? 0.0f : rndi(st, 2) ? rndq(st, 0.25, 1.0, 0.25) : rnd(st, 0.05, 1.0);
    *contents = (NavContents)rndi(st, NAV_CONTENTS_VOID); /* floor .. clip */
    switch (kind) {
    case 0: /* a wall */
        return 0;
    case 1: /* a floor under open sky */
        zc[0] = z, zc[1] = INFINITY;
        return 1;
    case 2: /* under a roof */
        zc[0] = z, zc[1] = z + room;
        return 1;
    case 3: /* two storeys */
        zc[0] = z, zc[1] = z + room, zc[2] = z + room + slab, zc[3] = INFINITY;
        return 2;
    case 4: /* three storeys */
        zc[0] = z, zc[1] = z + room, zc[2] = z + room + slab, zc[3] = zc[2] + 2.0f;
        zc[4] = zc[3] + slab, zc[5] = rndi(st, 2) ? INFINITY : zc[4] + room;
        return 3;
    default: /* a void, open or under a floor */
        *contents = NAV_CONTENTS_VOID;
        zc[0] = -INFINITY, zc[1] = rndi(st, 2) ? INFINITY : z;
        if (isfinite(zc[1])) {
            zc[2] = z + slab, zc[3] = INFINITY;
            return 2;
        }
        return 1;
    }
}

/* A random world of up to 20 x 20 cells: a base shape everywhere, then
** rectangles of other shapes painted over it (rooms, walls, ledges, pits,
** storeys, voids, liquids), so boxes fit in many places and meet every
** kind of face. */
static NavWorld *random_world(uint64_t *st, NavFloorAt *items, size_t cap)
{
    static const float CELLS[] = { 0.5f, 0.25f, 1.0f, 0.3f, 0.7f };
    int width = 3 + rndi(st, 18), height = 3 + rndi(st, 18);
    NavError err;
    NavWorld *w = world_create(&(NavWorldDesc){ .width = width, .height = height,
                                                .cell_size = CELLS[rndi(st, NAV_ARRAY_COUNT(CELLS))] },
                               &err);
    cr_assert_not_null(w, "%s", err.message);
    static float zc[20 * 20][6];
    static int spans[20 * 20];
    static NavContents contents[20 * 20];
    int rects = 1 + rndi(st, 10);
    for (int r = 0; r <= rects; r++) {
        float shape[6];
        NavContents c;
        int n = random_column(st, r == 0 ? 1 + rndi(st, 3) : rndi(st, 6), shape, &c);
        int x0 = r == 0 ? 0 : rndi(st, width), y0 = r == 0 ? 0 : rndi(st, height);
        int sx = rndi(st, 6), sy = rndi(st, 6); /* not inside NAV_MIN: it evaluates twice */
        int x1 = r == 0 ? width - 1 : NAV_MIN(width - 1, x0 + sx);
        int y1 = r == 0 ? height - 1 : NAV_MIN(height - 1, y0 + sy);
        for (int cy = y0; cy <= y1; cy++)
            for (int cx = x0; cx <= x1; cx++) {
                int col = cy * width + cx;
                spans[col] = n;
                contents[col] = c;
                memcpy(zc[col], shape, sizeof shape);
            }
    }
    size_t n = 0;
    for (int cy = 0; cy < height; cy++)
        for (int cx = 0; cx < width; cx++) {
            int col = cy * width + cx;
            for (int i = 0; i < spans[col]; i++) {
                cr_assert(n < cap);
                NavContents c = i == 0 ? contents[col] : contents[col] == NAV_CONTENTS_VOID ? NAV_CONTENTS_FLOOR
                                                                                            : contents[col];
                items[n++] = span_at(w, cx, cy, zc[col][2 * i], zc[col][2 * i + 1], c);
            }
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    return w;
}

Test(trace, oracle_on_random_worlds)
{
    uint64_t st = 0x7ace5eedull;
    static NavFloorAt items[20 * 20 * 3];
    Tally tally = { 0 };
    for (int i = 0; i < 300; i++) {
        NavWorld *w = random_world(&st, items, NAV_ARRAY_COUNT(items));
        char name[64];
        snprintf(name, sizeof name, "random world %d", i);
        run_oracle(w, &st, 80, &tally, name);
        world_destroy(w);
    }
    cr_log_info("trace oracle, random worlds: %d traces: %d hits (%d boxes, %d edges), %d misses, %d start solid, "
                "%d long; world_box_fits %d checks, %d fit",
                tally.traces, tally.hits, tally.box_hits, tally.edge_hits, tally.misses, tally.start_solid,
                tally.long_moves, tally.fits_checked, tally.fits_true);
    /* The generator must exercise every outcome, or the oracle proves little. */
    cr_assert_gt(tally.hits, tally.traces / 5);
    cr_assert_gt(tally.misses, tally.traces / 10);
    cr_assert_gt(tally.start_solid, tally.traces / 20);
    cr_assert_gt(tally.box_hits, 100);
    cr_assert_gt(tally.edge_hits, 50);
    cr_assert_gt(tally.fits_true, tally.fits_checked / 10);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, oracle_on_bundled_maps)
{
    uint64_t st = 0xb0dd1e5ull;
    for (size_t m = 0; m < NAV_ARRAY_COUNT(BUNDLED_MAPS); m++) {
        NavWorld *w = test_load_map(BUNDLED_MAPS[m]);
        Tally tally = { 0 };
        run_oracle(w, &st, 3000, &tally, BUNDLED_MAPS[m]);
        cr_log_info("trace oracle, %s: %d traces: %d hits (%d boxes), %d misses, %d start solid, %d long",
                    BUNDLED_MAPS[m], tally.traces, tally.hits, tally.box_hits, tally.misses, tally.start_solid,
                    tally.long_moves);
        cr_assert_gt(tally.hits, 100, "%s", BUNDLED_MAPS[m]);
        cr_assert_gt(tally.misses, 100, "%s", BUNDLED_MAPS[m]);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(trace, long_traces_across_a_large_map)
{
    /* 400 x 300 cells of 0.5 m, open floor, a ring of pillars: traces
    ** corner to corner must agree with the oracle and stop at the first
    ** pillar on their line. */
    NavError err;
    NavWorld *w = world_create(&(NavWorldDesc){ .width = 400, .height = 300 }, &err);
    cr_assert_not_null(w, "%s", err.message);
    size_t cap = 400u * 300u;
    NavFloorAt *items = nav_malloc(cap * sizeof *items);
    cr_assert_not_null(items);
    size_t n = 0;
    for (int cy = 0; cy < 300; cy++)
        for (int cx = 0; cx < 400; cx++) {
            bool pillar = cx % 37 == 5 && cy % 23 == 7;
            if (!pillar) items[n++] = span_at(w, cx, cy, 0.0f, INFINITY, NAV_CONTENTS_FLOOR);
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    nav_free(items);

    uint64_t st = 0x10e6ull;
    Tally tally = { 0 };
    Scene sc = { .w = w, .ignore = -1 };
    for (int k = 0; k < 200; k++) {
        Probe pr = { .mins = { -0.4f, -0.4f, 0.0f }, .maxs = { 0.4f, 0.4f, 1.8f } };
        pr.start[0] = rnd(&st, 0.5, 199.5);
        pr.start[1] = rnd(&st, 0.5, 149.5);
        pr.start[2] = 0.0f;
        pr.delta[0] = rnd(&st, 0.0, 200.0) - pr.start[0];
        pr.delta[1] = rnd(&st, 0.0, 150.0) - pr.start[1];
        char what[128];
        snprintf(what, sizeof what, "long trace %d", k);
        check_trace(&sc, &pr, &tally, what);
    }
    cr_assert_gt(tally.hits, 50);
    cr_assert_gt(tally.misses, 10);

    /* A straight run along a row of pillars: the first one stops it. Row
    ** cy = 7 (y 3.5 .. 4), pillars at cx = 5, 42, 79, ... */
    NavTrace tr = trace(w, 10.0f, 3.75f, 0.0f, 180.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, (21.0 - 10.25) / 180.0, 180.0, "along the pillars");
    cr_assert_eq(tr.cell[0], 42);
    cr_assert_eq(tr.cell[1], 7);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

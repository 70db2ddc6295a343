/*
** test_grid_place.c — building placement and spawn points (grid_place.h)
** against a brute-force oracle written here from the rules as documented:
** on a seeded random terrain (heights, a ramp, a pond, loose water, solid,
** lava, clip and void cells) with random obstructions, thousands of random
** footprints and rule sets. An accepted footprint must pass every rule at
** every cell whose centre it covers; a refused one must break the rule it
** names at the place it names, by the amount it names, and pass every
** check that comes before (the first failure). Spawn points must lie on
** passable cells, off the footprint, clear of each other and of the
** occupied squares, ring by ring and nearest the rally point first.
**
** The oracle works in doubles and in its own terms: cells covered by a
** point-in-rectangle test, slopes from the floor heights, shore distance
** by scanning every liquid cell of the map, rectangle distance from
** segment-to-segment distances and overlap from edge crossings.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid_place.h"
#include "grid_oracle.h"
#include "test_support.h"

#define TW 48
#define TH 40
#define TCS 0.5

/* {======= a random terrain ======= */

static NavWorld *random_terrain(uint64_t seed)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w =
        world_create(&(NavWorldDesc){ .width = TW, .height = TH, .cell_size = (float)TCS, .name = "site" }, &err);
    cr_assert_not_null(w, "%s", err.message);
    OracleRng rng = { seed };
    NavFloorAt *items = calloc(TW * TH, sizeof *items);
    size_t n = 0;
    for (int y = 0; y < TH; y++) {
        for (int x = 0; x < TW; x++) {
            /* Gentle terraces of 0.1 m, a ramp of 0.2 m a cell in the east. */
            double h = 0.1 * floor(2.5 * (sin(x * 0.31) + cos(y * 0.27)));
            if (x > 34) h += 0.2 * (x - 34);
            double r = orng_unit(&rng);
            NavFloor f = { .z = (float)h, .ceiling = INFINITY, .top = (float)h, .contents = NAV_CONTENTS_FLOOR };
            double pond = hypot(x - 12.0, y - 28.0);
            if (pond < 6.0) {
                f.contents = NAV_CONTENTS_WATER;
                f.z = (float)(h - (0.15 + 0.2 * (6.0 - pond)));
            } else if (r < 0.04) {
                continue; /* solid */
            } else if (r < 0.05) {
                f.contents = NAV_CONTENTS_LAVA;
                f.z = (float)(h - 0.5);
            } else if (r < 0.06) {
                f.contents = NAV_CONTENTS_CLIP;
            } else if (r < 0.07) {
                f.contents = NAV_CONTENTS_VOID;
                f.z = f.top = -INFINITY;
            } else if (r < 0.09) {
                f.contents = NAV_CONTENTS_WATER;
                f.z = (float)(h - 0.1 - 0.5 * orng_unit(&rng));
            }
            items[n++] = (NavFloorAt){ .cell = (uint32_t)(y * TW + x), .floor = f };
        }
    }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    free(items);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, NULL, &err)), "%s", err.message);
    return w;
}

/* }======= */

/* {======= the oracle ======= */

typedef struct ORect {
    double cx, cy, ux, uy, hw, hh;
} ORect;

static ORect orect(const GridShape *s)
{
    return (ORect){ s->x, s->y, cos((double)s->angle), sin((double)s->angle), s->hw, s->hh };
}

static void o_local(const ORect *r, double px, double py, double *lx, double *ly)
{
    double dx = px - r->cx, dy = py - r->cy;
    *lx = dx * r->ux + dy * r->uy;
    *ly = -dx * r->uy + dy * r->ux;
}

static void o_corners(const ORect *r, double c[4][2])
{
    const double sx[4] = { -1, 1, 1, -1 }, sy[4] = { -1, -1, 1, 1 };
    for (int i = 0; i < 4; i++) {
        c[i][0] = r->cx + sx[i] * r->hw * r->ux - sy[i] * r->hh * r->uy;
        c[i][1] = r->cy + sx[i] * r->hw * r->uy + sy[i] * r->hh * r->ux;
    }
}

static bool o_inside(const ORect *r, double px, double py, double eps)
{
    double lx, ly;
    o_local(r, px, py, &lx, &ly);
    return fabs(lx) <= r->hw + eps && fabs(ly) <= r->hh + eps;
}

static double seg_point(const double a[2], const double b[2], const double p[2])
{
    double vx = b[0] - a[0], vy = b[1] - a[1], len2 = vx * vx + vy * vy;
    double t = len2 > 0 ? ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(a[0] + t * vx - p[0], a[1] + t * vy - p[1]);
}

static bool seg_cross(const double a[2], const double b[2], const double c[2], const double d[2])
{
    double d1 = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    double d2 = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
    double d3 = (d[0] - c[0]) * (a[1] - c[1]) - (d[1] - c[1]) * (a[0] - c[0]);
    double d4 = (d[0] - c[0]) * (b[1] - c[1]) - (d[1] - c[1]) * (b[0] - c[0]);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

/* Interiors overlap: edges cross, or one holds the other's centre. */
static bool o_overlap(const ORect *a, const ORect *b)
{
    double ca[4][2], cb[4][2];
    o_corners(a, ca);
    o_corners(b, cb);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (seg_cross(ca[i], ca[(i + 1) & 3], cb[j], cb[(j + 1) & 3])) return true;
    return o_inside(a, b->cx, b->cy, 0) || o_inside(b, a->cx, a->cy, 0);
}

/* Distance between rectangles that do not overlap: the least distance
** between an edge of one and an edge of the other. */
static double o_distance(const ORect *a, const ORect *b)
{
    double ca[4][2], cb[4][2], best = INFINITY;
    o_corners(a, ca);
    o_corners(b, cb);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            best = fmin(best, seg_point(cb[j], cb[(j + 1) & 3], ca[i]));
            best = fmin(best, seg_point(ca[i], ca[(i + 1) & 3], cb[j]));
        }
    return best;
}

static const NavFloor *o_ground(const NavWorld *w, int x, int y)
{
    int n;
    const NavFloor *f = world_column(w, x, y, &n);
    return n ? &f[0] : NULL;
}

static bool o_liquid(const NavFloor *f)
{
    return f &&
           (f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME);
}

typedef struct OCell {
    bool blocked;
    double depth, slope, shore;
} OCell;

/* Everything the rules look at in one cell, from scratch. */
static OCell o_cell(const NavWorld *w, int x, int y)
{
    OCell c = { 0 };
    const NavFloor *f = o_ground(w, x, y);
    if (!f || f->contents == NAV_CONTENTS_VOID || f->contents == NAV_CONTENTS_CLIP ||
        f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME) {
        c.blocked = true;
        return c;
    }
    c.depth = f->contents == NAV_CONTENTS_WATER ? (double)f->top - f->z : 0.0;
    double dh = 0;
    const int nx[4] = { x + 1, x - 1, x, x }, ny[4] = { y, y, y + 1, y - 1 };
    for (int k = 0; k < 4; k++) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= TW || ny[k] >= TH) continue;
        const NavFloor *g = o_ground(w, nx[k], ny[k]);
        if (g && g->contents != NAV_CONTENTS_VOID) dh = fmax(dh, fabs((double)g->z - f->z));
    }
    c.slope = atan(dh / TCS) * 180.0 / NAV_PI;
    /* Shore: every liquid cell of the map, the distance to its square. */
    c.shore = INFINITY;
    double px = (x + 0.5) * TCS, py = (y + 0.5) * TCS;
    for (int qy = 0; qy < TH; qy++)
        for (int qx = 0; qx < TW; qx++) {
            if (!o_liquid(o_ground(w, qx, qy))) continue;
            double ex = fmax(0, fmax(qx * TCS - px, px - (qx + 1) * TCS));
            double ey = fmax(0, fmax(qy * TCS - py, py - (qy + 1) * TCS));
            c.shore = fmin(c.shore, hypot(ex, ey));
        }
    return c;
}

static OCell cells[TW * TH];

/* Does the cell pass every rule? (*why: the first reason it does not.) */
static bool o_cell_passes(int x, int y, const GridPlaceRules *r, GridPlaceReason *why)
{
    const OCell *c = &cells[y * TW + x];
    GridPlaceReason k = GRID_PLACE_OK;
    if (c->blocked) k = GRID_PLACE_BLOCKED;
    else if (c->depth > r->max_water + 1e-3) k = GRID_PLACE_WATER;
    else if (c->depth < r->min_water - 1e-3) k = GRID_PLACE_DRY;
    else if (c->slope > r->max_slope + 1e-2) k = GRID_PLACE_SLOPE;
    else if (c->shore < r->shore - 1e-3) k = GRID_PLACE_SHORE;
    if (why) *why = k;
    return k == GRID_PLACE_OK;
}

/* Values that sit within rounding of a limit are left out of the test
** (the engine may go either way there); true when a cell is that close. */
static bool o_cell_borderline(int x, int y, const GridPlaceRules *r)
{
    const OCell *c = &cells[y * TW + x];
    /* Dry ground is 0 deep exactly, and a shore rule of 0 holds anywhere. */
    bool wet = c->depth > 0;
    return (wet && (fabs(c->depth - r->max_water) < 2e-3 || fabs(c->depth - r->min_water) < 2e-3)) ||
           fabs(c->slope - r->max_slope) < 2e-2 || (r->shore > 0 && fabs(c->shore - r->shore) < 2e-3);
}

/* }======= */

/* {======= placement ======= */

typedef struct Trial {
    GridShape fp;
    GridPlaceRules rules;
} Trial;

static Trial random_trial(OracleRng *rng)
{
    Trial t;
    t.fp = (GridShape){ .x = (float)orng_range(rng, -1.0, TW * TCS + 1.0),
                        .y = (float)orng_range(rng, -1.0, TH * TCS + 1.0),
                        .hw = (float)orng_range(rng, 0.1, 3.5),
                        .hh = (float)orng_range(rng, 0.1, 3.5),
                        .angle = orng_unit(rng) < 0.3 ? 0.0f : (float)orng_range(rng, -3.2, 3.2) };
    static const float SLOPES[] = { 5, 12, 25, 45, 90 }, WATER[] = { 0, 0, 0, 0.3f, 1.0f, 3.0f };
    static const float SHORE[] = { 0, 0, 0.6f, 1.7f }, SPACING[] = { 0, 0, 0.7f, 2.5f }, EDGE[] = { 0, 0, 0.8f };
    t.rules.max_slope = SLOPES[orng_int(rng, 5)];
    t.rules.max_water = WATER[orng_int(rng, 6)];
    t.rules.min_water = orng_unit(rng) < 0.1 ? 0.2f : 0.0f;
    if (t.rules.min_water > t.rules.max_water) t.rules.max_water = 3.0f;
    t.rules.shore = SHORE[orng_int(rng, 4)];
    t.rules.spacing = SPACING[orng_int(rng, 4)];
    t.rules.edge = EDGE[orng_int(rng, 3)];
    /* Small permissive footprints now and then, so many are accepted. */
    if (orng_unit(rng) < 0.35) {
        t.fp.hw *= 0.4f;
        t.fp.hh *= 0.4f;
        t.rules = (GridPlaceRules)GRID_PLACE_RULES_DEFAULT;
        t.rules.max_water = 3.0f;
    }
    return t;
}

typedef struct Covered {
    int x[TW * TH], y[TW * TH];
    int n;
} Covered;

/* Cells whose centre the footprint covers, row by row from the south-west,
** or the cell under its centre when it covers none. */
static void o_covered(const GridShape *fp, Covered *out)
{
    ORect r = orect(fp);
    out->n = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (o_inside(&r, (x + 0.5) * TCS, (y + 0.5) * TCS, 1e-6)) {
                out->x[out->n] = x;
                out->y[out->n] = y;
                out->n++;
            }
    if (out->n == 0 && fp->x >= 0 && fp->y >= 0 && fp->x < TW * TCS && fp->y < TH * TCS) {
        out->x[0] = (int)floor(fp->x / TCS);
        out->y[0] = (int)floor(fp->y / TCS);
        out->n = 1;
    }
}

/* Near a decision's edge in the map and obstruction rules (left out). */
static bool o_geometry_borderline(const GridShape *fp, const GridPlaceRules *rules, const GridShape *obs, int nobs)
{
    ORect r = orect(fp);
    double c[4][2];
    o_corners(&r, c);
    for (int i = 0; i < 4; i++) {
        double d = fmin(fmin(c[i][0], TW * TCS - c[i][0]), fmin(c[i][1], TH * TCS - c[i][1]));
        if (fabs(d) < 1e-3 || fabs(d - rules->edge) < 1e-3) return true;
    }
    for (int k = 0; k < nobs; k++) {
        ORect b = orect(&obs[k]);
        if (o_overlap(&r, &b)) continue;
        double d = o_distance(&r, &b);
        if (d < 1e-3 || fabs(d - rules->spacing) < 1e-3) return true;
    }
    for (int i = 0; i < TW * TH; i++) {
        double px = (i % TW + 0.5) * TCS, py = (i / TW + 0.5) * TCS, lx, ly;
        o_local(&r, px, py, &lx, &ly);
        if ((fabs(fabs(lx) - r.hw) < 1e-4 && fabs(ly) <= r.hh + 1e-4) ||
            (fabs(fabs(ly) - r.hh) < 1e-4 && fabs(lx) <= r.hw + 1e-4))
            return true;
    }
    return false;
}

Test(grid_place, random_footprints_against_brute_force)
{
    NavWorld *w = random_terrain(11);
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) cells[y * TW + x] = o_cell(w, x, y);

    /* Buildings already there. */
    OracleRng rng = { 5 };
    enum { NOBS = 6 };
    GridShape obs[NOBS];
    GridObstructionId ids[NOBS];
    for (int k = 0; k < NOBS; k++) {
        obs[k] = (GridShape){ .x = (float)orng_range(&rng, 2, TW * TCS - 2),
                              .y = (float)orng_range(&rng, 2, TH * TCS - 2),
                              .hw = (float)orng_range(&rng, 0.5, 2),
                              .hh = (float)orng_range(&rng, 0.5, 2),
                              .angle = (float)orng_range(&rng, -1.5, 1.5) };
        cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &obs[k], &ids[k], &err)), "%s", err.message);
    }

    int accepted = 0, by_reason[GRID_PLACE_REASON_COUNT] = { 0 }, skipped = 0;
    static Covered cov;
    for (int trial = 0; trial < 3000; trial++) {
        Trial t = random_trial(&rng);
        o_covered(&t.fp, &cov);
        bool border = o_geometry_borderline(&t.fp, &t.rules, obs, NOBS);
        for (int i = 0; i < cov.n && !border; i++) border = o_cell_borderline(cov.x[i], cov.y[i], &t.rules);
        if (border) {
            skipped++;
            continue;
        }
        GridPlaceResult res;
        cr_assert(NAV_SUCCEEDED(grid_place_check(g, &t.fp, &t.rules, &res, &err)), "%s", err.message);
        by_reason[res.reason]++;
        char text[GRID_PLACE_TEXT_MAX];
        grid_place_describe(&res, NULL, text, sizeof text);

        /* The map rules: every corner on the map, `edge` from its edge. */
        ORect r = orect(&t.fp);
        double c[4][2];
        o_corners(&r, c);
        int off = -1, near_edge = -1;
        for (int i = 0; i < 4; i++) {
            if (off < 0 && (c[i][0] < 0 || c[i][1] < 0 || c[i][0] > TW * TCS || c[i][1] > TH * TCS)) off = i;
            double d = fmin(fmin(c[i][0], TW * TCS - c[i][0]), fmin(c[i][1], TH * TCS - c[i][1]));
            if (near_edge < 0 && d < t.rules.edge) near_edge = i;
        }
        if (off >= 0) {
            cr_assert_eq(res.reason, GRID_PLACE_OFF_MAP, "trial %d: a corner is off the map, got '%s'", trial, text);
            cr_assert(fabs(res.x - c[off][0]) < 1e-3 && fabs(res.y - c[off][1]) < 1e-3, "trial %d: %s", trial, text);
            continue;
        }
        if (near_edge >= 0) {
            cr_assert_eq(res.reason, GRID_PLACE_EDGE, "trial %d: a corner is near the edge, got '%s'", trial, text);
            cr_assert(fabs(res.x - c[near_edge][0]) < 1e-3 && fabs(res.y - c[near_edge][1]) < 1e-3, "%s", text);
            continue;
        }
        /* Obstructions, in the order they were added. */
        int hit = -1;
        double hit_d = 0;
        for (int k = 0; k < NOBS && hit < 0; k++) {
            ORect b = orect(&obs[k]);
            if (o_overlap(&r, &b)) hit = k, hit_d = 0;
            else if (o_distance(&r, &b) < t.rules.spacing) hit = k, hit_d = o_distance(&r, &b);
        }
        if (hit >= 0) {
            cr_assert_eq(res.reason, GRID_PLACE_OBSTRUCTION, "trial %d: obstruction %d in the way, got '%s'", trial,
                         hit, text);
            cr_assert_eq(res.obstruction.id, ids[hit].id, "trial %d: named the wrong obstruction: %s", trial, text);
            ORect b = orect(&obs[hit]);
            cr_assert(o_inside(&r, res.x, res.y, 1e-3), "trial %d: the place named is not on the footprint: %s", trial,
                      text);
            if (res.overlap) {
                cr_assert(o_overlap(&r, &b), "trial %d: %s", trial, text);
                cr_assert(o_inside(&b, res.x, res.y, 1e-3), "trial %d: the overlap named is not in both: %s", trial,
                          text);
            } else {
                cr_assert(fabs(res.value - hit_d) < 1e-3, "trial %d: distance %g, the oracle's %g", trial,
                          (double)res.value, hit_d);
                /* The place named is that far from the obstruction. */
                double bc[4][2], d = INFINITY, p[2] = { res.x, res.y };
                o_corners(&b, bc);
                for (int j = 0; j < 4; j++) d = fmin(d, seg_point(bc[j], bc[(j + 1) & 3], p));
                cr_assert(fabs(d - hit_d) < 2e-3, "trial %d: the place named is %g m away, not %g", trial, d, hit_d);
            }
            continue;
        }
        /* The cells in order: the first that breaks a rule. */
        int first = -1;
        GridPlaceReason why = GRID_PLACE_OK;
        for (int i = 0; i < cov.n && first < 0; i++)
            if (!o_cell_passes(cov.x[i], cov.y[i], &t.rules, &why)) first = i;
        if (first < 0) {
            cr_assert_eq(res.reason, GRID_PLACE_OK, "trial %d: every cell passes, but refused: %s", trial, text);
            accepted++;
            continue;
        }
        cr_assert_eq(res.reason, why, "trial %d: expected %s at cell (%d, %d), got '%s'", trial,
                     grid_place_reason_name(why), cov.x[first], cov.y[first], text);
        double px = (cov.x[first] + 0.5) * TCS, py = (cov.y[first] + 0.5) * TCS;
        cr_assert(fabs(res.x - px) < 1e-4 && fabs(res.y - py) < 1e-4, "trial %d: expected (%g, %g), got '%s'", trial,
                  px, py, text);
        const OCell *oc = &cells[cov.y[first] * TW + cov.x[first]];
        double want = why == GRID_PLACE_SLOPE ? oc->slope : why == GRID_PLACE_SHORE ? oc->shore : oc->depth;
        if (why != GRID_PLACE_BLOCKED)
            cr_assert(fabs(res.value - want) < 1e-2, "trial %d: value %g, the oracle's %g (%s)", trial,
                      (double)res.value, want, text);
    }
    /* Enough of every kind for the test to mean something. */
    cr_assert_gt(accepted, 100, "only %d accepted", accepted);
    for (int k = GRID_PLACE_OFF_MAP; k < GRID_PLACE_REASON_COUNT; k++)
        cr_assert_gt(by_reason[k], 5, "only %d refusals for %s", by_reason[k], grid_place_reason_name(k));
    cr_assert_lt(skipped, 300, "%d trials too near a limit to judge", skipped);
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A 12 x 10 m site of 0.5 m cells, flat at 0 but for a ramp rising 0.2 m
** a cell from column 16 east (21.8 degrees), a pond 0.8 m deep over
** cells (2..5, 14..17) and a solid cell at (10, 2). */
static NavWorld *small_site(void)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = world_create(&(NavWorldDesc){ .width = 24, .height = 20, .cell_size = 0.5f }, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavFloorAt items[24 * 20];
    size_t n = 0;
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 24; x++) {
            if (x == 10 && y == 2) continue;
            NavFloor f = { .z = x >= 16 ? 0.2f * (float)(x - 15) : 0.0f, .ceiling = INFINITY };
            f.top = f.z;
            if (x >= 2 && x <= 5 && y >= 14 && y <= 17) {
                f.contents = NAV_CONTENTS_WATER;
                f.z = -0.8f;
            }
            items[n++] = (NavFloorAt){ .cell = (uint32_t)(y * 24 + x), .floor = f };
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, NULL, &err)), "%s", err.message);
    return w;
}

static const char *check_text(NavGrid *g, GridShape fp, const GridPlaceRules *rules, const char *other)
{
    static char text[GRID_PLACE_TEXT_MAX];
    NavError err;
    nav_error_clear(&err);
    GridPlaceResult res;
    cr_assert(NAV_SUCCEEDED(grid_place_check(g, &fp, rules, &res, &err)), "%s", err.message);
    return grid_place_describe(&res, other, text, sizeof text);
}

Test(grid_place, texts_name_the_rule_place_and_limit)
{
    NavWorld *w = small_site();
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    GridPlaceRules any = GRID_PLACE_RULES_DEFAULT, r;

    cr_assert_str_eq(check_text(g, (GridShape){ 6, 5, 1, 1, 0.3f }, &any, NULL), "placeable");
    r = any;
    r.max_slope = 15;
    cr_assert_str_eq(check_text(g, (GridShape){ 9.25f, 2.75f, 0.2f, 0.2f, 0 }, &r, NULL),
                     "slope 21.8 deg at (9.25, 2.75) over the limit of 15");
    cr_assert_str_eq(check_text(g, (GridShape){ 1.75f, 7.75f, 0.2f, 0.2f, 0 }, &any, NULL),
                     "water 0.8 m deep at (1.75, 7.75) over the limit of 0");
    r = any;
    r.min_water = 1.0f;
    r.max_water = 2.0f;
    cr_assert_str_eq(check_text(g, (GridShape){ 1.75f, 7.75f, 0.2f, 0.2f, 0 }, &r, NULL),
                     "water 0.8 m deep at (1.75, 7.75) under the minimum of 1");
    cr_assert_str_eq(check_text(g, (GridShape){ 4.25f, 2.75f, 0.2f, 0.2f, 0 }, &r, NULL),
                     "dry ground at (4.25, 2.75), water at least 1 m deep needed");
    r = any;
    r.shore = 2.0f;
    cr_assert_str_eq(check_text(g, (GridShape){ 4.25f, 7.75f, 0.2f, 0.2f, 0 }, &r, NULL),
                     "1.25 m from water at (4.25, 7.75), at least 2 needed");
    cr_assert_str_eq(check_text(g, (GridShape){ 5.25f, 1.25f, 1.0f, 0.2f, 0 }, &any, NULL),
                     "a solid column at (5.25, 1.25), nothing to build on");
    cr_assert_str_eq(check_text(g, (GridShape){ 0.5f, 5, 1, 0.5f, 0 }, &any, NULL), "off the map at (-0.5, 4.5)");
    r = any;
    r.edge = 1.0f;
    cr_assert_str_eq(check_text(g, (GridShape){ 1.5f, 5, 1, 0.5f, 0 }, &r, NULL),
                     "0.5 m from the map's edge at (0.5, 4.5), at least 1 needed");

    /* Another building 1.2 m east of the footprint, 3 m wanted. */
    GridShape other = { .x = 8.0f, .y = 5.0f, .hw = 1.0f, .hh = 1.0f };
    GridObstructionId id;
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &other, &id, &err)));
    r = any;
    r.spacing = 3.0f;
    GridPlaceResult res;
    cr_assert(NAV_SUCCEEDED(grid_place_check(g, &(GridShape){ 4.8f, 5, 1, 1, 0 }, &r, &res, &err)));
    cr_assert_eq(res.reason, GRID_PLACE_OBSTRUCTION);
    cr_assert_eq(res.obstruction.id, id.id);
    cr_assert_str_eq(check_text(g, (GridShape){ 4.8f, 5, 1, 1, 0 }, &r, "building 3"),
                     "1.2 m from building 3 at (5.8, 4), at least 3 needed");
    cr_assert_str_eq(check_text(g, (GridShape){ 6.5f, 5, 1, 1, 0 }, &any, "building 3"),
                     "overlaps building 3 at (7.5, 4)");
    cr_assert_str_eq(check_text(g, (GridShape){ 5.0f, 5, 1, 1, 0 }, &any, "building 3"), "placeable");
    r.spacing = 1.0f; /* exactly 1 m apart: at the limit is allowed */
    cr_assert_str_eq(check_text(g, (GridShape){ 5.0f, 5, 1, 1, 0 }, &r, "building 3"), "placeable");

    /* Bad values name their field. */
    r = any;
    r.min_water = 2.0f;
    cr_assert(NAV_FAILED(grid_place_check(g, &other, &r, &res, &err)));
    cr_assert_str_eq(err.field, "min_water");
    r = any;
    r.shore = NAN;
    cr_assert(NAV_FAILED(grid_place_check(g, &other, &r, &res, &err)));
    cr_assert_str_eq(err.field, "shore");
    r = any;
    r.max_slope = 91;
    cr_assert(NAV_FAILED(grid_place_check(g, &other, &r, &res, &err)));
    cr_assert_str_eq(err.field, "max_slope");
    cr_assert(NAV_FAILED(grid_place_check(g, &(GridShape){ 1, 1, -1, 1, 0 }, &any, &res, &err)));
    cr_assert_str_eq(err.field, "footprint");
    cr_assert(NAV_FAILED(grid_place_check(g, &(GridShape){ INFINITY, 1, 1, 1, 0 }, &any, &res, &err)));
    cr_assert_str_eq(err.field, "footprint");
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= spawn points ======= */

static bool square_overlap(double ax, double ay, double ah, double bx, double by, double bh)
{
    return fabs(ax - bx) < ah + bh - 1e-4 && fabs(ay - by) < ah + bh - 1e-4;
}

Test(grid_place, spawn_points_are_free_and_ordered)
{
    NavWorld *w = random_terrain(23);
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    double half = world_class(w, 0)->radius + GRID_SPAWN_PAD;
    OracleRng rng = { 9 };
    enum { N = 60, OCC = 12 };
    float pts[2 * N], again[2 * N], occ[3 * OCC];
    int full = 0;
    for (int trial = 0; trial < 200; trial++) {
        GridShape fp = { .x = (float)orng_range(&rng, 4, TW * TCS - 4),
                         .y = (float)orng_range(&rng, 4, TH * TCS - 4),
                         .hw = (float)orng_range(&rng, 0.3, 2.5),
                         .hh = (float)orng_range(&rng, 0.3, 2.5),
                         .angle = trial % 3 == 0 ? 0.0f : (float)orng_range(&rng, -3.2, 3.2) };
        for (int k = 0; k < OCC; k++) {
            occ[3 * k] = fp.x + (float)orng_range(&rng, -5, 5);
            occ[3 * k + 1] = fp.y + (float)orng_range(&rng, -5, 5);
            occ[3 * k + 2] = (float)orng_range(&rng, 0.2, 0.8);
        }
        bool rally = trial % 2 == 1;
        GridSpawnDesc d = { .cls = 0,
                            .rally = rally,
                            .rally_x = fp.x + (float)orng_range(&rng, -20, 20),
                            .rally_y = fp.y + (float)orng_range(&rng, -20, 20),
                            .rings = 1 + orng_int(&rng, 6),
                            .occupied = occ,
                            .occupied_count = OCC };
        int n = 1 + orng_int(&rng, N);
        int got = grid_spawn_points(g, &fp, &d, pts, n, &err);
        cr_assert_geq(got, 0, "%s", err.message);
        cr_assert_leq(got, n);
        full += got == n;
        cr_assert_eq(grid_spawn_points(g, &fp, &d, again, n, &err), got);
        cr_assert_eq(memcmp(pts, again, 2 * (size_t)got * sizeof *pts), 0, "not the same points twice");

        ORect r = orect(&fp);
        double reach = half * (fabs(r.ux) + fabs(r.uy));
        double rx = d.rally_x, ry = d.rally_y;
        int last_ring = 0;
        double last_key = -1;
        for (int i = 0; i < got; i++) {
            double x = pts[2 * i], y = pts[2 * i + 1];
            int cx = (int)floor(x / TCS), cy = (int)floor(y / TCS);
            cr_assert(grid_passable(g, 0, cx, cy), "trial %d: point %d on a blocked cell", trial, i);
            /* Off the footprint: the unit's square does not overlap it. */
            GridShape sq = { .x = (float)x, .y = (float)y, .hw = (float)half - 1e-3f, .hh = (float)half - 1e-3f };
            ORect s = orect(&sq);
            cr_assert(!o_overlap(&r, &s), "trial %d: point %d on the footprint", trial, i);
            for (int j = 0; j < i; j++)
                cr_assert(!square_overlap(x, y, half, pts[2 * j], pts[2 * j + 1], half),
                          "trial %d: points %d and %d overlap", trial, j, i);
            for (int k = 0; k < OCC; k++)
                cr_assert(!square_overlap(x, y, half, occ[3 * k], occ[3 * k + 1], occ[3 * k + 2]),
                          "trial %d: point %d on occupied square %d", trial, i, k);
            /* Its ring from how far out it lies, in the footprint's frame. */
            double lx, ly;
            o_local(&r, x, y, &lx, &ly);
            double out = fmax(fabs(lx) - r.hw, fabs(ly) - r.hh);
            int ring = (int)floor((out - reach) / (2.0 * reach) + 0.5);
            cr_assert(fabs(out - reach - 2.0 * reach * ring) < 5e-3, "trial %d: point %d on no ring", trial, i);
            cr_assert_geq(ring, last_ring, "trial %d: ring %d after ring %d", trial, ring, last_ring);
            if (ring > last_ring) last_key = -1;
            last_ring = ring;
            /* Within a ring, nearest the rally point (or the front) first. */
            if (!rally) {
                rx = fp.x + (r.hh + reach + 2.0 * reach * ring) * r.uy;
                ry = fp.y - (r.hh + reach + 2.0 * reach * ring) * r.ux;
            }
            double key = (x - rx) * (x - rx) + (y - ry) * (y - ry);
            cr_assert_geq(key, last_key - 1e-3, "trial %d: point %d nearer the rally than the one before", trial, i);
            last_key = key;
        }
    }
    cr_assert_gt(full, 100, "only %d trials got every point they asked for", full);

    /* Bad arguments. */
    GridShape fp = { .x = 10, .y = 10, .hw = 1, .hh = 1 };
    cr_assert_eq(grid_spawn_points(g, &fp, &(GridSpawnDesc){ .cls = 3 }, pts, 4, &err), -1);
    cr_assert_str_eq(err.field, "class");
    cr_assert_eq(grid_spawn_points(g, &fp, &(GridSpawnDesc){ .rings = 65 }, pts, 4, &err), -1);
    cr_assert_str_eq(err.field, "rings");
    cr_assert_eq(grid_spawn_points(g, &fp, &(GridSpawnDesc){ .rally = true, .rally_x = NAN }, pts, 4, &err), -1);
    cr_assert_str_eq(err.field, "rally");
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_place, a_hundred_round_one_building_on_open_ground)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = world_create(&(NavWorldDesc){ .width = 80, .height = 80, .cell_size = 0.5f }, &err);
    NavFloorAt *items = calloc(80 * 80, sizeof *items);
    for (int i = 0; i < 80 * 80; i++)
        items[i] = (NavFloorAt){ .cell = (uint32_t)i, .floor = { .z = 0, .ceiling = INFINITY, .top = 0 } };
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, 80 * 80, &err)));
    free(items);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, NULL, &err)));
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    GridShape fp = { .x = 20, .y = 20, .hw = 3, .hh = 2, .angle = 0.5f };
    float pts[200];
    int got = grid_spawn_points(g, &fp, &(GridSpawnDesc){ .cls = 0, .rally = true, .rally_x = 30, .rally_y = 20 }, pts,
                                100, &err);
    cr_assert_eq(got, 100, "%d of 100 placed", got);
    /* The first point is the ring's nearest to the rally point, east. */
    cr_assert_gt(pts[0], 22.0f);
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

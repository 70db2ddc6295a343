/*
** grid_place.c — placement rules for building footprints and spawn points
** round them (grid_place.h).
**
** Footprints and obstructions are oriented rectangles: whether two
** overlap is a separating-axis test, and the distance between two that do
** not is the least from a corner of one to the other (for two convex
** polygons apart, the nearest pair always has a corner in it). Cells are
** judged one by one, so a refusal names the cell that broke the rule.
*/
#include "grid/grid_place.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "grid/grid_internal.h"

#define EPS 1e-4f /* metres: what touching, on the edge or at the limit allows for float rounding */

/* {======= rectangles ======= */

typedef struct Rect {
    float cx, cy, ux, uy, hw, hh; /* (ux, uy): the shape's x axis */
} Rect;

static Rect rect_of(const GridShape *s) { return (Rect){ s->x, s->y, cosf(s->angle), sinf(s->angle), s->hw, s->hh }; }

static void rect_local(const Rect *r, float px, float py, float *lx, float *ly)
{
    float dx = px - r->cx, dy = py - r->cy;
    *lx = dx * r->ux + dy * r->uy;
    *ly = -dx * r->uy + dy * r->ux;
}

static void rect_world(const Rect *r, float lx, float ly, float *px, float *py)
{
    *px = r->cx + lx * r->ux - ly * r->uy;
    *py = r->cy + lx * r->uy + ly * r->ux;
}

/* Counter-clockwise from the local (-, -) corner. */
static void rect_corners(const Rect *r, float c[4][2])
{
    static const float SX[4] = { -1, 1, 1, -1 }, SY[4] = { -1, -1, 1, 1 };
    for (int i = 0; i < 4; i++) rect_world(r, SX[i] * r->hw, SY[i] * r->hh, &c[i][0], &c[i][1]);
}

static bool rect_contains(const Rect *r, float px, float py, float eps)
{
    float lx, ly;
    rect_local(r, px, py, &lx, &ly);
    return fabsf(lx) <= r->hw + eps && fabsf(ly) <= r->hh + eps;
}

/* Distance from p to the rectangle (0 inside), and its nearest point. */
static float rect_point_distance(const Rect *r, float px, float py, float near[2])
{
    float lx, ly;
    rect_local(r, px, py, &lx, &ly);
    float qx = fmaxf(-r->hw, fminf(r->hw, lx)), qy = fmaxf(-r->hh, fminf(r->hh, ly));
    rect_world(r, qx, qy, &near[0], &near[1]);
    return hypotf(lx - qx, ly - qy);
}

/* Half the extent of r along a unit axis. */
static float rect_reach(const Rect *r, float ax, float ay)
{
    return r->hw * fabsf(ax * r->ux + ay * r->uy) + r->hh * fabsf(-ax * r->uy + ay * r->ux);
}

/* Do the insides overlap (by more than EPS)? Separating axes: the two
** rectangles' own. */
static bool rects_overlap(const Rect *a, const Rect *b)
{
    const float axes[4][2] = { { a->ux, a->uy }, { -a->uy, a->ux }, { b->ux, b->uy }, { -b->uy, b->ux } };
    for (int k = 0; k < 4; k++) {
        float d = fabsf((b->cx - a->cx) * axes[k][0] + (b->cy - a->cy) * axes[k][1]);
        if (d >= rect_reach(a, axes[k][0], axes[k][1]) + rect_reach(b, axes[k][0], axes[k][1]) - EPS) return false;
    }
    return true;
}

static bool segments_cross(const float p[2], const float p2[2], const float q[2], const float q2[2], float at[2])
{
    float rx = p2[0] - p[0], ry = p2[1] - p[1], sx = q2[0] - q[0], sy = q2[1] - q[1];
    float den = rx * sy - ry * sx;
    if (fabsf(den) < 1e-12f) return false;
    float t = ((q[0] - p[0]) * sy - (q[1] - p[1]) * sx) / den;
    float u = ((q[0] - p[0]) * ry - (q[1] - p[1]) * rx) / den;
    if (t < 0.0f || t > 1.0f || u < 0.0f || u > 1.0f) return false;
    at[0] = p[0] + t * rx;
    at[1] = p[1] + t * ry;
    return true;
}

/* A point inside both of two overlapping rectangles: a corner of one in
** the other, else (a cross) where two edges meet. */
static void overlap_point(const Rect *a, const Rect *b, float at[2])
{
    float ca[4][2], cb[4][2];
    rect_corners(a, ca);
    rect_corners(b, cb);
    for (int i = 0; i < 4; i++)
        if (rect_contains(b, ca[i][0], ca[i][1], 0.0f)) return (void)memcpy(at, ca[i], sizeof ca[i]);
    for (int i = 0; i < 4; i++)
        if (rect_contains(a, cb[i][0], cb[i][1], 0.0f)) return (void)memcpy(at, cb[i], sizeof cb[i]);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (segments_cross(ca[i], ca[(i + 1) & 3], cb[j], cb[(j + 1) & 3], at)) return;
    at[0] = a->cx;
    at[1] = a->cy;
}

/* Distance between two rectangles that do not overlap, and the point of a
** nearest to b. */
static float rects_distance(const Rect *a, const Rect *b, float where[2])
{
    float ca[4][2], cb[4][2], near[2], best = INFINITY;
    rect_corners(a, ca);
    rect_corners(b, cb);
    for (int i = 0; i < 4; i++) {
        float d = rect_point_distance(b, ca[i][0], ca[i][1], near);
        if (d < best) {
            best = d;
            memcpy(where, ca[i], sizeof ca[i]);
        }
    }
    for (int i = 0; i < 4; i++) {
        float d = rect_point_distance(a, cb[i][0], cb[i][1], near);
        if (d < best) {
            best = d;
            memcpy(where, near, sizeof near);
        }
    }
    return best;
}

/* The box of cells a rectangle's bounding box touches, cut to the map;
** false when none. */
static bool rect_cells(const NavGrid *g, const Rect *r, int *x0, int *y0, int *x1, int *y1)
{
    float ex = fabsf(r->ux) * r->hw + fabsf(r->uy) * r->hh, ey = fabsf(r->uy) * r->hw + fabsf(r->ux) * r->hh;
    *x0 = NAV_MAX((int)floorf((r->cx - ex) / g->cs), 0);
    *y0 = NAV_MAX((int)floorf((r->cy - ey) / g->cs), 0);
    *x1 = NAV_MIN((int)floorf((r->cx + ex) / g->cs), g->w - 1);
    *y1 = NAV_MIN((int)floorf((r->cy + ey) / g->cs), g->h - 1);
    return *x0 <= *x1 && *y0 <= *y1;
}

/* }======= */

/* {======= arguments ======= */

NavStatus grid_check_footprint(const NavGrid *g, const GridShape *s, const char *field, NavError *err)
{
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->hw) || !isfinite(s->hh) || !isfinite(s->angle))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, field, "%s: values must be finite", field);
    if (s->hw < 0.0f || s->hh < 0.0f)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, field, "%s: half extents must not be negative (got %g, %g)",
                             field, (double)s->hw, (double)s->hh);
    /* The same bound as obstructions: a few map sides keep every sum finite. */
    float limit = 4.0f * (float)NAV_MAX(g->w, g->h) * g->cs;
    if (fabsf(s->x) > limit || fabsf(s->y) > limit || s->hw > limit || s->hh > limit)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, field, "%s: far outside the map", field);
    return NAV_OK;
}

static NavStatus check_rules(const GridPlaceRules *r, NavError *err)
{
    const struct {
        const char *name;
        float v;
    } f[] = { { "max_slope", r->max_slope }, { "min_water", r->min_water }, { "max_water", r->max_water },
              { "shore", r->shore },         { "spacing", r->spacing },     { "edge", r->edge } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(f); i++)
        if (!isfinite(f[i].v) || f[i].v < 0.0f)
            return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, f[i].name, "%s must be a finite number from 0, got %g",
                                 f[i].name, (double)f[i].v);
    if (r->max_slope > 90.0f)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "max_slope", "max_slope is in degrees, at most 90, got %g",
                             (double)r->max_slope);
    if (r->min_water > r->max_water)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "min_water", "min_water %g is over max_water %g",
                             (double)r->min_water, (double)r->max_water);
    return NAV_OK;
}

/* }======= */

/* {======= the rules ======= */

static bool fail(GridPlaceResult *out, GridPlaceReason reason, float x, float y, float value, float limit)
{
    out->reason = reason;
    out->x = x;
    out->y = y;
    out->value = value;
    out->limit = limit;
    return false;
}

static bool is_liquid(int contents)
{
    return contents == NAV_CONTENTS_WATER || contents == NAV_CONTENTS_LAVA || contents == NAV_CONTENTS_SLIME;
}

/* The lowest floor of a column, NULL for a solid one. */
static const NavFloor *ground(const NavGrid *g, int x, int y)
{
    int n;
    const NavFloor *f = world_column(g->world, x, y, &n);
    return n > 0 ? &f[0] : NULL;
}

static bool check_map(const NavGrid *g, const Rect *r, const GridPlaceRules *rules, GridPlaceResult *out)
{
    float c[4][2], mw = (float)g->w * g->cs, mh = (float)g->h * g->cs;
    rect_corners(r, c);
    for (int i = 0; i < 4; i++)
        if (c[i][0] < -EPS || c[i][1] < -EPS || c[i][0] > mw + EPS || c[i][1] > mh + EPS)
            return fail(out, GRID_PLACE_OFF_MAP, c[i][0], c[i][1], 0.0f, 0.0f);
    if (rules->edge <= 0.0f) return true;
    for (int i = 0; i < 4; i++) {
        float d = fminf(fminf(c[i][0], mw - c[i][0]), fminf(c[i][1], mh - c[i][1]));
        if (d < rules->edge - EPS) return fail(out, GRID_PLACE_EDGE, c[i][0], c[i][1], fmaxf(d, 0.0f), rules->edge);
    }
    return true;
}

static bool check_obstructions(const NavGrid *g, const Rect *r, const GridPlaceRules *rules, GridPlaceResult *out)
{
    float ex = fabsf(r->ux) * r->hw + fabsf(r->uy) * r->hh + rules->spacing;
    float ey = fabsf(r->uy) * r->hw + fabsf(r->ux) * r->hh + rules->spacing;
    for (int i = 0; i < g->obs_count; i++) {
        const GridObstruction *o = &g->obs[i];
        if (!(o->generation & 1u)) continue;
        Rect b = rect_of(&o->shape);
        float bx = fabsf(b.ux) * b.hw + fabsf(b.uy) * b.hh, by = fabsf(b.uy) * b.hw + fabsf(b.ux) * b.hh;
        if (fabsf(b.cx - r->cx) > ex + bx + EPS || fabsf(b.cy - r->cy) > ey + by + EPS) continue;
        float at[2];
        if (rects_overlap(r, &b)) {
            overlap_point(r, &b, at);
            out->obstruction = grid_obstruction_handle(g, i);
            out->overlap = true;
            return fail(out, GRID_PLACE_OBSTRUCTION, at[0], at[1], 0.0f, rules->spacing);
        }
        if (rules->spacing <= 0.0f) continue;
        float d = rects_distance(r, &b, at);
        if (d < rules->spacing - EPS) {
            out->obstruction = grid_obstruction_handle(g, i);
            return fail(out, GRID_PLACE_OBSTRUCTION, at[0], at[1], d, rules->spacing);
        }
    }
    return true;
}

/* Steepest step to a 4-neighbour with ground, in degrees over the cell size. */
static float cell_slope(const NavGrid *g, int x, int y, const NavFloor *f)
{
    static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
    float dh = 0.0f;
    for (int k = 0; k < 4; k++) {
        int nx = x + DX[k], ny = y + DY[k];
        if (!grid_in_bounds(g, nx, ny)) continue;
        const NavFloor *n = ground(g, nx, ny);
        if (!n || n->contents == NAV_CONTENTS_VOID) continue; /* walls and drops are not slopes */
        dh = fmaxf(dh, fabsf(n->z - f->z));
    }
    return atan2f(dh, g->cs) * (float)(180.0 / NAV_PI);
}

/* Distance from cell (x, y)'s centre to the nearest cell with liquid
** within `reach` metres (its square), INFINITY when none; *contents gets
** that liquid. */
static float shore_distance(const NavGrid *g, int x, int y, float reach, int *contents)
{
    int r = (int)ceilf(reach / g->cs + 0.5f);
    float best = INFINITY;
    for (int dy = -r; dy <= r; dy++) {
        for (int dx = -r; dx <= r; dx++) {
            if (!grid_in_bounds(g, x + dx, y + dy)) continue;
            float ex = fmaxf(0.0f, (float)abs(dx) - 0.5f), ey = fmaxf(0.0f, (float)abs(dy) - 0.5f);
            float d = hypotf(ex, ey) * g->cs;
            if (d >= best) continue;
            const NavFloor *f = ground(g, x + dx, y + dy);
            if (!f || !is_liquid(f->contents)) continue;
            best = d;
            *contents = f->contents;
        }
    }
    return best;
}

static bool check_cell(const NavGrid *g, const GridPlaceRules *rules, int x, int y, GridPlaceResult *out)
{
    float px, py;
    grid_cell_center(g, x, y, &px, &py);
    const NavFloor *f = ground(g, x, y);
    if (!f) {
        out->contents = NAV_CONTENTS_COUNT;
        return fail(out, GRID_PLACE_BLOCKED, px, py, 0.0f, 0.0f);
    }
    switch (f->contents) {
    case NAV_CONTENTS_VOID:
    case NAV_CONTENTS_CLIP:
    case NAV_CONTENTS_LAVA:
    case NAV_CONTENTS_SLIME: out->contents = f->contents; return fail(out, GRID_PLACE_BLOCKED, px, py, 0.0f, 0.0f);
    default: break;
    }
    float depth = f->contents == NAV_CONTENTS_WATER ? f->top - f->z : 0.0f;
    if (depth > rules->max_water + EPS) return fail(out, GRID_PLACE_WATER, px, py, depth, rules->max_water);
    if (depth < rules->min_water - EPS) return fail(out, GRID_PLACE_DRY, px, py, depth, rules->min_water);
    float slope = cell_slope(g, x, y, f);
    if (slope > rules->max_slope + 1e-3f) return fail(out, GRID_PLACE_SLOPE, px, py, slope, rules->max_slope);
    if (rules->shore > 0.0f) {
        int liquid = NAV_CONTENTS_WATER;
        float d = shore_distance(g, x, y, rules->shore, &liquid);
        if (d < rules->shore - EPS) {
            out->contents = liquid;
            return fail(out, GRID_PLACE_SHORE, px, py, d, rules->shore);
        }
    }
    return true;
}

bool grid_place_covers(const NavGrid *g, const GridShape *footprint, int cx, int cy)
{
    Rect r = rect_of(footprint);
    float px, py;
    grid_cell_center(g, cx, cy, &px, &py);
    return grid_in_bounds(g, cx, cy) && rect_contains(&r, px, py, 1e-5f);
}

NavStatus grid_place_check(const NavGrid *g, const GridShape *footprint, const GridPlaceRules *rules,
                           GridPlaceResult *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    NavStatus s = grid_check_footprint(g, footprint, "footprint", err);
    if (NAV_FAILED(s)) return s;
    if (NAV_FAILED(s = check_rules(rules, err))) return s;
    Rect r = rect_of(footprint);
    if (!check_map(g, &r, rules, out) || !check_obstructions(g, &r, rules, out)) return NAV_OK;
    int x0, y0, x1, y1, covered = 0;
    if (rect_cells(g, &r, &x0, &y0, &x1, &y1)) {
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                float px, py;
                grid_cell_center(g, x, y, &px, &py);
                if (!rect_contains(&r, px, py, 1e-5f)) continue;
                covered++;
                if (!check_cell(g, rules, x, y, out)) return NAV_OK;
            }
        }
    }
    /* Too small to cover a centre: the cell it stands in speaks for it. */
    int cx, cy;
    if (!covered && grid_cell_of(g, r.cx, r.cy, &cx, &cy)) check_cell(g, rules, cx, cy, out);
    return NAV_OK;
}

/* }======= */

/* {======= text ======= */

static const char *const REASON_NAMES[GRID_PLACE_REASON_COUNT] = {
    "ok", "off_map", "edge", "obstruction", "blocked", "water", "dry", "slope", "shore",
};

const char *grid_place_reason_name(GridPlaceReason reason)
{
    return (unsigned)reason < GRID_PLACE_REASON_COUNT ? REASON_NAMES[reason] : "?";
}

/* A number with at most `decimals` decimals, trailing zeros dropped. */
static const char *num(char *buf, size_t cap, float v, int decimals)
{
    snprintf(buf, cap, "%.*f", decimals, (double)v);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
        if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
    }
    if (strcmp(buf, "-0") == 0) snprintf(buf, cap, "0");
    return buf;
}

static const char *ground_name(int contents)
{
    switch (contents) {
    case NAV_CONTENTS_VOID: return "a bottomless drop";
    case NAV_CONTENTS_CLIP: return "clip";
    case NAV_CONTENTS_LAVA: return "lava";
    case NAV_CONTENTS_SLIME: return "slime";
    case NAV_CONTENTS_WATER: return "water";
    default: return "a solid column";
    }
}

const char *grid_place_describe(const GridPlaceResult *r, const char *other, char *buf, size_t cap)
{
    char x[24], y[24], v[24], l[24], id[32];
    num(x, sizeof x, r->x, 2);
    num(y, sizeof y, r->y, 2);
    num(v, sizeof v, r->value, r->reason == GRID_PLACE_SLOPE ? 1 : 2);
    num(l, sizeof l, r->limit, 2);
    if (!other) {
        snprintf(id, sizeof id, "obstruction %u", r->obstruction.id);
        other = id;
    }
    switch (r->reason) {
    case GRID_PLACE_OK: snprintf(buf, cap, "placeable"); break;
    case GRID_PLACE_OFF_MAP: snprintf(buf, cap, "off the map at (%s, %s)", x, y); break;
    case GRID_PLACE_EDGE:
        snprintf(buf, cap, "%s m from the map's edge at (%s, %s), at least %s needed", v, x, y, l);
        break;
    case GRID_PLACE_OBSTRUCTION:
        if (r->overlap) snprintf(buf, cap, "overlaps %s at (%s, %s)", other, x, y);
        else snprintf(buf, cap, "%s m from %s at (%s, %s), at least %s needed", v, other, x, y, l);
        break;
    case GRID_PLACE_BLOCKED:
        snprintf(buf, cap, "%s at (%s, %s), nothing to build on", ground_name(r->contents), x, y);
        break;
    case GRID_PLACE_WATER: snprintf(buf, cap, "water %s m deep at (%s, %s) over the limit of %s", v, x, y, l); break;
    case GRID_PLACE_DRY:
        if (r->value <= 0.0f) snprintf(buf, cap, "dry ground at (%s, %s), water at least %s m deep needed", x, y, l);
        else snprintf(buf, cap, "water %s m deep at (%s, %s) under the minimum of %s", v, x, y, l);
        break;
    case GRID_PLACE_SLOPE: snprintf(buf, cap, "slope %s deg at (%s, %s) over the limit of %s", v, x, y, l); break;
    case GRID_PLACE_SHORE:
        snprintf(buf, cap, "%s m from %s at (%s, %s), at least %s needed", v, ground_name(r->contents), x, y, l);
        break;
    default: snprintf(buf, cap, "?"); break;
    }
    return buf;
}

/* }======= */

/* {======= spawn points ======= */

typedef struct Candidate {
    float x, y;
    float key; /* squared distance to the rally point */
    int index; /* along the ring: ties go to the lower */
} Candidate;

static int by_key(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static bool squares_overlap(float ax, float ay, float ah, float bx, float by, float bh)
{
    float r = ah + bh - 1e-5f;
    return fabsf(ax - bx) < r && fabsf(ay - by) < r;
}

/* Points along the perimeter of r grown to half extents (w, h), counter-
** clockwise from the local (-w, -h) corner, `along` or more apart on each
** side; each side from its first corner up to the next corner. */
static int ring_points(const Rect *r, float w, float h, float along, Candidate *out)
{
    const float from[4][2] = { { -w, -h }, { w, -h }, { w, h }, { -w, h } };
    int n = 0;
    for (int s = 0; s < 4; s++) {
        const float *a = from[s], *b = from[(s + 1) & 3];
        float len = hypotf(b[0] - a[0], b[1] - a[1]);
        int m = (int)floorf(len / along + 1e-4f);
        if (m < 1) m = 1;
        for (int j = 0; j < m; j++) {
            float t = (float)j / (float)m;
            rect_world(r, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), &out[n].x, &out[n].y);
            out[n].index = n;
            n++;
        }
    }
    return n;
}

int grid_spawn_points(const NavGrid *g, const GridShape *footprint, const GridSpawnDesc *d, float *out, int n,
                      NavError *err)
{
    if (d->cls < 0 || d->cls >= g->ncls) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in this grid", d->cls);
        return -1;
    }
    if (NAV_FAILED(grid_check_footprint(g, footprint, "footprint", err))) return -1;
    int rings = d->rings ? d->rings : GRID_SPAWN_RINGS;
    if (rings < 0 || rings > GRID_SPAWN_MAX_RINGS || n < 0 || (n > 0 && !out)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, rings < 0 || rings > GRID_SPAWN_MAX_RINGS ? "rings" : "n",
                      "rings must be from 1 to %d and n not negative (got %d rings, n %d)", GRID_SPAWN_MAX_RINGS, rings,
                      n);
        return -1;
    }
    float limit = 4.0f * (float)NAV_MAX(g->w, g->h) * g->cs;
    if (d->rally && !(fabsf(d->rally_x) <= limit && fabsf(d->rally_y) <= limit)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "rally", "the rally point must be finite and near the map");
        return -1;
    }
    if (d->occupied_count < 0 || (d->occupied_count > 0 && !d->occupied)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "occupied", "a bad list of occupied squares");
        return -1;
    }
    for (int i = 0; i < 3 * d->occupied_count; i++) {
        if (!isfinite(d->occupied[i]) || (i % 3 == 2 && d->occupied[i] < 0.0f)) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "occupied", "occupied square %d is not finite", i / 3 + 1);
            return -1;
        }
    }
    if (n == 0) return 0;

    Rect r = rect_of(footprint);
    float half = g->cls[d->cls].cls.radius + GRID_SPAWN_PAD;
    float ca = fabsf(r.ux), sa = fabsf(r.uy);
    /* An axis-aligned square reaches half (|cos| + |sin|) along either of
    ** the footprint's axes: the innermost ring keeps it off the footprint,
    ** and each next ring lies one square further out. Along a side,
    ** squares side by side are 2 half / max(|cos|, |sin|) apart. */
    float reach = half * (ca + sa) + EPS, along = 2.0f * half / fmaxf(ca, sa);
    float outer = reach + 2.0f * reach * (float)(rings - 1);
    size_t cap = 4 * ((size_t)ceilf(2.0f * (r.hw + r.hh + 2.0f * outer) / along) + 2);
    Candidate *c = nav_malloc(cap * sizeof *c);
    if (!c) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for spawn points");
        return -1;
    }
    int count = 0;
    for (int k = 0; k < rings && count < n; k++) {
        float e = reach + 2.0f * reach * (float)k;
        int all = ring_points(&r, r.hw + e, r.hh + e, along, c), m = 0;
        float rx = d->rally_x, ry = d->rally_y;
        if (!d->rally) rect_world(&r, 0.0f, -(r.hh + e), &rx, &ry); /* the front, on this ring */
        for (int i = 0; i < all; i++) {
            int cx, cy;
            if (!grid_cell_of(g, c[i].x, c[i].y, &cx, &cy) || !grid_passable(g, d->cls, cx, cy)) continue;
            float dx = c[i].x - rx, dy = c[i].y - ry;
            c[m] = c[i];
            c[m++].key = dx * dx + dy * dy;
        }
        qsort(c, (size_t)m, sizeof *c, by_key);
        for (int i = 0; i < m && count < n; i++) {
            bool room = true;
            for (int j = 0; j < count && room; j++)
                room = !squares_overlap(c[i].x, c[i].y, half, out[2 * j], out[2 * j + 1], half);
            for (int j = 0; j < d->occupied_count && room; j++)
                room = !squares_overlap(c[i].x, c[i].y, half, d->occupied[3 * j], d->occupied[3 * j + 1],
                                        d->occupied[3 * j + 2]);
            if (!room || (d->accept && !d->accept(d->user, c[i].x, c[i].y))) continue;
            out[2 * count] = c[i].x;
            out[2 * count + 1] = c[i].y;
            count++;
        }
    }
    nav_free(c);
    return count;
}

/* }======= */

/*
** area_support.h — compiling the bundled maps and checking area graphs,
** shared by test_area.c and test_area_sampling.c.
*/
#ifndef NAV_AREA_SUPPORT_H
#define NAV_AREA_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "core/alloc.h"
#include "area/area.h"
#include "core/random.h"
#include "map/map.h"
#include "test_support.h"

/* {======= helpers ======= */

static inline int human_class(const NavWorld *w)
{
    int cls = world_find_class(w, "human");
    cr_assert_geq(cls, 0, "%s has no human class", world_name(w));
    return cls;
}

static inline NavAreaGraph *compile_desc(const NavWorld *w, const NavAreaDesc *desc, bool entities)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = entities ? area_build(w, human_class(w), desc, &err) : area_compile(w, human_class(w), desc, &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    return ag;
}

static inline NavAreaGraph *compile(const NavWorld *w, bool entities) { return compile_desc(w, NULL, entities); }

/* Where a mover stands on a floor: liquids at their surface (world.h:
** top is the surface for liquids), everything else on z. */
static inline float standing(const NavFloor *f)
{
    bool liquid = f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA ||
                  f->contents == NAV_CONTENTS_SLIME;
    return liquid ? f->top : f->z;
}

/* Index of the floor of column (cx, cy) that belongs to area a, or -1. */
static inline int floor_of_area(const NavAreaGraph *ag, int cx, int cy, uint32_t a)
{
    int n;
    world_column(area_world(ag), cx, cy, &n);
    for (int i = 0; i < n; i++)
        if (area_of_floor(ag, cx, cy, i) == a) return i;
    return -1;
}

static inline float floor_height(const NavAreaGraph *ag, int cx, int cy, int f)
{
    int n;
    const NavFloor *fl = world_column(area_world(ag), cx, cy, &n);
    cr_assert(f >= 0 && f < n);
    return standing(&fl[f]);
}

/* Deterministic PRNG (splitmix64). */

typedef struct Box2 {
    float x0, y0, x1, y1; /* metres */
} Box2;

/* A box given as the maps' header comments give it: "cols a-b, rows c-d",
** inclusive, row 0 the north edge of a map `rows` rows high. */
static inline Box2 cells_box(const NavWorld *w, int col0, int col1, int row0, int row1)
{
    float cs = world_cell_size(w);
    int rows = world_height(w);
    Box2 b = { (float)col0 * cs, (float)(rows - 1 - row1) * cs, (float)(col1 + 1) * cs, (float)(rows - row0) * cs };
    return b;
}

static inline Box2 entity_box(const NavWorld *w, const char *name, int *index)
{
    int i = world_find_entity(w, name);
    cr_assert_geq(i, 0, "%s has no entity %s", world_name(w), name);
    const NavEntity *e = world_entity(w, i);
    if (index) *index = i;
    return (Box2){ e->mins[0], e->mins[1], e->maxs[0], e->maxs[1] };
}

static inline Box2 point_box(float x, float y) { return (Box2){ x, y, x, y }; }

static inline float box_dist(Box2 b, float x, float y)
{
    float dx = fmaxf(0.0f, fmaxf(b.x0 - x, x - b.x1));
    float dy = fmaxf(0.0f, fmaxf(b.y0 - y, y - b.y1));
    return sqrtf(dx * dx + dy * dy);
}

static inline Box2 area_box(const NavAreaGraph *ag, uint32_t a)
{
    const NavArea *ar = area_get(ag, a);
    float cs = world_cell_size(area_world(ag));
    return (Box2){ (float)ar->x0 * cs, (float)ar->y0 * cs, (float)(ar->x1 + 1) * cs, (float)(ar->y1 + 1) * cs };
}

/* A reachability wanted near a feature. NAN means "any". */
typedef struct Want {
    const char *what;
    NavTravelType type;
    Box2 near;          /* the feature */
    float dist;         /* start or end at most this far from it (x, y) */
    float dz_lo, dz_hi; /* end z - start z */
    float start_z, end_z;
    int entity;         /* -2: any */
    Box2 end_near;      /* when end_dist > 0: the end must also be this close to it */
    float end_dist;
} Want;

static inline bool near_z(float v, float want) { return isnan(want) || fabsf(v - want) <= 0.15f; }

static inline bool reach_matches(const NavReach *r, const Want *w)
{
    if (r->type != (uint32_t)w->type) return false;
    if (w->entity != -2 && r->entity != w->entity) return false;
    if (box_dist(w->near, r->start[0], r->start[1]) > w->dist && box_dist(w->near, r->end[0], r->end[1]) > w->dist)
        return false;
    float dz = r->end[2] - r->start[2];
    if (!isnan(w->dz_lo) && dz < w->dz_lo) return false;
    if (!isnan(w->dz_hi) && dz > w->dz_hi) return false;
    if (!near_z(r->start[2], w->start_z) || !near_z(r->end[2], w->end_z)) return false;
    if (w->end_dist > 0 && box_dist(w->end_near, r->end[0], r->end[1]) > w->end_dist) return false;
    return true;
}

static inline int find_reach(const NavAreaGraph *ag, const Want *w)
{
    for (uint32_t i = 0; i < area_reach_count(ag); i++)
        if (reach_matches(area_reach(ag, i), w)) return (int)i;
    return -1;
}

static inline void expect_reach(const NavAreaGraph *ag, const Want *w)
{
    int i = find_reach(ag, w);
    if (i >= 0) return;
    /* Say what there is of that type, to make the failure readable. */
    char list[1024] = "";
    size_t at = 0;
    int shown = 0;
    for (uint32_t k = 0; k < area_reach_count(ag) && shown < 8; k++) {
        const NavReach *r = area_reach(ag, k);
        if (r->type != (uint32_t)w->type) continue;
        int m = snprintf(list + at, sizeof list - at, " [%u->%u (%.2f %.2f %.2f)->(%.2f %.2f %.2f) e%d]", r->from,
                         r->to, r->start[0], r->start[1], r->start[2], r->end[0], r->end[1], r->end[2], r->entity);
        if (m < 0 || (size_t)m >= sizeof list - at) break;
        at += (size_t)m;
        shown++;
    }
    cr_assert_fail("%s: no %s reachability at %s (within %.1f m of x %.2f-%.2f, y %.2f-%.2f); %s ones:%s",
                   world_name(area_world(ag)), area_travel_name(w->type), w->what, w->dist, w->near.x0, w->near.x1,
                   w->near.y0, w->near.y1, area_travel_name(w->type), shown ? list : " none");
}

static inline Want want(const char *what, NavTravelType t, Box2 near)
{
    return (Want){ .what = what, .type = t, .near = near, .dist = 2.0f, .dz_lo = NAN, .dz_hi = NAN,
                   .start_z = NAN, .end_z = NAN, .entity = -2 };
}

/* Copies of everything the getters show, for byte comparisons. */
typedef struct Snapshot {
    uint32_t areas, reaches, portals, clusters;
    NavArea *area;
    NavReach *reach;
    NavPortal *portal;
    NavCluster *cluster;
    uint32_t *cluster_portals;
    uint32_t *incoming;       /* all incoming lists, concatenated */
    uint32_t incoming_total;
    uint32_t *crossing;       /* every crossing time */
    uint32_t crossing_total;
} Snapshot;

static inline Snapshot snapshot(const NavAreaGraph *ag)
{
    Snapshot s;
    memset(&s, 0, sizeof s);
    s.areas = area_count(ag);
    s.reaches = area_reach_count(ag);
    s.portals = area_portal_count(ag);
    s.clusters = area_cluster_count(ag);
    s.area = nav_malloc((s.areas + 1) * sizeof *s.area);
    s.reach = nav_malloc((s.reaches + 1) * sizeof *s.reach);
    s.portal = nav_malloc((s.portals + 1) * sizeof *s.portal);
    s.cluster = nav_malloc((s.clusters + 1) * sizeof *s.cluster);
    s.cluster_portals = nav_malloc((2 * s.portals + 1) * sizeof *s.cluster_portals);
    for (uint32_t i = 0; i < s.areas; i++) memcpy(&s.area[i], area_get(ag, i), sizeof *s.area);
    for (uint32_t i = 0; i < s.reaches; i++) memcpy(&s.reach[i], area_reach(ag, i), sizeof *s.reach);
    for (uint32_t i = 0; i < s.portals; i++) memcpy(&s.portal[i], area_portal(ag, i), sizeof *s.portal);
    for (uint32_t i = 0; i < s.clusters; i++) memcpy(&s.cluster[i], area_cluster(ag, i + 1), sizeof *s.cluster);
    if (s.portals) memcpy(s.cluster_portals, area_cluster_portals(ag), 2 * s.portals * sizeof *s.cluster_portals);
    for (uint32_t a = 0; a < s.areas; a++) {
        uint32_t n;
        area_incoming(ag, a, &n);
        s.incoming_total += n;
        s.crossing_total += n * area_get(ag, a)->reach_count;
    }
    s.incoming = nav_malloc((s.incoming_total + 1) * sizeof *s.incoming);
    s.crossing = nav_malloc((s.crossing_total + 1) * sizeof *s.crossing);
    uint32_t at = 0, ct = 0;
    for (uint32_t a = 0; a < s.areas; a++) {
        uint32_t n;
        const uint32_t *in = area_incoming(ag, a, &n);
        for (uint32_t k = 0; k < n; k++) {
            s.incoming[at++] = in[k];
            for (uint32_t o = 0; o < area_get(ag, a)->reach_count; o++) s.crossing[ct++] = area_crossing_time(ag, a, k, o);
        }
    }
    return s;
}

static inline void snapshot_free(Snapshot *s)
{
    nav_free(s->area);
    nav_free(s->reach);
    nav_free(s->portal);
    nav_free(s->cluster);
    nav_free(s->cluster_portals);
    nav_free(s->incoming);
    nav_free(s->crossing);
}

/* Equal byte for byte; `what` names the comparison in messages. */
static inline void snapshot_expect_equal(const Snapshot *a, const Snapshot *b, const char *what)
{
    cr_assert_eq(a->areas, b->areas, "%s: %u areas, then %u", what, a->areas, b->areas);
    cr_assert_eq(a->reaches, b->reaches, "%s: %u reaches, then %u", what, a->reaches, b->reaches);
    cr_assert_eq(a->portals, b->portals, "%s: %u portals, then %u", what, a->portals, b->portals);
    cr_assert_eq(a->clusters, b->clusters, "%s: %u clusters, then %u", what, a->clusters, b->clusters);
    for (uint32_t i = 0; i < a->areas; i++)
        cr_assert_eq(memcmp(&a->area[i], &b->area[i], sizeof *a->area), 0, "%s: area %u differs", what, i);
    for (uint32_t i = 0; i < a->reaches; i++)
        cr_assert_eq(memcmp(&a->reach[i], &b->reach[i], sizeof *a->reach), 0,
                     "%s: reach %u differs (%u->%u %s, then %u->%u %s)", what, i, a->reach[i].from, a->reach[i].to,
                     area_travel_name(a->reach[i].type), b->reach[i].from, b->reach[i].to,
                     area_travel_name(b->reach[i].type));
    for (uint32_t i = 0; i < a->portals; i++)
        cr_assert_eq(memcmp(&a->portal[i], &b->portal[i], sizeof *a->portal), 0, "%s: portal %u differs", what, i);
    for (uint32_t i = 0; i < a->clusters; i++)
        cr_assert_eq(memcmp(&a->cluster[i], &b->cluster[i], sizeof *a->cluster), 0, "%s: cluster %u differs", what,
                     i + 1);
    if (a->portals)
        cr_assert_eq(memcmp(a->cluster_portals, b->cluster_portals, 2 * a->portals * sizeof *a->cluster_portals), 0,
                     "%s: cluster portal lists differ", what);
    cr_assert_eq(a->incoming_total, b->incoming_total, "%s: incoming link counts differ", what);
    cr_assert_eq(memcmp(a->incoming, b->incoming, a->incoming_total * sizeof *a->incoming), 0,
                 "%s: incoming link lists differ", what);
    cr_assert_eq(a->crossing_total, b->crossing_total, "%s: crossing time tables differ in size", what);
    cr_assert_eq(memcmp(a->crossing, b->crossing, a->crossing_total * sizeof *a->crossing), 0,
                 "%s: crossing times differ", what);
}

static inline bool walkish(uint32_t t) { return t == NAV_TRAVEL_WALK || t == NAV_TRAVEL_CROUCH; }

/* }======= */

/* {======= 2. convexity, brute force ======= */

/* The cell a straight segment visits between two consecutive samples that
** are diagonal neighbours: the one across whichever cell border the
** segment meets first. */
static inline void between_cells(float cs, float ax, float ay, float bx, float by, int cx0, int cy0, int cx1, int cy1,
                          int *mx, int *my)
{
    float xb = (float)(cx1 > cx0 ? cx1 : cx0) * cs, yb = (float)(cy1 > cy0 ? cy1 : cy0) * cs;
    float tx = fabsf(bx - ax) > 0 ? (xb - ax) / (bx - ax) : INFINITY;
    float ty = fabsf(by - ay) > 0 ? (yb - ay) / (by - ay) : INFINITY;
    if (tx <= ty) {
        *mx = cx1;
        *my = cy0;
    } else {
        *mx = cx0;
        *my = cy1;
    }
}

/* Checks one cell of a walk through area a; returns its floor height. */
static inline float check_cell(const NavAreaGraph *ag, uint32_t a, int cx, int cy, float px, float py, float prev_h,
                        bool has_prev, const char *map)
{
    const NavArea *ar = area_get(ag, a);
    cr_assert(cx >= ar->x0 && cx <= ar->x1 && cy >= ar->y0 && cy <= ar->y1,
              "%s: area %u: point (%.3f, %.3f) is in cell (%d, %d), outside its cells %d-%d x %d-%d", map, a, px, py,
              cx, cy, ar->x0, ar->x1, ar->y0, ar->y1);
    int f = floor_of_area(ag, cx, cy, a);
    cr_assert_geq(f, 0, "%s: area %u: cell (%d, %d) inside its rectangle has no floor of the area", map, a, cx, cy);
    float h = floor_height(ag, cx, cy, f);
    if (has_prev)
        cr_assert_leq(fabsf(h - prev_h), area_class(ag)->step + 1e-4f,
                      "%s: area %u: a straight line crosses from floor %.2f to %.2f at cell (%d, %d): more than a step",
                      map, a, prev_h, h, cx, cy);
    return h;
}

static inline void check_convex(const NavAreaGraph *ag, uint32_t a, uint64_t *seed, const char *map)
{
    const NavWorld *w = area_world(ag);
    const NavArea *ar = area_get(ag, a);
    float cs = world_cell_size(w);
    Box2 b = area_box(ag, a);

    /* the centre */
    int ccx, ccy;
    cr_assert(world_point_cell(w, ar->center[0], ar->center[1], &ccx, &ccy));
    cr_assert(ccx >= ar->x0 && ccx <= ar->x1 && ccy >= ar->y0 && ccy <= ar->y1,
              "%s: area %u: centre (%.2f, %.2f) lies outside its cells", map, a, ar->center[0], ar->center[1]);
    cr_assert(ar->center[2] >= ar->zmin - 1e-4f && ar->center[2] <= ar->zmax + 1e-4f,
              "%s: area %u: centre z %.2f outside %.2f-%.2f", map, a, ar->center[2], ar->zmin, ar->zmax);
    uint32_t at = area_point_area(ag, ar->center[0], ar->center[1], ar->center[2]);
    cr_assert_eq(at, a, "%s: area %u: its centre (%.2f, %.2f, %.2f) samples as area %u", map, a, ar->center[0],
                 ar->center[1], ar->center[2], at);

    const float inset = 1e-3f, step_len = 0.05f;
    for (int pair = 0; pair < 20; pair++) {
        float p[2], q[2];
        p[0] = b.x0 + inset + (float)nav_rand_unit(seed) * (b.x1 - b.x0 - 2 * inset);
        p[1] = b.y0 + inset + (float)nav_rand_unit(seed) * (b.y1 - b.y0 - 2 * inset);
        q[0] = b.x0 + inset + (float)nav_rand_unit(seed) * (b.x1 - b.x0 - 2 * inset);
        q[1] = b.y0 + inset + (float)nav_rand_unit(seed) * (b.y1 - b.y0 - 2 * inset);
        float len = hypotf(q[0] - p[0], q[1] - p[1]);
        int steps = (int)ceilf(len / step_len);
        if (steps < 1) steps = 1;
        int pcx = 0, pcy = 0;
        float ph = 0, px = 0, py = 0;
        for (int i = 0; i <= steps; i++) {
            float t = (float)i / (float)steps;
            float x = p[0] + (q[0] - p[0]) * t, y = p[1] + (q[1] - p[1]) * t;
            int cx, cy;
            cr_assert(world_point_cell(w, x, y, &cx, &cy), "%s: area %u: point (%.3f, %.3f) off the map", map, a, x, y);
            if (i > 0 && cx == pcx && cy == pcy) continue;
            if (i > 0 && abs(cx - pcx) == 1 && abs(cy - pcy) == 1) {
                int mx, my;
                between_cells(cs, px, py, x, y, pcx, pcy, cx, cy, &mx, &my);
                ph = check_cell(ag, a, mx, my, x, y, ph, true, map);
            }
            cr_assert(i == 0 || (abs(cx - pcx) <= 1 && abs(cy - pcy) <= 1));
            float h = check_cell(ag, a, cx, cy, x, y, ph, i > 0, map);
            uint32_t s = area_point_area(ag, x, y, h);
            cr_assert_eq(s, a, "%s: area %u: point (%.3f, %.3f, %.2f) of cell (%d, %d) samples as area %u", map, a, x, y,
                         h, cx, cy, s);
            pcx = cx;
            pcy = cy;
            ph = h;
            px = x;
            py = y;
        }
    }
}

static void check_invariants(const NavAreaGraph *ag, const char *map);

/* Rough ground for a point-sized mover (radius 0: no clearance band hides
** the height changes): random heights in 0.25 m bands, some columns with a
** second storey. Neighbouring usable cells often differ by more than a
** step, which the bundled maps never show a radius-0.4 human. */
static inline NavWorld *rough_ground(uint64_t seed)
{
    /* 20 x 20: a couple of hundred areas, one cluster's worth at the
    ** default limit (larger rough worlds spend seconds splitting clusters) */
    const int W = 20, H = 20;
    NavError err;
    NavWorld *w = world_create(&(NavWorldDesc){ .width = W, .height = H, .name = "rough" }, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavFloorAt *items = nav_calloc((size_t)(2 * W * H), sizeof *items);
    size_t n = 0;
    for (int cy = 0; cy < H; cy++)
        for (int cx = 0; cx < W; cx++) {
            uint64_t r = nav_rand_next(&seed);
            if (r % 13 == 0) continue; /* a wall column */
            bool upper = (r >> 8) % 4 == 0;
            float z = 0.25f * (float)((r >> 16) % 5);
            items[n++] = (NavFloorAt){ .cell = (uint32_t)(cy * W + cx),
                                       .floor = { .z = z, .ceiling = upper ? 3.8f : INFINITY, .top = z,
                                                  .contents = NAV_CONTENTS_FLOOR } };
            if (upper) {
                float u = 4.0f + 0.25f * (float)((r >> 24) % 3);
                items[n++] = (NavFloorAt){ .cell = (uint32_t)(cy * W + cx),
                                           .floor = { .z = u, .ceiling = INFINITY, .top = u,
                                                      .contents = NAV_CONTENTS_FLOOR } };
            }
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    nav_free(items);
    NavClass point = class_defaults();
    point.radius = 0.0f;
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &point, NULL, &err)), "%s", err.message);
    return w;
}

/* }======= */

/* {======= 3. invariants ======= */

static inline void check_invariants(const NavAreaGraph *ag, const char *map)
{
    uint32_t n = area_count(ag), nr = area_reach_count(ag), np = area_portal_count(ag), nc = area_cluster_count(ag);
    const NavClass *cls = area_class(ag);
    cr_assert_gt(n, 0, "%s: no areas", map);
    cr_assert_gt(nc, 0, "%s: no clusters", map);

    /* areas: portal marks and clusters */
    uint32_t non_portal = 0;
    uint32_t *per_cluster = nav_calloc(nc + 1, sizeof *per_cluster);
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = area_get(ag, a);
        cr_assert(ar->x0 <= ar->x1 && ar->y0 <= ar->y1, "%s: area %u has an empty rectangle", map, a);
        cr_assert(ar->zmin <= ar->zmax, "%s: area %u: zmin %.2f > zmax %.2f", map, a, ar->zmin, ar->zmax);
        if (ar->flags & NAV_AREA_PORTAL) {
            cr_assert_eq(ar->cluster, 0, "%s: portal area %u is in cluster %u", map, a, ar->cluster);
            cr_assert(ar->portal >= 0 && (uint32_t)ar->portal < np, "%s: portal area %u has portal index %d (of %u)", map,
                      a, ar->portal, np);
            cr_assert_eq(area_portal(ag, (uint32_t)ar->portal)->area, a, "%s: portal %d names area %u, not %u", map,
                         ar->portal, area_portal(ag, (uint32_t)ar->portal)->area, a);
        } else {
            cr_assert(ar->cluster >= 1 && ar->cluster <= nc, "%s: area %u is in cluster %u (there are %u)", map, a,
                      ar->cluster, nc);
            cr_assert_eq(ar->portal, -1, "%s: area %u is no portal but has portal index %d", map, a, ar->portal);
            non_portal++;
            per_cluster[ar->cluster]++;
        }
    }

    /* portals */
    for (uint32_t p = 0; p < np; p++) {
        const NavPortal *po = area_portal(ag, p);
        cr_assert_lt(po->area, n);
        const NavArea *ar = area_get(ag, po->area);
        cr_assert(ar->flags & NAV_AREA_PORTAL, "%s: portal %u's area %u lacks NAV_AREA_PORTAL", map, p, po->area);
        cr_assert_eq(ar->portal, (int32_t)p, "%s: portal %u's area %u says portal %d", map, p, po->area, ar->portal);
        cr_assert(po->front >= 1 && po->front <= nc && po->back >= 1 && po->back <= nc,
                  "%s: portal %u separates clusters %u and %u (there are %u)", map, p, po->front, po->back, nc);
        cr_assert_neq(po->front, po->back, "%s: portal %u has cluster %u on both sides", map, p, po->front);
    }

    /* reaches: tiling, sources, clusters */
    uint32_t expect_first = 0;
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = area_get(ag, a);
        cr_assert_eq(ar->first_reach, expect_first, "%s: area %u's links start at %u, expected %u", map, a,
                     ar->first_reach, expect_first);
        for (uint32_t k = 0; k < ar->reach_count; k++)
            cr_assert_eq(area_reach(ag, ar->first_reach + k)->from, a, "%s: link %u in area %u's range comes from %u",
                         map, ar->first_reach + k, a, area_reach(ag, ar->first_reach + k)->from);
        expect_first += ar->reach_count;
    }
    cr_assert_eq(expect_first, nr, "%s: the areas' link ranges cover %u links of %u", map, expect_first, nr);
    for (uint32_t i = 0; i < nr; i++) {
        const NavReach *r = area_reach(ag, i);
        cr_assert(r->from < n && r->to < n, "%s: link %u joins %u and %u (of %u areas)", map, i, r->from, r->to, n);
        cr_assert_neq(r->from, r->to, "%s: link %u loops on area %u", map, i, r->from);
        cr_assert_lt(r->type, NAV_TRAVEL_COUNT, "%s: link %u has type %u", map, i, r->type);
        cr_assert(r->travel_flags & NAV_TFL_TYPE(r->type), "%s: link %u's travel flags lack its type", map, i);
        cr_assert_geq(r->time, 1, "%s: link %u takes no time", map, i);
        bool entity_type = r->type == NAV_TRAVEL_TELEPORT || r->type == NAV_TRAVEL_ELEVATOR ||
                           r->type == NAV_TRAVEL_JUMP_PAD;
        cr_assert_eq(r->entity >= 0, entity_type, "%s: link %u (%s) has entity %d", map, i, area_travel_name(r->type),
                     r->entity);
        if (walkish(r->type))
            cr_assert_leq(fabsf(r->end[2] - r->start[2]), cls->step + 1e-3f, "%s: %s link %u (%u->%u) rises %.2f m", map,
                          area_travel_name(r->type), i, r->from, r->to, r->end[2] - r->start[2]);
        const NavArea *fa = area_get(ag, r->from), *ta = area_get(ag, r->to);
        if (!(fa->flags & NAV_AREA_PORTAL) && !(ta->flags & NAV_AREA_PORTAL))
            cr_assert_eq(fa->cluster, ta->cluster,
                         "%s: link %u (%s) joins area %u of cluster %u to area %u of cluster %u without a portal", map,
                         i, area_travel_name(r->type), r->from, fa->cluster, r->to, ta->cluster);
    }

    /* each portal's neighbours lie in exactly its two clusters */
    for (uint32_t p = 0; p < np; p++) {
        const NavPortal *po = area_portal(ag, p);
        bool front = false, back = false;
        for (uint32_t i = 0; i < nr; i++) {
            const NavReach *r = area_reach(ag, i);
            uint32_t other;
            if (r->from == po->area) other = r->to;
            else if (r->to == po->area) other = r->from;
            else continue;
            const NavArea *oa = area_get(ag, other);
            if (oa->flags & NAV_AREA_PORTAL) {
                /* two linked portals share a cluster: the link lies in it */
                const NavPortal *q = area_portal(ag, (uint32_t)oa->portal);
                cr_assert(q->front == po->front || q->front == po->back || q->back == po->front || q->back == po->back,
                          "%s: portals %u (clusters %u|%u) and %u (clusters %u|%u) are linked but share no cluster", map,
                          p, po->front, po->back, (uint32_t)oa->portal, q->front, q->back);
                continue;
            }
            cr_assert(oa->cluster == po->front || oa->cluster == po->back,
                      "%s: portal %u (area %u, clusters %u|%u) is linked to area %u of cluster %u", map, p, po->area,
                      po->front, po->back, other, oa->cluster);
            front |= oa->cluster == po->front;
            back |= oa->cluster == po->back;
        }
        cr_assert(front && back, "%s: portal %u (area %u) touches %s of its clusters %u|%u", map, p, po->area,
                  front ? "only the front" : back ? "only the back" : "neither", po->front, po->back);
    }

    /* clusters: sizes and portal lists */
    uint32_t sum = 0;
    const uint32_t *cp = area_cluster_portals(ag);
    cr_assert(np == 0 || cp != NULL);
    uint8_t *listed = nav_malloc(np + 1);
    for (uint32_t c = 1; c <= nc; c++) {
        const NavCluster *cl = area_cluster(ag, c);
        cr_assert_not_null(cl);
        cr_assert_eq(cl->area_count, per_cluster[c], "%s: cluster %u says %u areas, %u areas name it", map, c,
                     cl->area_count, per_cluster[c]);
        cr_assert_gt(cl->area_count, 0, "%s: cluster %u is empty", map, c);
        sum += cl->area_count;
        cr_assert_leq((uint64_t)cl->first_portal + cl->portal_count, 2ull * np,
                      "%s: cluster %u's portal list runs past the end", map, c);
        memset(listed, 0, np + 1);
        for (uint32_t k = 0; k < cl->portal_count; k++) {
            uint32_t p = cp[cl->first_portal + k];
            cr_assert_lt(p, np, "%s: cluster %u lists portal %u (of %u)", map, c, p, np);
            cr_assert_not(listed[p], "%s: cluster %u lists portal %u twice", map, c, p);
            listed[p] = 1;
            const NavPortal *po = area_portal(ag, p);
            cr_assert(po->front == c || po->back == c, "%s: cluster %u lists portal %u, which separates %u|%u", map, c,
                      p, po->front, po->back);
        }
        for (uint32_t p = 0; p < np; p++) {
            const NavPortal *po = area_portal(ag, p);
            if (po->front == c || po->back == c)
                cr_assert(listed[p], "%s: portal %u touches cluster %u but the cluster does not list it", map, p, c);
        }
    }
    cr_assert_null(area_cluster(ag, 0), "cluster numbers are 1-based");
    cr_assert_null(area_cluster(ag, nc + 1));
    cr_assert_eq(sum, non_portal, "%s: clusters hold %u areas, there are %u non-portal areas", map, sum, non_portal);
    nav_free(listed);
    nav_free(per_cluster);
}

/* The travel times area_reach.c's header gives, in hundredths of a second:
** d the horizontal distance from start to end, dh the rise. */
static inline double documented_time(const NavAreaGraph *ag, const NavReach *r)
{
    const NavClass *c = area_class(ag);
    const NavWorld *w = area_world(ag);
    double g = world_gravity(w);
    double d = hypot((double)r->end[0] - r->start[0], (double)r->end[1] - r->start[1]);
    double dh = (double)r->end[2] - r->start[2];
    double t;
    switch ((NavTravelType)r->type) {
    case NAV_TRAVEL_WALK: t = 100.0 * d / c->run_speed; break;
    case NAV_TRAVEL_CROUCH: t = 100.0 * d / c->crouch_speed; break;
    case NAV_TRAVEL_SWIM: t = 100.0 * d / c->swim_speed; break;
    case NAV_TRAVEL_BARRIER_JUMP: t = 100.0 * (2.0 * sqrt(2.0 * dh / g) + d / c->run_speed); break;
    case NAV_TRAVEL_CLIMB: t = 100.0 * (dh / 1.0 + 0.5); break;
    case NAV_TRAVEL_WALK_OFF_LEDGE: t = 100.0 * (sqrt(2.0 * fabs(dh) / g) + d / c->run_speed); break;
    case NAV_TRAVEL_JUMP: t = 100.0 * (d / c->run_speed + 0.3); break;
    case NAV_TRAVEL_LADDER: t = 100.0 * (fabs(dh) / c->ladder_speed + 0.5); break;
    case NAV_TRAVEL_WATER_JUMP: t = 100.0 * (2.0 * sqrt(2.0 * dh / g) + 0.3); break;
    case NAV_TRAVEL_TELEPORT: t = 10.0; break;
    case NAV_TRAVEL_JUMP_PAD: {
        const NavEntity *e = world_entity(w, r->entity);
        cr_assert(e && e->type == NAV_ENTITY_JUMP_PAD, "jump pad link from entity %d, not a jump pad", r->entity);
        t = 100.0 * 2.0 * sqrt(2.0 * e->u.jump_pad.apex / g);
        break;
    }
    case NAV_TRAVEL_ELEVATOR: {
        const NavEntity *e = world_entity(w, r->entity);
        cr_assert(e && e->type == NAV_ENTITY_ELEVATOR, "elevator link from entity %d, not an elevator", r->entity);
        t = 100.0 * (fabs(dh) / e->u.elevator.speed + e->u.elevator.wait);
        break;
    }
    default: cr_assert_fail("link type %u", r->type); return 0;
    }
    return t < 1.0 ? 1.0 : t;
}

static inline float area_speed(const NavAreaGraph *ag, const NavArea *a)
{
    const NavClass *c = area_class(ag);
    if (a->flags & NAV_AREA_CROUCH) return c->crouch_speed;
    if ((a->flags & NAV_AREA_LIQUID) && !(a->flags & NAV_AREA_GROUND)) return c->swim_speed;
    if (a->flags & NAV_AREA_LADDER) return c->ladder_speed;
    return c->run_speed;
}

static inline void check_times(const NavAreaGraph *ag, const char *map)
{
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        double want_t = documented_time(ag, r);
        cr_assert(fabs((double)r->time - want_t) <= 1.0,
                  "%s: %s link %u (%u->%u, (%.2f %.2f %.2f)->(%.2f %.2f %.2f)) takes %u, the formula gives %.1f", map,
                  area_travel_name(r->type), i, r->from, r->to, r->start[0], r->start[1], r->start[2], r->end[0],
                  r->end[1], r->end[2], r->time, want_t);
    }
    /* crossing an area: the straight distance at the area's speed */
    for (uint32_t a = 0; a < area_count(ag); a++) {
        const NavArea *ar = area_get(ag, a);
        uint32_t nin;
        const uint32_t *in = area_incoming(ag, a, &nin);
        for (uint32_t k = 0; k < nin; k++) {
            const NavReach *ri = area_reach(ag, in[k]);
            cr_assert_eq(ri->to, a, "%s: area %u's incoming link %u leads to %u", map, a, in[k], ri->to);
            for (uint32_t o = 0; o < ar->reach_count; o++) {
                const NavReach *ro = area_reach(ag, ar->first_reach + o);
                double d = sqrt(pow((double)ro->start[0] - ri->end[0], 2) + pow((double)ro->start[1] - ri->end[1], 2) +
                                pow((double)ro->start[2] - ri->end[2], 2));
                double t = fmax(1.0, 100.0 * d / area_speed(ag, ar));
                uint32_t got = area_crossing_time(ag, a, k, o);
                cr_assert(fabs((double)got - t) <= 1.0, "%s: crossing area %u from link %u to link %u takes %u, expected %.1f",
                          map, a, in[k], ar->first_reach + o, got, t);
                cr_assert_eq(got, area_time_between(ag, a, ri->end, ro->start));
            }
        }
    }
    /* every link into an area is listed as incoming exactly once */
    uint32_t total = 0;
    for (uint32_t a = 0; a < area_count(ag); a++) {
        uint32_t nin;
        area_incoming(ag, a, &nin);
        total += nin;
    }
    cr_assert_eq(total, area_reach_count(ag), "%s: %u incoming entries for %u links", map, total, area_reach_count(ag));
}

/* }======= */

#endif

/*
** test_area.c — the area graph: every travel type where the maps put it,
** convex areas (brute force), cluster and portal invariants, entity links
** added and removed, sampling, determinism and bad arguments.
**
** Expected places come from the bundled maps' header comments (cells
** "cols a-b, rows c-d", row 0 the north edge), never from the compiler's
** own output. valley (256 x 256) is compiled twice in the whole file.
*/
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "area/area.h"
#include "area/area_draw.h"
#include "core/random.h"
#include "map/map.h"
#include "test_support.h"

/* {======= helpers ======= */

static int human_class(const NavWorld *w)
{
    int cls = world_find_class(w, "human");
    cr_assert_geq(cls, 0, "%s has no human class", world_name(w));
    return cls;
}

static NavAreaGraph *compile_desc(const NavWorld *w, const NavAreaDesc *desc, bool entities)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_compile(w, human_class(w), desc, &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    if (entities) cr_assert(NAV_SUCCEEDED(area_add_entities(ag, &err)), "%s: %s", world_name(w), err.message);
    return ag;
}

static NavAreaGraph *compile(const NavWorld *w, bool entities) { return compile_desc(w, NULL, entities); }

/* Where a mover stands on a floor: liquids at their surface (world.h:
** top is the surface for liquids), everything else on z. */
static float standing(const NavFloor *f)
{
    bool liquid = f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA ||
                  f->contents == NAV_CONTENTS_SLIME;
    return liquid ? f->top : f->z;
}

/* Index of the floor of column (cx, cy) that belongs to area a, or -1. */
static int floor_of_area(const NavAreaGraph *ag, int cx, int cy, uint32_t a)
{
    int n;
    world_column(area_world(ag), cx, cy, &n);
    for (int i = 0; i < n; i++)
        if (area_of_floor(ag, cx, cy, i) == a) return i;
    return -1;
}

static float floor_height(const NavAreaGraph *ag, int cx, int cy, int f)
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
static Box2 cells_box(const NavWorld *w, int col0, int col1, int row0, int row1)
{
    float cs = world_cell_size(w);
    int rows = world_height(w);
    Box2 b = { (float)col0 * cs, (float)(rows - 1 - row1) * cs, (float)(col1 + 1) * cs, (float)(rows - row0) * cs };
    return b;
}

static Box2 entity_box(const NavWorld *w, const char *name, int *index)
{
    int i = world_find_entity(w, name);
    cr_assert_geq(i, 0, "%s has no entity %s", world_name(w), name);
    const NavEntity *e = world_entity(w, i);
    if (index) *index = i;
    return (Box2){ e->mins[0], e->mins[1], e->maxs[0], e->maxs[1] };
}

static Box2 point_box(float x, float y) { return (Box2){ x, y, x, y }; }

static float box_dist(Box2 b, float x, float y)
{
    float dx = fmaxf(0.0f, fmaxf(b.x0 - x, x - b.x1));
    float dy = fmaxf(0.0f, fmaxf(b.y0 - y, y - b.y1));
    return sqrtf(dx * dx + dy * dy);
}

static Box2 area_box(const NavAreaGraph *ag, uint32_t a)
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

static bool near_z(float v, float want) { return isnan(want) || fabsf(v - want) <= 0.15f; }

static bool reach_matches(const NavReach *r, const Want *w)
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

static int find_reach(const NavAreaGraph *ag, const Want *w)
{
    for (uint32_t i = 0; i < area_reach_count(ag); i++)
        if (reach_matches(area_reach(ag, i), w)) return (int)i;
    return -1;
}

static void expect_reach(const NavAreaGraph *ag, const Want *w)
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

static Want want(const char *what, NavTravelType t, Box2 near)
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

static Snapshot snapshot(const NavAreaGraph *ag)
{
    Snapshot s;
    memset(&s, 0, sizeof s);
    s.areas = area_count(ag);
    s.reaches = area_reach_count(ag);
    s.portals = area_portal_count(ag);
    s.clusters = area_cluster_count(ag);
    s.area = malloc((s.areas + 1) * sizeof *s.area);
    s.reach = malloc((s.reaches + 1) * sizeof *s.reach);
    s.portal = malloc((s.portals + 1) * sizeof *s.portal);
    s.cluster = malloc((s.clusters + 1) * sizeof *s.cluster);
    s.cluster_portals = malloc((2 * s.portals + 1) * sizeof *s.cluster_portals);
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
    s.incoming = malloc((s.incoming_total + 1) * sizeof *s.incoming);
    s.crossing = malloc((s.crossing_total + 1) * sizeof *s.crossing);
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

static void snapshot_free(Snapshot *s)
{
    free(s->area);
    free(s->reach);
    free(s->portal);
    free(s->cluster);
    free(s->cluster_portals);
    free(s->incoming);
    free(s->crossing);
}

/* Equal byte for byte; `what` names the comparison in messages. */
static void snapshot_expect_equal(const Snapshot *a, const Snapshot *b, const char *what)
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

/* }======= */

/* {======= 1. travel types in their places ======= */

Test(area, gauntlet_has_every_travel_type_at_its_feature)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile(w, true);

    /* At least one of each type anywhere. */
    NavAreaStats st;
    area_stats(ag, &st);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < area_reach_count(ag); i++) n += area_reach(ag, i)->type == (uint32_t)t;
        cr_assert_gt(n, 0, "gauntlet: no %s reachability at all", area_travel_name((NavTravelType)t));
        cr_assert_eq(st.reaches_by_type[t], n, "area_stats counts %u %s links, there are %u", st.reaches_by_type[t],
                     area_travel_name((NavTravelType)t), n);
    }

    /* The header comment's places. */
    Box2 door = cells_box(w, 17, 17, 8, 10);
    Box2 tunnel = cells_box(w, 38, 47, 8, 11);
    Box2 pool = cells_box(w, 54, 63, 1, 18);
    Box2 barrier = cells_box(w, 66, 78, 18, 19); /* the S4/S5 edge */
    Box2 gap = cells_box(w, 66, 78, 29, 33);
    Box2 climb = cells_box(w, 66, 78, 42, 43);   /* the S6/S7 edge */
    Box2 ledge = cells_box(w, 65, 65, 48, 53);
    Box2 ladder = cells_box(w, 53, 55, 44, 44);
    Box2 s1 = cells_box(w, 1, 16, 1, 18);

    Want walk_s1 = want("the start room S1", NAV_TRAVEL_WALK, s1);
    walk_s1.dist = 0.0f;
    expect_reach(ag, &walk_s1);
    Want walk_door = want("the S1/S2 doorway (col 17, rows 8-10)", NAV_TRAVEL_WALK, door);
    expect_reach(ag, &walk_door);

    Want crouch = want("the crouch tunnel (cols 38-47, rows 8-11)", NAV_TRAVEL_CROUCH, tunnel);
    int ci = find_reach(ag, &crouch);
    expect_reach(ag, &crouch);
    const NavArea *ct = area_get(ag, area_reach(ag, (uint32_t)ci)->to);
    cr_assert(ct->flags & NAV_AREA_CROUCH, "the crouch link %d leads into area %u, which is not crouch-only", ci,
              area_reach(ag, (uint32_t)ci)->to);

    /* the tunnel is entered crouching from both mouths: S2 (west) and S3 */
    Want crouch_w = crouch, crouch_e = crouch;
    crouch_w.what = "the crouch tunnel's west mouth, from S2 (cols 18-37)";
    crouch_w.near = cells_box(w, 18, 37, 1, 18);
    crouch_w.dist = 0.0f;
    crouch_w.end_near = tunnel;
    crouch_w.end_dist = 1.0f;
    expect_reach(ag, &crouch_w);
    crouch_e.what = "the crouch tunnel's east mouth, from S3 (cols 48-53)";
    crouch_e.near = cells_box(w, 48, 53, 1, 18);
    crouch_e.dist = 0.0f;
    crouch_e.end_near = tunnel;
    crouch_e.end_dist = 1.0f;
    expect_reach(ag, &crouch_e);

    /* swim in from the west bank S3; water-jump out onto the east bank S4
    ** (and back onto S3) */
    Box2 s3 = cells_box(w, 48, 53, 1, 18), s4 = cells_box(w, 64, 78, 1, 18);
    Want swim = want("into the pool (cols 54-63, rows 1-18) from the west bank S3", NAV_TRAVEL_SWIM, s3);
    swim.dist = 0.0f;
    swim.end_near = pool;
    swim.end_dist = 0.01f;
    swim.end_z = -0.7f; /* the surface, 0.7 m below the banks */
    expect_reach(ag, &swim);

    Want wj = want("out of the pool onto the east bank S4", NAV_TRAVEL_WATER_JUMP, pool);
    wj.dist = 0.01f;
    wj.start_z = -0.7f;
    wj.end_z = 0.0f;
    wj.end_near = s4;
    wj.end_dist = 0.01f;
    expect_reach(ag, &wj);
    wj.what = "out of the pool onto the west bank S3";
    wj.end_near = s3;
    expect_reach(ag, &wj);

    Want bj = want("the S4/S5 edge (row 18 | 19, cols 66-78), 1.0 m up", NAV_TRAVEL_BARRIER_JUMP, barrier);
    bj.dz_lo = 0.9f;
    bj.dz_hi = 1.1f;
    expect_reach(ag, &bj);

    Want jump = want("the 2.5 m void gap (cols 66-78, rows 29-33)", NAV_TRAVEL_JUMP, gap);
    jump.start_z = 1.0f;
    jump.end_z = 1.0f;
    int ji = find_reach(ag, &jump);
    expect_reach(ag, &jump);
    {
        /* and it crosses the gap: one end north of it, the other south */
        const NavReach *r = area_reach(ag, (uint32_t)ji);
        bool south_to_north = r->start[1] <= gap.y0 && r->end[1] >= gap.y1;
        bool north_to_south = r->start[1] >= gap.y1 && r->end[1] <= gap.y0;
        cr_assert(south_to_north || north_to_south, "jump %d (y %.2f -> %.2f) does not cross the gap y %.2f-%.2f", ji,
                  r->start[1], r->end[1], gap.y0, gap.y1);
        /* both ways: the gap is not one-way */
        Want back = jump;
        int k = -1;
        for (uint32_t i = 0; i < area_reach_count(ag) && k < 0; i++) {
            const NavReach *q = area_reach(ag, i);
            if (reach_matches(q, &back) && (q->start[1] - gap.y0) * (r->start[1] - gap.y0) < 0) k = (int)i;
        }
        cr_assert_geq(k, 0, "the gap is jumped one way only");
    }

    Want cl = want("the S6/S7 edge (row 42 | 43, cols 66-78), 2.0 m up", NAV_TRAVEL_CLIMB, climb);
    cl.dz_lo = 1.9f;
    cl.dz_hi = 2.1f;
    expect_reach(ag, &cl);

    Want off = want("the 3.0 m ledge (col 65, rows 48-53)", NAV_TRAVEL_WALK_OFF_LEDGE, ledge);
    off.start_z = 3.0f;
    off.end_z = 0.0f;
    expect_reach(ag, &off);

    Want up = want("the ladder (cols 53-55, row 44), up 4 m", NAV_TRAVEL_LADDER, ladder);
    up.dz_lo = 3.5f;
    up.dz_hi = 4.5f;
    expect_reach(ag, &up);
    Want down = want("the ladder (cols 53-55, row 44), down 4 m", NAV_TRAVEL_LADDER, ladder);
    down.dz_lo = -4.5f;
    down.dz_hi = -3.5f;
    expect_reach(ag, &down);

    /* Entities. */
    const char *teles[] = { "tele_hall", "tele_vault" };
    for (int k = 0; k < 2; k++) {
        int ei;
        Box2 pad = entity_box(w, teles[k], &ei);
        const NavEntity *e = world_entity(w, ei);
        Want t = want(teles[k], NAV_TRAVEL_TELEPORT, pad);
        t.entity = ei;
        t.end_near = point_box(e->u.teleporter.dest[0], e->u.teleporter.dest[1]);
        t.end_dist = 2.0f;
        int ti = find_reach(ag, &t);
        expect_reach(ag, &t);
        const NavReach *r = area_reach(ag, (uint32_t)ti);
        cr_assert_leq(box_dist(pad, r->start[0], r->start[1]), 0.01f, "%s: link starts outside the trigger", teles[k]);
        cr_assert_leq(box_dist(area_box(ag, r->from), 0.5f * (pad.x0 + pad.x1), 0.5f * (pad.y0 + pad.y1)), 2.0f,
                      "%s: link leaves from area %u, far from the pad", teles[k], r->from);
        cr_assert_leq(box_dist(area_box(ag, r->to), e->u.teleporter.dest[0], e->u.teleporter.dest[1]), 0.01f,
                      "%s: link lands in area %u, which does not hold the destination", teles[k], r->to);
    }
    {
        int ei;
        Box2 shaft = entity_box(w, "lift", &ei);
        Want lu = want("the lift shaft (cols 20-23, rows 46-49), 0 -> 4", NAV_TRAVEL_ELEVATOR, shaft);
        lu.entity = ei;
        lu.start_z = 0.0f;
        lu.end_z = 4.0f;
        expect_reach(ag, &lu);
        Want ld = lu;
        ld.what = "the lift shaft, 4 -> 0";
        ld.start_z = 4.0f;
        ld.end_z = 0.0f;
        expect_reach(ag, &ld);
        /* the header's shaft and the entity agree */
        Box2 doc = cells_box(w, 20, 23, 46, 49);
        cr_assert_float_eq(shaft.x0, doc.x0, 1e-4);
        cr_assert_float_eq(shaft.y1, doc.y1, 1e-4);
    }
    {
        int ei;
        Box2 pad = entity_box(w, "pad_perch", &ei);
        const NavEntity *e = world_entity(w, ei);
        Want jp = want("the jump pad (cols 5-7, rows 28-30) to the perch", NAV_TRAVEL_JUMP_PAD, pad);
        jp.entity = ei;
        jp.end_near = cells_box(w, 4, 9, 17, 22); /* the perch */
        jp.end_dist = 0.01f;
        jp.end_z = 3.5f;
        int pi = find_reach(ag, &jp);
        expect_reach(ag, &jp);
        const NavReach *r = area_reach(ag, (uint32_t)pi);
        cr_assert_float_eq(r->end[0], e->u.jump_pad.target[0], 1e-3);
        cr_assert_float_eq(r->end[1], e->u.jump_pad.target[1], 1e-3);
        const NavArea *to = area_get(ag, r->to);
        cr_assert(to->zmin >= 3.4f && to->zmax <= 3.6f, "the jump pad lands in area %u at z %.2f-%.2f, not the perch",
                  r->to, to->zmin, to->zmax);
    }
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static bool walkish(uint32_t t) { return t == NAV_TRAVEL_WALK || t == NAV_TRAVEL_CROUCH; }

Test(area, tower_stairs_ladders_lift_and_balcony)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, true);
    const NavClass *c = area_class(ag);
    uint32_t n = area_count(ag);

    /* Walking never changes height by more than a step in one link. */
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (!walkish(r->type)) continue;
        cr_assert_leq(fabsf(r->end[2] - r->start[2]), c->step + 1e-3f,
                      "%s link %u (%u->%u) rises %.2f m, more than a step", area_travel_name(r->type), i, r->from, r->to,
                      r->end[2] - r->start[2]);
    }

    /* The flights have areas: flight 1 (ground, lane A rows 5-8, cols
    ** 11-25, step h = 0.25 (col - 10)); flight 2 (second, lane B rows
    ** 10-13, rising west: col 25 is 'a'); flight 3 (third, lane A). */
    struct { int col, row; float z; } steps[] = {
        { 12, 6, 0.5f }, { 18, 7, 2.0f }, { 24, 6, 3.5f },          /* flight 1 */
        { 24, 11, 4.5f }, { 18, 12, 6.0f }, { 12, 11, 7.5f },       /* flight 2 */
        { 12, 6, 8.5f }, { 18, 7, 10.0f }, { 24, 6, 11.5f },        /* flight 3 */
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(steps); k++) {
        Box2 b = cells_box(w, steps[k].col, steps[k].col, steps[k].row, steps[k].row);
        float x = 0.5f * (b.x0 + b.x1), y = 0.5f * (b.y0 + b.y1);
        uint32_t a = area_point_area(ag, x, y, steps[k].z);
        cr_assert_neq(a, NAV_NO_AREA, "no area on the stair step at col %d row %d (z %.2f)", steps[k].col,
                      steps[k].row, steps[k].z);
        const NavArea *ar = area_get(ag, a);
        cr_assert(ar->zmin <= steps[k].z + 1e-3f && ar->zmax >= steps[k].z - 1e-3f,
                  "the step at col %d row %d (z %.2f) is in area %u of z %.2f-%.2f", steps[k].col, steps[k].row,
                  steps[k].z, a, ar->zmin, ar->zmax);
    }

    /* Walking alone (walk and crouch links) leads from the courtyard up
    ** every storey: the stairs are walked. */
    int sw;
    Box2 spawn = entity_box(w, "spawn_west", &sw);
    uint32_t start = area_point_area(ag, spawn.x0, spawn.y0, world_entity(w, sw)->mins[2] + 0.1f);
    cr_assert_neq(start, NAV_NO_AREA, "spawn_west stands on no area");
    cr_assert_lt(area_get(ag, start)->zmax, 0.5f);
    uint8_t *seen = calloc(n, 1);
    uint32_t *queue = malloc(n * sizeof *queue);
    uint32_t head = 0, tail = 0;
    seen[start] = 1;
    queue[tail++] = start;
    while (head < tail) {
        const NavArea *a = area_get(ag, queue[head++]);
        for (uint32_t k = 0; k < a->reach_count; k++) {
            const NavReach *r = area_reach(ag, a->first_reach + k);
            if (!walkish(r->type) || seen[r->to]) continue;
            seen[r->to] = 1;
            queue[tail++] = r->to;
        }
    }
    const float storeys[] = { 4.0f, 8.0f, 12.0f };
    for (size_t s = 0; s < NAV_ARRAY_COUNT(storeys); s++) {
        bool found = false;
        for (uint32_t a = 0; a < n && !found; a++) {
            const NavArea *ar = area_get(ag, a);
            found = seen[a] && fabsf(ar->zmin - storeys[s]) < 0.01f && fabsf(ar->zmax - storeys[s]) < 0.01f;
        }
        cr_assert(found, "no floor at z %.0f is reached from the courtyard by walk/crouch links alone",
                  (double)storeys[s]);
    }
    free(seen);
    free(queue);

    /* Ladders: a storey at a time. */
    bool ladder_up = false, ladder_down = false;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (r->type != NAV_TRAVEL_LADDER) continue;
        if (r->end[2] - r->start[2] >= 3.0f) ladder_up = true;
        if (r->start[2] - r->end[2] >= 3.0f) ladder_down = true;
    }
    cr_assert(ladder_up, "no ladder link climbs 3 m or more");
    cr_assert(ladder_down, "no ladder link descends 3 m or more");
    /* ladder 1: store room, cols 49-51, row 30, to the second floor */
    Want l1 = want("ladder 1 (cols 49-51, row 30)", NAV_TRAVEL_LADDER, cells_box(w, 49, 51, 30, 30));
    l1.start_z = 0.0f;
    l1.end_z = 4.0f;
    expect_reach(ag, &l1);
    Want l2 = want("ladder 2 (cols 11-13, row 30)", NAV_TRAVEL_LADDER, cells_box(w, 11, 13, 30, 30));
    l2.start_z = 4.0f;
    l2.end_z = 8.0f;
    expect_reach(ag, &l2);

    /* The lift: every pair of stops is linked both ways. */
    int li = world_find_entity(w, "lift");
    cr_assert_geq(li, 0);
    const NavEntity *lift = world_entity(w, li);
    const NavElevator *el = &lift->u.elevator;
    cr_assert_eq(el->stop_count, 4, "the header says four stops");
    for (int a = 0; a < el->stop_count; a++)
        for (int b = 0; b < el->stop_count; b++) {
            if (a == b) continue;
            bool found = false;
            for (uint32_t i = 0; i < area_reach_count(ag) && !found; i++) {
                const NavReach *r = area_reach(ag, i);
                if (r->type != NAV_TRAVEL_ELEVATOR || r->entity != li) continue;
                const NavArea *fa = area_get(ag, r->from), *ta = area_get(ag, r->to);
                found = fabsf(r->start[2] - el->stops[a]) < 0.01f && fabsf(r->end[2] - el->stops[b]) < 0.01f &&
                        fa->zmin <= el->stops[a] + c->step && fa->zmax >= el->stops[a] - c->step &&
                        ta->zmin <= el->stops[b] + c->step && ta->zmax >= el->stops[b] - c->step;
            }
            cr_assert(found, "no elevator link from the stop at %.0f m to the one at %.0f m", (double)el->stops[a],
                      (double)el->stops[b]);
        }

    /* The balcony (second floor, cols 24-39, rows 40-42) drops 3.6 m onto
    ** the terrace (h 0.4): a one-way walk off the ledge. */
    Box2 balcony = cells_box(w, 24, 39, 40, 42);
    Want drop = want("off the balcony (cols 24-39, rows 40-42)", NAV_TRAVEL_WALK_OFF_LEDGE, balcony);
    drop.start_z = 4.0f;
    drop.end_z = 0.4f;
    drop.end_near = cells_box(w, 22, 41, 40, 44);
    drop.end_dist = 0.01f;
    int di = find_reach(ag, &drop);
    expect_reach(ag, &drop);
    const NavReach *d = area_reach(ag, (uint32_t)di);
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        cr_assert(!(r->from == d->to && r->to == d->from && r->entity < 0),
                  "the balcony drop %u->%u has a terrain link back (%s)", d->from, d->to, area_travel_name(r->type));
    }
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 2. convexity, brute force ======= */

/* The cell a straight segment visits between two consecutive samples that
** are diagonal neighbours: the one across whichever cell border the
** segment meets first. */
static void between_cells(float cs, float ax, float ay, float bx, float by, int cx0, int cy0, int cx1, int cy1,
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
static float check_cell(const NavAreaGraph *ag, uint32_t a, int cx, int cy, float px, float py, float prev_h,
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

static void check_convex(const NavAreaGraph *ag, uint32_t a, uint64_t *seed, const char *map)
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

Test(area, areas_are_convex_on_the_small_maps)
{
    const char *maps[] = { "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua" };
    uint64_t seed = 20240601;
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, true);
        cr_assert_gt(area_count(ag), 0, "%s: no areas", maps[m]);
        for (uint32_t a = 0; a < area_count(ag); a++) check_convex(ag, a, &seed, maps[m]);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

static void check_invariants(const NavAreaGraph *ag, const char *map);

/* Rough ground for a point-sized mover (radius 0: no clearance band hides
** the height changes): random heights in 0.25 m bands, some columns with a
** second storey. Neighbouring usable cells often differ by more than a
** step, which the bundled maps never show a radius-0.4 human. */
static NavWorld *rough_ground(uint64_t seed)
{
    /* 20 x 20: a couple of hundred areas, one cluster's worth at the
    ** default limit (larger rough worlds spend seconds splitting clusters) */
    const int W = 20, H = 20;
    NavError err;
    NavWorld *w = world_create(&(NavWorldDesc){ .width = W, .height = H, .name = "rough" }, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavFloorAt *items = calloc((size_t)(2 * W * H), sizeof *items);
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
    free(items);
    NavClass point = class_defaults();
    point.radius = 0.0f;
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &point, NULL, &err)), "%s", err.message);
    return w;
}

Test(area, areas_are_convex_on_rough_ground)
{
    for (uint64_t s = 1; s <= 4; s++) {
        NavWorld *w = rough_ground(s * 1000003u);
        NavAreaGraph *ag = compile(w, true);
        uint64_t seed = s;
        cr_assert_gt(area_count(ag), 100);
        for (uint32_t a = 0; a < area_count(ag); a++) check_convex(ag, a, &seed, "rough");
        check_invariants(ag, "rough");
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(area, areas_are_convex_on_valley, .timeout = 60)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavAreaGraph *ag = compile(w, true);
    uint32_t n = area_count(ag);
    cr_assert_gt(n, 300);
    uint64_t seed = 77;
    /* 300 areas spread over the list (every one when there are fewer) */
    for (uint32_t k = 0; k < 300; k++) {
        uint32_t a = (uint32_t)(((uint64_t)k * n) / 300u + nav_rand_next(&seed) % NAV_MAX(1u, n / 300u));
        if (a >= n) a = n - 1;
        check_convex(ag, a, &seed, "valley");
    }
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 3. invariants ======= */

static void check_invariants(const NavAreaGraph *ag, const char *map)
{
    uint32_t n = area_count(ag), nr = area_reach_count(ag), np = area_portal_count(ag), nc = area_cluster_count(ag);
    const NavClass *cls = area_class(ag);
    cr_assert_gt(n, 0, "%s: no areas", map);
    cr_assert_gt(nc, 0, "%s: no clusters", map);

    /* areas: portal marks and clusters */
    uint32_t non_portal = 0;
    uint32_t *per_cluster = calloc(nc + 1, sizeof *per_cluster);
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
    uint8_t *listed = malloc(np + 1);
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
    free(listed);
    free(per_cluster);
}

/* The travel times area_reach.c's header gives, in hundredths of a second:
** d the horizontal distance from start to end, dh the rise. */
static double documented_time(const NavAreaGraph *ag, const NavReach *r)
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

static float area_speed(const NavAreaGraph *ag, const NavArea *a)
{
    const NavClass *c = area_class(ag);
    if (a->flags & NAV_AREA_CROUCH) return c->crouch_speed;
    if ((a->flags & NAV_AREA_LIQUID) && !(a->flags & NAV_AREA_GROUND)) return c->swim_speed;
    if (a->flags & NAV_AREA_LADDER) return c->ladder_speed;
    return c->run_speed;
}

static void check_times(const NavAreaGraph *ag, const char *map)
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

Test(area, travel_times_follow_the_documented_formulas)
{
    const char *maps[] = { "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, true);
        check_times(ag, maps[m]);
        area_destroy(ag);
        world_destroy(w);
    }
    NavWorld *w = rough_ground(99);
    NavAreaGraph *ag = compile(w, true);
    check_times(ag, "rough");
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area, invariants_hold_on_the_small_maps)
{
    const char *maps[] = { "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, false);
        check_invariants(ag, maps[m]);
        NavError err;
        cr_assert(NAV_SUCCEEDED(area_add_entities(ag, &err)), "%s", err.message);
        check_invariants(ag, maps[m]);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(area, invariants_hold_on_valley, .timeout = 60)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavAreaGraph *ag = compile(w, true);
    check_invariants(ag, "maps/valley.lua");
    check_times(ag, "maps/valley.lua");
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area, small_cluster_limit_is_kept)
{
    /* Limits well under each map's area count: doorways alone cannot meet
    ** them on valley's open ground, so cut lines must. */
    static const struct { const char *map; int limit; } cases[] = {
        { "maps/arena.lua", 16 }, { "maps/gauntlet.lua", 16 }, { "maps/tower.lua", 32 }, { "maps/valley.lua", 128 },
    };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(cases); m++) {
        const char *map = cases[m].map;
        uint32_t limit = (uint32_t)cases[m].limit;
        const NavAreaDesc desc = { .max_cluster_areas = cases[m].limit };
        NavWorld *w = test_load_map(map);
        for (int entities = 0; entities < 2; entities++) {
            NavAreaGraph *ag = compile_desc(w, &desc, entities != 0);
            check_invariants(ag, map);
            cr_expect_gt(area_cluster_count(ag), 1, "%s: one cluster under a limit of %u", map, limit);
            for (uint32_t c = 1; c <= area_cluster_count(ag); c++)
                cr_expect_leq(area_cluster(ag, c)->area_count, limit,
                              "%s%s: cluster %u has %u areas, over the limit of %u (%u areas, %u clusters, %u portals)",
                              map, entities ? " with entities" : "", c, area_cluster(ag, c)->area_count, limit,
                              area_count(ag), area_cluster_count(ag), area_portal_count(ag));
            area_destroy(ag);
        }
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* Stacked storeys of rooms: cut lines cross every storey and meet maze
** walls, stairs, ladders and lifts. */
Test(area, cluster_limit_in_a_generated_building)
{
    NavError err;
    NavWorld *w = map_generate_building(96, 96, 3, 1, &err);
    cr_assert_not_null(w, "%s", err.message);
    for (int entities = 0; entities < 2; entities++) {
        NavAreaGraph *ag = compile_desc(w, &(NavAreaDesc){ .max_cluster_areas = 128 }, entities != 0);
        check_invariants(ag, "building");
        cr_assert_gt(area_cluster_count(ag), 4);
        for (uint32_t c = 1; c <= area_cluster_count(ag); c++)
            cr_expect_leq(area_cluster(ag, c)->area_count, 128u, "building%s: cluster %u has %u areas",
                          entities ? " with entities" : "", c, area_cluster(ag, c)->area_count);
        area_destroy(ag);
    }
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* {======= 4. entity links on and off ======= */

Test(area, entities_add_and_remove_restore_the_graph)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile(w, false);
    for (uint32_t i = 0; i < area_reach_count(ag); i++)
        cr_assert_lt(area_reach(ag, i)->entity, 0, "link %u comes from an entity before any was added", i);
    Snapshot before = snapshot(ag);

    NavError err;
    cr_assert(NAV_SUCCEEDED(area_add_entities(ag, &err)), "%s", err.message);
    cr_assert_gt(area_reach_count(ag), before.reaches, "adding entities added no links");
    cr_assert_eq(area_count(ag), before.areas, "adding entities changed the areas");
    uint32_t by_type[NAV_TRAVEL_COUNT] = { 0 };
    for (uint32_t i = 0; i < area_reach_count(ag); i++) by_type[area_reach(ag, i)->type]++;
    cr_assert_gt(by_type[NAV_TRAVEL_TELEPORT], 0, "no teleport links");
    cr_assert_gt(by_type[NAV_TRAVEL_ELEVATOR], 0, "no elevator links");
    cr_assert_gt(by_type[NAV_TRAVEL_JUMP_PAD], 0, "no jump pad links");
    check_invariants(ag, "gauntlet with entities");
    Snapshot added = snapshot(ag);

    /* twice is once */
    cr_assert(NAV_SUCCEEDED(area_add_entities(ag, &err)), "%s", err.message);
    Snapshot twice = snapshot(ag);
    snapshot_expect_equal(&added, &twice, "adding entities twice");

    area_remove_entities(ag);
    Snapshot after = snapshot(ag);
    snapshot_expect_equal(&before, &after, "entities added then removed");

    /* and again: add after a remove gives the same graph as the first add */
    cr_assert(NAV_SUCCEEDED(area_add_entities(ag, &err)), "%s", err.message);
    Snapshot again = snapshot(ag);
    snapshot_expect_equal(&added, &again, "entities added, removed and added again");

    snapshot_free(&before);
    snapshot_free(&added);
    snapshot_free(&twice);
    snapshot_free(&after);
    snapshot_free(&again);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 5. sampling ======= */

Test(area, point_area_walls_floors_and_storeys)
{
    const char *maps[] = { "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, true);
        uint32_t walls = 0, floors = 0;
        for (int cy = 0; cy < world_height(w); cy++)
            for (int cx = 0; cx < world_width(w); cx++) {
                float x, y;
                world_cell_center(w, cx, cy, &x, &y);
                int n;
                const NavFloor *f = world_column(w, cx, cy, &n);
                if (n == 0) {
                    walls++;
                    const float zs[] = { -1.0f, 0.0f, 0.1f, 2.0f, 4.1f, 8.1f, 12.1f, 50.0f };
                    for (size_t k = 0; k < NAV_ARRAY_COUNT(zs); k++)
                        cr_assert_eq(area_point_area(ag, x, y, zs[k]), NAV_NO_AREA,
                                     "%s: the wall at cell (%d, %d) samples as an area at z %.1f", maps[m], cx, cy,
                                     (double)zs[k]);
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    if (f[i].contents == NAV_CONTENTS_VOID) continue;
                    float h = standing(&f[i]) + 0.1f;
                    if (h >= f[i].ceiling) continue;
                    uint32_t want_a = area_of_floor(ag, cx, cy, i);
                    uint32_t got = area_point_area(ag, x, y, h);
                    cr_assert_eq(got, want_a, "%s: 0.1 m above floor %d (z %.2f) of cell (%d, %d): area %u, its area is %u",
                                 maps[m], i, standing(&f[i]), cx, cy, got, want_a);
                    floors++;
                }
            }
        cr_assert_gt(walls, 0);
        cr_assert_gt(floors, 0);
        cr_assert_eq(area_point_area(ag, -1.0f, 1.0f, 0.0f), NAV_NO_AREA, "off the map");
        cr_assert_eq(area_point_area(ag, NAN, 1.0f, 0.0f), NAV_NO_AREA);
        area_destroy(ag);
        world_destroy(w);
    }

    /* tower: the guard room, library and dormitory share a footprint
    ** (cols 7-18, rows 30-38); one (x, y), three storeys. */
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, true);
    Box2 room = cells_box(w, 7, 18, 30, 38);
    float x = 0.5f * (room.x0 + room.x1), y = 0.5f * (room.y0 + room.y1);
    const float zs[] = { 0.1f, 4.1f, 8.1f };
    uint32_t got[3];
    for (int k = 0; k < 3; k++) {
        got[k] = area_point_area(ag, x, y, zs[k]);
        cr_assert_neq(got[k], NAV_NO_AREA, "tower: no area at (%.2f, %.2f, %.1f)", x, y, (double)zs[k]);
        const NavArea *a = area_get(ag, got[k]);
        cr_assert(fabsf(a->zmin - (zs[k] - 0.1f)) < 0.01f && fabsf(a->zmax - (zs[k] - 0.1f)) < 0.01f,
                  "tower: the area at z %.1f (area %u) spans z %.2f-%.2f", (double)zs[k], got[k], a->zmin, a->zmax);
        cr_assert_eq(a->layer, (uint16_t)k, "tower: the area at z %.1f is on layer %u", (double)zs[k], a->layer);
    }
    cr_assert_neq(got[0], got[1]);
    cr_assert_neq(got[1], got[2]);
    cr_assert_neq(got[0], got[2]);
    cr_assert_eq(area_point_area(ag, x, y, 2.0f), got[0], "standing in the air of the guard room is over its floor");
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area, nearest_area_from_inside_a_wall)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile(w, true);
    const float radius = 2.0f;
    /* the west wall of S1 (col 0), beside the start room, and the wall
    ** between S1 and S2 (col 17, away from the door) */
    struct { int col, row; } walls[] = { { 0, 10 }, { 17, 4 }, { 17, 14 } };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(walls); k++) {
        Box2 c = cells_box(w, walls[k].col, walls[k].col, walls[k].row, walls[k].row);
        float p[3] = { 0.5f * (c.x0 + c.x1), 0.5f * (c.y0 + c.y1), 0.0f };
        cr_assert_eq(area_point_area(ag, p[0], p[1], p[2]), NAV_NO_AREA, "col %d row %d is not a wall", walls[k].col,
                     walls[k].row);
        float out[3] = { NAN, NAN, NAN };
        uint32_t a = area_nearest_area(ag, p[0], p[1], p[2], radius, out);
        cr_assert_neq(a, NAV_NO_AREA, "nothing near the wall at col %d row %d", walls[k].col, walls[k].row);
        cr_assert(fabsf(out[0] - p[0]) <= radius + 1e-4f && fabsf(out[1] - p[1]) <= radius + 1e-4f,
                  "the nearest point (%.2f, %.2f) is outside the box of half size %.1f around (%.2f, %.2f)", out[0],
                  out[1], (double)radius, p[0], p[1]);
        cr_assert_eq(area_point_area(ag, out[0], out[1], out[2]), a,
                     "the nearest point (%.2f, %.2f, %.2f) is not on area %u's floor", out[0], out[1], out[2], a);
        cr_assert_leq(box_dist(area_box(ag, a), out[0], out[1]), 0.0f);
        cr_assert_gt(area_get(ag, a)->reach_count, 0, "the nearest area %u has no links", a);
        /* nothing of any area is much nearer than the point returned */
        float best = INFINITY;
        for (uint32_t b = 0; b < area_count(ag); b++) {
            const NavArea *ar = area_get(ag, b);
            if (ar->zmin > p[2] + radius || ar->zmax < p[2] - radius) continue;
            float d = box_dist(area_box(ag, b), p[0], p[1]);
            best = fminf(best, d);
        }
        float got = hypotf(out[0] - p[0], out[1] - p[1]);
        cr_assert_leq(got, best + 0.75f * world_cell_size(w),
                      "the nearest point is %.2f m away, area edges come within %.2f m", got, best);
    }
    /* far from everything */
    float out[3];
    cr_assert_eq(area_nearest_area(ag, 0.25f, 0.25f, 100.0f, 1.0f, out), NAV_NO_AREA);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A room 47 cells long (wider than an area grows, so it is several linked
** areas) and, west of it behind a 5-cell wall, a closed 6 x 6 pocket: the
** pocket's usable middle is an area with no links. */
static NavWorld *room_and_pocket(void)
{
    NavError err;
    NavWorld *w = world_create(&(NavWorldDesc){ .width = 60, .height = 14, .name = "pocket" }, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavFloorAt *items = calloc(60 * 14, sizeof *items);
    size_t n = 0;
    for (int cy = 1; cy < 13; cy++)
        for (int cx = 1; cx < 59; cx++) {
            bool pocket = cx >= 1 && cx <= 6 && cy >= 4 && cy <= 9;
            bool room = cx >= 12 && cx <= 58;
            if (!pocket && !room) continue;
            items[n++] = (NavFloorAt){ .cell = (uint32_t)(cy * 60 + cx),
                                       .floor = { .z = 0.0f, .ceiling = INFINITY, .top = 0.0f,
                                                  .contents = NAV_CONTENTS_FLOOR } };
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    free(items);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, NULL, &err)), "%s", err.message);
    return w;
}

Test(area, nearest_area_wants_an_area_with_links)
{
    NavWorld *w = room_and_pocket();
    NavAreaGraph *ag = compile(w, true);
    /* The pocket holds an area, without links. */
    uint32_t pocket = area_point_area(ag, 2.0f, 3.5f, 0.0f); /* cell (4, 7) */
    cr_assert_neq(pocket, NAV_NO_AREA, "the pocket has no area");
    uint32_t in;
    area_incoming(ag, pocket, &in);
    cr_assert_eq(area_get(ag, pocket)->reach_count + in, 0, "the closed pocket has links");
    uint32_t room = area_point_area(ag, 10.0f, 3.5f, 0.0f);
    cr_assert_neq(room, NAV_NO_AREA);
    cr_assert_gt(area_get(ag, room)->reach_count, 0, "the room has no links");
    /* In the wall between them (cells 7-11), nearer the pocket: the
    ** header asks for the nearest area *with reachabilities*. */
    float out[3];
    uint32_t a = area_nearest_area(ag, 4.0f, 3.5f, 0.0f, 4.0f, out); /* cell (8, 7) */
    cr_assert_neq(a, NAV_NO_AREA);
    cr_expect_gt(area_get(ag, a)->reach_count, 0,
                 "from the wall (4.0, 3.5, 0), radius 4: area_nearest_area returned area %u (the closed pocket, no "
                 "links) though the room (area %u and others, with links) lies within the radius",
                 a, room);
    /* Standing in the pocket itself: the room is 5 m east. */
    a = area_nearest_area(ag, 2.0f, 3.5f, 0.0f, 6.0f, out);
    cr_assert_neq(a, NAV_NO_AREA);
    cr_expect_gt(area_get(ag, a)->reach_count, 0,
                 "from inside the pocket (2.0, 3.5, 0), radius 6: area_nearest_area returned area %u (the closed "
                 "pocket, no links) though the room (area %u and others, with links) lies within the radius",
                 a, room);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area, box_areas)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(w, true);
    uint32_t n = area_count(ag);
    uint32_t *out = malloc((n + 8) * sizeof *out);
    float cs = world_cell_size(w);
    float lo[3] = { -1.0f, -1.0f, -100.0f }, hi[3] = { world_width(w) * cs + 1, world_height(w) * cs + 1, 100.0f };
    int got = area_box_areas(ag, lo, hi, out, (int)n + 8);
    cr_assert_eq(got, (int)n, "a box over the whole map holds %d areas of %u", got, n);
    uint8_t *seen = calloc(n, 1);
    for (int i = 0; i < got; i++) {
        cr_assert_lt(out[i], n);
        cr_assert_not(seen[out[i]], "area %u listed twice", out[i]);
        seen[out[i]] = 1;
    }
    /* a small cap still counts everything */
    cr_assert_eq(area_box_areas(ag, lo, hi, out, 3), (int)n);
    /* one storey only: the second floor's band */
    float lo2[3] = { -1.0f, -1.0f, 3.9f }, hi2[3] = { hi[0], hi[1], 4.1f };
    got = area_box_areas(ag, lo2, hi2, out, (int)n);
    cr_assert_gt(got, 0);
    memset(seen, 0, n);
    for (int i = 0; i < got; i++) {
        const NavArea *a = area_get(ag, out[i]);
        cr_assert(a->zmin <= 4.1f && a->zmax >= 3.9f, "area %u (z %.2f-%.2f) is outside the band 3.9-4.1", out[i],
                  a->zmin, a->zmax);
        seen[out[i]] = 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const NavArea *a = area_get(ag, i);
        if (a->zmin <= 4.0f && a->zmax >= 4.0f) cr_assert(seen[i], "area %u at z %.2f-%.2f is missing", i, a->zmin, a->zmax);
    }
    free(seen);
    free(out);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static bool rects_touch(const NavArea *a, const NavArea *b)
{
    return a->x0 <= b->x1 + 1 && b->x0 <= a->x1 + 1 && a->y0 <= b->y1 + 1 && b->y0 <= a->y1 + 1;
}

static bool linked(const NavAreaGraph *ag, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if ((r->from == a && r->to == b) || (r->from == b && r->to == a)) return true;
    }
    return false;
}

/* Traces from -> to and checks the list; returns the count. */
static int check_trace(const NavAreaGraph *ag, const float from[3], const float to[3], uint32_t stop,
                       NavAreaTraceHit *hits, int cap, bool *done, const char *what)
{
    int n = area_trace(ag, from, to, stop, hits, cap, done);
    cr_assert_geq(n, 1, "%s: the trace holds nothing", what);
    cr_assert_leq(n, cap, "%s: more hits than the buffer", what);
    uint32_t start = area_point_area(ag, from[0], from[1], from[2]);
    cr_assert_eq(hits[0].area, start, "%s: the trace starts in area %u, the start is in %u", what, hits[0].area, start);
    for (int i = 0; i < n; i++) {
        const NavArea *a = area_get(ag, hits[i].area);
        cr_assert_not_null(a);
        cr_assert_leq(box_dist(area_box(ag, hits[i].area), hits[i].point[0], hits[i].point[1]), 1e-3f,
                      "%s: hit %d enters area %u at (%.2f, %.2f), outside it", what, i, hits[i].area, hits[i].point[0],
                      hits[i].point[1]);
        if (i == 0) continue;
        cr_assert_neq(hits[i].area, hits[i - 1].area, "%s: hit %d repeats area %u", what, i, hits[i].area);
        const NavArea *p = area_get(ag, hits[i - 1].area);
        cr_assert(linked(ag, hits[i - 1].area, hits[i].area) || rects_touch(p, a),
                  "%s: the trace jumps from area %u to area %u: neither linked nor adjacent", what, hits[i - 1].area,
                  hits[i].area);
    }
    for (int i = 1; i < n - 1; i++)
        cr_assert_not(area_get(ag, hits[i].area)->flags & stop, "%s: the trace went on past area %u, which has a stop flag",
                      what, hits[i].area);
    if (*done) {
        cr_assert_eq(hits[n - 1].area, area_point_area(ag, to[0], to[1], to[2]), "%s: done, but the last area is not the end's",
                     what);
    }
    return n;
}

/* Re-traces with the first flag that a later area of the first trace
** gains: the trace must stop right there. */
static void check_trace_stops(const NavAreaGraph *ag, const float from[3], const float to[3], const NavAreaTraceHit *full,
                              int n, uint32_t flag, const char *what)
{
    int k = -1;
    for (int i = 1; i < n && k < 0; i++)
        if (area_get(ag, full[i].area)->flags & flag) k = i;
    cr_assert_geq(k, 1, "%s: the trace never enters an area with flag 0x%x", what, flag);
    NavAreaTraceHit hits[256];
    bool done;
    int m = check_trace(ag, from, to, flag, hits, 256, &done, what);
    cr_assert_eq(m, k + 1, "%s: with stop flag 0x%x the trace has %d hits, it should stop at hit %d (area %u)", what, flag,
                 m, k, full[k].area);
    cr_assert_not(done, "%s: stopped, yet done", what);
    for (int i = 0; i < m; i++) cr_assert_eq(hits[i].area, full[i].area, "%s: hit %d differs", what, i);
}

Test(area, trace_follows_the_floor)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavAreaGraph *ag = compile(w, true);
    int ia = world_find_entity(w, "spawn_a"), ib = world_find_entity(w, "spawn_b");
    cr_assert(ia >= 0 && ib >= 0);
    float a[3], b[3];
    entity_origin(world_entity(w, ia), a);
    entity_origin(world_entity(w, ib), b);
    NavAreaTraceHit hits[256];
    bool done;
    int n = check_trace(ag, a, b, 0, hits, 256, &done, "arena spawn_a -> spawn_b");
    if (n >= 2) check_trace_stops(ag, a, b, hits, n, NAV_AREA_GROUND, "arena spawn_a -> spawn_b");

    /* Due south from spawn_a along the west side: open floor all the way. */
    float south[3] = { a[0], 1.25f, 0.0f };
    n = check_trace(ag, a, south, 0, hits, 256, &done, "arena spawn_a -> south wall");
    cr_assert(done, "the open floor south of spawn_a stops the trace after %d areas", n);
    cr_assert_geq(n, 2);
    /* a cap of 1 still counts them all */
    NavAreaTraceHit one;
    bool d1;
    cr_assert_eq(area_trace(ag, a, south, 0, &one, 1, &d1), n);
    cr_assert_eq(one.area, hits[0].area);
    area_destroy(ag);
    world_destroy(w);

    /* gauntlet: from the start room east through the doorway (col 17,
    ** rows 8-10, a portal area or not) into the hall, and from the high
    ** terrace S7 west onto the 3 m ledge (col 65, rows 48-53). */
    w = test_load_map("maps/gauntlet.lua");
    ag = compile(w, true);
    Box2 door = cells_box(w, 17, 17, 8, 10);
    float y = 0.5f * (door.y0 + door.y1);
    float from[3] = { 4.0f, y, 0.0f }, to[3] = { 14.0f, y, 0.0f };
    n = check_trace(ag, from, to, 0, hits, 256, &done, "gauntlet S1 -> S2");
    cr_assert(done, "the trace through the open doorway stops after %d areas", n);
    bool portal = false;
    for (int i = 1; i < n; i++) portal |= (area_get(ag, hits[i].area)->flags & NAV_AREA_PORTAL) != 0;
    if (portal) check_trace_stops(ag, from, to, hits, n, NAV_AREA_PORTAL, "gauntlet S1 -> S2");

    Box2 ledge = cells_box(w, 65, 65, 48, 53);
    float ly = 0.5f * (ledge.y0 + ledge.y1);
    float f2[3] = { 37.0f, ly, 3.0f }, t2[3] = { 30.0f, ly, 3.0f };
    n = check_trace(ag, f2, t2, 0, hits, 256, &done, "gauntlet S7 -> the ledge");
    cr_assert_not(done, "the trace walked off the 3 m ledge");
    for (int i = 0; i < n; i++)
        cr_assert_float_eq(hits[i].point[2], 3.0f, 1e-3, "the trace left the terrace's height at hit %d", i);
    bool ledge_area = false;
    for (int i = 1; i < n; i++) ledge_area |= (area_get(ag, hits[i].area)->flags & NAV_AREA_LEDGE) != 0;
    if (ledge_area) check_trace_stops(ag, f2, t2, hits, n, NAV_AREA_LEDGE, "gauntlet S7 -> the ledge");
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 6. determinism, 7. bad arguments ======= */

Test(area, compiling_twice_gives_the_same_graph)
{
    const char *maps[] = { "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *a = compile(w, true), *b = compile(w, true);
        Snapshot sa = snapshot(a), sb = snapshot(b);
        snapshot_expect_equal(&sa, &sb, maps[m]);
        cr_assert(area_graph_equal(a, b), "%s: area_graph_equal says two compiles differ", maps[m]);
        snapshot_free(&sa);
        snapshot_free(&sb);
        area_destroy(a);
        area_destroy(b);
        /* a second world loaded from the same file compiles the same way */
        NavWorld *w2 = test_load_map(maps[m]);
        NavAreaGraph *c = compile(w2, true), *d = compile(w, true);
        Snapshot sc = snapshot(c), sd = snapshot(d);
        snapshot_expect_equal(&sc, &sd, maps[m]);
        snapshot_free(&sc);
        snapshot_free(&sd);
        area_destroy(c);
        area_destroy(d);
        world_destroy(w2);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(area, compile_rejects_a_bad_class)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    const int bad[] = { -1, world_class_count(w), world_class_count(w) + 5, NAV_MAX_CLASSES, 1 << 30 };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        NavError err;
        nav_error_clear(&err);
        NavAreaGraph *ag = area_compile(w, bad[i], NULL, &err);
        cr_assert_null(ag, "class %d accepted", bad[i]);
        cr_assert(NAV_FAILED(err.status), "class %d: no failure status", bad[i]);
        cr_assert(err.status & NAV_E_PARAM, "class %d: not a parameter error", bad[i]);
        cr_assert(err.message[0], "class %d: no message", bad[i]);
    }
    /* and without an error value */
    cr_assert_null(area_compile(w, -1, NULL, NULL));
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 5b. portals an elevator makes ======= */

/* The tower's lift joins four storeys that doorways alone keep in separate
** clusters at this limit; its stops must become portals (or the clusters
** merge), never a link across clusters without one. */
Test(area, lift_stops_become_portals)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile_desc(w, &(NavAreaDesc){ .max_cluster_areas = 32 }, true);
    check_invariants(ag, "tower");
    uint32_t lift = 0, at_portal = 0;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (r->type != NAV_TRAVEL_ELEVATOR) continue;
        lift++;
        at_portal += ((area_get(ag, r->from)->flags | area_get(ag, r->to)->flags) & NAV_AREA_PORTAL) != 0;
    }
    cr_assert_gt(lift, 0, "no lift links");
    cr_expect_gt(at_portal, 0, "no lift link starts or ends at a portal (%u clusters)", area_cluster_count(ag));
    for (uint32_t c = 1; c <= area_cluster_count(ag); c++)
        cr_expect_leq(area_cluster(ag, c)->area_count, 32u, "cluster %u has %u areas", c, area_cluster(ag, c)->area_count);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= 6. the picture ======= */

static NavColor pixel(const NavImage *img, float x, float y)
{
    int px = (int)x, py = (int)y;
    const uint8_t *p = img->pixels + ((size_t)py * (size_t)img->width + (size_t)px) * 4;
    return nav_rgba(p[0], p[1], p[2], p[3]);
}

static bool same_color(NavColor a, NavColor b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

Test(area, picture_shows_every_link_type_and_the_portals)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile_desc(w, &(NavAreaDesc){ .max_cluster_areas = 24 }, true);
    NavError err;
    int scale = 0;
    NavImage *img = area_draw(ag, 1024, &scale, &err);
    cr_assert_not_null(img, "%s", err.message);
    cr_assert_eq(img->width, world_width(w) * scale);
    cr_assert_eq(img->height, world_height(w) * scale);
    float ppm = (float)scale / world_cell_size(w);

    /* Every travel type on the map shows its colour where one of its links
    ** lands (later links may cover some dots, never all of a type's). */
    bool present[NAV_TRAVEL_COUNT] = { false }, shown[NAV_TRAVEL_COUNT] = { false };
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (r->type == NAV_TRAVEL_WALK) continue;
        present[r->type] = true;
        NavColor c = pixel(img, r->end[0] * ppm, (float)img->height - r->end[1] * ppm);
        if (same_color(c, area_travel_color((NavTravelType)r->type))) shown[r->type] = true;
    }
    for (int t = 1; t < NAV_TRAVEL_COUNT; t++)
        if (present[t]) cr_expect(shown[t], "no %s link is visible in the picture", area_travel_name((NavTravelType)t));

    /* Portal areas are amber at some cell no link crosses; areas of two
    ** different clusters have different tints. */
    cr_assert_gt(area_portal_count(ag), 0, "gauntlet at a limit of 24 has no portals");
    uint32_t amber = 0;
    for (uint32_t p = 0; p < area_portal_count(ag); p++) {
        const NavArea *a = area_get(ag, area_portal(ag, p)->area);
        float cx = ((float)a->x0 + 0.25f) * (float)scale, cy = (float)img->height - ((float)a->y0 + 0.25f) * (float)scale;
        NavColor c = pixel(img, cx, cy - 1);
        amber += c.r == 250 && c.g == 185 && c.b == 40;
    }
    cr_expect_gt(amber, 0, "no portal area is drawn amber");
    image_destroy(img);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= teleporters into rooms with no links of their own ======= */

/* tests/scenarios/maps/relay.lua: four sealed rooms, each one area with no
** walk link out, joined only by teleporters. Every pad links its room to
** the room its destination stands in, though that room has no link yet
** when the pad's link is made (nor, for the last, ever a walk link). */
Test(area, teleporters_link_into_rooms_without_links)
{
    NavWorld *w = test_load_map("tests/scenarios/maps/relay.lua");
    NavAreaGraph *ag = compile(w, true);
    int teleports = 0;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        cr_assert_eq(r->type, NAV_TRAVEL_TELEPORT, "a %s link between sealed rooms", area_travel_name(r->type));
        const NavEntity *e = world_entity(w, r->entity);
        cr_assert_eq(r->to, area_point_area(ag, e->u.teleporter.dest[0], e->u.teleporter.dest[1], e->u.teleporter.dest[2]),
                     "%s does not land in the area of its destination", e->name);
        teleports++;
    }
    cr_assert_eq(teleports, 4, "%d teleport links, not one per pad", teleports);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* No walk off a ledge or gap jump lands in an elevator's shaft: the
** platform may be anywhere in it (a runner dropped in after a lift that
** had left, and rode it back up). Riding down is the elevator's link. */
Test(area, no_drop_lands_in_a_lift_shaft)
{
    const char *maps[] = { "maps/gauntlet.lua", "maps/tower.lua" };
    for (size_t m = 0; m < NAV_ARRAY_COUNT(maps); m++) {
        NavWorld *w = test_load_map(maps[m]);
        NavAreaGraph *ag = compile(w, true);
        int shafts = 0;
        for (int e = 0; e < world_entity_count(w); e++) {
            const NavEntity *en = world_entity(w, e);
            if (en->type != NAV_ENTITY_ELEVATOR) continue;
            shafts++;
            for (uint32_t i = 0; i < area_reach_count(ag); i++) {
                const NavReach *r = area_reach(ag, i);
                if (r->type != NAV_TRAVEL_WALK_OFF_LEDGE) continue;
                bool inside = r->end[0] > en->mins[0] && r->end[0] < en->maxs[0] && r->end[1] > en->mins[1] &&
                              r->end[1] < en->maxs[1];
                cr_assert(!inside, "%s: walk_off_ledge link %u (%u->%u) lands in the shaft of '%s' at (%.2f, %.2f, %.2f)",
                          maps[m], i, r->from, r->to, en->name, r->end[0], r->end[1], r->end[2]);
            }
        }
        cr_assert_gt(shafts, 0, "%s has no elevator", maps[m]);
        area_destroy(ag);
        world_destroy(w);
    }
}

/*
** test_area_sampling.c — the area graph sampled (points, nearest areas,
** boxes, traces along the floor), compiled twice alike, bad classes, lift
** portals, teleporters into sealed rooms (helpers in area_support.h).
*/
#include "core/alloc.h"
#include "area_support.h"

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
                    cr_assert_eq(got, want_a,
                                 "%s: 0.1 m above floor %d (z %.2f) of cell (%d, %d): area %u, its area is %u", maps[m],
                                 i, standing(&f[i]), cx, cy, got, want_a);
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
    struct {
        int col, row;
    } walls[] = { { 0, 10 }, { 17, 4 }, { 17, 14 } };
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
    /* Points and radii far past int's range of cells, infinite or NaN:
    ** no area, never a conversion out of range. */
    cr_assert_eq(area_nearest_area(ag, -3e38f, -3e38f, 0.0f, 2.0f, out), NAV_NO_AREA);
    cr_assert_eq(area_nearest_area(ag, -INFINITY, 1.0f, 0.0f, 2.0f, out), NAV_NO_AREA);
    cr_assert_eq(area_nearest_area(ag, NAN, NAN, 0.0f, 2.0f, out), NAV_NO_AREA);
    /* A radius that takes in the whole map from far away: the box is
    ** clamped to the map, and some area is the nearest. */
    cr_assert_neq(area_nearest_area(ag, 1e30f, 1e30f, 0.0f, 1e30f, out), NAV_NO_AREA);
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
    NavFloorAt *items = nav_calloc(60 * 14, sizeof *items);
    size_t n = 0;
    for (int cy = 1; cy < 13; cy++)
        for (int cx = 1; cx < 59; cx++) {
            bool pocket = cx >= 1 && cx <= 6 && cy >= 4 && cy <= 9;
            bool room = cx >= 12 && cx <= 58;
            if (!pocket && !room) continue;
            items[n++] = (NavFloorAt){
                .cell = (uint32_t)(cy * 60 + cx),
                .floor = { .z = 0.0f, .ceiling = INFINITY, .top = 0.0f, .contents = NAV_CONTENTS_FLOOR }
            };
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    nav_free(items);
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
    uint32_t *out = nav_malloc((n + 8) * sizeof *out);
    float cs = world_cell_size(w);
    float lo[3] = { -1.0f, -1.0f, -100.0f }, hi[3] = { world_width(w) * cs + 1, world_height(w) * cs + 1, 100.0f };
    int got = area_box_areas(ag, lo, hi, out, (int)n + 8);
    cr_assert_eq(got, (int)n, "a box over the whole map holds %d areas of %u", got, n);
    uint8_t *seen = nav_calloc(n, 1);
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
        if (a->zmin <= 4.0f && a->zmax >= 4.0f)
            cr_assert(seen[i], "area %u at z %.2f-%.2f is missing", i, a->zmin, a->zmax);
    }
    nav_free(seen);
    nav_free(out);
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
    int n = area_trace(ag, from, to, stop, hits, cap, done, NULL);
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
        cr_assert_not(area_get(ag, hits[i].area)->flags & stop,
                      "%s: the trace went on past area %u, which has a stop flag", what, hits[i].area);
    if (*done) {
        cr_assert_eq(hits[n - 1].area, area_point_area(ag, to[0], to[1], to[2]),
                     "%s: done, but the last area is not the end's", what);
    }
    return n;
}

/* Re-traces with the first flag that a later area of the first trace
** gains: the trace must stop right there. */
static void check_trace_stops(const NavAreaGraph *ag, const float from[3], const float to[3],
                              const NavAreaTraceHit *full, int n, uint32_t flag, const char *what)
{
    int k = -1;
    for (int i = 1; i < n && k < 0; i++)
        if (area_get(ag, full[i].area)->flags & flag) k = i;
    cr_assert_geq(k, 1, "%s: the trace never enters an area with flag 0x%x", what, flag);
    NavAreaTraceHit hits[256];
    bool done;
    int m = check_trace(ag, from, to, flag, hits, 256, &done, what);
    cr_assert_eq(m, k + 1, "%s: with stop flag 0x%x the trace has %d hits, it should stop at hit %d (area %u)", what,
                 flag, m, k, full[k].area);
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
    cr_assert_eq(area_trace(ag, a, south, 0, &one, 1, &d1, NULL), n);
    cr_assert_eq(one.area, hits[0].area);
    /* Toward a point 1e20 m away (its step count was converted to int out
    ** of range), or at an infinite distance: the walk leaves by the south
    ** wall, not done, having crossed at least the areas of the trace to
    ** the south wall's foot; the infinite one does not walk. */
    float far[3] = { a[0], -1e20f, 0.0f }, inf[3] = { a[0], -INFINITY, 0.0f };
    int nf = area_trace(ag, a, far, 0, hits, 256, &done, NULL);
    cr_assert_not(done);
    cr_assert_geq(nf, n, "toward 1e20 m: %d areas, toward the south wall: %d", nf, n);
    cr_assert_eq(hits[0].area, one.area);
    cr_assert_eq(area_trace(ag, a, inf, 0, hits, 256, &done, NULL), 1);
    cr_assert_not(done);
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
    cr_assert_null(area_build(w, -1, NULL, NULL));
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
        cr_expect_leq(area_cluster(ag, c)->area_count, 32u, "cluster %u has %u areas", c,
                      area_cluster(ag, c)->area_count);
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
        cr_assert_eq(r->to,
                     area_point_area(ag, e->u.teleporter.dest[0], e->u.teleporter.dest[1], e->u.teleporter.dest[2]),
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
                cr_assert(!inside,
                          "%s: walk_off_ledge link %u (%u->%u) lands in the shaft of '%s' at (%.2f, %.2f, %.2f)",
                          maps[m], i, r->from, r->to, en->name, r->end[0], r->end[1], r->end[2]);
            }
        }
        cr_assert_gt(shafts, 0, "%s has no elevator", maps[m]);
        area_destroy(ag);
        world_destroy(w);
    }
}

/* valley: a lane one cell wide between woods falls a metre over ten cells
** inside one area. The trace follows the floor's height cell by cell, so
** it ends on the floor at the far end (not at the height it came into the
** area at) and reports that height. */
Test(area, trace_follows_a_slope_inside_an_area)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavAreaGraph *ag = compile(w, true);
    float from[3] = { 59.5f, 233.5f, 1.75f }, to[3] = { 68.5f, 233.5f, 0.75f };
    int cx, cy, n;
    cr_assert(world_point_cell(w, to[0], to[1], &cx, &cy));
    const NavFloor *f = world_column(w, cx, cy, &n);
    cr_assert_geq(n, 1);
    float floor_end = world_standing_height(&f[n - 1]);
    cr_assert_gt(from[2] - floor_end, area_class(ag)->step, "the lane falls more than a step: %.2f to %.2f",
                 (double)from[2], (double)floor_end);
    NavAreaTraceHit hits[64];
    bool done;
    float end_z = -1.0f;
    n = area_trace(ag, from, to, 0, hits, 64, &done, &end_z);
    cr_assert(done, "the lane stops the trace after %d areas", n);
    cr_assert_float_eq(end_z, floor_end, 1e-3f, "the trace ends at height %.2f, the floor there is at %.2f",
                       (double)end_z, (double)floor_end);
    /* Up the same lane: the end is the start's floor. */
    n = area_trace(ag, to, from, 0, hits, 64, &done, &end_z);
    cr_assert(done);
    cr_assert_float_eq(end_z, from[2], 1e-3f);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

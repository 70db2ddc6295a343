/*
** test_area.c — the area graph: every travel type where the maps put it,
** convex areas (brute force), cluster and portal invariants, entity links
** added and removed, sampling, determinism and bad arguments.
**
** Expected places come from the bundled maps' header comments (cells
** "cols a-b, rows c-d", row 0 the north edge), never from the compiler's
** own output. valley (256 x 256) is compiled twice in the whole file.
*/
#include "core/alloc.h"
#include "area_support.h"

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
    uint8_t *seen = nav_calloc(n, 1);
    uint32_t *queue = nav_malloc(n * sizeof *queue);
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
    nav_free(seen);
    nav_free(queue);

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

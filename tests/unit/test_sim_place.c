/*
** test_sim_place.c — buildings in a running simulation (sim.h,
** "buildings"): a foundation laid on a crowd moves every bot but the
** builder off it, onto passable cells, clear of each other; a lone bot
** goes to the nearest free spot (checked against a fine lattice of every
** spot round the foundation); teleports and spawns refuse occupied
** places; spawn points keep off standing bots; the placement text names
** the sim's obstacle.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "sim/sim.h"
#include "test_support.h"

/* 40 x 40 m of 0.5 m cells, flat at 0, with a wall of solid cells
** (x 23 to 24 m, y 18 to 22 m) east of where foundations go. */
static NavWorld *yard(void)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = world_create(&(NavWorldDesc){ .width = 80, .height = 80, .cell_size = 0.5f, .name = "yard" }, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavFloorAt *items = calloc(80 * 80, sizeof *items);
    size_t n = 0;
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 80; x++) {
            if (x >= 46 && x < 48 && y >= 36 && y < 44) continue;
            items[n++] = (NavFloorAt){ .cell = (uint32_t)(y * 80 + x), .floor = { .ceiling = INFINITY } };
        }
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, n, &err)), "%s", err.message);
    free(items);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, NULL, &err)), "%s", err.message);
    return w;
}

static NavSim *make_sim(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 4 }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    return sim;
}

static uint32_t add_bot(NavSim *sim, float x, float y)
{
    NavError err;
    nav_error_clear(&err);
    int id = sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { x, y, 0 } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    return (uint32_t)id;
}

/* Bodies (squares of half r) overlapping, beyond rounding. */
static bool bodies_overlap(const NavBot *a, const NavBot *b, float r)
{
    return fabsf(a->pos[0] - b->pos[0]) < 2 * r - 1e-4f && fabsf(a->pos[1] - b->pos[1]) < 2 * r - 1e-4f;
}

static void assert_no_overlap(const NavSim *sim, float r)
{
    for (uint32_t i = 0; i < sim_bot_count(sim); i++)
        for (uint32_t j = i + 1; j < sim_bot_count(sim); j++)
            cr_assert(!bodies_overlap(sim_bot(sim, i), sim_bot(sim, j), r), "bots %u and %u overlap", i, j);
}

/* A body (square of half r) overlapping the box [cx -+ hw, cy -+ hh]. */
static bool on_box(const float p[3], float r, float cx, float cy, float hw, float hh)
{
    return fabsf(p[0] - cx) < hw + r - 1e-4f && fabsf(p[1] - cy) < hh + r - 1e-4f;
}

Test(sim_place, foundation_clears_a_crowd_but_the_builder)
{
    NavWorld *w = yard();
    NavSim *sim = make_sim(w);
    float r = world_class(w, 0)->radius;
    /* 49 bots 0.9 m apart round (15, 20); a foundation 5 x 4 m there. */
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 7; i++) add_bot(sim, 15.0f + 0.9f * (float)(i - 3), 20.0f + 0.9f * (float)(j - 3));
    uint32_t builder = 24; /* the middle one */
    GridShape fp = { .x = 15.0f, .y = 20.0f, .hw = 2.5f, .hh = 2.0f };
    uint32_t n = sim_bot_count(sim);
    float *before = malloc(3 * n * sizeof *before);
    bool *in_way = calloc(n, sizeof *in_way);
    int expected = 0;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(&before[3 * i], sim_bot(sim, i)->pos, 3 * sizeof(float));
        in_way[i] = on_box(sim_bot(sim, i)->pos, r, fp.x, fp.y, fp.hw, fp.hh);
        expected += in_way[i] && i != builder;
    }
    cr_assert_gt(expected, 20);
    NavError err;
    nav_error_clear(&err);
    SimFoundation f;
    cr_assert(NAV_SUCCEEDED(sim_place_foundation(sim, &fp, 3.0f, (int)builder, &f, &err)), "%s", err.message);
    cr_assert_neq(f.obstacle, 0u);
    cr_assert_eq(f.moved, expected, "moved %d of the %d in the way", f.moved, expected);
    cr_assert_eq(f.stranded, 0);
    NavGrid *g = sim_grid(sim, &err);
    float pad = r + GRID_SPAWN_PAD;
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        if (i == builder || !in_way[i]) {
            cr_assert_eq(memcmp(b->pos, &before[3 * i], 3 * sizeof(float)), 0, "bot %u moved", i);
            continue;
        }
        cr_assert(!on_box(b->pos, pad, fp.x, fp.y, fp.hw, fp.hh), "bot %u at (%g, %g) is still in the way", i,
                  (double)b->pos[0], (double)b->pos[1]);
        int cx, cy;
        cr_assert(grid_cell_of(g, b->pos[0], b->pos[1], &cx, &cy) && grid_passable(g, 0, cx, cy),
                  "bot %u on a blocked cell", i);
        cr_assert_float_eq(b->vel[0], 0.0f, 0.0f);
    }
    assert_no_overlap(sim, r);
    /* The footprint is an obstacle for the grid and the bodies: after a
    ** while of physics nobody is inside it and nobody overlaps. */
    cr_assert(!sim_grid_passable(sim, 0, 15.0f, 21.5f));
    for (int t = 0; t < 30; t++) {
        for (uint32_t i = 0; i < n; i++)
            if (i != builder) sim_bot_control(sim, i)->move[0] = (i % 2) ? 0.5f : -0.5f;
        sim_step(sim);
    }
    assert_no_overlap(sim, r);
    for (uint32_t i = 0; i < n; i++)
        if (i != builder) cr_assert(!on_box(sim_bot(sim, i)->pos, r, fp.x, fp.y, fp.hw, fp.hh), "bot %u got in", i);
    cr_assert(sim_remove_obstacle(sim, f.obstacle));
    cr_assert(sim_grid_passable(sim, 0, 15.0f, 21.5f));
    free(before);
    free(in_way);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim_place, without_a_builder_everyone_moves_and_runs_repeat)
{
    NavWorld *w = yard();
    float got[2][3 * 25];
    for (int run = 0; run < 2; run++) {
        NavSim *sim = make_sim(w);
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 5; i++) add_bot(sim, 10.0f + 0.85f * (float)i, 10.0f + 0.85f * (float)j);
        GridShape fp = { .x = 11.7f, .y = 11.7f, .hw = 1.5f, .hh = 1.0f, .angle = 0.6f };
        NavError err;
        nav_error_clear(&err);
        SimFoundation f;
        cr_assert(NAV_SUCCEEDED(sim_place_foundation(sim, &fp, 2.0f, -1, &f, &err)), "%s", err.message);
        cr_assert_eq(f.moved + f.stranded, 25, "a rotated footprint's box covers the whole crowd");
        cr_assert_eq(f.stranded, 0);
        assert_no_overlap(sim, world_class(w, 0)->radius);
        for (int i = 0; i < 25; i++) memcpy(&got[run][3 * i], sim_bot(sim, (uint32_t)i)->pos, 3 * sizeof(float));
        sim_destroy(sim);
    }
    cr_assert_eq(memcmp(got[0], got[1], sizeof got[0]), 0, "the same foundation moved the bots differently");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim_place, a_lone_bot_goes_to_the_nearest_free_spot)
{
    NavWorld *w = yard();
    float r = world_class(w, 0)->radius, grow = r + GRID_SPAWN_PAD;
    /* Foundations whose east side lies against the wall (x 23 to 24 m) or
    ** near it, bots at several places inside. */
    const float cases[][6] = {
        { 21.0f, 20.0f, 22.4f, 20.3f, 0, 0 }, /* east blocked by the wall: north or south */
        { 21.0f, 20.0f, 21.2f, 19.0f, 0, 0 },         { 15.0f, 15.0f, 16.1f, 15.4f, 0, 0 }, /* open: straight east */
        { 15.0f, 15.0f, 14.0f, 13.6f, 0, 0 },                                               /* open: straight south */
        { 15.0f, 15.0f, 16.1f, 15.4f, 17.2f, 15.4f }, /* east, where another bot stands */
        { 15.0f, 15.0f, 14.0f, 13.6f, 14.0f, 12.7f }, /* south, likewise */
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(cases); k++) {
        NavSim *sim = make_sim(w);
        uint32_t id = add_bot(sim, cases[k][2], cases[k][3]);
        if (cases[k][4] > 0) add_bot(sim, cases[k][4], cases[k][5]);
        GridShape fp = { .x = cases[k][0], .y = cases[k][1], .hw = 1.5f, .hh = 1.5f };
        NavError err;
        nav_error_clear(&err);
        SimFoundation f;
        cr_assert(NAV_SUCCEEDED(sim_place_foundation(sim, &fp, 3.0f, -1, &f, &err)), "%s", err.message);
        cr_assert_eq(f.moved, 1, "case %zu", k);
        const NavBot *b = sim_bot(sim, id);
        float d = hypotf(b->pos[0] - cases[k][2], b->pos[1] - cases[k][3]);
        /* The oracle: every spot of a 5 cm lattice round the foundation
        ** outside the grown box where the body fits on a passable cell. */
        NavGrid *g = sim_grid(sim, &err);
        float best = INFINITY;
        for (float y = fp.y - 8; y <= fp.y + 8; y += 0.05f)
            for (float x = fp.x - 8; x <= fp.x + 8; x += 0.05f) {
                if (fabsf(x - fp.x) < fp.hw + grow && fabsf(y - fp.y) < fp.hh + grow) continue;
                float dd = hypotf(x - cases[k][2], y - cases[k][3]);
                if (dd >= best) continue;
                int cx, cy;
                if (!grid_cell_of(g, x, y, &cx, &cy) || !grid_passable(g, 0, cx, cy)) continue;
                float mins[3] = { -r, -r, 0 }, maxs[3] = { r, r, 1.8f }, p[3] = { x, y, 0.01f }, zero[3] = { 0 };
                NavTrace tr;
                sim_trace(sim, mins, maxs, p, zero, (int)id, &tr);
                if (!tr.start_solid) best = dd;
            }
        cr_assert(isfinite(best));
        /* Ring points lie a quarter metre apart: that far off at most. */
        cr_assert(d <= best + 0.2f, "case %zu: moved %.3f m, a free spot %.3f m away", k, (double)d, (double)best);
        cr_assert(d >= best - 0.06f, "case %zu: moved %.3f m, nearer than any free spot (%.3f m)", k, (double)d,
                  (double)best);
        sim_destroy(sim);
    }
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim_place, teleport_and_spawn_refuse_occupied_places)
{
    NavWorld *w = yard();
    NavSim *sim = make_sim(w);
    uint32_t a = add_bot(sim, 5, 5), b = add_bot(sim, 30, 30);
    float into_wall[3] = { 23.5f, 20.0f, 0 }, onto_a[3] = { 5.5f, 5.0f, 0 }, off_map[3] = { -3, 5, 0 };
    cr_assert(!sim_bot_teleport(sim, b, into_wall));
    cr_assert(!sim_bot_teleport(sim, b, onto_a));
    cr_assert(!sim_bot_teleport(sim, b, off_map));
    cr_assert(!sim_bot_teleport(sim, 99, onto_a));
    cr_assert_float_eq(sim_bot(sim, b)->pos[0], 30.0f, 0.0f);
    /* Moved near a: traces see it there, and no longer where it was. */
    float near_a[3] = { 6.0f, 5.0f, 0 };
    cr_assert(sim_bot_teleport(sim, b, near_a));
    cr_assert_float_eq(sim_bot(sim, b)->pos[0], 6.0f, 0.0f);
    float mins[3] = { -0.1f, -0.1f, 0.5f }, maxs[3] = { 0.1f, 0.1f, 0.6f }, zero[3] = { 0 };
    NavTrace tr;
    sim_trace(sim, mins, maxs, (float[3]){ 6.0f, 5.0f, 0 }, zero, (int)a, &tr);
    cr_assert(tr.start_solid, "the moved body is not where it went");
    sim_trace(sim, mins, maxs, (float[3]){ 30.0f, 30.0f, 0 }, zero, -1, &tr);
    cr_assert(!tr.start_solid, "the moved body is still where it was");
    /* Spawning onto a bot is refused, beside it is fine. */
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(sim_spawn_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { 5.3f, 5.2f, 0 } }, &err), -1);
    cr_assert_str_eq(err.field, "pos");
    cr_assert_eq(sim_bot_count(sim), 2u);
    cr_assert_eq(sim_spawn_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { 5.0f, 6.0f, 0 } }, &err), 2, "%s", err.message);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim_place, spawn_points_keep_off_standing_bots)
{
    NavWorld *w = yard();
    NavSim *sim = make_sim(w);
    float r = world_class(w, 0)->radius, half = r + GRID_SPAWN_PAD;
    GridShape fp = { .x = 10, .y = 30, .hw = 2, .hh = 1.5f, .angle = 0.3f };
    for (int i = 0; i < 12; i++) add_bot(sim, 7.0f + 0.9f * (float)i, 27.4f);
    float pts[2 * 80];
    NavError err;
    nav_error_clear(&err);
    int got = sim_spawn_points(sim, 0, &fp, (float[2]){ 10, 20 }, 0, pts, 80, &err);
    cr_assert_eq(got, 80, "%d: %s", got, err.message);
    for (int i = 0; i < got; i++) {
        for (uint32_t k = 0; k < sim_bot_count(sim); k++) {
            const NavBot *b = sim_bot(sim, k);
            cr_assert(fabsf(pts[2 * i] - b->pos[0]) >= 2 * half - 1e-4f ||
                          fabsf(pts[2 * i + 1] - b->pos[1]) >= 2 * half - 1e-4f,
                      "point %d on bot %u", i, k);
        }
        /* And each one takes a bot. */
        cr_assert_geq(sim_spawn_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { pts[2 * i], pts[2 * i + 1], 0 } }, &err), 0,
                      "point %d: %s", i, err.message);
    }
    assert_no_overlap(sim, r);
    cr_assert_eq(sim_spawn_points(sim, 5, &fp, NULL, 0, pts, 4, &err), -1);
    cr_assert_str_eq(err.field, "class");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim_place, check_names_the_obstacle)
{
    NavWorld *w = yard();
    NavSim *sim = make_sim(w);
    NavError err;
    nav_error_clear(&err);
    SimFoundation f;
    GridShape a = { .x = 10, .y = 10, .hw = 2, .hh = 2 };
    cr_assert(NAV_SUCCEEDED(sim_place_foundation(sim, &a, 3.0f, -1, &f, &err)));
    GridPlaceRules rules = GRID_PLACE_RULES_DEFAULT;
    rules.spacing = 3;
    GridPlaceResult res;
    char text[GRID_PLACE_TEXT_MAX];
    GridShape b = { .x = 15, .y = 10, .hw = 2, .hh = 2 };
    cr_assert(NAV_SUCCEEDED(sim_place_check(sim, &b, &rules, &res, text, sizeof text, &err)));
    char want[GRID_PLACE_TEXT_MAX];
    snprintf(want, sizeof want, "1 m from obstacle %u at (13, 8), at least 3 needed", f.obstacle);
    cr_assert_str_eq(text, want);
    b.x = 17;
    cr_assert(NAV_SUCCEEDED(sim_place_check(sim, &b, &rules, &res, text, sizeof text, &err)));
    cr_assert_str_eq(text, "placeable");
    cr_assert(NAV_FAILED(sim_place_foundation(sim, &b, 0.0f, -1, &f, &err)));
    cr_assert_str_eq(err.field, "height");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

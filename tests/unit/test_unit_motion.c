/*
** test_unit_motion.c — unit motion and formations (sim/sim_unit.h:
** sim_unit.c, sim_formation.c) and their Lua functions (nav_api_unit.c).
**
** Each test has a check of its own, worked out here and not by the code
** under test: the straight line on open ground, every pair of bodies'
** boxes every tick, the nearest passable cell by looking at every cell,
** the circle's edge, the travel direction, the ground's width at a gap,
** the trace hash of a second run. Maps are written in the test: fields of
** 1 m cells with walls where a test needs them. Nothing depends on timing.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "grid/grid.h"
#include "map/map.h"
#include "nav_api_support.h"
#include "sim/sim_unit.h"

/* {======= fields, units, ticks ======= */

typedef bool (*BlockedFn)(int x, int y);

static bool open_ground(int x, int y)
{
    (void)x, (void)y;
    return false;
}

/* A w x h field of 1 m cells, blocked where `blocked` says; one class,
** infantry, a 0.8 m box (radius 0.4) at 6 m/s. */
static Fixture setup_field(int w, int h, BlockedFn blocked)
{
    size_t cap = (size_t)(w + 1) * (size_t)h + 1;
    char *rows = malloc(cap);
    cr_assert_not_null(rows);
    size_t n = 0;
    for (int r = 0; r < h; r++) {
        int y = h - 1 - r;
        for (int x = 0; x < w; x++) rows[n++] = blocked(x, y) ? '#' : '.';
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    size_t src_cap = cap + 512;
    char *src = malloc(src_cap);
    cr_assert_not_null(src);
    snprintf(src, src_cap,
             "return { cell_size = 1, layers = { { z = 0, rows = [[\n%s]] } },\n"
             "  classes = { { name = 'infantry', radius = 0.4, run_speed = 6 } } }\n",
             rows);
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = map_load_buffer(src, strlen(src), "field.lua", NULL, &err);
    cr_assert_not_null(f.w, "%s", err.message);
    free(rows);
    free(src);
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 7 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb, "%s", err.message);
    nav_api_open(sandbox_state(f.sb), f.sim);
    return f;
}

static uint32_t add_unit(Fixture *f, float x, float y)
{
    NavError err;
    nav_error_clear(&err);
    int cls = world_find_class(f->w, "infantry");
    cr_assert_geq(cls, 0);
    int id = sim_add_bot(f->sim, &(NavBotDesc){ .cls = cls, .pos = { x, y, 0.0f } }, &err);
    cr_assert_geq(id, 0, "(%g, %g): %s", (double)x, (double)y, err.message);
    return (uint32_t)id;
}

static void order(Fixture *f, uint32_t id, float x, float y)
{
    NavError err;
    nav_error_clear(&err);
    GridGoal g = grid_goal_point(x, y);
    cr_assert(sim_unit_move(f->sim, id, &g, &err), "unit %u: %s", id, err.message);
}

static NavUnitStatus unit_status(const Fixture *f, uint32_t id)
{
    NavUnitInfo in;
    sim_unit_info(f->sim, id, &in);
    return in.status;
}

static bool boxes_overlap(const NavSim *sim, const NavBot *a, const NavBot *b)
{
    float alo[3], ahi[3], blo[3], bhi[3];
    sim_bot_box(sim, a, alo, ahi);
    sim_bot_box(sim, b, blo, bhi);
    const float eps = 1e-3f;
    for (int k = 0; k < 3; k++)
        if (a->pos[k] + ahi[k] <= b->pos[k] + blo[k] + eps || b->pos[k] + bhi[k] <= a->pos[k] + alo[k] + eps)
            return false;
    return true;
}

/* No two bodies overlap: every pair. */
static void check_apart(const Fixture *f, int tick)
{
    uint32_t n = sim_bot_count(f->sim);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            const NavBot *a = sim_bot(f->sim, i), *b = sim_bot(f->sim, j);
            cr_assert_not(boxes_overlap(f->sim, a, b),
                          "tick %d: units %u and %u overlap at (%.3f, %.3f) and (%.3f, %.3f)", tick, i, j,
                          (double)a->pos[0], (double)a->pos[1], (double)b->pos[0], (double)b->pos[1]);
        }
}

static float dist_to(const NavBot *b, float x, float y) { return hypotf(b->pos[0] - x, b->pos[1] - y); }

/* Degrees between two headings, 0..180. */
static float angle_between(float a, float b)
{
    float d = fmodf(fabsf(a - b), 360.0f);
    return d > 180.0f ? 360.0f - d : d;
}

/* }======= */

/* {======= one unit ======= */

/* Open ground: the long path is the straight line, planned once, and the
** unit stops within UNIT_POINT_REACH of the point. */
Test(unit_motion, a_lone_unit_on_open_ground_arrives_by_one_long_path)
{
    Fixture f = setup_field(60, 40, open_ground);
    uint32_t id = add_unit(&f, 5.5f, 8.5f);
    const float gx = 52.3f, gy = 31.7f;
    cr_assert_str_eq(run(&f, "local s, doing = nav.bot(0):unit() return s .. ' ' .. doing"), "none ");
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):unit_info())"), "nil");
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):move_unit(52.3, 31.7))"), "true");
    const NavBot *b = sim_bot(f.sim, id);
    float straight = dist_to(b, gx, gy);
    int t = 0;
    for (; t < 30 * 30 && unit_status(&f, id) == NAV_UNIT_MOVING; t++) sim_step(f.sim);
    NavUnitInfo in;
    sim_unit_info(f.sim, id, &in);
    cr_assert_eq(in.status, NAV_UNIT_ARRIVED, "after %d ticks: %s, at (%.2f, %.2f)", t, in.doing, (double)b->pos[0],
                 (double)b->pos[1]);
    cr_assert_leq(dist_to(b, gx, gy), UNIT_POINT_REACH, "stopped %.3f m off", (double)dist_to(b, gx, gy));
    cr_assert_eq(in.plans, 1u, "one long path, not %u", in.plans);
    cr_assert_eq(in.detours, 0u);
    NavUnitStats st;
    sim_unit_stats(f.sim, &st);
    cr_assert_eq(st.plans, 1u);
    cr_assert_eq(st.detours + st.detour_fails + st.replans, 0u);
    /* The way walked is the straight line, give or take the stop; at its
    ** run speed, 6 m/s, with a second to start and stop. */
    cr_assert_leq(b->distance, straight + 0.6, "walked %.2f m of a %.2f m line", b->distance, (double)straight);
    cr_assert_leq((float)t / 30.0f, straight / 6.0f + 1.0f, "%d ticks for %.1f m", t, (double)straight);
    /* Lua reads the same. */
    cr_assert_str_eq(run(&f, "local s, doing = nav.bot(0):unit() return s .. ' ' .. doing"), "arrived arrived");
    cr_assert_str_eq(run(&f, "local i = nav.bot(0):unit_info()\n"
                             "return string.format('%s %d %d %g %g', i.status, i.plans, i.detours, i.x, i.y)"),
                     "arrived 1 0 52.3 31.7");
    cr_assert_str_eq(run(&f, "return tostring(nav.unit_stats().plans)"), "1");
    /* stop_unit drops the order. */
    run(&f, "nav.bot(0):stop_unit() return 0");
    cr_assert_eq(unit_status(&f, id), NAV_UNIT_NONE);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= crowds ======= */

/* A wall across the field at x 29-30 with a gap at y 13-16 (4 m). */
static bool wall_with_gap(int x, int y) { return (x == 29 || x == 30) && !(y >= 13 && y <= 16); }

/* Two groups of 32 swap sides through the gap: each unit ordered to the
** mirror of its place on the other side. Every pair of bodies is looked at
** every tick; most units get there. */
static int swap_through_gap(Fixture *f, bool avoid, int ticks, bool check)
{
    enum { PER_SIDE = 32 };
    float goal[2 * PER_SIDE][2];
    int n = 0;
    for (int side = 0; side < 2; side++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 8; c++) {
                float x = 8.5f + 2.0f * (float)c, y = 8.5f + 4.0f * (float)r;
                if (side) x = 59.0f - x;
                uint32_t id = add_unit(f, x, y);
                cr_assert_eq(id, (uint32_t)n);
                goal[n][0] = 59.0f - x, goal[n][1] = y;
                n++;
            }
    for (int i = 0; i < n; i++) {
        if (avoid) cr_assert(sim_bot_set_avoid(f->sim, (uint32_t)i, &(NavAvoidDesc){ .on = true }));
        order(f, (uint32_t)i, goal[i][0], goal[i][1]);
    }
    for (int t = 0; t < ticks; t++) {
        sim_step(f->sim);
        if (check) check_apart(f, t);
    }
    int arrived = 0;
    for (int i = 0; i < n; i++)
        if (unit_status(f, (uint32_t)i) == NAV_UNIT_ARRIVED &&
            dist_to(sim_bot(f->sim, (uint32_t)i), goal[i][0], goal[i][1]) <= 2.0f)
            arrived++;
    return arrived;
}

/* With reciprocal avoidance on, as bots/rts.lua gives its units. */
/* A wall across x = 15 with a lane one cell wide at y = 10 and a gap five
** cells wide further up (at y 16-20 in a short field, y 55-59 in a tall
** one). */
static bool lane_and_near_gap(int x, int y) { return x == 15 && y != 10 && !(y >= 16 && y <= 20); }
static bool lane_and_far_gap(int x, int y) { return x == 15 && y != 10 && !(y >= 55 && y <= 59); }

/* Where the unit sent from (5.5, 10.5) to (25.5, 10.5) crosses the wall
** (its y as it passes x = 15.5), and that it arrived. */
static float crossing_y(Fixture *f, uint32_t id)
{
    order(f, id, 25.5f, 10.5f);
    const NavBot *b = sim_bot(f->sim, id);
    float y = -1.0f;
    for (int t = 0; t < 30 * 40 && unit_status(f, id) == NAV_UNIT_MOVING; t++) {
        float before = b->pos[0];
        sim_step(f->sim);
        if (before < 15.5f && b->pos[0] >= 15.5f) y = b->pos[1];
    }
    cr_assert_eq(unit_status(f, id), NAV_UNIT_ARRIVED, "at (%.2f, %.2f)", (double)b->pos[0], (double)b->pos[1]);
    return y;
}

/* A unit on its own takes a wide way over a lane one body wide when the
** wide way is not much longer (its class's roomy twin in the grid), and
** the lane when the wide way is far round. The twin's ground is the
** class's kept half a metre further from what blocks (here a ring more
** of cells: the lane is closed to it). */
Test(unit_motion, a_unit_takes_a_wide_way_over_a_one_body_lane_unless_far)
{
    Fixture f = setup_field(30, 24, lane_and_near_gap);
    uint32_t id = add_unit(&f, 5.5f, 10.5f);
    float y = crossing_y(&f, id);
    cr_assert_geq(y, 15.5f, "crossed the wall at y %.2f: by the lane, not the gap", (double)y);
    /* The twin in the grid: one per class, its cells a subset of the
    ** class's, the lane closed to it. */
    NavError err;
    nav_error_clear(&err);
    const NavGrid *g = sim_grid(f.sim, &err);
    cr_assert_not_null(g, "%s", err.message);
    int twin = grid_roomy_class(g, 0);
    cr_assert_geq(twin, grid_class_count(g), "the twin follows the world's classes");
    cr_assert_eq(grid_roomy_class(g, twin), -1, "a twin has no twin");
    for (int cy = 0; cy < grid_height(g); cy++)
        for (int cx = 0; cx < grid_width(g); cx++)
            cr_assert(!grid_passable(g, twin, cx, cy) || grid_passable(g, 0, cx, cy), "cell %d %d", cx, cy);
    cr_assert(grid_passable(g, 0, 15, 10) && !grid_passable(g, twin, 15, 10), "the lane: the class's, not the twin's");
    cr_assert(grid_passable(g, twin, 15, 18), "the gap's middle is the twin's");
    teardown(&f);

    f = setup_field(30, 64, lane_and_far_gap);
    id = add_unit(&f, 5.5f, 10.5f);
    y = crossing_y(&f, id);
    cr_assert(y > 9.5f && y < 11.5f, "crossed at y %.2f: went round by the far gap", (double)y);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A wall across x = 15 with two lanes one cell wide, at y = 10 and 14. */
static bool two_lanes(int x, int y) { return x == 15 && y != 10 && y != 14; }

/* Two units sent through the same lane one body wide from its two ends
** meet head on in it. Each alone would find the same way round by the
** other lane, meet there and do it again for ever (they did): the one
** with the higher id gives way while the other goes round. Both arrive,
** and neither is stuck long. */
Test(unit_motion, units_met_head_on_in_a_lane_one_goes_round_one_waits, .timeout = 600)
{
    Fixture f = setup_field(30, 24, two_lanes);
    uint32_t a = add_unit(&f, 5.5f, 10.5f), b = add_unit(&f, 25.5f, 10.5f);
    order(&f, a, 25.5f, 10.5f);
    order(&f, b, 5.5f, 10.5f);
    int t = 0;
    for (; t < 30 * 60 && (unit_status(&f, a) == NAV_UNIT_MOVING || unit_status(&f, b) == NAV_UNIT_MOVING); t++) {
        sim_step(f.sim);
        check_apart(&f, t);
    }
    cr_assert_eq(unit_status(&f, a), NAV_UNIT_ARRIVED, "unit a after %d ticks at (%.2f, %.2f)", t,
                 (double)sim_bot(f.sim, a)->pos[0], (double)sim_bot(f.sim, a)->pos[1]);
    cr_assert_eq(unit_status(&f, b), NAV_UNIT_ARRIVED, "unit b after %d ticks at (%.2f, %.2f)", t,
                 (double)sim_bot(f.sim, b)->pos[0], (double)sim_bot(f.sim, b)->pos[1]);
    float worst = fmaxf(sim_bot(f.sim, a)->stuck_max, sim_bot(f.sim, b)->stuck_max);
    cr_assert_leq(worst, 10.0f, "a stuck spell of %.1f s", (double)worst);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(unit_motion, sixty_four_units_swapping_sides_through_a_gap_never_overlap, .timeout = 600)
{
    Fixture f = setup_field(60, 30, wall_with_gap);
    int arrived = swap_through_gap(&f, true, 120 * 30, true);
    NavUnitStats st;
    sim_unit_stats(f.sim, &st);
    cr_log_info("%d of 64 arrived; plans %llu detours %llu fails %llu replans %llu blocked %llu", arrived,
                (unsigned long long)st.plans, (unsigned long long)st.detours, (unsigned long long)st.detour_fails,
                (unsigned long long)st.replans, (unsigned long long)st.blocked);
    cr_assert_geq(arrived, 58, "only %d of 64 arrived", arrived);
    /* They met in the gap: moves were found blocked and ways round found. */
    cr_assert_gt(st.blocked, 0u);
    cr_assert_gt(st.detours, 0u);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= leaving blocked ground, getting out of range ======= */

/* The nearest passable cell to (x, y) by looking at every cell: Euclidean
** distance between centres, ties to the lower y then the lower x. *second
** gets the next distance (to know the nearest is the only one). */
static void nearest_passable_by_brute_force(const NavGrid *g, int cls, int x, int y, int *ox, int *oy, float *best,
                                            float *second)
{
    *best = *second = INFINITY;
    for (int cy = 0; cy < grid_height(g); cy++)
        for (int cx = 0; cx < grid_width(g); cx++) {
            if (!grid_passable(g, cls, cx, cy)) continue;
            float d = hypotf((float)(cx - x), (float)(cy - y));
            if (d < *best) {
                *second = *best;
                *best = d, *ox = cx, *oy = cy;
            } else if (d < *second) {
                *second = d;
            }
        }
}

/* An obstacle dropped over a standing unit, above its head (a roof: the
** grid blocks its footprint grown by the clearance, the body is not caught
** in it). Ordered west, the unit first walks east, the shortest way off
** the blocked cells, straight to the nearest passable cell, then round to
** its goal. */
Test(unit_motion, a_unit_on_blocked_cells_walks_off_them_the_shortest_way_first)
{
    Fixture f = setup_field(40, 40, open_ground);
    uint32_t id = add_unit(&f, 10.5f, 20.5f);
    /* x 9.2..10.8, y 19.2..22.8: cells x 9-10, y 19-22 blocked; the
    ** passable cells nearest the unit's are 1 m east, 2 m west and south,
    ** 3 m north. */
    float lo[3] = { 9.2f, 19.2f, 2.5f }, hi[3] = { 10.8f, 22.8f, 3.0f };
    cr_assert_neq(sim_add_obstacle(f.sim, lo, hi), 0u);
    const NavGrid *g = sim_grid(f.sim, NULL);
    cr_assert_not_null(g);
    const NavBot *b = sim_bot(f.sim, id);
    int sx, sy;
    cr_assert(grid_cell_of(g, b->pos[0], b->pos[1], &sx, &sy));
    cr_assert_not(grid_passable(g, b->cls, sx, sy), "the unit's cell is blocked");
    int nx = -1, ny = -1;
    float best, second;
    nearest_passable_by_brute_force(g, b->cls, sx, sy, &nx, &ny, &best, &second);
    cr_assert_lt(best, second - 0.1f, "one nearest cell: %g, then %g", (double)best, (double)second);
    cr_assert_gt(nx, sx, "the nearest is east, away from the goal");
    const float start[2] = { b->pos[0], b->pos[1] };
    order(&f, id, 2.5f, 20.5f);
    int t = 0, out_at = -1, ex = -1, ey = -1;
    for (; t < 40 * 30 && unit_status(&f, id) == NAV_UNIT_MOVING; t++) {
        sim_step(f.sim);
        int cx, cy;
        cr_assert(grid_cell_of(g, b->pos[0], b->pos[1], &cx, &cy));
        if (out_at < 0 && grid_passable(g, b->cls, cx, cy)) {
            out_at = t, ex = cx, ey = cy;
            /* Straight there: as far walked as from the start, no further. */
            float line = hypotf(b->pos[0] - start[0], b->pos[1] - start[1]);
            cr_assert_leq(b->distance, line + 0.05, "walked %.3f m to a spot %.3f m away", b->distance, (double)line);
        }
        if (out_at < 0 && t > 0) {
            NavUnitInfo in;
            sim_unit_info(f.sim, id, &in);
            cr_assert_str_eq(in.doing, "getting off a blocked cell", "tick %d, at (%.3f, %.3f): %s", t,
                             (double)b->pos[0], (double)b->pos[1], in.doing);
        }
    }
    cr_assert_geq(out_at, 0, "never got off the blocked cells");
    cr_assert(ex == nx && ey == ny, "got off at cell (%d, %d), the nearest passable one is (%d, %d)", ex, ey, nx, ny);
    cr_assert_eq(unit_status(&f, id), NAV_UNIT_ARRIVED, "then on to the goal");
    cr_assert_leq(dist_to(b, 2.5f, 20.5f), UNIT_POINT_REACH);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A minimum range: an inverted circle round where the unit stands. It
** walks out, straight (the shortest way out of a circle is along its
** radius) and stops just beyond the edge. */
Test(unit_motion, an_inverted_circle_takes_the_unit_just_out_of_it)
{
    Fixture f = setup_field(40, 40, open_ground);
    static const struct {
        float ux, uy, cx, cy, r;
    } CASES[] = {
        { 20.5f, 20.5f, 19.2f, 20.1f, 6.0f },
        { 12.5f, 30.5f, 14.0f, 27.5f, 4.5f },
        { 25.5f, 10.5f, 25.5f, 10.5f + 0.3f, 8.0f },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        uint32_t id = add_unit(&f, CASES[k].ux, CASES[k].uy);
        char code[256];
        snprintf(code, sizeof code,
                 "return tostring(nav.bot(%u):move_unit(%g, %g, { goal = 'inv_circle', radius = %g }))", id,
                 (double)CASES[k].cx, (double)CASES[k].cy, (double)CASES[k].r);
        cr_assert_str_eq(run(&f, code), "true");
        const NavBot *b = sim_bot(f.sim, id);
        float d0 = dist_to(b, CASES[k].cx, CASES[k].cy);
        int t = 0;
        for (; t < 20 * 30 && unit_status(&f, id) == NAV_UNIT_MOVING; t++) sim_step(f.sim);
        b = sim_bot(f.sim, id);
        float d = dist_to(b, CASES[k].cx, CASES[k].cy);
        cr_assert_eq(unit_status(&f, id), NAV_UNIT_ARRIVED, "case %zu: after %d ticks", k, t);
        cr_assert_geq(d, CASES[k].r, "case %zu: stopped inside, %.3f m from the centre of a %g m circle", k, (double)d,
                      (double)CASES[k].r);
        cr_assert_leq(d, CASES[k].r + 1.0f, "case %zu: %.3f m out, far beyond the %g m edge", k, (double)d,
                      (double)CASES[k].r);
        cr_assert_leq(b->distance, (double)(CASES[k].r - d0) + 1.5, "case %zu: walked %.2f m to get %.2f m out", k,
                      b->distance, (double)(CASES[k].r - d0));
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= arriving together, going round, the same run twice ======= */

/* 20 units sent to one point: the first there stands on it, the others
** round it as they touch one that has arrived. All arrive, no two bodies
** overlapping at any tick. */
Test(unit_motion, twenty_units_sent_to_one_point_all_arrive_round_it)
{
    Fixture f = setup_field(50, 40, open_ground);
    enum { N = 20 };
    for (int i = 0; i < N; i++) add_unit(&f, 5.5f + 2.0f * (float)(i % 5), 5.5f + 2.0f * (float)(i / 5));
    const float gx = 30.5f, gy = 22.5f;
    for (int i = 0; i < N; i++) order(&f, (uint32_t)i, gx, gy);
    int t = 0, moving = N;
    for (; t < 60 * 30 && moving > 0; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
        moving = 0;
        for (int i = 0; i < N; i++) moving += unit_status(&f, (uint32_t)i) == NAV_UNIT_MOVING;
    }
    float nearest = INFINITY, farthest = 0.0f;
    for (int i = 0; i < N; i++) {
        cr_assert_eq(unit_status(&f, (uint32_t)i), NAV_UNIT_ARRIVED, "unit %d after %d ticks", i, t);
        float d = dist_to(sim_bot(f.sim, (uint32_t)i), gx, gy);
        nearest = fminf(nearest, d);
        farthest = fmaxf(farthest, d);
    }
    cr_log_info("all 20 arrived in %d ticks, from %.2f to %.2f m off the point", t, (double)nearest, (double)farthest);
    /* As the header has it: a unit arrives on the point, or touching (0.3
    ** m apart at most) one that has arrived. So the units stand in one
    ** touching cluster that holds one on the point: grown here from those
    ** on it, by touch. */
    bool in[N] = { false };
    int count = 0;
    for (int i = 0; i < N; i++)
        if (dist_to(sim_bot(f.sim, (uint32_t)i), gx, gy) <= UNIT_POINT_REACH) in[i] = true, count++;
    cr_assert_gt(count, 0, "none on the point: the nearest %.2f m off", (double)nearest);
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N && !in[i]; j++) {
                const NavBot *a = sim_bot(f.sim, (uint32_t)i), *o = sim_bot(f.sim, (uint32_t)j);
                if (in[j] && fabsf(a->pos[0] - o->pos[0]) <= 0.8f + 0.3f + 1e-3f &&
                    fabsf(a->pos[1] - o->pos[1]) <= 0.8f + 0.3f + 1e-3f)
                    in[i] = true, count++, grew = true;
            }
    }
    cr_assert_eq(count, N, "%d of %d stand in the cluster round the point", count, N);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A row of units standing across the way, with no orders, no avoidance:
** nothing makes them move, so the unit must go round the row's end. */
Test(unit_motion, a_unit_goes_round_a_row_of_standing_units)
{
    Fixture f = setup_field(60, 40, open_ground);
    uint32_t me = add_unit(&f, 15.5f, 20.5f);
    enum { ROW = 9 };
    float row[ROW][2];
    for (int i = 0; i < ROW; i++) {
        row[i][0] = 30.5f, row[i][1] = 16.5f + (float)i; /* y 16.1 to 24.9: 0.2 m between boxes */
        add_unit(&f, row[i][0], row[i][1]);
    }
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):move_unit(45.5, 20.5))"), "true");
    const NavBot *b = sim_bot(f.sim, me);
    float crossed_at = NAN;
    int t = 0;
    for (; t < 60 * 30 && unit_status(&f, me) == NAV_UNIT_MOVING; t++) {
        float was = b->pos[0];
        sim_step(f.sim);
        check_apart(&f, t);
        if (was < 30.5f && b->pos[0] >= 30.5f) crossed_at = b->pos[1];
    }
    cr_assert_eq(unit_status(&f, me), NAV_UNIT_ARRIVED, "after %d ticks at (%.2f, %.2f)", t, (double)b->pos[0],
                 (double)b->pos[1]);
    cr_assert_leq(dist_to(b, 45.5f, 20.5f), UNIT_POINT_REACH);
    /* Past the row's end: the row spans y 16.1 to 24.9, the body is 0.8 m. */
    cr_assert(isfinite(crossed_at), "never crossed the row's line");
    cr_assert(crossed_at < 16.1f - 0.4f || crossed_at > 24.9f + 0.4f, "crossed the row's line at y %.2f",
              (double)crossed_at);
    for (int i = 0; i < ROW; i++) {
        const NavBot *o = sim_bot(f.sim, (uint32_t)(i + 1));
        cr_assert_leq(dist_to(o, row[i][0], row[i][1]), 0.01f, "row unit %d was moved", i);
    }
    cr_assert_str_eq(run(&f, "local i = nav.bot(0):unit_info() return tostring(i.detours > 0)"), "true");
    cr_assert_str_eq(run(&f, "return tostring(nav.unit_stats().detours > 0)"), "true");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* 64 units through the gap and a formation of 16 beside them, run for
** 30 s; the trace hash every second. */
static void hash_run(uint64_t *hashes, int seconds)
{
    Fixture f = setup_field(60, 30, wall_with_gap);
    swap_through_gap(&f, true, 0, false);
    uint32_t ids[16];
    for (int i = 0; i < 16; i++) ids[i] = add_unit(&f, 4.5f + 1.5f * (float)(i % 4), 23.5f + 1.5f * (float)(i / 4));
    NavError err;
    nav_error_clear(&err);
    int fm = sim_formation_create(f.sim, ids, 16, &(NavFormationDesc){ .shape = NAV_FORMATION_WEDGE }, &err);
    cr_assert_gt(fm, 0, "%s", err.message);
    cr_assert(sim_formation_move(f.sim, fm, 50.0f, 22.0f, &err), "%s", err.message);
    for (int s = 0; s < seconds; s++) {
        for (int k = 0; k < 30; k++) sim_step(f.sim);
        hashes[s] = sim_trace_hash(f.sim);
    }
    teardown(&f);
}

Test(unit_motion, the_same_run_twice_gives_the_same_trace_hash, .timeout = 600)
{
    enum { SECONDS = 30 };
    uint64_t a[SECONDS], b[SECONDS];
    hash_run(a, SECONDS);
    hash_run(b, SECONDS);
    for (int s = 0; s < SECONDS; s++) cr_assert_eq(a[s], b[s], "the runs part at second %d", s + 1);
    /* The hash follows the bodies: it changes as they move. */
    cr_assert_neq(a[0], a[SECONDS - 1]);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= formations ======= */

/* Ranks (slots at one distance ahead, front first) and the members of
** each, counted from the slot points in the formation's frame. */
static int count_ranks(const float *xy, int n, float facing_deg, float spacing, int *per_rank, int cap)
{
    float fx = cosf(facing_deg * (float)(NAV_PI / 180.0)), fy = sinf(facing_deg * (float)(NAV_PI / 180.0));
    float ahead[64];
    cr_assert_leq(n, 64);
    for (int k = 0; k < n; k++) ahead[k] = xy[2 * k] * fx + xy[2 * k + 1] * fy;
    int ranks = 0;
    bool done[64] = { false };
    for (;;) {
        int front = -1;
        for (int k = 0; k < n; k++)
            if (!done[k] && (front < 0 || ahead[k] > ahead[front])) front = k;
        if (front < 0) break;
        cr_assert_lt(ranks, cap);
        per_rank[ranks] = 0;
        float at = ahead[front];
        for (int k = 0; k < n; k++)
            if (!done[k] && fabsf(ahead[k] - at) < 0.25f * spacing) done[k] = true, per_rank[ranks]++;
        ranks++;
    }
    return ranks;
}

typedef struct ShapeCase {
    const char *name;
    int ranks;
    int per_rank[16]; /* front first */
} ShapeCase;

/* 16 units of each shape (sim_unit.h: line one rank, box as many files as
** ranks, column two files, wedge one at the tip and each rank one wider)
** ordered 40 m away, at 30 degrees: the formation arrives in its shape,
** each member near its slot and facing the way it went. */
Test(unit_motion, formations_of_each_shape_arrive_in_shape_facing_their_way, .timeout = 600)
{
    static const ShapeCase SHAPES[] = {
        { "line", 1, { 16 } },
        { "box", 4, { 4, 4, 4, 4 } },
        { "column", 8, { 2, 2, 2, 2, 2, 2, 2, 2 } },
        { "wedge", 6, { 1, 2, 3, 4, 5, 1 } },
    };
    const float travel = 30.0f, sx = 12.0f, sy = 12.0f;
    const float gx = sx + 40.0f * cosf(travel * (float)(NAV_PI / 180.0)),
                gy = sy + 40.0f * sinf(travel * (float)(NAV_PI / 180.0));
    for (size_t s = 0; s < NAV_ARRAY_COUNT(SHAPES); s++) {
        Fixture f = setup_field(70, 50, open_ground);
        /* A loose crowd round (sx, sy), in no order. */
        char list[512] = "";
        for (int i = 0; i < 16; i++) {
            int k = (i * 7) % 16;
            add_unit(&f, sx - 3.0f + 2.0f * (float)(k % 4), sy - 3.0f + 2.0f * (float)(k / 4));
            snprintf(list + strlen(list), sizeof list - strlen(list), "%snav.bot(%d)", i ? ", " : "", i);
        }
        char code[1024];
        snprintf(code, sizeof code,
                 "local f = nav.formation({ %s }, { shape = '%s' })\n"
                 "assert(nav.formation_move(f, %.3f, %.3f))\n"
                 "return tostring(f)",
                 list, SHAPES[s].name, (double)gx, (double)gy);
        int fm = atoi(run(&f, code));
        cr_assert_gt(fm, 0);
        NavFormationInfo in;
        int t = 0;
        for (; t < 60 * 30; t++) {
            sim_step(f.sim);
            check_apart(&f, t);
            cr_assert(sim_formation_info(f.sim, fm, &in));
            if (in.status != NAV_FORMATION_MOVING) break;
        }
        cr_assert_eq(in.status, NAV_FORMATION_ARRIVED, "%s: status %d after %d ticks", SHAPES[s].name, in.status, t);
        /* A second standing in shape: the members turn to face the way. */
        for (int k = 0; k < 30; k++) {
            sim_step(f.sim);
            check_apart(&f, t + 1 + k);
        }
        cr_assert(sim_formation_info(f.sim, fm, &in));
        cr_assert_eq(in.status, NAV_FORMATION_ARRIVED);
        cr_log_info("%s: arrived in %d ticks, slot error mean %.3f max %.3f m", SHAPES[s].name, t,
                    (double)in.slot_error, (double)in.slot_error_max);
        cr_assert_lt(in.slot_error, 1.0f, "%s: mean slot error %.3f m", SHAPES[s].name, (double)in.slot_error);
        cr_assert_leq(hypotf(in.x - gx, in.y - gy), 0.5f, "%s: the anchor stopped off the goal", SHAPES[s].name);
        char want[64];
        snprintf(want, sizeof want, "arrived %s 16", SHAPES[s].name);
        snprintf(code, sizeof code,
                 "local i = nav.formation_info(%d) return i.status .. ' ' .. i.shape .. ' ' .. i.members", fm);
        cr_assert_str_eq(run(&f, code), want);
        /* The slots in the formation's frame: the shape. */
        uint32_t ids[16];
        float xy[32];
        cr_assert_eq(sim_formation_slots(f.sim, fm, ids, xy, 16), 16);
        int per_rank[16];
        cr_log_info("%s: facing %.2f degrees", SHAPES[s].name, (double)in.facing);
        cr_assert_leq(angle_between(in.facing, travel), 10.0f, "%s: the formation faces %.1f degrees", SHAPES[s].name,
                      (double)in.facing);
        int ranks = count_ranks(xy, 16, in.facing, in.spacing, per_rank, 16);
        cr_assert_eq(ranks, SHAPES[s].ranks, "%s: %d ranks", SHAPES[s].name, ranks);
        for (int r = 0; r < ranks; r++)
            cr_assert_eq(per_rank[r], SHAPES[s].per_rank[r], "%s: rank %d has %d", SHAPES[s].name, r, per_rank[r]);
        /* Each member: near its slot (the mean measured here), facing the
        ** way the formation went. */
        float sum = 0.0f;
        for (int k = 0; k < 16; k++) {
            const NavBot *b = sim_bot(f.sim, ids[k]);
            sum += dist_to(b, xy[2 * k], xy[2 * k + 1]);
            cr_assert_leq(angle_between(b->facing, travel), 30.0f, "%s: member %u faces %.1f degrees, the way is %.1f",
                          SHAPES[s].name, ids[k], (double)b->facing, (double)travel);
        }
        cr_assert_lt(sum / 16.0f, 1.0f, "%s: members %.3f m from their slots", SHAPES[s].name, (double)(sum / 16.0f));
        teardown(&f);
    }
    NAV_TEST_LEAK_CHECK();
}

/* A wall across the way at x 29-30 with a 3 m gap (y 18-20): a box of 16
** is 4 files at 1.4 m, 4.2 m between its outer slots. */
static bool wall_with_narrow_gap(int x, int y) { return (x == 29 || x == 30) && !(y >= 18 && y <= 20); }

/* The width of passable ground across the way (north-south) at x: the
** longest run of passable cells in that column. */
static int passable_run(const NavGrid *g, int cls, int x)
{
    int best = 0, run_len = 0;
    for (int y = 0; y < grid_height(g); y++) {
        run_len = grid_passable(g, cls, x, y) ? run_len + 1 : 0;
        if (run_len > best) best = run_len;
    }
    return best;
}

Test(unit_motion, a_box_narrows_through_a_gap_and_widens_after, .timeout = 600)
{
    Fixture f = setup_field(70, 40, wall_with_narrow_gap);
    uint32_t ids[16];
    for (int i = 0; i < 16; i++) ids[i] = add_unit(&f, 8.5f + 2.0f * (float)(i % 4), 15.5f + 2.0f * (float)(i / 4));
    NavError err;
    nav_error_clear(&err);
    int fm = sim_formation_create(f.sim, ids, 16, &(NavFormationDesc){ .shape = NAV_FORMATION_BOX }, &err);
    cr_assert_gt(fm, 0, "%s", err.message);
    cr_assert(sim_formation_move(f.sim, fm, 55.0f, 19.5f, &err), "%s", err.message);
    NavFormationInfo in;
    cr_assert(sim_formation_info(f.sim, fm, &in));
    cr_assert_eq(in.full_files, 4);
    /* The gap is narrower than the box: fewer files than 4 fit it. */
    const NavGrid *g = sim_grid(f.sim, NULL);
    int gap = passable_run(g, world_find_class(f.w, "infantry"), 29);
    int fit = (int)floorf((float)gap / in.spacing) + 1;
    cr_assert_lt(fit, in.full_files, "a %d m gap fits %d files", gap, fit);
    int fewest = in.full_files, t = 0, narrowed_at = -1, widened_at = -1, in_gap = 0;
    for (; t < 90 * 30; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
        cr_assert(sim_formation_info(f.sim, fm, &in));
        if (in.files < fewest) fewest = in.files;
        if (in.files < in.full_files && narrowed_at < 0) narrowed_at = t;
        if (narrowed_at >= 0 && widened_at < 0 && in.files == in.full_files && in.status == NAV_FORMATION_MOVING &&
            in.path_left > 0)
            widened_at = t;
        /* Anchor in the gap: the files then fit it. */
        if (in.x >= 29.0f && in.x <= 31.0f) {
            in_gap++;
            cr_assert_leq(in.files, fit, "tick %d: %d files in a gap that fits %d", t, in.files, fit);
        }
        if (in.status != NAV_FORMATION_MOVING) break;
    }
    cr_log_info("narrowed at tick %d to %d files (a %d m gap), widened at tick %d, arrived at tick %d", narrowed_at,
                fewest, gap, widened_at, t);
    cr_assert_gt(in_gap, 0, "the anchor went through the gap");
    cr_assert_geq(narrowed_at, 0, "never narrowed");
    cr_assert_geq(widened_at, 0, "never widened again before the goal");
    cr_assert_eq(in.status, NAV_FORMATION_ARRIVED, "after %d ticks", t);
    cr_assert_eq(in.files, in.full_files);
    cr_assert_lt(in.slot_error, 1.0f);
    /* Every member came through the wall. */
    for (int i = 0; i < 16; i++) cr_assert_gt(sim_bot(f.sim, ids[i])->pos[0], 31.0f, "member %d", i);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A lane one cell wide, walled both sides, west to east along y 10. */
static bool one_lane(int x, int y)
{
    (void)x;
    return y != 10;
}

/* A unit that stands waiting for room is stuck: standing still with an
** order it cannot carry out is no progress, whatever its wish this tick. */
Test(unit_motion, a_unit_waiting_behind_a_body_in_a_lane_counts_as_stuck, .timeout = 600)
{
    Fixture f = setup_field(40, 21, one_lane);
    add_unit(&f, 20.5f, 10.5f); /* no order, no avoidance: it never makes room */
    uint32_t u = add_unit(&f, 5.5f, 10.5f);
    order(&f, u, 35.5f, 10.5f);
    for (int t = 0; t < 20 * 30; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
    }
    const NavBot *b = sim_bot(f.sim, u);
    cr_assert_lt(b->pos[0], 20.0f, "it got past the body in the lane");
    cr_assert_eq(unit_status(&f, u), NAV_UNIT_MOVING);
    cr_assert_gt(b->stuck_time, 10.0f, "stuck %.1f s after 20 s held up", (double)b->stuck_time);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* An L of road two cells wide, the rest wood: east along y 8-9 from x 3,
** then north along x 55-56. */
static bool l_road(int x, int y)
{
    bool east = y >= 8 && y <= 9 && x >= 3 && x <= 56, north = x >= 55 && x <= 56 && y >= 8 && y <= 60;
    return !(east || north);
}

/* A file rounds a bend as marching men do: each rank stands on the road
** where the anchor went or is going, so no two slots pile up on the
** nearest ground beside a bend (as a board-like formation turned about
** its anchor would put them), and every member arrives. */
Test(unit_motion, a_file_rounds_a_bend_with_its_slots_on_the_road, .timeout = 600)
{
    Fixture f = setup_field(64, 64, l_road);
    enum { N = 12 };
    uint32_t ids[N];
    for (int i = 0; i < N; i++) ids[i] = add_unit(&f, 4.5f + 2.2f * (float)i, 8.5f + (float)(i % 2));
    NavError err;
    nav_error_clear(&err);
    int fm = sim_formation_create(f.sim, ids, N, &(NavFormationDesc){ .shape = NAV_FORMATION_COLUMN }, &err);
    cr_assert_gt(fm, 0, "%s", err.message);
    cr_assert(sim_formation_move(f.sim, fm, 55.5f, 50.0f, &err), "%s", err.message);
    NavFormationInfo in;
    const NavGrid *g = sim_grid(f.sim, NULL);
    int cls = world_find_class(f.w, "infantry"), t = 0, moving_ticks = 0;
    float closest = INFINITY;
    for (; t < 120 * 30; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
        cr_assert(sim_formation_info(f.sim, fm, &in));
        if (in.status != NAV_FORMATION_MOVING) break;
        if (in.path_left == 0) continue; /* at the goal: the plain shape */
        moving_ticks++;
        float xy[2 * N];
        cr_assert_eq(sim_formation_slots(f.sim, fm, NULL, xy, N), N);
        for (int a = 0; a < N; a++) {
            int cx, cy;
            /* Past either end of the road a slot may be off it; on it, and
            ** two slots a body apart at least. */
            if (grid_cell_of(g, xy[2 * a], xy[2 * a + 1], &cx, &cy) && grid_passable(g, cls, cx, cy))
                for (int b = a + 1; b < N; b++) {
                    float d = hypotf(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
                    if (d < closest) closest = d;
                    cr_assert_geq(d, 0.6f * in.spacing,
                                  "tick %d: slots %d and %d %.2f m apart at (%.2f, %.2f) (%.2f, %.2f), files %d, "
                                  "anchor (%.2f, %.2f)",
                                  t, a, b, (double)d, (double)xy[2 * a], (double)xy[2 * a + 1], (double)xy[2 * b],
                                  (double)xy[2 * b + 1], in.files, (double)in.x, (double)in.y);
                }
        }
    }
    cr_log_info("arrived at tick %d; closest two slots %.2f m apart", t, (double)closest);
    cr_assert_gt(moving_ticks, 0);
    cr_assert_eq(in.status, NAV_FORMATION_ARRIVED, "after %d ticks (slot error %.2f m)", t, (double)in.slot_error);
    for (int i = 0; i < N; i++) cr_assert_gt(sim_bot(f.sim, ids[i])->pos[1], 20.0f, "member %d round the bend", i);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* Ordered with a facing, a formation turns to it at the goal; ordered to
** where it stands with one, it forms up that way at once. */
Test(unit_motion, a_formation_ordered_with_a_facing_faces_that_way, .timeout = 600)
{
    Fixture f = setup_field(60, 40, open_ground);
    uint32_t ids[9];
    for (int i = 0; i < 9; i++) ids[i] = add_unit(&f, 10.5f + 1.2f * (float)(i % 3), 20.5f + 1.2f * (float)(i / 3));
    NavError err;
    nav_error_clear(&err);
    int fm = sim_formation_create(f.sim, ids, 9, &(NavFormationDesc){ .shape = NAV_FORMATION_LINE }, &err);
    cr_assert_gt(fm, 0, "%s", err.message);
    NavFormationInfo in;
    /* Where it stands, facing north: a line across x, at once. */
    cr_assert(sim_formation_move(f.sim, fm, 11.7f, 21.7f, &err), "%s", err.message);
    cr_assert(sim_formation_face(f.sim, fm, 90.0f, &err), "%s", err.message);
    cr_assert(sim_formation_info(f.sim, fm, &in));
    cr_assert_lt(angle_between(in.facing, 90.0f), 1.0f, "faces %.1f", (double)in.facing);
    int t = 0;
    for (; t < 30 * 30 && in.status == NAV_FORMATION_MOVING; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
        cr_assert(sim_formation_info(f.sim, fm, &in));
    }
    cr_assert_eq(in.status, NAV_FORMATION_ARRIVED);
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 9; i++) {
        const NavBot *b = sim_bot(f.sim, ids[i]);
        cr_assert_lt(fabsf(b->pos[1] - 21.7f), 1.0f, "member %d stands in the line", i);
        lo = fminf(lo, b->pos[0]), hi = fmaxf(hi, b->pos[0]);
    }
    cr_assert_gt(hi - lo, 7.0f * in.spacing, "the line runs east-west");
    /* Far east, to face south there. */
    cr_assert(sim_formation_move(f.sim, fm, 45.0f, 20.0f, &err), "%s", err.message);
    cr_assert(sim_formation_face(f.sim, fm, -90.0f, &err), "%s", err.message);
    for (t = 0; t < 60 * 30; t++) {
        sim_step(f.sim);
        check_apart(&f, t);
        cr_assert(sim_formation_info(f.sim, fm, &in));
        if (in.status != NAV_FORMATION_MOVING) break;
    }
    cr_assert_eq(in.status, NAV_FORMATION_ARRIVED, "after %d ticks", t);
    cr_assert_lt(angle_between(in.facing, -90.0f), 1.0f, "faces %.1f", (double)in.facing);
    cr_assert_lt(in.slot_error, 1.0f);
    /* Bad facings are errors, not NaN slots. */
    cr_assert_not(sim_formation_face(f.sim, fm, NAN, &err));
    cr_assert_not(sim_formation_face(f.sim, fm + 1, 0.0f, &err));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= Lua errors ======= */

/* Bad arguments are Lua errors that name what is wrong, not crashes. */
Test(unit_motion, bad_lua_arguments_are_errors_naming_them)
{
    Fixture f = setup_field(20, 20, open_ground);
    add_unit(&f, 5.5f, 5.5f);
    add_unit(&f, 7.5f, 5.5f);
    static const struct {
        const char *call, *want;
    } CASES[] = {
        { "nav.bot(0):move_unit(1, 2, { speed = 3 })", "#3 to 'move_unit' (unknown option 'speed'" },
        { "nav.bot(0):move_unit(1, 2, { [1] = 3 })", "unknown option 'number'" },
        { "nav.bot(0):move_unit(1, 2, { goal = 'blob' })", "#3 to 'move_unit' (unknown goal 'blob'" },
        { "nav.bot(0):move_unit(1, 2, { goal = 'circle' })", "option 'radius'" },
        { "nav.bot(0):move_unit(1, 2, { goal = 'circle', radius = -1 })", "option 'radius'" },
        { "nav.bot(0):move_unit(1, 2, 'far')", "table expected" },
        { "nav.bot(0):move_unit(0/0, 2)", "#1 to 'move_unit' (finite number expected" },
        { "nav.bot(0):move_unit(1)", "number expected" },
        { "nav.bot(0).move_unit(42, 1, 2)", "nav.Bot expected" },
        { "nav.bot(0).unit('x')", "nav.Bot expected" },
        { "nav.bot(0).unit_info({})", "nav.Bot expected" },
        { "nav.bot(0).unit_path()", "nav.Bot expected" },
        { "nav.bot(0).stop_unit(1)", "nav.Bot expected" },
        { "nav.bot(0).formation(nil)", "nav.Bot expected" },
        { "nav.formation('all')", "table expected" },
        { "nav.formation({})", "a list of 1 or more bots expected" },
        { "nav.formation({ nav.bot(0), 'x' })", "bots[2]: a bot or a bot id expected" },
        { "nav.formation({ nav.bot(0), {} })", "bots[2]: a bot or a bot id expected" },
        { "nav.formation({ 0, 99 })", "#1 to 'formation' (bots[2]: no bot 99" },
        { "nav.formation({ 0, nav.bot(0) })", "listed twice" },
        { "nav.formation({ 0 }, { shape = 'circle' })", "#2 to 'formation' (option 'shape'" },
        { "nav.formation({ 0 }, { shape = 3 })", "option 'shape'" },
        { "nav.formation({ 0 }, { spacing = -1 })", "option 'spacing'" },
        { "nav.formation({ 0 }, { spacing = 51 })", "option 'spacing'" },
        { "nav.formation({ 0 }, { rows = 2 })", "unknown option 'rows'" },
        { "nav.formation({ 0 }, 'box')", "table expected" },
        { "nav.formation_move(99, 1, 2)", "#1 to 'formation_move' (no such formation" },
        { "nav.formation_move(0, 1, 2)", "no such formation" },
        { "nav.formation_move('a', 1, 2)", "number expected" },
        { "nav.formation_move(nav.formation({ 0 }), 1 / 0, 2)", "finite number expected" },
        { "nav.formation_slots(99)", "no such formation" },
        { "nav.formation_disband(99)", "no such formation" },
        { "nav.formation_info('a')", "number expected" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(CASES); i++) {
        char code[256];
        snprintf(code, sizeof code, "return %s", CASES[i].call);
        const char *msg = fails(&f, code);
        cr_assert_not_null(strstr(msg, CASES[i].want), "%s\n  says: %s\n  want: %s", CASES[i].call, msg, CASES[i].want);
    }
    /* Not errors: no such formation to read is nil; a disbanded one is
    ** gone; ids work as bots. */
    cr_assert_str_eq(run(&f, "return tostring(nav.formation_info(99))"), "nil");
    cr_assert_str_eq(run(&f, "local id = nav.formation({ 0, 1 }, { shape = 'line', spacing = 2 })\n"
                             "local i = nav.formation_info(id)\n"
                             "local ok = nav.bot(1):formation() == id\n"
                             "nav.formation_disband(id)\n"
                             "return string.format('%s %s %d %g %s %s', i.status, i.shape, i.files, i.spacing,\n"
                             "  tostring(ok), tostring(nav.formation_info(id)))"),
                     "idle line 2 2 true nil");
    cr_assert_not_null(strstr(fails(&f, "return nav.formation_move(1, 3, 3)"), "no such formation"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the documented examples ======= */

/* The examples of docs/lua-api.md's "Bot: unit motion" and "Formations"
** run as written, in order, as one brain's think with `bot` its bot: the
** units walk and the formation forms, moves and is disbanded. */
Test(unit_motion, the_documented_examples_run)
{
    Fixture f = setup_field(200, 120, open_ground);
    for (int i = 0; i < 16; i++) add_unit(&f, 100.5f + 2.0f * (float)(i % 4), 60.5f + 2.0f * (float)(i / 4));
    NavError err;
    nav_error_clear(&err);
    char *doc = NULL;
    size_t len = 0;
    cr_assert(NAV_SUCCEEDED(fileio_read("docs/lua-api.md", 1u << 22, &doc, &len, &err)), "%s", err.message);
    const char *from = strstr(doc, "\n### Bot: unit motion\n");
    const char *to = from ? strstr(from, "\n### Bot: showing intent\n") : NULL;
    cr_assert(from && to, "no unit motion and formation sections in docs/lua-api.md");
    size_t cap = (size_t)(to - from) + 1024, n = 0;
    char *code = malloc(cap);
    cr_assert_not_null(code);
    n += (size_t)snprintf(code, cap,
                          "local bot = nav.bot(0)\n"
                          "local next_x, next_y, ex, ey, enemy_near = 120, 70, 101, 61, false\n");
    int blocks = 0;
    for (const char *p = strstr(from, "```lua\n"); p && p < to; p = strstr(p, "```lua\n")) {
        p += 7;
        const char *end = strstr(p, "```\n");
        cr_assert(end && end < to);
        memcpy(code + n, p, (size_t)(end - p));
        n += (size_t)(end - p);
        p = end + 4;
        blocks++;
    }
    snprintf(code + n, cap - n, "return 'ran'\n");
    cr_assert_geq(blocks, 12, "only %d examples", blocks);
    cr_assert_str_eq(run(&f, code), "ran");
    /* Bot 0 was ordered, then taken into the formation (which drops its
    ** order), then the formation was disbanded: no order, no formation. */
    NavUnitInfo in;
    sim_unit_info(f.sim, 0, &in);
    cr_assert_eq(in.status, NAV_UNIT_NONE);
    cr_assert_eq(sim_formation_of(f.sim, 0), 0);
    NavFormationInfo fi;
    cr_assert_not(sim_formation_info(f.sim, 1, &fi));
    free(code);
    free(doc);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

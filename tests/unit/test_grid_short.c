/*
** test_grid_short.c — the short-range vertex pathfinder against brute
** force (short_oracle.h).
**
** On random small grids with random unit squares the search must find a
** path exactly when the oracle's visibility graph does, as short as the
** oracle's Dijkstra, over the same vertices; every returned path is
** checked again by dense sampling: no sample on an impassable cell, none
** inside a grown square (the ones holding the start excepted until the
** path leaves them); an unreachable goal must end no farther from the goal
** than the oracle gets. Also: shaped and inverted goals, a goal inside a
** square, a start inside a square and on impassable cells, goals out of
** range and walled off, budgets, truncation, determinism, bad arguments,
** the segment test and the drawing visitor.
*/
#include "short_oracle.h"

/* {======= against the oracle ======= */

/* crowd: squares only around the start, 25 to 40 of them, so that they
** wall it in now and then (the search's reach raster is then on). */
static void random_maps(uint64_t seed, double cell, const char *cls, int maps, int queries, bool crowd, Tally *t)
{
    OracleRng r = { seed };
    for (int m = 0; m < maps; m++) {
        char *rows = random_rows(&r, 24, 24, orng_range(&r, 0.05, 0.25));
        Ctx *c = ctx_open(load_rows(rows, cell), cls);
        free(rows);
        double side = 24 * cell;
        for (int k = 0; k < queries; k++) {
            /* a start on a passable cell */
            int cx, cy, tries = 0;
            do {
                cx = orng_int(&r, 24);
                cy = orng_int(&r, 24);
            } while (!pass_at(c, cx, cy) && ++tries < 200);
            if (!pass_at(c, cx, cy)) break;
            double sx = (cx + orng_range(&r, 0.05, 0.95)) * cell, sy = (cy + orng_range(&r, 0.05, 0.95)) * cell;
            GridShortSquare sq[MAXSQ];
            double range = (crowd ? orng_range(&r, 3.0, 6.0) : orng_range(&r, 3.0, 12.0)) * cell;
            int n = crowd ? 25 + orng_int(&r, 16) : orng_int(&r, 31);
            for (int i = 0; i < n; i++) {
                double x = crowd ? sx + orng_range(&r, -range, range) : orng_range(&r, 0, side);
                double y = crowd ? sy + orng_range(&r, -range, range) : orng_range(&r, 0, side);
                sq[i] = (GridShortSquare){ (float)x, (float)y, (float)orng_range(&r, 0.1, 0.8) * (float)cell };
            }
            GridShortQuery q = { .cls = c->cls,
                                 .sx = (float)sx,
                                 .sy = (float)sy,
                                 .goal = random_goal(&r, sx, sy, side / 2),
                                 .range = (float)range,
                                 .squares = sq,
                                 .square_count = n,
                                 .clearance = (float)(orng_range(&r, 0.0, 0.5) * cell) };
            char label[64];
            snprintf(label, sizeof label, "map %d query %d", m, k);
            check_query(c, &q, t, label);
        }
        ctx_close(c);
    }
}

Test(grid_short, random_maps_match_the_visibility_graph_oracle)
{
    Tally t = { 0 };
    random_maps(0x5107ull, 1.0, "point", 12, 25, false, &t);
    TALLY_OK(t);
    cr_assert_geq(t.checked, 250);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, half_metre_cells_and_a_wide_class_match_the_oracle)
{
    Tally t = { 0 };
    random_maps(0xA11CEull, 0.5, "wide", 8, 25, false, &t);
    TALLY_OK(t);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, crowds_that_wall_the_start_in_match_the_oracle)
{
    Tally t = { 0 };
    random_maps(0xC20Dull, 1.0, "point", 8, 25, true, &t);
    TALLY_OK(t);
    /* the reach raster was on and left corners out, never a reachable one */
    cr_assert_gt(t.fewer, 20, "only %d queries of %d had fewer vertices than the oracle", t.fewer, t.checked);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the segment test ======= */

Test(grid_short, segment_test_matches_exact_geometry)
{
    OracleRng r = { 0x5E6ull };
    Tally t = { 0 };
    for (int m = 0; m < 6; m++) {
        char *rows = random_rows(&r, 24, 24, 0.2);
        Ctx *c = ctx_open(load_rows(rows, 1.0), "point");
        free(rows);
        for (int k = 0; k < 400; k++) {
            GridShortSquare sq[8];
            int n = orng_int(&r, 8);
            for (int i = 0; i < n; i++)
                sq[i] = (GridShortSquare){ (float)orng_range(&r, 0, 24), (float)orng_range(&r, 0, 24),
                                           (float)orng_range(&r, 0.1, 1.0) };
            float clearance = (float)orng_range(&r, 0, 0.5);
            int cx, cy;
            do {
                cx = orng_int(&r, 24);
                cy = orng_int(&r, 24);
            } while (!pass_at(c, cx, cy));
            float ax = (float)(cx + orng_unit(&r)), ay = (float)(cy + orng_unit(&r));
            float bx = (float)orng_range(&r, 0.01, 23.99), by = (float)orng_range(&r, 0.01, 23.99);
            GridShortQuery q = {
                .cls = c->cls, .sx = ax, .sy = ay, .range = 30, .squares = sq, .square_count = n, .clearance = clearance
            };
            Oracle *o = malloc(sizeof *o);
            oracle_build(o, c, &q);
            bool want = o_visible(o, ax, ay, bx, by);
            free(o);
            uint32_t got = grid_short_segment_blocked(c->g, c->cls, ax, ay, bx, by, sq, n, clearance);
            t.checked++;
            if ((got == 0) != want)
                fail(&t, "map %d: (%.6f, %.6f) -> (%.6f, %.6f) with %d squares: blocked 0x%x, the oracle says %s", m,
                     ax, ay, bx, by, n, got, want ? "clear" : "blocked");
        }
        ctx_close(c);
    }
    TALLY_OK(t);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= situations ======= */

/* An open 32 x 32 m field with a 4 x 4 block of impassable cells at
** x 14-17, y 14-17. */
static Ctx *open_field(void)
{
    char rows[33 * 32 + 1];
    int n = 0;
    for (int r = 0; r < 32; r++) {
        int y = 31 - r;
        for (int x = 0; x < 32; x++) rows[n++] = (x >= 14 && x <= 17 && y >= 14 && y <= 17) ? '#' : '.';
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    return ctx_open(load_rows(rows, 1.0), "point");
}

static GridShortPath run(Ctx *c, const GridShortQuery *q, NavStatus want)
{
    GridShortPath p = { .points = c->buf, .cap = CAP };
    NavError err;
    NavStatus st = grid_short_find_path(c->s, q, &p, &err);
    cr_assert_eq(st, want, "status 0x%x, want 0x%x: %s", st, want, err.message);
    char why[300];
    const char *bad = sample_path(c, q, &p, why, sizeof why);
    cr_assert_null(bad, "%s", bad);
    return p;
}

Test(grid_short, straight_line_when_nothing_is_in_the_way)
{
    Ctx *c = open_field();
    GridShortQuery q = { .cls = c->cls, .sx = 4.5f, .sy = 4.5f, .goal = grid_goal_point(10.5f, 6.5f), .range = 10 };
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_FOUND);
    cr_assert_eq(p.count, 2);
    cr_assert_float_eq(p.length, hypot(6.0, 2.0), 1e-6);
    cr_assert_eq(p.end_distance, 0.0);
    /* already there */
    q.goal = grid_goal_circle(4.0f, 4.0f, 1.0f, false);
    p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_FOUND);
    cr_assert_eq(p.count, 1);
    cr_assert_eq(p.length, 0.0);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, around_the_block_and_a_wall_of_units)
{
    Ctx *c = open_field();
    /* a file of units shutting the way north of the block, past the top of
    ** the search square (y 28) */
    GridShortSquare sq[11];
    for (int i = 0; i < 11; i++) sq[i] = (GridShortSquare){ 15.0f, 18.5f + i, 0.5f };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 11.5f,
                         .sy = 16.0f,
                         .goal = grid_goal_point(20.5f, 16.0f),
                         .range = 12,
                         .squares = sq,
                         .square_count = 11,
                         .clearance = 0.5f };
    Tally t = { 0 };
    uint32_t flags = check_query(c, &q, &t, "wall");
    TALLY_OK(t);
    cr_assert(flags & GRID_SHORT_FOUND);
    GridShortPath p = run(c, &q, NAV_OK);
    /* round the south side of the block */
    for (int i = 0; i < p.count; i++) cr_assert_leq(p.points[i].y, 16.0f, "waypoint %d goes north", i);
    cr_assert_gt(p.count, 2);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, goal_inside_a_square_ends_beside_it)
{
    Ctx *c = open_field();
    GridShortSquare sq[1] = { { 8.0f, 8.0f, 0.5f } };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 4.2f,
                         .sy = 5.1f,
                         .goal = grid_goal_point(8.1f, 8.2f),
                         .range = 8,
                         .squares = sq,
                         .square_count = 1,
                         .clearance = 0.5f };
    Tally t = { 0 };
    check_query(c, &q, &t, "goal in a square");
    TALLY_OK(t);
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_UNREACHABLE);
    GridShortPoint e = p.points[p.count - 1];
    /* at a corner of the grown square (half 1), a hair outside */
    cr_assert(fabsf(fabsf(e.x - 8.0f) - 1.0f) < 0.05f && fabsf(fabsf(e.y - 8.0f) - 1.0f) < 0.05f, "ends at (%g, %g)",
              e.x, e.y);
    cr_assert_float_eq(p.end_distance, hypot(e.x - 8.1, e.y - 8.2), 1e-4);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, start_inside_a_square_gets_out)
{
    Ctx *c = open_field();
    /* the unit stands inside a neighbour's grown square, and another
    ** square overlaps that one */
    GridShortSquare sq[2] = { { 6.3f, 6.2f, 0.5f }, { 7.4f, 6.2f, 0.5f } };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 6.0f,
                         .sy = 6.0f,
                         .goal = grid_goal_point(10.5f, 6.1f),
                         .range = 8,
                         .squares = sq,
                         .square_count = 2,
                         .clearance = 0.5f };
    Tally t = { 0 };
    check_query(c, &q, &t, "start in a square");
    TALLY_OK(t);
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert(p.flags & GRID_SHORT_FOUND, "flags 0x%x", p.flags);
    cr_assert(p.flags & GRID_SHORT_START_INSIDE, "flags 0x%x", p.flags);
    cr_assert_gt(p.count, 2, "it must go round the second square");
    /* the segment test agrees: straight east enters the second square */
    cr_assert_eq(grid_short_segment_blocked(c->g, c->cls, 6.0f, 6.0f, 10.5f, 6.1f, sq, 2, 0.5f),
                 GRID_SHORT_BLOCK_SQUARES);
    cr_assert_eq(grid_short_segment_blocked(c->g, c->cls, 6.0f, 6.0f, 6.0f, 2.0f, sq, 2, 0.5f), 0u);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, start_on_impassable_cells_walks_out)
{
    Ctx *c = open_field();
    /* in the block, near its west side; the goal is east of it */
    GridShortQuery q = { .cls = c->cls, .sx = 14.6f, .sy = 15.5f, .goal = grid_goal_point(20.5f, 15.5f), .range = 10 };
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert(p.flags & GRID_SHORT_FOUND, "flags 0x%x", p.flags);
    cr_assert(p.flags & GRID_SHORT_START_INSIDE, "flags 0x%x", p.flags);
    /* single-sided edges: it may cross the block it stands in */
    cr_assert_eq(p.count, 2);
    cr_assert_float_eq(p.length, 5.9, 1e-5);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, inverted_goals_reach_outside_the_shape)
{
    Ctx *c = open_field();
    OracleRng r = { 0x1F7ull };
    Tally t = { 0 };
    for (int k = 0; k < 40; k++) {
        GridShortSquare sq[12];
        for (int i = 0; i < 12; i++)
            sq[i] = (GridShortSquare){ (float)orng_range(&r, 3, 13), (float)orng_range(&r, 3, 13), 0.4f };
        float sx = (float)orng_range(&r, 7, 9), sy = (float)orng_range(&r, 7, 9);
        bool circle = k % 2 == 0;
        GridGoal goal = circle ? grid_goal_circle(8.0f, 8.0f, 3.0f, true)
                               : grid_goal_square(8.0f, 8.0f, 2.5f, 3.5f, (float)orng_range(&r, 0, PI), true);
        GridShortQuery q = { .cls = c->cls,
                             .sx = sx,
                             .sy = sy,
                             .goal = goal,
                             .range = 8,
                             .squares = sq,
                             .square_count = 12,
                             .clearance = 0.4f };
        uint32_t flags = check_query(c, &q, &t, circle ? "inverted circle" : "inverted square");
        if (!(flags & GRID_SHORT_FOUND)) continue;
        GridShortPath p = run(c, &q, flags & GRID_SHORT_PARTIAL ? NAV_OK | NAV_PARTIAL : NAV_OK);
        GridShortPoint e = p.points[p.count - 1];
        t.checked++;
        if (circle && hypot(e.x - 8.0, e.y - 8.0) < 3.0 - 1e-4)
            fail(&t, "ends inside the circle at (%g, %g)", e.x, e.y);
    }
    TALLY_OK(t);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, goal_out_of_range_ends_at_the_border_toward_it)
{
    Ctx *c = open_field();
    GridShortQuery q = { .cls = c->cls, .sx = 4.5f, .sy = 6.0f, .goal = grid_goal_point(26.0f, 6.0f), .range = 6 };
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_UNREACHABLE);
    cr_assert_eq(p.count, 2);
    cr_assert_float_eq(p.points[1].x, 10.5f - 1.0f / 64, 1e-5);
    cr_assert_float_eq(p.points[1].y, 6.0f, 1e-6);
    cr_assert_float_eq(p.end_distance, 26.0 - (10.5 - 1.0 / 64), 1e-4);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, walled_in_ends_at_the_nearest_point)
{
    /* a room x 2-6, y 2-6 (cells) walled all round, a pillar at (5, 4);
    ** the goal is outside */
    char rows[12 * 11 + 1];
    int n = 0;
    for (int r = 0; r < 11; r++) {
        int y = 10 - r;
        for (int x = 0; x < 11; x++) {
            bool wall = (x >= 1 && x <= 7 && y >= 1 && y <= 7) && !(x >= 2 && x <= 6 && y >= 2 && y <= 6);
            rows[n++] = wall || (x == 5 && y == 4) ? '#' : '.';
        }
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    Ctx *c = ctx_open(load_rows(rows, 1.0), "point");
    GridShortQuery q = { .cls = c->cls, .sx = 3.5f, .sy = 3.5f, .goal = grid_goal_point(9.5f, 4.0f), .range = 8 };
    Tally t = { 0 };
    check_query(c, &q, &t, "walled in");
    TALLY_OK(t);
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_UNREACHABLE);
    /* the room has no corner vertices of its own (they are concave): the
    ** nearest vertex to the goal is the pillar's south-east corner */
    double e = 1.0 / 64;
    cr_assert_float_eq(p.end_distance, hypot(9.5 - (6 + e), 4.0 - (4 - e)), 1e-4);
    cr_assert_float_eq(p.points[p.count - 1].x, 6 + e, 1e-5);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, budgets_stop_with_a_partial_path)
{
    Ctx *c = open_field();
    GridShortSquare sq[1] = { { 12.0f, 15.5f, 0.5f } };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 10.5f,
                         .sy = 15.5f,
                         .goal = grid_goal_point(21.5f, 15.5f),
                         .range = 12,
                         .squares = sq,
                         .square_count = 1,
                         .clearance = 0.5f,
                         .max_expanded = 2 };
    GridShortPath p = run(c, &q, NAV_OK | NAV_PARTIAL);
    cr_assert_eq(p.flags, GRID_SHORT_PARTIAL);
    cr_assert_eq(p.expanded, 2u);
    cr_assert_gt(p.end_distance, 0.0);
    cr_assert_lt(p.end_distance, 11.0, "the partial path gets nearer than the start");
    q.max_expanded = 0;
    p = run(c, &q, NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_FOUND);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, same_query_same_path)
{
    OracleRng r = { 0xD37ull };
    char *rows = random_rows(&r, 24, 24, 0.15);
    Ctx *c = ctx_open(load_rows(rows, 1.0), "point");
    free(rows);
    GridShortSquare sq[25];
    for (int i = 0; i < 25; i++)
        sq[i] = (GridShortSquare){ (float)orng_range(&r, 2, 22), (float)orng_range(&r, 2, 22), 0.5f };
    for (int k = 0; k < 20; k++) {
        int cx, cy;
        do {
            cx = orng_int(&r, 24);
            cy = orng_int(&r, 24);
        } while (!pass_at(c, cx, cy));
        GridShortQuery q = { .cls = c->cls,
                             .sx = cx + 0.5f,
                             .sy = cy + 0.5f,
                             .goal = grid_goal_point((float)orng_range(&r, 0, 24), (float)orng_range(&r, 0, 24)),
                             .range = 10,
                             .squares = sq,
                             .square_count = 25,
                             .clearance = 0.5f };
        GridShortPoint a[CAP], b[CAP];
        GridShortPath pa = { .points = a, .cap = CAP }, pb = { .points = b, .cap = CAP };
        cr_assert(NAV_SUCCEEDED(grid_short_find_path(c->s, &q, &pa, NULL)));
        /* another query in between must not leave anything behind */
        GridShortQuery other = q;
        other.sx = 12.5f;
        other.square_count = 3;
        GridShortPath po = { .points = b, .cap = CAP };
        grid_short_find_path(c->s, &other, &po, NULL);
        cr_assert(NAV_SUCCEEDED(grid_short_find_path(c->s, &q, &pb, NULL)));
        cr_assert_eq(pa.count, pb.count);
        cr_assert_eq(pa.flags, pb.flags);
        cr_assert_eq(pa.expanded, pb.expanded);
        cr_assert_eq(memcmp(a, b, sizeof a[0] * (size_t)pa.count), 0, "query %d: the paths differ", k);
    }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_short, truncated_when_the_buffer_is_short)
{
    Ctx *c = open_field();
    GridShortSquare sq[1] = { { 12.0f, 15.5f, 0.5f } };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 10.5f,
                         .sy = 15.5f,
                         .goal = grid_goal_point(21.5f, 15.5f),
                         .range = 12,
                         .squares = sq,
                         .square_count = 1,
                         .clearance = 0.5f };
    GridShortPoint small[2];
    GridShortPath p = { .points = small, .cap = 2 };
    cr_assert_eq(grid_short_find_path(c->s, &q, &p, NULL), NAV_OK);
    cr_assert_eq(p.flags, GRID_SHORT_FOUND | GRID_SHORT_TRUNCATED);
    cr_assert_eq(p.count, 2);
    cr_assert_eq(small[0].x, 10.5f);
    GridShortPath whole = run(c, &q, NAV_OK);
    cr_assert_gt(whole.count, 2);
    cr_assert_eq(small[1].x, whole.points[1].x);
    cr_assert_float_eq(p.length, whole.length, 1e-9);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= arguments ======= */

static void want_error(Ctx *c, const GridShortQuery *q, const char *field)
{
    GridShortPath p = { .points = c->buf, .cap = CAP };
    NavError err;
    nav_error_clear(&err);
    NavStatus st = grid_short_find_path(c->s, q, &p, &err);
    cr_assert(NAV_FAILED(st) && (st & NAV_E_PARAM), "status 0x%x for a bad %s", st, field);
    cr_assert_str_eq(err.field, field, "error names '%s', want '%s' (%s)", err.field, field, err.message);
    cr_assert_eq(p.count, 0);
}

Test(grid_short, bad_arguments_name_the_field)
{
    Ctx *c = open_field();
    GridShortSquare sq[2] = { { 5, 5, 0.5f }, { 6, 6, -1 } };
    GridShortQuery ok = { .cls = c->cls, .sx = 4.5f, .sy = 4.5f, .goal = grid_goal_point(8, 8), .range = 8 };
    GridShortQuery q = ok;
    q.cls = 7;
    want_error(c, &q, "cls");
    q = ok;
    q.sx = -3;
    want_error(c, &q, "start");
    q = ok;
    q.sy = NAN;
    want_error(c, &q, "start");
    q = ok;
    q.goal = grid_goal_circle(8, 8, -1, false);
    want_error(c, &q, "goal");
    q = ok;
    q.goal.x = INFINITY;
    want_error(c, &q, "goal");
    q = ok;
    q.range = 0;
    want_error(c, &q, "range");
    q.range = 1e6f;
    want_error(c, &q, "range");
    q = ok;
    q.clearance = -0.1f;
    want_error(c, &q, "clearance");
    q = ok;
    q.square_count = 2;
    want_error(c, &q, "squares");
    q.squares = sq;
    want_error(c, &q, "squares[1]");
    sq[1].half = 0.5f;
    sq[0].x = NAN;
    want_error(c, &q, "squares[0]");
    sq[0].x = 5;
    GridShortPath p = { .points = c->buf, .cap = CAP };
    cr_assert_eq(grid_short_find_path(c->s, &q, &p, NULL), NAV_OK);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= drawing ======= */

typedef struct EdgeCheck {
    const Ctx *c;
    int cells, squares, range, wrong;
} EdgeCheck;

static void check_edge(void *user, float ax, float ay, float bx, float by, GridShortEdgeKind kind)
{
    EdgeCheck *e = user;
    if (kind == GRID_SHORT_EDGE_SQUARE) e->squares++;
    if (kind == GRID_SHORT_EDGE_RANGE) e->range++;
    if (kind != GRID_SHORT_EDGE_CELLS) return;
    e->cells++;
    /* the passable side on the left, the impassable on the right */
    double mx = 0.5 * (ax + bx), my = 0.5 * (ay + by), len = hypot(bx - ax, by - ay);
    double nx = -(by - ay) / len * 0.25, ny = (bx - ax) / len * 0.25;
    bool left = pass_at(e->c, (int)floor(mx + nx), (int)floor(my + ny));
    bool right = pass_at(e->c, (int)floor(mx - nx), (int)floor(my - ny));
    if (!left || right || (ax != bx && ay != by)) e->wrong++;
}

Test(grid_short, visitor_sees_the_graph)
{
    Ctx *c = open_field();
    GridShortSquare sq[2] = { { 11.0f, 12.0f, 0.5f }, { 30.0f, 30.0f, 0.5f } };
    GridShortQuery q = { .cls = c->cls,
                         .sx = 10.5f,
                         .sy = 10.5f,
                         .goal = grid_goal_point(20.5f, 19.5f),
                         .range = 12,
                         .squares = sq,
                         .square_count = 2,
                         .clearance = 0.5f };
    GridShortPath p = run(c, &q, NAV_OK);
    cr_assert(p.flags & GRID_SHORT_FOUND);
    /* the block's 4 runs, the near square (the far one is out of range) */
    cr_assert_eq(p.squares, 1u);
    cr_assert_eq(p.edges, 4u + 4u);
    /* the block's 4 corners, the square's 4, the start */
    cr_assert_eq(p.vertices, 9u);
    EdgeCheck e = { .c = c };
    VertexList *l = calloc(1, sizeof *l);
    grid_short_visit(c->s, &(GridShortVisitor){ .edge = check_edge, .user = &e });
    grid_short_visit(c->s, &(GridShortVisitor){ .vertex = collect_vertex, .user = l });
    cr_assert_eq(e.cells, 4);
    cr_assert_eq(e.squares, 4);
    cr_assert_eq(e.range, 4);
    cr_assert_eq(e.wrong, 0);
    cr_assert_eq(l->n, 9);
    cr_assert_eq(l->x[0], 10.5f);
    free(l);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

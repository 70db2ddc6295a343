/*
** test_grid_layers.c — the grid's layers one at a time: terrain, clearance,
** shapes, fences, stale ids, regions, chunk sizes (helpers in
** grid_updates_support.h).
*/
#include "core/alloc.h"
#include "grid_updates_support.h"

/* {======= the layers one at a time ======= */

/* The terrain layer alone: walls and low ceilings block every class, deep
** water blocks only the class that cannot swim; outside the map is blocked. */
Test(grid_updates, terrain_layer_follows_the_legend)
{
    for (int v = 0; v < 2; v++) {
        TWorld tw;
        tw_make(&tw, 40 + 9 * v, 36, v ? 1.0 : 0.5, 77 + (uint64_t)v, NULL);
        int diffs = 0;
        char first[256] = "";
        for (int k = 0; k < tw.ncls; k++) {
            for (int y = 0; y < tw.h; y++)
                for (int x = 0; x < tw.w; x++) {
                    bool want = tw_blocked(&tw, k, x, y), got = grid_terrain_blocked(tw.grid, k, x, y);
                    if (want != got && !diffs++)
                        snprintf(first, sizeof first, "class %s (swims %d) cell (%d,%d) legend '%c': terrain_blocked %d, expected %d",
                                 classname(&tw, k), tw.swims[k], x, y, tw.cells[y * tw.w + x], got, want);
                }
            cr_expect(grid_terrain_blocked(tw.grid, k, -1, 0) && grid_terrain_blocked(tw.grid, k, tw.w, 0) &&
                          grid_terrain_blocked(tw.grid, k, 0, tw.h) && grid_terrain_blocked(tw.grid, k, 0, -1),
                      "outside the map is terrain-blocked");
            cr_expect(!grid_passable(tw.grid, k, -1, 0) && !grid_passable(tw.grid, k, tw.w, 3) &&
                          !grid_passable(tw.grid, k, 2, tw.h),
                      "outside the map is not passable");
        }
        cr_expect_eq(diffs, 0, "seed %d: %d class-cells differ; first: %s", 77 + v, diffs, first);
        tw_free(&tw);
    }
    NAV_TEST_LEAK_CHECK();
}

/* Clearance exactly at the radius keeps the cell ("at least the class's
** radius"); a hair more blocks it. */
Test(grid_updates, clearance_equal_to_the_radius_keeps_the_cell)
{
    static const struct {
        double cell, radius;
    } cases[] = { { 1.0, 0.5 }, { 1.0, 0.5001 }, { 0.5, 0.75 }, { 0.5, 0.7501 }, { 0.5, 0.25 }, { 1.0, 1.5 } };
    static const char rows[] =
        "..........\n"
        "..........\n"
        "...#......\n"
        "..........\n"
        "......##..\n"
        "..........\n"
        "..........\n";
    for (size_t c = 0; c < NAV_ARRAY_COUNT(cases); c++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "return { cell_size = %g, layers = { { z = 0, rows = [[\n%s]] } },\n"
                 "  classes = { { name = 'c', radius = %.4f } } }\n",
                 cases[c].cell, rows, cases[c].radius);
        NavError err;
        NavWorld *w = map_load_buffer(src, strlen(src), "clear.lua", NULL, &err);
        cr_assert_not_null(w, "%s", err.message);
        NavGrid *g = grid_create(w, NULL, &err);
        cr_assert_not_null(g, "%s", err.message);
        int k = grid_find_class(g, "c");
        cr_assert_geq(k, 0);
        float r = grid_class(g, k)->radius;
        double s = cases[c].cell;
        int W = grid_width(g), H = grid_height(g);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                bool wall = grid_terrain_blocked(g, k, x, y);
                double best = INFINITY, px = (x + 0.5) * s, py = (y + 0.5) * s;
                for (int j = -4; j < H + 4; j++)
                    for (int i = -4; i < W + 4; i++) {
                        bool blocked = i < 0 || j < 0 || i >= W || j >= H || grid_terrain_blocked(g, k, i, j);
                        if (blocked) best = fmin(best, oracle_dist_cell(px, py, i, j, s));
                    }
                bool want = !wall && best >= (double)r;
                cr_expect_eq(grid_passable(g, k, x, y), want,
                             "cell %.2f radius %.4f: cell (%d,%d) clearance %.6f: passable %d, expected %d", s,
                             (double)r, x, y, best, grid_passable(g, k, x, y), want);
            }
        grid_destroy(g);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* GRID_CLEARANCE_SQUARE: the Chebyshev distance from the cell's centre to
** every blocked cell's square, at 0.5 m cells (where it also equals 0 A.D.'s
** (2c+1)^2 filter with c = ceil(radius / cell)). */
Test(grid_updates, square_clearance)
{
    TWorld tw;
    tw_make(&tw, 50, 42, 0.5, 4242, &(NavGridDesc){ .clearance = GRID_CLEARANCE_SQUARE });
    cr_assert_eq(grid_clearance_mode(tw.grid), GRID_CLEARANCE_SQUARE);
    Tally t = { 0 };
    check_passable(&tw, tw.grid, NULL, &t, "square clearance", NULL);
    cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
    OracleRng r = { 9 };
    check_connectivity(&tw, tw.grid, &r, true, &t, "square clearance");
    cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
    tw_free(&tw);

    tw_make(&tw, 50, 42, 0.5, 4242, NULL);
    cr_assert_eq(grid_clearance_mode(tw.grid), GRID_CLEARANCE_ROUND, "round is the default");
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* grid_shape_blocks_cell is the corner rule with the narrow-shape
** clearance, for every class. */
Test(grid_updates, shape_blocks_cell_is_the_corner_rule)
{
    for (int v = 0; v < 2; v++) {
        TWorld tw;
        tw_make(&tw, 40, 32, v ? 1.0 : 0.5, 555 + (uint64_t)v, NULL);
        OracleRng r = { 31337 + (uint64_t)v };
        int checked = 0, close = 0, blocked = 0;
        Tally t = { 0 };
        for (int n = 0; n < 150; n++) {
            GridShape sh = random_shape(&r, &tw);
            char sb[160];
            for (int k = 0; k < tw.ncls; k++)
                for (int y = 0; y < tw.h; y++)
                    for (int x = 0; x < tw.w; x++) {
                        double mg = oracle_shape_margin(&sh, tw.s, tw.radius[k], x, y);
                        if (fabs(mg) < EPS_M) {
                            close++;
                            continue;
                        }
                        checked++;
                        bool got = grid_shape_blocks_cell(tw.grid, k, &sh, x, y), want = mg < 0;
                        blocked += want;
                        if (got != want)
                            fail(&t, "cell %.1f: shape %s class %s (radius %.2f) cell (%d,%d): blocks %d, expected %d "
                                     "(largest corner distance minus clearance %.6f m)",
                                 tw.s, shape_str(&sh, sb, sizeof sb), classname(&tw, k), tw.radius[k], x, y, got, want, mg);
                    }
        }
        cr_log_info("shape_blocks_cell, cell %.1f: %d checks (%d blocked), %d too close to call", tw.s, checked, blocked, close);
        cr_assert_gt(blocked, 1000);
        cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
        tw_free(&tw);
    }
    NAV_TEST_LEAK_CHECK();
}

/* A fence 0.05 m wide across an open room at any angle cuts it in two, for
** every class including the point one, and the room joins up again when the
** fence goes. A short fence leaves a way round. */
Test(grid_updates, narrow_fence_disconnects_at_any_angle)
{
    static const double ANGLES[] = { 0, 17, 45, 60, 90, 135, 172.5 };
    for (int v = 0; v < 2; v++) {
        double s = v ? 1.0 : 0.5;
        int n = (int)(24 / s);
        size_t cap = (size_t)(n + 1) * (size_t)n + 512;
        char *src = nav_malloc(cap);
        int len = snprintf(src, cap, "return { cell_size = %g, layers = { { z = 0, rows = [[\n", s);
        for (int y = 0; y < n; y++) {
            memset(src + len, '.', (size_t)n);
            len += n;
            src[len++] = '\n';
        }
        snprintf(src + len, cap - (size_t)len, "]] } },\n  classes = { { name = 'point', radius = 0 } } }\n");
        NavError err;
        NavWorld *w = map_load_buffer(src, strlen(src), "room.lua", NULL, &err);
        cr_assert_not_null(w, "%s", err.message);
        NavGrid *g = grid_create(w, NULL, &err);
        cr_assert_not_null(g, "%s", err.message);
        int ncls = grid_class_count(g);
        for (size_t a = 0; a < NAV_ARRAY_COUNT(ANGLES); a++) {
            double ang = ANGLES[a] * PI / 180.0;
            /* two cells 5 m either side of the fence's line */
            float nx = (float)-sin(ang), ny = (float)cos(ang);
            int ax, ay, bx, by;
            cr_assert(grid_cell_of(g, 12.0f + 5 * nx, 12.0f + 5 * ny, &ax, &ay));
            cr_assert(grid_cell_of(g, 12.0f - 5 * nx, 12.0f - 5 * ny, &bx, &by));
            for (int k = 0; k < ncls; k++)
                cr_assert(grid_reachable(g, k, ax, ay, bx, by), "cell %.1f angle %.1f: joined before the fence", s, ANGLES[a]);

            GridShape fence = { 12.0f, 12.0f, 20.0f, 0.025f, (float)ang };
            GridObstructionId id;
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &fence, &id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++) {
                cr_assert(grid_passable(g, k, ax, ay) && grid_passable(g, k, bx, by));
                cr_expect(!grid_reachable(g, k, ax, ay, bx, by),
                          "cell %.1f angle %.1f class %s: a 0.05 m fence across the room leaves (%d,%d) and (%d,%d) "
                          "connected",
                          s, ANGLES[a], grid_class(g, k)->name, ax, ay, bx, by);
                /* and the hierarchy agrees with a flood fill */
                OracleMap om = { n, n, nav_malloc((size_t)n * (size_t)n) };
                int *comp = nav_malloc(sizeof *comp * (size_t)n * (size_t)n);
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++) om.pass[y * n + x] = grid_passable(g, k, x, y);
                oracle_components(&om, comp);
                cr_expect_neq(comp[ay * n + ax], comp[by * n + bx],
                              "cell %.1f angle %.1f class %s: the rasterized fence has a gap", s, ANGLES[a],
                              grid_class(g, k)->name);
                nav_free(comp);
                nav_free(om.pass);
            }
            /* moved away: joined; moved back: cut; removed: joined */
            GridShape away = fence;
            away.x = -30.0f; /* wholly off the map, within the engine's sanity limit */
            cr_assert(NAV_SUCCEEDED(grid_move_obstruction(g, id, &away, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: the fence moved off the map still cuts", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_move_obstruction(g, id, &fence, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(!grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: the fence moved back does not cut", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "cell %.1f angle %.1f class %s: not joined after removal",
                          s, ANGLES[a], grid_class(g, k)->name);

            /* a short fence: the way round stays open */
            GridShape stub = { 12.0f, 12.0f, 3.0f, 0.025f, (float)ang };
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &stub, &id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: a 6 m fence in a 24 m room cuts it", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, id, &err)), "%s", err.message);
            cr_assert_eq(grid_obstruction_count(g), 0);
        }
        grid_destroy(g);
        world_destroy(w);
        nav_free(src);
    }
    NAV_TEST_LEAK_CHECK();
}

static void snapshot(const NavGrid *g, uint8_t *out)
{
    int w = grid_width(g), h = grid_height(g), n = 0;
    for (int k = 0; k < grid_class_count(g); k++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) out[n++] = grid_passable(g, k, x, y);
}

/* Stale handles are refused and never come back. */
Test(grid_updates, stale_ids_are_refused)
{
    TWorld tw;
    tw_make(&tw, 40, 30, 0.5, 99, NULL);
    NavGrid *g = tw.grid;
    size_t snap_len = (size_t)tw.ncls * (size_t)tw.w * (size_t)tw.h;
    uint8_t *before = nav_malloc(snap_len), *after = nav_malloc(snap_len);
    NavError err;
    GridShape a = { 5, 5, 2, 1, 0.3f }, b = { 12, 8, 1, 1, 0 };
    GridObstructionId ia, ib, ic;
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &a, &ia, &err)));
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &b, &ib, &err)));
    cr_assert_neq(ia.id, ib.id);
    cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, ia, &err)));
    snapshot(g, before);

    nav_error_clear(&err);
    cr_expect(NAV_FAILED(grid_remove_obstruction(g, ia, &err)), "removing twice succeeds");
    cr_expect(NAV_FAILED(err.status), "the error is not filled in");
    cr_expect(NAV_FAILED(grid_move_obstruction(g, ia, &b, &err)), "moving a removed id succeeds");
    GridShape out;
    cr_expect(!grid_obstruction_shape(g, ia, &out), "a removed id still has a shape");
    cr_expect_eq(grid_obstruction_count(g), 1);
    snapshot(g, after);
    cr_expect(memcmp(before, after, snap_len) == 0, "a refused change altered the grid");

    /* a new obstruction never takes the old handle */
    for (int i = 0; i < 20; i++) {
        cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &a, &ic, &err)));
        cr_expect_neq(ic.id, ia.id, "a removed id was reused");
        cr_expect(NAV_FAILED(grid_remove_obstruction(g, ia, NULL)), "the old id works again after reuse");
        cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, ic, &err)));
    }
    /* made-up handles */
    GridObstructionId bogus[] = { { 0 }, { UINT32_MAX }, { ib.id ^ 0x80000000u }, { ib.id + 1000 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bogus); i++) {
        if (bogus[i].id == ib.id) continue;
        cr_expect(NAV_FAILED(grid_remove_obstruction(g, bogus[i], NULL)), "bogus id %u removed", bogus[i].id);
        cr_expect(NAV_FAILED(grid_move_obstruction(g, bogus[i], &a, NULL)), "bogus id %u moved", bogus[i].id);
        cr_expect(!grid_obstruction_shape(g, bogus[i], &out), "bogus id %u has a shape", bogus[i].id);
    }
    cr_expect(grid_obstruction_shape(g, ib, &out), "the live id is refused");
    cr_expect_eq(grid_obstruction_count(g), 1);

    /* a bad shape is refused and changes nothing */
    snapshot(g, before);
    GridShape bad[] = { { NAN, 5, 1, 1, 0 }, { 5, INFINITY, 1, 1, 0 }, { 5, 5, NAN, 1, 0 }, { 5, 5, 1, 1, NAN } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        GridObstructionId id;
        cr_expect(NAV_FAILED(grid_add_obstruction(g, &bad[i], &id, &err)), "bad shape %zu accepted", i);
        cr_expect(NAV_FAILED(grid_move_obstruction(g, ib, &bad[i], &err)), "bad shape %zu accepted by move", i);
    }
    snapshot(g, after);
    cr_expect(memcmp(before, after, snap_len) == 0, "a refused shape altered the grid");
    cr_expect_eq(grid_obstruction_count(g), 1);

    nav_free(before);
    nav_free(after);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* grid_region_of gives a "region index" and grid_region_count the number
** of regions: an index must fit below the count (a caller that sizes an
** array by the count and indexes it by the region would overrun it). */
Test(grid_updates, region_indices_are_below_region_count)
{
    TWorld tw;
    tw_make(&tw, 48, 40, 0.5, 1001, NULL);
    int bad = 0, fx = -1, fy = -1, fk = -1, fr = -1, fc = -1;
    for (int k = 0; k < tw.ncls; k++) {
        int count = grid_region_count(tw.grid, k);
        for (int y = 0; y < tw.h; y++)
            for (int x = 0; x < tw.w; x++) {
                int reg = grid_region_of(tw.grid, k, x, y);
                if (reg >= count && !bad++) fk = k, fx = x, fy = y, fr = reg, fc = count;
            }
    }
    cr_expect_eq(bad, 0, "%d class-cells have a region index at or above grid_region_count; first: class %d cell (%d,%d) "
                         "region %d, count %d",
                 bad, fk, fx, fy, fr, fc);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* "A stale id is refused, never reused": thousands of add/remove cycles
** (which recycle the same slot) never hand out an id twice. */
Test(grid_updates, ids_never_repeat)
{
    TWorld tw;
    tw_make(&tw, 20, 20, 0.5, 6, NULL);
    enum { N = 10000 };
    uint32_t *ids = nav_malloc(sizeof *ids * N);
    GridShape sh = { 3, 3, 1, 1, 0 };
    NavError err;
    for (int i = 0; i < N; i++) {
        GridObstructionId id;
        cr_assert(NAV_SUCCEEDED(grid_add_obstruction(tw.grid, &sh, &id, &err)), "%s", err.message);
        ids[i] = id.id;
        cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(tw.grid, id, &err)), "%s", err.message);
    }
    GridObstructionId first = { ids[0] };
    cr_expect(NAV_FAILED(grid_remove_obstruction(tw.grid, first, NULL)), "the first id works again");
    /* with one obstruction live, no stale id may reach it */
    GridObstructionId live;
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(tw.grid, &sh, &live, &err)), "%s", err.message);
    int reach = 0, first_reach = -1;
    GridShape out;
    for (int i = 0; i < N; i++)
        if (grid_obstruction_shape(tw.grid, (GridObstructionId){ ids[i] }, &out) && !reach++) first_reach = i;
    cr_expect_eq(reach, 0, "%d of %d removed ids address the live obstruction (first: the id of cycle %d, 0x%08x; "
                           "the live id is 0x%08x)",
                 reach, N, first_reach, first_reach >= 0 ? ids[first_reach] : 0u, live.id);
    qsort(ids, N, sizeof *ids, cmp_u32);
    int dupes = 0;
    uint32_t dup = 0;
    for (int i = 1; i < N; i++)
        if (ids[i] == ids[i - 1] && !dupes++) dup = ids[i];
    cr_expect_eq(dupes, 0, "%d ids handed out twice in %d add/remove cycles (first: 0x%08x)", dupes, N, dup);
    nav_free(ids);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, bad_chunk_sizes_are_refused)
{
    TWorld tw;
    tw_make(&tw, 20, 20, 0.5, 5, NULL);
    static const int bad[] = { 1, 3, 17, 64, -4 };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        NavError err;
        nav_error_clear(&err);
        NavGrid *g = grid_create(tw.world, &(NavGridDesc){ .chunk_size = bad[i] }, &err);
        cr_expect_null(g, "chunk size %d accepted", bad[i]);
        if (g) grid_destroy(g);
        else cr_expect(NAV_FAILED(err.status), "chunk size %d: error not set", bad[i]);
    }
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

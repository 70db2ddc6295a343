/*
** test_grid_spread.c — bodies spread over the grid (grid_spread_bodies):
** every spot passable, dry, free for the body and in one connected part,
** bodies apart, the same spots for the same seed, fewer when the room
** runs out.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid.h"
#include "test_support.h"
#include "world/trace.h"

Test(grid_spread, spots_are_free_apart_and_connected)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    int cls = world_find_class(w, "human");
    cr_assert_geq(cls, 0);
    const NavClass *c = world_class(w, cls);
    enum { N = 100 };
    float *a = nav_malloc(3 * N * sizeof *a), *b = nav_malloc(3 * N * sizeof *b),
          *all = nav_malloc(3 * 100000 * sizeof *all);
    uint32_t n = grid_spread_bodies(g, w, cls, N, 7, a);
    cr_assert_eq(n, N, "gauntlet has room for %d bodies, got %u", N, n);
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    uint32_t comp = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        int gx, gy;
        cr_assert(grid_cell_of(g, a[3 * i], a[3 * i + 1], &gx, &gy));
        cr_assert(grid_passable(g, cls, gx, gy), "spot %u on a blocked cell", i);
        cr_assert(world_box_fits(w, mins, maxs, &a[3 * i]), "spot %u: the body does not fit", i);
        uint32_t k = grid_component(g, cls, gx, gy);
        if (i == 0) comp = k;
        cr_assert_eq(k, comp, "spot %u in another connected part", i);
        for (uint32_t j = 0; j < i; j++) {
            float d = hypotf(a[3 * i] - a[3 * j], a[3 * i + 1] - a[3 * j + 1]);
            cr_assert_geq(d, 2.0f * c->radius + 0.25f - 1e-4f, "spots %u and %u %.3f m apart", i, j, (double)d);
        }
    }
    /* The same seed, the same spots; another seed, another order. */
    cr_assert_eq(grid_spread_bodies(g, w, cls, N, 7, b), n);
    cr_assert_eq(memcmp(a, b, 3 * n * sizeof *a), 0);
    cr_assert_eq(grid_spread_bodies(g, w, cls, N, 8, b), n);
    cr_assert_neq(memcmp(a, b, 3 * n * sizeof *a), 0);
    /* Asked for more than there is room for: every spot, no more, the
    ** smaller crowd first. */
    uint32_t most = grid_spread_bodies(g, w, cls, 100000, 7, all);
    cr_assert_gt(most, N);
    cr_assert_lt(most, 100000);
    cr_assert_eq(memcmp(all, a, 3 * n * sizeof *a), 0, "a smaller crowd is not the start of a larger one");
    nav_free(a);
    nav_free(b);
    nav_free(all);
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

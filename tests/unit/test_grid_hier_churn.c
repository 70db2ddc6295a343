/*
** test_grid_hier_churn.c — components under obstruction churn on a maze
** and an open map, against a plain 4-connected flood fill.
**
** A maze of 1-cell corridors is a tree: nearly every obstruction cuts it
** in two, and removing it joins the parts again, so the incremental
** component update splits and joins on almost every change (and chunks
** hold many regions whose connections run far outside them). After every
** add and every remove the partition of the point class's passable cells
** by grid_component must be the flood fill's, cell for cell.
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/random.h"
#include "grid/grid.h"
#include "map/map.h"
#include "test_support.h"

/* 4-connected flood fill labels of the passable cells (-1 blocked). */
static int flood_labels(const NavGrid *g, int cls, int *label, int *queue)
{
    int w = grid_width(g), h = grid_height(g), n = 0;
    for (int i = 0; i < w * h; i++) label[i] = -1;
    for (int i = 0; i < w * h; i++) {
        if (label[i] >= 0 || !grid_passable(g, cls, i % w, i / w)) continue;
        int head = 0, tail = 0;
        label[i] = n;
        queue[tail++] = i;
        while (head < tail) {
            int c = queue[head++], x = c % w, y = c / w;
            static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
            for (int k = 0; k < 4; k++) {
                int nx = x + DX[k], ny = y + DY[k];
                if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                int o = ny * w + nx;
                if (label[o] >= 0 || !grid_passable(g, cls, nx, ny)) continue;
                label[o] = n;
                queue[tail++] = o;
            }
        }
        n++;
    }
    return n;
}

/* The grid's components must partition the cells as the labels do: equal
** labels, equal ids; different labels, different ids. */
static void check_partition(const NavGrid *g, int cls, const char *when, int step)
{
    int w = grid_width(g), h = grid_height(g);
    int *label = nav_malloc(sizeof(int) * (size_t)(w * h)), *queue = nav_malloc(sizeof(int) * (size_t)(w * h));
    cr_assert(label && queue);
    int n = flood_labels(g, cls, label, queue);
    uint32_t *id_of = nav_malloc(sizeof(uint32_t) * (size_t)(n + 1));
    cr_assert(id_of);
    for (int i = 0; i < n; i++) id_of[i] = UINT32_MAX;
    for (int i = 0; i < w * h; i++) {
        uint32_t c = grid_component(g, cls, i % w, i / w);
        if (label[i] < 0) {
            cr_assert_eq(c, UINT32_MAX, "%s %d: blocked cell (%d,%d) has component %u", when, step, i % w, i / w, c);
            continue;
        }
        cr_assert_neq(c, UINT32_MAX, "%s %d: passable cell (%d,%d) has no component", when, step, i % w, i / w);
        if (id_of[label[i]] == UINT32_MAX) id_of[label[i]] = c;
        cr_assert_eq(id_of[label[i]], c, "%s %d: cell (%d,%d) has component %u, its flood area has %u", when, step,
                     i % w, i / w, c, id_of[label[i]]);
    }
    /* distinct areas, distinct ids (sort-free: n is small next to cells) */
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            cr_assert_neq(id_of[a], id_of[b], "%s %d: flood areas %d and %d share component %u", when, step, a, b,
                          id_of[a]);
    nav_free(id_of);
    nav_free(label);
    nav_free(queue);
}

static void churn(const char *name, int steps, uint64_t seed)
{
    char rel[128], path[512], ebuf[512];
    snprintf(rel, sizeof rel, "movingai/%s.map", name);
    TEST_DATA_PATH(path, rel);
    NavError err;
    NavWorld *w = map_load_file(path, NULL, &err);
    cr_assert_not_null(w, "%s", nav_error_format(&err, ebuf, sizeof ebuf));
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", nav_error_format(&err, ebuf, sizeof ebuf));
    int cls = grid_find_class(g, "point");
    cr_assert_geq(cls, 0);
    uint64_t rng = seed;
    GridObstructionId live[8];
    int nlive = 0;
    for (int step = 0; step < steps; step++) {
        /* Mostly one at a time (cut, then join); now and then several
        ** stay, so joins of more than two parts happen too. */
        bool add = nlive == 0 || (nlive < 8 && nav_rand_next(&rng) % 3 != 0);
        if (add) {
            GridShape s = { .hw = 0.5f * (float)(1 + nav_rand_next(&rng) % 10),
                            .hh = 0.5f * (float)(1 + nav_rand_next(&rng) % 10),
                            .angle = (float)(nav_rand_unit(&rng) * 3.14159),
                            .x = (float)(nav_rand_unit(&rng) * grid_width(g)),
                            .y = (float)(nav_rand_unit(&rng) * grid_height(g)) };
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &s, &live[nlive++], &err)));
        } else {
            int k = (int)(nav_rand_next(&rng) % (uint64_t)nlive);
            cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, live[k], &err)));
            live[k] = live[--nlive];
        }
        check_partition(g, cls, add ? "after add" : "after remove", step);
    }
    grid_destroy(g);
    world_destroy(w);
}

Test(grid_hier_churn, maze_cut_and_joined_again) { churn("maze512-1-0", 120, 7); }
Test(grid_hier_churn, open_map_with_many_small_obstacles) { churn("random512-10-0", 60, 11); }

/*
** test_grid_liquid.c — grid passability honours liquids per class: a
** class that cannot swim never has a path into deep water; a swimmer's
** path crosses deep water where it can climb out within a step of where
** it floats, and goes round (by a ford) where the banks stand too high.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"
#include "test_support.h"

/* 40 x 21 cells of 1 m. A lake 2 m deep across the middle (cols 14-25),
** whole height but for a ford of 0.4 m with 0.25 m shoals at its ends
** (rows 1-3, the south), like valley's. Its west
** shore shelves: a beach of 0.3 m water (col 12), then 0.6 m (col 13),
** then the deep water (feet float 0.9 m under the surface for a 1.8 m
** body, 0.3 m under the 0.6 m shelf's bed). Its east shore is a bank
** 0.1 m over the surface, straight out of 2 m of water. */
static const char LAKE[] =
    "return { cell_size = 1.0, legend = {\n"
    "  ['~'] = { type = 'water', h = -0.1, depth = 2.0 },\n"
    "  [','] = { type = 'water', h = -0.1, depth = 0.4 },\n"
    "  [';'] = { type = 'water', h = -0.1, depth = 0.25 },\n"
    "  ['b'] = { type = 'water', h = -0.1, depth = 0.3 },\n"
    "  ['s'] = { type = 'water', h = -0.1, depth = 0.6 },\n"
    "}, layers = { { z = 0, rows = {\n"
    "%s"
    "} } }, classes = {\n"
    "  { name = 'swimmer', radius = 0.4 },\n"
    "  { name = 'walker', radius = 0.4, swim_speed = 0 },\n"
    "} }\n";

static NavWorld *lake_world(void)
{
    char rows[4096];
    size_t n = 0;
    for (int r = 0; r < 21; r++) {
        char line[41];
        int y = 20 - r;
        for (int x = 0; x < 40; x++) {
            char ch = '.';
            if (x == 0 || x == 39 || y == 0 || y == 20) ch = '#';
            else if (x >= 14 && x <= 24) ch = (y >= 1 && y <= 3) ? ',' : '~';
            else if (x == 25) ch = (y >= 1 && y <= 3) ? ';' : '~';
            else if (x == 12) ch = (y >= 1 && y <= 3) ? '.' : 'b';
            else if (x == 13) ch = (y >= 1 && y <= 3) ? ';' : 's';
            line[x] = ch;
        }
        line[40] = '\0';
        n += (size_t)snprintf(rows + n, sizeof rows - n, "  '%s',\n", line);
    }
    char src[8192];
    int len = snprintf(src, sizeof src, LAKE, rows);
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_lua(src, (size_t)len, "lake.lua", NULL, &err);
    cr_assert_not_null(w, "%s\n%s", err.message, src);
    return w;
}

static bool deep(const NavWorld *w, int x, int y)
{
    int n;
    const NavFloor *f = world_column(w, x, y, &n);
    return n > 0 && f[0].contents == NAV_CONTENTS_WATER && f[0].top - f[0].z > 1.0f;
}

/* Walk every cell the path's legs touch (fine sampling): how many are
** deep water, and is any impassable for the class? */
static int deep_cells_on_path(const NavGrid *g, int cls, const GridPath *p, bool *all_passable)
{
    const NavWorld *w = grid_world(g);
    int count = 0;
    *all_passable = true;
    int lastx = -1, lasty = -1;
    for (int i = 0; i + 1 < p->count; i++) {
        double ax = p->points[i].x + 0.5, ay = p->points[i].y + 0.5, bx = p->points[i + 1].x + 0.5,
               by = p->points[i + 1].y + 0.5;
        int steps = (int)(hypot(bx - ax, by - ay) * 50.0) + 1;
        for (int k = 0; k <= steps; k++) {
            double t = (double)k / steps;
            int cx = (int)floor(ax + t * (bx - ax)), cy = (int)floor(ay + t * (by - ay));
            if (cx == lastx && cy == lasty) continue;
            lastx = cx, lasty = cy;
            if (!grid_passable(g, cls, cx, cy)) *all_passable = false;
            if (deep(w, cx, cy)) count++;
        }
    }
    return count;
}

static GridPath find(GridSearch *s, int cls, int sx, int sy, int gx, int gy, GridWaypoint *buf, int cap)
{
    GridPath p = { .points = buf, .cap = cap };
    GridQuery q = { .cls = cls, .sx = sx, .sy = sy, .goal = grid_goal_point((float)gx + 0.5f, (float)gy + 0.5f) };
    cr_assert(NAV_SUCCEEDED(grid_find_path(s, &q, &p)));
    cr_assert(p.flags & GRID_PATH_FOUND, "no path from (%d,%d) to (%d,%d) for class %d", sx, sy, gx, gy, cls);
    cr_assert(!(p.flags & GRID_PATH_GOAL_MOVED), "the goal (%d,%d) moved for class %d", gx, gy, cls);
    return p;
}

Test(grid_liquid, swimmers_cross_where_they_climb_out_walkers_never_enter)
{
    NavWorld *w = lake_world();
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    GridSearch *s = grid_search_create(g, &err);
    cr_assert_not_null(s, "%s", err.message);
    int swimmer = grid_find_class(g, "swimmer"), walker = grid_find_class(g, "walker");
    GridWaypoint buf[512];

    /* Deep water: passable for the swimmer well inside the lake, never for the walker. */
    for (int y = 0; y < grid_height(g); y++)
        for (int x = 0; x < grid_width(g); x++)
            if (deep(w, x, y)) cr_assert(!grid_passable(g, walker, x, y), "deep cell (%d,%d) passable for a walker", x, y);
    cr_assert(grid_passable(g, swimmer, 19, 12), "the lake's middle is not passable for the swimmer");
    /* The east bank stands 0.9 m over a floating swimmer's feet: no way out there. */
    cr_assert(!grid_passable(g, swimmer, 25, 12) && !grid_passable(g, swimmer, 26, 12),
              "the swimmer may leave the lake onto the high east bank");
    /* The west beach shelves within a step: in and out. */
    cr_assert(grid_passable(g, swimmer, 13, 12) && grid_passable(g, swimmer, 14, 12), "no way in over the beach");

    /* West shore to the middle of the lake: the swimmer swims there. */
    GridPath p = find(s, swimmer, 5, 12, 19, 12, buf, 512);
    bool ok;
    cr_assert_gt(deep_cells_on_path(g, swimmer, &p, &ok), 3, "the swimmer's path does not swim");
    cr_assert(ok, "the swimmer's path crosses an impassable cell");
    cr_assert_lt(p.length, 16.0, "the swimmer goes round (%.1f cells)", p.length);

    /* Across the lake: both by the ford (the east bank is too high to
    ** climb out of deep water); the walker never in deep water. */
    for (int c = 0; c < 2; c++) {
        int cls = c ? walker : swimmer;
        p = find(s, cls, 5, 12, 34, 12, buf, 512);
        int n = deep_cells_on_path(g, cls, &p, &ok);
        cr_assert(ok, "class %d's path crosses an impassable cell", cls);
        if (cls == walker) cr_assert_eq(n, 0, "the walker's path enters %d deep cells", n);
        bool by_ford = false;
        for (int i = 0; i < p.count; i++) by_ford |= p.points[i].y <= 3 && p.points[i].x >= 13 && p.points[i].x <= 26;
        cr_assert(by_ford, "class %d crosses without the ford", cls);
    }
    grid_search_destroy(s);
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_liquid, valley_rivers_are_crossed_at_the_fords, .timeout = 60)
{
    /* valley's river is 2 m deep with banks 0.1 m over it: swimmers
    ** (infantry, cavalry) could drop in but not climb out, so every class
    ** crosses at a ford, and no path of any class touches deep water. */
    NavWorld *w = test_load_map("maps/valley.lua");
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    GridSearch *s = grid_search_create(g, &err);
    cr_assert_not_null(s, "%s", err.message);
    static GridWaypoint buf[4096];
    for (int cls = 0; cls < grid_class_count(g); cls++) {
        /* the west bank near the town to the east bank, between fords */
        GridPath p = { .points = buf, .cap = 4096 };
        GridQuery q = { .cls = cls, .sx = 95, .sy = 150, .goal = grid_goal_circle(165.5f, 150.5f, 4.0f, false) };
        cr_assert(NAV_SUCCEEDED(grid_find_path(s, &q, &p)));
        cr_assert(p.flags & GRID_PATH_FOUND, "%s: no path across the river", grid_class(g, cls)->name);
        bool ok;
        int n = deep_cells_on_path(g, cls, &p, &ok);
        cr_assert(ok, "%s: the path crosses an impassable cell", grid_class(g, cls)->name);
        cr_assert_eq(n, 0, "%s: the path enters %d cells of the 2 m river", grid_class(g, cls)->name, n);
        /* the shortest ford is the middle one, y 118-124 */
        bool ford = false;
        for (int i = 0; i + 1 < p.count; i++) {
            int y0 = p.points[i].y, y1 = p.points[i + 1].y;
            ford |= (y0 >= 117 && y0 <= 125) || (y1 >= 117 && y1 <= 125);
        }
        cr_assert(ford, "%s: crosses away from the middle ford", grid_class(g, cls)->name);
    }
    grid_search_destroy(s);
    grid_destroy(g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

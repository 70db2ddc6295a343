/*
** test_grid_search.c — goals and search behaviour on small maps, against
** brute force.
**
** Every search answer is checked against a Dijkstra over the grid's own
** passability (grid_passable) under the movement rule: the path must be
** legal, start at the start, end in the goal (grid_goal_contains, itself
** checked against geometry), pass no goal cell before its end, and be as
** short as the nearest goal cell. Unreachable goals must end at the
** reachable cell nearest the goal's centre, blocked starts must step out to
** the nearest passable cell. Also: node budgets, sliced searches, line of
** sight against a brute-force supercover, smoothing, truncation and bad
** arguments.
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/alloc.h"
#include "test_support.h"

#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"

#include "grid_oracle.h"

#define PI 3.14159265358979323846
#define CAP 4096
#define LEN_EPS 1e-6

/* {======= helpers ======= */

typedef struct Tally {
    int failures, checked;
    char first[900];
} Tally;

__attribute__((format(printf, 2, 3))) static void fail(Tally *t, const char *fmt, ...)
{
    if (t->failures < 6) {
        char msg[900];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (t->failures == 0) memcpy(t->first, msg, sizeof msg);
        cr_log_error("%s", msg);
    }
    t->failures++;
}

#define TALLY_OK(t) cr_assert_eq((t).failures, 0, "%d failures in %d checks; first: %s", (t).failures, (t).checked, (t).first)

static const char CLASSES[] = "classes = { { name = 'point', radius = 0 }, { name = 'wide', radius = 0.9 } }";

/* rows: north row first, each ending in '\n'. */
static NavWorld *load_rows(const char *rows, double cell, const char *classes)
{
    size_t cap = strlen(rows) + strlen(classes) + 256;
    char *src = nav_malloc(cap);
    snprintf(src, cap, "return { cell_size = %g, layers = { { z = 0, rows = [[\n%s]] } },\n  %s }\n", cell, rows, classes);
    NavError err;
    char buf[1024];
    NavWorld *w = map_load_buffer(src, strlen(src), "search.lua", NULL, &err);
    cr_assert_not_null(w, "map fails to load: %s\n%s", nav_error_format(&err, buf, sizeof buf), src);
    nav_free(src);
    return w;
}

/* A random map: '#' with the given density, a few wall runs. */
static char *random_rows(OracleRng *r, int w, int h, double density)
{
    char *cells = nav_malloc((size_t)w * (size_t)h);
    for (int i = 0; i < w * h; i++) cells[i] = orng_unit(r) < density ? '#' : '.';
    int runs = 2 + orng_int(r, 5);
    for (int i = 0; i < runs; i++) {
        int x = orng_int(r, w), y = orng_int(r, h), len = 3 + orng_int(r, w / 2);
        bool vertical = orng_int(r, 2);
        for (int k = 0; k < len; k++) {
            int cx = x + (vertical ? 0 : k), cy = y + (vertical ? k : 0);
            if (cx < w && cy < h) cells[cy * w + cx] = '#';
        }
    }
    char *rows = nav_malloc((size_t)(w + 1) * (size_t)h + 1);
    int n = 0;
    for (int y = 0; y < h; y++) {
        memcpy(rows + n, cells + (size_t)y * (size_t)w, (size_t)w);
        n += w;
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    nav_free(cells);
    return rows;
}

typedef struct SCtx {
    NavWorld *world;
    NavGrid *g;
    GridSearch *s;
    int cls;
    double cell;
    OracleMap om;     /* grid_passable(g, cls, ...) */
    double *dist;
    int *comp;
    GridWaypoint buf[CAP];
} SCtx;

static void ctx_refresh(SCtx *c)
{
    for (int y = 0; y < c->om.h; y++)
        for (int x = 0; x < c->om.w; x++) c->om.pass[y * c->om.w + x] = grid_passable(c->g, c->cls, x, y);
    oracle_components(&c->om, c->comp);
}

static SCtx *ctx_open(NavWorld *w, const char *cls)
{
    SCtx *c = nav_calloc(1, sizeof *c);
    NavError err;
    c->world = w;
    c->g = grid_create(w, NULL, &err);
    cr_assert_not_null(c->g, "grid_create: %s", err.message);
    c->s = grid_search_create(c->g, &err);
    cr_assert_not_null(c->s, "grid_search_create: %s", err.message);
    c->cls = grid_find_class(c->g, cls);
    cr_assert_geq(c->cls, 0, "no class %s", cls);
    c->cell = grid_cell_size(c->g);
    c->om.w = grid_width(c->g);
    c->om.h = grid_height(c->g);
    c->om.pass = nav_malloc((size_t)c->om.w * (size_t)c->om.h);
    c->dist = nav_malloc(sizeof *c->dist * (size_t)c->om.w * (size_t)c->om.h);
    c->comp = nav_malloc(sizeof *c->comp * (size_t)c->om.w * (size_t)c->om.h);
    ctx_refresh(c);
    return c;
}

static void ctx_close(SCtx *c)
{
    grid_search_destroy(c->s);
    grid_destroy(c->g);
    world_destroy(c->world);
    nav_free(c->om.pass);
    nav_free(c->dist);
    nav_free(c->comp);
    nav_free(c);
}

static const char *goal_str(const GridGoal *g, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s goal (%.4g, %.4g) r %.4g hw %.4g hh %.4g angle %.4g", grid_goal_type_name(g->type), g->x,
             g->y, g->r, g->hw, g->hh, g->angle);
    return buf;
}

static double centre_dist(const SCtx *c, int x, int y, const GridGoal *g)
{
    return hypot((x + 0.5) * c->cell - g->x, (y + 0.5) * c->cell - g->y);
}

/* Is any cell along the path before its last in the goal? Returns the
** first such cell's index in *at (cells walked), or -1. */
static int first_goal_cell_before_end(const SCtx *c, const GridPath *p, const GridGoal *goal, int first)
{
    int walked = 0;
    for (int i = first; i + 1 < p->count; i++) {
        int x = p->points[i].x, y = p->points[i].y;
        int sx = oracle_sign(p->points[i + 1].x - x), sy = oracle_sign(p->points[i + 1].y - y);
        while (x != p->points[i + 1].x || y != p->points[i + 1].y) {
            if (grid_goal_contains(c->g, goal, x, y)) return walked;
            x += sx;
            y += sy;
            walked++;
        }
    }
    return -1;
}

/* The core check for a search from a passable start. Returns false after
** recording the reason. */
static bool check_query(SCtx *c, const GridQuery *q, Tally *t, const char *label)
{
    char where[400], gb[200];
    snprintf(where, sizeof where, "%s: %s from (%d,%d) class %d %s", label, q->algorithm == GRID_ASTAR ? "A*" : "JPS",
             q->sx, q->sy, q->cls, goal_str(&q->goal, gb, sizeof gb));
    t->checked++;
    GridPath p = { .points = c->buf, .cap = CAP };
    NavStatus st = grid_find_path(c->s, q, &p);
    if (!NAV_SUCCEEDED(st) || (st & NAV_PARTIAL)) {
        fail(t, "%s: status 0x%x", where, st);
        return false;
    }
    if (p.flags & (GRID_PATH_TRUNCATED | GRID_PATH_PARTIAL | GRID_PATH_START_MOVED | GRID_PATH_NO_PATH)) {
        fail(t, "%s: flags 0x%x", where, p.flags);
        return false;
    }
    int start = q->sy * c->om.w + q->sx;
    oracle_dijkstra(&c->om, &start, 1, c->dist);
    double best = INFINITY;
    int cells = c->om.w * c->om.h;
    for (int i = 0; i < cells; i++)
        if (c->om.pass[i] && grid_goal_contains(c->g, &q->goal, i % c->om.w, i / c->om.w) && c->dist[i] < best)
            best = c->dist[i];

    double len;
    char why[300];
    if (p.count < 1 || p.points[0].x != q->sx || p.points[0].y != q->sy) {
        fail(t, "%s: %d waypoints, first (%d,%d)", where, p.count, p.count ? p.points[0].x : -1, p.count ? p.points[0].y : -1);
        return false;
    }
    if (!oracle_path_ok(&c->om, p.points, p.count, 0, &len, why, sizeof why)) {
        fail(t, "%s: illegal path: %s", where, why);
        return false;
    }
    if (fabs(len - p.length) > LEN_EPS) {
        fail(t, "%s: waypoints add up to %.9f, length says %.9f", where, len, p.length);
        return false;
    }
    GridWaypoint end = p.points[p.count - 1];
    int ei = end.y * c->om.w + end.x;
    if (isfinite(best)) {
        if (!(p.flags & GRID_PATH_FOUND) || (p.flags & GRID_PATH_GOAL_MOVED)) {
            fail(t, "%s: a goal cell is reachable (at %.6f) but flags are 0x%x", where, best, p.flags);
            return false;
        }
        if (!grid_goal_contains(c->g, &q->goal, end.x, end.y)) {
            fail(t, "%s: ends at (%d,%d), outside the goal", where, end.x, end.y);
            return false;
        }
        if (fabs(p.length - best) > LEN_EPS) {
            fail(t, "%s: length %.9f, the nearest goal cell is at %.9f (Dijkstra)", where, p.length, best);
            return false;
        }
        int at = first_goal_cell_before_end(c, &p, &q->goal, 0);
        if (at >= 0) {
            fail(t, "%s: the path enters the goal %d cells in, before its end", where, at);
            return false;
        }
    } else {
        /* no goal cell reachable: the reachable cell nearest the centre */
        double near = INFINITY;
        for (int i = 0; i < cells; i++)
            if (isfinite(c->dist[i])) near = fmin(near, centre_dist(c, i % c->om.w, i / c->om.w, &q->goal));
        if (!(p.flags & GRID_PATH_GOAL_MOVED)) {
            fail(t, "%s: no goal cell is reachable, flags 0x%x lack GOAL_MOVED", where, p.flags);
            return false;
        }
        if (!isfinite(c->dist[ei]) || fabs(centre_dist(c, end.x, end.y, &q->goal) - near) > 1e-4) {
            fail(t, "%s: goal moved to (%d,%d) at %.6f m from the centre; the nearest reachable cell is at %.6f m",
                 where, end.x, end.y, centre_dist(c, end.x, end.y, &q->goal), near);
            return false;
        }
        if (fabs(p.length - c->dist[ei]) > LEN_EPS) {
            fail(t, "%s: length %.9f to the moved goal (%d,%d), Dijkstra %.9f", where, p.length, end.x, end.y, c->dist[ei]);
            return false;
        }
    }
    return true;
}

static GridGoal random_goal(OracleRng *r, const SCtx *c, bool centred)
{
    double s = c->cell;
    double x = (orng_int(r, c->om.w) + 0.5) * s, y = (orng_int(r, c->om.h) + 0.5) * s;
    if (!centred) {
        x += orng_range(r, -0.5, 0.5) * s;
        y += orng_range(r, -0.5, 0.5) * s;
    }
    double rad = orng_range(r, 0.0, 6.0) * s, hw = orng_range(r, 0.1, 5.0) * s, hh = orng_range(r, 0.1, 5.0) * s;
    float ang = (float)orng_range(r, -PI, PI);
    switch (orng_int(r, 5)) {
    case 0: return grid_goal_point((float)x, (float)y);
    case 1: return grid_goal_circle((float)x, (float)y, (float)rad, false);
    case 2: return grid_goal_square((float)x, (float)y, (float)hw, (float)hh, ang, false);
    case 3: return grid_goal_circle((float)x, (float)y, (float)rad + 1.0f, true);
    default: return grid_goal_square((float)x, (float)y, (float)hw + 0.5f, (float)hh + 0.5f, ang, true);
    }
}

static int random_passable(OracleRng *r, const SCtx *c)
{
    int cells = c->om.w * c->om.h;
    for (int tries = 0; tries < 10000; tries++) {
        int i = orng_int(r, cells);
        if (c->om.pass[i]) return i;
    }
    cr_assert_fail("no passable cell");
    return -1;
}

/* }======= */

/* {======= goal shapes ======= */

Test(grid_search, goal_constructors_and_names)
{
    GridGoal p = grid_goal_point(3.5f, 4.5f);
    cr_expect_eq(p.type, GRID_GOAL_POINT);
    cr_expect(p.x == 3.5f && p.y == 4.5f);
    GridGoal c = grid_goal_circle(1, 2, 3, false), ic = grid_goal_circle(1, 2, 3, true);
    cr_expect_eq(c.type, GRID_GOAL_CIRCLE);
    cr_expect_eq(ic.type, GRID_GOAL_INV_CIRCLE);
    cr_expect(c.r == 3.0f && ic.r == 3.0f);
    GridGoal sq = grid_goal_square(1, 2, 3, 4, 0.5f, false), isq = grid_goal_square(1, 2, 3, 4, 0.5f, true);
    cr_expect_eq(sq.type, GRID_GOAL_SQUARE);
    cr_expect_eq(isq.type, GRID_GOAL_INV_SQUARE);
    cr_expect(sq.hw == 3.0f && sq.hh == 4.0f && sq.angle == 0.5f);
    for (int a = 0; a <= GRID_GOAL_INV_SQUARE; a++) {
        const char *na = grid_goal_type_name((GridGoalType)a);
        cr_expect(na && na[0], "type %d has no name", a);
        for (int b = 0; b < a; b++) cr_expect_str_neq(na, grid_goal_type_name((GridGoalType)b));
    }
    NAV_TEST_LEAK_CHECK();
}

/* grid_goal_contains against geometry: a circle holds a cell when the
** distance from its centre to the cell's square is <= r; an inverted circle
** when the farthest corner is > r; a square when the shapes touch or
** overlap; an inverted square when some corner lies outside it; a point only
** its own cell. */
Test(grid_search, goal_contains_matches_geometry)
{
    OracleRng r = { 12345 };
    for (int v = 0; v < 2; v++) {
        SCtx *c = ctx_open(load_rows("..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n"
                                     "..............................\n",
                                     v ? 0.5 : 1.0, CLASSES),
                           "point");
        Tally t = { 0 };
        int close = 0, inside = 0;
        for (int n = 0; n < 400; n++) {
            GridGoal g = random_goal(&r, c, n % 2 == 0);
            if (n % 7 == 0) g = grid_goal_square(g.x, g.y, 2.5f * (float)c->cell, 1.0f * (float)c->cell,
                                                (float)(PI / 6), n % 14 == 0); /* rotated 30 degrees */
            char gb[200];
            for (int y = 0; y < c->om.h; y++)
                for (int x = 0; x < c->om.w; x++) {
                    int want = oracle_goal_contains(&g, c->cell, x, y, 1e-4);
                    if (want == 0) {
                        close++;
                        continue;
                    }
                    t.checked++;
                    bool got = grid_goal_contains(c->g, &g, x, y);
                    inside += got;
                    if (got != (want > 0))
                        fail(&t, "cell %.1f: %s: cell (%d,%d) contained %d, geometry says %d", c->cell,
                             goal_str(&g, gb, sizeof gb), x, y, got, want > 0);
                }
        }
        cr_log_info("goal_contains, cell %.1f: %d checks (%d inside), %d too close to call", c->cell, t.checked, inside, close);
        TALLY_OK(t);
        ctx_close(c);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= goals on hand-written maps ======= */

static const char ROOMS[] =
    "########################################\n"
    "#......................#...............#\n"
    "#......................#...............#\n"
    "#......#########.......#.......#.......#\n"
    "#..............#...............#.......#\n"
    "#..............#...............#.......#\n"
    "#..............#.......#########.......#\n"
    "#######.########.......#...............#\n"
    "#......................#...............#\n"
    "#......................#..######.......#\n"
    "#...#######............#..#....#.......#\n"
    "#...#.................##..#....#.......#\n"
    "#...#.................#...#....#.......#\n"
    "#...#######...........#...######.......#\n"
    "#.....................#................#\n"
    "########################################\n";

/* The walled-off 4x3 room in ROOMS: x 27..30, y 3..5 (grid y grows north;
** the room's rows are file rows 10 to 12). */

Test(grid_search, circle_goal_ends_at_the_first_cell_inside)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    Tally t = { 0 };
    static const float GOALS[][3] = { { 35.5f, 8.5f, 3.0f }, { 20.0f, 12.0f, 2.2f }, { 6.5f, 4.5f, 0.5f }, { 12.3f, 2.7f, 4.0f },
                                      { 30.0f, 13.0f, 0.0f } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(GOALS); i++)
        for (int alg = 0; alg < 2; alg++) {
            GridGoal g = grid_goal_circle(GOALS[i][0], GOALS[i][1], GOALS[i][2], false);
            check_query(c, &(GridQuery){ .cls = c->cls, .sx = 2, .sy = 2, .goal = g, .algorithm = (GridAlgorithm)alg }, &t,
                        "circle");
            check_query(c, &(GridQuery){ .cls = c->cls, .sx = 37, .sy = 13, .goal = g, .algorithm = (GridAlgorithm)alg },
                        &t, "circle");
        }
    TALLY_OK(t);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, square_goal_rotated_30_degrees)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    Tally t = { 0 };
    static const float GOALS[][4] = { { 35.5f, 8.5f, 3.0f, 1.0f }, { 18.0f, 11.0f, 2.0f, 0.25f }, { 10.0f, 3.0f, 0.5f, 0.5f } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(GOALS); i++)
        for (int alg = 0; alg < 2; alg++) {
            GridGoal g = grid_goal_square(GOALS[i][0], GOALS[i][1], GOALS[i][2], GOALS[i][3], (float)(PI / 6), false);
            check_query(c, &(GridQuery){ .cls = c->cls, .sx = 2, .sy = 2, .goal = g, .algorithm = (GridAlgorithm)alg }, &t,
                        "square");
            check_query(c, &(GridQuery){ .cls = c->cls, .sx = 37, .sy = 1, .goal = g, .algorithm = (GridAlgorithm)alg }, &t,
                        "square");
        }
    TALLY_OK(t);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, inverted_goals_leave_the_shape)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    Tally t = { 0 };
    static const int STARTS[][2] = { { 10, 10 }, { 35, 8 }, { 18, 12 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(STARTS); i++)
        for (int alg = 0; alg < 2; alg++) {
            int sx = STARTS[i][0], sy = STARTS[i][1];
            float cx = (float)sx + 0.5f, cy = (float)sy + 0.5f;
            GridGoal goals[] = { grid_goal_circle(cx, cy, 4.0f, true), grid_goal_circle(cx + 0.3f, cy - 0.2f, 2.6f, true),
                                 grid_goal_square(cx, cy, 3.0f, 2.0f, (float)(PI / 6), true) };
            for (size_t k = 0; k < NAV_ARRAY_COUNT(goals); k++) {
                cr_assert(!grid_goal_contains(c->g, &goals[k], sx, sy), "the start must be deep inside");
                GridPath p = { .points = c->buf, .cap = CAP };
                GridQuery q = { .cls = c->cls, .sx = sx, .sy = sy, .goal = goals[k], .algorithm = (GridAlgorithm)alg };
                if (!check_query(c, &q, &t, "inverted")) continue;
                grid_find_path(c->s, &q, &p);
                cr_expect_gt(p.length, 1.0, "the path leaves the shape");
                GridWaypoint e = p.points[p.count - 1];
                char gb[200];
                cr_expect_eq(oracle_goal_contains(&goals[k], 1.0, e.x, e.y, 1e-4), 1, "%s: ends at (%d,%d), not outside",
                             goal_str(&goals[k], gb, sizeof gb), e.x, e.y);
            }
        }
    TALLY_OK(t);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, unreachable_goal_moves_to_the_nearest_reachable_cell)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    Tally t = { 0 };
    /* inside the walled-off room */
    cr_assert(c->om.pass[4 * c->om.w + 29] && !grid_reachable(c->g, c->cls, 2, 2, 29, 4), "the room is walled off");
    GridGoal goals[] = { grid_goal_point(29.5f, 4.5f), grid_goal_point(30.5f, 3.5f), grid_goal_circle(29.5f, 4.5f, 0.9f, false),
                         grid_goal_square(29.0f, 4.0f, 1.0f, 0.5f, 0.0f, false) };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(goals); i++)
        for (int alg = 0; alg < 2; alg++) {
            GridQuery q = { .cls = c->cls, .sx = 2, .sy = 2, .goal = goals[i], .algorithm = (GridAlgorithm)alg };
            check_query(c, &q, &t, "walled off");
            GridPath p = { .points = c->buf, .cap = CAP };
            grid_find_path(c->s, &q, &p);
            cr_expect(p.flags & GRID_PATH_GOAL_MOVED, "goal %zu: flags 0x%x", i, p.flags);
        }
    /* a goal on a wall cell is unreachable too */
    GridQuery q = { .cls = c->cls, .sx = 2, .sy = 2, .goal = grid_goal_point(8.5f, 12.5f) };
    cr_assert(!c->om.pass[12 * c->om.w + 8]);
    check_query(c, &q, &t, "goal on a wall");
    TALLY_OK(t);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, blocked_start_steps_out_first)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    static const int STARTS[][2] = { { 10, 12 }, { 0, 0 }, { 23, 8 }, { 15, 9 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(STARTS); i++)
        for (int alg = 0; alg < 2; alg++) {
            int sx = STARTS[i][0], sy = STARTS[i][1];
            cr_assert(!c->om.pass[sy * c->om.w + sx], "start %zu must be blocked", i);
            GridQuery q = { .cls = c->cls, .sx = sx, .sy = sy, .goal = grid_goal_point(36.5f, 2.5f), .algorithm = (GridAlgorithm)alg };
            GridPath p = { .points = c->buf, .cap = CAP };
            NavStatus st = grid_find_path(c->s, &q, &p);
            cr_assert(NAV_SUCCEEDED(st), "start (%d,%d): status 0x%x", sx, sy, st);
            cr_expect(p.flags & GRID_PATH_START_MOVED, "start (%d,%d): flags 0x%x", sx, sy, p.flags);
            cr_expect(p.flags & GRID_PATH_FOUND, "start (%d,%d): flags 0x%x", sx, sy, p.flags);
            cr_assert_geq(p.count, 2);
            cr_expect(p.points[0].x == sx && p.points[0].y == sy, "the path starts at the blocked start");
            /* the second point: the nearest passable cell (centres, ties lower y then lower x) */
            long best = -1;
            int bx = -1, by = -1;
            for (int y = 0; y < c->om.h; y++)
                for (int x = 0; x < c->om.w; x++) {
                    if (!c->om.pass[y * c->om.w + x]) continue;
                    long d = (long)(x - sx) * (x - sx) + (long)(y - sy) * (y - sy);
                    if (best < 0 || d < best) best = d, bx = x, by = y;
                }
            GridWaypoint out = p.points[1];
            long d = (long)(out.x - sx) * (out.x - sx) + (long)(out.y - sy) * (out.y - sy);
            cr_expect(om_pass(&c->om, out.x, out.y) && d == best,
                      "start (%d,%d): steps out to (%d,%d) (squared distance %ld), the nearest passable cell is (%d,%d) at %ld",
                      sx, sy, out.x, out.y, d, bx, by, best);
            cr_expect(out.x == bx && out.y == by, "start (%d,%d): steps out to (%d,%d), grid.h's tie rule gives (%d,%d)", sx, sy,
                      out.x, out.y, bx, by);
            /* the rest: legal and optimal from there */
            char why[300];
            double len;
            cr_expect(oracle_path_ok(&c->om, p.points, p.count, 1, &len, why, sizeof why), "start (%d,%d): %s", sx, sy, why);
            int from = out.y * c->om.w + out.x;
            oracle_dijkstra(&c->om, &from, 1, c->dist);
            cr_expect(fabs(len - c->dist[2 * c->om.w + 36]) < LEN_EPS, "start (%d,%d): the rest is %.6f long, Dijkstra %.6f", sx,
                      sy, len, c->dist[2 * c->om.w + 36]);
            GridWaypoint e = p.points[p.count - 1];
            cr_expect(e.x == 36 && e.y == 2, "ends at (%d,%d)", e.x, e.y);
        }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, start_equals_goal)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    for (int alg = 0; alg < 2; alg++) {
        GridPath p = { .points = c->buf, .cap = CAP };
        GridQuery q = { .cls = c->cls, .sx = 2, .sy = 5, .goal = grid_goal_point(2.5f, 5.5f), .algorithm = (GridAlgorithm)alg };
        cr_assert(NAV_SUCCEEDED(grid_find_path(c->s, &q, &p)));
        cr_expect(p.flags & GRID_PATH_FOUND);
        cr_expect_eq(p.length, 0.0);
        cr_assert_geq(p.count, 1);
        for (int i = 0; i < p.count; i++) cr_expect(p.points[i].x == 2 && p.points[i].y == 5);
    }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* A class with no passable cell anywhere. */
Test(grid_search, nowhere_to_go)
{
    SCtx *c = ctx_open(load_rows("........\n........\n........\n........\n", 1.0,
                                 "classes = { { name = 'point', radius = 0 }, { name = 'giant', radius = 5 } }"),
                       "giant");
    for (int y = 0; y < c->om.h; y++)
        for (int x = 0; x < c->om.w; x++) cr_assert(!c->om.pass[y * c->om.w + x]);
    int ox, oy;
    cr_expect(!grid_nearest_passable(c->g, c->cls, 3, 2, &ox, &oy));
    for (int alg = 0; alg < 2; alg++) {
        GridPath p = { .points = c->buf, .cap = CAP };
        GridQuery q = { .cls = c->cls, .sx = 1, .sy = 1, .goal = grid_goal_point(6.5f, 2.5f), .algorithm = (GridAlgorithm)alg };
        NavStatus st = grid_find_path(c->s, &q, &p);
        cr_expect(NAV_SUCCEEDED(st), "status 0x%x", st);
        cr_expect(p.flags & GRID_PATH_NO_PATH, "flags 0x%x", p.flags);
        cr_expect(!(p.flags & GRID_PATH_FOUND), "flags 0x%x", p.flags);
    }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= random maps against Dijkstra ======= */

static SCtx *random_ctx(OracleRng *r, int w, int h, double density, double cell, const char *cls)
{
    char *rows = random_rows(r, w, h, density);
    SCtx *c = ctx_open(load_rows(rows, cell, CLASSES), cls);
    nav_free(rows);
    return c;
}

Test(grid_search, jps_and_astar_equal_dijkstra_on_random_maps)
{
    OracleRng r = { 777 };
    static const struct {
        int w, h;
        double density, cell;
        const char *cls;
        int obstructions;
    } MAPS[] = {
        { 40, 30, 0.10, 1.0, "point", 0 }, { 48, 36, 0.25, 1.0, "point", 0 }, { 36, 36, 0.33, 1.0, "point", 0 },
        { 64, 48, 0.08, 0.5, "human", 6 }, { 50, 40, 0.15, 0.5, "wide", 4 },  { 70, 20, 0.30, 1.0, "point", 8 },
    };
    Tally t = { 0 };
    int reachable = 0, moved = 0;
    for (size_t m = 0; m < NAV_ARRAY_COUNT(MAPS); m++) {
        SCtx *c = random_ctx(&r, MAPS[m].w, MAPS[m].h, MAPS[m].density, MAPS[m].cell, MAPS[m].cls);
        for (int k = 0; k < MAPS[m].obstructions; k++) {
            GridShape sh = { (float)orng_range(&r, 0, MAPS[m].w * MAPS[m].cell), (float)orng_range(&r, 0, MAPS[m].h * MAPS[m].cell),
                             (float)orng_range(&r, 0.02, 4), (float)orng_range(&r, 0.02, 1.5), (float)orng_range(&r, -PI, PI) };
            GridObstructionId id;
            NavError err;
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(c->g, &sh, &id, &err)), "%s", err.message);
        }
        ctx_refresh(c);
        char label[64];
        snprintf(label, sizeof label, "random map %zu", m);
        for (int n = 0; n < 120; n++) {
            int a = random_passable(&r, c);
            GridGoal goal;
            if (n % 4 == 3) {
                goal = random_goal(&r, c, true);
            } else {
                int b = n % 8 == 1 ? orng_int(&r, c->om.w * c->om.h) : random_passable(&r, c); /* sometimes a wall */
                goal = grid_goal_point((float)((b % c->om.w + 0.5) * c->cell), (float)((b / c->om.w + 0.5) * c->cell));
            }
            double lens[2] = { -1, -2 };
            for (int alg = 0; alg < 2; alg++) {
                GridQuery q = { .cls = c->cls, .sx = a % c->om.w, .sy = a / c->om.w, .goal = goal, .algorithm = (GridAlgorithm)alg };
                if (check_query(c, &q, &t, label)) {
                    GridPath p = { .points = c->buf, .cap = CAP };
                    grid_find_path(c->s, &q, &p);
                    lens[alg] = p.length;
                    if (alg == 0) {
                        if (p.flags & GRID_PATH_GOAL_MOVED) moved++;
                        else reachable++;
                    }
                }
            }
            if (lens[0] >= 0 && lens[1] >= 0 && fabs(lens[0] - lens[1]) > LEN_EPS)
                fail(&t, "%s: JPS %.9f and A* %.9f differ", label, lens[0], lens[1]);
        }
        ctx_close(c);
    }
    cr_log_info("jps/astar vs dijkstra: %d queries checked, %d reached the goal, %d moved it", t.checked, reachable, moved);
    TALLY_OK(t);
    cr_assert_gt(moved, 10, "too few unreachable goals to mean anything");
    NAV_TEST_LEAK_CHECK();
}

/* The same query in slices of 1, 3 and 10 expansions gives exactly the
** whole search's answer. */
Test(grid_search, sliced_search_equals_whole_search)
{
    OracleRng r = { 4711 };
    Tally t = { 0 };
    GridWaypoint *whole = nav_malloc(sizeof *whole * CAP);
    for (int m = 0; m < 3; m++) {
        SCtx *c = random_ctx(&r, 48 + 8 * m, 40, 0.12 + 0.1 * m, 1.0, "point");
        for (int n = 0; n < 25; n++) {
            int a = random_passable(&r, c);
            GridGoal goal = n % 3 ? grid_goal_point((float)(random_passable(&r, c) % c->om.w) + 0.5f,
                                                    (float)(random_passable(&r, c) / c->om.w) + 0.5f)
                                  : random_goal(&r, c, true);
            for (int alg = 0; alg < 2; alg++) {
                GridQuery q = { .cls = c->cls, .sx = a % c->om.w, .sy = a / c->om.w, .goal = goal, .algorithm = (GridAlgorithm)alg };
                GridPath wp = { .points = whole, .cap = CAP };
                NavStatus ws = grid_find_path(c->s, &q, &wp);
                cr_assert(NAV_SUCCEEDED(ws));
                static const uint32_t BUDGETS[] = { 1, 3, 10 };
                for (size_t b = 0; b < NAV_ARRAY_COUNT(BUDGETS); b++) {
                    t.checked++;
                    NavStatus st = grid_search_begin(c->s, &q);
                    if (NAV_FAILED(st)) {
                        fail(&t, "map %d query %d: grid_search_begin 0x%x", m, n, st);
                        continue;
                    }
                    int steps = 0;
                    do {
                        st = grid_search_step(c->s, BUDGETS[b]);
                        steps++;
                    } while ((st & NAV_IN_PROGRESS) && steps < 1000000);
                    GridPath sp = { .points = c->buf, .cap = CAP };
                    NavStatus es = grid_search_end(c->s, &sp);
                    char gb[200];
                    if (NAV_FAILED(st) || NAV_FAILED(es) || sp.count != wp.count || sp.length != wp.length ||
                        sp.flags != wp.flags || memcmp(sp.points, wp.points, sizeof *whole * (size_t)wp.count) != 0)
                        fail(&t, "map %d %s from (%d,%d) to %s, budget %u: sliced (status 0x%x/0x%x, %d points, %.6f, flags 0x%x) "
                                 "vs whole (%d points, %.6f, flags 0x%x)",
                             m, alg ? "A*" : "JPS", q.sx, q.sy, goal_str(&goal, gb, sizeof gb), BUDGETS[b], st, es, sp.count,
                             sp.length, sp.flags, wp.count, wp.length, wp.flags);
                    else if ((uint64_t)steps * BUDGETS[b] < sp.expanded)
                        fail(&t, "map %d query %d budget %u: %d steps expanded %u nodes", m, n, BUDGETS[b], steps, sp.expanded);
                }
            }
        }
        ctx_close(c);
    }
    nav_free(whole);
    TALLY_OK(t);
    NAV_TEST_LEAK_CHECK();
}

/* A node budget stops the search early with a partial path toward the goal. */
Test(grid_search, node_budget_gives_a_partial_path)
{
    OracleRng r = { 99 };
    SCtx *c = random_ctx(&r, 64, 64, 0.2, 1.0, "point");
    int a = -1, b = -1;
    for (int y = 0; y < 8 && a < 0; y++)
        for (int x = 0; x < 8 && a < 0; x++)
            if (c->om.pass[y * 64 + x]) a = y * 64 + x;
    for (int y = 63; y > 55 && b < 0; y--)
        for (int x = 63; x > 55 && b < 0; x--)
            if (c->om.pass[y * 64 + x] && c->comp[y * 64 + x] == c->comp[a]) b = y * 64 + x;
    cr_assert(a >= 0 && b >= 0, "no far connected pair in this map");
    int sx = a % 64, sy = a / 64, gx = b % 64, gy = b / 64;
    for (int alg = 0; alg < 2; alg++) {
        for (uint32_t budget = 1; budget <= 9; budget += 4) {
            GridQuery q = { .cls = c->cls, .sx = sx, .sy = sy, .goal = grid_goal_point(gx + 0.5f, gy + 0.5f),
                            .algorithm = (GridAlgorithm)alg, .max_nodes = budget };
            GridPath p = { .points = c->buf, .cap = CAP };
            NavStatus st = grid_find_path(c->s, &q, &p);
            cr_expect(NAV_SUCCEEDED(st) && (st & NAV_PARTIAL), "%s budget %u: status 0x%x", alg ? "A*" : "JPS", budget, st);
            cr_expect(p.flags & GRID_PATH_PARTIAL, "budget %u: flags 0x%x", budget, p.flags);
            cr_expect(!(p.flags & GRID_PATH_FOUND), "budget %u: flags 0x%x", budget, p.flags);
            cr_expect_leq(p.expanded, budget, "budget %u: expanded %u", budget, p.expanded);
            char why[300];
            double len;
            cr_assert_geq(p.count, 1);
            cr_expect(p.points[0].x == sx && p.points[0].y == sy);
            cr_expect(oracle_path_ok(&c->om, p.points, p.count, 0, &len, why, sizeof why), "budget %u: %s", budget, why);
            cr_expect(fabs(len - p.length) < LEN_EPS);
            GridWaypoint e = p.points[p.count - 1];
            double h_end = oracle_octile(gx - e.x, gy - e.y), h_start = oracle_octile(gx - sx, gy - sy);
            double d_end = hypot(gx - e.x, gy - e.y), d_start = hypot(gx - sx, gy - sy);
            cr_expect(h_end <= h_start + 1e-9 || d_end <= d_start + 1e-9,
                      "budget %u: the partial path ends at (%d,%d), farther from the goal than the start", budget, e.x, e.y);
        }
        GridQuery q = { .cls = c->cls, .sx = sx, .sy = sy, .goal = grid_goal_point(gx + 0.5f, gy + 0.5f),
                        .algorithm = (GridAlgorithm)alg, .max_nodes = 1000000 };
        Tally t = { 0 };
        check_query(c, &q, &t, "large budget");
        TALLY_OK(t);
    }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= line of sight, smoothing, truncation ======= */

Test(grid_search, line_clear_matches_a_supercover)
{
    OracleRng r = { 2024 };
    int checked = 0, clear = 0, corner_cases = 0, loose_agrees = 0;
    Tally t = { 0 };
    for (int m = 0; m < 4; m++) {
        SCtx *c = random_ctx(&r, 40, 32, 0.06 + 0.08 * m, 1.0, "point");
        for (int n = 0; n < 2500; n++) {
            int ax = orng_int(&r, c->om.w), ay = orng_int(&r, c->om.h), bx, by;
            int kind = n % 5, len = 1 + orng_int(&r, 14);
            int sx = orng_int(&r, 2) ? 1 : -1, sy = orng_int(&r, 2) ? 1 : -1;
            if (kind == 0) bx = ax + sx * len, by = ay + sy * len;                                   /* diagonal */
            else if (kind == 1) bx = ax + sx * len, by = ay;                                         /* straight */
            else if (kind == 2) bx = ax + sx * (2 * orng_int(&r, 6) + 1), by = ay + sy * (2 * orng_int(&r, 6) + 1); /* via corners */
            else bx = ax + orng_int(&r, 31) - 15, by = ay + orng_int(&r, 31) - 15;
            if (bx < 0 || by < 0 || bx >= c->om.w || by >= c->om.h) continue;
            bool corner_only;
            bool want = oracle_line_clear(&c->om, ax, ay, bx, by, &corner_only);
            bool got = grid_line_clear(c->g, c->cls, ax, ay, bx, by);
            checked++;
            clear += want;
            corner_cases += corner_only;
            if (got != want) {
                if (corner_only) loose_agrees++;
                fail(&t, "grid_line_clear (%d,%d)->(%d,%d) is %d, the supercover says %d%s", ax, ay, bx, by, got, want,
                     corner_only ? " (the line only grazes the corner of a blocked cell, with the diagonal cell across "
                                   "that corner free)"
                                 : "");
            }
            /* a legal straight or diagonal segment is always in sight, and the
            ** other way round for those directions */
            if (bx - ax == 0 || by - ay == 0 || abs(bx - ax) == abs(by - ay)) {
                char why[300];
                bool legal = oracle_segment_ok(&c->om, ax, ay, bx, by, why, sizeof why);
                if (legal != want)
                    fail(&t, "oracle self-check: segment (%d,%d)->(%d,%d) legal %d, supercover %d", ax, ay, bx, by, legal, want);
            }
        }
        ctx_close(c);
    }
    cr_log_info("line_clear: %d lines, %d clear, %d graze only a corner; %d mismatches, %d of them corner grazes", checked,
                clear, corner_cases, t.failures, loose_agrees);
    cr_assert_gt(clear, 500);
    cr_assert_gt(corner_cases, 20);
    cr_assert_eq(t.failures, 0,
                 "%d mismatches (%d where the line only grazes a blocked cell's corner, with the other cell at that "
                 "corner free); first: %s",
                 t.failures, loose_agrees, t.first);
    NAV_TEST_LEAK_CHECK();
}

static double euclid_len(const GridWaypoint *p, int n)
{
    double s = 0;
    for (int i = 0; i + 1 < n; i++) s += hypot(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
    return s;
}

Test(grid_search, smoothing_keeps_sight_and_never_lengthens)
{
    OracleRng r = { 31 };
    Tally t = { 0 };
    GridWaypoint *orig = nav_malloc(sizeof *orig * CAP);
    for (int m = 0; m < 3; m++) {
        SCtx *c = random_ctx(&r, 56, 44, 0.08 + 0.1 * m, 1.0, "point");
        for (int n = 0; n < 80; n++) {
            int a = random_passable(&r, c), b = random_passable(&r, c);
            GridQuery q = { .cls = c->cls, .sx = a % c->om.w, .sy = a / c->om.w,
                            .goal = grid_goal_point((float)(b % c->om.w) + 0.5f, (float)(b / c->om.w) + 0.5f),
                            .algorithm = (GridAlgorithm)(n % 2) };
            GridPath p = { .points = c->buf, .cap = CAP };
            cr_assert(NAV_SUCCEEDED(grid_find_path(c->s, &q, &p)));
            t.checked++;
            if (fabs(grid_path_length(p.points, p.count) - p.length) > LEN_EPS)
                fail(&t, "grid_path_length %.9f, path.length %.9f", grid_path_length(p.points, p.count), p.length);
            int n0 = p.count;
            memcpy(orig, p.points, sizeof *orig * (size_t)n0);
            double before = euclid_len(orig, n0), after = -1;
            int n1 = grid_smooth_path(c->g, c->cls, p.points, p.count, &after);
            if (n1 < 1 || n1 > n0) {
                fail(&t, "smoothing %d points gave %d", n0, n1);
                continue;
            }
            if (p.points[0].x != orig[0].x || p.points[0].y != orig[0].y || p.points[n1 - 1].x != orig[n0 - 1].x ||
                p.points[n1 - 1].y != orig[n0 - 1].y)
                fail(&t, "smoothing moved an end of the path");
            /* a subsequence of the original */
            int j = 0;
            for (int i = 0; i < n1; i++) {
                while (j < n0 && (orig[j].x != p.points[i].x || orig[j].y != p.points[i].y)) j++;
                if (j == n0) {
                    fail(&t, "smoothed point %d (%d,%d) is not a waypoint of the path, in order", i, p.points[i].x, p.points[i].y);
                    break;
                }
                j++;
            }
            for (int i = 0; i + 1 < n1; i++)
                if (!grid_line_clear(c->g, c->cls, p.points[i].x, p.points[i].y, p.points[i + 1].x, p.points[i + 1].y))
                    fail(&t, "smoothed leg (%d,%d)->(%d,%d) has no line of sight", p.points[i].x, p.points[i].y,
                         p.points[i + 1].x, p.points[i + 1].y);
            double mine = euclid_len(p.points, n1);
            if (fabs(mine - after) > 1e-6) fail(&t, "smoothing reports length %.9f, its points add up to %.9f", after, mine);
            if (mine > before + 1e-9) fail(&t, "smoothing lengthened the path: %.9f -> %.9f", before, mine);
            /* no length pointer: same points */
            memcpy(p.points, orig, sizeof *orig * (size_t)n0);
            if (grid_smooth_path(c->g, c->cls, p.points, n0, NULL) != n1) fail(&t, "smoothing without a length pointer differs");
        }
        ctx_close(c);
    }
    nav_free(orig);
    TALLY_OK(t);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_search, a_small_buffer_truncates)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    GridWaypoint full[CAP];
    GridQuery q = { .cls = c->cls, .sx = 1, .sy = 1, .goal = grid_goal_point(29.5f, 11.5f) };
    GridPath p = { .points = full, .cap = CAP };
    cr_assert(NAV_SUCCEEDED(grid_find_path(c->s, &q, &p)));
    cr_assert_gt(p.count, 3, "the test needs a path with turns");
    GridWaypoint small[3];
    GridPath sp = { .points = small, .cap = 2 };
    cr_assert(NAV_SUCCEEDED(grid_find_path(c->s, &q, &sp)));
    cr_expect(sp.flags & GRID_PATH_TRUNCATED, "flags 0x%x", sp.flags);
    cr_expect_eq(sp.count, 2);
    cr_expect(memcmp(small, full, sizeof small[0] * 2) == 0, "a truncated path holds the first points");
    cr_expect(fabs(sp.length - p.length) < LEN_EPS, "truncation keeps the full length");
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

typedef struct VisitCount {
    int w, h, visited, closed, out_of_map, dupes;
    uint8_t *seen;
} VisitCount;

static void count_visit(void *user, int x, int y, bool closed)
{
    VisitCount *v = user;
    if (x < 0 || y < 0 || x >= v->w || y >= v->h) {
        v->out_of_map++;
        return;
    }
    if (v->seen[y * v->w + x]++) v->dupes++;
    v->visited++;
    v->closed += closed;
}

Test(grid_search, visit_reports_the_last_search)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    for (int alg = 0; alg < 2; alg++) {
        GridQuery q = { .cls = c->cls, .sx = 1, .sy = 1, .goal = grid_goal_point(37.5f, 13.5f), .algorithm = (GridAlgorithm)alg };
        GridPath p = { .points = c->buf, .cap = CAP };
        cr_assert(NAV_SUCCEEDED(grid_find_path(c->s, &q, &p)));
        VisitCount v = { c->om.w, c->om.h, 0, 0, 0, 0, nav_calloc((size_t)c->om.w * (size_t)c->om.h, 1) };
        grid_search_visit(c->s, count_visit, &v);
        cr_expect_eq(v.out_of_map, 0);
        cr_expect_eq(v.dupes, 0, "a cell visited twice");
        cr_expect_eq((uint32_t)v.visited, p.touched, "%s: visited %d cells, the path says %u touched", alg ? "A*" : "JPS",
                     v.visited, p.touched);
        cr_expect_gt(v.closed, 0);
        cr_expect_leq(v.closed, v.visited);
        cr_expect(v.seen[1 * c->om.w + 1], "the start is not among the visited cells");
        nav_free(v.seen);
    }
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= bad arguments ======= */

Test(grid_search, bad_arguments_fail_cleanly)
{
    SCtx *c = ctx_open(load_rows(ROOMS, 1.0, CLASSES), "point");
    int W = c->om.w, H = c->om.h, ncls = grid_class_count(c->g);
    GridGoal ok_goal = grid_goal_point(5.5f, 5.5f);
    GridQuery bad[] = {
        { .cls = -1, .sx = 2, .sy = 2, .goal = ok_goal },
        { .cls = ncls, .sx = 2, .sy = 2, .goal = ok_goal },
        { .cls = 1000, .sx = 2, .sy = 2, .goal = ok_goal },
        { .cls = 0, .sx = -1, .sy = 2, .goal = ok_goal },
        { .cls = 0, .sx = 2, .sy = -1, .goal = ok_goal },
        { .cls = 0, .sx = W, .sy = 2, .goal = ok_goal },
        { .cls = 0, .sx = 2, .sy = H, .goal = ok_goal },
        { .cls = 0, .sx = 1 << 30, .sy = 1 << 30, .goal = ok_goal },
        { .cls = 0, .sx = 2, .sy = 2, .goal = grid_goal_point(NAN, 3.0f) },
        { .cls = 0, .sx = 2, .sy = 2, .goal = grid_goal_circle(3.0f, 3.0f, NAN, false) },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++)
        for (int alg = 0; alg < 2; alg++) {
            bad[i].algorithm = (GridAlgorithm)alg;
            GridPath p = { .points = c->buf, .cap = CAP };
            cr_expect(NAV_FAILED(grid_find_path(c->s, &bad[i], &p)), "bad query %zu accepted by grid_find_path", i);
            cr_expect(NAV_FAILED(grid_search_begin(c->s, &bad[i])), "bad query %zu accepted by grid_search_begin", i);
        }
    /* a good query still works after the bad ones */
    Tally t = { 0 };
    check_query(c, &(GridQuery){ .cls = c->cls, .sx = 2, .sy = 2, .goal = grid_goal_point(36.5f, 12.5f) }, &t, "after bad");
    TALLY_OK(t);
    /* out-of-range cells elsewhere: answers, no crash */
    cr_expect(!grid_line_clear(c->g, c->cls, -1, 2, 5, 2));
    cr_expect(!grid_line_clear(c->g, c->cls, 2, 2, W + 3, 2));
    cr_expect(!grid_line_clear(c->g, -1, 2, 2, 3, 2));
    cr_expect(!grid_line_clear(c->g, ncls, 2, 2, 3, 2));
    cr_expect(!grid_passable(c->g, -1, 2, 2));
    cr_expect(!grid_passable(c->g, ncls, 2, 2));
    cr_expect(!grid_reachable(c->g, c->cls, -1, 0, 2, 2));
    cr_expect(!grid_reachable(c->g, ncls, 2, 2, 2, 2));
    cr_expect_eq(grid_component(c->g, c->cls, W, 0), UINT32_MAX);
    cr_expect_eq(grid_region_of(c->g, c->cls, -1, -1), -1);
    cr_expect(!grid_goal_contains(c->g, &ok_goal, -1, 5));
    cr_expect_eq(grid_find_class(c->g, "no such class"), -1);
    ctx_close(c);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

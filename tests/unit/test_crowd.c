/*
** test_crowd.c — grid paths in the simulation (sim_grid.c), their Lua
** bindings (nav_api_grid.c), the RTS crowd brain (bots/rts.lua) and
** `navbot bench crowd`: waypoints checked against the grid itself,
** obstacles, locked doors and pushed crates as obstructions, a crowd of 200
** that never overlaps or faults, determinism, and Lua errors (not crashes)
** for wrong arguments. Nothing here depends on timing.
**
** Maps are read relative to the repository root, where the tests run.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "script/nav_api.h"
#include "lua/sandbox.h"
#include "script/session.h"
#include "test_support.h"

/* {======= a sim with the nav module in a sandbox ======= */

typedef struct Fixture {
    NavWorld *w;
    NavSim *sim;
    Sandbox *sb;
} Fixture;

static Fixture setup_world(NavWorld *w)
{
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = w;
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 5 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb, "%s", err.message);
    nav_api_open(sandbox_state(f.sb), f.sim);
    return f;
}

static Fixture setup(const char *map) { return setup_world(test_load_map(map)); }

static void teardown(Fixture *f)
{
    sandbox_destroy(f->sb);
    sim_destroy(f->sim);
    world_destroy(f->w);
}

/* Runs code, which must succeed, leaving its one result on the stack
** (alone). */
static lua_State *run(Fixture *f, const char *code)
{
    NavError err;
    nav_error_clear(&err);
    lua_State *L = sandbox_state(f->sb);
    lua_settop(L, 0);
    cr_assert(NAV_SUCCEEDED(sandbox_load(f->sb, code, strlen(code), "=test", &err)), "%s", err.message);
    cr_assert(NAV_SUCCEEDED(sandbox_call(f->sb, 0, 1, &err)), "%s\n--- in:\n%s", err.message, code);
    return L;
}

static const char *run_string(Fixture *f, const char *code)
{
    lua_State *L = run(f, code);
    cr_assert(lua_type(L, -1) == LUA_TSTRING, "expected a string from:\n%s", code);
    return lua_tostring(L, -1);
}

static int add_bot(Fixture *f, const char *cls, float x, float y)
{
    NavError err;
    nav_error_clear(&err);
    int c = world_find_class(f->w, cls);
    cr_assert_geq(c, 0, "no class %s", cls);
    /* Onto the centre of the nearest cell the class may stand on. */
    const NavGrid *g = sim_grid(f->sim, &err);
    cr_assert_not_null(g, "%s", err.message);
    int cx, cy;
    cr_assert(grid_cell_of(g, x, y, &cx, &cy));
    cr_assert(grid_nearest_passable(g, c, cx, cy, &cx, &cy));
    grid_cell_center(g, cx, cy, &x, &y);
    int floors;
    const NavFloor *fl = world_column(f->w, cx, cy, &floors);
    cr_assert_gt(floors, 0);
    int id = sim_add_bot(f->sim, &(NavBotDesc){ .cls = c, .pos = { x, y, fl->z } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    return id;
}

#define MAX_POINTS 2048

/* nav.grid_path from Lua for bot id, read into xy (pairs); returns the
** count of points and the `how` in how (or -1 and the reason). */
static int lua_path(Fixture *f, int id, float gx, float gy, const char *opts, float *xy, char *how, size_t how_cap)
{
    char code[512];
    snprintf(code, sizeof code, "local p, how = nav.grid_path(nav.bot(%d), %.3f, %.3f, %s) return {p, how}", id,
             (double)gx, (double)gy, opts ? opts : "nil");
    lua_State *L = run(f, code);
    lua_rawgeti(L, -1, 2);
    snprintf(how, how_cap, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
    if (lua_rawgeti(L, -1, 1) != LUA_TTABLE) return -1;
    lua_Integer n = luaL_len(L, -1);
    cr_assert_eq(n % 2, 0, "a flat list of x, y pairs");
    cr_assert_leq(n, 2 * MAX_POINTS);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        xy[i - 1] = (float)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    return (int)(n / 2);
}

/* Every cell a segment crosses is passable for cls: points along it, a
** hundredth of a cell apart, each in a passable cell. */
static void check_segment(const NavGrid *g, int cls, float ax, float ay, float bx, float by)
{
    float cs = grid_cell_size(g);
    float len = hypotf(bx - ax, by - ay);
    int steps = (int)ceilf(len / (0.01f * cs)) + 1;
    for (int s = 0; s <= steps; s++) {
        float t = (float)s / (float)steps;
        float x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        int cx, cy;
        cr_assert(grid_cell_of(g, x, y, &cx, &cy), "(%.2f, %.2f) is off the grid", (double)x, (double)y);
        cr_assert(grid_passable(g, cls, cx, cy),
                  "the segment (%.2f, %.2f) -> (%.2f, %.2f) crosses blocked cell (%d, %d) at (%.3f, %.3f)", (double)ax,
                  (double)ay, (double)bx, (double)by, cx, cy, (double)x, (double)y);
    }
}

/* The whole path from the centre of the bot's cell. */
static void check_path(const NavGrid *g, int cls, float sx, float sy, const float *xy, int n)
{
    int cx, cy;
    cr_assert(grid_cell_of(g, sx, sy, &cx, &cy));
    float px, py;
    grid_cell_center(g, cx, cy, &px, &py);
    for (int i = 0; i < n; i++) {
        check_segment(g, cls, px, py, xy[2 * i], xy[2 * i + 1]);
        px = xy[2 * i];
        py = xy[2 * i + 1];
    }
}

static bool segment_hits_box(float ax, float ay, float bx, float by, const float lo[3], const float hi[3])
{
    for (int s = 0; s <= 1000; s++) {
        float t = (float)s / 1000.0f, x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        if (x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1]) return true;
    }
    return false;
}

/* }======= */

/* {======= grid paths ======= */

Test(crowd, grid_paths_from_lua_stay_on_passable_cells)
{
    Fixture f = setup("maps/valley.lua");
    /* From the south-west spawn to the town, across the river, over the
    ** ridge; infantry, cavalry and the wide siege engines (from the flat
    ** town square: a 3.5 m box does not fit on the hills' slopes; by the
    ** southern ford to the open east bank: the woods round the eastern
    ** camp leave no gap a 3.5 m box fits square on); smoothed or not. */
    static const struct {
        const char *cls;
        float sx, sy, gx, gy;
    } CASES[] = {
        { "infantry", 20.5f, 40.5f, 61.5f, 107.5f }, { "infantry", 20.5f, 40.5f, 228.5f, 95.5f },
        { "infantry", 26.5f, 46.5f, 60.5f, 232.5f }, { "siege", 61.5f, 107.5f, 190.5f, 45.5f },
        { "cavalry", 228.5f, 95.5f, 61.5f, 107.5f },
    };
    float xy[2 * MAX_POINTS];
    char how[32];
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        int id = add_bot(&f, CASES[k].cls, CASES[k].sx, CASES[k].sy);
        const NavGrid *g = sim_grid(f.sim, NULL);
        cr_assert_not_null(g);
        int cls = world_find_class(f.w, CASES[k].cls);
        const NavBot *b = sim_bot(f.sim, (uint32_t)id);
        for (int smooth = 0; smooth < 2; smooth++) {
            int n =
                lua_path(&f, id, CASES[k].gx, CASES[k].gy, smooth ? "{ smooth = true }" : NULL, xy, how, sizeof how);
            cr_assert_gt(n, 0, "%s to (%g, %g): %s", CASES[k].cls, (double)CASES[k].gx, (double)CASES[k].gy, how);
            cr_assert_str_eq(how, "found", "case %zu", k);
            check_path(g, cls, b->pos[0], b->pos[1], xy, n);
            /* It ends at the centre of the goal's cell. */
            int gx, gy;
            float ex, ey;
            cr_assert(grid_cell_of(g, CASES[k].gx, CASES[k].gy, &gx, &gy));
            grid_cell_center(g, gx, gy, &ex, &ey);
            cr_assert_float_eq(xy[2 * n - 2], ex, 1e-4);
            cr_assert_float_eq(xy[2 * n - 1], ey, 1e-4);
        }
    }
    /* A circle goal ends within the circle (any point of the last cell). */
    int id = add_bot(&f, "infantry", 20.5f, 40.5f);
    int n = lua_path(&f, id, 61.5f, 107.5f, "{ goal = 'circle', radius = 6, smooth = true }", xy, how, sizeof how);
    cr_assert_gt(n, 0);
    cr_assert_leq(hypotf(xy[2 * n - 2] - 61.5f, xy[2 * n - 1] - 107.5f), 6.0f + 0.75f);
    /* And the length is the third result, in metres. */
    cr_assert_str_eq(run_string(&f, "local p, how, len = nav.grid_path(nav.bot(0), 61.5, 107.5)\n"
                                    "return string.format('%s %s', how, tostring(len > 80 and len < 200))"),
                     "found true");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(crowd, grid_passable_reachable_and_size)
{
    Fixture f = setup("maps/valley.lua");
    add_bot(&f, "infantry", 20.5f, 40.5f);
    cr_assert_str_eq(run_string(&f, "local w, h, c = nav.grid_size() return string.format('%g %g %g', w, h, c)"),
                     "256 256 1");
    /* Town square: passable for everyone; the ridge's top: no one gets up
    ** there; a tree-free bank by the spawn. */
    cr_assert_str_eq(run_string(&f, "return tostring(nav.grid_passable(61.5, 107.5, 'siege'))"), "true");
    cr_assert_str_eq(run_string(&f, "return tostring(nav.grid_reachable(nav.bot(0), 61.5, 107.5))"), "true");
    cr_assert_str_eq(run_string(&f, "return tostring(nav.grid_reachable(nav.bot(0), -5, 10))"), "false");
    cr_assert_str_eq(run_string(&f, "return tostring(nav.grid_passable(-5, 10, 'infantry'))"), "false");
    /* Agrees with the grid, cell by cell, along a row across the river. */
    const NavGrid *g = sim_grid(f.sim, NULL);
    int inf = world_find_class(f.w, "infantry");
    for (int x = 0; x < 256; x += 3) {
        char code[128];
        snprintf(code, sizeof code, "return tostring(nav.grid_passable(%d.5, 120.5, 'infantry'))", x);
        cr_assert_str_eq(run_string(&f, code), grid_passable(g, inf, x, 120) ? "true" : "false", "x = %d", x);
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* The arena's open floor along its north wall: from (3, 12.7) east to
** (21, 12.7), one straight leg, clear of the wall and the pillars. */
Test(crowd, obstacles_make_grid_paths_go_round_and_removing_them_restores_the_path)
{
    Fixture f = setup("maps/arena.lua");
    /* One obstacle dropped before the grid exists: built in with it. */
    float early_lo[3] = { 1.5f, 1.5f, 0 }, early_hi[3] = { 3, 2.5f, 2 };
    uint32_t early = sim_add_obstacle(f.sim, early_lo, early_hi);
    cr_assert_neq(early, 0);
    int id = add_bot(&f, "human", 3.0f, 12.7f);
    float xy[2 * MAX_POINTS], xy0[2 * MAX_POINTS];
    char how[32];
    const char *opts = "{ smooth = true }";
    int n0 = lua_path(&f, id, 21.0f, 12.7f, opts, xy0, how, sizeof how);
    cr_assert_eq(n0, 1, "open floor: one straight leg, got %d", n0);
    const NavGrid *g = sim_grid(f.sim, NULL);
    int hx, hy;
    cr_assert(grid_cell_of(g, 2.2f, 2.0f, &hx, &hy));
    cr_assert_not(grid_passable(g, 0, hx, hy), "the early obstacle is in the grid");

    /* A wall across the way, from the arena's wall southwards. */
    float lo[3] = { 11, 9.5f, 0 }, hi[3] = { 12, 14, 2 };
    uint32_t ob = sim_add_obstacle(f.sim, lo, hi);
    cr_assert_neq(ob, 0);
    int n = lua_path(&f, id, 21.0f, 12.7f, opts, xy, how, sizeof how);
    cr_assert_gt(n, 1, "the path turns round the wall");
    cr_assert_str_eq(how, "found");
    const NavBot *b = sim_bot(f.sim, (uint32_t)id);
    check_path(g, 0, b->pos[0], b->pos[1], xy, n);
    float px = 3.25f, py = 12.75f; /* the bot's cell's centre (0.5 m cells) */
    for (int i = 0; i < n; i++) {
        cr_assert_not(segment_hits_box(px, py, xy[2 * i], xy[2 * i + 1], lo, hi), "leg %d crosses the obstacle", i);
        px = xy[2 * i], py = xy[2 * i + 1];
    }
    /* The same from C, and the unsmoothed one. */
    SimGridPath sp;
    GridGoal goal = grid_goal_point(21.0f, 12.7f);
    cr_assert(NAV_SUCCEEDED(sim_grid_path(f.sim, 0, b->pos[0], b->pos[1], &goal, NULL, &sp, NULL)));
    cr_assert(sp.flags & GRID_PATH_FOUND);
    cr_assert_gt(sp.length, 18.0 + 0.5, "round the wall is longer than straight (%g m)", sp.length);

    /* Gone again: the straight path is back. */
    cr_assert(sim_remove_obstacle(f.sim, ob));
    n = lua_path(&f, id, 21.0f, 12.7f, opts, xy, how, sizeof how);
    cr_assert_eq(n, n0);
    cr_assert_float_eq(xy[0], xy0[0], 1e-6);
    cr_assert_float_eq(xy[1], xy0[1], 1e-6);
    cr_assert(sim_remove_obstacle(f.sim, early));
    cr_assert(grid_passable(g, 0, hx, hy), "the early obstacle is gone from the grid");
    cr_assert_eq(grid_obstruction_count(g), 0);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(crowd, locked_doors_and_pushed_crates_are_obstructions)
{
    /* gauntlet's door_hall: shut but unlocked it opens for bots, so it is
    ** no obstruction; locked it is one, unlocked again it is gone. */
    Fixture f = setup("maps/gauntlet.lua");
    const NavGrid *g = sim_grid(f.sim, NULL);
    int door = world_find_entity(f.w, "door_hall");
    cr_assert_geq(door, 0);
    const NavEntity *e = world_entity(f.w, door);
    int dx, dy;
    cr_assert(grid_cell_of(g, 0.5f * (e->mins[0] + e->maxs[0]), 0.5f * (e->mins[1] + e->maxs[1]), &dx, &dy));
    bool open_before = grid_passable(g, 0, dx, dy);
    cr_assert(sim_door_set(f.sim, door, false, true));
    cr_assert_not(grid_passable(g, 0, dx, dy), "a locked door blocks its doorway");
    cr_assert(sim_door_set(f.sim, door, true, false));
    cr_assert_eq(grid_passable(g, 0, dx, dy), open_before);
    teardown(&f);

    /* A crate in an open room is an obstruction from the start and moves
    ** with the crate when a bot pushes it east. */
    static const char *ROOM =
        "return { name = 'room', cell_size = 0.5,\n"
        "  legend = { ['#'] = 'solid', ['.'] = 'floor', ['C'] = { type = 'floor', mark = 'crate' } },\n"
        "  layers = { { name = 'g', z = 0, rows = [[\n"
        "############################\n"
        "#..........................#\n"
        "#..........................#\n"
        "#..........................#\n"
        "#........CC................#\n"
        "#........CC................#\n"
        "#..........................#\n"
        "#..........................#\n"
        "#..........................#\n"
        "############################\n"
        "]] } },\n"
        "  entities = { { type = 'crate', name = 'box', at = 'crate', mass = 10 } } }\n";
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(ROOM, strlen(ROOM), "room.lua", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    f = setup_world(w);
    g = sim_grid(f.sim, NULL);
    int crate = world_find_entity(w, "box");
    cr_assert_geq(crate, 0);
    float lo[3], hi[3];
    cr_assert(sim_entity_box(f.sim, crate, lo, hi));
    int cx, cy;
    cr_assert(grid_cell_of(g, 0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), &cx, &cy));
    cr_assert_not(grid_passable(g, 0, cx, cy), "the crate blocks its cells");
    float start_x = 0.5f * (lo[0] + hi[0]);
    int id = add_bot(&f, "human", lo[0] - 1.5f, 0.5f * (lo[1] + hi[1]));
    for (int t = 0; t < 60; t++) {
        sim_bot_control(f.sim, (uint32_t)id)->move[0] = 1.0f;
        sim_step(f.sim);
    }
    cr_assert(sim_entity_box(f.sim, crate, lo, hi));
    float moved = 0.5f * (lo[0] + hi[0]) - start_x;
    cr_assert_gt(moved, 1.0f, "the crate was pushed (%g m)", (double)moved);
    cr_assert(grid_cell_of(g, 0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), &cx, &cy));
    sim_grid(f.sim, NULL); /* a query looks at the crates first */
    cr_assert_not(grid_passable(g, 0, cx, cy), "the crate's new cells are blocked");
    int ox, oy;
    cr_assert(grid_cell_of(g, start_x, 0.5f * (lo[1] + hi[1]), &ox, &oy));
    cr_assert(grid_passable(g, 0, ox, oy) || ox == cx, "its old cells are free again");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(crowd, wrong_arguments_to_the_grid_functions_are_lua_errors)
{
    Fixture f = setup("maps/arena.lua");
    add_bot(&f, "human", 3.0f, 6.0f);
    static const struct {
        const char *call;
        const char *says;
    } BAD[] = {
        { "nav.grid_path()", "bad argument #1 to 'grid_path' (nav.Bot expected, got no value)" },
        { "nav.grid_path(7, 1, 2)", "nav.Bot expected, got number" },
        { "nav.grid_path({}, 1, 2)", "nav.Bot expected, got table" },
        { "nav.grid_path(nav.bot(0))", "bad argument #2 to 'grid_path' (number expected, got no value)" },
        { "nav.grid_path(nav.bot(0), 'east', 2)", "bad argument #2 to 'grid_path' (number expected, got string)" },
        { "nav.grid_path(nav.bot(0), 1, 0/0)", "bad argument #3 to 'grid_path' (finite number expected)" },
        { "nav.grid_path(nav.bot(0), 1, math.huge)", "bad argument #3 to 'grid_path' (finite number expected)" },
        { "nav.grid_path(nav.bot(0), 1, 2, 'smooth')", "bad argument #4 to 'grid_path' (table expected, got string)" },
        { "nav.grid_path(nav.bot(0), 1, 2, { goal = 'blob' })", "unknown goal 'blob'" },
        { "nav.grid_path(nav.bot(0), 1, 2, { goal = 3 })", "option 'goal': string expected, got number" },
        { "nav.grid_path(nav.bot(0), 1, 2, { goal = 'circle' })", "option 'radius' is needed for this goal" },
        { "nav.grid_path(nav.bot(0), 1, 2, { goal = 'circle', radius = -1 })", "option 'radius' must be at least" },
        { "nav.grid_path(nav.bot(0), 1, 2, { goal = 'square', width = 2 })", "option 'height' is needed" },
        { "nav.grid_path(nav.bot(0), 1, 2, { smoth = true })", "unknown option 'smoth'" },
        { "nav.grid_path(nav.bot(0), 1, 2, { [1] = true })", "unknown option 'number'" },
        { "nav.grid_path(nav.bot(0), 1, 2, { smooth = 1 })", "option 'smooth': boolean expected, got number" },
        { "nav.grid_path(nav.bot(0), 1, 2, { max_nodes = -1 })", "option 'max_nodes'" },
        { "nav.grid_path(nav.bot(0), 1, 2, { max_nodes = 1.5 })", "option 'max_nodes'" },
        { "nav.grid_passable(1, 2)", "bad argument #3 to 'grid_passable' (string expected, got no value)" },
        { "nav.grid_passable(1, 2, 'dragon')", "no class 'dragon'" },
        { "nav.grid_passable('a', 2, 'human')", "bad argument #1 to 'grid_passable' (number expected, got string)" },
        { "nav.grid_reachable(nav.bot(0), nil, 2)", "bad argument #2 to 'grid_reachable' (number expected, got nil)" },
        { "nav.grid_reachable(string, 1, 2)", "bad argument #1 to 'grid_reachable' (nav.Bot expected, got table)" },
    };
    lua_State *L = sandbox_state(f.sb);
    for (size_t k = 0; k < NAV_ARRAY_COUNT(BAD); k++) {
        char code[256];
        snprintf(code, sizeof code,
                 "local ok, e = pcall(function() return %s end) return ok and 'no error' or tostring(e)", BAD[k].call);
        const char *msg = run_string(&f, code);
        cr_assert_not_null(strstr(msg, BAD[k].says), "%s\n  said: %s\n  expected: %s", BAD[k].call, msg, BAD[k].says);
    }
    /* A good call still works after all that, and the stack is sane. */
    cr_assert_str_eq(run_string(&f, "local p, how = nav.grid_path(nav.bot(0), 21, 6, { goal = 'square', width = 2, "
                                    "height = 2, angle = 30, max_nodes = 100000 }) return how"),
                     "found");
    cr_assert_eq(lua_gettop(L), 1);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the rts crowd ======= */

/* n infantry bots on passable cells of valley, on a 3 m lattice walked
** from a fixed corner so the crowd is dense enough to meet. */
static void add_crowd(NavSession *s, const NavWorld *w, int n)
{
    NavSim *sim = session_sim(s);
    NavGrid *g = sim_grid(sim, NULL);
    cr_assert_not_null(g);
    int cls = world_find_class(w, "infantry");
    int placed = 0;
    for (int y = 30; y < 256 && placed < n; y += 3)
        for (int x = 10; x < 100 && placed < n; x += 3) {
            if (!grid_passable(g, cls, x, y) || !grid_reachable(g, cls, x, y, 61, 107)) continue;
            NavError err;
            nav_error_clear(&err);
            int id = session_add_bot(s, "rts", &(NavBotDesc){ .cls = cls, .pos = { x + 0.5f, y + 0.5f, 0 } }, &err);
            if (id < 0) continue; /* a tree trunk's corner: the next cell */
            cr_assert_not(session_bot_faulted(s, (uint32_t)id), "%s", session_bot_error(s, (uint32_t)id));
            placed++;
        }
    cr_assert_eq(placed, n);
}

static void silent(void *user, const char *line)
{
    /* Faults are checked bot by bot; keep the first line for the message. */
    char *first = user;
    if (!first[0]) snprintf(first, 512, "%s", line);
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

Test(crowd, two_hundred_rts_bots_never_overlap_and_none_faults, .timeout = 600)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavError err;
    nav_error_clear(&err);
    char first[512] = "";
    NavSession *s =
        session_create(w, &(NavSessionDesc){ .root = ".", .seed = 11, .log = silent, .log_user = first }, &err);
    cr_assert_not_null(s, "%s", err.message);
    enum { BOTS = 200, TICKS = 300 };
    add_crowd(s, w, BOTS);
    NavSim *sim = session_sim(s);
    float start[BOTS][2];
    for (int i = 0; i < BOTS; i++) memcpy(start[i], sim_bot(sim, (uint32_t)i)->pos, sizeof start[i]);
    /* Every pair, every tick (pairs more than 2 m apart in x are skipped
    ** before the box test). */
    for (int t = 0; t < TICKS; t++) {
        session_step(s);
        for (int i = 0; i < BOTS; i++) {
            const NavBot *a = sim_bot(sim, (uint32_t)i);
            for (int j = i + 1; j < BOTS; j++) {
                const NavBot *b = sim_bot(sim, (uint32_t)j);
                if (fabsf(a->pos[0] - b->pos[0]) > 2.0f) continue;
                cr_assert_not(boxes_overlap(sim, a, b),
                              "tick %d: bots %d and %d overlap at (%.3f, %.3f) and (%.3f, %.3f)", t, i, j,
                              (double)a->pos[0], (double)a->pos[1], (double)b->pos[0], (double)b->pos[1]);
            }
        }
    }
    int walked = 0;
    for (int i = 0; i < BOTS; i++) {
        cr_assert_not(session_bot_faulted(s, (uint32_t)i), "bot %d: %s (first log line: %s)", i,
                      session_bot_error(s, (uint32_t)i), first);
        const NavBot *b = sim_bot(sim, (uint32_t)i);
        if (hypotf(b->pos[0] - start[i][0], b->pos[1] - start[i][1]) > 5.0f) walked++;
        /* Unit motion drives them: what it says it is doing. */
        static const char *const DOING[] = { "walking",
                                             "following",
                                             "detour",
                                             "waiting for a way round",
                                             "waiting for a path",
                                             "arrived",
                                             "giving way",
                                             "getting off a blocked cell" };
        bool known = false;
        for (size_t k = 0; k < NAV_ARRAY_COUNT(DOING); k++) known = known || strcmp(b->control.reason, DOING[k]) == 0;
        cr_assert(known, "bot %d says '%s'", i, b->control.reason);
    }
    /* Ten seconds of walking: most of the crowd is far from where it began. */
    cr_assert_gt(walked, BOTS * 3 / 4, "only %d of %d bots went anywhere", walked, BOTS);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(crowd, rts_bots_walk_to_their_queued_goals_in_turn, .timeout = 600)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavError err;
    nav_error_clear(&err);
    char first[512] = "";
    NavSession *s =
        session_create(w, &(NavSessionDesc){ .root = ".", .seed = 3, .log = silent, .log_user = first }, &err);
    cr_assert_not_null(s, "%s", err.message);
    NavSim *sim = session_sim(s);
    int cls = world_find_class(w, "infantry");
    /* From the town square out of the east gate, then back to the square
    ** by another street: goals in turn, none random in between. */
    int id = session_add_bot(s, "rts", &(NavBotDesc){ .cls = cls, .pos = { 61.5f, 107.5f, 0 } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    float a[3] = { 95.5f, 107.5f, 0 }, b[3] = { 61.5f, 95.5f, 0 };
    cr_assert(sim_bot_push_goal(sim, (uint32_t)id, a, 0.75f));
    cr_assert(sim_bot_push_goal(sim, (uint32_t)id, b, 0.75f));
    int t = 0;
    for (; t < 60 * 30 && !sim_bot_arrived(sim, (uint32_t)id); t++) session_step(s);
    cr_assert_not(session_bot_faulted(s, (uint32_t)id), "%s", session_bot_error(s, (uint32_t)id));
    const NavBot *bot = sim_bot(sim, (uint32_t)id);
    cr_assert_eq(bot->goals_reached, 2, "reached %d goals in %d ticks, at (%.2f, %.2f)", bot->goals_reached, t,
                 (double)bot->pos[0], (double)bot->pos[1]);
    /* Then it holds there, as units do where they were sent (no random
    ** goals of its own once it has had orders). */
    float there[2] = { bot->pos[0], bot->pos[1] };
    for (int k = 0; k < 10 * 30; k++) session_step(s);
    cr_assert_lt(hypotf(bot->pos[0] - there[0], bot->pos[1] - there[1]), 1.0f, "it wandered off its last goal");
    /* A goal queued while it holds is taken at once. */
    float c[3] = { 61.5f, 107.5f, 0 };
    cr_assert(sim_bot_push_goal(sim, (uint32_t)id, c, 0.75f));
    int reached = bot->goals_reached;
    for (t = 0; t < 90 * 30 && bot->goals_reached == reached; t++) session_step(s);
    cr_assert_eq(bot->goals_reached, reached + 1, "the new goal was not reached in %d ticks", t);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static uint64_t crowd_hash(const NavWorld *w, uint64_t seed, int bots, int ticks, float *last_x)
{
    NavError err;
    nav_error_clear(&err);
    char first[512] = "";
    NavSession *s =
        session_create(w, &(NavSessionDesc){ .root = ".", .seed = seed, .log = silent, .log_user = first }, &err);
    cr_assert_not_null(s, "%s", err.message);
    add_crowd(s, w, bots);
    for (int t = 0; t < ticks; t++) session_step(s);
    uint64_t h = sim_trace_hash(session_sim(s));
    *last_x = sim_bot(session_sim(s), (uint32_t)bots - 1)->pos[0];
    for (int i = 0; i < bots; i++)
        cr_assert_not(session_bot_faulted(s, (uint32_t)i), "%s", session_bot_error(s, (uint32_t)i));
    session_destroy(s);
    return h;
}

Test(crowd, the_same_seed_gives_the_same_run, .timeout = 600)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    float x1, x2, x3;
    uint64_t a = crowd_hash(w, 21, 60, 150, &x1);
    uint64_t b = crowd_hash(w, 21, 60, 150, &x2);
    uint64_t c = crowd_hash(w, 22, 60, 150, &x3);
    cr_assert_eq(a, b, "same seed, different runs: %016llx vs %016llx", (unsigned long long)a, (unsigned long long)b);
    cr_assert_eq(x1, x2);
    cr_assert_neq(a, c, "another seed picks other goals");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= navbot bench crowd ======= */

Test(crowd, bench_crowd_runs_small_and_reports_json, .timeout = 600)
{
    char *out = NULL, *errs = NULL;
    size_t no, ne;
    FILE *o = open_memstream(&out, &no), *e = open_memstream(&errs, &ne);
    const char *argv[] = { "navbot",  "bench", "crowd",    "--json", "--bots", "30,60",
                           "--ticks", "5",     "--warmup", "3",      NULL };
    int status = cli_main(10, (char **)argv, o, e);
    fclose(o);
    fclose(e);
    cr_assert_eq(status, CLI_OK, "stderr: %s", errs);
    static const char *const KEYS[] = { "\"runs\"",          "\"bots\": 30", "\"bots\": 60",  "\"tick_mean_ms\"",
                                        "\"tick_p99_ms\"",   "\"lua_ms\"",   "\"path_ms\"",   "\"move_ms\"",
                                        "\"bytes_per_bot\"", "\"baseline\"", "\"faults\": 0", "\"same_run\": true" };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(KEYS); k++)
        cr_assert_not_null(strstr(out, KEYS[k]), "no %s in:\n%s", KEYS[k], out);
    free(out);
    free(errs);

    /* Bad usage is exit status 2 and says why. */
    out = errs = NULL;
    o = open_memstream(&out, &no), e = open_memstream(&errs, &ne);
    const char *bad[] = { "navbot", "bench", "crowd", "--bots", "0", NULL };
    status = cli_main(5, (char **)bad, o, e);
    fclose(o);
    fclose(e);
    cr_assert_eq(status, CLI_USAGE);
    cr_assert_not_null(strstr(errs, "--bots"), "%s", errs);
    free(out);
    free(errs);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/*
** test_short_lua.c — short paths among bots: sim_grid_short_path
** (sim_grid.c) and nav.short_path (nav_api_grid.c). The other bots become
** the search's unit squares; every returned path is checked by dense
** sampling against the grid and against each other bot's square grown by
** the mover's radius. Also: goal shapes, out of range, a goal inside a
** bot, budgets, the same answer twice, Lua errors naming the option, the
** documented example, and `navbot bench shortpath` (its figures, not its
** timings).
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "cli/cli.h"
#include "core/fileio.h"
#include "grid/grid.h"
#include "grid/grid_short.h"
#include "map/map.h"
#include "nav_api_support.h"

/* A 40 x 40 m field of 1 m cells, a 4 x 4 m rock at x 24-27, y 18-21. */
static Fixture setup_field(void)
{
    char rows[41 * 40 + 1];
    int n = 0;
    for (int r = 0; r < 40; r++) {
        int y = 39 - r;
        for (int x = 0; x < 40; x++) rows[n++] = (x >= 24 && x <= 27 && y >= 18 && y <= 21) ? '#' : '.';
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    char src[2048 + sizeof rows];
    snprintf(src, sizeof src,
             "return { cell_size = 1, layers = { { z = 0, rows = [[\n%s]] } },\n"
             "  classes = { { name = 'infantry', radius = 0.5 } } }\n",
             rows);
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = map_load_buffer(src, strlen(src), "field.lua", NULL, &err);
    cr_assert_not_null(f.w, "%s", err.message);
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 3 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb, "%s", err.message);
    nav_api_open(sandbox_state(f.sb), f.sim);
    return f;
}

static uint32_t add_bot(Fixture *f, float x, float y)
{
    NavError err;
    nav_error_clear(&err);
    int cls = world_find_class(f->w, "infantry");
    cr_assert_geq(cls, 0);
    int id = sim_add_bot(f->sim, &(NavBotDesc){ .cls = cls, .pos = { x, y, 0.0f } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    return (uint32_t)id;
}

/* A path for bot `id` checked point by point: on passable cells, outside
** every other bot's square grown by 0.5 m (the radius, twice). */
static void check_points(Fixture *f, uint32_t id, const float *xy, int n)
{
    const NavGrid *g = sim_grid(f->sim, NULL);
    const NavBot *me = sim_bot(f->sim, id);
    float px = me->pos[0], py = me->pos[1];
    for (int i = 0; i < n; i++) {
        float qx = xy[2 * i], qy = xy[2 * i + 1];
        int steps = (int)ceilf(hypotf(qx - px, qy - py) / 0.005f) + 1;
        for (int k = 0; k <= steps; k++) {
            float t = (float)k / (float)steps, x = px + (qx - px) * t, y = py + (qy - py) * t;
            int cx, cy;
            cr_assert(grid_cell_of(g, x, y, &cx, &cy) && grid_passable(g, me->cls, cx, cy),
                      "leg %d crosses an impassable cell at (%.3f, %.3f)", i, (double)x, (double)y);
            for (uint32_t b = 0; b < sim_bot_count(f->sim); b++) {
                if (b == id) continue;
                const NavBot *o = sim_bot(f->sim, b);
                cr_assert(!(fabsf(x - o->pos[0]) < 1.0f - 1e-4f && fabsf(y - o->pos[1]) < 1.0f - 1e-4f),
                          "leg %d at (%.3f, %.3f) runs into bot %u at (%.2f, %.2f)", i, (double)x, (double)y, b,
                          (double)o->pos[0], (double)o->pos[1]);
            }
        }
        px = qx;
        py = qy;
    }
}

/* nav.short_path for bot id; the points into xy, the how into how;
** returns the count of points, or -1 (how holds the reason). */
static int short_path(Fixture *f, uint32_t id, float gx, float gy, const char *opts, float *xy, char *how,
                      double *length)
{
    char code[512];
    snprintf(code, sizeof code,
             "local p, how, len = nav.short_path(nav.bot(%u), %.4f, %.4f, %s)\n"
             "if not p then return 'nil ' .. how end\n"
             "local out = { how, string.format('%%.9f', len) }\n"
             "for i = 1, #p do out[#out + 1] = string.format('%%.9g', p[i]) end\n"
             "return table.concat(out, ' ')",
             id, (double)gx, (double)gy, opts ? opts : "nil");
    const char *s = run(f, code);
    cr_assert_not_null(s);
    if (strncmp(s, "nil ", 4) == 0) {
        snprintf(how, 64, "%s", s + 4);
        return -1;
    }
    int used = 0, n = 0;
    cr_assert_eq(sscanf(s, "%63s %lf%n", how, length, &used), 2, "answer '%s'", s);
    s += used;
    float v;
    while (sscanf(s, "%f%n", &v, &used) == 1) {
        xy[n++] = v;
        s += used;
    }
    cr_assert_eq(n % 2, 0, "a flat list of x, y pairs");
    return n / 2;
}

Test(short_path, goes_round_a_file_of_bots)
{
    Fixture f = setup_field();
    uint32_t me = add_bot(&f, 8.5f, 10.0f);
    /* a file of bots across the way east, y 7 to 13 */
    for (int i = 0; i < 7; i++) add_bot(&f, 11.5f, 7.0f + (float)i);
    float xy[512];
    char how[64];
    double len;
    int n = short_path(&f, me, 15.5f, 10.0f, NULL, xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_gt(n, 1, "round the file, not through it");
    cr_assert_float_eq(xy[2 * n - 2], 15.5f, 1e-4);
    cr_assert_float_eq(xy[2 * n - 1], 10.0f, 1e-4);
    cr_assert_gt(len, 7.0 + 1e-3);
    check_points(&f, me, xy, n);
    /* The C side says how many bots it took. */
    SimShortPath p;
    NavError err;
    GridGoal goal = grid_goal_point(15.5f, 10.0f);
    cr_assert_eq(sim_grid_short_path(f.sim, me, &goal, NULL, &p, &err), NAV_OK, "%s", err.message);
    cr_assert_eq(p.units, 7u);
    cr_assert_eq(p.flags, GRID_SHORT_FOUND);
    cr_assert_float_eq(p.length, len, 1e-6);
    /* After a tick the bots come from the buckets, not the new-bot list:
    ** the same squares, the same path. A bot far off is not taken. */
    add_bot(&f, 35.5f, 35.5f);
    sim_step(f.sim);
    SimShortPath q;
    cr_assert_eq(sim_grid_short_path(f.sim, me, &goal, NULL, &q, &err), NAV_OK, "%s", err.message);
    cr_assert_eq(q.units, 7u);
    cr_assert_float_eq(q.length, len, 1e-4);
    /* Nobody in the way: straight there. */
    n = short_path(&f, me, 8.5f, 3.5f, NULL, xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_eq(n, 1);
    cr_assert_float_eq(len, 6.5, 1e-5);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(short_path, goal_shapes_ranges_and_budgets)
{
    Fixture f = setup_field();
    uint32_t me = add_bot(&f, 20.5f, 19.5f); /* west of the rock */
    for (int i = 0; i < 4; i++) add_bot(&f, 21.5f + (float)i, 16.0f);
    float xy[512];
    char how[64];
    double len;
    /* east of the rock: round it */
    int n = short_path(&f, me, 30.5f, 19.5f, "{ range = 14 }", xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_geq(n, 2);
    check_points(&f, me, xy, n);
    /* a circle: stops on its rim */
    n = short_path(&f, me, 30.5f, 19.5f, "{ range = 14, goal = 'circle', radius = 2 }", xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_float_eq(hypotf(xy[2 * n - 2] - 30.5f, xy[2 * n - 1] - 19.5f), 2.0f, 1e-3);
    check_points(&f, me, xy, n);
    /* a square given by its half side */
    n = short_path(&f, me, 30.5f, 19.5f, "{ range = 14, goal = 'square', radius = 1 }", xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_leq(fabsf(xy[2 * n - 2] - 30.5f), 1.0f + 1e-4f);
    /* leave a circle round the bot itself */
    n = short_path(&f, me, 20.5f, 19.5f, "{ goal = 'circle', radius = 3, inverted = true }", xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_geq(hypotf(xy[2 * n - 2] - 20.5f, xy[2 * n - 1] - 19.5f), 3.0f - 1e-3f);
    cr_assert_float_eq(len, 3.0, 1e-3);
    check_points(&f, me, xy, n);
    n = short_path(&f, me, 20.5f, 19.5f, "{ goal = 'inv_square', width = 4, height = 4 }", xy, how, &len);
    cr_assert_str_eq(how, "found");
    cr_assert_float_eq(len, 2.0, 1e-3);
    /* out of range: as near as the square lets it */
    n = short_path(&f, me, 20.5f, 35.0f, "{ range = 5 }", xy, how, &len);
    cr_assert_str_eq(how, "unreachable");
    cr_assert_float_eq(xy[2 * n - 1], 24.5f - 1.0f / 64, 1e-4);
    /* a budget of one vertex */
    n = short_path(&f, me, 30.5f, 19.5f, "{ range = 14, max_vertices = 1 }", xy, how, &len);
    cr_assert_str_eq(how, "partial");
    check_points(&f, me, xy, n);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(short_path, goal_inside_a_bot_ends_beside_it)
{
    Fixture f = setup_field();
    uint32_t me = add_bot(&f, 5.5f, 5.5f);
    uint32_t other = add_bot(&f, 9.5f, 5.5f);
    float xy[512];
    char how[64];
    double len;
    int n = short_path(&f, me, 9.5f, 5.5f, NULL, xy, how, &len);
    cr_assert_str_eq(how, "unreachable");
    const NavBot *o = sim_bot(f.sim, other);
    /* at a corner of its square grown by both radii, a hair out */
    cr_assert_float_eq(fabsf(xy[2 * n - 2] - o->pos[0]), 1.0f + 1.0f / 64, 1e-4);
    check_points(&f, me, xy, n);
    /* the same answer again */
    float again[512];
    double len2;
    int n2 = short_path(&f, me, 9.5f, 5.5f, NULL, again, how, &len2);
    cr_assert_eq(n2, n);
    cr_assert_eq(memcmp(again, xy, sizeof xy[0] * (size_t)(2 * n)), 0);
    cr_assert_eq(len2, len);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(short_path, bad_arguments_are_lua_errors)
{
    Fixture f = setup_field();
    add_bot(&f, 5.5f, 5.5f);
    static const struct {
        const char *call, *want;
    } CASES[] = {
        { "nav.short_path(nav.bot(0), 9, 9, { rang = 3 })", "unknown option 'rang'" },
        { "nav.short_path(nav.bot(0), 9, 9, { goal = 'blob' })", "unknown goal 'blob'" },
        { "nav.short_path(nav.bot(0), 9, 9, { goal = 3 })", "option 'goal': string expected" },
        { "nav.short_path(nav.bot(0), 9, 9, { goal = 'circle' })", "option 'radius' is needed" },
        { "nav.short_path(nav.bot(0), 9, 9, { inverted = true })", "option 'inverted' needs a circle or square" },
        { "nav.short_path(nav.bot(0), 9, 9, { inverted = 1, goal = 'circle', radius = 1 })",
          "option 'inverted': boolean expected" },
        { "nav.short_path(nav.bot(0), 9, 9, { range = 0 })", "option 'range' must be more than 0" },
        { "nav.short_path(nav.bot(0), 9, 9, { range = 1000 })", "option 'range' must be more than 0" },
        { "nav.short_path(nav.bot(0), 9, 9, { max_vertices = -1 })", "option 'max_vertices'" },
        { "nav.short_path(nav.bot(0), 9, 9, { goal = 'circle', radius = -1 })", "option 'radius' must be at least" },
        { "nav.short_path(nav.bot(0), 0/0, 9)", "finite number expected" },
        { "nav.short_path(nav.bot(0), 9)", "number expected" },
        { "nav.short_path(42, 9, 9)", "nav.Bot expected" },
        { "nav.short_path(nav.bot(0), 9, 9, 'far')", "table expected" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(CASES); i++) {
        char code[256];
        snprintf(code, sizeof code, "return %s", CASES[i].call);
        const char *msg = fails(&f, code);
        cr_assert_not_null(strstr(msg, CASES[i].want), "%s\n  says: %s\n  want: %s", CASES[i].call, msg, CASES[i].want);
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* The example of docs/lua-api.md's nav.short_path runs as written, as the
** body of a brain's think with `bot` its bot, and walks round the bots. */
Test(short_path, the_documented_example_runs)
{
    Fixture f = setup_field();
    uint32_t me = add_bot(&f, 8.5f, 10.0f);
    for (int i = 0; i < 5; i++) add_bot(&f, 12.5f, 8.0f + (float)i);
    NavError err;
    nav_error_clear(&err);
    char *doc = NULL;
    size_t len = 0;
    cr_assert(NAV_SUCCEEDED(fileio_read("docs/lua-api.md", 1u << 22, &doc, &len, &err)), "%s", err.message);
    const char *from = strstr(doc, "#### nav.short_path(");
    const char *to = from ? strstr(from + 4, "\n### ") : NULL;
    cr_assert(from && to, "no nav.short_path in docs/lua-api.md");
    const char *p = strstr(from, "```lua\n");
    cr_assert(p && p < to, "no example for nav.short_path");
    p += 7;
    const char *end = strstr(p, "```\n");
    cr_assert(end && end < to);
    char code[4096];
    snprintf(code, sizeof code, "local bot = nav.bot(%u)\n%.*s\nreturn 'ran'", me, (int)(end - p), p);
    cr_assert_str_eq(run(&f, code), "ran");
    /* it turned aside: the file of bots is straight east */
    const NavBotControl *c = sim_bot_control(f.sim, me);
    cr_assert_gt(c->move[0], 0.0f);
    cr_assert_gt(fabsf(c->move[1]), 0.2f, "move (%g, %g)", (double)c->move[0], (double)c->move[1]);
    cr_assert_not_null(strstr(c->reason, "short found"), "reason '%s'", c->reason);
    free(doc);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* {======= navbot bench shortpath ======= */

static int bench(const char **argv, int argc, char **out, char **errs)
{
    size_t no, ne;
    FILE *o = open_memstream(out, &no), *e = open_memstream(errs, &ne);
    int status = cli_main(argc, (char **)argv, o, e);
    fclose(o);
    fclose(e);
    return status;
}

Test(short_path, bench_shortpath_runs_small_and_reports_json, .timeout = 600)
{
    char *out = NULL, *errs = NULL;
    const char *argv[] = { "navbot",  "bench", "shortpath", "--json", "--queries", "25",
                           "--units", "0,40",  "--seed",    "3",      NULL };
    int status = bench(argv, 10, &out, &errs);
    cr_assert_eq(status, CLI_OK, "stderr: %s", errs);
    static const char *const KEYS[] = {
        "\"units\":0",       "\"units\":40",      "\"mean_us\"",      "\"p99_us\"",
        "\"found_rate\"",    "\"replans_saved\"", "\"long_mean_us\"", "\"short_long_ratio\"",
        "\"vertices_mean\"", "\"expanded_mean\"", "\"seed\":3"
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(KEYS); k++)
        cr_assert_not_null(strstr(out, KEYS[k]), "no %s in:\n%s", KEYS[k], out);
    /* No units: every waypoint is in line of sight and in range, so every
    ** query finds it straight away and none is blocked. */
    cr_assert_not_null(strstr(out, "\"units\":0,\"units_placed_mean\":0,"), "%s", out);
    const char *zero = strstr(out, "\"units\":0,");
    cr_assert_not_null(strstr(zero, "\"found_rate\":1,"), "%s", out);
    cr_assert_not_null(strstr(zero, "\"blocked_by_units\":0,"), "%s", out);
    free(out);
    free(errs);

    const char *bad[] = { "navbot", "bench", "shortpath", "--units", "many", NULL };
    status = bench(bad, 5, &out, &errs);
    cr_assert_eq(status, CLI_USAGE);
    cr_assert_not_null(strstr(errs, "--units"), "%s", errs);
    free(out);
    free(errs);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

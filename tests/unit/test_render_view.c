/*
** test_render_view.c — pictures of a part of the map, and the legend of
** the area graph's pictures, through the command line: `info --png` and
** `route --png` carry a legend band (the route's travel types, its start
** and goal markers, the heat map's scale), the scale bar and the north
** arrow; --view X0,Y0,X1,Y1 with --px-per-m or --width draws that part
** of maps/valley.lua (the town's wall where it stands) in sim, replay,
** info and route; bad boxes and sizes are usage errors. Pictures are
** written to build/pictures/ (helpers in render_support.h).
*/
#include "render_support.h"
#include "render/render_internal.h"

/* {======= helpers ======= */

static bool is_white(NavColor c) { return c.r == 255 && c.g == 255 && c.b == 255; }

static bool has_color_in(const NavImage *img, NavColor c, int y0, int y1)
{
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, img->height); y++)
        for (int x = 0; x < img->width; x++)
            if (same_color(pixel(img, x, y), c)) return true;
    return false;
}

/* "(W x H px, S px per cell)" in a command's output: S. */
static float cell_px_of(const char *out)
{
    const char *p = strstr(out, " px, ");
    cr_assert_not_null(p, "no picture size in\n%s", out);
    return strtof(p + 5, NULL);
}

/* The scale bar: the longest white run along a row of the bottom-right
** 240 x 60 pixels, as long as the round length at px_per_m; the north
** arrow: a white column at least 12 tall right of it. */
static void expect_scale_and_north(const NavImage *img, float px_per_m, const char *what)
{
    int best = 0, row = 0, end = 0;
    for (int y = img->height - 60; y < img->height; y++)
        for (int x = img->width - 240, run = 0; x < img->width; x++) {
            run = is_white(pixel(img, x, y)) ? run + 1 : 0;
            if (run > best) best = run, row = y, end = x;
        }
    float m = 0.0f;
    for (int e = -2; e <= 6; e++)
        for (int k = 0; k < 3; k++) {
            float c = (float)(k == 0 ? 1 : k == 1 ? 2 : 5) * powf(10.0f, (float)e);
            if (c * px_per_m <= 120.0f + 1e-3f) m = c;
        }
    int want = (int)lroundf(m * px_per_m);
    cr_assert(abs(best - want) <= 1, "%s: scale bar %d px at row %d; %g m at %g px/m is %d px", what, best, row,
              (double)m, (double)px_per_m, want);
    int tall = 0;
    for (int x = end + 1; x < img->width; x++)
        for (int y = img->height - 60, run = 0; y < img->height; y++) {
            run = is_white(pixel(img, x, y)) ? run + 1 : 0;
            if (run > tall) tall = run;
        }
    cr_assert_geq(tall, 12, "%s: no north arrow right of the scale bar", what);
}

/* }======= */

/* {======= the legend of info and route pictures ======= */

Test(render_view, info_picture_has_legend_scale_and_north)
{
    const char *png = picture_path("info-gauntlet.png");
    Run r = NAVBOT("info", "maps/gauntlet.lua", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    float cell = cell_px_of(r.out);
    run_free(&r);
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavImage *img = load_png(png);
    int map_h = (int)lroundf((float)world_height(w) * cell);
    cr_assert_eq(img->width, (int)lroundf((float)world_width(w) * cell));
    cr_assert_gt(img->height, map_h + 20, "no legend band under the map (%d rows, the map %d)", img->height, map_h);
    /* The links drawn, by their colours, in the band under the map. */
    static const NavTravelType TYPES[] = { NAV_TRAVEL_TELEPORT, NAV_TRAVEL_JUMP_PAD, NAV_TRAVEL_LADDER };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(TYPES); k++)
        cr_assert(has_color_in(img, render_travel_color(TYPES[k]), map_h, img->height), "no %s in the legend",
                  area_travel_name(TYPES[k]));
    expect_scale_and_north(img, cell / world_cell_size(w), "info --png");
    image_destroy(img);

    /* One storey of the tower: its legend and scale too. */
    png = picture_path("info-tower-third.png");
    r = NAVBOT("info", "maps/tower.lua", "--png", png, "--level", "third");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cell = cell_px_of(r.out);
    run_free(&r);
    img = load_png(png);
    expect_scale_and_north(img, cell / 0.5f, "info --png --level third");
    image_destroy(img);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(render_view, route_picture_has_its_travel_types_and_markers_in_the_legend)
{
    const char *png = picture_path("route-gauntlet-teleport.png");
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags", "walk,teleport", "--png",
                   png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, " teleport "), "the route takes no teleport:\n%s", r.out);
    float cell = cell_px_of(r.out);
    run_free(&r);
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavImage *img = load_png(png);
    int map_h = (int)lroundf((float)world_height(w) * cell);
    cr_assert_gt(img->height, map_h + 20);
    NavColor start = nav_rgba(30, 180, 60, 255), goal = nav_rgba(40, 80, 230, 255);
    cr_assert(has_color_in(img, start, map_h, img->height), "no start marker in the legend");
    cr_assert(has_color_in(img, goal, map_h, img->height), "no goal marker in the legend");
    cr_assert(has_color_in(img, render_travel_color(NAV_TRAVEL_TELEPORT), map_h, img->height));
    /* The heat map's scale: hot at 0 s, cold at the far end. */
    cr_assert(has_color_in(img, render_heat_color(0.0f, 255), map_h, img->height), "no heat scale");
    cr_assert(has_color_in(img, render_heat_color(1.0f, 255), map_h, img->height));
    expect_scale_and_north(img, cell / world_cell_size(w), "route --png");
    image_destroy(img);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= --view ======= */

/* The valley's town (maps/valley.lua): walls 2 m thick round x 34-89,
** y 84-131; the west wall at x 34-36 is solid rock where no gate is
** (y 95), open hills 2 m west of it, the square at its middle (x 54-69,
** y 100-115; a goal marks its centre). */
#define TOWN_VIEW "30,80,95,135"
static const float WALL[2] = { 35.0f, 95.0f }, OUTSIDE[2] = { 32.0f, 95.0f }, SQUARE[2] = { 57.0f, 103.0f };

Test(render_view, view_draws_that_part_of_the_valley)
{
    /* info: 65 x 55 m at 10 px/m, the box's north-west corner at 0,0. */
    const char *png = picture_path("view-valley-info.png");
    Run r = NAVBOT("info", "maps/valley.lua", "--png", png, "--view", TOWN_VIEW, "--px-per-m", "10");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    NavImage *img = load_png(png);
    cr_assert_eq(img->width, 650);
    cr_assert_gt(img->height, 550 + 20, "no legend under the 550 rows of map");
    NavColor wall = pixel(img, (int)((WALL[0] - 30.0f) * 10.0f), (int)((135.0f - WALL[1]) * 10.0f));
    NavColor out = pixel(img, (int)((OUTSIDE[0] - 30.0f) * 10.0f), (int)((135.0f - OUTSIDE[1]) * 10.0f));
    NavColor sq = pixel(img, (int)((SQUARE[0] - 30.0f) * 10.0f), (int)((135.0f - SQUARE[1]) * 10.0f));
    /* No floor is dark; areas are light tints. */
    cr_assert(wall.r < 50 && wall.g < 50 && wall.b < 60, "the town wall is %d,%d,%d, not the dark of no floor", wall.r,
              wall.g, wall.b);
    cr_assert_gt(out.r + out.g + out.b, 300, "outside the wall is %d,%d,%d, not an area", out.r, out.g, out.b);
    cr_assert_gt(sq.r + sq.g + sq.b, 300, "the square is %d,%d,%d, not an area", sq.r, sq.g, sq.b);
    expect_scale_and_north(img, 10.0f, "info --view");
    image_destroy(img);

    /* sim, headless: the same part at 10 px/m between the HUD's rows and
    ** the legend's. */
    png = picture_path("view-valley-sim.png");
    r = NAVBOT("sim", "maps/valley.lua", "--headless", "--ticks", "1", "--quiet", "--view", TOWN_VIEW, "--px-per-m",
               "10", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    img = load_png(png);
    cr_assert_eq(img->width, 650);
    cr_assert_eq(img->height, 550 + RENDER_FIT_TOP + RENDER_FIT_BOTTOM);
    int top = RENDER_FIT_TOP;
    NavColor solid = nav_rgba(46, 46, 54, 255);
    wall = pixel(img, (int)((WALL[0] - 30.0f) * 10.0f), top + (int)((135.0f - WALL[1]) * 10.0f));
    out = pixel(img, (int)((OUTSIDE[0] - 30.0f) * 10.0f), top + (int)((135.0f - OUTSIDE[1]) * 10.0f));
    sq = pixel(img, (int)((SQUARE[0] - 30.0f) * 10.0f), top + (int)((135.0f - SQUARE[1]) * 10.0f));
    cr_assert(same_color(wall, solid), "sim: the town wall is %d,%d,%d, not solid", wall.r, wall.g, wall.b);
    cr_assert_not(same_color(out, solid), "sim: outside the wall is solid");
    cr_assert(sq.r > 70 && abs(sq.r - sq.b) < 40 && abs(sq.g - sq.b) < 40, "sim: the square is %d,%d,%d, not floor",
              sq.r, sq.g, sq.b);
    expect_scale_and_north(img, 10.0f, "sim --view");
    image_destroy(img);

    /* --width: the same part 1300 wide, 20 px/m. */
    png = picture_path("view-valley-sim-wide.png");
    r = NAVBOT("sim", "maps/valley.lua", "--headless", "--ticks", "1", "--quiet", "--view", TOWN_VIEW, "--width",
               "1300", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    img = load_png(png);
    cr_assert_eq(img->width, 1300);
    cr_assert_eq(img->height, 1100 + RENDER_FIT_TOP + RENDER_FIT_BOTTOM);
    wall = pixel(img, (int)((WALL[0] - 30.0f) * 20.0f), top + (int)((135.0f - WALL[1]) * 20.0f));
    cr_assert(same_color(wall, solid), "sim --width: the town wall is %d,%d,%d", wall.r, wall.g, wall.b);
    expect_scale_and_north(img, 20.0f, "sim --view --width");
    image_destroy(img);

    /* route: the picture of the part, with its route from the square to
    ** the west gate. */
    png = picture_path("view-valley-route.png");
    r = NAVBOT("route", "maps/valley.lua", "--from", "61.5,107.5", "--to", "40,107.5", "--view", TOWN_VIEW, "--width",
               "650", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    img = load_png(png);
    cr_assert_eq(img->width, 650);
    NavColor start = pixel(img, (int)((61.5f - 30.0f) * 10.0f), (int)((135.0f - 107.5f) * 10.0f));
    cr_assert(same_color(start, nav_rgba(30, 180, 60, 255)), "route --view: the start marker is %d,%d,%d", start.r,
              start.g, start.b);
    image_destroy(img);
    NAV_TEST_LEAK_CHECK();
}

Test(render_view, replay_takes_a_view)
{
    const char *trace = temp_path("view.trace"), *png = picture_path("view-arena-replay.png");
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--ticks", "20", "--quiet", "--trace", trace);
    cr_assert_eq(r.status, CLI_OK, "run --trace: %s", r.err);
    run_free(&r);
    r = NAVBOT("replay", trace, "--headless", "--view", "2,2,14,10", "--px-per-m", "40", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "replay --view: %s", r.err);
    run_free(&r);
    NavImage *img = load_png(png);
    cr_assert_eq(img->width, 480);
    cr_assert_eq(img->height, 320 + RENDER_FIT_TOP + RENDER_FIT_BOTTOM);
    expect_scale_and_north(img, 40.0f, "replay --view");
    image_destroy(img);
    unlink(trace);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= usage errors ======= */

typedef struct Bad {
    const char *args[16];
    const char *says;
} Bad;

Test(render_view, bad_views_and_sizes_are_usage_errors)
{
    const char *png = temp_path("bad-view.png");
    static const Bad CASES[] = {
        { { "info", "maps/valley.lua", "--png", "P", "--view", "5,5,5,9" }, "empty" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "40,9,30,20" }, "empty" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "1,2,3" }, "X0,Y0,X1,Y1" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "a,b,c,d" }, "X0,Y0,X1,Y1" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "300,300,400,400" }, "outside the map" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "-50,-50,-1,-1" }, "spans 0,0 to 256,256" },
        { { "info", "maps/valley.lua", "--view", TOWN_VIEW }, "give --png FILE too" },
        { { "info", "maps/valley.lua", "--png", "P", "--px-per-m", "0" }, "--px-per-m needs" },
        { { "info", "maps/valley.lua", "--png", "P", "--px-per-m", "100" }, "at most 8192" },
        { { "info", "maps/valley.lua", "--png", "P", "--view", "0,0,10,10", "--px-per-m", "2" }, "at least 160" },
        { { "info", "maps/valley.lua", "--png", "P", "--width", "20" }, "--width needs" },
        { { "info", "maps/valley.lua", "--png", "P", "--width", "900", "--px-per-m", "3" }, "give one of them" },
        { { "route", "maps/valley.lua", "--from", "61,107", "--to", "40,107", "--view", "0,0,0,0", "--png", "P" },
          "empty" },
        { { "route", "maps/valley.lua", "--from", "61,107", "--to", "40,107", "--width", "900" }, "--png FILE too" },
        { { "sim", "maps/valley.lua", "--headless", "--ticks", "1", "--png", "P", "--view", "0,0,256,256", "--px-per-m",
            "100" },
          "at most 8192" },
        { { "sim", "maps/valley.lua", "--headless", "--ticks", "1", "--png", "P", "--size", "800x600", "--width",
            "900" },
          "--size and --width" },
        { { "sim", "maps/valley.lua", "--headless", "--ticks", "1", "--png", "P", "--view", "999,0,1000,5" },
          "outside the map" },
        { { "replay", "T", "--headless", "--view", "1,1,1,1" }, "empty" },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        const char *argv[18] = { "navbot" };
        int argc = 1;
        char line[512] = "";
        for (int i = 0; CASES[k].args[i]; i++) {
            const char *a = strcmp(CASES[k].args[i], "P") == 0 ? png : CASES[k].args[i];
            argv[argc++] = a;
            strncat(line, a, sizeof line - strlen(line) - 2);
            strcat(line, " ");
        }
        unlink(png);
        Run r = navbot(argc, argv);
        cr_assert_eq(r.status, CLI_USAGE, "navbot %s: exit %d, not 2 (usage): %s", line, r.status, r.err);
        cr_assert_not_null(strstr(r.err, CASES[k].says), "navbot %s: the message does not say '%s':\n%s", line,
                           CASES[k].says, r.err);
        cr_assert_eq(file_size(png), -1, "navbot %s: a picture was written", line);
        run_free(&r);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

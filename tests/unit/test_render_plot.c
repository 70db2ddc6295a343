/*
** test_render_plot.c — charts checked by their pixels: a bar chart's bars
** rise to the rows their values say and stop there, the baseline in grey,
** the legend and the axes' labels drawn; a time series' stacked areas and
** its right-axis line where their values say; `navbot run --plot` and
** `navbot bench --plot` write PNGs that decode and show their series, the
** run the same run (trace hash) as without; bad --plot files are usage
** errors. Pictures are written to build/pictures/plot_*.png to be looked at.
*/
#include "render_support.h"
#include "cli/bench_plot.h"
#include "render/font.h"
#include "render/render_plot.h"

/* {======= helpers ======= */

static NavFont *font(void)
{
    NavError err;
    nav_error_clear(&err);
    NavFont *f = font_load_default(&err);
    cr_assert_not_null(f, "%s", err.message);
    return f;
}

/* Pixels of colour c in [x0, x1) x [y0, y1). */
static int count_in(const NavImage *img, NavColor c, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, img->height); y++)
        for (int x = NAV_MAX(x0, 0); x < NAV_MIN(x1, img->width); x++) n += same_color(pixel(img, x, y), c);
    return n;
}

/* Pixels that are neither of the two backgrounds: ink. */
static int ink_in(const NavImage *img, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, img->height); y++)
        for (int x = NAV_MAX(x0, 0); x < NAV_MIN(x1, img->width); x++) {
            NavColor c = pixel(img, x, y);
            n += !same_color(c, PLOT_BACKGROUND) && !same_color(c, PLOT_AREA_BG);
        }
    return n;
}

/* The topmost row at column x, from the axis up, that has colour c in an
** unbroken run from the axis. */
static int bar_top(const NavImage *img, int x, int axis_row, NavColor c)
{
    int y = axis_row - 1;
    while (y >= 0 && same_color(pixel(img, x, y), c)) y--;
    return y + 1;
}

/* }======= */

Test(render_plot, bars_rise_to_their_values_with_the_baseline_in_grey)
{
    static const char *const groups[] = { "arena", "tower", "valley" };
    static const double mine[] = { 12.0, 30.0, 7.5 }, base[] = { 40.0, 55.0, 20.0 };
    PlotChart c = { .kind = PLOT_BARS,
                    .title = "bench test: mean time per query",
                    .subtitle = "made-up figures",
                    .unit = "us per query",
                    .count = 3,
                    .groups = groups,
                    .series_count = 2,
                    .series = { { .name = "JPS", .values = mine },
                                { .name = "A*", .values = base, .baseline = true } } };
    NavFont *f = font();
    NavImage *img = new_image(900, 500);
    PlotLayout l;
    plot_draw(img, f, &c, &l);
    save(img, "plot_bars.png");

    cr_assert(same_color(l.colors[0], plot_color(0)), "the first series takes the palette's first colour");
    cr_assert(same_color(l.colors[1], PLOT_BASELINE_COLOR), "the baseline is grey");
    cr_assert_eq(l.hi, 60.0, "the axis runs to the round value over the largest bar (55) and its label: %g", l.hi);
    for (int g = 0; g < 3; g++)
        for (int s = 0; s < 2; s++) {
            int x, w;
            plot_bar_columns(&l, &c, g, s, &x, &w);
            cr_assert(w >= 8, "bars are wide enough to see (%d px)", w);
            double v = s ? base[g] : mine[g];
            int want = plot_row(&l, v, false), mid = x + w / 2;
            /* The bar's body is its colour from just under its darker top
            ** edge down to the axis; over its top it is not. */
            int top = bar_top(img, mid, l.y1, l.colors[s]);
            cr_assert(abs(top - (want + 2)) <= 1,
                      "group %d series %d: the bar's colour reaches row %d, its value %g says %d", g, s, top, v,
                      want + 2);
            cr_assert(!same_color(pixel(img, mid, want - 1), l.colors[s]), "nothing of the bar over its value");
            /* Proportional: the height in pixels is the value's share of the axis. */
            double px = (double)(l.y1 - want), expect = v / l.hi * (l.y1 - l.y0);
            cr_assert(fabs(px - expect) <= 1.0, "bar height %g px, expected %g", px, expect);
            /* Its value is written over it. */
            cr_assert(count_in(img, nav_rgba(235, 238, 245, 255), x - 3, want - 14, x + w + 3, want - 1) > 5,
                      "group %d series %d: no value over the bar", g, s);
        }
    /* Bars sit side by side inside their group and the groups in order. */
    int x0, w0, x1, w1;
    plot_bar_columns(&l, &c, 0, 1, &x0, &w0);
    plot_bar_columns(&l, &c, 1, 0, &x1, &w1);
    cr_assert(x0 + w0 < x1, "group 1 starts right of group 0");

    /* The legend: a chip of each series' colour in its box, and names. */
    for (int s = 0; s < 2; s++)
        cr_assert(
            count_in(img, l.colors[s], l.legend_x, l.legend_y, l.legend_x + l.legend_w, l.legend_y + l.legend_h) >= 36,
            "the legend has a chip of series %d", s);
    cr_assert(ink_in(img, l.legend_x + 14, l.legend_y, l.legend_x + 60, l.legend_y + l.legend_h) > 20,
              "the legend names the series");
    /* Axis labels: tick numbers left of the axis, group names under it, the unit and the title. */
    cr_assert(ink_in(img, 0, l.y0 - 4, l.x0 - 4, l.y1 + 6) > 60, "no tick labels on the value axis");
    for (int g = 0; g < 3; g++) {
        int cx = l.x0 + (int)((g + 0.5) * (l.x1 - l.x0) / 3);
        cr_assert(ink_in(img, cx - 25, l.y1 + 4, cx + 25, l.y1 + 24) > 20, "no name under group %d", g);
    }
    cr_assert(ink_in(img, 0, l.y0 - 22, 120, l.y0 - 2) > 20, "no unit over the value axis");
    cr_assert(ink_in(img, 0, 0, img->width, 34) > 200, "no title");
    image_destroy(img);
    font_destroy(f);
}

Test(render_plot, missing_values_say_so_and_an_empty_chart_says_no_data)
{
    static const char *const groups[] = { "a", "b" };
    static const double v[] = { 5.0, NAN };
    PlotChart c = { .kind = PLOT_BARS,
                    .title = "gaps",
                    .count = 2,
                    .groups = groups,
                    .series_count = 1,
                    .series = { { .name = "x", .values = v } } };
    NavFont *f = font();
    NavImage *img = new_image(600, 360);
    PlotLayout l;
    plot_draw(img, f, &c, &l);
    int x, w;
    plot_bar_columns(&l, &c, 1, 0, &x, &w);
    cr_assert_eq(count_in(img, l.colors[0], x, l.y0, x + w, l.y1), 0, "a missing value draws no bar");
    cr_assert(ink_in(img, x - 4, l.y1 - 14, x + w + 4, l.y1) > 10, "a missing value is marked n/a");
    PlotChart empty = { .kind = PLOT_BARS, .title = "nothing" };
    plot_draw(img, f, &empty, &l);
    cr_assert(ink_in(img, l.x0 + 1, l.y0 + 1, l.x1, l.y1) > 30, "an empty chart says no data");
    save(img, "plot_empty.png");
    image_destroy(img);
    font_destroy(f);
}

Test(render_plot, time_series_stacks_areas_and_draws_the_right_axis_line)
{
    enum { N = 300 };
    static double a[N], b[N], r[N];
    for (int i = 0; i < N; i++) {
        a[i] = 2.0;
        b[i] = i < N / 2 ? 1.0 : 3.0;
        r[i] = i / 30; /* a step up every 30 points, 0 to 9 */
    }
    PlotChart c = { .kind = PLOT_LINES,
                    .title = "a run",
                    .unit = "ms per tick",
                    .right_unit = "bots arrived",
                    .x_unit = "s",
                    .count = N,
                    .x0 = 0.0,
                    .dx = 1.0 / 30.0,
                    .series_count = 3,
                    .series = { { .name = "Lua", .values = a, .stacked = true },
                                { .name = "routing", .values = b, .stacked = true },
                                { .name = "arrived", .values = r, .right = true } } };
    NavFont *f = font();
    NavImage *img = new_image(900, 480);
    PlotLayout l;
    plot_draw(img, f, &c, &l);
    save(img, "plot_lines.png");
    cr_assert_eq(l.hi, 5.0, "the left axis runs to the stack's top (5), a round value: %g", l.hi);
    cr_assert(l.right_hi >= 9.0, "the right axis covers its series: %g", l.right_hi);
    /* A quarter and three quarters in: the first area from 0 to 2, the
    ** second on it to 3 and then to 5. */
    int xs[2] = { l.x0 + (l.x1 - l.x0) / 4, l.x0 + 3 * (l.x1 - l.x0) / 4 };
    double tops[2] = { 3.0, 5.0 };
    for (int k = 0; k < 2; k++) {
        int x = xs[k];
        /* (Rows clear of the arrivals line, which crosses the areas.) */
        int mid_a = plot_row(&l, 0.5, false), mid_b = plot_row(&l, 2.25, false);
        cr_assert(same_color(pixel(img, x, mid_a), l.colors[0]), "column %d: the first area under 2", x);
        cr_assert(same_color(pixel(img, x, mid_b), l.colors[1]), "column %d: the second area on it", x);
        int over = plot_row(&l, tops[k], false) - 3;
        cr_assert(!same_color(pixel(img, x, over), l.colors[1]), "column %d: nothing stacked over %g", x, tops[k]);
        /* The right axis's line passes at its value's row in this column. */
        int i = (int)((double)(x - l.x0) / (l.x1 - l.x0) * N);
        int row = plot_row(&l, r[i], true);
        cr_assert(count_in(img, l.colors[2], x, row - 2, x + 1, row + 3) > 0, "column %d: the line is not at row %d", x,
                  row);
    }
    /* The right axis has labels in its series' colour. */
    cr_assert(count_in(img, l.colors[2], l.x1 + 4, l.y0 - 4, img->width, l.y1 + 6) > 40, "no right axis labels");
    /* The x axis has numbers under it. */
    cr_assert(ink_in(img, l.x0, l.y1 + 4, l.x1, l.y1 + 20) > 40, "no labels along time");
    image_destroy(img);
    font_destroy(f);
}

/* {======= from the command line ======= */

static const char *trace_hash(const char *out)
{
    static char hash[17];
    const char *p = strstr(out, "trace hash ");
    cr_assert_not_null(p, "no trace hash in: %s", out);
    snprintf(hash, sizeof hash, "%.16s", p + 11);
    return hash;
}

Test(render_plot, run_plot_draws_the_time_split_and_arrivals_without_changing_the_run)
{
    const char *png = picture_path("plot_run.png");
    remove(png);
    Run plain = NAVBOT("run", "maps/arena.lua", "--bot", "runner:6", "--quiet");
    Run plotted = NAVBOT("run", "maps/arena.lua", "--bot", "runner:6", "--quiet", "--plot", png);
    cr_assert_eq(plotted.status, 0, "%s%s", plotted.out, plotted.err);
    char a[17];
    snprintf(a, sizeof a, "%s", trace_hash(plain.out));
    cr_assert_str_eq(trace_hash(plotted.out), a, "--plot changed the run");
    cr_assert(strstr(plotted.err, "chart written to"), "%s", plotted.err);
    NavImage *img = load_png(png);
    cr_assert_eq(img->width, 1200);
    cr_assert_eq(img->height, 600);
    /* Lua's area (the palette's first) and the arrivals line (its green). */
    cr_assert(count_in(img, plot_color(0), 0, 80, img->width, img->height) > 200, "no Lua time drawn");
    cr_assert(count_in(img, plot_color(2), 0, 80, img->width, img->height) > 200, "no arrivals line");
    image_destroy(img);
    run_free(&plain);
    run_free(&plotted);
}

Test(render_plot, bench_plot_charts_the_grid_benchmark_with_its_baseline)
{
    const char *png = picture_path("plot_bench_grid.png");
    remove(png);
    Run r = NAVBOT("bench", "grid", "--limit", "60", "--updates", "4", "tests/data/movingai/8room_000.map.scen",
                   "tests/data/movingai/lak303d.map.scen", "--plot", png);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "8room_000") && strstr(r.out, "lak303d") && strstr(r.out, "A* (baseline)"),
              "the charted figures are printed: %s", r.out);
    NavImage *img = load_png(png);
    cr_assert(count_in(img, plot_color(0), 0, 60, img->width, img->height) > 300, "no JPS bars");
    cr_assert(count_in(img, PLOT_BASELINE_COLOR, 0, 60, img->width, img->height) > 300, "no A* baseline bars");
    image_destroy(img);
    run_free(&r);
}

/* Each benchmark's JSON (as its --json writes it, figures made up) gives
** a chart with bars of its series. */
Test(render_plot, every_benchmark_has_a_chart)
{
    static const struct {
        const char *bench, *json;
        int series;
    } cases[] = {
        { "compile",
          "{\"map\":\"maps/arena.lua\",\"class\":\"human\",\"compile_ms\":3.5}\n"
          "{\"map\":\"maps/arena.lua\",\"mesh_triangles\":10}\n"
          "{\"map\":\"maps/tower.lua\",\"class\":\"human\",\"compile_ms\":9.25}\n",
          1 },
        { "route", "{\"map\":\"maps/arena.lua\",\"cold_mean_us\":4,\"dijkstra_mean_us\":40}", 2 },
        { "crowd",
          "{\"runs\":[{\"bots\":1000,\"tick_mean_ms\":3,\"baseline\":{\"tick_mean_ms\":1}},"
          "{\"bots\":10000,\"tick_mean_ms\":25,\"baseline\":{\"tick_mean_ms\":9}}]}",
          2 },
        { "competence",
          "{\"runs\":[{\"map\":\"arena\",\"mode\":\"solo\",\"arrived_pct\":100},"
          "{\"map\":\"arena\",\"mode\":\"crowd\",\"arrived_pct\":95},"
          "{\"map\":\"tower\",\"mode\":\"shared\",\"arrived_pct\":80}]}",
          3 },
        { "shortpath", "{\"runs\":[{\"units\":50,\"mean_us\":20,\"long_mean_us\":60}]}", 2 },
        { "learning",
          "{\"runs\":[{\"map\":\"valley\",\"mode\":\"explore\",\"all_s\":80},"
          "{\"map\":\"valley\",\"mode\":\"watch\",\"all_s\":50,\"runner_all_s\":30}],"
          "\"searches\":[{\"map\":\"valley\",\"name\":\"default\",\"search_tick_mean_ms\":0.3},"
          "{\"map\":\"valley\",\"name\":\"tight\",\"search_tick_mean_ms\":0.1}]}",
          3 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char name[64];
        snprintf(name, sizeof name, "plot_bench_%s.png", cases[k].bench);
        const char *png = picture_path(name);
        cr_assert(bench_plot_known(cases[k].bench));
        char *table = NULL;
        size_t len = 0;
        FILE *t = open_memstream(&table, &len);
        cr_assert_eq(bench_plot_write(cases[k].bench, cases[k].json, png, t, stderr), 0, "%s", cases[k].bench);
        fclose(t);
        NavImage *img = load_png(png);
        for (int s = 0; s < cases[k].series; s++) {
            bool base = (strcmp(cases[k].bench, "route") == 0 || strcmp(cases[k].bench, "crowd") == 0 ||
                         strcmp(cases[k].bench, "shortpath") == 0 || strcmp(cases[k].bench, "learning") == 0) &&
                        s == cases[k].series - 1;
            NavColor c = base ? PLOT_BASELINE_COLOR : plot_color(s);
            cr_assert(count_in(img, c, 0, 60, img->width, 540) > 100, "%s: no bars of series %d", cases[k].bench, s);
        }
        if (strcmp(cases[k].bench, "learning") == 0) {
            cr_assert_eq(img->height, 2 * 540, "learning: runs and searches, one chart above the other");
            cr_assert(count_in(img, plot_color(1), 0, 600, img->width, img->height) > 100, "no searches chart");
        }
        if (strcmp(cases[k].bench, "compile") == 0)
            cr_assert(strstr(table, "arena human") && strstr(table, "tower human") && !strstr(table, "mesh"),
                      "groups per map and class, mesh loads left out: %s", table);
        free(table);
        image_destroy(img);
    }
    cr_assert(!bench_plot_known("nothing"));
    FILE *quiet_err = fopen("/dev/null", "w");
    cr_assert_neq(bench_plot_write("route", "{not json", picture_path("plot_bad.png"), NULL, quiet_err), 0,
                  "output that is not JSON is refused");
    fclose(quiet_err);
}

Test(render_plot, bad_plot_files_are_usage_errors)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--plot", "build/pictures/run.txt");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert(strstr(r.err, "not a .png file name"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--plot", "build/no/such/folder/run.png");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert(strstr(r.err, "no folder build/no/such/folder"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("bench", "grid", "tests/data/movingai/8room_000.map.scen", "--plot");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert(strstr(r.err, "--plot needs a file name"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("bench", "route", "maps/arena.lua", "--plot", "/nonexistent-dir/x.png");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert(strstr(r.err, "no folder /nonexistent-dir"), "%s", r.err);
    run_free(&r);
}

/* }======= */

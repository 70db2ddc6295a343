/*
** test_window_xvfb.c — the real window, as a user sees it: `navbot sim
** maps/tower.lua --level N` opens an SDL2 window under a virtual X server
** for each storey, and its last frame (--screenshot) must name that
** storey exactly as the headless pictures do (the label's pixels against
** the font's own drawing of its text), carry the legend band along the
** bottom, and not say PAUSED while it runs.
**
** The test command runs this suite under xvfb-run with NAVBOT_TEST_WINDOW
** set (tests/driver.lua, the window check); elsewhere it is skipped, so a
** unit test run never opens windows on a desktop.
*/
#include "render_support.h"

/* The legend band: the bottom rows mostly the band's dark background,
** with text and swatches on it. */
static void check_band(const NavImage *img, const char *what)
{
    int dark = 0, bright = 0, n = 0;
    for (int y = img->height - 24; y < img->height; y++)
        for (int x = 0; x < img->width; x++, n++) {
            NavColor c = pixel(img, x, y);
            int lum = (c.r + c.g + c.b) / 3;
            dark += lum < 48;
            bright += lum > 180;
        }
    cr_assert_gt(dark, n * 6 / 10, "%s: the bottom rows are not the legend band (%d of %d dark)", what, dark, n);
    cr_assert_gt(bright, n / 100, "%s: the legend band has no text (%d of %d bright pixels)", what, bright, n);
}

Test(window_xvfb, each_storey_named_with_its_legend_in_the_real_window)
{
    if (!getenv("NAVBOT_TEST_WINDOW")) cr_skip_test("the window check runs these (NAVBOT_TEST_WINDOW under xvfb-run)");
    NavWorld *w = test_load_map("maps/tower.lua");
    Renderer *r = new_renderer();
    static const char *NAMES[] = { "ground", "second", "third", "roof" };
    mkdir("build/pictures", 0755);
    for (int level = 1; level <= 4; level++) {
        char png[64], arg[16];
        snprintf(png, sizeof png, "build/pictures/window-tower-%d.png", level);
        snprintf(arg, sizeof arg, "%d", level);
        unlink(png);
        Run run = NAVBOT("sim", "maps/tower.lua", "runner:3", "--level", arg, "--ticks", "20", "--quiet",
                         "--screenshot", png);
        cr_assert_eq(run.status, CLI_OK, "storey %d: %s", level, run.err);
        cr_assert(strstr(run.err, "the last frame is in") != NULL, "storey %d: %s", level, run.err);
        run_free(&run);
        NavImage *img = load_png(png);
        cr_assert_eq(img->width, 1280);
        cr_assert_eq(img->height, 800);
        RenderStoreyLabel l;
        render_storey_label(r, w, level - 1, img->width, &l);
        char want[64];
        snprintf(want, sizeof want, "storey %d of 4: %s", level, NAMES[level - 1]);
        cr_assert_str_eq(l.text, want);
        size_t bad = label_mismatch(r, img, &l);
        cr_assert_eq(bad, 0, "%s: the label '%s' differs in %zu of %d pixels", png, l.text, bad, l.w * l.h);
        check_band(img, png);
        cr_assert_not(says_paused(r, img->pixels, img->width, img->height), "%s says PAUSED while running", png);
        image_destroy(img);
    }
    render_destroy(r);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

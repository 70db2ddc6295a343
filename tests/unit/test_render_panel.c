/*
** test_render_panel.c — what the pictures say must be true: the selected
** bot's panel plots its speed and state when a history is kept; its state
** is the run report's, word for word, for a bot that reached a goal and
** was then sent on (so it has an arrival time, yet has not arrived); a
** brain whose reload failed has its error written in red until a reload
** succeeds; overlays are named with the legend off. Pictures are written
** to build/pictures/ (helpers in render_support.h).
*/
#define _DEFAULT_SOURCE /* utimensat */
#include <fcntl.h>

#include "render_support.h"
#include "cli/sim_setup.h"
#include "render/font.h"
#include "render/render_history.h"
#include "render/render_internal.h"
#include "script/bot_outcome.h"

/* {======= helpers ======= */

static const NavColor TEXT = { 235, 238, 245, 255 };

/* Is `text` written in colour c (every glyph pixel exactly c) anywhere in
** the rows [y0, y1) and columns [x0, x1) of the RGBA pixels px? */
static bool written(Renderer *r, const uint8_t *px, int width, int x0, int y0, int x1, int y1, const char *text,
                    NavColor c)
{
    int tw = font_text_width(r->font, text, 1), th = font_line_height(r->font, 1);
    NavImage *mask = new_image(tw, th);
    image_fill(mask, nav_rgba(0, 0, 0, 0));
    font_draw(mask, r->font, 0, 0, text, nav_rgba(255, 255, 255, 255), 1);
    bool found = false;
    for (int y = y0; y + th <= y1 && !found; y++)
        for (int x = x0; x + tw <= x1 && !found; x++) {
            bool all = true;
            for (int my = 0; my < th && all; my++)
                for (int mx = 0; mx < tw && all; mx++) {
                    if (pixel(mask, mx, my).a == 0) continue;
                    const uint8_t *p = px + ((size_t)(y + my) * (size_t)width + (size_t)(x + mx)) * 4;
                    all = p[0] == c.r && p[1] == c.g && p[2] == c.b;
                }
            found = all;
        }
    image_destroy(mask);
    return found;
}

/* Written in the picture's top right quarter, where the panel is. */
static bool in_panel(Renderer *r, const NavImage *img, const char *text)
{
    return written(r, img->pixels, img->width, img->width / 2, 0, img->width, img->height / 2, text, TEXT);
}

static size_t count_color(const NavImage *img, NavColor c)
{
    size_t n = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) n += same_color(pixel(img, x, y), c);
    return n;
}

/* }======= */

Test(render_panel, plots_speed_and_state_of_the_selected_bot)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    RenderHistory *h = render_history_create();
    float p[3];
    arena_point(w, -2.0f, p);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s", err.message);
    RenderInfo none = { 0 };
    for (int t = 0; t < 90; t++) {
        /* Standing a second, then moving. */
        sim_bot_control(sim, 0)->move[0] = t < 30 ? 0.0f : 1.0f;
        sim_step(sim);
        render_history_record(h, sim, &none);
    }
    NavImage *img = map_image(w, 1280), *bare = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    v.selected = 0;
    RenderInfo info = { .mode = "sim", .history = h };
    render_draw(r, img, sim, &v, &info);
    save(img, "panel_history.png");
    render_draw(r, bare, sim, &v, &none);
    NavColor speed = nav_rgba(120, 220, 255, 255);
    NavColor moving = render_history_state_color(HISTORY_MOVING), idle = render_history_state_color(HISTORY_IDLE);
    cr_assert_gt(count_color(img, speed), 40, "no speed plot (%zu pixels)", count_color(img, speed));
    cr_assert_eq(count_color(bare, speed), 0, "a speed plot without a history");
    /* The strip: 8 rows of each state it went through. */
    cr_assert_gt(count_color(img, moving), 8 * 20, "the strip shows no moving (%zu)", count_color(img, moving));
    cr_assert_gt(count_color(img, idle), 8 * 10, "the strip shows no standing (%zu)", count_color(img, idle));
    cr_assert(in_panel(r, img, "moving") && in_panel(r, img, "idle"), "the strip's states are not named");
    const NavColor DIM = { 170, 176, 190, 255 };
    cr_assert(written(r, img->pixels, img->width, img->width / 2, 0, img->width, img->height / 2,
                      "route choices: none seen", DIM),
              "no route choices line");
    image_destroy(img);
    image_destroy(bare);
    render_history_destroy(h);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A bot that reached a goal and was sent on has an arrival time but has
** not arrived: the report says "not arrived", and so must the panel. */
Test(render_panel, state_is_the_run_reports)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSession *s = new_session(w);
    NavSim *sim = session_sim(s);
    Renderer *r = new_renderer();
    float p[3], far[3];
    arena_point(w, 0.0f, p);
    arena_point(w, 4.0f, far);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(session_add_bot(s, NULL, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s",
                  err.message);
    sim_bot_push_goal(sim, 0, sim_bot(sim, 0)->pos, 1.0f);
    for (int t = 0; t < 10; t++) session_step(s);
    cr_assert(sim_bot_arrived(sim, 0), "the bot did not reach the goal at its feet");
    sim_bot_push_goal(sim, 0, far, 0.5f);
    for (int t = 0; t < 10; t++) session_step(s);
    const NavBot *b = sim_bot(sim, 0);
    cr_assert_geq(b->arrival_time, 0.0, "no arrival time");
    cr_assert_not(sim_bot_arrived(sim, 0));

    /* The report. */
    char *out = NULL, *errs = NULL;
    size_t out_n = 0, errs_n = 0;
    FILE *fo = open_memstream(&out, &out_n), *fe = open_memstream(&errs, &errs_n);
    CliContext cx = { .out = fo, .err = fe };
    SimSetup setup;
    sim_setup_defaults(&setup);
    sim_setup_report(&cx, s, &setup, NULL);
    fclose(fo);
    fclose(fe);
    char words[64];
    bot_outcome_text(sim, 0, false, 0, words, sizeof words);
    cr_assert_str_eq(words, "not arrived");
    char line[96];
    snprintf(line, sizeof line, "bot %-3u %-10s %-17s", 0u, "", words);
    cr_assert_not_null(strstr(out, line), "the report says:\n%s", out);

    /* The panel. */
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    v.selected = 0;
    RenderInfo info = { .session = s, .mode = "sim" };
    render_draw(r, img, sim, &v, &info);
    save(img, "panel_state_not_arrived.png");
    cr_assert(in_panel(r, img, "state: not arrived"), "the panel does not say \"state: not arrived\"");
    cr_assert_not(in_panel(r, img, "arrived at"), "the panel says \"arrived at\"");
    free(out);
    free(errs);
    image_destroy(img);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The same through the command line: the report's line and the PNG's
** panel of `navbot sim --select 0` agree. */
Test(render_panel, headless_panel_agrees_with_the_report)
{
    Renderer *r = new_renderer();
    const char *png = temp_path("panel-report.png");
    unlink(png);
    Run run = NAVBOT("sim", "maps/gauntlet.lua", "runner", "--headless", "--ticks", "20", "--quiet", "--select", "0",
                     "--png", png);
    cr_assert_eq(run.status, CLI_OK, "%s", run.err);
    cr_assert_not_null(strstr(run.out, "runner     not arrived"), "%s", run.out);
    int iw, ih, ch;
    uint8_t *px = stbi_load(png, &iw, &ih, &ch, 4);
    cr_assert_not_null(px, "%s does not decode", png);
    cr_assert(written(r, px, iw, iw / 2, 0, iw, ih / 2, "state: not arrived", TEXT), "the panel disagrees");
    stbi_image_free(px);
    unlink(png);
    run_free(&run);
    render_destroy(r);
}

/* {======= a failed reload ======= */

static void write_brain(const char *path, const char *text, int stamp)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
    /* A second apart whatever the clock: the reload sees a change. */
    struct timespec t[2] = { { .tv_sec = 2000000000 + stamp, .tv_nsec = 0 },
                             { .tv_sec = 2000000000 + stamp, .tv_nsec = 0 } };
    cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* Is the reload's error written in red at the bottom left? */
static bool error_shown(Renderer *r, const NavImage *img)
{
    return written(r, img->pixels, img->width, 0, img->height / 2, img->width / 2, img->height, "reload of",
                   RENDER_ERROR_TEXT);
}

Test(render_panel, failed_reload_in_red_until_fixed)
{
    const char *path = temp_path("still.lua");
    write_brain(path, "return { think = function(bot, dt) end }\n", 1);
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSession *s = new_session(w);
    Renderer *r = new_renderer();
    float p[3];
    arena_point(w, 0.0f, p);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(session_add_bot(s, path, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s",
                  err.message);
    cr_assert_not(session_bot_faulted(s, 0), "%s", session_bot_error(s, 0));
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    RenderInfo info = { .session = s, .mode = "sim" };
    session_step(s);
    render_draw(r, img, session_sim(s), &v, &info);
    cr_assert_not(error_shown(r, img), "an error before any reload failed");

    write_brain(path, "return { think = function(bot, dt) end\n", 2);
    cr_assert_eq(session_reload_changed(s), 0, "a broken brain reloaded");
    for (int k = 0; k < 3; k++) {
        /* Ticks later, still there. */
        session_step(s);
        render_draw(r, img, session_sim(s), &v, &info);
        cr_assert(error_shown(r, img), "tick %d after the failed reload: no error in red", k);
    }
    save(img, "reload_error.png");
    /* The legend and the HUD off: still there. */
    v.legend = v.hud = false;
    render_draw(r, img, session_sim(s), &v, &info);
    cr_assert(error_shown(r, img), "with the legend and HUD off the error is gone");
    v.legend = v.hud = true;

    write_brain(path, "return { think = function(bot, dt) bot:say('fixed') end }\n", 3);
    cr_assert_eq(session_reload_changed(s), 1, "the fixed brain did not reload");
    session_step(s);
    render_draw(r, img, session_sim(s), &v, &info);
    cr_assert_not(error_shown(r, img), "the error stays after a reload succeeded");
    unlink(path);
    image_destroy(img);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* With the legend off, the overlays on are still named. */
Test(render_panel, overlays_named_with_the_legend_off)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    v.legend = false;
    v.overlays = RENDER_BIT(RENDER_LINKS) | RENDER_BIT(RENDER_TRAILS);
    render_draw(r, img, sim, &v, NULL);
    save(img, "overlays_without_legend.png");
    const NavColor DIM = { 170, 176, 190, 255 };
    cr_assert(written(r, img->pixels, img->width, 0, img->height / 2, img->width, img->height,
                      "overlays: links, trails", DIM),
              "the overlays on are not named");
    v.overlays = 0;
    render_draw(r, img, sim, &v, NULL);
    cr_assert_not(written(r, img->pixels, img->width, 0, img->height / 2, img->width, img->height, "overlays:", DIM),
                  "overlays named when none is on");
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_render_storey.c — one storey at a time: the picture names the
** storey it shows, bots elsewhere are outlines, headless pictures never
** say PAUSED, and --level takes a number or a layer's name (helpers in
** render_support.h).
*/
#include "render_support.h"
#include "render/font.h"
#include "render/render_internal.h"

Test(render_storey, label_names_each_storey)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    int levels = render_level_count(r, w);
    cr_assert_eq(levels, 4, "tower has %d storeys", levels);
    static const char *NAMES[] = { "ground", "second", "third", "roof" };
    NavImage *img = map_image(w, 1280);
    RenderView v;
    bare_view(&v, w, img);
    for (int level = 0; level < levels; level++) {
        v.level = level;
        render_draw(r, img, sim, &v, NULL);
        RenderStoreyLabel l;
        render_storey_label(r, w, level, img->width, &l);
        char want[64];
        snprintf(want, sizeof want, "storey %d of 4: %s", level + 1, NAMES[level]);
        cr_assert_str_eq(l.text, want);
        size_t bad = label_mismatch(r, img, &l);
        cr_assert_eq(bad, 0, "storey %d: the label '%s' differs in %zu of %d pixels", level + 1, l.text, bad,
                     l.w * l.h);
    }
    /* All floors: no label where it would be. */
    v.level = -1;
    render_draw(r, img, sim, &v, NULL);
    RenderStoreyLabel l;
    render_storey_label(r, w, 0, img->width, &l);
    cr_assert_gt(label_mismatch(r, img, &l), (size_t)(l.w * l.h) / 4, "the all-floors picture has a storey label");
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A ground-floor bot seen from the second storey: a ring in its colour
** with the floor showing inside it; on its own storey a filled body. */
Test(render_storey, bot_elsewhere_is_an_outline)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w), *bare = new_sim(w);
    Renderer *r = new_renderer();
    int sp = world_find_entity(w, "spawn_west");
    cr_assert_geq(sp, 0);
    float o[3];
    entity_origin(world_entity(w, sp), o);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err), 0, "%s", err.message);
    const NavBot *b = sim_bot(sim, 0);
    cr_assert_eq(render_level_at(r, w, b->pos[2]), 0, "the bot is not on the ground storey (z %.2f)",
                 (double)b->pos[2]);
    NavImage *empty = map_image(w, 1280), *img = map_image(w, 1280);
    RenderView v;
    bare_view(&v, w, img);
    int px, py;
    world_pixel(&v, img, b->pos[0], b->pos[1], &px, &py);
    int rad = (int)lroundf(fmaxf(world_class(w, b->cls)->radius * v.zoom, 4.0f));
    cr_assert_geq(rad, 6, "zoom %.1f px/m: the bot is too small to tell a ring from a disc", (double)v.zoom);
    for (int level = 0; level < 2; level++) {
        v.level = level;
        render_draw(r, empty, bare, &v, NULL);
        render_draw(r, img, sim, &v, NULL);
        size_t centre = count_diff_in(empty, img, px - 1, py - 1, px + 2, py + 2);
        /* The ring: any changed pixel on the circle's left and bottom
        ** (the storey number is written up and right). */
        size_t ring = count_diff_in(empty, img, px - rad - 2, py - 1, px - rad + 2, py + 2) +
                      count_diff_in(empty, img, px - 1, py + rad - 2, px + 2, py + rad + 2);
        if (level == 0) {
            cr_assert_eq(centre, 9, "on its storey the bot's centre is not filled (%zu of 9 pixels)", centre);
        } else {
            cr_assert_eq(centre, 0, "from storey 2 the bot's centre is drawn over (%zu pixels): not an outline",
                         centre);
            cr_assert_gt(ring, 4, "from storey 2 the bot has no ring (%zu pixels)", ring);
            /* Its storey number beside it. */
            cr_assert_gt(count_diff_in(empty, img, px + rad, py - rad - 16, px + rad + 16, py - rad), 4,
                         "no storey number by the outline");
        }
    }
    /* Picking on the storey shown: the outline is not picked. */
    float fx, fy;
    render_to_screen(&v, img->width, img->height, b->pos[0], b->pos[1], &fx, &fy);
    v.level = 1;
    cr_assert_eq(render_pick_bot_shown(r, sim, &v, img->width, img->height, fx, fy), -1);
    v.level = 0;
    cr_assert_eq(render_pick_bot_shown(r, sim, &v, img->width, img->height, fx, fy), 0);
    image_destroy(empty);
    image_destroy(img);
    sim_destroy(bare);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(render_storey, headless_never_says_paused)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    /* The search finds the word when it is there. */
    RenderInfo info = { .mode = "sim", .paused = true };
    render_draw(r, img, sim, &v, &info);
    cr_assert(says_paused(r, img->pixels, img->width, img->height), "the search does not find PAUSED");
    info.paused = false;
    render_draw(r, img, sim, &v, &info);
    cr_assert_not(says_paused(r, img->pixels, img->width, img->height), "PAUSED found where it is not");
    for (int k = 0; k < 2; k++) {
        const char *png = temp_path(k ? "storey-level.png" : "storey-sim.png");
        unlink(png);
        Run run = k ? NAVBOT("sim", "maps/tower.lua", "--headless", "--ticks", "3", "--quiet", "--level", "2",
                             "--png", png)
                    : NAVBOT("sim", "maps/tower.lua", "--headless", "--ticks", "3", "--quiet", "--png", png);
        cr_assert_eq(run.status, CLI_OK, "%s", run.err);
        run_free(&run);
        int iw, ih, ch;
        uint8_t *px = stbi_load(png, &iw, &ih, &ch, 4);
        cr_assert_not_null(px, "%s does not decode", png);
        cr_assert_not(says_paused(r, px, iw, ih), "%s says PAUSED", png);
        stbi_image_free(px);
        unlink(png);
    }
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(render_storey, cli_level_by_number_or_name)
{
    const char *png = temp_path("storey-cli.png");
    unlink(png);
    Run r = NAVBOT("sim", "maps/tower.lua", "--headless", "--ticks", "2", "--quiet", "--level", "attic", "--png", png);
    cr_assert_eq(r.status, CLI_USAGE, "--level attic: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "--level attic"), "%s", r.err);
    cr_assert(strstr(r.err, "1 (ground), 2 (second), 3 (third), 4 (roof)"), "the storeys are not listed: %s", r.err);
    cr_assert_eq(file_size(png), -1, "a picture was written for a bad --level");
    run_free(&r);
    r = NAVBOT("sim", "maps/tower.lua", "--headless", "--ticks", "2", "--quiet", "--level", "5", "--png", png);
    cr_assert_eq(r.status, CLI_USAGE, "--level 5: %d: %s", r.status, r.err);
    run_free(&r);
    r = NAVBOT("sim", "maps/arena.lua", "--headless", "--ticks", "2", "--quiet", "--level", "2", "--png", png);
    cr_assert_eq(r.status, CLI_USAGE, "--level 2 on one storey: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "1 (one storey)"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("sim", "maps/tower.lua", "--headless", "--ticks", "2", "--quiet", "--level", "roof", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "--level roof: %s", r.err);
    run_free(&r);
    unlink(png);
    r = NAVBOT("info", "maps/tower.lua", "--png", png, "--level", "third");
    cr_assert_eq(r.status, CLI_OK, "info --level third: %s", r.err);
    cr_assert_gt(file_size(png), 1000);
    run_free(&r);
    unlink(png);
    r = NAVBOT("info", "maps/tower.lua", "--png", png, "--level", "cellar");
    cr_assert_eq(r.status, CLI_USAGE, "info --level cellar: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "4 (roof)"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/tower.lua", "--from", "5,5", "--to", "20,10,8", "--png", png, "--level", "9");
    cr_assert_eq(r.status, CLI_USAGE, "route --level 9: %d: %s", r.status, r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/tower.lua", "--from", "5,5", "--to", "20,10,8", "--png", png, "--level", "2");
    cr_assert_eq(r.status, CLI_OK, "route --level 2: %s", r.err);
    cr_assert_gt(file_size(png), 1000);
    run_free(&r);
    unlink(png);
}

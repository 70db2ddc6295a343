/*
** test_render_more.c — the floor selector, a renderer kept across maps, PNG
** files, replays and the command line (helpers in render_support.h).
*/
#include "render_support.h"
#include "grid/grid_place.h"

/* {======= the floor selector ======= */

Test(render, floor_selector_shows_one_storey)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    int levels = render_level_count(r, w);
    cr_assert_gt(levels, 1, "tower has %d floor levels", levels);
    for (int i = 1; i < levels; i++) cr_assert_gt(render_level_z(r, w, i), render_level_z(r, w, i - 1));
    cr_assert(isinf(render_level_z(r, w, levels)));
    NavImage *all = map_image(w, 640), *img = map_image(w, 640), *prev = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, all);
    render_draw(r, all, sim, &v, NULL);
    size_t map_px = (size_t)(world_width(w) * world_cell_size(w) * v.zoom) *
                    (size_t)(world_height(w) * world_cell_size(w) * v.zoom);
    for (int level = 0; level < levels; level++) {
        v.level = level;
        render_draw(r, img, sim, &v, NULL);
        size_t n = count_diff(all, img);
        /* The top level shows what is seen from above where nothing is higher. */
        if (level < levels - 1)
            cr_assert_gt(n, map_px / 20, "level %d differs from all floors in %zu pixels", level, n);
        if (level > 0)
            cr_assert_gt(count_diff(prev, img), map_px / 20, "levels %d and %d look the same", level - 1, level);
        copy_image(prev, img);
    }
    /* Back to all floors: the first picture again. */
    v.level = -1;
    render_draw(r, img, sim, &v, NULL);
    cr_assert_eq(count_diff(all, img), 0);
    image_destroy(all);
    image_destroy(img);
    image_destroy(prev);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A bot on the ground floor is shown at level 0 and, from the floor
** above, drawn as an outline (test_render_storey.c checks its shape):
** never as the same body. */
Test(render, floor_selector_marks_bots_of_other_floors)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    cr_assert_gt(render_level_count(r, w), 1);
    int sp = world_find_entity(w, "spawn_west");
    cr_assert_geq(sp, 0);
    float o[3];
    entity_origin(world_entity(w, sp), o);
    NavSim *bare = new_sim(w);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err), 0, "%s", err.message);
    NavImage *empty = map_image(w, 640), *img = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, empty);
    size_t body = 0;
    for (int level = -1; level < 2; level++) {
        v.level = level;
        render_draw(r, empty, bare, &v, NULL);
        render_draw(r, img, sim, &v, NULL);
        size_t n = count_diff(empty, img);
        if (level < 1) cr_assert_gt(n, 20, "the ground-floor bot is not shown at level %d", level);
        if (level == 0) body = n;
        if (level == 1) {
            cr_assert_gt(n, 0, "the ground-floor bot is not marked on the floor above");
            cr_assert_neq(n, body, "the ground-floor bot is drawn on the floor above as on its own");
        }
    }
    sim_destroy(bare);
    image_destroy(empty);
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= a renderer kept across maps ======= */

/* A renderer outlives its map (a window reloading one): the next map's
** picture is its own, and after render_invalidate so are its floor
** levels, even when the new map was allocated where the freed one was
** (malloc hands the block back; the renderer's caches were keyed on the
** world's address). Tried a few times to get the address reused. */
Test(render, renderer_follows_a_new_map)
{
    Renderer *r = new_renderer();
    int reused = 0;
    for (int k = 0; k < 6; k++) {
        NavWorld *t = test_load_map("maps/tower.lua");
        NavSim *ts = new_sim(t);
        NavImage *ti = map_image(t, 320);
        RenderView v;
        bare_view(&v, t, ti);
        render_draw(r, ti, ts, &v, NULL);
        cr_assert_gt(render_level_count(r, t), 1);
        uintptr_t old = (uintptr_t)t;
        image_destroy(ti);
        sim_destroy(ts);
        world_destroy(t);

        NavWorld *a = test_load_map("maps/arena.lua");
        reused += (uintptr_t)a == old;
        NavSim *as = new_sim(a);
        NavImage *ai = map_image(a, 320), *fi = map_image(a, 320);
        bare_view(&v, a, ai);
        Renderer *fresh = new_renderer();
        render_draw(r, ai, as, &v, NULL);
        render_draw(fresh, fi, as, &v, NULL);
        cr_assert_eq(count_diff(ai, fi), 0, "try %d: the arena drawn by the tower's renderer differs in %zu pixels%s",
                     k, count_diff(ai, fi), (uintptr_t)a == old ? " (same address)" : "");
        render_invalidate(r);
        cr_assert_eq(render_level_count(r, a), 0, "try %d: after render_invalidate the arena has %d levels%s", k,
                     render_level_count(r, a), (uintptr_t)a == old ? " (the tower's; same address)" : "");
        render_destroy(fresh);
        image_destroy(ai);
        image_destroy(fi);
        sim_destroy(as);
        world_destroy(a);
    }
    cr_log_info("renderer_follows_a_new_map: the address was reused %d of 6 times", reused);
    render_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= PNG files ======= */

Test(render, session_png_is_written_and_is_the_frame)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSession *s = new_session(w);
    float p[3];
    arena_point(w, 0, p);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(session_add_bot(s, NULL, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s", err.message);
    const char *path = temp_path("session.png");
    unlink(path);
    cr_assert_eq(render_session_png(s, 0, path, &err), NAV_OK, "%s", err.message);
    long size = file_size(path);
    cr_assert_gt(size, 10000, "%s is %ld bytes", path, size);
    cr_assert_lt(size, 20000000, "%s is %ld bytes", path, size);
    cr_assert(has_png_signature(path), "%s does not start with the PNG signature", path);

    /* Decoded, it is the frame render_draw makes of the same view. */
    int iw, ih, ch;
    uint8_t *png = stbi_load(path, &iw, &ih, &ch, 4);
    cr_assert_not_null(png, "%s does not decode: %s", path, stbi_failure_reason());
    int ew, eh;
    render_picture_size(w, 1280, &ew, &eh);
    cr_assert(iw == ew && ih == eh, "%s is %dx%d, not %dx%d", path, iw, ih, ew, eh);
    Renderer *r = new_renderer();
    NavImage *img = new_image(iw, ih);
    RenderView v;
    render_view_fit(&v, w, iw, ih);
    v.selected = 0;
    RenderInfo info = { .session = s, .mode = "navbot", .title = world_name(w) };
    render_draw(r, img, session_sim(s), &v, &info);
    NavImage decoded = { iw, ih, png };
    /* The HUD's timing line may differ between the two draws; nothing else. */
    size_t n = count_diff(img, &decoded), hud = count_diff_in(img, &decoded, 0, 0, iw / 2, 80);
    cr_assert_eq(n - hud, 0, "the PNG differs from the frame in %zu pixels outside the HUD", n - hud);
    stbi_image_free(png);
    unlink(path);

    /* A path that cannot be written: an error naming it, no file. */
    nav_error_clear(&err);
    NavStatus st = render_session_png(s, 0, "/nonexistent/x.png", &err);
    cr_assert(NAV_FAILED(st));
    cr_assert(strstr(err.message, "/nonexistent/x.png") || strstr(err.file, "/nonexistent/x.png"),
              "the error does not name the path: %s", err.message);
    /* Bad focus bots are no selection. */
    cr_assert_eq(render_session_png(s, 99, path, &err), NAV_OK, "%s", err.message);
    cr_assert(has_png_signature(path));
    unlink(path);

    image_destroy(img);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= replays ======= */

Test(render, replay_pose_draws_the_live_picture)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSession *s = new_session(w);
    int sp = world_find_entity(w, "spawn_start");
    float o[3];
    entity_origin(world_entity(w, sp), o);
    NavError err;
    nav_error_clear(&err);
    int id = session_add_bot(s, "runner", &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    const char *path = temp_path("replay.trace");
    RunTraceWriter *tw = run_trace_create(path, s, "maps/gauntlet.lua", ".", 1, &err);
    cr_assert_not_null(tw, "%s", err.message);

    Renderer *r = new_renderer();
    NavImage *live = map_image(w, 800), *replay = map_image(w, 800);
    RenderView v;
    bare_view(&v, w, live);
    enum { AT = 40, TICKS = 90 };
    float pos[3] = { 0 };
    uint64_t live_tick = 0;
    for (int k = 0; k < TICKS; k++) {
        session_step(s);
        cr_assert(run_trace_tick(tw, s));
        if (k + 1 == AT) {
            memcpy(pos, sim_bot(session_sim(s), (uint32_t)id)->pos, sizeof pos);
            live_tick = sim_tick(session_sim(s));
            render_draw(r, live, session_sim(s), &v, &(RenderInfo){ .session = s });
        }
    }
    cr_assert_eq(run_trace_close(tw, &err), NAV_OK, "%s", err.message);
    cr_assert_gt(hypotf(pos[0] - o[0], pos[1] - o[1]), 1.0f, "the runner did not move before tick %d", AT);

    RunTrace *t = run_trace_load(path, &err);
    cr_assert_not_null(t, "%s", err.message);
    NavSim *sim = run_trace_sim(t, w, &err);
    cr_assert_not_null(sim, "%s", err.message);
    uint32_t frame = run_trace_frame_at(t, live_tick);
    cr_assert_eq(t->frames[frame].tick, live_tick);
    run_trace_pose(t, frame, sim);
    cr_assert_eq(sim_tick(sim), live_tick);
    const NavBot *b = sim_bot(sim, (uint32_t)id);
    for (int c = 0; c < 3; c++)
        cr_assert_float_eq(b->pos[c], pos[c], 1e-3, "posed position[%d] %.4f, live %.4f", c, (double)b->pos[c],
                           (double)pos[c]);
    render_draw(r, replay, sim, &v, &(RenderInfo){ .trace = t, .frame = frame });
    /* The bot's body at the same pixel in the same colour. */
    float radius = world_class(w, b->cls)->radius;
    NavColor a = body_pixel(live, &v, b, radius), c = body_pixel(replay, &v, b, radius);
    cr_assert(same_color(a, c), "live %d,%d,%d, replay %d,%d,%d at the bot", a.r, a.g, a.b, c.r, c.g, c.b);
    /* The whole picture: a replay shows what the run showed (recorded
    ** positions are rounded, so a body's edge may move a pixel). */
    size_t n = count_diff(live, replay);
    cr_assert_leq(n, 40, "the replay's picture differs from the live one in %zu pixels", n);
    /* Another frame poses the bot elsewhere and draws it there. */
    run_trace_pose(t, t->frame_count - 1, sim);
    cr_assert_gt(hypotf(b->pos[0] - pos[0], b->pos[1] - pos[1]), 0.5f);
    render_draw(r, replay, sim, &v, &(RenderInfo){ .trace = t, .frame = t->frame_count - 1 });
    cr_assert(same_color(body_pixel(replay, &v, b, radius), a), "the bot is not drawn at its last recorded position");

    run_trace_destroy(t);
    sim_destroy(sim);
    unlink(path);
    image_destroy(live);
    image_destroy(replay);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the command line ======= */

Test(render, cli_sim_and_replay_headless)
{
    const char *png = temp_path("cli.png"), *trace = temp_path("cli.trace"), *png2 = temp_path("cli-replay.png");
    unlink(png);
    Run r = NAVBOT("sim", "maps/arena.lua", "runner", "--headless", "--ticks", "30", "--quiet", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "sim: %s", r.err);
    cr_assert(strstr(r.err, png), "sim does not say where the picture went: %s", r.err);
    cr_assert_gt(file_size(png), 10000, "%s is %ld bytes", png, file_size(png));
    cr_assert(has_png_signature(png));
    int iw, ih, ch;
    cr_assert(stbi_info(png, &iw, &ih, &ch), "%s does not decode", png);
    cr_assert_eq(iw, 1280);
    run_free(&r);
    unlink(png);

    r = NAVBOT("sim", "maps/no-such-map.lua", "--headless", "--ticks", "5", "--png", png);
    cr_assert_eq(r.status, CLI_BAD_INPUT, "sim with a missing map: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "no-such-map.lua"), "the error does not name the map: %s", r.err);
    cr_assert_eq(file_size(png), -1, "a picture was written for a missing map");
    run_free(&r);

    r = NAVBOT("sim", "maps/arena.lua", "--headless", "--ticks", "5", "--overlay", "bogus", "--png", png);
    cr_assert_eq(r.status, CLI_USAGE, "--overlay bogus: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "--overlay"), "%s", r.err);
    run_free(&r);

    r = NAVBOT("sim", "maps/arena.lua", "--headless", "--ticks", "5", "--quiet", "--png", "/nonexistent/x.png");
    cr_assert_eq(r.status, CLI_BAD_INPUT, "an unwritable --png: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "/nonexistent/x.png"), "the error does not name the path: %s", r.err);
    run_free(&r);

    const char *missing = temp_path("missing.trace");
    r = NAVBOT("replay", missing, "--headless", "--png", png2);
    cr_assert_eq(r.status, CLI_BAD_INPUT, "replay of a missing trace: %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, missing), "the error does not name the trace: %s", r.err);
    run_free(&r);

    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--ticks", "30", "--quiet", "--trace", trace);
    cr_assert_eq(r.status, CLI_OK, "run --trace: %s", r.err);
    run_free(&r);
    r = NAVBOT("replay", trace, "--headless", "--tick", "20", "--overlay", "areas,links", "--select", "0", "--png",
               png2);
    cr_assert_eq(r.status, CLI_OK, "replay: %s", r.err);
    cr_assert(strstr(r.out, "shown up to tick 20"), "%s", r.out);
    cr_assert_gt(file_size(png2), 10000);
    cr_assert(has_png_signature(png2));
    run_free(&r);

    unlink(png);
    unlink(png2);
    unlink(trace);
    NAV_TEST_LEAK_CHECK();
}

/* The placement preview: green over the cells of a footprint a house may
** stand on, red where sim_place_check refuses one, and the spawn points
** round a green one; bad --place values are usage errors. */
Test(render, placement_preview_says_what_the_check_says)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *bare = map_image(w, 1024), *img = map_image(w, 1024);
    RenderView v;
    bare_view(&v, w, bare);
    render_draw(r, bare, sim, &v, NULL);
    static const float SPOTS[][5] = {
        { 60, 40, 10, 8, 30 }, { 134, 64, 10, 8, 20 }, { 20, 20, 6, 6, 0 }, { 62, 108, 12, 12, 0 }
    };
    int greens = 0, reds = 0;
    for (size_t k = 0; k < sizeof SPOTS / sizeof SPOTS[0]; k++) {
        const float *q = SPOTS[k];
        GridShape s = { q[0], q[1], 0.5f * q[2], 0.5f * q[3], q[4] * (float)NAV_PI / 180.0f };
        GridPlaceRules rules = { .max_slope = 15, .shore = 2, .spacing = 1, .edge = 1 };
        GridPlaceResult res;
        NavError err;
        nav_error_clear(&err);
        cr_assert(NAV_SUCCEEDED(sim_place_check(sim, &s, &rules, &res, NULL, 0, &err)), "%s", err.message);
        v.place_on = true;
        memcpy(v.place, q, sizeof v.place);
        render_draw(r, img, sim, &v, NULL);
        int px, py;
        world_pixel(&v, img, q[0], q[1], &px, &py);
        NavColor a = pixel(bare, px, py), b = pixel(img, px, py);
        bool ok = res.reason == GRID_PLACE_OK;
        if (ok) {
            greens++;
            cr_assert_gt(b.g - b.r, a.g - a.r, "spot %zu may be built: the preview is not greener there", k);
        } else {
            reds++;
            cr_assert_gt(b.r - b.g, a.r - a.g, "spot %zu (%s): the preview is not redder there", k,
                         grid_place_reason_name(res.reason));
        }
        /* Spawn points only round one that may be built, the front (south
        ** here) first: pixels changed in the strip just under its lowest
        ** point, clear of its outline. */
        float reach = 0.5f * sqrtf(q[2] * q[2] + q[3] * q[3]);
        float lowest = q[1] - (fabsf(s.hw * sinf(s.angle)) + s.hh * cosf(s.angle));
        int x0, y0, x1, y1;
        world_pixel(&v, img, q[0] - reach, lowest - 0.5f, &x0, &y0);
        world_pixel(&v, img, q[0] + reach, lowest - 1.6f, &x1, &y1);
        size_t spawned = count_diff_in(bare, img, x0, y0, x1 + 1, y1 + 1);
        if (ok) cr_assert_gt(spawned, 0, "spot %zu: no spawn points under it", k);
        else cr_assert_eq(spawned, 0, "spot %zu: spawn points round a footprint refused", k);
    }
    cr_assert_gt(greens, 0);
    cr_assert_gt(reds, 0);
    v.place_on = false;
    render_draw(r, img, sim, &v, NULL);
    cr_assert_eq(count_diff(bare, img), 0, "the preview off draws nothing");
    image_destroy(bare);
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);

    const char *png = temp_path("place.png");
    static const char *const BAD[] = { "1,2,3", "1,2,3,0", "1,2,3,4,x", "1,2,3,4,5,6", "nan,2,3,4", "1,2,3,2000" };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        Run run = NAVBOT("sim", "maps/arena.lua", "--headless", "--ticks", "1", "--place", BAD[k], "--png", png);
        cr_assert_eq(run.status, CLI_USAGE, "--place %s: %d: %s", BAD[k], run.status, run.err);
        cr_assert(strstr(run.err, "--place needs X,Y,WIDTH,DEPTH"), "--place %s: %s", BAD[k], run.err);
        run_free(&run);
    }
    Run run = NAVBOT("sim", "maps/arena.lua", "--headless", "--ticks", "1", "--quiet", "--place", "12,7,4,4,45",
                     "--png", png);
    cr_assert_eq(run.status, CLI_OK, "%s", run.err);
    cr_assert(has_png_signature(png));
    run_free(&run);
    unlink(png);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

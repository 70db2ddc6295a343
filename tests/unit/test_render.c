/*
** test_render.c — the software renderer (render/render.h) checked on real
** pixels of headless pictures: the world's contents in their colours at
** the cells that hold them and heights shaded; overlays that change the
** picture and go away again; byte-equal frames for the same state (and
** from a fresh renderer); the heat map hot at its goal and following a
** locked door; obstacles; bots drawn where they are and nowhere else; the
** selected bot's panel and picking; click queries naming what is drawn;
** the floor selector; a renderer kept across maps; PNG files (decoded
** back to the frame drawn); replays posed from a record drawing the live
** picture; and `navbot sim` / `navbot replay` end to end.
**
** Most checks switch the HUD, legend and labels off so that only the
** layer under test draws; the HUD is checked where it matters (panel).
** Temporary files are /tmp/navbot-test-render-PID-*, removed at the end.
*/
#include "render_support.h"

/* }======= */

/* {======= the world ======= */

/* Gauntlet from above: many colours; the pool blue, the yard's lava red,
** solid rock dark, dry floor neither; every pixel opaque. */
Test(render, world_contents_in_their_colours)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 960);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height); /* HUD and legend on, as headless runs draw */
    render_draw(r, img, sim, &v, NULL);

    size_t colors = distinct_colors(img);
    cr_assert_gt(colors, 40, "only %zu colours: the world is not drawn", colors);
    for (size_t i = 0; i < (size_t)img->width * (size_t)img->height; i++)
        cr_assert_eq(img->pixels[4 * i + 3], 255, "pixel %zu is not opaque", i);

    static const struct {
        int contents;
        const char *name;
    } cases[] = { { NAV_CONTENTS_WATER, "water" }, { NAV_CONTENTS_LAVA, "lava" }, { -1, "solid" },
                  { NAV_CONTENTS_VOID, "void" },   { NAV_CONTENTS_FLOOR, "floor" } };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(cases); k++) {
        int cx, cy, px, py;
        cr_assert(find_cell(w, cases[k].contents, &cx, &cy), "gauntlet has no %s cell inside others", cases[k].name);
        cell_pixel(w, &v, img, cx, cy, &px, &py);
        /* The cell's middle, and a pixel either way inside the cell. */
        int d = (int)(0.25f * world_cell_size(w) * v.zoom);
        for (int k2 = -1; k2 <= 1; k2++) {
            NavColor c = pixel(img, px + k2 * d, py - k2 * d);
            int R = c.r, G = c.g, B = c.b;
            switch (cases[k].contents) {
            case NAV_CONTENTS_WATER:
                cr_assert(B > R + 40 && B > G + 20, "water cell %d,%d at pixel %d,%d is %d,%d,%d, not blue", cx, cy,
                          px, py, R, G, B);
                break;
            case NAV_CONTENTS_LAVA:
                cr_assert(R > G + 80 && R > B + 80, "lava cell %d,%d at pixel %d,%d is %d,%d,%d, not red", cx, cy, px,
                          py, R, G, B);
                break;
            case -1:
                cr_assert(R < 70 && G < 70 && B < 70 && R + G + B > 60,
                          "solid cell %d,%d at pixel %d,%d is %d,%d,%d, not dark grey", cx, cy, px, py, R, G, B);
                break;
            case NAV_CONTENTS_VOID:
                cr_assert(R < 20 && G < 20 && B < 20, "void cell %d,%d at pixel %d,%d is %d,%d,%d, not black", cx, cy,
                          px, py, R, G, B);
                break;
            default:
                cr_assert(R > 70 && abs(R - B) < 40 && abs(G - B) < 40,
                          "floor cell %d,%d at pixel %d,%d is %d,%d,%d, not a grey", cx, cy, px, py, R, G, B);
            }
        }
    }
    /* Off the map (left of it, under the HUD's height) is the background. */
    int px, py;
    world_pixel(&v, img, -0.3f, 0.5f * (float)world_height(w) * world_cell_size(w), &px, &py);
    NavColor bg = pixel(img, px, py);
    cr_assert(same_color(bg, nav_rgba(18, 20, 26, 255)), "off the map is %d,%d,%d", bg.r, bg.g, bg.b);

    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Headless pictures (render_picture_size, render_view_fit) show every
** bundled map whole, clear of the HUD above and the legend below. */
Test(render, fitted_view_shows_the_whole_map_clear_of_hud_and_legend)
{
    for (size_t m = 0; m < NAV_ARRAY_COUNT(BUNDLED_MAPS); m++) {
        NavWorld *w = test_load_map(BUNDLED_MAPS[m]);
        NavSession *s = new_session(w);
        Renderer *r = new_renderer();
        NavImage *on = map_image(w, 1280), *off = map_image(w, 1280);
        RenderView v;
        render_view_fit(&v, w, on->width, on->height);
        RenderInfo info = { .session = s, .mode = "sim", .title = BUNDLED_MAPS[m], .time_scale = 1, .fps = 60 };
        render_draw(r, on, session_sim(s), &v, &info);
        v.hud = v.legend = false;
        render_draw(r, off, session_sim(s), &v, &info);
        /* The rows the HUD and the legend cover. */
        int hud_bottom = -1, legend_top = on->height;
        for (int y = 0; y < on->height; y++)
            if (count_diff_in(on, off, 0, y, on->width, y + 1)) {
                if (y < on->height / 2) hud_bottom = y;
                else if (legend_top == on->height) legend_top = y;
            }
        cr_assert_geq(hud_bottom, 20, "%s: no HUD drawn", BUNDLED_MAPS[m]);
        cr_assert_lt(legend_top, on->height - 20, "%s: no legend drawn", BUNDLED_MAPS[m]);
        float x0, y0, x1, y1;
        float ww = (float)world_width(w) * world_cell_size(w), wh = (float)world_height(w) * world_cell_size(w);
        render_to_screen(&v, on->width, on->height, 0, wh, &x0, &y0);
        render_to_screen(&v, on->width, on->height, ww, 0, &x1, &y1);
        cr_assert(x0 >= 0 && x1 <= (float)on->width, "%s: the map spans x %.0f to %.0f of %d", BUNDLED_MAPS[m],
                  (double)x0, (double)x1, on->width);
        cr_assert(y0 > (float)hud_bottom && y1 <= (float)legend_top,
                  "%s: the map spans rows %.0f to %.0f; the HUD ends at %d, the legend starts at %d", BUNDLED_MAPS[m],
                  (double)y0, (double)y1, hud_bottom, legend_top);
        image_destroy(on);
        image_destroy(off);
        render_destroy(r);
        session_destroy(s);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* Higher floors are drawn lighter: the tower's roof deck against the
** courtyard below. */
Test(render, heights_are_shaded)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, img);
    render_draw(r, img, sim, &v, NULL);
    /* The lowest and the highest dry floor cell in the middle of others. */
    int W = world_width(w), H = world_height(w);
    int lo[2] = { -1, -1 }, hi[2] = { -1, -1 };
    float zlo = INFINITY, zhi = -INFINITY;
    for (int cy = 1; cy < H - 1; cy++)
        for (int cx = 1; cx < W - 1; cx++) {
            bool ok = top_contents(w, cx, cy) == NAV_CONTENTS_FLOOR;
            float z = top_height(w, cx, cy);
            for (int d = 0; d < 9 && ok; d++)
                ok = top_contents(w, cx + d % 3 - 1, cy + d / 3 - 1) == NAV_CONTENTS_FLOOR &&
                     fabsf(top_height(w, cx + d % 3 - 1, cy + d / 3 - 1) - z) < 0.01f;
            if (!ok) continue;
            if (z < zlo) zlo = z, lo[0] = cx, lo[1] = cy;
            if (z > zhi) zhi = z, hi[0] = cx, hi[1] = cy;
        }
    cr_assert_gt(zhi - zlo, 8.0f, "tower: floors from %.1f to %.1f only", (double)zlo, (double)zhi);
    int ax, ay, bx, by;
    cell_pixel(w, &v, img, lo[0], lo[1], &ax, &ay);
    cell_pixel(w, &v, img, hi[0], hi[1], &bx, &by);
    NavColor a = pixel(img, ax, ay), b = pixel(img, bx, by);
    cr_assert_gt(b.r + b.g + b.b, a.r + a.g + a.b + 150,
                 "floor at z %.1f (%d,%d,%d) is not lighter than at %.1f (%d,%d,%d)",
                 (double)zhi, b.r, b.g, b.b, (double)zlo, a.r, a.g, a.b);
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= overlays and determinism ======= */

Test(render, overlays_change_the_picture_and_go_away)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *plain = map_image(w, 640), *again = map_image(w, 640), *img = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, plain);
    v.overlays = 0;
    render_draw(r, plain, sim, &v, NULL);
    render_draw(r, again, sim, &v, NULL);
    cr_assert_eq(count_diff(plain, again), 0, "the same frame drawn twice differs");

    /* The heat map's goal: the pool's goal. */
    int g = world_find_entity(w, "goal_pool");
    cr_assert_geq(g, 0);
    const NavEntity *ge = world_entity(w, g);
    float goal[3] = { 0.5f * (ge->mins[0] + ge->maxs[0]), 0.5f * (ge->mins[1] + ge->maxs[1]), ge->mins[2] };

    size_t map_px = (size_t)(world_width(w) * world_cell_size(w) * v.zoom) *
                    (size_t)(world_height(w) * world_cell_size(w) * v.zoom);
    static const struct {
        RenderOverlay o;
        double at_least; /* of the map's pixels */
    } cases[] = {
        { RENDER_AREAS, 0.25 }, { RENDER_CLUSTERS, 0.25 }, { RENDER_HEAT, 0.25 },
        { RENDER_GRID, 0.25 },  { RENDER_REGIONS, 0.25 },  { RENDER_LINKS, 0.005 },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(cases); k++) {
        RenderView o = v;
        o.overlays = RENDER_BIT(cases[k].o);
        if (cases[k].o == RENDER_HEAT) {
            o.heat_goal_set = true;
            memcpy(o.heat_goal, goal, sizeof goal);
        }
        render_draw(r, img, sim, &o, NULL);
        size_t n = count_diff(plain, img);
        cr_assert_geq((double)n, cases[k].at_least * (double)map_px, "%s changed %zu of %zu map pixels",
                      render_overlay_name(cases[k].o), n, map_px);
        /* The same frame with the overlay on is the same twice... */
        render_draw(r, again, sim, &o, NULL);
        cr_assert_eq(count_diff(img, again), 0, "%s: drawn twice differs", render_overlay_name(cases[k].o));
        /* ...and off again, the picture is the plain one (no stale layer). */
        render_draw(r, again, sim, &v, NULL);
        cr_assert_eq(count_diff(plain, again), 0, "after %s the plain frame differs in %zu pixels",
                     render_overlay_name(cases[k].o), count_diff(plain, again));
    }

    /* Overlays tell things apart: areas and clusters are not the same tint. */
    RenderView a = v, c = v;
    a.overlays = RENDER_BIT(RENDER_AREAS);
    c.overlays = RENDER_BIT(RENDER_CLUSTERS);
    render_draw(r, img, sim, &a, NULL);
    render_draw(r, again, sim, &c, NULL);
    cr_assert_gt(count_diff(img, again), map_px / 10, "areas and clusters draw the same");

    /* A fresh renderer (no cached layers) draws the same bytes. */
    Renderer *r2 = new_renderer();
    render_draw(r2, again, sim, &v, NULL);
    cr_assert_eq(count_diff(plain, again), 0, "a fresh renderer draws another picture");
    render_destroy(r2);

    image_destroy(plain);
    image_destroy(again);
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The heat map is hot (red) at its goal and cold (blue) far away in
** travel time, and follows the goal when it moves. */
Test(render, heat_map_is_hot_at_its_goal)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 640), *other = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, img);
    v.overlays = RENDER_BIT(RENDER_HEAT);
    v.heat_goal_set = true;
    int a = world_find_entity(w, "spawn_a"), b = world_find_entity(w, "spawn_b");
    cr_assert(a >= 0 && b >= 0);
    float pa[3], pb[3];
    entity_origin(world_entity(w, a), pa);
    entity_origin(world_entity(w, b), pb);
    memcpy(v.heat_goal, pa, sizeof pa);
    render_draw(r, img, sim, &v, NULL);
    /* A pixel 1.5 m from each spawn towards the middle (the spawn's marker
    ** is drawn on the spawn itself; cells next to walls and pillars are
    ** in no area and show no heat). */
    float mid = 0.5f * (float)world_width(w) * world_cell_size(w);
    int ax, ay, bx, by;
    world_pixel(&v, img, pa[0] + copysignf(1.5f, mid - pa[0]), pa[1], &ax, &ay);
    world_pixel(&v, img, pb[0] + copysignf(1.5f, mid - pb[0]), pb[1], &bx, &by);
    NavColor hot = pixel(img, ax, ay), cold = pixel(img, bx, by);
    cr_assert(hot.r > hot.b + 60, "at the heat goal %d,%d,%d is not hot", hot.r, hot.g, hot.b);
    cr_assert(cold.b > cold.r + 60, "far from the heat goal %d,%d,%d is not cold", cold.r, cold.g, cold.b);
    /* The goal moved to the other spawn: the colours swap. */
    memcpy(v.heat_goal, pb, sizeof pb);
    render_draw(r, other, sim, &v, NULL);
    hot = pixel(other, bx, by), cold = pixel(other, ax, ay);
    cr_assert(hot.r > hot.b + 60, "at the moved heat goal %d,%d,%d is not hot", hot.r, hot.g, hot.b);
    cr_assert(cold.b > cold.r + 60, "at the old heat goal %d,%d,%d is not cold", cold.r, cold.g, cold.b);
    image_destroy(img);
    image_destroy(other);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Locking a door (an obstacle for routing) cuts the start room off from
** the pool: the heat map redraws it unreachable, the same picture a fresh
** renderer draws; unlocked, the first picture again. */
Test(render, heat_map_follows_a_locked_door)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer(), *fresh = NULL;
    NavImage *open = map_image(w, 640), *locked = map_image(w, 640), *img = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, open);
    v.overlays = RENDER_BIT(RENDER_HEAT);
    v.heat_goal_set = true;
    int g = world_find_entity(w, "goal_pool"), d = world_find_entity(w, "door_hall"),
        sp = world_find_entity(w, "spawn_start");
    cr_assert(g >= 0 && d >= 0 && sp >= 0);
    entity_origin(world_entity(w, g), v.heat_goal);
    render_draw(r, open, sim, &v, NULL);
    cr_assert(sim_door_set(sim, d, false, true));
    render_draw(r, locked, sim, &v, NULL);
    fresh = new_renderer();
    render_draw(fresh, img, sim, &v, NULL);
    cr_assert_eq(count_diff(locked, img), 0, "after locking the door the heat map is stale (%zu pixels)",
                 count_diff(locked, img));
    /* In the start room, a metre east of the spawn: reachable (warm or
    ** cold), then not (dark). */
    float o[3];
    entity_origin(world_entity(w, sp), o);
    int px, py;
    world_pixel(&v, open, o[0] + 1.0f, o[1], &px, &py);
    NavColor a = pixel(open, px, py), b = pixel(locked, px, py);
    cr_assert_gt(a.r + a.g + a.b, b.r + b.g + b.b + 100, "start room: %d,%d,%d open, %d,%d,%d locked", a.r, a.g, a.b,
                 b.r, b.g, b.b);
    cr_assert(sim_door_set(sim, d, false, false));
    render_draw(r, img, sim, &v, NULL);
    cr_assert_eq(count_diff(open, img), 0, "unlocked, the heat map is not the first one");
    image_destroy(open);
    image_destroy(locked);
    image_destroy(img);
    render_destroy(fresh);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Clicking the picture asks what is there: the same floor the picture
** shows at that point. */
Test(render, query_names_what_the_picture_shows)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    RenderView v;
    render_view_fit(&v, w, 640, 560);
    static const struct {
        int contents;
        const char *says;
    } cases[] = { { NAV_CONTENTS_WATER, ": water z" }, { NAV_CONTENTS_LAVA, ": lava z" },
                  { NAV_CONTENTS_VOID, ": void" },     { NAV_CONTENTS_FLOOR, ": floor z" },
                  { -1, ": solid" } };
    char text[512];
    for (size_t k = 0; k < NAV_ARRAY_COUNT(cases); k++) {
        int cx = 0, cy = 0;
        float x, y;
        cr_assert(find_cell(w, cases[k].contents, &cx, &cy), "no %s cell", cases[k].says);
        world_cell_center(w, cx, cy, &x, &y);
        render_query(r, sim, &v, x, y, text, sizeof text);
        cr_assert(strstr(text, cases[k].says), "cell %d,%d: '%s' lacks '%s'", cx, cy, text, cases[k].says);
        char cell[32];
        snprintf(cell, sizeof cell, "cell %d,%d", cx, cy);
        cr_assert(strstr(text, cell), "'%s' does not name %s", text, cell);
    }
    render_query(r, sim, &v, -5.0f, 3.0f, text, sizeof text);
    cr_assert(strstr(text, "outside the map"), "%s", text);
    /* With a bot selected: the travel time from it. */
    int sp = world_find_entity(w, "spawn_start"), g = world_find_entity(w, "goal_pool");
    float o[3], q[3];
    entity_origin(world_entity(w, sp), o);
    entity_origin(world_entity(w, g), q);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(sim_add_bot(sim, &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err), 0, "%s", err.message);
    v.selected = 0;
    render_query(r, sim, &v, q[0], q[1], text, sizeof text);
    cr_assert(strstr(text, " s from bot 0"), "%s", text);
    cr_assert(strstr(text, "area "), "%s", text);
    /* A short buffer is cut, not overrun. */
    char small[12];
    render_query(r, sim, &v, q[0], q[1], small, sizeof small);
    cr_assert_eq(strlen(small), sizeof small - 1);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* An obstacle is drawn (with RENDER_OBSTACLES, the fitted view's default)
** where it is, and gone when removed. */
Test(render, obstacles_come_and_go)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *plain = map_image(w, 640), *img = map_image(w, 640);
    RenderView v;
    bare_view(&v, w, plain);
    render_draw(r, plain, sim, &v, NULL);
    float mn[3] = { 4, 4, 0 }, mx[3] = { 6, 6, 2 };
    uint32_t id = sim_add_obstacle(sim, mn, mx);
    render_draw(r, img, sim, &v, NULL);
    int x0, y0, x1, y1;
    world_pixel(&v, img, mn[0], mx[1], &x0, &y0);
    world_pixel(&v, img, mx[0], mn[1], &x1, &y1);
    size_t inside = count_diff_in(plain, img, x0 + 2, y0 + 2, x1 - 2, y1 - 2);
    size_t box = (size_t)(x1 - x0 - 4) * (size_t)(y1 - y0 - 4);
    cr_assert_eq(inside, box, "the obstacle covers %zu of its %zu pixels", inside, box);
    cr_assert_eq(count_diff(plain, img) - count_diff_in(plain, img, x0 - 2, y0 - 2, x1 + 3, y1 + 3), 0,
                 "the obstacle changed pixels away from it");
    NavColor c = pixel(img, (x0 + x1) / 2 + 1, (y0 + y1) / 2 + 3);
    cr_assert(c.r > c.g + 40 && c.r > c.b + 40, "the obstacle is %d,%d,%d, not red", c.r, c.g, c.b);
    cr_assert(sim_remove_obstacle(sim, id));
    render_draw(r, img, sim, &v, NULL);
    cr_assert_eq(count_diff(plain, img), 0, "the removed obstacle is still drawn");
    image_destroy(plain);
    image_destroy(img);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(render, bot_is_drawn_where_it_is_and_nowhere_else)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    NavImage *empty = map_image(w, 800), *img = map_image(w, 800), *moved = map_image(w, 800);
    RenderView v;
    bare_view(&v, w, empty);
    render_draw(r, empty, sim, &v, NULL);

    float p[3];
    arena_point(w, 0, p);
    NavError err;
    nav_error_clear(&err);
    int id = sim_add_bot(sim, &(NavBotDesc){ .pos = { p[0], p[1], p[2] + 0.2f }, .yaw = 90 }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    const NavBot *b = sim_bot(sim, (uint32_t)id);
    float radius = world_class(w, b->cls)->radius, rpx = fmaxf(radius * v.zoom, 3.0f);
    render_draw(r, img, sim, &v, NULL);

    float fx, fy;
    render_to_screen(&v, img->width, img->height, b->pos[0], b->pos[1], &fx, &fy);
    NavColor body = body_pixel(img, &v, b, radius), floor = body_pixel(empty, &v, b, radius);
    cr_assert_not(same_color(body, floor), "no bot at its position: the floor's colour %d,%d,%d is there", floor.r,
                  floor.g, floor.b);
    /* The body is one colour across (behind and beside its heading). */
    for (int k = 0; k < 4; k++) {
        float a = (float)k * 1.5708f + 0.7854f, d = 0.6f * rpx;
        int x = (int)floorf(fx + d * cosf(a)), y = (int)floorf(fy + d * sinf(a));
        NavColor c = pixel(img, x, y);
        cr_assert(same_color(c, body), "body pixel %d,%d is %d,%d,%d, not the body's %d,%d,%d", x, y, c.r, c.g, c.b,
                  body.r, body.g, body.b);
    }
    /* A few radii away nothing changed; the body and its heading line
    ** (r + 5 pixels, 2 wide) are all that is drawn. */
    for (int k = 0; k < 8; k++) {
        float a = (float)k * 0.7854f;
        int x = (int)floorf(fx + 3.0f * rpx * cosf(a)), y = (int)floorf(fy + 3.0f * rpx * sinf(a));
        cr_assert(same_color(pixel(img, x, y), pixel(empty, x, y)), "pixel %d,%d, three radii from the bot, changed",
                  x, y);
    }
    cr_assert_eq(changed_beyond(empty, img, fx, fy, rpx + 7.0f), 0, "the bot changed pixels away from its body");
    cr_assert_gt(count_diff(empty, img), (size_t)(3.0f * rpx * rpx), "the bot's disc is too small");

    /* Moved 6 m east: drawn there, and the old place is floor again. */
    NavBot st = *b;
    st.pos[0] += 6.0f;
    sim_pose_bot(sim, (uint32_t)id, &st);
    render_draw(r, moved, sim, &v, NULL);
    float gx, gy;
    render_to_screen(&v, img->width, img->height, b->pos[0], b->pos[1], &gx, &gy);
    cr_assert_float_eq(gx - fx, 6.0f * v.zoom, 0.01f);
    NavColor there = body_pixel(moved, &v, b, radius);
    cr_assert(same_color(there, body), "at its new position %d,%d,%d, not the body's colour", there.r, there.g,
              there.b);
    cr_assert_eq(count_diff_in(empty, moved, (int)(fx - rpx - 8), (int)(fy - rpx - 8), (int)(fx + rpx + 8),
                               (int)(fy + rpx + 8)),
                 0, "the bot is still drawn where it was");
    cr_assert_eq(changed_beyond(empty, moved, gx, gy, rpx + 7.0f), 0, "the moved bot changed pixels away from it");

    image_destroy(empty);
    image_destroy(img);
    image_destroy(moved);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A runner stepped by its brain is drawn where the simulation has it. */
Test(render, running_bot_is_drawn_where_it_went)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSession *s = new_session(w);
    NavSim *sim = session_sim(s);
    Renderer *r = new_renderer();
    NavImage *empty = map_image(w, 800), *before = map_image(w, 800), *after = map_image(w, 800);
    RenderView v;
    bare_view(&v, w, empty);
    render_draw(r, empty, sim, &v, NULL);
    int s_a = world_find_entity(w, "spawn_a");
    float o[3];
    entity_origin(world_entity(w, s_a), o);
    NavError err;
    nav_error_clear(&err);
    int id = session_add_bot(s, "runner", &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    RenderInfo info = { .session = s };
    float radius = world_class(w, 0)->radius, rpx = fmaxf(radius * v.zoom, 3.0f);
    float start[3];
    memcpy(start, sim_bot(sim, (uint32_t)id)->pos, sizeof start);
    render_draw(r, before, sim, &v, &info);
    NavColor body = body_pixel(before, &v, sim_bot(sim, (uint32_t)id), radius);
    for (int t = 0; t < 45; t++) session_step(s);
    cr_assert_not(session_bot_faulted(s, (uint32_t)id), "%s", session_bot_error(s, (uint32_t)id));
    const NavBot *b = sim_bot(sim, (uint32_t)id);
    float moved = hypotf(b->pos[0] - start[0], b->pos[1] - start[1]);
    cr_assert_gt(moved, 2.0f, "the runner moved %.2f m in 1.5 s", (double)moved);
    render_draw(r, after, sim, &v, &info);
    NavColor now = body_pixel(after, &v, b, radius), floor = body_pixel(empty, &v, b, radius);
    cr_assert(same_color(now, body), "at the runner's new position %d,%d,%d, not its colour %d,%d,%d", now.r, now.g,
              now.b, body.r, body.g, body.b);
    cr_assert_not(same_color(now, floor));
    /* Where it started is the floor again (its goal marker is elsewhere). */
    float sx, sy;
    render_to_screen(&v, empty->width, empty->height, start[0], start[1], &sx, &sy);
    cr_assert_eq(count_diff_in(empty, after, (int)(sx - rpx), (int)(sy - rpx), (int)(sx + rpx), (int)(sy + rpx)), 0,
                 "the runner is still drawn where it started");
    image_destroy(empty);
    image_destroy(before);
    image_destroy(after);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(render, selected_bot_has_a_panel_and_is_picked)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSession *s = new_session(w);
    NavSim *sim = session_sim(s);
    Renderer *r = new_renderer();
    NavImage *plain = map_image(w, 800), *sel = map_image(w, 800);
    float p[3], q[3];
    arena_point(w, 0, p);
    arena_point(w, 8, q);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(session_add_bot(s, NULL, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s", err.message);
    cr_assert_eq(session_add_bot(s, NULL, &(NavBotDesc){ .pos = { q[0], q[1], q[2] } }, &err), 1, "%s", err.message);
    RenderInfo info = { .session = s, .mode = "test" };
    RenderView v;
    render_view_fit(&v, w, plain->width, plain->height);
    render_draw(r, plain, sim, &v, &info);
    v.selected = 1;
    render_draw(r, sel, sim, &v, &info);
    /* The panel: the top-right quarter of the picture's top changes... */
    int W = plain->width;
    size_t panel = count_diff_in(plain, sel, W / 2, 0, W, 120);
    cr_assert_gt(panel, 2000, "the selected bot's panel changed only %zu pixels at the top right", panel);
    /* ...and what else changes is around the selected bot (its ring). */
    const NavBot *b = sim_bot(sim, 1);
    float fx, fy, rpx = fmaxf(world_class(w, b->cls)->radius * v.zoom, 3.0f);
    render_to_screen(&v, W, plain->height, b->pos[0], b->pos[1], &fx, &fy);
    size_t ring = count_diff_in(plain, sel, (int)(fx - rpx - 6), (int)(fy - rpx - 6), (int)(fx + rpx + 6),
                                (int)(fy + rpx + 6));
    cr_assert_gt(ring, 0, "the selected bot is not marked");
    /* Nothing else changes: every changed pixel is in the top rows (the
    ** panel) or around the bot (its ring). */
    int keep[2][4] = { { 0, 0, W, 200 },
                       { (int)(fx - rpx - 6), (int)(fy - rpx - 6), (int)(fx + rpx + 6), (int)(fy + rpx + 6) } };
    size_t stray = 0;
    for (int y = 0; y < plain->height; y++)
        for (int x = 0; x < W; x++) {
            bool kept = false;
            for (int k = 0; k < 2; k++)
                kept |= x >= keep[k][0] && y >= keep[k][1] && x < keep[k][2] && y < keep[k][3];
            stray += !kept && !same_color(pixel(plain, x, y), pixel(sel, x, y));
        }
    cr_assert_eq(stray, 0, "selecting a bot changed %zu pixels away from it and its panel", stray);
    /* Picking: the bot at its pixel, the other at its own, none far away. */
    cr_assert_eq(render_pick_bot(sim, &v, W, plain->height, fx, fy), 1);
    float ox, oy;
    render_to_screen(&v, W, plain->height, p[0], p[1], &ox, &oy);
    cr_assert_eq(render_pick_bot(sim, &v, W, plain->height, ox + 1, oy - 1), 0);
    cr_assert_eq(render_pick_bot(sim, &v, W, plain->height, fx + 3 * rpx + 8, fy), -1);
    cr_assert_eq(render_pick_bot(sim, &v, W, plain->height, 0.5f * (fx + ox), fy), -1);
    cr_assert_eq(render_pick_bot(sim, &v, W, plain->height, 2, 2), -1);
    /* A bad selection draws no panel and does not crash. */
    v.selected = 7;
    render_draw(r, sel, sim, &v, &info);
    cr_assert_eq(count_diff(plain, sel), 0, "selecting a bot that is not there changed the picture");
    image_destroy(plain);
    image_destroy(sel);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

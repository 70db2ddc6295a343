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
#include <math.h>
#include <stb/stb_image.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "render/render.h"
#include "render/snapshot.h"
#include "script/run_trace.h"
#include "script/session.h"
#include "test_cli_run.h"
#include "test_support.h"
#include "sim/sim_debug.h"
#include "world/entity.h"

/* {======= helpers ======= */

static void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static Renderer *new_renderer(void)
{
    NavError err;
    nav_error_clear(&err);
    Renderer *r = render_create(&err);
    cr_assert_not_null(r, "render_create (the font, from the repository root): %s", err.message);
    return r;
}

static NavSim *new_sim(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(sim, "sim_create: %s", err.message);
    return sim;
}

static NavSession *new_session(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = ".", .seed = 1, .log = quiet }, &err);
    cr_assert_not_null(s, "session_create: %s", err.message);
    return s;
}

static NavImage *new_image(int width, int height)
{
    NavError err;
    nav_error_clear(&err);
    NavImage *img = image_create(width, height, &err);
    cr_assert_not_null(img, "%s", err.message);
    return img;
}

/* A picture of the whole map `width` wide (as headless runs size it). */
static NavImage *map_image(const NavWorld *w, int width)
{
    int iw, ih;
    render_picture_size(w, width, &iw, &ih);
    return new_image(iw, ih);
}

/* The fitted view with nothing over the world: no HUD, legend or labels. */
static void bare_view(RenderView *v, const NavWorld *w, const NavImage *img)
{
    render_view_fit(v, w, img->width, img->height);
    v->hud = v->legend = v->labels = false;
}

static NavColor pixel(const NavImage *img, int x, int y)
{
    cr_assert(x >= 0 && y >= 0 && x < img->width && y < img->height, "pixel %d,%d is off the %dx%d picture", x, y,
              img->width, img->height);
    const uint8_t *p = img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
    return nav_rgba(p[0], p[1], p[2], p[3]);
}

static bool same_color(NavColor a, NavColor b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

/* The pixel holding world point (x, y). */
static void world_pixel(const RenderView *v, const NavImage *img, float x, float y, int *px, int *py)
{
    float fx, fy;
    render_to_screen(v, img->width, img->height, x, y, &fx, &fy);
    *px = (int)floorf(fx);
    *py = (int)floorf(fy);
}

static size_t count_diff(const NavImage *a, const NavImage *b)
{
    cr_assert(a->width == b->width && a->height == b->height);
    size_t n = 0, total = (size_t)a->width * (size_t)a->height;
    for (size_t i = 0; i < total; i++) n += memcmp(a->pixels + 4 * i, b->pixels + 4 * i, 4) != 0;
    return n;
}

/* Differing pixels inside the rectangle [x0, x1) x [y0, y1). */
static size_t count_diff_in(const NavImage *a, const NavImage *b, int x0, int y0, int x1, int y1)
{
    size_t n = 0;
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, a->height); y++)
        for (int x = NAV_MAX(x0, 0); x < NAV_MIN(x1, a->width); x++) {
            size_t i = (size_t)y * (size_t)a->width + (size_t)x;
            n += memcmp(a->pixels + 4 * i, b->pixels + 4 * i, 4) != 0;
        }
    return n;
}

static void copy_image(NavImage *dst, const NavImage *src)
{
    cr_assert(dst->width == src->width && dst->height == src->height);
    memcpy(dst->pixels, src->pixels, (size_t)src->width * (size_t)src->height * 4);
}

static size_t distinct_colors(const NavImage *img)
{
    uint8_t *seen = calloc((size_t)1 << 21, 1); /* one bit per RGB */
    cr_assert_not_null(seen);
    size_t n = 0, total = (size_t)img->width * (size_t)img->height;
    for (size_t i = 0; i < total; i++) {
        const uint8_t *p = img->pixels + 4 * i;
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        if (!(seen[c >> 3] & (1u << (c & 7)))) seen[c >> 3] |= (uint8_t)(1u << (c & 7)), n++;
    }
    free(seen);
    return n;
}

/* What the renderer draws at a cell seen from above: the top floor of its
** column (-1: none, solid). */
static int top_contents(const NavWorld *w, int cx, int cy)
{
    if (cx < 0 || cy < 0 || cx >= world_width(w) || cy >= world_height(w)) return -2;
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    return n ? col[n - 1].contents : -1;
}

static float top_height(const NavWorld *w, int cx, int cy)
{
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    return n ? world_standing_height(&col[n - 1]) : NAN;
}

/* A cell whose top is `contents` (-1: solid) and so are its 8 neighbours'
** at the same height (no wall or shade edge nearby): of those, the one
** nearest their middle. False when there is none. */
static bool find_cell(const NavWorld *w, int contents, int *out_x, int *out_y)
{
    int W = world_width(w), H = world_height(w);
    double sx = 0, sy = 0;
    int count = 0;
    for (int pass = 0; pass < 2; pass++) {
        double best = INFINITY;
        for (int cy = 0; cy < H; cy++)
            for (int cx = 0; cx < W; cx++) {
                bool ok = true;
                float z = top_height(w, cx, cy);
                for (int dy = -1; dy <= 1 && ok; dy++)
                    for (int dx = -1; dx <= 1 && ok; dx++) {
                        ok = top_contents(w, cx + dx, cy + dy) == contents;
                        if (ok && contents >= 0) {
                            float z2 = top_height(w, cx + dx, cy + dy);
                            ok = z2 == z || fabsf(z2 - z) < 0.01f; /* void: -inf both */
                        }
                    }
                if (!ok) continue;
                if (pass == 0) {
                    sx += cx, sy += cy, count++;
                } else {
                    double d = (cx - sx) * (cx - sx) + (cy - sy) * (cy - sy);
                    if (d < best) best = d, *out_x = cx, *out_y = cy;
                }
            }
        if (pass == 0) {
            if (!count) return false;
            sx /= count, sy /= count;
        }
    }
    return true;
}

static void cell_pixel(const NavWorld *w, const RenderView *v, const NavImage *img, int cx, int cy, int *px, int *py)
{
    float x, y;
    world_cell_center(w, cx, cy, &x, &y);
    world_pixel(v, img, x, y, px, py);
}

static char *temp_path(const char *name)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "/tmp/navbot-test-render-%d-%s", (int)getpid(), name);
    return p;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static bool has_png_signature(const char *path)
{
    static const uint8_t SIG[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    uint8_t head[8] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == sizeof head && memcmp(head, SIG, sizeof SIG) == 0;
}


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
        int cx, cy;
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

/* }======= */

/* {======= bots ======= */

/* A floor point in the middle of open floor, `dx` metres east of the
** middle of the arena's west half. */
static void arena_point(const NavWorld *w, float dx, float p[3])
{
    p[0] = 0.25f * (float)world_width(w) * world_cell_size(w) + dx;
    p[1] = 0.25f * (float)world_height(w) * world_cell_size(w);
    p[2] = 0;
    int cx, cy;
    cr_assert(world_point_cell(w, p[0], p[1], &cx, &cy));
    cr_assert_eq(top_contents(w, cx, cy), NAV_CONTENTS_FLOOR, "no floor at %.1f,%.1f", (double)p[0], (double)p[1]);
}

/* The body's colour: the pixel half a radius behind the bot (the heading
** line runs ahead of it from the middle). */
static NavColor body_pixel(const NavImage *img, const RenderView *v, const NavBot *b, float radius)
{
    float yaw = b->yaw * (float)NAV_PI / 180.0f;
    int px, py;
    world_pixel(v, img, b->pos[0] - 0.5f * radius * cosf(yaw), b->pos[1] - 0.5f * radius * sinf(yaw), &px, &py);
    return pixel(img, px, py);
}

/* Pixels that changed farther than `reach` pixels from (cx, cy). */
static size_t changed_beyond(const NavImage *a, const NavImage *b, float cx, float cy, float reach)
{
    size_t n = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++) {
            float dx = (float)x + 0.5f - cx, dy = (float)y + 0.5f - cy;
            if (dx * dx + dy * dy <= reach * reach) continue;
            size_t i = (size_t)y * (size_t)a->width + (size_t)x;
            n += memcmp(a->pixels + 4 * i, b->pixels + 4 * i, 4) != 0;
        }
    return n;
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

/* }======= */

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

/* A bot on the ground floor is shown at level 0 and hidden on the floors
** above it. */
Test(render, floor_selector_hides_bots_of_other_floors)
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
    for (int level = -1; level < 2; level++) {
        v.level = level;
        render_draw(r, empty, bare, &v, NULL);
        render_draw(r, img, sim, &v, NULL);
        size_t n = count_diff(empty, img);
        if (level < 1)
            cr_assert_gt(n, 20, "the ground-floor bot is not shown at level %d", level);
        else
            cr_assert_eq(n, 0, "the ground-floor bot is drawn on the floor above (%zu pixels)", n);
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
                     k,
                     count_diff(ai, fi), (uintptr_t)a == old ? " (same address)" : "");
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

/* }======= */

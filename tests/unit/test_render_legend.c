/*
** test_render_legend.c — what every picture carries besides the map: the
** scale bar and north arrow found by their white pixels in the bottom
** right corner, at the round length the zoom asks for; the legend naming
** what the frame drew (travel types of the links drawn, the contents in
** view, the heat map's scale) and nothing it did not; labels that never
** cover each other, checked from the renderer's own label rectangles in a
** crowd at the tower's store-room door. Pictures are written to
** build/pictures/ to be looked at (helpers in render_support.h).
*/
#include "render_support.h"
#include "render/font.h"
#include "render/render_internal.h"

/* {======= helpers ======= */

static bool is_white(NavColor c) { return c.r == 255 && c.g == 255 && c.b == 255; }

/* The round length the scale bar should show at zoom: the longest of 1,
** 2, 5 times a power of ten metres at most 120 pixels long. */
static float expected_metres(float zoom)
{
    float best = 0.0f;
    for (int e = -2; e <= 6; e++)
        for (int k = 0; k < 3; k++) {
            float m = (float)(k == 0 ? 1 : k == 1 ? 2 : 5) * powf(10.0f, (float)e);
            if (m * zoom <= 120.0f + 1e-3f) best = m;
        }
    return best;
}

/* In the rectangle [x0, x1) x [y0, y1): the longest run of white pixels
** along a row (its row and first column) and down a column (its column,
** from *vx on only when *vx >= 0). */
static int longest_row_run(const NavImage *img, int x0, int y0, int x1, int y1, int *row, int *col)
{
    int best = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0, run = 0; x < x1; x++) {
            run = is_white(pixel(img, x, y)) ? run + 1 : 0;
            if (run > best) best = run, *row = y, *col = x - run + 1;
        }
    return best;
}

static int longest_column_run(const NavImage *img, int x0, int y0, int x1, int y1, int *col)
{
    int best = 0;
    for (int x = x0; x < x1; x++)
        for (int y = y0, run = 0; y < y1; y++) {
            run = is_white(pixel(img, x, y)) ? run + 1 : 0;
            if (run > best) best = run, *col = x;
        }
    return best;
}

/* The scale bar and the north arrow in the picture's bottom-right corner
** (the last 240 x 60 pixels): a white bar as long as the zoom's round
** length, and right of it a white shaft at least 12 pixels tall. */
static void expect_scale_and_north(const NavImage *img, float zoom, const char *what)
{
    int x0 = img->width - 240, y0 = img->height - 60, row = -1, col = -1, shaft = -1;
    int bar = longest_row_run(img, x0, y0, img->width, img->height, &row, &col);
    int want = (int)lroundf(expected_metres(zoom) * zoom);
    cr_assert(bar >= want - 1 && bar <= want + 1,
              "%s: the scale bar is %d px long at row %d; %g m at %.2f px/m is %d px", what, bar, row,
              (double)expected_metres(zoom), (double)zoom, want);
    int tall = longest_column_run(img, col + bar, y0, img->width, img->height, &shaft);
    cr_assert_geq(tall, 12, "%s: no north arrow right of the scale bar (the tallest white run is %d px)", what, tall);
    /* Nothing of them is in the other corners. */
    int r2, c2;
    cr_assert_lt(longest_row_run(img, 0, y0, 240, img->height, &r2, &c2), want - 1,
                 "%s: a white bar in the bottom-left corner too", what);
}

static const LegendItem *legend_item(const Legend *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->items[i].name, name) == 0) return &l->items[i];
    return NULL;
}

static bool has_color_in(const NavImage *img, NavColor c, int y0, int y1)
{
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, img->height); y++)
        for (int x = 0; x < img->width; x++)
            if (same_color(pixel(img, x, y), c)) return true;
    return false;
}

/* }======= */

/* {======= scale bar and north arrow ======= */

Test(render_legend, scale_length_is_round_and_fits)
{
    static const struct {
        float zoom, metres;
    } CASES[] = { { 32.0f, 2.0f },  { 4.0f, 20.0f }, { 1.0f, 100.0f }, { 0.05f, 2000.0f },
                  { 400.0f, 0.2f }, { 24.0f, 5.0f }, { 60.0f, 2.0f },  { 12.5f, 5.0f } };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        float m = render_scale_metres(CASES[k].zoom, RENDER_SCALE_MAX_PX);
        cr_expect_float_eq(m, CASES[k].metres, 1e-4f, "at %g px/m: %g m, not %g", (double)CASES[k].zoom, (double)m,
                           (double)CASES[k].metres);
        cr_expect_float_eq(m, expected_metres(CASES[k].zoom), 1e-4f);
    }
}

Test(render_legend, sim_picture_has_scale_bar_and_north_arrow_bottom_right)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSession *s = new_session(w);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    RenderInfo info = { .session = s, .mode = "sim", .title = "gauntlet" };
    render_draw(r, img, session_sim(s), &v, &info);
    save(img, "scale-gauntlet-sim.png");
    expect_scale_and_north(img, v.zoom, "gauntlet, whole");
    RenderScaleBar sb;
    cr_assert(render_scale_bar(r, &sb));
    cr_assert_float_eq(sb.metres, expected_metres(v.zoom), 1e-4f);
    /* In the legend band, clear of the HUD. */
    cr_assert_geq(sb.y, r->band_y, "the scale bar's box starts at row %d, above the band (%d)", sb.y, r->band_y);

    /* Zoomed in: a shorter length, still round, still in the corner. */
    float box[4] = { 10, 8, 22, 16 };
    render_view_box(&v, w, box, 0.0f, img->width, img->height);
    render_draw(r, img, session_sim(s), &v, &info);
    save(img, "scale-gauntlet-zoomed.png");
    expect_scale_and_north(img, v.zoom, "gauntlet, zoomed");

    /* The legend off: neither is drawn. */
    v.legend = false;
    render_draw(r, img, session_sim(s), &v, &info);
    cr_assert_not(render_scale_bar(r, NULL));
    int row, col;
    cr_assert_lt(longest_row_run(img, img->width - 240, img->height - 60, img->width, img->height, &row, &col),
                 (int)(expected_metres(v.zoom) * v.zoom) - 1);
    image_destroy(img);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the legend names what was drawn ======= */

/* A box of side metres round the middle of a cell whose top is contents. */
static bool box_round(const NavWorld *w, int contents, float side, float box[4])
{
    int cx = 0, cy = 0;
    if (!find_cell(w, contents, &cx, &cy)) return false;
    float x, y;
    world_cell_center(w, cx, cy, &x, &y);
    box[0] = x - 0.5f * side, box[1] = y - 0.5f * side, box[2] = x + 0.5f * side, box[3] = y + 0.5f * side;
    return true;
}

/* Does any cell in box have contents on top? */
static bool box_has(const NavWorld *w, const float box[4], int contents)
{
    float cs = world_cell_size(w);
    for (int cy = (int)floorf(box[1] / cs) - 1; cy <= (int)floorf(box[3] / cs) + 1; cy++)
        for (int cx = (int)floorf(box[0] / cs) - 1; cx <= (int)floorf(box[2] / cs) + 1; cx++)
            if (top_contents(w, cx, cy) == contents) return true;
    return false;
}

Test(render_legend, legend_names_what_the_picture_shows)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSession *s = new_session(w);
    NavSim *sim = session_sim(s);
    Renderer *r = new_renderer();
    NavImage *img = map_image(w, 1280);
    RenderView v;
    render_view_fit(&v, w, img->width, img->height);
    RenderInfo info = { .session = s, .mode = "sim", .title = "gauntlet" };

    /* No links overlay, no bots: no travel type is named. */
    v.overlays = 0;
    render_draw(r, img, sim, &v, &info);
    const Legend *l = render_legend(r);
    cr_assert_gt(l->count, 0);
    cr_assert_null(legend_item(l, "teleport"), "teleport named with no link drawn");
    cr_assert_null(legend_item(l, "links:"));
    cr_assert_not_null(legend_item(l, "water"), "the whole gauntlet shows water");
    cr_assert_not_null(legend_item(l, "lava"));
    cr_assert_not_null(legend_item(l, "teleporter"));
    cr_assert_not_null(legend_item(l, "jump pad"));
    cr_assert_not_null(legend_item(l, "overlays: none"));
    NavColor teleport = render_travel_color(NAV_TRAVEL_TELEPORT);
    cr_assert_not(has_color_in(img, teleport, r->band_y, img->height), "the teleport colour is in the legend");

    /* The links overlay on: its travel types by name, their colour in the band. */
    v.overlays = RENDER_BIT(RENDER_LINKS);
    render_draw(r, img, sim, &v, &info);
    const LegendItem *it = legend_item(l, "teleport");
    cr_assert_not_null(it, "the links overlay draws teleports; the legend does not name them");
    cr_assert_eq(it->style, LEGEND_LINE);
    cr_assert_not_null(legend_item(l, "jump"));
    cr_assert_not_null(legend_item(l, "overlays: links"));
    cr_assert(has_color_in(img, teleport, r->band_y, img->height), "no teleport colour in the legend band");
    save(img, "legend-gauntlet-links.png");

    /* The heat map: its ramp in seconds, hot red at 0 s in the band. */
    int gx = 0, gy = 0;
    cr_assert(find_cell(w, NAV_CONTENTS_FLOOR, &gx, &gy));
    float p[3] = { 0, 0, top_height(w, gx, gy) };
    world_cell_center(w, gx, gy, &p[0], &p[1]);
    v.overlays = RENDER_BIT(RENDER_HEAT);
    v.heat_goal_set = true;
    memcpy(v.heat_goal, p, sizeof v.heat_goal);
    render_draw(r, img, sim, &v, &info);
    it = NULL;
    for (int i = 0; i < l->count; i++)
        if (l->items[i].style == LEGEND_RAMP && l->items[i].ramp == LEGEND_RAMP_HEAT) it = &l->items[i];
    cr_assert_not_null(it, "no heat scale with the heat map on");
    cr_assert_str_eq(it->name, "s", "the heat scale's unit is '%s', not seconds", it->name);
    cr_assert_float_eq(it->lo, 0.0f, 1e-6f);
    cr_assert_gt(it->hi, 5.0f, "the farthest area is %g s from the goal", (double)it->hi);
    cr_assert(has_color_in(img, render_heat_color(0.0f, 255), r->band_y, img->height), "no heat ramp in the band");
    cr_assert(has_color_in(img, render_heat_color(1.0f, 255), r->band_y, img->height));
    save(img, "legend-gauntlet-heat.png");

    /* Zoomed on water: water named; on a dry room: no water. */
    float box[4];
    v.overlays = 0;
    cr_assert(box_round(w, NAV_CONTENTS_WATER, 4.0f, box));
    render_view_box(&v, w, box, 0.0f, img->width, img->height);
    render_draw(r, img, sim, &v, &info);
    cr_assert_not_null(legend_item(l, "water"));
    cr_assert(box_round(w, NAV_CONTENTS_FLOOR, 2.0f, box));
    /* The visible part is wider than the box (the picture's aspect). */
    render_view_box(&v, w, box, 0.0f, img->width, img->height);
    float seen[4];
    render_to_world(&v, img->width, img->height, 0, (float)img->height, &seen[0], &seen[1]);
    render_to_world(&v, img->width, img->height, (float)img->width, 0, &seen[2], &seen[3]);
    render_draw(r, img, sim, &v, &info);
    if (!box_has(w, seen, NAV_CONTENTS_WATER))
        cr_assert_null(legend_item(l, "water"), "water named where none is in view");
    cr_assert_not_null(legend_item(l, "floor:"));
    image_destroy(img);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= labels ======= */

static bool rects_overlap(int ax, int ay, int aw, int ah, int bx, int by, int bw, int bh)
{
    return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

/* No two shown labels of the last frame overlap, none covers a blocked
** rectangle (HUD, panel, storey name, legend) or leaves the picture.
** Returns how many were shown. */
static int expect_no_overlap(const Renderer *r, const NavImage *img, const char *what)
{
    int n = render_label_count(r), shown = 0;
    for (int i = 0; i < n; i++) {
        const RenderLabel *a = render_label_at(r, i);
        if (!a->shown) continue;
        shown++;
        cr_assert(a->x >= 0 && a->y >= 0 && a->x + a->w <= img->width && a->y + a->h <= img->height,
                  "%s: label '%s' leaves the picture", what, a->text);
        for (int j = i + 1; j < n; j++) {
            const RenderLabel *b = render_label_at(r, j);
            if (b->shown)
                cr_assert_not(rects_overlap(a->x, a->y, a->w, a->h, b->x, b->y, b->w, b->h),
                              "%s: labels '%s' (%d,%d %dx%d) and '%s' (%d,%d %dx%d) overlap", what,
                              a->shortened ? a->brief : a->text, a->x, a->y, a->w, a->h,
                              b->shortened ? b->brief : b->text, b->x, b->y, b->w, b->h);
        }
        for (int k = 0; k < r->labels.blocked_count; k++) {
            const int *bl = r->labels.blocked[k];
            cr_assert_not(rects_overlap(a->x, a->y, a->w, a->h, bl[0], bl[1], bl[2] - bl[0], bl[3] - bl[1]),
                          "%s: label '%s' is under the HUD, the panel or the legend", what, a->text);
        }
    }
    return shown;
}

/* Every pixel that labels change lies in a label's rectangle. */
static void expect_drawn_in_rects(const Renderer *r, const NavImage *with, const NavImage *without,
                                  const LabelSet *other)
{
    size_t stray = 0;
    for (int y = 0; y < with->height; y++)
        for (int x = 0; x < with->width; x++) {
            if (same_color(pixel(with, x, y), pixel(without, x, y))) continue;
            bool in = false;
            for (int i = 0; i < r->labels.count && !in; i++) {
                const RenderLabel *l = &r->labels.items[i];
                in = l->shown && x >= l->x && x < l->x + l->w && y >= l->y && y < l->y + l->h;
            }
            for (int i = 0; i < other->count && !in; i++) {
                const RenderLabel *l = &other->items[i];
                in = l->shown && x >= l->x && x < l->x + l->w && y >= l->y && y < l->y + l->h;
            }
            stray += !in;
        }
    cr_assert_eq(stray, 0, "%zu pixels the labels changed are outside every label's rectangle", stray);
}

/* The tower's ground floor, ten bots crowding the store-room door, labels
** on, the view close: bot labels all shown (they come first), entity
** labels and storey marks moved, shortened or dropped, none overlapping. */
Test(render_legend, labels_never_overlap_in_a_crowd)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSession *s = new_session(w);
    NavSim *sim = session_sim(s);
    Renderer *r = new_renderer();
    int door = world_find_entity(w, "door_store");
    cr_assert_geq(door, 0);
    float o[3];
    entity_origin(world_entity(w, door), o);
    static const float AT[][2] = { { -1.3f, -1.1f }, { -1.3f, 0.1f }, { -1.3f, 1.2f }, { -2.5f, -0.5f },
                                   { -2.5f, 0.7f },  { 1.4f, -1.0f }, { 1.4f, 0.2f },  { 1.4f, 1.3f },
                                   { 2.6f, -0.4f },  { 2.6f, 0.8f } };
    NavError err;
    nav_error_clear(&err);
    int bots = 0;
    for (size_t k = 0; k < NAV_ARRAY_COUNT(AT); k++) {
        NavBotDesc d = { .pos = { o[0] + AT[k][0], o[1] + AT[k][1], 0.0f } };
        int id = session_add_bot(s, k % 3 ? "runner" : "climber", &d, &err);
        cr_assert_geq(id, 0, "bot %zu at %.2f,%.2f: %s", k, (double)d.pos[0], (double)d.pos[1], err.message);
        bots++;
    }
    for (int t = 0; t < 6; t++) session_step(s);
    float box[4] = { o[0] - 6.0f, o[1] - 4.0f, o[0] + 6.0f, o[1] + 4.0f };
    NavImage *img = new_image(960, (int)(8.0f * 60.0f) + RENDER_FIT_TOP + RENDER_FIT_BOTTOM);
    NavImage *bare = new_image(img->width, img->height);
    RenderView v;
    render_view_box(&v, w, box, 60.0f, img->width, img->height);
    v.selected = 0;
    RenderInfo info = { .session = s, .mode = "sim", .title = "tower" };
    for (int level = 0; level >= -1; level--) {
        v.level = level;
        v.labels = true;
        render_draw(r, img, sim, &v, &info);
        save(img, level == 0 ? "labels-tower-store-room.png" : "labels-tower-all-floors.png");
        const char *what = level == 0 ? "ground storey" : "all storeys";
        int shown = expect_no_overlap(r, img, what);
        int bot_labels = 0, bot_shown = 0, entities = 0;
        for (int i = 0; i < render_label_count(r); i++) {
            const RenderLabel *l = render_label_at(r, i);
            if (l->kind == RENDER_LABEL_BOT || l->kind == RENDER_LABEL_SELECTED) bot_labels++, bot_shown += l->shown;
            entities += l->kind == RENDER_LABEL_ENTITY;
        }
        cr_assert_eq(bot_labels, bots, "%s: %d bot labels for %d bots", what, bot_labels, bots);
        cr_assert_eq(bot_shown, bots, "%s: only %d of %d bot labels shown", what, bot_shown, bots);
        cr_assert_gt(entities, 0, "%s: no entity label (the door's) was asked for", what);
        cr_assert_geq(shown, bots + 1, "%s: %d labels shown", what, shown);
        /* The labels' pixels are where their rectangles say. */
        LabelSet with = { 0 };
        with.count = r->labels.count;
        with.items = nav_malloc((size_t)(with.count ? with.count : 1) * sizeof *with.items);
        cr_assert_not_null(with.items);
        memcpy(with.items, r->labels.items, (size_t)with.count * sizeof *with.items);
        v.labels = false;
        render_draw(r, bare, sim, &v, &info);
        expect_no_overlap(r, bare, what);
        /* Labels off keeps the selected bot's and the storey marks'. */
        expect_drawn_in_rects(r, img, bare, &with);
        nav_free(with.items);
    }
    image_destroy(img);
    image_destroy(bare);
    render_destroy(r);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Forty labels at one point in a small picture, three bots' added last:
** the bots' are placed first, the rest moved, shortened or dropped; none
** overlap and none leaves the picture. */
Test(render_legend, labels_at_one_point_are_placed_by_kind)
{
    Renderer *r = new_renderer();
    LabelSet s = { 0 };
    static const RenderLabelKind KINDS[] = { RENDER_LABEL_ENTITY, RENDER_LABEL_STOREY, RENDER_LABEL_OBSTACLE };
    for (int i = 0; i < 40; i++) {
        char text[64], brief[16];
        snprintf(text, sizeof text, "label number %d with words", i);
        snprintf(brief, sizeof brief, "%d", i);
        cr_assert_not_null(labels_add(&s, i >= 37 ? RENDER_LABEL_BOT : KINDS[i % 3], 150.0f, 100.0f, 5.0f, 8, -12, text,
                                      brief, nav_rgba(255, 255, 255, 255)));
    }
    labels_block(&s, 0, 0, 300, 20); /* a HUD */
    labels_place(&s, r->font, 300, 200);
    int shown[RENDER_LABEL_KINDS] = { 0 }, asked[RENDER_LABEL_KINDS] = { 0 }, total = 0;
    for (int i = 0; i < s.count; i++) {
        const RenderLabel *a = &s.items[i];
        asked[a->kind]++;
        if (!a->shown) continue;
        shown[a->kind]++, total++;
        cr_assert(a->x >= 0 && a->y >= 20 && a->x + a->w <= 300 && a->y + a->h <= 200, "label %d at %d,%d", i, a->x,
                  a->y);
        for (int j = 0; j < i; j++) {
            const RenderLabel *b = &s.items[j];
            cr_assert(!b->shown || !rects_overlap(a->x, a->y, a->w, a->h, b->x, b->y, b->w, b->h),
                      "labels %d and %d overlap", i, j);
        }
    }
    cr_assert_eq(shown[RENDER_LABEL_BOT], asked[RENDER_LABEL_BOT], "bots first: %d of %d shown",
                 shown[RENDER_LABEL_BOT], asked[RENDER_LABEL_BOT]);
    cr_assert_lt(total, s.count, "every one of 40 labels fitted round one point");
    cr_assert_gt(total, shown[RENDER_LABEL_BOT], "no other label fitted round the bots'");
    cr_assert_geq(shown[RENDER_LABEL_STOREY], shown[RENDER_LABEL_OBSTACLE], "obstacles' labels before storey marks'");
    labels_free(&s);
    render_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

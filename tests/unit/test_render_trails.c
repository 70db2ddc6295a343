/*
** test_render_trails.c — the trails overlay (render_history.h,
** render_trails.c): a bot that crouched and then walked leaves a trail
** behind it in the crouch colour, then the walk colour, the older part
** fainter; none with the overlay off; none on another storey than the
** one shown; the legend names the trail's travel types. Pictures are
** written to build/pictures/ to be looked at (helpers in
** render_support.h).
*/
#include "render_support.h"
#include "render/render_graph.h"
#include "render/render_history.h"
#include "render/render_internal.h"

/* {======= helpers ======= */

/* Moves bot 0 along (dx, dy) for `ticks` ticks, crouched or not, the
** history recording each tick. */
static void drive(NavSim *sim, RenderHistory *h, float dx, float dy, bool crouch, int ticks)
{
    RenderInfo info = { 0 };
    for (int t = 0; t < ticks; t++) {
        NavBotControl *c = sim_bot_control(sim, 0);
        c->move[0] = dx, c->move[1] = dy;
        c->crouch = crouch;
        sim_step(sim);
        render_history_record(h, sim, &info);
    }
}

static int color_distance(NavColor a, NavColor b)
{
    return abs((int)a.r - (int)b.r) + abs((int)a.g - (int)b.g) + abs((int)a.b - (int)b.b);
}

/* The travel type whose colour is nearest to c. */
static int nearest_travel(NavColor c)
{
    int best = -1, best_d = 1 << 30;
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        int d = color_distance(c, render_travel_color((NavTravelType)t));
        if (d < best_d) best = t, best_d = d;
    }
    return best;
}

/* The pixel in the middle of the trail piece that ends at sample k. */
static NavColor piece_pixel(const RenderHistory *h, int k, const RenderView *v, const NavImage *img)
{
    const HistorySample *a = render_history_sample(h, 0, k - 1), *b = render_history_sample(h, 0, k);
    int px, py;
    world_pixel(v, img, 0.5f * (a->pos[0] + b->pos[0]), 0.5f * (a->pos[1] + b->pos[1]), &px, &py);
    return pixel(img, px, py);
}

/* The newest and the oldest samples of a travel type far enough from
** the body and from a change of type that their pieces are plain. */
static void pieces_of(const RenderHistory *h, int type, int *oldest, int *newest)
{
    int n = render_history_count(h, 0);
    *oldest = *newest = -1;
    for (int k = 2; k < n - 3; k++) {
        if (render_history_sample(h, 0, k)->travel != type || render_history_sample(h, 0, k - 1)->travel != type ||
            render_history_sample(h, 0, k + 1)->travel != type)
            continue;
        if (*oldest < 0) *oldest = k;
        *newest = k;
    }
}

/* }======= */

Test(render_trails, behind_a_bot_in_its_travel_colours_fading)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    RenderHistory *h = render_history_create();
    cr_assert_not_null(h);
    float p[3];
    arena_point(w, -2.0f, p);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s", err.message);
    /* Crouched 2 s, then walking 0.8 s: east along open floor. */
    drive(sim, h, 1.0f, 0.0f, true, 60);
    drive(sim, h, 1.0f, 0.0f, false, 24);
    const NavBot *b = sim_bot(sim, 0);
    cr_assert_gt(b->pos[0] - p[0], 6.0f, "the bot went only %.2f m east", (double)(b->pos[0] - p[0]));
    int crouch_old, crouch_new, walk_old, walk_new;
    pieces_of(h, NAV_TRAVEL_CROUCH, &crouch_old, &crouch_new);
    pieces_of(h, NAV_TRAVEL_WALK, &walk_old, &walk_new);
    cr_assert(crouch_old > 0 && crouch_new > crouch_old + 5, "crouch samples %d .. %d", crouch_old, crouch_new);
    cr_assert_gt(walk_new, 0, "no walk sample");

    NavImage *on = new_image(900, 360), *off = new_image(900, 360), *none = new_image(900, 360);
    float box[4] = { p[0] - 2.0f, p[1] - 3.0f, b->pos[0] + 2.0f, p[1] + 3.0f };
    RenderView v;
    render_view_box(&v, w, box, 0.0f, on->width, on->height);
    v.hud = v.legend = v.labels = false;
    RenderInfo info = { .history = h };
    v.overlays |= RENDER_BIT(RENDER_TRAILS);
    render_draw(r, on, sim, &v, &info);
    save(on, "trails_crouch_then_walk.png");
    v.overlays &= ~RENDER_BIT(RENDER_TRAILS);
    render_draw(r, off, sim, &v, &info);
    render_draw(r, none, sim, &v, NULL);

    /* Off is as if no history were kept. */
    cr_assert_eq(count_diff(off, none), 0, "trails off: %zu pixels differ from a picture without history",
                 count_diff(off, none));
    /* On: the trail behind the bot, in each piece's travel colour. */
    NavColor c_new = piece_pixel(h, crouch_new, &v, on), w_new = piece_pixel(h, walk_new, &v, on);
    cr_assert_eq(nearest_travel(c_new), NAV_TRAVEL_CROUCH, "the crouched piece is %d,%d,%d: nearest %s", c_new.r,
                 c_new.g, c_new.b, area_travel_name((NavTravelType)nearest_travel(c_new)));
    cr_assert_eq(nearest_travel(w_new), NAV_TRAVEL_WALK, "the walked piece is %d,%d,%d: nearest %s", w_new.r, w_new.g,
                 w_new.b, area_travel_name((NavTravelType)nearest_travel(w_new)));
    cr_assert_gt(color_distance(w_new, piece_pixel(h, walk_new, &v, off)), 0, "no trail where it walked");
    /* Older is fainter: farther from the colour, nearer the floor. */
    NavColor crouch = render_travel_color(NAV_TRAVEL_CROUCH);
    NavColor c_old = piece_pixel(h, crouch_old, &v, on), floor_old = piece_pixel(h, crouch_old, &v, off);
    cr_assert_gt(color_distance(c_old, crouch), color_distance(c_new, crouch) + 10,
                 "the old piece %d,%d,%d is not fainter than the new %d,%d,%d", c_old.r, c_old.g, c_old.b, c_new.r,
                 c_new.g, c_new.b);
    cr_assert_gt(color_distance(c_old, floor_old), 10, "the old piece is gone, not faded");

    /* The legend names the trail's travel types. */
    v.overlays |= RENDER_BIT(RENDER_TRAILS);
    v.legend = true;
    render_draw(r, on, sim, &v, &info);
    const Legend *l = render_legend(r);
    int title = -1;
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->items[i].name, "trails:") == 0) title = i;
    cr_assert_geq(title, 0, "no \"trails:\" in the legend");
    bool walk = false, crouched = false;
    for (int i = title + 1; i < l->count && l->items[i].style == LEGEND_LINE; i++) {
        walk |= strcmp(l->items[i].name, "walk") == 0;
        crouched |= strcmp(l->items[i].name, "crouch") == 0;
    }
    cr_assert(walk && crouched, "the legend's trails name walk %d, crouch %d", walk, crouched);

    image_destroy(on);
    image_destroy(off);
    image_destroy(none);
    render_history_destroy(h);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A ground-storey bot's trail shows on the ground storey, and not on the
** second: the trails are the storey's, as the bodies are. */
Test(render_trails, only_on_the_storey_shown)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSim *sim = new_sim(w);
    Renderer *r = new_renderer();
    RenderHistory *h = render_history_create();
    int sp = world_find_entity(w, "spawn_hall");
    cr_assert_geq(sp, 0);
    float o[3];
    entity_origin(world_entity(w, sp), o);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err), 0, "%s", err.message);
    drive(sim, h, -1.0f, 0.0f, false, 45);
    const NavBot *b = sim_bot(sim, 0);
    cr_assert_gt(o[0] - b->pos[0], 3.0f, "the bot went only %.2f m west", (double)(o[0] - b->pos[0]));
    cr_assert_eq(render_level_at(r, w, b->pos[2]), 0);
    NavImage *on = map_image(w, 1280), *off = map_image(w, 1280);
    RenderView v;
    bare_view(&v, w, on);
    RenderInfo info = { .history = h };
    for (int level = 0; level < 2; level++) {
        v.level = level;
        v.overlays |= RENDER_BIT(RENDER_TRAILS);
        render_draw(r, on, sim, &v, &info);
        save(on, level ? "trails_storey_second.png" : "trails_storey_ground.png");
        v.overlays &= ~RENDER_BIT(RENDER_TRAILS);
        render_draw(r, off, sim, &v, &info);
        /* The map's rows: the overlays named below them differ. */
        size_t d = count_diff_in(on, off, 0, RENDER_FIT_TOP, on->width, on->height - RENDER_FIT_BOTTOM);
        if (level == 0) cr_assert_gt(d, 50, "on its storey the trail drew %zu pixels", d);
        else cr_assert_eq(d, 0, "from storey 2 the ground storey's trail drew %zu pixels", d);
    }
    image_destroy(on);
    image_destroy(off);
    render_history_destroy(h);
    render_destroy(r);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A body put elsewhere in one tick (a teleporter) leaves no line across
** the map: the sample it arrives at is marked. */
Test(render_trails, a_jump_across_space_is_a_teleport)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = new_sim(w);
    RenderHistory *h = render_history_create();
    float p[3];
    arena_point(w, 0.0f, p);
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(sim, &(NavBotDesc){ .pos = { p[0], p[1], p[2] } }, &err), 0, "%s", err.message);
    drive(sim, h, 0.0f, 0.0f, false, 6);
    NavBot moved = *sim_bot(sim, 0);
    moved.pos[0] += 8.0f;
    sim_pose_bot(sim, 0, &moved);
    drive(sim, h, 0.0f, 0.0f, false, 6);
    int n = render_history_count(h, 0), jumps = 0;
    for (int k = 0; k < n; k++) {
        const HistorySample *s = render_history_sample(h, 0, k);
        if (s->flags & HISTORY_TELEPORTED) {
            jumps++;
            cr_assert_eq(s->travel, NAV_TRAVEL_TELEPORT);
        }
    }
    cr_assert_eq(jumps, 1, "%d teleports in %d samples", jumps, n);
    render_history_destroy(h);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

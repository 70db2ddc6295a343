/*
** test_nav_api_draw.c — debug drawing and facing from Lua
** (nav_api_draw.c, sim_marks.c, render_marks.c): marks appear in the
** picture where they were drawn and go when their time is up, cost
** nothing unwatched, stay out of the trace hash; look_at turns the facing
** and not the way the bot walks.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "lua/sandbox.h"
#include "render/render.h"
#include "script/nav_api.h"
#include "nav_api_support.h"
#include "sim/sim_debug.h"

/* Pixels of the picture that are (nearly) this colour along the segment a-b. */
static int count_on(const NavImage *img, const RenderView *v, float ax, float ay, float bx, float by, NavColor c)
{
    int hits = 0;
    for (int k = 1; k < 20; k++) {
        float t = k / 20.0f, px, py;
        render_to_screen(v, img->width, img->height, ax + t * (bx - ax), ay + t * (by - ay), &px, &py);
        const uint8_t *p = img->pixels + 4 * ((size_t)(int)py * img->width + (int)px);
        if (abs(p[0] - c.r) < 8 && abs(p[1] - c.g) < 8 && abs(p[2] - c.b) < 8) hits++;
    }
    return hits;
}

Test(nav_api_draw, marks_show_in_the_picture_for_their_time)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    /* Nobody watching: nothing is kept. */
    cr_assert_str_eq(run(&f, "return tostring(nav.draw.line({2, 2, 0}, {20, 2, 0}, 'magenta', 5))"), "false");
    cr_assert_eq(sim_mark_count(f.sim), 0u);
    sim_show_enable(f.sim, true);
    cr_assert_str_eq(run(&f, "return tostring(nav.draw.line({4, 6, 0}, {24, 6, 0}, 'magenta', 1)"
                             " and nav.draw.circle({10, 14, 0}, 2, {0, 0, 1}) and nav.draw.text({10, 16, 0}, 'here'))"),
                     "true");
    Renderer *r = render_create(&err);
    cr_assert_not_null(r, "%s", err.message);
    NavImage *img = image_create(640, 480, &err);
    RenderView v;
    render_view_fit(&v, f.w, img->width, img->height);
    v.hud = v.legend = v.labels = false;
    NavColor magenta = { 230, 70, 220, 255 };
    render_draw(r, img, f.sim, &v, NULL);
    cr_assert_geq(count_on(img, &v, 4, 6, 24, 6, magenta), 17, "the line is not drawn where it was asked");
    /* The next tick still shows both; after its second the line is gone
    ** and the one-tick circle long before. */
    sim_step(f.sim);
    render_draw(r, img, f.sim, &v, NULL);
    cr_assert_geq(count_on(img, &v, 4, 6, 24, 6, magenta), 17);
    for (int t = 0; t < 31; t++) sim_step(f.sim);
    render_draw(r, img, f.sim, &v, NULL);
    cr_assert_eq(count_on(img, &v, 4, 6, 24, 6, magenta), 0, "the line outlived its second");
    /* Errors name the argument. */
    cr_assert(strstr(fails(&f, "nav.draw.line({0, 0, 0}, {1, 1, 0}, 'puce')"), "unknown colour 'puce'"));
    cr_assert(strstr(fails(&f, "nav.draw.line({0, 0, 0}, {1, 1, 0}, {2, 0, 0})"), "from 0 to 1"));
    cr_assert(strstr(fails(&f, "nav.draw.circle({0, 0, 0}, -1)"), "radius must be above 0"));
    cr_assert(strstr(fails(&f, "nav.draw.text({0, 0, 0}, 'x', 'red', -2)"), "seconds must not be negative"));
    cr_assert(strstr(fails(&f, "nav.draw.text({0, 0, 0})"), "bad argument #2 to 'text'"));
    /* 4,096 alive at most. */
    cr_assert_str_eq(run(&f, "local kept = 0 for i = 1, 5000 do if nav.draw.line({0, 0, 0}, {1, 1, 0}, nil, 10) then kept = kept + 1 end end return kept"),
                     "4096");
    run(&f, "nav.draw.clear() return 1");
    cr_assert_eq(sim_mark_count(f.sim), 0u);
    image_destroy(img);
    render_destroy(r);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A bot walked east for two seconds, drawing or not, looking north or not. */
static uint64_t walk(bool draw, bool look, float *yaw, float *facing)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 3, 10, 0 } }, &err), 0, "%s", err.message);
    sim_show_enable(f.sim, true);
    for (int t = 0; t < 60; t++) {
        run(&f, "local b = nav.bot(0) b:move(1, 0) return 1");
        if (draw) run(&f, "local x, y, z = nav.bot(0):pos() nav.draw.circle({x, y, z}, 1, 'red', 0.5) return 1");
        if (look) run(&f, "local b = nav.bot(0) local x, y, z = b:pos() b:look_at(x, y + 5, z) return 1");
        sim_step(f.sim);
    }
    *yaw = sim_bot(f.sim, 0)->yaw;
    *facing = sim_bot(f.sim, 0)->facing;
    cr_assert_str_eq(run(&f, "return string.format('%.1f', nav.bot(0):facing() - nav.bot(0):state().facing)"), "0.0");
    uint64_t h = sim_trace_hash(f.sim);
    teardown(&f);
    return h;
}

Test(nav_api_draw, facing_and_drawing_change_no_movement)
{
    float yaw0, face0, yaw1, face1;
    uint64_t plain = walk(false, false, &yaw0, &face0);
    uint64_t busy = walk(true, true, &yaw1, &face1);
    cr_assert_eq(plain, busy, "drawing or looking changed the trace hash");
    cr_assert_float_eq(yaw0, 0.0f, 1e-3, "walking east: yaw %g", (double)yaw0);
    cr_assert_float_eq(face0, yaw0, 1e-6, "not looking: facing is the yaw");
    cr_assert_float_eq(yaw1, 0.0f, 1e-3);
    cr_assert_float_eq(face1, 90.0f, 1e-3, "looking north while walking east: facing %g", (double)face1);
    /* look_at(nil) lets the facing follow the walk again. */
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 3, 10, 0 } }, &err), 0, "%s", err.message);
    run(&f, "local b = nav.bot(0) b:move(1, 0) b:look_at({3, 0, 0}) return 1");
    sim_step(f.sim);
    cr_assert_float_eq(sim_bot(f.sim, 0)->facing, -90.0f, 2.0, "facing %g", (double)sim_bot(f.sim, 0)->facing);
    run(&f, "nav.bot(0):look_at(nil) return 1");
    sim_step(f.sim);
    cr_assert_float_eq(sim_bot(f.sim, 0)->facing, sim_bot(f.sim, 0)->yaw, 1e-6);
    cr_assert(strstr(fails(&f, "nav.bot(0):look_at('north')"), "bad argument #1 to 'look_at'"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/*
** snapshot.c — pictures to PNG files (snapshot.h).
*/
#include "render/snapshot.h"

#include <math.h>

#include "script/session.h"

void render_picture_size(const NavWorld *w, int width, int *out_w, int *out_h)
{
    float ww = (float)world_width(w), wh = (float)world_height(w);
    int h = (int)lroundf((float)width * wh / ww) + RENDER_FIT_TOP + RENDER_FIT_BOTTOM;
    *out_w = width;
    *out_h = h < 480 ? 480 : h > 2 * width ? 2 * width : h;
}

NavStatus render_png(Renderer *r, NavSim *sim, const RenderView *v, const RenderInfo *info, int width, int height,
                     const char *path, NavError *err)
{
    NavImage *img = image_create(width, height, err);
    if (!img) return NAV_FAILURE | NAV_E_NOMEM;
    NavStatus st = render_draw(r, img, sim, v, info);
    if (NAV_FAILED(st)) st = nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory drawing the picture");
    else st = image_write_png(img, path, err);
    image_destroy(img);
    return st;
}

NavStatus render_session_png(NavSession *s, int focus_bot, const char *path, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    Renderer *r = render_create(&e);
    if (!r) {
        if (err) *err = e;
        return e.status;
    }
    NavSim *sim = session_sim(s);
    int w, h;
    render_picture_size(sim_world(sim), 1280, &w, &h);
    RenderView v;
    render_view_fit(&v, sim_world(sim), w, h);
    v.selected = focus_bot >= 0 && (uint32_t)focus_bot < sim_bot_count(sim) ? focus_bot : -1;
    RenderInfo info = { .session = s, .mode = "navbot", .title = world_name(sim_world(sim)) };
    NavStatus st = render_png(r, sim, &v, &info, w, h, path, err);
    render_destroy(r);
    return st;
}

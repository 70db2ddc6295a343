/*
** snapshot.c — pictures to PNG files (snapshot.h).
*/
#include "render/snapshot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render_internal.h"

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

/* The box of text beside the ring (or at the top of the map without a
** place), kept inside the picture. */
static void mark_box(Renderer *r, NavImage *img, const RenderFailureMark *m, float px, float py, float ring)
{
    char head[96], line[200];
    snprintf(head, sizeof head, "went wrong at tick %llu (%.2f s)", (unsigned long long)m->tick, m->time);
    int gw = font_glyph_width(r->font, 1);
    int room = gw > 0 ? (img->width - 40) / gw : 0;
    snprintf(line, sizeof line, "%s", m->text);
    if (room > 4 && (int)strlen(line) > room) snprintf(line + room - 3, sizeof line - (size_t)(room - 3), "...");
    int lh = font_line_height(r->font, 1);
    int w = NAV_MAX(font_text_width(r->font, head, 1), font_text_width(r->font, line, 1)) + 12;
    int h = (line[0] ? 2 : 1) * lh + 10;
    int x, y;
    if (m->at_place) {
        x = (int)(px + ring + 10.0f);
        if (x + w > img->width - 4) x = (int)(px - ring - 10.0f) - w;
        y = (int)py - h / 2;
    } else {
        x = (img->width - w) / 2;
        y = RENDER_FIT_TOP + 8;
    }
    x = NAV_MAX(4, NAV_MIN(x, img->width - w - 4));
    y = NAV_MAX(4, NAV_MIN(y, img->height - h - 4));
    image_fill_rect(img, x, y, w, h, nav_rgba(12, 14, 20, 235));
    image_fill_rect(img, x, y, 3, h, RENDER_FAILURE_RED);
    font_draw(img, r->font, x + 8, y + 5, head, RENDER_FAILURE_RED, 1);
    if (line[0]) font_draw(img, r->font, x + 8, y + 5 + lh, line, nav_rgba(235, 238, 245, 255), 1);
}

static void mark_failure(Renderer *r, NavImage *img, const RenderView *v, const RenderFailureMark *m)
{
    float px = 0.0f, py = 0.0f, ring = 24.0f; /* still a ring in a 480 px thumbnail */
    if (m->at_place) {
        render_to_screen(v, img->width, img->height, m->pos[0], m->pos[1], &px, &py);
        /* A dark ring under the red one, so it shows on light floors too. */
        for (int pass = 0; pass < 2; pass++) {
            NavColor c = pass ? RENDER_FAILURE_RED : nav_rgba(0, 0, 0, 200);
            float t = pass ? 4.0f : 8.0f;
            for (int k = 0; k < 48; k++) {
                float a0 = 2.0f * 3.14159265f * k / 48, a1 = 2.0f * 3.14159265f * (k + 1) / 48;
                image_draw_line(img, px + ring * cosf(a0), py + ring * sinf(a0), px + ring * cosf(a1),
                                py + ring * sinf(a1), t, c);
            }
            for (int k = 0; k < 4; k++) {
                float dx = k == 0 ? 1.0f : k == 1 ? -1.0f : 0.0f, dy = k == 2 ? 1.0f : k == 3 ? -1.0f : 0.0f;
                image_draw_line(img, px + dx * (ring - 6.0f), py + dy * (ring - 6.0f), px + dx * (ring + 8.0f),
                                py + dy * (ring + 8.0f), t, c);
            }
        }
    }
    mark_box(r, img, m, px, py, ring);
}

NavImage *render_session_image(NavSession *s, int focus_bot, const RenderFailureMark *mark, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    Renderer *r = render_create(&e);
    if (!r) {
        if (err) *err = e;
        return NULL;
    }
    NavSim *sim = session_sim(s);
    int w, h;
    render_picture_size(sim_world(sim), 1280, &w, &h);
    RenderView v;
    render_view_fit(&v, sim_world(sim), w, h);
    v.selected = focus_bot >= 0 && (uint32_t)focus_bot < sim_bot_count(sim) ? focus_bot : -1;
    RenderInfo info = { .session = s, .mode = "navbot", .title = world_name(sim_world(sim)) };
    NavImage *img = image_create(w, h, err);
    if (img && NAV_FAILED(render_draw(r, img, sim, &v, &info))) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory drawing the picture");
        image_destroy(img);
        img = NULL;
    }
    if (img && mark) mark_failure(r, img, &v, mark);
    render_destroy(r);
    return img;
}

NavStatus render_session_png(NavSession *s, int focus_bot, const char *path, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    NavImage *img = render_session_image(s, focus_bot, NULL, &e);
    if (!img) {
        if (err) *err = e;
        return e.status;
    }
    NavStatus st = image_write_png(img, path, err);
    image_destroy(img);
    return st;
}

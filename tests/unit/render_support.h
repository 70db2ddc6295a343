/*
** render_support.h — renderers, sims, sessions and pictures for the render
** tests, shared by test_render.c and test_render_more.c.
*/
#ifndef NAV_RENDER_SUPPORT_H
#define NAV_RENDER_SUPPORT_H

#include <math.h>
#include <stb/stb_image.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/alloc.h"
#include "cli/cli.h"
#include "render/font.h"
#include "render/render.h"
#include "render/render_internal.h"
#include "render/snapshot.h"
#include "script/run_trace.h"
#include "script/session.h"
#include "test_cli_run.h"
#include "test_support.h"
#include "sim/sim_debug.h"
#include "world/entity.h"

/* {======= helpers ======= */

static inline void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static inline Renderer *new_renderer(void)
{
    NavError err;
    nav_error_clear(&err);
    Renderer *r = render_create(&err);
    cr_assert_not_null(r, "render_create (the font, from the repository root): %s", err.message);
    return r;
}

static inline NavSim *new_sim(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(sim, "sim_create: %s", err.message);
    return sim;
}

static inline NavSession *new_session(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = ".", .seed = 1, .log = quiet }, &err);
    cr_assert_not_null(s, "session_create: %s", err.message);
    return s;
}

static inline NavImage *new_image(int width, int height)
{
    NavError err;
    nav_error_clear(&err);
    NavImage *img = image_create(width, height, &err);
    cr_assert_not_null(img, "%s", err.message);
    return img;
}

/* A picture of the whole map `width` wide (as headless runs size it). */
static inline NavImage *map_image(const NavWorld *w, int width)
{
    int iw, ih;
    render_picture_size(w, width, &iw, &ih);
    return new_image(iw, ih);
}

/* The fitted view with nothing over the world: no HUD, legend or labels. */
static inline void bare_view(RenderView *v, const NavWorld *w, const NavImage *img)
{
    render_view_fit(v, w, img->width, img->height);
    v->hud = v->legend = v->labels = false;
}

static inline NavColor pixel(const NavImage *img, int x, int y)
{
    cr_assert(x >= 0 && y >= 0 && x < img->width && y < img->height, "pixel %d,%d is off the %dx%d picture", x, y,
              img->width, img->height);
    const uint8_t *p = img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
    return nav_rgba(p[0], p[1], p[2], p[3]);
}

static inline bool same_color(NavColor a, NavColor b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

/* The pixel holding world point (x, y). */
static inline void world_pixel(const RenderView *v, const NavImage *img, float x, float y, int *px, int *py)
{
    float fx, fy;
    render_to_screen(v, img->width, img->height, x, y, &fx, &fy);
    *px = (int)floorf(fx);
    *py = (int)floorf(fy);
}

static inline size_t count_diff(const NavImage *a, const NavImage *b)
{
    cr_assert(a->width == b->width && a->height == b->height);
    size_t n = 0, total = (size_t)a->width * (size_t)a->height;
    for (size_t i = 0; i < total; i++) n += memcmp(a->pixels + 4 * i, b->pixels + 4 * i, 4) != 0;
    return n;
}

/* Differing pixels inside the rectangle [x0, x1) x [y0, y1). */
static inline size_t count_diff_in(const NavImage *a, const NavImage *b, int x0, int y0, int x1, int y1)
{
    size_t n = 0;
    for (int y = NAV_MAX(y0, 0); y < NAV_MIN(y1, a->height); y++)
        for (int x = NAV_MAX(x0, 0); x < NAV_MIN(x1, a->width); x++) {
            size_t i = (size_t)y * (size_t)a->width + (size_t)x;
            n += memcmp(a->pixels + 4 * i, b->pixels + 4 * i, 4) != 0;
        }
    return n;
}

static inline void copy_image(NavImage *dst, const NavImage *src)
{
    cr_assert(dst->width == src->width && dst->height == src->height);
    memcpy(dst->pixels, src->pixels, (size_t)src->width * (size_t)src->height * 4);
}

static inline size_t distinct_colors(const NavImage *img)
{
    uint8_t *seen = nav_calloc((size_t)1 << 21, 1); /* one bit per RGB */
    cr_assert_not_null(seen);
    size_t n = 0, total = (size_t)img->width * (size_t)img->height;
    for (size_t i = 0; i < total; i++) {
        const uint8_t *p = img->pixels + 4 * i;
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        if (!(seen[c >> 3] & (1u << (c & 7)))) seen[c >> 3] |= (uint8_t)(1u << (c & 7)), n++;
    }
    nav_free(seen);
    return n;
}

/* What the renderer draws at a cell seen from above: the top floor of its
** column (-1: none, solid). */
static inline int top_contents(const NavWorld *w, int cx, int cy)
{
    if (cx < 0 || cy < 0 || cx >= world_width(w) || cy >= world_height(w)) return -2;
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    return n ? col[n - 1].contents : -1;
}

static inline float top_height(const NavWorld *w, int cx, int cy)
{
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    return n ? world_standing_height(&col[n - 1]) : NAN;
}

/* A cell whose top is `contents` (-1: solid) and so are its 8 neighbours'
** at the same height (no wall or shade edge nearby): of those, the one
** nearest their middle. False when there is none. */
static inline bool find_cell(const NavWorld *w, int contents, int *out_x, int *out_y)
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

static inline void cell_pixel(const NavWorld *w, const RenderView *v, const NavImage *img, int cx, int cy, int *px, int *py)
{
    float x, y;
    world_cell_center(w, cx, cy, &x, &y);
    world_pixel(v, img, x, y, px, py);
}

static inline char *temp_path(const char *name)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "/tmp/navbot-test-render-%d-%s", (int)getpid(), name);
    return p;
}

static inline long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static inline bool has_png_signature(const char *path)
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

/* {======= bots ======= */

/* A floor point in the middle of open floor, `dx` metres east of the
** middle of the arena's west half. */
static inline void arena_point(const NavWorld *w, float dx, float p[3])
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
static inline NavColor body_pixel(const NavImage *img, const RenderView *v, const NavBot *b, float radius)
{
    float yaw = b->yaw * (float)NAV_PI / 180.0f;
    int px, py;
    world_pixel(v, img, b->pos[0] - 0.5f * radius * cosf(yaw), b->pos[1] - 0.5f * radius * sinf(yaw), &px, &py);
    return pixel(img, px, py);
}

/* Pixels that changed farther than `reach` pixels from (cx, cy). */
static inline size_t changed_beyond(const NavImage *a, const NavImage *b, float cx, float cy, float reach)
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

/* }======= */

/* {======= pictures the tests write and read ======= */

/* build/pictures/NAME (the folder made when missing): where the render
** tests leave their pictures to be looked at. The last four answers stay
** valid, so a test may hold a few paths at once. */
static inline const char *picture_path(const char *name)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    mkdir("build", 0777);
    mkdir("build/pictures", 0777);
    snprintf(p, sizeof paths[0], "build/pictures/%s", name);
    return p;
}

/* img as build/pictures/NAME, or the test fails. */
static inline void save(const NavImage *img, const char *name)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(image_write_png(img, picture_path(name), &err)), "%s", err.message);
}

/* A PNG file read back into an image, or the test fails. */
static inline NavImage *load_png(const char *path)
{
    int iw, ih, ch;
    uint8_t *px = stbi_load(path, &iw, &ih, &ch, 4);
    cr_assert_not_null(px, "%s does not decode", path);
    NavImage *img = new_image(iw, ih);
    memcpy(img->pixels, px, (size_t)iw * (size_t)ih * 4);
    stbi_image_free(px);
    return img;
}

/* }======= */

/* {======= storeys and truth on screen (render_storey, window_xvfb) ======= */

/* The storey label drawn exactly as the renderer promises: its text in
** the font at scale 2 on the opaque box (render_internal.h). */
static inline size_t label_mismatch(Renderer *r, const NavImage *img, const RenderStoreyLabel *l)
{
    NavImage *want = new_image(l->w, l->h);
    image_fill(want, RENDER_LABEL_BOX);
    font_draw(want, r->font, 6, 4, l->text, RENDER_LABEL_TEXT, 2);
    size_t bad = 0;
    for (int y = 0; y < l->h; y++)
        for (int x = 0; x < l->w; x++) bad += !same_color(pixel(want, x, y), pixel(img, l->x + x, l->y + y));
    image_destroy(want);
    return bad;
}

/* Where "PAUSED" is written in the HUD's text colour, if anywhere: the
** glyph pixels of the word must all be that colour. */
static inline bool says_paused(Renderer *r, const uint8_t *px, int width, int height)
{
    const NavColor TEXT = { 235, 238, 245, 255 };
    int tw = font_text_width(r->font, "PAUSED", 1), th = font_line_height(r->font, 1);
    NavImage *mask = new_image(tw, th);
    image_fill(mask, nav_rgba(0, 0, 0, 0));
    font_draw(mask, r->font, 0, 0, "PAUSED", nav_rgba(255, 255, 255, 255), 1);
    bool found = false;
    for (int y = 0; y + th <= NAV_MIN(height, 160) && !found; y++)
        for (int x = 0; x + tw <= width && !found; x++) {
            bool all = true;
            for (int my = 0; my < th && all; my++)
                for (int mx = 0; mx < tw && all; mx++) {
                    if (pixel(mask, mx, my).a == 0) continue;
                    const uint8_t *p = px + ((size_t)(y + my) * (size_t)width + (size_t)(x + mx)) * 4;
                    all = p[0] == TEXT.r && p[1] == TEXT.g && p[2] == TEXT.b;
                }
            found = all;
        }
    image_destroy(mask);
    return found;
}

/* }======= */

#endif

/*
** image.c — RGBA canvas and PNG output (stb_image_write, linked from
** Debian's libstb: the implementation is not compiled here).
*/
#include "core/image.h"

#include "core/fileio.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

#include "core/alloc.h"

NavImage *image_create(int width, int height, NavError *err)
{
    if (width < 1 || height < 1 || width > NAV_IMAGE_MAX_SIDE || height > NAV_IMAGE_MAX_SIDE) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "image size %d x %d is outside 1 to %d pixels a side", width,
                      height, NAV_IMAGE_MAX_SIDE);
        return NULL;
    }
    NavImage *img = nav_malloc(sizeof *img);
    uint8_t *px = nav_calloc((size_t)width * (size_t)height, 4);
    if (!img || !px) {
        nav_free(img);
        nav_free(px);
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a %d x %d image", width, height);
        return NULL;
    }
    img->width = width;
    img->height = height;
    img->pixels = px;
    return img;
}

void image_destroy(NavImage *img)
{
    if (!img) return;
    nav_free(img->pixels);
    nav_free(img);
}

void image_fill(NavImage *img, NavColor c)
{
    size_t n = (size_t)img->width * (size_t)img->height;
    uint8_t *p = img->pixels;
    for (size_t i = 0; i < n; i++, p += 4) {
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        p[3] = c.a;
    }
}

/* Blend c over the pixel at p ("over" compositing, straight alpha). */
static void blend(uint8_t *p, NavColor c)
{
    if (c.a == 255) {
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        p[3] = 255;
        return;
    }
    if (c.a == 0) return;
    unsigned sa = c.a, da = p[3];
    unsigned oa = sa * 255u + da * (255u - sa); /* alpha out, times 255 */
    if (oa == 0) return;
    const uint8_t src[3] = { c.r, c.g, c.b };
    for (int k = 0; k < 3; k++) {
        unsigned v = (src[k] * sa * 255u + p[k] * da * (255u - sa) + oa / 2) / oa;
        p[k] = (uint8_t)(v > 255u ? 255u : v);
    }
    p[3] = (uint8_t)((oa + 127u) / 255u);
}

static uint8_t *pixel(NavImage *img, int x, int y)
{
    return img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
}

void image_set_pixel(NavImage *img, int x, int y, NavColor c)
{
    if (x < 0 || y < 0 || x >= img->width || y >= img->height) return;
    blend(pixel(img, x, y), c);
}

void image_fill_rect(NavImage *img, int x, int y, int w, int h, NavColor c)
{
    /* Clip in 64 bits: x + w may overflow an int for wild arguments. */
    int64_t x0 = NAV_MAX((int64_t)x, 0), y0 = NAV_MAX((int64_t)y, 0);
    int64_t x1 = NAV_MIN((int64_t)x + w, (int64_t)img->width), y1 = NAV_MIN((int64_t)y + h, (int64_t)img->height);
    for (int64_t j = y0; j < y1; j++)
        for (int64_t i = x0; i < x1; i++) blend(pixel(img, (int)i, (int)j), c);
}

/* Clamp a float pixel bound into [lo, hi] as an int (NaN gives lo). */
static int clamp_bound(float v, int lo, int hi)
{
    if (!(v >= (float)lo)) return lo;
    if (v > (float)hi) return hi;
    return (int)v;
}

void image_draw_line(NavImage *img, float x0, float y0, float x1, float y1, float thickness, NavColor c)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return;
    float r = (thickness < 1.0f || !isfinite(thickness) ? 1.0f : thickness) * 0.5f;
    int ix0 = clamp_bound(floorf(fminf(x0, x1) - r), 0, img->width - 1);
    int ix1 = clamp_bound(ceilf(fmaxf(x0, x1) + r), 0, img->width - 1);
    int iy0 = clamp_bound(floorf(fminf(y0, y1) - r), 0, img->height - 1);
    int iy1 = clamp_bound(ceilf(fmaxf(y0, y1) + r), 0, img->height - 1);
    float dx = x1 - x0, dy = y1 - y0;
    float len2 = dx * dx + dy * dy;
    float r2 = r * r;
    for (int j = iy0; j <= iy1; j++) {
        float py = (float)j + 0.5f;
        for (int i = ix0; i <= ix1; i++) {
            float px = (float)i + 0.5f;
            float t = len2 > 0.0f ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0.0f;
            t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
            float ex = x0 + t * dx - px, ey = y0 + t * dy - py;
            if (ex * ex + ey * ey <= r2) blend(pixel(img, i, j), c);
        }
    }
}

void image_fill_circle(NavImage *img, float cx, float cy, float radius, NavColor c)
{
    if (!isfinite(cx) || !isfinite(cy) || !(radius > 0.0f)) return;
    int ix0 = clamp_bound(floorf(cx - radius), 0, img->width - 1);
    int ix1 = clamp_bound(ceilf(cx + radius), 0, img->width - 1);
    int iy0 = clamp_bound(floorf(cy - radius), 0, img->height - 1);
    int iy1 = clamp_bound(ceilf(cy + radius), 0, img->height - 1);
    float r2 = radius * radius;
    for (int j = iy0; j <= iy1; j++) {
        float ey = (float)j + 0.5f - cy;
        for (int i = ix0; i <= ix1; i++) {
            float ex = (float)i + 0.5f - cx;
            if (ex * ex + ey * ey <= r2) blend(pixel(img, i, j), c);
        }
    }
}

static void png_out(void *user, void *data, int size)
{
    NavFileWriter *w = user;
    if (size > 0) fwrite(data, 1, (size_t)size, w->f); /* a short write sets ferror: commit refuses it */
}

NavImage *image_scale_down(const NavImage *img, int width, NavError *err)
{
    if (width < 1 || width > img->width) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "width", "%d is not from 1 to the image's %d", width, img->width);
        return NULL;
    }
    int height = (int)((int64_t)img->height * width / img->width);
    NavImage *out = image_create(width, height > 0 ? height : 1, err);
    if (!out) return NULL;
    for (int y = 0; y < out->height; y++) {
        int y0 = (int)((int64_t)y * img->height / out->height),
            y1 = (int)((int64_t)(y + 1) * img->height / out->height);
        if (y1 <= y0) y1 = y0 + 1;
        for (int x = 0; x < width; x++) {
            int x0 = (int)((int64_t)x * img->width / width), x1 = (int)((int64_t)(x + 1) * img->width / width);
            if (x1 <= x0) x1 = x0 + 1;
            uint32_t sum[4] = { 0 }, n = 0;
            for (int sy = y0; sy < y1; sy++)
                for (int sx = x0; sx < x1; sx++, n++)
                    for (int k = 0; k < 4; k++) sum[k] += img->pixels[((size_t)sy * img->width + sx) * 4 + k];
            uint8_t *d = &out->pixels[((size_t)y * width + x) * 4];
            for (int k = 0; k < 4; k++) d[k] = (uint8_t)((sum[k] + n / 2) / n);
        }
    }
    return out;
}

NavStatus image_write_png(const NavImage *img, const char *path, NavError *err)
{
    NavFileWriter w;
    NavStatus s = fileio_begin(&w, path, 0, err);
    if (NAV_FAILED(s)) return s;
    if (!stbi_write_png_to_func(png_out, &w, img->width, img->height, 4, img->pixels, img->width * 4)) {
        fileio_abort(&w);
        return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "cannot write PNG: out of memory encoding it");
    }
    return fileio_commit(&w, err);
}

/*
** image.h — a small RGBA canvas for pictures the tools write (paths drawn
** over a grid, debug views), saved as PNG through stb_image_write.
**
** Pixel (0, 0) is the top-left corner, rows run top to bottom, as in the
** PNG file. Callers drawing a map (y grows north) flip y themselves.
**
** Colours are RGBA. Drawing calls other than image_fill blend a colour
** with alpha below 255 over what is there (alpha 0 draws nothing); alpha
** 255 overwrites. Everything is clipped to the canvas, so shapes may run
** off its edges.
**
** DOES NOT: read images, draw text, or antialias (but for scaling down).
*/
#ifndef NAV_IMAGE_H
#define NAV_IMAGE_H

#include <stdint.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest side accepted by image_create. */
#define NAV_IMAGE_MAX_SIDE 16384

typedef struct NavColor {
    uint8_t r, g, b, a;
} NavColor;

typedef struct NavImage {
    int width, height;
    uint8_t *pixels; /* width * height * 4 bytes, RGBA, row 0 at the top */
} NavImage;

static inline NavColor nav_rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a) { return (NavColor){ r, g, b, a }; }

/* A canvas of width x height (1 to NAV_IMAGE_MAX_SIDE each), transparent
** black. NULL with err set on a bad size or out of memory. */
NavImage *image_create(int width, int height, NavError *err);
void image_destroy(NavImage *img);

/* Set every pixel to c (no blending). */
void image_fill(NavImage *img, NavColor c);
/* One pixel; outside the canvas does nothing. */
void image_set_pixel(NavImage *img, int x, int y, NavColor c);
/* The w x h rectangle whose top-left pixel is (x, y). */
void image_fill_rect(NavImage *img, int x, int y, int w, int h, NavColor c);
/* A line from (x0, y0) to (x1, y1) in pixel units (pixel (i, j) covers
** [i, i+1) x [j, j+1), so its centre is (i + 0.5, j + 0.5)), thickness
** pixels wide with round ends: every pixel whose centre is within
** thickness / 2 of the segment. Thickness below 1 draws 1 pixel wide. */
void image_draw_line(NavImage *img, float x0, float y0, float x1, float y1, float thickness, NavColor c);
/* A disc: every pixel whose centre is within radius of (cx, cy). */
void image_fill_circle(NavImage *img, float cx, float cy, float radius, NavColor c);

/* A copy of img width pixels wide (1 to img's width), as tall as keeps its
** shape, each pixel the mean of the ones it covers: thumbnails that stay
** smooth. NULL with err set on a bad width or out of memory. */
NavImage *image_scale_down(const NavImage *img, int width, NavError *err);

/* Write the canvas as an RGBA PNG. NAV_OK, or NAV_FAILURE|NAV_E_IO with
** err naming the path. */
NavStatus image_write_png(const NavImage *img, const char *path, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

/*
** font.h — a fixed-width bitmap font read from a text file, and text drawn
** with it onto a NavImage (HUD, labels, help screen, headless pictures).
**
** The file format is described at the top of assets/font-6x10.txt and in
** assets/README.md: a header "navbot-font 1 WIDTH HEIGHT BASELINE", then
** per character "glyph NAME" and HEIGHT rows of WIDTH '#' (ink) or '.'.
**
** Every character takes the same cell, WIDTH x HEIGHT pixels times the
** scale; the gap between letters and lines is part of the glyphs. Text is
** bytes: '\n' starts a new line, 32..126 draw their glyph, any other byte
** (or a character the file leaves out) draws a hollow box, so a non-ASCII
** UTF-8 character shows as two to four boxes.
**
** Drawing blends through the image functions, is clipped to the canvas and
** never allocates. A NULL font draws nothing and measures 0, so a window
** whose font failed to load still runs.
**
** DOES NOT: kerning, proportional widths, wrapping, Unicode glyphs.
*/
#ifndef NAV_FONT_H
#define NAV_FONT_H

#include <stddef.h>

#include "core/image.h"
#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cell sides a font file may declare, and the largest drawing scale
** (larger scales are clamped, smaller than 1 draw at 1). */
#define NAV_FONT_MAX_SIDE 32
#define NAV_FONT_MAX_SCALE 64
/* The shipped font's file name, looked for by font_load_default. */
#define NAV_FONT_DEFAULT_FILE "font-6x10.txt"

typedef struct NavFont NavFont;

/* Read a font file. NULL with err naming the file, the line and what is
** wrong when it cannot be read or is malformed. */
NavFont *font_load(const char *path, NavError *err);
/* The same from a buffer of len bytes; name is used in errors. */
NavFont *font_parse(const char *text, size_t len, const char *name, NavError *err);
/* The shipped font: $NAVBOT_ASSETS/font-6x10.txt, then assets/ under the
** current directory, then <exedir>/../../assets and <exedir>/../assets.
** The first file that exists is loaded (a broken one is an error, not
** skipped); when none exists the error lists where it looked. */
NavFont *font_load_default(NavError *err);
void font_destroy(NavFont *f);

/* Draw text with its top-left at (x, y), each font pixel a scale x scale
** block. Returns the width in pixels of the widest line. */
int font_draw(NavImage *img, const NavFont *f, int x, int y, const char *text, NavColor c, int scale);
/* The same with a 1-pixel outline in `outline` around the ink (the 8
** neighbours of every ink pixel), so the text reads over any background.
** Each canvas pixel is blended once, so translucent colours stay even. */
int font_draw_outlined(NavImage *img, const NavFont *f, int x, int y, const char *text, NavColor c, NavColor outline,
                       int scale);

/* Width in pixels of the widest line of text, and the height of all its
** lines (a trailing '\n' starts a line); a line's height; one cell's width. */
int font_text_width(const NavFont *f, const char *text, int scale);
int font_text_height(const NavFont *f, const char *text, int scale);
int font_line_height(const NavFont *f, int scale);
int font_glyph_width(const NavFont *f, int scale);

#ifdef __cplusplus
}
#endif

#endif

/*
** render_legend.h — what every picture carries besides the map, shared by
** the simulation's pictures (render_hud.c) and the area graph's
** (render_graph.c):
**
**   the legend: a band along the bottom naming the colours of what the
**     picture shows (travel types of the links drawn, the floors' contents,
**     entities, bots, the overlays on and their colours, the heat map's
**     scale in seconds), built per picture from what was drawn;
**   the scale bar (a round length in metres: 1, 2 or 5 times a power of
**     ten, chosen from the zoom) and the north arrow, at the band's right
**     end, so they cover neither the legend nor the HUD;
**   labels placed so that none covers another: each label is tried at a
**     few places round what it names, shortened, and dropped when it fits
**     nowhere; the least important kinds are placed last.
**
** DOES NOT: decide what a picture shows (its callers fill the legend and
** add the labels), or allocate while drawing (labels grow their arrays
** when added).
*/
#ifndef NAV_RENDER_LEGEND_H
#define NAV_RENDER_LEGEND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/image.h"
#include "render/font.h"

/* {======= the legend ======= */

typedef enum LegendStyle {
    LEGEND_TITLE, /* a section's name, dim: "links:" */
    LEGEND_CHIP,  /* a filled square and a name */
    LEGEND_LINE,  /* a short thick line (a link, a route) and a name */
    LEGEND_RING,  /* a disc in a white ring (a storey mark, a marker) */
    LEGEND_RAMP,  /* a colour ramp with its ends' values and unit */
    LEGEND_TEXT   /* dim text alone */
} LegendStyle;

typedef enum LegendRamp { LEGEND_RAMP_HEAT, LEGEND_RAMP_HEIGHT } LegendRamp;

typedef struct LegendItem {
    uint8_t style, ramp;
    NavColor c;
    float lo, hi; /* LEGEND_RAMP: the values at its ends */
    char name[48];
} LegendItem;

#define LEGEND_MAX_ITEMS 96

typedef struct Legend {
    LegendItem items[LEGEND_MAX_ITEMS];
    int count;
} Legend;

void legend_clear(Legend *l);
void legend_add(Legend *l, LegendStyle style, NavColor c, const char *name);
/* A ramp from lo to hi in unit ("s", "m"); name is said before it. */
void legend_ramp(Legend *l, LegendRamp ramp, const char *name, float lo, float hi, const char *unit);
/* The travel types of bits (NAV_TFL_TYPE) as lines in their colours,
** after title. Nothing when bits is 0. */
void legend_travel(Legend *l, const char *title, uint32_t bits);

/* }======= */

/* {======= scale bar and north arrow ======= */

/* A round length (1, 2 or 5 times a power of ten metres) at most max_px
** pixels long at px_per_m, the longest such. */
float render_scale_metres(float px_per_m, float max_px);

/* Where the scale bar and north arrow are drawn: a box with its label
** ("5 m") over a white bar of bar_len pixels at (bar_x, bar_y), and the
** arrow's white shaft at column arrow_x from arrow_top to arrow_bottom
** with an "N" over it. */
typedef struct RenderScaleBar {
    int x, y, w, h; /* the box */
    int bar_x, bar_y, bar_len, bar_h;
    int arrow_x, arrow_top, arrow_bottom;
    float metres;
    char text[24];
} RenderScaleBar;

#define RENDER_SCALE_WHITE nav_rgba(255, 255, 255, 255)
#define RENDER_SCALE_MAX_PX 120.0f

/* Laid out with the box's bottom-right corner at (right, bottom). */
void render_scale_bar_layout(const NavFont *font, float px_per_m, int right, int bottom, RenderScaleBar *out);
void render_scale_bar_draw(NavImage *img, const NavFont *font, const RenderScaleBar *s);

/* }======= */

/* {======= the band: legend, scale bar, north arrow ======= */

/* The band's height for a picture width pixels wide. */
int legend_band_height(const Legend *l, const NavFont *font, int width);
/* Draws the band from row y down to the picture's bottom (its background
** translucent when over the map, as in the simulation's pictures) and
** says where the scale bar went (scale may be NULL). */
void legend_band_draw(const Legend *l, NavImage *img, const NavFont *font, int y, float px_per_m,
                      RenderScaleBar *scale);

/* }======= */

/* {======= labels ======= */

/* Kinds in the order they are placed: an earlier kind keeps its place and
** a later one moves, shortens or goes. */
typedef enum RenderLabelKind {
    RENDER_LABEL_PLAYER,    /* the player's body, always named */
    RENDER_LABEL_SELECTED,  /* the selected bot */
    RENDER_LABEL_BOT,       /* other bots: id, brain, what they say */
    RENDER_LABEL_STOREY,    /* where a link leaves for or lands from another storey */
    RENDER_LABEL_ELSEWHERE, /* a bot of another storey: its storey's number */
    RENDER_LABEL_LINK,      /* the travel type of the link a bot takes */
    RENDER_LABEL_ENTITY,    /* doors, lifts, spawns, goals, ... */
    RENDER_LABEL_OBSTACLE,
    RENDER_LABEL_KINDS
} RenderLabelKind;

typedef struct RenderLabel {
    uint8_t kind;
    bool boxed;     /* on a dark box instead of outlined */
    bool shown;     /* placed (else dropped: it fitted nowhere) */
    bool shortened; /* shown as its brief text */
    NavColor color;
    float ax, ay, gap;    /* what it names, picture pixels, and the room kept round it */
    int pref_dx, pref_dy; /* its first place: top-left from the anchor */
    int x, y, w, h;       /* where it went */
    int seq;
    char text[128];
    char brief[48]; /* a shorter text, "" none */
} RenderLabel;

typedef struct LabelSet {
    RenderLabel *items;
    int count, cap;
    int (*blocked)[4]; /* x0, y0, x1, y1 no label may cover (HUD, panel, legend) */
    int blocked_count, blocked_cap;
    bool nomem; /* a label or a block was left out for want of memory */
} LabelSet;

void labels_clear(LabelSet *s);
void labels_free(LabelSet *s);
/* A rectangle no label may cover. */
void labels_block(LabelSet *s, int x, int y, int w, int h);
/* A label naming what is at (ax, ay), gap pixels round it kept clear; its
** first place is (ax + dx, ay + dy). NULL when out of memory. */
RenderLabel *labels_add(LabelSet *s, RenderLabelKind kind, float ax, float ay, float gap, int dx, int dy,
                        const char *text, const char *brief, NavColor c);
/* Places every label in a width x height picture: by kind, each at the
** first place where it is whole in the picture and covers no label placed
** before it nor a blocked rectangle (nor, when it can, another label's
** anchor), its full text first, then its brief one; dropped otherwise. */
void labels_place(LabelSet *s, const NavFont *font, int width, int height);
void labels_draw(const LabelSet *s, NavImage *img, const NavFont *font);

/* }======= */

#endif

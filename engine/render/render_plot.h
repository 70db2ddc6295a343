/*
** render_plot.h — charts drawn with the pictures' painter and font
** (core/image.h, render/font.h), in the colours of the legend band: what
** `navbot bench ... --plot` and `navbot run ... --plot` write.
**
**   bars:  one group per map (or crowd size), one bar per series in each
**          group, a baseline series in grey beside the others, each bar's
**          value over it, a missing value marked "n/a";
**   lines: figures over time (a point per tick), as lines or as areas
**          stacked on each other (the parts of a whole, such as a tick's
**          time split), on the left axis, and a series on a right axis of
**          its own (a count beside times).
**
** Both have a title, a dim line under it, a legend naming every series,
** axes from zero with round ticks (1, 2 or 5 times a power of ten) and
** their units. Where things went is returned in a PlotLayout, so a test
** can find a bar's columns and a value's row.
**
** DOES NOT: read benchmark output (cli/bench_plot.c does), or allocate
** while drawing.
*/
#ifndef NAV_RENDER_PLOT_H
#define NAV_RENDER_PLOT_H

#include <stdbool.h>

#include "core/image.h"
#include "core/nav.h"
#include "render/font.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PLOT_MAX_SERIES 8

typedef enum PlotKind { PLOT_BARS, PLOT_LINES } PlotKind;

typedef struct PlotSeries {
    const char *name;
    const double *values; /* bars: one per group; lines: one per point; NaN: none */
    NavColor color;       /* alpha 0: the palette's next (grey for a baseline) */
    bool baseline;        /* bars: the figure the others are measured against */
    bool stacked;         /* lines: an area on top of the stacked series before it */
    bool right;           /* lines: on the right axis */
} PlotSeries;

typedef struct PlotChart {
    PlotKind kind;
    const char *title;
    const char *subtitle;      /* a dim line under the title; NULL: none */
    const char *unit;          /* the left axis's: "ms per tick"; "% ...": a share, the axis ends at 100 */
    const char *right_unit;    /* lines: the right axis's */
    const char *x_unit;        /* lines: "s" */
    int count;                 /* bars: groups; lines: points */
    const char *const *groups; /* bars: each group's name */
    double x0, dx;             /* lines: point i is at x0 + i * dx */
    int series_count;
    PlotSeries series[PLOT_MAX_SERIES];
} PlotChart;

/* Where a chart went in its picture. */
typedef struct PlotLayout {
    int x0, y0, x1, y1; /* the plot area, [x0, x1) x [y0, y1) */
    double hi;          /* the left axis runs from 0 at row y1 to hi at row y0 */
    double right_hi;    /* the right axis, 0 when there is none */
    double x_lo, x_hi;  /* lines: the values at columns x0 and x1 */
    int legend_x, legend_y, legend_w, legend_h;
    NavColor colors[PLOT_MAX_SERIES]; /* each series' colour as drawn */
} PlotLayout;

#define PLOT_BACKGROUND nav_rgba(20, 23, 31, 255)
#define PLOT_AREA_BG nav_rgba(28, 32, 42, 255)
#define PLOT_BASELINE_COLOR nav_rgba(140, 146, 160, 255)

/* The i-th colour of the palette (never grey). */
NavColor plot_color(int i);

/* Draws c over the whole of img; where things went into layout (NULL:
** not wanted). A chart with no groups or points draws its frame and says
** "no data". */
void plot_draw(NavImage *img, const NavFont *font, const PlotChart *c, PlotLayout *layout);

/* The row of value v on the left axis (right: the right one). */
int plot_row(const PlotLayout *l, double v, bool right);
/* The column of x on a lines chart's axis. */
int plot_column(const PlotLayout *l, double x);
/* Bars: the columns [*x, *x + *w) of group g's bar of series s. */
void plot_bar_columns(const PlotLayout *l, const PlotChart *c, int g, int s, int *x, int *w);

/* Draws c in a width x height picture with the shipped font and writes
** it as PNG. NAV_OK, or an error naming the path (or the font). */
NavStatus plot_write_png(const PlotChart *c, int width, int height, const char *path, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

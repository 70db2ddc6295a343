/*
** render_plot.c — bar charts and time series (render_plot.h).
*/
#include "render/render_plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MARGIN 16
#define TICK_LEN 4
#define LEGEND_CHIP 10
#define LEGEND_GAP 18     /* between legend items */
#define MAX_BAR_W 96.0    /* pixels */
#define TARGET_TICKS 5    /* on a value axis */
#define TARGET_X_TICKS 10 /* along time, which has room for more */

static const NavColor TEXT = { 235, 238, 245, 255 };
static const NavColor DIM = { 170, 176, 190, 255 };
static const NavColor GRID = { 50, 56, 70, 255 };
static const NavColor AXIS = { 120, 126, 140, 255 };

static const NavColor PALETTE[] = {
    { 88, 166, 255, 255 },  /* blue */
    { 255, 159, 64, 255 },  /* orange */
    { 102, 204, 102, 255 }, /* green */
    { 190, 140, 255, 255 }, /* violet */
    { 255, 99, 120, 255 },  /* red */
    { 64, 210, 200, 255 },  /* teal */
    { 240, 210, 80, 255 },  /* yellow */
    { 255, 140, 200, 255 }, /* pink */
};
#define PALETTE_N ((int)(sizeof PALETTE / sizeof PALETTE[0]))

NavColor plot_color(int i) { return PALETTE[((i % PALETTE_N) + PALETTE_N) % PALETTE_N]; }

static NavColor darker(NavColor c, float t)
{
    return nav_rgba((uint8_t)(c.r * t), (uint8_t)(c.g * t), (uint8_t)(c.b * t), c.a);
}

/* {======= numbers ======= */

/* A round step (1, 2 or 5 times a power of ten) giving about `ticks`
** ticks from 0 to max, and the axis's top: the first tick at or over max. */
static double nice_axis(double max, int ticks, double *step)
{
    if (!(max > 0.0) || !isfinite(max)) max = 1.0;
    double raw = max / (ticks + 1); /* up to ticks + 1 intervals: 108 gets 120, not 150 */
    double mag = pow(10.0, floor(log10(raw)));
    double norm = raw / mag;
    double s = (norm <= 1.0 ? 1.0 : norm <= 2.0 ? 2.0 : norm <= 5.0 ? 5.0 : 10.0) * mag;
    *step = s;
    double top = ceil(max / s - 1e-9) * s;
    return top > 0.0 ? top : s;
}

/* A tick's label: as many decimals as the step needs, thousands as k and
** millions as M when the step is a whole number of them. */
static void tick_text(double v, double step, char *out, size_t cap)
{
    double a = fabs(v);
    if (a >= 1e6 && fmod(step, 1e5) == 0.0) snprintf(out, cap, "%gM", v / 1e6);
    else if (a >= 1e4 && fmod(step, 1e3) == 0.0) snprintf(out, cap, "%gk", v / 1e3);
    else {
        int dec = step >= 1.0 ? 0 : (int)ceil(-log10(step) - 1e-9);
        snprintf(out, cap, "%.*f", dec > 6 ? 6 : dec, v);
    }
}

/* A bar's value, three figures at most. */
static void value_text(double v, char *out, size_t cap)
{
    double a = fabs(v);
    if (a >= 1e6) snprintf(out, cap, "%.1fM", v / 1e6);
    else if (a >= 1e4) snprintf(out, cap, "%.0fk", v / 1e3);
    else if (a >= 100.0) snprintf(out, cap, "%.0f", v);
    else if (a >= 10.0) snprintf(out, cap, "%.1f", v);
    else if (a >= 0.1) snprintf(out, cap, "%.2f", v);
    else if (a == 0.0) snprintf(out, cap, "0");
    else snprintf(out, cap, "%.2g", v);
}

/* }======= */

/* {======= layout ======= */

int plot_row(const PlotLayout *l, double v, bool right)
{
    double hi = right ? l->right_hi : l->hi;
    if (!(hi > 0.0)) return l->y1;
    double t = v / hi;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return l->y1 - (int)lround(t * (l->y1 - l->y0));
}

int plot_column(const PlotLayout *l, double x)
{
    double span = l->x_hi - l->x_lo;
    double t = span > 0.0 ? (x - l->x_lo) / span : 0.0;
    return l->x0 + (int)lround(t * (l->x1 - l->x0));
}

void plot_bar_columns(const PlotLayout *l, const PlotChart *c, int g, int s, int *x, int *w)
{
    int groups = c->count > 0 ? c->count : 1, n = c->series_count > 0 ? c->series_count : 1;
    double gw = (double)(l->x1 - l->x0) / groups;
    double bw = gw * 0.72 / n;
    if (bw > MAX_BAR_W) bw = MAX_BAR_W; /* a lone group's bars stay bars, not walls */
    double pad = 0.5 * (gw - n * bw);
    int gap = bw >= 8.0 ? 2 : bw >= 4.0 ? 1 : 0;
    int left = l->x0 + (int)lround(g * gw + pad + s * bw);
    int right = l->x0 + (int)lround(g * gw + pad + (s + 1) * bw) - gap;
    *x = left;
    *w = right > left ? right - left : 1;
}

/* The largest value of the series on one axis (stacked areas summed). */
static double axis_max(const PlotChart *c, bool right)
{
    double max = 0.0;
    for (int i = 0; i < c->count; i++) {
        double stack = 0.0;
        for (int s = 0; s < c->series_count; s++) {
            const PlotSeries *p = &c->series[s];
            if (c->kind == PLOT_LINES && p->right != right) continue;
            if (!p->values || !isfinite(p->values[i])) continue;
            double v = p->values[i];
            if (c->kind == PLOT_LINES && p->stacked) {
                stack += v > 0.0 ? v : 0.0;
                v = stack;
            }
            if (v > max) max = v;
        }
    }
    return max;
}

static bool has_right(const PlotChart *c)
{
    if (c->kind != PLOT_LINES) return false;
    for (int s = 0; s < c->series_count; s++)
        if (c->series[s].right) return true;
    return false;
}

/* The legend's items, laid out in rows from (x, y) within width; draws
** them when img is not NULL. Returns its height. */
static int legend(NavImage *img, const NavFont *font, const PlotChart *c, const PlotLayout *l, int x, int y, int width)
{
    int lh = font_line_height(font, 1);
    int row_h = lh + 6, cx = x, cy = y;
    for (int s = 0; s < c->series_count; s++) {
        const PlotSeries *p = &c->series[s];
        const char *name = p->name ? p->name : "";
        int w = LEGEND_CHIP + 5 + font_text_width(font, name, 1);
        if (cx > x && cx + w > x + width) {
            cx = x;
            cy += row_h;
        }
        if (img) {
            NavColor col = l->colors[s];
            int mid = cy + lh / 2;
            if (c->kind == PLOT_LINES && !p->stacked) image_draw_line(img, cx, mid, cx + LEGEND_CHIP, mid, 3.0f, col);
            else {
                image_fill_rect(img, cx, mid - LEGEND_CHIP / 2, LEGEND_CHIP, LEGEND_CHIP, col);
                if (p->baseline) image_fill_rect(img, cx + 3, mid - 2, LEGEND_CHIP - 6, 4, darker(col, 0.6f));
            }
            font_draw(img, font, cx + LEGEND_CHIP + 5, cy, name, TEXT, 1);
        }
        cx += w + LEGEND_GAP;
    }
    return c->series_count ? cy - y + lh : 0;
}

/* }======= */

/* {======= axes ======= */

static void left_axis(NavImage *img, const NavFont *font, const PlotChart *c, const PlotLayout *l, double step)
{
    char t[32];
    for (double v = 0.0; v <= l->hi + step * 1e-6; v += step) {
        int y = plot_row(l, v, false);
        if (v > 0.0) image_fill_rect(img, l->x0, y, l->x1 - l->x0, 1, GRID);
        image_fill_rect(img, l->x0 - TICK_LEN, y, TICK_LEN, 1, AXIS);
        tick_text(v, step, t, sizeof t);
        int tw = font_text_width(font, t, 1);
        font_draw(img, font, l->x0 - TICK_LEN - 3 - tw, y - font_line_height(font, 1) / 2, t, DIM, 1);
    }
    if (c->unit) font_draw(img, font, MARGIN, l->y0 - font_line_height(font, 1) - 8, c->unit, TEXT, 1);
    image_fill_rect(img, l->x0 - 1, l->y0, 1, l->y1 - l->y0 + 1, AXIS);
    image_fill_rect(img, l->x0 - 1, l->y1, l->x1 - l->x0 + 1, 1, AXIS);
}

static void right_axis(NavImage *img, const NavFont *font, const PlotChart *c, const PlotLayout *l, double step,
                       NavColor col)
{
    char t[32];
    for (double v = 0.0; v <= l->right_hi + step * 1e-6; v += step) {
        int y = plot_row(l, v, true);
        image_fill_rect(img, l->x1, y, TICK_LEN, 1, col);
        tick_text(v, step, t, sizeof t);
        font_draw(img, font, l->x1 + TICK_LEN + 3, y - font_line_height(font, 1) / 2, t, col, 1);
    }
    if (c->right_unit) {
        int tw = font_text_width(font, c->right_unit, 1);
        font_draw(img, font, img->width - MARGIN - tw, l->y0 - font_line_height(font, 1) - 8, c->right_unit, col, 1);
    }
    image_fill_rect(img, l->x1, l->y0, 1, l->y1 - l->y0 + 1, col);
}

/* }======= */

/* {======= bars ======= */

static void draw_bars(NavImage *img, const NavFont *font, const PlotChart *c, const PlotLayout *l)
{
    int lh = font_line_height(font, 1), gw_px = (l->x1 - l->x0) / (c->count > 0 ? c->count : 1);
    for (int g = 0; g < c->count; g++) {
        for (int s = 0; s < c->series_count; s++) {
            const PlotSeries *p = &c->series[s];
            int x, w;
            plot_bar_columns(l, c, g, s, &x, &w);
            double v = p->values ? p->values[g] : NAN;
            char t[32];
            if (!isfinite(v)) {
                snprintf(t, sizeof t, "n/a");
                int tw = font_text_width(font, t, 1);
                if (tw <= w + 6) font_draw(img, font, x + (w - tw) / 2, l->y1 - lh - 2, t, DIM, 1);
                continue;
            }
            int top = plot_row(l, v, false);
            NavColor col = l->colors[s];
            image_fill_rect(img, x, top, w, l->y1 - top, col);
            /* A darker top edge marks where the value ends, over any gridline. */
            if (l->y1 - top >= 2) image_fill_rect(img, x, top, w, 2, darker(col, 0.75f));
            value_text(v, t, sizeof t);
            int tw = font_text_width(font, t, 1);
            if (tw <= w + 6) font_draw(img, font, x + (w - tw) / 2, top - lh - 2, t, TEXT, 1);
        }
        /* The group's name, shortened to its width; every other one a row
        ** lower when names are long, so neighbours do not run together. */
        const char *name = c->groups && c->groups[g] ? c->groups[g] : "";
        char buf[96];
        snprintf(buf, sizeof buf, "%s", name);
        int room = gw_px - 4;
        bool stagger = false;
        for (int k = 0; k < c->count && c->groups; k++)
            if (c->groups[k] && font_text_width(font, c->groups[k], 1) > room) stagger = true;
        if (stagger) room = 2 * gw_px - 8;
        int gl = font_glyph_width(font, 1);
        if (gl > 0 && font_text_width(font, buf, 1) > room) {
            int keep = room / gl - 1;
            if (keep < 1) keep = 1;
            if (keep < (int)sizeof buf - 1) buf[keep] = '\0';
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "~");
        }
        int tw = font_text_width(font, buf, 1);
        int cx = l->x0 + (int)lround((g + 0.5) * (double)(l->x1 - l->x0) / c->count);
        int y = l->y1 + TICK_LEN + 4 + (stagger && (g % 2) ? lh + 3 : 0);
        image_fill_rect(img, cx, l->y1, 1, TICK_LEN, AXIS);
        font_draw(img, font, cx - tw / 2, y, buf, TEXT, 1);
    }
}

/* }======= */

/* {======= lines ======= */

/* The mean of series p over the points that fall in column px. */
static double column_mean(const PlotChart *c, const PlotLayout *l, const PlotSeries *p, int px)
{
    int cols = l->x1 - l->x0;
    if (cols <= 0 || c->count <= 0) return NAN;
    int i0 = (int)floor((double)(px - l->x0) / cols * c->count);
    int i1 = (int)floor((double)(px - l->x0 + 1) / cols * c->count);
    if (i1 <= i0) i1 = i0 + 1;
    if (i0 >= c->count) return NAN;
    if (i1 > c->count) i1 = c->count;
    double sum = 0.0;
    int n = 0;
    for (int i = i0; i < i1; i++)
        if (isfinite(p->values[i])) sum += p->values[i], n++;
    return n ? sum / n : NAN;
}

static void draw_lines(NavImage *img, const PlotChart *c, const PlotLayout *l)
{
    /* Stacked areas first, column by column, each on the ones before. */
    for (int px = l->x0; px < l->x1; px++) {
        double base = 0.0;
        for (int s = 0; s < c->series_count; s++) {
            const PlotSeries *p = &c->series[s];
            if (!p->stacked || p->right || !p->values) continue;
            double v = column_mean(c, l, p, px);
            if (!(v > 0.0)) continue;
            int y0 = plot_row(l, base + v, false), y1 = plot_row(l, base, false);
            image_fill_rect(img, px, y0, 1, y1 - y0, l->colors[s]);
            base += v;
        }
    }
    for (int s = 0; s < c->series_count; s++) {
        const PlotSeries *p = &c->series[s];
        if (p->stacked && !p->right) continue;
        if (!p->values) continue;
        int last_x = -1, last_y = 0;
        for (int px = l->x0; px < l->x1; px++) {
            double v = column_mean(c, l, p, px);
            if (!isfinite(v)) {
                last_x = -1;
                continue;
            }
            int y = plot_row(l, v, p->right);
            if (last_x >= 0)
                image_draw_line(img, last_x + 0.5f, last_y + 0.5f, px + 0.5f, y + 0.5f, 2.5f, l->colors[s]);
            else image_fill_circle(img, px + 0.5f, y + 0.5f, 1.25f, l->colors[s]);
            last_x = px, last_y = y;
        }
    }
}

static void x_axis(NavImage *img, const NavFont *font, const PlotChart *c, const PlotLayout *l)
{
    double span = l->x_hi - l->x_lo, step;
    nice_axis(span, TARGET_X_TICKS, &step);
    char t[32];
    int lh = font_line_height(font, 1);
    int last_right = -1000;
    for (double v = ceil(l->x_lo / step) * step; v <= l->x_hi + step * 1e-6; v += step) {
        int x = plot_column(l, v);
        image_fill_rect(img, x, l->y1, 1, TICK_LEN, AXIS);
        if (v > l->x_lo) image_fill_rect(img, x, l->y0, 1, l->y1 - l->y0, GRID);
        tick_text(v, step, t, sizeof t);
        int tw = font_text_width(font, t, 1);
        if (x - tw / 2 <= last_right + 6) continue;
        font_draw(img, font, x - tw / 2, l->y1 + TICK_LEN + 4, t, DIM, 1);
        last_right = x + tw / 2;
    }
    if (c->x_unit) {
        int tw = font_text_width(font, c->x_unit, 1);
        font_draw(img, font, l->x1 - tw, l->y1 + TICK_LEN + 6 + lh, c->x_unit, TEXT, 1);
    }
}

/* }======= */

void plot_draw(NavImage *img, const NavFont *font, const PlotChart *c, PlotLayout *out)
{
    PlotLayout l;
    memset(&l, 0, sizeof l);
    for (int s = 0, next = 0; s < c->series_count && s < PLOT_MAX_SERIES; s++) {
        const PlotSeries *p = &c->series[s];
        if (p->color.a) l.colors[s] = p->color;
        else if (p->baseline) l.colors[s] = PLOT_BASELINE_COLOR;
        else l.colors[s] = plot_color(next++);
    }
    image_fill(img, PLOT_BACKGROUND);
    int lh = font_line_height(font, 1);
    int y = MARGIN - 4;
    if (c->title) {
        font_draw(img, font, MARGIN, y, c->title, TEXT, 2);
        y += font_line_height(font, 2) + 4;
    }
    if (c->subtitle) {
        font_draw(img, font, MARGIN, y, c->subtitle, DIM, 1);
        y += font_text_height(font, c->subtitle, 1) + 4;
    }
    l.legend_x = MARGIN;
    l.legend_y = y + 4;
    l.legend_w = img->width - 2 * MARGIN;
    l.legend_h = legend(NULL, font, c, &l, l.legend_x, l.legend_y, l.legend_w);
    y = l.legend_y + l.legend_h + 14 + lh;

    bool right = has_right(c);
    double step = 1.0, right_step = 1.0;
    /* Bars keep room over the tallest for its value's label. */
    l.hi = nice_axis(axis_max(c, false) * (c->kind == PLOT_BARS ? 1.08 : 1.0), TARGET_TICKS, &step);
    /* A share in percent ends at 100 when nothing passes it (the room
    ** for the bars' labels would otherwise run the axis to 120). */
    if (c->unit && c->unit[0] == '%' && axis_max(c, false) <= 100.0) l.hi = nice_axis(100.0, TARGET_TICKS, &step);
    if (right) l.right_hi = nice_axis(axis_max(c, true), TARGET_TICKS, &right_step);
    /* Room for the widest tick label on each side. */
    char t[32];
    tick_text(l.hi, step, t, sizeof t);
    int left_w = font_text_width(font, t, 1) + 8;
    int right_w = 0;
    if (right) {
        tick_text(l.right_hi, right_step, t, sizeof t);
        right_w = font_text_width(font, t, 1) + TICK_LEN + 8;
    }
    bool stagger = false;
    if (c->kind == PLOT_BARS && c->groups && c->count > 0) {
        int gw = (img->width - 2 * MARGIN - left_w - 8) / c->count - 4;
        for (int g = 0; g < c->count; g++)
            if (c->groups[g] && font_text_width(font, c->groups[g], 1) > gw) stagger = true;
    }
    int below = TICK_LEN + 8 + lh + (stagger || c->kind == PLOT_LINES ? lh + 4 : 0) + MARGIN;
    l.x0 = MARGIN + left_w + TICK_LEN;
    l.x1 = img->width - MARGIN - right_w;
    l.y0 = y;
    l.y1 = img->height - below;
    if (l.x1 <= l.x0 + 10 || l.y1 <= l.y0 + 10) {
        if (out) *out = l;
        return; /* too small a picture to draw a chart in */
    }
    l.x_lo = c->x0;
    l.x_hi = c->x0 + c->dx * (c->count > 1 ? c->count - 1 : 1);
    if (!(l.x_hi > l.x_lo)) l.x_hi = l.x_lo + 1.0;

    image_fill_rect(img, l.x0, l.y0, l.x1 - l.x0, l.y1 - l.y0, PLOT_AREA_BG);
    legend(img, font, c, &l, l.legend_x, l.legend_y, l.legend_w);
    left_axis(img, font, c, &l, step);
    if (c->count <= 0) {
        const char *none = "no data";
        int tw = font_text_width(font, none, 2);
        font_draw(img, font, (l.x0 + l.x1 - tw) / 2, (l.y0 + l.y1) / 2 - lh, none, DIM, 2);
    } else if (c->kind == PLOT_BARS) {
        draw_bars(img, font, c, &l);
    } else {
        x_axis(img, font, c, &l);
        draw_lines(img, c, &l);
    }
    if (right) {
        NavColor col = TEXT;
        for (int s = 0; s < c->series_count; s++)
            if (c->series[s].right) {
                col = l.colors[s];
                break;
            }
        right_axis(img, font, c, &l, right_step, col);
    }
    /* The axis line over what the bars and areas drew at the bottom. */
    image_fill_rect(img, l.x0 - 1, l.y1, l.x1 - l.x0 + 1, 1, AXIS);
    if (out) *out = l;
}

NavStatus plot_write_png(const PlotChart *c, int width, int height, const char *path, NavError *err)
{
    NavFont *font = font_load_default(err);
    if (!font) return err ? err->status : NAV_FAILURE | NAV_E_IO;
    NavImage *img = image_create(width, height, err);
    if (!img) {
        font_destroy(font);
        return NAV_FAILURE | NAV_E_NOMEM;
    }
    plot_draw(img, font, c, NULL);
    NavStatus st = image_write_png(img, path, err);
    image_destroy(img);
    font_destroy(font);
    return st;
}

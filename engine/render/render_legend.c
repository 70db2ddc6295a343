/*
** render_legend.c — the legend band, the scale bar and the north arrow
** (render_legend.h).
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BAND_PAD 6 /* left and right */
#define BAND_VPAD 4
#define ROW_GAP 2
#define LINE_W 16 /* a LEGEND_LINE's stroke */
#define RAMP_W 96

static const NavColor TEXT = { 235, 238, 245, 255 };
static const NavColor DIM = { 170, 176, 190, 255 };
#define BAND_BG nav_rgba(12, 14, 20, 190)

/* {======= the legend ======= */

void legend_clear(Legend *l) { l->count = 0; }

static LegendItem *push(Legend *l, LegendStyle style, NavColor c, const char *name)
{
    if (l->count >= LEGEND_MAX_ITEMS) return NULL;
    LegendItem *it = &l->items[l->count++];
    memset(it, 0, sizeof *it);
    it->style = (uint8_t)style;
    it->c = c;
    snprintf(it->name, sizeof it->name, "%s", name ? name : "");
    return it;
}

void legend_add(Legend *l, LegendStyle style, NavColor c, const char *name) { push(l, style, c, name); }

void legend_ramp(Legend *l, LegendRamp ramp, const char *name, float lo, float hi, const char *unit)
{
    /* The unit goes after each end's value; the name is a title before. */
    if (name && *name) push(l, LEGEND_TITLE, DIM, name);
    LegendItem *it = push(l, LEGEND_RAMP, TEXT, unit);
    if (!it) return;
    it->ramp = (uint8_t)ramp;
    it->lo = lo, it->hi = hi;
}

void legend_travel(Legend *l, const char *title, uint32_t bits)
{
    if (!bits) return;
    push(l, LEGEND_TITLE, DIM, title);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++)
        if (bits & NAV_TFL_TYPE(t))
            push(l, LEGEND_LINE, render_travel_color((NavTravelType)t), area_travel_name((NavTravelType)t));
}

/* A ramp's end: "0 s", "34 s", "2.5 m". */
static void ramp_value(char *out, size_t cap, float v, const char *unit)
{
    char num[16];
    snprintf(num, sizeof num, fabsf(v) >= 10.0f ? "%.0f" : "%.1f", (double)v);
    size_t n = strlen(num);
    if (n > 2 && strcmp(num + n - 2, ".0") == 0) num[n - 2] = '\0'; /* 4.0 -> 4 */
    snprintf(out, cap, "%s %s", strcmp(num, "-0") == 0 ? "0" : num, unit);
}

static NavColor ramp_color(const LegendItem *it, float t)
{
    if (it->ramp == LEGEND_RAMP_HEAT) return render_heat_color(t, 255);
    return render_mix(RENDER_GROUND_LO, RENDER_GROUND_HI, t);
}

static int item_width(const LegendItem *it, const NavFont *f)
{
    int lh = font_line_height(f, 1), tw = font_text_width(f, it->name, 1);
    switch ((LegendStyle)it->style) {
    case LEGEND_CHIP:
    case LEGEND_RING: return lh + tw;
    case LEGEND_LINE: return LINE_W + 4 + tw;
    case LEGEND_RAMP: {
        char lo[24], hi[24];
        ramp_value(lo, sizeof lo, it->lo, it->name);
        ramp_value(hi, sizeof hi, it->hi, it->name);
        return font_text_width(f, lo, 1) + 4 + RAMP_W + 4 + font_text_width(f, hi, 1);
    }
    default: return tw;
    }
}

static void draw_item(NavImage *img, const NavFont *f, const LegendItem *it, int x, int y)
{
    int lh = font_line_height(f, 1);
    NavColor outline = nav_rgba(0, 0, 0, 220);
    switch ((LegendStyle)it->style) {
    case LEGEND_TITLE:
    case LEGEND_TEXT: font_draw_outlined(img, f, x, y, it->name, DIM, outline, 1); break;
    case LEGEND_CHIP:
        /* A light edge, so dark colours (void, solid) show on the band. */
        image_fill_rect(img, x, y + 1, lh - 2, lh - 2, nav_rgba(120, 124, 134, 255));
        image_fill_rect(img, x + 1, y + 2, lh - 4, lh - 4, it->c);
        font_draw_outlined(img, f, x + lh, y, it->name, TEXT, outline, 1);
        break;
    case LEGEND_RING: {
        float cx = (float)x + 0.5f * (float)(lh - 2), cy = (float)y + 0.5f * (float)lh;
        image_fill_circle(img, cx, cy, 0.5f * (float)lh - 0.5f, nav_rgba(255, 255, 255, 255));
        image_fill_circle(img, cx, cy, 0.5f * (float)lh - 2.0f, it->c);
        font_draw_outlined(img, f, x + lh, y, it->name, TEXT, outline, 1);
        break;
    }
    case LEGEND_LINE:
        image_fill_rect(img, x, y + lh / 2 - 3, LINE_W, 5, nav_rgba(120, 124, 134, 255));
        image_fill_rect(img, x + 1, y + lh / 2 - 2, LINE_W - 2, 3, it->c);
        font_draw_outlined(img, f, x + LINE_W + 4, y, it->name, TEXT, outline, 1);
        break;
    case LEGEND_RAMP: {
        char lo[24], hi[24];
        ramp_value(lo, sizeof lo, it->lo, it->name);
        ramp_value(hi, sizeof hi, it->hi, it->name);
        int k = x + font_draw_outlined(img, f, x, y, lo, TEXT, outline, 1) + 4;
        for (int i = 0; i < RAMP_W; i++)
            image_fill_rect(img, k + i, y + 1, 1, lh - 2, ramp_color(it, (float)i / (float)(RAMP_W - 1)));
        font_draw_outlined(img, f, k + RAMP_W + 4, y, hi, TEXT, outline, 1);
        break;
    }
    }
}

/* Flows the items left to right from (x0, y) wrapping at x1, a title kept
** with the item after it; draws when img is given. Returns the rows. */
static int flow(const Legend *l, const NavFont *f, NavImage *img, int x0, int x1, int y)
{
    if (l->count == 0) return 0;
    int lh = font_line_height(f, 1), x = x0, rows = 1;
    for (int i = 0; i < l->count; i++) {
        const LegendItem *it = &l->items[i];
        int w = item_width(it, f), need = w;
        bool title = it->style == LEGEND_TITLE;
        if (title && i + 1 < l->count) need += 4 + item_width(&l->items[i + 1], f);
        if (x > x0 && x + need > x1) {
            x = x0;
            y += lh + ROW_GAP;
            rows++;
        }
        if (img) draw_item(img, f, it, x, y);
        x += w + (title ? 4 : 10);
    }
    return rows;
}

/* }======= */

/* {======= scale bar and north arrow ======= */

float render_scale_metres(float px_per_m, float max_px)
{
    static const float STEPS[] = { 1.0f, 2.0f, 5.0f };
    float best = 0.01f;
    for (int e = -2; e <= 6; e++)
        for (int k = 0; k < 3; k++) {
            float m = STEPS[k] * powf(10.0f, (float)e);
            if (m * px_per_m <= max_px) best = m;
        }
    return best;
}

void render_scale_bar_layout(const NavFont *font, float px_per_m, int right, int bottom, RenderScaleBar *s)
{
    memset(s, 0, sizeof *s);
    s->metres = render_scale_metres(px_per_m, RENDER_SCALE_MAX_PX);
    if (s->metres >= 1000.0f) snprintf(s->text, sizeof s->text, "%g km", (double)(s->metres / 1000.0f));
    else snprintf(s->text, sizeof s->text, "%g m", (double)s->metres);
    int lh = font ? font_line_height(font, 1) : 10;
    int tw = font ? font_text_width(font, s->text, 1) : 0;
    s->bar_len = NAV_MAX((int)lroundf(s->metres * px_per_m), 2);
    s->bar_h = 4;
    int span = NAV_MAX(s->bar_len, tw);
    s->h = 3 + lh + 1 + 16 + 4;
    s->w = 5 + span + 12 + 10;
    s->x = right - s->w;
    s->y = bottom - s->h;
    s->bar_x = s->x + 5 + (span - s->bar_len) / 2;
    s->bar_y = s->y + s->h - 5 - s->bar_h;
    s->arrow_x = s->x + 5 + span + 12;
    s->arrow_top = s->y + 3 + lh + 1;
    s->arrow_bottom = s->y + s->h - 4;
}

void render_scale_bar_draw(NavImage *img, const NavFont *font, const RenderScaleBar *s)
{
    NavColor white = RENDER_SCALE_WHITE, dark = nav_rgba(0, 0, 0, 255);
    image_fill_rect(img, s->x, s->y, s->w, s->h, nav_rgba(12, 14, 20, 200));
    /* The bar: white on a dark edge, ticks up at its ends. */
    image_fill_rect(img, s->bar_x - 1, s->bar_y - 4, s->bar_len + 2, s->bar_h + 5, dark);
    image_fill_rect(img, s->bar_x, s->bar_y, s->bar_len, s->bar_h, white);
    image_fill_rect(img, s->bar_x, s->bar_y - 3, 1, 3, white);
    image_fill_rect(img, s->bar_x + s->bar_len - 1, s->bar_y - 3, 1, 3, white);
    if (font) {
        int tw = font_text_width(font, s->text, 1);
        font_draw_outlined(img, font, s->bar_x + (s->bar_len - tw) / 2, s->y + 3, s->text, white,
                           nav_rgba(0, 0, 0, 220), 1);
        font_draw_outlined(img, font, s->arrow_x - 2, s->y + 3, "N", white, nav_rgba(0, 0, 0, 220), 1);
    }
    /* The north arrow: a shaft with a head, pointing up the picture. */
    image_fill_rect(img, s->arrow_x, s->arrow_top + 3, 2, s->arrow_bottom - s->arrow_top - 3, white);
    for (int k = 0; k < 4; k++) image_fill_rect(img, s->arrow_x - k, s->arrow_top + k, 2 + 2 * k, 1, white);
}

/* }======= */

/* {======= the band ======= */

typedef struct BandLayout {
    int flow_x1; /* the legend's right edge */
    int flow_y;  /* its first row, from the band's top */
    int h;       /* the band's height */
    bool on_top; /* the scale bar above the legend (a narrow picture) */
    int scale_w, scale_h;
} BandLayout;

static void band_layout(const Legend *l, const NavFont *f, int width, BandLayout *b)
{
    RenderScaleBar s;
    render_scale_bar_layout(f, 1.0f, 0, 0, &s);
    /* The widest bar there is: the layout must not move as zoom changes. */
    b->scale_w = s.w - s.bar_len + (int)RENDER_SCALE_MAX_PX;
    b->scale_h = s.h;
    int lh = font_line_height(f, 1);
    int room = width - 2 * BAND_PAD - b->scale_w - BAND_PAD;
    b->on_top = l->count > 0 && room < NAV_MAX(140, width / 3);
    b->flow_x1 = b->on_top ? width - BAND_PAD : BAND_PAD + room;
    int rows = flow(l, f, NULL, BAND_PAD, b->flow_x1, 0);
    int text_h = rows ? rows * (lh + ROW_GAP) - ROW_GAP : 0;
    if (b->on_top) {
        b->flow_y = BAND_VPAD + b->scale_h + ROW_GAP;
        b->h = b->flow_y + text_h + BAND_VPAD;
    } else {
        b->h = NAV_MAX(text_h, b->scale_h) + 2 * BAND_VPAD;
        b->flow_y = b->h - BAND_VPAD - text_h; /* the rows sit on the bottom, as the bar does */
    }
}

int legend_band_height(const Legend *l, const NavFont *font, int width)
{
    BandLayout b;
    band_layout(l, font, width, &b);
    return b.h;
}

void legend_band_draw(const Legend *l, NavImage *img, const NavFont *font, int y, float px_per_m, RenderScaleBar *scale)
{
    BandLayout b;
    band_layout(l, font, img->width, &b);
    image_fill_rect(img, 0, y, img->width, img->height - y, BAND_BG);
    flow(l, font, img, BAND_PAD, b.flow_x1, y + b.flow_y);
    RenderScaleBar s;
    int bottom = b.on_top ? y + BAND_VPAD + b.scale_h : img->height - BAND_VPAD;
    render_scale_bar_layout(font, px_per_m, img->width - BAND_PAD, bottom, &s);
    render_scale_bar_draw(img, font, &s);
    if (scale) *scale = s;
}

/* }======= */

/*
** render_graph.c — pictures of an area graph and of one route over it
** (render_graph.h): a part of the map at a scale, and the legend band
** under it.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define GRAPH_BG nav_rgba(18, 20, 26, 255)
#define GROUND_FLOOR nav_rgba(150, 150, 156, 255)
#define GROUND_NONE nav_rgba(44, 48, 58, 255)
#define PORTAL_FILL nav_rgba(250, 185, 40, 255)
#define START_COLOR nav_rgba(30, 180, 60, 255)
#define GOAL_COLOR nav_rgba(40, 80, 230, 255)
#define FADE (170.0f / 255.0f) /* what shows under the storey drawn */

/* {======= the canvas: metres to pixels ======= */

typedef struct Canvas {
    NavImage *img;
    const NavWorld *w;
    float x0, y1; /* metres at the left edge and the top */
    float ppm;    /* pixels per metre */
    float cs;     /* metres per cell */
    int map_h;    /* rows of the map; the legend band below */
    float lo, hi; /* the heights of the storey drawn */
    int level;
    /* What was drawn, for the legend. */
    uint32_t travel;
    bool liquid, lava, slime, portal, no_area, no_floor, marks, faded;
    NavFont *font; /* NULL: a picture without words, but right */
    LabelSet labels;
} Canvas;

static void to_px(const Canvas *c, float x, float y, float *px, float *py)
{
    *px = (x - c->x0) * c->ppm;
    *py = (c->y1 - y) * c->ppm;
}

/* The first pixel column whose middle is at or right of x. */
static int col_px(const Canvas *c, float x) { return (int)ceilf((x - c->x0) * c->ppm - 0.5f); }
static int row_px(const Canvas *c, float y) { return (int)ceilf((c->y1 - y) * c->ppm - 0.5f); }

/* The pixels whose middles are in [x0, x1) x [y0, y1) metres, clipped
** to the map's rows; false when there are none. */
static bool rect_px(const Canvas *c, float x0, float y0, float x1, float y1, int r[4])
{
    r[0] = NAV_MAX(col_px(c, x0), 0), r[2] = NAV_MIN(col_px(c, x1), c->img->width);
    r[1] = NAV_MAX(row_px(c, y1), 0), r[3] = NAV_MIN(row_px(c, y0), c->map_h);
    return r[2] > r[0] && r[3] > r[1];
}

static void fill_cells(const Canvas *c, int cx0, int cy0, int cx1, int cy1, NavColor col)
{
    int r[4];
    if (rect_px(c, (float)cx0 * c->cs, (float)cy0 * c->cs, (float)(cx1 + 1) * c->cs, (float)(cy1 + 1) * c->cs, r))
        image_fill_rect(c->img, r[0], r[1], r[2] - r[0], r[3] - r[1], col);
}

/* The cells the picture covers, clipped to the map. */
static void cell_span(const Canvas *c, int *cx0, int *cy0, int *cx1, int *cy1)
{
    float x1 = c->x0 + (float)c->img->width / c->ppm, y0 = c->y1 - (float)c->map_h / c->ppm;
    *cx0 = NAV_MAX((int)floorf(c->x0 / c->cs), 0);
    *cx1 = NAV_MIN((int)floorf(x1 / c->cs), world_width(c->w) - 1);
    *cy0 = NAV_MAX((int)floorf(y0 / c->cs), 0);
    *cy1 = NAV_MIN((int)floorf(c->y1 / c->cs), world_height(c->w) - 1);
}

static float cell_px(const Canvas *c) { return c->ppm * c->cs; }

/* }======= */

/* {======= the area picture ======= */

typedef struct Order {
    float z;
    uint32_t area;
} Order;

static int by_height(const void *pa, const void *pb)
{
    const Order *a = pa, *b = pb;
    if (a->z != b->z) return a->z < b->z ? -1 : 1;
    return (a->area > b->area) - (a->area < b->area);
}

static void draw_ground(Canvas *c)
{
    int cx0, cy0, cx1, cy1;
    cell_span(c, &cx0, &cy0, &cx1, &cy1);
    for (int y = cy0; y <= cy1; y++)
        for (int x = cx0; x <= cx1; x++) {
            int n;
            const NavFloor *f = world_column(c->w, x, y, &n);
            bool floor = false;
            for (int i = 0; i < n; i++) floor |= f[i].contents != NAV_CONTENTS_VOID;
            fill_cells(c, x, y, x, y, floor ? GROUND_FLOOR : GROUND_NONE);
        }
}

static NavColor area_fill(const NavArea *ar)
{
    NavColor fill = (ar->flags & NAV_AREA_PORTAL) ? PORTAL_FILL : render_cluster_tint(ar->cluster);
    if (ar->flags & NAV_AREA_LAVA) return render_mix(fill, nav_rgba(220, 60, 20, 255), 0.6f);
    if (ar->flags & NAV_AREA_SLIME) return render_mix(fill, nav_rgba(60, 200, 40, 255), 0.6f);
    if (ar->flags & NAV_AREA_LIQUID) return render_mix(fill, nav_rgba(50, 110, 230, 255), 0.45f);
    return fill;
}

static void draw_area(Canvas *c, const NavArea *ar)
{
    NavColor fill = area_fill(ar);
    int r[4];
    if (!rect_px(c, (float)ar->x0 * c->cs, (float)ar->y0 * c->cs, (float)(ar->x1 + 1) * c->cs,
                 (float)(ar->y1 + 1) * c->cs, r))
        return;
    c->lava |= (ar->flags & NAV_AREA_LAVA) != 0;
    c->slime |= (ar->flags & NAV_AREA_SLIME) != 0;
    c->liquid |= (ar->flags & NAV_AREA_LIQUID) && !(ar->flags & (NAV_AREA_LAVA | NAV_AREA_SLIME));
    c->portal |= (ar->flags & NAV_AREA_PORTAL) != 0;
    int x0 = r[0], y0 = r[1], aw = r[2] - r[0], ah = r[3] - r[1];
    image_fill_rect(c->img, x0, y0, aw, ah, fill);
    if (cell_px(c) < 3.0f) return;
    /* The edge where the area's own edge is (not where the picture cuts it). */
    NavColor edge = render_mix(fill, nav_rgba(0, 0, 0, 255), 0.35f);
    int left = col_px(c, (float)ar->x0 * c->cs), right = col_px(c, (float)(ar->x1 + 1) * c->cs);
    int top = row_px(c, (float)(ar->y1 + 1) * c->cs), bottom = row_px(c, (float)ar->y0 * c->cs);
    if (top == y0) image_fill_rect(c->img, x0, y0, aw, 1, edge);
    if (bottom == y0 + ah) image_fill_rect(c->img, x0, y0 + ah - 1, aw, 1, edge);
    if (left == x0) image_fill_rect(c->img, x0, y0, 1, ah, edge);
    if (right == x0 + aw) image_fill_rect(c->img, x0 + aw - 1, y0, 1, ah, edge);
}

static bool in_picture(const Canvas *c, float x0, float y0, float x1, float y1)
{
    return fmaxf(x0, x1) >= 0.0f && fminf(x0, x1) <= (float)c->img->width && fmaxf(y0, y1) >= 0.0f &&
           fminf(y0, y1) <= (float)c->map_h;
}

/* Walking links first and thin, then the rest on top with a dot where
** they land. */
static void draw_links(Canvas *c, const NavAreaGraph *ag)
{
    float cp = cell_px(c);
    float thin = cp >= 4.0f ? 1.5f : 1.0f, thick = fmaxf(2.0f, fminf(0.35f * cp, 4.0f));
    float dot = fmaxf(2.0f, fminf(0.45f * cp, 5.0f));
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < area_reach_count(ag); i++) {
            const NavReach *r = area_reach(ag, i);
            bool walk = r->type == NAV_TRAVEL_WALK;
            if (walk != (pass == 0)) continue;
            bool here = (r->start[2] >= c->lo && r->start[2] < c->hi) || (r->end[2] >= c->lo && r->end[2] < c->hi);
            if (!here) continue;
            float x0, y0, x1, y1;
            to_px(c, r->start[0], r->start[1], &x0, &y0);
            to_px(c, r->end[0], r->end[1], &x1, &y1);
            if (!in_picture(c, x0, y0, x1, y1)) continue;
            NavColor col = render_travel_color((NavTravelType)r->type);
            image_draw_line(c->img, x0, y0, x1, y1, walk ? thin : thick, col);
            if (!walk) image_fill_circle(c->img, x1, y1, dot, col);
            c->travel |= NAV_TFL_TYPE(r->type);
        }
}

/* The heights a storey spans: [lo, hi); every height for level -1 (or a
** map without storeys). */
static void storey_span(const NavWorld *w, int level, float *lo, float *hi)
{
    float z[RENDER_MAX_LEVELS];
    int layer[RENDER_MAX_LEVELS];
    int n = render_world_levels(w, z, layer);
    *lo = -INFINITY, *hi = INFINITY;
    if (level < 0 || level >= n) return;
    *lo = z[level] - 0.5f;
    if (level + 1 < n) *hi = z[level + 1] - 0.5f;
}

/* Links that change storey: a ring at each end on the storey shown, the
** other end's storey number beside it (a label placed off the others), so
** a way up or down is seen from both floors it joins. One mark per way,
** as the simulation's pictures have it: a ladder three cells wide, a
** lift's several links, a stair's top step are one spot. */
static void mark_storey_links(Canvas *c, const NavAreaGraph *ag)
{
    float z[RENDER_MAX_LEVELS];
    int layer[RENDER_MAX_LEVELS];
    int n = render_world_levels(c->w, z, layer);
    float spot[64][6]; /* picture x, y; world x, y; other storey; travel type */
    int marks = 0;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        int a = render_levels_at(z, n, r->start[2]), b = render_levels_at(z, n, r->end[2]);
        if (a == b || (a != c->level && b != c->level)) continue;
        const float *p = a == c->level ? r->start : r->end;
        int other = a == c->level ? b : a;
        float x, y;
        to_px(c, p[0], p[1], &x, &y);
        if (!in_picture(c, x, y, x, y)) continue;
        bool near = false;
        for (int k = 0; k < marks && !near; k++)
            near = (fabsf(spot[k][0] - x) < 12.0f && fabsf(spot[k][1] - y) < 12.0f) ||
                   (spot[k][4] == (float)other && spot[k][5] == (float)r->type && fabsf(spot[k][2] - p[0]) < 2.0f &&
                    fabsf(spot[k][3] - p[1]) < 2.0f);
        if (near) continue;
        if (marks < (int)NAV_ARRAY_COUNT(spot)) {
            float *m = spot[marks++];
            m[0] = x, m[1] = y, m[2] = p[0], m[3] = p[1], m[4] = (float)other, m[5] = (float)r->type;
        }
        NavColor col = render_travel_color((NavTravelType)r->type);
        image_fill_circle(c->img, x, y, 6.0f, nav_rgba(255, 255, 255, 255));
        image_fill_circle(c->img, x, y, 4.0f, col);
        c->travel |= NAV_TFL_TYPE(r->type);
        c->marks = true;
        char text[24], brief[12];
        snprintf(text, sizeof text, "%s %d", p == r->start ? "to" : "from", other + 1);
        snprintf(brief, sizeof brief, "%d", other + 1);
        labels_add(&c->labels, RENDER_LABEL_STOREY, x, y, 6.0f, 6, -7, text, brief, nav_rgba(255, 255, 255, 255));
    }
}

/* "storey N of M: NAME" on an opaque box at the top middle, as the
** simulation's pictures have it; no label goes under it. */
static void graph_storey_label(Canvas *c, bool draw)
{
    float z[RENDER_MAX_LEVELS];
    int layer[RENDER_MAX_LEVELS];
    int n = render_world_levels(c->w, z, layer);
    if (!c->font || c->level < 0 || c->level >= n) return;
    char text[96];
    snprintf(text, sizeof text, "storey %d of %d: %s", c->level + 1, n, world_layer(c->w, layer[c->level])->name);
    int bw = font_text_width(c->font, text, 2) + 12, bh = font_line_height(c->font, 2) + 8;
    int x = (c->img->width - bw) / 2;
    if (!draw) {
        labels_block(&c->labels, x, 6, bw, bh);
        return;
    }
    image_fill_rect(c->img, x, 6, bw, bh, RENDER_LABEL_BOX);
    font_draw(c->img, c->font, x + 6, 10, text, RENDER_LABEL_TEXT, 2);
}

/* The part drawn and its scale, and the canvas for it (the band's rows
** added under the map later). */
static bool graph_geometry(const NavWorld *w, const RenderGraphView *gv, RenderGraphPicture *pic, int *width,
                           int *height, NavError *err)
{
    int W = world_width(w), H = world_height(w);
    float cs = world_cell_size(w);
    int target = gv->target > 0 ? gv->target : 1024;
    memset(pic, 0, sizeof *pic);
    if (gv->box_set) memcpy(pic->box, gv->box, sizeof pic->box);
    else pic->box[0] = 0, pic->box[1] = 0, pic->box[2] = (float)W * cs, pic->box[3] = (float)H * cs;
    float bw = pic->box[2] - pic->box[0], bh = pic->box[3] - pic->box[1];
    if (!(bw > 0.0f && bh > 0.0f)) {
        nav_error_set(err, NAV_E_PARAM, world_source(w), 0, 0, NULL, "the part of the map to draw is empty");
        return false;
    }
    if (gv->px_per_m > 0.0f) pic->px_per_m = gv->px_per_m;
    else if (!gv->box_set) pic->px_per_m = (float)NAV_MAX(1, target / NAV_MAX(W, H)) / cs;
    else pic->px_per_m = (float)target / fmaxf(bw, bh);
    double pw = (double)bw * pic->px_per_m, ph = (double)bh * pic->px_per_m;
    if (pw > NAV_IMAGE_MAX_SIDE / 2 || ph > NAV_IMAGE_MAX_SIDE / 2) {
        nav_error_set(err, NAV_E_PARAM, world_source(w), 0, 0, NULL,
                      "a picture of %.0f x %.0f px is too large to draw (at most %d a side)", pw, ph,
                      NAV_IMAGE_MAX_SIDE / 2);
        return false;
    }
    *width = NAV_MAX((int)lround(pw), 1);
    *height = NAV_MAX((int)lround(ph), 1);
    float cp = pic->px_per_m * cs;
    pic->cell_px = fabsf(cp - roundf(cp)) < 1e-4f && cp >= 1.0f ? (int)roundf(cp) : 0;
    pic->map_height = *height;
    return true;
}

/* The legend of an area picture (and the route's, added by the caller
** before the band is drawn). */
static void area_legend(const Canvas *c, Legend *l)
{
    legend_travel(l, "links:", c->travel);
    legend_add(l, LEGEND_TITLE, nav_rgba(170, 176, 190, 255), "areas:");
    legend_add(l, LEGEND_CHIP, render_cluster_tint(3), "tint: cluster");
    if (c->portal) legend_add(l, LEGEND_CHIP, PORTAL_FILL, "portal");
    if (c->liquid)
        legend_add(l, LEGEND_CHIP, render_mix(render_cluster_tint(3), nav_rgba(50, 110, 230, 255), 0.45f), "water");
    if (c->lava)
        legend_add(l, LEGEND_CHIP, render_mix(render_cluster_tint(3), nav_rgba(220, 60, 20, 255), 0.6f), "lava");
    if (c->slime)
        legend_add(l, LEGEND_CHIP, render_mix(render_cluster_tint(3), nav_rgba(60, 200, 40, 255), 0.6f), "slime");
    /* The ground is seen through the fade laid over it before the areas. */
    legend_add(l, LEGEND_CHIP, render_mix(GROUND_FLOOR, GRAPH_BG, FADE), "floor, no area");
    legend_add(l, LEGEND_CHIP, render_mix(GROUND_NONE, GRAPH_BG, FADE), "no floor");
    if (c->faded) legend_add(l, LEGEND_CHIP, render_mix(render_cluster_tint(3), GRAPH_BG, FADE), "storey below");
    if (c->marks) legend_add(l, LEGEND_RING, nav_rgba(150, 150, 160, 255), "way to storey N");
}

/* The area picture into a canvas of its own; c->img NULL on failure. */
static void draw_graph(Canvas *c, const NavAreaGraph *ag, const RenderGraphView *gv, RenderGraphPicture *pic,
                       NavError *err)
{
    const NavWorld *w = area_world(ag);
    memset(c, 0, sizeof *c);
    int width, height;
    if (!graph_geometry(w, gv, pic, &width, &height, err)) return;
    c->w = w;
    c->cs = world_cell_size(w);
    c->ppm = pic->px_per_m;
    c->x0 = pic->box[0], c->y1 = pic->box[3];
    c->map_h = height;
    c->level = gv->level;
    NavError fe;
    nav_error_clear(&fe);
    c->font = font_load_default(&fe); /* without it the picture has no words, but is right */
    if (!(c->img = image_create(width, height, err))) return;
    image_fill(c->img, GRAPH_BG);
    uint32_t n = area_count(ag);
    Order *order = nav_malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        image_destroy(c->img);
        c->img = NULL;
        nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory drawing areas");
        return;
    }
    draw_ground(c);
    for (uint32_t a = 0; a < n; a++) order[a] = (Order){ area_get(ag, a)->zmin, a };
    qsort(order, n, sizeof *order, by_height);
    storey_span(w, gv->level, &c->lo, &c->hi);
    bool faded = false;
    for (uint32_t k = 0; k < n; k++) {
        const NavArea *ar = area_get(ag, order[k].area);
        if (ar->zmin >= c->hi) break;
        /* The storey below shows faintly through the holes of this one. */
        if (ar->zmin >= c->lo && !faded) {
            image_fill_rect(c->img, 0, 0, c->img->width, c->map_h, nav_rgba(18, 20, 26, 170));
            faded = true;
        }
        draw_area(c, ar);
    }
    if (!faded && isfinite(c->lo)) image_fill_rect(c->img, 0, 0, c->img->width, c->map_h, nav_rgba(18, 20, 26, 170));
    c->faded = isfinite(c->lo);
    nav_free(order);
    draw_links(c, ag);
    if (isfinite(c->lo) || isfinite(c->hi)) mark_storey_links(c, ag);
}

/* The legend band added under the map, labels and the storey's name over
** it; frees what the canvas holds. The picture, or NULL with err set. */
static NavImage *finish(Canvas *c, const RenderGraphView *gv, Legend *l, RenderGraphPicture *pic, NavError *err)
{
    NavImage *img = c->img;
    int band = gv->legend && c->font ? legend_band_height(l, c->font, img->width) : 0;
    if (band > 0) {
        NavImage *all = image_create(img->width, img->height + band, err);
        if (!all) {
            image_destroy(img);
            labels_free(&c->labels);
            font_destroy(c->font);
            return NULL;
        }
        memcpy(all->pixels, img->pixels, (size_t)img->width * (size_t)img->height * 4);
        image_fill_rect(all, 0, img->height, img->width, band, GRAPH_BG);
        image_destroy(img);
        c->img = img = all;
    }
    graph_storey_label(c, false);
    labels_block(&c->labels, 0, c->map_h, img->width, img->height - c->map_h);
    if (c->font) {
        labels_place(&c->labels, c->font, img->width, img->height);
        labels_draw(&c->labels, img, c->font);
    }
    graph_storey_label(c, true);
    if (band > 0) legend_band_draw(l, img, c->font, c->map_h, c->ppm, &pic->scale);
    labels_free(&c->labels);
    font_destroy(c->font);
    c->font = NULL;
    return img;
}

NavImage *render_area_graph_view(const NavAreaGraph *ag, const RenderGraphView *gv, RenderGraphPicture *out,
                                 NavError *err)
{
    Canvas c;
    RenderGraphPicture pic;
    draw_graph(&c, ag, gv, &pic, err);
    if (!c.img) {
        labels_free(&c.labels);
        font_destroy(c.font);
        return NULL;
    }
    Legend l;
    legend_clear(&l);
    area_legend(&c, &l);
    NavImage *img = finish(&c, gv, &l, &pic, err);
    if (img && out) *out = pic;
    return img;
}

NavImage *render_area_graph(const NavAreaGraph *ag, int target, int *scale, NavError *err)
{
    return render_area_graph_level(ag, -1, target, scale, err);
}

NavImage *render_area_graph_level(const NavAreaGraph *ag, int level, int target, int *scale, NavError *err)
{
    RenderGraphView gv = { .level = level, .target = target };
    RenderGraphPicture pic;
    NavImage *img = render_area_graph_view(ag, &gv, &pic, err);
    if (img) *scale = pic.cell_px;
    return img;
}

/* }======= */

/* {======= a route over it ======= */

/* Per cell of the picture's span, the area drawn on top there: the same
** order as the area picture (by floor height, then index). */
static void top_areas(const NavAreaGraph *ag, uint32_t *top, int W, int H, float lo, float hi)
{
    for (size_t k = 0; k < (size_t)W * (size_t)H; k++) top[k] = NAV_NO_AREA;
    for (uint32_t i = 0; i < area_count(ag); i++) {
        const NavArea *ar = area_get(ag, i);
        if (ar->zmin < lo || ar->zmin >= hi) continue;
        for (int y = ar->y0; y <= ar->y1; y++)
            for (int x = ar->x0; x <= ar->x1; x++) {
                uint32_t *t = &top[(size_t)y * (size_t)W + (size_t)x];
                if (*t == NAV_NO_AREA || area_get(ag, *t)->zmin < ar->zmin ||
                    (area_get(ag, *t)->zmin == ar->zmin && *t < i))
                    *t = i;
            }
    }
}

/* Every area tinted by its travel time to the goal, over the area
** picture; *longest the longest finite time (hundredths). */
static NavStatus draw_heat(Canvas *c, const RenderRoute *rr, uint32_t *longest, NavError *err)
{
    const NavAreaGraph *ag = router_graph(rr->router);
    const NavWorld *w = area_world(ag);
    int W = world_width(w), H = world_height(w);
    uint32_t n = area_count(ag);
    uint32_t *time = nav_malloc((n ? n : 1) * sizeof *time);
    uint32_t *top = nav_malloc((size_t)W * (size_t)H * sizeof *top);
    if (!time || !top) {
        nav_free(time);
        nav_free(top);
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory for the heat map");
    }
    *longest = 0;
    for (uint32_t i = 0; i < n; i++) {
        NavRoute q;
        if (NAV_FAILED(router_route(rr->router, i, NULL, rr->goal_area, rr->flags, &q))) q.time = ROUTE_UNREACHABLE;
        time[i] = q.time;
        if (q.time != ROUTE_UNREACHABLE && q.time > *longest) *longest = q.time;
    }
    top_areas(ag, top, W, H, c->lo, c->hi);
    int cx0, cy0, cx1, cy1;
    cell_span(c, &cx0, &cy0, &cx1, &cy1);
    for (int y = cy0; y <= cy1; y++)
        for (int x = cx0; x <= cx1; x++) {
            uint32_t a = top[(size_t)y * (size_t)W + (size_t)x];
            if (a == NAV_NO_AREA || time[a] == ROUTE_UNREACHABLE) continue;
            float t = *longest ? (float)time[a] / (float)*longest : 0.0f;
            fill_cells(c, x, y, x, y, render_heat_color(t, 140));
        }
    nav_free(time);
    nav_free(top);
    return NAV_OK;
}

static void draw_segment(const Canvas *c, const float p[3], const float q[3], float thick, NavColor col)
{
    float x0, y0, x1, y1;
    to_px(c, p[0], p[1], &x0, &y0);
    to_px(c, q[0], q[1], &x1, &y1);
    image_draw_line(c->img, x0, y0, x1, y1, thick, col);
}

static void draw_marker(const Canvas *c, const float p[3], float r, NavColor col)
{
    float px, py;
    to_px(c, p[0], p[1], &px, &py);
    image_fill_circle(c->img, px, py, r + 1.5f, nav_rgba(0, 0, 0, 255));
    image_fill_circle(c->img, px, py, r, col);
}

/* The casing first (pass 0), then the walks and links on it (pass 1).
** Returns the travel types of the route's links. */
static uint32_t draw_route(const Canvas *c, const RenderRoute *rr, float thick)
{
    const NavAreaGraph *ag = router_graph(rr->router);
    NavColor casing = nav_rgba(0, 0, 0, 255);
    uint32_t types = 0;
    for (int pass = 0; pass < 2; pass++) {
        const float *prev = rr->from;
        for (int k = 0; k <= rr->link_count; k++) {
            const NavReach *l = k < rr->link_count ? area_reach(ag, rr->links[k]) : NULL;
            const float *next = l ? l->start : rr->to;
            if (pass == 0) draw_segment(c, prev, next, thick + 3.0f, casing);
            else draw_segment(c, prev, next, thick, nav_rgba(255, 255, 255, 255));
            if (!l) break;
            if (pass == 0) draw_segment(c, l->start, l->end, thick + 3.0f, casing);
            else draw_segment(c, l->start, l->end, thick, render_travel_color((NavTravelType)l->type));
            types |= NAV_TFL_TYPE(l->type);
            prev = l->end;
        }
    }
    return types;
}

NavImage *render_route_view(const RenderRoute *rr, const RenderGraphView *gv, RenderGraphPicture *out, NavError *err)
{
    Canvas c;
    RenderGraphPicture pic;
    draw_graph(&c, router_graph(rr->router), gv, &pic, err);
    uint32_t longest = 0;
    if (c.img && NAV_FAILED(draw_heat(&c, rr, &longest, err))) {
        image_destroy(c.img);
        c.img = NULL;
    }
    if (!c.img) {
        labels_free(&c.labels);
        font_destroy(c.font);
        return NULL;
    }
    float cp = cell_px(&c);
    float thick = fmaxf(3.0f, fminf(0.5f * cp, 6.0f));
    float mark = fmaxf(3.5f, fminf(0.9f * cp, 12.0f));
    uint32_t types = rr->reachable ? draw_route(&c, rr, thick) : 0;
    draw_marker(&c, rr->from, mark, START_COLOR);
    draw_marker(&c, rr->to, mark, GOAL_COLOR);
    Legend l;
    legend_clear(&l);
    NavColor dim = nav_rgba(170, 176, 190, 255);
    legend_add(&l, LEGEND_TITLE, dim, "route:");
    legend_add(&l, LEGEND_RING, START_COLOR, "start");
    legend_add(&l, LEGEND_RING, GOAL_COLOR, "goal");
    if (rr->reachable) {
        legend_add(&l, LEGEND_LINE, nav_rgba(255, 255, 255, 255), "walk in an area");
        for (int t = 0; t < NAV_TRAVEL_COUNT; t++)
            if (types & NAV_TFL_TYPE(t))
                legend_add(&l, LEGEND_LINE, render_travel_color((NavTravelType)t), area_travel_name((NavTravelType)t));
    } else {
        legend_add(&l, LEGEND_TEXT, dim, "(no route)");
    }
    legend_ramp(&l, LEGEND_RAMP_HEAT, "time to the goal:", 0.0f, (float)longest / 100.0f, "s");
    legend_add(&l, LEGEND_TEXT, dim, "(untinted: unreachable)");
    area_legend(&c, &l);
    NavImage *img = finish(&c, gv, &l, &pic, err);
    if (img && out) *out = pic;
    return img;
}

NavImage *render_route_picture(const RenderRoute *rr, int target, int *scale, NavError *err)
{
    RenderGraphView gv = { .level = rr->storey - 1, .target = target };
    RenderGraphPicture pic;
    NavImage *img = render_route_view(rr, &gv, &pic, err);
    if (img) *scale = pic.cell_px;
    return img;
}

/* }======= */

/*
** render_graph.c — pictures of an area graph and of one route over it
** (render_graph.h).
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/alloc.h"

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

static void draw_ground(NavImage *img, const NavWorld *w, int scale)
{
    int W = world_width(w), H = world_height(w);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            bool floor = false;
            for (int i = 0; i < n; i++) floor |= f[i].contents != NAV_CONTENTS_VOID;
            image_fill_rect(img, x * scale, (H - 1 - y) * scale, scale, scale,
                            floor ? nav_rgba(150, 150, 156, 255) : nav_rgba(44, 48, 58, 255));
        }
}

static NavColor area_fill(const NavArea *ar)
{
    NavColor fill = (ar->flags & NAV_AREA_PORTAL) ? nav_rgba(250, 185, 40, 255) : render_cluster_tint(ar->cluster);
    if (ar->flags & NAV_AREA_LAVA) return render_mix(fill, nav_rgba(220, 60, 20, 255), 0.6f);
    if (ar->flags & NAV_AREA_SLIME) return render_mix(fill, nav_rgba(60, 200, 40, 255), 0.6f);
    if (ar->flags & NAV_AREA_LIQUID) return render_mix(fill, nav_rgba(50, 110, 230, 255), 0.45f);
    return fill;
}

static void draw_area(NavImage *img, const NavArea *ar, int H, int scale)
{
    NavColor fill = area_fill(ar);
    int x0 = ar->x0 * scale, y0 = (H - 1 - ar->y1) * scale;
    int aw = (ar->x1 - ar->x0 + 1) * scale, ah = (ar->y1 - ar->y0 + 1) * scale;
    image_fill_rect(img, x0, y0, aw, ah, fill);
    if (scale < 3) return;
    NavColor edge = render_mix(fill, nav_rgba(0, 0, 0, 255), 0.35f);
    image_fill_rect(img, x0, y0, aw, 1, edge);
    image_fill_rect(img, x0, y0 + ah - 1, aw, 1, edge);
    image_fill_rect(img, x0, y0, 1, ah, edge);
    image_fill_rect(img, x0 + aw - 1, y0, 1, ah, edge);
}

/* Walking links first and thin, then the rest on top with a dot where
** they land. */
static void draw_links(NavImage *img, const NavAreaGraph *ag, int H, int scale, float lo, float hi)
{
    float px_per_m = (float)scale / world_cell_size(area_world(ag));
    float thin = scale >= 4 ? 1.5f : 1.0f, thick = fmaxf(2.0f, fminf(0.35f * (float)scale, 4.0f));
    float dot = fmaxf(2.0f, fminf(0.45f * (float)scale, 5.0f));
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < area_reach_count(ag); i++) {
            const NavReach *r = area_reach(ag, i);
            bool walk = r->type == NAV_TRAVEL_WALK;
            if (walk != (pass == 0)) continue;
            bool here = (r->start[2] >= lo && r->start[2] < hi) || (r->end[2] >= lo && r->end[2] < hi);
            if (!here) continue;
            float x0 = r->start[0] * px_per_m, y0 = (float)(H * scale) - r->start[1] * px_per_m;
            float x1 = r->end[0] * px_per_m, y1 = (float)(H * scale) - r->end[1] * px_per_m;
            NavColor c = render_travel_color((NavTravelType)r->type);
            image_draw_line(img, x0, y0, x1, y1, walk ? thin : thick, c);
            if (!walk) image_fill_circle(img, x1, y1, dot, c);
        }
}

/* The canvas for a world, `*scale` pixels per cell. */
static NavImage *graph_canvas(const NavWorld *w, int target, int *scale_out, NavError *err)
{
    int W = world_width(w), H = world_height(w);
    int scale = NAV_MAX(1, target / NAV_MAX(W, H));
    if ((int64_t)W * scale > NAV_IMAGE_MAX_SIDE || (int64_t)H * scale > NAV_IMAGE_MAX_SIDE) {
        nav_error_set(err, NAV_E_PARAM, world_source(w), 0, 0, NULL, "map of %d x %d cells is too large to draw", W, H);
        return NULL;
    }
    *scale_out = scale;
    return image_create(W * scale, H * scale, err);
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
** other end's storey number beside it, so a way up or down is seen from
** both floors it joins. */
static void mark_storey_links(NavImage *img, const NavAreaGraph *ag, int level, const NavFont *font, int H, int scale)
{
    const NavWorld *w = area_world(ag);
    float z[RENDER_MAX_LEVELS];
    int layer[RENDER_MAX_LEVELS];
    int n = render_world_levels(w, z, layer);
    float px_per_m = (float)scale / world_cell_size(w);
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        int a = render_levels_at(z, n, r->start[2]), b = render_levels_at(z, n, r->end[2]);
        if (a == b || (a != level && b != level)) continue;
        const float *p = a == level ? r->start : r->end;
        int other = a == level ? b : a;
        float x = p[0] * px_per_m, y = (float)(H * scale) - p[1] * px_per_m;
        NavColor c = render_travel_color((NavTravelType)r->type);
        image_fill_circle(img, x, y, 6.0f, nav_rgba(255, 255, 255, 255));
        image_fill_circle(img, x, y, 4.0f, c);
        if (font) {
            char text[24];
            snprintf(text, sizeof text, "%s %d", p == r->start ? "to" : "from", other + 1);
            font_draw_outlined(img, font, (int)x + 7, (int)y - 6, text, nav_rgba(255, 255, 255, 255),
                               nav_rgba(0, 0, 0, 230), 1);
        }
    }
}

/* "storey N of M: NAME" on an opaque box at the top middle, as the
** simulation's pictures have it. */
static void graph_storey_label(NavImage *img, const NavWorld *w, int level, const NavFont *font)
{
    float z[RENDER_MAX_LEVELS];
    int layer[RENDER_MAX_LEVELS];
    int n = render_world_levels(w, z, layer);
    if (!font || level < 0 || level >= n) return;
    char text[96];
    snprintf(text, sizeof text, "storey %d of %d: %s", level + 1, n, world_layer(w, layer[level])->name);
    int bw = font_text_width(font, text, 2) + 12, bh = font_line_height(font, 2) + 8;
    int x = (img->width - bw) / 2;
    image_fill_rect(img, x, 6, bw, bh, RENDER_LABEL_BOX);
    font_draw(img, font, x + 6, 10, text, RENDER_LABEL_TEXT, 2);
}

NavImage *render_area_graph(const NavAreaGraph *ag, int target, int *scale_out, NavError *err)
{
    return render_area_graph_level(ag, -1, target, scale_out, err);
}

NavImage *render_area_graph_level(const NavAreaGraph *ag, int level, int target, int *scale_out, NavError *err)
{
    const NavWorld *w = area_world(ag);
    int scale, H = world_height(w);
    NavImage *img = graph_canvas(w, target, &scale, err);
    if (!img) return NULL;
    uint32_t n = area_count(ag);
    Order *order = nav_malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        image_destroy(img);
        nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory drawing areas");
        return NULL;
    }
    draw_ground(img, w, scale);
    for (uint32_t a = 0; a < n; a++) order[a] = (Order){ area_get(ag, a)->zmin, a };
    qsort(order, n, sizeof *order, by_height);
    float lo, hi;
    storey_span(w, level, &lo, &hi);
    bool faded = false;
    for (uint32_t k = 0; k < n; k++) {
        const NavArea *ar = area_get(ag, order[k].area);
        if (ar->zmin >= hi) break;
        /* The storey below shows faintly through the holes of this one. */
        if (ar->zmin >= lo && !faded) {
            image_fill_rect(img, 0, 0, img->width, img->height, nav_rgba(18, 20, 26, 170));
            faded = true;
        }
        draw_area(img, ar, H, scale);
    }
    if (!faded && isfinite(lo)) image_fill_rect(img, 0, 0, img->width, img->height, nav_rgba(18, 20, 26, 170));
    nav_free(order);
    draw_links(img, ag, H, scale, lo, hi);
    if (isfinite(lo) || isfinite(hi)) {
        NavError fe;
        nav_error_clear(&fe);
        NavFont *font = font_load_default(&fe); /* without it the picture has no words, but is right */
        mark_storey_links(img, ag, level, font, H, scale);
        graph_storey_label(img, w, level, font);
        font_destroy(font);
    }
    *scale_out = scale;
    return img;
}

/* }======= */

/* {======= a route over it ======= */

typedef struct Canvas {
    NavImage *img;
    int scale; /* pixels per cell */
    float px_per_m;
} Canvas;

static void metres_to_px(const Canvas *c, const float p[3], float *px, float *py)
{
    *px = p[0] * c->px_per_m;
    *py = (float)c->img->height - p[1] * c->px_per_m;
}

/* Per cell, the area drawn on top there: the same order as the area
** picture (by floor height, then index). */
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
** picture. */
static NavStatus draw_heat(const Canvas *c, const RenderRoute *rr, NavError *err)
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
    uint32_t longest = 0;
    for (uint32_t i = 0; i < n; i++) {
        NavRoute q;
        if (NAV_FAILED(router_route(rr->router, i, NULL, rr->goal_area, rr->flags, &q))) q.time = ROUTE_UNREACHABLE;
        time[i] = q.time;
        if (q.time != ROUTE_UNREACHABLE && q.time > longest) longest = q.time;
    }
    float lo, hi;
    storey_span(w, rr->storey - 1, &lo, &hi);
    top_areas(ag, top, W, H, lo, hi);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t a = top[(size_t)y * (size_t)W + (size_t)x];
            if (a == NAV_NO_AREA || time[a] == ROUTE_UNREACHABLE) continue;
            float t = longest ? (float)time[a] / (float)longest : 0.0f;
            image_fill_rect(c->img, x * c->scale, (H - 1 - y) * c->scale, c->scale, c->scale,
                            render_heat_color(t, 140));
        }
    nav_free(time);
    nav_free(top);
    return NAV_OK;
}

static void draw_segment(const Canvas *c, const float p[3], const float q[3], float thick, NavColor col)
{
    float x0, y0, x1, y1;
    metres_to_px(c, p, &x0, &y0);
    metres_to_px(c, q, &x1, &y1);
    image_draw_line(c->img, x0, y0, x1, y1, thick, col);
}

static void draw_marker(const Canvas *c, const float p[3], float r, NavColor col)
{
    float px, py;
    metres_to_px(c, p, &px, &py);
    image_fill_circle(c->img, px, py, r + 1.5f, nav_rgba(0, 0, 0, 255));
    image_fill_circle(c->img, px, py, r, col);
}

/* The casing first (pass 0), then the walks and links on it (pass 1). */
static void draw_route(const Canvas *c, const RenderRoute *rr, float thick)
{
    const NavAreaGraph *ag = router_graph(rr->router);
    NavColor casing = nav_rgba(0, 0, 0, 255);
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
            prev = l->end;
        }
    }
}

NavImage *render_route_picture(const RenderRoute *rr, int target, int *scale_out, NavError *err)
{
    int scale;
    NavImage *img = render_area_graph_level(router_graph(rr->router), rr->storey - 1, target, &scale, err);
    if (!img) return NULL;
    Canvas c = { img, scale, (float)scale / world_cell_size(area_world(router_graph(rr->router))) };
    if (NAV_FAILED(draw_heat(&c, rr, err))) {
        image_destroy(img);
        return NULL;
    }
    float thick = fmaxf(3.0f, fminf(0.5f * (float)scale, 6.0f));
    float mark = fmaxf(3.5f, fminf(0.9f * (float)scale, 12.0f));
    if (rr->reachable) draw_route(&c, rr, thick);
    draw_marker(&c, rr->from, mark, nav_rgba(30, 180, 60, 255));
    draw_marker(&c, rr->to, mark, nav_rgba(40, 80, 230, 255));
    *scale_out = scale;
    return img;
}

/* }======= */

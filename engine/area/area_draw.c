/*
** area_draw.c — a top-down picture of an area graph (see area_draw.h).
*/
#include "area/area_draw.h"

#include <math.h>
#include <stdlib.h>

static const NavColor TRAVEL_COLORS[NAV_TRAVEL_COUNT] = {
    { 96, 96, 104, 255 },  /* walk */
    { 150, 100, 50, 255 }, /* crouch */
    { 255, 140, 0, 255 },  /* barrier jump */
    { 210, 20, 20, 255 },  /* walk off ledge */
    { 230, 0, 200, 255 },  /* jump */
    { 120, 60, 10, 255 },  /* climb */
    { 0, 150, 40, 255 },   /* ladder */
    { 0, 80, 255, 255 },   /* swim */
    { 0, 190, 200, 255 },  /* water jump */
    { 120, 0, 255, 255 },  /* teleport */
    { 0, 0, 0, 255 },      /* elevator */
    { 200, 170, 0, 255 },  /* jump pad */
};

NavColor area_travel_color(NavTravelType t)
{
    return (unsigned)t < NAV_TRAVEL_COUNT ? TRAVEL_COLORS[t] : nav_rgba(255, 255, 255, 255);
}

/* A light tint per cluster: hues a golden angle apart, so neighbours in
** numbering differ. */
static NavColor cluster_tint(uint32_t c)
{
    float h = fmodf((float)c * 0.618034f, 1.0f) * 6.0f, s = 0.38f, v = 0.95f;
    int i = (int)h;
    float f = h - (float)i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    float r, g, b;
    switch (i % 6) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    return nav_rgba((uint8_t)(r * 255), (uint8_t)(g * 255), (uint8_t)(b * 255), 255);
}

static NavColor mix(NavColor a, NavColor b, float t)
{
    return nav_rgba((uint8_t)(a.r + (b.r - a.r) * t), (uint8_t)(a.g + (b.g - a.g) * t), (uint8_t)(a.b + (b.b - a.b) * t),
                    255);
}

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

NavImage *area_draw(const NavAreaGraph *ag, int target, int *scale_out, NavError *err)
{
    const NavWorld *w = area_world(ag);
    int W = world_width(w), H = world_height(w);
    int longer = NAV_MAX(W, H);
    int scale = NAV_MAX(1, target / longer);
    if ((int64_t)W * scale > NAV_IMAGE_MAX_SIDE || (int64_t)H * scale > NAV_IMAGE_MAX_SIDE) {
        nav_error_set(err, NAV_E_PARAM, world_source(w), 0, 0, NULL, "map of %d x %d cells is too large to draw", W, H);
        return NULL;
    }
    NavImage *img = image_create(W * scale, H * scale, err);
    if (!img) return NULL;
    float cs = world_cell_size(w), px_per_m = (float)scale / cs;

    /* Ground under no area, and solid. */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            bool floor = false;
            for (int i = 0; i < n; i++) floor |= f[i].contents != NAV_CONTENTS_VOID;
            image_fill_rect(img, x * scale, (H - 1 - y) * scale, scale, scale,
                            floor ? nav_rgba(150, 150, 156, 255) : nav_rgba(44, 48, 58, 255));
        }

    /* Areas, lowest first. */
    uint32_t n = area_count(ag);
    Order *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        image_destroy(img);
        nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory drawing areas");
        return NULL;
    }
    for (uint32_t a = 0; a < n; a++) order[a] = (Order){ area_get(ag, a)->zmin, a };
    qsort(order, n, sizeof *order, by_height);
    for (uint32_t k = 0; k < n; k++) {
        const NavArea *ar = area_get(ag, order[k].area);
        NavColor fill = (ar->flags & NAV_AREA_PORTAL) ? nav_rgba(250, 185, 40, 255) : cluster_tint(ar->cluster);
        if (ar->flags & NAV_AREA_LAVA) fill = mix(fill, nav_rgba(220, 60, 20, 255), 0.6f);
        else if (ar->flags & NAV_AREA_SLIME) fill = mix(fill, nav_rgba(60, 200, 40, 255), 0.6f);
        else if (ar->flags & NAV_AREA_LIQUID) fill = mix(fill, nav_rgba(50, 110, 230, 255), 0.45f);
        int x0 = ar->x0 * scale, y0 = (H - 1 - ar->y1) * scale;
        int aw = (ar->x1 - ar->x0 + 1) * scale, ah = (ar->y1 - ar->y0 + 1) * scale;
        image_fill_rect(img, x0, y0, aw, ah, fill);
        if (scale >= 3) {
            NavColor edge = mix(fill, nav_rgba(0, 0, 0, 255), 0.35f);
            image_fill_rect(img, x0, y0, aw, 1, edge);
            image_fill_rect(img, x0, y0 + ah - 1, aw, 1, edge);
            image_fill_rect(img, x0, y0, 1, ah, edge);
            image_fill_rect(img, x0 + aw - 1, y0, 1, ah, edge);
        }
    }
    free(order);

    /* Links: walking first and thin, then the rest on top. */
    float thin = scale >= 4 ? 1.5f : 1.0f, thick = fmaxf(2.0f, fminf(0.35f * (float)scale, 4.0f));
    float dot = fmaxf(2.0f, fminf(0.45f * (float)scale, 5.0f));
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < area_reach_count(ag); i++) {
            const NavReach *r = area_reach(ag, i);
            bool walk = r->type == NAV_TRAVEL_WALK;
            if (walk != (pass == 0)) continue;
            float x0 = r->start[0] * px_per_m, y0 = (float)(H * scale) - r->start[1] * px_per_m;
            float x1 = r->end[0] * px_per_m, y1 = (float)(H * scale) - r->end[1] * px_per_m;
            NavColor c = area_travel_color((NavTravelType)r->type);
            image_draw_line(img, x0, y0, x1, y1, walk ? thin : thick, c);
            if (!walk) image_fill_circle(img, x1, y1, dot, c);
        }
    *scale_out = scale;
    return img;
}

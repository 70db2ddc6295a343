/*
** render_place.c — the building placement preview (RenderView.place): a
** footprint laid on the grid, green where it may be built and red where
** not, with the reason and the spot that broke the rule, and the spawn
** points round it for the view's class, numbered in the order units take
** them. The window lays it under the cursor; `navbot sim --place` draws
** it headless.
**
** The rules are RENDER_PLACE_RULES, a house's: the preview shows what
** sim_place_check says of them, and the same check is what `nav.can_place`
** does from Lua with a building class's own rules.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>

#include "grid/grid.h"
#include "grid/grid_place.h"

#define PREVIEW_SPAWNS 24 /* spawn points shown at most */

static const GridPlaceRules RENDER_PLACE_RULES = {
    .max_slope = 15.0f, .min_water = 0.0f, .max_water = 0.0f, .shore = 2.0f, .spacing = 1.0f, .edge = 1.0f
};

static void footprint_corners(const GridShape *s, float xy[8])
{
    float c = cosf(s->angle), sn = sinf(s->angle);
    static const float SX[4] = { -1, 1, 1, -1 }, SY[4] = { -1, -1, 1, 1 };
    for (int k = 0; k < 4; k++) {
        float lx = SX[k] * s->hw, ly = SY[k] * s->hh;
        xy[2 * k] = s->x + lx * c - ly * sn;
        xy[2 * k + 1] = s->y + lx * sn + ly * c;
    }
}

void render_place(Frame *f)
{
    const RenderView *v = f->v;
    if (!v->place_on) return;
    NavGrid *g = sim_grid(f->sim, NULL);
    if (!g) return;
    GridShape s = { .x = v->place[0],
                    .y = v->place[1],
                    .hw = 0.5f * v->place[2],
                    .hh = 0.5f * v->place[3],
                    .angle = v->place[4] * (float)NAV_PI / 180.0f };
    GridPlaceResult res;
    char why[GRID_PLACE_TEXT_MAX + 32];
    NavError err;
    nav_error_clear(&err);
    if (NAV_FAILED(sim_place_check(f->sim, &s, &RENDER_PLACE_RULES, &res, why, sizeof why, &err))) {
        snprintf(why, sizeof why, "%.150s", err.message);
        res.reason = GRID_PLACE_OFF_MAP;
        res.x = s.x, res.y = s.y;
    }
    bool ok = res.reason == GRID_PLACE_OK;
    NavColor tint = ok ? nav_rgba(60, 220, 90, 90) : nav_rgba(230, 60, 50, 90);
    NavColor edge = ok ? nav_rgba(90, 250, 120, 255) : nav_rgba(255, 90, 70, 255);
    /* The navcells placement judges, then the footprint's outline. */
    float cs = grid_cell_size(g), r = sqrtf(s.hw * s.hw + s.hh * s.hh);
    int x0 = (int)floorf((s.x - r) / cs), x1 = (int)floorf((s.x + r) / cs);
    int y0 = (int)floorf((s.y - r) / cs), y1 = (int)floorf((s.y + r) / cs);
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++) {
            if (cx < 0 || cy < 0 || cx >= grid_width(g) || cy >= grid_height(g)) continue;
            if (!grid_place_covers(g, &s, cx, cy)) continue;
            float ax, ay, bx, by;
            frame_to_px(f, (float)cx * cs, (float)(cy + 1) * cs, &ax, &ay);
            frame_to_px(f, (float)(cx + 1) * cs, (float)cy * cs, &bx, &by);
            image_fill_rect(f->img, (int)floorf(ax), (int)floorf(ay), (int)ceilf(bx - ax), (int)ceilf(by - ay), tint);
        }
    float xy[8];
    footprint_corners(&s, xy);
    for (int k = 0; k < 4; k++) {
        float ax, ay, bx, by;
        frame_to_px(f, xy[2 * k], xy[2 * k + 1], &ax, &ay);
        frame_to_px(f, xy[(2 * k + 2) % 8], xy[(2 * k + 3) % 8], &bx, &by);
        image_draw_line(f->img, ax, ay, bx, by, 2.0f, edge);
    }
    float px, py;
    if (!ok) {
        /* Where the rule broke: a ring round the spot. */
        frame_to_px(f, res.x, res.y, &px, &py);
        float rr = fmaxf(frame_px(f, 0.5f * cs), 4.0f);
        for (int k = 0; k < 16; k++) {
            float t0 = 2.0f * (float)NAV_PI * (float)k / 16.0f, t1 = 2.0f * (float)NAV_PI * (float)(k + 1) / 16.0f;
            image_draw_line(f->img, px + rr * cosf(t0), py + rr * sinf(t0), px + rr * cosf(t1), py + rr * sinf(t1),
                            2.0f, nav_rgba(255, 230, 60, 255));
        }
    } else if (v->cls >= 0 && v->cls < world_class_count(f->w)) {
        /* Where units of the view's class would appear round it. */
        float pts[2 * PREVIEW_SPAWNS];
        int n = sim_spawn_points(f->sim, v->cls, &s, NULL, 0, pts, PREVIEW_SPAWNS, NULL);
        float half = world_class(f->w, v->cls)->radius + GRID_SPAWN_PAD;
        for (int k = 0; k < n; k++) {
            float ax, ay, bx, by;
            frame_to_px(f, pts[2 * k] - half, pts[2 * k + 1] + half, &ax, &ay);
            frame_to_px(f, pts[2 * k] + half, pts[2 * k + 1] - half, &bx, &by);
            frame_rect_outline(f, ax, ay, bx, by, 1.5f, nav_rgba(120, 200, 255, 255));
            if (k < 9 && bx - ax >= 8.0f) {
                char num[12];
                snprintf(num, sizeof num, "%d", k + 1);
                frame_text(f, (int)(ax + 2.0f), (int)(ay + 1.0f), num, nav_rgba(200, 230, 255, 255));
            }
        }
    }
    /* The verdict beside the footprint. */
    char line[GRID_PLACE_TEXT_MAX + 64];
    snprintf(line, sizeof line, "%.0f x %.0f m at %.0f deg: %s", (double)(2.0f * s.hw), (double)(2.0f * s.hh),
             (double)v->place[4], ok ? "may be built" : why);
    frame_to_px(f, s.x + r, s.y + r, &px, &py);
    frame_text_box(f, (int)px + 4, (int)py, line, edge);
}

/*
** render_world.c — the world under the bots: a picture of one pixel per
** cell (floors shaded by height and contents, with the cell overlays
** blended in) kept until what it shows changes and scaled into each frame;
** walls, area outlines, links, entities and obstacles drawn over it in
** picture space so they stay sharp at any zoom.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid.h"
#include "sim/sim_debug.h"

/* Zoom (pixels per metre) from which finer things are drawn. */
#define ZOOM_WALLS 3.0f
#define ZOOM_AREA_OUTLINES 6.0f
#define ZOOM_WALK_LINKS 14.0f
#define ZOOM_LABELS 7.0f

/* {======= the cell picture ======= */

static NavColor floor_color(const NavFloor *fl, float zmin, float zspan)
{
    float z = world_standing_height(fl);
    float t = zspan > 0.0f ? (z - zmin) / zspan : 0.5f;
    NavColor ground = render_mix(RENDER_GROUND_LO, RENDER_GROUND_HI, fminf(fmaxf(t, 0.0f), 1.0f));
    switch ((NavContents)fl->contents) {
    case NAV_CONTENTS_WATER: {
        float depth = fminf(fmaxf(fl->top - fl->z, 0.0f) / 3.0f, 1.0f);
        return render_mix(nav_rgba(90, 160, 230, 255), nav_rgba(20, 60, 170, 255), depth);
    }
    case NAV_CONTENTS_LAVA: return nav_rgba(235, 85, 20, 255);
    case NAV_CONTENTS_SLIME: return nav_rgba(100, 200, 60, 255);
    case NAV_CONTENTS_LADDER: return render_mix(ground, nav_rgba(150, 95, 40, 255), 0.75f);
    case NAV_CONTENTS_CLIP: return render_mix(ground, nav_rgba(140, 70, 170, 255), 0.6f);
    case NAV_CONTENTS_VOID: return nav_rgba(4, 4, 8, 255);
    default: return ground;
    }
}

static void blend(uint8_t *px, NavColor c)
{
    unsigned a = c.a, ia = 255u - a;
    px[0] = (uint8_t)((px[0] * ia + c.r * a) / 255u);
    px[1] = (uint8_t)((px[1] * ia + c.g * a) / 255u);
    px[2] = (uint8_t)((px[2] * ia + c.b * a) / 255u);
}

static uint8_t *cell_px(Renderer *r, int cx, int cy)
{
    NavImage *img = r->cells;
    return img->pixels + ((size_t)(img->height - 1 - cy) * (size_t)img->width + (size_t)cx) * 4;
}

static bool grow_walls(Renderer *r)
{
    if (r->wall_count < r->wall_cap) return true;
    int cap = r->wall_cap ? 2 * r->wall_cap : 1024;
    RenderWall *n = nav_realloc(r->walls, (size_t)cap * sizeof *n);
    if (!n) return false;
    r->walls = n;
    r->wall_cap = cap;
    return true;
}

/* Height of the drawn floor of a cell, NaN where there is none. */
static float drawn_z(const NavWorld *w, const int8_t *floor_of, int cx, int cy)
{
    int W = world_width(w), H = world_height(w);
    if (cx < 0 || cy < 0 || cx >= W || cy >= H) return NAN;
    int fi = floor_of[(size_t)cy * (size_t)W + (size_t)cx];
    if (fi < 0) return NAN;
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    return col[fi].contents == NAV_CONTENTS_VOID ? NAN : world_standing_height(&col[fi]);
}

/* A wall on a cell edge: floor beside no floor, or a step higher than a
** stair. Runs along a row or column are merged into one segment. */
/* False when out of memory (the walls are then partial). */
static bool find_walls(Renderer *r, const NavWorld *w, float step)
{
    int W = world_width(w), H = world_height(w);
    r->wall_count = 0;
    /* Edges between rows y-1 and y (horizontal), x from 0 to W. */
    for (int y = 0; y <= H; y++) {
        int run = -1;
        for (int x = 0; x <= W; x++) {
            bool wall = false;
            if (x < W) {
                float a = drawn_z(w, r->floor_of, x, y - 1), b = drawn_z(w, r->floor_of, x, y);
                wall = (isnan(a) != isnan(b)) || (!isnan(a) && fabsf(a - b) > step);
            }
            if (wall && run < 0) run = x;
            if (!wall && run >= 0) {
                if (!grow_walls(r)) return false;
                r->walls[r->wall_count++] = (RenderWall){ (int16_t)run, (int16_t)y, (int16_t)x, (int16_t)y };
                run = -1;
            }
        }
    }
    for (int x = 0; x <= W; x++) {
        int run = -1;
        for (int y = 0; y <= H; y++) {
            bool wall = false;
            if (y < H) {
                float a = drawn_z(w, r->floor_of, x - 1, y), b = drawn_z(w, r->floor_of, x, y);
                wall = (isnan(a) != isnan(b)) || (!isnan(a) && fabsf(a - b) > step);
            }
            if (wall && run < 0) run = y;
            if (!wall && run >= 0) {
                if (!grow_walls(r)) return false;
                r->walls[r->wall_count++] = (RenderWall){ (int16_t)x, (int16_t)run, (int16_t)x, (int16_t)y };
                run = -1;
            }
        }
    }
    return true;
}

/* The area drawn at a cell: the area of its drawn floor. */
static uint32_t cell_area(const NavAreaGraph *ag, const int8_t *floor_of, int W, int cx, int cy)
{
    int fi = floor_of[(size_t)cy * (size_t)W + (size_t)cx];
    return fi < 0 ? NAV_NO_AREA : area_of_floor(ag, cx, cy, fi);
}

static void heat_goal(const Frame *f, float goal[3], bool *has)
{
    *has = false;
    if (f->v->heat_goal_set) {
        memcpy(goal, f->v->heat_goal, 3 * sizeof goal[0]);
        *has = true;
    } else if (f->v->selected >= 0) {
        render_bot_goal_of(f->sim, f->v->selected, goal, has);
    }
}

static void paint_areas(Frame *f, const NavAreaGraph *ag, NavRouter *router, uint32_t overlays)
{
    Renderer *r = f->r;
    const NavWorld *w = f->w;
    int W = world_width(w), H = world_height(w);
    uint32_t n = area_count(ag);
    uint32_t longest = 0;
    bool heat = false;
    if (overlays & RENDER_BIT(RENDER_HEAT)) {
        float goal[3];
        bool has;
        heat_goal(f, goal, &has);
        uint32_t ga = has ? area_point_area(ag, goal[0], goal[1], goal[2]) : NAV_NO_AREA;
        if (ga == NAV_NO_AREA && has) {
            float snapped[3];
            ga = area_nearest_area(ag, goal[0], goal[1], goal[2], 2.0f, snapped);
        }
        if (ga != NAV_NO_AREA) {
            if (n > r->area_time_cap) {
                uint32_t *t = nav_realloc(r->area_time, (size_t)n * sizeof *t);
                if (t) r->area_time = t, r->area_time_cap = n;
                else r->nomem = true;
            }
            if (n <= r->area_time_cap) {
                heat = true;
                for (uint32_t i = 0; i < n; i++) {
                    NavRoute q;
                    if (NAV_FAILED(router_route(router, i, NULL, ga, NAV_TFL_DEFAULT, &q))) q.time = ROUTE_UNREACHABLE;
                    r->area_time[i] = q.time;
                    if (q.time != ROUTE_UNREACHABLE && q.time > longest) longest = q.time;
                }
                r->heat_drawn = true;
                r->heat_seconds = (float)longest / 100.0f;
            }
        }
    }
    for (int cy = 0; cy < H; cy++)
        for (int cx = 0; cx < W; cx++) {
            uint32_t a = cell_area(ag, r->floor_of, W, cx, cy);
            if (a == NAV_NO_AREA) continue;
            const NavArea *ar = area_get(ag, a);
            uint8_t *px = cell_px(r, cx, cy);
            if (overlays & RENDER_BIT(RENDER_CLUSTERS)) {
                NavColor t = ar->portal >= 0 ? nav_rgba(255, 170, 0, 255) : render_cluster_tint(ar->cluster);
                t.a = 150;
                blend(px, t);
            } else if (overlays & RENDER_BIT(RENDER_AREAS)) {
                NavColor t = render_cluster_tint(a * 7u + 3u);
                t.a = 90;
                blend(px, t);
            }
            if (heat) {
                uint32_t t = r->area_time[a];
                if (t != ROUTE_UNREACHABLE)
                    blend(px, render_heat_color(longest ? (float)t / (float)longest : 0.0f, 170));
                else blend(px, nav_rgba(0, 0, 0, 120));
            }
        }
}

typedef struct Explored {
    Renderer *r;
    const NavWorld *w;
    struct NavGrid *g;
} Explored;

static void paint_explored(void *user, int x, int y, bool closed)
{
    Explored *e = user;
    float wx, wy;
    int cx, cy;
    grid_cell_center(e->g, x, y, &wx, &wy);
    if (!world_point_cell(e->w, wx, wy, &cx, &cy)) return;
    blend(cell_px(e->r, cx, cy), closed ? nav_rgba(170, 60, 220, 150) : nav_rgba(40, 220, 220, 150));
}

static void paint_grid(Frame *f, uint32_t overlays)
{
    Renderer *r = f->r;
    NavError err;
    nav_error_clear(&err);
    struct NavGrid *g = sim_grid(f->sim, &err);
    if (!g) {
        if (err.status & NAV_E_NOMEM) r->nomem = true;
        return;
    }
    int cls = f->v->cls >= 0 && f->v->cls < grid_class_count(g) ? f->v->cls : 0;
    int W = world_width(f->w), H = world_height(f->w);
    for (int cy = 0; cy < H; cy++)
        for (int cx = 0; cx < W; cx++) {
            float x, y;
            int gx, gy;
            world_cell_center(f->w, cx, cy, &x, &y);
            if (!grid_cell_of(g, x, y, &gx, &gy)) continue;
            uint8_t *px = cell_px(r, cx, cy);
            if (overlays & RENDER_BIT(RENDER_GRID))
                blend(px, grid_passable(g, cls, gx, gy) ? nav_rgba(40, 200, 80, 60) : nav_rgba(220, 30, 30, 130));
            if (overlays & RENDER_BIT(RENDER_REGIONS)) {
                int reg = grid_region_of(g, cls, gx, gy);
                if (reg >= 0) {
                    NavColor t = render_cluster_tint((uint32_t)reg * 5u + 1u);
                    t.a = 120;
                    blend(px, t);
                }
            }
        }
    if (overlays & RENDER_BIT(RENDER_EXPLORED)) {
        Explored e = { r, f->w, g };
        sim_grid_visit_search(f->sim, paint_explored, &e);
    }
}

static bool make_cells(Frame *f)
{
    Renderer *r = f->r;
    const NavWorld *w = f->w;
    int W = world_width(w), H = world_height(w);
    if (!r->cells || r->cells->width != W || r->cells->height != H) {
        image_destroy(r->cells);
        nav_free(r->floor_of);
        NavError err;
        r->cells = image_create(W, H, &err);
        r->floor_of = nav_malloc((size_t)W * (size_t)H);
        if (!r->cells || !r->floor_of) {
            image_destroy(r->cells);
            nav_free(r->floor_of);
            r->cells = NULL;
            r->floor_of = NULL;
            r->nomem = true;
            return false;
        }
    }
    NavWorldStats st;
    world_stats(w, &st);
    float zmin = st.min_z, zspan = fminf(st.max_z, f->cut) - st.min_z;
    r->shade_lo = zmin, r->shade_hi = zmin + fmaxf(zspan, 0.0f);
    r->heat_drawn = false;
    for (int cy = 0; cy < H; cy++)
        for (int cx = 0; cx < W; cx++) {
            int n, best = -1;
            const NavFloor *col = world_column(w, cx, cy, &n);
            for (int i = 0; i < n; i++)
                if ((isfinite(col[i].z) || col[i].contents == NAV_CONTENTS_VOID) && col[i].z <= f->cut) best = i;
            NavColor c = best < 0 ? nav_rgba(46, 46, 54, 255) : floor_color(&col[best], zmin, zspan);
            /* A floor under the storey shown is seen through its holes
            ** (stairwells, hatches, drops): faintly, and not as part of
            ** the storey, so its edge is walled and areas skip it. */
            if (best >= 0 && col[best].z < f->base && isfinite(f->base)) {
                c = render_mix(c, nav_rgba(18, 20, 26, 255), 0.7f);
                best = -1;
            }
            r->floor_of[(size_t)cy * (size_t)W + (size_t)cx] = (int8_t)best;
            uint8_t *px = cell_px(r, cx, cy);
            px[0] = c.r, px[1] = c.g, px[2] = c.b, px[3] = 255;
        }
    float step = world_class_count(w) ? world_class(w, 0)->step : 0.5f;
    if (!find_walls(r, w, step)) r->nomem = true;
    uint32_t ov = f->v->overlays;
    if (ov & (RENDER_BIT(RENDER_AREAS) | RENDER_BIT(RENDER_CLUSTERS) | RENDER_BIT(RENDER_HEAT))) {
        NavRouter *router = NULL;
        const NavAreaGraph *ag = frame_graph(f, &router);
        if (ag && router) paint_areas(f, ag, router, ov);
    }
    if (ov & (RENDER_BIT(RENDER_GRID) | RENDER_BIT(RENDER_REGIONS) | RENDER_BIT(RENDER_EXPLORED))) paint_grid(f, ov);
    /* Not kept for the next frames when a part is missing. */
    return !r->nomem;
}

static CellKey key_of(const Frame *f)
{
    CellKey k;
    memset(&k, 0, sizeof k);
    k.w = f->w;
    k.level = f->v->level;
    k.overlays = f->v->overlays & (RENDER_BIT(RENDER_AREAS) | RENDER_BIT(RENDER_CLUSTERS) | RENDER_BIT(RENDER_HEAT) |
                                   RENDER_BIT(RENDER_GRID) | RENDER_BIT(RENDER_REGIONS) | RENDER_BIT(RENDER_EXPLORED));
    k.cls = f->v->cls;
    if (k.overlays & RENDER_BIT(RENDER_HEAT)) {
        heat_goal(f, k.heat_goal, &k.heat_on);
        if (!k.heat_on) memset(k.heat_goal, 0, sizeof k.heat_goal);
    }
    uint32_t n = sim_obstacle_count(f->sim), id = 0;
    float mn[3], mx[3];
    if (n) sim_obstacle_at(f->sim, n - 1, &id, mn, mx);
    k.obstacles = n * 2654435761u ^ id;
    /* Grid obstructions follow crates, and the explored cells each search. */
    if (k.overlays & (RENDER_BIT(RENDER_GRID) | RENDER_BIT(RENDER_REGIONS) | RENDER_BIT(RENDER_EXPLORED)))
        k.search_mark = sim_tick(f->sim);
    return k;
}

void render_world_cells(Frame *f)
{
    Renderer *r = f->r;
    CellKey k = key_of(f);
    /* The size check: another world at a freed one's address has its key. */
    if (!r->key_valid || memcmp(&k, &r->key, sizeof k) != 0 || !r->cells || r->cells->width != world_width(f->w) ||
        r->cells->height != world_height(f->w)) {
        if (!make_cells(f)) return;
        r->key = k;
        r->key_valid = true;
    }
    /* Scale the cell picture into the frame, nearest cell per pixel. */
    NavImage *img = f->img;
    int W = world_width(f->w), H = world_height(f->w);
    float cs = world_cell_size(f->w);
    if (img->width > r->col_cap) {
        int *n = nav_realloc(r->col_cell, (size_t)img->width * sizeof *n);
        if (!n) {
            r->nomem = true;
            return;
        }
        r->col_cell = n;
        r->col_cap = img->width;
    }
    for (int px = 0; px < img->width; px++) {
        float x, y;
        render_to_world(f->v, img->width, img->height, (float)px + 0.5f, 0.0f, &x, &y);
        float c = floorf(x / cs);
        r->col_cell[px] = c >= 0.0f && c < (float)W ? (int)c : -1;
    }
    for (int py = 0; py < img->height; py++) {
        float x, y;
        render_to_world(f->v, img->width, img->height, 0.0f, (float)py + 0.5f, &x, &y);
        float c = floorf(y / cs);
        if (c < 0.0f || c >= (float)H) continue;
        const uint8_t *src = r->cells->pixels + (size_t)(H - 1 - (int)c) * (size_t)W * 4;
        uint8_t *dst = img->pixels + (size_t)py * (size_t)img->width * 4;
        for (int px = 0; px < img->width; px++) {
            int cx = r->col_cell[px];
            if (cx >= 0) memcpy(dst + (size_t)px * 4, src + (size_t)cx * 4, 4);
        }
    }
}

uint32_t render_world_contents_shown(const Frame *f, bool *solid, bool *below)
{
    const Renderer *r = f->r;
    *solid = *below = false;
    if (!r->cells || !r->floor_of || !r->key_valid) return 0;
    const NavWorld *w = f->w;
    int W = world_width(w), H = world_height(w);
    float cs = world_cell_size(w), x0, y0, x1, y1;
    render_to_world(f->v, f->img->width, f->img->height, 0.0f, (float)f->img->height, &x0, &y0);
    render_to_world(f->v, f->img->width, f->img->height, (float)f->img->width, 0.0f, &x1, &y1);
    int cx0 = NAV_MAX((int)floorf(x0 / cs), 0), cx1 = NAV_MIN((int)floorf(x1 / cs), W - 1);
    int cy0 = NAV_MAX((int)floorf(y0 / cs), 0), cy1 = NAV_MIN((int)floorf(y1 / cs), H - 1);
    uint32_t bits = 0;
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) {
            int n, fi = r->floor_of[(size_t)cy * (size_t)W + (size_t)cx];
            const NavFloor *col = world_column(w, cx, cy, &n);
            if (fi >= 0) {
                bits |= 1u << col[fi].contents;
                continue;
            }
            /* No floor drawn: solid rock, or a lower storey seen faintly. */
            bool any = false;
            for (int i = 0; i < n && !any; i++) any = isfinite(col[i].z) && col[i].z <= f->cut;
            if (any) *below = true;
            else *solid = true;
        }
    return bits;
}

void render_world_free(Renderer *r)
{
    image_destroy(r->cells);
    nav_free(r->floor_of);
    nav_free(r->walls);
    nav_free(r->col_cell);
    nav_free(r->area_time);
}

/* }======= */

/* {======= walls, areas, links ======= */

void render_world_walls(Frame *f)
{
    Renderer *r = f->r;
    if (f->v->zoom < ZOOM_WALLS || !r->walls) return;
    float cs = world_cell_size(f->w);
    float thick = fminf(fmaxf(frame_px(f, 0.08f), 1.0f), 3.0f);
    for (int i = 0; i < r->wall_count; i++) {
        const RenderWall *wl = &r->walls[i];
        float x0, y0, x1, y1;
        frame_to_px(f, wl->x0 * cs, wl->y0 * cs, &x0, &y0);
        frame_to_px(f, wl->x1 * cs, wl->y1 * cs, &x1, &y1);
        if (fmaxf(x0, x1) < 0 || fminf(x0, x1) > (float)f->img->width || fmaxf(y0, y1) < 0 ||
            fminf(y0, y1) > (float)f->img->height)
            continue;
        image_draw_line(f->img, x0, y0, x1, y1, thick, nav_rgba(20, 20, 24, 230));
    }
}

/* Is an area on a floor the selector shows? */
static bool area_shown(const Frame *f, const NavArea *a) { return a->zmin <= f->cut; }

void render_world_areas(Frame *f)
{
    if (f->v->zoom < ZOOM_AREA_OUTLINES) return;
    const NavAreaGraph *ag = frame_graph(f, NULL);
    if (!ag) return;
    float cs = world_cell_size(f->w);
    for (uint32_t i = 0; i < area_count(ag); i++) {
        const NavArea *a = area_get(ag, i);
        if (!area_shown(f, a)) continue;
        float x0, y0, x1, y1;
        frame_to_px(f, (float)a->x0 * cs, (float)(a->y1 + 1) * cs, &x0, &y0);
        frame_to_px(f, (float)(a->x1 + 1) * cs, (float)a->y0 * cs, &x1, &y1);
        if (x1 < 0 || y1 < 0 || x0 > (float)f->img->width || y0 > (float)f->img->height) continue;
        bool portal = a->portal >= 0;
        frame_rect_outline(f, x0 + 0.5f, y0 + 0.5f, x1 - 0.5f, y1 - 0.5f, portal ? 2.0f : 1.0f,
                           portal ? nav_rgba(255, 160, 0, 230) : nav_rgba(30, 40, 60, 150));
    }
}

/* A link is shown with every floor, or when an end is on the storey shown. */
static bool link_shown(const Frame *f, const NavAreaGraph *ag, const NavReach *re)
{
    int n = render_level_count(f->r, f->w);
    if (f->v->level < 0 || f->v->level >= n) return area_shown(f, area_get(ag, re->from));
    return render_level_at(f->r, f->w, re->start[2]) == f->v->level ||
           render_level_at(f->r, f->w, re->end[2]) == f->v->level;
}

/* Links that change storey (stairs' top steps, ladders, lifts, drops), at
** their end on the storey shown: a ring in the travel type's colour and
** "to N" where it leaves for storey N, "from N" where it lands from it,
** so each way up or down is seen from both floors it joins. Drawn
** whatever the overlays: they are how storeys connect. One mark per spot,
** as a lift's stops have several links. */
void render_world_storey_links(Frame *f)
{
    int n = render_level_count(f->r, f->w), level = f->v->level;
    if (level < 0 || level >= n) return;
    const NavAreaGraph *ag = frame_graph(f, NULL);
    if (!ag) return;
    float marked[64][2];
    float spot[64][4]; /* world x, y, other storey, travel type of each mark */
    int marks = 0;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *re = area_reach(ag, i);
        int a = render_level_at(f->r, f->w, re->start[2]), b = render_level_at(f->r, f->w, re->end[2]);
        if (a == b || (a != level && b != level)) continue;
        const float *p = a == level ? re->start : re->end;
        int other = a == level ? b : a;
        float px, py;
        frame_to_px(f, p[0], p[1], &px, &py);
        /* One mark per way: a ladder three cells wide, a lift's several
        ** links, a stair's top step are one spot. */
        bool near = false;
        for (int k = 0; k < marks && !near; k++)
            near = (fabsf(marked[k][0] - px) < 12.0f && fabsf(marked[k][1] - py) < 12.0f) ||
                   (spot[k][2] == (float)other && spot[k][3] == (float)re->type && fabsf(spot[k][0] - p[0]) < 2.0f &&
                    fabsf(spot[k][1] - p[1]) < 2.0f);
        if (near) continue;
        if (marks < (int)NAV_ARRAY_COUNT(marked)) {
            spot[marks][0] = p[0], spot[marks][1] = p[1], spot[marks][2] = (float)other,
            spot[marks][3] = (float)re->type;
            marked[marks][0] = px, marked[marks++][1] = py;
        }
        NavColor c = render_travel_color((NavTravelType)re->type);
        image_fill_circle(f->img, px, py, 6.0f, nav_rgba(255, 255, 255, 235));
        image_fill_circle(f->img, px, py, 4.0f, c);
        frame_drew_travel(f, re->type, px, py, px, py);
        if (frame_shows(f, p[0], p[1], p[0], p[1])) f->things |= RENDER_THING_STOREY_MARK;
        char text[24], brief[12];
        snprintf(text, sizeof text, "%s %d", p == re->start ? "to" : "from", other + 1);
        snprintf(brief, sizeof brief, "%d", other + 1);
        /* Beside the mark; the label set moves it off the others (a
        ** hatch's two ends, a lift's stops side by side). */
        frame_label(f, RENDER_LABEL_STOREY, px, py, 6.0f, 6, -7, text, brief, nav_rgba(255, 255, 255, 255));
    }
}

void render_world_links(Frame *f)
{
    const NavAreaGraph *ag = frame_graph(f, NULL);
    if (!ag) return;
    bool walks = f->v->zoom >= ZOOM_WALK_LINKS;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *re = area_reach(ag, i);
        if (re->type == NAV_TRAVEL_WALK && !walks) continue;
        if (!link_shown(f, ag, re)) continue;
        float x0, y0, x1, y1;
        frame_to_px(f, re->start[0], re->start[1], &x0, &y0);
        frame_to_px(f, re->end[0], re->end[1], &x1, &y1);
        NavColor c = render_travel_color((NavTravelType)re->type);
        if (re->type == NAV_TRAVEL_WALK) c.a = 120;
        image_draw_line(f->img, x0, y0, x1, y1, re->type == NAV_TRAVEL_WALK ? 1.0f : 2.0f, c);
        frame_drew_travel(f, re->type, x0, y0, x1, y1);
        image_fill_circle(f->img, x1, y1, re->type == NAV_TRAVEL_WALK ? 1.5f : 3.0f, c);
    }
}

/* }======= */

/* {======= entities and obstacles ======= */

/* An entity's label by the point (x, y), its name alone when short of
** room (brief NULL: the text is the name). */
static void label(Frame *f, RenderLabelKind kind, float x, float y, const char *text, const char *brief, NavColor c)
{
    if (!f->v->labels || f->v->zoom < ZOOM_LABELS || !*text) return;
    float px, py;
    frame_to_px(f, x, y, &px, &py);
    frame_label(f, kind, px, py, 0.0f, 3, 1, text, brief, c);
}

static void jump_pad(const Frame *f, const NavEntity *e)
{
    float o[3];
    entity_origin(e, o);
    const float *t = e->u.jump_pad.target;
    float top = fmaxf(o[2], t[2]) + e->u.jump_pad.apex;
    /* The arc seen from above is a line; dots grow with height so its
    ** shape shows: up from the pad to the apex, down to the landing. */
    for (int k = 0; k <= 16; k++) {
        float s = (float)k / 16.0f;
        float x = o[0] + (t[0] - o[0]) * s, y = o[1] + (t[1] - o[1]) * s;
        /* A parabola through the ends with its top at `top`. */
        float a = o[2], b = t[2];
        float peak = sqrtf(fmaxf(top - a, 0.0f)), fall = sqrtf(fmaxf(top - b, 0.0f));
        float sp = peak + fall > 0 ? peak / (peak + fall) : 0.5f;
        float z = s <= sp ? top - (top - a) * powf((sp - s) / sp, 2.0f)
                          : top - (top - b) * powf((s - sp) / (1.0f - sp), 2.0f);
        float h = (z - fminf(a, b)) / fmaxf(top - fminf(a, b), 0.01f);
        float px, py;
        frame_to_px(f, x, y, &px, &py);
        image_fill_circle(f->img, px, py, 1.5f + 3.0f * h, nav_rgba(230, 200, 0, 220));
    }
}

void render_world_entities(Frame *f)
{
    static const uint32_t THING[NAV_ENTITY_TYPE_COUNT] = {
        [NAV_ENTITY_ELEVATOR] = RENDER_THING_ELEVATOR, [NAV_ENTITY_TELEPORTER] = RENDER_THING_TELEPORTER,
        [NAV_ENTITY_JUMP_PAD] = RENDER_THING_JUMP_PAD, [NAV_ENTITY_DOOR] = RENDER_THING_DOOR,
        [NAV_ENTITY_CRATE] = RENDER_THING_CRATE,       [NAV_ENTITY_SPAWN] = RENDER_THING_SPAWN,
        [NAV_ENTITY_GOAL] = RENDER_THING_GOAL,
    };
    const NavWorld *w = f->w;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        const NavEntityState *st = sim_entity(f->sim, i);
        if (e->mins[2] > f->cut) continue;
        /* Under the storey shown: not drawn over it (a lift's shaft spans
        ** storeys and is drawn on each). */
        if (e->type != NAV_ENTITY_ELEVATOR && e->maxs[2] < f->base) continue;
        char text[96];
        float mn[3], mx[3];
        if ((unsigned)e->type < NAV_ENTITY_TYPE_COUNT && frame_shows(f, e->mins[0], e->mins[1], e->maxs[0], e->maxs[1]))
            f->things |= THING[e->type];
        switch (e->type) {
        case NAV_ENTITY_ELEVATOR: {
            sim_entity_box(f->sim, i, mn, mx);
            bool above = mx[2] > f->cut; /* platform above the floor shown: dim it */
            frame_box(f, mn, mx, above ? nav_rgba(60, 60, 70, 90) : nav_rgba(70, 72, 84, 210),
                      nav_rgba(240, 240, 250, 255));
            snprintf(text, sizeof text, "%s  z %.1f %s", e->name, (double)st->offset,
                     st->phase > 0   ? "up"
                     : st->phase < 0 ? "down"
                                     : "waiting");
            label(f, RENDER_LABEL_ENTITY, mn[0], mn[1], text, e->name, nav_rgba(240, 240, 250, 255));
            break;
        }
        case NAV_ENTITY_TELEPORTER: {
            frame_box(f, e->mins, e->maxs, nav_rgba(140, 40, 255, 110), nav_rgba(170, 90, 255, 255));
            float o[3], px, py, qx, qy;
            entity_origin(e, o);
            frame_to_px(f, o[0], o[1], &px, &py);
            frame_to_px(f, e->u.teleporter.dest[0], e->u.teleporter.dest[1], &qx, &qy);
            frame_arrow(f, px, py, qx, qy, 1.5f, nav_rgba(170, 90, 255, 200));
            image_fill_circle(f->img, qx, qy, 4.0f, nav_rgba(170, 90, 255, 220));
            label(f, RENDER_LABEL_ENTITY, e->mins[0], e->mins[1], e->name, NULL, nav_rgba(220, 190, 255, 255));
            break;
        }
        case NAV_ENTITY_JUMP_PAD:
            frame_box(f, e->mins, e->maxs, nav_rgba(230, 200, 0, 120), nav_rgba(250, 220, 0, 255));
            jump_pad(f, e);
            label(f, RENDER_LABEL_ENTITY, e->mins[0], e->mins[1], e->name, NULL, nav_rgba(250, 230, 120, 255));
            break;
        case NAV_ENTITY_DOOR: {
            sim_entity_box(f->sim, i, mn, mx);
            bool shut = st->phase == 0 && st->offset < 0.01f;
            NavColor fill = st->locked ? nav_rgba(200, 40, 40, 220)
                            : shut     ? nav_rgba(140, 90, 50, 230)
                                       : nav_rgba(140, 90, 50, 70);
            frame_box(f, e->mins, e->maxs, fill, nav_rgba(60, 30, 10, 255));
            snprintf(text, sizeof text, "%s %s", e->name,
                     st->locked  ? "locked"
                     : shut      ? "shut"
                     : st->phase ? "moving"
                                 : "open");
            if (st->locked && frame_shows(f, e->mins[0], e->mins[1], e->maxs[0], e->maxs[1]))
                f->things |= RENDER_THING_LOCKED;
            label(f, RENDER_LABEL_ENTITY, e->mins[0], e->mins[1], text, e->name, nav_rgba(255, 220, 190, 255));
            break;
        }
        case NAV_ENTITY_CRATE: {
            if (!sim_entity_box(f->sim, i, mn, mx)) break;
            frame_box(f, mn, mx, nav_rgba(190, 130, 60, 230), nav_rgba(90, 50, 20, 255));
            float x0, y0, x1, y1;
            frame_to_px(f, mn[0], mn[1], &x0, &y0);
            frame_to_px(f, mx[0], mx[1], &x1, &y1);
            image_draw_line(f->img, x0, y0, x1, y1, 1.0f, nav_rgba(90, 50, 20, 255));
            image_draw_line(f->img, x0, y1, x1, y0, 1.0f, nav_rgba(90, 50, 20, 255));
            break;
        }
        case NAV_ENTITY_SPAWN: {
            float o[3], px, py;
            entity_origin(e, o);
            frame_to_px(f, o[0], o[1], &px, &py);
            float yaw = e->yaw * (float)NAV_PI / 180.0f, s = 7.0f;
            float ax = px + s * cosf(yaw), ay = py - s * sinf(yaw);
            float bx = px + s * cosf(yaw + 2.4f), by = py - s * sinf(yaw + 2.4f);
            float cx = px + s * cosf(yaw - 2.4f), cy = py - s * sinf(yaw - 2.4f);
            image_draw_line(f->img, ax, ay, bx, by, 2.0f, nav_rgba(60, 220, 90, 255));
            image_draw_line(f->img, bx, by, cx, cy, 2.0f, nav_rgba(60, 220, 90, 255));
            image_draw_line(f->img, cx, cy, ax, ay, 2.0f, nav_rgba(60, 220, 90, 255));
            label(f, RENDER_LABEL_ENTITY, o[0], o[1], e->name, NULL, nav_rgba(160, 250, 170, 255));
            break;
        }
        case NAV_ENTITY_GOAL: {
            float o[3], px, py;
            entity_origin(e, o);
            frame_to_px(f, o[0], o[1], &px, &py);
            for (int k = 0; k < 4; k++) {
                float a0 = (float)k * 1.5708f, a1 = a0 + 1.5708f;
                image_draw_line(f->img, px + 7 * cosf(a0), py + 7 * sinf(a0), px + 7 * cosf(a1), py + 7 * sinf(a1),
                                2.0f, nav_rgba(255, 215, 0, 255));
            }
            snprintf(text, sizeof text, "%s%s%s", e->name, e->u.goal.item[0] ? " " : "", e->u.goal.item);
            label(f, RENDER_LABEL_ENTITY, o[0], o[1], text, e->name, nav_rgba(255, 235, 140, 255));
            break;
        }
        default: break;
        }
    }
}

void render_world_obstacles(Frame *f)
{
    for (uint32_t i = 0; i < sim_obstacle_count(f->sim); i++) {
        uint32_t id;
        float mn[3], mx[3];
        if (!sim_obstacle_at(f->sim, i, &id, mn, mx) || mn[2] > f->cut) continue;
        frame_box(f, mn, mx, nav_rgba(230, 40, 60, 110), nav_rgba(255, 60, 80, 255));
        float x0, y0, x1, y1;
        frame_to_px(f, mn[0], mx[1], &x0, &y0);
        frame_to_px(f, mx[0], mn[1], &x1, &y1);
        /* Hatching, so an obstacle reads as one over any floor colour. */
        for (float d = 0; d < (x1 - x0) + (y1 - y0); d += 6.0f) {
            float ax = x0 + d, ay = y0, bx = x0, by = y0 + d;
            if (ax > x1) ay += ax - x1, ax = x1;
            if (by > y1) bx += by - y1, by = y1;
            image_draw_line(f->img, ax, ay, bx, by, 1.0f, nav_rgba(255, 60, 80, 200));
        }
        if (frame_shows(f, mn[0], mn[1], mx[0], mx[1])) f->things |= RENDER_THING_OBSTACLE;
        char text[32], brief[16];
        snprintf(text, sizeof text, "obstacle %u", id);
        snprintf(brief, sizeof brief, "%u", id);
        label(f, RENDER_LABEL_OBSTACLE, mn[0], mn[1], text, brief, nav_rgba(255, 180, 190, 255));
    }
}

/* }======= */

/*
** render.c — frames: the camera, the floor selector, colours shared by the
** layers, picking and click queries (render.h).
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid.h"
#include "script/session.h"

/* {======= life ======= */

Renderer *render_create(NavError *err) { return render_create_font(NULL, err); }

Renderer *render_create_font(const char *font_path, NavError *err)
{
    Renderer *r = nav_calloc(1, sizeof *r);
    if (!r) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the renderer");
        return NULL;
    }
    r->font = font_path ? font_load(font_path, err) : font_load_default(err);
    if (!r->font) {
        nav_free(r);
        return NULL;
    }
    return r;
}

void render_destroy(Renderer *r)
{
    if (!r) return;
    render_world_free(r);
    labels_free(&r->labels);
    font_destroy(r->font);
    nav_free(r);
}

void render_invalidate(Renderer *r)
{
    r->key_valid = false;
    r->levels_of = NULL; /* a reloaded map may sit where the old one was */
}

/* }======= */

/* {======= camera ======= */

void render_view_fit(RenderView *v, const NavWorld *w, int width, int height)
{
    float cs = world_cell_size(w);
    float ww = (float)world_width(w) * cs, wh = (float)world_height(w) * cs;
    /* A little room round the map. */
    float box[4] = { -0.02f * ww, -0.02f * wh, 1.02f * ww, 1.02f * wh };
    render_view_box(v, w, box, 0.0f, width, height);
}

void render_view_box(RenderView *v, const NavWorld *w, const float box[4], float zoom, int width, int height)
{
    (void)w;
    memset(v, 0, sizeof *v);
    /* Leave room for the HUD above and the legend below. */
    float avail = (float)(height - RENDER_FIT_TOP - RENDER_FIT_BOTTOM);
    if (avail < 0.25f * (float)height) avail = 0.25f * (float)height;
    float bw = fmaxf(box[2] - box[0], 1e-3f), bh = fmaxf(box[3] - box[1], 1e-3f);
    v->zoom = zoom > 0.0f ? zoom : fmaxf(fminf((float)width / bw, avail / bh), 0.05f);
    /* The box's middle at the middle of the rows left for the map. */
    float mid_row = (float)RENDER_FIT_TOP + 0.5f * avail;
    v->center[0] = 0.5f * (box[0] + box[2]);
    v->center[1] = 0.5f * (box[1] + box[3]) + (mid_row - 0.5f * (float)height) / v->zoom;
    v->level = -1;
    v->selected = -1;
    v->overlays = RENDER_BIT(RENDER_OBSTACLES) | RENDER_BIT(RENDER_TRACES);
    v->hud = v->legend = v->labels = true;
}

void render_to_world(const RenderView *v, int width, int height, float px, float py, float *x, float *y)
{
    *x = v->center[0] + (px - 0.5f * (float)width) / v->zoom;
    *y = v->center[1] - (py - 0.5f * (float)height) / v->zoom;
}

void render_to_screen(const RenderView *v, int width, int height, float x, float y, float *px, float *py)
{
    *px = 0.5f * (float)width + (x - v->center[0]) * v->zoom;
    *py = 0.5f * (float)height - (y - v->center[1]) * v->zoom;
}

void frame_to_px(const Frame *f, float x, float y, float *px, float *py)
{
    render_to_screen(f->v, f->img->width, f->img->height, x, y, px, py);
}

float frame_px(const Frame *f, float metres) { return metres * f->v->zoom; }

/* }======= */

/* {======= the floor selector ======= */

/* A plain decimal number: storeys are given by number or by name. */
static bool plain_number(const char *s, uint32_t *out)
{
    if (!*s) return false;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > 0xffffffffu) return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* Levels are the authored layers' heights (a stacked map is authored a
** storey per layer); a map of one layer has none and shows every floor.
** Layers within half a metre of each other make one level, named after
** the first of them. */
int render_world_levels(const NavWorld *w, float z[RENDER_MAX_LEVELS], int layer[RENDER_MAX_LEVELS])
{
    int order[NAV_MAX_LAYERS];
    int n = world_layer_count(w), count = 0;
    if (n > NAV_MAX_LAYERS) n = NAV_MAX_LAYERS;
    for (int i = 0; i < n; i++) order[i] = i;
    /* Insertion sort by height, stable so the first authored name wins. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && world_layer(w, order[j - 1])->z > world_layer(w, order[j])->z; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < n && count < RENDER_MAX_LEVELS; i++) {
        float zi = world_layer(w, order[i])->z;
        if (count == 0 || zi > z[count - 1] + 0.5f) {
            z[count] = zi;
            layer[count++] = order[i];
        }
    }
    return count < 2 ? 0 : count;
}

static void find_levels(Renderer *r, const NavWorld *w)
{
    if (r->levels_of == w) return;
    r->levels_of = w;
    r->level_count = render_world_levels(w, r->levels, r->level_layer);
}

int render_level_count(Renderer *r, const NavWorld *w)
{
    find_levels(r, w);
    return r->level_count;
}

float render_level_z(Renderer *r, const NavWorld *w, int level)
{
    find_levels(r, w);
    return level >= 0 && level < r->level_count ? r->levels[level] : INFINITY;
}

const char *render_level_name(Renderer *r, const NavWorld *w, int level)
{
    find_levels(r, w);
    if (level < 0 || level >= r->level_count) return "";
    return world_layer(w, r->level_layer[level])->name;
}

int render_level_at(Renderer *r, const NavWorld *w, float z)
{
    find_levels(r, w);
    return render_levels_at(r->levels, r->level_count, z);
}

/* A body stands up to half a metre under its storey's floor height (the
** top steps of a flight, a lift arriving) and still belongs to it. */
int render_levels_at(const float *levels, int count, float z)
{
    if (count == 0) return -1;
    int level = 0;
    while (level + 1 < count && z >= levels[level + 1] - 0.5f) level++;
    return level;
}

int render_level_parse(Renderer *r, const NavWorld *w, const char *text)
{
    find_levels(r, w);
    int n = r->level_count ? r->level_count : 1;
    uint32_t u;
    if (plain_number(text, &u)) return u >= 1 && u <= (uint32_t)n ? (int)u - 1 : -1;
    for (int i = 0; i < r->level_count; i++)
        if (strcmp(world_layer(w, r->level_layer[i])->name, text) == 0) return i;
    return -1;
}

void render_level_list(Renderer *r, const NavWorld *w, char *out, size_t cap)
{
    find_levels(r, w);
    size_t k = 0;
    out[0] = '\0';
    if (r->level_count == 0) {
        snprintf(out, cap, "1 (one storey)");
        return;
    }
    for (int i = 0; i < r->level_count && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%d (%s)", i ? ", " : "", i + 1, render_level_name(r, w, i));
}

/* Floors at or above the next level's height are cut away. */
float render_cut(Renderer *r, const NavWorld *w, int level)
{
    find_levels(r, w);
    if (level < 0 || level >= r->level_count - 1) return INFINITY;
    return r->levels[level + 1] - 0.05f;
}

/* }======= */

/* {======= colours ======= */

static const NavColor TRAVEL_COLORS[NAV_TRAVEL_COUNT] = {
    { 150, 150, 160, 255 }, /* walk */
    { 190, 120, 60, 255 },  /* crouch */
    { 255, 150, 0, 255 },   /* barrier jump */
    { 230, 40, 40, 255 },   /* walk off ledge */
    { 240, 0, 210, 255 },   /* jump */
    { 150, 80, 20, 255 },   /* climb */
    { 0, 170, 60, 255 },    /* ladder */
    { 0, 100, 255, 255 },   /* swim */
    { 0, 200, 210, 255 },   /* water jump */
    { 140, 40, 255, 255 },  /* teleport */
    { 30, 30, 30, 255 },    /* elevator */
    { 220, 190, 0, 255 },   /* jump pad */
};

NavColor render_travel_color(NavTravelType t)
{
    return (unsigned)t < NAV_TRAVEL_COUNT ? TRAVEL_COLORS[t] : nav_rgba(255, 255, 255, 255);
}

NavColor render_mix(NavColor a, NavColor b, float t)
{
    return nav_rgba((uint8_t)(a.r + (b.r - a.r) * t), (uint8_t)(a.g + (b.g - a.g) * t),
                    (uint8_t)(a.b + (b.b - a.b) * t), (uint8_t)(a.a + (b.a - a.a) * t));
}

/* Hues a golden angle apart, so clusters numbered next to each other differ. */
NavColor render_cluster_tint(uint32_t c)
{
    float h = fmodf((float)c * 0.618034f, 1.0f) * 6.0f, s = 0.45f, v = 0.95f;
    int i = (int)h;
    float fr = h - (float)i, p = v * (1 - s), q = v * (1 - s * fr), t = v * (1 - s * (1 - fr));
    float rgb[6][3] = { { v, t, p }, { q, v, p }, { p, v, t }, { p, q, v }, { t, p, v }, { v, p, q } };
    float *k = rgb[i % 6];
    return nav_rgba((uint8_t)(k[0] * 255), (uint8_t)(k[1] * 255), (uint8_t)(k[2] * 255), 255);
}

/* Near the goal hot (red), far cold (blue). */
NavColor render_heat_color(float t, uint8_t alpha)
{
    static const float STOPS[][3] = {
        { 230, 30, 20 }, { 250, 140, 20 }, { 245, 225, 40 }, { 40, 200, 220 }, { 40, 60, 220 },
    };
    const int last = (int)NAV_ARRAY_COUNT(STOPS) - 1;
    t = fminf(fmaxf(t, 0.0f), 1.0f) * (float)last;
    int i = (int)t;
    if (i >= last) i = last - 1;
    float fr = t - (float)i;
    float c[3];
    for (int k = 0; k < 3; k++) c[k] = STOPS[i][k] + (STOPS[i + 1][k] - STOPS[i][k]) * fr;
    return nav_rgba((uint8_t)c[0], (uint8_t)c[1], (uint8_t)c[2], alpha);
}

/* }======= */

/* {======= shapes and text ======= */

int frame_text(const Frame *f, int x, int y, const char *text, NavColor c)
{
    return font_draw_outlined(f->img, f->r->font, x, y, text, c, nav_rgba(0, 0, 0, 220), 1);
}

int frame_text_box(const Frame *f, int x, int y, const char *text, NavColor c)
{
    int tw = font_text_width(f->r->font, text, 1), lh = font_line_height(f->r->font, 1);
    int lines = 1;
    for (const char *p = text; *p; p++) lines += *p == '\n' && p[1];
    int h = lines * lh + 6;
    image_fill_rect(f->img, x, y, tw + 8, h, nav_rgba(12, 14, 20, 200));
    font_draw(f->img, f->r->font, x + 4, y + 3, text, c, 1);
    return h;
}

void frame_rect_outline(const Frame *f, float x0, float y0, float x1, float y1, float thick, NavColor c)
{
    image_draw_line(f->img, x0, y0, x1, y0, thick, c);
    image_draw_line(f->img, x1, y0, x1, y1, thick, c);
    image_draw_line(f->img, x1, y1, x0, y1, thick, c);
    image_draw_line(f->img, x0, y1, x0, y0, thick, c);
}

void frame_box(const Frame *f, const float mins[3], const float maxs[3], NavColor fill, NavColor edge)
{
    float x0, y0, x1, y1;
    frame_to_px(f, mins[0], maxs[1], &x0, &y0);
    frame_to_px(f, maxs[0], mins[1], &x1, &y1);
    int ix0 = (int)floorf(x0), iy0 = (int)floorf(y0);
    int w = (int)ceilf(x1) - ix0, h = (int)ceilf(y1) - iy0;
    if (fill.a) image_fill_rect(f->img, ix0, iy0, w > 0 ? w : 1, h > 0 ? h : 1, fill);
    if (edge.a) frame_rect_outline(f, x0, y0, x1, y1, 1.5f, edge);
}

void frame_arrow(const Frame *f, float x0, float y0, float x1, float y1, float thick, NavColor c)
{
    image_draw_line(f->img, x0, y0, x1, y1, thick, c);
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1.0f) return;
    dx /= len, dy /= len;
    float head = fminf(8.0f, 0.5f * len) + thick;
    image_draw_line(f->img, x1, y1, x1 - head * (dx * 0.87f - dy * 0.5f), y1 - head * (dy * 0.87f + dx * 0.5f), thick,
                    c);
    image_draw_line(f->img, x1, y1, x1 - head * (dx * 0.87f + dy * 0.5f), y1 - head * (dy * 0.87f - dx * 0.5f), thick,
                    c);
}

bool frame_shows(const Frame *f, float x0, float y0, float x1, float y1)
{
    float ax, ay, bx, by;
    frame_to_px(f, fminf(x0, x1), fmaxf(y0, y1), &ax, &ay);
    frame_to_px(f, fmaxf(x0, x1), fminf(y0, y1), &bx, &by);
    return bx >= 0.0f && ax <= (float)f->img->width && by >= 0.0f && ay <= (float)f->img->height;
}

void frame_label(Frame *f, RenderLabelKind kind, float ax, float ay, float gap, int dx, int dy, const char *text,
                 const char *brief, NavColor c)
{
    if (ax < -200.0f || ay < -200.0f || ax > (float)f->img->width + 200.0f || ay > (float)f->img->height + 200.0f)
        return; /* far off the picture: never placed */
    labels_add(&f->r->labels, kind, ax, ay, gap, dx, dy, text, brief, c);
}

/* Does the segment (x0, y0)-(x1, y1) (picture pixels) touch the picture? */
static bool on_picture(const Frame *f, float x0, float y0, float x1, float y1)
{
    return !(fmaxf(x0, x1) < 0.0f || fminf(x0, x1) > (float)f->img->width || fmaxf(y0, y1) < 0.0f ||
             fminf(y0, y1) > (float)f->img->height);
}

void frame_drew_travel(Frame *f, int type, float x0, float y0, float x1, float y1)
{
    if ((unsigned)type < NAV_TRAVEL_COUNT && on_picture(f, x0, y0, x1, y1)) f->travel |= NAV_TFL_TYPE(type);
}

void frame_drew_trail(Frame *f, int type, float x0, float y0, float x1, float y1)
{
    if ((unsigned)type < NAV_TRAVEL_COUNT && on_picture(f, x0, y0, x1, y1)) f->trail_travel |= NAV_TFL_TYPE(type);
}

int render_label_count(const Renderer *r) { return r->labels.count; }

const RenderLabel *render_label_at(const Renderer *r, int i)
{
    return i >= 0 && i < r->labels.count ? &r->labels.items[i] : NULL;
}

const Legend *render_legend(const Renderer *r) { return &r->legend; }

bool render_scale_bar(const Renderer *r, RenderScaleBar *out)
{
    if (r->scale_shown && out) *out = r->scale;
    return r->scale_shown;
}

/* }======= */

const NavAreaGraph *frame_graph(const Frame *f, NavRouter **router)
{
    if (world_class_count(f->w) == 0) return NULL;
    int cls = f->v->cls >= 0 && f->v->cls < world_class_count(f->w) ? f->v->cls : 0;
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(f->sim, cls, &err);
    if (router) *router = r;
    if (!r && (err.status & NAV_E_NOMEM) && f->r) f->r->nomem = true;
    return r ? router_graph(r) : NULL;
}

const char *render_overlay_name(RenderOverlay o)
{
    static const char *NAMES[RENDER_OVERLAY_COUNT] = {
        "areas",    "links",     "clusters", "heat map", "grid",   "regions",
        "explored", "obstacles", "traces",   "memory",   "trails",
    };
    return (unsigned)o < RENDER_OVERLAY_COUNT ? NAMES[o] : "?";
}

NavStatus render_draw(Renderer *r, NavImage *img, NavSim *sim, const RenderView *v, const RenderInfo *info)
{
    r->nomem = false;
    labels_clear(&r->labels);
    legend_clear(&r->legend);
    r->scale_shown = false;
    static const RenderInfo none = { 0 };
    Frame f = { .r = r, .img = img, .sim = sim, .w = sim_world(sim), .v = v, .info = info ? info : &none };
    f.cut = render_cut(r, f.w, v->level);
    f.base =
        v->level >= 0 && v->level < render_level_count(r, f.w) ? render_level_z(r, f.w, v->level) - 0.5f : -INFINITY;
    image_fill(img, nav_rgba(18, 20, 26, 255));
    render_world_cells(&f);
    render_world_walls(&f);
    if (v->overlays & (RENDER_BIT(RENDER_AREAS) | RENDER_BIT(RENDER_CLUSTERS))) render_world_areas(&f);
    render_world_entities(&f);
    if (v->overlays & RENDER_BIT(RENDER_OBSTACLES)) render_world_obstacles(&f);
    if (v->overlays & RENDER_BIT(RENDER_LINKS)) render_world_links(&f);
    render_world_storey_links(&f);
    render_place(&f);
    render_memory(&f);
    render_trails(&f);
    render_bots(&f);
    render_marks(&f);
    render_hud(&f);
    return r->nomem ? NAV_FAILURE | NAV_E_NOMEM : NAV_OK;
}

/* {======= picking and queries ======= */

static int pick_bot(Renderer *r, const NavSim *sim, const RenderView *v, int width, int height, float px, float py);

int render_pick_bot(const NavSim *sim, const RenderView *v, int width, int height, float px, float py)
{
    return pick_bot(NULL, sim, v, width, height, px, py);
}

int render_pick_bot_shown(Renderer *r, const NavSim *sim, const RenderView *v, int width, int height, float px,
                          float py)
{
    return pick_bot(r, sim, v, width, height, px, py);
}

/* r NULL: every bot may be picked; else only those of the view's storey. */
static int pick_bot(Renderer *r, const NavSim *sim, const RenderView *v, int width, int height, float px, float py)
{
    const NavWorld *w = sim_world(sim);
    int levels = r ? render_level_count(r, w) : 0;
    bool one = v->level >= 0 && v->level < levels;
    float x, y;
    render_to_world(v, width, height, px, py, &x, &y);
    /* Within the body, or a few pixels of it when zoomed out. */
    float slack = 6.0f / v->zoom;
    int best = -1;
    float best_d = INFINITY;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (one && render_level_at(r, w, b->pos[2]) != v->level) continue;
        float rad = world_class(sim_world(sim), b->cls)->radius + slack;
        float dx = b->pos[0] - x, dy = b->pos[1] - y, d = dx * dx + dy * dy;
        if (d <= rad * rad && d < best_d) best = (int)i, best_d = d;
    }
    return best;
}

void render_query(Renderer *r, NavSim *sim, const RenderView *v, float x, float y, char *out, size_t cap)
{
    const NavWorld *w = sim_world(sim);
    int cx, cy;
    if (!world_point_cell(w, x, y, &cx, &cy)) {
        snprintf(out, cap, "(%.2f, %.2f): outside the map", (double)x, (double)y);
        return;
    }
    float cut = render_cut(r, w, v->level);
    int n;
    const NavFloor *col = world_column(w, cx, cy, &n);
    const NavFloor *fl = NULL;
    /* The floor the picture draws (render_world.c, make_cells): voids too. */
    for (int i = 0; i < n; i++)
        if ((isfinite(col[i].z) || col[i].contents == NAV_CONTENTS_VOID) && col[i].z <= cut) fl = &col[i];
    size_t k = (size_t)snprintf(out, cap, "(%.2f, %.2f) cell %d,%d", (double)x, (double)y, cx, cy);
    if (k >= cap) return;
    if (!fl || fl->contents == NAV_CONTENTS_VOID) {
        snprintf(out + k, cap - k, fl ? ": void (no bottom)" : ": solid");
        return;
    }
    k += (size_t)snprintf(out + k, cap - k, ": %s z %.2f", world_contents_name((NavContents)fl->contents),
                          (double)world_standing_height(fl));
    if (k >= cap) return;
    Frame f = { .r = r, .sim = sim, .w = w, .v = v };
    NavRouter *router = NULL;
    const NavAreaGraph *ag = frame_graph(&f, &router);
    float p[3] = { x, y, world_standing_height(fl) };
    uint32_t a = ag ? area_point_area(ag, p[0], p[1], p[2]) : NAV_NO_AREA;
    if (a != NAV_NO_AREA) {
        const NavArea *ar = area_get(ag, a);
        k += (size_t)snprintf(out + k, cap - k, ", area %u cluster %u%s", a, ar->cluster,
                              ar->portal >= 0 ? " (portal)" : "");
        if (k >= cap) return;
        if (v->selected >= 0 && (uint32_t)v->selected < sim_bot_count(sim)) {
            const NavBot *b = sim_bot(sim, (uint32_t)v->selected);
            uint32_t from = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
            NavRoute q;
            if (from != NAV_NO_AREA && NAV_SUCCEEDED(router_route(router, from, b->pos, a, NAV_TFL_DEFAULT, &q)) &&
                q.time != ROUTE_UNREACHABLE)
                k += (size_t)snprintf(out + k, cap - k, ", %.2f s from bot %d", q.time / 100.0, v->selected);
            else k += (size_t)snprintf(out + k, cap - k, ", no route from bot %d", v->selected);
            if (k >= cap) return;
        }
    }
    NavError err;
    struct NavGrid *g = sim_grid(sim, &err);
    int gx, gy;
    if (g && grid_cell_of(g, x, y, &gx, &gy)) {
        int cls = v->cls >= 0 && v->cls < grid_class_count(g) ? v->cls : 0;
        snprintf(out + k, cap - k, ", grid %d,%d %s", gx, gy, grid_passable(g, cls, gx, gy) ? "passable" : "blocked");
    }
}

/* }======= */

/*
** grid.c — navcell passability: terrain rules, clearance, obstructions,
** dirty-region updates and the bitsets the searches read.
**
** Per cell three masks hold one bit per class: terrain_raw (the class's
** terrain rules on the lowest floor), terrain (after clearance) and blocked
** (terrain or an obstruction). Terrain never changes after a build, so an
** obstruction change recomputes only the obstruction part of the cells in
** its dirty box and ORs it with terrain; nothing else is touched.
*/
#include "grid/grid_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"

/* {======= terrain rules ======= */

static float standing_height(const NavFloor *f)
{
    bool liquid =
        f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME;
    return liquid ? f->top : f->z;
}

/* The floor a grid cell stands for: the lowest of its column, or NULL for
** a solid column or a void. */
static const NavFloor *ground(const NavGrid *g, int x, int y)
{
    int n;
    const NavFloor *f = world_column(g->world, x, y, &n);
    if (n == 0 || f[0].contents == NAV_CONTENTS_VOID) return NULL;
    return &f[0];
}

static bool class_blocked_by_floor(const NavClass *c, const NavFloor *f)
{
    switch (f->contents) {
    case NAV_CONTENTS_CLIP:
    case NAV_CONTENTS_LAVA:
    case NAV_CONTENTS_SLIME:
    case NAV_CONTENTS_VOID: return true;
    case NAV_CONTENTS_WATER:
        if (f->top - f->z > c->wade_depth && !class_can_swim(c)) return true;
        break;
    default: break;
    }
    float headroom = f->ceiling - standing_height(f);
    if (headroom < c->height && !(class_can_crouch(c) && headroom >= c->crouch_height)) return true;
    return false;
}

static uint32_t terrain_mask(const NavGrid *g, int x, int y)
{
    const NavFloor *f = ground(g, x, y);
    if (!f) return (g->ncls >= 32) ? 0xFFFFFFFFu : ((1u << g->ncls) - 1u);
    uint32_t mask = 0;
    float h = standing_height(f);
    static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
    float dh_max = 0.0f;
    for (int k = 0; k < 4; k++) {
        int nx = x + DX[k], ny = y + DY[k];
        if (!world_cell_valid(g->world, nx, ny)) continue;
        const NavFloor *nf = ground(g, nx, ny);
        if (!nf) continue; /* walls and voids block through clearance, not as steps */
        float dh = fabsf(standing_height(nf) - h);
        if (dh > dh_max) dh_max = dh;
    }
    for (int c = 0; c < g->ncls; c++) {
        const NavClass *k = &g->cls[c].cls;
        float max_step = fminf(k->step, g->cs * tanf(k->max_slope * (float)NAV_PI / 180.0f));
        if (class_blocked_by_floor(k, f) || dh_max > max_step + 1e-4f) mask |= 1u << c;
    }
    return mask;
}

/* }======= */

/* {======= clearance ======= */

/* Distance, in cells, from a cell centre to the square of a cell dx, dy
** away, Euclidean or Chebyshev. */
static float offset_distance(GridClearance mode, int dx, int dy)
{
    float ex = fmaxf(0.0f, (float)abs(dx) - 0.5f), ey = fmaxf(0.0f, (float)abs(dy) - 0.5f);
    return mode == GRID_CLEARANCE_SQUARE ? fmaxf(ex, ey) : sqrtf(ex * ex + ey * ey);
}

static NavStatus build_stamp(NavGrid *g, GridClassData *d, NavError *err)
{
    float r = d->radius;
    int reach = (int)ceilf(r + 0.5f);
    size_t cap = (size_t)(2 * reach + 1) * (size_t)(2 * reach + 1);
    d->stamp = nav_malloc(cap * 2 * sizeof *d->stamp);
    if (!d->stamp) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory building the navcell grid");
    d->stamp_count = 0;
    /* Nearest offsets first: a blocked cell is usually found early. */
    for (int ring = 0; ring <= reach; ring++) {
        for (int dy = -ring; dy <= ring; dy++) {
            for (int dx = -ring; dx <= ring; dx++) {
                if (abs(dx) != ring && abs(dy) != ring) continue;
                if (ring > 0 && !(offset_distance(g->mode, dx, dy) < r)) continue;
                d->stamp[2 * d->stamp_count] = (int16_t)dx;
                d->stamp[2 * d->stamp_count + 1] = (int16_t)dy;
                d->stamp_count++;
            }
        }
    }
    return NAV_OK;
}

/* Terrain after clearance for one cell: blocked for a class when a raw
** blocked cell, or the outside of the map, lies inside its stamp. */
static uint32_t clearance_mask(const NavGrid *g, int x, int y)
{
    uint32_t mask = 0;
    for (int c = 0; c < g->ncls; c++) {
        const GridClassData *d = &g->cls[c];
        uint32_t bit = 1u << c;
        for (int i = 0; i < d->stamp_count; i++) {
            int nx = x + d->stamp[2 * i], ny = y + d->stamp[2 * i + 1];
            if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h || (g->terrain_raw[grid_index(g, nx, ny)] & bit)) {
                mask |= bit;
                break;
            }
        }
    }
    return mask;
}

/* }======= */

/* {======= obstructions: the corner rule ======= */

typedef struct ShapeCells {
    float cx, cy, ux, uy, hw, hh; /* in cells; (ux, uy) the shape's x axis */
} ShapeCells;

static ShapeCells shape_in_cells(const NavGrid *g, const GridShape *s)
{
    ShapeCells c = { s->x / g->cs, s->y / g->cs, cosf(s->angle), sinf(s->angle), s->hw / g->cs, s->hh / g->cs };
    return c;
}

static float distance_to_shape(const ShapeCells *s, float px, float py)
{
    float rx = px - s->cx, ry = py - s->cy;
    float lx = rx * s->ux + ry * s->uy;
    float ly = -rx * s->uy + ry * s->ux;
    float ex = fmaxf(0.0f, fabsf(lx) - s->hw), ey = fmaxf(0.0f, fabsf(ly) - s->hh);
    return sqrtf(ex * ex + ey * ey);
}

/* The clearance a class rasterizes a shape with: its radius, or more for a
** thin shape so that it blocks at any angle. In cells. */
static float shape_clearance(const GridClassData *d, const ShapeCells *s)
{
    float narrow = (3.0f - 2.0f * fminf(s->hw, s->hh)) * 0.5f;
    return fmaxf(d->radius, narrow);
}

/* Largest distance from the shape to a corner of cell (x, y). */
static float cell_far_distance(const ShapeCells *s, int x, int y)
{
    float a = distance_to_shape(s, (float)x, (float)y);
    float b = distance_to_shape(s, (float)x + 1.0f, (float)y);
    float c = distance_to_shape(s, (float)x, (float)y + 1.0f);
    float d = distance_to_shape(s, (float)x + 1.0f, (float)y + 1.0f);
    return fmaxf(fmaxf(a, b), fmaxf(c, d));
}

bool grid_shape_blocks_cell(const NavGrid *g, int cls, const GridShape *shape, int x, int y)
{
    if (cls < 0 || cls >= g->ncls) return false;
    ShapeCells s = shape_in_cells(g, shape);
    /* The same float comparison as the rasterizer, so tools agree with it. */
    return cell_far_distance(&s, x, y) <= shape_clearance(&g->cls[cls], &s) + 1e-5f;
}

static void obstruction_box(const NavGrid *g, GridObstruction *o)
{
    ShapeCells s = shape_in_cells(g, &o->shape);
    float reach = 0.0f;
    for (int c = 0; c < g->ncls; c++) reach = fmaxf(reach, shape_clearance(&g->cls[c], &s));
    float ex = fabsf(s.ux) * s.hw + fabsf(s.uy) * s.hh + reach;
    float ey = fabsf(s.uy) * s.hw + fabsf(s.ux) * s.hh + reach;
    o->x0 = (int)floorf(s.cx - ex) - 1;
    o->y0 = (int)floorf(s.cy - ey) - 1;
    o->x1 = (int)floorf(s.cx + ex) + 1;
    o->y1 = (int)floorf(s.cy + ey) + 1;
}

/* }======= */

/* {======= bitsets ======= */

static void set_line_bit(uint64_t *line, int x, bool on)
{
    unsigned b = (unsigned)(x + GRID_PAD);
    uint64_t m = 1ull << (b & 63);
    if (on) line[b >> 6] |= m;
    else line[b >> 6] &= ~m;
}

static void write_cell_bits(NavGrid *g, int x, int y, uint32_t blocked, uint32_t changed)
{
    for (int c = 0; c < g->ncls; c++) {
        uint32_t bit = 1u << c;
        if (!(changed & bit)) continue;
        GridClassData *d = &g->cls[c];
        bool open = !(blocked & bit);
        set_line_bit(d->rows + (size_t)(y + 1) * (size_t)g->row_words, x, open);
        set_line_bit(d->cols + (size_t)(x + 1) * (size_t)g->col_words, y, open);
    }
}

/* Stops of one line from its open bits and its two neighbour lines: a scan
** towards higher positions stops at c when c is blocked or a side cell
** opens at c after being blocked at c - 1; towards lower positions, after
** being blocked at c + 1. */
static void compute_stop_line(uint64_t *up, uint64_t *down, const uint64_t *cur, const uint64_t *a, const uint64_t *b,
                              int words)
{
    for (int i = 0; i < words; i++) {
        uint64_t ap = i > 0 ? a[i - 1] >> 63 : 0, bp = i > 0 ? b[i - 1] >> 63 : 0;
        uint64_t an = i + 1 < words ? a[i + 1] << 63 : 0, bn = i + 1 < words ? b[i + 1] << 63 : 0;
        uint64_t a_before = (a[i] << 1) | ap, b_before = (b[i] << 1) | bp;
        uint64_t a_after = (a[i] >> 1) | an, b_after = (b[i] >> 1) | bn;
        up[i] = ~cur[i] | (a[i] & ~a_before) | (b[i] & ~b_before);
        down[i] = ~cur[i] | (a[i] & ~a_after) | (b[i] & ~b_after);
    }
}

/* Recompute the stops of rows y0-1..y1+1 and columns x0-1..x1+1. */
static void refresh_stops(NavGrid *g, int cls, int x0, int y0, int x1, int y1)
{
    GridClassData *d = &g->cls[cls];
    size_t rw = (size_t)g->row_words, cw = (size_t)g->col_words;
    for (int y = NAV_MAX(y0 - 1, 0); y <= NAV_MIN(y1 + 1, g->h - 1); y++) {
        size_t at = (size_t)(y + 1) * rw;
        compute_stop_line(d->stop_e + at, d->stop_w + at, d->rows + at, d->rows + at + rw, d->rows + at - rw,
                          g->row_words);
    }
    for (int x = NAV_MAX(x0 - 1, 0); x <= NAV_MIN(x1 + 1, g->w - 1); x++) {
        size_t at = (size_t)(x + 1) * cw;
        compute_stop_line(d->stop_n + at, d->stop_s + at, d->cols + at, d->cols + at + cw, d->cols + at - cw,
                          g->col_words);
    }
}

/* }======= */

/* {======= dirty-region update ======= */

/* Recompute blocked for cells [x0, x1] x [y0, y1] from terrain and the
** live obstructions; fix the bitsets and then the hierarchy of the classes
** that changed. */
static void update_region(NavGrid *g, int x0, int y0, int x1, int y1)
{
    x0 = NAV_MAX(x0, 0);
    y0 = NAV_MAX(y0, 0);
    x1 = NAV_MIN(x1, g->w - 1);
    y1 = NAV_MIN(y1, g->h - 1);
    if (x0 > x1 || y0 > y1) return;

    /* Obstructions that can touch the region, found once. Stack storage for
    ** the common case; past it, a second pass tests all of them. */
    enum { LOCAL = 64 };
    int local[LOCAL];
    int nlocal = 0;
    bool overflow = false;
    for (int i = 0; i < g->obs_count; i++) {
        const GridObstruction *o = &g->obs[i];
        if (!(o->generation & 1u)) continue;
        if (o->x1 < x0 || o->x0 > x1 || o->y1 < y0 || o->y0 > y1) continue;
        if (nlocal < LOCAL) local[nlocal++] = i;
        else overflow = true;
    }

    uint32_t all = g->ncls >= 32 ? 0xFFFFFFFFu : ((1u << g->ncls) - 1u);
    uint32_t changed_any = 0, blocked_any = 0;
    for (int y = y0; y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            int idx = grid_index(g, x, y);
            uint32_t mask = g->terrain[idx];
            int count = overflow ? g->obs_count : nlocal;
            for (int k = 0; k < count && mask != all; k++) {
                const GridObstruction *o = &g->obs[overflow ? k : local[k]];
                if (!(o->generation & 1u) || x < o->x0 || x > o->x1 || y < o->y0 || y > o->y1) continue;
                ShapeCells s = shape_in_cells(g, &o->shape);
                float far = cell_far_distance(&s, x, y);
                for (int c = 0; c < g->ncls; c++)
                    if (far <= shape_clearance(&g->cls[c], &s) + 1e-5f) mask |= 1u << c;
            }
            uint32_t changed = mask ^ g->blocked[idx];
            if (changed) {
                g->blocked[idx] = mask;
                write_cell_bits(g, x, y, mask, changed);
                changed_any |= changed;
                blocked_any |= changed & mask;
            }
        }
    }
    g->stats.updates++;
    g->stats.cells_updated += (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
    for (int c = 0; c < g->ncls; c++) {
        if (!(changed_any & (1u << c))) continue;
        refresh_stops(g, c, x0, y0, x1, y1);
        grid_hier_update(g, c, x0, y0, x1, y1, !(blocked_any & (1u << c)));
    }
}

/* }======= */

/* {======= building ======= */

static void free_class(GridClassData *d)
{
    nav_free(d->stamp);
    nav_free(d->rows);
    nav_free(d->cols);
    nav_free(d->stop_e);
    nav_free(d->stop_w);
    nav_free(d->stop_n);
    nav_free(d->stop_s);
    grid_hier_free(d);
    memset(d, 0, sizeof *d);
}

NavStatus grid_rebuild(NavGrid *g, NavError *err)
{
    uint64_t t0 = timer_now_ns();
    int cells = g->w * g->h;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) g->terrain_raw[grid_index(g, x, y)] = terrain_mask(g, x, y);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) g->terrain[grid_index(g, x, y)] = clearance_mask(g, x, y);
    memcpy(g->blocked, g->terrain, (size_t)cells * sizeof *g->blocked);

    for (int c = 0; c < g->ncls; c++) {
        GridClassData *d = &g->cls[c];
        memset(d->rows, 0, (size_t)(g->h + 2) * (size_t)g->row_words * sizeof(uint64_t));
        memset(d->cols, 0, (size_t)(g->w + 2) * (size_t)g->col_words * sizeof(uint64_t));
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++)
                if (!(g->terrain[grid_index(g, x, y)] & (1u << c))) {
                    set_line_bit(d->rows + (size_t)(y + 1) * (size_t)g->row_words, x, true);
                    set_line_bit(d->cols + (size_t)(x + 1) * (size_t)g->col_words, y, true);
                }
    }
    /* Obstructions on top, through the same path as run-time changes. */
    for (int i = 0; i < g->obs_count; i++) {
        GridObstruction *o = &g->obs[i];
        if (!(o->generation & 1u)) continue;
        obstruction_box(g, o);
    }
    if (g->obs_live > 0) {
        uint64_t updates = g->stats.updates, cu = g->stats.cells_updated;
        /* One pass over the whole map is cheaper than one per obstruction;
        ** the hierarchy is labelled fully below anyway. */
        update_region(g, 0, 0, g->w - 1, g->h - 1);
        g->stats.updates = updates;
        g->stats.cells_updated = cu;
    }
    for (int c = 0; c < g->ncls; c++) {
        refresh_stops(g, c, 0, 0, g->w - 1, g->h - 1);
        grid_hier_update(g, c, 0, 0, g->w - 1, g->h - 1, false);
    }
    g->stats.build_ms = timer_ms_since(t0);
    (void)err;
    return NAV_OK;
}

NavGrid *grid_create(const NavWorld *world, const NavGridDesc *desc, NavError *err)
{
    NavGridDesc d0 = { 0 };
    if (!desc) desc = &d0;
    int chunk = desc->chunk_size ? desc->chunk_size : GRID_DEFAULT_CHUNK;
    if (chunk < 4 || chunk > GRID_MAX_CHUNK) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "chunk_size", "chunk size must be from 4 to %d, got %d",
                      GRID_MAX_CHUNK, chunk);
        return NULL;
    }
    if (!(desc->clearance_margin >= 0.0f && desc->clearance_margin <= 1.0f)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "clearance_margin", "clearance margin must be from 0 to 1 m");
        return NULL;
    }
    if (!(desc->roomy_margin >= 0.0f && desc->roomy_margin <= 2.0f)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "roomy_margin", "roomy margin must be from 0 to 2 m");
        return NULL;
    }
    if (world_class_count(world) < 1) {
        nav_error_set(err, NAV_E_PARAM, world_source(world), 0, 0, NULL, "the world has no passability class");
        return NULL;
    }
    NavGrid *g = nav_calloc(1, sizeof *g);
    if (!g) goto nomem;
    g->world = world;
    g->w = world_width(world);
    g->h = world_height(world);
    g->cs = world_cell_size(world);
    g->mode = desc->clearance;
    g->margin = desc->clearance_margin;
    g->chunk = chunk;
    g->chunks_x = (g->w + chunk - 1) / chunk;
    g->chunks_y = (g->h + chunk - 1) / chunk;
    g->row_words = (g->w + 2 * GRID_PAD + 63) / 64 + 1;
    g->col_words = (g->h + 2 * GRID_PAD + 63) / 64 + 1;
    g->nworld = NAV_MIN(world_class_count(world), GRID_MAX_CLASSES);
    g->ncls = desc->roomy_margin > 0.0f ? NAV_MIN(2 * g->nworld, GRID_MAX_CLASSES) : g->nworld;
    g->obs_free = -1;
    size_t cells = (size_t)g->w * (size_t)g->h;
    g->terrain_raw = nav_malloc(cells * sizeof *g->terrain_raw);
    g->terrain = nav_malloc(cells * sizeof *g->terrain);
    g->blocked = nav_malloc(cells * sizeof *g->blocked);
    if (!g->terrain_raw || !g->terrain || !g->blocked) goto nomem;
    for (int c = 0; c < g->ncls; c++) {
        GridClassData *d = &g->cls[c];
        int wc = c < g->nworld ? c : c - g->nworld; /* a twin's world class */
        d->cls = *world_class(world, wc);
        /* A twin is kept roomy_margin further from what blocks: where
        ** that passes the next ring of cells round the body (a class whose
        ** narrowest lane is one body wide), the twin's narrowest lane has
        ** room for two to pass; else the twin is its class over again. */
        d->radius = (d->cls.radius + g->margin + (c < g->nworld ? 0.0f : desc->roomy_margin)) / g->cs;
        if (NAV_FAILED(build_stamp(g, d, err))) goto fail;
        size_t row_line_words = (size_t)(g->h + 2) * (size_t)g->row_words;
        size_t col_line_words = (size_t)(g->w + 2) * (size_t)g->col_words;
        d->rows = nav_calloc(row_line_words, sizeof(uint64_t));
        d->cols = nav_calloc(col_line_words, sizeof(uint64_t));
        d->stop_e = nav_calloc(row_line_words, sizeof(uint64_t));
        d->stop_w = nav_calloc(row_line_words, sizeof(uint64_t));
        d->stop_n = nav_calloc(col_line_words, sizeof(uint64_t));
        d->stop_s = nav_calloc(col_line_words, sizeof(uint64_t));
        if (!d->rows || !d->cols || !d->stop_e || !d->stop_w || !d->stop_n || !d->stop_s) goto nomem;
        if (NAV_FAILED(grid_hier_alloc(g, c))) goto nomem;
    }
    if (NAV_FAILED(grid_rebuild(g, err))) goto fail;
    return g;

nomem:
    nav_error_set(err, NAV_E_NOMEM, world_source(world), 0, 0, NULL, "out of memory building the navcell grid");
fail:
    grid_destroy(g);
    return NULL;
}

void grid_destroy(NavGrid *g)
{
    if (!g) return;
    for (int c = 0; c < GRID_MAX_CLASSES; c++) free_class(&g->cls[c]);
    nav_free(g->terrain_raw);
    nav_free(g->terrain);
    nav_free(g->blocked);
    nav_free(g->obs);
    nav_free(g);
}

/* }======= */

/* {======= queries ======= */

int grid_width(const NavGrid *g) { return g->w; }
int grid_height(const NavGrid *g) { return g->h; }
float grid_cell_size(const NavGrid *g) { return g->cs; }
const NavWorld *grid_world(const NavGrid *g) { return g->world; }
GridClearance grid_clearance_mode(const NavGrid *g) { return g->mode; }
int grid_class_count(const NavGrid *g) { return g->nworld; }

int grid_roomy_class(const NavGrid *g, int cls)
{
    return (cls >= 0 && cls < g->nworld && g->nworld + cls < g->ncls) ? g->nworld + cls : -1;
}

const NavClass *grid_class(const NavGrid *g, int cls) { return (cls >= 0 && cls < g->ncls) ? &g->cls[cls].cls : NULL; }

int grid_find_class(const NavGrid *g, const char *name)
{
    for (int c = 0; c < g->nworld; c++)
        if (strcmp(g->cls[c].cls.name, name) == 0) return c;
    return -1;
}

bool grid_in_bounds(const NavGrid *g, int x, int y) { return x >= 0 && y >= 0 && x < g->w && y < g->h; }

bool grid_passable(const NavGrid *g, int cls, int x, int y)
{
    if (cls < 0 || cls >= g->ncls || !grid_in_bounds(g, x, y)) return false;
    return !(g->blocked[grid_index(g, x, y)] & (1u << cls));
}

bool grid_terrain_blocked(const NavGrid *g, int cls, int x, int y)
{
    if (cls < 0 || cls >= g->ncls || !grid_in_bounds(g, x, y)) return true;
    return (g->terrain_raw[grid_index(g, x, y)] & (1u << cls)) != 0;
}

bool grid_cell_of(const NavGrid *g, float x, float y, int *cx, int *cy)
{
    return world_point_cell(g->world, x, y, cx, cy);
}

void grid_cell_center(const NavGrid *g, int cx, int cy, float *x, float *y)
{
    *x = ((float)cx + 0.5f) * g->cs;
    *y = ((float)cy + 0.5f) * g->cs;
}

const uint64_t *grid_row_bits(const NavGrid *g, int cls, int y) { return grid_row_line(g, cls, y); }
const uint64_t *grid_col_bits(const NavGrid *g, int cls, int x) { return grid_col_line(g, cls, x); }

void grid_stats(const NavGrid *g, GridStats *out)
{
    *out = g->stats;
    out->classes = g->ncls;
    out->chunks = g->chunks_x * g->chunks_y;
    out->obstructions = g->obs_live;
    size_t cells = (size_t)g->w * (size_t)g->h;
    size_t bytes = sizeof *g + 3 * cells * sizeof(uint32_t) + (size_t)g->obs_cap * sizeof(GridObstruction);
    for (int c = 0; c < g->ncls; c++) {
        const GridClassData *d = &g->cls[c];
        bytes += (size_t)d->stamp_count * 2 * sizeof(int16_t);
        bytes += 3 * ((size_t)(g->h + 2) * (size_t)g->row_words + (size_t)(g->w + 2) * (size_t)g->col_words) *
                 sizeof(uint64_t);
        bytes += grid_hier_memory(g, c);
    }
    out->bytes = bytes;
}

/* }======= */

/* {======= obstruction handles ======= */

static GridObstruction *live_obstruction(const NavGrid *g, GridObstructionId id)
{
    uint32_t slot = id.id & 0xFFFFFu, gen = id.id >> 20;
    if (id.id == 0 || slot == 0 || (int)slot > g->obs_count) return NULL;
    GridObstruction *o = &g->obs[slot - 1];
    if (!(o->generation & 1u) || (o->generation & 0xFFFu) != gen) return NULL;
    return o;
}

static NavStatus check_shape(const NavGrid *g, const GridShape *s, NavError *err)
{
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->hw) || !isfinite(s->hh) || !isfinite(s->angle))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "shape", "obstruction values must be finite");
    if (s->hw < 0.0f || s->hh < 0.0f)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "shape", "half extents must not be negative (got %g, %g)",
                             (double)s->hw, (double)s->hh);
    float limit = 4.0f * (float)NAV_MAX(g->w, g->h) * g->cs;
    if (fabsf(s->x) > limit || fabsf(s->y) > limit || s->hw > limit || s->hh > limit)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "shape", "obstruction is far outside the map");
    return NAV_OK;
}

NavStatus grid_add_obstruction(NavGrid *g, const GridShape *shape, GridObstructionId *out, NavError *err)
{
    if (out) out->id = 0;
    NavStatus s = check_shape(g, shape, err);
    if (NAV_FAILED(s)) return s;
    int slot;
    if (g->obs_free >= 0) {
        slot = g->obs_free;
        g->obs_free = g->obs[slot].next_free;
    } else {
        if (g->obs_count >= 0xFFFFF)
            return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "too many obstructions (%d)", g->obs_count);
        if (g->obs_count == g->obs_cap) {
            int ncap = g->obs_cap ? g->obs_cap * 2 : 64;
            GridObstruction *n = nav_realloc(g->obs, (size_t)ncap * sizeof *n);
            if (!n) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for obstructions");
            g->obs = n;
            g->obs_cap = ncap;
        }
        slot = g->obs_count++;
        g->obs[slot].generation = 0;
    }
    GridObstruction *o = &g->obs[slot];
    o->generation = (o->generation + 1u) | 1u; /* odd: live */
    o->shape = *shape;
    o->next_free = -1;
    obstruction_box(g, o);
    g->obs_live++;
    update_region(g, o->x0, o->y0, o->x1, o->y1);
    if (out) *out = grid_obstruction_handle(g, slot);
    return NAV_OK;
}

NavStatus grid_move_obstruction(NavGrid *g, GridObstructionId id, const GridShape *shape, NavError *err)
{
    GridObstruction *o = live_obstruction(g, id);
    if (!o) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "id", "no live obstruction with id %u", id.id);
    NavStatus s = check_shape(g, shape, err);
    if (NAV_FAILED(s)) return s;
    int ox0 = o->x0, oy0 = o->y0, ox1 = o->x1, oy1 = o->y1;
    o->shape = *shape;
    obstruction_box(g, o);
    /* One region when the boxes overlap, two otherwise. */
    if (o->x0 <= ox1 && ox0 <= o->x1 && o->y0 <= oy1 && oy0 <= o->y1) {
        update_region(g, NAV_MIN(ox0, o->x0), NAV_MIN(oy0, o->y0), NAV_MAX(ox1, o->x1), NAV_MAX(oy1, o->y1));
    } else {
        update_region(g, ox0, oy0, ox1, oy1);
        update_region(g, o->x0, o->y0, o->x1, o->y1);
    }
    return NAV_OK;
}

NavStatus grid_remove_obstruction(NavGrid *g, GridObstructionId id, NavError *err)
{
    GridObstruction *o = live_obstruction(g, id);
    if (!o) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "id", "no live obstruction with id %u", id.id);
    o->generation++; /* even: dead; the next add makes it odd again with a new value */
    int slot = (int)(o - g->obs);
    /* Ids keep 12 bits of generation. A slot whose generations are used up
    ** is retired rather than recycled, so no id is ever handed out twice. */
    if (o->generation < 0xFFEu) {
        o->next_free = g->obs_free;
        g->obs_free = slot;
    }
    g->obs_live--;
    update_region(g, o->x0, o->y0, o->x1, o->y1);
    return NAV_OK;
}

bool grid_obstruction_shape(const NavGrid *g, GridObstructionId id, GridShape *out)
{
    const GridObstruction *o = live_obstruction(g, id);
    if (!o) return false;
    if (out) *out = o->shape;
    return true;
}

int grid_obstruction_count(const NavGrid *g) { return g->obs_live; }

/* }======= */

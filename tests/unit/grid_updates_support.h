/*
** grid_updates_support.h — random worlds, the obstruction model and the
** checks of the grid update tests, shared by test_grid_updates.c and
** test_grid_layers.c.
*/
#ifndef NAV_GRID_UPDATES_SUPPORT_H
#define NAV_GRID_UPDATES_SUPPORT_H

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "core/alloc.h"
#include "test_support.h"
#include "core/timer.h"
#include "grid/grid.h"
#include "map/map.h"
#include "grid_oracle.h"

#define EPS_M 2e-4

#define MAX_LIVE 48

#define PI 3.14159265358979323846

/* {======= reporting ======= */

typedef struct Tally {
    int failures;
    char first[768];
} Tally;

__attribute__((format(printf, 2, 3))) static void fail(Tally *t, const char *fmt, ...)
{
    if (t->failures < 6) {
        char msg[768];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (t->failures == 0) memcpy(t->first, msg, sizeof msg);
        cr_log_error("%s", msg);
    }
    t->failures++;
}

/* }======= */

/* {======= random worlds ======= */

typedef struct TWorld {
    int w, h;
    double s;
    uint64_t seed;
    char *cells;                               /* legend character of cell (x, y), y north */
    char *src;                                 /* the Lua source */
    NavWorld *world;
    NavGrid *grid;
    NavGridDesc desc;
    int ncls;
    double radius[GRID_MAX_CLASSES];
    bool swims[GRID_MAX_CLASSES];
    int8_t *base[GRID_MAX_CLASSES];            /* terrain + clearance: 1 passable, 0 blocked, -1 too close to call */
    int close_calls;                           /* cells the base could not call */
} TWorld;

__attribute__((unused)) static const char CLASSES_LUA[] =
    "  classes = {\n"
    "    { name = 'point', radius = 0 },\n"
    "    { name = 'wide', radius = 0.9 },\n"
    "    { name = 'huge', radius = 1.3, swim_speed = 0 },\n"
    "    { name = 'dry', radius = 0, swim_speed = 0 },\n"
    "  },\n";

__attribute__((unused)) static const char LEGEND_LUA[] =
    "  legend = {\n"
    "    ['~'] = { type = 'water', depth = 1.5 },\n"
    "    ['-'] = { type = 'water', depth = 0.3 },\n"
    "    ['='] = { type = 'floor', h = 0.2 },\n"
    "    ['L'] = { type = 'floor', ceiling = 0.9 },\n"
    "  },\n";

/* The terrain rule for this legend, from the classes' documented values:
** walls are solid; a 0.9 m ceiling is under every class's height and
** crouch height (1.8, 1.2); 1.5 m of water is deeper than the wade depth
** (0.6), so only swimmers cross it; 0.3 m is waded; a 0.2 m rise is under
** the step height (0.45) and the slope limit (45 degrees) at 0.5 m cells. */
static inline bool legend_blocked(char c, bool swims)
{
    switch (c) {
    case '#':
    case 'L': return true;
    case '~': return !swims;
    default: return false;
    }
}

static inline bool tw_blocked(const TWorld *tw, int cls, int x, int y)
{
    if (x < 0 || y < 0 || x >= tw->w || y >= tw->h) return true; /* the map's edge */
    return legend_blocked(tw->cells[y * tw->w + x], tw->swims[cls]);
}

static inline void fill_rect(char *cells, int w, int h, int x0, int y0, int rw, int rh, char c)
{
    for (int y = y0; y < y0 + rh; y++)
        for (int x = x0; x < x0 + rw; x++)
            if (x >= 0 && y >= 0 && x < w && y < h) cells[y * w + x] = c;
}

static inline bool has_neighbour(const char *cells, int w, int h, int x, int y, const char *set)
{
    static const int D[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    for (int d = 0; d < 4; d++) {
        int nx = x + D[d][0], ny = y + D[d][1];
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && strchr(set, cells[ny * w + nx])) return true;
    }
    return false;
}

static inline void gen_cells(OracleRng *r, int w, int h, char *cells)
{
    memset(cells, '.', (size_t)w * (size_t)h);
    for (int i = 0; i < w * h; i++)
        if (orng_unit(r) < 0.05) cells[i] = '#';
    int walls = 8 + orng_int(r, 8);
    for (int i = 0; i < walls; i++) {
        bool vertical = orng_int(r, 2);
        int len = 4 + orng_int(r, h / 2), thick = 1 + orng_int(r, 3);
        fill_rect(cells, w, h, orng_int(r, w), orng_int(r, h), vertical ? thick : len, vertical ? len : thick, '#');
    }
    int pools = 3 + orng_int(r, 3);
    for (int i = 0; i < pools; i++) {
        char c = orng_int(r, 3) ? '~' : '-';
        int cx = orng_int(r, w), cy = orng_int(r, h), rad = 2 + orng_int(r, 5);
        for (int y = cy - rad; y <= cy + rad; y++)
            for (int x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && y >= 0 && x < w && y < h && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    cells[y * w + x] = c;
    }
    for (int i = 0; i < 3; i++)
        fill_rect(cells, w, h, orng_int(r, w), orng_int(r, h), 2 + orng_int(r, 6), 2 + orng_int(r, 6), '=');
    for (int i = 0; i < 3; i++)
        fill_rect(cells, w, h, orng_int(r, w), orng_int(r, h), 1 + orng_int(r, 4), 1 + orng_int(r, 4), 'L');
    /* Keep the terrain unambiguous: no raised floor beside water (a 0.2 m
    ** rise over a 0.3 m deep bed would be a 0.5 m step) and no shallow
    ** water beside deep water. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char *c = &cells[y * w + x];
            if (*c == '=' && has_neighbour(cells, w, h, x, y, "~-")) *c = '.';
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char *c = &cells[y * w + x];
            if (*c == '-' && has_neighbour(cells, w, h, x, y, "~")) *c = '.';
        }
}

static inline char *lua_source(const TWorld *tw)
{
    size_t cap = (size_t)(tw->w + 1) * (size_t)tw->h + 2048;
    char *src = nav_malloc(cap);
    int n = snprintf(src, cap, "return {\n  name = 'random', cell_size = %g,\n%s%s  layers = { { z = 0, rows = [[\n",
                     tw->s, LEGEND_LUA, CLASSES_LUA);
    for (int row = 0; row < tw->h; row++) {
        int y = tw->h - 1 - row; /* the first row is the north edge */
        memcpy(src + n, tw->cells + (size_t)y * (size_t)tw->w, (size_t)tw->w);
        n += tw->w;
        src[n++] = '\n';
    }
    snprintf(src + n, cap - (size_t)n, "]] } },\n}\n");
    return src;
}

/* Terrain + clearance, per class. mode: round (Euclidean) or square
** (Chebyshev) distance from the cell's centre to each blocked cell's
** square; the map's outside counts as blocked cells. */
static inline void compute_base(TWorld *tw, GridClearance mode)
{
    tw->close_calls = 0;
    for (int k = 0; k < tw->ncls; k++) {
        double r = tw->radius[k];
        int win = (int)ceil(r / tw->s) + 1;
        for (int y = 0; y < tw->h; y++)
            for (int x = 0; x < tw->w; x++) {
                int8_t *out = &tw->base[k][y * tw->w + x];
                if (tw_blocked(tw, k, x, y)) {
                    *out = 0;
                    continue;
                }
                double px = (x + 0.5) * tw->s, py = (y + 0.5) * tw->s, best = INFINITY;
                for (int j = y - win; j <= y + win; j++)
                    for (int i = x - win; i <= x + win; i++) {
                        if (!tw_blocked(tw, k, i, j)) continue;
                        double d = mode == GRID_CLEARANCE_SQUARE ? oracle_cheb_cell(px, py, i, j, tw->s)
                                                                 : oracle_dist_cell(px, py, i, j, tw->s);
                        if (d < best) best = d;
                    }
                if (r > 0 && fabs(best - r) < EPS_M) {
                    *out = -1;
                    tw->close_calls++;
                } else {
                    *out = best >= r ? 1 : 0; /* "at least the class's radius" */
                }
            }
    }
}

static inline void tw_make(TWorld *tw, int w, int h, double s, uint64_t seed, const NavGridDesc *desc)
{
    memset(tw, 0, sizeof *tw);
    tw->w = w;
    tw->h = h;
    tw->s = s;
    tw->seed = seed;
    OracleRng r = { seed };
    tw->cells = nav_malloc((size_t)w * (size_t)h);
    gen_cells(&r, w, h, tw->cells);
    tw->src = lua_source(tw);
    NavError err;
    char buf[1024];
    tw->world = map_load_buffer(tw->src, strlen(tw->src), "random.lua", NULL, &err);
    cr_assert_not_null(tw->world, "seed %llu: generated map fails to load: %s", (unsigned long long)seed,
                       nav_error_format(&err, buf, sizeof buf));
    if (desc) tw->desc = *desc;
    tw->grid = grid_create(tw->world, &tw->desc, &err);
    cr_assert_not_null(tw->grid, "seed %llu: grid_create: %s", (unsigned long long)seed,
                       nav_error_format(&err, buf, sizeof buf));
    tw->ncls = grid_class_count(tw->grid);
    cr_assert_eq(tw->ncls, world_class_count(tw->world));
    cr_assert_eq(tw->ncls, 5, "human plus the four classes of the map");
    for (int k = 0; k < tw->ncls; k++) {
        const NavClass *c = grid_class(tw->grid, k);
        cr_assert_not_null(c);
        tw->radius[k] = c->radius;
        tw->swims[k] = c->swim_speed > 0.0f;
        tw->base[k] = nav_malloc((size_t)w * (size_t)h);
    }
    cr_assert_eq(grid_width(tw->grid), w);
    cr_assert_eq(grid_height(tw->grid), h);
    cr_assert_float_eq(grid_cell_size(tw->grid), (float)s, 1e-6);
    compute_base(tw, tw->desc.clearance);
}

static inline void tw_free(TWorld *tw)
{
    for (int k = 0; k < tw->ncls; k++) nav_free(tw->base[k]);
    grid_destroy(tw->grid);
    world_destroy(tw->world);
    nav_free(tw->cells);
    nav_free(tw->src);
}

/* }======= */

/* {======= the obstruction model ======= */

typedef struct RasterCell {
    int cell;
    uint8_t cls;
    uint8_t blocks; /* 1 blocks, 0 too close to call */
} RasterCell;

typedef struct Live {
    GridObstructionId id;
    GridShape shape;
    RasterCell *cells;
    int n, cap;
} Live;

typedef struct Model {
    Live live[MAX_LIVE];
    int nlive;
    int16_t *block[GRID_MAX_CLASSES]; /* live obstructions that block the cell */
    int16_t *close[GRID_MAX_CLASSES]; /* live obstructions too close to call */
} Model;

static inline void model_init(Model *m, const TWorld *tw)
{
    memset(m, 0, sizeof *m);
    for (int k = 0; k < tw->ncls; k++) {
        m->block[k] = nav_calloc((size_t)tw->w * (size_t)tw->h, sizeof(int16_t));
        m->close[k] = nav_calloc((size_t)tw->w * (size_t)tw->h, sizeof(int16_t));
    }
}

static inline void model_free(Model *m, const TWorld *tw)
{
    for (int i = 0; i < m->nlive; i++) nav_free(m->live[i].cells);
    for (int k = 0; k < tw->ncls; k++) {
        nav_free(m->block[k]);
        nav_free(m->close[k]);
    }
}

static inline void raster_push(Live *l, int cell, int cls, int blocks)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->cells = nav_realloc(l->cells, sizeof *l->cells * (size_t)l->cap);
    }
    l->cells[l->n++] = (RasterCell){ cell, (uint8_t)cls, (uint8_t)blocks };
}

/* The rule of grid.h, cell by cell over the shape's box grown by its
** clearance. */
static inline void raster(const TWorld *tw, Live *l)
{
    l->n = 0;
    const GridShape *sh = &l->shape;
    double c = cos(sh->angle), sn = sin(sh->angle);
    double ex = fabs(sh->hw * c) + fabs(sh->hh * sn), ey = fabs(sh->hw * sn) + fabs(sh->hh * c);
    for (int k = 0; k < tw->ncls; k++) {
        double narrow = (3.0 * tw->s - 2.0 * fmin(sh->hw, sh->hh)) / 2.0;
        double grow = fmax(tw->radius[k], narrow) + tw->s;
        int x0 = (int)floor((sh->x - ex - grow) / tw->s), x1 = (int)floor((sh->x + ex + grow) / tw->s);
        int y0 = (int)floor((sh->y - ey - grow) / tw->s), y1 = (int)floor((sh->y + ey + grow) / tw->s);
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 >= tw->w) x1 = tw->w - 1;
        if (y1 >= tw->h) y1 = tw->h - 1;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                double margin = oracle_shape_margin(sh, tw->s, tw->radius[k], x, y);
                if (fabs(margin) < EPS_M) raster_push(l, y * tw->w + x, k, 0);
                else if (margin < 0) raster_push(l, y * tw->w + x, k, 1);
            }
    }
}

static inline void model_apply(Model *m, const Live *l, int sign)
{
    for (int i = 0; i < l->n; i++) {
        const RasterCell *rc = &l->cells[i];
        if (rc->blocks) m->block[rc->cls][rc->cell] += (int16_t)sign;
        else m->close[rc->cls][rc->cell] += (int16_t)sign;
    }
}

/* Expected passability: 1, 0, or -1 (too close to call). */
static inline int expected(const TWorld *tw, const Model *m, int k, int cell)
{
    int b = tw->base[k][cell];
    if (b == 0 || (m && m->block[k][cell] > 0)) return 0;
    if (b < 0 || (m && m->close[k][cell] > 0)) return -1;
    return 1;
}

static inline GridShape random_shape(OracleRng *r, const TWorld *tw)
{
    double W = tw->w * tw->s, H = tw->h * tw->s;
    GridShape sh;
    sh.x = (float)orng_range(r, -2.0, W + 2.0);
    sh.y = (float)orng_range(r, -2.0, H + 2.0);
    double hw, hh;
    switch (orng_int(r, 5)) {
    case 0:
    case 1: /* a fence, 0.02 to 0.1 m wide */
        hw = orng_range(r, 0.5, 6.0);
        hh = orng_range(r, 0.01, 0.05);
        break;
    case 2: /* a box */
        hw = orng_range(r, 0.1, 3.0);
        hh = orng_range(r, 0.1, 3.0);
        break;
    case 3: /* tiny */
        hw = orng_range(r, 0.01, 0.3);
        hh = orng_range(r, 0.01, 0.3);
        break;
    default: /* big */
        hw = orng_range(r, 1.5, 7.0);
        hh = orng_range(r, 1.0, 5.0);
        break;
    }
    if (orng_int(r, 2)) {
        double t = hw;
        hw = hh;
        hh = t;
    }
    sh.hw = (float)hw;
    sh.hh = (float)hh;
    static const double SNAP[] = { 0.0, PI / 2, PI / 4, PI, -PI / 6 };
    sh.angle = orng_int(r, 4) == 0 ? (float)SNAP[orng_int(r, 5)] : (float)orng_range(r, -PI, PI);
    return sh;
}

static inline const char *shape_str(const GridShape *s, char *buf, size_t cap)
{
    snprintf(buf, cap, "{x %.9g, y %.9g, hw %.9g, hh %.9g, angle %.9g}", s->x, s->y, s->hw, s->hh, s->angle);
    return buf;
}

/* }======= */

/* {======= checks ======= */

static inline const char *classname(const TWorld *tw, int k) { return grid_class(tw->grid, k)->name; }

/* grid_passable against the model, every class and cell. */
static inline void check_passable(const TWorld *tw, const NavGrid *g, const Model *m, Tally *t, const char *when,
                           int *uncalled)
{
    for (int k = 0; k < tw->ncls; k++)
        for (int y = 0; y < tw->h; y++)
            for (int x = 0; x < tw->w; x++) {
                int cell = y * tw->w + x, e = expected(tw, m, k, cell);
                if (e < 0) {
                    if (uncalled) (*uncalled)++;
                    continue;
                }
                bool got = grid_passable(g, k, x, y);
                if (got == (e == 1)) continue;
                char why[600] = "";
                if (tw->base[k][cell] == 0)
                    snprintf(why, sizeof why, "terrain/clearance blocks it (legend '%c')", tw->cells[cell]);
                else if (m && m->block[k][cell] > 0) {
                    for (int i = 0; i < m->nlive; i++) {
                        double mg = oracle_shape_margin(&m->live[i].shape, tw->s, tw->radius[k], x, y);
                        if (mg < 0) {
                            char sb[160];
                            snprintf(why, sizeof why, "obstruction %s blocks it (corner margin %.6g m)",
                                     shape_str(&m->live[i].shape, sb, sizeof sb), mg);
                            break;
                        }
                    }
                } else {
                    snprintf(why, sizeof why, "legend '%c', no obstruction's corners all within reach", tw->cells[cell]);
                }
                fail(t, "%s: class %s (radius %.2f) cell (%d,%d): grid_passable %d, expected %d: %s", when,
                     classname(tw, k), tw->radius[k], x, y, got, e, why);
            }
}

/* The row and column bitsets agree with grid_passable (and read blocked
** outside the map, within the words that hold the map's cells). */
static inline void check_bits(const TWorld *tw, const NavGrid *g, Tally *t, const char *when)
{
    for (int k = 0; k < tw->ncls; k++) {
        int xend = ((tw->w - 1 + GRID_PAD) / 64 + 1) * 64 - GRID_PAD;
        for (int y = 0; y < tw->h; y++) {
            const uint64_t *row = grid_row_bits(g, k, y);
            if (!row) {
                fail(t, "%s: grid_row_bits(%d, %d) is NULL", when, k, y);
                return;
            }
            for (int x = -GRID_PAD; x < xend; x++) {
                int b = x + GRID_PAD;
                bool bit = (row[b / 64] >> (b % 64)) & 1u;
                bool want = x >= 0 && x < tw->w && grid_passable(g, k, x, y);
                if (bit != want) fail(t, "%s: class %d row %d bit for x=%d is %d, grid_passable %d", when, k, y, x, bit, want);
            }
        }
        int yend = ((tw->h - 1 + GRID_PAD) / 64 + 1) * 64 - GRID_PAD;
        for (int x = 0; x < tw->w; x++) {
            const uint64_t *col = grid_col_bits(g, k, x);
            if (!col) {
                fail(t, "%s: grid_col_bits(%d, %d) is NULL", when, k, x);
                return;
            }
            for (int y = -GRID_PAD; y < yend; y++) {
                int b = y + GRID_PAD;
                bool bit = (col[b / 64] >> (b % 64)) & 1u;
                bool want = y >= 0 && y < tw->h && grid_passable(g, k, x, y);
                if (bit != want) fail(t, "%s: class %d column %d bit for y=%d is %d, grid_passable %d", when, k, x, y, bit, want);
            }
        }
    }
}

static inline int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Hierarchy queries against a flood fill over the grid's own passability
** (passability itself is checked against the model separately). */
static inline void check_connectivity(const TWorld *tw, const NavGrid *g, OracleRng *r, bool nearest, Tally *t,
                               const char *when)
{
    int cells = tw->w * tw->h;
    OracleMap om = { tw->w, tw->h, nav_malloc((size_t)cells) };
    int *comp = nav_malloc(sizeof *comp * (size_t)cells);
    for (int k = 0; k < tw->ncls; k++) {
        for (int y = 0; y < tw->h; y++)
            for (int x = 0; x < tw->w; x++) om.pass[y * tw->w + x] = grid_passable(g, k, x, y);
        int nc = oracle_components(&om, comp);

        /* grid_component: UINT32_MAX on blocked cells, one id per flood component */
        uint32_t *ids = nav_malloc(sizeof *ids * (size_t)(nc + 1));
        for (int c = 0; c < nc; c++) ids[c] = UINT32_MAX;
        for (int i = 0; i < cells; i++) {
            uint32_t e = grid_component(g, k, i % tw->w, i / tw->w);
            if (comp[i] < 0) {
                if (e != UINT32_MAX) fail(t, "%s: class %d blocked cell (%d,%d) has component %u", when, k, i % tw->w, i / tw->w, e);
                continue;
            }
            if (e == UINT32_MAX) {
                fail(t, "%s: class %d passable cell (%d,%d) has no component", when, k, i % tw->w, i / tw->w);
            } else if (ids[comp[i]] == UINT32_MAX) {
                ids[comp[i]] = e;
            } else if (ids[comp[i]] != e) {
                fail(t, "%s: class %d cell (%d,%d) has component %u, a 4-connected neighbour area has %u", when, k,
                     i % tw->w, i / tw->w, e, ids[comp[i]]);
            }
        }
        qsort(ids, (size_t)nc, sizeof *ids, cmp_u32);
        for (int c = 1; c < nc; c++)
            if (ids[c] == ids[c - 1] && ids[c] != UINT32_MAX)
                fail(t, "%s: class %d: two disconnected areas share component %u", when, k, ids[c]);
        nav_free(ids);

        /* grid_reachable from two anchors to every cell, and random pairs */
        for (int a = 0; a < 2; a++) {
            int ai = orng_int(r, cells), tries = 0;
            while (comp[ai] < 0 && tries++ < 50) ai = orng_int(r, cells);
            int ax = ai % tw->w, ay = ai / tw->w;
            for (int i = 0; i < cells; i++) {
                bool want = comp[ai] >= 0 && comp[i] >= 0 && comp[i] == comp[ai];
                bool got = grid_reachable(g, k, ax, ay, i % tw->w, i / tw->w);
                if (got != want)
                    fail(t, "%s: class %d grid_reachable (%d,%d)->(%d,%d) is %d, the flood fill says %d", when, k, ax,
                         ay, i % tw->w, i / tw->w, got, want);
            }
        }
        for (int p = 0; p < 40; p++) {
            int i = orng_int(r, cells), j = orng_int(r, cells);
            bool want = comp[i] >= 0 && comp[j] >= 0 && comp[i] == comp[j];
            bool got = grid_reachable(g, k, i % tw->w, i / tw->w, j % tw->w, j / tw->w);
            if (got != want)
                fail(t, "%s: class %d grid_reachable (%d,%d)->(%d,%d) is %d, the flood fill says %d", when, k,
                     i % tw->w, i / tw->w, j % tw->w, j / tw->w, got, want);
        }

        /* regions: passable cells have one, blocked cells none, and a region
        ** never spans two components (region numbers need not be dense here;
        ** region_indices_are_below_region_count checks that separately) */
        int maxreg = -1;
        for (int i = 0; i < cells; i++) {
            int reg = grid_region_of(g, k, i % tw->w, i / tw->w);
            if (comp[i] < 0) {
                if (reg != -1) fail(t, "%s: class %d blocked cell (%d,%d) is in region %d", when, k, i % tw->w, i / tw->w, reg);
            } else if (reg < 0) {
                fail(t, "%s: class %d passable cell (%d,%d) has no region", when, k, i % tw->w, i / tw->w);
            } else if (reg > maxreg) {
                maxreg = reg;
            }
        }
        int *reg_comp = nav_malloc(sizeof *reg_comp * (size_t)(maxreg + 1 > 0 ? maxreg + 1 : 1));
        for (int q = 0; q <= maxreg; q++) reg_comp[q] = -1;
        for (int i = 0; i < cells; i++) {
            int reg = grid_region_of(g, k, i % tw->w, i / tw->w);
            if (comp[i] < 0 || reg < 0) continue;
            if (reg_comp[reg] < 0) reg_comp[reg] = comp[i];
            else if (reg_comp[reg] != comp[i])
                fail(t, "%s: class %d region %d holds cells of two disconnected areas (at (%d,%d))", when, k, reg,
                     i % tw->w, i / tw->w);
        }
        nav_free(reg_comp);

        if (nearest) {
            /* grid_nearest_passable: brute force, ties lower y then lower x */
            for (int q = 0; q < 3; q++) {
                int qi = orng_int(r, cells), tries = 0;
                while (q < 2 && comp[qi] >= 0 && tries++ < 50) qi = orng_int(r, cells); /* mostly blocked cells */
                int qx = qi % tw->w, qy = qi / tw->w, bx = -1, by = -1;
                long best = -1;
                for (int i = 0; i < cells; i++) {
                    if (comp[i] < 0) continue;
                    long dx = i % tw->w - qx, dy = i / tw->w - qy, d = dx * dx + dy * dy;
                    if (best < 0 || d < best) best = d, bx = i % tw->w, by = i / tw->w;
                }
                int ox = -7, oy = -7;
                bool got = grid_nearest_passable(g, k, qx, qy, &ox, &oy);
                if (got != (best >= 0)) {
                    fail(t, "%s: class %d grid_nearest_passable(%d,%d) returned %d", when, k, qx, qy, got);
                } else if (got && (ox != bx || oy != by)) {
                    long dx = ox - qx, dy = oy - qy;
                    fail(t, "%s: class %d grid_nearest_passable(%d,%d) = (%d,%d) (squared distance %ld, passable %d), "
                            "expected (%d,%d) (squared distance %ld)",
                         when, k, qx, qy, ox, oy, dx * dx + dy * dy, grid_passable(g, k, ox, oy), bx, by, best);
                }
            }
            /* grid_nearest_in_component: brute force within the component */
            int si = orng_int(r, cells), tries = 0;
            while (comp[si] < 0 && tries++ < 200) si = orng_int(r, cells);
            if (comp[si] >= 0) {
                uint32_t cid = grid_component(g, k, si % tw->w, si / tw->w);
                int tx = orng_int(r, tw->w), ty = orng_int(r, tw->h);
                long best = -1;
                for (int i = 0; i < cells; i++) {
                    if (comp[i] != comp[si]) continue;
                    long dx = i % tw->w - tx, dy = i / tw->w - ty, d = dx * dx + dy * dy;
                    if (best < 0 || d < best) best = d;
                }
                int ox = -7, oy = -7;
                bool got = grid_nearest_in_component(g, k, cid, tx, ty, &ox, &oy);
                long dx = ox - tx, dy = oy - ty;
                if (!got || ox < 0 || oy < 0 || ox >= tw->w || oy >= tw->h || comp[oy * tw->w + ox] != comp[si] ||
                    dx * dx + dy * dy != best)
                    fail(t, "%s: class %d grid_nearest_in_component(comp of (%d,%d), target (%d,%d)) = %d (%d,%d), "
                            "expected a cell of that component at squared distance %ld",
                         when, k, si % tw->w, si / tw->w, tx, ty, got, ox, oy, best);
            }
        }
    }
    nav_free(comp);
    nav_free(om.pass);
}

/* Two grids over the same world: same passability, same partition. */
static inline void check_same_grid(const TWorld *tw, const NavGrid *a, const NavGrid *b, Tally *t, const char *when)
{
    int cells = tw->w * tw->h;
    for (int k = 0; k < tw->ncls; k++) {
        int diff = 0, fx = -1, fy = -1;
        for (int i = 0; i < cells; i++)
            if (grid_passable(a, k, i % tw->w, i / tw->w) != grid_passable(b, k, i % tw->w, i / tw->w))
                if (!diff++) fx = i % tw->w, fy = i / tw->w;
        if (diff) {
            fail(t, "%s: class %d: the updated grid and a fresh build differ on %d cells, first (%d,%d): updated %d, fresh %d",
                 when, k, diff, fx, fy, grid_passable(a, k, fx, fy), grid_passable(b, k, fx, fy));
            continue;
        }
        /* component ids may differ; the partition must not */
        for (int i = 0; i < cells; i++) {
            int x = i % tw->w, y = i / tw->w;
            int j = (i * 7919 + 13) % cells, jx = j % tw->w, jy = j / tw->w;
            bool sa = grid_component(a, k, x, y) == grid_component(a, k, jx, jy);
            bool sb = grid_component(b, k, x, y) == grid_component(b, k, jx, jy);
            if (sa != sb) {
                fail(t, "%s: class %d: (%d,%d) and (%d,%d) share a component in the %s grid only", when, k, x, y, jx,
                     jy, sa ? "updated" : "fresh");
                break;
            }
        }
    }
}

static inline void check_fresh(const TWorld *tw, const Model *m, Tally *t, const char *when)
{
    NavError err;
    NavGrid *f = grid_create(tw->world, &tw->desc, &err);
    cr_assert_not_null(f, "%s: fresh grid_create: %s", when, err.message);
    for (int i = 0; i < m->nlive; i++) {
        GridObstructionId id;
        NavStatus st = grid_add_obstruction(f, &m->live[i].shape, &id, &err);
        cr_assert(NAV_SUCCEEDED(st), "%s: adding to the fresh grid: %s", when, err.message);
    }
    check_same_grid(tw, tw->grid, f, t, when);
    grid_destroy(f);
}

/* }======= */

/* {======= the random sequences ======= */

static inline void random_updates(int w, int h, double s, int chunk, uint64_t seed, int ops)
{
    uint64_t t0 = timer_now_ns();
    TWorld tw;
    tw_make(&tw, w, h, s, seed, &(NavGridDesc){ .chunk_size = chunk });
    Model m;
    model_init(&m, &tw);
    OracleRng r = { seed * 2654435761u + 1 };
    Tally t = { 0 };
    int uncalled = 0, adds = 0, moves = 0, removes = 0, fresh = 0;
    char when[512], sb[160], sb2[160];

    snprintf(when, sizeof when, "seed %llu (%dx%d, cell %.1f, chunk %d), before any change", (unsigned long long)seed,
             w, h, s, chunk);
    check_passable(&tw, tw.grid, &m, &t, when, &uncalled);
    check_bits(&tw, tw.grid, &t, when);
    check_connectivity(&tw, tw.grid, &r, true, &t, when);
    cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);

    for (int op = 0; op < ops; op++) {
        NavError err;
        int kind = orng_int(&r, 100);
        if (m.nlive < 4) kind = 0;
        if (m.nlive >= MAX_LIVE && kind < 45) kind = 99;
        if (kind < 45) { /* add */
            Live *l = &m.live[m.nlive];
            memset(l, 0, sizeof *l);
            l->shape = random_shape(&r, &tw);
            NavStatus st = grid_add_obstruction(tw.grid, &l->shape, &l->id, &err);
            cr_assert(NAV_SUCCEEDED(st), "seed %llu op %d: add %s failed: %s", (unsigned long long)seed, op,
                      shape_str(&l->shape, sb, sizeof sb), err.message);
            for (int i = 0; i < m.nlive; i++)
                cr_assert_neq(m.live[i].id.id, l->id.id, "op %d: a new obstruction got a live id", op);
            raster(&tw, l);
            model_apply(&m, l, +1);
            m.nlive++;
            adds++;
            snprintf(when, sizeof when, "seed %llu op %d (add %s)", (unsigned long long)seed, op,
                     shape_str(&l->shape, sb, sizeof sb));
        } else if (kind < 75) { /* move */
            Live *l = &m.live[orng_int(&r, m.nlive)];
            GridShape old = l->shape, nsh;
            if (orng_int(&r, 2)) {
                nsh = old; /* a nudge */
                nsh.x += (float)orng_range(&r, -1.0, 1.0);
                nsh.y += (float)orng_range(&r, -1.0, 1.0);
                nsh.angle += (float)orng_range(&r, -0.4, 0.4);
            } else {
                nsh = random_shape(&r, &tw);
            }
            NavStatus st = grid_move_obstruction(tw.grid, l->id, &nsh, &err);
            cr_assert(NAV_SUCCEEDED(st), "seed %llu op %d: move failed: %s", (unsigned long long)seed, op, err.message);
            model_apply(&m, l, -1);
            l->shape = nsh;
            raster(&tw, l);
            model_apply(&m, l, +1);
            moves++;
            snprintf(when, sizeof when, "seed %llu op %d (move %s to %s)", (unsigned long long)seed, op,
                     shape_str(&old, sb, sizeof sb), shape_str(&nsh, sb2, sizeof sb2));
        } else { /* remove */
            int i = orng_int(&r, m.nlive);
            Live *l = &m.live[i];
            NavStatus st = grid_remove_obstruction(tw.grid, l->id, &err);
            cr_assert(NAV_SUCCEEDED(st), "seed %llu op %d: remove failed: %s", (unsigned long long)seed, op, err.message);
            snprintf(when, sizeof when, "seed %llu op %d (remove %s)", (unsigned long long)seed, op,
                     shape_str(&l->shape, sb, sizeof sb));
            model_apply(&m, l, -1);
            nav_free(l->cells);
            m.live[i] = m.live[--m.nlive];
            removes++;
        }

        cr_assert_eq(grid_obstruction_count(tw.grid), m.nlive, "%s: grid_obstruction_count", when);
        GridStats st;
        grid_stats(tw.grid, &st);
        cr_assert_eq(st.obstructions, m.nlive, "%s: stats.obstructions", when);
        if (m.nlive > 0) {
            const Live *l = &m.live[orng_int(&r, m.nlive)];
            GridShape got;
            cr_assert(grid_obstruction_shape(tw.grid, l->id, &got), "%s: a live id is refused", when);
            cr_assert(got.x == l->shape.x && got.y == l->shape.y && got.hw == l->shape.hw && got.hh == l->shape.hh &&
                          got.angle == l->shape.angle,
                      "%s: grid_obstruction_shape gives %s, expected %s", when, shape_str(&got, sb, sizeof sb),
                      shape_str(&l->shape, sb2, sizeof sb2));
        }

        check_passable(&tw, tw.grid, &m, &t, when, &uncalled);
        check_bits(&tw, tw.grid, &t, when);
        check_connectivity(&tw, tw.grid, &r, op % 3 == 0, &t, when);
        if (op % 20 == 19 || op == ops - 1) {
            check_fresh(&tw, &m, &t, when);
            fresh++;
        }
        if (op == ops / 2) {
            NavError e2;
            cr_assert(NAV_SUCCEEDED(grid_rebuild(tw.grid, &e2)), "grid_rebuild: %s", e2.message);
            char w2[600];
            snprintf(w2, sizeof w2, "%s, after grid_rebuild", when);
            check_passable(&tw, tw.grid, &m, &t, w2, &uncalled);
            check_connectivity(&tw, tw.grid, &r, false, &t, w2);
        }
        cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
    }

    cr_log_info("grid_updates seed %llu %dx%d cell %.1f chunk %d: %d adds, %d moves, %d removes, %d fresh builds; "
                "%d class-cell checks too close to call, %d base cells too close; %.0f ms",
                (unsigned long long)seed, w, h, s, chunk, adds, moves, removes, fresh, uncalled, tw.close_calls,
                timer_ms_since(t0));
    model_free(&m, &tw);
    tw_free(&tw);
}

/* }======= */

#endif

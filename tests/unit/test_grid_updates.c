/*
** test_grid_updates.c — the navcell grid against an independent model,
** through long random sequences of obstruction changes.
**
** Random worlds (walls, deep and shallow water, raised floors, low
** ceilings; several classes of radius 0 to 1.3 m, one that cannot swim) are
** loaded from generated Lua sources. Hundreds of fixed-seed obstruction adds,
** moves and removes follow (fences 0.02 to 0.1 m wide at any angle, boxes,
** tiny and big shapes, some partly off the map). After every change:
**   - grid_passable equals the model: terrain from the legend, round
**     clearance (a cell's centre at least the radius from every blocked
**     cell's square and from the map's edge), and the obstruction rule (all
**     four corners inside or within c, c = max(radius, (3 cells - smaller
**     side) / 2));
**   - the row and column bitsets agree with grid_passable;
**   - grid_reachable, grid_component and grid_region_of agree with a 4-connected
**     flood fill; grid_nearest_passable and grid_nearest_in_component with
**     brute force;
** and every few changes the grid equals a fresh grid_create with the same
** obstructions, cell for cell and component for component.
**
** Cells whose corner or clearance distance lies within EPS_M of the rule's
** threshold are not called (float rounding could go either way); the tests
** count them and they are rare.
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

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

static const char CLASSES_LUA[] =
    "  classes = {\n"
    "    { name = 'point', radius = 0 },\n"
    "    { name = 'wide', radius = 0.9 },\n"
    "    { name = 'huge', radius = 1.3, swim_speed = 0 },\n"
    "    { name = 'dry', radius = 0, swim_speed = 0 },\n"
    "  },\n";

static const char LEGEND_LUA[] =
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
static bool legend_blocked(char c, bool swims)
{
    switch (c) {
    case '#':
    case 'L': return true;
    case '~': return !swims;
    default: return false;
    }
}

static bool tw_blocked(const TWorld *tw, int cls, int x, int y)
{
    if (x < 0 || y < 0 || x >= tw->w || y >= tw->h) return true; /* the map's edge */
    return legend_blocked(tw->cells[y * tw->w + x], tw->swims[cls]);
}

static void fill_rect(char *cells, int w, int h, int x0, int y0, int rw, int rh, char c)
{
    for (int y = y0; y < y0 + rh; y++)
        for (int x = x0; x < x0 + rw; x++)
            if (x >= 0 && y >= 0 && x < w && y < h) cells[y * w + x] = c;
}

static bool has_neighbour(const char *cells, int w, int h, int x, int y, const char *set)
{
    static const int D[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    for (int d = 0; d < 4; d++) {
        int nx = x + D[d][0], ny = y + D[d][1];
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && strchr(set, cells[ny * w + nx])) return true;
    }
    return false;
}

static void gen_cells(OracleRng *r, int w, int h, char *cells)
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

static char *lua_source(const TWorld *tw)
{
    size_t cap = (size_t)(tw->w + 1) * (size_t)tw->h + 2048;
    char *src = malloc(cap);
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
static void compute_base(TWorld *tw, GridClearance mode)
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

static void tw_make(TWorld *tw, int w, int h, double s, uint64_t seed, const NavGridDesc *desc)
{
    memset(tw, 0, sizeof *tw);
    tw->w = w;
    tw->h = h;
    tw->s = s;
    tw->seed = seed;
    OracleRng r = { seed };
    tw->cells = malloc((size_t)w * (size_t)h);
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
        tw->base[k] = malloc((size_t)w * (size_t)h);
    }
    cr_assert_eq(grid_width(tw->grid), w);
    cr_assert_eq(grid_height(tw->grid), h);
    cr_assert_float_eq(grid_cell_size(tw->grid), (float)s, 1e-6);
    compute_base(tw, tw->desc.clearance);
}

static void tw_free(TWorld *tw)
{
    for (int k = 0; k < tw->ncls; k++) free(tw->base[k]);
    grid_destroy(tw->grid);
    world_destroy(tw->world);
    free(tw->cells);
    free(tw->src);
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

static void model_init(Model *m, const TWorld *tw)
{
    memset(m, 0, sizeof *m);
    for (int k = 0; k < tw->ncls; k++) {
        m->block[k] = calloc((size_t)tw->w * (size_t)tw->h, sizeof(int16_t));
        m->close[k] = calloc((size_t)tw->w * (size_t)tw->h, sizeof(int16_t));
    }
}

static void model_free(Model *m, const TWorld *tw)
{
    for (int i = 0; i < m->nlive; i++) free(m->live[i].cells);
    for (int k = 0; k < tw->ncls; k++) {
        free(m->block[k]);
        free(m->close[k]);
    }
}

static void raster_push(Live *l, int cell, int cls, int blocks)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->cells = realloc(l->cells, sizeof *l->cells * (size_t)l->cap);
    }
    l->cells[l->n++] = (RasterCell){ cell, (uint8_t)cls, (uint8_t)blocks };
}

/* The rule of grid.h, cell by cell over the shape's box grown by its
** clearance. */
static void raster(const TWorld *tw, Live *l)
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

static void model_apply(Model *m, const Live *l, int sign)
{
    for (int i = 0; i < l->n; i++) {
        const RasterCell *rc = &l->cells[i];
        if (rc->blocks) m->block[rc->cls][rc->cell] += (int16_t)sign;
        else m->close[rc->cls][rc->cell] += (int16_t)sign;
    }
}

/* Expected passability: 1, 0, or -1 (too close to call). */
static int expected(const TWorld *tw, const Model *m, int k, int cell)
{
    int b = tw->base[k][cell];
    if (b == 0 || (m && m->block[k][cell] > 0)) return 0;
    if (b < 0 || (m && m->close[k][cell] > 0)) return -1;
    return 1;
}

static GridShape random_shape(OracleRng *r, const TWorld *tw)
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

static const char *shape_str(const GridShape *s, char *buf, size_t cap)
{
    snprintf(buf, cap, "{x %.9g, y %.9g, hw %.9g, hh %.9g, angle %.9g}", s->x, s->y, s->hw, s->hh, s->angle);
    return buf;
}

/* }======= */

/* {======= checks ======= */

static const char *classname(const TWorld *tw, int k) { return grid_class(tw->grid, k)->name; }

/* grid_passable against the model, every class and cell. */
static void check_passable(const TWorld *tw, const NavGrid *g, const Model *m, Tally *t, const char *when,
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
static void check_bits(const TWorld *tw, const NavGrid *g, Tally *t, const char *when)
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

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Hierarchy queries against a flood fill over the grid's own passability
** (passability itself is checked against the model separately). */
static void check_connectivity(const TWorld *tw, const NavGrid *g, OracleRng *r, bool nearest, Tally *t,
                               const char *when)
{
    int cells = tw->w * tw->h;
    OracleMap om = { tw->w, tw->h, malloc((size_t)cells) };
    int *comp = malloc(sizeof *comp * (size_t)cells);
    for (int k = 0; k < tw->ncls; k++) {
        for (int y = 0; y < tw->h; y++)
            for (int x = 0; x < tw->w; x++) om.pass[y * tw->w + x] = grid_passable(g, k, x, y);
        int nc = oracle_components(&om, comp);

        /* grid_component: UINT32_MAX on blocked cells, one id per flood component */
        uint32_t *ids = malloc(sizeof *ids * (size_t)(nc + 1));
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
        free(ids);

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
        int *reg_comp = malloc(sizeof *reg_comp * (size_t)(maxreg + 1 > 0 ? maxreg + 1 : 1));
        for (int q = 0; q <= maxreg; q++) reg_comp[q] = -1;
        for (int i = 0; i < cells; i++) {
            int reg = grid_region_of(g, k, i % tw->w, i / tw->w);
            if (comp[i] < 0 || reg < 0) continue;
            if (reg_comp[reg] < 0) reg_comp[reg] = comp[i];
            else if (reg_comp[reg] != comp[i])
                fail(t, "%s: class %d region %d holds cells of two disconnected areas (at (%d,%d))", when, k, reg,
                     i % tw->w, i / tw->w);
        }
        free(reg_comp);

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
    free(comp);
    free(om.pass);
}

/* Two grids over the same world: same passability, same partition. */
static void check_same_grid(const TWorld *tw, const NavGrid *a, const NavGrid *b, Tally *t, const char *when)
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

static void check_fresh(const TWorld *tw, const Model *m, Tally *t, const char *when)
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

static void random_updates(int w, int h, double s, int chunk, uint64_t seed, int ops)
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
            free(l->cells);
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

Test(grid_updates, random_changes_half_metre_cells)
{
    random_updates(48, 40, 0.5, 4, 1001, 300);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, random_changes_metre_cells)
{
    random_updates(80, 64, 1.0, 0, 2002, 300);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, random_changes_odd_size_and_chunk)
{
    random_updates(67, 53, 0.5, 12, 3003, 300);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the layers one at a time ======= */

/* The terrain layer alone: walls and low ceilings block every class, deep
** water blocks only the class that cannot swim; outside the map is blocked. */
Test(grid_updates, terrain_layer_follows_the_legend)
{
    for (int v = 0; v < 2; v++) {
        TWorld tw;
        tw_make(&tw, 40 + 9 * v, 36, v ? 1.0 : 0.5, 77 + (uint64_t)v, NULL);
        int diffs = 0;
        char first[256] = "";
        for (int k = 0; k < tw.ncls; k++) {
            for (int y = 0; y < tw.h; y++)
                for (int x = 0; x < tw.w; x++) {
                    bool want = tw_blocked(&tw, k, x, y), got = grid_terrain_blocked(tw.grid, k, x, y);
                    if (want != got && !diffs++)
                        snprintf(first, sizeof first, "class %s (swims %d) cell (%d,%d) legend '%c': terrain_blocked %d, expected %d",
                                 classname(&tw, k), tw.swims[k], x, y, tw.cells[y * tw.w + x], got, want);
                }
            cr_expect(grid_terrain_blocked(tw.grid, k, -1, 0) && grid_terrain_blocked(tw.grid, k, tw.w, 0) &&
                          grid_terrain_blocked(tw.grid, k, 0, tw.h) && grid_terrain_blocked(tw.grid, k, 0, -1),
                      "outside the map is terrain-blocked");
            cr_expect(!grid_passable(tw.grid, k, -1, 0) && !grid_passable(tw.grid, k, tw.w, 3) &&
                          !grid_passable(tw.grid, k, 2, tw.h),
                      "outside the map is not passable");
        }
        cr_expect_eq(diffs, 0, "seed %d: %d class-cells differ; first: %s", 77 + v, diffs, first);
        tw_free(&tw);
    }
    NAV_TEST_LEAK_CHECK();
}

/* Clearance exactly at the radius keeps the cell ("at least the class's
** radius"); a hair more blocks it. */
Test(grid_updates, clearance_equal_to_the_radius_keeps_the_cell)
{
    static const struct {
        double cell, radius;
    } cases[] = { { 1.0, 0.5 }, { 1.0, 0.5001 }, { 0.5, 0.75 }, { 0.5, 0.7501 }, { 0.5, 0.25 }, { 1.0, 1.5 } };
    static const char rows[] =
        "..........\n"
        "..........\n"
        "...#......\n"
        "..........\n"
        "......##..\n"
        "..........\n"
        "..........\n";
    for (size_t c = 0; c < NAV_ARRAY_COUNT(cases); c++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "return { cell_size = %g, layers = { { z = 0, rows = [[\n%s]] } },\n"
                 "  classes = { { name = 'c', radius = %.4f } } }\n",
                 cases[c].cell, rows, cases[c].radius);
        NavError err;
        NavWorld *w = map_load_buffer(src, strlen(src), "clear.lua", NULL, &err);
        cr_assert_not_null(w, "%s", err.message);
        NavGrid *g = grid_create(w, NULL, &err);
        cr_assert_not_null(g, "%s", err.message);
        int k = grid_find_class(g, "c");
        cr_assert_geq(k, 0);
        float r = grid_class(g, k)->radius;
        double s = cases[c].cell;
        int W = grid_width(g), H = grid_height(g);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                bool wall = grid_terrain_blocked(g, k, x, y);
                double best = INFINITY, px = (x + 0.5) * s, py = (y + 0.5) * s;
                for (int j = -4; j < H + 4; j++)
                    for (int i = -4; i < W + 4; i++) {
                        bool blocked = i < 0 || j < 0 || i >= W || j >= H || grid_terrain_blocked(g, k, i, j);
                        if (blocked) best = fmin(best, oracle_dist_cell(px, py, i, j, s));
                    }
                bool want = !wall && best >= (double)r;
                cr_expect_eq(grid_passable(g, k, x, y), want,
                             "cell %.2f radius %.4f: cell (%d,%d) clearance %.6f: passable %d, expected %d", s,
                             (double)r, x, y, best, grid_passable(g, k, x, y), want);
            }
        grid_destroy(g);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* GRID_CLEARANCE_SQUARE: the Chebyshev distance from the cell's centre to
** every blocked cell's square, at 0.5 m cells (where it also equals 0 A.D.'s
** (2c+1)^2 filter with c = ceil(radius / cell)). */
Test(grid_updates, square_clearance)
{
    TWorld tw;
    tw_make(&tw, 50, 42, 0.5, 4242, &(NavGridDesc){ .clearance = GRID_CLEARANCE_SQUARE });
    cr_assert_eq(grid_clearance_mode(tw.grid), GRID_CLEARANCE_SQUARE);
    Tally t = { 0 };
    check_passable(&tw, tw.grid, NULL, &t, "square clearance", NULL);
    cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
    OracleRng r = { 9 };
    check_connectivity(&tw, tw.grid, &r, true, &t, "square clearance");
    cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
    tw_free(&tw);

    tw_make(&tw, 50, 42, 0.5, 4242, NULL);
    cr_assert_eq(grid_clearance_mode(tw.grid), GRID_CLEARANCE_ROUND, "round is the default");
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* grid_shape_blocks_cell is the corner rule with the narrow-shape
** clearance, for every class. */
Test(grid_updates, shape_blocks_cell_is_the_corner_rule)
{
    for (int v = 0; v < 2; v++) {
        TWorld tw;
        tw_make(&tw, 40, 32, v ? 1.0 : 0.5, 555 + (uint64_t)v, NULL);
        OracleRng r = { 31337 + (uint64_t)v };
        int checked = 0, close = 0, blocked = 0;
        Tally t = { 0 };
        for (int n = 0; n < 150; n++) {
            GridShape sh = random_shape(&r, &tw);
            char sb[160];
            for (int k = 0; k < tw.ncls; k++)
                for (int y = 0; y < tw.h; y++)
                    for (int x = 0; x < tw.w; x++) {
                        double mg = oracle_shape_margin(&sh, tw.s, tw.radius[k], x, y);
                        if (fabs(mg) < EPS_M) {
                            close++;
                            continue;
                        }
                        checked++;
                        bool got = grid_shape_blocks_cell(tw.grid, k, &sh, x, y), want = mg < 0;
                        blocked += want;
                        if (got != want)
                            fail(&t, "cell %.1f: shape %s class %s (radius %.2f) cell (%d,%d): blocks %d, expected %d "
                                     "(largest corner distance minus clearance %.6f m)",
                                 tw.s, shape_str(&sh, sb, sizeof sb), classname(&tw, k), tw.radius[k], x, y, got, want, mg);
                    }
        }
        cr_log_info("shape_blocks_cell, cell %.1f: %d checks (%d blocked), %d too close to call", tw.s, checked, blocked, close);
        cr_assert_gt(blocked, 1000);
        cr_assert_eq(t.failures, 0, "%d failures; first: %s", t.failures, t.first);
        tw_free(&tw);
    }
    NAV_TEST_LEAK_CHECK();
}

/* A fence 0.05 m wide across an open room at any angle cuts it in two, for
** every class including the point one, and the room joins up again when the
** fence goes. A short fence leaves a way round. */
Test(grid_updates, narrow_fence_disconnects_at_any_angle)
{
    static const double ANGLES[] = { 0, 17, 45, 60, 90, 135, 172.5 };
    for (int v = 0; v < 2; v++) {
        double s = v ? 1.0 : 0.5;
        int n = (int)(24 / s);
        size_t cap = (size_t)(n + 1) * (size_t)n + 512;
        char *src = malloc(cap);
        int len = snprintf(src, cap, "return { cell_size = %g, layers = { { z = 0, rows = [[\n", s);
        for (int y = 0; y < n; y++) {
            memset(src + len, '.', (size_t)n);
            len += n;
            src[len++] = '\n';
        }
        snprintf(src + len, cap - (size_t)len, "]] } },\n  classes = { { name = 'point', radius = 0 } } }\n");
        NavError err;
        NavWorld *w = map_load_buffer(src, strlen(src), "room.lua", NULL, &err);
        cr_assert_not_null(w, "%s", err.message);
        NavGrid *g = grid_create(w, NULL, &err);
        cr_assert_not_null(g, "%s", err.message);
        int ncls = grid_class_count(g);
        for (size_t a = 0; a < NAV_ARRAY_COUNT(ANGLES); a++) {
            double ang = ANGLES[a] * PI / 180.0;
            /* two cells 5 m either side of the fence's line */
            float nx = (float)-sin(ang), ny = (float)cos(ang);
            int ax, ay, bx, by;
            cr_assert(grid_cell_of(g, 12.0f + 5 * nx, 12.0f + 5 * ny, &ax, &ay));
            cr_assert(grid_cell_of(g, 12.0f - 5 * nx, 12.0f - 5 * ny, &bx, &by));
            for (int k = 0; k < ncls; k++)
                cr_assert(grid_reachable(g, k, ax, ay, bx, by), "cell %.1f angle %.1f: joined before the fence", s, ANGLES[a]);

            GridShape fence = { 12.0f, 12.0f, 20.0f, 0.025f, (float)ang };
            GridObstructionId id;
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &fence, &id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++) {
                cr_assert(grid_passable(g, k, ax, ay) && grid_passable(g, k, bx, by));
                cr_expect(!grid_reachable(g, k, ax, ay, bx, by),
                          "cell %.1f angle %.1f class %s: a 0.05 m fence across the room leaves (%d,%d) and (%d,%d) "
                          "connected",
                          s, ANGLES[a], grid_class(g, k)->name, ax, ay, bx, by);
                /* and the hierarchy agrees with a flood fill */
                OracleMap om = { n, n, malloc((size_t)n * (size_t)n) };
                int *comp = malloc(sizeof *comp * (size_t)n * (size_t)n);
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++) om.pass[y * n + x] = grid_passable(g, k, x, y);
                oracle_components(&om, comp);
                cr_expect_neq(comp[ay * n + ax], comp[by * n + bx],
                              "cell %.1f angle %.1f class %s: the rasterized fence has a gap", s, ANGLES[a],
                              grid_class(g, k)->name);
                free(comp);
                free(om.pass);
            }
            /* moved away: joined; moved back: cut; removed: joined */
            GridShape away = fence;
            away.x = -30.0f; /* wholly off the map, within the engine's sanity limit */
            cr_assert(NAV_SUCCEEDED(grid_move_obstruction(g, id, &away, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: the fence moved off the map still cuts", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_move_obstruction(g, id, &fence, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(!grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: the fence moved back does not cut", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "cell %.1f angle %.1f class %s: not joined after removal",
                          s, ANGLES[a], grid_class(g, k)->name);

            /* a short fence: the way round stays open */
            GridShape stub = { 12.0f, 12.0f, 3.0f, 0.025f, (float)ang };
            cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &stub, &id, &err)), "%s", err.message);
            for (int k = 0; k < ncls; k++)
                cr_expect(grid_reachable(g, k, ax, ay, bx, by), "angle %.1f: a 6 m fence in a 24 m room cuts it", ANGLES[a]);
            cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, id, &err)), "%s", err.message);
            cr_assert_eq(grid_obstruction_count(g), 0);
        }
        grid_destroy(g);
        world_destroy(w);
        free(src);
    }
    NAV_TEST_LEAK_CHECK();
}

static void snapshot(const NavGrid *g, uint8_t *out)
{
    int w = grid_width(g), h = grid_height(g), n = 0;
    for (int k = 0; k < grid_class_count(g); k++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) out[n++] = grid_passable(g, k, x, y);
}

/* Stale handles are refused and never come back. */
Test(grid_updates, stale_ids_are_refused)
{
    TWorld tw;
    tw_make(&tw, 40, 30, 0.5, 99, NULL);
    NavGrid *g = tw.grid;
    size_t snap_len = (size_t)tw.ncls * (size_t)tw.w * (size_t)tw.h;
    uint8_t *before = malloc(snap_len), *after = malloc(snap_len);
    NavError err;
    GridShape a = { 5, 5, 2, 1, 0.3f }, b = { 12, 8, 1, 1, 0 };
    GridObstructionId ia, ib, ic;
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &a, &ia, &err)));
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &b, &ib, &err)));
    cr_assert_neq(ia.id, ib.id);
    cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, ia, &err)));
    snapshot(g, before);

    nav_error_clear(&err);
    cr_expect(NAV_FAILED(grid_remove_obstruction(g, ia, &err)), "removing twice succeeds");
    cr_expect(NAV_FAILED(err.status), "the error is not filled in");
    cr_expect(NAV_FAILED(grid_move_obstruction(g, ia, &b, &err)), "moving a removed id succeeds");
    GridShape out;
    cr_expect(!grid_obstruction_shape(g, ia, &out), "a removed id still has a shape");
    cr_expect_eq(grid_obstruction_count(g), 1);
    snapshot(g, after);
    cr_expect(memcmp(before, after, snap_len) == 0, "a refused change altered the grid");

    /* a new obstruction never takes the old handle */
    for (int i = 0; i < 20; i++) {
        cr_assert(NAV_SUCCEEDED(grid_add_obstruction(g, &a, &ic, &err)));
        cr_expect_neq(ic.id, ia.id, "a removed id was reused");
        cr_expect(NAV_FAILED(grid_remove_obstruction(g, ia, NULL)), "the old id works again after reuse");
        cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(g, ic, &err)));
    }
    /* made-up handles */
    GridObstructionId bogus[] = { { 0 }, { UINT32_MAX }, { ib.id ^ 0x80000000u }, { ib.id + 1000 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bogus); i++) {
        if (bogus[i].id == ib.id) continue;
        cr_expect(NAV_FAILED(grid_remove_obstruction(g, bogus[i], NULL)), "bogus id %u removed", bogus[i].id);
        cr_expect(NAV_FAILED(grid_move_obstruction(g, bogus[i], &a, NULL)), "bogus id %u moved", bogus[i].id);
        cr_expect(!grid_obstruction_shape(g, bogus[i], &out), "bogus id %u has a shape", bogus[i].id);
    }
    cr_expect(grid_obstruction_shape(g, ib, &out), "the live id is refused");
    cr_expect_eq(grid_obstruction_count(g), 1);

    /* a bad shape is refused and changes nothing */
    snapshot(g, before);
    GridShape bad[] = { { NAN, 5, 1, 1, 0 }, { 5, INFINITY, 1, 1, 0 }, { 5, 5, NAN, 1, 0 }, { 5, 5, 1, 1, NAN } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        GridObstructionId id;
        cr_expect(NAV_FAILED(grid_add_obstruction(g, &bad[i], &id, &err)), "bad shape %zu accepted", i);
        cr_expect(NAV_FAILED(grid_move_obstruction(g, ib, &bad[i], &err)), "bad shape %zu accepted by move", i);
    }
    snapshot(g, after);
    cr_expect(memcmp(before, after, snap_len) == 0, "a refused shape altered the grid");
    cr_expect_eq(grid_obstruction_count(g), 1);

    free(before);
    free(after);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* grid_region_of gives a "region index" and grid_region_count the number
** of regions: an index must fit below the count (a caller that sizes an
** array by the count and indexes it by the region would overrun it). */
Test(grid_updates, region_indices_are_below_region_count)
{
    TWorld tw;
    tw_make(&tw, 48, 40, 0.5, 1001, NULL);
    int bad = 0, fx = -1, fy = -1, fk = -1, fr = -1, fc = -1;
    for (int k = 0; k < tw.ncls; k++) {
        int count = grid_region_count(tw.grid, k);
        for (int y = 0; y < tw.h; y++)
            for (int x = 0; x < tw.w; x++) {
                int reg = grid_region_of(tw.grid, k, x, y);
                if (reg >= count && !bad++) fk = k, fx = x, fy = y, fr = reg, fc = count;
            }
    }
    cr_expect_eq(bad, 0, "%d class-cells have a region index at or above grid_region_count; first: class %d cell (%d,%d) "
                         "region %d, count %d",
                 bad, fk, fx, fy, fr, fc);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* "A stale id is refused, never reused": thousands of add/remove cycles
** (which recycle the same slot) never hand out an id twice. */
Test(grid_updates, ids_never_repeat)
{
    TWorld tw;
    tw_make(&tw, 20, 20, 0.5, 6, NULL);
    enum { N = 10000 };
    uint32_t *ids = malloc(sizeof *ids * N);
    GridShape sh = { 3, 3, 1, 1, 0 };
    NavError err;
    for (int i = 0; i < N; i++) {
        GridObstructionId id;
        cr_assert(NAV_SUCCEEDED(grid_add_obstruction(tw.grid, &sh, &id, &err)), "%s", err.message);
        ids[i] = id.id;
        cr_assert(NAV_SUCCEEDED(grid_remove_obstruction(tw.grid, id, &err)), "%s", err.message);
    }
    GridObstructionId first = { ids[0] };
    cr_expect(NAV_FAILED(grid_remove_obstruction(tw.grid, first, NULL)), "the first id works again");
    /* with one obstruction live, no stale id may reach it */
    GridObstructionId live;
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(tw.grid, &sh, &live, &err)), "%s", err.message);
    int reach = 0, first_reach = -1;
    GridShape out;
    for (int i = 0; i < N; i++)
        if (grid_obstruction_shape(tw.grid, (GridObstructionId){ ids[i] }, &out) && !reach++) first_reach = i;
    cr_expect_eq(reach, 0, "%d of %d removed ids address the live obstruction (first: the id of cycle %d, 0x%08x; "
                           "the live id is 0x%08x)",
                 reach, N, first_reach, first_reach >= 0 ? ids[first_reach] : 0u, live.id);
    qsort(ids, N, sizeof *ids, cmp_u32);
    int dupes = 0;
    uint32_t dup = 0;
    for (int i = 1; i < N; i++)
        if (ids[i] == ids[i - 1] && !dupes++) dup = ids[i];
    cr_expect_eq(dupes, 0, "%d ids handed out twice in %d add/remove cycles (first: 0x%08x)", dupes, N, dup);
    free(ids);
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, bad_chunk_sizes_are_refused)
{
    TWorld tw;
    tw_make(&tw, 20, 20, 0.5, 5, NULL);
    static const int bad[] = { 1, 3, 17, 64, -4 };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        NavError err;
        nav_error_clear(&err);
        NavGrid *g = grid_create(tw.world, &(NavGridDesc){ .chunk_size = bad[i] }, &err);
        cr_expect_null(g, "chunk size %d accepted", bad[i]);
        if (g) grid_destroy(g);
        else cr_expect(NAV_FAILED(err.status), "chunk size %d: error not set", bad[i]);
    }
    tw_free(&tw);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

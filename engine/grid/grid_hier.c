/*
** grid_hier.c — the hierarchical connectivity of a class's navcells.
**
** The map is cut into chunks of at most 16 x 16 cells. Inside a chunk the
** passable cells fall into regions (4-connected components; the movement
** rule lets a diagonal step only where both orthogonal cells are open, so
** 4-connectivity is exactly what paths can connect). Regions of
** neighbouring chunks are joined by edges wherever two open cells face each
** other across the border, and a union-find over regions and edges gives
** every region a component id. reachable(a, b) compares two ids.
**
** A change relabels only the chunks under its dirty box and the borders
** around them; the union-find pass over the region graph (a few thousand
** regions on a 512 x 512 map) is cheap next to flooding cells, which is
** what 0 A.D. does on a change.
*/
#include "grid/grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline int chunk_of(const NavGrid *g, int x, int y) { return (y / g->chunk) * g->chunks_x + x / g->chunk; }

NavStatus grid_hier_alloc(NavGrid *g, int cls)
{
    GridClassData *d = &g->cls[cls];
    size_t cells = (size_t)g->w * (size_t)g->h;
    size_t chunks = (size_t)g->chunks_x * (size_t)g->chunks_y;
    d->region = malloc(cells);
    d->region_count = calloc(chunks, 1);
    d->east = calloc(chunks * GRID_BORDER_EDGES, sizeof *d->east);
    d->north = calloc(chunks * GRID_BORDER_EDGES, sizeof *d->north);
    d->east_count = calloc(chunks, 1);
    d->north_count = calloc(chunks, 1);
    d->comp = malloc(chunks * GRID_REGIONS_PER_CHUNK * sizeof *d->comp);
    d->uf = malloc(chunks * GRID_REGIONS_PER_CHUNK * sizeof *d->uf);
    d->region_base = malloc(chunks * sizeof *d->region_base);
    if (!d->region_base || !d->region || !d->region_count || !d->east || !d->north || !d->east_count || !d->north_count || !d->comp ||
        !d->uf)
        return NAV_FAILURE | NAV_E_NOMEM;
    return NAV_OK;
}

void grid_hier_free(GridClassData *d)
{
    free(d->region);
    free(d->region_count);
    free(d->east);
    free(d->north);
    free(d->east_count);
    free(d->north_count);
    free(d->comp);
    free(d->uf);
    free(d->region_base);
}

size_t grid_hier_memory(const NavGrid *g, int cls)
{
    (void)cls;
    size_t cells = (size_t)g->w * (size_t)g->h;
    size_t chunks = (size_t)g->chunks_x * (size_t)g->chunks_y;
    return cells + chunks * (3 + 2 * GRID_BORDER_EDGES * sizeof(GridEdge) + 2 * GRID_REGIONS_PER_CHUNK * sizeof(uint32_t) +
                             sizeof(uint32_t));
}

/* {======= regions inside a chunk ======= */

static void label_chunk(NavGrid *g, int cls, int ch)
{
    GridClassData *d = &g->cls[cls];
    int cx = ch % g->chunks_x, cy = ch / g->chunks_x;
    int x0 = cx * g->chunk, y0 = cy * g->chunk;
    int x1 = NAV_MIN(x0 + g->chunk, g->w), y1 = NAV_MIN(y0 + g->chunk, g->h);
    for (int y = y0; y < y1; y++)
        memset(d->region + grid_index(g, x0, y), GRID_NO_REGION, (size_t)(x1 - x0));

    int16_t stack[GRID_MAX_CHUNK * GRID_MAX_CHUNK * 2];
    uint8_t next = 0;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            if (d->region[grid_index(g, x, y)] != GRID_NO_REGION || !grid_open(g, cls, x, y)) continue;
            uint8_t id = next++;
            int top = 0;
            d->region[grid_index(g, x, y)] = id;
            stack[top++] = (int16_t)x;
            stack[top++] = (int16_t)y;
            while (top > 0) {
                int py = stack[--top], px = stack[--top];
                static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
                for (int k = 0; k < 4; k++) {
                    int nx = px + DX[k], ny = py + DY[k];
                    if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1) continue;
                    uint8_t *r = &d->region[grid_index(g, nx, ny)];
                    if (*r != GRID_NO_REGION || !grid_open(g, cls, nx, ny)) continue;
                    *r = id;
                    stack[top++] = (int16_t)nx;
                    stack[top++] = (int16_t)ny;
                }
            }
        }
    }
    d->region_count[ch] = next;
}

/* }======= */

/* {======= edges across chunk borders ======= */

static void add_edge(GridEdge *list, uint8_t *count, uint8_t a, uint8_t b)
{
    for (int i = 0; i < *count; i++)
        if (list[i].a == a && list[i].b == b) return;
    if (*count < GRID_BORDER_EDGES) list[(*count)++] = (GridEdge){ a, b };
}

/* Edges from chunk ch to the chunk east of it. At most one per border
** cell, so GRID_BORDER_EDGES always suffices. */
static void link_east(NavGrid *g, int cls, int ch)
{
    GridClassData *d = &g->cls[cls];
    int cx = ch % g->chunks_x, cy = ch / g->chunks_x;
    d->east_count[ch] = 0;
    if (cx + 1 >= g->chunks_x) return;
    int x = (cx + 1) * g->chunk - 1;
    int y0 = cy * g->chunk, y1 = NAV_MIN(y0 + g->chunk, g->h);
    GridEdge *list = d->east + (size_t)ch * GRID_BORDER_EDGES;
    for (int y = y0; y < y1; y++) {
        uint8_t a = d->region[grid_index(g, x, y)], b = d->region[grid_index(g, x + 1, y)];
        if (a != GRID_NO_REGION && b != GRID_NO_REGION) add_edge(list, &d->east_count[ch], a, b);
    }
}

static void link_north(NavGrid *g, int cls, int ch)
{
    GridClassData *d = &g->cls[cls];
    int cx = ch % g->chunks_x, cy = ch / g->chunks_x;
    d->north_count[ch] = 0;
    if (cy + 1 >= g->chunks_y) return;
    int y = (cy + 1) * g->chunk - 1;
    int x0 = cx * g->chunk, x1 = NAV_MIN(x0 + g->chunk, g->w);
    GridEdge *list = d->north + (size_t)ch * GRID_BORDER_EDGES;
    for (int x = x0; x < x1; x++) {
        uint8_t a = d->region[grid_index(g, x, y)], b = d->region[grid_index(g, x, y + 1)];
        if (a != GRID_NO_REGION && b != GRID_NO_REGION) add_edge(list, &d->north_count[ch], a, b);
    }
}

/* }======= */

/* {======= components ======= */

static uint32_t find(uint32_t *uf, uint32_t a)
{
    while (uf[a] != a) {
        uf[a] = uf[uf[a]];
        a = uf[a];
    }
    return a;
}

static void unite(uint32_t *uf, uint32_t a, uint32_t b)
{
    a = find(uf, a);
    b = find(uf, b);
    /* The smaller slot is the root, so ids do not depend on edge order. */
    if (a < b) uf[b] = a;
    else if (b < a) uf[a] = b;
}

static void compute_components(NavGrid *g, int cls)
{
    GridClassData *d = &g->cls[cls];
    int chunks = g->chunks_x * g->chunks_y;
    int total = 0;
    for (int ch = 0; ch < chunks; ch++) {
        uint32_t base = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
        for (uint32_t r = 0; r < d->region_count[ch]; r++) d->uf[base + r] = base + r;
        d->region_base[ch] = (uint32_t)total;
        total += d->region_count[ch];
    }
    for (int ch = 0; ch < chunks; ch++) {
        uint32_t base = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
        const GridEdge *e = d->east + (size_t)ch * GRID_BORDER_EDGES;
        for (int i = 0; i < d->east_count[ch]; i++)
            unite(d->uf, base + e[i].a, base + GRID_REGIONS_PER_CHUNK + e[i].b);
        const GridEdge *n = d->north + (size_t)ch * GRID_BORDER_EDGES;
        uint32_t above = (uint32_t)(ch + g->chunks_x) * GRID_REGIONS_PER_CHUNK;
        for (int i = 0; i < d->north_count[ch]; i++) unite(d->uf, base + n[i].a, above + n[i].b);
    }
    for (int ch = 0; ch < chunks; ch++) {
        uint32_t base = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
        for (uint32_t r = 0; r < d->region_count[ch]; r++) d->comp[base + r] = find(d->uf, base + r);
    }
    d->regions = total;
}

void grid_hier_update(NavGrid *g, int cls, int x0, int y0, int x1, int y1)
{
    int cx0 = NAV_MAX(x0, 0) / g->chunk, cy0 = NAV_MAX(y0, 0) / g->chunk;
    int cx1 = NAV_MIN(x1, g->w - 1) / g->chunk, cy1 = NAV_MIN(y1, g->h - 1) / g->chunk;
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) label_chunk(g, cls, cy * g->chunks_x + cx);
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = NAV_MAX(cx0 - 1, 0); cx <= cx1; cx++) link_east(g, cls, cy * g->chunks_x + cx);
    for (int cy = NAV_MAX(cy0 - 1, 0); cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) link_north(g, cls, cy * g->chunks_x + cx);
    compute_components(g, cls);
}

/* }======= */

/* {======= queries ======= */

uint32_t grid_component(const NavGrid *g, int cls, int x, int y)
{
    if (cls < 0 || cls >= g->ncls || !grid_in_bounds(g, x, y)) return UINT32_MAX;
    const GridClassData *d = &g->cls[cls];
    uint8_t r = d->region[grid_index(g, x, y)];
    if (r == GRID_NO_REGION) return UINT32_MAX;
    return d->comp[(uint32_t)chunk_of(g, x, y) * GRID_REGIONS_PER_CHUNK + r];
}

bool grid_reachable(const NavGrid *g, int cls, int ax, int ay, int bx, int by)
{
    uint32_t a = grid_component(g, cls, ax, ay);
    return a != UINT32_MAX && a == grid_component(g, cls, bx, by);
}

int grid_region_count(const NavGrid *g, int cls)
{
    return (cls >= 0 && cls < g->ncls) ? g->cls[cls].regions : 0;
}

int grid_region_of(const NavGrid *g, int cls, int x, int y)
{
    if (cls < 0 || cls >= g->ncls || !grid_in_bounds(g, x, y)) return -1;
    uint8_t r = g->cls[cls].region[grid_index(g, x, y)];
    return r == GRID_NO_REGION ? -1 : (int)(g->cls[cls].region_base[chunk_of(g, x, y)] + r);
}

/* Ring search around (tx, ty) for the cell accepted by want() nearest by
** centre distance; ties go to the lower y, then the lower x. Rings grow
** until the nearest point a ring can hold is farther than the best. */
typedef bool (*CellTest)(const NavGrid *g, int cls, uint32_t arg, int x, int y);

static bool ring_search(const NavGrid *g, int cls, uint32_t arg, CellTest want, int tx, int ty, int *ox, int *oy)
{
    long best = -1;
    int bx = 0, by = 0;
    int limit = NAV_MAX(g->w, g->h) + NAV_MAX(abs(tx), abs(ty)) + 1;
    for (int ring = 0; ring <= limit; ring++) {
        if (best >= 0 && (long)ring * ring > best) break;
        for (int dy = -ring; dy <= ring; dy++) {
            int y = ty + dy;
            if (y < 0 || y >= g->h) continue;
            int step = (abs(dy) == ring) ? 1 : 2 * ring;
            for (int dx = -ring; dx <= ring; dx += (step ? step : 1)) {
                int x = tx + dx;
                if (x < 0 || x >= g->w || !want(g, cls, arg, x, y)) continue;
                long d2 = (long)dx * dx + (long)dy * dy;
                if (best < 0 || d2 < best || (d2 == best && (y < by || (y == by && x < bx)))) {
                    best = d2;
                    bx = x;
                    by = y;
                }
            }
        }
    }
    if (best < 0) return false;
    *ox = bx;
    *oy = by;
    return true;
}

static bool is_passable(const NavGrid *g, int cls, uint32_t arg, int x, int y)
{
    (void)arg;
    return grid_passable(g, cls, x, y);
}

static bool in_component(const NavGrid *g, int cls, uint32_t comp, int x, int y)
{
    return grid_component(g, cls, x, y) == comp;
}

bool grid_nearest_passable(const NavGrid *g, int cls, int x, int y, int *ox, int *oy)
{
    if (cls < 0 || cls >= g->ncls) return false;
    return ring_search(g, cls, 0, is_passable, x, y, ox, oy);
}

bool grid_nearest_in_component(const NavGrid *g, int cls, uint32_t comp, int tx, int ty, int *ox, int *oy)
{
    if (cls < 0 || cls >= g->ncls || comp == UINT32_MAX) return false;
    return ring_search(g, cls, comp, in_component, tx, ty, ox, oy);
}

/* }======= */

/*
** area_cut.c — cut lines through open ground, to bound cluster size.
**
** Rooms and corridors split into clusters at their doorways. Open ground
** has no doorways, so a cluster there can grow without bound. When a
** compile pass leaves a cluster over the limit, this plans straight lines
** of cells through it; the next pass grows no area across a line, the
** line's own cells make thin areas along it, and clustering takes those as
** portal candidates (area_cluster.c).
**
** The lines form a k-d tree over the map's cells. A node is a rectangle;
** an inner node is cut by one whole row or column of its rectangle, and
** its two children are the parts on either side, the line's cells in
** neither. A leaf is cut while it holds more area centres than the pass's
** target and some of them belong to an oversized cluster. The line runs
** across the longer side, through the middle third of the centres, at the
** row or column with the fewest usable cells: short cuts make few portals.
** Each pass halves the target, for clusters a coarse cut left too big
** (links that leap a line join what it divides).
**
** Where a child's line ends against its parent's, the parent's line breaks
** into separate zones there, the meeting cell going with the segment
** before it. So each segment touches one region on each side and every
** portal still separates exactly two clusters at a T-junction.
*/
#include "area/area_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct AreaCutNode {
    int32_t x0, y0, x1, y1; /* cells, inclusive */
    int32_t axis;           /* -1 a leaf; 0 cut by column x = at; 1 by row y = at */
    int32_t at;
    uint32_t child[2]; /* below the line, above it */
} AreaCutNode;

typedef struct Plan {
    NavAreaGraph *ag;
    const int32_t *cx, *cy; /* area centres, cells */
    const uint8_t *heavy;   /* area in an oversized cluster */
    const uint8_t *usable;  /* cell holds a floor the class can use */
    int32_t *scratch;       /* n coordinates */
    uint32_t target;
    bool added;
    bool nomem;
} Plan;

void area_free_cuts(NavAreaGraph *ag)
{
    nav_free(ag->cuts);
    nav_free(ag->cell_zone);
    ag->cuts = NULL;
    ag->cell_zone = NULL;
    ag->cut_count = ag->cut_cap = 0;
}

static uint32_t new_node(Plan *p, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    NavAreaGraph *ag = p->ag;
    if (ag->cut_count == ag->cut_cap) {
        uint32_t cap = ag->cut_cap ? 2 * ag->cut_cap : 64;
        AreaCutNode *nn = nav_realloc(ag->cuts, (size_t)cap * sizeof *nn);
        if (!nn) {
            p->nomem = true;
            return UINT32_MAX;
        }
        ag->cuts = nn;
        ag->cut_cap = cap;
    }
    ag->cuts[ag->cut_count] = (AreaCutNode){ x0, y0, x1, y1, -1, 0, { 0, 0 } };
    return ag->cut_count++;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Could cells (x, y) and (u, v) share an area: floors of one kind within
** a step? Cells off the map or unusable cannot. */
static bool compatible(const NavAreaGraph *ag, int x, int y, int u, int v)
{
    if (!area_cell_valid(ag, x, y) || !area_cell_valid(ag, u, v)) return false;
    int n, m;
    uint32_t fa, fb;
    const NavFloor *a = area_column(ag, x, y, &n, &fa), *b = area_column(ag, u, v, &m, &fb);
    for (int i = 0; i < n; i++) {
        uint8_t k = ag->floor_kind[fa + (uint32_t)i];
        if (!k) continue;
        for (int j = 0; j < m; j++)
            if (ag->floor_kind[fb + (uint32_t)j] == k &&
                fabsf(world_standing_height(&a[i]) - world_standing_height(&b[j])) <= ag->cls.step + 1e-4f)
                return true;
    }
    return false;
}

/* Is cell (x, y) usable? */
static bool usable_cell(const Plan *p, int x, int y)
{
    return area_cell_valid(p->ag, x, y) && p->usable[(size_t)y * (size_t)p->ag->w + (size_t)x];
}

/* A line ending against another at usable cell (x, y) of it, the other
** running along (dx, dy): that cell must share an area with a neighbour
** along the other line, or it makes a portal to one side only (see the
** header). */
static bool bad_junction(const Plan *p, int x, int y, int dx, int dy)
{
    if (!usable_cell(p, x, y)) return false;
    return !compatible(p->ag, x, y, x - dx, y - dy) && !compatible(p->ag, x, y, x + dx, y + dy);
}

/* Usable cells on line `at` of node `nd` across axis `axis`. */
static uint32_t line_cost(const Plan *p, const AreaCutNode *nd, int axis, int32_t at)
{
    const NavAreaGraph *ag = p->ag;
    uint32_t cost = 0, len;
    if (axis == 0) {
        for (int32_t y = nd->y0; y <= nd->y1; y++) cost += p->usable[(size_t)y * (size_t)ag->w + (size_t)at];
        len = (uint32_t)(nd->y1 - nd->y0 + 1);
        cost += len * (bad_junction(p, at, nd->y0 - 1, 1, 0) + bad_junction(p, at, nd->y1 + 1, 1, 0));
    } else {
        for (int32_t x = nd->x0; x <= nd->x1; x++) cost += p->usable[(size_t)at * (size_t)ag->w + (size_t)x];
        len = (uint32_t)(nd->x1 - nd->x0 + 1);
        cost += len * (bad_junction(p, nd->x0 - 1, at, 0, 1) + bad_junction(p, nd->x1 + 1, at, 0, 1));
    }
    return cost;
}

/* The best line for node `nd` holding areas idx[0..n): false if none fits. */
static bool choose_line(Plan *p, const AreaCutNode *nd, const uint32_t *idx, uint32_t n, int *axis_out, int32_t *at_out)
{
    int first = (nd->x1 - nd->x0) >= (nd->y1 - nd->y0) ? 0 : 1;
    for (int k = 0; k < 2; k++) {
        int axis = k == 0 ? first : 1 - first;
        int32_t lo = axis == 0 ? nd->x0 : nd->y0, hi = axis == 0 ? nd->x1 : nd->y1;
        if (lo + 1 > hi - 1) continue;
        for (uint32_t i = 0; i < n; i++) p->scratch[i] = axis == 0 ? p->cx[idx[i]] : p->cy[idx[i]];
        qsort(p->scratch, n, sizeof *p->scratch, cmp_i32);
        int32_t median = p->scratch[n / 2];
        int32_t from = NAV_MAX(p->scratch[n / 3], lo + 1), to = NAV_MIN(p->scratch[(2 * (size_t)n) / 3], hi - 1);
        if (from > to) {
            /* The centres bunch up: any inner line near them. */
            from = to = NAV_MIN(NAV_MAX(median, lo + 1), hi - 1);
        }
        uint32_t best_cost = UINT32_MAX;
        int32_t best = 0;
        for (int32_t at = from; at <= to; at++) {
            uint32_t cost = line_cost(p, nd, axis, at);
            int32_t off = at > median ? at - median : median - at,
                    best_off = best > median ? best - median : median - best;
            if (cost < best_cost || (cost == best_cost && off < best_off)) {
                best_cost = cost;
                best = at;
            }
        }
        *axis_out = axis;
        *at_out = best;
        return true;
    }
    return false;
}

/* Cut node `id` holding areas idx[0..n) (reordered), then its parts. */
static void split(Plan *p, uint32_t id, uint32_t *idx, uint32_t n)
{
    if (n <= p->target || p->nomem) return;
    bool heavy = false;
    for (uint32_t i = 0; i < n && !heavy; i++) heavy = p->heavy[idx[i]];
    if (!heavy) return;
    AreaCutNode nd = p->ag->cuts[id];
    int axis;
    int32_t at;
    if (!choose_line(p, &nd, idx, n, &axis, &at)) return;
    /* Partition: below the line, then above; centres on it go to neither. */
    uint32_t below = 0, above = n;
    for (uint32_t i = 0; i < above;) {
        int32_t c = axis == 0 ? p->cx[idx[i]] : p->cy[idx[i]];
        if (c < at) {
            uint32_t t = idx[below];
            idx[below++] = idx[i];
            idx[i] = t;
            i++;
        } else if (c > at) {
            uint32_t t = idx[--above];
            idx[above] = idx[i];
            idx[i] = t;
        } else {
            i++;
        }
    }
    uint32_t lo = axis == 0 ? new_node(p, nd.x0, nd.y0, at - 1, nd.y1) : new_node(p, nd.x0, nd.y0, nd.x1, at - 1);
    uint32_t hi = axis == 0 ? new_node(p, at + 1, nd.y0, nd.x1, nd.y1) : new_node(p, nd.x0, at + 1, nd.x1, nd.y1);
    if (p->nomem) return;
    AreaCutNode *node = &p->ag->cuts[id];
    node->axis = axis;
    node->at = at;
    node->child[0] = lo;
    node->child[1] = hi;
    p->added = true;
    split(p, lo, idx, below);
    split(p, hi, idx + above, n - above);
}

/* The leaf holding cell (x, y), or UINT32_MAX for a cell on a line. */
static uint32_t leaf_of(const NavAreaGraph *ag, int32_t x, int32_t y)
{
    uint32_t id = 0;
    for (;;) {
        const AreaCutNode *nd = &ag->cuts[id];
        if (nd->axis < 0) return id;
        int32_t c = nd->axis == 0 ? x : y;
        if (c == nd->at) return UINT32_MAX;
        id = nd->child[c > nd->at];
    }
}

/* Give every line cell its segment's zone. */
static bool assign_zones(NavAreaGraph *ag)
{
    size_t cells = (size_t)ag->w * (size_t)ag->h;
    if (!ag->cell_zone) ag->cell_zone = nav_malloc(cells * sizeof *ag->cell_zone);
    if (!ag->cell_zone) return false;
    memset(ag->cell_zone, 0, cells * sizeof *ag->cell_zone);
    /* First mark every line cell, so breaks can be seen. */
    for (uint32_t id = 0; id < ag->cut_count; id++) {
        const AreaCutNode *nd = &ag->cuts[id];
        if (nd->axis < 0) continue;
        int32_t lo = nd->axis == 0 ? nd->y0 : nd->x0, hi = nd->axis == 0 ? nd->y1 : nd->x1;
        for (int32_t t = lo; t <= hi; t++) {
            int32_t x = nd->axis == 0 ? nd->at : t, y = nd->axis == 0 ? t : nd->at;
            ag->cell_zone[(size_t)y * (size_t)ag->w + (size_t)x] = 1;
        }
    }
    uint32_t zone = 1;
    for (uint32_t id = 0; id < ag->cut_count; id++) {
        const AreaCutNode *nd = &ag->cuts[id];
        if (nd->axis < 0) continue;
        int32_t lo = nd->axis == 0 ? nd->y0 : nd->x0, hi = nd->axis == 0 ? nd->y1 : nd->x1;
        zone++;
        int32_t sx = nd->axis == 0 ? 0 : 1, sy = nd->axis == 0 ? 1 : 0; /* along the line */
        for (int32_t t = lo; t <= hi; t++) {
            int32_t x = nd->axis == 0 ? nd->at : t, y = nd->axis == 0 ? t : nd->at;
            /* A child's line ends against this cell: the zone changes here.
            ** The meeting cell goes with the segment it can share an area
            ** with, the one before unless only the one after fits. */
            int32_t ax = x - sy, ay = y - sx, bx = x + sy, by = y + sx;
            bool meet = (area_cell_valid(ag, ax, ay) && ag->cell_zone[(size_t)ay * (size_t)ag->w + (size_t)ax]) ||
                        (area_cell_valid(ag, bx, by) && ag->cell_zone[(size_t)by * (size_t)ag->w + (size_t)bx]);
            bool with_next = meet && t > lo && t < hi && !compatible(ag, x, y, x - sx, y - sy) &&
                             compatible(ag, x, y, x + sx, y + sy);
            if (with_next) zone++;
            ag->cell_zone[(size_t)y * (size_t)ag->w + (size_t)x] = zone;
            if (meet && !with_next && t < hi) zone++;
        }
    }
    return true;
}

NavStatus area_plan_cuts(NavAreaGraph *ag, int pass, bool *added, NavError *err)
{
    *added = false;
    uint32_t limit = (uint32_t)ag->desc.max_cluster_areas, n = ag->area_count;
    bool over = false;
    for (uint32_t c = 1; c <= ag->cluster_count && !over; c++) over = ag->clusters[c].area_count > limit;
    if (!over || n == 0) return NAV_OK;

    size_t cells = (size_t)ag->w * (size_t)ag->h;
    int32_t *cx = nav_malloc(n * sizeof *cx), *cy = nav_malloc(n * sizeof *cy),
            *scratch = nav_malloc(n * sizeof *scratch);
    uint8_t *heavy = nav_malloc(n), *usable = nav_calloc(cells, 1);
    uint32_t *leaf = nav_malloc(n * sizeof *leaf), *idx = nav_malloc(n * sizeof *idx);
    uint32_t *first = NULL;
    NavStatus status = NAV_FAILURE | NAV_E_NOMEM;
    Plan p = { ag, cx, cy, heavy, usable, scratch, 0, false, false };
    if (!cx || !cy || !scratch || !heavy || !usable || !leaf || !idx) goto nomem;
    if (!ag->cuts && new_node(&p, 0, 0, ag->w - 1, ag->h - 1) == UINT32_MAX) goto nomem;

    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = &ag->areas[a];
        cx[a] = (ar->x0 + ar->x1) / 2;
        cy[a] = (ar->y0 + ar->y1) / 2;
        heavy[a] = ar->cluster && ag->clusters[ar->cluster].area_count > limit;
    }
    for (int y = 0; y < ag->h; y++)
        for (int x = 0; x < ag->w; x++) {
            int nf;
            world_column(ag->world, x, y, &nf);
            uint32_t f0 = world_column_first(ag->world, x, y);
            for (int i = 0; i < nf; i++)
                if (ag->floor_kind[f0 + (uint32_t)i]) usable[(size_t)y * (size_t)ag->w + (size_t)x] = 1;
        }
    /* Areas by leaf (a counting sort), then each leaf cut as needed. */
    uint32_t leaves = ag->cut_count;
    first = nav_calloc((size_t)leaves + 2, sizeof *first);
    if (!first) goto nomem;
    for (uint32_t a = 0; a < n; a++) {
        leaf[a] = leaf_of(ag, cx[a], cy[a]);
        if (leaf[a] != UINT32_MAX) first[leaf[a] + 2]++;
    }
    for (uint32_t l = 0; l < leaves; l++) first[l + 2] += first[l + 1];
    for (uint32_t a = 0; a < n; a++)
        if (leaf[a] != UINT32_MAX) idx[first[leaf[a] + 1]++] = a;
    uint32_t shift = pass < 1 ? 1u : (uint32_t)pass;
    p.target = NAV_MAX(limit >> shift, 4u);
    for (uint32_t l = 0; l < leaves && !p.nomem; l++)
        if (ag->cuts[l].axis < 0) split(&p, l, idx + first[l], first[l + 1] - first[l]);
    if (p.nomem || (p.added && !assign_zones(ag))) goto nomem;
    *added = p.added;
    status = NAV_OK;
nomem:
    nav_free(cx);
    nav_free(cy);
    nav_free(scratch);
    nav_free(heavy);
    nav_free(usable);
    nav_free(leaf);
    nav_free(idx);
    nav_free(first);
    if (NAV_FAILED(status))
        nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for cut lines (class %s)",
                      ag->cls.name);
    return status;
}

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
** around them, then fixes the component ids from there (update_components)
** instead of flooding cells, which is what 0 A.D. does on a change.
*/
#include "grid/grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static inline int chunk_of(const NavGrid *g, int x, int y) { return (y / g->chunk) * g->chunks_x + x / g->chunk; }

NavStatus grid_hier_alloc(NavGrid *g, int cls)
{
    GridClassData *d = &g->cls[cls];
    size_t cells = (size_t)g->w * (size_t)g->h;
    size_t chunks = (size_t)g->chunks_x * (size_t)g->chunks_y;
    d->region = nav_malloc(cells);
    d->region_count = nav_calloc(chunks, 1);
    d->east = nav_calloc(chunks * GRID_BORDER_EDGES, sizeof *d->east);
    d->north = nav_calloc(chunks * GRID_BORDER_EDGES, sizeof *d->north);
    d->east_count = nav_calloc(chunks, 1);
    d->north_count = nav_calloc(chunks, 1);
    d->adj = nav_malloc(chunks * GRID_ADJ_PER_CHUNK * sizeof *d->adj);
    d->adj_start = nav_calloc(chunks * (GRID_REGIONS_PER_CHUNK + 1), 1);
    d->comp = nav_malloc(chunks * GRID_REGIONS_PER_CHUNK * sizeof *d->comp);
    d->comp_sig = nav_calloc(chunks, sizeof *d->comp_sig);
    d->uf = nav_malloc(chunks * GRID_REGIONS_PER_CHUNK * sizeof *d->uf);
    d->region_base = nav_malloc(chunks * sizeof *d->region_base);
    size_t slots = chunks * GRID_REGIONS_PER_CHUNK;
    d->mark = nav_calloc(slots, sizeof *d->mark);
    d->group = nav_malloc(slots * sizeof *d->group);
    d->queue = nav_malloc(slots * sizeof *d->queue);
    d->gparent = nav_malloc(slots * sizeof *d->gparent);
    d->gpending = nav_malloc(slots * sizeof *d->gpending);
    d->gold = nav_malloc(slots * sizeof *d->gold);
    d->gnew = nav_malloc(slots * sizeof *d->gnew);
    d->gmulti = nav_malloc(slots);
    if (!d->mark || !d->group || !d->queue || !d->gparent || !d->gpending || !d->gold || !d->gnew || !d->gmulti)
        return NAV_FAILURE | NAV_E_NOMEM;
    if (!d->comp_sig || !d->adj || !d->adj_start || !d->region_base || !d->region || !d->region_count || !d->east ||
        !d->north || !d->east_count || !d->north_count || !d->comp || !d->uf)
        return NAV_FAILURE | NAV_E_NOMEM;
    return NAV_OK;
}

void grid_hier_free(GridClassData *d)
{
    nav_free(d->region);
    nav_free(d->region_count);
    nav_free(d->east);
    nav_free(d->north);
    nav_free(d->east_count);
    nav_free(d->north_count);
    nav_free(d->adj);
    nav_free(d->adj_start);
    nav_free(d->comp);
    nav_free(d->comp_sig);
    nav_free(d->uf);
    nav_free(d->region_base);
    nav_free(d->mark);
    nav_free(d->group);
    nav_free(d->queue);
    nav_free(d->gparent);
    nav_free(d->gpending);
    nav_free(d->gold);
    nav_free(d->gnew);
    nav_free(d->gmulti);
}

size_t grid_hier_memory(const NavGrid *g, int cls)
{
    (void)cls;
    size_t cells = (size_t)g->w * (size_t)g->h;
    size_t chunks = (size_t)g->chunks_x * (size_t)g->chunks_y;
    return cells + chunks * (3 + sizeof(uint64_t) + 2 * GRID_BORDER_EDGES * sizeof(GridEdge) +
                             GRID_ADJ_PER_CHUNK * sizeof(uint32_t) + GRID_REGIONS_PER_CHUNK + 1 +
                             9 * GRID_REGIONS_PER_CHUNK * sizeof(uint32_t) + GRID_REGIONS_PER_CHUNK + sizeof(uint32_t));
}

/* {======= regions inside a chunk ======= */

/* Two-pass labelling on runs: each row of the chunk is read as one word
** of bits, its runs of open cells are joined to the overlapping runs of
** the row below, and each set of runs becomes a region numbered in the
** order its first cell appears (row by row, west to east). */
static uint32_t run_find(uint8_t *parent, uint32_t a)
{
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
}

static void label_chunk(NavGrid *g, int cls, int ch)
{
    GridClassData *d = &g->cls[cls];
    int cx = ch % g->chunks_x, cy = ch / g->chunks_x;
    int x0 = cx * g->chunk, y0 = cy * g->chunk;
    int x1 = NAV_MIN(x0 + g->chunk, g->w), y1 = NAV_MIN(y0 + g->chunk, g->h);
    int width = x1 - x0;
    uint64_t mask = (width >= 64) ? ~0ull : ((1ull << width) - 1ull);
    enum { MAX_RUNS = GRID_MAX_CHUNK * GRID_MAX_CHUNK / 2 };
    uint8_t rs[MAX_RUNS], re[MAX_RUNS], parent[MAX_RUNS], label[MAX_RUNS];
    uint8_t row_first[GRID_MAX_CHUNK + 1];
    int runs = 0;
    for (int y = y0; y < y1; y++) {
        const uint64_t *line = grid_row_line(g, cls, y);
        unsigned b = (unsigned)(x0 + GRID_PAD), w = b >> 6, sh = b & 63u;
        uint64_t bits = (sh ? (line[w] >> sh) | (line[w + 1] << (64u - sh)) : line[w]) & mask;
        row_first[y - y0] = (uint8_t)runs;
        int prev = y > y0 ? row_first[y - y0 - 1] : runs;
        while (bits) {
            int start = __builtin_ctzll(bits);
            uint64_t rest = ~(bits >> start);
            int end = start + (rest ? __builtin_ctzll(rest) : 64 - start);
            bits &= (end >= 64) ? 0 : ~((1ull << end) - 1ull);
            int r = runs++;
            rs[r] = (uint8_t)start;
            re[r] = (uint8_t)end;
            parent[r] = (uint8_t)r;
            for (int p = prev; p < row_first[y - y0]; p++) {
                if (re[p] <= start || rs[p] >= end) continue; /* no shared column */
                uint32_t a = run_find(parent, (uint32_t)p), c = run_find(parent, (uint32_t)r);
                if (a < c) parent[c] = (uint8_t)a;
                else if (c < a) parent[a] = (uint8_t)c;
            }
        }
    }
    row_first[y1 - y0] = (uint8_t)runs;
    uint8_t next = 0;
    for (int r = 0; r < runs; r++) {
        uint32_t root = run_find(parent, (uint32_t)r);
        label[r] = root == (uint32_t)r ? next++ : label[root];
    }
    for (int y = y0; y < y1; y++) {
        uint8_t *cells = d->region + grid_index(g, x0, y);
        memset(cells, GRID_NO_REGION, (size_t)width);
        for (int r = row_first[y - y0]; r < row_first[y - y0 + 1]; r++)
            memset(cells + rs[r], label[r], (size_t)(re[r] - rs[r]));
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

/* Gathers chunk ch's region neighbours from its own edge lists and its
** west and south neighbours' (see adj in grid_internal.h), in the order
** east, north, west, south. */
static void build_adj(NavGrid *g, int cls, int ch)
{
    GridClassData *d = &g->cls[cls];
    int cx = ch % g->chunks_x, cy = ch / g->chunks_x;
    uint8_t *start = d->adj_start + (size_t)ch * (GRID_REGIONS_PER_CHUNK + 1);
    uint32_t *adj = d->adj + (size_t)ch * GRID_ADJ_PER_CHUNK;
    const GridEdge *east = d->east + (size_t)ch * GRID_BORDER_EDGES, *north = d->north + (size_t)ch * GRID_BORDER_EDGES;
    const GridEdge *west = cx > 0 ? d->east + (size_t)(ch - 1) * GRID_BORDER_EDGES : NULL;
    const GridEdge *south = cy > 0 ? d->north + (size_t)(ch - g->chunks_x) * GRID_BORDER_EDGES : NULL;
    int ne = d->east_count[ch], nn = d->north_count[ch];
    int nw = west ? d->east_count[ch - 1] : 0, ns = south ? d->north_count[ch - g->chunks_x] : 0;
    uint32_t rc = d->region_count[ch];
    uint8_t count[GRID_REGIONS_PER_CHUNK + 1] = { 0 };
    for (int i = 0; i < ne; i++) count[east[i].a]++;
    for (int i = 0; i < nn; i++) count[north[i].a]++;
    for (int i = 0; i < nw; i++) count[west[i].b]++;
    for (int i = 0; i < ns; i++) count[south[i].b]++;
    uint8_t at[GRID_REGIONS_PER_CHUNK];
    start[0] = 0;
    for (uint32_t r = 0; r < rc; r++) at[r] = start[r], start[r + 1] = (uint8_t)(start[r] + count[r]);
    for (uint32_t r = rc; r < GRID_REGIONS_PER_CHUNK; r++) start[r + 1] = start[rc];
    uint32_t here = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
    for (int i = 0; i < ne; i++) adj[at[east[i].a]++] = here + GRID_REGIONS_PER_CHUNK + east[i].b;
    for (int i = 0; i < nn; i++)
        adj[at[north[i].a]++] = here + (uint32_t)g->chunks_x * GRID_REGIONS_PER_CHUNK + north[i].b;
    for (int i = 0; i < nw; i++) adj[at[west[i].b]++] = here - GRID_REGIONS_PER_CHUNK + west[i].a;
    for (int i = 0; i < ns; i++)
        adj[at[south[i].b]++] = here - (uint32_t)g->chunks_x * GRID_REGIONS_PER_CHUNK + south[i].a;
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

static inline uint64_t sig_bit(uint32_t id) { return 1ull << (id & 63u); }

/* Chunk ch's signature, exactly: the bits of the ids its regions hold. */
static void sign_chunk(GridClassData *d, int ch)
{
    uint64_t sig = 0;
    const uint32_t *comp = d->comp + (size_t)ch * GRID_REGIONS_PER_CHUNK;
    for (uint32_t r = 0; r < d->region_count[ch]; r++) sig |= sig_bit(comp[r]);
    d->comp_sig[ch] = sig;
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
        for (int i = 0; i < d->east_count[ch]; i++) unite(d->uf, base + e[i].a, base + GRID_REGIONS_PER_CHUNK + e[i].b);
        const GridEdge *n = d->north + (size_t)ch * GRID_BORDER_EDGES;
        uint32_t above = (uint32_t)(ch + g->chunks_x) * GRID_REGIONS_PER_CHUNK;
        for (int i = 0; i < d->north_count[ch]; i++) unite(d->uf, base + n[i].a, above + n[i].b);
    }
    for (int ch = 0; ch < chunks; ch++) {
        uint32_t base = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
        for (uint32_t r = 0; r < d->region_count[ch]; r++) d->comp[base + r] = find(d->uf, base + r);
        sign_chunk(d, ch);
    }
    d->regions = total;
    d->next_comp = (uint32_t)chunks * GRID_REGIONS_PER_CHUNK;
}

static void count_regions(NavGrid *g, int cls)
{
    GridClassData *d = &g->cls[cls];
    int total = 0;
    for (int ch = 0; ch < g->chunks_x * g->chunks_y; ch++) {
        d->region_base[ch] = (uint32_t)total;
        total += d->region_count[ch];
    }
    d->regions = total;
}

/* {======= incremental components ======= */

/* Regions joined to region slot `slot` by border edges. */
static inline int region_neighbours(const GridClassData *d, uint32_t slot, const uint32_t **out)
{
    uint32_t ch = slot / GRID_REGIONS_PER_CHUNK, r = slot % GRID_REGIONS_PER_CHUNK;
    const uint8_t *start = d->adj_start + (size_t)ch * (GRID_REGIONS_PER_CHUNK + 1);
    *out = d->adj + (size_t)ch * GRID_ADJ_PER_CHUNK + start[r];
    return start[r + 1] - start[r];
}

static uint32_t gfind(uint32_t *p, uint32_t a)
{
    while (p[a] != a) {
        p[a] = p[p[a]];
        a = p[a];
    }
    return a;
}

/* Old components a change joins, as pairs of ids: few per change (one
** pair when a wall is taken out between two), more means a full pass. */
#define FLOOD_MAX_JOINS 32

typedef struct Flood {
    GridClassData *d;
    uint32_t tail;
    uint32_t groups;
    int active;  /* groups with regions still queued */
    int joins;   /* pairs in join_a / join_b; over FLOOD_MAX_JOINS: too many */
    int renames; /* after join_old_ids: join_b[i] is now called join_a[i] */
    uint32_t join_a[2 * FLOOD_MAX_JOINS], join_b[2 * FLOOD_MAX_JOINS]; /* room for the renames */
} Flood;

/* Group k met a region of old component `old`. Two old ids met by one
** group are one component now (the group's new regions join them). */
static void note_old(Flood *f, uint32_t k, uint32_t old)
{
    GridClassData *d = f->d;
    if (old == UINT32_MAX) return;
    if (d->gold[k] == UINT32_MAX) {
        d->gold[k] = old;
    } else if (d->gold[k] != old) {
        d->gmulti[k] = 1;
        uint32_t a = d->gold[k];
        for (int i = 0; i < f->joins && i < FLOOD_MAX_JOINS; i++)
            if ((f->join_a[i] == a && f->join_b[i] == old) || (f->join_a[i] == old && f->join_b[i] == a)) return;
        if (f->joins < FLOOD_MAX_JOINS) f->join_a[f->joins] = a, f->join_b[f->joins] = old;
        f->joins++;
    }
}

static void add_source(Flood *f, uint32_t slot, uint32_t old)
{
    GridClassData *d = f->d;
    if (d->mark[slot] == d->mark_gen) return;
    uint32_t k = f->groups++;
    d->mark[slot] = d->mark_gen;
    d->group[slot] = k;
    d->gparent[k] = k;
    d->gpending[k] = 1;
    d->gold[k] = UINT32_MAX;
    d->gmulti[k] = 0;
    d->gnew[k] = UINT32_MAX;
    note_old(f, k, old);
    d->queue[f->tail++] = slot;
    f->active++;
}

/* Joins groups a and b (both roots); returns the root. */
static uint32_t join(Flood *f, uint32_t a, uint32_t b)
{
    GridClassData *d = f->d;
    if (a == b) return a;
    uint32_t r = a < b ? a : b, o = a < b ? b : a;
    if (d->gpending[a] > 0 && d->gpending[b] > 0) f->active--;
    d->gparent[o] = r;
    d->gpending[r] = d->gpending[a] + d->gpending[b];
    if (d->gold[o] != UINT32_MAX) note_old(f, r, d->gold[o]);
    if (d->gmulti[o]) d->gmulti[r] = 1;
    return r;
}

/* Where old id `id` went when the flood joined old components (after
** join_old_ids: join_b[i] was renamed join_a[i]). */
static uint32_t old_id_now(const Flood *f, uint32_t id)
{
    for (int i = 0; i < f->renames; i++)
        if (f->join_b[i] == id) return f->join_a[i];
    return id;
}

/* Old components joined by the change become one, named by the smallest
** of their ids: the pairs are folded into sets (a union-find over the few
** ids they hold), turned into renames, and one pass over every region
** renames (a few thousand ids on 512 x 512: far less than the full
** union-find pass over the region graph it replaces). */
static void join_old_ids(const NavGrid *g, GridClassData *d, Flood *f)
{
    uint32_t id[2 * FLOOD_MAX_JOINS];
    int up[2 * FLOOD_MAX_JOINS], n = 0;
    for (int i = 0; i < f->joins; i++) {
        int at[2];
        for (int e = 0; e < 2; e++) {
            uint32_t v = e ? f->join_b[i] : f->join_a[i];
            int k = 0;
            while (k < n && id[k] != v) k++;
            if (k == n) id[n] = v, up[n] = n, n++;
            at[e] = k;
        }
        int ra = at[0], rb = at[1];
        while (up[ra] != ra) ra = up[ra];
        while (up[rb] != rb) rb = up[rb];
        if (ra == rb) continue;
        if (id[ra] < id[rb]) up[rb] = ra; /* the smaller id names the set */
        else up[ra] = rb;
    }
    f->renames = 0;
    for (int k = 0; k < n; k++) {
        int r = k;
        while (up[r] != r) r = up[r];
        if (r == k) continue;
        f->join_a[f->renames] = id[r];
        f->join_b[f->renames] = id[k];
        f->renames++;
    }
    uint64_t renamed = 0;
    for (int i = 0; i < f->renames; i++) renamed |= sig_bit(f->join_b[i]);
    int chunks = g->chunks_x * g->chunks_y;
    for (int ch = 0; ch < chunks; ch++) {
        if (!(d->comp_sig[ch] & renamed)) continue;
        uint32_t base = (uint32_t)ch * GRID_REGIONS_PER_CHUNK;
        for (uint32_t r = 0; r < d->region_count[ch]; r++) d->comp[base + r] = old_id_now(f, d->comp[base + r]);
        sign_chunk(d, ch);
    }
}

/* The update when cells were only opened: components can only join, so
** the old ids stay right outside the changed chunks and there is nothing
** to flood there. The regions just outside with one old id are one group,
** the changed chunks' regions (queue[0, inside)) join the groups they
** touch, and a group that met old ids takes (the join of) them; one that
** met none lies wholly inside and gets a fresh id. */
static void join_opened(GridClassData *d, Flood *f, uint32_t inside)
{
    for (uint32_t i = inside; i < f->tail; i++)
        for (uint32_t j = inside; j < i; j++)
            if (d->comp[d->queue[j]] == d->comp[d->queue[i]]) {
                join(f, gfind(d->gparent, d->group[d->queue[i]]), gfind(d->gparent, d->group[d->queue[j]]));
                break;
            }
    const uint32_t *nb;
    for (uint32_t i = 0; i < inside; i++) {
        uint32_t k = gfind(d->gparent, d->group[d->queue[i]]);
        int n = region_neighbours(d, d->queue[i], &nb);
        for (int e = 0; e < n; e++) k = join(f, k, gfind(d->gparent, d->group[nb[e]]));
    }
}

/* The flood of update_components (see there), from the sources queued. */
static void flood(GridClassData *d, Flood *f)
{
    const uint32_t *nb;
    uint32_t head = 0;
    uint32_t last = UINT32_MAX; /* the one growing group, once only one is left */
    for (;;) {
        if (head == f->tail) break;
        if (f->active <= 1) {
            /* One group left growing: stop once it knows its old id. */
            if (last == UINT32_MAX || d->gparent[last] != last || d->gpending[last] == 0) {
                last = UINT32_MAX;
                for (uint32_t k = 0; k < f->groups; k++)
                    if (d->gparent[k] == k && d->gpending[k] > 0) last = k;
            }
            if (last == UINT32_MAX || d->gold[last] != UINT32_MAX) break;
        }
        uint32_t slot = d->queue[head++];
        uint32_t k = gfind(d->gparent, d->group[slot]);
        d->gpending[k]--;
        int n = region_neighbours(d, slot, &nb);
        for (int i = 0; i < n; i++) {
            uint32_t o = nb[i];
            if (d->mark[o] != d->mark_gen) {
                d->mark[o] = d->mark_gen;
                d->group[o] = k;
                d->gpending[k]++;
                note_old(f, k, d->comp[o]);
                d->queue[f->tail++] = o;
            } else {
                uint32_t k2 = gfind(d->gparent, d->group[o]);
                if (k2 != k) {
                    /* k counts as growing while its region is processed */
                    d->gpending[k]++;
                    k = join(f, k, k2);
                    d->gpending[k]--;
                }
            }
        }
        if (d->gpending[k] == 0) f->active--;
    }
}

/* After the chunks [cx0, cx1] x [cy0, cy1] were relabelled: flood the
** region graph from their new regions and the regions bordering them, one
** group per source, all groups in step. Groups that meet are joined. The
** flood stops when at most one group is still growing and that one has met
** a region outside the changed chunks: every other group is then a whole
** component and gets a fresh id, and the growing one is the rest of an old
** component and takes its id. A change that joins old components (a
** group met two old ids) renames them to one in a pass over the chunks
** whose signature holds the renamed ids; only a change that joins very
** many falls back to a full pass. Usually the sources meet within a few
** regions and the update touches nothing else; cutting the map in two
** floods the smaller side (on a maze, where every cut splits, this is
** what an added obstruction costs). A change that only opened cells
** cannot split anything and floods nothing (join_opened). */
static bool update_components(NavGrid *g, int cls, int cx0, int cy0, int cx1, int cy1, bool opened_only)
{
    GridClassData *d = &g->cls[cls];
    if (++d->mark_gen == 0) {
        memset(d->mark, 0, (size_t)g->chunks_x * (size_t)g->chunks_y * GRID_REGIONS_PER_CHUNK * sizeof *d->mark);
        d->mark_gen = 1;
    }
    Flood f = { .d = d };
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) {
            int ch = cy * g->chunks_x + cx;
            for (uint32_t r = 0; r < d->region_count[ch]; r++)
                add_source(&f, (uint32_t)ch * GRID_REGIONS_PER_CHUNK + r, UINT32_MAX);
        }
    uint32_t inside = f.tail;
    /* The regions just outside, reached through the changed chunks' edges. */
    const uint32_t *nb;
    for (uint32_t i = 0; i < inside; i++) {
        int n = region_neighbours(d, d->queue[i], &nb);
        for (int k = 0; k < n; k++) {
            int ch = (int)(nb[k] / GRID_REGIONS_PER_CHUNK), cx = ch % g->chunks_x, cy = ch / g->chunks_x;
            if (cx >= cx0 && cx <= cx1 && cy >= cy0 && cy <= cy1) continue;
            add_source(&f, nb[k], d->comp[nb[k]]);
        }
    }
    if (opened_only) join_opened(d, &f, inside);
    else flood(d, &f);
    if (f.joins > FLOOD_MAX_JOINS) return false;
    if (f.joins > 0) join_old_ids(g, d, &f);
    /* Assign ids: a group that goes on into an old component (still
    ** growing when the flood stopped; after an opening, any that met one)
    ** takes its id, the others are whole components and get fresh ones. */
    for (uint32_t i = 0; i < f.tail; i++) {
        uint32_t k = gfind(d->gparent, d->group[d->queue[i]]);
        if (opened_only ? d->gold[k] != UINT32_MAX : d->gpending[k] > 0) {
            if (d->gold[k] == UINT32_MAX) return false;
            d->comp[d->queue[i]] = old_id_now(&f, d->gold[k]);
            d->comp_sig[d->queue[i] / GRID_REGIONS_PER_CHUNK] |= sig_bit(d->comp[d->queue[i]]);
        } else {
            if (d->gnew[k] == UINT32_MAX) d->gnew[k] = d->next_comp++;
            d->comp[d->queue[i]] = d->gnew[k];
            d->comp_sig[d->queue[i] / GRID_REGIONS_PER_CHUNK] |= sig_bit(d->gnew[k]);
        }
    }
    return true;
}


/* }======= */

void grid_hier_update(NavGrid *g, int cls, int x0, int y0, int x1, int y1, bool opened_only)
{
    GridClassData *d = &g->cls[cls];
    int cx0 = NAV_MAX(x0, 0) / g->chunk, cy0 = NAV_MAX(y0, 0) / g->chunk;
    int cx1 = NAV_MIN(x1, g->w - 1) / g->chunk, cy1 = NAV_MIN(y1, g->h - 1) / g->chunk;
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) label_chunk(g, cls, cy * g->chunks_x + cx);
    for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = NAV_MAX(cx0 - 1, 0); cx <= cx1; cx++) link_east(g, cls, cy * g->chunks_x + cx);
    for (int cy = NAV_MAX(cy0 - 1, 0); cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++) link_north(g, cls, cy * g->chunks_x + cx);
    /* The chunks whose edges changed, and the ones east and north that
    ** read those edges from the other side. */
    for (int cy = NAV_MAX(cy0 - 1, 0); cy <= NAV_MIN(cy1 + 1, g->chunks_y - 1); cy++)
        for (int cx = NAV_MAX(cx0 - 1, 0); cx <= NAV_MIN(cx1 + 1, g->chunks_x - 1); cx++)
            build_adj(g, cls, cy * g->chunks_x + cx);
    bool whole = cx0 == 0 && cy0 == 0 && cx1 == g->chunks_x - 1 && cy1 == g->chunks_y - 1;
    if (whole || d->next_comp == 0 || d->next_comp > UINT32_MAX - 1000000u ||
        !update_components(g, cls, cx0, cy0, cx1, cy1, opened_only)) {
        compute_components(g, cls);
    } else {
        count_regions(g, cls);
        /* Their old ids' bits are stale: keep the signatures tight. */
        for (int cy = cy0; cy <= cy1; cy++)
            for (int cx = cx0; cx <= cx1; cx++) sign_chunk(d, cy * g->chunks_x + cx);
    }
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

int grid_region_count(const NavGrid *g, int cls) { return (cls >= 0 && cls < g->ncls) ? g->cls[cls].regions : 0; }

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

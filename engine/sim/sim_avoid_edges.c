/*
** sim_avoid_edges.c — the obstacle edges round an avoiding bot: walls,
** ledges, and the liquids and other ground its travel policy forbids, as
** segments the solver (sim_avoid.c) keeps its velocity off. Crossings
** between cells are worked out once per class and forbid bits, block by
** block, and cached (EdgeMap).
*/
#include "sim/sim_avoid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= obstacle edges ======= */

static bool is_liquid(uint8_t c)
{
    return c == NAV_CONTENTS_WATER || c == NAV_CONTENTS_LAVA || c == NAV_CONTENTS_SLIME;
}

/* What cell (cx, cy) is for a body of class c at height z with forbid
** bits, and the height it stands at there. */
uint8_t sim_avoid_cell_kind(const NavWorld *w, const NavClass *c, uint32_t forbid, float up, int cx, int cy, float z,
                            float *h)
{
    int n;
    const NavFloor *fl = world_column(w, cx, cy, &n);
    if (!n) return CELL_WALL; /* solid, or off the map */
    const NavFloor *f = NULL;
    for (int i = n - 1; i >= 0; i--) {
        float s = world_standing_height(&fl[i]);
        if (s <= z + up || fl[i].contents == NAV_CONTENTS_VOID) {
            f = &fl[i];
            break;
        }
    }
    if (!f) return CELL_WALL;
    if (f->contents == NAV_CONTENTS_VOID) {
        *h = -INFINITY;
        return CELL_FORBID;
    }
    float s = world_standing_height(f);
    *h = s;
    if (f->contents == NAV_CONTENTS_CLIP) return CELL_WALL;
    float need = class_can_crouch(c) ? c->crouch_height : c->height;
    if (is_liquid(f->contents)) {
        bool deep = f->top - f->z > c->wade_depth;
        if (f->ceiling - (deep ? f->top : f->z) < (deep ? 0.5f * c->height : need)) return CELL_WALL;
        if (f->contents == NAV_CONTENTS_WATER &&
            ((forbid & SIM_AVOID_WATER) || (deep && (forbid & SIM_AVOID_DEEP_WATER))))
            return CELL_FORBID;
        if (f->contents == NAV_CONTENTS_LAVA && (forbid & SIM_AVOID_LAVA)) return CELL_FORBID;
        if (f->contents == NAV_CONTENTS_SLIME && (forbid & SIM_AVOID_SLIME)) return CELL_FORBID;
        return CELL_OPEN;
    }
    if (f->ceiling - s < need) return CELL_WALL;
    return CELL_OPEN;
}

/* What crossing from a cell (kind ka, height ha) into its neighbour (kb,
** hb) is: CELL_OPEN (free), CELL_FORBID or CELL_WALL. */
static uint8_t crossing(uint8_t ka, float ha, uint8_t kb, float hb, float step, float up, bool ledge)
{
    if (ka == CELL_WALL) return CELL_OPEN; /* nobody stands there */
    if (kb == CELL_WALL) return CELL_WALL;
    if (kb == CELL_FORBID) return ka == CELL_OPEN ? CELL_FORBID : CELL_OPEN;
    if (ka == CELL_FORBID && ha == -INFINITY) return CELL_OPEN;
    if (hb - ha > up) return CELL_WALL;
    if (ledge && ha - hb > step) return CELL_FORBID;
    return CELL_OPEN;
}

static float seg_dist2(const float a[2], const float b[2])
{
    /* From the origin. */
    float ab[2] = { b[0] - a[0], b[1] - a[1] }, ab2 = dot2(ab, ab);
    float u = ab2 > 0.0f ? -dot2(a, ab) / ab2 : 0.0f;
    u = fmaxf_(0.0f, fminf_(1.0f, u));
    float p[2] = { a[0] + u * ab[0], a[1] + u * ab[1] };
    return dot2(p, p);
}

/* Add the run of edges on one grid line as a segment, when the bot is on
** its allowed side and it is near enough to matter. */
static void add_segment(SimAvoidScratch *sc, int *count, const float a[2], const float b[2], const float n[2],
                        uint8_t what, float radius, float reach)
{
    float clear = what == CELL_WALL ? radius : FORBID_MARGIN;
    if (-dot2(a, n) < -1e-4f) return; /* the bot is past it: it may leave */
    float d = sqrtf(seg_dist2(a, b));
    if (d - clear > reach) return;
    Segment *s = &sc->seg[(*count)++];
    s->a[0] = a[0], s->a[1] = a[1], s->b[0] = b[0], s->b[1] = b[1];
    s->n[0] = n[0], s->n[1] = n[1];
    s->clear = clear;
    s->dist = d;
}

/* The obstacle edges around bot b (positions relative to it), nearest
** first, at most SIM_AVOID_MAX_SEGMENTS, into sc->seg. */
/* The crossings out of cell (x, y) for a body of class c with forbid bits
** (the column's only floor: the maps keep single-floor columns). */
static uint8_t cell_edges(const NavWorld *w, const NavClass *c, uint32_t forbid, int x, int y)
{
    static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
    float up = fmaxf_(c->step, c->barrier_jump), ha = 0.0f;
    uint8_t ka = sim_avoid_cell_kind(w, c, forbid, up, x, y, INFINITY, &ha), e = 0;
    bool ledge = (forbid & SIM_AVOID_LEDGE) != 0;
    for (int d = 0; d < 4; d++) {
        float hb = 0.0f;
        uint8_t kb = sim_avoid_cell_kind(w, c, forbid, up, x + DX[d], y + DY[d], INFINITY, &hb);
        e |= (uint8_t)(crossing(ka, ha, kb, hb, c->step, up, ledge) << (2 * d));
    }
    return e;
}

static EdgeMap *edge_map(const NavSim *sim, SimAvoidScratch *sc, int cls, uint32_t forbid)
{
    for (int i = 0; i < sc->map_count; i++)
        if (sc->maps[i].cls == cls && sc->maps[i].forbid == forbid) return &sc->maps[i];
    size_t W = (size_t)world_width(sim->w), H = (size_t)world_height(sim->w);
    if (sc->no_cache || sc->map_count == EDGE_MAPS || W * H > EDGE_MAX_CELLS) return NULL;
    size_t bw = (W + EDGE_BLOCK - 1) / EDGE_BLOCK, bh = (H + EDGE_BLOCK - 1) / EDGE_BLOCK;
    EdgeMap *m = &sc->maps[sc->map_count];
    m->cell = nav_calloc(W * H, sizeof *m->cell);
    m->block = nav_calloc(bw * bh, 1);
    if (!m->cell || !m->block) {
        nav_free(m->cell);
        nav_free(m->block);
        sc->no_cache = true;
        return NULL;
    }
    m->cls = cls;
    m->forbid = forbid;
    sc->map_count++;
    return m;
}

/* The state of block (bx, by) of map m, worked out when unknown. */
static uint8_t edge_block(const NavSim *sim, EdgeMap *m, const NavClass *c, int bx, int by)
{
    const NavWorld *w = sim->w;
    int W = world_width(w), H = world_height(w), bw = (W + EDGE_BLOCK - 1) / EDGE_BLOCK;
    uint8_t *st = &m->block[by * bw + bx];
    if (*st != BLOCK_UNKNOWN) return *st;
    int x0 = bx * EDGE_BLOCK, y0 = by * EDGE_BLOCK;
    int x1 = x0 + EDGE_BLOCK < W ? x0 + EDGE_BLOCK : W, y1 = y0 + EDGE_BLOCK < H ? y0 + EDGE_BLOCK : H;
    for (int y = y0 - 1; y <= y1; y++)
        for (int x = x0 - 1; x <= x1; x++) {
            int n;
            world_column(w, x, y, &n);
            if (n > 1) return *st = BLOCK_LIVE;
        }
    uint8_t any = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            uint8_t e = cell_edges(w, c, m->forbid, x, y);
            m->cell[(size_t)y * (size_t)W + (size_t)x] = (uint16_t)(EDGE_KNOWN | e);
            any |= e;
        }
    return *st = any ? BLOCK_DIRTY : BLOCK_CLEAN;
}

/* The obstacle edges around bot b (positions relative to it), nearest
** first, at most SIM_AVOID_MAX_SEGMENTS, into sc->seg. */
int sim_avoid_gather_segments(const NavSim *sim, SimAvoidScratch *sc, const NavBot *b, const NavClass *c,
                              uint32_t forbid, float vmax, float wall_horizon)
{
    const NavWorld *w = sim->w;
    float s = world_cell_size(w), reach = fminf_(vmax * wall_horizon, WALL_REACH_MAX);
    int span = (int)((reach + c->radius) / s) + 1;
    if (span > WINDOW_MAX) span = WINDOW_MAX;
    int bx = (int)floorf(b->pos[0] / s), by = (int)floorf(b->pos[1] / s);
    int side = 2 * span + 1, W = world_width(w), H = world_height(w);
    float up = fmaxf_(c->step, c->barrier_jump);
    bool ledge = (forbid & SIM_AVOID_LEDGE) != 0;
    /* From the maps when every block of the window is in one; nothing at
    ** all when they are all clean. */
    EdgeMap *m = edge_map(sim, sc, b->cls, forbid);
    bool live = m == NULL;
    if (m) {
        int cx0 = bx - span, cx1 = bx + span, cy0 = by - span, cy1 = by + span;
        cx0 = cx0 < 0 ? 0 : cx0, cy0 = cy0 < 0 ? 0 : cy0;
        cx1 = cx1 >= W ? W - 1 : cx1, cy1 = cy1 >= H ? H - 1 : cy1;
        bool dirty = bx - span < 0 || by - span < 0 || bx + span >= W || by + span >= H; /* the map's edge */
        for (int qy = cy0 / EDGE_BLOCK; qy <= cy1 / EDGE_BLOCK && !live; qy++)
            for (int qx = cx0 / EDGE_BLOCK; qx <= cx1 / EDGE_BLOCK && !live; qx++) {
                uint8_t st = edge_block(sim, m, c, qx, qy);
                live = st == BLOCK_LIVE;
                dirty = dirty || st == BLOCK_DIRTY;
            }
        if (!live && !dirty) return 0;
    }
    if (live) {
        float z = b->pos[2] + (b->in_water ? 0.5f * c->height : 0.0f);
        for (int j = 0; j < side; j++)
            for (int i = 0; i < side; i++) {
                int k = j * side + i;
                sc->h[k] = 0.0f;
                sc->kind[k] = sim_avoid_cell_kind(w, c, forbid, up, bx - span + i, by - span + j, z, &sc->h[k]);
            }
        /* Crossings inside the window (the outer ring's outward ones are never read). */
        static const int DI[4] = { 1, -1, 0, 0 }, DJ[4] = { 0, 0, 1, -1 };
        for (int j = 0; j < side; j++)
            for (int i = 0; i < side; i++) {
                int k = j * side + i;
                uint8_t e = 0;
                for (int d = 0; d < 4; d++) {
                    int ni = i + DI[d], nj = j + DJ[d];
                    if (ni < 0 || nj < 0 || ni >= side || nj >= side) continue;
                    int q = nj * side + ni;
                    e |= (uint8_t)(crossing(sc->kind[k], sc->h[k], sc->kind[q], sc->h[q], c->step, up, ledge)
                                   << (2 * d));
                }
                sc->edge[k] = e;
            }
    }
    /* Per column and row, the crossings any of its cells has: lines with
    ** none are skipped. */
    uint8_t colmask[WINDOW_SIDE] = { 0 }, rowmask[WINDOW_SIDE] = { 0 };
    if (live) {
        for (int j = 0; j < side; j++)
            for (int i = 0; i < side; i++) colmask[i] |= sc->edge[j * side + i], rowmask[j] |= sc->edge[j * side + i];
    } else {
        /* From the map, row by row; off the map nobody stands (the
        ** crossings into it are the cells' own, on the map). */
        int i0 = bx - span < 0 ? span - bx : 0, i1 = bx + span >= W ? W - 1 - (bx - span) : side - 1;
        for (int j = 0; j < side; j++) {
            uint8_t *row = &sc->edge[j * side];
            int y = by - span + j;
            memset(row, 0, (size_t)side);
            if (y < 0 || y >= H) continue;
            const uint16_t *src = &m->cell[(size_t)y * (size_t)W + (size_t)(bx - span)];
            uint8_t rm = 0;
            for (int i = i0; i <= i1; i++) {
                uint8_t e = (uint8_t)src[i];
                row[i] = e;
                colmask[i] |= e;
                rm |= e;
            }
            rowmask[j] = rm;
        }
    }
    int count = 0;
    float ox = (float)(bx - span) * s - b->pos[0], oy = (float)(by - span) * s - b->pos[1];
    /* Vertical lines x = ox + (i + 1) s between columns i and i + 1, and
    ** horizontal ones between rows: runs of one kind merge into one segment. */
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < side - 1; line++)
            for (int from = 0; from < 2; from++) {
                /* from 0: crossing toward +axis (allowed side below), 1: toward -axis. */
                int code = dir == 0 ? (from ? DIR_W : DIR_E) : (from ? DIR_S : DIR_N);
                if (!(((dir == 0 ? colmask : rowmask)[line + from] >> (2 * code)) & 3u)) continue;
                uint8_t run = CELL_OPEN;
                int start = 0;
                for (int t = 0; t <= side; t++) {
                    uint8_t what = CELL_OPEN;
                    if (t < side) {
                        int ka;
                        if (dir == 0) ka = t * side + line + from;
                        else ka = (line + from) * side + t;
                        what = (uint8_t)((sc->edge[ka] >> (2 * code)) & 3u);
                    }
                    if (what == run) continue;
                    if (run != CELL_OPEN && count < WINDOW_EDGES) {
                        float fixed = (dir == 0 ? ox : oy) + (float)(line + 1) * s;
                        float lo = (dir == 0 ? oy : ox) + (float)start * s, hi = (dir == 0 ? oy : ox) + (float)t * s;
                        float a[2], e[2], n[2];
                        if (dir == 0)
                            a[0] = e[0] = fixed, a[1] = lo, e[1] = hi, n[0] = from ? 1.0f : -1.0f, n[1] = 0.0f;
                        else a[1] = e[1] = fixed, a[0] = lo, e[0] = hi, n[1] = from ? 1.0f : -1.0f, n[0] = 0.0f;
                        add_segment(sc, &count, a, e, n, run, c->radius, reach);
                    }
                    run = what;
                    start = t;
                }
            }
    /* Nearest first (ties by the order found, which is fixed), the nearest
    ** SIM_AVOID_MAX_SEGMENTS kept: an insertion sort of a short list. */
    for (int i = 1; i < count; i++) {
        Segment x = sc->seg[i];
        int j = i - 1;
        while (j >= 0 && sc->seg[j].dist > x.dist) {
            sc->seg[j + 1] = sc->seg[j];
            j--;
        }
        sc->seg[j + 1] = x;
    }
    return count < SIM_AVOID_MAX_SEGMENTS ? count : SIM_AVOID_MAX_SEGMENTS;
}

/* }======= */

void sim_avoid_edges_free(SimAvoidScratch *sc)
{
    for (int i = 0; sc && i < sc->map_count; i++) {
        nav_free(sc->maps[i].cell);
        nav_free(sc->maps[i].block);
    }
}

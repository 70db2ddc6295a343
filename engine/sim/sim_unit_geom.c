/*
** sim_unit_geom.c — what unit motion (sim_unit.c) asks of the ground and of
** the other units: is a point in a goal, does a segment cross a blocked
** cell or a unit's grown square, does a box stand clear of terrain, how a
** box walks where a point path grazes a corner, which units are near;
** and the growing point lists unit and formation paths are kept in.
** Declared in sim_internal.h ("unit motion's geometry").
*/
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "grid/grid.h"
#include "sim/sim_internal.h"
#include "sim/sim_unit.h"

/* {======= geometry ======= */

bool unit_in_goal(const GridGoal *g, float x, float y)
{
    float dx = x - g->x, dy = y - g->y;
    switch (g->type) {
    case GRID_GOAL_POINT: return dx * dx + dy * dy <= UNIT_POINT_REACH * UNIT_POINT_REACH;
    case GRID_GOAL_CIRCLE: return dx * dx + dy * dy <= g->r * g->r;
    case GRID_GOAL_INV_CIRCLE: return dx * dx + dy * dy >= g->r * g->r;
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE: {
        float c = cosf(g->angle), s = sinf(g->angle);
        float u = dx * c + dy * s, v = -dx * s + dy * c;
        bool inside = fabsf(u) <= g->hw && fabsf(v) <= g->hh;
        return g->type == GRID_GOAL_SQUARE ? inside : !inside;
    }
    }
    return false;
}

/* Every navcell the segment from a to b crosses is passable for the class
** (the cell a starts in excepted: a unit on a blocked cell may leave it). */
/* unit_segment_clear; `leaving`: blocked cells from a blocked start pass,
** up to the first open one. */
static bool segment_clear(const NavGrid *g, int cls, float ax, float ay, float bx, float by, bool leaving)
{
    float s = grid_cell_size(g);
    float x0 = ax / s, y0 = ay / s, x1 = bx / s, y1 = by / s;
    int cx = (int)floorf(x0), cy = (int)floorf(y0);
    leaving = leaving && !grid_passable(g, cls, cx, cy);
    int ex = (int)floorf(x1), ey = (int)floorf(y1);
    float dx = x1 - x0, dy = y1 - y0;
    int stepx = dx > 0 ? 1 : -1, stepy = dy > 0 ? 1 : -1;
    float tdx = dx != 0.0f ? fabsf(1.0f / dx) : INFINITY, tdy = dy != 0.0f ? fabsf(1.0f / dy) : INFINITY;
    float tx = dx != 0.0f ? ((stepx > 0 ? (float)(cx + 1) - x0 : x0 - (float)cx) * tdx) : INFINITY;
    float ty = dy != 0.0f ? ((stepy > 0 ? (float)(cy + 1) - y0 : y0 - (float)cy) * tdy) : INFINITY;
    for (int n = abs(ex - cx) + abs(ey - cy); n > 0; n--) {
        if (tx < ty) {
            cx += stepx;
            tx += tdx;
        } else if (ty < tx) {
            cy += stepy;
            ty += tdy;
        } else {
            /* Through a corner: both cells beside it must be open, as the
            ** grid's own line of sight asks. */
            if (!leaving && (!grid_passable(g, cls, cx + stepx, cy) || !grid_passable(g, cls, cx, cy + stepy)))
                return false;
            cx += stepx;
            cy += stepy;
            tx += tdx;
            ty += tdy;
            n--;
        }
        bool open = grid_passable(g, cls, cx, cy);
        if (!open && !leaving) return false;
        if (open) leaving = false;
    }
    return true;
}

bool unit_segment_clear(const NavGrid *g, int cls, float ax, float ay, float bx, float by, bool leaving)
{
    return segment_clear(g, cls, ax, ay, bx, by, leaving);
}

bool unit_push_point(float **pts, int *count, int *cap, float x, float y)
{
    if (*count == *cap) {
        int grown = *cap ? *cap * 2 : 16;
        float *p = nav_realloc(*pts, (size_t)grown * 2 * sizeof *p);
        if (!p) return false;
        *pts = p;
        *cap = grown;
    }
    (*pts)[2 * *count] = x;
    (*pts)[2 * *count + 1] = y;
    (*count)++;
    return true;
}

/* Does the segment from p along d (0 <= t <= 1) enter the square of half
** side h round c? A start inside (or on the edge) never does. */
bool unit_segment_hits_square(const float p[2], const float d[2], float cx, float cy, float h)
{
    float lo[2] = { cx - h, cy - h }, hi[2] = { cx + h, cy + h };
    if (p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1]) return false;
    float t0 = 0.0f, t1 = 1.0f;
    for (int k = 0; k < 2; k++) {
        if (fabsf(d[k]) < 1e-9f) {
            if (p[k] < lo[k] || p[k] > hi[k]) return false;
            continue;
        }
        float a = (lo[k] - p[k]) / d[k], b = (hi[k] - p[k]) / d[k];
        if (a > b) {
            float t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return false;
    }
    return true;
}

/* Would a body of half width r standing at q overlap a cell its class
** cannot stand in by terrain (a tree, a wall)? */
bool unit_box_hits_terrain(const NavGrid *g, int cls, float r, float qx, float qy)
{
    /* Cells the box overlaps, flush sides not counted (a body of width 1 m
    ** fits a 1 m cell), any overlap however thin counted (as the traces
    ** count it). */
    float s = grid_cell_size(g);
    int x0 = (int)floorf((qx - r) / s), x1 = (int)ceilf((qx + r) / s) - 1;
    int y0 = (int)floorf((qy - r) / s), y1 = (int)ceilf((qy + r) / s) - 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (grid_terrain_blocked(g, cls, x, y)) return true;
    return false;
}

/* Would a body of half width r moving from p to q overlap a terrain cell
** that it does not overlap at p? A body pushed partly into a cell its
** class cannot stand in (a crowd presses it against a wall whose cell
** the grid counts whole) may move on through that cell, out of it: only
** new terrain blocks it. Elsewhere this is unit_box_hits_terrain at q. */
bool unit_box_enters_terrain(const NavGrid *g, int cls, float r, const float p[2], float qx, float qy)
{
    float s = grid_cell_size(g);
    int px0 = (int)floorf((p[0] - r) / s), px1 = (int)ceilf((p[0] + r) / s) - 1;
    int py0 = (int)floorf((p[1] - r) / s), py1 = (int)ceilf((p[1] + r) / s) - 1;
    int x0 = (int)floorf((qx - r) / s), x1 = (int)ceilf((qx + r) / s) - 1;
    int y0 = (int)floorf((qy - r) / s), y1 = (int)ceilf((qy + r) / s) - 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            bool had = x >= px0 && x <= px1 && y >= py0 && y <= py1;
            if (!had && grid_terrain_blocked(g, cls, x, y)) return true;
        }
    return false;
}

/* The short-range pathfinder's turns hug the corners of blocked cells, a
** hair off them: right for a point, but a box standing there has a
** corner in the cell. Move such a turn out by the body's half width, to
** the nearest spot of the eight round it where the box fits, else to the
** centre of its cell (where it always fits). */
void unit_body_room(const NavGrid *g, int cls, float r, float v[2])
{
    if (!unit_box_hits_terrain(g, cls, r, v[0], v[1])) return;
    static const int8_t OFF[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },  { 0, -1 },
                                      { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } };
    float m = r + 0.02f, s = grid_cell_size(g);
    for (int k = 0; k < 8; k++) {
        float x = v[0] + (float)OFF[k][0] * m, y = v[1] + (float)OFF[k][1] * m;
        int cx, cy;
        if (grid_cell_of(g, x, y, &cx, &cy) && grid_passable(g, cls, cx, cy) &&
            !unit_box_hits_terrain(g, cls, r, x, y)) {
            v[0] = x, v[1] = y;
            return;
        }
    }
    int cx, cy;
    if (grid_cell_of(g, v[0], v[1], &cx, &cy) && grid_passable(g, cls, cx, cy)) {
        v[0] = ((float)cx + 0.5f) * s;
        v[1] = ((float)cy + 0.5f) * s;
    }
}

/* The way to t as the body takes it. A straight line between passable
** cells is the point's way; a box may still catch a corner beside it.
** When its next step would, it walks cell by cell instead: to the centre
** of a neighbouring cell toward t (the one the line enters first, then
** the other side one, then the diagonal), or back to the centre of its
** own (where a box always fits: the grid's clearance is square). */
void unit_body_way(const NavGrid *g, int cls, float r, const float p[2], float t[2])
{
    float dx = t[0] - p[0], dy = t[1] - p[1], d = sqrtf(dx * dx + dy * dy);
    if (d < 1e-4f) return;
    float probe = fminf(d, 0.25f);
    if (!unit_box_enters_terrain(g, cls, r, p, p[0] + dx / d * probe, p[1] + dy / d * probe)) return;
    float s = grid_cell_size(g);
    int cx = (int)floorf(p[0] / s), cy = (int)floorf(p[1] / s);
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    float tx = dx != 0.0f ? ((dx > 0 ? (float)(cx + 1) * s - p[0] : p[0] - (float)cx * s) / fabsf(dx)) : INFINITY;
    float ty = dy != 0.0f ? ((dy > 0 ? (float)(cy + 1) * s - p[1] : p[1] - (float)cy * s) / fabsf(dy)) : INFINITY;
    int cand[3][2] = { { cx + sx, cy }, { cx, cy + sy }, { cx + sx, cy + sy } };
    if (ty < tx) {
        cand[0][0] = cx, cand[0][1] = cy + sy;
        cand[1][0] = cx + sx, cand[1][1] = cy;
    }
    for (int k = 0; k < 3; k++) {
        int nx = cand[k][0], ny = cand[k][1];
        if ((nx != cx && dx == 0.0f) || (ny != cy && dy == 0.0f)) continue; /* not toward t */
        float n[2] = { ((float)nx + 0.5f) * s, ((float)ny + 0.5f) * s };
        float ex = n[0] - p[0], ey = n[1] - p[1], ed = sqrtf(ex * ex + ey * ey);
        if (!grid_passable(g, cls, nx, ny) || ed < 1e-4f) continue;
        if (k == 2 && (!grid_passable(g, cls, cx + sx, cy) || !grid_passable(g, cls, cx, cy + sy))) continue;
        if (unit_box_enters_terrain(g, cls, r, p, p[0] + ex / ed * fminf(ed, 0.25f), p[1] + ey / ed * fminf(ed, 0.25f)))
            continue;
        t[0] = n[0], t[1] = n[1];
        return;
    }
    t[0] = ((float)cx + 0.5f) * s;
    t[1] = ((float)cy + 0.5f) * s;
}

/* Can a body of half width r walk straight from a to b? Every navcell the
** line crosses passable for the class, and the box, looked at every
** quarter metre, clear of every cell it cannot stand in. */
bool unit_body_segment_clear(const NavGrid *g, int cls, float r, float ax, float ay, float bx, float by, bool leaving)
{
    if (!segment_clear(g, cls, ax, ay, bx, by, leaving)) return false;
    float dx = bx - ax, dy = by - ay, d = sqrtf(dx * dx + dy * dy);
    int n = (int)ceilf(d / 0.25f);
    const float a[2] = { ax, ay };
    for (int k = 1; k <= n; k++) {
        float f = (float)k / (float)n;
        if (unit_box_enters_terrain(g, cls, r, a, ax + dx * f, ay + dy * f)) return false;
    }
    return true;
}

/* }======= */

/* {======= neighbours ======= */

/* Ids of the bots (not b) whose feet are within `range` of b's on both
** axes, on about b's level: up to max, in bucket order then far ones;
** with body (may be NULL) where each stands and its half width. */
int unit_near(const NavSim *sim, const NavBot *b, float range, uint32_t *out, UnitBody *body, int max)
{
    const SimBuckets *bk = &sim->buckets;
    const NavClass *c = world_class(sim->w, b->cls);
    int n = 0;
    float reach = range + bk->slack + bk->rmax;
    if (bk->w > 0 && bk->cell > 0.0f) {
        int x0 = (int)floorf((b->pos[0] - reach) / bk->cell), x1 = (int)floorf((b->pos[0] + reach) / bk->cell);
        int y0 = (int)floorf((b->pos[1] - reach) / bk->cell), y1 = (int)floorf((b->pos[1] + reach) / bk->cell);
        x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
        x1 = x1 >= bk->w ? bk->w - 1 : x1, y1 = y1 >= bk->h ? bk->h - 1 : y1;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                uint32_t cell = (uint32_t)(y * bk->w + x);
                for (uint32_t k = bk->first[cell]; k < bk->first[cell + 1]; k++) {
                    const SimBucketBot *e = &bk->body[k];
                    if (e->id == b->id || fabsf(e->x - b->pos[0]) > range + e->r ||
                        fabsf(e->y - b->pos[1]) > range + e->r || fabsf(e->z - b->pos[2]) > c->height)
                        continue;
                    if (n == max) return n;
                    /* The record is the body as it is now (sim_bucket_moved):
                    ** read it rather than the bot, which is far bigger. */
                    NAV_ASSERT(e->x == sim->bots[e->id].pos[0] && e->y == sim->bots[e->id].pos[1]);
                    if (body) body[n] = (UnitBody){ e->x, e->y, e->r };
                    out[n++] = e->id;
                }
            }
    }
    for (uint32_t k = 0; k < bk->far_count && n < max; k++) {
        const NavBot *o = &sim->bots[bk->far[k]];
        if (o->id == b->id || fabsf(o->pos[0] - b->pos[0]) > range + 2.0f ||
            fabsf(o->pos[1] - b->pos[1]) > range + 2.0f)
            continue;
        bool twice = false;
        for (int q = 0; q < n && !twice; q++) twice = out[q] == o->id;
        if (twice) continue;
        if (body) body[n] = (UnitBody){ o->pos[0], o->pos[1], world_class(sim->w, o->cls)->radius };
        out[n++] = o->id;
    }
    return n;
}

/* }======= */

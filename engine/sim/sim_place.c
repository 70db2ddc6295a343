/*
** sim_place.c — buildings in a running simulation (sim.h, "buildings"):
** the placement check named in the sim's terms, spawn points that know
** where bots stand, spawning a bot clear of everything, moving a body at
** once, and laying a foundation that pushes the bots under it out.
**
** Dispersal looks, for each bot in the way, for the nearest free spot on
** rings round the foundation's box: ring k is the box grown by the bot's
** radius + GRID_SPAWN_PAD + k steps, its points a step apart. A point
** inside every ring is exactly (its distance to the innermost ring) +
** (ring k's growth over it) from ring k's nearest point, so once a free
** spot is found no further ring can hold a nearer one and the search
** stops there.
**
** DOES NOT: judge placement itself (grid/grid_place.c does), move bots by
** their physics (sim_move.c), or give moved bots new goals: their brains
** find their way from where they are put.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "sim/sim_internal.h"

#define RING_STEP 0.25f /* metres between dispersal rings, and between their points */
#define LIFT 0.01f      /* a body is tried this far above its floor, as sim_place_free does */

/* {======= bodies ======= */

static bool is_liquid(const NavFloor *f)
{
    return f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME;
}

/* Where a standing body of class c has its feet over floor f: on it, or
** afloat in liquid deeper than half its height (as sim_add_bot puts it). */
static float feet_z(const NavClass *c, const NavFloor *f)
{
    return is_liquid(f) && f->top - f->z > 0.5f * c->height ? f->top - 0.5f * c->height : f->z;
}

/* Does a standing body of class cls fit with its feet on the floor within
** a step of z at (x, y)? Its feet into out. ignore: a bot not counted. */
static bool body_fits(const NavSim *sim, int cls, float x, float y, float z, int ignore, float out[3])
{
    const NavClass *c = world_class(sim->w, cls);
    const NavFloor *f = world_floor_at(sim->w, x, y, z, c->step);
    if (!f || !isfinite(f->z)) return false;
    float p[3] = { x, y, feet_z(c, f) + LIFT }, zero[3] = { 0, 0, 0 };
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    NavTrace tr;
    sim_trace(sim, mins, maxs, p, zero, ignore, &tr);
    if (tr.start_solid) return false;
    out[0] = x;
    out[1] = y;
    out[2] = p[2] - LIFT;
    return true;
}

/* The standing height of the lowest floor under (x, y); false off the
** map, over a solid column or a void. */
static bool lowest_floor(const NavWorld *w, float x, float y, float *z)
{
    int cx, cy, n;
    if (!world_point_cell(w, x, y, &cx, &cy)) return false;
    const NavFloor *f = world_column(w, cx, cy, &n);
    if (n == 0 || f[0].contents == NAV_CONTENTS_VOID) return false;
    *z = world_standing_height(&f[0]);
    return true;
}

bool sim_bot_teleport(NavSim *sim, uint32_t id, const float pos[3])
{
    if (id >= sim->bot_count || sim->bots[id].fell) return false;
    NavBot *b = &sim->bots[id];
    const NavClass *c = world_class(sim->w, b->cls);
    const NavFloor *f = world_floor_at(sim->w, pos[0], pos[1], pos[2], c->step);
    if (!f || !isfinite(f->z)) return false;
    float p[3] = { pos[0], pos[1], feet_z(c, f) }, lifted[3] = { p[0], p[1], p[2] + LIFT }, zero[3] = { 0, 0, 0 };
    float mins[3], maxs[3];
    sim_bot_box(sim, b, mins, maxs);
    NavTrace tr;
    sim_trace(sim, mins, maxs, lifted, zero, (int)id, &tr);
    if (tr.start_solid) return false;
    memcpy(b->pos, p, sizeof b->pos);
    memset(b->vel, 0, sizeof b->vel);
    b->on_ground = !is_liquid(f);
    b->in_water = is_liquid(f) && f->top > p[2] + 0.5f * c->height && class_can_swim(c);
    b->on_ladder = b->climbing = b->airborne_pad = b->jumping = false;
    b->control.climb = false;
    b->riding = -1;
    b->touching_teleporter = -1;
    b->jump_from_z = p[2];
    /* Its bucket record follows; further than the slack covers, it is
    ** "far" until the next tick, as a bot through a teleporter is. */
    sim_bucket_moved(sim, b);
    SimBuckets *bk = &sim->buckets;
    bool listed = false;
    for (uint32_t k = 0; k < bk->far_count && !listed; k++) listed = bk->far[k] == id;
    if (!listed && bk->far_count < sim->bot_cap) bk->far[bk->far_count++] = id;
    return true;
}

void sim_place_release(NavSim *sim)
{
    for (uint32_t i = 0; i < sim->retired_count; i++) nav_free(sim->retired[i]);
    nav_free(sim->retired);
    sim->retired = NULL;
    sim->retired_count = 0;
}

/* Room for one more bot without moving the bots in memory now. A script
** may spawn while a nav function of an outer call holds a body's address
** (a metamethod of one of its arguments spawning): the array it points
** into is kept, unchanged, until a later tick, when no call of this one
** can still be running (nav functions never span a tick). */
static bool spawn_room(NavSim *sim)
{
    if (sim->retired_count && sim->retired_tick < sim->tick) sim_place_release(sim);
    if (sim->bot_count < sim->bot_cap) return true;
    uint32_t cap = sim->bot_cap ? sim->bot_cap * 2 : 16;
    NavBot *grown = nav_malloc(cap * sizeof *grown);
    NavBot **list = nav_realloc(sim->retired, (sim->retired_count + 1) * sizeof *list);
    if (list) sim->retired = list;
    if (!grown || !list) {
        nav_free(grown);
        return false;
    }
    if (sim->bot_count) memcpy(grown, sim->bots, sim->bot_count * sizeof *grown);
    sim->retired[sim->retired_count++] = sim->bots;
    sim->retired_tick = sim->tick;
    sim->bots = grown;
    sim->bot_cap = cap;
    return true;
}

int sim_spawn_bot(NavSim *sim, const NavBotDesc *desc, NavError *err)
{
    const NavClass *c = world_class(sim->w, desc->cls);
    if (c && isfinite(desc->pos[0]) && isfinite(desc->pos[1]) && isfinite(desc->pos[2])) {
        const NavFloor *f = world_floor_at(sim->w, desc->pos[0], desc->pos[1], desc->pos[2], c->step);
        float p[3];
        /* No floor: sim_add_bot says so. */
        if (f && isfinite(f->z) && !body_fits(sim, desc->cls, desc->pos[0], desc->pos[1], desc->pos[2], -1, p)) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "pos", "a %s does not fit at (%.2f, %.2f, %.2f): %s", c->name,
                          (double)desc->pos[0], (double)desc->pos[1], (double)feet_z(c, f),
                          "the world, an obstacle or a bot is in the way");
            return -1;
        }
    }
    if (sim->bot_count < SIM_MAX_BOTS && !spawn_room(sim)) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
        return -1;
    }
    return sim_add_bot(sim, desc, err);
}

/* }======= */

/* {======= placement and spawn points ======= */

NavStatus sim_place_check(NavSim *sim, const GridShape *footprint, const GridPlaceRules *rules, GridPlaceResult *out,
                          char *text, size_t cap, NavError *err)
{
    memset(out, 0, sizeof *out);
    NavGrid *g = sim_grid(sim, err);
    if (!g) return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    NavStatus s = grid_place_check(g, footprint, rules, out, err);
    if (NAV_FAILED(s)) return s;
    if (text && cap) {
        char other[64];
        uint32_t obstacle;
        int crate;
        const char *name = NULL;
        if (out->reason == GRID_PLACE_OBSTRUCTION && sim_grid_owner(sim, out->obstruction, &obstacle, &crate)) {
            if (crate >= 0) snprintf(other, sizeof other, "crate %s", world_entity(sim->w, crate)->name);
            else snprintf(other, sizeof other, "obstacle %u", obstacle);
            name = other;
        }
        grid_place_describe(out, name, text, cap);
    }
    return NAV_OK;
}

typedef struct SpawnCheck {
    const NavSim *sim;
    int cls;
} SpawnCheck;

static bool spawn_fits(void *user, float x, float y)
{
    const SpawnCheck *s = user;
    float z, p[3];
    return lowest_floor(s->sim->w, x, y, &z) && body_fits(s->sim, s->cls, x, y, z, -1, p);
}

int sim_spawn_points(NavSim *sim, int cls, const GridShape *footprint, const float *rally, int rings, float *out, int n,
                     NavError *err)
{
    NavGrid *g = sim_grid(sim, err);
    if (!g) return -1;
    if (cls < 0 || cls >= grid_class_count(g)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in %s", cls, world_name(sim->w));
        return -1;
    }
    if (NAV_FAILED(grid_check_footprint(g, footprint, "footprint", err))) return -1;
    /* The bots standing within reach of the outermost ring. */
    float half = world_class(sim->w, cls)->radius + GRID_SPAWN_PAD, widest = 0.0f;
    for (int c = 0; c < world_class_count(sim->w); c++) widest = fmaxf(widest, world_class(sim->w, c)->radius);
    int rr = rings > 0 ? rings : GRID_SPAWN_RINGS;
    float reach =
        fabsf(footprint->hw) + fabsf(footprint->hh) + 2.0f * NAV_SQRT2 * half * (float)(rr + 1) + widest + 1.0f;
    float *occ = nav_malloc(((size_t)sim->bot_count + 1) * 3 * sizeof *occ);
    if (!occ) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for spawn points");
        return -1;
    }
    int nocc = 0;
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        const NavBot *b = &sim->bots[i];
        if (b->fell || fabsf(b->pos[0] - footprint->x) > reach || fabsf(b->pos[1] - footprint->y) > reach) continue;
        occ[3 * nocc] = b->pos[0];
        occ[3 * nocc + 1] = b->pos[1];
        occ[3 * nocc + 2] = world_class(sim->w, b->cls)->radius + GRID_SPAWN_PAD;
        nocc++;
    }
    SpawnCheck check = { sim, cls };
    GridSpawnDesc d = { .cls = cls,
                        .rally = rally != NULL,
                        .rally_x = rally ? rally[0] : 0.0f,
                        .rally_y = rally ? rally[1] : 0.0f,
                        .rings = rings,
                        .occupied = occ,
                        .occupied_count = nocc,
                        .accept = spawn_fits,
                        .user = &check };
    int got = grid_spawn_points(g, footprint, &d, out, n, err);
    nav_free(occ);
    return got;
}

/* }======= */

/* {======= foundations ======= */

typedef struct InTheWay {
    uint32_t id;
    float depth; /* how far inside the box's edge its centre is (negative: outside) */
} InTheWay;

static int by_depth(const void *pa, const void *pb)
{
    const InTheWay *a = pa, *b = pb;
    if (a->depth != b->depth) return a->depth < b->depth ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

typedef struct Spot {
    float x, y, d2;
    int index;
} Spot;

static int by_distance(const void *pa, const void *pb)
{
    const Spot *a = pa, *b = pb;
    if (a->d2 != b->d2) return a->d2 < b->d2 ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Points a step apart round the rectangle centred at (cx, cy) with half
** extents (w, h), counter-clockwise from its south-west corner. */
static int ring_spots(float cx, float cy, float w, float h, Spot *out)
{
    const float from[4][2] = { { -w, -h }, { w, -h }, { w, h }, { -w, h } };
    int n = 0;
    for (int s = 0; s < 4; s++) {
        const float *a = from[s], *b = from[(s + 1) & 3];
        float len = fabsf(b[0] - a[0]) + fabsf(b[1] - a[1]);
        int m = NAV_MAX(1, (int)ceilf(len / RING_STEP - 1e-4f));
        for (int j = 0; j < m; j++) {
            float t = (float)j / (float)m;
            out[n].x = cx + a[0] + t * (b[0] - a[0]);
            out[n].y = cy + a[1] + t * (b[1] - a[1]);
            out[n].index = n;
            n++;
        }
    }
    return n;
}

/* The bots near a foundation, bucketed on a coarse grid, so that a spot
** is first checked against the few bodies round it: in a crowd most
** spots are taken, and a look is far cheaper than a trace. A spot that
** passes still gets its trace (world, entities, obstacles, bots). */
typedef struct Crowd {
    float x0, y0, cell;
    int w, h;
    int *head;    /* per bucket: its first entry, -1 when none */
    int *next;    /* per entry */
    int *bucket;  /* per entry */
    float *body;  /* per entry: x, y, half width, z, height */
    uint32_t *id; /* per entry, ascending */
    int count;
    float reach; /* the widest half width: how far round a spot to look */
} Crowd;

static void crowd_free(Crowd *c)
{
    nav_free(c->head);
    nav_free(c->next);
    nav_free(c->bucket);
    nav_free(c->body);
    nav_free(c->id);
}

static int crowd_bucket(const Crowd *c, float x, float y)
{
    int bx = (int)floorf((x - c->x0) / c->cell), by = (int)floorf((y - c->y0) / c->cell);
    bx = bx < 0 ? 0 : bx >= c->w ? c->w - 1 : bx;
    by = by < 0 ? 0 : by >= c->h ? c->h - 1 : by;
    return by * c->w + bx;
}

/* Every live bot whose centre lies within `margin` of the box. */
static bool crowd_build(Crowd *c, const NavSim *sim, const float lo[2], const float hi[2], float margin)
{
    memset(c, 0, sizeof *c);
    c->x0 = lo[0] - margin;
    c->y0 = lo[1] - margin;
    float ew = hi[0] - lo[0] + 2.0f * margin, eh = hi[1] - lo[1] + 2.0f * margin;
    c->cell = fmaxf(1.0f, fmaxf(ew, eh) / 256.0f); /* at most 256 x 256 buckets */
    c->w = (int)ceilf(ew / c->cell) + 1;
    c->h = (int)ceilf(eh / c->cell) + 1;
    size_t n = (size_t)sim->bot_count + 1;
    c->head = nav_malloc((size_t)c->w * (size_t)c->h * sizeof *c->head);
    c->next = nav_malloc(n * sizeof *c->next);
    c->bucket = nav_malloc(n * sizeof *c->bucket);
    c->body = nav_malloc(5 * n * sizeof *c->body);
    c->id = nav_malloc(n * sizeof *c->id);
    if (!c->head || !c->next || !c->bucket || !c->body || !c->id) return false;
    memset(c->head, 0xFF, (size_t)c->w * (size_t)c->h * sizeof *c->head);
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        const NavBot *b = &sim->bots[i];
        if (b->fell || b->pos[0] < c->x0 || b->pos[1] < c->y0 || b->pos[0] > hi[0] + margin ||
            b->pos[1] > hi[1] + margin)
            continue;
        float mins[3], maxs[3];
        sim_bot_box(sim, b, mins, maxs);
        int e = c->count++;
        float *body = &c->body[5 * e];
        body[0] = b->pos[0], body[1] = b->pos[1], body[2] = maxs[0], body[3] = b->pos[2], body[4] = maxs[2];
        c->reach = fmaxf(c->reach, maxs[0]);
        c->id[e] = i;
        c->bucket[e] = crowd_bucket(c, body[0], body[1]);
        c->next[e] = c->head[c->bucket[e]];
        c->head[c->bucket[e]] = e;
    }
    return true;
}

/* Would a body of half width r standing from z to z + h at (x, y) overlap
** a body of the crowd but bot `self`'s? */
static bool crowd_taken(const Crowd *c, float x, float y, float r, float z, float h, uint32_t self)
{
    float look = r + c->reach;
    int a = crowd_bucket(c, x - look, y - look), b = crowd_bucket(c, x + look, y + look);
    for (int by = a / c->w; by <= b / c->w; by++)
        for (int bx = a % c->w; bx <= b % c->w; bx++)
            for (int e = c->head[by * c->w + bx]; e >= 0; e = c->next[e]) {
                const float *o = &c->body[5 * e];
                float gap = r + o[2] - 1e-4f;
                if (c->id[e] != self && fabsf(x - o[0]) < gap && fabsf(y - o[1]) < gap && z < o[3] + o[4] &&
                    o[3] < z + h)
                    return true;
            }
    return false;
}

/* Bot id moved to p: its entry follows. */
static void crowd_move(Crowd *c, uint32_t id, const float p[3])
{
    int lo = 0, hi = c->count - 1, e = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->id[mid] == id) {
            e = mid;
            break;
        }
        if (c->id[mid] < id) lo = mid + 1;
        else hi = mid - 1;
    }
    if (e < 0) return;
    int *at = &c->head[c->bucket[e]];
    while (*at != e) at = &c->next[*at];
    *at = c->next[e];
    c->body[5 * e] = p[0];
    c->body[5 * e + 1] = p[1];
    c->body[5 * e + 3] = p[2];
    c->bucket[e] = crowd_bucket(c, p[0], p[1]);
    c->next[e] = c->head[c->bucket[e]];
    c->head[c->bucket[e]] = e;
}

/* The nearest free spot for bot b outside box [lo, hi] grown by its
** radius + GRID_SPAWN_PAD; false when none within SIM_FOUNDATION_REACH. */
static bool free_spot(NavSim *sim, const NavGrid *g, const Crowd *crowd, const NavBot *b, const float lo[2],
                      const float hi[2], Spot *buf, float out[3])
{
    const NavClass *c = world_class(sim->w, b->cls);
    float grow = c->radius + GRID_SPAWN_PAD;
    float cx = 0.5f * (lo[0] + hi[0]), cy = 0.5f * (lo[1] + hi[1]);
    float w0 = 0.5f * (hi[0] - lo[0]) + grow, h0 = 0.5f * (hi[1] - lo[1]) + grow;
    /* Its distance to the innermost ring, from inside it. */
    float inside = fminf(w0 - fabsf(b->pos[0] - cx), h0 - fabsf(b->pos[1] - cy));
    float best = INFINITY;
    int rings = (int)(SIM_FOUNDATION_REACH / RING_STEP);
    for (int k = 0; k <= rings; k++) {
        float e = RING_STEP * (float)k, lower = inside + e;
        if (lower * lower >= best) break;
        int all = ring_spots(cx, cy, w0 + e, h0 + e, buf), m = 0;
        /* Off the map or on a blocked cell costs a bit test: dropped
        ** before the sort. */
        for (int i = 0; i < all; i++) {
            int gx, gy;
            if (!grid_cell_of(g, buf[i].x, buf[i].y, &gx, &gy) || !grid_passable(g, b->cls, gx, gy)) continue;
            float dx = buf[i].x - b->pos[0], dy = buf[i].y - b->pos[1];
            buf[m] = buf[i];
            buf[m++].d2 = dx * dx + dy * dy;
        }
        qsort(buf, (size_t)m, sizeof *buf, by_distance);
        for (int i = 0; i < m && buf[i].d2 < best; i++) {
            float p[3];
            if (crowd_taken(crowd, buf[i].x, buf[i].y, c->radius, b->pos[2] - c->step, c->height + 2.0f * c->step,
                            b->id))
                continue;
            if (!body_fits(sim, b->cls, buf[i].x, buf[i].y, b->pos[2], (int)b->id, p)) continue;
            best = buf[i].d2;
            memcpy(out, p, sizeof p);
            break; /* sorted: the first free one is this ring's nearest */
        }
    }
    return isfinite(best);
}

/* The lowest and highest ground under the box (cells it touches), the
** lowest floor of each column; 0, 0 when it has none. */
static void ground_range(const NavWorld *w, const float lo[2], const float hi[2], float *zlo, float *zhi)
{
    float cs = world_cell_size(w);
    int x0 = NAV_MAX((int)floorf(lo[0] / cs), 0), x1 = NAV_MIN((int)floorf(hi[0] / cs), world_width(w) - 1);
    int y0 = NAV_MAX((int)floorf(lo[1] / cs), 0), y1 = NAV_MIN((int)floorf(hi[1] / cs), world_height(w) - 1);
    *zlo = INFINITY;
    *zhi = -INFINITY;
    for (int y = y0; y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            if (n == 0 || !isfinite(f[0].z)) continue;
            *zlo = fminf(*zlo, f[0].z);
            *zhi = fmaxf(*zhi, world_standing_height(&f[0]));
        }
    }
    if (!isfinite(*zlo)) *zlo = *zhi = 0.0f;
}

NavStatus sim_place_foundation(NavSim *sim, const GridShape *footprint, float height, int builder, SimFoundation *out,
                               NavError *err)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(height) || height <= 0.0f)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "height", "height must be a finite number above 0, got %g",
                             (double)height);
    NavGrid *g = sim_grid(sim, err);
    if (!g) return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    NavStatus s = grid_check_footprint(g, footprint, "footprint", err);
    if (NAV_FAILED(s)) return s;

    float c = cosf(footprint->angle), sn = sinf(footprint->angle);
    float ex = fabsf(c) * footprint->hw + fabsf(sn) * footprint->hh;
    float ey = fabsf(sn) * footprint->hw + fabsf(c) * footprint->hh;
    float lo[2] = { footprint->x - ex, footprint->y - ey }, hi[2] = { footprint->x + ex, footprint->y + ey };
    float zlo, zhi;
    ground_range(sim->w, lo, hi, &zlo, &zhi);
    float mins[3] = { lo[0], lo[1], zlo }, maxs[3] = { hi[0], hi[1], zhi + height };

    /* The bots in the way, found before the obstacle is there. */
    InTheWay *way = nav_malloc(((size_t)sim->bot_count + 1) * sizeof *way);
    if (!way) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a foundation");
    int nway = 0;
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        const NavBot *b = &sim->bots[i];
        if ((int)i == builder || b->fell) continue;
        float bl[3], bh[3];
        sim_world_box(sim, b, b->pos, bl, bh);
        bool overlaps = true;
        for (int k = 0; k < 3; k++)
            if (bl[k] >= maxs[k] - 1e-4f || bh[k] <= mins[k] + 1e-4f) overlaps = false;
        if (!overlaps) continue;
        float depth = fminf(fminf(b->pos[0] - lo[0], hi[0] - b->pos[0]), fminf(b->pos[1] - lo[1], hi[1] - b->pos[1]));
        way[nway++] = (InTheWay){ .id = i, .depth = depth };
    }
    qsort(way, (size_t)nway, sizeof *way, by_depth);

    out->obstacle = sim_add_obstacle(sim, mins, maxs);
    if (!out->obstacle) {
        nav_free(way);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a foundation");
    }
    /* Ring points: the largest ring's perimeter a step apart. */
    float widest = 0.0f;
    for (int k = 0; k < world_class_count(sim->w); k++) widest = fmaxf(widest, world_class(sim->w, k)->radius);
    float span = (hi[0] - lo[0]) + (hi[1] - lo[1]) + 4.0f * (widest + GRID_SPAWN_PAD + SIM_FOUNDATION_REACH) + 1.0f;
    float margin = SIM_FOUNDATION_REACH + 2.0f * (widest + GRID_SPAWN_PAD) + 1.0f;
    Spot *buf = nway ? nav_malloc(((size_t)(2.0f * span / RING_STEP) + 8) * sizeof *buf) : NULL;
    Crowd crowd;
    memset(&crowd, 0, sizeof crowd);
    if (nway && (!buf || !crowd_build(&crowd, sim, lo, hi, margin))) {
        nav_free(buf);
        nav_free(way);
        crowd_free(&crowd);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a foundation");
    }
    for (int i = 0; i < nway; i++) {
        float p[3];
        const NavBot *b = &sim->bots[way[i].id];
        if (free_spot(sim, g, &crowd, b, lo, hi, buf, p) && sim_bot_teleport(sim, way[i].id, p)) {
            crowd_move(&crowd, way[i].id, sim->bots[way[i].id].pos);
            out->moved++;
        } else {
            out->stranded++;
        }
    }
    if (nway) crowd_free(&crowd);
    nav_free(buf);
    nav_free(way);
    return NAV_OK;
}

/* }======= */

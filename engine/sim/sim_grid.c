/*
** sim_grid.c — the simulation's navcell grid (sim.h, "Grid"): one NavGrid
** for every class of the sim's world, built on first use, with one search
** state and one waypoint buffer reused by every path query, so a query in
** the hot path (a brain asking for a path each tick) allocates nothing.
**
** What moves in the world is kept in the grid as obstructions, the way the
** routers get it as obstacles (sim.c):
**   - obstacles dropped with sim_add_obstacle, locked doors among them
**     (sim_door_set drops one): sim.c calls sim_grid_obstacle_added and
**     sim_grid_obstacle_removed from sim_add_obstacle/sim_remove_obstacle;
**   - crates: always solid, so each is an obstruction from the build on,
**     moved to where it was pushed. Pushes happen deep inside a bot's move
**     (sim_move.c); rather than hook every push, the grid looks at the
**     crates once per tick, before the first query of that tick, and moves
**     the obstructions of those that moved.
** An obstacle's box becomes an axis-aligned rectangle (its x, y extent)
** whatever its height: the grid is the ground floor, and a box floating
** above it is rare enough to block conservatively.
** Elevator platforms are not obstructions: at their stops they are floor.
**
** Short paths (sim_grid_short_path) see bots: the other bots near the
** search square, from the sim's buckets, become the unit squares of the
** short-range search (grid_short.h), whose state is made on first use.
**
** DOES NOT: search on its own (grid_search.h and grid_short.h do; this
** file only owns the state), count the query time (the callers do: the
** nav module into its session's clock, nav_api_count_grid), or put bots
** in the grid: bots are not obstructions, they steer around each other.
*/
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "grid/grid_short.h"
#include "sim/sim_unit.h"

#define SIM_GRID_MARGIN 0.01f /* metres of clearance over a body's half width */
/* Metres more for the roomy twins units plan on first (sim_unit.c): a
** lane between trees one body wide is where units meet head on. */
#define SIM_GRID_ROOMY 0.5f
#define PATH_CAP 4096 /* waypoints a query keeps; longer paths come back truncated */

/* A sim obstacle and the obstruction standing for it. */
typedef struct GridLink {
    uint32_t obstacle; /* sim obstacle id */
    GridObstructionId obstruction;
} GridLink;

typedef struct GridCrate {
    int entity;
    float pos[3]; /* where its obstruction is */
    GridObstructionId obstruction;
} GridCrate;

struct SimGrid {
    NavGrid *grid;
    GridSearch *search;
    GridWaypoint points[PATH_CAP];
    /* short paths: made on the first query */
    GridShortSearch *short_search;
    GridShortPoint short_points[SIM_SHORT_POINTS];
    GridShortSquare *units;
    uint32_t unit_cap;
    GridLink *links;
    uint32_t link_count, link_cap;
    GridCrate *crates;
    int crate_count;
    uint64_t crates_tick; /* tick the crates were last looked at */
    bool crates_seen;
};

/* {======= obstructions ======= */

static GridShape box_shape(const float mins[3], const float maxs[3])
{
    return (GridShape){ .x = 0.5f * (mins[0] + maxs[0]),
                        .y = 0.5f * (mins[1] + maxs[1]),
                        .hw = 0.5f * (maxs[0] - mins[0]),
                        .hh = 0.5f * (maxs[1] - mins[1]),
                        .angle = 0.0f };
}

/* False when out of memory (the grid unchanged). A box the grid refuses
** (far outside the map) only leaves the grid without that obstruction:
** paths may then run into it and the bots' traces still stop them. */
static bool link_obstacle(SimGrid *sg, uint32_t id, const float mins[3], const float maxs[3])
{
    if (sg->link_count == sg->link_cap) {
        uint32_t cap = sg->link_cap ? sg->link_cap * 2 : 8;
        GridLink *l = nav_realloc(sg->links, cap * sizeof *l);
        if (!l) return false;
        sg->links = l;
        sg->link_cap = cap;
    }
    GridShape shape = box_shape(mins, maxs);
    GridObstructionId oid;
    NavStatus st = grid_add_obstruction(sg->grid, &shape, &oid, NULL);
    if (NAV_FAILED(st)) return !(st & NAV_E_NOMEM);
    sg->links[sg->link_count++] = (GridLink){ .obstacle = id, .obstruction = oid };
    return true;
}

bool sim_grid_obstacle_added(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3])
{
    SimGrid *sg = sim->grid;
    return !(sg && sg->grid) || link_obstacle(sg, id, mins, maxs);
}

void sim_grid_obstacle_removed(NavSim *sim, uint32_t id)
{
    SimGrid *sg = sim->grid;
    if (!sg) return;
    for (uint32_t i = 0; i < sg->link_count; i++) {
        if (sg->links[i].obstacle != id) continue;
        grid_remove_obstruction(sg->grid, sg->links[i].obstruction, NULL);
        sg->links[i] = sg->links[--sg->link_count];
        return;
    }
}

bool sim_grid_owner(const NavSim *sim, GridObstructionId oid, uint32_t *obstacle, int *crate)
{
    const SimGrid *sg = sim->grid;
    *obstacle = 0;
    *crate = -1;
    if (!sg) return false;
    for (uint32_t i = 0; i < sg->link_count; i++)
        if (sg->links[i].obstruction.id == oid.id) return (*obstacle = sg->links[i].obstacle), true;
    for (int i = 0; i < sg->crate_count; i++)
        if (sg->crates[i].obstruction.id == oid.id) return (*crate = sg->crates[i].entity), true;
    return false;
}

/* Crates pushed since the last look move their obstructions (once per
** tick at most: a crate moves only inside sim_step). */
static void sync_crates(NavSim *sim, SimGrid *sg)
{
    if (sg->crates_seen && sg->crates_tick == sim->tick) return;
    sg->crates_seen = true;
    sg->crates_tick = sim->tick;
    for (int i = 0; i < sg->crate_count; i++) {
        GridCrate *c = &sg->crates[i];
        const float *now = sim->ent[c->entity].pos;
        if (memcmp(now, c->pos, sizeof c->pos) == 0) continue;
        float lo[3], hi[3];
        sim_entity_box(sim, c->entity, lo, hi);
        GridShape shape = box_shape(lo, hi);
        if (NAV_SUCCEEDED(grid_move_obstruction(sg->grid, c->obstruction, &shape, NULL)))
            memcpy(c->pos, now, sizeof c->pos);
    }
}

/* }======= */

/* {======= building ======= */

void sim_grid_free(NavSim *sim)
{
    SimGrid *sg = sim->grid;
    if (!sg) return;
    grid_search_destroy(sg->search);
    grid_short_destroy(sg->short_search);
    nav_free(sg->units);
    grid_destroy(sg->grid);
    nav_free(sg->links);
    nav_free(sg->crates);
    nav_free(sg);
    sim->grid = NULL;
}

NavGrid *sim_grid(NavSim *sim, NavError *err)
{
    if (sim->grid) {
        sync_crates(sim, sim->grid);
        return sim->grid->grid;
    }
    SimGrid *sg = nav_calloc(1, sizeof *sg);
    if (!sg) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the simulation's grid");
        return NULL;
    }
    /* Square clearance: the sim's bodies are axis-aligned boxes, and a box
    ** of half width r fits at a cell centre exactly when every blocked cell
    ** is at least r away on one axis (the round filter would let a box's
    ** corner into a tree beside a diagonal gap). A centimetre more: a body
    ** exactly as wide as a gap does not get through it (SIM_GRID_MARGIN). */
    sg->grid = grid_create(sim->w,
                           &(NavGridDesc){ .clearance = GRID_CLEARANCE_SQUARE,
                                           .clearance_margin = SIM_GRID_MARGIN,
                                           .roomy_margin = SIM_GRID_ROOMY },
                           err);
    if (!sg->grid) goto fail;
    sg->search = grid_search_create(sg->grid, err);
    if (!sg->search) goto fail;
    for (int i = 0; i < sim->ent_count; i++)
        if (world_entity(sim->w, i)->type == NAV_ENTITY_CRATE) sg->crate_count++;
    if (sg->crate_count) {
        sg->crates = nav_calloc((size_t)sg->crate_count, sizeof *sg->crates);
        if (!sg->crates) {
            nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the simulation's grid");
            goto fail;
        }
    }
    int n = 0;
    for (int i = 0; i < sim->ent_count; i++) {
        if (world_entity(sim->w, i)->type != NAV_ENTITY_CRATE) continue;
        GridCrate *c = &sg->crates[n++];
        float lo[3], hi[3];
        sim_entity_box(sim, i, lo, hi);
        GridShape shape = box_shape(lo, hi);
        c->entity = i;
        memcpy(c->pos, sim->ent[i].pos, sizeof c->pos);
        if (NAV_FAILED(grid_add_obstruction(sg->grid, &shape, &c->obstruction, err))) goto fail;
    }
    /* Obstacles dropped before the grid was first asked for. */
    for (uint32_t i = 0; i < sim->obstacle_count; i++) {
        const SimObstacle *o = &sim->obstacles[i];
        if (!link_obstacle(sg, o->id, o->mins, o->maxs)) {
            nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the simulation's grid");
            goto fail;
        }
    }
    sim->grid = sg;
    sg->crates_seen = true;
    sg->crates_tick = sim->tick;
    return sg->grid;
fail:
    grid_search_destroy(sg->search);
    grid_destroy(sg->grid);
    nav_free(sg->crates);
    nav_free(sg->links);
    nav_free(sg);
    return NULL;
}

/* }======= */

/* {======= queries ======= */

NavStatus sim_grid_path(NavSim *sim, int cls, float x, float y, const GridGoal *goal, const SimGridQuery *opt,
                        SimGridPath *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    NavGrid *g = sim_grid(sim, err);
    if (!g) return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    if (!grid_class(g, cls)) /* a world class or a roomy twin */
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in %s", cls, world_name(sim->w));
    int sx, sy;
    if (!grid_cell_of(g, x, y, &sx, &sy))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "start", "(%.2f, %.2f) is outside the grid", (double)x,
                             (double)y);
    SimGrid *sg = sim->grid;
    GridPath path = { .points = sg->points, .cap = PATH_CAP };
    GridQuery q = { .cls = cls, .sx = sx, .sy = sy, .goal = *goal, .max_nodes = opt ? opt->max_nodes : 0 };
    NavStatus s = grid_find_path(sg->search, &q, &path);
    if (NAV_FAILED(s)) return nav_error_set(err, s, NULL, 0, 0, "goal", "not a valid goal");
    /* Smoothing keeps the path on passable cells (grid_line_clear), so a
    ** truncated or partial path can be smoothed as well as a whole one. */
    if (opt && opt->smooth && path.count > 2) path.count = grid_smooth_path(g, cls, path.points, path.count, NULL);
    out->points = path.points;
    out->count = path.count;
    out->flags = path.flags;
    out->length = grid_path_length(path.points, path.count) * grid_cell_size(g);
    return NAV_OK;
}

/* {======= short paths ======= */

/* Bot `other` as a unit square when its body reaches into the box
** [lo, hi] (metres, x y) and its height overlaps [z0, z1]. */
static bool take_unit(SimGrid *sg, uint32_t *n, float x, float y, float z, float r, float h, const float lo[2],
                      const float hi[2], float z0, float z1)
{
    if (x + r < lo[0] || x - r > hi[0] || y + r < lo[1] || y - r > hi[1] || z > z1 || z + h < z0) return true;
    if (*n == sg->unit_cap) {
        uint32_t cap = sg->unit_cap ? 2 * sg->unit_cap : 64;
        if (cap > GRID_SHORT_MAX_SQUARES) return false;
        GridShortSquare *u = nav_realloc(sg->units, cap * sizeof *u);
        if (!u) return false;
        sg->units = u;
        sg->unit_cap = cap;
    }
    sg->units[(*n)++] = (GridShortSquare){ x, y, r };
    return true;
}

/* The other bots near the search square, from the buckets (where bots
** were at the start of the tick, so grown by how far any has moved since
** and the widest body) and the far list, as a trace gathers them. */
static bool gather_units(NavSim *sim, SimGrid *sg, const NavBot *me, float range, uint32_t *n)
{
    float mins[3], maxs[3];
    sim_bot_box(sim, me, mins, maxs);
    float lo[2] = { me->pos[0] - range, me->pos[1] - range }, hi[2] = { me->pos[0] + range, me->pos[1] + range };
    float z0 = me->pos[2] + mins[2], z1 = me->pos[2] + maxs[2];
    *n = 0;
    SimBuckets *bk = &sim->buckets;
    float m = bk->slack + bk->rmax;
    int x0 = (int)floorf((lo[0] - m) / bk->cell), x1 = (int)floorf((hi[0] + m) / bk->cell);
    int y0 = (int)floorf((lo[1] - m) / bk->cell), y1 = (int)floorf((hi[1] + m) / bk->cell);
    x0 = NAV_MAX(x0, 0);
    y0 = NAV_MAX(y0, 0);
    x1 = NAV_MIN(x1, bk->w - 1);
    y1 = NAV_MIN(y1, bk->h - 1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            uint32_t c = (uint32_t)(y * bk->w + x);
            for (uint32_t k = bk->first[c]; k < bk->first[c + 1]; k++) {
                const SimBucketBot *e = &bk->body[k];
                if (e->id != me->id && !take_unit(sg, n, e->x, e->y, e->z, e->r, e->h, lo, hi, z0, z1)) return false;
            }
        }
    for (uint32_t k = 0; k < bk->far_count; k++) {
        const NavBot *b = &sim->bots[bk->far[k]];
        if (b->id == me->id) continue;
        float bmins[3], bmaxs[3];
        sim_bot_box(sim, b, bmins, bmaxs);
        if (!take_unit(sg, n, b->pos[0], b->pos[1], b->pos[2] + bmins[2], bmaxs[0], bmaxs[2] - bmins[2], lo, hi, z0,
                       z1))
            return false;
    }
    return true;
}

NavStatus sim_grid_short_path(NavSim *sim, uint32_t bot, const GridGoal *goal, const SimShortQuery *opt,
                              SimShortPath *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    const NavBot *me = sim_bot(sim, bot);
    if (!me) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "bot", "no bot %u", (unsigned)bot);
    NavGrid *g = sim_grid(sim, err);
    if (!g) return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    SimGrid *sg = sim->grid;
    if (!sg->short_search && !(sg->short_search = grid_short_create(g, err)))
        return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    float range = opt && opt->range > 0.0f ? opt->range : SIM_SHORT_RANGE;
    if (!(range <= GRID_SHORT_MAX_RANGE))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "range", "%g is not in (0, %g] metres", (double)range,
                             (double)GRID_SHORT_MAX_RANGE);
    uint32_t n = 0;
    if (!gather_units(sim, sg, me, range, &n))
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the bots near bot %u",
                             (unsigned)bot);
    float mins[3], maxs[3];
    sim_bot_box(sim, me, mins, maxs);
    GridShortQuery q = { .cls = me->cls,
                         .sx = me->pos[0],
                         .sy = me->pos[1],
                         .goal = *goal,
                         .range = range,
                         .squares = sg->units,
                         .square_count = (int)n,
                         .clearance = maxs[0],
                         .max_expanded = opt ? opt->max_vertices : 0 };
    GridShortPath path = { .points = sg->short_points, .cap = SIM_SHORT_POINTS };
    NavStatus st = grid_short_find_path(sg->short_search, &q, &path, err);
    if (NAV_FAILED(st)) return st;
    out->points = path.points;
    out->count = path.count;
    out->flags = path.flags;
    out->length = path.length;
    out->end_distance = path.end_distance;
    out->units = n;
    out->vertices = path.vertices;
    out->expanded = path.expanded;
    return NAV_OK;
}

/* }======= */

bool sim_grid_passable(NavSim *sim, int cls, float x, float y)
{
    NavGrid *g = sim_grid(sim, NULL);
    int cx, cy;
    return g && cls >= 0 && cls < grid_class_count(g) && grid_cell_of(g, x, y, &cx, &cy) &&
           grid_passable(g, cls, cx, cy);
}

size_t sim_grid_memory(const NavSim *sim)
{
    const SimGrid *sg = sim->grid;
    if (!sg) return 0;
    GridStats st;
    grid_stats(sg->grid, &st);
    return sizeof *sg + st.bytes + grid_search_memory(sg->search) + sg->link_cap * sizeof *sg->links +
           (size_t)sg->crate_count * sizeof *sg->crates + (sg->short_search ? grid_short_memory(sg->short_search) : 0) +
           sg->unit_cap * sizeof *sg->units;
}

size_t sim_memory(const NavSim *sim)
{
    const SimBuckets *bk = &sim->buckets;
    return sizeof *sim + (size_t)sim->bot_cap * (sizeof *sim->bots + 2 * sizeof(uint32_t)) +
           (size_t)sim->memo_cap * sizeof *sim->memo + ((size_t)bk->w * (size_t)bk->h + 1) * sizeof(uint32_t) +
           (size_t)sim->ent_count * sizeof *sim->ent + (size_t)sim->obstacle_cap * sizeof *sim->obstacles +
           (size_t)sim->box_cap * (sizeof *sim->boxes + sizeof *sim->box_owner) + sim_grid_memory(sim) +
           sim_claim_memory(sim) + sim_unit_memory(sim) + sim_formation_memory(sim);
}

/* }======= */

void sim_grid_visit_search(const NavSim *sim, void (*fn)(void *user, int x, int y, bool closed), void *user)
{
    if (sim->grid && sim->grid->search) grid_search_visit(sim->grid->search, fn, user);
}

/*
** sim.c — the simulation: its state, the tick, entities, obstacles and the
** traces bots move by (sim.h). Bot physics is in sim_move.c.
*/
#include "sim/sim_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/random.h"
#include "sim/sim_unit.h"

#define BUCKET_CELL 4.0f       /* metres: a bot moves well under this per tick */
#define BUCKETS_MAX (4u << 20) /* buckets at most: a bigger map gets bigger ones */
#define DOOR_REACH 1.5f        /* metres from a door panel that open it */
#define DOOR_HOLD 2.0f         /* seconds a door stays open after the last bot */

/* {======= creation ======= */

static void init_entity(NavSim *sim, int i)
{
    const NavEntity *e = world_entity(sim->w, i);
    NavEntityState *s = &sim->ent[i];
    memset(s, 0, sizeof *s);
    switch (e->type) {
    case NAV_ENTITY_ELEVATOR:
        s->offset = e->u.elevator.stops[0];
        s->stop = 0;
        s->dir = 1;
        s->phase = 0;
        s->timer = e->u.elevator.wait;
        break;
    case NAV_ENTITY_DOOR:
        s->phase = e->u.door.open ? 1 : 0;
        s->offset = e->u.door.open ? e->maxs[2] - e->mins[2] : 0.0f;
        break;
    case NAV_ENTITY_CRATE: entity_origin(e, s->pos); break;
    default: break;
    }
}

static bool reserve_boxes(NavSim *sim, size_t bots, size_t obstacles);

NavSim *sim_create(const NavWorld *w, const NavSimDesc *desc, NavError *err)
{
    int hz = desc && desc->tick_hz ? desc->tick_hz : SIM_DEFAULT_TICK_HZ;
    if (hz < 1 || hz > 1000) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "tick_hz", "tick rate %d Hz is outside 1..1000", hz);
        return NULL;
    }
    NavSim *sim = nav_calloc(1, sizeof *sim);
    if (!sim) goto nomem;
    sim->w = w;
    sim->dt = 1.0f / (float)hz;
    sim->hz = hz;
    sim->rng = desc ? desc->seed : 0;
    sim->hash = 1469598103934665603ull;
    sim->route_cache_bytes = desc ? desc->route_cache_bytes : 0;
    sim->ent_count = world_entity_count(w);
    sim->ent = nav_calloc((size_t)sim->ent_count + 1, sizeof *sim->ent);
    sim->solid = nav_malloc(((size_t)sim->ent_count + 1) * sizeof *sim->solid);
    if (!sim->ent || !sim->solid) goto nomem;
    for (int i = 0; i < sim->ent_count; i++) {
        init_entity(sim, i);
        /* Every trace looks at these: the others (spawns, goals, pads,
        ** teleporters) are never solid. */
        NavEntityType t = world_entity(w, i)->type;
        if (t == NAV_ENTITY_ELEVATOR || t == NAV_ENTITY_DOOR || t == NAV_ENTITY_CRATE)
            sim->solid[sim->solid_count++] = i;
    }
    SimBuckets *bk = &sim->buckets;
    bk->cell = BUCKET_CELL;
    for (;;) {
        bk->w = (int)ceilf((float)world_width(w) * world_cell_size(w) / bk->cell) + 1;
        bk->h = (int)ceilf((float)world_height(w) * world_cell_size(w) / bk->cell) + 1;
        if ((uint64_t)bk->w * (uint64_t)bk->h <= BUCKETS_MAX) break;
        bk->cell *= 2.0f;
    }
    bk->first = nav_calloc((size_t)bk->w * (size_t)bk->h + 1, sizeof *bk->first);
    if (!bk->first || !reserve_boxes(sim, 0, 0)) goto nomem;
    NavWorldStats ws;
    world_stats(w, &ws);
    sim->floor_z = isfinite(ws.min_z) ? ws.min_z : 0.0f;
    return sim;
nomem:
    sim_destroy(sim);
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the simulation");
    return NULL;
}

void sim_destroy(NavSim *sim)
{
    if (!sim) return;
    for (int c = 0; c < NAV_MAX_CLASSES; c++) {
        router_destroy(sim->router[c]);
        area_destroy(sim->graph[c]);
    }
    sim_grid_free(sim);
    sim_show_free(sim);
    sim_marks_free(sim);
    sim_avoid_free(sim);
    sim_formation_free(sim);
    sim_unit_free(sim);
    sim_claim_free(sim);
    sim_learn_free(sim);
    sim_place_release(sim);
    nav_free(sim->bots);
    for (uint32_t i = 0; i < sim->track_cap; i++) nav_free(sim->track[i].avoid);
    nav_free(sim->track);
    nav_free(sim->memo);
    nav_free(sim->buckets.first);
    nav_free(sim->buckets.order);
    nav_free(sim->buckets.far);
    nav_free(sim->buckets.body);
    nav_free(sim->buckets.slot);
    nav_free(sim->ent);
    nav_free(sim->solid);
    nav_free(sim->obstacles);
    nav_free(sim->boxes);
    nav_free(sim->box_owner);
    nav_free(sim);
}

const NavWorld *sim_world(const NavSim *sim) { return sim->w; }

NavAreaGraph *sim_graph(NavSim *sim, int cls, NavError *err)
{
    if (cls < 0 || cls >= world_class_count(sim->w)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in %s", cls, world_name(sim->w));
        return NULL;
    }
    if (sim->graph[cls]) return sim->graph[cls];
    NavAreaGraph *ag = area_build(sim->w, cls, NULL, err);
    if (!ag) return NULL;
    sim->graph[cls] = ag;
    return ag;
}

bool sim_set_graph(NavSim *sim, int cls, NavAreaGraph *ag, NavError *err)
{
    if (cls < 0 || cls >= world_class_count(sim->w)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in %s", cls, world_name(sim->w));
        return false;
    }
    if (sim->graph[cls]) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "class %s has its area graph already",
                      world_class(sim->w, cls)->name);
        return false;
    }
    if (!ag || area_world(ag) != sim->w || strcmp(area_class(ag)->name, world_class(sim->w, cls)->name) != 0) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "graph", "the area graph belongs to another world or class");
        return false;
    }
    if (NAV_FAILED(area_add_entities(ag, err))) return false;
    sim->graph[cls] = ag;
    return true;
}

NavRouter *sim_router(NavSim *sim, int cls, NavError *err)
{
    NavAreaGraph *ag = sim_graph(sim, cls, err);
    if (!ag) return NULL;
    if (sim->router[cls]) return sim->router[cls];
    NavRouter *r = router_create(ag, &(NavRouterDesc){ .cache_bytes = sim->route_cache_bytes }, err);
    if (!r) return NULL;
    /* Overlays for the flags most bots route with, at load rather than on
    ** the first routes; a cap too small for them only slows queries. */
    for (uint32_t i = 0; i < sim->obstacle_count; i++) {
        SimObstacle *o = &sim->obstacles[i];
        o->route_ids[cls] = router_add_obstacle(r, o->mins, o->maxs);
        if (!o->route_ids[cls]) {
            for (uint32_t k = 0; k <= i; k++) sim->obstacles[k].route_ids[cls] = 0;
            router_destroy(r);
            nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the obstacles of class %s's router",
                          world_class(sim->w, cls)->name);
            return NULL;
        }
    }
    router_prepare(r, NAV_TFL_DEFAULT);
    sim->router[cls] = r;
    return r;
}

const NavRouter *sim_router_built(const NavSim *sim, int cls)
{
    return cls >= 0 && cls < world_class_count(sim->w) ? sim->router[cls] : NULL;
}

/* }======= */

/* {======= bots ======= */

void sim_bot_box(const NavSim *sim, const NavBot *b, float mins[3], float maxs[3])
{
    const NavClass *c = world_class(sim->w, b->cls);
    float h = b->crouched && c->crouch_height > 0.0f ? c->crouch_height : c->height;
    mins[0] = mins[1] = -c->radius;
    mins[2] = 0.0f;
    maxs[0] = maxs[1] = c->radius;
    maxs[2] = h;
}

void sim_world_box(const NavSim *sim, const NavBot *b, const float pos[3], float mins[3], float maxs[3])
{
    float lo[3], hi[3];
    sim_bot_box(sim, b, lo, hi);
    for (int k = 0; k < 3; k++) {
        mins[k] = pos[k] + lo[k];
        maxs[k] = pos[k] + hi[k];
    }
}

int sim_add_bot(NavSim *sim, const NavBotDesc *desc, NavError *err)
{
    if (desc->cls < 0 || desc->cls >= world_class_count(sim->w)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "class", "no class %d in %s", desc->cls, world_name(sim->w));
        return -1;
    }
    if (sim->bot_count >= SIM_MAX_BOTS) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "at most %d bots", SIM_MAX_BOTS);
        return -1;
    }
    const NavClass *c = world_class(sim->w, desc->cls);
    const NavFloor *f = world_floor_at(sim->w, desc->pos[0], desc->pos[1], desc->pos[2], c->step);
    if (!f || !isfinite(f->z)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "pos", "no floor to stand on at (%.2f, %.2f, %.2f)",
                      (double)desc->pos[0], (double)desc->pos[1], (double)desc->pos[2]);
        return -1;
    }
    if (!sim_track_reserve(sim, sim->bot_count + 1) || !sim_move_reserve(sim, sim->bot_count + 1) ||
        !reserve_boxes(sim, sim->bot_count + 1, sim->obstacle_count)) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
        return -1;
    }
    if (sim->bot_count == sim->bot_cap) {
        uint32_t cap = sim->bot_cap ? sim->bot_cap * 2 : 16;
        NavBot *nb = nav_realloc(sim->bots, cap * sizeof *nb);
        if (!nb) {
            nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
            return -1;
        }
        sim->bots = nb;
        sim->bot_cap = cap;
    }
    NavBot b;
    memset(&b, 0, sizeof b);
    b.id = sim->bot_count;
    b.cls = desc->cls;
    b.team = desc->team;
    b.yaw = desc->yaw;
    b.facing = desc->yaw;
    b.contact = -1;
    b.riding = -1;
    b.touching_teleporter = -1;
    b.arrival_time = -1.0;
    b.hold_depth = -1;
    b.jump_from_z = desc->pos[2];
    b.pos[0] = desc->pos[0];
    b.pos[1] = desc->pos[1];
    b.pos[2] = f->z;
    bool liquid =
        f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME;
    if (liquid && f->top - f->z > 0.5f * c->height) b.pos[2] = f->top - 0.5f * c->height;
    b.on_ground = !liquid;
    float mins[3], maxs[3];
    sim_bot_box(sim, &b, mins, maxs);
    if (!liquid && !world_box_fits(sim->w, mins, maxs, b.pos)) {
        /* On stepped ground the body stands on the highest floor under its
        ** box, not under its centre: try that one, within a step. */
        float top = b.pos[2];
        for (int k = 0; k < 4; k++) {
            float x = b.pos[0] + (k & 1 ? c->radius : -c->radius), y = b.pos[1] + (k & 2 ? c->radius : -c->radius);
            const NavFloor *cf = world_floor_at(sim->w, x, y, f->z + c->step, 0.0f);
            if (cf && cf->contents == NAV_CONTENTS_FLOOR && cf->z > top) top = cf->z;
        }
        float raised[3] = { b.pos[0], b.pos[1], top };
        if (top > b.pos[2] && world_box_fits(sim->w, mins, maxs, raised)) b.pos[2] = top;
    }
    if (!world_box_fits(sim->w, mins, maxs, b.pos)) {
        b.crouched = class_can_crouch(c);
        sim_bot_box(sim, &b, mins, maxs);
        if (!b.crouched || !world_box_fits(sim->w, mins, maxs, b.pos)) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "pos", "a %s does not fit at (%.2f, %.2f, %.2f)", c->name,
                          (double)b.pos[0], (double)b.pos[1], (double)b.pos[2]);
            return -1;
        }
    }
    sim->bots[sim->bot_count++] = b;
    /* A new bot is in no bucket until the next tick: it is "far". The
    ** bucket arrays grow with the bots' (not at every bot: copying them
    ** each time made adding n bots cost n^2). */
    SimBuckets *bk = &sim->buckets;
    if (bk->cap < sim->bot_cap) {
        uint32_t *far = nav_realloc(bk->far, sim->bot_cap * sizeof *far);
        uint32_t *order = nav_realloc(bk->order, sim->bot_cap * sizeof *order);
        uint32_t *slot = nav_realloc(bk->slot, sim->bot_cap * sizeof *slot);
        SimBucketBot *body = nav_realloc(bk->body, sim->bot_cap * sizeof *body);
        if (far) bk->far = far;
        if (order) bk->order = order;
        if (slot) bk->slot = slot;
        if (body) bk->body = body;
        if (!far || !order || !slot || !body) {
            sim->bot_count--;
            nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
            return -1;
        }
        bk->cap = sim->bot_cap;
    }
    bk->slot[b.id] = UINT32_MAX;
    bk->far[bk->far_count++] = b.id;
    return (int)b.id;
}

uint32_t sim_bot_count(const NavSim *sim) { return sim->bot_count; }
const NavBot *sim_bot(const NavSim *sim, uint32_t id) { return id < sim->bot_count ? &sim->bots[id] : NULL; }
NavBotControl *sim_bot_control(NavSim *sim, uint32_t id) { return id < sim->bot_count ? &sim->bots[id].control : NULL; }

/* Counting sort of the bots by bucket, at the start of a tick. */
static void rebuild_buckets(NavSim *sim)
{
    SimBuckets *bk = &sim->buckets;
    uint32_t nb = (uint32_t)(bk->w * bk->h);
    memset(bk->first, 0, ((size_t)nb + 1) * sizeof *bk->first);
    bk->far_count = 0;
    bk->slack = bk->rmax = bk->moved = 0.0f;
    if (!sim->bot_count) return;
    uint32_t *cellof = bk->far; /* scratch: bucket per bot (far is empty now) */
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        int x = (int)floorf(sim->bots[i].pos[0] / bk->cell), y = (int)floorf(sim->bots[i].pos[1] / bk->cell);
        x = x < 0 ? 0 : x >= bk->w ? bk->w - 1 : x;
        y = y < 0 ? 0 : y >= bk->h ? bk->h - 1 : y;
        cellof[i] = (uint32_t)(y * bk->w + x);
        bk->first[cellof[i] + 1]++;
    }
    for (uint32_t c = 0; c < nb; c++) bk->first[c + 1] += bk->first[c];
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        uint32_t k = bk->first[cellof[i]]++;
        bk->order[k] = i;
        bk->slot[i] = k;
    }
    for (uint32_t c = nb; c > 0; c--) bk->first[c] = bk->first[c - 1];
    bk->first[0] = 0;
    bk->bucketed = sim->bot_count;
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        SimBucketBot *e = &bk->body[bk->slot[i]];
        e->id = i;
        e->bx = sim->bots[i].pos[0];
        e->by = sim->bots[i].pos[1];
        sim_bucket_moved(sim, &sim->bots[i]);
    }
}

void sim_bucket_moved(NavSim *sim, const NavBot *b)
{
    SimBuckets *bk = &sim->buckets;
    if (b->id >= bk->bucketed || bk->slot[b->id] == UINT32_MAX) return;
    SimBucketBot *e = &bk->body[bk->slot[b->id]];
    float mins[3], maxs[3];
    sim_bot_box(sim, b, mins, maxs);
    e->x = b->pos[0];
    e->y = b->pos[1];
    e->z = b->pos[2];
    e->r = maxs[0];
    e->h = maxs[2];
    e->vx = b->vel[0];
    e->vy = b->vel[1];
    e->resp = b->id < sim->avoid_cap && sim->avoid[b->id].desc.on ? sim->avoid[b->id].desc.responsibility : 0.0f;
    if (e->r > bk->rmax) bk->rmax = e->r;
    /* Further than a bucket in a tick is a teleport, and those are in far. */
    float d = fmaxf(fabsf(e->x - e->bx), fabsf(e->y - e->by));
    if (d > bk->slack && d <= bk->cell) bk->slack = d;
    if (!(d <= bk->moved)) bk->moved = isnan(d) ? INFINITY : d;
}

/* }======= */

/* {======= traces ======= */

/* Room in the trace scratch for every box a trace can meet (each solid
** entity, obstacle and bot once), made when they are added, so that a
** tick never allocates and never drops a box. */
static bool reserve_boxes(NavSim *sim, size_t bots, size_t obstacles)
{
    size_t need = (size_t)sim->solid_count + bots + obstacles;
    if (need <= (size_t)sim->box_cap) return true;
    if (need > INT_MAX / 2) return false;
    int cap = sim->box_cap ? sim->box_cap : 64;
    while ((size_t)cap < need) cap *= 2;
    NavBox *b = nav_realloc(sim->boxes, (size_t)cap * sizeof *b);
    if (!b) return false;
    sim->boxes = b;
    uint32_t *o = nav_realloc(sim->box_owner, (size_t)cap * sizeof *o);
    if (!o) return false;
    sim->box_owner = o;
    sim->box_cap = cap;
    return true;
}

static bool push_box(NavSim *sim, int *n, const float mins[3], const float maxs[3], uint32_t owner)
{
    NAV_ASSERT(*n < sim->box_cap);
    if (*n >= sim->box_cap) return false;
    memcpy(sim->boxes[*n].mins, mins, sizeof(float) * 3);
    memcpy(sim->boxes[*n].maxs, maxs, sizeof(float) * 3);
    sim->box_owner[*n] = owner;
    (*n)++;
    return true;
}

static bool boxes_touch(const float alo[3], const float ahi[3], const float blo[3], const float bhi[3])
{
    for (int k = 0; k < 3; k++)
        if (alo[k] > bhi[k] || blo[k] > ahi[k]) return false;
    return true;
}

static void consider_bot(NavSim *sim, int *n, uint32_t id, int ignore_bot, const float lo[3], const float hi[3])
{
    if ((int)id == ignore_bot) return;
    float bmins[3], bmaxs[3];
    sim_world_box(sim, &sim->bots[id], sim->bots[id].pos, bmins, bmaxs);
    if (boxes_touch(lo, hi, bmins, bmaxs)) push_box(sim, n, bmins, bmaxs, (uint32_t)SIM_BOX_BOT << 24 | id);
}

/* The same from a bucket record (the body as it is now). */
static void consider_body(NavSim *sim, int *n, const SimBucketBot *e, int ignore_bot, const float lo[3],
                          const float hi[3])
{
    if ((int)e->id == ignore_bot) return;
    float bmins[3] = { e->x - e->r, e->y - e->r, e->z }, bmaxs[3] = { e->x + e->r, e->y + e->r, e->z + e->h };
    if (boxes_touch(lo, hi, bmins, bmaxs)) push_box(sim, n, bmins, bmaxs, (uint32_t)SIM_BOX_BOT << 24 | e->id);
}

/* A bucket coordinate (already floored) as an int, clamped to -1..n
** first: a sweep may reach any float (a script's trace of 1e15 m), and
** converting one past int's range is undefined. NaN gives -1. */
static int bucket_span(float v, int n)
{
    if (!(v >= 0.0f)) return -1;
    return v >= (float)n ? n : (int)v;
}

int sim_gather_boxes(NavSim *sim, const float mins[3], const float maxs[3], const float start[3], const float delta[3],
                     int ignore_bot)
{
    /* The swept bounds, grown a little. */
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        float a = start[k] + mins[k], b = start[k] + maxs[k];
        lo[k] = fminf(a, a + delta[k]) - 0.05f;
        hi[k] = fmaxf(b, b + delta[k]) + 0.05f;
    }
    int n = 0;
    for (int k = 0; k < sim->solid_count; k++) {
        int i = sim->solid[k];
        float emins[3], emaxs[3];
        if (sim_entity_box(sim, i, emins, emaxs) && boxes_touch(lo, hi, emins, emaxs))
            push_box(sim, &n, emins, emaxs, (uint32_t)SIM_BOX_ENTITY << 24 | (uint32_t)i);
    }
    for (uint32_t i = 0; i < sim->obstacle_count; i++)
        if (boxes_touch(lo, hi, sim->obstacles[i].mins, sim->obstacles[i].maxs))
            push_box(sim, &n, sim->obstacles[i].mins, sim->obstacles[i].maxs, (uint32_t)SIM_BOX_OBSTACLE << 24 | i);
    /* Bots: the buckets around the sweep (a bot's bucket is where it was
    ** at the start of the tick, so the slack: how far any has moved since,
    ** and its centre: the widest half width), and the far ones. */
    SimBuckets *bk = &sim->buckets;
    float m = bk->slack + bk->rmax; /* buckets hold centres */
    int x0 = bucket_span(floorf((lo[0] - m) / bk->cell), bk->w),
        x1 = bucket_span(floorf((hi[0] + m) / bk->cell), bk->w);
    int y0 = bucket_span(floorf((lo[1] - m) / bk->cell), bk->h),
        y1 = bucket_span(floorf((hi[1] + m) / bk->cell), bk->h);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 >= bk->w ? bk->w - 1 : x1;
    y1 = y1 >= bk->h ? bk->h - 1 : y1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            uint32_t c = (uint32_t)(y * bk->w + x);
            for (uint32_t k = bk->first[c]; k < bk->first[c + 1]; k++)
                consider_body(sim, &n, &bk->body[k], ignore_bot, lo, hi);
        }
    for (uint32_t k = 0; k < bk->far_count; k++) consider_bot(sim, &n, bk->far[k], ignore_bot, lo, hi);
    return n;
}

void sim_trace(const NavSim *csim, const float mins[3], const float maxs[3], const float start[3], const float delta[3],
               int ignore_bot, NavTrace *out)
{
    NavSim *sim = (NavSim *)csim; /* the scratch lists are not state */
    int n = sim_gather_boxes(sim, mins, maxs, start, delta, ignore_bot);
    world_trace_box(sim->w, mins, maxs, start, delta, sim->boxes, n, -1, out);
    if (out->box >= 0) out->box = (int)sim->box_owner[out->box]; /* kind << 24 | index */
}

/* }======= */

/* {======= entities ======= */

const NavEntityState *sim_entity(const NavSim *sim, int index)
{
    return index >= 0 && index < sim->ent_count ? &sim->ent[index] : NULL;
}

bool sim_entity_box(const NavSim *sim, int index, float mins[3], float maxs[3])
{
    if (index < 0 || index >= sim->ent_count) return false;
    const NavEntity *e = world_entity(sim->w, index);
    const NavEntityState *s = &sim->ent[index];
    switch (e->type) {
    case NAV_ENTITY_ELEVATOR:
        mins[0] = e->mins[0], mins[1] = e->mins[1];
        maxs[0] = e->maxs[0], maxs[1] = e->maxs[1];
        maxs[2] = s->offset;
        mins[2] = s->offset - e->u.elevator.thickness;
        return true;
    case NAV_ENTITY_DOOR:
        for (int k = 0; k < 3; k++) {
            mins[k] = e->mins[k];
            maxs[k] = e->maxs[k];
        }
        mins[2] += s->offset;
        maxs[2] += s->offset;
        return true;
    case NAV_ENTITY_CRATE: {
        vec3 o;
        entity_origin(e, o);
        for (int k = 0; k < 3; k++) {
            mins[k] = e->mins[k] - o[k] + s->pos[k];
            maxs[k] = e->maxs[k] - o[k] + s->pos[k];
        }
        return true;
    }
    default: return false;
    }
}

static float box_gap_xy(const float alo[3], const float ahi[3], const float blo[3], const float bhi[3])
{
    float dx = fmaxf(0.0f, fmaxf(alo[0] - bhi[0], blo[0] - ahi[0]));
    float dy = fmaxf(0.0f, fmaxf(alo[1] - bhi[1], blo[1] - ahi[1]));
    return sqrtf(dx * dx + dy * dy);
}

/* Does any bot overlap the box (a door closing on it, a platform)? */
static bool bots_in_box(const NavSim *sim, const float lo[3], const float hi[3], float reach)
{
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        float bl[3], bh[3];
        sim_world_box(sim, &sim->bots[i], sim->bots[i].pos, bl, bh);
        if (bl[2] < hi[2] && bh[2] > lo[2] && box_gap_xy(lo, hi, bl, bh) <= reach) return true;
    }
    return false;
}

static void update_elevator(NavSim *sim, int i)
{
    const NavElevator *el = &world_entity(sim->w, i)->u.elevator;
    NavEntityState *s = &sim->ent[i];
    float dt = sim->dt;
    if (s->held) return; /* sim_elevator_hold */
    if (s->phase == 0) {
        /* Waiting; `use` by a rider (sim_move.c sets timer to 0) leaves early. */
        s->timer -= dt;
        if (s->timer > 0.0f) return;
        int next = s->stop + s->dir;
        if (next < 0 || next >= el->stop_count) {
            s->dir = -s->dir;
            next = s->stop + s->dir;
        }
        s->stop = next;
        s->phase = el->stops[next] > s->offset ? 1 : -1;
        return;
    }
    float target = el->stops[s->stop];
    float dz = (float)s->phase * el->speed * dt;
    if ((s->phase > 0 && s->offset + dz >= target) || (s->phase < 0 && s->offset + dz <= target)) {
        dz = target - s->offset;
        s->phase = 0;
        s->timer = el->wait;
    }
    /* Riders rise with the platform before it moves (so it does not push
    ** into them), and sink after it. */
    if (dz > 0.0f) {
        float carried = sim_carry_riders(sim, i, dz);
        if (carried < dz) {
            dz = carried;
            s->phase = 1; /* blocked: still on the way */
        }
    }
    s->offset += dz;
    if (dz < 0.0f) sim_carry_riders(sim, i, dz);
}

float sim_elevator_eta(const NavSim *sim, int index, int stop)
{
    if (index < 0 || index >= sim->ent_count || world_entity(sim->w, index)->type != NAV_ENTITY_ELEVATOR)
        return INFINITY;
    const NavElevator *el = &world_entity(sim->w, index)->u.elevator;
    const NavEntityState *s = &sim->ent[index];
    if (stop < 0 || stop >= el->stop_count) return INFINITY;
    if (s->phase == 0 && s->stop == stop) return 0.0f;
    if (s->held || el->speed <= 0.0f) return INFINITY;
    /* The cycle update_elevator runs, with nobody pressing use: wait out
    ** the timer, go to the next stop (turning at the ends; the tick it
    ** turns to go is spent standing), wait there. */
    int at = s->stop, dir = s->dir;
    float t = 0.0f, z = s->offset;
    if (s->phase == 0) t += fmaxf(s->timer, 0.0f);
    for (int legs = 0; legs <= 2 * el->stop_count; legs++) {
        if (legs > 0 || s->phase == 0) {
            int next = at + dir;
            if (next < 0 || next >= el->stop_count) {
                dir = -dir;
                next = at + dir;
            }
            if (next < 0 || next >= el->stop_count) return INFINITY; /* a single stop */
            at = next;
            t += sim->dt;
        }
        t += fabsf(el->stops[at] - z) / el->speed;
        z = el->stops[at];
        if (at == stop) return t;
        t += el->wait;
    }
    return INFINITY;
}

static void update_door(NavSim *sim, int i)
{
    const NavEntity *e = world_entity(sim->w, i);
    NavEntityState *s = &sim->ent[i];
    float height = e->maxs[2] - e->mins[2], dt = sim->dt;
    float lo[3], hi[3];
    sim_entity_box(sim, i, lo, hi);
    float closed_lo[3] = { e->mins[0], e->mins[1], e->mins[2] }, closed_hi[3] = { e->maxs[0], e->maxs[1], e->maxs[2] };
    bool near = !s->locked && bots_in_box(sim, closed_lo, closed_hi, DOOR_REACH);
    if (near) s->timer = DOOR_HOLD;
    else if (s->timer > 0.0f) s->timer -= dt;
    bool want_open = !s->locked && (near || s->timer > 0.0f);
    float step = e->u.door.speed * dt;
    if (want_open) {
        s->offset = fminf(height, s->offset + step);
    } else if (s->offset > 0.0f) {
        /* Close, but never onto a bot standing in the doorway. */
        float next = fmaxf(0.0f, s->offset - step);
        float nlo[3] = { closed_lo[0], closed_lo[1], closed_lo[2] + next };
        float nhi[3] = { closed_hi[0], closed_hi[1], closed_hi[2] + next };
        if (!bots_in_box(sim, nlo, nhi, 0.0f)) s->offset = next;
    }
    s->phase = s->offset >= height ? 1 : s->offset <= 0.0f ? 0 : (want_open ? 1 : -1) * 2;
}

bool sim_door_set(NavSim *sim, int index, bool open, bool locked)
{
    if (index < 0 || index >= sim->ent_count || world_entity(sim->w, index)->type != NAV_ENTITY_DOOR) return false;
    NavEntityState *s = &sim->ent[index];
    const NavEntity *e = world_entity(sim->w, index);
    /* A locked door is an obstacle for routing; unlocking lifts it. */
    if (locked && !s->obstacle) {
        float lo[3] = { e->mins[0], e->mins[1], e->mins[2] }, hi[3] = { e->maxs[0], e->maxs[1], e->maxs[2] };
        s->obstacle = sim_add_obstacle(sim, lo, hi);
        if (!s->obstacle) return false; /* out of memory: the door stays as it was */
    } else if (!locked && s->obstacle) {
        sim_remove_obstacle(sim, s->obstacle);
        s->obstacle = 0;
    }
    s->locked = locked;
    s->timer = open && !locked ? DOOR_HOLD : 0.0f;
    return true;
}

static void update_entities(NavSim *sim)
{
    for (int i = 0; i < sim->ent_count; i++) {
        switch (world_entity(sim->w, i)->type) {
        case NAV_ENTITY_ELEVATOR: update_elevator(sim, i); break;
        case NAV_ENTITY_DOOR: update_door(sim, i); break;
        default: break;
        }
    }
}

/* }======= */

/* {======= obstacles ======= */

uint32_t sim_add_obstacle(NavSim *sim, const float mins[3], const float maxs[3])
{
    if (!reserve_boxes(sim, sim->bot_count, (size_t)sim->obstacle_count + 1)) return 0;
    if (sim->obstacle_count == sim->obstacle_cap) {
        uint32_t cap = sim->obstacle_cap ? sim->obstacle_cap * 2 : 8;
        SimObstacle *o = nav_realloc(sim->obstacles, cap * sizeof *o);
        if (!o) return 0;
        sim->obstacles = o;
        sim->obstacle_cap = cap;
    }
    /* Every router and the grid take it, or none does: a router that
    ** missed it would route through it. */
    SimObstacle o;
    memset(&o, 0, sizeof o);
    o.id = sim->next_obstacle + 1;
    memcpy(o.mins, mins, sizeof o.mins);
    memcpy(o.maxs, maxs, sizeof o.maxs);
    for (int c = 0; c < NAV_MAX_CLASSES; c++)
        if (sim->router[c] && !(o.route_ids[c] = router_add_obstacle(sim->router[c], mins, maxs))) goto undo;
    if (!sim_grid_obstacle_added(sim, o.id, mins, maxs)) goto undo;
    sim->next_obstacle = o.id;
    sim->obstacles[sim->obstacle_count++] = o;
    sim->world_changes++;
    return o.id;
undo:
    for (int c = 0; c < NAV_MAX_CLASSES; c++)
        if (o.route_ids[c]) router_remove_obstacle(sim->router[c], o.route_ids[c]);
    return 0;
}

bool sim_remove_obstacle(NavSim *sim, uint32_t id)
{
    for (uint32_t i = 0; i < sim->obstacle_count; i++) {
        SimObstacle *o = &sim->obstacles[i];
        if (o->id != id) continue;
        for (int c = 0; c < NAV_MAX_CLASSES; c++)
            if (sim->router[c] && o->route_ids[c]) router_remove_obstacle(sim->router[c], o->route_ids[c]);
        sim_grid_obstacle_removed(sim, id);
        sim->world_changes++;
        /* Keep the order (traces report obstacles by index). */
        memmove(o, o + 1, (size_t)(sim->obstacle_count - i - 1) * sizeof *o);
        sim->obstacle_count--;
        return true;
    }
    return false;
}

uint32_t sim_obstacle_count(const NavSim *sim) { return sim->obstacle_count; }

bool sim_obstacle_at(const NavSim *sim, uint32_t index, uint32_t *id, float mins[3], float maxs[3])
{
    if (index >= sim->obstacle_count) return false;
    const SimObstacle *o = &sim->obstacles[index];
    *id = o->id;
    memcpy(mins, o->mins, sizeof o->mins);
    memcpy(maxs, o->maxs, sizeof o->maxs);
    return true;
}

/* }======= */

/* {======= the tick ======= */

static void fold(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        *h ^= b[i];
        *h *= 1099511628211ull;
    }
}


void sim_step(NavSim *sim)
{
    rebuild_buckets(sim);
    update_entities(sim);
    sim_goals_before_move(sim);
    sim_formation_pass(sim);
    sim_unit_pass(sim);
    sim_avoid_pass(sim);
    for (uint32_t i = 0; i < sim->bot_count; i++) sim->bots[i].contact = -1;
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        if (sim->bots[i].fell) continue;
        sim_move_bot(sim, &sim->bots[i]);
        sim_bucket_moved(sim, &sim->bots[i]);
        sim_face_bot(sim, &sim->bots[i]);
    }
    sim->tick++;
    sim_goals_after_move(sim);
    sim_learn_pass(sim);
    /* The trace hash: every bot's body state, bit for bit. */
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        const NavBot *b = &sim->bots[i];
        fold(&sim->hash, b->pos, sizeof b->pos);
        fold(&sim->hash, b->vel, sizeof b->vel);
        uint8_t flags = (uint8_t)(b->on_ground | b->in_water << 1 | b->on_ladder << 2 | b->crouched << 3 |
                                  b->climbing << 4 | b->airborne_pad << 5);
        fold(&sim->hash, &flags, 1);
    }
}

uint64_t sim_tick(const NavSim *sim) { return sim->tick; }
double sim_time(const NavSim *sim) { return (double)sim->tick / sim->hz; }
float sim_dt(const NavSim *sim) { return sim->dt; }
uint64_t sim_trace_hash(const NavSim *sim) { return sim->hash; }
uint64_t sim_random(NavSim *sim) { return nav_rand_next(&sim->rng); }

/* }======= */

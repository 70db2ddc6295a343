/*
** run_trace_pose.c — the record's index and replaying it (run_trace.h):
** a simulation with the record's bots, posed at any frame from the key
** before it rather than from the start.
*/
#include "script/run_trace_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= routes and intents ======= */

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

RunTraceRoute *run_trace_route_new(int link_count, int path_count)
{
    size_t links = align_up(sizeof(RunTraceRoute), _Alignof(uint32_t));
    size_t path = align_up(links + (size_t)link_count * sizeof(uint32_t), _Alignof(float));
    RunTraceRoute *r = nav_calloc(1, path + (size_t)path_count * 3 * sizeof(float));
    if (!r) return NULL;
    r->link_count = link_count;
    r->path_count = path_count;
    r->links = (uint32_t *)((char *)r + links);
    r->path = (float(*)[3])((char *)r + path);
    return r;
}

RunTraceIntent *run_trace_intent_new(int req_count, int trace_count)
{
    size_t req = align_up(sizeof(RunTraceIntent), _Alignof(SimShowRequest));
    size_t traces = align_up(req + (size_t)req_count * sizeof(SimShowRequest), _Alignof(SimShowTrace));
    RunTraceIntent *in = nav_calloc(1, traces + (size_t)trace_count * sizeof(SimShowTrace));
    if (!in) return NULL;
    in->req_count = req_count;
    in->trace_count = trace_count;
    in->req = (SimShowRequest *)((char *)in + req);
    in->traces = (SimShowTrace *)((char *)in + traces);
    return in;
}

/* }======= */

/* {======= the index ======= */

/* Which change is in force, as event indices: per bot its latest say,
** goals and route; the latest state of each entity seen; the obstacles
** present (their + events); the drawings since the last "marks -". */
enum { SLOT_SAY, SLOT_GOAL, SLOT_ROUTE, SLOTS };
#define NONE UINT32_MAX

typedef struct IdxList {
    uint32_t *v;
    uint32_t n, cap;
} IdxList;

struct RunTraceKey {
    uint32_t *slots; /* bot_count * SLOTS */
    IdxList ents, obs, marks;
};
typedef struct RunTraceKey State;

static bool push(IdxList *l, uint32_t v)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        uint32_t *nv = nav_realloc(l->v, cap * sizeof *nv);
        if (!nv) return false;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = v;
    return true;
}

/* The first entry whose event has this kind and id, or l->n. */
static uint32_t find(const RunTrace *t, const IdxList *l, RunTraceEventKind kind, uint32_t id)
{
    for (uint32_t k = 0; k < l->n; k++)
        if (t->events[l->v[k]].kind == kind && t->events[l->v[k]].id == id) return k;
    return l->n;
}

static void drop(IdxList *l, uint32_t k)
{
    if (k < l->n) memmove(l->v + k, l->v + k + 1, (l->n - k - 1) * sizeof l->v[0]);
    if (k < l->n) l->n--;
}

static bool apply(const RunTrace *t, State *s, uint32_t i)
{
    const RunTraceEvent *ev = &t->events[i];
    uint32_t k;
    switch (ev->kind) {
    case RUN_TRACE_SAY: s->slots[ev->id * SLOTS + SLOT_SAY] = i; return true;
    case RUN_TRACE_GOAL: s->slots[ev->id * SLOTS + SLOT_GOAL] = i; return true;
    case RUN_TRACE_ROUTE: s->slots[ev->id * SLOTS + SLOT_ROUTE] = i; return true;
    case RUN_TRACE_ENTITY:
        k = find(t, &s->ents, RUN_TRACE_ENTITY, ev->id);
        if (k < s->ents.n) {
            s->ents.v[k] = i;
            return true;
        }
        return push(&s->ents, i);
    case RUN_TRACE_OBSTACLE_ADD:
        drop(&s->obs, find(t, &s->obs, RUN_TRACE_OBSTACLE_ADD, ev->id));
        return push(&s->obs, i);
    case RUN_TRACE_OBSTACLE_REMOVE: drop(&s->obs, find(t, &s->obs, RUN_TRACE_OBSTACLE_ADD, ev->id)); return true;
    case RUN_TRACE_MARK: return push(&s->marks, i);
    case RUN_TRACE_MARKS_CLEAR: s->marks.n = 0; return true;
    default: return true; /* faults are in the bodies' flags; intents last one frame */
    }
}

/* Drawings past their time at `now` stay past it: a key need not keep them. */
static void prune_marks(const RunTrace *t, State *s, double now)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < s->marks.n; j++) {
        const SimMark *m = t->events[s->marks.v[j]].data;
        if (m->until + 1e-9 >= now) s->marks.v[k++] = s->marks.v[j];
    }
    s->marks.n = k;
}

static bool copy_list(IdxList *dst, const IdxList *src)
{
    memset(dst, 0, sizeof *dst);
    if (!src->n) return true;
    if (!(dst->v = nav_malloc(src->n * sizeof dst->v[0]))) return false;
    memcpy(dst->v, src->v, src->n * sizeof dst->v[0]);
    dst->n = dst->cap = src->n;
    return true;
}

static void state_free(State *s)
{
    nav_free(s->slots);
    nav_free(s->ents.v);
    nav_free(s->obs.v);
    nav_free(s->marks.v);
    memset(s, 0, sizeof *s);
}

static bool state_copy(State *dst, const State *src, uint32_t bots)
{
    memset(dst, 0, sizeof *dst);
    size_t n = (size_t)bots * SLOTS;
    if (!(dst->slots = nav_malloc((n + 1) * sizeof dst->slots[0]))) return false;
    memcpy(dst->slots, src->slots, n * sizeof dst->slots[0]);
    if (!copy_list(&dst->ents, &src->ents) || !copy_list(&dst->obs, &src->obs) ||
        !copy_list(&dst->marks, &src->marks)) {
        state_free(dst);
        return false;
    }
    return true;
}

static double frame_time(const RunTrace *t, uint32_t frame) { return (double)t->frames[frame].tick / t->hz; }

bool run_trace_index(RunTrace *t, const char *path, NavError *err)
{
    t->frame_event = nav_malloc(((size_t)t->frame_count + 1) * sizeof t->frame_event[0]);
    t->key_count = (t->frame_count + RUN_TRACE_KEY_EVERY - 1) / RUN_TRACE_KEY_EVERY;
    t->keys = nav_calloc(t->key_count, sizeof t->keys[0]);
    State s;
    memset(&s, 0, sizeof s);
    size_t slots = (size_t)t->bot_count * SLOTS;
    s.slots = nav_malloc((slots + 1) * sizeof s.slots[0]);
    bool ok = t->frame_event && t->keys && s.slots;
    if (ok) memset(s.slots, 0xff, slots * sizeof s.slots[0]); /* NONE */
    uint32_t e = 0;
    for (uint32_t f = 0; ok && f < t->frame_count; f++) {
        if (f % RUN_TRACE_KEY_EVERY == 0) {
            prune_marks(t, &s, frame_time(t, f));
            ok = state_copy(&t->keys[f / RUN_TRACE_KEY_EVERY], &s, t->bot_count);
        }
        t->frame_event[f] = e;
        for (; ok && e < t->event_count && t->events[e].frame == f; e++) ok = apply(t, &s, e);
    }
    if (ok) t->frame_event[t->frame_count] = e;
    state_free(&s);
    if (!ok) nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory indexing the run trace");
    return ok;
}

void run_trace_index_free(RunTrace *t)
{
    for (uint32_t k = 0; t->keys && k < t->key_count; k++) state_free(&t->keys[k]);
    nav_free(t->keys);
    nav_free(t->frame_event);
    t->keys = NULL;
    t->frame_event = NULL;
}

/* }======= */

/* {======= replaying ======= */

NavSim *run_trace_sim(const RunTrace *t, const NavWorld *w, NavError *err)
{
    NavSim *sim = sim_create(w, &(NavSimDesc){ .tick_hz = t->hz, .seed = t->seed }, err);
    if (!sim) return NULL;
    /* Routes, intents and drawings are posed into what the window draws
    ** of a live run. */
    sim_show_enable(sim, true);
    for (uint32_t id = 0; id < t->bot_count; id++) {
        int cls = world_find_class(w, t->bot_info[id].cls);
        if (cls < 0) {
            nav_error_set(err, NAV_E_FORMAT, t->map, 0, 0, "bot", "bot %u's class '%s' is not in the map", id,
                          t->bot_info[id].cls);
            sim_destroy(sim);
            return NULL;
        }
        /* Where it first appears; a body starting in the air is placed on
        ** the floor below and posed in the air at once. */
        NavBotDesc d = { .cls = cls };
        bool found = false;
        for (uint32_t f = 0; f < t->frame_count && !found; f++) {
            const RunTraceFrame *fr = &t->frames[f];
            for (uint32_t k = 0; k < fr->count && !found; k++)
                if (t->bots[fr->first + k].id == id) {
                    memcpy(d.pos, t->bots[fr->first + k].pos, sizeof d.pos);
                    found = true;
                }
        }
        /* The floor under where it was recorded (up to half a metre above
        ** it, for a body recorded a hair below its floor); failing that
        ** the highest floor there. (world_floor_at's tolerance reaches up:
        ** a large one from the recorded height would take the roof over a
        ** body recorded under it.) Frames pose it where it was at once, so
        ** only a spot it fits at matters here. */
        const float recorded_z = d.pos[2];
        const float at[2] = { recorded_z, recorded_z + 1000.0f }, up[2] = { 0.5f, 2000.0f };
        int added = -1;
        for (int k = 0; k < 2 && added < 0; k++) {
            const NavFloor *fl = world_floor_at(w, d.pos[0], d.pos[1], at[k], up[k]);
            d.pos[2] = fl ? fl->z : recorded_z;
            added = sim_add_bot(sim, &d, err);
        }
        if (added < 0) {
            sim_destroy(sim);
            return NULL;
        }
    }
    return sim;
}

/* A bot's say, goals, route and this frame's intent, posed. */
static void pose_extras(const RunTrace *t, const State *s, uint32_t frame, uint32_t id, const RunTraceIntent *in,
                        NavSim *sim)
{
    const uint32_t *slot = &s->slots[id * SLOTS];
    NavBot b = *sim_bot(sim, id);
    const RunTraceEvent *say = slot[SLOT_SAY] != NONE ? &t->events[slot[SLOT_SAY]] : NULL;
    snprintf(b.say, sizeof b.say, "%s", say && say->text ? say->text : "");
    const RunTraceEvent *goal = slot[SLOT_GOAL] != NONE ? &t->events[slot[SLOT_GOAL]] : NULL;
    b.goal_count = goal && goal->data ? (int)goal->n : 0;
    if (b.goal_count) memcpy(b.goals, goal->data, (size_t)b.goal_count * sizeof b.goals[0]);
    b.facing = in && in->look ? in->facing : b.yaw;
    b.control.look = in && in->look;
    b.control.priority = in ? in->priority : 0;
    snprintf(b.control.reason, sizeof b.control.reason, "%s", in ? in->reason : "");
    sim_pose_bot(sim, id, &b);

    const RunTraceRoute *ro = slot[SLOT_ROUTE] != NONE ? t->events[slot[SLOT_ROUTE]].data : NULL;
    if (!ro && !in) {
        sim_pose_show(sim, id, NULL);
        return;
    }
    SimBotShow sh; /* only the counted parts are read (sim_pose_show) */
    sh.detour_count = sh.link_count = sh.path_count = sh.req_count = sh.trace_count = 0;
    /* A class the map lacks (a record of another map) shows no links. */
    sh.cls = ro && ro->cls < world_class_count(sim_world(sim)) ? ro->cls : b.cls;
    if (ro) {
        sh.link_count = ro->cls == sh.cls ? ro->link_count : 0;
        memcpy(sh.links, ro->links, (size_t)sh.link_count * sizeof sh.links[0]);
        sh.path_count = ro->path_count;
        sh.detour_count = ro->detour_count;
        memcpy(sh.path, ro->path, (size_t)ro->path_count * sizeof sh.path[0]);
    }
    /* The window draws requests and traces made in the tick before the
    ** one shown; any other tick hides them. */
    uint64_t tick = t->frames[frame].tick;
    sh.tick = in && tick > 0 ? tick - 1 : tick;
    if (in) {
        sh.req_count = in->req_count;
        memcpy(sh.req, in->req, (size_t)in->req_count * sizeof sh.req[0]);
        sh.trace_count = in->trace_count;
        memcpy(sh.traces, in->traces, (size_t)in->trace_count * sizeof sh.traces[0]);
    }
    sim_pose_show(sim, id, &sh);
}

static void pose(const RunTrace *t, uint32_t frame, NavSim *sim, bool from_start)
{
    if (frame >= t->frame_count) frame = t->frame_count - 1;
    const RunTraceFrame *fr = &t->frames[frame];
    sim_pose_clock(sim, fr->tick, fr->hash);
    uint32_t nb = sim_bot_count(sim);
    for (uint32_t k = 0; k < fr->count; k++) {
        const RunTraceBot *rb = &t->bots[fr->first + k];
        if (rb->id >= nb) continue;
        NavBot b = *sim_bot(sim, rb->id);
        memcpy(b.pos, rb->pos, sizeof b.pos);
        memcpy(b.vel, rb->vel, sizeof b.vel);
        b.yaw = rb->yaw;
        b.on_ground = rb->flags & RUN_TRACE_GROUND;
        b.in_water = rb->flags & RUN_TRACE_WATER;
        b.on_ladder = rb->flags & RUN_TRACE_LADDER;
        b.crouched = rb->flags & RUN_TRACE_CROUCHED;
        b.climbing = rb->flags & RUN_TRACE_CLIMBING;
        b.riding = rb->flags & RUN_TRACE_RIDING ? 0 : -1;
        sim_pose_bot(sim, rb->id, &b);
    }
    /* The changes in force: the key before frame, then the frames since
    ** (at most RUN_TRACE_KEY_EVERY of them). */
    State s;
    uint32_t key = frame / RUN_TRACE_KEY_EVERY;
    if (!t->keys || key >= t->key_count) return;
    /* From the start: key 0 holds nothing yet (no change comes before the
    ** first frame's). */
    if (from_start) key = 0;
    if (!state_copy(&s, &t->keys[key], t->bot_count)) return;
    bool ok = true;
    for (uint32_t i = t->frame_event[key * RUN_TRACE_KEY_EVERY]; ok && i < t->frame_event[frame + 1]; i++)
        ok = apply(t, &s, i);
    if (!ok) {
        state_free(&s);
        return; /* out of memory: the bodies only */
    }
    /* This frame's intents by bot, so a crowd's are found in one pass. */
    uint32_t bots = nb < t->bot_count ? nb : t->bot_count;
    const RunTraceIntent **intent = nav_calloc((size_t)bots + 1, sizeof *intent);
    if (!intent) {
        state_free(&s);
        return;
    }
    for (uint32_t i = t->frame_event[frame]; i < t->frame_event[frame + 1]; i++)
        if (t->events[i].kind == RUN_TRACE_INTENT && t->events[i].id < bots)
            intent[t->events[i].id] = t->events[i].data;
    for (uint32_t id = 0; id < bots; id++) pose_extras(t, &s, frame, id, intent[id], sim);
    nav_free(intent);
    for (uint32_t k = 0; k < s.ents.n; k++) {
        const RunTraceEvent *ev = &t->events[s.ents.v[k]];
        float p[3] = { ev->v[2], ev->v[3], ev->v[4] };
        sim_pose_entity(sim, (int)ev->id, ev->v[0], (int)ev->v[1], p);
    }
    sim_marks_clear(sim);
    double now = frame_time(t, frame);
    for (uint32_t k = 0; k < s.marks.n; k++) {
        const SimMark *m = t->events[s.marks.v[k]].data;
        if (m->until + 1e-9 >= now) sim_pose_mark(sim, m);
    }
    /* Obstacles only when the set changed: each one costs the routers a
    ** cache flush. */
    bool same = sim_obstacle_count(sim) == s.obs.n;
    for (uint32_t k = 0; k < s.obs.n && same; k++) {
        bool found = false;
        for (uint32_t i = 0; i < s.obs.n && !found; i++) {
            uint32_t id;
            float mn[3], mx[3];
            found = sim_obstacle_at(sim, i, &id, mn, mx) && id == t->events[s.obs.v[k]].id;
        }
        same = found;
    }
    if (!same) {
        sim_pose_clear_obstacles(sim);
        for (uint32_t k = 0; k < s.obs.n; k++) {
            const RunTraceEvent *ev = &t->events[s.obs.v[k]];
            sim_pose_obstacle(sim, ev->id, ev->v, ev->v + 3);
        }
    }
    state_free(&s);
}

void run_trace_pose(const RunTrace *t, uint32_t frame, NavSim *sim) { pose(t, frame, sim, false); }

void run_trace_pose_from_start(const RunTrace *t, uint32_t frame, NavSim *sim) { pose(t, frame, sim, true); }

/* }======= */

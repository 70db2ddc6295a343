/*
** render_history.c — the last seconds of every bot, for trails and the
** panel's plots (render_history.h).
*/
#include "render/render_history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "area/area.h"
#include "core/alloc.h"
#include "route/route.h"
#include "script/bot_outcome.h"
#include "script/run_trace.h"
#include "script/session.h"
#include "sim/sim_debug.h"

/* A body moving this much farther in one tick than its speed carries it
** was put elsewhere (a teleporter), not moved there. */
#define TELEPORT_SLACK 2.0f
/* Slower than this a body is standing (a settling bump is not a move). */
#define MOVING_SPEED 0.2f
/* Stuck as the HUD counts it (render_hud.c, bot_counts). */
#define STUCK_SECONDS 1.0f

struct HistoryBot {
    HistorySample ring[RENDER_HISTORY_SAMPLES];
    int head, count; /* next write, samples held */
    bool seen;
    float last[3]; /* where the body was at the last tick recorded */
    uint64_t last_tick;
    int pending; /* the most telling travel type since the last sample, -1 none */
    bool teleported;
    int air; /* travel type of the spell in the air now, -1 on the ground */
    bool was_water;
    HistoryRoute routes[RENDER_HISTORY_ROUTES];
    int route_head, route_count;
    /* The last route shown (links, or a path's end), to tell a new choice
    ** from the same route with its first links behind the bot. */
    uint32_t links[SIM_SHOW_ROUTE];
    int link_count;
    float path_end[3];
    bool has_path;
};

struct RenderHistory {
    HistoryBot *bots;
    uint32_t count, cap;
    double dt;
    uint32_t every; /* ticks per sample */
};

/* What a sample is made of, from a live body or a recorded one. */
typedef struct Body {
    float pos[3], vel[3];
    bool ground, water, ladder, crouched, climbing, riding, pad, jumping;
    bool faulted, arrived, stuck, waiting;
} Body;

/* {======= states ======= */

const char *render_history_state_name(HistoryState s)
{
    static const char *NAMES[HISTORY_STATES] = { "faulted", "arrived", "stuck", "waiting", "moving", "idle" };
    return (unsigned)s < HISTORY_STATES ? NAMES[s] : "?";
}

NavColor render_history_state_color(HistoryState s)
{
    static const NavColor COLORS[HISTORY_STATES] = {
        { 230, 30, 30, 255 },   /* faulted: as a faulted body */
        { 70, 150, 255, 255 },  /* arrived */
        { 255, 120, 30, 255 },  /* stuck */
        { 240, 200, 40, 255 },  /* waiting */
        { 60, 200, 90, 255 },   /* moving */
        { 110, 114, 126, 255 }, /* idle */
    };
    return (unsigned)s < HISTORY_STATES ? COLORS[s] : nav_rgba(255, 255, 255, 255);
}

static HistoryState state_of(const Body *b)
{
    if (b->faulted) return HISTORY_FAULTED;
    if (b->arrived) return HISTORY_ARRIVED;
    if (b->stuck) return HISTORY_STUCK;
    if (b->waiting) return HISTORY_WAITING;
    return hypotf(b->vel[0], b->vel[1]) > MOVING_SPEED ? HISTORY_MOVING : HISTORY_IDLE;
}

/* }======= */

/* {======= life ======= */

RenderHistory *render_history_create(void) { return nav_calloc(1, sizeof(RenderHistory)); }

void render_history_destroy(RenderHistory *h)
{
    if (!h) return;
    nav_free(h->bots);
    nav_free(h);
}

void render_history_clear(RenderHistory *h)
{
    if (!h || !h->count) return;
    memset(h->bots, 0, (size_t)h->count * sizeof *h->bots);
    h->count = 0;
}

static void set_rate(RenderHistory *h, double dt)
{
    if (dt <= 0.0 || dt == h->dt) return;
    h->dt = dt;
    long every = lround(RENDER_HISTORY_SECONDS / (RENDER_HISTORY_SAMPLES * dt));
    h->every = every < 1 ? 1u : (uint32_t)every;
}

/* Room for bots 0 .. n - 1 (new ones zeroed); false when out of memory. */
static bool reserve(RenderHistory *h, uint32_t n)
{
    if (n > h->cap) {
        uint32_t cap = NAV_MAX(n, h->cap * 2u);
        HistoryBot *b = nav_realloc_array(h->bots, cap, sizeof *b);
        if (!b) return false;
        h->bots = b;
        h->cap = cap;
    }
    if (n > h->count) {
        memset(h->bots + h->count, 0, (size_t)(n - h->count) * sizeof *h->bots);
        h->count = n;
    }
    return true;
}

/* }======= */

/* {======= how a body moved ======= */

/* Which of two ways of moving says more about how the body got there. */
static int telling(int t)
{
    static const int8_t RANK[NAV_TRAVEL_COUNT] = {
        [NAV_TRAVEL_WALK] = 0,         [NAV_TRAVEL_CROUCH] = 1,    [NAV_TRAVEL_WALK_OFF_LEDGE] = 2,
        [NAV_TRAVEL_BARRIER_JUMP] = 3, [NAV_TRAVEL_JUMP] = 4,      [NAV_TRAVEL_WATER_JUMP] = 5,
        [NAV_TRAVEL_SWIM] = 6,         [NAV_TRAVEL_CLIMB] = 7,     [NAV_TRAVEL_LADDER] = 8,
        [NAV_TRAVEL_ELEVATOR] = 9,     [NAV_TRAVEL_JUMP_PAD] = 10, [NAV_TRAVEL_TELEPORT] = 11,
    };
    return t >= 0 && t < NAV_TRAVEL_COUNT ? RANK[t] : -1;
}

/* This tick's way of moving; a spell in the air keeps the way it began. */
static int classify(HistoryBot *hb, const Body *b)
{
    bool water = hb->was_water;
    hb->was_water = b->water;
    if (b->riding) return hb->air = -1, NAV_TRAVEL_ELEVATOR;
    if (b->ladder) return hb->air = -1, NAV_TRAVEL_LADDER;
    if (b->climbing) return hb->air = -1, NAV_TRAVEL_CLIMB;
    if (b->water) return hb->air = -1, NAV_TRAVEL_SWIM;
    if (!b->ground) {
        if (b->pad) hb->air = NAV_TRAVEL_JUMP_PAD;
        else if (hb->air < 0)
            hb->air = water                            ? NAV_TRAVEL_WATER_JUMP
                      : b->jumping || b->vel[2] > 1.0f ? NAV_TRAVEL_JUMP
                                                       : NAV_TRAVEL_WALK_OFF_LEDGE;
        return hb->air;
    }
    hb->air = -1;
    return b->crouched ? NAV_TRAVEL_CROUCH : NAV_TRAVEL_WALK;
}

static void push_sample(HistoryBot *hb, uint64_t tick, const Body *b)
{
    HistorySample *s = &hb->ring[hb->head];
    s->tick = tick;
    memcpy(s->pos, b->pos, sizeof s->pos);
    s->speed = hypotf(b->vel[0], b->vel[1]);
    s->travel = (uint8_t)(hb->pending >= 0 ? hb->pending : NAV_TRAVEL_WALK);
    s->state = (uint8_t)state_of(b);
    s->flags = hb->teleported ? HISTORY_TELEPORTED : 0;
    hb->head = (hb->head + 1) % RENDER_HISTORY_SAMPLES;
    if (hb->count < RENDER_HISTORY_SAMPLES) hb->count++;
    hb->pending = -1;
    hb->teleported = false;
}

static void feed(RenderHistory *h, HistoryBot *hb, uint64_t tick, const Body *b)
{
    int t = classify(hb, b);
    if (hb->seen && tick > hb->last_tick) {
        float dx = b->pos[0] - hb->last[0], dy = b->pos[1] - hb->last[1], dz = b->pos[2] - hb->last[2];
        float v = sqrtf(b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1] + b->vel[2] * b->vel[2]);
        float reach = TELEPORT_SLACK + 2.0f * v * (float)(h->dt * (double)(tick - hb->last_tick));
        if (dx * dx + dy * dy + dz * dz > reach * reach) {
            hb->teleported = true;
            t = NAV_TRAVEL_TELEPORT;
        }
    }
    if (telling(t) > telling(hb->pending)) hb->pending = t;
    bool first = !hb->seen;
    hb->seen = true;
    memcpy(hb->last, b->pos, sizeof hb->last);
    hb->last_tick = tick;
    if (first || tick % h->every == 0) push_sample(hb, tick, b);
}

/* }======= */

/* {======= route choices ======= */

static void add_route(HistoryBot *hb, uint64_t tick, const char *text)
{
    HistoryRoute *r = &hb->routes[hb->route_head];
    r->tick = tick;
    nav_copy_text(r->text, sizeof r->text, text); /* cut to fit, as the panel cuts it anyway */
    hb->route_head = (hb->route_head + 1) % RENDER_HISTORY_ROUTES;
    if (hb->route_count < RENDER_HISTORY_ROUTES) hb->route_count++;
}

/* The same route as before with its first links behind the bot: the new
** links are the old ones' tail. */
static bool same_route(const HistoryBot *hb, const SimBotShow *sh)
{
    int k = hb->link_count - sh->link_count;
    if (k < 0) return false;
    return memcmp(hb->links + k, sh->links, (size_t)sh->link_count * sizeof sh->links[0]) == 0;
}

/* A route shown (sh), chosen for `why`: a new choice when it is not the
** one before (routers from sim name the kinds of travel on it). */
static void note_route(HistoryBot *hb, NavSim *sim, const SimBotShow *sh, const char *why, uint64_t tick)
{
    char text[128];
    if (sh->path_count > 0) {
        const float *end = sh->path[sh->path_count - 1];
        if (hb->has_path && hypotf(end[0] - hb->path_end[0], end[1] - hb->path_end[1]) < 1.0f) return;
        memcpy(hb->path_end, end, sizeof hb->path_end);
        hb->has_path = true;
        hb->link_count = 0;
        snprintf(text, sizeof text, "%s: path of %d points to %.0f,%.0f", why, sh->path_count, (double)end[0],
                 (double)end[1]);
        add_route(hb, tick, text);
        return;
    }
    if (sh->link_count <= 0 || same_route(hb, sh)) return;
    memcpy(hb->links, sh->links, (size_t)sh->link_count * sizeof sh->links[0]);
    hb->link_count = sh->link_count;
    hb->has_path = false;
    NavError err;
    nav_error_clear(&err);
    NavRouter *router =
        sim && sh->cls >= 0 && sh->cls < world_class_count(sim_world(sim)) ? sim_router(sim, sh->cls, &err) : NULL;
    const NavAreaGraph *ag = router ? router_graph(router) : NULL;
    /* The kinds of travel on it besides walking, in route order. */
    uint32_t seen = 0;
    char kinds[64] = "";
    size_t n = 0;
    float end[3] = { 0 };
    for (int i = 0; ag && i < sh->link_count; i++) {
        if (sh->links[i] >= area_reach_count(ag)) break;
        const NavReach *re = area_reach(ag, sh->links[i]);
        memcpy(end, re->end, sizeof end);
        if (re->type == NAV_TRAVEL_WALK || (seen & NAV_TFL_TYPE(re->type)) || n >= sizeof kinds) continue;
        seen |= NAV_TFL_TYPE(re->type);
        n += (size_t)snprintf(kinds + n, sizeof kinds - n, "%s%s", n ? ", " : "",
                              area_travel_name((NavTravelType)re->type));
    }
    snprintf(text, sizeof text, "%s: %d link%s%s%s%s to %.0f,%.0f", why, sh->link_count, sh->link_count == 1 ? "" : "s",
             n ? " (" : "", kinds, n ? ")" : "", (double)end[0], (double)end[1]);
    add_route(hb, tick, text);
}

static void route_choice(HistoryBot *hb, NavSim *sim, uint32_t id, uint64_t tick)
{
    const SimBotShow *sh = sim_show_peek(sim, id);
    if (!sh) return;
    const NavBot *b = sim_bot(sim, id);
    note_route(hb, sim, sh, b->control.reason[0] ? b->control.reason : "route", tick);
}

/* }======= */

/* {======= recording ======= */

static bool faulted_in(const RenderInfo *info, uint32_t id)
{
    if (info && info->session) return session_bot_faulted(info->session, id);
    const RunTrace *t = info ? info->trace : NULL;
    if (!t || info->frame >= t->frame_count) return false;
    const RunTraceFrame *fr = &t->frames[info->frame];
    for (uint32_t k = 0; k < fr->count; k++)
        if (t->bots[fr->first + k].id == id) return (t->bots[fr->first + k].flags & RUN_TRACE_FAULTED) != 0;
    return false;
}

void render_history_record(RenderHistory *h, NavSim *sim, const RenderInfo *info)
{
    if (!h) return;
    set_rate(h, sim_dt(sim));
    uint32_t n = sim_bot_count(sim);
    if (!reserve(h, n)) n = h->count;
    uint64_t tick = sim_tick(sim);
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *nb = sim_bot(sim, i);
        bool player = info && info->has_player && info->player == i;
        Body b = {
            .ground = nb->on_ground,
            .water = nb->in_water,
            .ladder = nb->on_ladder,
            .crouched = nb->crouched,
            .climbing = nb->climbing,
            .riding = nb->riding >= 0,
            .pad = nb->airborne_pad,
            .jumping = nb->jumping,
            .faulted = faulted_in(info, i),
            .arrived = bot_outcome(sim, i, player) == BOT_OUTCOME_ARRIVED,
            .stuck = nb->stuck_time > STUCK_SECONDS,
            .waiting = sim_bot_waiting(sim, i),
        };
        memcpy(b.pos, nb->pos, sizeof b.pos);
        memcpy(b.vel, nb->vel, sizeof b.vel);
        feed(h, &h->bots[i], tick, &b);
        route_choice(&h->bots[i], sim, i, tick);
    }
}

/* The record's route changes in frames [from, to], as a live run notes
** them tick by tick (the reason: that frame's intent, if any). */
static void replay_routes(RenderHistory *h, const RunTrace *t, NavSim *sim, uint32_t from, uint32_t to)
{
    SimBotShow sh;
    for (uint32_t i = t->frame_event[from]; i < t->frame_event[to + 1]; i++) {
        const RunTraceEvent *ev = &t->events[i];
        const RunTraceRoute *ro = ev->data;
        if (ev->kind != RUN_TRACE_ROUTE || !ro || !reserve(h, ev->id + 1)) continue;
        const char *why = "route";
        for (uint32_t k = t->frame_event[ev->frame]; k < t->frame_event[ev->frame + 1]; k++) {
            const RunTraceIntent *in = t->events[k].data;
            if (t->events[k].kind == RUN_TRACE_INTENT && t->events[k].id == ev->id && in->reason[0]) why = in->reason;
        }
        sh.cls = ro->cls;
        sh.link_count = ro->link_count;
        sh.path_count = ro->path_count;
        memcpy(sh.links, ro->links, (size_t)ro->link_count * sizeof sh.links[0]);
        memcpy(sh.path, ro->path, (size_t)ro->path_count * sizeof sh.path[0]);
        note_route(&h->bots[ev->id], sim, &sh, why, t->frames[ev->frame].tick);
    }
}

void render_history_replay(RenderHistory *h, const RunTrace *t, uint32_t frame, NavSim *sim)
{
    if (!h || !t || t->frame_count == 0) return;
    render_history_clear(h);
    set_rate(h, t->hz > 0 ? 1.0 / t->hz : 1.0 / 30.0);
    if (frame >= t->frame_count) frame = t->frame_count - 1;
    uint32_t span = RENDER_HISTORY_SAMPLES * h->every + 1;
    uint32_t from = frame >= span ? frame - span : 0;
    for (uint32_t f = from; f <= frame; f++) {
        const RunTraceFrame *fr = &t->frames[f];
        for (uint32_t k = 0; k < fr->count; k++) {
            const RunTraceBot *rb = &t->bots[fr->first + k];
            if (!reserve(h, rb->id + 1)) continue;
            Body b = {
                .ground = rb->flags & RUN_TRACE_GROUND,
                .water = rb->flags & RUN_TRACE_WATER,
                .ladder = rb->flags & RUN_TRACE_LADDER,
                .crouched = rb->flags & RUN_TRACE_CROUCHED,
                .climbing = rb->flags & RUN_TRACE_CLIMBING,
                .riding = rb->flags & RUN_TRACE_RIDING,
                .faulted = rb->flags & RUN_TRACE_FAULTED,
            };
            memcpy(b.pos, rb->pos, sizeof b.pos);
            memcpy(b.vel, rb->vel, sizeof b.vel);
            feed(h, &h->bots[rb->id], fr->tick, &b);
        }
    }
    replay_routes(h, t, sim, from, frame);
}

/* }======= */

/* {======= reading ======= */

double render_history_dt(const RenderHistory *h) { return h ? h->dt : 0.0; }

int render_history_count(const RenderHistory *h, uint32_t id) { return h && id < h->count ? h->bots[id].count : 0; }

const HistorySample *render_history_sample(const RenderHistory *h, uint32_t id, int i)
{
    if (!h || id >= h->count || i < 0 || i >= h->bots[id].count) return NULL;
    const HistoryBot *hb = &h->bots[id];
    int at = (hb->head - hb->count + i + RENDER_HISTORY_SAMPLES) % RENDER_HISTORY_SAMPLES;
    return &hb->ring[at];
}

int render_history_route_count(const RenderHistory *h, uint32_t id)
{
    return h && id < h->count ? h->bots[id].route_count : 0;
}

const HistoryRoute *render_history_route(const RenderHistory *h, uint32_t id, int i)
{
    if (!h || id >= h->count || i < 0 || i >= h->bots[id].route_count) return NULL;
    const HistoryBot *hb = &h->bots[id];
    int at = (hb->route_head - hb->route_count + i + RENDER_HISTORY_ROUTES) % RENDER_HISTORY_ROUTES;
    return &hb->routes[at];
}

/* }======= */

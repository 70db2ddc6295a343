/*
** session_events.c — arrive, stuck, contact and fall events
** (session_events.h): per bot, what the last tick left, compared with
** what this one leaves.
*/
#include "script/session_events.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "script/nav_api_internal.h"

enum { EV_ARRIVE, EV_STUCK, EV_CONTACT, EV_FALL };
static const char *const EVENT_NAMES[] = { "arrive", "stuck", "contact", "fall" };

typedef struct Watch {
    int goals_reached;
    float head[4]; /* the head goal before the step */
    bool has_head;
    bool stuck;
    int32_t contact;
    bool airborne; /* off the ground without a jump, ladder, climb or lift */
    float takeoff[3];
} Watch;

typedef struct Event {
    uint32_t bot;
    int kind;
    float a[3], b[3]; /* arrive: the goal; fall: from, to; stuck: the goal */
    float value;      /* stuck: seconds; fall: height */
    int32_t other;    /* contact: the other bot; arrive: left; stuck: has goal */
    int32_t count;    /* arrive: reached */
} Event;

/* A link a learner learned (sim_learned), kept apart from the queue: how
** many come in a tick has no bound per bot. */
typedef struct Learned {
    uint32_t bot, link, by;
    int how;
    const NavAreaGraph *ag;
} Learned;

struct SessionEvents {
    Watch *watch;
    uint32_t watched, cap;
    Event *queue;
    uint32_t count, qcap;
    Learned *learned;
    uint32_t learned_count, learned_cap;
    uint64_t delivered;
};

SessionEvents *session_events_create(void) { return nav_calloc(1, sizeof(SessionEvents)); }

void session_events_destroy(SessionEvents *ev)
{
    if (!ev) return;
    nav_free(ev->learned);
    nav_free(ev->watch);
    nav_free(ev->queue);
    nav_free(ev);
}

uint64_t session_events_count(const SessionEvents *ev) { return ev->delivered; }

/* In the air by falling: not standing, swimming, on a ladder, climbing or
** riding, and not from a jump it made. */
static bool falling(const NavBot *b)
{
    return !b->on_ground && !b->in_water && !b->on_ladder && !b->climbing && b->riding < 0 && !b->jumping &&
           !b->airborne_pad;
}

static void take(Watch *w, const NavBot *b)
{
    w->goals_reached = b->goals_reached;
    w->has_head = b->goal_count > 0;
    if (w->has_head) memcpy(w->head, b->goals[0], sizeof w->head);
    w->stuck = b->stuck_time > 0.0f;
    w->contact = b->contact;
}

/* The most events one bot makes in a tick: an arrival per goal queued,
** one stuck, one contact, one fall. */
#define EVENTS_PER_BOT (SIM_MAX_GOALS + 3)

bool session_events_reserve(SessionEvents *ev, uint32_t bots)
{
    if (bots > ev->cap) {
        uint32_t cap = ev->cap ? ev->cap : 64;
        while (cap < bots) cap *= 2;
        Watch *w = nav_realloc_array(ev->watch, cap, sizeof *w);
        if (!w) return false;
        ev->watch = w;
        ev->cap = cap;
    }
    if ((uint64_t)bots * EVENTS_PER_BOT > ev->qcap) {
        uint32_t cap = ev->qcap ? ev->qcap : 64;
        while (cap < (uint64_t)bots * EVENTS_PER_BOT) cap *= 2;
        Event *q = nav_realloc_array(ev->queue, cap, sizeof *q);
        if (!q) return false;
        ev->queue = q;
        ev->qcap = cap;
    }
    return true;
}

bool session_events_prime(SessionEvents *ev, const NavSim *sim)
{
    uint32_t n = sim_bot_count(sim);
    if (n > ev->cap) return false;
    for (uint32_t i = ev->watched; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        Watch *w = &ev->watch[i];
        memset(w, 0, sizeof *w);
        take(w, b);
        w->airborne = falling(b);
        memcpy(w->takeoff, b->pos, sizeof w->takeoff);
    }
    ev->watched = n;
    /* The head goal as the brains left it: the one a step may reach. */
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        ev->watch[i].has_head = b->goal_count > 0;
        if (b->goal_count > 0) memcpy(ev->watch[i].head, b->goals[0], sizeof ev->watch[i].head);
    }
    return true;
}

static Event *push(SessionEvents *ev, uint32_t bot, int kind)
{
    NAV_ASSERT(ev->count < ev->qcap);
    if (ev->count == ev->qcap) return NULL;
    Event *e = &ev->queue[ev->count++];
    memset(e, 0, sizeof *e);
    e->bot = bot;
    e->kind = kind;
    return e;
}

bool session_events_detect(SessionEvents *ev, const NavSim *sim)
{
    bool ok = true;
    const NavWorld *world = sim_world(sim);
    for (uint32_t i = 0; i < ev->watched; i++) {
        const NavBot *b = sim_bot(sim, i);
        Watch *w = &ev->watch[i];
        Event *e;
        /* One per goal reached; the first is the head goal it had. */
        for (int k = w->goals_reached; k < b->goals_reached; k++) {
            if (!(e = push(ev, i, EV_ARRIVE))) {
                ok = false;
                break;
            }
            if (k == w->goals_reached && w->has_head) memcpy(e->a, w->head, sizeof e->a);
            else memcpy(e->a, b->held_goal, sizeof e->a);
            e->count = k + 1;
            e->other = b->goal_count;
        }
        bool stuck = b->stuck_time > 0.0f;
        if (stuck && !w->stuck && (e = push(ev, i, EV_STUCK))) {
            e->value = b->stuck_time;
            e->other = b->goal_count > 0;
            if (b->goal_count > 0) memcpy(e->a, b->goals[0], sizeof e->a);
        }
        if (b->contact >= 0 && b->contact != w->contact && (e = push(ev, i, EV_CONTACT))) e->other = b->contact;
        bool air = falling(b);
        if (air && !w->airborne) memcpy(w->takeoff, b->pos, sizeof w->takeoff);
        if (!air && w->airborne && !b->fell) {
            float drop = w->takeoff[2] - b->pos[2];
            if (drop > world_class(world, b->cls)->step && (e = push(ev, i, EV_FALL))) {
                e->value = drop;
                memcpy(e->a, w->takeoff, sizeof e->a);
                memcpy(e->b, b->pos, sizeof e->b);
            }
        }
        w->airborne = air;
        take(w, b);
    }
    uint32_t n;
    const SimLearnedLink *l = sim_learned(sim, &n);
    if (n > ev->learned_cap) {
        Learned *a = nav_realloc_array(ev->learned, n, sizeof *a);
        if (a) ev->learned = a, ev->learned_cap = n;
    }
    if (n > ev->learned_cap) ok = false, n = ev->learned_cap;
    ev->learned_count = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (l[i].bot >= ev->watched) continue;
        NavError err;
        const NavAreaGraph *ag = sim_graph((NavSim *)sim, sim_bot(sim, l[i].bot)->cls, &err);
        if (ag) ev->learned[ev->learned_count++] = (Learned){ l[i].bot, l[i].link, l[i].by, l[i].how, ag };
    }
    return ok;
}

static void push_learned(lua_State *L, void *user)
{
    const Learned *e = user;
    lua_createtable(L, 0, 4);
    nav_api_push_link(L, e->ag, e->link), lua_setfield(L, -2, "link");
    nav_api_push_bot(L, e->by), lua_setfield(L, -2, "by");
    lua_pushboolean(L, e->by == e->bot), lua_setfield(L, -2, "self");
    static const char *const HOW[] = { "crossed", "watched", "sighted" };
    lua_pushstring(L, HOW[e->how]), lua_setfield(L, -2, "how");
}

static void push_vec(lua_State *L, const float p[3])
{
    lua_createtable(L, 3, 0);
    for (int k = 0; k < 3; k++) lua_pushnumber(L, p[k]), lua_rawseti(L, -2, k + 1);
}

static void push_info(lua_State *L, void *user)
{
    const Event *e = user;
    lua_createtable(L, 0, 4);
    switch (e->kind) {
    case EV_ARRIVE:
        push_vec(L, e->a), lua_setfield(L, -2, "goal");
        lua_pushinteger(L, e->count), lua_setfield(L, -2, "reached");
        lua_pushinteger(L, e->other), lua_setfield(L, -2, "left");
        break;
    case EV_STUCK:
        lua_pushnumber(L, e->value), lua_setfield(L, -2, "time");
        if (e->other) push_vec(L, e->a), lua_setfield(L, -2, "goal");
        break;
    case EV_CONTACT:
        nav_api_push_bot(L, (uint32_t)e->other), lua_setfield(L, -2, "bot");
        lua_pushinteger(L, e->other), lua_setfield(L, -2, "id");
        break;
    default:
        lua_pushnumber(L, e->value), lua_setfield(L, -2, "height");
        push_vec(L, e->a), lua_setfield(L, -2, "from");
        push_vec(L, e->b), lua_setfield(L, -2, "to");
        break;
    }
}

void session_events_deliver(SessionEvents *ev, BrainHost *h, int (*handle_of)(void *user, uint32_t id), void *user)
{
    /* Detection ran bot by bot, each bot's kinds in order: the queue is in
    ** delivery order already. */
    for (uint32_t i = 0; i < ev->count; i++) {
        const Event *e = &ev->queue[i];
        int handle = handle_of(user, e->bot);
        if (handle >= 0) brain_event(h, handle, EVENT_NAMES[e->kind], push_info, (void *)e);
        ev->delivered++;
    }
    ev->count = 0;
    /* Then what learners learned, in the order they learned it. */
    for (uint32_t i = 0; i < ev->learned_count; i++) {
        const Learned *e = &ev->learned[i];
        int handle = handle_of(user, e->bot);
        if (handle >= 0) brain_event(h, handle, "learn", push_learned, (void *)e);
        ev->delivered++;
    }
    ev->learned_count = 0;
}

/*
** session.c — a simulation with Lua brains (session.h).
*/
#include "script/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"
#include "script/nav_api.h"
#include "script/session_events.h"

/* What drives one bot. */
typedef struct SessionBot {
    int handle; /* brain host handle, -1 when none */
    char brain[BRAIN_NAME_MAX];
    char *load_error; /* the brain failed to load: why (owned) */
    /* The start of why, when no memory was left to copy it whole. */
    char load_error_cut[160];
    bool load_failed;
    bool stopped; /* faulted, and its controls cleared */
} SessionBot;

struct NavSession {
    NavSim *sim;
    BrainHost *brains;
    SessionBot *bots; /* by bot id */
    uint32_t bot_count, bot_cap;
    NavSessionTimes times;
    SessionEvents *events;
    NavQueryClock clock; /* the brains' query time */
    struct {
        SessionBeforeMove fn;
        void *user;
    } before_move[SESSION_MAX_BEFORE_MOVE];
    int before_move_count;
};

/* {======= the brain host's view of the simulation ======= */

static void open_nav(lua_State *L, void *user)
{
    NavSession *s = user;
    nav_api_open(L, s->sim);
    nav_api_count_into(L, &s->clock);
}

static void push_bot(lua_State *L, uint32_t id, void *user)
{
    (void)user;
    nav_api_push_bot(L, id);
}

/* }======= */

NavSession *session_create(const NavWorld *w, const NavSessionDesc *desc, NavError *err)
{
    NavSessionDesc none = { 0 };
    if (!desc) desc = &none;
    NavSession *s = nav_calloc(1, sizeof *s);
    if (!s) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a session");
        return NULL;
    }
    s->sim = sim_create(
        w, &(NavSimDesc){ .tick_hz = desc->tick_hz, .seed = desc->seed, .route_cache_bytes = desc->route_cache_bytes },
        err);
    if (!s->sim) {
        nav_free(s);
        return NULL;
    }
    BrainHostDesc bd = { .root = desc->root,
                         .lua_path = desc->lua_path,
                         .memory_limit = desc->memory_limit,
                         .instructions_per_tick = desc->instructions_per_tick,
                         .seed = (uint32_t)(desc->seed ^ desc->seed >> 32),
                         .open_api = open_nav,
                         .push_bot = push_bot,
                         .user = s,
                         .log = desc->log,
                         .log_user = desc->log_user };
    memcpy(bd.extra_roots, desc->extra_roots, sizeof bd.extra_roots);
    s->brains = brain_host_create(&bd, err);
    s->events = s->brains ? session_events_create() : NULL;
    if (s->brains && !s->events) {
        brain_host_destroy(s->brains);
        s->brains = NULL;
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a session");
    }
    if (!s->brains) {
        sim_destroy(s->sim);
        nav_free(s);
        return NULL;
    }
    return s;
}

void session_destroy(NavSession *s)
{
    if (!s) return;
    /* Brains first: their states hold the simulation's address. */
    brain_host_destroy(s->brains);
    sim_destroy(s->sim);
    session_events_destroy(s->events);
    for (uint32_t i = 0; i < s->bot_count; i++) nav_free(s->bots[i].load_error);
    nav_free(s->bots);
    nav_free(s);
}

NavSim *session_sim(NavSession *s) { return s->sim; }
BrainHost *session_brains(NavSession *s) { return s->brains; }

/* Room in the table for `count` bots. */
static bool reserve_bots(NavSession *s, uint32_t count, NavError *err)
{
    if (count <= s->bot_cap) return true;
    uint32_t cap = s->bot_cap ? 2 * s->bot_cap : 64;
    while (cap < count) cap *= 2;
    SessionBot *nb = nav_realloc(s->bots, cap * sizeof *nb);
    if (!nb) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
        return false;
    }
    s->bots = nb;
    s->bot_cap = cap;
    return true;
}

int session_add_bot(NavSession *s, const char *brain, const NavBotDesc *desc, NavError *err)
{
    /* Room first: a bot the sim has cannot be taken back. */
    if (!reserve_bots(s, sim_bot_count(s->sim) + 1, err)) return -1;
    if (!session_events_reserve(s->events, sim_bot_count(s->sim) + 1)) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for bots");
        return -1;
    }
    int id = sim_add_bot(s->sim, desc, err);
    if (id < 0) return -1;
    /* Bot ids index the table. Bots scripts added to the sim themselves
    ** (nav.spawn) take the ids between, with no brain. */
    while (s->bot_count <= (uint32_t)id) {
        SessionBot *sb = &s->bots[s->bot_count++];
        memset(sb, 0, sizeof *sb);
        sb->handle = -1;
    }
    session_attach_brain(s, (uint32_t)id, brain);
    return id;
}

bool session_attach_brain(NavSession *s, uint32_t id, const char *brain)
{
    if (id >= s->bot_count || !brain || !*brain) return false;
    SessionBot *sb = &s->bots[id];
    if (sb->handle >= 0) brain_detach(s->brains, sb->handle);
    sb->handle = -1;
    nav_free(sb->load_error);
    sb->load_error = NULL;
    sb->load_failed = false;
    snprintf(sb->brain, sizeof sb->brain, "%s", brain);
    NavError e;
    nav_error_clear(&e);
    sb->handle = brain_attach(s->brains, brain, id, &e);
    if (sb->handle >= 0) return true;
    char buf[1024];
    /* Brain errors already start with their file and line. */
    if (e.file[0] && strncmp(e.message, e.file, strlen(e.file)) == 0) snprintf(buf, sizeof buf, "%s", e.message);
    else nav_error_format(&e, buf, sizeof buf);
    sb->load_error = nav_strdup(buf);
    if (!sb->load_error) nav_copy_text(sb->load_error_cut, sizeof sb->load_error_cut, buf);
    sb->load_failed = true;
    return false;
}

/* {======= faulted bots stop ======= */

/* A control holds until changed, and a faulted brain changes nothing: the
** bot would walk on with its last wish. Cleared once, so whatever else
** sets its controls later (a test, a window) is left alone. */
static void stop_faulted(NavSession *s)
{
    for (uint32_t i = 0; i < s->bot_count; i++) {
        SessionBot *sb = &s->bots[i];
        if (sb->stopped || !session_bot_faulted(s, i)) continue;
        sb->stopped = true;
        NavBotControl *c = sim_bot_control(s->sim, i);
        memset(c, 0, sizeof *c);
        snprintf(c->reason, sizeof c->reason, "faulted");
        /* Nobody waits a lapse for a chokepoint it held. */
        sim_claim_release_bot(s->sim, i);
    }
}

bool session_bot_fault(NavSession *s, uint32_t id, const char *message)
{
    if (id >= s->bot_count || s->bots[id].handle < 0) return false;
    if (!brain_fault(s->brains, s->bots[id].handle, message)) return false;
    stop_faulted(s);
    return true;
}

/* A body that fell under every floor is stopped by the sim; its brain is
** faulted with where, so the report says why it never arrived. */
static void fault_fallen(NavSession *s)
{
    for (uint32_t i = 0; i < s->bot_count; i++) {
        const NavBot *b = sim_bot(s->sim, i);
        if (!b->fell || s->bots[i].stopped || session_bot_faulted(s, i)) continue;
        char msg[128];
        snprintf(msg, sizeof msg, "fell out of the world at (%.2f, %.2f, %.2f)", (double)b->fell_at[0],
                 (double)b->fell_at[1], (double)b->fell_at[2]);
        session_bot_fault(s, i, msg);
    }
}

/* }======= */

static int handle_of(void *user, uint32_t id)
{
    const NavSession *s = user;
    return id < s->bot_count ? s->bots[id].handle : -1;
}

uint64_t session_event_count(const NavSession *s) { return session_events_count(s->events); }

void session_step(NavSession *s)
{
    NavSessionTimes *t = &s->times;
    double path0 = s->clock.path_seconds, grid0 = s->clock.grid_seconds;
    uint64_t t0 = timer_now_ns();
    /* Events of the last step first, bots in id order, then the brains. */
    session_events_deliver(s->events, s->brains, handle_of, s);
    brain_tick(s->brains, sim_dt(s->sim));
    stop_faulted(s);
    for (int i = 0; i < s->before_move_count; i++) s->before_move[i].fn(s->before_move[i].user, s);
    uint64_t t1 = timer_now_ns();
    session_events_prime(s->events, s->sim);
    sim_step(s->sim);
    session_events_detect(s->events, s->sim);
    fault_fallen(s);
    uint64_t t2 = timer_now_ns();
    t->path_ms = (s->clock.path_seconds - path0) * 1e3;
    t->grid_ms = (s->clock.grid_seconds - grid0) * 1e3;
    t->lua_ms = (double)(t1 - t0) / 1e6 - t->path_ms;
    if (t->lua_ms < 0.0) t->lua_ms = 0.0;
    t->move_ms = (double)(t2 - t1) / 1e6;
    t->tick_ms = (double)(t2 - t0) / 1e6;
    t->lua_total_ms += t->lua_ms;
    t->path_total_ms += t->path_ms;
    t->grid_total_ms += t->grid_ms;
    t->move_total_ms += t->move_ms;
}

bool session_add_before_move(NavSession *s, SessionBeforeMove fn, void *user)
{
    if (!fn || s->before_move_count == SESSION_MAX_BEFORE_MOVE) return false;
    s->before_move[s->before_move_count].fn = fn;
    s->before_move[s->before_move_count].user = user;
    s->before_move_count++;
    return true;
}

bool session_remove_before_move(NavSession *s, SessionBeforeMove fn, void *user)
{
    for (int i = 0; i < s->before_move_count; i++) {
        if (s->before_move[i].fn != fn || s->before_move[i].user != user) continue;
        memmove(&s->before_move[i], &s->before_move[i + 1],
                (size_t)(s->before_move_count - i - 1) * sizeof s->before_move[0]);
        s->before_move_count--;
        return true;
    }
    return false;
}

const char *session_bot_brain(const NavSession *s, uint32_t id) { return id < s->bot_count ? s->bots[id].brain : ""; }

bool session_bot_faulted(const NavSession *s, uint32_t id)
{
    if (id >= s->bot_count) return false;
    const SessionBot *b = &s->bots[id];
    return b->load_failed || (b->handle >= 0 && brain_faulted(s->brains, b->handle));
}

const char *session_bot_error(const NavSession *s, uint32_t id)
{
    if (id >= s->bot_count) return NULL;
    const SessionBot *b = &s->bots[id];
    if (b->load_failed) return b->load_error ? b->load_error : b->load_error_cut;
    return b->handle >= 0 ? brain_error(s->brains, b->handle) : NULL;
}

int session_reload_changed(NavSession *s) { return brain_host_reload_changed(s->brains); }

void session_times(const NavSession *s, NavSessionTimes *out) { *out = s->times; }

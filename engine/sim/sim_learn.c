/*
** sim_learn.c — navigation memories in the simulation (sim.h, "navigation
** memories"): which bots have one, watching every body's moves from area
** to area and teaching them to the learners that saw them, and the pool
** of sliced searches within memories with their budgets.
**
** WATCHING. Per body and per class that has learners: the last area the
** body stood in (on the ground or swimming) and where in it. A body found
** in another area made a move: the ways it moved (NavBot.moved_by: a
** ladder, a lift, a teleporter, a pad, a fall ...) since it entered the
** old area and since it last stood on a floor pick the graph's link from
** the old area to the new one (match_link). Each learner of that class learns it
** when it is that body, or sees the body where the move began or where it
** ended. A body in the air keeps its last area until it lands.
**
** SEARCHING. A bot asking for its route within memory gets a search from
** the pool, keyed by (memory, goal, flags) so that bots sharing a memory
** and a goal share it; after each tick's moves the searches asked for are
** stepped from where their bots stand now, round-robin from a start that
** turns each tick, each bot up to its budget and all of them up to the
** world's. Finished searches stay in the pool, reused least recently used
** first when the pool's bytes would pass SIM_SEARCH_BYTES.
*/
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"
#include "route/route_memory.h"
#include "sim/sim_internal.h"

typedef struct MemSlot {
    NavMemory *m;
    int cls;
    uint32_t users;
} MemSlot;

typedef struct Learner {
    int slot; /* MemSlot, -1 without a memory */
    float sight;
    int search;         /* SearchSlot in use, -1 none */
    uint64_t want_tick; /* the tick whose pass steps its search */
    uint32_t known;     /* areas its memory knew at the last progress check */
    bool floors;        /* learns the floor it sees */
} Learner;

typedef struct Watch {
    uint32_t area; /* NAV_NO_AREA until first found */
    float at[3];
    uint32_t since_enter; /* ways it moved since it entered the area */
} Watch;

typedef struct SearchSlot {
    MemSearch *s;
    int slot, cls;
    uint64_t used; /* tick last asked for */
} SearchSlot;

typedef struct SimLearn {
    MemSlot *slots;
    int slot_count, slot_cap;
    Learner *bots;
    uint32_t bot_cap;
    Watch *watch[NAV_MAX_CLASSES];
    uint32_t watch_cap[NAV_MAX_CLASSES];
    SearchSlot *search;
    int search_count, search_cap;
    size_t search_bytes;
    uint32_t bot_budget, world_budget, turn;
    SimLearnedLink *learned;
    uint32_t learned_count, learned_cap;
    uint8_t *located; /* per body, this pass: found in an area */
    uint32_t located_cap;
    uint32_t *queue; /* sight's flood, per area of the largest graph */
    uint32_t queue_cap;
    SimLearnStats st;
} SimLearn;

static SimLearn *get(NavSim *sim)
{
    if (sim->learn) return sim->learn;
    SimLearn *L = nav_calloc(1, sizeof *L);
    if (!L) return NULL;
    L->bot_budget = SIM_SEARCH_BOT_BUDGET;
    L->world_budget = SIM_SEARCH_WORLD_BUDGET;
    sim->learn = L;
    return L;
}

static Learner *learner(const NavSim *sim, uint32_t id)
{
    const SimLearn *L = sim->learn;
    return L && id < L->bot_cap && L->bots[id].slot >= 0 ? &L->bots[id] : NULL;
}

static bool reserve_bots(SimLearn *L, uint32_t n)
{
    if (n <= L->bot_cap) return true;
    Learner *b = nav_realloc_array(L->bots, n, sizeof *b);
    if (!b) return false;
    for (uint32_t i = L->bot_cap; i < n; i++) b[i] = (Learner){ -1, SIM_SIGHT_DEFAULT, -1, 0, 0, true };
    L->bots = b;
    L->bot_cap = n;
    return true;
}

void sim_learn_free(NavSim *sim)
{
    SimLearn *L = sim->learn;
    if (!L) return;
    for (int i = 0; i < L->slot_count; i++) memory_destroy(L->slots[i].m);
    for (int i = 0; i < L->search_count; i++) memsearch_destroy(L->search[i].s);
    for (int c = 0; c < NAV_MAX_CLASSES; c++) nav_free(L->watch[c]);
    nav_free(L->slots);
    nav_free(L->bots);
    nav_free(L->search);
    nav_free(L->learned);
    nav_free(L->located);
    nav_free(L->queue);
    nav_free(L);
    sim->learn = NULL;
}

/* {======= memories ======= */

static void release_slot(SimLearn *L, int slot)
{
    if (slot < 0 || --L->slots[slot].users > 0) return;
    /* Searches over the memory go with it. */
    for (int i = 0; i < L->search_count; i++)
        if (L->search[i].slot == slot) L->search[i].slot = -1;
    memory_destroy(L->slots[slot].m);
    L->slots[slot].m = NULL;
}

bool sim_bot_learn(NavSim *sim, uint32_t id, int links_per_area, NavError *err)
{
    if (id >= sim->bot_count) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "bot", "no bot %u", id), false;
    if (learner(sim, id)) return true;
    int cls = sim->bots[id].cls;
    NavAreaGraph *ag = sim_graph(sim, cls, err);
    if (!ag || !sim_router(sim, cls, err)) return false;
    SimLearn *L = get(sim);
    if (!L || !reserve_bots(L, sim->bot_count)) goto nomem;
    int slot = -1;
    for (int i = 0; i < L->slot_count && slot < 0; i++)
        if (!L->slots[i].m) slot = i;
    if (slot < 0) {
        if (L->slot_count == L->slot_cap) {
            int cap = L->slot_cap ? L->slot_cap * 2 : 8;
            MemSlot *s = nav_realloc_array(L->slots, (size_t)cap, sizeof *s);
            if (!s) goto nomem;
            L->slots = s, L->slot_cap = cap;
        }
        slot = L->slot_count++;
        L->slots[slot].m = NULL;
    }
    NavMemory *m = memory_create(ag, links_per_area, err);
    if (!m) return false;
    L->slots[slot] = (MemSlot){ m, cls, 1 };
    L->bots[id].slot = slot;
    L->bots[id].search = -1;
    L->bots[id].floors = true;
    return true;
nomem:
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a navigation memory");
    return false;
}

NavMemory *sim_bot_memory(const NavSim *sim, uint32_t id)
{
    const Learner *l = learner(sim, id);
    return l ? sim->learn->slots[l->slot].m : NULL;
}

uint32_t sim_bot_memory_users(const NavSim *sim, uint32_t id)
{
    const Learner *l = learner(sim, id);
    return l ? sim->learn->slots[l->slot].users : 0;
}

bool sim_bot_share_memory(NavSim *sim, uint32_t id, uint32_t other)
{
    Learner *o = learner(sim, other);
    if (!o || id >= sim->bot_count || sim->bots[id].cls != sim->bots[other].cls) return false;
    SimLearn *L = sim->learn;
    if (!reserve_bots(L, sim->bot_count)) return false;
    o = &L->bots[other];
    Learner *b = &L->bots[id];
    if (b->slot == o->slot) return true;
    release_slot(L, b->slot);
    b->slot = o->slot;
    b->search = -1;
    L->slots[o->slot].users++;
    return true;
}

void sim_bot_drop_memory(NavSim *sim, uint32_t id)
{
    Learner *b = learner(sim, id);
    if (!b) return;
    release_slot(sim->learn, b->slot);
    b->slot = -1;
    b->search = -1;
}

bool sim_bot_set_sight(NavSim *sim, uint32_t id, float metres)
{
    Learner *b = learner(sim, id);
    if (!b || !(metres >= 0.0f) || !isfinite(metres)) return false;
    b->sight = metres;
    return true;
}

bool sim_bot_set_sight_floors(NavSim *sim, uint32_t id, bool on)
{
    Learner *b = learner(sim, id);
    if (!b) return false;
    b->floors = on;
    return true;
}

bool sim_bot_sight_floors(const NavSim *sim, uint32_t id)
{
    const Learner *b = learner(sim, id);
    return b && b->floors;
}

float sim_bot_sight(const NavSim *sim, uint32_t id)
{
    const Learner *b = learner(sim, id);
    return b ? b->sight : SIM_SIGHT_DEFAULT;
}

static bool sees(const NavSim *sim, uint32_t id, float sight, const float feet[3], float h)
{
    const NavBot *b = &sim->bots[id];
    const NavClass *c = world_class(sim->w, b->cls);
    float eye[3] = { b->pos[0], b->pos[1], b->pos[2] + (b->crouched ? c->crouch_height : c->height) * 0.9f };
    float at[3] = { feet[0], feet[1], feet[2] + h * 0.6f };
    float dx = at[0] - eye[0], dy = at[1] - eye[1], dz = at[2] - eye[2];
    if (dx * dx + dy * dy + dz * dz > sight * sight) return false;
    return world_line_of_sight(sim->w, eye, at);
}

bool sim_bot_sees(const NavSim *sim, uint32_t id, const float feet[3], float h)
{
    if (id >= sim->bot_count) return false;
    return sees(sim, id, sim_bot_sight(sim, id), feet, h);
}

bool sim_learn_discovered(NavSim *sim, uint32_t id)
{
    Learner *l = learner(sim, id);
    if (!l) return false;
    uint32_t n = memory_area_count(sim->learn->slots[l->slot].m);
    bool grew = n > l->known;
    l->known = n;
    return grew;
}

const SimLearnedLink *sim_learned(const NavSim *sim, uint32_t *count)
{
    *count = sim->learn ? sim->learn->learned_count : 0;
    return sim->learn ? sim->learn->learned : NULL;
}

/* }======= */

/* {======= watching ======= */

/* The area a body stands in, for class cls's graph. */
static uint32_t body_area(const NavAreaGraph *ag, const NavBot *b)
{
    uint32_t a = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    if (a != NAV_NO_AREA) return a;
    float p[3];
    return area_nearest_area(ag, b->pos[0], b->pos[1], b->pos[2], 0.3f, p);
}

#define SPECIAL_TYPES                                                                                          \
    (NAV_TFL_TYPE(NAV_TRAVEL_LADDER) | NAV_TFL_TYPE(NAV_TRAVEL_TELEPORT) | NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR) | \
     NAV_TFL_TYPE(NAV_TRAVEL_JUMP_PAD))
/* Moves that cannot have been made on foot. */
#define NOT_ON_FOOT \
    (NAV_TFL_TYPE(NAV_TRAVEL_LADDER) | NAV_TFL_TYPE(NAV_TRAVEL_TELEPORT) | NAV_TFL_TYPE(NAV_TRAVEL_JUMP_PAD))

static float dist3(const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* The link from area `from` to `to` a body took, leaving at p, arriving at
** q; UINT32_MAX when none fits. A lift, a ladder, a teleporter or a pad
** must have been used since the body entered `from` (`entered`: a lift
** carries a body that stands in its area all the way up) to match its
** link; a link on foot matches when the last stretch, since the body last
** stood on a floor (`last`), had no ladder, teleporter or pad. */
static uint32_t match_link(const NavAreaGraph *ag, uint32_t from, uint32_t to, const float p[3], const float q[3],
                           uint32_t entered, uint32_t last)
{
    const NavArea *a = area_get(ag, from);
    uint32_t best = UINT32_MAX;
    float best_score = INFINITY;
    for (uint32_t k = 0; k < a->reach_count; k++) {
        const NavReach *r = area_reach(ag, a->first_reach + k);
        if (r->to != to) continue;
        uint32_t t = NAV_TFL_TYPE(r->type);
        bool special = (t & SPECIAL_TYPES) != 0;
        if (special ? !(entered & t) : (last & NOT_ON_FOOT) != 0) continue;
        float score = dist3(p, r->start) + dist3(q, r->end) + (special ? 0.0f : 1000.0f);
        if (score < best_score) best_score = score, best = a->first_reach + k;
    }
    return best;
}

static void record(SimLearn *L, uint32_t bot, uint32_t link, uint32_t by, int how)
{
    if (L->learned_count == L->learned_cap) {
        uint32_t cap = L->learned_cap ? L->learned_cap * 2 : 16;
        SimLearnedLink *n = nav_realloc_array(L->learned, cap, sizeof *n);
        if (!n) return; /* the event is lost, not the learning */
        L->learned = n, L->learned_cap = cap;
    }
    L->learned[L->learned_count++] = (SimLearnedLink){ bot, link, by, how };
}

static void teach(NavSim *sim, int cls, uint32_t body, uint32_t link, const float p[3], const float q[3])
{
    SimLearn *L = sim->learn;
    const NavBot *b = &sim->bots[body];
    float h = world_class(sim->w, b->cls)->height;
    uint32_t stamp = sim->tick > UINT32_MAX - 1 ? UINT32_MAX : (uint32_t)sim->tick;
    uint32_t n = sim->bot_count < L->bot_cap ? sim->bot_count : L->bot_cap;
    for (uint32_t i = 0; i < n; i++) {
        Learner *l = &L->bots[i];
        if (l->slot < 0 || L->slots[l->slot].cls != cls || sim->bots[i].fell) continue;
        if (i != body && !sees(sim, i, l->sight, p, h) && !sees(sim, i, l->sight, q, h)) continue;
        if (memory_learn_link(L->slots[l->slot].m, link, stamp, NULL) == 1) {
            L->st.learned++;
            record(L, i, link, body, i == body ? SIM_LEARN_CROSSED : SIM_LEARN_WATCHED);
        }
    }
}

/* Is there room for one more known link into area a? */
static bool has_room(const NavMemory *m, const NavAreaGraph *ag, uint32_t a)
{
    uint32_t n, known = 0;
    const uint32_t *in = area_incoming(ag, a, &n);
    for (uint32_t i = 0; i < n; i++) known += memory_knows_link(m, in[i]);
    return known < (uint32_t)memory_links_per_area(m);
}

/* Learner id, standing in area `start`, learns the walk and crouch links
** whose far end it sees: a flood from its area over such links, each
** checked by a line of sight from its eyes to a point above the link's
** end, within its sight range. Only into areas with room under the bound
** (has_room): links crossed or watched replace, links sighted do not. */
static void sight_floors(NavSim *sim, uint32_t id, Learner *l, const NavAreaGraph *ag, uint32_t start)
{
    SimLearn *L = sim->learn;
    uint32_t areas = area_count(ag);
    if (L->queue_cap < areas) {
        uint32_t *q = nav_realloc_array(L->queue, areas, sizeof *q);
        if (!q) return;
        L->queue = q, L->queue_cap = areas;
    }
    NavMemory *m = L->slots[l->slot].m;
    const NavBot *b = &sim->bots[id];
    const NavClass *c = world_class(sim->w, b->cls);
    float eye[3] = { b->pos[0], b->pos[1], b->pos[2] + (b->crouched ? c->crouch_height : c->height) * 0.9f };
    const uint32_t on_foot = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
    uint32_t stamp = sim->tick > UINT32_MAX - 1 ? UINT32_MAX : (uint32_t)sim->tick;
    /* Areas in the queue are marked by being known: the flood only goes
    ** on through links it learns (or knew), each area once per look. */
    uint32_t head = 0, tail = 0;
    L->queue[tail++] = start;
    uint32_t budget = 512; /* lines of sight per look */
    while (head < tail && budget) {
        const NavArea *a = area_get(ag, L->queue[head++]);
        for (uint32_t k = 0; k < a->reach_count && budget; k++) {
            uint32_t li = a->first_reach + k;
            const NavReach *r = area_reach(ag, li);
            if (!(NAV_TFL_TYPE(r->type) & on_foot)) continue;
            bool queued = false;
            for (uint32_t q = 0; q < tail && !queued; q++) queued = L->queue[q] == r->to;
            if (memory_knows_link(m, li)) {
                if (!queued && tail < L->queue_cap && tail < 256) L->queue[tail++] = r->to;
                continue;
            }
            float at[3] = { r->end[0], r->end[1], r->end[2] + 0.5f };
            float dx = at[0] - eye[0], dy = at[1] - eye[1], dz = at[2] - eye[2];
            if (dx * dx + dy * dy + dz * dz > l->sight * l->sight) continue;
            budget--;
            if (!world_line_of_sight(sim->w, eye, at)) continue;
            /* Seen floor fills free room only: evicting would forget a
            ** way in that the next look sees again, round and round. */
            if (has_room(m, ag, r->to) && memory_learn_link(m, li, stamp, NULL) == 1) {
                L->st.learned++;
                record(L, id, li, id, SIM_LEARN_SIGHTED);
            }
            if (!queued && tail < L->queue_cap && tail < 256) L->queue[tail++] = r->to;
        }
    }
}

static void watch_class(NavSim *sim, int cls, uint8_t *located)
{
    SimLearn *L = sim->learn;
    const NavAreaGraph *ag = sim->graph[cls];
    if (L->watch_cap[cls] < sim->bot_count) {
        Watch *w = nav_realloc_array(L->watch[cls], sim->bot_count, sizeof *w);
        if (!w) return;
        for (uint32_t i = L->watch_cap[cls]; i < sim->bot_count; i++) w[i].area = NAV_NO_AREA, w[i].since_enter = 0;
        L->watch[cls] = w;
        L->watch_cap[cls] = sim->bot_count;
    }
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        const NavBot *b = &sim->bots[i];
        if (b->fell || !(b->on_ground || b->in_water)) continue;
        uint32_t a = body_area(ag, b);
        if (a == NAV_NO_AREA) continue;
        located[i] = 1;
        Watch *w = &L->watch[cls][i];
        w->since_enter |= b->moved_by;
        if (w->area != NAV_NO_AREA && a != w->area) {
            L->st.transitions++;
            uint32_t link = match_link(ag, w->area, a, w->at, b->pos, w->since_enter, b->moved_by);
            if (link == UINT32_MAX) L->st.unmatched++;
            else teach(sim, cls, i, link, w->at, b->pos);
            w->since_enter = 0;
        }
        w->area = a;
        memcpy(w->at, b->pos, sizeof w->at);
        /* A learner knows the floor it stands on, and sees round it. */
        Learner *l = learner(sim, i);
        if (l && L->slots[l->slot].cls == cls) {
            memory_learn_area(L->slots[l->slot].m, a);
            if (l->floors && (sim->tick + i) % SIM_SIGHT_EVERY == 0) sight_floors(sim, i, l, ag, a);
        }
    }
}

/* }======= */

/* {======= searches ======= */

void sim_set_search_budget(NavSim *sim, uint32_t per_bot, uint32_t per_world)
{
    SimLearn *L = get(sim);
    if (!L) return;
    L->bot_budget = per_bot;
    L->world_budget = per_world;
}

void sim_search_budget(const NavSim *sim, uint32_t *per_bot, uint32_t *per_world)
{
    *per_bot = sim->learn ? sim->learn->bot_budget : SIM_SEARCH_BOT_BUDGET;
    *per_world = sim->learn ? sim->learn->world_budget : SIM_SEARCH_WORLD_BUDGET;
}

static uint32_t bot_start(NavSim *sim, const NavBot *b, float p[3])
{
    const NavAreaGraph *ag = sim->graph[b->cls];
    memcpy(p, b->pos, 3 * sizeof *p);
    uint32_t a = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    if (a == NAV_NO_AREA) a = area_nearest_area(ag, b->pos[0], b->pos[1], b->pos[2], 2.0f, p);
    return a;
}

/* The pool's search for (slot, goal, flags), made or reused; -1 when the
** pool is full of searches asked for this tick. */
static int find_search(NavSim *sim, int slot, int cls, uint32_t goal, uint32_t flags)
{
    SimLearn *L = sim->learn;
    NavRouter *r = sim->router[cls];
    const NavMemory *m = L->slots[slot].m;
    uint32_t want_flags = flags | area_get(sim->graph[cls], goal)->travel_flags;
    for (int i = 0; i < L->search_count; i++) {
        SearchSlot *s = &L->search[i];
        if (s->slot == slot && memsearch_goal(s->s) == goal && memsearch_flags(s->s) == want_flags) return i;
    }
    size_t need = memsearch_bytes_for(area_reach_count(sim->graph[cls]));
    int victim = -1;
    for (int i = 0; i < L->search_count; i++) {
        SearchSlot *s = &L->search[i];
        if (s->cls != cls || (s->slot >= 0 && s->used >= sim->tick)) continue;
        if (victim < 0 || s->slot < 0 || s->used < L->search[victim].used) victim = i;
        if (s->slot < 0) break;
    }
    if (L->search_bytes + need > SIM_SEARCH_BYTES || (victim >= 0 && L->search[victim].slot < 0)) {
        if (victim < 0) return -1;
        SearchSlot *s = &L->search[victim];
        memsearch_reset(s->s, m, goal, flags);
        s->slot = slot;
        /* Bots that used it ask again. */
        for (uint32_t i = 0; i < L->bot_cap; i++)
            if (L->bots[i].search == victim) L->bots[i].search = -1;
        return victim;
    }
    if (L->search_count == L->search_cap) {
        int cap = L->search_cap ? L->search_cap * 2 : 8;
        SearchSlot *n = nav_realloc_array(L->search, (size_t)cap, sizeof *n);
        if (!n) return -1;
        L->search = n, L->search_cap = cap;
    }
    NavError err;
    MemSearch *s = memsearch_create(r, m, goal, flags, &err);
    if (!s) return -1;
    L->search[L->search_count] = (SearchSlot){ s, slot, cls, 0 };
    L->search_bytes += memsearch_bytes(s);
    return L->search_count++;
}

bool sim_bot_memory_route(NavSim *sim, uint32_t id, uint32_t goal, uint32_t flags, bool now, uint32_t *links, int cap,
                          SimMemRoute *out)
{
    memset(out, 0, sizeof *out);
    out->time = ROUTE_UNREACHABLE;
    if (id >= sim->bot_count) return false;
    const NavBot *b = &sim->bots[id];
    NavError err;
    NavRouter *r = sim_router(sim, b->cls, &err);
    if (!r || goal >= area_count(sim->graph[b->cls])) return false;
    float p[3];
    uint32_t start = bot_start(sim, b, p);
    if (start == NAV_NO_AREA) {
        out->state = MEMSEARCH_NO_ROUTE;
        return true;
    }
    Learner *l = learner(sim, id);
    NavRoute q;
    if (!l) {
        if (NAV_FAILED(router_route_links(r, start, p, goal, flags, links, cap, &out->count, &q))) return false;
    } else if (now) {
        const NavMemory *m = sim->learn->slots[l->slot].m;
        if (NAV_FAILED(memory_route(r, m, start, p, goal, flags, links, cap, &out->count, &q))) return false;
    } else {
        SimLearn *L = sim->learn;
        /* A start in slime or lava allows it (route.h), as memory_route's
        ** query does: the search is keyed by the flags with it. */
        flags |= area_get(sim->graph[b->cls], start)->travel_flags;
        int i = find_search(sim, l->slot, b->cls, goal, flags);
        if (i < 0) {
            out->queued = true;
            l->search = -1;
            return true;
        }
        SearchSlot *s = &L->search[i];
        if (memsearch_stale(s->s)) memsearch_reset(s->s, L->slots[l->slot].m, goal, flags);
        memsearch_set_start(s->s, start, p);
        s->used = sim->tick;
        l->search = i;
        l->want_tick = sim->tick + 1;
        out->state = (int)memsearch_state(s->s);
        MemSearchStats st;
        memsearch_stats(s->s, &st);
        out->expanded = st.expanded;
        memsearch_route(s->s, links, cap, &out->count, &q);
        out->time = q.time;
        return true;
    }
    out->time = q.time;
    out->state = q.time == ROUTE_UNREACHABLE ? MEMSEARCH_NO_ROUTE : MEMSEARCH_READY;
    return true;
}

const MemSearch *sim_bot_search(const NavSim *sim, uint32_t id)
{
    const Learner *l = learner(sim, id);
    return l && l->search >= 0 && sim->learn->search[l->search].slot == l->slot ? sim->learn->search[l->search].s
                                                                                : NULL;
}

/* Step the searches bots asked for this tick, from where they are now. */
static void step_searches(NavSim *sim)
{
    SimLearn *L = sim->learn;
    uint32_t n = sim->bot_count < L->bot_cap ? sim->bot_count : L->bot_cap;
    if (!n) return;
    uint64_t t0 = timer_now_ns();
    uint32_t spent = 0, asked = 0;
    for (uint32_t k = 0; k < n; k++) {
        Learner *l = &L->bots[(L->turn + k) % n];
        if (l->slot < 0 || l->search < 0 || l->want_tick != sim->tick) continue;
        SearchSlot *s = &L->search[l->search];
        if (s->slot != l->slot) continue;
        asked++;
        uint32_t left = L->world_budget - spent;
        uint32_t budget = L->bot_budget < left ? L->bot_budget : left;
        if (budget == 0) continue;
        const NavBot *b = &sim->bots[(L->turn + k) % n];
        if (memsearch_stale(s->s))
            memsearch_reset(s->s, L->slots[l->slot].m, memsearch_goal(s->s), memsearch_flags(s->s));
        float p[3];
        uint32_t start = bot_start(sim, b, p);
        if (start == NAV_NO_AREA) continue;
        memsearch_set_start(s->s, start, p);
        spent += memsearch_step(s->s, budget);
    }
    L->turn = (L->turn + 1) % n;
    L->st.searching = asked;
    L->st.expanded_tick = spent;
    L->st.expanded += spent;
    double ms = asked ? timer_ms_since(t0) : 0.0;
    L->st.search_ms_tick = ms;
    L->st.search_ms_total += ms;
    if (ms > L->st.search_ms_max) L->st.search_ms_max = ms;
}

/* }======= */

void sim_learn_pass(NavSim *sim)
{
    SimLearn *L = sim->learn;
    if (!L) return;
    L->learned_count = 0;
    uint32_t classes = 0;
    for (int i = 0; i < L->slot_count; i++)
        if (L->slots[i].m) classes |= 1u << L->slots[i].cls;
    if (classes && sim->bot_count) {
        if (L->located_cap < sim->bot_count) {
            uint8_t *n = nav_realloc(L->located, sim->bot_count);
            if (n) L->located = n, L->located_cap = sim->bot_count;
        }
        if (L->located_cap >= sim->bot_count) {
            memset(L->located, 0, sim->bot_count);
            for (int c = 0; c < NAV_MAX_CLASSES; c++)
                if (classes >> c & 1u) watch_class(sim, c, L->located);
            /* The ways a body moved count from where it was last found. */
            for (uint32_t i = 0; i < sim->bot_count; i++)
                if (L->located[i]) sim->bots[i].moved_by = 0;
        }
    }
    step_searches(sim);
}

void sim_learn_stats(const NavSim *sim, SimLearnStats *out)
{
    memset(out, 0, sizeof *out);
    const SimLearn *L = sim->learn;
    if (!L) return;
    *out = L->st;
    out->learners = out->memories = 0;
    out->memory_bytes = 0;
    for (int i = 0; i < L->slot_count; i++)
        if (L->slots[i].m) {
            out->memories++;
            out->learners += L->slots[i].users;
            out->memory_bytes += memory_bytes(L->slots[i].m);
        }
    out->search_bytes = L->search_bytes;
    out->searches = (uint32_t)L->search_count;
}

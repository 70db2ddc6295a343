/*
** sim_claim.c — chokepoints taken in turn (sim.h, "claims").
**
** A key holds its members in queue order: by the tick each first asked,
** ties by bot id (brains think in id order, so a new member nearly always
** goes last; the sort only guards callers that ask out of order). Holders
** stay in that list, marked by the sequence number of their grant, which
** ranks them. Nothing here depends on memory addresses or on iteration
** over anything but these arrays, so a run decides the same way every
** time.
**
** Lapses are applied to every key once per tick, at the first claim or
** release of the tick; inspection leaves lapsed members out without
** changing anything. Memory grows only while the tables grow (a key's
** member array, the key table) and is kept for reuse when a key empties,
** so a run that has warmed up allocates nothing.
*/
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct SimClaimMember {
    uint32_t bot;
    int side;
    uint64_t first;   /* the tick it first asked */
    uint64_t last;    /* the tick it last asked */
    uint64_t granted; /* grant sequence number; 0 while waiting */
} SimClaimMember;

typedef struct SimClaimKey {
    char key[SIM_CLAIM_KEY_MAX];
    uint64_t hash;
    int capacity;
    uint32_t lapse_ticks, patience_ticks;
    SimClaimMember *m;
    uint32_t count, cap;
} SimClaimKey;

struct SimClaims {
    SimClaimKey *keys;
    uint32_t count, cap; /* slots in use or kept (an empty slot has key[0] == 0) */
    uint32_t live;       /* slots with a key */
    uint64_t swept;      /* the tick lapses were last applied, +1 (0: never) */
    uint64_t seq;        /* grants so far */
    uint64_t *refused;   /* per bot: the tick it was last refused, +1 (0: never) */
    uint32_t refused_cap;
};

static uint64_t key_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static uint32_t seconds_to_ticks(const NavSim *sim, float s)
{
    float t = s * (float)sim->hz;
    if (t < 1.0f) return 1;
    if (t > 1e9f) return 1000000000u;
    return (uint32_t)(t + 0.5f);
}

static bool lapsed(const SimClaimKey *k, const SimClaimMember *m, uint64_t now)
{
    return now > m->last && now - m->last > k->lapse_ticks;
}

static void remove_member(SimClaims *c, SimClaimKey *k, uint32_t i)
{
    memmove(&k->m[i], &k->m[i + 1], (size_t)(k->count - i - 1) * sizeof *k->m);
    k->count--;
    if (k->count == 0) {
        k->key[0] = '\0';
        c->live--;
    }
}

/* Drop lapsed members of every key, once per tick. */
static void sweep(NavSim *sim)
{
    SimClaims *c = sim->claims;
    uint64_t now = sim->tick;
    if (c->swept == now + 1) return;
    c->swept = now + 1;
    for (uint32_t i = 0; i < c->count; i++) {
        SimClaimKey *k = &c->keys[i];
        for (uint32_t j = 0; j < k->count;) {
            if (lapsed(k, &k->m[j], now)) remove_member(c, k, j);
            else j++;
        }
    }
}

static SimClaimKey *find_key(SimClaims *c, const char *key, uint64_t h)
{
    for (uint32_t i = 0; i < c->count; i++) {
        SimClaimKey *k = &c->keys[i];
        if (k->count && k->hash == h && strcmp(k->key, key) == 0) return k;
    }
    return NULL;
}

static bool valid_key(const char *key, NavError *err)
{
    if (!key || !*key) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "key", "a claim needs a key that is not empty");
        return false;
    }
    if (strlen(key) >= SIM_CLAIM_KEY_MAX) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "key", "claim key '%.20s...' is longer than %d characters", key,
                      SIM_CLAIM_KEY_MAX - 1);
        return false;
    }
    return true;
}

/* Fill out from k for member index `self` (or none: -1). */
static void describe(const SimClaimKey *k, int self, SimClaimResult *out)
{
    out->holder = -1;
    out->holders = 0;
    out->side = 0;
    uint64_t best = UINT64_MAX;
    int rank = 1, place = 1;
    const SimClaimMember *me = self >= 0 ? &k->m[self] : NULL;
    for (uint32_t i = 0; i < k->count; i++) {
        const SimClaimMember *m = &k->m[i];
        if (m->granted) {
            out->holders++;
            if (m->granted < best) {
                best = m->granted;
                out->holder = (int)m->bot;
                out->side = m->side;
            }
            if (me && me->granted && m->granted < me->granted) rank++;
        } else if (me && !me->granted && (int)i < self) {
            place++;
        }
    }
    out->granted = me && me->granted;
    out->place = me ? (me->granted ? rank : place) : 0;
}

/* May waiter `self` of key k be granted now? The rules of sim.h. */
static bool may_grant(const NavSim *sim, const SimClaimKey *k, uint32_t self)
{
    uint64_t now = sim->tick;
    const SimClaimMember *me = &k->m[self];
    int holders = 0, hside = 0;
    for (uint32_t i = 0; i < k->count; i++)
        if (k->m[i].granted) {
            holders++;
            hside = k->m[i].side;
        }
    int free_slots = k->capacity - holders;
    if (free_slots <= 0) return false;
    /* The side whose turn it is: the holders', or with none, the side of
    ** the longest waiter (members are in queue order). */
    int turn = hside;
    if (!holders) {
        for (uint32_t i = 0; i < k->count; i++)
            if (!k->m[i].granted) {
                turn = k->m[i].side;
                break;
            }
    }
    if (me->side != turn) return false;
    int ahead = 0;
    for (uint32_t i = 0; i < k->count; i++) {
        const SimClaimMember *m = &k->m[i];
        if (m->granted) continue;
        if (m->side != turn) {
            /* Another side that has waited long enough: no more of this
            ** side go in; it gets the passage once the holders are out. */
            if (holders && now - m->first >= k->patience_ticks) return false;
            continue;
        }
        if (i < self) ahead++;
    }
    return ahead < free_slots;
}

NavStatus sim_claim(NavSim *sim, uint32_t bot, const char *key, const SimClaimDesc *desc, SimClaimResult *out,
                    NavError *err)
{
    SimClaimDesc d = desc ? *desc : (SimClaimDesc){ 0 };
    memset(out, 0, sizeof *out);
    out->holder = -1;
    if (bot >= sim->bot_count)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "bot", "no bot %u (there are %u)", (unsigned)bot,
                             (unsigned)sim->bot_count);
    if (!valid_key(key, err)) return NAV_FAILURE | NAV_E_PARAM;
    if (d.capacity < 0 || d.capacity > SIM_CLAIM_MAX_QUEUE)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "capacity", "capacity %d is outside 1..%d", d.capacity,
                             SIM_CLAIM_MAX_QUEUE);
    if (!(d.lapse >= 0.0f && d.lapse <= 3600.0f) || !(d.patience >= 0.0f && d.patience <= 3600.0f))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, d.lapse >= 0.0f && d.lapse <= 3600.0f ? "patience" : "lapse",
                             "seconds outside 0..3600");
    if (!sim->claims) {
        sim->claims = nav_calloc(1, sizeof *sim->claims);
        if (!sim->claims) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for claims");
    }
    SimClaims *c = sim->claims;
    if (c->refused_cap < sim->bot_count) {
        uint64_t *r = nav_realloc(c->refused, sim->bot_cap * sizeof *r);
        if (!r) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for claims");
        memset(r + c->refused_cap, 0, (sim->bot_cap - c->refused_cap) * sizeof *r);
        c->refused = r;
        c->refused_cap = sim->bot_cap;
    }
    sweep(sim);
    uint64_t h = key_hash(key);
    SimClaimKey *k = find_key(c, key, h);
    if (!k) {
        uint32_t slot = 0;
        while (slot < c->count && c->keys[slot].count) slot++;
        if (slot == c->count) {
            if (c->count == SIM_CLAIM_MAX_KEYS)
                return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "key",
                                     "claim table full: %d chokepoints are claimed at once ('%s' is one more)",
                                     SIM_CLAIM_MAX_KEYS, key);
            if (c->count == c->cap) {
                uint32_t cap = c->cap ? c->cap * 2 : 16;
                if (cap > SIM_CLAIM_MAX_KEYS) cap = SIM_CLAIM_MAX_KEYS;
                SimClaimKey *keys = nav_realloc(c->keys, cap * sizeof *keys);
                if (!keys) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for claims");
                memset(keys + c->cap, 0, (cap - c->cap) * sizeof *keys);
                c->keys = keys;
                c->cap = cap;
            }
            c->count++;
        }
        k = &c->keys[slot];
        /* Its member array is kept from an earlier key in this slot. */
        snprintf(k->key, sizeof k->key, "%s", key);
        k->hash = h;
        k->count = 0;
    }
    k->capacity = d.capacity ? d.capacity : 1;
    k->lapse_ticks = seconds_to_ticks(sim, d.lapse > 0.0f ? d.lapse : SIM_CLAIM_LAPSE);
    k->patience_ticks = seconds_to_ticks(sim, d.patience > 0.0f ? d.patience : SIM_CLAIM_PATIENCE);

    int self = -1;
    for (uint32_t i = 0; i < k->count; i++)
        if (k->m[i].bot == bot) self = (int)i;
    if (self < 0) {
        if (k->count == SIM_CLAIM_MAX_QUEUE)
            return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "key",
                                 "claim '%s' already has %d bots holding or waiting", key, SIM_CLAIM_MAX_QUEUE);
        if (k->count == k->cap) {
            uint32_t cap = k->cap ? k->cap * 2 : 8;
            if (cap > SIM_CLAIM_MAX_QUEUE) cap = SIM_CLAIM_MAX_QUEUE;
            SimClaimMember *m = nav_realloc(k->m, cap * sizeof *m);
            if (!m) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for claims");
            k->m = m;
            k->cap = cap;
        }
        if (k->count == 0) c->live++;
        /* Queue order: by first tick, then id; it asks now, so it goes
        ** after every earlier asker and before any later id of this tick. */
        uint32_t at = k->count;
        while (at > 0 && k->m[at - 1].first == sim->tick && k->m[at - 1].bot > bot) at--;
        memmove(&k->m[at + 1], &k->m[at], (size_t)(k->count - at) * sizeof *k->m);
        k->m[at] = (SimClaimMember){ .bot = bot, .side = d.side, .first = sim->tick, .last = sim->tick };
        k->count++;
        self = (int)at;
    }
    SimClaimMember *me = &k->m[self];
    me->last = sim->tick;
    if (!me->granted) {
        me->side = d.side;
        if (may_grant(sim, k, (uint32_t)self)) me->granted = ++c->seq;
    }
    describe(k, self, out);
    c->refused[bot] = out->granted ? 0 : sim->tick + 1;
    return NAV_OK;
}

bool sim_claim_waiting(const NavSim *sim, uint32_t bot)
{
    const SimClaims *c = sim->claims;
    /* Refused in the brains' turn of this tick, or of the tick just simulated. */
    return c && bot < c->refused_cap && c->refused[bot] && c->refused[bot] >= sim->tick;
}

bool sim_claim_release(NavSim *sim, uint32_t bot, const char *key)
{
    SimClaims *c = sim->claims;
    if (!c || !key) return false;
    sweep(sim);
    SimClaimKey *k = find_key(c, key, key_hash(key));
    if (!k) return false;
    for (uint32_t i = 0; i < k->count; i++)
        if (k->m[i].bot == bot) {
            remove_member(c, k, i);
            return true;
        }
    return false;
}

int sim_claim_release_bot(NavSim *sim, uint32_t bot)
{
    SimClaims *c = sim->claims;
    if (!c) return 0;
    int n = 0;
    for (uint32_t i = 0; i < c->count; i++) {
        SimClaimKey *k = &c->keys[i];
        for (uint32_t j = 0; j < k->count; j++)
            if (k->m[j].bot == bot) {
                remove_member(c, k, j);
                n++;
                break;
            }
    }
    return n;
}

uint32_t sim_claim_count(const NavSim *sim)
{
    const SimClaims *c = sim->claims;
    if (!c) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->count; i++) {
        const SimClaimKey *k = &c->keys[i];
        for (uint32_t j = 0; j < k->count; j++)
            if (!lapsed(k, &k->m[j], sim->tick)) {
                n++;
                break;
            }
    }
    return n;
}

/* The index-th key with a live member, in table order. */
static const SimClaimKey *live_key(const NavSim *sim, uint32_t index)
{
    const SimClaims *c = sim->claims;
    if (!c) return NULL;
    for (uint32_t i = 0; i < c->count; i++) {
        const SimClaimKey *k = &c->keys[i];
        bool live = false;
        for (uint32_t j = 0; j < k->count && !live; j++) live = !lapsed(k, &k->m[j], sim->tick);
        if (live && index-- == 0) return k;
    }
    return NULL;
}

bool sim_claim_at(const NavSim *sim, uint32_t index, SimClaimInfo *out)
{
    const SimClaimKey *k = live_key(sim, index);
    if (!k) return false;
    memset(out, 0, sizeof *out);
    out->key = k->key;
    out->capacity = k->capacity;
    out->lapse = (float)k->lapse_ticks / (float)sim->hz;
    out->patience = (float)k->patience_ticks / (float)sim->hz;
    for (uint32_t j = 0; j < k->count; j++) {
        const SimClaimMember *m = &k->m[j];
        if (lapsed(k, m, sim->tick)) continue;
        out->members++;
        if (m->granted) {
            out->holders++;
            out->side = m->side;
        }
    }
    return true;
}

static void member_info(const SimClaimMember *m, SimClaimMemberInfo *out)
{
    out->bot = m->bot;
    out->holding = m->granted != 0;
    out->side = m->side;
    out->since = m->first;
}

bool sim_claim_member(const NavSim *sim, uint32_t index, uint32_t j, SimClaimMemberInfo *out)
{
    const SimClaimKey *k = live_key(sim, index);
    if (!k) return false;
    uint32_t n = 0;
    /* Holders first, by rank (the order of their grants)... */
    uint64_t after = 0;
    for (;;) {
        const SimClaimMember *pick = NULL;
        for (uint32_t i = 0; i < k->count; i++) {
            const SimClaimMember *m = &k->m[i];
            if (!m->granted || m->granted <= after || lapsed(k, m, sim->tick)) continue;
            if (!pick || m->granted < pick->granted) pick = m;
        }
        if (!pick) break;
        if (n++ == j) {
            member_info(pick, out);
            return true;
        }
        after = pick->granted;
    }
    /* ...then the waiters in queue order. */
    for (uint32_t i = 0; i < k->count; i++) {
        const SimClaimMember *m = &k->m[i];
        if (m->granted || lapsed(k, m, sim->tick)) continue;
        if (n++ == j) {
            member_info(m, out);
            return true;
        }
    }
    return false;
}

size_t sim_claim_memory(const NavSim *sim)
{
    const SimClaims *c = sim->claims;
    if (!c) return 0;
    size_t n = sizeof *c + (size_t)c->cap * sizeof *c->keys;
    for (uint32_t i = 0; i < c->count; i++) n += (size_t)c->keys[i].cap * sizeof(SimClaimMember);
    return n + (size_t)c->refused_cap * sizeof *c->refused;
}

void sim_claim_free(NavSim *sim)
{
    SimClaims *c = sim->claims;
    if (!c) return;
    for (uint32_t i = 0; i < c->cap; i++) nav_free(c->keys[i].m);
    nav_free(c->keys);
    nav_free(c->refused);
    nav_free(c);
    sim->claims = NULL;
}

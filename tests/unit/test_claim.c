/*
** test_claim.c — chokepoints taken in turn (sim_claim.c): capacity, first
** come first served, one side at a time, no starvation, lapses, bounded
** tables, determinism; and a long random run checked call by call against
** a plain model of the rules in sim.h, written here apart from the engine.
*/
#include <string.h>

#include "core/random.h"
#include "sim/sim.h"
#include "sim/sim_debug.h"
#include "test_support.h"

typedef struct Fixture {
    NavWorld *w;
    NavSim *sim;
} Fixture;

static Fixture setup(int bots)
{
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = test_load_map("maps/arena.lua");
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 5 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    for (int i = 0; i < bots; i++) {
        NavBotDesc d = { .cls = 0 };
        cr_assert(sim_place_free(f.sim, 0, (float[3]){ 3, 10, 0 }, 0, d.pos), "no room for bot %d", i);
        cr_assert_eq(sim_add_bot(f.sim, &d, &err), i, "%s", err.message);
    }
    return f;
}

static void teardown(Fixture *f)
{
    sim_destroy(f->sim);
    world_destroy(f->w);
}

static SimClaimResult ask(Fixture *f, uint32_t bot, const char *key, int capacity, int side)
{
    NavError err;
    nav_error_clear(&err);
    SimClaimResult r;
    SimClaimDesc d = { .capacity = capacity, .side = side };
    cr_assert(NAV_SUCCEEDED(sim_claim(f->sim, bot, key, &d, &r, &err)), "%s", err.message);
    return r;
}

Test(claim, capacity_bots_hold_and_the_rest_queue)
{
    Fixture f = setup(5);
    for (uint32_t b = 0; b < 5; b++) {
        SimClaimResult r = ask(&f, b, "lift/3", 2, 0);
        cr_assert_eq(r.granted, b < 2, "bot %u", b);
        cr_assert_eq(r.holder, 0);
        cr_assert_eq(r.place, b < 2 ? (int)b + 1 : (int)b - 1, "bot %u: place %d", b, r.place);
        cr_assert_eq(r.holders, b < 2 ? (int)b + 1 : 2);
    }
    /* Bot 0 lets go: the first in the queue (bot 2) is next, not bot 4
    ** even though it asks first. */
    cr_assert(sim_claim_release(f.sim, 0, "lift/3"));
    cr_assert_not(sim_claim_release(f.sim, 0, "lift/3"), "a second release has nothing to let go");
    SimClaimResult r4 = ask(&f, 4, "lift/3", 2, 0);
    cr_assert_not(r4.granted);
    cr_assert_eq(r4.place, 3);
    cr_assert_eq(r4.holder, 1);
    SimClaimResult r2 = ask(&f, 2, "lift/3", 2, 0);
    cr_assert(r2.granted);
    cr_assert_eq(r2.place, 2, "the second holder by rank");
    /* Refused: it waits its turn (not stuck) while it keeps asking. */
    cr_assert(sim_claim_waiting(f.sim, 4));
    cr_assert_not(sim_claim_waiting(f.sim, 2), "a holder is not waiting");
    sim_step(f.sim);
    cr_assert(sim_claim_waiting(f.sim, 4), "refused in the tick just simulated");
    sim_step(f.sim);
    cr_assert_not(sim_claim_waiting(f.sim, 4), "it has not asked since");
    /* Other keys are apart. */
    cr_assert(ask(&f, 4, "ladder/human/7", 1, 0).granted);
    cr_assert_eq(sim_claim_count(f.sim), 2);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(claim, first_come_first_served_by_tick_then_id)
{
    Fixture f = setup(5);
    cr_assert(ask(&f, 4, "door", 1, 0).granted); /* tick 0 */
    sim_step(f.sim);
    /* Tick 1: bots 3 and 1 ask (3 first, out of id order). */
    cr_assert_eq(ask(&f, 3, "door", 1, 0).place, 1);
    cr_assert_eq(ask(&f, 1, "door", 1, 0).place, 1, "same tick: the lower id goes first");
    cr_assert_eq(ask(&f, 3, "door", 1, 0).place, 2);
    sim_step(f.sim);
    /* Tick 2: bot 0 asks; it is behind both. */
    ask(&f, 4, "door", 1, 0);
    cr_assert_eq(ask(&f, 0, "door", 1, 0).place, 3);
    uint32_t order[4] = { 4, 1, 3, 0 };
    for (int k = 1; k < 4; k++) {
        sim_claim_release(f.sim, order[k - 1], "door");
        /* Everyone still waiting asks, highest id first: only the next one is granted. */
        for (int b = 4; b >= 0; b--) {
            bool waiting = false;
            for (int m = k; m < 4; m++) waiting |= order[m] == (uint32_t)b;
            if (!waiting) continue;
            SimClaimResult r = ask(&f, (uint32_t)b, "door", 1, 0);
            cr_assert_eq(r.granted, (uint32_t)b == order[k], "turn %d: bot %d", k, b);
        }
        sim_step(f.sim);
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(claim, one_side_at_a_time)
{
    Fixture f = setup(6);
    cr_assert(ask(&f, 0, "corridor", 3, 1).granted);
    cr_assert(ask(&f, 1, "corridor", 3, 1).granted, "the same way joins");
    SimClaimResult r = ask(&f, 2, "corridor", 3, 2);
    cr_assert_not(r.granted, "the other way waits though there is room");
    cr_assert_eq(r.holder, 0);
    sim_step(f.sim);
    /* A later bot going the holders' way still joins (bot 2 has not waited long). */
    cr_assert(ask(&f, 3, "corridor", 3, 1).granted);
    cr_assert_not(ask(&f, 4, "corridor", 3, 1).granted, "full");
    sim_claim_release(f.sim, 0, "corridor");
    sim_claim_release(f.sim, 1, "corridor");
    /* Bot 4 (side 1, queued after bot 2) may not overtake: bot 2's side is
    ** not the holders', and with holders there bot 2 waits... */
    cr_assert_not(ask(&f, 2, "corridor", 3, 2).granted);
    cr_assert(ask(&f, 4, "corridor", 3, 1).granted, "...while its own side still holds it and has room");
    sim_claim_release(f.sim, 3, "corridor");
    sim_claim_release(f.sim, 4, "corridor");
    /* Empty: the longest waiter's side goes. */
    SimClaimResult r2 = ask(&f, 2, "corridor", 3, 2);
    cr_assert(r2.granted);
    cr_assert_eq(r2.side, 2);
    cr_assert_not(ask(&f, 5, "corridor", 3, 1).granted);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* One side streams through a passage (a new bot every half second, each
** holding it two seconds: it is never empty); from tick 30 one bot waits at
** the other end. It gets through once it has waited its patience and the
** bots inside then have come out, and the stream stops for it. */
Test(claim, the_other_side_is_not_starved)
{
    Fixture f = setup(40);
    SimClaimDesc east = { .capacity = 4, .side = 1, .patience = 3.0f }, west = { .capacity = 4, .side = 2, .patience = 3.0f };
    int state[40] = { 0 }; /* 0 before, 1 inside, 2 through */
    int since[40] = { 0 };
    int granted_tick = -1, next = 1, east_in_after_patience = 0;
    NavError err;
    SimClaimResult r;
    for (int t = 0; t < 600 && granted_tick < 0; t++) {
        if (t % 15 == 0 && next < 40) next++;
        if (t >= 30) {
            cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 0, "pass", &west, &r, &err)));
            if (r.granted) granted_tick = t;
        }
        for (int b = 1; b < next; b++) {
            if (state[b] == 2) continue;
            if (state[b] == 1 && t - since[b] >= 60) {
                cr_assert(sim_claim_release(f.sim, (uint32_t)b, "pass"));
                state[b] = 2;
                continue;
            }
            cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, (uint32_t)b, "pass", &east, &r, &err)));
            if (r.granted && state[b] == 0) {
                state[b] = 1;
                since[b] = t;
                if (t >= 30 + 90) east_in_after_patience++;
            }
        }
        sim_step(f.sim);
    }
    cr_assert_geq(granted_tick, 0, "the west bot never got its turn");
    cr_assert_geq(granted_tick, 30 + 90, "granted at tick %d, while the east bots held it", granted_tick);
    cr_assert_leq(granted_tick, 30 + 90 + 60 + 1, "granted at tick %d", granted_tick);
    cr_assert_eq(east_in_after_patience, 0, "east bots went in after the west bot's patience ran out");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(claim, unrenewed_claims_lapse)
{
    Fixture f = setup(3);
    SimClaimDesc d = { .capacity = 1, .lapse = 0.5f }; /* 15 ticks at 30 Hz */
    NavError err;
    SimClaimResult r;
    cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 0, "ladder", &d, &r, &err)) && r.granted);
    cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 2, "ladder", &d, &r, &err)) && !r.granted);
    /* Bot 0 wanders off; bot 2 keeps asking; bot 1 asks once and leaves. */
    int granted_at = -1;
    for (int t = 1; t <= 40 && granted_at < 0; t++) {
        sim_step(f.sim);
        if (t == 1) {
            sim_claim(f.sim, 1, "ladder", &d, &r, &err);
            cr_assert_eq(r.place, 2);
        }
        cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 2, "ladder", &d, &r, &err)));
        if (r.granted) granted_at = t;
        else cr_assert_eq(r.holder, 0, "tick %d: still held by bot 0", t);
    }
    cr_assert_eq(granted_at, 16, "bot 0's claim lapses after 15 ticks, at %d", granted_at);
    sim_step(f.sim); /* and bot 1's, which asked at tick 1 */
    /* The member list shows only bot 2 now: bot 1 lapsed too. */
    cr_assert_eq(sim_claim_count(f.sim), 1);
    SimClaimInfo info;
    cr_assert(sim_claim_at(f.sim, 0, &info));
    cr_assert_str_eq(info.key, "ladder");
    cr_assert_eq(info.members, 1);
    SimClaimMemberInfo m;
    cr_assert(sim_claim_member(f.sim, 0, 0, &m));
    cr_assert_eq(m.bot, 2);
    cr_assert(m.holding);
    cr_assert_not(sim_claim_member(f.sim, 0, 1, &m));
    /* Releasing everything of a bot (a faulted one). */
    cr_assert_eq(sim_claim_release_bot(f.sim, 2), 1);
    cr_assert_eq(sim_claim_count(f.sim), 0);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(claim, bad_requests_are_refused_by_name)
{
    Fixture f = setup(1);
    NavError err;
    SimClaimResult r;
    nav_error_clear(&err);
    cr_assert(NAV_FAILED(sim_claim(f.sim, 0, "", NULL, &r, &err)));
    cr_assert_str_eq(err.field, "key");
    char long_key[SIM_CLAIM_KEY_MAX + 4];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    cr_assert(NAV_FAILED(sim_claim(f.sim, 0, long_key, NULL, &r, &err)));
    cr_assert_not_null(strstr(err.message, "longer than"), "%s", err.message);
    cr_assert(NAV_FAILED(sim_claim(f.sim, 7, "k", NULL, &r, &err)));
    cr_assert_str_eq(err.field, "bot");
    cr_assert(NAV_FAILED(sim_claim(f.sim, 0, "k", &(SimClaimDesc){ .capacity = -1 }, &r, &err)));
    cr_assert_str_eq(err.field, "capacity");
    cr_assert(NAV_FAILED(sim_claim(f.sim, 0, "k", &(SimClaimDesc){ .lapse = -2.0f }, &r, &err)));
    cr_assert_str_eq(err.field, "lapse");
    /* The key table is bounded, with a clear failure; it holds again once a key is let go. */
    char key[32];
    for (int i = 0; i < SIM_CLAIM_MAX_KEYS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 0, key, NULL, &r, &err)), "%s", err.message);
    }
    nav_error_clear(&err);
    cr_assert(NAV_FAILED(sim_claim(f.sim, 0, "one more", NULL, &r, &err)));
    cr_assert(err.status & NAV_E_NOMEM);
    cr_assert_not_null(strstr(err.message, "claim table full"), "%s", err.message);
    cr_assert(sim_claim_release(f.sim, 0, "k17"));
    cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, 0, "one more", NULL, &r, &err)), "%s", err.message);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* {======= a plain model of the rules, and a long random run against it ======= */

#define MODEL_BOTS 9

typedef struct ModelBot {
    bool in, holding;
    int side;
    uint64_t first, last, grant;
} ModelBot;

typedef struct Model {
    ModelBot b[MODEL_BOTS];
    uint64_t seq;
    int capacity;
    uint64_t lapse, patience; /* ticks */
} Model;

static void model_lapse(Model *m, uint64_t now)
{
    for (int i = 0; i < MODEL_BOTS; i++)
        if (m->b[i].in && now - m->b[i].last > m->lapse) m->b[i].in = m->b[i].holding = false;
}

/* The waiters in queue order (by first tick, then id): a plain selection sort. */
static int model_queue(const Model *m, int out[MODEL_BOTS])
{
    int n = 0;
    bool used[MODEL_BOTS] = { false };
    for (;;) {
        int pick = -1;
        for (int i = 0; i < MODEL_BOTS; i++) {
            if (!m->b[i].in || m->b[i].holding || used[i]) continue;
            if (pick < 0 || m->b[i].first < m->b[pick].first) pick = i; /* ties: the lower id, met first */
        }
        if (pick < 0) return n;
        used[pick] = true;
        out[n++] = pick;
    }
}

static SimClaimResult model_ask(Model *m, int bot, int side, uint64_t now)
{
    model_lapse(m, now);
    ModelBot *me = &m->b[bot];
    if (!me->in) {
        *me = (ModelBot){ .in = true, .side = side, .first = now };
    }
    me->last = now;
    if (!me->holding) {
        me->side = side;
        int holders = 0, hside = 0;
        for (int i = 0; i < MODEL_BOTS; i++)
            if (m->b[i].in && m->b[i].holding) holders++, hside = m->b[i].side;
        int q[MODEL_BOTS];
        int n = model_queue(m, q);
        int turn = holders ? hside : m->b[q[0]].side;
        bool ok = holders < m->capacity && side == turn;
        for (int k = 0; k < n && ok; k++)
            if (m->b[q[k]].side != turn && holders && now - m->b[q[k]].first >= m->patience) ok = false;
        int ahead = 0;
        for (int k = 0; k < n && q[k] != bot; k++)
            if (m->b[q[k]].side == turn) ahead++;
        if (ok && ahead < m->capacity - holders) {
            me->holding = true;
            me->grant = ++m->seq;
        }
    }
    SimClaimResult r = { .granted = me->holding, .holder = -1 };
    uint64_t best = UINT64_MAX;
    int rank = 1;
    for (int i = 0; i < MODEL_BOTS; i++) {
        const ModelBot *o = &m->b[i];
        if (!o->in || !o->holding) continue;
        r.holders++;
        if (o->grant < best) best = o->grant, r.holder = i, r.side = o->side;
        if (me->holding && o->grant < me->grant) rank++;
    }
    if (me->holding) {
        r.place = rank;
    } else {
        int q[MODEL_BOTS];
        int n = model_queue(m, q);
        for (int k = 0; k < n; k++)
            if (q[k] == bot) r.place = k + 1;
    }
    return r;
}

static void model_release(Model *m, int bot, uint64_t now)
{
    model_lapse(m, now);
    m->b[bot].in = m->b[bot].holding = false;
}

/* Ten thousand ticks of bots asking, going quiet and letting go at random,
** each answer compared with the model's. */
Test(claim, a_random_run_follows_the_rules)
{
    for (int trial = 0; trial < 4; trial++) {
        Fixture f = setup(MODEL_BOTS);
        Model m = { .capacity = 1 + trial, .lapse = 10, .patience = 45 };
        SimClaimDesc d = { .capacity = m.capacity, .lapse = 10.0f / 30.0f, .patience = 1.5f };
        uint64_t rng = 0x9e3779b97f4a7c15ull + (uint64_t)trial;
        int grants = 0, side_switches = 0, last_side = 0;
        for (uint64_t t = 0; t < 10000; t++) {
            for (int b = 0; b < MODEL_BOTS; b++) {
                uint64_t x = nav_rand_next(&rng) % 100;
                if (x < 60) {
                    d.side = trial == 0 ? 0 : 1 + (int)((nav_rand_next(&rng) >> 7) % 2);
                    /* A bot keeps its side while it has a part in the key. */
                    if (m.b[b].in) d.side = m.b[b].side;
                    NavError err;
                    SimClaimResult got;
                    cr_assert(NAV_SUCCEEDED(sim_claim(f.sim, (uint32_t)b, "x", &d, &got, &err)), "%s", err.message);
                    bool was = m.b[b].in && m.b[b].holding;
                    SimClaimResult want = model_ask(&m, b, d.side, t);
                    cr_assert(got.granted == want.granted && got.place == want.place && got.holder == want.holder &&
                                  got.holders == want.holders && got.side == want.side,
                              "trial %d tick %llu bot %d: got granted %d place %d holder %d holders %d side %d; "
                              "want %d %d %d %d %d",
                              trial, (unsigned long long)t, b, got.granted, got.place, got.holder, got.holders,
                              got.side, want.granted, want.place, want.holder, want.holders, want.side);
                    if (want.granted && !was) {
                        grants++;
                        if (want.side != last_side) side_switches++, last_side = want.side;
                    }
                } else if (x < 63) {
                    bool got = sim_claim_release(f.sim, (uint32_t)b, "x");
                    model_lapse(&m, t);
                    cr_assert_eq(got, m.b[b].in, "trial %d tick %llu: release of bot %d", trial,
                                 (unsigned long long)t, b);
                    model_release(&m, b, t);
                }
                /* else: quiet this tick (long enough, and its claim lapses) */
            }
            sim_step(f.sim);
        }
        cr_assert_gt(grants, 150, "trial %d: only %d grants", trial, grants);
        if (trial > 0) cr_assert_gt(side_switches, 30, "trial %d: the sides took only %d turns", trial, side_switches);
        teardown(&f);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* The same calls give the same answers, and a warmed-up table stops growing. */
Test(claim, deterministic_and_steady)
{
    uint64_t digest[2] = { 0, 0 };
    size_t mem_mid = 0, mem_end = 0;
    for (int run = 0; run < 2; run++) {
        Fixture f = setup(30);
        uint64_t rng = 42;
        char key[16];
        for (int t = 0; t < 3000; t++) {
            for (uint32_t b = 0; b < 30; b++) {
                uint64_t x = nav_rand_next(&rng);
                snprintf(key, sizeof key, "k%d", (int)(x % 7));
                if ((x >> 8) % 10 < 7) {
                    SimClaimResult r = ask(&f, b, key, 1 + (int)((x >> 16) % 3), (int)((x >> 20) % 2));
                    digest[run] = digest[run] * 1099511628211ull + (uint64_t)(r.granted * 7 + r.place * 131 + r.holder);
                } else {
                    sim_claim_release(f.sim, b, key);
                }
            }
            sim_step(f.sim);
            if (t == 1500) mem_mid = sim_claim_memory(f.sim);
        }
        mem_end = sim_claim_memory(f.sim);
        cr_assert_eq(mem_mid, mem_end, "the tables grew after warming up: %zu -> %zu bytes", mem_mid, mem_end);
        teardown(&f);
    }
    cr_assert_eq(digest[0], digest[1]);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_sim_learn.c — navigation memories in the simulation (sim.h,
** "navigation memories"; sim_learn.c): a body climbing tower's ladder 1
** teaches the link to the learners that see it (and to itself), not to
** one behind a wall or out of sight range; learners learn the walks to
** the floor they see, and nothing more; shared and dropped memories;
** sliced searches within the world's budget that end as the one-pass
** answer; and two identical runs learn the same links in the same order.
*/
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "memory_support.h"

/* tower, ladder 1: cols 49-51, row 30 (x 24.5-26 m, y 8.5-9 m) in the
** ground-floor store room (x 22-28.5 m, y 4.5-9 m), up 4 m to the second
** floor; the tower's east wall at x 28.5-29 m, the courtyard beyond. */
static const float LADDER_FOOT[3] = { 25.25f, 7.25f, 0.0f };
static const float IN_STORE[3] = { 23.0f, 5.5f, 0.0f };
static const float OUTSIDE_EAST[3] = { 30.5f, 8.0f, 0.0f };

typedef struct Run {
    NavWorld *w;
    NavSim *sim;
    NavAreaGraph *ag;
} Run;

/* One of ladder 1's links up (the top of the ladder borders more than
** one area of the floor above). */
static bool ladder_up(const NavAreaGraph *ag, uint32_t l)
{
    const NavReach *re = area_reach(ag, l);
    return re->type == NAV_TRAVEL_LADDER && re->end[2] - re->start[2] > 3.0f && re->start[2] < 1.0f &&
           re->start[0] > 24.0f && re->start[0] < 26.5f && re->start[1] > 7.0f && re->start[1] < 9.5f;
}

static Run start_run(void)
{
    Run r;
    memset(&r, 0, sizeof r);
    r.w = test_load_map("maps/tower.lua");
    NavError err;
    nav_error_clear(&err);
    r.sim = sim_create(r.w, &(NavSimDesc){ .seed = 5 }, &err);
    cr_assert_not_null(r.sim, "%s", err.message);
    r.ag = sim_graph(r.sim, 0, &err);
    cr_assert_not_null(r.ag, "%s", err.message);
    uint32_t ups = 0;
    for (uint32_t l = 0; l < area_reach_count(r.ag); l++) ups += ladder_up(r.ag, l);
    cr_assert_gt(ups, 0, "no link up ladder 1");
    return r;
}

static void end_run(Run *r)
{
    sim_destroy(r->sim);
    world_destroy(r->w);
}

static uint32_t add_bot(Run *r, const float p[3])
{
    NavError err;
    nav_error_clear(&err);
    int id = sim_add_bot(r->sim, &(NavBotDesc){ .cls = 0, .pos = { p[0], p[1], p[2] } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    return (uint32_t)id;
}

static void learner(Run *r, uint32_t id, int cap)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert(sim_bot_learn(r->sim, id, cap, &err), "%s", err.message);
    cr_assert_not_null(sim_bot_memory(r->sim, id));
}

/* One learned-link record. */
typedef struct Learned {
    uint64_t tick;
    SimLearnedLink l;
} Learned;

typedef struct Log {
    Learned *a;
    uint32_t n, cap;
} Log;

static void log_tick(Run *r, Log *log)
{
    uint32_t n;
    const SimLearnedLink *l = sim_learned(r->sim, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (log->n == log->cap) {
            log->cap = log->cap ? 2 * log->cap : 256;
            log->a = nav_realloc(log->a, log->cap * sizeof *log->a);
        }
        log->a[log->n++] = (Learned){ sim_tick(r->sim), l[i] };
    }
}

/* Did `bot` learn `link` by `how` (from `by`, unless UINT32_MAX)? */
static bool logged(const Log *log, uint32_t bot, uint32_t link, int how, uint32_t by)
{
    for (uint32_t i = 0; i < log->n; i++) {
        const SimLearnedLink *l = &log->a[i].l;
        if (l->bot == bot && l->link == link && l->how == how && (by == UINT32_MAX || l->by == by)) return true;
    }
    return false;
}

/* The climber walks north into the ladder and up it, then on north onto
** the second floor; ticks until it stands there (or a limit). */
static void climb(Run *r, uint32_t climber, Log *log)
{
    for (int t = 0; t < 30 * 20; t++) {
        NavBotControl *c = sim_bot_control(r->sim, climber);
        c->move[0] = 0.0f;
        c->move[1] = 1.0f;
        sim_step(r->sim);
        log_tick(r, log);
        const NavBot *b = sim_bot(r->sim, climber);
        if (b->on_ground && b->pos[2] > 3.5f && b->pos[1] > 10.0f) {
            for (int k = 0; k < 15; k++) {
                sim_step(r->sim);
                log_tick(r, log);
            }
            return;
        }
    }
    const NavBot *b = sim_bot(r->sim, climber);
    cr_assert_fail("the climber did not get up ladder 1: at (%.2f, %.2f, %.2f)", (double)b->pos[0], (double)b->pos[1],
                   (double)b->pos[2]);
}

Test(memory_sim, a_ladder_climbed_is_learned_by_who_sees_it)
{
    Run r = start_run();
    uint32_t climber = add_bot(&r, LADDER_FOOT);
    uint32_t watcher = add_bot(&r, IN_STORE);
    uint32_t walled = add_bot(&r, OUTSIDE_EAST);
    uint32_t short_sight = add_bot(&r, (float[3]){ 27.5f, 5.0f, 0.0f });
    learner(&r, climber, 0);
    learner(&r, watcher, 0);
    learner(&r, walled, 0);
    learner(&r, short_sight, 0);
    cr_assert(sim_bot_set_sight(r.sim, short_sight, 1.0f));
    cr_assert_float_eq(sim_bot_sight(r.sim, short_sight), 1.0f, 1e-6f);
    cr_assert_float_eq(sim_bot_sight(r.sim, watcher), SIM_SIGHT_DEFAULT, 1e-6f);
    /* The learning rule from where they stand. */
    float h = world_class(r.w, 0)->height;
    cr_assert(sim_bot_sees(r.sim, watcher, LADDER_FOOT, h), "the watcher does not see the ladder's foot");
    cr_assert_not(sim_bot_sees(r.sim, walled, LADDER_FOOT, h), "the bot outside sees through the wall");
    cr_assert_not(sim_bot_sees(r.sim, short_sight, LADDER_FOOT, h), "a 1 m sight reaches the ladder");
    Log log = { 0 };
    climb(&r, climber, &log);
    NavMemory *mc = sim_bot_memory(r.sim, climber), *mw = sim_bot_memory(r.sim, watcher);
    /* The ladder link it crossed: one up ladder 1, learned by itself and
    ** by the watcher, by no one else. */
    uint32_t ladder = UINT32_MAX;
    for (uint32_t i = 0; i < log.n; i++)
        if (log.a[i].l.bot == climber && area_reach(r.ag, log.a[i].l.link)->type == NAV_TRAVEL_LADDER)
            ladder = log.a[i].l.link;
    cr_assert_neq(ladder, UINT32_MAX, "the climber learned no ladder link");
    cr_assert(ladder_up(r.ag, ladder), "the climber learned ladder link %u, not one up ladder 1", ladder);
    cr_assert(memory_knows_link(mc, ladder), "the climber did not learn the ladder it climbed");
    cr_assert(logged(&log, climber, ladder, SIM_LEARN_CROSSED, climber), "no CROSSED record for the climber");
    cr_assert(memory_knows_link(mw, ladder), "the watcher did not learn the ladder");
    cr_assert(logged(&log, watcher, ladder, SIM_LEARN_WATCHED, climber), "no WATCHED record for the watcher");
    for (uint32_t l = 0; l < area_reach_count(r.ag); l++) {
        if (area_reach(r.ag, l)->type != NAV_TRAVEL_LADDER) continue;
        cr_assert_not(memory_knows_link(sim_bot_memory(r.sim, walled), l), "learned ladder %u through a wall", l);
        cr_assert_not(memory_knows_link(sim_bot_memory(r.sim, short_sight), l), "learned ladder %u beyond 1 m", l);
    }
    for (uint32_t i = 0; i < log.n; i++) {
        const SimLearnedLink *l = &log.a[i].l;
        const NavReach *re = area_reach(r.ag, l->link);
        cr_assert(memory_knows_link(sim_bot_memory(r.sim, l->bot), l->link) ||
                      memory_link_count(sim_bot_memory(r.sim, l->bot)) > 0,
                  "a record of a link never known");
        if (l->how == SIM_LEARN_SIGHTED) {
            cr_assert(re->type == NAV_TRAVEL_WALK || re->type == NAV_TRAVEL_CROUCH, "sighted a %s link (%u)",
                      area_travel_name(re->type), l->link);
            cr_assert_eq(l->by, l->bot);
        }
        if (l->how == SIM_LEARN_CROSSED) cr_assert_eq(l->by, l->bot);
        if (l->how == SIM_LEARN_WATCHED) cr_assert_neq(l->by, l->bot);
    }
    nav_free(log.a);
    end_run(&r);
    NAV_TEST_LEAK_CHECK();
}

/* Standing still, a learner learns the walks and crouches to the floor it
** sees, within its sight, and nothing else; with sight_floors off, only
** the area it stands in. */
Test(memory_sim, sighted_floors_are_walks_within_sight)
{
    static const float sights[] = { 30.0f, 4.0f };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(sights); k++) {
        Run r = start_run();
        uint32_t a = add_bot(&r, (float[3]){ 20.5f, 15.5f, 0.0f }), off = add_bot(&r, (float[3]){ 12.0f, 11.5f, 0.0f });
        learner(&r, a, 64);
        learner(&r, off, 64);
        cr_assert(sim_bot_sight_floors(r.sim, a), "sight_floors is on by default");
        cr_assert(sim_bot_set_sight_floors(r.sim, off, false));
        cr_assert_not(sim_bot_sight_floors(r.sim, off));
        cr_assert(sim_bot_set_sight(r.sim, a, sights[k]));
        cr_assert_not(sim_bot_set_sight(r.sim, a, -1.0f));
        cr_assert_not(sim_bot_set_sight(r.sim, a, NAN));
        cr_assert_float_eq(sim_bot_sight(r.sim, a), sights[k], 1e-6f);
        Log log = { 0 };
        for (int t = 0; t < 3 * SIM_SIGHT_EVERY; t++) {
            sim_step(r.sim);
            log_tick(&r, &log);
        }
        const NavBot *b = sim_bot(r.sim, a);
        const NavClass *c = world_class(r.w, 0);
        float eye[3] = { b->pos[0], b->pos[1], b->pos[2] + c->height * 0.9f };
        NavMemory *m = sim_bot_memory(r.sim, a);
        cr_assert_gt(memory_link_count(m), 0, "sight %g: learned nothing standing in the hall", (double)sights[k]);
        uint32_t sighted = 0;
        for (uint32_t i = 0; i < log.n; i++) {
            const SimLearnedLink *l = &log.a[i].l;
            cr_assert_eq(l->bot, a, "bot %u learned link %u standing still, sight_floors off", l->bot, l->link);
            cr_assert_eq(l->how, SIM_LEARN_SIGHTED);
            cr_assert_eq(l->by, a);
            const NavReach *re = area_reach(r.ag, l->link);
            cr_assert(re->type == NAV_TRAVEL_WALK || re->type == NAV_TRAVEL_CROUCH, "sighted a %s link (%u)",
                      area_travel_name(re->type), l->link);
            float at[3] = { re->end[0], re->end[1], re->end[2] + 0.5f };
            float dx = at[0] - eye[0], dy = at[1] - eye[1], dz = at[2] - eye[2];
            cr_assert_leq(sqrtf(dx * dx + dy * dy + dz * dz), sights[k] + 1e-3f,
                          "link %u's end is %.2f m away, beyond the sight of %g m", l->link,
                          (double)sqrtf(dx * dx + dy * dy + dz * dz), (double)sights[k]);
            cr_assert(world_line_of_sight(r.w, eye, at), "link %u's end is out of sight", l->link);
            sighted++;
        }
        cr_assert_eq(sighted, memory_link_count(m), "%u links known, %u recorded", memory_link_count(m), sighted);
        NavMemory *mo = sim_bot_memory(r.sim, off);
        cr_assert_eq(memory_link_count(mo), 0, "sight_floors off, yet %u links learned", memory_link_count(mo));
        cr_assert_eq(memory_area_count(mo), 1, "it knows %u areas, not the one it stands in", memory_area_count(mo));
        nav_free(log.a);
        end_run(&r);
    }
    NAV_TEST_LEAK_CHECK();
}

/* A team's memory: what one learns, all know; dropping it leaves the
** others theirs; a bot without one knows everything. */
Test(memory_sim, shared_memories_and_dropping_them)
{
    Run r = start_run();
    uint32_t climber = add_bot(&r, LADDER_FOOT), mate = add_bot(&r, (float[3]){ 12.0f, 11.5f, 0.0f });
    uint32_t plain = add_bot(&r, OUTSIDE_EAST);
    learner(&r, climber, 0);
    learner(&r, mate, 0);
    NavError err;
    cr_assert(sim_bot_learn(r.sim, climber, 0, &err), "learning twice");
    cr_assert_not(sim_bot_learn(r.sim, 99, 0, &err));
    cr_assert_not(sim_bot_learn(r.sim, plain, 65, &err), "a bound of 65 accepted");
    cr_assert_null(sim_bot_memory(r.sim, plain));
    cr_assert_eq(sim_bot_memory_users(r.sim, plain), 0);
    cr_assert_not(sim_bot_share_memory(r.sim, climber, plain), "shared the memory of a bot without one");
    cr_assert(sim_bot_share_memory(r.sim, mate, climber));
    cr_assert(sim_bot_share_memory(r.sim, mate, climber), "sharing again");
    cr_assert_eq(sim_bot_memory(r.sim, mate), sim_bot_memory(r.sim, climber));
    cr_assert_eq(sim_bot_memory_users(r.sim, climber), 2);
    cr_assert_eq(sim_bot_memory_users(r.sim, mate), 2);
    SimLearnStats st;
    sim_learn_stats(r.sim, &st);
    cr_assert_eq(st.learners, 2);
    cr_assert_eq(st.memories, 1);
    cr_assert_eq(st.memory_bytes, memory_bytes(sim_bot_memory(r.sim, climber)));
    cr_assert(sim_bot_set_sight_floors(r.sim, climber, false));
    Log log = { 0 };
    climb(&r, climber, &log);
    /* The mate, far off, learned the ladder with the climber: one memory. */
    uint32_t ladder = UINT32_MAX;
    for (uint32_t l = 0; l < area_reach_count(r.ag); l++)
        if (ladder_up(r.ag, l) && memory_knows_link(sim_bot_memory(r.sim, mate), l)) ladder = l;
    cr_assert_neq(ladder, UINT32_MAX, "the team's memory holds no ladder link");
    /* A bot without a memory routes over everything. */
    uint32_t links[256];
    SimMemRoute q;
    uint32_t goal = area_point_area(r.ag, 20.5f, 15.5f, 0.0f);
    cr_assert(sim_bot_memory_route(r.sim, plain, goal, NAV_TFL_DEFAULT, false, links, 256, &q));
    NavRoute want;
    NavRouter *router = sim_router(r.sim, 0, &err);
    const NavBot *pb = sim_bot(r.sim, plain);
    router_route(router, area_point_area(r.ag, pb->pos[0], pb->pos[1], pb->pos[2]), pb->pos, goal, NAV_TFL_DEFAULT,
                 &want);
    cr_assert_eq(q.time, want.time, "a bot without memory: %u, the router %u", q.time, want.time);
    cr_assert_eq(q.state, MEMSEARCH_READY);
    cr_assert_not(sim_bot_memory_route(r.sim, 99, goal, NAV_TFL_DEFAULT, false, links, 256, &q));
    cr_assert_not(sim_bot_memory_route(r.sim, plain, area_count(r.ag), NAV_TFL_DEFAULT, false, links, 256, &q));
    /* Dropping: the mate goes back to knowing everything, the climber
    ** keeps the memory; then the last user drops it. */
    sim_bot_drop_memory(r.sim, mate);
    cr_assert_null(sim_bot_memory(r.sim, mate));
    cr_assert_eq(sim_bot_memory_users(r.sim, climber), 1);
    cr_assert(memory_knows_link(sim_bot_memory(r.sim, climber), ladder));
    sim_bot_drop_memory(r.sim, climber);
    sim_bot_drop_memory(r.sim, climber);
    cr_assert_null(sim_bot_memory(r.sim, climber));
    sim_learn_stats(r.sim, &st);
    cr_assert_eq(st.learners, 0);
    cr_assert_eq(st.memories, 0);
    /* A new memory after that starts empty. */
    learner(&r, mate, 0);
    cr_assert_not(memory_knows_link(sim_bot_memory(r.sim, mate), ladder));
    sim_step(r.sim);
    nav_free(log.a);
    end_run(&r);
    NAV_TEST_LEAK_CHECK();
}

/* Learners standing still ask for routes within memory each tick, sliced:
** no tick expands more than the world's budget, every search ends, and
** its answer is the one-pass answer (now). Bots sharing a memory and a
** goal share one search. */
Test(memory_sim, sliced_searches_keep_to_the_budget_and_end_as_the_one_pass_answer, .timeout = 120)
{
    Run r = start_run();
    static const float spots[][3] = { { 20.5f, 15.5f, 0.0f }, { 12.0f, 11.5f, 0.0f }, { 5.0f, 10.0f, 0.0f },
                                      { 25.0f, 6.0f, 0.0f },  { 30.5f, 8.0f, 0.0f },  { 21.5f, 15.5f, 0.0f } };
    enum { BOTS = 6 };
    uint32_t id[BOTS], goal[BOTS];
    uint64_t seed = 17;
    for (int i = 0; i < BOTS; i++) {
        id[i] = add_bot(&r, spots[i]);
        learner(&r, id[i], 64);
        cr_assert(sim_bot_set_sight_floors(r.sim, id[i], false));
        goal[i] = (uint32_t)(nav_rand_next(&seed) % area_count(r.ag));
    }
    /* Bot 5 shares bot 0's memory and goal. */
    cr_assert(sim_bot_share_memory(r.sim, id[5], id[0]));
    goal[5] = goal[0];
    for (int i = 0; i < 5; i++) {
        NavMemory *m = sim_bot_memory(r.sim, id[i]);
        const NavBot *b = sim_bot(r.sim, id[i]);
        uint32_t a = area_point_area(r.ag, b->pos[0], b->pos[1], b->pos[2]);
        cr_assert_neq(a, NAV_NO_AREA);
        memory_learn_reachable(m, a, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 1);
        /* Forget some, so some goals are out of memory. */
        for (uint32_t l = 0; l < area_reach_count(r.ag); l++)
            if (memory_knows_link(m, l) && nav_rand_next(&seed) % 10 == 0) memory_forget_link(m, l);
    }
    const uint32_t per_bot = 40, per_world = 90;
    sim_set_search_budget(r.sim, per_bot, per_world);
    uint32_t pb, pw;
    sim_search_budget(r.sim, &pb, &pw);
    cr_assert_eq(pb, per_bot);
    cr_assert_eq(pw, per_world);
    uint32_t links[512];
    SimMemRoute q, done[BOTS];
    bool finished[BOTS] = { false };
    int left = BOTS, ticks = 0, ready = 0;
    uint32_t most = 0;
    while (left > 0) {
        for (int i = 0; i < BOTS; i++) {
            if (finished[i]) continue;
            cr_assert(sim_bot_memory_route(r.sim, id[i], goal[i], NAV_TFL_DEFAULT, false, links, 512, &q));
            if (q.state != MEMSEARCH_RUNNING && !q.queued) {
                done[i] = q;
                finished[i] = true;
                left--;
                ready += q.state == MEMSEARCH_READY;
            } else if (q.time != ROUTE_UNREACHABLE) {
                cr_assert_gt(q.count, 0, "a partial time with no links");
            }
        }
        if (!finished[0] && !finished[5])
            cr_assert_eq(sim_bot_search(r.sim, id[0]), sim_bot_search(r.sim, id[5]),
                         "bots of one memory and one goal have two searches");
        sim_step(r.sim);
        SimLearnStats st;
        sim_learn_stats(r.sim, &st);
        cr_assert_leq(st.expanded_tick, per_world, "tick %d expanded %u, over the world's budget of %u", ticks,
                      st.expanded_tick, per_world);
        cr_assert_leq(st.expanded_tick, per_bot * st.searching, "tick %d: %u expanded for %u searches", ticks,
                      st.expanded_tick, st.searching);
        if (st.expanded_tick > most) most = st.expanded_tick;
        cr_assert_lt(++ticks, 20000, "the searches do not end (%d left)", left);
    }
    cr_assert_eq(most, per_world, "no tick used the whole world's budget: the test is too small");
    cr_assert_gt(ready, 0, "no goal was within memory");
    for (int i = 0; i < BOTS; i++) {
        cr_assert(sim_bot_memory_route(r.sim, id[i], goal[i], NAV_TFL_DEFAULT, true, links, 512, &q));
        cr_assert_eq(done[i].time, q.time, "bot %u to area %u: sliced %u, at once %u", id[i], goal[i], done[i].time,
                     q.time);
        cr_assert_eq(done[i].state, q.state);
        cr_assert_eq(done[i].count, q.count);
    }
    /* A world budget of 0 expands nothing. */
    sim_set_search_budget(r.sim, per_bot, 0);
    uint32_t far = (goal[1] + 1) % area_count(r.ag);
    cr_assert(sim_bot_memory_route(r.sim, id[1], far, NAV_TFL_DEFAULT, false, links, 512, &q));
    for (int t = 0; t < 5; t++) {
        sim_step(r.sim);
        SimLearnStats st;
        sim_learn_stats(r.sim, &st);
        cr_assert_eq(st.expanded_tick, 0);
        cr_assert(sim_bot_memory_route(r.sim, id[1], far, NAV_TFL_DEFAULT, false, links, 512, &q));
    }
    cr_assert_eq(q.expanded, 0);
    end_run(&r);
    NAV_TEST_LEAK_CHECK();
}

/* {======= determinism ======= */

typedef struct Outcome {
    uint64_t hash;
    Log log;
} Outcome;

/* A climber, a walker pacing the hall, learners of bound 1 and 8 and a
** team of two; or the same bodies and controls with no learners. */
static Outcome learning_run(bool learners)
{
    Run r = start_run();
    uint32_t climber = add_bot(&r, LADDER_FOOT), walker = add_bot(&r, (float[3]){ 20.5f, 15.5f, 0.0f });
    uint32_t a = add_bot(&r, IN_STORE), b = add_bot(&r, (float[3]){ 12.0f, 11.5f, 0.0f });
    uint32_t c = add_bot(&r, (float[3]){ 27.5f, 5.0f, 0.0f });
    if (learners) {
        learner(&r, a, 1);
        learner(&r, b, 8);
        learner(&r, walker, 0);
        cr_assert(sim_bot_share_memory(r.sim, c, a));
    }
    Outcome o = { 0 };
    for (int t = 0; t < 400; t++) {
        NavBotControl *cc = sim_bot_control(r.sim, climber);
        cc->move[0] = t < 200 ? 0.0f : -1.0f;
        cc->move[1] = t < 200 ? 1.0f : 0.0f;
        NavBotControl *wc = sim_bot_control(r.sim, walker);
        float ang = (float)t * 0.02f;
        wc->move[0] = cosf(ang);
        wc->move[1] = sinf(ang);
        sim_step(r.sim);
        log_tick(&r, &o.log);
    }
    if (learners) {
        /* The bound of 1 held all along in the memory of a (and c). */
        NavMemory *m = sim_bot_memory(r.sim, a);
        cr_assert_eq(sim_bot_memory(r.sim, c), m);
        for (uint32_t ar = 0; ar < area_count(r.ag); ar++) {
            uint32_t n, k = 0;
            const uint32_t *in = area_incoming(r.ag, ar, &n);
            for (uint32_t i = 0; i < n; i++) k += memory_knows_link(m, in[i]);
            cr_assert_leq(k, 1, "%u links into area %u under a bound of 1", k, ar);
        }
    }
    o.hash = sim_trace_hash(r.sim);
    end_run(&r);
    return o;
}

Test(memory_sim, identical_runs_learn_identically_and_learning_moves_nothing, .timeout = 120)
{
    Outcome x = learning_run(true), y = learning_run(true), z = learning_run(false);
    cr_assert_eq(x.hash, y.hash, "two identical runs: hashes %016llx and %016llx", (unsigned long long)x.hash,
                 (unsigned long long)y.hash);
    cr_assert_eq(x.hash, z.hash, "learning changed the run: %016llx, without learners %016llx",
                 (unsigned long long)x.hash, (unsigned long long)z.hash);
    cr_assert_gt(x.log.n, 10, "the run learned little (%u links)", x.log.n);
    cr_assert_eq(x.log.n, y.log.n, "%u links learned, then %u", x.log.n, y.log.n);
    for (uint32_t i = 0; i < x.log.n; i++)
        cr_assert(x.log.a[i].tick == y.log.a[i].tick && memcmp(&x.log.a[i].l, &y.log.a[i].l, sizeof x.log.a[i].l) == 0,
                  "learned link %u differs: tick %llu bot %u link %u, then tick %llu bot %u link %u", i,
                  (unsigned long long)x.log.a[i].tick, x.log.a[i].l.bot, x.log.a[i].l.link,
                  (unsigned long long)y.log.a[i].tick, y.log.a[i].l.bot, y.log.a[i].l.link);
    bool watched = false;
    for (uint32_t i = 0; i < x.log.n; i++) watched |= x.log.a[i].l.how == SIM_LEARN_WATCHED;
    cr_assert(watched, "no link was learned by watching");
    cr_assert_eq(z.log.n, 0);
    nav_free(x.log.a);
    nav_free(y.log.a);
    nav_free(z.log.a);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* A bot standing in slime may route on through slime (route.h: a start
** in an area that needs a contents flag allows it), sliced or at once:
** the two answers agree. A slime channel 40 cells long (two areas at
** least) between two floors; the learner stands in its west end. */
Test(memory_sim, a_sliced_search_from_slime_allows_slime_as_the_one_pass_does)
{
    static const char *MAP = "return { name = 'slimy', cell_size = 0.5,\n"
                             "  legend = { ['#'] = 'solid', ['.'] = 'floor',\n"
                             "    ['%'] = { type = 'slime', h = -0.1, depth = 0.3 } },\n"
                             "  layers = { { name = 'g', z = 0, rows = [[\n"
                             "##################################################\n"
                             "#....%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%....#\n"
                             "#....%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%....#\n"
                             "#....%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%....#\n"
                             "##################################################\n"
                             "]] } } }\n";
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(MAP, strlen(MAP), "slimy.lua", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    NavAreaGraph *ag = sim_graph(sim, 0, &err);
    cr_assert_not_null(ag, "%s", err.message);
    int id = sim_add_bot(sim, &(NavBotDesc){ .pos = { 3.5f, 1.25f, 0.0f } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    NavError e2;
    cr_assert(sim_bot_learn(sim, (uint32_t)id, 64, &e2));
    cr_assert(sim_bot_set_sight_floors(sim, (uint32_t)id, false));
    const NavBot *b = sim_bot(sim, (uint32_t)id);
    float p[3];
    uint32_t start = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    if (start == NAV_NO_AREA) start = area_nearest_area(ag, b->pos[0], b->pos[1], b->pos[2], 2.0f, p);
    cr_assert_neq(start, NAV_NO_AREA);
    cr_assert(area_get(ag, start)->travel_flags & NAV_TFL_SLIME, "the bot does not stand in slime");
    uint32_t goal = area_point_area(ag, 23.0f, 1.25f, 0.0f);
    cr_assert_neq(goal, NAV_NO_AREA);
    memory_learn_reachable(sim_bot_memory(sim, (uint32_t)id), start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT | NAV_TFL_SLIME,
                           -1, 1);
    uint32_t links[256];
    SimMemRoute now, sliced;
    cr_assert(sim_bot_memory_route(sim, (uint32_t)id, goal, NAV_TFL_DEFAULT, true, links, 256, &now));
    cr_assert_neq(now.time, ROUTE_UNREACHABLE, "no route out of the slime at once");
    for (int t = 0; t < 200; t++) {
        cr_assert(sim_bot_memory_route(sim, (uint32_t)id, goal, NAV_TFL_DEFAULT, false, links, 256, &sliced));
        if (sliced.state != MEMSEARCH_RUNNING) break;
        sim_step(sim);
    }
    cr_assert_eq(sliced.state, now.state, "sliced: state %d, at once %d", sliced.state, now.state);
    cr_assert_eq(sliced.time, now.time, "sliced: %u, at once %u", sliced.time, now.time);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_sim.c — the simulation's physics: bodies never inside anything,
** walking, stepping, jumping, falling, crouching, and the entities that
** move bots (elevators, teleporters, jump pads, doors); determinism.
*/
#include <math.h>

#include "sim/sim.h"
#include "sim/sim_debug.h"
#include "test_support.h"

static NavSim *make_sim(const NavWorld *w, uint64_t seed)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = seed }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    return sim;
}

static uint32_t add_bot(NavSim *sim, float x, float y, float z)
{
    NavError err;
    nav_error_clear(&err);
    int id = sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { x, y, z } }, &err);
    cr_assert_geq(id, 0, "bot at (%g, %g, %g): %s", (double)x, (double)y, (double)z, err.message);
    return (uint32_t)id;
}

static const NavEntity *entity_named(const NavWorld *w, const char *name)
{
    int i = world_find_entity(w, name);
    cr_assert_geq(i, 0, "no entity %s", name);
    return world_entity(w, i);
}

/* Every bot's body overlaps nothing of the world. */
static void assert_bodies_free(const NavSim *sim)
{
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        float mins[3], maxs[3];
        sim_bot_box(sim, b, mins, maxs);
        cr_assert(world_box_fits(sim_world(sim), mins, maxs, b->pos),
                  "tick %llu: bot %u inside the world at (%g, %g, %g)", (unsigned long long)sim_tick(sim), i,
                  (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
    }
}

/* Steer bot straight at (x, y) for at most `ticks`; true once within r. */
static bool walk_to(NavSim *sim, uint32_t id, float x, float y, float r, int ticks)
{
    for (int t = 0; t < ticks; t++) {
        const NavBot *b = sim_bot(sim, id);
        float dx = x - b->pos[0], dy = y - b->pos[1], d = hypotf(dx, dy);
        if (d < r) {
            sim_bot_control(sim, id)->move[0] = sim_bot_control(sim, id)->move[1] = 0.0f;
            return true;
        }
        sim_bot_control(sim, id)->move[0] = dx / d;
        sim_bot_control(sim, id)->move[1] = dy / d;
        sim_step(sim);
        assert_bodies_free(sim);
    }
    return false;
}

Test(sim, walks_across_the_arena_and_stops_at_walls)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *a = entity_named(w, "spawn_a");
    uint32_t bot = add_bot(sim, a->mins[0], a->mins[1], a->mins[2]);
    cr_assert(sim_bot(sim, bot)->on_ground || (sim_step(sim), sim_bot(sim, bot)->on_ground));
    /* Open ground: it gets there at about run speed. */
    float x = a->mins[0] + 6.0f, y = a->mins[1];
    cr_assert(walk_to(sim, bot, x, y, 0.2f, 90), "did not cross 6 m of open floor in 3 s");
    cr_assert_lt(sim_time(sim), 1.6, "6 m at 6 m/s took %.2f s", sim_time(sim));
    /* West into the outer wall: stopped flush, never through. */
    for (int t = 0; t < 90; t++) {
        sim_bot_control(sim, bot)->move[0] = -1.0f;
        sim_bot_control(sim, bot)->move[1] = 0.0f;
        sim_step(sim);
        assert_bodies_free(sim);
    }
    const NavBot *b = sim_bot(sim, bot);
    cr_assert_geq(b->pos[0], 0.5f + 0.4f - 1e-3f, "through the west wall: x = %g", (double)b->pos[0]);
    cr_assert_lt(b->pos[0], 0.5f + 0.4f + 0.05f, "stopped short of the wall: x = %g", (double)b->pos[0]);
    cr_assert_gt(b->stuck_time, 1.0f, "pushing into a wall is being stuck");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, steps_onto_the_dais_and_jumps_the_low_wall)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *g = entity_named(w, "centre");
    /* From open floor south of the dais, walk onto it: a 0.4 m step. */
    uint32_t bot = add_bot(sim, g->mins[0], g->mins[1] - 2.0f, 0.0f);
    cr_assert(walk_to(sim, bot, g->mins[0], g->mins[1], 0.3f, 120), "did not reach the dais");
    for (int t = 0; t < 10; t++) sim_step(sim);
    cr_assert_float_eq(sim_bot(sim, bot)->pos[2], 0.4f, 1e-3f, "standing at %g, the dais is at 0.4",
                       (double)sim_bot(sim, bot)->pos[2]);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Find a cell of the given height with open floor on its south side. */
static bool find_low_wall(const NavWorld *w, float h, float *x, float *y)
{
    float s = world_cell_size(w);
    for (int cy = 1; cy < world_height(w) - 4; cy++)
        for (int cx = 1; cx < world_width(w) - 1; cx++) {
            int n, m, k;
            const NavFloor *f = world_column(w, cx, cy, &n);
            const NavFloor *below = world_column(w, cx, cy - 3, &m);
            const NavFloor *above = world_column(w, cx, cy + 3, &k);
            if (n == 1 && m == 1 && k == 1 && fabsf(f->z - h) < 1e-3f && below->z == 0.0f && above->z == 0.0f) {
                *x = ((float)cx + 0.5f) * s;
                *y = ((float)cy + 0.5f) * s;
                return true;
            }
        }
    return false;
}

Test(sim, a_wall_above_the_step_needs_a_jump)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    float x, y;
    cr_assert(find_low_wall(w, 1.0f, &x, &y), "arena has no 1 m wall with floor on both sides");
    NavSim *sim = make_sim(w, 1);
    uint32_t bot = add_bot(sim, x, y - 1.5f, 0.0f);
    /* Walking alone stops at the wall. */
    cr_assert_not(walk_to(sim, bot, x, y + 1.5f, 0.2f, 60), "walked through a 1 m wall");
    cr_assert_lt(sim_bot(sim, bot)->pos[1], y);
    /* With a jump it goes over and lands beyond. */
    sim_bot_control(sim, bot)->jump = true;
    bool over = walk_to(sim, bot, x, y + 1.5f, 0.2f, 90);
    cr_assert(over, "the jump did not clear the wall: at (%g, %g, %g)", (double)sim_bot(sim, bot)->pos[0],
              (double)sim_bot(sim, bot)->pos[1], (double)sim_bot(sim, bot)->pos[2]);
    /* A jump is named where it lands: on the wall's top (then off it) it is
    ** a barrier jump, clean over to the floor beyond a jump. */
    for (int t = 0; t < 60 && !sim_bot(sim, bot)->on_ground; t++) sim_step(sim);
    cr_assert(sim_bot(sim, bot)->travel_used & (NAV_TFL_TYPE(NAV_TRAVEL_JUMP) | NAV_TFL_TYPE(NAV_TRAVEL_BARRIER_JUMP)),
              "travel used 0x%x, pos z %g", sim_bot(sim, bot)->travel_used, (double)sim_bot(sim, bot)->pos[2]);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, gravity_drops_a_bot_on_the_exact_arc)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *a = entity_named(w, "spawn_a");
    uint32_t bot = add_bot(sim, a->mins[0] + 3.0f, a->mins[1], 0.0f);
    sim_step(sim);
    sim_bot_control(sim, bot)->jump = true;
    sim_step(sim);
    /* Up and down again: the flight lasts 2 v / g (to a tick). */
    int airborne = 0;
    while (!sim_bot(sim, bot)->on_ground && airborne < 200) {
        sim_step(sim);
        airborne++;
    }
    const NavClass *c = world_class(w, 0);
    float v = sim_jump_speed(w, c), t = 2.0f * v / world_gravity(w);
    cr_assert_leq(fabsf((float)(airborne + 1) * sim_dt(sim) - t), 2.0f * sim_dt(sim),
                  "flight %d ticks, expected %.3f s", airborne + 1, (double)t);
    cr_assert_float_eq(sim_bot(sim, bot)->pos[2], 0.0f, 1e-3f);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, teleporter_sends_and_does_not_bounce_back)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *t = entity_named(w, "tele_hall");
    float cx = 0.5f * (t->mins[0] + t->maxs[0]), cy = 0.5f * (t->mins[1] + t->maxs[1]);
    uint32_t bot = add_bot(sim, cx, cy + 2.0f, 0.0f);
    bool sent = false;
    for (int i = 0; i < 120 && !sent; i++) {
        walk_to(sim, bot, cx, cy, 0.05f, 1);
        sent = sim_bot(sim, bot)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_TELEPORT);
    }
    cr_assert(sent, "never teleported");
    const float *d = t->u.teleporter.dest;
    const NavBot *b = sim_bot(sim, bot);
    cr_assert_float_eq(b->pos[0], d[0], 0.05f);
    cr_assert_float_eq(b->pos[1], d[1], 0.05f);
    for (int i = 0; i < 30; i++) sim_step(sim);
    cr_assert_float_eq(sim_bot(sim, bot)->pos[0], d[0], 0.05f, "bounced back");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, jump_pad_lands_on_its_target)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *p = entity_named(w, "pad_perch");
    float cx = 0.5f * (p->mins[0] + p->maxs[0]), cy = 0.5f * (p->mins[1] + p->maxs[1]);
    uint32_t bot = add_bot(sim, cx, cy - 1.5f, 0.0f);
    bool launched = false;
    for (int i = 0; i < 60 && !launched; i++) {
        walk_to(sim, bot, cx, cy, 0.05f, 1);
        launched = sim_bot(sim, bot)->airborne_pad;
    }
    cr_assert(launched, "the pad did not launch");
    sim_bot_control(sim, bot)->move[0] = sim_bot_control(sim, bot)->move[1] = 0.0f;
    for (int i = 0; i < 150 && !sim_bot(sim, bot)->on_ground; i++) {
        sim_step(sim);
        assert_bodies_free(sim);
    }
    const float *target = p->u.jump_pad.target;
    const NavBot *b = sim_bot(sim, bot);
    cr_assert(b->on_ground);
    cr_assert_lt(hypotf(b->pos[0] - target[0], b->pos[1] - target[1]), 0.8f,
                 "landed at (%g, %g, %g), target (%g, %g, %g)", (double)b->pos[0], (double)b->pos[1], (double)b->pos[2],
                 (double)target[0], (double)target[1], (double)target[2]);
    cr_assert_float_eq(b->pos[2], target[2], 0.1f);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, elevator_carries_its_rider_up)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = make_sim(w, 1);
    int li = world_find_entity(w, "lift");
    const NavEntity *e = world_entity(w, li);
    float cx = 0.5f * (e->mins[0] + e->maxs[0]), cy = 0.5f * (e->mins[1] + e->maxs[1]);
    uint32_t bot = add_bot(sim, cx, cy, e->u.elevator.stops[0]);
    float top = e->u.elevator.stops[e->u.elevator.stop_count - 1];
    bool up = false;
    for (int i = 0; i < 30 * 20 && !up; i++) {
        sim_step(sim);
        assert_bodies_free(sim);
        up = sim_bot(sim, bot)->pos[2] >= top - 1e-3f;
    }
    cr_assert(up, "never reached the top stop: at %g, platform at %g", (double)sim_bot(sim, bot)->pos[2],
              (double)sim_entity(sim, li)->offset);
    cr_assert(sim_bot(sim, bot)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR));
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, bots_never_overlap)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    const NavEntity *a = entity_named(w, "spawn_a");
    enum { N = 12 };
    for (int i = 0; i < N; i++) add_bot(sim, 10.0f + 1.0f * (float)(i % 4), a->mins[1] - 1.0f * (float)(i / 4), 0.0f);
    /* Everyone heads for one point. */
    for (int t = 0; t < 150; t++) {
        for (uint32_t i = 0; i < N; i++) {
            const NavBot *b = sim_bot(sim, i);
            float dx = 12.0f - b->pos[0], dy = 11.5f - b->pos[1], d = hypotf(dx, dy);
            sim_bot_control(sim, i)->move[0] = d > 0.01f ? dx / d : 0.0f;
            sim_bot_control(sim, i)->move[1] = d > 0.01f ? dy / d : 0.0f;
        }
        sim_step(sim);
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = i + 1; j < N; j++) {
                const NavBot *p = sim_bot(sim, i), *q = sim_bot(sim, j);
                float r = world_class(w, 0)->radius;
                bool apart = fabsf(p->pos[0] - q->pos[0]) >= 2.0f * r - 1e-3f ||
                             fabsf(p->pos[1] - q->pos[1]) >= 2.0f * r - 1e-3f;
                cr_assert(apart, "tick %d: bots %u and %u overlap", t, i, j);
            }
    }
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static uint64_t run_crowd(const NavWorld *w, uint64_t seed)
{
    NavSim *sim = make_sim(w, seed);
    const NavEntity *a = entity_named(w, "spawn_start");
    for (int i = 0; i < 8; i++) add_bot(sim, a->mins[0] + (float)(i % 3), a->mins[1] - (float)(i / 3), 0.0f);
    for (int t = 0; t < 200; t++) {
        for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
            uint64_t r = sim_random(sim);
            NavBotControl *c = sim_bot_control(sim, i);
            c->move[0] = (float)(r & 0xFF) / 127.5f - 1.0f;
            c->move[1] = (float)(r >> 8 & 0xFF) / 127.5f - 1.0f;
            c->jump = (r >> 16 & 0xF) == 0;
        }
        sim_step(sim);
    }
    uint64_t h = sim_trace_hash(sim);
    sim_destroy(sim);
    return h;
}

Test(sim, same_seed_same_trace_hash)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    uint64_t a = run_crowd(w, 42), b = run_crowd(w, 42), c = run_crowd(w, 43);
    cr_assert_eq(a, b, "same seed, different runs: %llx vs %llx", (unsigned long long)a, (unsigned long long)b);
    cr_assert_neq(a, c, "another seed gave the same run");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(sim, bad_bots_are_refused)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(sim_add_bot(sim, &(NavBotDesc){ .cls = 5, .pos = { 3, 3, 0 } }, &err), -1);
    cr_assert(strstr(err.message, "class") != NULL, "%s", err.message);
    cr_assert_eq(sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { 0.1f, 0.1f, 0 } }, &err), -1,
                 "a bot inside the outer wall");
    cr_assert_eq(sim_bot_count(sim), 0);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* {======= from outside: held elevators, free spots ======= */

/* A held lift neither moves nor counts down its wait, with a rider on it
** mid-shaft; released, it carries on from where it stood. */
Test(sim, a_held_elevator_stays_put_and_carries_on_when_released)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSim *sim = make_sim(w, 1);
    int li = world_find_entity(w, "lift");
    const NavEntity *e = world_entity(w, li);
    float cx = 0.5f * (e->mins[0] + e->maxs[0]), cy = 0.5f * (e->mins[1] + e->maxs[1]);
    uint32_t bot = add_bot(sim, cx, cy, e->u.elevator.stops[0]);
    cr_assert_not(sim_elevator_hold(sim, world_find_entity(w, "door_hall"), true), "a door is not an elevator");
    cr_assert_not(sim_elevator_hold(sim, -1, true));
    /* Held at its first stop for ten seconds: its 2 s wait never runs out. */
    cr_assert(sim_elevator_hold(sim, li, true));
    for (int i = 0; i < 300; i++) sim_step(sim);
    cr_assert_eq(sim_entity(sim, li)->phase, 0);
    cr_assert_float_eq(sim_entity(sim, li)->offset, e->u.elevator.stops[0], 1e-6);
    cr_assert(sim_elevator_hold(sim, li, false));
    /* Let it rise halfway, hold it there with its rider, release it. */
    float mid = 0.5f * (e->u.elevator.stops[0] + e->u.elevator.stops[1]);
    for (int i = 0; i < 30 * 10 && sim_entity(sim, li)->offset < mid; i++) sim_step(sim);
    cr_assert_eq(sim_entity(sim, li)->phase, 1, "rising");
    cr_assert(sim_elevator_hold(sim, li, true));
    float held = sim_entity(sim, li)->offset, rider = sim_bot(sim, bot)->pos[2];
    for (int i = 0; i < 90; i++) {
        sim_step(sim);
        assert_bodies_free(sim);
    }
    cr_assert_float_eq(sim_entity(sim, li)->offset, held, 1e-6);
    cr_assert_float_eq(sim_bot(sim, bot)->pos[2], rider, 1e-4, "the rider sank or rose on a held platform");
    cr_assert(sim_elevator_hold(sim, li, false));
    /* Half of 4 m left at 2 m/s, then a 2 s wait at the top: 2 s in, there. */
    for (int i = 0; i < 60; i++) sim_step(sim);
    cr_assert_float_eq(sim_bot(sim, bot)->pos[2], e->u.elevator.stops[1], 1e-3, "released, it took its rider up");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Spots from sim_place_free stand on a floor and overlap nothing, bots
** placed before included; a spot inside a wall with no ring to spare has
** none. */
Test(sim, place_free_finds_spots_that_overlap_nothing)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w, 1);
    float want[3] = { 3.0f, 12.0f, 0.0f };
    for (int i = 0; i < 40; i++) {
        float p[3];
        cr_assert(sim_place_free(sim, 0, want, 0, p), "no spot for bot %d", i);
        add_bot(sim, p[0], p[1], p[2]);
    }
    assert_bodies_free(sim);
    for (uint32_t i = 0; i < sim_bot_count(sim); i++)
        for (uint32_t j = i + 1; j < sim_bot_count(sim); j++) {
            const NavBot *a = sim_bot(sim, i), *b = sim_bot(sim, j);
            float d = hypotf(a->pos[0] - b->pos[0], a->pos[1] - b->pos[1]);
            cr_assert_geq(d, 0.8f - 1e-4f, "bots %u and %u placed %.3f m apart", i, j, (double)d);
        }
    float wall[3] = { 0.1f, 0.1f, 0.0f }, p[3];
    cr_assert_not(sim_place_free(sim, 0, wall, 1, p), "a spot in the outer wall's corner, one ring around");
    cr_assert_not(sim_place_free(sim, 7, want, 0, p), "no such class");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* sim_elevator_eta against the elevator itself: from several moments of
** its cycle (waiting, moving up, moving down), each stop's predicted time
** is when the stepped simulation first has it waiting there (to a tick a
** stop passed on the way). */
Test(sim, elevator_eta_says_when_the_platform_stands_at_each_stop)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    int li = world_find_entity(w, "lift");
    const NavElevator *el = &world_entity(w, li)->u.elevator;
    cr_assert_geq(el->stop_count, 3, "tower's lift has stops to go round");
    static const int starts[] = { 0, 20, 75, 200, 400, 555 };
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        NavSim *sim = make_sim(w, 1);
        for (int i = 0; i < starts[k]; i++) sim_step(sim);
        float eta[16];
        for (int s = 0; s < el->stop_count; s++) eta[s] = sim_elevator_eta(sim, li, s);
        bool seen[16] = { false };
        const NavEntityState *st = sim_entity(sim, li);
        if (st->phase == 0) {
            cr_assert_eq(eta[st->stop], 0.0f, "waiting at stop %d now", st->stop);
            seen[st->stop] = true;
        }
        float dt = 1.0f / 30.0f;
        for (int i = 1; i <= 30 * 120; i++) {
            sim_step(sim);
            st = sim_entity(sim, li);
            if (st->phase != 0 || seen[st->stop]) continue;
            seen[st->stop] = true;
            /* (a wait's timer may run out a tick late: float steps) */
            cr_assert_float_eq(eta[st->stop], i * dt, (1.5f + 2 * el->stop_count) * dt,
                               "from tick %d, stop %d: predicted %.3f s, came at %.3f s", starts[k], st->stop,
                               (double)eta[st->stop], (double)(i * dt));
        }
        for (int s = 0; s < el->stop_count; s++) cr_assert(seen[s], "stop %d reached within 2 minutes", s);
        sim_destroy(sim);
    }
    /* No answer: not an elevator, no such stop, held away from the stop. */
    NavSim *sim = make_sim(w, 1);
    cr_assert(isinf(sim_elevator_eta(sim, -1, 0)));
    cr_assert(isinf(sim_elevator_eta(sim, li, el->stop_count)));
    cr_assert(sim_elevator_hold(sim, li, true));
    int at = sim_entity(sim, li)->stop;
    cr_assert_eq(sim_elevator_eta(sim, li, at), 0.0f);
    cr_assert(isinf(sim_elevator_eta(sim, li, (at + 1) % el->stop_count)));
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

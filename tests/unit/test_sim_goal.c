/*
** test_sim_goal.c — goals (sim_goal.c): arrival in rings round a shared
** goal point, stuck as no progress along the route, the floor under the
** world; and lift riders carried by hull traces (sim_move.c).
**
** The bots here are driven by plain C controllers (straight at a point,
** round a circle, along a router's links), so what is tested is the
** simulation's bookkeeping, not a brain's choices.
*/
#include <math.h>
#include <string.h>

#include "script/session.h"
#include "sim/sim.h"
#include "test_support.h"

/* {======= helpers ======= */

static NavSim *make_sim(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
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

/* A bot on a free spot as near (x, y, z) as sim_place_free finds. */
static uint32_t add_bot_near(NavSim *sim, float x, float y, float z)
{
    float want[3] = { x, y, z }, p[3];
    cr_assert(sim_place_free(sim, 0, want, 0, p), "no free spot near (%g, %g)", (double)x, (double)y);
    return add_bot(sim, p[0], p[1], p[2]);
}

static NavWorld *load_lua_map(const char *src)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(src, strlen(src), "test.lua", NULL, &err);
    char buf[1024];
    cr_assert_not_null(w, "map: %s", nav_error_format(&err, buf, sizeof buf));
    return w;
}

/* Every bot's body overlaps nothing of the world, and no other bot. */
static void assert_bodies_free(const NavSim *sim)
{
    const NavWorld *w = sim_world(sim);
    uint32_t n = sim_bot_count(sim);
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        float mins[3], maxs[3];
        sim_bot_box(sim, b, mins, maxs);
        cr_assert(world_box_fits(w, mins, maxs, b->pos), "tick %llu: bot %u inside the world at (%g, %g, %g)",
                  (unsigned long long)sim_tick(sim), i, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
        for (uint32_t j = i + 1; j < n; j++) {
            const NavBot *o = sim_bot(sim, j);
            float r = world_class(w, b->cls)->radius + world_class(w, o->cls)->radius - 1e-3f;
            bool apart = fabsf(b->pos[0] - o->pos[0]) >= r || fabsf(b->pos[1] - o->pos[1]) >= r ||
                         fabsf(b->pos[2] - o->pos[2]) >= world_class(w, 0)->height - 1e-3f;
            cr_assert(apart, "tick %llu: bots %u and %u overlap", (unsigned long long)sim_tick(sim), i, j);
        }
    }
}

static void steer(NavSim *sim, uint32_t id, float dx, float dy)
{
    float d = hypotf(dx, dy);
    NavBotControl *c = sim_bot_control(sim, id);
    c->move[0] = d > 1e-3f ? dx / d : 0.0f;
    c->move[1] = d > 1e-3f ? dy / d : 0.0f;
}

static void steer_at(NavSim *sim, uint32_t id, float x, float y)
{
    const NavBot *b = sim_bot(sim, id);
    steer(sim, id, x - b->pos[0], y - b->pos[1]);
}

static void stand(NavSim *sim, uint32_t id) { steer(sim, id, 0.0f, 0.0f); }

static float dist2d(const float a[3], float x, float y) { return hypotf(a[0] - x, a[1] - y); }

/* How far from the goal point the rings reach (sim_goal.c's bound). */
static float ring_bound(const NavWorld *w, float radius)
{
    return radius + (2.0f * world_class(w, 0)->radius + 0.12f) * (float)SIM_HOLD_DEPTH;
}

/* Two bodies touch: their boxes are within the touching gap. */
static bool touching(const NavSim *sim, uint32_t a, uint32_t b)
{
    const NavBot *p = sim_bot(sim, a), *q = sim_bot(sim, b);
    float reach = 2.0f * world_class(sim_world(sim), 0)->radius + 0.12f;
    return fabsf(p->pos[0] - q->pos[0]) <= reach && fabsf(p->pos[1] - q->pos[1]) <= reach;
}

/* }======= */

/* {======= arrival ======= */

/* An open room 30 x 30 m. */
static const char OPEN_ROOM[] =
    "local rows = { string.rep('#', 60) }\n"
    "for i = 1, 58 do rows[#rows + 1] = '#' .. string.rep('.', 58) .. '#' end\n"
    "rows[#rows + 1] = string.rep('#', 60)\n"
    "return { name = 'open', cell_size = 0.5, layers = { { name = 'ground', z = 0, rows = rows } } }\n";

/* n bots, each driven straight at (gx, gy) until it has arrived: all must
** arrive, none beyond the rings, and stay arrived. They start from free
** spots near the points `starts` (cycled). */
static void crowd_to_one_point(NavWorld *w, int n, const float (*starts)[2], int nstarts, float gx, float gy, int ticks)
{
    NavSim *sim = make_sim(w);
    for (int i = 0; i < n; i++) add_bot_near(sim, starts[i % nstarts][0], starts[i % nstarts][1], 0.0f);
    float goal[3] = { gx, gy, 0.0f };
    for (int i = 0; i < n; i++) cr_assert(sim_bot_push_goal(sim, (uint32_t)i, goal, 0.75f));
    int arrived = 0, t;
    for (t = 0; t < ticks && arrived < n; t++) {
        for (uint32_t i = 0; i < (uint32_t)n; i++) {
            if (sim_bot_arrived(sim, i)) stand(sim, i);
            else steer_at(sim, i, gx, gy);
        }
        sim_step(sim);
        assert_bodies_free(sim);
        arrived = 0;
        for (uint32_t i = 0; i < (uint32_t)n; i++) arrived += sim_bot_arrived(sim, i);
    }
    cr_assert_eq(arrived, n, "%d bots sent to (%g, %g): %d arrived in %d ticks", n, (double)gx, (double)gy, arrived, t);
    float bound = ring_bound(w, 0.75f);
    int in_radius = 0;
    for (uint32_t i = 0; i < (uint32_t)n; i++) {
        const NavBot *b = sim_bot(sim, i);
        float d = dist2d(b->pos, gx, gy);
        cr_assert_leq(d, bound, "bot %u arrived %.2f m from the point, the rings reach %.2f m", i, (double)d,
                      (double)bound);
        cr_assert_eq(b->goals_reached, 1);
        cr_assert(b->hold_depth >= 0 && b->hold_depth <= SIM_HOLD_DEPTH, "bot %u arrived holding ring %d", i,
                  b->hold_depth);
        in_radius += d <= 0.75f;
    }
    cr_assert_geq(in_radius, 1, "nobody stands within the goal's radius");
    /* Standing round it, they stay arrived. */
    for (int k = 0; k < 60; k++) {
        for (uint32_t i = 0; i < (uint32_t)n; i++) stand(sim, i);
        sim_step(sim);
    }
    for (uint32_t i = 0; i < (uint32_t)n; i++) cr_assert(sim_bot_arrived(sim, i));
    sim_destroy(sim);
}

/* Twelve from the north on the arena's open east side (x 15-23.5, y
** 0.5-13.5, three pillars at its edges). */
Test(sim_goal, twelve_bots_sent_to_one_point_all_arrive)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    static const float north[1][2] = { { 18.0f, 12.0f } };
    crowd_to_one_point(w, 12, north, 1, 18.0f, 5.0f, 30 * 20);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Forty coming in from eight sides 10 m off, in an open room. (From one
** side a straight line of bots pushes into a column deeper than the
** rings: a crowd that size needs a brain that spreads out.) */
Test(sim_goal, forty_bots_sent_to_one_point_all_arrive)
{
    NavWorld *w = load_lua_map(OPEN_ROOM);
    float round[8][2];
    for (int k = 0; k < 8; k++) {
        round[k][0] = 15.0f + 10.0f * cosf((float)k * 0.785398f);
        round[k][1] = 15.0f + 10.0f * sinf((float)k * 0.785398f);
    }
    crowd_to_one_point(w, 40, (const float(*)[2])round, 8, 15.0f, 15.0f, 30 * 30);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Holders of point P: `n` bots driven to P until all arrived. */
static void hold_point(NavSim *sim, int first, int n, float px, float py)
{
    for (int t = 0; t < 30 * 20; t++) {
        int arrived = 0;
        for (int i = first; i < first + n; i++) {
            if (sim_bot_arrived(sim, (uint32_t)i)) stand(sim, (uint32_t)i), arrived++;
            else steer_at(sim, (uint32_t)i, px, py);
        }
        if (arrived == n) return;
        sim_step(sim);
    }
    cr_assert_fail("the holders of (%g, %g) never all arrived", (double)px, (double)py);
}

/* A bot whose goal is another point walks along a crowd that holds P,
** touching it: it does not arrive by that, only at its own point. */
Test(sim_goal, passing_a_crowd_that_holds_another_point_is_not_arriving)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w);
    float p[3] = { 18.0f, 5.0f, 0.0f };
    for (int i = 0; i < 6; i++) add_bot_near(sim, 18.0f, 9.0f, 0.0f);
    for (uint32_t i = 0; i < 6; i++) sim_bot_push_goal(sim, i, p, 0.75f);
    hold_point(sim, 0, 6, p[0], p[1]);
    /* The crowd's west edge, and a passer heading south just inside it. */
    float west = 1e9f;
    for (uint32_t i = 0; i < 6; i++) west = fminf(west, sim_bot(sim, i)->pos[0]);
    /* Close enough to touch the west-most one (within 0.12 m), never
    ** blocked by any. */
    float lane = west - 2.0f * world_class(w, 0)->radius - 0.06f;
    uint32_t passer = add_bot(sim, lane, 10.0f, 0.0f);
    float q[3] = { lane, 1.5f, 0.0f };
    sim_bot_push_goal(sim, passer, q, 0.75f);
    int touches = 0;
    for (int t = 0; t < 30 * 6 && !sim_bot_arrived(sim, passer); t++) {
        for (uint32_t i = 0; i < 6; i++) stand(sim, i);
        steer_at(sim, passer, q[0], q[1]);
        sim_step(sim);
        for (uint32_t i = 0; i < 6; i++) touches += touching(sim, passer, i);
        const NavBot *b = sim_bot(sim, passer);
        if (sim_bot_arrived(sim, passer))
            cr_assert_leq(dist2d(b->pos, q[0], q[1]), 0.75f + 1e-4f,
                          "arrived at (%.2f, %.2f), %.2f m from its own goal", (double)b->pos[0], (double)b->pos[1],
                          (double)dist2d(b->pos, q[0], q[1]));
    }
    cr_assert_gt(touches, 2, "the passer never touched the crowd: the test proves nothing");
    cr_assert(sim_bot_arrived(sim, passer), "the passer never reached its own goal (%.2f, %.2f): at (%.2f, %.2f)",
              (double)q[0], (double)q[1], (double)sim_bot(sim, passer)->pos[0], (double)sim_bot(sim, passer)->pos[1]);
    cr_assert_eq(sim_bot(sim, passer)->hold_depth, 0);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A bot walks up to a holder standing on P and stops touching it: true if
** it arrived by that. Its goal is P with a small radius, which the holder's
** body keeps it out of. */
static bool arrives_by_touching(NavSim *sim, uint32_t holder, uint32_t comer, const float p[3])
{
    sim_bot_push_goal(sim, comer, p, 0.3f);
    for (int t = 0; t < 30 * 4 && !sim_bot_arrived(sim, comer); t++) {
        stand(sim, holder);
        steer_at(sim, comer, sim_bot(sim, holder)->pos[0], sim_bot(sim, holder)->pos[1]);
        sim_step(sim);
    }
    cr_assert(touching(sim, comer, holder), "bot %u never got to touch bot %u", comer, holder);
    cr_assert_gt(dist2d(sim_bot(sim, comer)->pos, p[0], p[1]), 0.3f, "bot %u got within the goal's radius", comer);
    return sim_bot_arrived(sim, comer);
}

/* A holder given somewhere new to go no longer holds: touching it is not
** arriving. Before that, touching it was. */
Test(sim_goal, a_holder_given_a_new_goal_stops_holding)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w);
    float p[3] = { 18.0f, 5.0f, 0.0f }, far[3] = { 3.0f, 2.0f, 0.0f };
    uint32_t holder = add_bot(sim, 18.0f, 7.0f, 0.0f);
    uint32_t first = add_bot(sim, 16.0f, 5.0f, 0.0f), second = add_bot(sim, 20.0f, 5.0f, 0.0f);
    sim_bot_push_goal(sim, holder, p, 0.3f);
    hold_point(sim, (int)holder, 1, p[0], p[1]);
    /* Let it settle on the point. */
    for (int t = 0; t < 15; t++) stand(sim, holder), sim_step(sim);
    cr_assert_eq(sim_bot(sim, holder)->hold_depth, 0);
    cr_assert(arrives_by_touching(sim, holder, first, p), "touching the holder was not arriving");
    cr_assert_eq(sim_bot(sim, first)->hold_depth, 1);
    /* Somewhere new to go (it stands still all the same). */
    cr_assert(sim_bot_push_goal(sim, holder, far, 0.75f));
    cr_assert_eq(sim_bot(sim, holder)->hold_depth, -1);
    cr_assert_not(arrives_by_touching(sim, holder, second, p), "arrived by touching a bot that had a new goal");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A holder that is moved far off stops holding, and coming back near the
** point does not make it a holder again. */
Test(sim_goal, a_holder_moved_far_off_stops_holding)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w);
    float p[3] = { 18.0f, 3.0f, 0.0f };
    uint32_t holder = add_bot(sim, 18.0f, 5.0f, 0.0f), comer = add_bot(sim, 16.0f, 3.0f, 0.0f);
    sim_bot_push_goal(sim, holder, p, 0.3f);
    hold_point(sim, (int)holder, 1, p[0], p[1]);
    cr_assert_eq(sim_bot(sim, holder)->hold_depth, 0);
    stand(sim, comer);
    /* North, 10 m off: further than the rings and two more. */
    float far = 2.0f * world_class(w, 0)->radius * (float)(SIM_HOLD_DEPTH + 2) + 1.0f;
    int t = 0;
    for (; t < 30 * 5 && dist2d(sim_bot(sim, holder)->pos, p[0], p[1]) <= far + 0.3f; t++) {
        steer(sim, holder, 0.0f, 1.0f);
        sim_step(sim);
        if (dist2d(sim_bot(sim, holder)->pos, p[0], p[1]) <= far - 0.3f)
            cr_assert_geq(sim_bot(sim, holder)->hold_depth, 0, "stopped holding %.2f m off",
                          (double)dist2d(sim_bot(sim, holder)->pos, p[0], p[1]));
    }
    cr_assert_gt(dist2d(sim_bot(sim, holder)->pos, p[0], p[1]), far, "could not get %.1f m off", (double)far);
    cr_assert_eq(sim_bot(sim, holder)->hold_depth, -1, "still holds %.2f m off",
                 (double)dist2d(sim_bot(sim, holder)->pos, p[0], p[1]));
    /* Back to a metre north of the point: near, still not holding. */
    for (t = 0; t < 30 * 5 && dist2d(sim_bot(sim, holder)->pos, p[0], p[1] + 1.0f) > 0.1f; t++) {
        steer_at(sim, holder, p[0], p[1] + 1.0f);
        sim_step(sim);
    }
    stand(sim, holder);
    for (t = 0; t < 15; t++) sim_step(sim);
    cr_assert_eq(sim_bot(sim, holder)->hold_depth, -1);
    cr_assert_not(arrives_by_touching(sim, holder, comer, p), "arrived by touching a bot that was moved far off");
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= progress and stuck ======= */

/* A room 30 x 12 m with a 1 m wall (a barrier jump) across it from the
** west wall to x 26.5, at y 5.5-6: walking, the way from south of it to
** north of it goes round its east end. */
static const char WALL_ROOM[] = "return {\n"
                                "  name = 'wall_room', cell_size = 0.5,\n"
                                "  legend = { ['-'] = { type = 'floor', h = 1.0 } },\n"
                                "  layers = { { name = 'ground', z = 0, rows = [[\n"
                                "############################################################\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#----------------------------------------------------......#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "#..........................................................#\n"
                                "############################################################\n"
                                "]] } },\n"
                                "}\n";

#define WALK_ONLY (NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_WALK_OFF_LEDGE))

static NavRouter *router_of(NavSim *sim)
{
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = sim_router(sim, 0, &err);
    cr_assert_not_null(r, "%s", err.message);
    return r;
}

static uint32_t area_at(const NavAreaGraph *ag, const float p[3])
{
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    float snapped[3];
    if (a == NAV_NO_AREA) a = area_nearest_area(ag, p[0], p[1], p[2], 1.0f, snapped);
    cr_assert_neq(a, NAV_NO_AREA, "no area at (%g, %g, %g)", (double)p[0], (double)p[1], (double)p[2]);
    return a;
}

/* The router's time from the bot to goal with flags, hundredths. */
static uint32_t time_left(NavSim *sim, uint32_t id, const float goal[3], uint32_t flags)
{
    NavRouter *r = router_of(sim);
    const NavAreaGraph *ag = router_graph(r);
    const NavBot *b = sim_bot(sim, id);
    NavRoute q;
    cr_assert(NAV_SUCCEEDED(router_route(r, area_at(ag, b->pos), b->pos, area_at(ag, goal), flags, &q)));
    return q.time;
}

/* Steer along the router's links to goal with flags: to the first link's
** start, then across to its end; in the goal's area, at the goal. */
typedef struct Follow {
    uint32_t link; /* the link being taken, or UINT32_MAX */
    bool crossing; /* past its start, heading for its end */
} Follow;

static void follow_route(NavSim *sim, uint32_t id, const float goal[3], uint32_t flags, Follow *f)
{
    NavRouter *r = router_of(sim);
    const NavAreaGraph *ag = router_graph(r);
    const NavBot *b = sim_bot(sim, id);
    uint32_t from = area_at(ag, b->pos), to = area_at(ag, goal);
    if (from == to) {
        steer_at(sim, id, goal[0], goal[1]);
        f->link = UINT32_MAX;
        return;
    }
    uint32_t links[256];
    NavRoute q;
    int n;
    cr_assert(NAV_SUCCEEDED(router_route_links(r, from, b->pos, to, flags, links, 256, &n, &q)));
    cr_assert_gt(n, 0, "no route from area %u to %u", from, to);
    if (links[0] != f->link) {
        /* A new first link, unless this is the end of the one being
        ** crossed (the bot is in its target area already). */
        if (!(f->crossing && f->link != UINT32_MAX && area_reach(ag, f->link)->to == from)) {
            f->link = links[0];
            f->crossing = false;
        }
    }
    if (f->link != links[0] && area_reach(ag, f->link)->to == from &&
        dist2d(b->pos, area_reach(ag, f->link)->end[0], area_reach(ag, f->link)->end[1]) < 0.3f) {
        f->link = links[0];
        f->crossing = false;
    }
    const NavReach *l = area_reach(ag, f->link);
    if (!f->crossing && dist2d(b->pos, l->start[0], l->start[1]) < 0.3f) f->crossing = true;
    const float *at = f->crossing ? l->end : l->start;
    steer_at(sim, id, at[0], at[1]);
}

/* How the bot's brain routes in walk_round_the_wall. */
enum { JUDGE_DEFAULT, JUDGE_WALK_FLAGS, JUDGE_SHUNNED_JUMPS };

/* Walking a route at speed with a goal is progress every moment: the
** router's time falls. Judged with the flags of the bot's route, or with
** every travel type but the links over the wall shunned (as a brain does
** that routes round a lift it would wait long for), the walk round the
** wall is progress; judged with every travel type (the jump over the wall
** is faster), walking away from the wall is none. */
static void walk_round_the_wall(int judge, float *stuck_max)
{
    NavWorld *w = load_lua_map(WALL_ROOM);
    NavSim *sim = make_sim(w);
    uint32_t bot = add_bot(sim, 13.5f, 4.0f, 0.0f);
    float goal[3] = { 13.5f, 8.0f, 0.0f };
    sim_bot_push_goal(sim, bot, goal, 0.75f);
    if (judge == JUDGE_WALK_FLAGS) sim_bot_set_route(sim, bot, WALK_ONLY, NULL, 0);
    if (judge == JUDGE_SHUNNED_JUMPS) {
        const NavAreaGraph *ag = router_graph(router_of(sim));
        RouteAvoid avoid[SIM_ROUTE_AVOID_MAX];
        int n = 0;
        for (uint32_t k = 0; k < area_reach_count(ag) && n < SIM_ROUTE_AVOID_MAX; k++)
            if (!(area_reach(ag, k)->travel_flags & WALK_ONLY)) avoid[n++] = (RouteAvoid){ k, 6000 };
        cr_assert_gt(n, 0, "no link but walks to shun");
        cr_assert_lt(n, SIM_ROUTE_AVOID_MAX, "more links than one list holds");
        cr_assert(sim_bot_set_route(sim, bot, NAV_TFL_DEFAULT, avoid, n));
    }
    /* The walk is the long way: the default flags jump the wall. */
    uint32_t walk = time_left(sim, bot, goal, WALK_ONLY), any = time_left(sim, bot, goal, NAV_TFL_DEFAULT);
    cr_assert_gt(walk, any + 150, "walking round takes %u, jumping %u: no detour to test", walk, any);
    Follow f = { UINT32_MAX, false };
    *stuck_max = 0.0f;
    int t = 0;
    for (; t < 30 * 15 && !sim_bot_arrived(sim, bot); t++) {
        follow_route(sim, bot, goal, WALK_ONLY, &f);
        sim_step(sim);
        assert_bodies_free(sim);
        cr_assert_eq(sim_bot(sim, bot)->travel_used & ~WALK_ONLY, 0, "took more than walks: %#x",
                     sim_bot(sim, bot)->travel_used);
        *stuck_max = fmaxf(*stuck_max, sim_bot(sim, bot)->stuck_time);
    }
    cr_assert(sim_bot_arrived(sim, bot), "never got round the wall: at (%g, %g) after %d ticks",
              (double)sim_bot(sim, bot)->pos[0], (double)sim_bot(sim, bot)->pos[1], t);
    cr_assert_float_eq(sim_bot(sim, bot)->stuck_max, *stuck_max, 1e-6);
    sim_destroy(sim);
    world_destroy(w);
}

Test(sim_goal, walking_a_route_is_never_stuck_by_its_flags)
{
    float with, shunned, without;
    walk_round_the_wall(JUDGE_WALK_FLAGS, &with);
    cr_assert_eq(with, 0.0f, "walking the route at speed, stuck for %.2f s", (double)with);
    walk_round_the_wall(JUDGE_SHUNNED_JUMPS, &shunned);
    cr_assert_eq(shunned, 0.0f, "walking round the shunned links at speed, stuck for %.2f s", (double)shunned);
    walk_round_the_wall(JUDGE_DEFAULT, &without);
    cr_assert_gt(without, 0.5f, "judged by the jump, walking away from the wall was progress (stuck at most %.2f s)",
                 (double)without);
    NAV_TEST_LEAK_CHECK();
}

/* Round and round, or to and fro, at full speed with a far goal: always
** moving, never getting nearer. */
static float move_without_progress(bool circle, bool with_router)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w);
    if (with_router) router_of(sim);
    float c[2] = { 5.0f, 2.5f };
    uint32_t bot = add_bot(sim, c[0] + 1.5f, c[1], 0.0f);
    float goal[3] = { 20.0f, 12.5f, 0.0f }; /* north-east, far */
    sim_bot_push_goal(sim, bot, goal, 0.75f);
    float min_step = 1e9f;
    for (int t = 0; t < 30 * 5; t++) {
        const NavBot *x = sim_bot(sim, bot);
        if (circle) {
            /* Head for a point a quarter turn ahead on a 1.5 m circle. */
            float a = atan2f(x->pos[1] - c[1], x->pos[0] - c[0]) + 0.9f;
            steer_at(sim, bot, c[0] + 1.5f * cosf(a), c[1] + 1.5f * sinf(a));
        } else {
            steer(sim, bot, (t / 20) % 2 ? -1.0f : 1.0f, 0.0f);
        }
        float before[2] = { x->pos[0], x->pos[1] };
        sim_step(sim);
        assert_bodies_free(sim);
        if (t > 15) min_step = fminf(min_step, hypotf(x->pos[0] - before[0], x->pos[1] - before[1]));
    }
    cr_assert_eq(sim_bot(sim, bot)->goals_reached, 0);
    if (circle) cr_assert_gt(min_step, 0.05f, "the bot stood still at times (%.3f m in a tick)", (double)min_step);
    float m = sim_bot(sim, bot)->stuck_max;
    sim_destroy(sim);
    world_destroy(w);
    return m;
}

Test(sim_goal, circling_or_pacing_with_a_far_goal_is_stuck)
{
    float m;
    m = move_without_progress(true, true);
    cr_assert_gt(m, 3.0f, "circled for 5 s, longest stuck spell %.2f s", (double)m);
    m = move_without_progress(false, true);
    cr_assert_gt(m, 3.0f, "paced for 5 s, longest stuck spell %.2f s", (double)m);
    /* With no router yet, the straight distance is the measure. */
    m = move_without_progress(true, false);
    cr_assert_gt(m, 3.0f, "circled for 5 s with no router, longest stuck spell %.2f s", (double)m);
    NAV_TEST_LEAK_CHECK();
}

/* With no goal, stuck is wishing to move and not moving: pushing a wall
** is; standing still, or walking freely, is not. */
Test(sim_goal, no_goal_pushing_a_wall_is_stuck)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = make_sim(w);
    uint32_t bot = add_bot(sim, 16.0f, 4.0f, 0.0f);
    for (int t = 0; t < 60; t++) {
        stand(sim, bot);
        sim_step(sim);
        cr_assert_eq(sim_bot(sim, bot)->stuck_time, 0.0f, "standing still with nowhere to go is not stuck");
    }
    for (int t = 0; t < 20; t++) {
        steer(sim, bot, 1.0f, 0.0f);
        sim_step(sim);
        cr_assert_eq(sim_bot(sim, bot)->stuck_time, 0.0f, "walking freely is not stuck");
    }
    for (int t = 0; t < 90; t++) {
        steer(sim, bot, 0.0f, -1.0f);
        sim_step(sim);
    }
    cr_assert_gt(sim_bot(sim, bot)->stuck_time, 1.5f, "pushing the south wall for 3 s, stuck %.2f s",
                 (double)sim_bot(sim, bot)->stuck_time);
    cr_assert_geq(sim_bot(sim, bot)->stuck_total, sim_bot(sim, bot)->stuck_time);
    stand(sim, bot);
    sim_step(sim);
    cr_assert_eq(sim_bot(sim, bot)->stuck_time, 0.0f, "stopped pushing, still stuck");
    cr_assert_gt(sim_bot(sim, bot)->stuck_max, 1.5f);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A room 20 x 20 m round a solid block (x 3-17, y 3-17): two ways round. */
static const char RING_ROOM[] =
    "local rows = { string.rep('#', 40) }\n"
    "for i = 1, 38 do\n"
    "  local mid = (i >= 6 and i <= 33) and string.rep('#', 28) or string.rep('.', 28)\n"
    "  rows[#rows + 1] = '#.....' .. mid .. '.....#'\n"
    "end\n"
    "rows[#rows + 1] = string.rep('#', 40)\n"
    "return { name = 'ring', cell_size = 0.5, layers = { { name = 'ground', z = 0, rows = rows } } }\n";

/* An obstacle that makes the route much longer forgets the best time so
** far: following the new route is progress at once, where the old best
** would have called it none until the detour was walked off. A bot
** going round a block the short way finds an area ahead of it blocked
** (obstacles disable the links into the areas they overlap) and goes the
** long way round. */
Test(sim_goal, an_obstacle_forgets_the_best_no_stuck_after_a_reroute)
{
    NavWorld *w = load_lua_map(RING_ROOM);
    NavSim *sim = make_sim(w);
    uint32_t bot = add_bot(sim, 1.75f, 5.0f, 0.0f);
    float goal[3] = { 18.25f, 4.0f, 0.0f };
    sim_bot_push_goal(sim, bot, goal, 0.75f);
    sim_bot_set_route(sim, bot, WALK_ONLY, NULL, 0);
    Follow f = { UINT32_MAX, false };
    for (int t = 0; t < 10; t++) {
        follow_route(sim, bot, goal, WALK_ONLY, &f);
        sim_step(sim);
        cr_assert_eq(sim_bot(sim, bot)->stuck_time, 0.0f);
    }
    uint32_t before = time_left(sim, bot, goal, WALK_ONLY);
    /* A small box in an area the route crosses (disabling the links into
    ** it), the first that leaves a way round at least 1.5 s longer. */
    NavRouter *r = router_of(sim);
    const NavAreaGraph *ag = router_graph(r);
    uint32_t links[64], from = area_at(ag, sim_bot(sim, bot)->pos), to = area_at(ag, goal);
    NavRoute q;
    int n;
    cr_assert(NAV_SUCCEEDED(router_route_links(r, from, sim_bot(sim, bot)->pos, to, WALK_ONLY, links, 64, &n, &q)));
    uint32_t after = 0;
    for (int k = 0; k + 1 < n && after == 0; k++) {
        const NavArea *a = area_get(ag, area_reach(ag, links[k])->to);
        float mins[3] = { a->center[0] - 0.1f, a->center[1] - 0.1f, a->center[2] - 1.0f };
        float maxs[3] = { a->center[0] + 0.1f, a->center[1] + 0.1f, a->center[2] + 2.0f };
        uint32_t id = sim_add_obstacle(sim, mins, maxs);
        uint32_t t = time_left(sim, bot, goal, WALK_ONLY);
        if (t != ROUTE_UNREACHABLE && t > before + 150) after = t;
        else sim_remove_obstacle(sim, id);
    }
    cr_assert_neq(after, 0, "no area on the route whose loss leaves a long way round: nothing to test");
    f.link = UINT32_MAX;
    float worst = 0.0f;
    int t = 0;
    for (; t < 30 * 15 && !sim_bot_arrived(sim, bot); t++) {
        follow_route(sim, bot, goal, WALK_ONLY, &f);
        sim_step(sim);
        assert_bodies_free(sim);
        worst = fmaxf(worst, sim_bot(sim, bot)->stuck_time);
    }
    cr_assert(sim_bot_arrived(sim, bot), "never got round the obstacle: at (%g, %g)", (double)sim_bot(sim, bot)->pos[0],
              (double)sim_bot(sim, bot)->pos[1]);
    cr_assert_eq(worst, 0.0f, "following the new route, stuck for %.2f s", (double)worst);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= below the world ======= */

/* Walking east into the pit of tests/scenarios/maps/hole.lua (x 6-8):
** the body falls, is stopped exactly 10 m under the lowest floor (z 0)
** and never moves again, whatever its controls. */
Test(sim_goal, a_body_under_every_floor_is_stopped_10_m_down)
{
    NavWorld *w = test_load_map("tests/scenarios/maps/hole.lua");
    NavSim *sim = make_sim(w);
    uint32_t bot = add_bot(sim, 2.25f, 2.25f, 0.0f), other = add_bot(sim, 2.25f, 1.0f, 0.0f);
    int t = 0;
    for (; t < 30 * 6 && !sim_bot(sim, bot)->fell; t++) {
        steer(sim, bot, 1.0f, 0.0f);
        sim_step(sim);
        cr_assert_geq(sim_bot(sim, bot)->pos[2], -10.0f - 1e-4f, "tick %d: at z %g", t,
                      (double)sim_bot(sim, bot)->pos[2]);
    }
    const NavBot *b = sim_bot(sim, bot);
    cr_assert(b->fell, "never fell: at (%g, %g, %g)", (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
    cr_assert_float_eq(b->pos[2], -10.0f, 1e-4f, "stopped at z %g", (double)b->pos[2]);
    cr_assert(b->pos[0] > 6.0f && b->pos[0] < 8.0f, "stopped at x %g, the pit is at x 6-8", (double)b->pos[0]);
    cr_assert_eq(memcmp(b->fell_at, b->pos, sizeof b->pos), 0, "fell_at is not where it stopped");
    float stopped[3];
    memcpy(stopped, b->pos, sizeof stopped);
    for (int k = 0; k < 60; k++) {
        steer(sim, bot, (k & 1) ? -1.0f : 1.0f, 1.0f);
        sim_bot_control(sim, bot)->jump = true;
        sim_step(sim);
        b = sim_bot(sim, bot);
        cr_assert_eq(memcmp(b->pos, stopped, sizeof stopped), 0, "moved after falling out: (%g, %g, %g)",
                     (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
        cr_assert(b->vel[0] == 0.0f && b->vel[1] == 0.0f && b->vel[2] == 0.0f);
    }
    cr_assert_not(sim_bot(sim, other)->fell, "the bot on the floor fell too");
    cr_assert_float_eq(sim_bot(sim, other)->pos[2], 0.0f, 1e-4f);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static void quiet(void *user, const char *line) { (void)user, (void)line; }

/* In a session the fallen bot's brain faults, saying where; another bot's
** brain runs on. */
Test(sim_goal, a_fallen_bot_s_brain_faults_saying_where)
{
    NavWorld *w = test_load_map("tests/scenarios/maps/hole.lua");
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(
        w, &(NavSessionDesc){ .root = ".", .extra_roots = { "tests/scenarios", NULL }, .seed = 1, .log = quiet }, &err);
    cr_assert_not_null(s, "%s", err.message);
    /* pacer walks east at half speed: one into the pit, one from east of
    ** it to the east wall. */
    int walker = session_add_bot(s, "pacer", &(NavBotDesc){ .cls = 0, .pos = { 2.25f, 2.25f, 0.0f } }, &err);
    int safe = session_add_bot(s, "pacer", &(NavBotDesc){ .cls = 0, .pos = { 9.0f, 2.25f, 0.0f } }, &err);
    cr_assert(walker >= 0 && safe >= 0, "%s", err.message);
    int t = 0;
    for (; t < 30 * 8 && !session_bot_faulted(s, (uint32_t)walker); t++) session_step(s);
    cr_assert(session_bot_faulted(s, (uint32_t)walker), "no fault after %d ticks", t);
    const NavBot *b = sim_bot(session_sim(s), (uint32_t)walker);
    cr_assert(b->fell);
    char want[128];
    snprintf(want, sizeof want, "fell out of the world at (%.2f, %.2f, %.2f)", (double)b->fell_at[0],
             (double)b->fell_at[1], (double)b->fell_at[2]);
    const char *e = session_bot_error(s, (uint32_t)walker);
    cr_assert(e && strstr(e, want), "error '%s', want '%s'", e ? e : "(none)", want);
    cr_assert(strstr(want, "-10.00)"), "%s", want);
    for (int k = 0; k < 30; k++) session_step(s);
    cr_assert_not(session_bot_faulted(s, (uint32_t)safe), "the other bot faulted: %s",
                  session_bot_error(s, (uint32_t)safe));
    cr_assert_str_eq(session_bot_error(s, (uint32_t)walker), e, "faulted again");
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= lift riders ======= */

/* A lift 4 x 3 m (x 2-6, y 1-4) from 0 to 4 m; over its west half (x
** 2-4, y 1.5-3.5) a ceiling at 3 m. */
static const char LIFT_ROOM[] = "return { name = 'lift', cell_size = 0.5,\n"
                                "  legend = { ['c'] = { type = 'floor', ceiling = 3.0 } },\n"
                                "  layers = { { name = 'ground', z = 0, rows = {\n"
                                "    '##################',\n"
                                "    '#................#',\n"
                                "    '#................#',\n"
                                "    '#...cccc.........#',\n"
                                "    '#...cccc.........#',\n"
                                "    '#...cccc.........#',\n"
                                "    '#...cccc.........#',\n"
                                "    '#................#',\n"
                                "    '#................#',\n"
                                "    '##################' } } },\n"
                                "  entities = { { type = 'elevator', name = 'lift', min = { 2, 1 }, max = { 6, 4 },\n"
                                "                 stops = { 0, 4 }, speed = 2, wait = 2 } } }\n";

/* A rider under the ceiling is never carried into it: the platform stops
** where the rider is blocked, stays while it is, and carries on once the
** rider has walked out from under the ceiling. */
Test(sim_goal, a_lift_stops_where_its_rider_is_blocked_above)
{
    NavWorld *w = load_lua_map(LIFT_ROOM);
    NavSim *sim = make_sim(w);
    int li = world_find_entity(w, "lift");
    uint32_t bot = add_bot(sim, 3.0f, 2.5f, 0.0f);
    float height = world_class(w, 0)->height;
    /* Its 2 s wait, then up until blocked; then 2 s more. */
    float highest = 0.0f;
    for (int t = 0; t < 30 * 6; t++) {
        stand(sim, bot);
        sim_step(sim);
        assert_bodies_free(sim);
        highest = fmaxf(highest, sim_entity(sim, li)->offset);
        cr_assert_leq(sim_bot(sim, bot)->pos[2] + height, 3.0f + 1e-4f, "tick %d: head at %g, the ceiling at 3", t,
                      (double)(sim_bot(sim, bot)->pos[2] + height));
    }
    const NavEntityState *e = sim_entity(sim, li);
    cr_assert_float_eq(e->offset, 3.0f - height, 0.01f, "the platform stopped at %g, the rider fits up to %g",
                       (double)e->offset, (double)(3.0f - height));
    cr_assert_float_eq(highest, e->offset, 1e-6, "it went up to %g and came back to %g", (double)highest,
                       (double)e->offset);
    cr_assert_eq(e->phase, 1, "blocked, it is still on its way up");
    cr_assert_float_eq(sim_bot(sim, bot)->pos[2], e->offset, 2e-3f, "the rider is not on the platform");
    /* Out from under the ceiling (east half), then up to the top. */
    bool up = false;
    for (int t = 0; t < 30 * 6 && !up; t++) {
        if (sim_bot(sim, bot)->pos[0] < 5.0f) steer(sim, bot, 1.0f, 0.0f);
        else stand(sim, bot);
        sim_step(sim);
        assert_bodies_free(sim);
        up = sim_bot(sim, bot)->pos[2] >= 4.0f - 1e-3f;
    }
    cr_assert(up, "never carried on up: rider at %g, platform at %g", (double)sim_bot(sim, bot)->pos[2],
              (double)sim_entity(sim, li)->offset);
    cr_assert(sim_bot(sim, bot)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR));
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A ride in the open is as it always was: the rider's feet on the
** platform all the way up and down, and the platform keeps the times it
** keeps with nobody on it. */
Test(sim_goal, an_open_ride_keeps_its_times)
{
    NavWorld *w = load_lua_map(LIFT_ROOM);
    NavSim *ridden = make_sim(w), *empty = make_sim(w);
    int li = world_find_entity(w, "lift");
    uint32_t rider = add_bot(ridden, 5.0f, 2.5f, 0.0f);
    add_bot(empty, 7.5f, 2.5f, 0.0f); /* beside it */
    int top_ridden = -1, top_empty = -1, bottom_ridden = -1, bottom_empty = -1;
    for (int t = 0; t < 30 * 12; t++) {
        stand(ridden, rider);
        sim_step(ridden);
        sim_step(empty);
        assert_bodies_free(ridden);
        float a = sim_entity(ridden, li)->offset, b = sim_entity(empty, li)->offset;
        cr_assert_float_eq(a, b, 1e-6, "tick %d: the ridden platform at %g, the empty one at %g", t, (double)a,
                           (double)b);
        cr_assert_float_eq(sim_bot(ridden, rider)->pos[2], a, 2e-3f, "tick %d: rider at %g, platform at %g", t,
                           (double)sim_bot(ridden, rider)->pos[2], (double)a);
        if (top_ridden < 0 && a >= 4.0f - 1e-4f) top_ridden = t;
        if (top_empty < 0 && b >= 4.0f - 1e-4f) top_empty = t;
        if (top_ridden >= 0 && bottom_ridden < 0 && a <= 1e-4f) bottom_ridden = t;
        if (top_empty >= 0 && bottom_empty < 0 && b <= 1e-4f) bottom_empty = t;
    }
    /* 2 s wait, 4 m at 2 m/s: at the top 4 s in. */
    cr_assert(top_ridden >= 0 && bottom_ridden >= 0, "the ride did not go up and down in 12 s");
    cr_assert_eq(top_ridden, top_empty);
    cr_assert_eq(bottom_ridden, bottom_empty);
    cr_assert_leq(abs(top_ridden + 1 - 4 * 30), 1, "at the top after %d ticks, 4 s is 120", top_ridden + 1);
    sim_destroy(ridden);
    sim_destroy(empty);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

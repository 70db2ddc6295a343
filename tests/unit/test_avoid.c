/*
** test_avoid.c — reciprocal avoidance (sim_avoid.c): the solver against a
** brute-force search of the velocity plane, bots passing head-on in a
** corridor and swapping sides on a circle without their discs meeting,
** forbidden water and ledges never entered however a bot is pushed (with
** the same runs without the forbid bits as controls: those do enter),
** determinism, and the Lua bindings with their errors.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "core/random.h"
#include "script/nav_api.h"
#include "lua/sandbox.h"
#include "sim/sim.h"
#include "test_support.h"

/* {======= helpers ======= */

static NavWorld *load_map(const char *src)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_lua(src, strlen(src), "=test", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

static NavSim *make_sim(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 3 }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    return sim;
}

static uint32_t add_bot(NavSim *sim, float x, float y, float z)
{
    NavError err;
    nav_error_clear(&err);
    int id = sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { x, y, z } }, &err);
    cr_assert_geq(id, 0, "bot at (%g, %g): %s", (double)x, (double)y, err.message);
    return (uint32_t)id;
}

static void avoid_on(NavSim *sim, uint32_t id, uint32_t forbid)
{
    cr_assert(sim_bot_set_avoid(sim, id, &(NavAvoidDesc){ .on = true, .forbid = forbid }));
}

/* Wish toward (x, y) at full speed; nothing once within r. True when there. */
static bool steer(NavSim *sim, uint32_t id, float x, float y, float r)
{
    const NavBot *b = sim_bot(sim, id);
    float dx = x - b->pos[0], dy = y - b->pos[1], d = hypotf(dx, dy);
    NavBotControl *c = sim_bot_control(sim, id);
    if (d < r) {
        c->move[0] = c->move[1] = 0.0f;
        return true;
    }
    c->move[0] = dx / d;
    c->move[1] = dy / d;
    return false;
}

static float min_pair_distance(const NavSim *sim)
{
    float best = INFINITY;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++)
        for (uint32_t j = i + 1; j < sim_bot_count(sim); j++) {
            const NavBot *a = sim_bot(sim, i), *b = sim_bot(sim, j);
            best = fminf(best, hypotf(a->pos[0] - b->pos[0], a->pos[1] - b->pos[1]));
        }
    return best;
}

/* }======= */

/* {======= the solver against brute force ======= */

static float frand(uint64_t *s) { return (float)(nav_rand_next(s) >> 40) / (float)(1u << 24); }

Test(avoid, solver_keeps_its_hard_lines_and_is_optimal_by_brute_force)
{
    uint64_t seed = 12345;
    int feasible = 0, infeasible = 0;
    for (int trial = 0; trial < 400; trial++) {
        int count = 1 + (int)(frand(&seed) * 12), hard = (int)(frand(&seed) * 4);
        if (hard > count) hard = count;
        float n[SIM_AVOID_MAX_LINES][2], c[SIM_AVOID_MAX_LINES];
        float vmax = 1.0f + 4.0f * frand(&seed);
        for (int i = 0; i < count; i++) {
            float a = 6.2831853f * frand(&seed);
            n[i][0] = cosf(a), n[i][1] = sinf(a);
            /* Hard lines as obstacles make them: the origin always allowed. */
            c[i] = i < hard ? -vmax * frand(&seed) : vmax * (2.0f * frand(&seed) - 1.0f);
        }
        float pref[2] = { vmax * (3.0f * frand(&seed) - 1.5f), vmax * (3.0f * frand(&seed) - 1.5f) }, v[2];
        bool all = sim_avoid_solve((const float(*)[2])n, c, count, hard, vmax, pref, v);
        cr_assert_leq(hypotf(v[0], v[1]), vmax * 1.0001f + 1e-4f, "trial %d: over the speed", trial);
        for (int i = 0; i < hard; i++)
            cr_assert_geq(n[i][0] * v[0] + n[i][1] * v[1], c[i] - 1e-3f, "trial %d: hard line %d crossed", trial, i);
        /* Brute force over the speed disc: the best point satisfying all
        ** lines, and the least worst violation of the soft lines among
        ** points keeping the hard ones. */
        float best = INFINITY, least = INFINITY;
        const int G = 240;
        for (int gy = -G; gy <= G; gy++)
            for (int gx = -G; gx <= G; gx++) {
                float p[2] = { vmax * (float)gx / G, vmax * (float)gy / G };
                if (p[0] * p[0] + p[1] * p[1] > vmax * vmax) continue;
                bool hard_ok = true;
                float worst = 0.0f;
                for (int i = 0; i < count; i++) {
                    float s = n[i][0] * p[0] + n[i][1] * p[1] - c[i];
                    if (i < hard) hard_ok = hard_ok && s >= 0.0f;
                    else worst = fmaxf(worst, -s);
                }
                if (!hard_ok) continue;
                if (worst <= 0.0f) best = fminf(best, hypotf(p[0] - pref[0], p[1] - pref[1]));
                least = fminf(least, worst);
            }
        float cell = 1.5f * vmax / G;
        if (all) {
            feasible++;
            for (int i = 0; i < count; i++)
                cr_assert_geq(n[i][0] * v[0] + n[i][1] * v[1], c[i] - 1e-3f, "trial %d: line %d crossed", trial, i);
            if (isfinite(best))
                cr_assert_leq(hypotf(v[0] - pref[0], v[1] - pref[1]), best + 1e-3f,
                              "trial %d: a sampled velocity is nearer the preferred one", trial);
        } else {
            infeasible++;
            cr_assert(!isfinite(best) || best > 0.0f, "trial %d", trial);
            /* No sample satisfies everything by more than the sampling step. */
            float worst = 0.0f;
            for (int i = hard; i < count; i++) worst = fmaxf(worst, c[i] - (n[i][0] * v[0] + n[i][1] * v[1]));
            cr_assert_leq(worst, least + cell + 1e-3f, "trial %d: violation %g, brute force %g", trial, (double)worst,
                          (double)least);
        }
    }
    cr_assert_gt(feasible, 50);
    cr_assert_gt(infeasible, 20);
}

/* }======= */

/* {======= bots ======= */

static const char CORRIDOR[] = "return { layers = { { rows = {\n"
                               "  '############################################',\n"
                               "  '#..........................................#',\n"
                               "  '#..........................................#',\n"
                               "  '#..........................................#',\n"
                               "  '#..........................................#',\n"
                               "  '#..........................................#',\n"
                               "  '############################################',\n"
                               "} } } }\n";

/* Two bots from the corridor's ends to each other's; returns the closest
** their centres came, and whether both arrived within 20 s. */
static bool head_on(bool avoid, float *closest)
{
    NavWorld *w = load_map(CORRIDOR);
    NavSim *sim = make_sim(w);
    float y = 1.75f; /* the middle of rows 1..5 (0.5 m cells, y from 0.5 to 3.0) */
    uint32_t a = add_bot(sim, 1.5f, y, 0.0f), b = add_bot(sim, 20.5f, y, 0.0f);
    if (avoid) avoid_on(sim, a, 0), avoid_on(sim, b, 0);
    *closest = INFINITY;
    bool done = false;
    for (int t = 0; t < 600 && !done; t++) {
        bool ia = steer(sim, a, 20.5f, y, 0.3f), ib = steer(sim, b, 1.5f, y, 0.3f);
        done = ia && ib;
        sim_step(sim);
        *closest = fminf(*closest, min_pair_distance(sim));
    }
    sim_destroy(sim);
    world_destroy(w);
    return done;
}

Test(avoid, two_bots_pass_head_on_in_a_corridor_without_touching)
{
    float closest;
    cr_assert(head_on(true, &closest), "both bots reach the far end");
    cr_assert_geq(closest, 0.8f, "their bodies (0.4 m radius) never met: closest %g m", (double)closest);
    /* Without avoidance they walk into each other and stay there. */
    cr_assert_not(head_on(false, &closest));
}

static const char ARENA[] = "return { layers = { { rows = {\n"
                            "  '##################################',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '##################################',\n"
                            "} } } }\n";

/* 16 bots on a circle of 6 m round the arena's centre, each to the point
** across; returns the tick all arrived (-1: not in 40 s), the closest two
** came, and the trace hash. */
static int circle_swap(float *closest, uint64_t *hash)
{
    NavWorld *w = load_map(ARENA);
    NavSim *sim = make_sim(w);
    const int N = 16;
    float cx = 8.5f, cy = 8.5f, R = 6.0f, goal[16][2];
    for (int i = 0; i < N; i++) {
        float a = 6.2831853f * (float)i / (float)N;
        add_bot(sim, cx + R * cosf(a), cy + R * sinf(a), 0.0f);
        goal[i][0] = cx - R * cosf(a), goal[i][1] = cy - R * sinf(a);
        avoid_on(sim, (uint32_t)i, 0);
    }
    *closest = INFINITY;
    int arrived_at = -1;
    for (int t = 0; t < 1200 && arrived_at < 0; t++) {
        int there = 0;
        for (int i = 0; i < N; i++) there += steer(sim, (uint32_t)i, goal[i][0], goal[i][1], 0.3f);
        if (there == N) arrived_at = t;
        sim_step(sim);
        *closest = fminf(*closest, min_pair_distance(sim));
    }
    *hash = sim_trace_hash(sim);
    sim_destroy(sim);
    world_destroy(w);
    return arrived_at;
}

Test(avoid, sixteen_bots_swap_sides_on_a_circle_and_all_arrive)
{
    float closest;
    uint64_t hash, again;
    int t = circle_swap(&closest, &hash);
    cr_assert_geq(t, 0, "all 16 arrive within 40 s");
    cr_assert_geq(closest, 0.8f, "no two bodies (0.4 m radius) met: closest %g m", (double)closest);
    /* Same run, same bits. */
    float c2;
    cr_assert_eq(circle_swap(&c2, &again), t);
    cr_assert_eq(hash, again);
}

/* A bot standing on a strip of bank (2 m wide) between a wall and a pool
** (or a drop), and a stream of bots that do not avoid walking along the
** strip close by, so it must make all the room, and the wall leaves it
** none but toward the pool (or the drop). Returns the ticks its centre
** was over forbidden ground. */
static const char POOL[] = "return { legend = { ['~'] = { type = 'water', depth = 2, h = -0.1 } },\n"
                           "  layers = { { rows = {\n"
                           "  '##################################',\n"
                           "  '#................................#',\n"
                           "  '#................................#',\n"
                           "  '#................................#',\n"
                           "  '#................................#',\n"
                           "  '#~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~#',\n"
                           "  '#~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~#',\n"
                           "  '#~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~#',\n"
                           "  '#~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~#',\n"
                           "  '##################################',\n"
                           "} } } }\n";

static const char LEDGE[] = "return { legend = { ['-'] = { type = 'floor', h = -1.5 } },\n"
                            "  layers = { { rows = {\n"
                            "  '##################################',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#................................#',\n"
                            "  '#--------------------------------#',\n"
                            "  '#--------------------------------#',\n"
                            "  '#--------------------------------#',\n"
                            "  '#--------------------------------#',\n"
                            "  '##################################',\n"
                            "} } } }\n";

static int pushed(const char *map, uint32_t forbid, bool ledge)
{
    NavWorld *w = load_map(map);
    NavSim *sim = make_sim(w);
    /* The bank is rows 1..4 from the top: y 2.5 .. 4.5; the pool below
    ** 2.5. The keeper stands half a metre off the water; the walkers pass
    ** 0.3 m north of it, where the wall leaves it no room to go north. */
    float y = 3.3f, home = 3.0f;
    uint32_t keeper = add_bot(sim, 8.5f, home, 0.0f);
    avoid_on(sim, keeper, forbid);
    int bad = 0, made = 0;
    for (int t = 0; t < 900; t++) {
        /* A new walker every 0.5 s from the west end, along the line the
        ** keeper stands on, while there is room at the start. */
        if (t % 15 == 0 && made < 20) {
            float at[3];
            if (sim_place_free(sim, 0, (float[3]){ 1.0f, y, 0.0f }, 1, at) && fabsf(at[1] - y) < 0.6f) {
                add_bot(sim, at[0], at[1], 0.0f);
                made++;
            }
        }
        for (uint32_t i = 1; i < sim_bot_count(sim); i++) steer(sim, i, 16.5f, y, 0.3f);
        steer(sim, keeper, 8.5f, home, 0.1f);
        sim_step(sim);
        const NavBot *k = sim_bot(sim, keeper);
        /* Its centre over the water or the drop, or down in either. */
        if (k->pos[1] < 2.5f || k->in_water || (ledge && k->pos[2] < -0.1f)) bad++;
    }
    cr_assert_geq(made, 8, "walkers came");
    sim_destroy(sim);
    world_destroy(w);
    return bad;
}

Test(avoid, a_bot_that_forbids_water_is_never_pushed_into_the_pool)
{
    cr_assert_eq(pushed(POOL, SIM_AVOID_WATER, false), 0, "ticks in the water");
    cr_assert_eq(pushed(POOL, SIM_AVOID_DEEP_WATER, false), 0, "ticks in deep water");
    cr_assert_gt(pushed(POOL, 0, false), 0, "without the bit the same push puts it in the water");
}

Test(avoid, a_bot_that_forbids_ledges_is_never_pushed_off_the_drop)
{
    cr_assert_eq(pushed(LEDGE, SIM_AVOID_LEDGE, true), 0, "ticks below the ledge");
    cr_assert_gt(pushed(LEDGE, 0, true), 0, "without the bit the same push drops it");
}

Test(avoid, settings_have_defaults_and_bad_values_are_refused)
{
    NavWorld *w = load_map(CORRIDOR);
    NavSim *sim = make_sim(w);
    uint32_t a = add_bot(sim, 2.0f, 1.75f, 0.0f);
    NavAvoidDesc d;
    cr_assert(sim_bot_avoid(sim, a, &d));
    cr_assert_not(d.on);
    cr_assert_float_eq(d.horizon, 1.5f, 1e-6f);
    cr_assert_eq(d.max_neighbours, 8);
    cr_assert(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .range = 6, .forbid = SIM_AVOID_LAVA }));
    cr_assert(sim_bot_avoid(sim, a, &d));
    cr_assert(d.on);
    cr_assert_float_eq(d.range, 6.0f, 1e-6f);
    cr_assert_eq(d.forbid, SIM_AVOID_LAVA);
    cr_assert_not(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .horizon = NAN }));
    cr_assert_not(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .range = -1 }));
    cr_assert_not(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .max_neighbours = 99 }));
    cr_assert_not(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .responsibility = 2 }));
    cr_assert_not(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true, .forbid = 0x100 }));
    cr_assert_not(sim_bot_set_avoid(sim, 99, &(NavAvoidDesc){ .on = true }));
    cr_assert(sim_bot_avoid(sim, a, &d) && d.on && d.range == 6.0f, "a refused change leaves the settings");
    cr_assert(sim_bot_set_avoid(sim, a, NULL));
    cr_assert(sim_bot_avoid(sim, a, &d) && !d.on);
    /* Alone, one query gives back what it was asked (but for the slight
    ** turn to the right that breaks ties). */
    float out[2];
    sim_bot_avoid_velocity(sim, a, (float[2]){ 2.0f, 0.0f }, out);
    cr_assert_float_eq(hypotf(out[0], out[1]), 2.0f, 1e-3f);
    cr_assert_lt(fabsf(out[1]), 0.1f);
    /* Toward the wall (the corridor's north side at y = 3) no faster than
    ** closes the gap in the wall horizon. */
    sim_bot_avoid_velocity(sim, a, (float[2]){ 0.0f, 5.0f }, out);
    cr_assert_leq(out[1], (3.0f - 1.75f - 0.4f) / 0.3f + 1e-3f, "toward the wall: %g m/s", (double)out[1]);
    sim_destroy(sim);
    world_destroy(w);
}

/* A bot stuck for a while gives way now and then (no wish of its own for
** a second) so that a jam can clear; with nobody near there is nobody to
** give way to, and it must keep its wish every second. */
Test(avoid, a_lone_stuck_bot_never_gives_way_but_one_in_a_jam_does)
{
    NavWorld *w = load_map(CORRIDOR);
    NavSim *sim = make_sim(w);
    uint32_t a = add_bot(sim, 2.0f, 1.75f, 0.0f);
    cr_assert(sim_bot_set_avoid(sim, a, &(NavAvoidDesc){ .on = true }));
    float pref[2] = { 2.0f, 0.0f }, out[2];
    for (int s = 0; s < 20; s++) {
        ((NavBot *)sim_bot(sim, a))->stuck_time = 5.0f;
        sim_bot_avoid_velocity(sim, a, pref, out);
        cr_assert_float_eq(hypotf(out[0], out[1]), 2.0f, 1e-3f, "alone, second %d: %g m/s", s,
                           (double)hypotf(out[0], out[1]));
        for (int k = 0; k < 30; k++) sim_step(sim);
    }
    /* Another bot beside it (1 m apart, out of its way): in some of the
    ** seconds it stands aside. */
    ((NavBot *)sim_bot(sim, a))->pos[1] = 2.0f;
    uint32_t b = add_bot(sim, 2.0f, 1.0f, 0.0f);
    cr_assert(sim_bot_set_avoid(sim, b, &(NavAvoidDesc){ .on = true }));
    int gave_way = 0;
    for (int s = 0; s < 20; s++) {
        ((NavBot *)sim_bot(sim, a))->stuck_time = 5.0f;
        sim_bot_avoid_velocity(sim, a, pref, out);
        gave_way += hypotf(out[0], out[1]) < 0.5f;
        for (int k = 0; k < 30; k++) sim_step(sim);
    }
    cr_assert_gt(gave_way, 0, "jammed for 20 s beside another bot, it never gave way");
    cr_assert_lt(gave_way, 20, "jammed for 20 s, it gave way every second");
    sim_destroy(sim);
    world_destroy(w);
}

/* }======= */

/* {======= Lua ======= */

typedef struct Lua {
    NavWorld *w;
    NavSim *sim;
    Sandbox *sb;
} Lua;

static Lua lua_setup(void)
{
    Lua f;
    NavError err;
    nav_error_clear(&err);
    f.w = load_map(CORRIDOR);
    f.sim = make_sim(f.w);
    add_bot(f.sim, 2.0f, 1.75f, 0.0f);
    add_bot(f.sim, 3.0f, 1.75f, 0.0f);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb, "%s", err.message);
    nav_api_open(sandbox_state(f.sb), f.sim);
    return f;
}

static void lua_teardown(Lua *f)
{
    sandbox_destroy(f->sb);
    sim_destroy(f->sim);
    world_destroy(f->w);
}

/* Runs code; returns NULL when it succeeded, else its error message. */
static const char *lua_try(Lua *f, const char *code)
{
    static char msg[512];
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(sandbox_load(f->sb, code, strlen(code), "=test", &err)), "%s", err.message);
    if (NAV_SUCCEEDED(sandbox_call(f->sb, 0, 0, &err))) return NULL;
    snprintf(msg, sizeof msg, "%s", err.message);
    return msg;
}

Test(avoid, lua_sets_reads_and_queries_avoidance)
{
    Lua f = lua_setup();
    const char *e = lua_try(&f, "local b = nav.bot(0)\n"
                                "assert(b:avoidance().on == false)\n"
                                "b:avoidance{ horizon = 2, range = 4, neighbours = 6, forbid = { 'water', 'ledge' } }\n"
                                "local s = b:avoidance()\n"
                                "assert(s.on and s.horizon == 2 and s.range == 4 and s.neighbours == 6)\n"
                                "assert(#s.forbid == 2 and s.forbid[1] == 'water' and s.forbid[2] == 'ledge')\n"
                                "assert(math.abs(s.wall_horizon - 0.3) < 1e-6 and s.responsibility == 0.5)\n"
                                "-- bot 1 stands 1 m east: straight at it, the query turns aside or slows\n"
                                "local vx, vy = b:avoid_velocity(5, 0)\n"
                                "assert(vx < 4.9 or math.abs(vy) > 0.1, vx .. ',' .. vy)\n"
                                "b:avoidance(false)\n"
                                "assert(b:avoidance().on == false)\n"
                                "b:avoidance(true)\n"
                                "assert(b:avoidance().on and b:avoidance().horizon == 1.5)\n"
                                "-- what a trace hit\n"
                                "local tr = b:trace(2, 0)\n"
                                "assert(tr.hit and tr.what == 'bot' and tr.bot == 1, tostring(tr.what))\n"
                                "tr = b:trace(0, 3)\n"
                                "assert(tr.hit and tr.what == 'world' and tr.bot == nil)\n"
                                "assert(b:trace(0, 0.2).what == nil)\n");
    cr_assert_null(e, "%s", e);
    lua_teardown(&f);
}

Test(avoid, bad_lua_arguments_are_errors)
{
    static const struct {
        const char *code, *error;
    } CASES[] = {
        { "nav.bot(0):avoidance{ horizn = 2 }", "unknown key 'horizn' (accepted: horizon, wall_horizon, range" },
        { "nav.bot(0):avoidance{ forbid = { 'lava', 'acid' } }", "unknown forbid name 'acid' (accepted: water, deep_water" },
        { "nav.bot(0):avoidance{ forbid = 'water' }", "'forbid' must be a list of names" },
        { "nav.bot(0):avoidance{ horizon = -1 }", "'horizon' must be a number from" },
        { "nav.bot(0):avoidance{ range = 'far' }", "'range' must be a number from" },
        { "nav.bot(0):avoidance{ neighbours = 0 }", "'neighbours' must be an integer from 1 to 16" },
        { "nav.bot(0):avoidance{ neighbours = 2.5 }", "'neighbours' must be an integer" },
        { "nav.bot(0):avoidance{ responsibility = 3 }", "'responsibility' must be a number from" },
        { "nav.bot(0):avoidance{ [1] = 2 }", "unknown key 'number'" },
        { "nav.bot(0):avoidance(42)", "table expected, got number" },
        { "nav.bot(0):avoid_velocity(1)", "number expected, got no value" },
        { "nav.bot(0):avoid_velocity(0/0, 1)", "finite number expected" },
    };
    Lua f = lua_setup();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *e = lua_try(&f, CASES[i].code);
        cr_assert_not_null(e, "%s: no error", CASES[i].code);
        cr_assert(strstr(e, CASES[i].error), "%s: '%s' does not say '%s'", CASES[i].code, e, CASES[i].error);
    }
    lua_teardown(&f);
}

/* }======= */

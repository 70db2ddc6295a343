/*
** test_run.c — bots with the bundled Lua brains (bots/, lua/) in a whole
** simulation (script/session.h): the runner reaches goals that need every
** travel type on gauntlet and climbs the tower; the cautious bot keeps its
** promises; a faulting brain never stops the others; same seed, same hash.
*/
#include <criterion/criterion.h>
#include <string.h>

#include "map/map.h"
#include "script/session.h"
#include "test_cli_run.h"
#include "test_support.h"

static void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

/* A session on a bundled map with the repository's bots/ and lua/. */
static NavSession *open_session(const NavWorld *w, uint64_t seed)
{
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = ".", .seed = seed, .log = quiet }, &err);
    cr_assert_not_null(s, "session: %s", err.message);
    return s;
}

static float entity_pos(const NavWorld *w, const char *name, int k)
{
    int e = world_find_entity(w, name);
    cr_assert_geq(e, 0, "no entity %s", name);
    const NavEntity *en = world_entity(w, e);
    return k == 2 ? en->mins[2] : 0.5f * (en->mins[k] + en->maxs[k]);
}

static int add_at(NavSession *s, const NavWorld *w, const char *brain, const char *spawn)
{
    NavError err;
    nav_error_clear(&err);
    NavBotDesc d = { .cls = 0, .pos = { entity_pos(w, spawn, 0), entity_pos(w, spawn, 1), entity_pos(w, spawn, 2) } };
    int id = session_add_bot(s, brain, &d, &err);
    cr_assert_geq(id, 0, "add %s at %s: %s", brain, spawn, err.message);
    cr_assert_not(session_bot_faulted(s, (uint32_t)id), "%s: %s", brain, session_bot_error(s, (uint32_t)id));
    return id;
}

static void push_goal(NavSession *s, const NavWorld *w, int id, const char *goal)
{
    float p[3] = { entity_pos(w, goal, 0), entity_pos(w, goal, 1), entity_pos(w, goal, 2) };
    cr_assert(sim_bot_push_goal(session_sim(s), (uint32_t)id, p, 0.0f));
}

/* Step until every bot has arrived (or faulted), at most max ticks. */
static void run_until_arrived(NavSession *s, int max)
{
    NavSim *sim = session_sim(s);
    for (int t = 0; t < max; t++) {
        bool all = true;
        for (uint32_t i = 0; i < sim_bot_count(sim); i++)
            if (!sim_bot_arrived(sim, i) && !session_bot_faulted(s, i)) all = false;
        if (all) return;
        session_step(s);
    }
}

static void travel_list(uint32_t used, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 0; t < NAV_TRAVEL_COUNT && n < cap; t++)
        if (used & NAV_TFL_TYPE(t)) n += (size_t)snprintf(buf + n, cap - n, " %s", area_travel_name((NavTravelType)t));
}

static void assert_arrived(NavSession *s, uint32_t id, const char *what)
{
    const NavBot *b = sim_bot(session_sim(s), id);
    char used[256];
    travel_list(b->travel_used, used, sizeof used);
    cr_assert_not(session_bot_faulted(s, id), "%s: faulted: %s", what, session_bot_error(s, id));
    cr_assert(sim_bot_arrived(session_sim(s), id),
              "%s: not arrived: %d goals reached, %d left, at (%.2f, %.2f, %.2f) saying '%s'; used%s", what,
              b->goals_reached, b->goal_count, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2], b->say, used);
}

/* Each gauntlet goal lies past sections that each need one travel type
** (maps/gauntlet.lua): a runner from the start uses those to get there. */
Test(run, runner_reaches_each_gauntlet_goal_by_its_travel_types)
{
    static const struct {
        const char *goal;
        NavTravelType needs[4];
        int count;
    } cases[] = {
        { "goal_pool", { NAV_TRAVEL_CROUCH, NAV_TRAVEL_SWIM, NAV_TRAVEL_WATER_JUMP }, 3 },
        { "goal_terrace", { NAV_TRAVEL_BARRIER_JUMP, NAV_TRAVEL_JUMP, NAV_TRAVEL_CLIMB }, 3 },
        { "goal_loft", { NAV_TRAVEL_WALK_OFF_LEDGE, NAV_TRAVEL_LADDER }, 2 },
        { "goal_gallery", { NAV_TRAVEL_TELEPORT, NAV_TRAVEL_ELEVATOR }, 2 },
        { "goal_flag", { NAV_TRAVEL_JUMP_PAD }, 1 },
    };
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        NavSession *s = open_session(w, 1);
        int id = add_at(s, w, "runner", "spawn_start");
        sim_bot_clear_goals(session_sim(s), (uint32_t)id);
        push_goal(s, w, id, cases[c].goal);
        run_until_arrived(s, 120 * 30);
        assert_arrived(s, (uint32_t)id, cases[c].goal);
        uint32_t used = sim_bot(session_sim(s), (uint32_t)id)->travel_used;
        for (int k = 0; k < cases[c].count; k++)
            cr_assert(used & NAV_TFL_TYPE(cases[c].needs[k]), "%s: the runner never used %s", cases[c].goal,
                      area_travel_name(cases[c].needs[k]));
        session_destroy(s);
    }
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* With no goals given the runner tours every goal of the map; from any
** spawn it gets round the whole gauntlet, every travel type on the way. */
Test(run, runner_tours_the_gauntlet_from_every_spawn)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    static const char *spawns[] = { "spawn_start", "spawn_hall", "spawn_yard" };
    for (int k = 0; k < 3; k++) {
        NavSession *s = open_session(w, 1);
        int id = add_at(s, w, "runner", spawns[k]);
        cr_assert_eq(sim_bot(session_sim(s), (uint32_t)id)->goal_count, 5, "the runner queued %d goals, not 5",
                     sim_bot(session_sim(s), (uint32_t)id)->goal_count);
        run_until_arrived(s, 150 * 30);
        assert_arrived(s, (uint32_t)id, spawns[k]);
        cr_assert_eq(sim_bot(session_sim(s), (uint32_t)id)->goals_reached, 5);
        uint32_t used = sim_bot(session_sim(s), (uint32_t)id)->travel_used;
        /* The tour's order (nearest next) decides whether the ladder is
        ** climbed or the loft is reached another way; all else is needed. */
        for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
            if (t == NAV_TRAVEL_LADDER && k != 0) continue;
            cr_assert(used & NAV_TFL_TYPE(t), "from %s the runner never used %s", spawns[k],
                      area_travel_name((NavTravelType)t));
        }
        session_destroy(s);
    }
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(run, runner_climbs_the_tower)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    NavSession *s = open_session(w, 1);
    int id = add_at(s, w, "runner", "spawn_west");
    run_until_arrived(s, 150 * 30);
    assert_arrived(s, (uint32_t)id, "tower from spawn_west");
    cr_assert_eq(sim_bot(session_sim(s), (uint32_t)id)->goals_reached, 5);
    cr_assert(sim_bot(session_sim(s), (uint32_t)id)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_LADDER));
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The cautious bot never swims, walks off a ledge or jumps a gap. Told to
** go to the pool from the start it gives up (skips the goal: the pool is
** the only way); from the stair hall it tours the goals it can reach
** safely (up the jump pad to the flag) and arrives, using none of those. */
Test(run, cautious_keeps_out_of_water_and_off_ledges)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavSession *s = open_session(w, 1);
    int a = add_at(s, w, "cautious", "spawn_start");
    sim_bot_clear_goals(session_sim(s), (uint32_t)a);
    push_goal(s, w, a, "goal_pool");
    int b = add_at(s, w, "cautious", "spawn_hall");
    cr_assert_gt(sim_bot(session_sim(s), (uint32_t)b)->goal_count, 0, "nothing safe to visit from the stair hall");
    for (int t = 0; t < 60 * 30; t++) session_step(s);
    uint32_t banned = NAV_TFL_TYPE(NAV_TRAVEL_SWIM) | NAV_TFL_TYPE(NAV_TRAVEL_WATER_JUMP) |
                      NAV_TFL_TYPE(NAV_TRAVEL_WALK_OFF_LEDGE) | NAV_TFL_TYPE(NAV_TRAVEL_JUMP);
    for (int id = a; id <= b; id++) {
        const NavBot *bot = sim_bot(session_sim(s), (uint32_t)id);
        cr_assert_not(session_bot_faulted(s, (uint32_t)id), "%s", session_bot_error(s, (uint32_t)id));
        char used[256];
        travel_list(bot->travel_used, used, sizeof used);
        cr_assert_eq(bot->travel_used & banned, 0u, "the cautious bot %d used:%s", id, used);
    }
    cr_assert_eq(sim_bot(session_sim(s), (uint32_t)a)->goals_skipped, 1, "the pool goal was not given up");
    cr_assert_eq(sim_bot(session_sim(s), (uint32_t)a)->goals_reached, 0);
    assert_arrived(s, (uint32_t)b, "cautious from the stair hall");
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A brain that errors, one that loops forever and one that eats memory
** fault alone; a runner beside them still gets to its goal. */
Test(run, hostile_brains_never_stop_the_run)
{
    const char *root = "/tmp/navbot_test_run_root";
    char path[256];
    snprintf(path, sizeof path, "mkdir -p %s/bots && cp -r lua %s/ && cp bots/runner.lua %s/bots/", root, root, root);
    cr_assert_eq(system(path), 0);
    static const struct {
        const char *name, *text;
    } bad[] = {
        { "errs", "return { think = function(bot) local t = nil; return t.x end }" },
        { "loops", "return { think = function(bot) while true do end end }" },
        /* A little more each tick: the cap, not the budget, stops it. */
        { "bomb", "return { think = function(bot) hoard = hoard or {} for i = 1, 4 do hoard[#hoard + 1] = "
                  "string.rep(tostring(#hoard), 1 << 16) end end }" },
        { "types", "return { think = function(bot) bot:move('east', {}) end }" },
        { "escape", "return { think = function(bot) return io.open('/etc/passwd') end }" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(path, sizeof path, "%s/bots/%s.lua", root, bad[k].name);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(bad[k].text, f);
        fclose(f);
    }
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(
        w,
        &(NavSessionDesc){
            .root = root, .seed = 3, .log = quiet, .memory_limit = 32u << 20, .instructions_per_tick = 200000 },
        &err);
    cr_assert_not_null(s);
    int runner = add_at(s, w, "runner", "spawn_start");
    sim_bot_clear_goals(session_sim(s), (uint32_t)runner);
    push_goal(s, w, runner, "goal_pool");
    /* Along the start room's west wall, out of the runner's way. */
    NavBotDesc d = { .cls = 0, .pos = { 1.0f, 21.0f, 0.0f } };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        d.pos[1] = 21.0f + (float)k * 1.2f;
        cr_assert_geq(session_add_bot(s, bad[k].name, &d, &err), 0, "%s", err.message);
    }
    run_until_arrived(s, 60 * 30);
    assert_arrived(s, (uint32_t)runner, "runner beside hostile brains");
    static const char *want[] = { "attempt to index", "instruction budget", "out of memory: brain over its 32 MiB cap",
                                  "bad argument", "io" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint32_t id = (uint32_t)runner + 1 + (uint32_t)k;
        cr_assert(session_bot_faulted(s, id), "%s did not fault", bad[k].name);
        const char *e = session_bot_error(s, id);
        cr_assert(e && strstr(e, want[k]), "%s: error '%s' does not mention '%s'", bad[k].name, e ? e : "", want[k]);
        cr_assert(strstr(e, bad[k].name), "%s: the error does not name the file: %s", bad[k].name, e);
    }
    session_destroy(s);
    world_destroy(w);
    snprintf(path, sizeof path, "rm -rf %s", root);
    cr_assert_eq(system(path), 0);
    NAV_TEST_LEAK_CHECK();
}

static uint64_t crowd_hash(const NavWorld *w, uint64_t seed, int ticks)
{
    NavSession *s = open_session(w, seed);
    add_at(s, w, "runner", "spawn_start");
    add_at(s, w, "climber", "spawn_hall");
    add_at(s, w, "coward", "spawn_yard");
    for (int t = 0; t < ticks; t++) session_step(s);
    uint64_t h = sim_trace_hash(session_sim(s));
    session_destroy(s);
    return h;
}

Test(run, same_seed_same_trace_hash)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    uint64_t a = crowd_hash(w, 9, 600), b = crowd_hash(w, 9, 600);
    cr_assert_eq(a, b, "two runs with seed 9 differ: %016llx and %016llx", (unsigned long long)a,
                 (unsigned long long)b);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* {======= faults stop their bot ======= */

/* A bot whose brain faults stops: it does not walk on with the last move
** its brain asked for. The same for a fault injected from outside. */
Test(run, a_faulted_bot_stops)
{
    const char *root = "/tmp/navbot_test_run_stop";
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/bots", root);
    cr_assert_eq(system(cmd), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/bots/dash.lua", root);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("return { think = function(bot) n = (n or 0) + 1 bot:move(1, 0) if n == 10 and bot:id() == 0 then "
          "error('stop') end end }\n",
          f);
    fclose(f);
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = quiet }, &err);
    cr_assert_not_null(s, "%s", err.message);
    NavBotDesc d = { .cls = 0, .pos = { 3.0f, 10.0f, 0.0f } };
    cr_assert_eq(session_add_bot(s, "dash", &d, &err), 0, "%s", err.message);
    d.pos[1] = 4.0f;
    cr_assert_eq(session_add_bot(s, "dash", &d, &err), 1, "%s", err.message);
    for (int t = 0; t < 30; t++) session_step(s);
    cr_assert(session_bot_faulted(s, 0));
    cr_assert(session_bot_fault(s, 1, "injected"));
    cr_assert_str_eq(session_bot_error(s, 1), "injected");
    cr_assert_not(session_bot_fault(s, 1, "twice"));
    cr_assert_not(session_bot_fault(s, 7, "no such bot"));
    float x0 = sim_bot(session_sim(s), 0)->pos[0], x1 = sim_bot(session_sim(s), 1)->pos[0];
    for (int t = 0; t < 60; t++) session_step(s);
    /* Sliding to a stop takes a little way, never two more seconds of running. */
    cr_assert_lt(sim_bot(session_sim(s), 0)->pos[0] - x0, 1.0f, "bot 0 walked on after its fault");
    cr_assert_lt(sim_bot(session_sim(s), 1)->pos[0] - x1, 1.0f, "bot 1 walked on after the injected fault");
    cr_assert_str_eq(sim_bot(session_sim(s), 1)->control.reason, "faulted");
    session_destroy(s);
    world_destroy(w);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_assert_eq(system(cmd), 0);
    NAV_TEST_LEAK_CHECK();
}

/* The brains' query time is the session's: routes count as path time,
** grid paths as path and grid time; Lua's share excludes both. A brain
** that queries nothing adds none. */
Test(run, query_time_is_counted_by_the_session)
{
    const char *root = "/tmp/navbot_test_run_clock";
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/bots", root);
    cr_assert_eq(system(cmd), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/bots/quiz.lua", root);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("return { think = function(bot)\n"
          "  local x, y, z = bot:pos()\n"
          "  for i = 1, 40 do bot:route(x + 20, y, z) end\n"
          "  if bot:id() == 0 then for i = 1, 40 do nav.grid_path(bot, x + 20, y) end end\n"
          "end }\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/bots/idle.lua", root);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("return { think = function(bot) local s = 0 for i = 1, 2000 do s = s + i end end }\n", f);
    fclose(f);
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    for (int k = 0; k < 2; k++) {
        NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = quiet }, &err);
        cr_assert_not_null(s, "%s", err.message);
        NavBotDesc d = { .cls = 0, .pos = { 3.0f, 10.0f, 0.0f } };
        cr_assert_eq(session_add_bot(s, k == 0 ? "quiz" : "idle", &d, &err), 0, "%s", err.message);
        for (int t = 0; t < 10; t++) session_step(s);
        cr_assert_not(session_bot_faulted(s, 0), "%s", session_bot_error(s, 0));
        NavSessionTimes t;
        session_times(s, &t);
        if (k == 0) {
            cr_assert_gt(t.path_total_ms, 0.0, "routes and grid paths took no path time");
            cr_assert_gt(t.grid_total_ms, 0.0, "grid paths took no grid time");
            cr_assert_lt(t.grid_total_ms, t.path_total_ms, "grid time is a part of path time");
        } else {
            cr_assert_eq(t.path_total_ms, 0.0, "a brain that asks nothing took path time");
            cr_assert_eq(t.grid_total_ms, 0.0);
            cr_assert_gt(t.lua_total_ms, 0.0);
        }
        session_destroy(s);
    }
    world_destroy(w);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_assert_eq(system(cmd), 0);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* --until-arrived says by its exit status whether every bot got there. */
Test(run, until_arrived_exit_status_says_whether_all_arrived)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner@spawn_a", "--goal", "spawn_b", "--quiet");
    cr_assert_eq(r.status, CLI_OK, "arrived, yet exit %d: %s", r.status, r.err);
    run_free(&r);
    /* Too few ticks to cross the arena. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner@spawn_a", "--goal", "spawn_b", "--until-arrived",
               "--max-ticks", "30", "--quiet");
    cr_assert_eq(r.status, CLI_NOT_ARRIVED, "not arrived, yet exit %d", r.status);
    run_free(&r);
    /* --ticks runs end 0 whatever the bots did. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner@spawn_a", "--goal", "spawn_b", "--ticks", "30", "--quiet");
    cr_assert_eq(r.status, CLI_OK);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_alloc_fail_sim.c — every allocation refused in turn, above the
** graphs: a session with runner bots stepped for some ticks, an obstacle
** dropped into a running simulation, a whole scenario run, and the same
** through the public C API (include/navbot.h). The loop and its checks:
** alloc_fail_support.h.
**
** A brain's Lua state that cannot allocate faults that bot alone, with an
** out-of-memory message: the run goes on. So a session run under failure
** ends one of three ways: refused (NAV_E_NOMEM, nothing left behind),
** with bots faulted for memory (the others went on), or exactly as the
** run with nothing failing did (the same trace hash, tick for tick).
*/
#include <string.h>
#include <unistd.h>

#include "alloc_fail_support.h"
#include "navbot.h"

#include "grid/grid.h"
#include "map/map.h"
#include "route/route.h"
#include "scenario/scenario.h"
#include "script/session.h"
#include "sim/sim.h"

TestSuite(alloc_fail_sim, .init = fail_alloc_install);

/* {======= helpers ======= */

static void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void entity_point(const NavWorld *w, const char *name, float p[3])
{
    int e = world_find_entity(w, name);
    cr_assert_geq(e, 0, "no entity %s", name);
    const NavEntity *en = world_entity(w, e);
    p[0] = 0.5f * (en->mins[0] + en->maxs[0]);
    p[1] = 0.5f * (en->mins[1] + en->maxs[1]);
    p[2] = en->mins[2];
}

/* }======= */

/* {======= a session ======= */

#define SESSION_TICKS 20
#define SESSION_BOTS 2

typedef struct SessionCtx {
    NavWorld *w;
    NavSession *s;
    int ids[SESSION_BOTS];
    int added;
    uint64_t want_hash[SESSION_TICKS];
    uint64_t hash[SESSION_TICKS];
    int ticks;
} SessionCtx;

static SessionCtx session_ctx;

static void *session_setup(void)
{
    session_ctx.s = NULL;
    session_ctx.added = 0;
    session_ctx.ticks = 0;
    return &session_ctx;
}

static void session_teardown(void *p)
{
    SessionCtx *c = p;
    session_destroy(c->s);
    c->s = NULL;
}

/* A session, two runners sent to the centre, SESSION_TICKS ticks. */
static NavStatus session_run(void *p, NavError *err)
{
    SessionCtx *c = p;
    c->s = session_create(c->w, &(NavSessionDesc){ .root = ".", .seed = 7, .log = quiet }, err);
    if (!c->s) return err->status;
    static const char *const SPAWNS[SESSION_BOTS] = { "spawn_a", "spawn_b" };
    float goal[3];
    entity_point(c->w, "centre", goal);
    for (int i = 0; i < SESSION_BOTS; i++) {
        NavBotDesc d = { .cls = 0 };
        entity_point(c->w, SPAWNS[i], d.pos);
        c->ids[i] = session_add_bot(c->s, "runner", &d, err);
        if (c->ids[i] < 0) return err->status;
        c->added++;
        if (!sim_bot_push_goal(session_sim(c->s), (uint32_t)c->ids[i], goal, 0.0f))
            return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory: goal refused");
    }
    for (int t = 0; t < SESSION_TICKS; t++) {
        session_step(c->s);
        c->hash[c->ticks++] = sim_trace_hash(session_sim(c->s));
    }
    return NAV_OK;
}

static void session_check(void *p, bool ok, bool failed)
{
    SessionCtx *c = p;
    if (!c->s) return;
    int faulted = 0;
    for (int i = 0; i < c->added; i++) {
        if (!session_bot_faulted(c->s, (uint32_t)c->ids[i])) continue;
        faulted++;
        const char *e = session_bot_error(c->s, (uint32_t)c->ids[i]);
        cr_assert(e && says_out_of_memory(e), "%s: bot %d faulted, not for memory: %s", fail_where(), c->ids[i],
                  e ? e : "(none)");
    }
    if (ok && faulted == 0)
        for (int t = 0; t < SESSION_TICKS; t++)
            cr_assert_eq(c->hash[t], c->want_hash[t], "%s: tick %d: another trace hash with no bot faulted",
                         fail_where(), t + 1);
    /* Still usable: it steps on. */
    for (int t = 0; t < 3; t++) session_step(c->s);
}

Test(alloc_fail_sim, a_session_with_runners)
{
    SessionCtx *c = &session_ctx;
    memset(c, 0, sizeof *c);
    c->w = test_load_map("maps/arena.lua");
    session_setup();
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(session_run(c, &err)), "%s", err.message);
    memcpy(c->want_hash, c->hash, sizeof c->hash);
    session_teardown(c);
    alloc_fail_each(&(FailOp){ .name = "session + 2 runners, 20 ticks arena",
                               .setup = session_setup,
                               .run = session_run,
                               .check = session_check,
                               .teardown = session_teardown,
                               .dense = 200,
                               .stride = 31 });
    world_destroy(c->w);
}

/* }======= */

/* {======= an obstacle dropped into a running simulation ======= */

/* A sim on the tower with every class's router and the grid built and
** warm; the reference answers are the plain Dijkstra's and a grid built
** apart, without the obstacle and with it. */
typedef struct ObstacleCtx {
    NavWorld *w;
    NavSim *sim;
    int classes;
    float box[6];
    uint32_t id;
    NavGrid *grid_without, *grid_with;
} ObstacleCtx;

static ObstacleCtx obstacle_ctx;

#define OBSTACLE_QUERIES 16

static void *obstacle_setup(void)
{
    ObstacleCtx *c = &obstacle_ctx;
    NavError err;
    nav_error_clear(&err);
    c->sim = sim_create(c->w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(c->sim, "%s", err.message);
    for (int k = 0; k < c->classes; k++) {
        NavRouter *r = sim_router(c->sim, k, &err);
        cr_assert_not_null(r, "%s", err.message);
        uint32_t n = area_count(router_graph(r));
        for (int i = 0; i < OBSTACLE_QUERIES; i++) {
            NavRoute q;
            router_route(r, (uint32_t)(i * 37) % n, NULL, (uint32_t)(i * 101 + 7) % n, NAV_TFL_DEFAULT, &q);
        }
    }
    cr_assert_not_null(sim_grid(c->sim, &err), "%s", err.message);
    c->id = 0;
    return c;
}

static void obstacle_teardown(void *p)
{
    ObstacleCtx *c = p;
    sim_destroy(c->sim);
    c->sim = NULL;
}

static NavStatus obstacle_run(void *p, NavError *err)
{
    ObstacleCtx *c = p;
    c->id = sim_add_obstacle(c->sim, c->box, c->box + 3);
    return c->id ? NAV_OK : nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for an obstacle");
}

/* Every class's routes match the plain Dijkstra over its own links, and
** no link is disabled after a refusal; the grid is cell for cell the
** reference grid without or with the obstacle. */
static void obstacle_check(void *p, bool ok, bool failed)
{
    ObstacleCtx *c = p;
    cr_assert_eq(sim_obstacle_count(c->sim), ok ? 1u : 0u, "%s", fail_where());
    for (int k = 0; k < c->classes; k++) {
        NavRouter *r = sim_router(c->sim, k, NULL);
        NavRouterStats st;
        router_stats(r, &st);
        cr_assert_eq(st.obstacles, ok ? 1u : 0u, "%s: class %d's router holds %u obstacles", fail_where(), k,
                     st.obstacles);
        if (!ok) cr_assert_eq(st.disabled_links, 0, "%s: %u links left disabled", fail_where(), st.disabled_links);
        uint32_t n = area_count(router_graph(r));
        for (int i = 0; i < OBSTACLE_QUERIES; i++) {
            uint32_t a = (uint32_t)(i * 37) % n, b = (uint32_t)(i * 101 + 7) % n;
            NavRoute q, d;
            cr_assert(NAV_SUCCEEDED(router_route(r, a, NULL, b, NAV_TFL_DEFAULT, &q)));
            cr_assert(NAV_SUCCEEDED(route_dijkstra(r, a, NULL, b, NAV_TFL_DEFAULT, &d)));
            cr_assert_eq(q.time, d.time, "%s: class %d, %u -> %u: %u, the Dijkstra says %u", fail_where(), k, a, b,
                         q.time, d.time);
        }
    }
    NavGrid *g = sim_grid(c->sim, NULL), *want = ok ? c->grid_with : c->grid_without;
    cr_assert_not_null(g);
    for (int k = 0; k < grid_class_count(g); k++)
        for (int y = 0; y < grid_height(g); y++)
            for (int x = 0; x < grid_width(g); x++)
                cr_assert_eq(grid_passable(g, k, x, y), grid_passable(want, k, x, y),
                             "%s: the grid at (%d, %d) for class %d is not the reference's", fail_where(), x, y, k);
}

Test(alloc_fail_sim, an_obstacle_dropped_into_a_simulation)
{
    ObstacleCtx *c = &obstacle_ctx;
    memset(c, 0, sizeof *c);
    c->w = test_load_map("maps/tower.lua");
    c->classes = world_class_count(c->w);
    float box[6] = { 16, 9.5f, 0, 18, 15.5f, 3 }; /* across the hall (tests/scenarios/obstacle_reroute.lua) */
    memcpy(c->box, box, sizeof box);
    NavError err;
    nav_error_clear(&err);
    c->grid_without = grid_create(c->w, NULL, &err);
    c->grid_with = grid_create(c->w, NULL, &err);
    cr_assert(c->grid_without && c->grid_with, "%s", err.message);
    GridShape shape = { .x = 17, .y = 12.5f, .hw = 1, .hh = 3 };
    cr_assert(NAV_SUCCEEDED(grid_add_obstruction(c->grid_with, &shape, NULL, &err)), "%s", err.message);
    alloc_fail_each(&(FailOp){ .name = "sim_add_obstacle tower (routers, grid)",
                               .setup = obstacle_setup,
                               .run = obstacle_run,
                               .check = obstacle_check,
                               .teardown = obstacle_teardown });
    grid_destroy(c->grid_without);
    grid_destroy(c->grid_with);
    world_destroy(c->w);
}

/* }======= */

/* {======= a scenario ======= */

/* obstacle_reroute.lua, cut at 4 s: the runner sets off, an obstacle
** drops at 2 s and its route changes. */
#define SCENARIO_FILE "tests/scenarios/obstacle_reroute.lua"
#define SCENARIO_TICKS 120

typedef struct ScenarioCtx {
    ScenarioResult res, want;
} ScenarioCtx;

static ScenarioCtx scenario_ctx;

static void *scenario_setup(void)
{
    memset(&scenario_ctx.res, 0, sizeof scenario_ctx.res);
    return &scenario_ctx;
}

static void scenario_teardown(void *p) { (void)p; }

static NavStatus scenario_run(void *p, NavError *err)
{
    ScenarioCtx *c = p;
    return scenario_run_file(SCENARIO_FILE, &(ScenarioOptions){ .max_ticks = SCENARIO_TICKS }, &c->res, err);
}

/* The same result, or a failure that says memory ran out (a brain
** faulted for it and an expectation saw that). */
static void scenario_check(void *p, bool ok, bool failed)
{
    ScenarioCtx *c = p;
    if (!ok) return;
    bool memory =
        !c->res.passed && (says_out_of_memory(c->res.failure.message) || says_out_of_memory(c->res.failure.bot_state));
    for (int i = 0; i < c->res.log_count && !memory; i++) memory = says_out_of_memory(c->res.log[i]);
    if (memory) return;
    cr_assert_eq(c->res.passed, c->want.passed, "%s: passed %d, want %d: %s", fail_where(), c->res.passed,
                 c->want.passed, c->res.failure.message);
    cr_assert_eq(c->res.ticks, c->want.ticks, "%s: %llu ticks, want %llu", fail_where(),
                 (unsigned long long)c->res.ticks, (unsigned long long)c->want.ticks);
    cr_assert_eq(c->res.hash, c->want.hash, "%s: another trace hash", fail_where());
}

Test(alloc_fail_sim, a_scenario_run)
{
    ScenarioCtx *c = &scenario_ctx;
    memset(c, 0, sizeof *c);
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(
                  scenario_run_file(SCENARIO_FILE, &(ScenarioOptions){ .max_ticks = SCENARIO_TICKS }, &c->want, &err)),
              "%s", err.message);
    cr_assert_eq(c->want.ticks, SCENARIO_TICKS);
    alloc_fail_each(&(FailOp){ .name = "scenario obstacle_reroute.lua, 120 ticks",
                               .setup = scenario_setup,
                               .run = scenario_run,
                               .check = scenario_check,
                               .teardown = scenario_teardown,
                               .dense = 150,
                               .stride = 97 });
}

/* }======= */

/* {======= the public C API ======= */

/* A world loaded, a route, a session with a runner stepped and drawn:
** every call returns NAVBOT_OK or NAVBOT_E_NOMEM (NAVBOT_E_BRAIN for the
** bot whose brain could not load), and the handle's error says so. */
typedef struct ApiCtx {
    NavbotWorld *w;
    NavbotSession *s;
    char png[64];
    float route_time;
    uint64_t hash;
    bool brain_failed;
} ApiCtx;

static ApiCtx api_ctx, api_want;

static void *api_setup(void)
{
    api_ctx.w = NULL;
    api_ctx.s = NULL;
    api_ctx.brain_failed = false;
    return &api_ctx;
}

static void api_teardown(void *p)
{
    ApiCtx *c = p;
    navbot_session_destroy(c->s);
    navbot_world_destroy(c->w);
    c->s = NULL;
    c->w = NULL;
    remove(c->png);
}

static NavStatus api_failed(NavError *err, NavbotStatus st, const char *what, const char *text)
{
    NavStatus detail = st == NAVBOT_E_NOMEM ? NAV_E_NOMEM : NAV_E_PARAM;
    return nav_error_set(err, detail, NULL, 0, 0, NULL, "%s: %s (%s)", what, text, navbot_status_name(st));
}

static NavStatus api_run(void *p, NavError *err)
{
    ApiCtx *c = p;
    NavbotError e;
    NavbotStatus st = navbot_world_load("maps/arena.lua", NULL, &c->w, &e);
    if (st) return api_failed(err, st, "navbot_world_load", e.text);
    float from[3], to[3];
    navbot_world_entity_point(c->w, "spawn_a", from);
    navbot_world_entity_point(c->w, "centre", to);
    NavbotWaypoint pts[64];
    NavbotRoute r = { .points = pts, .cap = 64 };
    st = navbot_route(c->w, &(NavbotRouteQuery){ .from = { from[0], from[1], from[2] }, .to = { to[0], to[1], to[2] } },
                      &r);
    if (st) return api_failed(err, st, "navbot_route", navbot_world_error(c->w));
    c->route_time = r.time;
    st = navbot_session_create(c->w, &(NavbotSessionDesc){ .seed = 3 }, &c->s, &e);
    if (st) return api_failed(err, st, "navbot_session_create", e.text);
    int id;
    st = navbot_session_add_bot(
        c->s,
        &(NavbotBotDesc){
            .brain = "runner", .at = { from[0], from[1], from[2] }, .has_goal = true, .goal = { to[0], to[1], to[2] } },
        &id);
    if (st == NAVBOT_E_BRAIN) {
        cr_assert(says_out_of_memory(navbot_session_error(c->s)), "%s: brain failed: %s", fail_where(),
                  navbot_session_error(c->s));
        c->brain_failed = true;
    } else if (st) {
        return api_failed(err, st, "navbot_session_add_bot", navbot_session_error(c->s));
    }
    st = navbot_session_step(c->s, 10);
    if (st) return api_failed(err, st, "navbot_session_step", navbot_session_error(c->s));
    c->hash = navbot_session_hash(c->s);
    st = navbot_session_png(c->s, c->png, 256);
    if (st) return api_failed(err, st, "navbot_session_png", navbot_session_error(c->s));
    return NAV_OK;
}

static void api_check(void *p, bool ok, bool failed)
{
    ApiCtx *c = p;
    if (!ok) return;
    cr_assert_eq(c->route_time, api_want.route_time, "%s: route time %g, want %g", fail_where(), (double)c->route_time,
                 (double)api_want.route_time);
    NavbotBotState st;
    cr_assert_eq(navbot_session_bot(c->s, 0, &st), NAVBOT_OK);
    if (c->brain_failed || st.faulted) {
        cr_assert(st.faulted && st.error && says_out_of_memory(st.error), "%s: %s", fail_where(),
                  st.error ? st.error : "(no error)");
        return;
    }
    cr_assert_eq(c->hash, api_want.hash, "%s: another trace hash with no fault", fail_where());
}

Test(alloc_fail_sim, the_public_api)
{
    snprintf(api_ctx.png, sizeof api_ctx.png, "/tmp/navbot-alloc-fail-%d.png", (int)getpid());
    api_setup();
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(api_run(&api_ctx, &err)), "%s", err.message);
    api_want = api_ctx;
    api_teardown(&api_ctx);
    alloc_fail_each(&(FailOp){ .name = "public API: load, route, session, png",
                               .setup = api_setup,
                               .run = api_run,
                               .check = api_check,
                               .teardown = api_teardown,
                               .dense = 200,
                               .stride = 67 });
}

/* }======= */

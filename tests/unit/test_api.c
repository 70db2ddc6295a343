/*
** test_api.c — the public C API (include/navbot.h): worlds, routes, grid
** paths, traces, sampling, compiled graphs, sessions and pictures, and
** every kind of bad input answered with a status rather than a crash.
**
** Routes are checked against numbers computed here: on the flat arena a
** walk-only route takes its polyline's length at the class's run speed,
** and no route is faster than the straight line at that speed.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "navbot.h"
#include "test_support.h"

#define RUN_SPEED 6.0f /* the bundled maps' human */

static NavbotWorld *load(const char *path)
{
    NavbotError err;
    NavbotWorld *w = NULL;
    NavbotStatus st = navbot_world_load(path, &(NavbotWorldDesc){ .seed = 3 }, &w, &err);
    cr_assert_eq(st, NAVBOT_OK, "%s: %s", path, err.text);
    cr_assert_not_null(w);
    cr_assert_str_empty(navbot_world_error(w));
    return w;
}

static void entity(NavbotWorld *w, const char *name, float p[3])
{
    cr_assert_eq(navbot_world_entity_point(w, name, p), NAVBOT_OK, "%s", navbot_world_error(w));
}

static float dist2d(const float a[3], const float b[3])
{
    return hypotf(a[0] - b[0], a[1] - b[1]);
}

Test(api, loading_reports_where_and_why)
{
    NavbotError err;
    NavbotWorld *w = (NavbotWorld *)1;
    cr_assert_eq(navbot_world_load("tests/no/such/map.lua", NULL, &w, &err), NAVBOT_E_IO);
    cr_assert_null(w);
    cr_assert(strstr(err.text, "tests/no/such/map.lua"), "%s", err.text);
    cr_assert_eq(err.status, NAVBOT_E_IO);

    cr_assert_eq(navbot_world_load(NULL, NULL, &w, &err), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_load("maps/arena.lua", NULL, NULL, &err), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_load("maps/arena.lua", NULL, NULL, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_load_string(NULL, 0, "x", NULL, &w, &err), NAVBOT_E_PARAM);

    /* A Lua map with an error on its third line. */
    const char *bad = "return {\n  name = 'bad',\n  cell_size = 'big',\n}\n";
    cr_assert_eq(navbot_world_load_string(bad, 0, "bad.lua", NULL, &w, &err), NAVBOT_E_FORMAT);
    cr_assert_null(w);
    cr_assert(strstr(err.text, "bad.lua"), "%s", err.text);
    cr_assert(strstr(err.text, "cell_size"), "%s", err.text);
    const char *syntax = "return {\n  name = 'bad',,\n}\n";
    cr_assert_eq(navbot_world_load_string(syntax, 0, "syntax.lua", NULL, &w, &err), NAVBOT_E_FORMAT);
    cr_assert_eq(err.line, 2, "%s", err.text);

    cr_assert_str_eq(navbot_status_name(NAVBOT_E_NO_ROUTE), "no route");
    cr_assert_str_eq(navbot_status_name((NavbotStatus)99), "unknown status");
    cr_assert_str_eq(navbot_version(), NAVBOT_VERSION);
    navbot_world_destroy(NULL);
    cr_assert_str_empty(navbot_world_error(NULL));
    NAV_TEST_LEAK_CHECK();
}

Test(api, world_facts)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotWorldInfo info;
    cr_assert_eq(navbot_world_info(w, &info), NAVBOT_OK);
    cr_assert_str_eq(info.name, "arena");
    cr_assert_eq(info.width, 48);
    cr_assert_float_eq(info.size[0], 24.0f, 1e-4);
    cr_assert_eq(info.class_count, 1);
    cr_assert_str_eq(navbot_world_class_name(w, 0), "human");
    cr_assert_null(navbot_world_class_name(w, 1));
    cr_assert_null(navbot_world_class_name(w, -1));
    cr_assert_eq(navbot_world_find_class(w, "human"), 0);
    cr_assert_eq(navbot_world_find_class(w, NULL), 0);
    cr_assert_eq(navbot_world_find_class(w, "giant"), -1);
    cr_assert_eq(navbot_world_info(NULL, &info), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_info(w, NULL), NAVBOT_E_PARAM);

    float p[3];
    entity(w, "centre", p);
    cr_assert_float_eq(p[2], 0.4f, 1e-4);
    cr_assert_eq(navbot_world_entity_point(w, "nowhere", p), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_world_error(w), "nowhere"));
    cr_assert_eq(navbot_world_entity_point(w, NULL, p), NAVBOT_E_PARAM);

    float z = -1;
    cr_assert_eq(navbot_world_floor_z(w, 0, 12.0f, 7.0f, &z), NAVBOT_OK);
    cr_assert_float_eq(z, 0.4f, 1e-4); /* the dais */
    cr_assert_eq(navbot_world_floor_z(w, 0, -5.0f, 7.0f, &z), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_world_error(w), "off the map"), "%s", navbot_world_error(w));
    cr_assert_eq(navbot_world_floor_z(w, 0, 0.1f, 0.1f, &z), NAVBOT_E_PARAM); /* the outer wall */
    cr_assert_eq(navbot_world_floor_z(w, 3, 5.0f, 5.0f, &z), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_floor_z(w, 0, NAN, 5.0f, &z), NAVBOT_E_PARAM);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, travel_flags_by_name)
{
    uint32_t f = 0;
    NavbotError err;
    cr_assert_eq(navbot_travel_flags("walk,jump,water", &f, &err), NAVBOT_OK);
    cr_assert_eq(f, NAVBOT_TRAVEL_WALK | NAVBOT_TRAVEL_JUMP | NAVBOT_TRAVEL_WATER);
    cr_assert_eq(navbot_travel_flags("default", &f, &err), NAVBOT_OK);
    cr_assert_eq(f, NAVBOT_TRAVEL_DEFAULT);
    cr_assert_eq(navbot_travel_flags("walk,wlak", &f, &err), NAVBOT_E_PARAM);
    cr_assert(strstr(err.text, "'wlak'") && strstr(err.text, "barrier_jump"), "%s", err.text);
    cr_assert_eq(navbot_travel_flags("walk,,jump", &f, &err), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_travel_flags(NULL, &f, &err), NAVBOT_E_PARAM);
    cr_assert_str_eq(navbot_travel_name(0), "walk");
    cr_assert_str_eq(navbot_travel_name(11), "jump_pad");
    cr_assert_null(navbot_travel_name(12));
    cr_assert_null(navbot_travel_name(-1));
    NAV_TEST_LEAK_CHECK();
}

Test(api, a_walk_takes_its_length_at_run_speed)
{
    NavbotWorld *w = load("maps/arena.lua");
    float a[3], b[3];
    entity(w, "spawn_a", a);
    entity(w, "spawn_b", b);
    NavbotWaypoint pts[64];
    NavbotRoute r = { .points = pts, .cap = 64 };
    NavbotRouteQuery q = { .from = { a[0], a[1], a[2] }, .to = { b[0], b[1], b[2] }, .flags = NAVBOT_TRAVEL_WALK };
    cr_assert_eq(navbot_route(w, &q, &r), NAVBOT_OK, "%s", navbot_world_error(w));
    cr_assert_gt(r.links, 0);
    cr_assert_eq(r.count, 2 * r.links + 2);
    cr_assert_float_eq(pts[0].pos[0], a[0], 1e-4);
    cr_assert_float_eq(pts[r.count - 1].pos[1], b[1], 1e-4);
    double length = 0;
    for (int i = 1; i < r.count; i++) {
        length += dist2d(pts[i - 1].pos, pts[i].pos);
        cr_assert(pts[i].travel == -1 || pts[i].travel == 0, "only walks: %d", pts[i].travel);
    }
    /* Flat ground: the time is the polyline at run speed (to the 1/100 s
    ** each part is rounded to). */
    cr_assert(fabs(r.time - length / RUN_SPEED) <= 0.01 * (r.links + 2) + 1e-3, "time %.3f s, length %.3f m", (double)r.time,
              length);
    cr_assert_geq(r.time + 1e-3, dist2d(a, b) / RUN_SPEED);

    float t = 0;
    cr_assert_eq(navbot_route_time(w, &q, &t), NAVBOT_OK);
    cr_assert_float_eq(t, r.time, 1e-6);

    /* A small buffer: the count says how many there are. */
    NavbotRoute small = { .points = pts, .cap = 1 };
    cr_assert_eq(navbot_route(w, &q, &small), NAVBOT_OK);
    cr_assert_eq(small.count, r.count);
    NavbotRoute none = { 0 };
    cr_assert_eq(navbot_route(w, &q, &none), NAVBOT_OK);
    cr_assert_eq(none.count, r.count);

    /* Both points in one area: a straight walk. */
    NavbotRouteQuery near = { .from = { 2.0f, 2.0f, 0 }, .to = { 3.0f, 2.0f, 0 } };
    cr_assert_eq(navbot_route_time(w, &near, &t), NAVBOT_OK);
    cr_assert_float_eq(t, 1.0f / RUN_SPEED, 0.011);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, routes_use_what_the_flags_allow)
{
    NavbotWorld *w = load("maps/gauntlet.lua");
    float a[3], g[3];
    entity(w, "spawn_start", a);
    entity(w, "goal_loft", g);
    NavbotWaypoint pts[128];
    NavbotRoute r = { .points = pts, .cap = 128 };
    NavbotRouteQuery q = { .from = { a[0], a[1], a[2] }, .to = { g[0], g[1], g[2] } };
    cr_assert_eq(navbot_route(w, &q, &r), NAVBOT_OK, "%s", navbot_world_error(w));
    uint32_t used = 0;
    for (int i = 0; i < r.count; i++)
        if (pts[i].travel >= 0) used |= 1u << pts[i].travel;
    cr_assert_geq(r.time + 1e-3, dist2d(a, g) / RUN_SPEED);
    /* Taking away what the fastest route used never makes it faster. */
    q.flags = NAVBOT_TRAVEL_DEFAULT & ~(used & ~NAVBOT_TRAVEL_WALK);
    float t;
    NavbotStatus st = navbot_route_time(w, &q, &t);
    cr_assert(st == NAVBOT_OK || st == NAVBOT_E_NO_ROUTE);
    if (st == NAVBOT_OK) cr_assert_geq(t + 1e-3, r.time);
    else cr_assert(strstr(navbot_world_error(w), "no route"));
    /* Ladders alone go nowhere from the spawn. */
    q.flags = NAVBOT_TRAVEL_LADDER;
    cr_assert_eq(navbot_route(w, &q, &r), NAVBOT_E_NO_ROUTE);
    cr_assert_eq(r.count, 0);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, route_bad_input)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotRoute r = { 0 };
    float t;
    NavbotRouteQuery q = { .from = { 2, 2, 0 }, .to = { 300, 2, 0 } };
    cr_assert_eq(navbot_route(w, &q, &r), NAVBOT_E_NO_AREA);
    cr_assert(strstr(navbot_world_error(w), "to:"), "%s", navbot_world_error(w));
    q.to[0] = 0.1f; /* in the outer wall, more than 2 m from nothing? no: 2 m reaches a floor */
    q.from[0] = NAN;
    cr_assert_eq(navbot_route(w, &q, &r), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_world_error(w), "from:"));
    q.from[0] = 2;
    q.cls = 5;
    cr_assert_eq(navbot_route_time(w, &q, &t), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_world_error(w), "class"));
    cr_assert_eq(navbot_route(NULL, &q, &r), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_route(w, NULL, &r), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_route(w, &q, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_route_time(w, &q, NULL), NAVBOT_E_PARAM);
    NavbotRoute bad = { .points = NULL, .cap = 4 };
    q.cls = 0;
    cr_assert_eq(navbot_route(w, &q, &bad), NAVBOT_E_PARAM);
    /* A good query clears the error. */
    q.to[0] = 20;
    q.to[1] = 10;
    cr_assert_eq(navbot_route_time(w, &q, &t), NAVBOT_OK, "%s", navbot_world_error(w));
    cr_assert_str_empty(navbot_world_error(w));
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, grid_paths_traces_and_samples)
{
    NavbotWorld *w = load("maps/arena.lua");
    float pts[64][2];
    NavbotGridPath p = { .points = pts, .cap = 64 };
    cr_assert_eq(navbot_grid_path(w, 0, 2.0f, 2.0f, 20.0f, 11.0f, true, &p), NAVBOT_OK, "%s", navbot_world_error(w));
    cr_assert_geq(p.count, 2);
    double length = 0;
    for (int i = 1; i < p.count; i++) length += hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    /* The reported length counts each leg by the grid's 8-connected rule
    ** (octile), at most 1.0824 times the straight leg. */
    cr_assert(length <= p.length + 1e-3 && p.length <= 1.0824 * length + 1e-3, "%f vs %f", length, (double)p.length);
    cr_assert_geq(p.length + 0.75, hypotf(18.0f, 9.0f));
    cr_assert_lt(hypotf(pts[0][0] - 2.0f, pts[0][1] - 2.0f), 0.75f);
    cr_assert_eq(navbot_grid_path(w, 0, -1, 2, 20, 11, false, &p), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_grid_path(w, 0, 2, 2, 20, INFINITY, false, &p), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_grid_path(w, 9, 2, 2, 20, 11, false, &p), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_grid_path(w, 0, 2, 2, 20, 11, false, NULL), NAVBOT_E_PARAM);

    /* West from x = 8 m the outer wall's face is at 0.5 m. */
    NavbotTrace t;
    const float mins[3] = { -0.4f, -0.4f, 0 }, maxs[3] = { 0.4f, 0.4f, 1.8f };
    const float start[3] = { 8.0f, 1.5f, 0.01f }, west[3] = { -10.0f, 0, 0 }, east[3] = { 1.0f, 0, 0 };
    cr_assert_eq(navbot_trace(w, mins, maxs, start, west, &t), NAVBOT_OK);
    cr_assert(t.hit && t.world && !t.start_solid);
    cr_assert_float_eq(t.end[0] - 0.4f, 0.5f, 0.02);
    cr_assert_float_eq(t.normal[0], 1.0f, 1e-6);
    cr_assert_eq(navbot_trace(w, mins, maxs, start, east, &t), NAVBOT_OK);
    cr_assert(!t.hit);
    cr_assert_float_eq(t.fraction, 1.0f, 1e-6);
    cr_assert_eq(navbot_trace(w, maxs, mins, start, east, &t), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_world_error(w), "empty box"));
    cr_assert_eq(navbot_trace(w, mins, maxs, NULL, east, &t), NAVBOT_E_PARAM);

    /* Samples: on the floor, within the radius, reachable; repeatable. */
    float near[3] = { 4.0f, 4.0f, 0.0f }, out[3], first[3] = { 0 };
    for (int i = 0; i < 50; i++) {
        cr_assert_eq(navbot_world_random_point(w, 0, near, 3.0f, out), NAVBOT_OK, "%s", navbot_world_error(w));
        if (i == 0) memcpy(first, out, sizeof first);
        cr_assert_leq(dist2d(near, out), 3.0f + 1e-4);
        float z;
        cr_assert_eq(navbot_world_floor_z(w, 0, out[0], out[1], &z), NAVBOT_OK);
        float tt;
        cr_assert_eq(navbot_route_time(w, &(NavbotRouteQuery){ .from = { near[0], near[1], near[2] }, .to = { out[0], out[1], out[2] } }, &tt),
                     NAVBOT_OK);
    }
    NavbotWorld *again = load("maps/arena.lua");
    cr_assert_eq(navbot_world_random_point(again, 0, near, 3.0f, out), NAVBOT_OK);
    cr_assert(memcmp(out, first, sizeof out) == 0, "the same seed gives the same first point");
    navbot_world_destroy(again);
    cr_assert_eq(navbot_world_random_point(w, 0, near, -1.0f, out), NAVBOT_E_PARAM);
    float off[3] = { 100, 100, 0 };
    cr_assert_eq(navbot_world_random_point(w, 0, off, 3.0f, out), NAVBOT_E_NO_AREA);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, compiled_graphs_save_and_load)
{
    char path[] = "/tmp/navbot-api-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    NavbotWorld *w = load("maps/gauntlet.lua");
    NavbotGraphInfo gi;
    cr_assert_eq(navbot_world_compile(w, 0, &gi), NAVBOT_OK);
    cr_assert_gt(gi.areas, 0);
    cr_assert(!gi.loaded);
    cr_assert_eq(navbot_world_save_graph(w, 0, path), NAVBOT_OK, "%s", navbot_world_error(w));
    /* Too late for this world: its graph is in use. */
    cr_assert_eq(navbot_world_load_graph(w, 0, path), NAVBOT_E_PARAM);

    NavbotWorld *fresh = load("maps/gauntlet.lua");
    cr_assert_eq(navbot_world_load_graph(fresh, 0, path), NAVBOT_OK, "%s", navbot_world_error(fresh));
    NavbotGraphInfo li;
    cr_assert_eq(navbot_world_compile(fresh, 0, &li), NAVBOT_OK);
    cr_assert(li.loaded);
    cr_assert_eq(li.areas, gi.areas);
    cr_assert_eq(li.links, gi.links);
    float a[3], g[3], t1, t2;
    entity(w, "spawn_start", a);
    entity(w, "goal_loft", g);
    NavbotRouteQuery q = { .from = { a[0], a[1], a[2] }, .to = { g[0], g[1], g[2] } };
    cr_assert_eq(navbot_route_time(w, &q, &t1), NAVBOT_OK);
    cr_assert_eq(navbot_route_time(fresh, &q, &t2), NAVBOT_OK);
    cr_assert_float_eq(t1, t2, 1e-6);
    /* A session on it routes on the loaded graph too. */
    NavbotSession *s;
    NavbotError err;
    cr_assert_eq(navbot_session_create(fresh, NULL, &s, &err), NAVBOT_OK, "%s", err.text);
    navbot_session_destroy(s);

    /* Another map's graph is stale; a file that is no graph is refused. */
    NavbotWorld *other = load("maps/arena.lua");
    NavbotStatus st = navbot_world_load_graph(other, 0, path);
    cr_assert(st == NAVBOT_E_STALE || st == NAVBOT_E_FORMAT, "%s", navbot_status_name(st));
    cr_assert(navbot_world_error(other)[0]);
    cr_assert_eq(navbot_world_load_graph(other, 0, "maps/arena.lua"), NAVBOT_E_FORMAT, "%s", navbot_world_error(other));
    cr_assert_eq(navbot_world_load_graph(other, 0, "/tmp/no/such.nav"), NAVBOT_E_IO, "%s", navbot_world_error(other));
    cr_assert_eq(navbot_world_load_graph(other, 2, path), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_save_graph(other, 0, "/no/such/dir/x.nav"), NAVBOT_E_IO, "%s", navbot_world_error(other));
    cr_assert_eq(navbot_world_compile(other, -1, NULL), NAVBOT_E_PARAM);
    navbot_world_destroy(other);
    navbot_world_destroy(fresh);
    navbot_world_destroy(w);
    unlink(path);
    NAV_TEST_LEAK_CHECK();
}

static NavbotSession *session(NavbotWorld *w, const NavbotSessionDesc *d)
{
    NavbotSession *s = NULL;
    NavbotError err;
    cr_assert_eq(navbot_session_create(w, d, &s, &err), NAVBOT_OK, "%s", err.text);
    return s;
}

Test(api, brains_bring_bots_to_their_goal)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotSession *s = session(w, &(NavbotSessionDesc){ .seed = 5 });
    float a[3], b[3], g[3];
    entity(w, "spawn_a", a);
    entity(w, "spawn_b", b);
    entity(w, "centre", g);
    int id;
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "runner", .at = { a[0], a[1], a[2] }, .has_goal = true, .goal = { g[0], g[1], g[2] } }, &id),
                 NAVBOT_OK, "%s", navbot_session_error(s));
    cr_assert_eq(id, 0);
    /* By path, inside the bundled bots/ folder. */
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "bots/runner.lua", .at = { b[0], b[1], b[2] }, .has_goal = true, .goal = { g[0], g[1], g[2] } }, &id),
                 NAVBOT_OK, "%s", navbot_session_error(s));
    cr_assert_eq(id, 1);
    cr_assert_eq(navbot_session_bot_count(s), 2);
    NavbotBotState st;
    for (int k = 0; k < 30; k++) {
        cr_assert_eq(navbot_session_step(s, 30), NAVBOT_OK);
        bool all = true;
        for (int i = 0; i < 2; i++) {
            cr_assert_eq(navbot_session_bot(s, i, &st), NAVBOT_OK);
            all = all && st.arrived;
        }
        if (all) break;
    }
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(navbot_session_bot(s, i, &st), NAVBOT_OK);
        cr_assert(st.arrived, "bot %d at (%.2f, %.2f): %s", i, (double)st.pos[0], (double)st.pos[1], st.state);
        cr_assert(!st.faulted);
        cr_assert_null(st.error);
        cr_assert_str_eq(st.brain, "runner");
        cr_assert_lt(dist2d(st.pos, g), 3.0f);
        cr_assert_geq(st.arrival_time, 0.0);
        cr_assert_eq(st.goals_left, 0);
    }
    cr_assert_gt(navbot_session_tick(s), 0);
    cr_assert_float_eq(navbot_session_time(s), (double)navbot_session_tick(s) / 30.0, 1e-9);

    /* The same run again gives the same trace hash. */
    NavbotSession *s2 = session(w, &(NavbotSessionDesc){ .seed = 5 });
    navbot_session_add_bot(s2, &(NavbotBotDesc){ .brain = "runner", .at = { a[0], a[1], a[2] }, .has_goal = true, .goal = { g[0], g[1], g[2] } }, &id);
    navbot_session_add_bot(s2, &(NavbotBotDesc){ .brain = "runner", .at = { b[0], b[1], b[2] }, .has_goal = true, .goal = { g[0], g[1], g[2] } }, &id);
    navbot_session_step(s2, (int)navbot_session_tick(s));
    cr_assert_eq(navbot_session_hash(s2), navbot_session_hash(s));
    navbot_session_destroy(s2);
    navbot_session_destroy(s);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, a_caller_drives_a_body)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotSession *s = session(w, NULL);
    int id;
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .at = { 8.0f, 3.0f, 0 } }, &id), NAVBOT_OK);
    NavbotBotState st;
    navbot_session_step(s, 5);
    navbot_session_bot(s, id, &st);
    float x0 = st.pos[0];
    cr_assert_str_eq(st.brain, "");
    cr_assert(!st.faulted);
    /* East at full speed for a second: most of run speed's 6 m. */
    cr_assert_eq(navbot_session_set_controls(s, id, &(NavbotControls){ .move = { 3.0f, 0.0f } }), NAVBOT_OK);
    navbot_session_step(s, 30);
    navbot_session_bot(s, id, &st);
    cr_assert_gt(st.pos[0] - x0, 4.0f, "moved %.2f m", (double)(st.pos[0] - x0));
    cr_assert_leq(st.pos[0] - x0, 6.0f + 1e-3);
    cr_assert_float_eq(st.pos[1], 3.0f, 0.05);
    float goal[3] = { 4.0f, 8.0f, 0.0f };
    cr_assert_eq(navbot_session_add_goal(s, id, goal, 1.0f), NAVBOT_OK);
    cr_assert_eq(navbot_session_add_goal(s, id, NULL, 1.0f), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_goal(s, 7, goal, 1.0f), NAVBOT_E_PARAM);
    for (int i = 0; i < 15; i++) navbot_session_add_goal(s, id, goal, 1.0f);
    cr_assert_eq(navbot_session_add_goal(s, id, goal, 1.0f), NAVBOT_E_FULL);
    cr_assert_eq(navbot_session_set_controls(s, 3, &(NavbotControls){ 0 }), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_set_controls(s, id, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_set_controls(s, id, &(NavbotControls){ .move = { NAN, 0 } }), NAVBOT_E_PARAM);
    navbot_session_destroy(s);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, session_bad_input)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotError err;
    NavbotSession *s = (NavbotSession *)1;
    cr_assert_eq(navbot_session_create(NULL, NULL, &s, &err), NAVBOT_E_PARAM);
    cr_assert_null(s);
    cr_assert_eq(navbot_session_create(w, NULL, NULL, &err), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_create(w, &(NavbotSessionDesc){ .tick_hz = -3 }, &s, &err), NAVBOT_E_PARAM);
    cr_assert(strstr(err.text, "tick_hz"), "%s", err.text);
    cr_assert_eq(navbot_session_create(w, &(NavbotSessionDesc){ .project_dirs = { "" } }, &s, &err), NAVBOT_E_PARAM);

    s = session(w, NULL);
    int id = 99;
    /* A brain that is not there: added, faulted, with the reason. */
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "no_such_brain", .at = { 8, 3, 0 } }, &id), NAVBOT_E_BRAIN);
    cr_assert_eq(id, 0);
    cr_assert(strstr(navbot_session_error(s), "no_such_brain"), "%s", navbot_session_error(s));
    NavbotBotState st;
    navbot_session_step(s, 2);
    cr_assert_eq(navbot_session_bot(s, 0, &st), NAVBOT_OK);
    cr_assert(st.faulted);
    cr_assert(st.error && strstr(st.error, "no_such_brain"));
    /* A brain path outside every project folder, or not a .lua file. */
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "/tmp/bots/x.lua", .at = { 8, 3, 0 } }, &id), NAVBOT_E_PARAM);
    cr_assert_eq(id, -1);
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "maps/arena.lua", .at = { 8, 3, 0 } }, &id), NAVBOT_E_PARAM);
    cr_assert(strstr(navbot_session_error(s), "bots/"), "%s", navbot_session_error(s));
    /* Places a body cannot stand. */
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .at = { 0.1f, 0.1f, 0 } }, &id), NAVBOT_E_FULL);
    cr_assert_eq(id, -1);
    cr_assert(navbot_session_error(s)[0]);
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .at = { 400, 3, 0 } }, &id), NAVBOT_E_FULL);
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .at = { NAN, 3, 0 } }, &id), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .cls = 1, .at = { 8, 3, 0 } }, &id), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .at = { 8, 3, 0 }, .has_goal = true, .goal = { 1, INFINITY, 0 } }, &id),
                 NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_bot(s, NULL, &id), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_bot(NULL, NULL, &id), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_bot_count(s), 1);
    cr_assert_eq(navbot_session_step(s, -1), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_step(NULL, 1), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_bot(s, 1, &st), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_bot(s, -1, &st), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_bot(s, 0, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_png(s, NULL, 0), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_png(s, "/tmp/x.png", 10), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_png(s, "/no/such/dir/x.png", 0), NAVBOT_E_IO, "%s", navbot_session_error(s));
    cr_assert_eq(navbot_session_bot_count(NULL), 0);
    cr_assert_str_empty(navbot_session_error(NULL));
    navbot_session_destroy(s);
    navbot_session_destroy(NULL);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* A project folder of the caller's own: bots/ with a brain that requires a
** module from its lua/, and the brain's print reaching the log callback. */
static void collect(void *user, const char *line)
{
    char *buf = user;
    size_t n = strlen(buf);
    snprintf(buf + n, 4096 - n, "%s\n", line);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

Test(api, brains_from_a_project_folder)
{
    char dir[] = "/tmp/navbot-proj-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char p[512];
    snprintf(p, sizeof p, "%s/bots", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/lua", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/lua/east.lua", dir);
    write_file(p, "return { dx = 1 }\n");
    snprintf(p, sizeof p, "%s/bots/walker.lua", dir);
    write_file(p, "local east = require 'east'\n"
                  "return { spawn = function(bot) print('walking east') end,\n"
                  "         think = function(bot) bot:move(east.dx, 0) end }\n");
    NavbotWorld *w = load("maps/arena.lua");
    char log[4096] = "";
    NavbotSession *s = session(w, &(NavbotSessionDesc){ .project_dirs = { dir }, .log = collect, .log_user = log });
    int id;
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "walker", .at = { 8, 3, 0 } }, &id), NAVBOT_OK,
                 "%s", navbot_session_error(s));
    cr_assert_eq(navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = p, .at = { 8, 6, 0 } }, &id), NAVBOT_OK, "%s",
                 navbot_session_error(s));
    navbot_session_step(s, 30);
    NavbotBotState st;
    for (int i = 0; i < 2; i++) {
        navbot_session_bot(s, i, &st);
        cr_assert(!st.faulted, "%s", st.error);
        cr_assert_gt(st.pos[0], 11.0f, "bot %d at x = %.2f", i, (double)st.pos[0]);
    }
    cr_assert(strstr(log, "walking east"), "log: %s", log);
    navbot_session_destroy(s);
    navbot_world_destroy(w);
    snprintf(p, sizeof p, "rm -r '%s'", dir);
    cr_assert_eq(system(p), 0);
    NAV_TEST_LEAK_CHECK();
}

Test(api, pictures)
{
    NavbotWorld *w = load("maps/arena.lua");
    NavbotSession *s = session(w, NULL);
    int id;
    navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "runner", .at = { 8, 3, 0 } }, &id);
    navbot_session_step(s, 3);
    char path[] = "/tmp/navbot-api-png-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(navbot_session_png(s, path, 320), NAVBOT_OK, "%s", navbot_session_error(s));
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    unsigned char sig[8] = { 0 };
    cr_assert_eq(fread(sig, 1, 8, f), 8u);
    fclose(f);
    cr_assert(memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
    unlink(path);
    navbot_session_destroy(s);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(api, the_bundled_folder_is_found_from_the_code)
{
    char buf[4096];
    cr_assert_eq(navbot_bundled_path("maps/arena.lua", buf, sizeof buf), NAVBOT_OK);
    cr_assert_eq(access(buf, R_OK), 0, "%s", buf);
    cr_assert_eq(buf[0], '/');
    char tiny[4];
    cr_assert_eq(navbot_bundled_path("maps/arena.lua", tiny, sizeof tiny), NAVBOT_E_PARAM);
    cr_assert_str_empty(tiny);
    cr_assert_eq(navbot_bundled_path(NULL, NULL, 0), NAVBOT_E_PARAM);
    /* Not the current directory: the same answer from elsewhere. */
    char here[4096];
    cr_assert_not_null(getcwd(here, sizeof here));
    cr_assert_eq(chdir("/tmp"), 0);
    char again[4096];
    NavbotStatus st = navbot_bundled_path("maps/arena.lua", again, sizeof again);
    cr_assert_eq(chdir(here), 0);
    cr_assert_eq(st, NAVBOT_OK);
    cr_assert_str_eq(again, buf);
    NAV_TEST_LEAK_CHECK();
}

Test(api, null_handles_are_a_status)
{
    float p[3] = { 1, 1, 0 }, z;
    NavbotRoute r = { 0 };
    NavbotGridPath g = { 0 };
    NavbotTrace t;
    NavbotGraphInfo gi;
    NavbotBotState st;
    int id;
    cr_assert_eq(navbot_world_compile(NULL, 0, &gi), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_save_graph(NULL, 0, "x.nav"), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_load_graph(NULL, 0, "x.nav"), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_entity_point(NULL, "spawn", p), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_floor_z(NULL, 0, 1, 1, &z), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_route(NULL, NULL, &r), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_route_time(NULL, NULL, &z), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_grid_path(NULL, 0, 1, 1, 2, 2, false, &g), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_trace(NULL, p, p, p, p, &t), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_random_point(NULL, 0, p, 1, p), NAVBOT_E_PARAM);
    cr_assert_null(navbot_world_class_name(NULL, 0));
    cr_assert_eq(navbot_world_find_class(NULL, "human"), -1);
    cr_assert_eq(navbot_session_add_goal(NULL, 0, p, 1), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_set_controls(NULL, 0, &(NavbotControls){ 0 }), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_add_bot(NULL, &(NavbotBotDesc){ 0 }, &id), NAVBOT_E_PARAM);
    cr_assert_eq(id, -1);
    cr_assert_eq(navbot_session_bot(NULL, 0, &st), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_png(NULL, "x.png", 0), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_session_tick(NULL), 0u);
    cr_assert_eq(navbot_session_hash(NULL), 0u);
    cr_assert_float_eq(navbot_session_time(NULL), 0.0, 1e-12);

    /* And the world's other NULL arguments. */
    NavbotWorld *w = load("maps/arena.lua");
    cr_assert_eq(navbot_world_floor_z(w, 0, 1, 1, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_save_graph(w, 0, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_load_graph(w, 0, ""), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_trace(w, p, p, p, p, NULL), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_random_point(w, 0, NULL, 1, p), NAVBOT_E_PARAM);
    cr_assert_eq(navbot_world_random_point(w, 0, p, 1, NULL), NAVBOT_E_PARAM);
    NavbotGridPath bad = { .points = NULL, .cap = 3 };
    cr_assert_eq(navbot_grid_path(w, 0, 2, 2, 3, 3, false, &bad), NAVBOT_E_PARAM);
    navbot_world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

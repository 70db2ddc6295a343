/*
** test_run_trace.c — run records: what a run writes reads back the same,
** tick by tick, with its changes; broken records are errors naming the
** line and field.
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "map/map.h"
#include "script/run_trace.h"
#include "script/session.h"

static void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static char *temp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/navbot-test-trace-%d-%s", (int)getpid(), name);
    return path;
}

Test(run_trace, round_trip_matches_the_run)
{
    NavError e;
    NavWorld *w = map_load_file("maps/gauntlet.lua", NULL, &e);
    cr_assert_not_null(w, "%s", e.message);
    NavSession *s = session_create(w, &(NavSessionDesc){ .seed = 3, .log = quiet }, &e);
    cr_assert_not_null(s);
    int id = session_add_bot(s, "runner", &(NavBotDesc){ .pos = { 2, 28, 0 } }, &e);
    cr_assert_geq(id, 0, "%s", e.message);
    const char *path = temp_path("rt");
    RunTraceWriter *t = run_trace_create(path, s, "maps/gauntlet.lua", ".", 3, &e);
    cr_assert_not_null(t, "%s", e.message);
    float mn[3] = { 10, 10, 0 }, mx[3] = { 11, 11, 2 };
    float pos[40][3];
    uint64_t hash[40];
    uint32_t ob = 0;
    for (int k = 0; k < 40; k++) {
        if (k == 10) ob = sim_add_obstacle(session_sim(s), mn, mx);
        if (k == 20) sim_remove_obstacle(session_sim(s), ob);
        session_step(s);
        cr_assert(run_trace_tick(t, s));
        memcpy(pos[k], sim_bot(session_sim(s), 0)->pos, sizeof pos[k]);
        hash[k] = sim_trace_hash(session_sim(s));
    }
    cr_assert_eq(run_trace_close(t, &e), NAV_OK);

    RunTrace *r = run_trace_load(path, &e);
    cr_assert_not_null(r, "%s", e.message);
    cr_assert_str_eq(r->map, "maps/gauntlet.lua");
    cr_assert_eq(r->seed, 3);
    cr_assert_eq(r->hz, 30);
    cr_assert_eq(r->bot_count, 1);
    cr_assert_str_eq(r->bot_info[0].brain, "runner");
    cr_assert_eq(r->frame_count, 40);
    for (int k = 0; k < 40; k++) {
        const RunTraceFrame *f = &r->frames[k];
        cr_assert_eq(f->tick, (uint64_t)k + 1);
        cr_assert_eq(f->hash, hash[k]);
        cr_assert_eq(f->count, 1);
        for (int c = 0; c < 3; c++) cr_assert_float_eq(r->bots[f->first].pos[c], pos[k][c], 1e-4);
    }
    int adds = 0, removes = 0, goals = 0;
    for (uint32_t i = 0; i < r->event_count; i++) {
        const RunTraceEvent *ev = &r->events[i];
        if (ev->kind == RUN_TRACE_OBSTACLE_ADD) {
            adds++;
            cr_assert_eq(ev->frame, 10);
            cr_assert_float_eq(ev->v[3], 11.0f, 1e-3);
        }
        if (ev->kind == RUN_TRACE_OBSTACLE_REMOVE) {
            removes++;
            cr_assert_eq(ev->frame, 20);
        }
        goals += ev->kind == RUN_TRACE_GOAL;
    }
    cr_assert_eq(adds, 1);
    cr_assert_eq(removes, 1);
    cr_assert_geq(goals, 1, "the runner's first goal is recorded");
    cr_assert_eq(run_trace_frame_at(r, 0), 0);
    cr_assert_eq(run_trace_frame_at(r, 25), 24);
    cr_assert_eq(run_trace_frame_at(r, 1000), 39);
    run_trace_destroy(r);
    unlink(path);
    session_destroy(s);
    world_destroy(w);
}

/* Each broken record names its line and field. */
Test(run_trace, broken_records_name_line_and_field)
{
    static const struct {
        const char *text;
        int line;
        const char *field, *says;
    } cases[] = {
        { "hello\n", 1, "", "not a navbot run trace" },
        { "navbot-trace 2\nmap m.lua\nhz 30\ntick 1 00ff\nb 0 1 2 3 0 0 0 0 g\n", 5, "b", "not announced" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 runner human\ntick 1 00ff\nb 0 1 x 3 0 0 0 0 g\n", 6, "b",
          "expected" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 2 1\ntick 2 1\n", 6, "tick", "increase" },
        { "navbot-trace 2\nmap m.lua\nhz 0\n", 3, "hz", "1 to 1000" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 1 1\nb 0 1 2 3 0 0 0 0 gq\n", 6, "b", "expected" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nwhat 1\n", 4, "", "unknown record" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\n", 4, "", "no ticks" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 1 1\nobstacle * 3\n", 6, "obstacle", "+ or -" },
        /* A phase is posed as an int: 1e30 was cast, out of range. */
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 1 1\ne 0 0.5 1e30 0 0 0\n", 6, "e", "PHASE" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 1 1\ne 0 0.5 0.5 0 0 0\n", 6, "e", "PHASE" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 1 1\ne 0 0.5 -3 0 0 0\n", 6, "e", "PHASE" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = temp_path("bad");
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        NavError e;
        nav_error_clear(&e);
        RunTrace *r = run_trace_load(path, &e);
        cr_assert_null(r, "case %zu loaded", i);
        cr_assert_eq(e.line, cases[i].line, "case %zu: line %d, message %s", i, e.line, e.message);
        cr_assert_str_eq(e.field, cases[i].field, "case %zu", i);
        cr_assert(strstr(e.message, cases[i].says), "case %zu: %s", i, e.message);
        cr_assert(strstr(e.file, "navbot-test-trace"), "case %zu names the file", i);
        unlink(path);
    }
    NavError e;
    cr_assert_null(run_trace_load("/nonexistent/x.trace", &e));
    cr_assert(strstr(e.file, "x.trace") || strstr(e.message, "x.trace"));
}

/* A body recorded on the ground under upper storeys is put back on the
** ground, not on the highest floor over it (which it may not fit on). */
Test(run_trace, a_body_under_upper_floors_replays_on_its_own_floor)
{
    NavError e;
    NavWorld *w = map_load_file("maps/tower.lua", NULL, &e);
    cr_assert_not_null(w, "%s", e.message);
    const float at[3] = { 23.75f, 8.25f, 0.0f };
    cr_assert_not_null(world_floor_at(w, at[0], at[1], 100.0f, 0.0f));
    cr_assert_gt(world_floor_at(w, at[0], at[1], 100.0f, 0.0f)->z, 3.0f, "the spot has a floor over it");
    NavSession *s = session_create(w, &(NavSessionDesc){ .seed = 1, .log = quiet }, &e);
    cr_assert_not_null(s);
    cr_assert_geq(session_add_bot(s, "runner", &(NavBotDesc){ .pos = { at[0], at[1], at[2] } }, &e), 0, "%s",
                  e.message);
    const char *path = temp_path("storeys");
    RunTraceWriter *t = run_trace_create(path, s, "maps/tower.lua", ".", 1, &e);
    cr_assert_not_null(t, "%s", e.message);
    for (int k = 0; k < 3; k++) {
        session_step(s);
        cr_assert(run_trace_tick(t, s));
    }
    cr_assert_eq(run_trace_close(t, &e), NAV_OK);
    RunTrace *r = run_trace_load(path, &e);
    cr_assert_not_null(r, "%s", e.message);
    NavSim *sim = run_trace_sim(r, w, &e);
    cr_assert_not_null(sim, "%s", e.message);
    cr_assert_lt(sim_bot(sim, 0)->pos[2], 0.5f, "placed at z %.2f", (double)sim_bot(sim, 0)->pos[2]);
    sim_destroy(sim);
    run_trace_destroy(r);
    unlink(path);
    session_destroy(s);
    world_destroy(w);
}

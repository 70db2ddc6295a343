/*
** test_replay.c — replays that show what the live run showed
** (run_trace.h, version 3): the picture at a tick is the live picture,
** goal queues, routes, say-text, intents and debug drawings included;
** seeking in any order gives the state the run had; version 2 records
** still load; broken new records are errors naming file, line, tick and
** field.
*/
#include <criterion/criterion.h>
#include <glob.h>

#include "render/render_history.h"
#include "render_support.h"

/* What the live run had at one tick, to check a posed sim against. */
typedef struct Seen {
    uint64_t tick;
    char say[SIM_SAY_MAX];
    int goal_count;
    float goals[SIM_MAX_GOALS][4];
    bool has_show;
    int link_count, path_count, detour_count, req_count;
    uint32_t links[SIM_SHOW_ROUTE];
    float path[SIM_SHOW_ROUTE][3];
    uint32_t marks; /* alive */
} Seen;

enum { TICKS = 240 };

typedef struct LiveRun {
    NavWorld *w;
    NavSession *s;
    uint32_t bot;
    Seen seen[TICKS];
    const char *path;
} LiveRun;

static uint32_t marks_alive(const NavSim *sim)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sim_mark_count(sim); i++) n += sim_mark_at(sim, i)->until + 1e-9 >= sim_time(sim);
    return n;
}

static void see(const NavSim *sim, uint32_t id, Seen *s)
{
    memset(s, 0, sizeof *s);
    const NavBot *b = sim_bot(sim, id);
    s->tick = sim_tick(sim);
    memcpy(s->say, b->say, sizeof s->say);
    s->goal_count = b->goal_count;
    memcpy(s->goals, b->goals, sizeof s->goals);
    const SimBotShow *sh = sim_show_peek(sim, id);
    s->has_show = sh != NULL;
    if (sh) {
        s->link_count = sh->link_count;
        s->path_count = sh->path_count;
        s->detour_count = sh->detour_count;
        s->req_count = sh->tick + 1 == sim_tick(sim) ? sh->req_count : 0;
        memcpy(s->links, sh->links, sizeof s->links);
        memcpy(s->path, sh->path, sizeof s->path);
    }
    s->marks = marks_alive(sim);
}

/* A debug line as nav.draw.line keeps it (sim_mark_add), for `secs`. */
static void draw_line(NavSim *sim, float x0, float y0, float x1, float y1, double secs, uint8_t g)
{
    SimMark m;
    memset(&m, 0, sizeof m);
    m.kind = SIM_MARK_LINE;
    m.a[0] = x0, m.a[1] = y0, m.b[0] = x1, m.b[1] = y1;
    m.rgba[0] = 255, m.rgba[1] = g, m.rgba[2] = 255, m.rgba[3] = 255;
    m.until = sim_time(sim) + secs;
    cr_assert(sim_mark_add(sim, &m));
}

/* A runner on the gauntlet, watched as `navbot sim` watches it, with a
** second goal queued, debug lines drawn now and then, and the record
** written; the live pictures at the ticks in `at` go to live[]. */
static void record_run(LiveRun *run, Renderer *r, const RenderView *v, const int *at, NavImage **live, int shots)
{
    run->w = test_load_map("maps/gauntlet.lua");
    run->s = new_session(run->w);
    NavSim *sim = session_sim(run->s);
    sim_show_enable(sim, true);
    int sp = world_find_entity(run->w, "spawn_start");
    float o[3];
    entity_origin(world_entity(run->w, sp), o);
    NavError err;
    nav_error_clear(&err);
    int id = session_add_bot(run->s, "runner", &(NavBotDesc){ .pos = { o[0], o[1], o[2] } }, &err);
    cr_assert_geq(id, 0, "%s", err.message);
    run->bot = (uint32_t)id;
    run->path = temp_path("replay-v3.trace");
    RunTraceWriter *tw = run_trace_create(run->path, run->s, "maps/gauntlet.lua", ".", 1, &err);
    cr_assert_not_null(tw, "%s", err.message);
    for (int k = 0; k < TICKS; k++) {
        if (k == 5) sim_bot_push_goal(sim, run->bot, (float[3]){ 30, 20, 0 }, 1.0f);
        if (k % 40 == 10) draw_line(sim, 2, 2 + (float)k / 10, 30, 30, 2.0, (uint8_t)k);
        if (k >= 100 && k < 110) draw_line(sim, 5, 40, 40, 5, 1.0 / 30.0, 0); /* one tick each */
        if (k == 150) sim_marks_clear(sim);                                   /* drawn anew: the record says so */
        session_step(run->s);
        cr_assert(run_trace_tick(tw, run->s));
        see(sim, run->bot, &run->seen[k]);
        for (int i = 0; i < shots; i++)
            if (at[i] == k + 1) render_draw(r, live[i], sim, v, &(RenderInfo){ .session = run->s });
    }
    cr_assert_eq(run_trace_close(tw, &err), NAV_OK, "%s", err.message);
}

static void end_run(LiveRun *run)
{
    unlink(run->path);
    session_destroy(run->s);
    world_destroy(run->w);
}

static RunTrace *load(const char *path)
{
    NavError err;
    nav_error_clear(&err);
    RunTrace *t = run_trace_load(path, &err);
    cr_assert_not_null(t, "%s", err.message);
    return t;
}

static NavSim *replay_sim(const RunTrace *t, const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = run_trace_sim(t, w, &err);
    cr_assert_not_null(sim, "%s", err.message);
    return sim;
}

/* The posed sim holds what the live run had at that tick. */
static void check_posed(const NavSim *sim, uint32_t id, const Seen *s, const char *how)
{
    const NavBot *b = sim_bot(sim, id);
    cr_assert_eq(sim_tick(sim), s->tick, "%s", how);
    cr_assert_str_eq(b->say, s->say, "%s: tick %llu say", how, (unsigned long long)s->tick);
    cr_assert_eq(b->goal_count, s->goal_count, "%s: tick %llu goals", how, (unsigned long long)s->tick);
    for (int g = 0; g < s->goal_count; g++)
        for (int c = 0; c < 4; c++) cr_assert_float_eq(b->goals[g][c], s->goals[g][c], 1e-3, "%s", how);
    const SimBotShow *sh = sim_show_peek(sim, id);
    cr_assert_eq(sh != NULL, s->has_show, "%s: tick %llu show", how, (unsigned long long)s->tick);
    if (sh) {
        cr_assert_eq(sh->link_count, s->link_count, "%s: tick %llu links", how, (unsigned long long)s->tick);
        cr_assert_eq(sh->path_count, s->path_count, "%s", how);
        cr_assert_eq(sh->detour_count, s->detour_count, "%s", how);
        cr_assert_eq(memcmp(sh->links, s->links, (size_t)s->link_count * sizeof s->links[0]), 0, "%s", how);
        for (int k = 0; k < s->path_count; k++)
            for (int c = 0; c < 3; c++) cr_assert_float_eq(sh->path[k][c], s->path[k][c], 1e-3, "%s", how);
        int reqs = sh->tick + 1 == sim_tick(sim) ? sh->req_count : 0;
        cr_assert_eq(reqs, s->req_count, "%s: tick %llu requests", how, (unsigned long long)s->tick);
    }
    cr_assert_eq(marks_alive(sim), s->marks, "%s: tick %llu drawings", how, (unsigned long long)s->tick);
}

Test(replay, the_picture_at_a_tick_is_the_live_picture)
{
    Renderer *r = new_renderer();
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    enum { SHOTS = 4 };
    const int at[SHOTS] = { 20, 105, 160, TICKS };
    NavImage *live[SHOTS], *replay = map_image(w, 800);
    for (int i = 0; i < SHOTS; i++) live[i] = map_image(w, 800);
    RenderView v;
    render_view_fit(&v, w, replay->width, replay->height);
    /* The HUD's timings, title and cache counts and the selected bot's
    ** panel (its control, distance, travel) are the live run's own
    ** (docs/replay.md); the say-text is in the bot's label either way. */
    v.hud = false;
    v.selected = -1;
    static LiveRun run;
    record_run(&run, r, &v, at, live, SHOTS);

    RunTrace *t = load(run.path);
    cr_assert_eq(t->version, RUN_TRACE_VERSION);
    int kinds[RUN_TRACE_MARKS_CLEAR + 1] = { 0 };
    for (uint32_t i = 0; i < t->event_count; i++) kinds[t->events[i].kind]++;
    cr_assert_geq(kinds[RUN_TRACE_GOAL], 2, "the queue's changes are recorded");
    cr_assert_geq(kinds[RUN_TRACE_ROUTE], 2, "a route change is recorded");
    cr_assert_geq(kinds[RUN_TRACE_SAY], 1);
    cr_assert_geq(kinds[RUN_TRACE_MARK], 6);
    cr_assert_geq(kinds[RUN_TRACE_MARKS_CLEAR], 1);
    cr_assert_geq(kinds[RUN_TRACE_INTENT], 1);
    NavSim *sim = replay_sim(t, w);
    for (int i = 0; i < SHOTS; i++) {
        uint32_t frame = run_trace_frame_at(t, (uint64_t)at[i]);
        run_trace_pose(t, frame, sim);
        check_posed(sim, 0, &run.seen[at[i] - 1], "picture");
        render_draw(r, replay, sim, &v, &(RenderInfo){ .trace = t, .frame = frame });
        /* Recorded positions are rounded to 0.1 mm, a route's points to
        ** 1 mm: a line's edge may move a pixel. */
        size_t n = count_diff(live[i], replay);
        if (n > 40) {
            save(live[i], "replay-live.png");
            save(replay, "replay-replay.png");
        }
        cr_assert_leq(n, 40, "tick %d: the replay's picture differs from the live one in %zu pixels", at[i], n);
        if (i == 1) cr_assert_gt(count_diff(live[0], live[1]), 200, "the pictures compared are all the same");
    }
    sim_destroy(sim);
    run_trace_destroy(t);
    end_run(&run);
    for (int i = 0; i < SHOTS; i++) image_destroy(live[i]);
    image_destroy(replay);
    world_destroy(w);
    render_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

Test(replay, seeking_any_way_gives_the_state_of_the_run)
{
    static LiveRun run;
    record_run(&run, NULL, NULL, NULL, NULL, 0);
    RunTrace *t = load(run.path);
    cr_assert_eq(t->frame_count, TICKS);
    cr_assert_eq(t->key_count, (TICKS + RUN_TRACE_KEY_EVERY - 1) / RUN_TRACE_KEY_EVERY);
    NavSim *sim = replay_sim(t, run.w);
    for (uint32_t f = 0; f < TICKS; f++) {
        run_trace_pose(t, f, sim);
        check_posed(sim, 0, &run.seen[f], "forward");
    }
    for (uint32_t f = TICKS; f-- > 0;) {
        run_trace_pose(t, f, sim);
        check_posed(sim, 0, &run.seen[f], "backward");
    }
    /* Random seeks, each also checked against a sim posed by reading every
    ** change from the start. */
    NavSim *plain = replay_sim(t, run.w);
    uint64_t x = 12345;
    for (int k = 0; k < 300; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t f = (uint32_t)(x >> 33) % TICKS;
        run_trace_pose(t, f, sim);
        check_posed(sim, 0, &run.seen[f], "random");
        run_trace_pose_from_start(t, f, plain);
        Seen s;
        see(plain, 0, &s);
        check_posed(sim, 0, &s, "random, against from the start");
    }
    sim_destroy(plain);
    /* A seek rebuilds the panel's route choices from the record. */
    RenderHistory *h = render_history_create();
    cr_assert_not_null(h);
    render_history_replay(h, t, TICKS - 1, sim);
    cr_assert_geq(render_history_route_count(h, 0), 1, "no route choices after a seek");
    const HistoryRoute *hr = render_history_route(h, 0, render_history_route_count(h, 0) - 1);
    cr_assert(strstr(hr->text, "link") || strstr(hr->text, "path"), "%s", hr->text);
    render_history_destroy(h);
    /* Past the end is the last frame. */
    run_trace_pose(t, TICKS + 50, sim);
    check_posed(sim, 0, &run.seen[TICKS - 1], "past the end");
    /* The benchmark of the same: indexed and from the start, with the ratio. */
    Run b = NAVBOT("bench", "replay", run.path, "--seeks", "3");
    cr_assert_eq(b.status, CLI_OK, "bench replay: %s", b.err);
    cr_assert(strstr(b.out, "seek to the end and back x3") && strstr(b.out, "from the start ("), "%s", b.out);
    run_free(&b);
    sim_destroy(sim);
    run_trace_destroy(t);
    end_run(&run);
    NAV_TEST_LEAK_CHECK();
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* A version 2 record (as navbot wrote before routes were recorded): the
** head goal and the say-text are posed, and nothing is shown of a route. */
Test(replay, a_version_2_record_still_loads)
{
    const char *path = temp_path("v2.trace");
    write_text(path, "navbot-trace 2\nmap maps/arena.lua\nseed 1\nhz 30\nroot .\nbot 0 runner human\n"
                     "tick 1 00000000000000ff\nb 0 1.7500 12.7500 0.0000 0.0 0.000 0.000 0.000 g\n"
                     "say 0 off we go\ngoal 0 20.000 12.000 0.000 1.000\n"
                     "tick 2 00000000000001ff\nb 0 1.9500 12.7500 0.0000 0.0 6.000 0.000 0.000 g\n"
                     "tick 3 00000000000002ff\nb 0 2.1500 12.7500 0.0000 0.0 6.000 0.000 0.000 g\ngoal 0 -\n");
    RunTrace *t = load(path);
    cr_assert_eq(t->version, 2);
    NavWorld *w = test_load_map("maps/arena.lua");
    NavSim *sim = replay_sim(t, w);
    run_trace_pose(t, 1, sim);
    const NavBot *b = sim_bot(sim, 0);
    cr_assert_str_eq(b->say, "off we go");
    cr_assert_eq(b->goal_count, 1);
    cr_assert_float_eq(b->goals[0][0], 20.0f, 1e-4);
    cr_assert_null(sim_show_peek(sim, 0), "a version 2 record has no routes to show");
    cr_assert_eq(sim_mark_count(sim), 0);
    run_trace_pose(t, 2, sim);
    cr_assert_eq(b->goal_count, 0, "goal 0 - emptied the queue");
    run_trace_pose(t, 0, sim);
    cr_assert_eq(b->goal_count, 1);
    cr_assert_str_eq(b->say, "off we go");
    sim_destroy(sim);
    world_destroy(w);
    run_trace_destroy(t);

    /* A newer version is refused by name, not misread. */
    write_text(path, "navbot-trace 9\nmap maps/arena.lua\nhz 30\n");
    NavError e;
    nav_error_clear(&e);
    cr_assert_null(run_trace_load(path, &e));
    cr_assert(strstr(e.message, "version 9"), "%s", e.message);
    cr_assert(strstr(e.file, "v2.trace"), "%s", e.file);
    unlink(path);
    NAV_TEST_LEAK_CHECK();
}

/* Broken or cut-off version 3 records: errors naming the file, the line,
** the tick and the field, never a crash. */
Test(replay, broken_new_records_say_where)
{
#define HEAD "navbot-trace 3\nmap m.lua\nhz 30\nbot 0 r h\ntick 7 1\nb 0 1 2 3 0 0 0 0 g\n"
    static const struct {
        const char *text;
        const char *field, *says;
    } cases[] = {
        { HEAD "route 0 0 0 3 0 5 6\n", "route", "NLINKS" },                 /* cut off: 2 of 3 links */
        { HEAD "route 0 0 2 0 1 1 2 3\n", "route", "DETOUR" },               /* a detour longer than the path */
        { HEAD "route 0 0 0 49 0\n", "route", "up to 48" },                  /* over SIM_SHOW_ROUTE */
        { HEAD "route 0 0 0 1 0 5 9\n", "route", "more than" },              /* left over */
        { HEAD "route 5 0 0 0 0\n", "route", "not announced" },              /* no such bot */
        { HEAD "goals 0 17\n", "goals", "0 to 16" },                         /* too many goals */
        { HEAD "goals 0 2 1 2 3 1 4 5\n", "goals", "X Y Z R" },              /* cut off */
        { HEAD "intent 0 90.0 1 5 path 1 0 0.5 0.5\n", "intent", "REASON" }, /* cut off request */
        { HEAD "intent 0 90.0 2 5 path 0 0\n", "intent", "LOOK" },           /* LOOK is 0 or 1 */
        { HEAD "intent 0 90.0 1 5 path 0 13\n", "intent", "intent ID" },     /* over SIM_SHOW_TRACES */
        { HEAD "mark x 1 1 2 3 4 0 0 0\n", "mark", "l|c|t" },
        { HEAD "mark l 1 256 0 0 255 0 0 0 1 1 1\n", "mark", "0 to 255" },
        { HEAD "mark l 1 255 0 0 255 0 0 0 1 1\n", "mark", "X1 Y1 Z1" }, /* cut off */
        { HEAD "mark c nan 255 0 0 255 0 0 0 1\n", "mark", "UNTIL" },
        { HEAD "marks all\n", "marks", "marks -" },
        { "navbot-trace 2\nmap m.lua\nhz 30\nbot 0 r h\ntick 7 1\nroute 0 0 0 0 0\n", "route", "version 2" },
    };
#undef HEAD
    const char *path = temp_path("bad-v3.trace");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(path, cases[i].text);
        NavError e;
        nav_error_clear(&e);
        RunTrace *t = run_trace_load(path, &e);
        cr_assert_null(t, "case %zu loaded", i);
        cr_assert_eq(e.line, 7 - (i == 15), "case %zu: line %d: %s", i, e.line, e.message);
        cr_assert_str_eq(e.field, cases[i].field, "case %zu: field '%s': %s", i, e.field, e.message);
        cr_assert(strstr(e.message, cases[i].says), "case %zu: %s", i, e.message);
        cr_assert(strstr(e.message, "tick 7"), "case %zu does not name the tick: %s", i, e.message);
        cr_assert(strstr(e.file, "bad-v3.trace"), "case %zu names the file", i);
    }
    unlink(path);
    NAV_TEST_LEAK_CHECK();
}

/* The trace fuzzer's seeds (tests/fuzz/corpus/trace) go through what the
** fuzzer does: each loads or says why, and one that loads is posed
** forward, back and past its end. The version 3 seed has every record. */
Test(replay, the_fuzzer_seeds_load_and_pose)
{
    glob_t g;
    cr_assert_eq(glob("tests/fuzz/corpus/trace/*", 0, NULL, &g), 0, "no seed corpus for fuzz_trace");
    NavWorld *w = test_load_map("maps/arena.lua");
    bool every = false;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        NavError e;
        nav_error_clear(&e);
        RunTrace *t = run_trace_load(g.gl_pathv[i], &e);
        if (!t) {
            cr_assert(e.message[0], "%s failed to load without a reason", g.gl_pathv[i]);
            continue;
        }
        NavSim *sim = run_trace_sim(t, w, &e);
        cr_assert_not_null(sim, "%s: %s", g.gl_pathv[i], e.message);
        for (uint32_t f = 0; f < t->frame_count; f++) run_trace_pose(t, f, sim);
        run_trace_pose(t, 0, sim);
        run_trace_pose(t, t->frame_count + 7, sim);
        if (strstr(g.gl_pathv[i], "every-record-v3")) {
            every = true;
            run_trace_pose(t, 0, sim);
            cr_assert_eq(sim_bot(sim, 0)->goal_count, 2);
            cr_assert_not_null(sim_show_peek(sim, 0));
            cr_assert_eq(sim_show_peek(sim, 0)->req_count, 2);
            cr_assert_eq(sim_mark_count(sim), 3);
            run_trace_pose(t, 2, sim);
            cr_assert_eq(sim_mark_count(sim), 1, "marks - forgot the drawings before it");
            cr_assert_eq(sim_obstacle_count(sim), 1);
            cr_assert_eq(sim_bot(sim, 0)->goal_count, 1);
            run_trace_pose(t, 3, sim);
            cr_assert_eq(sim_obstacle_count(sim), 0);
            cr_assert_str_eq(sim_bot(sim, 0)->say, "");
        }
        sim_destroy(sim);
        run_trace_destroy(t);
    }
    cr_assert(every, "the version 3 seed with every record is missing");
    globfree(&g);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

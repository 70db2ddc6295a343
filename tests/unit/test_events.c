/*
** test_events.c — arrive, stuck, contact and fall events told to brains
** (session_events.c, brain_event.c, bot:on): each comes once, in the tick
** after it happened, before any brain thinks, bots in id order; bot:on
** takes the place of the brain table's handler; a failing handler faults
** its bot and no other; events change nothing in the run.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "map/map.h"
#include "script/session.h"
#include "test_support.h"

/* A raised platform (2 m) in the north strip that drops to its floor, and
** a south strip apart from it behind a wall. */
static const char *MAP = "return { name = 'ledges', cell_size = 0.5,\n"
                         "  legend = { ['#'] = 'solid', ['.'] = 'floor', ['P'] = { type = 'floor', h = 2.0 } },\n"
                         "  layers = { { name = 'g', z = 0, rows = [[\n"
                         "##########################\n"
                         "#PPPPPPPP................#\n"
                         "#PPPPPPPP................#\n"
                         "#PPPPPPPP................#\n"
                         "##########################\n"
                         "#........................#\n"
                         "#........................#\n"
                         "#........................#\n"
                         "#........................#\n"
                         "##########################\n"
                         "]] } } }\n";

/* Bot 0 walks east off the platform, reaches a goal and keeps going into
** the wall, its next goal behind it: fall, arrive, stuck. Bots 1 and 2
** walk into each other: contact; bot 2 through bot:on. */
static const char *BRAIN =
    "local brain = {}\n"
    "function brain.spawn(bot)\n"
    "  if bot:id() == 2 then bot:on('contact', function(b, info) print(string.format('on-contact %d %d %s', nav.tick(), info.id, tostring(info.bot))) end) end\n"
    "end\n"
    "function brain.think(bot, dt)\n"
    "  print('think ' .. nav.tick())\n"
    "  bot:move(bot:id() == 2 and -1 or 1, 0)\n"
    "end\n"
    "function brain.on_arrive(bot, info) print(string.format('arrive %d %.1f %d %d', nav.tick(), info.goal[1], info.reached, info.left)) end\n"
    "function brain.on_fall(bot, info) print(string.format('fall %d %.2f %.1f %.1f', nav.tick(), info.height, info.from[3], info.to[3])) end\n"
    "function brain.on_contact(bot, info) print(string.format('contact %d %d', nav.tick(), info.id)) end\n"
    "function brain.on_stuck(bot, info) print(string.format('stuck %d %.1f %.1f', nav.tick(), info.time, info.goal and info.goal[1] or -1)) end\n"
    "return brain\n";

typedef struct Log {
    char text[1 << 18];
    size_t len;
} Log;

static void collect(void *user, const char *line)
{
    Log *log = user;
    size_t n = strlen(line);
    if (log->len + n + 2 < sizeof log->text) {
        memcpy(log->text + log->len, line, n);
        log->len += n;
        log->text[log->len++] = '\n';
        log->text[log->len] = '\0';
    }
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static void make_root(char *root, size_t cap, const char *brain_name, const char *brain)
{
    snprintf(root, cap, "/tmp/navbot_events_XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    char p[256];
    snprintf(p, sizeof p, "%s/bots", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/lua", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/bots/%s.lua", root, brain_name);
    write_text(p, brain);
}

static void remove_root(const char *root, const char *brain_name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/bots/%s.lua", root, brain_name);
    unlink(p);
    snprintf(p, sizeof p, "%s/bots", root);
    rmdir(p);
    snprintf(p, sizeof p, "%s/lua", root);
    rmdir(p);
    rmdir(root);
}

/* The run: 120 ticks; the log and the trace hash. brain NULL: no brains,
** the same controls set from C. */
static uint64_t run(const char *root, bool brains, Log *log)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(MAP, strlen(MAP), "ledges.lua", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = collect, .log_user = log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    const char *b = brains ? "evt" : NULL;
    cr_assert_eq(session_add_bot(s, b, &(NavBotDesc){ .pos = { 1.5f, 3.75f, 2.0f } }, &err), 0, "%s", err.message);
    cr_assert_eq(session_add_bot(s, b, &(NavBotDesc){ .pos = { 3.0f, 1.5f, 0.0f } }, &err), 1, "%s", err.message);
    cr_assert_eq(session_add_bot(s, b, &(NavBotDesc){ .pos = { 10.0f, 1.5f, 0.0f } }, &err), 2, "%s", err.message);
    NavSim *sim = session_sim(s);
    sim_bot_push_goal(sim, 0, (float[3]){ 8.0f, 3.75f, 0.0f }, 0.6f);
    sim_bot_push_goal(sim, 0, (float[3]){ 5.0f, 3.75f, 0.0f }, 0.3f);
    for (int t = 0; t < 150; t++) {
        if (!brains)
            for (uint32_t i = 0; i < 3; i++) sim_bot_control(sim, i)->move[0] = i == 2 ? -1.0f : 1.0f;
        session_step(s);
    }
    for (uint32_t i = 0; brains && i < 3; i++) cr_assert_not(session_bot_faulted(s, i), "bot %u: %s", i, session_bot_error(s, i));
    uint64_t h = sim_trace_hash(sim);
    session_destroy(s);
    world_destroy(w);
    return h;
}

/* The line of the log that holds `what`, and where it is; NULL if none. */
static const char *find(const Log *log, const char *what) { return strstr(log->text, what); }

static int count(const Log *log, const char *what)
{
    int n = 0;
    for (const char *p = log->text; (p = strstr(p, what)); p++) n++;
    return n;
}

Test(events, each_event_once_before_the_brains_think)
{
    char root[64];
    make_root(root, sizeof root, "evt", BRAIN);
    static Log log;
    log.len = 0;
    log.text[0] = '\0';
    uint64_t with = run(root, true, &log);
    /* Fall off the 2 m platform, once, from 2 m to the floor. */
    cr_assert_eq(count(&log, "[evt#0] fall "), 1, "%s", log.text);
    const char *fall = find(&log, "[evt#0] fall ");
    int ft;
    float h, from, to;
    cr_assert_eq(sscanf(fall, "[evt#0] fall %d %f %f %f", &ft, &h, &from, &to), 4);
    cr_assert_float_eq(h, 2.0f, 0.05f);
    cr_assert_float_eq(from, 2.0f, 0.05f);
    cr_assert_float_eq(to, 0.0f, 0.05f);
    /* Its first goal, once, one left; then stuck against the wall, the second goal behind it. */
    cr_assert_eq(count(&log, "[evt#0] arrive "), 1, "%s", log.text);
    cr_assert(find(&log, "[evt#0] arrive "), "%s", log.text);
    int at, reached, left;
    float gx;
    cr_assert_eq(sscanf(find(&log, "[evt#0] arrive "), "[evt#0] arrive %d %f %d %d", &at, &gx, &reached, &left), 4);
    cr_assert_float_eq(gx, 8.0f, 1e-3);
    cr_assert_eq(reached, 1);
    cr_assert_eq(left, 1);
    cr_assert_gt(at, 0, "%s", log.text); /* it may reach the goal while still falling */
    cr_assert_eq(count(&log, "[evt#0] stuck "), 1, "%s", log.text);
    int st;
    float stime, sgoal;
    cr_assert_eq(sscanf(find(&log, "[evt#0] stuck "), "[evt#0] stuck %d %f %f", &st, &stime, &sgoal), 3);
    cr_assert_gt(st, at);
    cr_assert_float_eq(sgoal, 5.0f, 1e-3);
    /* The contact: bot 1 by the brain table, bot 2 by bot:on (and not by
    ** the table), the same tick, bot 1 first. */
    const char *c1 = find(&log, "[evt#1] contact "), *c2 = find(&log, "[evt#2] on-contact ");
    cr_assert(c1 && c2, "%s", log.text);
    cr_assert_null(find(&log, "[evt#2] contact "), "bot:on takes the place of brain.on_contact");
    int t1, o1, t2, o2;
    char handle[32];
    cr_assert_eq(sscanf(c1, "[evt#1] contact %d %d", &t1, &o1), 2);
    cr_assert_eq(sscanf(c2, "[evt#2] on-contact %d %d %31[^\n]", &t2, &o2, handle), 3);
    cr_assert_eq(t1, t2);
    cr_assert_eq(o1, 2);
    cr_assert_eq(o2, 1);
    cr_assert_str_eq(handle, "bot 1");
    cr_assert_lt(c1, c2, "bot 1's event before bot 2's");
    /* Told before any brain thinks in that tick, after the tick it happened. */
    char think[64];
    snprintf(think, sizeof think, "[evt#0] think %d\n", t1);
    cr_assert_lt(c1, find(&log, think), "the events of tick %d come before the brains think", t1);
    snprintf(think, sizeof think, "[evt#2] think %d\n", t1 - 1);
    cr_assert_lt(find(&log, think), c1, "the contact happened in the step after tick %d's brains", t1 - 1);
    /* Nothing changes in the run: the same controls from C give the same hash. */
    static Log none;
    none.len = 0;
    uint64_t without = run(root, false, &none);
    cr_assert_eq(with, without, "events changed the run");
    remove_root(root, "evt");
    NAV_TEST_LEAK_CHECK();
}

Test(events, a_failing_handler_faults_its_bot_only)
{
    char root[64];
    make_root(root, sizeof root, "evt",
              "local brain = {}\n"
              "function brain.think(bot) bot:move(bot:id() == 2 and -1 or 1, 0) end\n"
              "function brain.on_contact(bot, info) if bot:id() == 1 then error('no touching') end end\n"
              "function brain.on_fall(bot, info) coroutine.yield() end\n"
              "return brain\n");
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(MAP, strlen(MAP), "ledges.lua", NULL, &err);
    static Log log;
    log.len = 0;
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = collect, .log_user = &log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    session_add_bot(s, "evt", &(NavBotDesc){ .pos = { 1.5f, 3.75f, 2.0f } }, &err);
    session_add_bot(s, "evt", &(NavBotDesc){ .pos = { 3.0f, 1.5f, 0.0f } }, &err);
    session_add_bot(s, "evt", &(NavBotDesc){ .pos = { 10.0f, 1.5f, 0.0f } }, &err);
    for (int t = 0; t < 150; t++) session_step(s);
    cr_assert(session_bot_faulted(s, 0), "a yield in on_fall faults");
    cr_assert(strstr(session_bot_error(s, 0), "on_fall yielded"), "%s", session_bot_error(s, 0));
    cr_assert(session_bot_faulted(s, 1));
    cr_assert(strstr(session_bot_error(s, 1), "no touching"), "%s", session_bot_error(s, 1));
    cr_assert(strstr(session_bot_error(s, 1), "on_contact"), "the traceback names the handler: %s", session_bot_error(s, 1));
    cr_assert_not(session_bot_faulted(s, 2), "%s", session_bot_error(s, 2));
    cr_assert_gt(session_event_count(s), 2);
    session_destroy(s);
    world_destroy(w);
    remove_root(root, "evt");
    NAV_TEST_LEAK_CHECK();
}

/* Handlers set with bot:on go with the brain: a brain attached to the
** same bot afterwards finds only its own. */
Test(events, handlers_go_with_the_brain)
{
    char root[64];
    make_root(root, sizeof root, "evt",
              "local once = require 'once'\n"
              "local brain = {}\n"
              "function brain.spawn(bot)\n"
              "  if not once.done then once.done = true; bot:on('fall', function() print('old handler') end) end\n"
              "end\n"
              "function brain.think(bot) bot:move(1, 0) end\n"
              "function brain.on_fall(bot, info) print('table handler') end\n"
              "return brain\n");
    char p[256];
    snprintf(p, sizeof p, "%s/lua/once.lua", root);
    write_text(p, "return { done = false }\n");
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(MAP, strlen(MAP), "ledges.lua", NULL, &err);
    static Log log;
    log.len = 0;
    log.text[0] = '\0';
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = collect, .log_user = &log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    cr_assert_eq(session_add_bot(s, "evt", &(NavBotDesc){ .pos = { 1.5f, 3.75f, 2.0f } }, &err), 0, "%s", err.message);
    session_step(s);
    cr_assert(session_attach_brain(s, 0, "evt"));
    for (int t = 0; t < 90; t++) session_step(s);
    cr_assert_not_null(strstr(log.text, "table handler"), "%s", log.text);
    cr_assert_null(strstr(log.text, "old handler"), "%s", log.text);
    session_destroy(s);
    world_destroy(w);
    unlink(p);
    remove_root(root, "evt");
    NAV_TEST_LEAK_CHECK();
}

/* A brain table whose on_NAME is not a function does not load, like one
** whose think is not. */
Test(events, a_handler_that_is_not_a_function_is_a_load_error)
{
    char root[64];
    make_root(root, sizeof root, "evt", "return { think = function() end, on_stuck = 5 }\n");
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(MAP, strlen(MAP), "ledges.lua", NULL, &err);
    static Log log;
    log.len = 0;
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 1, .log = collect, .log_user = &log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    cr_assert_eq(session_add_bot(s, "evt", &(NavBotDesc){ .pos = { 3.0f, 1.5f, 0.0f } }, &err), 0, "%s", err.message);
    cr_assert(session_bot_faulted(s, 0));
    cr_assert(strstr(session_bot_error(s, 0), "brain.on_stuck is a number, expected a function"), "%s", session_bot_error(s, 0));
    session_destroy(s);
    world_destroy(w);
    remove_root(root, "evt");
    NAV_TEST_LEAK_CHECK();
}

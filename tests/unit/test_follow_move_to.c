/*
** test_follow_move_to.c — follow.move_to, the blocking move for coroutine
** brains (lua/follow.lua): "arrived" at a reachable point, "unreachable"
** at once for a point no route reaches, "stuck" behind a body that does
** not move, and the bot left standing with an empty goal queue each time.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "map/map.h"
#include "script/session.h"
#include "test_support.h"

/* A room, and a corridor one body wide (1 m) east of it into a second room. */
static const char *MAP = "return { name = 'corridor', cell_size = 0.5,\n"
                         "  legend = { ['#'] = 'solid', ['.'] = 'floor' },\n"
                         "  layers = { { name = 'g', z = 0, rows = [[\n"
                         "##################################\n"
                         "#..........##########............#\n"
                         "#..........##########............#\n"
                         "#................................#\n"
                         "#................................#\n"
                         "#..........##########............#\n"
                         "#..........##########............#\n"
                         "##################################\n"
                         "]] } } }\n";

static const char *BRAIN =
    "local follow = require 'follow'\n"
    "local brain = {}\n"
    "function brain.behave(bot, dt)\n"
    "  local function go(...)\n"
    "    local how = follow.move_to(bot, ...)\n"
    "    local x, y = bot:pos()\n"
    "    local n = bot:goals()\n"
    "    print(string.format('%s %d %.1f %.1f %d', how, nav.tick(), x, y, n))\n"
    "  end\n"
    "  go({4, 1.75, 0}, {radius = 0.5})\n"
    "  go(40, 40, 0)\n"
    "  go({15, 3.5, 0}, {stuk = 1})\n"
    "end\n"
    "return brain\n";

static const char *BLOCKED =
    "local follow = require 'follow'\n"
    "local brain = {}\n"
    "function brain.behave(bot, dt)\n"
    "  local how = follow.move_to(bot, {14.5, 2.0, 0}, {stuck = 2})\n"
    "  local x = bot:pos()\n"
    "  print(string.format('%s %d %.1f %d', how, nav.tick(), x, bot:goals()))\n"
    "  while true do coroutine.yield() end\n"
    "end\n"
    "return brain\n";

typedef struct Log {
    char text[1 << 16];
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

static void brain_file(char *root, size_t cap, const char *name, const char *text, char *path, size_t pcap)
{
    snprintf(root, cap, "/tmp/navbot_move_to_XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    snprintf(path, pcap, "%s/bots", root);
    mkdir(path, 0700);
    snprintf(path, pcap, "%s/bots/%s.lua", root, name);
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static void cleanup(const char *root, const char *path)
{
    char p[256];
    unlink(path);
    snprintf(p, sizeof p, "%s/bots", root);
    rmdir(p);
    rmdir(root);
}

static NavSession *open_session(const char *root, NavWorld **w, Log *log)
{
    NavError err;
    nav_error_clear(&err);
    *w = map_load_buffer(MAP, strlen(MAP), "corridor.lua", NULL, &err);
    cr_assert_not_null(*w, "%s", err.message);
    NavSession *s = session_create(*w, &(NavSessionDesc){ .root = ".", .extra_roots = { root }, .seed = 1, .log = collect,
                                                           .log_user = log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    return s;
}

Test(follow_move_to, arrived_unreachable_and_option_errors)
{
    char root[64], path[256];
    brain_file(root, sizeof root, "mover", BRAIN, path, sizeof path);
    static Log log;
    log.len = 0;
    NavWorld *w;
    NavSession *s = open_session(root, &w, &log);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(session_add_bot(s, "mover", &(NavBotDesc){ .pos = { 1.5f, 1.75f, 0 } }, &err), 0, "%s", err.message);
    for (int t = 0; t < 200; t++) session_step(s);
    char how[32];
    int tick, goals;
    float x, y;
    const char *line = strstr(log.text, "[mover#0] arrived ");
    cr_assert_not_null(line, "%s", log.text);
    cr_assert_eq(sscanf(line, "[mover#0] %31s %d %f %f %d", how, &tick, &x, &y, &goals), 5);
    cr_assert_float_eq(x, 4.0f, 0.6f, "arrived at x = %g", (double)x);
    cr_assert_eq(goals, 0);
    cr_assert_gt(tick, 5);
    line = strstr(log.text, "[mover#0] unreachable ");
    cr_assert_not_null(line, "%s", log.text);
    int t2;
    cr_assert_eq(sscanf(line, "[mover#0] %31s %d %f %f %d", how, &t2, &x, &y, &goals), 5);
    cr_assert_eq(t2, tick, "an unreachable point is known at once");
    cr_assert_eq(goals, 0);
    /* A misspelt option faults the bot, naming the key. */
    cr_assert(session_bot_faulted(s, 0));
    cr_assert(strstr(session_bot_error(s, 0), "unknown option 'stuk'"), "%s", session_bot_error(s, 0));
    cr_assert(strstr(session_bot_error(s, 0), "bots/mover.lua:12"), "the error points at the call: %s", session_bot_error(s, 0));
    session_destroy(s);
    world_destroy(w);
    cleanup(root, path);
    NAV_TEST_LEAK_CHECK();
}

Test(follow_move_to, stuck_behind_a_body_that_does_not_move)
{
    char root[64], path[256];
    brain_file(root, sizeof root, "blocked", BLOCKED, path, sizeof path);
    static Log log;
    log.len = 0;
    NavWorld *w;
    NavSession *s = open_session(root, &w, &log);
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(session_add_bot(s, "blocked", &(NavBotDesc){ .pos = { 2.0f, 2.0f, 0 } }, &err), 0, "%s", err.message);
    /* A body without a brain in the middle of the corridor. */
    cr_assert_eq(session_add_bot(s, NULL, &(NavBotDesc){ .pos = { 8.0f, 2.0f, 0 } }, &err), 1, "%s", err.message);
    for (int t = 0; t < 600; t++) session_step(s);
    const char *line = strstr(log.text, "[blocked#0] ");
    cr_assert_not_null(line, "no answer in 20 s:\n%s", log.text);
    char how[32];
    int tick, goals;
    float x;
    cr_assert_eq(sscanf(line, "[blocked#0] %31s %d %f %d", how, &tick, &x, &goals), 4);
    cr_assert_str_eq(how, "stuck", "%s", log.text);
    cr_assert_lt(x, 8.0f, "it never got past the body");
    cr_assert_eq(goals, 0);
    cr_assert_not(session_bot_faulted(s, 0), "%s", session_bot_error(s, 0));
    session_destroy(s);
    world_destroy(w);
    cleanup(root, path);
    NAV_TEST_LEAK_CHECK();
}

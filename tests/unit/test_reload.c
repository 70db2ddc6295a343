/*
** test_reload.c — hot reload of lua/ modules under running runners
** (bots/runner.lua on copies of lua/ in a temp root): an edit of
** lua/follow.lua reaches the follower objects the bots made when they
** spawned, with their state; an edit of lua/avoid.lua reaches follow's
** reference to it; bots added after a reload get the same patched table;
** a syntax error or a failing brain keeps the old version whole, with the
** error said.
*/
#define _DEFAULT_SOURCE /* utimensat */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "script/brain.h"
#include "script/session.h"
#include "test_support.h"

/* Each test its own root: they run side by side. */
static const char *root;

typedef struct Log {
    char text[1 << 16];
    size_t n;
} Log;

static void keep(void *user, const char *line)
{
    Log *l = user;
    int k = snprintf(l->text + l->n, sizeof l->text - l->n, "%s\n", line);
    if (k > 0 && l->n + (size_t)k < sizeof l->text) l->n += (size_t)k;
}

static int count(const Log *l, const char *what)
{
    int n = 0;
    for (const char *p = strstr(l->text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

static void clear(Log *l)
{
    l->n = 0;
    l->text[0] = '\0';
}

/* Replaces the first `from` in root/path with `to`, the file stamped a
** second later than before each time (however fast the edits come). */
static void edit(const char *path, const char *from, const char *to)
{
    static int bump = 0;
    char full[256];
    snprintf(full, sizeof full, "%s/%s", root, path);
    char *text = NULL;
    size_t len = 0;
    NavError err;
    cr_assert(NAV_SUCCEEDED(fileio_read(full, 1 << 20, &text, &len, &err)), "%s", err.message);
    char *at = strstr(text, from);
    cr_assert_not_null(at, "%s has no \"%s\"", path, from);
    FILE *f = fopen(full, "wb");
    cr_assert_not_null(f);
    fwrite(text, 1, (size_t)(at - text), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    nav_free(text);
    struct timespec t[2] = { { .tv_sec = 2000000000 + ++bump, .tv_nsec = 0 },
                             { .tv_sec = 2000000000 + bump, .tv_nsec = 0 } };
    cr_assert_eq(utimensat(AT_FDCWD, full, t, 0), 0);
}

static void finish(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_assert_eq(system(cmd), 0);
}

static void steps(NavSession *s, int n)
{
    for (int t = 0; t < n; t++) session_step(s);
}

static NavSession *start(const NavWorld *w, Log *log, int bots)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/bots && cp -r lua %s/ && cp bots/runner.lua %s/bots/", root, root,
             root, root);
    cr_assert_eq(system(cmd), 0);
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .root = root, .seed = 5, .log = keep, .log_user = log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    const float at[][3] = { { 3.0f, 3.0f, 0.0f }, { 6.0f, 3.0f, 0.0f }, { 3.0f, 6.0f, 0.0f } };
    for (int i = 0; i < bots; i++) {
        NavBotDesc d = { .cls = 0 };
        memcpy(d.pos, at[i], sizeof d.pos);
        cr_assert_eq(session_add_bot(s, "runner", &d, &err), i, "%s", err.message);
    }
    steps(s, 30);
    for (int i = 0; i < bots; i++) cr_assert_not(session_bot_faulted(s, (uint32_t)i), "%s", session_bot_error(s, (uint32_t)i));
    return s;
}

Test(reload, a_follow_edit_reaches_the_followers_bots_already_hold, .timeout = 60)
{
    root = "/tmp/navbot_test_reload_follow";
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    static Log log;
    clear(&log);
    NavSession *s = start(w, &log, 3);
    BrainHost *h = session_brains(s);

    /* The new update says so, and what its object held from before. */
    edit("lua/follow.lua", "function follow:update(dt)\n",
         "function follow:update(dt)\n  print(\"follow v2 \" .. tostring(self.goal ~= nil) .. \" \" .. self.policy)\n");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 1, "%s", log.text);
    steps(s, 3);
    cr_assert_eq(count(&log, "follow v2 true runner"), 9, "three bots, three ticks, each with its goal: %s", log.text);

    /* A bot added now gets the same table: the next edit reaches it too. */
    NavError err;
    cr_assert_eq(session_add_bot(s, "runner", &(NavBotDesc){ .cls = 0, .pos = { 4.5f, 4.5f, 0.0f } }, &err), 3, "%s",
                 err.message);
    steps(s, 2);
    edit("lua/follow.lua", "follow v2", "follow v3");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 1, "%s", log.text);
    steps(s, 2);
    cr_assert_eq(count(&log, "follow v3"), 8, "four bots, two ticks: %s", log.text);
    cr_assert_eq(count(&log, "follow v2"), 0);

    /* avoid.steer runs while a bot follows its path: follow reaches it
    ** through the table it required at load. */
    edit("lua/avoid.lua", "function avoid.steer(bot, dx, dy, lookahead, bots)\n",
         "function avoid.steer(bot, dx, dy, lookahead, bots)\n  print(\"avoid v2\")\n");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 1, "%s", log.text);
    steps(s, 5);
    cr_assert_gt(count(&log, "avoid v2"), 0, "no bot ran the new avoid.steer: %s", log.text);
    for (uint32_t i = 0; i < 4; i++) cr_assert_not(session_bot_faulted(s, i), "%s", session_bot_error(s, i));
    session_destroy(s);
    world_destroy(w);
    finish();
    NAV_TEST_LEAK_CHECK();
}

Test(reload, a_broken_module_or_brain_keeps_the_old_version, .timeout = 60)
{
    root = "/tmp/navbot_test_reload_broken";
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    static Log log;
    clear(&log);
    NavSession *s = start(w, &log, 2);
    BrainHost *h = session_brains(s);
    edit("lua/follow.lua", "function follow:update(dt)\n", "function follow:update(dt)\n  print(\"follow v2\")\n");
    cr_assert_eq(brain_host_reload_changed(h), 1, "%s", log.text);

    /* A syntax error: said with the file and line, the old version runs on. */
    edit("lua/follow.lua", "print(\"follow v2\")", "print(\"follow v3\" ..)");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(count(&log, "reload failed, keeping the old version"), 1, "%s", log.text);
    cr_assert_gt(count(&log, "lua/follow.lua:"), 0, "the error does not name the file: %s", log.text);
    steps(s, 2);
    cr_assert_eq(count(&log, "follow v2"), 4, "%s", log.text);
    cr_assert_eq(count(&log, "follow v3"), 0);

    /* A module that loads but a brain that fails with it: the patch is
    ** taken back, the old follow runs on. */
    edit("lua/follow.lua", "print(\"follow v3\" ..)", "print(\"follow v4\")");
    edit("bots/runner.lua", "local brain = {}\n", "local brain = {}\nerror(\"runner broken\")\n");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_gt(count(&log, "runner broken"), 0, "%s", log.text);
    steps(s, 2);
    cr_assert_eq(count(&log, "follow v2"), 4, "the patch was not taken back: %s", log.text);
    cr_assert_eq(count(&log, "follow v4"), 0);

    /* Fixed: both go in. */
    edit("bots/runner.lua", "error(\"runner broken\")\n", "");
    clear(&log);
    cr_assert_eq(brain_host_reload_changed(h), 1, "%s", log.text);
    steps(s, 2);
    cr_assert_eq(count(&log, "follow v4"), 4, "%s", log.text);
    for (uint32_t i = 0; i < 2; i++) cr_assert_not(session_bot_faulted(s, i), "%s", session_bot_error(s, i));
    session_destroy(s);
    world_destroy(w);
    finish();
    NAV_TEST_LEAK_CHECK();
}

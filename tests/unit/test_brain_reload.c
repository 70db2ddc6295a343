/*
** test_brain_reload.c — brains reloaded while bots run, determinism and
** scale, extra roots and faults from outside (helpers in brain_support.h).
*/
#include "brain_support.h"

/* {======= Hot reload ======= */

Test(brain, reload_keeps_memory_and_uses_new_functions)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/hot.lua", "return { think = function(bot) n = (n or 0) + 1 nav.record(bot.id, n) end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    attach(h, "hot", 1);
    attach(h, "hot", 2);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 3);
    cr_assert_eq(brain_host_reload_changed(h), 0, "nothing changed");

    write_script(root, "bots/hot.lua", "return { think = function(bot) n = (n or 0) + 1 nav.record(bot.id, 1000 + n) end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 1004, "new think, kept memory: %g", w->value[1]);
    cr_assert_eq(w->value[2], 1004);

    /* Does not compile: the old version stays, and why is logged once. */
    write_script(root, "bots/hot.lua", "return { think = function(bot)\n  n = = 1\nend }\n");
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(log_count(w, "reload failed, keeping the old version: bots/hot.lua:2:"), 1);
    BrainStats st;
    cr_assert(brain_host_brain_stats(h, 0, &st));
    cr_assert_not_null(st.reload_error);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 1005);

    /* Compiles but fails when run: the same. */
    write_script(root, "bots/hot.lua", "error('not today')\nreturn {}\n");
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(log_count(w, "bots/hot.lua:1: not today"), 1);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 1006);

    write_script(root, "bots/hot.lua", "return { think = function(bot) n = n + 1 nav.record(bot.id, 2000 + n) end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 2007);
    cr_assert(brain_host_brain_stats(h, 0, &st));
    cr_assert_eq(st.reloads, 2);
    cr_assert_null(st.reload_error);
    cr_assert_eq(st.faulted, 0);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, reload_restarts_behave)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/patrol.lua",
                 "local brain = {}\n"
                 "function brain.behave(bot)\n"
                 "  local h <close> = setmetatable({}, { __close = function() closed = (closed or 0) + 1 end })\n"
                 "  while true do\n"
                 "    steps = (steps or 0) + 1\n"
                 "    nav.record(bot.id, steps)\n"
                 "    coroutine.yield()\n"
                 "  end\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int a = attach(h, "patrol", 1);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 3);
    write_script(root, "bots/patrol.lua",
                 "local brain = {}\n"
                 "function brain.behave(bot)\n"
                 "  while true do\n"
                 "    steps = steps + 10\n"
                 "    nav.record(bot.id, steps)\n"
                 "    nav.record(bot.id + 100, closed or 0)\n"
                 "    coroutine.yield()\n"
                 "  end\n"
                 "end\n"
                 "return brain\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 13);
    cr_assert_eq(w->value[101], 1, "the old behave was closed");
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 23);
    BrainBotStats bs;
    cr_assert(brain_bot_stats(h, a, &bs));
    cr_assert_eq(bs.behave_starts, 2);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, reload_of_a_module)
{
    char root[64];
    dir_make(root);
    write_script(root, "lua/lib.lua", "return { value = function() return 1 end }\n");
    write_script(root, "bots/libuser.lua",
                 "local lib = require 'lib'\n"
                 "return { think = function(bot) nav.record(bot.id, lib.value()) end }\n");
    write_script(root, "bots/bystander.lua", "return { think = function(bot) nav.record(bot.id, 5) end }\n");
    write_script(root, "bots/lazy.lua", "return { think = function(bot) nav.record(bot.id, require('lib').value()) end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    attach(h, "libuser", 1);
    attach(h, "libuser", 2);
    attach(h, "bystander", 3);
    int lazy = attach(h, "lazy", 4);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 1);
    cr_assert_eq(w->value[4], 1);
    write_script(root, "lua/lib.lua", "return { value = function() return 2 end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 2, "only the brains that required it");
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 2);
    cr_assert_eq(w->value[2], 2);
    cr_assert_eq(w->value[4], 2);
    /* Compiles, fails when loaded: the old module stays in the cache too. */
    write_script(root, "lua/lib.lua", "error('lib broke')\n");
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(log_count(w, "lua/lib.lua:1: lib broke"), 2);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 2);
    cr_assert_eq(w->value[4], 2, "a later require finds the old module");
    cr_assert(!brain_faulted(h, lazy));
    write_script(root, "lua/lib.lua", "return {\n");
    cr_assert_eq(brain_host_reload_changed(h), 0);
    cr_assert_eq(log_count(w, "reload failed, keeping the old version: lua/lib.lua:2: unexpected symbol near <eof>"), 2);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 2);
    write_script(root, "lua/lib.lua", "return { value = function() return 4 end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 2);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 4);
    cr_assert_eq(w->value[4], 4);
    cr_assert_eq(w->value[3], 5);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, reload_gives_faulted_bots_a_fresh_start)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/fixme.lua", "return { think = function(bot) error('broken ' .. bot.id) end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int a = attach(h, "fixme", 1);
    brain_tick(h, 0.1);
    cr_assert(brain_faulted(h, a));
    cr_assert_not_null(strstr(brain_error(h, a), "bots/fixme.lua:1: broken 1"));
    write_script(root, "bots/fixme.lua",
                 "return {\n"
                 "  spawn = function(bot) nav.record(bot.id + 100, 1) end,\n"
                 "  think = function(bot) nav.record(bot.id, 7) end,\n"
                 "}\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    cr_assert(!brain_faulted(h, a));
    cr_assert_eq(w->value[101], 1, "spawned again");
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 7);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= Determinism and scale ======= */

static void run_dice(const char *root, uint32_t seed, double out[16])
{
    World *w = world_new();
    BrainHost *h = make_host_ex(root, w, seed, 0, 0);
    for (uint32_t id = 1; id <= 5; id++) attach(h, "dice", id);
    for (uint32_t id = 6; id <= 8; id++) attach(h, "dice2", id);
    for (int t = 0; t < 10; t++) brain_tick(h, 0.1);
    for (int id = 0; id < 16; id++) out[id] = w->value[id];
    brain_host_destroy(h);
    world_free(w);
}

Test(brain, same_seed_same_results)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/dice.lua",
                 "return { think = function(bot)\n"
                 "  acc = ((acc or 0) * 31 + math.random(1, 1000000)) % 2147483647\n"
                 "  nav.record(bot.id, acc)\n"
                 "end }\n");
    write_script(root, "bots/dice2.lua",
                 "return { behave = function(bot)\n"
                 "  while true do nav.record(bot.id, math.random()) coroutine.yield() end\n"
                 "end }\n");
    double a[16], b[16], c[16];
    run_dice(root, 42, a);
    run_dice(root, 42, b);
    run_dice(root, 43, c);
    int differ = 0;
    for (int id = 1; id <= 8; id++) {
        cr_assert_neq(a[id], 0, "bot %d ran", id);
        cr_assert_eq(a[id], b[id], "bot %d: %.17g vs %.17g", id, a[id], b[id]);
        if (a[id] != c[id]) differ++;
    }
    cr_assert_eq(differ, 8, "another seed, other numbers");
    remove_tree(root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, many_bots)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/many.lua",
                 "return { think = function(bot, dt)\n"
                 "  n = (n or 0) + 1\n"
                 "  if n == 10 then nav.record(bot.id, n) end\n"
                 "end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    enum { BOTS = 1000, TICKS = 10 };
    uint64_t t0 = timer_now_ns();
    for (uint32_t id = 0; id < BOTS; id++) attach(h, "many", id);
    double attach_us = (double)(timer_now_ns() - t0) / 1e3 / BOTS;
    t0 = timer_now_ns();
    for (int t = 0; t < TICKS; t++) brain_tick(h, 0.05);
    double tick_us = (double)(timer_now_ns() - t0) / 1e3 / (BOTS * TICKS);
    for (int id = 0; id < BOTS; id++) cr_assert_eq(w->value[id], 10, "bot %d", id);
    BrainHostStats hs;
    brain_host_stats(h, &hs);
    cr_assert_eq(hs.bots, BOTS);
    cr_assert_eq(hs.faulted, 0);
    cr_assert_eq(hs.ticks, TICKS);
    fprintf(stderr, "brain/many_bots: %d bots x %d ticks: %.3f us per bot-tick (trivial think), "
                    "attach %.1f us per bot, state %.0f KiB (%.2f KiB per bot)\n",
            BOTS, TICKS, tick_us, attach_us, (double)hs.memory / 1024.0, (double)hs.memory / 1024.0 / BOTS);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= Extra roots and faults from outside ======= */

static BrainHost *make_host_roots(const char *root, const char *extra, World *w)
{
    NavError err;
    nav_error_clear(&err);
    BrainHost *h = brain_host_create(&(BrainHostDesc){ .root = root, .extra_roots = { extra }, .seed = 7,
                                                       .open_api = open_api, .push_bot = push_bot, .user = w,
                                                       .log = log_line, .log_user = w },
                                     &err);
    cr_assert_not_null(h, "%s", err.message);
    return h;
}

/* An extra root is searched before the root, for brains and for modules;
** its files are named by their path (relative to the root when inside
** it), and a missing brain's error lists every file looked for. */
Test(brain, extra_roots_come_first_and_name_their_files)
{
    char root[64], extra[128];
    dir_make(root);
    snprintf(extra, sizeof extra, "%s/scenario", root);
    write_script(root, "bots/both.lua", "return { think = function(bot) nav.record(bot.id, 1) end }\n");
    write_script(root, "scenario/bots/both.lua", "return { think = function(bot) nav.record(bot.id, 2) end }\n");
    write_script(root, "scenario/bots/own.lua",
                 "local h = require 'helper'\nreturn { think = function(bot) nav.record(bot.id, h.value) end }\n");
    write_script(root, "scenario/lua/helper.lua", "return { value = 3 }\n");
    write_script(root, "scenario/bots/bad.lua", "return { think = function(bot)\n  error('from the extra root')\nend }\n");
    World *w = world_new();
    BrainHost *h = make_host_roots(root, extra, w);
    attach(h, "both", 1);
    attach(h, "own", 2);
    int bad = attach(h, "bad", 3);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 2, "the extra root's brain shadows the root's");
    cr_assert_eq(w->value[2], 3, "a module from the extra root's lua/");
    char want[256];
    snprintf(want, sizeof want, "scenario/bots/bad.lua:2: from the extra root");
    cr_assert(brain_faulted(h, bad));
    cr_assert_not_null(strstr(brain_error(h, bad), want), "%s", brain_error(h, bad));
    BrainStats bs;
    cr_assert(brain_host_brain_stats(h, 0, &bs));
    cr_assert_str_eq(bs.file, "scenario/bots/both.lua");

    NavError err;
    nav_error_clear(&err);
    cr_assert_lt(brain_attach(h, "nowhere", 4, &err), 0);
    snprintf(want, sizeof want, "not found:\n\tno file '%s/bots/nowhere.lua'", extra);
    cr_assert_not_null(strstr(err.message, want), "%s", err.message);
    snprintf(want, sizeof want, "\n\tno file '%s/bots/nowhere.lua'", root);
    cr_assert_not_null(strstr(err.message, want), "%s", err.message);

    /* A brain from the extra root reloads like any other. */
    write_script(root, "scenario/bots/both.lua", "return { think = function(bot) nav.record(bot.id, 20) end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 20);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, extra_root_paths_are_checked)
{
    World *w = world_new();
    char longer[BRAIN_ROOT_MAX + 8];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    NavError err;
    nav_error_clear(&err);
    BrainHost *h = brain_host_create(&(BrainHostDesc){ .root = ".", .extra_roots = { longer } }, &err);
    cr_assert_null(h);
    cr_assert_not_null(strstr(err.message, "too long"), "%s", err.message);
    nav_error_clear(&err);
    h = brain_host_create(&(BrainHostDesc){ .root = ".", .extra_roots = { "" } }, &err);
    cr_assert_null(h);
    cr_assert_not_null(strstr(err.message, "empty"), "%s", err.message);
    world_free(w);
    NAV_TEST_LEAK_CHECK();
}

/* brain_fault stops a bot as its own error would: kept, logged, not
** ticked again; a second fault or a stale handle is refused; a reload of
** its brain starts it afresh. */
Test(brain, a_fault_from_outside_stops_one_bot)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/counter.lua", "return { think = function(bot) n = (n or 0) + 1 nav.record(bot.id, n) end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int a = attach(h, "counter", 1), b = attach(h, "counter", 2);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert(brain_fault(h, a, "injected: stop here"));
    cr_assert(brain_faulted(h, a));
    cr_assert_str_eq(brain_error(h, a), "injected: stop here");
    cr_assert_eq(log_count(w, "[counter#1] fault: injected: stop here"), 1);
    cr_assert_not(brain_fault(h, a, "again"), "a faulted bot cannot fault twice");
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 3, "the faulted bot ran on");
    cr_assert_eq(w->value[2], 6, "the other bot stopped too");
    BrainHostStats hs;
    brain_host_stats(h, &hs);
    cr_assert_eq(hs.faulted, 1);

    write_script(root, "bots/counter.lua", "return { think = function(bot) nav.record(bot.id + 100, 1) end }\n");
    cr_assert_eq(brain_host_reload_changed(h), 1);
    cr_assert_not(brain_faulted(h, a));
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[101], 1, "restarted by the reload");
    brain_detach(h, b);
    cr_assert_not(brain_fault(h, b, "stale"), "a stale handle");
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

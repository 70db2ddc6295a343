/*
** test_brain.c — the brain host: the script protocol (spawn, think, behave),
** per-bot environments, require, print, faults (errors, budget, memory,
** engine errors), sandbox escapes, load failures, hot reload, determinism,
** and many bots.
**
** Every test writes its scripts into a fresh folder under /tmp (bots/ and
** lua/) and removes it at the end. The engine side is a small `nav` module
** made here: nav.record(id, value) stores a number the test reads back,
** nav.move(bot, dx, dy) checks its arguments like an engine function.
*/
#include "brain_support.h"

TestSuite(brain, .fini = remove_current_root);

/* }======= */

/* {======= The protocol ======= */

Test(brain, think_runs_every_tick_with_dt)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/counter.lua",
                 "local brain = {}\n"
                 "function brain.think(bot, dt)\n"
                 "  total = (total or 0) + dt\n"
                 "  nav.record(bot.id, total)\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int a = attach(h, "counter", 1);
    attach(h, "counter", 2);
    brain_tick(h, 0.5);
    cr_assert_eq(w->value[1], 0.5);
    brain_tick(h, 0.25);
    brain_tick(h, 0.125);
    for (int id = 1; id <= 2; id++) {
        cr_assert_eq(w->value[id], 0.875, "bot %d: %g", id, w->value[id]);
        cr_assert_eq(w->calls[id], 3);
    }
    BrainBotStats bs;
    cr_assert(brain_bot_stats(h, a, &bs));
    cr_assert_eq(bs.ticks, 3);
    cr_assert_eq(bs.bot_id, 1);
    cr_assert(!bs.behaving);
    BrainStats st;
    cr_assert(brain_host_brain_stats(h, bs.brain, &st));
    cr_assert_str_eq(st.name, "counter");
    cr_assert_str_eq(st.file, "bots/counter.lua");
    cr_assert_eq(st.bots, 2);
    cr_assert_gt(st.memory, 0);
    cr_assert_geq(st.memory_peak, st.memory);
    cr_assert_eq(st.memory_limit, BRAIN_DEFAULT_MEMORY);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, behave_spans_ticks_and_starts_over)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/walker.lua",
                 "local brain = {}\n"
                 "function brain.think(bot) nav.record(999, 1) end\n"
                 "function brain.behave(bot, dt)\n"
                 "  starts = (starts or 0) + 1\n"
                 "  local t = dt\n"
                 "  nav.record(bot.id, 1)\n"
                 "  t = t + coroutine.yield()\n"
                 "  nav.record(bot.id, 2)\n"
                 "  t = t + coroutine.yield()\n"
                 "  nav.record(bot.id, 3)\n"
                 "  nav.record(bot.id + 100, t)\n"
                 "  nav.record(bot.id + 200, starts)\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int a = attach(h, "walker", 1);
    BrainBotStats bs;
    brain_tick(h, 1);
    cr_assert_eq(w->value[1], 1);
    cr_assert(brain_bot_stats(h, a, &bs) && bs.behaving && bs.suspended);
    brain_tick(h, 2);
    cr_assert_eq(w->value[1], 2);
    brain_tick(h, 4);
    cr_assert_eq(w->value[1], 3);
    cr_assert_eq(w->value[101], 7, "dt summed through yields: %g", w->value[101]);
    cr_assert_eq(w->value[201], 1);
    cr_assert(brain_bot_stats(h, a, &bs) && !bs.suspended, "behave returned");
    brain_tick(h, 1); /* starts over */
    cr_assert_eq(w->value[1], 1);
    cr_assert_eq(w->calls[1], 4);
    cr_assert(brain_bot_stats(h, a, &bs));
    cr_assert_eq(bs.behave_starts, 2);
    cr_assert_eq(bs.ticks, 4);
    cr_assert_eq(w->calls[999], 0, "think is not called when there is behave");
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, bots_have_separate_environments)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/own.lua",
                 "local calls = 0 -- a local of the chunk: one per bot too\n"
                 "return { think = function(bot)\n"
                 "  calls = calls + 1\n"
                 "  x = (x or 0) + bot.id\n"
                 "  nav.record(bot.id, x)\n"
                 "  nav.record(bot.id + 100, (_G.x == x and calls == x / bot.id) and 1 or 0)\n"
                 "end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    for (uint32_t id = 1; id <= 3; id++) attach(h, "own", id);
    for (int t = 0; t < 4; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->value[1], 4);
    cr_assert_eq(w->value[2], 8);
    cr_assert_eq(w->value[3], 12);
    for (int id = 1; id <= 3; id++) cr_assert_eq(w->value[100 + id], 1, "bot %d", id);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, require_loads_shared_modules_once_per_state)
{
    char root[64];
    dir_make(root);
    write_script(root, "lua/counter.lua",
                 "print('counter loaded')\n"
                 "local M = { n = 0 }\n"
                 "secret = 'a global of the module'\n"
                 "function M.bump() M.n = M.n + 1 return M.n end\n"
                 "return M\n");
    write_script(root, "lua/util/twice.lua", "return function(x) return 2 * x end\n");
    write_script(root, "bots/user.lua",
                 "local counter = require 'counter'\n"
                 "local twice = require 'util.twice'\n"
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  local same = (require 'counter' == counter and require 'nav' == nav) and 1 or 0\n"
                 "  nav.record(bot.id, counter.bump())\n"
                 "  nav.record(bot.id + 100, twice(bot.id) + same * 1000)\n"
                 "  nav.record(bot.id + 200, secret == nil and 1 or 0)\n"
                 "end\n"
                 "return brain\n");
    write_script(root, "bots/other.lua",
                 "local c = require 'counter'\n"
                 "return { think = function(bot) nav.record(bot.id, c.bump()) end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    for (uint32_t id = 1; id <= 3; id++) attach(h, "user", id);
    attach(h, "other", 10);
    brain_tick(h, 0.1);
    brain_tick(h, 0.1);
    /* One module table shared by the three bots of `user`: 6 bumps. */
    cr_assert_eq(w->value[1], 4);
    cr_assert_eq(w->value[2], 5);
    cr_assert_eq(w->value[3], 6);
    cr_assert_eq(w->value[101], 1002);
    cr_assert_eq(w->value[201], 1, "a module's globals are its own");
    /* Another brain, another state, another copy. */
    cr_assert_eq(w->value[10], 2);
    cr_assert_eq(log_count(w, "counter loaded"), 2, "once per state");
    cr_assert(log_has_line(w, "[user#1] counter loaded"));
    BrainStats st;
    cr_assert(brain_host_brain_stats(h, 0, &st));
    cr_assert_eq(st.modules, 2);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, print_goes_to_the_log_naming_the_bot)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/talker.lua",
                 "print('loading')\n"
                 "return {\n"
                 "  spawn = function(bot) print('spawned') end,\n"
                 "  think = function(bot) print('hello', bot.id, 1.5, nil, true) end,\n"
                 "}\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    attach(h, "talker", 7);
    brain_tick(h, 0.1);
    cr_assert(log_has_line(w, "[talker#7] loading"));
    cr_assert(log_has_line(w, "[talker#7] spawned"));
    cr_assert(log_has_line(w, "[talker#7] hello\t7\t1.5\tnil\ttrue"));
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, defaults_without_engine_and_a_global_nav)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/plain.lua",
                 "return { think = function(bot)\n"
                 "  print(type(nav), next(nav) == nil, type(bot), bot.id, require 'nav' == nav)\n"
                 "end }\n");
    World *w = world_new();
    NavError err;
    BrainHost *h = brain_host_create(&(BrainHostDesc){ .root = root, .log = log_line, .log_user = w }, &err);
    cr_assert_not_null(h);
    attach(h, "plain", 5);
    brain_tick(h, 0.1);
    cr_assert(log_has_line(w, "[plain#5] table\ttrue\ttable\t5\ttrue"));
    brain_host_destroy(h);

    /* An open_api that sets the global nav (as nav_api_open does). */
    write_script(root, "bots/global.lua",
                 "return { think = function(bot) nav.record(bot.id, nav.answer + nav.flags.walk) end }\n");
    w->set_global = true;
    h = make_host(root, w);
    attach(h, "global", 3);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[3], 43);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, spawn_runs_once_and_detach_closes_the_coroutine)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/life.lua",
                 "local brain = {}\n"
                 "function brain.spawn(bot) spawned = (spawned or 0) + 1 nav.record(bot.id + 100, spawned) end\n"
                 "function brain.behave(bot)\n"
                 "  local guard <close> = setmetatable({}, { __close = function() nav.record(bot.id + 200, 1) end })\n"
                 "  while true do coroutine.yield() end\n"
                 "end\n"
                 "return brain\n");
    write_script(root, "bots/stuck.lua",
                 "return { behave = function(bot)\n"
                 "  local g <close> = setmetatable({}, { __close = function() while true do end end })\n"
                 "  while true do coroutine.yield() end\n"
                 "end }\n");
    write_script(root, "bots/badspawn.lua",
                 "return {\n"
                 "  spawn = function(bot) error('cannot spawn here') end,\n"
                 "  think = function(bot) nav.record(bot.id, 1) end,\n"
                 "}\n");
    World *w = world_new();
    BrainHost *h = make_host_ex(root, w, 7, 0, 100000);
    int a = attach(h, "life", 1);
    attach(h, "life", 2);
    int s = attach(h, "stuck", 3);
    attach(h, "stuck", 4); /* left for brain_host_destroy */
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->value[101], 1);
    cr_assert_eq(w->calls[101], 1, "spawn runs once");
    brain_detach(h, a);
    cr_assert_eq(w->value[201], 1, "the to-be-closed variable of behave was closed");
    cr_assert_eq(w->calls[202], 0);
    cr_assert(!brain_faulted(h, a));
    cr_assert_null(brain_error(h, a));
    BrainBotStats bs;
    cr_assert(!brain_bot_stats(h, a, &bs), "stale handle");
    brain_detach(h, a); /* stale: ignored */
    brain_detach(h, s); /* an endless __close: the budget ends it */
    BrainHostStats hs;
    brain_host_stats(h, &hs);
    cr_assert_eq(hs.bots, 2);

    /* A spawn error: attached, but faulted. */
    NavError err;
    int b = brain_attach(h, "badspawn", 9, &err);
    cr_assert_geq(b, 0, "%s", err.message);
    cr_assert(brain_faulted(h, b));
    cr_assert_not_null(strstr(brain_error(h, b), "bots/badspawn.lua:2: cannot spawn here"), "%s", brain_error(h, b));
    cr_assert_not_null(strstr(brain_error(h, b), "in function 'spawn'"), "%s", brain_error(h, b));
    brain_tick(h, 0.1);
    cr_assert_eq(w->calls[9], 0);
    /* A reused slot gets a new handle; the old one stays stale. */
    int c = attach(h, "life", 5);
    cr_assert_neq(c, a);
    cr_assert(!brain_bot_stats(h, a, &bs));
    cr_assert(brain_bot_stats(h, c, &bs) && bs.bot_id == 5);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, detach_from_inside_a_tick_is_deferred)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/quitter.lua",
                 "return { behave = function(bot)\n"
                 "  while true do\n"
                 "    nav.record(bot.id, (nav_calls or 0) + 1)\n"
                 "    nav_calls = (nav_calls or 0) + 1\n"
                 "    if bot.id == 1 then nav.detach(2) nav.detach(1) end\n"
                 "    coroutine.yield()\n"
                 "  end\n"
                 "end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    w->host = h;
    for (uint32_t id = 1; id <= 3; id++) w->handles[id] = attach(h, "quitter", id);
    brain_tick(h, 0.1);
    cr_assert_eq(w->calls[1], 1, "bot 1 finished its tick");
    cr_assert_eq(w->calls[2], 0, "bot 2 was detached before its turn");
    cr_assert_eq(w->calls[3], 1);
    BrainBotStats bs;
    cr_assert(!brain_bot_stats(h, w->handles[1], &bs), "released after the tick");
    cr_assert(!brain_bot_stats(h, w->handles[2], &bs));
    brain_tick(h, 0.1);
    cr_assert_eq(w->calls[1], 1);
    cr_assert_eq(w->calls[3], 2);
    BrainHostStats hs;
    brain_host_stats(h, &hs);
    cr_assert_eq(hs.bots, 1);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= Faults ======= */

Test(brain, runtime_error_faults_only_that_bot)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/flaky.lua",
                 "local function helper(t)\n"
                 "  return t.x\n"
                 "end\n"
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  n = (n or 0) + 1\n"
                 "  if bot.id == 2 and n == 2 then return helper(nil) + 1 end\n"
                 "  if bot.id == 4 and n == 2 then error({}) end\n"
                 "  nav.record(bot.id, n)\n"
                 "end\n"
                 "return brain\n");
    write_script(root, "bots/yielder.lua", "return { think = function(bot)\n  coroutine.yield()\nend }\n");
    write_script(root, "bots/closer.lua",
                 "return { behave = function(bot)\n"
                 "  local g <close> = setmetatable({}, { __close = function(_, e) nav.record(bot.id + 100, 1) end })\n"
                 "  coroutine.yield()\n"
                 "  error('after a yield')\n"
                 "end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int hs[5];
    for (uint32_t id = 1; id <= 4; id++) hs[id] = attach(h, "flaky", id);
    int y = attach(h, "yielder", 20);
    int c = attach(h, "closer", 30);
    for (int t = 0; t < 4; t++) brain_tick(h, 0.1);
    cr_assert(brain_faulted(h, hs[2]));
    const char *e = brain_error(h, hs[2]);
    cr_assert_not_null(e);
    cr_assert(strncmp(e, "bots/flaky.lua:2: attempt to index a nil value", 46) == 0, "%s", e);
    cr_assert_not_null(strstr(e, "\nstack traceback:\n"), "%s", e);
    cr_assert_not_null(strstr(e, "bots/flaky.lua:2: in upvalue 'helper'"), "%s", e);
    cr_assert_not_null(strstr(e, "bots/flaky.lua:7: in function 'think'"), "%s", e);
    cr_assert(brain_faulted(h, hs[4]));
    cr_assert_not_null(strstr(brain_error(h, hs[4]), "bots/flaky.lua:8: (error object is a table value)"), "%s",
                       brain_error(h, hs[4]));
    cr_assert_eq(w->value[2], 1, "stopped at its second tick");
    cr_assert_eq(w->calls[2], 1);
    cr_assert_eq(w->value[1], 4, "the others go on");
    cr_assert_eq(w->value[3], 4);
    cr_assert(!brain_faulted(h, hs[1]));
    cr_assert_null(brain_error(h, hs[1]));
    cr_assert_eq(log_count(w, "[flaky#2] fault: bots/flaky.lua:2:"), 1, "logged once");
    cr_assert(brain_faulted(h, y));
    cr_assert_not_null(strstr(brain_error(h, y), "bots/yielder.lua:2: think yielded"), "%s", brain_error(h, y));
    cr_assert(brain_faulted(h, c));
    cr_assert_not_null(strstr(brain_error(h, c), "bots/closer.lua:4: after a yield"), "%s", brain_error(h, c));
    cr_assert_eq(w->value[130], 1, "the faulted coroutine was closed: its to-be-closed variable too");
    BrainHostStats st;
    brain_host_stats(h, &st);
    cr_assert_eq(st.faulted, 4);
    cr_assert_eq(st.bots, 6);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, endless_loops_hit_the_budget)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/loop.lua",
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  ticks = (ticks or 0) + 1\n"
                 "  if bot.id == 1 then while true do end end\n"
                 "  if bot.id == 2 then while true do pcall(function() while true do end end) end end\n"
                 "  if bot.id == 3 then local f = coroutine.wrap(function() while true do end end) f() end\n"
                 "  if bot.id == 4 then for i = 1, 10000 do local _ = i * 2 end end\n"
                 "  nav.record(bot.id, ticks)\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host_ex(root, w, 7, 0, 100000);
    int hs[6];
    for (uint32_t id = 1; id <= 5; id++) hs[id] = attach(h, "loop", id);
    for (int t = 0; t < 5; t++) brain_tick(h, 0.1);
    for (int id = 1; id <= 3; id++) {
        cr_assert(brain_faulted(h, hs[id]), "bot %d", id);
        cr_assert_not_null(strstr(brain_error(h, hs[id]), "instruction budget of 100000 per tick exceeded"),
                           "bot %d: %s", id, brain_error(h, hs[id]));
        cr_assert_eq(w->calls[id], 0);
    }
    cr_assert(strncmp(brain_error(h, hs[1]), "bots/loop.lua:4: instruction budget", 35) == 0, "%s",
              brain_error(h, hs[1]));
    /* Heavy but within budget every tick: the budget is per tick. */
    cr_assert(!brain_faulted(h, hs[4]), "%s", brain_error(h, hs[4]));
    cr_assert_eq(w->value[4], 5);
    cr_assert_eq(w->value[5], 5);
    BrainBotStats bs;
    cr_assert(brain_bot_stats(h, hs[4], &bs));
    cr_assert(bs.instructions >= 10000 && bs.instructions <= 100000, "%llu", (unsigned long long)bs.instructions);
    cr_assert(brain_bot_stats(h, hs[5], &bs));
    cr_assert_leq(bs.instructions, 1000);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, memory_bomb_faults_only_the_bomber)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/bomb.lua",
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  ticks = (ticks or 0) + 1\n"
                 "  if bot.id == 1 then\n"
                 "    hoard = {}\n"
                 "    for i = 1, 1e6 do hoard[i] = string.rep('x', 65536) .. i end\n"
                 "  end\n"
                 "  local junk = {}\n"
                 "  for i = 1, 200 do junk[i] = { i, tostring(i) } end\n"
                 "  nav.record(bot.id, ticks)\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    const size_t cap = 8u << 20;
    BrainHost *h = make_host_ex(root, w, 7, cap, 0);
    int bomber = attach(h, "bomb", 1);
    for (uint32_t id = 2; id <= 4; id++) attach(h, "bomb", id);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert(brain_faulted(h, bomber));
    const char *e = brain_error(h, bomber);
    const char *want = "bots/bomb.lua:6: out of memory: brain over its 8 MiB cap";
    cr_assert(strncmp(e, want, strlen(want)) == 0, "%s", e);
    cr_assert_not_null(strstr(e, "stack traceback:"), "%s", e);
    for (int id = 2; id <= 4; id++) cr_assert_eq(w->value[id], 3, "bot %d: %g", id, w->value[id]);
    BrainStats st;
    cr_assert(brain_host_brain_stats(h, 0, &st));
    cr_assert_gt(st.memory_peak, cap / 2, "the bomb filled the state: %zu", st.memory_peak);
    cr_assert_leq(st.memory_peak, cap);
    cr_assert_lt(st.memory, 1u << 20, "the bomber's hoard was collected: %zu bytes left", st.memory);
    /* The state has room for new bots again. */
    attach(h, "bomb", 5);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[5], 1);
    cr_assert_eq(w->value[2], 4);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

/* pcall cannot keep a brain at its cap going: the bot faults, with the
** cap's reason, and its neighbours run on. */
Test(brain, memory_cap_faults_through_pcall)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/hoarder.lua",
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  ticks = (ticks or 0) + 1\n"
                 "  if bot.id == 1 then\n"
                 "    hoard = hoard or {}\n"
                 "    local ok, e = pcall(function()\n"
                 "      for i = 1, 1e6 do hoard[#hoard + 1] = { i, i, i, i } end\n"
                 "    end)\n"
                 "    nav.record(bot.id, ok and -1 or -2)\n"
                 "    return\n"
                 "  end\n"
                 "  nav.record(bot.id, ticks)\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host_ex(root, w, 7, 4u << 20, 50000000);
    int hoarder = attach(h, "hoarder", 1);
    attach(h, "hoarder", 2);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert(brain_faulted(h, hoarder), "the hoarder caught its memory error and ran on");
    cr_assert_eq(w->value[1], 0, "the code after pcall ran: %g", w->value[1]);
    const char *e = brain_error(h, hoarder);
    const char *want = "bots/hoarder.lua:6: out of memory: brain over its 4 MiB cap";
    cr_assert(strncmp(e, want, strlen(want)) == 0, "%s", e);
    cr_assert_eq(w->value[2], 3, "its neighbour: %g", w->value[2]);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, engine_errors_fault_cleanly)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/clumsy.lua",
                 "return { think = function(bot)\n"
                 "  if bot.id == 1 then nav.move(bot, 'north', {}) end\n"
                 "  if bot.id == 2 then nav.move(42, 1, 2) end\n"
                 "  if bot.id == 3 then bot:fly() end\n"
                 "  nav.move(bot, 1, 0)\n"
                 "  nav.record(bot.id, nav.answer)\n"
                 "end }\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    int hs[5];
    for (uint32_t id = 1; id <= 4; id++) hs[id] = attach(h, "clumsy", id);
    brain_tick(h, 0.1);
    brain_tick(h, 0.1);
    const char *want[] = { NULL, "bots/clumsy.lua:2: bad argument #2 to 'move' (number expected, got string)",
                           "bots/clumsy.lua:3: bad argument #1 to 'move' (test.Bot expected, got number)",
                           "bots/clumsy.lua:4: attempt to call a nil value (method 'fly')" };
    for (int id = 1; id <= 3; id++) {
        cr_assert(brain_faulted(h, hs[id]), "bot %d", id);
        cr_assert_not_null(strstr(brain_error(h, hs[id]), want[id]), "bot %d: %s", id, brain_error(h, hs[id]));
    }
    cr_assert(!brain_faulted(h, hs[4]));
    cr_assert_eq(w->value[4], 42);
    cr_assert_eq(w->moves, 2, "only bot 4 moved, once per tick");
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, sandbox_escapes_are_refused)
{
    char root[64];
    dir_make(root);
    const char bin[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08";
    write_file(root, "lua/bin.lua", bin, sizeof bin - 1);
    write_script(root, "secret.lua", "return 'outside'\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    for (size_t i = 0; i < NAV_ARRAY_COUNT(ESCAPES); i++) {
        char name[32], file[64], src[512];
        snprintf(name, sizeof name, "escape%zu", i);
        snprintf(file, sizeof file, "bots/%s.lua", name);
        snprintf(src, sizeof src, "return { think = function(bot)\n  %s\n  nav.record(bot.id, 1)\nend }\n",
                 ESCAPES[i].code);
        write_script(root, file, src);
        int b = attach(h, name, (uint32_t)i);
        brain_tick(h, 0.1);
        cr_assert(brain_faulted(h, b), "escaped: %s", ESCAPES[i].code);
        cr_assert_not_null(strstr(brain_error(h, b), ESCAPES[i].want), "%s:\n%s", ESCAPES[i].code, brain_error(h, b));
        cr_assert_eq(w->calls[i], 0, "%s", ESCAPES[i].code);
    }
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, bots_cannot_break_each_other)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/shared.lua",
                 "local brain = {}\n"
                 "function brain.think(bot)\n"
                 "  if bot.id == 1 then\n"
                 "    local ok = 0\n"
                 "    local function try(f) if pcall(f) then ok = ok + 1 end end\n"
                 "    try(function() string.upper = nil end)\n"
                 "    try(function() rawset(string, 'upper', nil) end)\n"
                 "    try(function() getmetatable('').__index = {} end)\n"
                 "    try(function() setmetatable(string, {}) end)\n"
                 "    try(function() math.floor = nil end)\n"
                 "    try(function() table.insert(string, 1) end)\n"
                 "    try(function() getmetatable(_ENV).__index.print = nil end)\n"
                 "    try(function() coroutine.resume = nil end)\n"
                 "    try(function() nav.record = nil end)\n"
                 "    try(function() setmetatable(_ENV, {}) end)\n"
                 "    _G.print = 'mine' -- its own environment only\n"
                 "    nav.record(1, ok)\n"
                 "    nav.record(101, print == 'mine' and 1 or 0)\n"
                 "  else\n"
                 "    local fine = ('x'):upper() == 'X' and string.upper('y') == 'Y' and math.floor(1.5) == 1\n"
                 "      and type(print) == 'function' and type(nav.record) == 'function'\n"
                 "      and type(coroutine.resume) == 'function' and #table.concat({ 'a', 'b' }) == 2\n"
                 "    local n = 0\n"
                 "    for k, v in pairs(string) do n = n + 1 end\n"
                 "    nav.record(bot.id, fine and 1 or 0)\n"
                 "    nav.record(bot.id + 100, n)\n"
                 "  end\n"
                 "end\n"
                 "return brain\n");
    write_script(root, "lua/mailbox.lua", "return {}\n");
    write_script(root, "bots/thief.lua",
                 "local mailbox = require 'mailbox'\n"
                 "local brain = {}\n"
                 "function brain.behave(bot)\n"
                 "  if bot.id == 11 then\n"
                 "    mailbox.co = coroutine.running()\n"
                 "    while true do steps = (steps or 0) + 1 nav.record(11, steps) coroutine.yield() end\n"
                 "  end\n"
                 "  while true do\n"
                 "    local ok, err = pcall(coroutine.resume, mailbox.co)\n"
                 "    nav.record(12, ok and 1 or 0)\n"
                 "    if not ok then print(err) end\n"
                 "    nav.record(13, pcall(coroutine.close, mailbox.co) and 1 or 0)\n"
                 "    coroutine.yield()\n"
                 "  end\n"
                 "end\n"
                 "return brain\n");
    World *w = world_new();
    BrainHost *h = make_host(root, w);
    attach(h, "shared", 1);
    attach(h, "shared", 2);
    int victim = attach(h, "thief", 11);
    attach(h, "thief", 12);
    for (int t = 0; t < 3; t++) brain_tick(h, 0.1);
    cr_assert_eq(w->calls[1], 3);
    cr_assert_eq(w->value[1], 0, "every attempt on the shared tables failed");
    cr_assert_eq(w->value[101], 1, "_G is the bot's own environment");
    cr_assert_eq(w->value[2], 1, "the other bot's libraries are intact");
    cr_assert_gt(w->value[102], 10, "pairs over a read-only view");
    cr_assert_eq(w->value[11], 3, "the victim ran exactly once per tick");
    cr_assert(!brain_faulted(h, victim));
    cr_assert_eq(w->value[12], 0);
    cr_assert_eq(w->value[13], 0);
    cr_assert_geq(log_count(w, "a bot's own coroutine cannot be resumed or closed"), 1);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

Test(brain, load_failures_name_file_and_line)
{
    char root[64];
    dir_make(root);
    write_script(root, "bots/syntax.lua",
                 "local brain = {}\nfunction brain.think(bot)\n  x = = 1\nend\nreturn brain\n");
    write_script(root, "bots/number.lua", "return 42\n");
    write_script(root, "bots/boom.lua", "local x = 1\nerror('top-level boom')\nreturn {}\n");
    write_script(root, "bots/badfn.lua", "return { think = 5 }\n");
    write_script(root, "bots/badmod.lua", "local m = require 'broken'\nreturn {}\n");
    write_script(root, "lua/broken.lua", "return {\n  x = 1,\n  y = ,\n}\n");
    write_script(root, "bots/spin.lua", "while true do end\n");
    write_script(root, "bots/good.lua", "return { think = function(bot) nav.record(bot.id, 1) end }\n");
    World *w = world_new();
    BrainHost *h = make_host_ex(root, w, 7, 0, 100000);
    struct {
        const char *name, *file;
        int line;
        const char *want;
    } cases[] = {
        { "syntax", "bots/syntax.lua", 3, "bots/syntax.lua:3: unexpected symbol near '='" },
        { "nothere", "", 0, "brain 'nothere' not found:\n\tno file '" },
        { "number", "bots/number.lua", 0, "bots/number.lua must return a table (the brain), got number" },
        { "boom", "bots/boom.lua", 2, "bots/boom.lua:2: top-level boom" },
        { "badfn", "bots/badfn.lua", 0, "bots/badfn.lua: brain.think is a number, expected a function" },
        { "badmod", "lua/broken.lua", 3, "lua/broken.lua:3: unexpected symbol near ','" },
        { "spin", "bots/spin.lua", 1, "instruction budget of 100000 exceeded" },
        { "../evil", "../evil", 0, "brain '../evil': a brain file's name ends in .lua" },
        { "evil$", "", 0, "brain 'evil$' refused" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        NavError err;
        nav_error_clear(&err);
        cr_assert_eq(brain_attach(h, cases[i].name, 1, &err), -1, "%s", cases[i].name);
        cr_assert_str_eq(err.file, cases[i].file, "%s: %s", cases[i].name, err.message);
        cr_assert_eq(err.line, cases[i].line, "%s: line %d: %s", cases[i].name, err.line, err.message);
        cr_assert_not_null(strstr(err.message, cases[i].want), "%s: %s", cases[i].name, err.message);
    }
    cr_assert_eq(brain_host_brain_count(h), 0, "failed brains are not kept");
    /* The host goes on; a fixed file loads at the next attach. */
    attach(h, "good", 2);
    write_script(root, "bots/syntax.lua", "return { think = function(bot) nav.record(bot.id, 2) end }\n");
    attach(h, "syntax", 3);
    brain_tick(h, 0.1);
    cr_assert_eq(w->value[2], 1);
    cr_assert_eq(w->value[3], 2);
    cr_assert_eq(brain_host_brain_count(h), 2);
    finish(h, w, root);
    NAV_TEST_LEAK_CHECK();
}

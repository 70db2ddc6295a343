/*
** test_nav_api_memory.c — navigation memories from Lua (nav_api_memory.c):
** bot:memory() and the memory's methods against the C memory they act
** on, save and load (relative file names only), arguments refused with
** errors that name them, and the learn event a brain is told (link, by,
** self, how).
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "route/route_memory.h"
#include "script/session.h"
#include "nav_api_support.h"

/* Two links into one area of the class's graph. */
static void two_links_into_one_area(NavSim *sim, uint32_t *a, uint32_t *b)
{
    NavError err;
    NavAreaGraph *ag = sim_graph(sim, 0, &err);
    cr_assert_not_null(ag, "%s", err.message);
    for (uint32_t ar = 0; ar < area_count(ag); ar++) {
        uint32_t n;
        const uint32_t *in = area_incoming(ag, ar, &n);
        if (n >= 2) {
            *a = in[0];
            *b = in[1];
            return;
        }
    }
    cr_assert_fail("no area with two ways in");
}

/* tower: bot 0 in the ground-floor hall, bot 1 west of it. */
static void add_bots(Fixture *f)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(sim_add_bot(f->sim, &(NavBotDesc){ .cls = 0, .pos = { 20.5f, 15.5f, 0 } }, &err), 0, "%s",
                 err.message);
    cr_assert_eq(sim_add_bot(f->sim, &(NavBotDesc){ .cls = 0, .pos = { 12.0f, 11.5f, 0 } }, &err), 1, "%s",
                 err.message);
}

static const char *runf(Fixture *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *runf(Fixture *f, const char *fmt, ...)
{
    static char code[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(code, sizeof code, fmt, ap);
    va_end(ap);
    return run(f, code);
}

Test(memory_lua, memories_and_their_methods)
{
    Fixture f = setup("maps/tower.lua");
    add_bots(&f);
    uint32_t l0, l1;
    two_links_into_one_area(f.sim, &l0, &l1);
    char want[256];
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):has_memory())"), "false");
    cr_assert_str_eq(run(&f, "local m = nav.bot(0):memory()\n"
                             "local s = m:stats()\n"
                             "return string.format('%s %d %d %d %d', tostring(nav.bot(0):has_memory()), s.areas,\n"
                             "  s.links, s.links_per_area, s.users)"),
                     "true 0 0 8 1");
    NavMemory *m0 = sim_bot_memory(f.sim, 0);
    cr_assert_not_null(m0);
    snprintf(want, sizeof want, "%zu", memory_bytes(m0));
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):memory():stats().bytes)"), want);
    /* learn_link: true and nothing forgotten, then false; the memory the
    ** C side holds is the one learned into. */
    cr_assert_str_eq(runf(&f,
                          "local m = nav.bot(0):memory()\n"
                          "local a, fa = m:learn_link(%u)\n"
                          "local b, fb = m:learn_link(%u)\n"
                          "return string.format('%%s %%s %%s %%s %%s', tostring(a), tostring(fa), tostring(b),\n"
                          "  tostring(fb), tostring(nav.bot(0):memory():knows_link(%u)))",
                          l0, l0, l0),
                     "true nil false nil true");
    cr_assert(memory_knows_link(m0, l0));
    cr_assert_eq(memory_link_seen(m0, l0), sim_tick(f.sim) + 1);
    /* A bound of 1: the second link into the area forgets the first. */
    snprintf(want, sizeof want, "true %u false true 1", l0);
    cr_assert_str_eq(runf(&f,
                          "local m = nav.bot(1):memory({ links_per_area = 1 })\n"
                          "m:learn_link(%u)\n"
                          "local a, forgot = m:learn_link(%u)\n"
                          "return string.format('%%s %%s %%s %%s %%d', tostring(a), tostring(forgot),\n"
                          "  tostring(m:knows_link(%u)), tostring(m:knows_link(%u)), m:stats().links_per_area)",
                          l0, l1, l0, l1),
                     want);
    cr_assert_eq(memory_links_per_area(sim_bot_memory(f.sim, 1)), 1);
    /* Forgetting, areas, lists, clearing. */
    cr_assert_str_eq(runf(&f,
                          "local m = nav.bot(1):memory()\n"
                          "local r = { m:forget_link(%u), m:forget_link(%u), m:learn_area(3), m:learn_area(3),\n"
                          "  m:knows_area(3), m:forget_area(3), m:knows_area(3) }\n"
                          "for i = 1, #r do r[i] = tostring(r[i]) end\n"
                          "return table.concat(r, ' ')",
                          l1, l1),
                     "true false true false true true false");
    cr_assert_str_eq(run(&f, "local m = nav.bot(0):memory()\n"
                             "local n = m:learn_reachable(20.5, 15.5, 0, { types = { 'walk' }, layer = 1 })\n"
                             "local links, areas = m:links(), m:areas()\n"
                             "local s = m:stats()\n"
                             "assert(#links == s.links and #areas == s.areas, 'lists and stats differ')\n"
                             "for i = 2, #links do assert(links[i] > links[i - 1]) end\n"
                             "for _, id in ipairs(links) do assert(m:knows_link(id)) end\n"
                             "return tostring(n > 20)"),
                     "true");
    NavAreaGraph *ag = sim_graph(f.sim, 0, &(NavError){ 0 });
    for (uint32_t l = 0; l < area_reach_count(ag); l++) {
        if (!memory_knows_link(m0, l) || l == l0) continue;
        const NavReach *re = area_reach(ag, l);
        cr_assert_eq(re->type, NAV_TRAVEL_WALK, "learn_reachable by walking learned a %s link",
                     area_travel_name(re->type));
        cr_assert_eq(area_get(ag, re->to)->layer, 0, "learn_reachable on the ground floor left it");
    }
    /* By the storey's name, the same links. */
    cr_assert_str_eq(run(&f, "local m = nav.bot(0):memory()\n"
                             "m:clear()\n"
                             "local n1 = m:learn_reachable(20.5, 15.5, 0, { types = { 'walk' }, layer = 1 })\n"
                             "m:clear()\n"
                             "assert(m:stats().links == 0)\n"
                             "local n2 = m:learn_reachable(20.5, 15.5, 0, { types = { 'walk' }, layer = 'ground' })\n"
                             "return string.format('%s %s', tostring(n1 == n2), tostring(m:stats().links == n2))"),
                     "true true");
    /* copy and merge between two bots' memories. */
    cr_assert_str_eq(run(&f, "local a, b = nav.bot(0):memory(), nav.bot(1):memory()\n"
                             "b:copy(a)\n"
                             "local sa, sb = a:stats(), b:stats()\n"
                             "assert(sa.links == sb.links and sa.areas == sb.areas, 'copy differs')\n"
                             "b:clear() b:learn_area(5)\n"
                             "b:merge(a)\n"
                             "return tostring(b:knows_area(5) and b:stats().links > 0)"),
                     "true");
    snprintf(want, sizeof want, "nav.Memory(bot 0: %u areas, %u links)", memory_area_count(m0), memory_link_count(m0));
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):memory())"), want);
    /* Sight. */
    cr_assert_str_eq(run(&f, "local b = nav.bot(0)\n"
                             "return string.format('%g %g %s %s', b:sight(), b:sight(5), tostring(b:sight_floors()),\n"
                             "  tostring(b:sight_floors(false)))"),
                     "30 5 true false");
    cr_assert_float_eq(sim_bot_sight(f.sim, 0), 5.0f, 1e-6f);
    cr_assert_not(sim_bot_sight_floors(f.sim, 0));
    const NavBot *b1 = sim_bot(f.sim, 1);
    bool sees = sim_bot_sees(f.sim, 0, b1->pos, world_class(f.w, 0)->height);
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):sees(nav.bot(1)))"), sees ? "true" : "false");
    /* A route within memory, at once, as sim_bot_memory_route gives it. */
    uint32_t links[256];
    SimMemRoute q;
    uint32_t goal = area_point_area(ag, 12.0f, 11.5f, 0.0f);
    cr_assert(sim_bot_memory_route(f.sim, 0, goal, NAV_TFL_DEFAULT, true, links, 256, &q));
    cr_assert_neq(q.time, ROUTE_UNREACHABLE);
    snprintf(want, sizeof want, "%.2f %d ready false", q.time / 100.0, q.count);
    cr_assert_str_eq(run(&f, "local r = assert(nav.bot(0):memory_route(12.0, 11.5, 0, { now = true }))\n"
                             "return string.format('%.2f %d %s %s', r.time, #r.links, r.state, tostring(r.partial))"),
                     want);
    /* A kept memory object after its bot dropped the memory. */
    cr_assert_str_eq(run(&f, "kept = nav.bot(1):memory()\n"
                             "nav.bot(1):drop_memory()\n"
                             "return tostring(kept) .. ' ' .. tostring(nav.bot(1):has_memory())"),
                     "nav.Memory(bot 1, dropped) false");
    cr_assert_null(sim_bot_memory(f.sim, 1));
    cr_assert_not_null(strstr(fails(&f, "return kept:stats()"), "its bot has no memory any more"));
    /* Sharing. */
    cr_assert_not_null(strstr(fails(&f, "nav.bot(0):share_memory(nav.bot(1))"), "that bot has no memory to share"));
    cr_assert_str_eq(run(&f, "nav.bot(1):share_memory(nav.bot(0))\n"
                             "return tostring(nav.bot(1):memory():stats().users)"),
                     "2");
    cr_assert_eq(sim_bot_memory(f.sim, 1), m0);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(memory_lua, wrong_arguments_are_named)
{
    Fixture f = setup("maps/tower.lua");
    add_bots(&f);
    static const struct {
        const char *code, *want;
    } cases[] = {
        { "nav.bot(0):memory({ links_per_area = 0 })", "links_per_area must be 1 to 64" },
        { "nav.bot(0):memory({ links_per_area = 65 })", "links_per_area must be 1 to 64" },
        { "nav.bot(0):memory({ links_per_area = 'many' })", "number expected" },
        { "nav.bot(0):memory({ per_area = 3 })", "unknown option 'per_area' (links_per_area)" },
        { "nav.bot(0):memory(5)", "table expected" },
        { "nav.bot(0):sight(5)", "the bot has no memory" },
        { "nav.bot(0):explore_route(1, 1, 0)", "the bot has no memory" },
        { "nav.bot(1):memory():knows_link(-1)", "no such link" },
        { "nav.bot(1):memory():learn_link(99999999)", "no such link" },
        { "nav.bot(1):memory():forget_link('first')", "number expected" },
        { "nav.bot(1):memory():knows_area(99999999)", "no such area" },
        { "nav.bot(1):memory():learn_reachable(20.5, 15.5, 0, { kinds = {} })", "unknown option 'kinds'" },
        { "nav.bot(1):memory():learn_reachable(20.5, 15.5, 0, { types = { 'fly' } })", "unknown travel type 'fly'" },
        { "nav.bot(1):memory():learn_reachable(20.5, 15.5, 0, { layer = 9 })", "no such storey number" },
        { "nav.bot(1):memory():learn_reachable(20.5, 15.5, 0, { layer = 'attic' })", "no storey 'attic'" },
        { "nav.bot(1):memory():learn_reachable(20.5, 15.5, 0, { layer = true })", "a storey's number" },
        { "nav.bot(1):memory():learn_reachable(-100, -100, 0)", "the point is on no area" },
        { "nav.bot(1):memory():copy(5)", "nav.Memory expected" },
        { "nav.bot(1):sight(-1)", "metres must not be negative" },
        { "nav.bot(1):sight_floors('yes')", "boolean expected" },
        { "nav.bot(1):memory_route(20, 15, 0, { fast = true })", "unknown option 'fast' (flags, now)" },
        { "nav.bot(1):explore_route(20, 15, 0, { shun = { -1 } })", "shun: link ids" },
        { "nav.bot(1):explore_route(20, 15, 0, { shun = 3 })", "shun: a list of link ids expected" },
        { "nav.bot(1):explore_route(20, 15, 0, { try = { 'teleport', 'warp' } })", "unknown travel type 'warp'" },
        { "nav.search_budget({ bot = -1 })", "bot: link expansions from 0 to 100000000" },
        { "nav.search_budget({ world = 1.5 })", "world: link expansions from 0 to 100000000" },
        { "nav.search_budget({ tick = 1 })", "unknown option 'tick' (bot, world)" },
        { "nav.bot(1):memory():save('/tmp/navbot-memory-test.navmem')", "a relative file name expected" },
        { "nav.bot(1):memory():save('../x.navmem')", "'..' is not allowed" },
        { "nav.bot(1):memory():save('saves/../../x.navmem')", "'..' is not allowed" },
        { "nav.bot(1):memory():load('saves/../x.navmem')", "'..' is not allowed" },
        { "nav.bot(1):memory():load('../..navmem')", "'..' is not allowed" },
        { "nav.bot(1):memory():save('')", "a file name expected" },
        { "nav.bot(1):memory():save()", "string expected" },
    };
    /* bot 1 a learner, bot 0 not. */
    run(&f, "nav.bot(1):memory() return 1");
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        const char *msg = fails(&f, cases[i].code);
        cr_assert_not_null(strstr(msg, cases[i].want), "%s\n  said: %s\n  expected: %s", cases[i].code, msg,
                           cases[i].want);
    }
    cr_assert_eq(memory_link_count(sim_bot_memory(f.sim, 1)), 0, "a refused call changed the memory");
    /* Within range and per option, accepted. */
    cr_assert_str_eq(run(&f, "return string.format('%d %d', nav.search_budget({ bot = 0, world = 100000000 }))"),
                     "0 100000000");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* {======= files ======= */

static char dir[64], home[1024];

static void leave_dir(void)
{
    if (home[0]) cr_assert_eq(chdir(home), 0);
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        cr_assert_eq(system(cmd), 0);
    }
    dir[0] = home[0] = '\0';
}

/* Work in a scratch folder: relative file names land there. */
static void enter_dir(void)
{
    cr_assert_not_null(getcwd(home, sizeof home));
    snprintf(dir, sizeof dir, "/tmp/navbot_memlua_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0);
}

Test(memory_lua, save_and_load_relative_files, .fini = leave_dir)
{
    Fixture f = setup("maps/tower.lua");
    add_bots(&f);
    enter_dir();
    cr_assert_eq(mkdir("saves", 0700), 0);
    cr_assert_str_eq(run(&f, "local m = nav.bot(0):memory({ links_per_area = 5 })\n"
                             "m:learn_reachable(20.5, 15.5, 0)\n"
                             "local s = m:stats()\n"
                             "assert(s.links > 0)\n"
                             "assert(m:save('team.navmem'))\n"
                             "assert(m:save('saves/team.navmem'))\n"
                             "m:clear()\n"
                             "local ok = m:load('./saves/team.navmem')\n"
                             "local t = m:stats()\n"
                             "return string.format('%s %d %d %d', tostring(ok), t.links - s.links, t.areas - s.areas,\n"
                             "  t.links_per_area)"),
                     "true 0 0 5");
    /* The file is the memory, for C too. */
    NavMemory *m0 = sim_bot_memory(f.sim, 0);
    NavError err;
    nav_error_clear(&err);
    NavMemory *c = memory_create(memory_graph(m0), 0, &err);
    cr_assert(NAV_SUCCEEDED(memory_load(c, "team.navmem", &err)), "%s", err.message);
    cr_assert_eq(memory_link_count(c), memory_link_count(m0));
    for (uint32_t l = 0; l < area_reach_count(memory_graph(m0)); l++)
        cr_assert_eq(memory_knows_link(c, l), memory_knows_link(m0, l));
    memory_destroy(c);
    /* Failures are nil and why, the memory as it was. */
    FILE *bad = fopen("bad.navmem", "w");
    cr_assert_not_null(bad);
    fputs("navbot-memory 1\ngraph 1 2 0000000000000000\nlinks_per_area 8\nend\n", bad);
    fclose(bad);
    uint32_t known = memory_link_count(m0);
    const char *got = run(&f, "local ok, why = nav.bot(0):memory():load('bad.navmem')\n"
                              "return tostring(ok) .. ': ' .. tostring(why)");
    cr_assert(strncmp(got, "nil: ", 5) == 0 && strstr(got, "another area graph"), "%s", got);
    got = run(&f, "local ok, why = nav.bot(0):memory():load('missing.navmem')\n"
                  "return tostring(ok) .. ': ' .. tostring(why)");
    cr_assert(strncmp(got, "nil: ", 5) == 0 && strlen(got) > 6, "%s", got);
    got = run(&f, "local ok, why = nav.bot(0):memory():save('nodir/x.navmem')\n"
                  "return tostring(ok) .. ': ' .. tostring(why)");
    cr_assert(strncmp(got, "nil: ", 5) == 0 && strlen(got) > 6, "%s", got);
    cr_assert_eq(memory_link_count(m0), known);
    cr_assert_eq(access("nodir/x.navmem", F_OK), -1);
    /* A name with dots that are no '..' component is fine. */
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):memory():save('a..b.navmem'))"), "true");
    cr_assert_eq(access("a..b.navmem", F_OK), 0);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the learn event ======= */

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

/* Bot 0 climbs tower's ladder 1 (a learner, seeing no floors); bot 1, a
** learner in the store room, watches it and sees the floor round it. */
static const char *BRAIN = "local brain = {}\n"
                           "function brain.spawn(bot)\n"
                           "  bot:memory()\n"
                           "  if bot:id() == 0 then bot:sight_floors(false) end\n"
                           "end\n"
                           "function brain.think(bot, dt)\n"
                           "  if bot:id() == 0 then bot:move(0, 1) end\n"
                           "end\n"
                           "function brain.on_learn(bot, info)\n"
                           "  print(string.format('learn %d %s %s %d %d %s %s', nav.tick(), info.how,\n"
                           "    tostring(info.self), info.by:id(), info.link.id, info.link.type,\n"
                           "    tostring(bot:memory():knows_link(info.link.id))))\n"
                           "end\n"
                           "return brain\n";

static void cleanup_root(void) { leave_dir(); }

Test(memory_lua, the_learn_event_tells_link_by_self_and_how, .fini = cleanup_root)
{
    NavWorld *w = test_load_map("maps/tower.lua");
    enter_dir();
    cr_assert_eq(mkdir("bots", 0700), 0);
    cr_assert_eq(mkdir("lua", 0700), 0);
    FILE *bf = fopen("bots/learner.lua", "w");
    cr_assert_not_null(bf);
    fputs(BRAIN, bf);
    fclose(bf);
    static Log log;
    log.len = 0;
    log.text[0] = '\0';
    NavError err;
    nav_error_clear(&err);
    NavSession *s =
        session_create(w, &(NavSessionDesc){ .root = dir, .seed = 1, .log = collect, .log_user = &log }, &err);
    cr_assert_not_null(s, "%s", err.message);
    cr_assert_eq(session_add_bot(s, "learner", &(NavBotDesc){ .pos = { 25.25f, 7.25f, 0 } }, &err), 0, "%s",
                 err.message);
    cr_assert_eq(session_add_bot(s, "learner", &(NavBotDesc){ .pos = { 23.0f, 5.5f, 0 } }, &err), 1, "%s", err.message);
    for (int t = 0; t < 150; t++) session_step(s);
    for (uint32_t i = 0; i < 2; i++) cr_assert_not(session_bot_faulted(s, i), "bot %u: %s", i, session_bot_error(s, i));
    /* Every line: the link known when told; crossed and sighted are its
    ** own (self, by itself), watched another's. */
    int crossed = 0, watched = 0, sighted = 0, ladder_crossed = -1, ladder_watched = -1;
    for (const char *p = log.text; (p = strstr(p, "] learn ")) != NULL; p++) {
        int bot = -1, tick, by, link;
        char how[16], self[8], type[32], known[8];
        const char *open = p;
        while (open > log.text && *open != '[') open--;
        cr_assert_eq(sscanf(open, "[learner#%d] learn %d %15s %7s %d %d %31s %7s", &bot, &tick, how, self, &by, &link,
                            type, known),
                     8, "%.80s", open);
        cr_assert_str_eq(known, "true", "bot %d was told of link %d before it knew it", bot, link);
        if (strcmp(how, "crossed") == 0) {
            crossed++;
            cr_assert_str_eq(self, "true");
            cr_assert_eq(by, bot);
            if (strcmp(type, "ladder") == 0) ladder_crossed = link;
        } else if (strcmp(how, "watched") == 0) {
            watched++;
            cr_assert_str_eq(self, "false");
            cr_assert_neq(by, bot);
            if (strcmp(type, "ladder") == 0) ladder_watched = link;
        } else {
            cr_assert_str_eq(how, "sighted");
            sighted++;
            cr_assert_eq(by, bot);
            cr_assert_eq(bot, 1, "bot 0 sighted floors with sight_floors off");
            cr_assert(strcmp(type, "walk") == 0 || strcmp(type, "crouch") == 0, "sighted a %s link", type);
        }
    }
    cr_assert_gt(crossed, 0, "%s", log.text);
    cr_assert_gt(watched, 0, "%s", log.text);
    cr_assert_gt(sighted, 0, "%s", log.text);
    cr_assert_geq(ladder_crossed, 0, "the climber was not told it crossed the ladder:\n%s", log.text);
    cr_assert_eq(ladder_watched, ladder_crossed, "the watcher was told of ladder link %d, the climber of %d",
                 ladder_watched, ladder_crossed);
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

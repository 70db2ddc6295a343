/*
** test_nav_api_place.c — buildings from Lua (nav_api_place.c):
** nav.can_place, nav.spawn_points, nav.place_foundation and nav.spawn on
** the canal map (its north bank is open street at level 0, the canal 2 m
** deep), with their errors; a session whose scripts spawned bots keeps
** bot ids and its brains in step; the documentation's examples run.
*/
#include <string.h>

#include "core/fileio.h"
#include "script/session.h"
#include "nav_api_support.h"

static Fixture canal(void)
{
    char path[512];
    return setup(TEST_DATA_PATH(path, "maps/canal.lua"));
}

Test(nav_api_place, can_place_and_foundation)
{
    Fixture f = canal();
    cr_assert_str_eq(run(&f, "return tostring(nav.can_place{ x = 12, y = 24, hw = 2, hh = 1.5 })"), "true");
    cr_assert_str_eq(run(&f, "local ok, why, text = nav.can_place{ x = 12, y = 16, hw = 1, hh = 1, angle = 30 }\n"
                             "return string.format('%s %s %s', tostring(ok), why, text:match('^water 2 m deep at') "
                             "and 'deep' or text)"),
                     "false water deep");
    cr_assert_str_eq(run(&f, "local ok, why, text = nav.can_place{ x = 12, y = 24, hw = 2, hh = 1.5,\n"
                             "  rules = { min_water = 0.5 } }\n"
                             "return why .. ': ' .. text"),
                     "dry: dry ground at (10.25, 22.75), water at least 0.5 m deep needed");

    /* Two bots in the way, one of them the builder. */
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 11, 24, 0 } }, &err), 0, "%s", err.message);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 13, 24.5f, 0 } }, &err), 0, "%s", err.message);
    cr_assert_str_eq(run(&f, "local id, moved, stranded = nav.place_foundation{ x = 12, y = 24, hw = 2, hh = 1.5,\n"
                             "  builder = nav.bot(0) }\n"
                             "building = id\n"
                             "return string.format('%d %d %d', id, moved, stranded)"),
                     "1 1 0");
    cr_assert_float_eq(sim_bot(f.sim, 0)->pos[0], 11.0f, 0.0f);
    const NavBot *b = sim_bot(f.sim, 1);
    cr_assert(fabsf(b->pos[0] - 12) >= 2.4f || fabsf(b->pos[1] - 24) >= 1.9f, "bot 1 at (%g, %g) is still in the way",
              (double)b->pos[0], (double)b->pos[1]);
    cr_assert_str_eq(run(&f, "return tostring(nav.grid_passable(12, 24, 'human'))"), "false");
    /* A second building too near the first, then beside it. */
    cr_assert_str_eq(run(&f, "local ok, why, text = nav.can_place{ x = 17, y = 24, hw = 2, hh = 1.5, "
                             "rules = { spacing = 2 } }\n"
                             "return why .. ': ' .. text"),
                     "obstruction: 1 m from obstacle 1 at (15, 22.5), at least 2 needed");
    cr_assert_str_eq(run(&f, "local id, why, text = nav.place_foundation{ x = 13, y = 24, hw = 2, hh = 1.5 }\n"
                             "return tostring(id) .. ' ' .. why"),
                     "nil obstruction");
    cr_assert_str_eq(run(&f, "return tostring(nav.can_place{ x = 18, y = 24, hw = 2, hh = 1.5, "
                             "rules = { spacing = 2 } })"),
                     "true");
    /* Removed like any obstacle. */
    cr_assert_str_eq(run(&f, "return tostring(nav.remove_obstacle(building))"), "true");
    cr_assert_str_eq(run(&f, "return tostring(nav.can_place{ x = 13, y = 24, hw = 2, hh = 1.5 })"), "true");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_place, spawn_points_take_spawned_bots)
{
    Fixture f = canal();
    const char *got = run(&f, "local pts = nav.spawn_points{ x = 12, y = 24, hw = 2, hh = 1.5, class = 'human',\n"
                              "  n = 30, rally_x = 20, rally_y = 24 }\n"
                              "local made = 0\n"
                              "for i = 1, #pts, 2 do\n"
                              "  local bot = assert(nav.spawn{ x = pts[i], y = pts[i + 1], yaw = 90, team = 2 })\n"
                              "  made = made + 1\n"
                              "end\n"
                              "local first = pts[1] > 14\n"
                              "return string.format('%d %d %s %d', #pts, made, tostring(first), #nav.bots())");
    cr_assert_str_eq(got, "60 30 true 30");
    cr_assert_eq(sim_bot(f.sim, 5)->team, 2);
    /* Onto a bot: refused with why. */
    cr_assert_str_eq(run(&f, "local x, y = nav.bot(0):pos()\n"
                             "local b, why = nav.spawn{ x = x + 0.2, y = y }\n"
                             "return tostring(b) .. ' ' .. (why:match('does not fit') or why)"),
                     "nil does not fit");
    cr_assert_str_eq(run(&f, "local b, why = nav.spawn{ x = 30, y = 27 }  -- on the roof, 3.5 m up\n"
                             "local _, _, z = b:pos() return string.format('%.1f', z)"),
                     "3.5");
    cr_assert_str_eq(run(&f, "local b, why = nav.spawn{ x = 30, y = 27, z = 0 } return why:match('^no floor') or why"),
                     "no floor");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A script may spawn from a metamethod of another nav function's
** argument, while that function holds its bot's body: the bodies grow
** into new memory and the old stays readable until the next tick (the
** sanitizer build would report a use after free). */
Test(nav_api_place, spawning_inside_another_call_is_safe)
{
    Fixture f = canal();
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 5, 25, 0 } }, &err), 0, "%s", err.message);
    const char *got = run(&f, "local spawn = { __len = function()\n"
                              "  for i = 0, 39 do assert(nav.spawn{ x = 14 + (i % 10), y = 26 + (i // 10) }) end\n"
                              "  return 1\n"
                              "end }\n"
                              "local r, why = nav.bot(0):route(12, 22, 0, setmetatable({ 'walk' }, spawn))\n"
                              "return string.format('%d %s', #nav.bots(), type(r) == 'table' and 'route' or why)");
    cr_assert_str_eq(got, "41 route");
    for (int t = 0; t < 3; t++) sim_step(f.sim);
    cr_assert_str_eq(run(&f, "local x, y = nav.bot(40):pos() return string.format('%.0f %.0f', x, y)"), "23 29");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_place, bad_arguments_name_the_field)
{
    Fixture f = canal();
    static const struct {
        const char *code, *says;
    } cases[] = {
        { "nav.can_place('here')", "bad argument #1 to 'can_place' (table expected, got string)" },
        { "nav.can_place{ y = 1, hw = 1, hh = 1 }", "field 'x' is needed" },
        { "nav.can_place{ x = 1, y = 1, hw = 0, hh = 1 }", "field 'hw' must be above 0" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, width = 2 }", "unknown field 'width'" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, rules = { slope = 2 } }", "unknown rule 'slope'" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, rules = { max_slope = 100 } }", "'rules.max_slope' must be" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, rules = { shore = -1 } }", "'rules.shore' must be at least 0" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, rules = { min_water = 2, max_water = 1 } }",
          "'rules.min_water' is over 'rules.max_water'" },
        { "nav.can_place{ x = 1, y = 1, hw = 1, hh = 1, rules = 3 }", "field 'rules': table expected" },
        { "nav.can_place{ x = 1 / 0, y = 1, hw = 1, hh = 1 }", "field 'x': finite number expected" },
        { "nav.can_place{ x = 1e9, y = 1, hw = 1, hh = 1 }", "far outside the map" },
        { "nav.spawn_points{ x = 1, y = 1, hw = 1, hh = 1, class = 'dragon' }", "no class 'dragon'" },
        { "nav.spawn_points{ x = 1, y = 1, hw = 1, hh = 1, rally_x = 3 }", "'rally_x' and 'rally_y' go together" },
        { "nav.spawn_points{ x = 1, y = 1, hw = 1, hh = 1, n = -1 }", "field 'n': a whole number from 0" },
        { "nav.spawn_points{ x = 1, y = 1, hw = 1, hh = 1, rings = 65 }",
          "field 'rings': a whole number from 1 to 64" },
        { "nav.place_foundation{ x = 5, y = 25, hw = 1, hh = 1, builder = 5 }",
          "field 'builder': a bot (nav.Bot) expected, got number" },
        { "nav.place_foundation{ x = 5, y = 25, hw = 1, hh = 1, height = 0 }", "field 'height' must be above 0" },
        { "nav.spawn{ x = 5 }", "field 'y' is needed" },
        { "nav.spawn{ x = 5, y = 25, class = 3 }", "field 'class': class name expected, got number" },
        { "nav.spawn{ x = 5, y = 25, team = 1.5 }", "field 'team': a whole number" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        const char *msg = fails(&f, cases[i].code);
        cr_assert(strstr(msg, cases[i].says), "%s\n  said: %s\n  expected: %s", cases[i].code, msg, cases[i].says);
    }
    cr_assert_eq(sim_bot_count(f.sim), 0u);
    cr_assert_eq(sim_obstacle_count(f.sim), 0u);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_place, session_bots_after_spawned_ones_keep_their_ids)
{
    char path[512];
    NavWorld *w = test_load_map(TEST_DATA_PATH(path, "maps/canal.lua"));
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(w, &(NavSessionDesc){ .seed = 1, .root = "." }, &err);
    cr_assert_not_null(s, "%s", err.message);
    cr_assert_eq(session_add_bot(s, "runner", &(NavBotDesc){ .cls = 0, .pos = { 5, 25, 0 } }, &err), 0, "%s",
                 err.message);
    /* A script spawns one straight into the sim. */
    cr_assert_eq(sim_spawn_bot(session_sim(s), &(NavBotDesc){ .cls = 0, .pos = { 7, 25, 0 } }, &err), 1, "%s",
                 err.message);
    cr_assert_eq(session_add_bot(s, "runner", &(NavBotDesc){ .cls = 0, .pos = { 9, 25, 0 } }, &err), 2, "%s",
                 err.message);
    cr_assert_str_eq(session_bot_brain(s, 0), "runner");
    cr_assert_str_eq(session_bot_brain(s, 1), "");
    cr_assert_str_eq(session_bot_brain(s, 2), "runner");
    for (int t = 0; t < 10; t++) session_step(s);
    cr_assert(!session_bot_faulted(s, 2), "%s", session_bot_error(s, 2));
    session_destroy(s);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The examples of docs/lua-api.md's "Buildings and new bots" run as
** written on the valley, as the body of a brain's think with `bot` its
** bot (standing in the town square, where a foundation goes). */
Test(nav_api_place, the_building_examples_run, .timeout = 120)
{
    Fixture f = setup("maps/valley.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 60, 107, 0 } }, &err), 0, "%s", err.message);
    char *doc = NULL;
    size_t len = 0;
    cr_assert(NAV_SUCCEEDED(fileio_read("docs/lua-api.md", 1u << 22, &doc, &len, &err)), "%s", err.message);
    const char *from = strstr(doc, "### Buildings and new bots");
    const char *to = from ? strstr(from + 4, "\n### ") : NULL;
    cr_assert(from && to, "no section 'Buildings and new bots' in docs/lua-api.md");
    int examples = 0;
    for (const char *p = strstr(from, "```lua\n"); p && p < to; p = strstr(p, "```lua\n")) {
        p += 7;
        const char *end = strstr(p, "```\n");
        cr_assert(end && end < to);
        char code[2048];
        snprintf(code, sizeof code, "local bot = nav.bot(0)\n%.*s\nreturn 'ran'", (int)(end - p), p);
        cr_assert_str_eq(run(&f, code), "ran");
        examples++;
        p = end;
    }
    cr_assert_eq(examples, 4);
    /* What they did: ten units spawned, a foundation laid, a worker. */
    cr_assert_eq(sim_bot_count(f.sim), 12u);
    cr_assert_eq(sim_obstacle_count(f.sim), 1u);
    cr_assert_float_eq(sim_bot(f.sim, 0)->pos[0], 60.0f, 0.0f, "the builder moved");
    free(doc);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

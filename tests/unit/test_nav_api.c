/*
** test_nav_api.c — the nav Lua module: bots read and steered from Lua,
** routes, traces, and clean Lua errors for wrong arguments.
*/
#include <string.h>

#include <lauxlib.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "script/nav_api.h"
#include "lua/sandbox.h"
#include "nav_api_support.h"

Test(nav_api, a_bot_is_read_and_steered_from_lua)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 3, 10, 0 } }, &err), 0, "%s", err.message);
    cr_assert_str_eq(run(&f, "local b = nav.bot(0); local x, y, z = b:pos(); return string.format('%s %.2f %.2f %.2f "
                             "%s', tostring(b), x, y, z, b:class().name)"),
                     "bot 0 3.00 10.00 0.00 human");
    /* Steer east for a second from Lua. */
    for (int t = 0; t < 30; t++) {
        run(&f, "nav.bot(0):move(1, 0, 1, 'test') return 1");
        sim_step(f.sim);
    }
    cr_assert_gt(sim_bot(f.sim, 0)->pos[0], 7.0f, "moved to x = %g", (double)sim_bot(f.sim, 0)->pos[0]);
    cr_assert_str_eq(sim_bot(f.sim, 0)->control.reason, "test");
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0):state().on_ground)"), "true");
    cr_assert_str_eq(run(&f, "return tostring(nav.bot(0) == nav.bots()[1])"), "true");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api, routes_and_traces)
{
    Fixture f = setup("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 2, 28, 0 } }, &err), 0, "%s", err.message);
    /* The flag on the perch is reached by a route whose last link lands there. */
    const char *got = run(&f, "local r = assert(nav.bot(0):route(3.5, 20, 3.5))\n"
                              "local types = {}\n"
                              "for _, l in ipairs(r.links) do types[#types + 1] = l.type end\n"
                              "return string.format('%d %s', #r.links, tostring(r.time > 0))");
    cr_assert(got && strstr(got, " true"), "route: %s", got);
    cr_assert_str_eq(run(&f, "local r = nav.bot(0):route(3.5, 20, 3.5, {'walk'}) return tostring(r)"), "nil");
    /* A trace west from the start hits the outer wall. */
    cr_assert_str_eq(
        run(&f, "local t = nav.bot(0):trace(-10, 0) return string.format('%s %g', tostring(t.hit), t.normal[1])"),
        "true 1");
    cr_assert_str_eq(run(&f, "return tostring(nav.entity('lift').type)"), "elevator");
    /* A sweep past any int of bucket cells (2^53 m) was converted to int
    ** out of range; it hits the wall like a short one. */
    cr_assert_str_eq(run(&f, "local t = nav.bot(0):trace(-2^53, -2^53) return tostring(t.hit)"), "true");
    cr_assert_str_eq(run(&f, "local t = nav.bot(0):trace(2^53, 2^53, 2^53) return tostring(t.hit)"), "true");
    /* nav.random over the widest intervals (hi - lo overflowed). */
    cr_assert_str_eq(run(&f, "for i = 1, 50 do\n"
                             "  local v = nav.random(math.mininteger, math.maxinteger)\n"
                             "  assert(math.type(v) == 'integer')\n"
                             "  local w = nav.random(math.maxinteger - 2, math.maxinteger)\n"
                             "  assert(w >= math.maxinteger - 2)\n"
                             "  local u = nav.random(math.mininteger, math.mininteger + 1)\n"
                             "  assert(u <= math.mininteger + 1)\n"
                             "end\n"
                             "return 'ok'"),
                     "ok");
    /* A double past float's range is no finite coordinate. */
    cr_assert_not_null(strstr(fails(&f, "return nav.bot(0):route(-1e308, -1e308, -1e308)"), "finite number expected"));
    cr_assert_not_null(strstr(fails(&f, "return nav.area_at({1e300, 0, 0})"), "finite number for x"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api, route_links_tell_the_width_of_their_opening)
{
    /* arena: the north-east pillar (cols 43-44, rows 4-5: x 21.5-22.5 m,
    ** y 11-12 m) stands 1 m from the east wall (x 23.5 m): a gap a 0.8 m
    ** body passes only on the line between its two cells. */
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 23.0f, 13.0f, 0 } }, &err), 0, "%s",
                  err.message);
    const char *got = run(&f, "local r = assert(nav.bot(0):route(23.0, 10.0, 0))\n"
                              "for _, l in ipairs(r.links) do\n"
                              "  if l.start[2] > 12 and l.finish[2] < 11 then\n"
                              "    return string.format('%s %.3f %.3f', l.type, l.width, l.start[1])\n"
                              "  end\n"
                              "end\n"
                              "return 'no link through the gap'");
    float width = 0, x = 0;
    char type[32] = "";
    cr_assert(got && sscanf(got, "%31s %f %f", type, &width, &x) == 3, "%s", got);
    cr_assert_str_eq(type, "walk");
    cr_assert_float_eq(width, 1.0f, 1e-4f, "the gap is 1 m, the link says %s", got);
    /* the body (0.4 m each side) keeps off the pillar and the wall */
    cr_assert(x >= 22.9f - 1e-4f && x <= 23.1f + 1e-4f, "crosses at x %g", (double)x);
    /* every link of the route has an opening at least the body's width, or none */
    cr_assert_str_eq(run(&f, "local r = assert(nav.bot(0):route(3, 2, 0))\n"
                             "for _, l in ipairs(r.links) do\n"
                             "  if l.width ~= 0 and l.width < 0.8 - 1e-4 then return 'narrow ' .. l.width end\n"
                             "end\n"
                             "return 'ok'"),
                     "ok");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api, wrong_arguments_are_lua_errors)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 3, 10, 0 } }, &err), 0, "%s", err.message);
    static const struct {
        const char *code, *want;
    } cases[] = {
        { "nav.bot(0):move('east', 0)", "bad argument #1 to 'move' (number expected, got string)" },
        { "nav.bot(0).move({}, 1, 0)", "bad argument #1 to 'move' (nav.Bot expected, got table)" },
        { "nav.bot(7)", "no such bot" },
        { "nav.bot(0):route(1, 2, 0/0)", "finite number expected" },
        { "nav.bot(0):route(1, 2, 0, {'teleportish'})", "unknown travel flag 'teleportish'" },
        { "nav.entity('nothing')", "no entity 'nothing'" },
        { "nav.trace({0,0,0}, {0,0,0}, {1,1,0}, {1,0,0})", "an empty box" },
        { "nav.add_obstacle({1,1,1}, {0,0,0})", "maxs below mins" },
        { "setmetatable(nav.bot(0), {})", "bad argument #1 to 'setmetatable' (table expected, got nav.Bot)" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        char code[512];
        snprintf(code, sizeof code, "local ok, e = pcall(function() %s end) return ok and 'no error' or tostring(e)",
                 cases[i].code);
        const char *msg = run(&f, code);
        cr_assert(msg && strstr(msg, cases[i].want), "%s: got '%s', want '%s'", cases[i].code, msg, cases[i].want);
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* bot:route's avoid table: a forbidden link is never on the route, and a
** bad table is a Lua error naming what is wrong. */
Test(nav_api, route_avoids_links_it_is_told_to)
{
    Fixture f = setup("maps/tower.lua");
    NavError err;
    nav_error_clear(&err);
    const NavEntity *sp = world_entity(f.w, world_find_entity(f.w, "spawn_west"));
    float p[3] = { 0.5f * (sp->mins[0] + sp->maxs[0]), 0.5f * (sp->mins[1] + sp->maxs[1]), sp->mins[2] };
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { p[0], p[1], p[2] } }, &err), 0, "%s",
                  err.message);
    char code[2048];
    /* Forbid each link of the route in turn: the new route, if any, never
    ** takes it and is no faster; a finite extra is paid only if taken. */
    snprintf(code, sizeof code, "%s",
             "local b = nav.bot(0)\n"
             "local x, y, z = table.unpack(nav.entity('goal_roof').pos)\n"
             "local r = assert(b:route(x, y, z))\n"
             "local rerouted = 0\n"
             "for _, l in ipairs(r.links) do\n"
             "  local r2 = b:route(x, y, z, nil, { [l.id] = math.huge })\n"
             "  if r2 then\n"
             "    rerouted = rerouted + 1\n"
             "    assert(r2.time >= r.time, 'faster without link ' .. l.id)\n"
             "    for _, m in ipairs(r2.links) do assert(m.id ~= l.id, 'took forbidden link ' .. l.id) end\n"
             "  end\n"
             "  local r3 = assert(b:route(x, y, z, nil, { [l.id] = 0.5 }))\n"
             "  local took = false\n"
             "  for _, m in ipairs(r3.links) do took = took or m.id == l.id end\n"
             "  assert(r3.time <= r.time + 0.5 + 1e-6 and r3.time >= r.time - 1e-6, 'extra 0.5: ' .. r3.time .. ' vs ' "
             ".. r.time)\n"
             "  if took then assert(math.abs(r3.time - r.time - 0.5) < 1e-6) end\n"
             "end\n"
             "local same = assert(b:route(x, y, z, nil, {}))\n"
             "assert(same.time == r.time and #same.links == #r.links)\n"
             "return string.format('%d %d', #r.links, rerouted)");
    const char *got = run(&f, code);
    int links = 0, rerouted = 0;
    cr_assert_eq(sscanf(got, "%d %d", &links, &rerouted), 2, "%s", got);
    cr_assert_gt(links, 2, "the route to the roof has %d links", links);
    cr_assert_gt(rerouted, 0, "no link of the route to the roof has a way round it");
    static const struct {
        const char *code, *want;
    } cases[] = {
        { "nav.bot(0):route(1, 2, 0, nil, 5)", "table expected, got number" },
        { "nav.bot(0):route(1, 2, 0, nil, { foo = 1 })", "keys must be link ids" },
        { "nav.bot(0):route(1, 2, 0, nil, { [-1] = 1 })", "keys must be link ids" },
        { "nav.bot(0):route(1, 2, 0, nil, { [1.5] = 1 })", "keys must be link ids" },
        { "nav.bot(0):route(1, 2, 0, nil, { [100000] = 1 })", "keys must be link ids" },
        { "nav.bot(0):route(1, 2, 0, nil, { [0] = -1 })", "link 0: extra seconds must be a number >= 0" },
        { "nav.bot(0):route(1, 2, 0, nil, { [0] = 0/0 })", "extra seconds must be a number >= 0" },
        { "nav.bot(0):route(1, 2, 0, nil, { [0] = 'x' })", "extra seconds must be a number >= 0" },
        { "local t = {} for i = 0, 32 do t[i] = 1 end nav.bot(0):route(1, 2, 0, nil, t)", "at most 32 links to avoid" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        snprintf(code, sizeof code, "local ok, e = pcall(function() %s end) return ok and 'no error' or tostring(e)",
                 cases[i].code);
        const char *msg = run(&f, code);
        cr_assert(msg && strstr(msg, cases[i].want), "%s: got '%s', want '%s'", cases[i].code, msg, cases[i].want);
        cr_assert(strstr(msg, "bad argument #6") || strstr(msg, "bad argument #5"), "%s: '%s' names no argument",
                  cases[i].code, msg);
    }
    const char *ok =
        run(&f, "local t = {} for i = 0, 31 do t[i] = 1 end return tostring(nav.bot(0):route(1, 2, 0, nil, t) ~= nil)");
    cr_assert_str_eq(ok, "true", "32 entries are allowed");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* A room with a crate and a door (shut). */
static const char THINGS[] =
    "return { name = 'things', cell_size = 0.5,\n"
    "  legend = { ['C'] = { type = 'floor', mark = 'crate' }, ['D'] = { type = 'floor', mark = 'door' } },\n"
    "  layers = { { name = 'ground', z = 0, rows = {\n"
    "    '##############################',\n"
    "    '#............................#',\n"
    "    '#............................#',\n"
    "    '#..CC........................#',\n"
    "    '#..CC........................#',\n"
    "    '#............................#',\n"
    "    '#............................#',\n"
    "    '#............................#',\n"
    "    '##########DD##################' } } },\n"
    "  entities = { { type = 'crate', name = 'box', at = 'crate' },\n"
    "               { type = 'door', name = 'gate', at = 'door' } } }\n";

/* Traces name what they hit: the bot's id, the entity's index, the
** obstacle's index; the level only as static. */
Test(nav_api, traces_name_the_bot_entity_or_obstacle_hit)
{
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = map_load_buffer(THINGS, strlen(THINGS), "things.lua", NULL, &err);
    cr_assert_not_null(f.w, "%s", err.message);
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 3 }, &err);
    cr_assert_not_null(f.sim);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb);
    nav_api_open(sandbox_state(f.sb), f.sim);
    /* Rows from the top: the crate at x 1.5-2.5, y 2-3; the door at x
    ** 5-6 in the south wall; the room is 15 x 4.5 m. */
    float at[3][3] = { { 5.0f, 2.5f, 0.0f }, { 9.0f, 2.5f, 0.0f }, { 5.5f, 1.0f, 0.0f } };
    for (int i = 0; i < 3; i++)
        cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { at[i][0], at[i][1], at[i][2] } }, &err), 0,
                      "bot %d: %s", i, err.message);
    int crate = world_find_entity(f.w, "box"), door = world_find_entity(f.w, "gate");
    char want[64];
    /* Bot 0 east: bot 1. */
    cr_assert_str_eq(run(&f, "local t = nav.bot(0):trace(6, 0) return string.format('%s %s %s %s %s', tostring(t.hit), "
                             "tostring(t.static), tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     "true false 1 nil nil");
    /* Bot 0 west: the crate. */
    snprintf(want, sizeof want, "true false nil %d nil", crate);
    cr_assert_str_eq(run(&f,
                         "local t = nav.bot(0):trace(-4, 0) return string.format('%s %s %s %s %s', tostring(t.hit), "
                         "tostring(t.static), tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     want);
    /* Bot 2 south: the shut door. */
    snprintf(want, sizeof want, "true false nil %d nil", door);
    cr_assert_str_eq(run(&f,
                         "local t = nav.bot(2):trace(0, -2) return string.format('%s %s %s %s %s', tostring(t.hit), "
                         "tostring(t.static), tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     want);
    /* North: the wall, named by nothing. */
    cr_assert_str_eq(run(&f, "local t = nav.bot(0):trace(0, 5) return string.format('%s %s %s %s %s', tostring(t.hit), "
                             "tostring(t.static), tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     "true true nil nil nil");
    /* Two dropped boxes; the trace hits the second, index 1. */
    cr_assert_str_eq(run(&f, "nav.add_obstacle({ 12, 0.5, 0 }, { 13, 4.5, 2 })\n"
                             "nav.add_obstacle({ 6.5, 0.5, 0 }, { 7, 4.5, 2 })\n"
                             "local t = nav.bot(0):trace(4, 0) return string.format('%s %s %s %s %s', tostring(t.hit), "
                             "tostring(t.static), tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     "true false nil nil 1");
    /* A miss names nothing. */
    cr_assert_str_eq(run(&f, "local t = nav.bot(0):trace(0, 0.5) return string.format('%s %s %s %s', tostring(t.hit), "
                             "tostring(t.bot), tostring(t.entity), tostring(t.obstacle))"),
                     "false nil nil nil");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* bot:claim, bot:release and nav.claims: three bots at a one-at-a-time place. */
Test(nav_api, claims_from_lua)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    for (int i = 0; i < 3; i++) {
        float at[3];
        cr_assert(sim_place_free(f.sim, 0, (float[3]){ 3, 10, 0 }, 0, at));
        cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { at[0], at[1], at[2] } }, &err), 0, "%s",
                      err.message);
    }
    cr_assert_str_eq(
        run(&f, "local out = {}\n"
                "for i = 2, 0, -1 do\n"
                "  local ok, holder, place, holders = nav.bot(i):claim('ladder/human/4')\n"
                "  out[#out + 1] = string.format('%s %s %d %d', tostring(ok), tostring(holder), place, holders)\n"
                "end\n"
                "return table.concat(out, ', ')"),
        "true 2 1 1, false 2 1 1, false 2 1 1"); /* bot 0 asked in the same tick as bot 1: ahead of it */
    cr_assert_str_eq(run(&f, "local c = nav.claims()\n"
                             "return string.format('%d %s %d %d %d:%d,%d', #c, c[1].key, c[1].capacity, c[1].side,\n"
                             "  c[1].holders[1], c[1].waiting[1], c[1].waiting[2])"),
                     "1 ladder/human/4 1 0 2:0,1");
    /* The holder lets go: bot 0 (first in the queue) is next. */
    cr_assert_str_eq(
        run(&f,
            "local a = nav.bot(2):release('ladder/human/4')\n"
            "local b = nav.bot(2):release('ladder/human/4')\n"
            "local ok0 = nav.bot(0):claim('ladder/human/4')\n"
            "local ok1, holder = nav.bot(1):claim('ladder/human/4')\n"
            "return string.format('%s %s %s %s %d', tostring(a), tostring(b), tostring(ok0), tostring(ok1), holder)"),
        "true false true false 0");
    /* Sides and capacity. */
    cr_assert_str_eq(run(&f,
                         "local a = nav.bot(0):claim('way/9', { capacity = 2, side = 1 })\n"
                         "local b = nav.bot(1):claim('way/9', { capacity = 2, side = 2 })\n"
                         "local c = nav.bot(2):claim('way/9', { capacity = 2, side = 1, lapse = 0.5, patience = 2 })\n"
                         "return string.format('%s %s %s', tostring(a), tostring(b), tostring(c))"),
                     "true false true");
    static const struct {
        const char *code, *want;
    } cases[] = {
        { "nav.bot(0):claim()", "bad argument #1 to 'claim' (string expected, got no value)" },
        { "nav.bot(0):claim('')", "bad argument #1 to 'claim' (a key that is not empty expected)" },
        { "nav.bot(0):claim(string.rep('k', 60))", "bad argument #1 to 'claim' (key longer than 47 characters)" },
        { "nav.bot(0):claim('k', 3)", "bad argument #2 to 'claim' (table expected, got number)" },
        { "nav.bot(0):claim('k', { capacity = 0 })",
          "bad argument #2 to 'claim' (capacity must be an integer in 1..1024)" },
        { "nav.bot(0):claim('k', { capacity = 1.5 })", "capacity must be an integer" },
        { "nav.bot(0):claim('k', { side = 'up' })", "bad argument #2 to 'claim' (side must be an integer)" },
        { "nav.bot(0):claim('k', { lapse = -1 })", "lapse must be seconds in (0, 3600]" },
        { "nav.bot(0):claim('k', { patience = 0/0 })", "patience must be seconds in (0, 3600]" },
        { "nav.bot(0):claim('k', { capcity = 2 })",
          "unknown option 'capcity' (options: capacity, side, lapse, patience)" },
        { "nav.bot(0).claim({}, 'k')", "bad argument #1 to 'claim' (nav.Bot expected, got table)" },
        { "nav.bot(0):release(false)", "bad argument #1 to 'release' (string expected, got boolean)" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        char code[512];
        snprintf(code, sizeof code, "local ok, e = pcall(function() %s end) return ok and 'no error' or tostring(e)",
                 cases[i].code);
        const char *msg = run(&f, code);
        cr_assert(msg && strstr(msg, cases[i].want), "%s: got '%s', want '%s'", cases[i].code, msg, cases[i].want);
    }
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* Route links carry the width of the opening they cross, wall to wall:
** the tower's guard room doorway is 1.5 m (three cells). */
Test(nav_api, route_links_have_their_width)
{
    Fixture f = setup("maps/tower.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 6, 6.5, 0 } }, &err), 0, "%s", err.message);
    const char *got =
        run(&f, "local r = assert(nav.bot(0):route(12, 6.5, 0))\n"
                "local w = {}\n"
                "for _, l in ipairs(r.links) do w[#w + 1] = string.format('%s %.2f', l.type, l.width) end\n"
                "return table.concat(w, ', ')");
    cr_assert_str_eq(got, "walk 1.50, walk 1.50");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* The examples of docs/lua-api.md's "Bot: taking turns" run as written,
** as the body of a brain's think with `bot` its bot. */
Test(nav_api, the_taking_turns_examples_run)
{
    Fixture f = setup("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 3, 10, 0 } }, &err), 0, "%s", err.message);
    char *doc = NULL;
    size_t len = 0;
    cr_assert(NAV_SUCCEEDED(fileio_read("docs/lua-api.md", 1u << 22, &doc, &len, &err)), "%s", err.message);
    const char *from = strstr(doc, "### Bot: taking turns");
    const char *to = from ? strstr(from + 4, "\n### ") : NULL;
    cr_assert(from && to, "no section 'Bot: taking turns' in docs/lua-api.md");
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
    cr_assert_eq(examples, 3);
    nav_free(doc);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* The engine's name tables reach Lua as lists, in the engine's order. */
Test(nav_api, name_tables_come_from_the_engine)
{
    Fixture f = setup("maps/arena.lua");
    cr_assert_str_eq(
        run(&f, "return table.concat(nav.travel_types(), ',')"),
        "walk,crouch,barrier_jump,walk_off_ledge,jump,climb,ladder,swim,water_jump,teleport,elevator,jump_pad");
    cr_assert_str_eq(run(&f, "return table.concat(nav.area_flags(), ',')"), "ledge,liquid,lava,slime,crouch,ladder");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* bot:route's limit: the first links of the same route, and the count of
** all of them; a limit under 1 is an error naming the argument. */
Test(nav_api, route_limit_keeps_the_first_links)
{
    Fixture f = setup("maps/tower.lua");
    NavError err;
    nav_error_clear(&err);
    const NavEntity *sp = world_entity(f.w, world_find_entity(f.w, "spawn_west"));
    float p[3] = { 0.5f * (sp->mins[0] + sp->maxs[0]), 0.5f * (sp->mins[1] + sp->maxs[1]), sp->mins[2] };
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { p[0], p[1], p[2] } }, &err), 0, "%s",
                  err.message);
    const char *got =
        run(&f, "local b = nav.bot(0)\n"
                "local x, y, z = table.unpack(nav.entity('goal_roof').pos)\n"
                "local r = assert(b:route(x, y, z))\n"
                "assert(r.count == #r.links, 'count ' .. r.count .. ' of ' .. #r.links)\n"
                "for _, k in ipairs({ 1, 2, 3, r.count, r.count + 5 }) do\n"
                "  local s = assert(b:route(x, y, z, nil, nil, k))\n"
                "  assert(s.count == r.count and s.time == r.time)\n"
                "  assert(#s.links == math.min(k, r.count), k .. ': ' .. #s.links)\n"
                "  for i, l in ipairs(s.links) do assert(l.id == r.links[i].id and l.type == r.links[i].type) end\n"
                "end\n"
                "local ok, e = pcall(b.route, b, x, y, z, nil, nil, 0)\n"
                "assert(not ok)\n"
                "return e");
    cr_assert(strstr(got, "bad argument #7") && strstr(got, "at least 1 link"), "%s", got);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

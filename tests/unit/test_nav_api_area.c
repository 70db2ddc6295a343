/*
** test_nav_api_area.c — areas, links, routes between points, area costs
** and random points from Lua (nav_api_area.c, nav_api_costs.c), checked
** against the C queries they stand on.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/random.h"
#include "lua/sandbox.h"
#include "script/nav_api.h"
#include "nav_api_support.h"
#include "sim/sim_debug.h"

Test(nav_api_area, an_area_gives_its_links_and_neighbours)
{
    Fixture f = setup("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    /* Every area: the links out are the graph's, in order, with their
    ** targets; the neighbours are those targets once each, ascending. */
    const NavAreaGraph *ag = router_graph(sim_router(f.sim, 0, &err));
    char code[2048];
    snprintf(code, sizeof code, "N = %u", area_count(ag));
    run(&f, code);
    cr_assert_str_eq(run(&f, "local bad = 0\n"
                             "for id = 0, N - 1 do\n"
                             "  local a = nav.area(id)\n"
                             "  if a.id ~= id then bad = bad + 1 end\n"
                             "  local seen, list = {}, {}\n"
                             "  for _, l in ipairs(a.links) do\n"
                             "    if l.from ~= id or not l.type or l.time < 0 or l.width < 0 then bad = bad + 1 end\n"
                             "    if not seen[l.to] then seen[l.to] = true; list[#list + 1] = l.to end\n"
                             "  end\n"
                             "  table.sort(list)\n"
                             "  if #list ~= #a.neighbours then bad = bad + 1 end\n"
                             "  for i, v in ipairs(list) do if a.neighbours[i] ~= v then bad = bad + 1 end end\n"
                             "  local b = nav.area_at(a.center)\n"
                             "  if not b or b.id ~= id then bad = bad + 1 end\n"
                             "end\n"
                             "return bad"),
                     "0");
    /* The links agree with the graph, one area checked in C. */
    uint32_t probe = area_count(ag) / 2;
    const NavArea *a = area_get(ag, probe);
    snprintf(code, sizeof code,
             "local a = nav.area(%u) local l = a.links[1] return string.format('%%d %%d %%d %%.2f', #a.links, l.id, "
             "l.to, l.time)",
             probe);
    char want[128];
    const NavReach *re = area_reach(ag, a->first_reach);
    snprintf(want, sizeof want, "%u %u %u %.2f", a->reach_count, a->first_reach, re->to, re->time / 100.0);
    cr_assert_str_eq(run(&f, code), want);
    cr_assert(strstr(fails(&f, "return nav.area(-1)"), "no such area"));
    cr_assert(strstr(fails(&f, "return nav.area(0, 'nobody')"), "no class 'nobody'"));
    cr_assert_str_eq(run(&f, "return tostring((nav.area_at({-50, -50, 0})))"), "nil");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_area, a_route_between_points_reaches_the_goal_point)
{
    Fixture f = setup("maps/gauntlet.lua");
    /* From a point to a goal entity: the links chain from the start's area
    ** to the goal's, time = time into the goal's area + the last leg, and
    ** the route time is route_time's. */
    cr_assert_str_eq(run(&f, "local g = nav.entity(nav.entities('goal')[1]).pos\n"
                             "local r = assert(nav.route({2, 28, 0}, g))\n"
                             "local ok = r.from == nav.area_at({2, 28, 0}).id and r.to == nav.area_at(g).id\n"
                             "ok = ok and r.links[1].from == r.from and r.links[#r.links].to == r.to\n"
                             "for i = 2, #r.links do ok = ok and r.links[i].from == r.links[i - 1].to end\n"
                             "ok = ok and math.abs(r.area_time - nav.route_time({2, 28, 0}, g)) < 1e-9\n"
                             "ok = ok and r.time >= r.area_time and r.cost == r.time\n"
                             "return tostring(ok)"),
                     "true");
    /* In one area: no links, the time of the straight walk. */
    cr_assert_str_eq(run(&f, "local a = nav.area_at({2, 28, 0})\n"
                             "local r = nav.route({2, 28, 0}, a.center)\n"
                             "return string.format('%d %s', #r.links, tostring(r.time > 0 and r.area_time == 0))"),
                     "0 true");
    cr_assert_str_eq(run(&f, "local r, why = nav.route({-50, -50, 0}, {2, 28, 0}) return why"),
                     "the start is on no area");
    cr_assert(strstr(fails(&f, "nav.route({0, 0, 0}, {1, 1, 0}, {flag = 1})"),
                     "unknown option 'flag' (accepted: flags, class, costs, cost)"));
    cr_assert(strstr(fails(&f, "nav.route({0, 0, 0}, {1, 1, 0}, {flags = {'wakl'}})"), "unknown travel flag 'wakl'"));
    cr_assert(strstr(fails(&f, "nav.route({0, 0, 0}, {1, 1, 0}, {class = 'ghost'})"), "no class 'ghost'"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_area, area_costs_steer_routes_and_are_checked)
{
    Fixture f = setup("maps/gauntlet.lua");
    /* Costs of 1 change nothing; dear water costs more and never routes
    ** faster; a cost function that keeps out of liquids gives the same
    ** route as liquid = math.huge; the function is asked once per area. */
    cr_assert_str_eq(
        run(&f,
            "local g = nav.entity(nav.entities('goal')[1]).pos\n"
            "local plain = nav.route({2, 28, 0}, g)\n"
            "local ones = nav.route({2, 28, 0}, g, {costs = {water = 1, ledge = 1}})\n"
            "local dear = nav.route({2, 28, 0}, g, {costs = {water = 4}})\n"
            "local calls = 0\n"
            "local function dry(a) calls = calls + 1 return a.liquid and math.huge or 1 end\n"
            "local f1 = nav.route({2, 28, 0}, g, {cost = dry})\n"
            "local n1 = calls\n"
            "local f2 = nav.route({2, 28, 0}, g, {cost = dry})\n"
            "local t = nav.route({2, 28, 0}, g, {costs = {liquid = math.huge}})\n"
            "local same = (f1 == nil) == (t == nil) and (f1 == nil or f1.time == t.time)\n"
            "return string.format('%s %s %s %s %s', tostring(ones.time == plain.time and ones.cost == plain.cost),\n"
            "  tostring(dear.cost >= plain.cost and dear.time >= plain.time), tostring(same),\n"
            "  tostring(n1 > 0 and calls == n1), tostring(f2 == nil or f2.time == f1.time))"),
        "true true true true true");
    cr_assert(strstr(fails(&f, "nav.route({2, 28, 0}, {3, 28, 0}, {costs = {wet = 2}})"),
                     "costs: unknown area kind 'wet' (accepted: ledge, liquid, lava, slime, crouch, ladder, water)"));
    cr_assert(strstr(fails(&f, "nav.route({2, 28, 0}, {3, 28, 0}, {costs = {water = -1}})"),
                     "'water' must be a number >= 0"));
    cr_assert(strstr(fails(&f, "nav.route({2, 28, 0}, {3, 28, 0}, {cost = function() return 'x' end})"),
                     "cost function returned string"));
    cr_assert(strstr(fails(&f, "nav.route({2, 28, 0}, {3, 28, 0}, {cost = 1, costs = {}})"), "not both"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(nav_api_area, random_points_are_reachable_near_and_repeat_by_seed)
{
    Fixture f = setup("maps/gauntlet.lua");
    /* 200 points within 6 m of a spot: each within the radius, on the
    ** area returned, with a route to it; several areas are used. */
    cr_assert_str_eq(run(&f, "local c = {2, 28, 0}\n"
                             "local bad, areas, n = 0, {}, 0\n"
                             "for i = 1, 200 do\n"
                             "  local p, id = nav.random_point(c, 6)\n"
                             "  if not p then bad = bad + 1 else\n"
                             "    if math.sqrt((p[1] - c[1]) ^ 2 + (p[2] - c[2]) ^ 2) > 6 then bad = bad + 1 end\n"
                             "    local a = nav.area_at(p)\n"
                             "    if not a or a.id ~= id then bad = bad + 1 end\n"
                             "    if not nav.route(c, p) then bad = bad + 1 end\n"
                             "    if not areas[id] then areas[id] = true; n = n + 1 end\n"
                             "  end\n"
                             "end\n"
                             "return string.format('%d %s', bad, tostring(n >= 3))"),
                     "0 true");
    const char *first =
        run(&f, "local p = nav.random_point({2, 28, 0}, 6) return string.format('%.4f %.4f', p[1], p[2])");
    char a[64];
    snprintf(a, sizeof a, "%s", first);
    teardown(&f);
    /* The same seed and calls: the same points. */
    f = setup("maps/gauntlet.lua");
    run(&f, "for i = 1, 200 do nav.random_point({2, 28, 0}, 6) end return 1");
    cr_assert_str_eq(run(&f, "local p = nav.random_point({2, 28, 0}, 6) return string.format('%.4f %.4f', p[1], p[2])"),
                     a);
    cr_assert(strstr(fails(&f, "nav.random_point({2, 28, 0}, 0)"), "radius must be above 0"));
    cr_assert(strstr(fails(&f, "nav.random_point({2, 28, 0}, 3, {costs = {}})"),
                     "unknown option 'costs' (accepted: flags, class)"));
    cr_assert_str_eq(run(&f, "local p, why = nav.random_point({-40, -40, 0}, 3) return why"),
                     "the point is on no area");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* The examples of docs/lua-api.md's sections on areas and routes, facing
** and debug drawing run as written, as bodies of a brain's think with
** `bot` its bot (two bots on the gauntlet, goals queued, show on). */
Test(nav_api_area, the_examples_of_the_new_sections_run)
{
    Fixture f = setup("maps/gauntlet.lua");
    NavError err;
    nav_error_clear(&err);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 2, 28, 0 } }, &err), 0, "%s", err.message);
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { 6, 28, 0 } }, &err), 0, "%s", err.message);
    sim_bot_push_goal(f.sim, 0, (float[3]){ 20, 28, 0 }, 0.5f);
    sim_show_enable(f.sim, true);
    char *doc = NULL;
    size_t len = 0;
    cr_assert(NAV_SUCCEEDED(fileio_read("docs/lua-api.md", 1u << 22, &doc, &len, &err)), "%s", err.message);
    static const char *SECTIONS[] = { "### Areas and routes", "### Bot: facing", "### Debug drawing" };
    static const int COUNTS[] = { 7, 2, 4 };
    for (size_t k = 0; k < 3; k++) {
        const char *from = strstr(doc, SECTIONS[k]);
        cr_assert_not_null(from, "no section '%s'", SECTIONS[k]);
        const char *to = strstr(from + 4, "\n## ");
        const char *next = strstr(from + 4, "\n### ");
        if (next && next < to) to = next;
        int examples = 0;
        for (const char *p = strstr(from, "```lua\n"); p && p < to; p = strstr(p, "```lua\n")) {
            p += 7;
            const char *end = strstr(p, "```\n");
            cr_assert(end && end < to);
            char code[4096];
            snprintf(code, sizeof code, "local bot = nav.bot(0)\n%.*s\nreturn 'ran'", (int)(end - p), p);
            cr_assert_str_eq(run(&f, code), "ran", "%s", code);
            examples++;
            p = end;
        }
        cr_assert_eq(examples, COUNTS[k], "%s: %d examples", SECTIONS[k], examples);
    }
    nav_free(doc);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/* bot:walkable's wide and areas, against area_trace itself: wide holds
** when the centre line and the lines to a radius either side of the end
** all walk; areas holds when the walk stays in the areas listed (those
** the trace crosses are enough, one fewer is not). On valley, from a spot
** whose straight line to a point past a terrace passes a point sample but
** leaves the route's corridor. */
static bool c_walk(const NavAreaGraph *ag, const float from[3], const float to[3], uint32_t *areas, int *n)
{
    NavAreaTraceHit hits[64];
    bool done = false;
    float endz;
    uint32_t stop = NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME | NAV_AREA_CROUCH | NAV_AREA_LADDER;
    int k = area_trace(ag, from, to, stop, hits, 64, &done, &endz);
    if (areas)
        for (int i = 0; i < k && i < 64; i++) areas[i] = hits[i].area;
    if (n) *n = k;
    return done && k <= 64 && fabsf(endz - to[2]) <= area_class(ag)->step + 0.05f;
}

Test(nav_api_area, walkable_wide_and_within_areas_agree_with_the_trace)
{
    Fixture f = setup("maps/valley.lua");
    NavError err;
    nav_error_clear(&err);
    float at[3] = { 49.64f, 38.37f, 0.0f };
    cr_assert_geq(sim_add_bot(f.sim, &(NavBotDesc){ .cls = 0, .pos = { at[0], at[1], at[2] } }, &err), 0, "%s",
                  err.message);
    const NavAreaGraph *ag = router_graph(sim_router(f.sim, 0, &err));
    at[2] = sim_bot(f.sim, 0)->pos[2];
    float r = area_class(ag)->radius;
    uint64_t rs = 7;
    int differ = 0, checked = 0;
    char code[1024];
    for (int i = 0; i < 300; i++) {
        float to[3] = { at[0] + (float)(nav_rand_unit(&rs) * 30.0 - 15.0),
                        at[1] + (float)(nav_rand_unit(&rs) * 30.0 - 15.0), 0 };
        NavAreaPlace pl;
        area_place_point(ag, to, false, 0.0f, &pl);
        if (pl.area == NAV_NO_AREA) continue;
        to[2] = pl.point[2];
        float dx = to[0] - at[0], dy = to[1] - at[1], len = sqrtf(dx * dx + dy * dy);
        bool centre = c_walk(ag, at, to, NULL, NULL), wide = centre;
        for (int side = -1; side <= 1 && wide && len > r; side += 2) {
            float end[3] = { to[0] - dy / len * r * (float)side, to[1] + dx / len * r * (float)side, to[2] };
            wide = c_walk(ag, at, end, NULL, NULL);
        }
        snprintf(code, sizeof code,
                 "local b = nav.bot(0) return string.format('%%s %%s', tostring(b:walkable(%.9g, %.9g, %.9g)), "
                 "tostring(b:walkable(%.9g, %.9g, %.9g, nil, true)))",
                 (double)to[0], (double)to[1], (double)to[2], (double)to[0], (double)to[1], (double)to[2]);
        char want[32];
        snprintf(want, sizeof want, "%s %s", centre ? "true" : "false", wide ? "true" : "false");
        cr_assert_str_eq(run(&f, code), want, "to (%g, %g, %g)", (double)to[0], (double)to[1], (double)to[2]);
        differ += centre && !wide;
        checked++;
        /* The areas the centre line crosses keep it walkable; without the
        ** last one it is not. */
        uint32_t areas[64];
        int n = 0;
        if (centre && c_walk(ag, at, to, areas, &n) && n >= 2 && n <= 64) {
            int len_code = snprintf(code, sizeof code, "local A = {");
            for (int k = 0; k < n && len_code < 900; k++)
                len_code += snprintf(code + len_code, sizeof code - (size_t)len_code, "%u,", areas[k]);
            snprintf(code + len_code, sizeof code - (size_t)len_code,
                     "} local b = nav.bot(0) local all = b:walkable(%.9g, %.9g, %.9g, nil, false, A)\n"
                     "local last = table.remove(A) local drop = true\n"
                     "for _, a in ipairs(A) do if a == last then drop = false end end\n"
                     "local fewer = b:walkable(%.9g, %.9g, %.9g, nil, false, A)\n"
                     "return string.format('%%s %%s', tostring(all), tostring(drop and fewer))",
                     (double)to[0], (double)to[1], (double)to[2], (double)to[0], (double)to[1], (double)to[2]);
            /* all: within every area crossed; then, when the last is not
            ** also crossed earlier, within all but it must fail */
            cr_assert_str_eq(run(&f, code), "true false", "within the areas crossed, then one fewer");
        }
    }
    cr_assert_gt(checked, 150);
    cr_assert_gt(differ, 0, "no point where the body's sides fail and the centre passes: nothing tested");
    cr_assert(strstr(fails(&f, "return nav.bot(0):walkable(50, 38, 0, nil, false, {'x'})"), "areas[1]: an area id"));
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_competence.c — `navbot bench competence` and its missions
** (sim/mission.h): the report is well-formed JSON with the documented
** fields, missions repeat for a seed and change with it, every mission's
** start and goal are connected (a plain Dijkstra is the oracle) and a body
** stands free at both, bad options and missing maps are refused. Nothing
** here asserts how many bots arrive or how fast anything runs.
*/
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "area/area.h"
#include "route/route.h"
#include "sim/mission.h"
#include "test_cli_run.h"
#include "test_support.h"

/* {======= a strict JSON checker (RFC 8259 grammar, no extensions) ======= */

typedef struct JsonIn {
    const char *p;
} JsonIn;

static void ws(JsonIn *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r') j->p++;
}

static bool value(JsonIn *j, int depth);

static bool string(JsonIn *j)
{
    if (*j->p != '"') return false;
    j->p++;
    while (*j->p && *j->p != '"') {
        if ((unsigned char)*j->p < 0x20) return false;
        if (*j->p == '\\') {
            j->p++;
            if (*j->p == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!isxdigit((unsigned char)j->p[k])) return false;
                j->p += 4;
            } else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
                return false;
            }
        }
        j->p++;
    }
    if (*j->p != '"') return false;
    j->p++;
    return true;
}

static bool number(JsonIn *j)
{
    const char *s = j->p;
    if (*s == '-') s++;
    if (*s == '0') s++;
    else if (isdigit((unsigned char)*s)) while (isdigit((unsigned char)*s)) s++;
    else return false;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s)) return false;
        while (isdigit((unsigned char)*s)) s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!isdigit((unsigned char)*s)) return false;
        while (isdigit((unsigned char)*s)) s++;
    }
    j->p = s;
    return true;
}

static bool value(JsonIn *j, int depth)
{
    if (depth > 64) return false;
    ws(j);
    if (*j->p == '{' || *j->p == '[') {
        char close = *j->p == '{' ? '}' : ']';
        bool object = close == '}';
        j->p++;
        ws(j);
        if (*j->p == close) {
            j->p++;
            return true;
        }
        for (;;) {
            ws(j);
            if (object) {
                if (!string(j)) return false;
                ws(j);
                if (*j->p++ != ':') return false;
            }
            if (!value(j, depth + 1)) return false;
            ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p != close) return false;
            j->p++;
            return true;
        }
    }
    if (*j->p == '"') return string(j);
    if (strncmp(j->p, "true", 4) == 0) return j->p += 4, true;
    if (strncmp(j->p, "false", 5) == 0) return j->p += 5, true;
    if (strncmp(j->p, "null", 4) == 0) return j->p += 4, true;
    return number(j);
}

static bool json_valid(const char *text)
{
    JsonIn j = { text };
    if (!value(&j, 0)) return false;
    ws(&j);
    return *j.p == '\0';
}

/* How many times `needle` occurs in `hay`. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The string value of "key": "..." (first occurrence) into out. */
static bool string_field(const char *json, const char *key, char *out, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(json, pat);
    if (!p) return false;
    p += strlen(pat);
    size_t n = strcspn(p, "\"");
    if (n >= cap) return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

/* The output without its wall time line (the only thing allowed to differ). */
static void drop_wall(char *json)
{
    char *p = strstr(json, "\"wall_s\"");
    if (!p) return;
    char *e = strchr(p, '\n');
    if (e) memmove(p, e + 1, strlen(e + 1) + 1);
}

Test(json_checker, tells_good_from_bad)
{
    cr_assert(json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\n\"], \"b\": {}}"));
    cr_assert_not(json_valid("{\"a\": 1,}"));
    cr_assert_not(json_valid("{\"a\": nan}"));
    cr_assert_not(json_valid("[1 2]"));
    cr_assert_not(json_valid("{\"a\": 01}"));
    cr_assert_not(json_valid("{} {}"));
}

/* }======= */

/* {======= the command ======= */

Test(competence, json_report_has_the_documented_fields, .timeout = 300)
{
    Run r = NAVBOT("bench", "competence", "maps/arena.lua", "--missions", "5", "--crowd", "2", "--jobs", "1",
                   "--json", "--failures", "100");
    cr_assert_eq(r.status, CLI_OK, "stderr: %s", r.err);
    cr_assert(json_valid(r.out), "not well-formed JSON:\n%s", r.out);
    static const char *const TOP[] = { "\"benchmark\": \"competence\"", "\"seed\": 1", "\"missions_per_mode\": 5",
                                       "\"crowd\": 2", "\"time_factor\": 3", "\"time_margin\": 10",
                                       "\"missions_hash\": \"", "\"runs\": [", "\"totals\": [", "\"failures\": [" };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(TOP); k++)
        cr_assert_not_null(strstr(r.out, TOP[k]), "no %s in:\n%s", TOP[k], r.out);
    /* One object per mode for the one map, then four totals (three modes and all). */
    cr_assert_eq(count_of(r.out, "\"map\": \"arena\""), 3 + count_of(r.out, "\"reproduce\""), "%s", r.out);
    cr_assert_eq(count_of(r.out, "\"mode\": \"solo\""), 2 + count_of(r.out, "\"mode\": \"solo\", \"sim\""));
    static const char *const PER[] = { "\"missions\": ", "\"arrived\": ", "\"arrived_pct\": ", "\"ratio_mean\": ",
                                       "\"ratio_p95\": ", "\"stuck_over_3s\": ", "\"faults\": " };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(PER); k++)
        cr_assert_eq(count_of(r.out, PER[k]), 3 + 4, "%s: %d times in\n%s", PER[k], count_of(r.out, PER[k]), r.out);
    /* Solo runs 5 missions; crowd and shared round up to whole sims of 2. */
    cr_assert_not_null(strstr(r.out, "\"mode\": \"solo\",\n      \"bots_per_sim\": 1,\n      \"missions\": 5"), "%s",
                       r.out);
    cr_assert_not_null(strstr(r.out, "\"mode\": \"crowd\",\n      \"bots_per_sim\": 2,\n      \"missions\": 6"), "%s",
                       r.out);
    cr_assert_not_null(strstr(r.out, "\"mode\": \"all\",\n      \"missions\": 17"), "%s", r.out);
    /* Every failure names a command that replays it. */
    cr_assert_eq(count_of(r.out, "\"reproduce\": \"navbot run maps/arena.lua --bot runner@"),
                 count_of(r.out, "\"reproduce\""));
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(competence, same_seed_same_missions_and_results_any_jobs, .timeout = 300)
{
    Run a = NAVBOT("bench", "competence", "maps/arena.lua", "maps/tower.lua", "--missions", "4", "--crowd", "3",
                   "--seed", "5", "--json", "--jobs", "1");
    Run b = NAVBOT("bench", "competence", "maps/arena.lua", "maps/tower.lua", "--missions", "4", "--crowd", "3",
                   "--seed", "5", "--json", "--jobs", "3");
    Run c = NAVBOT("bench", "competence", "maps/arena.lua", "maps/tower.lua", "--missions", "4", "--crowd", "3",
                   "--seed", "6", "--json", "--jobs", "1");
    cr_assert_eq(a.status, CLI_OK, "%s", a.err);
    cr_assert_eq(b.status, CLI_OK, "%s", b.err);
    cr_assert_eq(c.status, CLI_OK, "%s", c.err);
    char ha[32], hb[32], hc[32];
    cr_assert(string_field(a.out, "missions_hash", ha, sizeof ha));
    cr_assert(string_field(b.out, "missions_hash", hb, sizeof hb));
    cr_assert(string_field(c.out, "missions_hash", hc, sizeof hc));
    cr_assert_str_eq(ha, hb);
    cr_assert_str_neq(ha, hc, "seed 6 drew the same missions as seed 5");
    /* The whole report but the wall time: child processes or not. */
    drop_wall(a.out);
    drop_wall(b.out);
    cr_assert_str_eq(a.out, b.out);
    run_free(&a);
    run_free(&b);
    run_free(&c);
    NAV_TEST_LEAK_CHECK();
}

Test(competence, bad_options_exit_2_with_the_range)
{
    static const char *const CASES[][3] = {
        { "--missions", "0", "1 to 100000" },     { "--crowd", "1", "2 to 64" },
        { "--crowd", "65", "2 to 64" },           { "--jobs", "0", "1 to 64" },
        { "--time-factor", "0.5", "1 to 100" },   { "--time-margin", "-1", "0 to 600" },
        { "--modes", "solo,teleport", "solo, crowd and shared" }, { "--seed", "x", "0 to 4294967295" },
        { "--min-distance", "0", "0.5 to 1000" },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        Run r = NAVBOT("bench", "competence", "maps/arena.lua", CASES[k][0], CASES[k][1]);
        cr_assert_eq(r.status, CLI_USAGE, "%s %s gave %d", CASES[k][0], CASES[k][1], r.status);
        cr_assert_not_null(strstr(r.err, CASES[k][2]), "%s %s: %s", CASES[k][0], CASES[k][1], r.err);
        cr_assert_eq(r.out[0], '\0');
        run_free(&r);
    }
    Run r = NAVBOT("bench", "competence", "--frobnicate");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "--frobnicate"));
    run_free(&r);
}

Test(competence, a_missing_map_exits_1_naming_it)
{
    Run r = NAVBOT("bench", "competence", "maps/arena.lua", "maps/no_such_map.lua", "--missions", "1");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "maps/no_such_map.lua"), "%s", r.err);
    cr_assert_eq(r.out[0], '\0', "nothing ran, nothing reported: %s", r.out);
    run_free(&r);
    r = NAVBOT("bench", "competence", "generate:building:1:2", "--missions", "1");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "generate:building:1:2"), "%s", r.err);
    run_free(&r);
}

/* }======= */

/* {======= missions against the router's oracle ======= */

static void check_missions(const char *path, int crowd)
{
    NavWorld *w = test_load_map(path);
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    MissionPicker *p = mission_picker_create(sim, &(MissionDesc){ .cls = 0 }, &err);
    cr_assert_not_null(p, "%s: %s", path, err.message);
    NavRouter *r = sim_router(sim, 0, &err);
    const NavAreaGraph *ag = router_graph(r);
    const NavClass *c = world_class(w, 0);
    uint64_t rng = 42;
    float taken[3 * 16];
    for (int i = 0; i < 40; i++) {
        NavMission m;
        int n = i % crowd;
        cr_assert(mission_pick(p, &rng, taken, n, &m), "%s: no mission %d", path, i);
        memcpy(&taken[3 * n], m.start, sizeof m.start);
        /* Connected: a plain Dijkstra over the link graph finds a route
        ** into the goal area, no slower than the mission's optimum (which
        ** goes on to the goal point inside it). */
        NavRoute oracle;
        cr_assert(NAV_SUCCEEDED(route_dijkstra(r, m.start_area, m.start, m.goal_area, NAV_TFL_DEFAULT, &oracle)));
        cr_assert_neq(oracle.time, ROUTE_UNREACHABLE, "%s: mission %d is not connected", path, i);
        cr_assert_neq(m.time, ROUTE_UNREACHABLE);
        cr_assert_geq(m.time, m.start_area == m.goal_area ? 0u : oracle.time, "%s: mission %d", path, i);
        cr_assert_eq(area_point_area(ag, m.start[0], m.start[1], m.start[2]), m.start_area);
        cr_assert_eq(area_point_area(ag, m.goal[0], m.goal[1], m.goal[2]), m.goal_area);
        float dx = m.goal[0] - m.start[0], dy = m.goal[1] - m.start[1], dz = m.goal[2] - m.start[2];
        cr_assert_geq(sqrtf(dx * dx + dy * dy + dz * dz), MISSION_DEFAULT_MIN_DISTANCE);
        /* Placeable: a body stands free at the very point, on its floor. */
        float at[3];
        cr_assert(sim_place_free(sim, 0, m.start, 1, at));
        cr_assert(at[0] == m.start[0] && at[1] == m.start[1], "%s: start %d is not free itself", path, i);
        cr_assert(sim_place_free(sim, 0, m.goal, 1, at));
        cr_assert(at[0] == m.goal[0] && at[1] == m.goal[1], "%s: goal %d is not free itself", path, i);
        const NavFloor *f = world_floor_at(w, m.start[0], m.start[1], m.start[2], 0.01f);
        cr_assert(f && f->z == m.start[2] && f->contents == NAV_CONTENTS_FLOOR);
        /* On the quarter-metre lattice, so it prints exactly. */
        cr_assert_eq(m.start[0] * 4.0f, floorf(m.start[0] * 4.0f));
        cr_assert_eq(m.goal[1] * 4.0f, floorf(m.goal[1] * 4.0f));
        /* A crowd's starts keep a body width apart. */
        for (int k = 0; k < n; k++) {
            float ex = taken[3 * k] - m.start[0], ey = taken[3 * k + 1] - m.start[1];
            bool same_level = fabsf(taken[3 * k + 2] - m.start[2]) < c->height;
            cr_assert(!same_level || sqrtf(ex * ex + ey * ey) >= 2.0f * c->radius, "%s: crowd starts overlap", path);
        }
    }
    /* The same generator state gives the same mission; another, another. */
    uint64_t r1 = 7, r2 = 7, r3 = 8;
    NavMission a, b, d;
    cr_assert(mission_pick(p, &r1, NULL, 0, &a) && mission_pick(p, &r2, NULL, 0, &b) &&
              mission_pick(p, &r3, NULL, 0, &d));
    cr_assert(memcmp(&a, &b, sizeof a) == 0);
    cr_assert(memcmp(a.start, d.start, sizeof a.start) != 0 || memcmp(a.goal, d.goal, sizeof a.goal) != 0);
    mission_picker_destroy(p);
    sim_destroy(sim);
    world_destroy(w);
}

Test(mission, starts_and_goals_connected_and_free, .timeout = 120)
{
    check_missions("maps/gauntlet.lua", 1);
    check_missions("maps/tower.lua", 8);
    check_missions("tests/data/maps/keep.lua", 8);
    check_missions("tests/data/maps/canal.lua", 4);
    check_missions("tests/data/maps/warehouse.lua", 8);
    NAV_TEST_LEAK_CHECK();
}

Test(mission, bad_descriptions_are_errors)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_null(mission_picker_create(sim, &(MissionDesc){ .cls = 5 }, &err));
    cr_assert_not_null(strstr(err.message, "class"), "%s", err.message);
    nav_error_clear(&err);
    cr_assert_null(mission_picker_create(sim, &(MissionDesc){ .cls = 0, .quantum = 0.3f }, &err));
    cr_assert_not_null(strstr(err.message, "quantum"), "%s", err.message);
    sim_destroy(sim);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= what the replay lines rely on ======= */

Test(competence, run_takes_goals_per_bot_and_generated_maps)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner@2,12", "--bot-goal", "20,2", "--bot-goal", "12,7",
                   "--bot", "runner@20,2", "--bot-goal", "2,12", "--ticks", "1", "--json", "--quiet");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    /* The first bot has its two goals, the second its one. */
    const char *b0 = strstr(r.out, "\"id\": 0"), *b1 = strstr(r.out, "\"id\": 1");
    cr_assert(b0 && b1);
    cr_assert_not_null(strstr(b0, "\"goals_left\": 2"));
    cr_assert_not_null(strstr(b1, "\"goals_left\": 1"));
    run_free(&r);
    r = NAVBOT("run", "maps/arena.lua", "--bot-goal", "20,2", "--bot", "runner");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "--bot-goal"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("info", "generate:building:48:48:1:3");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    r = NAVBOT("info", "generate:castle:48:48");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "generate:building:WIDTH:HEIGHT:STOREYS:SEED"), "%s", r.err);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/*
** test_bench_learning.c — `navbot bench learning` on one small map with a
** short time limit (scenario/learning.h): the JSON has the documented
** fields, and what must hold whatever the learner does holds: shares of
** the graph within 0..100, memory routes never faster than the router's
** (ratio >= 1), pairs the memory connects among those the router does,
** no route handed back by a sliced search breaking a rule, the same
** results with or without child processes. Nothing here asserts how many
** goals a learner reaches or how fast anything runs.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "test_cli_run.h"
#include "test_support.h"

#define MAP "maps/tower.lua"

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(v != NULL, "no \"%s\"", key);
    cr_assert(cJSON_IsNumber(v) || cJSON_IsNull(v), "\"%s\" is not a number", key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsString(v), "no string \"%s\"", key);
    return v->valuestring;
}

static void check_run(const cJSON *r, double limit)
{
    cr_assert_str_eq(str(r, "map"), "tower");
    const char *mode = str(r, "mode");
    cr_assert(strcmp(mode, "explore") == 0 || strcmp(mode, "watch") == 0, "%s", mode);
    double goals = num(r, "goals"), reached = num(r, "reached");
    cr_assert_eq(goals, 5.0);
    cr_assert(reached >= 0.0 && reached <= goals);
    double all = num(r, "all_s");
    cr_assert(isnan(all) == (reached < goals), "%s: all_s %g with %g of %g goals", mode, all, reached, goals);
    cr_assert(isnan(all) || (all > 0.0 && all <= limit));
    cr_assert_leq(num(r, "sim_s"), limit + 0.1);
    double runner = num(r, "runner_reached");
    cr_assert(strcmp(mode, "watch") == 0 ? runner >= 0.0 && runner <= goals : isnan(runner));
    /* Shares of the graph. */
    cr_assert(num(r, "areas") > 0.0 && num(r, "links") > 0.0);
    cr_assert(num(r, "areas_known") >= 1.0 && num(r, "areas_known") <= num(r, "areas"));
    cr_assert(num(r, "links_known") <= num(r, "links"));
    double ap = num(r, "areas_pct"), lp = num(r, "links_pct");
    cr_assert(ap > 0.0 && ap <= 100.0, "areas_pct %g", ap);
    cr_assert(lp >= 0.0 && lp <= 100.0, "links_pct %g", lp);
    cr_assert_gt(num(r, "memory_bytes"), 0.0);
    /* Pairs: 5 goals and the spawn make at most 6 x 5 ordered pairs. */
    double pairs = num(r, "pairs"), pr = num(r, "pairs_router"), pm = num(r, "pairs_memory");
    cr_assert(pairs > 0.0 && pairs <= 30.0, "%g pairs", pairs);
    cr_assert(pm <= pr && pr <= pairs, "%g / %g / %g", pm, pr, pairs);
    cr_assert_eq(pr, pairs, "the router connects every place of the tower");
    double lo = num(r, "ratio_min"), mean = num(r, "ratio_mean"), hi = num(r, "ratio_max");
    cr_assert(isnan(mean) == (pm == 0.0));
    if (pm > 0.0) {
        /* A memory is part of the graph: never faster than the router. */
        cr_assert_geq(lo, 1.0, "%s: a memory route %.3f x the router's", mode, lo);
        cr_assert(lo <= mean && mean <= hi);
    }
    cr_assert(num(r, "search_ticks") <= num(r, "ticks"));
    double sm = num(r, "search_tick_mean_ms");
    cr_assert(isnan(sm) == (num(r, "search_ticks") == 0.0));
    cr_assert(isnan(sm) || (sm >= 0.0 && sm <= num(r, "search_tick_max_ms")));
    cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "faulted")), 0, "%s",
                 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "error")) ? str(r, "error") : "");
}

static void check_search(const cJSON *s, int bots)
{
    cr_assert_str_eq(str(s, "map"), "tower");
    const char *name = str(s, "name");
    cr_assert(strcmp(name, "default") == 0 || strcmp(name, "tight") == 0, "%s", name);
    cr_assert_eq(num(s, "bots"), bots);
    /* Every route a search handed back kept the rules. */
    cr_assert_eq(num(s, "violations"), 0.0, "%s", name);
    cr_assert_eq(num(s, "partial_violations"), 0.0, "%s", name);
    cr_assert_gt(num(s, "ready_routes"), 0.0);
    cr_assert_eq(num(s, "links_known"), num(s, "links"), "every bot knows the whole tower");
    cr_assert_eq(num(s, "waiting_bots"), 0.0, "every search ended within the limit");
    cr_assert_eq(num(s, "ready_bots") + num(s, "no_route_bots") + num(s, "arrived_bots") >= bots, 1);
    cr_assert_leq(num(s, "expanded_per_tick_max"), num(s, "budget_world"));
    cr_assert_leq(num(s, "search_ticks"), num(s, "ticks"));
    double mean = num(s, "search_tick_mean_ms"), p99 = num(s, "search_tick_p99_ms"), hi = num(s, "search_tick_max_ms");
    cr_assert(mean >= 0.0 && mean <= hi && p99 <= hi && hi <= num(s, "search_tick_max_raw_ms"));
    cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "repeats_differ")), 0);
    cr_assert_eq(num(s, "repeats"), 2.0);
}

Test(bench_learning, json_fields_and_invariants, .timeout = 600)
{
    Run r = NAVBOT("bench", "learning", MAP, "--time-limit", "40", "--search-bots", "30", "--repeat", "2", "--jobs",
                   "2", "--json");
    cr_assert_eq(r.status, CLI_OK, "stderr: %s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON:\n%s", r.out);
    cr_assert_str_eq(str(doc, "benchmark"), "learning");
    cr_assert_str_eq(str(doc, "brain"), "learner");
    cr_assert_str_eq(str(doc, "teacher"), "runner");
    cr_assert_eq(num(doc, "seed"), 1.0);
    cr_assert_eq(num(doc, "time_limit_s"), 40.0);
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
    const cJSON *searches = cJSON_GetObjectItemCaseSensitive(doc, "searches");
    cr_assert(cJSON_IsArray(runs) && cJSON_IsArray(searches));
    cr_assert_eq(cJSON_GetArraySize(runs), 2, "explore and watch");
    cr_assert_eq(cJSON_GetArraySize(searches), 2, "default and tight budgets");
    const cJSON *e;
    cJSON_ArrayForEach(e, runs) check_run(e, 40.0);
    cJSON_ArrayForEach(e, searches) check_search(e, 30);
    /* The default budget is the sim's; the tight one spends less a tick. */
    const cJSON *def = cJSON_GetArrayItem(searches, 0), *tight = cJSON_GetArrayItem(searches, 1);
    cr_assert_eq(num(def, "budget_world"), (double)SIM_SEARCH_WORLD_BUDGET);
    cr_assert_lt(num(tight, "budget_world"), num(def, "budget_world"));
    cJSON_Delete(doc);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* The learning runs' figures but the wall times, in document order. */
static void figures(const char *json, char *out, size_t cap)
{
    cJSON *doc = cJSON_Parse(json);
    cr_assert_not_null(doc);
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
    cJSON *e;
    cJSON_ArrayForEach(e, runs)
    {
        cJSON_DeleteItemFromObjectCaseSensitive(e, "wall_s");
        cJSON_DeleteItemFromObjectCaseSensitive(e, "search_tick_mean_ms");
        cJSON_DeleteItemFromObjectCaseSensitive(e, "search_tick_max_ms");
    }
    char *s = cJSON_PrintUnformatted(runs);
    snprintf(out, cap, "%s", s);
    cJSON_free(s);
    cJSON_Delete(doc);
}

Test(bench_learning, same_results_whatever_the_jobs, .timeout = 600)
{
    Run a = NAVBOT("bench", "learning", MAP, "--time-limit", "20", "--modes", "explore,watch", "--jobs", "1", "--json");
    Run b = NAVBOT("bench", "learning", MAP, "--time-limit", "20", "--modes", "explore,watch", "--jobs", "2", "--json");
    cr_assert_eq(a.status, CLI_OK, "%s", a.err);
    cr_assert_eq(b.status, CLI_OK, "%s", b.err);
    static char fa[16384], fb[16384];
    figures(a.out, fa, sizeof fa);
    figures(b.out, fb, sizeof fb);
    cr_assert_str_eq(fa, fb);
    cr_assert_null(strstr(a.out, "\"searches\": [{"), "--modes leaves the searches out");
    run_free(&a);
    run_free(&b);
    NAV_TEST_LEAK_CHECK();
}

Test(bench_learning, bad_options_and_maps_are_refused)
{
    static const char *const CASES[][3] = {
        { "--time-limit", "0", "1 to 36000" },    { "--jobs", "0", "1 to 64" },
        { "--search-bots", "0", "1 to 1000" },    { "--modes", "explore,fly", "explore, watch and searches" },
        { "--search-budget", "10", "BOT,WORLD" }, { "--repeat", "21", "1 to 20" },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(CASES); k++) {
        Run r = NAVBOT("bench", "learning", MAP, CASES[k][0], CASES[k][1]);
        cr_assert_eq(r.status, CLI_USAGE, "%s %s gave %d", CASES[k][0], CASES[k][1], r.status);
        cr_assert_not_null(strstr(r.err, CASES[k][2]), "%s %s: %s", CASES[k][0], CASES[k][1], r.err);
        cr_assert_eq(r.out[0], '\0');
        run_free(&r);
    }
    Run r = NAVBOT("bench", "learning", MAP, "maps/no_such_map.lua");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "maps/no_such_map.lua"), "%s", r.err);
    cr_assert_eq(r.out[0], '\0', "nothing ran, nothing reported: %s", r.out);
    run_free(&r);
    /* A generated building has no goals to learn the way to. */
    r = NAVBOT("bench", "learning", "generate:building:48:48:1:1", "--modes", "explore");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "generate:building:48:48:1:1: it has no"), "%s", r.err);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

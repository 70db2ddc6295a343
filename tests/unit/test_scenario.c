/*
** test_scenario.c — regression scenarios (scenario/scenario.h, lua/scenario.lua)
** and `navbot test` (cli/cmd_test.c), driven in process through cli_main:
** a passing scenario passes; an expectation that cannot hold fails naming
** the expectation, the bot, the tick and its state, with a picture and a
** trace that reads back; broken scenario files are errors naming file and
** line; golden hashes (missing, changed, malformed) and --update-golden;
** --filter; --jobs 2 reports what --jobs 1 does; usage errors.
**
** Every test writes its scenarios into a fresh folder under /tmp (removed by
** the suite's fini) and runs them from the repository's root, where maps/,
** lua/ and bots/ are. The scenarios are short runs on maps/arena.lua.
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "script/run_trace.h"
#include "scenario/scenario.h"
#include "test_cli_run.h"
#include "test_support.h"

/* {======= running navbot in process ======= */


/* The last line of the output. */
static const char *last_line(const char *out)
{
    size_t n = strlen(out);
    if (n && out[n - 1] == '\n') n--;
    while (n > 0 && out[n - 1] != '\n') n--;
    return out + n;
}

/* }======= */

/* {======= a folder of scenarios ======= */

static char dir[64];

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char child[512];
                snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void remove_dir(void)
{
    if (dir[0]) remove_tree(dir);
    dir[0] = '\0';
}

TestSuite(scenario, .fini = remove_dir);

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/navbot-scenario-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

/* dir/rel with text; its path in a static buffer per call site. */
static const char *write_scenario(char *path, size_t cap, const char *rel, const char *text)
{
    snprintf(path, cap, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* The runner crosses the arena; within the given seconds (a string, so the
** text can be put as written). */
static const char *crossing(char *buf, size_t cap, const char *within)
{
    snprintf(buf, cap,
             "local S = require \"scenario\"\n"
             "return S.scenario {\n"
             "  map = \"maps/arena.lua\",\n"
             "  time_limit = 10,\n"
             "  bots = { S.bot { name = \"runner\", brain = \"runner\", at = \"spawn_a\", goals = { \"spawn_b\" } } },\n"
             "  expect = {\n"
             "    S.arrives(\"runner\", { within = %s }),\n"
             "    S.no_faults(),\n"
             "  },\n"
             "}\n",
             within);
    return buf;
}

/* }======= */

/* {======= passing and failing ======= */

Test(scenario, a_passing_scenario_passes_once_its_golden_hash_is_written)
{
    make_dir();
    char path[256], text[1024], keep[128];
    write_scenario(path, sizeof path, "cross.lua", crossing(text, sizeof text, "8"));
    snprintf(keep, sizeof keep, "%s/keep", dir);

    /* No golden file yet: every expectation held, and it says how to make one. */
    Run r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "FAIL  cross"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "golden: no "), "%s", r.out);
    char want[512];
    snprintf(want, sizeof want, "navbot test --update-golden %s", path);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "0 passed, 1 failed\n");
    run_free(&r);

    r = NAVBOT("test", path, "--keep", keep, "--update-golden");
    cr_assert_eq(r.status, CLI_OK, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "golden written"), "%s", r.out);
    run_free(&r);
    char golden[256];
    snprintf(golden, sizeof golden, "%s/cross.hash", dir);
    const char *line = read_all(golden);
    cr_assert_not_null(line, "no %s", golden);
    unsigned long long hash, ticks;
    char word[16];
    cr_assert_eq(sscanf(line, "%16llx %llu %15s", &hash, &ticks, word), 3, "golden line: %s", line);
    cr_assert_str_eq(word, "ticks");

    /* The hash written is the run's own: scenario_run_file gives it too. */
    ScenarioResult *res = nav_malloc(sizeof *res);
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(scenario_run_file(path, NULL, res, &err)), "%s", err.message);
    cr_assert(res->passed, "%s", res->failure.message);
    cr_assert_eq(res->hash, hash);
    cr_assert_eq(res->ticks, ticks);
    cr_assert_str_eq(res->name, "cross");
    nav_free(res);

    r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_OK, "%s%s", r.out, r.err);
    cr_assert(strncmp(r.out, "ok    cross", 11) == 0, "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "1 passed, 0 failed\n");
    run_free(&r);
    char trace[256];
    snprintf(trace, sizeof trace, "%s/cross.trace", keep);
    cr_assert_not(exists(trace), "a passing run keeps no trace");
    NAV_TEST_LEAK_CHECK();
}

/* 0.5 s is too short to cross the arena: the report names the
** expectation with its file and line, what failed, the tick, the bot and
** its state; the picture and the trace of that moment are kept, and the
** trace reads back, ending at the failure's tick. */
Test(scenario, an_expectation_that_cannot_hold_fails_with_the_moment_it_failed)
{
    make_dir();
    char path[256], text[1024], keep[128];
    write_scenario(path, sizeof path, "hurry.lua", crossing(text, sizeof text, "0.5"));
    snprintf(keep, sizeof keep, "%s/keep", dir);
    Run r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    char want[512];
    snprintf(want, sizeof want, "expected: %s:7: arrives(runner, within 0.5 s)", path);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "failed:   not arrived after 0.53 s (0 goals reached, 1 left)"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "at:       tick 16 (0.53 s)"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "bot:      runner (bot 0, brain runner, class human) at ("), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "travel used: walk"), "%s", r.out);
    char png[256], trace[256];
    snprintf(png, sizeof png, "%s/hurry.png", keep);
    snprintf(trace, sizeof trace, "%s/hurry.trace", keep);
    snprintf(want, sizeof want, "picture: %s", png);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "navbot replay %s --tick 16", trace);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "0 passed, 1 failed\n");
    run_free(&r);
    cr_assert(exists(png), "no picture at %s", png);
    const char *head = read_all(png);
    cr_assert(head && memcmp(head, "\x89PNG", 4) == 0, "%s is not a PNG", png);
    NavError err;
    nav_error_clear(&err);
    RunTrace *t = run_trace_load(trace, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->bot_count, 1);
    cr_assert_eq(t->frames[t->frame_count - 1].tick, 16);
    /* The map as it was found, so the trace replays from any folder. */
    size_t n = strlen(t->map);
    cr_assert(n >= 15 && strcmp(t->map + n - 15, "/maps/arena.lua") == 0, "%s", t->map);
    cr_assert_eq(access(t->map, R_OK), 0, "%s", t->map);
    run_trace_destroy(t);
    NAV_TEST_LEAK_CHECK();
}

/* Each kind of expectation fails with its own message. */
Test(scenario, each_expectation_says_what_failed)
{
    make_dir();
    static const struct { const char *expect, *message; } cases[] = {
        { "S.uses('runner', 'swim')", "never used swim (used: walk)" },
        { "S.never_uses('runner', 'walk')", "used walk" },
        { "S.near_optimal('post', { factor = 1 })", "1x the routed optimum of " },
        { "S.faults('runner', { within = 1 })", "has not faulted after 1.03 s" },
        { "S.never_stuck('runner', { longer = 0.01 })", "" },
        { "S.check('never east of x = 5', function(sc) local x = sc:bot('runner'):pos() "
          "if x > 5 then return false, 'east of 5', 'runner' end end)",
          "east of 5" },
        { "S.check_at_end('at the end', function(sc) return false, 'it ended' end)", "it ended" },
        { "S.check('raises', function(sc) error('oops') end)", "the check raised an error: " },
        { "S.check('loops', function(sc) while true do end end)", "instruction budget" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        char path[256], text[2048];
        snprintf(text, sizeof text,
                 "local S = require \"scenario\"\n"
                 "return S.scenario {\n"
                 "  map = \"maps/arena.lua\", time_limit = 10,\n"
                 "  bots = { S.bot { name = \"runner\", brain = \"runner\", at = \"spawn_a\", goals = { \"spawn_b\" } },\n"
                 "           S.bot { name = \"post\", at = { 12, 3 }, goals = { \"spawn_a\" } } },\n"
                 "  [\"until\"] = function(sc) return sc:info(\"runner\").arrived end,\n"
                 "  expect = { %s },\n"
                 "}\n",
                 cases[i].expect);
        write_scenario(path, sizeof path, "each.lua", text);
        ScenarioResult *res = nav_malloc(sizeof *res);
        NavError err;
        nav_error_clear(&err);
        cr_assert(NAV_SUCCEEDED(scenario_run_file(path, NULL, res, &err)), "%s: %s", cases[i].expect, err.message);
        if (!cases[i].message[0]) {
            /* never_stuck with 10 ms: the runner turning a corner or
            ** meeting the post may or may not stall; either way it runs. */
            nav_free(res);
            continue;
        }
        cr_assert_not(res->passed, "%s passed", cases[i].expect);
        cr_assert_not_null(strstr(res->failure.message, cases[i].message), "%s: '%s' does not say '%s'",
                           cases[i].expect, res->failure.message, cases[i].message);
        char where[300];
        snprintf(where, sizeof where, "%s:7: ", path);
        cr_assert(strncmp(res->failure.expectation, where, strlen(where)) == 0, "%s: expectation '%s'",
                  cases[i].expect, res->failure.expectation);
        nav_free(res);
    }
    NAV_TEST_LEAK_CHECK();
}

/* Bodies that touch do not overlap: b walks into a and stays pressed
** against it (boxes a hair apart, or touching) for a second. */
Test(scenario, no_overlap_holds_for_bodies_that_touch)
{
    make_dir();
    char path[256];
    write_scenario(path, sizeof path, "overlap.lua",
                   "local S = require \"scenario\"\n"
                   "return S.scenario {\n"
                   "  map = \"maps/arena.lua\", time_limit = 2, [\"until\"] = \"time\",\n"
                   "  bots = { S.bot { name = \"a\", at = { 5, 5 } }, S.bot { name = \"b\", at = { 8, 5 } } },\n"
                   "  events = { S.at(1, function(sc) sc:bot('b'):move(-1, 0) end) },\n"
                   "  expect = { S.no_overlap() },\n"
                   "}\n");
    ScenarioResult *res = nav_malloc(sizeof *res);
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(scenario_run_file(path, NULL, res, &err)), "%s", err.message);
    /* Bodies never overlap in the simulation: b walks into a and stops. */
    cr_assert(res->passed, "%s: %s", res->failure.expectation, res->failure.message);
    nav_free(res);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= broken scenario files ======= */

Test(scenario, a_broken_scenario_file_is_an_error_naming_file_and_line)
{
    make_dir();
    static const struct { const char *text, *message; int line; } cases[] = {
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\"\n  bots = {}\n}\n",
          "'}' expected (to close '{' at line 2) near 'bots'", 4 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n  sed = 3,\n"
          "  bots = { S.bot { at = \"spawn_a\" } },\n}\n",
          "scenario: unknown field 'sed'", 4 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = {\n    S.bot { brian = \"runner\", at = \"spawn_a\" },\n  },\n}\n",
          "bot: unknown field 'brian'", 5 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { name = \"r\", at = \"spawn_a\" } },\n  expect = {\n"
          "    S.arrives(\"r\", { within = -1 }),\n  },\n}\n",
          "arrives: field 'within' must be above 0", 6 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { name = \"r\", at = \"spawn_nowhere\" } },\n}\n",
          "bot 'r': at: no entity 'spawn_nowhere' in maps/arena.lua", 4 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { name = \"r\", at = \"spawn_a\" } },\n  expect = {\n    S.uses(\"q\", \"walk\"),\n  },\n}\n",
          "uses(q: walk): no bot or group named 'q' (bots: r)", 6 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { name = \"r\", at = \"spawn_a\" } },\n  expect = {\n    S.uses(\"r\", \"fly\"),\n  },\n}\n",
          "uses: 'fly' is not a travel type", 6 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/nowhere.lua\",\n"
          "  bots = { S.bot { at = { 1, 1 } } },\n}\n",
          "map: ", 2 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\", class = \"dragon\",\n"
          "  bots = { S.bot { at = \"spawn_a\" } },\n}\n",
          "scenario: no class 'dragon' in maps/arena.lua", 2 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { name = \"a\", at = \"spawn_a\" }, S.bot { name = \"a\", at = \"spawn_b\" } },\n}\n",
          "bot 'a': the name is taken", 4 },
        { "local S = require \"scenario\"\nreturn S.scenario {\n  map = \"maps/arena.lua\",\n"
          "  bots = { S.bot { at = \"spawn_a\" } },\n  events = { S.at(1, 42) },\n}\n",
          "at: action 1 is not an action", 5 },
        { "return { map = \"maps/arena.lua\" }\n", "the file must return the scenario", 0 },
        { "local S = require \"scenario\"\nerror('deliberately')\n", "deliberately", 2 },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        char path[256];
        write_scenario(path, sizeof path, "broken.lua", cases[i].text);
        ScenarioResult *res = nav_malloc(sizeof *res);
        NavError err;
        nav_error_clear(&err);
        cr_assert(NAV_FAILED(scenario_run_file(path, NULL, res, &err)), "case %zu ran", i);
        cr_assert_not_null(strstr(err.message, cases[i].message), "case %zu: '%s' does not say '%s'", i, err.message,
                           cases[i].message);
        char where[300];
        if (cases[i].line) snprintf(where, sizeof where, "%s:%d:", path, cases[i].line);
        else snprintf(where, sizeof where, "%s:", path);
        cr_assert(strncmp(err.message, where, strlen(where)) == 0, "case %zu: '%s' does not start with '%s'", i,
                  err.message, where);
        cr_assert_str_eq(res->name, "broken");
        nav_free(res);
    }
    /* Through the command: one FAIL line with the error, and the summary. */
    char path[256], keep[128];
    write_scenario(path, sizeof path, "broken.lua", cases[1].text);
    snprintf(keep, sizeof keep, "%s/keep", dir);
    Run r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    char want[512];
    snprintf(want, sizeof want, "      error: %s:4: scenario: unknown field 'sed'", path);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "0 passed, 1 failed\n");
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= golden hashes ======= */

Test(scenario, a_changed_or_malformed_golden_hash_fails_and_says_how_to_update)
{
    make_dir();
    char path[256], text[1024], keep[128], golden[256];
    write_scenario(path, sizeof path, "gold.lua", crossing(text, sizeof text, "8"));
    snprintf(keep, sizeof keep, "%s/keep", dir);
    snprintf(golden, sizeof golden, "%s/gold.hash", dir);
    FILE *f = fopen(golden, "w");
    cr_assert_not_null(f);
    fputs("0000000000000001 10 ticks 0.33 s\n", f);
    fclose(f);
    Run r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    char want[512];
    snprintf(want, sizeof want, "golden: the run changed: %s expects trace hash 0000000000000001 after 10 ticks, this run gave ",
             golden);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "navbot test --update-golden %s", path);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    char trace[256];
    snprintf(trace, sizeof trace, "%s/gold.trace", keep);
    cr_assert(exists(trace), "a changed run keeps its trace for the review");
    run_free(&r);

    f = fopen(golden, "w");
    cr_assert_not_null(f);
    fputs("not a hash\n", f);
    fclose(f);
    r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    snprintf(want, sizeof want, "golden: %s:1: expected \"HASH TICKS ticks\"", golden);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    run_free(&r);

    r = NAVBOT("test", path, "--keep", keep, "--update-golden");
    cr_assert_eq(r.status, CLI_OK, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "golden updated"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("test", path, "--keep", keep);
    cr_assert_eq(r.status, CLI_OK, "%s", r.out);
    cr_assert_not(exists(trace), "the stale trace of the failure is gone");
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* --update-golden never records a run whose expectations failed. */
Test(scenario, update_golden_skips_failing_scenarios)
{
    make_dir();
    char path[256], text[1024], keep[128], golden[256];
    write_scenario(path, sizeof path, "bad.lua", crossing(text, sizeof text, "0.5"));
    snprintf(keep, sizeof keep, "%s/keep", dir);
    snprintf(golden, sizeof golden, "%s/bad.hash", dir);
    Run r = NAVBOT("test", path, "--keep", keep, "--update-golden");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not(exists(golden), "a golden hash for a failing run");
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= selecting and running in parallel ======= */

/* Three scenarios, one failing: folder runs, --filter by substring and by
** glob, and --jobs 2 reporting the same lines and summary as --jobs 1. */
Test(scenario, filter_selects_and_jobs_two_reports_what_jobs_one_does)
{
    make_dir();
    char path[256], text[1024], keep[128];
    write_scenario(path, sizeof path, "walk_a.lua", crossing(text, sizeof text, "8"));
    write_scenario(path, sizeof path, "walk_b.lua", crossing(text, sizeof text, "9"));
    write_scenario(path, sizeof path, "late.lua", crossing(text, sizeof text, "0.5"));
    snprintf(keep, sizeof keep, "%s/keep", dir);
    Run r = NAVBOT("test", dir, "--keep", keep, "--update-golden");
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "2 passed, 1 failed\n", "%s", r.out);
    run_free(&r);

    r = NAVBOT("test", dir, "--keep", keep, "--filter", "walk");
    cr_assert_eq(r.status, CLI_OK, "%s", r.out);
    cr_assert_str_eq(last_line(r.out), "2 passed, 0 failed\n", "%s", r.out);
    cr_assert_null(strstr(r.out, "late"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("test", dir, "--keep", keep, "--filter", "*_b");
    cr_assert_str_eq(last_line(r.out), "1 passed, 0 failed\n", "%s", r.out);
    cr_assert_not_null(strstr(r.out, "ok    walk_b"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("test", dir, "--keep", keep, "--filter", "nothing");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "--filter 'nothing' matches none"), "%s", r.err);
    cr_assert_str_eq(last_line(r.out), "0 passed, 0 failed\n");
    run_free(&r);

    /* The same lines in the same (file) order, wall times aside. */
    Run one = NAVBOT("test", dir, "--keep", keep, "--jobs", "1");
    Run two = NAVBOT("test", dir, "--keep", keep, "--jobs", "2");
    cr_assert_eq(one.status, CLI_BAD_INPUT);
    cr_assert_eq(two.status, one.status);
    cr_assert_str_eq(last_line(two.out), last_line(one.out));
    cr_assert_str_eq(last_line(one.out), "2 passed, 1 failed\n");
    char *a = one.out, *b = two.out;
    int lines = 0;
    while (*a && *b) {
        size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        /* Up to the wall time: "ok    name   1.00 s sim" */
        const char *wa = strstr(a, " s wall"), *wb = strstr(b, " s wall");
        size_t ka = wa && (size_t)(wa - a) < na ? (size_t)(wa - a) - 6 : na;
        size_t kb = wb && (size_t)(wb - b) < nb ? (size_t)(wb - b) - 6 : nb;
        cr_assert(ka == kb && memcmp(a, b, ka) == 0, "line %d differs:\n%.*s\n%.*s", lines, (int)na, a, (int)nb, b);
        a += na + (a[na] == '\n');
        b += nb + (b[nb] == '\n');
        lines++;
    }
    cr_assert(!*a && !*b, "one report is longer");
    cr_assert_gt(lines, 8);
    run_free(&one);
    run_free(&two);
    NAV_TEST_LEAK_CHECK();
}

Test(scenario, usage_errors_exit_2)
{
    static const char *bad[][3] = {
        { "--jobs", "0", NULL }, { "--jobs", "x", NULL }, { "--jobs", "65", NULL },
        { "--filter", NULL, NULL }, { "--frobnicate", NULL, NULL }, { "--keep", NULL, NULL },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        Run r = bad[i][1] ? NAVBOT("test", bad[i][0], bad[i][1]) : NAVBOT("test", bad[i][0]);
        cr_assert_eq(r.status, CLI_USAGE, "%s %s", bad[i][0], bad[i][1] ? bad[i][1] : "");
        cr_assert_not_null(strstr(r.err, "usage: navbot test"), "%s", r.err);
        run_free(&r);
    }
    Run r = NAVBOT("test", "/nonexistent/scenario.lua");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "/nonexistent/scenario.lua"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("test", "tests/scenarios/travel_swim.hash");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "travel_swim.hash: not a scenario"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("help", "test");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "--update-golden"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "Examples:"), "%s", r.out);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= determinism, events, temp brains ======= */

/* runs = 2 runs the file twice in this process; the hash is the same, and
** the report says so. Events change the world at their time: a door locked
** at 0 s keeps the runner in the start room, and an obstacle removed by
** name comes back out of the way. */
Test(scenario, two_runs_and_events)
{
    make_dir();
    char path[256], keep[128];
    snprintf(keep, sizeof keep, "%s/keep", dir);
    write_scenario(path, sizeof path, "twice.lua",
                   "local S = require \"scenario\"\n"
                   "return S.scenario {\n"
                   "  map = \"maps/gauntlet.lua\", time_limit = 6, [\"until\"] = \"time\", runs = 2,\n"
                   "  bots = { S.bot { name = \"r\", brain = \"runner\", at = \"spawn_start\", goals = { \"goal_pool\" } } },\n"
                   "  events = {\n"
                   "    S.at_tick(0, S.door(\"door_hall\", \"locked\"), S.add_obstacle(\"box\", { 1, 1, 0 }, { 2, 2, 1 })),\n"
                   "    S.at(2, S.remove_obstacle(\"box\")),\n"
                   "  },\n"
                   "  expect = {\n"
                   "    S.check(\"kept in by the locked door\", function(sc)\n"
                   "      local x = sc:bot(\"r\"):pos()\n"
                   "      if x > 8.5 then return false, \"through the locked door\", \"r\" end\n"
                   "    end),\n"
                   "    S.check_at_end(\"the box is gone\", function(sc)\n"
                   "      if sc.obstacles.box then return false, \"still there\" end\n"
                   "    end),\n"
                   "  },\n"
                   "}\n");
    Run r = NAVBOT("test", path, "--keep", keep, "--update-golden");
    cr_assert_eq(r.status, CLI_OK, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "(2 runs)"), "%s", r.out);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* A temp brain rewritten by an event and reloaded runs its new code; a
** brain that is not in temp_brains cannot be rewritten. */
Test(scenario, temp_brains_are_rewritten_and_reloaded)
{
    make_dir();
    char bots[128], path[256];
    snprintf(bots, sizeof bots, "%s/bots", dir);
    cr_assert_eq(mkdir(bots, 0755), 0);
    write_scenario(path, sizeof path, "bots/mover.lua",
                   "local SPEED = 0\nreturn { think = function(bot) bot:move(SPEED, 0) end }\n");
    write_scenario(path, sizeof path, "reload.lua",
                   "local S = require \"scenario\"\n"
                   "return S.scenario {\n"
                   "  map = \"maps/arena.lua\", time_limit = 3, [\"until\"] = \"time\", temp_brains = { \"mover\" },\n"
                   "  bots = { S.bot { name = \"m\", brain = \"mover\", at = { 3, 9 } } },\n"
                   "  events = { S.at(1, S.edit_brain(\"mover\", \"SPEED = 0\", \"SPEED = 1\"), S.reload()) },\n"
                   "  expect = {\n"
                   "    S.no_faults(),\n"
                   "    S.check(\"still before the reload\", function(sc)\n"
                   "      local x = sc:bot(\"m\"):pos()\n"
                   "      if sc:time() < 1 and x > 3.1 then return false, \"moved\" end\n"
                   "    end),\n"
                   "    S.check_at_end(\"moving after it\", function(sc)\n"
                   "      local x = sc:bot(\"m\"):pos()\n"
                   "      if x < 8 then return false, string.format(\"at x %.2f\", x) end\n"
                   "    end),\n"
                   "  },\n"
                   "}\n");
    ScenarioResult *res = nav_malloc(sizeof *res);
    NavError err;
    nav_error_clear(&err);
    char keep[128];
    snprintf(keep, sizeof keep, "%s", dir);
    ScenarioOptions opt = { .work_dir = keep };
    cr_assert(NAV_SUCCEEDED(scenario_run_file(path, &opt, res, &err)), "%s", err.message);
    cr_assert(res->passed, "%s: %s", res->failure.expectation, res->failure.message);
    /* The original is untouched; the work folder is gone. */
    snprintf(path, sizeof path, "%s/bots/mover.lua", dir);
    cr_assert_not_null(strstr(read_all(path), "SPEED = 0"));
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d))) cr_assert_null(strstr(e->d_name, "navbot-reload-"), "left behind: %s", e->d_name);
    closedir(d);

    write_scenario(path, sizeof path, "reload.lua",
                   "local S = require \"scenario\"\n"
                   "return S.scenario {\n"
                   "  map = \"maps/arena.lua\", time_limit = 1, [\"until\"] = \"time\",\n"
                   "  bots = { S.bot { name = \"m\", brain = \"mover\", at = { 3, 9 } } },\n"
                   "  events = { S.at(0.5, S.write_brain(\"mover\", \"return {}\")) },\n"
                   "}\n");
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(scenario_run_file(path, &opt, res, &err)), "%s", err.message);
    cr_assert_not(res->passed);
    cr_assert_not_null(strstr(res->failure.message, "is not in this scenario's temp_brains"), "%s",
                       res->failure.message);
    nav_free(res);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/*
** test_scenario_input.c — scenario files that are wrong in ways the
** checks of lua/scenario.lua once let through to the C reader, which then
** aborted the process (a Lua error outside any protected call) or
** converted a number out of range: lists with holes, a plain table marked
** as a scenario with elements of the wrong type, a table whose __index
** raises, a negative seed, an infinite time limit, a huge bot count. Each
** is an error naming the scenario file and the field. (The fuzzer for
** scenario files, tests/fuzz/fuzz_scenario.c, keeps such files in its
** corpus too.)
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "scenario/scenario.h"
#include "test_support.h"

static char dir[256];

static void remove_dir(void)
{
    char path[300];
    if (!dir[0]) return;
    snprintf(path, sizeof path, "%s/input.lua", dir);
    unlink(path);
    rmdir(dir);
    dir[0] = '\0';
}

TestSuite(scenario_input, .fini = remove_dir);

#define HEAD "local S = require \"scenario\"\n"
#define BOT "S.bot { name = \"r\", brain = \"runner\", at = \"spawn_a\" }"
/* A table the file returns without scenario{}: only its mark. */
#define PLAIN_BOT "{ _kind = \"bot\", name = \"r\", at = \"spawn_a\" }"

static const struct {
    const char *text;
    const char *message; /* the error says this */
    int line;            /* at this line of the file (0: the file alone) */
} CASES[] = {
    /* Holes: ipairs stopped at the nil and the rest went unchecked. */
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n  bots = { " BOT " },\n"
           "  expect = { S.no_faults(), nil, 5 },\n}\n",
      "scenario: field 'expect' has a hole: expect[2] is nil", 5 },
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n  bots = { " BOT " },\n"
           "  events = { nil, S.at(1, S.reload()) },\n}\n",
      "scenario: field 'events' has a hole: events[1] is nil", 5 },
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n  bots = { " BOT ", nil, 7 },\n}\n",
      "scenario: field 'bots' has a hole: bots[2] is nil", 4 },
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n"
           "  bots = { S.bot { name = \"r\", at = \"spawn_a\", goals = { \"spawn_b\", nil, \"centre\" } } },\n}\n",
      "bot: field 'goals' has a hole: goals[2] is nil", 4 },
    /* Numbers the Lua checks let by (integers of any sign, any positive
    ** number). */
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n  seed = -1,\n  bots = { " BOT " },\n}\n",
      "scenario: field 'seed' must not be negative", 4 },
    { HEAD "return S.scenario {\n  map = \"maps/arena.lua\",\n  time_limit = math.huge,\n  bots = { " BOT " },\n}\n",
      "time_limit: inf s is not from 0 to the limit of", 2 },
    /* A plain table marked as a scenario: only the C reader checks it. */
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", bots = { " PLAIN_BOT " }, expect = { 5 } }\n",
      "scenario: field 'expect': expect[1] is number, not an expectation", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", bots = { " PLAIN_BOT ", nil, " PLAIN_BOT " } }\n",
      "scenario: field 'bots': bots[2] is nil, not a bot{} (a hole in the list)", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", bots = { " PLAIN_BOT " },\n"
      "  events = { { trigger = \"time\", value = 1, actions = { 5 } } } }\n",
      "events[1]: not an event made by scenario.at, .at_tick or .when", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", seed = -1, bots = { " PLAIN_BOT " } }\n",
      "scenario: field 'seed' must be a whole number from 0 to 9223372036854775807, got -1", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", time_limit = math.huge, bots = { " PLAIN_BOT " } }\n",
      "time_limit: inf s is not from 0 to the limit of", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", time_limit = 0/0, bots = { " PLAIN_BOT " } }\n",
      "time_limit: ", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\", hz = 0/0, bots = { " PLAIN_BOT " } }\n",
      "scenario: field 'hz' must be a whole number from 1 to 1000", 0 },
    { "return { _kind = \"scenario\", map = \"maps/arena.lua\",\n"
      "  bots = { { _kind = \"bot\", name = \"r\", at = \"spawn_a\", count = 1e300 } } }\n",
      "bot 'r': field 'count' must be a whole number from 1 to", 0 },
    { "return setmetatable({ _kind = \"scenario\" }, { __index = function() error(\"no such field\") end })\n",
      "scenario: no map", 0 },
};

Test(scenario_input, a_scenario_with_a_hole_or_a_number_out_of_range_is_an_error_naming_file_and_field)
{
    snprintf(dir, sizeof dir, "/tmp/navbot-scenario-input-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/input.lua", dir);
    ScenarioResult *res = nav_malloc(sizeof *res);
    cr_assert_not_null(res);
    for (size_t i = 0; i < NAV_ARRAY_COUNT(CASES); i++) {
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(CASES[i].text, f);
        fclose(f);
        NavError err;
        nav_error_clear(&err);
        cr_assert(NAV_FAILED(scenario_run_file(path, NULL, res, &err)), "case %zu ran", i);
        cr_assert_not_null(strstr(err.message, CASES[i].message), "case %zu: '%s' does not say '%s'", i, err.message,
                           CASES[i].message);
        char where[320];
        if (CASES[i].line) snprintf(where, sizeof where, "%s:%d: ", path, CASES[i].line);
        else snprintf(where, sizeof where, "%s: ", path);
        cr_assert(strncmp(err.message, where, strlen(where)) == 0, "case %zu: '%s' does not start with '%s'", i,
                  err.message, where);
    }
    nav_free(res);
    NAV_TEST_LEAK_CHECK();
}

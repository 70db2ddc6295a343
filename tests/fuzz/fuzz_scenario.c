/*
** fuzz_scenario.c — scenario files (tests/scenarios/NAME.lua, docs/
** scenarios.md). The input is the scenario file, run as `navbot test`
** runs it with the repository as root (its maps, bots and lua/), but for
** at most a few ticks (ScenarioOptions.max_ticks): what is fuzzed is
** reading the file, setting up bots, expectations and events, and the
** first ticks of checks and events, not minutes of simulation. A file that
** cannot run must say why.
*/
#include "core/alloc.h"
#include "fuzz_support.h"

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/fuzz.lua", fuzz_scratch());
    fuzz_write_file(path, data, size);
    ScenarioResult *out = nav_malloc(sizeof *out);
    if (!out) return 0;
    NavError err;
    nav_error_clear(&err);
    ScenarioOptions opt = { .root = FUZZ_ROOT, .work_dir = fuzz_scratch(), .max_ticks = 20 };
    NavStatus st = scenario_run_file(path, &opt, out, &err);
    if (NAV_FAILED(st)) fuzz_must_say_why(&err);
    else if (!out->passed && !out->failure.message[0]) {
        fprintf(stderr, "a failed expectation with no message: %s\n", out->failure.expectation);
        __builtin_trap();
    }
    nav_free(out);
    return 0;
}

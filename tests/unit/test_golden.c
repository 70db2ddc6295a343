/*
** test_golden.c — golden files (scenario/golden.h): the name beside the
** scenario, a written file read back, missing and malformed files told
** apart, an unwritable place an error naming the file.
*/
#include <stdio.h>
#include <string.h>

#include "scenario/golden.h"
#include "test_support.h"

#define DIR "/tmp/navbot_test_golden"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

Test(golden, written_read_back_missing_and_malformed_told_apart)
{
    cr_assert_eq(system("rm -rf " DIR " && mkdir -p " DIR), 0);
    ScenarioGolden g;
    scenario_golden_read(DIR "/walk.lua", &g);
    cr_assert_str_eq(g.path, DIR "/walk.hash");
    cr_assert_not(g.exists);
    cr_assert_not(g.valid);
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(scenario_golden_write(&g, 0xfedcba9876543210ull, 599, 19.97, NULL, 0, &err)), "%s", err.message);
    ScenarioGolden back;
    scenario_golden_read(DIR "/walk.lua", &back);
    cr_assert(back.exists && back.valid);
    cr_assert_eq(back.hash, 0xfedcba9876543210ull);
    cr_assert_eq(back.ticks, 599);
    cr_assert_null(back.per_tick, "no per-tick line was written");

    /* The per-tick hashes, written and read back. */
    const uint32_t ticks[3] = { 0x00000001u, 0xdeadbeefu, 0x7fffffffu };
    cr_assert(NAV_SUCCEEDED(scenario_golden_write(&g, 7, 3, 0.1, ticks, 3, &err)), "%s", err.message);
    scenario_golden_read(DIR "/walk.lua", &back);
    cr_assert(back.valid);
    cr_assert_eq(back.per_tick_count, 3);
    for (int i = 0; i < 3; i++) cr_assert_eq(back.per_tick[i], ticks[i], "tick %d", i);
    scenario_golden_free(&back);

    /* Any name: .hash added. */
    scenario_golden_read(DIR "/other", &g);
    cr_assert_str_eq(g.path, DIR "/other.hash");

    const char *bad[] = { "", "zz 12 ticks\n", "0123456789abcdef twelve ticks\n", "0123456789abcdef 12 tocks\n" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        write_text(DIR "/bad.hash", bad[i]);
        scenario_golden_read(DIR "/bad.lua", &g);
        cr_assert(g.exists, "case %zu", i);
        cr_assert_not(g.valid, "case %zu: \"%s\" read as valid", i, bad[i]);
    }
    write_text(DIR "/ok.hash", "0123456789abcdef 12 ticks 0.40 s\n");
    scenario_golden_read(DIR "/ok.lua", &g);
    cr_assert(g.valid);
    cr_assert_eq(g.hash, 0x0123456789abcdefull);
    cr_assert_eq(g.ticks, 12);

    /* Nowhere to write: an I/O error naming the file. */
    scenario_golden_read(DIR "/no/such/folder/x.lua", &g);
    nav_error_clear(&err);
    NavStatus st = scenario_golden_write(&g, 1, 2, 3.0, NULL, 0, &err);
    cr_assert(NAV_FAILED(st) && (st & NAV_E_IO));
    cr_assert_str_eq(err.file, DIR "/no/such/folder/x.hash");
    cr_assert_eq(system("rm -rf " DIR), 0);
}

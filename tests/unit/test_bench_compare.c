/*
** test_bench_compare.c — `navbot bench ... --compare FILE`: figures of
** this run beside an earlier run's --json output, and the errors for a
** file that is missing or not JSON.
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_cli_run.h"
#include "test_support.h"

#define SCEN "tests/data/movingai/8room_000.map.scen"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(bench_compare, an_earlier_run_is_printed_beside_this_one)
{
    char scen[512], before[] = "/tmp/navbot_compare_XXXXXX";
    TEST_DATA_PATH(scen, "movingai/8room_000.map.scen");
    int fd = mkstemp(before);
    cr_assert_geq(fd, 0);
    close(fd);
    Run a = NAVBOT("bench", "grid", "--json", "--limit", "60", "--updates", "5", scen);
    cr_assert_eq(a.status, 0, "%s", a.err);
    write_file(before, a.out);
    Run b = NAVBOT("bench", "grid", "--limit", "60", "--updates", "5", "--compare", before, scen);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_assert(strstr(b.out, "compared with"), "%s", b.out);
    /* the same queries: counts unchanged, times present on both sides */
    cr_assert(strstr(b.out, "[map=8room_000.map].optimal_matches"), "%s", b.out);
    cr_assert(strstr(b.out, "[map=8room_000.map].jps_mean_us"), "%s", b.out);
    const char *line = strstr(b.out, "[map=8room_000.map].queries");
    cr_assert(line && strstr(line, "same"), "%s", b.out);
    cr_assert(strstr(b.out, "figures in both"), "%s", b.out);
    /* with --json too, stdout is this run's JSON and the table goes to stderr */
    Run c = NAVBOT("bench", "grid", "--json", "--limit", "60", "--updates", "5", "--compare", before, scen);
    cr_assert_eq(c.status, 0, "%s", c.err);
    cr_assert_eq(c.out[0], '{', "%s", c.out);
    cr_assert_null(strstr(c.out, "compared with"));
    cr_assert(strstr(c.err, "compared with"), "%s", c.err);
    run_free(&a);
    run_free(&b);
    run_free(&c);
    remove(before);
}

Test(bench_compare, a_missing_or_broken_file_is_named)
{
    char scen[512], bad[] = "/tmp/navbot_compare_XXXXXX";
    TEST_DATA_PATH(scen, "movingai/8room_000.map.scen");
    int fd = mkstemp(bad);
    cr_assert_geq(fd, 0);
    close(fd);
    write_file(bad, "{\"map\": \"x\"}\n{\"map\": 1,\n");
    Run r = NAVBOT("bench", "grid", "--limit", "5", "--compare", bad, scen);
    cr_assert_eq(r.status, 1);
    char want[600];
    snprintf(want, sizeof want, "%s:2: not the JSON of a benchmark", bad);
    cr_assert(strstr(r.err, want), "%s", r.err);
    Run m = NAVBOT("bench", "grid", "--compare", "/nonexistent/before.json", scen);
    cr_assert_eq(m.status, 1);
    cr_assert(strstr(m.err, "/nonexistent/before.json"), "%s", m.err);
    Run u = NAVBOT("bench", "grid", "--compare");
    cr_assert_eq(u.status, 2);
    cr_assert(strstr(u.err, "--compare needs a file"), "%s", u.err);
    run_free(&r);
    run_free(&m);
    run_free(&u);
    remove(bad);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_alloc_fail_cli.c — the navbot command line with every allocation
** refused in turn (run in process, as test_cli.c does; the loop and its
** checks: alloc_fail_support.h). A command that runs out of memory exits
** 1 and says "out of memory" on stderr; one that got round a refusal
** (a cache it did without) exits as the run with nothing refused did; a
** run whose bot faulted for memory says so.
*/
#include <string.h>
#include <unistd.h>

#include "alloc_fail_support.h"

#include "test_cli_run.h"

TestSuite(alloc_fail_cli, .init = fail_alloc_install);

typedef struct CliCtx {
    const char **argv;
    int argc;
    Run run, want;
} CliCtx;

static CliCtx cli_ctx;

static void *cli_setup(void)
{
    memset(&cli_ctx.run, 0, sizeof cli_ctx.run);
    return &cli_ctx;
}

static void cli_teardown(void *p)
{
    CliCtx *c = p;
    run_free(&c->run);
    memset(&c->run, 0, sizeof c->run);
}

/* The command; its exit status is the answer, checked below. */
static NavStatus cli_run(void *p, NavError *err)
{
    CliCtx *c = p;
    c->run = navbot(c->argc, c->argv);
    if (c->run.status == c->want.status) return NAV_OK;
    return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory: exit status %d", c->run.status);
}

/* The first line of text with every "NUMBER ms" left out. */
static void first_line_untimed(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = text; *p && *p != '\n' && n + 1 < cap;) {
        size_t k = strspn(p, "0123456789.");
        if (k > 0 && strncmp(p + k, " ms", 3) == 0) {
            p += k + 3;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = '\0';
}

static void cli_check(void *p, bool ok, bool failed)
{
    CliCtx *c = p;
    const char *out = c->run.out ? c->run.out : "", *errs = c->run.err ? c->run.err : "";
    if (getenv("NAVBOT_ALLOC_FAIL_SHOW")) fprintf(stderr, "%s: %d: %s", fail_where(), c->run.status, errs);
    if (c->run.status != c->want.status) {
        cr_assert_eq(c->run.status, CLI_BAD_INPUT, "%s: navbot %s exited %d (want %d, or 1 for memory)\n%s",
                     fail_where(), c->argv[1], c->run.status, c->want.status, errs);
        cr_assert(says_out_of_memory(errs), "%s: navbot %s exited 1 without saying why:\n%s", fail_where(), c->argv[1],
                  errs);
        return;
    }
    /* Same exit: the same report, unless it says a part ran out of memory
    ** (a bot faulted, a picture not drawn). Reports hold timings: only
    ** their first line is compared, without its milliseconds. */
    if (says_out_of_memory(out) || says_out_of_memory(errs)) return;
    char a[512], b[512];
    first_line_untimed(out, a, sizeof a);
    first_line_untimed(c->want.out ? c->want.out : "", b, sizeof b);
    cr_assert_str_eq(a, b, "%s: navbot %s said\n%s\nwant\n%s", fail_where(), c->argv[1], a, b);
}

static void fail_each_cli(const char *name, const char **argv, long dense, long stride)
{
    CliCtx *c = &cli_ctx;
    memset(c, 0, sizeof *c);
    c->argv = argv;
    while (argv[c->argc]) c->argc++;
    c->want = navbot(c->argc, argv);
    cr_assert(c->want.status == CLI_OK || c->want.status == CLI_NOT_ARRIVED, "navbot %s: %d\n%s", argv[1],
              c->want.status, c->want.err ? c->want.err : "");
    alloc_fail_each(&(FailOp){ .name = name,
                               .setup = cli_setup,
                               .run = cli_run,
                               .check = cli_check,
                               .teardown = cli_teardown,
                               .dense = dense,
                               .stride = stride });
    run_free(&c->want);
}

Test(alloc_fail_cli, info_areas)
{
    const char *argv[] = { "navbot", "info", "maps/gauntlet.lua", "--areas", NULL };
    fail_each_cli("navbot info gauntlet --areas", argv, 150, 23);
}

Test(alloc_fail_cli, compile)
{
    char out[64];
    snprintf(out, sizeof out, "/tmp/navbot-alloc-fail-%d.nav", (int)getpid());
    const char *argv[] = { "navbot", "compile", "maps/gauntlet.lua", "-o", out, "--force", NULL };
    fail_each_cli("navbot compile gauntlet", argv, 150, 23);
    remove(out);
}

Test(alloc_fail_cli, route)
{
    const char *argv[] = { "navbot", "route", "maps/gauntlet.lua", "--from", "2,28", "--to", "3.5,20,3.5", NULL };
    fail_each_cli("navbot route gauntlet", argv, 150, 23);
}

Test(alloc_fail_cli, path)
{
    const char *argv[] = { "navbot", "path", "maps/arena.lua", "--from", "2,12", "--to", "12,7", NULL };
    fail_each_cli("navbot path arena", argv, 150, 23);
}

Test(alloc_fail_cli, run)
{
    const char *argv[] = { "navbot", "run", "maps/arena.lua", "--bot", "runner", "--ticks", "30", NULL };
    fail_each_cli("navbot run arena runner, 30 ticks", argv, 150, 61);
}

/* A headless sim drawn to PNG and recorded, then the record replayed and
** drawn: the picture and the trace writer and reader. */
Test(alloc_fail_cli, sim_trace_and_replay)
{
    char png[64], trace[64];
    snprintf(png, sizeof png, "/tmp/navbot-alloc-fail-%d.png", (int)getpid());
    snprintf(trace, sizeof trace, "/tmp/navbot-alloc-fail-%d.trace", (int)getpid());
    const char *sim[] = { "navbot", "sim",     "maps/arena.lua", "runner", "--headless", "--ticks", "20",
                          "--size", "320x240", "--png",          png,      "--trace",    trace,     NULL };
    fail_each_cli("navbot sim arena --headless --png --trace", sim, 150, 61);
    /* The record of a run with nothing refused, for the replay. */
    Run made = navbot(13, sim);
    cr_assert_eq(made.status, CLI_OK, "%s", made.err ? made.err : "");
    run_free(&made);
    const char *replay[] = { "navbot", "replay",  trace,   "--headless", "--tick", "10",
                             "--size", "320x240", "--png", png,          NULL };
    fail_each_cli("navbot replay --headless --png", replay, 150, 23);
    remove(png);
    remove(trace);
}

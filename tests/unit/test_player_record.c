/*
** test_player_record.c — player recordings (script/player_record.h):
** what is written reads back the same, bit for bit; every kind of broken
** or mismatched file is refused with an error naming the file, the line
** and the field; nothing crashes or leaks, also when memory runs out.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alloc_fail_support.h"
#include "script/player_record.h"

TestSuite(player_record, .init = fail_alloc_install);

static const PlayerRecordInfo INFO = {
    .map = "maps/tower.lua", .seed = 7, .hz = 30, .cls = "human", .spawn = { 25.2f, 6.0f, 0.01f }, .yaw = 90.0f
};

static PlayerControls controls(float mx, float my, const char *buttons)
{
    PlayerControls c;
    memset(&c, 0, sizeof c);
    c.move[0] = mx, c.move[1] = my;
    c.jump = strchr(buttons, 'j') != NULL;
    c.crouch = strchr(buttons, 'c') != NULL;
    c.use = strchr(buttons, 'u') != NULL;
    c.ladder_down = strchr(buttons, 'd') != NULL;
    return c;
}

/* A record with awkward floats: tiny, negative zero, ninths, huge. */
static PlayerRecord *sample(void)
{
    NavError e;
    PlayerRecord *r = player_record_new(&INFO, &e);
    cr_assert_not_null(r);
    PlayerControls c = controls(0.0f, 1.0f, "");
    for (int i = 0; i < 5; i++) cr_assert(player_record_add(r, &c)); /* one run of 5 */
    c = controls(0.70710678f, -0.70710678f, "jcud");
    cr_assert(player_record_add(r, &c));
    c = controls(-0.0f, 1e-40f, "u");
    c.look = true;
    c.look_at[0] = 1.0f / 9.0f, c.look_at[1] = -123456.789f, c.look_at[2] = 3.4e38f;
    cr_assert(player_record_add(r, &c));
    cr_assert(player_record_add(r, &c));
    c = controls(0.3f, 0.4f, "d");
    c.climb = true;
    c.climb_to[0] = 10.125f, c.climb_to[1] = 2.0f / 3.0f, c.climb_to[2] = 1.0e-7f;
    cr_assert(player_record_add(r, &c));
    return r;
}

Test(player_record, runs_merge_equal_ticks)
{
    PlayerRecord *r = sample();
    cr_assert_eq(r->ticks, 9);
    cr_assert_eq(r->run_count, 4);
    cr_assert_eq(r->runs[0].count, 5);
    cr_assert_eq(r->runs[2].count, 2);
    PlayerCursor cur = { 0 };
    PlayerControls c;
    for (uint64_t t = 0; t < 9; t++) {
        cr_assert(player_record_at(r, t, &cur, &c));
        cr_assert_eq(c.use, t == 5 || t == 6 || t == 7);
    }
    cr_assert_not(player_record_at(r, 9, &cur, &c));
    cr_assert_eq(c.move[1], 0.0f);
    /* Backwards: the cursor starts over. */
    cr_assert(player_record_at(r, 1, &cur, &c));
    cr_assert_eq(c.move[1], 1.0f);
    player_record_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, round_trip_is_exact)
{
    PlayerRecord *r = sample();
    size_t n;
    char *text = player_record_text(r, &n);
    cr_assert_not_null(text);
    cr_assert(strncmp(text, "navbot-player 1\nmap maps/tower.lua\nseed 7\nhz 30\nclass human\n", 58) == 0, "%s", text);
    NavError e;
    PlayerRecord *back = player_record_parse(text, n, "mem.player", &e);
    cr_assert_not_null(back, "%s", e.message);
    cr_assert_str_eq(back->info.map, INFO.map);
    cr_assert_str_eq(back->info.cls, INFO.cls);
    cr_assert_eq(back->info.seed, INFO.seed);
    cr_assert_eq(back->info.hz, INFO.hz);
    cr_assert(memcmp(back->info.spawn, INFO.spawn, sizeof INFO.spawn) == 0);
    cr_assert_eq(back->info.yaw, INFO.yaw);
    cr_assert_eq(back->ticks, r->ticks);
    cr_assert_eq(back->run_count, r->run_count);
    for (uint32_t i = 0; i < r->run_count; i++) {
        cr_assert_eq(back->runs[i].count, r->runs[i].count);
        cr_assert(player_controls_equal(&back->runs[i].c, &r->runs[i].c), "run %u differs", i);
    }
    /* -0.0 stays negative, the denormal stays itself. */
    cr_assert(signbit(back->runs[2].c.move[0]));
    cr_assert_eq(back->runs[2].c.move[1], 1e-40f);
    /* Written again: the same text. */
    size_t n2;
    char *again = player_record_text(back, &n2);
    cr_assert_eq(n2, n);
    cr_assert(memcmp(again, text, n) == 0);
    nav_free(again);
    nav_free(text);
    player_record_destroy(back);
    player_record_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, saved_and_loaded)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/navbot-test-player-%d.player", (int)getpid());
    PlayerRecord *r = sample();
    NavError e;
    cr_assert_eq(player_record_save(r, path, &e), NAV_OK, "%s", e.message);
    PlayerRecord *back = player_record_load(path, &e);
    cr_assert_not_null(back, "%s", e.message);
    cr_assert_str_eq(back->path, path);
    cr_assert_eq(back->line_seed, 3);
    cr_assert_eq(back->ticks, 9);
    player_record_destroy(back);
    player_record_destroy(r);
    unlink(path);
    /* A file that is not there: the error names it. */
    cr_assert_null(player_record_load(path, &e));
    cr_assert(e.status & NAV_E_IO);
    cr_assert_not_null(strstr(e.file, "navbot-test-player"), "%s", e.file);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, comments_blank_lines_and_crlf)
{
    const char *text = "# a comment\r\nnavbot-player 1\r\n\r\nmap maps/tower.lua\r\nseed 1\r\nhz 30\r\nclass human\r\n"
                       "spawn 1 2 3 0\r\nticks 3\r\n# runs\r\n2 1 0 - - -\r\n1 0 1 j 1,2,3 -\r\nend\r\n\r\n# after\r\n";
    NavError e;
    PlayerRecord *r = player_record_parse(text, strlen(text), "crlf.player", &e);
    cr_assert_not_null(r, "%s", e.message);
    cr_assert_eq(r->ticks, 3);
    cr_assert(r->runs[1].c.look);
    cr_assert_eq(r->runs[1].c.look_at[2], 3.0f);
    player_record_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

#define HEADER "navbot-player 1\nmap maps/tower.lua\nseed 1\nhz 30\nclass human\nspawn 1 2 0 0\n"

static const struct {
    const char *text;
    int line;
    const char *field;   /* NULL: none */
    const char *message; /* the error says this */
} BROKEN[] = {
    { "", 0, "format", "ends before its 'navbot-player 1' line" },
    { "navbot-trace 2\nmap x\n", 1, "format", "not a player recording" },
    { "navbot-player 2\n", 1, "version", "version 2 is not one this navbot reads" },
    { "navbot-player x\n", 1, "version", "expected a version number" },
    { "navbot-player 1\nseed 1\n", 2, "map", "expected 'map PATH'" },
    { "navbot-player 1\nmap \n", 2, "map", "path is missing" },
    { "navbot-player 1\nmap\n", 2, "map", "path is missing" },
    { "navbot-player 1\nmap m\nseed -1\n", 3, "seed", "expected a whole number" },
    { "navbot-player 1\nmap m\nseed 99999999999999999999\n", 3, "seed", "expected a whole number" },
    { "navbot-player 1\nmap m\nseed 1\nhz 0\n", 4, "hz", "from 1 to 1000" },
    { "navbot-player 1\nmap m\nseed 1\nhz 1001\n", 4, "hz", "from 1 to 1000" },
    { "navbot-player 1\nmap m\nseed 1\nhz 30\nclass a b\n", 5, "class", "one class name" },
    { "navbot-player 1\nmap m\nseed 1\nhz 30\nclass human\nspawn 1 2 3\n", 6, "spawn", "4 numbers" },
    { "navbot-player 1\nmap m\nseed 1\nhz 30\nclass human\nspawn 1 2 nan 0\n", 6, "spawn", "'nan' is not a finite" },
    { "navbot-player 1\nmap m\nseed 1\nhz 30\nclass human\nspawn 1 2 1e99 0\n", 6, "spawn", "'1e99' is not a finite" },
    { "navbot-player 1\nmap m\nseed 1\nhz 30\nclass human\nspawn 1  2 3 0\n", 6, "spawn", "an empty field" },
    { HEADER "ticks many\n", 7, "ticks", "expected the number of ticks" },
    { HEADER "ticks 999999999999\n", 7, "ticks", "over the limit of 134217728 ticks" },
    { HEADER "ticks 2\n1 0 0 - - -\n", 8, "end", "without its 'end' line" },
    { HEADER "ticks 2\n1 0 0 - - -\nend\n", 9, "end", "the runs hold 1 ticks, the 'ticks' line says 2" },
    { HEADER "ticks 2\n3 0 0 - - -\nend\n", 8, "count", "more ticks than the 2" },
    { HEADER "ticks 2\n0 0 0 - - -\nend\n", 8, "count", "from 1 to" },
    { HEADER "ticks 2\n-2 0 0 - - -\nend\n", 8, "count", "got '-2'" },
    { HEADER "ticks 2\n2 0 0 - -\nend\n", 8, "climb", "6 fields" },
    { HEADER "ticks 2\n2 0\nend\n", 8, "move_y", "6 fields" },
    { HEADER "ticks 2\n2 0 0 - - - extra\nend\n", 8, NULL, "this line has 7" },
    { HEADER "ticks 2\n2 zero 0 - - -\nend\n", 8, "move_x", "'zero' is not a finite number" },
    { HEADER "ticks 2\n2 0 inf - - -\nend\n", 8, "move_y", "'inf' is not a finite number" },
    { HEADER "ticks 2\n2 0 0 x - -\nend\n", 8, "buttons", "got 'x'" },
    { HEADER "ticks 2\n2 0 0 jj - -\nend\n", 8, "buttons", "each once" },
    { HEADER "ticks 2\n2 0 0 - 1,2 -\nend\n", 8, "look", "expected '-' or X,Y,Z, got '1,2'" },
    { HEADER "ticks 2\n2 0 0 - 1,2,3,4 -\nend\n", 8, "look", "got '1,2,3,4'" },
    { HEADER "ticks 2\n2 0 0 - - 1,,3\nend\n", 8, "climb", "got '1,,3'" },
    { HEADER "ticks 2\n2 0 0 - - 1,2,nan\nend\n", 8, "climb", "got '1,2,nan'" },
    { HEADER "ticks 2\n2 0 0 - - -\nend\n2 0 0 - - -\n", 10, "end", "text after the 'end' line" },
};

Test(player_record, broken_files_name_file_line_and_field)
{
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        const char *t = BROKEN[i].text;
        size_t n = strlen(t);
        NavError e;
        nav_error_clear(&e);
        PlayerRecord *r = player_record_parse(t, n, "broken.player", &e);
        cr_assert_null(r, "case %zu was read", i);
        cr_assert(e.status & NAV_E_FORMAT, "case %zu: status %#x: %s", i, (unsigned)e.status, e.message);
        cr_assert_str_eq(e.file, "broken.player", "case %zu", i);
        if (BROKEN[i].line) cr_assert_eq(e.line, BROKEN[i].line, "case %zu: line %d: %s", i, e.line, e.message);
        cr_assert_str_eq(e.field, BROKEN[i].field ? BROKEN[i].field : "", "case %zu: field '%s': %s", i, e.field,
                         e.message);
        cr_assert_not_null(strstr(e.message, BROKEN[i].message), "case %zu: %s", i, e.message);
        char shown[1024];
        nav_error_format(&e, shown, sizeof shown);
        cr_assert(strncmp(shown, "broken.player:", 14) == 0, "case %zu: %s", i, shown);
    }
    /* Not text at all. */
    static const char nul[] = HEADER "ticks 1\n1 0 0 - - -\0\nend\n";
    NavError e;
    cr_assert_null(player_record_parse(nul, sizeof nul - 1, "nul.player", &e));
    cr_assert_eq(e.line, 8);
    cr_assert_not_null(strstr(e.message, "NUL byte"), "%s", e.message);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, every_cut_of_a_good_file_is_refused)
{
    PlayerRecord *r = sample();
    size_t n;
    char *text = player_record_text(r, &n);
    /* Cut anywhere but past the last line's start: refused, never read
    ** half (a cut inside "end" or after it may leave a whole file). */
    size_t whole = n - strlen("end\n");
    for (size_t k = 0; k < whole; k++) {
        NavError e;
        PlayerRecord *back = player_record_parse(text, k, "cut.player", &e);
        cr_assert_null(back, "a file cut at byte %zu of %zu was read", k, n);
        cr_assert(e.status & NAV_E_FORMAT, "cut at %zu: %s", k, e.message);
        if (k > 0) cr_assert_gt(e.line, 0, "cut at %zu: %s", k, e.message);
    }
    nav_free(text);
    player_record_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, mismatched_runs_are_refused)
{
    PlayerRecord *r = sample();
    size_t n;
    char *text = player_record_text(r, &n);
    NavError e;
    PlayerRecord *back = player_record_parse(text, n, "dir/roof.player", &e);
    cr_assert_not_null(back);
    cr_assert_eq(player_record_check(back, "/elsewhere/maps/tower.lua", 7, 30, &e), NAV_OK, "%s", e.message);
    cr_assert(NAV_FAILED(player_record_check(back, "maps/gauntlet.lua", 7, 30, &e)));
    cr_assert_str_eq(e.file, "dir/roof.player");
    cr_assert_eq(e.line, 2);
    cr_assert_str_eq(e.field, "map");
    cr_assert_not_null(strstr(e.message, "maps/gauntlet.lua"), "%s", e.message);
    cr_assert(NAV_FAILED(player_record_check(back, "maps/tower.lua", 8, 30, &e)));
    cr_assert_eq(e.line, 3);
    cr_assert_str_eq(e.field, "seed");
    cr_assert_not_null(strstr(e.message, "seed 7, this run's seed is 8"), "%s", e.message);
    cr_assert(NAV_FAILED(player_record_check(back, "maps/tower.lua", 7, 60, &e)));
    cr_assert_eq(e.line, 4);
    cr_assert_str_eq(e.field, "hz");
    nav_free(text);
    player_record_destroy(back);
    player_record_destroy(r);
    NAV_TEST_LEAK_CHECK();
}

Test(player_record, controls_go_to_a_bot_and_back)
{
    NavBotControl ctl;
    memset(&ctl, 0, sizeof ctl);
    ctl.move[0] = 0.5f;
    ctl.jump = true;
    ctl.look_at[0] = 9.0f; /* look is off: not kept */
    ctl.climb = true;
    ctl.climb_to[2] = 1.5f;
    PlayerControls p;
    player_controls_get(&ctl, &p);
    cr_assert_eq(p.look_at[0], 0.0f);
    cr_assert_eq(p.climb_to[2], 1.5f);
    NavBotControl back;
    memset(&back, 0x55, sizeof back);
    player_controls_set(&back, &p, "player");
    cr_assert_str_eq(back.reason, "player");
    cr_assert_eq(back.priority, 0);
    cr_assert(back.jump && back.climb && !back.look);
    PlayerControls again;
    player_controls_get(&back, &again);
    cr_assert(player_controls_equal(&p, &again));
}

/* {======= out of memory ======= */

typedef struct RecCtx {
    char *text;
    size_t n;
    PlayerRecord *got;
} RecCtx;

static RecCtx rec_ctx;

static void *rec_setup(void)
{
    fail_alloc.metering = false;
    PlayerRecord *r = sample();
    rec_ctx.text = player_record_text(r, &rec_ctx.n);
    player_record_destroy(r);
    rec_ctx.got = NULL;
    return &rec_ctx;
}

static NavStatus rec_run(void *p, NavError *err)
{
    RecCtx *c = p;
    c->got = player_record_parse(c->text, c->n, "mem.player", err);
    if (!c->got) return err->status;
    /* And written again. */
    size_t n;
    char *again = player_record_text(c->got, &n);
    if (!again) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory writing");
    bool same = n == c->n && memcmp(again, c->text, n) == 0;
    nav_free(again);
    return same ? NAV_OK : nav_error_set(err, NAV_E_FORMAT, NULL, 0, 0, NULL, "written differently");
}

static void rec_check(void *p, bool ok, bool failed)
{
    RecCtx *c = p;
    (void)failed;
    if (ok) cr_assert_eq(c->got->ticks, 9);
}

static void rec_teardown(void *p)
{
    RecCtx *c = p;
    player_record_destroy(c->got);
    nav_free(c->text);
    c->got = NULL;
    c->text = NULL;
}

Test(player_record, reading_and_writing_when_memory_runs_out)
{
    FailOp op = { .name = "player recording read and written",
                  .setup = rec_setup,
                  .run = rec_run,
                  .check = rec_check,
                  .teardown = rec_teardown };
    alloc_fail_each(&op);
}

/* }======= */

/*
** test_fileio.c — safe writes (core/fileio.h): a whole new file or the old
** one, never a part. Failures are made for real: a temporary file that
** cannot be created (a folder already holds its name), a file size limit
** hit midway (RLIMIT_FSIZE), a folder that does not exist. Every writer of
** navbot (.nav files, golden hashes, run traces, PNGs) goes through the
** helper, and each is checked to leave the old file when it fails.
*/
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/fileio.h"
#include "core/image.h"
#include "scenario/golden.h"
#include "script/run_trace.h"
#include "script/session.h"
#include "test_support.h"

/* Each test in its own folder: they run in parallel. */
static char base[128];

static void fresh_dir(const char *test)
{
    snprintf(base, sizeof base, "/tmp/navbot_test_fileio_%s", test);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", base, base);
    cr_assert_eq(system(cmd), 0);
}

/* base/name, in one of a few rotating buffers. */
static const char *at(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", base, name);
    return buf[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* The whole file, NUL-terminated (NULL when missing). */
static char *slurp(const char *path)
{
    char *data;
    size_t len;
    NavError e;
    if (NAV_FAILED(fileio_read(path, 1u << 26, &data, &len, &e))) return NULL;
    return data;
}

static void assert_content(const char *path, const char *want)
{
    char *got = slurp(path);
    cr_assert_not_null(got, "%s is missing", path);
    cr_assert_str_eq(got, want, "%s changed", path);
    nav_free(got);
}

/* Files in the test's folder other than those named (NULL-ended): left-over temporaries. */
static int strays(const char *const *keep)
{
    DIR *d = opendir(base);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        bool kept = false;
        for (int i = 0; keep[i]; i++) kept |= strcmp(e->d_name, keep[i]) == 0;
        if (!kept) {
            cr_log_error("stray file %s", e->d_name);
            n++;
        }
    }
    closedir(d);
    return n;
}

/* The temporary name the helper will use, made into a folder so that it
** cannot be created. */
static void block_temp(const char *path)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    cr_assert_eq(mkdir(tmp, 0777), 0, "%s", tmp);
}

static void unblock_temp(const char *path)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    rmdir(tmp);
}

Test(fileio, writes_whole_file_and_leaves_no_temporary)
{
    fresh_dir("writes_whole_file_and_le");
    NavError e;
    nav_error_clear(&e);
    cr_assert(NAV_SUCCEEDED(fileio_write(at("a.txt"), "old\n", 4, 0, &e)), "%s", e.message);
    assert_content(at("a.txt"), "old\n");
    cr_assert(NAV_SUCCEEDED(fileio_write(at("a.txt"), "new text\n", 9, 0, &e)), "%s", e.message);
    assert_content(at("a.txt"), "new text\n");
    cr_assert(NAV_SUCCEEDED(fileio_write(at("empty"), "", 0, 0, &e)), "%s", e.message);
    assert_content(at("empty"), "");
    cr_assert_eq(strays((const char *const[]){ "a.txt", "empty", NULL }), 0);
}

Test(fileio, temporary_that_cannot_be_made_leaves_the_old_file)
{
    fresh_dir("temporary_that_cannot_be");
    put(at("a.txt"), "old\n");
    block_temp(at("a.txt"));
    NavError e;
    nav_error_clear(&e);
    NavStatus s = fileio_write(at("a.txt"), "new\n", 4, 0, &e);
    cr_assert(NAV_FAILED(s) && (s & NAV_E_IO));
    cr_assert_str_eq(e.file, at("a.txt"));
    cr_assert(strstr(e.message, "cannot create") && strstr(e.message, ".tmp."), "%s", e.message);
    assert_content(at("a.txt"), "old\n");
    unblock_temp(at("a.txt"));
    cr_assert_eq(strays((const char *const[]){ "a.txt", NULL }), 0);

    /* A folder that does not exist: nothing is made anywhere. */
    s = fileio_write(at("no/such/b.txt"), "x", 1, 0, &e);
    cr_assert(NAV_FAILED(s));
    cr_assert_str_eq(e.file, at("no/such/b.txt"));
}

Test(fileio, write_failing_midway_leaves_the_old_file)
{
    fresh_dir("write_failing_midway_lea");
    put(at("big.bin"), "old contents\n");
    /* A file size limit: writes past 64 KiB fail with EFBIG (the signal
    ** that would otherwise kill the process is ignored), as on a full disk. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = { 64 * 1024, 64 * 1024 };
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    size_t n = 1u << 20;
    char *data = nav_malloc(n);
    cr_assert_not_null(data);
    memset(data, 'x', n);
    NavError e;
    nav_error_clear(&e);
    NavStatus s = fileio_write(at("big.bin"), data, n, 0, &e);
    cr_assert(NAV_FAILED(s) && (s & NAV_E_IO), "a write past the size limit succeeded");
    cr_assert_str_eq(e.file, at("big.bin"));
    assert_content(at("big.bin"), "old contents\n");
    cr_assert_eq(strays((const char *const[]){ "big.bin", NULL }), 0);

    /* Streamed, through the writer: the same. */
    NavFileWriter w;
    cr_assert(NAV_SUCCEEDED(fileio_begin(&w, at("big.bin"), 0, &e)));
    for (int i = 0; i < 16; i++) fwrite(data, 1, n / 16, w.f);
    cr_assert(NAV_FAILED(fileio_commit(&w, &e)));
    assert_content(at("big.bin"), "old contents\n");
    cr_assert_eq(strays((const char *const[]){ "big.bin", NULL }), 0);
    nav_free(data);
}

Test(fileio, no_replace_refuses_an_existing_file)
{
    fresh_dir("no_replace_refuses_an_ex");
    put(at("mine.lua"), "keep me\n");
    NavError e;
    nav_error_clear(&e);
    NavStatus s = fileio_write(at("mine.lua"), "other\n", 6, FILEIO_NO_REPLACE, &e);
    cr_assert(NAV_FAILED(s));
    cr_assert(strstr(e.message, "exists"), "%s", e.message);
    assert_content(at("mine.lua"), "keep me\n");
    cr_assert(NAV_SUCCEEDED(fileio_write(at("new.lua"), "fresh\n", 6, FILEIO_NO_REPLACE, &e)), "%s", e.message);
    assert_content(at("new.lua"), "fresh\n");
    cr_assert_eq(strays((const char *const[]){ "mine.lua", "new.lua", NULL }), 0);
}

Test(fileio, abort_removes_the_temporary)
{
    fresh_dir("abort_removes_the_tempor");
    put(at("a.txt"), "old\n");
    NavFileWriter w;
    NavError e;
    cr_assert(NAV_SUCCEEDED(fileio_begin(&w, at("a.txt"), 0, &e)));
    fputs("half of it", w.f);
    fileio_abort(&w);
    assert_content(at("a.txt"), "old\n");
    cr_assert_eq(strays((const char *const[]){ "a.txt", NULL }), 0);
}

/* {======= every writer keeps the old file when it fails ======= */

Test(fileio, nav_file_golden_png_and_trace_keep_the_old_file)
{
    fresh_dir("nav_file_golden_png_and_");
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError e;
    nav_error_clear(&e);

    put(at("arena.nav"), "old nav\n");
    NavAreaGraph *ag = area_build(w, 0, NULL, &e);
    cr_assert_not_null(ag, "%s", e.message);
    block_temp(at("arena.nav"));
    cr_assert(NAV_FAILED(area_save(ag, at("arena.nav"), &e)));
    cr_assert_str_eq(e.file, at("arena.nav"));
    assert_content(at("arena.nav"), "old nav\n");
    unblock_temp(at("arena.nav"));
    cr_assert(NAV_SUCCEEDED(area_save(ag, at("arena.nav"), &e)), "%s", e.message);
    NavAreaGraph *back = area_load(w, 0, at("arena.nav"), &e);
    cr_assert_not_null(back, "%s", e.message);
    area_destroy(back);
    area_destroy(ag);

    put(at("walk.hash"), "old hash\n");
    ScenarioGolden g;
    scenario_golden_read(at("walk.lua"), &g);
    block_temp(at("walk.hash"));
    cr_assert(NAV_FAILED(scenario_golden_write(&g, 1, 2, 0.1, NULL, 0, &e)));
    assert_content(at("walk.hash"), "old hash\n");
    unblock_temp(at("walk.hash"));
    scenario_golden_free(&g);

    put(at("pic.png"), "old png\n");
    NavImage *img = image_create(8, 8, &e);
    cr_assert_not_null(img);
    block_temp(at("pic.png"));
    cr_assert(NAV_FAILED(image_write_png(img, at("pic.png"), &e)));
    assert_content(at("pic.png"), "old png\n");
    unblock_temp(at("pic.png"));
    cr_assert(NAV_SUCCEEDED(image_write_png(img, at("pic.png"), &e)), "%s", e.message);
    char *png = slurp(at("pic.png"));
    cr_assert(png && memcmp(png, "\x89PNG", 4) == 0, "not a PNG");
    nav_free(png);
    image_destroy(img);

    put(at("run.trace"), "old trace\n");
    NavSession *s = session_create(w, &(NavSessionDesc){ .seed = 1 }, &e);
    cr_assert_not_null(s, "%s", e.message);
    block_temp(at("run.trace"));
    cr_assert_null(run_trace_create(at("run.trace"), s, "maps/arena.lua", ".", 1, &e));
    assert_content(at("run.trace"), "old trace\n");
    unblock_temp(at("run.trace"));
    /* While a run is recorded the old trace stays; the new one replaces it whole at close. */
    RunTraceWriter *t = run_trace_create(at("run.trace"), s, "maps/arena.lua", ".", 1, &e);
    cr_assert_not_null(t, "%s", e.message);
    session_step(s);
    run_trace_tick(t, s);
    assert_content(at("run.trace"), "old trace\n");
    cr_assert(NAV_SUCCEEDED(run_trace_close(t, &e)), "%s", e.message);
    RunTrace *rt = run_trace_load(at("run.trace"), &e);
    cr_assert_not_null(rt, "%s", e.message);
    cr_assert_eq(rt->frame_count, 1);
    run_trace_destroy(rt);
    session_destroy(s);

    cr_assert_eq(strays((const char *const[]){ "arena.nav", "walk.hash", "pic.png", "run.trace", NULL }), 0);
    world_destroy(w);
}

/* }======= */

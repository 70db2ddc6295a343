/*
** cmd_test.c — `navbot test [FILES...]`: runs regression scenarios
** (scenario/scenario.h) headless, one line per scenario, and ends with
** exactly `N passed, N failed`. Each scenario's trace hash is compared
** with its golden file (NAME.hash beside NAME.lua); --update-golden
** rewrites them. A failure is explained (the expectation, the bot, the
** tick, its position and state, the last lines of the run's log) and
** leaves a PNG of that moment and the run's trace in the keep folder.
** --jobs N runs scenarios in N child processes; their reports are printed
** whole, in the order of the files, so the output reads the same. A
** failing run is run again to record its trace (runs are deterministic):
** writing one for every run would cost more than running most of them.
**
** DOES NOT: decide what a scenario checks (engine/scenario does), or keep the
** trace of a run that passed with the hash it should have.
*/
#define _DEFAULT_SOURCE /* DT_REG, strsignal */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "cli/scenario_report.h"
#include "core/json.h"
#include "core/timer.h"
#include "render/snapshot.h"
#include "scenario/golden.h"
#include "scenario/jobs.h"
#include "scenario/scenario.h"

#define TEST_DEFAULT_DIR "tests/scenarios"
#define TEST_DEFAULT_KEEP "build/scenarios"
#define TEST_MAX_JOBS JOBS_MAX_AT_ONCE
#define TEST_PATH_MAX 1024
#define TEST_CHILD_SECONDS 600 /* wall time a scenario may take in a child process */

typedef struct TestArgs {
    const char **files; /* as given: files or folders */
    int file_count;
    const char *filter;
    const char *keep;
    const char *report; /* --report DIR: DIR/index.html and the pictures it shows */
    const char *root;
    const NavLuaPath *lua_path; /* --lua-path, NAVBOT_PATH */
    int jobs;
    bool update_golden;
    bool json; /* one JSON object on stdout instead of the report */
} TestArgs;


/* {======= finding the scenarios ======= */

typedef struct FileList {
    char **paths;
    int count, cap;
} FileList;

static bool list_add(FileList *l, const char *path)
{
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 32;
        char **p = nav_realloc(l->paths, (size_t)cap * sizeof *p);
        if (!p) return false;
        l->paths = p;
        l->cap = cap;
    }
    l->paths[l->count] = nav_strdup(path);
    return l->paths[l->count++] != NULL;
}

static void list_free(FileList *l)
{
    for (int i = 0; i < l->count; i++) nav_free(l->paths[i]);
    nav_free(l->paths);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* Every .lua file in DIR (not in its subfolders: the scenarios' bots/ and
** maps/ live there), sorted. */
static bool add_folder(FileList *l, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    int first = l->count;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".lua")) continue;
        char path[TEST_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        list_add(l, path);
    }
    closedir(d);
    qsort(l->paths + first, (size_t)(l->count - first), sizeof *l->paths, by_name);
    return true;
}

/* The scenario's name: its file's name without folder and .lua. */
static void scenario_name(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (ends_with(base, ".lua")) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

/* A pattern with * ? [ is a glob over the whole name; else a substring. */
static bool selected(const char *filter, const char *path)
{
    if (!filter) return true;
    char name[256];
    scenario_name(path, name, sizeof name);
    if (strpbrk(filter, "*?[")) return fnmatch(filter, name, 0) == 0;
    return strstr(name, filter) != NULL;
}

static int collect(const CliContext *cx, const TestArgs *a, FileList *l)
{
    FileList all = { 0 };
    if (a->file_count == 0) {
        char dir[TEST_PATH_MAX];
        if (!a->root || strcmp(a->root, ".") == 0) snprintf(dir, sizeof dir, "%s", TEST_DEFAULT_DIR);
        else snprintf(dir, sizeof dir, "%s/%s", a->root, TEST_DEFAULT_DIR);
        if (!add_folder(&all, dir)) {
            fprintf(cx->err, "navbot test: cannot read %s: %s (run from the project's root, or give --root or FILES)\n",
                    dir, strerror(errno));
            list_free(&all);
            return CLI_BAD_INPUT;
        }
    }
    for (int i = 0; i < a->file_count; i++) {
        struct stat st;
        if (stat(a->files[i], &st) != 0) {
            fprintf(cx->err, "navbot test: %s: %s\n", a->files[i], strerror(errno));
            list_free(&all);
            return CLI_BAD_INPUT;
        }
        if (S_ISDIR(st.st_mode)) {
            add_folder(&all, a->files[i]);
        } else if (!ends_with(a->files[i], ".lua")) {
            fprintf(cx->err, "navbot test: %s: not a scenario (scenarios are .lua files)\n", a->files[i]);
            list_free(&all);
            return CLI_BAD_INPUT;
        } else {
            list_add(&all, a->files[i]);
        }
    }
    for (int i = 0; i < all.count; i++)
        if (selected(a->filter, all.paths[i])) list_add(l, all.paths[i]);
    list_free(&all);
    return CLI_OK;
}

/* }======= */

/* {======= golden hashes ======= */

/* The run's per-tick hashes (on_tick), for the golden file and for naming
** the first tick where a run differs from it. */
typedef struct TickHashes {
    uint32_t *h;
    size_t n, cap;
    bool nomem; /* no memory to keep them all: none are kept */
} TickHashes;

/* }======= */

/* {======= one scenario ======= */

typedef struct Outcome {
    bool passed;
    double seconds; /* wall */
    CliText text;
    bool has_hash; /* the scenario ran: hash is its trace hash */
    uint64_t hash;
} Outcome;

typedef struct Pictures {
    TickHashes ticks; /* on_tick */
    const char *png;
    const char *report_png, *report_thumb; /* --report: the same picture there, a passing run's thumbnail */
    char note[600];                        /* why there is none */
    bool written;
    const ScenarioGolden *golden; /* for on_end: draw when the hash is not the golden one */
    bool update;
} Pictures;

/* The picture of the moment, where and when it went wrong marked, in the
** keep folder and the report's. */
static void picture(Pictures *p, NavSession *s, int bot, const RenderFailureMark *mark)
{
    NavError e;
    nav_error_clear(&e);
    NavImage *img = render_session_image(s, bot, mark, &e);
    p->written = img && NAV_SUCCEEDED(image_write_png(img, p->png, &e));
    if (p->written && p->report_png) p->written = NAV_SUCCEEDED(image_write_png(img, p->report_png, &e));
    image_destroy(img);
    if (!p->written) {
        char buf[512];
        snprintf(p->note, sizeof p->note, "%s", nav_error_format(&e, buf, sizeof buf));
    }
}

#define THUMB_WIDTH 320

/* A passing run's last tick, small, for the report. */
static void thumbnail(const Pictures *p, NavSession *s)
{
    NavImage *img = render_session_image(s, -1, NULL, NULL);
    NavImage *small = img ? image_scale_down(img, THUMB_WIDTH, NULL) : NULL;
    if (small) image_write_png(small, p->report_thumb, NULL); /* none: the report says "no picture" */
    image_destroy(small);
    image_destroy(img);
}

static void on_tick(void *user, NavSession *s)
{
    TickHashes *th = &((Pictures *)user)->ticks;
    if (th->nomem) return;
    if (th->n == th->cap) {
        size_t cap = th->cap ? 2 * th->cap : 1024;
        uint32_t *more = nav_realloc(th->h, cap * sizeof *more);
        if (!more) {
            /* Part of them would say the run differs where it does not. */
            nav_free(th->h);
            *th = (TickHashes){ .nomem = true };
            return;
        }
        th->h = more;
        th->cap = cap;
    }
    th->h[th->n++] = (uint32_t)sim_trace_hash(session_sim(s));
}

static void on_failure(void *user, NavSession *s, const ScenarioFailure *f)
{
    RenderFailureMark m = { .tick = f->tick, .time = f->time };
    NavSim *sim = session_sim(s);
    if (f->bot >= 0 && (uint32_t)f->bot < sim_bot_count(sim)) {
        m.at_place = true;
        memcpy(m.pos, sim_bot(sim, (uint32_t)f->bot)->pos, sizeof m.pos);
    }
    snprintf(m.text, sizeof m.text, "%.*s", (int)sizeof m.text - 1, f->message);
    picture(user, s, f->bot, &m);
}

/* The run passed, but its hash will not match: a picture of the end for
** the review. */
static void on_end(void *user, NavSession *s)
{
    Pictures *p = user;
    const ScenarioGolden *g = p->golden;
    NavSim *sim = session_sim(s);
    if (!p->update && (!g->valid || g->hash != sim_trace_hash(sim) || g->ticks != sim_tick(sim))) {
        RenderFailureMark m = { .tick = sim_tick(sim), .time = sim_time(sim) };
        snprintf(m.text, sizeof m.text, "the trace hash is not the golden file's");
        picture(p, s, sim_bot_count(sim) ? 0 : -1, &m);
    } else if (p->report_thumb) {
        thumbnail(p, s);
    }
}

static void paths_for(const TestArgs *a, const char *name, char *trace, char *png, size_t cap)
{
    snprintf(trace, cap, "%s/%s.trace", a->keep, name);
    snprintf(png, cap, "%s/%s.png", a->keep, name);
}

/* A run's trace costs more to write than the run itself (36 MB for the
** crowd), so a passing run keeps none: when a run fails, or its hash is not
** the golden one, the scenario runs again, the same run since it is
** deterministic, to record it. Whether it did repeat is checked. */
static void record_trace(const TestArgs *a, const char *path, const char *trace, const ScenarioResult *first,
                         CliText *t, uint64_t *tick)
{
    ScenarioOptions opt = { .root = a->root, .lua_path = a->lua_path, .trace_path = trace, .work_dir = a->keep };
    ScenarioResult *again = nav_malloc(sizeof *again);
    if (!again) {
        cli_text_add(t, "      trace:   not recorded: out of memory\n");
        return;
    }
    NavError err;
    nav_error_clear(&err);
    NavStatus st = scenario_run_file(path, &opt, again, &err);
    if (NAV_FAILED(st)) {
        cli_text_add(t, "      trace:   not recorded: %s\n", err.message);
        remove(trace);
    } else {
        uint64_t at = first->passed ? first->ticks : first->failure.tick;
        uint64_t got = again->passed ? again->ticks : again->failure.tick;
        if (again->passed != first->passed || at != got || (first->passed && again->hash != first->hash))
            cli_text_add(t,
                         "      note:    the run that recorded the trace did not repeat this one (it %s at tick %llu, "
                         "hash %016llx): the scenario is not deterministic\n",
                         again->passed ? "passed" : "failed", (unsigned long long)got, (unsigned long long)again->hash);
        *tick = got;
    }
    nav_free(again);
}

static void report_kept(CliText *t, const Pictures *p, const char *trace, uint64_t tick)
{
    if (p->written) cli_text_add(t, "      picture: %s\n", p->png);
    else if (p->note[0]) cli_text_add(t, "      picture: not written: %s\n", p->note);
    struct stat st;
    if (stat(trace, &st) == 0)
        cli_text_add(t, "      trace:   %s  (navbot replay %s --tick %llu)\n", trace, trace, (unsigned long long)tick);
}

static void run_one_text(const TestArgs *a, const char *path, Outcome *o, ScenarioGolden *gp, Pictures *pp);

static void run_one(const TestArgs *a, const char *path, Outcome *o)
{
    uint64_t t0 = timer_now_ns();
    ScenarioGolden g;
    Pictures pics;
    memset(&pics, 0, sizeof pics);
    scenario_golden_read(path, &g);
    run_one_text(a, path, o, &g, &pics);
    scenario_golden_free(&g);
    nav_free(pics.ticks.h);
    o->seconds = timer_ms_since(t0) / 1000.0;
}

/* The first tick (from 1) where this run's per-tick hashes part from the
** golden file's; 0 when the file keeps none or they agree as far as both go. */
static uint64_t first_different_tick(const ScenarioGolden *g, const TickHashes *th)
{
    if (!g->per_tick || th->nomem) return 0;
    size_t n = g->per_tick_count < th->n ? g->per_tick_count : th->n;
    for (size_t i = 0; i < n; i++)
        if (g->per_tick[i] != th->h[i]) return (uint64_t)i + 1;
    return g->per_tick_count != th->n ? (uint64_t)n + 1 : 0;
}

static void run_one_text(const TestArgs *a, const char *path, Outcome *o, ScenarioGolden *gp, Pictures *pp)
{
    memset(o, 0, sizeof *o);
    char name[256], trace[TEST_PATH_MAX], png[TEST_PATH_MAX], rpng[TEST_PATH_MAX], rthumb[TEST_PATH_MAX];
    scenario_name(path, name, sizeof name);
    paths_for(a, name, trace, png, sizeof trace);
    const ScenarioGolden g = *gp;
    *pp = (Pictures){ .png = png, .golden = gp, .update = a->update_golden };
    if (a->report) {
        scenario_report_picture(a->report, name, false, rpng, sizeof rpng);
        scenario_report_picture(a->report, name, true, rthumb, sizeof rthumb);
        remove(rpng);
        remove(rthumb);
        pp->report_png = rpng;
        pp->report_thumb = rthumb;
    }
    ScenarioOptions opt = { .root = a->root,
                            .lua_path = a->lua_path,
                            .work_dir = a->keep,
                            .on_failure = on_failure,
                            .on_end = on_end,
                            .on_tick = on_tick,
                            .user = pp };
    ScenarioResult *r = nav_malloc(sizeof *r);
    if (!r) {
        cli_text_add(&o->text, "FAIL  %-26s out of memory\n", name);
        return;
    }
    /* What an earlier failure left is stale whatever happens now. */
    remove(trace);
    remove(png);
    NavError err;
    nav_error_clear(&err);
    uint64_t t0 = timer_now_ns();
    NavStatus st = scenario_run_file(path, &opt, r, &err);
    double wall = timer_ms_since(t0) / 1000.0;
    CliText *t = &o->text;
    if (NAV_SUCCEEDED(st)) o->has_hash = true, o->hash = r->hash;

    if (NAV_FAILED(st)) {
        cli_text_add(t, "FAIL  %-26s %9s   %6.2f s wall\n", name, "-", wall);
        cli_text_add(t, "      error: %s\n", err.message);
        nav_free(r);
        return;
    }
    char runs[32] = "";
    if (r->runs == 2) snprintf(runs, sizeof runs, "  (2 runs)");
    if (!r->passed) {
        const ScenarioFailure *f = &r->failure;
        cli_text_add(t, "FAIL  %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
        cli_text_add(t, "      expected: %s\n", f->expectation);
        cli_text_add(t, "      failed:   %s\n", f->message);
        cli_text_add(t, "      at:       tick %llu (%.2f s)\n", (unsigned long long)f->tick, f->time);
        if (f->bot >= 0) cli_text_add(t, "      bot:      %s\n", f->bot_state);
        if (r->log_count) {
            cli_text_add(t, "      log (last lines):\n");
            for (int i = 0; i < r->log_count; i++) cli_text_add(t, "        %s\n", r->log[i]);
        }
        uint64_t tick = f->tick;
        record_trace(a, path, trace, r, t, &tick);
        report_kept(t, pp, trace, tick);
        nav_free(r);
        return;
    }

    bool same = g.valid && g.hash == r->hash && g.ticks == r->ticks;
    NavError werr;
    nav_error_clear(&werr);
    if (a->update_golden && pp->ticks.nomem) {
        cli_text_add(t, "FAIL  %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
        cli_text_add(t, "      golden: not written: out of memory keeping the per-tick hashes\n");
        nav_free(r);
        return;
    }
    if (a->update_golden) {
        /* Same hash and the same per-tick hashes kept: nothing to write. */
        if (same && g.per_tick && g.per_tick_count == pp->ticks.n && !first_different_tick(&g, &pp->ticks)) {
            cli_text_add(t, "ok    %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
        } else if (NAV_SUCCEEDED(
                       scenario_golden_write(&g, r->hash, r->ticks, r->sim_time, pp->ticks.h, pp->ticks.n, &werr))) {
            cli_text_add(t, "ok    %-26s %7.2f s sim %6.2f s wall%s  golden %s: %s %016llx after %llu ticks\n", name,
                         r->sim_time, wall, runs,
                         same       ? "kept, per-tick hashes added"
                         : g.exists ? "updated"
                                    : "written",
                         g.path, (unsigned long long)r->hash, (unsigned long long)r->ticks);
        } else {
            cli_text_add(t, "FAIL  %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
            cli_text_add(t, "      golden: %s\n", werr.message);
            nav_free(r);
            return;
        }
        o->passed = true;
        nav_free(r);
        return;
    }
    if (same) {
        cli_text_add(t, "ok    %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
        o->passed = true;
        nav_free(r);
        return;
    }
    cli_text_add(t, "FAIL  %-26s %7.2f s sim %6.2f s wall%s\n", name, r->sim_time, wall, runs);
    if (!g.exists) {
        cli_text_add(t,
                     "      golden: no %s yet: every expectation held, but there is no trace hash to compare with.\n",
                     g.path);
        cli_text_add(t, "      After checking the run, record it with: navbot test --update-golden %s\n", path);
    } else if (!g.valid) {
        if (g.problem[0])
            cli_text_add(t, "      golden: %s:1: ticks: %s; rewrite it with:\n        navbot test --update-golden %s\n",
                         g.path, g.problem, path);
        else
            cli_text_add(
                t,
                "      golden: %s:1: expected \"HASH TICKS ticks\" (16 hex digits, a count); rewrite it with:\n"
                "        navbot test --update-golden %s\n",
                g.path, path);
    } else {
        cli_text_add(t,
                     "      golden: the run changed: %s expects trace hash %016llx after %llu ticks, this run gave "
                     "%016llx after %llu ticks.\n",
                     g.path, (unsigned long long)g.hash, (unsigned long long)g.ticks, (unsigned long long)r->hash,
                     (unsigned long long)r->ticks);
        uint64_t first = first_different_tick(&g, &pp->ticks);
        if (first)
            cli_text_add(
                t, "      The traces first differ at tick %llu (%.2f s): navbot replay the trace below --tick %llu\n",
                (unsigned long long)first, r->ticks ? r->sim_time * (double)first / (double)r->ticks : 0.0,
                (unsigned long long)first);
        else if (!g.per_tick)
            cli_text_add(t, "      (%s keeps no per-tick hashes, so the first differing tick is unknown.)\n", g.path);
        cli_text_add(t,
                     "      Every expectation held. If the new behaviour is intended, review it and run:\n"
                     "        navbot test --update-golden %s\n",
                     path);
    }
    uint64_t tick = r->ticks;
    record_trace(a, path, trace, r, t, &tick);
    report_kept(t, pp, trace, tick);
    nav_free(r);
}

/* }======= */

/* {======= in parallel: one child process per scenario (scenario/jobs.h) ======= */

/* Each scenario's outcome, in file order, for --json. */
typedef struct Results {
    char **text;
    bool *ok;
    double *seconds;
    bool *has_hash;
    uint64_t *hash;
} Results;

/* What the tasks share: the scenarios, their reports as they come in,
** and how far the report in file order is printed. */
typedef struct Run {
    const CliContext *cx;
    const TestArgs *a;
    const FileList *l;
    Results *res; /* --json: kept, not printed */
    char **text;
    bool *ok, *finished, *has_hash;
    double *seconds;
    uint64_t *hash;
    int printed, passed, failed;
} Run;

/* In the child: "@SECONDS HASH\n" (HASH "-" when it did not run) then the
** report; exit 0 passed, 1 failed. */
static void test_work(void *user, int task, JobOutput *out)
{
    Run *r = user;
    Outcome o;
    run_one(r->a, r->l->paths[task], &o);
    CliText t = { 0 };
    char hash[24] = "-";
    if (o.has_hash) snprintf(hash, sizeof hash, "%016llx", (unsigned long long)o.hash);
    cli_text_add(&t, "@%.6f %s\n%s%s", o.seconds, hash, o.text.s ? o.text.s : "",
                 o.text.dropped ? "      (out of memory: parts of this report are missing)\n" : "");
    nav_free(o.text.s);
    out->data = t.s;
    out->len = t.s ? t.n : 0;
    out->code = o.passed ? 0 : 1;
}

/* The report of a task that ended without one (a crash, a timeout). */
static char *crash_report(const char *path, const JobEnd *e)
{
    char name[256];
    scenario_name(path, name, sizeof name);
    CliText t = { 0 };
    cli_text_add(&t, "FAIL  %-26s %9s   crashed: ", name, "-");
    if (e->signal) cli_text_add(&t, "killed by signal %d (%s)\n", e->signal, strsignal(e->signal));
    else cli_text_add(&t, "exit status %d and no report\n", e->code);
    if (e->len) cli_text_add(&t, "%.*s", (int)e->len, e->data);
    return t.s;
}

/* In the parent: keep the report; print every one whose turn has come. */
static void test_done(void *user, int task, const JobEnd *e)
{
    Run *r = user;
    const char *nl = e->len && e->data[0] == '@' ? memchr(e->data, '\n', e->len) : NULL;
    if (e->complete && e->code <= 1 && nl) {
        char *after = NULL;
        r->seconds[task] = strtod(e->data + 1, &after);
        while (after && *after == ' ') after++;
        if (after && after < nl && *after != '-') {
            r->hash[task] = strtoull(after, NULL, 16);
            r->has_hash[task] = true;
        }
        size_t n = e->len - (size_t)(nl + 1 - e->data);
        r->text[task] = nav_malloc(n + 1);
        if (r->text[task]) memcpy(r->text[task], nl + 1, n), r->text[task][n] = '\0';
        r->ok[task] = e->code == 0;
    } else {
        r->text[task] = crash_report(r->l->paths[task], e);
        r->ok[task] = false;
    }
    r->finished[task] = true;
    for (; r->printed < r->l->count && r->finished[r->printed]; r->printed++) {
        int i = r->printed;
        if (r->res) {
            r->res->text[i] = r->text[i];
            r->res->ok[i] = r->ok[i];
            r->res->seconds[i] = r->seconds[i];
            r->res->has_hash[i] = r->has_hash[i];
            r->res->hash[i] = r->hash[i];
            r->text[i] = NULL;
        }
        const char *text = r->res ? r->res->text[i] : r->text[i];
        if (r->a->json) {
            /* printed as JSON at the end */
        } else if (text) {
            fputs(text, r->cx->out);
        } else {
            fprintf(r->cx->out, "%s  %s (out of memory for its report)\n", r->ok[i] ? "ok  " : "FAIL", r->l->paths[i]);
        }
        fflush(r->cx->out);
        if (r->ok[i]) r->passed++;
        else r->failed++;
    }
}

/* Runs every file, at most jobs at once (in this process with one job);
** reports are printed in file order as soon as all before them are in. */
static void run_all(const CliContext *cx, const TestArgs *a, const FileList *l, int *passed, int *failed, Results *res)
{
    size_t n = (size_t)l->count;
    Run r = { .cx = cx, .a = a, .l = l, .res = res };
    r.text = nav_calloc(n, sizeof *r.text);
    r.ok = nav_calloc(n, sizeof *r.ok);
    r.finished = nav_calloc(n, sizeof *r.finished);
    r.seconds = nav_calloc(n, sizeof *r.seconds);
    r.has_hash = nav_calloc(n, sizeof *r.has_hash);
    r.hash = nav_calloc(n, sizeof *r.hash);
    if (r.text && r.ok && r.finished && r.seconds && r.has_hash && r.hash) {
        fflush(cx->out);
        fflush(cx->err);
        jobs_run(&(JobsDesc){ .count = l->count,
                              .at_once = a->jobs,
                              .seconds = TEST_CHILD_SECONDS,
                              .work = test_work,
                              .done = test_done,
                              .user = &r });
    } else {
        fprintf(cx->err, "navbot test: out of memory\n");
        r.failed = l->count;
    }
    *passed += r.passed;
    *failed += r.failed;
    if (r.text)
        for (size_t i = 0; i < n; i++) nav_free(r.text[i]);
    nav_free(r.text), nav_free(r.ok), nav_free(r.finished), nav_free(r.seconds);
    nav_free(r.has_hash), nav_free(r.hash);
}

/* }======= */

static int parse_args(const CliContext *cx, int argc, char **argv, TestArgs *a);

/* --json: { "scenarios": [ { name, file, passed, seconds, failures }, ... ],
** "passed": N, "failed": N }. A scenario's failures are the lines of its
** report after the first (what failed, where, the bot, the log, the
** picture and trace kept), empty when it passed. */
static void write_json(const CliContext *cx, const FileList *l, const Results *res, int passed, int failed)
{
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "scenarios");
    json_array_begin(&j);
    for (int i = 0; i < l->count; i++) {
        char name[256];
        scenario_name(l->paths[i], name, sizeof name);
        json_object_begin(&j);
        json_key(&j, "name"), json_string(&j, name);
        json_key(&j, "file"), json_string(&j, l->paths[i]);
        json_key(&j, "passed"), json_bool(&j, res->ok[i]);
        json_key(&j, "seconds"), json_number(&j, res->seconds[i]);
        json_key(&j, "failures");
        json_array_begin(&j);
        const char *t = res->text[i];
        const char *nl = t ? strchr(t, '\n') : NULL;
        for (const char *p = nl ? nl + 1 : NULL; !res->ok[i] && p && *p;) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            const char *q = p;
            while (q < p + n && *q == ' ') q++;
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)(p + n - q), q);
            if (line[0]) json_string(&j, line);
            p = e ? e + 1 : p + n;
        }
        /* A failure with no detail (the first line says it all). */
        if (!res->ok[i] && t && (!nl || !nl[1])) {
            char line[1024];
            snprintf(line, sizeof line, "%.*s", nl ? (int)(nl - t) : (int)strlen(t), t);
            json_string(&j, line);
        }
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "passed"), json_int(&j, passed);
    json_key(&j, "failed"), json_int(&j, failed);
    json_object_end(&j);
    json_finish(&j);
}

static void results_free(Results *res, int count)
{
    for (int i = 0; i < count; i++) nav_free(res->text[i]);
    nav_free(res->text), nav_free(res->ok), nav_free(res->seconds), nav_free(res->has_hash), nav_free(res->hash);
}

/* --report DIR: DIR/index.html over the results (the pictures are in DIR
** already, drawn by each scenario's run). */
static bool write_report(const CliContext *cx, const TestArgs *a, const FileList *l, const Results *res)
{
    ScenarioReportRow *rows = nav_calloc((size_t)l->count, sizeof *rows);
    char(*names)[256] = nav_calloc((size_t)l->count, sizeof *names);
    bool ok = rows && names;
    char why[1200] = "out of memory";
    for (int i = 0; ok && i < l->count; i++) {
        scenario_name(l->paths[i], names[i], sizeof names[i]);
        rows[i] = (ScenarioReportRow){ .name = names[i],
                                       .file = l->paths[i],
                                       .passed = res->ok[i],
                                       .seconds = res->seconds[i],
                                       .has_hash = res->has_hash[i],
                                       .hash = res->hash[i],
                                       .text = res->text[i] };
    }
    if (ok) ok = scenario_report_write(a->report, rows, l->count, why, sizeof why);
    if (ok) fprintf(cx->err, "navbot test: report written to %s/index.html\n", a->report);
    else fprintf(cx->err, "navbot test: --report: %s\n", why);
    nav_free(rows);
    nav_free(names);
    return ok;
}

static bool make_dirs(const char *path)
{
    char buf[TEST_PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

static int run_test(const CliContext *cx, int argc, char **argv)
{
    TestArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) {
        nav_free(a.files);
        return rc;
    }
    FileList l = { 0 };
    if ((rc = collect(cx, &a, &l)) != CLI_OK) {
        nav_free(a.files);
        return rc;
    }
    int passed = 0, failed = 0;
    Results res = { 0 }, *rp = NULL;
    if ((a.json || a.report) && l.count > 0) {
        res.text = nav_calloc((size_t)l.count, sizeof *res.text);
        res.ok = nav_calloc((size_t)l.count, sizeof *res.ok);
        res.seconds = nav_calloc((size_t)l.count, sizeof *res.seconds);
        res.has_hash = nav_calloc((size_t)l.count, sizeof *res.has_hash);
        res.hash = nav_calloc((size_t)l.count, sizeof *res.hash);
        if (!res.text || !res.ok || !res.seconds || !res.has_hash || !res.hash) {
            fprintf(cx->err, "navbot test: out of memory\n");
            results_free(&res, 0);
            list_free(&l);
            nav_free(a.files);
            return CLI_BAD_INPUT;
        }
        rp = &res;
    }
    if (l.count == 0) {
        fprintf(cx->err, "navbot test: no scenario to run%s%s%s\n", a.filter ? " (--filter '" : "",
                a.filter ? a.filter : "", a.filter ? "' matches none)" : "");
        rc = CLI_BAD_INPUT;
    } else if (!make_dirs(a.keep)) {
        fprintf(cx->err, "navbot test: --keep %s: cannot make the folder: %s\n", a.keep, strerror(errno));
        rc = CLI_BAD_INPUT;
        failed = l.count;
    } else if (a.report && !make_dirs(a.report)) {
        fprintf(cx->err, "navbot test: --report %s: cannot make the folder: %s\n", a.report, strerror(errno));
        rc = CLI_BAD_INPUT;
        failed = l.count;
    } else {
        run_all(cx, &a, &l, &passed, &failed, rp);
        if (a.report && !write_report(cx, &a, &l, rp)) rc = CLI_BAD_INPUT;
    }
    if (a.json && rp) write_json(cx, &l, rp, passed, failed);
    else fprintf(cx->out, "%d passed, %d failed\n", passed, failed);
    if (rp) results_free(rp, l.count);
    list_free(&l);
    nav_free(a.files);
    if (rc != CLI_OK) return rc;
    return failed ? CLI_BAD_INPUT : CLI_OK;
}

static int parse_args(const CliContext *cx, int argc, char **argv, TestArgs *a)
{
    memset(a, 0, sizeof *a);
    a->keep = TEST_DEFAULT_KEEP;
    a->root = NULL;
    a->lua_path = cx->lua_path;
    a->jobs = 1;
    a->files = nav_calloc((size_t)argc + 1, sizeof *a->files);
    if (!a->files) {
        fprintf(cx->err, "navbot test: out of memory\n");
        return CLI_BAD_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        uint32_t u;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if (strcmp(argv[i], "--update-golden") == 0) {
            a->update_golden = true;
        } else if ((r = cli_take_value("--filter", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !*val) return cli_usage_error(cx, &cli_cmd_test, "--filter needs a PATTERN");
            a->filter = val;
        } else if ((r = cli_take_value("--jobs", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > TEST_MAX_JOBS)
                return cli_usage_error(cx, &cli_cmd_test, "--jobs needs a whole number from 1 to %d", TEST_MAX_JOBS);
            a->jobs = (int)u;
        } else if ((r = cli_take_value("--keep", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !*val) return cli_usage_error(cx, &cli_cmd_test, "--keep needs a folder");
            a->keep = val;
        } else if ((r = cli_take_value("--report", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !*val) return cli_usage_error(cx, &cli_cmd_test, "--report needs a folder");
            a->report = val;
        } else if ((r = cli_take_value("--root", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !*val) return cli_usage_error(cx, &cli_cmd_test, "--root needs a folder");
            a->root = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_test, "unknown option '%s'", argv[i]);
        } else {
            a->files[a->file_count++] = argv[i];
        }
    }
    return CLI_OK;
}

const CliCommand cli_cmd_test = {
    .name = "test",
    .summary = "run regression scenarios (tests/scenarios) headless; check their golden trace hashes",
    .usage = "navbot test [FILES...] [--filter PATTERN] [--jobs N] [--update-golden] [--keep DIR] [--report DIR]\n"
             "                   [--root DIR] [--json]",
    .help = "Runs scenario files (Lua, written with lua/scenario.lua: see docs/scenarios.md):\n"
            "each chooses a map, seed and bots with brains and goals, changes the world while\n"
            "they run (obstacles, doors, elevators, goals, brain reloads, faults) and states\n"
            "what must hold (arrives within T, uses or never uses a travel type, never enters\n"
            "water, never stuck, no faults, no overlaps, near the routed optimum, and checks\n"
            "of its own). One line per scenario: ok or FAIL, simulated and wall time; the\n"
            "last line is exactly `N passed, N failed`.\n"
            "\n"
            "  FILES              scenario files or folders of them (default: every\n"
            "                     tests/scenarios/*.lua)\n"
            "  --filter PATTERN   only scenarios whose name holds PATTERN, or matches it as\n"
            "                     a glob when it has * ? or [ (door, 'travel_*')\n"
            "  --jobs N           run N scenarios at once, each in its own process (stopped\n"
            "                     after 10 minutes of wall time); default 1: one after the\n"
            "                     other, in this process\n"
            "  --update-golden    write each passing scenario's trace hash to its golden\n"
            "                     file, NAME.hash beside NAME.lua (after reviewing a change)\n"
            "  --keep DIR         where failures leave NAME.png and NAME.trace, and where\n"
            "                     temporary brain copies go (default build/scenarios)\n"
            "  --report DIR       also write DIR/index.html: a row per scenario with its\n"
            "                     result, wall time, trace hash, what failed, the picture\n"
            "                     of the failure (routes, goals, the place and tick marked)\n"
            "                     or a thumbnail of a passing run's last tick, and the\n"
            "                     command that replays it; plain HTML and PNG files beside\n"
            "                     it, relative links, no scripts (the folder is made)\n"
            "  --root DIR         the folder holding maps/, lua/ and bots/ (default: navbot's\n"
            "                     own, beside the executable); FILES default to\n"
            "                     ROOT/tests/scenarios, or tests/scenarios here\n"
            "  --json             print one JSON object instead of the report: scenarios[]\n"
            "                     (name, file, passed, seconds of wall time, failures: the\n"
            "                     report's lines), passed, failed\n"
            "  --lua-path DIR     look for modules and brains in DIR too (repeatable; then\n"
            "                     NAVBOT_PATH's folders, colon-separated)\n"
            "\n"
            "A scenario fails when an expectation fails (the report names it with its file\n"
            "and line, the bot, the tick, the bot's position and state, and the last lines\n"
            "of the run's log), when its trace hash differs from its golden file (naming\n"
            "the first tick where the run parts from the per-tick hashes the file keeps),\n"
            "when the golden file is missing, or when the file cannot run (the error names\n"
            "its line).\n"
            "A failure leaves a picture of that moment (DIR/NAME.png) and the run's trace\n"
            "(DIR/NAME.trace: `navbot replay DIR/NAME.trace --tick N` shows it).\n"
            "\n"
            "Exit status: 0 every scenario passed, 1 one or more failed (or none was\n"
            "found), 2 bad usage.\n"
            "\n"
            "Examples:\n"
            "  navbot test\n"
            "  navbot test --jobs 2\n"
            "  navbot test tests/scenarios/travel_swim.lua\n"
            "  navbot test --filter door\n"
            "  navbot test --filter 'travel_*' --jobs 2\n"
            "  navbot test --filter travel_ladder --report build/report\n"
            "  navbot test --update-golden tests/scenarios/travel_swim.lua\n",
    .run = run_test,
};

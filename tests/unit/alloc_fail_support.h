/*
** alloc_fail_support.h — the failing allocator of the allocation-failure
** tests (test_alloc_fail.c, test_alloc_fail_sim.c) and the loop that
** fails an operation's allocations one after the other.
**
** An operation is a setup (not metered: it allocates freely), a run under
** the failing allocator, a check of the state afterwards (again not
** metered) and a teardown. alloc_fail_each first runs it with nothing
** failing, which counts its allocations; then, for N = 1, 2, ..., it
** runs it again with allocation N failing (and, in the "every" mode,
** every one after N too), until a run ends before reaching allocation N.
** Past ALLOC_FAIL_DENSE it samples every ALLOC_FAIL_STRIDE-th N (plus the
** last few; an op may set its own), to keep the suite's time down on
** operations that allocate thousands of times.
**
** Every run under failure must: end (no crash: a crash fails the test in
** Criterion), return success or NAV_E_NOMEM (the op decides what else it
** accepts, e.g. a bot faulted with an out-of-memory message), give the
** same answer as the run with nothing failing when it says it succeeded,
** leave the state usable (the op's check), and leave no block allocated
** after teardown (the hook's live count after each run, and LeakSanitizer
** over the whole heap after each operation in the sanitize build).
*/
#ifndef ALLOC_FAIL_SUPPORT_H
#define ALLOC_FAIL_SUPPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "test_support.h"

#define ALLOC_FAIL_DENSE 300
#define ALLOC_FAIL_STRIDE 7

/* {======= the allocator ======= */

typedef struct FailAllocator {
    bool metering; /* count and fail only while an op runs */
    long calls;    /* allocations and resizes counted */
    long fail_at;  /* 0: none fails */
    bool only;     /* fail only allocation fail_at, not those after it */
    long failed;   /* refused so far */
} FailAllocator;

static FailAllocator fail_alloc;

static void *fail_alloc_fn(void *user, void *ptr, size_t size)
{
    FailAllocator *f = user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (f->metering) {
        f->calls++;
        if (f->fail_at > 0 && (f->calls == f->fail_at || (!f->only && f->calls > f->fail_at))) {
            f->failed++;
            return NULL;
        }
    }
    return realloc(ptr, size);
}

static inline void fail_alloc_install(void)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(nav_set_allocator(&(NavAllocator){ .fn = fail_alloc_fn, .user = &fail_alloc }, &err)), "%s",
              err.message);
}

/* }======= */

/* {======= the loop ======= */

typedef struct FailOp {
    const char *name;
    /* Make the state the run works on (unmetered); returns it. */
    void *(*setup)(void);
    /* The operation. NAV_OK, or a failure with err set. */
    NavStatus (*run)(void *ctx, NavError *err);
    /* After the run (unmetered): ok says whether it succeeded, failed
    ** whether an allocation was refused on the way. Checks that a success
    ** is the right answer and that the state is usable either way. */
    void (*check)(void *ctx, bool ok, bool failed);
    void (*teardown)(void *ctx);
    /* Statuses besides NAV_E_NOMEM a run may fail with when an
    ** allocation was refused (a documented error), 0 for none. */
    NavStatus also;
    /* Every N up to this one, then sampled (0: ALLOC_FAIL_DENSE), for
    ** operations whose failing runs are slow. */
    long dense;
    long stride; /* past dense, try every stride-th N (0: ALLOC_FAIL_STRIDE) */
} FailOp;

typedef struct FailReport {
    long allocations; /* in the run with nothing failing */
    long tried;       /* runs with a failure */
    long last;        /* the highest N tried */
} FailReport;

/* "allocation N refused (every)" for the run in progress, for messages. */
static inline const char *fail_where(void)
{
    static char buf[64];
    if (fail_alloc.fail_at == 0) return "nothing refused";
    snprintf(buf, sizeof buf, "allocation %ld refused (%s)", fail_alloc.fail_at, fail_alloc.only ? "only" : "every");
    return buf;
}

static inline bool says_out_of_memory(const char *msg)
{
    return strstr(msg, "out of memory") || strstr(msg, "not enough memory");
}

static inline long fail_next(const FailOp *op, long n, long total)
{
    long stride = op->stride ? op->stride : ALLOC_FAIL_STRIDE;
    if (n < (op->dense ? op->dense : ALLOC_FAIL_DENSE) || n + stride > total) return n + 1;
    return n + stride;
}

/* One run with allocation n failing (0: none); true when it succeeded. */
static inline bool fail_run_once(const FailOp *op, long n, bool only, long *calls, bool *failed)
{
    size_t live = nav_alloc_live();
    /* NAVBOT_ALLOC_FAIL_TRACE=1: name each run before it starts, to find
    ** the one that crashes. */
    static int trace = -1;
    if (trace < 0) trace = getenv("NAVBOT_ALLOC_FAIL_TRACE") != NULL;
    if (trace) fprintf(stderr, "alloc_fail: %s: allocation %ld refused (%s)\n", op->name, n, only ? "only" : "every");
    void *ctx = op->setup();
    NavError err;
    nav_error_clear(&err);
    fail_alloc = (FailAllocator){ .metering = true, .fail_at = n, .only = only };
    NavStatus st = op->run(ctx, &err);
    fail_alloc.metering = false;
    *calls = fail_alloc.calls;
    *failed = fail_alloc.failed > 0;
    bool ok = NAV_SUCCEEDED(st);
    const char *mode = only ? "only" : "every";
    if (!ok) {
        cr_assert(*failed, "%s: failed with nothing refused: %s", op->name, err.message);
        cr_assert(st & (NAV_E_NOMEM | op->also), "%s: allocation %ld refused (%s): status %#x, not out of memory: %s",
                  op->name, n, mode, (unsigned)st, err.message);
        if (st & NAV_E_NOMEM)
            cr_assert(says_out_of_memory(err.message), "%s: allocation %ld refused (%s): the message says %s", op->name,
                      n, mode, err.message);
    }
    op->check(ctx, ok, *failed);
    op->teardown(ctx);
    cr_assert_eq(nav_alloc_live(), live, "%s: allocation %ld refused (%s): %zu blocks leaked", op->name, n, mode,
                 nav_alloc_live() - live);
    return ok;
}

/* Every N in turn (sampled past ALLOC_FAIL_DENSE), in both modes. */
static inline FailReport alloc_fail_each(const FailOp *op)
{
    fail_alloc_install();
    FailReport rep = { 0 };
    bool failed;
    cr_assert(fail_run_once(op, 0, false, &rep.allocations, &failed), "%s: fails with nothing refused", op->name);
    cr_assert_gt(rep.allocations, 0, "%s: allocates nothing", op->name);
    for (int mode = 0; mode < 2; mode++) {
        for (long n = 1;; n = fail_next(op, n, rep.allocations)) {
            long calls;
            fail_run_once(op, n, mode == 1, &calls, &failed);
            rep.tried++;
            if (n > rep.last) rep.last = n;
            if (!failed) break; /* the run ended before allocation n */
        }
    }
    /* Every block goes through the hook, so the live count above is the
    ** leak check of each run; LeakSanitizer's (slow) look at the whole
    ** heap once per operation catches anything allocated around it. */
    NAV_TEST_LEAK_CHECK();
    printf("alloc_fail: %-40s %7ld allocations, %6ld failing runs, N up to %ld\n", op->name, rep.allocations, rep.tried,
           rep.last);
    fflush(stdout);
    return rep;
}

/* }======= */

#endif

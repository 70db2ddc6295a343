/*
** test_alloc_fail_trace.c — reading, indexing and posing a run trace
** (run_trace.h) with each allocation refused in turn: the load fails
** saying out of memory or succeeds whole, and posing a loaded trace never
** crashes (short of memory it poses the bodies only).
*/
#include "alloc_fail_support.h"

#include "map/map.h"
#include "script/run_trace.h"
#include "sim/sim_debug.h"

TestSuite(trace_alloc_fail, .init = fail_alloc_install);

typedef struct TraceCtx {
    NavWorld *w;
    RunTrace *t;
    NavSim *sim;
} TraceCtx;

static TraceCtx trace_ctx;

static void *trace_setup(void) { return &trace_ctx; }

/* The seed with every version 3 record: load, make the replay's sim,
** pose every frame, seek back, and pose from the start. */
static NavStatus trace_run(void *ctx, NavError *err)
{
    TraceCtx *c = ctx;
    c->t = run_trace_load("tests/fuzz/corpus/trace/every-record-v3.trace", err);
    if (!c->t) return err->status;
    c->sim = run_trace_sim(c->t, c->w, err);
    if (!c->sim) return err->status;
    for (uint32_t f = 0; f < c->t->frame_count; f++) run_trace_pose(c->t, f, c->sim);
    run_trace_pose(c->t, 0, c->sim);
    run_trace_pose_from_start(c->t, c->t->frame_count - 1, c->sim);
    return NAV_OK;
}

static void trace_check(void *ctx, bool ok, bool failed)
{
    TraceCtx *c = ctx;
    (void)failed;
    if (!ok) return;
    cr_assert_eq(c->t->frame_count, 4);
    cr_assert_eq(c->t->key_count, 1);
    cr_assert_eq(sim_tick(c->sim), 4);
}

static void trace_teardown(void *ctx)
{
    TraceCtx *c = ctx;
    sim_destroy(c->sim);
    run_trace_destroy(c->t);
    c->sim = NULL;
    c->t = NULL;
}

Test(trace_alloc_fail, load_index_and_pose)
{
    TraceCtx *c = &trace_ctx;
    NavError err;
    nav_error_clear(&err);
    c->w = map_load_file("maps/arena.lua", NULL, &err);
    cr_assert_not_null(c->w, "%s", err.message);
    alloc_fail_each(&(FailOp){ .name = "trace: load, index, pose, seek",
                               .setup = trace_setup,
                               .run = trace_run,
                               .check = trace_check,
                               .teardown = trace_teardown });
    world_destroy(c->w);
}

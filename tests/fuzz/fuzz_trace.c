/*
** fuzz_trace.c — run traces (run_trace.h: what `navbot run --trace`
** writes and `navbot replay` reads). The input is the trace file; one that
** loads is replayed on maps/arena.lua: every frame's pose (up to a cap)
** put on a simulation, as the replay window does, then seeks back and
** across the record's keys (routes, intents, drawings and goal queues of
** version 3 included).
*/
#include "fuzz_support.h"

#include "script/run_trace.h"

static NavWorld *world;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) world = fuzz_load_map("maps/arena.lua");
    char path[512];
    snprintf(path, sizeof path, "%s/input.trace", fuzz_scratch());
    fuzz_write_file(path, data, size);
    NavError err;
    nav_error_clear(&err);
    RunTrace *t = run_trace_load(path, &err);
    if (!t) {
        fuzz_must_say_why(&err);
        return 0;
    }
    (void)run_trace_frame_at(t, 0);
    if (t->frame_count) (void)run_trace_frame_at(t, t->frames[t->frame_count - 1].tick + 1);
    NavSim *sim = run_trace_sim(t, world, &err);
    if (sim) {
        for (uint32_t f = 0; f < t->frame_count && f < 64; f++) run_trace_pose(t, f, sim);
        if (t->frame_count) {
            run_trace_pose(t, t->frame_count - 1, sim);
            run_trace_pose(t, 0, sim);
            run_trace_pose(t, t->frame_count / 2, sim);
            run_trace_pose(t, t->frame_count + 7, sim);
        }
        sim_destroy(sim);
    } else {
        fuzz_must_say_why(&err);
    }
    run_trace_destroy(t);
    return 0;
}

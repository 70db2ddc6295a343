/*
** cmd_bench_replay.c — `navbot bench replay TRACE`: what seeking in a
** recorded run costs. Loads and indexes the trace, then poses it as the
** replay window does: to the last tick and back to the first, --seeks
** times, and every tick in order; each with the index (run_trace_pose)
** and, as the baseline in the same run, reading every change from the
** start (run_trace_pose_from_start), with the ratio.
**
** DOES NOT: judge (timings never fail a run) or draw.
*/
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/timer.h"
#include "script/run_trace.h"

typedef void (*PoseFn)(const RunTrace *t, uint32_t frame, NavSim *sim);

/* Milliseconds for `seeks` round trips, last tick and back to the first. */
static double time_seeks(const RunTrace *t, NavSim *sim, PoseFn pose, uint32_t seeks)
{
    pose(t, 0, sim);
    uint64_t t0 = timer_now_ns();
    for (uint32_t k = 0; k < seeks; k++) {
        pose(t, t->frame_count - 1, sim);
        pose(t, 0, sim);
    }
    return timer_ms_since(t0);
}

/* Milliseconds to pose every frame in order (playing the whole record). */
static double time_play(const RunTrace *t, NavSim *sim, PoseFn pose)
{
    uint64_t t0 = timer_now_ns();
    for (uint32_t f = 0; f < t->frame_count; f++) pose(t, f, sim);
    return timer_ms_since(t0);
}

int bench_replay_run(const CliContext *cx, int argc, char **argv); /* cmd_bench.c calls it */
int bench_replay_run(const CliContext *cx, int argc, char **argv)
{
    const CliCommand *cmd = &cli_cmd_bench;
    const char *trace = NULL, *map = NULL, *val;
    uint32_t seeks = 20;
    for (int i = 2; i < argc; i++) {
        int r;
        if ((r = cli_take_value("--seeks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &seeks) || seeks == 0 || seeks > 100000)
                return cli_usage_error(cx, cmd, "--seeks needs a whole number from 1 to 100000");
        } else if ((r = cli_take_value("--map", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--map needs a map file");
            map = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, cmd, "bench replay: unknown option '%s'", argv[i]);
        } else if (!trace) {
            trace = argv[i];
        } else {
            return cli_usage_error(cx, cmd, "bench replay: one trace only (got '%s' and '%s')", trace, argv[i]);
        }
    }
    if (!trace) return cli_usage_error(cx, cmd, "bench replay: which trace? (navbot sim or run --trace FILE)");
    NavError e;
    nav_error_clear(&e);
    uint64_t t0 = timer_now_ns();
    RunTrace *t = run_trace_load(trace, &e);
    double load_ms = timer_ms_since(t0);
    if (!t) {
        cli_print_error(cx, "bench", &e);
        return CLI_BAD_INPUT;
    }
    int rc = CLI_OK;
    NavSim *sim = NULL;
    NavWorld *w = cli_load_map(cx, "bench", map ? map : t->map, &e);
    if (!w || !(sim = run_trace_sim(t, w, &e))) {
        if (w) cli_print_error(cx, "bench", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    fprintf(cx->out, "%s: %u ticks, %u bots, %u changes; loaded and indexed in %.0f ms (%u keys, one every %u ticks)\n",
            trace, t->frame_count, t->bot_count, t->event_count, load_ms, t->key_count, (unsigned)RUN_TRACE_KEY_EVERY);
    double seek_keyed = time_seeks(t, sim, run_trace_pose, seeks);
    double seek_start = time_seeks(t, sim, run_trace_pose_from_start, seeks);
    fprintf(
        cx->out,
        "seek to the end and back x%u: %.2f ms indexed, %.2f ms from the start (%.1fx); per seek %.3f ms, %.3f ms\n",
        seeks, seek_keyed, seek_start, seek_keyed > 0 ? seek_start / seek_keyed : 0.0, seek_keyed / (2.0 * seeks),
        seek_start / (2.0 * seeks));
    double play_keyed = time_play(t, sim, run_trace_pose);
    double play_start = time_play(t, sim, run_trace_pose_from_start);
    fprintf(cx->out, "play every tick in order: %.0f ms indexed, %.0f ms from the start (%.1fx)\n", play_keyed,
            play_start, play_keyed > 0 ? play_start / play_keyed : 0.0);
done:
    sim_destroy(sim);
    world_destroy(w);
    run_trace_destroy(t);
    return rc;
}

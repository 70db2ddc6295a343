/*
** run_plot.h — `navbot run ... --plot FILE.png`: the run's time per tick,
** split into Lua, routing, grid queries and movement (stacked, on the left
** axis), and the number of bots arrived (on the right axis), over the
** simulated time.
**
** The times are the session's own per-tick measurements (session_times),
** read after each tick: they are only written down here, never fed back
** into the simulation, so a run with --plot is the same run (the same trace
** hash) as one without.
*/
#ifndef NAV_RUN_PLOT_H
#define NAV_RUN_PLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"
#include "script/session.h"

typedef struct RunPlot {
    double *lua, *route, *grid, *move, *arrived; /* per tick, ms and bots */
    uint32_t n, cap;
    bool nomem; /* ticks were left out for want of memory */
} RunPlot;

/* The tick session_step just ran. */
void run_plot_tick(RunPlot *p, NavSession *s);
void run_plot_free(RunPlot *p);

/* The chart of the ticks recorded, titled after map, to path (PNG). */
NavStatus run_plot_write(const RunPlot *p, NavSession *s, const char *map, const char *path, NavError *err);

#endif

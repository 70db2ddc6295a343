/*
** run_plot.c — the chart of a run (run_plot.h), drawn by
** render/render_plot.h.
*/
#include "cli/run_plot.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "render/render_plot.h"

#define RUN_PLOT_W 1200
#define RUN_PLOT_H 600

static bool grow(RunPlot *p)
{
    uint32_t cap = p->cap ? 2 * p->cap : 1024;
    double **arr[] = { &p->lua, &p->route, &p->grid, &p->move, &p->arrived };
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++) {
        double *more = nav_realloc_array(*arr[k], cap, sizeof *more);
        if (!more) return false;
        *arr[k] = more;
    }
    p->cap = cap;
    return true;
}

void run_plot_tick(RunPlot *p, NavSession *s)
{
    if (p->nomem) return;
    if (p->n == p->cap && !grow(p)) {
        p->nomem = true;
        return;
    }
    NavSessionTimes t;
    session_times(s, &t);
    NavSim *sim = session_sim(s);
    uint32_t arrived = 0;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) arrived += sim_bot_arrived(sim, i);
    uint32_t i = p->n++;
    p->lua[i] = t.lua_ms;
    p->route[i] = t.path_ms > t.grid_ms ? t.path_ms - t.grid_ms : 0.0;
    p->grid[i] = t.grid_ms;
    p->move[i] = t.move_ms;
    p->arrived[i] = arrived;
}

void run_plot_free(RunPlot *p)
{
    nav_free(p->lua), nav_free(p->route), nav_free(p->grid), nav_free(p->move), nav_free(p->arrived);
    memset(p, 0, sizeof *p);
}

static double mean(const double *v, uint32_t n)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++) sum += v[i];
    return n ? sum / n : 0.0;
}

NavStatus run_plot_write(const RunPlot *p, NavSession *s, const char *map, const char *path, NavError *err)
{
    NavSim *sim = session_sim(s);
    double hz = 1.0 / sim_dt(sim);
    uint32_t bots = sim_bot_count(sim);
    double lua = mean(p->lua, p->n), route = mean(p->route, p->n), grid = mean(p->grid, p->n),
           move = mean(p->move, p->n);
    char title[256], sub[512];
    const char *base = strrchr(map, '/');
    snprintf(title, sizeof title, "navbot run %s: time per tick", base ? base + 1 : map);
    snprintf(sub, sizeof sub,
             "%u bot%s, %u ticks at %.0f Hz; mean tick %.3f ms: Lua %.3f, routing %.3f, grid %.3f, movement %.3f; "
             "%.0f of %u arrived%s",
             bots, bots == 1 ? "" : "s", p->n, hz, lua + route + grid + move, lua, route, grid, move,
             p->n ? p->arrived[p->n - 1] : 0.0, bots, p->nomem ? " (later ticks left out: out of memory)" : "");
    PlotChart c = {
        .kind = PLOT_LINES,
        .title = title,
        .subtitle = sub,
        .unit = "ms per tick (wall)",
        .right_unit = "bots arrived",
        .x_unit = "simulated seconds",
        .count = (int)p->n,
        .x0 = 1.0 / hz,
        .dx = 1.0 / hz,
        .series_count = 5,
        .series = { { .name = "Lua brains", .values = p->lua, .stacked = true, .color = plot_color(0) },
                    { .name = "routing", .values = p->route, .stacked = true, .color = plot_color(1) },
                    { .name = "grid queries", .values = p->grid, .stacked = true, .color = plot_color(5) },
                    { .name = "movement", .values = p->move, .stacked = true, .color = plot_color(3) },
                    { .name = "bots arrived", .values = p->arrived, .right = true, .color = plot_color(2) } },
    };
    return plot_write_png(&c, RUN_PLOT_W, RUN_PLOT_H, path, err);
}

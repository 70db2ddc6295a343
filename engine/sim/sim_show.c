/*
** sim_show.c — what bots intend, kept for display (sim.h, "What bots
** intend"). Records are made per bot on first use, only while enabled, so
** a crowd that nobody watches allocates nothing and pays one branch per
** call.
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "grid/grid_search.h"
#include "sim/sim_internal.h"

void sim_show_enable(NavSim *sim, bool on) { sim->show_on = on; }
bool sim_show_enabled(const NavSim *sim) { return sim->show_on; }

SimBotShow *sim_show_bot(NavSim *sim, uint32_t id)
{
    if (!sim->show_on || id >= sim->bot_count) return NULL;
    if (id >= sim->show_cap) {
        uint32_t cap = sim->show_cap ? sim->show_cap : 16;
        while (cap <= id) cap *= 2;
        SimBotShow **n = nav_realloc(sim->show, cap * sizeof *n);
        if (!n) return NULL;
        memset(n + sim->show_cap, 0, (cap - sim->show_cap) * sizeof *n);
        sim->show = n;
        sim->show_cap = cap;
    }
    SimBotShow *s = sim->show[id];
    if (!s) {
        s = nav_calloc(1, sizeof *s);
        if (!s) return NULL;
        s->cls = sim->bots[id].cls;
        s->tick = sim->tick;
        sim->show[id] = s;
    }
    if (s->tick != sim->tick) {
        s->tick = sim->tick;
        s->req_count = 0;
        s->trace_count = 0;
    }
    return s;
}

const SimBotShow *sim_show_peek(const NavSim *sim, uint32_t id) { return id < sim->show_cap ? sim->show[id] : NULL; }

void sim_show_free(NavSim *sim)
{
    for (uint32_t i = 0; i < sim->show_cap; i++) nav_free(sim->show[i]);
    nav_free(sim->show);
    sim->show = NULL;
    sim->show_cap = 0;
}

/*
** sim_marks.c — what brains draw for debugging (sim.h, "debug drawings"),
** where bots face, and which bots touched: display and events only,
** nothing here moves a bot or enters the trace hash.
*/
#include "sim/sim_internal.h"
#include "sim/sim_debug.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= marks ======= */

/* Drop the marks past their time, keeping the order of the rest. */
static void prune(NavSim *sim)
{
    double now = sim_time(sim);
    uint32_t k = 0;
    for (uint32_t i = 0; i < sim->mark_count; i++)
        if (sim->marks[i].until + 1e-9 >= now) sim->marks[k++] = sim->marks[i];
    sim->mark_count = k;
}

bool sim_mark_add(NavSim *sim, const SimMark *m)
{
    if (!sim_show_enabled(sim)) return false;
    prune(sim);
    return sim_mark_push(sim, m);
}

bool sim_mark_push(NavSim *sim, const SimMark *m)
{
    if (sim->mark_count == SIM_MARKS_MAX) return false;
    if (sim->mark_count == sim->mark_cap) {
        uint32_t cap = sim->mark_cap ? 2 * sim->mark_cap : 64;
        SimMark *grown = nav_realloc(sim->marks, cap * sizeof *grown);
        if (!grown) return false;
        sim->marks = grown;
        sim->mark_cap = cap;
    }
    sim->marks[sim->mark_count++] = *m;
    return true;
}

uint32_t sim_mark_count(const NavSim *sim) { return sim->mark_count; }

const SimMark *sim_mark_at(const NavSim *sim, uint32_t i) { return i < sim->mark_count ? &sim->marks[i] : NULL; }

void sim_marks_clear(NavSim *sim) { sim->mark_count = 0; }

void sim_marks_free(NavSim *sim)
{
    nav_free(sim->marks);
    sim->marks = NULL;
    sim->mark_count = sim->mark_cap = 0;
}

/* }======= */

void sim_face_bot(NavSim *sim, NavBot *b)
{
    (void)sim;
    const NavBotControl *c = &b->control;
    float dx = c->look_at[0] - b->pos[0], dy = c->look_at[1] - b->pos[1];
    if (c->look && dx * dx + dy * dy > 1e-6f) b->facing = atan2f(dy, dx) * 57.29578f;
    else if (!c->look) b->facing = b->yaw;
}

void sim_note_contact(NavSim *sim, NavBot *b, uint32_t other)
{
    if (other >= sim->bot_count || other == b->id) return;
    NavBot *o = &sim->bots[other];
    if (b->contact < 0 || (uint32_t)b->contact > other) b->contact = (int32_t)other;
    if (o->contact < 0 || (uint32_t)o->contact > b->id) o->contact = (int32_t)b->id;
}

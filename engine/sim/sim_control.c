/*
** sim_control.c — what tests and tools do to a running simulation from
** outside its rules: hold an elevator where it is, find a free spot to put
** a body. Scenarios (scenario/scenario.h) and `navbot run` use these.
**
** DOES NOT: move anything itself; a held elevator is only skipped by the
** entity update in sim.c.
*/
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

bool sim_elevator_hold(NavSim *sim, int index, bool hold)
{
    if (index < 0 || index >= sim->ent_count || world_entity(sim->w, index)->type != NAV_ENTITY_ELEVATOR) return false;
    sim->ent[index].held = hold;
    return true;
}

bool sim_place_free(const NavSim *sim, int cls, const float want[3], int rings, float out[3])
{
    const NavWorld *w = sim->w;
    const NavClass *c = world_class(w, cls);
    if (!c) return false;
    if (rings <= 0) rings = 11;
    float spacing = 2.0f * c->radius + 0.1f;
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    for (int ring = 0; ring <= rings; ring++) {
        int n = ring ? 8 * ring : 1;
        for (int k = 0; k < n; k++) {
            float ang = 6.2831853f * (float)k / (float)n, r = spacing * (float)ring;
            float x = want[0] + r * cosf(ang), y = want[1] + r * sinf(ang);
            const NavFloor *f = world_floor_at(w, x, y, want[2], c->step);
            if (!f || !isfinite(f->z)) continue;
            float p[3] = { x, y, f->z + 0.01f }, zero[3] = { 0, 0, 0 };
            NavTrace tr;
            sim_trace(sim, mins, maxs, p, zero, -1, &tr);
            if (tr.start_solid) continue;
            memcpy(out, p, sizeof p);
            return true;
        }
    }
    return false;
}

/*
** sim_pose.c — setting a simulation to a recorded state, for replays
** (script/run_trace.h): bodies, entities, obstacles and the clock are
** written as given; nothing moves and no rule is checked, because a
** record of a real run already obeyed them.
*/
#include <string.h>

#include "core/alloc.h"
#include "sim/sim_debug.h"
#include "sim/sim_internal.h"

void sim_pose_clock(NavSim *sim, uint64_t tick, uint64_t hash)
{
    sim->tick = tick;
    sim->hash = hash;
}

void sim_pose_bot(NavSim *sim, uint32_t id, const NavBot *st)
{
    if (id >= sim->bot_count) return;
    NavBot *b = &sim->bots[id];
    memcpy(b->pos, st->pos, sizeof b->pos);
    sim_bucket_moved(sim, b);
    sim->buckets.slack = 1e6f; /* anywhere now: every bucket is searched until the next tick */
    memcpy(b->vel, st->vel, sizeof b->vel);
    b->yaw = st->yaw;
    b->facing = st->facing;
    b->on_ground = st->on_ground;
    b->in_water = st->in_water;
    b->on_ladder = st->on_ladder;
    b->crouched = st->crouched;
    b->climbing = st->climbing;
    b->riding = st->riding;
    memcpy(b->say, st->say, sizeof b->say);
    b->goal_count = st->goal_count < 0 ? 0 : st->goal_count > SIM_MAX_GOALS ? SIM_MAX_GOALS : st->goal_count;
    memcpy(b->goals, st->goals, (size_t)b->goal_count * sizeof b->goals[0]);
    /* What the window draws of its control: the facing tick and which
    ** move request won. */
    b->control.look = st->control.look;
    b->control.priority = st->control.priority;
    memcpy(b->control.reason, st->control.reason, sizeof b->control.reason);
}

static int clamp_count(int n, int max) { return n < 0 ? 0 : n > max ? max : n; }

void sim_pose_show(NavSim *sim, uint32_t id, const SimBotShow *st)
{
    if (!st) {
        /* It showed nothing then: no record, as before its first. */
        if (id < sim->show_cap && sim->show[id]) {
            nav_free(sim->show[id]);
            sim->show[id] = NULL;
        }
        return;
    }
    SimBotShow *s = sim_show_bot(sim, id);
    if (!s) return;
    /* The parts in use only: a crowd is posed every frame. */
    s->tick = st->tick;
    s->cls = st->cls;
    s->link_count = clamp_count(st->link_count, SIM_SHOW_ROUTE);
    s->path_count = clamp_count(st->path_count, SIM_SHOW_ROUTE);
    s->detour_count = st->detour_count;
    s->req_count = clamp_count(st->req_count, SIM_SHOW_REQUESTS);
    s->trace_count = clamp_count(st->trace_count, SIM_SHOW_TRACES);
    memcpy(s->links, st->links, (size_t)s->link_count * sizeof s->links[0]);
    memcpy(s->path, st->path, (size_t)s->path_count * sizeof s->path[0]);
    memcpy(s->req, st->req, (size_t)s->req_count * sizeof s->req[0]);
    memcpy(s->traces, st->traces, (size_t)s->trace_count * sizeof s->traces[0]);
}

bool sim_pose_mark(NavSim *sim, const SimMark *m)
{
    /* As sim_mark_add, without dropping marks past their time: a posed
    ** list has none, and a crowd of drawings is posed every frame. */
    return sim_show_enabled(sim) && sim_mark_push(sim, m);
}

void sim_pose_entity(NavSim *sim, int index, float offset, int phase, const float pos[3])
{
    if (index < 0 || index >= sim->ent_count) return;
    NavEntityState *s = &sim->ent[index];
    s->offset = offset;
    s->phase = phase;
    memcpy(s->pos, pos, sizeof s->pos);
}

void sim_pose_clear_obstacles(NavSim *sim)
{
    while (sim->obstacle_count) sim_remove_obstacle(sim, sim->obstacles[sim->obstacle_count - 1].id);
}

bool sim_pose_obstacle(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3])
{
    /* Keep the recorded id (the grid and routers key obstructions by it),
    ** so what the window says matches the record. */
    uint32_t next = sim->next_obstacle;
    sim->next_obstacle = id - 1;
    uint32_t got = sim_add_obstacle(sim, mins, maxs);
    sim->next_obstacle = next > id ? next : id;
    return got != 0;
}

/*
** sim_pose.c — setting a simulation to a recorded state, for replays
** (script/run_trace.h): bodies, entities, obstacles and the clock are
** written as given; nothing moves and no rule is checked, because a
** record of a real run already obeyed them.
*/
#include <string.h>

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
    b->facing = st->yaw; /* records keep no facing */
    b->on_ground = st->on_ground;
    b->in_water = st->in_water;
    b->on_ladder = st->on_ladder;
    b->crouched = st->crouched;
    b->climbing = st->climbing;
    b->riding = st->riding;
    memcpy(b->say, st->say, sizeof b->say);
    b->goal_count = st->goal_count > 0 ? 1 : 0;
    if (b->goal_count) memcpy(b->goals[0], st->goals[0], sizeof b->goals[0]);
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

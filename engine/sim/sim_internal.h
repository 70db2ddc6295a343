/*
** sim_internal.h — the simulation's layout, shared by the sim modules.
*/
#ifndef NAV_SIM_INTERNAL_H
#define NAV_SIM_INTERNAL_H

#include "sim/sim.h"


typedef struct SimObstacle {
    uint32_t id;
    float mins[3], maxs[3];
    uint32_t route_ids[NAV_MAX_CLASSES]; /* per class's router, 0 when none */
} SimObstacle;

/* Bots bucketed by the cell of a coarse grid at the start of each tick,
** so a trace looks only at bots near its sweep. */
typedef struct SimBuckets {
    float cell;                  /* metres */
    int w, h;
    uint32_t *first;             /* per bucket: into order, w * h + 1 */
    uint32_t *order;             /* bot ids by bucket */
    uint32_t *far;               /* bots moved far this tick (teleported): always candidates */
    uint32_t far_count;
} SimBuckets;

/* What sim_goal.c keeps per bot to judge progress. */
typedef struct SimTrack {
    float before[3];             /* position at the start of the tick */
    float goal[3];               /* the head goal the best is for */
    bool goal_set;
    int stage;                   /* 0 routing to the goal's area, 1 in it; -1 not looked yet */
    uint32_t best;               /* best remaining time, hundredths */
    uint32_t world_changes;      /* sim->world_changes when best was set */
    float since;                 /* seconds since the last progress */
} SimTrack;

struct NavSim {
    const NavWorld *w;
    float dt;
    int hz;
    uint64_t tick;
    uint64_t rng;
    uint64_t hash;
    size_t route_cache_bytes;
    /* per class, made on first use */
    NavAreaGraph *graph[NAV_MAX_CLASSES];
    NavRouter *router[NAV_MAX_CLASSES];
    /* bots */
    NavBot *bots;
    uint32_t bot_count, bot_cap;
    SimTrack *track;             /* per bot, sim_goal.c */
    uint32_t track_cap;
    uint32_t world_changes;      /* obstacles came or went: routes may have grown */
    float floor_z;               /* the lowest floor of the world */
    SimBuckets buckets;
    /* entities */
    NavEntityState *ent;
    int ent_count;
    /* obstacles */
    SimObstacle *obstacles;
    uint32_t obstacle_count, obstacle_cap, next_obstacle;
    /* trace scratch: candidate boxes and their owners */
    NavBox *boxes;
    uint32_t *box_owner;         /* kind << 24 | index */
    int box_cap;
    double path_seconds;         /* sim_count_path_time */
    double grid_seconds;         /* sim_count_grid_time (also in path_seconds) */
    struct SimGrid *grid;        /* sim_grid.c: NULL until first used */
    /* sim_show.c: per bot, made on first record while enabled */
    SimBotShow **show;
    uint32_t show_cap;
    bool show_on;
};

/* sim.c */
/* Gather the solid boxes a sweep from start by delta of a box can meet. */
int sim_gather_boxes(NavSim *sim, const float mins[3], const float maxs[3], const float start[3], const float delta[3],
                     int ignore_bot);
void sim_world_box(const NavSim *sim, const NavBot *b, const float pos[3], float mins[3], float maxs[3]);

/* sim_goal.c: goals, arrival, progress, the floor under the world. */
bool sim_track_reserve(NavSim *sim, uint32_t count);
void sim_goals_before_move(NavSim *sim);
void sim_goals_after_move(NavSim *sim);

/* sim_move.c: one bot's tick of movement. */
void sim_move_bot(NavSim *sim, NavBot *b);
/* Carry the riders of elevator e by dz (before it moves up, after it
** moves down), by hull traces; returns how far they went (less than a
** rise when a rider is blocked above: the platform then stops there). */
float sim_carry_riders(NavSim *sim, int e, float dz);

/* sim_grid.c: keeps the grid's obstructions in step with the obstacles
** (no-ops before the grid is built), and frees it. */
typedef struct SimGrid SimGrid;
void sim_grid_obstacle_added(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3]);
void sim_grid_obstacle_removed(NavSim *sim, uint32_t id);
void sim_grid_free(NavSim *sim);
/* sim_show.c */
void sim_show_free(NavSim *sim);

#endif

/*
** sim.h — the simulation: bots with bodies moving by their class's physics
** through a world whose entities move, at a fixed tick, deterministically.
**
** A tick: entities first (elevators, doors, crates settling), in entity
** order; then every bot in id order takes its controls (set by its brain
** during the tick before) and moves: ground movement with acceleration,
** step-up and slides along walls, gravity and landing, jumps, crouching
** under low ceilings, ladders, swimming and water jumps, climbing to a
** ledge, riding elevators, teleporters and jump pads. Bodies are boxes;
** they never overlap the world, the solid entities or each other (all
** moves are hull traces, trace.h). A run's trace hash folds every bot's
** state after every tick: same map, controls and seed, same hash.
**
** Moving entities are obstacles for routing: a door that is locked shut
** and a crate that was pushed register boxes with every class's router.
**
** STEP BY STEP
**   NavSim *sim = sim_create(world, &(NavSimDesc){ .seed = 1 }, &err);
**   int bot = sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = {x, y, z} }, &err);
**   each tick: sim_bot_control(sim, bot)->move[0] = 1; ... sim_step(sim);
**   sim_bot(sim, bot)->pos, ->on_ground, ...; sim_trace_hash(sim)
**   sim_destroy(sim);
**
** DOES NOT: run Lua (script/brain.h drives bots through the nav module,
** script/nav_api.c), draw, or own the world.
*/
#ifndef NAV_SIM_H
#define NAV_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "area/area.h"
#include "core/nav.h"
#include "route/route.h"
#include "world/trace.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_DEFAULT_TICK_HZ 30
#define SIM_MAX_BOTS 65536
#define SIM_REASON_MAX 32
#define SIM_MAX_GOALS 16          /* queued per bot */
#define SIM_SAY_MAX 48
#define SIM_HOLD_DEPTH 8          /* rings of bots round a goal that count as arrived */

/* Zero means default. */
typedef struct NavSimDesc {
    int tick_hz;              /* default 30 */
    uint64_t seed;            /* the world's one RNG */
    size_t route_cache_bytes; /* per class's router; default 16 MiB */
} NavSimDesc;

typedef struct NavBotDesc {
    int cls;                  /* world class index */
    float pos[3];             /* feet */
    float yaw;                /* degrees, 0 = east */
    int team;
} NavBotDesc;

/* What a bot asks for this tick; its brain sets it, sim_step reads it and
** keeps it (so a request holds until changed). */
typedef struct NavBotControl {
    float move[2];            /* wished horizontal direction; its length (<= 1) scales the speed */
    int priority;             /* of the move request that won */
    char reason[SIM_REASON_MAX]; /* ...and why ("path", "avoid", "climb"), for display */
    bool jump;                /* jump now if standing (or water-jump out of water) */
    bool crouch;
    bool use;                 /* doors and elevators within reach */
    bool climb;               /* climb hand over hand to climb_to */
    float climb_to[3];        /* a ledge top within the class's climb height */
    bool ladder_down;         /* on a ladder: go down instead of up */
} NavBotControl;

/* A bot's body state (read-only outside sim/). */
typedef struct NavBot {
    uint32_t id;
    int cls;
    int team;
    float pos[3], vel[3];
    float yaw;
    bool on_ground, in_water, on_ladder, crouched, climbing, airborne_pad;
    int riding;               /* elevator entity index, -1 when none */
    int touching_teleporter;  /* a trigger it has not left yet, -1 when none */
    float stuck_time;         /* seconds of the stuck spell now, 0 between spells (sim_goal.c) */
    double distance;          /* metres travelled */
    uint32_t travel_used;     /* NAV_TFL_TYPE bits of the ways it moved */
    NavBotControl control;
    /* Goals: a queue; the head is reached when the feet come within its
    ** radius (horizontally, and within the body's height vertically). */
    float goals[SIM_MAX_GOALS][4]; /* x, y, z, radius */
    int goal_count;
    int goals_reached;
    int goals_skipped;        /* dropped by the brain without reaching them */
    double arrival_time;      /* when the last goal was reached; < 0 before */
    double stuck_total;       /* seconds stuck over the whole run */
    float stuck_max;          /* the longest stuck spell, seconds */
    float jump_from_z;        /* where the jump in the air began */
    bool jumping;             /* in the air from a jump off the ground */
    char say[SIM_SAY_MAX];    /* the brain's state text, for display */
    /* Holding a goal: arrived at held_goal with nothing left to do, in
    ** ring hold_depth round it (0: within its radius); -1 when not. */
    int hold_depth;
    float held_goal[3];
    uint32_t route_flags;     /* flags of the brain's last route query (progress is judged by them) */
    bool fell;                /* fell under every floor: stopped at fell_at */
    float fell_at[3];
} NavBot;

/* An entity's state now. */
typedef struct NavEntityState {
    float offset;             /* elevator: platform top height; door: how far the panel has slid up */
    float pos[3];             /* crate: its origin (bottom centre) */
    int phase;                /* elevator: 0 wait, +1 rising, -1 descending; door: 0 shut, 1 open, +-1 moving */
    int stop;                 /* elevator: the stop it waits at or heads for */
    float timer;              /* seconds left waiting */
    int dir;                  /* elevator: +1 going up the stops, -1 down */
    bool locked;              /* door: stays shut */
    uint32_t obstacle;        /* router obstacle ids: doors locked shut, crates moved */
    bool held;                /* elevator: stopped where it is (sim_elevator_hold) */
} NavEntityState;

typedef struct NavSim NavSim;

NavSim *sim_create(const NavWorld *w, const NavSimDesc *desc, NavError *err);
void sim_destroy(NavSim *sim);

const NavWorld *sim_world(const NavSim *sim);
/* The class's area graph and router, compiled on first use (with entity
** links); NULL with err set when it fails. */
NavAreaGraph *sim_graph(NavSim *sim, int cls, NavError *err);
NavRouter *sim_router(NavSim *sim, int cls, NavError *err);

/* Add a bot standing at desc->pos (dropped to the floor below within a
** step). Returns its id, or -1 with err set (bad class, in solid, full). */
int sim_add_bot(NavSim *sim, const NavBotDesc *desc, NavError *err);
uint32_t sim_bot_count(const NavSim *sim);
const NavBot *sim_bot(const NavSim *sim, uint32_t id);
NavBotControl *sim_bot_control(NavSim *sim, uint32_t id);
/* The body box of a bot (mins/maxs relative to its feet). */
void sim_bot_box(const NavSim *sim, const NavBot *b, float mins[3], float maxs[3]);

/* Goals. push: false when the queue is full. clear: drops them all.
** A goal is reached within its radius, or by touching a bot that holds
** the same goal point (arrived there, nothing left to do): bots sent to
** one place stand round it in rings and all arrive (sim_goal.c). */
bool sim_bot_push_goal(NavSim *sim, uint32_t id, const float pos[3], float radius);
void sim_bot_clear_goals(NavSim *sim, uint32_t id);
/* Drop the head goal without reaching it (counted as skipped). */
bool sim_bot_skip_goal(NavSim *sim, uint32_t id);
/* Arrived: reached at least one goal and has none left. */
bool sim_bot_arrived(const NavSim *sim, uint32_t id);
/* The travel flags the bot routes with (its brain's last route query):
** progress toward its goal, and so stuck time, is judged by the router's
** time with these flags. 0: NAV_TFL_DEFAULT. */
void sim_bot_set_route_flags(NavSim *sim, uint32_t id, uint32_t flags);

/* Is the bot standing where others arrive or pass one at a time (a
** teleporter's exit or trigger, a jump pad or its landing spot, a lift's
** platform or shaft, a ladder's foot or top)? Then *away is a unit
** direction out of the place and *what names it ("a ladder"). A bot with
** nothing to do steps out of such places (sim_clear.c). */
bool sim_bot_in_the_way(const NavSim *sim, uint32_t id, float away[2], const char **what);

/* Time spent in path queries made for brains (routes, grid paths), so a
** run can split its tick into Lua, paths and movement. */
void sim_count_path_time(NavSim *sim, double seconds);
double sim_path_time(const NavSim *sim); /* seconds, since created */
/* Grid path queries: counted in the path time too, and on their own. */
void sim_count_grid_time(NavSim *sim, double seconds);
double sim_grid_time(const NavSim *sim);

/* Advance one tick. */
void sim_step(NavSim *sim);
uint64_t sim_tick(const NavSim *sim);
double sim_time(const NavSim *sim);     /* seconds */
float sim_dt(const NavSim *sim);
uint64_t sim_trace_hash(const NavSim *sim);
/* The world RNG (seeded by desc->seed). */
uint64_t sim_random(NavSim *sim);

/* What a dynamic box a trace hit belongs to: out->box is kind << 24 |
** index (a bot id, an entity index, an obstacle's index). */
enum { SIM_BOX_ENTITY = 0, SIM_BOX_OBSTACLE, SIM_BOX_BOT };

/* Sweep a box against the world, the solid entities and the bots (except
** `ignore_bot`, -1 for none); out->box says what it hit (SIM_BOX_*). */
void sim_trace(const NavSim *sim, const float mins[3], const float maxs[3], const float start[3], const float delta[3],
               int ignore_bot, NavTrace *out);

/* The upward speed of a class's jump: enough for its barrier jump and,
** at run speed, its widest gap. */
float sim_jump_speed(const NavWorld *w, const NavClass *c);

/* Entities. */
const NavEntityState *sim_entity(const NavSim *sim, int index);
/* Doors: open or shut now (false for a non-door); a locked door stays
** shut and is an obstacle for routing until unlocked. */
bool sim_door_set(NavSim *sim, int index, bool open, bool locked);
/* The solid box an entity has now (elevator platform, door panel, crate);
** false when it has none. */
bool sim_entity_box(const NavSim *sim, int index, float mins[3], float maxs[3]);

/* Obstacles dropped into the world (a box every class's router and the
** bots' traces avoid); 0 when out of memory. */
uint32_t sim_add_obstacle(NavSim *sim, const float mins[3], const float maxs[3]);
bool sim_remove_obstacle(NavSim *sim, uint32_t id);
/* The obstacles now, oldest first: index 0 .. sim_obstacle_count - 1. */
uint32_t sim_obstacle_count(const NavSim *sim);
bool sim_obstacle_at(const NavSim *sim, uint32_t index, uint32_t *id, float mins[3], float maxs[3]);

/* {======= from outside: tests and tools (sim_control.c) ======= */

/* Hold elevator `index` where it is, or let it go on: a held platform
** neither moves nor counts down its wait (riders stay on it, mid-shaft
** too), and carries on from the same state when released. False for an
** index that is not an elevator. */
bool sim_elevator_hold(NavSim *sim, int index, bool hold);

/* A free spot for a body of class cls near `want`: on rings of spots a
** body apart around it (ring 0 is `want` itself), the first where the body
** stands on a floor within a step of want's height and overlaps nothing:
** world, solid entities, obstacles, bots. rings: how many rings beyond
** the centre to try (0: 11). False when none is free. */
bool sim_place_free(const NavSim *sim, int cls, const float want[3], int rings, float out[3]);

/* }======= */

/* Replay (sim_pose.c): set what a record says, simulating nothing. The
** window draws a replay from a NavSim posed like this each frame. */
void sim_pose_clock(NavSim *sim, uint64_t tick, uint64_t hash);
/* Body state of bot id (position, velocity, yaw, the state flags, say text
** and the head goal, r < 0 for none); a ridden elevator is not known. */
void sim_pose_bot(NavSim *sim, uint32_t id, const NavBot *state);
void sim_pose_entity(NavSim *sim, int index, float offset, int phase, const float pos[3]);
/* Drop every obstacle, then add one with the given id. */
void sim_pose_clear_obstacles(NavSim *sim);
bool sim_pose_obstacle(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3]);

/* What bots intend, for display (sim_show.c). Off until enabled (the
** window, headless pictures and scenarios enable it), so crowds pay
** nothing: every record call returns at once while off. The brain API
** records each bot's last route (bot:route, bot:show_path), its move
** requests and the hull traces it made while thinking. */
#define SIM_SHOW_ROUTE 48
#define SIM_SHOW_REQUESTS 8
#define SIM_SHOW_TRACES 12

typedef struct SimShowRequest {
    float dir[2];
    int priority;
    char reason[16];
} SimShowRequest;

typedef struct SimShowTrace {
    float start[3], end[3];     /* the box's centre line (feet), end where it stopped */
    float half[2];              /* the box's half sizes across */
    bool hit;
} SimShowTrace;

typedef struct SimBotShow {
    uint64_t tick;              /* the tick the requests and traces were made in */
    int cls;
    uint32_t links[SIM_SHOW_ROUTE]; /* the last route's links (area graph of cls) */
    int link_count;
    float path[SIM_SHOW_ROUTE][3];  /* or a polyline the brain follows */
    int path_count;
    SimShowRequest req[SIM_SHOW_REQUESTS];
    int req_count;
    SimShowTrace traces[SIM_SHOW_TRACES];
    int trace_count;
} SimBotShow;

void sim_show_enable(NavSim *sim, bool on);
bool sim_show_enabled(const NavSim *sim);
/* Bot id's record to write into, its per-tick lists emptied when the tick
** moved on; NULL when off (or out of memory). */
SimBotShow *sim_show_bot(NavSim *sim, uint32_t id);
/* Read only; NULL when the bot has none. */
const SimBotShow *sim_show_peek(const NavSim *sim, uint32_t id);
/* The last grid search's cells (open and closed), for display. */
void sim_grid_visit_search(const NavSim *sim, void (*fn)(void *user, int x, int y, bool closed), void *user);

/* Grid (sim_grid.c) */
/* The navcell grid of the world, every class (grid/grid.h), built on first
** use; obstacles (locked doors too) and crates are obstructions in it, kept
** in step as they come, go and move. Bots are not. NULL with err set when
** it cannot be built. */
struct NavGrid;
struct GridGoal;
struct GridWaypoint;
struct NavGrid *sim_grid(NavSim *sim, NavError *err);

typedef struct SimGridQuery {
    bool smooth;              /* any-angle smoothing (grid_smooth_path) */
    uint32_t max_nodes;       /* expansion budget; 0 = none */
} SimGridQuery;

typedef struct SimGridPath {
    const struct GridWaypoint *points; /* cells: the start's, turns, the end; valid until the next query */
    int count;
    uint32_t flags;           /* GRID_PATH_* (grid_search.h) */
    double length;            /* metres */
} SimGridPath;

/* A path for class cls from the point (x, y) to goal (metres), with the
** sim's one search state: allocates nothing once the grid is built. The
** caller counts its time (sim_count_path_time). opt may be NULL. */
NavStatus sim_grid_path(NavSim *sim, int cls, float x, float y, const struct GridGoal *goal, const SimGridQuery *opt,
                        SimGridPath *out, NavError *err);
/* Is the cell under (x, y) passable for class cls? (Builds the grid.) */
bool sim_grid_passable(NavSim *sim, int cls, float x, float y);
/* Bytes held: the grid and its search state (0 before the first use), and
** the whole simulation, grid included. */
size_t sim_grid_memory(const NavSim *sim);
size_t sim_memory(const NavSim *sim);

#ifdef __cplusplus
}
#endif

#endif

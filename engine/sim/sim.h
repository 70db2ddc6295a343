/*
** sim.h — the simulation: bots with bodies moving by their class's physics
** through a world whose entities move, at a fixed tick, deterministically.
**
** A tick: entities first (elevators, doors, crates settling), in entity
** order; then the avoidance pass works out, for every bot with avoidance
** on, the velocity that keeps it clear of the bots around it and off the
** walls and ground it forbids, all from the state at the start of the
** tick (see "avoidance" below); then every bot in id order takes its
** controls (set by its brain during the tick before) and moves (a bot
** that avoids walks with its chosen velocity instead of its wish):
** ground movement with acceleration, step-up and slides along walls,
** gravity and landing, jumps, crouching under low ceilings, ladders,
** swimming and water jumps, climbing to a ledge, riding elevators,
** teleporters and jump pads. Bodies are boxes;
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
** Debugging and inspection (what bots intend, replay posing, claims
** listed, memory, holding a lift) are in sim/sim_debug.h.
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
#include "grid/grid_place.h"
#include "route/route.h"
#include "world/trace.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_DEFAULT_TICK_HZ 30
#define SIM_MAX_BOTS NAV_LIMIT_BOTS /* core/limits.h */
#define SIM_REASON_MAX 32
#define SIM_MAX_GOALS 16 /* queued per bot */
#define SIM_SAY_MAX 48
#define SIM_HOLD_DEPTH 8 /* rings of bots round a goal that count as arrived */

/* Zero means default. */
typedef struct NavSimDesc {
    int tick_hz;              /* default 30 */
    uint64_t seed;            /* the world's one RNG */
    size_t route_cache_bytes; /* per class's router; default 16 MiB */
} NavSimDesc;

typedef struct NavBotDesc {
    int cls;      /* world class index */
    float pos[3]; /* feet */
    float yaw;    /* degrees, 0 = east */
    int team;
} NavBotDesc;

/* What a bot asks for this tick; its brain sets it, sim_step reads it and
** keeps it (so a request holds until changed). */
typedef struct NavBotControl {
    float move[2];               /* wished horizontal direction; its length (<= 1) scales the speed */
    int priority;                /* of the move request that won */
    char reason[SIM_REASON_MAX]; /* ...and why ("path", "avoid", "climb"), for display */
    bool jump;                   /* jump now if standing (or water-jump out of water) */
    bool crouch;
    bool use;          /* doors and elevators within reach */
    bool climb;        /* climb hand over hand to climb_to */
    float climb_to[3]; /* a ledge top within the class's climb height */
    bool ladder_down;  /* on a ladder: go down instead of up */
    bool look;         /* face look_at, whatever the way it moves */
    float look_at[3];
} NavBotControl;

/* A bot's body state (read-only outside sim/). */
typedef struct NavBot {
    uint32_t id;
    int cls;
    int team;
    float pos[3], vel[3];
    float yaw;
    bool on_ground, in_water, on_ladder, crouched, climbing, airborne_pad;
    int riding;              /* elevator entity index, -1 when none */
    int touching_teleporter; /* a trigger it has not left yet, -1 when none */
    float stuck_time;        /* seconds of the stuck spell now, 0 between spells (sim_goal.c) */
    double distance;         /* metres travelled */
    uint32_t travel_used;    /* NAV_TFL_TYPE bits of the ways it moved */
    uint32_t moved_by;       /* ...since it last stood in another area (sim_learn.c) */
    NavBotControl control;
    /* Goals: a queue; the head is reached when the feet come within its
    ** radius (horizontally, and within the body's height vertically). */
    float goals[SIM_MAX_GOALS][4]; /* x, y, z, radius */
    int goal_count;
    int goals_reached;
    int goals_skipped;     /* dropped by the brain without reaching them */
    double arrival_time;   /* when the last goal was reached; < 0 before */
    double stuck_total;    /* seconds stuck over the whole run */
    float stuck_max;       /* the longest stuck spell, seconds */
    float jump_from_z;     /* where the jump in the air began */
    bool jumping;          /* in the air from a jump off the ground */
    char say[SIM_SAY_MAX]; /* the brain's state text, for display */
    /* Holding a goal: arrived at held_goal with nothing left to do, in
    ** ring hold_depth round it (0: within its radius); -1 when not. */
    int hold_depth;
    float held_goal[3];
    uint32_t route_flags; /* flags of the brain's last route query (progress is judged by them) */
    uint64_t wait_tick;   /* sim_bot_wait: the tick it last said so, + 1 */
    double wait_total;    /* seconds waiting (claims refused, sim_bot_wait) */
    float wait_max;       /* the longest waiting spell */
    bool fell;            /* fell under every floor: stopped at fell_at */
    float fell_at[3];
    uint64_t topped_tick; /* a body rested on its head at this tick, + 1 (0: never) */
    float topped_at[2];   /* ...standing there */
    /* Where it faces, degrees like yaw: toward control.look_at while
    ** control.look is on, else yaw (the way it moves). Set after each
    ** move; it moves nothing and is not in the trace hash. */
    float facing;
    /* The lowest id of the bots its move ran into this tick, -1 when none
    ** (both bots of a contact record it). Not in the trace hash. */
    int32_t contact;
} NavBot;

/* An entity's state now. */
typedef struct NavEntityState {
    float offset;      /* elevator: platform top height; door: how far the panel has slid up */
    float pos[3];      /* crate: its origin (bottom centre) */
    int phase;         /* elevator: 0 wait, +1 rising, -1 descending; door: 0 shut, 1 open, +-1 moving */
    int stop;          /* elevator: the stop it waits at or heads for */
    float timer;       /* seconds left waiting */
    int dir;           /* elevator: +1 going up the stops, -1 down */
    bool locked;       /* door: stays shut */
    uint32_t obstacle; /* router obstacle ids: doors locked shut, crates moved */
    bool held;         /* elevator: stopped where it is (sim_elevator_hold) */
} NavEntityState;

typedef struct NavSim NavSim;
typedef struct SimMark SimMark;

NavSim *sim_create(const NavWorld *w, const NavSimDesc *desc, NavError *err);
void sim_destroy(NavSim *sim);

const NavWorld *sim_world(const NavSim *sim);
/* The class's area graph and router, compiled on first use (with entity
** links); NULL with err set when it fails. */
NavAreaGraph *sim_graph(NavSim *sim, int cls, NavError *err);
NavRouter *sim_router(NavSim *sim, int cls, NavError *err);
/* Take ag (compiled or loaded by the caller for this world and class cls)
** as the class's graph, adding its entity links; the sim owns it from
** then on. False with err (ag still the caller's) for a bad class, a
** class whose graph is built already, or a graph of another world. */
bool sim_set_graph(NavSim *sim, int cls, NavAreaGraph *ag, NavError *err);

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
/* The query the bot's brain last routed with: its travel flags (0:
** NAV_TFL_DEFAULT) and the links it shuns, each with its extra time (as
** router_route_links_avoiding takes them; the first SIM_ROUTE_AVOID_MAX
** count). Progress toward the goal, and so stuck time, is judged by the
** router's time for the same query: a bot that walks away from a lift it
** routes round, to the stairs, is making progress. When the shunned links
** change, the measure starts afresh (the old best was for another route),
** the stuck clock running on. False when out of memory for the list (the
** flags are kept; progress is then judged without the extra times). */
#define SIM_ROUTE_AVOID_MAX 32
bool sim_bot_set_route(NavSim *sim, uint32_t id, uint32_t flags, const RouteAvoid *avoid, int count);

/* The bot waits, this tick, for something that will come (a lift to its
** stop): not stuck meanwhile, counted as waiting (wait_total, wait_max).
** A bot refused a claim (sim_claim) waits too. */
void sim_bot_wait(NavSim *sim, uint32_t id);
bool sim_bot_waiting(const NavSim *sim, uint32_t id);

/* Is the bot standing where others arrive or pass one at a time (a
** teleporter's exit or trigger, a jump pad or its landing spot, a lift's
** platform or shaft, a ladder's foot or top)? Then *away is a unit
** direction out of the place and *what names it ("a ladder"). A bot with
** nothing to do steps out of such places (sim_clear.c). */
bool sim_bot_in_the_way(const NavSim *sim, uint32_t id, float away[2], const char **what);

/* Advance one tick. */
void sim_step(NavSim *sim);
uint64_t sim_tick(const NavSim *sim);
double sim_time(const NavSim *sim); /* seconds */
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
/* Doors: open or shut now; a locked door stays shut and is an obstacle
** for routing until unlocked. False for a non-door, and when out of
** memory for the obstacle (the door left as it was). */
bool sim_door_set(NavSim *sim, int index, bool open, bool locked);
/* Seconds until elevator `index` next waits at its stop `stop` (0-based):
** 0 while it waits there now; its cycle played forward with nobody
** pressing use (a rider's use only makes it sooner), to within a tick for
** each stop on the way. INFINITY for a held
** elevator elsewhere, a bad index or stop. */
float sim_elevator_eta(const NavSim *sim, int index, int stop);
/* The solid box an entity has now (elevator platform, door panel, crate);
** false when it has none. */
bool sim_entity_box(const NavSim *sim, int index, float mins[3], float maxs[3]);

/* Obstacles dropped into the world (a box every class's router, the grid
** and the bots' traces avoid); 0 when out of memory, and then no router
** nor the grid has it: everything answers as before the call. */
uint32_t sim_add_obstacle(NavSim *sim, const float mins[3], const float maxs[3]);
bool sim_remove_obstacle(NavSim *sim, uint32_t id);
/* The obstacles now, oldest first: index 0 .. sim_obstacle_count - 1. */
uint32_t sim_obstacle_count(const NavSim *sim);
bool sim_obstacle_at(const NavSim *sim, uint32_t index, uint32_t *id, float mins[3], float maxs[3]);

/* {======= placing bodies (sim_control.c) ======= */

/* A free spot for a body of class cls near `want`: on rings of spots a
** body apart around it (ring 0 is `want` itself), the first where the body
** stands on a floor within a step of want's height and overlaps nothing:
** world, solid entities, obstacles, bots. rings: how many rings beyond
** the centre to try (0: 11). False when none is free. */
bool sim_place_free(const NavSim *sim, int cls, const float want[3], int rings, float out[3]);

/* }======= */

/* {======= buildings: placement, spawning, foundations (sim_place.c) =======
**
** Footprints are oriented rectangles (GridShape, metres and radians) on
** the sim's navcell grid (sim_grid: built on first use), whose
** obstructions are the sim's obstacles (foundations, locked doors) and
** its crates. */

/* May the footprint be built (grid_place.h)? As grid_place_check, with
** the obstruction in the way named as the sim knows it: "obstacle 3" (the
** id sim_remove_obstacle takes) or "crate NAME". text (cap bytes; NULL:
** none) gets the result's line. NAV_E_PARAM for bad values, or the grid's
** error when it cannot be built. */
NavStatus sim_place_check(NavSim *sim, const GridShape *footprint, const GridPlaceRules *rules, GridPlaceResult *out,
                          char *text, size_t cap, NavError *err);

/* Up to n spawn points (x, y pairs into out) for units of class cls round
** the footprint (grid_spawn_points): the bots standing near are occupied
** squares (each its class's radius + GRID_SPAWN_PAD), and a point is kept
** only where the unit's body fits standing on the lowest floor (world,
** solid entities, obstacles, bots). rally (x, y) may be NULL; rings 0:
** the default. Returns how many, or -1 with err set. */
int sim_spawn_points(NavSim *sim, int cls, const GridShape *footprint, const float *rally, int rings, float *out, int n,
                     NavError *err);

/* sim_add_bot, refusing also a spot where the body would overlap a solid
** entity, an obstacle or another bot (NAV_E_PARAM naming "pos"). Made
** for scripts: when the bots outgrow their storage the old array is kept
** until a later tick, so a NavBot pointer taken earlier in this tick (by
** a nav function whose argument's metamethod spawned) still reads the
** body as it was rather than freed memory. */
int sim_spawn_bot(NavSim *sim, const NavBotDesc *desc, NavError *err);

/* Move bot id's body to pos (its feet, onto the floor within a step
** below) at once and at rest: velocity zero, off ladders, ledges and
** lifts. Goals, counters and brains are untouched. False (nothing moved)
** for a bad id, a bot that fell out of the world, no floor there, or a
** body that would overlap the world or anything solid. */
bool sim_bot_teleport(NavSim *sim, uint32_t id, const float pos[3]);

typedef struct SimFoundation {
    uint32_t obstacle; /* its id (sim_remove_obstacle takes it) */
    int moved;         /* bots moved out of the way */
    int stranded;      /* bots in the way with no free spot near: left where they were */
} SimFoundation;

#define SIM_FOUNDATION_REACH 16.0f /* metres past the footprint a bot in the way may be moved */

/* Lay a foundation: the footprint becomes an obstacle (sim_add_obstacle)
** from the lowest ground under it to `height` metres over the highest,
** so grid paths, routers and bodies keep out. Obstacles are boxes, so it
** is the footprint's axis-aligned bounding box. Then every bot whose
** body overlaps that box, but `builder` (-1: none), is moved
** (sim_bot_teleport) to the nearest free spot outside the box grown by
** its radius + GRID_SPAWN_PAD: on a passable navcell for its class, its
** body overlapping nothing (bots moved before it included), within
** SIM_FOUNDATION_REACH. Bots go in order of how near the box's edge they
** stand, then by id. The placement rules are not checked here
** (sim_place_check). NAV_E_PARAM for a bad footprint or height (finite,
** above 0), NAV_E_NOMEM when the obstacle cannot be added. */
NavStatus sim_place_foundation(NavSim *sim, const GridShape *footprint, float height, int builder, SimFoundation *out,
                               NavError *err);

/* }======= */

/* {======= claims: chokepoints taken in turn (sim_claim.c) ======= */

/* Where only so many bodies fit at once (a ladder or a hatch, a lift's
** platform, a one-body doorway or corridor), bots take turns by claiming
** the place under a key they agree on ("ladder/human/29", "lift/6").
**
** A bot asks each tick it wants the place, holding or waiting. The first
** ask queues it: first come first served by the tick it first asked, ties
** by bot id. It is granted when fewer than `capacity` hold the key, every
** waiter of its side ahead of it fits too, and its side has the turn:
** all holders of a key share one side (a two-way passage is used one way
** at a time; side 0 for everyone when direction does not matter). With
** nobody holding, the side of the longest waiter goes next; while one side
** holds, more of that side may join until a waiter of another side has
** waited `patience` seconds, so neither way starves. Holding lasts while
** the holder asks again each tick; a member (holder or waiter) that has
** not asked for `lapse` seconds is dropped, so a bot that wandered off or
** faulted (the session releases a faulted bot's claims at once) holds
** nothing up for long. Decisions follow from ticks, ids and the order of
** the calls, never from addresses: brains ask in id order, so a run
** decides the same way every time.
**
** Memory: the tables grow while they fill and are kept for reuse, so a
** run that has warmed up allocates nothing. At most SIM_CLAIM_MAX_KEYS
** keys are claimed at once and SIM_CLAIM_MAX_QUEUE bots hold or wait for
** one key; beyond, sim_claim fails with NAV_E_NOMEM and says so. */
#define SIM_CLAIM_KEY_MAX 48 /* bytes of a key with its terminating zero */
#define SIM_CLAIM_MAX_KEYS 1024
#define SIM_CLAIM_MAX_QUEUE 1024
#define SIM_CLAIM_LAPSE 1.0f    /* default seconds without asking before a claim is dropped */
#define SIM_CLAIM_PATIENCE 6.0f /* default seconds another side waits before it goes next */

/* Zero means default. */
typedef struct SimClaimDesc {
    int capacity;   /* holders at once (1..SIM_CLAIM_MAX_QUEUE); default 1 */
    int side;       /* the way this bot goes through; holders share one */
    float lapse;    /* seconds; default SIM_CLAIM_LAPSE */
    float patience; /* seconds; default SIM_CLAIM_PATIENCE */
} SimClaimDesc;

typedef struct SimClaimResult {
    bool granted;
    int place;   /* granted: rank among holders (1 = held longest); else place in the queue (1 = next) */
    int holder;  /* the bot holding it longest, -1 when nobody holds it */
    int holders; /* how many hold it */
    int side;    /* the holders' side (0 when none) */
} SimClaimResult;

/* Bot `bot` asks for `key` (1..SIM_CLAIM_KEY_MAX - 1 bytes) now; the key's
** capacity, lapse and patience become desc's (NULL: defaults), and the
** side a waiter goes is updated (a holder keeps the side it was granted
** for). NAV_E_PARAM for a bad bot, key or desc; NAV_E_NOMEM when the
** tables are full. A claim already held stays held, whatever its new
** capacity. */
NavStatus sim_claim(NavSim *sim, uint32_t bot, const char *key, const SimClaimDesc *desc, SimClaimResult *out,
                    NavError *err);
/* Is the bot waiting its turn: refused a claim in the brains' turn of this
** tick or of the last? Waiting is not being stuck: no progress toward its
** goal is expected of it meanwhile (sim_goal.c). */
bool sim_claim_waiting(const NavSim *sim, uint32_t bot);
/* Give up key (held or waited for): false when the bot had no part in it. */
bool sim_claim_release(NavSim *sim, uint32_t bot, const char *key);
/* Give up every claim of the bot; returns how many. */
int sim_claim_release_bot(NavSim *sim, uint32_t bot);

/* }======= */

/* {======= avoidance (sim_avoid.c) =======
**
** Reciprocal velocity obstacles (the ORCA class): a bot with avoidance on
** does not walk with its raw wish but with the velocity nearest to it
** that avoids, for `horizon` seconds, the bots around it, and never
** crosses, for `wall_horizon` seconds, the walls and the ground its
** settings forbid (water, lava, slime, ledges). Each bot takes its share
** of avoiding another that avoids too (responsibility, half by default)
** and all of it against one that does not. Bots are discs of 1.2 times
** the class's radius here (the box's half width; its corners reach 1.41).
**
** In a tick: sim_step buckets the bots, moves the entities, then (before
** any bot moves) works out every avoiding bot's velocity from where all
** bots are and how they move at the start of the tick, in id order (a
** Jacobi pass: the answer does not depend on the order), and then moves
** each bot. A bot on the ground (not riding) or swimming walks toward
** that velocity instead of its wish; on ladders, climbing, riding or in
** the air the wish is used as before. A bot with no wish (parked) takes
** part with a preferred velocity of zero: it steps aside for others. The
** bot's control keeps the wish its brain set. The preferred velocity is
** the wish times the class's speed (crouch speed crouched, swim speed in
** water), turned a hair to the right so that bots meeting head-on all
** pass on the same side.
**
** Obstacles: within a few metres, the edges between cells the body can
** stand in and cells it cannot (solid, clip, too low a ceiling, a step up
** higher than the class's barrier jump: these keep the body's radius
** off), and the edges into forbidden ground (the bot's centre keeps off):
** liquids by the forbid bits, a drop deeper than the class's step with
** SIM_AVOID_LEDGE, and a bottomless void always. Obstacle constraints are
** hard: when the bots around leave no velocity that avoids them all, the
** one that violates the bots' constraints least is taken, never one that
** crosses an obstacle. As a last guard a bot with forbid bits whose move
** would end with its centre on forbidden ground it was not on stays
** where it was.
**
** DOES NOT: plan (it only bends the wish), see entities (crates, doors,
** platforms: lua/avoid.lua steers round those), or make bots overlap less
** than the hull traces already do (they never overlap). */

#define SIM_AVOID_WATER 0x01u      /* any water */
#define SIM_AVOID_DEEP_WATER 0x02u /* water deeper than the class wades (where it would swim) */
#define SIM_AVOID_LAVA 0x04u
#define SIM_AVOID_SLIME 0x08u
#define SIM_AVOID_LEDGE 0x10u /* drops deeper than the class's step */
#define SIM_AVOID_FORBID_ALL 0x1Fu
#define SIM_AVOID_MAX_NEIGHBOURS 16
#define SIM_AVOID_MAX_SEGMENTS 32 /* obstacle edges per bot, nearest first */
#define SIM_AVOID_MAX_LINES (SIM_AVOID_MAX_NEIGHBOURS + SIM_AVOID_MAX_SEGMENTS)

/* Zero means default. */
typedef struct NavAvoidDesc {
    bool on;
    float horizon;        /* seconds ahead bots are avoided; default 1.5, at most 10 */
    float wall_horizon;   /* seconds ahead obstacles are avoided; default 0.3, at most 5 */
    float range;          /* metres: neighbours within; default 4, at most 16 */
    int max_neighbours;   /* nearest first; default 8, at most SIM_AVOID_MAX_NEIGHBOURS */
    float responsibility; /* share taken against a bot that avoids too, (0, 1]; default 0.5 */
    uint32_t forbid;      /* SIM_AVOID_* */
} NavAvoidDesc;

/* Turn bot id's avoidance on (desc->on) or off (desc NULL or !on), with
** desc's values, zeros taking the defaults. False (nothing changed) for a
** bad id, a value that is not finite or outside its range, or out of
** memory. */
bool sim_bot_set_avoid(NavSim *sim, uint32_t id, const NavAvoidDesc *desc);
/* Bot id's settings with the defaults filled in (on = false when off);
** false for a bad id. */
bool sim_bot_avoid(const NavSim *sim, uint32_t id, NavAvoidDesc *out);
/* One query: the velocity bot id would take now (from where the bots are
** and how they move now) if it preferred `pref` (m/s), with its settings,
** or the defaults when its avoidance is off. out = pref for a bad id.
** Allocates nothing. */
void sim_bot_avoid_velocity(const NavSim *sim, uint32_t id, const float pref[2], float out[2]);

/* The solver on its own (tests, tools): the velocity nearest `pref`
** within `vmax` that satisfies every half-plane n[i] . v >= c[i] (unit
** normals), the first `hard` of them strictly; when they cannot all hold,
** the one satisfying the hard ones that violates the largest of the rest
** least. count is cut to SIM_AVOID_MAX_LINES. Returns whether all held. */
bool sim_avoid_solve(const float (*n)[2], const float *c, int count, int hard, float vmax, const float pref[2],
                     float out[2]);

/* }======= */

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
    bool smooth;        /* any-angle smoothing (grid_smooth_path) */
    uint32_t max_nodes; /* expansion budget; 0 = none */
} SimGridQuery;

typedef struct SimGridPath {
    const struct GridWaypoint *points; /* cells: the start's, turns, the end; valid until the next query */
    int count;
    uint32_t flags; /* GRID_PATH_* (grid_search.h) */
    double length;  /* metres */
} SimGridPath;

/* A path for class cls from the point (x, y) to goal (metres), with the
** sim's one search state: allocates nothing once the grid is built. The
** caller counts its time (nav_api_count_grid for brains). opt may be NULL. */
NavStatus sim_grid_path(NavSim *sim, int cls, float x, float y, const struct GridGoal *goal, const SimGridQuery *opt,
                        SimGridPath *out, NavError *err);
/* Is the cell under (x, y) passable for class cls? (Builds the grid.) */
bool sim_grid_passable(NavSim *sim, int cls, float x, float y);

/* {======= Short paths among bots (sim_grid.c) ======= */
/* The short-range vertex pathfinder (grid/grid_short.h) for a bot: its
** class, its feet, and every other bot whose body reaches into the search
** square (and overlaps its height) as a unit square of the other's
** half width, grown by the bot's. One search state and one point buffer
** for the sim, reused: nothing is allocated once they have grown. */
struct GridShortPoint;

typedef struct SimShortQuery {
    float range;           /* half side of the search square, metres; 0: SIM_SHORT_RANGE */
    uint32_t max_vertices; /* vertices expanded at most; 0: no budget */
} SimShortQuery;

#define SIM_SHORT_RANGE 12.0f /* metres: the default range (0 A.D.'s first short search) */
#define SIM_SHORT_POINTS 256  /* waypoints a short path keeps; more come back truncated */

typedef struct SimShortPath {
    const struct GridShortPoint *points; /* metres: the bot's feet, turns, the end; valid until the next query */
    int count;
    uint32_t flags;      /* GRID_SHORT_* (grid_short.h) */
    double length;       /* metres */
    double end_distance; /* metres from the end to the goal (0 when found) */
    uint32_t units;      /* other bots taken as squares */
    uint32_t vertices, expanded;
} SimShortPath;

/* A short path for bot `bot` to goal (metres). The caller counts its time.
** opt may be NULL. Fails (err says why, naming the field) on a bot that is
** not there or off the grid, or a bad goal or option. */
NavStatus sim_grid_short_path(NavSim *sim, uint32_t bot, const struct GridGoal *goal, const SimShortQuery *opt,
                              SimShortPath *out, NavError *err);
/* }======= */

/* {======= navigation memories (sim_learn.c, route_memory.h) ======= */

/* A bot with a memory routes, when it asks to, only over what it knows,
** and learns by watching: every body's moves from one area to another
** (walking, falling, jumping, swimming, a ladder, a lift, a teleporter, a
** pad) are matched to the graph's links; a learner learns the link when
** it made the move itself, or when it sees the body (line of sight from
** its eyes to the body's chest, within its sight range) where the move
** began or where it ended. A bot without a memory knows everything. */

#define SIM_SIGHT_DEFAULT 30.0f                      /* metres a learner sees bodies at */
#define SIM_SEARCH_BOT_BUDGET 500u                   /* link expansions per tick per bot */
#define SIM_SEARCH_WORLD_BUDGET 1000u                /* ...and for the whole world: about 0.1-0.2 ms */
#define SIM_SEARCH_BYTES NAV_LIMIT_SEARCH_POOL_BYTES /* the searches' pool, all bots */

struct NavMemory;
struct MemSearch;

/* Give the bot an empty memory of its class's graph (nothing when it has
** one): it becomes a learner. False with err set when out of memory or
** the graph cannot be made. */
bool sim_bot_learn(NavSim *sim, uint32_t id, int links_per_area, NavError *err);
/* Its memory, NULL for a bot that knows everything. */
struct NavMemory *sim_bot_memory(const NavSim *sim, uint32_t id);
/* Bot id learns into other's memory from now on (a team's memory); its
** own is dropped. False when other has none or is of another class. */
bool sim_bot_share_memory(NavSim *sim, uint32_t id, uint32_t other);
/* Back to knowing everything. */
void sim_bot_drop_memory(NavSim *sim, uint32_t id);
/* How many bots use the bot's memory (1 when its own, 0 without one). */
uint32_t sim_bot_memory_users(const NavSim *sim, uint32_t id);
bool sim_bot_set_sight(NavSim *sim, uint32_t id, float metres);
float sim_bot_sight(const NavSim *sim, uint32_t id);
/* Whether a learner learns the walk and crouch links to floor it sees
** from where it stands, every SIM_SIGHT_EVERY ticks (default on): what a
** body can see is floor it can walk to; ladders, lifts, jumps and the
** like it learns only by seeing them used. */
#define SIM_SIGHT_EVERY 10
bool sim_bot_set_sight_floors(NavSim *sim, uint32_t id, bool on);
bool sim_bot_sight_floors(const NavSim *sim, uint32_t id);
/* Would the bot see a body of height h standing at feet (the learning
** rule: in range and in line of sight from its eyes to the chest)? */
bool sim_bot_sees(const NavSim *sim, uint32_t id, const float feet[3], float h);

/* How a learner learned a link. */
enum { SIM_LEARN_CROSSED = 0, SIM_LEARN_WATCHED = 1, SIM_LEARN_SIGHTED = 2 };

/* A link a learner learned in the last tick: by making the move, by
** watching body `by` make it, or (walk and crouch links only) by seeing
** the floor it leads to from where it stands (sim_bot_set_sight_floors). */
typedef struct SimLearnedLink {
    uint32_t bot, link, by;
    int how; /* SIM_LEARN_* */
} SimLearnedLink;
const SimLearnedLink *sim_learned(const NavSim *sim, uint32_t *count);

typedef struct SimMemRoute {
    int state;         /* MemSearchState: 0 searching, 1 ready, 2 no route */
    bool queued;       /* no room in the pool yet: asked again next tick */
    uint32_t time;     /* hundredths, ROUTE_UNREACHABLE when none yet */
    int count;         /* links in the route (may exceed the cap) */
    uint32_t expanded; /* link states the search expanded so far */
} SimMemRoute;

/* The route to goal area within the bot's memory. With now, searched to
** the end at once; otherwise the search goes on in the ticks that follow,
** within the budgets (sim_set_search_budget), from wherever the bot is
** then, and this returns what it has: READY with the route, or searching
** with the best route found so far (a partial answer, possibly none).
** A bot with no memory gets the full router's route. False for a bad bot
** or area, or out of memory. */
bool sim_bot_memory_route(NavSim *sim, uint32_t id, uint32_t goal, uint32_t flags, bool now, uint32_t *links, int cap,
                          SimMemRoute *out);
/* The search a bot is using now, for drawing (NULL when none). */
const struct MemSearch *sim_bot_search(const NavSim *sim, uint32_t id);
/* Link expansions per tick: per bot and for the whole world (0: none
** allowed; the defaults are SIM_SEARCH_BOT_BUDGET, SIM_SEARCH_WORLD_BUDGET). */
void sim_set_search_budget(NavSim *sim, uint32_t per_bot, uint32_t per_world);
void sim_search_budget(const NavSim *sim, uint32_t *per_bot, uint32_t *per_world);

typedef struct SimLearnStats {
    uint32_t learners, memories; /* bots with a memory; distinct memories */
    size_t memory_bytes, search_bytes;
    uint32_t searches, searching; /* in the pool; wanted last tick */
    uint64_t transitions;         /* moves between areas watched */
    uint64_t unmatched;           /* ...that matched no link */
    uint64_t learned;             /* links learned, all learners */
    uint64_t expanded;            /* link states expanded by sliced searches */
    uint32_t expanded_tick;       /* ...in the last tick */
    double search_ms_tick;        /* time the last tick's slices took */
    double search_ms_max;         /* the most any tick took */
    double search_ms_total;
} SimLearnStats;
void sim_learn_stats(const NavSim *sim, SimLearnStats *out);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

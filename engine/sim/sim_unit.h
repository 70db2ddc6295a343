/*
** sim_unit.h — unit motion: RTS units that walk grid paths in C and get
** round each other, the way an RTS moves its units.
**
** A bot given a unit order (sim_unit_move) is driven by the sim: its
** controls are set each tick, before avoidance and movement, from its
** order and the state at the start of the tick. The brain only gives
** orders and reads the state, so ten thousand units cost what the C
** costs, not ten thousand Lua calls a tick.
**
** Each tick a moving unit:
**   1. has a long path (the navcell grid's JPS path for its class to the
**      order's goal, smoothed; planned once, and again when it fails);
**      a unit standing on a blocked navcell walks straight to the nearest
**      passable one first (the long search's start step);
**   2. tests its next move -- the segment ahead of it, UNIT_LOOK seconds
**      long -- against the grid (every navcell it crosses passable for the
**      class) and against the other units' squares grown by its own
**      radius (a square it starts inside never blocks it, so two units
**      that touch can always part);
**   3. when that is clear, walks; when a unit going its way is in front,
**      follows at that unit's pace; when the way is blocked, asks the
**      short-range pathfinder (grid_short.h) for a way round, to the
**      next waypoint of its long path within range, and walks that;
**      when the detour fails it waits a moment and tries again, and after
**      UNIT_REPLAN failures in a row plans its long path again;
**   4. has arrived when it is inside the goal shape, or when it is held
**      up by a unit that has arrived at the same goal and touches it:
**      units sent to one point stand round it, and all arrive.
** A swimming unit held at a bank jumps out (a water jump).
**
** Goals are those of the grid (grid_search.h): a point (reached within
** UNIT_POINT_REACH metres), a circle, a square, and the inverted circle
** and square (get out of a minimum range).
**
** Deterministic: units are driven in id order from the state at the start
** of the tick; the same orders and seed give the same trace hash.
**
** DOES NOT: move bodies (sim_move.c does, with hull traces, so bodies
** never overlap whatever this decides), or avoid reciprocally (a unit
** with avoidance on, sim.h, still has its velocity chosen by the
** avoidance pass from the wish this sets).
*/
#ifndef NAV_SIM_UNIT_H
#define NAV_SIM_UNIT_H

#include "grid/grid_search.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UNIT_POINT_REACH 0.5f /* metres: a point goal is reached this near */

typedef enum NavUnitStatus {
    NAV_UNIT_NONE = 0, /* no order */
    NAV_UNIT_MOVING,
    NAV_UNIT_ARRIVED,
    NAV_UNIT_FAILED, /* nowhere to go: the class has no way there */
} NavUnitStatus;

typedef struct NavUnitInfo {
    NavUnitStatus status;
    const char *doing; /* "walking", "following", "detour", "waiting for a way round", ... (static text) */
    GridGoal goal;     /* the order's goal */
    int waypoints;     /* long path waypoints left */
    int detour_points; /* short path waypoints left */
    uint32_t plans;    /* long paths planned for this order */
    uint32_t detours;  /* short paths found for this order */
    uint32_t failed;   /* short path queries that found no way */
    float wait;        /* seconds waiting now */
    bool goal_moved;   /* the goal had no reachable cell: it goes to the nearest one */
} NavUnitInfo;

/* Give bot id an order to move to goal (replacing any). False with err
** for a bad bot or goal, or out of memory. */
bool sim_unit_move(NavSim *sim, uint32_t id, const GridGoal *goal, NavError *err);
/* Follow the point (x, y), which the caller moves each tick (a formation
** slot): straight to it when the grid lets the unit, else by a long path
** planned again when the point has moved away from it; at pace (a share of
** its speed, 0..1) when on it, faster when behind. It never arrives: on
** the point it stands, doing "in formation". False for a bad bot or
** point, or out of memory. */
bool sim_unit_follow(NavSim *sim, uint32_t id, float x, float y, float pace);
/* Drop the order: the bot stands and its controls are its brain's again. */
void sim_unit_stop(NavSim *sim, uint32_t id);
/* The bot's order and how it goes; status NAV_UNIT_NONE when it has none. */
void sim_unit_info(const NavSim *sim, uint32_t id, NavUnitInfo *out);
/* The long path left (metres, x y pairs from the next waypoint) and the
** detour left: pointers valid until the next tick (NULL when none); counts in *n. */
const float *sim_unit_path(const NavSim *sim, uint32_t id, int *n);
const float *sim_unit_detour(const NavSim *sim, uint32_t id, int *n);

/* Has it an order it is not done with (walking, or waiting for a way:
** both count toward its stuck time when it does not move)? */
bool sim_unit_wishes(const NavSim *sim, uint32_t id);

/* Figures over every unit since the sim began. */
typedef struct NavUnitStats {
    uint64_t plans;        /* long paths */
    uint64_t detours;      /* short paths found */
    uint64_t detour_fails; /* short paths that found no way */
    uint64_t replans;      /* long paths planned again because detours failed */
    uint64_t blocked;      /* moves found blocked */
} NavUnitStats;
void sim_unit_stats(const NavSim *sim, NavUnitStats *out);

/* The last detour search's graph (grid_short_visit), for the window. */
struct GridShortVisitor;
void sim_unit_visit_short(const NavSim *sim, const struct GridShortVisitor *v);

/* sim_step's unit pass (sim.c calls it) and the memory it holds. */
void sim_unit_pass(NavSim *sim);
size_t sim_unit_memory(const NavSim *sim);
void sim_unit_free(NavSim *sim);

/* {======= formations (sim_formation.c) ======= */

/* A group of units that moves as one: the formation's anchor walks one
** long path, planned once for the widest class of its members, at the
** pace of the slowest (slowing further while stragglers catch up); each
** member follows its slot (sim_unit_follow), a fixed offset from the
** anchor turned to the way it goes. Slots are given out by nearest when
** the formation is ordered to move and kept while it moves. Where the
** ground is narrower than the formation the anchor sees it ahead and
** the formation narrows to the files that fit (ranks lengthen), and it
** widens again after. At the goal it stands in shape, every member
** facing the way it came. */

typedef enum NavFormationShape {
    NAV_FORMATION_LINE = 0, /* one rank */
    NAV_FORMATION_BOX,      /* as many files as ranks */
    NAV_FORMATION_COLUMN,   /* two files */
    NAV_FORMATION_WEDGE,    /* one at the tip, each rank one wider */
    NAV_FORMATION_SHAPES
} NavFormationShape;

typedef struct NavFormationDesc {
    NavFormationShape shape;
    float spacing; /* metres between slots; 0: the widest member's width + 0.6 */
} NavFormationDesc;

typedef enum NavFormationStatus {
    NAV_FORMATION_IDLE = 0, /* formed, no order */
    NAV_FORMATION_MOVING,
    NAV_FORMATION_ARRIVED,
    NAV_FORMATION_FAILED, /* no way there for its widest class */
} NavFormationStatus;

typedef struct NavFormationInfo {
    NavFormationStatus status;
    NavFormationShape shape;
    int members;
    float x, y;           /* the anchor: the formation's centre */
    float facing;         /* degrees, 0 = east */
    int files;            /* files now (fewer while narrowed) */
    int full_files;       /* files of the full shape */
    float spacing;        /* metres */
    float slot_error;     /* mean distance from the members to their slots, metres */
    float slot_error_max; /* the largest */
    int path_left;        /* anchor waypoints left */
} NavFormationInfo;

/* Make a formation of n bots (each in at most one formation; one already
** in another leaves it). Returns its id (> 0), or -1 with err set. */
int sim_formation_create(NavSim *sim, const uint32_t *ids, int n, const NavFormationDesc *desc, NavError *err);
/* Order it to (x, y): slots given out afresh, one long path. */
bool sim_formation_move(NavSim *sim, int f, float x, float y, NavError *err);
/* After sim_formation_move: the way it is to face at the goal (degrees,
** 0 = east), instead of the way it went; a formation forming up where it
** stands turns to it at once. */
bool sim_formation_face(NavSim *sim, int f, float degrees, NavError *err);
/* Its members are units without orders again. */
void sim_formation_disband(NavSim *sim, int f);
bool sim_formation_info(const NavSim *sim, int f, NavFormationInfo *out);
/* The members (ids) and their slot points now, in member order; returns
** how many (at most cap). */
int sim_formation_slots(const NavSim *sim, int f, uint32_t *ids, float *xy, int cap);
/* Member k's id and slot point now; false past the last member. */
bool sim_formation_slot(const NavSim *sim, int f, int k, uint32_t *id, float xy[2]);
/* Formation ids run from 1 to this (some may be disbanded). */
int sim_formation_count(const NavSim *sim);
/* The formation bot id is in, 0 when none. */
int sim_formation_of(const NavSim *sim, uint32_t id);
/* How far ahead of its formation's anchor bot id's slot is (metres, 0
** when in none): between two members the one further back makes room
** (sim_avoid.c), so that the ranks fill from the front and a member
** left behind gets back into a moving file. */
float sim_formation_lead(const NavSim *sim, uint32_t id);
/* sim_step's formation pass (before the unit pass), memory, freeing. */
void sim_formation_pass(NavSim *sim);
size_t sim_formation_memory(const NavSim *sim);
void sim_formation_free(NavSim *sim);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

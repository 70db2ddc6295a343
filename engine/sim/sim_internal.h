/*
** sim_internal.h — the simulation's layout, shared by the sim modules.
*/
#ifndef NAV_SIM_INTERNAL_H
#define NAV_SIM_INTERNAL_H

#include "sim/sim.h"
#include "sim/sim_debug.h"


typedef struct SimObstacle {
    uint32_t id;
    float mins[3], maxs[3];
    uint32_t route_ids[NAV_MAX_CLASSES]; /* per class's router, 0 when none */
} SimObstacle;

/* A bot's body where it is now, kept beside the bucket lists so that a
** search reads one small record rather than the whole NavBot. */
typedef struct SimBucketBot {
    /* what every neighbour search reads first, together */
    float x, y, z; /* feet */
    float r;       /* half width */
    uint32_t id;
    float h;      /* height (crouched or not) */
    float bx, by; /* where it was bucketed */
    float vx, vy; /* velocity */
    float resp;   /* avoidance responsibility; 0: does not avoid */
} SimBucketBot;

/* Bots bucketed by the cell of a coarse grid at the start of each tick,
** so a trace looks only at bots near its sweep. */
typedef struct SimBuckets {
    float cell; /* metres */
    int w, h;
    uint32_t *first;    /* per bucket: into order, w * h + 1 */
    uint32_t *order;    /* bot ids by bucket */
    SimBucketBot *body; /* per entry of order: the bot's body now (sim_bucket_moved) */
    uint32_t *slot;     /* per bot id: its entry in order; UINT32_MAX while it is only in far */
    uint32_t bucketed;  /* bots in order (those there at the start of the tick) */
    uint32_t *far;      /* bots moved far this tick (teleported): always candidates */
    uint32_t far_count;
    uint32_t cap; /* bots far, order, slot and body have room for */
    float slack;  /* metres: the furthest a bot not in far has moved since */
    float moved;  /* metres: the furthest any record has moved since, far or not (infinite: not at a number) */
    float rmax;   /* metres: the widest half width of a bucketed body */
} SimBuckets;

/* Accelerations of a body toward its wished velocity (sim_move.c), also
** what the avoidance pass expects a body to reach in a tick. */
#define SIM_GROUND_ACCEL 40.0f /* m/s^2 */
#define SIM_WATER_ACCEL 15.0f

/* A bot's avoidance (sim_avoid.c): its settings and this tick's answer. */
typedef struct SimAvoidBot {
    NavAvoidDesc desc; /* defaults filled in; desc.on: avoids */
    float vel[2];      /* the velocity to walk with this tick */
    uint8_t use;       /* SIM_AVOID_USE_* */
} SimAvoidBot;

enum {
    SIM_AVOID_USE_NONE = 0, /* walk with the wish */
    SIM_AVOID_USE_ACCEL,    /* accelerate toward vel as toward a wish */
    SIM_AVOID_USE_DIRECT    /* take vel at once: accelerating would cross an obstacle */
};

/* What a bot's last floor lookup and ground probe against the world alone
** found (sim_move.c), by where they were made: both depend on nothing
** else, and a body at rest (most of a crowd) asks the same every tick. */
typedef struct SimMoveMemo {
    float floor_at[3]; /* feet where floor was looked up */
    const NavFloor *floor;
    bool floor_known;
    float probe_at[3]; /* feet where probe was made, with this body: */
    int probe_cls;
    bool probe_crouched;
    bool probe_known;
    NavTrace probe;
} SimMoveMemo;

typedef struct SimAvoidScratch SimAvoidScratch;
typedef struct SimUnits SimUnits;
typedef struct SimFormations SimFormations;

/* What sim_goal.c keeps per bot to judge progress. */
typedef struct SimTrack {
    float before[3]; /* position at the start of the tick */
    float goal[3];   /* the head goal the best is for */
    bool goal_set;
    int stage;              /* 0 routing to the goal's area, 1 in it; -1 not looked yet */
    uint32_t best;          /* best remaining time, hundredths */
    uint32_t world_changes; /* sim->world_changes when best was set */
    float since;            /* seconds since the last progress */
    bool fresh;             /* best is unset for a new goal: the first look counts */
    bool rebased;           /* a new plan: measure afresh, the clock running on */
    float waited;           /* seconds of the waiting spell now */
    /* the links the brain's route shuns (sim_bot_set_route); avoid is
    ** allocated (SIM_ROUTE_AVOID_MAX) the first time there are any */
    RouteAvoid *avoid;
    int avoid_count;
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
    SimTrack *track; /* per bot, sim_goal.c */
    uint32_t track_cap;
    SimMoveMemo *memo; /* per bot, sim_move.c */
    uint32_t memo_cap;
    uint32_t world_changes; /* obstacles came or went: routes may have grown */
    float floor_z;          /* the lowest floor of the world */
    SimBuckets buckets;
    /* entities */
    NavEntityState *ent;
    int ent_count;
    int *solid; /* entities with a solid box (lifts, doors, crates), in index order */
    int solid_count;
    /* obstacles */
    SimObstacle *obstacles;
    uint32_t obstacle_count, obstacle_cap, next_obstacle;
    /* trace scratch: candidate boxes and their owners */
    NavBox *boxes;
    uint32_t *box_owner; /* kind << 24 | index */
    int box_cap;
    struct SimGrid *grid; /* sim_grid.c: NULL until first used */
    /* sim_show.c: per bot, made on first record while enabled */
    SimBotShow **show;
    uint32_t show_cap;
    bool show_on;
    /* sim_avoid.c: per bot (avoid_cap entries, zeroed = off), and the
    ** solver's scratch, made on first use */
    SimAvoidBot *avoid;
    uint32_t avoid_cap;
    uint32_t avoid_on; /* bots with avoidance on */
    SimAvoidScratch *avoid_scratch;

    struct SimClaims *claims;         /* sim_claim.c: NULL until the first claim */
    struct SimUnits *units;           /* sim_unit.c: NULL until the first unit order */
    struct SimFormations *formations; /* sim_formation.c: NULL until the first formation */
    /* sim_place.c: bot arrays a spawn outgrew, and the tick of the last */
    NavBot **retired;
    uint32_t retired_count;
    uint64_t retired_tick;
    /* sim_marks.c: debug drawings from brains, while show is on */
    SimMark *marks;
    uint32_t mark_count, mark_cap;
    struct SimLearn *learn; /* sim_learn.c: NULL until a bot has a memory */
};

/* A way a body moved this tick: kept for the run and for learning. */
static inline void sim_moved_by(NavBot *b, uint32_t bits)
{
    b->travel_used |= bits;
    b->moved_by |= bits;
}

/* sim_learn.c: navigation memories, learning by watching, and the sliced
** searches within memories. */
struct SimLearn;
void sim_learn_pass(NavSim *sim); /* after the bots moved */
void sim_learn_free(NavSim *sim);
/* Did the bot's memory learn an area since the last call (exploring is
** progress)? */
bool sim_learn_discovered(NavSim *sim, uint32_t id);

/* sim_unit_geom.c: unit motion's geometry (sim_unit.c). */
struct GridGoal;
struct NavGrid;
bool unit_in_goal(const struct GridGoal *g, float x, float y);
/* Append (x, y) to a growing list of points (2 floats each; count and cap
** in points). False, the list unchanged, when out of memory. */
bool unit_push_point(float **pts, int *count, int *cap, float x, float y);
/* Every navcell the segment a-b crosses passable (the start's excepted).
** `leaving`: from a blocked start, the blocked cells up to the first open
** one pass too. A formation member is pushed into nooks (among trees,
** where its body fits but its clearance does not) by its mates, where a
** unit on its own is not; for it the way out may cross them. */
bool unit_segment_clear(const struct NavGrid *g, int cls, float ax, float ay, float bx, float by, bool leaving);
/* Does the move from p by d enter the square of half side h round (cx, cy)? */
bool unit_segment_hits_square(const float p[2], const float d[2], float cx, float cy, float h);
/* Does a box of half width r at (qx, qy) overlap a terrain-blocked cell? */
bool unit_box_hits_terrain(const struct NavGrid *g, int cls, float r, float qx, float qy);
/* ...that it does not overlap at p already? A body pressed into a wall's
** cell may step on out of it: only new terrain blocks it. */
bool unit_box_enters_terrain(const struct NavGrid *g, int cls, float r, const float p[2], float qx, float qy);
/* A short path's turn moved out to where a box of half width r fits. */
void unit_body_room(const struct NavGrid *g, int cls, float r, float v[2]);
/* The way toward t a box walks: t, or the centre of a cell on the way. */
void unit_body_way(const struct NavGrid *g, int cls, float r, const float p[2], float t[2]);
bool unit_body_segment_clear(const struct NavGrid *g, int cls, float r, float ax, float ay, float bx, float by,
                             bool leaving);
/* Where a bot near another stands, and its half width. */
typedef struct UnitBody {
    float x, y, r;
} UnitBody;
/* Ids of the bots (not b) within range of b's feet on both axes, at most
** max; with body (may be NULL), where each stands and its half width. */
int unit_near(const NavSim *sim, const NavBot *b, float range, uint32_t *out, UnitBody *body, int max);

/* sim.c */
/* Gather the solid boxes a sweep from start by delta of a box can meet. */
int sim_gather_boxes(NavSim *sim, const float mins[3], const float maxs[3], const float start[3], const float delta[3],
                     int ignore_bot);
void sim_world_box(const NavSim *sim, const NavBot *b, const float pos[3], float mins[3], float maxs[3]);
/* Bot b moved (or crouched): its bucket record follows, and the slack
** grows to how far it is from where it was bucketed. */
void sim_bucket_moved(NavSim *sim, const NavBot *b);

/* sim_goal.c: goals, arrival, progress, the floor under the world. */
bool sim_track_reserve(NavSim *sim, uint32_t count);
void sim_goals_before_move(NavSim *sim);
void sim_goals_after_move(NavSim *sim);

/* sim_move.c: one bot's tick of movement; room for count bots' memos
** (false when out of memory). */
void sim_move_bot(NavSim *sim, NavBot *b);
bool sim_move_reserve(NavSim *sim, uint32_t count);
/* Carry the riders of elevator e by dz (before it moves up, after it
** moves down), by hull traces; returns how far they went (less than a
** rise when a rider is blocked above: the platform then stops there). */
float sim_carry_riders(NavSim *sim, int e, float dz);

/* sim_grid.c: keeps the grid's obstructions in step with the obstacles
** (no-ops before the grid is built), and frees it. added: false when out
** of memory, the grid unchanged. */
typedef struct SimGrid SimGrid;
bool sim_grid_obstacle_added(NavSim *sim, uint32_t id, const float mins[3], const float maxs[3]);
void sim_grid_obstacle_removed(NavSim *sim, uint32_t id);
void sim_grid_free(NavSim *sim);
/* What a grid obstruction stands for: a sim obstacle (*obstacle, its id)
** or a crate (*crate, its entity index); false when neither. */
bool sim_grid_owner(const NavSim *sim, GridObstructionId oid, uint32_t *obstacle, int *crate);
/* sim_show.c */
void sim_show_free(NavSim *sim);
void sim_marks_free(NavSim *sim);
/* Where the bot faces after its move: toward its look_at point, else its yaw. */
void sim_face_bot(NavSim *sim, NavBot *b);
/* Bot b ran into bot `other`: both note the contact (the lowest id kept). */
void sim_note_contact(NavSim *sim, NavBot *b, uint32_t other);
/* sim_avoid.c: the pass before bots move (sets each avoiding bot's
** velocity for the tick); what bot b walks toward this tick (false: its
** wish); the last guard after a move (puts a bot back at `start` when it
** ended on ground it forbids: true); and freeing. */
void sim_avoid_pass(NavSim *sim);
bool sim_avoid_target(const NavSim *sim, const NavBot *b, float vel[2], bool *direct);
bool sim_avoid_keep_off(NavSim *sim, NavBot *b, const float start[3]);
void sim_avoid_free(NavSim *sim);

/* sim_claim.c */
typedef struct SimClaims SimClaims;
void sim_claim_free(NavSim *sim);
/* sim_place.c: frees the bot arrays spawns outgrew. */
void sim_place_release(NavSim *sim);
/* sim_marks.c: appends a debug drawing as it is (no pruning, no check of
** whether drawings are kept); false when the list is full or out of
** memory. sim_mark_add and sim_pose_mark both end here. */
bool sim_mark_push(NavSim *sim, const SimMark *m);

#endif

/*
** sim_unit.c — unit motion (sim_unit.h): long paths, the next-move test
** against the grid and the other units, detours by the short-range
** pathfinder, following, waiting, re-planning and arrival round a point.
*/
#include "sim/sim_unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "grid/grid.h"
#include "grid/grid_short.h"
#include "sim/sim_internal.h"

#define UNIT_PLANS_PER_TICK 128  /* long paths a tick, all units; the others wait their turn */
#define UNIT_LOOK 0.5f           /* seconds of walking the next-move test looks ahead */
#define UNIT_REACH 0.6f          /* metres: a waypoint is passed this near */
#define UNIT_SHORT_RANGE 10.0f   /* metres: half side of the short-range search square */
#define UNIT_SHORT_VERTICES 512  /* the short-range search's budget */
#define UNIT_REPLAN 3            /* failed detours in a row before the long path is planned again */
#define UNIT_ROOMY 1.5f          /* a roomy path at most this many times the plain one... */
#define UNIT_ROOMY_SLACK 5.0f    /* ...plus these metres */
#define UNIT_AROUND_AHEAD 6.0f   /* metres: units this near ahead are obstructions for a plan round them */
#define UNIT_AROUND_MAX 8        /* ...at most so many */
#define UNIT_AROUND 3.0f         /* a path round them at most this many times the plain one... */
#define UNIT_AROUND_SLACK 20.0f  /* ...plus these metres */
#define UNIT_SHORTCUT_EVERY 8    /* ticks between looks for a later waypoint in sight */
#define UNIT_DETOURS_PER_TICK 64 /* short paths a tick, all units */
#define UNIT_DETOUR_EVERY 6      /* ticks at least between two detours found */
#define UNIT_RETRY 4             /* ticks between detour tries, times the failures in a row */
#define UNIT_NEAR_MAX 256        /* units a move or a detour is tested against */
#define UNIT_DETOUR_UNITS 6.0f   /* metres: units this near are obstacles for a detour */
#define UNIT_DETOUR_MAX 32       /* waypoints a detour keeps */
#define UNIT_FOLLOW 0.35f        /* a unit ahead going our way this fast (share of our speed) is followed */
#define UNIT_FOLLOW_REPLAN 15    /* ticks at least between two paths to a slot out of sight */
#define UNIT_SLOT_REACH 0.3f     /* metres: a unit this near its formation slot is on it */
#define UNIT_LEAN 0.25f          /* share of its speed a unit leans on a parked one in its way with */
#define UNIT_MOVING 0.5f         /* m/s: a unit faster than this is on the move */
#define UNIT_END_TRIES 3         /* paths planned again from the end of one outside the goal */
#define UNIT_WEDGED 15           /* ticks of walking without moving before it steps back to its cell's centre */
#define UNIT_TOUCH 0.3f          /* metres between bodies that count as touching, for arrival */
#define UNIT_GIVE_UP 4.0f        /* seconds held up by units with no way round before the order fails */

enum {
    DOING_WALKING = 0,
    DOING_FOLLOWING,
    DOING_DETOUR,
    DOING_WAITING,
    DOING_PLANNING,
    DOING_ARRIVED,
    DOING_NOWHERE,
    DOING_LEAVING,
    DOING_IN_SLOT,
    DOING_GIVING_WAY,
    DOING_PASSING,
    DOING_BLOCKED,
    DOING_COUNT
};
static const char *const DOING[DOING_COUNT] = {
    "walking",
    "following",
    "detour",
    "waiting for a way round",
    "waiting for a path",
    "arrived",
    "no way there",
    "getting off a blocked cell",
    "in formation",
    "giving way",
    "making its way through",
    "blocked",
};

typedef struct SimUnit {
    uint8_t status; /* NavUnitStatus */
    uint8_t doing;
    bool plan_due;
    bool goal_moved;
    bool found;        /* the path ends in the goal: its end is arrival */
    uint8_t end_tries; /* paths planned again from a path's end outside the goal */
    bool leave;        /* still on the blocked cells its path steps off first (GRID_PATH_START_MOVED) */
    GridGoal goal;
    float *path; /* long path, metres, x y pairs */
    int path_count, path_next, path_cap;
    float detour[UNIT_DETOUR_MAX * 2];
    int detour_count, detour_next;
    uint16_t fails;      /* detours failed in a row */
    uint64_t retry_tick; /* no detour try before this tick */
    uint32_t plans, detours, failed;
    float wait;
    /* Following a point that moves (a formation slot): the goal is
    ** moved each tick; pace is the share of its speed to keep there. */
    bool follow;
    int path_cls;     /* the grid class the long path was planned on (a roomy twin, or its own) */
    bool plan_around; /* the next plan goes round the units in the way (detours kept failing) */
    float around[2];  /* ...the way it wanted to go then (unit vector) */
    float pace;
    uint8_t still;  /* ticks it has wished to walk without moving */
    float aside[2]; /* giving way: the free direction it steps in while it waits (0, 0: none) */
} SimUnit;

struct SimUnits {
    SimUnit *u; /* per bot id, cap entries; zeroed = no order */
    uint32_t cap;
    uint32_t active; /* units with an order */
    GridShortSearch *short_search;
    GridShortSquare squares[UNIT_NEAR_MAX];
    GridShortPoint short_points[UNIT_DETOUR_MAX];
    uint64_t plan_tick;
    int plans_this_tick;
    uint64_t detour_tick;
    int detours_this_tick;
    NavUnitStats stats;
};

/* {======= orders ======= */

static SimUnits *units(NavSim *sim)
{
    if (!sim->units) sim->units = nav_calloc(1, sizeof *sim->units);
    return sim->units;
}

static bool grow(SimUnits *us, uint32_t n)
{
    if (n <= us->cap) return true;
    uint32_t cap = us->cap ? us->cap : 64;
    while (cap < n) cap *= 2;
    SimUnit *u = nav_realloc(us->u, cap * sizeof *u);
    if (!u) return false;
    memset(u + us->cap, 0, (cap - us->cap) * sizeof *u);
    us->u = u;
    us->cap = cap;
    return true;
}

bool sim_unit_move(NavSim *sim, uint32_t id, const GridGoal *goal, NavError *err)
{
    if (id >= sim->bot_count) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "bot", "no bot %u", (unsigned)id);
        return false;
    }
    if (!grid_goal_valid(goal)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "goal", "not a valid goal");
        return false;
    }
    SimUnits *us = units(sim);
    if (!us || !grow(us, sim->bot_count)) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "units", "out of memory for unit orders");
        return false;
    }
    SimUnit *u = &us->u[id];
    if (u->status == NAV_UNIT_NONE) us->active++;
    float *path = u->path;
    int cap = u->path_cap;
    memset(u, 0, sizeof *u);
    u->path = path;
    u->path_cap = cap;
    u->status = NAV_UNIT_MOVING;
    u->goal = *goal;
    u->plan_due = true;
    u->doing = DOING_PLANNING;
    return true;
}

void sim_unit_stop(NavSim *sim, uint32_t id)
{
    SimUnits *us = sim->units;
    if (!us || id >= us->cap || us->u[id].status == NAV_UNIT_NONE) return;
    SimUnit *u = &us->u[id];
    u->status = NAV_UNIT_NONE;
    u->path_count = u->path_next = u->detour_count = u->detour_next = 0;
    us->active--;
    NavBotControl *c = &sim->bots[id].control;
    c->move[0] = c->move[1] = 0.0f;
}

bool sim_unit_follow(NavSim *sim, uint32_t id, float x, float y, float pace)
{
    SimUnits *us = units(sim);
    if (id >= sim->bot_count || !isfinite(x) || !isfinite(y) || !us || !grow(us, sim->bot_count)) return false;
    SimUnit *u = &us->u[id];
    if (u->status == NAV_UNIT_NONE || !u->follow) {
        if (!sim_unit_move(sim, id, &(GridGoal){ .type = GRID_GOAL_POINT, .x = x, .y = y }, NULL)) return false;
        u->follow = true;
    }
    /* The slot has moved well away from where the path (and any detour)
    ** leads: plan again (drive() walks straight instead when it can). */
    if (u->path_count > 0) {
        const float *end = &u->path[2 * (u->path_count - 1)];
        float ex = x - end[0], ey = y - end[1];
        if (ex * ex + ey * ey > 4.0f) {
            u->plan_due = true;
            u->path_count = u->path_next = 0;
            u->detour_count = u->detour_next = 0;
        }
    }
    u->goal.x = x;
    u->goal.y = y;
    u->pace = pace > 0.0f && pace < 1.0f ? pace : 1.0f;
    u->status = NAV_UNIT_MOVING;
    return true;
}

void sim_unit_info(const NavSim *sim, uint32_t id, NavUnitInfo *out)
{
    memset(out, 0, sizeof *out);
    out->doing = "";
    const SimUnits *us = sim->units;
    if (!us || id >= us->cap || us->u[id].status == NAV_UNIT_NONE) return;
    const SimUnit *u = &us->u[id];
    out->status = (NavUnitStatus)u->status;
    out->doing = DOING[u->doing];
    out->goal = u->goal;
    out->waypoints = u->path_count - u->path_next;
    out->detour_points = u->detour_count - u->detour_next;
    out->plans = u->plans;
    out->detours = u->detours;
    out->failed = u->failed;
    out->wait = u->wait;
    out->goal_moved = u->goal_moved;
}

const float *sim_unit_path(const NavSim *sim, uint32_t id, int *n)
{
    const SimUnits *us = sim->units;
    *n = 0;
    if (!us || id >= us->cap || us->u[id].status != NAV_UNIT_MOVING) return NULL;
    const SimUnit *u = &us->u[id];
    *n = u->path_count - u->path_next;
    return *n > 0 ? u->path + 2 * u->path_next : NULL; /* no path yet: the pointer may be NULL */
}

const float *sim_unit_detour(const NavSim *sim, uint32_t id, int *n)
{
    const SimUnits *us = sim->units;
    *n = 0;
    if (!us || id >= us->cap || us->u[id].status != NAV_UNIT_MOVING) return NULL;
    const SimUnit *u = &us->u[id];
    *n = u->detour_count - u->detour_next;
    return *n > 0 ? u->detour + 2 * u->detour_next : NULL;
}

bool sim_unit_wishes(const NavSim *sim, uint32_t id)
{
    const SimUnits *us = sim->units;
    if (!us || id >= us->cap) return false;
    const SimUnit *u = &us->u[id];
    return u->status == NAV_UNIT_MOVING && u->doing != DOING_IN_SLOT;
}

void sim_unit_visit_short(const NavSim *sim, const GridShortVisitor *v)
{
    if (sim->units && sim->units->short_search) grid_short_visit(sim->units->short_search, v);
}

void sim_unit_stats(const NavSim *sim, NavUnitStats *out)
{
    memset(out, 0, sizeof *out);
    if (sim->units) *out = sim->units->stats;
}

size_t sim_unit_memory(const NavSim *sim)
{
    const SimUnits *us = sim->units;
    if (!us) return 0;
    size_t n = sizeof *us + us->cap * sizeof *us->u + (us->short_search ? grid_short_memory(us->short_search) : 0);
    for (uint32_t i = 0; i < us->cap; i++) n += (size_t)us->u[i].path_cap * 2 * sizeof(float);
    return n;
}

void sim_unit_free(NavSim *sim)
{
    SimUnits *us = sim->units;
    if (!us) return;
    for (uint32_t i = 0; i < us->cap; i++) nav_free(us->u[i].path);
    nav_free(us->u);
    grid_short_destroy(us->short_search);
    nav_free(us);
    sim->units = NULL;
}

/* }======= */

/* {======= planning ======= */

static bool keep_point(SimUnit *u, float x, float y)
{
    return unit_push_point(&u->path, &u->path_count, &u->path_cap, x, y);
}

/* The long path on grid class cls into *p. */
static NavStatus grid_plan(NavSim *sim, const NavBot *b, SimUnit *u, int cls, SimGridPath *p)
{
    return sim_grid_path(sim, cls, b->pos[0], b->pos[1], &u->goal, &(SimGridQuery){ .smooth = true }, p, NULL);
}

/* Another path than the plain one, *p of length `plain`: the path on
** class cls (the grid as it stands now) when it reaches the goal itself,
** with none of the flags `refuse`, and is at most factor times as long
** plus slack. True with *alt set when it is taken. */
static bool other_path(NavSim *sim, const NavBot *b, SimUnit *u, int cls, uint32_t refuse, float factor, float slack,
                       double plain, SimGridPath *alt)
{
    return NAV_SUCCEEDED(grid_plan(sim, b, u, cls, alt)) && (alt->flags & GRID_PATH_FOUND) && !(alt->flags & refuse) &&
           alt->length <= factor * plain + slack;
}

/* A unit on its own plans on its class's roomy twin first (the grid's
** roomy_margin): wide ways, not the lanes one body wide between trees
** where units coming from both ends meet head on and wait. Taken when it
** reaches the goal itself from where the unit stands, at most UNIT_ROOMY
** times as long as the plain path (+ its slack). *p is then the roomy
** path, else the plain one planned again (the paths share one buffer). */
static void roomy_path(NavSim *sim, const NavBot *b, SimUnit *u, SimGridPath *p)
{
    const NavGrid *g = sim->grid ? sim_grid(sim, NULL) : NULL;
    int wide = g ? grid_roomy_class(g, b->cls) : -1;
    if (wide < 0) return;
    SimGridPath r;
    if (other_path(sim, b, u, wide, GRID_PATH_START_MOVED | GRID_PATH_GOAL_MOVED, UNIT_ROOMY, UNIT_ROOMY_SLACK,
                   p->length, &r)) {
        *p = r;
        u->path_cls = wide;
        return;
    }
    grid_plan(sim, b, u, b->cls, p);
}

/* Detours round the units in the way kept failing (units met head on in
** a lane, a knot at a gap): a path with the units with orders ahead of
** it (within UNIT_AROUND_AHEAD, in the way it wanted to go) as
** obstructions in the grid for the one query, so it takes another way
** when there is one not much longer (UNIT_AROUND times the plain path +
** its slack), and makes room for them as it goes. *p is then that path,
** else the plain one planned again. The obstructions are gone when it
** returns. */
static void around_path(NavSim *sim, const NavBot *b, SimUnit *u, SimGridPath *p)
{
    NavGrid *g = sim->grid ? sim_grid(sim, NULL) : NULL;
    const SimUnits *us = sim->units;
    if (!g || !us) return;
    uint32_t near[UNIT_AROUND_MAX * 4];
    int nn = unit_near(sim, b, UNIT_AROUND_AHEAD, near, NULL, UNIT_AROUND_MAX * 4);
    GridObstructionId ids[UNIT_AROUND_MAX];
    int placed = 0;
    for (int k = 0; k < nn && placed < UNIT_AROUND_MAX; k++) {
        const NavBot *o = &sim->bots[near[k]];
        float ox = o->pos[0] - b->pos[0], oy = o->pos[1] - b->pos[1];
        if (ox * u->around[0] + oy * u->around[1] <= 0.0f || ox * ox + oy * oy > UNIT_AROUND_AHEAD * UNIT_AROUND_AHEAD)
            continue;
        /* Only units with orders of their own: one at rest with nothing
        ** to do makes room when leaned on. */
        if (near[k] >= us->cap || us->u[near[k]].status != NAV_UNIT_MOVING) continue;
        float r = world_class(sim->w, o->cls)->radius;
        GridShape sh = { o->pos[0], o->pos[1], r, r, 0.0f };
        if (NAV_SUCCEEDED(grid_add_obstruction(g, &sh, &ids[placed], NULL))) placed++;
    }
    if (placed == 0) return;
    SimGridPath r;
    bool took = other_path(sim, b, u, b->cls, GRID_PATH_GOAL_MOVED, UNIT_AROUND, UNIT_AROUND_SLACK, p->length, &r);
    for (int k = 0; k < placed; k++) grid_remove_obstruction(g, ids[k], NULL);
    if (took) *p = r;
    else grid_plan(sim, b, u, b->cls, p);
}

/* Plan the long path. False when this tick's plans are spent (the unit
** waits its turn). */
static bool plan(NavSim *sim, SimUnits *us, const NavBot *b, SimUnit *u)
{
    if (us->plan_tick != sim->tick) us->plan_tick = sim->tick, us->plans_this_tick = 0;
    if (us->plans_this_tick >= UNIT_PLANS_PER_TICK) return false;
    us->plans_this_tick++;
    u->plan_due = false;
    u->plans++;
    us->stats.plans++;
    u->path_count = u->path_next = 0;
    u->detour_count = u->detour_next = 0;
    u->path_cls = b->cls;
    SimGridPath p;
    NavStatus s = grid_plan(sim, b, u, b->cls, &p);
    if (NAV_SUCCEEDED(s) && (p.flags & GRID_PATH_FOUND) && !u->follow) {
        if (u->plan_around) around_path(sim, b, u, &p);
        else roomy_path(sim, b, u, &p);
    }
    u->plan_around = false;
    if (NAV_FAILED(s) || (p.flags & GRID_PATH_NO_PATH)) {
        u->status = NAV_UNIT_FAILED;
        u->doing = DOING_NOWHERE;
        return true;
    }
    const NavGrid *g = sim->grid ? sim_grid(sim, NULL) : NULL;
    float cs = g ? grid_cell_size(g) : 1.0f;
    u->goal_moved = (p.flags & GRID_PATH_GOAL_MOVED) != 0;
    /* The first point is the start's cell: skip it unless the unit is off
    ** a blocked cell and must walk to it first. */
    for (int k = 0; k < p.count; k++) {
        float x = ((float)p.points[k].x + 0.5f) * cs, y = ((float)p.points[k].y + 0.5f) * cs;
        /* The start cell's centre is kept when the unit, off it, cannot see
        ** the next point: smoothing drew that line from the centre. */
        if (k == 0 && p.count > 1 && !(p.flags & GRID_PATH_START_MOVED) && g) {
            float nx = ((float)p.points[1].x + 0.5f) * cs, ny = ((float)p.points[1].y + 0.5f) * cs;
            if (unit_segment_clear(g, b->cls, b->pos[0], b->pos[1], nx, ny, u->follow)) continue;
        }
        if (!keep_point(u, x, y)) break;
    }
    /* A path into a goal ends at the centre of the first cell that touches
    ** it (any point of the cell in the shape). Walk on to the point of that
    ** cell nearest the goal's centre that the body stands on clear of
    ** terrain (toward the cell's centre, where it always does): the point
    ** itself for a point goal in open ground. The grid counts the cell as
    ** in the goal, so the path's end is arrival, wherever the body stops. */
    u->found = (p.flags & GRID_PATH_FOUND) && !u->goal_moved;
    bool inverted = u->goal.type == GRID_GOAL_INV_CIRCLE || u->goal.type == GRID_GOAL_INV_SQUARE;
    if (u->found && !inverted && g && p.count > 0) {
        const GridWaypoint *last = &p.points[p.count - 1];
        float c0 = ((float)last->x + 0.5f) * cs, c1 = ((float)last->y + 0.5f) * cs;
        float in = 0.01f * cs; /* strictly inside the cell: its sides may border blocked ones */
        float x = fminf(fmaxf(u->goal.x, (float)last->x * cs + in), (float)(last->x + 1) * cs - in);
        float y = fminf(fmaxf(u->goal.y, (float)last->y * cs + in), (float)(last->y + 1) * cs - in);
        float r = world_class(sim->w, b->cls)->radius;
        for (int k = 0; k < 8 && unit_box_hits_terrain(g, b->cls, r, x, y); k++)
            x += (c0 - x) * 0.4f, y += (c1 - y) * 0.4f;
        if (unit_box_hits_terrain(g, b->cls, r, x, y)) x = c0, y = c1;
        keep_point(u, x, y);
    } else if (u->found && inverted && g && p.count > 0 && u->path_count > 0) {
        /* An inverted goal's last cell has a corner out of the shape, not
        ** always its centre (the path's end): walk on to the corner out of
        ** it nearest the way there (a hair inside the cell; toward its
        ** centre while the body would touch terrain there). */
        const GridWaypoint *last = &p.points[p.count - 1];
        float c0 = ((float)last->x + 0.5f) * cs, c1 = ((float)last->y + 0.5f) * cs;
        int m = u->path_count;
        float fx = m > 1 ? u->path[2 * m - 4] : b->pos[0], fy = m > 1 ? u->path[2 * m - 3] : b->pos[1];
        float in = 0.01f * cs, r = world_class(sim->w, b->cls)->radius, best = INFINITY, bx = c0, by = c1;
        for (int k = 0; k < 4 && !unit_in_goal(&u->goal, c0, c1); k++) {
            float x = k & 1 ? (float)(last->x + 1) * cs - in : (float)last->x * cs + in;
            float y = k & 2 ? (float)(last->y + 1) * cs - in : (float)last->y * cs + in;
            for (int q = 0; q < 8 && unit_box_hits_terrain(g, b->cls, r, x, y); q++)
                x += (c0 - x) * 0.4f, y += (c1 - y) * 0.4f;
            float d = (x - fx) * (x - fx) + (y - fy) * (y - fy);
            if (unit_in_goal(&u->goal, x, y) && !unit_box_hits_terrain(g, b->cls, r, x, y) && d < best)
                best = d, bx = x, by = y;
        }
        if (best < INFINITY) keep_point(u, bx, by);
    }
    u->leave = (p.flags & GRID_PATH_START_MOVED) != 0;
    u->doing = u->leave ? DOING_LEAVING : DOING_WALKING;
    return true;
}

/* A way round what blocks the unit, toward (tx, ty): the short-range
** pathfinder over the grid and the other units' squares. */
static bool detour(NavSim *sim, SimUnits *us, const NavBot *b, SimUnit *u, float tx, float ty)
{
    uint32_t near[UNIT_NEAR_MAX];
    UnitBody body[UNIT_NEAR_MAX];
    int nn = unit_near(sim, b, UNIT_DETOUR_UNITS, near, body, UNIT_NEAR_MAX);
    NavGrid *g = sim_grid(sim, NULL);
    if (!g) return false;
    if (!us->short_search) {
        us->short_search = grid_short_create(g, NULL);
        if (!us->short_search) return false;
    }
    int ns = 0;
    for (int k = 0; k < nn && ns < UNIT_NEAR_MAX; k++)
        us->squares[ns++] = (GridShortSquare){ .x = body[k].x, .y = body[k].y, .half = body[k].r };
    const NavClass *c = world_class(sim->w, b->cls);
    GridShortQuery q = { .cls = b->cls,
                         .sx = b->pos[0],
                         .sy = b->pos[1],
                         .goal = grid_goal_point(tx, ty),
                         .range = UNIT_SHORT_RANGE,
                         .clearance = c->radius,
                         .squares = us->squares,
                         .square_count = ns,
                         .max_expanded = UNIT_SHORT_VERTICES };
    GridShortPath sp = { .points = us->short_points, .cap = UNIT_DETOUR_MAX };
    if (NAV_FAILED(grid_short_find_path(us->short_search, &q, &sp, NULL))) return false;
    /* A waypoint beyond the range: a way that ends well nearer it will do,
    ** the long path is followed again from there. */
    float gx = tx - b->pos[0], gy = ty - b->pos[1];
    float now = sqrtf(gx * gx + gy * gy);
    bool nearer = sp.count >= 2 && sp.end_distance < (double)now - 1.0;
    if (!(sp.flags & GRID_SHORT_FOUND) && !nearer) return false;
    float r = c->radius;
    for (int k = 0; k < sp.count; k++) {
        float v[2] = { sp.points[k].x, sp.points[k].y };
        if (k > 0) unit_body_room(g, b->cls, r, v);
        u->detour[2 * k] = v[0];
        u->detour[2 * k + 1] = v[1];
    }
    /* Its first leg must be one the body can walk, or it is no way round. */
    if (sp.count >= 2 &&
        !unit_body_segment_clear(g, b->cls, r, b->pos[0], b->pos[1], u->detour[2], u->detour[3], u->follow))
        return false;
    u->detour_count = sp.count;
    u->detour_next = 0;
    return true;
}

/* }======= */

/* {======= the pass ======= */

static void stand(NavBot *b, uint8_t why, SimUnit *u, float dt)
{
    b->control.move[0] = b->control.move[1] = 0.0f;
    snprintf(b->control.reason, sizeof b->control.reason, "%s", DOING[why]);
    u->doing = why;
    u->wait += dt;
}

static void walk(NavBot *b, float dx, float dy, float scale, const char *reason)
{
    float d = sqrtf(dx * dx + dy * dy);
    if (d < 1e-6f) {
        b->control.move[0] = b->control.move[1] = 0.0f;
        return;
    }
    b->control.move[0] = dx / d * scale;
    b->control.move[1] = dy / d * scale;
    snprintf(b->control.reason, sizeof b->control.reason, "%s", reason);
}

/* The point the unit heads for now: the detour's next, or the path's;
** waypoints within reach are passed. False when both are used up. */
static bool target(SimUnit *u, const float p[2], float t[2])
{
    while (u->detour_next < u->detour_count) {
        float *w = &u->detour[2 * u->detour_next];
        float dx = w[0] - p[0], dy = w[1] - p[1];
        if (dx * dx + dy * dy > UNIT_REACH * UNIT_REACH * 0.25f) {
            t[0] = w[0], t[1] = w[1];
            return true;
        }
        u->detour_next++;
    }
    while (u->path_next < u->path_count) {
        float *w = &u->path[2 * u->path_next];
        float dx = w[0] - p[0], dy = w[1] - p[1];
        bool last = u->path_next == u->path_count - 1;
        float reach = last ? 0.02f : UNIT_REACH;
        if (dx * dx + dy * dy > reach * reach) {
            t[0] = w[0], t[1] = w[1];
            return true;
        }
        u->path_next++;
    }
    return false;
}

static bool same_goal(const GridGoal *a, const GridGoal *b)
{
    return a->type == b->type && a->x == b->x && a->y == b->y && a->r == b->r;
}

/* A unit following a slot: stands when on it; walks straight to it when
** the grid lets it (no long path needed), else keeps or plans one. False
** when it stands this tick. */
static bool follow_slot(NavSim *sim, NavBot *b, SimUnit *u, const float p[2])
{
    float ex = u->goal.x - p[0], ey = u->goal.y - p[1];
    if (ex * ex + ey * ey <= UNIT_SLOT_REACH * UNIT_SLOT_REACH) {
        u->detour_count = u->detour_next = 0;
        stand(b, DOING_IN_SLOT, u, 0.0f);
        u->wait = 0.0f;
        return false;
    }
    const NavGrid *g = sim_grid(sim, NULL);
    if (g && ex * ex + ey * ey < UNIT_SHORT_RANGE * UNIT_SHORT_RANGE &&
        unit_body_segment_clear(g, b->cls, world_class(sim->w, b->cls)->radius, p[0], p[1], u->goal.x, u->goal.y,
                                u->follow)) {
        u->plan_due = false;
        u->path_count = u->path_next = 0;
        keep_point(u, u->goal.x, u->goal.y);
    } else if (u->path_next >= u->path_count) {
        /* Out of path and the slot not in sight: plan again, but not every
        ** tick (a slot that moves off where a path can end would). */
        if (sim->tick < u->retry_tick) {
            stand(b, DOING_WAITING, u, sim->dt);
            return false;
        }
        u->plan_due = true;
        u->retry_tick = sim->tick + UNIT_FOLLOW_REPLAN;
    }
    return true;
}

/* Waiting for a way: steps in its free direction at half pace while that
** stays free, else stands. (Leaning toward its way at a walk instead made
** crowds worse: bodies pressed together where they should part.) */
static void give_way(NavSim *sim, NavBot *b, SimUnit *u, const UnitBody *near, int nn, float dt)
{
    if (u->aside[0] == 0.0f && u->aside[1] == 0.0f) {
        stand(b, DOING_WAITING, u, dt);
        return;
    }
    const NavClass *c = world_class(sim->w, b->cls);
    float p[2] = { b->pos[0], b->pos[1] };
    float e[2] = { u->aside[0] * 2.0f * c->radius, u->aside[1] * 2.0f * c->radius };
    for (int q = 0; q < nn; q++) {
        if (unit_segment_hits_square(p, e, near[q].x, near[q].y, near[q].r + c->radius)) {
            u->aside[0] = u->aside[1] = 0.0f;
            stand(b, DOING_WAITING, u, dt);
            return;
        }
    }
    const NavGrid *g = sim_grid(sim, NULL);
    if (g && unit_box_enters_terrain(g, b->cls, c->radius, p, p[0] + e[0] * 0.3f, p[1] + e[1] * 0.3f)) {
        u->aside[0] = u->aside[1] = 0.0f;
        stand(b, DOING_WAITING, u, dt);
        return;
    }
    u->doing = DOING_GIVING_WAY;
    u->wait += dt;
    walk(b, u->aside[0], u->aside[1], 0.5f, DOING[u->doing]);
}

/* Is another body within a few centimetres of b's (a crowd holding it,
** not the ground)? */
static bool touching_a_unit(const NavSim *sim, const NavBot *b, float r)
{
    uint32_t near[16];
    int n = unit_near(sim, b, r + sim->buckets.rmax + 0.1f, near, NULL, 16);
    for (int k = 0; k < n; k++) {
        const NavBot *o = &sim->bots[near[k]];
        float h = r + world_class(sim->w, o->cls)->radius + 0.05f;
        if (fabsf(o->pos[0] - b->pos[0]) <= h && fabsf(o->pos[1] - b->pos[1]) <= h) return true;
    }
    return false;
}

/* Where unit u, at p, heads now (its detour's next point, or its path's):
** false when it has none. */
static bool heading(const SimUnit *u, const float p[2], float w[2])
{
    const float *t = u->detour_next < u->detour_count ? &u->detour[2 * u->detour_next]
                     : u->path_next < u->path_count   ? &u->path[2 * u->path_next]
                                                      : NULL;
    if (!t) return false;
    w[0] = t[0] - p[0], w[1] = t[1] - p[1];
    return w[0] != 0.0f || w[1] != 0.0f;
}

/* Is b held up by unit o coming the other way: under orders, heading
** where b stands (nose to nose in a lane, not queued behind a crowd)? */
static bool meets_head_on(const NavSim *sim, const SimUnits *us, const NavBot *b, uint32_t oid)
{
    if (oid >= us->cap || us->u[oid].status != NAV_UNIT_MOVING || us->u[oid].follow) return false;
    const NavBot *o = &sim->bots[oid];
    float w[2];
    if (!heading(&us->u[oid], o->pos, w)) return false;
    return w[0] * (b->pos[0] - o->pos[0]) + w[1] * (b->pos[1] - o->pos[1]) > 0.0f;
}

/* Should b, blocked by unit o, back off for it? When o is under orders
** and heads where b stands (they meet head on), and b has the higher id
** or o could find no free way to step aside (it stands waiting). Units
** run in id order, so o's state is this tick's when its id is lower and
** the last tick's otherwise: the rule is the same in every run. */
static bool backs_off(const NavSim *sim, const SimUnits *us, const NavBot *b, uint32_t oid)
{
    if (!meets_head_on(sim, us, b, oid)) return false;
    const SimUnit *ou = &us->u[oid];
    bool stuck = ou->doing == DOING_WAITING && ou->aside[0] == 0.0f && ou->aside[1] == 0.0f;
    return b->id > oid || stuck;
}

static void drive(NavSim *sim, SimUnits *us, NavBot *b, SimUnit *u)
{
    const NavClass *c = world_class(sim->w, b->cls);
    float dt = sim->dt;
    float p[2] = { b->pos[0], b->pos[1] };
    if (u->follow && !follow_slot(sim, b, u, p)) return;
    if (!u->follow && unit_in_goal(&u->goal, p[0], p[1]) && u->detour_next >= u->detour_count) {
        u->status = NAV_UNIT_ARRIVED;
        stand(b, DOING_ARRIVED, u, 0.0f);
        return;
    }
    if (u->plan_due && !plan(sim, us, b, u)) {
        stand(b, DOING_PLANNING, u, dt);
        return;
    }
    if (u->status != NAV_UNIT_MOVING) {
        stand(b, u->doing, u, 0.0f);
        return;
    }
    /* Now and then, and when a detour is done: a later waypoint in sight
    ** is taken at once (a detour may have carried the unit past some), in
    ** sight on the class the path was planned on (a roomy path's short
    ** cut through a lane would undo it). */
    const NavGrid *g0 = sim_grid(sim, NULL);
    bool detour_done = u->detour_count > 0 && u->detour_next >= u->detour_count;
    if (g0 && u->detour_next >= u->detour_count && ((sim->tick + b->id) % UNIT_SHORTCUT_EVERY == 0 || detour_done)) {
        for (int k = 0; k < 2 && u->path_next + 1 < u->path_count; k++) {
            const float *w = &u->path[2 * (u->path_next + 1)];
            if (!unit_segment_clear(g0, u->path_cls, p[0], p[1], w[0], w[1], u->follow)) break;
            u->path_next++;
        }
    }
    if (detour_done) u->detour_count = u->detour_next = 0;
    float t[2];
    if (!target(u, p, t)) {
        /* The path is walked but the goal is not reached (a goal moved to
        ** the nearest reachable cell, or pushed off the last point). */
        if (u->found && !u->goal_moved && !u->follow && u->end_tries < UNIT_END_TRIES) {
            /* At the path's end, outside the shape (pushed off it, or the
            ** body could not stand nearer): try again a few times. */
            u->end_tries++;
            u->plan_due = true;
            stand(b, DOING_PLANNING, u, dt);
        } else if ((u->goal_moved || u->found) && !u->follow) {
            u->status = NAV_UNIT_ARRIVED;
            stand(b, DOING_ARRIVED, u, 0.0f);
        } else {
            u->plan_due = true;
            stand(b, DOING_PLANNING, u, dt);
        }
        return;
    }
    const NavGrid *g = sim_grid(sim, NULL);
    float way[2] = { t[0], t[1] };
    float dist_t = sqrtf((t[0] - p[0]) * (t[0] - p[0]) + (t[1] - p[1]) * (t[1] - p[1]));
    if (g) unit_body_way(g, b->cls, c->radius, p, way);
    /* Wedged: it has walked without moving for a while, touching terrain (a
    ** corner the lines above do not see). It steps back to the centre of its cell, where the
    ** body always fits, and plans again from there. */
    float v2 = b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1];
    bool walking = b->control.move[0] != 0.0f || b->control.move[1] != 0.0f;
    u->still = walking && v2 < 0.01f ? (uint8_t)(u->still < 255 ? u->still + 1 : 255) : 0;
    if (g && u->still >= UNIT_WEDGED && unit_box_hits_terrain(g, b->cls, c->radius + 0.02f, p[0], p[1]) &&
        !touching_a_unit(sim, b, c->radius)) {
        float s = grid_cell_size(g);
        float cx = (floorf(p[0] / s) + 0.5f) * s, cy = (floorf(p[1] / s) + 0.5f) * s;
        if (fabsf(cx - p[0]) > 0.02f || fabsf(cy - p[1]) > 0.02f) {
            way[0] = cx, way[1] = cy;
        } else {
            u->still = 0;
            u->plan_due = true;
            u->detour_count = u->detour_next = 0;
        }
    }
    float speed = b->crouched ? c->crouch_speed : c->run_speed;
    if (b->in_water && class_can_swim(c)) speed = c->swim_speed;
    float dx = way[0] - p[0], dy = way[1] - p[1];
    float dist = sqrtf(dx * dx + dy * dy);
    if (dist < 1e-4f) {
        dx = t[0] - p[0], dy = t[1] - p[1];
        dist = sqrtf(dx * dx + dy * dy);
    }
    float look = fminf(dist, fmaxf(2.0f * c->radius, speed * UNIT_LOOK));
    float d[2] = { dx / dist * look, dy / dist * look };
    /* The next move against the other units, grown by our radius. */
    uint32_t near[UNIT_NEAR_MAX];
    UnitBody body[UNIT_NEAR_MAX];
    int nn = unit_near(sim, b, look + c->radius + sim->buckets.rmax, near, body, UNIT_NEAR_MAX);
    int blocker = -1;
    float best = INFINITY;
    /* Units of its own formation do not block its moves (as in an RTS):
    ** they all go one way, and the avoidance pass keeps them apart. */
    int form = u->follow ? sim_formation_of(sim, b->id) : 0;
    for (int k = 0; k < nn; k++) {
        const UnitBody *o = &body[k];
        float h = o->r + c->radius;
        float ox = o->x - p[0], oy = o->y - p[1];
        if (fabsf(ox) > look + h || fabsf(oy) > look + h) continue;
        if (form && sim_formation_of(sim, near[k]) == form) continue;
        if (!unit_segment_hits_square(p, d, o->x, o->y, h)) continue;
        float dd = ox * ox + oy * oy;
        if (dd < best) best = dd, blocker = (int)near[k];
    }
    /* Pressed into its own cell's centre with no cell toward t to step to,
    ** the body cannot walk this way, whatever the line says. */
    bool boxed = g && (way[0] != t[0] || way[1] != t[1]) && fabsf(way[0] - p[0]) < 0.05f &&
                 fabsf(way[1] - p[1]) < 0.05f &&
                 unit_box_enters_terrain(g, b->cls, c->radius, p, p[0] + (t[0] - p[0]) * 0.25f / fmaxf(dist_t, 0.25f),
                                         p[1] + (t[1] - p[1]) * 0.25f / fmaxf(dist_t, 0.25f));
    bool grid_ok = !g || (!boxed && unit_segment_clear(g, b->cls, p[0], p[1], p[0] + d[0], p[1] + d[1], u->follow));
    if (blocker < 0 && grid_ok) {
        u->fails = 0;
        u->wait = 0.0f;
        /* Off a blocked cell it says so until it stands on a passable one. */
        int cx, cy;
        u->leave = u->leave && g && grid_cell_of(g, p[0], p[1], &cx, &cy) && !grid_passable(g, b->cls, cx, cy);
        u->doing = u->leave ? DOING_LEAVING : u->detour_next < u->detour_count ? DOING_DETOUR : DOING_WALKING;
        /* Slow down onto the last point rather than overshoot it. */
        bool last = u->detour_next >= u->detour_count && u->path_next == u->path_count - 1;
        float scale = last ? fminf(1.0f, dist / fmaxf(speed * dt * 3.0f, 1e-3f)) : 1.0f;
        if (u->follow) {
            /* At the slot's pace when on it, faster the further behind. */
            float ex = u->goal.x - p[0], ey = u->goal.y - p[1];
            scale *= fminf(1.0f, u->pace + 0.5f * sqrtf(ex * ex + ey * ey));
        }
        walk(b, dx, dy, scale, DOING[u->doing]);
        /* A swimmer held at a bank climbs out with a water jump. */
        if (b->in_water && v2 < 0.09f * speed * speed && u->wait == 0.0f) b->control.jump = true;
        return;
    }
    us->stats.blocked++;
    if (blocker >= 0) {
        const NavBot *o = &sim->bots[blocker];
        const SimUnit *ou = (uint32_t)blocker < us->cap ? &us->u[blocker] : NULL;
        /* Units that stand round a goal make it bigger: touching one that
        ** arrived at ours is arriving. */
        float h = world_class(sim->w, o->cls)->radius + c->radius + UNIT_TOUCH;
        if (ou && ou->status == NAV_UNIT_ARRIVED && same_goal(&ou->goal, &u->goal) && fabsf(o->pos[0] - p[0]) <= h &&
            fabsf(o->pos[1] - p[1]) <= h) {
            u->status = NAV_UNIT_ARRIVED;
            stand(b, DOING_ARRIVED, u, 0.0f);
            return;
        }
        /* One going our way: keep behind it at its pace. */
        float along = (o->vel[0] * dx + o->vel[1] * dy) / dist;
        if (grid_ok && along > UNIT_FOLLOW * speed) {
            u->doing = DOING_FOLLOWING;
            float gap = sqrtf(best) - (h - UNIT_TOUCH);
            float scale = fminf(1.0f, along / speed) * fminf(1.0f, fmaxf(0.0f, gap) / fmaxf(c->radius, 0.1f));
            walk(b, dx, dy, scale, DOING[u->doing]);
            return;
        }
        /* One on the move, when both avoid each other: the avoidance pass
        ** steers them apart, as it does in any crowd; a detour would plan
        ** round where it stands now, not where it goes. */
        bool avoids =
            b->id < sim->avoid_cap && sim->avoid[b->id].desc.on && o->id < sim->avoid_cap && sim->avoid[o->id].desc.on;
        if (grid_ok && avoids && o->vel[0] * o->vel[0] + o->vel[1] * o->vel[1] > UNIT_MOVING * UNIT_MOVING) {
            u->doing = DOING_WALKING;
            walk(b, dx, dy, 1.0f, DOING[u->doing]);
            return;
        }
        /* One at rest with nothing to do (holding where it was sent): it
        ** makes room for a body that wishes to come through (the avoidance
        ** pass), so lean on it rather than go round a crowd that stands. */
        bool parked = (!ou || ou->status != NAV_UNIT_MOVING) && o->control.move[0] == 0.0f &&
                      o->control.move[1] == 0.0f && o->vel[0] * o->vel[0] + o->vel[1] * o->vel[1] < 0.04f;
        if (grid_ok && parked && o->id < sim->avoid_cap && sim->avoid[o->id].desc.on) {
            u->doing = DOING_PASSING;
            u->wait += dt;
            walk(b, dx, dy, UNIT_LEAN, DOING[u->doing]);
            return;
        }
    }
    /* Held up for long with no way round by a unit coming the other way
    ** (two nose to nose in a lane, a chain of them): the order fails, as a unit's move does in an
    ** RTS when its short paths keep failing; the brain gives another (a
    ** new point to wander to) or holds. The units behind are no longer
    ** faced by one that will not turn back. */
    if (!u->follow && u->wait > UNIT_GIVE_UP && blocker >= 0 && meets_head_on(sim, us, b, (uint32_t)blocker)) {
        u->status = NAV_UNIT_FAILED;
        stand(b, DOING_BLOCKED, u, 0.0f);
        return;
    }
    /* Blocked: a way round, now and then; meanwhile it gives way. */
    if (sim->tick < u->retry_tick) {
        give_way(sim, b, u, body, nn, dt);
        return;
    }
    /* Met head on by a unit with a lower id that is already going round:
    ** let it. Two units that meet in a lane would otherwise each find the
    ** same way round, meet there, and do it again for ever. */
    if (blocker >= 0 && (uint32_t)blocker < us->cap && (uint32_t)blocker < b->id) {
        const NavBot *o = &sim->bots[blocker];
        const SimUnit *ou = &us->u[blocker];
        bool toward = o->control.move[0] * dx + o->control.move[1] * dy < 0.0f;
        if (toward && ou->status == NAV_UNIT_MOVING && ou->doing == DOING_DETOUR) {
            u->retry_tick = sim->tick + UNIT_RETRY;
            give_way(sim, b, u, body, nn, dt);
            return;
        }
    }
    float goal_x = t[0], goal_y = t[1];
    if (u->detour_next < u->detour_count && u->path_next < u->path_count) {
        goal_x = u->path[2 * u->path_next];
        goal_y = u->path[2 * u->path_next + 1];
    }
    /* Short paths are the dear part of a crowd's tick: at most so many a
    ** tick, all units; the others give way and ask next tick. */
    if (us->detour_tick != sim->tick) us->detour_tick = sim->tick, us->detours_this_tick = 0;
    if (us->detours_this_tick >= UNIT_DETOURS_PER_TICK) {
        u->retry_tick = sim->tick + 1;
        give_way(sim, b, u, body, nn, dt);
        return;
    }
    us->detours_this_tick++;
    if (detour(sim, us, b, u, goal_x, goal_y)) {
        u->detours++;
        us->stats.detours++;
        u->fails = 0;
        /* Walk it a while before asking again: a crowd shifts every tick,
        ** and a detour a tick is most of what ten thousand units cost. */
        u->retry_tick = sim->tick + UNIT_DETOUR_EVERY;
        u->doing = DOING_DETOUR;
        float t2[2];
        if (target(u, p, t2)) walk(b, t2[0] - p[0], t2[1] - p[1], 1.0f, DOING[u->doing]);
        return;
    }
    u->failed++;
    us->stats.detour_fails++;
    u->fails++;
    u->retry_tick = sim->tick + (uint64_t)UNIT_RETRY * (u->fails < 8 ? u->fails : 8);
    if (u->fails % UNIT_REPLAN == 0 || !grid_ok) {
        u->plan_due = true;
        us->stats.replans++;
        /* Held up by units, not the ground: plan round them. */
        if (blocker >= 0 && grid_ok) {
            u->plan_around = true;
            u->around[0] = dx / dist, u->around[1] = dy / dist;
        }
    }
    /* A free direction to step in while it waits, turning from the way it
    ** wants to go by 45 degrees at a time (to the left first for even ids):
    ** in a crowd every unit that can move makes room, and a pack comes
    ** apart from its edge inward. Not back the way it came, unless it is
    ** met head on by a unit that wants to come where it stands (a lane, a
    ** dead end's mouth): one of the two must back off or neither gets by
    ** (backs_off). Formations keep their ranks: the avoidance pass parts
    ** them. */
    u->aside[0] = u->aside[1] = 0.0f;
    float look2 = fmaxf(2.0f * c->radius, 0.5f * speed * UNIT_LOOK);
    float base = atan2f(dy, dx);
    int turns = !u->follow && blocker >= 0 && backs_off(sim, us, b, (uint32_t)blocker) ? 7 : 4;
    for (int k = 1; k <= turns && g; k++) {
        float a = base + (float)((k + 1) / 2) * (float)(NAV_PI / 4.0) * ((k & 1) ^ (b->id & 1) ? 1.0f : -1.0f);
        float e[2] = { cosf(a) * look2, sinf(a) * look2 };
        if (!unit_segment_clear(g, b->cls, p[0], p[1], p[0] + e[0], p[1] + e[1], u->follow) ||
            unit_box_enters_terrain(g, b->cls, c->radius, p, p[0] + e[0] * 0.3f, p[1] + e[1] * 0.3f))
            continue;
        bool free = true;
        for (int q = 0; q < nn && free; q++)
            free = !unit_segment_hits_square(p, e, body[q].x, body[q].y, body[q].r + c->radius);
        if (free) {
            u->aside[0] = cosf(a);
            u->aside[1] = sinf(a);
            break;
        }
    }
    give_way(sim, b, u, body, nn, dt);
}

/* For the window: the way it means to go, its detour first. */
static void show(NavSim *sim, const NavBot *b, const SimUnit *u)
{
    SimBotShow *sh = sim_show_bot(sim, b->id);
    if (!sh) return;
    int n = 0;
    for (int k = u->detour_next; k < u->detour_count && n < SIM_SHOW_ROUTE; k++, n++)
        sh->path[n][0] = u->detour[2 * k], sh->path[n][1] = u->detour[2 * k + 1], sh->path[n][2] = b->pos[2];
    sh->detour_count = n;
    for (int k = u->path_next; k < u->path_count && n < SIM_SHOW_ROUTE; k++, n++)
        sh->path[n][0] = u->path[2 * k], sh->path[n][1] = u->path[2 * k + 1], sh->path[n][2] = b->pos[2];
    sh->path_count = n;
    sh->link_count = 0;
}

void sim_unit_pass(NavSim *sim)
{
    SimUnits *us = sim->units;
    if (!us || us->active == 0) return;
    uint32_t n = sim->bot_count < us->cap ? sim->bot_count : us->cap;
    for (uint32_t i = 0; i < n; i++) {
        SimUnit *u = &us->u[i];
        if (u->status != NAV_UNIT_MOVING || sim->bots[i].fell) continue;
        drive(sim, us, &sim->bots[i], u);
        if (sim->show_on) show(sim, &sim->bots[i], u);
    }
}

/* }======= */

/*
** sim_goal.c — goals, arrival for many bots, progress and stuck time, and
** the floor under the world (sim.h "goals").
**
** ARRIVAL. A bot reaches its head goal when its feet come within the
** goal's radius, or when it touches a bot that holds the same goal point:
** one that arrived there with nothing left to do and stays near it. The
** holders form rings round the point (a depth per ring, SIM_HOLD_DEPTH at
** most), so any number of bots sent to one place all arrive, standing
** round it, the way RTS units stop when they bump into the group that got
** there first. A holder stops holding when it is given a new goal or is
** pushed far from the point.
**
** PROGRESS. Stuck means no progress toward the head goal, not standing
** still: a bot that circles a crate or paces along a step makes none. For
** a bot whose class has a router (it has routed), progress is a new best
** travel time to the goal (the router's, with the flags of the bot's last
** route query; its first leg timed to the nearest point of a walk link's
** crossed edge, see first_leg_by_edge), checked every PROGRESS_EVERY
** ticks; inside the goal's area
** it is a new best distance to the goal point. A class with no router
** measures the straight distance. Climbing a ladder or a ledge, riding a
** moving lift and being thrown by a jump pad count as progress (the route
** is being taken), and so does walking at a good pace on no area (a lane
** narrower than an area's cells that a link crosses). A change of obstacles (doors, crates, dropped boxes)
** forgets every best, since routes may have grown; so does a new plan
** (the brain routes round other links: sim_bot_set_route), though
** then the clock runs on. A bot with a navigation memory also gets on
** by learning an area it did not know (exploring, sim_learn.c). Waiting
** (a refused claim, or sim_bot_wait: for a lift, say) is not being
** stuck; it is counted apart (wait_total, wait_max). A spell without
** progress longer than STUCK_GRACE is a stuck spell: stuck_time is its
** length so far (0 between spells), stuck_total the sum of the spells,
** stuck_max the longest. A bot without goals is stuck while it wishes to
** move and does not.
*/
#include "sim/sim_internal.h"
#include "sim/sim_unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define PROGRESS_EVERY 10    /* ticks between progress checks */
#define PROGRESS_METRES 0.5f /* ...a new best by this much walking */
#define STUCK_GRACE 1.0f     /* seconds without progress before it counts */
#define TOUCH_GAP 0.12f      /* metres between bodies that touch */
#define BELOW_WORLD 10.0f    /* metres under the lowest floor */
#define PASSAGE_PACE 0.5f    /* of the run speed: walking a passage at this counts as progress */

/* {======= goals ======= */

static void drop_head_goal(NavBot *b)
{
    memmove(b->goals[0], b->goals[1], (size_t)(b->goal_count - 1) * sizeof b->goals[0]);
    b->goal_count--;
}

static bool same_point(const float a[3], const float b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

bool sim_bot_skip_goal(NavSim *sim, uint32_t id)
{
    if (id >= sim->bot_count || !sim->bots[id].goal_count) return false;
    NavBot *b = &sim->bots[id];
    drop_head_goal(b);
    b->goals_skipped++;
    return true;
}

bool sim_bot_push_goal(NavSim *sim, uint32_t id, const float pos[3], float radius)
{
    if (id >= sim->bot_count) return false;
    NavBot *b = &sim->bots[id];
    if (b->goal_count >= SIM_MAX_GOALS) return false;
    float *g = b->goals[b->goal_count++];
    memcpy(g, pos, 3 * sizeof *g);
    g[3] = radius > 0.0f ? radius : 0.75f;
    b->hold_depth = -1; /* somewhere new to go: no longer holds the last one */
    return true;
}

void sim_bot_clear_goals(NavSim *sim, uint32_t id)
{
    if (id < sim->bot_count) sim->bots[id].goal_count = 0;
}

bool sim_bot_arrived(const NavSim *sim, uint32_t id)
{
    return id < sim->bot_count && sim->bots[id].goals_reached > 0 && sim->bots[id].goal_count == 0;
}

bool sim_bot_set_route(NavSim *sim, uint32_t id, uint32_t flags, const RouteAvoid *avoid, int count)
{
    if (id >= sim->bot_count) return false;
    sim->bots[id].route_flags = flags;
    SimTrack *t = &sim->track[id];
    count = NAV_MAX(0, NAV_MIN(count, SIM_ROUTE_AVOID_MAX));
    if (count > 0 && !t->avoid) {
        t->avoid = nav_malloc(SIM_ROUTE_AVOID_MAX * sizeof *t->avoid);
        if (!t->avoid) {
            t->avoid_count = 0;
            return false;
        }
    }
    /* The same links with the same extra times, in any order: the same
    ** plan (a brain rebuilds its list for every query). */
    bool same = count == t->avoid_count;
    for (int i = 0; i < count && same; i++) {
        bool found = false;
        for (int k = 0; k < t->avoid_count && !found; k++)
            found = t->avoid[k].link == avoid[i].link && t->avoid[k].extra == avoid[i].extra;
        same = found;
    }
    if (same) return true;
    /* A new plan (links shunned or given back): the best so far was for
    ** another route. Measure afresh, the clock running on. */
    if (count > 0) memcpy(t->avoid, avoid, (size_t)count * sizeof *avoid);
    t->avoid_count = count;
    t->rebased = true;
    return true;
}

void sim_bot_wait(NavSim *sim, uint32_t id)
{
    if (id < sim->bot_count) sim->bots[id].wait_tick = sim->tick + 1;
}

bool sim_bot_waiting(const NavSim *sim, uint32_t id)
{
    if (id >= sim->bot_count) return false;
    /* Said so in the brains' turn of this tick or of the tick just simulated. */
    uint64_t w = sim->bots[id].wait_tick;
    return (w && w >= sim->tick) || sim_claim_waiting(sim, id);
}


/* }======= */

/* {======= arrival ======= */

/* A holder of goal point g touching b's body: its depth, or -1. */
static int touching_holder(const NavSim *sim, const NavBot *b, const float g[3])
{
    const NavClass *c = world_class(sim->w, b->cls);
    const SimBuckets *bk = &sim->buckets;
    int bx = (int)floorf(b->pos[0] / bk->cell), by = (int)floorf(b->pos[1] / bk->cell);
    int best = -1;
    for (int y = by - 1; y <= by + 1; y++)
        for (int x = bx - 1; x <= bx + 1; x++) {
            if (x < 0 || y < 0 || x >= bk->w || y >= bk->h) continue;
            uint32_t cell = (uint32_t)(y * bk->w + x);
            for (uint32_t k = bk->first[cell]; k < bk->first[cell + 1]; k++) {
                const NavBot *o = &sim->bots[bk->order[k]];
                if (o == b || o->hold_depth < 0 || o->hold_depth >= SIM_HOLD_DEPTH) continue;
                if (!same_point(o->held_goal, g)) continue;
                float reach = c->radius + world_class(sim->w, o->cls)->radius + TOUCH_GAP;
                if (fabsf(o->pos[0] - b->pos[0]) > reach || fabsf(o->pos[1] - b->pos[1]) > reach) continue;
                if (fabsf(o->pos[2] - b->pos[2]) > c->height) continue;
                if (best < 0 || o->hold_depth < best) best = o->hold_depth;
            }
        }
    return best;
}

static void reach_goal(NavSim *sim, NavBot *b, int depth)
{
    float g[3] = { b->goals[0][0], b->goals[0][1], b->goals[0][2] };
    drop_head_goal(b);
    b->goals_reached++;
    b->arrival_time = sim_time(sim);
    /* Holds it only with nothing else to do. */
    b->hold_depth = b->goal_count == 0 ? depth : -1;
    memcpy(b->held_goal, g, sizeof g);
}

static void check_goal(NavSim *sim, NavBot *b)
{
    if (b->hold_depth >= 0) {
        /* Pushed far from the point: no longer one of its rings. */
        const NavClass *c = world_class(sim->w, b->cls);
        float far = 2.0f * c->radius * (float)(SIM_HOLD_DEPTH + 2) + 1.0f;
        float dx = b->held_goal[0] - b->pos[0], dy = b->held_goal[1] - b->pos[1];
        if (dx * dx + dy * dy > far * far) b->hold_depth = -1;
    }
    if (!b->goal_count) return;
    const float *g = b->goals[0];
    const NavClass *c = world_class(sim->w, b->cls);
    float dx = g[0] - b->pos[0], dy = g[1] - b->pos[1], dz = g[2] - b->pos[2];
    if (dz >= -0.5f && dz <= c->height && dx * dx + dy * dy <= g[3] * g[3]) {
        reach_goal(sim, b, 0);
        return;
    }
    /* Near enough for the rings, and touching one of them: at the holder's
    ** height, whatever the goal's (a goal on a perch that is full: those
    ** knocked off it still hold, and the ring grows round them below). */
    float rings = g[3] + 2.0f * c->radius * (float)SIM_HOLD_DEPTH + TOUCH_GAP * (float)SIM_HOLD_DEPTH;
    if (dx * dx + dy * dy > rings * rings) return;
    int depth = touching_holder(sim, b, g);
    if (depth >= 0) reach_goal(sim, b, depth + 1);
}

/* }======= */

/* {======= progress and stuck ======= */

/* The router times the first leg to the first link's start point. A bot
** that walks a walk link's crossed edge elsewhere (a short cut across
** its area to the next, inside the route's corridor) moves away from
** that point while it gets on: judged by it, that would be no progress.
** For a walk link with an edge, the leg is timed to the edge's nearest
** point instead. */
static uint32_t first_leg_by_edge(const NavAreaGraph *ag, uint32_t from, const float pos[3], const NavRoute *q)
{
    if (q->next_reach >= area_reach_count(ag)) return q->time; /* none: in the goal area */
    const NavReach *l = area_reach(ag, q->next_reach);
    const float *e0 = l->edge[0], *e1 = l->edge[1];
    float ex = e1[0] - e0[0], ey = e1[1] - e0[1], len2 = ex * ex + ey * ey;
    if (l->type != NAV_TRAVEL_WALK || l->from != from || !(len2 > 1e-6f)) return q->time;
    float t = ((pos[0] - e0[0]) * ex + (pos[1] - e0[1]) * ey) / len2;
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    float near[3] = { e0[0] + ex * t, e0[1] + ey * t, e0[2] + (e1[2] - e0[2]) * t };
    uint32_t to_start = area_time_between(ag, from, pos, l->start), to_edge = area_time_between(ag, from, pos, near);
    if (to_edge >= to_start || q->time < to_start) return q->time;
    return q->time - (to_start - to_edge);
}

/* Remaining time to the head goal in hundredths (best effort), or
** UINT32_MAX when it cannot be told from here (in the air, no area).
** *stage: 0 outside the goal's area, 1 inside it (or measured straight). */
static uint32_t remaining(NavSim *sim, const NavBot *b, const SimTrack *t, int *stage)
{
    const NavClass *c = world_class(sim->w, b->cls);
    const float *g = b->goals[0];
    float dx = g[0] - b->pos[0], dy = g[1] - b->pos[1];
    float speed = c->run_speed > 0.1f ? c->run_speed : 1.0f;
    /* A goal far off the map (a script may set one) is a long time away,
    ** not an overflow. */
    float hundredths = sqrtf(dx * dx + dy * dy) / speed * 100.0f;
    uint32_t straight = hundredths < 4.0e9f ? (uint32_t)hundredths : UINT32_MAX - 1;
    NavRouter *r = sim->router[b->cls];
    *stage = 1;
    if (!r) return straight;
    const NavAreaGraph *ag = router_graph(r);
    float snapped[3];
    uint32_t from = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    /* Swimming (feet under the surface), or just off an area's edge. */
    if (from == NAV_NO_AREA && (b->on_ground || b->in_water))
        from = area_nearest_area(ag, b->pos[0], b->pos[1], b->pos[2], 1.0f, snapped);
    if (from == NAV_NO_AREA) return UINT32_MAX;
    uint32_t to = area_point_area(ag, g[0], g[1], g[2]);
    if (to == NAV_NO_AREA) to = area_nearest_area(ag, g[0], g[1], g[2], 2.0f, snapped);
    if (to == NAV_NO_AREA || from == to) return straight;
    NavRoute q;
    uint32_t flags = b->route_flags ? b->route_flags : NAV_TFL_DEFAULT;
    int n = 0;
    NavStatus st = t->avoid_count > 0 ? router_route_links_avoiding(r, from, b->pos, to, flags, t->avoid,
                                                                    t->avoid_count, NULL, 0, &n, &q)
                                      : router_route(r, from, b->pos, to, flags, &q);
    if (NAV_FAILED(st) || q.time == ROUTE_UNREACHABLE) return UINT32_MAX;
    *stage = 0;
    return first_leg_by_edge(ag, from, b->pos, &q);
}

/* Walking at a good pace where the router cannot tell the time left
** because no area is under the body nor within a metre: along a passage
** narrower than an area's cells (a 1 m lane between walls that the body
** fits). Beside an area (pacing along a wall it failed to jump, say) the
** time left is told, and only a better time counts. */
static bool in_passage(NavSim *sim, const NavBot *b)
{
    NavRouter *r = sim->router[b->cls];
    if (!r || !b->on_ground || b->in_water) return false;
    const NavClass *c = world_class(sim->w, b->cls);
    float v2 = b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1], fast = PASSAGE_PACE * c->run_speed;
    if (v2 < fast * fast) return false;
    return area_point_area(router_graph(r), b->pos[0], b->pos[1], b->pos[2]) == NAV_NO_AREA;
}

/* Taking a link that moves the body along without the route's time
** falling: up a ladder or a ledge, on a moving lift, thrown by a pad. */
static bool taking_a_link(const NavSim *sim, const NavBot *b, const float before[3])
{
    float dz = fabsf(b->pos[2] - before[2]);
    if ((b->on_ladder || b->climbing) && dz > 1e-3f) return true;
    if (b->riding >= 0 && sim->ent[b->riding].phase != 0) return true;
    return b->airborne_pad;
}

static void stuck_for(NavSim *sim, NavBot *b, SimTrack *t, bool progress)
{
    if (progress) {
        t->since = 0.0f;
        b->stuck_time = 0.0f;
        return;
    }
    t->since += sim->dt;
    if (t->since <= STUCK_GRACE) return;
    /* The grace counts once the spell is long enough to be one. */
    float add = b->stuck_time == 0.0f ? t->since : sim->dt;
    b->stuck_time = t->since;
    b->stuck_total += add;
    if (b->stuck_time > b->stuck_max) b->stuck_max = b->stuck_time;
}

/* Waiting spells: wait_total and wait_max, as stuck spells are kept. */
static void count_wait(NavSim *sim, NavBot *b, SimTrack *t, bool waiting)
{
    if (!waiting) {
        t->waited = 0.0f;
        return;
    }
    t->waited += sim->dt;
    b->wait_total += sim->dt;
    if (t->waited > b->wait_max) b->wait_max = t->waited;
}

static void check_progress(NavSim *sim, NavBot *b, SimTrack *t)
{
    if (!b->goal_count) {
        /* Nowhere to go: stuck while wishing to move and not moving. A unit
        ** with an order wishes to, even while it stands waiting for room. */
        const NavClass *c = world_class(sim->w, b->cls);
        float wl = hypotf(b->control.move[0], b->control.move[1]);
        float moved = hypotf(b->pos[0] - t->before[0], b->pos[1] - t->before[1]);
        bool by_hand = isfinite(wl) && wl > 0.1f && !b->on_ladder && !b->climbing;
        bool wishing = by_hand || sim_unit_wishes(sim, b->id);
        /* A unit standing to wait (no wish this tick) must still get on at
        ** a quarter of its speed, or it is stuck: without that floor,
        ** standing would count as progress. */
        float want = by_hand ? fminf(wl, 1.0f) : 0.25f;
        t->goal_set = false;
        stuck_for(sim, b, t, !wishing || moved >= 0.1f * c->run_speed * want * sim->dt);
        return;
    }
    if (!t->goal_set || !same_point(t->goal, b->goals[0]) || t->world_changes != sim->world_changes) {
        memcpy(t->goal, b->goals[0], sizeof t->goal);
        t->goal_set = true;
        t->world_changes = sim->world_changes;
        t->best = UINT32_MAX;
        t->stage = -1;
        t->since = 0.0f;
        t->fresh = true;
        t->rebased = false;
        b->stuck_time = 0.0f;
    }
    /* Waiting its turn at a chokepoint, or for a lift (sim_bot_waiting), is
    ** not being stuck: it is counted as waiting. */
    bool waiting = sim_bot_waiting(sim, b->id);
    count_wait(sim, b, t, waiting);
    bool progress = taking_a_link(sim, b, t->before) || waiting;
    if (t->rebased) {
        t->rebased = false;
        t->best = UINT32_MAX;
        t->stage = -1;
        t->fresh = false; /* this first look does not stop the clock */
    }
    if ((sim->tick + b->id) % PROGRESS_EVERY == 0) {
        int stage;
        uint32_t left = remaining(sim, b, t, &stage);
        /* A learner exploring gets on by finding areas it did not know. */
        if (sim_learn_discovered(sim, b->id)) progress = true;
        if (left == UINT32_MAX) {
            progress = progress || in_passage(sim, b);
        } else {
            const NavClass *c = world_class(sim->w, b->cls);
            float speed = c->run_speed > 0.1f ? c->run_speed : 1.0f;
            uint32_t step = (uint32_t)(PROGRESS_METRES / speed * 100.0f) + 1;
            bool first = t->stage < 0;
            if (stage > t->stage || left + step <= t->best) {
                /* The first look after a new goal starts the clock; after
                ** a new plan it only sets the mark to beat. */
                if (!first || t->fresh) progress = true;
                if (stage > t->stage) t->best = UINT32_MAX;
                t->stage = stage;
                if (left < t->best) t->best = left;
            }
        }
    }
    stuck_for(sim, b, t, progress);
}

/* }======= */

/* {======= below the world ======= */

/* A body that falls under every floor is stopped and marked: it would
** fall for ever (a void, a hole in a map). It stops where this tick's
** move crossed BELOW_WORLD under the lowest floor, not a tick's fall
** further down (at 14 m/s that is half a metre); the move began above
** that depth, in the open. */
static void check_fall(NavSim *sim, NavBot *b, const float before[3])
{
    if (b->fell) {
        b->vel[0] = b->vel[1] = b->vel[2] = 0.0f;
        return;
    }
    float limit = sim->floor_z - BELOW_WORLD;
    if (b->pos[2] >= limit && isfinite(b->pos[2])) return;
    b->fell = true;
    bool finite = isfinite(b->pos[0]) && isfinite(b->pos[1]) && isfinite(b->pos[2]);
    if (!finite) {
        memcpy(b->pos, before, sizeof b->pos);
    } else if (before[2] >= limit) {
        float f = (before[2] - limit) / (before[2] - b->pos[2]);
        b->pos[0] = before[0] + f * (b->pos[0] - before[0]);
        b->pos[1] = before[1] + f * (b->pos[1] - before[1]);
        b->pos[2] = limit;
    }
    memcpy(b->fell_at, b->pos, sizeof b->fell_at);
    b->vel[0] = b->vel[1] = b->vel[2] = 0.0f;
}

/* }======= */

bool sim_track_reserve(NavSim *sim, uint32_t count)
{
    if (count <= sim->track_cap) return true;
    uint32_t cap = sim->track_cap ? sim->track_cap : 16;
    while (cap < count) cap *= 2;
    SimTrack *t = nav_realloc(sim->track, cap * sizeof *t);
    if (!t) return false;
    memset(t + sim->track_cap, 0, (cap - sim->track_cap) * sizeof *t);
    sim->track = t;
    sim->track_cap = cap;
    return true;
}

void sim_goals_before_move(NavSim *sim)
{
    for (uint32_t i = 0; i < sim->bot_count; i++) memcpy(sim->track[i].before, sim->bots[i].pos, sizeof(float) * 3);
}

void sim_goals_after_move(NavSim *sim)
{
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        NavBot *b = &sim->bots[i];
        check_fall(sim, b, sim->track[i].before);
        check_goal(sim, b);
        check_progress(sim, b, &sim->track[i]);
    }
}

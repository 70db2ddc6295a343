/*
** sim_move.c — a bot's movement for one tick, by its class's physics.
**
** Every move is a hull trace (sim_trace) against the world, the solid
** entities and the other bots, so a body never ends inside anything. The
** order each tick: crouch or stand; the medium (ladder, climbing, water,
** ground or air) decides the velocity; the move slides along what it hits
** and steps up what is no higher than the class's step; then the ground
** is probed, and triggers (teleporters, jump pads) fire.
**
** The numbers follow the area graph's travel times (area_reach.c) so a
** route's planned time and the bot's real one agree: run, crouch, swim and
** ladder speeds from the class, climbing hand over hand at 1 m/s, and one
** jump speed that clears both the barrier jump and the gap jump.
*/
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

#define GROUND_ACCEL SIM_GROUND_ACCEL /* m/s^2 toward the wished velocity */
#define AIR_ACCEL 6.0f
#define WATER_ACCEL SIM_WATER_ACCEL
#define CLIMB_SPEED 1.0f   /* hand over hand, as area_reach times it */
#define GROUND_PROBE 0.05f /* metres below the feet that count as standing */
#define WALKABLE_NZ 0.7f
#define SLIDE_PLANES 4
#define HEAD_SLIDE 2.0f /* m/s: how fast a body slides off another's head */

enum { AIR_NONE = 0, AIR_JUMP, AIR_FALL, AIR_PAD };

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

float sim_jump_speed(const NavWorld *w, const NavClass *c)
{
    float g = world_gravity(w);
    /* Rise a little over the barrier, and stay up as long as a run across
    ** the widest gap takes. */
    float barrier = sqrtf(2.0f * g * (c->barrier_jump + 0.15f));
    float gap = c->run_speed > 0.0f ? 0.5f * g * (c->jump_gap + 0.5f) / c->run_speed : 0.0f;
    return fmaxf(barrier, gap);
}

static void bot_trace(NavSim *sim, const NavBot *b, const float start[3], const float delta[3], NavTrace *tr)
{
    float mins[3], maxs[3];
    sim_bot_box(sim, b, mins, maxs);
    sim_trace(sim, mins, maxs, start, delta, (int)b->id, tr);
}

static bool bot_fits(NavSim *sim, const NavBot *b, const float pos[3])
{
    NavTrace tr;
    float zero[3] = { 0, 0, 0 };
    bot_trace(sim, b, pos, zero, &tr);
    return !tr.start_solid;
}

/* {======= memos ======= */

bool sim_move_reserve(NavSim *sim, uint32_t count)
{
    if (count <= sim->memo_cap) return true;
    uint32_t cap = sim->memo_cap ? sim->memo_cap : 16;
    while (cap < count) cap *= 2;
    SimMoveMemo *m = nav_realloc(sim->memo, cap * sizeof *m);
    if (!m) return false;
    memset(m + sim->memo_cap, 0, (cap - sim->memo_cap) * sizeof *m);
    sim->memo = m;
    sim->memo_cap = cap;
    return true;
}

static SimMoveMemo *memo(NavSim *sim, const NavBot *b) { return b->id < sim->memo_cap ? &sim->memo[b->id] : NULL; }

static bool same_place(const float a[3], const float b[3]) { return memcmp(a, b, 3 * sizeof *a) == 0; }

/* Does any of the first n gathered boxes overlap the box [pos + mins, pos +
** maxs] across (x and y both, by the trace's own strict comparisons)? A
** sweep straight down meets none that does not: they cannot change it. */
static bool boxes_across(const NavSim *sim, int n, const float pos[3], const float mins[3], const float maxs[3])
{
    for (int i = 0; i < n; i++) {
        const NavBox *o = &sim->boxes[i];
        bool across = true;
        for (int a = 0; a < 2 && across; a++)
            across = (double)pos[a] + (double)mins[a] < (double)o->maxs[a] &&
                     (double)pos[a] + (double)maxs[a] > (double)o->mins[a];
        if (across) return true;
    }
    return false;
}

/* }======= */

/* Push a crate the bot walked into along the bot's move, slower the
** heavier it is; the crate slides as far as it fits. */
static void push_crate(NavSim *sim, int e, const float move[3])
{
    const NavEntity *ent = world_entity(sim->w, e);
    float f = 1.0f / (1.0f + ent->u.crate.mass / 50.0f);
    float push[3] = { move[0] * f, move[1] * f, 0.0f };
    if (fabsf(push[0]) + fabsf(push[1]) < 1e-5f) return;
    float lo[3], hi[3];
    sim_entity_box(sim, e, lo, hi);
    NavEntityState *s = &sim->ent[e];
    float mins[3], maxs[3];
    for (int k = 0; k < 3; k++) {
        mins[k] = lo[k] - s->pos[k];
        maxs[k] = hi[k] - s->pos[k];
    }
    /* Against the world and everything but itself. */
    int n = sim_gather_boxes(sim, mins, maxs, s->pos, push, -1);
    int self = -1;
    for (int i = 0; i < n; i++)
        if (sim->box_owner[i] == ((uint32_t)SIM_BOX_ENTITY << 24 | (uint32_t)e)) self = i;
    NavTrace tr;
    world_trace_box(sim->w, mins, maxs, s->pos, push, sim->boxes, n, self, &tr);
    if (tr.start_solid) return;
    memcpy(s->pos, tr.end, sizeof s->pos);
}

/* Move by `move`, sliding along what is hit. Returns whether anything
** horizontal but a bot was hit (whether a step up may get further). */
static bool slide(NavSim *sim, NavBot *b, float move[3])
{
    bool blocked = false;
    for (int i = 0; i < SLIDE_PLANES; i++) {
        if (fabsf(move[0]) + fabsf(move[1]) + fabsf(move[2]) < 1e-6f) break;
        NavTrace tr;
        bot_trace(sim, b, b->pos, move, &tr);
        if (tr.start_solid) break;
        memcpy(b->pos, tr.end, sizeof b->pos);
        if (!tr.hit) break;
        float rest[3] = { move[0] * (1.0f - tr.fraction), move[1] * (1.0f - tr.fraction),
                          move[2] * (1.0f - tr.fraction) };
        if (fabsf(tr.normal[2]) < WALKABLE_NZ) {
            uint32_t owner = tr.box >= 0 ? (uint32_t)tr.box : UINT32_MAX;
            /* A bot is taller than any step, so stepping up never gets over
            ** one: only the world and entities make the step-up worth a try
            ** (in a crowd that try was half of all traces). */
            if (owner == UINT32_MAX || owner >> 24 != SIM_BOX_BOT) blocked = true;
            else sim_note_contact(sim, b, owner & 0xFFFFFFu);
            if (owner != UINT32_MAX && owner >> 24 == SIM_BOX_ENTITY) {
                int e = (int)(owner & 0xFFFFFFu);
                if (world_entity(sim->w, e)->type == NAV_ENTITY_CRATE) push_crate(sim, e, rest);
            }
        }
        float d = dot3(rest, tr.normal);
        for (int k = 0; k < 3; k++) move[k] = rest[k] - tr.normal[k] * d;
        float vd = dot3(b->vel, tr.normal);
        if (vd < 0.0f)
            for (int k = 0; k < 3; k++) b->vel[k] -= tr.normal[k] * vd;
    }
    return blocked;
}

/* The trace of the ground probe, sim_trace's: straight down from the feet.
** With no box across the body it meets the world alone, and is what it
** was the last time from the same place with the same body. */
static void probe_trace(NavSim *sim, const NavBot *b, NavTrace *tr)
{
    float mins[3], maxs[3], down[3] = { 0, 0, -GROUND_PROBE };
    sim_bot_box(sim, b, mins, maxs);
    int n = sim_gather_boxes(sim, mins, maxs, b->pos, down, (int)b->id);
    SimMoveMemo *m = memo(sim, b);
    bool alone = m && !boxes_across(sim, n, b->pos, mins, maxs);
    if (alone && m->probe_known && m->probe_cls == b->cls && m->probe_crouched == b->crouched &&
        same_place(m->probe_at, b->pos)) {
        *tr = m->probe;
        return;
    }
    world_trace_box(sim->w, mins, maxs, b->pos, down, sim->boxes, n, -1, tr);
    if (tr->box >= 0) tr->box = (int)sim->box_owner[tr->box]; /* kind << 24 | index */
    if (!alone) return;
    memcpy(m->probe_at, b->pos, sizeof m->probe_at);
    m->probe_cls = b->cls;
    m->probe_crouched = b->crouched;
    m->probe_known = true;
    m->probe = *tr;
}

/* Probe below the feet: standing? Sets riding when the feet are on an
** elevator's platform (checked apart from the trace: where the platform is
** level with the floor the world wins the trace's tie). */
static bool probe_ground(NavSim *sim, NavBot *b)
{
    NavTrace tr;
    probe_trace(sim, b, &tr);
    b->riding = -1;
    if (!tr.hit || tr.normal[2] < WALKABLE_NZ) return false;
    if (tr.box >= 0 && (uint32_t)tr.box >> 24 == SIM_BOX_BOT) {
        /* On another body's head: no floor to stand, jump or run on (a bot
        ** dropped onto one waiting at a ledge's foot ran off it at full
        ** speed, over the gap beyond). It slides off, away from the other's
        ** middle. */
        NavBot *o = &sim->bots[(uint32_t)tr.box & 0xFFFFFFu];
        float dx = b->pos[0] - o->pos[0], dy = b->pos[1] - o->pos[1], d = sqrtf(dx * dx + dy * dy);
        if (d < 1e-4f) dx = b->id < o->id ? 1.0f : -1.0f, dy = 0.0f, d = 1.0f;
        dx /= d, dy /= d;
        float along = b->vel[0] * dx + b->vel[1] * dy;
        if (along < HEAD_SLIDE) {
            b->vel[0] += (HEAD_SLIDE - along) * dx;
            b->vel[1] += (HEAD_SLIDE - along) * dy;
        }
        o->topped_tick = sim->tick + 1;
        o->topped_at[0] = b->pos[0], o->topped_at[1] = b->pos[1];
        /* The one below gets the other half of the shove: where bodies
        ** stand all round it (a crowd at a goal under a ledge), the top
        ** one slides off only when the one under it gives way. */
        if (o->on_ground) {
            float back = o->vel[0] * -dx + o->vel[1] * -dy;
            if (back < 0.5f * HEAD_SLIDE) {
                o->vel[0] -= (0.5f * HEAD_SLIDE - back) * dx;
                o->vel[1] -= (0.5f * HEAD_SLIDE - back) * dy;
            }
        }
        return false;
    }
    if (!tr.start_solid) memcpy(b->pos, tr.end, sizeof b->pos);
    for (int e = 0; e < sim->ent_count; e++) {
        const NavEntity *ent = world_entity(sim->w, e);
        if (ent->type != NAV_ENTITY_ELEVATOR) continue;
        if (b->pos[0] < ent->mins[0] || b->pos[0] > ent->maxs[0] || b->pos[1] < ent->mins[1] ||
            b->pos[1] > ent->maxs[1])
            continue;
        if (fabsf(b->pos[2] - sim->ent[e].offset) <= GROUND_PROBE + 0.01f) b->riding = e;
    }
    return true;
}

/* Walk: slide, and where a wall stopped it, try stepping up onto what is
** no higher than the step; keep whichever went further. */
static void walk_move(NavSim *sim, NavBot *b, const NavClass *c, float dt)
{
    float start[3], vel0[3];
    memcpy(start, b->pos, sizeof start);
    memcpy(vel0, b->vel, sizeof vel0);
    float move[3] = { b->vel[0] * dt, b->vel[1] * dt, 0.0f };
    if (!slide(sim, b, move)) return;
    float flat[3], flat_vel[3];
    memcpy(flat, b->pos, sizeof flat);
    memcpy(flat_vel, b->vel, sizeof flat_vel);
    /* The stepped try, from the start. */
    memcpy(b->pos, start, sizeof start);
    memcpy(b->vel, vel0, sizeof vel0);
    NavTrace tr;
    float up[3] = { 0, 0, c->step };
    bot_trace(sim, b, b->pos, up, &tr);
    if (tr.start_solid) goto keep_flat;
    memcpy(b->pos, tr.end, sizeof b->pos);
    float risen = b->pos[2] - start[2];
    float move2[3] = { vel0[0] * dt, vel0[1] * dt, 0.0f };
    slide(sim, b, move2);
    float down[3] = { 0, 0, -(risen + GROUND_PROBE) };
    bot_trace(sim, b, b->pos, down, &tr);
    if (tr.start_solid || !tr.hit || tr.normal[2] < WALKABLE_NZ) goto keep_flat;
    memcpy(b->pos, tr.end, sizeof b->pos);
    float d_step = hypotf(b->pos[0] - start[0], b->pos[1] - start[1]);
    float d_flat = hypotf(flat[0] - start[0], flat[1] - start[1]);
    if (d_step > d_flat + 1e-4f) {
        b->vel[2] = 0.0f;
        return;
    }
keep_flat:
    memcpy(b->pos, flat, sizeof flat);
    memcpy(b->vel, flat_vel, sizeof flat_vel);
}

static void accelerate(float vel[3], const float wish[2], float speed, float accel, float dt)
{
    float tx = wish[0] * speed, ty = wish[1] * speed;
    float dx = tx - vel[0], dy = ty - vel[1], d = hypotf(dx, dy), a = accel * dt;
    if (d <= a) {
        vel[0] = tx;
        vel[1] = ty;
    } else {
        vel[0] += dx / d * a;
        vel[1] += dy / d * a;
    }
}

/* Toward the velocity avoidance chose (sim_avoid.c), or take it at once. */
static void accelerate_to(float vel[3], const float target[2], bool direct, float accel, float dt)
{
    float dx = target[0] - vel[0], dy = target[1] - vel[1], d = hypotf(dx, dy), a = accel * dt;
    if (direct || d <= a) {
        vel[0] = target[0];
        vel[1] = target[1];
    } else {
        vel[0] += dx / d * a;
        vel[1] += dy / d * a;
    }
}

static const NavFloor *floor_here(NavSim *sim, const NavBot *b)
{
    SimMoveMemo *m = memo(sim, b);
    if (m && m->floor_known && same_place(m->floor_at, b->pos)) return m->floor;
    const NavFloor *f = world_floor_at(sim->w, b->pos[0], b->pos[1], b->pos[2] + 0.05f, 0.1f);
    if (m) {
        memcpy(m->floor_at, b->pos, sizeof m->floor_at);
        m->floor = f;
        m->floor_known = true;
    }
    return f;
}

static bool liquid(const NavFloor *f)
{
    return f &&
           (f->contents == NAV_CONTENTS_WATER || f->contents == NAV_CONTENTS_LAVA || f->contents == NAV_CONTENTS_SLIME);
}

static void face_vector(NavDir d, float v[2])
{
    static const float dirs[4][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
    v[0] = dirs[d][0];
    v[1] = dirs[d][1];
}

/* Riders move by hull traces like walkers: rising, none is pushed into a
** ceiling or a body above it, and the platform rises only as far as its
** most hemmed-in rider can (a lift is stopped by what it would crush);
** sinking, each follows the platform down onto it. Returns the rise or
** fall carried out. */
float sim_carry_riders(NavSim *sim, int e, float dz)
{
    float can = dz;
    if (dz > 0.0f)
        for (uint32_t i = 0; i < sim->bot_count; i++) {
            NavBot *b = &sim->bots[i];
            if (b->riding != e) continue;
            NavTrace tr;
            float up[3] = { 0, 0, dz };
            bot_trace(sim, b, b->pos, up, &tr);
            if (!tr.start_solid && tr.fraction * dz < can) can = fmaxf(0.0f, tr.fraction * dz - 1e-3f);
        }
    for (uint32_t i = 0; i < sim->bot_count; i++) {
        NavBot *b = &sim->bots[i];
        if (b->riding != e) continue;
        NavTrace tr;
        float move[3] = { 0, 0, can };
        bot_trace(sim, b, b->pos, move, &tr);
        if (tr.start_solid || can > 0.0f) b->pos[2] += can; /* rising: checked above */
        else memcpy(b->pos, tr.end, sizeof b->pos);
        sim_bucket_moved(sim, b);
        sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR));
    }
    return can;
}

/* Teleporters and jump pads the body overlaps now. */
static void triggers(NavSim *sim, NavBot *b, const NavClass *c)
{
    float lo[3], hi[3];
    sim_world_box(sim, b, b->pos, lo, hi);
    bool still_touching = false;
    for (int i = 0; i < sim->ent_count; i++) {
        const NavEntity *e = world_entity(sim->w, i);
        if (e->type != NAV_ENTITY_TELEPORTER && e->type != NAV_ENTITY_JUMP_PAD) continue;
        bool in = true;
        for (int k = 0; k < 3; k++)
            if (lo[k] > e->maxs[k] || hi[k] < e->mins[k]) in = false;
        if (!in) continue;
        if (e->type == NAV_ENTITY_TELEPORTER) {
            if (b->touching_teleporter == i) {
                still_touching = true;
                continue;
            }
            float dest[3] = { e->u.teleporter.dest[0], e->u.teleporter.dest[1], e->u.teleporter.dest[2] };
            if (!bot_fits(sim, b, dest)) continue; /* someone stands there: wait */
            memcpy(b->pos, dest, sizeof b->pos);
            b->vel[0] = b->vel[1] = b->vel[2] = 0.0f;
            b->yaw = e->u.teleporter.dest_yaw;
            sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_TELEPORT));
            SimBuckets *bk = &sim->buckets;
            bk->far[bk->far_count++] = b->id;
            /* Arriving inside another trigger must not send it straight back. */
            b->touching_teleporter = -1;
            sim_world_box(sim, b, b->pos, lo, hi);
            for (int j = 0; j < sim->ent_count; j++) {
                const NavEntity *t = world_entity(sim->w, j);
                if (t->type != NAV_ENTITY_TELEPORTER) continue;
                bool on = true;
                for (int k = 0; k < 3; k++)
                    if (lo[k] > t->maxs[k] || hi[k] < t->mins[k]) on = false;
                if (on) b->touching_teleporter = j;
            }
            return;
        }
        if (!b->airborne_pad) {
            /* Launch on the arc that peaks `apex` over the higher end and
            ** comes down on the target. */
            float g = world_gravity(sim->w);
            const NavJumpPad *p = &e->u.jump_pad;
            float peak = fmaxf(b->pos[2], p->target[2]) + p->apex;
            float up = sqrtf(2.0f * g * (peak - b->pos[2]));
            float t = up / g + sqrtf(2.0f * (peak - p->target[2]) / g);
            b->vel[0] = (p->target[0] - b->pos[0]) / t;
            b->vel[1] = (p->target[1] - b->pos[1]) / t;
            b->vel[2] = up;
            b->airborne_pad = true;
            b->on_ground = false;
            sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_JUMP_PAD));
        }
    }
    if (!still_touching) b->touching_teleporter = -1;
    (void)c;
}

void sim_move_bot(NavSim *sim, NavBot *b)
{
    const NavClass *c = world_class(sim->w, b->cls);
    NavBotControl *ctl = &b->control;
    float dt = sim->dt, g = world_gravity(sim->w);
    float start[3];
    memcpy(start, b->pos, sizeof start);
    bool was_on_ground = b->on_ground;

    /* Crouch when asked, and stay crouched while standing would not fit. */
    bool want_crouch = ctl->crouch && class_can_crouch(c);
    if (b->crouched && !want_crouch) {
        b->crouched = false;
        if (!bot_fits(sim, b, b->pos)) b->crouched = true;
    } else if (!b->crouched && want_crouch) {
        b->crouched = true;
    }

    float wish[2] = { ctl->move[0], ctl->move[1] };
    float wl = hypotf(wish[0], wish[1]);
    if (!isfinite(wl)) wish[0] = wish[1] = wl = 0.0f;
    if (wl > 1.0f) {
        wish[0] /= wl;
        wish[1] /= wl;
        wl = 1.0f;
    }
    if (wl > 1e-3f) b->yaw = atan2f(wish[1], wish[0]) * 57.29578f;
    float height = b->crouched ? c->crouch_height : c->height;
    const NavFloor *f = floor_here(sim, b);

    /* The velocity avoidance chose this tick, if it avoids. */
    float avoid_vel[2];
    bool avoid_direct = false, avoiding = sim_avoid_target(sim, b, avoid_vel, &avoid_direct);

    /* Which medium moves the body. */
    b->on_ladder = false;
    b->climbing = false;
    b->in_water = liquid(f) && f->top > b->pos[2] + 0.5f * height && class_can_swim(c);
    if (f && f->contents == NAV_CONTENTS_LADDER && c->ladder_speed > 0.0f && b->pos[2] < f->top + 0.1f) {
        float face[2];
        face_vector(world_floor_face(f), face);
        bool toward = wish[0] * face[0] + wish[1] * face[1] > 0.3f;
        if (toward || ctl->ladder_down || (!b->on_ground && b->pos[2] > f->z + 0.05f)) b->on_ladder = true;
    }
    if (ctl->climb && c->climb > 0.0f && isfinite(ctl->climb_to[0])) {
        float dz = ctl->climb_to[2] - b->pos[2];
        float d = hypotf(ctl->climb_to[0] - b->pos[0], ctl->climb_to[1] - b->pos[1]);
        if (dz > -0.05f && dz <= c->climb + 0.25f && d <= c->radius + 1.5f) b->climbing = true;
    }

    if (b->climbing) {
        /* Up the wall at climbing speed, pressing toward the ledge; over it
        ** once high enough. */
        float dx = ctl->climb_to[0] - b->pos[0], dy = ctl->climb_to[1] - b->pos[1], d = hypotf(dx, dy);
        bool above = b->pos[2] >= ctl->climb_to[2] - 0.01f;
        float hs = above ? fminf(c->crouch_speed > 0 ? c->crouch_speed : c->run_speed, d / dt) : 0.5f;
        b->vel[0] = d > 1e-4f ? dx / d * hs : 0.0f;
        b->vel[1] = d > 1e-4f ? dy / d * hs : 0.0f;
        b->vel[2] = above ? 0.0f : fminf(CLIMB_SPEED, (ctl->climb_to[2] - b->pos[2]) / dt + 0.01f);
        float move[3] = { b->vel[0] * dt, b->vel[1] * dt, b->vel[2] * dt };
        slide(sim, b, move);
        sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_CLIMB));
        b->airborne_pad = false;
    } else if (b->on_ladder) {
        float face[2];
        face_vector(world_floor_face(f), face);
        bool toward = wish[0] * face[0] + wish[1] * face[1] > 0.3f;
        b->vel[0] = wish[0] * c->ladder_speed * 0.5f;
        b->vel[1] = wish[1] * c->ladder_speed * 0.5f;
        b->vel[2] = ctl->ladder_down ? -c->ladder_speed : toward ? c->ladder_speed : 0.0f;
        float move[3] = { b->vel[0] * dt, b->vel[1] * dt, b->vel[2] * dt };
        slide(sim, b, move);
        sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_LADDER));
        b->airborne_pad = false;
    } else if (b->in_water) {
        /* Float at the surface; a jump at the edge is a water jump. */
        if (avoiding) accelerate_to(b->vel, avoid_vel, avoid_direct, WATER_ACCEL, dt);
        else accelerate(b->vel, wish, c->swim_speed * wl > 0 ? c->swim_speed : 0.0f, WATER_ACCEL, dt);
        float target = f->top - 0.45f * height;
        b->vel[2] = fmaxf(-c->swim_speed, fminf(c->swim_speed, (target - b->pos[2]) * 3.0f));
        if (ctl->jump) {
            /* A water jump kicks off from below the surface: enough to lift
            ** the feet a barrier jump above it, the most a map links. */
            float rise = f->top + c->barrier_jump + 0.1f - b->pos[2];
            b->vel[2] = sqrtf(2.0f * g * fmaxf(rise, 0.1f));
            ctl->jump = false;
            b->in_water = false;
            sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_WATER_JUMP));
        }
        float move[3] = { b->vel[0] * dt, b->vel[1] * dt, b->vel[2] * dt };
        slide(sim, b, move);
        sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_SWIM));
        b->airborne_pad = false;
    } else {
        float speed = b->crouched ? c->crouch_speed : c->run_speed;
        if (avoiding && b->on_ground) accelerate_to(b->vel, avoid_vel, avoid_direct, GROUND_ACCEL, dt);
        else if (!b->airborne_pad)
            accelerate(b->vel, wish, speed * (wl > 0 ? 1.0f : 0.0f), b->on_ground ? GROUND_ACCEL : AIR_ACCEL, dt);
        if (b->on_ground && ctl->jump) {
            b->vel[2] = sim_jump_speed(sim->w, c);
            b->on_ground = false;
            b->jumping = true;
            b->jump_from_z = b->pos[2];
        }
        ctl->jump = false;
        if (b->on_ground) {
            b->vel[2] = 0.0f;
            walk_move(sim, b, c, dt);
        } else {
            /* Half the gravity before the move and half after: exact arcs. */
            b->vel[2] -= 0.5f * g * dt;
            float move[3] = { b->vel[0] * dt, b->vel[1] * dt, b->vel[2] * dt };
            slide(sim, b, move);
            b->vel[2] -= 0.5f * g * dt;
        }
        if (b->crouched) sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_CROUCH));
    }

    /* Standing now? A walker keeps to the ground going down steps. */
    /* Going up (a jump, a climb, a ladder) is never standing: the probe
    ** would pull the body back down onto the floor it is leaving. */
    bool ground = false;
    if (b->vel[2] > 0.01f) b->riding = -1;
    else ground = probe_ground(sim, b);
    if (!ground && was_on_ground && b->vel[2] <= 0.0f && !b->on_ladder && !b->climbing && !b->in_water) {
        NavTrace tr;
        float down[3] = { 0, 0, -c->step };
        bot_trace(sim, b, b->pos, down, &tr);
        if (tr.hit && !tr.start_solid && tr.normal[2] >= WALKABLE_NZ) {
            memcpy(b->pos, tr.end, sizeof b->pos);
            ground = probe_ground(sim, b);
        }
    }
    if (ground) b->airborne_pad = false;
    if (!ground && was_on_ground && !b->on_ladder && !b->climbing && !b->in_water && !b->jumping)
        sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_WALK_OFF_LEDGE));
    /* A jump is told by where it lands: higher than a step up is a barrier jump. */
    if (b->jumping && (ground || b->on_ladder || b->climbing || b->in_water)) {
        sim_moved_by(b, b->pos[2] > b->jump_from_z + c->step ? NAV_TFL_TYPE(NAV_TRAVEL_BARRIER_JUMP)
                                                             : NAV_TFL_TYPE(NAV_TRAVEL_JUMP));
        b->jumping = false;
    }
    if (ground) b->vel[2] = 0.0f;
    b->on_ground = ground;
    if (ground && b->riding >= 0 && ctl->use) {
        NavEntityState *s = &sim->ent[b->riding];
        if (s->phase == 0) s->timer = 0.0f; /* go now */
    }

    if (avoiding && sim_avoid_keep_off(sim, b, start)) b->on_ground = was_on_ground;
    triggers(sim, b, c);

    /* Distance and the walk bit (being stuck is judged after every bot
    ** moved: sim_goal.c). */
    float moved = hypotf(b->pos[0] - start[0], b->pos[1] - start[1]);
    b->distance += sqrtf(moved * moved + (b->pos[2] - start[2]) * (b->pos[2] - start[2]));
    if (ground && moved > 0.0f) sim_moved_by(b, NAV_TFL_TYPE(NAV_TRAVEL_WALK));
}

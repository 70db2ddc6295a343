/*
** sim_avoid.c — reciprocal velocity obstacles (sim.h, "avoidance").
**
** Per avoiding bot and tick: its preferred velocity (the wish times its
** speed), half-planes of velocities n . v >= c from its nearest
** neighbours (the ORCA construction: the smallest change u of the
** relative velocity that leaves the velocity obstacle of the pair for the
** horizon, of which the bot takes its share) and from the obstacle edges
** around it (a supporting line of the edge's velocity obstacle, never
** shared), then the velocity nearest the preferred one within the speed
** disc that satisfies them all: an incremental linear program, obstacle
** lines first, then bots nearest first. When the bots' lines cannot all
** hold, the velocity that keeps the obstacle lines and violates the bots'
** lines least (a 3-D program done as a series of 2-D ones on the
** bisectors of the violated lines).
**
** Everything is + - * / and sqrt in float, in id order, from the state at
** the start of the tick: the same run gives the same bits.
*/
#include "sim/sim_avoid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "sim/sim_unit.h"

/* {======= the linear programs ======= */

/* On line i, the best point with lines 0..i-1 and the disc: nearest to
** opt, or furthest along the unit direction opt (dir). False when none. */
static bool lp1(const Line *L, int i, float vmax, const float opt[2], bool dir, float out[2])
{
    const Line *li = &L[i];
    float d[2] = { -li->n[1], li->n[0] };
    float p0[2] = { li->c * li->n[0], li->c * li->n[1] };
    float disc = vmax * vmax - li->c * li->c;
    if (disc < 0.0f) return false;
    float s = sqrtf(disc), tmin = -s, tmax = s;
    for (int j = 0; j < i; j++) {
        float den = dot2(L[j].n, d), num = L[j].c - dot2(L[j].n, p0);
        if (fabsf(den) < 1e-7f) {
            if (num > LP_EPS) return false; /* parallel, and i lies outside j */
            continue;
        }
        float t = num / den;
        if (den > 0.0f) tmin = fmaxf_(tmin, t);
        else tmax = fminf_(tmax, t);
        if (tmin > tmax + LP_EPS) return false;
    }
    if (tmin > tmax) tmin = tmax = 0.5f * (tmin + tmax);
    float t;
    if (dir) t = dot2(opt, d) > 0.0f ? tmax : tmin;
    else t = fmaxf_(tmin, fminf_(tmax, dot2(opt, d) - dot2(p0, d)));
    out[0] = p0[0] + t * d[0];
    out[1] = p0[1] + t * d[1];
    return true;
}

/* All lines and the disc: returns count when they hold (out the answer),
** else the index of the line that failed (out the best before it). */
static int lp2(const Line *L, int count, float vmax, const float opt[2], bool dir, float out[2])
{
    if (dir) {
        out[0] = opt[0] * vmax;
        out[1] = opt[1] * vmax;
    } else {
        float l2 = dot2(opt, opt);
        float k = l2 > vmax * vmax ? vmax / sqrtf(l2) : 1.0f;
        out[0] = opt[0] * k;
        out[1] = opt[1] * k;
    }
    for (int i = 0; i < count; i++) {
        if (dot2(L[i].n, out) >= L[i].c - LP_EPS) continue;
        float keep[2] = { out[0], out[1] };
        if (!lp1(L, i, vmax, opt, dir, out)) {
            out[0] = keep[0];
            out[1] = keep[1];
            return i;
        }
    }
    return count;
}

/* Lines from `begin` on could not all hold with 0..begin-1: keep the
** `hard` first ones and make the largest violation of the others as small
** as it can be. For each line i still violated more than the worst so
** far, the best velocity on which i is the worst: the hard lines and the
** bisectors with the soft lines before it, pushing along i's normal. */
static void lp3(const Line *L, int count, int hard, int begin, float vmax, Line *proj, float v[2])
{
    float worst = 0.0f;
    for (int i = begin; i < count; i++) {
        if (L[i].c - dot2(L[i].n, v) <= worst + LP_EPS) continue;
        int m = 0;
        for (int j = 0; j < hard; j++) proj[m++] = L[j];
        for (int j = hard; j < i; j++) {
            float d[2] = { L[j].n[0] - L[i].n[0], L[j].n[1] - L[i].n[1] };
            float dl = sqrtf(dot2(d, d));
            if (dl < 1e-6f) continue; /* same normal: j cannot be worse than i where i is worst */
            proj[m].n[0] = d[0] / dl;
            proj[m].n[1] = d[1] / dl;
            proj[m].c = (L[j].c - L[i].c) / dl;
            m++;
        }
        float w[2];
        if (lp2(proj, m, vmax, L[i].n, true, w) == m) {
            v[0] = w[0];
            v[1] = w[1];
        }
        worst = fmaxf_(worst, L[i].c - dot2(L[i].n, v));
    }
}

/* The answer for lines L (the first `hard` kept strictly); true when all held. */
static bool solve(const Line *L, int count, int hard, float vmax, const float pref[2], Line *proj, float out[2])
{
    int fail = lp2(L, count, vmax, pref, false, out);
    if (fail == count) return true;
    if (fail < hard) {
        /* Only rounding: the hard lines alone always admit standing still. */
        out[0] = out[1] = 0.0f;
        fail = hard;
    }
    lp3(L, count, hard, fail, vmax, proj, out);
    return false;
}

bool sim_avoid_solve(const float (*n)[2], const float *c, int count, int hard, float vmax, const float pref[2],
                     float out[2])
{
    Line L[SIM_AVOID_MAX_LINES], proj[SIM_AVOID_MAX_LINES];
    if (count > SIM_AVOID_MAX_LINES) count = SIM_AVOID_MAX_LINES;
    if (count < 0) count = 0;
    hard = hard < 0 ? 0 : hard > count ? count : hard;
    for (int i = 0; i < count; i++) {
        L[i].n[0] = n[i][0];
        L[i].n[1] = n[i][1];
        L[i].c = c[i];
    }
    return solve(L, count, hard, vmax, pref, proj, out);
}

/* }======= */

/* {======= half-planes ======= */

/* Against a neighbour at relative position p (from the bot to it) with
** relative velocity vr (the bot's minus its), combined radius R: the
** bot's line through vel + share * u. */
static void agent_line(const float p[2], const float vr[2], const float vel[2], float R, float tau, float dt,
                       float share, Line *out)
{
    float d2 = dot2(p, p), n[2], ul;
    if (d2 > R * R) {
        float w[2] = { vr[0] - p[0] / tau, vr[1] - p[1] / tau };
        float w2 = dot2(w, w), wp = dot2(w, p);
        if (wp < 0.0f && wp * wp > R * R * w2) {
            /* Nearest the truncating disc (centre p / tau, radius R / tau). */
            float wl = sqrtf(w2);
            if (wl < 1e-9f) {
                n[0] = -p[0], n[1] = -p[1];
                float l = sqrtf(d2);
                n[0] /= l, n[1] /= l;
                wl = 0.0f;
            } else {
                n[0] = w[0] / wl, n[1] = w[1] / wl;
            }
            ul = R / tau - wl;
        } else {
            /* Nearest a leg: the tangent on the side w is of p; nearly
            ** head-on, the right one, so that both pass on their right
            ** (the pair sees the same cross product: the choice agrees). */
            float leg = sqrtf(d2 - R * R), dir[2];
            if (cross2(p, w) > PASS_RIGHT * sqrtf(d2 * w2)) {
                dir[0] = (p[0] * leg - p[1] * R) / d2;
                dir[1] = (p[0] * R + p[1] * leg) / d2;
                n[0] = -dir[1], n[1] = dir[0];
            } else {
                dir[0] = (p[0] * leg + p[1] * R) / d2;
                dir[1] = (-p[0] * R + p[1] * leg) / d2;
                n[0] = dir[1], n[1] = -dir[0];
            }
            ul = -dot2(vr, n);
        }
    } else {
        /* Overlapping: apart within one tick. */
        float w[2] = { vr[0] - p[0] / dt, vr[1] - p[1] / dt };
        float wl = sqrtf(dot2(w, w));
        if (wl < 1e-9f) {
            float l = sqrtf(d2);
            if (l < 1e-9f) n[0] = 1.0f, n[1] = 0.0f; /* coincident: split by id order (caller's sign) */
            else n[0] = -p[0] / l, n[1] = -p[1] / l;
        } else {
            n[0] = w[0] / wl, n[1] = w[1] / wl;
        }
        ul = R / dt - wl;
    }
    out->n[0] = n[0];
    out->n[1] = n[1];
    out->c = dot2(n, vel) + share * ul;
}

/* Against segment s (relative to the bot, which is off it by more than
** s->clear): a supporting line of its velocity obstacle for `tau` (the
** cone from the origin over the capsule round it, cut at 1 / tau of it),
** at the point of its boundary nearest q. The origin always keeps to the
** allowed side, so standing still satisfies every obstacle line. */
static void segment_line(const Segment *s, float tau, const float q[2], Line *out)
{
    float r = s->clear;
    /* The tangents from the origin to the discs at both ends. */
    const float *end[2] = { s->a, s->b };
    float left[2] = { 0, 0 }, right[2] = { 0, 0 }, ll = 0.0f, lr = 0.0f;
    for (int k = 0; k < 2; k++) {
        const float *x = end[k];
        float x2 = dot2(x, x), l = sqrtf(fmaxf_(x2 - r * r, 0.0f));
        float L[2] = { (x[0] * l - x[1] * r) / x2, (x[0] * r + x[1] * l) / x2 };
        float R[2] = { (x[0] * l + x[1] * r) / x2, (-x[0] * r + x[1] * l) / x2 };
        if (k == 0 || cross2(left, L) > 0.0f) left[0] = L[0], left[1] = L[1], ll = l;
        if (k == 0 || cross2(right, R) < 0.0f) right[0] = R[0], right[1] = R[1], lr = l;
    }
    float best = INFINITY, pt[2] = { 0, 0 }, n[2] = { 0, 0 };
    /* Legs: rays from the tangent points (scaled by 1 / tau) outward. */
    float t = fmaxf_(dot2(q, left), ll / tau);
    float lp[2] = { left[0] * t, left[1] * t }, dl2 = (q[0] - lp[0]) * (q[0] - lp[0]) + (q[1] - lp[1]) * (q[1] - lp[1]);
    if (dl2 < best) best = dl2, pt[0] = lp[0], pt[1] = lp[1], n[0] = -left[1], n[1] = left[0];
    t = fmaxf_(dot2(q, right), lr / tau);
    float rp[2] = { right[0] * t, right[1] * t },
          dr2 = (q[0] - rp[0]) * (q[0] - rp[0]) + (q[1] - rp[1]) * (q[1] - rp[1]);
    if (dr2 < best) best = dr2, pt[0] = rp[0], pt[1] = rp[1], n[0] = right[1], n[1] = -right[0];
    /* The front of the cut, the capsule / tau where it faces the origin
    ** (outward normal . point <= 0): its straight face on the origin's
    ** side, and the discs at the ends. */
    float a[2] = { s->a[0] / tau, s->a[1] / tau }, b[2] = { s->b[0] / tau, s->b[1] / tau }, rt = r / tau;
    float ab[2] = { b[0] - a[0], b[1] - a[1] }, ab2 = dot2(ab, ab);
    if (ab2 > 0.0f) {
        float abl = sqrtf(ab2), m[2] = { -ab[1] / abl, ab[0] / abl };
        if (dot2(m, a) > 0.0f) m[0] = -m[0], m[1] = -m[1]; /* toward the origin */
        float fa[2] = { a[0] + m[0] * rt, a[1] + m[1] * rt };
        if (dot2(m, fa) <= 0.0f) {
            float u = fmaxf_(0.0f, fminf_(1.0f, ((q[0] - fa[0]) * ab[0] + (q[1] - fa[1]) * ab[1]) / ab2));
            float fp[2] = { fa[0] + u * ab[0], fa[1] + u * ab[1] };
            float df2 = (q[0] - fp[0]) * (q[0] - fp[0]) + (q[1] - fp[1]) * (q[1] - fp[1]);
            if (df2 < best) best = df2, pt[0] = fp[0], pt[1] = fp[1], n[0] = m[0], n[1] = m[1];
        }
    }
    const float *disc[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        float w[2] = { q[0] - disc[k][0], q[1] - disc[k][1] }, wl = sqrtf(dot2(w, w)), fn[2];
        if (wl < 1e-9f) continue;
        fn[0] = w[0] / wl, fn[1] = w[1] / wl;
        float fp[2] = { disc[k][0] + fn[0] * rt, disc[k][1] + fn[1] * rt };
        if (dot2(fn, fp) > 0.0f) continue;
        float df2 = (q[0] - fp[0]) * (q[0] - fp[0]) + (q[1] - fp[1]) * (q[1] - fp[1]);
        if (df2 < best) best = df2, pt[0] = fp[0], pt[1] = fp[1], n[0] = fn[0], n[1] = fn[1];
    }
    out->n[0] = n[0];
    out->n[1] = n[1];
    out->c = dot2(n, pt);
    /* Rounding must never forbid standing still. */
    if (out->c > 0.0f) out->c = 0.0f;
}

/* }======= */


/* {======= settings ======= */

static void fill_defaults(NavAvoidDesc *d)
{
    if (d->horizon == 0.0f) d->horizon = DEF_HORIZON;
    if (d->wall_horizon == 0.0f) d->wall_horizon = DEF_WALL_HORIZON;
    if (d->range == 0.0f) d->range = DEF_RANGE;
    if (d->max_neighbours == 0) d->max_neighbours = DEF_NEIGHBOURS;
    if (d->responsibility == 0.0f) d->responsibility = DEF_RESPONSIBILITY;
}

static bool in_range(float v, float lo, float hi) { return isfinite(v) && v >= lo && v <= hi; }

static bool grow(NavSim *sim, uint32_t n)
{
    if (n <= sim->avoid_cap) return true;
    uint32_t cap = sim->avoid_cap ? sim->avoid_cap : 64;
    while (cap < n) cap *= 2;
    SimAvoidBot *a = nav_realloc(sim->avoid, cap * sizeof *a);
    if (!a) return false;
    memset(a + sim->avoid_cap, 0, (cap - sim->avoid_cap) * sizeof *a);
    sim->avoid = a;
    sim->avoid_cap = cap;
    return true;
}

static SimAvoidScratch *scratch(NavSim *sim)
{
    if (!sim->avoid_scratch) sim->avoid_scratch = nav_calloc(1, sizeof *sim->avoid_scratch);
    return sim->avoid_scratch;
}

bool sim_bot_set_avoid(NavSim *sim, uint32_t id, const NavAvoidDesc *desc)
{
    if (id >= sim->bot_count) return false;
    if (!desc || !desc->on) {
        if (id < sim->avoid_cap && sim->avoid[id].desc.on) {
            sim->avoid[id].desc.on = false;
            sim->avoid[id].use = SIM_AVOID_USE_NONE;
            sim->avoid_on--;
            sim_bucket_moved(sim, &sim->bots[id]);
        }
        return true;
    }
    NavAvoidDesc d = *desc;
    fill_defaults(&d);
    if (!in_range(d.horizon, 0.01f, 10.0f) || !in_range(d.wall_horizon, 0.01f, 5.0f) ||
        !in_range(d.range, 0.1f, 16.0f) || d.max_neighbours < 0 || d.max_neighbours > SIM_AVOID_MAX_NEIGHBOURS ||
        !(d.responsibility > 0.0f) || !(d.responsibility <= 1.0f) || (d.forbid & ~SIM_AVOID_FORBID_ALL))
        return false;
    if (!grow(sim, sim->bot_count) || !scratch(sim)) return false;
    SimAvoidBot *a = &sim->avoid[id];
    if (!a->desc.on) sim->avoid_on++;
    a->desc = d;
    sim_bucket_moved(sim, &sim->bots[id]); /* its record says it avoids */
    return true;
}

bool sim_bot_avoid(const NavSim *sim, uint32_t id, NavAvoidDesc *out)
{
    if (id >= sim->bot_count) return false;
    if (id < sim->avoid_cap && sim->avoid[id].desc.on) {
        *out = sim->avoid[id].desc;
        return true;
    }
    memset(out, 0, sizeof *out);
    fill_defaults(out);
    out->on = false;
    return true;
}

/* }======= */

/* {======= one bot ======= */

/* Does bot b avoid with the medium it is in now (ground, not riding; or
** swimming), and how fast may it go there? */
static bool avoiding_medium(const NavSim *sim, const NavBot *b, float *speed)
{
    const NavClass *c = world_class(sim->w, b->cls);
    if (b->on_ladder || b->climbing || b->control.climb || b->airborne_pad) return false;
    if (b->in_water) {
        *speed = c->swim_speed;
        return true;
    }
    if (!b->on_ground || b->riding >= 0) return false;
    *speed = b->crouched && c->crouch_speed > 0.0f ? c->crouch_speed : c->run_speed;
    return true;
}

/* The preferred velocity from the bot's wish (as sim_move reads it). */
static void wish_velocity(const NavBot *b, float speed, float pref[2])
{
    float x = b->control.move[0], y = b->control.move[1], l = sqrtf(x * x + y * y);
    if (!isfinite(l) || l < 1e-6f) {
        pref[0] = pref[1] = 0.0f;
        return;
    }
    if (l > 1.0f) x /= l, y /= l;
    pref[0] = x * speed;
    pref[1] = y * speed;
}

static bool bot_avoids(const NavSim *sim, uint32_t id) { return id < sim->avoid_cap && sim->avoid[id].desc.on; }

/* Keep bot id among the kmax nearest to b within sqrt(r2) on about its
** level: nearest first, ties by id; a bot met twice (far and in its
** bucket) counts once (`twice`: far bots were taken, so look). */
static void near_insert(const NavBot *b, const NavClass *c, uint32_t id, uint32_t ref, float x, float y, float z,
                        float r2, int kmax, bool twice, uint32_t *near_id, uint32_t *near_ref, float *near_d2, int *nn)
{
    if (id == b->id) return;
    float dx = x - b->pos[0], dy = y - b->pos[1], dz = z - b->pos[2];
    float dd = dx * dx + dy * dy;
    if (dd > r2 || fabsf(dz) > c->height) return;
    int n = *nn;
    if (n == kmax && (near_d2[n - 1] < dd || (near_d2[n - 1] == dd && near_id[n - 1] < id))) return;
    if (twice)
        for (int q = 0; q < n; q++)
            if (near_id[q] == id) return;
    int at = n;
    while (at > 0 && (near_d2[at - 1] > dd || (near_d2[at - 1] == dd && near_id[at - 1] > id))) at--;
    int last = n < kmax ? n : kmax - 1;
    for (int q = last; q > at; q--)
        near_id[q] = near_id[q - 1], near_ref[q] = near_ref[q - 1], near_d2[q] = near_d2[q - 1];
    near_id[at] = id, near_ref[at] = ref, near_d2[at] = dd;
    if (n < kmax) *nn = n + 1;
}

/* Along one axis, how far (less a margin for rounding) v is from [lo, hi]:
** 0 when it may be inside. */
static float axis_gap(float v, float lo, float hi)
{
    float g = fmaxf_(lo - v, v - hi) - (0.01f + 1e-5f * fabsf(v));
    return g > 0.0f ? g : 0.0f;
}

/* May bucket (x, y) hold a bot near_insert would keep for b: within
** sqrt(r2), and not beyond sqrt(worst) (the farthest kept, once the list
** is full)? Its records lie in the bucket's square grown by how far any
** has moved since bucketing; the map's edge buckets hold what is off it. */
static bool bucket_may_hold(const SimBuckets *bk, const NavBot *b, int x, int y, float r2, float worst)
{
    float lo_x = x == 0 ? -INFINITY : (float)x * bk->cell - bk->moved;
    float hi_x = x == bk->w - 1 ? INFINITY : (float)(x + 1) * bk->cell + bk->moved;
    float lo_y = y == 0 ? -INFINITY : (float)y * bk->cell - bk->moved;
    float hi_y = y == bk->h - 1 ? INFINITY : (float)(y + 1) * bk->cell + bk->moved;
    float gx = axis_gap(b->pos[0], lo_x, hi_x), gy = axis_gap(b->pos[1], lo_y, hi_y), g2 = gx * gx + gy * gy;
    return g2 <= r2 && g2 <= worst;
}

/* A parked bot (no wish of its own) touching bot o, which wishes to come
** its way but is held up (by it: a body left in a doorway): it judges o
** by where o wants to go, not by how o moves (it barely does), and makes
** all the room itself. Without this two bodies at rest stay at rest, and
** the one in the way of the other never moves. */
static void parked_yields(const NavSim *sim, uint32_t o, const float p[2], float R, float vr[2], float *share)
{
    const NavBot *ob = &sim->bots[o];
    if (p[0] * p[0] + p[1] * p[1] > (R + 0.25f) * (R + 0.25f)) return;
    const NavClass *oc = world_class(sim->w, ob->cls);
    float speed = ob->crouched ? oc->crouch_speed : oc->run_speed;
    float w[2] = { ob->control.move[0] * speed, ob->control.move[1] * speed };
    if (!(w[0] * p[0] + w[1] * p[1] < 0.0f)) return; /* not coming this way */
    if (ob->vel[0] * ob->vel[0] + ob->vel[1] * ob->vel[1] > 0.25f * (w[0] * w[0] + w[1] * w[1])) return;
    vr[0] = -w[0];
    vr[1] = -w[1];
    *share = 1.0f;
}

/* A formation mate whose slot is further forward (o), held up where it
** wants to go (off to the side of a moving file, wanting back in): the
** one behind judges it by where it wants to go, as if it went, and so
** leaves it a gap. Judged by how it moves (barely), a file walking past
** never lets it in. vr: b's velocity less o's, rewritten. */
static void mate_ahead_held_up(const NavSim *sim, uint32_t o, const float bvel[2], float vr[2])
{
    const NavBot *ob = &sim->bots[o];
    const NavClass *oc = world_class(sim->w, ob->cls);
    float speed = ob->crouched ? oc->crouch_speed : oc->run_speed;
    float w[2] = { ob->control.move[0] * speed, ob->control.move[1] * speed };
    if (ob->vel[0] * ob->vel[0] + ob->vel[1] * ob->vel[1] > 0.25f * (w[0] * w[0] + w[1] * w[1])) return;
    vr[0] = bvel[0] - w[0];
    vr[1] = bvel[1] - w[1];
}

/* The obstacle lines round bot b into L, forbidden ground first, then
** walls (*walls of them); returns how many. */
static int obstacle_lines(const NavSim *sim, SimAvoidScratch *sc, const NavBot *b, const NavClass *c,
                          const NavAvoidDesc *d, float speed, const float pref[2], Line *L, int *walls)
{
    int n = 0, ns = sim_avoid_gather_segments(sim, sc, b, c, d->forbid, speed, d->wall_horizon);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < ns; i++) {
            Segment *s = &sc->seg[i];
            bool wall = s->clear != FORBID_MARGIN;
            if (wall != (pass == 1)) continue;
            *walls += wall;
            if (s->dist <= s->clear) {
                /* On it (a forbidden edge the centre stands at): no deeper. */
                float p[2], ab[2] = { s->b[0] - s->a[0], s->b[1] - s->a[1] }, ab2 = dot2(ab, ab);
                float u = ab2 > 0.0f ? fmaxf_(0.0f, fminf_(1.0f, -dot2(s->a, ab) / ab2)) : 0.0f;
                p[0] = s->a[0] + u * ab[0], p[1] = s->a[1] + u * ab[1];
                float pl2 = sqrtf(dot2(p, p));
                if (pl2 > 1e-6f) L[n].n[0] = -p[0] / pl2, L[n].n[1] = -p[1] / pl2;
                else L[n].n[0] = s->n[0], L[n].n[1] = s->n[1];
                L[n].c = 0.0f;
                n++;
                continue;
            }
            segment_line(s, d->wall_horizon, pref, &L[n++]);
        }
    return n;
}

/* The lines of bot b against its nn neighbours into L; returns how many. */
static int bot_lines(const NavSim *sim, const NavBot *b, const NavClass *c, const NavAvoidDesc *d, bool parked,
                     const uint32_t *near_id, const uint32_t *near_ref, int nn, Line *L)
{
    const SimBuckets *bk = &sim->buckets;
    float dt = sim->dt, ra = c->radius * BODY_SCALE;
    int n = 0, form = sim_formation_of(sim, b->id);
    float lead = form ? sim_formation_lead(sim, b->id) : 0.0f;
    for (int i = 0; i < nn; i++) {
        SimBucketBot e;
        if (near_ref[i] == FAR_REF) {
            /* Not bucketed this tick: its record made from the bot. */
            const NavBot *o = &sim->bots[near_id[i]];
            e.x = o->pos[0], e.y = o->pos[1], e.vx = o->vel[0], e.vy = o->vel[1];
            e.r = world_class(sim->w, o->cls)->radius;
            e.resp = bot_avoids(sim, o->id) ? sim->avoid[o->id].desc.responsibility : 0.0f;
        } else {
            e = bk->body[near_ref[i]];
        }
        float p[2] = { e.x - b->pos[0], e.y - b->pos[1] };
        float vr[2] = { b->vel[0] - e.vx, b->vel[1] - e.vy };
        float share = e.resp > 0.0f ? d->responsibility / (d->responsibility + e.resp) : 1.0f;
        if (form && e.resp > 0.0f && sim_formation_of(sim, near_id[i]) == form) {
            /* Formation mates: the one whose slot is further back makes
            ** most of the room. */
            float ahead = sim_formation_lead(sim, near_id[i]) - lead;
            if (ahead > MATE_RANK) {
                share = MATE_BEHIND;
                mate_ahead_held_up(sim, near_id[i], b->vel, vr);
            } else if (ahead < -MATE_RANK) {
                share = 1.0f - MATE_BEHIND;
            }
        }
        if (parked) parked_yields(sim, near_id[i], p, ra + e.r * BODY_SCALE, vr, &share);
        if (p[0] == 0.0f && p[1] == 0.0f) {
            /* On the same spot: the lower id goes west, the other east. */
            p[0] = b->id < near_id[i] ? 1e-3f : -1e-3f;
        }
        agent_line(p, vr, b->vel, ra + e.r * BODY_SCALE, d->horizon, dt, share, &L[n++]);
    }
    return n;
}

/* Does every line of L let v be? (The test solve starts with.) */
static bool lines_hold(const Line *L, int n, const float v[2])
{
    for (int i = 0; i < n; i++)
        if (!(dot2(L[i].n, v) >= L[i].c - LP_EPS)) return false;
    return true;
}

/* The velocity bot b takes for preferred velocity pref, with settings d;
** *direct set when accelerating toward it from b's velocity would cross
** an obstacle line. */
static void avoid_one(NavSim *sim, SimAvoidScratch *sc, const NavBot *b, const NavAvoidDesc *d, float speed,
                      const float pref_in[2], float out[2], bool *direct)
{
    const NavClass *c = world_class(sim->w, b->cls);
    /* Turned right, (x, y) + k (y, -x), at the same speed. */
    float pref[2] = { pref_in[0] + RIGHT_BIAS * pref_in[1], pref_in[1] - RIGHT_BIAS * pref_in[0] };
    float pl = sqrtf(dot2(pref, pref)), ql = sqrtf(dot2(pref_in, pref_in));
    if (pl > 0.0f) pref[0] *= ql / pl, pref[1] *= ql / pl;
    /* Neighbours: the nearest within range, on about the same level. */
    uint32_t near_id[SIM_AVOID_MAX_NEIGHBOURS], near_ref[SIM_AVOID_MAX_NEIGHBOURS]; /* ref: bucket record, or FAR_REF */
    float near_d2[SIM_AVOID_MAX_NEIGHBOURS];
    int nn = 0, kmax = d->max_neighbours;
    const SimBuckets *bk = &sim->buckets;
    float range = d->range, r2 = range * range, slack = bk->slack;
    /* The far bots first (teleported, new), then the buckets ring by ring
    ** round the bot's own, until the ring cannot hold anything nearer
    ** than the farthest kept: in a dense crowd the first ring is enough. */
    for (uint32_t k = 0; k < bk->far_count; k++) {
        const NavBot *o = &sim->bots[bk->far[k]];
        near_insert(b, c, o->id, FAR_REF, o->pos[0], o->pos[1], o->pos[2], r2, kmax, true, near_id, near_ref, near_d2,
                    &nn);
    }
    bool twice = nn > 0; /* a far bot may also be in a bucket */
    int bx = (int)floorf(b->pos[0] / bk->cell), by = (int)floorf(b->pos[1] / bk->cell);
    bx = bx < 0 ? 0 : bx >= bk->w ? bk->w - 1 : bx;
    by = by < 0 ? 0 : by >= bk->h ? bk->h - 1 : by;
    int rings = (int)((range + slack) / bk->cell) + 1;
    for (int ring = 0; ring <= rings; ring++) {
        for (int y = by - ring; y <= by + ring; y++) {
            if (y < 0 || y >= bk->h) continue;
            bool edge_row = y == by - ring || y == by + ring;
            for (int x = bx - ring; x <= bx + ring; x += edge_row || ring == 0 ? 1 : 2 * ring) {
                if (x < 0 || x >= bk->w || !bucket_may_hold(bk, b, x, y, r2, nn == kmax ? near_d2[nn - 1] : r2))
                    continue;
                uint32_t cell = (uint32_t)(y * bk->w + x);
                for (uint32_t k = bk->first[cell]; k < bk->first[cell + 1]; k++) {
                    const SimBucketBot *e = &bk->body[k];
                    near_insert(b, c, e->id, k, e->x, e->y, e->z, r2, kmax, twice, near_id, near_ref, near_d2, &nn);
                }
            }
        }
        /* What ring + 1 holds is at least this far (less the slack). */
        float lo_x = b->pos[0] - (float)(bx - ring) * bk->cell, hi_x = (float)(bx + ring + 1) * bk->cell - b->pos[0];
        float lo_y = b->pos[1] - (float)(by - ring) * bk->cell, hi_y = (float)(by + ring + 1) * bk->cell - b->pos[1];
        float gap = fminf_(fminf_(lo_x, hi_x), fminf_(lo_y, hi_y)) - slack;
        if (gap > range) break;
        if (nn == kmax && gap > 0.0f && near_d2[nn - 1] <= gap * gap) break;
    }
    /* Jammed among other bots: every second, about half of the jammed
    ** bots (by a hash of the id and the second) give way, standing aside
    ** with no wish of their own, so that the others can get through. Only
    ** with another bot within range: one stuck on its own (against a
    ** wall, at a ledge) has nobody to make room for, and standing still
    ** for seconds at a time only kept it stuck. */
    if (ql > 0.0f && b->stuck_time > YIELD_AFTER && nn > 0) {
        uint64_t h =
            ((uint64_t)b->id * 0x9E3779B97F4A7C15ull) ^ ((sim->tick / (uint64_t)sim->hz) * 0xC2B2AE3D27D4EB4Full);
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 32;
        if (h & 1) pref[0] = pref[1] = 0.0f;
    }
    /* The bots' lines first, aside (in the solver's scratch, free until it
    ** runs): a bot at rest with no wish that every one of them lets stand
    ** still stays still, whatever its obstacles (their lines always let it),
    ** so it needs none of them. */
    bool parked = pref_in[0] == 0.0f && pref_in[1] == 0.0f;
    int nb = bot_lines(sim, b, c, d, parked, near_id, near_ref, nn, sc->proj);
    if (parked && b->vel[0] == 0.0f && b->vel[1] == 0.0f && lines_hold(sc->proj, nb, pref)) {
        /* What solve finds then: pref itself (zero), no line crossed. */
        out[0] = pref[0];
        out[1] = pref[1];
        *direct = false;
        return;
    }
    /* Obstacles: hard, first: forbidden ground, then walls; then the bots. */
    Line *L = sc->lines;
    int walls = 0, hard = obstacle_lines(sim, sc, b, c, d, speed, pref, L, &walls), n = hard + nb;
    memcpy(&L[hard], sc->proj, (size_t)nb * sizeof *L);
    float dt = sim->dt;
    /* A parked bot makes room at a walk, never at a run. */
    solve(L, n, hard, parked ? fminf_(speed, PARKED_SPEED) : speed, pref, sc->proj, out);
    if (walls && dot2(out, out) < PINNED * PINNED * dot2(pref, pref)) {
        /* Pinned: the walls' lines are a straight-line view of the room
        ** round a corner or through a gap, and together they can leave only
        ** standing still where walking on would slide along them. Without
        ** them (the hull traces keep the body out of walls anyway). */
        memmove(&L[hard - walls], &L[hard], (size_t)(n - hard) * sizeof *L);
        n -= walls;
        hard -= walls;
        solve(L, n, hard, speed, pref, sc->proj, out);
    }
    /* Would the usual acceleration toward it cross an obstacle line? */
    *direct = false;
    if (hard) {
        float accel = (b->in_water ? SIM_WATER_ACCEL : SIM_GROUND_ACCEL) * dt;
        float dv[2] = { out[0] - b->vel[0], out[1] - b->vel[1] }, dl = sqrtf(dot2(dv, dv));
        float v[2] = { out[0], out[1] };
        if (dl > accel) v[0] = b->vel[0] + dv[0] / dl * accel, v[1] = b->vel[1] + dv[1] / dl * accel;
        for (int i = 0; i < hard && !*direct; i++) *direct = dot2(L[i].n, v) < L[i].c - LP_EPS;
    }
}

void sim_bot_avoid_velocity(const NavSim *csim, uint32_t id, const float pref[2], float out[2])
{
    NavSim *sim = (NavSim *)csim; /* the scratch is not state */
    out[0] = pref[0], out[1] = pref[1];
    if (id >= sim->bot_count || !isfinite(pref[0]) || !isfinite(pref[1])) return;
    SimAvoidScratch *sc = scratch(sim);
    if (!sc) return;
    NavAvoidDesc d;
    sim_bot_avoid(sim, id, &d);
    const NavBot *b = &sim->bots[id];
    const NavClass *c = world_class(sim->w, b->cls);
    float speed;
    if (!avoiding_medium(sim, b, &speed)) speed = b->in_water ? c->swim_speed : c->run_speed;
    float l = sqrtf(dot2(pref, pref));
    if (l > speed && speed > 0.0f) speed = l; /* the caller's speed, if it asks for more */
    bool direct;
    avoid_one(sim, sc, b, &d, speed, pref, out, &direct);
}

/* }======= */

/* {======= the tick ======= */

void sim_avoid_pass(NavSim *sim)
{
    if (!sim->avoid_on) return;
    SimAvoidScratch *sc = scratch(sim);
    uint32_t n = sim->bot_count < sim->avoid_cap ? sim->bot_count : sim->avoid_cap;
    for (uint32_t i = 0; i < n; i++) {
        SimAvoidBot *a = &sim->avoid[i];
        a->use = SIM_AVOID_USE_NONE;
        const NavBot *b = &sim->bots[i];
        float speed;
        if (!a->desc.on || !sc || !avoiding_medium(sim, b, &speed)) continue;
        float pref[2];
        wish_velocity(b, speed, pref);
        bool direct;
        avoid_one(sim, sc, b, &a->desc, speed, pref, a->vel, &direct);
        a->use = direct ? SIM_AVOID_USE_DIRECT : SIM_AVOID_USE_ACCEL;
    }
}

bool sim_avoid_target(const NavSim *sim, const NavBot *b, float vel[2], bool *direct)
{
    if (b->id >= sim->avoid_cap) return false;
    const SimAvoidBot *a = &sim->avoid[b->id];
    if (!a->desc.on || a->use == SIM_AVOID_USE_NONE) return false;
    vel[0] = a->vel[0];
    vel[1] = a->vel[1];
    *direct = a->use == SIM_AVOID_USE_DIRECT;
    return true;
}

/* Is the ground under (x, y), for a body of class c standing at z, ground
** the forbid bits rule out (from a start at height z0 for ledges)? */
static bool forbidden_at(const NavSim *sim, const NavClass *c, uint32_t forbid, float x, float y, float z, float z0)
{
    int cx, cy;
    if (!world_point_cell(sim->w, x, y, &cx, &cy)) return false;
    float h = 0.0f;
    uint8_t k = sim_avoid_cell_kind(sim->w, c, forbid, fmaxf_(c->step, c->barrier_jump), cx, cy, z, &h);
    if (k == CELL_FORBID) return true;
    return (forbid & SIM_AVOID_LEDGE) && k == CELL_OPEN && z0 - h > c->step;
}

bool sim_avoid_keep_off(NavSim *sim, NavBot *b, const float start[3])
{
    if (b->id >= sim->avoid_cap) return false;
    const SimAvoidBot *a = &sim->avoid[b->id];
    if (!a->desc.on || a->use == SIM_AVOID_USE_NONE || !a->desc.forbid) return false;
    if (b->pos[0] == start[0] && b->pos[1] == start[1]) return false;
    const NavClass *c = world_class(sim->w, b->cls);
    float z0 = start[2] + (b->in_water ? 0.5f * c->height : 0.0f);
    if (!forbidden_at(sim, c, a->desc.forbid, b->pos[0], b->pos[1], z0, z0)) return false;
    if (forbidden_at(sim, c, a->desc.forbid, start[0], start[1], z0, z0))
        return false; /* already there: it may leave */
    memcpy(b->pos, start, sizeof b->pos);
    b->vel[0] = b->vel[1] = 0.0f;
    return true;
}

void sim_avoid_free(NavSim *sim)
{
    sim_avoid_edges_free(sim->avoid_scratch);
    nav_free(sim->avoid);
    nav_free(sim->avoid_scratch);
    sim->avoid = NULL;
    sim->avoid_scratch = NULL;
    sim->avoid_cap = sim->avoid_on = 0;
}

/* }======= */

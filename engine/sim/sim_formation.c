/*
** sim_formation.c — formations (sim_unit.h, "formations"): an anchor on
** one long path, slots round it turned to the way it goes, members that
** follow their slots by unit motion, narrowing where the ground is
** narrow, arrival in shape.
**
** Slots are numbered rank by rank from the front, left to right, in every
** shape; a narrowed formation lays the same numbers out on fewer files.
** Members get their slots by nearest (least squared distance, so that no
** way to a slot crosses another) when the order is given, again every
** half second while they form up round the standing anchor and while they
** settle at the goal, and again whenever the files change; between those
** times the slots are kept, so the ranks keep their order on the march.
** Moving, the ranks are laid along the anchor's path ("the spine"), not
** turned about the anchor, so a file follows the road round bends.
*/
#include "sim/sim_unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "grid/grid.h"
#include "sim/sim_internal.h"

#define FORM_PACE 0.8f        /* share of the slowest member's speed the anchor walks at */
#define FORM_STRAGGLER 6.0f   /* metres: a member further off its slot counts as this far for the pace */
#define FORM_STRAGGLE 1.0f    /* metres of mean slot error from which the anchor slows */
#define FORM_TURN 2.5f        /* radians a second the formation turns at, at most */
#define FORM_LOOK 2.0f        /* slot spacings ahead of the anchor the ground's width is looked at */
#define FORM_ARRIVED 0.6f     /* metres: every member this near its slot, the formation has arrived */
#define FORM_SETTLE 15.0f     /* seconds at the goal after which it has arrived however it stands */
#define FORM_NARROW_HOLD 1.0f /* seconds a narrowed formation keeps its files before widening */
#define FORM_REASSIGN 0.5f    /* seconds between slot assignments while forming up or settling */
#define FORM_SHORT 4.0f       /* slot spacings: an order no longer than this turns the facing at once */
#define FORM_HURRY 2.0f       /* metres off its slot from which a member runs to catch up */
#define FORM_FORMED 1.0f      /* metres of mean slot error under which a forming formation sets off */

typedef struct SimFormation {
    bool live;
    uint8_t shape, status;
    float spacing;
    uint32_t *ids;
    int *slot; /* per member: its slot number */
    int n;
    int cls_wide; /* the widest member's class: the anchor's path is its */
    float speed;  /* the slowest member's speed */
    float *path;  /* anchor path, metres */
    int path_count, path_next, path_cap;
    float *trail; /* where the anchor has been this order, oldest first, metres */
    int trail_count, trail_cap;
    float bx, by; /* the way behind the trail's start: the first leg's, reversed */
    float ax, ay; /* anchor */
    float fx, fy; /* facing, unit vector */
    int full_files, files;
    float narrow_for; /* seconds narrowed so far while wider ground is seen */
    float err_mean, err_max;
    float err_pace;   /* the mean with stragglers counted FORM_STRAGGLER off: it sets the pace */
    float settle;     /* seconds since the anchor reached the goal */
    float forming;    /* seconds spent forming up before setting off; < 0 once off */
    bool face_set;    /* a facing at the goal was ordered: (gfx, gfy) */
    bool tail;        /* at a goal its shape does not fit: stood along the way it came, front at the goal */
    float tail_front; /* then: the front rank's distance ahead of the anchor in the plain layout */
    float gfx, gfy;
    float reassign_in;      /* seconds to the next slot assignment while the anchor stands */
    float *slot_xy;         /* per member: its slot point this tick */
    float gx, gy;           /* the goal */
    uint32_t world_changes; /* sim->world_changes its path was planned at */
} SimFormation;

struct SimFormations {
    SimFormation *f; /* index = id - 1 */
    int count, cap;
    int *of;     /* per bot id: formation id, 0 none */
    float *lead; /* per bot id: how far ahead in its formation its slot is, metres */
    uint32_t of_cap;
};

/* {======= bookkeeping ======= */

static SimFormations *forms(NavSim *sim)
{
    if (!sim->formations) sim->formations = nav_calloc(1, sizeof *sim->formations);
    return sim->formations;
}

static SimFormation *get(const NavSim *sim, int f)
{
    const SimFormations *fs = sim->formations;
    if (!fs || f < 1 || f > fs->count || !fs->f[f - 1].live) return NULL;
    return &fs->f[f - 1];
}

bool sim_formation_slot(const NavSim *sim, int f, int k, uint32_t *id, float xy[2])
{
    const SimFormation *fm = get(sim, f);
    if (!fm || k < 0 || k >= fm->n) return false;
    *id = fm->ids[k];
    xy[0] = fm->slot_xy[2 * k];
    xy[1] = fm->slot_xy[2 * k + 1];
    return true;
}

int sim_formation_count(const NavSim *sim) { return sim->formations ? sim->formations->count : 0; }

int sim_formation_of(const NavSim *sim, uint32_t id)
{
    const SimFormations *fs = sim->formations;
    return fs && id < fs->of_cap ? fs->of[id] : 0;
}

float sim_formation_lead(const NavSim *sim, uint32_t id)
{
    const SimFormations *fs = sim->formations;
    return fs && id < fs->of_cap ? fs->lead[id] : 0.0f;
}

static void free_one(SimFormation *fm)
{
    nav_free(fm->ids);
    nav_free(fm->slot);
    nav_free(fm->path);
    nav_free(fm->trail);
    nav_free(fm->slot_xy);
    memset(fm, 0, sizeof *fm);
}

void sim_formation_disband(NavSim *sim, int f)
{
    SimFormation *fm = get(sim, f);
    if (!fm) return;
    for (int k = 0; k < fm->n; k++) {
        sim->formations->of[fm->ids[k]] = 0;
        sim_unit_stop(sim, fm->ids[k]);
        sim->bots[fm->ids[k]].control.look = false;
    }
    free_one(fm);
}

void sim_formation_free(NavSim *sim)
{
    SimFormations *fs = sim->formations;
    if (!fs) return;
    for (int i = 0; i < fs->count; i++) free_one(&fs->f[i]);
    nav_free(fs->f);
    nav_free(fs->of);
    nav_free(fs->lead);
    nav_free(fs);
    sim->formations = NULL;
}

size_t sim_formation_memory(const NavSim *sim)
{
    const SimFormations *fs = sim->formations;
    if (!fs) return 0;
    size_t b = sizeof *fs + (size_t)fs->cap * sizeof *fs->f + fs->of_cap * (sizeof *fs->of + sizeof *fs->lead);
    for (int i = 0; i < fs->count; i++)
        b += (size_t)fs->f[i].n * (sizeof(uint32_t) + sizeof(int) + 2 * sizeof(float)) +
             (size_t)(fs->f[i].path_cap + fs->f[i].trail_cap) * 2 * sizeof(float);
    return b;
}

/* }======= */

/* {======= layout ======= */

static int full_files(int shape, int n)
{
    switch (shape) {
    case NAV_FORMATION_LINE: return n;
    case NAV_FORMATION_COLUMN: return n < 2 ? n : 2;
    case NAV_FORMATION_WEDGE: {
        int r = 0;
        while ((r + 1) * (r + 2) / 2 < n) r++;
        return r + 1; /* the widest rank */
    }
    default: {
        int c = (int)ceilf(sqrtf((float)n));
        return c < 1 ? 1 : c;
    }
    }
}

/* Slot k's offset in the formation's frame: side (+ left) and ahead (+
** forward), centred on the anchor. files < full: the narrowed layout,
** ranks of `files`. */
static void slot_offset(const SimFormation *fm, int files, int k, float *side, float *ahead)
{
    int n = fm->n;
    float s = fm->spacing;
    if (fm->shape == NAV_FORMATION_WEDGE && files >= fm->full_files) {
        int rank = 0, first = 0;
        while (first + rank + 1 <= k) first += rank + 1, rank++;
        int in_rank = rank + 1;
        if (first + in_rank > n) in_rank = n - first;
        int ranks = full_files(NAV_FORMATION_WEDGE, n);
        *side = ((float)(in_rank - 1) * 0.5f - (float)(k - first)) * s;
        *ahead = ((float)(ranks - 1) * 0.5f - (float)rank) * s;
        return;
    }
    int ranks = (n + files - 1) / files;
    int rank = k / files, col = k % files;
    int in_rank = rank == ranks - 1 ? n - rank * files : files;
    *side = ((float)(in_rank - 1) * 0.5f - (float)col) * s;
    *ahead = ((float)(ranks - 1) * 0.5f - (float)rank) * s;
}

/* }======= */

/* {======= creating and ordering ======= */

int sim_formation_create(NavSim *sim, const uint32_t *ids, int n, const NavFormationDesc *desc, NavError *err)
{
    if (n < 1 || n > (int)sim->bot_count) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "members", "a formation needs 1 to %u bots, got %d",
                      (unsigned)sim->bot_count, n);
        return -1;
    }
    NavFormationDesc d = desc ? *desc : (NavFormationDesc){ 0 };
    if ((unsigned)d.shape >= NAV_FORMATION_SHAPES || !isfinite(d.spacing) || d.spacing < 0.0f || d.spacing > 50.0f) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "formation", "bad shape or spacing (0 to 50 m)");
        return -1;
    }
    for (int k = 0; k < n; k++) {
        if (ids[k] >= sim->bot_count) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "members", "no bot %u", (unsigned)ids[k]);
            return -1;
        }
        for (int q = 0; q < k; q++)
            if (ids[q] == ids[k]) {
                nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "members", "bot %u is listed twice", (unsigned)ids[k]);
                return -1;
            }
    }
    SimFormations *fs = forms(sim);
    if (!fs) goto nomem;
    if (fs->of_cap < sim->bot_count) {
        int *of = nav_realloc(fs->of, sim->bot_count * sizeof *of);
        if (!of) goto nomem;
        fs->of = of;
        float *lead = nav_realloc(fs->lead, sim->bot_count * sizeof *lead);
        if (!lead) goto nomem;
        fs->lead = lead;
        memset(of + fs->of_cap, 0, (sim->bot_count - fs->of_cap) * sizeof *of);
        memset(lead + fs->of_cap, 0, (sim->bot_count - fs->of_cap) * sizeof *lead);
        fs->of_cap = sim->bot_count;
    }
    int slot_at = -1;
    for (int i = 0; i < fs->count && slot_at < 0; i++)
        if (!fs->f[i].live) slot_at = i;
    if (slot_at < 0) {
        if (fs->count == fs->cap) {
            int cap = fs->cap ? fs->cap * 2 : 8;
            SimFormation *f = nav_realloc(fs->f, (size_t)cap * sizeof *f);
            if (!f) goto nomem;
            fs->f = f;
            fs->cap = cap;
        }
        slot_at = fs->count++;
        memset(&fs->f[slot_at], 0, sizeof fs->f[slot_at]);
    }
    SimFormation *fm = &fs->f[slot_at];
    fm->ids = nav_malloc((size_t)n * sizeof *fm->ids);
    fm->slot = nav_malloc((size_t)n * sizeof *fm->slot);
    fm->slot_xy = nav_calloc((size_t)n * 2, sizeof *fm->slot_xy);
    if (!fm->ids || !fm->slot || !fm->slot_xy) {
        free_one(fm);
        goto nomem;
    }
    for (int k = 0; k < n; k++) {
        int old = fs->of[ids[k]];
        if (old) {
            /* Leaving another formation: that one closes up. */
            SimFormation *o = &fs->f[old - 1];
            for (int q = 0; q < o->n; q++)
                if (o->ids[q] == ids[k]) {
                    memmove(&o->ids[q], &o->ids[q + 1], (size_t)(o->n - q - 1) * sizeof *o->ids);
                    memmove(&o->slot[q], &o->slot[q + 1], (size_t)(o->n - q - 1) * sizeof *o->slot);
                    o->n--;
                    break;
                }
            /* Its slots numbered 0.. again, in the order they had. */
            for (int q = 0; q < o->n; q++) {
                int rank = 0;
                for (int r = 0; r < o->n; r++) rank += o->slot[r] < o->slot[q];
                o->slot_xy[2 * q] = (float)rank; /* scratch: slot_xy is rewritten each pass */
            }
            for (int q = 0; q < o->n; q++) o->slot[q] = (int)o->slot_xy[2 * q];
            if (o->n == 0) free_one(o);
        }
        fs->of[ids[k]] = slot_at + 1;
        sim_unit_stop(sim, ids[k]); /* it stands in the formation until it moves */
        /* Members do not plan round each other (sim_unit.c): they avoid
        ** each other reciprocally, with the defaults unless set before. */
        NavAvoidDesc ad;
        if (!sim_bot_avoid(sim, ids[k], &ad) || !ad.on) sim_bot_set_avoid(sim, ids[k], &(NavAvoidDesc){ .on = true });
    }
    memcpy(fm->ids, ids, (size_t)n * sizeof *ids);
    fm->n = n;
    fm->live = true;
    fm->shape = (uint8_t)d.shape;
    fm->status = NAV_FORMATION_IDLE;
    float wide = 0.0f, slow = INFINITY, cx = 0.0f, cy = 0.0f;
    for (int k = 0; k < n; k++) {
        const NavBot *b = &sim->bots[ids[k]];
        const NavClass *c = world_class(sim->w, b->cls);
        if (c->radius > wide) wide = c->radius, fm->cls_wide = b->cls;
        if (c->run_speed < slow) slow = c->run_speed;
        cx += b->pos[0];
        cy += b->pos[1];
        fm->slot[k] = k;
    }
    /* By default a body's width between neighbours (0.6 m at least): room
    ** for a member to walk in between two standing at their slots. */
    fm->spacing = d.spacing > 0.0f ? d.spacing : fmaxf(4.0f * wide, 2.0f * wide + 0.6f);
    fm->speed = slow;
    fm->ax = cx / (float)n;
    fm->ay = cy / (float)n;
    fm->fx = 1.0f;
    fm->fy = 0.0f;
    fm->full_files = fm->files = full_files(fm->shape, n);
    return slot_at + 1;
nomem:
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "formation", "out of memory");
    return -1;
}

static bool keep(SimFormation *fm, float x, float y)
{
    return unit_push_point(&fm->path, &fm->path_count, &fm->path_cap, x, y);
}

/* {======= the spine =======
** While it moves, a formation is laid along its way rather than turned
** about its anchor like a board: each rank stands on the anchor's path
** at its distance ahead of the anchor (front ranks on the way still to
** go, rear ranks on the trail the anchor left), square to the way there.
** A file of forty rounds a bend as marching men do, instead of sweeping
** its tail through the trees beside the road. At rest, and once the
** anchor is at the goal, the layout is the plain shape turned to the
** facing. */

static bool keep_trail(SimFormation *fm, float x, float y)
{
    /* Only the formation's length behind the anchor is ever walked. */
    float need = 0.5f * (float)fm->n * fm->spacing + 2.0f * fm->spacing, have = 0.0f;
    for (int i = fm->trail_count - 1; i > 0 && have <= need; i--) {
        float dx = fm->trail[2 * i] - fm->trail[2 * i - 2], dy = fm->trail[2 * i + 1] - fm->trail[2 * i - 1];
        have += sqrtf(dx * dx + dy * dy);
        if (have > need) {
            memmove(fm->trail, fm->trail + 2 * (i - 1), (size_t)(fm->trail_count - i + 1) * 2 * sizeof *fm->trail);
            fm->trail_count -= i - 1;
        }
    }
    return unit_push_point(&fm->trail, &fm->trail_count, &fm->trail_cap, x, y);
}

/* Walk `s` metres from (px, py) through the points pts[first], pts[first +
** step], ... (count of them in all), then straight on the way the last leg
** went (dx, dy before any). */
static void walk(const float *pts, int first, int count, int step, float px, float py, float dx, float dy, float s,
                 float out[2])
{
    for (int i = first, k = 0; k < count; i += step, k++) {
        float qx = pts[2 * i], qy = pts[2 * i + 1], ex = qx - px, ey = qy - py, d = sqrtf(ex * ex + ey * ey);
        if (d < 1e-4f) continue;
        dx = ex / d, dy = ey / d;
        if (s <= d) break;
        s -= d;
        px = qx, py = qy;
    }
    out[0] = px + dx * s;
    out[1] = py + dy * s;
}

/* The point `s` metres along the spine from the anchor: ahead on the path
** (s >= 0), behind on the trail (s < 0). */
static void spine_point(const SimFormation *fm, float s, float out[2])
{
    if (s >= 0.0f)
        walk(fm->path, fm->path_next, fm->path_count - fm->path_next, 1, fm->ax, fm->ay, fm->fx, fm->fy, s, out);
    else walk(fm->trail, fm->trail_count - 1, fm->trail_count, -1, fm->ax, fm->ay, fm->bx, fm->by, -s, out);
}

static bool laid_on_spine(const SimFormation *fm)
{
    if (fm->tail) return fm->status == NAV_FORMATION_MOVING || fm->status == NAV_FORMATION_ARRIVED;
    return fm->status == NAV_FORMATION_MOVING && fm->path_next < fm->path_count;
}

/* Where a slot offset (side, ahead) is this tick, and the way the
** formation goes there. */
static void place_offset(const SimFormation *fm, float side, float ahead, float xy[2], float dir[2])
{
    float fx = fm->fx, fy = fm->fy, cx = fm->ax + fx * ahead, cy = fm->ay + fy * ahead;
    if (laid_on_spine(fm)) {
        if (fm->tail) ahead -= fm->tail_front; /* the front rank at the anchor, the rest behind it */
        float c[2], a[2], b[2], h = 0.5f * fm->spacing;
        spine_point(fm, ahead, c);
        spine_point(fm, ahead + h, a);
        spine_point(fm, ahead - h, b);
        float dx = a[0] - b[0], dy = a[1] - b[1], d = sqrtf(dx * dx + dy * dy);
        if (d > 1e-3f) fx = dx / d, fy = dy / d;
        cx = c[0], cy = c[1];
    }
    xy[0] = cx - fy * side;
    xy[1] = cy + fx * side;
    if (dir) dir[0] = fx, dir[1] = fy;
}

/* }======= */

/* Slots by nearest, over the whole formation: the assignment of members
** to slots with the least sum of squared distances (the Hungarian
** method, O(n^3)). Greedy nearest-first pairs leave the last members far
** from their slots and send paths across each other. The least plain
** sum is no better in a file: one member walking from the rear to the
** front costs as much as every member stepping up one place. Squared,
** the long walk costs far more, and the straight ways to the slots
** keep apart as the members go (the assignment used by concurrent
** assignment and planning of trajectories for robot teams): nobody has
** to push through the formation. Deterministic: ties go to the lower
** slot. */
static bool assign_slots(NavSim *sim, SimFormation *fm)
{
    int n = fm->n;
    size_t cells = (size_t)(n + 1) * (size_t)(n + 1);
    double *cost = nav_malloc(cells * sizeof *cost);
    double *u = nav_calloc((size_t)n + 1, sizeof *u), *v = nav_calloc((size_t)n + 1, sizeof *v);
    double *minv = nav_malloc(((size_t)n + 1) * sizeof *minv);
    int *p = nav_calloc((size_t)n + 1, sizeof *p), *way = nav_calloc((size_t)n + 1, sizeof *way);
    bool *used = nav_malloc(((size_t)n + 1) * sizeof *used);
    bool ok = cost && u && v && minv && p && way && used;
    for (int s = 0; ok && s < n; s++) {
        float side, ahead;
        slot_offset(fm, fm->files, s, &side, &ahead);
        float xy[2];
        place_offset(fm, side, ahead, xy, NULL);
        float x = xy[0], y = xy[1];
        for (int m = 0; m < n; m++) {
            const NavBot *b = &sim->bots[fm->ids[m]];
            double dx = (double)b->pos[0] - x, dy = (double)b->pos[1] - y;
            cost[(size_t)(m + 1) * (size_t)(n + 1) + (size_t)(s + 1)] = dx * dx + dy * dy;
        }
    }
    /* Rows are members, columns slots; p[slot] = member, 1-based. */
    for (int i = 1; ok && i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) minv[j] = INFINITY, used[j] = false;
        do {
            used[j0] = true;
            int i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (int j = 1; j <= n; j++) {
                if (used[j]) continue;
                double cur = cost[(size_t)i0 * (size_t)(n + 1) + (size_t)j] - u[i0] - v[j];
                if (cur < minv[j]) minv[j] = cur, way[j] = j0;
                if (minv[j] < delta) delta = minv[j], j1 = j;
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) u[p[j]] += delta, v[j] -= delta;
                else minv[j] -= delta;
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; ok && j <= n; j++) fm->slot[p[j] - 1] = j - 1;
    nav_free(cost);
    nav_free(u);
    nav_free(v);
    nav_free(minv);
    nav_free(p);
    nav_free(way);
    nav_free(used);
    return ok;
}

/* Is what is left of the anchor's path a short way (FORM_SHORT spacings)?
** It is walked without turning: a few steps to where it forms up, or the
** last steps of a long way, do not swing the whole formation round. */
static bool short_way_left(const SimFormation *fm)
{
    float left = 0.0f, most = FORM_SHORT * fm->spacing, px = fm->ax, py = fm->ay;
    for (int k = fm->path_next; k < fm->path_count && left <= most; k++) {
        left += hypotf(fm->path[2 * k] - px, fm->path[2 * k + 1] - py);
        px = fm->path[2 * k], py = fm->path[2 * k + 1];
    }
    return left <= most;
}

/* The anchor's long path from where it is to the goal, for the widest
** class; facing the first leg. The formation fails when there is no way. */
static NavStatus plan_anchor(NavSim *sim, SimFormation *fm, NavError *err)
{
    GridGoal goal = grid_goal_point(fm->gx, fm->gy);
    SimGridPath p;
    NavStatus s = sim_grid_path(sim, fm->cls_wide, fm->ax, fm->ay, &goal, &(SimGridQuery){ .smooth = true }, &p, err);
    if (NAV_FAILED(s)) return s;
    fm->world_changes = sim->world_changes;
    fm->path_count = fm->path_next = 0;
    if (p.flags & GRID_PATH_NO_PATH) {
        fm->status = NAV_FORMATION_FAILED;
        return NAV_OK;
    }
    float cs = grid_cell_size(sim_grid(sim, NULL));
    for (int k = 1; k < p.count; k++)
        if (!keep(fm, ((float)p.points[k].x + 0.5f) * cs, ((float)p.points[k].y + 0.5f) * cs))
            return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "formation", "out of memory");
    if ((p.flags & GRID_PATH_FOUND) && !(p.flags & GRID_PATH_GOAL_MOVED)) {
        /* The goal, in place of its cell's centre: a last half-cell step
        ** to it could go back the way the formation came, and the ranks
        ** laid past the end of the path would fold onto each other. */
        float *last = fm->path_count > 0 ? &fm->path[2 * fm->path_count - 2] : NULL;
        if (last && hypotf(last[0] - fm->gx, last[1] - fm->gy) < 0.75f * cs) last[0] = fm->gx, last[1] = fm->gy;
        else if (!keep(fm, fm->gx, fm->gy))
            return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "formation", "out of memory");
    }
    /* Facing the first leg; an order to step a little way (forming up
    ** about where it stands) keeps the facing it had. */
    if (fm->path_count > 0 && !short_way_left(fm)) {
        float dx = fm->path[0] - fm->ax, dy = fm->path[1] - fm->ay, d = sqrtf(dx * dx + dy * dy);
        if (d > 1e-3f) fm->fx = dx / d, fm->fy = dy / d;
    }
    return NAV_OK;
}

bool sim_formation_move(NavSim *sim, int f, float x, float y, NavError *err)
{
    SimFormation *fm = get(sim, f);
    if (!fm) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "formation", "no formation %d", f);
        return false;
    }
    if (!isfinite(x) || !isfinite(y)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "goal", "not a finite point");
        return false;
    }
    /* The anchor starts at the members' centre, or at the member nearest it
    ** when the centre is no ground for the widest class. */
    float cx = 0.0f, cy = 0.0f;
    for (int k = 0; k < fm->n; k++) cx += sim->bots[fm->ids[k]].pos[0], cy += sim->bots[fm->ids[k]].pos[1];
    cx /= (float)fm->n;
    cy /= (float)fm->n;
    if (!sim_grid_passable(sim, fm->cls_wide, cx, cy)) {
        float best = INFINITY;
        float bx = cx, by = cy;
        for (int k = 0; k < fm->n; k++) {
            const NavBot *b = &sim->bots[fm->ids[k]];
            float d = (b->pos[0] - cx) * (b->pos[0] - cx) + (b->pos[1] - cy) * (b->pos[1] - cy);
            if (d < best) best = d, bx = b->pos[0], by = b->pos[1];
        }
        cx = bx, cy = by;
    }
    fm->ax = cx;
    fm->ay = cy;
    fm->gx = x;
    fm->gy = y;
    fm->face_set = false;
    fm->tail = false;
    fm->settle = 0.0f;
    fm->narrow_for = 0.0f;
    fm->status = NAV_FORMATION_IDLE;
    NavStatus st = plan_anchor(sim, fm, err);
    if (NAV_FAILED(st)) return false;
    if (fm->status == NAV_FORMATION_FAILED) return true;
    if (short_way_left(fm) && fm->path_count > 0) {
        /* A few steps (forming up about where it stands): the anchor is
        ** at the end at once, and the members form up round it there,
        ** not round an anchor walking across them as they do. */
        fm->ax = fm->path[2 * fm->path_count - 2];
        fm->ay = fm->path[2 * fm->path_count - 1];
        fm->path_next = fm->path_count;
    }
    fm->trail_count = 0;
    fm->bx = -fm->fx, fm->by = -fm->fy;
    if (!keep_trail(fm, fm->ax, fm->ay)) goto nomem;
    fm->files = fm->full_files;
    fm->forming = 0.0f;
    fm->err_pace = FORM_STRAGGLER; /* not formed until the pass has measured it */
    fm->reassign_in = FORM_REASSIGN;
    fm->status = NAV_FORMATION_MOVING; /* slots on the spine, to assign them */
    if (!assign_slots(sim, fm)) {
        fm->status = NAV_FORMATION_IDLE;
        goto nomem;
    }
    for (int k = 0; k < fm->n; k++) sim->bots[fm->ids[k]].control.look = false;
    return true;
nomem:
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, "formation", "out of memory");
    return false;
}

bool sim_formation_face(NavSim *sim, int f, float degrees, NavError *err)
{
    SimFormation *fm = get(sim, f);
    if (!fm) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "formation", "no formation %d", f);
        return false;
    }
    if (!isfinite(degrees)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "facing", "not a finite angle");
        return false;
    }
    float a = degrees * (float)(NAV_PI / 180.0);
    fm->face_set = true;
    fm->gfx = cosf(a), fm->gfy = sinf(a);
    /* Forming up about where it stands: that way at once. */
    if (fm->status == NAV_FORMATION_MOVING && fm->forming >= 0.0f) {
        if (short_way_left(fm)) {
            fm->fx = fm->gfx, fm->fy = fm->gfy;
            assign_slots(sim, fm); /* out of memory: the slots it had */
        }
    }
    return true;
}

/* }======= */

/* {======= the pass ======= */

/* Files that fit the ground across the formation's way at (x, y): the
** passable run for the widest class through it, square to the facing,
** both sides alike (the path keeps to the middle of what it crosses). */
static int files_fitting(NavSim *sim, const SimFormation *fm, float x, float y, float fx, float fy)
{
    const NavGrid *g = sim_grid(sim, NULL);
    if (!g) return fm->full_files;
    /* A rank laid off the ground (past the map's edge, in a wood beside a
    ** bend) says nothing of the ground's width. */
    int x0, y0;
    if (!grid_cell_of(g, x, y, &x0, &y0) || !grid_passable(g, fm->cls_wide, x0, y0)) return fm->full_files;
    float half_full = 0.5f * (float)(fm->full_files - 1) * fm->spacing;
    float step = 0.5f * grid_cell_size(g);
    float room[2] = { 0.0f, 0.0f };
    for (int side = 0; side < 2; side++) {
        float sx = side ? fy : -fy, sy = side ? -fx : fx;
        float d = 0.0f;
        while (d < half_full + step) {
            float px = x + sx * (d + step), py = y + sy * (d + step);
            int cx, cy;
            if (!grid_cell_of(g, px, py, &cx, &cy) || !grid_passable(g, fm->cls_wide, cx, cy)) break;
            d += step;
        }
        room[side] = d;
    }
    float half = fminf(room[0], room[1]);
    int files = (int)floorf(2.0f * half / fm->spacing) + 1;
    return files < 1 ? 1 : files > fm->full_files ? fm->full_files : files;
}

/* Turn the facing toward (dx, dy), no faster than FORM_TURN. */
static void turn_toward(SimFormation *fm, float dx, float dy, float dt)
{
    float want = atan2f(dy, dx), have = atan2f(fm->fy, fm->fx);
    float turn = remainderf(want - have, 2.0f * (float)NAV_PI), most = FORM_TURN * dt;
    turn = turn > most ? most : turn < -most ? -most : turn;
    fm->fx = cosf(have + turn);
    fm->fy = sinf(have + turn);
}

/* The fewest files that fit the ground under a layout of `files` files,
** from its rear rank to a little ahead of its front one while it goes
** (so it narrows before the narrows, and widens only when all of it is
** through). */
static void extent(const SimFormation *fm, int files, float *front, float *back)
{
    *front = *back = 0.0f;
    for (int k = 0; k < fm->n; k++) {
        float side, ahead;
        slot_offset(fm, files, k, &side, &ahead);
        *front = fmaxf(*front, ahead), *back = fminf(*back, ahead);
    }
}

static int layout_fits(NavSim *sim, SimFormation *fm, int files)
{
    float front, back;
    extent(fm, files, &front, &back);
    float tail_front = fm->tail_front;
    fm->tail_front = front; /* laid as it would be with this many files */
    int fewest = fm->full_files;
    if (fm->path_next < fm->path_count) front += FORM_LOOK * fm->spacing; /* at the goal, nothing lies ahead */
    for (float at = back; at <= front; at += 0.5f * fm->spacing) {
        float xy[2], dir[2];
        place_offset(fm, 0.0f, at, xy, dir);
        int fit = files_fitting(sim, fm, xy[0], xy[1], dir[0], dir[1]);
        if (fit < fewest) fewest = fit;
    }
    fm->tail_front = tail_front;
    return fewest;
}

static void advance_anchor(NavSim *sim, SimFormation *fm, float dt)
{
    float pace = FORM_PACE;
    if (fm->err_pace > FORM_STRAGGLE) pace *= fmaxf(0.15f, 1.0f - (fm->err_pace - FORM_STRAGGLE) / 2.0f);
    float left = pace * fm->speed * dt;
    while (left > 0.0f && fm->path_next < fm->path_count) {
        float *w = &fm->path[2 * fm->path_next];
        float dx = w[0] - fm->ax, dy = w[1] - fm->ay, d = sqrtf(dx * dx + dy * dy);
        if (d <= left) {
            fm->ax = w[0], fm->ay = w[1];
            fm->path_next++;
            left -= d;
            keep_trail(fm, fm->ax, fm->ay); /* out of memory: the rear goes straight on */
        } else {
            fm->ax += dx / d * left;
            fm->ay += dy / d * left;
            left = 0.0f;
        }
    }
    /* Turn toward the way ahead, no faster than FORM_TURN. Not in the last
    ** step, from the goal cell's centre to the goal within it: that is no
    ** way the formation goes, and it would turn it any way at the end. */
    if (fm->path_next < fm->path_count) {
        float *w = &fm->path[2 * fm->path_next];
        float dx = w[0] - fm->ax, dy = w[1] - fm->ay, d = sqrtf(dx * dx + dy * dy);
        const NavGrid *g = sim_grid(sim, NULL);
        bool last_step = fm->path_next == fm->path_count - 1 && g && d <= 0.75f * grid_cell_size(g);
        if (d > 0.05f && !last_step && !short_way_left(fm)) turn_toward(fm, dx, dy, dt);
    }
}

static void drive_formation(NavSim *sim, SimFormation *fm)
{
    float dt = sim->dt;
    /* An obstacle came or went (a building laid in the way): the anchor
    ** plans again from where it is. */
    if (fm->status == NAV_FORMATION_MOVING && fm->world_changes != sim->world_changes &&
        NAV_FAILED(plan_anchor(sim, fm, NULL)))
        fm->world_changes = sim->world_changes;
    /* The anchor stands while the members form up round it (at most
    ** FORM_SETTLE), and at the goal. Meanwhile slots are given again now
    ** and then by nearest: a member left inside the crowd, its slot taken
    ** by another, swaps with that one instead of pushing through. While
    ** it goes they are kept, as the order of the ranks must be. */
    bool at_goal = fm->path_next >= fm->path_count;
    if (fm->status == NAV_FORMATION_MOVING && fm->forming >= 0.0f && !at_goal) {
        fm->forming += dt;
        if (fm->err_pace <= FORM_FORMED || fm->forming >= FORM_SETTLE) fm->forming = -1.0f;
    }
    bool standing = fm->forming >= 0.0f || at_goal;
    if (fm->status == NAV_FORMATION_MOVING && standing && (fm->reassign_in -= dt) <= 0.0f) {
        fm->reassign_in = FORM_REASSIGN;
        assign_slots(sim, fm); /* out of memory: the slots it had */
    }
    if (fm->status == NAV_FORMATION_MOVING && !standing) advance_anchor(sim, fm, dt);
    if (fm->status == NAV_FORMATION_MOVING && at_goal && fm->face_set) turn_toward(fm, fm->gfx, fm->gfy, dt);
    /* Narrow where the ground ahead is narrow; widen once it has been wide
    ** for a moment (not at every gap between two trees). */
    if (fm->status == NAV_FORMATION_MOVING) {
        int files_before = fm->files, want = 1;
        bool tail_before = fm->tail;
        /* At the goal: the plain shape round it when it fits there, else
        ** the formation stands along the way it came, its front at the
        ** goal (a file in a lane between woods stays in the lane). */
        if (fm->path_next >= fm->path_count) {
            fm->tail = false;
            fm->tail = layout_fits(sim, fm, fm->full_files) < fm->full_files;
        }
        /* The widest layout whose ground fits it: a wider one is also
        ** shorter, and may fit where a long file reaches into the woods. */
        for (int f = fm->full_files; f > 1 && want == 1; f--)
            if (layout_fits(sim, fm, f) >= f) want = f;
        if (want < fm->files) {
            fm->files = want;
            fm->narrow_for = 0.0f;
        } else if (want > fm->files) {
            fm->narrow_for += dt;
            if (fm->narrow_for >= FORM_NARROW_HOLD) fm->files = want, fm->narrow_for = 0.0f;
        } else {
            fm->narrow_for = 0.0f; /* still narrow: wide must be seen FORM_NARROW_HOLD on end */
        }
        /* A new shape: its slots by nearest again, so that each member
        ** goes the least way to the new layout, and no two cross. */
        float back;
        extent(fm, fm->files, &fm->tail_front, &back);
        if (fm->files != files_before || fm->tail != tail_before)
            assign_slots(sim, fm); /* out of memory: the slots it had */
    }
    const NavGrid *g = sim_grid(sim, NULL);
    float sum = 0.0f, paced = 0.0f, most = 0.0f;
    bool arrived = fm->status == NAV_FORMATION_ARRIVED;
    for (int k = 0; k < fm->n; k++) {
        NavBot *b = &sim->bots[fm->ids[k]];
        float side, ahead;
        slot_offset(fm, fm->files, fm->slot[k], &side, &ahead);
        sim->formations->lead[b->id] = ahead;
        float xy[2], mid[2];
        place_offset(fm, side, ahead, xy, NULL);
        place_offset(fm, 0.0f, ahead, mid, NULL);
        float x = xy[0], y = xy[1];
        int cx, cy;
        if (g && !(grid_cell_of(g, x, y, &cx, &cy) && grid_passable(g, b->cls, cx, cy))) {
            /* Off the ground (a tree beside the way): in toward the rank's
            ** middle, on the near side of what is in the way. */
            float d = hypotf(mid[0] - x, mid[1] - y);
            int steps = (int)ceilf(d / (0.25f * grid_cell_size(g)));
            for (int q = 1; q <= steps; q++) {
                float t = (float)q / (float)steps, px = x + (mid[0] - x) * t, py = y + (mid[1] - y) * t;
                if (grid_cell_of(g, px, py, &cx, &cy) && grid_passable(g, b->cls, cx, cy)) {
                    x = px, y = py;
                    break;
                }
            }
        }
        if (g && !(grid_cell_of(g, x, y, &cx, &cy) && grid_passable(g, b->cls, cx, cy))) {
            /* The slot is on no ground for it (trees beside the way, a wall
            ** at a bend): the nearest ground it can reach from the anchor. */
            int ax, ay, ox, oy;
            uint32_t comp = UINT32_MAX;
            if (grid_cell_of(g, fm->ax, fm->ay, &ax, &ay)) comp = grid_component(g, b->cls, ax, ay);
            if (comp == UINT32_MAX && grid_cell_of(g, b->pos[0], b->pos[1], &ax, &ay))
                comp = grid_component(g, b->cls, ax, ay);
            int tx = (int)floorf(x / grid_cell_size(g)), ty = (int)floorf(y / grid_cell_size(g));
            if (comp != UINT32_MAX && grid_nearest_in_component(g, b->cls, comp, tx, ty, &ox, &oy))
                grid_cell_center(g, ox, oy, &x, &y);
            else x = fm->ax, y = fm->ay;
        }
        fm->slot_xy[2 * k] = x;
        fm->slot_xy[2 * k + 1] = y;
        float ex = b->pos[0] - x, ey = b->pos[1] - y, e = sqrtf(ex * ex + ey * ey);
        sum += e;
        paced += fminf(e, FORM_STRAGGLER); /* one far behind catches up alone */
        if (e > most) most = e;
        const NavClass *c = world_class(sim->w, b->cls);
        float pace = fm->status == NAV_FORMATION_MOVING ? FORM_PACE * fm->speed / fmaxf(c->run_speed, 0.1f) : 0.5f;
        /* Off its slot, a member hurries (at a run from FORM_HURRY metres):
        ** at the formation's pace it would never catch up. */
        if (fm->status == NAV_FORMATION_MOVING) pace += (1.0f - pace) * fminf(1.0f, e / FORM_HURRY);
        sim_unit_follow(sim, b->id, x, y, pace);
        if (arrived) {
            b->control.look = true;
            b->control.look_at[0] = b->pos[0] + fm->fx * 10.0f;
            b->control.look_at[1] = b->pos[1] + fm->fy * 10.0f;
            b->control.look_at[2] = b->pos[2];
        }
    }
    fm->err_mean = sum / (float)fm->n;
    fm->err_pace = paced / (float)fm->n;
    fm->err_max = most;
    if (fm->status == NAV_FORMATION_MOVING && fm->path_next >= fm->path_count) {
        /* At the goal: the shape again, as wide as the ground there
        ** lets it be, and arrived once in it. */
        fm->settle += dt;
        bool facing = !fm->face_set || fm->fx * fm->gfx + fm->fy * fm->gfy > 0.999f; /* within 2.5 degrees */
        if ((fm->err_max <= FORM_ARRIVED && facing) || fm->settle >= FORM_SETTLE) fm->status = NAV_FORMATION_ARRIVED;
    }
}

void sim_formation_pass(NavSim *sim)
{
    SimFormations *fs = sim->formations;
    if (!fs) return;
    for (int i = 0; i < fs->count; i++) {
        SimFormation *fm = &fs->f[i];
        if (fm->live && fm->status != NAV_FORMATION_IDLE && fm->status != NAV_FORMATION_FAILED)
            drive_formation(sim, fm);
    }
}

/* }======= */

/* {======= reading ======= */

bool sim_formation_info(const NavSim *sim, int f, NavFormationInfo *out)
{
    memset(out, 0, sizeof *out);
    const SimFormation *fm = get(sim, f);
    if (!fm) return false;
    out->status = (NavFormationStatus)fm->status;
    out->shape = (NavFormationShape)fm->shape;
    out->members = fm->n;
    out->x = fm->ax;
    out->y = fm->ay;
    out->facing = atan2f(fm->fy, fm->fx) * (float)(180.0 / NAV_PI);
    out->files = fm->files;
    out->full_files = fm->full_files;
    out->spacing = fm->spacing;
    out->slot_error = fm->err_mean;
    out->slot_error_max = fm->err_max;
    out->path_left = fm->path_count - fm->path_next;
    return true;
}

int sim_formation_slots(const NavSim *sim, int f, uint32_t *ids, float *xy, int cap)
{
    const SimFormation *fm = get(sim, f);
    if (!fm) return 0;
    int n = fm->n < cap ? fm->n : cap;
    for (int k = 0; k < n; k++) {
        if (ids) ids[k] = fm->ids[k];
        if (xy) xy[2 * k] = fm->slot_xy[2 * k], xy[2 * k + 1] = fm->slot_xy[2 * k + 1];
    }
    return n;
}

/* }======= */

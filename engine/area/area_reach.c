/*
** area_reach.c — reachabilities: how a mover of the class gets from one
** area to another.
**
** Terrain links come from the cells along each area's border. For a cell
** and its neighbour across the border, with dh the rise in standing height
** (liquids stand at their surface) and s, b, c the class's step, barrier
** jump and climb heights:
**   ground to ground   |dh| <= s       walk (crouch into a crouch-only area)
**                      s < dh <= b     barrier jump
**                      b < dh <= c     climb
**                      -dh > s         walk off ledge, one way, while the
**                                      drop is at most the safe fall
**   ground to deep liquid (surface no more than a step up)    swim
**   deep liquid to ground  dh <= s: swim out; s < dh <= b: water jump
**   ladder top: from a ladder cell to the floor beyond its wall at the
**   ladder's top (within a step), both ways                   ladder
**   gap: from a ground cell across 1 or more cells with no floor within a
**   step, along the arc of a running jump (gap_candidates), to the ground
**   where the arc comes down, no lower than the safe fall    jump
** Of all border cells between two areas the cheapest link is kept, its
** points at the middle cell of that run, its edge spanning the run.
**
** Travel times in hundredths of a second (g the world's gravity, d the
** horizontal distance from start to end, v the class's speed for the move):
**   walk, crouch, swim      100 d / v
**   barrier jump            100 (2 sqrt(2 dh / g) + d / v)
**   climb                   100 (dh / 1 m/s + 0.5)
**   walk off ledge          100 (sqrt(2 |dh| / g) + d / v)
**   jump                    100 (d / v + 0.3)
**   ladder                  100 (|dh| / ladder speed + 0.5)
**   water jump              100 (2 sqrt(2 dh / g) + 0.3)
**   teleport                10
**   jump pad                100 (2 sqrt(2 apex / g))
**   elevator                100 (|dz| / lift speed + wait)
** and never less than 1.
*/
#include "area/area_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

NavStatus area_push_reach(NavAreaGraph *ag, const NavReach *r)
{
    if (ag->reach_count == ag->reach_cap) {
        uint32_t ncap = ag->reach_cap ? ag->reach_cap * 2 : 512;
        NavReach *n = realloc(ag->reaches, (size_t)ncap * sizeof *n);
        if (!n) return NAV_FAILURE | NAV_E_NOMEM;
        ag->reaches = n;
        ag->reach_cap = ncap;
    }
    ag->reaches[ag->reach_count++] = *r;
    return NAV_OK;
}

/* Stable counting sort by source area; sets first_reach/reach_count. */
void area_index_reaches(NavAreaGraph *ag)
{
    uint32_t n = ag->reach_count;
    for (uint32_t a = 0; a < ag->area_count; a++) ag->areas[a].reach_count = 0;
    for (uint32_t i = 0; i < n; i++) ag->areas[ag->reaches[i].from].reach_count++;
    uint32_t at = 0;
    for (uint32_t a = 0; a < ag->area_count; a++) {
        ag->areas[a].first_reach = at;
        at += ag->areas[a].reach_count;
    }
    NavReach *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) return; /* the reaches stay in creation order; first_reach is still a valid bound */
    uint32_t *fill = calloc(ag->area_count ? ag->area_count : 1, sizeof *fill);
    if (!fill) {
        free(sorted);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = ag->reaches[i].from;
        sorted[ag->areas[a].first_reach + fill[a]++] = ag->reaches[i];
    }
    if (n) memcpy(ag->reaches, sorted, (size_t)n * sizeof *sorted);
    free(sorted);
    free(fill);
}

static bool groundish(CellKind k)
{
    return k == KIND_GROUND || k == KIND_CROUCH || k == KIND_WADE || k == KIND_LADDER || k == KIND_LAVA ||
           k == KIND_SLIME;
}

static uint32_t at_least_one(double t)
{
    if (!(t >= 1.0)) return 1;
    if (t > 4e9) return 4000000000u;
    return (uint32_t)lround(t);
}

/* A candidate link across one border cell pair. */
typedef struct Candidate {
    uint32_t to;
    uint32_t type;
    uint32_t time;
    int x, y, nx, ny;        /* the pair; for jumps the landing cell */
    float ha, hb;
} Candidate;

typedef struct CandList {
    Candidate *c;
    uint32_t n, cap;
} CandList;

static bool cand_push(CandList *l, const Candidate *c)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? l->cap * 2 : 64;
        Candidate *nc = realloc(l->c, (size_t)ncap * sizeof *nc);
        if (!nc) return false;
        l->c = nc;
        l->cap = ncap;
    }
    l->c[l->n++] = *c;
    return true;
}

/* Area of the floor of (x, y) that belongs to area `a`, its kind and
** height; false if the column holds none of it. */
static bool floor_in_area(const NavAreaGraph *ag, int x, int y, uint32_t a, CellKind *kind, const NavFloor **fl)
{
    int n;
    uint32_t first;
    const NavFloor *f = area_column(ag, x, y, &n, &first);
    for (int i = 0; i < n; i++)
        if (ag->floor_area[first + (uint32_t)i] == a) {
            *kind = (CellKind)ag->floor_kind[first + (uint32_t)i];
            *fl = &f[i];
            return true;
        }
    return false;
}

static double horizontal(const NavAreaGraph *ag, int x, int y, int nx, int ny)
{
    return hypot((double)(nx - x), (double)(ny - y)) * (double)ag->cs;
}

/* The link type and time from floor fa (kind ka) of (x, y) to floor fb
** (kind kb) of the neighbour (nx, ny), or false for none. */
static bool transition(const NavAreaGraph *ag, CellKind ka, const NavFloor *fa, CellKind kb, const NavFloor *fb, int x,
                       int y, int nx, int ny, uint32_t *type, uint32_t *time)
{
    const NavClass *c = &ag->cls;
    double g = world_gravity(ag->world);
    float ha = world_standing_height(fa), hb = world_standing_height(fb);
    float dh = hb - ha;
    double d = horizontal(ag, x, y, nx, ny);
    if (groundish(ka) && groundish(kb)) {
        if (fabsf(dh) <= c->step + 1e-4f) {
            bool crouch = kb == KIND_CROUCH;
            *type = crouch ? NAV_TRAVEL_CROUCH : NAV_TRAVEL_WALK;
            *time = at_least_one(100.0 * d / (crouch && c->crouch_speed > 0 ? c->crouch_speed : c->run_speed));
            return true;
        }
        if (dh > 0) {
            /* Up: there must be room over the lower cell to rise to the
            ** higher floor. */
            if (fa->ceiling < hb + c->crouch_height) return false;
            if (dh <= c->barrier_jump) {
                *type = NAV_TRAVEL_BARRIER_JUMP;
                *time = at_least_one(100.0 * (2.0 * sqrt(2.0 * dh / g) + d / c->run_speed));
                return true;
            }
            if (c->climb > 0 && dh <= c->climb) {
                *type = NAV_TRAVEL_CLIMB;
                *time = at_least_one(100.0 * (dh / 1.0 + 0.5));
                return true;
            }
            return false;
        }
        /* Down, more than a step. */
        if (-dh > c->max_fall || fb->ceiling < ha + c->crouch_height) return false;
        *type = NAV_TRAVEL_WALK_OFF_LEDGE;
        *time = at_least_one(100.0 * (sqrt(2.0 * -dh / g) + d / c->run_speed));
        return true;
    }
    if (groundish(ka) && kb == KIND_SWIM) {
        if (dh > c->step || -dh > c->max_fall + 2.0f) return false;
        *type = NAV_TRAVEL_SWIM;
        *time = at_least_one(100.0 * d / c->swim_speed);
        return true;
    }
    if (ka == KIND_SWIM && (groundish(kb) || kb == KIND_SWIM)) {
        if (kb == KIND_SWIM || dh <= c->step) {
            *type = NAV_TRAVEL_SWIM;
            *time = at_least_one(100.0 * d / c->swim_speed);
            return true;
        }
        if (dh <= c->barrier_jump && fb->ceiling >= hb + c->crouch_height) {
            *type = NAV_TRAVEL_WATER_JUMP;
            *time = at_least_one(100.0 * (2.0 * sqrt(2.0 * dh / g) + 0.3));
            return true;
        }
    }
    return false;
}

static const int DX[4] = { 0, 1, 0, -1 }, DY[4] = { 1, 0, -1, 0 }; /* north, east, south, west: NavDir order */

/* Is there a floor in column (x, y) within a step of height h that a
** mover can cross on its way (not a void or no-walk, room to crouch)? */
static bool crossable(const NavAreaGraph *ag, int x, int y, float h)
{
    int n;
    uint32_t first;
    const NavFloor *f = area_column(ag, x, y, &n, &first);
    for (int i = 0; i < n; i++) {
        if (f[i].contents == NAV_CONTENTS_VOID || f[i].contents == NAV_CONTENTS_CLIP) continue;
        float fh = world_standing_height(&f[i]);
        if (fabsf(fh - h) <= ag->cls.step + 1e-4f && f[i].ceiling - fh >= ag->cls.crouch_height) return true;
    }
    return false;
}

/* Links from area a's border cell (x, y) toward direction k. The target
** is the next cell, or, for a change of height, a cell up to the class's
** radius further: cells at the foot or the top of a step are too close to
** it for the radius and belong to no area, so the link crosses them. A
** link on the level never skips cells (that would squeeze through gaps
** narrower than the mover). */
static bool border_candidates(const NavAreaGraph *ag, uint32_t a, int x, int y, int k, CandList *out)
{
    CellKind ka;
    const NavFloor *fa;
    if (!floor_in_area(ag, x, y, a, &ka, &fa)) return true;
    float ha = world_standing_height(fa);
    int reach = 1 + (int)ceilf(ag->cls.radius / ag->cs);
    for (int j = 1; j <= reach; j++) {
        int nx = x + DX[k] * j, ny = y + DY[k] * j;
        if (!area_cell_valid(ag, nx, ny)) return true;
        int n;
        uint32_t first;
        const NavFloor *f = area_column(ag, nx, ny, &n, &first);
        bool found = false;
        for (int i = 0; i < n; i++) {
            uint32_t b = ag->floor_area[first + (uint32_t)i];
            if (b == NAV_NO_AREA || b == a) continue;
            CellKind kb = (CellKind)ag->floor_kind[first + (uint32_t)i];
            Candidate c = { .to = b, .x = x, .y = y, .nx = nx, .ny = ny, .ha = ha, .hb = world_standing_height(&f[i]) };
            /* Ladder tops first: the floor beyond the ladder's wall. */
            if (ka == KIND_LADDER && (int)world_floor_face(fa) == k &&
                fabsf(c.hb - fa->top) <= ag->cls.step + 0.25f && ag->cls.ladder_speed > 0) {
                c.type = NAV_TRAVEL_LADDER;
                c.time = at_least_one(100.0 * (fabs(c.hb - ha) / ag->cls.ladder_speed + 0.5));
                if (!cand_push(out, &c)) return false;
                found = true;
                continue;
            }
            if (j > 1 && fabsf(c.hb - ha) <= ag->cls.step + 1e-4f) continue;
            if (transition(ag, ka, fa, kb, &f[i], x, y, nx, ny, &c.type, &c.time)) {
                if (!cand_push(out, &c)) return false;
                found = true;
            }
        }
        if (found) return true;
        /* Go on only over a cell that is part of the floor at either end. */
        if (!crossable(ag, nx, ny, ha)) {
            bool lower_or_higher = false;
            for (int i = 0; i < n; i++) {
                if (f[i].contents == NAV_CONTENTS_VOID || f[i].contents == NAV_CONTENTS_CLIP) continue;
                float fh = world_standing_height(&f[i]);
                if (fabsf(fh - ha) > ag->cls.step && f[i].ceiling - fh >= ag->cls.crouch_height) lower_or_higher = true;
            }
            if (!lower_or_higher) return true;
        }
    }
    return true;
}

/* Gap jumps from ground cell (x, y) of area a in direction k, by flying
** the arc. The mover leaves the cell's far edge at run speed v with the
** upward speed that carries it exactly jump_gap over level ground:
**   z(d) = ha + vz d / v - g d^2 / (2 v^2),   vz = g (jump_gap / v) / 2
** at horizontal distance d from the edge. Cell by cell along the way, with
** zlo and zhi the arc's lowest and highest over the cell: a floor within a
** step of the feet (hb in [zlo - step, zhi + step]) two or more cells out,
** in another ground area and no more than the safe fall down, is where it
** lands; a column not open from a step over zlo to a head over zhi stops
** it (a wall, a low ceiling); so does falling past the safe fall. The first
** cell must be a gap: no floor there within a step. */
static bool gap_candidates(const NavAreaGraph *ag, uint32_t a, int x, int y, int k, CandList *out)
{
    CellKind ka;
    const NavFloor *fa;
    if (!floor_in_area(ag, x, y, a, &ka, &fa) || !(ka == KIND_GROUND)) return true;
    const NavClass *c = &ag->cls;
    double g = world_gravity(ag->world), v = c->run_speed;
    if (!(v > 0.0) || !(c->jump_gap > 0.0f) || !(g > 0.0)) return true;
    double vz = 0.5 * g * (c->jump_gap / v);
    float ha = world_standing_height(fa);
    double apex_d = vz * v / g; /* where the arc tops out */
    int max_cells = (int)ceil(4.0 * c->jump_gap / ag->cs) + 2;
    for (int j = 1; j <= max_cells; j++) {
        int nx = x + DX[k] * j, ny = y + DY[k] * j;
        if (!area_cell_valid(ag, nx, ny)) return true;
        double d0 = (double)(j - 1) * ag->cs, d1 = (double)j * ag->cs;
        double z0 = ha + vz * d0 / v - 0.5 * g * (d0 / v) * (d0 / v);
        double z1 = ha + vz * d1 / v - 0.5 * g * (d1 / v) * (d1 / v);
        double zlo = fmin(z0, z1), zhi = fmax(z0, z1);
        if (apex_d > d0 && apex_d < d1) zhi = ha + 0.5 * vz * vz / g;
        if (zhi < ha - c->max_fall) return true; /* fell too far */
        int n;
        uint32_t first;
        const NavFloor *f = area_column(ag, nx, ny, &n, &first);
        bool open = false;
        for (int i = 0; i < n; i++) {
            if (f[i].contents == NAV_CONTENTS_VOID || f[i].contents == NAV_CONTENTS_CLIP) continue;
            float hb = world_standing_height(&f[i]);
            if (j == 1 && fabsf(hb - ha) <= c->step + 1e-4f) return true; /* no gap: walking ground */
            uint32_t b = ag->floor_area[first + (uint32_t)i];
            if (j >= 2 && b != NAV_NO_AREA && b != a && ag->floor_kind[first + (uint32_t)i] == KIND_GROUND &&
                hb >= zlo - c->step - 1e-4 && hb <= zhi + c->step + 1e-4 && ha - hb <= c->max_fall) {
                Candidate cd = { .to = b, .type = NAV_TRAVEL_JUMP, .x = x, .y = y, .nx = nx, .ny = ny, .ha = ha, .hb = hb };
                cd.time = at_least_one(100.0 * (horizontal(ag, x, y, nx, ny) / c->run_speed + 0.3));
                return cand_push(out, &cd);
            }
        }
        for (int i = 0; i < n && !open; i++)
            open = f[i].z <= zlo + c->step && f[i].ceiling >= zhi + c->height;
        if (!open) return true; /* a wall or a low ceiling in the way */
    }
    return true;
}

static int compare_candidates(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    if (a->time != b->time) return a->time < b->time ? -1 : 1;
    if (a->type != b->type) return a->type < b->type ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->ny != b->ny) return a->ny < b->ny ? -1 : 1;
    return a->nx < b->nx ? -1 : (a->nx > b->nx);
}

static void cell_point(const NavAreaGraph *ag, int x, int y, float h, float out[3])
{
    out[0] = ((float)x + 0.5f) * ag->cs;
    out[1] = ((float)y + 0.5f) * ag->cs;
    out[2] = h;
}

/* The shared edge of a border pair. */
static void pair_edge(const NavAreaGraph *ag, const Candidate *c, float e0[3], float e1[3])
{
    float cs = ag->cs;
    float z = fmaxf(c->ha, c->hb);
    if (c->nx != c->x && c->ny == c->y && abs(c->nx - c->x) == 1) {
        float ex = (float)(c->nx > c->x ? c->nx : c->x) * cs;
        e0[0] = e1[0] = ex;
        e0[1] = (float)c->y * cs;
        e1[1] = (float)(c->y + 1) * cs;
    } else if (c->ny != c->y && c->nx == c->x && abs(c->ny - c->y) == 1) {
        float ey = (float)(c->ny > c->y ? c->ny : c->y) * cs;
        e0[1] = e1[1] = ey;
        e0[0] = (float)c->x * cs;
        e1[0] = (float)(c->x + 1) * cs;
    } else { /* a jump: no shared edge */
        cell_point(ag, c->x, c->y, c->ha, e0);
        cell_point(ag, c->x, c->y, c->ha, e1);
    }
    e0[2] = e1[2] = z;
}

/* Keep the cheapest type to each neighbour, at the middle of its run. */
static NavStatus emit_links(NavAreaGraph *ag, uint32_t a, CandList *l)
{
    if (l->n > 1) qsort(l->c, l->n, sizeof *l->c, compare_candidates); /* none yet: l->c may be NULL */
    for (uint32_t i = 0; i < l->n;) {
        uint32_t j = i;
        while (j < l->n && l->c[j].to == l->c[i].to && l->c[j].time == l->c[i].time && l->c[j].type == l->c[i].type) j++;
        const Candidate *mid = &l->c[i + (j - i) / 2];
        NavReach r;
        memset(&r, 0, sizeof r);
        r.from = a;
        r.to = mid->to;
        r.type = mid->type;
        r.time = mid->time;
        r.entity = -1;
        r.travel_flags = NAV_TFL_TYPE(mid->type) | ag->areas[mid->to].travel_flags;
        cell_point(ag, mid->x, mid->y, mid->ha, r.start);
        cell_point(ag, mid->nx, mid->ny, mid->hb, r.end);
        float e0[3], e1[3], f0[3], f1[3];
        pair_edge(ag, &l->c[i], e0, e1);
        pair_edge(ag, &l->c[j - 1], f0, f1);
        memcpy(r.edge[0], e0, sizeof e0);
        memcpy(r.edge[1], f1, sizeof f1);
        if (NAV_FAILED(area_push_reach(ag, &r))) return NAV_FAILURE | NAV_E_NOMEM;
        /* skip the other (dearer) candidates to the same area */
        uint32_t to = l->c[i].to;
        while (j < l->n && l->c[j].to == to) j++;
        i = j;
    }
    return NAV_OK;
}

NavStatus area_build_reaches(NavAreaGraph *ag, NavError *err)
{
    CandList list = { 0 };
    for (uint32_t a = 0; a < ag->area_count; a++) {
        const NavArea *ar = &ag->areas[a];
        list.n = 0;
        bool ok = true;
        for (int y = ar->y0; y <= ar->y1 && ok; y++) {
            for (int x = ar->x0; x <= ar->x1 && ok; x++) {
                for (int k = 0; k < 4 && ok; k++) {
                    int nx = x + DX[k], ny = y + DY[k];
                    bool border = nx < ar->x0 || nx > ar->x1 || ny < ar->y0 || ny > ar->y1;
                    if (!border) continue;
                    ok = border_candidates(ag, a, x, y, k, &list) && gap_candidates(ag, a, x, y, k, &list);
                }
            }
        }
        if (!ok || NAV_FAILED(emit_links(ag, a, &list))) {
            free(list.c);
            return nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for links");
        }
    }
    free(list.c);

    /* Ladders down: each ladder-up link gets its reverse. */
    uint32_t n = ag->reach_count;
    for (uint32_t i = 0; i < n; i++) {
        NavReach r = ag->reaches[i];
        if (r.type != NAV_TRAVEL_LADDER) continue;
        NavReach back = r;
        back.from = r.to;
        back.to = r.from;
        memcpy(back.start, r.end, sizeof back.start);
        memcpy(back.end, r.start, sizeof back.end);
        back.travel_flags = NAV_TFL_TYPE(NAV_TRAVEL_LADDER) | ag->areas[back.to].travel_flags;
        if (NAV_FAILED(area_push_reach(ag, &back)))
            return nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for links");
    }
    ag->static_reaches = ag->reach_count;
    area_index_reaches(ag);
    return NAV_OK;
}

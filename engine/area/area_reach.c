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

#include "core/alloc.h"

NavStatus area_push_reach(NavAreaGraph *ag, const NavReach *r)
{
    if (ag->reach_count >= NAV_LIMIT_LINKS) return NAV_FAILURE | NAV_E_BUDGET; /* links_error says so */
    if (ag->reach_count == ag->reach_cap) {
        uint32_t ncap = ag->reach_cap ? ag->reach_cap * 2 : 512;
        NavReach *n = nav_realloc(ag->reaches, (size_t)ncap * sizeof *n);
        if (!n) return NAV_FAILURE | NAV_E_NOMEM;
        ag->reaches = n;
        ag->reach_cap = ncap;
    }
    ag->reaches[ag->reach_count++] = *r;
    return NAV_OK;
}

/* Why links could not be added: the limit, or memory. */
static NavStatus links_error(const NavAreaGraph *ag, NavError *err)
{
    if (ag->reach_count >= NAV_LIMIT_LINKS)
        return nav_error_set(err, NAV_E_FORMAT, world_source(ag->world), 0, 0, "links",
                             "class %s: more than the limit of %u links in one area graph", ag->cls.name,
                             NAV_LIMIT_LINKS);
    return nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for links (class %s)",
                         ag->cls.name);
}

/* Stable counting sort by source area; sets first_reach/reach_count.
** Reaches already in order (the static ones left when entity links are
** removed) need no memory, so that removal cannot fail. */
NavStatus area_index_reaches(NavAreaGraph *ag)
{
    uint32_t n = ag->reach_count;
    bool in_order = true;
    for (uint32_t i = 1; i < n && in_order; i++) in_order = ag->reaches[i - 1].from <= ag->reaches[i].from;
    NavReach *sorted = NULL;
    uint32_t *fill = NULL;
    if (!in_order) {
        sorted = nav_malloc((n ? n : 1) * sizeof *sorted);
        fill = nav_calloc(ag->area_count ? ag->area_count : 1, sizeof *fill);
        if (!sorted || !fill) {
            nav_free(sorted);
            nav_free(fill);
            return NAV_FAILURE | NAV_E_NOMEM;
        }
    }
    for (uint32_t a = 0; a < ag->area_count; a++) ag->areas[a].reach_count = 0;
    for (uint32_t i = 0; i < n; i++) ag->areas[ag->reaches[i].from].reach_count++;
    uint32_t at = 0;
    for (uint32_t a = 0; a < ag->area_count; a++) {
        ag->areas[a].first_reach = at;
        at += ag->areas[a].reach_count;
    }
    if (in_order) return NAV_OK;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = ag->reaches[i].from;
        sorted[ag->areas[a].first_reach + fill[a]++] = ag->reaches[i];
    }
    if (n) memcpy(ag->reaches, sorted, (size_t)n * sizeof *sorted);
    nav_free(sorted);
    nav_free(fill);
    return NAV_OK;
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
    int x, y, nx, ny; /* the pair; for jumps the landing cell */
    float ha, hb;
    int k;                  /* direction, NavDir; -1 for a jump */
    float start[3], end[3]; /* where the body crosses (crossing_fit) */
    float lo, hi;           /* the opening across the direction, metres */
    float line;             /* where the opening lies along the direction */
    float width;            /* hi - lo */
    bool beside_areas;      /* the narrowest row crossed has cells of areas across it */
} Candidate;

typedef struct CandList {
    Candidate *c;
    uint32_t n, cap;
} CandList;

static bool cand_push(CandList *l, const Candidate *c)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? l->cap * 2 : 64;
        Candidate *nc = nav_realloc(l->c, (size_t)ncap * sizeof *nc);
        if (!nc) return false;
        l->c = nc;
        l->cap = ncap;
    }
    l->c[l->n++] = *c;
    return true;
}

static void cell_point(const NavAreaGraph *ag, int x, int y, float h, float out[3])
{
    out[0] = ((float)x + 0.5f) * ag->cs;
    out[1] = ((float)y + 0.5f) * ag->cs;
    out[2] = h;
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

/* Is cell (x, y) inside an elevator's shaft? */
static bool in_lift_shaft(const NavAreaGraph *ag, int x, int y)
{
    const NavWorld *w = ag->world;
    float cx, cy;
    world_cell_center(w, x, y, &cx, &cy);
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        if (e->type == NAV_ENTITY_ELEVATOR && cx > e->mins[0] && cx < e->maxs[0] && cy > e->mins[1] && cy < e->maxs[1])
            return true;
    }
    return false;
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
        /* Down, more than a step; never into a lift's shaft, where the
        ** platform may be anywhere (riding down is its elevator link). */
        if (-dh > c->max_fall || fb->ceiling < ha + c->crouch_height) return false;
        if (in_lift_shaft(ag, nx, ny)) return false;
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

/* {======= does the body fit the crossing? ======= */

/* Crossings are worked out in a frame: "along" is the axis of the
** direction (y for north and south, x for east and west), "across" the
** other one. A row is a line of cells across the direction. */
static void frame_cell(int k, int across, int along, int *cx, int *cy)
{
    if (k == NAV_DIR_NORTH || k == NAV_DIR_SOUTH) {
        *cx = across;
        *cy = along;
    } else {
        *cx = along;
        *cy = across;
    }
}

static bool frame_open(const NavAreaGraph *ag, int k, int across, int along, float lo, float hi)
{
    int cx, cy;
    frame_cell(k, across, along, &cx, &cy);
    return area_cell_valid(ag, cx, cy) && area_column_open(ag, cx, cy, lo, hi);
}

/* How tall the body is in a cell of this kind. */
static float body_height(const NavAreaGraph *ag, CellKind kind)
{
    if (kind == KIND_CROUCH) return ag->cls.crouch_height;
    if (kind == KIND_SWIM) return 0.5f * ag->cls.height;
    return ag->cls.height;
}

/* The point whose box of half side r keeps to the near side of `wall`
** (sign > 0: below it, sign < 0: above it), exactly in double, as a float. */
static float off_wall(float wall, float r, int sign)
{
    float p = wall - (float)sign * r;
    for (int g = 0; g < 4 && (sign > 0 ? (double)p + r > (double)wall : (double)p - r < (double)wall); g++)
        p = nextafterf(p, sign > 0 ? -INFINITY : INFINITY);
    return p;
}

/* Where along the direction the body stands in cell `along` of a floor
** of kind `kind`: the cell's middle, except on a ladder whose wall lies
** on this axis, where the body keeps its radius off the wall. */
static float standing_along(const NavAreaGraph *ag, int k, int along, CellKind kind, const NavFloor *f)
{
    float cs = ag->cs, mid = ((float)along + 0.5f) * cs;
    if (kind != KIND_LADDER) return mid;
    int face = (int)world_floor_face(f);
    bool same_axis = (face == NAV_DIR_NORTH || face == NAV_DIR_SOUTH) == (k == NAV_DIR_NORTH || k == NAV_DIR_SOUTH);
    if (!same_axis) return mid;
    int sf = DX[face] + DY[face];
    float wall = mid + 0.5f * cs * (float)sf;
    return sf > 0 ? fminf(mid, off_wall(wall, ag->cls.radius, 1)) : fmaxf(mid, off_wall(wall, ag->cls.radius, -1));
}

/* The floor the body walks on in a crossed column: the highest one no
** more than a step over the higher end. */
static float crossed_height(const NavAreaGraph *ag, int k, int across, int along, float h0, float h1)
{
    int cx, cy;
    frame_cell(k, across, along, &cx, &cy);
    float best = fminf(h0, h1), limit = fmaxf(h0, h1) + ag->cls.step + 1e-4f;
    if (!area_cell_valid(ag, cx, cy)) return best;
    int n;
    uint32_t first;
    const NavFloor *f = area_column(ag, cx, cy, &n, &first);
    bool found = false;
    for (int i = 0; i < n; i++) {
        if (f[i].contents == NAV_CONTENTS_VOID) continue;
        float fh = world_standing_height(&f[i]);
        if (fh <= limit && (!found || fh > best)) {
            best = fh;
            found = true;
        }
    }
    return best;
}

typedef struct Crossing {
    int k;                        /* direction */
    int across, along0, j;        /* the start cell in the frame; cells to the end cell */
    float p0, p1;                 /* along coordinates of the start and end points */
    float h0, h1;                 /* standing heights at the ends */
    float body0, body1, body_mid; /* body height at the start, the end and in between */
} Crossing;

/* Does the class's body, a box of half side the radius (the one the
** simulation moves), fit along the straight line from the start to the end
** of crossing x at some position across the direction, within the start
** cell? Exactly, on the cells: every row of cells the box sweeps over must
** be open, over the column span the box occupies there (from a step over
** the row's floor, steps being walked, to the body's top over the higher
** end), across the whole box. Each such row leaves the box an open run of
** columns around the start's column; the box fits between the walls where
** all the runs overlap. Writes where it crosses (the point across nearest
** the cell's middle) and the opening (the overlap of the runs, looked at
** up to twice the body's width either side) even when the body does not
** fit; out->width is 0 when the start's own column is closed somewhere. */
static bool crossing_fit(const NavAreaGraph *ag, const Crossing *x, Candidate *out)
{
    const float cs = ag->cs, r = ag->cls.radius;
    int s = DX[x->k] + DY[x->k];
    int along1 = x->along0 + s * x->j;
    float amin = fminf(x->p0, x->p1) - r, amax = fmaxf(x->p0, x->p1) + r;
    int i0 = (int)floorf(amin / cs), i1 = (int)floorf(amax / cs);
    if ((float)(i0 + 1) * cs <= amin) i0++;
    if ((float)i1 * cs >= amax) i1--;
    int cap = (int)ceilf(4.0f * r / cs) + 2;
    float top = fmaxf(x->h0, x->h1), step = ag->cls.step;
    bool level = fabsf(x->h1 - x->h0) <= step + 1e-4f;
    float L = -INFINITY, R = INFINITY, narrowest = INFINITY;
    int narrow_row = INT32_MIN, narrow_w = 0, narrow_e = -1;
    float narrow_h = 0.0f;
    bool open = true;
    for (int i = i0; i <= i1 && open; i++) {
        int t = s * (i - x->along0); /* 0 in the start row, j in the end row */
        /* Which parts of the move the row is under: the box at the start
        ** (rising there on the way up), at the end (dropping there on the
        ** way down), or passing over a crossed cell. Its span is the
        ** lowest any of them needs, up to the higher end's body top. */
        bool near0 = (float)i * cs < x->p0 + r && (float)(i + 1) * cs > x->p0 - r;
        bool near1 = (float)i * cs < x->p1 + r && (float)(i + 1) * cs > x->p1 - r;
        float h = INFINITY, body = INFINITY;
        if (near0) h = fminf(h, x->h0), body = fminf(body, x->body0);
        if (near1) h = fminf(h, x->h1), body = fminf(body, x->body1);
        if ((!near0 && !near1) || (t > 0 && t < x->j)) {
            float hc = t <= 0 ? x->h0 : t >= x->j ? x->h1 : crossed_height(ag, x->k, x->across, i, x->h0, x->h1);
            h = fminf(h, hc);
            body = fminf(body, x->body_mid);
        }
        /* A level move steps up first and walks at the higher floor. */
        if (level) h = top;
        float lo = h + step, hi = fmaxf(top + body, lo);
        if (!frame_open(ag, x->k, x->across, i, lo, hi)) {
            open = false;
            break;
        }
        int w = x->across, e = x->across;
        while (x->across - w < cap && frame_open(ag, x->k, w - 1, i, lo, hi)) w--;
        while (e - x->across < cap && frame_open(ag, x->k, e + 1, i, lo, hi)) e++;
        float rl = (float)w * cs, rr = (float)(e + 1) * cs;
        L = fmaxf(L, rl);
        R = fminf(R, rr);
        if (t > 0 && t < x->j && rr - rl < narrowest) {
            narrowest = rr - rl;
            narrow_row = i;
            narrow_w = w;
            narrow_e = e;
            narrow_h = h;
        }
    }
    /* Is the narrowest row walked through areas somewhere across? Then the
    ** areas already lead past whatever narrows it. */
    out->beside_areas = false;
    for (int l = narrow_w; l <= narrow_e && !out->beside_areas; l++) {
        int cx, cy;
        frame_cell(x->k, l, narrow_row, &cx, &cy);
        int n;
        uint32_t first;
        const NavFloor *f = area_column(ag, cx, cy, &n, &first);
        for (int fi = 0; fi < n; fi++)
            if (ag->floor_area[first + (uint32_t)fi] != NAV_NO_AREA &&
                fabsf(world_standing_height(&f[fi]) - narrow_h) <= ag->cls.step + 1e-4f)
                out->beside_areas = true;
    }
    float mid = ((float)x->across + 0.5f) * cs;
    if (!open) L = R = mid;
    out->lo = L;
    out->hi = R;
    out->width = R - L;
    out->line =
        narrow_row != INT32_MIN ? ((float)narrow_row + 0.5f) * cs : (float)(s > 0 ? x->along0 + 1 : x->along0) * cs;
    /* Within the start cell; a point on its upper side belongs to the next. */
    float ulo = fmaxf(L + r, (float)x->across * cs), uhi = fminf(R - r, (float)(x->across + 1) * cs - 1e-3f * cs);
    float u = mid < ulo ? ulo : (mid > uhi ? uhi : mid);
    /* Rounding must not put the box a hair into a side it only touches. */
    for (int g = 0; g < 4 && (double)u - r < (double)L; g++) u = nextafterf(u, INFINITY);
    for (int g = 0; g < 4 && (double)u + r > (double)R; g++) u = nextafterf(u, -INFINITY);
    bool fits_across = (double)u - r >= (double)L && (double)u + r <= (double)R;
    bool across_ns = x->k == NAV_DIR_NORTH || x->k == NAV_DIR_SOUTH;
    out->start[0] = across_ns ? u : x->p0;
    out->start[1] = across_ns ? x->p0 : u;
    out->start[2] = x->h0;
    out->end[0] = across_ns ? u : x->p1;
    out->end[1] = across_ns ? x->p1 : u;
    out->end[2] = x->h1;
    (void)along1;
    return open && ulo <= uhi && fits_across;
}

/* }======= */

/* A terrain link's time (the header's formulas) between the points the
** body crosses at, which crossing_fit may have moved off the cells'
** middles. */
static uint32_t link_time(const NavAreaGraph *ag, uint32_t type, const float p[3], const float q[3])
{
    const NavClass *c = &ag->cls;
    double g = world_gravity(ag->world);
    double d = hypot((double)q[0] - p[0], (double)q[1] - p[1]);
    double dh = (double)q[2] - p[2];
    switch ((NavTravelType)type) {
    case NAV_TRAVEL_WALK: return at_least_one(100.0 * d / c->run_speed);
    case NAV_TRAVEL_CROUCH: return at_least_one(100.0 * d / (c->crouch_speed > 0 ? c->crouch_speed : c->run_speed));
    case NAV_TRAVEL_SWIM: return at_least_one(100.0 * d / c->swim_speed);
    case NAV_TRAVEL_BARRIER_JUMP: return at_least_one(100.0 * (2.0 * sqrt(2.0 * dh / g) + d / c->run_speed));
    case NAV_TRAVEL_CLIMB: return at_least_one(100.0 * (dh / 1.0 + 0.5));
    case NAV_TRAVEL_WALK_OFF_LEDGE: return at_least_one(100.0 * (sqrt(2.0 * fabs(dh) / g) + d / c->run_speed));
    case NAV_TRAVEL_LADDER: return at_least_one(100.0 * (fabs(dh) / c->ladder_speed + 0.5));
    case NAV_TRAVEL_WATER_JUMP: return at_least_one(100.0 * (2.0 * sqrt(2.0 * dh / g) + 0.3));
    default: return at_least_one(100.0 * (d / c->run_speed + 0.3)); /* jump */
    }
}

/* Record a link candidate, or a crossing the body does not fit in `fail`. */
static bool keep(const NavAreaGraph *ag, CandList *out, CandList *fail, Candidate *c, bool fits)
{
    c->time = link_time(ag, c->type, c->start, c->end);
    return fits ? cand_push(out, c) : cand_push(fail, c);
}

/* The crossing from floor fa (kind ka) of (x, y) to floor fb (kind kb)
** of the cell j cells away in direction k. */
static void make_crossing(const NavAreaGraph *ag, int k, int x, int y, int j, CellKind ka, const NavFloor *fa,
                          CellKind kb, const NavFloor *fb, Crossing *c)
{
    bool ns = k == NAV_DIR_NORTH || k == NAV_DIR_SOUTH;
    c->k = k;
    c->across = ns ? x : y;
    c->along0 = ns ? y : x;
    c->j = j;
    int along1 = c->along0 + (DX[k] + DY[k]) * j;
    c->p0 = standing_along(ag, k, c->along0, ka, fa);
    c->p1 = standing_along(ag, k, along1, kb, fb);
    c->h0 = world_standing_height(fa);
    c->h1 = world_standing_height(fb);
    c->body0 = body_height(ag, ka);
    c->body1 = body_height(ag, kb);
    /* In between, a body that can crouch passes crouched. */
    c->body_mid = fminf(c->body0, c->body1);
    /* Going up, the body rises at the start with its box short of the
    ** higher floor's face; going down, it drops at the end with its box
    ** past the upper floor's edge. Both points stay in their cells. */
    float cs = ag->cs, r = ag->cls.radius, step = ag->cls.step;
    int s = DX[k] + DY[k];
    if (c->h1 > c->h0 + step + 1e-4f) {
        int t = 1;
        while (t < j && crossed_height(ag, k, c->across, c->along0 + s * t, c->h0, c->h1) <= c->h0 + step + 1e-4f) t++;
        float face = (float)(s > 0 ? c->along0 + s * t : c->along0 + s * t + 1) * cs;
        float want = off_wall(face, r, s), lim = (float)(s > 0 ? c->along0 : c->along0 + 1) * cs;
        if ((float)s * (want - c->p0) < 0.0f)
            c->p0 = s > 0 ? fmaxf(want, lim + 1e-3f * cs) : fminf(want, lim - 1e-3f * cs);
    } else if (c->h1 < c->h0 - step - 1e-4f) {
        int t = 0;
        while (t + 1 < j &&
               crossed_height(ag, k, c->across, c->along0 + s * (t + 1), c->h0, c->h1) >= c->h0 - step - 1e-4f)
            t++;
        float edge = (float)(s > 0 ? c->along0 + s * t + 1 : c->along0 + s * t) * cs;
        float want = off_wall(edge, r, -s), lim = (float)(s > 0 ? along1 + 1 : along1) * cs;
        if ((float)s * (want - c->p1) > 0.0f)
            c->p1 = s > 0 ? fminf(want, lim - 1e-3f * cs) : fmaxf(want, lim + 1e-3f * cs);
    }
}

/* Links from area a's border cell (x, y) toward direction k. The target
** is the next cell, or, for a change of height, a cell up to the class's
** radius further: cells at the foot or the top of a step are too close to
** it for the radius and belong to no area, so the link crosses them. Level
** crossings over such cells are squeeze_candidates' work. Every candidate
** is checked to fit the body (crossing_fit); those that do not go to
** `fail`. */
static bool border_candidates(const NavAreaGraph *ag, uint32_t a, int x, int y, int k, CandList *out, CandList *fail)
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
            Candidate c = {
                .to = b, .x = x, .y = y, .nx = nx, .ny = ny, .ha = ha, .hb = world_standing_height(&f[i]), .k = k
            };
            Crossing cr;
            /* Ladder tops first: the floor beyond the ladder's wall. The
            ** climber rises against the wall, through whatever hatch is
            ** above, then steps over onto the floor. */
            if (ka == KIND_LADDER && (int)world_floor_face(fa) == k && fabsf(c.hb - fa->top) <= ag->cls.step + 0.25f &&
                ag->cls.ladder_speed > 0) {
                c.type = NAV_TRAVEL_LADDER;
                c.time = at_least_one(100.0 * (fabs(c.hb - ha) / ag->cls.ladder_speed + 0.5));
                make_crossing(ag, k, x, y, j, ka, fa, kb, &f[i], &cr);
                cr.body0 = cr.body_mid = ag->cls.height;
                if (!keep(ag, out, fail, &c, crossing_fit(ag, &cr, &c))) return false;
                found = true;
                continue;
            }
            if (j > 1 && fabsf(c.hb - ha) <= ag->cls.step + 1e-4f) continue;
            if (transition(ag, ka, fa, kb, &f[i], x, y, nx, ny, &c.type, &c.time)) {
                make_crossing(ag, k, x, y, j, ka, fa, kb, &f[i], &cr);
                if (!keep(ag, out, fail, &c, crossing_fit(ag, &cr, &c))) return false;
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

/* Level crossings through an opening whose cells are all too close to its
** sides for an area (a 1 m doorway for a 0.8 m body on 0.5 m cells: no
** cell's middle is 0.4 m from both jambs, yet the body passes along the
** line between the two cells). From ground cell (x, y) of area a in
** direction k: over dry floor cells in no area, each within a step of the
** start, with room for the body (crouched, if it can crouch), up to the
** largest area side, to the first cell of another ground, crouch or
** wading area within a step. The body must fit along a straight line
** through the opening (crossing_fit); a crawl space makes it a crouch
** link. */
static bool squeeze_candidates(const NavAreaGraph *ag, uint32_t a, int x, int y, int k, CandList *out, CandList *fail)
{
    CellKind ka;
    const NavFloor *fa;
    if (!floor_in_area(ag, x, y, a, &ka, &fa)) return true;
    if (ka != KIND_GROUND && ka != KIND_CROUCH && ka != KIND_WADE) return true;
    const NavClass *cl = &ag->cls;
    float ha = world_standing_height(fa);
    float need = class_can_crouch(cl) ? cl->crouch_height : cl->height;
    float head = INFINITY;
    for (int j = 1; j <= ag->desc.max_area_side; j++) {
        int nx = x + DX[k] * j, ny = y + DY[k] * j;
        if (!area_cell_valid(ag, nx, ny)) return true;
        int n;
        uint32_t first;
        const NavFloor *f = area_column(ag, nx, ny, &n, &first);
        int at = -1;
        for (int i = 0; i < n && at < 0; i++)
            if (f[i].contents != NAV_CONTENTS_VOID && fabsf(world_standing_height(&f[i]) - ha) <= cl->step + 1e-4f)
                at = i;
        if (at < 0) return true;
        uint32_t b = ag->floor_area[first + (uint32_t)at];
        if (b == NAV_NO_AREA) {
            if (f[at].contents != NAV_CONTENTS_FLOOR) return true;
            head = fminf(head, f[at].ceiling - f[at].z);
            if (head < need) return true;
            continue;
        }
        if (j == 1 || b == a) return true; /* a plain border: border_candidates */
        CellKind kb = (CellKind)ag->floor_kind[first + (uint32_t)at];
        if (kb != KIND_GROUND && kb != KIND_CROUCH && kb != KIND_WADE) return true;
        Crossing cr;
        make_crossing(ag, k, x, y, j, ka, fa, kb, &f[at], &cr);
        bool crouch = kb == KIND_CROUCH || head < cl->height;
        if (crouch) cr.body_mid = cl->crouch_height;
        Candidate c = { .to = b, .x = x, .y = y, .nx = nx, .ny = ny, .ha = ha, .hb = cr.h1, .k = k };
        c.type = crouch ? NAV_TRAVEL_CROUCH : NAV_TRAVEL_WALK;
        bool fits = crossing_fit(ag, &cr, &c);
        if (c.beside_areas) return true; /* not an opening: a way beside something, through areas */
        return keep(ag, out, fail, &c, fits);
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
                Candidate cd = {
                    .to = b, .type = NAV_TRAVEL_JUMP, .x = x, .y = y, .nx = nx, .ny = ny, .ha = ha, .hb = hb, .k = -1
                };
                cell_point(ag, x, y, ha, cd.start);
                cell_point(ag, nx, ny, hb, cd.end);
                cd.time = at_least_one(100.0 * (horizontal(ag, x, y, nx, ny) / c->run_speed + 0.3));
                return cand_push(out, &cd);
            }
        }
        for (int i = 0; i < n && !open; i++) open = f[i].z <= zlo + c->step && f[i].ceiling >= zhi + c->height;
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


/* The opening a candidate crosses, as an edge across its direction at
** its line; a jump has none (both ends at its start). */
static void cand_edge(const Candidate *c, float lo, float hi, float e0[3], float e1[3])
{
    float z = fmaxf(c->ha, c->hb);
    if (c->k < 0) {
        memcpy(e0, c->start, 3 * sizeof *e0);
        memcpy(e1, c->start, 3 * sizeof *e1);
        return;
    }
    bool ns = c->k == NAV_DIR_NORTH || c->k == NAV_DIR_SOUTH;
    e0[0] = ns ? lo : c->line;
    e0[1] = ns ? c->line : lo;
    e1[0] = ns ? hi : c->line;
    e1[1] = ns ? c->line : hi;
    e0[2] = e1[2] = z;
}

/* Keep the cheapest type to each neighbour, at the middle of its run; its
** edge spans the openings of the run's crossings on the same line. */
static NavStatus emit_links(NavAreaGraph *ag, uint32_t a, CandList *l)
{
    if (l->n > 1) qsort(l->c, l->n, sizeof *l->c, compare_candidates); /* none yet: l->c may be NULL */
    for (uint32_t i = 0; i < l->n;) {
        uint32_t j = i;
        while (j < l->n && l->c[j].to == l->c[i].to && l->c[j].time == l->c[i].time && l->c[j].type == l->c[i].type)
            j++;
        const Candidate *mid = &l->c[i + (j - i) / 2];
        NavReach r;
        memset(&r, 0, sizeof r);
        r.from = a;
        r.to = mid->to;
        r.type = mid->type;
        r.time = mid->time;
        r.entity = -1;
        r.travel_flags = NAV_TFL_TYPE(mid->type) | ag->areas[mid->to].travel_flags;
        memcpy(r.start, mid->start, sizeof r.start);
        memcpy(r.end, mid->end, sizeof r.end);
        float lo = mid->lo, hi = mid->hi;
        for (uint32_t m = i; m < j; m++) {
            const Candidate *c = &l->c[m];
            if (c->k != mid->k || c->line != mid->line) continue;
            lo = fminf(lo, c->lo);
            hi = fmaxf(hi, c->hi);
        }
        cand_edge(mid, lo, hi, r.edge[0], r.edge[1]);
        if (NAV_FAILED(area_push_reach(ag, &r))) return NAV_FAILURE | NAV_E_NOMEM;
        /* skip the other (dearer) candidates to the same area */
        uint32_t to = l->c[i].to;
        while (j < l->n && l->c[j].to == to) j++;
        i = j;
    }
    return NAV_OK;
}

static NavStatus push_narrow(NavAreaGraph *ag, const NavNarrow *nw)
{
    if (ag->narrow_count == ag->narrow_cap) {
        uint32_t ncap = ag->narrow_cap ? ag->narrow_cap * 2 : 64;
        NavNarrow *n = nav_realloc(ag->narrow, (size_t)ncap * sizeof *n);
        if (!n) return NAV_FAILURE | NAV_E_NOMEM;
        ag->narrow = n;
        ag->narrow_cap = ncap;
    }
    ag->narrow[ag->narrow_count++] = *nw;
    return NAV_OK;
}

/* Crossings of area a the body did not fit, toward areas a has no link
** to, through a real opening (0 < width < the body's width): the widest
** of them per area. Links of area a are reaches[first ..]. */
static NavStatus note_narrow(NavAreaGraph *ag, uint32_t a, uint32_t first, CandList *fail)
{
    if (fail->n > 1) qsort(fail->c, fail->n, sizeof *fail->c, compare_candidates);
    float body = 2.0f * ag->cls.radius;
    for (uint32_t i = 0; i < fail->n;) {
        uint32_t to = fail->c[i].to, j = i;
        const Candidate *best = NULL;
        for (; j < fail->n && fail->c[j].to == to; j++) {
            const Candidate *c = &fail->c[j];
            if (c->k >= 0 && c->width > 0.0f && c->width < body - 1e-4f && (!best || c->width > best->width)) best = c;
        }
        i = j;
        if (!best) continue;
        bool linked = false;
        for (uint32_t r = first; r < ag->reach_count && !linked; r++) linked = ag->reaches[r].to == to;
        if (linked) continue;
        NavNarrow nw = { .from = a < to ? a : to, .to = a < to ? to : a, .type = best->type, .width = best->width };
        float e0[3], e1[3];
        cand_edge(best, best->lo, best->hi, e0, e1);
        for (int k = 0; k < 3; k++) nw.point[k] = 0.5f * (e0[k] + e1[k]);
        if (NAV_FAILED(push_narrow(ag, &nw))) return NAV_FAILURE | NAV_E_NOMEM;
    }
    return NAV_OK;
}

static int compare_narrow(const void *pa, const void *pb)
{
    const NavNarrow *a = pa, *b = pb;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    if (a->width != b->width) return a->width > b->width ? -1 : 1; /* widest first */
    if (a->point[1] != b->point[1]) return a->point[1] < b->point[1] ? -1 : 1;
    return a->point[0] < b->point[0] ? -1 : (a->point[0] > b->point[0]);
}

static bool has_link(const NavAreaGraph *ag, uint32_t a, uint32_t b)
{
    const NavArea *ar = &ag->areas[a];
    for (uint32_t i = ar->first_reach; i < ar->first_reach + ar->reach_count; i++)
        if (ag->reaches[i].to == b) return true;
    return false;
}

/* One opening per pair of areas (both sides find it), the widest, and
** none where either side has a link to the other. After indexing. */
static void dedupe_narrow(NavAreaGraph *ag)
{
    if (ag->narrow_count > 1) qsort(ag->narrow, ag->narrow_count, sizeof *ag->narrow, compare_narrow);
    uint32_t out = 0;
    for (uint32_t i = 0; i < ag->narrow_count; i++) {
        const NavNarrow *nw = &ag->narrow[i];
        if (out > 0 && ag->narrow[out - 1].from == nw->from && ag->narrow[out - 1].to == nw->to) continue;
        if (has_link(ag, nw->from, nw->to) || has_link(ag, nw->to, nw->from)) continue;
        ag->narrow[out++] = *nw;
    }
    ag->narrow_count = out;
}

NavStatus area_build_reaches(NavAreaGraph *ag, NavError *err)
{
    CandList list = { 0 }, fail = { 0 };
    ag->narrow_count = 0;
    for (uint32_t a = 0; a < ag->area_count; a++) {
        const NavArea *ar = &ag->areas[a];
        list.n = fail.n = 0;
        bool ok = true;
        for (int y = ar->y0; y <= ar->y1 && ok; y++) {
            for (int x = ar->x0; x <= ar->x1 && ok; x++) {
                for (int k = 0; k < 4 && ok; k++) {
                    int nx = x + DX[k], ny = y + DY[k];
                    bool border = nx < ar->x0 || nx > ar->x1 || ny < ar->y0 || ny > ar->y1;
                    if (!border) continue;
                    ok = border_candidates(ag, a, x, y, k, &list, &fail) &&
                         squeeze_candidates(ag, a, x, y, k, &list, &fail) && gap_candidates(ag, a, x, y, k, &list);
                }
            }
        }
        uint32_t first = ag->reach_count;
        if (!ok || NAV_FAILED(emit_links(ag, a, &list)) || NAV_FAILED(note_narrow(ag, a, first, &fail))) {
            nav_free(list.c);
            nav_free(fail.c);
            return links_error(ag, err);
        }
    }
    nav_free(list.c);
    nav_free(fail.c);

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
        if (NAV_FAILED(area_push_reach(ag, &back))) return links_error(ag, err);
    }
    ag->static_reaches = ag->reach_count;
    if (NAV_FAILED(area_index_reaches(ag))) return links_error(ag, err);
    dedupe_narrow(ag);
    return NAV_OK;
}

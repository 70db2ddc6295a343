/*
** area_build.c — which floor cells a class can use, and the areas grown
** from them.
**
** A floor cell is usable when the class fits there: enough headroom
** (standing, or crouched for a crouch-only cell), liquids it may wade or
** swim, and no wall within its radius. "No wall" is checked per column
** around the cell: every column the body's box (the square of half side
** the radius, centred on the cell) overlaps must be open over the band of
** the mover's body, from a step above the floor to the top of its head; a
** column with a lower floor (a drop) is open there, a higher one (a block)
** is not.
** Ladder cells lean on their wall and skip the check.
**
** Areas are grown greedily in scan order (south to north, west to east,
** lowest floor first): a rectangle widens east while the next cell is of
** the same kind within a step of its neighbour, then rises north row by
** row while the whole next row fits. So every two 4-neighbours in an area
** differ by at most a step, and a straight line between any two points
** crosses only such pairs: the area is convex for the class.
**
** Cut lines (area_cut.c) give cells a zone; an area keeps to one zone, so
** areas end at a line and the line's own cells make thin areas along it.
*/
#include "area/area_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static CellKind classify(const NavAreaGraph *ag, const NavFloor *f)
{
    const NavClass *c = &ag->cls;
    switch (f->contents) {
    case NAV_CONTENTS_VOID:
    case NAV_CONTENTS_CLIP: return KIND_NONE;
    default: break;
    }
    float stand = world_standing_height(f);
    bool liquid = stand != f->z;
    if (liquid) {
        float depth = f->top - f->z;
        bool swim = depth > c->wade_depth;
        if (swim && f->contents == NAV_CONTENTS_WATER && !class_can_swim(c)) return KIND_NONE;
        /* Swimmers keep their head above the surface; waders need their
        ** height above the bed. */
        float room = swim ? f->ceiling - f->top : f->ceiling - f->z;
        float need = swim ? 0.5f * c->height : c->height;
        if (room < need) return KIND_NONE;
        if (f->contents == NAV_CONTENTS_LAVA) return KIND_LAVA;
        if (f->contents == NAV_CONTENTS_SLIME) return KIND_SLIME;
        return swim ? KIND_SWIM : KIND_WADE;
    }
    float headroom = f->ceiling - f->z;
    if (f->contents == NAV_CONTENTS_LADDER) return headroom >= c->crouch_height ? KIND_LADDER : KIND_NONE;
    if (headroom >= c->height) return KIND_GROUND;
    if (class_can_crouch(c) && headroom >= c->crouch_height) return KIND_CROUCH;
    return KIND_NONE;
}

/* The cells a body centred on a cell overlaps: the body is the box the
** simulation moves (half width = the radius, trace.h), so a cell dx, dy
** away is overlapped when it comes closer than the radius on both axes
** (touching is not overlapping). A round body would leave the corner cells
** out and let areas reach places the box cannot stand. */
typedef struct Offsets {
    int count, reach;
    int (*d)[2];
} Offsets;

static bool make_offsets(const NavAreaGraph *ag, Offsets *o)
{
    float r = ag->cls.radius / ag->cs;
    o->count = 0;
    o->reach = r > 0.0f ? (int)ceilf(r + 0.5f) : 0;
    int side = 2 * o->reach + 1;
    o->d = nav_malloc((size_t)side * (size_t)side * sizeof *o->d);
    if (!o->d) return false;
    for (int dy = -o->reach; dy <= o->reach; dy++)
        for (int dx = -o->reach; dx <= o->reach; dx++) {
            if (dx == 0 && dy == 0) continue;
            float ex = (float)abs(dx) - 0.5f, ey = (float)abs(dy) - 0.5f;
            ex = ex > 0.0f ? ex : 0.0f;
            ey = ey > 0.0f ? ey : 0.0f;
            if (!(ex < r && ey < r)) continue;
            o->d[o->count][0] = dx;
            o->d[o->count][1] = dy;
            o->count++;
        }
    return true;
}

/* Clearance: every column within the radius is open over the body band. */
static bool fits(const NavAreaGraph *ag, const Offsets *o, int x, int y, const NavFloor *f, CellKind kind)
{
    if (kind == KIND_LADDER || o->count == 0) return true;
    float stand = world_standing_height(f);
    float body = kind == KIND_CROUCH ? ag->cls.crouch_height : ag->cls.height;
    if (kind == KIND_SWIM) body = 0.5f * ag->cls.height;
    float lo = stand + ag->cls.step, hi = stand + body;
    if (hi < lo) hi = lo;
    bool inside = x >= o->reach && y >= o->reach && x < ag->w - o->reach && y < ag->h - o->reach;
    for (int i = 0; i < o->count; i++) {
        int nx = x + o->d[i][0], ny = y + o->d[i][1];
        if (!inside && !area_cell_valid(ag, nx, ny)) return false;
        if (!area_column_open(ag, nx, ny, lo, hi)) return false;
    }
    return true;
}

/* Kinds whose cells may share an area; crouch and portal marks stay apart
** so that routing can tell them. */
static uint32_t kind_key(const NavAreaGraph *ag, uint32_t floor)
{
    return (uint32_t)ag->floor_kind[floor] | ((uint32_t)ag->floor_portal[floor] << 8);
}

/* The floor of column (x, y) that continues floor `from` (height h):
** unassigned, same key, within a step. Returns its index or UINT32_MAX. */
static uint32_t matching_floor(const NavAreaGraph *ag, int x, int y, uint32_t key, uint32_t zone, float h)
{
    if (!area_cell_valid(ag, x, y) || area_cell_zone(ag, x, y) != zone) return UINT32_MAX;
    int n;
    uint32_t first;
    const NavFloor *f = area_column(ag, x, y, &n, &first);
    for (int i = 0; i < n; i++) {
        uint32_t fi = first + (uint32_t)i;
        if (ag->floor_area[fi] != NAV_NO_AREA || ag->floor_kind[fi] == KIND_NONE) continue;
        if (kind_key(ag, fi) != key) continue;
        if (fabsf(world_standing_height(&f[i]) - h) <= ag->cls.step + 1e-4f) return fi;
    }
    return UINT32_MAX;
}

/* Standing height of floor fi (an index into the floor store). */
static float floor_height(const NavAreaGraph *ag, uint32_t fi) { return world_standing_height(&ag->floors[fi]); }

static NavStatus new_area(NavAreaGraph *ag, uint32_t *id, NavError *err)
{
    if (ag->area_count >= NAV_LIMIT_AREAS)
        return nav_error_set(err, NAV_E_FORMAT, world_source(ag->world), 0, 0, "areas",
                             "class %s: more than the limit of %u areas in one area graph (a map of noise?)",
                             ag->cls.name, NAV_LIMIT_AREAS);
    if (ag->area_count == ag->area_cap) {
        uint32_t ncap = ag->area_cap ? ag->area_cap * 2 : 256;
        NavArea *na = nav_realloc(ag->areas, (size_t)ncap * sizeof *na);
        if (!na)
            return nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL,
                                 "out of memory for areas (class %s)", ag->cls.name);
        ag->areas = na;
        ag->area_cap = ncap;
    }
    *id = ag->area_count++;
    memset(&ag->areas[*id], 0, sizeof(NavArea));
    return NAV_OK;
}

/* Grows one rectangle from floor `seed` of (x, y); marks its floors. */
static NavStatus grow(NavAreaGraph *ag, int x, int y, uint32_t seed, NavError *err)
{
    uint32_t id = 0;
    NavStatus s = new_area(ag, &id, err);
    if (NAV_FAILED(s)) return s;
    int max_side = ag->desc.max_area_side;
    uint32_t key = kind_key(ag, seed), zone = area_cell_zone(ag, x, y);
    /* The row being grown, as floor indices. */
    uint32_t row[64];
    int width = 1;
    row[0] = seed;
    ag->floor_area[seed] = id;
    float prev_h = floor_height(ag, seed);
    while (width < max_side) {
        uint32_t fi = matching_floor(ag, x + width, y, key, zone, prev_h);
        if (fi == UINT32_MAX) break;
        ag->floor_area[fi] = id;
        row[width] = fi;
        prev_h = floor_height(ag, fi);
        width++;
    }
    int height = 1;
    while (height < max_side) {
        int ny = y + height;
        uint32_t next[64];
        bool ok = true;
        for (int i = 0; i < width && ok; i++) {
            float below = floor_height(ag, row[i]);
            next[i] = matching_floor(ag, x + i, ny, key, zone, below);
            if (next[i] == UINT32_MAX) ok = false;
            else if (i > 0 && fabsf(floor_height(ag, next[i]) - floor_height(ag, next[i - 1])) > ag->cls.step + 1e-4f)
                ok = false;
        }
        /* Two floors of a column could both continue a row; never take the
        ** same floor twice within one row. */
        if (!ok) break;
        for (int i = 0; i < width; i++) {
            ag->floor_area[next[i]] = id;
            row[i] = next[i];
        }
        height++;
    }

    NavArea *a = &ag->areas[id];
    a->x0 = x;
    a->y0 = y;
    a->x1 = x + width - 1;
    a->y1 = y + height - 1;
    a->cluster = 0;
    a->portal = -1;
    return NAV_OK;
}

static void finish_area(NavAreaGraph *ag, uint32_t id)
{
    NavArea *a = &ag->areas[id];
    const NavWorld *w = ag->world;
    a->zmin = INFINITY;
    a->zmax = -INFINITY;
    int cx = (a->x0 + a->x1) / 2, cy = (a->y0 + a->y1) / 2;
    float center_z = 0.0f;
    bool ledge = false;
    for (int y = a->y0; y <= a->y1; y++) {
        for (int x = a->x0; x <= a->x1; x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            uint32_t first = world_column_first(w, x, y);
            for (int i = 0; i < n; i++) {
                if (ag->floor_area[first + (uint32_t)i] != id) continue;
                float h = world_standing_height(&f[i]);
                a->zmin = fminf(a->zmin, h);
                a->zmax = fmaxf(a->zmax, h);
                a->layer = f[i].layer;
                a->contents = f[i].contents;
                if (x == cx && y == cy) center_z = h;
                /* A ledge: a neighbour column with nothing within a step
                ** but open below. */
                static const int DX[4] = { 1, -1, 0, 0 }, DY[4] = { 0, 0, 1, -1 };
                for (int k = 0; k < 4 && !ledge; k++) {
                    int nx = x + DX[k], ny = y + DY[k];
                    if (nx >= a->x0 && nx <= a->x1 && ny >= a->y0 && ny <= a->y1) continue;
                    if (!world_cell_valid(w, nx, ny)) continue;
                    int m;
                    const NavFloor *g = world_column(w, nx, ny, &m);
                    bool level = false, drop = false;
                    for (int j = 0; j < m; j++) {
                        float gh = g[j].contents == NAV_CONTENTS_VOID ? -INFINITY : world_standing_height(&g[j]);
                        if (fabsf(gh - h) <= ag->cls.step) level = true;
                        else if (gh < h - ag->cls.step && g[j].ceiling > h) drop = true;
                    }
                    if (drop && !level) ledge = true;
                }
            }
        }
    }
    float cs = ag->cs;
    a->center[0] = ((float)cx + 0.5f) * cs;
    a->center[1] = ((float)cy + 0.5f) * cs;
    a->center[2] = center_z;
    uint32_t flags = 0, tfl = 0;
    /* Every floor of an area has the same kind: read it from the centre. */
    int n;
    world_column(w, cx, cy, &n);
    uint32_t first = world_column_first(w, cx, cy);
    CellKind k = KIND_NONE;
    bool portal = false;
    for (int i = 0; i < n; i++)
        if (ag->floor_area[first + (uint32_t)i] == id) {
            k = (CellKind)ag->floor_kind[first + (uint32_t)i];
            portal = ag->floor_portal[first + (uint32_t)i] != 0;
        }
    switch (k) {
    case KIND_GROUND: flags |= NAV_AREA_GROUND; break;
    case KIND_CROUCH: flags |= NAV_AREA_GROUND | NAV_AREA_CROUCH; break;
    case KIND_WADE:
        flags |= NAV_AREA_GROUND | NAV_AREA_LIQUID;
        tfl |= NAV_TFL_WATER;
        break;
    case KIND_SWIM:
        flags |= NAV_AREA_LIQUID;
        tfl |= NAV_TFL_WATER;
        break;
    case KIND_LAVA:
        flags |= NAV_AREA_LIQUID | NAV_AREA_LAVA;
        tfl |= NAV_TFL_LAVA;
        break;
    case KIND_SLIME:
        flags |= NAV_AREA_LIQUID | NAV_AREA_SLIME;
        tfl |= NAV_TFL_SLIME;
        break;
    case KIND_LADDER: flags |= NAV_AREA_GROUND | NAV_AREA_LADDER; break;
    default: break;
    }
    if (ledge) flags |= NAV_AREA_LEDGE;
    if (portal) flags |= NAV_AREA_DESIGNER_PORTAL;
    if (area_cell_zone(ag, a->x0, a->y0)) flags |= NAV_AREA_CUT;
    a->flags = flags;
    a->travel_flags = tfl;
}

NavStatus area_build_areas(NavAreaGraph *ag, NavError *err)
{
    const NavWorld *w = ag->world;
    uint32_t floors = world_floor_total(w);
    /* The cells' kinds hold from one compile pass to the next. */
    bool classified = ag->floor_kind != NULL;
    if (!ag->floor_area) ag->floor_area = nav_malloc((floors ? floors : 1) * sizeof *ag->floor_area);
    if (!classified) {
        ag->floor_kind = nav_calloc(floors ? floors : 1, 1);
        ag->floor_portal = nav_calloc(floors ? floors : 1, 1);
    }
    if (!ag->floor_area || !ag->floor_kind || !ag->floor_portal)
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory for %u floors (class %s)",
                             floors, ag->cls.name);
    for (uint32_t i = 0; i < floors; i++) ag->floor_area[i] = NAV_NO_AREA;

    Offsets o = { 0, 0, NULL };
    if (!classified && !make_offsets(ag, &o))
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory for areas (class %s)",
                             ag->cls.name);
    for (int y = 0; y < ag->h && !classified; y++) {
        for (int x = 0; x < ag->w; x++) {
            int n;
            uint32_t first;
            const NavFloor *f = area_column(ag, x, y, &n, &first);
            for (int i = 0; i < n; i++) {
                CellKind k = classify(ag, &f[i]);
                /* Ground under a low ceiling nearby (a tunnel's mouth) is
                ** still crouch ground. */
                if (k != KIND_NONE && !fits(ag, &o, x, y, &f[i], k)) {
                    if (k == KIND_GROUND && class_can_crouch(&ag->cls) && fits(ag, &o, x, y, &f[i], KIND_CROUCH))
                        k = KIND_CROUCH;
                    else k = KIND_NONE;
                }
                ag->floor_kind[first + (uint32_t)i] = (uint8_t)k;
                ag->floor_portal[first + (uint32_t)i] = (f[i].flags & NAV_FLOOR_PORTAL) ? 1 : 0;
            }
        }
    }
    nav_free(o.d);
    for (int y = 0; y < ag->h; y++) {
        for (int x = 0; x < ag->w; x++) {
            int n;
            uint32_t first;
            area_column(ag, x, y, &n, &first);
            for (int i = 0; i < n; i++) {
                uint32_t fi = first + (uint32_t)i;
                if (ag->floor_kind[fi] == KIND_NONE || ag->floor_area[fi] != NAV_NO_AREA) continue;
                NavStatus s = grow(ag, x, y, fi, err);
                if (NAV_FAILED(s)) return s;
                finish_area(ag, ag->area_count - 1);
            }
        }
    }
    return NAV_OK;
}

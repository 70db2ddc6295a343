/*
** area.c — compiling an area graph, entity links, reading and sampling.
*/
#include "area/area_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"

static const char *const TRAVEL_NAMES[NAV_TRAVEL_COUNT] = {
    "walk",   "crouch", "barrier_jump", "walk_off_ledge", "jump",     "climb",
    "ladder", "swim",   "water_jump",   "teleport",       "elevator", "jump_pad",
};

const char *area_travel_name(NavTravelType t) { return (unsigned)t < NAV_TRAVEL_COUNT ? TRAVEL_NAMES[t] : "unknown"; }

static const struct {
    const char *name;
    uint32_t flag;
} AREA_KINDS[] = {
    { "ledge", NAV_AREA_LEDGE }, { "liquid", NAV_AREA_LIQUID }, { "lava", NAV_AREA_LAVA },
    { "slime", NAV_AREA_SLIME }, { "crouch", NAV_AREA_CROUCH }, { "ladder", NAV_AREA_LADDER },
};

const char *area_kind_name(int i, uint32_t *flag)
{
    if (i < 0 || (size_t)i >= NAV_ARRAY_COUNT(AREA_KINDS)) return NULL;
    if (flag) *flag = AREA_KINDS[i].flag;
    return AREA_KINDS[i].name;
}

uint32_t area_kind_flag(const char *name)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(AREA_KINDS); i++)
        if (strcmp(AREA_KINDS[i].name, name) == 0) return AREA_KINDS[i].flag;
    return 0;
}

int area_travel_from_name(const char *name)
{
    for (int i = 0; i < NAV_TRAVEL_COUNT; i++)
        if (strcmp(name, TRAVEL_NAMES[i]) == 0) return i;
    return -1;
}

/* {======= crossing times ======= */

uint32_t area_time_between(const NavAreaGraph *ag, uint32_t a, const float p[3], const float q[3])
{
    const NavArea *ar = &ag->areas[a];
    const NavClass *c = &ag->cls;
    float speed = c->run_speed;
    if (ar->flags & NAV_AREA_CROUCH) speed = c->crouch_speed;
    else if ((ar->flags & NAV_AREA_LIQUID) && !(ar->flags & NAV_AREA_GROUND)) speed = c->swim_speed;
    else if (ar->flags & NAV_AREA_LADDER) speed = c->ladder_speed > 0 ? c->ladder_speed : c->run_speed;
    if (!(speed > 0.0f)) speed = c->run_speed;
    double d = sqrt((double)(p[0] - q[0]) * (p[0] - q[0]) + (double)(p[1] - q[1]) * (p[1] - q[1]) +
                    (double)(p[2] - q[2]) * (p[2] - q[2]));
    double t = 100.0 * d / speed;
    return t < 1.0 ? 1u : (t > 4e9 ? 4000000000u : (uint32_t)lround(t));
}

NavStatus area_index_travel(NavAreaGraph *ag)
{
    uint32_t n = ag->area_count;
    nav_free(ag->rev_first);
    nav_free(ag->rev);
    nav_free(ag->time_first);
    nav_free(ag->times);
    ag->rev_first = nav_calloc((size_t)n + 1, sizeof *ag->rev_first);
    ag->rev = nav_malloc(((size_t)ag->reach_count + 1) * sizeof *ag->rev);
    ag->time_first = nav_calloc((size_t)n + 1, sizeof *ag->time_first);
    ag->times = NULL;
    if (!ag->rev_first || !ag->rev || !ag->time_first) return NAV_FAILURE | NAV_E_NOMEM;
    for (uint32_t i = 0; i < ag->reach_count; i++) ag->rev_first[ag->reaches[i].to + 1]++;
    for (uint32_t a = 0; a < n; a++) ag->rev_first[a + 1] += ag->rev_first[a];
    uint32_t *fill = nav_calloc((size_t)n + 1, sizeof *fill);
    if (!fill) return NAV_FAILURE | NAV_E_NOMEM;
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        uint32_t t = ag->reaches[i].to;
        ag->rev[ag->rev_first[t] + fill[t]++] = i;
    }
    nav_free(fill);
    size_t total = 0;
    for (uint32_t a = 0; a < n; a++) {
        ag->time_first[a] = (uint32_t)total;
        total += (size_t)(ag->rev_first[a + 1] - ag->rev_first[a]) * ag->areas[a].reach_count;
    }
    ag->time_first[n] = (uint32_t)total;
    ag->times = nav_malloc((total ? total : 1) * sizeof *ag->times);
    if (!ag->times) return NAV_FAILURE | NAV_E_NOMEM;
    for (uint32_t a = 0; a < n; a++) {
        uint32_t at = ag->time_first[a];
        for (uint32_t k = ag->rev_first[a]; k < ag->rev_first[a + 1]; k++)
            for (uint32_t o = 0; o < ag->areas[a].reach_count; o++)
                ag->times[at++] = area_time_between(ag, a, ag->reaches[ag->rev[k]].end,
                                                    ag->reaches[ag->areas[a].first_reach + o].start);
    }
    return NAV_OK;
}

const uint32_t *area_incoming(const NavAreaGraph *ag, uint32_t a, uint32_t *count)
{
    if (a >= ag->area_count || !ag->rev_first) {
        *count = 0;
        return NULL;
    }
    *count = ag->rev_first[a + 1] - ag->rev_first[a];
    return ag->rev + ag->rev_first[a];
}

const uint32_t *area_crossing_table(const NavAreaGraph *ag, uint32_t a)
{
    if (a >= ag->area_count || !ag->times) return NULL;
    return ag->times + ag->time_first[a];
}

uint32_t area_crossing_time(const NavAreaGraph *ag, uint32_t a, uint32_t in, uint32_t out)
{
    if (a >= ag->area_count || !ag->times) return 0;
    uint32_t nin = ag->rev_first[a + 1] - ag->rev_first[a];
    if (in >= nin || out >= ag->areas[a].reach_count) return 0;
    return ag->times[ag->time_first[a] + in * ag->areas[a].reach_count + out];
}

/* }======= */

/* {======= compiling ======= */

/* Compile passes at most: the first, then up to three with finer cuts. */
enum { AREA_MAX_PASSES = 4 };

/* Forget what a compile pass built, keeping the cut lines and the cells'
** kinds, which the next pass reuses (the clusters are rebuilt whole by
** area_build_clusters). */
static void reset_graph(NavAreaGraph *ag) { ag->area_count = ag->reach_count = ag->static_reaches = 0; }

NavAreaGraph *area_compile(const NavWorld *world, int cls, const NavAreaDesc *desc, NavError *err)
{
    if (cls < 0 || cls >= world_class_count(world)) {
        nav_error_set(err, NAV_E_PARAM, world_source(world), 0, 0, "class", "no class %d (the world has %d)", cls,
                      world_class_count(world));
        return NULL;
    }
    uint64_t t0 = timer_now_ns();
    NavAreaGraph *ag = nav_calloc(1, sizeof *ag);
    if (!ag) {
        nav_error_set(err, NAV_E_NOMEM, world_source(world), 0, 0, NULL,
                      "out of memory compiling the area graph of class %s", world_class(world, cls)->name);
        return NULL;
    }
    ag->world = world;
    ag->floors = world_floor_store(world, &ag->column_start);
    ag->cls = *world_class(world, cls);
    ag->cls_index = cls;
    ag->w = world_width(world);
    ag->h = world_height(world);
    ag->cs = world_cell_size(world);
    if (desc) ag->desc = *desc;
    if (ag->desc.max_area_side <= 0 || ag->desc.max_area_side > 64) ag->desc.max_area_side = 32;
    if (ag->desc.max_cluster_areas <= 0) ag->desc.max_cluster_areas = 256;
    if (err) err->message[0] = '\0';
    NavStatus s = NAV_OK;
    /* Each pass builds the whole graph; when some cluster is still over the
    ** size limit, cut lines are planned through it and the next pass
    ** rebuilds the areas along them. Open ground needs a pass or two; maps
    ** of rooms and corridors split at their doorways in the first. */
    for (int pass = 1;; pass++) {
        uint64_t t = timer_now_ns();
        s = area_build_areas(ag, err);
        ag->phase_ms[0] += timer_ms_since(t);
        t = timer_now_ns();
        if (NAV_SUCCEEDED(s)) s = area_build_reaches(ag, err);
        ag->phase_ms[1] += timer_ms_since(t);
        t = timer_now_ns();
        if (NAV_SUCCEEDED(s)) s = area_build_clusters(ag, err);
        bool added = false, more = false;
        if (NAV_SUCCEEDED(s) && pass < AREA_MAX_PASSES) s = area_plan_cuts(ag, pass, &added, err);
        /* Entity links join what they connect: the cuts must also serve the
        ** graph with them, which area_add_entities clusters anew. */
        if (NAV_SUCCEEDED(s) && pass < AREA_MAX_PASSES && world_entity_count(world) > 0) {
            s = area_add_entities(ag, err);
            if (NAV_SUCCEEDED(s)) s = area_plan_cuts(ag, pass, &more, err);
            NavStatus removed = area_remove_entities(ag);
            if (NAV_SUCCEEDED(s) && NAV_FAILED(removed))
                s = nav_error_set(err, NAV_E_NOMEM, world_source(world), 0, 0, NULL,
                                  "out of memory for clusters (class %s)", ag->cls.name);
            added |= more;
        }
        ag->phase_ms[2] += timer_ms_since(t);
        ag->cluster_rounds = (uint32_t)pass;
        if (NAV_FAILED(s) || !added) break;
        reset_graph(ag);
    }
    area_free_cuts(ag); /* the areas carry the lines now (NAV_AREA_CUT) */
    uint64_t t = timer_now_ns();
    if (NAV_SUCCEEDED(s) && NAV_FAILED(area_index_travel(ag))) s = NAV_FAILURE | NAV_E_NOMEM;
    ag->phase_ms[3] = timer_ms_since(t);
    if (NAV_FAILED(s)) {
        if (err && !err->message[0])
            nav_error_set(err, NAV_E_NOMEM, world_source(world), 0, 0, NULL,
                          "out of memory compiling the area graph of class %s", world_class(world, cls)->name);
        area_destroy(ag);
        return NULL;
    }
    ag->compile_ms = timer_ms_since(t0);
    return ag;
}

NavAreaGraph *area_build(const NavWorld *world, int cls, const NavAreaDesc *desc, NavError *err)
{
    NavAreaGraph *ag = area_compile(world, cls, desc, err);
    if (ag && NAV_FAILED(area_add_entities(ag, err))) {
        area_destroy(ag);
        return NULL;
    }
    return ag;
}

void area_destroy(NavAreaGraph *ag)
{
    if (!ag) return;
    area_free_cuts(ag);
    nav_free(ag->narrow);
    nav_free(ag->floor_area);
    nav_free(ag->floor_kind);
    nav_free(ag->floor_portal);
    nav_free(ag->areas);
    nav_free(ag->reaches);
    nav_free(ag->portals);
    nav_free(ag->clusters);
    nav_free(ag->cluster_portals);
    nav_free(ag->rev_first);
    nav_free(ag->rev);
    nav_free(ag->time_first);
    nav_free(ag->times);
    nav_free(ag);
}

/* }======= */

/* {======= entity links ======= */

static uint32_t entity_link_time(double t)
{
    if (!(t >= 1.0)) return 1;
    return t > 4e9 ? 4000000000u : (uint32_t)lround(t);
}

static NavStatus link(NavAreaGraph *ag, uint32_t from, uint32_t to, NavTravelType type, const float start[3],
                      const float end[3], uint32_t time, int entity)
{
    if (from == to || from == NAV_NO_AREA || to == NAV_NO_AREA) return NAV_OK;
    NavReach r;
    memset(&r, 0, sizeof r);
    r.from = from;
    r.to = to;
    r.type = (uint32_t)type;
    r.travel_flags = NAV_TFL_TYPE(type) | ag->areas[to].travel_flags;
    memcpy(r.start, start, sizeof r.start);
    memcpy(r.end, end, sizeof r.end);
    memcpy(r.edge[0], start, sizeof r.start);
    memcpy(r.edge[1], start, sizeof r.start);
    r.time = time;
    r.entity = entity;
    return area_push_reach(ag, &r);
}

/* Areas standing within a height band and overlapping a footprint grown
** by `grow` metres. */
static int areas_at(const NavAreaGraph *ag, const float mins[2], const float maxs[2], float grow, float zlo, float zhi,
                    uint32_t *out, int cap)
{
    float lo[3] = { mins[0] - grow, mins[1] - grow, zlo }, hi[3] = { maxs[0] + grow, maxs[1] + grow, zhi };
    return area_box_areas(ag, lo, hi, out, cap);
}

NavStatus area_add_entities(NavAreaGraph *ag, NavError *err)
{
    if (ag->entities_added) return NAV_OK;
    const NavWorld *w = ag->world;
    double g = world_gravity(w);
    float step = ag->cls.step;
    enum { CAP = 256 };
    uint32_t src[CAP];
    NavStatus s = NAV_OK;
    for (int i = 0; i < world_entity_count(w) && NAV_SUCCEEDED(s); i++) {
        const NavEntity *e = world_entity(w, i);
        switch (e->type) {
        case NAV_ENTITY_TELEPORTER:
        case NAV_ENTITY_JUMP_PAD: {
            const float *target = e->type == NAV_ENTITY_TELEPORTER ? e->u.teleporter.dest : e->u.jump_pad.target;
            /* The area the target stands in, even one with no links of its
            ** own (a sealed room whose only way out is added later, or
            ** none); the nearest linked area only when it is in none. */
            float land[3];
            uint32_t to = area_point_area(ag, target[0], target[1], target[2]);
            if (to == NAV_NO_AREA) to = area_nearest_area(ag, target[0], target[1], target[2], 2.0f, land);
            int n = areas_at(ag, e->mins, e->maxs, 0.0f, e->mins[2] - step, e->maxs[2], src, CAP);
            for (int k = 0; k < n && k < CAP && NAV_SUCCEEDED(s); k++) {
                float start[3] = { 0.5f * (e->mins[0] + e->maxs[0]), 0.5f * (e->mins[1] + e->maxs[1]), e->mins[2] };
                uint32_t time = e->type == NAV_ENTITY_TELEPORTER
                                    ? 10
                                    : entity_link_time(100.0 * 2.0 * sqrt(2.0 * fmax(e->u.jump_pad.apex, 0.1f) / g));
                s = link(ag, src[k], to, e->type == NAV_ENTITY_TELEPORTER ? NAV_TRAVEL_TELEPORT : NAV_TRAVEL_JUMP_PAD,
                         start, target, time, i);
            }
            break;
        }
        case NAV_ENTITY_ELEVATOR: {
            const NavElevator *el = &e->u.elevator;
            /* At each stop: the areas in or next to the shaft at that height. */
            uint32_t at[NAV_ELEVATOR_MAX_STOPS][16];
            int count[NAV_ELEVATOR_MAX_STOPS];
            for (int st = 0; st < el->stop_count; st++) {
                count[st] = areas_at(ag, e->mins, e->maxs, 1.5f * ag->cs, el->stops[st] - step, el->stops[st] + step,
                                     at[st], 16);
                if (count[st] > 16) count[st] = 16;
            }
            for (int a = 0; a < el->stop_count; a++)
                for (int b = 0; b < el->stop_count; b++) {
                    if (a == b) continue;
                    uint32_t time =
                        entity_link_time(100.0 * (fabs(el->stops[b] - el->stops[a]) / el->speed + el->wait));
                    for (int p = 0; p < count[a] && NAV_SUCCEEDED(s); p++)
                        for (int q = 0; q < count[b] && NAV_SUCCEEDED(s); q++) {
                            float start[3] = { 0.5f * (e->mins[0] + e->maxs[0]), 0.5f * (e->mins[1] + e->maxs[1]),
                                               el->stops[a] };
                            float end[3] = { start[0], start[1], el->stops[b] };
                            s = link(ag, at[a][p], at[b][q], NAV_TRAVEL_ELEVATOR, start, end, time, i);
                        }
                }
            break;
        }
        default: break;
        }
    }
    if (NAV_FAILED(s)) {
        area_remove_entities(ag);
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory for entity links (class %s)",
                             ag->cls.name);
    }
    ag->entities_added = true;
    if (NAV_FAILED(area_index_reaches(ag))) {
        area_remove_entities(ag);
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL, "out of memory for entity links (class %s)",
                             ag->cls.name);
    }
    if (NAV_FAILED(area_index_travel(ag)))
        return nav_error_set(err, NAV_E_NOMEM, world_source(w), 0, 0, NULL,
                             "out of memory for crossing times (class %s)", ag->cls.name);
    return area_build_clusters(ag, err);
}

NavStatus area_remove_entities(NavAreaGraph *ag)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < ag->reach_count; i++)
        if (ag->reaches[i].entity < 0) ag->reaches[out++] = ag->reaches[i];
    ag->reach_count = out;
    ag->entities_added = false;
    area_index_reaches(ag); /* in order already: cannot fail */
    if (NAV_FAILED(area_index_travel(ag))) return NAV_FAILURE | NAV_E_NOMEM;
    return area_build_clusters(ag, NULL);
}

/* }======= */

/* {======= reading ======= */

const NavWorld *area_world(const NavAreaGraph *ag) { return ag->world; }
const NavClass *area_class(const NavAreaGraph *ag) { return &ag->cls; }
uint32_t area_count(const NavAreaGraph *ag) { return ag->area_count; }
const NavArea *area_get(const NavAreaGraph *ag, uint32_t i) { return i < ag->area_count ? &ag->areas[i] : NULL; }
uint32_t area_reach_count(const NavAreaGraph *ag) { return ag->reach_count; }
const NavReach *area_reach(const NavAreaGraph *ag, uint32_t i) { return i < ag->reach_count ? &ag->reaches[i] : NULL; }
uint32_t area_cluster_count(const NavAreaGraph *ag) { return ag->cluster_count; }
const NavCluster *area_cluster(const NavAreaGraph *ag, uint32_t i)
{
    return (i >= 1 && i <= ag->cluster_count) ? &ag->clusters[i] : NULL;
}
uint32_t area_portal_count(const NavAreaGraph *ag) { return ag->portal_count; }
const NavPortal *area_portal(const NavAreaGraph *ag, uint32_t i)
{
    return i < ag->portal_count ? &ag->portals[i] : NULL;
}
uint32_t area_narrow_count(const NavAreaGraph *ag) { return ag->narrow_count; }
const NavNarrow *area_narrow(const NavAreaGraph *ag, uint32_t i)
{
    return i < ag->narrow_count ? &ag->narrow[i] : NULL;
}
const uint32_t *area_cluster_portals(const NavAreaGraph *ag) { return ag->cluster_portals; }

void area_stats(const NavAreaGraph *ag, NavAreaStats *out)
{
    memset(out, 0, sizeof *out);
    out->areas = ag->area_count;
    out->reaches = ag->reach_count;
    out->clusters = ag->cluster_count;
    out->portals = ag->portal_count;
    for (uint32_t i = 0; i < ag->reach_count; i++) out->reaches_by_type[ag->reaches[i].type]++;
    uint32_t floors = world_floor_total(ag->world);
    out->bytes =
        sizeof *ag + (size_t)floors * (sizeof(uint32_t) + 2) + (size_t)ag->area_cap * sizeof(NavArea) +
        (2 * (size_t)ag->area_count + 2 + ag->reach_count + (ag->time_first ? ag->time_first[ag->area_count] : 0)) *
            sizeof(uint32_t) +
        (size_t)ag->reach_cap * sizeof(NavReach) + (size_t)ag->portal_count * sizeof(NavPortal) +
        ((size_t)ag->cluster_count + 1) * sizeof(NavCluster) + 2 * (size_t)ag->portal_count * sizeof(uint32_t);
    out->compile_ms = ag->compile_ms;
    out->areas_ms = ag->phase_ms[0];
    out->reaches_ms = ag->phase_ms[1];
    out->clusters_ms = ag->phase_ms[2];
    out->travel_ms = ag->phase_ms[3];
    out->cluster_rounds = ag->cluster_rounds;
    for (uint32_t c = 1; c <= ag->cluster_count; c++)
        if (ag->clusters[c].area_count > out->largest_cluster) out->largest_cluster = ag->clusters[c].area_count;
}

/* }======= */

/* {======= sampling ======= */

uint32_t area_of_floor(const NavAreaGraph *ag, int cx, int cy, int f)
{
    if (!world_cell_valid(ag->world, cx, cy)) return NAV_NO_AREA;
    int n;
    world_column(ag->world, cx, cy, &n);
    if (f < 0 || f >= n) return NAV_NO_AREA;
    return ag->floor_area[world_column_first(ag->world, cx, cy) + (uint32_t)f];
}

uint32_t area_point_area(const NavAreaGraph *ag, float x, float y, float z)
{
    int cx, cy, n;
    if (!world_point_cell(ag->world, x, y, &cx, &cy)) return NAV_NO_AREA;
    const NavFloor *f = world_column(ag->world, cx, cy, &n);
    uint32_t first = world_column_first(ag->world, cx, cy);
    /* The highest floor at or below the point (with a little tolerance),
    ** whose open space holds it. */
    for (int i = n - 1; i >= 0; i--) {
        float h = f[i].contents == NAV_CONTENTS_VOID ? -INFINITY : world_standing_height(&f[i]);
        float bottom = f[i].contents == NAV_CONTENTS_VOID ? -INFINITY : f[i].z;
        if (bottom <= z + 0.25f && z < f[i].ceiling) {
            (void)h;
            return ag->floor_area[first + (uint32_t)i];
        }
    }
    return NAV_NO_AREA;
}

/* A cell coordinate (already whole) as an int, clamped to -1..n first:
** converting a float past int's range is undefined. NaN gives -1. */
static int cell_clamp(float v, int n)
{
    if (!(v >= 0.0f)) return -1;
    return v >= (float)n ? n : (int)v;
}

uint32_t area_nearest_area(const NavAreaGraph *ag, float x, float y, float z, float radius, float out[3])
{
    uint32_t a = area_point_area(ag, x, y, z);
    if (a != NAV_NO_AREA && ag->areas[a].reach_count > 0) {
        out[0] = x;
        out[1] = y;
        out[2] = area_get(ag, a)->zmin;
        int cx, cy, n;
        if (world_point_cell(ag->world, x, y, &cx, &cy)) {
            const NavFloor *f = world_column(ag->world, cx, cy, &n);
            uint32_t first = world_column_first(ag->world, cx, cy);
            for (int i = 0; i < n; i++)
                if (ag->floor_area[first + (uint32_t)i] == a) out[2] = world_standing_height(&f[i]);
        }
        return a;
    }
    /* Look around: the usable floor cell nearest in 3D within the box. */
    float cs = ag->cs, r = ceilf(radius / cs);
    /* The box in cells, clamped to the map before it becomes int: a point
    ** or radius far off the map (a script's 1e38) is no int, and NaN
    ** gives an empty box. */
    int w = world_width(ag->world), h = world_height(ag->world);
    int x0 = cell_clamp(floorf(x / cs) - r, w), x1 = cell_clamp(floorf(x / cs) + r, w);
    int y0 = cell_clamp(floorf(y / cs) - r, h), y1 = cell_clamp(floorf(y / cs) + r, h);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 >= w ? w - 1 : x1;
    y1 = y1 >= h ? h - 1 : y1;
    double best = INFINITY;
    uint32_t best_area = NAV_NO_AREA;
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++) {
            if (!world_cell_valid(ag->world, cx, cy)) continue;
            int n;
            const NavFloor *f = world_column(ag->world, cx, cy, &n);
            uint32_t first = world_column_first(ag->world, cx, cy);
            for (int i = 0; i < n; i++) {
                uint32_t fa = ag->floor_area[first + (uint32_t)i];
                if (fa == NAV_NO_AREA || ag->areas[fa].reach_count == 0 ||
                    fabsf(world_standing_height(&f[i]) - z) > radius)
                    continue;
                float px = ((float)cx + 0.5f) * cs, py = ((float)cy + 0.5f) * cs, pz = world_standing_height(&f[i]);
                double d = (double)(px - x) * (px - x) + (double)(py - y) * (py - y) + (double)(pz - z) * (pz - z);
                if (d < best) {
                    best = d;
                    best_area = fa;
                    out[0] = px;
                    out[1] = py;
                    out[2] = pz;
                }
            }
        }
    return best_area;
}

/* No z: the first floor (lowest up) of the cell that belongs to an area,
** else its lowest floor, else 0. */
static float default_height(const NavAreaGraph *ag, float x, float y)
{
    const NavWorld *w = ag->world;
    int cx, cy, n;
    if (!world_point_cell(w, x, y, &cx, &cy)) return 0.0f;
    const NavFloor *f = world_column(w, cx, cy, &n);
    for (int i = 0; i < n; i++)
        if (area_of_floor(ag, cx, cy, i) != NAV_NO_AREA) return world_standing_height(&f[i]);
    for (int i = 0; i < n; i++)
        if (f[i].contents != NAV_CONTENTS_VOID) return world_standing_height(&f[i]);
    return 0.0f;
}

void area_place_point(const NavAreaGraph *ag, const float p[3], bool has_z, float radius, NavAreaPlace *out)
{
    out->asked[0] = p[0];
    out->asked[1] = p[1];
    out->asked[2] = has_z ? p[2] : default_height(ag, p[0], p[1]);
    out->nearest = false;
    out->area = area_point_area(ag, out->asked[0], out->asked[1], out->asked[2]);
    if (out->area != NAV_NO_AREA) {
        /* Stand on the area's floor in that cell. */
        memcpy(out->point, out->asked, sizeof out->point);
        int cx, cy, n;
        if (world_point_cell(ag->world, p[0], p[1], &cx, &cy)) {
            const NavFloor *f = world_column(ag->world, cx, cy, &n);
            for (int i = 0; i < n; i++)
                if (area_of_floor(ag, cx, cy, i) == out->area) out->point[2] = world_standing_height(&f[i]);
        }
        return;
    }
    out->area = area_nearest_area(ag, out->asked[0], out->asked[1], out->asked[2], radius, out->point);
    out->nearest = out->area != NAV_NO_AREA;
}

int area_box_areas(const NavAreaGraph *ag, const float mins[3], const float maxs[3], uint32_t *out, int cap)
{
    int n = 0;
    float cs = ag->cs;
    for (uint32_t a = 0; a < ag->area_count; a++) {
        const NavArea *ar = &ag->areas[a];
        if ((float)(ar->x1 + 1) * cs <= mins[0] || (float)ar->x0 * cs >= maxs[0]) continue;
        if ((float)(ar->y1 + 1) * cs <= mins[1] || (float)ar->y0 * cs >= maxs[1]) continue;
        if (ar->zmax < mins[2] || ar->zmin > maxs[2]) continue;
        if (n < cap) out[n] = a;
        n++;
    }
    return n;
}

/* The area of the highest floor at or below z under (x, y), as
** area_point_area finds it, and the height a body stands at on it. */
static uint32_t floor_under(const NavAreaGraph *ag, float x, float y, float z, float *height)
{
    int cx, cy, n;
    if (!world_point_cell(ag->world, x, y, &cx, &cy)) return NAV_NO_AREA;
    const NavFloor *f = world_column(ag->world, cx, cy, &n);
    uint32_t first = world_column_first(ag->world, cx, cy);
    for (int i = n - 1; i >= 0; i--) {
        if (f[i].contents == NAV_CONTENTS_VOID) {
            if (z < f[i].ceiling) return NAV_NO_AREA;
            continue;
        }
        if (f[i].z <= z + 0.25f && z < f[i].ceiling) {
            *height = world_standing_height(&f[i]);
            return ag->floor_area[first + (uint32_t)i];
        }
    }
    return NAV_NO_AREA;
}

int area_trace(const NavAreaGraph *ag, const float from[3], const float to[3], uint32_t stop_flags,
               NavAreaTraceHit *out, int cap, bool *done, float *end_z)
{
    *done = false;
    if (end_z) *end_z = from[2];
    uint32_t cur = area_point_area(ag, from[0], from[1], from[2]);
    if (cur == NAV_NO_AREA) return 0;
    int n = 0;
    if (cap > 0) out[0] = (NavAreaTraceHit){ cur, { from[0], from[1], from[2] } };
    n = 1;
    float cs = ag->cs;
    float dx = to[0] - from[0], dy = to[1] - from[1];
    /* In double: the square of a float's distance may pass float's range. */
    double dlen = sqrt((double)dx * dx + (double)dy * dy);
    float len = (float)fmin(dlen, 1e30);
    /* Past the map's width plus height from a point on it is off the map
    ** (the walk stops there): a longer line is cut to that, so the step
    ** count stays an int however far `to` is (a script's 1e20). */
    float reach = (float)(ag->w + ag->h + 2) * cs;
    if (!isfinite(dlen)) return n; /* not done: no walk reaches it */
    if (dlen > reach) {
        dx = (float)(dx * (reach / dlen));
        dy = (float)(dy * (reach / dlen));
        len = reach;
    }
    int steps = (int)ceilf(len / (0.25f * cs));
    float z = from[2];
    for (int i = 1; i <= steps; i++) {
        float t = (float)i / (float)steps;
        float px = from[0] + dx * t, py = from[1] + dy * t;
        /* Follow the floor within a step of the current height: the
        ** floor's own height under the point, so that a long slope inside
        ** one area is followed down (or up) as a walker follows it. */
        float nz;
        uint32_t next = floor_under(ag, px, py, z + ag->cls.step, &nz);
        if (next == NAV_NO_AREA || fabsf(nz - z) > ag->cls.step + 1e-3f) return n;
        const NavArea *na = &ag->areas[next];
        z = nz;
        if (end_z) *end_z = z;
        if (next != cur) {
            if (n < cap) out[n] = (NavAreaTraceHit){ next, { px, py, z } };
            n++;
            cur = next;
            if (na->flags & stop_flags) return n;
        }
    }
    *done = true;
    return n;
}

/* }======= */

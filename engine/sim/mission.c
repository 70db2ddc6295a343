/*
** mission.c — random connected, placeable missions for a class (mission.h).
*/
#include "sim/mission.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/random.h"
#include "route/route.h"

/* A body width apart, and a little more, so crowds start untouched. */
#define MISSION_CROWD_GAP 0.25f

struct MissionPicker {
    NavSim *sim;
    const NavWorld *w;
    NavAreaGraph *ag;
    NavRouter *router;
    const NavClass *cls;
    int cls_index;
    uint32_t flags;
    float min_distance, quantum;
    uint32_t *areas;      /* dry ground areas, by index */
    uint64_t *cumulative; /* running total of their cells */
    uint32_t count;
    float (*keep_out)[4]; /* x0, y0, x1, y1 of entity footprints, grown by the radius */
    int keep_out_count;
    uint32_t *links; /* route extraction */
    int link_cap;
};

static bool dry_ground(const NavArea *a)
{
    return (a->flags & NAV_AREA_GROUND) &&
           !(a->flags & (NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME | NAV_AREA_CROUCH | NAV_AREA_LADDER)) &&
           a->contents == NAV_CONTENTS_FLOOR;
}

MissionPicker *mission_picker_create(NavSim *sim, const MissionDesc *desc, NavError *err)
{
    const NavWorld *w = sim_world(sim);
    if (desc->cls < 0 || desc->cls >= world_class_count(w)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "cls", "no class %d in %s", desc->cls, world_name(w));
        return NULL;
    }
    float q = desc->quantum > 0.0f ? desc->quantum : MISSION_DEFAULT_QUANTUM;
    int e2;
    if (frexpf(q, &e2) != 0.5f || q > 1.0f) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "quantum", "quantum %g is not 1, 1/2, 1/4, ... metres", (double)q);
        return NULL;
    }
    NavRouter *r = sim_router(sim, desc->cls, err);
    if (!r) return NULL;
    MissionPicker *p = nav_calloc(1, sizeof *p);
    if (!p) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the mission picker");
        return NULL;
    }
    p->sim = sim;
    p->w = w;
    p->router = r;
    p->ag = (NavAreaGraph *)router_graph(r);
    p->cls_index = desc->cls;
    p->cls = world_class(w, desc->cls);
    p->flags = desc->flags ? desc->flags : NAV_TFL_DEFAULT;
    p->min_distance = desc->min_distance > 0.0f ? desc->min_distance : MISSION_DEFAULT_MIN_DISTANCE;
    p->quantum = q;
    uint32_t n = area_count(p->ag);
    p->areas = nav_malloc(sizeof *p->areas * (n ? n : 1));
    p->cumulative = nav_malloc(sizeof *p->cumulative * (n ? n : 1));
    p->link_cap = (int)area_reach_count(p->ag) + 1;
    p->links = nav_malloc(sizeof *p->links * (size_t)p->link_cap);
    p->keep_out = nav_malloc(sizeof *p->keep_out * (size_t)(world_entity_count(w) + 1));
    if (!p->areas || !p->cumulative || !p->links || !p->keep_out) {
        mission_picker_destroy(p);
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the mission picker");
        return NULL;
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const NavArea *a = area_get(p->ag, i);
        if (!dry_ground(a)) continue;
        total += (uint64_t)(a->x1 - a->x0 + 1) * (uint64_t)(a->y1 - a->y0 + 1);
        p->areas[p->count] = i;
        p->cumulative[p->count++] = total;
    }
    if (!p->count) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "cls", "%s has no dry ground for class %s", world_name(w),
                      p->cls->name);
        mission_picker_destroy(p);
        return NULL;
    }
    float rad = p->cls->radius;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *en = world_entity(w, i);
        if (!entity_is_volume(en->type)) continue;
        float *k = p->keep_out[p->keep_out_count++];
        k[0] = en->mins[0] - rad, k[1] = en->mins[1] - rad;
        k[2] = en->maxs[0] + rad, k[3] = en->maxs[1] + rad;
    }
    return p;
}

void mission_picker_destroy(MissionPicker *p)
{
    if (!p) return;
    nav_free(p->areas);
    nav_free(p->cumulative);
    nav_free(p->links);
    nav_free(p->keep_out);
    nav_free(p);
}

int mission_class(const MissionPicker *p) { return p->cls_index; }
uint32_t mission_flags(const MissionPicker *p) { return p->flags; }

uint32_t mission_point_area(const MissionPicker *p, const float pt[3])
{
    return area_point_area(p->ag, pt[0], pt[1], pt[2]);
}

bool mission_point_free(const MissionPicker *p, const float pt[3])
{
    float out[3];
    /* One ring is enough to learn whether the centre itself is free: the
    ** centre is tried first and returned when free. */
    return sim_place_free(p->sim, p->cls_index, pt, 1, out) && out[0] == pt[0] && out[1] == pt[1];
}

static bool clear_of(const MissionPicker *p, const float pt[3], const float *taken, int n)
{
    for (int i = 0; i < p->keep_out_count; i++) {
        const float *k = p->keep_out[i];
        if (pt[0] > k[0] && pt[0] < k[2] && pt[1] > k[1] && pt[1] < k[3]) return false;
    }
    float gap = 2.0f * p->cls->radius + MISSION_CROWD_GAP;
    for (int i = 0; i < n; i++) {
        const float *t = &taken[3 * i];
        float dx = pt[0] - t[0], dy = pt[1] - t[1];
        if (dx * dx + dy * dy < gap * gap && fabsf(pt[2] - t[2]) < p->cls->height) return false;
    }
    return true;
}

/* The index of the first cumulative total above r (binary search). */
static uint32_t area_for(const MissionPicker *p, uint64_t r)
{
    uint32_t lo = 0, hi = p->count - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->cumulative[mid] > r) hi = mid;
        else lo = mid + 1;
    }
    return p->areas[lo];
}

/* One draw: a point on the lattice inside a random dry area, or false. */
static bool draw_point(MissionPicker *p, uint64_t *rng, const float *taken, int n, float out[3], uint32_t *area)
{
    uint64_t total = p->cumulative[p->count - 1];
    uint32_t ai = area_for(p, nav_rand_next(rng) % total);
    const NavArea *a = area_get(p->ag, ai);
    float cs = world_cell_size(p->w);
    double x = ((double)a->x0 + nav_rand_unit(rng) * (double)(a->x1 - a->x0 + 1)) * cs;
    double y = ((double)a->y0 + nav_rand_unit(rng) * (double)(a->y1 - a->y0 + 1)) * cs;
    float q = p->quantum;
    float pt[3] = { (float)floor(x / q + 0.5) * q, (float)floor(y / q + 0.5) * q, 0.0f };
    const NavFloor *f = world_floor_at(p->w, pt[0], pt[1], a->zmax + 0.05f, p->cls->step);
    if (!f || !isfinite(f->z) || f->contents != NAV_CONTENTS_FLOOR) return false;
    pt[2] = f->z;
    uint32_t got = area_point_area(p->ag, pt[0], pt[1], pt[2]);
    if (got == NAV_NO_AREA || !dry_ground(area_get(p->ag, got))) return false;
    if (!clear_of(p, pt, taken, n) || !mission_point_free(p, pt)) return false;
    memcpy(out, pt, sizeof pt);
    *area = got;
    return true;
}

bool mission_pick_point(MissionPicker *p, uint64_t *rng, const float *taken, int n, float out[3], uint32_t *area)
{
    for (int t = 0; t < MISSION_MAX_TRIES; t++)
        if (draw_point(p, rng, taken, n, out, area)) return true;
    return false;
}

uint32_t mission_route_time(MissionPicker *p, const float start[3], uint32_t sa, const float goal[3], uint32_t ga)
{
    if (sa == NAV_NO_AREA || ga == NAV_NO_AREA) return ROUTE_UNREACHABLE;
    if (sa == ga) return area_time_between(p->ag, sa, start, goal);
    NavRoute route;
    int k;
    if (NAV_FAILED(router_route_links(p->router, sa, start, ga, p->flags, p->links, p->link_cap, &k, &route)) ||
        k <= 0 || route.time == ROUTE_UNREACHABLE)
        return ROUTE_UNREACHABLE;
    const NavReach *last = area_reach(p->ag, p->links[k - 1]);
    uint64_t t = (uint64_t)route.time + area_time_between(p->ag, ga, last->end, goal);
    return t >= ROUTE_UNREACHABLE ? ROUTE_UNREACHABLE - 1 : (uint32_t)t;
}

static bool far_enough(const MissionPicker *p, const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz >= p->min_distance * p->min_distance;
}

bool mission_pick_start(MissionPicker *p, uint64_t *rng, const float goal[3], uint32_t goal_area, const float *taken,
                        int n, NavMission *out)
{
    for (int t = 0; t < MISSION_MAX_TRIES; t++) {
        float s[3];
        uint32_t sa;
        if (!draw_point(p, rng, taken, n, s, &sa) || !far_enough(p, s, goal)) continue;
        uint32_t time = mission_route_time(p, s, sa, goal, goal_area);
        if (time == ROUTE_UNREACHABLE) continue;
        memcpy(out->start, s, sizeof s);
        memcpy(out->goal, goal, sizeof out->goal);
        out->start_area = sa;
        out->goal_area = goal_area;
        out->time = time;
        return true;
    }
    return false;
}

bool mission_pick(MissionPicker *p, uint64_t *rng, const float *taken, int n, NavMission *out)
{
    for (int t = 0; t < MISSION_MAX_TRIES; t++) {
        float g[3], s[3];
        uint32_t ga, sa;
        if (!draw_point(p, rng, NULL, 0, g, &ga)) continue;
        if (!draw_point(p, rng, taken, n, s, &sa) || !far_enough(p, s, g)) continue;
        uint32_t time = mission_route_time(p, s, sa, g, ga);
        if (time == ROUTE_UNREACHABLE) continue;
        memcpy(out->start, s, sizeof s);
        memcpy(out->goal, g, sizeof g);
        out->start_area = sa;
        out->goal_area = ga;
        out->time = time;
        return true;
    }
    return false;
}

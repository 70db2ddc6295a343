/*
** navbot_api.c — the public C API (include/navbot.h) over the engine:
** errors, travel flags, worlds (a map with a query simulation that owns
** each class's area graph, router and grid), graphs, routes, grid paths,
** traces and sampling. Sessions and pictures: navbot_session.c.
**
** A NavbotWorld keeps a NavSim without bots for its queries: the sim
** already builds graphs, routers and the grid on first use with the
** entities' links and obstructions, so the API's answers are the ones a
** bot in a session gets.
*/
#include "api_internal.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua/lua_paths.h"
#include "area/area.h"
#include "core/alloc.h"
#include "core/nav.h"
#include "core/random.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"
#include "route/route.h"
#include "sim/sim.h"


/* {======= status and errors ======= */

static const char *const STATUS_NAMES[NAVBOT_STATUS_COUNT] = {
    "ok",      "bad parameter", "input/output error", "bad format", "stale compiled graph", "out of memory",
    "no area", "no route",      "brain failed",       "no room",
};

const char *navbot_status_name(NavbotStatus status)
{
    return (unsigned)status < NAVBOT_STATUS_COUNT ? STATUS_NAMES[status] : "unknown status";
}

const char *navbot_version(void) { return NAVBOT_VERSION; }

NavbotStatus navbot_bundled_path(const char *relative, char *out, size_t cap)
{
    if (!out || cap == 0) return NAVBOT_E_PARAM;
    out[0] = '\0';
    char root[PATH_MAX];
    if (!nav_lua_bundled_root(root, sizeof root)) return NAVBOT_E_IO;
    int n = relative && relative[0] ? snprintf(out, cap, "%s/%s", root, relative) : snprintf(out, cap, "%s", root);
    if (n < 0 || (size_t)n >= cap) {
        out[0] = '\0';
        return NAVBOT_E_PARAM;
    }
    return NAVBOT_OK;
}

NavbotStatus navbot_set_allocator(const NavbotAllocator *a, NavbotError *err)
{
    api_error_clear(err);
    NavAllocator na = { 0 };
    if (a) na = (NavAllocator){ .fn = a->fn, .user = a->user };
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(nav_set_allocator(&na, &e))) return api_error_from(err, &e);
    return NAVBOT_OK;
}

NavbotAllocator navbot_get_allocator(void)
{
    NavAllocator a = nav_get_allocator();
    return (NavbotAllocator){ .fn = a.fn, .user = a.user };
}

NavbotStatus api_status_of(const NavError *e)
{
    if (e->status & NAV_E_NOMEM) return NAVBOT_E_NOMEM;
    if (e->status & NAV_E_IO) return NAVBOT_E_IO;
    if (strncmp(e->message, "stale", 5) == 0) return NAVBOT_E_STALE;
    if (e->status & NAV_E_PARAM) return NAVBOT_E_PARAM;
    return NAVBOT_E_FORMAT;
}

void api_error_clear(NavbotError *err)
{
    if (err) memset(err, 0, sizeof *err);
}

/* err from an engine error; returns its status. */
NavbotStatus api_error_from(NavbotError *err, const NavError *e)
{
    NavbotStatus st = api_status_of(e);
    if (!err) return st;
    memset(err, 0, sizeof *err);
    err->status = st;
    snprintf(err->file, sizeof err->file, "%s", e->file);
    err->line = e->line;
    snprintf(err->field, sizeof err->field, "%s", e->field);
    nav_error_format(e, err->text, sizeof err->text);
    return st;
}


NavbotStatus api_error_set(NavbotError *err, NavbotStatus st, const char *field, const char *fmt, ...)
{
    if (!err) return st;
    memset(err, 0, sizeof *err);
    err->status = st;
    if (field) snprintf(err->field, sizeof err->field, "%s", field);
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (field) snprintf(err->text, sizeof err->text, "%s: %s", field, msg);
    else snprintf(err->text, sizeof err->text, "%s", msg);
    return st;
}

/* A handle's error text. */
NavbotStatus api_fail(char *buf, NavbotStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, API_ERROR_MAX, fmt, ap);
    va_end(ap);
    return st;
}

NavbotStatus api_fail_nav(char *buf, const NavError *e)
{
    nav_error_format(e, buf, API_ERROR_MAX);
    return api_status_of(e);
}

bool api_finite3(const float p[3]) { return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]); }

/* }======= */

/* {======= travel flags ======= */

NavbotStatus navbot_travel_flags(const char *names, uint32_t *flags, NavbotError *err)
{
    api_error_clear(err);
    if (!names || !flags)
        return api_error_set(err, NAVBOT_E_PARAM, NULL, "navbot_travel_flags: names and flags must not be NULL");
    uint32_t out = 0;
    const char *p = names;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[32];
        uint32_t bits = 0;
        if (len > 0 && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            bits = route_flag_of_name(name);
        }
        if (!bits) {
            char list[512];
            size_t n = 0;
            list[0] = '\0';
            uint32_t b;
            const char *word;
            for (int t = 0; t < NAV_TRAVEL_COUNT && n < sizeof list; t++)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s, ", area_travel_name((NavTravelType)t));
            for (int k = 0; (word = route_flag_word(k, &b)) != NULL && n < sizeof list; k++)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s, ", word);
            if (n < sizeof list) snprintf(list + n, sizeof list - n, "default");
            if (len == 0)
                return api_error_set(err, NAVBOT_E_PARAM, "flags", "'%s' has an empty name; the names are: %s", names,
                                     list);
            return api_error_set(err, NAVBOT_E_PARAM, "flags", "unknown travel flag '%.*s'; the names are: %s",
                                 (int)len, p, list);
        }
        out |= bits;
        if (!end) break;
        p = end + 1;
    }
    *flags = out;
    return NAVBOT_OK;
}

const char *navbot_travel_name(int t)
{
    return t >= 0 && t < NAV_TRAVEL_COUNT ? area_travel_name((NavTravelType)t) : NULL;
}

/* }======= */

/* {======= worlds ======= */

static NavbotStatus world_wrap(NavWorld *nw, const NavbotWorldDesc *desc, NavbotWorld **out, NavbotError *err)
{
    NavError e;
    nav_error_clear(&e);
    NavbotWorld *w = nav_calloc(1, sizeof *w);
    int classes = world_class_count(nw);
    if (w) w->graph_file = nav_calloc((size_t)(classes ? classes : 1), sizeof *w->graph_file);
    if (!w || !w->graph_file) {
        if (w) nav_free(w->graph_file);
        nav_free(w);
        world_destroy(nw);
        return api_error_set(err, NAVBOT_E_NOMEM, NULL, "out of memory for the world");
    }
    w->w = nw;
    w->rng = desc ? desc->seed : 0;
    w->sim =
        sim_create(nw, &(NavSimDesc){ .seed = w->rng, .route_cache_bytes = desc ? desc->route_cache_bytes : 0 }, &e);
    if (!w->sim) {
        nav_free(w->graph_file);
        nav_free(w);
        world_destroy(nw);
        return api_error_from(err, &e);
    }
    *out = w;
    return NAVBOT_OK;
}

static NavMapOptions map_options(const NavbotWorldDesc *desc)
{
    NavMapOptions o = { 0 };
    if (desc) {
        o.lua_memory_limit = desc->lua_memory_limit;
        o.lua_instruction_limit = desc->lua_instruction_limit;
    }
    return o;
}

NavbotStatus navbot_world_load(const char *path, const NavbotWorldDesc *desc, NavbotWorld **out, NavbotError *err)
{
    api_error_clear(err);
    if (out) *out = NULL;
    if (!out) return api_error_set(err, NAVBOT_E_PARAM, "out", "navbot_world_load: out must not be NULL");
    if (!path || !path[0]) return api_error_set(err, NAVBOT_E_PARAM, "path", "navbot_world_load: no map path given");
    NavError e;
    nav_error_clear(&e);
    NavMapOptions o = map_options(desc);
    NavWorld *nw = map_load_file(path, &o, &e);
    if (!nw) return api_error_from(err, &e);
    return world_wrap(nw, desc, out, err);
}

NavbotStatus navbot_world_load_string(const char *source, size_t len, const char *name, const NavbotWorldDesc *desc,
                                      NavbotWorld **out, NavbotError *err)
{
    api_error_clear(err);
    if (out) *out = NULL;
    if (!out) return api_error_set(err, NAVBOT_E_PARAM, "out", "navbot_world_load_string: out must not be NULL");
    if (!source) return api_error_set(err, NAVBOT_E_PARAM, "source", "navbot_world_load_string: no source text");
    if (len == 0) len = strlen(source);
    NavError e;
    nav_error_clear(&e);
    NavMapOptions o = map_options(desc);
    o.format = NAV_MAP_LUA;
    NavWorld *nw = map_load_buffer(source, len, name && name[0] ? name : "map", &o, &e);
    if (!nw) return api_error_from(err, &e);
    return world_wrap(nw, desc, out, err);
}

void navbot_world_destroy(NavbotWorld *w)
{
    if (!w) return;
    sim_destroy(w->sim);
    int classes = world_class_count(w->w);
    for (int c = 0; c < classes; c++) nav_free(w->graph_file[c]);
    nav_free(w->graph_file);
    nav_free(w->links);
    world_destroy(w->w);
    nav_free(w);
}

const char *navbot_world_error(const NavbotWorld *w) { return w ? w->error : ""; }

NavbotStatus navbot_world_info(const NavbotWorld *w, NavbotWorldInfo *out)
{
    if (!w || !out) return NAVBOT_E_PARAM;
    memset(out, 0, sizeof *out);
    out->name = world_name(w->w);
    out->source = world_source(w->w);
    out->width = world_width(w->w);
    out->height = world_height(w->w);
    out->cell_size = world_cell_size(w->w);
    out->size[0] = (float)out->width * out->cell_size;
    out->size[1] = (float)out->height * out->cell_size;
    out->class_count = world_class_count(w->w);
    out->entity_count = world_entity_count(w->w);
    return NAVBOT_OK;
}

const char *navbot_world_class_name(const NavbotWorld *w, int i)
{
    if (!w || i < 0 || i >= world_class_count(w->w)) return NULL;
    return world_class(w->w, i)->name;
}

int navbot_world_find_class(const NavbotWorld *w, const char *name)
{
    if (!w) return -1;
    if (!name || !name[0]) return world_class_count(w->w) > 0 ? 0 : -1;
    return world_find_class(w->w, name);
}

/* The class index, checked; the world's error set when bad. */
static bool class_ok(NavbotWorld *w, int cls)
{
    if (cls >= 0 && cls < world_class_count(w->w)) return true;
    api_fail(w->error, NAVBOT_E_PARAM, "class: no class %d in %s (it has %d)", cls, world_name(w->w),
             world_class_count(w->w));
    return false;
}

NavbotStatus navbot_world_entity_point(NavbotWorld *w, const char *name, float out[3])
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!name || !out) return api_fail(w->error, NAVBOT_E_PARAM, "name and out must not be NULL");
    int i = world_find_entity(w->w, name);
    if (i < 0) return api_fail(w->error, NAVBOT_E_PARAM, "name: no entity '%s' in %s", name, world_name(w->w));
    vec3 o;
    entity_origin(world_entity(w->w, i), o);
    out[0] = o[0];
    out[1] = o[1];
    out[2] = o[2];
    return NAVBOT_OK;
}

/* The class's graph, built if needed; NULL with the world's error set. */
/* Class cls's graph (router), built on first use; NULL with *st set (and
** the handle's error) when the class is bad or the build failed. */
static NavAreaGraph *world_graph(NavbotWorld *w, int cls, NavbotStatus *st)
{
    *st = NAVBOT_E_PARAM;
    if (!class_ok(w, cls)) return NULL;
    NavError e;
    nav_error_clear(&e);
    NavAreaGraph *ag = sim_graph(w->sim, cls, &e);
    if (!ag) *st = api_fail_nav(w->error, &e);
    return ag;
}

static NavRouter *world_router(NavbotWorld *w, int cls, NavbotStatus *st)
{
    if (!world_graph(w, cls, st)) return NULL;
    NavError e;
    nav_error_clear(&e);
    NavRouter *r = sim_router(w->sim, cls, &e);
    if (!r) *st = api_fail_nav(w->error, &e);
    return r;
}

NavbotStatus navbot_world_floor_z(NavbotWorld *w, int cls, float x, float y, float *z)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!z || !isfinite(x) || !isfinite(y))
        return api_fail(w->error, NAVBOT_E_PARAM, "point: x and y must be finite numbers");
    NavbotStatus st;
    NavAreaGraph *ag = world_graph(w, cls, &st);
    if (!ag) return st;
    int cx, cy, n;
    if (!world_point_cell(w->w, x, y, &cx, &cy))
        return api_fail(w->error, NAVBOT_E_PARAM, "point: (%g, %g) is off the map (0..%g, 0..%g)", (double)x, (double)y,
                        (double)(world_width(w->w) * world_cell_size(w->w)),
                        (double)(world_height(w->w) * world_cell_size(w->w)));
    const NavFloor *f = world_column(w->w, cx, cy, &n);
    for (int i = 0; i < n; i++)
        if (area_of_floor(ag, cx, cy, i) != NAV_NO_AREA) {
            *z = world_standing_height(&f[i]);
            return NAVBOT_OK;
        }
    for (int i = 0; i < n; i++)
        if (f[i].contents != NAV_CONTENTS_VOID) {
            *z = world_standing_height(&f[i]);
            return NAVBOT_OK;
        }
    return api_fail(w->error, NAVBOT_E_PARAM, "point: (%g, %g) has no floor (a wall or a void)", (double)x, (double)y);
}

/* }======= */

/* {======= area graphs ======= */

NavbotStatus navbot_world_compile(NavbotWorld *w, int cls, NavbotGraphInfo *out)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    NavbotStatus built;
    NavAreaGraph *ag = world_graph(w, cls, &built);
    if (!ag) return built;
    if (out) {
        NavAreaStats st;
        area_stats(ag, &st);
        memset(out, 0, sizeof *out);
        out->areas = st.areas;
        out->links = st.reaches;
        out->clusters = st.clusters;
        out->portals = st.portals;
        out->loaded = w->graph_file[cls] != NULL;
        out->compile_ms = out->loaded ? 0.0 : st.compile_ms;
    }
    return NAVBOT_OK;
}

NavbotStatus navbot_world_save_graph(NavbotWorld *w, int cls, const char *path)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!path || !path[0]) return api_fail(w->error, NAVBOT_E_PARAM, "path: no file name given");
    NavbotStatus st;
    NavAreaGraph *ag = world_graph(w, cls, &st);
    if (!ag) return st;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(area_save(ag, path, &e))) return api_fail_nav(w->error, &e);
    return NAVBOT_OK;
}

NavbotStatus navbot_world_load_graph(NavbotWorld *w, int cls, const char *path)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!path || !path[0]) return api_fail(w->error, NAVBOT_E_PARAM, "path: no file name given");
    if (!class_ok(w, cls)) return NAVBOT_E_PARAM;
    NavError e;
    nav_error_clear(&e);
    char *copy = nav_strdup(path);
    if (!copy) return api_fail(w->error, NAVBOT_E_NOMEM, "out of memory loading a graph");
    NavAreaGraph *ag = area_load(w->w, cls, path, &e);
    if (!ag) {
        nav_free(copy);
        return api_fail_nav(w->error, &e);
    }
    if (!sim_set_graph(w->sim, cls, ag, &e)) {
        area_destroy(ag);
        nav_free(copy);
        return api_fail_nav(w->error, &e);
    }
    nav_free(w->graph_file[cls]);
    w->graph_file[cls] = copy;
    return NAVBOT_OK;
}

/* }======= */

/* {======= routes ======= */

/* p placed on class ag's areas: the area under it (standing on that
** area's floor in its cell) or the nearest within API_SNAP_RADIUS. */
static uint32_t place_point(const NavAreaGraph *ag, const float p[3], float out[3])
{
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    if (a != NAV_NO_AREA) {
        memcpy(out, p, 3 * sizeof *out);
        const NavWorld *w = area_world(ag);
        int cx, cy, n;
        if (world_point_cell(w, p[0], p[1], &cx, &cy)) {
            const NavFloor *f = world_column(w, cx, cy, &n);
            for (int i = 0; i < n; i++)
                if (area_of_floor(ag, cx, cy, i) == a) out[2] = world_standing_height(&f[i]);
        }
        return a;
    }
    return area_nearest_area(ag, p[0], p[1], p[2], API_SNAP_RADIUS, out);
}

/* The route buffer big enough for any route of ag (allocated once). */
static bool links_room(NavbotWorld *w, const NavAreaGraph *ag)
{
    uint32_t need = area_reach_count(ag) + 1;
    if (w->links_cap >= need) return true;
    uint32_t *n = nav_realloc(w->links, need * sizeof *n);
    if (!n) return false;
    w->links = n;
    w->links_cap = need;
    return true;
}

typedef struct RouteCore {
    const NavAreaGraph *ag;
    uint32_t from_area, to_area;
    float from[3], to[3];
    int links;
    float time;
} RouteCore;

static NavbotStatus route_core(NavbotWorld *w, const NavbotRouteQuery *q, RouteCore *rc)
{
    if (!q) return api_fail(w->error, NAVBOT_E_PARAM, "query must not be NULL");
    if (!api_finite3(q->from))
        return api_fail(w->error, NAVBOT_E_PARAM, "from: the point must be three finite numbers");
    if (!api_finite3(q->to)) return api_fail(w->error, NAVBOT_E_PARAM, "to: the point must be three finite numbers");
    NavbotStatus st;
    NavRouter *r = world_router(w, q->cls, &st);
    if (!r) return st;
    const NavAreaGraph *ag = router_graph(r);
    rc->ag = ag;
    rc->from_area = place_point(ag, q->from, rc->from);
    if (rc->from_area == NAV_NO_AREA)
        return api_fail(w->error, NAVBOT_E_NO_AREA,
                        "from: (%.2f, %.2f, %.2f) is on no area of class %s, nor within %g m of one",
                        (double)q->from[0], (double)q->from[1], (double)q->from[2], world_class(w->w, q->cls)->name,
                        (double)API_SNAP_RADIUS);
    rc->to_area = place_point(ag, q->to, rc->to);
    if (rc->to_area == NAV_NO_AREA)
        return api_fail(w->error, NAVBOT_E_NO_AREA,
                        "to: (%.2f, %.2f, %.2f) is on no area of class %s, nor within %g m of one", (double)q->to[0],
                        (double)q->to[1], (double)q->to[2], world_class(w->w, q->cls)->name, (double)API_SNAP_RADIUS);
    if (!links_room(w, ag)) return api_fail(w->error, NAVBOT_E_NOMEM, "out of memory for a route");
    uint32_t flags = q->flags ? q->flags : NAV_TFL_DEFAULT;
    NavRoute route;
    int n;
    if (NAV_FAILED(router_route_links(r, rc->from_area, rc->from, rc->to_area, flags, w->links, (int)w->links_cap, &n,
                                      &route)))
        return api_fail(w->error, NAVBOT_E_PARAM, "route: an area out of range");
    if (route.time == ROUTE_UNREACHABLE)
        return api_fail(w->error, NAVBOT_E_NO_ROUTE,
                        "no route from (%.2f, %.2f, %.2f) to (%.2f, %.2f, %.2f) with these flags", (double)rc->from[0],
                        (double)rc->from[1], (double)rc->from[2], (double)rc->to[0], (double)rc->to[1],
                        (double)rc->to[2]);
    rc->links = n;
    /* The router's time ends on entering the goal's area; the rest is a
    ** straight walk inside that (convex) area to the point. */
    const float *last = n > 0 ? area_reach(ag, w->links[n - 1])->end : rc->from;
    uint32_t inside = area_time_between(ag, rc->to_area, last, rc->to);
    rc->time = (float)(route.time + inside) / 100.0f;
    return NAVBOT_OK;
}

static void put_point(NavbotRoute *out, const float p[3], int travel)
{
    if (out->count < out->cap && out->points) {
        NavbotWaypoint *wp = &out->points[out->count];
        memcpy(wp->pos, p, sizeof wp->pos);
        wp->travel = travel;
    }
    out->count++;
}

NavbotStatus navbot_route(NavbotWorld *w, const NavbotRouteQuery *q, NavbotRoute *out)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!out) return api_fail(w->error, NAVBOT_E_PARAM, "out must not be NULL");
    if (out->cap < 0 || (out->cap > 0 && !out->points))
        return api_fail(w->error, NAVBOT_E_PARAM, "out: points is NULL or cap negative");
    out->count = 0;
    out->links = 0;
    out->time = 0.0f;
    RouteCore rc;
    NavbotStatus st = route_core(w, q, &rc);
    if (st != NAVBOT_OK) return st;
    memcpy(out->from, rc.from, sizeof out->from);
    memcpy(out->to, rc.to, sizeof out->to);
    out->time = rc.time;
    out->links = rc.links;
    put_point(out, rc.from, -1);
    for (int i = 0; i < rc.links; i++) {
        const NavReach *re = area_reach(rc.ag, w->links[i]);
        put_point(out, re->start, -1);
        put_point(out, re->end, (int)re->type);
    }
    put_point(out, rc.to, -1);
    return NAVBOT_OK;
}

NavbotStatus navbot_route_time(NavbotWorld *w, const NavbotRouteQuery *q, float *seconds)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!seconds) return api_fail(w->error, NAVBOT_E_PARAM, "seconds must not be NULL");
    RouteCore rc;
    NavbotStatus st = route_core(w, q, &rc);
    *seconds = st == NAVBOT_OK ? rc.time : -1.0f;
    return st;
}

/* }======= */

/* {======= grid, traces, sampling ======= */

NavbotStatus navbot_grid_path(NavbotWorld *w, int cls, float x0, float y0, float x1, float y1, bool smooth,
                              NavbotGridPath *out)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!out) return api_fail(w->error, NAVBOT_E_PARAM, "out must not be NULL");
    if (out->cap < 0 || (out->cap > 0 && !out->points))
        return api_fail(w->error, NAVBOT_E_PARAM, "out: points is NULL or cap negative");
    out->count = 0;
    out->length = 0.0f;
    out->goal_moved = out->start_moved = false;
    if (!isfinite(x0) || !isfinite(y0))
        return api_fail(w->error, NAVBOT_E_PARAM, "from: x and y must be finite numbers");
    if (!isfinite(x1) || !isfinite(y1)) return api_fail(w->error, NAVBOT_E_PARAM, "to: x and y must be finite numbers");
    if (!class_ok(w, cls)) return NAVBOT_E_PARAM;
    NavError e;
    nav_error_clear(&e);
    struct NavGrid *g = sim_grid(w->sim, &e);
    if (!g) return api_fail_nav(w->error, &e);
    int cx, cy;
    if (!world_point_cell(w->w, x0, y0, &cx, &cy))
        return api_fail(w->error, NAVBOT_E_PARAM, "from: (%g, %g) is off the map", (double)x0, (double)y0);
    if (!world_point_cell(w->w, x1, y1, &cx, &cy))
        return api_fail(w->error, NAVBOT_E_PARAM, "to: (%g, %g) is off the map", (double)x1, (double)y1);
    SimGridPath p;
    GridGoal goal = grid_goal_point(x1, y1);
    if (NAV_FAILED(sim_grid_path(w->sim, cls, x0, y0, &goal, &(SimGridQuery){ .smooth = smooth }, &p, &e)))
        return api_fail_nav(w->error, &e);
    if ((p.flags & GRID_PATH_NO_PATH) || p.count == 0)
        return api_fail(w->error, NAVBOT_E_NO_ROUTE, "no grid path for class %s from (%g, %g)",
                        world_class(w->w, cls)->name, (double)x0, (double)y0);
    float cs = grid_cell_size(g);
    for (int i = 0; i < p.count && i < out->cap; i++) {
        out->points[i][0] = ((float)p.points[i].x + 0.5f) * cs;
        out->points[i][1] = ((float)p.points[i].y + 0.5f) * cs;
    }
    out->count = p.count;
    out->length = (float)p.length;
    out->goal_moved = (p.flags & GRID_PATH_GOAL_MOVED) != 0;
    out->start_moved = (p.flags & GRID_PATH_START_MOVED) != 0;
    return NAVBOT_OK;
}

NavbotStatus navbot_trace(NavbotWorld *w, const float mins[3], const float maxs[3], const float start[3],
                          const float delta[3], NavbotTrace *out)
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!mins || !maxs || !start || !delta || !out)
        return api_fail(w->error, NAVBOT_E_PARAM, "mins, maxs, start, delta and out must not be NULL");
    if (!api_finite3(mins) || !api_finite3(maxs) || !api_finite3(start) || !api_finite3(delta))
        return api_fail(w->error, NAVBOT_E_PARAM, "trace: every number must be finite");
    if (!(mins[0] < maxs[0] && mins[1] < maxs[1] && mins[2] <= maxs[2]))
        return api_fail(w->error, NAVBOT_E_PARAM, "mins, maxs: an empty box (mins must be below maxs)");
    NavTrace t;
    sim_trace(w->sim, mins, maxs, start, delta, -1, &t);
    memset(out, 0, sizeof *out);
    out->fraction = t.fraction;
    memcpy(out->end, t.end, sizeof out->end);
    memcpy(out->normal, t.normal, sizeof out->normal);
    out->hit = t.hit;
    out->start_solid = t.start_solid;
    out->world = t.hit && t.is_static;
    return NAVBOT_OK;
}

/* Squared horizontal distance from (x, y) to the nearest point of an
** area's rectangle. */
static float area_dist2(const NavArea *a, float cs, float x, float y)
{
    float lx = (float)a->x0 * cs, hx = (float)(a->x1 + 1) * cs, ly = (float)a->y0 * cs, hy = (float)(a->y1 + 1) * cs;
    float dx = x < lx ? lx - x : x > hx ? x - hx : 0.0f;
    float dy = y < ly ? ly - y : y > hy ? y - hy : 0.0f;
    return dx * dx + dy * dy;
}

NavbotStatus navbot_world_random_point(NavbotWorld *w, int cls, const float near[3], float radius, float out[3])
{
    if (!w) return NAVBOT_E_PARAM;
    w->error[0] = '\0';
    if (!near || !out) return api_fail(w->error, NAVBOT_E_PARAM, "near and out must not be NULL");
    if (!api_finite3(near)) return api_fail(w->error, NAVBOT_E_PARAM, "near: the point must be three finite numbers");
    if (!isfinite(radius) || radius < 0.0f)
        return api_fail(w->error, NAVBOT_E_PARAM, "radius: must be a number >= 0 (0: anywhere), got %g",
                        (double)radius);
    NavbotStatus built;
    NavRouter *r = world_router(w, cls, &built);
    if (!r) return built;
    const NavAreaGraph *ag = router_graph(r);
    float p[3];
    uint32_t start = place_point(ag, near, p);
    if (start == NAV_NO_AREA)
        return api_fail(w->error, NAVBOT_E_NO_AREA, "near: (%.2f, %.2f, %.2f) is on no area of class %s",
                        (double)near[0], (double)near[1], (double)near[2], world_class(w->w, cls)->name);
    uint32_t n = area_count(ag);
    uint32_t *cand = nav_malloc((n ? n : 1) * sizeof *cand);
    uint64_t *weight = nav_malloc((n ? n : 1) * sizeof *weight);
    if (!cand || !weight) {
        nav_free(cand);
        nav_free(weight);
        return api_fail(w->error, NAVBOT_E_NOMEM, "out of memory sampling a point");
    }
    float cs = world_cell_size(w->w);
    float r2 = radius * radius;
    uint32_t k = 0;
    uint64_t total = 0;
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = area_get(ag, a);
        if (!(ar->flags & NAV_AREA_GROUND) || (ar->flags & (NAV_AREA_LAVA | NAV_AREA_SLIME))) continue;
        if (radius > 0.0f && area_dist2(ar, cs, p[0], p[1]) > r2) continue;
        NavRoute q;
        if (NAV_FAILED(router_route(r, start, p, a, NAV_TFL_DEFAULT, &q)) || q.time == ROUTE_UNREACHABLE) continue;
        total += (uint64_t)(ar->x1 - ar->x0 + 1) * (uint64_t)(ar->y1 - ar->y0 + 1);
        cand[k] = a;
        weight[k++] = total;
    }
    NavbotStatus st = NAVBOT_E_NO_ROUTE;
    /* An area by its cell count, then a cell in it (inside the radius). */
    for (int tries = 0; k > 0 && tries < 64 && st != NAVBOT_OK; tries++) {
        uint64_t pick = nav_rand_next(&w->rng) % total;
        uint32_t lo = 0, hi = k - 1;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (weight[mid] > pick) hi = mid;
            else lo = mid + 1;
        }
        const NavArea *ar = area_get(ag, cand[lo]);
        int cx = ar->x0 + (int)(nav_rand_next(&w->rng) % (uint64_t)(ar->x1 - ar->x0 + 1));
        int cy = ar->y0 + (int)(nav_rand_next(&w->rng) % (uint64_t)(ar->y1 - ar->y0 + 1));
        float x, y;
        world_cell_center(w->w, cx, cy, &x, &y);
        if (radius > 0.0f && (x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1]) > r2) continue;
        int fc;
        const NavFloor *f = world_column(w->w, cx, cy, &fc);
        for (int i = 0; i < fc; i++)
            if (area_of_floor(ag, cx, cy, i) == cand[lo]) {
                out[0] = x;
                out[1] = y;
                out[2] = world_standing_height(&f[i]);
                st = NAVBOT_OK;
            }
    }
    nav_free(cand);
    nav_free(weight);
    if (st != NAVBOT_OK)
        api_fail(w->error, st, "no reachable floor within %g m of (%.2f, %.2f, %.2f)", (double)radius, (double)p[0],
                 (double)p[1], (double)p[2]);
    return st;
}

/* }======= */

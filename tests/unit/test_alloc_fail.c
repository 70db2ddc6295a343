/*
** test_alloc_fail.c — every allocation of an operation refused in turn:
** loading a native Lua map, a Tiled map and a Moving AI map, generating
** one, compiling an area graph,
** writing and reading a .nav file, routing (cold, and under a cache cap
** so small that every query evicts), adding an obstacle to a router, and
** a grid search. The loop and its checks: alloc_fail_support.h.
**
** The oracles: a run that says it succeeded must give what the run with
** nothing failing gives (the same world, the same graph, bytes, route
** times, path), and after any run the state must still answer: a route
** query after a refused obstacle matches the plain Dijkstra
** (route_dijkstra) on a router that never saw that obstacle.
*/
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "alloc_fail_support.h"

#include "area/area.h"
#include "core/fileio.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"
#include "navbot.h"
#include "route/route.h"

/* The failing allocator is the process's from the start: the worlds and
** graphs made before the loops are its blocks too. */
TestSuite(alloc_fail, .init = fail_alloc_install);

/* {======= helpers ======= */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* What a loaded world is: its size, floors, classes and entities. */
static uint64_t world_digest(const NavWorld *w)
{
    uint64_t h = 1469598103934665603ull;
    int dims[4] = { world_width(w), world_height(w), world_class_count(w), world_entity_count(w) };
    h = fnv(h, dims, sizeof dims);
    const uint32_t *start;
    const NavFloor *floors = world_floor_store(w, &start);
    uint32_t total = world_floor_total(w);
    h = fnv(h, floors, total * sizeof *floors);
    h = fnv(h, start, ((size_t)dims[0] * (size_t)dims[1] + 1) * sizeof *start);
    for (int i = 0; i < dims[2]; i++) h = fnv(h, world_class(w, i), sizeof(NavClass));
    for (int i = 0; i < dims[3]; i++) h = fnv(h, world_entity(w, i)->name, strlen(world_entity(w, i)->name));
    h = fnv(h, world_description(w), strlen(world_description(w)));
    h = fnv(h, world_author(w), strlen(world_author(w)));
    return h;
}

static NavWorld *load_or_fail(const char *path)
{
    fail_alloc.metering = false;
    return test_load_map(path);
}

/* }======= */

/* {======= loading maps ======= */

typedef struct LoadCtx {
    const char *path;
    NavWorld *w;
    uint64_t want;
} LoadCtx;

static LoadCtx load_ctx;

static void *load_setup(void)
{
    load_ctx.w = NULL;
    return &load_ctx;
}

static NavStatus load_run(void *p, NavError *err)
{
    LoadCtx *c = p;
    c->w = map_load_file(c->path, NULL, err);
    return c->w ? NAV_OK : err->status;
}

static void load_check(void *p, bool ok, bool failed)
{
    LoadCtx *c = p;
    cr_assert_eq(ok, c->w != NULL);
    if (ok) cr_assert_eq(world_digest(c->w), c->want, "%s: loaded with a refusal, but another world", c->path);
}

static void load_teardown(void *p)
{
    LoadCtx *c = p;
    world_destroy(c->w);
    c->w = NULL;
}

static void fail_each_load(const char *path, const char *name)
{
    NavWorld *w = load_or_fail(path);
    load_ctx = (LoadCtx){ .path = path, .want = world_digest(w) };
    world_destroy(w);
    alloc_fail_each(&(FailOp){
        .name = name, .setup = load_setup, .run = load_run, .check = load_check, .teardown = load_teardown });
}

Test(alloc_fail, loading_a_lua_map) { fail_each_load("maps/arena.lua", "load maps/arena.lua"); }
Test(alloc_fail, loading_a_mesh_map) { fail_each_load("maps/house.obj", "load maps/house.obj"); }

/* Tiled's JSON (cJSON's own blocks are the C library's, not metered) and
** Tiled's Lua export. */
Test(alloc_fail, loading_a_tiled_map)
{
    fail_each_load("maps/tiled/fort.tmj", "load maps/tiled/fort.tmj");
    fail_each_load("maps/tiled/fort.lua", "load maps/tiled/fort.lua");
}

/* A generated building: map_generate_building, the loaders' third kind. */
static NavStatus generate_run(void *p, NavError *err)
{
    LoadCtx *c = p;
    c->w = map_generate_building(64, 48, 2, 5, err);
    return c->w ? NAV_OK : err->status;
}

Test(alloc_fail, generating_a_map)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_generate_building(64, 48, 2, 5, &err);
    cr_assert_not_null(w, "%s", err.message);
    load_ctx = (LoadCtx){ .path = "generated building", .want = world_digest(w) };
    world_destroy(w);
    alloc_fail_each(&(FailOp){ .name = "map_generate_building 64x48x2",
                               .setup = load_setup,
                               .run = generate_run,
                               .check = load_check,
                               .teardown = load_teardown });
}

Test(alloc_fail, loading_a_movingai_map)
{
    char path[512];
    fail_each_load(TEST_DATA_PATH(path, "movingai/lak303d.map"), "load movingai/lak303d.map");
}

/* }======= */

/* {======= area graphs and .nav files ======= */

/* One world and its reference graph for the tests below (unmetered). */
typedef struct GraphCtx {
    NavWorld *w;
    int cls;
    NavAreaGraph *want; /* compiled with nothing failing */
    NavAreaGraph *got;
    uint8_t *bytes, *want_bytes;
    size_t len, want_len;
    char path[256];
} GraphCtx;

static GraphCtx graph_ctx;

static void graph_begin(const char *map)
{
    memset(&graph_ctx, 0, sizeof graph_ctx);
    graph_ctx.w = load_or_fail(map);
    graph_ctx.cls = world_find_class(graph_ctx.w, "human");
    cr_assert_geq(graph_ctx.cls, 0);
    NavError err;
    nav_error_clear(&err);
    graph_ctx.want = area_build(graph_ctx.w, graph_ctx.cls, NULL, &err);
    cr_assert_not_null(graph_ctx.want, "%s", err.message);
    cr_assert(NAV_SUCCEEDED(area_save_buffer(graph_ctx.want, &graph_ctx.want_bytes, &graph_ctx.want_len, &err)));
}

static void graph_end(void)
{
    area_destroy(graph_ctx.want);
    nav_free(graph_ctx.want_bytes);
    world_destroy(graph_ctx.w);
    memset(&graph_ctx, 0, sizeof graph_ctx);
}

static void *graph_setup(void)
{
    graph_ctx.got = NULL;
    graph_ctx.bytes = NULL;
    return &graph_ctx;
}

static void graph_teardown(void *p)
{
    GraphCtx *c = p;
    area_destroy(c->got);
    nav_free(c->bytes);
    c->got = NULL;
    c->bytes = NULL;
}

static NavStatus compile_run(void *p, NavError *err)
{
    GraphCtx *c = p;
    c->got = area_build(c->w, c->cls, NULL, err);
    return c->got ? NAV_OK : err->status;
}

static void graph_check(void *p, bool ok, bool failed)
{
    GraphCtx *c = p;
    cr_assert_eq(ok, c->got != NULL);
    if (ok) cr_assert(area_graph_equal(c->got, c->want), "a graph made with a refusal differs from the reference");
}

Test(alloc_fail, compiling_an_area_graph)
{
    graph_begin("maps/gauntlet.lua");
    alloc_fail_each(&(FailOp){ .name = "area_build gauntlet human",
                               .setup = graph_setup,
                               .run = compile_run,
                               .check = graph_check,
                               .teardown = graph_teardown });
    graph_end();
}

static NavStatus save_buffer_run(void *p, NavError *err)
{
    GraphCtx *c = p;
    return area_save_buffer(c->want, &c->bytes, &c->len, err);
}

static void save_buffer_check(void *p, bool ok, bool failed)
{
    GraphCtx *c = p;
    if (!ok) {
        cr_assert_null(c->bytes);
        return;
    }
    cr_assert_eq(c->len, c->want_len);
    cr_assert(memcmp(c->bytes, c->want_bytes, c->len) == 0, "bytes written with a refusal differ");
}

static NavStatus save_file_run(void *p, NavError *err)
{
    GraphCtx *c = p;
    return area_save(c->want, c->path, err);
}

/* The file is the whole graph, or (after a failure) not there at all:
** no temporary file left beside it either. */
static void save_file_check(void *p, bool ok, bool failed)
{
    GraphCtx *c = p;
    char *data;
    size_t len;
    NavError err;
    NavStatus st = fileio_read(c->path, 1u << 26, &data, &len, &err);
    if (ok) {
        cr_assert(NAV_SUCCEEDED(st), "%s", err.message);
        cr_assert(len == c->want_len && memcmp(data, c->want_bytes, len) == 0, "the file written differs");
        nav_free(data);
        remove(c->path);
    } else {
        cr_assert(NAV_FAILED(st), "a failed save left %s", c->path);
    }
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", c->path, (int)getpid());
    cr_assert(access(tmp, F_OK) != 0, "a failed save left %s", tmp);
}

static NavStatus load_buffer_run(void *p, NavError *err)
{
    GraphCtx *c = p;
    c->got = area_load_buffer(c->w, c->cls, c->want_bytes, c->want_len, "gauntlet.nav", err);
    return c->got ? NAV_OK : err->status;
}

static NavStatus load_file_run(void *p, NavError *err)
{
    GraphCtx *c = p;
    c->got = area_load(c->w, c->cls, c->path, err);
    return c->got ? NAV_OK : err->status;
}

Test(alloc_fail, writing_and_reading_a_nav_file)
{
    graph_begin("maps/gauntlet.lua");
    alloc_fail_each(&(FailOp){ .name = "area_save_buffer gauntlet",
                               .setup = graph_setup,
                               .run = save_buffer_run,
                               .check = save_buffer_check,
                               .teardown = graph_teardown });
    snprintf(graph_ctx.path, sizeof graph_ctx.path, "/tmp/navbot-alloc-fail-%d.nav", (int)getpid());
    remove(graph_ctx.path);
    alloc_fail_each(&(FailOp){ .name = "area_save gauntlet (file)",
                               .setup = graph_setup,
                               .run = save_file_run,
                               .check = save_file_check,
                               .teardown = graph_teardown });
    alloc_fail_each(&(FailOp){ .name = "area_load_buffer gauntlet",
                               .setup = graph_setup,
                               .run = load_buffer_run,
                               .check = graph_check,
                               .teardown = graph_teardown });
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(area_save(graph_ctx.want, graph_ctx.path, &err)), "%s", err.message);
    alloc_fail_each(&(FailOp){ .name = "area_load gauntlet (file)",
                               .setup = graph_setup,
                               .run = load_file_run,
                               .check = graph_check,
                               .teardown = graph_teardown });
    remove(graph_ctx.path);
    graph_end();
}

/* }======= */

/* {======= routing ======= */

#define ROUTE_QUERIES 24

typedef struct RouteCtx {
    NavWorld *w;
    NavAreaGraph *ag;
    size_t cache_bytes;
    int queries; /* of the ROUTE_QUERIES the ops ask */
    NavRouter *r;
    uint32_t from[ROUTE_QUERIES], to[ROUTE_QUERIES];
    uint32_t want[ROUTE_QUERIES]; /* the plain Dijkstra on a router with no obstacle */
    uint32_t want_obstacle[ROUTE_QUERIES];
    float box[6];
    uint32_t obstacle;
} RouteCtx;

static RouteCtx route_ctx;

static NavRouter *router_or_fail(const NavAreaGraph *ag, size_t cache_bytes)
{
    fail_alloc.metering = false;
    NavError err;
    nav_error_clear(&err);
    NavRouter *r = router_create(ag, &(NavRouterDesc){ .cache_bytes = cache_bytes }, &err);
    cr_assert_not_null(r, "%s", err.message);
    return r;
}

/* Queries between areas spread over the map, the plain Dijkstra's answers
** without and with an obstacle across the map's middle. */
static void route_begin(const char *map, size_t cache_bytes, int queries)
{
    memset(&route_ctx, 0, sizeof route_ctx);
    RouteCtx *c = &route_ctx;
    c->w = load_or_fail(map);
    NavError err;
    nav_error_clear(&err);
    /* Small clusters: routes cross many, with portal caches and overlays. */
    c->ag = area_build(c->w, world_find_class(c->w, "human"), &(NavAreaDesc){ .max_cluster_areas = 16 }, &err);
    cr_assert_not_null(c->ag, "%s", err.message);
    c->cache_bytes = cache_bytes;
    c->queries = queries;
    uint32_t n = area_count(c->ag);
    for (int i = 0; i < ROUTE_QUERIES; i++) {
        c->from[i] = (uint32_t)((uint64_t)i * 7919u % n);
        c->to[i] = (uint32_t)((uint64_t)(i + 1) * 104729u % n);
    }
    float W = (float)world_width(c->w) * world_cell_size(c->w), H = (float)world_height(c->w) * world_cell_size(c->w);
    float box[6] = { W * 0.45f, 0.0f, -100.0f, W * 0.55f, H * 0.7f, 100.0f };
    memcpy(c->box, box, sizeof box);
    NavRouter *r = router_or_fail(c->ag, 0);
    for (int i = 0; i < ROUTE_QUERIES; i++) {
        NavRoute q;
        cr_assert(NAV_SUCCEEDED(route_dijkstra(r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, &q)));
        c->want[i] = q.time;
    }
    cr_assert_neq(router_add_obstacle(r, box, box + 3), 0);
    int changed = 0;
    for (int i = 0; i < ROUTE_QUERIES; i++) {
        NavRoute q;
        cr_assert(NAV_SUCCEEDED(route_dijkstra(r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, &q)));
        c->want_obstacle[i] = q.time;
        changed += q.time != c->want[i];
    }
    cr_assert_gt(changed, 0, "%s: the obstacle changes no route", map);
    router_destroy(r);
}

static void route_end(void)
{
    area_destroy(route_ctx.ag);
    world_destroy(route_ctx.w);
    memset(&route_ctx, 0, sizeof route_ctx);
}

/* Every query through the caches, its links walked: the times the plain
** Dijkstra gave (want), and the router's own Dijkstra agreeing. */
static void route_answers(NavRouter *r, const uint32_t *want, const char *what)
{
    RouteCtx *c = &route_ctx;
    static uint32_t links[4096];
    for (int i = 0; i < c->queries; i++) {
        NavRoute q, d;
        int n;
        cr_assert(
            NAV_SUCCEEDED(router_route_links(r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, links, 4096, &n, &q)));
        cr_assert(NAV_SUCCEEDED(route_dijkstra(r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, &d)));
        cr_assert_eq(q.time, want[i], "%s: query %d (%u -> %u): %u, the Dijkstra says %u", what, i, c->from[i],
                     c->to[i], q.time, want[i]);
        cr_assert_eq(d.time, want[i], "%s: query %d: the router's own Dijkstra says %u, want %u", what, i, d.time,
                     want[i]);
        if (q.time != ROUTE_UNREACHABLE && c->from[i] != c->to[i]) {
            cr_assert_gt(n, 0);
            cr_assert_eq(area_reach(c->ag, links[n - 1])->to, c->to[i], "%s: query %d's links miss the goal", what, i);
        }
    }
}

static void *route_setup(void)
{
    route_ctx.r = NULL;
    return &route_ctx;
}

static void route_teardown(void *p)
{
    RouteCtx *c = p;
    router_destroy(c->r);
    c->r = NULL;
}

/* Cold: the router made and every query answered under failure. */
static NavStatus route_cold_run(void *p, NavError *err)
{
    RouteCtx *c = p;
    c->r = router_create(c->ag, &(NavRouterDesc){ .cache_bytes = c->cache_bytes }, err);
    if (!c->r) return err->status;
    static uint32_t links[4096];
    for (int i = 0; i < c->queries; i++) {
        NavRoute q;
        int n;
        NavStatus st = router_route_links(c->r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, links, 4096, &n, &q);
        if (NAV_FAILED(st)) return nav_error_set(err, st, NULL, 0, 0, NULL, "route %d failed", i);
        if (q.time != c->want[i])
            return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "query %d: %u, the Dijkstra says %u", i, q.time,
                                 c->want[i]);
    }
    return NAV_OK;
}

static void route_cold_check(void *p, bool ok, bool failed)
{
    RouteCtx *c = p;
    if (!c->r) return;
    /* Answers given and still given: the caches a refusal left are right. */
    route_answers(c->r, c->want, "after a refusal");
    NavRouterStats st;
    router_stats(c->r, &st);
    cr_assert_leq(st.cache_bytes, st.cap_bytes);
}

static void fail_each_route(const char *name, size_t cache_bytes, int queries)
{
    route_begin("maps/tower.lua", cache_bytes, queries);
    alloc_fail_each(&(FailOp){ .name = name,
                               .setup = route_setup,
                               .run = route_cold_run,
                               .check = route_cold_check,
                               .teardown = route_teardown,
                               .dense = 60 });
    route_end();
}

Test(alloc_fail, routing_cold) { fail_each_route("router_create + 12 routes tower", 0, 12); }

/* 4 KiB holds a few caches: the queries evict hundreds, and some fall
** back to the plain search. A query whose caches cannot be had is
** answered link by link by plain searches, which makes the runs where
** everything fails slow: fewer queries here. */
Test(alloc_fail, routing_with_an_exhausted_cache_cap)
{
    fail_each_route("router_create + 6 routes tower, 4 KiB cap", 4096, 6);
}

/* An obstacle added to a router whose caches are warm: refused, the router
** answers as if it was never tried; added, as the Dijkstra with it. */
static void *obstacle_setup(void)
{
    RouteCtx *c = &route_ctx;
    c->r = router_or_fail(c->ag, 0);
    static uint32_t links[4096];
    for (int i = 0; i < ROUTE_QUERIES; i++) {
        NavRoute q;
        int n;
        router_route_links(c->r, c->from[i], NULL, c->to[i], NAV_TFL_DEFAULT, links, 4096, &n, &q);
    }
    c->obstacle = 0;
    return c;
}

static NavStatus obstacle_run(void *p, NavError *err)
{
    RouteCtx *c = p;
    c->obstacle = router_add_obstacle(c->r, c->box, c->box + 3);
    return c->obstacle ? NAV_OK : nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
}

static void obstacle_check(void *p, bool ok, bool failed)
{
    RouteCtx *c = p;
    NavRouterStats st;
    router_stats(c->r, &st);
    cr_assert_eq(st.obstacles, ok ? 1u : 0u);
    if (!ok) cr_assert_eq(st.disabled_links, 0, "a refused obstacle left %u links disabled", st.disabled_links);
    route_answers(c->r, ok ? c->want_obstacle : c->want, ok ? "with the obstacle" : "after a refused obstacle");
    if (ok) {
        cr_assert(router_remove_obstacle(c->r, c->obstacle));
        route_answers(c->r, c->want, "the obstacle removed");
    }
}

Test(alloc_fail, adding_an_obstacle_to_a_router)
{
    route_begin("maps/tower.lua", 0, ROUTE_QUERIES);
    alloc_fail_each(&(FailOp){ .name = "router_add_obstacle tower",
                               .setup = obstacle_setup,
                               .run = obstacle_run,
                               .check = obstacle_check,
                               .teardown = route_teardown });
    route_end();
}

/* }======= */

/* {======= grid searches ======= */

#define GRID_CAP 2048

typedef struct GridCtx {
    NavWorld *w;
    NavGrid *g;
    GridSearch *s;
    GridQuery q;
    GridWaypoint want[GRID_CAP], got[GRID_CAP];
    int want_count;
    double want_length;
} GridCtx;

static GridCtx grid_ctx;

static void *grid_setup(void)
{
    grid_ctx.g = NULL;
    grid_ctx.s = NULL;
    return &grid_ctx;
}

static void grid_teardown(void *p)
{
    GridCtx *c = p;
    grid_search_destroy(c->s);
    grid_destroy(c->g);
    c->s = NULL;
    c->g = NULL;
}

/* The grid built, a search state made and one path found. */
static NavStatus grid_run(void *p, NavError *err)
{
    GridCtx *c = p;
    c->g = grid_create(c->w, NULL, err);
    if (!c->g) return err->status;
    c->s = grid_search_create(c->g, err);
    if (!c->s) return err->status;
    GridPath path = { .points = c->got, .cap = GRID_CAP };
    NavStatus st = grid_find_path(c->s, &c->q, &path);
    if (NAV_FAILED(st)) return nav_error_set(err, st, NULL, 0, 0, NULL, "grid_find_path failed");
    if (path.count != c->want_count || fabs(path.length - c->want_length) > 1e-9 ||
        memcmp(c->got, c->want, (size_t)path.count * sizeof *c->got) != 0)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "another path: %d waypoints, length %g", path.count,
                             path.length);
    return NAV_OK;
}

static void grid_check(void *p, bool ok, bool failed) { (void)p; }

Test(alloc_fail, a_grid_search)
{
    GridCtx *c = &grid_ctx;
    memset(c, 0, sizeof *c);
    char path[512];
    c->w = load_or_fail(TEST_DATA_PATH(path, "movingai/lak303d.map"));
    NavError err;
    nav_error_clear(&err);
    NavGrid *g = grid_create(c->w, NULL, &err);
    cr_assert_not_null(g, "%s", err.message);
    GridSearch *s = grid_search_create(g, &err);
    cr_assert_not_null(s, "%s", err.message);
    int sx = -1, sy = -1, gx = -1, gy = -1;
    for (int y = 0; y < grid_height(g) && sx < 0; y++)
        for (int x = 0; x < grid_width(g) && sx < 0; x++)
            if (grid_passable(g, 0, x, y)) sx = x, sy = y;
    for (int y = grid_height(g) - 1; y >= 0 && gx < 0; y--)
        for (int x = grid_width(g) - 1; x >= 0 && gx < 0; x--)
            if (grid_passable(g, 0, x, y) && grid_reachable(g, 0, sx, sy, x, y)) gx = x, gy = y;
    cr_assert_geq(gx, 0);
    float cx, cy;
    grid_cell_center(g, gx, gy, &cx, &cy);
    c->q = (GridQuery){ .cls = 0, .sx = sx, .sy = sy, .goal = grid_goal_point(cx, cy) };
    GridPath gp = { .points = c->want, .cap = GRID_CAP };
    cr_assert(NAV_SUCCEEDED(grid_find_path(s, &c->q, &gp)));
    cr_assert(gp.flags & GRID_PATH_FOUND);
    c->want_count = gp.count;
    c->want_length = gp.length;
    grid_search_destroy(s);
    grid_destroy(g);
    alloc_fail_each(&(FailOp){ .name = "grid_create + search lak303d",
                               .setup = grid_setup,
                               .run = grid_run,
                               .check = grid_check,
                               .teardown = grid_teardown });
    world_destroy(c->w);
}

/* }======= */

/* {======= the hook itself ======= */

/* Changes refused while blocks are live, products that overflow, sizes
** of 0, a failed resize leaving the block, and the public wrappers. */
Test(alloc_fail, the_hook_and_its_guards)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert_eq(nav_alloc_live(), 0);
    void *p = nav_malloc(16);
    cr_assert_not_null(p);
    cr_assert_eq(nav_alloc_live(), 1);
    NavStatus st = nav_set_allocator(NULL, &err);
    cr_assert(NAV_FAILED(st) && (st & NAV_E_PARAM), "a change with a live block was not refused");
    cr_assert(strstr(err.message, "1 blocks"), "%s", err.message);
    cr_assert(NAV_SUCCEEDED(nav_set_allocator(&(NavAllocator){ .fn = fail_alloc_fn, .user = &fail_alloc }, &err)),
              "setting the same allocator again is refused: %s", err.message);
    NavbotError e;
    cr_assert_eq(navbot_set_allocator(NULL, &e), NAVBOT_E_PARAM);
    cr_assert(strstr(e.text, "still in use"), "%s", e.text);
    cr_assert(navbot_get_allocator().fn == fail_alloc_fn && navbot_get_allocator().user == &fail_alloc);

    /* A resize refused leaves the block as it was. */
    memset(p, 7, 16);
    fail_alloc = (FailAllocator){ .metering = true, .fail_at = 1, .only = true };
    cr_assert_null(nav_realloc(p, 1 << 20));
    fail_alloc.metering = false;
    for (int i = 0; i < 16; i++) cr_assert_eq(((unsigned char *)p)[i], 7);
    cr_assert_eq(nav_alloc_live(), 1);
    nav_free(p);
    nav_free(NULL);
    cr_assert_eq(nav_alloc_live(), 0);

    /* Overflowing products are refused before the allocator is asked. */
    fail_alloc = (FailAllocator){ .metering = true };
    cr_assert_null(nav_calloc(SIZE_MAX / 2, 3));
    cr_assert_null(nav_realloc_array(NULL, SIZE_MAX / 4, 8));
    cr_assert_eq(fail_alloc.calls, 0, "the allocator was asked for an overflowed size");
    fail_alloc.metering = false;

    /* 0 bytes is one byte, so NULL always means failure; copies. */
    void *z = nav_malloc(0), *zc = nav_calloc(0, 8);
    cr_assert(z && zc);
    char *s = nav_strdup("route"), *t = nav_strndup("routers", 5);
    cr_assert_str_eq(s, "route");
    cr_assert_str_eq(t, "route");
    cr_assert_null(nav_strdup(NULL));
    nav_free(z), nav_free(zc), nav_free(s), nav_free(t);

    /* With nothing live, any allocator may be set: the C library, then
    ** back; a user pointer without a function is refused. */
    cr_assert_eq(nav_alloc_live(), 0);
    cr_assert(NAV_SUCCEEDED(nav_set_allocator(NULL, &err)), "%s", err.message);
    cr_assert_null(nav_get_allocator().fn);
    cr_assert(NAV_FAILED(nav_set_allocator(&(NavAllocator){ .user = &fail_alloc }, &err)));
    cr_assert_eq(navbot_set_allocator(&(NavbotAllocator){ .fn = fail_alloc_fn, .user = &fail_alloc }, &e), NAVBOT_OK,
                 "%s", e.text);
    cr_assert(nav_get_allocator().fn == fail_alloc_fn);
}

/* }======= */

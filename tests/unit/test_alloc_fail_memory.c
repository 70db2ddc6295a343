/*
** test_alloc_fail_memory.c — every allocation refused in turn, for
** navigation memories: making, learning, cloning, merging, saving and
** loading a memory and routing within it (route_memory.h), and learners
** in a simulation (sim_learn.c) with sliced searches. The loop and its
** checks: alloc_fail_support.h.
**
** The oracles: a run that succeeded with nothing refused gives what the
** run with nothing failing gives; a memory a failed load was asked to
** fill is as it was (or, when a later step failed, as loaded); and a
** simulation whose learning met a refusal steps on and answers routes.
*/
#include <string.h>

#include "alloc_fail_support.h"

#include "area/area.h"
#include "map/map.h"
#include "route/route.h"
#include "route/route_memory.h"
#include "sim/sim.h"

TestSuite(memory_alloc_fail, .init = fail_alloc_install);

static uint64_t digest(const NavMemory *m)
{
    const NavAreaGraph *ag = memory_graph(m);
    uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    MIX(memory_links_per_area(m));
    for (uint32_t a = 0; a < area_count(ag); a++) MIX(memory_knows_area(m, a));
    for (uint32_t l = 0; l < area_reach_count(ag); l++) MIX(memory_link_seen(m, l));
#undef MIX
    return h;
}

/* {======= a memory's life ======= */

typedef struct MemCtx {
    NavWorld *w;
    NavAreaGraph *ag;
    NavRouter *r;
    NavMemory *keep;  /* what the run loads into */
    uint64_t before;  /* its digest before the run */
    uint64_t loaded;  /* ...after a load of what the run made */
    uint32_t learned; /* what learn_reachable learns */
    uint32_t time;    /* the route's time within the memory */
    uint32_t start, goal;
} MemCtx;

static MemCtx mem_ctx;

static void *mem_setup(void)
{
    MemCtx *c = &mem_ctx;
    NavError err;
    c->keep = memory_create(c->ag, 5, &err);
    cr_assert_not_null(c->keep);
    for (uint32_t l = 0; l < area_reach_count(c->ag); l += 5) memory_learn_link(c->keep, l, 3, NULL);
    c->before = digest(c->keep);
    return c;
}

static void mem_teardown(void *p)
{
    MemCtx *c = p;
    memory_destroy(c->keep);
    c->keep = NULL;
}

static NavStatus mem_run(void *p, NavError *err)
{
    MemCtx *c = p;
    NavStatus st = NAV_OK;
    char *text = NULL;
    size_t len;
    NavMemory *m = memory_create(c->ag, 3, err), *clone = NULL;
    MemSearch *s = NULL;
    if (!m) return err->status;
    /* No error channel: a refusal learns nothing (or less). */
    if (memory_learn_reachable(m, c->start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 2) != c->learned) {
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory: learn_reachable learned less");
        goto out;
    }
    clone = memory_clone(m, err);
    if (!clone) {
        st = err->status;
        goto out;
    }
    if (!memory_merge(clone, c->keep)) {
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory merging");
        goto out;
    }
    st = memory_save_buffer(m, &text, &len, err);
    if (NAV_FAILED(st)) goto out;
    st = memory_load_buffer(c->keep, text, len, "run.mem", err);
    if (NAV_FAILED(st)) goto out;
    NavRoute q;
    uint32_t links[512];
    int n;
    st = memory_route(c->r, m, c->start, NULL, c->goal, NAV_TFL_DEFAULT, links, 512, &n, &q);
    if (NAV_FAILED(st)) {
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory routing within memory");
        goto out;
    }
    if (q.time != c->time) {
        st = nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "memory_route: %u, not %u", q.time, c->time);
        goto out;
    }
    s = memsearch_create(c->r, m, c->goal, NAV_TFL_DEFAULT, err);
    if (!s) {
        st = err->status;
        goto out;
    }
    memsearch_set_start(s, c->start, NULL);
    while (memsearch_state(s) == MEMSEARCH_RUNNING) memsearch_step(s, 10);
    memsearch_route(s, links, 512, &n, &q);
    if (q.time != c->time) st = nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "memsearch: %u", q.time);
out:
    memsearch_destroy(s);
    nav_free(text);
    memory_destroy(clone);
    memory_destroy(m);
    return st;
}

static void mem_check(void *p, bool ok, bool failed)
{
    MemCtx *c = p;
    uint64_t d = digest(c->keep);
    if (ok) cr_assert_eq(d, c->loaded, "%s: the memory loaded is not the one saved", fail_where());
    else cr_assert(d == c->before || d == c->loaded, "%s: a failed run left the memory half loaded", fail_where());
    (void)failed;
}

Test(memory_alloc_fail, a_memory_made_learned_copied_saved_loaded_and_routed)
{
    MemCtx *c = &mem_ctx;
    fail_alloc.metering = false;
    c->w = test_load_map("maps/tower.lua");
    NavError err;
    c->ag = area_build(c->w, world_find_class(c->w, "human"), NULL, &err);
    cr_assert_not_null(c->ag, "%s", err.message);
    c->r = router_create(c->ag, NULL, &err);
    cr_assert_not_null(c->r);
    /* The answers with nothing refused. */
    c->start = area_point_area(c->ag, 20.5f, 15.5f, 0.0f);
    cr_assert_neq(c->start, NAV_NO_AREA);
    NavMemory *m = memory_create(c->ag, 3, &err);
    c->learned = memory_learn_reachable(m, c->start, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 2);
    cr_assert_gt(c->learned, 0);
    NavRoute q;
    uint32_t links[512];
    int n = 0;
    /* A goal some links away within the memory. */
    for (c->goal = area_count(c->ag) - 1; c->goal > 0; c->goal--) {
        cr_assert(NAV_SUCCEEDED(memory_route(c->r, m, c->start, NULL, c->goal, NAV_TFL_DEFAULT, links, 512, &n, &q)));
        if (n >= 4 && q.time != ROUTE_UNREACHABLE) break;
    }
    c->time = q.time;
    cr_assert_neq(c->time, ROUTE_UNREACHABLE, "no goal within the memory");
    NavMemory *k = memory_create(c->ag, 5, &err);
    memory_copy(k, m);
    c->loaded = digest(k);
    memory_destroy(k);
    memory_destroy(m);
    alloc_fail_each(&(FailOp){ .name = "memory: make, learn, copy, save, load, route",
                               .setup = mem_setup,
                               .run = mem_run,
                               .check = mem_check,
                               .teardown = mem_teardown,
                               .also = NAV_E_PARAM });
    router_destroy(c->r);
    area_destroy(c->ag);
    world_destroy(c->w);
}

/* }======= */

/* {======= learners in a simulation ======= */

typedef struct SimCtx {
    NavWorld *w;
    NavSim *sim;
    uint32_t goal;
} SimCtx;

static SimCtx sim_ctx;

/* tower: a climber at ladder 1's foot, two learners in the store room,
** one outside; the graph compiled before the run. */
static void *sim_setup(void)
{
    SimCtx *c = &sim_ctx;
    NavError err;
    c->sim = sim_create(c->w, &(NavSimDesc){ .seed = 2 }, &err);
    cr_assert_not_null(c->sim);
    static const float at[][3] = {
        { 25.25f, 7.25f, 0.0f }, { 23.0f, 5.5f, 0.0f }, { 27.5f, 5.0f, 0.0f }, { 30.5f, 8.0f, 0.0f }
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(at); i++)
        cr_assert_geq(sim_add_bot(c->sim, &(NavBotDesc){ .pos = { at[i][0], at[i][1], at[i][2] } }, &err), 0);
    NavAreaGraph *ag = sim_graph(c->sim, 0, &err);
    cr_assert_not_null(ag);
    cr_assert_not_null(sim_router(c->sim, 0, &err));
    c->goal = area_point_area(ag, 20.5f, 15.5f, 0.0f);
    return c;
}

static void sim_teardown(void *p)
{
    SimCtx *c = p;
    sim_destroy(c->sim);
    c->sim = NULL;
}

static NavStatus sim_run(void *p, NavError *err)
{
    SimCtx *c = p;
    for (uint32_t i = 0; i < 3; i++)
        if (!sim_bot_learn(c->sim, i, 0, err)) return err->status;
    if (!sim_bot_share_memory(c->sim, 3, 1))
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory sharing a memory");
    sim_set_search_budget(c->sim, 20, 50);
    uint32_t links[256];
    for (int t = 0; t < 90; t++) {
        sim_bot_control(c->sim, 0)->move[1] = 1.0f;
        for (uint32_t i = 1; i < 4; i++) {
            SimMemRoute q;
            if (!sim_bot_memory_route(c->sim, i, c->goal, NAV_TFL_DEFAULT, false, links, 256, &q))
                return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory routing within memory");
        }
        sim_step(c->sim);
    }
    return NAV_OK;
}

static void sim_check(void *p, bool ok, bool failed)
{
    SimCtx *c = p;
    (void)ok;
    (void)failed;
    /* It steps on, and every bot gets an answer at once. */
    sim_step(c->sim);
    uint32_t links[256];
    for (uint32_t i = 0; i < 4; i++) {
        SimMemRoute q;
        cr_assert(sim_bot_memory_route(c->sim, i, c->goal, NAV_TFL_DEFAULT, true, links, 256, &q), "%s: bot %u",
                  fail_where(), i);
    }
    SimLearnStats st;
    sim_learn_stats(c->sim, &st);
    cr_assert_leq(st.memories, 4);
}

Test(memory_alloc_fail, learners_watching_and_searching_in_a_simulation, .timeout = 600)
{
    SimCtx *c = &sim_ctx;
    fail_alloc.metering = false;
    c->w = test_load_map("maps/tower.lua");
    alloc_fail_each(&(FailOp){ .name = "sim: learners, a team, sliced searches",
                               .setup = sim_setup,
                               .run = sim_run,
                               .check = sim_check,
                               .teardown = sim_teardown,
                               .dense = 150,
                               .stride = 11 });
    world_destroy(c->w);
}

/* }======= */

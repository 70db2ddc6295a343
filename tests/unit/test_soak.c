/*
** test_soak.c — long runs (scenario/soak.h), short: the world changes as
** often as asked (obstacles, doors, reloads, runners' goals), the two runs
** give the same hash, the meters are read, and the verdict follows them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua/lua_paths.h"
#include "scenario/soak.h"
#include "test_support.h"

Test(soak, gauntlet_changes_as_asked_and_repeats)
{
    char root[1024];
    cr_assert(nav_lua_bundled_root(root, sizeof root));
    char work[] = "/tmp/navbot_test_soak_XXXXXX";
    cr_assert_not_null(mkdtemp(work));
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    int doors = 0;
    for (int i = 0; i < world_entity_count(w); i++) doors += world_entity(w, i)->type == NAV_ENTITY_DOOR;
    cr_assert_gt(doors, 0, "the gauntlet has doors");

    SoakResult r;
    NavError e;
    nav_error_clear(&e);
    SoakDesc d = { .w = w,
                   .label = "gauntlet",
                   .root = root,
                   .work = work,
                   .ticks = 600,
                   .seed = 5,
                   .rts = 6,
                   .runners = 2,
                   .obstacle_every = 50,
                   .door_every = 100,
                   .reload_every = 200 };
    cr_assert(NAV_SUCCEEDED(soak_map(&d, &r, &e)), "%s", e.message);
    for (int k = 0; k < 2; k++) {
        const SoakRun *u = &r.run[k];
        cr_assert_eq(u->ticks, 600);
        cr_assert_eq(u->bots, 8);
        cr_assert_eq(u->obstacles_added, 12, "one every 50 ticks");
        cr_assert_eq(u->obstacles_removed, 12 - SOAK_OBSTACLES, "the oldest goes once %d are down", SOAK_OBSTACLES);
        cr_assert_eq(u->door_changes, 6u * (uint32_t)doors, "every door every 100 ticks");
        cr_assert_eq(u->reloads, 3 * 2, "both brains every 200 ticks");
        cr_assert_eq(u->reload_misses, 0);
        cr_assert_geq(u->goals, 2, "each runner has a goal");
        cr_assert_eq(u->faulted, 0);
        cr_assert(u->route_under_cap);
        cr_assert_gt(u->route_cap, 0, "the runners' class has a router");
        cr_assert_gt(u->m[SOAK_RSS].peak, 1u << 20, "resident memory is read");
        cr_assert_gt(u->m[SOAK_LUA].peak, 0, "the brains' memory is read");
        cr_assert_gt(u->m[SOAK_SIM].peak, 0, "the simulation's memory is read");
    }
    cr_assert_eq(r.run[0].hash, r.run[1].hash);
    cr_assert(r.same_hash);
    cr_assert_eq(r.passed, r.flat, "%s", r.why);
    if (!r.passed) cr_assert_neq(r.why[0], '\0', "a failure says why");

    /* The brains' copies are gone; the folder is the caller's. */
    char p[1100];
    snprintf(p, sizeof p, "%s/bots", work);
    cr_assert_neq(access(p, F_OK), 0, "%s is left", p);
    cr_assert_eq(rmdir(work), 0);
    world_destroy(w);
}

Test(soak, bad_class_and_missing_folders_are_errors)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    SoakResult r;
    NavError e;
    nav_error_clear(&e);
    cr_assert(NAV_FAILED(soak_map(&(SoakDesc){ .w = w, .root = ".", .work = "/tmp", .cls = 99 }, &r, &e)));
    cr_assert(strstr(e.message, "class"), "%s", e.message);
    cr_assert(NAV_FAILED(soak_map(&(SoakDesc){ .w = w, .root = "." }, &r, &e)));
    cr_assert(NAV_FAILED(
        soak_map(&(SoakDesc){ .w = w, .root = ".", .work = "/nonexistent/navbot/soak", .ticks = 100 }, &r, &e)));
    cr_assert(strstr(e.message, "cannot make"), "%s", e.message);
    world_destroy(w);
}

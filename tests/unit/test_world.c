/*
** test_world.c — the world model: creation limits, floors, sampling,
** classes and entities.
*/
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "test_support.h"
#include "world/world.h"

static NavWorld *make(int w, int h)
{
    NavError err;
    NavWorld *world = world_create(&(NavWorldDesc){ .width = w, .height = h }, &err);
    cr_assert_not_null(world, "%s", err.message);
    return world;
}

static NavFloorAt floor_at(uint32_t cell, float z, float ceiling, NavContents c)
{
    return (NavFloorAt){ .cell = cell, .floor = { .z = z, .ceiling = ceiling, .top = z, .contents = (uint8_t)c } };
}

Test(world, defaults_and_empty_world)
{
    NavWorld *w = make(10, 5);
    cr_assert_eq(world_width(w), 10);
    cr_assert_eq(world_height(w), 5);
    cr_assert_float_eq(world_cell_size(w), NAV_DEFAULT_CELL_SIZE, 1e-6);
    cr_assert_float_eq(world_gravity(w), NAV_DEFAULT_GRAVITY, 1e-6);
    cr_assert_str_eq(world_name(w), "untitled");
    int n = -1;
    world_column(w, 3, 3, &n);
    cr_assert_eq(n, 0, "a new world is solid everywhere");
    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.solid_columns, 50);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, rejects_bad_sizes)
{
    NavError err;
    const int bad[][2] = { { 0, 5 }, { 5, 0 }, { -3, 4 }, { NAV_MAX_WORLD_SIDE + 1, 2 }, { 16384, 16384 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        nav_error_clear(&err);
        NavWorld *w = world_create(&(NavWorldDesc){ .width = bad[i][0], .height = bad[i][1] }, &err);
        cr_assert_null(w, "size %d x %d accepted", bad[i][0], bad[i][1]);
        cr_assert(NAV_FAILED(err.status));
        cr_assert_str_eq(err.field, "size");
    }
    cr_assert_null(world_create(&(NavWorldDesc){ .width = 4, .height = 4, .cell_size = -1 }, &err));
    cr_assert_str_eq(err.field, "cell_size");
    cr_assert_null(world_create(&(NavWorldDesc){ .width = 4, .height = 4, .gravity = NAN }, &err));
    cr_assert_str_eq(err.field, "gravity");
    NAV_TEST_LEAK_CHECK();
}

Test(world, floors_are_sorted_into_columns)
{
    NavWorld *w = make(4, 3);
    NavFloorAt items[] = {
        floor_at(5, 4.0f, INFINITY, NAV_CONTENTS_FLOOR),
        floor_at(0, 0.0f, INFINITY, NAV_CONTENTS_FLOOR),
        floor_at(5, 0.0f, 3.8f, NAV_CONTENTS_WATER),
        floor_at(11, 1.5f, INFINITY, NAV_CONTENTS_LADDER),
    };
    NavError err;
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, NAV_ARRAY_COUNT(items), &err)), "%s", err.message);
    int n;
    const NavFloor *f = world_column(w, 1, 1, &n); /* cell 5 */
    cr_assert_eq(n, 2);
    cr_assert_float_eq(f[0].z, 0.0f, 1e-6);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_WATER);
    cr_assert_float_eq(f[1].z, 4.0f, 1e-6);
    world_column(w, 3, 2, &n);
    cr_assert_eq(n, 1);
    world_column(w, 2, 0, &n);
    cr_assert_eq(n, 0);
    world_column(w, -1, 0, &n);
    cr_assert_eq(n, 0, "out of range columns are empty");
    world_column(w, 4, 0, &n);
    cr_assert_eq(n, 0);

    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.floors, 4);
    cr_assert_eq(st.max_floors_in_column, 2);
    cr_assert_eq(st.solid_columns, 12 - 3);
    cr_assert_eq(st.floors_by_contents[NAV_CONTENTS_WATER], 1);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, floor_at_picks_the_floor_under_a_point)
{
    NavWorld *w = make(2, 2);
    NavFloorAt items[] = {
        floor_at(0, 0.0f, 3.8f, NAV_CONTENTS_FLOOR),
        floor_at(0, 4.0f, INFINITY, NAV_CONTENTS_FLOOR),
    };
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items, 2, NULL)));
    /* cell size 0.5: cell 0 covers [0, 0.5) x [0, 0.5) */
    const NavFloor *f = world_floor_at(w, 0.25f, 0.25f, 1.0f, 0.05f);
    cr_assert_not_null(f);
    cr_assert_float_eq(f->z, 0.0f, 1e-6);
    f = world_floor_at(w, 0.25f, 0.25f, 4.0f, 0.05f);
    cr_assert_not_null(f);
    cr_assert_float_eq(f->z, 4.0f, 1e-6);
    cr_assert_null(world_floor_at(w, 0.25f, 0.25f, 3.9f, 0.05f), "inside the slab is solid");
    cr_assert_null(world_floor_at(w, 0.75f, 0.25f, 0.0f, 0.05f), "a wall column");
    cr_assert_null(world_floor_at(w, -0.1f, 0.25f, 0.0f, 0.05f), "outside the map");
    cr_assert_null(world_floor_at(w, NAN, 0.25f, 0.0f, 0.05f));
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, set_floors_rejects_bad_input_and_keeps_the_old_floors)
{
    NavWorld *w = make(2, 2);
    NavFloorAt good[] = { floor_at(1, 0.0f, INFINITY, NAV_CONTENTS_FLOOR) };
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, good, 1, NULL)));

    NavFloorAt overlap[] = { floor_at(0, 0.0f, 5.0f, NAV_CONTENTS_FLOOR), floor_at(0, 4.0f, INFINITY, NAV_CONTENTS_FLOOR) };
    NavFloorAt no_room[] = { floor_at(0, 2.0f, 2.0f, NAV_CONTENTS_FLOOR) };
    NavFloorAt outside[] = { floor_at(4, 0.0f, INFINITY, NAV_CONTENTS_FLOOR) };
    NavFloorAt nan_z[] = { floor_at(0, NAN, INFINITY, NAV_CONTENTS_FLOOR) };
    NavFloorAt bad_contents[] = { floor_at(0, 0.0f, INFINITY, NAV_CONTENTS_COUNT) };
    struct { NavFloorAt *items; const char *why; } cases[] = {
        { overlap, "reaches into" }, { no_room, "not above" }, { outside, "outside" },
        { nan_z, "not a number" },  { bad_contents, "contents" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(cases); i++) {
        NavError err;
        size_t n = cases[i].items == overlap ? 2 : 1;
        cr_assert(NAV_FAILED(world_set_floors(w, cases[i].items, n, &err)), "case %zu accepted", i);
        cr_assert_not_null(strstr(err.message, cases[i].why), "case %zu: '%s' lacks '%s'", i, err.message,
                           cases[i].why);
        int count;
        world_column(w, 1, 0, &count);
        cr_assert_eq(count, 1, "a failed update keeps the old floors");
    }
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, point_cell_and_centre_agree)
{
    NavWorld *w = make(8, 6);
    for (int cy = 0; cy < 6; cy++)
        for (int cx = 0; cx < 8; cx++) {
            float x, y;
            int px, py;
            world_cell_center(w, cx, cy, &x, &y);
            cr_assert(world_point_cell(w, x, y, &px, &py));
            cr_assert_eq(px, cx);
            cr_assert_eq(py, cy);
        }
    int px, py;
    cr_assert_not(world_point_cell(w, 4.0f, 1.0f, &px, &py), "x = 4.0 is the east edge, outside");
    cr_assert_not(world_point_cell(w, 1.0f, -0.01f, &px, &py));
    cr_assert_not(world_point_cell(w, INFINITY, 1.0f, &px, &py));
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, classes_are_validated_and_unique)
{
    NavWorld *w = make(2, 2);
    NavClass human = class_defaults();
    NavError err;
    int idx = -1;
    cr_assert(NAV_SUCCEEDED(world_add_class(w, &human, &idx, &err)));
    cr_assert_eq(idx, 0);
    cr_assert(NAV_FAILED(world_add_class(w, &human, NULL, &err)), "duplicate name");
    cr_assert_not_null(strstr(err.message, "already defined"));

    NavClass bad = class_defaults();
    strcpy(bad.name, "bad");
    bad.radius = -1.0f;
    cr_assert(NAV_FAILED(world_add_class(w, &bad, NULL, &err)));
    cr_assert_str_eq(err.field, "classes[2].radius");

    bad = class_defaults();
    strcpy(bad.name, "short");
    bad.crouch_height = 2.5f;
    cr_assert(NAV_FAILED(world_add_class(w, &bad, NULL, &err)));
    cr_assert_str_eq(err.field, "classes[2].crouch_height");

    bad = class_defaults();
    strcpy(bad.name, "nan");
    bad.run_speed = NAN;
    cr_assert(NAV_FAILED(world_add_class(w, &bad, NULL, &err)));

    for (int i = 1; i < NAV_MAX_CLASSES; i++) {
        NavClass c = class_defaults();
        snprintf(c.name, sizeof c.name, "c%d", i);
        cr_assert(NAV_SUCCEEDED(world_add_class(w, &c, NULL, &err)), "%s", err.message);
    }
    NavClass extra = class_defaults();
    strcpy(extra.name, "one_too_many");
    cr_assert(NAV_FAILED(world_add_class(w, &extra, NULL, &err)));
    cr_assert_eq(world_class_count(w), NAV_MAX_CLASSES);
    cr_assert_eq(world_find_class(w, "c7"), 7);
    cr_assert_eq(world_find_class(w, "nobody"), -1);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

static NavWorld *flat(int n)
{
    NavWorld *w = make(n, n);
    NavFloorAt *items = nav_calloc((size_t)(n * n), sizeof *items);
    for (int i = 0; i < n * n; i++) items[i] = floor_at((uint32_t)i, 0.0f, INFINITY, NAV_CONTENTS_FLOOR);
    /* one wall cell at (0, 0) */
    cr_assert(NAV_SUCCEEDED(world_set_floors(w, items + 1, (size_t)(n * n - 1), NULL)));
    nav_free(items);
    return w;
}

static NavEntity box(NavEntityType t, float x0, float y0, float x1, float y1)
{
    NavEntity e;
    memset(&e, 0, sizeof e);
    e.type = t;
    e.mins[0] = x0, e.mins[1] = y0, e.mins[2] = 0.0f;
    e.maxs[0] = x1, e.maxs[1] = y1, e.maxs[2] = 2.0f;
    return e;
}

Test(world, entities_are_checked_against_the_world)
{
    NavWorld *w = flat(10); /* 5 x 5 m */
    NavError err;
    NavEntity spawn = box(NAV_ENTITY_SPAWN, 1, 1, 1, 1);
    spawn.maxs[2] = 0.0f;
    strcpy(spawn.name, "s1");
    cr_assert(NAV_SUCCEEDED(world_add_entity(w, &spawn, NULL, &err)), "%s", err.message);
    cr_assert(NAV_FAILED(world_add_entity(w, &spawn, NULL, &err)), "duplicate name");
    cr_assert_not_null(strstr(err.message, "already used"));

    NavEntity in_wall = spawn;
    strcpy(in_wall.name, "s2");
    in_wall.mins[0] = in_wall.maxs[0] = 0.2f;
    in_wall.mins[1] = in_wall.maxs[1] = 0.2f;
    cr_assert(NAV_FAILED(world_add_entity(w, &in_wall, NULL, &err)));
    cr_assert_not_null(strstr(err.message, "not on a floor"), "%s", err.message);

    NavEntity outside = spawn;
    strcpy(outside.name, "s3");
    outside.mins[0] = outside.maxs[0] = 9.0f;
    cr_assert(NAV_FAILED(world_add_entity(w, &outside, NULL, &err)));
    cr_assert_not_null(strstr(err.message, "outside the map"));

    NavEntity tele = box(NAV_ENTITY_TELEPORTER, 2, 2, 3, 3);
    tele.u.teleporter.dest[0] = 4.0f, tele.u.teleporter.dest[1] = 4.0f;
    cr_assert(NAV_SUCCEEDED(world_add_entity(w, &tele, NULL, &err)), "%s", err.message);

    NavEntity pad = box(NAV_ENTITY_JUMP_PAD, 2.5f, 2.5f, 3.5f, 3.5f);
    pad.u.jump_pad.target[0] = 1.0f, pad.u.jump_pad.target[1] = 4.0f;
    pad.u.jump_pad.apex = 2.0f;
    cr_assert(NAV_FAILED(world_add_entity(w, &pad, NULL, &err)), "overlapping triggers");
    cr_assert_not_null(strstr(err.message, "overlaps"), "%s", err.message);

    NavEntity tele2 = box(NAV_ENTITY_TELEPORTER, 3, 3, 4, 4);
    tele2.u.teleporter.dest[0] = 0.2f, tele2.u.teleporter.dest[1] = 0.2f;
    cr_assert(NAV_FAILED(world_add_entity(w, &tele2, NULL, &err)), "destination in a wall");
    cr_assert_str_eq(err.field, "entities[3].dest");

    NavEntity lift = box(NAV_ENTITY_ELEVATOR, 4, 0.5f, 5, 1.5f);
    lift.u.elevator.stop_count = 2;
    lift.u.elevator.stops[0] = 0.0f;
    lift.u.elevator.stops[1] = 0.0f;
    lift.u.elevator.speed = 2.0f;
    lift.u.elevator.thickness = 0.2f;
    cr_assert(NAV_FAILED(world_add_entity(w, &lift, NULL, &err)), "stops must rise");
    cr_assert_str_eq(err.field, "entities[3].stops");
    lift.u.elevator.stops[1] = 4.0f;
    cr_assert(NAV_SUCCEEDED(world_add_entity(w, &lift, NULL, &err)), "%s", err.message);
    cr_assert_eq(world_entity_count(w), 3);
    cr_assert_eq(world_find_entity(w, "s1"), 0);

    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.entities_by_type[NAV_ENTITY_TELEPORTER], 1);
    cr_assert_eq(st.entities_by_type[NAV_ENTITY_ELEVATOR], 1);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(world, two_worlds_live_side_by_side)
{
    NavWorld *a = flat(6), *b = flat(9);
    NavClass human = class_defaults();
    cr_assert(NAV_SUCCEEDED(world_add_class(a, &human, NULL, NULL)));
    cr_assert_eq(world_class_count(a), 1);
    cr_assert_eq(world_class_count(b), 0, "worlds share no state");
    cr_assert_eq(world_width(a), 6);
    cr_assert_eq(world_width(b), 9);
    world_destroy(a);
    cr_assert_eq(world_height(b), 9);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_map_generate.c — the generated multi-storey building: the same
** arguments give the same world, bad arguments a clear error, and the
** area graph it compiles to joins every storey by stairs, ladders and
** lifts.
**
** Expected structure comes from the layout map_generate.c documents
** (storeys 4 m apart, 0.25 m stair steps, ladders 4 m tall, a lift stop on
** every storey, a spawn point "spawn" on the ground storey), never from the
** generator's own bookkeeping. 256 x 256 x 4 is compiled once in the file.
*/
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "map/map.h"
#include "test_support.h"

/* {======= helpers ======= */

static NavWorld *building(int width, int height, int storeys, uint32_t seed)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_generate_building(width, height, storeys, seed, &err);
    char buf[1024];
    cr_assert_not_null(w, "%d x %d x %d seed %u: %s", width, height, storeys, seed,
                       nav_error_format(&err, buf, sizeof buf));
    return w;
}

static NavAreaGraph *compile_human(const NavWorld *w)
{
    NavError err;
    nav_error_clear(&err);
    int cls = world_find_class(w, "human");
    cr_assert_eq(cls, 0, "%s: human is not class 0", world_name(w));
    NavAreaGraph *ag = area_build(w, cls, NULL, &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    return ag;
}

static bool same_floors(const NavWorld *a, const NavWorld *b)
{
    if (world_width(a) != world_width(b) || world_height(a) != world_height(b)) return false;
    for (int y = 0; y < world_height(a); y++)
        for (int x = 0; x < world_width(a); x++) {
            int na, nb;
            const NavFloor *fa = world_column(a, x, y, &na), *fb = world_column(b, x, y, &nb);
            if (na != nb || (na && memcmp(fa, fb, (size_t)na * sizeof *fa) != 0)) return false;
        }
    return true;
}

static uint32_t spawn_area(const NavAreaGraph *ag)
{
    const NavWorld *w = area_world(ag);
    int i = world_find_entity(w, "spawn");
    cr_assert_geq(i, 0, "%s has no spawn", world_name(w));
    const NavEntity *e = world_entity(w, i);
    cr_assert_eq(e->type, NAV_ENTITY_SPAWN);
    uint32_t a = area_point_area(ag, e->mins[0], e->mins[1], e->mins[2]);
    cr_assert_neq(a, NAV_NO_AREA, "%s: the spawn at (%g, %g, %g) is in no area", world_name(w), (double)e->mins[0],
                  (double)e->mins[1], (double)e->mins[2]);
    cr_assert_eq(area_get(ag, a)->layer, 0, "%s: the spawn is not on the ground storey", world_name(w));
    return a;
}

/* Breadth-first over links whose type is in `types` (NAV_TFL_TYPE bits)
** from area `from`; counts the areas reached per storey (layer). Returns
** how many were reached in all. */
static uint32_t reach_from(const NavAreaGraph *ag, uint32_t from, uint32_t types, uint32_t *per_layer, int layers)
{
    uint32_t n = area_count(ag);
    bool *seen = nav_calloc(n, sizeof *seen);
    uint32_t *queue = nav_malloc((size_t)n * sizeof *queue);
    cr_assert(seen && queue);
    uint32_t head = 0, tail = 0;
    seen[from] = true;
    queue[tail++] = from;
    while (head < tail) {
        const NavArea *a = area_get(ag, queue[head++]);
        for (uint32_t i = 0; i < a->reach_count; i++) {
            const NavReach *r = area_reach(ag, a->first_reach + i);
            if (!(types & NAV_TFL_TYPE(r->type)) || seen[r->to]) continue;
            seen[r->to] = true;
            queue[tail++] = r->to;
        }
    }
    memset(per_layer, 0, (size_t)layers * sizeof *per_layer);
    for (uint32_t i = 0; i < tail; i++) {
        uint16_t layer = area_get(ag, queue[i])->layer;
        cr_assert_lt(layer, layers);
        per_layer[layer]++;
    }
    nav_free(seen);
    nav_free(queue);
    return tail;
}

static void areas_per_layer(const NavAreaGraph *ag, uint32_t *per_layer, int layers)
{
    memset(per_layer, 0, (size_t)layers * sizeof *per_layer);
    for (uint32_t a = 0; a < area_count(ag); a++) {
        uint16_t layer = area_get(ag, a)->layer;
        cr_assert_lt(layer, layers);
        per_layer[layer]++;
    }
}

/* }======= */

/* {======= the world ======= */

Test(map_generate, building_same_arguments_same_world)
{
    NavWorld *a = building(96, 96, 3, 5), *b = building(96, 96, 3, 5);
    cr_assert_neq(world_source_hash(a), 0);
    cr_assert_eq(world_source_hash(a), world_source_hash(b));
    cr_assert_str_eq(world_name(a), world_name(b));
    cr_assert(same_floors(a, b), "two worlds from the same arguments have different floors");
    NavWorldStats sa, sb;
    world_stats(a, &sa);
    world_stats(b, &sb);
    cr_assert_eq(memcmp(&sa, &sb, sizeof sa), 0);
    cr_assert_eq(world_entity_count(a), world_entity_count(b));
    for (int i = 0; i < world_entity_count(a); i++) {
        const NavEntity *ea = world_entity(a, i), *eb = world_entity(b, i);
        cr_assert_eq(ea->type, eb->type);
        cr_assert_str_eq(ea->name, eb->name);
        cr_assert_eq(memcmp(ea->mins, eb->mins, sizeof ea->mins), 0, "%s moved", ea->name);
        cr_assert_eq(memcmp(ea->maxs, eb->maxs, sizeof ea->maxs), 0, "%s moved", ea->name);
    }

    /* another seed, another building; another storey count too */
    NavWorld *c = building(96, 96, 3, 6), *d = building(96, 96, 4, 5);
    cr_assert_neq(world_source_hash(a), world_source_hash(c));
    cr_assert_not(same_floors(a, c), "seeds 5 and 6 gave the same floors");
    cr_assert_neq(world_source_hash(a), world_source_hash(d));
    world_destroy(a);
    world_destroy(b);
    world_destroy(c);
    world_destroy(d);
    NAV_TEST_LEAK_CHECK();
}

Test(map_generate, building_rejects_bad_arguments)
{
    static const struct {
        int width, height, storeys;
        const char *field;
    } bad[] = {
        { 96, 96, 0, "storeys" },   { 96, 96, -1, "storeys" },  { 96, 96, NAV_ELEVATOR_MAX_STOPS + 1, "storeys" },
        { 47, 96, 3, "width" },     { 96, 10, 3, "height" },    { 0, 0, 3, "width" },
        { -5, 96, 3, "width" },     { 96, NAV_MAX_WORLD_SIDE + 1, 3, "height" },
        { 8192, 8192, 2, "size" },  /* within the side limit, over the cell limit */
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        NavError err;
        nav_error_clear(&err);
        NavWorld *w = map_generate_building(bad[i].width, bad[i].height, bad[i].storeys, 1, &err);
        cr_assert_null(w, "%d x %d x %d accepted", bad[i].width, bad[i].height, bad[i].storeys);
        cr_assert(NAV_FAILED(err.status), "%d x %d x %d: no failure status", bad[i].width, bad[i].height,
                  bad[i].storeys);
        cr_assert(err.status & NAV_E_PARAM, "%d x %d x %d: not a parameter error", bad[i].width, bad[i].height,
                  bad[i].storeys);
        cr_assert_str_eq(err.field, bad[i].field, "%d x %d x %d: field '%s'", bad[i].width, bad[i].height,
                         bad[i].storeys, err.field);
        cr_assert(err.message[0], "no message");
    }
    NavError err;
    nav_error_clear(&err);
    cr_assert_null(map_generate_building(96, 96, 0, 1, &err));
    cr_assert(strstr(err.message, "storeys") && strstr(err.message, "got 0"), "message: %s", err.message);
    nav_error_clear(&err);
    cr_assert_null(map_generate_building(20, 20, 2, 1, &err));
    cr_assert(strstr(err.message, "48") && strstr(err.message, "20 x 20"), "message: %s", err.message);
    /* and without an error value */
    cr_assert_null(map_generate_building(96, 96, 0, 1, NULL));
    cr_assert_null(map_generate_building(1, 1, 1, 1, NULL));
    NAV_TEST_LEAK_CHECK();
}

/* Storeys, stair steps with headroom, ladders, lift stops and the spawn,
** read from the world itself. */
Test(map_generate, building_has_every_storey_and_its_ways_up)
{
    enum { S = 4 };
    NavWorld *w = building(128, 112, S, 3);
    const NavClass *human = world_class(w, world_find_class(w, "human"));
    cr_assert_not_null(human);

    cr_assert_eq(world_layer_count(w), S);
    for (int k = 0; k < S; k++) cr_assert_float_eq(world_layer(w, k)->z, 4.0f * (float)k, 1e-6, "layer %d", k);

    bool step_seen[S][16] = { { false } };
    int ladders[S] = { 0 }, floors[S] = { 0 };
    for (int y = 0; y < world_height(w); y++)
        for (int x = 0; x < world_width(w); x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            for (int i = 0; i < n; i++) {
                int k = f[i].layer;
                cr_assert_lt(k, S);
                float above = f[i].z - 4.0f * (float)k;
                cr_assert(above >= 0.0f && above < 4.0f, "(%d, %d): floor at %g on storey %d", x, y, (double)f[i].z, k);
                floors[k]++;
                if (f[i].contents == NAV_CONTENTS_LADDER) {
                    ladders[k]++;
                    cr_assert_float_eq(f[i].top - f[i].z, 4.0f, 1e-5, "(%d, %d): a ladder is one storey tall", x, y);
                    cr_assert_leq(f[i].top, f[i].ceiling, "(%d, %d): the ladder goes through the ceiling", x, y);
                    continue;
                }
                cr_assert_eq(f[i].contents, NAV_CONTENTS_FLOOR);
                int step = (int)lroundf(above / 0.25f);
                cr_assert_float_eq(above, 0.25f * (float)step, 1e-5, "(%d, %d): %g is not a 0.25 m step", x, y,
                                   (double)above);
                step_seen[k][step] = true;
                if (step > 0)
                    cr_assert_geq(f[i].ceiling - f[i].z, human->height, "(%d, %d): stair step %d of storey %d has %g m of headroom",
                                  x, y, step, k, (double)(f[i].ceiling - f[i].z));
            }
        }
    for (int k = 0; k < S; k++) {
        cr_assert_gt(floors[k], world_width(w) * world_height(w) / 2, "storey %d has %d floors", k, floors[k]);
        /* a flight up from every storey but the top, every step of it */
        for (int s = 1; s <= 15; s++)
            cr_assert_eq(step_seen[k][s], k < S - 1, "storey %d: step %d %s", k, s,
                         k < S - 1 ? "missing" : "on the top storey");
        cr_assert_eq(ladders[k] > 0, k < S - 1, "storey %d has %d ladder cells", k, ladders[k]);
    }

    int lifts = 0;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        if (e->type != NAV_ENTITY_ELEVATOR) continue;
        lifts++;
        cr_assert_eq(e->u.elevator.stop_count, S, "%s stops %d times", e->name, e->u.elevator.stop_count);
        for (int k = 0; k < S; k++) cr_assert_float_eq(e->u.elevator.stops[k], 4.0f * (float)k, 1e-6);
    }
    cr_assert_geq(lifts, 1);
    int sp = world_find_entity(w, "spawn");
    cr_assert_geq(sp, 0);
    const NavFloor *under = world_floor_at(w, world_entity(w, sp)->mins[0], world_entity(w, sp)->mins[1], 0.0f, 0.05f);
    cr_assert(under && under->layer == 0, "the spawn does not stand on the ground storey");

    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.max_floors_in_column, S);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the area graph ======= */

Test(map_generate, building_graph_has_walk_ladder_and_elevator_links, .timeout = 60)
{
    enum { S = 3 };
    NavWorld *w = building(96, 96, S, 1);
    NavAreaGraph *ag = compile_human(w);
    NavAreaStats st;
    area_stats(ag, &st);
    cr_assert_gt(st.reaches_by_type[NAV_TRAVEL_WALK], 0);
    cr_assert_gt(st.reaches_by_type[NAV_TRAVEL_LADDER], 0);
    cr_assert_gt(st.reaches_by_type[NAV_TRAVEL_ELEVATOR], 0);

    uint32_t per[S];
    areas_per_layer(ag, per, S);
    for (int k = 0; k < S; k++) cr_assert_gt(per[k], 0, "storey %d has no areas", k);

    /* Ladders climb one storey, up and back down, between every pair;
    ** lifts join every storey to every other. */
    bool ladder_up[S] = { false }, ladder_down[S] = { false }, lift[S][S] = { { false } };
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        int from = area_get(ag, r->from)->layer, to = area_get(ag, r->to)->layer;
        if (r->type == NAV_TRAVEL_LADDER) {
            cr_assert_eq(abs(to - from), 1, "a ladder link from storey %d to %d", from, to);
            if (to > from) ladder_up[from] = true;
            else ladder_down[to] = true;
        } else if (r->type == NAV_TRAVEL_ELEVATOR) {
            cr_assert_neq(from, to, "a lift link within storey %d", from);
            lift[from][to] = true;
        }
    }
    for (int k = 0; k + 1 < S; k++) {
        cr_assert(ladder_up[k], "no ladder up from storey %d", k);
        cr_assert(ladder_down[k], "no ladder down from storey %d", k + 1);
    }
    for (int a = 0; a < S; a++)
        for (int b = 0; b < S; b++)
            if (a != b) cr_assert(lift[a][b], "no lift from storey %d to %d", a, b);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_generate, building_spawn_reaches_every_storey, .timeout = 60)
{
    enum { S = 3 };
    NavWorld *w = building(96, 96, S, 1);
    NavAreaGraph *ag = compile_human(w);
    uint32_t start = spawn_area(ag), all[S], per[S];
    areas_per_layer(ag, all, S);

    uint32_t types = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_LADDER) | NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR);
    uint32_t reached = reach_from(ag, start, types, per, S);
    for (int k = 0; k < S; k++)
        cr_assert_eq(per[k], all[k], "storey %d: %u of its %u areas reached on foot, by ladder and lift", k, per[k],
                     all[k]);
    cr_assert_eq(reached, area_count(ag));

    /* The staircases alone (walk links) climb to every storey too. */
    reach_from(ag, start, NAV_TFL_TYPE(NAV_TRAVEL_WALK), per, S);
    for (int k = 0; k < S; k++) cr_assert_gt(per[k], 0, "storey %d: not reached by the stairs", k);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The smallest building still has room for a staircase, a lift and a
** ladder between every pair of storeys, up to the lift's 16 stops. */
Test(map_generate, smallest_buildings_generate_and_connect, .timeout = 60)
{
    for (int storeys = 1; storeys <= NAV_ELEVATOR_MAX_STOPS; storeys++)
        for (uint32_t seed = 1; seed <= 3; seed++) {
            NavWorld *w = building(48, 48, storeys, seed);
            cr_assert_eq(world_layer_count(w), storeys);
            cr_assert_geq(world_find_entity(w, "spawn"), 0);
            if (storeys == 1 || storeys == 2 || storeys == 5) {
                NavAreaGraph *ag = compile_human(w);
                uint32_t per[NAV_ELEVATOR_MAX_STOPS];
                uint32_t types = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_LADDER) |
                                 NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR);
                reach_from(ag, spawn_area(ag), types, per, storeys);
                for (int k = 0; k < storeys; k++)
                    cr_assert_gt(per[k], 0, "48 x 48 x %d seed %u: storey %d not reached", storeys, seed, k);
                area_destroy(ag);
            }
            world_destroy(w);
        }
    NAV_TEST_LEAK_CHECK();
}

/* What the routing benchmark builds on: 10,000 areas or more. */
Test(map_generate, large_building_has_10000_areas, .timeout = 60)
{
    NavWorld *w = building(256, 256, 4, 1);
    NavAreaGraph *ag = compile_human(w);
    cr_assert_geq(area_count(ag), 10000u, "%u areas", area_count(ag));
    uint32_t all[4], per[4];
    areas_per_layer(ag, all, 4);
    uint32_t types = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_LADDER) | NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR);
    reach_from(ag, spawn_area(ag), types, per, 4);
    for (int k = 0; k < 4; k++) {
        cr_assert_gt(all[k], 2000u, "storey %d has %u areas", k, all[k]);
        cr_assert_eq(per[k], all[k], "storey %d: %u of %u areas reached", k, per[k], all[k]);
    }
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

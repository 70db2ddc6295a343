/*
** test_in_the_way.c — where a bot with nothing to do stands in others'
** way (sim_clear.c, sim_bot_in_the_way): both ends of every jump across a
** gap of the fort, once its graph is built; a ladder's foot; open floor.
** Each answer is checked against the link's own points, read from the
** graph here: the way out points away from the end the bot stands on.
*/
#include <math.h>
#include <string.h>

#include "area/area.h"
#include "sim/sim.h"
#include "test_support.h"

typedef struct Fixture {
    NavWorld *w;
    NavSim *sim;
} Fixture;

static Fixture setup(const char *map)
{
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = test_load_map(map);
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    return f;
}

static void teardown(Fixture *f)
{
    sim_destroy(f->sim);
    world_destroy(f->w);
}

/* A bot of class 0 standing at p (dropped to its floor); its id. */
static uint32_t bot_at(Fixture *f, const float p[3])
{
    NavError err;
    nav_error_clear(&err);
    NavBotDesc d = { .cls = 0, .pos = { p[0], p[1], p[2] + 0.05f } };
    int id = sim_add_bot(f->sim, &d, &err);
    cr_assert_geq(id, 0, "no bot at (%.2f, %.2f, %.2f): %s", p[0], p[1], p[2], err.message);
    return (uint32_t)id;
}

Test(in_the_way, both_ends_of_a_gap_once_the_graph_is_built)
{
    Fixture f = setup("maps/tiled/fort.tmj");
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = sim_graph(f.sim, 0, &err);
    cr_assert_not_null(ag, "%s", err.message);
    int jumps = 0, gap_answers = 0;
    uint32_t id = bot_at(&f, area_reach(ag, 0)->start);
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *l = area_reach(ag, i);
        if (l->type != NAV_TRAVEL_JUMP) continue;
        jumps++;
        for (int end = 0; end < 2; end++) {
            const float *at = end ? l->end : l->start;
            /* A little off the point toward the other end of the link, so
            ** the way out is defined: away from the point. */
            float dx = (end ? l->start[0] : l->end[0]) - at[0], dy = (end ? l->start[1] : l->end[1]) - at[1];
            float d = hypotf(dx, dy);
            float p[3] = { at[0] + 0.1f * dx / d, at[1] + 0.1f * dy / d, at[2] };
            p[2] += 0.05f;
            if (!sim_bot_teleport(f.sim, id, p)) continue; /* a body does not fit just there (a wall's corner) */
            float away[2];
            const char *what = NULL;
            cr_assert(sim_bot_in_the_way(f.sim, id, away, &what), "jump %u: a bot on its %s is in nobody's way", i,
                      end ? "landing" : "take-off");
            cr_assert_not_null(what);
            /* Another place to keep clear may be deeper there (a jump
            ** pad's landing beside the gap): it speaks then. */
            if (strcmp(what, "a gap's landing") != 0 && strcmp(what, "a gap's edge") != 0) continue;
            gap_answers++;
            cr_assert_gt(away[0] * dx + away[1] * dy, 0.0f, "jump %u: the way out (%.2f, %.2f) is not away from it", i,
                         away[0], away[1]);
            cr_assert_float_eq(hypotf(away[0], away[1]), 1.0f, 1e-4f);
        }
    }
    cr_assert_gt(jumps, 0, "the fort has a gap to jump");
    cr_assert_geq(gap_answers, jumps, "%d of the %d jumps' ends answered as a gap's", gap_answers, 2 * jumps);
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

Test(in_the_way, a_gap_counts_only_when_the_graph_is_built_and_open_floor_never)
{
    Fixture f = setup("maps/arena.lua");
    /* Arena has no gaps, ladders, teleporters or lifts near its middle. */
    uint32_t id = bot_at(&f, (float[3]){ 3.0f, 10.0f, 0.0f });
    float away[2];
    const char *what = NULL;
    cr_assert_not(sim_bot_in_the_way(f.sim, id, away, &what), "in the way of %s", what ? what : "?");
    teardown(&f);
    NAV_TEST_LEAK_CHECK();
}

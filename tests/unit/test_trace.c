/*
** test_trace.c — the hull trace (world/trace.h): hand-built worlds with
** known answers, then a brute-force oracle on random worlds and on the
** bundled maps.
**
** The oracle never calls the trace's own code. "Fits" is the definition
** straight from trace.h, written the other way round: the box is outside the
** map's edge on no side, and for every column whose open square its
** footprint reaches, ONE span holds its whole height (z <= lo, hi <=
** ceiling; a void has no bottom). Boxes are in double, origin + mins, the
** way trace.h says it computes them. A trace is then checked against it:
**   - start_solid exactly when the box does not fit at the start;
**   - a hit: the box fits at `end` (exactly: the trace promises it) and at
**     samples of the path before `touch`, does not fit just after `touch`
**     (at one of touch + 2^-10 .. 2^-45 of the move, or touch - 2^-23 ..
**     2^-45: `touch` is a float, off by up to 2^-24 of itself, and a box
**     clipping a corner may overlap it for a moment only), and what the
**     trace names (column, edge or box) overlaps the box at one of those;
**     fraction <= touch, pulled back by at most a few NAV_TRACE_EPSILON
**     along the normal; the normal is a unit axis against the move;
**   - no hit: the box fits at 200 points of the path and its end, and at
**     least every quarter of its smallest side on a long path.
** The tolerances: `end` is compared with start + delta * fraction to
** 1e-4 m plus 1e-6 of the move (fraction is a float); the pull-back bound
** allows TRACE_PULLBACK_TRIES (4) epsilons plus the float rounding of
** fraction and touch.
*/
#include "trace_support.h"

Test(trace, walking_into_a_wall_stops_at_its_face)
{
    static Builder b;
    NavWorld *w = walled(&b);
    /* hull x from 2.75 to 3.25; the face is at x = 6: touch when 3.25 + 4 t = 6 */
    NavTrace tr = trace(w, 3.0f, 5.0f, 0.0f, 4.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, 2.75 / 4.0, 4.0, "into the wall");
    assert_normal(tr, -1.0f, 0.0f, 0.0f);
    cr_assert(tr.is_static);
    cr_assert_eq(tr.box, -1);
    cr_assert_eq(tr.cell[0], 12);
    cr_assert(tr.cell[1] == 9 || tr.cell[1] == 10, "row %d: the hull spans rows 9 and 10", tr.cell[1]);
    cr_assert_float_eq(tr.end[0], 6.0f - 0.25f - NAV_TRACE_EPSILON, 1e-5);
    cr_assert_eq(tr.end[1], 5.0f);
    cr_assert_eq(tr.end[2], 0.0f);
    cr_assert(fits(w, tr.end[0], tr.end[1], tr.end[2]));

    /* The same from the other side: normal +x, face at 6.5. */
    tr = trace(w, 8.0f, 5.0f, 0.0f, -3.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, (8.0 - 0.25 - 6.5) / 3.0, 3.0, "from the east");
    assert_normal(tr, 1.0f, 0.0f, 0.0f);

    /* Diagonal into the wall: the x face is hit, y keeps its share. */
    tr = trace(w, 3.0f, 5.0f, 0.0f, 4.0f, 2.0f, 0.0f);
    assert_hit_at(&tr, 2.75 / 4.0, 4.0, "diagonal");
    assert_normal(tr, -1.0f, 0.0f, 0.0f);
    cr_assert_float_eq(tr.end[1], 5.0f + 2.0f * tr.fraction, 1e-5);

    /* Flush against the face (x = 5.75: maxs at exactly 6): fits, and
    ** pushing on is a hit at once, not a start in solid. */
    cr_assert(fits(w, 5.75f, 5.0f, 0.0f), "touching a face is not inside");
    cr_assert_not(fits(w, 5.7501f, 5.0f, 0.0f));
    tr = trace(w, 5.75f, 5.0f, 0.0f, 0.5f, 0.0f, 0.0f);
    assert_hit_at(&tr, 0.0, 0.5, "flush");
    cr_assert_eq(tr.fraction, 0.0f);
    assert_normal(tr, -1.0f, 0.0f, 0.0f);
    cr_assert_eq(tr.end[0], 5.75f);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, moving_along_a_wall_does_not_hit_it)
{
    static Builder b;
    NavWorld *w = walled(&b);
    assert_no_hit((NavTrace[]){ trace(w, 5.75f, 1.0f, 0.0f, 0.0f, 8.0f, 0.0f) }, "flush along +y");
    assert_no_hit((NavTrace[]){ trace(w, 5.75f, 9.0f, 0.0f, 0.0f, -8.5f, 0.0f) }, "flush along -y");
    assert_no_hit((NavTrace[]){ trace(w, 6.75f, 1.0f, 0.0f, 0.0f, 8.0f, 0.0f) }, "flush on the east side");
    /* Away from it, diagonally. */
    assert_no_hit((NavTrace[]){ trace(w, 5.75f, 1.0f, 0.0f, -1.0f, 3.0f, 0.0f) }, "away");
    /* Walking on the floor (feet exactly at z 0) is no hit either. */
    NavTrace tr = trace(w, 1.0f, 1.0f, 0.0f, 4.0f, 7.5f, 0.0f);
    assert_no_hit(&tr, "on the floor");
    cr_assert(tr.end[0] == 5.0f && tr.end[1] == 8.5f && tr.end[2] == 0.0f, "end is start + delta");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, a_higher_floor_is_a_wall_a_lower_one_is_not)
{
    static Builder b;
    builder_init(&b, 20, 20, 0.5f);
    const float ledge[] = { 0.5f, INFINITY }, kerb[] = { 0.01f, INFINITY }, pit[] = { -1.0f, INFINITY };
    set_rect(&b, 10, 0, 19, 9, NAV_CONTENTS_FLOOR, 1, ledge); /* x >= 5, y < 5 */
    set_rect(&b, 10, 10, 19, 19, NAV_CONTENTS_FLOOR, 1, kerb);  /* x >= 5, y >= 5 */
    set_rect(&b, 0, 0, 3, 19, NAV_CONTENTS_FLOOR, 1, pit);      /* x < 2 */
    NavWorld *w = builder_done(&b);

    NavTrace tr = trace(w, 3.0f, 2.0f, 0.0f, 3.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, (5.0 - 3.25) / 3.0, 3.0, "a 0.5 m ledge");
    assert_normal(tr, -1.0f, 0.0f, 0.0f);
    cr_assert_eq(tr.cell[0], 10);

    tr = trace(w, 3.0f, 7.0f, 0.0f, 3.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, (5.0 - 3.25) / 3.0, 3.0, "a 1 cm kerb");
    assert_normal(tr, -1.0f, 0.0f, 0.0f);

    /* Stepping up onto it from above its top: no hit. */
    assert_no_hit((NavTrace[]){ trace(w, 3.0f, 2.0f, 0.5f, 3.0f, 0.0f, 0.0f) }, "level with the ledge");
    /* Off a step down: no hit (no gravity in a trace). */
    assert_no_hit((NavTrace[]){ trace(w, 3.0f, 7.0f, 0.0f, -2.0f, 0.0f, 0.0f) }, "over the pit");

    /* Diagonally down onto the ledge's top edge: x and z enter at the same
    ** instant; z wins, a landing. Hull at (4.25, 2, 1.5) moving (2, 0, -4)
    ** reaches the x face 5 and the height 0.5 at t = 0.25. */
    tr = trace(w, 4.25f, 2.0f, 1.5f, 2.0f, 0.0f, -4.0f);
    assert_hit_at(&tr, 0.25, 4.0, "onto the edge");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, falling_lands_on_the_floor)
{
    static Builder b;
    builder_init(&b, 10, 10, 0.5f);
    const float upper[] = { 0.0f, 3.0f, 3.5f, INFINITY };
    set_rect(&b, 5, 0, 9, 9, NAV_CONTENTS_FLOOR, 2, upper); /* a slab 3 .. 3.5 over x >= 2.5 */
    NavWorld *w = builder_done(&b);

    NavTrace tr = trace(w, 1.0f, 1.0f, 4.0f, 0.0f, 0.0f, -10.0f);
    assert_hit_at(&tr, 0.4, 10.0, "a fall from 4 m");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    cr_assert_float_eq(tr.end[2], NAV_TRACE_EPSILON, 1e-6, "lands a millimetre over the floor: %g", (double)tr.end[2]);
    cr_assert(tr.cell[1] == 1 || tr.cell[1] == 2, "row %d", tr.cell[1]);

    tr = trace(w, 4.0f, 1.0f, 6.0f, 0.0f, 0.0f, -10.0f);
    assert_hit_at(&tr, 0.25, 10.0, "onto the upper floor");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    cr_assert_float_eq(tr.end[2], 3.5f + NAV_TRACE_EPSILON, 1e-6);

    /* Standing exactly on it: fits; falling further is a hit at 0. */
    cr_assert(fits(w, 4.0f, 1.0f, 3.5f));
    cr_assert_not(fits(w, 4.0f, 1.0f, 3.49f));
    tr = trace(w, 4.0f, 1.0f, 3.5f, 0.0f, 0.0f, -1.0f);
    assert_hit_at(&tr, 0.0, 1.0, "standing");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    cr_assert_eq(tr.end[2], 3.5f);

    /* Straddling two heights, the higher floor takes the fall. */
    tr = trace(w, 2.5f, 1.0f, 6.0f, 0.0f, 0.0f, -10.0f);
    assert_hit_at(&tr, 0.25, 10.0, "straddling");
    cr_assert_eq(tr.cell[0], 5);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, a_low_ceiling_blocks_a_jump)
{
    static Builder b;
    builder_init(&b, 10, 10, 0.5f);
    const float room[] = { 0.0f, 2.5f, 2.75f, INFINITY };
    set_rect(&b, 0, 0, 4, 9, NAV_CONTENTS_FLOOR, 2, room);
    NavWorld *w = builder_done(&b);

    /* The hull's top at 1.75 meets the ceiling at 2.5 halfway up a 1.5 m jump. */
    NavTrace tr = trace(w, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.5f);
    assert_hit_at(&tr, 0.5, 1.5, "jump");
    assert_normal(tr, 0.0f, 0.0f, -1.0f);
    cr_assert_float_eq(tr.end[2], 0.75f - NAV_TRACE_EPSILON, 1e-6);
    /* Under open sky it is free. */
    assert_no_hit((NavTrace[]){ trace(w, 4.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.5f) }, "open sky");
    /* Beside the room, flush with its edge, jumping up and away: nothing. */
    assert_no_hit((NavTrace[]){ trace(w, 2.75f, 1.0f, 0.0f, 1.0f, 0.0f, 1.5f) }, "out under the sky");
    /* Jumping into the room's edge from outside at height: hits the slab's side. */
    tr = trace(w, 3.0f, 1.0f, 2.0f, -1.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, (3.0 - 0.25 - 2.5) / 1.0, 1.0, "into the slab's side");
    assert_normal(tr, 1.0f, 0.0f, 0.0f);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, starting_inside_solid)
{
    static Builder b;
    NavWorld *w = walled(&b);
    cr_assert_not(fits(w, 6.25f, 5.0f, 0.0f), "in the wall");
    cr_assert_not(fits(w, 3.0f, 5.0f, -0.01f), "feet in the floor");
    cr_assert(fits(w, 3.0f, 5.0f, 0.0f));
    const float moves[][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 0, 5 }, { 0, 0, 0 } };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(moves); i++) {
        NavTrace tr = trace(w, 6.25f, 5.0f, 0.0f, moves[i][0], moves[i][1], moves[i][2]);
        cr_assert(tr.hit && tr.start_solid, "move %zu", i);
        cr_assert_eq(tr.fraction, 0.0f);
        cr_assert_eq(tr.touch, 0.0f);
        cr_assert(tr.end[0] == 6.25f && tr.end[1] == 5.0f && tr.end[2] == 0.0f);
        cr_assert(tr.is_static);
        cr_assert_eq(tr.cell[0], 12);
    }
    NavTrace tr = trace(w, 3.0f, 5.0f, -0.01f, 0.0f, 0.0f, 1.0f);
    cr_assert(tr.start_solid, "feet in the floor, even moving out");
    tr = trace(w, NAN, 5.0f, 0.0f, 1.0f, 0.0f, 0.0f);
    cr_assert(tr.start_solid, "not a number");
    tr = trace(w, 3.0f, 5.0f, 0.0f, INFINITY, 0.0f, 0.0f);
    cr_assert(tr.start_solid, "an infinite move");
    cr_assert_not(world_box_fits(w, HULL_MINS, HULL_MAXS, (const float[3]){ 3.0f, NAN, 0.0f }));
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, outside_the_map_is_solid)
{
    static Builder b;
    NavWorld *w = walled(&b); /* 10 x 10 m */
    cr_assert(fits(w, 0.25f, 0.25f, 0.0f), "flush with two edges");
    cr_assert_not(fits(w, 0.2f, 1.0f, 0.0f), "over the west edge");
    cr_assert_not(fits(w, 1.0f, 9.8f, 0.0f), "over the north edge");
    cr_assert_not(fits(w, 20.0f, 1.0f, 0.0f), "far outside");
    NavTrace tr = trace(w, 1.0f, 1.0f, 0.0f, -2.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, 0.75 / 2.0, 2.0, "west edge");
    assert_normal(tr, 1.0f, 0.0f, 0.0f);
    cr_assert(tr.is_static);
    cr_assert(tr.cell[0] == -1 && tr.cell[1] == -1 && tr.box == -1, "the edge is no column");
    tr = trace(w, 1.0f, 9.0f, 0.0f, 0.0f, 2.0f, 0.0f);
    assert_hit_at(&tr, 0.75 / 2.0, 2.0, "north edge");
    assert_normal(tr, 0.0f, -1.0f, 0.0f);
    tr = trace(w, 9.0f, 1.0f, 0.0f, 0.0f, -2.0f, 0.0f);
    assert_hit_at(&tr, 0.75 / 2.0, 2.0, "south edge");
    assert_normal(tr, 0.0f, 1.0f, 0.0f);
    tr = trace(w, 30.0f, 1.0f, 0.0f, -2.0f, 0.0f, 0.0f);
    cr_assert(tr.start_solid && tr.is_static && tr.cell[0] == -1, "from outside");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, a_void_has_no_bottom_and_clip_and_liquids_are_open)
{
    static Builder b;
    builder_init(&b, 10, 10, 0.5f);
    const float open[] = { 0.0f, INFINITY }, water[] = { -2.0f, INFINITY };
    set_rect(&b, 0, 0, 3, 9, NAV_CONTENTS_VOID, 1, open);      /* x < 2 */
    set_rect(&b, 4, 0, 5, 9, NAV_CONTENTS_CLIP, 1, open);      /* 2 <= x < 3 */
    set_rect(&b, 6, 0, 7, 9, NAV_CONTENTS_WATER, 1, water);    /* 3 <= x < 4, bed at -2 */
    set_rect(&b, 8, 0, 8, 9, NAV_CONTENTS_LADDER, 1, open);
    NavWorld *w = builder_done(&b);

    assert_no_hit((NavTrace[]){ trace(w, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, -1e6f) }, "down the void");
    cr_assert(fits(w, 1.0f, 1.0f, -1e9f), "a void is open all the way down");
    /* Half over the void, half over clip: the clip floor holds the box. */
    NavTrace tr = trace(w, 2.0f, 1.0f, 1.0f, 0.0f, 0.0f, -5.0f);
    assert_hit_at(&tr, 0.2, 5.0, "half over the void");
    cr_assert_eq(tr.cell[0], 4);
    /* Walking across clip, water and ladder columns: nothing in the way. */
    assert_no_hit((NavTrace[]){ trace(w, 0.5f, 3.0f, 0.0f, 3.75f, 0.0f, 0.0f) }, "across");
    /* Sinking in water stops on the bed, not at the surface. */
    tr = trace(w, 3.5f, 1.0f, 0.0f, 0.0f, 0.0f, -4.0f);
    assert_hit_at(&tr, 0.5, 4.0, "the bed");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    /* Walking from the water's bed sideways into the bank: a wall. */
    tr = trace(w, 3.5f, 1.0f, -2.0f, -1.0f, 0.0f, 0.0f);
    assert_hit_at(&tr, 0.25, 1.0, "the bank");
    assert_normal(tr, 1.0f, 0.0f, 0.0f);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, touching_spans_keep_a_slab_of_no_thickness)
{
    static Builder b;
    builder_init(&b, 10, 10, 0.5f);
    const float storeys[] = { 0.0f, 2.0f, 2.0f, INFINITY };
    set_rect(&b, 0, 0, 9, 9, NAV_CONTENTS_FLOOR, 2, storeys);
    NavWorld *w = builder_done(&b);
    cr_assert(fits(w, 1.0f, 1.0f, 0.25f), "under it");
    cr_assert(fits(w, 1.0f, 1.0f, 2.0f), "on it");
    cr_assert_not(fits(w, 1.0f, 1.0f, 1.0f), "through it");
    NavTrace tr = trace(w, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    assert_hit_at(&tr, 0.25, 1.0, "head against it");
    assert_normal(tr, 0.0f, 0.0f, -1.0f);
    tr = trace(w, 1.0f, 1.0f, 3.0f, 0.0f, 0.0f, -2.0f);
    assert_hit_at(&tr, 0.5, 2.0, "landing on it");
    assert_normal(tr, 0.0f, 0.0f, 1.0f);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, dynamic_boxes_and_ignore)
{
    static Builder b;
    NavWorld *w = walled(&b); /* wall face at x = 6 */
    NavBox boxes[3] = {
        { { 1.0f, 8.0f, 0.0f }, { 2.0f, 9.0f, 1.0f } },  /* off the path */
        { { 4.0f, 4.5f, 0.0f }, { 4.5f, 5.5f, 2.0f } },  /* in the path, before the wall */
        { { 5.0f, 4.0f, 0.5f }, { 5.5f, 6.0f, 3.0f } },  /* behind box 1, before the wall */
    };
    const float start[3] = { 3.0f, 5.0f, 0.0f }, delta[3] = { 4.0f, 0.0f, 0.0f };
    NavTrace tr;
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, boxes, 3, -1, &tr);
    assert_hit_at(&tr, 0.75 / 4.0, 4.0, "box 1");
    cr_assert_not(tr.is_static);
    cr_assert_eq(tr.box, 1);
    cr_assert_eq(tr.cell[0], -1);
    assert_normal(tr, -1.0f, 0.0f, 0.0f);

    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, boxes, 3, 1, &tr);
    assert_hit_at(&tr, 1.75 / 4.0, 4.0, "box 2 once box 1 is ignored");
    cr_assert_eq(tr.box, 2);

    /* The wall is nearer than a box behind it. */
    NavBox far = { { 7.0f, 4.0f, 0.0f }, { 8.0f, 6.0f, 2.0f } };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, (const float[3]){ 6.0f, 0.0f, 0.0f }, &far, 1, -1, &tr);
    assert_hit_at(&tr, 2.75 / 6.0, 6.0, "the wall before the box");
    cr_assert(tr.is_static);
    cr_assert_eq(tr.box, -1);

    /* A box flush against the wall face: the world wins the tie. */
    NavBox flush = { { 5.5f, 4.0f, 0.0f }, { 6.0f, 6.0f, 2.0f } };
    NavBox in_wall = { { 6.0f, 4.0f, 0.0f }, { 6.5f, 6.0f, 2.0f } };
    NavBox pair[2] = { flush, in_wall };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, &pair[1], 1, -1, &tr);
    assert_hit_at(&tr, 2.75 / 4.0, 4.0, "tie");
    cr_assert(tr.is_static, "a tie goes to the world");
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, pair, 2, -1, &tr);
    cr_assert_eq(tr.box, 0, "the flush box is hit first");

    /* Starting inside a box (the mover's own, unless ignored). */
    NavBox self = { { 2.75f, 4.75f, 0.0f }, { 3.25f, 5.25f, 1.75f } };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, &self, 1, -1, &tr);
    cr_assert(tr.start_solid && tr.box == 0 && !tr.is_static);
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, &self, 1, 0, &tr);
    cr_assert(tr.hit && !tr.start_solid && tr.is_static, "its own box ignored");

    /* Flat boxes are walls of no thickness: one lying at the feet is walked
    ** over, one standing across the path is hit. */
    NavBox mat = { { 3.5f, 4.0f, 0.0f }, { 4.0f, 6.0f, 0.0f } };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, &mat, 1, -1, &tr);
    cr_assert(tr.hit && tr.is_static, "a flat box at the feet is not walked into");
    NavBox sheet = { { 3.5f, 4.0f, 0.0f }, { 3.5f, 6.0f, 2.0f } };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, &sheet, 1, -1, &tr);
    assert_hit_at(&tr, 0.25 / 4.0, 4.0, "a sheet");
    cr_assert_eq(tr.box, 0);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(trace, float_rounding_never_leaves_the_box_in_solid)
{
    /* Found by a search: the box slips under a corner (box 0) with its top
    ** 1e-8 m below the corner's bottom face, then hits box 1 just past the
    ** corner's side. The exact end, pulled back by NAV_TRACE_EPSILON, is
    ** clear of the corner, but rounding its y to float lifts the box into
    ** it; the trace must see that and pull back further. */
    static Builder b;
    builder_init(&b, 12, 12, 0.5f);
    NavWorld *w = builder_done(&b);
    const float my = 0x1.7ad904p-2f, xc = 0x1.5f75c6p+1f, yc = 0x1.7c49d2p+1f, bx = 0x1.5f9c4ap+1f;
    const float mins[3] = { -0.25f, -my, 0.0f }, maxs[3] = { 0.25f, my, 1.0f };
    const NavBox boxes[2] = {
        { { xc, yc, -1.0f }, { xc + 1.0f, yc + 1.0f, 5.0f } },
        { { bx, yc - 3.0f, -1.0f }, { bx + 1.0f, yc + 3.0f, 5.0f } },
    };
    const float start[3] = { 0x1.14cbf2p+1f, 0x1.4cf03p+1f, 0.0f }, delta[3] = { 1.0f, -0x1.1eeb3ep-13f, 0.0f };
    NavTrace tr;
    world_trace_box(w, mins, maxs, start, delta, boxes, 2, -1, &tr);
    cr_assert(tr.hit && !tr.start_solid && tr.box == 1, "hit box %d", tr.box);
    assert_normal(tr, -1.0f, 0.0f, 0.0f);
    for (int i = 0; i < 2; i++) {
        double lo[3], hi[3];
        bool in = true;
        for (int a = 0; a < 3; a++) {
            lo[a] = (double)tr.end[a] + mins[a];
            hi[a] = (double)tr.end[a] + maxs[a];
            in = in && lo[a] < boxes[i].maxs[a] && hi[a] > boxes[i].mins[a];
        }
        cr_assert_not(in, "the box at end (%a, %a) overlaps box %d", (double)tr.end[0], (double)tr.end[1], i);
    }
    cr_assert(tr.fraction < tr.touch - 1.5 * NAV_TRACE_EPSILON, "pulled back twice: fraction %.9g, touch %.9g",
              (double)tr.fraction, (double)tr.touch);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_area_fit.c — the area graph agrees with the body: every terrain
** link lets the class's box through in the world (checked with hull
** traces, an oracle independent of the compiler's cell rules), every
** doorway the body fits through is linked and every one it does not fit
** through is not, and is listed as a narrow opening instead.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "map/map.h"
#include "test_support.h"
#include "world/trace.h"

/* {======= the oracle: sweep the body's box along a link ======= */

static float kind_body(const NavClass *c, const NavArea *a)
{
    if (a->flags & NAV_AREA_CROUCH) return c->crouch_height;
    if ((a->flags & NAV_AREA_LIQUID) && !(a->flags & NAV_AREA_GROUND)) return 0.5f * c->height;
    return c->height;
}

/* The box of half side r from a step over the feet (steps are walked up)
** to the body's top, swept from p to q: true when it never touches solid. */
static int hit_cell[2];
static float hit_at;

static bool sweep(const NavWorld *w, const NavClass *c, float body, const float p[3], const float q[3])
{
    float mins[3] = { -c->radius, -c->radius, c->step + 1e-3f }, maxs[3] = { c->radius, c->radius, body };
    float d[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
    NavTrace tr;
    world_trace_box(w, mins, maxs, p, d, NULL, 0, -1, &tr);
    hit_cell[0] = tr.cell[0];
    hit_cell[1] = tr.cell[1];
    hit_at = tr.start_solid ? -1.0f : tr.touch;
    return !tr.start_solid && !tr.hit;
}

/* How the body moves along a terrain link: level moves straight; going
** up, first up at the start, then across; going down, across, then down;
** a jump's arc is not swept, its two ends must hold the body. */
static bool link_passes(const NavAreaGraph *ag, const NavReach *r, char *why, size_t cap)
{
    const NavWorld *w = area_world(ag);
    const NavClass *c = area_class(ag);
    float body = fminf(kind_body(c, area_get(ag, r->from)), kind_body(c, area_get(ag, r->to)));
    float dh = r->end[2] - r->start[2];
    bool ok;
    if (r->type == NAV_TRAVEL_JUMP) {
        ok = sweep(w, c, body, r->start, r->start) && sweep(w, c, body, r->end, r->end);
    } else if (dh > c->step + 1e-4f) {
        float corner[3] = { r->start[0], r->start[1], r->end[2] };
        ok = sweep(w, c, body, r->start, corner) && sweep(w, c, body, corner, r->end);
    } else if (dh < -c->step - 1e-4f) {
        float corner[3] = { r->end[0], r->end[1], r->start[2] };
        ok = sweep(w, c, body, r->start, corner) && sweep(w, c, body, corner, r->end);
    } else {
        /* level: up the step first, then across at the higher floor */
        float z = fmaxf(r->start[2], r->end[2]);
        float p[3] = { r->start[0], r->start[1], z }, q[3] = { r->end[0], r->end[1], z };
        ok = sweep(w, c, body, p, q);
    }
    if (!ok)
        snprintf(why, cap, "%s: class %s: %s link %u -> %u from (%.3f, %.3f, %.2f) to (%.3f, %.3f, %.2f): the body (%.2f m "
                           "wide, %.2f m tall) does not get through: it meets column (%d, %d) at %.3f of the way",
                 world_name(w), c->name, area_travel_name((NavTravelType)r->type), r->from, r->to, r->start[0],
                 r->start[1], r->start[2], r->end[0], r->end[1], r->end[2], 2.0 * c->radius, body, hit_cell[0], hit_cell[1],
                 (double)hit_at);
    return ok;
}

static void check_links_pass(const NavWorld *w, int cls)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_compile(w, cls, NULL, &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    uint32_t checked = 0;
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (r->entity >= 0) continue;
        char why[512];
        cr_assert(link_passes(ag, r, why, sizeof why), "%s", why);
        /* the opening a link crosses holds the body */
        float width = hypotf(r->edge[1][0] - r->edge[0][0], r->edge[1][1] - r->edge[0][1]);
        if (r->type != NAV_TRAVEL_JUMP)
            cr_assert_geq(width, 2.0f * area_class(ag)->radius - 1e-4f, "%s: %s link %u is %.3f m wide, the body %.3f m",
                          world_name(w), area_travel_name((NavTravelType)r->type), i, width,
                          2.0 * area_class(ag)->radius);
        checked++;
    }
    cr_assert_gt(checked, 0, "%s: no terrain links", world_name(w));
    area_destroy(ag);
}

Test(area_fit, every_link_of_the_small_maps_lets_the_body_through)
{
    for (int m = 0; m < 3; m++) {
        NavWorld *w = test_load_map(BUNDLED_MAPS[m]);
        for (int c = 0; c < world_class_count(w); c++) check_links_pass(w, c);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(area_fit, every_link_of_valley_lets_each_class_through, .timeout = 120)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    for (int c = 0; c < world_class_count(w); c++) check_links_pass(w, c);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area_fit, every_link_of_a_generated_building_lets_the_body_through, .timeout = 60)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_generate_building(96, 96, 3, 7, &err);
    cr_assert_not_null(w, "%s", err.message);
    check_links_pass(w, 0);
    /* its ladders are climbed: their hatches fit the body */
    NavAreaGraph *ag = area_compile(w, 0, NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    NavAreaStats st;
    area_stats(ag, &st);
    cr_assert_gt(st.reaches_by_type[NAV_TRAVEL_LADDER], 0, "no ladder links in the generated building");
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= doorways ======= */

/* Two rooms, south and north, 24 cells wide and 9 deep, behind a wall
** `thick` cells thick with a doorway of `door` cells in the middle; the
** class "body" has the given radius. */
static NavWorld *doorway(float cs, int door, int thick, float radius)
{
    enum { W = 26, ROOM = 9 };
    int h = 2 * ROOM + thick + 2;
    char buf[8192];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n,
                          "return { name = 'doorway', cell_size = %g, layers = { { z = 0, rows = {\n", (double)cs);
    for (int row = 0; row < h; row++) {
        char line[W + 1];
        for (int x = 0; x < W; x++) {
            bool edge = row == 0 || row == h - 1 || x == 0 || x == W - 1;
            bool wall = row >= ROOM + 1 && row < ROOM + 1 + thick;
            int d0 = (W - door) / 2;
            bool in_door = x >= d0 && x < d0 + door;
            line[x] = edge || (wall && !in_door) ? '#' : '.';
        }
        line[W] = '\0';
        n += (size_t)snprintf(buf + n, sizeof buf - n, "  '%s',\n", line);
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "} } }, classes = { { name = 'body', radius = %.4f } } }\n",
                          (double)radius);
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_lua(buf, n, "doorway.lua", NULL, &err);
    cr_assert_not_null(w, "%s\n%s", err.message, buf);
    return w;
}

Test(area_fit, a_doorway_is_linked_iff_the_body_fits)
{
    static const float CELL[] = { 0.5f, 0.25f };
    static const float BODY[] = { 0.7f, 0.8f, 0.85f, 1.0f, 1.2f };
    for (size_t ci = 0; ci < sizeof CELL / sizeof *CELL; ci++) {
        float cs = CELL[ci];
        for (int door = 1; door <= (int)(1.5f / cs + 0.5f); door++) {
            for (int thick = 1; thick <= 3; thick += 2) {
                for (size_t bi = 0; bi < sizeof BODY / sizeof *BODY; bi++) {
                    float width = (float)door * cs, body = BODY[bi];
                    NavWorld *w = doorway(cs, door, thick, 0.5f * body);
                    int cls = world_find_class(w, "body");
                    NavError err;
                    nav_error_clear(&err);
                    NavAreaGraph *ag = area_compile(w, cls, NULL, &err);
                    cr_assert_not_null(ag, "%s", err.message);
                    /* the wall's faces, in metres */
                    float south = 10.0f * cs, north = (10.0f + (float)thick) * cs;
                    bool fits = body <= width + 1e-5f;
                    /* Every link in or across the doorway lets the body
                    ** through and spans the door's width. */
                    uint32_t through = 0;
                    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
                        const NavReach *r = area_reach(ag, i);
                        float y0 = fminf(r->start[1], r->end[1]), y1 = fmaxf(r->start[1], r->end[1]);
                        if (!(y0 < north + 0.5f * body && y1 > south - 0.5f * body)) continue;
                        char why[512];
                        cr_assert(link_passes(ag, r, why, sizeof why), "%s", why);
                        float ew = fabsf(r->edge[1][0] - r->edge[0][0]);
                        if (fabsf(r->edge[0][1] - r->edge[1][1]) < 1e-6f && r->edge[0][1] >= south - 1e-4f &&
                            r->edge[0][1] <= north + 1e-4f) {
                            through++;
                            cr_assert(fabsf(ew - width) < 1e-4f,
                                      "cells %.2f m, door %.2f m, wall %d cells: the link's opening is %.3f m", cs,
                                      width, thick, ew);
                        }
                    }
                    /* The rooms are joined iff the body fits: a search over the links. */
                    uint32_t from = area_point_area(ag, 13.0f * cs, 3.0f * cs, 0.0f);
                    uint32_t to = area_point_area(ag, 13.0f * cs, north + 5.0f * cs, 0.0f);
                    cr_assert(from != NAV_NO_AREA && to != NAV_NO_AREA, "the rooms have no areas");
                    uint32_t na = area_count(ag);
                    bool *seen = nav_calloc(na, sizeof *seen);
                    uint32_t *queue = nav_malloc(na * sizeof *queue), qn = 0;
                    seen[from] = true;
                    queue[qn++] = from;
                    for (uint32_t qi = 0; qi < qn; qi++) {
                        const NavArea *ar = area_get(ag, queue[qi]);
                        for (uint32_t li = ar->first_reach; li < ar->first_reach + ar->reach_count; li++) {
                            uint32_t b = area_reach(ag, li)->to;
                            if (!seen[b]) seen[b] = true, queue[qn++] = b;
                        }
                    }
                    bool joined = seen[to];
                    nav_free(seen);
                    nav_free(queue);
                    cr_assert_eq(joined, fits,
                                 "cells %.2f m, door %.2f m in a wall %d cells thick, body %.2f m: the rooms are %s, the "
                                 "body %s",
                                 cs, width, thick, body, joined ? "linked" : "not linked", fits ? "fits" : "does not fit");
                    /* (an area may span a thin wall's doorway: then no link crosses it) */
                    if (!fits) cr_assert_eq(through, 0, "cells %.2f m, door %.2f m, wall %d, body %.2f m: %u links cross the wall", cs, width, thick, body, through);
                    /* Not fitting: the door is listed, at its middle, with its width. */
                    uint32_t listed = 0;
                    for (uint32_t i = 0; i < area_narrow_count(ag); i++) {
                        const NavNarrow *nw = area_narrow(ag, i);
                        listed++;
                        cr_assert(fabsf(nw->width - width) < 1e-4f, "narrow opening %.3f m wide, the door is %.3f m",
                                  nw->width, width);
                        cr_assert(fabsf(nw->point[0] - 13.0f * cs) < 1e-4f || door % 2 == 1,
                                  "narrow opening at x %.3f, the door's middle is %.3f", nw->point[0], 13.0 * cs);
                        cr_assert(nw->point[1] > south && nw->point[1] < north, "narrow opening at y %.3f, the wall %.3f-%.3f",
                                  nw->point[1], south, north);
                    }
                    cr_assert_eq(listed, fits ? 0u : 1u,
                                 "cells %.2f m, door %.2f m, wall %d, body %.2f m: %u narrow openings listed", cs,
                                 width, thick, body, listed);
                    area_destroy(ag);
                    world_destroy(w);
                }
            }
        }
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= ladders through hatches ======= */

/* A room whose north wall carries a ladder `hatch` cells wide (from col 6)
** up 4 m through a hatch as wide and 3 rows deep in the floor above, onto
** a landing over the wall. */
static NavWorld *ladder_hatch(int hatch, float radius)
{
    static const char *const GROUND[] = {
        "################", "################", "################", "################", "#..............#",
        "#..............#", "#..............#", "#..............#", "#..............#", "#..............#",
        "#..............#", "################",
    };
    char upper[12][17];
    for (int row = 0; row < 12; row++) {
        for (int x = 0; x < 16; x++) {
            bool landing = row >= 1 && row <= 3 && x >= 1 && x <= 14;
            bool hole = row >= 4 && row <= 6 && x >= 6 && x < 6 + hatch;
            upper[row][x] = landing ? '.' : hole ? ' ' : '#';
        }
        upper[row][16] = '\0';
    }
    char buf[4096];
    size_t n = (size_t)snprintf(buf, sizeof buf,
                                "return { name = 'hatch', cell_size = 0.5, legend = { H = { type = 'ladder', top = 4, "
                                "face = 'north' } }, layers = { { z = 0, rows = {");
    for (int row = 0; row < 12; row++) {
        char line[17];
        memcpy(line, GROUND[row], sizeof line);
        if (row == 4) memset(line + 6, 'H', (size_t)hatch); /* the ladder fills the hatch's width */
        n += (size_t)snprintf(buf + n, sizeof buf - n, "'%s',", line);
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "} }, { z = 4, rows = {");
    for (int row = 0; row < 12; row++) n += (size_t)snprintf(buf + n, sizeof buf - n, "'%s',", upper[row]);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "} } }, classes = { { name = 'body', radius = %.4f } } }\n",
                          (double)radius);
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_lua(buf, n, "hatch.lua", NULL, &err);
    cr_assert_not_null(w, "%s\n%s", err.message, buf);
    return w;
}

Test(area_fit, a_ladder_is_linked_iff_the_climber_fits_its_hatch)
{
    static const float BODY[] = { 0.7f, 0.8f, 1.0f, 1.2f };
    for (int hatch = 1; hatch <= 3; hatch++) {
        for (size_t bi = 0; bi < sizeof BODY / sizeof *BODY; bi++) {
            float width = 0.5f * (float)hatch, body = BODY[bi];
            NavWorld *w = ladder_hatch(hatch, 0.5f * body);
            NavError err;
            nav_error_clear(&err);
            NavAreaGraph *ag = area_compile(w, world_find_class(w, "body"), NULL, &err);
            cr_assert_not_null(ag, "%s", err.message);
            bool fits = body <= width + 1e-5f;
            uint32_t ladders = 0;
            for (uint32_t i = 0; i < area_reach_count(ag); i++) {
                const NavReach *r = area_reach(ag, i);
                char why[512];
                cr_assert(link_passes(ag, r, why, sizeof why), "hatch %.2f m: %s", width, why);
                if (r->type == NAV_TRAVEL_LADDER) ladders++;
            }
            cr_assert_eq(ladders > 0, fits, "hatch %.2f m, body %.2f m: %u ladder links, the climber %s", width, body,
                         ladders, fits ? "fits" : "does not fit");
            uint32_t listed = 0;
            for (uint32_t i = 0; i < area_narrow_count(ag); i++) {
                const NavNarrow *nw = area_narrow(ag, i);
                if (nw->type != NAV_TRAVEL_LADDER) continue;
                listed++;
                cr_assert(fabsf(nw->width - width) < 1e-4f, "hatch %.2f m listed %.3f m wide", width, nw->width);
                cr_assert(fabsf(nw->point[2] - 4.0f) < 1e-4f, "hatch listed at z %.2f", nw->point[2]);
            }
            cr_assert_eq(listed, fits ? 0u : 1u, "hatch %.2f m, body %.2f m: %u narrow ladder openings", width, body,
                         listed);
            area_destroy(ag);
            world_destroy(w);
        }
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

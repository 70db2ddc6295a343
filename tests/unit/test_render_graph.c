/*
** test_render_graph.c — the pictures of an area graph and of a route over
** it (render/render_graph.h): every link type shows its colour, portal
** areas are amber, the heat map runs from hot at the goal to cold far
** from it, the route is drawn in its links' colours between the markers.
*/
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "area/area.h"
#include "map/map.h"
#include "render/render_graph.h"
#include "route/route.h"
#include "test_support.h"

static NavColor pixel(const NavImage *img, float x, float y)
{
    int px = (int)x, py = (int)y;
    const uint8_t *p = img->pixels + ((size_t)py * (size_t)img->width + (size_t)px) * 4;
    return nav_rgba(p[0], p[1], p[2], p[3]);
}

static bool same_color(NavColor a, NavColor b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static NavAreaGraph *build(const NavWorld *w, int cluster_limit)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_build(w, world_find_class(w, "human"), &(NavAreaDesc){ .max_cluster_areas = cluster_limit },
                                  &err);
    cr_assert_not_null(ag, "%s: %s", world_name(w), err.message);
    return ag;
}

Test(render_graph, picture_shows_every_link_type_and_the_portals)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = build(w, 24);
    NavError err;
    int scale = 0;
    NavImage *img = render_area_graph(ag, 1024, &scale, &err);
    cr_assert_not_null(img, "%s", err.message);
    cr_assert_eq(img->width, world_width(w) * scale);
    cr_assert_eq(img->height, world_height(w) * scale);
    float ppm = (float)scale / world_cell_size(w);

    /* Every travel type on the map shows its colour where one of its links
    ** lands (later links may cover some dots, never all of a type's). */
    bool present[NAV_TRAVEL_COUNT] = { false }, shown[NAV_TRAVEL_COUNT] = { false };
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        if (r->type == NAV_TRAVEL_WALK) continue;
        present[r->type] = true;
        NavColor c = pixel(img, r->end[0] * ppm, (float)img->height - r->end[1] * ppm);
        if (same_color(c, render_travel_color((NavTravelType)r->type))) shown[r->type] = true;
    }
    for (int t = 1; t < NAV_TRAVEL_COUNT; t++)
        if (present[t]) cr_expect(shown[t], "no %s link is visible in the picture", area_travel_name((NavTravelType)t));

    /* Portal areas are amber at some cell no link crosses. */
    cr_assert_gt(area_portal_count(ag), 0, "gauntlet at a limit of 24 has no portals");
    uint32_t amber = 0;
    for (uint32_t p = 0; p < area_portal_count(ag); p++) {
        const NavArea *a = area_get(ag, area_portal(ag, p)->area);
        float cx = ((float)a->x0 + 0.25f) * (float)scale, cy = (float)img->height - ((float)a->y0 + 0.25f) * (float)scale;
        NavColor c = pixel(img, cx, cy - 1);
        amber += c.r == 250 && c.g == 185 && c.b == 40;
    }
    cr_expect_gt(amber, 0, "no portal area is drawn amber");
    image_destroy(img);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* Redness minus blueness: the heat ramp runs from red (at the goal) to
** blue (far), so along a route this falls. */
static int warmth(NavColor c) { return (int)c.r - (int)c.b; }

Test(render_graph, route_picture_heat_runs_from_the_goal_and_the_route_is_drawn)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = build(w, 0);
    NavError err;
    NavRouter *router = router_create(ag, NULL, &err);
    cr_assert_not_null(router, "%s", err.message);
    /* From area 0 to the area farthest from it by travel time. */
    uint32_t a = 0, b = 0, longest = 0;
    for (uint32_t i = 1; i < area_count(ag); i++) {
        NavRoute q;
        if (NAV_SUCCEEDED(router_route(router, a, NULL, i, NAV_TFL_DEFAULT, &q)) && q.time != ROUTE_UNREACHABLE &&
            q.time > longest)
            longest = q.time, b = i;
    }
    cr_assert_neq(b, a, "nothing is reachable from area 0");
    const float *from = area_get(ag, a)->center, *to = area_get(ag, b)->center;
    uint32_t links[256];
    int n;
    NavRoute q;
    cr_assert(NAV_SUCCEEDED(router_route_links(router, a, from, b, NAV_TFL_DEFAULT, links, 256, &n, &q)));
    cr_assert(n > 0 && n <= 256 && q.time != ROUTE_UNREACHABLE);
    RenderRoute rr = { .router = router, .goal_area = b, .flags = NAV_TFL_DEFAULT, .links = links, .link_count = n,
                       .reachable = true };
    memcpy(rr.from, from, sizeof rr.from);
    memcpy(rr.to, to, sizeof rr.to);
    int scale = 0;
    NavImage *img = render_route_picture(&rr, 1024, &scale, &err);
    cr_assert_not_null(img, "%s", err.message);
    float ppm = (float)scale / world_cell_size(w);

    /* Markers: green at the start, blue at the goal. */
    NavColor s = pixel(img, from[0] * ppm, (float)img->height - from[1] * ppm);
    NavColor g = pixel(img, to[0] * ppm, (float)img->height - to[1] * ppm);
    cr_expect(same_color(s, nav_rgba(30, 180, 60, 255)), "start marker %d,%d,%d", s.r, s.g, s.b);
    cr_expect(same_color(g, nav_rgba(40, 80, 230, 255)), "goal marker %d,%d,%d", g.r, g.g, g.b);

    /* Each link of the route is drawn in its travel type's colour at its
    ** middle (walks white, the rest their colour), unless a later link
    ** covers it: most are visible. */
    int seen = 0;
    for (int k = 0; k < n; k++) {
        const NavReach *l = area_reach(ag, links[k]);
        float mx = 0.5f * (l->start[0] + l->end[0]), my = 0.5f * (l->start[1] + l->end[1]);
        NavColor c = pixel(img, mx * ppm, (float)img->height - my * ppm);
        seen += same_color(c, render_travel_color((NavTravelType)l->type));
    }
    cr_expect_geq(seen * 2, n, "%d of %d links drawn in their colour", seen, n);

    /* The heat: an area corner away from the lines, in the goal's area and
    ** in the start's. The goal's is warmer. */
    const NavArea *ga = area_get(ag, b), *sa = area_get(ag, a);
    NavColor hg = pixel(img, ((float)ga->x1 + 0.8f) * (float)scale, (float)img->height - ((float)ga->y0 + 0.2f) * (float)scale);
    NavColor hs = pixel(img, ((float)sa->x1 + 0.8f) * (float)scale, (float)img->height - ((float)sa->y0 + 0.2f) * (float)scale);
    cr_expect_gt(warmth(hg), warmth(hs), "goal area %d,%d,%d is not warmer than the start's %d,%d,%d", hg.r, hg.g, hg.b,
                 hs.r, hs.g, hs.b);

    /* Without a route: markers only, and the picture still comes. */
    rr.reachable = false;
    NavImage *bare = render_route_picture(&rr, 256, &scale, &err);
    cr_assert_not_null(bare, "%s", err.message);
    image_destroy(bare);
    image_destroy(img);
    router_destroy(router);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

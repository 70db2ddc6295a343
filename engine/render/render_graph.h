/*
** render_graph.h — top-down pictures of an area graph without a running
** simulation: the graph itself (`navbot info --png`) and one route over
** it with the travel-time heat map (`navbot route --png`). They use the
** renderer's colours: one travel-type table, one cluster tint, one heat
** ramp (render.c).
**
** The area picture: lower floors are drawn first, so an upper floor
** covers what lies under it. Each area is filled with its cluster's tint
** and outlined; portal areas are amber; liquids are washed blue, lava and
** slime red and green; cells no area covers are grey where there is floor
** and dark where there is none. Reachabilities are lines from start to end
** in their travel type's colour with a dot where they land; walking links
** are thin so the other types stand out.
**
** DOES NOT: write files (the caller writes the PNG with image_write_png),
** or change the graph or the router beyond the router's caches.
*/
#ifndef NAV_RENDER_GRAPH_H
#define NAV_RENDER_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "area/area.h"
#include "core/image.h"
#include "render/render_legend.h"
#include "route/route.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The area picture, `*scale` pixels per cell, the longer side near
** `target` pixels (never below one pixel per cell). NULL with err set when
** the map is too large to draw or memory runs out. */
NavImage *render_area_graph(const NavAreaGraph *ag, int target, int *scale, NavError *err);
/* The same for one storey (a level index as render.h's floor selector has
** them; -1 every floor): its areas over a faded picture of those below
** (seen through its holes), nothing above it, only links with an end on
** it, links that change storey ringed at that end with the other storey's
** number, and "storey N of M: NAME" at the top. */
NavImage *render_area_graph_level(const NavAreaGraph *ag, int level, int target, int *scale, NavError *err);

/* One route to draw over the area picture. */
typedef struct RenderRoute {
    NavRouter *router;     /* its graph is the one drawn */
    uint32_t goal_area;    /* the heat map is the travel time to it */
    uint32_t flags;        /* travel flags of the route and the heat map */
    float from[3], to[3];  /* the start and goal points, metres */
    const uint32_t *links; /* the route's links in order */
    int link_count;        /* 0 with reachable: start and goal share an area */
    bool reachable;        /* false: markers only, no route line */
    int storey;            /* from 1: that storey's picture (render_area_graph_level); 0: every floor */
} RenderRoute;

/* The area picture with every area tinted by its travel time to the goal
** (hot near it, cold far, none where it cannot be reached), the route
** over it (walks inside areas white, links in their travel type's colour,
** on a black casing) and markers at the start (green) and goal (blue).
** Sizes as render_area_graph. */
NavImage *render_route_picture(const RenderRoute *route, int target, int *scale, NavError *err);

/* {======= a part of the map, with its legend ======= */

/* What to draw and how large. */
typedef struct RenderGraphView {
    int level;      /* a storey as render_area_graph_level has it; -1 every floor */
    bool box_set;   /* else the whole map */
    float box[4];   /* x0, y0, x1, y1 in metres: the part of the map drawn */
    float px_per_m; /* > 0: this scale; else the longer side near target pixels
                       ** (whole pixels per cell for the whole map, as above) */
    int target;     /* 0: 1024 */
    bool legend;    /* a band under the map: the legend, the scale bar, the north arrow */
} RenderGraphView;

/* What was drawn. */
typedef struct RenderGraphPicture {
    float px_per_m;
    float box[4];         /* the part of the map drawn, metres */
    int map_height;       /* rows of the map; the legend band is under it */
    int cell_px;          /* whole pixels per cell, 0 when a cell is not */
    RenderScaleBar scale; /* where the scale bar and north arrow are (legend on) */
} RenderGraphPicture;

/* The area picture of gv's part of the map at its scale; with the legend:
** the travel types of the links drawn, what the area colours mean
** (clusters, portals, liquids, floor without an area, no floor), the marks
** of links to other storeys; the scale bar and north arrow at the band's
** right. Labels ("to 2") are placed off each other. NULL with err set
** when the picture would be too large or memory runs out. */
NavImage *render_area_graph_view(const NavAreaGraph *ag, const RenderGraphView *gv, RenderGraphPicture *out,
                                 NavError *err);
/* The route picture the same way; its legend adds the route's travel
** types, the start and goal markers and the heat map's scale in seconds. */
NavImage *render_route_view(const RenderRoute *route, const RenderGraphView *gv, RenderGraphPicture *out,
                            NavError *err);

/* }======= */

/* The colour of a travel type in every picture (white when out of range). */
NavColor render_travel_color(NavTravelType t);

#ifdef __cplusplus
}
#endif

#endif

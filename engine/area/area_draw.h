/*
** area_draw.h — a top-down picture of an area graph.
**
** Lower floors are drawn first, so an upper floor covers what lies under
** it. Each area is filled with its cluster's tint and outlined; portal
** areas are amber; liquids are washed blue, lava and slime red and green;
** cells no area covers are grey where there is floor and dark where there
** is none. Reachabilities are lines from start to end in their travel
** type's colour (area_travel_color) with a dot where they land; walking
** links are thin and grey so the other types stand out.
*/
#ifndef NAV_AREA_DRAW_H
#define NAV_AREA_DRAW_H

#include "area/area.h"
#include "core/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The picture, `*scale` pixels per cell, the longer side near `target`
** pixels (never below one pixel per cell). NULL with err set when the map
** is too large to draw or memory runs out. */
NavImage *area_draw(const NavAreaGraph *ag, int target, int *scale, NavError *err);

NavColor area_travel_color(NavTravelType t);

#ifdef __cplusplus
}
#endif

#endif

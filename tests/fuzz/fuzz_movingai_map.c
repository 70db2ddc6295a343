/*
** fuzz_movingai_map.c — Moving AI benchmark grids (.map): the input is the
** file's text. A grid that loads small enough is compiled too (its grid
** and area graph), as `navbot path` would.
*/
#include "fuzz_support.h"

#include "area/area.h"
#include "grid/grid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NavMapOptions opt = { .format = NAV_MAP_MOVINGAI };
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer((const char *)data, size, "fuzz.map", &opt, &err);
    if (!w) {
        fuzz_must_say_why(&err);
        return 0;
    }
    NavWorldStats st;
    world_stats(w, &st);
    if (world_class_count(w) > 0 && (long)world_width(w) * world_height(w) <= 64 * 64) {
        NavGrid *g = grid_create(w, &(NavGridDesc){ 0 }, &err);
        if (g) grid_destroy(g);
        else fuzz_must_say_why(&err);
        NavAreaGraph *ag = area_build(w, 0, NULL, &err);
        if (ag) area_destroy(ag);
        else fuzz_must_say_why(&err);
    }
    world_destroy(w);
    return 0;
}

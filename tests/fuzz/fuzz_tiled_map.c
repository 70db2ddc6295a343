/*
** fuzz_tiled_map.c — Tiled maps saved as JSON (.tmj, docs/maps.md): the
** input is the map file's text, loaded with a small memory cap (which
** also caps the JSON values read). External tilesets are looked up
** beside "fuzz.tmj", in the folder the harness runs from. A map that
** loads small enough is compiled too (area graph and grid of its first
** class), since what a loader accepts the compilers must take. Tiled's
** Lua export goes through the native loader's harness (fuzz_lua_map).
*/
#include "fuzz_support.h"

#include "area/area.h"
#include "grid/grid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NavMapOptions opt = {
        .format = NAV_MAP_TILED,
        .lua_memory_limit = 16u << 20,
        .lua_instruction_limit = 1000000,
    };
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer((const char *)data, size, "fuzz.tmj", &opt, &err);
    if (!w) {
        fuzz_must_say_why(&err);
        return 0;
    }
    NavWorldStats st;
    world_stats(w, &st);
    if (world_class_count(w) > 0 && (long)world_width(w) * world_height(w) <= 64 * 64) {
        NavAreaGraph *ag = area_build(w, 0, NULL, &err);
        if (ag) area_destroy(ag);
        else fuzz_must_say_why(&err);
        NavGrid *g = grid_create(w, &(NavGridDesc){ 0 }, &err);
        if (g) grid_destroy(g);
        else fuzz_must_say_why(&err);
    }
    world_destroy(w);
    return 0;
}

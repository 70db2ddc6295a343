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
    fuzz_compile_small(w);
    world_destroy(w);
    return 0;
}

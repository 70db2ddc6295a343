/*
** fuzz_lua_map.c — native Lua maps (maps/NAME.lua, docs/maps.md): the
** input is the map file's text, loaded in a sandbox with a small budget.
** A map that loads small enough is compiled too (area graph and grid of
** its first class), since what a loader accepts the compilers must take.
*/
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NavMapOptions opt = {
        .format = NAV_MAP_LUA,
        .lua_memory_limit = 16u << 20,
        .lua_instruction_limit = 1000000,
    };
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer((const char *)data, size, "fuzz.lua", &opt, &err);
    if (!w) {
        fuzz_must_say_why(&err);
        return 0;
    }
    fuzz_compile_small(w);
    world_destroy(w);
    return 0;
}

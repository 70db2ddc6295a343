/*
** fuzz_maps.c — libFuzzer harness for both map loaders.
**
** The first byte picks the loader; the rest is the file. Each input gets a
** fresh sandbox with a small budget, and everything is freed, so inputs
** stay independent. Build and run with `premake4 --file=premake5.lua fuzz`
** (clang's libFuzzer with ASan and UBSan); seeds come from maps/ and the
** tests' bad inputs are found quickly from there.
*/
#include <stddef.h>
#include <stdint.h>

#include "map/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    NavMapOptions opt = {
        .format = (data[0] & 1) ? NAV_MAP_MOVINGAI : NAV_MAP_LUA,
        .lua_memory_limit = 16u << 20,
        .lua_instruction_limit = 1000000,
    };
    NavError err;
    NavWorld *w = map_load_buffer((const char *)data + 1, size - 1, "fuzz", &opt, &err);
    if (w) {
        NavWorldStats st;
        world_stats(w, &st);
        world_destroy(w);
    } else if (!err.message[0]) {
        __builtin_trap(); /* a failure must say why */
    }
    return 0;
}

/*
** fuzz_movingai_map.c — Moving AI benchmark grids (.map): the input is the
** file's text. A grid that loads small enough is compiled too (its grid
** and area graph), as `navbot path` would.
*/
#include "fuzz_support.h"

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
    fuzz_compile_small(w);
    world_destroy(w);
    return 0;
}

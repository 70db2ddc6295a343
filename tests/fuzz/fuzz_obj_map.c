/*
** fuzz_obj_map.c — mesh maps (.obj, docs/maps.md "Mesh maps"): the input
** is the .obj text and, after a line "#@sidecar", the sidecar's Lua text,
** loaded with a small grid cap (a few triangles can span a world) and a
** small Lua budget. A map that loads small enough is compiled too (area
** graph and grid of its first class), since what a loader accepts the
** compilers must take.
*/
#include "fuzz_support.h"

#define SIDECAR_MARK "\n#@sidecar\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t obj_len = size;
    const char *side = NULL;
    size_t side_len = 0;
    size_t mark = strlen(SIDECAR_MARK);
    for (size_t i = 0; i + mark <= size; i++) {
        if (memcmp(text + i, SIDECAR_MARK, mark) == 0) {
            obj_len = i + 1;
            side = text + i + mark;
            side_len = size - i - mark;
            break;
        }
    }
    NavMapOptions opt = {
        .format = NAV_MAP_OBJ,
        .lua_memory_limit = 16u << 20,
        .lua_instruction_limit = 1000000,
        .mesh_sidecar = side,
        .mesh_sidecar_len = side_len,
        .mesh_max_cells = 128 * 128,
    };
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(text, obj_len, "fuzz.obj", &opt, &err);
    if (!w) {
        fuzz_must_say_why(&err);
        return 0;
    }
    fuzz_compile_small(w);
    world_destroy(w);
    return 0;
}

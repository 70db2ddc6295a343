/*
** fuzz_obj_map.c — mesh maps (.obj, docs/maps.md "Mesh maps"): the input
** is the .obj text and, after a line "#@sidecar", the sidecar's Lua text,
** loaded with a small grid cap (a few triangles can span a world) and a
** small Lua budget. A map that loads small enough is compiled too (area
** graph and grid of its first class), since what a loader accepts the
** compilers must take.
*/
#include "fuzz_support.h"

#include "area/area.h"
#include "grid/grid.h"

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
    /* Compiling is linear in the map's cells: small maps only, so one
    ** input stays in milliseconds. */
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

/*
** map_mesh_generate.c — a generated mesh level for benchmarks: rolling
** ground in 1 m squares with two-storey houses on it, written as .obj
** text (Y-up, as files are) so that the whole loader is measured: reading,
** voxelizing and making floors.
*/
#include "map/map.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/textbuf.h"

/* A vertex in navbot's axes (x east, y north, z up), written Y-up. */
static void vertex(NavText *t, float x, float y, float z)
{
    nav_text_printf(t, "v %.3f %.3f %.3f\n", (double)x, (double)z, (double)-y);
}

static float ground(float x, float y, uint32_t seed)
{
    float s = (float)(seed % 97) * 0.1f;
    return 1.5f * sinf(x * 0.05f + s) * cosf(y * 0.07f) + 0.6f * sinf(x * 0.19f + y * 0.13f + s);
}

/* A box of 8 vertices (the last 8 written) and its 12 triangles. */
static void box(NavText *t, float x0, float y0, float z0, float x1, float y1, float z1)
{
    vertex(t, x0, y0, z0), vertex(t, x1, y0, z0), vertex(t, x1, y1, z0), vertex(t, x0, y1, z0);
    vertex(t, x0, y0, z1), vertex(t, x1, y0, z1), vertex(t, x1, y1, z1), vertex(t, x0, y1, z1);
    static const int Q[6][4] = { { 5, 6, 7, 8 }, { 1, 4, 3, 2 }, { 1, 2, 6, 5 },
                                 { 3, 4, 8, 7 }, { 4, 1, 5, 8 }, { 2, 3, 7, 6 } };
    for (int f = 0; f < 6; f++) {
        nav_text_printf(t, "f %d %d %d\n", Q[f][0] - 9, Q[f][1] - 9, Q[f][2] - 9);
        nav_text_printf(t, "f %d %d %d\n", Q[f][0] - 9, Q[f][2] - 9, Q[f][3] - 9);
    }
}

char *map_generate_mesh_obj(uint32_t triangles, uint32_t seed, size_t *len, NavError *err)
{
    if (triangles < 1000 || triangles > NAV_LIMIT_MESH_TRIANGLES / 2) {
        nav_error_set(err, NAV_E_PARAM, "generate:mesh", 0, 0, "triangles",
                      "a generated mesh has 1000 to %u triangles, not %u", NAV_LIMIT_MESH_TRIANGLES / 2, triangles);
        return NULL;
    }
    /* Four fifths ground, the rest houses of 72 triangles. */
    int side = (int)sqrtf(0.8f * (float)triangles / 2.0f);
    int houses = (int)((triangles - (uint32_t)(2 * side * side)) / 72);
    NavText t = { 0 };
    nav_text_printf(&t, "# generated mesh level: %d x %d m of ground, %d houses\n", side, side, houses);
    nav_text_printf(&t, "usemtl ground\n");
    for (int y = 0; y <= side; y++)
        for (int x = 0; x <= side; x++) vertex(&t, (float)x, (float)y, ground((float)x, (float)y, seed) + 4.0f);
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            int a = y * (side + 1) + x + 1, b = a + 1, c = a + side + 2, d = a + side + 1;
            nav_text_printf(&t, "f %d %d %d\nf %d %d %d\n", a, b, c, a, c, d);
        }
    }
    /* Houses 6 x 6 m on a grid, each walls, an upper slab and a roof. */
    nav_text_printf(&t, "usemtl house\n");
    int across = (int)ceilf(sqrtf((float)houses));
    float pitch = (float)side / (float)(across + 1);
    for (int i = 0; i < houses; i++) {
        float x = pitch * (float)(i % across + 1) - 3.0f, y = pitch * (float)(i / across + 1) - 3.0f;
        float z = ground(x + 3.0f, y + 3.0f, seed) + 4.0f - 0.5f;
        box(&t, x, y, z, x + 6.0f, y + 0.25f, z + 6.5f);
        box(&t, x, y + 5.75f, z, x + 6.0f, y + 6.0f, z + 6.5f);
        box(&t, x, y + 0.25f, z, x + 0.25f, y + 5.75f, z + 6.5f);
        box(&t, x + 5.75f, y + 0.25f, z, x + 6.0f, y + 4.0f, z + 6.5f);
        box(&t, x + 0.25f, y + 0.25f, z + 3.3f, x + 5.75f, y + 5.75f, z + 3.5f);
        box(&t, x, y, z + 6.3f, x + 6.0f, y + 6.0f, z + 6.5f);
    }
    if (t.failed) {
        nav_free(t.s);
        nav_error_set(err, NAV_E_NOMEM, "generate:mesh", 0, 0, NULL, "out of memory writing a generated mesh");
        return NULL;
    }
    *len = t.n;
    return t.s;
}

/*
** map_generate.c — deterministic generated terrain for benchmarks and
** stress tests: a single floor of rolling hills, buildings, ponds and
** tree clusters. The same size and seed give the same world.
*/
#include "map/map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t hash2(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

/* Smooth value noise in [0, 1) with a lattice every `scale` cells. */
static float noise(int x, int y, int scale, uint32_t seed)
{
    int gx = x / scale, gy = y / scale;
    float fx = (float)(x % scale) / (float)scale, fy = (float)(y % scale) / (float)scale;
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    float a = (float)(hash2((uint32_t)gx, (uint32_t)gy, seed) & 0xFFFF) / 65536.0f;
    float b = (float)(hash2((uint32_t)gx + 1, (uint32_t)gy, seed) & 0xFFFF) / 65536.0f;
    float c = (float)(hash2((uint32_t)gx, (uint32_t)gy + 1, seed) & 0xFFFF) / 65536.0f;
    float d = (float)(hash2((uint32_t)gx + 1, (uint32_t)gy + 1, seed) & 0xFFFF) / 65536.0f;
    return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy;
}

NavWorld *map_generate_terrain(int width, int height, uint32_t seed, NavError *err)
{
    char name[64];
    snprintf(name, sizeof name, "generated-%dx%d-%u", width, height, seed);
    NavWorld *w = world_create(&(NavWorldDesc){ .width = width, .height = height, .cell_size = 0.5f, .name = name,
                                                .source = name },
                               err);
    if (!w) return NULL;
    size_t cells = (size_t)width * (size_t)height;
    NavFloorAt *items = malloc(cells * sizeof *items);
    if (!items) {
        world_destroy(w);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory generating %zu cells", cells);
        return NULL;
    }
    size_t n = 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            /* Hills in 0.1 m terraces keep neighbouring cells within a step. */
            float hill = noise(x, y, 64, seed) * 4.0f + noise(x, y, 16, seed + 1) * 0.8f;
            float z = floorf(hill * 10.0f) / 10.0f;
            bool tree = noise(x, y, 24, seed + 2) > 0.72f && (hash2((uint32_t)x, (uint32_t)y, seed + 3) & 3u) == 0;
            /* Buildings: 12 x 12 blocks on a 48-cell lattice, some of them. */
            int bx = x % 48, by = y % 48;
            bool building = bx >= 8 && bx < 20 && by >= 8 && by < 20 && (hash2((uint32_t)(x / 48), (uint32_t)(y / 48), seed + 4) & 3u) == 0;
            bool door = building && by == 14 && (bx == 8 || bx == 19);
            bool pond = noise(x, y, 40, seed + 5) > 0.8f;
            if ((tree || building) && !door) continue;
            NavFloor f = { .z = z, .ceiling = INFINITY, .top = z, .contents = NAV_CONTENTS_FLOOR };
            if (pond) {
                f.contents = NAV_CONTENTS_WATER;
                f.top = 0.0f;
                f.z = -1.5f;
                if (z > 0.0f) f.ceiling = INFINITY;
            }
            items[n].cell = (uint32_t)y * (uint32_t)width + (uint32_t)x;
            items[n].floor = f;
            n++;
        }
    }
    NavStatus s = world_set_floors(w, items, n, err);
    free(items);
    NavClass human = class_defaults();
    if (NAV_FAILED(s) || NAV_FAILED(world_add_layer(w, "ground", 0.0f, err)) ||
        NAV_FAILED(world_add_class(w, &human, NULL, err))) {
        world_destroy(w);
        return NULL;
    }
    return w;
}

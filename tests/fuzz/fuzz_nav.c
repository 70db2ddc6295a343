/*
** fuzz_nav.c — compiled area graphs (.nav, area_file.c) for the map
** tests/scenarios/maps/relay.lua (teleporters, so entity links too), class
** 0. The input is the file; the harness first writes the right checksums
** into it (the header's and each section's, where the sizes say they
** are), so that mutations reach the fields behind them rather than stop
** at "checksum mismatch". The seed must be compiled by this navbot
** (`navbot compile`): another version, map or class is refused as stale. A graph that loads is routed on: every query a
** bot makes must hold on whatever the loader accepted.
*/
#include "core/alloc.h"
#include "fuzz_support.h"

#include "area/area.h"
#include "route/route.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The CRC-32 area_file.c checks (reflected, polynomial 0xEDB88320). */
static uint32_t crc(const uint8_t *p, size_t n)
{
    uint32_t c = ~0u;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

/* The header ends with its CRC just before the first section, AREA; its
** length differs between versions, so it is found by that tag. */
static void repair_checksums(uint8_t *p, size_t n)
{
    size_t header = 0;
    for (size_t i = 12; i + 4 <= n && i < 512 && !header; i++)
        if (memcmp(p + i, "AREA", 4) == 0) header = i - 4;
    if (!header) return;
    wr32(p + header, crc(p, header));
    size_t at = header + 4;
    while (n - at >= 12) {
        uint32_t size = rd32(p + at + 4);
        if (size > n - at - 12) return;
        wr32(p + at + 8, crc(p + at + 12, size));
        at += 12 + (size_t)size;
    }
}

static NavWorld *world;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) world = fuzz_load_map("tests/scenarios/maps/relay.lua");
    uint8_t *buf = nav_malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    repair_checksums(buf, size);
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_load_buffer(world, 0, buf, size, "fuzz.nav", &err);
    nav_free(buf);
    if (!ag) {
        fuzz_must_say_why(&err);
        return 0;
    }
    NavAreaStats st;
    area_stats(ag, &st);
    NavRouter *r = router_create(ag, NULL, &err);
    if (!r) {
        fuzz_must_say_why(&err);
        area_destroy(ag);
        return 0;
    }
    uint32_t n = area_count(ag);
    /* Routes and look-aheads between a few pairs of areas, every kind of
    ** stop asked for, from each area's centre as sampled back. */
    for (uint32_t k = 0; n && k < 8; k++) {
        uint32_t a = (k * 7919u) % n, b = (k * 104729u + n / 2) % n;
        const NavArea *area = area_get(ag, a);
        float p[3] = { area->center[0], area->center[1], area->center[2] };
        (void)area_point_area(ag, p[0], p[1], p[2]);
        NavRoute route;
        uint32_t links[256];
        int count;
        router_route_links(r, a, p, b, NAV_TFL_DEFAULT, links, 256, &count, &route);
        router_route(r, a, NULL, b, NAV_TFL_ALL_TYPES, &route);
        RoutePrediction pred;
        router_predict(r, a, p, b, NAV_TFL_DEFAULT,
                       &(RoutePredict){ .area_flags = ~0u, .contents = ~0u, .travel_types = 0, .max_hops = 64 }, &pred);
        router_predict(r, a, p, b, NAV_TFL_DEFAULT, &(RoutePredict){ .contents = 1u << NAV_CONTENTS_WATER }, &pred);
    }
    router_destroy(r);
    area_destroy(ag);
    return 0;
}

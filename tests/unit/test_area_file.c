/*
** test_area_file.c — compiled area graphs: round trip, truncation, bit
** flips, staleness. A load equals the compile exactly, and every damaged
** file is refused with a message, never loaded and never a crash.
*/
#include <string.h>

#include "area/area.h"
#include "map/map.h"
#include "test_support.h"

static NavAreaGraph *compile(const NavWorld *w)
{
    NavError err;
    NavAreaGraph *ag = area_build(w, 0, NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    return ag;
}

Test(area_file, round_trip_on_every_bundled_map)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BUNDLED_MAPS); i++) {
        NavWorld *w = test_load_map(BUNDLED_MAPS[i]);
        NavAreaGraph *ag = compile(w);
        uint8_t *data;
        size_t len;
        NavError err;
        cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)), "%s", err.message);
        NavAreaGraph *back = area_load_buffer(w, 0, data, len, "mem.nav", &err);
        cr_assert_not_null(back, "%s: %s", BUNDLED_MAPS[i], err.message);
        cr_assert(area_graph_equal(ag, back), "%s: the loaded graph differs from the compiled one", BUNDLED_MAPS[i]);
        /* and it saves to the same bytes */
        uint8_t *again;
        size_t again_len;
        cr_assert(NAV_SUCCEEDED(area_save_buffer(back, &again, &again_len, &err)));
        cr_assert_eq(again_len, len);
        cr_assert_eq(memcmp(again, data, len), 0, "%s: saving the loaded graph gives other bytes", BUNDLED_MAPS[i]);
        free(again);
        free(data);
        area_destroy(back);
        area_destroy(ag);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(area_file, truncated_and_bit_flipped_files_are_refused)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    NavAreaGraph *ag = compile(w);
    uint8_t *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    /* every prefix */
    for (size_t n = 0; n < len; n += (n < 256 ? 1 : 7)) {
        nav_error_clear(&err);
        NavAreaGraph *bad = area_load_buffer(w, 0, data, n, "cut.nav", &err);
        cr_assert_null(bad, "a file cut to %zu of %zu bytes loaded", n, len);
        cr_assert(err.message[0], "no message for a cut at %zu", n);
        cr_assert_str_eq(err.file, "cut.nav");
    }
    /* one flipped bit anywhere */
    uint8_t *copy = malloc(len);
    uint64_t seed = 12345;
    for (int k = 0; k < 3000; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t at = (size_t)(seed >> 33) % len;
        memcpy(copy, data, len);
        copy[at] ^= (uint8_t)(1u << ((seed >> 20) & 7u));
        nav_error_clear(&err);
        NavAreaGraph *bad = area_load_buffer(w, 0, copy, len, "flip.nav", &err);
        cr_assert_null(bad, "a file with byte %zu flipped loaded", at);
        cr_assert(err.message[0]);
    }
    /* trailing junk */
    uint8_t *longer = malloc(len + 4);
    memcpy(longer, data, len);
    memset(longer + len, 0, 4);
    cr_assert_null(area_load_buffer(w, 0, longer, len + 4, "long.nav", &err));
    cr_assert_not_null(strstr(err.message, "trailing"), "%s", err.message);
    free(longer);
    free(copy);
    free(data);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area_file, stale_files_are_refused)
{
    NavWorld *a = test_load_map("maps/gauntlet.lua"), *b = test_load_map("maps/tower.lua");
    NavAreaGraph *ag = compile(a);
    uint8_t *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    cr_assert_null(area_load_buffer(b, 0, data, len, "x.nav", &err));
    cr_assert_eq(strncmp(err.message, "stale:", 6), 0, "%s", err.message);
    /* same map text with one change: another hash */
    const char *src1 = "return { layers = { { rows = { '....', '....' } } } }";
    const char *src2 = "return { layers = { { rows = { '....', '...#' } } } }";
    NavWorld *w1 = map_load_buffer(src1, strlen(src1), "s.lua", NULL, &err);
    NavWorld *w2 = map_load_buffer(src2, strlen(src2), "s.lua", NULL, &err);
    NavAreaGraph *g1 = compile(w1);
    uint8_t *d1;
    size_t l1;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(g1, &d1, &l1, &err)));
    cr_assert_null(area_load_buffer(w2, 0, d1, l1, "s.nav", &err));
    cr_assert_eq(strncmp(err.message, "stale:", 6), 0, "%s", err.message);
    free(d1);
    area_destroy(g1);
    world_destroy(w1);
    world_destroy(w2);
    free(data);
    area_destroy(ag);
    world_destroy(a);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

Test(area_file, a_file_of_the_old_link_rules_is_refused)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavAreaGraph *ag = compile(w);
    uint8_t *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    /* version 1 linked through gaps narrower than the body: its files
    ** must be compiled again, not read */
    uint32_t version = (uint32_t)data[8] | (uint32_t)data[9] << 8 | (uint32_t)data[10] << 16 | (uint32_t)data[11] << 24;
    cr_assert_eq(version, 2u);
    data[8] = 1;
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "old.nav", &err));
    cr_assert_not_null(strstr(err.message, "version 1"), "%s", err.message);
    cr_assert_not_null(strstr(err.message, "compile again"), "%s", err.message);
    free(data);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(area_file, narrow_openings_round_trip, .timeout = 60)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    int cls = world_find_class(w, "cavalry");
    cr_assert_geq(cls, 0);
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_compile(w, cls, NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    cr_assert_gt(area_narrow_count(ag), 0, "cavalry (2.5 m) finds no gap too narrow among valley's trees");
    uint8_t *data;
    size_t len;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    NavAreaGraph *back = area_load_buffer(w, cls, data, len, "v.nav", &err);
    cr_assert_not_null(back, "%s", err.message);
    cr_assert_eq(area_narrow_count(back), area_narrow_count(ag));
    for (uint32_t i = 0; i < area_narrow_count(ag); i++)
        cr_assert(memcmp(area_narrow(back, i), area_narrow(ag, i), sizeof(NavNarrow)) == 0, "narrow opening %u differs",
                  i);
    cr_assert(area_graph_equal(ag, back));
    free(data);
    area_destroy(back);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* The CRC-32 the file format uses (reflected, polynomial 0xEDB88320). */
static uint32_t file_crc(const uint8_t *p, size_t n)
{
    uint32_t c = ~0u;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

Test(area_file, an_area_of_unknown_contents_is_refused_even_with_good_checksums)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavAreaGraph *ag = compile(w);
    uint8_t *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    /* The AREA section follows the 48-byte header: tag, size, crc, then
    ** the count and 68 bytes per area, contents at byte 48 of an area. */
    const size_t section = 48, payload = section + 12, contents = payload + 4 + 48;
    cr_assert_eq(memcmp(data + section, "AREA", 4), 0);
    cr_assert_lt(le32(data + contents), (uint32_t)NAV_CONTENTS_COUNT);
    /* Routing once shifted 1u by it: 228 was read as is. */
    put_le32(data + contents, 228);
    put_le32(data + section + 8, file_crc(data + payload, le32(data + section + 4)));
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "odd.nav", &err));
    cr_assert_not_null(strstr(err.message, "area 0 has contents 228"), "%s", err.message);
    cr_assert_str_eq(err.file, "odd.nav");
    free(data);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/*
** test_area_file.c — compiled area graphs: round trip, truncation, bit
** flips, staleness. A load equals the compile exactly, and every damaged
** file is refused with a message, never loaded and never a crash.
*/
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "map/map.h"
#include "test_cli_run.h"
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
        nav_free(again);
        nav_free(data);
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
    uint8_t *copy = nav_malloc(len);
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
    uint8_t *longer = nav_malloc(len + 4);
    memcpy(longer, data, len);
    memset(longer + len, 0, 4);
    cr_assert_null(area_load_buffer(w, 0, longer, len + 4, "long.nav", &err));
    cr_assert_not_null(strstr(err.message, "trailing"), "%s", err.message);
    nav_free(longer);
    nav_free(copy);
    nav_free(data);
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
    nav_free(d1);
    area_destroy(g1);
    world_destroy(w1);
    world_destroy(w2);
    nav_free(data);
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
    cr_assert_eq(version, 3u);
    data[8] = 1;
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "old.nav", &err));
    cr_assert_not_null(strstr(err.message, "version 1"), "%s", err.message);
    cr_assert_not_null(strstr(err.message, "compile again"), "%s", err.message);
    nav_free(data);
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
    nav_free(data);
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
    /* The AREA section follows the header: tag, size, crc, then the
    ** count and 68 bytes per area, contents at byte 48 of an area. */
    size_t section = 0;
    for (size_t i = 8; i + 4 <= len && !section; i++)
        if (memcmp(data + i, "AREA", 4) == 0) section = i;
    cr_assert_gt(section, 0);
    const size_t payload = section + 12, contents = payload + 4 + 48;
    cr_assert_lt(le32(data + contents), (uint32_t)NAV_CONTENTS_COUNT);
    /* Routing once shifted 1u by it: 228 was read as is. */
    put_le32(data + contents, 228);
    put_le32(data + section + 8, file_crc(data + payload, le32(data + section + 4)));
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "odd.nav", &err));
    cr_assert_not_null(strstr(err.message, "area 0 has contents 228"), "%s", err.message);
    cr_assert_str_eq(err.file, "odd.nav");
    nav_free(data);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* {======= header mismatches: refused by name, rebuilt where cached ======= */

static uint8_t *saved(NavWorld *w, int cls, size_t *len)
{
    NavError err;
    NavAreaGraph *ag = area_build(w, cls, NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    uint8_t *data;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, len, &err)));
    area_destroy(ag);
    return data;
}

static void refused(const NavWorld *w, int cls, const uint8_t *data, size_t len, const char *field, const char *text)
{
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_load_buffer(w, cls, data, len, "x.nav", &err);
    cr_assert_null(ag, "a mismatched file was read (%s)", field);
    cr_assert_str_eq(err.field, field, "%s", err.message);
    cr_assert_not_null(strstr(err.message, text), "%s: %s", field, err.message);
}

Test(area_file, version_byte_order_class_and_map_mismatches_are_named, .timeout = 60)
{
    NavWorld *w = test_load_map("maps/valley.lua");
    size_t len;
    uint8_t *data = saved(w, 0, &len);
    NavError err;
    NavAreaGraph *ok = area_load_buffer(w, 0, data, len, "x.nav", &err);
    cr_assert_not_null(ok, "%s", err.message);
    area_destroy(ok);

    uint8_t *bad = nav_malloc(len);
    memcpy(bad, data, len);
    bad[8] = 2; /* version 2 */
    refused(w, 0, bad, len, "version", "version 2; this navbot reads version 3: compile again");
    memcpy(bad, data, len);
    cr_assert(bad[12] == 4 && bad[13] == 3 && bad[14] == 2 && bad[15] == 1, "the marker is 0x01020304 little-endian");
    bad[12] = 1, bad[13] = 2, bad[14] = 3, bad[15] = 4;
    refused(w, 0, bad, len, "byte order", "big-endian");
    bad[12] = 9;
    refused(w, 0, bad, len, "byte order", "unknown byte-order marker");

    /* Another class of the same map: human's graph asked for as infantry. */
    refused(w, 1, data, len, "class", "compiled for class 'human', not 'infantry'");
    /* The same class name with other values. */
    const char *m1 =
        "return { classes = { { name = 'scout', radius = 0.4 } }, layers = { { rows = { '....', '....' } } } }";
    const char *m2 =
        "return { classes = { { name = 'scout', radius = 0.3 } }, layers = { { rows = { '....', '....' } } } }";
    NavWorld *w1 = map_load_buffer(m1, strlen(m1), "s.lua", NULL, &err);
    NavWorld *w2 = map_load_buffer(m2, strlen(m2), "s.lua", NULL, &err);
    cr_assert(w1 && w2, "%s", err.message);
    world_set_source_hash(w2, world_source_hash(w1)); /* only the class differs */
    size_t l1;
    uint8_t *d1 = saved(w1, 1, &l1); /* class 0 is always human */
    refused(w2, 1, d1, l1, "class", "other values of class 'scout'");
    /* Another map: the tower's world. */
    NavWorld *tower = test_load_map("maps/tower.lua");
    refused(tower, 0, data, len, "map", "stale: the map changed");

    nav_free(d1);
    world_destroy(w1);
    world_destroy(w2);
    world_destroy(tower);
    nav_free(bad);
    nav_free(data);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* patch bytes of a file */
static void poke(const char *path, long at, const uint8_t *v, size_t n)
{
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f, "%s", path);
    fseek(f, at, SEEK_SET);
    fwrite(v, 1, n, f);
    fclose(f);
}

static void put_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

#define YARD_DIR "/tmp/navbot_test_area_file_cli"
#define YARD YARD_DIR "/yard.lua"
#define YARD_NAV YARD_DIR "/yard.nav"
#define YARD_TEXT(row)                                                                           \
    "return { classes = { { name = 'small', radius = 0.3 }, { name = 'big', radius = 0.6 } },\n" \
    "  layers = { { rows = { '........', '" row "', '........' } } } }\n"

/* What `info --nav` (a file the user names: refused) and `compile` (the
** cache beside the map: compiled again) say about the file now. */
static void mismatch(const char *cls, const char *says)
{
    Run r = NAVBOT("info", YARD, "--areas", "--class", cls, "--nav", YARD_NAV);
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s: a mismatched file was read", says);
    cr_assert_not_null(strstr(r.err, says), "%s: %s", says, r.err);
    run_free(&r);
    r = NAVBOT("compile", YARD, "--class", cls, "-o", YARD_NAV);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "compiling again"), "%s: %s", says, r.err);
    cr_assert_not_null(strstr(r.err, says), "%s: %s", says, r.err);
    run_free(&r);
    r = NAVBOT("compile", YARD, "--class", cls, "-o", YARD_NAV);
    cr_assert_not_null(strstr(r.out, "up to date"), "%s: %s", says, r.out);
    run_free(&r);
}

Test(area_file, compile_rebuilds_a_mismatched_cache_and_a_named_file_is_refused, .timeout = 60)
{
    cr_assert_eq(system("rm -rf " YARD_DIR " && mkdir -p " YARD_DIR), 0);
    put_text(YARD, YARD_TEXT("...##..."));
    Run r = NAVBOT("compile", YARD, "--class", "small", "-o", YARD_NAV);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);

    poke(YARD_NAV, 8, (const uint8_t[]){ 2 }, 1); /* another version */
    mismatch("small", "version 2; this navbot reads version 3");
    poke(YARD_NAV, 12, (const uint8_t[]){ 1, 2, 3, 4 }, 4); /* big-endian */
    mismatch("small", "written big-endian");
    mismatch("big", "compiled for class 'small', not 'big'"); /* another class */
    put_text(YARD, YARD_TEXT("..#..#.."));                    /* another map */
    mismatch("big", "stale: the map changed");
    cr_assert_eq(system("rm -rf " YARD_DIR), 0);
}

/* }======= */

Test(area_file, a_link_outside_the_links_of_its_area_is_refused)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavAreaGraph *ag = compile(w);
    uint8_t *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    size_t section = 0;
    for (size_t i = 8; i + 4 <= len && !section; i++)
        if (memcmp(data + i, "AREA", 4) == 0) section = i;
    cr_assert_gt(section, 0);
    /* The first area with links says it has none: its links then belong
    ** to no area's group, and a router indexed its crossing table with
    ** them at a negative place. reach_count is at byte 64 of an area. */
    const size_t payload = section + 12;
    uint32_t a = 0, n = le32(data + payload);
    while (a < n && le32(data + payload + 4 + 68 * (size_t)a + 64) == 0) a++;
    cr_assert_lt(a, n);
    put_le32(data + payload + 4 + 68 * (size_t)a + 64, 0);
    put_le32(data + section + 8, file_crc(data + payload, le32(data + section + 4)));
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "odd.nav", &err));
    char want[96];
    snprintf(want, sizeof want, "is not among the links of area %u", a);
    cr_assert_not_null(strstr(err.message, want), "%s", err.message);
    nav_free(data);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

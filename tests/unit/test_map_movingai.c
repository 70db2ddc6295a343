/*
** test_map_movingai.c — the Moving AI loader against the benchmark maps
** (passable counts from the data set's README) and against bad files.
*/
#include <string.h>

#include "test_support.h"
#include <criterion/parameterized.h>

#include "map/map.h"

Test(map_movingai, every_development_map_loads_with_its_passable_count)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(MOVINGAI_MAPS); i++) {
        const MovingAiMap *m = &MOVINGAI_MAPS[i];
        char rel[128], path[512];
        snprintf(rel, sizeof rel, "movingai/%s.map", m->name);
        TEST_DATA_PATH(path, rel);
        NavError err;
        NavWorld *w = map_load_file(path, NULL, &err);
        char buf[1024];
        cr_assert_not_null(w, "%s: %s", path,
                           nav_error_format(&err, buf, sizeof buf));
        cr_assert_eq(world_width(w), m->width, "%s width", m->name);
        cr_assert_eq(world_height(w), m->height, "%s height", m->name);
        NavWorldStats st;
        world_stats(w, &st);
        cr_assert_eq((int)st.floors_by_contents[NAV_CONTENTS_FLOOR], m->passable, "%s passable %u, expected %d",
                     m->name, st.floors_by_contents[NAV_CONTENTS_FLOOR], m->passable);
        cr_assert_eq((int)st.solid_columns, m->width * m->height - m->passable);
        cr_assert_float_eq(world_cell_size(w), 1.0f, 1e-6);
        cr_assert_geq(world_find_class(w, "point"), 0);
        cr_assert_float_eq(world_class(w, world_find_class(w, "point"))->radius, 0.0f, 1e-6);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(map_movingai, rows_run_north_to_south)
{
    const char *src = "type octile\nheight 3\nwidth 4\nmap\n.@@@\n....\n@@@.\n";
    NavError err;
    NavWorld *w = map_load_buffer(src, strlen(src), "t.map", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    int n;
    world_column(w, 0, 2, &n); /* file row 0, col 0: '.' */
    cr_assert_eq(n, 1);
    world_column(w, 1, 2, &n);
    cr_assert_eq(n, 0);
    world_column(w, 3, 0, &n); /* file row 2, col 3 */
    cr_assert_eq(n, 1);
    world_column(w, 0, 0, &n);
    cr_assert_eq(n, 0);
    cr_assert_eq(map_movingai_row_to_cy(0, 3), 2);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_movingai, crlf_and_all_terrain_letters)
{
    const char *src = "type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.\r\n";
    NavError err;
    NavWorld *w = map_load_buffer(src, strlen(src), "t.map", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.floors, 4, ". G S and the last . are passable");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

typedef struct BadGrid {
    const char *name, *src, *expect;
    int line, column;
    size_t len; /* 0: strlen(src); set for sources holding NUL bytes */
} BadGrid;

static const BadGrid BAD_GRIDS[] = {
    { "empty", "", "missing 'type octile'", -1, -1, 0 },
    { "wrong_type", "type hex\nheight 1\nwidth 1\nmap\n.\n", "unsupported map type 'hex'", 1, 6, 0 },
    { "missing_height", "type octile\nwidth 2\nmap\n..\n", "height", -1, -1, 0 },
    { "negative_height", "type octile\nheight -4\nwidth 2\nmap\n..\n", "negative", -1, -1, 0 },
    { "zero_width", "type octile\nheight 1\nwidth 0\nmap\n\n", "out of range", -1, -1, 0 },
    { "huge", "type octile\nheight 99999999\nwidth 99999999\nmap\n", "out of range", -1, -1, 0 },
    { "overflowing", "type octile\nheight 99999999999999999999999\nwidth 2\nmap\n", "out of range", -1, -1, 0 },
    { "garbage_header", "type octile\nhight 2\nwidth 2\nmap\n..\n..\n", "expected a header line", 2, 1, 0 },
    { "no_map_line", "type octile\nheight 2\nwidth 2\n", "missing 'map' line", -1, -1, 0 },
    { "truncated", "type octile\nheight 3\nwidth 2\nmap\n..\n.", "row 1 has 1 cells", 6, 2, 0 },
    { "too_few_rows", "type octile\nheight 3\nwidth 2\nmap\n..\n..\n", "has 2 rows, the header says 3", -1, -1, 0 },
    { "long_row", "type octile\nheight 2\nwidth 2\nmap\n..\n...\n", "row 1 has 3 cells", 6, 3, 0 },
    { "unknown_char", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", "unknown terrain 'x'", 6, 2, 0 },
    { "binary_char", "type octile\nheight 1\nwidth 2\nmap\n.\x01\n", "byte 0x01", 5, 2, 0 },
    { "extra_rows", "type octile\nheight 1\nwidth 2\nmap\n..\n..\n", "more rows", 6, 1, 0 },
    { "nul_bytes", "type octile\nheight 1\nwidth 2\nmap\n\0\0\n", "byte 0x00", 5, 1,
      sizeof "type octile\nheight 1\nwidth 2\nmap\n\0\0\n" - 1 },
};

static size_t BAD_GRID_INDEX[NAV_ARRAY_COUNT(BAD_GRIDS)];

ParameterizedTestParameters(map_movingai, bad_grids)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BAD_GRIDS); i++) BAD_GRID_INDEX[i] = i;
    return cr_make_param_array(size_t, BAD_GRID_INDEX, NAV_ARRAY_COUNT(BAD_GRIDS));
}

ParameterizedTest(size_t *index, map_movingai, bad_grids)
{
    const BadGrid *bad = &BAD_GRIDS[*index];
    size_t len = bad->len ? bad->len : strlen(bad->src);
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(bad->src, len, "bad.map", NULL, &err);
    char buf[1024];
    nav_error_format(&err, buf, sizeof buf);
    cr_assert_null(w, "[%s] loaded", bad->name);
    cr_assert_str_eq(err.file, "bad.map", "[%s] %s", bad->name, buf);
    cr_assert_not_null(strstr(err.message, bad->expect) ? err.message : strstr(err.field, bad->expect),
                       "[%s] '%s' lacks '%s'", bad->name, buf, bad->expect);
    if (bad->line >= 0) cr_assert_eq(err.line, bad->line, "[%s] line: %s", bad->name, buf);
    if (bad->column >= 0) cr_assert_eq(err.column, bad->column, "[%s] column: %s", bad->name, buf);
    NAV_TEST_LEAK_CHECK();
}

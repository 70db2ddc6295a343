/*
** test_map_movingai.c — the Moving AI loader against the benchmark maps
** (passable counts from the data set's README) and against bad files.
*/
#include <string.h>

#include "core/alloc.h"
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
    { "huge", "type octile\nheight 99999999\nwidth 99999999\nmap\n", "over the limit of 16384 cells a side", 2, -1, 0 },
    { "overflowing", "type octile\nheight 99999999999999999999999\nwidth 2\nmap\n", "over the limit of 16384 cells a side", 2, -1, 0 },
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

/* {======= scenario files (.scen) ======= */

Test(map_movingai, scen_lines_parse_and_bad_ones_name_their_line)
{
    char good[] = "version 1\r\n"
                  "0\tarena.map\t49\t49\t1\t11\t1\t12\t1.00000000\r\n"
                  "\n"
                  "3 arena.map 49 49 7 4 30 40 41.38477631\n";
    MapScenProblem *p = NULL;
    int n = -1;
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(map_movingai_scen_parse("a.scen", good, &p, &n, &err)), "%s", err.message);
    cr_assert_eq(n, 2);
    cr_assert_eq(p[0].line, 2);
    cr_assert_eq(p[0].map_w, 49);
    cr_assert_eq(p[0].sx, 1);
    cr_assert_eq(p[0].gy, 12);
    cr_assert_float_eq(p[0].optimal, 1.0, 1e-12);
    cr_assert_eq(p[1].line, 4);
    cr_assert_eq(p[1].sx, 7);
    cr_assert_eq(p[1].sy, 4);
    cr_assert_eq(p[1].gx, 30);
    cr_assert_eq(p[1].gy, 40);
    cr_assert_float_eq(p[1].optimal, 41.38477631, 1e-12);
    nav_free(p);

    const struct {
        const char *text;
        int line;
        const char *says;
    } bad[] = {
        { "version 1\n0 m 4 4 0 0 1 1\n", 2, "expected 9 fields" },
        { "0 m 4 4 0 0 1 1 1.0\nx m 4 4 0 0 1 1 1.0\n", 2, "bucket" },
        { "0 m 0 4 0 0 1 1 1.0\n", 1, "width and height" },
        { "0 m 4 4 0 0 1.5 1 1.0\n", 1, "whole-number" },
        { "0 m 4 4 0 0 1 1 -2\n", 1, "optimal length" },
        { "0 m 4 4 0 0 1 1 nan\n", 1, "optimal length" },
        { "0 m 4 4 0 0 4 1 1.0\n", 1, "outside the map" },
        { "version 1\nversion 1\n", 2, "expected 9 fields" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(bad); i++) {
        char text[128];
        snprintf(text, sizeof text, "%s", bad[i].text);
        nav_error_clear(&err);
        p = NULL;
        cr_assert(NAV_FAILED(map_movingai_scen_parse("b.scen", text, &p, &n, &err)), "case %zu accepted", i);
        cr_assert(err.status & NAV_E_FORMAT, "case %zu: not a format error", i);
        cr_assert_eq(err.line, bad[i].line, "case %zu: line %d", i, err.line);
        cr_assert_str_eq(err.file, "b.scen");
        cr_assert(strstr(err.message, bad[i].says), "case %zu: \"%s\"", i, err.message);
        cr_assert_null(p);
    }
    /* An empty file has no problems, and that is no error. */
    char empty[] = "";
    cr_assert(NAV_SUCCEEDED(map_movingai_scen_parse("c.scen", empty, &p, &n, &err)));
    cr_assert_eq(n, 0);
    nav_free(p);
}

/* }======= */

/*
** test_map_obj.c — mesh maps (.obj): the reader's forms (references,
** negative indices, polygons, CRLF, comments, joined lines), bad input
** (each refused with the file, the line and what is wrong, leaking
** nothing), the sidecar's fields and its mistakes, the up axis, --cell,
** and the command line. The geometry (floors, headroom, slopes, routes)
** is test_map_mesh.c's.
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/limits.h"
#include "map/map.h"
#include "test_cli_run.h"
#include "test_support.h"
#include <criterion/parameterized.h>

/* A 4 x 4 m floor at z 0 in the .obj's Y-up (obj z = -y). */
#define FLOOR4 "v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\n"

static NavWorld *load(const char *obj, const char *sidecar, NavError *err)
{
    nav_error_clear(err);
    NavMapOptions o = { .mesh_sidecar = sidecar, .mesh_sidecar_len = sidecar ? strlen(sidecar) : 0 };
    return map_load_buffer(obj, strlen(obj), "t.obj", &o, err);
}

static NavWorld *load_ok(const char *obj, const char *sidecar)
{
    NavError err;
    NavWorld *w = load(obj, sidecar, &err);
    char buf[1024];
    cr_assert_not_null(w, "%s", nav_error_format(&err, buf, sizeof buf));
    return w;
}

/* The floors of the column under (x, y). */
static const NavFloor *column_at(const NavWorld *w, float x, float y, int *n)
{
    int cx, cy;
    cr_assert(world_point_cell(w, x, y, &cx, &cy), "(%g, %g) is off the map", (double)x, (double)y);
    return world_column(w, cx, cy, n);
}

/* {======= the reader ======= */

Test(map_obj, a_quad_is_a_floor_the_size_of_the_mesh)
{
    NavWorld *w = load_ok(FLOOR4 "f 1 2 3 4\n", NULL);
    cr_assert_eq(world_width(w), 8, "4 m of 0.5 m cells");
    cr_assert_eq(world_height(w), 8);
    cr_assert_float_eq(world_cell_size(w), 0.5f, 1e-6);
    cr_assert_eq(world_find_class(w, "human"), 0, "no sidecar: the human class");
    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.floors, 64);
    cr_assert_eq(st.floors_by_contents[NAV_CONTENTS_FLOOR], 64);
    int n;
    const NavFloor *f = column_at(w, 2, 2, &n);
    cr_assert_eq(n, 1);
    cr_assert_float_eq(f[0].z, 0.0f, 1e-5);
    cr_assert(isinf(f[0].ceiling), "open sky");
    cr_assert_str_eq(world_name(w), "t");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, every_reference_form_crlf_comments_and_joined_lines)
{
    const char *obj = "\xEF\xBB\xBF# made by hand\r\n"
                      "mtllib a.mtl b.mtl\r\n"
                      "o floor\r\n"
                      "g part one\r\n"
                      "v 0 0 0 1\r\n"           /* w */
                      "v 4 0 0 0.5 0.5 0.5\r\n" /* a vertex colour */
                      "v 4 \\\r\n 0 -4\r\n"     /* joined */
                      "v 0.0e0 0 -4.0E0 # trailing\r\n"
                      "vt 0 0\r\nvt 1 0\r\nvn 0 1 0\r\n"
                      "s off\r\n"
                      "usemtl stone\r\n"
                      "f 1/1 2/2/1 -2//1\r\n" /* v/vt, v/vt/vn, negative v//vn */
                      "f -4 3 4\r\n"
                      "\r\n";
    NavWorld *w = load_ok(obj, NULL);
    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.floors, 64, "the two triangles cover the square");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, polygons_are_fanned_and_counted)
{
    NavMeshStats ms;
    NavMapOptions o = { .mesh_stats = &ms };
    const char *obj = "v 0 0 0\nv 2 0 0\nv 4 0 -1\nv 2 0 -4\nv 0 0 -4\nf 1 2 3 4 5\n";
    NavError err;
    NavWorld *w = map_load_buffer(obj, strlen(obj), "pent.obj", &o, &err);
    cr_assert_not_null(w, "%s", err.message);
    cr_assert_eq(ms.triangles, 3, "a pentagon is three triangles");
    cr_assert_eq(ms.columns, 64);
    cr_assert_gt(ms.spans, 0);
    cr_assert_geq(ms.total_ms, ms.voxelize_ms);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, up_z_and_scale_and_offset)
{
    /* The same floor written Z-up in centimetres, 10 m off the origin. */
    const char *zup = "v -1000 -1000 0\nv -600 -1000 0\nv -600 -600 0\nv -1000 -600 0\nf 1 2 3 4\n";
    NavWorld *w = load_ok(zup, "return { up = 'z', scale = 0.01, offset = { 10, 10 } }");
    cr_assert_eq(world_width(w), 8);
    cr_assert_eq(world_height(w), 8);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, cell_size_from_the_sidecar_and_over_it)
{
    NavWorld *w = load_ok(FLOOR4 "f 1 2 3 4\n", "return { cell_size = 0.25 }");
    cr_assert_eq(world_width(w), 16);
    uint64_t h = world_source_hash(w);
    world_destroy(w);
    NavError err;
    const char *obj = FLOOR4 "f 1 2 3 4\n", *side = "return { cell_size = 0.25 }";
    NavMapOptions o = { .mesh_sidecar = side, .mesh_sidecar_len = strlen(side), .mesh_cell_size = 1.0f };
    w = map_load_buffer(obj, strlen(obj), "t.obj", &o, &err);
    cr_assert_not_null(w, "%s", err.message);
    cr_assert_eq(world_width(w), 4, "the caller's cell size wins");
    cr_assert_neq(world_source_hash(w), h, "another cell size is another world");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= bad input ======= */

typedef struct BadObj {
    const char *name, *obj, *sidecar;
    const char *file; /* "t.obj" or "t.obj.lua" */
    int line;         /* -1: not checked */
    const char *expect;
} BadObj;

static const BadObj BAD[] = {
    { "empty", "", NULL, "t.obj", 0, "no faces" },
    { "only_vertices", FLOOR4, NULL, "t.obj", 0, "no faces" },
    { "only_comments", "# nothing\n\n# here\n", NULL, "t.obj", 0, "no faces" },
    { "index_past_the_end", FLOOR4 "f 1 2 5\n", NULL, "t.obj", 5, "uses vertex 5, but only 4 vertices" },
    { "index_zero", FLOOR4 "f 0 1 2\n", NULL, "t.obj", 5, "vertex reference 0" },
    { "negative_past_the_start", FLOOR4 "f -1 -2 -5\n", NULL, "t.obj", 5, "counts back past the first vertex" },
    { "index_not_a_number", FLOOR4 "f 1 2 x\n", NULL, "t.obj", 5, "'x' is not a vertex reference" },
    { "index_with_four_parts", FLOOR4 "f 1 2 3/1/1/1\n", NULL, "t.obj", 5, "is not a vertex reference" },
    { "face_before_vertices", "f 1 2 3\n" FLOOR4, NULL, "t.obj", 1, "only 0 vertices come before" },
    { "nan", "v 0 0 0\nv nan 0 0\n", NULL, "t.obj", 2, "vertex x 'nan' is not a finite number" },
    { "inf", "v 0 0 0\nv 0 -inf 0\n", NULL, "t.obj", 2, "vertex y '-inf' is not a finite number" },
    { "overflow", "v 0 0 1e400\n", NULL, "t.obj", 1, "vertex z '1e400' is not a finite number" },
    { "beyond_a_million", "v 0 2e6 0\n", NULL, "t.obj", 1, "beyond 1e+06 m" },
    { "not_a_number", "v 1 x 0\n", NULL, "t.obj", 1, "vertex y 'x' is not a number" },
    { "hex", "v 0x10 0 0\n", NULL, "t.obj", 1, "is not a number" },
    { "two_numbers", "v 1 2\n", NULL, "t.obj", 1, "needs x, y and z; this one has 2 numbers" },
    { "two_corners", FLOOR4 "f 1 2\n", NULL, "t.obj", 5, "at least 3 corners, this one has 2" },
    { "repeated_corner", FLOOR4 "f 1 1 2\n", NULL, "t.obj", 5, "zero area" },
    { "collinear", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", NULL, "t.obj", 4, "zero area" },
    { "concave", "v 0 0 0\nv 4 0 0\nv 1 0 -1\nv 0 0 -4\nf 2 3 4 1\n", NULL, "t.obj", 5, "concave" },
    { "unknown_statement", FLOOR4 "vv 1 2 3\n", NULL, "t.obj", 5, "unknown statement 'vv'" },
    { "nul_byte", "v 0 0 0\nv 1\0 0 0\n", NULL, "t.obj", 2, "NUL byte" },
    { "west_of_the_origin", "v -3 0 0\nv 4 0 0\nv 4 0 -4\nf 1 2 3\n", NULL, "t.obj", 1, "at x = -3 m, outside" },
    { "south_of_the_origin", "v 0 0 0\nv 4 0 0\nv 4 0 2\nf 1 2 3\n", NULL, "t.obj", 3, "at y = -2 m, outside" },
    { "huge_triangle", "v 0 0 0\nv 900000 0 0\nv 0 0 -900000\nf 1 2 3\n", NULL, "t.obj", 2,
      "over the limit of 16384 cells a side" },
    { "too_tall", "v 0 0 0\nv 4 0 0\nv 0 5000 -4\nf 1 2 3\n", NULL, "t.obj", 3, "at z = 5000 m" },
    { "usemtl_no_name", FLOOR4 "usemtl\nf 1 2 3\n", NULL, "t.obj", 5, "usemtl needs a material name" },
    /* The sidecar's mistakes. */
    { "sidecar_syntax", FLOOR4 "f 1 2 3\n", "return {\n  name = 'x'\n  cell_size = 1 }", "t.obj.lua", 3,
      "syntax error" },
    { "sidecar_runtime", FLOOR4 "f 1 2 3\n", "local t = nil\nreturn t.x", "t.obj.lua", 2, "attempt to index" },
    { "sidecar_not_a_table", FLOOR4 "f 1 2 3\n", "return 4", "t.obj.lua", -1, "must return a table" },
    { "sidecar_unknown_field", FLOOR4 "f 1 2 3\n", "return { cellsize = 1 }", "t.obj.lua", -1,
      "unknown field 'cellsize'" },
    { "sidecar_up", FLOOR4 "f 1 2 3\n", "return { up = 'x' }", "t.obj.lua", -1, "expected \"y\"" },
    { "sidecar_material_not_used", FLOOR4 "usemtl stone\nf 1 2 3\n", "return { materials = { ston = 'clip' } }",
      "t.obj.lua", -1, "no face of t.obj uses this material (usemtl); its materials are: stone" },
    { "sidecar_material_kind", FLOOR4 "usemtl stone\nf 1 2 3\n", "return { materials = { stone = 'rock' } }",
      "t.obj.lua", -1, "unknown kind 'rock'" },
    { "sidecar_all_ignored", FLOOR4 "usemtl stone\nf 1 2 3\n", "return { materials = { stone = 'ignore' } }",
      "t.obj.lua", -1, "nothing is left to stand on" },
    { "sidecar_ladder_without_top", FLOOR4 "f 1 2 3 4\n",
      "return { ladders = { { min = {1, 1}, max = {2, 2}, face = 'north' } } }", "t.obj.lua", -1,
      "needs a z: the ladder's top" },
    { "sidecar_ladder_face", FLOOR4 "f 1 2 3 4\n",
      "return { ladders = { { min = {1, 1}, max = {2, 2, 3}, face = 'up' } } }", "t.obj.lua", -1,
      "expected north, east, south or west" },
    { "sidecar_liquid_misses", FLOOR4 "f 1 2 3 4\n",
      "return { liquids = { { type = 'water', min = {1, 1, 2}, max = {2, 2, 3} } } }", "t.obj.lua", -1,
      "no floor lies in the box" },
    { "sidecar_liquid_type", FLOOR4 "f 1 2 3 4\n",
      "return { liquids = { { type = 'oil', min = {1, 1}, max = {2, 2, 1} } } }", "t.obj.lua", -1,
      "expected water, lava or slime" },
    { "sidecar_layers_fall", FLOOR4 "f 1 2 3 4\n", "return { layers = { { z = 3 }, { z = 0 } } }", "t.obj.lua", -1,
      "layers rise" },
    { "sidecar_entity_mark", FLOOR4 "f 1 2 3 4\n", "return { entities = { { type = 'spawn', at = 'door' } } }",
      "t.obj.lua", -1, "a mesh map has no marks" },
    { "sidecar_entity_off_floor", FLOOR4 "f 1 2 3 4\n", "return { entities = { { type = 'spawn', pos = { 9, 9 } } } }",
      "t.obj.lua", -1, "no floor to stand on" },
    { "sidecar_class", FLOOR4 "f 1 2 3 4\n", "return { classes = { { name = 'x', radius = -1 } } }", "t.obj.lua", -1,
      "radius" },
    { "sidecar_voxel_height", "v 0 0 0\nv 4 0 0\nv 0 900 -4\nf 1 2 3\n", "return { voxel_height = 0.01 }", "t.obj.lua",
      -1, "over Recast's" },
};

static size_t BAD_INDEX[NAV_ARRAY_COUNT(BAD)];

ParameterizedTestParameters(map_obj, bad_input)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BAD); i++) BAD_INDEX[i] = i;
    return cr_make_param_array(size_t, BAD_INDEX, NAV_ARRAY_COUNT(BAD));
}

ParameterizedTest(size_t *index, map_obj, bad_input)
{
    const BadObj *b = &BAD[*index];
    NavError err;
    nav_error_clear(&err);
    /* The NUL case holds a NUL: its length runs on to the text after it. */
    size_t len = strlen(b->obj);
    if (strcmp(b->name, "nul_byte") == 0) len += 1 + strlen(b->obj + len + 1);
    NavMapOptions o = { .mesh_sidecar = b->sidecar, .mesh_sidecar_len = b->sidecar ? strlen(b->sidecar) : 0 };
    NavWorld *w = map_load_buffer(b->obj, len, "t.obj", &o, &err);
    char buf[1024];
    cr_assert_null(w, "%s: loaded", b->name);
    nav_error_format(&err, buf, sizeof buf);
    cr_assert_str_eq(err.file, b->file, "%s: %s", b->name, buf);
    if (b->line >= 0) cr_assert_eq(err.line, b->line, "%s: %s", b->name, buf);
    cr_assert_not_null(strstr(buf, b->expect), "%s: expected '%s' in: %s", b->name, b->expect, buf);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, triangles_covering_too_many_cells)
{
    /* 200 copies of a triangle over the whole 100 x 100 m grid. */
    size_t cap = 64 * 1024, n = 0;
    char *obj = nav_malloc(cap);
    cr_assert_not_null(obj);
    n += (size_t)snprintf(obj + n, cap - n, "v 0 0 0\nv 100 0 0\nv 0 0 -100\n");
    for (int i = 0; i < 200; i++) n += (size_t)snprintf(obj + n, cap - n, "f 1 2 3\n");
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_buffer(obj, n, "t.obj", NULL, &err);
    cr_assert_null(w);
    cr_assert_not_null(strstr(err.message, "huge overlapping triangles"), "%s", err.message);
    cr_assert_eq(err.line, 4, "the first of the largest");
    nav_free(obj);

    /* A cap the caller sets (fuzzers): three vertices, a big grid. */
    const char *big = "v 0 0 0\nv 500 0 0\nv 0 0 -500\nf 1 2 3\n";
    NavMapOptions o = { .mesh_max_cells = 4096 };
    w = map_load_buffer(big, strlen(big), "t.obj", &o, &err);
    cr_assert_null(w);
    cr_assert_not_null(strstr(err.message, "over the limit of 4096 cells"), "%s", err.message);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the sidecar ======= */

Test(map_obj, sidecar_names_classes_layers_and_entities)
{
    const char *side = "return {\n"
                       "  name = 'yard', description = 'a test', author = 'me', gravity = 10,\n"
                       "  layers = { { name = 'low', z = 0 }, { name = 'high', z = 3 } },\n"
                       "  classes = { { name = 'dog', radius = 0.3, height = 0.7, crouch_height = 0.5 } },\n"
                       "  entities = {\n"
                       "    { type = 'spawn', name = 's', pos = { 1, 1 } },\n"
                       "    { type = 'goal', name = 'g', pos = { 3, 3, 0 } },\n"
                       "    { type = 'crate', min = { 2, 0.5 }, max = { 2.5, 1 } },\n"
                       "  },\n"
                       "}\n";
    NavWorld *w = load_ok(FLOOR4 "f 1 2 3 4\n", side);
    cr_assert_str_eq(world_name(w), "yard");
    cr_assert_str_eq(world_description(w), "a test");
    cr_assert_float_eq(world_gravity(w), 10.0f, 1e-6);
    cr_assert_eq(world_layer_count(w), 2);
    cr_assert_str_eq(world_layer(w, 1)->name, "high");
    cr_assert_eq(world_class_count(w), 2, "human is kept beside dog");
    cr_assert_geq(world_find_class(w, "dog"), 0);
    cr_assert_eq(world_entity_count(w), 3);
    const NavEntity *s = world_entity(w, world_find_entity(w, "s"));
    cr_assert_float_eq(s->mins[2], 0.0f, 1e-5, "z from the floor under it");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, materials_liquids_and_ladders)
{
    /* A 4 m square bowl 1 m deep (floor at -1) inside a rim at 0, a water
    ** surface at -0.2 over it (material "pool"), a clip patch and an
    ** ignored roof. */
    const char *obj = "v 0 0 0\nv 8 0 0\nv 8 0 -8\nv 0 0 -8\n"               /* 1-4: rim plane at 0 */
                      "v 2 -1 -2\nv 6 -1 -2\nv 6 -1 -6\nv 2 -1 -6\n"         /* 5-8: the bed at -1 */
                      "v 2 -0.2 -2\nv 6 -0.2 -2\nv 6 -0.2 -6\nv 2 -0.2 -6\n" /* 9-12: the surface */
                      "v 0 5 0\nv 2 5 0\nv 2 5 -2\nv 0 5 -2\n"               /* 13-16: a roof at 5 */
                      "usemtl ground\n"
                      "f 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n" /* the rim round the bowl */
                      "f 5 6 7 8\n"
                      "usemtl pool\nf 9 10 11 12\n"
                      "usemtl canopy\nf 13 14 15 16\n";
    const char *side = "return {\n"
                       "  materials = { pool = 'water', canopy = 'ignore', ground = 'floor' },\n"
                       "  liquids = { { type = 'slime', min = { 7, 7 }, max = { 8, 8, 0.5 } } },\n"
                       "  ladders = { { min = { 0, 4 }, max = { 0.5, 5, 3 }, face = 'west' } },\n"
                       "}\n";
    NavWorld *w = load_ok(obj, side);
    int n;
    const NavFloor *f = column_at(w, 4, 4, &n);
    cr_assert_eq(n, 1);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_WATER);
    cr_assert_float_eq(f[0].z, -1.0f, 1e-4, "the bed");
    cr_assert_float_eq(f[0].top, -0.2f, 1e-4, "the surface");
    f = column_at(w, 0.75, 0.75, &n);
    cr_assert_eq(n, 1, "the roof is ignored");
    cr_assert_eq(f[0].contents, NAV_CONTENTS_FLOOR);
    f = column_at(w, 7.25, 7.25, &n);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_SLIME);
    cr_assert_float_eq(f[0].top, 0.5f, 1e-4);
    f = column_at(w, 0.25, 4.25, &n);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_LADDER);
    cr_assert_float_eq(f[0].top, 3.0f, 1e-4);
    cr_assert_eq(world_floor_face(&f[0]), NAV_DIR_WEST);
    f = column_at(w, 0.75, 4.25, &n);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_FLOOR, "beside the ladder's box");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, a_clip_material_keeps_its_floor_off_limits)
{
    NavWorld *w = load_ok(FLOOR4 "usemtl glue\nf 1 2 3 4\n", "return { materials = { glue = 'clip' } }");
    NavWorldStats st;
    world_stats(w, &st);
    cr_assert_eq(st.floors_by_contents[NAV_CONTENTS_CLIP], 64);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= files and the command line ======= */

Test(map_obj, the_mesh_or_its_sidecar_path_loads_the_same_map)
{
    NavWorld *a = test_load_map("maps/house.obj");
    NavWorld *b = test_load_map("maps/house.obj.lua");
    cr_assert_eq(map_format_for_path("maps/house.obj.lua"), NAV_MAP_OBJ);
    cr_assert_str_eq(map_format_name(NAV_MAP_OBJ), "obj");
    cr_assert_eq(world_source_hash(a), world_source_hash(b));
    cr_assert_str_eq(world_source(b), "maps/house.obj", "the mesh names the world");
    cr_assert_gt(world_entity_count(a), 0, "the sidecar was read");
    world_destroy(a);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

Test(map_obj, cli_info_cell_and_bad_files)
{
    Run r = NAVBOT("info", "maps/house.obj", "--cell", "0.5", "--class", "human");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "44 x 36 cells of 0.5 m"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "area graph for class human"), "%s", r.out);
    run_free(&r);

    r = NAVBOT("info", "maps/arena.lua", "--cell", "0.25");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "only a mesh map (.obj) takes a cell size"), "%s", r.err);
    run_free(&r);

    r = NAVBOT("info", "maps/house.obj", "--cell", "-1");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);

    char dir[] = "/tmp/navbot-obj-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/bad.obj", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 7\n", f);
    fclose(f);
    r = NAVBOT("info", path);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    char want[128];
    snprintf(want, sizeof want, "%s:4: the face uses vertex 7", path);
    cr_assert_not_null(strstr(r.err, want), "%s", r.err);
    run_free(&r);
    remove(path);
    rmdir(dir);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

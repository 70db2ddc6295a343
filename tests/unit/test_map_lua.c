/*
** test_map_lua.c — native Lua maps: what a good map becomes, and a clear
** error, with file, line, column or field, for every kind of bad map.
*/
#include <math.h>
#include <string.h>

#include "test_support.h"
#include <criterion/parameterized.h>

#include "map/map.h"

static NavWorld *load(const char *src, NavError *err)
{
    nav_error_clear(err);
    return map_load_buffer(src, strlen(src), "test.lua", NULL, err);
}

static NavWorld *load_ok(const char *src)
{
    NavError err;
    NavWorld *w = load(src, &err);
    char buf[1024];
    cr_assert_not_null(w, "load failed: %s", nav_error_format(&err, buf, sizeof buf));
    return w;
}

static const char TWO_STOREYS[] =
    "return {\n"
    "  name = 'two', cell_size = 1.0, gravity = 10, description = 'test', author = 'me',\n"
    "  legend = {\n"
    "    ['~'] = { type = 'water', depth = 2, h = -0.5 },\n"
    "    ['H'] = { type = 'ladder', top = 4, face = 'east' },\n"
    "    ['c'] = { type = 'floor', ceiling = 1.4 },\n"
    "    ['S'] = { type = 'floor', mark = 'start' },\n"
    "    ['T'] = { type = 'floor', mark = 'pad', portal = true },\n"
    "    ['_'] = 'void',\n"
    "    ['L'] = { type = 'lava', depth = 0.5 },\n"
    "    ['x'] = 'clip',\n"
    "  },\n"
    "  layers = {\n"
    "    { name = 'ground', z = 0, rows = {\n"
    "      '######',\n"
    "      '#S.~H#',\n"
    "      '#c_TL#',\n"
    "      '#x...#',\n"
    "      '######' } },\n"
    "    { name = 'upper', z = 4, slab = 0.5, rows = [[\n"
    "######\n"
    "#.   #\n"
    "#    #\n"
    "#   .#\n"
    "######\n"
    "]] },\n"
    "  },\n"
    "  entities = {\n"
    "    { type = 'spawn', name = 'p1', at = 'start', team = 2 },\n"
    "    { type = 'teleporter', name = 't1', at = 'pad', dest = 'start' },\n"
    "    { type = 'goal', pos = { 4.5, 1.5 }, item = 'flag' },\n"
    "  },\n"
    "  classes = { dog = { radius = 0.3, height = 0.7, crouch_height = 0.5 }, cat = { radius = 0.2 } },\n"
    "}\n";

/* Row r of the text (0 = north) is cell y = height - 1 - r. */
static const NavFloor *column(const NavWorld *w, int cx, int row, int *n)
{
    return world_column(w, cx, world_height(w) - 1 - row, n);
}

Test(map_lua, two_storey_map_becomes_the_right_floors)
{
    NavWorld *w = load_ok(TWO_STOREYS);
    cr_assert_str_eq(world_name(w), "two");
    cr_assert_str_eq(world_description(w), "test");
    cr_assert_str_eq(world_author(w), "me");
    cr_assert_eq(world_width(w), 6);
    cr_assert_eq(world_height(w), 5);
    cr_assert_float_eq(world_cell_size(w), 1.0f, 1e-6);
    cr_assert_float_eq(world_gravity(w), 10.0f, 1e-6);
    cr_assert_eq(world_layer_count(w), 2);
    cr_assert_str_eq(world_layer(w, 1)->name, "upper");

    int n;
    const NavFloor *f = column(w, 1, 1, &n); /* 'S' below '.' */
    cr_assert_eq(n, 2);
    cr_assert_float_eq(f[0].z, 0.0f, 1e-6);
    cr_assert_float_eq(f[0].ceiling, 3.5f, 1e-6, "ceiling = upper z - slab");
    cr_assert_float_eq(f[1].z, 4.0f, 1e-6);
    cr_assert(isinf(f[1].ceiling));

    f = column(w, 2, 1, &n); /* '.' below empty: open to the sky */
    cr_assert_eq(n, 1);
    cr_assert(isinf(f[0].ceiling));

    f = column(w, 3, 1, &n); /* water */
    cr_assert_eq(n, 1);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_WATER);
    cr_assert_float_eq(f[0].top, -0.5f, 1e-6);
    cr_assert_float_eq(f[0].z, -2.5f, 1e-6);

    f = column(w, 4, 1, &n); /* ladder */
    cr_assert_eq(f[0].contents, NAV_CONTENTS_LADDER);
    cr_assert_float_eq(f[0].top, 4.0f, 1e-6);
    cr_assert_eq(world_floor_face(&f[0]), NAV_DIR_EAST);

    f = column(w, 1, 2, &n); /* crouch */
    cr_assert_float_eq(f[0].ceiling, 1.4f, 1e-6);

    f = column(w, 2, 2, &n); /* void on the lowest layer */
    cr_assert_eq(n, 1);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_VOID);

    f = column(w, 3, 2, &n); /* portal mark */
    cr_assert(f[0].flags & NAV_FLOOR_PORTAL);
    f = column(w, 4, 2, &n);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_LAVA);
    f = column(w, 1, 3, &n);
    cr_assert_eq(f[0].contents, NAV_CONTENTS_CLIP);
    f = column(w, 4, 3, &n); /* '.' under the upper '.' */
    cr_assert_eq(n, 2);
    column(w, 0, 0, &n);
    cr_assert_eq(n, 0, "walls have no floor");

    /* Entities placed by marks and by points without z. */
    cr_assert_eq(world_entity_count(w), 3);
    const NavEntity *sp = world_entity(w, 0);
    cr_assert_eq(sp->type, NAV_ENTITY_SPAWN);
    cr_assert_float_eq(sp->mins[0], 1.5f, 1e-6);
    cr_assert_float_eq(sp->mins[1], 3.5f, 1e-6);
    cr_assert_eq(sp->u.spawn.team, 2);
    const NavEntity *tp = world_entity(w, 1);
    cr_assert_float_eq(tp->mins[0], 3.0f, 1e-6);
    cr_assert_float_eq(tp->maxs[0], 4.0f, 1e-6);
    cr_assert_float_eq(tp->mins[1], 2.0f, 1e-6);
    cr_assert_float_eq(tp->maxs[2], 2.0f, 1e-6, "default trigger height");
    cr_assert_float_eq(tp->u.teleporter.dest[0], 1.5f, 1e-6);
    const NavEntity *goal = world_entity(w, 2);
    cr_assert_float_eq(goal->mins[2], 0.0f, 1e-6, "z from the lowest floor");
    cr_assert_str_eq(goal->u.goal.item, "flag");

    /* human is added; keyed classes come in name order. */
    cr_assert_eq(world_class_count(w), 3);
    cr_assert_str_eq(world_class(w, 0)->name, "human");
    cr_assert_str_eq(world_class(w, 1)->name, "cat");
    cr_assert_str_eq(world_class(w, 2)->name, "dog");
    cr_assert_float_eq(world_class(w, 2)->radius, 0.3f, 1e-6);
    cr_assert_float_eq(world_class(w, 2)->step, 0.45f, 1e-6, "unset fields keep human values");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_lua, same_source_same_world_and_hash)
{
    NavWorld *a = load_ok(TWO_STOREYS), *b = load_ok(TWO_STOREYS);
    cr_assert_eq(world_source_hash(a), world_source_hash(b));
    cr_assert_neq(world_source_hash(a), 0);
    NavWorldStats sa, sb;
    world_stats(a, &sa);
    world_stats(b, &sb);
    cr_assert_eq(memcmp(&sa, &sb, sizeof sa), 0);
    world_destroy(a);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

Test(map_lua, computed_rows_and_seeded_random)
{
    /* A map may compute its rows; math.random is seeded, so it repeats. */
    const char *src =
        "local rows = {}\n"
        "for y = 1, 40 do\n"
        "  local r = {}\n"
        "  for x = 1, 60 do r[x] = (math.random() < 0.2) and '#' or '.' end\n"
        "  rows[y] = table.concat(r)\n"
        "end\n"
        "return { layers = { { rows = rows } } }\n";
    NavWorld *a = load_ok(src), *b = load_ok(src);
    NavWorldStats sa, sb;
    world_stats(a, &sa);
    world_stats(b, &sb);
    cr_assert_eq(sa.solid_columns, sb.solid_columns);
    cr_assert(sa.solid_columns > 200 && sa.solid_columns < 1000, "about a fifth of 2400 cells");
    world_destroy(a);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

static void capture(void *user, const char *line) { snprintf(user, 64, "%s", line); }

Test(map_lua, print_reaches_the_sink)
{
    char got[64] = "";
    const char *src = "print('hello', 42) return { layers = { { rows = { '.' } } } }";
    NavError err;
    NavWorld *w = map_load_buffer(src, strlen(src), "p.lua", &(NavMapOptions){ .print = capture, .print_user = got },
                                  &err);
    cr_assert_not_null(w);
    cr_assert_str_eq(got, "hello\t42");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* {======= bad maps ======= */

typedef struct BadMap {
    const char *name;
    const char *src;
    const char *expect;  /* substring of the message */
    int line;            /* expected line, -1 = any */
    int column;          /* expected column, -1 = any */
    const char *field;   /* expected field prefix, NULL = any */
    NavStatus detail;    /* expected detail bit, 0 = any */
} BadMap;

#define ROWS3 "layers = { { rows = { '...', '...' } } }"

static const BadMap BAD_MAPS[] = {
    { "not_a_table", "return 42", "must return a table", -1, -1, NULL, NAV_E_FORMAT },
    { "returns_nothing", "local x = 1", "must return a table, it returned nil", -1, -1, NULL, 0 },
    { "unknown_legend_char", "return {\n  layers = { { rows = {\n    '....',\n    '..Q.',\n  } } } }\n",
      "unknown legend character 'Q'", 4, 8, "layers[1].rows[2]", NAV_E_FORMAT },
    { "unknown_char_in_long_string", "return { layers = { { rows = [[\n....\n....\n...?\n]] } } }",
      "unknown legend character '?'", 4, 4, "layers[1].rows[3]", 0 },
    { "ragged_rows", "return { layers = { { rows = [[\n.....\n...\n.....\n]] } } }", "ragged rows", 3, 4,
      "layers[1].rows[2]", 0 },
    { "second_layer_row_count", "return { layers = { { rows = { '..', '..' } }, { z = 3, rows = { '..' } } } }",
      "has 1 rows", -1, -1, "layers[2].rows", 0 },
    { "second_layer_ragged", "return { layers = {\n { rows = { '..', '..' } },\n { z = 3, rows = {\n '..',\n '...' } } } }",
      "ragged", 5, -1, "layers[2].rows[2]", 0 },
    { "missing_layers", "return { name = 'x' }", "missing", -1, -1, "layers", 0 },
    { "empty_layers", "return { layers = {} }", "at least one layer", -1, -1, "layers", 0 },
    { "empty_rows", "return { layers = { { rows = {} } } }", "at least one row", -1, -1, "layers[1].rows", 0 },
    { "empty_row_string", "return { layers = { { rows = { '' } } } }", "out of range", -1, -1, NULL, 0 },
    { "mistyped_cell_size", "return { cell_size = 'big', " ROWS3 " }", "expected a number, got string", -1, -1,
      "cell_size", 0 },
    { "negative_cell_size", "return { cell_size = -0.5, " ROWS3 " }", "from 0.01 to 100", -1, -1, "cell_size", 0 },
    { "nan_gravity", "return { gravity = 0/0, " ROWS3 " }", "expected a number", -1, -1, "gravity", 0 },
    { "huge_map", "return { layers = { { rows = { string.rep('.', 20000) } } } }", "out of range", -1, -1, NULL, 0 },
    { "unknown_top_field", "return { layrs = {}, " ROWS3 " }", "unknown field 'layrs'", -1, -1, NULL, 0 },
    { "legend_typo", "return { legend = { ['~'] = { type = 'water', dept = 2 } }, " ROWS3 " }",
      "unknown field 'dept'", -1, -1, "legend['~']", 0 },
    { "legend_multichar_key", "return { legend = { ab = 'floor' }, " ROWS3 " }", "single characters", -1, -1,
      "legend", 0 },
    { "legend_bad_type", "return { legend = { w = 'wall' }, " ROWS3 " }", "unknown cell type 'wall'", -1, -1,
      "legend['w'].type", 0 },
    { "legend_not_table", "return { legend = 5, " ROWS3 " }", "expected a table", -1, -1, "legend", 0 },
    { "ladder_without_face", "return { legend = { H = { type = 'ladder', top = 3 } }, " ROWS3 " }",
      "missing", -1, -1, "legend['H'].face", 0 },
    { "ladder_bad_face", "return { legend = { H = { type = 'ladder', top = 3, face = 'up' } }, " ROWS3 " }",
      "north, east, south or west", -1, -1, "legend['H'].face", 0 },
    { "ladder_top_below_foot", "return { legend = { H = { type = 'ladder', top = 0, face = 'n' } }, " ROWS3 " }",
      "must be above its foot", -1, -1, "legend['H'].top", 0 },
    { "depth_on_floor", "return { legend = { f = { depth = 2 } }, " ROWS3 " }", "only water, lava and slime", -1, -1,
      "legend['f'].depth", 0 },
    { "layers_not_rising", "return { layers = { { z = 4, rows = { '.' } }, { z = 2, rows = { '.' } } } }",
      "layers must rise", -1, -1, "layers[2].z", 0 },
    { "upper_layer_needs_z", "return { layers = { { rows = { '.' } }, { rows = { '.' } } } }", "missing", -1, -1,
      "layers[2].z", 0 },
    { "no_headroom", "return { layers = {\n  { z = 0, rows = { '..' } },\n  { z = 0.1, rows = {\n    '.#' } } } }",
      "no headroom", 2, 22, "layers[1].rows[1]", 0 },
    { "void_on_upper_layer", "return { legend = { v = 'void' }, layers = { { rows = { '..' } }, { z = 3, rows = {\n 'v ' } } } }",
      "lowest layer", 2, 3, "layers[2].rows[1]", 0 },
    { "row_not_string", "return { layers = { { rows = { '..', 7 } } } }", "expected a string", -1, -1,
      "layers[1].rows[2]", 0 },
    { "layers_with_holes", "return { layers = { [1] = { rows = { '.' } }, [3] = { rows = { '.' } } } }",
      "expected a list", -1, -1, "layers", 0 },
    { "nul_in_row", "return { layers = { { rows = { '.\\0.' } } } }", "byte 0x00", -1, -1, "layers[1].rows[1]", 0 },
    { "entity_unknown_type", "return { " ROWS3 ", entities = { { type = 'dragon', pos = { 0.5, 0.5 } } } }",
      "unknown entity type 'dragon'", -1, -1, "entities[1].type", 0 },
    { "entity_missing_type", "return { " ROWS3 ", entities = { { pos = { 0.5, 0.5 } } } }", "missing", -1, -1,
      "entities[1].type", 0 },
    { "entity_outside", "return { " ROWS3 ", entities = { { type = 'spawn', pos = { 10, 0.5, 0 } } } }",
      "outside the map", -1, -1, "entities[1]", 0 },
    { "entity_in_wall", "return { legend = { ['#'] = 'solid' }, layers = { { rows = { '#..' } } }, "
      "entities = { { type = 'goal', pos = { 0.25, 0.25, 0 } } } }", "not on a floor", -1, -1, "entities[1]", 0 },
    { "entity_bad_field_for_type", "return { " ROWS3 ", entities = { { type = 'spawn', pos = { 0.5, 0.5 }, mass = 3 } } }",
      "does not apply to a spawn", -1, -1, "entities[1].mass", 0 },
    { "entity_typo", "return { " ROWS3 ", entities = { { type = 'spawn', poss = { 0.5, 0.5 } } } }",
      "unknown field 'poss'", -1, -1, "entities[1]", 0 },
    { "entity_mistyped_pos", "return { " ROWS3 ", entities = { { type = 'spawn', pos = 'here' } } }",
      "no legend entry has mark", -1, -1, "entities[1].pos", 0 },
    { "entity_short_vector", "return { " ROWS3 ", entities = { { type = 'spawn', pos = { 1 } } } }",
      "got 1 numbers", -1, -1, "entities[1].pos", 0 },
    { "overlapping_entities",
      "return { " ROWS3 ", entities = {\n"
      "  { type = 'crate', min = { 0, 0, 0 }, max = { 1, 1, 1 } },\n"
      "  { type = 'door', min = { 0.5, 0.5, 0 }, max = { 1.5, 1, 2 } } } }",
      "overlaps crate", -1, -1, "entities[2]", 0 },
    { "elevator_one_stop", "return { " ROWS3 ", entities = { { type = 'elevator', min = { 0, 0 }, max = { 1, 1 }, stops = { 0 } } } }",
      "2 to 16 stops", -1, -1, "entities[1].stops", 0 },
    { "elevator_stops_fall", "return { " ROWS3 ", entities = { { type = 'elevator', min = { 0, 0 }, max = { 1, 1 }, stops = { 4, 0 } } } }",
      "stops must rise", -1, -1, "entities[1].stops", 0 },
    { "elevator_negative_speed", "return { " ROWS3 ", entities = { { type = 'elevator', min = { 0, 0 }, max = { 1, 1 }, stops = { 0, 4 }, speed = -1 } } }",
      "positive", -1, -1, "entities[1].speed", 0 },
    { "teleporter_dest_outside", "return { " ROWS3 ", entities = { { type = 'teleporter', min = { 0, 0 }, max = { 0.5, 0.5 }, dest = { 40, 3, 0 } } } }",
      "not on a floor", -1, -1, "entities[1].dest", 0 },
    { "mark_unknown", "return { " ROWS3 ", entities = { { type = 'spawn', at = 'nowhere' } } }",
      "no legend entry has mark = \"nowhere\"", -1, -1, "entities[1].at", 0 },
    { "mark_unused", "return { legend = { m = { mark = 'm' } }, " ROWS3 ", entities = { { type = 'spawn', at = 'm' } } }",
      "on no cell", -1, -1, "entities[1].at", 0 },
    { "duplicate_entity_names", "return { " ROWS3 ", entities = { { type = 'spawn', name = 'a', pos = { 0.25, 0.25 } }, "
      "{ type = 'goal', name = 'a', pos = { 0.75, 0.25 } } } }", "already used", -1, -1, "entities[2]", 0 },
    { "class_bad_value", "return { " ROWS3 ", classes = { { name = 'giant', radius = -2 } } }", "expected a number from 0",
      -1, -1, "classes[1].radius", 0 },
    { "class_unknown_field", "return { " ROWS3 ", classes = { { name = 'x', speed = 3 } } }", "unknown field 'speed'",
      -1, -1, "classes[1]", 0 },
    { "class_duplicate", "return { " ROWS3 ", classes = { { name = 'x' }, { name = 'x' } } }", "already defined",
      -1, -1, "classes[2]", 0 },
    { "class_needs_name", "return { " ROWS3 ", classes = { { radius = 1 } } }", "missing", -1, -1, "classes[1].name", 0 },
    { "class_inconsistent", "return { " ROWS3 ", classes = { { name = 'x', crouch_height = 3 } } }", "above standing height",
      -1, -1, "classes[1].crouch_height", 0 },
    { "truncated", "return {\n  layers = { { rows = {\n    '....',\n    '..", "unfinished string", 4, -1, NULL, NAV_E_FORMAT },
    { "truncated_table", "return {\n  layers = { { rows = {\n    '....',\n", "expected", 4, -1, NULL, NAV_E_FORMAT },
    { "binary_junk", "\x7f\x45\x4c\x46\x02\x01\x01\x00\xff\xfe garbage", "syntax error", 1, -1, NULL, NAV_E_FORMAT },
    { "binary_chunk", "\x1bLua\x54\x00\x19\x93\r\n\x1a\n", "binary", -1, -1, NULL, NAV_E_FORMAT },
    { "runtime_error", "local cfg\nreturn { cell_size = cfg.size }", "attempt to index a nil value", 2, -1, NULL,
      NAV_E_FORMAT },
    { "error_call", "error('designer gave up')", "designer gave up", 1, -1, NULL, 0 },
    { "error_with_table", "error({})", "error object is a table", -1, -1, NULL, 0 },
    { "io_open", "local f = io.open('/etc/passwd')\nreturn {}", "'io' is not available in map scripts", 1, -1, NULL, 0 },
    { "os_execute", "os.execute('true')", "'os' is not available", 1, -1, NULL, 0 },
    { "require", "local m = require('x')", "'require' is not available", 1, -1, NULL, 0 },
    { "load", "local f = load('return 1')", "'load' is not available", 1, -1, NULL, 0 },
    { "dofile", "dofile('/etc/passwd')", "'dofile' is not available", 1, -1, NULL, 0 },
    { "debug_lib", "debug.sethook()", "'debug' is not available", 1, -1, NULL, 0 },
    { "string_dump", "local d = string.dump(function() end)", "attempt to call a nil value", 1, -1, NULL, 0 },
    { "endless_loop", "while true do end", "instruction budget", 1, -1, NULL, NAV_E_BUDGET },
    { "endless_recursion_in_pcall", "local function f() return pcall(f) end f() while true do end", "", -1, -1, NULL, 0 },
    /* Deep recursion fills the memory cap before Lua's own stack limit. */
    { "deep_recursion", "local function f() return 1 + f() end return f()", "out of memory", -1, -1, NULL, NAV_E_NOMEM },
    { "c_stack_overflow", "local t = setmetatable({}, { __index = function(t, k) return t[k] end }) return t.x",
      "stack overflow", -1, -1, NULL, 0 },
    { "memory_bomb_table", "local t = {} for i = 1, 1e9 do t[i] = i end", "out of memory", -1, -1, NULL, NAV_E_NOMEM },
    { "memory_bomb_string", "local s = string.rep('x', 1 << 40)", "", -1, -1, NULL, 0 },
    { "memory_bomb_concat", "local s = 'x' while true do s = s .. s end", "out of memory", -1, -1, NULL, NAV_E_NOMEM },
};

/* Workers may be fresh processes with another address layout, so the
** parameters are indices into BAD_MAPS, not pointers. */
static size_t BAD_MAP_INDEX[NAV_ARRAY_COUNT(BAD_MAPS)];

ParameterizedTestParameters(map_lua, bad_maps)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BAD_MAPS); i++) BAD_MAP_INDEX[i] = i;
    return cr_make_param_array(size_t, BAD_MAP_INDEX, NAV_ARRAY_COUNT(BAD_MAPS));
}

ParameterizedTest(size_t *index, map_lua, bad_maps)
{
    const BadMap *bad = &BAD_MAPS[*index];
    NavError err;
    NavWorld *w = load(bad->src, &err);
    char buf[1024];
    nav_error_format(&err, buf, sizeof buf);
    cr_assert_null(w, "[%s] a bad map loaded", bad->name);
    cr_assert(NAV_FAILED(err.status), "[%s] no failure status", bad->name);
    cr_assert_str_eq(err.file, "test.lua", "[%s] error names no file: %s", bad->name, buf);
    cr_assert(err.message[0], "[%s] empty message", bad->name);
    cr_assert_not_null(strstr(err.message, bad->expect), "[%s] message '%s' lacks '%s'", bad->name, buf, bad->expect);
    if (bad->line >= 0) cr_assert_eq(err.line, bad->line, "[%s] line %d, expected %d: %s", bad->name, err.line, bad->line, buf);
    if (bad->column >= 0)
        cr_assert_eq(err.column, bad->column, "[%s] column %d, expected %d: %s", bad->name, err.column, bad->column, buf);
    if (bad->field)
        cr_assert_eq(strncmp(err.field, bad->field, strlen(bad->field)), 0, "[%s] field '%s', expected '%s': %s",
                     bad->name, err.field, bad->field, buf);
    if (bad->detail) cr_assert(err.status & bad->detail, "[%s] status %s", bad->name, nav_status_name(err.status));
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

Test(map_lua, bundled_maps_load)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BUNDLED_MAPS); i++) {
        NavError err;
        NavWorld *w = map_load_file(BUNDLED_MAPS[i], NULL, &err);
        char buf[1024];
        cr_assert_not_null(w, "%s: %s", BUNDLED_MAPS[i], nav_error_format(&err, buf, sizeof buf));
        cr_assert(world_class_count(w) >= 1);
        cr_assert(world_entity_count(w) >= 1, "%s has no entities", BUNDLED_MAPS[i]);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(map_lua, missing_file_and_unknown_format)
{
    NavError err;
    cr_assert_null(map_load_file("maps/no_such_map.lua", NULL, &err));
    cr_assert(err.status & NAV_E_IO);
    cr_assert_str_eq(err.file, "maps/no_such_map.lua");
    cr_assert_null(map_load_file("maps", NULL, &err));
    cr_assert_null(map_load_file("README.md", NULL, &err));
    cr_assert_not_null(strstr(err.message, "unknown map format"));
    NAV_TEST_LEAK_CHECK();
}

/*
** test_map_tiled.c — Tiled maps (JSON and Tiled's Lua export): the bundled
** fort in both formats is one world, every cell kind and field comes
** through, and every kind of bad map fails with the file and what is
** wrong in Tiled's terms (layer, cell, tile, object, property).
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "test_support.h"

#include "area/area.h"
#include "map/map.h"

/* {======= helpers ======= */

static NavWorld *load_text(const char *src, const char *name, NavError *err)
{
    nav_error_clear(err);
    return map_load_buffer(src, strlen(src), name, NULL, err);
}

/* The error's whole text, as the command line prints it. */
static const char *fails(const char *src, const char *name)
{
    static char text[1024];
    NavError err;
    NavWorld *w = load_text(src, name, &err);
    cr_assert_null(w, "%s loaded, expected an error:\n%s", name, src);
    cr_assert(err.status & (NAV_E_FORMAT | NAV_E_IO), "status %#x: %s", err.status, err.message);
    nav_error_format(&err, text, sizeof text);
    cr_assert_str_eq(err.file, name, "%s", text);
    return text;
}

#define HAS(text, part) cr_assert(strstr(text, part), "expected '%s' in: %s", part, text)

/* A 4 x 3 JSON map with one tileset of four tiles. Each %s is replaced in
** order: the tiles, the layers, the map's properties. */
static const char *tmj(const char *tiles, const char *layers, const char *props)
{
    static char buf[8192];
    snprintf(buf, sizeof buf,
             "{ \"type\":\"map\", \"orientation\":\"orthogonal\", \"width\":4, \"height\":3,\n"
             "  \"tilewidth\":16, \"tileheight\":16, \"infinite\":false, \"tiledversion\":\"1.8.2\",\n"
             "  \"tilesets\":[{ \"firstgid\":1, \"name\":\"t\", \"tilecount\":4, \"tiles\":[%s] }],\n"
             "  \"layers\":[%s],\n"
             "  \"properties\":[%s] }\n",
             tiles, layers, props);
    return buf;
}

#define TILES "{\"id\":0,\"type\":\"floor\"},{\"id\":1,\"type\":\"solid\"}"
#define GROUND \
    "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,\"data\":[2,2,2,2,2,1,1,2,2,2,2,2]}"
#define OBJECTS(...) "{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[" __VA_ARGS__ "]}"

static void same_worlds(const NavWorld *a, const NavWorld *b)
{
    cr_assert_eq(world_width(a), world_width(b));
    cr_assert_eq(world_height(a), world_height(b));
    cr_assert_float_eq(world_cell_size(a), world_cell_size(b), 0);
    cr_assert_float_eq(world_gravity(a), world_gravity(b), 0);
    cr_assert_str_eq(world_name(a), world_name(b));
    cr_assert_str_eq(world_description(a), world_description(b));
    cr_assert_eq(world_layer_count(a), world_layer_count(b));
    for (int i = 0; i < world_layer_count(a); i++) {
        cr_assert_str_eq(world_layer(a, i)->name, world_layer(b, i)->name);
        cr_assert_float_eq(world_layer(a, i)->z, world_layer(b, i)->z, 0);
    }
    const uint32_t *sa, *sb;
    const NavFloor *fa = world_floor_store(a, &sa), *fb = world_floor_store(b, &sb);
    cr_assert_eq(world_floor_total(a), world_floor_total(b));
    cr_assert_eq(memcmp(fa, fb, world_floor_total(a) * sizeof *fa), 0, "the floors differ");
    size_t columns = (size_t)world_width(a) * (size_t)world_height(a) + 1;
    cr_assert_eq(memcmp(sa, sb, columns * sizeof *sa), 0, "the columns differ");
    cr_assert_eq(world_class_count(a), world_class_count(b));
    for (int i = 0; i < world_class_count(a); i++)
        cr_assert_eq(memcmp(world_class(a, i), world_class(b, i), sizeof(NavClass)), 0, "class %d differs", i);
    cr_assert_eq(world_entity_count(a), world_entity_count(b));
    for (int i = 0; i < world_entity_count(a); i++) {
        const NavEntity *x = world_entity(a, i), *y = world_entity(b, i);
        cr_assert_eq(x->type, y->type);
        cr_assert_str_eq(x->name, y->name);
        for (int k = 0; k < 3; k++) {
            cr_assert_float_eq(x->mins[k], y->mins[k], 0, "%s", x->name);
            cr_assert_float_eq(x->maxs[k], y->maxs[k], 0, "%s", x->name);
        }
        cr_assert_float_eq(x->yaw, y->yaw, 0);
        cr_assert_eq(memcmp(&x->u, &y->u, sizeof x->u), 0, "%s: the type's fields differ", x->name);
    }
}

/* Tiled's (col, row) of a w x h map, as navbot's column. */
static const NavFloor *at(const NavWorld *w, int col, int row, int *n)
{
    return world_column(w, col, map_movingai_row_to_cy(row, world_height(w)), n);
}

/* }======= */

/* {======= the bundled fort ======= */

Test(map_tiled, json_and_lua_export_are_one_world)
{
    NavWorld *a = test_load_map("maps/tiled/fort.tmj");
    NavWorld *b = test_load_map("maps/tiled/fort.lua");
    same_worlds(a, b);
    world_destroy(a);
    world_destroy(b);
    NAV_TEST_LEAK_CHECK();
}

Test(map_tiled, fort_has_every_cell_kind_and_field)
{
    NavWorld *w = test_load_map("maps/tiled/fort.tmj");
    cr_assert_str_eq(world_name(w), "fort");
    cr_assert_eq(world_width(w), 32);
    cr_assert_eq(world_height(w), 24);
    cr_assert_eq(world_layer_count(w), 3);
    cr_assert_str_eq(world_layer(w, 1)->name, "upper");
    cr_assert_float_eq(world_layer(w, 1)->z, 4.0f, 0, "the layer property z");
    cr_assert_float_eq(world_layer(w, 2)->z, 8.0f, 0, "the layer order times storey_height");

    int n;
    const NavFloor *f = at(w, 21, 13, &n); /* the pool */
    cr_assert_eq(f[0].contents, NAV_CONTENTS_WATER);
    cr_assert_float_eq(f[0].top, -0.5f, 1e-6);
    cr_assert_float_eq(f[0].z, -2.0f, 1e-6);
    f = at(w, 3, 5, &n); /* the ladder */
    cr_assert_eq(f[0].contents, NAV_CONTENTS_LADDER);
    cr_assert_float_eq(f[0].top, 4.0f, 1e-6);
    cr_assert_eq(world_floor_face(&f[0]), NAV_DIR_NORTH);
    f = at(w, 15, 5, &n); /* the crouch tunnel */
    cr_assert_float_eq(f[0].ceiling, 1.4f, 1e-6);
    f = at(w, 15, 9, &n); /* the doorway: a portal under the lintel */
    cr_assert(f[0].flags & NAV_FLOOR_PORTAL);
    cr_assert_float_eq(f[0].ceiling, 3.8f, 1e-6);
    f = at(w, 28, 20, &n); /* the perch */
    cr_assert_float_eq(f[0].z, 3.0f, 1e-6);
    cr_assert_eq(at(w, 1, 12, &n)[0].contents, NAV_CONTENTS_LAVA);
    cr_assert_eq(at(w, 29, 13, &n)[0].contents, NAV_CONTENTS_SLIME);
    cr_assert_eq(at(w, 7, 7, &n)[0].contents, NAV_CONTENTS_CLIP);
    cr_assert_eq(at(w, 27, 8, &n)[0].contents, NAV_CONTENTS_VOID);
    f = at(w, 25, 2, &n); /* east hall, gallery, roof deck */
    cr_assert_eq(n, 3);
    cr_assert_float_eq(f[0].ceiling, 3.8f, 1e-6);
    cr_assert_float_eq(f[1].z, 4.0f, 1e-6);
    cr_assert_float_eq(f[2].z, 8.0f, 1e-6);

    cr_assert_eq(world_entity_count(w), 13);
    const NavEntity *e = world_entity(w, world_find_entity(w, "tele_vault"));
    cr_assert_float_eq(e->u.teleporter.dest[0], 3.75f, 1e-6, "the mark west_arrival's middle");
    e = world_entity(w, world_find_entity(w, "tele_west"));
    cr_assert_float_eq(e->u.teleporter.dest[0], 4.25f, 1e-6, "the point object arrive_vault");
    cr_assert_float_eq(e->u.teleporter.dest[1], 2.75f, 1e-6);
    e = world_entity(w, world_find_entity(w, "pad"));
    cr_assert_float_eq(e->u.jump_pad.target[2], 3.0f, 1e-6, "on the perch");
    e = world_entity(w, world_find_entity(w, "lift"));
    cr_assert_eq(e->u.elevator.stop_count, 3);
    cr_assert_float_eq(e->u.elevator.stops[2], 8.0f, 0);
    e = world_entity(w, world_find_entity(w, "goal_loft"));
    cr_assert_float_eq(e->mins[2], 4.0f, 1e-6, "on the storey its layer is drawn over");
    e = world_entity(w, world_find_entity(w, "spawn_east"));
    cr_assert_eq(e->u.spawn.team, 2);
    cr_assert_float_eq(e->yaw, 180.0f, 0);
    cr_assert_geq(world_find_class(w, "dog"), 0);
    cr_assert_float_eq(world_class(w, world_find_class(w, "dog"))->radius, 0.3f, 1e-6);

    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_build(w, world_find_class(w, "human"), NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_tiled, base64_csv_flips_and_groups)
{
    /* The same layer as base64 (tile 1 with its horizontal flip bit) and as
    ** CSV, inside a group: one world. */
    const char *b64 = "{\"type\":\"group\",\"name\":\"g\",\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\","
                      "\"width\":4,\"height\":3,\"encoding\":\"base64\",\"compression\":\"\",\"data\":"
                      "\"AQAAgAEAAAABAAAAAQAAAAEAAAACAAAAAgAAAAEAAAABAAAAAQAAAAEAAAABAAAA\"}]}";
    char a[8192];
    snprintf(a, sizeof a, "%s", tmj(TILES, b64, ""));
    NavError err;
    NavWorld *wa = load_text(a, "same.tmj", &err);
    cr_assert_not_null(wa, "%s", err.message);
    const char *csv = "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,"
                      "\"data\":[1,1,1,1,1,2,2,1,1,1,1,1]}";
    NavWorld *wb = load_text(tmj(TILES, csv, ""), "same.tmj", &err);
    cr_assert_not_null(wb, "%s", err.message);
    same_worlds(wa, wb);
    int n;
    at(wa, 1, 1, &n);
    cr_assert_eq(n, 0, "a solid tile: no floor");
    world_destroy(wa);
    world_destroy(wb);
}

/* }======= */

/* {======= bad maps ======= */

Test(map_tiled, malformed_json_names_line_and_column)
{
    const char *t = fails("{ \"type\":\"map\",\n  \"width\": 4,,\n}", "bad.tmj");
    HAS(t, "bad.tmj:2:");
    HAS(t, "malformed JSON");
    t = fails("{ \"type\":\"map\", \"width\": [1, 2", "cut.tmj");
    HAS(t, "cut.tmj:1:");
    HAS(t, "malformed JSON");
    t = fails("", "empty.tmj");
    HAS(t, "empty.tmj");
}

Test(map_tiled, unknown_tile_property_names_layer_cell_and_property)
{
    const char *t = fails(tmj("{\"id\":0,\"type\":\"floor\",\"properties\":[{\"name\":\"dept\",\"type\":\"float\","
                              "\"value\":1}]},{\"id\":1,\"type\":\"solid\"}",
                              GROUND, ""),
                          "m.tmj");
    HAS(t, "m.tmj: layer 'ground', cell (1, 1) [navbot (1, 1)]");
    HAS(t, "tile 0 of tileset 't'");
    HAS(t, "unknown property 'dept'");
}

Test(map_tiled, native_checks_come_back_in_tiled_terms)
{
    /* A depth on a floor tile: the native legend check, told as the tile. */
    const char *t = fails(tmj("{\"id\":0,\"type\":\"floor\"},{\"id\":1,\"type\":\"floor\",\"properties\":[{\"name\":"
                              "\"depth\",\"type\":\"float\",\"value\":1}]}",
                              GROUND, ""),
                          "m.tmj");
    HAS(t, "layer 'ground', cell (0, 0)");
    HAS(t, "tile 1 of tileset 't', property 'depth'");
    HAS(t, "only water");
    /* A ladder without its face. */
    t = fails(tmj("{\"id\":0,\"type\":\"floor\"},{\"id\":1,\"type\":\"ladder\",\"properties\":[{\"name\":\"top\","
                  "\"type\":\"float\",\"value\":4}]}",
                  GROUND, ""),
              "m.tmj");
    HAS(t, "property 'face'");
    /* Storeys that do not rise. */
    char layers[1024];
    snprintf(layers, sizeof layers,
             "%s,{\"type\":\"tilelayer\",\"name\":\"low\",\"width\":4,\"height\":3,\"properties\":[{\"name\":\"z\","
             "\"type\":\"float\",\"value\":-1}],\"data\":[0,0,0,0,0,0,0,0,0,0,0,0]}",
             GROUND);
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "layer 'low', property 'z'");
    HAS(t, "must rise");
    /* No headroom: a cell error with the layer's cell. */
    t = fails(tmj("{\"id\":0,\"type\":\"floor\",\"properties\":[{\"name\":\"ceiling\",\"type\":\"float\",\"value\":"
                  "1}]},{\"id\":1,\"type\":\"solid\"}",
                  "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,\"data\":[1,2,2,2,2,2,2,2,2,"
                  "2,2,2]},{\"type\":\"tilelayer\",\"name\":\"up\",\"width\":4,\"height\":3,\"properties\":[{\"name\":"
                  "\"z\",\"type\":\"float\",\"value\":0.1}],\"data\":[1,0,0,0,0,0,0,0,0,0,0,0]}",
                  ""),
              "m.tmj");
    HAS(t, "layer 'ground', cell (0, 0) [navbot (0, 2)]");
    HAS(t, "no headroom");
}

Test(map_tiled, tiles_without_a_kind_or_tileset)
{
    const char *t = fails(tmj("{\"id\":0,\"type\":\"floor\"}", GROUND, ""), "m.tmj");
    HAS(t, "cell (0, 0)");
    HAS(t, "tile 1 of tileset 't' has no navbot cell type");
    t = fails(tmj("{\"id\":0,\"type\":\"flor\"},{\"id\":1,\"type\":\"solid\"}", GROUND, ""), "m.tmj");
    HAS(t, "unknown cell type 'flor'");
    t = fails(tmj(TILES,
                  "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,\"data\":[2,2,2,2,2,9,2,2,2,2,"
                  "2,2]}",
                  ""),
              "m.tmj");
    HAS(t, "layer 'ground', cell (1, 1)");
    HAS(t, "past the end of tileset 't'");
    t = fails(tmj(TILES, "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,\"data\":[2,2,2]}", ""),
              "m.tmj");
    HAS(t, "has 3 tiles, expected 12");
}

Test(map_tiled, objects_are_checked_by_id)
{
    char layers[2048];
    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":7,\"type\":\"spwan\",\"x\":8,\"y\":8,\"point\":true}"));
    const char *t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "layer 'things', object 7");
    HAS(t, "unknown object type 'spwan'");

    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":3,\"type\":\"spawn\",\"x\":8,\"y\":8,\"point\":true,\"properties\":[{\"name\":\"taem\","
                     "\"type\":\"int\",\"value\":1}]}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "layer 'things', object 3: unknown property 'taem' for a spawn");

    /* In the wall: the native check, told as the object. */
    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":4,\"type\":\"goal\",\"x\":8,\"y\":8,\"point\":true}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "layer 'things', object 4: (0.25, 1.25) has no floor to stand on");

    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":5,\"type\":\"teleporter\",\"x\":0,\"y\":0,\"width\":16,\"height\":16,"
                     "\"properties\":[{\"name\":\"dest\",\"type\":\"object\",\"value\":99}]}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "object 5: property 'dest' names object 99");

    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":6,\"type\":\"door\",\"x\":0,\"y\":0,\"point\":true}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "a door is a box");

    snprintf(layers, sizeof layers, "%s,%s", GROUND, OBJECTS("{\"id\":8,\"x\":8,\"y\":8,\"point\":true}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "object 8: the object has no type");

    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":9,\"type\":\"crate\",\"x\":0,\"y\":0,\"width\":16,\"height\":16,\"rotation\":45}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "rotated");

    snprintf(layers, sizeof layers, "%s,%s", GROUND,
             OBJECTS("{\"id\":10,\"type\":\"crate\",\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0}]}"));
    t = fails(tmj(TILES, layers, ""), "m.tmj");
    HAS(t, "is a polygon");
}

Test(map_tiled, map_properties_and_classes)
{
    const char *t = fails(tmj(TILES, GROUND, "{\"name\":\"colour\",\"type\":\"string\",\"value\":\"red\"}"), "m.tmj");
    HAS(t, "unknown map property 'colour'");
    t = fails(tmj(TILES, GROUND, "{\"name\":\"class.dog.radus\",\"type\":\"float\",\"value\":0.3}"), "m.tmj");
    HAS(t, "map property 'class.dog'");
    HAS(t, "radus");
    NavError err;
    NavWorld *w = load_text(tmj(TILES, GROUND,
                                "{\"name\":\"class.cat\",\"type\":\"class\",\"value\":{\"radius\":0.2}},"
                                "{\"name\":\"gravity\",\"type\":\"float\",\"value\":9.8}"),
                            "ok.tmj", &err);
    cr_assert_not_null(w, "%s", err.message);
    cr_assert_float_eq(world_class(w, world_find_class(w, "cat"))->radius, 0.2f, 1e-6);
    cr_assert_float_eq(world_gravity(w), 9.8f, 1e-6);
    cr_assert_str_eq(world_name(w), "ok");
    world_destroy(w);
}

Test(map_tiled, what_navbot_does_not_read_is_refused_clearly)
{
    char layer[512];
    snprintf(layer, sizeof layer,
             "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":4,\"height\":3,\"encoding\":\"base64\","
             "\"compression\":\"zlib\",\"data\":\"eJxjZGRgAAAAEAAF\"}");
    const char *t = fails(tmj(TILES, layer, ""), "m.tmj");
    HAS(t, "compressed with zlib");
    HAS(t, "CSV");

    t = fails("{\"type\":\"map\",\"orientation\":\"isometric\",\"width\":1,\"height\":1}", "iso.tmj");
    HAS(t, "orthogonal");
    t = fails("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"infinite\":true,\"width\":1,\"height\":1}",
              "inf.tmj");
    HAS(t, "infinite maps are not supported");

    t = fails("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":16,"
              "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":\"cells.tsx\"}],\"layers\":[]}",
              "x.tmj");
    HAS(t, "cells.tsx");
    HAS(t, "JSON tileset (.tsj)");
    t = fails("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":16,"
              "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":\"nowhere.tsj\"}],\"layers\":[]}",
              "x.tmj");
    HAS(t, "nowhere.tsj");
    HAS(t, "cannot open");
    t = fails("{\"type\":\"tileset\",\"name\":\"cells\"}", "cells.json");
    HAS(t, "a Tiled tileset, not a map");
    t = fails(tmj(TILES, "", ""), "m.tmj");
    HAS(t, "no tile layer");
}

Test(map_tiled, lua_export_errors_and_detection)
{
    const char *src = "return { tiledversion = '1.8.2', orientation = 'orthogonal', width = 2, height = 1,\n"
                      "  tilewidth = 16, tileheight = 16,\n"
                      "  tilesets = { { name = 't', firstgid = 1, tilecount = 2,\n"
                      "    tiles = { { id = 0, type = 'floor', properties = { wet = true } } } } },\n"
                      "  layers = { { type = 'tilelayer', name = 'ground', width = 2, height = 1,\n"
                      "    encoding = 'lua', data = { 1, 1 } } } }\n";
    const char *t = fails(src, "m.lua");
    HAS(t, "m.lua: layer 'ground', cell (0, 0)");
    HAS(t, "unknown property 'wet'");

    /* A native map's table without tiledversion is still a native map. */
    NavError err;
    NavWorld *w = load_text("return { layers = { { rows = { '..' } } } }", "n.lua", &err);
    cr_assert_not_null(w, "%s", err.message);
    world_destroy(w);
}

Test(map_tiled, bad_files_from_disk_exit_cleanly)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert_null(map_load_file("maps/tiled/missing.tmj", NULL, &err));
    cr_assert(err.status & NAV_E_IO);
    cr_assert_eq(map_format_for_path("a/b.tmj"), NAV_MAP_TILED);
    cr_assert_eq(map_format_for_path("b.json"), NAV_MAP_TILED);
    cr_assert_str_eq(map_format_name(NAV_MAP_TILED), "tiled");
}

/* }======= */

/*
** map_tiled_internal.h — what the Tiled map loader's files share.
**
** The loader translates a Tiled map into a native map table
** (docs/maps.md) and hands that to the native loader's table reader
** (map_lua_read_table), so every check of the native format applies to
** Tiled maps as it does to native ones. Both of Tiled's formats become
** one Lua table first, the shape Tiled's Lua export has: a JSON map
** (.tmj) is parsed with cJSON and copied into the sandbox as tables; a
** Lua export already is one. The translation then reads that table:
**   map_tiled.c         entry points, JSON into Lua, the reading helpers
**                       (properties in either format's form), and the
**                       native loader's errors told in Tiled terms
**   map_tiled_cells.c   tilesets (external .tsj ones read beside the map),
**                       tile layers (CSV, Lua or uncompressed base64 data)
**                       -> legend + layers
**   map_tiled_things.c  object layers -> entities, map properties -> the
**                       map's fields and classes
**
** Refused, each with what to do in Tiled instead: XML tilesets (.tsx),
** compressed layers (zlib, gzip, zstd: navbot does not link a
** decompressor), infinite maps (chunks), other orientations, rotated or
** non-rectangular objects, template instances, offset tile layers.
**
** Tiled counts rows from the top and navbot's y grows north. The native
** format's rows run north to south too, so Tiled's row r is row r of the
** native layer (navbot cell y = height - 1 - r, as with Moving AI maps).
** Object positions are pixels from the top-left corner; cell c of the map
** spans tilewidth pixels, cell_size metres.
**
** Every heap block the translation makes lives in the TiledCtx, so a Lua
** error (which unwinds with longjmp) leaks nothing: the caller frees the
** context whatever happened.
*/
#ifndef NAV_MAP_TILED_INTERNAL_H
#define NAV_MAP_TILED_INTERNAL_H

#include "map/map.h"

#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

#include "lua/sandbox.h"

/* {======= Types ======= */

/* One tile the layers use, with the legend character it became. */
typedef struct TiledTile {
    uint32_t gid;     /* flags cleared */
    int local_id;     /* in its tileset */
    char tileset[40]; /* the tileset's name */
    int storey;       /* where it is first used: storey, Tiled column and row */
    int col, row;
    int kind;           /* SpecKind (map_lua_internal.h) */
    float h, depth;     /* for the floor under an object */
    unsigned char code; /* its legend character */
} TiledTile;

typedef struct TiledStorey {
    char name[40]; /* the Tiled layer's name (cut for messages) */
    float z;
} TiledStorey;

/* An object of an object layer. */
typedef struct TiledObject {
    int id;
    int storey; /* the tile layer it is drawn over */
    char layer[40];
    bool typed;      /* has a navbot type: becomes an entity */
    bool referenced; /* some dest or target names it */
    float x, y;      /* its point (a box's centre), metres */
    float z;         /* NAN: the floor under it */
} TiledObject;

#define TILED_MAX_TILES NAV_LIMIT_TILED_TILES /* core/limits.h */
#define TILED_HASH 1024                       /* gid -> tile slots, a power of two */

typedef struct TiledCtx {
    const char *file; /* the name in messages */
    NavError *err;
    bool failed;
    size_t memory_limit;   /* for JSON inputs: the sandbox's cap */
    const char *json_text; /* a JSON map's text, NULL for a Lua export */
    size_t json_len;

    /* Blocks a Lua error could strand. */
    void *json;           /* cJSON tree being copied */
    char *text;           /* an external tileset's text */
    unsigned char *grid;  /* storey_count x height x width legend characters */
    unsigned char *bytes; /* a base64 layer decoded */
    TiledObject *objects;
    int *entity_object; /* entity i came from objects[entity_object[i]] */

    int width, height;     /* cells */
    double tile_w, tile_h; /* pixels per cell */
    float cell_size;       /* metres per cell */
    float storey_height;   /* z of storey k without a z property: k times this */

    TiledTile tiles[TILED_MAX_TILES];
    int tile_count;
    uint32_t slot_gid[TILED_HASH]; /* 0: free */
    int16_t slot_tile[TILED_HASH];

    TiledStorey storeys[NAV_MAX_LAYERS];
    int storey_count;

    int object_count, object_cap;
    int entity_count;
} TiledCtx;

/* }======= */

/* {======= shared between the files ======= */

/* Fail with a message about a Tiled field (the native error's fields). */
int tiled_fail(TiledCtx *t, lua_State *L, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Fail with NAV_E_NOMEM: "out of memory for what". */
int tiled_fail_nomem(TiledCtx *t, lua_State *L, const char *field, const char *what);
/* "layer 'NAME', cell (col, row) [navbot (x, y)]" into out. */
void tiled_cell_field(const TiledCtx *t, int storey, int col, int row, char *out, size_t cap);

/* Pushes t[key] without metamethods; returns its type. */
int tiled_get(lua_State *L, int idx, const char *key);
/* A number at t[key] (def when absent and not required). */
double tiled_number(TiledCtx *t, lua_State *L, int idx, const char *key, const char *field, bool required, double def);
/* A string at t[key] into out ("" when absent). */
void tiled_string(TiledCtx *t, lua_State *L, int idx, const char *key, const char *field, char *out, size_t cap);
/* The object's or tile's class: `type`, else `class` (Tiled 1.9). */
void tiled_class(TiledCtx *t, lua_State *L, int idx, const char *field, char *out, size_t cap);
/* Pushes idx's properties as a table of name = value, from either form
** (JSON's list of {name, type, value}; the Lua export's table). An object
** reference becomes { id = N } in both. */
void tiled_push_properties(TiledCtx *t, lua_State *L, int idx, const char *field);

/* Pushes the JSON document text[0..len) as Lua tables; fails with the
** line and column of a syntax error. what names it in messages. */
void tiled_push_json(TiledCtx *t, lua_State *L, const char *text, size_t len, const char *what);

/* map_tiled_cells.c: the tilesets (resolving external ones), then the
** tile layers of flat (the layers in drawing order, groups opened): fills
** the native table's legend and layers, and t's storeys and grid. */
void tiled_read_cells(TiledCtx *t, lua_State *L, int map, int flat, int native);
/* The height of the floor under (col, row) at or below storey k, in the
** way an entity stands there; false when none is there. */
bool tiled_floor_z(const TiledCtx *t, int k, int col, int row, float *z);

/* map_tiled_things.c: the map's properties (fields and classes) and its
** objects (entities). */
void tiled_read_map_properties(TiledCtx *t, lua_State *L, int map, int native);
void tiled_read_objects(TiledCtx *t, lua_State *L, int flat, int native);

/* map_tiled.c for map_lua.c: whether the value at idx is a Tiled export
** (a table with a string `tiledversion`), and the load of one (the table
** on the top of sb's stack, popped). */
bool map_tiled_is_export(lua_State *L, int idx);
NavWorld *map_tiled_load_table(Sandbox *sb, const char *name, const NavMapOptions *opt, NavError *err);

/* }======= */

#endif

/*
** map.h — map loaders: text in, NavWorld out.
**
** Formats:
**   NAV_MAP_LUA      native maps (maps/NAME.lua): a sandboxed Lua chunk that
**                    returns a table; see docs/maps.md
**   NAV_MAP_MOVINGAI Moving AI benchmark grids (.map): one flat floor,
**                    cell size 1 m, '.', 'G' and 'S' passable
**   NAV_MAP_TILED    Tiled maps saved as JSON (.tmj, .json); a .lua file
**                    that returns a table with `tiledversion` (Tiled's Lua
**                    export) is read as a Tiled map too (map_tiled.c)
**   NAV_MAP_OBJ      triangle meshes (Wavefront .obj) voxelized into
**                    stacked floors, with an optional Lua sidecar
**                    (NAME.obj.lua) for what a mesh does not carry; loading
**                    the sidecar's path loads its mesh (map_mesh.c)
**
** Every loader takes a buffer (so it can be fuzzed) plus the name to use in
** messages, and reports problems as a NavError naming the file, line,
** column or field. A failed load returns NULL and leaks nothing.
*/
#ifndef NAV_MAP_H
#define NAV_MAP_H

#include "core/nav.h"
#include "lua/lua_paths.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest map file read from disk. */
#define NAV_MAP_MAX_FILE_BYTES NAV_LIMIT_MAP_FILE_BYTES /* core/limits.h */

typedef enum NavMapFormat {
    NAV_MAP_AUTO = 0, /* by extension: .lua, .map, .tmj, .json, .obj (and .obj.lua) */
    NAV_MAP_LUA,
    NAV_MAP_MOVINGAI,
    NAV_MAP_TILED,
    NAV_MAP_OBJ,
} NavMapFormat;

/* What loading a mesh map took (NavMapOptions.mesh_stats). */
typedef struct NavMeshStats {
    uint32_t triangles; /* read from the file (polygons fanned) */
    uint32_t columns;   /* width x height of the grid */
    uint32_t spans;     /* solid spans Recast made */
    double parse_ms;    /* reading the .obj text */
    double voxelize_ms; /* rasterizing and filtering (Recast) */
    double floors_ms;   /* spans to floors, liquids and ladders */
    double total_ms;    /* the whole load, the sidecar included */
} NavMeshStats;

/* Zero means default. */
typedef struct NavMapOptions {
    NavMapFormat format;
    size_t lua_memory_limit;        /* bytes; default 64 MiB */
    uint64_t lua_instruction_limit; /* default 200 million */
    /* Receives print() output of map scripts; NULL drops it. */
    void (*print)(void *user, const char *line);
    void *print_user;
    /* Gives Lua maps `require`: NAME.lua is looked for in the map file's
    ** own folder (its name's), then along this path; modules run in the
    ** map's sandbox, once each. NULL: maps have no require. */
    const NavLuaPath *lua_path;
    /* map_load_file: the name used in messages and as the world's source
    ** (the path the file was read from by default). */
    const char *name;
    /* Mesh maps only. Cell size in metres, over the sidecar's cell_size
    ** (0: the sidecar's, or 0.5). */
    float mesh_cell_size;
    /* map_load_buffer: the sidecar's text (NULL: none); map_load_file reads
    ** NAME.obj.lua beside the mesh itself. */
    const char *mesh_sidecar;
    size_t mesh_sidecar_len;
    /* A cap on the grid's cells below NAV_LIMIT_CELLS (0: the limit), for
    ** callers that take meshes from strangers: three vertices can span a
    ** world. */
    uint32_t mesh_max_cells;
    /* When not NULL, filled in by a mesh map's successful load. */
    NavMeshStats *mesh_stats;
} NavMapOptions;

/* Load from a buffer. name is used in messages and as the world's source.
** Returns the world, or NULL with err set. */
NavWorld *map_load_buffer(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err);

/* Read path and load it. */
NavWorld *map_load_file(const char *path, const NavMapOptions *opt, NavError *err);

/* The format a path's extension names (NAV_MAP_AUTO if none). */
NavMapFormat map_format_for_path(const char *path);
const char *map_format_name(NavMapFormat f);

/* 64-bit FNV-1a of the source text: the world's content hash. */
uint64_t map_hash(const char *buf, size_t len);

/* The individual loaders. */
NavWorld *map_load_lua(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err);
NavWorld *map_load_movingai(const char *buf, size_t len, const char *name, NavError *err);
/* External tilesets (.tsj) are read relative to name's folder. */
NavWorld *map_load_tiled(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err);
/* buf is the .obj text; the sidecar, if any, comes in opt (mesh_sidecar). */
NavWorld *map_load_obj(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err);
/* Reads the mesh and its sidecar: path names either (NAME.obj or NAME.obj.lua). */
NavWorld *map_load_obj_file(const char *path, const NavMapOptions *opt, NavError *err);

/* Generated terrain for benchmarks: hills, buildings, ponds and trees on
** one floor, cell size 0.5 m, class human. Deterministic in its seed. */
NavWorld *map_generate_terrain(int width, int height, uint32_t seed, NavError *err);

/* Generated multi-storey building for routing benchmarks: `storeys` floors
** 4 m apart on a width x height grid (cell size 0.5 m), each a maze of
** rooms, corridors and pillared halls behind doorways, joined by
** switchback staircases (0.25 m steps), ladders through floor hatches and
** lifts (elevators stopping at every storey); a spawn point "spawn" on the
** ground storey; one layer per storey; class human. Sides 48 to
** NAV_MAX_WORLD_SIDE cells, 1 to NAV_ELEVATOR_MAX_STOPS storeys; anything
** else is a NAV_E_PARAM error naming the argument, and NULL. Deterministic
** in its arguments; the source hash is a hash of the floors and entities.
** 256 x 256 with 4 storeys compiles to over 10,000 areas for human. */
NavWorld *map_generate_building(int width, int height, int storeys, uint32_t seed, NavError *err);

/* Generated mesh level for benchmarks, as .obj text (nav_free() it):
** rolling ground in 1 m squares with two-storey houses, about `triangles`
** triangles (1000 to NAV_LIMIT_MESH_TRIANGLES / 2; 100,000 is 200 x 200 m
** with 277 houses). Deterministic in its arguments. */
char *map_generate_mesh_obj(uint32_t triangles, uint32_t seed, size_t *len, NavError *err);

/* Moving AI scenarios index cells from the top-left corner, row by row; our
** cells grow north. These convert between the two for a map of height h. */
static inline int map_movingai_row_to_cy(int row, int height) { return height - 1 - row; }

/* One problem of a Moving AI scenario file (.scen), in the file's
** coordinates (row 0 north). */
typedef struct MapScenProblem {
    int line; /* 1-based, in the file */
    int map_w, map_h;
    int sx, sy, gx, gy;
    double optimal; /* the shortest octile length */
} MapScenProblem;

/* Parses the text of a .scen file (modified in place): an optional
** "version ..." first line, then lines of 9 whitespace-separated fields
** (bucket, map, width, height, start x and y, goal x and y, length);
** blank lines are skipped. *out is a new array (nav_free() it) of *count
** problems. A malformed line is NAV_E_FORMAT naming path:line and what is
** wrong with it; NAV_E_NOMEM when memory runs out. */
NavStatus map_movingai_scen_parse(const char *path, char *text, MapScenProblem **out, int *count, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

/*
** map_lua_internal.h — what the native Lua map loader's files share: the
** load context and the readers one file calls in another. map_lua.c runs
** the map's chunk and reads its top level (failing with a located error,
** reading values); map_lua_cells.c reads the legend, the layers and turns
** them into floors; map_lua_things.c reads the classes and the entities.
*/
#ifndef NAV_MAP_LUA_INTERNAL_H
#define NAV_MAP_LUA_INTERNAL_H

#include "map/map.h"

#include <lua.h>

#include "lua/sandbox.h"

/* {======= Types ======= */

typedef enum SpecKind {
    SPEC_FLOOR,
    SPEC_SOLID,
    SPEC_EMPTY,
    SPEC_VOID,
    SPEC_WATER,
    SPEC_LAVA,
    SPEC_SLIME,
    SPEC_LADDER,
    SPEC_CLIP,
    SPEC_KIND_COUNT
} SpecKind;

static const char *const SPEC_NAMES[SPEC_KIND_COUNT] = {
    "floor", "solid", "empty", "void", "water", "lava", "slime", "ladder", "clip",
};

typedef struct CellSpec {
    bool defined;
    uint8_t kind; /* SpecKind */
    uint8_t face; /* NavDir, ladders */
    bool portal;
    float h;       /* floor (liquids: surface) above the layer's z */
    float depth;   /* liquids */
    float ceiling; /* clearance above the floor, NAN = none */
    float top;     /* ladders: top above the layer's z */
    int mark;      /* index into marks, -1 = none */
} CellSpec;

#define MAX_MARKS 128

typedef struct Mark {
    char name[NAV_ENTITY_NAME_MAX];
    int layer; /* -1 until a cell uses it */
    int x0, y0, x1, y1;
    float zmin;
} Mark;

typedef struct LayerInfo {
    char name[NAV_NAME_MAX];
    float z;
    float slab;    /* thickness under the layer's floors */
    float ceiling; /* clearance above z, NAN = none */
} LayerInfo;

typedef struct LoadCtx {
    const char *file;
    const char *src;
    size_t len;
    NavError *err;
    bool failed;

    CellSpec legend[256];
    Mark marks[MAX_MARKS];
    int mark_count;

    int width, height;
    int layer_count;
    LayerInfo layers[NAV_MAX_LAYERS];
    unsigned char *grid;           /* layer_count * height rows of width chars, row 0 = north */
    int rows_line[NAV_MAX_LAYERS]; /* cache of where each layer's first row is, 0 = unknown, -1 = not found */

    NavWorld *world;
    NavFloorAt *items;
    size_t item_count;
} LoadCtx;

/* }======= */

/* Row r of layer k as text: from the grid, or the row being read. */
typedef struct RowText {
    const unsigned char *s;
    size_t n;
} RowText;

/* Fail with a message about a field (no line). */
#define FAIL(c, L, field, ...) map_lua_fail_at(c, L, 0, 0, field, __VA_ARGS__)
/* An allocation failed (NAV_E_NOMEM); the message says "out of memory". */
#define FAIL_NOMEM(c, L, field, ...) map_lua_fail_nomem(c, L, field, __VA_ARGS__)

/* {======= shared between the files ======= */

int map_lua_fail_at(LoadCtx *c, lua_State *L, int line, int col, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int map_lua_fail_nomem(LoadCtx *c, lua_State *L, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int map_lua_fail_cell(LoadCtx *c, lua_State *L, int k, int r, int col, RowText row, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
int map_lua_fail_with(LoadCtx *c, lua_State *L, const NavError *e);
/* A Lua runtime error as a map's error: "file:line: msg" and any traceback
** become file, line and msg. */
void map_lua_tidy_error(NavError *err, const char *file);
RowText map_lua_grid_row(const LoadCtx *c, int k, int r);
/* The sandbox map scripts run in: opt's budgets and print; NULL with err
** naming file when it cannot be made. */
Sandbox *map_lua_sandbox(const NavMapOptions *opt, const char *file, NavError *err);
void map_lua_check_fields(LoadCtx *c, lua_State *L, int idx, const char *const *allowed, const char *path);
/* The smallest key of the table at idx not in allowed (NULL-terminated)
** into buf, or NULL: map_lua_check_fields' test, for loaders that word
** the error their own way. */
const char *map_lua_unknown_key(lua_State *L, int idx, const char *const *allowed, char *buf, size_t cap);
int map_lua_check_list(LoadCtx *c, lua_State *L, int idx, const char *path);
int map_lua_raw_field(lua_State *L, int idx, const char *key);
void map_lua_join_path(char *out, size_t cap, const char *path, const char *key);
float map_lua_read_number(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                          float def, float lo, float hi);
void map_lua_read_string(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                         const char *def, char *out, size_t cap);
bool map_lua_read_bool(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool def);
bool map_lua_has_field(lua_State *L, int idx, const char *key);
void map_lua_read_vec_top(LoadCtx *c, lua_State *L, const char *field, vec3 out, bool *z_given);
int map_lua_find_mark(const LoadCtx *c, const char *name);
void map_lua_read_legend(LoadCtx *c, lua_State *L, int map);
void map_lua_read_layers(LoadCtx *c, lua_State *L, int map);
void map_lua_build_floors(LoadCtx *c, lua_State *L);
void map_lua_read_classes(LoadCtx *c, lua_State *L, int map);
void map_lua_read_entities(LoadCtx *c, lua_State *L, int map);

/* Reads the native map table on the top of sb's stack (and pops it) into a
** world, with every check of the native format: the Tiled loader hands its
** translation here. src, len: the text to find layer rows in for error
** lines (NULL: errors name the layer, row and column). NULL and err set on
** failure. */
NavWorld *map_lua_read_table(Sandbox *sb, const char *name, const char *src, size_t len, NavError *err);

/* }======= */

#endif

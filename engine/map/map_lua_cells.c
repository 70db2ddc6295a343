/*
** map_lua_cells.c — native Lua maps: the legend (cell kinds), the layers
** (rows, located in the source text for errors) and the floors they make.
*/
#include "map/map_lua_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lua/sandbox.h"

/* {======= legend ======= */

static int find_or_add_mark(LoadCtx *c, lua_State *L, const char *name, const char *field)
{
    for (int i = 0; i < c->mark_count; i++)
        if (strcmp(c->marks[i].name, name) == 0) return i;
    if (c->mark_count >= MAX_MARKS) FAIL(c, L, field, "more than %d marks", MAX_MARKS);
    Mark *m = &c->marks[c->mark_count];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->layer = -1;
    return c->mark_count++;
}

int map_lua_find_mark(const LoadCtx *c, const char *name)
{
    for (int i = 0; i < c->mark_count; i++)
        if (strcmp(c->marks[i].name, name) == 0) return i;
    return -1;
}

static const char *const SPEC_FIELDS[] = { "type", "h", "depth", "ceiling", "top", "face", "portal", "mark", NULL };

static bool is_liquid(int kind) { return kind == SPEC_WATER || kind == SPEC_LAVA || kind == SPEC_SLIME; }

/* The legend entry on the stack top, for character ch. */
static void read_spec(LoadCtx *c, lua_State *L, unsigned char ch, const char *path)
{
    CellSpec s = { .defined = true, .kind = SPEC_FLOOR, .ceiling = NAN, .mark = -1, .depth = 1.0f };
    char kind_name[16];
    char field[128];
    if (lua_type(L, -1) == LUA_TSTRING) {
        snprintf(kind_name, sizeof kind_name, "%.15s", lua_tostring(L, -1));
    } else if (lua_type(L, -1) == LUA_TTABLE) {
        map_lua_check_fields(c, L, -1, SPEC_FIELDS, path);
        map_lua_read_string(c, L, -1, "type", path, false, "floor", kind_name, sizeof kind_name);
    } else {
        FAIL(c, L, path, "expected a type name such as \"floor\" or a table { type = ..., h = ... }, got %s",
             luaL_typename(L, -1));
    }
    int kind = -1;
    for (int i = 0; i < SPEC_KIND_COUNT; i++)
        if (strcmp(kind_name, SPEC_NAMES[i]) == 0) kind = i;
    if (kind < 0) {
        map_lua_join_path(field, sizeof field, path, "type");
        FAIL(c, L, field,
             "unknown cell type '%s' (expected floor, solid, empty, void, water, lava, slime, ladder or clip)",
             kind_name);
    }
    s.kind = (uint8_t)kind;
    if (lua_type(L, -1) == LUA_TTABLE) {
        bool has_ground = kind != SPEC_SOLID && kind != SPEC_EMPTY && kind != SPEC_VOID;
        static const char *const ground_only[] = { "h", "ceiling", "portal", NULL };
        for (int i = 0; ground_only[i]; i++) {
            if (!has_ground && map_lua_has_field(L, -1, ground_only[i])) {
                map_lua_join_path(field, sizeof field, path, ground_only[i]);
                FAIL(c, L, field, "does not apply to '%s' cells", kind_name);
            }
        }
        if (!is_liquid(kind) && map_lua_has_field(L, -1, "depth")) {
            map_lua_join_path(field, sizeof field, path, "depth");
            FAIL(c, L, field, "only water, lava and slime cells have a depth");
        }
        if (kind != SPEC_LADDER && (map_lua_has_field(L, -1, "top") || map_lua_has_field(L, -1, "face"))) {
            map_lua_join_path(field, sizeof field, path, map_lua_has_field(L, -1, "top") ? "top" : "face");
            FAIL(c, L, field, "only ladder cells have a top and a face");
        }
        s.h = map_lua_read_number(c, L, -1, "h", path, false, 0.0f, -10000.0f, 10000.0f);
        if (is_liquid(kind)) s.depth = map_lua_read_number(c, L, -1, "depth", path, false, 1.0f, 0.01f, 10000.0f);
        s.ceiling = map_lua_read_number(c, L, -1, "ceiling", path, false, NAN, 0.01f, 10000.0f);
        s.portal = map_lua_read_bool(c, L, -1, "portal", path, false);
        if (kind == SPEC_LADDER) {
            s.top = map_lua_read_number(c, L, -1, "top", path, true, 0.0f, -10000.0f, 10000.0f);
            if (!(s.top > s.h)) {
                map_lua_join_path(field, sizeof field, path, "top");
                FAIL(c, L, field, "the ladder's top (%g) must be above its foot (h = %g)", (double)s.top, (double)s.h);
            }
            char face[8];
            map_lua_read_string(c, L, -1, "face", path, true, NULL, face, sizeof face);
            static const char *const long_names[4] = { "north", "east", "south", "west" };
            static const char *const short_names[4] = { "n", "e", "s", "w" };
            int d = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(face, long_names[i]) == 0 || strcmp(face, short_names[i]) == 0) d = i;
            if (d < 0) {
                map_lua_join_path(field, sizeof field, path, "face");
                FAIL(c, L, field, "expected north, east, south or west (the side of the wall it leans on), got '%s'",
                     face);
            }
            s.face = (uint8_t)d;
        }
        char mark[NAV_ENTITY_NAME_MAX];
        map_lua_read_string(c, L, -1, "mark", path, false, "", mark, sizeof mark);
        if (mark[0]) {
            map_lua_join_path(field, sizeof field, path, "mark");
            s.mark = find_or_add_mark(c, L, mark, field);
        }
    } else if (kind == SPEC_LADDER) {
        FAIL(c, L, path,
             "a ladder needs a table with its top and face: { type = \"ladder\", top = 4, face = \"north\" }");
    }
    (void)ch;
    c->legend[ch] = s;
}

void map_lua_read_legend(LoadCtx *c, lua_State *L, int map)
{
    /* Defaults a map may override. */
    c->legend['#'] = (CellSpec){ .defined = true, .kind = SPEC_SOLID, .ceiling = NAN, .mark = -1 };
    c->legend['.'] = (CellSpec){ .defined = true, .kind = SPEC_FLOOR, .ceiling = NAN, .mark = -1 };
    c->legend[' '] = (CellSpec){ .defined = true, .kind = SPEC_EMPTY, .ceiling = NAN, .mark = -1 };

    int t = map_lua_raw_field(L, map, "legend");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        FAIL(c, L, "legend", "expected a table of character = cell spec, got %s", luaL_typename(L, -1));
    int legend = lua_gettop(L);

    /* Bad keys first, the smallest one, so the message is stable. */
    char worst[64] = "";
    lua_pushnil(L);
    while (lua_next(L, legend)) {
        lua_pop(L, 1);
        size_t n = 0;
        if (lua_type(L, -1) != LUA_TSTRING || (lua_tolstring(L, -1, &n), n != 1)) {
            char name[64];
            if (lua_type(L, -1) == LUA_TSTRING) snprintf(name, sizeof name, "\"%.40s\"", lua_tostring(L, -1));
            else snprintf(name, sizeof name, "a %s", luaL_typename(L, -1));
            if (!worst[0] || strcmp(name, worst) < 0) snprintf(worst, sizeof worst, "%s", name);
        }
    }
    if (worst[0]) FAIL(c, L, "legend", "keys must be single characters, found %s", worst);

    for (int ch = 0; ch < 256; ch++) {
        char key = (char)ch;
        lua_pushlstring(L, &key, 1);
        if (lua_rawget(L, legend) != LUA_TNIL) {
            char path[32];
            if (ch >= 0x20 && ch < 0x7f) snprintf(path, sizeof path, "legend['%c']", ch);
            else snprintf(path, sizeof path, "legend[0x%02x]", ch);
            read_spec(c, L, (unsigned char)ch, path);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* }======= */

/* {======= layers ======= */

static const char *const LAYER_FIELDS[] = { "name", "z", "slab", "ceiling", "rows", NULL };

/* Splits a multi-line string into rows on the stack top, replacing it with
** a list. A leading newline and a trailing line break are dropped, as are
** carriage returns. */
static void split_rows(lua_State *L)
{
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    lua_newtable(L);
    int list = lua_gettop(L);
    size_t i = 0;
    int count = 0;
    if (i < n && s[i] == '\n') i++;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - s) : n;
        size_t len = e - i;
        if (len > 0 && s[i + len - 1] == '\r') len--;
        lua_pushlstring(L, s + i, len);
        lua_rawseti(L, list, ++count);
        i = e + 1;
    }
    lua_remove(L, list - 1);
}

void map_lua_read_layers(LoadCtx *c, lua_State *L, int map)
{
    if (map_lua_raw_field(L, map, "layers") != LUA_TTABLE) {
        if (lua_isnil(L, -1)) FAIL(c, L, "layers", "missing; a map needs at least one layer of rows");
        FAIL(c, L, "layers", "expected a list of layers, got %s", luaL_typename(L, -1));
    }
    int layers = lua_gettop(L);
    int n = map_lua_check_list(c, L, layers, "layers");
    if (n < 1) FAIL(c, L, "layers", "a map needs at least one layer");
    if (n > NAV_MAX_LAYERS) FAIL(c, L, "layers", "%d layers is more than the limit of %d", n, NAV_MAX_LAYERS);
    c->layer_count = n;

    for (int k = 0; k < n; k++) {
        char path[32];
        snprintf(path, sizeof path, "layers[%d]", k + 1);
        if (lua_rawgeti(L, layers, k + 1) != LUA_TTABLE)
            FAIL(c, L, path, "expected a table { z = ..., rows = ... }, got %s", luaL_typename(L, -1));
        int layer = lua_gettop(L);
        map_lua_check_fields(c, L, layer, LAYER_FIELDS, path);
        LayerInfo *li = &c->layers[k];
        char def_name[16];
        snprintf(def_name, sizeof def_name, "%d", k + 1);
        map_lua_read_string(c, L, layer, "name", path, false, def_name, li->name, sizeof li->name);
        li->z = map_lua_read_number(c, L, layer, "z", path, k > 0, 0.0f, -10000.0f, 10000.0f);
        li->slab = map_lua_read_number(c, L, layer, "slab", path, false, 0.2f, 0.0f, 100.0f);
        li->ceiling = map_lua_read_number(c, L, layer, "ceiling", path, false, NAN, 0.01f, 10000.0f);
        if (k > 0 && !(li->z > c->layers[k - 1].z)) {
            char field[48];
            snprintf(field, sizeof field, "%s.z", path);
            FAIL(c, L, field, "layers must rise: z = %g is not above the previous layer's %g", (double)li->z,
                 (double)c->layers[k - 1].z);
        }

        char rows_path[48];
        snprintf(rows_path, sizeof rows_path, "%s.rows", path);
        int rt = map_lua_raw_field(L, layer, "rows");
        if (rt == LUA_TSTRING) split_rows(L);
        else if (rt == LUA_TNIL) FAIL(c, L, rows_path, "missing; expected a list of strings or one multi-line string");
        else if (rt != LUA_TTABLE)
            FAIL(c, L, rows_path, "expected a list of strings or a string, got %s", luaL_typename(L, -1));
        int rows = lua_gettop(L);
        int h = map_lua_check_list(c, L, rows, rows_path);
        if (h < 1) FAIL(c, L, rows_path, "a layer needs at least one row");

        if (k == 0) {
            lua_rawgeti(L, rows, 1);
            size_t w = 0;
            if (lua_type(L, -1) == LUA_TSTRING) lua_tolstring(L, -1, &w);
            lua_pop(L, 1);
            if (w < 1 || w > NAV_MAX_WORLD_SIDE || h > NAV_MAX_WORLD_SIDE)
                FAIL(c, L, rows_path, "map size %zu x %d is out of range (1 to %d cells a side)", w, h,
                     NAV_MAX_WORLD_SIDE);
            if ((uint64_t)w * (uint64_t)h * (uint64_t)n > NAV_MAX_CELLS)
                FAIL(c, L, rows_path, "%d layers of %zu x %d cells is over the limit of %u cells", n, w, h,
                     NAV_MAX_CELLS);
            c->width = (int)w;
            c->height = h;
            c->grid = nav_malloc((size_t)n * (size_t)w * (size_t)h);
            if (!c->grid) FAIL_NOMEM(c, L, rows_path, "out of memory");
        } else if (h != c->height) {
            FAIL(c, L, rows_path, "has %d rows, layers[1] has %d (every layer covers the whole map)", h, c->height);
        }

        for (int r = 0; r < h; r++) {
            char row_path[64];
            snprintf(row_path, sizeof row_path, "%s[%d]", rows_path, r + 1);
            if (lua_rawgeti(L, rows, r + 1) != LUA_TSTRING)
                FAIL(c, L, row_path, "expected a string of cells, got %s", luaL_typename(L, -1));
            size_t len;
            const unsigned char *s = (const unsigned char *)lua_tolstring(L, -1, &len);
            RowText row = { s, len };
            if ((int)len != c->width)
                map_lua_fail_cell(c, L, k, r, (int)NAV_MIN(len, (size_t)c->width), row,
                                  "ragged rows: this row has %zu cells, the first row of layers[1] has %d", len,
                                  c->width);
            for (int col = 0; col < c->width; col++) {
                unsigned char ch = s[col];
                if (!c->legend[ch].defined) {
                    if (ch >= 0x20 && ch < 0x7f)
                        map_lua_fail_cell(c, L, k, r, col, row, "unknown legend character '%c' (add it to legend)", ch);
                    else map_lua_fail_cell(c, L, k, r, col, row, "unknown legend character (byte 0x%02x)", ch);
                }
                if (c->legend[ch].kind == SPEC_VOID && k > 0)
                    map_lua_fail_cell(c, L, k, r, col, row,
                                      "'void' cells belong on the lowest layer; use an 'empty' cell for open air");
            }
            memcpy(c->grid + ((size_t)k * (size_t)c->height + (size_t)r) * (size_t)c->width, s, (size_t)c->width);
            lua_pop(L, 1);
        }
        lua_pop(L, 2); /* rows, layer */
    }
    lua_pop(L, 1);
}

/* }======= */

/* {======= floors ======= */

static const CellSpec *spec_at(const LoadCtx *c, int k, int r, int col)
{
    return &c->legend[c->grid[((size_t)k * (size_t)c->height + (size_t)r) * (size_t)c->width + (size_t)col]];
}

/* Height of the bottom of what layer k puts in a column: its floor slab, or
** for a sunken floor or a liquid, the slab under the lowest surface. */
static float underside(const LoadCtx *c, int k, const CellSpec *s)
{
    float base = c->layers[k].z;
    float lowest = base + s->h - (is_liquid(s->kind) ? s->depth : 0.0f);
    if (s->kind == SPEC_SOLID) lowest = base;
    return NAV_MIN(base, lowest) - c->layers[k].slab;
}

void map_lua_build_floors(LoadCtx *c, lua_State *L)
{
    size_t cap = (size_t)c->width * (size_t)c->height * (size_t)c->layer_count;
    c->items = nav_malloc((cap ? cap : 1) * sizeof *c->items);
    if (!c->items) FAIL_NOMEM(c, L, "layers", "out of memory for %zu cells", cap);
    c->item_count = 0;

    for (int r = 0; r < c->height; r++) {
        int cy = c->height - 1 - r;
        for (int col = 0; col < c->width; col++) {
            for (int k = 0; k < c->layer_count; k++) {
                const CellSpec *s = spec_at(c, k, r, col);
                bool is_void = s->kind == SPEC_VOID || (s->kind == SPEC_EMPTY && k == 0);
                if (s->kind == SPEC_SOLID || (s->kind == SPEC_EMPTY && k > 0)) continue;

                const LayerInfo *li = &c->layers[k];
                NavFloor f = { 0 };
                f.layer = (uint16_t)k;
                f.flags = (uint8_t)((s->portal ? NAV_FLOOR_PORTAL : 0) | (s->face << NAV_FLOOR_FACE_SHIFT));
                if (is_void) {
                    f.contents = NAV_CONTENTS_VOID;
                    f.z = -INFINITY;
                    f.top = -INFINITY;
                } else if (is_liquid(s->kind)) {
                    f.contents = s->kind == SPEC_WATER  ? NAV_CONTENTS_WATER
                                 : s->kind == SPEC_LAVA ? NAV_CONTENTS_LAVA
                                                        : NAV_CONTENTS_SLIME;
                    f.top = li->z + s->h;
                    f.z = f.top - s->depth;
                } else {
                    f.contents = s->kind == SPEC_LADDER ? NAV_CONTENTS_LADDER
                                 : s->kind == SPEC_CLIP ? NAV_CONTENTS_CLIP
                                                        : NAV_CONTENTS_FLOOR;
                    f.z = li->z + s->h;
                    f.top = s->kind == SPEC_LADDER ? li->z + s->top : f.z;
                }

                float ceiling = INFINITY;
                if (!isnan(s->ceiling)) ceiling = f.z + s->ceiling;
                if (!isnan(li->ceiling)) ceiling = NAV_MIN(ceiling, li->z + li->ceiling);
                for (int j = k + 1; j < c->layer_count; j++) {
                    const CellSpec *above = spec_at(c, j, r, col);
                    if (above->kind == SPEC_EMPTY) continue;
                    ceiling = NAV_MIN(ceiling, underside(c, j, above));
                    break;
                }
                if (!(ceiling > f.z)) {
                    RowText row = map_lua_grid_row(c, k, r);
                    map_lua_fail_cell(c, L, k, r, col, row,
                                      "no headroom: the floor at %g is not below the ceiling or the layer above at %g",
                                      (double)f.z, (double)ceiling);
                }
                if (s->kind == SPEC_LADDER && f.top > ceiling) {
                    RowText row = map_lua_grid_row(c, k, r);
                    map_lua_fail_cell(c, L, k, r, col, row, "the ladder's top at %g goes through the ceiling at %g",
                                      (double)f.top, (double)ceiling);
                }
                f.ceiling = ceiling;
                c->items[c->item_count].cell = (uint32_t)cy * (uint32_t)c->width + (uint32_t)col;
                c->items[c->item_count].floor = f;
                c->item_count++;

                if (s->mark >= 0) {
                    Mark *m = &c->marks[s->mark];
                    float z = is_liquid(s->kind) ? f.top : f.z;
                    if (m->layer < 0) {
                        m->layer = k;
                        m->x0 = m->x1 = col;
                        m->y0 = m->y1 = cy;
                        m->zmin = z;
                    } else if (m->layer != k) {
                        RowText row = map_lua_grid_row(c, k, r);
                        map_lua_fail_cell(c, L, k, r, col, row,
                                          "mark '%s' is used on layers[%d] and layers[%d]; a mark "
                                          "belongs to one layer",
                                          m->name, m->layer + 1, k + 1);
                    } else {
                        m->x0 = NAV_MIN(m->x0, col);
                        m->x1 = NAV_MAX(m->x1, col);
                        m->y0 = NAV_MIN(m->y0, cy);
                        m->y1 = NAV_MAX(m->y1, cy);
                        m->zmin = NAV_MIN(m->zmin, z);
                    }
                }
            }
        }
    }
    NavError werr;
    if (NAV_FAILED(world_set_floors(c->world, c->items, c->item_count, &werr))) map_lua_fail_with(c, L, &werr);
    nav_free(c->items);
    c->items = NULL;
}

/* }======= */

/*
** map_tiled_cells.c — Tiled maps: tilesets and tile layers into the
** native legend and layers.
**
** Each tile layer is a storey, in the order Tiled draws them (lowest
** first). Each different tile the layers use becomes one legend character
** whose cell spec comes from the tile: its class (`type`) or a `type`
** property names the cell kind, its other properties the kind's fields.
** An empty cell (gid 0) is the native 'empty': open air over the storey
** below, a bottomless void on the lowest storey. The flip bits of a gid
** are dropped: a flipped tile is the same cell.
*/
#include "map/map_tiled_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "lua/lua_paths.h"
#include "map/map_lua_internal.h"

#define GID_FLAGS 0xF0000000u /* flips (h, v, diagonal) and hexagonal 120° */
#define MAX_TILESETS NAV_LIMIT_TILED_TILESETS

static const char *const TILE_PROPS[] = { "type", "h", "depth", "ceiling", "top", "face", "portal", "mark", NULL };
static const char *const LAYER_PROPS[] = { "z", "slab", "ceiling", NULL };

/* {======= tilesets ======= */

/* The tileset at idx (an entry of the map's list): external ones are read
** and parsed, relative to the map's folder. Pushes the tileset's table. */
static void push_tileset(TiledCtx *t, lua_State *L, int idx, const char *field)
{
    char source[512];
    tiled_string(t, L, idx, "source", field, source, sizeof source);
    if (!source[0]) {
        lua_pushvalue(L, idx);
        return;
    }
    const char *ext = fileio_extension(source);
    if (strcmp(ext, "tsx") == 0)
        tiled_fail(t, L, field,
                   "tileset '%s' is in Tiled's XML format (.tsx), which navbot does not read: open it in Tiled "
                   "and use File > Export As... to save it as a JSON tileset (.tsj), or embed it in the map",
                   source);
    char path[NAV_LUA_PATH_CAP];
    if (source[0] == '/') {
        snprintf(path, sizeof path, "%s", source);
    } else {
        char dir[NAV_LUA_PATH_CAP];
        nav_lua_dirname(t->file, dir, sizeof dir);
        snprintf(path, sizeof path, "%.2000s/%.1000s", dir, source);
    }
    /* A device or a fifo named as a tileset would be read to its end. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        tiled_fail(t, L, field, "tileset '%s' is not a regular file", source);
    size_t len;
    NavError ferr;
    if (NAV_FAILED(fileio_read(path, NAV_MAP_MAX_FILE_BYTES, &t->text, &len, &ferr))) {
        if (ferr.status & NAV_E_NOMEM) tiled_fail_nomem(t, L, field, "reading a tileset");
        tiled_fail(t, L, field, "tileset '%s': %s", source, ferr.message);
    }
    tiled_push_json(t, L, t->text, len, path);
    nav_free(t->text);
    t->text = NULL;
    if (lua_type(L, -1) != LUA_TTABLE) tiled_fail(t, L, field, "tileset '%s' is not a JSON object", source);
    char type[16];
    tiled_string(t, L, -1, "type", field, type, sizeof type);
    if (type[0] && strcmp(type, "tileset") != 0)
        tiled_fail(t, L, field, "'%s' is a Tiled %s, not a tileset", source, type);
}

/* Reads the map's tilesets into a list at the stack top (same order as
** first[]). */
static int read_tilesets(TiledCtx *t, lua_State *L, int map, uint32_t *first, int *count)
{
    lua_newtable(L);
    int list = lua_gettop(L);
    *count = 0;
    int ty = tiled_get(L, map, "tilesets");
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return list;
    }
    if (ty != LUA_TTABLE) tiled_fail(t, L, "tilesets", "expected a list, got %s", luaL_typename(L, -1));
    int src = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, src);
    if (n > MAX_TILESETS) tiled_fail(t, L, "tilesets", "more than %d tilesets", MAX_TILESETS);
    for (lua_Integer i = 1; i <= n; i++) {
        char field[32];
        snprintf(field, sizeof field, "tilesets[%lld]", (long long)i);
        if (lua_rawgeti(L, src, i) != LUA_TTABLE) tiled_fail(t, L, field, "expected a table");
        double fg = tiled_number(t, L, -1, "firstgid", field, true, 0);
        if (fg != floor(fg) || fg < 1 || fg > (double)~GID_FLAGS) tiled_fail(t, L, field, "bad firstgid %g", fg);
        push_tileset(t, L, lua_gettop(L), field);
        lua_rawseti(L, list, i);
        lua_pop(L, 1);
        first[(*count)++] = (uint32_t)fg;
    }
    lua_pop(L, 1);
    return list;
}

/* }======= */

/* {======= tiles ======= */

static int kind_named(const char *s)
{
    for (int i = 0; i < SPEC_KIND_COUNT; i++)
        if (strcmp(s, SPEC_NAMES[i]) == 0) return i;
    return -1;
}

/* Legend characters in the order tiles get them: printable first, so
** that a translated map reads well when printed; never ' ' (empty) or
** NUL. */
static unsigned char code_for(int i)
{
    if (i < 94) return (unsigned char)(0x21 + i);
    if (i < 94 + 128) return (unsigned char)(0x80 + i - 94);
    return (unsigned char)(0x01 + i - 94 - 128);
}

typedef struct Where {
    int storey, col, row;
} Where;

/* The tile gid (flags cleared) first seen at w: a new legend entry. */
static int add_tile(TiledCtx *t, lua_State *L, uint32_t gid, Where at, int tilesets, const uint32_t *first, int count,
                    int legend)
{
    char field[128];
    tiled_cell_field(t, at.storey, at.col, at.row, field, sizeof field);
    int best = -1;
    for (int i = 0; i < count; i++)
        if (first[i] <= gid && (best < 0 || first[i] >= first[best])) best = i;
    if (best < 0) tiled_fail(t, L, field, "tile gid %u is in no tileset", (unsigned)gid);
    if (t->tile_count >= TILED_MAX_TILES)
        tiled_fail(t, L, field, "more than %d different tiles in the tile layers", TILED_MAX_TILES);
    TiledTile *tl = &t->tiles[t->tile_count];
    memset(tl, 0, sizeof *tl);
    tl->gid = gid;
    tl->local_id = (int)(gid - first[best]);
    tl->storey = at.storey;
    tl->col = at.col;
    tl->row = at.row;
    tl->depth = 1.0f;
    tl->code = code_for(t->tile_count);

    lua_rawgeti(L, tilesets, best + 1);
    int ts = lua_gettop(L);
    char name[64];
    tiled_string(t, L, ts, "name", field, name, sizeof name);
    snprintf(tl->tileset, sizeof tl->tileset, "%.39s", name);
    double tilecount = tiled_number(t, L, ts, "tilecount", field, false, -1);
    if (tilecount >= 0 && tl->local_id >= tilecount)
        tiled_fail(t, L, field, "tile gid %u is past the end of tileset '%s' (%g tiles)", (unsigned)gid, tl->tileset,
                   tilecount);

    /* The tile's entry: tiles[] is not sorted by id since Tiled 1.7. */
    lua_pushnil(L);
    int tile = lua_gettop(L); /* the entry, or nil */
    if (tiled_get(L, ts, "tiles") == LUA_TTABLE) {
        int tiles = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, tiles);
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, tiles, i) == LUA_TTABLE) {
                bool hit = tiled_get(L, -1, "id") == LUA_TNUMBER && lua_tonumber(L, -1) == tl->local_id;
                lua_pop(L, 1);
                if (hit) {
                    lua_replace(L, tile);
                    break;
                }
            }
            lua_settop(L, tiles);
        }
    }
    lua_settop(L, tile);

    char what[96];
    snprintf(what, sizeof what, "tile %d of tileset '%s'", tl->local_id, tl->tileset);
    char kind[24] = "";
    if (lua_istable(L, tile)) {
        tiled_class(t, L, tile, field, kind, sizeof kind);
        tiled_push_properties(t, L, tile, field);
    } else {
        lua_newtable(L);
    }
    int props = lua_gettop(L);
    char bad[64];
    if (map_lua_unknown_key(L, props, TILE_PROPS, bad, sizeof bad))
        tiled_fail(t, L, field,
                   "%s: unknown property '%s' (expected one of: type, h, depth, ceiling, top, face, "
                   "portal, mark)",
                   what, bad);
    int ty = tiled_get(L, props, "type");
    if (ty == LUA_TSTRING) snprintf(kind, sizeof kind, "%.23s", lua_tostring(L, -1));
    else if (ty != LUA_TNIL)
        tiled_fail(t, L, field, "%s, property 'type': expected a string, got %s", what, luaL_typename(L, -1));
    lua_pop(L, 1);
    if (!kind[0])
        tiled_fail(t, L, field,
                   "%s has no navbot cell type: give the tile a class (floor, solid, empty, void, water, lava, "
                   "slime, ladder or clip) or a property 'type'",
                   what);
    tl->kind = kind_named(kind);
    if (tl->kind < 0)
        tiled_fail(t, L, field,
                   "%s: unknown cell type '%s' (expected floor, solid, empty, void, water, lava, slime, ladder or "
                   "clip)",
                   what, kind);
    if (tl->kind == SPEC_VOID && at.storey > 0)
        tiled_fail(t, L, field, "%s is 'void', which belongs on the lowest layer; leave the cell empty for open air",
                   what);

    /* The spec: the properties as they are, the kind by name. */
    lua_pushstring(L, kind);
    lua_setfield(L, props, "type");
    if (tiled_get(L, props, "h") == LUA_TNUMBER) tl->h = (float)lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (tiled_get(L, props, "depth") == LUA_TNUMBER) tl->depth = (float)lua_tonumber(L, -1);
    lua_pop(L, 1);
    char key = (char)tl->code;
    lua_pushlstring(L, &key, 1);
    lua_pushvalue(L, props);
    lua_rawset(L, legend);
    lua_settop(L, ts - 1);

    /* Index it by gid. */
    uint32_t slot = (gid * 2654435761u) & (TILED_HASH - 1);
    while (t->slot_gid[slot]) slot = (slot + 1) & (TILED_HASH - 1);
    t->slot_gid[slot] = gid;
    t->slot_tile[slot] = (int16_t)t->tile_count;
    return t->tile_count++;
}

static int find_tile(const TiledCtx *t, uint32_t gid)
{
    uint32_t slot = (gid * 2654435761u) & (TILED_HASH - 1);
    while (t->slot_gid[slot]) {
        if (t->slot_gid[slot] == gid) return t->slot_tile[slot];
        slot = (slot + 1) & (TILED_HASH - 1);
    }
    return -1;
}

bool tiled_floor_z(const TiledCtx *t, int k, int col, int row, float *z)
{
    if (col < 0 || row < 0 || col >= t->width || row >= t->height || !t->grid) return false;
    for (int j = k; j >= 0; j--) {
        unsigned char code = t->grid[((size_t)j * (size_t)t->height + (size_t)row) * (size_t)t->width + (size_t)col];
        if (code == ' ') continue;
        const TiledTile *tl = NULL;
        for (int i = 0; i < t->tile_count; i++)
            if (t->tiles[i].code == code) tl = &t->tiles[i];
        if (!tl || tl->kind == SPEC_SOLID || tl->kind == SPEC_VOID) return false;
        if (tl->kind == SPEC_EMPTY) continue;
        *z = t->storeys[j].z + tl->h;
        return true;
    }
    return false;
}

/* }======= */

/* {======= tile layers ======= */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes base64 text (white space skipped) into t->bytes; returns the
** byte count, or -1 on a bad character. */
static long decode_base64(TiledCtx *t, lua_State *L, const char *s, size_t n, const char *field)
{
    nav_free(t->bytes);
    t->bytes = nav_malloc(n / 4 * 3 + 3);
    if (!t->bytes) tiled_fail_nomem(t, L, field, "a layer's data");
    uint32_t acc = 0;
    int bits = 0;
    long out = 0;
    bool ended = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            ended = true;
            continue;
        }
        int v = b64_value(c);
        if (v < 0 || ended) return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            t->bytes[out++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return out;
}

/* The gids of the layer at idx into the grid of storey k, and its rows
** (a list of strings) pushed. */
static void read_data(TiledCtx *t, lua_State *L, int layer, int k, int tilesets, const uint32_t *first, int count,
                      int legend, const char *field)
{
    size_t cells = (size_t)t->width * (size_t)t->height;
    char s[24];
    tiled_string(t, L, layer, "encoding", field, s, sizeof s);
    char comp[24];
    tiled_string(t, L, layer, "compression", field, comp, sizeof comp);
    if (comp[0])
        tiled_fail(t, L, field,
                   "the layer is compressed with %s, which navbot does not read: save the map with Tile Layer "
                   "Format CSV or Base64 (uncompressed) (Map > Map Properties)",
                   comp);
    if (tiled_get(L, layer, "chunks") != LUA_TNIL)
        tiled_fail(t, L, field, "the layer has chunks (an infinite map): untick Infinite in Map > Map Properties");
    lua_pop(L, 1);
    int ty = tiled_get(L, layer, "data");
    int data = lua_gettop(L);
    size_t n = 0;
    if (ty == LUA_TSTRING) {
        if (strcmp(s, "base64") != 0)
            tiled_fail(t, L, field, "'data' is text but the encoding is '%s'; expected base64", s[0] ? s : "none");
        size_t len;
        const char *text = lua_tolstring(L, data, &len);
        long got = decode_base64(t, L, text, len, field);
        if (got < 0) tiled_fail(t, L, field, "'data' is not valid base64");
        n = (size_t)got / 4;
        if ((size_t)got % 4 != 0 || n != cells)
            tiled_fail(t, L, field, "'data' holds %ld bytes, expected %zu (4 for each of %d x %d cells)", got,
                       cells * 4, t->width, t->height);
    } else if (ty == LUA_TTABLE) {
        if (s[0] && strcmp(s, "csv") != 0 && strcmp(s, "lua") != 0)
            tiled_fail(t, L, field, "unknown encoding '%s' (expected csv, base64 or lua)", s);
        n = lua_rawlen(L, data);
        if (n != cells)
            tiled_fail(t, L, field, "'data' has %zu tiles, expected %zu (%d x %d)", n, cells, t->width, t->height);
    } else {
        tiled_fail(t, L, field, "'data': expected a list of tiles or base64 text, got %s", luaL_typename(L, data));
    }

    unsigned char *grid = t->grid + (size_t)k * cells;
    for (int r = 0; r < t->height; r++) {
        for (int c = 0; c < t->width; c++) {
            size_t i = (size_t)r * (size_t)t->width + (size_t)c;
            uint32_t gid;
            if (ty == LUA_TSTRING) {
                const unsigned char *b = t->bytes + 4 * i;
                gid = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            } else {
                lua_rawgeti(L, data, (lua_Integer)i + 1);
                double v = lua_tonumber(L, -1);
                if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 0 || v > 4294967295.0) {
                    char cf[128];
                    tiled_cell_field(t, k, c, r, cf, sizeof cf);
                    if (lua_type(L, -1) == LUA_TNUMBER)
                        tiled_fail(t, L, cf, "'data' holds %g where a tile gid (0 to 4294967295) belongs", v);
                    tiled_fail(t, L, cf, "'data' holds a %s where a tile gid belongs", luaL_typename(L, -1));
                }
                lua_pop(L, 1);
                gid = (uint32_t)v;
            }
            gid &= ~GID_FLAGS;
            if (gid == 0) {
                grid[i] = ' ';
                continue;
            }
            int tile = find_tile(t, gid);
            if (tile < 0) tile = add_tile(t, L, gid, (Where){ k, c, r }, tilesets, first, count, legend);
            grid[i] = t->tiles[tile].code;
        }
    }
    lua_pop(L, 1); /* data */

    lua_createtable(L, t->height, 0);
    for (int r = 0; r < t->height; r++) {
        lua_pushlstring(L, (const char *)grid + (size_t)r * (size_t)t->width, (size_t)t->width);
        lua_rawseti(L, -2, r + 1);
    }
}

/* A layer's name for the native map: at most NAV_NAME_MAX - 1 bytes, cut
** between UTF-8 characters. */
static void short_name(char *s)
{
    size_t n = strlen(s);
    if (n < NAV_NAME_MAX) return;
    n = NAV_NAME_MAX - 1;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    s[n] = '\0';
}

void tiled_read_cells(TiledCtx *t, lua_State *L, int map, int flat, int native)
{
    uint32_t first[MAX_TILESETS];
    int count;
    int tilesets = read_tilesets(t, L, map, first, &count);

    lua_newtable(L);
    int legend = lua_gettop(L);
    lua_pushliteral(L, " ");
    lua_pushliteral(L, "empty");
    lua_rawset(L, legend);
    lua_newtable(L);
    int layers = lua_gettop(L);

    lua_Integer n = (lua_Integer)lua_rawlen(L, flat);
    int storeys = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, flat, i);
        char type[24];
        tiled_string(t, L, -1, "type", NULL, type, sizeof type);
        storeys += strcmp(type, "tilelayer") == 0;
        lua_pop(L, 1);
    }
    if (storeys == 0) tiled_fail(t, L, "layers", "the map has no tile layer; each tile layer is a storey");
    if (storeys > NAV_MAX_LAYERS)
        tiled_fail(t, L, "layers", "%d tile layers is more than the limit of %d storeys", storeys, NAV_MAX_LAYERS);
    size_t cells = (size_t)t->width * (size_t)t->height;
    if ((uint64_t)cells * (uint64_t)storeys > NAV_MAX_CELLS)
        tiled_fail(t, L, "layers", "%d tile layers of %d x %d cells is over the limit of %u cells", storeys, t->width,
                   t->height, NAV_MAX_CELLS);
    t->grid = nav_malloc(cells * (size_t)storeys);
    if (!t->grid) tiled_fail_nomem(t, L, "layers", "the layers' cells");

    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, flat, i);
        int layer = lua_gettop(L);
        char type[24], name[64];
        tiled_string(t, L, layer, "type", NULL, type, sizeof type);
        if (strcmp(type, "tilelayer") != 0) {
            lua_pop(L, 1);
            continue;
        }
        tiled_string(t, L, layer, "name", NULL, name, sizeof name);
        int k = t->storey_count++;
        TiledStorey *st = &t->storeys[k];
        snprintf(st->name, sizeof st->name, "%.39s", name);
        char field[96];
        snprintf(field, sizeof field, "layer '%s'", st->name);
        if (tiled_number(t, L, layer, "navbot_ox", field, false, 0) != 0 ||
            tiled_number(t, L, layer, "navbot_oy", field, false, 0) != 0)
            tiled_fail(t, L, field,
                       "the layer is offset; navbot's storeys lie on the map's grid: set its offset "
                       "(and its groups') to 0, 0");
        double lw = tiled_number(t, L, layer, "width", field, false, t->width);
        double lh = tiled_number(t, L, layer, "height", field, false, t->height);
        if (lw != t->width || lh != t->height)
            tiled_fail(t, L, field, "the layer is %g x %g cells, the map %d x %d", lw, lh, t->width, t->height);

        tiled_push_properties(t, L, layer, field);
        int props = lua_gettop(L);
        char bad[64];
        if (map_lua_unknown_key(L, props, LAYER_PROPS, bad, sizeof bad))
            tiled_fail(t, L, field, "unknown layer property '%s' (expected z, slab or ceiling)", bad);

        lua_createtable(L, 0, 5);
        int out = lua_gettop(L);
        short_name(name);
        lua_pushstring(L, name);
        lua_setfield(L, out, "name");
        if (tiled_get(L, props, "z") == LUA_TNIL) {
            lua_pop(L, 1);
            st->z = (float)k * t->storey_height;
            lua_pushnumber(L, st->z);
        } else if (lua_type(L, -1) == LUA_TNUMBER) {
            st->z = (float)lua_tonumber(L, -1);
        }
        lua_setfield(L, out, "z");
        for (int p = 1; p < 3; p++) {
            tiled_get(L, props, LAYER_PROPS[p]);
            lua_setfield(L, out, LAYER_PROPS[p]);
        }
        read_data(t, L, layer, k, tilesets, first, count, legend, field);
        lua_setfield(L, out, "rows");
        lua_rawseti(L, layers, k + 1);
        lua_settop(L, layers);
    }
    lua_setfield(L, native, "layers");
    lua_setfield(L, native, "legend");
    lua_pop(L, 1); /* tilesets */
}

/* }======= */

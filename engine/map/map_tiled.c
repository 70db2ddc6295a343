/*
** map_tiled.c — Tiled maps: the entry points, JSON into Lua tables, the
** reading helpers the translation shares, and the native loader's errors
** told again in Tiled's terms.
**
** Design (see map_tiled_internal.h): a Tiled map becomes a native map
** table, read by the native loader. The native reader's errors name its
** own fields ("layers[2].rows[5]: column 7: ...", "legend['C'].depth",
** "entities[3].dest"); the translation keeps where each of those came
** from (the Tiled layer, the tile and the cell it was first used at, the
** object and its layer), and explain_error() puts the message back in
** the terms of the map the user drew.
**
** JSON is parsed with cJSON (Debian's libcjson). cJSON allocates with the
** C library, outside the sandbox's cap, about 80 bytes a value; a file of
** millions of numbers would take gigabytes before the cap could refuse
** them, so the values are counted first (a count of the commas and
** brackets, never fewer than the values) and a document past the map's
** memory allows is refused. cJSON's global hooks are left alone: they are
** the whole process's, and an embedder may use cJSON too.
*/
#include "map/map_tiled_internal.h"

#include <cjson/cJSON.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "map/map_lua_internal.h"

/* {======= reading helpers ======= */

int tiled_fail(TiledCtx *t, lua_State *L, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nav_error_setv(t->err, NAV_E_FORMAT, t->file, 0, 0, field, fmt, ap);
    va_end(ap);
    t->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}

int tiled_fail_nomem(TiledCtx *t, lua_State *L, const char *field, const char *what)
{
    nav_error_set(t->err, NAV_E_NOMEM, t->file, 0, 0, field, "out of memory for %s", what);
    t->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}

void tiled_cell_field(const TiledCtx *t, int storey, int col, int row, char *out, size_t cap)
{
    const char *name = storey >= 0 && storey < t->storey_count ? t->storeys[storey].name : "?";
    snprintf(out, cap, "layer '%s', cell (%d, %d) [navbot (%d, %d)]", name, col, row, col,
             map_movingai_row_to_cy(row, t->height));
}

int tiled_get(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    return lua_rawget(L, idx);
}

double tiled_number(TiledCtx *t, lua_State *L, int idx, const char *key, const char *field, bool required, double def)
{
    int ty = tiled_get(L, idx, key);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) tiled_fail(t, L, field, "'%s' is missing; expected a number", key);
        return def;
    }
    if (ty != LUA_TNUMBER) tiled_fail(t, L, field, "'%s': expected a number, got %s", key, luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(v)) tiled_fail(t, L, field, "'%s': %g is not a usable number", key, v);
    return v;
}

void tiled_string(TiledCtx *t, lua_State *L, int idx, const char *key, const char *field, char *out, size_t cap)
{
    int ty = tiled_get(L, idx, key);
    out[0] = '\0';
    if (ty == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, -1, &n);
        if (n >= cap) tiled_fail(t, L, field, "'%s': longer than %zu characters", key, cap - 1);
        memcpy(out, s, n + 1);
    } else if (ty != LUA_TNIL) {
        tiled_fail(t, L, field, "'%s': expected a string, got %s", key, luaL_typename(L, -1));
    }
    lua_pop(L, 1);
}

void tiled_class(TiledCtx *t, lua_State *L, int idx, const char *field, char *out, size_t cap)
{
    tiled_string(t, L, idx, "type", field, out, cap);
    if (!out[0]) tiled_string(t, L, idx, "class", field, out, cap);
}

void tiled_push_properties(TiledCtx *t, lua_State *L, int idx, const char *field)
{
    idx = lua_absindex(L, idx);
    int ty = tiled_get(L, idx, "properties");
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        return;
    }
    if (ty != LUA_TTABLE) tiled_fail(t, L, field, "'properties': expected a table, got %s", luaL_typename(L, -1));
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n == 0) return; /* the Lua export's name = value table (or none) */

    /* JSON's list of { name, type, value }. */
    int list = lua_gettop(L);
    lua_createtable(L, 0, (int)NAV_MIN(n, 64));
    int out = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, list, i) != LUA_TTABLE)
            tiled_fail(t, L, field, "properties[%lld]: expected { name, type, value }, got %s", (long long)i,
                       luaL_typename(L, -1));
        int p = lua_gettop(L);
        if (tiled_get(L, p, "name") != LUA_TSTRING)
            tiled_fail(t, L, field, "properties[%lld]: 'name' must be a string", (long long)i);
        char type[16];
        tiled_string(t, L, p, "type", field, type, sizeof type);
        if (tiled_get(L, p, "value") == LUA_TNIL)
            tiled_fail(t, L, field, "property '%s' has no value", lua_tostring(L, -2));
        if (strcmp(type, "object") == 0) {
            lua_createtable(L, 0, 1);
            lua_insert(L, -2);
            lua_setfield(L, -2, "id");
        }
        lua_rawset(L, out); /* name = value */
        lua_pop(L, 1);
    }
    lua_remove(L, list);
}


/* }======= */

/* {======= JSON into Lua ======= */

static void push_value(TiledCtx *t, lua_State *L, const cJSON *v)
{
    if (!lua_checkstack(L, 4)) tiled_fail(t, L, NULL, "the JSON nests too deeply");
    if (cJSON_IsObject(v)) {
        lua_newtable(L);
        const cJSON *c;
        cJSON_ArrayForEach(c, v)
        {
            if (cJSON_IsNull(c) || !c->string) continue;
            lua_pushstring(L, c->string);
            push_value(t, L, c);
            lua_rawset(L, -3);
        }
    } else if (cJSON_IsArray(v)) {
        int n = cJSON_GetArraySize(v);
        lua_createtable(L, n, 0);
        lua_Integer i = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, v)
        {
            push_value(t, L, c);
            lua_rawseti(L, -2, ++i);
        }
    } else if (cJSON_IsString(v)) {
        lua_pushstring(L, v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        /* valueint saturates; the double holds every gid exactly. */
        lua_pushnumber(L, v->valuedouble);
    } else if (cJSON_IsBool(v)) {
        lua_pushboolean(L, cJSON_IsTrue(v));
    } else {
        lua_pushboolean(L, 0); /* null in a list: no Tiled field holds one */
    }
}

void tiled_push_json(TiledCtx *t, lua_State *L, const char *text, size_t len, const char *what)
{
    size_t values = 1;
    for (size_t i = 0; i < len; i++) values += text[i] == ',' || text[i] == '[' || text[i] == '{';
    size_t most = t->memory_limit / NAV_LIMIT_JSON_VALUE_BYTES;
    if (values > most) {
        nav_error_set(t->err, NAV_E_FORMAT, what, 0, 0, NULL,
                      "about %zu JSON values, more than the %zu a map's memory allows: save the tile layers "
                      "as Base64 (uncompressed), not CSV (Tiled: Map > Map Properties > Tile Layer Format)",
                      values, most);
        t->failed = true;
        lua_pushliteral(L, "map error");
        lua_error(L);
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        if (at > len) at = len;
        int line = 1, col = 1;
        for (size_t i = 0; i < at; i++) {
            if (text[i] == '\n') line++, col = 1;
            else col++;
        }
        char near[24];
        size_t n = 0;
        for (size_t i = at; i < len && n < 16 && text[i] != '\n' && text[i] != '\r'; i++)
            near[n++] = (text[i] >= 0x20 && text[i] < 0x7f) ? text[i] : '?';
        near[n] = '\0';
        if (at >= len)
            nav_error_set(t->err, NAV_E_FORMAT, what, line, col, NULL, "malformed JSON: the text ends early");
        else nav_error_set(t->err, NAV_E_FORMAT, what, line, col, NULL, "malformed JSON near '%s'", near);
        t->failed = true;
        lua_pushliteral(L, "map error");
        lua_error(L);
    }
    t->json = root;
    push_value(t, L, root);
    t->json = NULL;
    cJSON_Delete(root);
}

/* }======= */

/* {======= the translation ======= */

/* Pushes the map's layers in drawing order with group layers opened
** (their offsets added to their children's: field navbot_ox, navbot_oy). */
static void flatten(TiledCtx *t, lua_State *L, int layers, int out, double ox, double oy, int depth)
{
    if (depth > 32) tiled_fail(t, L, "layers", "group layers nest more than 32 deep");
    lua_Integer n = (lua_Integer)lua_rawlen(L, layers);
    for (lua_Integer i = 1; i <= n; i++) {
        luaL_checkstack(L, 8, "layers");
        if (lua_rawgeti(L, layers, i) != LUA_TTABLE)
            tiled_fail(t, L, "layers", "layer %lld: expected a table, got %s", (long long)i, luaL_typename(L, -1));
        int layer = lua_gettop(L);
        char name[64], type[24];
        tiled_string(t, L, layer, "name", "layers", name, sizeof name);
        char field[96];
        snprintf(field, sizeof field, "layer '%.40s'", name);
        tiled_string(t, L, layer, "type", field, type, sizeof type);
        double lx = ox + tiled_number(t, L, layer, "offsetx", field, false, 0.0);
        double ly = oy + tiled_number(t, L, layer, "offsety", field, false, 0.0);
        if (strcmp(type, "group") == 0) {
            if (tiled_get(L, layer, "layers") == LUA_TTABLE) flatten(t, L, lua_gettop(L), out, lx, ly, depth + 1);
            lua_pop(L, 1);
        } else if (strcmp(type, "tilelayer") == 0 || strcmp(type, "objectgroup") == 0) {
            lua_pushnumber(L, lx);
            lua_setfield(L, layer, "navbot_ox");
            lua_pushnumber(L, ly);
            lua_setfield(L, layer, "navbot_oy");
            lua_pushvalue(L, layer);
            lua_rawseti(L, out, (lua_Integer)lua_rawlen(L, out) + 1);
        } else if (strcmp(type, "imagelayer") != 0) { /* pictures only: nothing to walk on */
            tiled_fail(t, L, field, "unknown layer type '%s' (expected tilelayer, objectgroup, group or imagelayer)",
                       type);
        }
        lua_pop(L, 1);
    }
}

/* Protected: arg 1 the Tiled map table, arg 2 the TiledCtx. Leaves the
** native map table on the stack. */
static int translate(lua_State *L)
{
    TiledCtx *t = lua_touserdata(L, 2);
    lua_settop(L, 1);
    if (t->json_text) {
        tiled_push_json(t, L, t->json_text, t->json_len, t->file);
        lua_replace(L, 1);
    }
    if (lua_type(L, 1) != LUA_TTABLE)
        tiled_fail(t, L, NULL, "a Tiled map is a JSON object or a table, got %s", luaL_typename(L, 1));
    char s[32];
    tiled_string(t, L, 1, "type", NULL, s, sizeof s);
    if (strcmp(s, "tileset") == 0)
        tiled_fail(t, L, NULL, "this is a Tiled tileset, not a map: load the map that uses it");
    if (s[0] && strcmp(s, "map") != 0) tiled_fail(t, L, "type", "expected \"map\", got \"%s\"", s);
    if (!s[0] && t->json_text) /* Tiled's JSON says what it is; its Lua export does not */
        tiled_fail(t, L, NULL, "this JSON is not a Tiled map: it has no \"type\": \"map\"");
    tiled_string(t, L, 1, "orientation", NULL, s, sizeof s);
    if (strcmp(s, "orthogonal") != 0)
        tiled_fail(t, L, "orientation", "navbot reads orthogonal maps only, this one is '%s'", s);
    if (tiled_get(L, 1, "infinite") == LUA_TBOOLEAN && lua_toboolean(L, -1))
        tiled_fail(t, L, "infinite",
                   "infinite maps are not supported: untick Infinite in Map > Map Properties (Tiled keeps "
                   "the tiles) and save again");
    lua_pop(L, 1);

    double w = tiled_number(t, L, 1, "width", NULL, true, 0), h = tiled_number(t, L, 1, "height", NULL, true, 0);
    if (w != floor(w) || h != floor(h) || w < 1 || h < 1 || w > NAV_MAX_WORLD_SIDE || h > NAV_MAX_WORLD_SIDE)
        tiled_fail(t, L, "width", "map size %g x %g is out of range (1 to %d cells a side)", w, h, NAV_MAX_WORLD_SIDE);
    t->width = (int)w;
    t->height = (int)h;
    t->tile_w = tiled_number(t, L, 1, "tilewidth", NULL, true, 0);
    t->tile_h = tiled_number(t, L, 1, "tileheight", NULL, true, 0);
    if (!(t->tile_w >= 1 && t->tile_w <= 65536 && t->tile_h >= 1 && t->tile_h <= 65536))
        tiled_fail(t, L, "tilewidth", "tiles of %g x %g pixels: expected 1 to 65536 a side", t->tile_w, t->tile_h);

    lua_newtable(L); /* the native map */
    int native = lua_gettop(L);
    tiled_read_map_properties(t, L, 1, native);

    if (tiled_get(L, 1, "layers") != LUA_TTABLE) tiled_fail(t, L, "layers", "missing; expected a list of layers");
    lua_newtable(L);
    int flat = lua_gettop(L);
    flatten(t, L, flat - 1, flat, 0.0, 0.0, 0);
    lua_remove(L, flat - 1);
    flat = lua_gettop(L);

    tiled_read_cells(t, L, 1, flat, native);
    tiled_read_objects(t, L, flat, native);
    lua_settop(L, native);
    return 1;
}

/* }======= */

/* {======= errors in Tiled's terms ======= */

/* Every "layers[N]" in s becomes "layer 'NAME'". */
static void name_layers(const TiledCtx *t, char *s, size_t cap)
{
    char out[512];
    size_t n = 0;
    for (const char *p = s; *p && n + 1 < sizeof out;) {
        int k, used = 0;
        if (strncmp(p, "layers[", 7) == 0 && sscanf(p, "layers[%d]%n", &k, &used) == 1 && used > 0 && k >= 1 &&
            k <= t->storey_count) {
            int w = snprintf(out + n, sizeof out - n, "layer '%s'", t->storeys[k - 1].name);
            if (w > 0) n = NAV_MIN(n + (size_t)w, sizeof out - 1);
            p += used;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    snprintf(s, cap, "%s", out);
}

/* The native field names a tile, a layer's cell, an object or a map
** property: say which, in the terms of the Tiled map. */
static void explain_error(const TiledCtx *t, NavError *e)
{
    char field[sizeof e->field], msg[sizeof e->message];
    snprintf(field, sizeof field, "%s", e->field);
    snprintf(msg, sizeof msg, "%s", e->message);
    int k, r, col, used = 0;
    const char *rest;
    if (sscanf(field, "layers[%d].rows[%d]%n", &k, &r, &used) == 2 && used > 0 && k >= 1 && k <= t->storey_count &&
        sscanf(msg, "column %d: %n", &col, &used) == 1 && used > 0) {
        tiled_cell_field(t, k - 1, col - 1, r - 1, e->field, sizeof e->field);
        snprintf(e->message, sizeof e->message, "%s", msg + used);
    } else if (sscanf(field, "layers[%d]%n", &k, &used) == 1 && used > 0 && k >= 1 && k <= t->storey_count) {
        rest = field + used;
        if (rest[0] == '.' && strncmp(rest, ".rows", 5) != 0)
            snprintf(e->field, sizeof e->field, "layer '%s', property '%s'", t->storeys[k - 1].name, rest + 1);
        else snprintf(e->field, sizeof e->field, "layer '%s'", t->storeys[k - 1].name);
    } else if (strncmp(field, "legend[", 7) == 0) {
        unsigned ch = 256;
        rest = NULL;
        if (field[7] == '\'' && field[8] && field[9] == '\'' && field[10] == ']') {
            ch = (unsigned char)field[8];
            rest = field + 11;
        } else if (sscanf(field, "legend[0x%2x]%n", &ch, &used) == 1 && used > 0) {
            rest = field + used;
        }
        for (int i = 0; rest && i < t->tile_count; i++) {
            const TiledTile *tl = &t->tiles[i];
            if (tl->code != ch) continue;
            tiled_cell_field(t, tl->storey, tl->col, tl->row, e->field, sizeof e->field);
            if (rest[0] == '.')
                snprintf(e->message, sizeof e->message, "tile %d of tileset '%s', property '%s': %.400s", tl->local_id,
                         tl->tileset, rest + 1, msg);
            else
                snprintf(e->message, sizeof e->message, "tile %d of tileset '%s': %.400s", tl->local_id, tl->tileset,
                         msg);
            break;
        }
    } else if (sscanf(field, "entities[%d]%n", &k, &used) == 1 && used > 0 && k >= 1 && k <= t->entity_count) {
        const TiledObject *o = &t->objects[t->entity_object[k - 1]];
        rest = field + used;
        snprintf(e->field, sizeof e->field, "layer '%s', object %d", o->layer, o->id);
        /* pos, min and max are the object's place, not its properties. */
        bool place = strcmp(rest, ".pos") == 0 || strcmp(rest, ".min") == 0 || strcmp(rest, ".max") == 0;
        if (rest[0] == '.' && !place) snprintf(e->message, sizeof e->message, "property '%s': %.440s", rest + 1, msg);
    } else if (strncmp(field, "classes", 7) == 0) {
        if (field[7] == '.') snprintf(e->field, sizeof e->field, "map property 'class.%.100s'", field + 8);
        else snprintf(e->field, sizeof e->field, "map properties 'class.*'");
    } else if (strcmp(field, "name") == 0 || strcmp(field, "description") == 0 || strcmp(field, "author") == 0 ||
               strcmp(field, "cell_size") == 0 || strcmp(field, "gravity") == 0) {
        snprintf(e->field, sizeof e->field, "map property '%.40s'", field);
    }
    name_layers(t, e->message, sizeof e->message);
}

/* }======= */

/* {======= entry points ======= */

/* Outside a protected call, so it must not allocate (pushing the key
** would): the table's keys are walked instead. */
bool map_tiled_is_export(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE) return false;
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        bool yes = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "tiledversion") == 0;
        if (yes) {
            yes = lua_type(L, -1) == LUA_TSTRING;
            lua_pop(L, 2);
            return yes;
        }
        lua_pop(L, 1);
    }
    return false;
}

/* The Tiled map on the top of sb's stack (or, when text is given, the JSON
** document text and a nil on the stack): into a world. */
static NavWorld *load_top(Sandbox *sb, const char *name, const NavMapOptions *opt, const char *text, size_t len,
                          NavError *err)
{
    lua_State *L = sandbox_state(sb);
    TiledCtx *t = nav_calloc(1, sizeof *t);
    if (!t) {
        lua_pop(L, 1);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory loading the map");
        return NULL;
    }
    t->file = name;
    t->err = err;
    t->memory_limit = opt && opt->lua_memory_limit ? opt->lua_memory_limit : SANDBOX_DEFAULT_MEMORY;
    t->json_text = text;
    t->json_len = len;

    lua_pushcfunction(L, translate);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, t);
    NavError perr;
    nav_error_clear(&perr);
    NavWorld *w = NULL;
    if (NAV_SUCCEEDED(sandbox_call(sb, 2, 1, &perr))) {
        w = map_lua_read_table(sb, name, NULL, 0, err);
        if (!w) explain_error(t, err);
    } else if (!t->failed) {
        /* Out of memory or budget, or a fault of the translation's own. */
        *err = perr;
        char *tb = strstr(err->message, "\nstack traceback:");
        if (tb) *tb = '\0';
        snprintf(err->file, sizeof err->file, "%s", name);
        err->line = 0;
    }
    cJSON_Delete(t->json);
    nav_free(t->text);
    nav_free(t->grid);
    nav_free(t->bytes);
    nav_free(t->objects);
    nav_free(t->entity_object);
    nav_free(t);
    return w;
}

NavWorld *map_tiled_load_table(Sandbox *sb, const char *name, const NavMapOptions *opt, NavError *err)
{
    return load_top(sb, name, opt, NULL, 0, err);
}

NavWorld *map_load_tiled(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions defaults = { 0 };
    if (!opt) opt = &defaults;
    NavError local;
    if (!err) err = &local;
    nav_error_clear(err);
    Sandbox *sb = map_lua_sandbox(opt, name, err);
    if (!sb) return NULL;
    lua_pushnil(sandbox_state(sb)); /* the text is parsed in the protected call */
    NavWorld *w = load_top(sb, name, opt, buf, len, err);
    sandbox_destroy(sb);
    return w;
}

/* }======= */

/*
** map_lua.c — native Lua maps.
**
** A map file is a Lua chunk that returns a table (format: docs/maps.md).
** It runs in a sandbox (lua/sandbox.h) with a memory cap and an
** instruction budget, so a map may compute its layout (valley.lua does) but
** cannot touch files or loop forever.
**
** Reading the returned table happens in a protected C function. Every
** access is raw (no metamethods run), and every heap block lives in the
** LoadCtx so that a Lua error, which unwinds with longjmp, leaks nothing:
** load() frees the context whatever happened.
**
** Errors name the file and, for layer rows, the line and column: the rows
** of a layer are looked up in the source text (they are written there as
** consecutive lines, quoted or in a long string). Rows a map computed have
** no line; their errors name the layer, row and column instead.
*/
#include "map/map.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua/sandbox.h"

/* {======= Types ======= */

typedef enum SpecKind {
    SPEC_FLOOR, SPEC_SOLID, SPEC_EMPTY, SPEC_VOID, SPEC_WATER, SPEC_LAVA, SPEC_SLIME, SPEC_LADDER, SPEC_CLIP,
    SPEC_KIND_COUNT
} SpecKind;

static const char *const SPEC_NAMES[SPEC_KIND_COUNT] = {
    "floor", "solid", "empty", "void", "water", "lava", "slime", "ladder", "clip",
};

typedef struct CellSpec {
    bool defined;
    uint8_t kind;    /* SpecKind */
    uint8_t face;    /* NavDir, ladders */
    bool portal;
    float h;         /* floor (liquids: surface) above the layer's z */
    float depth;     /* liquids */
    float ceiling;   /* clearance above the floor, NAN = none */
    float top;       /* ladders: top above the layer's z */
    int mark;        /* index into marks, -1 = none */
} CellSpec;

#define MAX_MARKS 128

typedef struct Mark {
    char name[NAV_ENTITY_NAME_MAX];
    int layer;       /* -1 until a cell uses it */
    int x0, y0, x1, y1;
    float zmin;
} Mark;

typedef struct LayerInfo {
    char name[NAV_NAME_MAX];
    float z;
    float slab;      /* thickness under the layer's floors */
    float ceiling;   /* clearance above z, NAN = none */
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
    unsigned char *grid; /* layer_count * height rows of width chars, row 0 = north */
    int rows_line[NAV_MAX_LAYERS]; /* cache of where each layer's first row is, 0 = unknown, -1 = not found */

    NavWorld *world;
    NavFloorAt *items;
    size_t item_count;
} LoadCtx;

/* }======= */

/* {======= failing with a located error ======= */

static int fail_at(LoadCtx *c, lua_State *L, int line, int col, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int fail_at(LoadCtx *c, lua_State *L, int line, int col, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nav_error_setv(c->err, NAV_E_FORMAT, c->file, line, col, field, fmt, ap);
    va_end(ap);
    c->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}

#define FAIL(c, L, field, ...) fail_at(c, L, 0, 0, field, __VA_ARGS__)

/* Fails with an error another module produced (world, class checks). */
static int fail_with(LoadCtx *c, lua_State *L, const NavError *e)
{
    *c->err = *e;
    c->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}

/* Start of line n (1-based) in the source, or NULL. */
static const char *line_start(const LoadCtx *c, int n, const char **end)
{
    const char *p = c->src, *stop = c->src + c->len;
    for (int i = 1; i < n && p; i++) {
        p = memchr(p, '\n', (size_t)(stop - p));
        if (p) p++;
    }
    if (!p || p >= stop) return NULL;
    const char *e = memchr(p, '\n', (size_t)(stop - p));
    *end = e ? e : stop;
    return p;
}

/* Where a row's text stands in a line: as a whole quoted string, or as a
** whole line of a long string, so that ".." does not match inside "...". */
static const char *find_in_line(const char *line, const char *end, const unsigned char *text, size_t n)
{
    if (n == 0 || (size_t)(end - line) < n) return NULL;
    for (const char *p = line; p + n <= end; p++) {
        if (memcmp(p, text, n) != 0) continue;
        char before = p > line ? p[-1] : '\n';
        char after = p + n < end ? p[n] : '\n';
        if ((before == '\'' || before == '"' || before == '[' || before == '\n') &&
            (after == '\'' || after == '"' || after == ']' || after == '\n' || after == '\r'))
            return p;
    }
    return NULL;
}

/* Row r of layer k as text: from the grid, or the row being read. */
typedef struct RowText {
    const unsigned char *s;
    size_t n;
} RowText;

static RowText grid_row(const LoadCtx *c, int k, int r)
{
    RowText t = { c->grid + ((size_t)k * (size_t)c->height + (size_t)r) * (size_t)c->width, (size_t)c->width };
    return t;
}

/* Find the source line of row r of layer k: rows 0..r must stand on
** consecutive lines. last is row r's text (it may not be in the grid yet).
** Returns the line (0 if unknown) and, in *col0, the 0-based offset of the
** row's text in that line. */
static int locate_row(LoadCtx *c, int k, int r, RowText last, int *col0)
{
    *col0 = 0;
    RowText first = r == 0 ? last : grid_row(c, k, 0);
    const char *line_end;
    for (int ln = 1;; ln++) {
        const char *ls = line_start(c, ln, &line_end);
        if (!ls) return 0;
        if (!find_in_line(ls, line_end, first.s, first.n)) continue;
        bool ok = true;
        const char *hit = NULL;
        for (int i = 1; i <= r && ok; i++) {
            RowText t = i == r ? last : grid_row(c, k, i);
            const char *le;
            const char *l2 = line_start(c, ln + i, &le);
            ok = l2 && (hit = find_in_line(l2, le, t.s, t.n)) != NULL;
        }
        if (!ok) continue;
        if (r == 0) hit = find_in_line(ls, line_end, first.s, first.n);
        const char *target_start = line_start(c, ln + r, &line_end);
        *col0 = (int)(hit - target_start);
        return ln + r;
    }
}

static int fail_cell(LoadCtx *c, lua_State *L, int k, int r, int col, RowText row, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static int fail_cell(LoadCtx *c, lua_State *L, int k, int r, int col, RowText row, const char *fmt, ...)
{
    char msg[400], field[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int col0 = 0;
    int line = (c->src && row.s) ? locate_row(c, k, r, row, &col0) : 0;
    snprintf(field, sizeof field, "layers[%d].rows[%d]", k + 1, r + 1);
    if (line > 0) return fail_at(c, L, line, col0 + col + 1, field, "%s", msg);
    return fail_at(c, L, 0, 0, field, "column %d: %s", col + 1, msg);
}

/* }======= */

/* {======= reading values ======= */

/* Rejects keys outside allowed (NULL-terminated); when list_ok, integer
** keys 1..n are allowed too. The smallest offending key is reported so the
** message does not depend on table order. */
static void check_fields(LoadCtx *c, lua_State *L, int idx, const char *const *allowed, const char *path)
{
    idx = lua_absindex(L, idx);
    char worst[64] = "";
    bool found = false;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        char name[64];
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            for (int i = 0; allowed[i]; i++)
                if (strcmp(k, allowed[i]) == 0) ok = true;
            snprintf(name, sizeof name, "%s", k);
        } else if (lua_type(L, -1) == LUA_TNUMBER) {
            snprintf(name, sizeof name, "[%.14g]", (double)lua_tonumber(L, -1));
        } else {
            snprintf(name, sizeof name, "[%s]", luaL_typename(L, -1));
        }
        if (!ok && (!found || strcmp(name, worst) < 0)) {
            snprintf(worst, sizeof worst, "%s", name);
            found = true;
        }
    }
    if (found) {
        char list[256] = "";
        size_t n = 0;
        for (int i = 0; allowed[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", allowed[i]);
        FAIL(c, L, path, "unknown field '%s' (expected one of: %s)", worst, list);
    }
}

/* The length of a proper list (keys 1..n, nothing else), or fail. */
static int check_list(LoadCtx *c, lua_State *L, int idx, const char *path)
{
    idx = lua_absindex(L, idx);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n)
            FAIL(c, L, path, "expected a list { ..., ... }, found a key that is not 1..%lld", (long long)n);
    }
    return (int)n;
}

static const char *type_name(lua_State *L, int idx) { return luaL_typename(L, idx); }

/* Pushes t[key] without metamethods; returns its type. */
static int raw_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    return lua_rawget(L, idx);
}

static void join_path(char *out, size_t cap, const char *path, const char *key)
{
    snprintf(out, cap, "%s%s%s", path, path[0] ? "." : "", key);
}

/* Number at t[key]; def when absent and !required. Checks [lo, hi]. */
static float read_number(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                         float def, float lo, float hi)
{
    char field[128];
    join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected a number");
        return def;
    }
    if (t != LUA_TNUMBER) FAIL(c, L, field, "expected a number, got %s", type_name(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(v) || v < lo || v > hi) FAIL(c, L, field, "expected a number from %g to %g, got %g", lo, hi, v);
    return (float)v;
}

/* String at t[key] copied into out; def when absent. */
static void read_string(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                        const char *def, char *out, size_t cap)
{
    char field[128];
    join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected a string");
        snprintf(out, cap, "%s", def ? def : "");
        return;
    }
    if (t != LUA_TSTRING) FAIL(c, L, field, "expected a string, got %s", type_name(L, -1));
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    if (n >= cap) FAIL(c, L, field, "longer than %zu characters", cap - 1);
    if (strlen(s) != n) FAIL(c, L, field, "contains a NUL byte");
    memcpy(out, s, n + 1);
    lua_pop(L, 1);
}

static bool read_bool(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool def)
{
    char field[128];
    join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    if (t != LUA_TBOOLEAN) FAIL(c, L, field, "expected true or false, got %s", type_name(L, -1));
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

static bool has_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    bool has = lua_rawget(L, idx) != LUA_TNIL;
    lua_pop(L, 1);
    return has;
}

/* A point {x, y} or {x, y, z} on the stack top. z_given says whether z was
** present. */
static void read_vec_top(LoadCtx *c, lua_State *L, const char *field, vec3 out, bool *z_given)
{
    if (lua_type(L, -1) != LUA_TTABLE) FAIL(c, L, field, "expected {x, y, z}, got %s", type_name(L, -1));
    int n = check_list(c, L, -1, field);
    if (n < 2 || n > 3) FAIL(c, L, field, "expected {x, y} or {x, y, z}, got %d numbers", n);
    for (int i = 0; i < n; i++) {
        if (lua_rawgeti(L, -1, i + 1) != LUA_TNUMBER)
            FAIL(c, L, field, "component %d: expected a number, got %s", i + 1, type_name(L, -1));
        double v = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(v) || fabs(v) > 1e6) FAIL(c, L, field, "component %d: %g is not a usable coordinate", i + 1, v);
        out[i] = (float)v;
    }
    if (n == 2) out[2] = 0.0f;
    *z_given = n == 3;
}

/* }======= */

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

static int find_mark(const LoadCtx *c, const char *name)
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
        check_fields(c, L, -1, SPEC_FIELDS, path);
        read_string(c, L, -1, "type", path, false, "floor", kind_name, sizeof kind_name);
    } else {
        FAIL(c, L, path, "expected a type name such as \"floor\" or a table { type = ..., h = ... }, got %s",
             type_name(L, -1));
    }
    int kind = -1;
    for (int i = 0; i < SPEC_KIND_COUNT; i++)
        if (strcmp(kind_name, SPEC_NAMES[i]) == 0) kind = i;
    if (kind < 0) {
        join_path(field, sizeof field, path, "type");
        FAIL(c, L, field,
             "unknown cell type '%s' (expected floor, solid, empty, void, water, lava, slime, ladder or clip)",
             kind_name);
    }
    s.kind = (uint8_t)kind;
    if (lua_type(L, -1) == LUA_TTABLE) {
        bool has_ground = kind != SPEC_SOLID && kind != SPEC_EMPTY && kind != SPEC_VOID;
        static const char *const ground_only[] = { "h", "ceiling", "portal", NULL };
        for (int i = 0; ground_only[i]; i++) {
            if (!has_ground && has_field(L, -1, ground_only[i])) {
                join_path(field, sizeof field, path, ground_only[i]);
                FAIL(c, L, field, "does not apply to '%s' cells", kind_name);
            }
        }
        if (!is_liquid(kind) && has_field(L, -1, "depth")) {
            join_path(field, sizeof field, path, "depth");
            FAIL(c, L, field, "only water, lava and slime cells have a depth");
        }
        if (kind != SPEC_LADDER && (has_field(L, -1, "top") || has_field(L, -1, "face"))) {
            join_path(field, sizeof field, path, has_field(L, -1, "top") ? "top" : "face");
            FAIL(c, L, field, "only ladder cells have a top and a face");
        }
        s.h = read_number(c, L, -1, "h", path, false, 0.0f, -10000.0f, 10000.0f);
        if (is_liquid(kind)) s.depth = read_number(c, L, -1, "depth", path, false, 1.0f, 0.01f, 10000.0f);
        s.ceiling = read_number(c, L, -1, "ceiling", path, false, NAN, 0.01f, 10000.0f);
        s.portal = read_bool(c, L, -1, "portal", path, false);
        if (kind == SPEC_LADDER) {
            s.top = read_number(c, L, -1, "top", path, true, 0.0f, -10000.0f, 10000.0f);
            if (!(s.top > s.h)) {
                join_path(field, sizeof field, path, "top");
                FAIL(c, L, field, "the ladder's top (%g) must be above its foot (h = %g)", (double)s.top, (double)s.h);
            }
            char face[8];
            read_string(c, L, -1, "face", path, true, NULL, face, sizeof face);
            static const char *const long_names[4] = { "north", "east", "south", "west" };
            static const char *const short_names[4] = { "n", "e", "s", "w" };
            int d = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(face, long_names[i]) == 0 || strcmp(face, short_names[i]) == 0) d = i;
            if (d < 0) {
                join_path(field, sizeof field, path, "face");
                FAIL(c, L, field, "expected north, east, south or west (the side of the wall it leans on), got '%s'",
                     face);
            }
            s.face = (uint8_t)d;
        }
        char mark[NAV_ENTITY_NAME_MAX];
        read_string(c, L, -1, "mark", path, false, "", mark, sizeof mark);
        if (mark[0]) {
            join_path(field, sizeof field, path, "mark");
            s.mark = find_or_add_mark(c, L, mark, field);
        }
    } else if (kind == SPEC_LADDER) {
        FAIL(c, L, path, "a ladder needs a table with its top and face: { type = \"ladder\", top = 4, face = \"north\" }");
    }
    (void)ch;
    c->legend[ch] = s;
}

static void read_legend(LoadCtx *c, lua_State *L, int map)
{
    /* Defaults a map may override. */
    c->legend['#'] = (CellSpec){ .defined = true, .kind = SPEC_SOLID, .ceiling = NAN, .mark = -1 };
    c->legend['.'] = (CellSpec){ .defined = true, .kind = SPEC_FLOOR, .ceiling = NAN, .mark = -1 };
    c->legend[' '] = (CellSpec){ .defined = true, .kind = SPEC_EMPTY, .ceiling = NAN, .mark = -1 };

    int t = raw_field(L, map, "legend");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE) FAIL(c, L, "legend", "expected a table of character = cell spec, got %s", type_name(L, -1));
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
            else snprintf(name, sizeof name, "a %s", type_name(L, -1));
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

static void read_layers(LoadCtx *c, lua_State *L, int map)
{
    if (raw_field(L, map, "layers") != LUA_TTABLE) {
        if (lua_isnil(L, -1)) FAIL(c, L, "layers", "missing; a map needs at least one layer of rows");
        FAIL(c, L, "layers", "expected a list of layers, got %s", type_name(L, -1));
    }
    int layers = lua_gettop(L);
    int n = check_list(c, L, layers, "layers");
    if (n < 1) FAIL(c, L, "layers", "a map needs at least one layer");
    if (n > NAV_MAX_LAYERS) FAIL(c, L, "layers", "%d layers is more than the limit of %d", n, NAV_MAX_LAYERS);
    c->layer_count = n;

    for (int k = 0; k < n; k++) {
        char path[32];
        snprintf(path, sizeof path, "layers[%d]", k + 1);
        if (lua_rawgeti(L, layers, k + 1) != LUA_TTABLE)
            FAIL(c, L, path, "expected a table { z = ..., rows = ... }, got %s", type_name(L, -1));
        int layer = lua_gettop(L);
        check_fields(c, L, layer, LAYER_FIELDS, path);
        LayerInfo *li = &c->layers[k];
        char def_name[16];
        snprintf(def_name, sizeof def_name, "%d", k + 1);
        read_string(c, L, layer, "name", path, false, def_name, li->name, sizeof li->name);
        li->z = read_number(c, L, layer, "z", path, k > 0, 0.0f, -10000.0f, 10000.0f);
        li->slab = read_number(c, L, layer, "slab", path, false, 0.2f, 0.0f, 100.0f);
        li->ceiling = read_number(c, L, layer, "ceiling", path, false, NAN, 0.01f, 10000.0f);
        if (k > 0 && !(li->z > c->layers[k - 1].z)) {
            char field[48];
            snprintf(field, sizeof field, "%s.z", path);
            FAIL(c, L, field, "layers must rise: z = %g is not above the previous layer's %g", (double)li->z,
                 (double)c->layers[k - 1].z);
        }

        char rows_path[48];
        snprintf(rows_path, sizeof rows_path, "%s.rows", path);
        int rt = raw_field(L, layer, "rows");
        if (rt == LUA_TSTRING) split_rows(L);
        else if (rt == LUA_TNIL) FAIL(c, L, rows_path, "missing; expected a list of strings or one multi-line string");
        else if (rt != LUA_TTABLE) FAIL(c, L, rows_path, "expected a list of strings or a string, got %s", type_name(L, -1));
        int rows = lua_gettop(L);
        int h = check_list(c, L, rows, rows_path);
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
            c->grid = malloc((size_t)n * (size_t)w * (size_t)h);
            if (!c->grid) FAIL(c, L, rows_path, "out of memory");
        } else if (h != c->height) {
            FAIL(c, L, rows_path, "has %d rows, layers[1] has %d (every layer covers the whole map)", h, c->height);
        }

        for (int r = 0; r < h; r++) {
            char row_path[64];
            snprintf(row_path, sizeof row_path, "%s[%d]", rows_path, r + 1);
            if (lua_rawgeti(L, rows, r + 1) != LUA_TSTRING)
                FAIL(c, L, row_path, "expected a string of cells, got %s", type_name(L, -1));
            size_t len;
            const unsigned char *s = (const unsigned char *)lua_tolstring(L, -1, &len);
            RowText row = { s, len };
            if ((int)len != c->width)
                fail_cell(c, L, k, r, (int)NAV_MIN(len, (size_t)c->width), row,
                          "ragged rows: this row has %zu cells, the first row of layers[1] has %d", len, c->width);
            for (int col = 0; col < c->width; col++) {
                unsigned char ch = s[col];
                if (!c->legend[ch].defined) {
                    if (ch >= 0x20 && ch < 0x7f)
                        fail_cell(c, L, k, r, col, row, "unknown legend character '%c' (add it to legend)", ch);
                    else
                        fail_cell(c, L, k, r, col, row, "unknown legend character (byte 0x%02x)", ch);
                }
                if (c->legend[ch].kind == SPEC_VOID && k > 0)
                    fail_cell(c, L, k, r, col, row,
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

static void build_floors(LoadCtx *c, lua_State *L)
{
    size_t cap = (size_t)c->width * (size_t)c->height * (size_t)c->layer_count;
    c->items = malloc((cap ? cap : 1) * sizeof *c->items);
    if (!c->items) FAIL(c, L, "layers", "out of memory for %zu cells", cap);
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
                    f.contents = s->kind == SPEC_WATER ? NAV_CONTENTS_WATER
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
                    RowText row = grid_row(c, k, r);
                    fail_cell(c, L, k, r, col, row,
                              "no headroom: the floor at %g is not below the ceiling or the layer above at %g",
                              (double)f.z, (double)ceiling);
                }
                if (s->kind == SPEC_LADDER && f.top > ceiling) {
                    RowText row = grid_row(c, k, r);
                    fail_cell(c, L, k, r, col, row, "the ladder's top at %g goes through the ceiling at %g",
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
                        RowText row = grid_row(c, k, r);
                        fail_cell(c, L, k, r, col, row, "mark '%s' is used on layers[%d] and layers[%d]; a mark "
                                  "belongs to one layer", m->name, m->layer + 1, k + 1);
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
    if (NAV_FAILED(world_set_floors(c->world, c->items, c->item_count, &werr))) fail_with(c, L, &werr);
    free(c->items);
    c->items = NULL;
}

/* }======= */

/* {======= classes ======= */

static void read_class_top(LoadCtx *c, lua_State *L, const char *name, const char *path, NavClass *out)
{
    int nf;
    const NavClassField *fields = class_fields(&nf);
    const char *allowed[NAV_ARRAY_COUNT(((NavClass *)0)->name) + 32];
    int na = 0;
    allowed[na++] = "name";
    for (int i = 0; i < nf; i++) allowed[na++] = fields[i].name;
    allowed[na] = NULL;

    if (lua_type(L, -1) != LUA_TTABLE) FAIL(c, L, path, "expected a table of class fields, got %s", type_name(L, -1));
    check_fields(c, L, -1, allowed, path);
    NavClass k = class_defaults();
    if (name) snprintf(k.name, sizeof k.name, "%s", name);
    else read_string(c, L, -1, "name", path, true, NULL, k.name, sizeof k.name);
    for (int i = 0; i < nf; i++) {
        float *v = (float *)((char *)&k + fields[i].offset);
        *v = read_number(c, L, -1, fields[i].name, path, false, *v, fields[i].min, fields[i].max);
    }
    NavError cerr;
    if (NAV_FAILED(class_validate(&k, c->file, path, &cerr))) fail_with(c, L, &cerr);
    *out = k;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const NavClass *)a)->name, ((const NavClass *)b)->name);
}

static void read_classes(LoadCtx *c, lua_State *L, int map)
{
    NavClass list[NAV_MAX_CLASSES];
    int n = 0;
    int t = raw_field(L, map, "classes");
    if (t != LUA_TNIL && t != LUA_TTABLE) FAIL(c, L, "classes", "expected a list of classes, got %s", type_name(L, -1));
    if (t == LUA_TTABLE) {
        int classes = lua_gettop(L);
        lua_Integer len = (lua_Integer)lua_rawlen(L, classes);
        if (len > 0) {
            int m = check_list(c, L, classes, "classes");
            if (m > NAV_MAX_CLASSES) FAIL(c, L, "classes", "more than %d classes", NAV_MAX_CLASSES);
            for (int i = 0; i < m; i++) {
                char path[32];
                snprintf(path, sizeof path, "classes[%d]", i + 1);
                lua_rawgeti(L, classes, i + 1);
                read_class_top(c, L, NULL, path, &list[n++]);
                lua_pop(L, 1);
            }
        } else {
            /* Keyed by name: read in name order so loads repeat exactly. */
            lua_pushnil(L);
            while (lua_next(L, classes)) {
                if (lua_type(L, -2) != LUA_TSTRING)
                    FAIL(c, L, "classes", "keys must be class names, found a %s", type_name(L, -2));
                if (n >= NAV_MAX_CLASSES) FAIL(c, L, "classes", "more than %d classes", NAV_MAX_CLASSES);
                char path[64];
                const char *name = lua_tostring(L, -2);
                snprintf(path, sizeof path, "classes.%.40s", name);
                if (strlen(name) >= NAV_CLASS_NAME_MAX)
                    FAIL(c, L, path, "class name longer than %d characters", NAV_CLASS_NAME_MAX - 1);
                if (has_field(L, -1, "name")) FAIL(c, L, path, "a class keyed by name must not also set 'name'");
                read_class_top(c, L, name, path, &list[n++]);
                lua_pop(L, 1);
            }
            qsort(list, (size_t)n, sizeof list[0], compare_names);
        }
    }
    lua_pop(L, 1);

    bool has_human = false;
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i].name, "human") == 0) has_human = true;
        for (int j = 0; j < i; j++)
            if (strcmp(list[i].name, list[j].name) == 0) {
                char path[32];
                snprintf(path, sizeof path, "classes[%d]", i + 1);
                FAIL(c, L, path, "a class named '%s' is already defined", list[i].name);
            }
    }
    NavError cerr;
    if (!has_human) {
        NavClass human = class_defaults();
        if (NAV_FAILED(world_add_class(c->world, &human, NULL, &cerr))) fail_with(c, L, &cerr);
    }
    for (int i = 0; i < n; i++)
        if (NAV_FAILED(world_add_class(c->world, &list[i], NULL, &cerr))) fail_with(c, L, &cerr);
}

/* }======= */

/* {======= entities ======= */

static const char *const ENTITY_FIELDS[] = {
    "type", "name", "yaw", "pos", "min", "max", "at", "height", /* common */
    "team",                                                       /* spawn */
    "stops", "speed", "wait", "thickness",                        /* elevator (speed: door too) */
    "dest", "dest_yaw",                                           /* teleporter */
    "target", "apex",                                             /* jump pad */
    "open",                                                       /* door */
    "mass",                                                       /* crate */
    "item",                                                       /* goal */
    NULL,
};

/* Which type-specific fields belong to which type. */
static bool field_applies(NavEntityType t, const char *f)
{
    static const struct { const char *field; int type; int type2; } own[] = {
        { "team", NAV_ENTITY_SPAWN, -1 },         { "stops", NAV_ENTITY_ELEVATOR, -1 },
        { "speed", NAV_ENTITY_ELEVATOR, NAV_ENTITY_DOOR }, { "wait", NAV_ENTITY_ELEVATOR, -1 },
        { "thickness", NAV_ENTITY_ELEVATOR, -1 }, { "dest", NAV_ENTITY_TELEPORTER, -1 },
        { "dest_yaw", NAV_ENTITY_TELEPORTER, -1 }, { "target", NAV_ENTITY_JUMP_PAD, -1 },
        { "apex", NAV_ENTITY_JUMP_PAD, -1 },      { "open", NAV_ENTITY_DOOR, -1 },
        { "mass", NAV_ENTITY_CRATE, -1 },         { "item", NAV_ENTITY_GOAL, -1 },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(own); i++)
        if (strcmp(own[i].field, f) == 0) return (int)t == own[i].type || (int)t == own[i].type2;
    return true;
}

/* Lowest non-void floor of the column under (x, y), for points given
** without a height. */
static bool ground_z(const LoadCtx *c, float x, float y, float *z)
{
    int cx, cy, n;
    if (!world_point_cell(c->world, x, y, &cx, &cy)) return false;
    const NavFloor *f = world_column(c->world, cx, cy, &n);
    for (int i = 0; i < n; i++) {
        if (f[i].contents == NAV_CONTENTS_VOID) continue;
        *z = f[i].contents == NAV_CONTENTS_WATER || f[i].contents == NAV_CONTENTS_LAVA ||
                     f[i].contents == NAV_CONTENTS_SLIME
                 ? f[i].top
                 : f[i].z;
        return true;
    }
    return false;
}

static const Mark *mark_named(LoadCtx *c, lua_State *L, const char *name, const char *field)
{
    int m = find_mark(c, name);
    if (m < 0) FAIL(c, L, field, "no legend entry has mark = \"%s\"", name);
    if (c->marks[m].layer < 0) FAIL(c, L, field, "mark \"%s\" is in the legend but on no cell of any layer", name);
    return &c->marks[m];
}

/* A position field: {x, y[, z]} or the name of a mark (its centre). */
static void read_point(LoadCtx *c, lua_State *L, int ent, const char *key, const char *path, bool required, vec3 out)
{
    char field[96];
    join_path(field, sizeof field, path, key);
    lua_pushstring(L, key);
    int t = lua_rawget(L, ent);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected {x, y, z} or the name of a mark");
        return;
    }
    if (t == LUA_TSTRING) {
        const Mark *m = mark_named(c, L, lua_tostring(L, -1), field);
        float cs = world_cell_size(c->world);
        out[0] = 0.5f * (float)(m->x0 + m->x1 + 1) * cs;
        out[1] = 0.5f * (float)(m->y0 + m->y1 + 1) * cs;
        out[2] = m->zmin;
    } else {
        bool z_given;
        read_vec_top(c, L, field, out, &z_given);
        if (!z_given && !ground_z(c, out[0], out[1], &out[2]))
            FAIL(c, L, field, "(%g, %g) has no floor to stand on; give a z or move it", (double)out[0],
                 (double)out[1]);
    }
    lua_pop(L, 1);
}

static float default_height(NavEntityType t)
{
    switch (t) {
    case NAV_ENTITY_TELEPORTER: return 2.0f;
    case NAV_ENTITY_JUMP_PAD: return 0.5f;
    case NAV_ENTITY_DOOR: return 3.0f;
    case NAV_ENTITY_CRATE: return 1.0f;
    default: return 0.0f;
    }
}

/* The box of a volume entity: at = "mark", or min/max corners. */
static void read_box(LoadCtx *c, lua_State *L, int ent, const char *path, NavEntity *e)
{
    char field[96];
    float height = read_number(c, L, ent, "height", path, false, default_height(e->type), 0.01f, 10000.0f);
    if (has_field(L, ent, "at")) {
        if (has_field(L, ent, "min") || has_field(L, ent, "max"))
            FAIL(c, L, path, "give either at = \"mark\" or min and max, not both");
        char mark[NAV_ENTITY_NAME_MAX];
        read_string(c, L, ent, "at", path, true, NULL, mark, sizeof mark);
        join_path(field, sizeof field, path, "at");
        const Mark *m = mark_named(c, L, mark, field);
        float cs = world_cell_size(c->world);
        e->mins[0] = (float)m->x0 * cs;
        e->mins[1] = (float)m->y0 * cs;
        e->mins[2] = m->zmin;
        e->maxs[0] = (float)(m->x1 + 1) * cs;
        e->maxs[1] = (float)(m->y1 + 1) * cs;
        e->maxs[2] = m->zmin + height;
        return;
    }
    if (!has_field(L, ent, "min") || !has_field(L, ent, "max"))
        FAIL(c, L, path, "a %s needs at = \"mark\" or both min = {x, y, z} and max = {x, y, z}",
             entity_type_name(e->type));
    bool zmin_given, zmax_given;
    join_path(field, sizeof field, path, "min");
    raw_field(L, ent, "min");
    read_vec_top(c, L, field, e->mins, &zmin_given);
    lua_pop(L, 1);
    join_path(field, sizeof field, path, "max");
    raw_field(L, ent, "max");
    read_vec_top(c, L, field, e->maxs, &zmax_given);
    lua_pop(L, 1);
    if (!zmin_given) {
        float cx = 0.5f * (e->mins[0] + e->maxs[0]), cy = 0.5f * (e->mins[1] + e->maxs[1]);
        if (!ground_z(c, cx, cy, &e->mins[2]))
            FAIL(c, L, path, "the box's centre has no floor under it; give min = {x, y, z}");
    }
    if (!zmax_given) e->maxs[2] = e->mins[2] + height;
}

static void read_entity(LoadCtx *c, lua_State *L, int index, NavEntity *e)
{
    char path[32], field[96];
    snprintf(path, sizeof path, "entities[%d]", index + 1);
    if (lua_type(L, -1) != LUA_TTABLE) FAIL(c, L, path, "expected a table { type = ..., ... }, got %s", type_name(L, -1));
    int ent = lua_gettop(L);
    check_fields(c, L, ent, ENTITY_FIELDS, path);
    memset(e, 0, sizeof *e);

    char type[24];
    read_string(c, L, ent, "type", path, true, NULL, type, sizeof type);
    int t = entity_type_from_name(type);
    if (t < 0) {
        join_path(field, sizeof field, path, "type");
        FAIL(c, L, field, "unknown entity type '%s' (expected spawn, elevator, teleporter, jump_pad, door, crate or goal)",
             type);
    }
    e->type = (NavEntityType)t;
    for (const char *const *f = ENTITY_FIELDS; *f; f++) {
        if (has_field(L, ent, *f) && !field_applies(e->type, *f)) {
            join_path(field, sizeof field, path, *f);
            FAIL(c, L, field, "does not apply to a %s", type);
        }
    }
    read_string(c, L, ent, "name", path, false, "", e->name, sizeof e->name);
    e->yaw = read_number(c, L, ent, "yaw", path, false, 0.0f, -3600.0f, 3600.0f);

    bool volume = entity_is_volume(e->type);
    if (!volume) {
        if (has_field(L, ent, "min") || has_field(L, ent, "max") || has_field(L, ent, "height"))
            FAIL(c, L, path, "a %s is a point: give pos = {x, y, z} or at = \"mark\"", type);
        if (has_field(L, ent, "pos") == has_field(L, ent, "at"))
            FAIL(c, L, path, "a %s needs exactly one of pos = {x, y, z} or at = \"mark\"", type);
        read_point(c, L, ent, has_field(L, ent, "pos") ? "pos" : "at", path, true, e->mins);
        glm_vec3_copy(e->mins, e->maxs);
    } else if (e->type != NAV_ENTITY_ELEVATOR) {
        if (has_field(L, ent, "pos")) FAIL(c, L, path, "a %s is a box: give min and max, or at = \"mark\"", type);
        read_box(c, L, ent, path, e);
    }

    switch (e->type) {
    case NAV_ENTITY_SPAWN:
        e->u.spawn.team = (int)read_number(c, L, ent, "team", path, false, 0.0f, 0.0f, 255.0f);
        break;
    case NAV_ENTITY_GOAL:
        read_string(c, L, ent, "item", path, false, "", e->u.goal.item, sizeof e->u.goal.item);
        break;
    case NAV_ENTITY_ELEVATOR: {
        NavElevator *el = &e->u.elevator;
        join_path(field, sizeof field, path, "stops");
        lua_pushliteral(L, "stops");
        if (lua_rawget(L, ent) != LUA_TTABLE)
            FAIL(c, L, field, "expected a list of platform heights, lowest first, e.g. {0, 4, 8}");
        int n = check_list(c, L, -1, field);
        if (n < 2 || n > NAV_ELEVATOR_MAX_STOPS)
            FAIL(c, L, field, "an elevator needs 2 to %d stops, got %d", NAV_ELEVATOR_MAX_STOPS, n);
        for (int i = 0; i < n; i++) {
            if (lua_rawgeti(L, -1, i + 1) != LUA_TNUMBER)
                FAIL(c, L, field, "stop %d: expected a number, got %s", i + 1, type_name(L, -1));
            el->stops[i] = (float)lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        el->stop_count = n;
        el->speed = read_number(c, L, ent, "speed", path, false, 2.0f, -1e9f, 1e9f);
        el->wait = read_number(c, L, ent, "wait", path, false, 2.0f, -1e9f, 1e9f);
        el->thickness = read_number(c, L, ent, "thickness", path, false, 0.2f, -1e9f, 1e9f);
        if (has_field(L, ent, "height")) FAIL(c, L, path, "an elevator's height comes from its stops");
        if (has_field(L, ent, "pos")) FAIL(c, L, path, "an elevator is a platform: give at = \"mark\" or min and max");
        read_box(c, L, ent, path, e);
        e->mins[2] = el->stops[0] - el->thickness;
        e->maxs[2] = el->stops[n - 1];
        break;
    }
    case NAV_ENTITY_TELEPORTER:
        read_point(c, L, ent, "dest", path, true, e->u.teleporter.dest);
        e->u.teleporter.dest_yaw = read_number(c, L, ent, "dest_yaw", path, false, 0.0f, -3600.0f, 3600.0f);
        break;
    case NAV_ENTITY_JUMP_PAD:
        read_point(c, L, ent, "target", path, true, e->u.jump_pad.target);
        e->u.jump_pad.apex = read_number(c, L, ent, "apex", path, false, 2.0f, -1e9f, 1e9f);
        break;
    case NAV_ENTITY_DOOR:
        e->u.door.open = read_bool(c, L, ent, "open", path, false);
        e->u.door.speed = read_number(c, L, ent, "speed", path, false, 2.0f, -1e9f, 1e9f);
        break;
    case NAV_ENTITY_CRATE:
        e->u.crate.mass = read_number(c, L, ent, "mass", path, false, 50.0f, -1e9f, 1e9f);
        break;
    default:
        break;
    }
}

static void read_entities(LoadCtx *c, lua_State *L, int map)
{
    lua_pushliteral(L, "entities");
    int t = lua_rawget(L, map);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE) FAIL(c, L, "entities", "expected a list of entities, got %s", type_name(L, -1));
    int list = lua_gettop(L);
    int n = check_list(c, L, list, "entities");
    for (int i = 0; i < n; i++) {
        NavEntity e;
        lua_rawgeti(L, list, i + 1);
        read_entity(c, L, i, &e);
        lua_pop(L, 1);
        NavError eerr;
        if (NAV_FAILED(world_add_entity(c->world, &e, NULL, &eerr))) fail_with(c, L, &eerr);
    }
    lua_pop(L, 1);
}

/* }======= */

static const char *const MAP_FIELDS[] = {
    "name", "description", "author", "cell_size", "gravity", "legend", "layers", "entities", "classes", NULL,
};

/* Protected: arg 1 the map table, arg 2 the LoadCtx. */
static int parse_map(lua_State *L)
{
    LoadCtx *c = lua_touserdata(L, 2);
    if (lua_type(L, 1) != LUA_TTABLE)
        FAIL(c, L, NULL, "a map file must return a table, it returned %s", type_name(L, 1));
    check_fields(c, L, 1, MAP_FIELDS, "");

    char name[64], base[64], description[512], author[128];
    const char *slash = strrchr(c->file, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : c->file);
    char *dot = strrchr(base, '.');
    if (dot) *dot = '\0';
    read_string(c, L, 1, "name", "", false, base, name, sizeof name);
    read_string(c, L, 1, "description", "", false, "", description, sizeof description);
    read_string(c, L, 1, "author", "", false, "", author, sizeof author);
    float cell_size = read_number(c, L, 1, "cell_size", "", false, NAV_DEFAULT_CELL_SIZE, 0.01f, 100.0f);
    float gravity = read_number(c, L, 1, "gravity", "", false, NAV_DEFAULT_GRAVITY, 0.01f, 1000.0f);

    read_legend(c, L, 1);
    read_layers(c, L, 1);

    NavError werr;
    c->world = world_create(&(NavWorldDesc){ .width = c->width, .height = c->height, .cell_size = cell_size,
                                             .gravity = gravity, .name = name, .source = c->file },
                            &werr);
    if (!c->world) return fail_with(c, L, &werr);
    world_set_metadata(c->world, description, author);
    for (int k = 0; k < c->layer_count; k++) world_add_layer(c->world, c->layers[k].name, c->layers[k].z, NULL);

    build_floors(c, L);
    read_classes(c, L, 1);
    read_entities(c, L, 1);
    return 0;
}

/* Lua's messages start "chunk:line: "; keep the line, drop the prefix and
** any traceback. */
static void tidy_runtime_error(NavError *err, const char *file)
{
    char *msg = err->message;
    char *tb = strstr(msg, "\nstack traceback:");
    if (tb) *tb = '\0';
    int line;
    const char *rest;
    if (sandbox_message_position(msg, NULL, 0, &line, &rest)) {
        err->line = line;
        memmove(msg, rest, strlen(rest) + 1);
    }
    snprintf(err->file, sizeof err->file, "%s", file);
}

NavWorld *map_load_lua(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions defaults = { 0 };
    if (!opt) opt = &defaults;
    NavError local;
    if (!err) err = &local;
    nav_error_clear(err);

    Sandbox *sb = sandbox_create(&(SandboxDesc){ .memory_limit = opt->lua_memory_limit,
                                                 .instruction_limit = opt->lua_instruction_limit,
                                                 .what = "map scripts",
                                                 .print = opt->print,
                                                 .print_user = opt->print_user },
                                 err);
    if (!sb) return NULL;
    lua_State *L = sandbox_state(sb);

    char chunkname[300];
    snprintf(chunkname, sizeof chunkname, "@%s", name);
    if (NAV_FAILED(sandbox_load(sb, buf, len, chunkname, err))) {
        snprintf(err->file, sizeof err->file, "%s", name);
        /* Lua's syntax messages carry their own "file:line:" prefix. */
        char *m = strstr(err->message, ": ");
        if (m && strncmp(err->message, "syntax error: ", 14) == 0) {
            NavError tmp = *err;
            snprintf(tmp.message, sizeof tmp.message, "%s", err->message + 14);
            tidy_runtime_error(&tmp, name);
            snprintf(err->message, sizeof err->message, "syntax error: %.480s", tmp.message);
            err->line = tmp.line;
        }
        sandbox_destroy(sb);
        return NULL;
    }
    if (NAV_FAILED(sandbox_call(sb, 0, 1, err))) {
        tidy_runtime_error(err, name);
        sandbox_destroy(sb);
        return NULL;
    }

    LoadCtx *c = calloc(1, sizeof *c);
    if (!c) {
        sandbox_destroy(sb);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory");
        return NULL;
    }
    c->file = name;
    c->src = buf;
    c->len = len;
    c->err = err;

    lua_pushcfunction(L, parse_map);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, c);
    NavError perr;
    NavStatus s = sandbox_call(sb, 2, 0, &perr);
    NavWorld *w = c->world;
    if (NAV_FAILED(s)) {
        if (!c->failed) {
            *err = perr;
            tidy_runtime_error(err, name);
        }
        world_destroy(w);
        w = NULL;
    }
    free(c->grid);
    free(c->items);
    free(c);
    sandbox_destroy(sb);
    return w;
}

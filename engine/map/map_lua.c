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
#include "map/map_lua_internal.h"
#include "map/map_tiled_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "lua/lua_paths.h"
#include "lua/sandbox.h"

/* {======= failing with a located error ======= */

int map_lua_fail_at(LoadCtx *c, lua_State *L, int line, int col, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nav_error_setv(c->err, NAV_E_FORMAT, c->file, line, col, field, fmt, ap);
    va_end(ap);
    c->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}

int map_lua_fail_nomem(LoadCtx *c, lua_State *L, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nav_error_setv(c->err, NAV_E_NOMEM, c->file, 0, 0, field, fmt, ap);
    va_end(ap);
    c->failed = true;
    lua_pushliteral(L, "map error");
    return lua_error(L);
}


/* The sandbox map scripts run in (native maps, Tiled's Lua export and
** JSON, mesh sidecars): opt's memory and instruction budgets and print.
** NULL with err naming `file` when it cannot be made. */
Sandbox *map_lua_sandbox(const NavMapOptions *opt, const char *file, NavError *err)
{
    Sandbox *sb = sandbox_create(&(SandboxDesc){ .memory_limit = opt->lua_memory_limit,
                                                 .instruction_limit = opt->lua_instruction_limit,
                                                 .what = "map scripts",
                                                 .print = opt->print,
                                                 .print_user = opt->print_user },
                                 err);
    if (!sb) snprintf(err->file, sizeof err->file, "%s", file);
    return sb;
}

/* Fails with an error another module produced (world, class checks). */
int map_lua_fail_with(LoadCtx *c, lua_State *L, const NavError *e)
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


RowText map_lua_grid_row(const LoadCtx *c, int k, int r)
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
    RowText first = r == 0 ? last : map_lua_grid_row(c, k, 0);
    const char *line_end;
    for (int ln = 1;; ln++) {
        const char *ls = line_start(c, ln, &line_end);
        if (!ls) return 0;
        if (!find_in_line(ls, line_end, first.s, first.n)) continue;
        bool ok = true;
        const char *hit = NULL;
        for (int i = 1; i <= r && ok; i++) {
            RowText t = i == r ? last : map_lua_grid_row(c, k, i);
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

int map_lua_fail_cell(LoadCtx *c, lua_State *L, int k, int r, int col, RowText row, const char *fmt, ...)
{
    char msg[400], field[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int col0 = 0;
    int line = (c->src && row.s) ? locate_row(c, k, r, row, &col0) : 0;
    snprintf(field, sizeof field, "layers[%d].rows[%d]", k + 1, r + 1);
    if (line > 0) return map_lua_fail_at(c, L, line, col0 + col + 1, field, "%s", msg);
    return map_lua_fail_at(c, L, 0, 0, field, "column %d: %s", col + 1, msg);
}

/* }======= */

/* {======= reading values ======= */

/* The smallest key of the table at idx not in allowed (NULL-terminated),
** written into buf (cap bytes; a number as [n], another type as [type]),
** or NULL when every key is allowed. The smallest, so that the message
** does not depend on table order. */
const char *map_lua_unknown_key(lua_State *L, int idx, const char *const *allowed, char *buf, size_t cap)
{
    idx = lua_absindex(L, idx);
    bool found = false;
    buf[0] = '\0';
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
        if (!ok && (!found || strcmp(name, buf) < 0)) {
            snprintf(buf, cap, "%s", name);
            found = true;
        }
    }
    return found ? buf : NULL;
}

/* Rejects keys outside allowed (NULL-terminated), naming the smallest. */
void map_lua_check_fields(LoadCtx *c, lua_State *L, int idx, const char *const *allowed, const char *path)
{
    char worst[64];
    if (map_lua_unknown_key(L, idx, allowed, worst, sizeof worst)) {
        char list[256] = "";
        size_t n = 0;
        for (int i = 0; allowed[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", allowed[i]);
        FAIL(c, L, path, "unknown field '%s' (expected one of: %s)", worst, list);
    }
}

/* The length of a proper list (keys 1..n, nothing else), or fail. */
int map_lua_check_list(LoadCtx *c, lua_State *L, int idx, const char *path)
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


/* Pushes t[key] without metamethods; returns its type. */
int map_lua_raw_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    return lua_rawget(L, idx);
}

void map_lua_join_path(char *out, size_t cap, const char *path, const char *key)
{
    snprintf(out, cap, "%s%s%s", path, path[0] ? "." : "", key);
}

/* Number at t[key]; def when absent and !required. Checks [lo, hi]. */
float map_lua_read_number(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                          float def, float lo, float hi)
{
    char field[128];
    map_lua_join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected a number");
        return def;
    }
    if (t != LUA_TNUMBER) FAIL(c, L, field, "expected a number, got %s", luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(v) || v < lo || v > hi) FAIL(c, L, field, "expected a number from %g to %g, got %g", lo, hi, v);
    return (float)v;
}

/* String at t[key] copied into out; def when absent. */
void map_lua_read_string(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool required,
                         const char *def, char *out, size_t cap)
{
    char field[128];
    map_lua_join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected a string");
        snprintf(out, cap, "%s", def ? def : "");
        return;
    }
    if (t != LUA_TSTRING) FAIL(c, L, field, "expected a string, got %s", luaL_typename(L, -1));
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    if (n >= cap) FAIL(c, L, field, "longer than %zu characters", cap - 1);
    if (strlen(s) != n) FAIL(c, L, field, "contains a NUL byte");
    memcpy(out, s, n + 1);
    lua_pop(L, 1);
}

bool map_lua_read_bool(LoadCtx *c, lua_State *L, int idx, const char *key, const char *path, bool def)
{
    char field[128];
    map_lua_join_path(field, sizeof field, path, key);
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = lua_rawget(L, idx);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    if (t != LUA_TBOOLEAN) FAIL(c, L, field, "expected true or false, got %s", luaL_typename(L, -1));
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

bool map_lua_has_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    bool has = lua_rawget(L, idx) != LUA_TNIL;
    lua_pop(L, 1);
    return has;
}

/* A point {x, y} or {x, y, z} on the stack top. z_given says whether z was
** present. */
void map_lua_read_vec_top(LoadCtx *c, lua_State *L, const char *field, vec3 out, bool *z_given)
{
    if (lua_type(L, -1) != LUA_TTABLE) FAIL(c, L, field, "expected {x, y, z}, got %s", luaL_typename(L, -1));
    int n = map_lua_check_list(c, L, -1, field);
    if (n < 2 || n > 3) FAIL(c, L, field, "expected {x, y} or {x, y, z}, got %d numbers", n);
    for (int i = 0; i < n; i++) {
        if (lua_rawgeti(L, -1, i + 1) != LUA_TNUMBER)
            FAIL(c, L, field, "component %d: expected a number, got %s", i + 1, luaL_typename(L, -1));
        double v = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(v) || fabs(v) > 1e6) FAIL(c, L, field, "component %d: %g is not a usable coordinate", i + 1, v);
        out[i] = (float)v;
    }
    if (n == 2) out[2] = 0.0f;
    *z_given = n == 3;
}

/* }======= */

/* {======= loading ======= */

static const char *const MAP_FIELDS[] = {
    "name", "description", "author", "cell_size", "gravity", "legend", "layers", "entities", "classes", NULL,
};

/* Protected: arg 1 the map table, arg 2 the LoadCtx. */
static int parse_map(lua_State *L)
{
    LoadCtx *c = lua_touserdata(L, 2);
    if (lua_type(L, 1) != LUA_TTABLE)
        FAIL(c, L, NULL, "a map file must return a table, it returned %s", luaL_typename(L, 1));
    map_lua_check_fields(c, L, 1, MAP_FIELDS, "");

    char name[64], base[64], description[512], author[128];
    const char *slash = strrchr(c->file, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : c->file);
    char *dot = strrchr(base, '.');
    if (dot) *dot = '\0';
    map_lua_read_string(c, L, 1, "name", "", false, base, name, sizeof name);
    map_lua_read_string(c, L, 1, "description", "", false, "", description, sizeof description);
    map_lua_read_string(c, L, 1, "author", "", false, "", author, sizeof author);
    float cell_size = map_lua_read_number(c, L, 1, "cell_size", "", false, NAV_DEFAULT_CELL_SIZE, 0.01f, 100.0f);
    float gravity = map_lua_read_number(c, L, 1, "gravity", "", false, NAV_DEFAULT_GRAVITY, 0.01f, 1000.0f);

    map_lua_read_legend(c, L, 1);
    map_lua_read_layers(c, L, 1);

    NavError werr;
    c->world = world_create(&(NavWorldDesc){ .width = c->width,
                                             .height = c->height,
                                             .cell_size = cell_size,
                                             .gravity = gravity,
                                             .name = name,
                                             .source = c->file },
                            &werr);
    if (!c->world) return map_lua_fail_with(c, L, &werr);
    if (NAV_FAILED(world_set_metadata(c->world, description, author, &werr))) return map_lua_fail_with(c, L, &werr);
    for (int k = 0; k < c->layer_count; k++) world_add_layer(c->world, c->layers[k].name, c->layers[k].z, NULL);

    map_lua_build_floors(c, L);
    map_lua_read_classes(c, L, 1);
    map_lua_read_entities(c, L, 1);
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

void map_lua_tidy_error(NavError *err, const char *file) { tidy_runtime_error(err, file); }

/* require for maps: upvalue 1 the search path (the map's folder first),
** 2 the table of loaded modules. */
static int map_require(lua_State *L)
{
    const NavLuaPath *p = lua_touserdata(L, lua_upvalueindex(1));
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    const char *why = nav_lua_name_problem(name);
    if (why) return luaL_error(L, "require '%s' refused: %s", name, why);
    if (lua_getfield(L, lua_upvalueindex(2), name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    char path[NAV_LUA_PATH_CAP], tried[2048];
    if (nav_lua_path_find(p, name, false, path, sizeof path, tried, sizeof tried) < 0)
        return luaL_error(L, "module '%s' not found:%s", name, tried);
    char *buf;
    size_t n;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(path, NAV_MAP_MAX_FILE_BYTES, &buf, &n, &e)))
        return luaL_error(L, "require '%s': %s", name, e.message);
    lua_pushfstring(L, "@%s", path);
    int rc = luaL_loadbufferx(L, buf, n, lua_tostring(L, -1), "t");
    nav_free(buf);
    if (rc != LUA_OK) return lua_error(L);
    lua_pushvalue(L, 1);
    lua_pushstring(L, path);
    lua_call(L, 2, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, lua_upvalueindex(2), name);
    return 1;
}

static int open_require(lua_State *L)
{
    lua_pushglobaltable(L);
    lua_pushliteral(L, "require");
    lua_pushvalue(L, 1); /* the path, a light userdata */
    lua_newtable(L);
    lua_pushcclosure(L, map_require, 2);
    lua_rawset(L, -3);
    return 0;
}

NavWorld *map_load_lua(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions defaults = { 0 };
    if (!opt) opt = &defaults;
    NavError local;
    if (!err) err = &local;
    nav_error_clear(err);

    Sandbox *sb = map_lua_sandbox(opt, name, err);
    if (!sb) return NULL;
    lua_State *L = sandbox_state(sb);

    /* The map's folder, then the caller's path; lives until the sandbox goes. */
    NavLuaPath search = { 0 };
    if (opt->lua_path) {
        char dir[NAV_LUA_PATH_CAP];
        nav_lua_dirname(name, dir, sizeof dir);
        NavStatus st = nav_lua_path_add(&search, dir, NAV_LUA_DIR_ANY, err);
        if (NAV_SUCCEEDED(st)) st = nav_lua_path_append(&search, opt->lua_path, err);
        lua_pushcfunction(L, open_require);
        lua_pushlightuserdata(L, &search);
        if (NAV_SUCCEEDED(st)) st = sandbox_call(sb, 1, 0, err);
        if (NAV_FAILED(st)) {
            nav_lua_path_free(&search);
            sandbox_destroy(sb);
            return NULL;
        }
    }

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
        nav_lua_path_free(&search);
        return NULL;
    }
    if (NAV_FAILED(sandbox_call(sb, 0, 1, err))) {
        tidy_runtime_error(err, name);
        sandbox_destroy(sb);
        nav_lua_path_free(&search);
        return NULL;
    }

    /* A Tiled map saved with Tiled's Lua export is a table too: it says
    ** which Tiled wrote it. */
    NavWorld *w = map_tiled_is_export(L, -1) ? map_tiled_load_table(sb, name, opt, err)
                                             : map_lua_read_table(sb, name, buf, len, err);
    sandbox_destroy(sb);
    nav_lua_path_free(&search);
    return w;
}

NavWorld *map_lua_read_table(Sandbox *sb, const char *name, const char *src, size_t len, NavError *err)
{
    lua_State *L = sandbox_state(sb);
    LoadCtx *c = nav_calloc(1, sizeof *c);
    if (!c) {
        lua_pop(L, 1);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory loading the map");
        return NULL;
    }
    c->file = name;
    c->src = src;
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
    nav_free(c->grid);
    nav_free(c->items);
    nav_free(c);
    return w;
}

/* }======= */

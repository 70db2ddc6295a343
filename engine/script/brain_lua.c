/*
** brain_lua.c — a brain file's sandbox state: protected calls on its main
** thread, read-only views of the shared tables, require, and setting the
** state up.
*/
#include "script/brain_internal.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/timer.h"
#include "lua/sandbox.h"

/* {======= Protected calls on a brain's main thread ======= */

/* Runs f(ud, the top nargs values) in protected mode, leaving nresults. On
** failure the error text is in h->msg and a LUA_ERR* status is returned. */
int brain_protect(Brain *b, lua_CFunction f, void *ud, int nargs, int nresults)
{
    lua_State *L = b->L;
    lua_pushcfunction(L, f);
    lua_pushlightuserdata(L, ud);
    if (nargs > 0) lua_rotate(L, -(nargs + 2), 2);
    int rc = lua_pcall(L, nargs + 1, nresults, 0);
    if (rc != LUA_OK) {
        const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
        snprintf(b->host->msg, sizeof b->host->msg, "%s", m);
        lua_pop(L, 1);
    }
    return rc;
}

void brain_unref(lua_State *L, int *ref)
{
    luaL_unref(L, LUA_REGISTRYINDEX, *ref);
    *ref = LUA_NOREF;
}

/* }======= */

/* {======= Read-only views of the shared tables ======= */

static int locked_newindex(lua_State *L)
{
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?";
    return luaL_error(L, "cannot set '%s': shared tables are read-only in bot brains (sandbox)", key);
}

static int locked_next(lua_State *L)
{
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1))) return 2;
    lua_pushnil(L);
    return 1;
}

static int locked_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, locked_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int locked_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

static bool is_locked(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx)) return false;
    lua_pushliteral(L, "__newindex");
    lua_rawget(L, -2);
    bool locked = lua_tocfunction(L, -1) == locked_newindex;
    lua_pop(L, 2);
    return locked;
}

/* Pushes a read-only view of the table at real, after making its nested
** tables views too. seen maps each table to its view (cycles, sharing). */
static void push_locked(lua_State *L, int real, int seen, int depth)
{
    real = lua_absindex(L, real);
    lua_pushvalue(L, real);
    if (lua_rawget(L, seen) != LUA_TNIL) return;
    lua_pop(L, 1);
    if (depth < 8) {
        lua_pushnil(L);
        while (lua_next(L, real)) {
            if (lua_type(L, -1) == LUA_TTABLE && !is_locked(L, -1)) {
                push_locked(L, -1, seen, depth + 1); /* key value view */
                lua_pushvalue(L, -3);
                lua_insert(L, -2);
                lua_rawset(L, real); /* an existing field: allowed while traversing */
            }
            lua_pop(L, 1);
        }
    }
    lua_newtable(L);
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, real);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, locked_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, real);
    lua_pushcclosure(L, locked_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, real);
    lua_pushcclosure(L, locked_len, 1);
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, real);
    lua_pushvalue(L, -2);
    lua_rawset(L, seen);
}

/* rawset would write into a view and bypass __newindex. */
static int guarded_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (is_locked(L, 1)) return luaL_error(L, "rawset: shared tables are read-only in bot brains (sandbox)");
    lua_settop(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 3, 1);
    return 1;
}

static int pass_results(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return lua_gettop(L);
}

/* coroutine.resume and coroutine.close: a bot's own thread (leaked through a
** module, say) is not another script's to drive. Upvalues: the original,
** the set of bot threads. */
static int guarded_coroutine(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TTHREAD) {
        lua_pushvalue(L, 1);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL)
            return luaL_error(L, "a bot's own coroutine cannot be resumed or closed by a script");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, pass_results);
    return lua_gettop(L);
}

/* }======= */

/* {======= require ======= */

static const char LOADING = 0; /* its address marks a module being loaded */

/* False when out of memory for the list. */
static bool note_module(Brain *b, const char *name, const char *path, const char *file, const FileStamp *stamp)
{
    Module *m = NULL;
    for (int i = 0; i < b->nmods && !m; i++)
        if (strcmp(b->mods[i].name, name) == 0) m = &b->mods[i];
    if (!m) {
        if (b->nmods == b->capmods) {
            int cap = b->capmods ? b->capmods * 2 : 8;
            Module *nm = nav_realloc(b->mods, (size_t)cap * sizeof *nm);
            if (!nm) return false;
            b->mods = nm;
            b->capmods = cap;
        }
        m = &b->mods[b->nmods++];
        memset(m, 0, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", name);
    }
    snprintf(m->file, sizeof m->file, "%s", file);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->stamp = *stamp;
    return true;
}

/* NAME.lua in the brain's own folder, else along the host's path. False
** with tried listing the files looked for. */
static bool find_module(const Brain *b, const char *name, char *path, size_t cap, char *tried, size_t tried_cap)
{
    NavLuaPath own = { 0 };
    NavLuaDir first = { (char *)b->dir, NAV_LUA_DIR_ANY };
    own.dirs = &first;
    own.count = 1;
    if (nav_lua_path_find(&own, name, false, path, cap, tried, tried_cap) >= 0) return true;
    /* The rest of the path, without the brain's folder a second time. */
    const NavLuaPath *hp = &b->host->path;
    for (int i = 0; i < hp->count; i++) {
        if (strcmp(hp->dirs[i].dir, b->dir) == 0) continue;
        NavLuaPath one = { .dirs = &hp->dirs[i], .count = 1 };
        size_t t = strlen(tried);
        if (nav_lua_path_find(&one, name, false, path, cap, tried + t, tried_cap - t) >= 0) return true;
    }
    return false;
}

/* Pushes a new environment: its own globals over the shared ones. */
void brain_push_env(lua_State *L, const Brain *b)
{
    lua_createtable(L, 0, 4);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_env_mt);
    lua_setmetatable(L, -2);
    lua_pushliteral(L, "_G");
    lua_pushvalue(L, -2);
    lua_rawset(L, -3);
}

static int brain_require(lua_State *L)
{
    Brain *b = lua_touserdata(L, lua_upvalueindex(1));
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    const char *why = nav_lua_name_problem(name);
    (void)len;
    if (why) return luaL_error(L, "require '%s' refused: %s", name, why);
    lua_settop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_loaded); /* 2 */
    lua_pushvalue(L, 1);
    int t = lua_rawget(L, 2);
    if (t == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &LOADING)
        return luaL_error(L, "require '%s': circular (it is still loading)", name);
    if (t != LUA_TNIL) return 1;
    lua_pop(L, 1);

    char file[FILE_CAP], path[PATH_CAP], tried[2048];
    if (!find_module(b, name, path, sizeof path, tried, sizeof tried))
        return luaL_error(L, "module '%s' not found:%s", name, tried);
    FileStamp stamp = brain_stamp_of(path);
    nav_lua_display_name(path, b->host->root, file, sizeof file);
    char *buf;
    size_t n;
    NavError e;
    if (NAV_FAILED(fileio_read(path, sandbox_memory_limit(b->sb), &buf, &n, &e)))
        return luaL_error(L, "require '%s': %s: %s", name, file, e.message);
    char chunkname[FILE_CAP + 1];
    snprintf(chunkname, sizeof chunkname, "@%s", file);
    int rc = luaL_loadbufferx(L, buf, n, chunkname, "t");
    nav_free(buf);
    if (rc != LUA_OK) return lua_error(L);

    brain_push_env(L, b);
    lua_setupvalue(L, -2, 1); /* the chunk's _ENV */
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, (void *)&LOADING);
    lua_rawset(L, 2);
    lua_pushvalue(L, 1);
    lua_pushstring(L, file);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        lua_rawset(L, 2);
        return lua_error(L);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    /* Watched for hot reloads, or not loaded at all. */
    bool noted = note_module(b, name, path, file, &stamp);
    lua_pushvalue(L, 1);
    if (noted) lua_pushvalue(L, -2);
    else lua_pushnil(L);
    lua_rawset(L, 2);
    if (!noted) return luaL_error(L, "require '%s': out of memory", name);
    return 1;
}

/* }======= */

/* {======= Setting up a brain's state ======= */

int brain_op_setup(lua_State *L)
{
    Brain *b = lua_touserdata(L, 1);
    BrainHost *h = b->host;
    lua_settop(L, 1);
    lua_pushglobaltable(L); /* 2: the shared globals */
    int G = 2;

    lua_newtable(L); /* the bots' threads, weak so a dropped thread goes */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    b->ref_threads = luaL_ref(L, LUA_REGISTRYINDEX);
    int threads = lua_gettop(L);

    lua_getfield(L, G, "coroutine");
    const char *const drive[] = { "resume", "close" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(drive); i++) {
        lua_getfield(L, -1, drive[i]);
        lua_pushvalue(L, threads);
        lua_pushcclosure(L, guarded_coroutine, 2);
        lua_setfield(L, -2, drive[i]);
    }
    lua_pop(L, 1);

    lua_pushliteral(L, "rawset");
    lua_pushliteral(L, "rawset");
    lua_rawget(L, G);
    lua_pushcclosure(L, guarded_rawset, 1);
    lua_rawset(L, G);

    lua_pushliteral(L, "require");
    lua_pushlightuserdata(L, b);
    lua_pushcclosure(L, brain_require, 1);
    lua_pushvalue(L, -1);
    b->ref_require = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_rawset(L, G);

    lua_newtable(L);
    lua_pushvalue(L, -1);
    b->ref_loaded = luaL_ref(L, LUA_REGISTRYINDEX);
    int loaded = lua_gettop(L);

    /* The engine's module: left on the stack, or set as the global nav, or
    ** put in the standard loaded table; else an empty table. */
    int top = lua_gettop(L);
    if (h->desc.open_api) h->desc.open_api(L, h->desc.user);
    if (lua_gettop(L) > top && lua_type(L, -1) == LUA_TTABLE) {
        lua_settop(L, top + 1);
    } else {
        lua_settop(L, top);
        lua_pushliteral(L, "nav");
        if (lua_rawget(L, G) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
            if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "nav") != LUA_TTABLE) {
                lua_settop(L, top);
                lua_newtable(L);
            } else {
                lua_remove(L, -2);
            }
        }
    }
    lua_pushliteral(L, "nav");
    lua_insert(L, -2);
    lua_rawset(L, G);

    /* Every table among the globals becomes a read-only view. Each bot's
    ** environment has its own _G. */
    lua_pushliteral(L, "_G");
    lua_pushnil(L);
    lua_rawset(L, G);
    lua_newtable(L);
    int seen = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, G)) {
        if (lua_type(L, -1) == LUA_TTABLE) {
            push_locked(L, -1, seen, 0);
            lua_pushvalue(L, -3);
            lua_insert(L, -2);
            lua_rawset(L, G);
        }
        lua_pop(L, 1);
    }
    lua_pushliteral(L, "nav");
    lua_pushliteral(L, "nav");
    lua_rawget(L, G);
    lua_rawset(L, loaded);

    /* getmetatable("") would hand out the strings' metatable (and through
    ** __index the real string table). */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_settop(L, seen);

    lua_createtable(L, 0, 2);
    lua_pushvalue(L, G);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    b->ref_env_mt = luaL_ref(L, LUA_REGISTRYINDEX);

    static const char holder[] = "local e = ... return function() return e end";
    if (luaL_loadbufferx(L, holder, sizeof holder - 1, "=(holder)", "t") != LUA_OK) return lua_error(L);
    lua_pushvalue(L, -1);
    b->ref_holder = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushnil(L);
    lua_call(L, 1, 1);
    b->ref_neutral = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Compiles the text in ud (a Source) and refs it. */
typedef struct Source {
    const char *buf;
    size_t len;
    const char *chunkname;
    int ref;
} Source;

static int op_compile(lua_State *L)
{
    Source *src = lua_touserdata(L, 1);
    if (luaL_loadbufferx(L, src->buf, src->len, src->chunkname, "t") != LUA_OK) return lua_error(L);
    src->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Reads and compiles file; on success *ref is the chunk. On failure msg
** holds "file:line: message" (or "file: why"). */
bool brain_compile_file(Brain *b, const char *path, const char *file, int *ref, char *msg, size_t cap)
{
    char *buf;
    size_t len;
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(fileio_read(path, sandbox_memory_limit(b->sb), &buf, &len, &e))) {
        snprintf(msg, cap, "%s: %s", file, e.message);
        return false;
    }
    char chunkname[FILE_CAP + 1];
    snprintf(chunkname, sizeof chunkname, "@%s", file);
    Source src = { buf, len, chunkname, LUA_NOREF };
    int rc = brain_protect(b, op_compile, &src, 0, 0);
    nav_free(buf);
    if (rc != LUA_OK) {
        snprintf(msg, cap, "%s", b->host->msg);
        return false;
    }
    *ref = src.ref;
    return true;
}

/* }======= */

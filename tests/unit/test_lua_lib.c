/*
** test_lua_lib.c — the Lua library (lua/) on its own: each
** tests/lua/lib/test_NAME.lua returns a list of { name, function }
** cases, run here one by one in a sandbox (the brains' own libraries)
** with a fake `nav` (tests/lua/lib/fake_nav.lua) whose names are the
** engine's (nav_api_travel_types, nav_api_area_flags). `require` finds
** lua/NAME.lua first, then tests/lua/lib/NAME.lua. Every case that fails is listed with
** its error and traceback.
*/
#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "lua/sandbox.h"
#include "script/nav_api.h"
#include "test_support.h"

/* require for the tests: lua/NAME.lua, else tests/lua/lib/NAME.lua, run once
** and cached (upvalue 2) like package.loaded. */
static int test_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    luaL_argcheck(L, strspn(name, "abcdefghijklmnopqrstuvwxyz_0123456789") == strlen(name), 1, "a plain module name");
    if (lua_getfield(L, lua_upvalueindex(2), name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    Sandbox *sb = lua_touserdata(L, lua_upvalueindex(1));
    static const char *const dirs[] = { "lua", "tests/lua/lib" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(dirs); i++) {
        char path[256], chunk[260];
        snprintf(path, sizeof path, "%s/%s.lua", dirs[i], name);
        char *text = NULL;
        size_t len = 0;
        NavError err;
        nav_error_clear(&err);
        if (NAV_FAILED(fileio_read(path, 1 << 20, &text, &len, &err))) continue;
        snprintf(chunk, sizeof chunk, "@%s", path);
        NavStatus st = sandbox_load(sb, text, len, chunk, &err);
        nav_free(text);
        if (NAV_FAILED(st)) return luaL_error(L, "%s", err.message);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushboolean(L, 1);
        }
        lua_pushvalue(L, -1);
        lua_setfield(L, lua_upvalueindex(2), name);
        return 1;
    }
    return luaL_error(L, "module '%s' not found in lua/ or tests/lua/lib/", name);
}

static int gc_stop(lua_State *L)
{
    lua_gc(L, LUA_GCSTOP);
    return 0;
}

static int gc_restart(lua_State *L)
{
    lua_gc(L, LUA_GCRESTART);
    return 0;
}

static int memory(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB));
    return 1;
}

static Sandbox *open_state(void)
{
    NavError err;
    nav_error_clear(&err);
    Sandbox *sb = sandbox_create(&(SandboxDesc){ .what = "lua library tests", .instruction_limit = 2000000000ull },
                                 &err);
    cr_assert_not_null(sb, "%s", err.message);
    lua_State *L = sandbox_state(sb);
    lua_pushlightuserdata(L, sb);
    lua_newtable(L);
    lua_pushcclosure(L, test_require, 2);
    lua_setglobal(L, "require");
    lua_newtable(L);
    lua_pushcfunction(L, nav_api_travel_types);
    lua_setfield(L, -2, "travel_types");
    lua_pushcfunction(L, nav_api_area_flags);
    lua_setfield(L, -2, "area_flags");
    lua_setglobal(L, "engine");
    lua_newtable(L);
    lua_pushcfunction(L, gc_stop);
    lua_setfield(L, -2, "gc_stop");
    lua_pushcfunction(L, gc_restart);
    lua_setfield(L, -2, "gc_restart");
    lua_pushcfunction(L, memory);
    lua_setfield(L, -2, "memory");
    lua_setglobal(L, "harness");
    return sb;
}

/* Runs every case of tests/lua/lib/test_NAME.lua; fails listing those that
** failed. */
static void run_file(const char *name, int at_least)
{
    Sandbox *sb = open_state();
    lua_State *L = sandbox_state(sb);
    NavError err;
    nav_error_clear(&err);
    char code[128];
    snprintf(code, sizeof code, "return require 'test_%s'", name);
    cr_assert(NAV_SUCCEEDED(sandbox_load(sb, code, strlen(code), "=runner", &err)), "%s", err.message);
    cr_assert(NAV_SUCCEEDED(sandbox_call(sb, 0, 1, &err)), "tests/lua/lib/test_%s.lua: %s", name, err.message);
    cr_assert(lua_istable(L, -1), "tests/lua/lib/test_%s.lua returns no list of cases", name);
    int list = lua_gettop(L);
    lua_Integer n = luaL_len(L, list);
    int failed = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        lua_rawgeti(L, -1, 1);
        char what[128];
        snprintf(what, sizeof what, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
        lua_pop(L, 1);
        lua_rawgeti(L, -1, 2);
        lua_remove(L, -2);
        nav_error_clear(&err);
        if (NAV_FAILED(sandbox_call(sb, 0, 0, &err))) {
            failed++;
            cr_log_error("tests/lua/lib/test_%s.lua: %s: %s", name, what, err.message);
        }
        lua_settop(L, list);
    }
    cr_assert_geq(n, at_least, "tests/lua/lib/test_%s.lua has %lld cases", name, (long long)n);
    cr_assert_eq(failed, 0, "%d of %lld cases of tests/lua/lib/test_%s.lua failed (listed above)", failed, (long long)n,
                 name);
    sandbox_destroy(sb);
}

Test(lua_lib, policy) { run_file("policy", 5); }
Test(lua_lib, arbiter) { run_file("arbiter", 4); }
Test(lua_lib, tour) { run_file("tour", 4); }
Test(lua_lib, avoid) { run_file("avoid", 5); }
Test(lua_lib, follow) { run_file("follow", 7); }
Test(lua_lib, triggers) { run_file("triggers", 2); }

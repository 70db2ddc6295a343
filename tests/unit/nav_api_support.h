/*
** nav_api_support.h — a map, a sim and a sandbox with the nav module
** open, for the tests of the nav Lua module (test_nav_api*.c): run a
** chunk that must succeed, or one that must fail.
*/
#ifndef NAV_NAV_API_SUPPORT_H
#define NAV_NAV_API_SUPPORT_H

#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "lua/sandbox.h"
#include "script/nav_api.h"
#include "test_support.h"

typedef struct Fixture {
    NavWorld *w;
    NavSim *sim;
    Sandbox *sb;
} Fixture;

static inline Fixture setup(const char *map)
{
    Fixture f;
    NavError err;
    nav_error_clear(&err);
    f.w = test_load_map(map);
    f.sim = sim_create(f.w, &(NavSimDesc){ .seed = 3 }, &err);
    cr_assert_not_null(f.sim, "%s", err.message);
    f.sb = sandbox_create(&(SandboxDesc){ .what = "bot brains" }, &err);
    cr_assert_not_null(f.sb, "%s", err.message);
    nav_api_open(sandbox_state(f.sb), f.sim);
    return f;
}

static inline void teardown(Fixture *f)
{
    sandbox_destroy(f->sb);
    sim_destroy(f->sim);
    world_destroy(f->w);
}

/* Run chunk; it must succeed; its one result as a string (kept on the
** stack until the next call). */
static inline const char *run(Fixture *f, const char *code)
{
    NavError err;
    nav_error_clear(&err);
    lua_State *L = sandbox_state(f->sb);
    lua_settop(L, 0);
    cr_assert(NAV_SUCCEEDED(sandbox_load(f->sb, code, strlen(code), "=test", &err)), "%s", err.message);
    cr_assert(NAV_SUCCEEDED(sandbox_call(f->sb, 0, 1, &err)), "%s\n--- in:\n%s", err.message, code);
    return lua_tostring(L, -1);
}

/* Run chunk; it must fail; the error text (until the next call). */
static inline const char *fails(Fixture *f, const char *code)
{
    static char msg[512];
    NavError err;
    nav_error_clear(&err);
    lua_State *L = sandbox_state(f->sb);
    lua_settop(L, 0);
    cr_assert(NAV_SUCCEEDED(sandbox_load(f->sb, code, strlen(code), "=test", &err)), "%s", err.message);
    cr_assert(NAV_FAILED(sandbox_call(f->sb, 0, 1, &err)), "no error from:\n%s", code);
    snprintf(msg, sizeof msg, "%s", err.message);
    return msg;
}

#endif

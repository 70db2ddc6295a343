/*
** test_sandbox.c — the Lua sandbox on its own: caps, budget, libraries.
*/
#include <lauxlib.h>
#include <string.h>

#include "lua/sandbox.h"
#include "test_support.h"

static Sandbox *make(size_t mem, uint64_t instr)
{
    NavError err;
    Sandbox *sb = sandbox_create(&(SandboxDesc){ .memory_limit = mem, .instruction_limit = instr, .what = "tests" }, &err);
    cr_assert_not_null(sb, "%s", err.message);
    return sb;
}

static NavStatus run(Sandbox *sb, const char *src, NavError *err)
{
    nav_error_clear(err);
    NavStatus s = sandbox_load(sb, src, strlen(src), "=t", err);
    if (NAV_FAILED(s)) return s;
    return sandbox_call(sb, 0, 1, err);
}

Test(sandbox, runs_safe_code_and_keeps_state)
{
    Sandbox *sb = make(0, 0);
    NavError err;
    cr_assert(NAV_SUCCEEDED(run(sb, "x = 20 return x + 1", &err)), "%s", err.message);
    cr_assert_eq(lua_tointeger(sandbox_state(sb), -1), 21);
    lua_pop(sandbox_state(sb), 1);
    cr_assert(NAV_SUCCEEDED(run(sb, "return string.format('%d-%s', x, table.concat({'a','b'}))", &err)));
    cr_assert_str_eq(lua_tostring(sandbox_state(sb), -1), "20-ab");
    lua_pop(sandbox_state(sb), 1);
    cr_assert(NAV_SUCCEEDED(run(sb, "return coroutine.wrap(function() coroutine.yield(utf8.char(72)) end)()", &err)));
    cr_assert_str_eq(lua_tostring(sandbox_state(sb), -1), "H");
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, forbidden_globals_explain_themselves)
{
    const char *names[] = { "io", "os", "debug", "package", "require", "load", "loadfile", "dofile", "collectgarbage" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(names); i++) {
        Sandbox *sb = make(0, 0);
        char src[64], want[64];
        snprintf(src, sizeof src, "return %s", names[i]);
        snprintf(want, sizeof want, "'%s' is not available in tests", names[i]);
        NavError err;
        cr_assert(NAV_FAILED(run(sb, src, &err)), "%s reachable", names[i]);
        cr_assert_not_null(strstr(err.message, want), "%s", err.message);
        sandbox_destroy(sb);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, memory_cap_is_enforced_and_the_state_survives)
{
    Sandbox *sb = make(4u << 20, 0);
    NavError err;
    cr_assert(NAV_FAILED(run(sb, "local t = {} for i = 1, 1e8 do t[i] = i end", &err)));
    cr_assert(err.status & NAV_E_NOMEM, "%s", err.message);
    cr_assert(sandbox_hit_memory_limit(sb));
    cr_assert_leq(sandbox_memory(sb), 4u << 20);
    /* The garbage is collectable; the state still works. */
    cr_assert(NAV_SUCCEEDED(run(sb, "return 1 + 1", &err)), "%s", err.message);
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, instruction_budget_stops_endless_loops)
{
    Sandbox *sb = make(0, 100000);
    NavError err;
    cr_assert(NAV_FAILED(run(sb, "local n = 0 while true do n = n + 1 end", &err)));
    cr_assert(err.status & NAV_E_BUDGET);
    cr_assert(sandbox_hit_instruction_limit(sb));
    cr_assert_not_null(strstr(err.message, "instruction budget"));
    /* Catching the budget error does not buy more time. */
    const char *catchers[] = {
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "while true do pcall(pcall, function() while true do end end) end",
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(catchers); i++) {
        cr_assert(NAV_FAILED(run(sb, catchers[i], &err)), "%s", catchers[i]);
        cr_assert(err.status & NAV_E_BUDGET, "%s: %s", catchers[i], err.message);
    }
    /* The budget is per call. */
    cr_assert(NAV_SUCCEEDED(run(sb, "local s = 0 for i = 1, 1000 do s = s + i end return s", &err)), "%s", err.message);
    cr_assert_eq(lua_tointeger(sandbox_state(sb), -1), 500500);
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, binary_chunks_are_refused)
{
    Sandbox *sb = make(0, 0);
    NavError err;
    const char chunk[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08";
    cr_assert(NAV_FAILED(sandbox_load(sb, chunk, sizeof chunk - 1, "=bin", &err)));
    cr_assert_not_null(strstr(err.message, "binary"), "%s", err.message);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, random_is_seeded)
{
    NavError err;
    double a, b;
    Sandbox *s1 = sandbox_create(&(SandboxDesc){ .seed = 7 }, &err);
    Sandbox *s2 = sandbox_create(&(SandboxDesc){ .seed = 7 }, &err);
    cr_assert(NAV_SUCCEEDED(run(s1, "return math.random()", &err)));
    cr_assert(NAV_SUCCEEDED(run(s2, "return math.random()", &err)));
    a = lua_tonumber(sandbox_state(s1), -1);
    b = lua_tonumber(sandbox_state(s2), -1);
    cr_assert_eq(a, b, "same seed, same numbers");
    sandbox_destroy(s1);
    sandbox_destroy(s2);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox, message_position_reads_chunk_and_line)
{
    char file[64];
    int line = 0;
    const char *rest = NULL;
    cr_assert(sandbox_message_position("bots/x.lua:12: attempt to call", file, sizeof file, &line, &rest));
    cr_assert_str_eq(file, "bots/x.lua");
    cr_assert_eq(line, 12);
    cr_assert_str_eq(rest, "attempt to call");
    /* A chunk name with a colon of its own: the first ":N:" wins. */
    cr_assert(sandbox_message_position("C:dir/m.lua:7: bad", file, sizeof file, &line, &rest));
    cr_assert_str_eq(file, "C:dir/m.lua");
    cr_assert_eq(line, 7);
    /* No prefix on the first line, even if a later line has one. */
    cr_assert_not(sandbox_message_position("plain message", file, sizeof file, &line, &rest));
    cr_assert_not(sandbox_message_position("first\nbots/x.lua:3: second", file, sizeof file, &line, &rest));
    cr_assert_not(sandbox_message_position("x.lua:0: zero is no line", NULL, 0, &line, NULL));
    cr_assert_not(sandbox_message_position(NULL, NULL, 0, &line, NULL));
    /* A file buffer too small keeps what fits. */
    char small[4];
    cr_assert(sandbox_message_position("abcdef.lua:2: m", small, sizeof small, &line, NULL));
    cr_assert_str_eq(small, "abc");
}

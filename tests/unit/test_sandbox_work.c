/*
** test_sandbox_work.c — work inside C calls is counted: the sandbox's
** pattern matcher against stock Lua's, each single-call denial of service
** ending in the budget error, and the memory cap holding under pcall.
*/
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "lua/sandbox.h"
#include "lua/sandbox_match.h"
#include "test_support.h"

static Sandbox *make(size_t mem, uint64_t instr)
{
    NavError err;
    Sandbox *sb =
        sandbox_create(&(SandboxDesc){ .memory_limit = mem, .instruction_limit = instr, .what = "tests" }, &err);
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

/* {======= the matcher against stock Lua ======= */

/* Runs every pattern function on (s, p, init) and returns one string of
** all results and error messages, the same in both states when they agree. */
static const char PROBE[] = "local s, p, init = ...\n"
                            "local out = {}\n"
                            "local function put(ok, ...)\n"
                            "  local n = select('#', ...)\n"
                            "  out[#out + 1] = tostring(ok) .. '#' .. n\n"
                            "  for i = 1, n do out[#out + 1] = tostring((select(i, ...))) end\n"
                            "end\n"
                            "put(pcall(string.find, s, p, init))\n"
                            "put(pcall(string.find, s, p, init, true))\n"
                            "put(pcall(string.match, s, p, init))\n"
                            "put(pcall(function()\n"
                            "  local r, k = {}, 0\n"
                            "  for a, b, c in string.gmatch(s, p, init) do\n"
                            "    k = k + 1; r[#r + 1] = tostring(a) .. ',' .. tostring(b) .. ',' .. tostring(c)\n"
                            "    if k > 50 then break end\n"
                            "  end\n"
                            "  return table.concat(r, ';')\n"
                            "end))\n"
                            "put(pcall(string.gsub, s, p, '<%0>'))\n"
                            "put(pcall(string.gsub, s, p, '[%1]', init))\n"
                            "put(pcall(string.gsub, s, p, function(a, b) if a == 'a' then return nil end return '{' .. "
                            "tostring(a) .. tostring(b) .. '}' end))\n"
                            "put(pcall(string.gsub, s, p, { a = 'A', b = false, ab = 1.5 }))\n"
                            "return table.concat(out, '|')\n";

typedef struct {
    uint64_t state;
} Rng;

static uint32_t rnd(Rng *r, uint32_t n)
{
    r->state ^= r->state << 13;
    r->state ^= r->state >> 7;
    r->state ^= r->state << 17;
    return (uint32_t)(r->state % n);
}

static void add(char *buf, size_t cap, const char *piece)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s", piece);
}

/* A random pattern: mostly well formed, now and then cut short or odd. */
static void random_pattern(Rng *r, char *buf, size_t cap)
{
    static const char *const singles[] = { "a",    "b",     ".",     "%a",  "%d",    "%s", "%W", "%.", "[ab]",
                                           "[^a]", "[a-c]", "[%d_]", "[]]", "[^%s]", "(",  "x",  "%%", "-" };
    static const char *const specials[] = { "%b()", "%f[%w]", "%f[%W]", "%1", "%2", "()", "$",
                                            ")",    "%",      "[a",     "%b", "%f", "%0", "\\0" };
    static const char *const quant[] = { "", "", "", "*", "+", "-", "?" };
    buf[0] = '\0';
    if (rnd(r, 4) == 0) add(buf, cap, "^");
    int items = 1 + (int)rnd(r, 7), open = 0;
    for (int i = 0; i < items; i++) {
        uint32_t k = rnd(r, 10);
        if (k < 6) {
            add(buf, cap, singles[rnd(r, NAV_ARRAY_COUNT(singles))]);
            add(buf, cap, quant[rnd(r, NAV_ARRAY_COUNT(quant))]);
        } else if (k < 7) {
            add(buf, cap, "(");
            open++;
        } else if (k < 8 && open > 0) {
            add(buf, cap, ")");
            open--;
        } else {
            const char *sp = specials[rnd(r, NAV_ARRAY_COUNT(specials))];
            add(buf, cap, strcmp(sp, "\\0") == 0 ? "" : sp);
        }
    }
    if (rnd(r, 3)) {
        while (open-- > 0) add(buf, cap, ")");
    }
    if (rnd(r, 6) == 0) add(buf, cap, "$");
}

static void random_subject(Rng *r, char *buf, size_t len)
{
    static const char alphabet[] = "aab b(()1_.x]%";
    for (size_t i = 0; i < len; i++) buf[i] = alphabet[rnd(r, sizeof alphabet - 1)];
    buf[len] = '\0';
}

/* Calls PROBE (compiled at stack index 1 of L) on one case. */
static bool probe(lua_State *L, Sandbox *sb, const char *s, const char *p, int init, char *out, size_t cap)
{
    lua_pushvalue(L, 1);
    lua_pushstring(L, s);
    lua_pushstring(L, p);
    lua_pushinteger(L, init);
    bool ok;
    if (sb) {
        NavError err;
        ok = NAV_SUCCEEDED(sandbox_call(sb, 3, 1, &err));
        if (!ok) {
            cr_assert(err.status & NAV_E_BUDGET, "'%s' on '%s': %s", p, s, err.message);
            return false;
        }
    } else {
        ok = lua_pcall(L, 3, 1, 0) == LUA_OK;
        cr_assert(ok, "stock probe failed: %s", lua_tostring(L, -1));
    }
    snprintf(out, cap, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return true;
}

Test(sandbox_work, matcher_agrees_with_stock_lua, .timeout = 120)
{
    lua_State *stock = luaL_newstate();
    luaL_openlibs(stock);
    cr_assert_eq(luaL_loadbuffer(stock, PROBE, strlen(PROBE), "=probe"), LUA_OK);
    Sandbox *sb = make(0, 2000000);
    lua_State *L = sandbox_state(sb);
    NavError err;
    cr_assert(NAV_SUCCEEDED(sandbox_load(sb, PROBE, strlen(PROBE), "=probe", &err)), "%s", err.message);

    Rng r = { 0x9e3779b97f4a7c15ull };
    int compared = 0, spent = 0, differing = 0;
    static char want[1 << 14], got[1 << 14];
    for (int i = 0; i < 10000; i++) {
        char pat[128], subj[32];
        random_pattern(&r, pat, sizeof pat);
        random_subject(&r, subj, rnd(&r, 20));
        int init = (int)rnd(&r, 8) - 3;
        /* The sandbox first, under a budget: a case it cannot finish may
        ** take the stock matcher very long, and is not compared. */
        if (!probe(L, sb, subj, pat, init, got, sizeof got)) {
            spent++;
            continue;
        }
        probe(stock, NULL, subj, pat, init, want, sizeof want);
        compared++;
        if (strcmp(want, got) != 0 && differing++ < 5)
            cr_log_error("pattern '%s' on '%s' init %d:\n stock   %s\n sandbox %s", pat, subj, init, want, got);
    }
    cr_assert_eq(differing, 0, "%d of %d cases differ", differing, compared);
    cr_assert_gt(compared, 9800, "only %d compared (%d over budget)", compared, spent);
    lua_close(stock);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

/* Every class, its complement and a set holding it, on every byte. */
Test(sandbox_work, classes_agree_with_stock_lua_on_every_byte)
{
    static const char src[] =
        "local out = {}\n"
        "for _, k in ipairs({ 'a', 'c', 'd', 'g', 'l', 'p', 's', 'u', 'w', 'x' }) do\n"
        "  for _, p in ipairs({ '%' .. k, '%' .. k:upper(), '[%' .. k .. ']', '[^%' .. k .. ']' }) do\n"
        "    for b = 0, 255 do out[#out + 1] = string.find(string.char(b), p) and '1' or '0' end\n"
        "  end\n"
        "end\n"
        "return table.concat(out)\n";
    lua_State *stock = luaL_newstate();
    luaL_openlibs(stock);
    cr_assert_eq(luaL_dostring(stock, src), LUA_OK);
    Sandbox *sb = make(0, 0);
    NavError err;
    cr_assert(NAV_SUCCEEDED(run(sb, src, &err)), "%s", err.message);
    cr_assert_str_eq(lua_tostring(sandbox_state(sb), -1), lua_tostring(stock, -1));
    lua_close(stock);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox_work, matcher_counts_steps_and_stops)
{
    char subject[31], pattern[64] = "";
    memset(subject, 'a', 30);
    subject[30] = '\0';
    for (int i = 0; i < 30; i++) strcat(pattern, "a*");
    strcat(pattern, "b");
    SbMatch m;
    sbm_init(&m, subject, 30, pattern, strlen(pattern), 100000);
    const char *start;
    cr_assert_null(sbm_search(&m, subject, pattern, false, &start));
    cr_assert_eq(m.status, SBM_SPENT);
    cr_assert_leq(m.steps, 100001);
    /* An easy one is cheap: a few steps per subject byte. */
    sbm_init(&m, subject, 30, "a+$", 3, 100000);
    cr_assert_not_null(sbm_search(&m, subject, "a+$", false, &start));
    cr_assert_eq(m.status, SBM_OK);
    cr_assert_lt(m.steps, 200, "%llu steps", (unsigned long long)m.steps);
    /* Errors are found where the search reaches them. */
    sbm_init(&m, subject, 30, "b%", 2, 100000);
    cr_assert_null(sbm_search(&m, subject, "b%", false, &start));
    cr_assert_eq(m.status, SBM_OK, "'b' never matches, so the '%%' is never read");
    sbm_init(&m, subject, 30, "a%", 2, 100000);
    cr_assert_null(sbm_search(&m, subject, "a%", false, &start));
    cr_assert_eq(m.status, SBM_ERROR);
    cr_assert_str_eq(m.error, "malformed pattern (ends with '%')");
}

/* }======= */

/* {======= one call cannot stop the world ======= */

static void expect_budget(const char *src)
{
    Sandbox *sb = make(64u << 20, 1000000);
    NavError err;
    NavStatus s = run(sb, src, &err);
    cr_assert(NAV_FAILED(s), "ran to the end: %s", src);
    cr_assert(err.status & NAV_E_BUDGET, "%s\n%s", src, err.message);
    cr_assert_not_null(strstr(err.message, "instruction budget of 1000000 exceeded"), "%s", err.message);
    sandbox_destroy(sb);
}

Test(sandbox_work, backtracking_patterns_end_in_the_budget, .timeout = 60)
{
    expect_budget("return string.find(('a'):rep(30), ('a*'):rep(30) .. 'b')");
    expect_budget("return (('a'):rep(30)):match(('a-'):rep(30) .. 'b')");
    expect_budget("for w in string.gmatch(('a'):rep(30), ('a?'):rep(30) .. 'b') do end");
    expect_budget("return string.gsub(('a'):rep(30), ('a*'):rep(30) .. 'b', 'x')");
    expect_budget("return pcall(string.find, ('a'):rep(30), ('(a*)'):rep(25) .. 'b')");
    /* Plain search: a long near-miss needle at every position. */
    expect_budget("local s = ('a'):rep(1 << 20) local n = ('a'):rep(4096) .. 'b'\n"
                  "for i = 1, 1000 do s:find(n, 1, true) end");
    /* gsub replacement functions and tables run Lua code, counted as such. */
    expect_budget("return ('x'):rep(100):gsub('.', function() while true do end end)");
    expect_budget("return ('x'):rep(100):gsub('.', setmetatable({}, { __index = function() while true do end end }))");
}

Test(sandbox_work, big_strings_and_tables_are_paid_for, .timeout = 60)
{
    expect_budget("for i = 1, 100 do local _ = string.rep('x', 1 << 24) end");
    expect_budget("local s = ('x'):rep(1 << 16) for i = 1, 1e6 do local _ = s:rep(8, ',') end");
    expect_budget("local t = {} for i = 1, 50 do t[i] = '' end\n"
                  "local sep = ('x'):rep(1 << 18) for i = 1, 1e6 do local _ = table.concat(t, sep) end");
    expect_budget("local t = {} for i = 1, 100 do t[i] = ('y'):rep(1000) end for i = 1, 1e6 do table.concat(t) end");
    expect_budget("local s = ('x'):rep(1 << 22) for i = 1, 1e6 do local _ = s .. s end");
    expect_budget("local s = ('x'):rep(1 << 20) for i = 1, 1e6 do local _ = string.format('%s%s%q', s, s, s) end");
    expect_budget("local s = ('x'):rep(1 << 20) for i = 1, 1e6 do local _ = s:upper() end");
    expect_budget("local s = ('x'):rep(1 << 16) for i = 1, 1e6 do local _ = s:byte(1, -1) end");
    expect_budget("local s = ('x'):rep(1 << 20) for i = 1, 1e6 do local _ = utf8.len(s) end");
    expect_budget("local t = {} for i = 1, 1 << 16 do t[i] = i end for i = 1, 1e6 do table.unpack(t) end");
    expect_budget("local t = {} for i = 1, 1 << 16 do t[i] = i end for i = 1, 1e6 do table.insert(t, 1, 0) "
                  "table.remove(t, 1) end");
    expect_budget("local t = {} for i = 1, 1 << 16 do t[i] = i end for i = 1, 1e6 do table.move(t, 1, #t, 2) end");
    expect_budget("local t = {} for i = 1, 1 << 16 do t[i] = -i end for i = 1, 1e6 do table.sort(t) end");
    expect_budget("local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function(a, b) while true do end end)");
}

Test(sandbox_work, cheap_calls_stay_cheap)
{
    Sandbox *sb = make(0, 1000000);
    NavError err;
    /* rep of nothing many times is nothing, at once. */
    cr_assert(NAV_SUCCEEDED(run(sb, "return #string.rep('', math.maxinteger) + #string.rep('', 1e15, '')", &err)), "%s",
              err.message);
    cr_assert_eq(lua_tointeger(sandbox_state(sb), -1), 0);
    lua_pop(sandbox_state(sb), 1);
    /* A brain's usual string work fits a tick's budget many times over. */
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local n = 0\n"
                                "for i = 1, 200 do\n"
                                "  local s = ('bot %d at %.1f,%.1f'):format(i, i * 0.5, -i)\n"
                                "  local id, x = s:match('^bot (%d+) at ([%d.-]+)')\n"
                                "  n = n + tonumber(id) + #s:gsub('%s', '_') + #table.concat({ s, x }, ' ')\n"
                                "  if s:find('at', 1, true) then n = n + 1 end\n"
                                "end\n"
                                "return n",
                                &err)),
              "%s", err.message);
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox_work, sort_comparators_are_contained)
{
    Sandbox *sb = make(0, 1000000);
    NavError err;
    /* An error in the comparator is an ordinary error: pcall gets it. */
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local t = {} for i = 1, 50 do t[i] = i end\n"
                                "local ok, e = pcall(table.sort, t, function(a, b) error('no order') end)\n"
                                "return tostring(ok) .. ' ' .. e",
                                &err)),
              "%s", err.message);
    cr_assert_not_null(strstr(lua_tostring(sandbox_state(sb), -1), "false t:2: no order"), "%s",
                       lua_tostring(sandbox_state(sb), -1));
    lua_pop(sandbox_state(sb), 1);
    /* An inconsistent one ends, with the same elements in some order. */
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local t = {} for i = 1, 300 do t[i] = (i * 7919) % 300 end\n"
                                "local ok, e = pcall(table.sort, t, function(a, b) return true end)\n"
                                "local seen, all = {}, 0\n"
                                "for i = 1, 300 do if not seen[t[i]] then seen[t[i]] = true all = all + 1 end end\n"
                                "return tostring(ok) .. ' ' .. tostring(e) .. ' ' .. all .. ' ' .. #t",
                                &err)),
              "%s", err.message);
    cr_assert_str_eq(lua_tostring(sandbox_state(sb), -1), "true nil 300 300");
    lua_pop(sandbox_state(sb), 1);
    /* Stable, so the same every run: equal keys keep their order (the
    ** stock sort picks pivots from the clock on a bad partition). And it
    ** sorts: against a plain insertion sort on random arrays. */
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local t = {} for i = 1, 500 do t[i] = { k = (i * 37) % 7, i = i } end\n"
                                "table.sort(t, function(a, b) return a.k < b.k end)\n"
                                "for i = 2, 500 do local a, b = t[i - 1], t[i]\n"
                                "  assert(a.k < b.k or (a.k == b.k and a.i < b.i), 'unstable at ' .. i) end\n"
                                "local seed = 7\n"
                                "for n = 0, 40 do\n"
                                "  local a, b = {}, {}\n"
                                "  for i = 1, n do seed = (seed * 1103515245 + 12345) % 2147483648\n"
                                "    a[i] = seed % 50; b[i] = a[i] end\n"
                                "  table.sort(a)\n"
                                "  for i = 2, n do local v, j = b[i], i - 1\n"
                                "    while j >= 1 and b[j] > v do b[j + 1] = b[j]; j = j - 1 end b[j + 1] = v end\n"
                                "  for i = 1, n do assert(a[i] == b[i], 'n ' .. n .. ' at ' .. i) end\n"
                                "end\n"
                                "return 'ok'",
                                &err)),
              "%s", err.message);
    lua_pop(sandbox_state(sb), 1);
    /* Argument errors still name the function the script called. */
    cr_assert(NAV_FAILED(run(sb, "return ('abc'):byte('x')", &err)));
    cr_assert_not_null(strstr(err.message, "t:1: bad argument #1 to 'byte' (number expected, got string)"), "%s",
                       err.message);
    cr_assert(NAV_FAILED(run(sb, "table.insert({}, 5, 1)", &err)));
    cr_assert_not_null(strstr(err.message, "t:1: bad argument #2 to 'insert' (position out of bounds)"), "%s",
                       err.message);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the memory cap under pcall ======= */

static void expect_memory_fault(const char *src)
{
    Sandbox *sb = make(4u << 20, 0);
    NavError err;
    NavStatus s = run(sb, src, &err);
    cr_assert(NAV_FAILED(s), "ran on past its cap: %s", src);
    cr_assert(err.status & NAV_E_NOMEM, "%s\n%s", src, err.message);
    cr_assert_leq(sandbox_memory_peak(sb), 4u << 20);
    /* The state is usable again once the call is over. */
    cr_assert(NAV_SUCCEEDED(run(sb, "return 1", &err)), "%s", err.message);
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
}

Test(sandbox_work, memory_cap_cannot_be_caught)
{
    const char *bomb = "function() local t = {} for i = 1, 1e8 do t[i] = i end end";
    char src[512];
    snprintf(src, sizeof src, "local ok = pcall(%s) return 'caught'", bomb);
    expect_memory_fault(src);
    snprintf(src, sizeof src, "while true do pcall(%s) end", bomb);
    expect_memory_fault(src);
    snprintf(src, sizeof src, "xpcall(%s, function() return 'fine' end) return 'caught'", bomb);
    expect_memory_fault(src);
    snprintf(src, sizeof src, "coroutine.resume(coroutine.create(%s)) return 'caught'", bomb);
    expect_memory_fault(src);
    snprintf(src, sizeof src, "pcall(coroutine.wrap(%s)) return 'caught'", bomb);
    expect_memory_fault(src);
    /* Strings: refused before allocating, or by the buffer that grows. */
    expect_memory_fault("pcall(string.rep, 'x', 1 << 30) return 'caught'");
    expect_memory_fault("local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 16) end\n"
                        "pcall(table.concat, t, ('y'):rep(1 << 16)) return 'caught'");
    NAV_TEST_LEAK_CHECK();
}

Test(sandbox_work, garbage_near_the_cap_is_collected_not_faulted)
{
    /* 2.5 MiB held and 100 KiB strings thrown away: the heap passes the
    ** 4 MiB cap between collections, Lua's emergency collection makes
    ** room, and the script goes on. */
    Sandbox *sb = make(4u << 20, 0);
    NavError err;
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local keep = {} for i = 1, 40 do keep[i] = ('k'):rep(65536) .. i end\n"
                                "local n, g = 0, ('g'):rep(100000)\n"
                                "for i = 1, 400 do n = n + #(g .. i) + #g:rep(1) end\n"
                                "return n",
                                &err)),
              "%s", err.message);
    cr_assert(sandbox_hit_memory_limit(sb), "the cap was never met: the test shows nothing");
    lua_pop(sandbox_state(sb), 1);
    /* And an error that is not the cap's is caught as usual after a refusal. */
    cr_assert(NAV_SUCCEEDED(run(sb,
                                "local keep = {} for i = 1, 40 do keep[i] = ('k'):rep(65536) .. i end\n"
                                "local g = ('g'):rep(100000) for i = 1, 400 do local _ = g .. i end\n"
                                "return select(2, pcall(error, 'mine', 0))",
                                &err)),
              "%s", err.message);
    cr_assert_str_eq(lua_tostring(sandbox_state(sb), -1), "mine");
    lua_pop(sandbox_state(sb), 1);
    sandbox_destroy(sb);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

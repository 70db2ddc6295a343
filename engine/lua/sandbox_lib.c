/*
** sandbox_lib.c — counted string and table functions (sandbox_lib.h).
*/
#include "lua/sandbox_lib.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lua/sandbox.h"
#include "lua/sandbox_match.h"

/* Bytes copied or scanned per instruction charged (the allocator charges
** what it hands out at the same rate). */
#define BYTES_PER_STEP SANDBOX_BYTES_PER_INSTRUCTION

/* The longest string Lua makes (lstrlib's MAX_SIZE on 64-bit builds). */
#define MAX_STRING ((size_t)(sizeof(size_t) < sizeof(lua_Integer) ? (size_t)-1 : (size_t)LUA_MAXINTEGER))

/* {======= positions (as Lua 5.4's string functions read them) ======= */

/* A start position: negative counts from the end, 0 and anything before
** the start mean 1. */
static size_t start_of(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

/* An end position: clipped to [0, len]. */
static size_t end_of(lua_Integer pos, size_t len)
{
    if (pos > (lua_Integer)len) return len;
    if (pos >= 0) return (size_t)pos;
    if (pos < -(lua_Integer)len) return 0;
    return len + (size_t)pos + 1;
}

/* }======= */

/* {======= find, match, gmatch, gsub ======= */

/* Charges the steps m took; raises the pattern's error or the budget's. */
static void settle(lua_State *L, SbMatch *m)
{
    sandbox_charge(L, m->steps);
    m->steps = 0;
    /* A spent limit was spent against the budget: the charge raised. */
    if (m->status == SBM_ERROR) luaL_error(L, "%s", m->error);
}

static void reset(lua_State *L, SbMatch *m)
{
    m->limit = sandbox_budget_left(L);
    m->steps = 0;
}

/* Capture i of the match s..e (the whole match when there are no
** captures and i is 0). */
static void push_capture(lua_State *L, const SbMatch *m, int i, const char *s, const char *e)
{
    if (i >= m->level) {
        if (i != 0) luaL_error(L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t len = m->cap[i].len;
    if (len == SBM_CAP_OPEN) luaL_error(L, "unfinished capture");
    if (len == SBM_CAP_POSITION) lua_pushinteger(L, (lua_Integer)(m->cap[i].start - m->src) + 1);
    else lua_pushlstring(L, m->cap[i].start, (size_t)len);
}

/* Pushes the captures (or, if whole and there are none, the match). */
static int push_captures(lua_State *L, const SbMatch *m, const char *s, const char *e, bool whole)
{
    int n = (m->level == 0 && whole) ? 1 : m->level;
    luaL_checkstack(L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(L, m, i, s, e);
    return n;
}

static int find_or_match(lua_State *L, bool find)
{
    size_t len, plen;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &plen);
    size_t init = start_of(luaL_optinteger(L, 3, 1), len) - 1;
    if (init > len) {
        luaL_pushfail(L);
        return 1;
    }
    SbMatch m;
    sbm_init(&m, s, len, p, plen, sandbox_budget_left(L));
    if (find && (lua_toboolean(L, 4) || sbm_is_plain(p, plen))) {
        const char *hit = sbm_find_plain(&m, s + init, p, plen);
        settle(L, &m);
        if (!hit) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
        lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)plen);
        return 2;
    }
    bool anchored = plen > 0 && *p == '^';
    const char *start = NULL;
    const char *e = sbm_search(&m, s + init, anchored ? p + 1 : p, anchored, &start);
    settle(L, &m);
    if (!e) {
        luaL_pushfail(L);
        return 1;
    }
    if (!find) return push_captures(L, &m, start, e, true);
    lua_pushinteger(L, (lua_Integer)(start - s) + 1);
    lua_pushinteger(L, (lua_Integer)(e - s));
    return push_captures(L, &m, NULL, NULL, false) + 2;
}

static int sb_find(lua_State *L) { return find_or_match(L, true); }
static int sb_match(lua_State *L) { return find_or_match(L, false); }

/* gmatch's state: upvalues 1 and 2 keep subject and pattern alive. */
typedef struct {
    const char *next;      /* where the next search starts */
    const char *lastmatch; /* end of the last match: no empty match there again */
    SbMatch m;
} GMatch;

static int gmatch_next(lua_State *L)
{
    GMatch *g = lua_touserdata(L, lua_upvalueindex(3));
    SbMatch *m = &g->m;
    reset(L, m);
    for (const char *s = g->next; s <= m->src_end; s++) {
        const char *e = sbm_match_at(m, s, m->pat);
        if (m->status != SBM_OK) break;
        if (e && e != g->lastmatch) {
            g->next = g->lastmatch = e;
            settle(L, m);
            return push_captures(L, m, s, e, true);
        }
    }
    settle(L, m);
    g->next = m->src_end + 1; /* done: later calls return nothing */
    return 0;
}

static int sb_gmatch(lua_State *L)
{
    size_t len, plen;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &plen);
    size_t init = start_of(luaL_optinteger(L, 3, 1), len) - 1;
    lua_settop(L, 2);
    GMatch *g = lua_newuserdatauv(L, sizeof *g, 0);
    if (init > len) init = len + 1; /* past the end: no match at all */
    /* '^' is an ordinary character here, as in stock Lua: an anchored
    ** iteration could only ever match once. */
    sbm_init(&g->m, s, len, p, plen, 0);
    g->next = s + init;
    g->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

/* Appends the replacement string (argument 3) for the match s..e. */
static void add_template(lua_State *L, luaL_Buffer *b, const SbMatch *m, const char *s, const char *e)
{
    size_t len;
    const char *t = lua_tolstring(L, 3, &len);
    const char *end = t + len;
    while (t < end) {
        const char *esc = memchr(t, '%', (size_t)(end - t));
        if (!esc) {
            luaL_addlstring(b, t, (size_t)(end - t));
            return;
        }
        luaL_addlstring(b, t, (size_t)(esc - t));
        t = esc + 1;
        if (t < end && *t == '%') {
            luaL_addchar(b, '%');
        } else if (t < end && *t >= '0' && *t <= '9') {
            if (*t == '0') {
                luaL_addlstring(b, s, (size_t)(e - s));
            } else {
                push_capture(L, m, *t - '1', s, e);
                luaL_tolstring(L, -1, NULL);
                lua_remove(L, -2);
                luaL_addvalue(b);
            }
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", '%');
        }
        t++;
    }
}

/* Appends the replacement for s..e; false when the match is kept as is. */
static bool add_replacement(lua_State *L, luaL_Buffer *b, const SbMatch *m, const char *s, const char *e, int type)
{
    if (type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(L, m, s, e, true);
        lua_call(L, n, 1);
    } else if (type == LUA_TTABLE) {
        push_capture(L, m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(L, b, m, s, e);
        return true;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return false;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return true;
}

static int sb_gsub(lua_State *L)
{
    size_t len, plen;
    const char *src = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &plen);
    int type = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)len + 1);
    luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE, 3,
                     "string/function/table");
    bool anchored = plen > 0 && *p == '^';
    if (anchored) p++, plen--;
    /* The matcher lives in a userdata: a replacement function may call
    ** gsub again, and the C stack is not the place for many of these. */
    SbMatch *m = lua_newuserdatauv(L, sizeof *m, 0);
    sbm_init(m, src, len, p, plen, 0);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *s = src, *lastmatch = NULL;
    lua_Integer n = 0;
    bool changed = false;
    /* Steps are charged when Lua code is about to run (a replacement
    ** function or __index) and at the end; until then the limit is what
    ** was left at the last charge. */
    bool runs_lua = type == LUA_TFUNCTION || type == LUA_TTABLE;
    reset(L, m);
    while (n < max) {
        const char *e = sbm_match_at(m, s, p);
        if (m->status != SBM_OK) settle(L, m);
        if (e && e != lastmatch) {
            n++;
            if (runs_lua) settle(L, m);
            changed = add_replacement(L, &b, m, s, e, type) | changed;
            if (runs_lua) reset(L, m);
            s = lastmatch = e;
        } else if (s < m->src_end) {
            luaL_addchar(&b, *s++);
        } else {
            break;
        }
        if (anchored) break;
    }
    settle(L, m);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, s, (size_t)(m->src_end - s));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

/* }======= */

/* {======= rep and concat ======= */

static int sb_rep(lua_State *L)
{
    size_t len, seplen;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &seplen);
    if (n <= 0 || len + seplen == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (len + seplen < len || len + seplen > MAX_STRING / (size_t)n) return luaL_error(L, "resulting string too large");
    size_t total = (size_t)n * len + (size_t)(n - 1) * seplen;
    /* Before the allocation: a string over the cap cannot be made, and its
    ** copying is paid for up front (the allocator charges the buffer and
    ** the string as it makes them). */
    if (total > sandbox_memory_cap(L)) return sandbox_memory_fault(L);
    sandbox_charge(L, total / BYTES_PER_STEP);
    /* A userdata, not a luaL_Buffer: Lua makes it, so an allocation at the
    ** cap gets an emergency collection first (lauxlib's buffers do not). */
    char *out = lua_newuserdatauv(L, total, 0);
    /* One period (s and sep), then the text so far copied onto its own end:
    ** log n copies rather than n. */
    memcpy(out, s, len);
    size_t done = len;
    if (n > 1) {
        memcpy(out + len, sep, seplen);
        done += seplen;
    }
    while (done < total) {
        size_t chunk = done < total - done ? done : total - done;
        memcpy(out + done, out, chunk);
        done += chunk;
    }
    lua_pushlstring(L, out, total);
    return 1;
}

/* Argument 1 must be a table, or act as one (__index and __len), as for
** the stock table functions. */
static void check_table(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TTABLE) return;
    bool ok = false;
    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__index");
        ok = lua_rawget(L, -2) != LUA_TNIL;
        lua_pushliteral(L, "__len");
        ok = lua_rawget(L, -3) != LUA_TNIL && ok;
        lua_pop(L, 3);
    }
    if (!ok) luaL_checktype(L, 1, LUA_TTABLE);
}

static int sb_concat(lua_State *L)
{
    check_table(L);
    lua_Integer last = luaL_len(L, 1);
    size_t seplen;
    const char *sep = luaL_optlstring(L, 2, "", &seplen);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i <= last; i++) {
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), i);
        /* Copying is charged as the buffer grows (the allocator). */
        sandbox_charge(L, 1);
        luaL_addvalue(&b);
        if (i < last) luaL_addlstring(&b, sep, seplen);
        if (i == LUA_MAXINTEGER) break;
    }
    luaL_pushresult(&b);
    return 1;
}

/* }======= */

/* {======= the stock functions, charged first ======= */

enum Cost { COST_SLICE, COST_UNPACK, COST_INSERT, COST_REMOVE, COST_MOVE, COST_SORT, COST_SUBJECT };

static lua_Integer int_arg(lua_State *L, int i, lua_Integer dflt)
{
    int ok;
    lua_Integer v = lua_tointegerx(L, i, &ok);
    return ok ? v : dflt;
}

/* What the stock function is about to do, in instructions, read from its
** arguments without raising (it checks them itself); 0 when they are bad. */
static uint64_t cost_of(lua_State *L, enum Cost kind)
{
    size_t len = 0;
    lua_Integer n = lua_type(L, 1) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, 1) : 0;
    switch (kind) {
    case COST_SLICE: { /* s, i = 1, j = i: a value per byte of s[i..j] */
        if (!lua_tolstring(L, 1, &len)) return 0;
        lua_Integer i = int_arg(L, 2, 1);
        size_t a = start_of(i, len), z = end_of(int_arg(L, 3, i), len);
        return a > z ? 0 : z - a + 1;
    }
    case COST_UNPACK: { /* t, i = 1, j = #t */
        lua_Integer i = int_arg(L, 2, 1), j = int_arg(L, 3, n);
        return i > j ? 0 : (uint64_t)j - (uint64_t)i + 1;
    }
    case COST_INSERT:   /* t, pos, v: #t - pos + 1 moved up */
    case COST_REMOVE: { /* t, pos: #t - pos moved down */
        if (lua_gettop(L) != (kind == COST_INSERT ? 3 : 2)) return 0;
        lua_Integer pos = int_arg(L, 2, n);
        return pos >= 1 && pos < n ? (uint64_t)(n - pos) : 0;
    }
    case COST_MOVE: { /* a1, f, e, t */
        lua_Integer f = int_arg(L, 2, 1), e = int_arg(L, 3, 0);
        return f > e ? 0 : (uint64_t)e - (uint64_t)f + 1;
    }
    case COST_SORT: { /* n log2 n comparisons */
        uint64_t c = 0;
        for (lua_Integer k = n; k > 1; k >>= 1) c += (uint64_t)n;
        return c;
    }
    case COST_SUBJECT: return lua_tolstring(L, 1, &len) ? len / BYTES_PER_STEP : 0;
    }
    return 0;
}

/* Errors the stock functions raise themselves, without a position: raised
** again from here, they get the caller's position as they would have. */
static const char *const OWN_ERRORS[] = {
    "string slice too long",     "too many results to unpack", "wrong number of arguments to 'insert'",
    "too many elements to move", "destination wrap around",    "initial position is a continuation byte",
    "invalid UTF-8 code",
};

/* Upvalues: the stock function, its cost kind. The stock function is
** called from C, so its argument errors read "bad argument #2 to '?'";
** they are raised again from here, where Lua knows the name the script
** called (and, for a method call, numbers the arguments as it would). */
static int charged_call(lua_State *L)
{
    sandbox_charge(L, 1 + cost_of(L, (enum Cost)lua_tointeger(L, lua_upvalueindex(2))));
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (lua_pcall(L, n, LUA_MULTRET, 0) == LUA_OK) return lua_gettop(L);
    const char *msg = lua_tostring(L, -1);
    int arg;
    int at = 0;
    if (msg && sscanf(msg, "bad argument #%d to '?' (%n", &arg, &at) == 1 && at > 0) {
        size_t len = strlen(msg + at);
        lua_pushlstring(L, msg + at, len > 0 ? len - 1 : 0); /* without the closing ')' */
        return luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    for (size_t i = 0; msg && i < sizeof OWN_ERRORS / sizeof OWN_ERRORS[0]; i++)
        if (strcmp(msg, OWN_ERRORS[i]) == 0) return luaL_error(L, "%s", msg);
    return lua_error(L);
}

static void charge_stock(lua_State *L, const char *name, enum Cost kind)
{
    lua_getfield(L, -1, name);
    lua_pushinteger(L, kind);
    lua_pushcclosure(L, charged_call, 2);
    lua_setfield(L, -2, name);
}

/* }======= */

/* table.sort as a stable merge sort: the stock one picks a pivot from
** the clock once a partition goes badly, so equal elements (or an order
** function that is not one) could land differently from run to run, and a
** brain's same seed would no longer give the same run. Here the order of
** equal elements is their order before, always. The comparisons are
** charged up front (n log2 n); a comparator's own code counts as it runs. */
static bool sort_less(lua_State *L, int a, int b)
{
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a < 0 ? a - 1 : a);
    lua_pushvalue(L, b < 0 ? b - 2 : b);
    lua_call(L, 2, 1);
    bool r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
}

/* Merges src[lo..mid) and src[mid..hi) into dst (tables at src, dst). */
static void sort_merge(lua_State *L, int src, int dst, lua_Integer lo, lua_Integer mid, lua_Integer hi)
{
    lua_Integer i = lo, j = mid;
    for (lua_Integer k = lo; k < hi; k++) {
        bool left = j >= hi;
        if (!left && i < mid) {
            lua_geti(L, src, i);
            lua_geti(L, src, j);
            left = !sort_less(L, -1, -2); /* the right one only when strictly less */
            lua_pop(L, 2);
        }
        lua_geti(L, src, left ? i++ : j++);
        lua_seti(L, dst, k);
    }
}

static int sb_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        sandbox_charge(L, 1 + cost_of(L, COST_SORT));
        /* Bottom up, between the array (1-based) and a scratch table. */
        lua_createtable(L, (int)n, 0);
        int src = 1, dst = 3;
        for (lua_Integer w = 1; w < n; w *= 2) {
            for (lua_Integer lo = 1; lo <= n; lo += 2 * w) {
                lua_Integer mid = lo + w > n + 1 ? n + 1 : lo + w;
                lua_Integer hi = lo + 2 * w > n + 1 ? n + 1 : lo + 2 * w;
                sort_merge(L, src, dst, lo, mid, hi);
            }
            int s = src;
            src = dst, dst = s;
        }
        if (src != 1)
            for (lua_Integer k = 1; k <= n; k++) lua_geti(L, src, k), lua_seti(L, 1, k);
    }
    return 0;
}

void sandbox_lib_open(lua_State *L)
{
    lua_getglobal(L, "string");
    static const luaL_Reg own_string[] = {
        { "find", sb_find }, { "match", sb_match }, { "gmatch", sb_gmatch },
        { "gsub", sb_gsub }, { "rep", sb_rep },     { NULL, NULL },
    };
    luaL_setfuncs(L, own_string, 0);
    charge_stock(L, "byte", COST_SLICE);
    lua_pop(L, 1);

    lua_getglobal(L, "table");
    lua_pushcfunction(L, sb_concat);
    lua_setfield(L, -2, "concat");
    charge_stock(L, "unpack", COST_UNPACK);
    charge_stock(L, "insert", COST_INSERT);
    charge_stock(L, "remove", COST_REMOVE);
    charge_stock(L, "move", COST_MOVE);
    lua_pushcfunction(L, sb_sort);
    lua_setfield(L, -2, "sort");
    lua_pop(L, 1);

    lua_getglobal(L, "utf8");
    charge_stock(L, "codepoint", COST_SLICE);
    charge_stock(L, "len", COST_SUBJECT);
    charge_stock(L, "offset", COST_SUBJECT);
    lua_pop(L, 1);
}

/*
** sandbox.c — capped, budgeted Lua states for untrusted scripts.
*/
#include "lua/sandbox.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lua/sandbox_lib.h"

/* The hook fires every HOOK_STEP instructions; smaller is more precise,
** larger is cheaper. 1000 costs well under 1% of run time. */
#define HOOK_STEP SANDBOX_HOOK_STEP

struct Sandbox {
    lua_State *L;
    size_t used;
    size_t limit;
    size_t peak;
    uint64_t instruction_limit;
    uint64_t budget; /* the limit in force: instruction_limit or sandbox_budget_begin's */
    uint64_t instructions;
    char budget_unit[16]; /* " per tick": said after the budget in messages */
    size_t alloc_bytes;   /* allocated under the budget, not yet charged */
    lua_State *thread;    /* the thread the budget is on */
    bool counting;        /* a budget is in force (sandbox_call, budget_begin) */
    bool armed;           /* thread's hook set to fire at its next instruction */
    bool hit_memory;      /* an allocation was refused at the cap, or by the allocator */
    bool hit_allocator;   /* the process's allocator (nav_realloc) refused one */
    bool memory_fault;    /* a script saw the cap's error: no catching it */
    bool hit_instructions;
    char what[48];
    void (*print)(void *user, const char *line);
    void *print_user;
};

static void budget_hook(lua_State *L, lua_Debug *ar);

/* {======= allocator with a cap (lua_Alloc contract, manual 4.6) ======= */

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Sandbox *sb = ud;
    size_t old = ptr ? osize : 0; /* without ptr, osize is a type tag */
    if (nsize == 0) {
        nav_free(ptr);
        sb->used -= old;
        return NULL;
    }
    if (nsize > old && sb->used - old + nsize > sb->limit) {
        sb->hit_memory = true;
        return NULL;
    }
    void *p = nav_realloc(ptr, nsize);
    if (!p) {
        /* Lua takes a shrink to succeed (manual 4.6): the block stays as
        ** big as it was, which is Lua's to forget. */
        if (ptr && nsize <= old) p = ptr;
        else {
            /* The process's allocator refused, under the cap: the same
            ** for the script as the cap (it may not go on), said apart. */
            sb->hit_memory = true;
            sb->hit_allocator = true;
            return NULL;
        }
    }
    sb->used = sb->used - old + nsize;
    if (sb->used > sb->peak) sb->peak = sb->used;
    if (nsize > old && sb->counting) {
        /* Making a string or table of n bytes is work in proportion to n,
        ** done inside one instruction (`..`, string.format, upper): it is
        ** charged to the budget. Once that spends the budget, the hook is
        ** set to fire at the thread's next instruction (lua_sethook is
        ** safe anywhere), so a loop of huge concatenations stops there. */
        sb->alloc_bytes += nsize - old;
        if (!sb->armed && sb->instructions + sb->alloc_bytes / SANDBOX_BYTES_PER_INSTRUCTION > sb->budget) {
            sb->armed = true;
            lua_sethook(sb->thread, budget_hook, LUA_MASKCOUNT, 1);
        }
    }
    return p;
}

/* }======= */

/* {======= instruction budget ======= */

static int budget_error(lua_State *L, Sandbox *sb)
{
    return luaL_error(L, "instruction budget of %I%s exceeded (endless loop?)", (lua_Integer)sb->budget,
                      sb->budget_unit);
}

/* The error a script may not catch once the cap was hit (see guarded_call). */
static int memory_error(lua_State *L)
{
    lua_pushliteral(L, "not enough memory");
    return lua_error(L);
}

/* Folds allocations into the count; true when the budget is spent. */
static bool spent(Sandbox *sb, uint64_t more)
{
    sb->instructions += sb->alloc_bytes / SANDBOX_BYTES_PER_INSTRUCTION;
    sb->alloc_bytes %= SANDBOX_BYTES_PER_INSTRUCTION;
    sb->instructions = more > UINT64_MAX - sb->instructions ? UINT64_MAX : sb->instructions + more;
    return sb->instructions > sb->budget;
}

/* Threads inherit the hook of the thread that creates them (lua_newthread),
** so coroutines a script makes are counted too, against whichever budget is
** in force when they run. */
static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    lua_getallocf(L, &ud);
    Sandbox *sb = ud;
    if (sb->memory_fault) memory_error(L);
    if (spent(sb, sb->armed ? 0 : HOOK_STEP)) {
        sb->hit_instructions = true;
        /* In a hook, level 0 is the function that was running. */
        luaL_where(L, 0);
        lua_pushfstring(L, "instruction budget of %I%s exceeded (endless loop?)", (lua_Integer)sb->budget,
                        sb->budget_unit);
        lua_concat(L, 2);
        lua_error(L);
    }
    if (sb->armed && L == sb->thread) {
        sb->armed = false;
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
    }
}

/* The sandbox of L, when L is a sandbox's state under its budget. */
static Sandbox *counting(lua_State *L)
{
    void *ud;
    if (lua_getallocf(L, &ud) != capped_alloc || lua_gethook(L) != budget_hook) return NULL;
    return ud;
}

void sandbox_charge(lua_State *L, uint64_t instructions)
{
    Sandbox *sb = counting(L);
    if (sb && spent(sb, instructions)) {
        sb->hit_instructions = true;
        budget_error(L, sb);
    }
}

uint64_t sandbox_budget_left(lua_State *L)
{
    Sandbox *sb = counting(L);
    if (!sb) return UINT64_MAX;
    spent(sb, 0);
    return sb->instructions >= sb->budget ? 0 : sb->budget - sb->instructions;
}

size_t sandbox_memory_cap(lua_State *L)
{
    void *ud;
    return lua_getallocf(L, &ud) == capped_alloc ? ((Sandbox *)ud)->limit : SIZE_MAX;
}

int sandbox_memory_fault(lua_State *L)
{
    void *ud;
    if (lua_getallocf(L, &ud) == capped_alloc) {
        Sandbox *sb = ud;
        sb->hit_memory = true;
        sb->memory_fault = true;
    }
    return memory_error(L);
}

/* The text Lua raises when an allocation fails (and lauxlib's buffers
** too); a coroutine.wrap or an engine function may have put a position or
** a prefix before it. */
static bool says_out_of_memory(const char *msg) { return msg && strstr(msg, "not enough memory"); }

bool sandbox_memory_error(const Sandbox *sb, int status, const char *msg)
{
    return status == LUA_ERRMEM || sb->memory_fault || (sb->hit_memory && says_out_of_memory(msg));
}

/* }======= */

/* {======= environment ======= */

static const char *const FORBIDDEN[] = {
    "io", "os", "debug", "package", "require", "load", "loadfile", "dofile", "collectgarbage", "loadstring",
};

static int forbidden_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (key) {
        for (size_t i = 0; i < NAV_ARRAY_COUNT(FORBIDDEN); i++) {
            if (strcmp(key, FORBIDDEN[i]) == 0) {
                Sandbox *sb = lua_touserdata(L, lua_upvalueindex(1));
                return luaL_error(L, "'%s' is not available in %s (sandbox)", key, sb->what);
            }
        }
    }
    return 0;
}

static int sandbox_print(lua_State *L)
{
    Sandbox *sb = lua_touserdata(L, lua_upvalueindex(1));
    int n = lua_gettop(L); /* before buffinit, which may push a placeholder */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    if (sb->print) sb->print(sb->print_user, lua_tostring(L, -1));
    return 0;
}

/* pcall, xpcall, coroutine.resume and coroutine.close catch errors,
** including the one the budget hook raises; wrapped, they pass it on once
** the budget is spent, so `while true do pcall(f) end` still ends. The
** same for the memory cap: a call that failed with Lua's "not enough
** memory" after an allocation was refused at the cap marks the state, and
** from then on every catcher (and the hook) raises it again, so a script
** at its cap stops rather than going on without the memory it asked for.
** (A refusal that Lua's emergency collection got round, followed by some
** other error, is not the cap's doing and is caught as usual.) The
** upvalue is the original function; each returns false and the error on
** failure. */
static int rethrow_if_spent(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    void *ud;
    lua_getallocf(L, &ud);
    Sandbox *sb = ud;
    if (sb->hit_instructions) return budget_error(L, sb);
    if (!sb->memory_fault && sb->hit_memory && lua_type(L, 1) == LUA_TBOOLEAN && !lua_toboolean(L, 1) &&
        lua_type(L, 2) == LUA_TSTRING && says_out_of_memory(lua_tostring(L, 2)))
        sb->memory_fault = true;
    if (sb->memory_fault) return memory_error(L);
    return lua_gettop(L);
}

static int guarded_call(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, rethrow_if_spent);
    return rethrow_if_spent(L, LUA_OK, 0);
}

static void guard(lua_State *L, int table, const char *name)
{
    lua_getfield(L, table, name);
    lua_pushcclosure(L, guarded_call, 1);
    lua_setfield(L, table, name);
}

/* xpcall's handler sees the error first and may return anything: it is
** run through this (upvalue: the script's handler), which marks the cap's
** error before the handler can hide it. */
static int guarded_handler(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    Sandbox *sb = ud;
    if (sb->hit_memory && lua_type(L, 1) == LUA_TSTRING && says_out_of_memory(lua_tostring(L, 1)))
        sb->memory_fault = true;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int guarded_xpcall(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TFUNCTION) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, guarded_handler, 1);
        lua_replace(L, 2);
    }
    return guarded_call(L);
}

/* Finalizers run with debug hooks off (lgc.c, GCTM), so no budget could
** stop an endless loop in one: setmetatable refuses a metatable with __gc.
** (Lua marks an object for finalization only if __gc is there when the
** metatable is set, so adding it later does nothing.) */
static int guarded_setmetatable(lua_State *L)
{
    /* Checked here so errors name this function, not the wrapped one. */
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, lua_type(L, 2) == LUA_TNIL || lua_type(L, 2) == LUA_TTABLE, 2, "nil or table");
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) {
            Sandbox *sb = lua_touserdata(L, lua_upvalueindex(2));
            return luaL_error(L,
                              "__gc metamethods are not available in %s (sandbox): a finalizer runs "
                              "outside the instruction budget",
                              sb->what);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

static int open_libs(lua_State *L)
{
    Sandbox *sb = lua_touserdata(L, 1);
    lua_Integer seed = lua_tointeger(L, 2); /* read before settop drops it */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_settop(L, 1);

    lua_pushglobaltable(L);
    for (size_t i = 0; i < NAV_ARRAY_COUNT(FORBIDDEN); i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, FORBIDDEN[i]);
    }
    lua_pushlightuserdata(L, sb);
    lua_pushcclosure(L, sandbox_print, 1);
    lua_setfield(L, -2, "print");

    lua_getfield(L, -1, "setmetatable");
    lua_pushlightuserdata(L, sb);
    lua_pushcclosure(L, guarded_setmetatable, 2);
    lua_setfield(L, -2, "setmetatable");

    guard(L, lua_gettop(L), "pcall");
    lua_getfield(L, -1, "xpcall");
    lua_pushcclosure(L, guarded_xpcall, 1);
    lua_setfield(L, -2, "xpcall");
    lua_getfield(L, -1, "coroutine");
    guard(L, lua_gettop(L), "resume");
    guard(L, lua_gettop(L), "close");
    lua_pop(L, 1);
    sandbox_lib_open(L);

    /* string.dump makes binary chunks; nothing here may load them. */
    lua_getfield(L, -1, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);

    /* math.random is seeded from the clock at open; runs must repeat. */
    lua_getfield(L, -1, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    lua_createtable(L, 0, 1);
    lua_pushlightuserdata(L, sb);
    lua_pushcclosure(L, forbidden_index, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    return 0;
}

/* }======= */

Sandbox *sandbox_create(const SandboxDesc *desc, NavError *err)
{
    const char *what = desc->what ? desc->what : "scripts";
    Sandbox *sb = nav_calloc(1, sizeof *sb);
    if (!sb) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory creating a Lua state for %s", what);
        return NULL;
    }
    sb->limit = desc->memory_limit ? desc->memory_limit : SANDBOX_DEFAULT_MEMORY;
    sb->instruction_limit = desc->instruction_limit ? desc->instruction_limit : SANDBOX_DEFAULT_INSTRUCTIONS;
    sb->budget = sb->instruction_limit;
    snprintf(sb->what, sizeof sb->what, "%s", what);
    sb->print = desc->print;
    sb->print_user = desc->print_user;
    sb->L = lua_newstate(capped_alloc, sb);
    if (!sb->L) {
        nav_free(sb);
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory creating a Lua state for %s", what);
        return NULL;
    }
    lua_State *L = sb->L;
    lua_pushcfunction(L, open_libs);
    lua_pushlightuserdata(L, sb);
    lua_pushinteger(L, (lua_Integer)desc->seed);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory setting up a Lua state for %s: %s", what,
                      lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
        lua_close(L);
        nav_free(sb);
        return NULL;
    }
    return sb;
}

void sandbox_destroy(Sandbox *sb)
{
    if (!sb) return;
    lua_close(sb->L);
    nav_free(sb);
}

lua_State *sandbox_state(Sandbox *sb) { return sb->L; }
size_t sandbox_memory(const Sandbox *sb) { return sb->used; }
size_t sandbox_memory_peak(const Sandbox *sb) { return sb->peak; }
size_t sandbox_memory_limit(const Sandbox *sb) { return sb->limit; }
bool sandbox_hit_memory_limit(const Sandbox *sb) { return sb->hit_memory; }
bool sandbox_hit_allocator(const Sandbox *sb) { return sb->hit_allocator; }
bool sandbox_hit_instruction_limit(const Sandbox *sb) { return sb->hit_instructions; }

bool sandbox_message_position(const char *msg, char *file, size_t cap, int *line, const char **rest)
{
    /* The first ":N:" of the first line: a chunk name may hold colons. */
    for (const char *p = msg ? strchr(msg, ':') : NULL; p; p = strchr(p + 1, ':')) {
        if (memchr(msg, '\n', (size_t)(p - msg))) return false;
        char *end;
        long n = strtol(p + 1, &end, 10);
        if (end == p + 1 || *end != ':' || n <= 0 || n >= 100000000) continue;
        if (file && cap) {
            size_t len = (size_t)(p - msg);
            if (len >= cap) len = cap - 1;
            memcpy(file, msg, len);
            file[len] = '\0';
        }
        if (line) *line = (int)n;
        if (rest) *rest = end[1] == ' ' ? end + 2 : end + 1;
        return true;
    }
    return false;
}

static int line_of_message(const char *msg)
{
    int line = 0;
    return sandbox_message_position(msg, NULL, 0, &line, NULL) ? line : 0;
}

static const char *file_of_chunk(const char *chunkname)
{
    return (chunkname && (chunkname[0] == '@' || chunkname[0] == '=')) ? chunkname + 1 : chunkname;
}

NavStatus sandbox_load(Sandbox *sb, const char *buf, size_t len, const char *chunkname, NavError *err)
{
    lua_State *L = sb->L;
    int rc = luaL_loadbufferx(L, buf, len, chunkname, "t");
    if (rc == LUA_OK) return NAV_OK;
    const char *msg = lua_tostring(L, -1);
    NavStatus s;
    if ((rc == LUA_ERRMEM || sb->hit_memory) && sb->hit_allocator)
        s = nav_error_set(err, NAV_E_NOMEM, file_of_chunk(chunkname), 0, 0, NULL,
                          "out of memory compiling (the allocator refused)");
    else if (rc == LUA_ERRMEM || sb->hit_memory)
        s = nav_error_set(err, NAV_E_NOMEM, file_of_chunk(chunkname), 0, 0, NULL,
                          "out of memory compiling (limit %zu bytes)", sb->limit);
    else if (msg && strstr(msg, "binary chunk"))
        s = nav_error_set(err, NAV_E_FORMAT, file_of_chunk(chunkname), 0, 0, NULL,
                          "not a text file: binary (precompiled) chunks are refused");
    else
        s = nav_error_set(err, NAV_E_FORMAT, file_of_chunk(chunkname), line_of_message(msg), 0, NULL,
                          "syntax error: %s", msg ? msg : "?");
    lua_pop(L, 1);
    return s;
}

static void start_budget(Sandbox *sb, lua_State *thread, uint64_t limit, const char *unit)
{
    sb->instructions = 0;
    sb->alloc_bytes = 0;
    sb->budget = limit;
    nav_copy_text(sb->budget_unit, sizeof sb->budget_unit, unit); /* every bot, every tick: no snprintf */
    sb->hit_memory = false;
    sb->hit_allocator = false;
    sb->memory_fault = false;
    sb->hit_instructions = false;
    sb->thread = thread;
    sb->counting = true;
    sb->armed = false;
    /* Setting the hook also restarts the thread's count (lua_sethook). */
    lua_sethook(thread, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
}

static int traceback_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

NavStatus sandbox_call(Sandbox *sb, int nargs, int nresults, NavError *err)
{
    lua_State *L = sb->L;
    int base = lua_gettop(L) - nargs; /* the function's slot */
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    bool was_counting = sb->counting;
    lua_State *was_thread = sb->thread;
    start_budget(sb, L, sb->instruction_limit, NULL);
    int rc = lua_pcall(L, nargs, nresults, base);
    lua_sethook(L, NULL, 0, 0);
    sb->counting = was_counting;
    sb->thread = was_thread;
    lua_remove(L, base);
    if (rc == LUA_OK) return NAV_OK;

    const char *msg = lua_tostring(L, -1);
    NavStatus detail = NAV_E_FORMAT;
    if (sandbox_memory_error(sb, rc, msg)) detail = NAV_E_NOMEM;
    else if (sb->hit_instructions) detail = NAV_E_BUDGET;
    NavStatus s;
    if (detail == NAV_E_NOMEM && sb->hit_allocator)
        s = nav_error_set(err, detail, NULL, line_of_message(msg), 0, NULL,
                          "ran out of memory (the allocator refused)");
    else if (detail == NAV_E_NOMEM)
        s = nav_error_set(err, detail, NULL, line_of_message(msg), 0, NULL, "ran out of memory (limit %zu MiB)",
                          sb->limit >> 20);
    else s = nav_error_set(err, detail, NULL, line_of_message(msg), 0, NULL, "%s", msg ? msg : "error");
    lua_pop(L, 1);
    return s;
}

void sandbox_budget_begin(Sandbox *sb, lua_State *thread, uint64_t limit, const char *unit)
{
    start_budget(sb, thread, limit ? limit : sb->instruction_limit, unit);
}

uint64_t sandbox_budget_end(Sandbox *sb, lua_State *thread)
{
    lua_sethook(thread, NULL, 0, 0);
    sb->counting = false;
    spent(sb, 0);
    return sb->instructions;
}

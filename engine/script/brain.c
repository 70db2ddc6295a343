/*
** brain.c — the brain host: sandbox states per brain file, a coroutine and
** an environment per bot, faults, hot reload. brain.h has the protocol.
**
** Invariants:
**   - Every Lua API call on a state that can allocate runs in protected
**     mode (protect(), sandbox_call, lua_resume, lua_load), so a state at
**     its memory cap gives an error, never a panic. What runs outside is
**     what cannot allocate: pushing registry values onto a thread's
**     guaranteed stack slots, lua_sethook, lua_getstack/lua_getinfo.
**   - The main thread's stack is empty between operations.
**   - A live bot owns registry refs to its thread, environment, bot value,
**     brain table and think/behave; a faulted one owns none (they were
**     released, so its memory can be collected) but keeps its slot and
**     error until detached.
**   - Script code runs only inside a budget: sandbox_call for chunks, a
**     thread budget (sandbox_budget_begin) for spawn/think/behave and for
**     __close handlers run while closing a bot's coroutine.
*/
#include "script/brain.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/timer.h"
#include "lua/sandbox.h"

/* {======= Types ======= */

#define PATH_CAP 4096
#define FILE_CAP (BRAIN_ROOT_MAX + BRAIN_NAME_MAX + 16) /* "ROOT/lua/ai/path.lua" */
#define GEN_SHIFT 20
#define GEN_MAX 2047 /* 11 bits: handles stay positive ints */

typedef struct FileStamp {
    bool exists;
    long long sec;
    long nsec;
    long long size;
} FileStamp;

typedef struct Module {
    char name[BRAIN_NAME_MAX];
    char file[FILE_CAP]; /* "lua/ai/path.lua" */
    int root;            /* index into the extra roots, or -1: the host's root */
    FileStamp stamp;     /* the version loaded */
    FileStamp failed;    /* a version that failed to reload: not reported twice */
} Module;

typedef struct Brain {
    BrainHost *host;
    int index;
    char name[BRAIN_NAME_MAX];
    char file[FILE_CAP]; /* "bots/guard.lua" */
    int root;            /* as Module.root */
    FileStamp stamp, failed;
    Sandbox *sb;
    lua_State *L;
    int ref_chunk;   /* the compiled file */
    int ref_env_mt;  /* { __index = shared globals, __metatable = false } */
    int ref_loaded;  /* require's cache */
    int ref_threads; /* weak set of the bots' own threads */
    int ref_holder;  /* function(e) return function() return e end end */
    int ref_neutral; /* a holder of nil: the chunk's _ENV between runs */
    int ref_require; /* the state's require */
    Module *mods;
    int nmods, capmods;
    int bots, faulted, reloads;
    char *reload_error;
    uint64_t instructions;
    uint64_t tick_ns;
    bool need_gc;
} Brain;

typedef struct Fns {
    int table, spawn, think, behave;
} Fns;

typedef struct Bot {
    Brain *brain; /* NULL: a free slot */
    uint32_t id;
    uint32_t gen;
    int prev, next; /* attach order; next links the free list of free slots */
    lua_State *co;
    int ref_co, ref_env, ref_bot;
    Fns fns;        /* spawn is released once called */
    bool live;      /* has its Lua side */
    bool faulted;
    bool suspended; /* behave yielded and waits for the next tick */
    bool detach_pending;
    char *error;
    uint64_t ticks, behave_starts, instructions;
} Bot;

struct BrainHost {
    BrainHostDesc desc;
    char root[PATH_CAP];
    char extra_roots[BRAIN_MAX_ROOTS][BRAIN_ROOT_MAX]; /* searched first */
    int nextra;
    Brain **brains;
    int nbrains, capbrains;
    Bot *bots;
    int nslots, capslots;
    int free_head;
    int first, last;
    int count, faulted;
    int current; /* the slot whose script runs now, for print; -1 */
    bool in_tick;
    bool pending_detach;
    uint64_t ticks, tick_ns, instructions;
    char msg[1024]; /* the last protected call's error */
};

enum { RUN_SPAWN, RUN_THINK, RUN_BEHAVE };

static const char LOADING = 0; /* its address marks a module being loaded */

/* }======= */

/* {======= Small helpers ======= */

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void host_log(BrainHost *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void host_log(BrainHost *h, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *line = small;
    if (n >= (int)sizeof small) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            line = big;
        }
    }
    if (h->desc.log)
        h->desc.log(h->desc.log_user, line);
    else
        fprintf(stderr, "%s\n", line);
    if (line != small) free(line);
}

static FileStamp stamp_of(const char *path)
{
    FileStamp s;
    memset(&s, 0, sizeof s);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        s.exists = true;
        s.sec = (long long)st.st_mtim.tv_sec;
        s.nsec = st.st_mtim.tv_nsec;
        s.size = (long long)st.st_size;
    }
    return s;
}

static bool stamp_eq(const FileStamp *a, const FileStamp *b)
{
    return a->exists == b->exists && a->sec == b->sec && a->nsec == b->nsec && a->size == b->size;
}

/* NULL if name is a valid brain or module name, else why not. */
static const char *name_problem(const char *name, size_t len)
{
    if (len == 0) return "the name is empty";
    if (len >= BRAIN_NAME_MAX) return "the name is too long";
    if (strstr(name, "..")) return "'..' is not allowed: only lua/ and bots/ can be searched";
    if (strchr(name, '/') || strchr(name, '\\'))
        return "paths are not allowed: use '.' between folders (require \"ai.path\" loads lua/ai/path.lua)";
    if (name[0] == '.' || name[len - 1] == '.') return "a name cannot start or end with '.'";
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
        if (!ok) return "only letters, digits, '_' and '.' are allowed";
    }
    return NULL;
}

/* "ai.path" in folder "lua" -> "lua/ai/path.lua". */
static void name_to_file(const char *folder, const char *name, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/%s.lua", folder, name);
    if (n < 0 || (size_t)n >= cap) n = (int)cap - 1;
    for (int i = (int)strlen(folder) + 1; i < n - 4; i++)
        if (out[i] == '.') out[i] = '/';
}

/* A file of the host's root is named inside it ("bots/x.lua"); one of an
** extra root by its whole path ("ROOT/bots/x.lua"), which is also where
** it is read from. */
static bool full_path(const BrainHost *h, int root, const char *file, char *out, size_t cap)
{
    int n = root < 0 ? snprintf(out, cap, "%s/%s", h->root, file) : snprintf(out, cap, "%s", file);
    return n > 0 && (size_t)n < cap;
}

/* The folder `sub` ("lua", "bots") of root (-1: the host's), as files of
** that root name it. */
static void root_folder(const BrainHost *h, int root, const char *sub, char *out, size_t cap)
{
    if (root < 0) snprintf(out, cap, "%s", sub);
    else snprintf(out, cap, "%s/%s", h->extra_roots[root], sub);
}

static Bot *bot_at(const BrainHost *h, int handle)
{
    if (!h || handle < 0) return NULL;
    int slot = handle & ((1 << GEN_SHIFT) - 1);
    uint32_t gen = (uint32_t)handle >> GEN_SHIFT;
    if (slot >= h->nslots) return NULL;
    Bot *bt = &h->bots[slot];
    if (!bt->brain || bt->gen != gen) return NULL;
    return bt;
}

static int handle_of(const BrainHost *h, int slot)
{
    return slot | (int)(h->bots[slot].gen << GEN_SHIFT);
}

/* Inside brain_tick, or while any script runs (an engine callback). */
static bool busy(const BrainHost *h)
{
    return h->in_tick || h->current >= 0;
}

/* }======= */

/* {======= Protected calls on a brain's main thread ======= */

/* Runs f(ud, the top nargs values) in protected mode, leaving nresults. On
** failure the error text is in h->msg and a LUA_ERR* status is returned. */
static int protect(Brain *b, lua_CFunction f, void *ud, int nargs, int nresults)
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

static void unref(lua_State *L, int *ref)
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

static void note_module(Brain *b, const char *name, int root, const char *file, const FileStamp *stamp)
{
    for (int i = 0; i < b->nmods; i++) {
        if (strcmp(b->mods[i].name, name) == 0) {
            snprintf(b->mods[i].file, sizeof b->mods[i].file, "%s", file);
            b->mods[i].root = root;
            b->mods[i].stamp = *stamp;
            return;
        }
    }
    if (b->nmods == b->capmods) {
        int cap = b->capmods ? b->capmods * 2 : 8;
        Module *m = realloc(b->mods, (size_t)cap * sizeof *m);
        if (!m) return; /* not watched for reloads; nothing else depends on it */
        b->mods = m;
        b->capmods = cap;
    }
    Module *m = &b->mods[b->nmods++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->file, sizeof m->file, "%s", file);
    m->root = root;
    m->stamp = *stamp;
}

/* Finds lua/NAME.lua or bots/NAME.lua, in the extra roots first. */
static bool find_module(const BrainHost *h, const char *name, int *root, char *file, char *path, FileStamp *stamp)
{
    static const char *const folders[] = { "lua", "bots" };
    for (int r = 0; r <= h->nextra; r++) {
        int which = r < h->nextra ? r : -1;
        for (size_t i = 0; i < NAV_ARRAY_COUNT(folders); i++) {
            char folder[BRAIN_ROOT_MAX + 8];
            root_folder(h, which, folders[i], folder, sizeof folder);
            name_to_file(folder, name, file, FILE_CAP);
            if (!full_path(h, which, file, path, PATH_CAP)) continue;
            *stamp = stamp_of(path);
            if (stamp->exists) {
                *root = which;
                return true;
            }
        }
    }
    return false;
}

/* Pushes a new environment: its own globals over the shared ones. */
static void push_env(lua_State *L, const Brain *b)
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
    const char *why = name_problem(name, len);
    if (why) return luaL_error(L, "require '%s' refused: %s", name, why);
    lua_settop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_loaded); /* 2 */
    lua_pushvalue(L, 1);
    int t = lua_rawget(L, 2);
    if (t == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &LOADING)
        return luaL_error(L, "require '%s': circular (it is still loading)", name);
    if (t != LUA_TNIL) return 1;
    lua_pop(L, 1);

    char file[FILE_CAP], path[PATH_CAP], rel[BRAIN_NAME_MAX];
    FileStamp stamp;
    int root;
    if (!find_module(b->host, name, &root, file, path, &stamp)) {
        snprintf(rel, sizeof rel, "%s", name);
        for (char *p = rel; *p; p++)
            if (*p == '.') *p = '/';
        return luaL_error(L, "module '%s' not found: no lua/%s.lua or bots/%s.lua", name, rel, rel);
    }
    char *buf;
    size_t n;
    NavError e;
    if (NAV_FAILED(fileio_read(path, sandbox_memory_limit(b->sb), &buf, &n, &e)))
        return luaL_error(L, "require '%s': %s: %s", name, file, e.message);
    char chunkname[FILE_CAP + 1];
    snprintf(chunkname, sizeof chunkname, "@%s", file);
    int rc = luaL_loadbufferx(L, buf, n, chunkname, "t");
    free(buf);
    if (rc != LUA_OK) return lua_error(L);

    push_env(L, b);
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
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, 2);
    note_module(b, name, root, file, &stamp);
    return 1;
}

/* }======= */

/* {======= Setting up a brain's state ======= */

static int op_setup(lua_State *L)
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
static bool compile_file(Brain *b, int root, const char *file, int *ref, char *msg, size_t cap)
{
    char path[PATH_CAP];
    if (!full_path(b->host, root, file, path, sizeof path)) {
        snprintf(msg, cap, "%s: path too long", file);
        return false;
    }
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
    int rc = protect(b, op_compile, &src, 0, 0);
    free(buf);
    if (rc != LUA_OK) {
        snprintf(msg, cap, "%s", b->host->msg);
        return false;
    }
    *ref = src.ref;
    return true;
}

/* }======= */

/* {======= Running a brain's chunk for one bot ======= */

typedef struct ChunkRun {
    Brain *b;
    int ref_chunk;
    int ref_env; /* LUA_NOREF: a scratch environment */
    Fns *out;
} ChunkRun;

/* Pushes the chunk with its _ENV upvalue made a fresh one holding the env.
** (Joining rather than setting keeps the closures of earlier runs on their
** own environments: they share the upvalue object, not the value.) */
static int op_chunk_prepare(lua_State *L)
{
    ChunkRun *run = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, run->ref_chunk); /* 2 */
    lua_rawgeti(L, LUA_REGISTRYINDEX, run->b->ref_holder);
    if (run->ref_env == LUA_NOREF)
        push_env(L, run->b);
    else
        lua_rawgeti(L, LUA_REGISTRYINDEX, run->ref_env);
    lua_call(L, 1, 1);
    lua_upvaluejoin(L, 2, 1, 3, 1);
    lua_settop(L, 2);
    return 1;
}

static int op_chunk_neutral(lua_State *L)
{
    ChunkRun *run = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, run->ref_chunk);
    lua_rawgeti(L, LUA_REGISTRYINDEX, run->b->ref_neutral);
    lua_upvaluejoin(L, -2, 1, -1, 1);
    return 0;
}

/* Takes the chunk's result (argument 2): the brain table and its functions. */
static int op_adopt(lua_State *L)
{
    ChunkRun *run = lua_touserdata(L, 1);
    const char *file = run->b->file;
    if (!lua_istable(L, 2))
        return luaL_error(L, "%s must return a table (the brain), got %s", file, luaL_typename(L, 2));
    static const char *const names[] = { "spawn", "think", "behave" };
    for (int i = 0; i < 3; i++) {
        lua_pushstring(L, names[i]);
        int t = lua_rawget(L, 2);
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            return luaL_error(L, "%s: brain.%s is a %s, expected a function", file, names[i], lua_typename(L, t));
    }
    /* 3 spawn, 4 think, 5 behave */
    Fns *f = run->out;
    lua_pushvalue(L, 2);
    f->table = luaL_ref(L, LUA_REGISTRYINDEX);
    int *slots[] = { &f->spawn, &f->think, &f->behave };
    for (int i = 2; i >= 0; i--) { /* luaL_ref pops the top */
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            *slots[i] = LUA_NOREF;
        } else {
            *slots[i] = luaL_ref(L, LUA_REGISTRYINDEX);
        }
    }
    return 0;
}

static void release_fns(lua_State *L, Fns *f)
{
    unref(L, &f->table);
    unref(L, &f->spawn);
    unref(L, &f->think);
    unref(L, &f->behave);
}

/* Runs b's chunk ref_chunk in the environment ref_env, as bot slot (for
** print; -1 for none), under the per-tick budget. On failure err names the
** file and line. */
static bool run_chunk(BrainHost *h, Brain *b, int ref_chunk, int ref_env, int slot, Fns *out, NavError *err)
{
    Fns fresh = { LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF };
    *out = fresh;
    ChunkRun run = { b, ref_chunk, ref_env, out };
    int was = h->current;
    h->current = slot;
    bool ok = false;
    if (protect(b, op_chunk_prepare, &run, 0, 1) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "%s: %s", b->file, h->msg);
        goto done;
    }
    NavError e;
    nav_error_clear(&e);
    NavStatus s = sandbox_call(b->sb, 0, 1, &e);
    protect(b, op_chunk_neutral, &run, 0, 0);
    if (NAV_FAILED(s)) {
        char file[FILE_CAP];
        int line = 0;
        if (!sandbox_message_position(e.message, file, sizeof file, &line, NULL)) {
            snprintf(file, sizeof file, "%s", b->file);
            line = e.line;
        }
        if (e.status & NAV_E_NOMEM)
            nav_error_set(err, e.status & ~NAV_FAILURE, file, line, 0, NULL, "%s: %s", b->file, e.message);
        else
            nav_error_set(err, e.status & ~NAV_FAILURE, file, line, 0, NULL, "%s", e.message);
        goto done;
    }
    if (protect(b, op_adopt, &run, 1, 0) != LUA_OK) {
        release_fns(b->L, out);
        nav_error_set(err, NAV_E_FORMAT, b->file, 0, 0, NULL, "%s", h->msg);
        goto done;
    }
    ok = true;
done:
    h->current = was;
    return ok;
}

/* }======= */

/* {======= A bot's Lua side ======= */

typedef struct BotOp {
    BrainHost *h;
    Bot *bot;
} BotOp;

/* Thread, environment and bot value. */
static int op_bot_create(lua_State *L)
{
    BotOp *op = lua_touserdata(L, 1);
    Bot *bt = op->bot;
    Brain *b = bt->brain;
    lua_settop(L, 1);
    lua_State *co = lua_newthread(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_threads);
    lua_pushvalue(L, 2);
    lua_pushboolean(L, 1);
    lua_rawset(L, 3);
    lua_pop(L, 1);
    bt->ref_co = luaL_ref(L, LUA_REGISTRYINDEX);
    bt->co = co; /* only once referenced: until then the collector may take it */
    push_env(L, b);
    bt->ref_env = luaL_ref(L, LUA_REGISTRYINDEX);
    int top = lua_gettop(L);
    if (op->h->desc.push_bot) {
        op->h->desc.push_bot(L, bt->id, op->h->desc.user);
        if (lua_gettop(L) != top + 1) return luaL_error(L, "push_bot must push exactly one value");
    } else {
        lua_createtable(L, 0, 1);
        lua_pushinteger(L, (lua_Integer)bt->id);
        lua_setfield(L, -2, "id");
    }
    bt->ref_bot = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Releases what the bot holds (its thread must be closed already). Cannot
** fail: unref and removing a key do not allocate. */
static int op_bot_release(lua_State *L)
{
    BotOp *op = lua_touserdata(L, 1);
    Bot *bt = op->bot;
    Brain *b = bt->brain;
    if (bt->ref_co != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_threads);
        lua_rawgeti(L, LUA_REGISTRYINDEX, bt->ref_co);
        lua_pushnil(L);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
    unref(L, &bt->ref_co);
    unref(L, &bt->ref_env);
    unref(L, &bt->ref_bot);
    release_fns(L, &bt->fns);
    bt->co = NULL;
    return 0;
}

static int op_close_thread(lua_State *L)
{
    lua_State *co = lua_touserdata(L, 1);
#if LUA_VERSION_RELEASE_NUM >= 50406
    lua_closethread(co, L);
#else
    lua_resetthread(co);
#endif
    return 0;
}

/* Closes the bot's coroutine: pending to-be-closed variables are closed,
** their __close handlers under the budget that is in force (in_budget) or
** a fresh one. */
static void close_thread(BrainHost *h, Bot *bt, bool in_budget)
{
    Brain *b = bt->brain;
    if (!bt->co) return;
    int slot = (int)(bt - h->bots);
    int was = h->current;
    h->current = slot;
    if (!in_budget) sandbox_budget_begin(b->sb, bt->co, h->desc.instructions_per_tick, " per tick");
    protect(b, op_close_thread, bt->co, 0, 0);
    lua_settop(bt->co, 0);
    if (!in_budget) sandbox_budget_end(b->sb, bt->co);
    h->current = was;
    bt->suspended = false;
}

static void drop_lua(BrainHost *h, Bot *bt)
{
    if (!bt->live) return;
    close_thread(h, bt, false);
    BotOp op = { h, bt };
    protect(bt->brain, op_bot_release, &op, 0, 0);
    bt->live = false;
}

static size_t appendf(char *buf, size_t cap, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static size_t appendf(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
    if (n >= cap) return n;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    if (k < 0) return n;
    n += (size_t)k;
    return n < cap ? n : cap - 1;
}

/* The traceback of co, built in C: after a memory error the state may have
** no room for luaL_traceback's strings. entry names the function the host
** called (the bottom frame). */
static void traceback_of(lua_State *co, const char *entry, char *out, size_t cap)
{
    lua_Debug ar;
    /* How deep the stack is: lua_getstack walks from the top, so search
    ** (as lauxlib's lastlevel does) rather than count; a runaway recursion
    ** can leave half a million levels. */
    int levels = 0;
    if (lua_getstack(co, 0, &ar)) {
        int lo = 1, hi = 1;
        while (lua_getstack(co, hi, &ar)) {
            lo = hi;
            hi *= 2;
        }
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (lua_getstack(co, mid, &ar))
                lo = mid + 1;
            else
                hi = mid;
        }
        levels = lo;
    }
    size_t n = appendf(out, cap, 0, "stack traceback:");
    for (int level = 0; level < levels; level++) {
        if (levels > 22 && level == 10) {
            n = appendf(out, cap, n, "\n\t...\t(skipping %d levels)", levels - 21);
            level = levels - 11;
        }
        if (!lua_getstack(co, level, &ar) || !lua_getinfo(co, "Slnt", &ar)) break;
        n = appendf(out, cap, n, "\n\t%s:", ar.short_src);
        if (ar.currentline > 0) n = appendf(out, cap, n, "%d:", ar.currentline);
        if (ar.namewhat && *ar.namewhat)
            n = appendf(out, cap, n, " in %s '%s'", ar.namewhat, ar.name ? ar.name : "?");
        else if (level == levels - 1 && entry && *ar.what != 'C')
            n = appendf(out, cap, n, " in function '%s'", entry);
        else if (*ar.what == 'm')
            n = appendf(out, cap, n, " in main chunk");
        else if (*ar.what != 'C')
            n = appendf(out, cap, n, " in function <%s:%d>", ar.short_src, ar.linedefined);
        else
            n = appendf(out, cap, n, " in ?");
        if (ar.istailcall) n = appendf(out, cap, n, "\n\t(...tail calls...)");
    }
}

/* "bots/x.lua:7: " for the innermost Lua frame of co, or "". */
static void where_of(lua_State *co, char *out, size_t cap)
{
    lua_Debug ar;
    out[0] = '\0';
    for (int level = 0; lua_getstack(co, level, &ar); level++) {
        if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
            snprintf(out, cap, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
}

static void set_fault(BrainHost *h, Bot *bt, const char *text)
{
    Brain *b = bt->brain;
    free(bt->error);
    bt->error = dup_string(text);
    if (!bt->faulted) {
        bt->faulted = true;
        b->faulted++;
        h->faulted++;
    }
    host_log(h, "[%s#%u] fault: %s", b->name, (unsigned)bt->id, text);
}

/* The bot's script failed with status (LUA_YIELD: yielded where it must
** not); the error is on co's stack. Keeps the error, drops its Lua side. */
static void fault(BrainHost *h, Bot *bt, int status, const char *entry)
{
    Brain *b = bt->brain;
    lua_State *co = bt->co;
    char msg[1024], where[256];
    where_of(co, where, sizeof where);
    if (status == LUA_YIELD) {
        snprintf(msg, sizeof msg, "%s%s yielded: only behave runs across ticks (coroutine.yield belongs there)",
                 where, entry);
    } else if (status == LUA_ERRMEM) {
        size_t cap = sandbox_memory_limit(b->sb);
        snprintf(msg, sizeof msg, "%snot enough memory (the state of %s is at its cap of %.1f MiB)", where, b->file,
                 (double)cap / (1024.0 * 1024.0));
    } else {
        int t = lua_type(co, -1);
        if (t == LUA_TSTRING)
            snprintf(msg, sizeof msg, "%s", lua_tostring(co, -1));
        else if (t == LUA_TNUMBER)
            snprintf(msg, sizeof msg, "%s%.14g", where, lua_tonumber(co, -1));
        else
            snprintf(msg, sizeof msg, "%s(error object is a %s value)", where, lua_typename(co, t));
    }
    char tb[2048];
    traceback_of(co, entry, tb, sizeof tb);
    size_t need = strlen(msg) + 1 + strlen(tb) + 1;
    char *text = malloc(need);
    if (text) snprintf(text, need, "%s\n%s", msg, tb);
    set_fault(h, bt, text ? text : msg);
    free(text);
    /* Close under the tick's budget, take the hook off while the thread is
    ** still referenced, then let it go. */
    close_thread(h, bt, true);
    bt->instructions = sandbox_budget_end(b->sb, co);
    BotOp op = { h, bt };
    protect(b, op_bot_release, &op, 0, 0);
    bt->live = false;
    b->need_gc = true;
}

/* One resume of the bot's coroutine under the per-tick budget. */
static void bot_run(BrainHost *h, int slot, int kind, double dt)
{
    Bot *bt = &h->bots[slot];
    Brain *b = bt->brain;
    lua_State *co = bt->co;
    const char *entry;
    int nargs;
    if (kind == RUN_BEHAVE && bt->suspended) {
        entry = "behave";
        lua_pushnumber(co, dt);
        nargs = 1;
    } else {
        int ref = kind == RUN_SPAWN ? bt->fns.spawn : kind == RUN_THINK ? bt->fns.think : bt->fns.behave;
        entry = kind == RUN_SPAWN ? "spawn" : kind == RUN_THINK ? "think" : "behave";
        lua_settop(co, 0);
        lua_rawgeti(co, LUA_REGISTRYINDEX, ref);
        lua_rawgeti(co, LUA_REGISTRYINDEX, bt->ref_bot);
        nargs = 1;
        if (kind != RUN_SPAWN) {
            lua_pushnumber(co, dt);
            nargs = 2;
        }
        if (kind == RUN_BEHAVE) bt->behave_starts++;
    }
    int was = h->current;
    h->current = slot;
    sandbox_budget_begin(b->sb, co, h->desc.instructions_per_tick, " per tick");
    int nres = 0;
    int rc = lua_resume(co, b->L, nargs, &nres);
    bt = &h->bots[slot];
    if (rc == LUA_YIELD && kind == RUN_BEHAVE) {
        lua_pop(co, nres);
        bt->suspended = true;
    } else if (rc == LUA_OK) {
        lua_settop(co, 0);
        bt->suspended = false;
    } else {
        fault(h, bt, rc, entry);
    }
    if (bt->live) bt->instructions = sandbox_budget_end(b->sb, co);
    h->current = was;
}

/* Gives the bot (attached, linked, counted) its Lua side: thread, env, the
** chunk run in its env, then spawn. False (with err) if the brain could not
** be run for it; a spawn error is a fault, not a failure. */
static bool bot_start(BrainHost *h, int slot, NavError *err)
{
    Bot *bt = &h->bots[slot];
    Brain *b = bt->brain;
    BotOp op = { h, bt };
    bt->live = true; /* owns refs from here: drop_lua releases whatever is set */
    if (protect(b, op_bot_create, &op, 0, 0) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "%s: cannot create bot %u: %s", b->file,
                      (unsigned)bt->id, h->msg);
        drop_lua(h, bt);
        return false;
    }
    if (!run_chunk(h, b, b->ref_chunk, bt->ref_env, slot, &bt->fns, err)) {
        drop_lua(h, bt);
        return false;
    }
    if (bt->fns.spawn != LUA_NOREF) {
        bot_run(h, slot, RUN_SPAWN, 0);
        bt = &h->bots[slot];
        if (bt->live) unref(b->L, &bt->fns.spawn);
    }
    return true;
}

/* }======= */

/* {======= Brains ======= */

static void brain_free(Brain *b)
{
    if (!b) return;
    sandbox_destroy(b->sb);
    free(b->mods);
    free(b->reload_error);
    free(b);
}

static void brain_print(void *user, const char *line)
{
    Brain *b = user;
    BrainHost *h = b->host;
    if (h->current >= 0 && h->bots[h->current].brain == b)
        host_log(h, "[%s#%u] %s", b->name, (unsigned)h->bots[h->current].id, line);
    else
        host_log(h, "[%s] %s", b->name, line);
}

static Brain *brain_find(BrainHost *h, const char *name)
{
    for (int i = 0; i < h->nbrains; i++)
        if (strcmp(h->brains[i]->name, name) == 0) return h->brains[i];
    return NULL;
}

/* Creates the state and compiles bots/NAME.lua; appends the brain. */
static Brain *brain_load(BrainHost *h, const char *name, NavError *err)
{
    size_t len = strlen(name);
    const char *why = name_problem(name, len);
    char file[FILE_CAP];
    if (why) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain '%s' refused: %s", name, why);
        return NULL;
    }
    /* bots/NAME.lua in the extra roots, in order, then in the root. */
    char path[PATH_CAP];
    int root = -1;
    FileStamp stamp = { 0 };
    for (int r = 0; r <= h->nextra; r++) {
        root = r < h->nextra ? r : -1;
        char folder[BRAIN_ROOT_MAX + 8];
        root_folder(h, root, "bots", folder, sizeof folder);
        name_to_file(folder, name, file, sizeof file);
        if (!full_path(h, root, file, path, sizeof path)) {
            nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL, "path too long");
            return NULL;
        }
        stamp = stamp_of(path);
        if (stamp.exists) break;
    }
    if (!stamp.exists) {
        if (h->nextra == 0) {
            nav_error_set(err, NAV_E_IO, file, 0, 0, NULL, "%s: no such brain (cannot open %s)", file, path);
        } else {
            char searched[BRAIN_MAX_ROOTS * (BRAIN_ROOT_MAX + 8)] = "";
            size_t n = 0;
            for (int r = 0; r < h->nextra; r++)
                n = appendf(searched, sizeof searched, n, "%s/bots, ", h->extra_roots[r]);
            nav_error_set(err, NAV_E_IO, file, 0, 0, NULL, "%s: no such brain (cannot open %s; looked in %sthen %s/bots)",
                          file, path, searched, h->root);
        }
        return NULL;
    }
    if (h->nbrains == h->capbrains) {
        int cap = h->capbrains ? h->capbrains * 2 : 4;
        Brain **nb = realloc(h->brains, (size_t)cap * sizeof *nb);
        if (!nb) {
            nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory");
            return NULL;
        }
        h->brains = nb;
        h->capbrains = cap;
    }
    Brain *b = calloc(1, sizeof *b);
    if (!b) {
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory");
        return NULL;
    }
    b->host = h;
    b->index = h->nbrains;
    snprintf(b->name, sizeof b->name, "%s", name);
    snprintf(b->file, sizeof b->file, "%s", file);
    b->root = root;
    b->ref_chunk = b->ref_env_mt = b->ref_loaded = b->ref_threads = b->ref_holder = b->ref_neutral = LUA_NOREF;
    b->ref_require = LUA_NOREF;
    b->stamp = stamp;
    b->sb = sandbox_create(&(SandboxDesc){ .memory_limit = h->desc.memory_limit,
                                           .instruction_limit = h->desc.instructions_per_tick,
                                           .seed = h->desc.seed,
                                           .what = "bot brains",
                                           .print = brain_print,
                                           .print_user = b },
                           err);
    if (!b->sb) {
        free(b);
        return NULL;
    }
    b->L = sandbox_state(b->sb);
    if (protect(b, op_setup, b, 0, 0) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "cannot set up the state for %s: %s", file, h->msg);
        brain_free(b);
        return NULL;
    }
    char msg[1024];
    if (!compile_file(b, b->root, file, &b->ref_chunk, msg, sizeof msg)) {
        char where[FILE_CAP];
        int line = 0;
        if (!sandbox_message_position(msg, where, sizeof where, &line, NULL)) snprintf(where, sizeof where, "%s", file);
        nav_error_set(err, NAV_E_FORMAT, where, line, 0, NULL, "%s", msg);
        brain_free(b);
        return NULL;
    }
    h->brains[h->nbrains++] = b;
    return b;
}

static void brain_collect(Brain *b)
{
    if (!b->need_gc) return;
    lua_gc(b->L, LUA_GCCOLLECT);
    b->need_gc = false;
}

/* }======= */

/* {======= Slots and order ======= */

static int slot_alloc(BrainHost *h)
{
    int s;
    if (h->free_head >= 0) {
        s = h->free_head;
        h->free_head = h->bots[s].next;
    } else {
        if (h->nslots >= BRAIN_MAX_BOTS) return -1;
        if (h->nslots == h->capslots) {
            int cap = h->capslots ? h->capslots * 2 : 64;
            if (cap > BRAIN_MAX_BOTS) cap = BRAIN_MAX_BOTS;
            Bot *nb = realloc(h->bots, (size_t)cap * sizeof *nb);
            if (!nb) return -1;
            h->bots = nb;
            h->capslots = cap;
        }
        s = h->nslots++;
        h->bots[s].gen = 0;
    }
    Bot *bt = &h->bots[s];
    uint32_t gen = bt->gen >= GEN_MAX ? 1 : bt->gen + 1;
    memset(bt, 0, sizeof *bt);
    bt->gen = gen;
    bt->prev = bt->next = -1;
    bt->ref_co = bt->ref_env = bt->ref_bot = LUA_NOREF;
    bt->fns = (Fns){ LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF };
    return s;
}

static void link_last(BrainHost *h, int s)
{
    Bot *bt = &h->bots[s];
    bt->prev = h->last;
    bt->next = -1;
    if (h->last >= 0)
        h->bots[h->last].next = s;
    else
        h->first = s;
    h->last = s;
    bt->brain->bots++;
    h->count++;
}

static void unlink_and_free(BrainHost *h, int s)
{
    Bot *bt = &h->bots[s];
    if (bt->prev >= 0)
        h->bots[bt->prev].next = bt->next;
    else
        h->first = bt->next;
    if (bt->next >= 0)
        h->bots[bt->next].prev = bt->prev;
    else
        h->last = bt->prev;
    bt->brain->bots--;
    h->count--;
    if (bt->faulted) {
        bt->brain->faulted--;
        h->faulted--;
    }
    free(bt->error);
    bt->error = NULL;
    bt->brain = NULL;
    bt->next = h->free_head;
    h->free_head = s;
}

/* }======= */

/* {======= Public API ======= */

/* Detaches asked for while scripts ran. */
static void flush_detaches(BrainHost *h)
{
    if (!h->pending_detach) return;
    h->pending_detach = false;
    for (int s = h->first; s >= 0;) {
        int next = h->bots[s].next;
        if (h->bots[s].detach_pending) {
            h->bots[s].detach_pending = false;
            brain_detach(h, handle_of(h, s));
        }
        s = next;
    }
}

BrainHost *brain_host_create(const BrainHostDesc *desc, NavError *err)
{
    BrainHost *h = calloc(1, sizeof *h);
    if (!h) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory creating the brain host");
        return NULL;
    }
    h->desc = *desc;
    snprintf(h->root, sizeof h->root, "%s", desc->root && desc->root[0] ? desc->root : ".");
    h->desc.root = h->root;
    for (int r = 0; r < BRAIN_MAX_ROOTS && desc->extra_roots[r]; r++) {
        const char *dir = desc->extra_roots[r];
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/') n--; /* "dir/" names files "dir/bots/x.lua" */
        if (n == 0 || n >= BRAIN_ROOT_MAX) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain root '%s': %s", dir,
                          n ? "the path is too long" : "the path is empty");
            free(h);
            return NULL;
        }
        memcpy(h->extra_roots[r], dir, n);
        h->extra_roots[r][n] = '\0';
        h->desc.extra_roots[r] = h->extra_roots[r];
        h->nextra++;
    }
    if (!h->desc.memory_limit) h->desc.memory_limit = BRAIN_DEFAULT_MEMORY;
    if (!h->desc.instructions_per_tick) h->desc.instructions_per_tick = BRAIN_DEFAULT_INSTRUCTIONS;
    h->free_head = h->first = h->last = h->current = -1;
    return h;
}

void brain_host_destroy(BrainHost *h)
{
    if (!h) return;
    /* Close the coroutines first, so their __close handlers run budgeted. */
    for (int s = h->first; s >= 0; s = h->bots[s].next) drop_lua(h, &h->bots[s]);
    for (int s = 0; s < h->nslots; s++) free(h->bots[s].error);
    for (int i = 0; i < h->nbrains; i++) brain_free(h->brains[i]);
    free(h->brains);
    free(h->bots);
    free(h);
}

int brain_attach(BrainHost *h, const char *name, uint32_t bot_id, NavError *err)
{
    if (!h || !name) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain_attach: no host or no name");
        return -1;
    }
    if (busy(h)) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain_attach cannot be called while a script runs");
        return -1;
    }
    Brain *b = brain_find(h, name);
    bool fresh = false;
    if (!b) {
        b = brain_load(h, name, err);
        if (!b) return -1;
        fresh = true;
    }
    int s = slot_alloc(h);
    if (s < 0) {
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "too many bots (out of memory or over %d)", BRAIN_MAX_BOTS);
        if (fresh && b->bots == 0) {
            h->nbrains--;
            brain_free(b);
        }
        return -1;
    }
    h->bots[s].brain = b;
    h->bots[s].id = bot_id;
    link_last(h, s);
    if (!bot_start(h, s, err)) {
        unlink_and_free(h, s);
        if (fresh && b->bots == 0) {
            h->nbrains--;
            brain_free(b);
        } else {
            b->need_gc = true;
            brain_collect(b);
        }
        return -1;
    }
    brain_collect(b);
    int handle = handle_of(h, s);
    flush_detaches(h);
    return handle;
}

void brain_detach(BrainHost *h, int handle)
{
    Bot *bt = bot_at(h, handle);
    if (!bt || bt->detach_pending) return;
    if (busy(h)) { /* maybe from its own script: release it once that is over */
        bt->detach_pending = true;
        h->pending_detach = true;
        return;
    }
    Brain *b = bt->brain;
    drop_lua(h, bt);
    unlink_and_free(h, (int)(bt - h->bots));
    b->need_gc = true;
    brain_collect(b);
}

void brain_tick(BrainHost *h, double dt)
{
    if (!h || busy(h)) return;
    uint64_t t0 = timer_now_ns();
    h->in_tick = true;
    for (int i = 0; i < h->nbrains; i++) {
        h->brains[i]->instructions = 0;
        h->brains[i]->tick_ns = 0;
    }
    h->instructions = 0;
    for (int s = h->first; s >= 0; s = h->bots[s].next) {
        Bot *bt = &h->bots[s];
        if (!bt->live || bt->faulted || bt->detach_pending) continue;
        int kind = bt->fns.behave != LUA_NOREF ? RUN_BEHAVE : bt->fns.think != LUA_NOREF ? RUN_THINK : -1;
        bt->ticks++;
        if (kind < 0) {
            bt->instructions = 0;
            continue;
        }
        uint64_t b0 = timer_now_ns();
        bot_run(h, s, kind, dt);
        bt = &h->bots[s];
        bt->brain->tick_ns += timer_now_ns() - b0;
        bt->brain->instructions += bt->instructions;
        h->instructions += bt->instructions;
    }
    h->in_tick = false;
    flush_detaches(h);
    for (int i = 0; i < h->nbrains; i++) brain_collect(h->brains[i]);
    h->ticks++;
    h->tick_ns = timer_now_ns() - t0;
}

bool brain_faulted(const BrainHost *h, int handle)
{
    const Bot *bt = bot_at(h, handle);
    return bt && bt->faulted;
}

const char *brain_error(const BrainHost *h, int handle)
{
    const Bot *bt = bot_at(h, handle);
    return bt && bt->faulted ? (bt->error ? bt->error : "fault (no memory for its message)") : NULL;
}

/* }======= */

/* {======= Faults from outside (tests inject them) ======= */

bool brain_fault(BrainHost *h, int handle, const char *message)
{
    Bot *bt = bot_at(h, handle);
    if (!bt || bt->faulted || busy(h)) return false;
    Brain *b = bt->brain;
    set_fault(h, bt, message && *message ? message : "fault injected");
    /* The same end as a fault raised by its script: coroutine closed (its
    ** __close handlers under a budget of their own), refs released. */
    drop_lua(h, bt);
    b->need_gc = true;
    brain_collect(b);
    return true;
}

/* }======= */

/* {======= Hot reload ======= */

typedef struct ModuleSwap {
    Brain *b;
    const bool *changed; /* per module */
    int saved;           /* ref: name -> the old cached value */
} ModuleSwap;

/* Moves the changed modules out of require's cache, keeping the old values. */
static int op_modules_out(lua_State *L)
{
    ModuleSwap *sw = lua_touserdata(L, 1);
    Brain *b = sw->b;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_loaded); /* 2 */
    lua_newtable(L);                                  /* 3 */
    for (int i = 0; i < b->nmods; i++) {
        if (!sw->changed[i]) continue;
        lua_pushstring(L, b->mods[i].name);
        lua_pushvalue(L, -1);
        lua_rawget(L, 2);
        lua_rawset(L, 3);
        lua_pushstring(L, b->mods[i].name);
        lua_pushnil(L);
        lua_rawset(L, 2);
    }
    sw->saved = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Puts the old values back (a failed reload). */
static int op_modules_back(lua_State *L)
{
    ModuleSwap *sw = lua_touserdata(L, 1);
    Brain *b = sw->b;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_loaded);
    lua_rawgeti(L, LUA_REGISTRYINDEX, sw->saved);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    return 0;
}

typedef struct RequireOp {
    Brain *b;
    const char *name;
} RequireOp;

static int op_push_require(lua_State *L)
{
    RequireOp *op = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, op->b->ref_require);
    lua_pushstring(L, op->name);
    return 2;
}

/* Loads module name into b's state (budgeted, as the chunk runs are). */
static bool load_module(BrainHost *h, Brain *b, const char *name, NavError *err)
{
    RequireOp op = { b, name };
    if (protect(b, op_push_require, &op, 0, 2) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "%s", h->msg);
        return false;
    }
    return NAV_SUCCEEDED(sandbox_call(b->sb, 1, 0, err));
}

static bool compile_check(Brain *b, int root, const char *file, char *msg, size_t cap)
{
    int ref = LUA_NOREF;
    if (!compile_file(b, root, file, &ref, msg, cap)) return false;
    unref(b->L, &ref);
    return true;
}

static void reload_failed(BrainHost *h, Brain *b, const char *why)
{
    free(b->reload_error);
    b->reload_error = dup_string(why);
    host_log(h, "[%s] reload failed, keeping the old version: %s", b->name, why);
}

/* Reloads b: brain_now is the file's stamp now, mod_now the modules'. */
static bool brain_reload(BrainHost *h, Brain *b, const FileStamp *brain_now, const FileStamp *mod_now, bool *mod_changed)
{
    lua_State *L = b->L;
    int nmods = b->nmods;
    bool brain_changed = !stamp_eq(brain_now, &b->stamp);
    char msg[1024];
    int ref_new = b->ref_chunk;
    bool ok = false;

    /* Whatever fails, the same versions are not tried (or logged) again. */
    b->failed = *brain_now;
    for (int i = 0; i < nmods; i++)
        if (mod_changed[i]) b->mods[i].failed = mod_now[i];

    if (brain_changed && !compile_file(b, b->root, b->file, &ref_new, msg, sizeof msg)) {
        reload_failed(h, b, msg);
        return false;
    }
    for (int i = 0; i < nmods; i++) {
        if (mod_changed[i] && !compile_check(b, b->mods[i].root, b->mods[i].file, msg, sizeof msg)) {
            reload_failed(h, b, msg);
            if (ref_new != b->ref_chunk) unref(L, &ref_new);
            return false;
        }
    }

    FileStamp *old_stamps = malloc((size_t)(nmods ? nmods : 1) * sizeof *old_stamps);
    int live = 0;
    for (int s = h->first; s >= 0; s = h->bots[s].next)
        if (h->bots[s].brain == b && h->bots[s].live) live++;
    Fns *fresh = calloc((size_t)(live ? live : 1), sizeof *fresh);
    ModuleSwap sw = { b, mod_changed, LUA_NOREF };
    if (!old_stamps || !fresh || protect(b, op_modules_out, &sw, 0, 0) != LUA_OK) {
        reload_failed(h, b, "out of memory");
        free(old_stamps);
        free(fresh);
        if (ref_new != b->ref_chunk) unref(L, &ref_new);
        return false;
    }
    for (int i = 0; i < nmods; i++) old_stamps[i] = b->mods[i].stamp;

    /* The changed modules first, so a brain that requires them lazily (in
    ** think) does not meet a broken one later; then the new chunk, once per
    ** live bot in its own environment (or once in a scratch one when there
    ** is none). A module's name is kept in the copy: require may grow (and
    ** move) b->mods. */
    int done = 0;
    NavError e;
    nav_error_clear(&e);
    bool run_ok = true;
    for (int i = 0; i < nmods && run_ok; i++) {
        if (!mod_changed[i]) continue;
        char name[BRAIN_NAME_MAX];
        snprintf(name, sizeof name, "%s", b->mods[i].name);
        run_ok = load_module(h, b, name, &e);
    }
    if (!run_ok) {
        /* reported below */
    } else if (live == 0) {
        Fns scratch;
        run_ok = run_chunk(h, b, ref_new, LUA_NOREF, -1, &scratch, &e);
        if (run_ok) release_fns(L, &scratch);
    } else {
        for (int s = h->first; s >= 0 && run_ok; s = h->bots[s].next) {
            Bot *bt = &h->bots[s];
            if (bt->brain != b || !bt->live) continue;
            run_ok = run_chunk(h, b, ref_new, bt->ref_env, s, &fresh[done], &e);
            if (run_ok) done++;
        }
    }
    if (!run_ok) {
        for (int i = 0; i < done; i++) release_fns(L, &fresh[i]);
        protect(b, op_modules_back, &sw, 0, 0);
        for (int i = 0; i < nmods; i++) b->mods[i].stamp = old_stamps[i];
        reload_failed(h, b, e.message);
        if (ref_new != b->ref_chunk) unref(L, &ref_new);
        goto out;
    }

    /* Commit: every live bot gets the new functions; behave starts over. */
    int k = 0;
    for (int s = h->first; s >= 0 && k < done; s = h->bots[s].next) {
        Bot *bt = &h->bots[s];
        if (bt->brain != b || !bt->live) continue;
        close_thread(h, bt, false);
        bt = &h->bots[s];
        release_fns(L, &bt->fns);
        bt->fns = fresh[k++];
        unref(L, &bt->fns.spawn);
    }
    if (ref_new != b->ref_chunk) {
        unref(L, &b->ref_chunk);
        b->ref_chunk = ref_new;
    }
    b->stamp = *brain_now;
    for (int i = 0; i < nmods; i++)
        if (mod_changed[i] && stamp_eq(&b->mods[i].stamp, &old_stamps[i])) b->mods[i].stamp = mod_now[i];
    b->reloads++;
    free(b->reload_error);
    b->reload_error = NULL;
    host_log(h, "[%s] reloaded %s (%d bots)", b->name, b->file, live);

    /* Faulted bots of this brain start afresh. */
    for (int s = h->first; s >= 0; s = h->bots[s].next) {
        Bot *bt = &h->bots[s];
        if (bt->brain != b || !bt->faulted) continue;
        bt->faulted = false;
        b->faulted--;
        h->faulted--;
        free(bt->error);
        bt->error = NULL;
        bt->suspended = false;
        NavError se;
        nav_error_clear(&se);
        if (!bot_start(h, s, &se)) set_fault(h, &h->bots[s], se.message);
    }
    ok = true;
out:
    unref(L, &sw.saved);
    free(old_stamps);
    free(fresh);
    b->need_gc = true;
    brain_collect(b);
    return ok;
}

int brain_host_reload_changed(BrainHost *h)
{
    if (!h || busy(h)) return 0;
    int reloaded = 0;
    for (int i = 0; i < h->nbrains; i++) {
        Brain *b = h->brains[i];
        char path[PATH_CAP];
        FileStamp now = { 0 };
        if (full_path(h, b->root, b->file, path, sizeof path)) now = stamp_of(path);
        /* A reload is due when some file is new: neither the loaded version
        ** nor one that already failed. Then every file that differs from its
        ** loaded version goes in. */
        bool due = !stamp_eq(&now, &b->stamp) && !stamp_eq(&now, &b->failed);
        int nmods = b->nmods;
        FileStamp *mod_now = calloc((size_t)(nmods ? nmods : 1), sizeof *mod_now);
        bool *changed = calloc((size_t)(nmods ? nmods : 1), sizeof *changed);
        if (!mod_now || !changed) {
            free(mod_now);
            free(changed);
            continue;
        }
        for (int m = 0; m < nmods; m++) {
            if (full_path(h, b->mods[m].root, b->mods[m].file, path, sizeof path)) mod_now[m] = stamp_of(path);
            changed[m] = !stamp_eq(&mod_now[m], &b->mods[m].stamp);
            if (changed[m] && !stamp_eq(&mod_now[m], &b->mods[m].failed)) due = true;
        }
        if (due && brain_reload(h, b, &now, mod_now, changed)) reloaded++;
        free(mod_now);
        free(changed);
    }
    flush_detaches(h);
    return reloaded;
}

/* }======= */

/* {======= Stats ======= */

void brain_host_stats(const BrainHost *h, BrainHostStats *out)
{
    memset(out, 0, sizeof *out);
    if (!h) return;
    out->brains = h->nbrains;
    out->bots = h->count;
    out->faulted = h->faulted;
    for (int i = 0; i < h->nbrains; i++) out->memory += sandbox_memory(h->brains[i]->sb);
    out->instructions = h->instructions;
    out->tick_ms = (double)h->tick_ns / 1e6;
    out->ticks = h->ticks;
}

int brain_host_brain_count(const BrainHost *h)
{
    return h ? h->nbrains : 0;
}

bool brain_host_brain_stats(const BrainHost *h, int index, BrainStats *out)
{
    if (!h || index < 0 || index >= h->nbrains) return false;
    const Brain *b = h->brains[index];
    memset(out, 0, sizeof *out);
    out->name = b->name;
    out->file = b->file;
    out->memory = sandbox_memory(b->sb);
    out->memory_peak = sandbox_memory_peak(b->sb);
    out->memory_limit = sandbox_memory_limit(b->sb);
    out->bots = b->bots;
    out->faulted = b->faulted;
    out->modules = b->nmods;
    out->reloads = b->reloads;
    out->reload_error = b->reload_error;
    out->instructions = b->instructions;
    out->tick_ms = (double)b->tick_ns / 1e6;
    return true;
}

bool brain_bot_stats(const BrainHost *h, int handle, BrainBotStats *out)
{
    const Bot *bt = bot_at(h, handle);
    if (!bt) return false;
    memset(out, 0, sizeof *out);
    out->bot_id = bt->id;
    out->brain = bt->brain->index;
    out->faulted = bt->faulted;
    out->behaving = bt->fns.behave != LUA_NOREF;
    out->suspended = bt->suspended;
    out->ticks = bt->ticks;
    out->behave_starts = bt->behave_starts;
    out->instructions = bt->instructions;
    return true;
}

/* }======= */

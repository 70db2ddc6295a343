/*
** brain_bot.c — running a brain's chunk for one bot, the bot's Lua side
** (its coroutine and environment, spawn/think/behave), and brain files.
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
    if (run->ref_env == LUA_NOREF) brain_push_env(L, run->b);
    else lua_rawgeti(L, LUA_REGISTRYINDEX, run->ref_env);
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
    /* Every key must be one the host reads (or an event handler's): a
    ** misspelt `thinks` would otherwise leave a bot that silently does
    ** nothing. Of several unknown keys the first in byte order is named, so
    ** the message does not depend on the table's order. */
    static const char *const known[] = { "spawn",    "think",      "behave",  "on_arrive",
                                         "on_stuck", "on_contact", "on_fall", "on_learn" };
    const char *unknown = NULL;
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            return luaL_error(L,
                              "%s: the brain table has a %s key; its keys are names: spawn, think, behave, "
                              "on_arrive, on_stuck, on_contact, on_fall, on_learn",
                              file, luaL_typename(L, -1));
        }
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        for (size_t i = 0; i < NAV_ARRAY_COUNT(known) && !ok; i++) ok = strcmp(k, known[i]) == 0;
        if (!ok && (!unknown || strcmp(k, unknown) < 0)) unknown = k; /* the key stays in the table: alive */
    }
    if (unknown)
        return luaL_error(L,
                          "%s: the brain table has an unknown key '%s'; expected spawn, think, behave, on_arrive, "
                          "on_stuck, on_contact, on_fall or on_learn",
                          file, unknown);
    static const char *const names[] = { "spawn", "think", "behave" };
    for (int i = 0; i < 3; i++) {
        lua_pushstring(L, names[i]);
        int t = lua_rawget(L, 2);
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            return luaL_error(L, "%s: brain.%s is a %s, expected a function", file, names[i], lua_typename(L, t));
    }
    /* Event handlers: noted now, so a bot without any costs nothing. */
    unsigned events = 0;
    for (int i = 0; brain_event_names[i]; i++) {
        lua_pushfstring(L, "on_%s", brain_event_names[i]);
        int t = lua_rawget(L, 2);
        if (t == LUA_TFUNCTION) events |= 1u << i;
        else if (t != LUA_TNIL)
            return luaL_error(L, "%s: brain.on_%s is a %s, expected a function", file, brain_event_names[i],
                              lua_typename(L, t));
        lua_pop(L, 1);
    }
    /* 3 spawn, 4 think, 5 behave */
    Fns *f = run->out;
    f->events = events;
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

void brain_release_fns(lua_State *L, Fns *f)
{
    brain_unref(L, &f->table);
    brain_unref(L, &f->spawn);
    brain_unref(L, &f->think);
    brain_unref(L, &f->behave);
}

/* Runs b's chunk ref_chunk in the environment ref_env, as bot slot (for
** print; -1 for none), under the per-tick budget. On failure err names the
** file and line. */
bool brain_run_chunk(BrainHost *h, Brain *b, int ref_chunk, int ref_env, int slot, Fns *out, NavError *err)
{
    Fns fresh = { LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, 0 };
    *out = fresh;
    ChunkRun run = { b, ref_chunk, ref_env, out };
    int was = h->current;
    h->current = slot;
    bool ok = false;
    if (brain_protect(b, op_chunk_prepare, &run, 0, 1) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "%s: %s", b->file, h->msg);
        goto done;
    }
    NavError e;
    nav_error_clear(&e);
    NavStatus s = sandbox_call(b->sb, 0, 1, &e);
    brain_protect(b, op_chunk_neutral, &run, 0, 0);
    if (NAV_FAILED(s)) {
        char file[FILE_CAP];
        int line = 0;
        if (!sandbox_message_position(e.message, file, sizeof file, &line, NULL)) {
            snprintf(file, sizeof file, "%s", b->file);
            line = e.line;
        }
        if (e.status & NAV_E_NOMEM)
            nav_error_set(err, e.status & ~NAV_FAILURE, file, line, 0, NULL, "%s: %s", b->file, e.message);
        else nav_error_set(err, e.status & ~NAV_FAILURE, file, line, 0, NULL, "%s", e.message);
        goto done;
    }
    if (brain_protect(b, op_adopt, &run, 1, 0) != LUA_OK) {
        brain_release_fns(b->L, out);
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
    brain_push_env(L, b);
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
    brain_unref(L, &bt->ref_co);
    brain_unref(L, &bt->ref_env);
    brain_unref(L, &bt->ref_bot);
    brain_release_fns(L, &bt->fns);
    bt->co = NULL;
    /* Its event handlers (bot:on) go with it: a brain attached to the same
    ** bot later must not find them. */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &brain_handlers_key) == LUA_TTABLE) {
        lua_pushnil(L);
        lua_rawseti(L, -2, bt->id);
    }
    lua_pop(L, 1);
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
void brain_close_thread(BrainHost *h, Bot *bt, bool in_budget)
{
    Brain *b = bt->brain;
    if (!bt->co) return;
    int slot = (int)(bt - h->bots);
    int was = h->current;
    h->current = slot;
    if (!in_budget) sandbox_budget_begin(b->sb, bt->co, h->desc.instructions_per_tick, " per tick");
    brain_protect(b, op_close_thread, bt->co, 0, 0);
    lua_settop(bt->co, 0);
    if (!in_budget) sandbox_budget_end(b->sb, bt->co);
    h->current = was;
    bt->suspended = false;
}

void brain_drop_lua(BrainHost *h, Bot *bt)
{
    if (!bt->live) return;
    brain_close_thread(h, bt, false);
    BotOp op = { h, bt };
    brain_protect(bt->brain, op_bot_release, &op, 0, 0);
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
            if (lua_getstack(co, mid, &ar)) lo = mid + 1;
            else hi = mid;
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
        if (ar.namewhat && *ar.namewhat) n = appendf(out, cap, n, " in %s '%s'", ar.namewhat, ar.name ? ar.name : "?");
        else if (level == levels - 1 && entry && *ar.what != 'C') n = appendf(out, cap, n, " in function '%s'", entry);
        else if (*ar.what == 'm') n = appendf(out, cap, n, " in main chunk");
        else if (*ar.what != 'C') n = appendf(out, cap, n, " in function <%s:%d>", ar.short_src, ar.linedefined);
        else n = appendf(out, cap, n, " in ?");
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

void brain_set_fault(BrainHost *h, Bot *bt, const char *text)
{
    Brain *b = bt->brain;
    nav_free(bt->error);
    bt->error = brain_dup_string(text);
    if (!bt->error) nav_copy_text(bt->error_cut, sizeof bt->error_cut, text);
    if (!bt->faulted) {
        bt->faulted = true;
        b->faulted++;
        h->faulted++;
    }
    brain_host_log(h, "[%s#%u] fault: %s", b->name, (unsigned)bt->id, text);
}

/* The bot's script failed with status (LUA_YIELD: yielded where it must
** not); the error is on co's stack. Keeps the error, drops its Lua side. */
void brain_fault_bot(BrainHost *h, Bot *bt, int status, const char *entry)
{
    Brain *b = bt->brain;
    lua_State *co = bt->co;
    brain_fault_record(h, bt, co, status, entry);
    /* Close under the tick's budget, take the hook off while the thread is
    ** still referenced, then let it go. */
    brain_close_thread(h, bt, true);
    bt->instructions = sandbox_budget_end(b->sb, co);
    BotOp op = { h, bt };
    brain_protect(b, op_bot_release, &op, 0, 0);
    bt->live = false;
    b->need_gc = true;
}

void brain_fault_record(BrainHost *h, Bot *bt, lua_State *co, int status, const char *entry)
{
    Brain *b = bt->brain;
    char msg[1024], where[256];
    where_of(co, where, sizeof where);
    if (status == LUA_YIELD) {
        snprintf(msg, sizeof msg, "%s%s yielded: only behave runs across ticks (coroutine.yield belongs there)", where,
                 entry);
    } else if (sandbox_memory_error(b->sb, status, lua_type(co, -1) == LUA_TSTRING ? lua_tostring(co, -1) : NULL)) {
        /* Under pcall too: a brain at its cap faults (sandbox.h), and so
        ** does one the process's allocator refused. */
        size_t cap = sandbox_memory_limit(b->sb);
        if (sandbox_hit_allocator(b->sb))
            snprintf(msg, sizeof msg, "%sout of memory: the allocator refused the brain's state (%.300s)", where,
                     b->file);
        else
            snprintf(msg, sizeof msg, "%sout of memory: brain over its %g MiB cap (%.300s, shared by its bots)", where,
                     (double)cap / (1024.0 * 1024.0), b->file);
    } else {
        int t = lua_type(co, -1);
        if (t == LUA_TSTRING) snprintf(msg, sizeof msg, "%s", lua_tostring(co, -1));
        else if (t == LUA_TNUMBER) snprintf(msg, sizeof msg, "%s%.14g", where, lua_tonumber(co, -1));
        else snprintf(msg, sizeof msg, "%s(error object is a %s value)", where, lua_typename(co, t));
    }
    char tb[2048];
    traceback_of(co, entry, tb, sizeof tb);
    size_t need = strlen(msg) + 1 + strlen(tb) + 1;
    char *text = nav_malloc(need);
    if (text) snprintf(text, need, "%s\n%s", msg, tb);
    brain_set_fault(h, bt, text ? text : msg);
    nav_free(text);
}

/* One resume of the bot's coroutine under the per-tick budget. */
void brain_bot_run(BrainHost *h, int slot, int kind, double dt)
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
        brain_fault_bot(h, bt, rc, entry);
    }
    if (bt->live) bt->instructions = sandbox_budget_end(b->sb, co);
    h->current = was;
}

/* Gives the bot (attached, linked, counted) its Lua side: thread, env, the
** chunk run in its env, then spawn. False (with err) if the brain could not
** be run for it; a spawn error is a fault, not a failure. */
bool brain_bot_start(BrainHost *h, int slot, NavError *err)
{
    Bot *bt = &h->bots[slot];
    Brain *b = bt->brain;
    BotOp op = { h, bt };
    bt->live = true; /* owns refs from here: drop_lua releases whatever is set */
    if (brain_protect(b, op_bot_create, &op, 0, 0) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "%s: cannot create bot %u: %s", b->file, (unsigned)bt->id,
                      h->msg);
        brain_drop_lua(h, bt);
        return false;
    }
    if (!brain_run_chunk(h, b, b->ref_chunk, bt->ref_env, slot, &bt->fns, err)) {
        brain_drop_lua(h, bt);
        return false;
    }
    if (bt->fns.spawn != LUA_NOREF) {
        brain_bot_run(h, slot, RUN_SPAWN, 0);
        bt = &h->bots[slot];
        if (bt->live) brain_unref(b->L, &bt->fns.spawn);
    }
    return true;
}

/* }======= */

/* {======= Brains ======= */

void brain_free(Brain *b)
{
    if (!b) return;
    sandbox_destroy(b->sb);
    nav_free(b->mods);
    nav_free(b);
}

static void brain_print(void *user, const char *line)
{
    Brain *b = user;
    BrainHost *h = b->host;
    if (h->current >= 0 && h->bots[h->current].brain == b)
        brain_host_log(h, "[%s#%u] %s", b->name, (unsigned)h->bots[h->current].id, line);
    else brain_host_log(h, "[%s] %s", b->name, line);
}

Brain *brain_find(BrainHost *h, const char *name)
{
    for (int i = 0; i < h->nbrains; i++)
        if (strcmp(h->brains[i]->name, name) == 0) return h->brains[i];
    return NULL;
}

/* Creates the state and compiles bots/NAME.lua; appends the brain. */
Brain *brain_load(BrainHost *h, const char *name, NavError *err)
{
    char file[FILE_CAP], path[PATH_CAP];
    if (nav_lua_is_file(name)) {
        /* A path: as given (a leading ~/ is the home folder). */
        if (!nav_lua_path_expand(name, path, sizeof path)) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain '%s': path too long", name);
            return NULL;
        }
        size_t n = strlen(path);
        if (n < 5 || strcmp(path + n - 4, ".lua") != 0) {
            nav_error_set(err, NAV_E_PARAM, name, 0, 0, NULL, "brain '%s': a brain file's name ends in .lua", name);
            return NULL;
        }
    } else {
        const char *why = nav_lua_name_problem(name);
        if (why) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain '%s' refused: %s", name, why);
            return NULL;
        }
        char tried[2048];
        if (nav_lua_path_find(&h->path, name, true, path, sizeof path, tried, sizeof tried) < 0) {
            nav_error_set(err, NAV_E_IO, NULL, 0, 0, NULL, "brain '%s' not found:%s", name, tried);
            return NULL;
        }
    }
    FileStamp stamp = brain_stamp_of(path);
    nav_lua_display_name(path, h->root, file, sizeof file);
    if (!stamp.exists) {
        nav_error_set(err, NAV_E_IO, file, 0, 0, NULL, "%s: no such brain file", file);
        return NULL;
    }
    if (h->nbrains == h->capbrains) {
        int cap = h->capbrains ? h->capbrains * 2 : 4;
        Brain **nb = nav_realloc(h->brains, (size_t)cap * sizeof *nb);
        if (!nb) {
            nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory for the brain");
            return NULL;
        }
        h->brains = nb;
        h->capbrains = cap;
    }
    Brain *b = nav_calloc(1, sizeof *b);
    if (!b) {
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory for the brain");
        return NULL;
    }
    b->host = h;
    b->index = h->nbrains;
    snprintf(b->name, sizeof b->name, "%s", name);
    snprintf(b->file, sizeof b->file, "%s", file);
    snprintf(b->path, sizeof b->path, "%s", path);
    nav_lua_dirname(path, b->dir, sizeof b->dir);
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
        if (err) nav_copy_text(err->file, sizeof err->file, file);
        nav_free(b);
        return NULL;
    }
    b->L = sandbox_state(b->sb);
    if (brain_protect(b, brain_op_setup, b, 0, 0) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "cannot set up the state for %s: %s", file, h->msg);
        brain_free(b);
        return NULL;
    }
    char msg[1024];
    if (!brain_compile_file(b, b->path, file, &b->ref_chunk, msg, sizeof msg)) {
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

void brain_collect(Brain *b)
{
    if (!b->need_gc) return;
    lua_gc(b->L, LUA_GCCOLLECT);
    b->need_gc = false;
}

/* }======= */

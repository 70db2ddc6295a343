/*
** brain_reload.c — hot reload: files whose stamps changed are compiled
** again and swapped in, keeping the bots' memory.
**
** A module that changed is loaded again, then its new table is poured
** into the old one (patched in place): objects made by the old version
** (its table their metatable, or held as an upvalue by another module or
** a brain) run the new code at once. A failed reload takes the patch back.
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

/* {======= Hot reload ======= */

typedef struct ModuleSwap {
    Brain *b;
    const bool *changed; /* per module */
    int saved;           /* ref: name -> the old cached value */
    int undo;            /* ref: the patch's undo log (patch_set) */
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

/* {======= modules patched in place ======= */

/* While patching, the stack holds `map` (a table of the new version -> the
** old table it is poured into) and `undo` (a list of {table, key, old
** value}, the list itself standing for nil), both absolute indices. */
typedef struct Patch {
    int map, undo, seen;
} Patch;

/* t[k] = v (raw), its old value logged first. */
static void patch_set(lua_State *L, const Patch *p, int t, int k, int v)
{
    lua_createtable(L, 3, 0);
    lua_pushvalue(L, t);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, k);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, k);
    if (lua_rawget(L, t) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushvalue(L, p->undo);
    }
    lua_rawseti(L, -2, 3);
    lua_rawseti(L, p->undo, (lua_Integer)lua_rawlen(L, p->undo) + 1);
    lua_pushvalue(L, k);
    lua_pushvalue(L, v);
    lua_rawset(L, t);
}

/* Pours table `fresh` into `old`: every key of the new version takes its
** new value (functions, constants), except that a table meeting a table
** is poured into it in turn (so tables of state keep what they hold) and
** a table of the new version already matched becomes its old one (a
** class's __index pointing at itself). Keys only the old version has
** stay. */
static void patch_table(lua_State *L, const Patch *p, int old, int fresh)
{
    luaL_checkstack(L, 10, "reload: tables nested too deep");
    lua_pushnil(L);
    while (lua_next(L, fresh)) {
        int k = lua_absindex(L, -2), v = lua_absindex(L, -1);
        if (lua_type(L, v) == LUA_TTABLE) {
            lua_pushvalue(L, v);
            if (lua_rawget(L, p->map) == LUA_TTABLE) {
                patch_set(L, p, old, k, lua_absindex(L, -1));
                lua_pop(L, 2);
                continue;
            }
            lua_pop(L, 1);
            lua_pushvalue(L, k);
            if (lua_rawget(L, old) == LUA_TTABLE && !lua_rawequal(L, -1, v)) {
                int o = lua_absindex(L, -1);
                lua_pushvalue(L, v);
                lua_pushvalue(L, o);
                lua_rawset(L, p->map);
                patch_table(L, p, o, v);
                lua_pop(L, 2);
                continue;
            }
            lua_pop(L, 1);
        }
        patch_set(L, p, old, k, v);
        lua_pop(L, 1);
    }
}

/* The new functions' upvalues that hold a table of the new version (the
** module's own `local M = {}`, a module reloaded with it) are pointed at
** the old table, so code run later (follow.new's setmetatable) hands out
** the patched table, not a copy the next reload would miss. Upvalues are
** shared by the closures of one chunk: setting one sets it for all. */
static void patch_upvalues(lua_State *L, const Patch *p, int v)
{
    luaL_checkstack(L, 10, "reload: tables nested too deep");
    int t = lua_type(L, v);
    if ((t != LUA_TTABLE && t != LUA_TFUNCTION) || (t == LUA_TFUNCTION && lua_iscfunction(L, v))) return;
    lua_pushvalue(L, v);
    if (lua_rawget(L, p->seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, v);
    lua_pushboolean(L, 1);
    lua_rawset(L, p->seen);
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, v)) {
            patch_upvalues(L, p, lua_absindex(L, -1));
            lua_pop(L, 1);
        }
        return;
    }
    for (int i = 1; lua_getupvalue(L, v, i); i++) {
        int u = lua_absindex(L, -1);
        if (lua_type(L, u) == LUA_TTABLE) {
            lua_pushvalue(L, u);
            if (lua_rawget(L, p->map) == LUA_TTABLE) {
                lua_setupvalue(L, v, i);
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
        } else if (lua_type(L, u) == LUA_TFUNCTION) {
            patch_upvalues(L, p, u);
        }
        lua_pop(L, 1);
    }
}

/* Each changed module whose old and new values are both tables: the new
** poured into the old, which goes back into require's cache. The undo
** log is kept (sw->undo) until the reload commits or fails. */
static int op_patch(lua_State *L)
{
    ModuleSwap *sw = lua_touserdata(L, 1);
    Brain *b = sw->b;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->ref_loaded); /* 2 */
    lua_rawgeti(L, LUA_REGISTRYINDEX, sw->saved);     /* 3 */
    lua_newtable(L);                                  /* 4: map */
    lua_newtable(L);                                  /* 5: undo */
    lua_newtable(L);                                  /* 6: seen */
    Patch p = { 4, 5, 6 };
    lua_pushvalue(L, 5);
    sw->undo = luaL_ref(L, LUA_REGISTRYINDEX);
    /* Every pair first: a module may hold another reloaded with it. */
    for (int i = 0; i < b->nmods; i++) {
        if (!sw->changed[i]) continue;
        lua_getfield(L, 2, b->mods[i].name);
        lua_getfield(L, 3, b->mods[i].name);
        if (lua_type(L, -1) == LUA_TTABLE && lua_type(L, -2) == LUA_TTABLE && !lua_rawequal(L, -1, -2))
            lua_rawset(L, 4);
        else lua_pop(L, 2);
    }
    for (int i = 0; i < b->nmods; i++) {
        if (!sw->changed[i]) continue;
        lua_getfield(L, 2, b->mods[i].name); /* new */
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 4) != LUA_TTABLE) {
            lua_pop(L, 2);
            continue;
        }
        patch_table(L, &p, lua_absindex(L, -1), lua_absindex(L, -2));
        lua_setfield(L, 2, b->mods[i].name); /* the old table, patched */
        lua_pop(L, 1);
    }
    for (int i = 0; i < b->nmods; i++) {
        if (!sw->changed[i]) continue;
        lua_getfield(L, 2, b->mods[i].name);
        patch_upvalues(L, &p, lua_absindex(L, -1));
        lua_pop(L, 1);
    }
    return 0;
}

/* A failed reload: every patched key gets its old value back, newest
** first. */
static int op_unpatch(lua_State *L)
{
    ModuleSwap *sw = lua_touserdata(L, 1);
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, sw->undo) != LUA_TTABLE) return 0;
    int undo = lua_absindex(L, -1);
    for (lua_Integer i = (lua_Integer)lua_rawlen(L, undo); i >= 1; i--) {
        lua_rawgeti(L, undo, i);
        int e = lua_absindex(L, -1);
        lua_rawgeti(L, e, 1);
        lua_rawgeti(L, e, 2);
        lua_rawgeti(L, e, 3);
        if (lua_rawequal(L, -1, undo)) {
            lua_pop(L, 1);
            lua_pushnil(L);
        }
        lua_rawset(L, -3);
        lua_pop(L, 2);
    }
    return 0;
}

/* }======= */

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
    if (brain_protect(b, op_push_require, &op, 0, 2) != LUA_OK) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "%s", h->msg);
        return false;
    }
    return NAV_SUCCEEDED(sandbox_call(b->sb, 1, 0, err));
}

static bool compile_check(Brain *b, const char *path, const char *file, char *msg, size_t cap)
{
    int ref = LUA_NOREF;
    if (!brain_compile_file(b, path, file, &ref, msg, cap)) return false;
    brain_unref(b->L, &ref);
    return true;
}

static void reload_failed(BrainHost *h, Brain *b, const char *why)
{
    nav_copy_text(b->reload_error, sizeof b->reload_error, why);
    brain_host_log(h, "[%s] reload failed, keeping the old version: %s", b->name, why);
}

/* Reloads b: brain_now is the file's stamp now, mod_now the modules'. */
static bool brain_reload(BrainHost *h, Brain *b, const FileStamp *brain_now, const FileStamp *mod_now,
                         bool *mod_changed)
{
    lua_State *L = b->L;
    int nmods = b->nmods;
    bool brain_changed = !brain_stamp_eq(brain_now, &b->stamp);
    char msg[1024];
    int ref_new = b->ref_chunk;
    bool ok = false;

    /* Whatever fails, the same versions are not tried (or logged) again. */
    b->failed = *brain_now;
    for (int i = 0; i < nmods; i++)
        if (mod_changed[i]) b->mods[i].failed = mod_now[i];

    if (brain_changed && !brain_compile_file(b, b->path, b->file, &ref_new, msg, sizeof msg)) {
        reload_failed(h, b, msg);
        return false;
    }
    for (int i = 0; i < nmods; i++) {
        if (mod_changed[i] && !compile_check(b, b->mods[i].path, b->mods[i].file, msg, sizeof msg)) {
            reload_failed(h, b, msg);
            if (ref_new != b->ref_chunk) brain_unref(L, &ref_new);
            return false;
        }
    }

    FileStamp *old_stamps = nav_malloc((size_t)(nmods ? nmods : 1) * sizeof *old_stamps);
    int live = 0;
    for (int s = h->first; s >= 0; s = h->bots[s].next)
        if (h->bots[s].brain == b && h->bots[s].live) live++;
    Fns *fresh = nav_calloc((size_t)(live ? live : 1), sizeof *fresh);
    ModuleSwap sw = { b, mod_changed, LUA_NOREF, LUA_NOREF };
    if (!old_stamps || !fresh || brain_protect(b, op_modules_out, &sw, 0, 0) != LUA_OK) {
        reload_failed(h, b, "out of memory");
        nav_free(old_stamps);
        nav_free(fresh);
        if (ref_new != b->ref_chunk) brain_unref(L, &ref_new);
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
    if (run_ok && brain_protect(b, op_patch, &sw, 0, 0) != LUA_OK) {
        run_ok = false;
        nav_error_set(&e, NAV_E_NOMEM, NULL, 0, 0, NULL, "%s", h->msg);
    }
    if (!run_ok) {
        /* reported below */
    } else if (live == 0) {
        Fns scratch;
        run_ok = brain_run_chunk(h, b, ref_new, LUA_NOREF, -1, &scratch, &e);
        if (run_ok) brain_release_fns(L, &scratch);
    } else {
        for (int s = h->first; s >= 0 && run_ok; s = h->bots[s].next) {
            Bot *bt = &h->bots[s];
            if (bt->brain != b || !bt->live) continue;
            run_ok = brain_run_chunk(h, b, ref_new, bt->ref_env, s, &fresh[done], &e);
            if (run_ok) done++;
        }
    }
    if (!run_ok) {
        for (int i = 0; i < done; i++) brain_release_fns(L, &fresh[i]);
        brain_protect(b, op_unpatch, &sw, 0, 0);
        brain_protect(b, op_modules_back, &sw, 0, 0);
        for (int i = 0; i < nmods; i++) b->mods[i].stamp = old_stamps[i];
        reload_failed(h, b, e.message);
        if (ref_new != b->ref_chunk) brain_unref(L, &ref_new);
        goto out;
    }

    /* Commit: every live bot gets the new functions; behave starts over. */
    int k = 0;
    for (int s = h->first; s >= 0 && k < done; s = h->bots[s].next) {
        Bot *bt = &h->bots[s];
        if (bt->brain != b || !bt->live) continue;
        brain_close_thread(h, bt, false);
        bt = &h->bots[s];
        brain_release_fns(L, &bt->fns);
        bt->fns = fresh[k++];
        brain_unref(L, &bt->fns.spawn);
    }
    if (ref_new != b->ref_chunk) {
        brain_unref(L, &b->ref_chunk);
        b->ref_chunk = ref_new;
    }
    b->stamp = *brain_now;
    for (int i = 0; i < nmods; i++)
        if (mod_changed[i] && brain_stamp_eq(&b->mods[i].stamp, &old_stamps[i])) b->mods[i].stamp = mod_now[i];
    b->reloads++;
    b->reload_error[0] = '\0';
    brain_host_log(h, "[%s] reloaded %s (%d bots)", b->name, b->file, live);

    /* Faulted bots of this brain start afresh. */
    for (int s = h->first; s >= 0; s = h->bots[s].next) {
        Bot *bt = &h->bots[s];
        if (bt->brain != b || !bt->faulted) continue;
        bt->faulted = false;
        b->faulted--;
        h->faulted--;
        nav_free(bt->error);
        bt->error = NULL;
        bt->suspended = false;
        NavError se;
        nav_error_clear(&se);
        if (!brain_bot_start(h, s, &se)) brain_set_fault(h, &h->bots[s], se.message);
    }
    ok = true;
out:
    brain_unref(L, &sw.saved);
    brain_unref(L, &sw.undo);
    nav_free(old_stamps);
    nav_free(fresh);
    b->need_gc = true;
    brain_collect(b);
    return ok;
}

int brain_host_reload_changed(BrainHost *h)
{
    if (!h || brain_busy(h)) return 0;
    int reloaded = 0;
    for (int i = 0; i < h->nbrains; i++) {
        Brain *b = h->brains[i];
        FileStamp now = brain_stamp_of(b->path);
        /* A reload is due when some file is new: neither the loaded version
        ** nor one that already failed. Then every file that differs from its
        ** loaded version goes in. */
        bool due = !brain_stamp_eq(&now, &b->stamp) && !brain_stamp_eq(&now, &b->failed);
        int nmods = b->nmods;
        FileStamp *mod_now = nav_calloc((size_t)(nmods ? nmods : 1), sizeof *mod_now);
        bool *changed = nav_calloc((size_t)(nmods ? nmods : 1), sizeof *changed);
        if (!mod_now || !changed) {
            nav_free(mod_now);
            nav_free(changed);
            continue;
        }
        for (int m = 0; m < nmods; m++) {
            mod_now[m] = brain_stamp_of(b->mods[m].path);
            changed[m] = !brain_stamp_eq(&mod_now[m], &b->mods[m].stamp);
            if (changed[m] && !brain_stamp_eq(&mod_now[m], &b->mods[m].failed)) due = true;
        }
        if (due && brain_reload(h, b, &now, mod_now, changed)) reloaded++;
        nav_free(mod_now);
        nav_free(changed);
    }
    brain_flush_detaches(h);
    return reloaded;
}

/* }======= */

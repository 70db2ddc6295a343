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

/* {======= Small helpers ======= */

char *brain_dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = nav_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void brain_host_log(BrainHost *h, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *line = small;
    if (n >= (int)sizeof small) {
        char *big = nav_malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            line = big;
        }
    }
    if (h->desc.log) h->desc.log(h->desc.log_user, line);
    else fprintf(stderr, "%s\n", line);
    if (line != small) nav_free(line);
}

FileStamp brain_stamp_of(const char *path)
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

bool brain_stamp_eq(const FileStamp *a, const FileStamp *b)
{
    return a->exists == b->exists && a->sec == b->sec && a->nsec == b->nsec && a->size == b->size;
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

static int handle_of(const BrainHost *h, int slot) { return slot | (int)(h->bots[slot].gen << GEN_SHIFT); }

/* Inside brain_tick, or while any script runs (an engine callback). */
Bot *brain_bot_at(const BrainHost *h, int handle) { return bot_at(h, handle); }

bool brain_busy(const BrainHost *h) { return h->in_tick || h->current >= 0; }

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
            Bot *nb = nav_realloc(h->bots, (size_t)cap * sizeof *nb);
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
    bt->fns = (Fns){ LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, 0 };
    return s;
}

static void link_last(BrainHost *h, int s)
{
    Bot *bt = &h->bots[s];
    bt->prev = h->last;
    bt->next = -1;
    if (h->last >= 0) h->bots[h->last].next = s;
    else h->first = s;
    h->last = s;
    bt->brain->bots++;
    h->count++;
}

static void unlink_and_free(BrainHost *h, int s)
{
    Bot *bt = &h->bots[s];
    if (bt->prev >= 0) h->bots[bt->prev].next = bt->next;
    else h->first = bt->next;
    if (bt->next >= 0) h->bots[bt->next].prev = bt->prev;
    else h->last = bt->prev;
    bt->brain->bots--;
    h->count--;
    if (bt->faulted) {
        bt->brain->faulted--;
        h->faulted--;
    }
    nav_free(bt->error);
    bt->error = NULL;
    bt->brain = NULL;
    bt->next = h->free_head;
    h->free_head = s;
}

/* }======= */

/* {======= Public API ======= */

/* Detaches asked for while scripts ran. */
void brain_flush_detaches(BrainHost *h)
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
    BrainHost *h = nav_calloc(1, sizeof *h);
    if (!h) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory creating the brain host");
        return NULL;
    }
    h->desc = *desc;
    h->desc.root = NULL;
    h->desc.lua_path = NULL;
    for (int r = 0; r < BRAIN_MAX_ROOTS; r++) h->desc.extra_roots[r] = NULL;
    NavStatus st = NAV_OK;
    char dir[PATH_CAP];
    for (int r = 0; r < BRAIN_MAX_ROOTS && desc->extra_roots[r] && NAV_SUCCEEDED(st); r++) {
        const char *root = desc->extra_roots[r];
        size_t n = strlen(root);
        if (n == 0 || n >= BRAIN_ROOT_MAX) {
            nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain root '%s': %s", root,
                          n ? "the path is too long" : "the path is empty");
            nav_lua_path_free(&h->path);
            nav_free(h);
            return NULL;
        }
        while (n > 1 && root[n - 1] == '/') n--;
        snprintf(dir, sizeof dir, "%.*s/bots", (int)n, root);
        st = nav_lua_path_add(&h->path, dir, NAV_LUA_DIR_ANY, err);
        snprintf(dir, sizeof dir, "%.*s/lua", (int)n, root);
        if (NAV_SUCCEEDED(st)) st = nav_lua_path_add(&h->path, dir, NAV_LUA_DIR_MODULES, err);
    }
    if (NAV_SUCCEEDED(st)) st = nav_lua_path_append(&h->path, desc->lua_path, err);
    if (desc->root && desc->root[0]) {
        snprintf(h->root, sizeof h->root, "%s", desc->root);
        if (NAV_SUCCEEDED(st)) st = nav_lua_path_add_bundled(&h->path, h->root, err);
    } else if (nav_lua_bundled_root(h->root, sizeof h->root)) {
        if (NAV_SUCCEEDED(st)) st = nav_lua_path_add_bundled(&h->path, h->root, err);
    }
    if (NAV_FAILED(st)) {
        nav_lua_path_free(&h->path);
        nav_free(h);
        return NULL;
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
    for (int s = h->first; s >= 0; s = h->bots[s].next) brain_drop_lua(h, &h->bots[s]);
    for (int s = 0; s < h->nslots; s++) nav_free(h->bots[s].error);
    for (int i = 0; i < h->nbrains; i++) brain_free(h->brains[i]);
    nav_free(h->brains);
    nav_free(h->bots);
    nav_lua_path_free(&h->path);
    nav_free(h);
}

int brain_attach(BrainHost *h, const char *name, uint32_t bot_id, NavError *err)
{
    if (!h || !name) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "brain_attach: no host or no name");
        return -1;
    }
    if (brain_busy(h)) {
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
        nav_error_set(err, NAV_E_NOMEM, b->file, 0, 0, NULL, "too many bots (out of memory or over %d)",
                      BRAIN_MAX_BOTS);
        if (fresh && b->bots == 0) {
            h->nbrains--;
            brain_free(b);
        }
        return -1;
    }
    h->bots[s].brain = b;
    h->bots[s].id = bot_id;
    link_last(h, s);
    if (!brain_bot_start(h, s, err)) {
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
    brain_flush_detaches(h);
    return handle;
}

void brain_detach(BrainHost *h, int handle)
{
    Bot *bt = bot_at(h, handle);
    if (!bt || bt->detach_pending) return;
    if (brain_busy(h)) { /* maybe from its own script: release it once that is over */
        bt->detach_pending = true;
        h->pending_detach = true;
        return;
    }
    Brain *b = bt->brain;
    brain_drop_lua(h, bt);
    unlink_and_free(h, (int)(bt - h->bots));
    b->need_gc = true;
    brain_collect(b);
}

void brain_tick(BrainHost *h, double dt)
{
    if (!h || brain_busy(h)) return;
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
        brain_bot_run(h, s, kind, dt);
        bt = &h->bots[s];
        bt->brain->tick_ns += timer_now_ns() - b0;
        bt->brain->instructions += bt->instructions;
        h->instructions += bt->instructions;
    }
    h->in_tick = false;
    brain_flush_detaches(h);
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
    return bt && bt->faulted ? (bt->error ? bt->error : bt->error_cut) : NULL;
}

/* }======= */

/* {======= Faults from outside (tests inject them) ======= */

bool brain_fault(BrainHost *h, int handle, const char *message)
{
    Bot *bt = bot_at(h, handle);
    if (!bt || bt->faulted || brain_busy(h)) return false;
    Brain *b = bt->brain;
    brain_set_fault(h, bt, message && *message ? message : "fault injected");
    /* The same end as a fault raised by its script: coroutine closed (its
    ** __close handlers under a budget of their own), refs released. */
    brain_drop_lua(h, bt);
    b->need_gc = true;
    brain_collect(b);
    return true;
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

int brain_host_brain_count(const BrainHost *h) { return h ? h->nbrains : 0; }

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
    out->reload_error = b->reload_error[0] ? b->reload_error : NULL;
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

/*
** brain_event.c — events delivered to a bot's handlers (brain.h,
** brain_event): a fresh thread of the bot's state per call, the handler
** found in the registry's table at &brain_handlers_key or the brain table,
** its own instruction budget, and faults kept like those of think.
*/
#include "script/brain_internal.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

const char brain_handlers_key = 0;
const char *const brain_event_names[] = { "arrive", "stuck", "contact", "fall", "learn", NULL };

typedef struct EventOp {
    Bot *bt;
    const char *name;
    bool from_table; /* the brain table had on_NAME when loaded */
    void (*push_info)(lua_State *L, void *user);
    void *user;
    lua_State *th; /* set when there is a handler to run */
} EventOp;

/* Leaves the thread (fn, bot, info on its stack) on the state's stack, or
** nothing when the bot has no handler. */
static int op_prepare(lua_State *L)
{
    EventOp *op = lua_touserdata(L, 1);
    Bot *bt = op->bt;
    int fn = 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &brain_handlers_key) == LUA_TTABLE &&
        lua_rawgeti(L, -1, bt->id) == LUA_TTABLE && lua_getfield(L, -1, op->name) == LUA_TFUNCTION)
        fn = lua_gettop(L);
    if (!fn && op->from_table && bt->fns.table != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, bt->fns.table);
        lua_pushfstring(L, "on_%s", op->name);
        if (lua_rawget(L, -2) == LUA_TFUNCTION) fn = lua_gettop(L);
    }
    if (!fn) return 0;
    lua_State *th = lua_newthread(L);
    lua_pushvalue(L, fn);
    lua_xmove(L, th, 1);
    lua_rawgeti(th, LUA_REGISTRYINDEX, bt->ref_bot);
    if (op->push_info) op->push_info(th, op->user);
    else lua_pushnil(th);
    op->th = th;
    return 1;
}

/* Might the bot have a handler for event ev (-1: not a table event)?
** Without allocating: a bot with none costs two table reads. */
static bool may_handle(Brain *b, Bot *bt, int ev)
{
    if (ev >= 0 && (bt->fns.events & (1u << ev))) return true;
    lua_State *L = b->L;
    bool set = false;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &brain_handlers_key) == LUA_TTABLE) {
        set = lua_rawgeti(L, -1, bt->id) == LUA_TTABLE;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return set;
}

bool brain_event(BrainHost *h, int handle, const char *name, void (*push_info)(lua_State *L, void *user), void *user)
{
    Bot *bt = brain_bot_at(h, handle);
    if (!bt || !bt->live || bt->faulted || bt->detach_pending || brain_busy(h)) return false;
    Brain *b = bt->brain;
    int ev = -1;
    for (int i = 0; brain_event_names[i]; i++)
        if (strcmp(brain_event_names[i], name) == 0) ev = i;
    if (!may_handle(b, bt, ev)) return false;
    int slot = (int)(bt - h->bots);
    EventOp op = { bt, name, ev >= 0 && (bt->fns.events & (1u << ev)), push_info, user, NULL };
    int base = lua_gettop(b->L);
    h->in_tick = true; /* a detach from the handler waits for its end */
    char entry[BRAIN_EVENT_NAME_MAX + 8];
    snprintf(entry, sizeof entry, "on_%s", name);
    bool ran = false;
    if (brain_protect(b, op_prepare, &op, 0, 1) != LUA_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s: %s", entry, h->msg);
        brain_set_fault(h, bt, msg);
        brain_drop_lua(h, bt);
        ran = true;
    } else if (op.th) {
        lua_State *th = op.th;
        int was = h->current;
        h->current = slot;
        sandbox_budget_begin(b->sb, th, h->desc.instructions_per_tick, " per tick");
        int nres = 0;
        int rc = lua_resume(th, b->L, 2, &nres);
        if (rc != LUA_OK) {
            brain_fault_record(h, bt, th, rc, entry);
            /* Its pending to-be-closed variables, still under the budget. */
#if LUA_VERSION_RELEASE_NUM >= 50406
            lua_closethread(th, b->L);
#else
            lua_resetthread(th);
#endif
        }
        lua_settop(th, 0);
        sandbox_budget_end(b->sb, th);
        h->current = was;
        if (rc != LUA_OK) brain_drop_lua(h, bt);
        ran = true;
    }
    lua_settop(b->L, base);
    h->in_tick = false;
    brain_flush_detaches(h);
    if (ran) {
        b->need_gc = true;
        brain_collect(b);
    }
    return ran;
}

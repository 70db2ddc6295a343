/*
** brain.h — the brain host: one Lua brain per bot, each bot in its own
** environment and coroutine, every bot under an instruction budget per tick,
** every brain file in its own capped sandbox state; faults stop one bot,
** never the others or the host; brain files and their modules reload while
** the bots run.
**
** A brain is a Lua file: named by its path ("bots/guard.lua", anything
** ending in .lua or holding a '/'), or by a NAME found as NAME.lua along
** the host's search path (lua/lua_paths.h): the extra roots' bots/ and
** lua/, desc.lua_path, then ROOT/bots (ROOT: desc.root, default navbot's
** bundled folder, found beside the executable).
** One sandbox state (lua/sandbox.h) per brain file holds every bot of
** that brain: the file is compiled once, and its chunk is run once per bot
** with the bot's own _ENV, so bots of one brain share nothing but the
** modules they require and the state's memory cap. docs/brains.md is the
** guide for script writers.
**
** THE SCRIPT PROTOCOL
**   bots/NAME.lua returns a table, the brain, with any of:
**     spawn(bot)        once, when the bot is attached
**     think(bot, dt)    every tick (when there is no behave)
**     behave(bot, dt)   a coroutine body that runs across ticks:
**                       coroutine.yield() ends this bot's tick and returns
**                       the next tick's dt. When behave returns, it starts
**                       again at the next tick.
**   The functions are read from the table when the brain is loaded (and at
**   each reload); changing the table later does not change them.
**   Event handlers on_arrive, on_stuck, on_contact, on_fall, on_learn (bot, info)
**   are noted the same way (brain_event); one that is not a function is
**   a load error.
**   `bot` is what desc.push_bot pushes (default: a table { id = bot_id }).
**   Globals a bot sets live in its own environment; reading a global it has
**   not set finds the state's shared, read-only globals: the sandbox's safe
**   libraries (string, table, math, utf8, coroutine; print), require, and
**   nav. Every table among the shared globals is a read-only view, and
**   getmetatable("") is false, so no bot can change what another one sees.
**   require(name) loads NAME.lua from the brain file's own folder, else
**   along the host's search path (the extra roots' bots/ and lua/,
**   desc.lua_path, ROOT/lua, ROOT/bots), once per state (later calls
**   return the cached value); `.` in a name separates folders
**   (require "ai.path" -> ai/path.lua); a module not found is an error
**   listing every file tried, as Lua's own require does; only letters, digits,
**   `_` and `.` are allowed. A module runs in its own environment and is
**   shared by every bot of the state: the only way bots share state.
**   require "nav" returns the engine module.
**
** SAFETY
**   - A runtime error, a spent budget or a memory error in spawn, think or
**     behave faults that bot: its error (message and a traceback of its
**     coroutine) is kept and logged once, its coroutine is closed and its
**     environment released (then collected), and it is not ticked again.
**     A lua_error from an engine function is the same kind of fault.
**   - Budget: instructions_per_tick, counted by a count hook on the bot's
**     coroutine (and on coroutines it creates); pcall cannot catch it.
**   - Work inside C calls (patterns, string.rep, table.concat, sort, big
**     strings made by `..`) is charged to the same budget (lua/sandbox.h).
**   - Memory: the state's cap; the bot whose allocation fails there faults
**     with "out of memory: brain over its N MiB cap", even under pcall, and
**     its memory goes back to the other bots.
**   - Finalizers (__gc) are refused; they would run outside any budget.
**   - A bot's own coroutine cannot be resumed or closed from a script.
**
** HOT RELOAD (brain_host_reload_changed)
**   A brain whose file, or a module its state required, changed on disk
**   (mtime or size) is compiled again; the changed modules are loaded again
**   (their own state starts over); the new chunk runs again in each bot's
**   existing environment
**   (so globals a bot set are kept: write `count = count or 0` at top
**   level); then each bot's behave coroutine is closed and starts again
**   with the new behave at its next tick. spawn is not called again.
**   Faulted bots of that brain start afresh (new environment, spawn).
**   If anything fails (compile, or the chunk for any bot) the old version
**   stays for every bot and the reason is logged ("file:line: message");
**   the same broken file is not reported again until it changes.
**
** STEP BY STEP
**   BrainHost *h = brain_host_create(&(BrainHostDesc){ .root = ".", .seed = 7,
**                    .open_api = my_open_nav, .push_bot = my_push_bot, .user = sim }, &err);
**   int b = brain_attach(h, "guard", bot_id, &err);     -1: err names file and line
**   each tick:  brain_tick(h, dt);
**               if (brain_faulted(h, b)) show(brain_error(h, b));
**   now and then: brain_host_reload_changed(h);
**   brain_detach(h, b);  brain_host_destroy(h);
**
** DOES NOT: run bots in parallel (one thread, attach order); count the
** work of one engine call (nav functions are bounded by their own limits)
** or what lua/sandbox.h leaves out (comparing long strings); lock the engine's own metatables (give them __metatable); preempt a
** bot across ticks (an endless loop faults, it is not sliced); load binary
** chunks, or (by require) anything outside the search path. brain_tick,
** brain_attach and reload must not be called from inside a bot's tick,
** except brain_detach (a bot detached during its own tick is released when
** the tick ends).
*/
#ifndef NAV_BRAIN_H
#define NAV_BRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "core/nav.h"
#include "core/limits.h"
#include "lua/lua_paths.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Defines and macros ======= */

#define BRAIN_DEFAULT_MEMORY NAV_LIMIT_BRAIN_MEMORY /* core/limits.h */
#define BRAIN_DEFAULT_INSTRUCTIONS NAV_LIMIT_BRAIN_INSTRUCTIONS
#define BRAIN_MAX_BOTS (1 << 20)
#define BRAIN_NAME_MAX 96  /* bytes in a brain or module name */
#define BRAIN_MAX_ROOTS 4  /* extra roots (BrainHostDesc.extra_roots) */
#define BRAIN_ROOT_MAX 384 /* bytes in an extra root's path */

/* }======= */

/* {======= Types ======= */

/* Zero means default. */
typedef struct BrainHostDesc {
    /* The folder holding bots/ and lua/; NULL or "": navbot's bundled
    ** one (nav_lua_bundled_root), searched last. */
    const char *root;
    /* More folders holding bots/ and lua/, searched before root, in order
    ** (NULL ends the list): brains that belong with a test rather than
    ** with the project, or a temporary copy rewritten to test a reload.
    ** Their files are named by their whole path ("ROOT/bots/x.lua"),
    ** root's by their path inside root ("bots/x.lua"). */
    const char *extra_roots[BRAIN_MAX_ROOTS];
    /* Folders of modules and brains (--lua-path, then NAVBOT_PATH),
    ** searched after the extra roots and before root. Copied. */
    const NavLuaPath *lua_path;
    size_t memory_limit;            /* bytes per Lua state (one per brain file); default 64 MiB */
    uint64_t instructions_per_tick; /* per bot per tick; default 1,000,000 */
    uint32_t seed;                  /* math.random seed of every state, so runs repeat */
    /* Installs the engine's `nav` module in a new state. Called once per
    ** state in protected mode (it may raise Lua errors) with an empty stack;
    ** it either leaves the module table on the top of the stack (luaopen_
    ** style) or sets the global `nav`. The host makes it read-only, and
    ** `require "nav"` and the global `nav` both find it. NULL: an empty
    ** table. */
    void (*open_api)(lua_State *L, void *user);
    /* Pushes the Lua value that stands for bot_id (the engine's userdata)
    ** onto L; called once per bot, in protected mode. NULL: a table with
    ** the field id. */
    void (*push_bot)(lua_State *L, uint32_t bot_id, void *user);
    void *user;
    /* The console: print() from brains ("[guard#7] text"), faults (with
    ** their traceback, several lines in one call), reload results. NULL:
    ** stderr. */
    void (*log)(void *user, const char *line);
    void *log_user;
} BrainHostDesc;

typedef struct BrainHost BrainHost;

/* One brain file and its state, for a HUD. Strings live as long as the host. */
typedef struct BrainStats {
    const char *name; /* "guard" */
    const char *file; /* "bots/guard.lua" */
    size_t memory;    /* bytes the state holds now */
    size_t memory_peak;
    size_t memory_limit;
    int bots;                 /* attached */
    int faulted;              /* of those, faulted */
    int modules;              /* modules its state has required */
    int reloads;              /* successful reloads */
    const char *reload_error; /* why the last reload failed; NULL after a success */
    uint64_t instructions;    /* all its bots in the last tick (steps of SANDBOX_HOOK_STEP) */
    double tick_ms;           /* wall time of its bots in the last tick */
} BrainStats;

/* One bot, for a HUD. */
typedef struct BrainBotStats {
    uint32_t bot_id;
    int brain; /* index for brain_host_brain_stats */
    bool faulted;
    bool behaving;          /* the brain has behave (else think) */
    bool suspended;         /* behave is suspended mid-run, between ticks */
    uint64_t ticks;         /* ticks it ran */
    uint64_t behave_starts; /* times behave started (first tick, after it returned, after a reload) */
    uint64_t instructions;  /* in its last tick (steps of SANDBOX_HOOK_STEP) */
} BrainBotStats;

/* The whole host. */
typedef struct BrainHostStats {
    int brains;
    int bots;
    int faulted;
    size_t memory;         /* all states */
    uint64_t instructions; /* all bots, last tick */
    double tick_ms;        /* the last brain_tick */
    uint64_t ticks;        /* brain_tick calls */
} BrainHostStats;

/* }======= */

/* {======= Functions ======= */

/* A host with no brains loaded yet. desc is copied (the roots and the
** path too). Returns NULL with err when out of memory or an extra root's
** path is longer than BRAIN_ROOT_MAX. No bundled folder found (a library
** moved without its share/navbot) is not an error: brains and modules are
** then found only along the other folders. */
BrainHost *brain_host_create(const BrainHostDesc *desc, NavError *err);

/* Detaches every bot (closing their coroutines) and closes every state. NULL is fine. */
void brain_host_destroy(BrainHost *h);

/* Attach bot_id to the brain NAME (a name or a .lua file's path, see the
** top): loads the file on first use, runs its
** chunk in a new environment for this bot, then spawn. Returns a handle >= 0
** (a spawn error leaves the bot attached but faulted), or -1 with err naming
** the file and line when the brain cannot be loaded (bad name, missing file,
** syntax error, a runtime error in its chunk, a chunk that does not return a
** table, spawn/think/behave that are not functions). A brain that failed is
** not kept, so the next attach reads the file again. */
int brain_attach(BrainHost *h, const char *name, uint32_t bot_id, NavError *err);

/* Release the bot's coroutine (its pending to-be-closed variables are
** closed), environment and bot value; the handle goes stale. Stale handles
** are ignored. */
void brain_detach(BrainHost *h, int handle);

/* One tick for every attached, unfaulted bot, in attach order: resumes its
** behave coroutine (passing dt) or calls think(bot, dt), under the budget. */
void brain_tick(BrainHost *h, double dt);

/* Whether the bot faulted, and its error: "bots/x.lua:12: message\nstack
** traceback:\n\t...". NULL when it has not faulted or the handle is stale. */
bool brain_faulted(const BrainHost *h, int handle);
const char *brain_error(const BrainHost *h, int handle);

/* Fault the bot from outside its script (a test injecting a failure): as
** if its script had raised `message`, it stops with that error, kept and
** logged, and its Lua side is released; a reload of its brain starts it
** afresh. False for a stale handle, a bot already faulted, or while a
** script runs. */
bool brain_fault(BrainHost *h, int handle, const char *message);

/* Reload every brain whose file or required modules changed on disk since
** loaded (see HOT RELOAD above). Returns how many brains reloaded. */
int brain_host_reload_changed(BrainHost *h);

/* Stats. The getters return false (and leave *out alone) for a stale handle
** or an index out of range. */
void brain_host_stats(const BrainHost *h, BrainHostStats *out);
int brain_host_brain_count(const BrainHost *h);
bool brain_host_brain_stats(const BrainHost *h, int index, BrainStats *out);
bool brain_bot_stats(const BrainHost *h, int handle, BrainBotStats *out);

/* {======= Events (brain_event.c) ======= */

/* The registry of each brain state holds, under this variable's address
** (lua_rawgetp), the handlers set from scripts: { [bot id] = { [event
** name] = function } } (the nav module's bot:on writes it). */
extern const char brain_handlers_key;
#define BRAIN_EVENT_NAME_MAX 24

/* Call bot `handle`'s handler for event `name` ("arrive"): the function
** its script set with bot:on(name, fn), else its brain table's field
** on_NAME (taken when the brain is loaded, like think), as
** fn(bot, info) where push_info pushes the one value info (called in
** protected mode; NULL pushes nil). It runs on a thread of its own, so a
** behave suspended mid-tick is untouched, under a budget of
** instructions_per_tick of its own; an error, a spent budget or a yield
** faults the bot as an error in think would ("on_arrive: ..."). Returns
** true when a handler ran (faulting or not), false when the bot has none,
** has faulted or the handle is stale. Not from inside a bot's tick. */
bool brain_event(BrainHost *h, int handle, const char *name, void (*push_info)(lua_State *L, void *user), void *user);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAV_BRAIN_H */

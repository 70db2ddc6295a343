/*
** sandbox.h — a Lua 5.4 state for untrusted scripts (maps, bot brains,
** scenarios): a memory cap enforced by the allocator, an instruction budget
** enforced by a count hook, only the safe standard libraries, and text
** chunks only.
**
** What a sandboxed script can reach: the base functions that cannot touch
** the outside (no dofile, loadfile, load, require, collectgarbage), string
** (without dump), table, math (seeded, so runs repeat), utf8 and coroutine.
** Reading io, os, debug, package, require, load, dofile or loadfile raises
** "'io' is not available in <what>" rather than a bare nil error.
** setmetatable refuses a metatable with __gc: finalizers run with hooks
** off, where no budget could stop them.
**
** The budget is per sandbox_call, or per resume of a coroutine the caller
** drives itself (sandbox_budget_begin/end: a bot's tick). Coroutines a
** script creates inherit the hook, and pcall, xpcall, coroutine.resume and
** coroutine.close pass the budget error on, so a spent budget cannot be
** caught.
**
** Work done inside one C call counts too, so no script can stop the world
** with a single call: the pattern functions, string.rep and table.concat
** are the sandbox's own and charge their steps as they go, the other
** string, table and utf8 functions whose work grows with their arguments
** are charged before they run (sandbox_lib.h), and every byte allocated
** under the budget is charged (SANDBOX_BYTES_PER_INSTRUCTION), which
** covers `..` and string.format. Engine functions may charge their own
** work with sandbox_charge.
**
** Memory: an allocation past the cap is refused. When a script's call
** fails for that ("not enough memory"), the script may not go on: pcall,
** xpcall, coroutine.resume/close and the hook raise the error again, so
** the call under the budget fails with it (sandbox_memory_error). A
** refusal that Lua's emergency collection got round is not an error.
** The state allocates through the process's allocator (core/alloc.h): an
** allocation it refuses under the cap is the same for the script as the
** cap (sandbox_hit_allocator tells the two apart).
**
** STEP BY STEP
**   Sandbox *sb = sandbox_create(&(SandboxDesc){ .what = "map scripts" }, &err);
**   sandbox_load(sb, buf, len, "@maps/arena.lua", &err);   pushes the chunk
**   sandbox_call(sb, 0, 1, &err);                           runs it
**   ... read results from sandbox_state(sb) ...
**   sandbox_destroy(sb);
**
** Or, for a coroutine co of the state resumed from C:
**   sandbox_budget_begin(sb, co, 1000000, " per tick");
**   lua_resume(co, sandbox_state(sb), nargs, &nres);
**   used = sandbox_budget_end(sb, co);
**
** DOES NOT: count the work of comparing two long strings (one
** instruction, as long as the strings) or of `next` over a table emptied
** of many keys; lock the shared library tables (a caller that runs several
** scripts in one state does that).
*/
#ifndef NAV_SANDBOX_H
#define NAV_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "core/nav.h"
#include "core/limits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SANDBOX_DEFAULT_MEMORY NAV_LIMIT_SCRIPT_MEMORY /* core/limits.h */
#define SANDBOX_DEFAULT_INSTRUCTIONS NAV_LIMIT_SCRIPT_INSTRUCTIONS

/* Zero means default. */
typedef struct SandboxDesc {
    size_t memory_limit;        /* bytes the state may hold */
    uint64_t instruction_limit; /* VM instructions per sandbox_call */
    uint32_t seed;              /* math.random seed */
    const char *what;           /* "map scripts": used in messages */
    /* Where print() goes; NULL drops it. */
    void (*print)(void *user, const char *line);
    void *print_user;
} SandboxDesc;

typedef struct Sandbox Sandbox;

Sandbox *sandbox_create(const SandboxDesc *desc, NavError *err);
void sandbox_destroy(Sandbox *sb);
lua_State *sandbox_state(Sandbox *sb);

/* Compile a text chunk and push it. chunkname follows Lua ("@file" or
** "=name"). Binary chunks are refused. */
NavStatus sandbox_load(Sandbox *sb, const char *buf, size_t len, const char *chunkname, NavError *err);

/* lua_pcall under the instruction budget, with a traceback on error.
** On failure err->message holds Lua's message ("file:line: ...") and
** err->line the line it names; the error value is popped. */
NavStatus sandbox_call(Sandbox *sb, int nargs, int nresults, NavError *err);

/* Put thread (a coroutine of this state that the caller resumes itself)
** under a budget of limit VM instructions (0: the desc's instruction_limit)
** until sandbox_budget_end. unit follows the number in the error message
** (" per tick"); NULL for none. Clears the memory and budget flags. */
void sandbox_budget_begin(Sandbox *sb, lua_State *thread, uint64_t limit, const char *unit);

/* Take the hook off thread; returns the instructions counted since
** sandbox_budget_begin, in steps of SANDBOX_HOOK_STEP (a count under one
** step reads 0). */
uint64_t sandbox_budget_end(Sandbox *sb, lua_State *thread);

#define SANDBOX_HOOK_STEP 1000

/* Bytes allocated under a budget that cost one instruction (about what
** allocating and filling them takes next to one VM instruction). */
#define SANDBOX_BYTES_PER_INSTRUCTION 64

/* For C functions a script calls (any lua_State: outside a sandbox, or
** on a thread no budget is on, these do nothing and never raise):
** charge n instructions of work to the budget in force, raising the
** budget error when that spends it; the instructions left (UINT64_MAX
** when no budget is on L); the memory cap in bytes (SIZE_MAX outside a
** sandbox); and raise the out-of-memory error no script may catch (for a
** request known to be over the cap before it is tried). */
void sandbox_charge(lua_State *L, uint64_t n);
uint64_t sandbox_budget_left(lua_State *L);
size_t sandbox_memory_cap(lua_State *L);
int sandbox_memory_fault(lua_State *L);

/* Whether a failed call (status from lua_pcall or lua_resume, msg the
** error's text or NULL) failed on the memory cap: Lua's own memory error,
** a script that met the cap under pcall, or "not enough memory" raised
** after an allocation was refused. Valid until the next call or
** budget_begin. */
bool sandbox_memory_error(const Sandbox *sb, int status, const char *msg);

/* Bytes the state holds now, the most it held, its cap, and whether the
** cap or the budget was hit (since the last call or budget_begin). */
size_t sandbox_memory(const Sandbox *sb);
size_t sandbox_memory_peak(const Sandbox *sb);
size_t sandbox_memory_limit(const Sandbox *sb);
bool sandbox_hit_memory_limit(const Sandbox *sb);
bool sandbox_hit_instruction_limit(const Sandbox *sb);
/* Whether the process's allocator, not the cap, refused an allocation
** (since the last budget_begin); sandbox_hit_memory_limit is true then
** too. */
bool sandbox_hit_allocator(const Sandbox *sb);

/* Lua's messages start "chunk:line: ": the chunk (into file, cap bytes;
** file may be NULL), the line, and where the message proper starts. False
** when the message's first line has no such prefix. */
bool sandbox_message_position(const char *msg, char *file, size_t cap, int *line, const char **rest);

#ifdef __cplusplus
}
#endif

#endif

/*
** sandbox.h — a Lua 5.4 state for untrusted scripts (maps now, bot brains
** later): a memory cap enforced by the allocator, an instruction budget
** enforced by a count hook, only the safe standard libraries, and text
** chunks only.
**
** What a sandboxed script can reach: the base functions that cannot touch
** the outside (no dofile, loadfile, load, require, collectgarbage), string
** (without dump), table, math (seeded, so runs repeat), utf8 and coroutine.
** Reading io, os, debug, package, require, load, dofile or loadfile raises
** "'io' is not available in <what>" rather than a bare nil error.
**
** STEP BY STEP
**   Sandbox *sb = sandbox_create(&(SandboxDesc){ .what = "map scripts" }, &err);
**   sandbox_load(sb, buf, len, "@maps/arena.lua", &err);   pushes the chunk
**   sandbox_call(sb, 0, 1, &err);                           runs it
**   ... read results from sandbox_state(sb) ...
**   sandbox_destroy(sb);
*/
#ifndef NAV_SANDBOX_H
#define NAV_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SANDBOX_DEFAULT_MEMORY (64u * 1024u * 1024u)
#define SANDBOX_DEFAULT_INSTRUCTIONS 200000000ull

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

/* Bytes the state holds now, and whether the cap or the budget was hit. */
size_t sandbox_memory(const Sandbox *sb);
bool sandbox_hit_memory_limit(const Sandbox *sb);
bool sandbox_hit_instruction_limit(const Sandbox *sb);

#ifdef __cplusplus
}
#endif

#endif

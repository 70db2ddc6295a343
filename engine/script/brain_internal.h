/*
** brain_internal.h — what the brain host's files share: its types and the
** functions one file calls in another. brain.c is the host (slots, the
** public API, faults from outside, statistics); brain_lua.c sets up a
** brain file's sandbox state (protected calls, read-only shared tables,
** require); brain_bot.c runs a brain's chunk and a bot's Lua side;
** brain_reload.c reloads changed files.
*/
#ifndef NAV_BRAIN_INTERNAL_H
#define NAV_BRAIN_INTERNAL_H

#include "script/brain.h"

#include <lua.h>

#include "lua/lua_paths.h"
#include "lua/sandbox.h"

/* {======= Types ======= */

#define PATH_CAP 4096
#define FILE_CAP 1024 /* a file's name in messages */
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
    char file[FILE_CAP]; /* for messages: "lua/ai/path.lua" */
    char path[PATH_CAP]; /* where it is read from */
    FileStamp stamp;     /* the version loaded */
    FileStamp failed;    /* a version that failed to reload: not reported twice */
} Module;

typedef struct Brain {
    BrainHost *host;
    int index;
    char name[BRAIN_NAME_MAX];
    char file[FILE_CAP]; /* for messages: "bots/guard.lua" */
    char path[PATH_CAP]; /* where it is read from */
    char dir[PATH_CAP];  /* its folder: searched first by its require */
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
    char reload_error[512]; /* "" when the last reload succeeded (kept here: no copy to fail) */
    uint64_t instructions;
    uint64_t tick_ns;
    bool need_gc;
} Brain;

typedef struct Fns {
    int table, spawn, think, behave;
    unsigned events; /* bit i: the table has on_<brain_event_names[i]> */
} Fns;

/* The events brain tables may handle (brain_event.c), NULL-terminated. */
extern const char *const brain_event_names[];

typedef struct Bot {
    Brain *brain; /* NULL: a free slot */
    uint32_t id;
    uint32_t gen;
    int prev, next; /* attach order; next links the free list of free slots */
    lua_State *co;
    int ref_co, ref_env, ref_bot;
    Fns fns;   /* spawn is released once called */
    bool live; /* has its Lua side */
    bool faulted;
    bool suspended; /* behave yielded and waits for the next tick */
    bool detach_pending;
    char *error;
    /* The start of the fault's text when no memory was left to copy it
    ** whole (a fault for memory is the likeliest then). */
    char error_cut[256];
    uint64_t ticks, behave_starts, instructions;
} Bot;

struct BrainHost {
    BrainHostDesc desc;
    char root[PATH_CAP]; /* the root (bundled or desc.root), absolute if found; "" if none */
    NavLuaPath path;     /* extra roots, desc.lua_path, then root's lua/ and bots/ */
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


/* }======= */

/* {======= shared between the files ======= */

void brain_host_log(BrainHost *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *brain_dup_string(const char *s);
FileStamp brain_stamp_of(const char *path);
bool brain_stamp_eq(const FileStamp *a, const FileStamp *b);
bool brain_busy(const BrainHost *h);
/* The bot of a handle, NULL when stale or out of range. */
Bot *brain_bot_at(const BrainHost *h, int handle);
int brain_protect(Brain *b, lua_CFunction f, void *ud, int nargs, int nresults);
void brain_unref(lua_State *L, int *ref);
void brain_push_env(lua_State *L, const Brain *b);
int brain_op_setup(lua_State *L);
bool brain_compile_file(Brain *b, const char *path, const char *file, int *ref, char *msg, size_t cap);
void brain_release_fns(lua_State *L, Fns *f);
bool brain_run_chunk(BrainHost *h, Brain *b, int ref_chunk, int ref_env, int slot, Fns *out, NavError *err);
void brain_close_thread(BrainHost *h, Bot *bt, bool in_budget);
void brain_drop_lua(BrainHost *h, Bot *bt);
void brain_set_fault(BrainHost *h, Bot *bt, const char *text);
void brain_fault_bot(BrainHost *h, Bot *bt, int status, const char *entry);
/* Keep the fault of a script that failed on thread co (the error on its
** stack): message and traceback, logged; nothing released. */
void brain_fault_record(BrainHost *h, Bot *bt, lua_State *co, int status, const char *entry);
void brain_bot_run(BrainHost *h, int slot, int kind, double dt);
bool brain_bot_start(BrainHost *h, int slot, NavError *err);
void brain_free(Brain *b);
Brain *brain_find(BrainHost *h, const char *name);
Brain *brain_load(BrainHost *h, const char *name, NavError *err);
void brain_collect(Brain *b);
void brain_flush_detaches(BrainHost *h);

/* }======= */

#endif

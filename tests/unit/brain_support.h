/*
** brain_support.h — the test engine (a world of numbers and a log), script
** folders and hosts, shared by test_brain.c and test_brain_reload.c.
*/
#ifndef NAV_BRAIN_SUPPORT_H
#define NAV_BRAIN_SUPPORT_H

#include <dirent.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/alloc.h"
#include "core/timer.h"
#include "script/brain.h"
#include "test_support.h"

/* {======= The test engine: a world of numbers and a log ======= */

#define MAX_IDS 4096

typedef struct World {
    double value[MAX_IDS];
    int calls[MAX_IDS];
    int moves;
    bool set_global; /* open_api sets the global nav rather than returning it */
    BrainHost *host; /* for nav.detach */
    int handles[MAX_IDS];
    char **lines;
    int nlines, caplines;
} World;

static inline World *world_new(void)
{
    World *w = nav_calloc(1, sizeof *w);
    cr_assert_not_null(w);
    return w;
}

static inline void world_free(World *w)
{
    for (int i = 0; i < w->nlines; i++) nav_free(w->lines[i]);
    nav_free(w->lines);
    nav_free(w);
}

static inline void log_line(void *user, const char *line)
{
    World *w = user;
    if (w->nlines == w->caplines) {
        w->caplines = w->caplines ? w->caplines * 2 : 64;
        w->lines = nav_realloc(w->lines, (size_t)w->caplines * sizeof *w->lines);
        cr_assert_not_null(w->lines);
    }
    w->lines[w->nlines++] = nav_strdup(line);
}

/* How many log lines contain needle. */
static inline int log_count(const World *w, const char *needle)
{
    int n = 0;
    for (int i = 0; i < w->nlines; i++)
        if (strstr(w->lines[i], needle)) n++;
    return n;
}

static inline bool log_has_line(const World *w, const char *line)
{
    for (int i = 0; i < w->nlines; i++)
        if (strcmp(w->lines[i], line) == 0) return true;
    return false;
}

static inline int nav_record(lua_State *L)
{
    World *w = lua_touserdata(L, lua_upvalueindex(1));
    lua_Integer id = luaL_checkinteger(L, 1);
    luaL_argcheck(L, id >= 0 && id < MAX_IDS, 1, "id out of range");
    w->value[id] = luaL_checknumber(L, 2);
    w->calls[id]++;
    return 0;
}

static inline int nav_move(lua_State *L)
{
    World *w = lua_touserdata(L, lua_upvalueindex(1));
    luaL_checkudata(L, 1, "test.Bot");
    luaL_checknumber(L, 2);
    luaL_checknumber(L, 3);
    w->moves++;
    return 0;
}

/* An engine call that detaches a bot (the bot itself, say) mid-tick. */
static inline int nav_detach(lua_State *L)
{
    World *w = lua_touserdata(L, lua_upvalueindex(1));
    lua_Integer id = luaL_checkinteger(L, 1);
    luaL_argcheck(L, id >= 0 && id < MAX_IDS, 1, "id out of range");
    brain_detach(w->host, w->handles[id]);
    return 0;
}

static inline void open_api(lua_State *L, void *user)
{
    World *w = user;
    lua_createtable(L, 0, 4);
    lua_pushlightuserdata(L, w);
    lua_pushcclosure(L, nav_record, 1);
    lua_setfield(L, -2, "record");
    lua_pushlightuserdata(L, w);
    lua_pushcclosure(L, nav_move, 1);
    lua_setfield(L, -2, "move");
    lua_pushlightuserdata(L, w);
    lua_pushcclosure(L, nav_detach, 1);
    lua_setfield(L, -2, "detach");
    lua_pushinteger(L, 42);
    lua_setfield(L, -2, "answer");
    lua_createtable(L, 0, 1);
    lua_pushinteger(L, 1);
    lua_setfield(L, -2, "walk");
    lua_setfield(L, -2, "flags");
    if (w->set_global) lua_setglobal(L, "nav");
}

static inline int bot_index(lua_State *L)
{
    uint32_t *id = luaL_checkudata(L, 1, "test.Bot");
    const char *key = lua_tostring(L, 2);
    if (key && strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)*id);
        return 1;
    }
    return 0;
}

static inline void push_bot(lua_State *L, uint32_t bot_id, void *user)
{
    (void)user;
    uint32_t *id = lua_newuserdatauv(L, sizeof *id, 0);
    *id = bot_id;
    if (luaL_newmetatable(L, "test.Bot")) {
        lua_pushcfunction(L, bot_index);
        lua_setfield(L, -2, "__index");
        lua_pushliteral(L, "test.Bot");
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
}

/* }======= */

/* {======= Script folders ======= */

static void remove_tree(const char *path);

/* The test's folder, removed by the suite's fini even when an assertion
** ends the test early. */
__attribute__((unused)) static char current_root[64];

static inline void remove_current_root(void)
{
    if (current_root[0]) remove_tree(current_root);
    current_root[0] = '\0';
}

static inline void dir_make(char root[64])
{
    snprintf(root, 64, "/tmp/navbot-brain-XXXXXX");
    cr_assert_not_null(mkdtemp(root), "mkdtemp");
    snprintf(current_root, sizeof current_root, "%s", root);
    char p[128];
    snprintf(p, sizeof p, "%s/bots", root);
    cr_assert_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/lua", root);
    cr_assert_eq(mkdir(p, 0700), 0);
}

/* Writes root/rel (making its folders) and gives it a new mtime each time,
** so a rewrite is seen even within the clock's granularity. */
static inline void write_file(const char *root, const char *rel, const char *text, size_t len)
{
    static long stamp = 1700000000;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    }
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    stamp++;
    struct timespec ts[2] = { { stamp, 0 }, { stamp, 0 } };
    cr_assert_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static inline void write_script(const char *root, const char *rel, const char *text)
{
    write_file(root, rel, text, strlen(text));
}

static inline void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char child[1024];
                int k = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                if (k > 0 && (size_t)k < sizeof child) remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* }======= */

/* {======= Hosts ======= */

static inline BrainHost *make_host_ex(const char *root, World *w, uint32_t seed, size_t memory, uint64_t budget)
{
    NavError err;
    nav_error_clear(&err);
    BrainHost *h = brain_host_create(&(BrainHostDesc){ .root = root,
                                                       .memory_limit = memory,
                                                       .instructions_per_tick = budget,
                                                       .seed = seed,
                                                       .open_api = open_api,
                                                       .push_bot = push_bot,
                                                       .user = w,
                                                       .log = log_line,
                                                       .log_user = w },
                                     &err);
    cr_assert_not_null(h, "%s", err.message);
    return h;
}

static inline BrainHost *make_host(const char *root, World *w) { return make_host_ex(root, w, 7, 0, 0); }

static inline int attach(BrainHost *h, const char *name, uint32_t id)
{
    NavError err;
    nav_error_clear(&err);
    int handle = brain_attach(h, name, id, &err);
    cr_assert_geq(handle, 0, "attach %s #%u: %s", name, (unsigned)id, err.message);
    cr_assert(!brain_faulted(h, handle), "%s #%u faulted at attach: %s", name, (unsigned)id, brain_error(h, handle));
    return handle;
}

static inline void finish(BrainHost *h, World *w, const char *root)
{
    brain_host_destroy(h);
    world_free(w);
    remove_tree(root);
}

/* }======= */

/* {======= The sandbox ======= */

typedef struct Escape {
    const char *code;
    const char *want; /* in the bot's error */
} Escape;

__attribute__((unused)) static const Escape ESCAPES[] = {
    { "io.open('/etc/passwd')", "'io' is not available in bot brains" },
    { "os.execute('true')", "'os' is not available in bot brains" },
    { "debug.getinfo(1)", "'debug' is not available in bot brains" },
    { "package.loadlib('libc.so.6', '*')", "'package' is not available in bot brains" },
    { "load('return 1')", "'load' is not available in bot brains" },
    { "loadstring('return 1')", "'loadstring' is not available in bot brains" },
    { "dofile('/etc/passwd')", "'dofile' is not available in bot brains" },
    { "loadfile('/etc/passwd')", "'loadfile' is not available in bot brains" },
    { "collectgarbage()", "'collectgarbage' is not available in bot brains" },
    { "string.dump(function() end)", "attempt to call a nil value (field 'dump')" },
    { "setmetatable({}, { __gc = function() while true do end end })", "__gc metamethods are not available" },
    { "getmetatable('').__index = {}", "attempt to index a boolean value" },
    { "getmetatable(_ENV).__index.print = nil", "attempt to index a boolean value" },
    { "string.upper = nil", "cannot set 'upper': shared tables are read-only" },
    { "rawset(math, 'floor', nil)", "rawset: shared tables are read-only" },
    { "setmetatable(string, {})", "cannot change a protected metatable" },
    { "nav.record = nil", "cannot set 'record': shared tables are read-only" },
    { "nav.flags.walk = 2", "cannot set 'walk': shared tables are read-only" },
    { "coroutine.resume = nil", "cannot set 'resume': shared tables are read-only" },
    { "require '../secret'", "require '../secret' refused: '..' is not allowed" },
    { "require '/etc/passwd'", "require '/etc/passwd' refused: paths are not allowed" },
    { "require 'lua/x'", "refused: paths are not allowed" },
    { "require 'a b'", "refused: only letters, digits" },
    { "require 'nothere'", "module 'nothere' not found:\n\tno file '" },
    { "require 'bin'", "attempt to load a binary chunk" },
    { "local function f() string.gsub('x', '.', f) end f()", "stack overflow" },
    { "local function f() return 1 + f() end f()", "instruction budget of 1000000 per tick exceeded" },
    { "local s = string.rep('x', 1 << 30)", "out of memory: brain over its 64 MiB cap" },
};

/* }======= */

#endif

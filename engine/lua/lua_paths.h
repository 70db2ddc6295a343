/*
** lua_paths.h — where navbot finds Lua files: its bundled library (lua/,
** bots/ and maps/ beside the executable or the shared object, never the
** current directory) and the search path that brains, scenarios and maps
** `require` along.
**
** THE SEARCH ORDER (one list, the same for every host)
**   1. the requiring script's own folder (a brain's, scenario's or map's)
**   2. each --lua-path DIR, in the order given
**   3. each folder of NAVBOT_PATH (colon-separated)
**   4. the bundled lua/, then the bundled bots/
** A module "ai.path" is the file ai/path.lua in one of those folders; the
** first that exists wins. A folder may be marked as holding modules only
** (the bundled lua/): brain names are not looked up there.
**
** STEP BY STEP
**   NavLuaPath p = { 0 };
**   nav_lua_path_add(&p, "tests/scenarios", NAV_LUA_DIR_ANY, &err);
**   nav_lua_path_add_list(&p, getenv("NAVBOT_PATH"), &err);   the caller reads the environment
**   nav_lua_path_add_bundled(&p, NULL, &err);                 NULL: found beside the executable
**   char path[NAV_LUA_PATH_CAP], tried[1024];
**   if (nav_lua_path_find(&p, "ai.path", 0, path, sizeof path, tried, sizeof tried) < 0)
**       error("module 'ai.path' not found:%s", tried);
**   nav_lua_path_free(&p);
**
** DOES NOT: read the environment (callers pass NAVBOT_PATH in; only
** nav_lua_path_expand reads $HOME), load or run the file it finds.
*/
#ifndef NAV_LUA_PATHS_H
#define NAV_LUA_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_LUA_PATH_CAP 4096 /* bytes in a file's path */
#define NAV_LUA_NAME_MAX 96   /* bytes in a module name */
#define NAV_LUA_MAX_DIRS 64   /* folders in one search path */

typedef enum NavLuaDirKind {
    NAV_LUA_DIR_ANY = 0,     /* modules and brains */
    NAV_LUA_DIR_MODULES = 1, /* modules only (a library's lua/) */
} NavLuaDirKind;

typedef struct NavLuaDir {
    char *dir; /* as given, without a trailing '/' */
    NavLuaDirKind kind;
} NavLuaDir;

/* Zero is an empty list. */
typedef struct NavLuaPath {
    NavLuaDir *dirs;
    int count, cap;
} NavLuaPath;

/* The folder holding navbot's bundled lua/, bots/, maps/ and assets/,
** seen from the running code (dir: the shared object holding this code,
** libnavbot.so or nav.so, else the executable), never the current
** directory: <dir>/../share/navbot when installed (PREFIX/bin, PREFIX/lib),
** <dir>/../../../share/navbot for the Lua module in PREFIX/lib/lua/5.4,
** <dir>/../.. in the source tree (bin/CONFIG/navbot). The first that holds
** lua/follow.lua, as an absolute path; false when none does. */
bool nav_lua_bundled_root(char *out, size_t cap);

/* The bundled Lua library: nav_lua_bundled_root()/lua. */
bool nav_lua_bundled_dir(char *out, size_t cap);

/* Append dir (a trailing '/' is dropped; an empty dir is refused). A dir
** already in the list is not added twice. */
NavStatus nav_lua_path_add(NavLuaPath *p, const char *dir, NavLuaDirKind kind, NavError *err);

/* Append each folder of a colon-separated list (NAVBOT_PATH); empty items
** are skipped. NULL adds nothing. */
NavStatus nav_lua_path_add_list(NavLuaPath *p, const char *list, NavError *err);

/* Append root/lua (modules only) and root/bots. root NULL or "": the
** bundled root; fails when it cannot be found. */
NavStatus nav_lua_path_add_bundled(NavLuaPath *p, const char *root, NavError *err);

/* Copy of src appended to p. */
NavStatus nav_lua_path_append(NavLuaPath *p, const NavLuaPath *src, NavError *err);

void nav_lua_path_free(NavLuaPath *p);

/* NULL when name is a valid module name ("follow", "ai.path": letters,
** digits, '_' and '.' between folders), else why not. */
const char *nav_lua_name_problem(const char *name);

/* Whether a brain (or scenario) argument names a file rather than a
** module name: it ends in ".lua" or holds a '/'. */
bool nav_lua_is_file(const char *s);

/* Looks for NAME (dots are folders) as DIR/NAME.lua along p, from
** index `from`, skipping modules-only folders when brains_only. Returns the
** index of the folder it is in (path set), or -1. tried (may be NULL)
** gets Lua's list of what was searched: "\n\tno file 'DIR/x.lua'" per
** folder. */
int nav_lua_path_find(const NavLuaPath *p, const char *name, bool brains_only, char *path, size_t cap, char *tried,
                      size_t tried_cap);

/* The folder part of a file's path ("bots" for "bots/x.lua", "." for
** "x.lua", "/" for "/x.lua"). */
void nav_lua_dirname(const char *file, char *out, size_t cap);

/* A leading "~/" replaced by $HOME; otherwise copied. False when it does
** not fit. */
bool nav_lua_path_expand(const char *in, char *out, size_t cap);

/* How to name path in messages: inside root (the bundled root or a
** --root), relative to it ("lua/follow.lua"); else path itself. */
void nav_lua_display_name(const char *path, const char *root, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif

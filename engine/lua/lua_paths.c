/*
** lua_paths.c — the bundled library's folder and the Lua search path
** (lua_paths.h).
*/
#define _GNU_SOURCE /* dladdr */
#include "lua/lua_paths.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"

/* {======= the bundled root ======= */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file this code was loaded from: the shared object holding it, else
** the executable. */
static bool own_binary(char *out, size_t cap)
{
    Dl_info info;
    if (dladdr((void *)&own_binary, &info) && info.dli_fname && strstr(info.dli_fname, ".so")) {
        if (realpath(info.dli_fname, out)) return true;
    }
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1) return false;
    out[n] = '\0';
    return true;
}

bool nav_lua_bundled_root(char *out, size_t cap)
{
    char bin[PATH_MAX];
    if (!own_binary(bin, sizeof bin)) return false;
    char *slash = strrchr(bin, '/');
    if (!slash) return false;
    *slash = '\0';
    /* Installed before the source tree: from PREFIX/lib/lua/5.4/nav.so,
    ** "../.." is PREFIX/lib, which has a lua/ of its own (the modules). The
    ** bundle is told by a file of its library, not by any lua/ folder. */
    static const char *const ups[] = { "/../share/navbot", "/../../../share/navbot", "/../.." };
    for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
        char cand[PATH_MAX + 32], probe[PATH_MAX + 48], real[PATH_MAX];
        snprintf(cand, sizeof cand, "%s%s", bin, ups[i]);
        snprintf(probe, sizeof probe, "%s/lua/follow.lua", cand);
        if (!is_file(probe) || !realpath(cand, real)) continue;
        size_t n = strlen(real);
        if (n + 1 > cap) return false;
        memcpy(out, real, n + 1);
        return true;
    }
    return false;
}

bool nav_lua_bundled_dir(char *out, size_t cap)
{
    char root[PATH_MAX];
    if (!nav_lua_bundled_root(root, sizeof root)) return false;
    int n = snprintf(out, cap, "%s/lua", root);
    return n > 0 && (size_t)n < cap;
}

/* }======= */

/* {======= the list ======= */

NavStatus nav_lua_path_add(NavLuaPath *p, const char *dir, NavLuaDirKind kind, NavError *err)
{
    if (!dir || !*dir) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "an empty folder in the Lua path");
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    if (n >= NAV_LUA_PATH_CAP - NAV_LUA_NAME_MAX - 8)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "Lua path folder too long: %.80s...", dir);
    for (int i = 0; i < p->count; i++)
        if (strlen(p->dirs[i].dir) == n && strncmp(p->dirs[i].dir, dir, n) == 0) return NAV_OK;
    if (p->count >= NAV_LUA_MAX_DIRS)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "at most %d folders in the Lua path",
                             NAV_LUA_MAX_DIRS);
    if (p->count == p->cap) {
        int c = p->cap ? 2 * p->cap : 8;
        NavLuaDir *d = nav_realloc(p->dirs, (size_t)c * sizeof *d);
        if (!d) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the Lua search path");
        p->dirs = d;
        p->cap = c;
    }
    char *s = nav_malloc(n + 1);
    if (!s) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the Lua search path");
    memcpy(s, dir, n);
    s[n] = '\0';
    p->dirs[p->count++] = (NavLuaDir){ s, kind };
    return NAV_OK;
}

NavStatus nav_lua_path_add_list(NavLuaPath *p, const char *list, NavError *err)
{
    if (!list) return NAV_OK;
    while (*list) {
        size_t n = strcspn(list, ":");
        if (n > 0) {
            char dir[NAV_LUA_PATH_CAP];
            if (n >= sizeof dir)
                return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "NAVBOT_PATH: a folder is too long");
            memcpy(dir, list, n);
            dir[n] = '\0';
            char full[NAV_LUA_PATH_CAP];
            if (!nav_lua_path_expand(dir, full, sizeof full))
                return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "NAVBOT_PATH: a folder is too long");
            NavStatus st = nav_lua_path_add(p, full, NAV_LUA_DIR_ANY, err);
            if (NAV_FAILED(st)) return st;
        }
        list += n;
        if (*list == ':') list++;
    }
    return NAV_OK;
}

NavStatus nav_lua_path_add_bundled(NavLuaPath *p, const char *root, NavError *err)
{
    char found[NAV_LUA_PATH_CAP];
    if (!root || !*root) {
        if (!nav_lua_bundled_root(found, sizeof found))
            return nav_error_set(err, NAV_E_IO, NULL, 0, 0, NULL,
                                 "cannot find navbot's Lua library (lua/ in ../share/navbot or ../.. from the "
                                 "executable); give --root DIR");
        root = found;
    }
    char dir[NAV_LUA_PATH_CAP];
    int n = snprintf(dir, sizeof dir, "%s/lua", root);
    if (n < 0 || (size_t)n >= sizeof dir) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "root too long");
    NavStatus st = nav_lua_path_add(p, dir, NAV_LUA_DIR_MODULES, err);
    if (NAV_FAILED(st)) return st;
    n = snprintf(dir, sizeof dir, "%s/bots", root);
    if (n < 0 || (size_t)n >= sizeof dir) return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "root too long");
    return nav_lua_path_add(p, dir, NAV_LUA_DIR_ANY, err);
}

NavStatus nav_lua_path_append(NavLuaPath *p, const NavLuaPath *src, NavError *err)
{
    for (int i = 0; src && i < src->count; i++) {
        NavStatus st = nav_lua_path_add(p, src->dirs[i].dir, src->dirs[i].kind, err);
        if (NAV_FAILED(st)) return st;
    }
    return NAV_OK;
}

void nav_lua_path_free(NavLuaPath *p)
{
    if (!p) return;
    for (int i = 0; i < p->count; i++) nav_free(p->dirs[i].dir);
    nav_free(p->dirs);
    memset(p, 0, sizeof *p);
}

/* }======= */

/* {======= names and files ======= */

const char *nav_lua_name_problem(const char *name)
{
    size_t len = strlen(name);
    if (len == 0) return "the name is empty";
    if (len >= NAV_LUA_NAME_MAX) return "the name is too long";
    if (strstr(name, "..")) return "'..' is not allowed: modules are found only along the Lua path";
    if (strchr(name, '/') || strchr(name, '\\'))
        return "paths are not allowed: use '.' between folders (require \"ai.path\" loads ai/path.lua)";
    if (name[0] == '.' || name[len - 1] == '.') return "a name cannot start or end with '.'";
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
        if (!ok) return "only letters, digits, '_' and '.' are allowed";
    }
    return NULL;
}

bool nav_lua_is_file(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 4 && strcmp(s + n - 4, ".lua") == 0);
}

static size_t appendf(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
    if (!buf || n + 1 >= cap) return n;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    if (k < 0) return n;
    n += (size_t)k;
    return n < cap ? n : cap - 1;
}

int nav_lua_path_find(const NavLuaPath *p, const char *name, bool brains_only, char *path, size_t cap, char *tried,
                      size_t tried_cap)
{
    char rel[NAV_LUA_NAME_MAX + 8];
    snprintf(rel, sizeof rel, "%s.lua", name);
    for (char *c = rel; c < rel + strlen(name) && *c; c++)
        if (*c == '.') *c = '/';
    size_t t = 0;
    if (tried && tried_cap) tried[0] = '\0';
    for (int i = 0; p && i < p->count; i++) {
        if (brains_only && p->dirs[i].kind == NAV_LUA_DIR_MODULES) continue;
        int n = snprintf(path, cap, "%s/%s", p->dirs[i].dir, rel);
        if (n < 0 || (size_t)n >= cap) continue;
        if (is_file(path)) return i;
        t = appendf(tried, tried_cap, t, "\n\tno file '%s'", path);
    }
    if (!p || p->count == 0) appendf(tried, tried_cap, t, "\n\t(the Lua path is empty)");
    return -1;
}

void nav_lua_dirname(const char *file, char *out, size_t cap)
{
    const char *slash = strrchr(file, '/');
    if (!slash) snprintf(out, cap, ".");
    else if (slash == file) snprintf(out, cap, "/");
    else snprintf(out, cap, "%.*s", (int)(slash - file), file);
}

bool nav_lua_path_expand(const char *in, char *out, size_t cap)
{
    const char *home = getenv("HOME");
    int n;
    if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && *home) n = snprintf(out, cap, "%s%s", home, in + 1);
    else n = snprintf(out, cap, "%s", in);
    return n >= 0 && (size_t)n < cap;
}

void nav_lua_display_name(const char *path, const char *root, char *out, size_t cap)
{
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/') n--;
    if (n && strncmp(path, root, n) == 0 && path[n] == '/') path += n + 1;
    while (path[0] == '.' && path[1] == '/') path += 2;
    snprintf(out, cap, "%s", path);
}

/* }======= */

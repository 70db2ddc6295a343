/*
** api_paths.c — where navbot's bundled files are, seen from the code that
** is running: the shared object (libnavbot.so, nav.so) or the executable
** this file was linked into, found with dladdr, never the current
** directory.
*/
#define _GNU_SOURCE
#include "api/api_paths.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Does dir hold the bundled Lua library? lua/follow.lua is in every
** layout (the source tree and an install). */
static bool holds_bundle(const char *dir)
{
    char probe[PATH_MAX + 32];
    int n = snprintf(probe, sizeof probe, "%s/lua/follow.lua", dir);
    struct stat st;
    return n > 0 && (size_t)n < sizeof probe && stat(probe, &st) == 0 && S_ISREG(st.st_mode);
}

bool api_code_dir(char *out, size_t cap)
{
    Dl_info info;
    char real[PATH_MAX];
    if (!dladdr((void *)api_code_dir, &info)) return false;
    /* For a shared object dladdr names its file; for the main program it
    ** gives argv[0], which may be relative or a bare name: the kernel's
    ** link to the executable is the sure answer there. */
    const char *name = info.dli_fname ? info.dli_fname : "";
    if (name[0] == '/' || strstr(name, ".so")) {
        if (!realpath(name, real)) return false;
    } else {
        ssize_t got = readlink("/proc/self/exe", real, sizeof real - 1);
        if (got <= 0 || (size_t)got >= sizeof real - 1) return false;
        real[got] = '\0';
    }
    char *slash = strrchr(real, '/');
    if (!slash) return false;
    *slash = '\0';
    int n = snprintf(out, cap, "%s", real[0] ? real : "/");
    return n > 0 && (size_t)n < cap;
}

bool api_bundled_root(char *out, size_t cap)
{
    char dir[PATH_MAX];
    if (!api_code_dir(dir, sizeof dir)) return false;
    /* PREFIX/lib/libnavbot.so or PREFIX/bin/navbot; PREFIX/lib/lua/5.4/nav.so
    ** (three levels under PREFIX); bin/<config>/ in the source tree. */
    static const char *const ups[] = { "/../share/navbot", "/../../../share/navbot", "/../.." };
    for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
        char cand[PATH_MAX + 32], real[PATH_MAX];
        int n = snprintf(cand, sizeof cand, "%s%s", dir, ups[i]);
        if (n <= 0 || (size_t)n >= sizeof cand || !is_dir(cand) || !realpath(cand, real)) continue;
        if (!holds_bundle(real)) continue;
        n = snprintf(out, cap, "%s", real);
        return n > 0 && (size_t)n < cap;
    }
    return false;
}

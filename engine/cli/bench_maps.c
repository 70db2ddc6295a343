/*
** bench_maps.c — the bundled maps and their names, for the benchmarks
** (bench_maps.h).
*/
#include "cli/bench_maps.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/alloc.h"

bool bench_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool bench_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

int bench_bundled_maps(const char *root, const char *extra, char **out, int cap)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/maps", root);
    int n = 0, room = extra ? cap - 1 : cap;
    bool nomem = false;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while (!nomem && (e = readdir(d)) && n < room) {
            size_t len = strlen(e->d_name);
            if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
            char path[sizeof dir + 300];
            snprintf(path, sizeof path, "%s/%s", strcmp(root, ".") == 0 ? "maps" : dir, e->d_name);
            if (!bench_is_file(path)) continue;
            if ((out[n] = nav_strdup(path))) n++;
            else nomem = true;
        }
        closedir(d);
    }
    qsort(out, (size_t)n, sizeof *out, by_name);
    if (!nomem && (!extra || room < 0 || (out[n] = nav_strdup(extra)))) return extra && room >= 0 ? n + 1 : n;
    for (int i = 0; i < n; i++) nav_free(out[i]);
    return -1;
}

void bench_map_label(const char *path, char *out, size_t cap)
{
    size_t g = strlen(CLI_GENERATED_PREFIX);
    if (strncmp(path, CLI_GENERATED_PREFIX, g) == 0) {
        snprintf(out, cap, "%s", path + g);
        return;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

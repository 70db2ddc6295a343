/*
** fuzz_support.h — what the libFuzzer harnesses of tests/fuzz share: the
** repository's root, a scratch folder for inputs the engine reads from a
** file, maps loaded once per process, and the rule that a failure says
** why.
**
** A harness keeps what every input uses (a world, a scratch folder) in
** statics made on first use: an input must not change them, so inputs
** stay independent and a crash replays from its file alone.
*/
#ifndef NAV_FUZZ_SUPPORT_H
#define NAV_FUZZ_SUPPORT_H

#define _DEFAULT_SOURCE /* mkdtemp */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "area/area.h"
#include "core/nav.h"
#include "grid/grid.h"
#include "map/map.h"

#ifndef FUZZ_ROOT
#define FUZZ_ROOT "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A loader that fails must say why: an empty message is a finding. */
static inline void fuzz_must_say_why(const NavError *err)
{
    if (!err->message[0]) {
        fprintf(stderr, "a failure with no message (status %d)\n", (int)err->status);
        __builtin_trap();
    }
}

/* What a loader accepts the compilers must take: a loaded world's stats,
** and when it is small enough (compiling is linear in its cells; 64 x 64
** keeps one input in milliseconds) the area graph and grid of its first
** class. */
static inline void fuzz_compile_small(const NavWorld *w)
{
    NavWorldStats st;
    world_stats(w, &st);
    if (world_class_count(w) == 0 || (long)world_width(w) * world_height(w) > 64 * 64) return;
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_build(w, 0, NULL, &err);
    if (ag) area_destroy(ag);
    else fuzz_must_say_why(&err);
    NavGrid *g = grid_create(w, &(NavGridDesc){ 0 }, &err);
    if (g) grid_destroy(g);
    else fuzz_must_say_why(&err);
}

/* FUZZ_ROOT/rel into out. */
static inline const char *fuzz_path(char *out, size_t cap, const char *rel)
{
    snprintf(out, cap, "%s/%s", FUZZ_ROOT, rel);
    return out;
}

/* The process's scratch folder (made on first use, in TMPDIR or /tmp;
** removed at exit with what the harness left in it by name). */
static char fuzz_scratch_dir[256];

static inline void fuzz_scratch_remove(void)
{
    char cmd[320];
    if (!fuzz_scratch_dir[0] || strncmp(fuzz_scratch_dir, "/tmp/", 5) != 0) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_scratch_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", fuzz_scratch_dir);
}

static inline const char *fuzz_scratch(void)
{
    if (!fuzz_scratch_dir[0]) {
        snprintf(fuzz_scratch_dir, sizeof fuzz_scratch_dir, "/tmp/navbot-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_scratch_dir)) {
            perror("mkdtemp");
            abort();
        }
        atexit(fuzz_scratch_remove);
    }
    return fuzz_scratch_dir;
}

/* Write data to path (the whole file); aborts when it cannot: the harness
** is broken then, not the engine. */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* A map of the repository (rel to FUZZ_ROOT), loaded once; aborts when it
** does not load. */
static inline NavWorld *fuzz_load_map(const char *rel)
{
    char path[1024];
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_file(fuzz_path(path, sizeof path, rel), &(NavMapOptions){ .name = rel }, &err);
    if (!w) {
        fprintf(stderr, "%s: %s\n", rel, err.message);
        abort();
    }
    return w;
}

/* Where a bot stands on entity `name` of w (its box's centre, on its
** floor); aborts when there is no such entity. */
static inline void fuzz_entity_point(const NavWorld *w, const char *name, float p[3])
{
    int i = world_find_entity(w, name);
    if (i < 0) {
        fprintf(stderr, "no entity %s\n", name);
        abort();
    }
    const NavEntity *e = world_entity(w, i);
    p[0] = 0.5f * (e->mins[0] + e->maxs[0]);
    p[1] = 0.5f * (e->mins[1] + e->maxs[1]);
    p[2] = e->mins[2];
}

/* A log callback that drops the line (brains' prints, faults). */
static inline void fuzz_drop_line(void *user, const char *line)
{
    (void)user;
    (void)line;
}

#endif

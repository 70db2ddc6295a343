/*
** fuzz_memory_file.c — navigation memory files (route_memory.h: what
** mem:save writes and mem:load reads). The input is the file's text,
** loaded into a memory of maps/arena.lua's human graph that already knows
** a few links. A file refused must say why and leave the memory exactly
** as it was (areas, links, stamps, bound, version); a file loaded must
** give a memory within its bound that saves and loads back the same.
*/
#include "fuzz_support.h"

#include "core/alloc.h"
#include "route/route_memory.h"

static NavWorld *world;
static NavAreaGraph *graph;

static void fail(const char *why)
{
    fprintf(stderr, "%s\n", why);
    __builtin_trap();
}

static bool same(const NavMemory *a, const NavMemory *b)
{
    if (memory_links_per_area(a) != memory_links_per_area(b) || memory_area_count(a) != memory_area_count(b) ||
        memory_link_count(a) != memory_link_count(b))
        return false;
    for (uint32_t i = 0; i < area_count(graph); i++)
        if (memory_knows_area(a, i) != memory_knows_area(b, i)) return false;
    for (uint32_t l = 0; l < area_reach_count(graph); l++)
        if (memory_link_seen(a, l) != memory_link_seen(b, l)) return false;
    return true;
}

/* Within its bound in every area, its counts right. */
static void check_bound(const NavMemory *m)
{
    uint32_t links = 0, areas = 0;
    for (uint32_t a = 0; a < area_count(graph); a++) {
        uint32_t n, k = 0;
        const uint32_t *in = area_incoming(graph, a, &n);
        for (uint32_t i = 0; i < n; i++) k += memory_knows_link(m, in[i]);
        if (k > (uint32_t)memory_links_per_area(m)) fail("more links into an area than the bound");
        links += k;
        areas += memory_knows_area(m, a);
    }
    if (links != memory_link_count(m) || areas != memory_area_count(m)) fail("the counts are wrong");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) {
        world = fuzz_load_map("maps/arena.lua");
        NavError err;
        nav_error_clear(&err);
        graph = area_build(world, world_find_class(world, "human"), NULL, &err);
        if (!graph) {
            fprintf(stderr, "arena: %s\n", err.message);
            abort();
        }
    }
    NavError err;
    nav_error_clear(&err);
    NavMemory *m = memory_create(graph, 3, &err), *before = memory_create(graph, 3, &err);
    if (!m || !before) fail("out of memory");
    for (uint32_t l = 0; l < area_reach_count(graph); l += 7) memory_learn_link(m, l, 1 + l, NULL);
    memory_learn_area(m, 0);
    memory_copy(before, m);
    uint32_t version = memory_version(m);
    NavStatus st = memory_load_buffer(m, (const char *)data, size, "input.mem", &err);
    if (NAV_FAILED(st)) {
        fuzz_must_say_why(&err);
        if (memory_version(m) != version || !same(m, before)) fail("a refused file changed the memory");
    } else {
        if (memory_version(m) == version) fail("a load did not bump the version");
        check_bound(m);
        char *text;
        size_t len;
        if (NAV_FAILED(memory_save_buffer(m, &text, &len, &err))) fail("a loaded memory does not save");
        NavMemory *again = memory_create(graph, 0, &err);
        if (!again) fail("out of memory");
        if (NAV_FAILED(memory_load_buffer(again, text, len, "again.mem", &err))) {
            fprintf(stderr, "%s:%d: %s: %s\n", err.file, err.line, err.field, err.message);
            fail("a saved memory does not load");
        }
        if (!same(m, again)) fail("a saved memory loads back different");
        memory_destroy(again);
        nav_free(text);
    }
    memory_destroy(m);
    memory_destroy(before);
    return 0;
}

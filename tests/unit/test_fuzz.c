/*
** test_fuzz.c — mutation fuzzing of both loaders, inside the suite.
**
** Each case takes a valid map, applies seeded random mutations (bit
** flips, byte changes, cuts, splices of map-ish tokens) and loads it. A
** load must either succeed or fail with a message; under the sanitize
** configuration any overflow, use after free, UB or leak fails the test.
** The seed is fixed, so a failure repeats. Memory files (route_memory.h)
** get the same, and their fuzzer's seed corpus is replayed here too.
*/
#include <glob.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "map/map.h"
#include "route/route_memory.h"
#include "test_support.h"

typedef struct Rng {
    uint64_t s;
} Rng;

static uint32_t rng_next(Rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

static const char *const TOKENS[] = {
    "{", "}", "'", "\"", "[[", "]]", "\n", "=", ",", "-1", "0/0", "1e308", "nil", "true", "{}", "'#'",
    "rows", "layers", "legend", "entities", "classes", "z", "h", "type", "'water'", "'ladder'", "at",
    "string.rep('.', 70000)", "while true do end", "\0", "\xff", "height", "width", "map", "@", "\r\n",
};

static size_t mutate(Rng *r, const char *src, size_t len, char *out, size_t cap)
{
    size_t n = len < cap ? len : cap;
    memcpy(out, src, n);
    int edits = 1 + (int)(rng_next(r) % 8);
    for (int e = 0; e < edits && n > 0; e++) {
        size_t at = rng_next(r) % n;
        switch (rng_next(r) % 5) {
        case 0: out[at] ^= (char)(1u << (rng_next(r) % 8)); break;
        case 1: out[at] = (char)(rng_next(r) & 0xff); break;
        case 2: n = at; break; /* truncate */
        case 3: {              /* delete a run */
            size_t k = 1 + rng_next(r) % 16;
            if (at + k > n) k = n - at;
            memmove(out + at, out + at + k, n - at - k);
            n -= k;
            break;
        }
        default: { /* insert a token */
            const char *t = TOKENS[rng_next(r) % NAV_ARRAY_COUNT(TOKENS)];
            size_t k = strlen(t) ? strlen(t) : 1;
            if (n + k > cap) break;
            memmove(out + at + k, out + at, n - at);
            memcpy(out + at, t, k);
            n += k;
        }
        }
    }
    return n;
}

static void fuzz(const char *name, const char *src, size_t len, int rounds, uint64_t seed)
{
    Rng r = { seed };
    size_t cap = len + 4096;
    char *buf = nav_malloc(cap);
    int loaded = 0, rejected = 0;
    for (int i = 0; i < rounds; i++) {
        size_t n = mutate(&r, src, len, buf, cap);
        NavError err;
        nav_error_clear(&err);
        /* A small budget keeps inserted endless loops cheap. */
        NavMapOptions opt = { .lua_instruction_limit = 2000000, .lua_memory_limit = 8u << 20 };
        NavWorld *w = map_load_buffer(buf, n, name, &opt, &err);
        if (w) {
            loaded++;
            world_destroy(w);
        } else {
            rejected++;
            cr_assert(NAV_FAILED(err.status), "round %d: NULL without a failure status", i);
            cr_assert(err.message[0], "round %d: failure without a message", i);
        }
    }
    nav_free(buf);
    cr_assert_eq(loaded + rejected, rounds);
    cr_assert_gt(rejected, 0, "mutations never produced a bad map: the fuzzer is not fuzzing");
}

Test(fuzz, lua_maps, .timeout = 300)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BUNDLED_MAPS); i++) {
        if (strstr(BUNDLED_MAPS[i], "valley")) continue; /* large and computed: slow per round */
        char *data;
        size_t len;
        NavError err;
        cr_assert(NAV_SUCCEEDED(fileio_read(BUNDLED_MAPS[i], 1u << 20, &data, &len, &err)), "%s", err.message);
        fuzz(BUNDLED_MAPS[i], data, len, 400, 0x9e3779b97f4a7c15ull + i);
        nav_free(data);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(fuzz, movingai_maps, .timeout = 300)
{
    const char *src = "type octile\nheight 8\nwidth 8\nmap\n"
                      "........\n.@@@@@@.\n.@....@.\n.@.TT.@.\n.@.TT.@.\n.@....@.\n.@@..@@.\n........\n";
    fuzz("fuzz.map", src, strlen(src), 3000, 42);
    NAV_TEST_LEAK_CHECK();
}

/* A memory file into a memory of arena's graph that knows a few links:
** loaded (within its bound, and it saves and loads back the same), or
** refused with a message and the memory as it was. True when loaded. */
static bool load_memory_file(const NavAreaGraph *ag, const char *data, size_t len, const char *what)
{
    NavError err;
    nav_error_clear(&err);
    NavMemory *m = memory_create(ag, 3, &err);
    cr_assert_not_null(m);
    for (uint32_t l = 0; l < area_reach_count(ag); l += 7) memory_learn_link(m, l, 1 + l, NULL);
    NavMemory *before = memory_clone(m, &err);
    uint32_t version = memory_version(m);
    bool loaded = NAV_SUCCEEDED(memory_load_buffer(m, data, len, "fuzz.mem", &err));
    NavMemory *cmp = before;
    if (!loaded) {
        cr_assert(err.message[0], "%s: refused without a message", what);
        cr_assert_eq(memory_version(m), version, "%s: a refused file changed the version", what);
    } else {
        char *text;
        size_t n;
        cr_assert(NAV_SUCCEEDED(memory_save_buffer(m, &text, &n, &err)), "%s", what);
        memory_clear(before);
        cr_assert(NAV_SUCCEEDED(memory_load_buffer(before, text, n, "again.mem", &err)), "%s: %s", what, err.message);
        nav_free(text);
        for (uint32_t a = 0; a < area_count(ag); a++) {
            uint32_t k, in_n;
            const uint32_t *in = area_incoming(ag, a, &in_n);
            k = 0;
            for (uint32_t i = 0; i < in_n; i++) k += memory_knows_link(m, in[i]);
            cr_assert_leq(k, (uint32_t)memory_links_per_area(m), "%s: over the bound", what);
        }
    }
    cr_assert_eq(memory_links_per_area(m), memory_links_per_area(cmp), "%s", what);
    cr_assert_eq(memory_link_count(m), memory_link_count(cmp), "%s", what);
    cr_assert_eq(memory_area_count(m), memory_area_count(cmp), "%s", what);
    for (uint32_t l = 0; l < area_reach_count(ag); l++)
        cr_assert_eq(memory_link_seen(m, l), memory_link_seen(cmp, l), "%s: link %u", what, l);
    for (uint32_t a = 0; a < area_count(ag); a++) cr_assert_eq(memory_knows_area(m, a), memory_knows_area(cmp, a));
    memory_destroy(m);
    memory_destroy(before);
    return loaded;
}

static const char *const MEMORY_TOKENS[] = {
    "navbot-memory 1\n",
    "graph ",
    "links_per_area ",
    "area ",
    "link ",
    "end\n",
    "\r\n",
    "# ",
    " 0",
    " 1",
    " 64",
    " 65",
    " 4294967295",
    " 4294967296",
    "\n",
    " ",
    "-",
    "\0",
};

Test(fuzz, memory_files, .timeout = 300)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    NavAreaGraph *ag = area_build(w, world_find_class(w, "human"), NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    /* The fuzzer's seed corpus: each file as it is. */
    glob_t g;
    cr_assert_eq(glob("tests/fuzz/corpus/memory_file/*", 0, NULL, &g), 0, "no seed corpus for fuzz_memory_file");
    int corpus_loaded = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *data;
        size_t len;
        cr_assert(NAV_SUCCEEDED(fileio_read(g.gl_pathv[i], 1u << 20, &data, &len, &err)), "%s", err.message);
        corpus_loaded += load_memory_file(ag, data, len, g.gl_pathv[i]);
        nav_free(data);
    }
    cr_assert_geq(g.gl_pathc, 5);
    cr_assert_gt(corpus_loaded, 0, "no seed of the corpus loads: is it for another arena?");
    globfree(&g);
    /* Mutations of a memory that knows some of everything. */
    NavMemory *m = memory_create(ag, 3, &err);
    memory_learn_reachable(m, 0, NAV_TFL_ALL_TYPES, NAV_TFL_DEFAULT, -1, 4);
    char *src;
    size_t len;
    cr_assert(NAV_SUCCEEDED(memory_save_buffer(m, &src, &len, &err)));
    memory_destroy(m);
    Rng r = { 0x5eedull };
    size_t cap = len + 4096;
    char *buf = nav_malloc(cap);
    int loaded = 0, rejected = 0;
    for (int i = 0; i < 3000; i++) {
        /* mutate() splices map tokens; these are a memory file's. */
        size_t n = mutate(&r, src, len, buf, cap);
        for (int k = (int)(rng_next(&r) % 3); k > 0; k--) {
            const char *t = MEMORY_TOKENS[rng_next(&r) % NAV_ARRAY_COUNT(MEMORY_TOKENS)];
            size_t tl = strlen(t) ? strlen(t) : 1, at = n ? rng_next(&r) % n : 0;
            if (n + tl > cap) break;
            memmove(buf + at + tl, buf + at, n - at);
            memcpy(buf + at, t, tl);
            n += tl;
        }
        char what[32];
        snprintf(what, sizeof what, "round %d", i);
        if (load_memory_file(ag, buf, n, what)) loaded++;
        else rejected++;
    }
    cr_assert_gt(loaded, 0, "no mutation loaded: the fuzzing never got past the header");
    cr_assert_gt(rejected, 0, "mutations never produced a bad file: the fuzzer is not fuzzing");
    nav_free(buf);
    nav_free(src);
    area_destroy(ag);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

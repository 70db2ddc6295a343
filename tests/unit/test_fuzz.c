/*
** test_fuzz.c — mutation fuzzing of both loaders, inside the suite.
**
** Each case takes a valid map, applies seeded random mutations (bit
** flips, byte changes, cuts, splices of map-ish tokens) and loads it. A
** load must either succeed or fail with a message; under the sanitize
** configuration any overflow, use after free, UB or leak fails the test.
** The seed is fixed, so a failure repeats.
*/
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "map/map.h"
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

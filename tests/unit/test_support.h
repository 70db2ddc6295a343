/*
** test_support.h — shared helpers for the unit tests.
**
** Tests run from the repository root (README's test command does that).
** Test data lives in tests/data (the Moving AI maps and scenarios in
** tests/data/movingai, with their provenance); NAVBOT_TEST_DATA overrides
** where that folder is.
**
** Under the sanitize configuration every test ends with a leak check
** (NAV_TEST_END), because LeakSanitizer's own report at exit does not make
** Criterion fail a test.
*/
#ifndef NAV_TEST_SUPPORT_H
#define NAV_TEST_SUPPORT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "map/map.h"

#ifdef NAV_SANITIZE
#include <sanitizer/lsan_interface.h>
#define NAV_TEST_LEAK_CHECK() cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (see the LeakSanitizer report above)")
#else
#define NAV_TEST_LEAK_CHECK() ((void)0)
#endif

static inline const char *test_data_dir(void)
{
    const char *s = getenv("NAVBOT_TEST_DATA");
    return s && s[0] ? s : "tests/data";
}

/* A bundled map, loaded or the test fails naming it. */
static inline NavWorld *test_load_map(const char *path)
{
    NavError err;
    nav_error_clear(&err);
    NavWorld *w = map_load_file(path, NULL, &err);
    cr_assert_not_null(w, "%s: %s", path, err.message);
    return w;
}

/* Path of a file under tests/data, written into buf. */
#define TEST_DATA_PATH(buf, rel) (snprintf(buf, sizeof buf, "%s/%s", test_data_dir(), rel), buf)

/* The Moving AI development maps, with their passable cell counts as the
** data set's README lists them: an independent check of the loader. */
typedef struct MovingAiMap {
    const char *name;
    int width, height;
    int passable;
} MovingAiMap;

static const MovingAiMap MOVINGAI_MAPS[] = {
    { "lak303d", 194, 194, 14784 },      { "AR0011SR", 512, 512, 120458 },
    { "Aftershock", 512, 512, 166076 },  { "maze512-1-0", 512, 512, 131071 },
    { "8room_000", 512, 512, 206642 },   { "random512-10-0", 512, 512, 235900 },
    { "Boston_0_256", 256, 256, 47768 },
};

static const char *const BUNDLED_MAPS[] = {
    "maps/arena.lua", "maps/gauntlet.lua", "maps/tower.lua", "maps/valley.lua", "maps/tiled/fort.tmj",
};

#endif

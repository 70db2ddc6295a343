/*
** random.h — splitmix64: a tiny deterministic generator whose whole state
** is one integer the caller keeps, so the same seed gives the same run in
** generators, benchmarks and tests.
*/
#ifndef NAV_RANDOM_H
#define NAV_RANDOM_H

#include <stdint.h>

static inline uint64_t nav_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double nav_rand_unit(uint64_t *state)
{
    return (double)(nav_rand_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif

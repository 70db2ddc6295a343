/*
** timer.h — a monotonic clock for load times and benchmarks.
*/
#ifndef NAV_TIMER_H
#define NAV_TIMER_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on a monotonic clock. */
static inline uint64_t timer_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double timer_ms_since(uint64_t start_ns) { return (double)(timer_now_ns() - start_ns) / 1e6; }

#endif

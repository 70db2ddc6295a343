/*
** golden.h — a scenario's golden file: NAME.hash beside NAME.lua, one
** line "HASH TICKS ticks [SECONDS s]" (16 hex digits, a tick count, the
** simulated seconds), the trace hash and length a run must give again.
**
** DOES NOT: run scenarios or compare hashes (`navbot test` does).
*/
#ifndef NAV_GOLDEN_H
#define NAV_GOLDEN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOLDEN_PATH_MAX 1024

typedef struct ScenarioGolden {
    char path[GOLDEN_PATH_MAX]; /* NAME.hash */
    bool exists;                /* the file is there */
    bool valid;                 /* and its first line reads as above */
    uint64_t hash, ticks;
} ScenarioGolden;

/* The golden file of scenario file `scenario` (NAME.lua, or any name:
** ".hash" replaces a ".lua" ending, else is added). Never fails: a missing
** or malformed file says so in exists and valid. */
void scenario_golden_read(const char *scenario, ScenarioGolden *g);

/* Writes g->path afresh (a temporary file renamed over it). NAV_E_IO with
** err naming the file when it cannot. */
NavStatus scenario_golden_write(const ScenarioGolden *g, uint64_t hash, uint64_t ticks, double sim_seconds,
                                NavError *err);

#ifdef __cplusplus
}
#endif

#endif

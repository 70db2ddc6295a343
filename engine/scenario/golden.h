/*
** golden.h — a scenario's golden file: NAME.hash beside NAME.lua, one
** line "HASH TICKS ticks [SECONDS s]" (16 hex digits, a tick count, the
** simulated seconds), the trace hash and length a run must give again;
** then, optionally, "per-tick " and 8 hex digits a tick (the low 32 bits
** of the trace hash after each tick), to name where a run first differs.
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
    char problem[160];          /* why not valid, when more than a misread line ("" else) */
    uint64_t hash, ticks;
    uint32_t *per_tick; /* after each tick; NULL when not kept (scenario_golden_free) */
    size_t per_tick_count;
} ScenarioGolden;

/* The golden file of scenario file `scenario` (NAME.lua, or any name:
** ".hash" replaces a ".lua" ending, else is added). Never fails: a missing
** or malformed file says so in exists and valid; a tick count over
** NAV_LIMIT_TICKS is not valid either (problem says so), and no per-tick
** table is made for it (nor when there is no memory for the whole table). */
void scenario_golden_read(const char *scenario, ScenarioGolden *g);
void scenario_golden_free(ScenarioGolden *g);

/* Writes g->path afresh (a temporary file renamed over it), with the
** per-tick line when per_tick_count > 0. NAV_E_IO with err naming the file
** when it cannot. */
NavStatus scenario_golden_write(const ScenarioGolden *g, uint64_t hash, uint64_t ticks, double sim_seconds,
                                const uint32_t *per_tick, size_t per_tick_count, NavError *err);

#ifdef __cplusplus
}
#endif

#endif

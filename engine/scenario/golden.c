/*
** golden.c — golden files (golden.h).
*/
#include "scenario/golden.h"

#include "core/fileio.h"
#include "core/limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* The per-tick line: "per-tick " then 8 hex digits a tick. */
static void read_ticks(FILE *f, ScenarioGolden *g)
{
    char word[16];
    if (fscanf(f, "%15s", word) != 1 || strcmp(word, "per-tick") != 0) return;
    size_t cap = g->ticks ? (size_t)g->ticks : 64;
    g->per_tick = nav_malloc(cap * sizeof *g->per_tick);
    if (!g->per_tick) return;
    int c;
    while ((c = fgetc(f)) == ' ') {}
    char hex[9];
    hex[8] = '\0';
    int k = 0;
    for (; c != EOF && c != '\n'; c = fgetc(f)) {
        hex[k++] = (char)c;
        if (k < 8) continue;
        k = 0;
        if (g->per_tick_count == cap) {
            if (cap >= NAV_LIMIT_TICKS) break;
            uint32_t *more = nav_realloc(g->per_tick, 2 * cap * sizeof *more);
            if (!more) {
                /* A part of the table would name a tick that differs
                ** where none does: none is kept. */
                scenario_golden_free(g);
                return;
            }
            g->per_tick = more;
            cap *= 2;
        }
        g->per_tick[g->per_tick_count++] = (uint32_t)strtoul(hex, NULL, 16);
    }
}

void scenario_golden_read(const char *scenario, ScenarioGolden *g)
{
    memset(g, 0, sizeof *g);
    size_t n = strlen(scenario);
    if (n >= 4 && strcmp(scenario + n - 4, ".lua") == 0) n -= 4;
    snprintf(g->path, sizeof g->path, "%.*s.hash", (int)n, scenario);
    FILE *f = fopen(g->path, "r");
    if (!f) return;
    g->exists = true;
    char line[256] = "";
    if (fgets(line, sizeof line, f)) {
        char word[16] = "";
        unsigned long long hash = 0, ticks = 0;
        g->valid = sscanf(line, "%16llx %llu %15s", &hash, &ticks, word) == 3 && strcmp(word, "ticks") == 0;
        g->hash = hash;
        g->ticks = ticks;
        if (g->valid && ticks > NAV_LIMIT_TICKS) {
            g->valid = false;
            snprintf(g->problem, sizeof g->problem, "%llu ticks is over the limit of %u", ticks, NAV_LIMIT_TICKS);
        }
        if (g->valid) read_ticks(f, g);
    }
    fclose(f);
}

void scenario_golden_free(ScenarioGolden *g)
{
    nav_free(g->per_tick);
    g->per_tick = NULL;
    g->per_tick_count = 0;
}

NavStatus scenario_golden_write(const ScenarioGolden *g, uint64_t hash, uint64_t ticks, double sim_seconds,
                                const uint32_t *per_tick, size_t per_tick_count, NavError *err)
{
    NavFileWriter w;
    NavStatus s = fileio_begin(&w, g->path, 0, err);
    if (NAV_FAILED(s)) return s;
    fprintf(w.f, "%016llx %llu ticks %.2f s\n", (unsigned long long)hash, (unsigned long long)ticks, sim_seconds);
    if (per_tick && per_tick_count) {
        fputs("per-tick ", w.f);
        for (size_t i = 0; i < per_tick_count; i++) fprintf(w.f, "%08x", per_tick[i]);
        fputc('\n', w.f);
    }
    return fileio_commit(&w, err);
}

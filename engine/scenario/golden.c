/*
** golden.c — golden files (golden.h).
*/
#include "scenario/golden.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
    }
    fclose(f);
}

NavStatus scenario_golden_write(const ScenarioGolden *g, uint64_t hash, uint64_t ticks, double sim_seconds,
                                NavError *err)
{
    char tmp[GOLDEN_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", g->path);
    FILE *f = fopen(tmp, "w");
    if (!f) return nav_error_set(err, NAV_E_IO, g->path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    fprintf(f, "%016llx %llu ticks %.2f s\n", (unsigned long long)hash, (unsigned long long)ticks, sim_seconds);
    if (fclose(f) != 0 || rename(tmp, g->path) != 0) {
        int e = errno;
        remove(tmp);
        return nav_error_set(err, NAV_E_IO, g->path, 0, 0, NULL, "cannot write: %s", strerror(e));
    }
    return NAV_OK;
}

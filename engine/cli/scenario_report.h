/*
** scenario_report.h — `navbot test --report DIR`: DIR/index.html, one row per
** scenario with its result, wall time, trace hash, what failed, the
** picture of the failure (each bot's route and goal, the place and tick
** where it went wrong marked) or a thumbnail of a passing run's last tick,
** and the command that replays or reruns it.
**
** Plain HTML with its style inline and relative links to the PNG files
** beside it: the folder opens from disk in any browser, without scripts,
** and can be moved or archived whole.
*/
#ifndef NAV_SCENARIO_REPORT_H
#define NAV_SCENARIO_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ScenarioReportRow {
    const char *name; /* the scenario's: its file's name without .lua */
    const char *file;
    bool passed;
    double seconds; /* wall */
    bool has_hash;
    uint64_t hash;
    const char *text; /* its report from `navbot test`: the first line, then the details */
} ScenarioReportRow;

/* The pictures of scenario name in dir: the failure's (NAME.png) and a
** passing run's thumbnail (NAME.thumb.png). */
void scenario_report_picture(const char *dir, const char *name, bool thumb, char *out, size_t cap);

/* Writes dir/index.html (dir exists) for rows, linking the pictures that
** exist. False with the reason in why. */
bool scenario_report_write(const char *dir, const ScenarioReportRow *rows, int count, char *why, size_t cap);

#endif

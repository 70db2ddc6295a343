/*
** bench_plot.h — `navbot bench ... --plot FILE.png`: a benchmark's --json
** output drawn as bar charts (bench_plot.c says which figures each
** benchmark charts), and the check of a --plot file name that
** `navbot run --plot` shares.
*/
#ifndef NAV_BENCH_PLOT_H
#define NAV_BENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether bench (argv[1] of `navbot bench`: grid, compile, route, crowd,
** competence, shortpath, learning) has a chart. */
bool bench_plot_known(const char *bench);

/* Draws the charts of benchmark bench from its JSON output (one document
** or JSON Lines) into path; table (may be NULL) gets the charted figures
** as text. 0, or 1 with a message on err (JSON that does not parse, a
** file that cannot be written). */
int bench_plot_write(const char *bench, const char *json, const char *path, FILE *table, FILE *err);

/* Whether path can take a chart: it ends in .png and its folder exists and
** can be written. False with the reason in why. */
bool plot_path_ok(const char *path, char *why, size_t cap);

#endif

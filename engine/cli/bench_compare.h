/*
** bench_compare.h — `navbot bench ... --compare FILE`: this run's figures
** beside an earlier run's --json output (bench_compare.c says how).
*/
#ifndef NAV_BENCH_COMPARE_H
#define NAV_BENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct Figure Figure;

typedef struct BenchCompare {
    Figure *before; /* the earlier run's figures, flattened */
    int count;
    char path[512];
} BenchCompare;

/* Reads the earlier run's JSON. False with a message on err naming the
** file (and the line) when it cannot be read or is not JSON. */
bool bench_compare_load(const char *path, BenchCompare *out, FILE *err);
void bench_compare_free(BenchCompare *c);

/* Prints the table of figures in both runs to out. 1 with a message on
** err when now_json does not parse, else 0. */
int bench_compare_print(const BenchCompare *c, const char *now_json, FILE *out, FILE *err);

/* Calls each(doc, ud) for every JSON document of text, in order: one
** document, or JSON Lines as --json writes them for several maps.
** Returns how many there were, or -1 when one does not parse; then
** *bad_line (may be NULL) is the line it starts on (where it fails is
** often the end of the text). */
struct cJSON;
int bench_json_documents(const char *text, void (*each)(const struct cJSON *doc, void *ud), void *ud, int *bad_line);

#endif

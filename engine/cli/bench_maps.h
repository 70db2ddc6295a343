/*
** bench_maps.h — what the benchmarks that run brains on maps share:
** finding the bundled maps and naming a map in a table.
*/
#ifndef NAV_BENCH_MAPS_H
#define NAV_BENCH_MAPS_H

#include <stdbool.h>
#include <stddef.h>

bool bench_is_file(const char *path);
bool bench_is_dir(const char *path);
/* Every .lua in root/maps, sorted by path, then `extra` (a generated map's
** name; NULL: none): how many (at most cap), each a new string for
** nav_free; -1 when out of memory (nothing left allocated). */
int bench_bundled_maps(const char *root, const char *extra, char **out, int cap);
/* A short name for tables: the file name without folder and .lua; a
** generated map's name as given after "generate:". */
void bench_map_label(const char *path, char *out, size_t cap);

#endif

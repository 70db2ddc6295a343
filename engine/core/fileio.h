/*
** fileio.h — whole-file reads with a size cap, for the loaders.
**
** Loaders take buffers (so they can be fuzzed); this is the one place that
** turns a path into a buffer. Directories, unreadable files and files over
** the cap are refused with an error naming the path.
*/
#ifndef NAV_FILEIO_H
#define NAV_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read path into a new NUL-terminated buffer (free with free()).
** (in) max_bytes: refuse larger files. (out) data, len.
** Returns NAV_OK, or NAV_FAILURE|NAV_E_IO with err naming the path. */
NavStatus fileio_read(const char *path, size_t max_bytes, char **data, size_t *len, NavError *err);

/* A text buffer read line by line, for the loaders' error lines: `line`
** is the number of the line last returned (1-based). */
typedef struct NavLines {
    const char *p, *end;
    int line;
    const char *name; /* the file, for messages */
} NavLines;

/* The next line without its terminator (LF or CRLF); false at the end. */
bool fileio_next_line(NavLines *r, const char **s, size_t *n);

/* The part of path after the last '/', and its extension ("" if none). */
const char *fileio_basename(const char *path);
const char *fileio_extension(const char *path);

#ifdef __cplusplus
}
#endif

#endif

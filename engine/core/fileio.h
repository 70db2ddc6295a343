/*
** fileio.h — whole-file reads with a size cap, for the loaders, and safe
** writes, for everything navbot writes (.nav files, golden hashes, run
** traces, pictures, the files of `navbot init`).
**
** Loaders take buffers (so they can be fuzzed); this is the one place that
** turns a path into a buffer. Directories, unreadable files and files over
** the cap are refused with an error naming the path.
**
** A safe write goes to PATH.tmp.<pid> in the same folder, is flushed and
** fsynced, then renamed over PATH: a reader sees the old file or the whole
** new one, never a part. A crash leaves at most the temporary file; a full
** disk or any other failure removes it and leaves PATH as it was.
*/
#ifndef NAV_FILEIO_H
#define NAV_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read path into a new NUL-terminated buffer (free with nav_free()).
** (in) max_bytes: refuse larger files. (out) data, len.
** Returns NAV_OK, or NAV_FAILURE|NAV_E_IO with err naming the path. */
NavStatus fileio_read(const char *path, size_t max_bytes, char **data, size_t *len, NavError *err);

/* {======= safe writes ======= */

#define FILEIO_PATH_MAX 4096
enum {
    FILEIO_NO_REPLACE = 1 << 0, /* fail (EEXIST) rather than replace a file that exists at commit */
};

/* A file being written; zero it or fill it with fileio_begin. */
typedef struct NavFileWriter {
    FILE *f; /* write here between begin and commit */
    char path[FILEIO_PATH_MAX];
    char tmp[FILEIO_PATH_MAX + 32];
    unsigned flags;
} NavFileWriter;

/* Create the temporary file beside path. NAV_OK with w->f open, or
** NAV_FAILURE|NAV_E_IO with err naming path (and the temporary file's
** name when that is what could not be made). */
NavStatus fileio_begin(NavFileWriter *w, const char *path, unsigned flags, NavError *err);
/* Flush, fsync, close and rename into place. On any failure (a write error
** seen by ferror, a full disk at flush, fsync or close, the rename) the
** temporary file is removed, path is left as it was, and err names path
** and the reason. Either way w->f is closed. */
NavStatus fileio_commit(NavFileWriter *w, NavError *err);
/* Give up: close and remove the temporary file (safe after a failed
** begin or a commit, and on a zeroed writer). */
void fileio_abort(NavFileWriter *w);

/* The whole of data in one safe write. */
NavStatus fileio_write(const char *path, const void *data, size_t len, unsigned flags, NavError *err);

/* }======= */

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

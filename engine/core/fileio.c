/*
** fileio.c — whole-file reads with a size cap.
*/
#include "core/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

NavStatus fileio_read(const char *path, size_t max_bytes, char **data, size_t *len, NavError *err)
{
    *data = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) != 0) return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "is a directory, expected a file");
    FILE *f = fopen(path, "rb");
    if (!f) return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));

    /* Read in chunks rather than trusting st_size: pipes and /proc files
    ** report 0, and the file may change under us. */
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > max_bytes + 2) ncap = max_bytes + 2;
            if (ncap <= n + 1) {
                free(buf);
                fclose(f);
                return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "file is larger than the limit of %zu bytes",
                                     max_bytes);
            }
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory reading file");
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "read error");
    }
    if (n > max_bytes) {
        free(buf);
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "file is larger than the limit of %zu bytes", max_bytes);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return NAV_OK;
}

const char *fileio_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

const char *fileio_extension(const char *path)
{
    const char *base = fileio_basename(path);
    const char *dot = strrchr(base, '.');
    return dot ? dot + 1 : "";
}

bool fileio_next_line(NavLines *r, const char **s, size_t *n)
{
    if (r->p >= r->end) return false;
    const char *start = r->p;
    const char *nl = memchr(start, '\n', (size_t)(r->end - start));
    const char *stop = nl ? nl : r->end;
    r->p = nl ? nl + 1 : r->end;
    if (stop > start && stop[-1] == '\r') stop--;
    *s = start;
    *n = (size_t)(stop - start);
    r->line++;
    return true;
}

/*
** fileio.c — whole-file reads with a size cap, and safe writes.
*/
#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"

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
                nav_free(buf);
                fclose(f);
                return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "file is larger than the limit of %zu bytes",
                                     max_bytes);
            }
            char *nb = nav_realloc(buf, ncap);
            if (!nb) {
                nav_free(buf);
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
        nav_free(buf);
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "read error");
    }
    if (n > max_bytes) {
        nav_free(buf);
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

/* {======= safe writes ======= */

NavStatus fileio_begin(NavFileWriter *w, const char *path, unsigned flags, NavError *err)
{
    memset(w, 0, sizeof *w);
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof w->path)
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot write: the path is empty or too long");
    memcpy(w->path, path, n + 1);
    w->flags = flags;
    snprintf(w->tmp, sizeof w->tmp, "%s.tmp.%ld", path, (long)getpid());
    /* O_NOFOLLOW: a symbolic link planted at the temporary name is not
    ** followed to overwrite whatever it points at. */
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
    if (fd < 0) {
        int e = errno;
        w->tmp[0] = '\0';
        char tmp[FILEIO_PATH_MAX + 32];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot write: cannot create %s: %s", tmp, strerror(e));
    }
    w->f = fdopen(fd, "wb");
    if (!w->f) {
        int e = errno;
        close(fd);
        remove(w->tmp);
        w->tmp[0] = '\0';
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot write: %s", strerror(e));
    }
    return NAV_OK;
}

/* fsync the folder holding path, so the rename itself survives a power
** cut; a folder that cannot be opened or synced (some file systems) is
** not an error: the file's own data is already on disk. */
static void sync_folder(const char *path)
{
    char dir[FILEIO_PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

NavStatus fileio_commit(NavFileWriter *w, NavError *err)
{
    if (!w->f) {
        fileio_abort(w);
        return nav_error_set(err, NAV_E_IO, w->path, 0, 0, NULL, "cannot write: the file was not opened");
    }
    int e = 0;
    if (ferror(w->f)) e = errno ? errno : EIO;
    if (!e && fflush(w->f) != 0) e = errno;
    if (!e && fsync(fileno(w->f)) != 0 && errno != EINVAL) e = errno; /* EINVAL: a file that cannot sync (a pipe) */
    if (fclose(w->f) != 0 && !e) e = errno;
    w->f = NULL;
    if (!e) {
        if (w->flags & FILEIO_NO_REPLACE) {
            /* link fails with EEXIST when a file appeared at path meanwhile. */
            if (link(w->tmp, w->path) != 0) e = errno;
        } else if (rename(w->tmp, w->path) != 0) {
            e = errno;
        }
    }
    if (e) {
        fileio_abort(w);
        return nav_error_set(err, NAV_E_IO, w->path, 0, 0, NULL, "cannot write: %s", strerror(e));
    }
    if (w->flags & FILEIO_NO_REPLACE) remove(w->tmp);
    w->tmp[0] = '\0';
    sync_folder(w->path);
    return NAV_OK;
}

void fileio_abort(NavFileWriter *w)
{
    if (w->f) fclose(w->f);
    w->f = NULL;
    if (w->tmp[0]) remove(w->tmp);
    w->tmp[0] = '\0';
}

NavStatus fileio_write(const char *path, const void *data, size_t len, unsigned flags, NavError *err)
{
    NavFileWriter w;
    NavStatus s = fileio_begin(&w, path, flags, err);
    if (NAV_FAILED(s)) return s;
    if (len && fwrite(data, 1, len, w.f) != len) {
        int e = errno ? errno : EIO;
        fileio_abort(&w);
        return nav_error_set(err, NAV_E_IO, path, 0, 0, NULL, "cannot write: %s", strerror(e));
    }
    return fileio_commit(&w, err);
}

/* }======= */

/*
** nav.c — error values.
*/
#include "core/nav.h"

#include <stdio.h>
#include <string.h>

static void copy_string(char *dst, size_t cap, const char *src)
{
    if (!src) src = "";
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void nav_error_clear(NavError *err)
{
    if (err) memset(err, 0, sizeof *err);
}

NavStatus nav_error_setv(NavError *err, NavStatus detail, const char *file, int line, int column, const char *field,
                         const char *fmt, va_list ap)
{
    NavStatus status = NAV_FAILURE | detail;
    if (!err) return status;
    err->status = status;
    copy_string(err->file, sizeof err->file, file);
    err->line = line;
    err->column = column;
    copy_string(err->field, sizeof err->field, field);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return status;
}

NavStatus nav_error_set(NavError *err, NavStatus detail, const char *file, int line, int column, const char *field,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    NavStatus s = nav_error_setv(err, detail, file, line, column, field, fmt, ap);
    va_end(ap);
    return s;
}

const char *nav_error_format(const NavError *err, char *out, size_t cap)
{
    if (cap == 0) return out;
    out[0] = '\0';
    if (!err) return out;
    size_t n = 0;
#define APPEND(...)                                           \
    do {                                                      \
        if (n < cap) {                                        \
            int w_ = snprintf(out + n, cap - n, __VA_ARGS__); \
            if (w_ > 0) n += (size_t)w_;                      \
        }                                                     \
    } while (0)
    if (err->file[0]) {
        APPEND("%s", err->file);
        if (err->line > 0) APPEND(":%d", err->line);
        if (err->line > 0 && err->column > 0) APPEND(":%d", err->column);
        APPEND(": ");
    }
    if (err->field[0]) APPEND("%s: ", err->field);
    APPEND("%s", err->message[0] ? err->message : nav_status_name(err->status));
#undef APPEND
    return out;
}

size_t nav_copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = 0;
    if (src)
        while (n + 1 < cap && src[n]) dst[n] = src[n], n++;
    dst[n] = '\0';
    return n;
}

const char *nav_status_name(NavStatus s)
{
    if (s & NAV_OK) return (s & NAV_PARTIAL) ? "partial result" : "ok";
    if (s & NAV_IN_PROGRESS) return "in progress";
    if (s & NAV_E_NOMEM) return "out of memory";
    if (s & NAV_E_FORMAT) return "bad format";
    if (s & NAV_E_IO) return "i/o error";
    if (s & NAV_E_PARAM) return "bad argument";
    if (s & NAV_E_BUF_SMALL) return "buffer too small";
    if (s & NAV_E_BUDGET) return "budget exhausted";
    return "failure";
}

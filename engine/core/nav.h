/*
** nav.h — status codes and error values shared by every navbot module.
**
** Errors are values: a function that can fail on user input returns a
** NavStatus and, when given a NavError, fills it with where the problem is
** (file, line, column, field) and what was expected. Library code never
** prints, aborts or exits on bad input. NAV_ASSERT is for programmer bugs
** only and compiles away in release builds.
*/
#ifndef NAV_H
#define NAV_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Defines and macros ======= */

#define NAV_VERSION_STRING "0.1.0"

/* Status is a bit set in the style of Detour: one of OK / FAILURE /
** IN_PROGRESS in the high bits, plus detail bits below. */
typedef uint32_t NavStatus;

#define NAV_OK (1u << 30)
#define NAV_FAILURE (1u << 31)
#define NAV_IN_PROGRESS (1u << 29)

#define NAV_E_PARAM (1u << 0)     /* a caller passed a bad argument */
#define NAV_E_NOMEM (1u << 1)     /* an allocation or a memory cap failed */
#define NAV_E_FORMAT (1u << 2)    /* input data is malformed */
#define NAV_E_IO (1u << 3)        /* a file could not be read or written */
#define NAV_E_BUF_SMALL (1u << 4) /* an output buffer was too small */
#define NAV_E_BUDGET (1u << 5)    /* an instruction or node budget ran out */
#define NAV_PARTIAL (1u << 6)     /* success, but the result is partial */

#define NAV_SUCCEEDED(s) (((s)&NAV_OK) != 0)
#define NAV_FAILED(s) (((s)&NAV_FAILURE) != 0)

#ifdef NAV_DEBUG
#include <assert.h>
#define NAV_ASSERT(c) assert(c)
#else
#define NAV_ASSERT(c) ((void)0)
#endif

#define NAV_PI 3.14159265358979323846
#define NAV_SQRT2 1.41421356237309504880

#define NAV_ARRAY_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define NAV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define NAV_MAX(a, b) ((a) > (b) ? (a) : (b))

/* }======= */

/* {======= Types ======= */

/* Where a problem is and what it is. line/column are 1-based; 0 means
** unknown. field is a path such as "entities[3].speed" when the problem is
** in a value rather than at a place in the text. */
typedef struct NavError {
    NavStatus status;
    char file[256];
    int line;
    int column;
    char field[128];
    char message[512];
} NavError;

/* }======= */

/* {======= Functions ======= */

/* Clear err (safe on NULL). */
void nav_error_clear(NavError *err);

/* Record an error and return NAV_FAILURE | detail. err may be NULL; file and
** field may be NULL. The message is formatted printf-style. */
NavStatus nav_error_set(NavError *err, NavStatus detail, const char *file, int line, int column, const char *field,
                        const char *fmt, ...) __attribute__((format(printf, 7, 8)));

NavStatus nav_error_setv(NavError *err, NavStatus detail, const char *file, int line, int column, const char *field,
                         const char *fmt, va_list ap);

/* Render as "file:line:column: field: message" (parts that are unknown are
** left out). Returns out. */
const char *nav_error_format(const NavError *err, char *out, size_t cap);

/* A short name for a status ("ok", "bad format", ...). */
const char *nav_status_name(NavStatus status);

/* Copy text src into dst of cap bytes (cap > 0), cut at cap - 1 bytes and
** always terminated; returns the bytes copied. For per-tick copies (a
** bot's move reason), where snprintf's formatting costs ten times more. */
size_t nav_copy_text(char *dst, size_t cap, const char *src);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAV_H */

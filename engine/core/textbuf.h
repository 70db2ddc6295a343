/*
** textbuf.h — a growing text buffer written with printf formats, for the
** writers that build a whole file in memory first (memory files,
** generated meshes). An allocation that fails marks the buffer failed and
** every later write does nothing: check once at the end.
**
**   NavText t = { 0 };
**   nav_text_printf(&t, "navbot-memory %d\n", 1);
**   if (t.failed) ... else use t.s (t.n bytes, NUL-terminated), nav_free(t.s)
*/
#ifndef NAV_TEXTBUF_H
#define NAV_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct NavText {
    char *s; /* NUL-terminated once anything was written */
    size_t n, cap;
    bool failed;
} NavText;

void nav_text_printf(NavText *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

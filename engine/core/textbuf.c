/*
** textbuf.c — the growing text buffer (textbuf.h).
*/
#include "core/textbuf.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/alloc.h"

void nav_text_printf(NavText *t, const char *fmt, ...)
{
    if (t->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
        t->failed = true;
        return;
    }
    if (!t->s || t->n + (size_t)k + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->n + (size_t)k + 1) cap *= 2;
        char *s = nav_realloc(t->s, cap);
        if (!s) {
            t->failed = true;
            return;
        }
        t->s = s, t->cap = cap;
        va_start(ap, fmt);
        vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
    }
    t->n += (size_t)k;
}

/*
** sandbox_match.c — a counted matcher for Lua patterns (sandbox_match.h).
**
** A recursive backtracking search, like Lua's, so it finds the same match
** (leftmost start; greedy * and +, lazy -, ? tries one first). Recursion
** happens only where the search must come back: a repetition, ?, and
** captures; depth is bounded by SBM_MAXDEPTH. Every function returns NULL
** once m->status is set, and every loop checks it, so a spent limit or an
** error unwinds at once.
*/
#include "lua/sandbox_match.h"

#include <stdio.h>
#include <string.h>

#define ESC '%'

static bool stop(SbMatch *m) { return m->status != SBM_OK; }

static void fail_with(SbMatch *m, const char *msg)
{
    if (m->status == SBM_OK) {
        m->status = SBM_ERROR;
        snprintf(m->error, sizeof m->error, "%s", msg);
    }
}

/* One unit of work; false (and SBM_SPENT) once the limit is passed. */
static bool step(SbMatch *m)
{
    if (++m->steps > m->limit) {
        if (m->status == SBM_OK) m->status = SBM_SPENT;
        return false;
    }
    return true;
}

void sbm_init(SbMatch *m, const char *src, size_t len, const char *pat, size_t plen, uint64_t limit)
{
    m->src = src;
    m->src_end = src + len;
    m->pat = pat;
    m->pat_end = pat + plen;
    m->level = 0;
    m->steps = 0;
    m->limit = limit;
    m->depth = 0;
    m->status = SBM_OK;
    m->error[0] = '\0';
}

/* {======= single characters ======= */

/* Where the single-character item at p ends ('.', a byte, %x or a [set]);
** NULL (with an error) when it is cut short. */
static const char *item_end(SbMatch *m, const char *p)
{
    const char *end = m->pat_end;
    if (*p == ESC) {
        if (p + 1 >= end) {
            fail_with(m, "malformed pattern (ends with '%')");
            return NULL;
        }
        return p + 2;
    }
    if (*p != '[') return p + 1;
    const char *q = p + 1;
    if (q < end && *q == '^') q++;
    /* The first byte of a set is taken as is, so "[]]" holds ']'. */
    do {
        if (q >= end) {
            fail_with(m, "malformed pattern (missing ']')");
            return NULL;
        }
        if (*q++ == ESC && q < end) q++;
    } while (q >= end || *q != ']');
    return q + 1;
}

/* c against the class letter cl (%a ...); any other cl stands for itself.
** The classes are those of the "C" locale, written out: no call per byte,
** and the same answer whatever locale the host set. */
static bool in_class(int c, int cl)
{
    unsigned u = (unsigned)c;
    bool alpha = ((u | 0x20) - 'a') < 26u, digit = (u - '0') < 10u;
    bool in;
    /* cl | 0x20 is the lower case of an ASCII letter, and is a class
    ** letter only when cl is one (in either case). */
    switch (cl | 0x20) {
    case 'a': in = alpha; break;
    case 'c': in = u < 32u || u == 127u; break;
    case 'd': in = digit; break;
    case 'g': in = (u - 33u) < 94u; break;
    case 'l': in = (u - 'a') < 26u; break;
    case 'p': in = (u - 33u) < 94u && !alpha && !digit; break;
    case 's': in = u == ' ' || (u - '\t') < 5u; break;
    case 'u': in = (u - 'A') < 26u; break;
    case 'w': in = alpha || digit; break;
    case 'x': in = digit || ((u | 0x20) - 'a') < 6u; break;
    default: return cl == c;
    }
    return cl < 'a' ? !in : in; /* %A, %D, ...: the complement */
}

/* c against the set from '[' at p to its ']' at close. */
static bool in_set(int c, const char *p, const char *close)
{
    bool want = true;
    p++;
    if (*p == '^') {
        want = false;
        p++;
    }
    for (; p < close; p++) {
        if (*p == ESC && p + 1 < close) {
            p++;
            if (in_class(c, (unsigned char)*p)) return want;
        } else if (p + 2 < close && p[1] == '-') {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return want;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return want;
        }
    }
    return !want;
}

/* Does the item from p to ep match the byte at s? */
static bool single(SbMatch *m, const char *s, const char *p, const char *ep)
{
    if (!step(m) || s >= m->src_end) return false;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return true;
    case ESC: return in_class(c, (unsigned char)p[1]);
    case '[': return in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* }======= */

static const char *match(SbMatch *m, const char *s, const char *p);

/* Item p..ep repeated as often as it matches, then the longest count for
** which the rest matches. */
static const char *greedy(SbMatch *m, const char *s, const char *p, const char *ep)
{
    ptrdiff_t n = 0;
    while (single(m, s + n, p, ep)) n++;
    if (stop(m)) return NULL;
    for (; n >= 0; n--) {
        const char *r = match(m, s + n, ep + 1);
        if (r || stop(m)) return r;
    }
    return NULL;
}

/* The shortest count for which the rest matches. */
static const char *lazy(SbMatch *m, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *r = match(m, s, ep + 1);
        if (r || stop(m)) return r;
        if (!single(m, s, p, ep)) return NULL;
        s++;
    }
}

static const char *open_capture(SbMatch *m, const char *s, const char *p, ptrdiff_t kind)
{
    if (m->level >= SBM_MAXCAPTURES) {
        fail_with(m, "too many captures");
        return NULL;
    }
    int at = m->level++;
    m->cap[at].start = s;
    m->cap[at].len = kind;
    const char *r = match(m, s, p);
    if (!r) m->level--;
    return r;
}

static const char *close_capture(SbMatch *m, const char *s, const char *p)
{
    int at = m->level - 1;
    while (at >= 0 && m->cap[at].len != SBM_CAP_OPEN) at--;
    if (at < 0) {
        fail_with(m, "invalid pattern capture");
        return NULL;
    }
    m->cap[at].len = s - m->cap[at].start;
    const char *r = match(m, s, p);
    if (!r) m->cap[at].len = SBM_CAP_OPEN;
    return r;
}

/* %bxy at s: the end of the balanced run, or NULL. */
static const char *balanced(SbMatch *m, const char *s, char open, char close)
{
    if (s >= m->src_end || *s != open) return NULL;
    int depth = 1;
    while (++s < m->src_end) {
        if (!step(m)) return NULL;
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

/* %N at s: the end of the repeat of capture N, or NULL. */
static const char *backref(SbMatch *m, const char *s, int digit)
{
    int at = digit - '1';
    if (at < 0 || at >= m->level || m->cap[at].len == SBM_CAP_OPEN) {
        char msg[48];
        snprintf(msg, sizeof msg, "invalid capture index %%%d", at + 1);
        fail_with(m, msg);
        return NULL;
    }
    ptrdiff_t len = m->cap[at].len;
    /* A position capture has no text: it repeats nowhere. */
    if (len < 0 || m->src_end - s < len) return NULL;
    m->steps += (uint64_t)len / 16;
    return memcmp(m->cap[at].start, s, (size_t)len) == 0 ? s + len : NULL;
}

static const char *match_items(SbMatch *m, const char *s, const char *p)
{
    const char *end = m->pat_end;
    while (s) {
        if (!step(m)) return NULL;
        if (p == end) return s;
        if (*p == '(') {
            if (p + 1 < end && p[1] == ')') return open_capture(m, s, p + 2, SBM_CAP_POSITION);
            return open_capture(m, s, p + 1, SBM_CAP_OPEN);
        }
        if (*p == ')') return close_capture(m, s, p + 1);
        if (*p == '$' && p + 1 == end) return s == m->src_end ? s : NULL;
        if (*p == ESC && p + 1 < end) {
            char k = p[1];
            if (k == 'b') {
                if (p + 3 >= end) {
                    fail_with(m, "malformed pattern (missing arguments to '%b')");
                    return NULL;
                }
                s = balanced(m, s, p[2], p[3]);
                p += 4;
                continue;
            }
            if (k == 'f') {
                p += 2;
                if (p >= end || *p != '[') {
                    fail_with(m, "missing '[' after '%f' in pattern");
                    return NULL;
                }
                const char *ep = item_end(m, p);
                if (!ep) return NULL;
                int before = s == m->src ? 0 : (unsigned char)s[-1];
                int here = s < m->src_end ? (unsigned char)*s : 0;
                if (in_set(before, p, ep - 1) || !in_set(here, p, ep - 1)) return NULL;
                p = ep;
                continue;
            }
            if (k >= '0' && k <= '9') {
                s = backref(m, s, k);
                p += 2;
                continue;
            }
        }
        const char *ep = item_end(m, p);
        if (!ep) return NULL;
        char q = ep < end ? *ep : '\0';
        if (!single(m, s, p, ep)) {
            if (stop(m)) return NULL;
            if (q == '*' || q == '?' || q == '-') {
                p = ep + 1;
                continue;
            }
            return NULL;
        }
        switch (q) {
        case '?': {
            const char *r = match(m, s + 1, ep + 1);
            if (r || stop(m)) return r;
            p = ep + 1;
            continue;
        }
        case '+': return greedy(m, s + 1, p, ep);
        case '*': return greedy(m, s, p, ep);
        case '-': return lazy(m, s, p, ep);
        default:
            s++;
            p = ep;
            continue;
        }
    }
    return NULL;
}

/* Every recursion passes here, so the depth bound holds everywhere. */
static const char *match(SbMatch *m, const char *s, const char *p)
{
    if (m->depth >= SBM_MAXDEPTH) {
        fail_with(m, "pattern too complex");
        return NULL;
    }
    m->depth++;
    const char *r = match_items(m, s, p);
    m->depth--;
    return stop(m) ? NULL : r;
}

const char *sbm_match_at(SbMatch *m, const char *s, const char *p)
{
    m->level = 0;
    m->depth = 0;
    return match(m, s, p);
}

const char *sbm_search(SbMatch *m, const char *init, const char *p, bool anchored, const char **start)
{
    for (const char *s = init;; s++) {
        const char *e = sbm_match_at(m, s, p);
        if (e) {
            *start = s;
            return e;
        }
        if (stop(m) || anchored || s >= m->src_end) return NULL;
    }
}

bool sbm_is_plain(const char *p, size_t plen)
{
    static const char specials[] = "^$*+?.([%-";
    for (size_t i = 0; i < plen; i++)
        if (p[i] && strchr(specials, p[i])) return false;
    return true;
}

const char *sbm_find_plain(SbMatch *m, const char *init, const char *needle, size_t nlen)
{
    if (nlen == 0) return init;
    const char *s = init;
    while (m->src_end - s >= (ptrdiff_t)nlen) {
        /* Starts from s up to the last one where the needle fits. */
        const char *hit = memchr(s, needle[0], (size_t)(m->src_end - s) - nlen + 1);
        if (!hit) return NULL;
        m->steps += 1 + (uint64_t)(hit - s) / 16 + nlen / 16;
        if (m->steps > m->limit) {
            m->status = SBM_SPENT;
            return NULL;
        }
        if (memcmp(hit + 1, needle + 1, nlen - 1) == 0) return hit;
        s = hit + 1;
    }
    return NULL;
}

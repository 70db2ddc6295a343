/*
** sandbox_match.h — Lua 5.4 patterns (string.find, match, gmatch, gsub)
** matched under a step limit, for the sandbox's string functions.
**
** The stock matcher is a backtracking search that runs inside one C call:
** a pattern such as ("a*"):rep(30) .. "b" takes exponential time while the
** instruction budget sees a single instruction. This one speaks the same
** pattern language (classes %a %c %d %g %l %p %s %u %w %x and their
** complements, sets, . * + - ?, captures and position captures, %1-%9,
** %b, %f, ^ and $) with the same results, and counts every step: each
** pattern item tried at a subject position, each character a repetition
** looks at. When the count passes the limit it stops with SBM_SPENT.
**
** Errors in a pattern are found where the stock matcher finds them: when
** the search reaches the bad item (so "x%" against "abc" is no match, as in
** stock Lua, not an error). Messages are the stock ones.
**
** STEP BY STEP
**   SbMatch m;
**   sbm_init(&m, subject, len, pattern, plen, limit);
**   const char *start;
**   const char *end = sbm_search(&m, subject, pattern, anchored, &start);
**   if (m.status == SBM_ERROR) ... m.error;  if (m.status == SBM_SPENT) ...
**   captures: m.level, m.cap[i].start, m.cap[i].len (SBM_CAP_POSITION: a
**   position capture; SBM_CAP_OPEN: never closed)
**   m.steps: the steps taken, whatever the outcome.
**
** DOES NOT: allocate, call Lua, or raise errors (it returns them); read
** past the subject or the pattern (embedded zeros are ordinary bytes).
*/
#ifndef NAV_SANDBOX_MATCH_H
#define NAV_SANDBOX_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SBM_MAXCAPTURES 32 /* as LUA_MAXCAPTURES */
#define SBM_MAXDEPTH 200   /* nested repetitions and captures: "pattern too complex" */
#define SBM_CAP_OPEN (-1)
#define SBM_CAP_POSITION (-2)

enum { SBM_OK, SBM_SPENT, SBM_ERROR };

typedef struct SbMatch {
    const char *src, *src_end; /* the subject */
    const char *pat, *pat_end; /* the whole pattern */
    int level;                 /* captures opened so far */
    struct {
        const char *start;
        ptrdiff_t len; /* or SBM_CAP_OPEN, SBM_CAP_POSITION */
    } cap[SBM_MAXCAPTURES];
    uint64_t steps, limit;
    int depth;
    int status;
    char error[64];
} SbMatch;

void sbm_init(SbMatch *m, const char *src, size_t len, const char *pat, size_t plen, uint64_t limit);

/* Matches p (a suffix of the pattern) at s exactly; the end of the match or
** NULL. Resets the captures first. */
const char *sbm_match_at(SbMatch *m, const char *s, const char *p);

/* Tries sbm_match_at at init, then (unless anchored) at each later
** position up to the subject's end. On a match, *start is where it
** begins and the end is returned; NULL for none or on an error or spent
** limit (see m->status). */
const char *sbm_search(SbMatch *m, const char *init, const char *p, bool anchored, const char **start);

/* True when p (plen bytes) has none of the pattern specials ^$*+?.([%-,
** so string.find may search for it as plain text. */
bool sbm_is_plain(const char *p, size_t plen);

/* Plain substring search from init, counting a step per candidate
** position and one per 16 bytes compared. NULL for none or a spent limit. */
const char *sbm_find_plain(SbMatch *m, const char *init, const char *needle, size_t nlen);

#endif

/*
** run_trace_read.c — reading run records (run_trace.h): every version up
** to RUN_TRACE_VERSION, each problem named by file, line, field and tick.
*/
#include "script/run_trace_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"

/* {======= reading ======= */

typedef struct Reader {
    const char *path;
    int line;
    NavError *err;
    RunTrace *t;
    uint32_t bot_cap, frame_cap, state_cap, event_cap;
} Reader;

static bool fail(Reader *r, const char *field, const char *msg)
{
    /* The tick too: a line number alone is hard to find in a long record. */
    const RunTrace *t = r->t;
    if (t && t->frame_count)
        nav_error_set(r->err, NAV_E_FORMAT, r->path, r->line, 0, field, "%s (in tick %" PRIu64 ")", msg,
                      t->frames[t->frame_count - 1].tick);
    else nav_error_set(r->err, NAV_E_FORMAT, r->path, r->line, 0, field, "%s", msg);
    return false;
}

/* Out of memory: NAV_E_NOMEM, so a caller tells it from a broken file. */
static bool oom(Reader *r)
{
    nav_error_set(r->err, NAV_E_NOMEM, r->path, r->line, 0, NULL, "out of memory reading the run trace");
    return false;
}

static bool grow(Reader *r, void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap) return true;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > UINT32_MAX / 2) return fail(r, NULL, "record too large");
        c *= 2;
    }
    void *np = nav_realloc(*p, (size_t)c * size);
    if (!np) {
        nav_error_set(r->err, NAV_E_NOMEM, r->path, r->line, 0, NULL, "out of memory reading the run trace");
        return false;
    }
    *p = np;
    *cap = c;
    return true;
}

/* Whole numbers and floats, each followed by a space or the end. */
static bool take_u64(const char **s, uint64_t *out, int base)
{
    char *end;
    errno = 0;
    if (**s == '-' || **s == ' ' || !**s) return false;
    unsigned long long v = strtoull(*s, &end, base);
    if (end == *s || errno || (*end && *end != ' ')) return false;
    *out = v;
    *s = *end ? end + 1 : end;
    return true;
}

static bool take_u32(const char **s, uint32_t *out)
{
    uint64_t v;
    if (!take_u64(s, &v, 10) || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

static bool take_float(const char **s, float *out)
{
    char *end;
    errno = 0;
    float v = strtof(*s, &end);
    if (end == *s || errno || !isfinite(v) || (*end && *end != ' ')) return false;
    *out = v;
    *s = *end ? end + 1 : end;
    return true;
}

static bool take_floats(const char **s, float *out, int n)
{
    for (int i = 0; i < n; i++)
        if (!take_float(s, &out[i])) return false;
    return true;
}

static RunTraceEvent *add_event(Reader *r, RunTraceEventKind kind, uint32_t id)
{
    RunTrace *t = r->t;
    if (!t->frame_count) {
        fail(r, NULL, "a change before the first tick line");
        return NULL;
    }
    if (!grow(r, (void **)&t->events, &r->event_cap, t->event_count + 1, sizeof *t->events)) return NULL;
    RunTraceEvent *e = &t->events[t->event_count++];
    memset(e, 0, sizeof *e);
    e->frame = t->frame_count - 1;
    e->kind = kind;
    e->id = id;
    return e;
}

static bool known_bot(Reader *r, uint32_t id, const char *field)
{
    if (id < r->t->bot_count) return true;
    char msg[96];
    snprintf(msg, sizeof msg, "bot %u was not announced by a 'bot' line", id);
    return fail(r, field, msg);
}

static bool parse_flags(const char *s, uint32_t *out)
{
    uint32_t f = 0;
    if (strcmp(s, "-") == 0) {
        *out = 0;
        return true;
    }
    for (; *s; s++) {
        const char *k = strchr("gwlckrF", *s);
        if (!k) return false;
        f |= 1u << (k - "gwlckrF");
    }
    *out = f;
    return true;
}

/* A word (display text written as one field, "-" for none). */
static bool take_word(const char **s, char *out, size_t cap)
{
    const char *e = strchr(*s, ' ');
    size_t n = e ? (size_t)(e - *s) : strlen(*s);
    if (n == 0 || n >= cap) return false;
    if (n == 1 && **s == '-') out[0] = '\0';
    else {
        memcpy(out, *s, n);
        out[n] = '\0';
    }
    *s += e ? n + 1 : n;
    return true;
}

static bool take_int(const char **s, int *out, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(*s, &end, 10);
    if (end == *s || errno || (*end && *end != ' ') || v < lo || v > hi) return false;
    *out = (int)v;
    *s = *end ? end + 1 : end;
    return true;
}

/* Version 3's records in an older file are not what that version wrote. */
static bool needs_v3(Reader *r, const char *field)
{
    if (r->t->version >= 3) return true;
    char msg[128];
    snprintf(msg, sizeof msg, "a '%s' record in a version %d record (it came with version 3)", field, r->t->version);
    return fail(r, field, msg);
}

static bool read_goals(Reader *r, const char *rest)
{
    uint32_t id;
    int n;
    if (!needs_v3(r, "goals")) return false;
    if (!take_u32(&rest, &id) || !take_int(&rest, &n, 0, SIM_MAX_GOALS))
        return fail(r, "goals", "expected: goals ID N X Y Z R ... (N from 0 to 16)");
    float g[SIM_MAX_GOALS][4];
    for (int k = 0; k < n; k++)
        if (!take_floats(&rest, g[k], 4)) return fail(r, "goals", "expected N goals of X Y Z R");
    if (*rest) return fail(r, "goals", "more than N goals");
    if (!known_bot(r, id, "goals")) return false;
    RunTraceEvent *e = add_event(r, RUN_TRACE_GOAL, id);
    if (!e) return false;
    e->n = (uint32_t)n;
    if (n) {
        if (!(e->data = nav_malloc((size_t)n * sizeof g[0]))) return oom(r);
        memcpy(e->data, g, (size_t)n * sizeof g[0]);
    }
    return true;
}

static bool read_route(Reader *r, const char *rest)
{
    uint32_t id;
    int cls, detour, nl, np;
    if (!needs_v3(r, "route")) return false;
    if (!take_u32(&rest, &id) || !take_int(&rest, &cls, 0, NAV_LIMIT_CLASSES - 1) ||
        !take_int(&rest, &detour, 0, SIM_SHOW_ROUTE) || !take_int(&rest, &nl, 0, SIM_SHOW_ROUTE) ||
        !take_int(&rest, &np, 0, SIM_SHOW_ROUTE) || detour > np)
        return fail(r, "route", "expected: route ID CLASS DETOUR NLINKS NPOINTS (counts up to 48, DETOUR <= NPOINTS)");
    if (!known_bot(r, id, "route")) return false;
    RunTraceRoute *ro = run_trace_route_new(nl, np);
    if (!ro) return oom(r);
    ro->cls = cls;
    ro->detour_count = detour;
    bool ok = true;
    for (int k = 0; k < nl && ok; k++) ok = take_u32(&rest, &ro->links[k]);
    for (int k = 0; k < np && ok; k++) ok = take_floats(&rest, ro->path[k], 3);
    if (!ok || *rest) {
        nav_free(ro);
        return fail(r, "route",
                    ok ? "more than NLINKS links and NPOINTS points"
                       : "expected NLINKS link numbers, then NPOINTS points X Y Z");
    }
    RunTraceEvent *e = add_event(r, RUN_TRACE_ROUTE, id);
    if (!e) {
        nav_free(ro);
        return false;
    }
    e->data = ro;
    return true;
}

static bool read_intent(Reader *r, const char *rest)
{
    uint32_t id;
    float facing;
    int look, prio, nq, nt;
    char reason[SIM_REASON_MAX];
    if (!needs_v3(r, "intent")) return false;
    if (!take_u32(&rest, &id) || !take_float(&rest, &facing) || !take_int(&rest, &look, 0, 1) ||
        !take_int(&rest, &prio, INT32_MIN, INT32_MAX) || !take_word(&rest, reason, sizeof reason) ||
        !take_int(&rest, &nq, 0, SIM_SHOW_REQUESTS) || !take_int(&rest, &nt, 0, SIM_SHOW_TRACES))
        return fail(r, "intent", "expected: intent ID FACING LOOK PRIORITY REASON NREQUESTS NTRACES ...");
    if (!known_bot(r, id, "intent")) return false;
    RunTraceIntent *in = run_trace_intent_new(nq, nt);
    if (!in) return oom(r);
    in->facing = facing;
    in->look = look;
    in->priority = prio;
    memcpy(in->reason, reason, sizeof reason);
    bool ok = true;
    for (int k = 0; k < nq && ok; k++) {
        SimShowRequest *q = &in->req[k];
        ok = take_floats(&rest, q->dir, 2) && take_int(&rest, &q->priority, INT32_MIN, INT32_MAX) &&
             take_word(&rest, q->reason, sizeof q->reason);
    }
    for (int k = 0; k < nt && ok; k++) {
        SimShowTrace *tr = &in->traces[k];
        int hit = 0;
        ok = take_floats(&rest, tr->start, 3) && take_floats(&rest, tr->end, 3) && take_floats(&rest, tr->half, 2) &&
             take_int(&rest, &hit, 0, 1);
        tr->hit = hit;
    }
    if (!ok || *rest) {
        nav_free(in);
        return fail(r, "intent",
                    ok ? "more than NREQUESTS requests and NTRACES traces"
                       : "expected NREQUESTS requests (DX DY PRIORITY REASON), then NTRACES traces "
                         "(X0 Y0 Z0 X1 Y1 Z1 HX HY HIT)");
    }
    RunTraceEvent *e = add_event(r, RUN_TRACE_INTENT, id);
    if (!e) {
        nav_free(in);
        return false;
    }
    e->data = in;
    return true;
}

static bool read_mark(Reader *r, const char *rest)
{
    if (!needs_v3(r, "mark")) return false;
    SimMark m;
    memset(&m, 0, sizeof m);
    const char *kinds = "lct", *k = rest[0] && rest[1] == ' ' ? strchr(kinds, rest[0]) : NULL;
    if (!k || !rest[0]) return fail(r, "mark", "expected: mark l|c|t UNTIL R G B A X Y Z ...");
    m.kind = (SimMarkKind)(k - kinds);
    rest += 2;
    char *end;
    errno = 0;
    m.until = strtod(rest, &end);
    if (end == rest || errno || *end != ' ' || !isfinite(m.until)) return fail(r, "mark", "UNTIL: expected seconds");
    rest = end + 1;
    for (int c = 0; c < 4; c++) {
        int v;
        if (!take_int(&rest, &v, 0, 255)) return fail(r, "mark", "R G B A: expected whole numbers from 0 to 255");
        m.rgba[c] = (uint8_t)v;
    }
    if (!take_floats(&rest, m.a, 3)) return fail(r, "mark", "expected the point X Y Z");
    bool ok = true;
    if (m.kind == SIM_MARK_LINE) ok = take_floats(&rest, m.b, 3) && !*rest;
    else if (m.kind == SIM_MARK_CIRCLE) ok = take_float(&rest, &m.radius) && !*rest;
    else if (strlen(rest) >= sizeof m.text) return fail(r, "mark", "the text is longer than 47 bytes");
    else strcpy(m.text, rest);
    if (!ok)
        return fail(r, "mark",
                    m.kind == SIM_MARK_LINE ? "a line: expected X1 Y1 Z1 last" : "a circle: expected RADIUS last");
    RunTraceEvent *e = add_event(r, RUN_TRACE_MARK, 0);
    if (!e) return false;
    if (!(e->data = nav_malloc(sizeof m))) return oom(r);
    memcpy(e->data, &m, sizeof m);
    return true;
}

static bool read_line(Reader *r, char *s)
{
    RunTrace *t = r->t;
    char *sp = strchr(s, ' ');
    size_t kl = sp ? (size_t)(sp - s) : strlen(s);
    const char *rest = sp ? sp + 1 : s + kl;
#define IS(k) (kl == strlen(k) && memcmp(s, k, kl) == 0)
    if (IS("map") || IS("root")) {
        char *dst = IS("map") ? t->map : t->root;
        if (!*rest || strlen(rest) >= sizeof t->map) return fail(r, IS("map") ? "map" : "root", "missing or too long");
        memcpy(dst, rest, strlen(rest) + 1);
    } else if (IS("seed")) {
        if (!take_u64(&rest, &t->seed, 10) || *rest) return fail(r, "seed", "expected a whole number");
    } else if (IS("hz")) {
        uint32_t hz;
        if (!take_u32(&rest, &hz) || *rest || hz < 1 || hz > 1000) return fail(r, "hz", "expected 1 to 1000");
        t->hz = (int)hz;
    } else if (IS("bot")) {
        uint32_t id;
        if (!take_u32(&rest, &id) || id != t->bot_count) return fail(r, "bot", "expected the next bot id in order");
        if (!grow(r, (void **)&t->bot_info, &r->bot_cap, id + 1, sizeof *t->bot_info)) return false;
        RunTraceBotInfo *bi = &t->bot_info[id];
        memset(bi, 0, sizeof *bi);
        const char *sp2 = strchr(rest, ' ');
        if (!sp2 || sp2 == rest || (size_t)(sp2 - rest) >= sizeof bi->brain || !sp2[1] ||
            strlen(sp2 + 1) >= sizeof bi->cls)
            return fail(r, "bot", "expected: bot ID BRAIN CLASS");
        memcpy(bi->brain, rest, (size_t)(sp2 - rest));
        strcpy(bi->cls, sp2 + 1);
        t->bot_count++;
    } else if (IS("tick")) {
        uint64_t tick, hash;
        if (!take_u64(&rest, &tick, 10) || !take_u64(&rest, &hash, 16) || *rest)
            return fail(r, "tick", "expected: tick N HASH");
        if (t->frame_count && tick <= t->frames[t->frame_count - 1].tick) return fail(r, "tick", "ticks must increase");
        if (tick > NAV_LIMIT_TICKS) {
            /* A record claiming 2^40 ticks would be played or pictured tick by tick. */
            char msg[128];
            snprintf(msg, sizeof msg, "tick %" PRIu64 " is over the limit of %u ticks", tick, NAV_LIMIT_TICKS);
            return fail(r, "tick", msg);
        }
        if (!grow(r, (void **)&t->frames, &r->frame_cap, t->frame_count + 1, sizeof *t->frames)) return false;
        t->frames[t->frame_count++] = (RunTraceFrame){ .tick = tick, .hash = hash, .first = t->bot_state_count };
    } else if (IS("b")) {
        RunTraceBot b;
        memset(&b, 0, sizeof b);
        if (!t->frame_count) return fail(r, "b", "a bot state before the first tick line");
        if (!take_u32(&rest, &b.id) || !take_floats(&rest, b.pos, 3) || !take_float(&rest, &b.yaw) ||
            !take_floats(&rest, b.vel, 3) || !parse_flags(rest, &b.flags))
            return fail(r, "b", "expected: b ID X Y Z YAW VX VY VZ FLAGS");
        if (!known_bot(r, b.id, "b")) return false;
        if (!grow(r, (void **)&t->bots, &r->state_cap, t->bot_state_count + 1, sizeof *t->bots)) return false;
        t->bots[t->bot_state_count++] = b;
        t->frames[t->frame_count - 1].count++;
    } else if (IS("say") || IS("fault")) {
        bool say = IS("say");
        uint32_t id;
        /* "say 3" with nothing after it: the text was cleared. */
        if (!take_u32(&rest, &id)) return fail(r, say ? "say" : "fault", "expected a bot id");
        if (!known_bot(r, id, say ? "say" : "fault")) return false;
        RunTraceEvent *e = add_event(r, say ? RUN_TRACE_SAY : RUN_TRACE_FAULT, id);
        if (!e) return false;
        e->text = nav_strdup(rest);
        if (!e->text) return oom(r);
    } else if (IS("goals")) {
        return read_goals(r, rest);
    } else if (IS("route")) {
        return read_route(r, rest);
    } else if (IS("intent")) {
        return read_intent(r, rest);
    } else if (IS("mark")) {
        return read_mark(r, rest);
    } else if (IS("marks")) {
        if (!needs_v3(r, "marks")) return false;
        if (strcmp(rest, "-") != 0) return fail(r, "marks", "expected: marks -");
        return add_event(r, RUN_TRACE_MARKS_CLEAR, 0) != NULL;
    } else if (IS("goal")) {
        uint32_t id;
        float g[4] = { 0, 0, 0, -1.0f };
        if (!take_u32(&rest, &id) || !(strcmp(rest, "-") == 0 || (take_floats(&rest, g, 4) && !*rest)))
            return fail(r, "goal", "expected: goal ID X Y Z R, or goal ID -");
        if (!known_bot(r, id, "goal")) return false;
        /* Version 2: the head of the queue only. */
        RunTraceEvent *e = add_event(r, RUN_TRACE_GOAL, id);
        if (!e) return false;
        if (g[3] >= 0.0f) {
            if (!(e->data = nav_malloc(sizeof g))) return oom(r);
            memcpy(e->data, g, sizeof g);
            e->n = 1;
        }
    } else if (IS("e")) {
        uint32_t id;
        float v[5];
        if (!take_u32(&rest, &id) || !take_floats(&rest, v, 5) || *rest)
            return fail(r, "e", "expected: e INDEX OFFSET PHASE X Y Z");
        /* The phase becomes an int when posed: the writer's values only
        ** (NavEntityState.phase: a door moving is +-2). */
        if (v[1] != floorf(v[1]) || v[1] < -2.0f || v[1] > 2.0f)
            return fail(r, "e", "PHASE must be a whole number from -2 to 2");
        RunTraceEvent *e = add_event(r, RUN_TRACE_ENTITY, id);
        if (!e) return false;
        memcpy(e->v, v, sizeof v);
    } else if (IS("obstacle")) {
        uint32_t id;
        float v[6];
        bool add = rest[0] == '+' && rest[1] == ' ', del = rest[0] == '-' && rest[1] == ' ';
        if (!add && !del) return fail(r, "obstacle", "expected + or -");
        rest += 2;
        if (!take_u32(&rest, &id) || (add && !take_floats(&rest, v, 6)) || *rest)
            return fail(r, "obstacle", add ? "expected: obstacle + ID X0 Y0 Z0 X1 Y1 Z1" : "expected: obstacle - ID");
        RunTraceEvent *e = add_event(r, add ? RUN_TRACE_OBSTACLE_ADD : RUN_TRACE_OBSTACLE_REMOVE, id);
        if (!e) return false;
        if (add) memcpy(e->v, v, sizeof v);
    } else {
        return fail(
            r, NULL,
            "unknown record (expected bot, tick, b, say, goals, route, intent, mark, marks, fault, e or obstacle)");
    }
#undef IS
    return true;
}

RunTrace *run_trace_load(const char *path, NavError *err)
{
    char *data;
    size_t len;
    if (NAV_FAILED(fileio_read(path, RUN_TRACE_MAX_BYTES, &data, &len, err))) return NULL;
    RunTrace *t = nav_calloc(1, sizeof *t);
    Reader r = { .path = path, .err = err, .t = t };
    if (!t) {
        nav_free(data);
        nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for the run trace");
        return NULL;
    }
    strcpy(t->root, ".");
    bool ok = true;
    char *s = data;
    while (ok && *s) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        r.line++;
        size_t n = strlen(s);
        if (n && s[n - 1] == '\r') s[--n] = '\0';
        if (r.line == 1) {
            int v = 0, used = 0;
            if (sscanf(s, "navbot-trace %d%n", &v, &used) != 1 || s[used] || v < 1) {
                ok = fail(&r, NULL, "not a navbot run trace (the first line should be 'navbot-trace 3')");
            } else if (v > RUN_TRACE_VERSION) {
                char msg[128];
                snprintf(msg, sizeof msg, "trace version %d is newer than this navbot reads (up to %d)", v,
                         RUN_TRACE_VERSION);
                ok = fail(&r, "navbot-trace", msg);
            }
            t->version = v;
        } else if (n) {
            ok = read_line(&r, s);
        }
        s = nl ? nl + 1 : s + n;
    }
    nav_free(data);
    if (ok && !t->map[0]) ok = fail(&r, "map", "the record names no map");
    if (ok && !t->hz) ok = fail(&r, "hz", "the record gives no tick rate");
    if (ok && !t->frame_count) ok = fail(&r, NULL, "the record has no ticks");
    if (ok && !run_trace_index(t, path, err)) ok = false;
    if (!ok) {
        run_trace_destroy(t);
        return NULL;
    }
    return t;
}

void run_trace_destroy(RunTrace *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->event_count; i++) {
        nav_free(t->events[i].text);
        nav_free(t->events[i].data);
    }
    run_trace_index_free(t);
    nav_free(t->events);
    nav_free(t->bot_info);
    nav_free(t->frames);
    nav_free(t->bots);
    nav_free(t);
}

uint32_t run_trace_frame_at(const RunTrace *t, uint64_t tick)
{
    uint32_t lo = 0, hi = t->frame_count;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (t->frames[mid].tick <= tick) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* }======= */

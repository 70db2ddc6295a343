/*
** player_record.c — a player's controls as text (player_record.h).
*/
#include "script/player_record.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"

/* {======= controls ======= */

void player_controls_get(const NavBotControl *c, PlayerControls *out)
{
    memset(out, 0, sizeof *out);
    out->move[0] = c->move[0];
    out->move[1] = c->move[1];
    out->jump = c->jump;
    out->crouch = c->crouch;
    out->use = c->use;
    out->ladder_down = c->ladder_down;
    out->look = c->look;
    out->climb = c->climb;
    if (c->look) memcpy(out->look_at, c->look_at, sizeof out->look_at);
    if (c->climb) memcpy(out->climb_to, c->climb_to, sizeof out->climb_to);
}

void player_controls_set(NavBotControl *c, const PlayerControls *p, const char *reason)
{
    memset(c, 0, sizeof *c);
    c->move[0] = p->move[0];
    c->move[1] = p->move[1];
    c->jump = p->jump;
    c->crouch = p->crouch;
    c->use = p->use;
    c->ladder_down = p->ladder_down;
    c->look = p->look;
    c->climb = p->climb;
    memcpy(c->look_at, p->look_at, sizeof c->look_at);
    memcpy(c->climb_to, p->climb_to, sizeof c->climb_to);
    nav_copy_text(c->reason, sizeof c->reason, reason ? reason : "");
}

bool player_controls_equal(const PlayerControls *a, const PlayerControls *b)
{
    return memcmp(a->move, b->move, sizeof a->move) == 0 && a->jump == b->jump && a->crouch == b->crouch &&
           a->use == b->use && a->ladder_down == b->ladder_down && a->look == b->look && a->climb == b->climb &&
           memcmp(a->look_at, b->look_at, sizeof a->look_at) == 0 &&
           memcmp(a->climb_to, b->climb_to, sizeof a->climb_to) == 0;
}

/* }======= */

/* {======= the record in memory ======= */

PlayerRecord *player_record_new(const PlayerRecordInfo *info, NavError *err)
{
    PlayerRecord *r = nav_calloc(1, sizeof *r);
    if (!r) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a player recording");
        return NULL;
    }
    if (info) r->info = *info;
    r->info.map[sizeof r->info.map - 1] = '\0';
    r->info.cls[sizeof r->info.cls - 1] = '\0';
    return r;
}

void player_record_destroy(PlayerRecord *r)
{
    if (!r) return;
    nav_free(r->runs);
    nav_free(r);
}

static bool grow_runs(PlayerRecord *r, uint32_t need)
{
    if (need <= r->run_cap) return true;
    uint32_t cap = r->run_cap ? r->run_cap : 64;
    while (cap < need) {
        if (cap > UINT32_MAX / 2) return false;
        cap *= 2;
    }
    PlayerRun *n = nav_realloc(r->runs, (size_t)cap * sizeof *n);
    if (!n) return false;
    r->runs = n;
    r->run_cap = cap;
    return true;
}

bool player_record_add(PlayerRecord *r, const PlayerControls *c)
{
    if (r->ticks >= NAV_LIMIT_TICKS) return false;
    if (r->run_count && r->runs[r->run_count - 1].count < UINT32_MAX &&
        player_controls_equal(&r->runs[r->run_count - 1].c, c)) {
        r->runs[r->run_count - 1].count++;
        r->ticks++;
        return true;
    }
    if (!grow_runs(r, r->run_count + 1)) return false;
    PlayerRun *run = &r->runs[r->run_count++];
    run->count = 1;
    run->c = *c;
    r->ticks++;
    return true;
}

bool player_record_at(const PlayerRecord *r, uint64_t tick, PlayerCursor *cur, PlayerControls *out)
{
    PlayerCursor none = { 0, 0 };
    if (!cur) cur = &none;
    if (tick >= r->ticks) {
        memset(out, 0, sizeof *out);
        return false;
    }
    if (cur->run > r->run_count || tick < cur->first) cur->run = 0, cur->first = 0;
    while (cur->run < r->run_count && tick >= cur->first + r->runs[cur->run].count) {
        cur->first += r->runs[cur->run].count;
        cur->run++;
    }
    if (cur->run >= r->run_count) {
        memset(out, 0, sizeof *out);
        return false;
    }
    *out = r->runs[cur->run].c;
    return true;
}

/* }======= */

/* {======= writing ======= */

typedef struct Text {
    char *s;
    size_t n, cap;
    bool nomem;
} Text;

static void add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(Text *t, const char *fmt, ...)
{
    if (t->nomem) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->nomem = true;
            return;
        }
        if (t->s && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->n + (size_t)k + 1) cap *= 2;
        char *s = nav_realloc(t->s, cap);
        if (!s) {
            t->nomem = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

static void add_point(Text *t, bool on, const float p[3])
{
    if (!on) add(t, " -");
    else add(t, " %.9g,%.9g,%.9g", (double)p[0], (double)p[1], (double)p[2]);
}

char *player_record_text(const PlayerRecord *r, size_t *len)
{
    Text t = { 0 };
    const PlayerRecordInfo *in = &r->info;
    add(&t,
        "navbot-player %d\nmap %s\nseed %" PRIu64 "\nhz %u\nclass %s\nspawn %.9g %.9g %.9g %.9g\nticks %" PRIu64 "\n",
        PLAYER_RECORD_VERSION, in->map, in->seed, in->hz, in->cls, (double)in->spawn[0], (double)in->spawn[1],
        (double)in->spawn[2], (double)in->yaw, r->ticks);
    for (uint32_t i = 0; i < r->run_count && !t.nomem; i++) {
        const PlayerRun *run = &r->runs[i];
        const PlayerControls *c = &run->c;
        char buttons[8];
        int n = 0;
        if (c->jump) buttons[n++] = 'j';
        if (c->crouch) buttons[n++] = 'c';
        if (c->use) buttons[n++] = 'u';
        if (c->ladder_down) buttons[n++] = 'd';
        if (!n) buttons[n++] = '-';
        buttons[n] = '\0';
        add(&t, "%u %.9g %.9g %s", run->count, (double)c->move[0], (double)c->move[1], buttons);
        add_point(&t, c->look, c->look_at);
        add_point(&t, c->climb, c->climb_to);
        add(&t, "\n");
    }
    add(&t, "end\n");
    if (t.nomem) {
        nav_free(t.s);
        return NULL;
    }
    *len = t.n;
    return t.s;
}

NavStatus player_record_save(const PlayerRecord *r, const char *path, NavError *err)
{
    size_t n;
    char *text = player_record_text(r, &n);
    if (!text) return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory writing the player recording");
    NavStatus st = fileio_write(path, text, n, 0, err);
    nav_free(text);
    return st;
}

/* }======= */

/* {======= reading ======= */

#define LINE_MAX_BYTES 512
#define MAX_FIELDS 8

typedef struct Reader {
    const char *path;
    int line;
    NavError *err;
    PlayerRecord *r;
} Reader;

static bool fail(Reader *rd, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(Reader *rd, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nav_error_setv(rd->err, NAV_E_FORMAT, rd->path, rd->line, 0, field, fmt, ap);
    va_end(ap);
    return false;
}

/* A whole token of decimal digits. */
static bool whole(const char *s, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max) return false;
    *out = v;
    return true;
}

/* A whole token that is a finite float (overflow is not; a value too
** small for a normal float is kept as the nearest one). */
static bool number(const char *s, float *out)
{
    if (!*s || *s == ' ' || *s == '\t' || *s == '+') return false;
    char *end;
    float v = strtof(s, &end);
    if (end == s || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

/* "-" (off) or "X,Y,Z". */
static bool point(const char *s, bool *on, float p[3])
{
    if (strcmp(s, "-") == 0) {
        *on = false;
        p[0] = p[1] = p[2] = 0.0f;
        return true;
    }
    char buf[LINE_MAX_BYTES];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[3];
    int n = 0;
    char *q = buf;
    for (;;) {
        if (n == 3) return false;
        parts[n++] = q;
        char *comma = strchr(q, ',');
        if (!comma) break;
        *comma = '\0';
        q = comma + 1;
    }
    if (n != 3) return false;
    for (int k = 0; k < 3; k++)
        if (!number(parts[k], &p[k])) return false;
    *on = true;
    return true;
}

static bool buttons(const char *s, PlayerControls *c)
{
    if (strcmp(s, "-") == 0) return true;
    if (!*s) return false;
    for (; *s; s++) {
        bool *b = *s == 'j'   ? &c->jump
                  : *s == 'c' ? &c->crouch
                  : *s == 'u' ? &c->use
                  : *s == 'd' ? &c->ladder_down
                              : NULL;
        if (!b || *b) return false; /* unknown, or twice */
        *b = true;
    }
    return true;
}

/* Split at single spaces; false (with the error) on an empty field. */
static bool split(Reader *rd, const char *field, char *s, char **f, int *n)
{
    *n = 0;
    for (;;) {
        if (*n == MAX_FIELDS) return fail(rd, field, "too many fields on one line");
        f[(*n)++] = s;
        char *sp = strchr(s, ' ');
        if (!sp) break;
        *sp = '\0';
        s = sp + 1;
    }
    for (int i = 0; i < *n; i++)
        if (!*f[i]) return fail(rd, field, "an empty field (two spaces in a row, or a space at the end of the line)");
    return true;
}

static const char *const HEADER[] = { "navbot-player", "map", "seed", "hz", "class", "spawn", "ticks" };
static const char *const HEADER_FORM[] = {
    "navbot-player 1", "map PATH", "seed N", "hz N", "class NAME", "spawn X Y Z YAW", "ticks N",
};
enum { H_FORMAT, H_MAP, H_SEED, H_HZ, H_CLASS, H_SPAWN, H_TICKS, H_COUNT };

static bool header_line(Reader *rd, int at, char *line)
{
    PlayerRecord *r = rd->r;
    PlayerRecordInfo *in = &r->info;
    const char *key = HEADER[at];
    size_t kl = strlen(key);
    if (strncmp(line, key, kl) != 0 || (line[kl] != ' ' && line[kl] != '\0')) {
        char got[48];
        snprintf(got, sizeof got, "%.*s", (int)strcspn(line, " "), line);
        if (at == H_FORMAT)
            return fail(rd, "format", "not a player recording: the first line must be '%s', got '%.40s'",
                        HEADER_FORM[at], line);
        return fail(rd, key, "expected '%s' on this line, got '%s'", HEADER_FORM[at], got);
    }
    const char *val = line[kl] ? line + kl + 1 : "";
    uint64_t u;
    switch (at) {
    case H_FORMAT:
        if (!whole(val, UINT32_MAX, &u)) return fail(rd, "version", "expected a version number, got '%s'", val);
        if (u != PLAYER_RECORD_VERSION)
            return fail(rd, "version", "version %" PRIu64 " is not one this navbot reads (it reads version %d)", u,
                        PLAYER_RECORD_VERSION);
        break;
    case H_MAP:
        if (!*val) return fail(rd, "map", "the map's path is missing");
        if (strlen(val) >= sizeof in->map)
            return fail(rd, "map", "the map's path is longer than %zu bytes", sizeof in->map - 1);
        snprintf(in->map, sizeof in->map, "%s", val);
        r->line_map = rd->line;
        break;
    case H_SEED:
        if (!whole(val, UINT64_MAX, &u)) return fail(rd, "seed", "expected a whole number from 0, got '%s'", val);
        in->seed = u;
        r->line_seed = rd->line;
        break;
    case H_HZ:
        if (!whole(val, 1000, &u) || u < 1)
            return fail(rd, "hz", "expected ticks per second from 1 to 1000, got '%s'", val);
        in->hz = (uint32_t)u;
        r->line_hz = rd->line;
        break;
    case H_CLASS:
        if (!*val || strchr(val, ' ')) return fail(rd, "class", "expected one class name, got '%s'", val);
        if (strlen(val) >= sizeof in->cls)
            return fail(rd, "class", "the class name is longer than %zu bytes", sizeof in->cls - 1);
        snprintf(in->cls, sizeof in->cls, "%s", val);
        r->line_class = rd->line;
        break;
    case H_SPAWN: {
        char buf[LINE_MAX_BYTES], *f[MAX_FIELDS];
        int n;
        snprintf(buf, sizeof buf, "%s", val);
        if (!*val) return fail(rd, "spawn", "expected X Y Z YAW, got nothing");
        if (!split(rd, "spawn", buf, f, &n)) return false;
        float v[4];
        if (n != 4) return fail(rd, "spawn", "expected 4 numbers X Y Z YAW, got %d fields", n);
        for (int k = 0; k < 4; k++)
            if (!number(f[k], &v[k])) return fail(rd, "spawn", "'%s' is not a finite number", f[k]);
        memcpy(in->spawn, v, sizeof in->spawn);
        in->yaw = v[3];
        r->line_spawn = rd->line;
        break;
    }
    case H_TICKS:
        if (!whole(val, UINT64_MAX, &u))
            return fail(rd, "ticks", "expected the number of ticks, a whole number, got '%s'", val);
        if (u > NAV_LIMIT_TICKS)
            return fail(rd, "ticks", "%" PRIu64 " ticks is over the limit of %u ticks", u, (unsigned)NAV_LIMIT_TICKS);
        r->ticks = u; /* the runs must add up to it */
        break;
    default: break;
    }
    return true;
}

static bool run_line(Reader *rd, char *line, uint64_t want, uint64_t *have)
{
    PlayerRecord *r = rd->r;
    char *f[MAX_FIELDS];
    int n;
    if (!split(rd, NULL, line, f, &n)) return false;
    static const char *const FIELDS[] = { "count", "move_x", "move_y", "buttons", "look", "climb" };
    if (n != 6)
        return fail(rd, n < 6 ? FIELDS[n] : NULL,
                    "a run is COUNT MOVE_X MOVE_Y BUTTONS LOOK CLIMB (6 fields), this line has %d", n);
    uint64_t count;
    if (!whole(f[0], UINT32_MAX, &count) || count == 0)
        return fail(rd, "count", "expected the ticks of the run, from 1 to %u, got '%s'", (unsigned)UINT32_MAX, f[0]);
    PlayerControls c;
    memset(&c, 0, sizeof c);
    if (!number(f[1], &c.move[0])) return fail(rd, "move_x", "'%s' is not a finite number", f[1]);
    if (!number(f[2], &c.move[1])) return fail(rd, "move_y", "'%s' is not a finite number", f[2]);
    if (!buttons(f[3], &c))
        return fail(rd, "buttons",
                    "expected '-' or the letters j (jump), c (crouch), u (use), d (ladder down), each once, "
                    "got '%s'",
                    f[3]);
    if (!point(f[4], &c.look, c.look_at)) return fail(rd, "look", "expected '-' or X,Y,Z, got '%s'", f[4]);
    if (!point(f[5], &c.climb, c.climb_to)) return fail(rd, "climb", "expected '-' or X,Y,Z, got '%s'", f[5]);
    if (count > want - *have)
        return fail(rd, "count", "the runs hold more ticks than the %" PRIu64 " the 'ticks' line says", want);
    if (!grow_runs(r, r->run_count + 1)) {
        nav_error_set(rd->err, NAV_E_NOMEM, rd->path, rd->line, 0, NULL, "out of memory reading the player recording");
        return false;
    }
    r->runs[r->run_count].count = (uint32_t)count;
    r->runs[r->run_count].c = c;
    r->run_count++;
    *have += count;
    return true;
}

PlayerRecord *player_record_parse(const char *text, size_t len, const char *path, NavError *err)
{
    if (!path) path = "player recording";
    PlayerRecord *r = player_record_new(NULL, err);
    if (!r) return NULL;
    snprintf(r->path, sizeof r->path, "%s", path);
    Reader rd = { .path = path, .err = err, .r = r };
    NavLines lines = { .p = text, .end = text + len, .name = path };
    int at = 0;
    bool ended = false, ok = true;
    uint64_t want = 0, have = 0;
    const char *s;
    size_t n;
    while (ok && fileio_next_line(&lines, &s, &n)) {
        rd.line = lines.line;
        if (n == 0 || s[0] == '#') continue;
        if (memchr(s, '\0', n)) {
            ok = fail(&rd, NULL, "a NUL byte: this is not a text file");
            break;
        }
        if (n >= LINE_MAX_BYTES) {
            ok = fail(&rd, at < H_COUNT ? HEADER[at] : NULL, "the line is longer than %d bytes", LINE_MAX_BYTES - 1);
            break;
        }
        char line[LINE_MAX_BYTES];
        memcpy(line, s, n);
        line[n] = '\0';
        if (ended) {
            ok = fail(&rd, "end", "text after the 'end' line");
        } else if (at < H_COUNT) {
            ok = header_line(&rd, at, line);
            if (ok && at == H_TICKS) want = r->ticks;
            at++;
        } else if (strcmp(line, "end") == 0) {
            if (have != want)
                ok = fail(&rd, "end", "the runs hold %" PRIu64 " ticks, the 'ticks' line says %" PRIu64, have, want);
            ended = true;
        } else {
            ok = run_line(&rd, line, want, &have);
        }
    }
    if (ok && !ended) {
        rd.line = lines.line;
        if (at < H_COUNT)
            ok = fail(&rd, at == 0 ? "format" : HEADER[at], "the file ends before its '%s' line (cut short?)",
                      HEADER_FORM[at]);
        else
            ok = fail(&rd, "end",
                      "the file ends without its 'end' line (cut short?): the runs hold %" PRIu64 " of %" PRIu64
                      " ticks",
                      have, want);
    }
    if (!ok) {
        player_record_destroy(r);
        return NULL;
    }
    return r;
}

PlayerRecord *player_record_load(const char *path, NavError *err)
{
    char *text;
    size_t n;
    if (NAV_FAILED(fileio_read(path, PLAYER_RECORD_MAX_BYTES, &text, &n, err))) return NULL;
    PlayerRecord *r = player_record_parse(text, n, path, err);
    nav_free(text);
    return r;
}

/* }======= */

NavStatus player_record_check(const PlayerRecord *r, const char *map, uint64_t seed, uint32_t hz, NavError *err)
{
    const char *file = r->path[0] ? r->path : NULL;
    if (map && strcmp(fileio_basename(r->info.map), fileio_basename(map)) != 0)
        return nav_error_set(err, NAV_E_FORMAT, file, r->line_map, 0, "map",
                             "the recording is of the map %s, this run's map is %s", r->info.map, map);
    if (seed != r->info.seed)
        return nav_error_set(err, NAV_E_FORMAT, file, r->line_seed, 0, "seed",
                             "the recording was made with seed %" PRIu64 ", this run's seed is %" PRIu64, r->info.seed,
                             seed);
    if (hz != r->info.hz)
        return nav_error_set(err, NAV_E_FORMAT, file, r->line_hz, 0, "hz",
                             "the recording was made at %u ticks a second, this run has %u", r->info.hz, hz);
    return NAV_OK;
}

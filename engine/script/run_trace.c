/*
** run_trace.c — writing and reading run records (run_trace.h).
*/
#include "script/run_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "sim/sim_debug.h"

/* {======= writing ======= */

/* What was last written per bot and entity, so only changes go out. */
typedef struct WrittenBot {
    char say[SIM_SAY_MAX];
    float goal[4]; /* r < 0: none */
    bool faulted;
} WrittenBot;

typedef struct WrittenEntity {
    float offset, pos[3];
    int phase;
} WrittenEntity;

struct RunTraceWriter {
    NavFileWriter out; /* a safe write: the trace appears whole at close, or not at all */
    FILE *f;           /* out.f */
    char path[512];
    bool failed;
    int err_no;
    WrittenBot *bots;
    uint32_t bot_count, bot_cap;
    WrittenEntity *ents;
    int ent_count;
    uint32_t *obstacles; /* ids written as present */
    uint32_t obstacle_count, obstacle_cap;
    bool first_tick;
};

static void note_error(RunTraceWriter *t)
{
    if (!t->failed && ferror(t->f)) {
        t->failed = true;
        t->err_no = errno ? errno : EIO;
    }
}

static bool has_state(NavEntityType type)
{
    return type == NAV_ENTITY_ELEVATOR || type == NAV_ENTITY_DOOR || type == NAV_ENTITY_CRATE;
}

/* Announce bots added since the last call. */
static bool write_new_bots(RunTraceWriter *t, const NavSession *s)
{
    NavSim *sim = session_sim((NavSession *)s);
    uint32_t n = sim_bot_count(sim);
    if (n <= t->bot_count) return true;
    if (n > t->bot_cap) {
        uint32_t cap = t->bot_cap ? t->bot_cap : 16;
        while (cap < n) cap *= 2;
        WrittenBot *nb = nav_realloc(t->bots, cap * sizeof *nb);
        if (!nb) return false;
        t->bots = nb;
        t->bot_cap = cap;
    }
    for (uint32_t i = t->bot_count; i < n; i++) {
        const char *brain = session_bot_brain(s, i);
        fprintf(t->f, "bot %u %s %s\n", i, *brain ? brain : "-",
                world_class(sim_world(sim), sim_bot(sim, i)->cls)->name);
        memset(&t->bots[i], 0, sizeof t->bots[i]);
        t->bots[i].goal[3] = -1.0f;
    }
    t->bot_count = n;
    return true;
}

RunTraceWriter *run_trace_create(const char *path, const NavSession *s, const char *map, const char *root,
                                 uint64_t seed, NavError *err)
{
    RunTraceWriter *t = nav_calloc(1, sizeof *t);
    if (!t) {
        nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for the run trace");
        return NULL;
    }
    snprintf(t->path, sizeof t->path, "%s", path);
    if (NAV_FAILED(fileio_begin(&t->out, path, 0, err))) {
        nav_free(t);
        return NULL;
    }
    t->f = t->out.f;
    NavSim *sim = session_sim((NavSession *)s);
    const NavWorld *w = sim_world(sim);
    t->ent_count = world_entity_count(w);
    t->ents = nav_calloc((size_t)t->ent_count + 1, sizeof *t->ents);
    if (!t->ents) {
        fileio_abort(&t->out);
        nav_free(t);
        nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for the run trace");
        return NULL;
    }
    t->first_tick = true;
    fprintf(t->f, "navbot-trace %d\nmap %s\nseed %" PRIu64 "\nhz %d\nroot %s\n", RUN_TRACE_VERSION, map, seed,
            (int)lroundf(1.0f / sim_dt(sim)), root && *root ? root : ".");
    if (!write_new_bots(t, s)) t->failed = true, t->err_no = ENOMEM;
    note_error(t);
    return t;
}

static bool obstacle_written(const RunTraceWriter *t, uint32_t id)
{
    for (uint32_t i = 0; i < t->obstacle_count; i++)
        if (t->obstacles[i] == id) return true;
    return false;
}

static void write_obstacles(RunTraceWriter *t, const NavSim *sim)
{
    uint32_t n = sim_obstacle_count(sim);
    /* Gone: written but no longer present. */
    for (uint32_t i = 0; i < t->obstacle_count;) {
        bool present = false;
        for (uint32_t k = 0; k < n && !present; k++) {
            uint32_t id;
            float mn[3], mx[3];
            present = sim_obstacle_at(sim, k, &id, mn, mx) && id == t->obstacles[i];
        }
        if (present) {
            i++;
            continue;
        }
        fprintf(t->f, "obstacle - %u\n", t->obstacles[i]);
        t->obstacles[i] = t->obstacles[--t->obstacle_count];
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t id;
        float mn[3], mx[3];
        if (!sim_obstacle_at(sim, k, &id, mn, mx) || obstacle_written(t, id)) continue;
        if (t->obstacle_count == t->obstacle_cap) {
            uint32_t cap = t->obstacle_cap ? 2 * t->obstacle_cap : 16;
            uint32_t *no = nav_realloc(t->obstacles, cap * sizeof *no);
            if (!no) {
                t->failed = true, t->err_no = ENOMEM;
                return;
            }
            t->obstacles = no;
            t->obstacle_cap = cap;
        }
        t->obstacles[t->obstacle_count++] = id;
        fprintf(t->f, "obstacle + %u %.3f %.3f %.3f %.3f %.3f %.3f\n", id, (double)mn[0], (double)mn[1], (double)mn[2],
                (double)mx[0], (double)mx[1], (double)mx[2]);
    }
}

static void write_entities(RunTraceWriter *t, const NavSim *sim)
{
    const NavWorld *w = sim_world(sim);
    for (int i = 0; i < t->ent_count; i++) {
        if (!has_state(world_entity(w, i)->type)) continue;
        const NavEntityState *es = sim_entity(sim, i);
        WrittenEntity *we = &t->ents[i];
        /* Rounded as written, so a replay compares what it will read. */
        float off = roundf(es->offset * 1000.0f) / 1000.0f;
        float p[3];
        for (int k = 0; k < 3; k++) p[k] = roundf(es->pos[k] * 1000.0f) / 1000.0f;
        if (!t->first_tick && off == we->offset && es->phase == we->phase && memcmp(p, we->pos, sizeof p) == 0)
            continue;
        we->offset = off;
        we->phase = es->phase;
        memcpy(we->pos, p, sizeof p);
        fprintf(t->f, "e %d %.3f %d %.3f %.3f %.3f\n", i, (double)off, es->phase, (double)p[0], (double)p[1],
                (double)p[2]);
    }
}

/* The first line of a fault message, on one line. */
static void write_fault(FILE *f, uint32_t id, const char *e)
{
    size_t n = strcspn(e, "\n");
    fprintf(f, "fault %u %.*s\n", id, (int)n, e);
}

bool run_trace_tick(RunTraceWriter *t, NavSession *s)
{
    if (!t || t->failed) return false;
    NavSim *sim = session_sim(s);
    if (!write_new_bots(t, s)) {
        t->failed = true, t->err_no = ENOMEM;
        return false;
    }
    fprintf(t->f, "tick %" PRIu64 " %016" PRIx64 "\n", sim_tick(sim), sim_trace_hash(sim));
    for (uint32_t i = 0; i < t->bot_count; i++) {
        const NavBot *b = sim_bot(sim, i);
        bool faulted = session_bot_faulted(s, i);
        char flags[8];
        int n = 0;
        if (b->on_ground) flags[n++] = 'g';
        if (b->in_water) flags[n++] = 'w';
        if (b->on_ladder) flags[n++] = 'l';
        if (b->crouched) flags[n++] = 'c';
        if (b->climbing) flags[n++] = 'k';
        if (b->riding >= 0) flags[n++] = 'r';
        if (faulted) flags[n++] = 'F';
        if (!n) flags[n++] = '-';
        flags[n] = '\0';
        fprintf(t->f, "b %u %.4f %.4f %.4f %.1f %.3f %.3f %.3f %s\n", i, (double)b->pos[0], (double)b->pos[1],
                (double)b->pos[2], (double)b->yaw, (double)b->vel[0], (double)b->vel[1], (double)b->vel[2], flags);
        WrittenBot *wb = &t->bots[i];
        if (t->first_tick ? b->say[0] != '\0' : strcmp(wb->say, b->say) != 0) {
            memcpy(wb->say, b->say, SIM_SAY_MAX);
            fprintf(t->f, "say %u %s\n", i, b->say);
        }
        float g[4] = { 0, 0, 0, -1.0f };
        if (b->goal_count > 0) memcpy(g, b->goals[0], sizeof g);
        if (memcmp(g, wb->goal, sizeof g) != 0) {
            memcpy(wb->goal, g, sizeof g);
            if (g[3] < 0) fprintf(t->f, "goal %u -\n", i);
            else
                fprintf(t->f, "goal %u %.3f %.3f %.3f %.3f\n", i, (double)g[0], (double)g[1], (double)g[2],
                        (double)g[3]);
        }
        if (faulted && !wb->faulted) {
            wb->faulted = true;
            const char *e = session_bot_error(s, i);
            write_fault(t->f, i, e ? e : "faulted");
        }
    }
    write_entities(t, sim);
    write_obstacles(t, sim);
    t->first_tick = false;
    note_error(t);
    return !t->failed;
}

NavStatus run_trace_close(RunTraceWriter *t, NavError *err)
{
    if (!t) return NAV_OK;
    note_error(t);
    NavStatus st = NAV_OK;
    if (t->failed) {
        fileio_abort(&t->out);
        /* The writer's own tables that could not grow: say so in the
        ** words every out-of-memory message uses, not strerror's. */
        st = t->err_no == ENOMEM
                 ? nav_error_set(err, NAV_E_NOMEM, t->path, 0, 0, NULL, "out of memory while writing the trace")
                 : nav_error_set(err, NAV_E_IO, t->path, 0, 0, NULL, "cannot write: %s", strerror(t->err_no));
    } else {
        st = fileio_commit(&t->out, err);
    }
    nav_free(t->bots);
    nav_free(t->ents);
    nav_free(t->obstacles);
    nav_free(t);
    return st;
}

/* }======= */

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
    nav_error_set(r->err, NAV_E_FORMAT, r->path, r->line, 0, field, "%s", msg);
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
        if (!e->text) return fail(r, NULL, "out of memory reading the run trace");
    } else if (IS("goal")) {
        uint32_t id;
        float g[4] = { 0, 0, 0, -1.0f };
        if (!take_u32(&rest, &id) || !(strcmp(rest, "-") == 0 || (take_floats(&rest, g, 4) && !*rest)))
            return fail(r, "goal", "expected: goal ID X Y Z R, or goal ID -");
        if (!known_bot(r, id, "goal")) return false;
        RunTraceEvent *e = add_event(r, RUN_TRACE_GOAL, id);
        if (!e) return false;
        memcpy(e->v, g, sizeof g);
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
        return fail(r, NULL, "unknown record (expected bot, tick, b, say, goal, fault, e or obstacle)");
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
            if (sscanf(s, "navbot-trace %d%n", &v, &used) != 1 || s[used] || v < 1 || v > RUN_TRACE_VERSION)
                ok = fail(&r, NULL, "not a navbot run trace (the first line should be 'navbot-trace 2')");
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
    if (!ok) {
        run_trace_destroy(t);
        return NULL;
    }
    return t;
}

void run_trace_destroy(RunTrace *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->event_count; i++) nav_free(t->events[i].text);
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

/* {======= replaying ======= */

NavSim *run_trace_sim(const RunTrace *t, const NavWorld *w, NavError *err)
{
    NavSim *sim = sim_create(w, &(NavSimDesc){ .tick_hz = t->hz, .seed = t->seed }, err);
    if (!sim) return NULL;
    for (uint32_t id = 0; id < t->bot_count; id++) {
        int cls = world_find_class(w, t->bot_info[id].cls);
        if (cls < 0) {
            nav_error_set(err, NAV_E_FORMAT, t->map, 0, 0, "bot", "bot %u's class '%s' is not in the map", id,
                          t->bot_info[id].cls);
            sim_destroy(sim);
            return NULL;
        }
        /* Where it first appears; a body starting in the air is placed on
        ** the floor below and posed in the air at once. */
        NavBotDesc d = { .cls = cls };
        bool found = false;
        for (uint32_t f = 0; f < t->frame_count && !found; f++) {
            const RunTraceFrame *fr = &t->frames[f];
            for (uint32_t k = 0; k < fr->count && !found; k++)
                if (t->bots[fr->first + k].id == id) {
                    memcpy(d.pos, t->bots[fr->first + k].pos, sizeof d.pos);
                    found = true;
                }
        }
        /* The floor under where it was recorded (up to half a metre above
        ** it, for a body recorded a hair below its floor); failing that
        ** the highest floor there. (world_floor_at's tolerance reaches up:
        ** a large one from the recorded height would take the roof over a
        ** body recorded under it.) Frames pose it where it was at once, so
        ** only a spot it fits at matters here. */
        const float recorded_z = d.pos[2];
        const float at[2] = { recorded_z, recorded_z + 1000.0f }, up[2] = { 0.5f, 2000.0f };
        int added = -1;
        for (int k = 0; k < 2 && added < 0; k++) {
            const NavFloor *fl = world_floor_at(w, d.pos[0], d.pos[1], at[k], up[k]);
            d.pos[2] = fl ? fl->z : recorded_z;
            added = sim_add_bot(sim, &d, err);
        }
        if (added < 0) {
            sim_destroy(sim);
            return NULL;
        }
    }
    return sim;
}

void run_trace_pose(const RunTrace *t, uint32_t frame, NavSim *sim)
{
    if (frame >= t->frame_count) frame = t->frame_count - 1;
    const RunTraceFrame *fr = &t->frames[frame];
    sim_pose_clock(sim, fr->tick, fr->hash);
    /* Text, goals and entities: the last change at or before the frame. */
    uint32_t nb = sim_bot_count(sim);
    for (uint32_t k = 0; k < fr->count; k++) {
        const RunTraceBot *rb = &t->bots[fr->first + k];
        if (rb->id >= nb) continue;
        NavBot b = *sim_bot(sim, rb->id);
        memcpy(b.pos, rb->pos, sizeof b.pos);
        memcpy(b.vel, rb->vel, sizeof b.vel);
        b.yaw = rb->yaw;
        b.on_ground = rb->flags & RUN_TRACE_GROUND;
        b.in_water = rb->flags & RUN_TRACE_WATER;
        b.on_ladder = rb->flags & RUN_TRACE_LADDER;
        b.crouched = rb->flags & RUN_TRACE_CROUCHED;
        b.climbing = rb->flags & RUN_TRACE_CLIMBING;
        b.riding = rb->flags & RUN_TRACE_RIDING ? 0 : -1;
        b.say[0] = '\0';
        b.goal_count = 0;
        sim_pose_bot(sim, rb->id, &b);
    }
    uint32_t want[256], nwant = 0;
    float boxes[256][6];
    for (uint32_t i = 0; i < t->event_count && t->events[i].frame <= frame; i++) {
        const RunTraceEvent *ev = &t->events[i];
        switch (ev->kind) {
        case RUN_TRACE_SAY:
            if (ev->id < nb) {
                NavBot b = *sim_bot(sim, ev->id);
                snprintf(b.say, sizeof b.say, "%s", ev->text ? ev->text : "");
                sim_pose_bot(sim, ev->id, &b);
            }
            break;
        case RUN_TRACE_GOAL:
            if (ev->id < nb) {
                NavBot b = *sim_bot(sim, ev->id);
                b.goal_count = ev->v[3] >= 0.0f;
                memcpy(b.goals[0], ev->v, 4 * sizeof ev->v[0]);
                sim_pose_bot(sim, ev->id, &b);
            }
            break;
        case RUN_TRACE_ENTITY: {
            float p[3] = { ev->v[2], ev->v[3], ev->v[4] };
            sim_pose_entity(sim, (int)ev->id, ev->v[0], (int)ev->v[1], p);
            break;
        }
        case RUN_TRACE_OBSTACLE_ADD:
            if (nwant < 256) {
                want[nwant] = ev->id;
                memcpy(boxes[nwant++], ev->v, sizeof boxes[0]);
            }
            break;
        case RUN_TRACE_OBSTACLE_REMOVE:
            for (uint32_t k = 0; k < nwant; k++)
                if (want[k] == ev->id) {
                    want[k] = want[--nwant];
                    memcpy(boxes[k], boxes[nwant], sizeof boxes[0]);
                    break;
                }
            break;
        default: break;
        }
    }
    /* Obstacles only when the set changed: each one costs the routers a
    ** cache flush. */
    bool same = sim_obstacle_count(sim) == nwant;
    for (uint32_t k = 0; k < nwant && same; k++) {
        bool found = false;
        for (uint32_t i = 0; i < nwant && !found; i++) {
            uint32_t id;
            float mn[3], mx[3];
            found = sim_obstacle_at(sim, i, &id, mn, mx) && id == want[k];
        }
        same = found;
    }
    if (!same) {
        sim_pose_clear_obstacles(sim);
        for (uint32_t k = 0; k < nwant; k++) sim_pose_obstacle(sim, want[k], boxes[k], boxes[k] + 3);
    }
}

/* }======= */

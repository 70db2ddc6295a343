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
    float goals[SIM_MAX_GOALS][4];
    int goal_count; /* -1 before the first write */
    bool faulted;
    bool has_route; /* a route record was written (the bot shows one) */
    int route_cls, detour_count, link_count, path_count;
    uint32_t links[SIM_SHOW_ROUTE];
    float path[SIM_SHOW_ROUTE][3];
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
    SimMark *marks; /* the drawings written, alive when last written */
    uint32_t mark_count, mark_cap;
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
        t->bots[i].goal_count = -1;
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

/* A word of display text as one field: no spaces or line breaks inside,
** "-" for none (the reader turns "-" back into nothing). */
static void put_word(FILE *f, const char *w)
{
    if (!*w) {
        fputs(" -", f);
        return;
    }
    fputc(' ', f);
    for (; *w; w++) fputc(*w == ' ' || *w == '\n' || *w == '\r' || *w == '\t' ? '_' : *w, f);
}

static void write_goals(RunTraceWriter *t, WrittenBot *wb, uint32_t id, const NavBot *b)
{
    int n = NAV_MIN(NAV_MAX(b->goal_count, 0), SIM_MAX_GOALS);
    if (n == wb->goal_count && memcmp(wb->goals, b->goals, (size_t)n * sizeof b->goals[0]) == 0) return;
    wb->goal_count = n;
    memcpy(wb->goals, b->goals, (size_t)n * sizeof b->goals[0]);
    fprintf(t->f, "goals %u %d", id, n);
    for (int g = 0; g < n; g++)
        fprintf(t->f, " %.3f %.3f %.3f %.3f", (double)b->goals[g][0], (double)b->goals[g][1], (double)b->goals[g][2],
                (double)b->goals[g][3]);
    fputc('\n', t->f);
}

/* The route the bot shows, when it changed: the links or path the live
** window draws (sim_show_peek), kept until the brain shows another. */
static void write_route(RunTraceWriter *t, WrittenBot *wb, uint32_t id, const NavSim *sim)
{
    const SimBotShow *sh = sim_show_peek(sim, id);
    if (!sh) return;
    int nl = NAV_MIN(NAV_MAX(sh->link_count, 0), SIM_SHOW_ROUTE);
    int np = NAV_MIN(NAV_MAX(sh->path_count, 0), SIM_SHOW_ROUTE);
    int detour = NAV_MIN(NAV_MAX(sh->detour_count, 0), np);
    if (wb->has_route && wb->route_cls == sh->cls && wb->link_count == nl && wb->path_count == np &&
        wb->detour_count == detour && memcmp(wb->links, sh->links, (size_t)nl * sizeof sh->links[0]) == 0 &&
        memcmp(wb->path, sh->path, (size_t)np * sizeof sh->path[0]) == 0)
        return;
    wb->has_route = true;
    wb->route_cls = sh->cls;
    wb->link_count = nl;
    wb->path_count = np;
    wb->detour_count = detour;
    memcpy(wb->links, sh->links, (size_t)nl * sizeof sh->links[0]);
    memcpy(wb->path, sh->path, (size_t)np * sizeof sh->path[0]);
    fprintf(t->f, "route %u %d %d %d %d", id, sh->cls, detour, nl, np);
    for (int k = 0; k < nl; k++) fprintf(t->f, " %u", sh->links[k]);
    for (int k = 0; k < np; k++)
        fprintf(t->f, " %.3f %.3f %.3f", (double)sh->path[k][0], (double)sh->path[k][1], (double)sh->path[k][2]);
    fputc('\n', t->f);
}

/* This tick's intent: written every tick it has something to draw (the
** requests and hull traces made while the brain thought before this
** step, or a facing of its own), never carried to the next. */
static void write_intent(RunTraceWriter *t, uint32_t id, const NavBot *b, const NavSim *sim)
{
    const SimBotShow *sh = sim_show_peek(sim, id);
    bool fresh = sh && sh->tick + 1 == sim_tick(sim);
    int nq = fresh ? NAV_MIN(NAV_MAX(sh->req_count, 0), SIM_SHOW_REQUESTS) : 0;
    int nt = fresh ? NAV_MIN(NAV_MAX(sh->trace_count, 0), SIM_SHOW_TRACES) : 0;
    if (!nq && !nt && !b->control.look) return;
    fprintf(t->f, "intent %u %.1f %d %d", id, (double)b->facing, b->control.look ? 1 : 0, b->control.priority);
    put_word(t->f, b->control.reason);
    fprintf(t->f, " %d %d", nq, nt);
    for (int k = 0; k < nq; k++) {
        fprintf(t->f, " %.3f %.3f %d", (double)sh->req[k].dir[0], (double)sh->req[k].dir[1], sh->req[k].priority);
        put_word(t->f, sh->req[k].reason);
    }
    for (int k = 0; k < nt; k++) {
        const SimShowTrace *tr = &sh->traces[k];
        fprintf(t->f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %d", (double)tr->start[0], (double)tr->start[1],
                (double)tr->start[2], (double)tr->end[0], (double)tr->end[1], (double)tr->end[2], (double)tr->half[0],
                (double)tr->half[1], tr->hit ? 1 : 0);
    }
    fputc('\n', t->f);
}

static bool alive(const SimMark *m, double now) { return m->until + 1e-9 >= now; }

static bool same_mark(const SimMark *a, const SimMark *b)
{
    return a->kind == b->kind && memcmp(a->a, b->a, sizeof a->a) == 0 && memcmp(a->b, b->b, sizeof a->b) == 0 &&
           a->radius == b->radius && memcmp(a->rgba, b->rgba, sizeof a->rgba) == 0 && a->until == b->until &&
           strcmp(a->text, b->text) == 0;
}

static void write_mark(FILE *f, const SimMark *m)
{
    /* UNTIL exactly: a drawing for one tick ends on a tick's time. */
    fprintf(f, "mark %c %.17g %u %u %u %u %.4f %.4f %.4f", "lct"[m->kind], m -> until, m -> rgba[0], m -> rgba[1],
            m -> rgba[2], m -> rgba[3], (double)m -> a[0], (double)m -> a[1], (double)m -> a[2]);
    if (m->kind == SIM_MARK_LINE) fprintf(f, " %.4f %.4f %.4f", (double)m->b[0], (double)m->b[1], (double)m->b[2]);
    else if (m->kind == SIM_MARK_CIRCLE) fprintf(f, " %.4f", (double)m->radius);
    else {
        fputc(' ', f);
        for (const char *c = m->text; *c; c++) fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    }
    fputc('\n', f);
}

/* The debug drawings alive now. Drawings are kept in the order they were
** made and only ever dropped when past their time, so usually those
** written before, less the expired, are the start of the list and only
** the new ones go out; otherwise "marks -" and the whole list. */
static void write_marks(RunTraceWriter *t, const NavSim *sim)
{
    double now = sim_time(sim);
    uint32_t n = sim_mark_count(sim), live = 0;
    for (uint32_t i = 0; i < n; i++) live += alive(sim_mark_at(sim, i), now);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->mark_count; i++)
        if (alive(&t->marks[i], now)) t->marks[kept++] = t->marks[i];
    t->mark_count = kept;
    /* Is what was written (still alive) the start of what is alive now? */
    bool prefix = kept <= live;
    for (uint32_t i = 0, k = 0; i < n && k < kept && prefix; i++) {
        const SimMark *m = sim_mark_at(sim, i);
        if (alive(m, now)) prefix = same_mark(m, &t->marks[k++]);
    }
    if (prefix && kept == live) return;
    if (live > t->mark_cap) {
        SimMark *nm = nav_realloc(t->marks, live * sizeof *nm);
        if (!nm) {
            t->failed = true, t->err_no = ENOMEM;
            return;
        }
        t->marks = nm;
        t->mark_cap = live;
    }
    if (!prefix) {
        fputs("marks -\n", t->f);
        kept = 0;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const SimMark *m = sim_mark_at(sim, i);
        if (!alive(m, now)) continue;
        if (k >= kept) {
            write_mark(t->f, m);
            t->marks[k] = *m;
        }
        k++;
    }
    t->mark_count = live;
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
        write_goals(t, wb, i, b);
        write_route(t, wb, i, sim);
        write_intent(t, i, b, sim);
        if (faulted && !wb->faulted) {
            wb->faulted = true;
            const char *e = session_bot_error(s, i);
            write_fault(t->f, i, e ? e : "faulted");
        }
    }
    write_entities(t, sim);
    write_obstacles(t, sim);
    write_marks(t, sim);
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
    nav_free(t->marks);
    nav_free(t);
    return st;
}

/* }======= */

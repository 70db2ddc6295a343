/*
** competence.c — missions drawn, run and counted (competence.h).
*/
#define _DEFAULT_SOURCE /* strsignal */
#include "scenario/competence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "scenario/jobs.h"
#include "script/session.h"

static const char *const MODE_NAMES[COMP_MODE_COUNT] = { "solo", "crowd", "shared" };

const char *competence_mode_name(int mode) { return mode >= 0 && mode < COMP_MODE_COUNT ? MODE_NAMES[mode] : "?"; }

/* {======= missions ======= */

uint64_t competence_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* A coordinate as the command line reads it back: through "%.2f". */
static float as_printed(float v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", (double)v);
    return (float)strtod(buf, NULL);
}

static void canonical(float p[3])
{
    for (int k = 0; k < 3; k++) p[k] = as_printed(p[k]);
}

static uint32_t limit_ticks(const CompDesc *d, uint32_t time, int hz)
{
    double s = d->time_factor * time / 100.0 + d->time_margin;
    return (uint32_t)ceil(s * hz);
}

/* The sims of one mode: `sims` of `per` bots each, appended to out. */
static bool draw_mode(const CompDesc *d, const char *label, int mode, MissionPicker *pk, CompSet *out)
{
    uint32_t groups = (d->missions + d->crowd - 1) / d->crowd;
    /* Each map and mode draws from its own stream. */
    uint64_t rng = competence_hash_bytes(competence_hash_bytes(COMP_HASH_START ^ d->seed, label, strlen(label)),
                                         MODE_NAMES[mode], strlen(MODE_NAMES[mode]));
    uint32_t sims = mode == COMP_SOLO ? d->missions : groups;
    uint32_t per = mode == COMP_SOLO ? 1 : d->crowd;
    float taken[3 * COMP_MAX_CROWD];
    for (uint32_t g = 0; g < sims; g++) {
        CompSim *j = &out->sims[out->sim_count];
        *j = (CompSim){ .mode = mode, .first = out->count, .count = 0 };
        float goal[3];
        uint32_t goal_area = NAV_NO_AREA;
        if (mode == COMP_SHARED) {
            if (!mission_pick_point(pk, &rng, NULL, 0, goal, &goal_area)) return false;
            canonical(goal);
        }
        for (uint32_t b = 0; b < per && b < COMP_MAX_CROWD; b++) {
            CompMission *cm = &out->missions[out->count];
            bool ok = mode == COMP_SHARED ? mission_pick_start(pk, &rng, goal, goal_area, taken, (int)b, &cm->m)
                                          : mission_pick(pk, &rng, taken, (int)b, &cm->m);
            if (!ok) return false;
            canonical(cm->m.start);
            canonical(cm->m.goal);
            memcpy(&taken[3 * b], cm->m.start, sizeof cm->m.start);
            cm->mode = mode;
            cm->sim = out->sim_count;
            cm->sim_in_mode = (int)g;
            cm->limit_ticks = limit_ticks(d, cm->m.time, SIM_DEFAULT_TICK_HZ);
            out->count++;
            j->count++;
        }
        out->sim_count++;
    }
    return true;
}

NavStatus competence_missions(const CompDesc *d, const char *label, MissionPicker *pk, CompSet *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    if (d->crowd < 1 || d->crowd > COMP_MAX_CROWD)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "crowd", "a crowd of %u (1 to %d)", (unsigned)d->crowd,
                             COMP_MAX_CROWD);
    uint32_t groups = (d->missions + d->crowd - 1) / d->crowd;
    size_t cap = 0;
    for (int m = 0; m < COMP_MODE_COUNT; m++)
        if (d->modes[m]) cap += m == COMP_SOLO ? d->missions : (size_t)groups * d->crowd;
    out->missions = nav_calloc(cap ? cap : 1, sizeof *out->missions);
    out->sims = nav_calloc(cap ? cap : 1, sizeof *out->sims);
    if (!out->missions || !out->sims) {
        competence_free(out);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for %zu missions", cap);
    }
    for (int mode = 0; mode < COMP_MODE_COUNT; mode++) {
        if (!d->modes[mode] || draw_mode(d, label, mode, pk, out)) continue;
        int n = out->count;
        competence_free(out);
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL,
                             "%s: found only %d missions (no free, connected start and goal %.1f m apart in %d draws)",
                             label, n, d->min_distance, MISSION_MAX_TRIES);
    }
    return NAV_OK;
}

void competence_free(CompSet *s)
{
    nav_free(s->missions);
    nav_free(s->sims);
    memset(s, 0, sizeof *s);
}

uint64_t competence_hash(uint64_t h, const char *label, const CompSet *s)
{
    h = competence_hash_bytes(h, label, strlen(label) + 1);
    for (int i = 0; i < s->count; i++) {
        const CompMission *c = &s->missions[i];
        int32_t mode = c->mode, sim = c->sim;
        h = competence_hash_bytes(h, &mode, sizeof mode);
        h = competence_hash_bytes(h, &sim, sizeof sim);
        h = competence_hash_bytes(h, c->m.start, sizeof c->m.start);
        h = competence_hash_bytes(h, c->m.goal, sizeof c->m.goal);
        h = competence_hash_bytes(h, &c->m.time, sizeof c->m.time);
        h = competence_hash_bytes(h, &c->limit_ticks, sizeof c->limit_ticks);
    }
    return h;
}

uint32_t competence_sim_ticks(const CompSet *s, int j)
{
    uint32_t most = 0;
    const CompSim *sim = &s->sims[j];
    for (int k = sim->first; k < sim->first + sim->count; k++)
        if (s->missions[k].limit_ticks > most) most = s->missions[k].limit_ticks;
    return most;
}

/* }======= */

/* {======= running one sim ======= */

static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void snapshot(NavSession *s, uint32_t id, CompResult *r)
{
    const NavBot *b = sim_bot(session_sim(s), id);
    memcpy(r->pos, b->pos, sizeof r->pos);
    r->stuck_max = b->stuck_max;
    r->stuck_total = (float)b->stuck_total;
    snprintf(r->say, sizeof r->say, "%s", b->say);
    r->faulted = session_bot_faulted(s, id);
    const char *e = session_bot_error(s, id);
    if (e) {
        size_t n = strcspn(e, "\n");
        snprintf(r->error, sizeof r->error, "%.*s", (int)(n < COMP_ERROR_MAX - 1 ? n : COMP_ERROR_MAX - 1), e);
    }
    r->done = 1;
}

static void fault_all(CompResult *res, int count, const char *why, const char *detail)
{
    for (int i = 0; i < count; i++) {
        res[i].faulted = res[i].done = 1;
        snprintf(res[i].error, sizeof res[i].error, "%s: %.120s", why, detail);
    }
}

/* Places every bot with its goal and brain; how many were placed. A bot
** that cannot be placed (cannot happen for a picked mission) faults it
** and the rest, said, never hidden. */
static int place_bots(const CompRunDesc *d, NavSession *s, const CompMission *ms, int count, CompResult *res,
                      uint32_t *most)
{
    NavSim *sim = session_sim(s);
    NavError e;
    for (int i = 0; i < count; i++) {
        float pos[3];
        int id = -1;
        nav_error_clear(&e);
        if (sim_place_free(sim, d->cls, ms[i].m.start, 0, pos))
            id = session_add_bot(s, NULL, &(NavBotDesc){ .cls = d->cls, .pos = { pos[0], pos[1], pos[2] } }, &e);
        if (id != i) {
            fault_all(&res[i], count - i, "could not place the bot", e.message[0] ? e.message : "no free spot");
            for (int k = i; k < count; k++) memcpy(res[k].pos, ms[k].m.start, sizeof res[k].pos);
            return i;
        }
        sim_bot_push_goal(sim, (uint32_t)id, ms[i].m.goal, 0.0f);
        session_attach_brain(s, (uint32_t)id, COMP_BRAIN);
        if (ms[i].limit_ticks > *most) *most = ms[i].limit_ticks;
    }
    return count;
}

/* A bot's result once it arrived, faulted or ran out of time (or at the
** end, whatever it did); false while it is still on its way. */
static bool settle(NavSession *s, const CompMission *m, uint32_t id, uint32_t tick, bool end, CompResult *r)
{
    NavSim *sim = session_sim(s);
    if (sim_bot_arrived(sim, id)) {
        r->arrived = 1;
        r->arrival_time = (float)sim_bot(sim, id)->arrival_time;
    } else if (!end && !session_bot_faulted(s, id) && tick < m->limit_ticks) {
        return false;
    }
    snapshot(s, id, r);
    return true;
}

static void run_sim(const CompRunDesc *d, const CompMission *ms, int count, CompResult *res)
{
    memset(res, 0, sizeof *res * (size_t)count);
    for (int i = 0; i < count; i++) res[i].arrival_time = -1.0f;
    NavError e;
    nav_error_clear(&e);
    NavSession *s = session_create(d->w, &(NavSessionDesc){ .root = d->root, .seed = d->seed, .log = log_none }, &e);
    if (!s) {
        fault_all(res, count, "session", e.message);
        return;
    }
    uint32_t most = 0;
    int placed = place_bots(d, s, ms, count, res, &most);
    for (uint32_t t = 0; t < most; t++) {
        bool busy = false;
        for (int i = 0; i < placed; i++)
            if (!res[i].done && !settle(s, &ms[i], (uint32_t)i, t, false, &res[i])) busy = true;
        if (!busy) break;
        session_step(s);
    }
    for (int i = 0; i < placed; i++)
        if (!res[i].done) settle(s, &ms[i], (uint32_t)i, most, true, &res[i]);
    session_destroy(s);
}

/* }======= */

/* {======= every sim ======= */

typedef struct Run {
    const CompRunDesc *d;
    const CompSet *s;
    CompResult *res;
    int done;
} Run;

static void work(void *user, int task, JobOutput *out)
{
    const Run *r = user;
    const CompSim *j = &r->s->sims[task];
    CompResult *res = nav_malloc(sizeof *res * (size_t)(j->count ? j->count : 1));
    if (!res) {
        out->code = 2;
        return;
    }
    run_sim(r->d, &r->s->missions[j->first], j->count, res);
    *out = (JobOutput){ (char *)res, sizeof *res * (size_t)j->count, 0 };
}

/* A sim whose process died before handing back its results: every bot of
** it is counted as faulted, with the reason. */
static void done(void *user, int task, const JobEnd *end)
{
    Run *r = user;
    const CompSim *j = &r->s->sims[task];
    CompResult *res = &r->res[j->first];
    size_t want = sizeof *res * (size_t)j->count;
    if (end->complete && end->code == 0 && end->len == want) {
        memcpy(res, end->data, want);
    } else {
        char why[120];
        if (end->signal)
            snprintf(why, sizeof why, "the sim's process was killed by signal %d (%s)", end->signal,
                     strsignal(end->signal));
        else snprintf(why, sizeof why, "the sim's process ended with status %d and no results", end->code);
        memset(res, 0, want);
        for (int i = 0; i < j->count; i++) {
            res[i].arrival_time = -1.0f;
            res[i].faulted = res[i].done = 1;
            snprintf(res[i].error, sizeof res[i].error, "%s", why);
        }
    }
    r->done++;
    if (r->d->progress) r->d->progress(r->d->user, r->done, r->s->sim_count);
}

void competence_run(const CompRunDesc *d, const CompSet *s, CompResult *res)
{
    Run r = { d, s, res, 0 };
    jobs_run(&(JobsDesc){ .count = s->sim_count,
                          .at_once = d->jobs,
                          .seconds = COMP_CHILD_SECONDS,
                          .work = work,
                          .done = done,
                          .user = &r });
}

/* }======= */

/* {======= summaries ======= */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int competence_summarise(const CompSet *s, const CompResult *res, int mode, CompSummary *sum, double *ratios)
{
    int k = 0;
    for (int i = 0; i < s->count; i++) {
        const CompMission *m = &s->missions[i];
        if (m->mode != mode) continue;
        sum->missions++;
        sum->faults += res[i].faulted;
        sum->stuck += res[i].stuck_max > COMP_STUCK_SECONDS;
        if (!res[i].arrived) continue;
        sum->arrived++;
        ratios[k++] = res[i].arrival_time / (m->m.time / 100.0);
    }
    return k;
}

void competence_ratio_stats(double *ratios, int n, CompSummary *s)
{
    s->ratio_mean = s->ratio_p95 = NAN;
    if (n <= 0) return;
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += ratios[i];
    qsort(ratios, (size_t)n, sizeof *ratios, cmp_double);
    s->ratio_mean = sum / n;
    int rank = (int)ceil(0.95 * n);
    s->ratio_p95 = ratios[(rank > 0 ? rank : 1) - 1];
}

/* }======= */

/*
** learning.c — learners run and measured, and sliced searches timed and
** checked (learning.h).
*/
#define _DEFAULT_SOURCE /* strsignal */
#include "scenario/learning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "core/alloc.h"
#include "core/timer.h"
#include "route/route.h"
#include "route/route_memory.h"
#include "scenario/jobs.h"
#include "script/session.h"
#include "sim/mission.h"
#include "sim/sim.h"

#define FLAGS NAV_TFL_DEFAULT /* the runner policy's: every travel type and water */
#define ROUTE_CAP 256         /* links of a route kept */
#define PLACE_RINGS 4         /* rings round the spawn tried for the second bot */

static const char *const MODE_NAMES[LEARN_MODE_COUNT] = { "explore", "watch" };

const char *learning_mode_name(int mode) { return mode >= 0 && mode < LEARN_MODE_COUNT ? MODE_NAMES[mode] : "?"; }

const char *learning_violation_name(int why)
{
    switch (why) {
    case SEARCH_BAD_START: return "starts outside the bot's area";
    case SEARCH_UNKNOWN_LINK: return "takes a link the memory does not know";
    case SEARCH_BROKEN_CHAIN: return "a link leaves another area than the last one entered";
    case SEARCH_BAD_END: return "ends outside the goal's area";
    case SEARCH_EMPTY: return "is empty away from the goal";
    default: return "?";
    }
}

static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}

/* The area a point stands in (else the nearest within 2 m, at[] moved
** there), as the sim finds a bot's for its searches. */
static uint32_t point_area(const NavAreaGraph *ag, const float p[3], float at[3])
{
    memcpy(at, p, 3 * sizeof *at);
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    if (a == NAV_NO_AREA) a = area_nearest_area(ag, p[0], p[1], p[2], 2.0f, at);
    return a;
}

/* {======= one learning run ======= */

static bool first_spawn(const NavWorld *w, float p[3], float *yaw)
{
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        if (e->type != NAV_ENTITY_SPAWN) continue;
        entity_origin(e, p);
        *yaw = e->yaw;
        return true;
    }
    return false;
}

static int goal_points(const NavWorld *w, float (*out)[3], int cap)
{
    int n = 0;
    for (int i = 0; i < world_entity_count(w) && n < cap; i++) {
        const NavEntity *e = world_entity(w, i);
        if (e->type == NAV_ENTITY_GOAL) entity_origin(e, out[n++]);
    }
    return n;
}

static void fail(LearnResult *r, const char *fmt, const char *detail)
{
    r->faulted = r->done = 1;
    snprintf(r->error, sizeof r->error, fmt, detail);
}

/* The memory against the router over every ordered pair of distinct areas
** among places[0..n) (the spawn, then the goals; the spawn is never a
** destination). */
static void compare_routes(NavSim *sim, int cls, const NavMemory *m, float (*places)[3], int n, LearnResult *r)
{
    NavError e;
    NavRouter *rt = sim_router(sim, cls, &e);
    if (!rt) return;
    const NavAreaGraph *ag = router_graph(rt);
    uint32_t area[LEARN_MAX_GOALS + 1];
    float at[LEARN_MAX_GOALS + 1][3];
    for (int i = 0; i < n; i++) area[i] = point_area(ag, places[i], at[i]);
    double sum = 0.0;
    uint32_t links[64];
    for (int i = 0; i < n; i++) {
        for (int j = 1; j < n; j++) {
            if (i == j || area[i] == NAV_NO_AREA || area[j] == NAV_NO_AREA || area[i] == area[j]) continue;
            r->pairs++;
            NavRoute q, mq;
            if (NAV_FAILED(router_route(rt, area[i], at[i], area[j], FLAGS, &q)) || q.time == ROUTE_UNREACHABLE)
                continue;
            r->pairs_router++;
            int count = 0;
            if (!m || NAV_FAILED(memory_route(rt, m, area[i], at[i], area[j], FLAGS, links, 64, &count, &mq)) ||
                mq.time == ROUTE_UNREACHABLE)
                continue;
            r->pairs_memory++;
            double ratio = q.time > 0 ? (double)mq.time / q.time : 1.0;
            sum += ratio;
            if (r->pairs_memory == 1 || ratio < r->ratio_min) r->ratio_min = ratio;
            if (r->pairs_memory == 1 || ratio > r->ratio_max) r->ratio_max = ratio;
        }
    }
    if (r->pairs_memory) r->ratio_mean = sum / r->pairs_memory;
}

/* The bots at the spawn: the learner (id 0), then in watch mode the
** runner beside it. False (r faulted) when one cannot be placed. */
static bool place(const LearnDesc *d, NavSession *s, LearnResult *r, float start[3])
{
    float spawn[3], yaw = 0.0f;
    if (!first_spawn(d->w, spawn, &yaw)) {
        fail(r, "%s", "the map has no spawn point");
        return false;
    }
    NavSim *sim = session_sim(s);
    NavError e;
    nav_error_clear(&e);
    int bots = d->mode == LEARN_WATCH ? 2 : 1;
    for (int i = 0; i < bots; i++) {
        float pos[3];
        if (!sim_place_free(sim, d->cls, spawn, i == 0 ? 0 : PLACE_RINGS, pos)) {
            fail(r, "no free spot for a body at the first spawn point%s", i ? " for the runner" : "");
            return false;
        }
        if (i == 0) memcpy(start, pos, sizeof pos);
        NavBotDesc bd = { .cls = d->cls, .pos = { pos[0], pos[1], pos[2] }, .yaw = yaw };
        int id = session_add_bot(s, i == 0 ? LEARN_BRAIN : LEARN_TEACHER, &bd, &e);
        if (id != i) {
            fail(r, "could not add the bot: %.120s", e.message[0] ? e.message : "no room");
            return false;
        }
        if (session_bot_faulted(s, (uint32_t)i)) {
            const char *why = session_bot_error(s, (uint32_t)i);
            fail(r, "%s", why ? why : "its brain did not load");
            return false;
        }
    }
    return true;
}

static void tally_learned(NavSim *sim, LearnResult *r)
{
    uint32_t n;
    const SimLearnedLink *l = sim_learned(sim, &n);
    for (uint32_t i = 0; i < n; i++)
        if (l[i].bot == 0 && l[i].how >= 0 && l[i].how < 3) r->learned[l[i].how]++;
}

void learning_run(const LearnDesc *d, LearnResult *r)
{
    uint64_t t0 = timer_now_ns();
    memset(r, 0, sizeof *r);
    r->all_time = r->runner_time = -1.0f;
    r->ratio_mean = r->ratio_min = r->ratio_max = r->search_ms_mean = NAN;
    float places[LEARN_MAX_GOALS + 1][3];
    r->goals = goal_points(d->w, places + 1, LEARN_MAX_GOALS);
    if (r->goals == 0) {
        fail(r, "%s", "the map has no goal entities");
        return;
    }
    NavError e;
    nav_error_clear(&e);
    NavSession *s = session_create(d->w, &(NavSessionDesc){ .root = d->root, .seed = d->seed, .log = log_none }, &e);
    if (!s) {
        fail(r, "session: %.140s", e.message);
        return;
    }
    NavSim *sim = session_sim(s);
    if (!place(d, s, r, places[0])) {
        session_destroy(s);
        return;
    }
    uint32_t limit = (uint32_t)ceil(d->time_limit * SIM_DEFAULT_TICK_HZ);
    SimLearnStats st;
    for (uint32_t t = 0; t < limit; t++) {
        const NavBot *b = sim_bot(sim, 0);
        if (b->goals_reached >= r->goals || sim_bot_arrived(sim, 0) || session_bot_faulted(s, 0)) break;
        session_step(s);
        r->ticks++;
        sim_learn_stats(sim, &st);
        if (st.searching) r->search_ticks++;
        tally_learned(sim, r);
    }
    const NavBot *b = sim_bot(sim, 0);
    r->reached = b->goals_reached;
    if (b->goals_reached >= r->goals) r->all_time = (float)b->arrival_time;
    r->distance = (float)b->distance;
    r->sim_time = (float)sim_time(sim);
    if (d->mode == LEARN_WATCH) {
        const NavBot *o = sim_bot(sim, 1);
        r->runner_reached = o->goals_reached;
        if (o->goals_reached >= r->goals) r->runner_time = (float)o->arrival_time;
    }
    r->faulted = session_bot_faulted(s, 0) || (d->mode == LEARN_WATCH && session_bot_faulted(s, 1));
    if (r->faulted) {
        const char *why = session_bot_error(s, session_bot_faulted(s, 0) ? 0 : 1);
        size_t n = why ? strcspn(why, "\n") : 0;
        snprintf(r->error, sizeof r->error, "%.*s", (int)(n < LEARN_ERROR_MAX - 1 ? n : LEARN_ERROR_MAX - 1),
                 why ? why : "");
    }
    sim_learn_stats(sim, &st);
    r->search_ms_max = st.search_ms_max;
    if (r->search_ticks) r->search_ms_mean = st.search_ms_total / r->search_ticks;
    r->expanded = st.expanded;
    const NavAreaGraph *ag = sim_graph(sim, d->cls, &e);
    const NavMemory *m = sim_bot_memory(sim, 0);
    if (ag) {
        r->areas = area_count(ag);
        r->links = area_reach_count(ag);
    }
    if (m) {
        r->areas_known = memory_area_count(m);
        r->links_known = memory_link_count(m);
        r->memory_bytes = memory_bytes(m);
    }
    compare_routes(sim, d->cls, m, places, r->goals + 1, r);
    session_destroy(s);
    r->done = 1;
    r->wall_s = timer_ms_since(t0) / 1e3;
}

/* }======= */

/* {======= every run, in child processes ======= */

typedef struct Runs {
    const LearnDesc *d;
    LearnResult *res;
    int count, done;
    void (*progress)(void *user, int done, int total);
    void *user;
} Runs;

static void work(void *user, int task, JobOutput *out)
{
    const Runs *r = user;
    LearnResult *res = nav_malloc(sizeof *res);
    if (!res) {
        out->code = 2;
        return;
    }
    learning_run(&r->d[task], res);
    *out = (JobOutput){ (char *)res, sizeof *res, 0 };
}

static void done(void *user, int task, const JobEnd *end)
{
    Runs *r = user;
    LearnResult *res = &r->res[task];
    if (end->complete && end->code == 0 && end->len == sizeof *res) {
        memcpy(res, end->data, sizeof *res);
    } else {
        memset(res, 0, sizeof *res);
        res->all_time = res->runner_time = -1.0f;
        res->ratio_mean = res->ratio_min = res->ratio_max = res->search_ms_mean = NAN;
        res->faulted = res->done = 1;
        if (end->signal)
            snprintf(res->error, sizeof res->error, "the run's process was killed by signal %d (%s)", end->signal,
                     strsignal(end->signal));
        else
            snprintf(res->error, sizeof res->error, "the run's process ended with status %d and no results", end->code);
    }
    r->done++;
    if (r->progress) r->progress(r->user, r->done, r->count);
}

void learning_run_all(const LearnDesc *d, int count, int jobs, LearnResult *res,
                      void (*progress)(void *user, int done, int total), void *user)
{
    Runs r = { d, res, count, 0, progress, user };
    jobs_run(&(JobsDesc){
        .count = count, .at_once = jobs, .seconds = LEARN_CHILD_SECONDS, .work = work, .done = done, .user = &r });
}

/* }======= */

/* {======= searches ======= */

typedef struct Walker {
    uint32_t goal_area;
    uint32_t route[ROUTE_CAP];
    int count, at; /* links kept; the one being taken */
    bool ready;    /* the route kept is final */
    bool asking;   /* wants a search step */
    bool arrived, no_route, answered;
    uint32_t asked_at; /* tick the ask began */
} Walker;

static uint64_t mix_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void keep_violation(SearchResult *out, uint32_t bot, uint32_t tick, uint32_t area, uint32_t link,
                           const NavAreaGraph *ag, int why, bool partial)
{
    if (partial) out->partial_violations++;
    else out->violations++;
    if (out->kept == LEARN_KEPT_VIOLATIONS) return;
    out->kept_v[out->kept++] =
        (SearchViolation){ bot, tick,   area, link, link != UINT32_MAX ? area_reach(ag, link)->from : NAV_NO_AREA,
                           why, partial };
}

/* Does the route keep the rules? Counted, and kept, when not. */
static void check_route(SearchResult *out, const NavAreaGraph *ag, const NavMemory *m, uint32_t bot, uint32_t tick,
                        uint32_t area, uint32_t goal, const uint32_t *links, int count, bool partial)
{
    if (count <= 0) {
        keep_violation(out, bot, tick, area, UINT32_MAX, ag, SEARCH_EMPTY, partial);
        return;
    }
    int n = count < ROUTE_CAP ? count : ROUTE_CAP;
    if (area_reach(ag, links[0])->from != area) {
        keep_violation(out, bot, tick, area, links[0], ag, SEARCH_BAD_START, partial);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (!memory_knows_link(m, links[k])) {
            keep_violation(out, bot, tick, area, links[k], ag, SEARCH_UNKNOWN_LINK, partial);
            return;
        }
        if (k > 0 && area_reach(ag, links[k])->from != area_reach(ag, links[k - 1])->to) {
            keep_violation(out, bot, tick, area, links[k], ag, SEARCH_BROKEN_CHAIN, partial);
            return;
        }
    }
    if (!partial && count <= ROUTE_CAP && area_reach(ag, links[n - 1])->to != goal)
        keep_violation(out, bot, tick, area, links[n - 1], ag, SEARCH_BAD_END, partial);
}

/* Where on its route a bot in `area` is: the first link from `at` on that
** leaves the area; -1 when none. */
static int route_index(const NavAreaGraph *ag, const Walker *w, uint32_t area)
{
    int n = w->count < ROUTE_CAP ? w->count : ROUTE_CAP;
    for (int k = w->at; k < n; k++)
        if (area_reach(ag, w->route[k])->from == area) return k;
    return -1;
}

static void steer(NavSim *sim, const NavAreaGraph *ag, uint32_t id, const Walker *w, NavBotControl *c)
{
    const NavBot *b = sim_bot(sim, id);
    const NavReach *r = area_reach(ag, w->route[w->at]);
    const float *target = r->end;
    float dx = target[0] - b->pos[0], dy = target[1] - b->pos[1];
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 0.1f) {
        /* At the link's end but not yet across: on toward the next area. */
        const float *next = area_get(ag, r->to)->center;
        dx = next[0] - b->pos[0], dy = next[1] - b->pos[1];
        len = sqrtf(dx * dx + dy * dy);
    }
    if (len > 1e-4f) c->move[0] = dx / len, c->move[1] = dy / len;
    float sx = r->start[0] - b->pos[0], sy = r->start[1] - b->pos[1];
    bool near_start = sx * sx + sy * sy < 1.5f * 1.5f;
    c->jump = near_start &&
              (r->type == NAV_TRAVEL_JUMP || r->type == NAV_TRAVEL_BARRIER_JUMP || r->type == NAV_TRAVEL_WATER_JUMP);
    c->crouch = r->type == NAV_TRAVEL_CROUCH || (area_get(ag, r->to)->flags & NAV_AREA_CROUCH) != 0;
    snprintf(c->reason, sizeof c->reason, "%s", w->ready ? "route" : "partial route");
}

typedef struct Drive {
    NavSim *sim;
    const NavAreaGraph *ag;
    SearchResult *out;
    double ready_sum;
    uint32_t readies;
    uint32_t buf[ROUTE_CAP];
} Drive;

static void keep_route(Walker *w, const uint32_t *links, int count)
{
    int n = count < ROUTE_CAP ? count : ROUTE_CAP;
    memcpy(w->route, links, sizeof *links * (size_t)n);
    w->count = n;
    w->at = 0;
}

static void drive(Drive *dr, uint32_t id, Walker *w, uint32_t tick)
{
    NavSim *sim = dr->sim;
    NavBotControl *c = sim_bot_control(sim, id);
    c->move[0] = c->move[1] = 0.0f;
    c->jump = c->crouch = false;
    if (w->arrived || w->no_route) return;
    float p[3];
    uint32_t area = point_area(dr->ag, sim_bot(sim, id)->pos, p);
    if (area == NAV_NO_AREA) return;
    if (area == w->goal_area) {
        w->arrived = true;
        w->asking = false;
        return;
    }
    int at = w->count ? route_index(dr->ag, w, area) : -1;
    if (!w->ready || at < 0) {
        if (!w->asking) {
            w->asking = true;
            w->asked_at = tick;
            w->ready = false;
            dr->out->episodes++;
        }
        SimMemRoute q;
        const NavMemory *m = sim_bot_memory(sim, id);
        if (!sim_bot_memory_route(sim, id, w->goal_area, FLAGS, false, dr->buf, ROUTE_CAP, &q)) {
            w->no_route = true, w->asking = false;
            return;
        }
        if (q.queued) {
            dr->out->queued++;
        } else if (q.state == MEMSEARCH_READY) {
            dr->out->ready_routes++;
            check_route(dr->out, dr->ag, m, id, tick, area, w->goal_area, dr->buf, q.count, false);
            keep_route(w, dr->buf, q.count);
            w->ready = w->answered = true;
            w->asking = false;
            double took = tick - w->asked_at;
            dr->ready_sum += took;
            if (took > dr->out->ready_max) dr->out->ready_max = took;
            dr->readies++;
            at = w->count ? 0 : -1;
        } else if (q.state == MEMSEARCH_NO_ROUTE) {
            w->no_route = true, w->asking = false;
            return;
        } else if (q.time != ROUTE_UNREACHABLE && q.count > 0) {
            dr->out->partial_routes++;
            check_route(dr->out, dr->ag, m, id, tick, area, w->goal_area, dr->buf, q.count, true);
            keep_route(w, dr->buf, q.count);
            at = 0;
        }
    }
    if (at < 0) return;
    w->at = at;
    steer(sim, dr->ag, id, w, c);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Bots on missions, each knowing the whole graph. How many were placed;
** -1 with err set when none could be or memory ran out. */
static int setup_bots(const SearchDesc *d, NavSim *sim, Walker *wk, NavError *err)
{
    MissionPicker *pk = mission_picker_create(sim, &(MissionDesc){ .cls = d->cls }, err);
    float *taken = nav_malloc(sizeof *taken * 3 * (size_t)d->bots);
    NavMission *ms = nav_malloc(sizeof *ms * (size_t)d->bots);
    int n = -1;
    if (!pk || !taken || !ms) goto done;
    const char *label = d->label ? d->label : "";
    uint64_t rng = mix_bytes(mix_bytes(0xcbf29ce484222325ull ^ d->seed, label, strlen(label)), "searches", 8);
    n = 0;
    while (n < d->bots && mission_pick(pk, &rng, taken, n, &ms[n])) {
        memcpy(&taken[3 * n], ms[n].start, sizeof ms[n].start);
        n++;
    }
    mission_picker_destroy(pk);
    pk = NULL;
    if (n == 0) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "no room for a mission (a start and a connected goal)");
        n = -1;
        goto done;
    }
    NavMemory *first = NULL;
    for (int i = 0; i < n; i++) {
        int id = sim_add_bot(
            sim, &(NavBotDesc){ .cls = d->cls, .pos = { ms[i].start[0], ms[i].start[1], ms[i].start[2] } }, err);
        if (id != i || !sim_bot_learn(sim, (uint32_t)i, MEMORY_LINKS_PER_AREA_MAX, err)) {
            n = -1;
            goto done;
        }
        /* They know everything already: nothing to see. */
        sim_bot_set_sight(sim, (uint32_t)i, 0.0f);
        sim_bot_set_sight_floors(sim, (uint32_t)i, false);
        NavMemory *m = sim_bot_memory(sim, (uint32_t)i);
        if (!first) {
            first = m;
            uint32_t links = area_reach_count(memory_graph(m));
            for (uint32_t l = 0; l < links; l++) memory_learn_link(m, l, 1, NULL);
        } else {
            memory_copy(m, first);
        }
        wk[i].goal_area = ms[i].goal_area;
    }
done:
    mission_picker_destroy(pk);
    nav_free(taken);
    nav_free(ms);
    return n;
}

/* One run of the searches: out's counts, and per tick that searched its
** time (ms) and expansions (exp), out->search_ticks of them. */
static NavStatus search_once(const SearchDesc *d, SearchResult *out, double *ms, uint32_t *exp, NavError *err)
{
    memset(out, 0, sizeof *out);
    out->per_bot = d->per_bot;
    out->per_world = d->per_world;
    out->ready_mean = NAN;
    NavSim *sim = sim_create(d->w, &(NavSimDesc){ .seed = d->seed }, err);
    if (!sim) return err->status ? err->status : NAV_FAILURE;
    uint32_t limit = (uint32_t)ceil(d->time_limit * SIM_DEFAULT_TICK_HZ);
    Walker *wk = nav_calloc((size_t)(d->bots > 0 ? d->bots : 1), sizeof *wk);
    Drive *dr = nav_calloc(1, sizeof *dr);
    NavStatus st = NAV_OK;
    int n = -1;
    if (!wk || !dr) {
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for %d bots", d->bots);
        goto done;
    }
    n = setup_bots(d, sim, wk, err);
    if (n < 0) {
        st = err->status ? err->status : NAV_FAILURE;
        goto done;
    }
    out->bots = n;
    const NavMemory *m0 = sim_bot_memory(sim, 0);
    *dr = (Drive){ .sim = sim, .ag = memory_graph(m0), .out = out };
    out->links = area_reach_count(dr->ag);
    out->links_known = memory_link_count(m0);
    sim_set_search_budget(sim, d->per_bot, d->per_world);
    for (uint32_t t = 0; t < limit; t++) {
        uint32_t tick = (uint32_t)sim_tick(sim);
        int waiting = 0;
        for (int i = 0; i < n; i++) {
            drive(dr, (uint32_t)i, &wk[i], tick);
            waiting += wk[i].asking;
        }
        if (!waiting) break;
        sim_step(sim);
        out->ticks++;
        SimLearnStats ls;
        sim_learn_stats(sim, &ls);
        if (!ls.searching) continue;
        ms[out->search_ticks] = ls.search_ms_tick;
        exp[out->search_ticks++] = ls.expanded_tick;
    }
    SimLearnStats ls;
    sim_learn_stats(sim, &ls);
    out->expanded = ls.expanded;
    if (dr->readies) out->ready_mean = dr->ready_sum / dr->readies;
    for (int i = 0; i < n; i++) {
        out->ready_bots += wk[i].answered;
        out->no_route_bots += wk[i].no_route;
        out->arrived_bots += wk[i].arrived;
        out->waiting_bots += wk[i].asking;
    }
done:
    nav_free(wk);
    nav_free(dr);
    sim_destroy(sim);
    return st;
}

NavStatus learning_searches(const SearchDesc *d, SearchResult *out, NavError *err)
{
    uint64_t t0 = timer_now_ns();
    uint32_t limit = (uint32_t)ceil(d->time_limit * SIM_DEFAULT_TICK_HZ);
    double *ms = nav_malloc(sizeof *ms * ((size_t)limit + 1));
    double *again = nav_malloc(sizeof *again * ((size_t)limit + 1));
    uint32_t *exp = nav_malloc(sizeof *exp * ((size_t)limit + 1));
    uint32_t *exp2 = nav_malloc(sizeof *exp2 * ((size_t)limit + 1));
    SearchResult *other = nav_malloc(sizeof *other);
    NavStatus st = NAV_OK;
    memset(out, 0, sizeof *out);
    if (!ms || !again || !exp || !exp2 || !other) {
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for %u ticks", limit);
        goto done;
    }
    st = search_once(d, out, ms, exp, err);
    if (NAV_FAILED(st)) goto done;
    out->repeats = 1;
    for (uint32_t k = 0; k < out->search_ticks; k++)
        if (ms[k] > out->ms_max_raw) out->ms_max_raw = ms[k];
    /* The same run again (it is deterministic): each tick's time is the
    ** least of its runs, so a tick the machine took the core away from
    ** does not count as the searches' own. */
    for (int r = 1; r < d->repeats; r++) {
        st = search_once(d, other, again, exp2, err);
        if (NAV_FAILED(st)) goto done;
        out->repeats++;
        bool same = other->search_ticks == out->search_ticks;
        for (uint32_t k = 0; k < out->search_ticks && same; k++) same = exp[k] == exp2[k];
        if (!same) {
            out->repeats_differ = true;
            break;
        }
        for (uint32_t k = 0; k < out->search_ticks; k++) {
            if (again[k] > out->ms_max_raw) out->ms_max_raw = again[k];
            if (again[k] < ms[k]) ms[k] = again[k];
        }
    }
    out->ms_mean = out->ms_p99 = out->expanded_mean = out->us_per_expansion = NAN;
    out->ms_max = 0.0;
    out->expanded_max = 0;
    if (out->search_ticks) {
        double sum = 0.0, exps = 0.0;
        for (uint32_t k = 0; k < out->search_ticks; k++) {
            sum += ms[k];
            exps += exp[k];
            if (ms[k] > out->ms_max) out->ms_max = ms[k];
            if (exp[k] > out->expanded_max) out->expanded_max = exp[k];
        }
        out->ms_mean = sum / out->search_ticks;
        out->expanded_mean = exps / out->search_ticks;
        if (exps > 0.0) out->us_per_expansion = sum * 1e3 / exps;
        qsort(ms, out->search_ticks, sizeof *ms, cmp_double);
        uint32_t rank = (uint32_t)ceil(0.99 * out->search_ticks);
        out->ms_p99 = ms[(rank ? rank : 1) - 1];
    }
done:
    nav_free(ms);
    nav_free(again);
    nav_free(exp);
    nav_free(exp2);
    nav_free(other);
    out->wall_s = timer_ms_since(t0) / 1e3;
    return st;
}

/* }======= */

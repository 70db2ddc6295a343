/*
** soak.c — long runs with memory sampled (soak.h).
*/
#include "scenario/soak.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/timer.h"
#include "route/route.h"
#include "script/session.h"
#include "sim/mission.h"
#include "sim/sim_debug.h"

#define SOAK_DEFAULT_TICKS 100000
#define SOAK_DEFAULT_RTS 48
#define SOAK_DEFAULT_RUNNERS 6
#define SOAK_BRAINS 2
#define SOAK_RNG_SALT 0x736f616bull /* "soak" */

static const char *const BRAIN_NAMES[SOAK_BRAINS] = { "rts", "runner" };

const char *soak_meter_name(int meter)
{
    static const char *const names[SOAK_METERS] = { "rss", "heap", "lua", "sim", "route" };
    return meter >= 0 && meter < SOAK_METERS ? names[meter] : "?";
}

/* {======= meters ======= */

/* Resident memory: /proc/self/statm's second field, in pages. */
static size_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long size = 0, resident = 0;
    int got = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return got == 2 && page > 0 ? (size_t)resident * (size_t)page : 0;
}

/* The C heap in use: small blocks and mmapped ones (0 under the sanitizers,
** whose allocator mallinfo2 does not see). */
static size_t heap_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

typedef struct Sample {
    uint64_t tick;
    size_t v[SOAK_METERS];
} Sample;

static void take_sample(NavSession *s, uint64_t tick, Sample *out, size_t *route_cap, bool *under_cap)
{
    NavSim *sim = session_sim(s);
    BrainHostStats bs;
    brain_host_stats(session_brains(s), &bs);
    out->tick = tick;
    out->v[SOAK_RSS] = rss_bytes();
    out->v[SOAK_HEAP] = heap_bytes();
    out->v[SOAK_LUA] = bs.memory;
    out->v[SOAK_SIM] = sim_memory(sim);
    size_t cache = 0, cap = 0;
    for (int c = 0; c < world_class_count(sim_world(sim)); c++) {
        const NavRouter *r = sim_router_built(sim, c);
        if (!r) continue;
        NavRouterStats st;
        router_stats(r, &st);
        if (st.cache_bytes > st.cap_bytes) *under_cap = false;
        cache += st.cache_bytes;
        cap += st.cap_bytes;
    }
    out->v[SOAK_ROUTE] = cache;
    *route_cap = cap;
}

/* First and second half after the warm-up, and the verdict. */
static void judge(const Sample *smp, int n, uint64_t ticks, SoakRun *run)
{
    uint64_t warm = ticks * SOAK_WARMUP_PERCENT / 100;
    uint64_t mid = warm + (ticks - warm) / 2;
    for (int k = 0; k < SOAK_METERS; k++) {
        SoakMeter *m = &run->m[k];
        memset(m, 0, sizeof *m);
        for (int i = 0; i < n; i++) {
            size_t v = smp[i].v[k];
            if (v > m->peak) m->peak = v;
            m->end = v;
            if (smp[i].tick <= warm) continue;
            if (smp[i].tick <= mid) {
                if (v > m->first_max) m->first_max = v;
            } else if (v > m->last_max) {
                m->last_max = v;
            }
        }
        size_t slack = m->first_max / 100 * SOAK_FLAT_PERCENT;
        if (slack < SOAK_FLAT_BYTES) slack = SOAK_FLAT_BYTES;
        m->flat = m->last_max <= m->first_max + slack;
    }
}

/* }======= */

/* {======= the brains' copies ======= */

/* work/bots/NAME.lua: the bundled brain with a last line that changes
** each round, so each round is a real change of text for the reload. */
static NavStatus write_brains(const SoakDesc *d, uint32_t round, NavError *err)
{
    for (int b = 0; b < SOAK_BRAINS; b++) {
        char src[FILEIO_PATH_MAX], dst[FILEIO_PATH_MAX];
        snprintf(src, sizeof src, "%s/bots/%s.lua", d->root, BRAIN_NAMES[b]);
        snprintf(dst, sizeof dst, "%s/bots/%s.lua", d->work, BRAIN_NAMES[b]);
        char *text;
        size_t len;
        NavStatus s = fileio_read(src, 1u << 20, &text, &len, err);
        if (NAV_FAILED(s)) return s;
        char tail[64];
        int tn = snprintf(tail, sizeof tail, "\n-- soak round %u\n", round);
        char *all = nav_malloc(len + (size_t)tn);
        if (!all) {
            nav_free(text);
            return nav_error_set(err, NAV_E_NOMEM, dst, 0, 0, NULL, "out of memory");
        }
        memcpy(all, text, len);
        memcpy(all + len, tail, (size_t)tn);
        nav_free(text);
        s = fileio_write(dst, all, len + (size_t)tn, 0, err);
        nav_free(all);
        if (NAV_FAILED(s)) return s;
        /* A later modification time each round, however fast they come. */
        struct timespec t[2];
        t[0].tv_sec = t[1].tv_sec = (time_t)1000000000 + (time_t)round;
        t[0].tv_nsec = t[1].tv_nsec = 0;
        if (utimensat(AT_FDCWD, dst, t, 0) != 0)
            return nav_error_set(err, NAV_E_IO, dst, 0, 0, NULL, "cannot set its time: %s", strerror(errno));
    }
    return NAV_OK;
}

static void remove_brains(const SoakDesc *d)
{
    char p[FILEIO_PATH_MAX];
    for (int b = 0; b < SOAK_BRAINS; b++) {
        snprintf(p, sizeof p, "%s/bots/%s.lua", d->work, BRAIN_NAMES[b]);
        remove(p);
    }
    snprintf(p, sizeof p, "%s/bots", d->work);
    rmdir(p);
}

/* }======= */

/* {======= one run ======= */

typedef struct Runner {
    uint32_t id;
    uint64_t since; /* tick its goal was given */
} Runner;

typedef struct Live {
    uint32_t ids[SOAK_OBSTACLES];
    int count;
} Live;

static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void progress(const SoakDesc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(const SoakDesc *d, const char *fmt, ...)
{
    if (!d->progress) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    d->progress(d->user, line);
}

static double mib(size_t b) { return (double)b / 1048576.0; }

/* A goal for runner r, from the picker, at tick t. */
static void new_goal(NavSim *sim, MissionPicker *p, uint64_t *rng, Runner *r, uint64_t t, SoakRun *run)
{
    float pt[3];
    uint32_t area;
    sim_bot_clear_goals(sim, r->id);
    r->since = t;
    if (!mission_pick_point(p, rng, NULL, 0, pt, &area)) return;
    sim_bot_push_goal(sim, r->id, pt, 0.0f);
    run->goals++;
}

/* Drop a body-sized box on a free point; the oldest goes when full. */
static void change_obstacles(NavSim *sim, MissionPicker *p, uint64_t *rng, float half, Live *live, SoakRun *run)
{
    if (live->count == SOAK_OBSTACLES) {
        if (sim_remove_obstacle(sim, live->ids[0])) run->obstacles_removed++;
        memmove(live->ids, live->ids + 1, (SOAK_OBSTACLES - 1) * sizeof live->ids[0]);
        live->count--;
    }
    float pt[3];
    uint32_t area;
    if (!mission_pick_point(p, rng, NULL, 0, pt, &area)) return;
    float mn[3] = { pt[0] - half, pt[1] - half, pt[2] }, mx[3] = { pt[0] + half, pt[1] + half, pt[2] + 1.5f };
    uint32_t id = sim_add_obstacle(sim, mn, mx);
    if (!id) return;
    live->ids[live->count++] = id;
    run->obstacles_added++;
}

static void cycle_doors(NavSim *sim, const int *doors, int ndoors, uint32_t round, SoakRun *run)
{
    for (int i = 0; i < ndoors; i++) {
        uint32_t k = (round + (uint32_t)i) % 3; /* open, shut, locked */
        if (sim_door_set(sim, doors[i], k == 0, k == 2)) run->door_changes++;
    }
}

static NavStatus one_run(const SoakDesc *d, int which, SoakRun *run, NavError *err)
{
    memset(run, 0, sizeof *run);
    run->route_under_cap = true;
    NavStatus st = write_brains(d, 0, err);
    if (NAV_FAILED(st)) return st;
    NavSession *s = session_create(d->w,
                                   &(NavSessionDesc){ .root = d->root,
                                                      .extra_roots = { d->work },
                                                      .seed = d->seed,
                                                      .route_cache_bytes = SOAK_ROUTE_CACHE_BYTES,
                                                      .log = log_none },
                                   err);
    if (!s) return NAV_FAILURE | err->status;
    NavSim *sim = session_sim(s);
    MissionPicker *picker = mission_picker_create(sim, &(MissionDesc){ .cls = d->cls }, err);
    uint32_t total = d->rts + d->runners;
    float *taken = nav_malloc(sizeof *taken * 3 * (total ? total : 1));
    Runner *runners = nav_calloc(d->runners ? d->runners : 1, sizeof *runners);
    Sample *smp = nav_calloc(SOAK_SAMPLES + 2, sizeof *smp);
    int ndoors = 0;
    int *doors = nav_malloc(sizeof *doors * (size_t)(world_entity_count(d->w) + 1));
    if (!picker || !taken || !runners || !smp || !doors) {
        if (picker) nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory");
        st = NAV_FAILURE | err->status;
        goto done;
    }
    for (int i = 0; i < world_entity_count(d->w); i++)
        if (world_entity(d->w, i)->type == NAV_ENTITY_DOOR) doors[ndoors++] = i;

    uint64_t rng = d->seed ^ SOAK_RNG_SALT;
    for (uint32_t i = 0; i < total; i++) {
        float pt[3];
        uint32_t area;
        if (!mission_pick_point(picker, &rng, taken, (int)i, pt, &area)) {
            st =
                nav_error_set(err, NAV_E_PARAM, d->label, 0, 0, "bots", "no free place for bot %u of %u", i + 1, total);
            goto done;
        }
        memcpy(taken + 3 * i, pt, sizeof pt);
        int id = session_add_bot(s, NULL, &(NavBotDesc){ .cls = d->cls, .pos = { pt[0], pt[1], pt[2] } }, err);
        if (id < 0) {
            st = NAV_FAILURE | err->status;
            goto done;
        }
        if (i >= d->rts) {
            Runner *r = &runners[i - d->rts];
            r->id = (uint32_t)id;
            new_goal(sim, picker, &rng, r, 0, run);
        }
        session_attach_brain(s, (uint32_t)id, BRAIN_NAMES[i < d->rts ? 0 : 1]);
    }
    run->bots = total;

    float half = world_class(d->w, d->cls)->radius;
    Live live = { .count = 0 };
    uint64_t every = d->ticks / SOAK_SAMPLES ? d->ticks / SOAK_SAMPLES : 1;
    int nsmp = 0;
    uint64_t t0 = timer_now_ns();
    uint32_t door_round = 0, reload_round = 0;
    for (uint64_t t = 1; t <= d->ticks; t++) {
        if (t % d->obstacle_every == 0) change_obstacles(sim, picker, &rng, half, &live, run);
        if (ndoors && t % d->door_every == 0) cycle_doors(sim, doors, ndoors, ++door_round, run);
        if (t % d->reload_every == 0) {
            st = write_brains(d, ++reload_round, err);
            if (NAV_FAILED(st)) goto done;
            int n = session_reload_changed(s);
            run->reloads += (uint32_t)n;
            if (n < SOAK_BRAINS) run->reload_misses++;
        }
        for (uint32_t i = 0; i < d->runners; i++) {
            Runner *r = &runners[i];
            bool arrived = sim_bot_arrived(sim, r->id);
            if (arrived) run->arrivals++;
            if (arrived || t - r->since >= SOAK_GOAL_TICKS) new_goal(sim, picker, &rng, r, t, run);
        }
        session_step(s);
        if (t % every == 0 || t == d->ticks) {
            if (nsmp < SOAK_SAMPLES + 2) take_sample(s, t, &smp[nsmp++], &run->route_cap, &run->route_under_cap);
            if (t % (d->ticks / 10 ? d->ticks / 10 : 1) == 0 || t == d->ticks) {
                const Sample *m = &smp[nsmp - 1];
                progress(d,
                         "%s run %d/2: tick %llu/%llu  rss %.1f MiB  heap %.1f MiB  lua %.1f MiB  sim %.2f MiB  "
                         "route %.2f/%.2f MiB  %.1f s",
                         d->label, which + 1, (unsigned long long)t, (unsigned long long)d->ticks, mib(m->v[SOAK_RSS]),
                         mib(m->v[SOAK_HEAP]), mib(m->v[SOAK_LUA]), mib(m->v[SOAK_SIM]), mib(m->v[SOAK_ROUTE]),
                         mib(run->route_cap), timer_ms_since(t0) / 1e3);
            }
        }
    }
    run->seconds = timer_ms_since(t0) / 1e3;
    run->ticks = d->ticks;
    run->hash = sim_trace_hash(sim);
    for (uint32_t i = 0; i < sim_bot_count(sim); i++)
        if (session_bot_faulted(s, i)) run->faulted++;
    judge(smp, nsmp, d->ticks, run);
    st = NAV_OK;

done:
    nav_free(doors);
    nav_free(smp);
    nav_free(runners);
    nav_free(taken);
    mission_picker_destroy(picker);
    session_destroy(s);
    return st;
}

/* }======= */

NavStatus soak_map(const SoakDesc *desc, SoakResult *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    SoakDesc d = *desc;
    if (!d.ticks) d.ticks = SOAK_DEFAULT_TICKS;
    if (!d.rts && !d.runners) d.rts = SOAK_DEFAULT_RTS, d.runners = SOAK_DEFAULT_RUNNERS;
    if (!d.obstacle_every) d.obstacle_every = SOAK_DEFAULT_OBSTACLE_EVERY;
    if (!d.door_every) d.door_every = SOAK_DEFAULT_DOOR_EVERY;
    if (!d.reload_every) d.reload_every = SOAK_DEFAULT_RELOAD_EVERY;
    if (!d.label) d.label = "map";
    if (!d.w || !d.root || !d.work)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "soak: a world, a root and a work folder are needed");
    if (d.cls < 0 || d.cls >= world_class_count(d.w))
        return nav_error_set(err, NAV_E_PARAM, d.label, 0, 0, "class", "no class %d in the map", d.cls);
    char bots[FILEIO_PATH_MAX];
    snprintf(bots, sizeof bots, "%s/bots", d.work);
    if (mkdir(bots, 0777) != 0 && errno != EEXIST)
        return nav_error_set(err, NAV_E_IO, bots, 0, 0, NULL, "cannot make the folder: %s", strerror(errno));

    NavStatus st = NAV_OK;
    for (int i = 0; i < 2 && NAV_SUCCEEDED(st); i++) st = one_run(&d, i, &out->run[i], err);
    remove_brains(&d);
    if (NAV_FAILED(st)) return st;

    out->same_hash = out->run[0].hash == out->run[1].hash;
    out->flat = true;
    bool under = true, reloaded = true;
    uint32_t faulted = 0;
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < SOAK_METERS; k++) out->flat &= out->run[i].m[k].flat;
        under &= out->run[i].route_under_cap;
        reloaded &= out->run[i].reload_misses == 0;
        faulted += out->run[i].faulted;
    }
    out->passed = out->flat && out->same_hash && under && reloaded && !faulted;
    if (!out->same_hash)
        snprintf(out->why, sizeof out->why, "the two runs' trace hashes differ: %016llx and %016llx",
                 (unsigned long long)out->run[0].hash, (unsigned long long)out->run[1].hash);
    else if (!under) snprintf(out->why, sizeof out->why, "a router's caches went over its cap");
    else if (!reloaded) snprintf(out->why, sizeof out->why, "a reload round did not reload both brains");
    else if (faulted) snprintf(out->why, sizeof out->why, "%u bots faulted", faulted);
    for (int i = 0; i < 2 && out->why[0] == '\0'; i++)
        for (int k = 0; k < SOAK_METERS && out->why[0] == '\0'; k++) {
            const SoakMeter *m = &out->run[i].m[k];
            if (!m->flat)
                snprintf(out->why, sizeof out->why,
                         "run %d: %s grew after the warm-up: %zu bytes at most in the first half, %zu in the second",
                         i + 1, soak_meter_name(k), m->first_max, m->last_max);
        }
    return NAV_OK;
}

/*
** cmd_bench_competence.c — `navbot bench competence [MAPS...]`: do bots
** arrive? Runner bots (bots/runner.lua) on random missions (sim/mission.h)
** alone and in crowds, counted per map and mode:
**   solo    one bot per mission, one sim per mission
**   crowd   K bots in one sim, each with its own mission
**   shared  K bots in one sim from different starts, all sent to one goal
** Each bot has until F x the routed optimum + M seconds (its own limit); it
** arrived when its goal was reached by then. Reported per map and mode:
** missions, arrivals, arrival time over the routed optimum (mean and p95
** over the bots that arrived), bots whose longest stuck spell passed 3 s,
** faults; then totals per mode. The first failures of each map and mode go
** to stderr with a `navbot run` command that replays them.
**
** Missions are drawn in this process, from the seed, the map's name and
** the mode (so a map's missions do not depend on the other maps), and
** printed through text (x and y on a quarter-metre lattice, z to the
** centimetre) so the printed command replays the same run. Each sim runs
** in a child process (--jobs at once; with --jobs 1 in this process), its
** results coming back through a pipe; results are kept in mission order,
** so the report does not depend on --jobs.
**
** DOES NOT: judge speed (wall time is printed, never compared), or fail on
** how many bots arrive (exit 0 whatever they do).
*/
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/json.h"
#include "core/timer.h"
#include "script/session.h"
#include "sim/mission.h"

#define COMP_BRAIN "runner"
#define COMP_MAX_MAPS 64
#define COMP_MAX_JOBS 64
#define COMP_MAX_CROWD 64
#define COMP_STUCK_SECONDS 3.0
#define COMP_CHILD_SECONDS 900   /* one sim in a child: stopped if it runs away */
#define COMP_ERROR_MAX 160
#define COMP_PATH_MAX 1024
/* The generated building in the default maps: small, so it runs fast. */
#define COMP_BUILDING "generate:building:64:64:2:1"

enum { MODE_SOLO, MODE_CROWD, MODE_SHARED, MODE_COUNT };
static const char *const MODE_NAMES[MODE_COUNT] = { "solo", "crowd", "shared" };

typedef struct CompArgs {
    const char *maps[COMP_MAX_MAPS];
    int map_count;
    uint32_t missions, crowd, seed, jobs, failures;
    double time_factor, time_margin, min_distance;
    bool modes[MODE_COUNT];
    bool json;
    const char *cls_name;
    const char *root;          /* NULL: found (cwd, else beside the executable) */
} CompArgs;

/* A mission as run: the mode, its sim (job) and its bot's limit. */
typedef struct CompMission {
    NavMission m;
    int mode;
    int job;                  /* index into the map's jobs */
    int sim;                  /* the sim's number within its mode */
    uint32_t limit_ticks;
} CompMission;

/* A bot's outcome, as a child writes it to its pipe (plain bytes). */
typedef struct BotResult {
    uint8_t arrived;          /* by its own limit */
    uint8_t faulted;
    uint8_t done;             /* the child filled it in */
    float arrival_time;       /* seconds; < 0 when not arrived */
    float stuck_max;          /* longest stuck spell, seconds */
    float stuck_total;        /* all its stuck time: many short spells show here */
    float pos[3];             /* where it was at the end of its time (or on arrival) */
    char say[SIM_SAY_MAX];
    char error[COMP_ERROR_MAX];
} BotResult;

/* One sim: missions [first, first + count). */
typedef struct Job {
    int mode;
    int first, count;
} Job;

typedef struct Summary {
    int missions, arrived, stuck, faults;
    double ratio_mean, ratio_p95; /* NAN when none arrived */
} Summary;

typedef struct MapRun {
    char name[128];
    const char *path;
    bool ok;
    Summary s[MODE_COUNT];
    uint64_t hash;
} MapRun;

/* A bot that did not arrive, kept for the report. */
typedef struct Failure {
    char map[128];
    int mode, sim, bot;
    NavMission m;
    uint32_t limit_ticks;
    BotResult r;
    char *reproduce;          /* the `navbot run` line */
} Failure;

/* What the whole run gathers: failures, and every arrival's ratio per mode
** for the totals. */
typedef struct Gathered {
    Failure *fail;
    int fail_count, fail_cap;
    double *ratios[MODE_COUNT];
    int nratios[MODE_COUNT], ratio_cap[MODE_COUNT];
} Gathered;

/* {======= arguments ======= */

static bool parse_modes(const char *val, bool modes[MODE_COUNT])
{
    memset(modes, 0, sizeof(bool) * MODE_COUNT);
    const char *s = val;
    int any = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        int found = -1;
        for (int m = 0; m < MODE_COUNT; m++)
            if (strlen(MODE_NAMES[m]) == n && strncmp(s, MODE_NAMES[m], n) == 0) found = m;
        if (found < 0) return false;
        modes[found] = true;
        any++;
        s += n;
        if (*s == ',') s++;
    }
    return any > 0;
}

static bool parse_real(const char *val, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static int parse_args(const CliContext *cx, int argc, char **argv, CompArgs *a)
{
    const CliCommand *cmd = &cli_cmd_bench;
    memset(a, 0, sizeof *a);
    a->missions = 200;
    a->crowd = 8;
    a->seed = 1;
    a->jobs = 2;
    a->failures = 3;
    a->time_factor = 3.0;
    a->time_margin = 10.0;
    a->min_distance = MISSION_DEFAULT_MIN_DISTANCE;
    for (int m = 0; m < MODE_COUNT; m++) a->modes[m] = true;
    for (int i = 2; i < argc; i++) {
        const char *val = NULL;
        int r;
        uint32_t u;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--missions", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 100000)
                return cli_usage_error(cx, cmd, "--missions needs a number of missions from 1 to 100000");
            a->missions = u;
        } else if ((r = cli_take_value("--crowd", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 2 || u > COMP_MAX_CROWD)
                return cli_usage_error(cx, cmd, "--crowd needs a number of bots from 2 to %d", COMP_MAX_CROWD);
            a->crowd = u;
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u))
                return cli_usage_error(cx, cmd, "--seed needs a whole number from 0 to 4294967295");
            a->seed = u;
        } else if ((r = cli_take_value("--jobs", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > COMP_MAX_JOBS)
                return cli_usage_error(cx, cmd, "--jobs needs a number of processes from 1 to %d", COMP_MAX_JOBS);
            a->jobs = u;
        } else if ((r = cli_take_value("--failures", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u > 100000)
                return cli_usage_error(cx, cmd, "--failures needs a number from 0 to 100000");
            a->failures = u;
        } else if ((r = cli_take_value("--modes", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_modes(val, a->modes))
                return cli_usage_error(cx, cmd, "--modes needs a list of solo, crowd and shared such as solo,shared");
        } else if ((r = cli_take_value("--time-factor", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 1.0, 100.0, &a->time_factor))
                return cli_usage_error(cx, cmd, "--time-factor needs a number from 1 to 100");
        } else if ((r = cli_take_value("--time-margin", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 0.0, 600.0, &a->time_margin))
                return cli_usage_error(cx, cmd, "--time-margin needs seconds from 0 to 600");
        } else if ((r = cli_take_value("--min-distance", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !parse_real(val, 0.5, 1000.0, &a->min_distance))
                return cli_usage_error(cx, cmd, "--min-distance needs metres from 0.5 to 1000");
        } else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else if ((r = cli_take_value("--root", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--root needs a folder");
            a->root = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, cmd, "bench competence: unknown option '%s'", argv[i]);
        } else {
            if (a->map_count == COMP_MAX_MAPS)
                return cli_usage_error(cx, cmd, "bench competence: at most %d maps", COMP_MAX_MAPS);
            a->maps[a->map_count++] = argv[i];
        }
    }
    return CLI_OK;
}

/* }======= */

/* {======= where the maps and brains are ======= */

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool has_project(const char *dir)
{
    char p[COMP_PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/bots/" COMP_BRAIN ".lua", dir);
    return is_file(p);
}

/* The folder with bots/, lua/ and maps/: --root, else navbot's bundled
** one (beside the executable, whatever the current folder). */
static bool find_root(const CompArgs *a, char *out, size_t cap)
{
    if (a->root) {
        snprintf(out, cap, "%s", a->root);
        return true;
    }
    return nav_lua_bundled_root(out, cap);
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The bundled maps (every .lua in root/maps, sorted), then the generated building. */
static int default_maps(const char *root, char **out, int cap)
{
    char dir[COMP_PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/maps", root);
    int n = 0;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && n < cap - 1) {
            size_t len = strlen(e->d_name);
            if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
            char path[2 * COMP_PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", strcmp(root, ".") == 0 ? "maps" : dir, e->d_name);
            if (!is_file(path)) continue;
            out[n] = strdup(path);
            if (out[n]) n++;
        }
        closedir(d);
    }
    qsort(out, (size_t)n, sizeof *out, by_name);
    if ((out[n] = strdup(COMP_BUILDING))) n++;
    return n;
}

/* A short name for tables: the file name without folder and .lua; a
** generated map's name as given after "generate:". */
static void map_label(const char *path, char *out, size_t cap)
{
    if (strncmp(path, CLI_GENERATED_PREFIX, 9) == 0) {
        snprintf(out, cap, "%s", path + 9);
        return;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

/* }======= */

/* {======= missions ======= */

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_START 0xcbf29ce484222325ull

/* A coordinate as the command line reads it back: through "%.2f". */
static float as_printed(float v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", (double)v);
    const char *s = buf;
    float out = v;
    cli_parse_number(&s, &out);
    return out;
}

static void canonical(float p[3])
{
    for (int k = 0; k < 3; k++) p[k] = as_printed(p[k]);
}

static uint32_t limit_ticks(const CompArgs *a, uint32_t time, int hz)
{
    double s = a->time_factor * time / 100.0 + a->time_margin;
    return (uint32_t)ceil(s * hz);
}

/* Every mission of a map, in mode order; jobs per sim. False when the map
** has too little room for them (reported). */
static bool make_missions(const CliContext *cx, const CompArgs *a, const char *label, MissionPicker *pk,
                          CompMission **out, int *count, Job **jobs_out, int *job_count)
{
    uint32_t groups = (a->missions + a->crowd - 1) / a->crowd;
    size_t cap = 0;
    for (int m = 0; m < MODE_COUNT; m++)
        if (a->modes[m]) cap += m == MODE_SOLO ? a->missions : (size_t)groups * a->crowd;
    CompMission *ms = calloc(cap ? cap : 1, sizeof *ms);
    Job *jobs = calloc(cap ? cap : 1, sizeof *jobs);
    if (!ms || !jobs) {
        free(ms);
        free(jobs);
        fprintf(cx->err, "navbot bench competence: out of memory\n");
        return false;
    }
    int n = 0, nj = 0;
    float taken[3 * COMP_MAX_CROWD];
    for (int mode = 0; mode < MODE_COUNT; mode++) {
        if (!a->modes[mode]) continue;
        /* Each map and mode draws from its own stream. */
        uint64_t rng = fnv(fnv(FNV_START ^ a->seed, label, strlen(label)), MODE_NAMES[mode], strlen(MODE_NAMES[mode]));
        uint32_t sims = mode == MODE_SOLO ? a->missions : groups;
        uint32_t per = mode == MODE_SOLO ? 1 : a->crowd;
        for (uint32_t g = 0; g < sims; g++) {
            jobs[nj] = (Job){ .mode = mode, .first = n, .count = 0 };
            float goal[3];
            uint32_t goal_area = NAV_NO_AREA;
            if (mode == MODE_SHARED) {
                if (!mission_pick_point(pk, &rng, NULL, 0, goal, &goal_area)) goto no_room;
                canonical(goal);
            }
            for (uint32_t b = 0; b < per; b++) {
                CompMission *cm = &ms[n];
                bool ok = mode == MODE_SHARED ? mission_pick_start(pk, &rng, goal, goal_area, taken, (int)b, &cm->m)
                                              : mission_pick(pk, &rng, taken, (int)b, &cm->m);
                if (!ok) goto no_room;
                canonical(cm->m.start);
                canonical(cm->m.goal);
                memcpy(&taken[3 * b], cm->m.start, sizeof cm->m.start);
                cm->mode = mode;
                cm->job = nj;
                cm->sim = (int)g;
                cm->limit_ticks = limit_ticks(a, cm->m.time, SIM_DEFAULT_TICK_HZ);
                n++;
                jobs[nj].count++;
            }
            nj++;
        }
    }
    *out = ms;
    *count = n;
    *jobs_out = jobs;
    *job_count = nj;
    return true;
no_room:
    fprintf(cx->err,
            "navbot bench competence: %s: found only %d missions (no free, connected start and goal %.1f m apart in "
            "%d draws)\n",
            label, n, a->min_distance, MISSION_MAX_TRIES);
    free(ms);
    free(jobs);
    return false;
}

static uint64_t missions_hash(uint64_t h, const char *label, const CompMission *ms, int n)
{
    h = fnv(h, label, strlen(label) + 1);
    for (int i = 0; i < n; i++) {
        const CompMission *c = &ms[i];
        int32_t mode = c->mode, job = c->job;
        h = fnv(h, &mode, sizeof mode);
        h = fnv(h, &job, sizeof job);
        h = fnv(h, c->m.start, sizeof c->m.start);
        h = fnv(h, c->m.goal, sizeof c->m.goal);
        h = fnv(h, &c->m.time, sizeof c->m.time);
        h = fnv(h, &c->limit_ticks, sizeof c->limit_ticks);
    }
    return h;
}

/* }======= */

/* {======= running one sim ======= */

typedef struct RunCtx {
    const CompArgs *a;
    const char *root;
    const NavWorld *w;
    int cls;
} RunCtx;

static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void snapshot(NavSession *s, uint32_t id, BotResult *r)
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

/* Runs one sim as `navbot run` would (same placement, goals, brain and
** seed) until each bot arrived, faulted or ran out of its time. */
static void run_job(const RunCtx *c, const CompMission *ms, int count, BotResult *res)
{
    memset(res, 0, sizeof *res * (size_t)count);
    for (int i = 0; i < count; i++) res[i].arrival_time = -1.0f;
    NavError e;
    nav_error_clear(&e);
    NavSession *s =
        session_create(c->w, &(NavSessionDesc){ .root = c->root, .seed = c->a->seed, .log = log_none }, &e);
    if (!s) {
        for (int i = 0; i < count; i++) {
            res[i].faulted = res[i].done = 1;
            snprintf(res[i].error, sizeof res[i].error, "session: %.140s", e.message);
        }
        return;
    }
    NavSim *sim = session_sim(s);
    uint32_t most = 0;
    int placed = 0;
    for (int i = 0; i < count; i++) {
        float pos[3];
        int id = -1;
        nav_error_clear(&e);
        if (sim_place_free(sim, c->cls, ms[i].m.start, 0, pos))
            id = session_add_bot(s, NULL, &(NavBotDesc){ .cls = c->cls, .pos = { pos[0], pos[1], pos[2] } }, &e);
        if (id != i) {
            /* Cannot happen for a picked mission; said, never hidden. */
            for (int k = i; k < count; k++) {
                res[k].faulted = res[k].done = 1;
                snprintf(res[k].error, sizeof res[k].error, "could not place the bot: %.120s",
                         e.message[0] ? e.message : "no free spot");
                memcpy(res[k].pos, ms[k].m.start, sizeof res[k].pos);
            }
            break;
        }
        sim_bot_push_goal(sim, (uint32_t)id, ms[i].m.goal, 0.0f);
        session_attach_brain(s, (uint32_t)id, COMP_BRAIN);
        if (ms[i].limit_ticks > most) most = ms[i].limit_ticks;
        placed++;
    }
    for (uint32_t t = 0; t < most; t++) {
        bool busy = false;
        for (int i = 0; i < placed; i++) {
            if (res[i].done) continue;
            const NavBot *b = sim_bot(sim, (uint32_t)i);
            if (sim_bot_arrived(sim, (uint32_t)i)) {
                res[i].arrived = 1;
                res[i].arrival_time = (float)b->arrival_time;
                snapshot(s, (uint32_t)i, &res[i]);
            } else if (session_bot_faulted(s, (uint32_t)i) || t >= ms[i].limit_ticks) {
                snapshot(s, (uint32_t)i, &res[i]);
            } else {
                busy = true;
            }
        }
        if (!busy) break;
        session_step(s);
    }
    for (int i = 0; i < placed; i++) {
        if (res[i].done) continue;
        if (sim_bot_arrived(sim, (uint32_t)i)) {
            res[i].arrived = 1;
            res[i].arrival_time = (float)sim_bot(sim, (uint32_t)i)->arrival_time;
        }
        snapshot(s, (uint32_t)i, &res[i]);
    }
    session_destroy(s);
}

/* }======= */

/* {======= child processes ======= */

typedef struct Child {
    pid_t pid;
    int fd;
    int job;
    size_t got;               /* bytes read into the job's results */
} Child;

static bool write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool spawn(const RunCtx *c, const CompMission *ms, const Job *j, int job, BotResult *scratch, Child *out)
{
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        alarm(COMP_CHILD_SECONDS);
        run_job(c, &ms[j->first], j->count, scratch);
        bool ok = write_all(fds[1], scratch, sizeof *scratch * (size_t)j->count);
        _exit(ok ? 0 : 3);
    }
    close(fds[1]);
    *out = (Child){ .pid = pid, .fd = fds[0], .job = job, .got = 0 };
    return true;
}

/* A child that died before writing its results: every bot of its sim is
** counted as faulted, with the reason. */
static void reap(Child *ch, const Job *j, BotResult *res)
{
    int status = 0;
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (ch->got == sizeof *res * (size_t)j->count && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    for (int i = 0; i < j->count; i++) {
        BotResult *r = &res[i];
        memset(r, 0, sizeof *r);
        r->arrival_time = -1.0f;
        r->faulted = r->done = 1;
        if (WIFSIGNALED(status))
            snprintf(r->error, sizeof r->error, "the sim's process was killed by signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(r->error, sizeof r->error, "the sim's process ended with status %d and no results",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

static void progress(const CliContext *cx, bool tty, const char *label, int done, int total)
{
    if (!tty) return;
    fprintf(cx->err, "\rbench competence: %-24s %d/%d sims%s", label, done, total, done == total ? "\n" : "");
    fflush(cx->err);
}

/* Every job of a map; results land at res[mission index]. */
static void run_all(const CliContext *cx, const RunCtx *c, const char *label, const CompMission *ms,
                    const Job *jobs, int njobs, BotResult *res)
{
    bool tty = isatty(fileno(cx->err)) == 1;
    int jobs_at_once = (int)c->a->jobs;
    if (jobs_at_once <= 1 || njobs <= 1) {
        for (int k = 0; k < njobs; k++) {
            run_job(c, &ms[jobs[k].first], jobs[k].count, &res[jobs[k].first]);
            progress(cx, tty, label, k + 1, njobs);
        }
        return;
    }
    BotResult scratch[COMP_MAX_CROWD];
    Child kids[COMP_MAX_JOBS];
    int running = 0, next = 0, done = 0;
    fflush(cx->out);
    fflush(cx->err);
    while (done < njobs) {
        while (running < jobs_at_once && next < njobs) {
            if (!spawn(c, ms, &jobs[next], next, scratch, &kids[running])) {
                run_job(c, &ms[jobs[next].first], jobs[next].count, &res[jobs[next].first]);
                progress(cx, tty, label, ++done, njobs);
            } else {
                running++;
            }
            next++;
        }
        if (running <= 0 || running > COMP_MAX_JOBS) continue;
        struct pollfd pfd[COMP_MAX_JOBS];
        for (int k = 0; k < running; k++) pfd[k] = (struct pollfd){ .fd = kids[k].fd, .events = POLLIN };
        if (poll(pfd, (nfds_t)running, -1) < 0 && errno != EINTR) break;
        for (int k = 0; k < running; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            Child *ch = &kids[k];
            const Job *j = &jobs[ch->job];
            char *dst = (char *)&res[j->first];
            size_t want = sizeof *res * (size_t)j->count;
            ssize_t got;
            if (ch->got < want) got = read(ch->fd, dst + ch->got, want - ch->got);
            else {
                char sink[256];
                got = read(ch->fd, sink, sizeof sink);
            }
            if (got < 0 && errno == EINTR) continue;
            if (got > 0) {
                if (ch->got < want) ch->got += (size_t)got;
                continue;
            }
            close(ch->fd);
            reap(ch, j, &res[j->first]);
            progress(cx, tty, label, ++done, njobs);
            kids[k] = kids[--running];
            pfd[k] = pfd[running];
            k--;
        }
    }
}

/* }======= */

/* {======= summaries ======= */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Counts one mode's bots into s; their ratios go to ratios[0..), how many
** returned. */
static int summarise(const CompMission *ms, const BotResult *res, int n, int mode, Summary *s, double *ratios)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (ms[i].mode != mode) continue;
        s->missions++;
        s->faults += res[i].faulted;
        s->stuck += res[i].stuck_max > COMP_STUCK_SECONDS;
        if (!res[i].arrived) continue;
        s->arrived++;
        ratios[k++] = res[i].arrival_time / (ms[i].m.time / 100.0);
    }
    return k;
}

/* Mean and p95 (nearest rank) of ratios[0..n); sorts them. */
static void ratio_stats(double *ratios, int n, Summary *s)
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

/* {======= failures ======= */


static void add_point(CliText *t, const float p[3])
{
    cli_text_add(t, "%.2f,%.2f,%.2f", (double)p[0], (double)p[1], (double)p[2]);
}

/* The `navbot run` line that replays mission i's sim. */
static void reproduce(CliText *t, const CompArgs *a, const char *map, const CompMission *ms, const Job *j,
                      uint32_t max_ticks)
{
    cli_text_add(t, "navbot run %s", map);
    for (int k = j->first; k < j->first + j->count; k++) {
        cli_text_add(t, " --bot " COMP_BRAIN "@");
        add_point(t, ms[k].m.start);
        if (j->mode == MODE_CROWD) {
            cli_text_add(t, " --bot-goal ");
            add_point(t, ms[k].m.goal);
        }
    }
    if (j->mode != MODE_CROWD) {
        cli_text_add(t, " --goal ");
        add_point(t, ms[j->first].m.goal);
    }
    if (a->cls_name) cli_text_add(t, " --class %s", a->cls_name);
    cli_text_add(t, " --seed %u --until-arrived --max-ticks %u", (unsigned)a->seed, (unsigned)max_ticks);
}

static uint32_t job_max_ticks(const CompMission *ms, const Job *j)
{
    uint32_t most = 0;
    for (int k = j->first; k < j->first + j->count; k++)
        if (ms[k].limit_ticks > most) most = ms[k].limit_ticks;
    return most;
}

static float hdist(const float a[3], const float b[3])
{
    return hypotf(a[0] - b[0], a[1] - b[1]);
}

static void print_failure(const CliContext *cx, const Failure *f)
{
    CliText t = { 0 };
    cli_text_add(&t, "FAIL %s %s sim %d bot %d: start ", f->map, MODE_NAMES[f->mode], f->sim, f->bot);
    add_point(&t, f->m.start);
    cli_text_add(&t, " goal ");
    add_point(&t, f->m.goal);
    cli_text_add(&t, ", optimum %.1f s, limit %.1f s\n     ended at ", f->m.time / 100.0,
             f->limit_ticks / (double)SIM_DEFAULT_TICK_HZ);
    add_point(&t, f->r.pos);
    cli_text_add(&t, ", %.1f m from the goal; state \"%s\"; stuck %.1f s in all, longest %.1f s",
             (double)hdist(f->r.pos, f->m.goal), f->r.say, (double)f->r.stuck_total, (double)f->r.stuck_max);
    if (f->r.faulted) cli_text_add(&t, "; fault: %s", f->r.error[0] ? f->r.error : "(no message)");
    cli_text_add(&t, "\n     %s\n", f->reproduce ? f->reproduce : "");
    if (t.s) fputs(t.s, cx->err);
    free(t.s);
}

static void json_point(JsonWriter *j, const char *key, const float p[3])
{
    json_key(j, key);
    json_array_begin(j);
    for (int k = 0; k < 3; k++) json_number(j, p[k]);
    json_array_end(j);
}

static void json_failure(JsonWriter *j, const Failure *f)
{
    json_object_begin(j);
    json_key(j, "map"); json_string(j, f->map);
    json_key(j, "mode"); json_string(j, MODE_NAMES[f->mode]);
    json_key(j, "sim"); json_int(j, f->sim);
    json_key(j, "bot"); json_int(j, f->bot);
    json_point(j, "start", f->m.start);
    json_point(j, "goal", f->m.goal);
    json_key(j, "optimum_s"); json_number(j, f->m.time / 100.0);
    json_key(j, "limit_s"); json_number(j, f->limit_ticks / (double)SIM_DEFAULT_TICK_HZ);
    json_point(j, "end", f->r.pos);
    json_key(j, "distance_left"); json_number(j, hdist(f->r.pos, f->m.goal));
    json_key(j, "state"); json_string(j, f->r.say);
    json_key(j, "stuck_longest"); json_number(j, f->r.stuck_max);
    json_key(j, "stuck_time"); json_number(j, f->r.stuck_total);
    json_key(j, "faulted"); json_bool(j, f->r.faulted);
    json_key(j, "error");
    if (f->r.error[0]) json_string(j, f->r.error);
    else json_null(j);
    json_key(j, "reproduce"); json_string(j, f->reproduce ? f->reproduce : "");
    json_object_end(j);
}

/* }======= */

/* {======= output ======= */

static void json_summary(JsonWriter *j, const Summary *s)
{
    json_key(j, "missions"); json_int(j, s->missions);
    json_key(j, "arrived"); json_int(j, s->arrived);
    json_key(j, "arrived_pct"); json_number(j, s->missions ? 100.0 * s->arrived / s->missions : NAN);
    json_key(j, "ratio_mean"); json_number(j, s->ratio_mean);
    json_key(j, "ratio_p95"); json_number(j, s->ratio_p95);
    json_key(j, "stuck_over_3s"); json_int(j, s->stuck);
    json_key(j, "faults"); json_int(j, s->faults);
}

static void text_row(FILE *o, const char *map, const char *mode, const Summary *s)
{
    char mean[16], p95[16];
    if (isnan(s->ratio_mean)) snprintf(mean, sizeof mean, "-"), snprintf(p95, sizeof p95, "-");
    else snprintf(mean, sizeof mean, "%.2f", s->ratio_mean), snprintf(p95, sizeof p95, "%.2f", s->ratio_p95);
    fprintf(o, "%-24s %-7s %8d %8d %6.1f %10s %9s %9d %7d\n", map, mode, s->missions, s->arrived,
            s->missions ? 100.0 * s->arrived / s->missions : 0.0, mean, p95, s->stuck, s->faults);
}

static void text_header(FILE *o)
{
    fprintf(o, "%-24s %-7s %8s %8s %6s %10s %9s %9s %7s\n", "map", "mode", "missions", "arrived", "%", "ratio_mean",
            "ratio_p95", "stuck>3s", "faults");
}

/* }======= */


/* {======= one map ======= */

static bool gather_failure(Gathered *g, const CompArgs *a, const MapRun *mr, const CompMission *ms, const Job *jobs,
                           const BotResult *r, int i)
{
    if (g->fail_count == g->fail_cap) {
        int cap = g->fail_cap ? 2 * g->fail_cap : 16;
        Failure *f = realloc(g->fail, sizeof *f * (size_t)cap);
        if (!f) return false;
        g->fail = f;
        g->fail_cap = cap;
    }
    const CompMission *m = &ms[i];
    const Job *j = &jobs[m->job];
    Failure *f = &g->fail[g->fail_count++];
    memset(f, 0, sizeof *f);
    snprintf(f->map, sizeof f->map, "%s", mr->name);
    f->mode = m->mode;
    f->sim = m->sim;
    f->bot = i - j->first;
    f->m = m->m;
    f->limit_ticks = m->limit_ticks;
    f->r = *r;
    CliText t = { 0 };
    reproduce(&t, a, mr->path, ms, j, job_max_ticks(ms, j));
    f->reproduce = t.s;
    return true;
}

static bool keep_ratios(Gathered *g, int mode, const double *r, int n)
{
    if (n <= 0) return true;
    if (g->nratios[mode] + n > g->ratio_cap[mode]) {
        int cap = 2 * (g->nratios[mode] + n) + 64;
        double *d = realloc(g->ratios[mode], sizeof *d * (size_t)cap);
        if (!d) return false;
        g->ratios[mode] = d;
        g->ratio_cap[mode] = cap;
    }
    memcpy(g->ratios[mode] + g->nratios[mode], r, sizeof *r * (size_t)n);
    g->nratios[mode] += n;
    return true;
}

/* Runs every mode on one map into mr, its failures (the first --failures
** per mode) printed to stderr and kept in g. False when the map could not
** be run (reported). */
static bool bench_map(const CliContext *cx, const CompArgs *a, const char *root, MapRun *mr, Gathered *g)
{
    NavError e;
    nav_error_clear(&e);
    map_label(mr->path, mr->name, sizeof mr->name);
    NavWorld *w = cli_load_map(cx, "bench competence", mr->path, &e);
    if (!w) return false;
    int cls = 0;
    if (world_class_count(w) == 0) {
        fprintf(cx->err, "navbot bench competence: %s has no mover classes\n", mr->path);
        world_destroy(w);
        return false;
    }
    if (a->cls_name && (cls = world_find_class(w, a->cls_name)) < 0) {
        fprintf(cx->err, "navbot bench competence: %s has no class '%s'\n", mr->path, a->cls_name);
        world_destroy(w);
        return false;
    }
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = a->seed }, &e);
    MissionPicker *pk =
        sim ? mission_picker_create(sim, &(MissionDesc){ .cls = cls, .min_distance = (float)a->min_distance }, &e)
            : NULL;
    if (!pk) {
        fprintf(cx->err, "navbot bench competence: %s: %s\n", mr->path, e.message);
        sim_destroy(sim);
        world_destroy(w);
        return false;
    }
    CompMission *ms = NULL;
    Job *jobs = NULL;
    int n = 0, njobs = 0;
    bool ok = make_missions(cx, a, mr->name, pk, &ms, &n, &jobs, &njobs);
    mission_picker_destroy(pk);
    sim_destroy(sim);
    if (!ok) {
        world_destroy(w);
        return false;
    }
    mr->hash = missions_hash(FNV_START, mr->name, ms, n);
    BotResult *res = calloc((size_t)n + 1, sizeof *res);
    double *ratios = malloc(sizeof *ratios * ((size_t)n + 1));
    if (res && ratios) {
        RunCtx rc = { .a = a, .root = root, .w = w, .cls = cls };
        run_all(cx, &rc, mr->name, ms, jobs, njobs, res);
        for (int mode = 0; mode < MODE_COUNT && ok; mode++) {
            if (!a->modes[mode]) continue;
            int nr = summarise(ms, res, n, mode, &mr->s[mode], ratios);
            ok = keep_ratios(g, mode, ratios, nr);
            ratio_stats(ratios, nr, &mr->s[mode]);
            uint32_t shown = 0;
            for (int i = 0; i < n && shown < a->failures && ok; i++) {
                if (ms[i].mode != mode || res[i].arrived) continue;
                ok = gather_failure(g, a, mr, ms, jobs, &res[i], i);
                if (ok) print_failure(cx, &g->fail[g->fail_count - 1]);
                shown++;
            }
        }
    } else {
        ok = false;
    }
    if (!ok) fprintf(cx->err, "navbot bench competence: out of memory\n");
    free(res);
    free(ratios);
    free(ms);
    free(jobs);
    world_destroy(w);
    return ok;
}

/* }======= */

static void write_json(const CliContext *cx, const CompArgs *a, const MapRun *runs, const Summary *total,
                       const Gathered *g, uint64_t hash, double wall)
{
    JsonWriter j;
    char hs[32];
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "benchmark"); json_string(&j, "competence");
    json_key(&j, "brain"); json_string(&j, COMP_BRAIN);
    json_key(&j, "class");
    if (a->cls_name) json_string(&j, a->cls_name);
    else json_null(&j);
    json_key(&j, "seed"); json_int(&j, a->seed);
    json_key(&j, "missions_per_mode"); json_int(&j, a->missions);
    json_key(&j, "crowd"); json_int(&j, a->crowd);
    json_key(&j, "time_factor"); json_number(&j, a->time_factor);
    json_key(&j, "time_margin"); json_number(&j, a->time_margin);
    json_key(&j, "min_distance"); json_number(&j, a->min_distance);
    snprintf(hs, sizeof hs, "%016llx", (unsigned long long)hash);
    json_key(&j, "missions_hash"); json_string(&j, hs);
    json_key(&j, "wall_s"); json_number(&j, wall);
    json_key(&j, "runs");
    json_array_begin(&j);
    for (int i = 0; i < a->map_count; i++) {
        if (!runs[i].ok) continue;
        for (int m = 0; m < MODE_COUNT; m++) {
            if (!a->modes[m]) continue;
            json_object_begin(&j);
            json_key(&j, "map"); json_string(&j, runs[i].name);
            json_key(&j, "path"); json_string(&j, runs[i].path);
            json_key(&j, "mode"); json_string(&j, MODE_NAMES[m]);
            json_key(&j, "bots_per_sim"); json_int(&j, m == MODE_SOLO ? 1 : a->crowd);
            json_summary(&j, &runs[i].s[m]);
            snprintf(hs, sizeof hs, "%016llx", (unsigned long long)runs[i].hash);
            json_key(&j, "map_missions_hash"); json_string(&j, hs);
            json_object_end(&j);
        }
    }
    json_array_end(&j);
    json_key(&j, "totals");
    json_array_begin(&j);
    for (int m = 0; m <= MODE_COUNT; m++) {
        if (m < MODE_COUNT && !a->modes[m]) continue;
        json_object_begin(&j);
        json_key(&j, "mode"); json_string(&j, m < MODE_COUNT ? MODE_NAMES[m] : "all");
        json_summary(&j, &total[m]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "failures");
    json_array_begin(&j);
    for (int i = 0; i < g->fail_count; i++) json_failure(&j, &g->fail[i]);
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

static void write_text(const CliContext *cx, const CompArgs *a, const MapRun *runs, const Summary *total,
                       uint64_t hash, double wall)
{
    FILE *o = cx->out;
    fprintf(o,
            "competence: bots/%s.lua on random missions, class %s, seed %u, %u missions per map and mode (crowd and "
            "shared: sims of %u bots), time limit %.3g x the routed optimum + %.3g s\n\n",
            COMP_BRAIN, a->cls_name ? a->cls_name : "the map's first", (unsigned)a->seed, (unsigned)a->missions,
            (unsigned)a->crowd, a->time_factor, a->time_margin);
    text_header(o);
    for (int i = 0; i < a->map_count; i++) {
        if (!runs[i].ok) continue;
        for (int m = 0; m < MODE_COUNT; m++)
            if (a->modes[m]) text_row(o, runs[i].name, MODE_NAMES[m], &runs[i].s[m]);
    }
    fprintf(o, "\n");
    for (int m = 0; m <= MODE_COUNT; m++)
        if (m == MODE_COUNT || a->modes[m]) text_row(o, "total", m < MODE_COUNT ? MODE_NAMES[m] : "all", &total[m]);
    fprintf(o, "\nratio: arrival time / routed optimum, over the bots that arrived; stuck>3s: bots whose longest "
               "stuck spell passed 3 s\nmissions hash %016llx; %.1f s\n",
            (unsigned long long)hash, wall);
}

int bench_competence_run(const CliContext *cx, int argc, char **argv);
int bench_competence_run(const CliContext *cx, int argc, char **argv)
{
    CompArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    char root[COMP_PATH_MAX];
    if (!find_root(&a, root, sizeof root)) {
        fprintf(cx->err, "navbot bench competence: cannot find bots/" COMP_BRAIN
                         ".lua here or beside the executable (run from the project's root, or give --root DIR)\n");
        return CLI_BAD_INPUT;
    }
    if (!has_project(root)) {
        fprintf(cx->err, "navbot bench competence: --root %s: no bots/" COMP_BRAIN ".lua there\n", root);
        return CLI_BAD_INPUT;
    }
    char *found[COMP_MAX_MAPS];
    int nfound = 0;
    if (a.map_count == 0) {
        nfound = default_maps(root, found, COMP_MAX_MAPS);
        for (int i = 0; i < nfound; i++) a.maps[a.map_count++] = found[i];
    }
    MapRun *runs = calloc((size_t)a.map_count + 1, sizeof *runs);
    Gathered g;
    memset(&g, 0, sizeof g);
    /* A map that is not there stops the run before any bot runs. */
    for (int i = 0; i < a.map_count && rc == CLI_OK; i++) {
        if (strncmp(a.maps[i], CLI_GENERATED_PREFIX, 9) == 0 || is_file(a.maps[i])) continue;
        fprintf(cx->err, "navbot bench competence: %s: %s\n", a.maps[i],
                is_dir(a.maps[i]) ? "is a folder, not a map" : "no such map file");
        rc = CLI_BAD_INPUT;
    }
    if (!runs) rc = CLI_BAD_INPUT;
    if (rc != CLI_OK) goto done;

    uint64_t t0 = timer_now_ns(), hash = FNV_START;
    for (int i = 0; i < a.map_count; i++) {
        runs[i].path = a.maps[i];
        runs[i].ok = bench_map(cx, &a, root, &runs[i], &g);
        if (!runs[i].ok) rc = CLI_BAD_INPUT;
        else hash = fnv(hash, &runs[i].hash, sizeof runs[i].hash);
    }
    double wall = timer_ms_since(t0) / 1e3;

    Summary total[MODE_COUNT + 1];
    memset(total, 0, sizeof total);
    double *all = NULL;
    int nall = 0;
    for (int m = 0; m < MODE_COUNT; m++) nall += g.nratios[m];
    all = malloc(sizeof *all * ((size_t)nall + 1));
    nall = 0;
    for (int m = 0; m <= MODE_COUNT; m++) {
        for (int i = 0; i < a.map_count; i++) {
            if (!runs[i].ok) continue;
            for (int k = 0; k < MODE_COUNT; k++) {
                if (!a.modes[k] || (m < MODE_COUNT && k != m)) continue;
                total[m].missions += runs[i].s[k].missions;
                total[m].arrived += runs[i].s[k].arrived;
                total[m].stuck += runs[i].s[k].stuck;
                total[m].faults += runs[i].s[k].faults;
            }
        }
        if (m < MODE_COUNT) {
            if (all && g.nratios[m] > 0) {
                memcpy(all + nall, g.ratios[m], sizeof *all * (size_t)g.nratios[m]);
                nall += g.nratios[m];
            }
            ratio_stats(g.ratios[m], g.nratios[m], &total[m]);
        } else {
            ratio_stats(all, all ? nall : 0, &total[m]);
        }
    }
    free(all);
    if (a.json) write_json(cx, &a, runs, total, &g, hash, wall);
    else write_text(cx, &a, runs, total, hash, wall);

done:
    for (int i = 0; i < g.fail_count; i++) free(g.fail[i].reproduce);
    free(g.fail);
    for (int m = 0; m < MODE_COUNT; m++) free(g.ratios[m]);
    free(runs);
    for (int k = 0; k < nfound; k++) free(found[k]);
    return rc;
}

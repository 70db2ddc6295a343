/*
** cmd_soak.c — `navbot soak [MAPS...] [--ticks N] [--json]`: long runs on
** every bundled map, with the world changing under the bots, and whether
** memory stays flat (scenario/soak.h does the runs). Progress goes to
** stderr, the table (or JSON) to stdout. Exit 0 when every map passed, 3
** when one did not (memory grew, the hashes differ, a router went over its
** cap, a reload did not take, a bot faulted), 1 for a map that cannot be
** loaded.
*/
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "core/json.h"
#include "scenario/soak.h"

#define SOAK_MAX_MAPS 64
#define SOAK_PATH_MAX 1024

typedef struct SoakArgs {
    const char *maps[SOAK_MAX_MAPS];
    int map_count;
    uint32_t ticks, rts, runners, seed;
    bool json;
    const char *root;
} SoakArgs;

static int parse(const CliContext *cx, int argc, char **argv, SoakArgs *a)
{
    const CliCommand *cmd = &cli_cmd_soak;
    memset(a, 0, sizeof *a);
    a->ticks = 100000;
    a->seed = 1;
    a->rts = 48;
    a->runners = 6;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if ((r = cli_take_value("--ticks", argc, argv, &i, &v)) != 0) {
            if (r < 0 || !cli_parse_u32(v, &a->ticks) || a->ticks < 100 || a->ticks > NAV_LIMIT_TICKS)
                return cli_usage_error(cx, cmd, "--ticks: expected 100 to %u (the limit)", NAV_LIMIT_TICKS);
        } else if ((r = cli_take_value("--rts", argc, argv, &i, &v)) != 0) {
            if (r < 0 || !cli_parse_u32(v, &a->rts) || a->rts > 10000)
                return cli_usage_error(cx, cmd, "--rts: expected 0 to 10000");
        } else if ((r = cli_take_value("--runners", argc, argv, &i, &v)) != 0) {
            if (r < 0 || !cli_parse_u32(v, &a->runners) || a->runners > 1000)
                return cli_usage_error(cx, cmd, "--runners: expected 0 to 1000");
        } else if ((r = cli_take_value("--seed", argc, argv, &i, &v)) != 0) {
            if (r < 0 || !cli_parse_u32(v, &a->seed))
                return cli_usage_error(cx, cmd, "--seed: expected a whole number");
        } else if ((r = cli_take_value("--root", argc, argv, &i, &v)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--root: which folder?");
            a->root = v;
        } else if (argv[i][0] == '-') {
            return cli_usage_error(cx, cmd, "unknown option '%s'", argv[i]);
        } else {
            if (a->map_count == SOAK_MAX_MAPS) return cli_usage_error(cx, cmd, "at most %d maps", SOAK_MAX_MAPS);
            a->maps[a->map_count++] = argv[i];
        }
    }
    if (a->rts + a->runners == 0) return cli_usage_error(cx, cmd, "--rts 0 and --runners 0: no bots to run");
    return CLI_OK;
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Every .lua in root/maps, sorted; -1 when out of memory. */
static int bundled_maps(const char *root, char **out, int cap)
{
    char dir[SOAK_PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/maps", root);
    int n = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
        char path[2 * SOAK_PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!(out[n] = nav_strdup(path))) {
            /* A soak over fewer maps than asked would pass for a whole one. */
            closedir(d);
            for (int i = 0; i < n; i++) nav_free(out[i]);
            return -1;
        }
        n++;
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, by_name);
    return n;
}

static void label_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

static void to_stderr(void *user, const char *line)
{
    const CliContext *cx = user;
    fprintf(cx->err, "%s\n", line);
    fflush(cx->err);
}

typedef struct MapSoak {
    char label[128];
    SoakResult r;
    bool ran;
} MapSoak;

static double mib(size_t b) { return (double)b / 1048576.0; }

static void write_text(const CliContext *cx, const SoakArgs *a, const MapSoak *ms, int n)
{
    fprintf(cx->out, "soak: %u ticks a run, two runs a map, %u rts + %u runners, seed %u\n", a->ticks, a->rts,
            a->runners, a->seed);
    fprintf(cx->out,
            "flat: after the first %d %% of the ticks, each meter's maximum in the second half is within\n"
            "max(%d %%, %u KiB) of its maximum in the first half (MiB: first half -> second half)\n",
            SOAK_WARMUP_PERCENT, SOAK_FLAT_PERCENT, SOAK_FLAT_BYTES / 1024);
    for (int i = 0; i < n; i++) {
        if (!ms[i].ran) continue;
        const SoakResult *r = &ms[i].r;
        fprintf(cx->out, "\n%-10s %s%s%s\n", ms[i].label, r->passed ? "pass" : "FAIL", r->passed ? "" : ": ", r->why);
        for (int k = 0; k < 2; k++) {
            const SoakRun *u = &r->run[k];
            fprintf(cx->out,
                    "  run %d  hash %016llx  %.1f s  %u bots  %u goals, %u arrived  obstacles +%u -%u  doors %u"
                    "  reloads %u  faults %u\n",
                    k + 1, (unsigned long long)u->hash, u->seconds, u->bots, u->goals, u->arrivals, u->obstacles_added,
                    u->obstacles_removed, u->door_changes, u->reloads, u->faulted);
            fprintf(cx->out, "        ");
            for (int m = 0; m < SOAK_METERS; m++)
                fprintf(cx->out, " %s %.2f -> %.2f%s", soak_meter_name(m), mib(u->m[m].first_max),
                        mib(u->m[m].last_max), u->m[m].flat ? "" : " (grew)");
            fprintf(cx->out, "  route cap %.2f\n", mib(u->route_cap));
        }
        fprintf(cx->out, "  hashes %s\n", r->same_hash ? "the same" : "DIFFER");
    }
    int passed = 0, ran = 0;
    for (int i = 0; i < n; i++) ran += ms[i].ran, passed += ms[i].ran && ms[i].r.passed;
    fprintf(cx->out, "\n%d of %d maps passed\n", passed, ran);
}

static void write_json(const CliContext *cx, const SoakArgs *a, const MapSoak *ms, int n)
{
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "ticks");
    json_int(&j, a->ticks);
    json_key(&j, "seed");
    json_int(&j, a->seed);
    json_key(&j, "rts");
    json_int(&j, a->rts);
    json_key(&j, "runners");
    json_int(&j, a->runners);
    json_key(&j, "maps");
    json_array_begin(&j);
    for (int i = 0; i < n; i++) {
        if (!ms[i].ran) continue;
        const SoakResult *r = &ms[i].r;
        json_object_begin(&j);
        json_key(&j, "map");
        json_string(&j, ms[i].label);
        json_key(&j, "passed");
        json_bool(&j, r->passed);
        json_key(&j, "why");
        json_string(&j, r->why);
        json_key(&j, "same_hash");
        json_bool(&j, r->same_hash);
        json_key(&j, "runs");
        json_array_begin(&j);
        for (int k = 0; k < 2; k++) {
            const SoakRun *u = &r->run[k];
            char hash[24];
            snprintf(hash, sizeof hash, "%016llx", (unsigned long long)u->hash);
            json_object_begin(&j);
            json_key(&j, "hash");
            json_string(&j, hash);
            json_key(&j, "seconds");
            json_number(&j, u->seconds);
            json_key(&j, "bots");
            json_int(&j, u->bots);
            json_key(&j, "goals");
            json_int(&j, u->goals);
            json_key(&j, "arrivals");
            json_int(&j, u->arrivals);
            json_key(&j, "obstacles_added");
            json_int(&j, u->obstacles_added);
            json_key(&j, "obstacles_removed");
            json_int(&j, u->obstacles_removed);
            json_key(&j, "door_changes");
            json_int(&j, u->door_changes);
            json_key(&j, "reloads");
            json_int(&j, u->reloads);
            json_key(&j, "faulted");
            json_int(&j, u->faulted);
            json_key(&j, "route_cap");
            json_int(&j, (int64_t)u->route_cap);
            json_key(&j, "route_under_cap");
            json_bool(&j, u->route_under_cap);
            json_key(&j, "meters");
            json_object_begin(&j);
            for (int m = 0; m < SOAK_METERS; m++) {
                json_key(&j, soak_meter_name(m));
                json_object_begin(&j);
                json_key(&j, "first_half_max");
                json_int(&j, (int64_t)u->m[m].first_max);
                json_key(&j, "second_half_max");
                json_int(&j, (int64_t)u->m[m].last_max);
                json_key(&j, "peak");
                json_int(&j, (int64_t)u->m[m].peak);
                json_key(&j, "end");
                json_int(&j, (int64_t)u->m[m].end);
                json_key(&j, "flat");
                json_bool(&j, u->m[m].flat);
                json_object_end(&j);
            }
            json_object_end(&j);
            json_object_end(&j);
        }
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

static int run_soak(const CliContext *cx, int argc, char **argv)
{
    SoakArgs a;
    int rc = parse(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    char root[SOAK_PATH_MAX];
    if (a.root) snprintf(root, sizeof root, "%s", a.root);
    else if (!nav_lua_bundled_root(root, sizeof root)) {
        fprintf(cx->err, "navbot soak: cannot find navbot's bundled bots/ and lua/ beside the executable "
                         "(give --root DIR)\n");
        return CLI_BAD_INPUT;
    }
    char *found[SOAK_MAX_MAPS];
    int nfound = 0;
    if (a.map_count == 0) {
        nfound = bundled_maps(root, found, SOAK_MAX_MAPS);
        if (nfound < 0) {
            fprintf(cx->err, "navbot soak: out of memory listing the maps\n");
            return CLI_BAD_INPUT;
        }
        for (int i = 0; i < nfound; i++) a.maps[a.map_count++] = found[i];
        if (!nfound) {
            fprintf(cx->err, "navbot soak: no maps in %s/maps\n", root);
            return CLI_BAD_INPUT;
        }
    }
    /* The brains' copies live in a folder of their own, removed at the end. */
    const char *tmpdir = getenv("TMPDIR");
    char work[SOAK_PATH_MAX];
    snprintf(work, sizeof work, "%s/navbot-soak-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    MapSoak *ms = nav_calloc((size_t)a.map_count, sizeof *ms);
    if (!ms || !mkdtemp(work)) {
        fprintf(cx->err, "navbot soak: cannot make a work folder %s: %s\n", work, strerror(errno));
        nav_free(ms);
        for (int k = 0; k < nfound; k++) nav_free(found[k]);
        return CLI_BAD_INPUT;
    }
    rc = CLI_OK;
    for (int i = 0; i < a.map_count && rc != CLI_BAD_INPUT; i++) {
        NavError e;
        nav_error_clear(&e);
        label_of(a.maps[i], ms[i].label, sizeof ms[i].label);
        NavWorld *w = cli_load_map(cx, "soak", a.maps[i], &e);
        if (!w) {
            rc = CLI_BAD_INPUT;
            break;
        }
        SoakDesc d = { .w = w,
                       .label = ms[i].label,
                       .root = root,
                       .work = work,
                       .ticks = a.ticks,
                       .seed = a.seed,
                       .rts = a.rts,
                       .runners = a.runners,
                       .progress = to_stderr,
                       .user = (void *)cx };
        if (NAV_FAILED(soak_map(&d, &ms[i].r, &e))) {
            cli_print_error(cx, "soak", &e);
            rc = CLI_BAD_INPUT;
        } else {
            ms[i].ran = true;
            if (!ms[i].r.passed) rc = CLI_NOT_ARRIVED;
        }
        world_destroy(w);
    }
    rmdir(work);
    if (a.json) write_json(cx, &a, ms, a.map_count);
    else write_text(cx, &a, ms, a.map_count);
    nav_free(ms);
    for (int k = 0; k < nfound; k++) nav_free(found[k]);
    return rc;
}

const CliCommand cli_cmd_soak = {
    .name = "soak",
    .summary = "Long runs on every bundled map: is memory flat, is the run repeatable?",
    .usage = "navbot soak [MAPS...] [--ticks N] [--rts N] [--runners N] [--seed N] [--root DIR] [--json]",
    .help = "Runs each map twice for N ticks (default 100,000), headless and with no trace:\n"
            "RTS units (bots/rts.lua) wander in a crowd and runners (bots/runner.lua) run to\n"
            "random goals, while obstacles are dropped and lifted, doors cycle open, shut,\n"
            "locked, and both brains are rewritten and reloaded every 2,500 ticks. It samples\n"
            "the process's resident memory, the C heap, the brains' Lua memory, the\n"
            "simulation's tables and the routing caches (against their cap), and passes a\n"
            "map when every meter is flat after the warm-up (the first 20 % of the ticks: the\n"
            "second half's maximum within max(5 %, 256 KiB) of the first half's), the caches\n"
            "stay under their cap, every reload takes, no brain faults, and both runs end\n"
            "with the same trace hash. Progress goes to stderr.\n"
            "\n"
            "options:\n"
            "  --ticks N     ticks a run (100 to 134217728; default 100000)\n"
            "  --rts N       RTS units a map (default 48)\n"
            "  --runners N   runners a map (default 6)\n"
            "  --seed N      (default 1)\n"
            "  --root DIR    the folder with bots/, lua/ and maps/ (default: navbot's bundled one)\n"
            "  --json        the results as JSON\n"
            "\n"
            "exit status: 0 every map passed, 3 one did not, 1 a map could not be loaded\n"
            "\n"
            "examples:\n"
            "  navbot soak --ticks 3000\n"
            "  navbot soak maps/valley.lua --ticks 20000 --json\n",
    .run = run_soak,
};

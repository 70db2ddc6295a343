/*
** test_grid_movingai.c — the grid searches against every Moving AI
** development scenario (7 maps, 20,670 problems).
**
** For each problem, jump point search must find the goal, match the
** published optimal length within 0.005 (the files print 6 significant
** digits; see the data set's README), and return waypoints that form a legal
** path under the movement rule. The path check reads passability from the
** map file's own characters, not from the grid, so it is independent of the
** engine. On a deterministic subset (every 7th problem; every 40th on the
** maze, whose 11,960 problems would otherwise make A* dominate the suite's
** run time) the textbook A* is checked the same way, the two agree on the
** length, a repeated query gives byte-identical waypoints, and a second
** GridSearch that runs every 7th of the subset in reverse order gives the
** same waypoints.
**
** Scenario (x, y) counts rows from the top; grid cells grow north, so the
** cell is (x, height - 1 - y). Cells are 1 m: a goal at a cell's centre is
** cell + 0.5.
*/
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "test_support.h"

#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"

#include "grid_oracle.h"

#define ASTAR_STRIDE 7      /* A*, determinism and agreement on every 7th problem... */
#define ASTAR_MAX 300       /* ...or fewer, so that no map runs more than about 300 A* queries */
#define FRESH_EVERY 7       /* a second GridSearch, in reverse order, on every 7th of that subset */
#define WAYPOINT_CAP 8192
#define LENGTH_TOLERANCE 0.005
#define MAX_REPORTED 8      /* failures printed in full; all are counted */
/* The debug build checks JPS on every problem. Under the sanitizers (ten
** times slower) every 4th: the same code paths, and a memory fault on one
** problem shows on its neighbours, for a quarter of the time. */
#ifdef NAV_SANITIZE
#define JPS_STRIDE 4
#else
#define JPS_STRIDE 1
#endif

typedef struct Scenario {
    int sx, sy, gx, gy;     /* grid cells (y grows north) */
    double optimal;
    int line;
} Scenario;

typedef struct MapData {
    char name[64];
    OracleMap map;          /* from the .map file's characters */
    Scenario *scen;
    int count;
} MapData;

static GridWaypoint g_buf[WAYPOINT_CAP];
static GridWaypoint g_buf2[WAYPOINT_CAP];

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = nav_malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

/* Next line of buf from *pos, CR and LF stripped; NULL at the end. */
static char *next_line(char *buf, size_t len, size_t *pos)
{
    if (*pos >= len) return NULL;
    char *start = buf + *pos;
    char *nl = memchr(start, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - start) : len - *pos;
    *pos += n + (nl ? 1 : 0);
    start[n] = '\0';
    if (n > 0 && start[n - 1] == '\r') start[n - 1] = '\0';
    return start;
}

/* Reads the .map file's characters: '.', 'G' and 'S' are passable. */
static void read_map_chars(const char *path, OracleMap *m)
{
    size_t len, pos = 0;
    char *buf = slurp(path, &len);
    int w = -1, h = -1;
    char *line;
    while ((line = next_line(buf, len, &pos)) != NULL) {
        if (strncmp(line, "height ", 7) == 0) h = atoi(line + 7);
        else if (strncmp(line, "width ", 6) == 0) w = atoi(line + 6);
        else if (strcmp(line, "map") == 0) break;
    }
    cr_assert(w > 0 && h > 0, "%s: no size in the header", path);
    m->w = w;
    m->h = h;
    m->pass = nav_calloc((size_t)w * (size_t)h, 1);
    for (int row = 0; row < h; row++) {
        line = next_line(buf, len, &pos);
        cr_assert_not_null(line, "%s: row %d missing", path, row);
        cr_assert_eq((int)strlen(line), w, "%s: row %d has %zu cells", path, row, strlen(line));
        int cy = h - 1 - row;
        for (int x = 0; x < w; x++) {
            char c = line[x];
            m->pass[(size_t)cy * (size_t)w + (size_t)x] = c == '.' || c == 'G' || c == 'S';
        }
    }
    nav_free(buf);
}

static void read_scenarios(const char *path, MapData *d)
{
    size_t len, pos = 0;
    char *buf = slurp(path, &len);
    char *line = next_line(buf, len, &pos);
    cr_assert(line && (strcmp(line, "version 1") == 0 || strcmp(line, "version 1.0") == 0),
              "%s: first line is '%s'", path, line ? line : "(none)");
    int cap = 1024, lineno = 1;
    d->scen = nav_malloc(sizeof *d->scen * (size_t)cap);
    d->count = 0;
    while ((line = next_line(buf, len, &pos)) != NULL) {
        lineno++;
        if (line[strspn(line, " \t")] == '\0') continue;
        int bucket, mw, mh, sx, sy, gx, gy;
        char mapname[256];
        double opt;
        int n = sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, mapname, &mw, &mh, &sx, &sy, &gx, &gy, &opt);
        cr_assert_eq(n, 9, "%s:%d: %d fields in '%s'", path, lineno, n, line);
        cr_assert(mw == d->map.w && mh == d->map.h, "%s:%d: size %dx%d, the map is %dx%d", path, lineno, mw, mh,
                  d->map.w, d->map.h);
        cr_assert(sx >= 0 && sx < mw && gx >= 0 && gx < mw && sy >= 0 && sy < mh && gy >= 0 && gy < mh,
                  "%s:%d: cell outside the map", path, lineno);
        if (d->count == cap) {
            cap *= 2;
            d->scen = nav_realloc(d->scen, sizeof *d->scen * (size_t)cap);
        }
        d->scen[d->count++] = (Scenario){ sx, mh - 1 - sy, gx, mh - 1 - gy, opt, lineno };
    }
    nav_free(buf);
}

static const MovingAiMap *find_map_info(const char *name)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(MOVINGAI_MAPS); i++)
        if (strcmp(MOVINGAI_MAPS[i].name, name) == 0) return &MOVINGAI_MAPS[i];
    return NULL;
}

typedef struct Tally {
    int failures;
    char first[MAX_REPORTED][640];
} Tally;

__attribute__((format(printf, 2, 3))) static void fail(Tally *t, const char *fmt, ...)
{
    if (t->failures < MAX_REPORTED) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first[t->failures], sizeof t->first[0], fmt, ap);
        va_end(ap);
        cr_log_error("%s", t->first[t->failures]);
    }
    t->failures++;
}

/* Runs one query and checks it against the scenario; returns false (after
** recording why) on any problem. */
static bool run_and_check(const MapData *d, GridSearch *s, int cls, const Scenario *sc, int idx,
                          GridAlgorithm alg, GridWaypoint *buf, GridPath *out, Tally *t)
{
    const char *an = alg == GRID_JPS ? "JPS" : "A*";
    GridQuery q = { .cls = cls, .sx = sc->sx, .sy = sc->sy,
                    .goal = grid_goal_point((float)sc->gx + 0.5f, (float)sc->gy + 0.5f), .algorithm = alg };
    *out = (GridPath){ .points = buf, .cap = WAYPOINT_CAP };
    NavStatus st = grid_find_path(s, &q, out);
    char where[160];
    snprintf(where, sizeof where, "%s #%d (scen line %d) %s: start (%d,%d) goal (%d,%d) optimal %.6f", d->name, idx,
             sc->line, an, sc->sx, sc->sy, sc->gx, sc->gy, sc->optimal);
    if (!NAV_SUCCEEDED(st) || (st & NAV_PARTIAL)) {
        fail(t, "%s: status 0x%x (%s)", where, st, nav_status_name(st));
        return false;
    }
    if (!(out->flags & GRID_PATH_FOUND) || (out->flags & (GRID_PATH_TRUNCATED | GRID_PATH_PARTIAL | GRID_PATH_NO_PATH |
                                                           GRID_PATH_GOAL_MOVED | GRID_PATH_START_MOVED))) {
        fail(t, "%s: flags 0x%x, expected FOUND alone", where, out->flags);
        return false;
    }
    if (fabs(out->length - sc->optimal) > LENGTH_TOLERANCE) {
        fail(t, "%s: length %.6f, off by %.6f", where, out->length, out->length - sc->optimal);
        return false;
    }
    if (out->count < 1 || out->count > WAYPOINT_CAP) {
        fail(t, "%s: %d waypoints", where, out->count);
        return false;
    }
    const GridWaypoint *p = out->points;
    if (p[0].x != sc->sx || p[0].y != sc->sy) {
        fail(t, "%s: first waypoint (%d,%d) is not the start", where, p[0].x, p[0].y);
        return false;
    }
    if (p[out->count - 1].x != sc->gx || p[out->count - 1].y != sc->gy) {
        fail(t, "%s: last waypoint (%d,%d) is not the goal", where, p[out->count - 1].x, p[out->count - 1].y);
        return false;
    }
    char why[256];
    double len;
    if (!oracle_path_ok(&d->map, p, out->count, 0, &len, why, sizeof why)) {
        fail(t, "%s: illegal path (%d waypoints): %s", where, out->count, why);
        return false;
    }
    if (fabs(len - out->length) > 1e-6) {
        fail(t, "%s: waypoints add up to %.9f, path.length says %.9f", where, len, out->length);
        return false;
    }
    return true;
}

/* Runs the problems i with i % parts == part (interleaved, so every part
** gets short and long problems alike). */
static void run_map(const char *name, int part, int parts)
{
    uint64_t t0 = timer_now_ns();
    const MovingAiMap *info = find_map_info(name);
    cr_assert_not_null(info, "%s is not in MOVINGAI_MAPS", name);

    MapData d = { 0 };
    snprintf(d.name, sizeof d.name, "%s", name);
    char rel[128], path[512];
    snprintf(rel, sizeof rel, "movingai/%s.map", name);
    TEST_DATA_PATH(path, rel);
    read_map_chars(path, &d.map);
    int passable = 0;
    for (int i = 0; i < d.map.w * d.map.h; i++) passable += d.map.pass[i];
    cr_assert_eq(passable, info->passable, "%s: the oracle's own read of the file finds %d passable cells, not %d", name,
                 passable, info->passable);

    NavError err;
    char ebuf[1024];
    NavWorld *w = map_load_file(path, NULL, &err);
    cr_assert_not_null(w, "%s: %s", path, nav_error_format(&err, ebuf, sizeof ebuf));
    snprintf(rel, sizeof rel, "movingai/%s.map.scen", name);
    TEST_DATA_PATH(path, rel);
    read_scenarios(path, &d);
    cr_assert_gt(d.count, 0);

    NavGrid *g = grid_create(w, NULL, &err);
    cr_assert_not_null(g, "%s: grid_create: %s", name, nav_error_format(&err, ebuf, sizeof ebuf));
    int cls = grid_find_class(g, "point");
    cr_assert_geq(cls, 0, "%s: no class 'point'", name);
    cr_assert_eq(grid_width(g), d.map.w);
    cr_assert_eq(grid_height(g), d.map.h);

    /* The grid's own view for the point class must be the file's: radius 0
    ** on 1 m cells leaves nothing for clearance to remove. */
    int mismatched = 0, mx = -1, my = -1;
    for (int y = 0; y < d.map.h; y++)
        for (int x = 0; x < d.map.w; x++)
            if (grid_passable(g, cls, x, y) != om_pass(&d.map, x, y)) {
                if (!mismatched++) mx = x, my = y;
            }
    cr_expect_eq(mismatched, 0, "%s: grid_passable(point) differs from the file on %d cells, first (%d,%d)", name,
                 mismatched, mx, my);

    GridSearch *s = grid_search_create(g, &err);
    cr_assert_not_null(s, "%s: grid_search_create: %s", name, nav_error_format(&err, ebuf, sizeof ebuf));
    double build_ms = timer_ms_since(t0);

    Tally t = { 0 };
    int jps_checked = 0, astar_checked = 0, repeat_checked = 0, in_part = 0;
    int stride = (d.count + ASTAR_MAX - 1) / ASTAR_MAX;
    if (stride < ASTAR_STRIDE) stride = ASTAR_STRIDE;
    double *subset_len = nav_malloc(sizeof *subset_len * (size_t)d.count);
    uint64_t jps_ns = 0, astar_ns = 0;
    for (int i = 0; i < d.count; i++) {
        if (i % parts != part) continue;
        in_part++;
        if ((i / parts) % JPS_STRIDE != 0) continue;
        const Scenario *sc = &d.scen[i];
        GridPath jp, ap, rp;
        uint64_t q0 = timer_now_ns();
        bool ok = run_and_check(&d, s, cls, sc, i, GRID_JPS, g_buf, &jp, &t);
        jps_ns += timer_now_ns() - q0;
        jps_checked++;
        if ((i / parts) % stride != 0) continue; /* every stride-th problem of this part */
        subset_len[i] = ok ? jp.length : NAN;

        q0 = timer_now_ns();
        bool aok = run_and_check(&d, s, cls, sc, i, GRID_ASTAR, g_buf2, &ap, &t);
        astar_ns += timer_now_ns() - q0;
        astar_checked++;
        if (ok && aok && fabs(ap.length - jp.length) > 1e-6)
            fail(&t, "%s #%d: JPS length %.9f, A* %.9f", name, i, jp.length, ap.length);

        /* the same JPS query again, after an A* search used the state */
        GridWaypoint first[WAYPOINT_CAP];
        int first_count = jp.count;
        if (!ok) continue;
        memcpy(first, g_buf, sizeof first[0] * (size_t)first_count);
        bool rok = run_and_check(&d, s, cls, sc, i, GRID_JPS, g_buf, &rp, &t);
        repeat_checked++;
        if (rok && (rp.count != first_count || memcmp(first, g_buf, sizeof first[0] * (size_t)first_count) != 0 ||
                    rp.length != jp.length))
            fail(&t, "%s #%d: the same JPS query twice gave different waypoints (%d then %d points)", name, i,
                 first_count, rp.count);
    }

    /* A second search object, the subset in reverse order: same answers. */
    GridSearch *s2 = grid_search_create(g, &err);
    cr_assert_not_null(s2, "%s: second grid_search_create: %s", name, err.message);
    int fresh_checked = 0;
    for (int i = d.count - 1; i >= 0; i--) {
        if (i % parts != part || (i / parts) % (stride * FRESH_EVERY) != 0 || isnan(subset_len[i])) continue;
        GridPath p1, p2;
        if (run_and_check(&d, s2, cls, &d.scen[i], i, GRID_JPS, g_buf2, &p2, &t) &&
            run_and_check(&d, s, cls, &d.scen[i], i, GRID_JPS, g_buf, &p1, &t) &&
            (p1.count != p2.count || p1.length != p2.length ||
             memcmp(g_buf, g_buf2, sizeof g_buf[0] * (size_t)p1.count) != 0))
            fail(&t, "%s #%d: a second GridSearch gives %d waypoints, length %.9f; the first %d, %.9f", name, i,
                 p2.count, p2.length, p1.count, p1.length);
        fresh_checked++;
    }

    cr_log_info("grid_movingai %s (part %d of %d): %d JPS + %d A* queries checked (A* on every %dth; %d repeated, "
                "%d on a second search); load+build %.0f ms, JPS %.3f ms/query, A* %.3f ms/query (each with its check), whole test %.0f ms",
                name, part + 1, parts, jps_checked, astar_checked, stride, repeat_checked, fresh_checked, build_ms,
                jps_checked ? (double)jps_ns / 1e6 / jps_checked : 0.0,
                astar_checked ? (double)astar_ns / 1e6 / astar_checked : 0.0, timer_ms_since(t0));

    nav_free(subset_len);
    grid_search_destroy(s2);
    grid_search_destroy(s);
    grid_destroy(g);
    world_destroy(w);
    nav_free(d.map.pass);
    nav_free(d.scen);
    cr_assert_eq(t.failures, 0, "%s: %d failures among %d JPS and %d A* queries; first: %s", name, t.failures,
                 jps_checked, astar_checked, t.first[0]);
    cr_assert_eq(jps_checked, (in_part + JPS_STRIDE - 1) / JPS_STRIDE);
    cr_assert_eq(in_part, d.count / parts + (part < d.count % parts ? 1 : 0));
    NAV_TEST_LEAK_CHECK();
}

Test(grid_movingai, lak303d) { run_map("lak303d", 0, 1); }
Test(grid_movingai, AR0011SR) { run_map("AR0011SR", 0, 1); }
Test(grid_movingai, Aftershock) { run_map("Aftershock", 0, 1); }
Test(grid_movingai, room8_000) { run_map("8room_000", 0, 1); }
Test(grid_movingai, random512_10_0) { run_map("random512-10-0", 0, 1); }
Test(grid_movingai, Boston_0_256) { run_map("Boston_0_256", 0, 1); }
/* The maze holds 58% of the problems and the longest paths: four tests,
** so parallel jobs share it. */
Test(grid_movingai, maze512_1_0_part1) { run_map("maze512-1-0", 0, 4); }
Test(grid_movingai, maze512_1_0_part2) { run_map("maze512-1-0", 1, 4); }
Test(grid_movingai, maze512_1_0_part3) { run_map("maze512-1-0", 2, 4); }
Test(grid_movingai, maze512_1_0_part4) { run_map("maze512-1-0", 3, 4); }

/* Every map in MOVINGAI_MAPS has a test above, and the data set holds the
** 20,670 problems its README counts. */
Test(grid_movingai, every_map_and_problem_is_covered)
{
    int total = 0;
    for (size_t i = 0; i < NAV_ARRAY_COUNT(MOVINGAI_MAPS); i++) {
        char rel[128], path[512];
        snprintf(rel, sizeof rel, "movingai/%s.map.scen", MOVINGAI_MAPS[i].name);
        TEST_DATA_PATH(path, rel);
        size_t len, pos = 0;
        char *buf = slurp(path, &len);
        char *line = next_line(buf, len, &pos);
        cr_assert_not_null(line);
        while ((line = next_line(buf, len, &pos)) != NULL)
            if (line[strspn(line, " \t")] != '\0') total++;
        nav_free(buf);
    }
    cr_assert_eq(NAV_ARRAY_COUNT(MOVINGAI_MAPS), 7);
    cr_assert_eq(total, 20670, "%d problems", total);
    NAV_TEST_LEAK_CHECK();
}

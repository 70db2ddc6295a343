/*
** bench_plot.c — `navbot bench ... --plot FILE.png`: the benchmark runs
** with --json into memory (cmd_bench.c, as for --compare) and its figures
** are drawn here as bar charts (render/render_plot.h), one group per map
** (or crowd size), the baseline measured in the same run in grey beside:
**
**   grid        mean us per query: JPS, A* (baseline)
**   compile     ms to compile the area graph, per map and class
**   route       mean us per query: routing caches (cold), Dijkstra (baseline)
**   crowd       mean ms per tick per bot count: Lua brains, the C loop
**               without Lua (baseline)
**   competence  % of bots that arrived per map: solo, crowd, shared
**   shortpath   mean us per query per unit count: short-range paths,
**               the long-range grid path (baseline)
**   learning    s until every goal was reached per map: explore, watch,
**               the omniscient runner (baseline); and the sliced
**               searches' ms per tick: default and tight budgets
**
** A benchmark with two sections (learning) gets two charts, one above the
** other, in the one picture. The charted figures also go out as a table,
** so a run with --plot alone still prints its results.
*/
#include "cli/bench_plot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/bench_compare.h"
#include "core/alloc.h"
#include "render/render_plot.h"

#define PLOT_SERIES 4
#define PLOT_MAX_GROUPS 256
#define CHART_HEIGHT 540
#define GROUP_NAME_MAX 64

typedef struct SeriesSpec {
    const char *key; /* the figure, a path of keys: "baseline.tick_mean_ms" */
    const char *label;
    bool baseline;
    const char *only_key, *only_value; /* only records whose only_key is only_value */
} SeriesSpec;

typedef struct ChartSpec {
    const char *bench;
    const char *records; /* the array of records; NULL: each JSON document is one */
    const char *group, *group2;
    const char *group_suffix; /* after a number: " bots" */
    const char *title, *subtitle, *unit;
    SeriesSpec series[PLOT_SERIES];
} ChartSpec;

static const ChartSpec SPECS[] = {
    { "grid",
      NULL,
      "map",
      NULL,
      NULL,
      "bench grid: mean time per query",
      "jump point search against the textbook A* baseline on each map's scenarios; lower is faster",
      "us per query",
      { { "jps_mean_us", "JPS", false, NULL, NULL }, { "astar_mean_us", "A* (baseline)", true, NULL, NULL } } },
    { "compile",
      NULL,
      "map",
      "class",
      NULL,
      "bench compile: area graph compile time",
      "per map and class, with entity links (the mean of up to 5 runs)",
      "ms",
      { { "compile_ms", "compile", false, NULL, NULL } } },
    { "route",
      NULL,
      "map",
      NULL,
      NULL,
      "bench route: mean time per route query",
      "routing caches with no per-goal cache warm, against a plain Dijkstra in the same process; lower is faster",
      "us per query",
      { { "cold_mean_us", "routing caches, cold", false, NULL, NULL },
        { "dijkstra_mean_us", "Dijkstra (baseline)", true, NULL, NULL } } },
    { "crowd",
      "runs",
      "bots",
      NULL,
      " bots",
      "bench crowd: mean time per tick",
      "RTS units with Lua brains against the same run driven by a C loop without Lua",
      "ms per tick",
      { { "tick_mean_ms", "Lua brains", false, NULL, NULL },
        { "baseline.tick_mean_ms", "C loop, no Lua (baseline)", true, NULL, NULL } } },
    { "competence",
      "runs",
      "map",
      NULL,
      NULL,
      "bench competence: bots that arrived",
      "bots/runner.lua on random missions, per map and mode",
      "% arrived",
      { { "arrived_pct", "solo", false, "mode", "solo" },
        { "arrived_pct", "crowd", false, "mode", "crowd" },
        { "arrived_pct", "shared goal", false, "mode", "shared" } } },
    { "shortpath",
      "runs",
      "units",
      NULL,
      " units",
      "bench shortpath: mean time per query",
      "the short-range vertex pathfinder among units against the long-range grid path (which ignores them)",
      "us per query",
      { { "mean_us", "short-range path", false, NULL, NULL },
        { "long_mean_us", "long-range grid path (baseline)", true, NULL, NULL } } },
    { "learning",
      "runs",
      "map",
      NULL,
      NULL,
      "bench learning: time until every goal was reached",
      "a learner that knows only what it saw, alone and watching a runner; the omniscient runner beside",
      "s (simulated)",
      { { "all_s", "explore", false, "mode", "explore" },
        { "all_s", "watch", false, "mode", "watch" },
        { "runner_all_s", "runner, omniscient (baseline)", true, "mode", "watch" } } },
    { "learning",
      "searches",
      "map",
      NULL,
      NULL,
      "bench learning: sliced searches",
      "100 bots' searches under the default and the tight budgets",
      "ms per tick",
      { { "search_tick_mean_ms", "default budget", false, "name", "default" },
        { "search_tick_mean_ms", "tight budget", false, "name", "tight" } } },
};
#define SPEC_COUNT ((int)(sizeof SPECS / sizeof SPECS[0]))

bool bench_plot_known(const char *bench)
{
    for (int i = 0; i < SPEC_COUNT; i++)
        if (strcmp(SPECS[i].bench, bench) == 0) return true;
    return false;
}

bool plot_path_ok(const char *path, char *why, size_t cap)
{
    size_t n = strlen(path);
    if (n < 5 || strcasecmp(path + n - 4, ".png") != 0) {
        snprintf(why, cap, "'%s' is not a .png file name", path);
        return false;
    }
    char dir[1024];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "'%s': no folder %s (make it first)", path, dir);
        return false;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(why, cap, "'%s': cannot write in %s: %s", path, dir, strerror(errno));
        return false;
    }
    return true;
}

/* {======= the figures ======= */

typedef struct Chart {
    const ChartSpec *spec;
    int groups;
    char (*names)[GROUP_NAME_MAX];
    double *values[PLOT_SERIES]; /* per group */
    bool has[PLOT_SERIES];       /* the series has a value somewhere */
} Chart;

static const cJSON *path_item(const cJSON *obj, const char *path)
{
    char key[64];
    while (obj && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof key) return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        obj = cJSON_GetObjectItemCaseSensitive(obj, key);
        path = dot ? dot + 1 : path + n;
    }
    return obj;
}

/* A map's file name without its folder and extensions: "maps/arena.lua"
** is "arena", "8room_000.map" is "8room_000". */
static void short_name(const char *s, char *out, size_t cap)
{
    const char *base = strrchr(s, '/');
    base = base ? base + 1 : s;
    size_t n = strlen(base);
    const char *dot = strchr(base, '.');
    if (dot && dot > base && strncmp(s, "generate:", 9) != 0) n = (size_t)(dot - base);
    snprintf(out, cap, "%.*s", (int)n, base);
}

static void group_part(const cJSON *v, const char *suffix, char *out, size_t cap)
{
    if (cJSON_IsString(v)) short_name(v->valuestring, out, cap);
    else if (cJSON_IsNumber(v)) snprintf(out, cap, "%g%s", v->valuedouble, suffix ? suffix : "");
    else out[0] = '\0';
}

static bool matches(const cJSON *rec, const SeriesSpec *s)
{
    if (!s->only_key) return true;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, s->only_key);
    return cJSON_IsString(v) && strcmp(v->valuestring, s->only_value) == 0;
}

/* One record's figures into the chart; its group is made when it has any. */
static void add_record(Chart *c, const cJSON *rec)
{
    const ChartSpec *sp = c->spec;
    if (!cJSON_IsObject(rec)) return;
    double v[PLOT_SERIES];
    bool any = false;
    for (int s = 0; s < PLOT_SERIES; s++) {
        v[s] = NAN;
        if (!sp->series[s].key || !matches(rec, &sp->series[s])) continue;
        const cJSON *it = path_item(rec, sp->series[s].key);
        if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) v[s] = it->valuedouble, any = true;
    }
    if (!any) return;
    char name[2 * GROUP_NAME_MAX], second[GROUP_NAME_MAX] = "";
    group_part(cJSON_GetObjectItemCaseSensitive(rec, sp->group), sp->group_suffix, name, GROUP_NAME_MAX);
    if (sp->group2) group_part(cJSON_GetObjectItemCaseSensitive(rec, sp->group2), NULL, second, sizeof second);
    if (second[0]) {
        size_t n = strlen(name);
        snprintf(name + n, sizeof name - n, " %s", second);
    }
    name[GROUP_NAME_MAX - 1] = '\0';
    int g = 0;
    while (g < c->groups && strcmp(c->names[g], name) != 0) g++;
    if (g == c->groups) {
        if (c->groups >= PLOT_MAX_GROUPS) return;
        memcpy(c->names[g], name, GROUP_NAME_MAX); /* cut to its size above */
        for (int s = 0; s < PLOT_SERIES; s++) c->values[s][g] = NAN;
        c->groups++;
    }
    for (int s = 0; s < PLOT_SERIES; s++)
        if (isfinite(v[s])) c->values[s][g] = v[s], c->has[s] = true;
}

static void add_document(Chart *c, const cJSON *doc)
{
    if (!c->spec->records) {
        add_record(c, doc);
        return;
    }
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, c->spec->records);
    if (!cJSON_IsArray(arr)) return;
    for (const cJSON *r = arr->child; r; r = r->next) add_record(c, r);
}

static bool chart_alloc(Chart *c, const ChartSpec *spec)
{
    memset(c, 0, sizeof *c);
    c->spec = spec;
    c->names = nav_calloc(PLOT_MAX_GROUPS, sizeof *c->names);
    bool ok = c->names != NULL;
    for (int s = 0; s < PLOT_SERIES; s++) ok = (c->values[s] = nav_calloc(PLOT_MAX_GROUPS, sizeof(double))) && ok;
    return ok;
}

static void chart_free(Chart *c)
{
    nav_free(c->names);
    for (int s = 0; s < PLOT_SERIES; s++) nav_free(c->values[s]);
}

typedef struct Charts {
    Chart *c;
    int n;
} Charts;

static void add_to_charts(const cJSON *doc, void *ud)
{
    const Charts *cs = ud;
    for (int i = 0; i < cs->n; i++) add_document(&cs->c[i], doc);
}

/* Every JSON document of text (one, or JSON Lines) into each chart. */
static bool read_json(const char *text, Chart *charts, int n, FILE *err)
{
    Charts cs = { charts, n };
    int docs = bench_json_documents(text, add_to_charts, &cs, NULL);
    if (docs < 0) fprintf(err, "navbot bench: --plot: the benchmark's output is not JSON\n");
    return docs > 0;
}

/* }======= */

/* {======= drawing ======= */

static void to_plot(const Chart *c, const char **names, PlotChart *pc)
{
    memset(pc, 0, sizeof *pc);
    const ChartSpec *sp = c->spec;
    pc->kind = PLOT_BARS;
    pc->title = sp->title;
    pc->subtitle = sp->subtitle;
    pc->unit = sp->unit;
    pc->count = c->groups;
    for (int g = 0; g < c->groups; g++) names[g] = c->names[g];
    pc->groups = names;
    for (int s = 0; s < PLOT_SERIES; s++) {
        if (!sp->series[s].key || !c->has[s]) continue;
        PlotSeries *ps = &pc->series[pc->series_count++];
        ps->name = sp->series[s].label;
        ps->values = c->values[s];
        ps->baseline = sp->series[s].baseline;
    }
}

static void print_table(const Chart *c, FILE *out)
{
    const ChartSpec *sp = c->spec;
    fprintf(out, "%s (%s)\n%-28s", sp->title, sp->unit, "");
    int w[PLOT_SERIES];
    for (int s = 0; s < PLOT_SERIES; s++) {
        w[s] = sp->series[s].label ? (int)strlen(sp->series[s].label) : 0;
        if (w[s] < 12) w[s] = 12;
        if (sp->series[s].key && c->has[s]) fprintf(out, "  %*s", w[s], sp->series[s].label);
    }
    fputc('\n', out);
    for (int g = 0; g < c->groups; g++) {
        fprintf(out, "%-28s", c->names[g]);
        for (int s = 0; s < PLOT_SERIES; s++)
            if (sp->series[s].key && c->has[s]) {
                if (isfinite(c->values[s][g])) fprintf(out, "  %*.6g", w[s], c->values[s][g]);
                else fprintf(out, "  %*s", w[s], "-");
            }
        fputc('\n', out);
    }
}

/* The picture: the charts one above the other, wide enough for their bars. */
static int draw_all(const Chart *charts, const int *shown, int n, const char *path, FILE *err)
{
    int width = 1000;
    for (int i = 0; i < n; i++) {
        const Chart *c = &charts[shown[i]];
        int bars = 0;
        for (int s = 0; s < PLOT_SERIES; s++) bars += c->has[s];
        int want = 140 + c->groups * (bars * 26 + 30);
        if (want > width) width = want;
    }
    if (width > 4000) width = 4000;
    NavError e;
    nav_error_clear(&e);
    char buf[512];
    NavFont *font = font_load_default(&e);
    NavImage *img = font ? image_create(width, CHART_HEIGHT * n, &e) : NULL;
    NavImage *part = img ? image_create(width, CHART_HEIGHT, &e) : NULL;
    const char **names = nav_calloc(PLOT_MAX_GROUPS, sizeof *names);
    int rc = 0;
    if (!font || !img || !part || !names) {
        fprintf(err, "navbot bench: --plot: %s\n", names ? nav_error_format(&e, buf, sizeof buf) : "out of memory");
        rc = 1;
    } else {
        for (int i = 0; i < n; i++) {
            PlotChart pc;
            to_plot(&charts[shown[i]], names, &pc);
            plot_draw(part, font, &pc, NULL);
            size_t row = (size_t)width * 4;
            memcpy(img->pixels + (size_t)i * CHART_HEIGHT * row, part->pixels, row * CHART_HEIGHT);
        }
        if (NAV_FAILED(image_write_png(img, path, &e))) {
            fprintf(err, "navbot bench: --plot: %s\n", nav_error_format(&e, buf, sizeof buf));
            rc = 1;
        }
    }
    nav_free(names);
    image_destroy(part);
    image_destroy(img);
    font_destroy(font);
    return rc;
}

/* }======= */

int bench_plot_write(const char *bench, const char *json, const char *path, FILE *table, FILE *err)
{
    Chart charts[SPEC_COUNT];
    int n = 0, rc = 0;
    for (int i = 0; i < SPEC_COUNT; i++) {
        if (strcmp(SPECS[i].bench, bench) != 0) continue;
        if (!chart_alloc(&charts[n++], &SPECS[i])) rc = 1;
    }
    if (n == 0) {
        fprintf(err, "navbot bench: --plot: no chart for bench %s\n", bench);
        return 1;
    }
    if (rc) fprintf(err, "navbot bench: --plot: out of memory\n");
    else if (!read_json(json, charts, n, err)) rc = 1;
    if (rc == 0) {
        /* Sections with figures; one empty chart when no section has any. */
        int shown[SPEC_COUNT], k = 0;
        for (int i = 0; i < n; i++)
            if (charts[i].groups > 0) shown[k++] = i;
        if (k == 0) shown[k++] = 0;
        for (int i = 0; i < k && table; i++) print_table(&charts[shown[i]], table);
        rc = draw_all(charts, shown, k, path, err);
    }
    for (int i = 0; i < n; i++) chart_free(&charts[i]);
    return rc;
}

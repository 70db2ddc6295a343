/*
** bench_compare.c — `navbot bench ... --compare FILE`: a benchmark's
** figures beside the ones of an earlier run, so a regression shows at a
** glance.
**
** Both sides are the benchmark's own --json output (one JSON document, or
** JSON Lines: one per map). Each is flattened into named numbers: a
** document or an array element is named by its identifying members (map,
** mode, class, name, brain, bots, units: whichever it has), a number by the
** path of keys down to it. Numbers present on both sides are printed with
** their change; times (keys ending in _us, _ms or _ns) that moved by more
** than 10 % are called faster or slower. Run-to-run noise on a busy
** machine is easily 5 %: the verdict is a pointer, not a test.
*/
#include "cli/bench_compare.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"

#define NAME_MAX_LEN 160

typedef struct Figure {
    char name[NAME_MAX_LEN];
    double value;
} Figure;

typedef struct Figures {
    Figure *item;
    int count, cap;
    bool nomem;
} Figures;

static void add_figure(Figures *f, const char *name, double v)
{
    if (f->nomem) return;
    if (f->count == f->cap) {
        int cap = f->cap ? 2 * f->cap : 64;
        Figure *n = nav_realloc_array(f->item, (size_t)cap, sizeof *n);
        if (!n) {
            f->nomem = true;
            return;
        }
        f->item = n;
        f->cap = cap;
    }
    snprintf(f->item[f->count].name, NAME_MAX_LEN, "%s", name);
    f->item[f->count].value = v;
    f->count++;
}

/* "map=arena mode=solo": the members that tell one result from another. */
static void label_of(const cJSON *obj, char *out, size_t cap)
{
    static const char *const KEYS[] = { "map", "mode", "class", "name", "brain", "bots", "units" };
    out[0] = '\0';
    size_t len = 0;
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, KEYS[k]);
        char v[96];
        if (cJSON_IsString(m)) snprintf(v, sizeof v, "%s", m->valuestring);
        else if (cJSON_IsNumber(m)) snprintf(v, sizeof v, "%g", m->valuedouble);
        else continue;
        int n = snprintf(out + len, cap - len, "%s%s=%s", len ? " " : "", KEYS[k], v);
        if (n < 0 || (size_t)n >= cap - len) break;
        len += (size_t)n;
    }
}

static void flatten(const cJSON *node, const char *prefix, Figures *f)
{
    char name[NAME_MAX_LEN];
    if (cJSON_IsNumber(node)) {
        if (isfinite(node->valuedouble)) add_figure(f, prefix, node->valuedouble);
        return;
    }
    if (cJSON_IsBool(node)) {
        add_figure(f, prefix, cJSON_IsTrue(node) ? 1.0 : 0.0);
        return;
    }
    if (cJSON_IsObject(node)) {
        for (const cJSON *m = node->child; m; m = m->next) {
            snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "." : "", m->string ? m->string : "?");
            flatten(m, name, f);
        }
        return;
    }
    if (cJSON_IsArray(node)) {
        int i = 0;
        for (const cJSON *m = node->child; m; m = m->next, i++) {
            char label[96];
            if (cJSON_IsObject(m)) label_of(m, label, sizeof label);
            else label[0] = '\0';
            if (label[0]) snprintf(name, sizeof name, "%s[%s]", prefix, label);
            else snprintf(name, sizeof name, "%s[%d]", prefix, i);
            flatten(m, name, f);
        }
    }
}

int bench_json_documents(const char *text, void (*each)(const cJSON *doc, void *ud), void *ud, int *bad_line)
{
    const char *p = text;
    int docs = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        const char *end = NULL;
        cJSON *doc = cJSON_ParseWithOpts(p, &end, false);
        if (!doc) {
            if (bad_line) {
                *bad_line = 1;
                for (const char *q = text; q < p; q++) *bad_line += *q == '\n';
            }
            return -1;
        }
        each(doc, ud);
        cJSON_Delete(doc);
        docs++;
        p = end;
    }
    return docs;
}

/* One document's figures, named under its label ("[valley]") when it has
** one. */
static void flatten_document(const cJSON *doc, void *ud)
{
    char label[96] = "";
    if (cJSON_IsObject(doc)) label_of(doc, label, sizeof label);
    char prefix[NAME_MAX_LEN] = "";
    if (label[0]) snprintf(prefix, sizeof prefix, "[%s]", label);
    flatten(doc, prefix, ud);
}

/* Every JSON document in text (one, or JSON Lines) into f. False with a
** message naming `what` and the line when one does not parse. */
static bool read_documents(const char *text, const char *what, Figures *f, FILE *err)
{
    int line = 0;
    int docs = bench_json_documents(text, flatten_document, f, &line);
    if (docs < 0) {
        fprintf(err, "navbot bench: %s:%d: not the JSON of a benchmark (give a file written by --json)\n", what, line);
        return false;
    }
    if (docs == 0) {
        fprintf(err, "navbot bench: %s: no JSON in it (give a file written by --json)\n", what);
        return false;
    }
    if (f->nomem) {
        fprintf(err, "navbot bench: out of memory reading %s\n", what);
        return false;
    }
    return true;
}

static bool is_time(const char *name)
{
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == ']') return false;
    return n > 3 &&
           (strcmp(name + n - 3, "_us") == 0 || strcmp(name + n - 3, "_ms") == 0 || strcmp(name + n - 3, "_ns") == 0);
}

bool bench_compare_load(const char *path, BenchCompare *out, FILE *err)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    NavError e;
    if (NAV_FAILED(fileio_read(path, 64u << 20, &text, &len, &e))) {
        char buf[512];
        fprintf(err, "navbot bench: --compare: %s\n", nav_error_format(&e, buf, sizeof buf));
        return false;
    }
    Figures f = { 0 };
    bool ok = read_documents(text, path, &f, err);
    nav_free(text);
    if (!ok) {
        nav_free(f.item);
        return false;
    }
    out->before = f.item;
    out->count = f.count;
    snprintf(out->path, sizeof out->path, "%s", path);
    return true;
}

void bench_compare_free(BenchCompare *c)
{
    nav_free(c->before);
    c->before = NULL;
    c->count = 0;
}

int bench_compare_print(const BenchCompare *c, const char *now_json, FILE *out, FILE *err)
{
    Figures now = { 0 };
    if (!read_documents(now_json, "this run's results", &now, err)) {
        nav_free(now.item);
        return 1;
    }
    const Figure *before = c->before;
    int shown = 0, slower = 0, faster = 0;
    fprintf(out, "compared with %s (before -> now; times moved by over 10 %% are marked)\n", c->path);
    fprintf(out, "%-72s %14s %14s %9s\n", "figure", "before", "now", "change");
    for (int i = 0; i < now.count; i++) {
        const Figure *b = NULL;
        for (int k = 0; k < c->count && !b; k++)
            if (strcmp(before[k].name, now.item[i].name) == 0) b = &before[k];
        if (!b) continue;
        double was = b->value, is = now.item[i].value;
        char change[32] = "same";
        if (was != is) {
            if (was != 0.0) snprintf(change, sizeof change, "%+.1f%%", 100.0 * (is - was) / fabs(was));
            else snprintf(change, sizeof change, "%+g", is - was);
        }
        const char *mark = "";
        if (is_time(now.item[i].name) && was > 0.0) {
            if (is > 1.10 * was) mark = "  slower", slower++;
            else if (is < was / 1.10) mark = "  faster", faster++;
        }
        fprintf(out, "%-72s %14.6g %14.6g %9s%s\n", now.item[i].name, was, is, change, mark);
        shown++;
    }
    fprintf(out, "%d figures in both; %d times slower, %d faster by over 10 %%; %d only now, %d only before\n", shown,
            slower, faster, now.count - shown, c->count - shown);
    nav_free(now.item);
    return 0;
}

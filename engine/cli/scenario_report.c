/*
** scenario_report.c — the scenario report's index.html (scenario_report.h).
**
** What a row shows is read back from the scenario's report text, the same
** lines `navbot test` prints (expected:, failed:, at:, error:, golden:,
** and the trace's "navbot replay ... --tick N"), so the page and the
** console never tell different stories.
*/
#include "cli/scenario_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define THUMB_WIDTH 320 /* as the thumbnails are drawn (cmd_test.c) */
#define PICTURE_WIDTH 480

void scenario_report_picture(const char *dir, const char *name, bool thumb, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s%s", dir, name, thumb ? ".thumb.png" : ".png");
}

/* {======= text into HTML ======= */

static void put_html(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
    }
}

static void html(FILE *f, const char *s) { put_html(f, s, (size_t)-1); }

/* A file name as a relative URL: anything but letters, digits and - _ .
** percent-encoded, so a name with spaces or '#' still links. */
static void put_url(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '_' || *p == '.')
            fputc(*p, f);
        else fprintf(f, "%%%02X", *p);
    }
}

/* The rest of the line after "label:" in text (leading spaces trimmed),
** its length in *n; NULL when no line starts with it. */
static const char *field(const char *text, const char *label, size_t *n)
{
    size_t k = strlen(label);
    for (const char *p = text; p && *p;) {
        const char *q = p;
        while (*q == ' ') q++;
        const char *e = strchr(q, '\n');
        if (strncmp(q, label, k) == 0) {
            q += k;
            while (*q == ' ') q++;
            *n = e ? (size_t)(e - q) : strlen(q);
            return q;
        }
        p = e ? e + 1 : NULL;
    }
    return NULL;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* }======= */

static const char STYLE[] = "body{font-family:sans-serif;margin:24px;background:#f4f5f7;color:#1d2129}\n"
                            "h1{font-size:22px;margin:0 0 4px}\n"
                            "p.sum{margin:0 0 16px;color:#555}\n"
                            "table{border-collapse:collapse;background:#fff}\n"
                            "th{background:#28385a;color:#fff;text-align:left;padding:8px 10px}\n"
                            "td{border-top:1px solid #d8dbe2;padding:8px 10px;vertical-align:top}\n"
                            "td.ok{background:#2e9d4f;color:#fff;font-weight:bold}\n"
                            "td.fail{background:#d0243c;color:#fff;font-weight:bold}\n"
                            "code,pre{font-family:monospace;font-size:12px}\n"
                            "pre{white-space:pre-wrap;max-width:420px;margin:6px 0 0}\n"
                            "td.cmd{max-width:240px;word-break:break-all}\n"
                            "img{display:block;border:0}\n"
                            "img.fail{border:4px solid #e6007e}\n"
                            ".msg{color:#b0182e;font-weight:bold;max-width:420px}\n";

static void write_row(FILE *f, const char *dir, const ScenarioReportRow *r)
{
    char pic[1024];
    fprintf(f, "<tr id=\"");
    put_url(f, r->name);
    fprintf(f, "\">\n<td><b>");
    html(f, r->name);
    fprintf(f, "</b><br><code>");
    html(f, r->file);
    fprintf(f, "</code></td>\n<td class=\"%s\">%s</td>\n", r->passed ? "ok" : "fail", r->passed ? "ok" : "FAIL");
    fprintf(f, "<td>%.2f&nbsp;s</td>\n<td><code>", r->seconds);
    if (r->has_hash) fprintf(f, "%016llx", (unsigned long long)r->hash);
    else fprintf(f, "-");
    fprintf(f, "</code></td>\n<td>");
    const char *text = r->text ? r->text : "";
    const char *details = strchr(text, '\n');
    details = details ? details + 1 : "";
    if (!r->passed) {
        size_t n = 0;
        const char *msg = field(details, "failed:", &n);
        if (!msg) msg = field(details, "error:", &n);
        if (!msg) msg = field(details, "golden:", &n);
        if (!msg) msg = field(text, "FAIL", &n);
        fprintf(f, "<div class=\"msg\">");
        if (msg) put_html(f, msg, n);
        fprintf(f, "</div>\n");
        const char *at = field(details, "at:", &n);
        if (at) {
            fprintf(f, "<div>at ");
            put_html(f, at, n);
            fprintf(f, "</div>\n");
        }
        const char *ex = field(details, "expected:", &n);
        if (ex) {
            fprintf(f, "<div>expected <code>");
            put_html(f, ex, n);
            fprintf(f, "</code></div>\n");
        }
        if (details[0]) {
            fprintf(f, "<details><summary>report</summary><pre>");
            html(f, details);
            fprintf(f, "</pre></details>\n");
        }
    }
    fprintf(f, "</td>\n<td>");
    scenario_report_picture(dir, r->name, r->passed, pic, sizeof pic);
    const char *base = strrchr(pic, '/') + 1;
    if (exists(pic)) {
        fprintf(f, "<a href=\"");
        put_url(f, base);
        fprintf(f, "\"><img src=\"");
        put_url(f, base);
        if (r->passed) fprintf(f, "\" width=\"%d\" alt=\"last tick of ", THUMB_WIDTH);
        else fprintf(f, "\" class=\"fail\" width=\"%d\" alt=\"failure of ", PICTURE_WIDTH);
        html(f, r->name);
        fprintf(f, "\"></a>");
    } else {
        fprintf(f, "no picture");
    }
    fprintf(f, "</td>\n<td class=\"cmd\"><code>");
    const char *replay = strstr(details, "(navbot replay ");
    if (!r->passed && replay) {
        const char *end = strchr(replay, ')');
        put_html(f, replay + 1, end ? (size_t)(end - replay - 1) : strlen(replay + 1));
    } else {
        fprintf(f, "navbot test ");
        html(f, r->file);
    }
    fprintf(f, "</code></td>\n</tr>\n");
}

bool scenario_report_write(const char *dir, const ScenarioReportRow *rows, int count, char *why, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        return false;
    }
    int passed = 0;
    for (int i = 0; i < count; i++) passed += rows[i].passed;
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>navbot scenarios</title>\n<style>\n%s</style>\n</head>\n<body>\n",
            STYLE);
    fprintf(f, "<h1>navbot scenarios</h1>\n<p class=\"sum\">%d passed, %d failed</p>\n", passed, count - passed);
    fprintf(f, "<table>\n<tr><th>scenario</th><th>result</th><th>wall</th><th>trace hash</th><th>what failed</th>"
               "<th>picture</th><th>replay</th></tr>\n");
    /* Failures first: they are what the page is opened for. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < count; i++)
            if (rows[i].passed == (pass == 1)) write_row(f, dir, &rows[i]);
    fprintf(f, "</table>\n</body>\n</html>\n");
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) snprintf(why, cap, "%s: cannot write it: %s", path, strerror(errno));
    return ok;
}

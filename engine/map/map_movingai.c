/*
** map_movingai.c — Moving AI benchmark grids.
**
**   type octile
**   height H
**   width W
**   map
**   H rows of W characters; row 0 is the north edge
**
** '.', 'G' and 'S' are passable; '@', 'O', 'T' and 'W' are blocked ('W' is
** water that only water can cross, so the benchmarks treat it as blocked).
** Cells are 1 m, so metres and scenario units agree. Besides the human
** class the world gets "point", a mover with no clearance, which is the
** mover the benchmarks' optimal lengths assume.
*/
#include "core/fileio.h"
#include "map/map.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

/* Parses "key value" where value is a positive integer. */
static bool header_int(const char *s, size_t n, const char *key, long *out)
{
    size_t k = strlen(key);
    if (n <= k || memcmp(s, key, k) != 0 || (s[k] != ' ' && s[k] != '\t')) return false;
    char buf[32];
    size_t m = n - k;
    if (m >= sizeof buf) m = sizeof buf - 1;
    memcpy(buf, s + k, m);
    buf[m] = '\0';
    char *end;
    long v = strtol(buf, &end, 10);
    while (*end == ' ' || *end == '\t') end++;
    if (end == buf || *end) return false;
    *out = v;
    return true;
}

static void describe_char(char c, char *out, size_t cap)
{
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f) snprintf(out, cap, "'%c'", c);
    else snprintf(out, cap, "byte 0x%02x", u);
}

NavWorld *map_load_movingai(const char *buf, size_t len, const char *name, NavError *err)
{
    NavLines r = { buf, buf + len, 0, name };
    const char *s;
    size_t n;
    long height = -1, width = -1;
    int size_line = 0; /* the later of the height and width lines */
    bool have_type = false, have_map = false;

    while (!have_map && fileio_next_line(&r, &s, &n)) {
        if (is_blank(s, n)) continue;
        long v;
        if (n >= 5 && memcmp(s, "type ", 5) == 0) {
            if (n - 5 != 6 || memcmp(s + 5, "octile", 6) != 0) {
                nav_error_set(err, NAV_E_FORMAT, name, r.line, 6, "type",
                              "unsupported map type '%.*s' (expected 'octile')", (int)NAV_MIN(n - 5, 40), s + 5);
                return NULL;
            }
            have_type = true;
        } else if (header_int(s, n, "height", &v) || header_int(s, n, "width", &v)) {
            /* Checked here, before a cell is allocated: a header asking for
            ** 20,000 x 20,000 is refused at its own line. */
            const char *key = s[0] == 'h' ? "height" : "width";
            if (v > NAV_MAX_WORLD_SIDE) {
                nav_error_set(err, NAV_E_FORMAT, name, r.line, (int)strlen(key) + 2, key,
                              "%s %ld is over the limit of %d cells a side", key, v, NAV_MAX_WORLD_SIDE);
                return NULL;
            }
            *(s[0] == 'h' ? &height : &width) = v;
            size_line = r.line;
        } else if (n == 3 && memcmp(s, "map", 3) == 0) {
            have_map = true;
        } else {
            char what[16];
            describe_char(s[0], what, sizeof what);
            nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL,
                          "expected a header line ('type octile', 'height N', 'width N' or 'map'), got %.*s%s",
                          (int)NAV_MIN(n, 40), s, n > 40 ? "..." : "");
            return NULL;
        }
    }
    if (!have_type) {
        nav_error_set(err, NAV_E_FORMAT, name, r.line, 0, "type", "missing 'type octile' header line");
        return NULL;
    }
    if (height < 0 || width < 0) {
        nav_error_set(err, NAV_E_FORMAT, name, r.line, 0, height < 0 ? "height" : "width",
                      "missing or negative '%s N' header line", height < 0 ? "height" : "width");
        return NULL;
    }
    if (!have_map) {
        nav_error_set(err, NAV_E_FORMAT, name, r.line, 0, NULL, "missing 'map' line before the grid (truncated file?)");
        return NULL;
    }
    if (width == 0 || height == 0) {
        nav_error_set(err, NAV_E_FORMAT, name, size_line, 0, "size",
                      "map size %ld x %ld is out of range (1 to %d a side)", width, height, NAV_MAX_WORLD_SIDE);
        return NULL;
    }
    if ((uint64_t)width * (uint64_t)height > NAV_MAX_CELLS) {
        nav_error_set(err, NAV_E_FORMAT, name, size_line, 0, "size",
                      "%ld x %ld is %llu cells, over the limit of %u cells", width, height,
                      (unsigned long long)width * (unsigned long long)height, NAV_MAX_CELLS);
        return NULL;
    }

    char base[64];
    const char *slash = strrchr(name, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : name);
    char *dot = strrchr(base, '.');
    if (dot) *dot = '\0';
    NavWorld *w = world_create(
        &(NavWorldDesc){ .width = (int)width, .height = (int)height, .cell_size = 1.0f, .name = base, .source = name },
        err);
    if (!w) return NULL;

    size_t cells = (size_t)width * (size_t)height;
    NavFloorAt *items = nav_malloc(cells * sizeof *items);
    if (!items) {
        world_destroy(w);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory for %zu cells", cells);
        return NULL;
    }
    size_t count = 0;
    for (long row = 0; row < height; row++) {
        if (!fileio_next_line(&r, &s, &n)) {
            nav_error_set(err, NAV_E_FORMAT, name, r.line, 0, NULL,
                          "the grid has %ld rows, the header says %ld (truncated file?)", row, height);
            goto fail;
        }
        if ((long)n != width) {
            nav_error_set(err, NAV_E_FORMAT, name, r.line, (int)NAV_MIN((long)n, width) + 1, NULL,
                          "row %ld has %zu cells, the header says width %ld", row, n, width);
            goto fail;
        }
        int cy = map_movingai_row_to_cy((int)row, (int)height);
        for (long col = 0; col < width; col++) {
            char c = s[col];
            switch (c) {
            case '.':
            case 'G':
            case 'S':
                items[count].cell = (uint32_t)cy * (uint32_t)width + (uint32_t)col;
                items[count].floor =
                    (NavFloor){ .z = 0.0f, .ceiling = INFINITY, .top = 0.0f, .contents = NAV_CONTENTS_FLOOR };
                count++;
                break;
            case '@':
            case 'O':
            case 'T':
            case 'W': break;
            default: {
                char what[16];
                describe_char(c, what, sizeof what);
                nav_error_set(err, NAV_E_FORMAT, name, r.line, (int)col + 1, NULL,
                              "unknown terrain %s (expected one of . G S @ O T W)", what);
                goto fail;
            }
            }
        }
    }
    while (fileio_next_line(&r, &s, &n)) {
        if (!is_blank(s, n)) {
            nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL, "more rows than the header's height %ld", height);
            goto fail;
        }
    }

    if (NAV_FAILED(world_set_floors(w, items, count, err))) goto fail;
    nav_free(items);
    items = NULL;

    NavClass human = class_defaults();
    NavClass point = class_defaults();
    snprintf(point.name, sizeof point.name, "point");
    point.radius = 0.0f;
    if (NAV_FAILED(world_add_layer(w, "ground", 0.0f, err)) || NAV_FAILED(world_add_class(w, &point, NULL, err)) ||
        NAV_FAILED(world_add_class(w, &human, NULL, err)))
        goto fail;
    return w;

fail:
    nav_free(items);
    world_destroy(w);
    return NULL;
}

/* {======= whole tokens ======= */

/* A whole-token integer. */
static bool parse_int_token(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < -1000000000L || v > 1000000000L) return false;
    *out = (int)v;
    return true;
}

static bool parse_double_token(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v)) return false;
    *out = v;
    return true;
}

/* }======= */

/* {======= scenario files (.scen) ======= */

NavStatus map_movingai_scen_parse(const char *path, char *text, MapScenProblem **out, int *count, NavError *err)
{
    *out = NULL;
    *count = 0;
    int cap = 0, n = 0;
    MapScenProblem *list = NULL;
    int line_no = 0;
    char *p = text;
    while (*p) {
        char *line = p;
        char *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
            p = nl + 1;
        } else {
            p += strlen(p);
        }
        line_no++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r') line[--len] = '\0';

        char *tok[10];
        int nt = 0;
        for (char *q = line; *q && nt < 10;) {
            while (*q == ' ' || *q == '\t') q++;
            if (!*q) break;
            tok[nt++] = q;
            while (*q && *q != ' ' && *q != '\t') q++;
            if (*q) *q++ = '\0';
        }
        if (nt == 0) continue; /* blank line */
        if (line_no == 1 && strcmp(tok[0], "version") == 0) continue;

        MapScenProblem sc = { .line = line_no };
        int bucket;
        const char *what = NULL;
        if (nt != 9) what = "expected 9 fields: bucket map width height start-x start-y goal-x goal-y length";
        else if (!parse_int_token(tok[0], &bucket)) what = "bucket is not a whole number";
        else if (!parse_int_token(tok[2], &sc.map_w) || !parse_int_token(tok[3], &sc.map_h) || sc.map_w <= 0 ||
                 sc.map_h <= 0)
            what = "map width and height must be positive whole numbers";
        else if (!parse_int_token(tok[4], &sc.sx) || !parse_int_token(tok[5], &sc.sy) ||
                 !parse_int_token(tok[6], &sc.gx) || !parse_int_token(tok[7], &sc.gy))
            what = "start and goal must be whole-number cell coordinates";
        else if (!parse_double_token(tok[8], &sc.optimal) || sc.optimal < 0.0)
            what = "optimal length is not a number >= 0";
        else if (sc.sx < 0 || sc.sy < 0 || sc.gx < 0 || sc.gy < 0 || sc.sx >= sc.map_w || sc.gx >= sc.map_w ||
                 sc.sy >= sc.map_h || sc.gy >= sc.map_h)
            what = "start or goal lies outside the map size the line gives";
        if (what) {
            nav_free(list);
            return nav_error_set(err, NAV_E_FORMAT, path, line_no, 0, NULL, "malformed scenario: %s", what);
        }
        if (n == cap) {
            int ncap = cap ? cap * 2 : 1024;
            MapScenProblem *nl2 = nav_realloc(list, sizeof *list * (size_t)ncap);
            if (!nl2) {
                nav_free(list);
                return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for %d scenarios", ncap);
            }
            list = nl2;
            cap = ncap;
        }
        list[n++] = sc;
    }
    *out = list;
    *count = n;
    return NAV_OK;
}

/* }======= */

/*
** font.c — the bitmap font reader and text drawing.
**
** A glyph is HEIGHT rows of bits (bit k is column k), so a font is a fixed
** block with no pointers: loading allocates once, drawing never does.
** Characters without a glyph share one hollow box made at load time.
**
** DOES NOT: cache rendered text or know about colours beyond the caller's.
*/
#include "render/font.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio.h"

#define FIRST_CHAR 32
#define LAST_CHAR 126
#define CHAR_COUNT (LAST_CHAR - FIRST_CHAR + 1)
/* Far above any real font (the shipped one is about 12 KB). */
#define MAX_FILE_BYTES (1u << 20)

struct NavFont {
    int width, height, baseline;
    bool defined[CHAR_COUNT];
    int defined_at[CHAR_COUNT]; /* line of each glyph, for duplicates */
    uint32_t rows[CHAR_COUNT][NAV_FONT_MAX_SIDE];
    uint32_t box[NAV_FONT_MAX_SIDE]; /* drawn for everything else */
};

/* {======= reading ======= */

typedef NavLines Reader;

/* Next line without its terminator and trailing blanks (so CRLF files and
** stray spaces after a row are fine); false at end of input. */
static bool next_line(Reader *r, const char **s, size_t *n)
{
    if (!fileio_next_line(r, s, n)) return false;
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
    return true;
}

typedef struct Token {
    const char *s;
    size_t n;
} Token;

/* Split a line at blanks into at most cap tokens; returns how many there
** are (which may exceed cap: the rest are counted, not stored). */
static size_t split(const char *s, size_t n, Token *tok, size_t cap)
{
    size_t count = 0, i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i == n) break;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t') i++;
        if (count < cap) tok[count] = (Token){ s + start, i - start };
        count++;
    }
    return count;
}

static bool token_is(Token t, const char *word) { return t.n == strlen(word) && memcmp(t.s, word, t.n) == 0; }

/* A whole number of at most 6 digits, or -1. */
static long token_number(Token t)
{
    if (t.n == 0 || t.n > 6) return -1;
    long v = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] < '0' || t.s[i] > '9') return -1;
        v = v * 10 + (t.s[i] - '0');
    }
    return v;
}

static void describe_char(char c, char *out, size_t cap)
{
    unsigned char u = (unsigned char)c;
    if (u > 0x20 && u < 0x7f) snprintf(out, cap, "'%c'", c);
    else if (u == ' ') snprintf(out, cap, "a space");
    else if (u == '\t') snprintf(out, cap, "a tab");
    else snprintf(out, cap, "byte 0x%02x", u);
}

/* How errors name a glyph: 'A', or space. */
static const char *glyph_label(int code, char out[16])
{
    if (code == ' ') snprintf(out, 16, "space");
    else snprintf(out, 16, "'%c'", code);
    return out;
}

/* "navbot-font 1 WIDTH HEIGHT BASELINE" into f; false with err set. */
static bool parse_header(NavFont *f, const Reader *r, const char *s, size_t n, NavError *err)
{
    Token t[5] = { { 0 } };
    size_t count = split(s, n, t, 5);
    if (count == 0 || !token_is(t[0], "navbot-font") || count != 5) {
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, 1, NULL,
                      "bad header: expected 'navbot-font 1 WIDTH HEIGHT BASELINE', found '%.*s%s'", (int)NAV_MIN(n, 40),
                      s, n > 40 ? "..." : "");
        return false;
    }
    if (token_number(t[1]) != 1) {
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, (int)(t[1].s - s) + 1, NULL,
                      "bad header: format version '%.*s' is not supported (this reader knows 1)",
                      (int)NAV_MIN(t[1].n, 20), t[1].s);
        return false;
    }
    static const char *const what[3] = { "width", "height", "baseline" };
    long v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = token_number(t[i + 2]);
        long hi = i == 2 ? v[1] : NAV_FONT_MAX_SIDE;
        if (v[i] < 1 || v[i] > hi) {
            nav_error_set(err, NAV_E_FORMAT, r->name, r->line, (int)(t[i + 2].s - s) + 1, NULL,
                          "bad header: %s '%.*s' is not a whole number from 1 to %ld%s", what[i],
                          (int)NAV_MIN(t[i + 2].n, 20), t[i + 2].s, hi, i == 2 ? " (the height)" : "");
            return false;
        }
    }
    f->width = (int)v[0];
    f->height = (int)v[1];
    f->baseline = (int)v[2];
    return true;
}

/* The character a "glyph NAME" line names, or -1 with err set. */
static int parse_glyph_name(const Reader *r, const char *s, size_t n, NavError *err)
{
    Token t[2] = { { 0 } };
    size_t count = split(s, n, t, 2);
    if (count != 2) {
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, 1, NULL,
                      "expected 'glyph NAME' with one name, found '%.*s%s'", (int)NAV_MIN(n, 40), s,
                      n > 40 ? "..." : "");
        return -1;
    }
    Token name = t[1];
    int column = (int)(name.s - s) + 1;
    unsigned char c0 = (unsigned char)name.s[0];
    if (name.n == 1 && c0 > ' ' && c0 <= LAST_CHAR) return c0;
    if (token_is(name, "space")) return ' ';
    bool digits = true;
    for (size_t i = 0; i < name.n; i++) digits = digits && name.s[i] >= '0' && name.s[i] <= '9';
    if (name.n >= 2 && digits) {
        long code = token_number(name);
        if (code >= FIRST_CHAR && code <= LAST_CHAR) return (int)code;
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, column, NULL,
                      "glyph code %.*s is outside the printable characters %d to %d", (int)NAV_MIN(name.n, 20), name.s,
                      FIRST_CHAR, LAST_CHAR);
        return -1;
    }
    nav_error_set(err, NAV_E_FORMAT, r->name, r->line, column, NULL,
                  "unknown glyph name '%.*s%s' (expected the character itself, 'space', or a code %d to %d)",
                  (int)NAV_MIN(name.n, 20), name.s, name.n > 20 ? "..." : "", FIRST_CHAR, LAST_CHAR);
    return -1;
}

/* One row of the glyph being read into *bits; false with err set. */
static bool parse_row(const NavFont *f, const Reader *r, const char *s, size_t n, int code, int row, uint32_t *bits,
                      NavError *err)
{
    char label[16];
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#' || s[i] == '.') continue;
        char what[16];
        describe_char(s[i], what, sizeof what);
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, (int)i + 1, NULL,
                      "bad character %s in row %d of glyph %s (rows are '#' for ink and '.' for none)", what, row + 1,
                      glyph_label(code, label));
        return false;
    }
    if (n != (size_t)f->width) {
        nav_error_set(err, NAV_E_FORMAT, r->name, r->line, (int)NAV_MIN(n, (size_t)f->width) + 1, NULL,
                      "row %d of glyph %s is %zu characters wide, expected %d%s", row + 1, glyph_label(code, label), n,
                      f->width, n == 0 ? " (a blank line inside a glyph)" : "");
        return false;
    }
    uint32_t b = 0;
    for (int k = 0; k < f->width; k++)
        if (s[k] == '#') b |= 1u << k;
    *bits = b;
    return true;
}

static bool is_row(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '#' && s[i] != '.') return false;
    return true;
}

/* The hollow box: the capital-letter area, one column short of the cell so
** boxes side by side stay apart. */
static void make_box(NavFont *f)
{
    int x1 = f->width >= 3 ? f->width - 2 : f->width - 1;
    int y0 = f->height >= 3 ? 1 : 0;
    int y1 = f->baseline - 1 > y0 ? f->baseline - 1 : f->height - 1;
    uint32_t full = (x1 >= 31 ? 0xffffffffu : (1u << (x1 + 1)) - 1u);
    uint32_t sides = 1u | (1u << x1);
    for (int y = y0; y <= y1; y++) f->box[y] = (y == y0 || y == y1) ? full : sides;
}

NavFont *font_parse(const char *text, size_t len, const char *name, NavError *err)
{
    if (!name) name = "(font)";
    NavFont *f = nav_calloc(1, sizeof *f);
    if (!f) {
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory for a font");
        return NULL;
    }
    Reader r = { text, text + len, 0, name };
    const char *s;
    size_t n;
    bool have_header = false;
    int code = -1, rows_read = 0, glyph_line = 0; /* the glyph being read */
    char label[16];

    while (next_line(&r, &s, &n)) {
        if (code >= 0 && rows_read < f->height) {
            Token t[1] = { { 0 } };
            if (split(s, n, t, 1) >= 1 && token_is(t[0], "glyph")) {
                nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL,
                              "missing rows: glyph %s (line %d) has %d of its %d rows before the next glyph",
                              glyph_label(code, label), glyph_line, rows_read, f->height);
                goto fail;
            }
            if (!parse_row(f, &r, s, n, code, rows_read, &f->rows[code - FIRST_CHAR][rows_read], err)) goto fail;
            rows_read++;
            continue;
        }
        /* Blank lines (next_line strips trailing blanks) and comments. */
        if (n == 0 || (n >= 2 && s[0] == '-' && s[1] == '-')) continue;
        if (!have_header) {
            if (!parse_header(f, &r, s, n, err)) goto fail;
            have_header = true;
            continue;
        }
        Token t[1] = { { 0 } };
        split(s, n, t, 1);
        if (token_is(t[0], "glyph")) {
            int c = parse_glyph_name(&r, s, n, err);
            if (c < 0) goto fail;
            if (f->defined[c - FIRST_CHAR]) {
                nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL,
                              "duplicate glyph: %s is already defined at line %d", glyph_label(c, label),
                              f->defined_at[c - FIRST_CHAR]);
                goto fail;
            }
            f->defined[c - FIRST_CHAR] = true;
            f->defined_at[c - FIRST_CHAR] = r.line;
            code = c;
            rows_read = 0;
            glyph_line = r.line;
        } else if (code >= 0 && is_row(s, n)) {
            nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL,
                          "extra row: glyph %s (line %d) already has its %d rows", glyph_label(code, label), glyph_line,
                          f->height);
            goto fail;
        } else {
            nav_error_set(err, NAV_E_FORMAT, name, r.line, 1, NULL, "expected 'glyph NAME', found '%.*s%s'",
                          (int)NAV_MIN(n, 40), s, n > 40 ? "..." : "");
            goto fail;
        }
    }
    if (!have_header) {
        nav_error_set(err, NAV_E_FORMAT, name, r.line > 0 ? r.line : 1, 0, NULL,
                      "bad header: the file has no 'navbot-font 1 WIDTH HEIGHT BASELINE' line");
        goto fail;
    }
    if (code >= 0 && rows_read < f->height) {
        /* Reported at the glyph's line: the end of the file is no place. */
        nav_error_set(err, NAV_E_FORMAT, name, glyph_line, 0, NULL,
                      "missing rows: glyph %s has %d of its %d rows at the end of the file", glyph_label(code, label),
                      rows_read, f->height);
        goto fail;
    }
    make_box(f);
    return f;

fail:
    nav_free(f);
    return NULL;
}

NavFont *font_load(const char *path, NavError *err)
{
    char *data;
    size_t len;
    if (NAV_FAILED(fileio_read(path, MAX_FILE_BYTES, &data, &len, err))) return NULL;
    NavFont *f = font_parse(data, len, path, err);
    nav_free(data);
    return f;
}

/* Cut path at its last '/' ("/a/b" -> "/a", "/a" -> ""): the parent
** folder, "" standing for the root. Text, not the file system, so the
** paths shown in errors have no "..". */
static void cut_last(char *path)
{
    char *slash = strrchr(path, '/');
    if (slash) *slash = '\0';
    else path[0] = '\0';
}

typedef struct Places {
    char path[5][4096];
    int count;
} Places;

/* Add a place to look; one too long for the buffer is left out rather
** than looked for under a cut name. */
static void add_place(Places *pl, const char *dir, const char *sub)
{
    int w = snprintf(pl->path[pl->count], sizeof pl->path[0], "%s%s/%s", dir, sub, NAV_FONT_DEFAULT_FILE);
    if (w > 0 && (size_t)w < sizeof pl->path[0]) pl->count++;
}

NavFont *font_load_default(NavError *err)
{
    Places pl = { .count = 0 };
    const char *env = getenv("NAVBOT_ASSETS");
    if (env && env[0]) add_place(&pl, env, "");
    add_place(&pl, "assets", "");
    /* The binaries live in bin/<config>/: the checkout is two levels up
    ** (one for a binary copied into bin/). */
    char exe[4096];
    ssize_t got = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (got > 0 && (size_t)got < sizeof exe - 1) {
        exe[got] = '\0';
        cut_last(exe);
        cut_last(exe);
        char up1[4096];
        memcpy(up1, exe, strlen(exe) + 1);
        cut_last(exe);
        add_place(&pl, exe, "/assets");
        add_place(&pl, up1, "/assets");
        /* Installed: PREFIX/bin/navbot beside PREFIX/share/navbot/assets. */
        add_place(&pl, up1, "/share/navbot/assets");
    }
    for (int i = 0; i < pl.count; i++) {
        struct stat st;
        if (stat(pl.path[i], &st) == 0) return font_load(pl.path[i], err);
    }
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < pl.count && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", pl.path[i]);
        if (w > 0) used += (size_t)w;
    }
    nav_error_set(err, NAV_E_IO, NAV_FONT_DEFAULT_FILE, 0, 0, NULL,
                  "font not found (set NAVBOT_ASSETS to the assets folder); looked for %s", list);
    return NULL;
}

void font_destroy(NavFont *f) { nav_free(f); }

/* }======= */

/* {======= measuring ======= */

static int clamp_scale(int scale) { return scale < 1 ? 1 : (scale > NAV_FONT_MAX_SCALE ? NAV_FONT_MAX_SCALE : scale); }

static int clamp_int(int64_t v) { return v > INT_MAX ? INT_MAX : (int)v; }

static const uint32_t *glyph_bits(const NavFont *f, unsigned char ch)
{
    if (ch >= FIRST_CHAR && ch <= LAST_CHAR && f->defined[ch - FIRST_CHAR]) return f->rows[ch - FIRST_CHAR];
    return f->box;
}

/* Length in bytes of the line starting at s (up to '\n' or the end). */
static size_t line_length(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (size_t)(nl - s) : strlen(s);
}

int font_glyph_width(const NavFont *f, int scale) { return f ? f->width * clamp_scale(scale) : 0; }

int font_line_height(const NavFont *f, int scale) { return f ? f->height * clamp_scale(scale) : 0; }

int font_text_width(const NavFont *f, const char *text, int scale)
{
    if (!f || !text) return 0;
    size_t widest = 0;
    for (const char *s = text;;) {
        size_t n = line_length(s);
        widest = NAV_MAX(widest, n);
        if (!s[n]) break;
        s += n + 1;
    }
    return clamp_int((int64_t)NAV_MIN(widest, (size_t)INT_MAX) * font_glyph_width(f, scale));
}

int font_text_height(const NavFont *f, const char *text, int scale)
{
    if (!f || !text) return 0;
    int64_t lines = 1;
    for (const char *s = text; (s = strchr(s, '\n')) != NULL; s++) lines++;
    return clamp_int(lines * font_line_height(f, scale));
}

/* }======= */

/* {======= drawing ======= */

int font_draw(NavImage *img, const NavFont *f, int x, int y, const char *text, NavColor c, int scale)
{
    if (!f || !text) return 0;
    if (img) {
        int s = clamp_scale(scale);
        int64_t cw = (int64_t)f->width * s, lh = (int64_t)f->height * s;
        int64_t cx = x, cy = y;
        for (const char *p = text; *p; p++) {
            if (*p == '\n') {
                cx = x;
                cy += lh;
                continue;
            }
            /* Whole glyphs off the canvas are skipped, which also keeps
            ** the coordinates below within int. */
            if (cx < img->width && cx + cw > 0 && cy < img->height && cy + lh > 0) {
                const uint32_t *bits = glyph_bits(f, (unsigned char)*p);
                for (int row = 0; row < f->height; row++)
                    for (int k = 0; k < f->width; k++)
                        if (bits[row] >> k & 1u) image_fill_rect(img, (int)(cx + k * s), (int)(cy + row * s), s, s, c);
            }
            cx += cw;
        }
    }
    return font_text_width(f, text, scale);
}

/* A line of text placed on the canvas, for ink lookups by pixel. */
typedef struct PlacedLine {
    const char *s;
    size_t n;
    int64_t y;
} PlacedLine;

/* Whether canvas pixel (px, py) is ink of any of the lines. */
static bool ink_at(const NavFont *f, int s, int64_t x, const PlacedLine *lines, int count, int64_t px, int64_t py)
{
    if (px < x) return false;
    int64_t col = (px - x) / s, cell = col / f->width;
    for (int i = 0; i < count; i++) {
        const PlacedLine *l = &lines[i];
        if (!l->s || py < l->y || cell >= (int64_t)l->n) continue;
        int64_t row = (py - l->y) / s;
        if (row >= f->height) continue;
        return glyph_bits(f, (unsigned char)l->s[cell])[row] >> (col % f->width) & 1u;
    }
    return false;
}

/* Lines are done one at a time, each looking at its neighbours, because an
** outline crosses into the line above and below. Every canvas pixel is
** decided once (ink, outline or nothing) and belongs to one line's band:
** its own rows, plus the row above the first and below the last. */
int font_draw_outlined(NavImage *img, const NavFont *f, int x, int y, const char *text, NavColor c, NavColor outline,
                       int scale)
{
    if (!f || !text) return 0;
    if (!img) return font_text_width(f, text, scale);
    int s = clamp_scale(scale);
    int64_t cw = (int64_t)f->width * s, lh = (int64_t)f->height * s;
    PlacedLine near[3] = { { NULL, 0, 0 }, { text, line_length(text), y }, { NULL, 0, 0 } };
    for (;;) {
        PlacedLine *cur = &near[1];
        bool last = !cur->s[cur->n];
        near[2] = last ? (PlacedLine){ NULL, 0, 0 }
                       : (PlacedLine){ cur->s + cur->n + 1, line_length(cur->s + cur->n + 1), cur->y + lh };
        int64_t top = cur->y - (near[0].s ? 0 : 1), bottom = cur->y + lh + (last ? 1 : 0);
        size_t widest = NAV_MAX(NAV_MAX(near[0].n, cur->n), near[2].n);
        int64_t left = (int64_t)x - 1, right = (int64_t)x + (int64_t)widest * cw + 1;
        int64_t y0 = NAV_MAX(top, 0), y1 = NAV_MIN(bottom, (int64_t)img->height);
        int64_t x0 = NAV_MAX(left, 0), x1 = NAV_MIN(right, (int64_t)img->width);
        for (int64_t py = y0; py < y1; py++) {
            for (int64_t px = x0; px < x1; px++) {
                if (ink_at(f, s, x, near, 3, px, py)) {
                    image_set_pixel(img, (int)px, (int)py, c);
                    continue;
                }
                bool edge = false;
                for (int dy = -1; dy <= 1 && !edge; dy++)
                    for (int dx = -1; dx <= 1 && !edge; dx++)
                        edge = (dx || dy) && ink_at(f, s, x, near, 3, px + dx, py + dy);
                if (edge) image_set_pixel(img, (int)px, (int)py, outline);
            }
        }
        if (last) break;
        near[0] = near[1];
        near[1] = near[2];
    }
    return font_text_width(f, text, scale);
}

/* }======= */

/*
** map_obj.c — the Wavefront .obj reader of mesh maps.
**
** What is read: `v x y z` (a fourth number, w, or three more, a vertex
** colour, are allowed and ignored), `f` with references v, v/vt, v//vn or
** v/vt/vn (1-based; a negative one counts back from the vertices read so
** far), `usemtl NAME`. Polygons are fanned from their first corner.
** What is allowed and ignored: `vt`, `vn`, `vp`, `o`, `g`, `s`, `mtllib`,
** `l`, `p`, the free-form geometry statements, `#` comments (also after a
** statement), blank lines, CRLF line ends, a `\` joining a line to the
** next, and a UTF-8 byte order mark.
**
** What is refused, with file:line: an unknown statement; a vertex with
** fewer than three numbers or one that is not a finite number or is
** beyond a million metres; a face with fewer than three corners, a
** reference of 0, one to a vertex not read yet (OBJ files list vertices
** before the faces that use them), a face of zero area, a polygon that
** folds over when fanned (a concave face: exporters can triangulate); a
** NUL byte; more vertices or triangles than the limit. The message says
** what was found and what was expected.
*/
#include "map/map_mesh_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"

/* {======= the lexer ======= */

typedef struct Lex {
    const char *p, *end;
    uint32_t line;
    const char *file;
    NavError *err;
} Lex;

#define OBJ_MAX_COORD 1e6

static NavStatus fail(Lex *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static NavStatus fail(Lex *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    NavStatus st = nav_error_setv(L->err, NAV_E_FORMAT, L->file, (int)L->line, 0, NULL, fmt, ap);
    va_end(ap);
    return st;
}

/* Skips blanks within the statement, and `\` line joins. */
static void skip_blank(Lex *L)
{
    while (L->p < L->end) {
        char c = *L->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            L->p++;
        } else if (c == '\\') {
            const char *q = L->p + 1;
            while (q < L->end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
            if (q < L->end && *q == '\n') {
                L->p = q + 1;
                L->line++;
            } else {
                return;
            }
        } else {
            return;
        }
    }
}

/* At the end of the statement: its line's end, a comment or the file's end. */
static bool at_end(const Lex *L) { return L->p >= L->end || *L->p == '\n' || *L->p == '#'; }

/* The next word of the statement (NULL at its end). */
static const char *word(Lex *L, size_t *n)
{
    skip_blank(L);
    if (at_end(L)) return NULL;
    const char *s = L->p;
    while (L->p < L->end) {
        char c = *L->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n' || c == '#') break;
        if (c == '\\') {
            /* A join ends the word; a backslash inside one is part of it. */
            const char *q = L->p + 1;
            while (q < L->end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
            if (q >= L->end || *q == '\n') break;
        }
        L->p++;
    }
    *n = (size_t)(L->p - s);
    return s;
}

/* The rest of the statement, blanks trimmed (a name: `usemtl my mat`). */
static const char *rest(Lex *L, size_t *n)
{
    skip_blank(L);
    const char *s = L->p;
    while (L->p < L->end && *L->p != '\n' && *L->p != '#') L->p++;
    const char *e = L->p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    *n = (size_t)(e - s);
    return s;
}

/* To the start of the next statement's line: past what is left of this
** one (ignored words, a comment), through any `\` joins before a comment. */
static void next_line(Lex *L)
{
    bool comment = false, joined = false;
    while (L->p < L->end) {
        char c = *L->p++;
        if (c == '\n') {
            L->line++;
            if (!joined) return;
            joined = false;
        } else if (c == '#') {
            comment = true;
        } else if (c == '\\' && !comment) {
            joined = true;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            joined = false;
        }
    }
}

/* A word shown in a message: at most 24 characters, non-printing ones as '?'. */
static const char *shown(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 4 < cap && i < 24; i++) out[k++] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    if (n > 24 && k + 4 < cap) out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k] = '\0';
    return out;
}

/* A decimal number (sign, digits, point, exponent): no nan, inf or hex,
** which strtod alone would take. */
static NavStatus number(Lex *L, const char *s, size_t n, const char *what, double *out)
{
    char buf[64], sh[32];
    bool ok = n > 0 && n < sizeof buf;
    for (size_t i = 0; ok && i < n; i++) {
        char c = s[i];
        ok = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
    }
    if (ok) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        double v = strtod(buf, &end);
        if (end != buf + n) ok = false;
        else if (!isfinite(v) || errno == ERANGE)
            return fail(L, "%s '%s' is not a finite number", what, shown(s, n, sh, sizeof sh));
        else if (fabs(v) > OBJ_MAX_COORD)
            return fail(L, "%s %s is beyond %g m: a mesh map's coordinates are metres", what,
                        shown(s, n, sh, sizeof sh), OBJ_MAX_COORD);
        else *out = v;
    }
    if (ok) return NAV_OK;
    /* nan and inf are words; name them for what they are. The word may
    ** end the buffer: compare only within its n bytes. */
    size_t k = n > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (n - k >= 3 && ((strncasecmp(s + k, "nan", 3) == 0) || strncasecmp(s + k, "inf", 3) == 0))
        return fail(L, "%s '%s' is not a finite number", what, shown(s, n, sh, sizeof sh));
    return fail(L, "%s '%s' is not a number", what, shown(s, n, sh, sizeof sh));
}

/* }======= */

/* {======= the mesh being read ======= */

static NavStatus grow(Lex *L, void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap) return NAV_OK;
    uint32_t c = *cap ? *cap : 256;
    while (c < need) c = c > UINT32_MAX / 2 ? need : c * 2;
    void *q = nav_realloc_array(*p, c, size);
    if (!q) return nav_error_set(L->err, NAV_E_NOMEM, L->file, (int)L->line, 0, NULL, "out of memory reading the mesh");
    *p = q;
    *cap = c;
    return NAV_OK;
}

void obj_free(ObjMesh *m)
{
    nav_free(m->v);
    nav_free(m->v_line);
    nav_free(m->tri);
    nav_free(m->t_line);
    nav_free(m->t_mat);
    nav_free(m->mat);
    memset(m, 0, sizeof *m);
}

static NavStatus add_vertex(Lex *L, ObjMesh *m, uint32_t max_items)
{
    double c[3];
    static const char *const AXIS[3] = { "x", "y", "z" };
    for (int i = 0; i < 3; i++) {
        size_t n;
        const char *s = word(L, &n);
        if (!s) return fail(L, "a vertex needs x, y and z; this one has %d number%s", i, i == 1 ? "" : "s");
        char what[16];
        snprintf(what, sizeof what, "vertex %s", AXIS[i]);
        NavStatus st = number(L, s, n, what, &c[i]);
        if (NAV_FAILED(st)) return st;
    }
    if (m->nv >= max_items) return fail(L, "more than %u vertices, the limit of a mesh map", max_items);
    uint32_t vcap = m->v_cap, lcap = m->v_cap;
    if (NAV_FAILED(grow(L, (void **)&m->v, &vcap, m->nv + 1, 3 * sizeof *m->v)) ||
        NAV_FAILED(grow(L, (void **)&m->v_line, &lcap, m->nv + 1, sizeof *m->v_line)))
        return NAV_FAILURE | NAV_E_NOMEM;
    m->v_cap = vcap < lcap ? vcap : lcap;
    for (int i = 0; i < 3; i++) m->v[3 * m->nv + (uint32_t)i] = (float)c[i];
    m->v_line[m->nv++] = L->line;
    return NAV_OK; /* w or a colour may follow: the rest of the line is skipped */
}

/* One reference of a face: v, v/vt, v//vn or v/vt/vn. Returns the 0-based
** vertex in *out. */
static NavStatus reference(Lex *L, const ObjMesh *m, const char *s, size_t n, uint32_t *out)
{
    char sh[32];
    long long part[3] = { 0, 0, 0 };
    bool given[3] = { false, false, false };
    int k = 0;
    size_t i = 0;
    while (k < 3) {
        size_t start = i;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        size_t digits = i;
        long long v = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (v < 1000000000000ll) v = v * 10 + (s[i] - '0');
            i++;
        }
        if (i > digits) {
            given[k] = true;
            part[k] = s[start] == '-' ? -v : v;
        } else if (i != start || k == 0) {
            break; /* a sign with no digits, or no vertex number */
        }
        k++;
        if (i < n && s[i] == '/') i++;
        else break;
    }
    if (i != n || !given[0])
        return fail(L, "'%s' is not a vertex reference (expected v, v/vt, v//vn or v/vt/vn, numbers from 1)",
                    shown(s, n, sh, sizeof sh));
    long long r = part[0];
    if (r == 0) return fail(L, "vertex reference 0: OBJ counts vertices from 1 (or back from -1)");
    long long idx = r > 0 ? r - 1 : (long long)m->nv + r;
    if (idx < 0 || idx >= (long long)m->nv) {
        if (r > 0) return fail(L, "the face uses vertex %lld, but only %u vertices come before this line", r, m->nv);
        return fail(L, "vertex reference %lld counts back past the first vertex (%u come before this line)", r, m->nv);
    }
    *out = (uint32_t)idx;
    return NAV_OK;
}

static void vsub(const float *a, const float *b, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = (double)a[i] - (double)b[i];
}

static void vcross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double vdot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Checks a face's corners and fans it into triangles. */
static NavStatus add_face(Lex *L, ObjMesh *m, const uint32_t *c, uint32_t n, uint16_t mat, uint32_t max_items)
{
    if (n < 3) return fail(L, "a face needs at least 3 corners, this one has %u", n);
    /* The polygon's normal (Newell's method) against its size: no area
    ** means corners that coincide or lie on one line. */
    double N[3] = { 0, 0, 0 }, longest = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        const float *a = m->v + 3 * c[i], *b = m->v + 3 * c[(i + 1) % n];
        N[0] += ((double)a[1] - b[1]) * ((double)a[2] + b[2]);
        N[1] += ((double)a[2] - b[2]) * ((double)a[0] + b[0]);
        N[2] += ((double)a[0] - b[0]) * ((double)a[1] + b[1]);
        double e[3];
        vsub(a, b, e);
        longest = fmax(longest, vdot(e, e));
    }
    double area2 = sqrt(vdot(N, N));
    if (!(area2 > 1e-9 * longest) || longest == 0.0)
        return fail(L, "the face has zero area: its corners coincide or lie on one line");
    if (m->nt + (n - 2) > max_items || m->nt + (n - 2) < m->nt)
        return fail(L, "more than %u triangles, the limit of a mesh map", max_items);
    uint32_t c1 = m->t_cap, c2 = m->t_cap, c3 = m->t_cap;
    if (NAV_FAILED(grow(L, (void **)&m->tri, &c1, m->nt + n, 3 * sizeof *m->tri)) ||
        NAV_FAILED(grow(L, (void **)&m->t_line, &c2, m->nt + n, sizeof *m->t_line)) ||
        NAV_FAILED(grow(L, (void **)&m->t_mat, &c3, m->nt + n, sizeof *m->t_mat)))
        return NAV_FAILURE | NAV_E_NOMEM;
    m->t_cap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
    for (uint32_t i = 1; i + 1 < n; i++) {
        double e1[3], e2[3], t[3];
        vsub(m->v + 3 * c[i], m->v + 3 * c[0], e1);
        vsub(m->v + 3 * c[i + 1], m->v + 3 * c[0], e2);
        vcross(e1, e2, t);
        double tl = sqrt(vdot(t, t));
        /* A sliver of the fan (three corners on a line) covers nothing. */
        if (!(tl > 1e-9 * longest)) continue;
        if (vdot(t, N) < -1e-6 * tl * area2)
            return fail(L,
                        "a concave face: fanned from its first corner it folds over (corner %u); split it into "
                        "triangles or convex faces",
                        i + 2);
        m->tri[3 * m->nt + 0] = c[0];
        m->tri[3 * m->nt + 1] = c[i];
        m->tri[3 * m->nt + 2] = c[i + 1];
        m->t_line[m->nt] = L->line;
        m->t_mat[m->nt] = mat;
        m->nt++;
    }
    m->faces++;
    return NAV_OK;
}

static NavStatus use_material(Lex *L, ObjMesh *m, uint16_t *current)
{
    size_t n;
    const char *s = rest(L, &n);
    char sh[32];
    if (n == 0) return fail(L, "usemtl needs a material name");
    if (n >= OBJ_NAME_MAX)
        return fail(L, "material name '%s' is longer than %d characters", shown(s, n, sh, sizeof sh), OBJ_NAME_MAX - 1);
    for (uint32_t i = 1; i < m->nmat; i++) {
        if (strlen(m->mat[i]) == n && memcmp(m->mat[i], s, n) == 0) {
            *current = (uint16_t)i;
            return NAV_OK;
        }
    }
    if (m->nmat >= OBJ_MAX_MATERIALS) return fail(L, "more than %d materials", OBJ_MAX_MATERIALS - 1);
    if (NAV_FAILED(grow(L, (void **)&m->mat, &m->mat_cap, m->nmat + 1, sizeof *m->mat)))
        return NAV_FAILURE | NAV_E_NOMEM;
    memcpy(m->mat[m->nmat], s, n);
    m->mat[m->nmat][n] = '\0';
    *current = (uint16_t)m->nmat++;
    return NAV_OK;
}

/* }======= */

/* {======= statements ======= */

/* Statements read and ignored: texture and normal data, names, smoothing,
** lines and points, and the free-form geometry of the format. */
static const char *const IGNORED[] = {
    "vt",         "vn",        "vp",    "o",     "g",     "s",        "mtllib",   "l",      "p",
    "cstype",     "deg",       "bmat",  "step",  "curv",  "curv2",    "surf",     "parm",   "trim",
    "hole",       "scrv",      "sp",    "end",   "con",   "mg",       "lod",      "usemap", "maplib",
    "shadow_obj", "trace_obj", "ctech", "stech", "bevel", "c_interp", "d_interp", NULL,
};

static bool is_word(const char *s, size_t n, const char *w) { return strlen(w) == n && memcmp(s, w, n) == 0; }

NavStatus obj_parse(const char *buf, size_t len, const char *file, uint32_t max_items, ObjMesh *m, NavError *err)
{
    memset(m, 0, sizeof *m);
    Lex L = { buf, buf + len, 1, file, err };
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        uint32_t line = 1;
        for (const char *q = buf; q < nul; q++) line += *q == '\n';
        L.line = line;
        return fail(&L, "a NUL byte: an .obj file is text");
    }
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) L.p += 3;
    NavStatus st = NAV_OK;
    if (NAV_FAILED(grow(&L, (void **)&m->mat, &m->mat_cap, 1, sizeof *m->mat))) st = NAV_FAILURE | NAV_E_NOMEM;
    else m->mat[m->nmat++][0] = '\0';
    uint16_t material = 0;
    uint32_t *corners = NULL, corner_cap = 0;
    while (NAV_SUCCEEDED(st) && L.p < L.end) {
        size_t n;
        const char *kw = word(&L, &n);
        if (!kw) {
            next_line(&L);
            continue;
        }
        char sh[32];
        if (is_word(kw, n, "v")) {
            st = add_vertex(&L, m, max_items);
        } else if (is_word(kw, n, "f") || is_word(kw, n, "fo")) {
            uint32_t count = 0;
            const char *r;
            size_t rn;
            while (NAV_SUCCEEDED(st) && (r = word(&L, &rn)) != NULL) {
                st = grow(&L, (void **)&corners, &corner_cap, count + 1, sizeof *corners);
                if (NAV_SUCCEEDED(st)) st = reference(&L, m, r, rn, &corners[count]);
                if (NAV_SUCCEEDED(st) && ++count > max_items)
                    st = fail(&L, "a face of more than %u corners", max_items);
            }
            if (NAV_SUCCEEDED(st)) st = add_face(&L, m, corners, count, material, max_items);
        } else if (is_word(kw, n, "usemtl")) {
            st = use_material(&L, m, &material);
        } else {
            bool known = false;
            for (int i = 0; IGNORED[i] && !known; i++) known = is_word(kw, n, IGNORED[i]);
            if (!known)
                st = fail(&L, "unknown statement '%s' (an .obj mesh has v, f, usemtl, o, g, s, vt, vn, mtllib, ...)",
                          shown(kw, n, sh, sizeof sh));
        }
        if (NAV_SUCCEEDED(st)) next_line(&L);
    }
    nav_free(corners);
    if (NAV_FAILED(st)) obj_free(m);
    return st;
}

/* }======= */

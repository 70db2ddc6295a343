/*
** route_memory.c — navigation memories: what a bot knows, learning and
** forgetting under the bound per area, sharing, and the memory file.
** Routing within a memory is route_memsearch.c.
*/
#include "route/route_memory.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/textbuf.h"

struct NavMemory {
    const NavAreaGraph *ag;
    uint32_t areas, links;
    int cap;             /* known links per area at most */
    uint32_t *seen;      /* per link: stamp last seen, 0 unknown */
    uint8_t *in_known;   /* per area: known links into it */
    uint32_t *area_bits; /* per area: a bit, known */
    uint32_t version, known_links, known_areas;
};

NavMemory *memory_create(const NavAreaGraph *ag, int links_per_area, NavError *err)
{
    if (links_per_area == 0) links_per_area = MEMORY_LINKS_PER_AREA;
    if (links_per_area < 1 || links_per_area > MEMORY_LINKS_PER_AREA_MAX) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "links_per_area", "links per area must be 1 to %d, not %d",
                      MEMORY_LINKS_PER_AREA_MAX, links_per_area);
        return NULL;
    }
    NavMemory *m = nav_calloc(1, sizeof *m);
    if (!m) goto nomem;
    m->ag = ag;
    m->areas = area_count(ag);
    m->links = area_reach_count(ag);
    m->cap = links_per_area;
    m->seen = nav_calloc(m->links ? m->links : 1, sizeof *m->seen);
    m->in_known = nav_calloc(m->areas ? m->areas : 1, 1);
    m->area_bits = nav_calloc(m->areas / 32 + 1, sizeof *m->area_bits);
    if (!m->seen || !m->in_known || !m->area_bits) goto nomem;
    return m;
nomem:
    memory_destroy(m);
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a navigation memory");
    return NULL;
}

void memory_destroy(NavMemory *m)
{
    if (!m) return;
    nav_free(m->seen);
    nav_free(m->in_known);
    nav_free(m->area_bits);
    nav_free(m);
}

bool memory_copy(NavMemory *dst, const NavMemory *src)
{
    if (dst->ag != src->ag) return false;
    if (dst == src) return true;
    dst->cap = src->cap;
    memcpy(dst->seen, src->seen, (size_t)src->links * sizeof *src->seen);
    memcpy(dst->in_known, src->in_known, src->areas);
    memcpy(dst->area_bits, src->area_bits, (size_t)(src->areas / 32 + 1) * sizeof *src->area_bits);
    dst->known_links = src->known_links;
    dst->known_areas = src->known_areas;
    dst->version++;
    return true;
}

NavMemory *memory_clone(const NavMemory *m, NavError *err)
{
    NavMemory *c = memory_create(m->ag, m->cap, err);
    if (c) memory_copy(c, m);
    return c;
}

void memory_clear(NavMemory *m)
{
    memset(m->seen, 0, (size_t)m->links * sizeof *m->seen);
    memset(m->in_known, 0, m->areas);
    memset(m->area_bits, 0, (size_t)(m->areas / 32 + 1) * sizeof *m->area_bits);
    m->known_links = m->known_areas = 0;
    m->version++;
}

const NavAreaGraph *memory_graph(const NavMemory *m) { return m->ag; }
uint32_t memory_version(const NavMemory *m) { return m->version; }
int memory_links_per_area(const NavMemory *m) { return m->cap; }
uint32_t memory_area_count(const NavMemory *m) { return m->known_areas; }
uint32_t memory_link_count(const NavMemory *m) { return m->known_links; }

size_t memory_bytes(const NavMemory *m)
{
    return sizeof *m + (size_t)m->links * sizeof *m->seen + m->areas + (size_t)(m->areas / 32 + 1) * 4;
}

bool memory_knows_area(const NavMemory *m, uint32_t a)
{
    return a < m->areas && (m->area_bits[a >> 5] >> (a & 31) & 1u);
}

bool memory_knows_link(const NavMemory *m, uint32_t l) { return l < m->links && m->seen[l] != 0; }

uint32_t memory_link_seen(const NavMemory *m, uint32_t l) { return l < m->links ? m->seen[l] : 0; }

bool memory_learn_area(NavMemory *m, uint32_t a)
{
    if (a >= m->areas || memory_knows_area(m, a)) return false;
    m->area_bits[a >> 5] |= 1u << (a & 31);
    m->known_areas++;
    return true;
}

bool memory_forget_link(NavMemory *m, uint32_t l)
{
    if (!memory_knows_link(m, l)) return false;
    m->seen[l] = 0;
    m->in_known[area_reach(m->ag, l)->to]--;
    m->known_links--;
    m->version++;
    return true;
}

/* The known link into area a seen longest ago (ties: the lowest id). */
static uint32_t oldest_into(const NavMemory *m, uint32_t a)
{
    uint32_t n, best = UINT32_MAX;
    const uint32_t *in = area_incoming(m->ag, a, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = in[i];
        if (!m->seen[l]) continue;
        if (best == UINT32_MAX || m->seen[l] < m->seen[best] || (m->seen[l] == m->seen[best] && l < best)) best = l;
    }
    return best;
}

int memory_learn_link(NavMemory *m, uint32_t l, uint32_t stamp, uint32_t *forgot)
{
    if (forgot) *forgot = UINT32_MAX;
    if (l >= m->links) return -1;
    if (stamp == 0) stamp = 1;
    const NavReach *r = area_reach(m->ag, l);
    memory_learn_area(m, r->from);
    memory_learn_area(m, r->to);
    if (m->seen[l]) {
        if (stamp > m->seen[l]) m->seen[l] = stamp;
        return 0;
    }
    if (m->in_known[r->to] >= m->cap) {
        uint32_t old = oldest_into(m, r->to);
        memory_forget_link(m, old);
        if (forgot) *forgot = old;
    }
    m->seen[l] = stamp;
    m->in_known[r->to]++;
    m->known_links++;
    m->version++;
    return 1;
}

bool memory_forget_area(NavMemory *m, uint32_t a)
{
    if (!memory_knows_area(m, a)) return false;
    const NavArea *ar = area_get(m->ag, a);
    for (uint32_t k = 0; k < ar->reach_count; k++) memory_forget_link(m, ar->first_reach + k);
    uint32_t n;
    const uint32_t *in = area_incoming(m->ag, a, &n);
    for (uint32_t i = 0; i < n; i++) memory_forget_link(m, in[i]);
    m->area_bits[a >> 5] &= ~(1u << (a & 31));
    m->known_areas--;
    m->version++;
    return true;
}

bool memory_merge(NavMemory *dst, const NavMemory *src)
{
    if (dst->ag != src->ag) return false;
    if (dst == src) return true;
    for (uint32_t a = 0; a < src->areas; a++)
        if (memory_knows_area(src, a)) memory_learn_area(dst, a);
    /* Oldest first, so that under the cap the most recently seen stay. */
    uint32_t n = 0;
    for (uint32_t l = 0; l < src->links; l++) n += src->seen[l] != 0;
    uint32_t(*order)[2] = nav_malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order) return false;
    n = 0;
    for (uint32_t l = 0; l < src->links; l++)
        if (src->seen[l]) order[n][0] = src->seen[l], order[n][1] = l, n++;
    /* Insertion by stamp then id; merges are rare and small enough. */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t k0 = order[i][0], k1 = order[i][1], j = i;
        while (j > 0 && (order[j - 1][0] > k0 || (order[j - 1][0] == k0 && order[j - 1][1] > k1))) {
            order[j][0] = order[j - 1][0], order[j][1] = order[j - 1][1];
            j--;
        }
        order[j][0] = k0, order[j][1] = k1;
    }
    /* Each link goes in unless it would be the one its area forgets: so
    ** whatever dst held, each area keeps the most recent of both. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = order[i][1], stamp = order[i][0], to = area_reach(dst->ag, l)->to;
        if (!dst->seen[l] && dst->in_known[to] >= dst->cap) {
            uint32_t old = oldest_into(dst, to);
            if (stamp < dst->seen[old] || (stamp == dst->seen[old] && l < old)) continue;
        }
        memory_learn_link(dst, l, stamp, NULL);
    }
    nav_free(order);
    return true;
}

uint32_t memory_learn_reachable(NavMemory *m, uint32_t start, uint32_t travel_types, uint32_t flags, int layer,
                                uint32_t stamp)
{
    if (start >= m->areas) return 0;
    uint32_t *stack = nav_malloc((size_t)m->areas * sizeof *stack);
    uint32_t *mark = nav_calloc(m->areas / 32 + 1, sizeof *mark);
    uint32_t learned = 0;
    if (!stack || !mark) goto done;
    uint32_t top = 0;
    stack[top++] = start;
    mark[start >> 5] |= 1u << (start & 31);
    memory_learn_area(m, start);
    while (top) {
        const NavArea *a = area_get(m->ag, stack[--top]);
        for (uint32_t k = 0; k < a->reach_count; k++) {
            uint32_t l = a->first_reach + k;
            const NavReach *r = area_reach(m->ag, l);
            if (!(NAV_TFL_TYPE(r->type) & travel_types) || (r->travel_flags & ~flags)) continue;
            if (layer >= 0 && area_get(m->ag, r->to)->layer != layer) continue;
            if (memory_learn_link(m, l, stamp, NULL) == 1) learned++;
            if (!(mark[r->to >> 5] >> (r->to & 31) & 1u)) {
                mark[r->to >> 5] |= 1u << (r->to & 31);
                stack[top++] = r->to;
            }
        }
    }
done:
    nav_free(stack);
    nav_free(mark);
    return learned;
}

/* {======= files ======= */

uint64_t memory_graph_fingerprint(const NavAreaGraph *ag)
{
    uint64_t h = 14695981039346656037ull;
#define MIX(v)                                                                                  \
    do {                                                                                        \
        uint32_t v_ = (v);                                                                      \
        for (int k_ = 0; k_ < 4; k_++) h = (h ^ ((v_ >> (8 * k_)) & 0xFFu)) * 1099511628211ull; \
    } while (0)
    MIX(area_count(ag));
    MIX(area_reach_count(ag));
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *r = area_reach(ag, i);
        MIX(r->from);
        MIX(r->to);
        MIX(r->type);
    }
#undef MIX
    return h;
}

NavStatus memory_save_buffer(const NavMemory *m, char **data, size_t *len, NavError *err)
{
    NavText t = { 0 };
    nav_text_printf(&t, "navbot-memory %d\n", MEMORY_FILE_VERSION);
    nav_text_printf(&t, "graph %" PRIu32 " %" PRIu32 " %016" PRIx64 "\n", m->areas, m->links,
                    memory_graph_fingerprint(m->ag));
    nav_text_printf(&t, "links_per_area %d\n", m->cap);
    nav_text_printf(&t, "# %" PRIu32 " areas known, %" PRIu32 " links known\n", m->known_areas, m->known_links);
    for (uint32_t a = 0; a < m->areas; a++)
        if (memory_knows_area(m, a)) nav_text_printf(&t, "area %" PRIu32 "\n", a);
    for (uint32_t l = 0; l < m->links; l++)
        if (m->seen[l]) nav_text_printf(&t, "link %" PRIu32 " %" PRIu32 "\n", l, m->seen[l]);
    nav_text_printf(&t, "end\n");
    if (t.failed) {
        nav_free(t.s);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory writing a navigation memory");
    }
    *data = t.s;
    *len = t.n;
    return NAV_OK;
}

NavStatus memory_save(const NavMemory *m, const char *path, NavError *err)
{
    char *data;
    size_t len;
    NavStatus st = memory_save_buffer(m, &data, &len, err);
    if (NAV_FAILED(st)) return st;
    NavFileWriter w = { 0 };
    st = fileio_begin(&w, path, 0, err);
    if (!NAV_FAILED(st)) {
        fwrite(data, 1, len, w.f);
        st = fileio_commit(&w, err);
    }
    nav_free(data);
    return st;
}

/* Parse an unsigned decimal word at *s; false when there is none. */
static bool take_u32(const char **s, const char *end, uint32_t *out)
{
    const char *p = *s;
    while (p < end && *p == ' ') p++;
    uint64_t v = 0;
    const char *d = p;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v * 10 + (uint64_t)(*p++ - '0');
        if (v > UINT32_MAX) return false;
    }
    if (p == d || (p < end && *p != ' ' && *p != '\r')) return false;
    *s = p;
    *out = (uint32_t)v;
    return true;
}

static bool at_end(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\r')) s++;
    return s == end;
}

static bool word(const char **s, const char *end, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(end - *s) < n || memcmp(*s, w, n) != 0) return false;
    if (*s + n < end && (*s)[n] != ' ' && (*s)[n] != '\r') return false;
    *s += n;
    return true;
}

NavStatus memory_load_buffer(NavMemory *m, const char *data, size_t len, const char *name, NavError *err)
{
    NavMemory *tmp = memory_create(m->ag, m->cap, err);
    if (!tmp) return NAV_FAILURE | NAV_E_NOMEM;
    /* Areas listed by an 'area' line (a link line learns its areas too). */
    uint32_t *listed = nav_calloc(m->areas / 32 + 1, sizeof *listed);
    if (!listed) {
        memory_destroy(tmp);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory reading a navigation memory");
    }
    NavStatus st = NAV_OK;
    const char *p = data, *stop = data + len;
    int line = 0, stage = 0; /* 0 header, 1 graph, 2 cap, 3 body, 4 after end */
#define BAD(field, ...)                                                           \
    do {                                                                          \
        st = nav_error_set(err, NAV_E_FORMAT, name, line, 0, field, __VA_ARGS__); \
        goto out;                                                                 \
    } while (0)
    while (p < stop) {
        const char *e = memchr(p, '\n', (size_t)(stop - p));
        if (!e) e = stop;
        const char *s = p;
        p = e < stop ? e + 1 : stop;
        line++;
        if (s == e || *s == '#' || at_end(s, e)) continue;
        uint32_t a, b;
        if (stage == 4) BAD("end", "text after 'end'");
        if (stage == 0) {
            if (!word(&s, e, "navbot-memory")) BAD("header", "not a navigation memory (no 'navbot-memory' line)");
            if (!take_u32(&s, e, &a) || !at_end(s, e)) BAD("version", "a version number should follow navbot-memory");
            if (a != MEMORY_FILE_VERSION)
                BAD("version", "version %" PRIu32 " is not supported (this navbot reads version %d)", a,
                    MEMORY_FILE_VERSION);
            stage = 1;
        } else if (stage == 1) {
            if (!word(&s, e, "graph") || !take_u32(&s, e, &a) || !take_u32(&s, e, &b))
                BAD("graph", "expected 'graph AREAS LINKS FINGERPRINT'");
            while (s < e && *s == ' ') s++;
            char hex[17] = { 0 };
            size_t hn = 0;
            while (s < e && hn < 16 && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))) hex[hn++] = *s++;
            if (hn != 16 || !at_end(s, e)) BAD("graph", "the fingerprint should be 16 hex digits");
            uint64_t fp = strtoull(hex, NULL, 16);
            if (a != m->areas || b != m->links || fp != memory_graph_fingerprint(m->ag))
                BAD("graph",
                    "saved for another area graph (%" PRIu32 " areas, %" PRIu32 " links; this one has %" PRIu32
                    " and %" PRIu32 "): the map or the class changed since",
                    a, b, m->areas, m->links);
            stage = 2;
        } else if (stage == 2) {
            if (!word(&s, e, "links_per_area") || !take_u32(&s, e, &a) || !at_end(s, e))
                BAD("links_per_area", "expected 'links_per_area N'");
            if (a < 1 || a > MEMORY_LINKS_PER_AREA_MAX)
                BAD("links_per_area", "links per area must be 1 to %d", MEMORY_LINKS_PER_AREA_MAX);
            tmp->cap = (int)a;
            stage = 3;
        } else if (word(&s, e, "area")) {
            if (!take_u32(&s, e, &a) || !at_end(s, e)) BAD("area", "expected 'area ID'");
            if (a >= m->areas) BAD("area", "area %" PRIu32 " is out of range (%" PRIu32 " areas)", a, m->areas);
            if (listed[a >> 5] >> (a & 31) & 1u) BAD("area", "area %" PRIu32 " is listed twice", a);
            listed[a >> 5] |= 1u << (a & 31);
            memory_learn_area(tmp, a);
        } else if (word(&s, e, "link")) {
            if (!take_u32(&s, e, &a) || !take_u32(&s, e, &b) || !at_end(s, e)) BAD("link", "expected 'link ID SEEN'");
            if (a >= m->links) BAD("link", "link %" PRIu32 " is out of range (%" PRIu32 " links)", a, m->links);
            if (b == 0) BAD("link", "SEEN must be at least 1");
            if (tmp->seen[a]) BAD("link", "link %" PRIu32 " is listed twice", a);
            const NavReach *r = area_reach(m->ag, a);
            if (tmp->in_known[r->to] >= tmp->cap) BAD("link", "more than %d links into area %" PRIu32, tmp->cap, r->to);
            memory_learn_link(tmp, a, b, NULL);
        } else if (word(&s, e, "end")) {
            if (!at_end(s, e)) BAD("end", "nothing may follow 'end' on its line");
            stage = 4;
        } else {
            BAD(NULL, "unknown line (expected area, link or end)");
        }
    }
    if (stage != 4) {
        line++;
        BAD("end", "the file ends early (no 'end' line): truncated?");
    }
#undef BAD
    tmp->version = m->version;
    memory_copy(m, tmp);
    m->cap = tmp->cap;
out:
    nav_free(listed);
    memory_destroy(tmp);
    return st;
}

NavStatus memory_load(NavMemory *m, const char *path, NavError *err)
{
    char *data;
    size_t len;
    NavStatus st = fileio_read(path, MEMORY_FILE_MAX, &data, &len, err);
    if (NAV_FAILED(st)) return st;
    st = memory_load_buffer(m, data, len, path, err);
    nav_free(data);
    return st;
}

/* }======= */

/*
** route_memsearch.c — routing within a navigation memory: the backward
** search from the goal that a moving bot asks for its route at any slice
** (route_memory.h), and the frontier search for exploring.
**
** A state is a link; dist[s] is the time from the end of s to entering the
** goal area, over known links only. Seeds are the known links into the
** goal (time 0). Popping t final relaxes every known link s into t's
** source area: dist[s] = take(s then t) + dist[t]. The route from a point
** p in area A is the best known link t out of A with a final time,
** take_from_point(A, p, t) + dist[t]; it is final once the smallest open
** time is no lower (every open state costs at least its time).
*/
#include "route/route_internal.h"
#include "route/route_memory.h"

#include <math.h>

#include "core/alloc.h"

struct MemSearch {
    NavRouter *r;
    const NavMemory *m;
    uint32_t goal, flags, version, links_version;
    uint32_t *dist, *next; /* per link */
    RouteHeap h;           /* node and pos arrays, per link */
    uint32_t start;        /* the bot's area, NAV_NO_AREA when none */
    float point[3];
    uint32_t best, best_link; /* from the start over settled states */
    uint32_t expanded, settled, slices;
    bool ended;
};

static bool usable(const MemSearch *s, uint32_t l)
{
    return memory_knows_link(s->m, l) && route_usable(s->r, l, s->flags);
}

void memsearch_reset(MemSearch *s, const NavMemory *m, uint32_t goal, uint32_t flags)
{
    NavRouter *r = s->r;
    for (uint32_t i = 0; i < s->h.count; i++) s->h.pos[s->h.node[i]] = ROUTE_NONE;
    s->h.count = 0;
    for (uint32_t i = 0; i < r->links; i++) s->dist[i] = ROUTE_UNREACHABLE;
    s->m = m;
    s->goal = goal < r->areas ? goal : 0;
    s->flags = flags | area_get(r->ag, s->goal)->travel_flags;
    s->version = memory_version(m);
    s->links_version = r->links_version;
    s->expanded = s->settled = s->slices = 0;
    s->ended = false;
    s->best = ROUTE_UNREACHABLE;
    s->best_link = ROUTE_NONE;
    uint32_t n;
    const uint32_t *in = route_incoming(r, s->goal, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = in[i];
        if (!usable(s, l)) continue;
        s->dist[l] = 0;
        s->next[l] = ROUTE_NONE;
        heap_push(&s->h, l);
    }
    if (s->start != NAV_NO_AREA) memsearch_set_start(s, s->start, s->point);
}

MemSearch *memsearch_create(NavRouter *r, const NavMemory *m, uint32_t goal, uint32_t flags, NavError *err)
{
    MemSearch *s = nav_calloc(1, sizeof *s);
    size_t n = r->links ? r->links : 1;
    if (s) {
        s->r = r;
        s->dist = nav_malloc(n * sizeof *s->dist);
        s->next = nav_malloc(n * sizeof *s->next);
        s->h.node = nav_malloc(n * sizeof *s->h.node);
        s->h.pos = nav_malloc(n * sizeof *s->h.pos);
    }
    if (!s || !s->dist || !s->next || !s->h.node || !s->h.pos) {
        memsearch_destroy(s);
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a route search");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) s->h.pos[i] = ROUTE_NONE;
    s->h.key = s->dist;
    s->start = NAV_NO_AREA;
    memsearch_reset(s, m, goal, flags);
    return s;
}

void memsearch_destroy(MemSearch *s)
{
    if (!s) return;
    nav_free(s->dist);
    nav_free(s->next);
    nav_free(s->h.node);
    nav_free(s->h.pos);
    nav_free(s);
}

size_t memsearch_bytes_for(uint32_t links) { return sizeof(MemSearch) + (size_t)links * 16u; }
size_t memsearch_bytes(const MemSearch *s) { return memsearch_bytes_for(s->r->links); }
uint32_t memsearch_goal(const MemSearch *s) { return s->goal; }
uint32_t memsearch_flags(const MemSearch *s) { return s->flags; }
const NavMemory *memsearch_memory(const MemSearch *s) { return s->m; }
uint32_t memsearch_version(const MemSearch *s) { return s->version; }

bool memsearch_stale(const MemSearch *s)
{
    return s->version != memory_version(s->m) || s->links_version != s->r->links_version;
}

static bool settled(const MemSearch *s, uint32_t l)
{
    return s->dist[l] != ROUTE_UNREACHABLE && s->h.pos[l] == ROUTE_NONE;
}

/* Count link t, just settled, toward the start's best. */
static void offer(MemSearch *s, uint32_t t)
{
    if (s->start == NAV_NO_AREA || s->r->from[t] != s->start) return;
    uint32_t c = route_add(route_take_from_point(s->r, s->start, s->point, t, s->flags), s->dist[t]);
    if (c < s->best || (c == s->best && t < s->best_link)) {
        s->best = c;
        s->best_link = t;
    }
}

void memsearch_set_start(MemSearch *s, uint32_t start, const float point[3])
{
    NavRouter *r = s->r;
    s->start = start < r->areas ? start : NAV_NO_AREA;
    s->best = ROUTE_UNREACHABLE;
    s->best_link = ROUTE_NONE;
    if (s->start == NAV_NO_AREA) return;
    const float *p = point ? point : area_get(r->ag, start)->center;
    for (int k = 0; k < 3; k++) s->point[k] = p[k];
    if (start == s->goal) {
        s->best = 0;
        return;
    }
    for (uint32_t t = r->out_first[start]; t < r->out_first[start] + r->out_count[start]; t++)
        if (usable(s, t) && settled(s, t)) offer(s, t);
}

static bool start_final(const MemSearch *s)
{
    if (s->start == NAV_NO_AREA) return false;
    if (s->start == s->goal) return true;
    return s->h.count == 0 || s->dist[s->h.node[0]] >= s->best;
}

uint32_t memsearch_step(MemSearch *s, uint32_t budget)
{
    NavRouter *r = s->r;
    uint32_t done = 0;
    while (s->h.count && !start_final(s) && (budget == 0 || done < budget)) {
        uint32_t t = heap_pop(&s->h);
        done++;
        s->settled++;
        offer(s, t);
        uint32_t a = r->from[t], n;
        const uint32_t *in = route_incoming(r, a, &n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = in[i];
            if (!usable(s, l) || settled(s, l)) continue;
            uint32_t c = route_add(route_take(r, l, t, s->flags), s->dist[t]);
            if (c < s->dist[l] || (c == s->dist[l] && t < s->next[l])) {
                s->dist[l] = c;
                s->next[l] = t;
                heap_push(&s->h, l);
            }
        }
    }
    if (!s->h.count) s->ended = true;
    if (done) s->slices++;
    s->expanded += done;
    return done;
}

MemSearchState memsearch_state(const MemSearch *s)
{
    if (start_final(s)) return s->best == ROUTE_UNREACHABLE ? MEMSEARCH_NO_ROUTE : MEMSEARCH_READY;
    return MEMSEARCH_RUNNING;
}

void memsearch_stats(const MemSearch *s, MemSearchStats *out)
{
    out->expanded = s->expanded;
    out->settled = s->settled;
    out->slices = s->slices;
    out->frontier = s->h.count;
    out->best_time = s->best;
}

void memsearch_route(MemSearch *s, uint32_t *links, int cap, int *count, NavRoute *out)
{
    *count = 0;
    out->time = s->best;
    out->next_reach = ROUTE_NONE;
    if (s->best == ROUTE_UNREACHABLE || s->start == s->goal) return;
    out->next_reach = s->best_link;
    int n = 0;
    for (uint32_t l = s->best_link; l != ROUTE_NONE && n <= (int)s->r->links; l = s->next[l]) {
        if (n < cap) links[n] = l;
        n++;
    }
    *count = n;
}

uint32_t memsearch_link_time(const MemSearch *s, uint32_t link)
{
    return link < s->r->links && settled(s, link) ? s->dist[link] : ROUTE_UNREACHABLE;
}

NavStatus memory_route(NavRouter *r, const NavMemory *m, uint32_t start, const float point[3], uint32_t goal,
                       uint32_t flags, uint32_t *links, int cap, int *count, NavRoute *out)
{
    *count = 0;
    NavStatus st;
    if (route_trivial(r, start, goal, out, &st)) return st;
    NavError err;
    MemSearch *s = memsearch_create(r, m, goal, route_query_flags(r, start, goal, flags), &err);
    if (!s) return NAV_FAILURE | NAV_E_NOMEM;
    memsearch_set_start(s, start, point);
    memsearch_step(s, 0);
    memsearch_route(s, links, cap, count, out);
    memsearch_destroy(s);
    return NAV_OK;
}

/* {======= exploring ======= */

typedef struct Explore {
    const NavMemory *m;
    const MemExplore *opt;
} Explore;

static uint32_t known_only(void *user, const NavRouter *r, uint32_t s)
{
    (void)r;
    return memory_knows_link(((const Explore *)user)->m, s) ? 0 : ROUTE_UNREACHABLE;
}

static bool shunned(const MemExplore *o, uint32_t l)
{
    for (int i = 0; i < o->shun_count; i++)
        if (o->shun[i] == l) return true;
    return false;
}

NavStatus memory_explore(NavRouter *r, const NavMemory *m, uint32_t start, const float point[3], uint32_t goal,
                         uint32_t flags, const MemExplore *opt, uint32_t *links, int cap, int *count, NavRoute *out)
{
    *count = 0;
    NavStatus st;
    if (route_trivial(r, start, goal, out, &st)) return st;
    MemExplore o = opt ? *opt : (MemExplore){ 0 };
    if (!o.try_types) o.try_types = NAV_TFL_TYPE(NAV_TRAVEL_WALK) | NAV_TFL_TYPE(NAV_TRAVEL_CROUCH);
    if (!(o.speed > 0)) o.speed = area_class(r->ag)->run_speed;
    if (!(o.speed > 0)) o.speed = 1.0f;
    flags = route_query_flags(r, start, goal, flags);
    const float *p = point ? point : area_get(r->ag, start)->center;
    const float *g = area_get(r->ag, goal)->center;
    Explore ex = { m, &o };
    RouteForward f = { known_only, NULL, &ex, 0 };
    route_forward(r, start, p, flags, &f);
    /* The goal within memory: nothing to explore (memory_route's answer). */
    uint32_t in_n;
    const uint32_t *in = route_incoming(r, goal, &in_n);
    for (uint32_t i = 0; i < in_n; i++)
        if (r->cdist[in[i]] < out->time) out->time = r->cdist[in[i]], out->next_reach = r->cfirst[in[i]];
    if (out->time != ROUTE_UNREACHABLE) return NAV_OK;
    /* Every area reached (the start too): its unknown links it may try. */
    uint32_t best = ROUTE_UNREACHABLE, best_in = ROUTE_NONE, best_try = ROUTE_NONE;
    for (uint32_t s = ROUTE_NONE;; s = s == ROUTE_NONE ? 0 : s + 1) {
        if (s != ROUTE_NONE && s >= r->links) break;
        if (s != ROUTE_NONE && r->cdist[s] == ROUTE_UNREACHABLE) continue;
        uint32_t a = s == ROUTE_NONE ? start : r->to[s];
        for (uint32_t u = r->out_first[a]; u < r->out_first[a] + r->out_count[a]; u++) {
            if (memory_knows_link(m, u) || !route_usable(r, u, flags) || shunned(&o, u)) continue;
            if (!(NAV_TFL_TYPE(area_reach(r->ag, u)->type) & o.try_types)) continue;
            uint32_t c = s == ROUTE_NONE ? route_take_from_point(r, a, p, u, flags)
                                         : route_add(r->cdist[s], route_take(r, s, u, flags));
            const float *e = area_reach(r->ag, u)->end;
            float dx = g[0] - e[0], dy = g[1] - e[1], dz = g[2] - e[2];
            c = route_add(c, (uint32_t)(sqrtf(dx * dx + dy * dy + dz * dz) / o.speed * 100.0f));
            if (c < best || (c == best && u < best_try)) best = c, best_in = s, best_try = u;
        }
    }
    if (best_try == ROUTE_NONE) return NAV_OK;
    int n = 1;
    for (uint32_t k = best_in; k != ROUTE_NONE; k = r->cprev[k]) n++;
    int i = n - 1;
    if (i < cap) links[i] = best_try;
    for (uint32_t k = best_in; k != ROUTE_NONE; k = r->cprev[k])
        if (--i < cap) links[i] = k;
    *count = n;
    out->time = best;
    out->next_reach = n > 0 && cap > 0 ? links[0] : best_try;
    return NAV_OK;
}

/* }======= */

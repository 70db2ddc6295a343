/*
** route.c — the router: its tables, queries and obstacles (route.h).
*/
#include "route/route_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* {======= tables ======= */

static void *take_mem(NavRouter *r, size_t bytes, bool *ok)
{
    void *p = nav_calloc(bytes ? bytes : 1, 1);
    if (!p) *ok = false;
    r->fixed_bytes += bytes;
    return p;
}

const NavAreaGraph *router_graph(const NavRouter *r) { return r->ag; }

NavRouter *router_create(const NavAreaGraph *ag, const NavRouterDesc *desc, NavError *err)
{
    NavRouter *r = nav_calloc(1, sizeof *r);
    if (!r) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the router");
        return NULL;
    }
    r->ag = ag;
    r->areas = area_count(ag);
    r->links = area_reach_count(ag);
    r->clusters = area_cluster_count(ag);
    r->cap_bytes = desc && desc->cache_bytes ? desc->cache_bytes : (size_t)NAV_LIMIT_ROUTE_CACHE_BYTES;
    r->fixed_bytes = sizeof *r;
    uint32_t n = r->areas, m = r->links, nc = r->clusters;
    bool ok = true;
    r->from = take_mem(r, m * sizeof(uint32_t), &ok);
    r->to = take_mem(r, m * sizeof(uint32_t), &ok);
    r->time = take_mem(r, m * sizeof(uint32_t), &ok);
    r->tflags = take_mem(r, m * sizeof(uint32_t), &ok);
    r->in_pos = take_mem(r, m * sizeof(uint32_t), &ok);
    r->disabled = take_mem(r, m * sizeof(uint16_t), &ok);
    r->to_ledge = take_mem(r, m, &ok);
    r->state = take_mem(r, m * sizeof(uint32_t), &ok);
    r->entry = take_mem(r, m * sizeof(uint32_t), &ok);
    r->exit = take_mem(r, m * sizeof(uint32_t), &ok);
    r->out_first = take_mem(r, n * sizeof(uint32_t), &ok);
    r->out_count = take_mem(r, n * sizeof(uint32_t), &ok);
    r->in_first = take_mem(r, ((size_t)n + 1) * sizeof(uint32_t), &ok);
    r->in_list = take_mem(r, m * sizeof(uint32_t), &ok);
    r->in_state = take_mem(r, m * sizeof(uint32_t), &ok);
    r->take_first = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cross = take_mem(r, n * sizeof(uint32_t *), &ok);
    r->cluster = take_mem(r, n * sizeof(uint32_t), &ok);
    r->member_first = take_mem(r, ((size_t)nc + 2) * sizeof(uint32_t), &ok);
    r->entry_first = take_mem(r, ((size_t)nc + 2) * sizeof(uint32_t), &ok);
    r->exit_first = take_mem(r, ((size_t)nc + 2) * sizeof(uint32_t), &ok);
    r->members = take_mem(r, m * sizeof(uint32_t), &ok);
    r->entries = take_mem(r, m * sizeof(uint32_t), &ok);
    r->exits = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cluster_mark = take_mem(r, (size_t)nc + 1, &ok);
    r->overlay_of = take_mem(r, ((size_t)nc + 1) * sizeof *r->overlay_of, &ok);
    r->area_mark = take_mem(r, n, &ok);
    r->link_box = take_mem(r, 6 * (size_t)m * sizeof(float), &ok);
    r->portal_list = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cdist = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cnext = take_mem(r, m * sizeof(uint16_t), &ok);
    r->cfirst = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cprev = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cpos = take_mem(r, m * sizeof(uint32_t), &ok);
    r->cnode = take_mem(r, m * sizeof(uint32_t), &ok);
    r->anode = take_mem(r, m * sizeof(uint32_t), &ok);
    r->apos = take_mem(r, m * sizeof(uint32_t), &ok);
    if (!ok || !route_cache_init(r)) goto nomem;

    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = area_get(ag, a);
        r->out_first[a] = ar->first_reach;
        r->out_count[a] = ar->reach_count;
        r->cross[a] = area_crossing_table(ag, a);
        r->cluster[a] = (ar->flags & NAV_AREA_PORTAL) ? 0 : ar->cluster;
        uint32_t in_count;
        const uint32_t *in = area_incoming(ag, a, &in_count);
        r->in_first[a + 1] = r->in_first[a] + in_count;
        for (uint32_t k = 0; k < in_count; k++) {
            r->in_pos[in[k]] = k;
            r->in_list[r->in_first[a] + k] = in[k];
        }
    }
    for (uint32_t s = 0; s < m; s++) {
        const NavReach *re = area_reach(ag, s);
        r->from[s] = re->from;
        r->to[s] = re->to;
        r->time[s] = re->time;
        r->tflags[s] = re->travel_flags;
        r->to_ledge[s] = (area_get(ag, re->to)->flags & NAV_AREA_LEDGE) != 0;
        for (int k = 0; k < 3; k++) {
            r->link_box[6 * (size_t)s + (size_t)k] = fminf(re->start[k], re->end[k]);
            r->link_box[6 * (size_t)s + 3 + (size_t)k] = fmaxf(re->start[k], re->end[k]);
        }
        r->entry[s] = r->exit[s] = ROUTE_NONE;
    }
    /* Member states, entries and exits per cluster (counting sorts), and
    ** the portal states. */
    for (uint32_t s = 0; s < m; s++) {
        uint32_t c = r->cluster[r->to[s]], fc = r->cluster[r->from[s]];
        if (c) {
            r->member_first[c + 1]++;
            if (!fc) r->entry_first[c + 1]++;
        } else {
            r->state[s] = r->portal_states;
            r->portal_list[r->portal_states++] = s;
            if (fc) r->exit_first[fc + 1]++;
        }
    }
    for (uint32_t c = 0; c <= nc; c++) {
        r->member_first[c + 1] += r->member_first[c];
        r->entry_first[c + 1] += r->entry_first[c];
        r->exit_first[c + 1] += r->exit_first[c];
    }
    r->entry_total = r->entry_first[nc + 1];
    {
        /* Fill in link order: a cluster's states are its links in order. */
        uint32_t *fill_m = nav_calloc((size_t)nc + 2, sizeof *fill_m),
                 *fill_e = nav_calloc((size_t)nc + 2, sizeof *fill_e),
                 *fill_x = nav_calloc((size_t)nc + 2, sizeof *fill_x);
        if (!fill_m || !fill_e || !fill_x) {
            nav_free(fill_m);
            nav_free(fill_e);
            nav_free(fill_x);
            goto nomem;
        }
        for (uint32_t s = 0; s < m; s++) {
            uint32_t c = r->cluster[r->to[s]], fc = r->cluster[r->from[s]];
            if (c) {
                r->state[s] = fill_m[c];
                r->members[r->member_first[c] + fill_m[c]++] = s;
                if (!fc) {
                    r->entry[s] = fill_e[c];
                    r->entries[r->entry_first[c] + fill_e[c]++] = s;
                }
            } else if (fc) {
                r->exit[s] = fill_x[fc];
                r->exits[r->exit_first[fc] + fill_x[fc]++] = s;
            }
        }
        nav_free(fill_m);
        nav_free(fill_e);
        nav_free(fill_x);
    }
    for (uint32_t i = 0; i < m; i++) r->in_state[i] = r->state[r->in_list[i]];
    /* The take table: per link, one entry per incoming link of its source. */
    size_t takes = 0;
    for (uint32_t s = 0; s < m; s++) {
        r->take_first[s] = (uint32_t)takes;
        takes += r->in_first[r->from[s] + 1] - r->in_first[r->from[s]];
    }
    r->take = take_mem(r, takes * sizeof(uint32_t), &ok);
    if (!ok) goto nomem;
    for (uint32_t s = 0; s < m; s++) {
        uint32_t b = r->from[s], nin = r->in_first[b + 1] - r->in_first[b];
        for (uint32_t i = 0; i < nin; i++)
            r->take[r->take_first[s] + i] =
                route_add(r->cross[b][i * r->out_count[b] + (s - r->out_first[b])], r->time[s]);
    }
    size_t pn = (size_t)r->portal_states + r->entry_total;
    r->pdist = take_mem(r, pn * sizeof(uint32_t), &ok);
    r->pheap = take_mem(r, pn * sizeof(uint32_t), &ok);
    r->ppos = take_mem(r, pn * sizeof(uint32_t), &ok);
    if (!ok) goto nomem;
    for (uint32_t i = 0; i < m; i++) r->cpos[i] = r->apos[i] = ROUTE_NONE;
    for (size_t i = 0; i < pn; i++) r->ppos[i] = ROUTE_NONE;
    return r;
nomem:
    router_destroy(r);
    nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the router (%u areas, %u links)", n, m);
    return NULL;
}

void router_destroy(NavRouter *r)
{
    if (!r) return;
    route_cache_free_all(r, false);
    route_costs_free(r);
    nav_free(r->buckets);
    for (uint32_t i = 0; i < r->obstacle_count; i++) nav_free(r->obstacles[i].links);
    nav_free(r->obstacles);
    nav_free(r->from);
    nav_free(r->to);
    nav_free(r->time);
    nav_free(r->tflags);
    nav_free(r->in_pos);
    nav_free(r->disabled);
    nav_free(r->to_ledge);
    nav_free(r->state);
    nav_free(r->entry);
    nav_free(r->exit);
    nav_free(r->out_first);
    nav_free(r->out_count);
    nav_free(r->in_first);
    nav_free(r->in_list);
    nav_free(r->in_state);
    nav_free(r->take_first);
    nav_free(r->take);
    nav_free((void *)r->cross);
    nav_free(r->cluster);
    nav_free(r->member_first);
    nav_free(r->entry_first);
    nav_free(r->exit_first);
    nav_free(r->members);
    nav_free(r->entries);
    nav_free(r->exits);
    nav_free(r->cluster_mark);
    nav_free(r->overlay_of);
    nav_free(r->area_mark);
    nav_free(r->link_box);
    nav_free(r->portal_list);
    nav_free(r->cdist);
    nav_free(r->cnext);
    nav_free(r->cfirst);
    nav_free(r->cprev);
    nav_free(r->cpos);
    nav_free(r->cnode);
    nav_free(r->anode);
    nav_free(r->apos);
    nav_free(r->pdist);
    nav_free(r->pheap);
    nav_free(r->ppos);
    nav_free(r);
}

/* }======= */

/* {======= queries ======= */

uint32_t route_query_flags(const NavRouter *r, uint32_t start, uint32_t goal, uint32_t flags)
{
    /* Standing in water (or lava) already, or going there, allows it. */
    return flags | area_get(r->ag, start)->travel_flags | area_get(r->ag, goal)->travel_flags;
}

uint32_t route_take_from_point(const NavRouter *r, uint32_t a, const float p[3], uint32_t s, uint32_t flags)
{
    uint32_t t = area_time_between(r->ag, a, p, area_reach(r->ag, s)->start) + r->time[s];
    if (r->to_ledge[s] && !(flags & NAV_TFL_FLY)) t += ROUTE_LEDGE_PENALTY;
    return t;
}

/* The caches a query holds while it runs. */
typedef struct Held {
    RouteCache *portal;
    RouteCache *area[2];
    uint32_t cluster[2];
} Held;

static void release(Held *h)
{
    route_cache_unpin(h->portal);
    route_cache_unpin(h->area[0]);
    route_cache_unpin(h->area[1]);
    memset(h, 0, sizeof *h);
}

/* The time from the end of link s to the goal, from the caches; false
** when a cache did not fit. */
static bool value_of(NavRouter *r, Held *h, uint32_t s, uint32_t goal, uint32_t flags, uint32_t *out)
{
    uint32_t b = r->to[s];
    if (b == goal) {
        *out = 0;
        return true;
    }
    uint32_t c = r->cluster[b];
    if (!c) {
        *out = ROUTE_UNREACHABLE;
        return !h->portal || route_portal_time(r, h->portal, r->state[s], out);
    }
    int slot = h->area[0] && h->cluster[0] == c ? 0 : h->area[1] && h->cluster[1] == c ? 1 : -1;
    if (slot < 0) {
        slot = h->area[0] ? 1 : 0;
        if (h->area[slot]) route_cache_unpin(h->area[slot]);
        h->area[slot] = route_area_cache(r, c, goal, flags, h->portal);
        h->cluster[slot] = c;
        if (!h->area[slot]) return false;
    }
    if (!route_area_settle(r, h->area[slot], h->portal, r->state[s])) return false;
    *out = h->area[slot]->time[r->state[s]];
    return true;
}

/* The best link out of area b: from a point (in == ROUTE_NONE) or having
** arrived by link `in`. */
static bool best_out(NavRouter *r, Held *h, uint32_t b, uint32_t in, const float p[3], uint32_t goal, uint32_t flags,
                     NavRoute *out)
{
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    for (uint32_t s = r->out_first[b]; s < r->out_first[b] + r->out_count[b]; s++) {
        if (!route_usable(r, s, flags)) continue;
        uint32_t v;
        if (!value_of(r, h, s, goal, flags, &v)) return false;
        if (v == ROUTE_UNREACHABLE) continue;
        uint32_t t = in == ROUTE_NONE ? route_take_from_point(r, b, p, s, flags) : route_take(r, in, s, flags);
        t = route_add(t, v);
        if (t < out->time) {
            out->time = t;
            out->next_reach = s;
        }
    }
    return true;
}

static bool hold_portal(NavRouter *r, Held *h, uint32_t goal, uint32_t flags)
{
    if (r->portal_states == 0) return true; /* one cluster: nothing to leave by */
    h->portal = route_portal_cache(r, goal, flags);
    return h->portal != NULL;
}

NavStatus router_route(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags, NavRoute *out)
{
    NavStatus st;
    if (route_trivial(r, start, goal, out, &st)) return st;
    flags = route_query_flags(r, start, goal, flags);
    const float *p = point ? point : area_get(r->ag, start)->center;
    Held h = { 0 };
    bool ok = hold_portal(r, &h, goal, flags) && best_out(r, &h, start, ROUTE_NONE, p, goal, flags, out);
    release(&h);
    if (ok) return NAV_OK;
    r->fallbacks++;
    return route_dijkstra(r, start, point, goal, flags, out);
}

NavStatus router_next(NavRouter *r, uint32_t arrived, uint32_t goal, uint32_t flags, NavRoute *out)
{
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    if (arrived >= r->links || goal >= r->areas) return NAV_FAILURE | NAV_E_PARAM;
    uint32_t b = r->to[arrived];
    if (b == goal) {
        out->time = 0;
        return NAV_OK;
    }
    flags = route_query_flags(r, b, goal, flags);
    Held h = { 0 };
    bool ok = hold_portal(r, &h, goal, flags);
    uint32_t c = r->cluster[b];
    if (ok && c) {
        /* A member state: the area cache holds the answer. */
        RouteCache *ac = route_area_cache(r, c, goal, flags, h.portal);
        if (ac && !route_area_settle(r, ac, h.portal, r->state[arrived])) {
            route_cache_unpin(ac);
            ac = NULL;
        }
        if (ac) {
            out->time = ac->time[r->state[arrived]];
            uint16_t k = ac->step[r->state[arrived]];
            out->next_reach = k == ROUTE_NO_NEXT ? ROUTE_NONE : r->out_first[b] + k;
            route_cache_unpin(ac);
            release(&h);
            return NAV_OK;
        }
        ok = false;
    }
    if (ok) ok = best_out(r, &h, b, arrived, NULL, goal, flags, out);
    release(&h);
    if (ok) return NAV_OK;
    /* The fallback: a plain search from the end point of each way out; the
    ** crossing times are those between link ends, so this is exact. */
    r->fallbacks++;
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    for (uint32_t s = r->out_first[b]; s < r->out_first[b] + r->out_count[b]; s++) {
        if (!route_usable(r, s, flags)) continue;
        uint32_t t = route_take(r, arrived, s, flags), rest;
        if (r->to[s] == goal) {
            rest = 0;
        } else {
            NavRoute sub;
            route_dijkstra(r, r->to[s], area_reach(r->ag, s)->end, goal, flags, &sub);
            rest = sub.time;
        }
        if (rest == ROUTE_UNREACHABLE) continue;
        if (route_add(t, rest) < out->time) {
            out->time = route_add(t, rest);
            out->next_reach = s;
        }
    }
    return NAV_OK;
}

NavStatus router_route_links(NavRouter *r, uint32_t start, const float point[3], uint32_t goal, uint32_t flags,
                             uint32_t *links, int cap, int *count, NavRoute *out)
{
    *count = 0;
    NavStatus st = router_route(r, start, point, goal, flags, out);
    if (NAV_FAILED(st)) return st;
    int n = 0;
    uint32_t s = out->next_reach;
    /* Each step is the next link of a fastest route, so the walk ends in
    ** the goal within the graph's link count. */
    while (s != ROUTE_NONE && n < (int)r->links) {
        if (n < cap) links[n] = s;
        n++;
        NavRoute step;
        router_next(r, s, goal, flags | area_get(r->ag, start)->travel_flags, &step);
        s = step.next_reach;
    }
    *count = n;
    return NAV_OK;
}

/* }======= */

/* {======= obstacles ======= */

/* Does segment p-q pass through the box (slab test)? */
static bool segment_hits_box(const float p[3], const float q[3], const float lo[3], const float hi[3])
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int i = 0; i < 3; i++) {
        float d = q[i] - p[i];
        if (fabsf(d) < 1e-9f) {
            if (p[i] < lo[i] || p[i] > hi[i]) return false;
            continue;
        }
        float a = (lo[i] - p[i]) / d, b = (hi[i] - p[i]) / d;
        if (a > b) {
            float t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return false;
    }
    return true;
}

/* Drop the caches the links' change can reach: the area and overlay
** caches of the clusters at either end (both of a portal's), and every
** portal cache. One pass over the caches. */
static void invalidate_links(NavRouter *r, const uint32_t *links, uint32_t count)
{
    const NavAreaGraph *ag = r->ag;
    uint8_t *hit = r->cluster_mark;
    bool any = false;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t ends[2] = { r->from[links[i]], r->to[links[i]] };
        for (int e = 0; e < 2; e++) {
            uint32_t c = r->cluster[ends[e]];
            if (c) {
                hit[c] = 1;
            } else {
                const NavPortal *p = area_portal(ag, (uint32_t)area_get(ag, ends[e])->portal);
                hit[p->front] = hit[p->back] = 1;
            }
            any = true;
        }
    }
    if (any) route_cache_invalidate_clusters(r, hit);
    memset(hit, 0, (size_t)r->clusters + 1);
}

uint32_t router_add_obstacle(NavRouter *r, const float mins[3], const float maxs[3])
{
    if (r->obstacle_count == r->obstacle_cap) {
        uint32_t cap = r->obstacle_cap ? 2 * r->obstacle_cap : 8;
        Obstacle *o = nav_realloc(r->obstacles, cap * sizeof *o);
        if (!o) return 0;
        r->obstacles = o;
        r->obstacle_cap = cap;
    }
    /* The links into the areas it overlaps, and those whose path from start
    ** to end passes through it; each once. The search state's per-link
    ** array collects them (no query runs meanwhile). */
    uint32_t areas[256], *many = NULL, *list = areas;
    int na = area_box_areas(r->ag, mins, maxs, areas, 256);
    if (na > 256) {
        many = nav_malloc((size_t)na * sizeof *many);
        if (!many) return 0;
        na = area_box_areas(r->ag, mins, maxs, many, na);
        list = many;
    }
    for (int i = 0; i < na; i++) r->area_mark[list[i]] = 1;
    uint32_t count = 0, *found = r->cfirst;
    for (uint32_t s = 0; s < r->links; s++) {
        const float *b = r->link_box + 6 * (size_t)s;
        bool in = r->area_mark[r->to[s]];
        if (!in && b[0] <= maxs[0] && b[3] >= mins[0] && b[1] <= maxs[1] && b[4] >= mins[1] && b[2] <= maxs[2] &&
            b[5] >= mins[2]) {
            const NavReach *re = area_reach(r->ag, s);
            in = segment_hits_box(re->start, re->end, mins, maxs);
        }
        if (in) found[count++] = s;
    }
    for (int i = 0; i < na; i++) r->area_mark[list[i]] = 0;
    nav_free(many);
    uint32_t *links = nav_malloc((count ? count : 1) * sizeof *links);
    if (!links) return 0;
    memcpy(links, found, count * sizeof *links);
    Obstacle *o = &r->obstacles[r->obstacle_count++];
    o->id = ++r->next_obstacle_id;
    o->count = count;
    o->links = links;
    for (uint32_t i = 0; i < count; i++)
        if (r->disabled[links[i]]++ == 0) r->disabled_links++;
    r->links_version++;
    invalidate_links(r, links, count);
    return o->id;
}

bool router_remove_obstacle(NavRouter *r, uint32_t id)
{
    for (uint32_t i = 0; i < r->obstacle_count; i++) {
        Obstacle *o = &r->obstacles[i];
        if (o->id != id) continue;
        for (uint32_t k = 0; k < o->count; k++)
            if (--r->disabled[o->links[k]] == 0) r->disabled_links--;
        r->links_version++;
        invalidate_links(r, o->links, o->count);
        nav_free(o->links);
        r->obstacles[i] = r->obstacles[--r->obstacle_count];
        return true;
    }
    return false;
}

/* }======= */

static const struct {
    const char *word;
    uint32_t bits;
} FLAG_WORDS[] = {
    { "water", NAV_TFL_WATER },           { "lava", NAV_TFL_LAVA }, { "slime", NAV_TFL_SLIME },
    { "donotenter", NAV_TFL_DONOTENTER }, { "fly", NAV_TFL_FLY },
};

const char *route_flag_word(int i, uint32_t *bits)
{
    if (i < 0 || i >= (int)NAV_ARRAY_COUNT(FLAG_WORDS)) return NULL;
    *bits = FLAG_WORDS[i].bits;
    return FLAG_WORDS[i].word;
}

uint32_t route_flag_of_name(const char *name)
{
    int t = area_travel_from_name(name);
    if (t >= 0) return NAV_TFL_TYPE(t);
    for (size_t k = 0; k < NAV_ARRAY_COUNT(FLAG_WORDS); k++)
        if (strcmp(name, FLAG_WORDS[k].word) == 0) return FLAG_WORDS[k].bits;
    return strcmp(name, "default") == 0 ? NAV_TFL_DEFAULT : 0;
}

void router_stats(const NavRouter *r, NavRouterStats *out)
{
    memset(out, 0, sizeof *out);
    out->cache_bytes = r->cache_bytes;
    out->cap_bytes = r->cap_bytes;
    out->fixed_bytes = r->fixed_bytes;
    out->caches = r->cache_count;
    out->area_caches = r->kind_count[CACHE_AREA];
    out->portal_caches = r->kind_count[CACHE_PORTAL];
    out->overlay_caches = r->kind_count[CACHE_OVERLAY];
    out->hits = r->hits;
    out->misses = r->misses;
    out->evictions = r->evictions;
    out->fallbacks = r->fallbacks;
    out->obstacles = r->obstacle_count;
    out->disabled_links = r->disabled_links;
}

void router_flush(NavRouter *r, bool keep_overlays)
{
    route_cache_free_all(r, keep_overlays);
    route_costs_free(r);
}

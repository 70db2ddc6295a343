/*
** route_cache.c — the router's caches: building them, the LRU list and the
** memory cap (route.h describes the three kinds).
**
** Every cache is one allocation, counted whole against the cap. Before one
** is made, the least recently used unpinned caches are freed until it
** fits, overlays only when no other cache is left to free; when it cannot fit even then, the builder returns NULL and the
** query falls back to a plain search. A query pins what it holds, so
** nothing it reads is freed under it.
**
** All three builders run the same kernel: a backward Dijkstra over the
** member states of one cluster (links into its member areas), from
** sources the caller seeds, never through a portal area. A state's value
** is the time from its link's end to the goal (or to the exit, for an
** overlay).
**
** An area cache for a cluster holds the portal times of the cluster's
** exits it was built with. When the goal's portal cache is rebuilt (after
** an obstacle somewhere else), the area cache is kept if those times are
** unchanged, and rebuilt otherwise: exact, without dropping caches that
** cannot have changed.
*/
#include "route/route_internal.h"

#include <stdlib.h>
#include <string.h>

/* {======= index, LRU and cap ======= */

static uint32_t hash_key(uint32_t kind, uint32_t cluster, uint32_t goal, uint32_t flags)
{
    uint64_t h = 1469598103934665603ull;
    uint32_t k[4] = { kind, cluster, goal, flags };
    for (int i = 0; i < 4; i++) {
        h ^= k[i];
        h *= 1099511628211ull;
    }
    return (uint32_t)(h ^ (h >> 32));
}

bool route_cache_init(NavRouter *r)
{
    r->bucket_count = 1024;
    r->buckets = calloc(r->bucket_count, sizeof *r->buckets);
    r->fixed_bytes += r->bucket_count * sizeof *r->buckets;
    return r->buckets != NULL;
}

static void lru_unlink(NavRouter *r, RouteCache *c)
{
    if (c->prev) c->prev->next = c->next;
    else r->lru_head = c->next;
    if (c->next) c->next->prev = c->prev;
    else r->lru_tail = c->prev;
    c->prev = c->next = NULL;
}

static void lru_append(NavRouter *r, RouteCache *c)
{
    c->prev = r->lru_tail;
    c->next = NULL;
    if (r->lru_tail) r->lru_tail->next = c;
    else r->lru_head = c;
    r->lru_tail = c;
}

static RouteCache **chain_of(NavRouter *r, const RouteCache *c)
{
    return &r->buckets[hash_key(c->kind, c->cluster, c->goal, c->flags) & (r->bucket_count - 1)];
}

/* Keep chains short: twice the buckets once there are as many caches.
** Out of memory leaves the table as it is (longer chains, still right). */
static void grow_buckets(NavRouter *r)
{
    uint32_t n = r->bucket_count * 2;
    RouteCache **b = calloc(n, sizeof *b);
    if (!b) return;
    for (uint32_t i = 0; i < r->bucket_count; i++)
        for (RouteCache *c = r->buckets[i], *next; c; c = next) {
            next = c->hnext;
            RouteCache **chain = &b[hash_key(c->kind, c->cluster, c->goal, c->flags) & (n - 1)];
            c->hnext = *chain;
            *chain = c;
        }
    free(r->buckets);
    r->fixed_bytes += (size_t)(n - r->bucket_count) * sizeof *b;
    r->buckets = b;
    r->bucket_count = n;
}

static void free_cache(NavRouter *r, RouteCache *c)
{
    if (r->open_pc == c) r->open_pc = NULL; /* its heap goes with it */
    RouteCache **p = chain_of(r, c);
    while (*p != c) p = &(*p)->hnext;
    *p = c->hnext;
    lru_unlink(r, c);
    r->cache_bytes -= c->bytes;
    r->cache_count--;
    r->kind_count[c->kind]--;
    free(c);
}

static RouteCache *find(NavRouter *r, uint32_t kind, uint32_t cluster, uint32_t goal, uint32_t flags)
{
    RouteCache *c = r->buckets[hash_key(kind, cluster, goal, flags) & (r->bucket_count - 1)];
    for (; c; c = c->hnext)
        if (c->kind == kind && c->cluster == cluster && c->goal == goal && c->flags == flags) break;
    if (c) {
        /* Most recently used goes last. */
        lru_unlink(r, c);
        lru_append(r, c);
        r->hits++;
    }
    return c;
}

/* A new cache of `values` entries (and the kind's extras), pinned, or NULL
** when it cannot fit under the cap. */
static RouteCache *new_cache(NavRouter *r, uint32_t kind, uint32_t cluster, uint32_t goal, uint32_t flags,
                             uint32_t values, uint32_t exits)
{
    size_t bytes = sizeof(RouteCache) + (size_t)values * sizeof(uint32_t);
    if (kind == CACHE_AREA) bytes += (size_t)exits * sizeof(uint32_t) + (size_t)values * sizeof(uint16_t);
    if (kind == CACHE_PORTAL) bytes += ((size_t)values + 31) / 32 * sizeof(uint32_t); /* final marks */
    bytes = (bytes + 7) & ~(size_t)7;
    if (bytes > r->cap_bytes) return NULL;
    /* Make room: the least recent unpinned caches go first, overlays last
    ** (they serve every goal and cost the most to build). */
    RouteCache *c;
    for (int round = 0; round < 2 && r->cache_bytes + bytes > r->cap_bytes; round++) {
        c = r->lru_head;
        while (r->cache_bytes + bytes > r->cap_bytes && c) {
            RouteCache *next = c->next;
            if (!c->pins && (round == 1 || c->kind != CACHE_OVERLAY)) {
                free_cache(r, c);
                r->evictions++;
            }
            c = next;
        }
    }
    if (r->cache_bytes + bytes > r->cap_bytes) return NULL;
    c = calloc(1, bytes);
    if (!c) return NULL;
    c->kind = kind;
    c->cluster = cluster;
    c->goal = goal;
    c->flags = flags;
    c->pins = 1;
    c->count = values;
    c->bytes = bytes;
    c->time = (uint32_t *)(c + 1);
    if (kind == CACHE_AREA) {
        c->exit_time = c->time + values;
        c->step = (uint16_t *)(c->exit_time + exits);
    } else if (kind == CACHE_PORTAL) {
        c->done = c->time + values;
    }
    if (r->cache_count >= r->bucket_count) grow_buckets(r);
    RouteCache **chain = chain_of(r, c);
    c->hnext = *chain;
    *chain = c;
    lru_append(r, c);
    r->cache_bytes += bytes;
    r->cache_count++;
    r->kind_count[kind]++;
    r->misses++;
    return c;
}

void route_cache_unpin(RouteCache *c)
{
    if (c && c->pins) c->pins--;
}

void route_cache_free_all(NavRouter *r, bool keep_overlays)
{
    for (RouteCache *c = r->lru_head, *next; c; c = next) {
        next = c->next;
        if (!(keep_overlays && c->kind == CACHE_OVERLAY)) free_cache(r, c);
    }
}

void route_cache_invalidate_clusters(NavRouter *r, const uint8_t *marked)
{
    for (RouteCache *c = r->lru_head, *next; c; c = next) {
        next = c->next;
        if (c->pins) continue;
        if (c->kind == CACHE_PORTAL || marked[c->cluster]) free_cache(r, c);
    }
}

/* }======= */

/* {======= the cluster kernel ======= */

/* Seed member state `s` of the cluster being searched (local index li). */
static void seed(NavRouter *r, RouteHeap *h, uint32_t s, uint32_t value, uint16_t next)
{
    uint32_t li = r->state[s];
    if (value < r->cdist[li]) {
        r->cdist[li] = value;
        r->cnext[li] = next;
        heap_push(h, li);
    }
}

static RouteHeap cluster_heap(NavRouter *r, uint32_t c)
{
    uint32_t n = r->member_first[c + 1] - r->member_first[c];
    for (uint32_t i = 0; i < n; i++) {
        r->cdist[i] = ROUTE_UNREACHABLE;
        r->cnext[i] = ROUTE_NO_NEXT;
    }
    return (RouteHeap){ r->cnode, r->cpos, r->cdist, 0 };
}

/* Seed the links into member area b that can take link x toward a value. */
static void seed_before(NavRouter *r, RouteHeap *h, uint32_t x, uint32_t value, uint32_t flags)
{
    if (value == ROUTE_UNREACHABLE || !route_usable(r, x, flags)) return;
    uint32_t b = r->from[x], in_count;
    const uint32_t *in = route_incoming(r, b, &in_count);
    uint16_t k = (uint16_t)(x - r->out_first[b]);
    for (uint32_t i = 0; i < in_count; i++) seed(r, h, in[i], route_add(route_take(r, in[i], x, flags), value), k);
}

/* Run the backward search over cluster c's member states from the seeds. */
static void cluster_search(NavRouter *r, RouteHeap *h, uint32_t c, uint32_t flags)
{
    const uint32_t *members = r->members + r->member_first[c];
    while (h->count) {
        uint32_t li = heap_pop(h);
        uint32_t t = members[li], b = r->from[t];
        if (!r->cluster[b] || !route_usable(r, t, flags)) continue; /* from a portal: the cluster's edge */
        uint32_t in_count;
        const uint32_t *in = route_incoming(r, b, &in_count);
        uint16_t k = (uint16_t)(t - r->out_first[b]);
        for (uint32_t i = 0; i < in_count; i++) seed(r, h, in[i], route_add(route_take(r, in[i], t, flags), r->cdist[li]), k);
    }
}

/* Seed the goal's incoming links at 0 when the goal is a member of c. */
static void seed_goal(NavRouter *r, RouteHeap *h, uint32_t c, uint32_t goal)
{
    if (r->cluster[goal] != c) return;
    uint32_t in_count;
    const uint32_t *in = route_incoming(r, goal, &in_count);
    for (uint32_t i = 0; i < in_count; i++) seed(r, h, in[i], 0, ROUTE_NO_NEXT);
}

/* }======= */

/* {======= overlays ======= */

/* Per (cluster, flags): row x, column e holds the time from entry e's end
** to having taken exit x, inside the cluster. */
static RouteCache *overlay_cache(NavRouter *r, uint32_t c, uint32_t flags)
{
    RouteCache *ov = find(r, CACHE_OVERLAY, c, 0, flags);
    if (ov) {
        ov->pins++;
        return ov;
    }
    uint32_t ne = r->entry_first[c + 1] - r->entry_first[c], nx = r->exit_first[c + 1] - r->exit_first[c];
    ov = new_cache(r, CACHE_OVERLAY, c, 0, flags, ne * nx, 0);
    if (!ov) return NULL;
    const uint32_t *entries = r->entries + r->entry_first[c], *exits = r->exits + r->exit_first[c];
    for (uint32_t x = 0; x < nx; x++) {
        RouteHeap h = cluster_heap(r, c);
        /* Taking the exit itself costs its take time; the value after is 0. */
        seed_before(r, &h, exits[x], 0, flags);
        cluster_search(r, &h, c, flags);
        for (uint32_t e = 0; e < ne; e++) ov->time[x * ne + e] = r->cdist[r->state[entries[e]]];
    }
    return ov;
}

/* }======= */

/* {======= portal caches ======= */

/* A portal cache is a backward Dijkstra over the portal states and the
** clusters' entries (overlays between them), kept open: it runs only as
** far as the queries need, until the node route_portal_time asks for is
** final. The cache keeps the times and which are final; the heap of the
** open search lives in the router's search state for one cache at a time
** and is rebuilt from those (the unfinal nodes with a time) when another
** cache's search goes on. A goal's first queries pay for what they use,
** later ones only for what is new. */

static bool settled(const RouteCache *pc, uint32_t n) { return (pc->done[n >> 5] >> (n & 31)) & 1u; }

/* Make pc's search the one in the router's heap. */
static RouteHeap open_search(NavRouter *r, RouteCache *pc)
{
    RouteHeap h = { r->pheap, r->ppos, pc->time, r->open_count };
    if (r->open_pc == pc) return h;
    for (uint32_t i = 0; i < h.count; i++) r->ppos[h.node[i]] = ROUTE_NONE;
    h.count = 0;
    uint32_t nodes = pc->count;
    for (uint32_t n = 0; n < nodes; n++)
        if (pc->time[n] != ROUTE_UNREACHABLE && !settled(pc, n)) {
            h.node[h.count] = n;
            r->ppos[n] = h.count++;
        }
    for (uint32_t i = h.count / 2; i-- > 0;) heap_down(&h, i);
    r->open_pc = pc;
    r->open_count = h.count;
    return h;
}

/* Relax from node n (just settled). */
static void portal_relax(NavRouter *r, RouteCache *pc, RouteHeap *h, uint32_t n, const RouteCache *ov)
{
    uint32_t ps = r->portal_states, v = pc->time[n], flags = pc->flags;
    uint32_t s = n < ps ? r->portal_list[n] : r->entries[n - ps];
    uint32_t b = r->from[s];
    if (!r->cluster[b]) {
        /* s leaves portal area b: the portal states into b take it. */
        if (!route_usable(r, s, flags)) return;
        uint32_t in_count;
        const uint32_t *in = route_incoming(r, b, &in_count);
        for (uint32_t i = 0; i < in_count; i++) {
            uint32_t p = r->state[in[i]], c = route_add(route_take(r, in[i], s, flags), v);
            if (c < pc->time[p]) {
                pc->time[p] = c;
                heap_push(h, p);
            }
        }
    } else if (n < ps) {
        /* s is an exit of b's cluster: its entries reach it across. */
        uint32_t c = r->cluster[b];
        uint32_t ne = r->entry_first[c + 1] - r->entry_first[c], x = r->exit[s];
        const uint32_t *row = ov->time + (size_t)x * ne;
        for (uint32_t e = 0; e < ne; e++) {
            if (row[e] == ROUTE_UNREACHABLE) continue;
            uint32_t node = ps + r->entry_first[c] + e, cand = route_add(row[e], v);
            if (cand < pc->time[node]) {
                pc->time[node] = cand;
                heap_push(h, node);
            }
        }
    }
}

bool route_portal_time(NavRouter *r, RouteCache *pc, uint32_t state, uint32_t *out)
{
    *out = pc->time[state];
    if (settled(pc, state)) return true;
    RouteHeap h = open_search(r, pc);
    bool ok = true;
    /* Final once nothing left in the heap can lower it. */
    while (h.count && pc->time[h.node[0]] < pc->time[state]) {
        uint32_t n = h.node[0];
        RouteCache *ov = NULL;
        if (n < r->portal_states) {
            uint32_t c = r->cluster[r->from[r->portal_list[n]]];
            if (c && !(ov = overlay_cache(r, c, pc->flags))) {
                ok = false; /* nothing popped: the search stays whole */
                break;
            }
        }
        heap_pop(&h);
        pc->done[n >> 5] |= 1u << (n & 31);
        portal_relax(r, pc, &h, n, ov);
        route_cache_unpin(ov);
    }
    r->open_count = h.count;
    *out = pc->time[state];
    return ok;
}

RouteCache *route_portal_cache(NavRouter *r, uint32_t goal, uint32_t flags)
{
    RouteCache *pc = find(r, CACHE_PORTAL, 0, goal, flags);
    if (pc) {
        pc->pins++;
        return pc;
    }
    uint32_t ps = r->portal_states, nodes = ps + r->entry_total;
    pc = new_cache(r, CACHE_PORTAL, 0, goal, flags, nodes, 0);
    if (!pc) return NULL;
    pc->version = ++r->version;
    for (uint32_t i = 0; i < nodes; i++) pc->time[i] = ROUTE_UNREACHABLE;
    uint32_t gc = r->cluster[goal];
    if (gc) {
        /* Inside the goal's cluster: the entries' times to the goal without
        ** leaving it. */
        RouteHeap ch = cluster_heap(r, gc);
        seed_goal(r, &ch, gc, goal);
        cluster_search(r, &ch, gc, flags);
        for (uint32_t e = r->entry_first[gc]; e < r->entry_first[gc + 1]; e++) {
            uint32_t v = r->cdist[r->state[r->entries[e]]];
            if (v < pc->time[ps + e]) pc->time[ps + e] = v;
        }
    } else {
        uint32_t in_count;
        const uint32_t *in = route_incoming(r, goal, &in_count);
        for (uint32_t i = 0; i < in_count; i++) pc->time[r->state[in[i]]] = 0;
    }
    open_search(r, pc);
    return pc;
}

/* }======= */

/* {======= area caches ======= */

/* Do the exits' portal times match those the area cache was built with?
** *ok false when the portal search could not go on (no room). */
static bool exits_unchanged(NavRouter *r, const RouteCache *ac, RouteCache *pc, bool *ok)
{
    uint32_t c = ac->cluster;
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++) {
        uint32_t t;
        if (!route_portal_time(r, pc, r->state[r->exits[x]], &t)) {
            *ok = false;
            return false;
        }
        if (ac->exit_time[i] != t) return false;
    }
    return true;
}

RouteCache *route_area_cache(NavRouter *r, uint32_t c, uint32_t goal, uint32_t flags, RouteCache *pc)
{
    RouteCache *ac = find(r, CACHE_AREA, c, goal, flags);
    bool ok = true;
    if (ac && pc && ac->version != pc->version) {
        if (exits_unchanged(r, ac, pc, &ok)) {
            ac->version = pc->version;
        } else if (!ac->pins) {
            free_cache(r, ac);
            ac = NULL;
        }
        if (!ok) return NULL;
    }
    if (ac) {
        ac->pins++;
        return ac;
    }
    uint32_t nm = r->member_first[c + 1] - r->member_first[c], nx = r->exit_first[c + 1] - r->exit_first[c];
    /* The exits' portal times first: the portal search may build overlays,
    ** which use the cluster search state. */
    uint32_t *exit_time = r->pdist;
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++) {
        uint32_t s = r->exits[x], v = ROUTE_UNREACHABLE;
        if (pc && !route_portal_time(r, pc, r->state[s], &v)) return NULL;
        exit_time[i] = r->to[s] == goal ? 0 : v;
    }
    ac = new_cache(r, CACHE_AREA, c, goal, flags, nm, nx);
    if (!ac) return NULL;
    ac->version = pc ? pc->version : 0;
    memcpy(ac->exit_time, exit_time, nx * sizeof *exit_time);
    RouteHeap h = cluster_heap(r, c);
    seed_goal(r, &h, c, goal);
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++)
        seed_before(r, &h, r->exits[x], ac->exit_time[i], flags);
    cluster_search(r, &h, c, flags);
    memcpy(ac->time, r->cdist, nm * sizeof *ac->time);
    memcpy(ac->step, r->cnext, nm * sizeof *ac->step);
    return ac;
}

/* }======= */

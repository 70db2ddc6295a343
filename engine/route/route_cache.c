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

#include "core/alloc.h"

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
    r->buckets = nav_calloc(r->bucket_count, sizeof *r->buckets);
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
    RouteCache **b = nav_calloc(n, sizeof *b);
    if (!b) return;
    for (uint32_t i = 0; i < r->bucket_count; i++)
        for (RouteCache *c = r->buckets[i], *next; c; c = next) {
            next = c->hnext;
            RouteCache **chain = &b[hash_key(c->kind, c->cluster, c->goal, c->flags) & (n - 1)];
            c->hnext = *chain;
            *chain = c;
        }
    nav_free(r->buckets);
    r->fixed_bytes += (size_t)(n - r->bucket_count) * sizeof *b;
    r->buckets = b;
    r->bucket_count = n;
}

/* Forget the open area search (its heap positions cleared). */
static void close_area_search(NavRouter *r)
{
    for (uint32_t i = 0; i < r->asearch.h.count; i++) r->apos[r->asearch.h.node[i]] = ROUTE_NONE;
    r->asearch.h.count = 0;
    r->open_ac = NULL;
}

static void free_cache(NavRouter *r, RouteCache *c)
{
    if (r->open_pc == c) r->open_pc = NULL; /* its heap goes with it */
    if (r->open_ac == c) close_area_search(r);
    if (c->kind == CACHE_OVERLAY && c->flags == r->overlay_flags && r->overlay_of[c->cluster] == c)
        r->overlay_of[c->cluster] = NULL;
    RouteCache **p = chain_of(r, c);
    while (*p != c) p = &(*p)->hnext;
    *p = c->hnext;
    lru_unlink(r, c);
    r->cache_bytes -= c->bytes;
    r->cache_count--;
    r->kind_count[c->kind]--;
    nav_free(c);
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
    if (kind == CACHE_AREA)
        bytes += (size_t)exits * sizeof(uint32_t) + ((size_t)values + 31) / 32 * sizeof(uint32_t) +
                 (size_t)values * sizeof(uint16_t);
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
    c = nav_calloc(1, bytes);
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
        c->done = c->exit_time + exits;
        c->step = (uint16_t *)(c->done + ((size_t)values + 31) / 32);
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

/* Offer value for member state li (local index), reached by taking its
** area's outgoing link `next`. Among equal times the lowest next wins, so
** the answer does not depend on the order offers arrive in (a paused
** search sees them in another order than a whole one); being in the goal
** (ROUTE_NO_NEXT at 0) is kept. */
static inline void seed(ClusterSearch *cs, uint32_t li, uint32_t value, uint16_t next)
{
    if (value < cs->dist[li]) {
        cs->dist[li] = value;
        cs->next[li] = next;
        heap_push(&cs->h, li);
    } else if (value == cs->dist[li] && next < cs->next[li] && cs->next[li] != ROUTE_NO_NEXT) {
        cs->next[li] = next;
    }
}

/* A fresh search over cluster c in the router's scratch state. */
static ClusterSearch cluster_scratch(NavRouter *r, uint32_t c)
{
    uint32_t n = r->member_first[c + 1] - r->member_first[c];
    for (uint32_t i = 0; i < n; i++) {
        r->cdist[i] = ROUTE_UNREACHABLE;
        r->cnext[i] = ROUTE_NO_NEXT;
    }
    return (ClusterSearch){ { r->cnode, r->cpos, r->cdist, 0 }, r->cdist, r->cnext, NULL };
}

/* Offer the links into member area from[x] the time to take link x and go
** on from its end at `value`. */
static void seed_before(const NavRouter *r, ClusterSearch *cs, uint32_t x, uint32_t value, uint32_t flags)
{
    if (value == ROUTE_UNREACHABLE || !route_usable(r, x, flags)) return;
    uint32_t b = r->from[x], n = r->in_first[b + 1] - r->in_first[b];
    const uint32_t *state = r->in_state + r->in_first[b], *take = r->take + r->take_first[x];
    uint32_t base = route_add(value, route_ledge(r, x, flags));
    uint16_t k = (uint16_t)(x - r->out_first[b]);
    for (uint32_t i = 0; i < n; i++) seed(cs, state[i], route_add(take[i], base), k);
}

/* Pop the search's least state and offer its predecessors. */
static inline void cluster_pop(const NavRouter *r, ClusterSearch *cs, const uint32_t *members, uint32_t flags)
{
    uint32_t li = heap_pop(&cs->h);
    if (cs->done) cs->done[li >> 5] |= 1u << (li & 31);
    uint32_t t = members[li];
    if (r->cluster[r->from[t]]) seed_before(r, cs, t, cs->dist[li], flags); /* else from a portal: the edge */
}

/* Run the search over cluster c's member states to the end. */
static void cluster_search(const NavRouter *r, ClusterSearch *cs, uint32_t c, uint32_t flags)
{
    const uint32_t *members = r->members + r->member_first[c];
    while (cs->h.count) cluster_pop(r, cs, members, flags);
}

/* Offer the goal's incoming links 0 when the goal is a member of c. */
static void seed_goal(const NavRouter *r, ClusterSearch *cs, uint32_t c, uint32_t goal)
{
    if (r->cluster[goal] != c) return;
    uint32_t in_count;
    const uint32_t *in = route_incoming(r, goal, &in_count);
    for (uint32_t i = 0; i < in_count; i++) seed(cs, r->state[in[i]], 0, ROUTE_NO_NEXT);
}

/* }======= */

/* {======= overlays ======= */

/* Per (cluster, flags): row x, column e holds the time from entry e's end
** to having taken exit x, inside the cluster. */
static RouteCache *overlay_cache(NavRouter *r, uint32_t c, uint32_t flags)
{
    RouteCache *ov;
    if (flags == r->overlay_flags && (ov = r->overlay_of[c]) != NULL) {
        lru_unlink(r, ov);
        lru_append(r, ov);
        r->hits++;
        ov->pins++;
        return ov;
    }
    if (flags != r->overlay_flags) {
        memset(r->overlay_of, 0, ((size_t)r->clusters + 1) * sizeof *r->overlay_of);
        r->overlay_flags = flags;
    }
    if ((ov = find(r, CACHE_OVERLAY, c, 0, flags)) != NULL) {
        r->overlay_of[c] = ov;
        ov->pins++;
        return ov;
    }
    uint32_t ne = r->entry_first[c + 1] - r->entry_first[c], nx = r->exit_first[c + 1] - r->exit_first[c];
    ov = new_cache(r, CACHE_OVERLAY, c, 0, flags, ne * nx, 0);
    if (!ov) return NULL;
    r->overlay_of[c] = ov;
    const uint32_t *entries = r->entries + r->entry_first[c], *exits = r->exits + r->exit_first[c];
    for (uint32_t x = 0; x < nx; x++) {
        ClusterSearch cs = cluster_scratch(r, c);
        /* Taking the exit itself costs its take time; the value after is 0. */
        seed_before(r, &cs, exits[x], 0, flags);
        cluster_search(r, &cs, c, flags);
        for (uint32_t e = 0; e < ne; e++) ov->time[x * ne + e] = r->cdist[r->state[entries[e]]];
    }
    return ov;
}

bool router_prepare(NavRouter *r, uint32_t flags)
{
    for (uint32_t c = 1; c <= r->clusters; c++) {
        if (r->exit_first[c + 1] == r->exit_first[c]) continue; /* never crossed */
        RouteCache *ov = overlay_cache(r, c, flags);
        if (!ov) return false;
        route_cache_unpin(ov);
    }
    return true;
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
        uint32_t nin = r->in_first[b + 1] - r->in_first[b];
        const uint32_t *state = r->in_state + r->in_first[b], *take = r->take + r->take_first[s];
        uint32_t base = route_add(v, route_ledge(r, s, flags));
        for (uint32_t i = 0; i < nin; i++) {
            uint32_t p = state[i], c = route_add(take[i], base);
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

static void watch_exit(NavRouter *r, RouteCache *pc, uint32_t n);

/* Settle the open search's least node; false when its cluster's overlay
** did not fit (then nothing is popped and the search stays whole). */
static bool portal_settle_one(NavRouter *r, RouteCache *pc, RouteHeap *h)
{
    uint32_t n = h->node[0];
    RouteCache *ov = NULL;
    if (n < r->portal_states) {
        uint32_t c = r->cluster[r->from[r->portal_list[n]]];
        if (c && !(ov = overlay_cache(r, c, pc->flags))) return false;
    }
    heap_pop(h);
    pc->done[n >> 5] |= 1u << (n & 31);
    portal_relax(r, pc, h, n, ov);
    route_cache_unpin(ov);
    if (r->watch && n < r->portal_states) watch_exit(r, pc, n);
    return true;
}

/* Settle until every node with a time below `bound` is final. */
static bool portal_run_to(NavRouter *r, RouteCache *pc, uint32_t bound)
{
    RouteHeap h = open_search(r, pc);
    bool ok = true;
    while (ok && h.count && pc->time[h.node[0]] < bound) ok = portal_settle_one(r, pc, &h);
    r->open_count = h.count;
    return ok;
}

/* The least time still open: nodes below it are final (UINT64_MAX when
** the search has ended). */
static uint64_t portal_front(NavRouter *r, RouteCache *pc)
{
    if (!pc) return UINT64_MAX;
    RouteHeap h = open_search(r, pc);
    return h.count ? pc->time[h.node[0]] : UINT64_MAX;
}

bool route_portal_time(NavRouter *r, RouteCache *pc, uint32_t state, uint32_t *out)
{
    *out = pc->time[state];
    if (settled(pc, state)) return true;
    RouteHeap h = open_search(r, pc);
    bool ok = true;
    /* Final once nothing left in the heap can lower it. */
    while (ok && h.count && pc->time[h.node[0]] < pc->time[state]) ok = portal_settle_one(r, pc, &h);
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
        ClusterSearch cs = cluster_scratch(r, gc);
        seed_goal(r, &cs, gc, goal);
        cluster_search(r, &cs, gc, flags);
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

/* An area cache is a backward search over its cluster from the goal (when
** a member) and from each exit at the exit's portal time, kept open like
** the portal cache: it goes on only while a state asked about is not yet
** final, and it pulls the portal search along. An exit is offered to it
** once the portal search has settled it (the portal search offers the
** exits of the cluster being searched as it settles them; the others are
** picked up when the search reopens). A state is final when its time is
** below both searches' least open times: no unseen offer can lower it or
** tie it. So a route's later steps, whose times only fall, are answered
** without searching the whole cluster; a cold route pays for the part of
** the graph nearer the goal than its start. */

/* Start the search over: nothing known but the goal. */
static void area_reset(NavRouter *r, RouteCache *ac)
{
    uint32_t c = ac->cluster, nm = ac->count, nx = r->exit_first[c + 1] - r->exit_first[c];
    if (r->open_ac == ac) close_area_search(r);
    for (uint32_t i = 0; i < nm; i++) {
        ac->time[i] = ROUTE_UNREACHABLE;
        ac->step[i] = ROUTE_NO_NEXT;
    }
    memset(ac->done, 0, ((size_t)nm + 31) / 32 * sizeof *ac->done);
    for (uint32_t i = 0; i < nx; i++) ac->exit_time[i] = ROUTE_UNREACHABLE;
    ac->bound = 0;
    ac->pfront = 0;
    ac->complete = false;
    /* The goal's incoming links are in it; the heap is built on opening. */
    if (r->cluster[ac->goal] == c) {
        uint32_t in_count;
        const uint32_t *in = route_incoming(r, ac->goal, &in_count);
        for (uint32_t i = 0; i < in_count; i++) ac->time[r->state[in[i]]] = 0;
    }
}

/* Offer exit i (link s) of ac's cluster at its portal time. */
static void seed_exit(NavRouter *r, RouteCache *ac, uint32_t i, uint32_t s, uint32_t t)
{
    ac->exit_time[i] = t;
    seed_before(r, &r->asearch, s, t, ac->flags);
}

/* The portal search settled node n: offer it to the watched area cache
** if it is one of its exits. */
static void watch_exit(NavRouter *r, RouteCache *pc, uint32_t n)
{
    uint32_t s = r->portal_list[n];
    RouteCache *ac = r->watch;
    if (r->cluster[r->from[s]] != ac->cluster) return;
    uint32_t i = r->exit[s];
    if (ac->exit_time[i] == ROUTE_UNREACHABLE) seed_exit(r, ac, i, s, pc->time[n]);
}

/* Make ac's search the open one, and offer it the exits the portal search
** has settled since it last ran. */
static void area_open(NavRouter *r, RouteCache *ac, RouteCache *pc)
{
    if (r->open_ac != ac) {
        if (r->open_ac) close_area_search(r);
        r->asearch = (ClusterSearch){ { r->anode, r->apos, ac->time, 0 }, ac->time, ac->step, ac->done };
        RouteHeap *h = &r->asearch.h;
        for (uint32_t li = 0; li < ac->count; li++)
            if (ac->time[li] != ROUTE_UNREACHABLE && !((ac->done[li >> 5] >> (li & 31)) & 1u)) {
                h->node[h->count] = li;
                r->apos[li] = h->count++;
            }
        for (uint32_t i = h->count / 2; i-- > 0;) heap_down(h, i);
        r->open_ac = ac;
    }
    if (!pc) return;
    uint32_t c = ac->cluster;
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++) {
        uint32_t s = r->exits[x], n = r->state[s];
        if (ac->exit_time[i] == ROUTE_UNREACHABLE && settled(pc, n)) seed_exit(r, ac, i, s, pc->time[n]);
    }
}

bool route_area_settle(NavRouter *r, RouteCache *ac, RouteCache *pc, uint32_t li)
{
    if (ac->complete || ac->time[li] < ac->bound) return true;
    area_open(r, ac, pc);
    ClusterSearch *cs = &r->asearch;
    const uint32_t *members = r->members + r->member_first[ac->cluster];
    uint64_t cmin, pmin;
    bool ok = true;
    r->watch = ac;
    for (;;) {
        cmin = cs->h.count ? ac->time[cs->h.node[0]] : UINT64_MAX;
        pmin = portal_front(r, pc);
        uint64_t bound = cmin < pmin ? cmin : pmin;
        if (ac->time[li] < bound || bound == UINT64_MAX) break;
        if (cmin < pmin) {
            cluster_pop(r, cs, members, ac->flags);
        } else {
            /* The portal search's next node may be an exit offering less. */
            RouteHeap h = open_search(r, pc);
            ok = portal_settle_one(r, pc, &h);
            r->open_count = h.count;
            if (!ok) break;
        }
    }
    r->watch = NULL;
    uint64_t bound = cmin < pmin ? cmin : pmin;
    ac->complete = ok && bound == UINT64_MAX;
    ac->bound = bound > ac->bound && bound < UINT64_MAX ? (uint32_t)bound : ac->bound;
    if (pmin > ac->pfront) ac->pfront = pmin >= ROUTE_UNREACHABLE ? ROUTE_UNREACHABLE : (uint32_t)pmin;
    return ok;
}

/* Is ac still right under a rebuilt portal cache? Every exit it was
** offered keeps its time, and no other exit now lies below its portal
** front. *ok false when the portal search could not go on (no room). */
static bool area_still_valid(NavRouter *r, const RouteCache *ac, RouteCache *pc, bool *ok)
{
    uint32_t c = ac->cluster;
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++) {
        if (ac->exit_time[i] == ROUTE_UNREACHABLE) continue;
        uint32_t t;
        if (!route_portal_time(r, pc, r->state[r->exits[x]], &t)) {
            *ok = false;
            return false;
        }
        if (ac->exit_time[i] != t) return false;
    }
    if (!portal_run_to(r, pc, ac->pfront)) {
        *ok = false;
        return false;
    }
    for (uint32_t x = r->exit_first[c], i = 0; x < r->exit_first[c + 1]; x++, i++) {
        uint32_t n = r->state[r->exits[x]];
        if (ac->exit_time[i] == ROUTE_UNREACHABLE && settled(pc, n) && pc->time[n] < ac->pfront) return false;
    }
    return true;
}

RouteCache *route_area_cache(NavRouter *r, uint32_t c, uint32_t goal, uint32_t flags, RouteCache *pc)
{
    RouteCache *ac = find(r, CACHE_AREA, c, goal, flags);
    if (ac) {
        if (pc && ac->version != pc->version) {
            bool ok = true;
            if (!area_still_valid(r, ac, pc, &ok)) {
                if (!ok) return NULL;
                area_reset(r, ac);
            }
            ac->version = pc->version;
        }
        ac->pins++;
        return ac;
    }
    uint32_t nm = r->member_first[c + 1] - r->member_first[c], nx = r->exit_first[c + 1] - r->exit_first[c];
    ac = new_cache(r, CACHE_AREA, c, goal, flags, nm, nx);
    if (!ac) return NULL;
    ac->version = pc ? pc->version : 0;
    area_reset(r, ac);
    return ac;
}

/* }======= */

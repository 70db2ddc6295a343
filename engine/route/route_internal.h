/*
** route_internal.h — the router's layout, shared by the route modules.
**
** The router copies what its searches touch into flat arrays: per link
** its ends, time, flags, place among its target's incoming links and an
** obstacle count; per area its outgoing range, crossing table and cluster.
** A search state is a link (the one a mover arrived by); states are
** numbered per cluster (links into its member areas) and globally for
** portals (links into portal areas).
*/
#ifndef NAV_ROUTE_INTERNAL_H
#define NAV_ROUTE_INTERNAL_H

#include "route/route.h"

#define ROUTE_NONE UINT32_MAX
#define ROUTE_NO_NEXT 0xFFFFu

/* {======= indexed binary heap ======= */

/* A min-heap of node ids keyed by an outside array, with decrease-key.
** Ties break on the lower id, so searches are deterministic. */
typedef struct RouteHeap {
    uint32_t *node; /* heap order */
    uint32_t *pos;  /* per node: place in `node`, ROUTE_NONE if out */
    const uint32_t *key;
    uint32_t count;
} RouteHeap;

static inline bool heap_less(const RouteHeap *h, uint32_t a, uint32_t b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static inline void heap_up(RouteHeap *h, uint32_t i)
{
    uint32_t n = h->node[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!heap_less(h, n, h->node[p])) break;
        h->node[i] = h->node[p];
        h->pos[h->node[i]] = i;
        i = p;
    }
    h->node[i] = n;
    h->pos[n] = i;
}

static inline void heap_down(RouteHeap *h, uint32_t i)
{
    uint32_t n = h->node[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->count) break;
        if (c + 1 < h->count && heap_less(h, h->node[c + 1], h->node[c])) c++;
        if (!heap_less(h, h->node[c], n)) break;
        h->node[i] = h->node[c];
        h->pos[h->node[i]] = i;
        i = c;
    }
    h->node[i] = n;
    h->pos[n] = i;
}

/* Insert node n or move it up after its key dropped. */
static inline void heap_push(RouteHeap *h, uint32_t n)
{
    if (h->pos[n] == ROUTE_NONE) {
        h->node[h->count] = n;
        h->pos[n] = h->count++;
    }
    heap_up(h, h->pos[n]);
}

static inline uint32_t heap_pop(RouteHeap *h)
{
    uint32_t top = h->node[0];
    h->pos[top] = ROUTE_NONE;
    if (--h->count > 0) {
        h->node[0] = h->node[h->count];
        heap_down(h, 0);
    }
    return top;
}

/* }======= */

typedef struct RouteCache RouteCache;

/* A backward Dijkstra over one cluster's member states (local indices):
** times and next links, a heap keyed by the times, and (for area caches,
** whose searches pause and go on) a bit per state once popped. */
typedef struct ClusterSearch {
    RouteHeap h;
    uint32_t *dist;
    uint16_t *next;
    uint32_t *done; /* NULL when the search runs to the end at once */
} ClusterSearch;

typedef struct Obstacle {
    uint32_t id;
    uint32_t count; /* links it disables */
    uint32_t *links;
} Obstacle;

struct NavRouter {
    const NavAreaGraph *ag;
    uint32_t areas, links, clusters;
    /* per link */
    uint32_t *from, *to, *time, *tflags, *in_pos;
    uint16_t *disabled; /* obstacles disabling it */
    uint8_t *to_ledge;  /* target is a ledge area */
    uint32_t *state;    /* index among its cluster's member states, or portal state index */
    uint32_t *entry;    /* index among its cluster's entries, ROUTE_NONE if not an entry */
    uint32_t *exit;     /* index among its source cluster's exits, ROUTE_NONE if not an exit */
    /* per area */
    uint32_t *out_first, *out_count;
    uint32_t *in_first, *in_list; /* incoming links: in_list[in_first[a] .. in_first[a + 1]) */
    uint32_t *in_state;           /* beside in_list: each incoming link's state */
    /* per link s, beside its source's incoming links: the time to take s
    ** having arrived by each (crossing + link time, no ledge penalty), so a
    ** backward search step reads two arrays in order. */
    uint32_t *take_first, *take;
    const uint32_t **cross; /* area_crossing_table */
    uint32_t *cluster;      /* member cluster, 0 for a portal */
    /* per cluster (1-based; [c] .. [c + 1]) */
    uint32_t *member_first, *members; /* member states: links into member areas */
    uint32_t *entry_first, *entries;  /* member states whose link leaves a portal */
    uint32_t *exit_first, *exits;     /* links from a member area into a portal area */
    uint32_t entry_total;
    uint8_t *cluster_mark; /* scratch: clusters an obstacle touches */
    uint8_t *area_mark;    /* scratch: areas an obstacle overlaps */
    float *link_box;       /* per link: the box around its start and end */
    /* portal states: links into portal areas */
    uint32_t portal_states;
    uint32_t *portal_list;
    /* search state, reused by every query */
    uint32_t *cdist; /* per link: cluster searches, the fallback */
    uint16_t *cnext;
    uint32_t *cfirst; /* the fallback: first link of the best way to each state */
    uint32_t *cprev;  /* ...and the state before it (ROUTE_NONE at the start) */
    uint32_t *cpos, *cnode;
    uint32_t *pdist;        /* scratch, portal states then entries long */
    uint32_t *pheap, *ppos; /* the heap of one portal cache's open search */
    RouteCache *open_pc;    /* whose search that is */
    uint32_t open_count;
    uint32_t *anode, *apos;  /* the heap of one area cache's open search */
    RouteCache *open_ac;     /* whose search that is ... */
    ClusterSearch asearch;   /* ... and its state */
    RouteCache *watch;       /* the area cache whose exits the portal search seeds as they settle */
    RouteCache **overlay_of; /* per cluster: its overlay for overlay_flags, NULL if none (a
                                 ** shortcut past the index for the portal searches) */
    uint32_t overlay_flags;
    /* caches */
    RouteCache *lru_head, *lru_tail; /* head: least recent */
    RouteCache **buckets;
    uint32_t bucket_count;
    size_t cache_bytes, cap_bytes, fixed_bytes;
    uint32_t cache_count, kind_count[3];
    uint64_t hits, misses, evictions, fallbacks;
    uint32_t version; /* portal cache builds, for area cache checks */
    bool out_of_room; /* set when a cache did not fit this query */
    /* obstacles */
    Obstacle *obstacles;
    uint32_t obstacle_count, obstacle_cap, next_obstacle_id;
    uint32_t disabled_links;
    /* per-query area costs (route_costs.c) */
    struct RouteCostCache *costed; /* up to ROUTE_COSTED_MAX, most recent first */
    uint32_t costed_count;
    uint32_t links_version; /* bumped when obstacles change which links are usable */
};

/* route_costs.c */
#define ROUTE_COSTED_MAX 16
void route_costs_free(NavRouter *r);

/* The links into area a, *count of them. */
static inline const uint32_t *route_incoming(const NavRouter *r, uint32_t a, uint32_t *count)
{
    *count = r->in_first[a + 1] - r->in_first[a];
    return r->in_list + r->in_first[a];
}

/* May link s be taken under flags? */
static inline bool route_usable(const NavRouter *r, uint32_t s, uint32_t flags)
{
    return (r->tflags[s] & ~flags) == 0 && r->disabled[s] == 0;
}

/* Time to take link s having arrived in its source area by link `in`:
** crossing the area, the link, and the ledge penalty. */
static inline uint32_t route_take(const NavRouter *r, uint32_t in, uint32_t s, uint32_t flags)
{
    uint32_t t = r->take[r->take_first[s] + r->in_pos[in]];
    if (r->to_ledge[s] && !(flags & NAV_TFL_FLY)) t += ROUTE_LEDGE_PENALTY;
    return t;
}

/* The ledge penalty for taking link s. */
static inline uint32_t route_ledge(const NavRouter *r, uint32_t s, uint32_t flags)
{
    return r->to_ledge[s] && !(flags & NAV_TFL_FLY) ? ROUTE_LEDGE_PENALTY : 0;
}

/* a + b, saturating at ROUTE_UNREACHABLE. */
static inline uint32_t route_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= ROUTE_UNREACHABLE ? ROUTE_UNREACHABLE - 1 : (uint32_t)s;
}

/* The flags a query from start to goal runs with (route.h). */
uint32_t route_query_flags(const NavRouter *r, uint32_t start, uint32_t goal, uint32_t flags);
/* From a point in area a: the time to take link s. */
uint32_t route_take_from_point(const NavRouter *r, uint32_t a, const float p[3], uint32_t s, uint32_t flags);

/* route_cache.c */
enum { CACHE_AREA = 0, CACHE_PORTAL = 1, CACHE_OVERLAY = 2 };

struct RouteCache {
    RouteCache *prev, *next; /* LRU */
    RouteCache *hnext;       /* hash chain */
    uint32_t kind, cluster, goal, flags;
    uint32_t pins;
    uint32_t version; /* portal: its build; area: the portal build it used */
    uint32_t count;   /* values */
    size_t bytes;
    uint32_t *time;      /* area: per member state; portal: per portal state;
                                 ** overlay: exits x entries, row per exit */
    uint16_t *step;      /* area: best next link (index in the area's outgoing) */
    uint32_t *exit_time; /* area: the portal time each exit was seeded with,
                                 ** ROUTE_UNREACHABLE while not seeded */
    uint32_t *done;      /* portal: a bit per node whose time is final
                                 ** (time holds portal states, then entries);
                                 ** area: a bit per member state popped */
    uint32_t bound;      /* area: states with a time below it are final */
    uint32_t pfront;     /* area: every exit with a portal time below it is seeded */
    bool complete;       /* area: the search has ended */
};

/* The caches a query needs, made when missing and pinned until
** route_cache_unpin; NULL when they cannot fit under the cap. Both are
** searches that run only as far as their queries need. */
RouteCache *route_portal_cache(NavRouter *r, uint32_t goal, uint32_t flags);
RouteCache *route_area_cache(NavRouter *r, uint32_t cluster, uint32_t goal, uint32_t flags, RouteCache *portal);
/* Make member state li's time and next link in area cache ac final (the
** search run as far as needed); false when an overlay did not fit. */
bool route_area_settle(NavRouter *r, RouteCache *ac, RouteCache *portal, uint32_t li);
/* The final time of portal state `state` to the portal cache's goal, its
** search run as far as needed; false when an overlay did not fit. */
bool route_portal_time(NavRouter *r, RouteCache *pc, uint32_t state, uint32_t *out);
void route_cache_unpin(RouteCache *c);
void route_cache_free_all(NavRouter *r, bool keep_overlays);
/* Drop the area and overlay caches of the marked clusters and every
** portal cache. */
void route_cache_invalidate_clusters(NavRouter *r, const uint8_t *marked);
bool route_cache_init(NavRouter *r);


/* The opening of every query: false to go on; true when *status and out
** are the whole answer (an area out of range, or start in the goal). */
static inline bool route_trivial(const NavRouter *r, uint32_t start, uint32_t goal, NavRoute *out, NavStatus *status)
{
    out->time = ROUTE_UNREACHABLE;
    out->next_reach = ROUTE_NONE;
    *status = NAV_OK;
    if (start >= r->areas || goal >= r->areas) {
        *status = NAV_FAILURE | NAV_E_PARAM;
        return true;
    }
    if (start == goal) out->time = 0;
    return start == goal;
}

/* route_dijkstra.c: a forward Dijkstra over link states from a point, in
** the router's search state, with hooks. */
typedef struct RouteForward {
    /* Extra time for taking link s, ROUTE_UNREACHABLE to forbid it. */
    uint32_t (*extra)(void *user, const NavRouter *r, uint32_t s);
    /* Stop at a state (the link arrived by, the time so far)? */
    bool (*accept)(void *user, const NavRouter *r, uint32_t s, uint32_t time);
    void *user;
    uint32_t max_time; /* 0: none */
} RouteForward;

/* Runs the search; returns the accepted state or ROUTE_NONE. r->cdist
** holds the times of the states reached, r->cfirst their first links,
** r->cprev the state each was reached from. */
uint32_t route_forward(NavRouter *r, uint32_t start, const float p[3], uint32_t flags, const RouteForward *f);

#endif

/*
** area_cluster.c — clusters and portals.
**
** Routing caches are built per cluster, so clusters must stay small, and
** every way between two clusters must pass a portal: an area that belongs
** to neither and touches exactly two. Two portals linked to each other
** must share a cluster, so that every link lies inside one cluster (a
** portal counting as a member of both of its own).
**
** The algorithm, over the areas linked by reachabilities in either
** direction (so a one-way link joins what it connects, as in Quake III):
**   1. Candidates: areas the map marks as portal; narrow areas (one or two
**      cells across) linked to two or more others: doorways, corridor necks,
**      stair landings; areas on cut lines (area_cut.c); and the landing
**      areas of links between areas that do not touch (gap jumps,
**      teleporters, elevators, jump pads), which repair the portals such a
**      link would otherwise jump over.
**   2. Settle: every other area is a member, and the members' connected
**      groups are the clusters (a union-find, which only ever merges).
**      A candidate touching one cluster, or three or more, or linked to a
**      candidate with which it shares no cluster, becomes a member (joining
**      what it touches); repeat until every candidate is a valid portal.
**      Weak candidates (narrow areas, landings) give way first, and a cut
**      line's area touching three clusters first dissolves the weak portals
**      beside it that divide them; one touching a single cluster first
**      dissolves the weak candidates beside it, which hid the other side. A candidate touching only candidates
**      joins a cluster all of them share, changing no one's sides.
**      Candidates only ever become members, so this ends.
**   3. Merge: a portal between two clusters that together (with the portals
**      between just them) fit the size limit is dissolved, smallest merge
**      first, then step 2 again; until no merge fits. Designer portals are
**      kept. Narrow areas on open ground thus stop making tiny clusters.
**   4. A cluster still over the limit is cut by lines through open ground
**      on the next compile pass (area_plan_cuts); area_compile drives that.
** Clusters are numbered from 1 in the order of their lowest area; a
** portal's front is its lower-numbered cluster.
*/
#include "area/area_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* Candidate strengths; 0 is a member. */
enum { CAND_WEAK = 1, CAND_CUT = 2, CAND_DESIGNER = 3 };

typedef struct Work {
    NavAreaGraph *ag;
    uint8_t *cand;             /* CAND_*, 0 for a member */
    uint8_t *designer;         /* keep through merges */
    uint32_t *parent;          /* union-find over members */
    uint32_t *size;            /* members under a root */
    uint32_t *adj_first, *adj; /* undirected neighbour lists, no repeats */
} Work;

static uint32_t find(Work *w, uint32_t a)
{
    while (w->parent[a] != a) {
        w->parent[a] = w->parent[w->parent[a]];
        a = w->parent[a];
    }
    return a;
}

static void unite(Work *w, uint32_t a, uint32_t b)
{
    a = find(w, a);
    b = find(w, b);
    if (a == b) return;
    /* The lower area stays root: deterministic, and numbering needs no
    ** more than a scan. */
    if (b < a) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    w->parent[b] = a;
    w->size[a] += w->size[b];
}

/* Candidate a becomes a member and joins its member neighbours. */
static void make_member(Work *w, uint32_t a)
{
    w->cand[a] = 0;
    w->size[a] = 1; /* a candidate was never joined: still its own root */
    for (uint32_t k = w->adj_first[a]; k < w->adj_first[a + 1]; k++)
        if (!w->cand[w->adj[k]]) unite(w, a, w->adj[k]);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool build_adjacency(Work *w)
{
    NavAreaGraph *ag = w->ag;
    uint32_t n = ag->area_count;
    w->adj_first = nav_calloc((size_t)n + 1, sizeof *w->adj_first);
    w->adj = nav_malloc((size_t)(2 * ag->reach_count + 1) * sizeof *w->adj);
    uint32_t *fill = nav_calloc((size_t)n + 1, sizeof *fill);
    if (!w->adj_first || !w->adj || !fill) {
        nav_free(fill);
        return false;
    }
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        w->adj_first[ag->reaches[i].from + 1]++;
        w->adj_first[ag->reaches[i].to + 1]++;
    }
    for (uint32_t a = 0; a < n; a++) w->adj_first[a + 1] += w->adj_first[a];
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        uint32_t f = ag->reaches[i].from, t = ag->reaches[i].to;
        w->adj[w->adj_first[f] + fill[f]++] = t;
        w->adj[w->adj_first[t] + fill[t]++] = f;
    }
    /* Sort and drop repeats in place (links both ways, several links
    ** between one pair), keeping the lists packed. */
    uint32_t out = 0;
    for (uint32_t a = 0; a < n; a++) {
        uint32_t lo = w->adj_first[a], hi = lo + fill[a];
        qsort(w->adj + lo, hi - lo, sizeof *w->adj, cmp_u32);
        w->adj_first[a] = out;
        for (uint32_t k = lo; k < hi; k++)
            if (k == lo || w->adj[k] != w->adj[k - 1]) w->adj[out++] = w->adj[k];
    }
    w->adj_first[n] = out;
    nav_free(fill);
    return true;
}

/* The clusters (roots) candidate p touches: returns how many, up to 3. */
static int sides(Work *w, uint32_t p, uint32_t *c1, uint32_t *c2)
{
    *c1 = *c2 = UINT32_MAX;
    for (uint32_t k = w->adj_first[p]; k < w->adj_first[p + 1]; k++) {
        uint32_t y = w->adj[k];
        if (w->cand[y]) continue;
        uint32_t r = find(w, y);
        if (r == *c1 || r == *c2) continue;
        if (*c1 == UINT32_MAX) *c1 = r;
        else if (*c2 == UINT32_MAX) *c2 = r;
        else return 3;
    }
    return (*c1 != UINT32_MAX) + (*c2 != UINT32_MAX);
}

static bool share(uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2)
{
    return a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2;
}

/* A strong candidate touching three or more clusters, where a weak portal
** beside it splits two of those: dissolve such weak portals (which merges
** the clusters behind them) while that lowers the count. A cut line along
** a doorway's side then survives. Returns whether any was dissolved. */
static bool dissolve_weak_beside(Work *w, uint32_t a)
{
    bool any = false;
    for (uint32_t k = w->adj_first[a]; k < w->adj_first[a + 1]; k++) {
        uint32_t b = w->adj[k], b1, b2, c1, c2;
        if (w->cand[b] != CAND_WEAK || sides(w, b, &b1, &b2) != 2) continue;
        /* Both of b's clusters beside a? */
        bool s1 = false, s2 = false;
        for (uint32_t j = w->adj_first[a]; j < w->adj_first[a + 1]; j++) {
            uint32_t y = w->adj[j];
            if (w->cand[y]) continue;
            uint32_t r = find(w, y);
            s1 |= r == b1;
            s2 |= r == b2;
        }
        if (!s1 || !s2) continue;
        make_member(w, b);
        any = true;
        if (sides(w, a, &c1, &c2) < 3) break;
    }
    return any;
}

/* A strong candidate touching one cluster while weak candidates beside it
** stand between it and the rest: they become members, so a cut line is not
** lost to the narrow areas along it. Returns whether any did. */
static bool dissolve_weak_around(Work *w, uint32_t a)
{
    bool any = false;
    for (uint32_t k = w->adj_first[a]; k < w->adj_first[a + 1]; k++) {
        uint32_t b = w->adj[k];
        if (w->cand[b] != CAND_WEAK) continue;
        make_member(w, b);
        any = true;
    }
    return any;
}

/* Step 2: until every candidate is a valid portal. Weaker candidates give
** way first: a cut line's area hemmed in by narrow candidates is valid
** once they have become members. */
static void settle(Work *w)
{
    uint32_t n = w->ag->area_count;
    for (;;) {
        bool changed = false;
        for (uint8_t level = CAND_WEAK; level <= CAND_DESIGNER && !changed; level++)
            for (uint32_t a = 0; a < n; a++) {
                uint32_t c1, c2;
                int sc;
                if (w->cand[a] == level && level > CAND_WEAK) {
                    int sc0 = sides(w, a, &c1, &c2);
                    if ((sc0 == 3 && dissolve_weak_beside(w, a)) || (sc0 == 1 && dissolve_weak_around(w, a)))
                        changed = true;
                }
                if (w->cand[a] == level && (sc = sides(w, a, &c1, &c2)) != 2 && sc != 0) {
                    make_member(w, a);
                    changed = true;
                }
            }
        if (changed) continue;
        /* Candidates among candidates only (where cut lines meet, say)
        ** touch no cluster: each joins a cluster all its neighbours share,
        ** which changes no one's sides; only failing that does it become a
        ** cluster of its own. */
        for (uint32_t a = 0; a < n; a++) {
            uint32_t c1, c2;
            if (!w->cand[a] || sides(w, a, &c1, &c2) != 0) continue;
            uint32_t common[2] = { UINT32_MAX, UINT32_MAX };
            bool first = true;
            for (uint32_t k = w->adj_first[a]; k < w->adj_first[a + 1]; k++) {
                uint32_t b = w->adj[k], b1, b2;
                sides(w, b, &b1, &b2);
                if (first) {
                    common[0] = b1;
                    common[1] = b2;
                    first = false;
                } else {
                    if (common[0] != b1 && common[0] != b2) common[0] = UINT32_MAX;
                    if (common[1] != b1 && common[1] != b2) common[1] = UINT32_MAX;
                }
            }
            uint32_t join = common[0] != UINT32_MAX ? common[0] : common[1];
            w->cand[a] = 0;
            w->size[a] = 1;
            if (join != UINT32_MAX) unite(w, a, join);
            changed = true;
        }
        if (changed) continue;
        /* Linked candidates must share a cluster; the weaker (or else the
        ** later) one gives way. */
        for (uint32_t a = 0; a < n && !changed; a++) {
            if (!w->cand[a]) continue;
            uint32_t a1, a2;
            sides(w, a, &a1, &a2);
            for (uint32_t k = w->adj_first[a]; k < w->adj_first[a + 1] && w->cand[a]; k++) {
                uint32_t b = w->adj[k], b1, b2;
                if (b < a || !w->cand[b]) continue;
                sides(w, b, &b1, &b2);
                if (!share(a1, a2, b1, b2)) {
                    make_member(w, w->cand[a] < w->cand[b] ? a : b);
                    changed = true;
                }
            }
        }
        if (!changed) return;
    }
}

typedef struct Merge {
    uint32_t c1, c2;  /* roots, c1 < c2 */
    uint32_t portals; /* dissolvable portals between just these two */
    uint32_t first;   /* lowest such portal area */
    uint32_t size;    /* the merged cluster's areas */
} Merge;

static int cmp_merge_pair(const void *a, const void *b)
{
    const Merge *x = a, *y = b;
    if (x->c1 != y->c1) return x->c1 < y->c1 ? -1 : 1;
    if (x->c2 != y->c2) return x->c2 < y->c2 ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

static int cmp_merge_size(const void *a, const void *b)
{
    const Merge *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

/* Step 3, one round: returns false when no merge fit (or out of memory). */
static bool merge_round(Work *w, Merge *m, uint8_t *touched)
{
    NavAreaGraph *ag = w->ag;
    uint32_t n = ag->area_count, limit = (uint32_t)ag->desc.max_cluster_areas, count = 0;
    for (uint32_t a = 0; a < n; a++) {
        if (!w->cand[a]) continue;
        uint32_t c1, c2;
        sides(w, a, &c1, &c2);
        if (c2 < c1) {
            uint32_t t = c1;
            c1 = c2;
            c2 = t;
        }
        m[count++] = (Merge){ c1, c2, w->designer[a] ? UINT32_MAX : 1, a, 0 };
    }
    qsort(m, count, sizeof *m, cmp_merge_pair);
    /* One entry per pair; a designer portal between them forbids it. */
    uint32_t pairs = 0;
    for (uint32_t i = 0; i < count;) {
        Merge g = m[i];
        uint32_t j = i + 1;
        for (; j < count && m[j].c1 == g.c1 && m[j].c2 == g.c2; j++)
            g.portals = (g.portals == UINT32_MAX || m[j].portals == UINT32_MAX) ? UINT32_MAX : g.portals + 1;
        if (g.portals != UINT32_MAX) {
            g.size = w->size[g.c1] + w->size[g.c2] + g.portals;
            if (g.size <= limit) m[pairs++] = g;
        }
        i = j;
    }
    if (!pairs) return false;
    qsort(m, pairs, sizeof *m, cmp_merge_size);
    /* Merges that share no cluster are independent: do them all at once. */
    memset(touched, 0, n);
    bool any = false;
    for (uint32_t i = 0; i < pairs; i++) {
        if (touched[m[i].c1] || touched[m[i].c2]) continue;
        touched[m[i].c1] = touched[m[i].c2] = 1;
        make_member(w, m[i].first);
        any = true;
    }
    return any;
}

/* Areas whose rectangles neither overlap nor share an edge or corner. */
static bool apart(const NavArea *a, const NavArea *b)
{
    return a->x1 + 1 < b->x0 || b->x1 + 1 < a->x0 || a->y1 + 1 < b->y0 || b->y1 + 1 < a->y0;
}

NavStatus area_build_clusters(NavAreaGraph *ag, NavError *err)
{
    uint32_t n = ag->area_count;
    nav_free(ag->portals);
    nav_free(ag->clusters);
    nav_free(ag->cluster_portals);
    ag->portals = NULL;
    ag->clusters = NULL;
    ag->cluster_portals = NULL;
    ag->portal_count = ag->cluster_count = 0;

    size_t n1 = n ? n : 1;
    Work w = { ag,
               nav_calloc(n1, 1),
               nav_calloc(n1, 1),
               nav_malloc(n1 * sizeof(uint32_t)),
               nav_malloc(n1 * sizeof(uint32_t)),
               NULL,
               NULL };
    Merge *merges = nav_malloc(n1 * sizeof *merges);
    uint32_t *number = nav_malloc(n1 * sizeof *number);
    NavStatus status = NAV_OK;
    if (!w.cand || !w.designer || !w.parent || !w.size || !merges || !number || !build_adjacency(&w)) {
        status = nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL,
                               "out of memory for clusters (class %s)", ag->cls.name);
        goto done;
    }

    /* 1. candidates */
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = &ag->areas[a];
        uint32_t degree = w.adj_first[a + 1] - w.adj_first[a];
        bool narrow = NAV_MIN(ar->x1 - ar->x0, ar->y1 - ar->y0) + 1 <= 2;
        w.designer[a] = (ar->flags & NAV_AREA_DESIGNER_PORTAL) != 0;
        if (w.designer[a]) w.cand[a] = CAND_DESIGNER;
        else if (ar->flags & NAV_AREA_CUT) w.cand[a] = CAND_CUT;
        else if (narrow && degree >= 2) w.cand[a] = CAND_WEAK;
    }
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        const NavReach *r = &ag->reaches[i];
        if (!w.cand[r->to] && (r->entity >= 0 || apart(&ag->areas[r->from], &ag->areas[r->to])))
            w.cand[r->to] = CAND_WEAK;
    }
    /* 2. members and their clusters */
    for (uint32_t a = 0; a < n; a++) {
        w.parent[a] = a;
        w.size[a] = w.cand[a] ? 0 : 1;
    }
    for (uint32_t a = 0; a < n; a++)
        if (!w.cand[a])
            for (uint32_t k = w.adj_first[a]; k < w.adj_first[a + 1]; k++)
                if (!w.cand[w.adj[k]]) unite(&w, a, w.adj[k]);
    settle(&w);
    /* 3. merges; `number` doubles as the scratch flags */
    while (merge_round(&w, merges, (uint8_t *)number)) settle(&w);

    /* Number clusters by lowest area and write them out. */
    uint32_t count = 0, portals = 0;
    for (uint32_t a = 0; a < n; a++) number[a] = 0;
    for (uint32_t a = 0; a < n; a++) {
        if (w.cand[a]) {
            portals++;
            continue;
        }
        uint32_t r = find(&w, a);
        if (!number[r]) number[r] = ++count;
    }
    ag->cluster_count = count;
    ag->clusters = nav_calloc((size_t)count + 1, sizeof *ag->clusters);
    ag->portals = nav_malloc((portals ? portals : 1) * sizeof *ag->portals);
    ag->cluster_portals = nav_malloc((2 * (size_t)portals + 1) * sizeof *ag->cluster_portals);
    if (!ag->clusters || !ag->portals || !ag->cluster_portals) {
        status = nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL,
                               "out of memory for clusters (class %s)", ag->cls.name);
        goto done;
    }
    for (uint32_t a = 0; a < n; a++) {
        NavArea *ar = &ag->areas[a];
        ar->flags &= ~NAV_AREA_PORTAL;
        ar->portal = -1;
        if (w.cand[a]) {
            uint32_t c1, c2;
            sides(&w, a, &c1, &c2);
            uint32_t f = NAV_MIN(number[c1], number[c2]), b = NAV_MAX(number[c1], number[c2]);
            ar->flags |= NAV_AREA_PORTAL;
            ar->portal = (int32_t)ag->portal_count;
            ar->cluster = 0;
            ag->portals[ag->portal_count++] = (NavPortal){ a, f, b };
            ag->clusters[f].portal_count++;
            ag->clusters[b].portal_count++;
        } else {
            ar->cluster = number[find(&w, a)];
            ag->clusters[ar->cluster].area_count++;
        }
    }
    uint32_t at = 0;
    for (uint32_t c = 1; c <= count; c++) {
        ag->clusters[c].first_portal = at;
        at += ag->clusters[c].portal_count;
        ag->clusters[c].portal_count = 0;
    }
    for (uint32_t p = 0; p < ag->portal_count; p++) {
        NavCluster *f = &ag->clusters[ag->portals[p].front], *b = &ag->clusters[ag->portals[p].back];
        ag->cluster_portals[f->first_portal + f->portal_count++] = p;
        ag->cluster_portals[b->first_portal + b->portal_count++] = p;
    }
done:
    nav_free(w.cand);
    nav_free(w.designer);
    nav_free(w.parent);
    nav_free(w.size);
    nav_free(w.adj_first);
    nav_free(w.adj);
    nav_free(merges);
    nav_free(number);
    return status;
}

/*
** area_cluster.c — clusters and portals.
**
** Routing caches are built per cluster, so clusters must stay small and
** every path between two clusters must pass a portal area that belongs to
** neither and separates exactly two of them.
**
** The algorithm:
**   1. Candidates: the areas the map marks as portals, and every narrow
**      area (one or two cells across) with links to at least two other
**      areas: doorways, corridor necks, stair landings.
**   2. Clusters are the connected groups of non-portal areas, linked by
**      reachabilities in either direction (so a one-way link never joins
**      two clusters without a portal between).
**   3. A candidate whose neighbours lie in fewer or more than two clusters
**      is not a portal (it separates nothing, or three ways); it goes back
**      to being an ordinary area and step 2 runs again, until nothing
**      changes.
**   4. A cluster larger than the limit gets one more candidate: the
**      narrowest area near the middle of a breadth-first walk through it
**      that has not been tried; then step 2 again. Areas tried and
**      rejected are not tried twice, so this ends.
** Clusters are numbered from 1 in the order of their lowest area.
*/
#include "area/area_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct Work {
    NavAreaGraph *ag;
    uint8_t *cand;      /* 1 = portal candidate, 2 = tried and rejected */
    uint32_t *cluster;  /* per area */
    uint32_t *queue;
    uint32_t *adj_first, *adj;  /* undirected neighbour lists */
} Work;

static bool build_adjacency(Work *w)
{
    NavAreaGraph *ag = w->ag;
    uint32_t n = ag->area_count;
    w->adj_first = calloc((size_t)n + 1, sizeof *w->adj_first);
    w->adj = malloc((size_t)(2 * ag->reach_count + 1) * sizeof *w->adj);
    if (!w->adj_first || !w->adj) return false;
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        w->adj_first[ag->reaches[i].from + 1]++;
        w->adj_first[ag->reaches[i].to + 1]++;
    }
    for (uint32_t a = 0; a < n; a++) w->adj_first[a + 1] += w->adj_first[a];
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!fill) return false;
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        uint32_t f = ag->reaches[i].from, t = ag->reaches[i].to;
        w->adj[w->adj_first[f] + fill[f]++] = t;
        w->adj[w->adj_first[t] + fill[t]++] = f;
    }
    free(fill);
    return true;
}

/* Flood the non-portal areas into clusters; returns the cluster count. */
static uint32_t flood(Work *w)
{
    NavAreaGraph *ag = w->ag;
    uint32_t n = ag->area_count, count = 0;
    for (uint32_t a = 0; a < n; a++) w->cluster[a] = 0;
    for (uint32_t a = 0; a < n; a++) {
        if (w->cluster[a] || w->cand[a] == 1) continue;
        uint32_t id = ++count, head = 0, tail = 0;
        w->cluster[a] = id;
        w->queue[tail++] = a;
        while (head < tail) {
            uint32_t x = w->queue[head++];
            for (uint32_t k = w->adj_first[x]; k < w->adj_first[x + 1]; k++) {
                uint32_t y = w->adj[k];
                if (w->cluster[y] || w->cand[y] == 1) continue;
                w->cluster[y] = id;
                w->queue[tail++] = y;
            }
        }
    }
    return count;
}

/* The clusters around candidate p: 0, 1 or 2 distinct, 3 meaning more. */
static int portal_sides(const Work *w, uint32_t p, uint32_t *front, uint32_t *back)
{
    uint32_t c1 = 0, c2 = 0;
    for (uint32_t k = w->adj_first[p]; k < w->adj_first[p + 1]; k++) {
        uint32_t c = w->cluster[w->adj[k]];
        if (!c || c == c1 || c == c2) continue;
        if (!c1) c1 = c;
        else if (!c2) c2 = c;
        else return 3;
    }
    *front = c1 < c2 || !c2 ? c1 : c2;
    *back = c1 < c2 || !c2 ? c2 : c1;
    return (c1 ? 1 : 0) + (c2 ? 1 : 0);
}

static bool settle(Work *w)
{
    NavAreaGraph *ag = w->ag;
    for (;;) {
        flood(w);
        bool changed = false;
        for (uint32_t a = 0; a < ag->area_count; a++) {
            if (w->cand[a] != 1) continue;
            uint32_t f, b;
            if (portal_sides(w, a, &f, &b) != 2) {
                w->cand[a] = 2;
                changed = true;
                break; /* one at a time: a rejection can make a neighbour valid */
            }
        }
        if (!changed) return true;
    }
}

/* One more candidate inside an oversized cluster, or false if none is
** left to try. */
static bool split_cluster(Work *w, uint32_t id)
{
    NavAreaGraph *ag = w->ag;
    uint32_t start = UINT32_MAX;
    for (uint32_t a = 0; a < ag->area_count && start == UINT32_MAX; a++)
        if (w->cluster[a] == id) start = a;
    if (start == UINT32_MAX) return false;
    /* Breadth-first order through the cluster; the middle of that order is
    ** roughly the middle of the cluster. */
    uint32_t head = 0, tail = 0;
    uint8_t *seen = calloc(ag->area_count, 1);
    if (!seen) return false;
    w->queue[tail++] = start;
    seen[start] = 1;
    while (head < tail) {
        uint32_t x = w->queue[head++];
        for (uint32_t k = w->adj_first[x]; k < w->adj_first[x + 1]; k++) {
            uint32_t y = w->adj[k];
            if (seen[y] || w->cluster[y] != id) continue;
            seen[y] = 1;
            w->queue[tail++] = y;
        }
    }
    free(seen);
    uint32_t best = UINT32_MAX;
    long best_score = 0;
    for (uint32_t i = 0; i < tail; i++) {
        uint32_t a = w->queue[i];
        if (w->cand[a]) continue;
        const NavArea *ar = &ag->areas[a];
        long narrow = NAV_MIN(ar->x1 - ar->x0, ar->y1 - ar->y0) + 1;
        long off_middle = labs((long)i - (long)tail / 2);
        long score = narrow * 4 * (long)tail + off_middle;
        if (best == UINT32_MAX || score < best_score) {
            best = a;
            best_score = score;
        }
    }
    if (best == UINT32_MAX) return false;
    w->cand[best] = 1;
    return true;
}

NavStatus area_build_clusters(NavAreaGraph *ag, NavError *err)
{
    uint32_t n = ag->area_count;
    free(ag->portals);
    free(ag->clusters);
    free(ag->cluster_portals);
    ag->portals = NULL;
    ag->clusters = NULL;
    ag->cluster_portals = NULL;
    ag->portal_count = ag->cluster_count = 0;

    Work w = { ag, calloc(n ? n : 1, 1), calloc(n ? n : 1, sizeof(uint32_t)), malloc((n ? n : 1) * sizeof(uint32_t)),
               NULL, NULL };
    NavStatus status = NAV_OK;
    if (!w.cand || !w.cluster || !w.queue || !build_adjacency(&w)) {
        status = nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for clusters");
        goto done;
    }
    for (uint32_t a = 0; a < n; a++) {
        const NavArea *ar = &ag->areas[a];
        uint32_t degree = w.adj_first[a + 1] - w.adj_first[a];
        bool narrow = NAV_MIN(ar->x1 - ar->x0, ar->y1 - ar->y0) + 1 <= 2;
        if ((ar->flags & NAV_AREA_DESIGNER_PORTAL) || (narrow && degree >= 2)) w.cand[a] = 1;
    }
    settle(&w);
    int max = ag->desc.max_cluster_areas;
    for (;;) {
        uint32_t count = flood(&w);
        uint32_t *size = calloc((size_t)count + 1, sizeof *size);
        if (!size) {
            status = nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for clusters");
            goto done;
        }
        for (uint32_t a = 0; a < n; a++) size[w.cluster[a]]++;
        uint32_t big = 0;
        for (uint32_t c = 1; c <= count && !big; c++)
            if (size[c] > (uint32_t)max) big = c;
        free(size);
        if (!big || !split_cluster(&w, big)) break;
        settle(&w);
    }

    /* Write clusters and portals. */
    uint32_t count = flood(&w);
    ag->cluster_count = count;
    ag->clusters = calloc((size_t)count + 1, sizeof *ag->clusters);
    uint32_t portals = 0;
    for (uint32_t a = 0; a < n; a++) portals += w.cand[a] == 1;
    ag->portals = malloc((portals ? portals : 1) * sizeof *ag->portals);
    ag->cluster_portals = malloc((2 * portals + 1) * sizeof *ag->cluster_portals);
    if (!ag->clusters || !ag->portals || !ag->cluster_portals) {
        status = nav_error_set(err, NAV_E_NOMEM, world_source(ag->world), 0, 0, NULL, "out of memory for clusters");
        goto done;
    }
    for (uint32_t a = 0; a < n; a++) {
        NavArea *ar = &ag->areas[a];
        ar->flags &= ~NAV_AREA_PORTAL;
        ar->portal = -1;
        ar->cluster = w.cluster[a];
        if (w.cand[a] == 1) {
            uint32_t f, b;
            portal_sides(&w, a, &f, &b);
            ar->flags |= NAV_AREA_PORTAL;
            ar->portal = (int32_t)ag->portal_count;
            ar->cluster = 0;
            ag->portals[ag->portal_count++] = (NavPortal){ a, f, b };
            ag->clusters[f].portal_count++;
            ag->clusters[b].portal_count++;
        } else if (ar->cluster) {
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
    free(w.cand);
    free(w.cluster);
    free(w.queue);
    free(w.adj_first);
    free(w.adj);
    return status;
}

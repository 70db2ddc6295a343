/*
** grid_spread.c — bodies spread over the grid's floor (grid.h,
** grid_spread_bodies): crowds for benchmarks and tests.
*/
#include "grid/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/random.h"
#include "world/trace.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t grid_spread_bodies(const NavGrid *g, const NavWorld *w, int cls, uint32_t n, uint64_t seed, float *out)
{
    const NavClass *c = world_class(w, cls);
    float cs = grid_cell_size(g);
    float spacing = 2.0f * c->radius + 0.25f; /* bodies apart by a quarter metre at least */
    int nx = (int)((float)grid_width(g) * cs / spacing), ny = (int)((float)grid_height(g) * cs / spacing);
    size_t cap = (size_t)nx * (size_t)ny;
    float *cand = nav_malloc(cap * 3 * sizeof *cand);
    uint32_t *comp = nav_malloc(cap * sizeof *comp);
    uint32_t *sorted = nav_malloc(cap * sizeof *sorted);
    uint32_t got = 0;
    if (!cand || !comp || !sorted) goto done;
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    size_t k = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float x = ((float)i + 0.5f) * spacing, y = ((float)j + 0.5f) * spacing;
            int gx, gy;
            if (!grid_cell_of(g, x, y, &gx, &gy) || !grid_passable(g, cls, gx, gy)) continue;
            /* The grid's floor is the column's lowest; dry land only. */
            int fc = 0;
            const NavFloor *f = world_column(w, gx, gy, &fc);
            if (!fc || !isfinite(f->z) || f->contents != NAV_CONTENTS_FLOOR) continue;
            float at[3] = { x, y, f->z };
            if (!world_box_fits(w, mins, maxs, at)) continue;
            memcpy(&cand[3 * k], at, sizeof at);
            comp[k] = grid_component(g, cls, gx, gy);
            k++;
        }
    if (!k) goto done;
    /* The largest component: bots elsewhere (a plateau) could go nowhere. */
    memcpy(sorted, comp, k * sizeof *sorted);
    qsort(sorted, k, sizeof *sorted, cmp_u32);
    uint32_t best = sorted[0];
    size_t best_run = 0;
    for (size_t s = 0; s < k;) {
        size_t e = s;
        while (e < k && sorted[e] == sorted[s]) e++;
        if (e - s > best_run) best_run = e - s, best = sorted[s];
        s = e;
    }
    /* Fisher-Yates with a fixed seed, then the first n of the component. */
    for (size_t s = k - 1; s > 0; s--) {
        size_t r = (size_t)(nav_rand_next(&seed) % (s + 1));
        float t[3];
        memcpy(t, &cand[3 * s], sizeof t);
        memcpy(&cand[3 * s], &cand[3 * r], sizeof t);
        memcpy(&cand[3 * r], t, sizeof t);
        uint32_t u = comp[s];
        comp[s] = comp[r];
        comp[r] = u;
    }
    for (size_t s = 0; s < k && got < n; s++)
        if (comp[s] == best) memcpy(&out[3 * got++], &cand[3 * s], 3 * sizeof *out);
done:
    nav_free(cand);
    nav_free(comp);
    nav_free(sorted);
    return got;
}

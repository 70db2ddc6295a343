/*
** trace_support.h — hand-built worlds and hull traces shared by test_trace.c
** and test_trace_oracle.c.
*/
#ifndef NAV_TRACE_SUPPORT_H
#define NAV_TRACE_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "core/random.h"
#include "test_support.h"
#include "world/trace.h"
#include "world/world.h"

/* {======= hand-built worlds ======= */

static inline NavFloorAt span_at(const NavWorld *w, int cx, int cy, float z, float ceiling, NavContents c)
{
    NavFloorAt it = { .cell = (uint32_t)(cy * world_width(w) + cx) };
    it.floor.z = c == NAV_CONTENTS_VOID ? -INFINITY : z;
    it.floor.ceiling = ceiling;
    it.floor.top = it.floor.z;
    it.floor.contents = (uint8_t)c;
    return it;
}

/* A builder: every column starts as a plain floor at z 0 under open sky;
** columns are then replaced by set_column. */
typedef struct Builder {
    NavWorld *w;
    NavFloorAt items[4096];
    int n[1024];                  /* spans of each column */
    NavFloorAt spans[1024][4];
} Builder;

static inline void builder_init(Builder *b, int width, int height, float cell)
{
    NavError err;
    b->w = world_create(&(NavWorldDesc){ .width = width, .height = height, .cell_size = cell }, &err);
    cr_assert_not_null(b->w, "%s", err.message);
    cr_assert(width * height <= 1024);
    for (int cy = 0; cy < height; cy++)
        for (int cx = 0; cx < width; cx++) {
            int c = cy * width + cx;
            b->n[c] = 1;
            b->spans[c][0] = span_at(b->w, cx, cy, 0.0f, INFINITY, NAV_CONTENTS_FLOOR);
        }
}

/* Column (cx, cy) gets `count` spans given as z, ceiling pairs (count 0: a wall). */
static inline void set_column(Builder *b, int cx, int cy, NavContents c, int count, const float *zc)
{
    int col = cy * world_width(b->w) + cx;
    b->n[col] = count;
    for (int i = 0; i < count; i++) b->spans[col][i] = span_at(b->w, cx, cy, zc[2 * i], zc[2 * i + 1], c);
}

static inline void set_rect(Builder *b, int x0, int y0, int x1, int y1, NavContents c, int count, const float *zc)
{
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++) set_column(b, cx, cy, c, count, zc);
}

static inline NavWorld *builder_done(Builder *b)
{
    size_t n = 0;
    int cells = world_width(b->w) * world_height(b->w);
    for (int c = 0; c < cells; c++)
        for (int i = 0; i < b->n[c]; i++) b->items[n++] = b->spans[c][i];
    NavError err;
    cr_assert(NAV_SUCCEEDED(world_set_floors(b->w, b->items, n, &err)), "%s", err.message);
    return b->w;
}

/* A 0.5 x 0.5 x 1.75 hull, feet at the origin: every sum below is exact. */
__attribute__((unused)) static const float HULL_MINS[3] = { -0.25f, -0.25f, 0.0f };

__attribute__((unused)) static const float HULL_MAXS[3] = { 0.25f, 0.25f, 1.75f };

static inline NavTrace trace(const NavWorld *w, float x, float y, float z, float dx, float dy, float dz)
{
    NavTrace tr;
    const float start[3] = { x, y, z }, delta[3] = { dx, dy, dz };
    world_trace_box(w, HULL_MINS, HULL_MAXS, start, delta, NULL, 0, -1, &tr);
    return tr;
}

static inline bool fits(const NavWorld *w, float x, float y, float z)
{
    return world_box_fits(w, HULL_MINS, HULL_MAXS, (const float[3]){ x, y, z });
}

#define assert_normal(tr, nx, ny, nz)                                                                     \
    cr_assert((tr).normal[0] == (nx) && (tr).normal[1] == (ny) && (tr).normal[2] == (nz),                  \
              "normal (%g, %g, %g), expected (%g, %g, %g)", (double)(tr).normal[0], (double)(tr).normal[1], \
              (double)(tr).normal[2], (double)(nx), (double)(ny), (double)(nz))

static inline void assert_no_hit(const NavTrace *tr, const char *what)
{
    cr_assert(!tr->hit && !tr->start_solid, "%s: hit at %g", what, (double)tr->touch);
    cr_assert_eq(tr->fraction, 1.0f, "%s", what);
    cr_assert_eq(tr->touch, 1.0f, "%s", what);
    cr_assert_eq(tr->box, -1, "%s", what);
    cr_assert_eq(tr->cell[0], -1, "%s", what);
    cr_assert(tr->normal[0] == 0.0f && tr->normal[1] == 0.0f && tr->normal[2] == 0.0f, "%s", what);
}

/* A hit at touch `t` on a move of length along the normal `dn`: fraction
** is t pulled back by NAV_TRACE_EPSILON / dn. */
static inline void assert_hit_at(const NavTrace *tr, double t, double dn, const char *what)
{
    cr_assert(tr->hit && !tr->start_solid, "%s: no hit", what);
    cr_assert_float_eq(tr->touch, t, 1e-6, "%s: touch %.9g, expected %.9g", what, (double)tr->touch, t);
    double f = fmax(0.0, t - NAV_TRACE_EPSILON / dn);
    cr_assert_float_eq(tr->fraction, f, 1e-6, "%s: fraction %.9g, expected %.9g", what, (double)tr->fraction, f);
}

/* 20 x 20 cells of 0.5 m, floor at 0, open sky; a wall (no span) across
** column cx = 12 (x 6 .. 6.5) for every row. */
static inline NavWorld *walled(Builder *b)
{
    builder_init(b, 20, 20, 0.5f);
    set_rect(b, 12, 0, 12, 19, NAV_CONTENTS_FLOOR, 0, NULL);
    return builder_done(b);
}

/* }======= */

#endif

/*
** render_labels.c — labels placed so that none covers another
** (render_legend.h): by kind, each at the first of a few places round
** what it names, shortened or dropped when none is free.
*/
#include "render/render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void labels_clear(LabelSet *s)
{
    s->count = 0;
    s->blocked_count = 0;
    s->nomem = false;
}

void labels_free(LabelSet *s)
{
    nav_free(s->items);
    nav_free(s->blocked);
    memset(s, 0, sizeof *s);
}

void labels_block(LabelSet *s, int x, int y, int w, int h)
{
    if (w <= 0 || h <= 0) return;
    if (s->blocked_count == s->blocked_cap) {
        int cap = s->blocked_cap ? 2 * s->blocked_cap : 8;
        int(*n)[4] = nav_realloc(s->blocked, (size_t)cap * sizeof *n);
        if (!n) {
            s->nomem = true;
            return;
        }
        s->blocked = n;
        s->blocked_cap = cap;
    }
    int *b = s->blocked[s->blocked_count++];
    b[0] = x, b[1] = y, b[2] = x + w, b[3] = y + h;
}

RenderLabel *labels_add(LabelSet *s, RenderLabelKind kind, float ax, float ay, float gap, int dx, int dy,
                        const char *text, const char *brief, NavColor c)
{
    if (!text || !*text) return NULL;
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        RenderLabel *n = nav_realloc(s->items, (size_t)cap * sizeof *n);
        if (!n) {
            s->nomem = true;
            return NULL;
        }
        s->items = n;
        s->cap = cap;
    }
    RenderLabel *l = &s->items[s->count];
    memset(l, 0, sizeof *l);
    l->kind = (uint8_t)kind;
    l->seq = s->count++;
    l->ax = ax, l->ay = ay, l->gap = gap;
    l->pref_dx = dx, l->pref_dy = dy;
    l->color = c;
    snprintf(l->text, sizeof l->text, "%s", text);
    if (brief && strcmp(brief, text) != 0) snprintf(l->brief, sizeof l->brief, "%s", brief);
    return l;
}

/* {======= placing ======= */

static bool overlaps(int ax0, int ay0, int ax1, int ay1, const int b[4])
{
    return ax0 < b[2] && ax1 > b[0] && ay0 < b[3] && ay1 > b[1];
}

/* Is a w x h rectangle at (x, y) free: whole in the picture, over no
** blocked rectangle nor placed label, and (strict) over no anchor of
** another label? */
static bool free_at(const LabelSet *s, const RenderLabel *me, int x, int y, int w, int h, int width, int height,
                    bool strict)
{
    if (x < 0 || y < 0 || x + w > width || y + h > height) return false;
    for (int i = 0; i < s->blocked_count; i++)
        if (overlaps(x, y, x + w, y + h, s->blocked[i])) return false;
    for (int i = 0; i < s->count; i++) {
        const RenderLabel *o = &s->items[i];
        if (o == me) continue;
        if (o->shown) {
            int b[4] = { o->x, o->y, o->x + o->w, o->y + o->h };
            if (overlaps(x, y, x + w, y + h, b)) return false;
        }
        if (strict && o->gap > 0.0f) {
            int g = (int)o->gap;
            int b[4] = { (int)o->ax - g, (int)o->ay - g, (int)o->ax + g + 1, (int)o->ay + g + 1 };
            if (overlaps(x, y, x + w, y + h, b)) return false;
        }
    }
    return true;
}

/* The places tried, in order: the label's own first, then beside what it
** names right and left (middle, up, down), above and below it, then its
** own moved down and up a row at a time. */
static int candidates(const RenderLabel *l, int w, int h, int out[][2])
{
    int ax = (int)l->ax, ay = (int)l->ay, g = (int)l->gap + 3, n = 0;
    int px = ax + l->pref_dx, py = ay + l->pref_dy;
    int at[][2] = {
        { px, py },
        { ax + g, ay - h / 2 },
        { ax + g, ay - g - h + 2 },
        { ax + g, ay + g - 2 },
        { ax - g - w, ay - h / 2 },
        { ax - g - w, ay - g - h + 2 },
        { ax - g - w, ay + g - 2 },
        { ax - w / 2, ay - g - h },
        { ax - w / 2, ay + g },
        { px, py + h },
        { px, py - h },
        { px, py + 2 * h },
        { px, py - 2 * h },
        { ax - g - w, ay + g - 2 + h },
        { ax - g - w, ay - g - 2 * h + 2 },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(at); k++) out[n][0] = at[k][0], out[n++][1] = at[k][1];
    return n;
}

static void size_of(const RenderLabel *l, const NavFont *font, const char *text, int *w, int *h)
{
    int tw = font_text_width(font, text, 1), lh = font_line_height(font, 1);
    if (l->boxed) *w = tw + 8, *h = lh + 6;
    else *w = tw + 2, *h = lh + 2; /* the outline round the ink */
}

static bool place_one(LabelSet *s, RenderLabel *l, const NavFont *font, int width, int height)
{
    for (int pass = 0; pass < 4; pass++) {
        bool brief = pass >= 2, strict = (pass & 1) == 0;
        if (brief && !l->brief[0]) break;
        int w, h, at[16][2];
        size_of(l, font, brief ? l->brief : l->text, &w, &h);
        int n = candidates(l, w, h, at);
        for (int k = 0; k < n; k++)
            if (free_at(s, l, at[k][0], at[k][1], w, h, width, height, strict)) {
                l->x = at[k][0], l->y = at[k][1], l->w = w, l->h = h;
                l->shown = true;
                l->shortened = brief;
                return true;
            }
    }
    return false;
}

static int by_kind(const void *pa, const void *pb)
{
    const RenderLabel *a = *(const RenderLabel *const *)pa, *b = *(const RenderLabel *const *)pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

void labels_place(LabelSet *s, const NavFont *font, int width, int height)
{
    if (s->count == 0) return;
    for (int i = 0; i < s->count; i++) s->items[i].shown = false;
    RenderLabel **order = nav_malloc((size_t)s->count * sizeof *order);
    if (!order) {
        s->nomem = true;
        return; /* none shown: better none than some over each other */
    }
    for (int i = 0; i < s->count; i++) order[i] = &s->items[i];
    qsort(order, (size_t)s->count, sizeof *order, by_kind);
    for (int i = 0; i < s->count; i++) place_one(s, order[i], font, width, height);
    nav_free(order);
}

void labels_draw(const LabelSet *s, NavImage *img, const NavFont *font)
{
    for (int i = 0; i < s->count; i++) {
        const RenderLabel *l = &s->items[i];
        if (!l->shown) continue;
        const char *text = l->shortened ? l->brief : l->text;
        if (l->boxed) {
            image_fill_rect(img, l->x, l->y, l->w, l->h, nav_rgba(12, 14, 20, 200));
            font_draw(img, font, l->x + 4, l->y + 3, text, l->color, 1);
        } else {
            font_draw_outlined(img, font, l->x + 1, l->y + 1, text, l->color, nav_rgba(0, 0, 0, 220), 1);
        }
    }
}

/* }======= */

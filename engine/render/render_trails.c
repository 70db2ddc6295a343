/*
** render_trails.c — the trails overlay: where each bot went in the last
** seconds (render_history.h), a line per sample coloured by the travel
** type the body moved by (the links' colours, so the legend names both),
** on a dark edge that keeps it readable on any floor, thinner and more
** transparent the older it is. A teleport leaves no line across the map,
** a dot at each end instead. Only the storey shown has its trails drawn,
** as only its bots are.
*/
#include "render/render_internal.h"

#include <math.h>

#include "render/render_history.h"

/* The newest part of a trail and the oldest, 0 .. 255. */
#define ALPHA_NEW 235.0f
#define ALPHA_OLD 25.0f
/* Farther than this from the newest sample the body was put elsewhere. */
#define NEAR_BODY 3.0f

/* A trail point on the storey shown (every point when all are). */
static bool shown(const Frame *f, const float p[3])
{
    int n = render_level_count(f->r, f->w);
    if (f->v->level < 0 || f->v->level >= n) return p[2] <= f->cut;
    return render_level_at(f->r, f->w, p[2]) == f->v->level;
}

/* A segment without its round ends: the next one starts where this one
** stops, and translucent ends laid over each other would bead the line. */
static void segment(NavImage *img, float x0, float y0, float x1, float y1, float thick, NavColor c)
{
    float r = 0.5f * thick, dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
    if (len2 < 1e-6f) return;
    int ix0 = (int)floorf(fminf(x0, x1) - r), ix1 = (int)ceilf(fmaxf(x0, x1) + r);
    int iy0 = (int)floorf(fminf(y0, y1) - r), iy1 = (int)ceilf(fmaxf(y0, y1) + r);
    ix0 = NAV_MAX(ix0, 0), iy0 = NAV_MAX(iy0, 0);
    ix1 = NAV_MIN(ix1, img->width - 1), iy1 = NAV_MIN(iy1, img->height - 1);
    for (int j = iy0; j <= iy1; j++)
        for (int i = ix0; i <= ix1; i++) {
            float px = (float)i + 0.5f, py = (float)j + 0.5f;
            float t = ((px - x0) * dx + (py - y0) * dy) / len2;
            if (t < 0.0f || t >= 1.0f) continue;
            float ex = x0 + t * dx - px, ey = y0 + t * dy - py;
            if (ex * ex + ey * ey <= r * r) image_set_pixel(img, i, j, c);
        }
}

/* How old the sample is, 0 (now) to 1 (as old as the history keeps). */
static float age(const Frame *f, double dt, const HistorySample *s)
{
    uint64_t now = sim_tick(f->sim);
    double a = now > s->tick ? (double)(now - s->tick) * dt / RENDER_HISTORY_SECONDS : 0.0;
    return (float)fmin(fmax(a, 0.0), 1.0);
}

static void bot_trail(Frame *f, const RenderHistory *h, uint32_t id, double dt, float thick, bool edge)
{
    int n = render_history_count(h, id);
    for (int k = 1; k < n; k++) {
        const HistorySample *a = render_history_sample(h, id, k - 1), *b = render_history_sample(h, id, k);
        if (!shown(f, a->pos) || !shown(f, b->pos)) continue;
        float x0, y0, x1, y1;
        frame_to_px(f, a->pos[0], a->pos[1], &x0, &y0);
        frame_to_px(f, b->pos[0], b->pos[1], &x1, &y1);
        float fresh = 1.0f - age(f, dt, b);
        float alpha = ALPHA_OLD + (ALPHA_NEW - ALPHA_OLD) * fresh, w = thick * (0.55f + 0.45f * fresh);
        if (b->flags & HISTORY_TELEPORTED) {
            if (edge) continue;
            NavColor c = render_travel_color(NAV_TRAVEL_TELEPORT);
            c.a = (uint8_t)alpha;
            image_fill_circle(f->img, x0, y0, w, c);
            image_fill_circle(f->img, x1, y1, w, c);
            frame_drew_trail(f, NAV_TRAVEL_TELEPORT, x0, y0, x1, y1);
            continue;
        }
        if (edge) {
            segment(f->img, x0, y0, x1, y1, w + 2.0f, nav_rgba(8, 10, 14, (uint8_t)(0.6f * alpha)));
            continue;
        }
        NavColor c = render_travel_color((NavTravelType)b->travel);
        c.a = (uint8_t)alpha;
        segment(f->img, x0, y0, x1, y1, w, c);
        if (fabsf(x1 - x0) + fabsf(y1 - y0) >= 0.5f) frame_drew_trail(f, b->travel, x0, y0, x1, y1);
    }
    /* On to the body, which has moved since the newest sample (unless it
    ** was put elsewhere meanwhile). */
    const HistorySample *last = n ? render_history_sample(h, id, n - 1) : NULL;
    const NavBot *body = sim_bot(f->sim, id);
    if (!last || !shown(f, last->pos) || !shown(f, body->pos) ||
        hypotf(body->pos[0] - last->pos[0], body->pos[1] - last->pos[1]) > NEAR_BODY)
        return;
    float x0, y0, x1, y1;
    frame_to_px(f, last->pos[0], last->pos[1], &x0, &y0);
    frame_to_px(f, body->pos[0], body->pos[1], &x1, &y1);
    NavColor c =
        edge ? nav_rgba(8, 10, 14, (uint8_t)(0.6f * ALPHA_NEW)) : render_travel_color((NavTravelType)last->travel);
    if (!edge) c.a = (uint8_t)ALPHA_NEW;
    segment(f->img, x0, y0, x1, y1, edge ? thick + 2.0f : thick, c);
}

void render_trails(Frame *f)
{
    const RenderHistory *h = f->info->history;
    if (!(f->v->overlays & RENDER_BIT(RENDER_TRAILS)) || !h) return;
    double dt = render_history_dt(h);
    float thick = fminf(fmaxf(frame_px(f, 0.2f), 3.0f), 6.0f);
    uint32_t n = sim_bot_count(f->sim);
    /* Every edge under every colour, so one trail crossing another is
    ** not cut by its edge. */
    for (uint32_t i = 0; i < n; i++) bot_trail(f, h, i, dt, thick, true);
    for (uint32_t i = 0; i < n; i++) bot_trail(f, h, i, dt, thick, false);
}

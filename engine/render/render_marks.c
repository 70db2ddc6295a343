/*
** render_marks.c — what brains draw for debugging (sim_mark_*: lines,
** circles, text) and where bots that look at something face, over the
** bots. Marks on floors the view cuts away are left out like the bots.
*/
#include "render/render_internal.h"
#include "sim/sim_debug.h"

#include <math.h>

static bool shown(const Frame *f, const float p[3]) { return !(p[2] > f->cut || p[2] < f->base); }

void render_marks(Frame *f)
{
    NavSim *sim = f->sim;
    /* Facing, for bots that look somewhere else than they go: a cyan tick
    ** beside the white one render_bots draws along the way they move. */
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (!b->control.look || !shown(f, b->pos)) continue;
        float px, py;
        frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
        float r = fmaxf(frame_px(f, world_class(f->w, b->cls)->radius), 3.0f);
        float a = b->facing * (float)NAV_PI / 180.0f;
        image_draw_line(f->img, px, py, px + cosf(a) * (r + 8.0f), py - sinf(a) * (r + 8.0f), 2.0f,
                        nav_rgba(60, 220, 230, 255));
    }
    double now = sim_time(sim);
    uint32_t n = sim_mark_count(sim);
    for (uint32_t i = 0; i < n; i++) {
        const SimMark *m = sim_mark_at(sim, i);
        if (m->until + 1e-9 < now || !shown(f, m->a)) continue;
        NavColor c = nav_rgba(m->rgba[0], m->rgba[1], m->rgba[2], m->rgba[3]);
        float ax, ay;
        frame_to_px(f, m->a[0], m->a[1], &ax, &ay);
        if (m->kind == SIM_MARK_LINE) {
            float bx, by;
            frame_to_px(f, m->b[0], m->b[1], &bx, &by);
            image_draw_line(f->img, ax, ay, bx, by, 2.0f, c);
        } else if (m->kind == SIM_MARK_CIRCLE) {
            /* An outline of short chords, finer for bigger circles. */
            float r = frame_px(f, m->radius);
            int steps = r < 8.0f ? 12 : r < 40.0f ? 24 : 48;
            for (int k = 0; k < steps; k++) {
                float t0 = 2.0f * (float)NAV_PI * k / steps, t1 = 2.0f * (float)NAV_PI * (k + 1) / steps;
                image_draw_line(f->img, ax + r * cosf(t0), ay - r * sinf(t0), ax + r * cosf(t1), ay - r * sinf(t1),
                                1.5f, c);
            }
        } else {
            frame_text(f, (int)ax, (int)ay, m->text, c);
        }
    }
}

/*
** render_memory.c — the selected bot's navigation memory (overlay
** "memory", route_memory.h): the areas it knows shaded, the links it
** learned as beams in their travel type's colour, the frontier (walks out
** of what it knows that it has not taken or seen) as yellow ticks, and
** its sliced search's progress: links whose time to the goal is final,
** from white (near the goal) to blue (far).
*/
#include "render/render_internal.h"

#include <math.h>

#include "render/render_graph.h"
#include "route/route_memory.h"

/* Shown with every floor, or when on the storey shown. */
static bool on_level(const Frame *f, float z)
{
    int n = render_level_count(f->r, f->w);
    if (f->v->level < 0 || f->v->level >= n) return z <= f->cut;
    return render_level_at(f->r, f->w, z) == f->v->level;
}

static void link_px(const Frame *f, const NavReach *re, float *x0, float *y0, float *x1, float *y1)
{
    frame_to_px(f, re->start[0], re->start[1], x0, y0);
    frame_to_px(f, re->end[0], re->end[1], x1, y1);
}

void render_memory(Frame *f)
{
    if (!(f->v->overlays & RENDER_BIT(RENDER_MEMORY)) || f->v->selected < 0) return;
    const NavMemory *m = sim_bot_memory(f->sim, (uint32_t)f->v->selected);
    if (!m) return;
    const NavAreaGraph *ag = memory_graph(m);
    float cs = world_cell_size(f->w);
    for (uint32_t i = 0; i < area_count(ag); i++) {
        const NavArea *a = area_get(ag, i);
        if (!memory_knows_area(m, i) || !on_level(f, a->zmin)) continue;
        float x0, y0, x1, y1;
        frame_to_px(f, (float)a->x0 * cs, (float)(a->y1 + 1) * cs, &x0, &y0);
        frame_to_px(f, (float)(a->x1 + 1) * cs, (float)a->y0 * cs, &x1, &y1);
        if (x1 < 0 || y1 < 0 || x0 > (float)f->img->width || y0 > (float)f->img->height) continue;
        image_fill_rect(f->img, (int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0), nav_rgba(90, 220, 120, 55));
    }
    /* The search's progress under the links. */
    const MemSearch *s = sim_bot_search(f->sim, (uint32_t)f->v->selected);
    if (s && memsearch_memory(s) == m) {
        uint32_t far = 1;
        for (uint32_t i = 0; i < area_reach_count(ag); i++) {
            uint32_t t = memsearch_link_time(s, i);
            if (t != ROUTE_UNREACHABLE && t > far) far = t;
        }
        for (uint32_t i = 0; i < area_reach_count(ag); i++) {
            uint32_t t = memsearch_link_time(s, i);
            const NavReach *re = area_reach(ag, i);
            if (t == ROUTE_UNREACHABLE || !on_level(f, re->start[2])) continue;
            float x0, y0, x1, y1;
            link_px(f, re, &x0, &y0, &x1, &y1);
            NavColor c = render_mix(nav_rgba(255, 255, 255, 200), nav_rgba(40, 90, 255, 200), (float)t / (float)far);
            image_draw_line(f->img, x0, y0, x1, y1, 5.0f, c);
        }
    }
    for (uint32_t i = 0; i < area_reach_count(ag); i++) {
        const NavReach *re = area_reach(ag, i);
        if (!on_level(f, re->start[2]) && !on_level(f, re->end[2])) continue;
        float x0, y0, x1, y1;
        link_px(f, re, &x0, &y0, &x1, &y1);
        bool on_foot = re->type == NAV_TRAVEL_WALK || re->type == NAV_TRAVEL_CROUCH;
        if (memory_knows_link(m, i)) {
            NavColor c = render_travel_color((NavTravelType)re->type);
            image_draw_line(f->img, x0, y0, x1, y1, on_foot ? 1.5f : 3.0f, c);
            frame_drew_travel(f, re->type, x0, y0, x1, y1);
            image_fill_circle(f->img, x1, y1, on_foot ? 2.0f : 4.0f, c);
        } else if (on_foot && memory_knows_area(m, re->from) && !memory_knows_area(m, re->to)) {
            /* The frontier: a walk into floor it has not seen. */
            image_draw_line(f->img, x0, y0, x0 + (x1 - x0) * 0.5f, y0 + (y1 - y0) * 0.5f, 2.0f,
                            nav_rgba(255, 220, 40, 230));
        }
    }
}

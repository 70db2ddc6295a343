/*
** render_hud.c — the text over the picture: the HUD (tick, where the
** tick's time went, routing caches, bot counts), the status line, the
** legend, the help screen and the selected bot's panel.
*/
#include "render/render_internal.h"

#include "route/route_memory.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "script/run_trace.h"
#include "script/session.h"

#define PAD 6

static const NavColor TEXT = { 235, 238, 245, 255 };
static const NavColor DIM = { 170, 176, 190, 255 };

/* {======= the HUD ======= */

static void bot_counts(const Frame *f, int *arrived, int *stuck, int *faulted)
{
    *arrived = *stuck = *faulted = 0;
    for (uint32_t i = 0; i < sim_bot_count(f->sim); i++) {
        const NavBot *b = sim_bot(f->sim, i);
        *arrived += sim_bot_arrived(f->sim, i);
        *stuck += b->stuck_time > 1.0f;
        if (f->info->session) *faulted += session_bot_faulted(f->info->session, i);
    }
    const RunTrace *t = f->info->trace;
    if (!f->info->session && t && f->info->frame < t->frame_count) {
        const RunTraceFrame *fr = &t->frames[f->info->frame];
        for (uint32_t k = 0; k < fr->count; k++) *faulted += (t->bots[fr->first + k].flags & RUN_TRACE_FAULTED) != 0;
    }
}

static void hud(const Frame *f)
{
    char text[1024];
    size_t n = 0;
    const RenderInfo *in = f->info;
    n += (size_t)snprintf(text + n, sizeof text - n, "%s %s  tick %llu  %.2f s", in->mode ? in->mode : "navbot",
                          in->title ? in->title : world_name(f->w), (unsigned long long)sim_tick(f->sim),
                          sim_time(f->sim));
    if (in->time_scale > 0.0f && n < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "  x%.2g", (double)in->time_scale);
    if (in->paused && n < sizeof text) n += (size_t)snprintf(text + n, sizeof text - n, "  PAUSED");
    if (in->fps > 0.0 && n < sizeof text) n += (size_t)snprintf(text + n, sizeof text - n, "  %.0f fps", in->fps);
    if (in->session && n < sizeof text) {
        NavSessionTimes t;
        session_times(in->session, &t);
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "\ntick %.2f ms: lua %.2f  routing %.2f  grid %.2f  movement %.2f", t.tick_ms, t.lua_ms,
                              t.path_ms - t.grid_ms, t.grid_ms, t.move_ms);
    }
    if (n < sizeof text && world_class_count(f->w)) {
        NavError err;
        nav_error_clear(&err);
        int cls = f->v->cls >= 0 && f->v->cls < world_class_count(f->w) ? f->v->cls : 0;
        NavRouter *r = sim_router(f->sim, cls, &err);
        if (r) {
            NavRouterStats st;
            router_stats(r, &st);
            uint64_t q = st.hits + st.misses;
            n += (size_t)snprintf(text + n, sizeof text - n,
                                  "\nroutes (%s): %u caches, %.2f of %.0f MiB, hits %llu of %llu (%.1f%%)",
                                  world_class(f->w, cls)->name, st.caches, (double)st.cache_bytes / 1048576.0,
                                  (double)st.cap_bytes / 1048576.0, (unsigned long long)st.hits, (unsigned long long)q,
                                  q ? 100.0 * (double)st.hits / (double)q : 0.0);
        }
    }
    int arrived, stuck, faulted;
    bot_counts(f, &arrived, &stuck, &faulted);
    uint32_t bots = sim_bot_count(f->sim);
    if (n < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "\nbots %u: alive %u  arrived %d  stuck %d  faulted %d", bots,
                              bots - (uint32_t)faulted, arrived, stuck, faulted);
    if (f->v->level >= 0 && n < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "\nstorey %d of %d: %s (z %.1f)", f->v->level + 1,
                              render_level_count(f->r, f->w), render_level_name(f->r, f->w, f->v->level),
                              (double)render_level_z(f->r, f->w, f->v->level));
    int h = frame_text_box(f, PAD, PAD, text, TEXT);
    if (f->v->status[0]) frame_text_box(f, PAD, PAD + h + 2, f->v->status, nav_rgba(255, 230, 140, 255));
}

/* }======= */

/* {======= the storey shown ======= */

void render_storey_label(Renderer *r, const NavWorld *w, int level, int width, RenderStoreyLabel *out)
{
    snprintf(out->text, sizeof out->text, "storey %d of %d: %s", level + 1, render_level_count(r, w),
             render_level_name(r, w, level));
    out->w = font_text_width(r->font, out->text, 2) + 12;
    out->h = font_line_height(r->font, 2) + 8;
    out->x = (width - out->w) / 2;
    out->y = PAD;
}

/* Big, on an opaque box at the top middle, whatever else is switched
** off: a picture of one storey must never pass for the whole map. */
static void storey_label(const Frame *f)
{
    if (f->v->level < 0 || f->v->level >= render_level_count(f->r, f->w)) return;
    RenderStoreyLabel l;
    render_storey_label(f->r, f->w, f->v->level, f->img->width, &l);
    image_fill_rect(f->img, l.x, l.y, l.w, l.h, RENDER_LABEL_BOX);
    font_draw(f->img, f->r->font, l.x + 6, l.y + 4, l.text, RENDER_LABEL_TEXT, 2);
}

/* }======= */

/* {======= legend ======= */

/* A colour chip and its name; returns the x after it. */
static int chip(const Frame *f, int x, int y, NavColor c, const char *name)
{
    int lh = font_line_height(f->r->font, 1);
    image_fill_rect(f->img, x, y + 1, lh - 2, lh - 2, c);
    int w = frame_text(f, x + lh, y, name, TEXT);
    return x + lh + w + 10;
}

static void legend(const Frame *f)
{
    int lh = font_line_height(f->r->font, 1);
    int rows = 3, y0 = f->img->height - rows * (lh + 2) - PAD;
    image_fill_rect(f->img, 0, y0 - 4, f->img->width, f->img->height - y0 + 4, nav_rgba(12, 14, 20, 190));
    int x = PAD, y = y0;
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        const char *name = area_travel_name((NavTravelType)t);
        if (x + font_text_width(f->r->font, name, 1) + lh + 10 > f->img->width) x = PAD, y += lh + 2;
        x = chip(f, x, y, render_travel_color((NavTravelType)t), name);
    }
    x = PAD, y += lh + 2;
    static const struct {
        const char *name;
        NavColor c;
    } THINGS[] = {
        { "water", { 40, 100, 200, 255 } },   { "lava", { 235, 85, 20, 255 } },
        { "slime", { 100, 200, 60, 255 } },   { "ladder", { 150, 95, 40, 255 } },
        { "clip", { 140, 70, 170, 255 } },    { "solid", { 46, 46, 54, 255 } },
        { "obstacle", { 230, 40, 60, 255 } }, { "door", { 140, 90, 50, 255 } },
        { "elevator", { 70, 72, 84, 255 } },  { "teleporter", { 140, 40, 255, 255 } },
        { "jump pad", { 230, 200, 0, 255 } }, { "goal", { 255, 215, 0, 255 } },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(THINGS); i++) {
        if (x + font_text_width(f->r->font, THINGS[i].name, 1) + lh + 10 > f->img->width) x = PAD, y += lh + 2;
        x = chip(f, x, y, THINGS[i].c, THINGS[i].name);
    }
    char on[256] = "overlays:";
    size_t n = strlen(on);
    for (int o = 0; o < RENDER_OVERLAY_COUNT && n < sizeof on; o++)
        if (f->v->overlays & RENDER_BIT(o))
            n += (size_t)snprintf(on + n, sizeof on - n, " %s", render_overlay_name((RenderOverlay)o));
    if (!(f->v->overlays)) snprintf(on + n, sizeof on - n, " none");
    x = PAD, y += lh + 2;
    frame_text(f, x, y, on, DIM);
    if (f->info->help) {
        const char *hint = "H: help";
        frame_text(f, f->img->width - font_text_width(f->r->font, hint, 1) - PAD, y, hint, DIM);
    }
}

/* }======= */

/* {======= the selected bot ======= */

static const char *last_fault(const Frame *f, uint32_t id)
{
    if (f->info->session) return session_bot_error(f->info->session, id);
    const RunTrace *t = f->info->trace;
    const char *e = NULL;
    for (uint32_t i = 0; t && i < t->event_count && t->events[i].frame <= f->info->frame; i++)
        if (t->events[i].kind == RUN_TRACE_FAULT && t->events[i].id == id) e = t->events[i].text;
    return e;
}

static void panel(const Frame *f)
{
    int id = f->v->selected;
    if (id < 0 || (uint32_t)id >= sim_bot_count(f->sim)) return;
    const NavBot *b = sim_bot(f->sim, (uint32_t)id);
    char text[2048];
    size_t n = 0;
    const char *brain = f->info->session ? session_bot_brain(f->info->session, (uint32_t)id)
                        : f->info->trace && (uint32_t)id < f->info->trace->bot_count
                            ? f->info->trace->bot_info[id].brain
                            : "";
    char who[BRAIN_NAME_MAX + 32];
    if (f->info->has_player && f->info->player == (uint32_t)id)
        snprintf(who, sizeof who, "player%s%s", *brain ? ", brain " : "", brain);
    else snprintf(who, sizeof who, "%s", *brain ? brain : "no brain");
    char travel[256] = "";
    size_t tn = 0;
    for (int t = 0; t < NAV_TRAVEL_COUNT && tn < sizeof travel; t++)
        if (b->travel_used & NAV_TFL_TYPE(t))
            tn += (size_t)snprintf(travel + tn, sizeof travel - tn, "%s%s", tn ? " " : "",
                                   area_travel_name((NavTravelType)t));
    float speed = sqrtf(b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1]);
    n += (size_t)snprintf(
        text + n, sizeof text - n,
        "bot %d  %s  (%s)\npos %.2f %.2f %.2f  yaw %.0f\nspeed %.2f m/s  vz %.2f\nstate %s%s%s%s%s%s%s\n"
        "say: %s\nmove %.2f %.2f  %s (%d)%s%s%s\ngoals reached %d, queued %d, skipped %d",
        id, who, world_class(f->w, b->cls)->name, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2],
        (double)b->yaw, (double)speed, (double)b->vel[2], b->on_ground ? "ground " : "air ",
        b->in_water ? "water " : "", b->on_ladder ? "ladder " : "", b->crouched ? "crouched " : "",
        b->climbing ? "climbing " : "", b->riding >= 0 ? "riding " : "", b->jumping ? "jumping" : "", b->say,
        (double)b->control.move[0], (double)b->control.move[1], b->control.reason[0] ? b->control.reason : "-",
        b->control.priority, b->control.jump ? " jump" : "", b->control.crouch ? " crouch" : "",
        b->control.use ? " use" : "", b->goals_reached, b->goal_count, b->goals_skipped);
    if (n < sizeof text && b->arrival_time >= 0.0)
        n += (size_t)snprintf(text + n, sizeof text - n, "\narrived at %.2f s", b->arrival_time);
    if (n < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "\ndistance %.1f m  stuck %.1f s (total %.1f)\ntravel: %s",
                              b->distance, (double)b->stuck_time, b->stuck_total, tn ? travel : "-");
    const NavMemory *m = sim_bot_memory(f->sim, (uint32_t)id);
    if (m && n < sizeof text) {
        const NavAreaGraph *ag = memory_graph(m);
        n += (size_t)snprintf(text + n, sizeof text - n, "\nmemory: %u of %u areas, %u of %u links",
                              memory_area_count(m), area_count(ag), memory_link_count(m), area_reach_count(ag));
        const MemSearch *s = sim_bot_search(f->sim, (uint32_t)id);
        if (s && n < sizeof text) {
            static const char *const STATES[] = { "searching", "ready", "no route" };
            MemSearchStats st;
            memsearch_stats(s, &st);
            n += (size_t)snprintf(text + n, sizeof text - n, "\nsearch to area %u: %s, %u expanded in %u slices",
                                  memsearch_goal(s), STATES[memsearch_state(s)], st.expanded, st.slices);
        }
    }
    const char *e = last_fault(f, (uint32_t)id);
    if (e && n < sizeof text) {
        n += (size_t)snprintf(text + n, sizeof text - n, "\nFAULTED:\n");
        /* Wrap the error (a message and a traceback) to the panel's width. */
        int cols = 56, col = 0;
        for (const char *p = e; *p && n + 2 < sizeof text; p++) {
            if (*p == '\n' || col >= cols) {
                text[n++] = '\n';
                col = 0;
                if (*p == '\n') continue;
            }
            text[n++] = *p == '\t' ? ' ' : *p;
            col++;
        }
        text[n] = '\0';
    }
    int w = font_text_width(f->r->font, text, 1) + 8;
    frame_text_box(f, f->img->width - w - PAD, PAD, text, e ? nav_rgba(255, 200, 200, 255) : TEXT);
}

/* }======= */

static void help(const Frame *f)
{
    if (!f->v->help || !f->info->help) return;
    int w = font_text_width(f->r->font, f->info->help, 1) + 8;
    int lines = 1;
    for (const char *p = f->info->help; *p; p++) lines += *p == '\n';
    int h = lines * font_line_height(f->r->font, 1) + 6;
    frame_text_box(f, (f->img->width - w) / 2, NAV_MAX((f->img->height - h) / 2, 0), f->info->help, TEXT);
}

void render_hud(Frame *f)
{
    if (f->v->legend) legend(f);
    if (f->v->hud) hud(f);
    storey_label(f);
    panel(f);
    help(f);
}

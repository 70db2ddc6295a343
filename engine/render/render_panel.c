/*
** render_panel.c — the selected bot's panel, at the top right: who it is,
** its body, its state in the run report's words (script/bot_outcome.h),
** its controls, goals, travel, memory and faults; and under it, when the
** picture has a history (render_history.h), a plot of its speed over the
** last seconds, a strip of its state over the same time, and its last
** route choices.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render_history.h"
#include "route/route_memory.h"
#include "script/bot_outcome.h"
#include "script/run_trace.h"
#include "script/session.h"

#define PAD 6
#define PLOT_W 300 /* at least; as wide as the panel's text when that is wider */
#define PLOT_H 44
#define STRIP_H 8

static const NavColor TEXT = { 235, 238, 245, 255 };
static const NavColor DIM = { 170, 176, 190, 255 };
#define SPEED_COLOR nav_rgba(120, 220, 255, 255)

void render_text_box_size(const Frame *f, const char *text, int *w, int *h)
{
    int lines = 1;
    for (const char *p = text; *p; p++) lines += *p == '\n' && p[1];
    *w = font_text_width(f->r->font, text, 1) + 8;
    *h = lines * font_line_height(f->r->font, 1) + 6;
}

/* {======= the text ======= */

static const char *last_fault(const Frame *f, uint32_t id)
{
    if (f->info->session) return session_bot_error(f->info->session, id);
    const RunTrace *t = f->info->trace;
    const char *e = NULL;
    for (uint32_t i = 0; t && i < t->event_count && t->events[i].frame <= f->info->frame; i++)
        if (t->events[i].kind == RUN_TRACE_FAULT && t->events[i].id == id) e = t->events[i].text;
    return e;
}

static bool is_player(const Frame *f, uint32_t id) { return f->info->has_player && f->info->player == id; }

/* The selected bot's panel text; false when no bot is selected. *fault
** the bot's last fault, NULL none. */
static bool panel_text(const Frame *f, char *text, size_t cap, const char **fault)
{
    int id = f->v->selected;
    if (id < 0 || (uint32_t)id >= sim_bot_count(f->sim)) return false;
    const NavBot *b = sim_bot(f->sim, (uint32_t)id);
    size_t n = 0;
    const char *brain = f->info->session ? session_bot_brain(f->info->session, (uint32_t)id)
                        : f->info->trace && (uint32_t)id < f->info->trace->bot_count
                            ? f->info->trace->bot_info[id].brain
                            : "";
    char who[BRAIN_NAME_MAX + 32];
    if (is_player(f, (uint32_t)id)) snprintf(who, sizeof who, "player%s%s", *brain ? ", brain " : "", brain);
    else snprintf(who, sizeof who, "%s", *brain ? brain : "no brain");
    char travel[256] = "";
    size_t tn = 0;
    for (int t = 0; t < NAV_TRAVEL_COUNT && tn < sizeof travel; t++)
        if (b->travel_used & NAV_TFL_TYPE(t))
            tn += (size_t)snprintf(travel + tn, sizeof travel - tn, "%s%s", tn ? " " : "",
                                   area_travel_name((NavTravelType)t));
    /* The run report's words for it; a replay's record keeps no goals
    ** reached, so it cannot say. */
    char state[64];
    if (f->info->trace && !f->info->session) snprintf(state, sizeof state, "%s", "not in the record (a replay)");
    else bot_outcome_text(f->sim, (uint32_t)id, is_player(f, (uint32_t)id), 0, state, sizeof state);
    float speed = sqrtf(b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1]);
    n += (size_t)snprintf(
        text + n, cap - n,
        "bot %d  %s  (%s)\nstate: %s\npos %.2f %.2f %.2f  yaw %.0f\nspeed %.2f m/s  vz %.2f\nbody: %s%s%s%s%s%s%s\n"
        "say: %s\nmove %.2f %.2f  %s (%d)%s%s%s\ngoals reached %d, queued %d, skipped %d",
        id, who, world_class(f->w, b->cls)->name, state, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2],
        (double)b->yaw, (double)speed, (double)b->vel[2], b->on_ground ? "ground " : "air ",
        b->in_water ? "water " : "", b->on_ladder ? "ladder " : "", b->crouched ? "crouched " : "",
        b->climbing ? "climbing " : "", b->riding >= 0 ? "riding " : "", b->jumping ? "jumping" : "", b->say,
        (double)b->control.move[0], (double)b->control.move[1], b->control.reason[0] ? b->control.reason : "-",
        b->control.priority, b->control.jump ? " jump" : "", b->control.crouch ? " crouch" : "",
        b->control.use ? " use" : "", b->goals_reached, b->goal_count, b->goals_skipped);
    if (n < cap)
        n += (size_t)snprintf(text + n, cap - n, "\ndistance %.1f m  stuck %.1f s (total %.1f)\ntravel: %s",
                              b->distance, (double)b->stuck_time, b->stuck_total, tn ? travel : "-");
    const NavMemory *m = sim_bot_memory(f->sim, (uint32_t)id);
    if (m && n < cap) {
        const NavAreaGraph *ag = memory_graph(m);
        n += (size_t)snprintf(text + n, cap - n, "\nmemory: %u of %u areas, %u of %u links", memory_area_count(m),
                              area_count(ag), memory_link_count(m), area_reach_count(ag));
        const MemSearch *s = sim_bot_search(f->sim, (uint32_t)id);
        if (s && n < cap) {
            static const char *const STATES[] = { "searching", "ready", "no route" };
            MemSearchStats st;
            memsearch_stats(s, &st);
            n += (size_t)snprintf(text + n, cap - n, "\nsearch to area %u: %s, %u expanded in %u slices",
                                  memsearch_goal(s), STATES[memsearch_state(s)], st.expanded, st.slices);
        }
    }
    const char *e = last_fault(f, (uint32_t)id);
    if (e && n < cap) {
        n += (size_t)snprintf(text + n, cap - n, "\nFAULTED:\n");
        /* Wrap the error (a message and a traceback) to the panel's width. */
        int cols = 56, col = 0;
        for (const char *p = e; *p && n + 2 < cap; p++) {
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
    *fault = e;
    return true;
}

/* }======= */

/* {======= the history under it ======= */

#define PANEL_MAX_W 460 /* route choices longer than this are cut */

/* The history block's width: the plot's, or the route choices' when
** they are wider, up to PANEL_MAX_W. */
static int history_width(const Frame *f)
{
    const RenderHistory *h = f->info->history;
    int w = PLOT_W;
    for (int k = 0; k < render_history_route_count(h, (uint32_t)f->v->selected); k++) {
        char line[160];
        snprintf(line, sizeof line, "%7.2f s  %s", 0.0, render_history_route(h, (uint32_t)f->v->selected, k)->text);
        w = NAV_MAX(w, font_text_width(f->r->font, line, 1) + 8);
    }
    return NAV_MIN(w, PANEL_MAX_W);
}

/* text cut with "..." to fit max_w pixels. */
static void fit_text(const NavFont *font, char *text, int max_w)
{
    size_t n = strlen(text);
    if (font_text_width(font, text, 1) <= max_w) return;
    while (n > 3) {
        memcpy(text + n - 3, "...", 4);
        if (font_text_width(font, text, 1) <= max_w) return;
        n--;
    }
}

/* The history block's height (0 when the picture keeps none). */
static int history_height(const Frame *f)
{
    if (!f->info->history) return 0;
    int lh = font_line_height(f->r->font, 1);
    int routes = render_history_route_count(f->info->history, (uint32_t)f->v->selected);
    return 4 + lh + 2 + PLOT_H + 2 + STRIP_H + 3 + lh + 4 + lh * (1 + NAV_MAX(routes, 1)) + 4;
}

/* A round top for the speed axis: 1, 2 or 5 times a power of ten. */
static float round_up(float v)
{
    float p = powf(10.0f, floorf(log10f(fmaxf(v, 1e-3f))));
    return v <= p ? p : v <= 2.0f * p ? 2.0f * p : v <= 5.0f * p ? 5.0f * p : 10.0f * p;
}

static void plot(const Frame *f, int x, int y, int w)
{
    const RenderHistory *h = f->info->history;
    uint32_t id = (uint32_t)f->v->selected;
    const NavFont *font = f->r->font;
    int lh = font_line_height(font, 1), n = render_history_count(h, id);
    uint64_t now = sim_tick(f->sim);
    double dt = render_history_dt(h);
    float top = 1.0f;
    for (int k = 0; k < n; k++) top = fmaxf(top, render_history_sample(h, id, k)->speed);
    top = round_up(top);
    char title[96];
    snprintf(title, sizeof title, "last %.0f s: speed (0 to %g m/s), state", RENDER_HISTORY_SECONDS, (double)top);
    font_draw(f->img, font, x + 4, y + 4, title, DIM, 1);
    int px = x + 4, pw = w - 8, py = y + 4 + lh + 2;
    image_fill_rect(f->img, px, py, pw, PLOT_H, nav_rgba(32, 36, 46, 255));
    image_fill_rect(f->img, px, py + PLOT_H / 2, pw, 1, nav_rgba(60, 66, 80, 255));
    int sy = py + PLOT_H + 2;
    image_fill_rect(f->img, px, sy, pw, STRIP_H, nav_rgba(32, 36, 46, 255));
    float last_x = 0.0f, last_y = 0.0f;
    bool have_last = false;
    uint32_t states = 0;
    for (int k = 0; k < n; k++) {
        const HistorySample *s = render_history_sample(h, id, k);
        double age = now > s->tick ? (double)(now - s->tick) * dt : 0.0;
        if (age > RENDER_HISTORY_SECONDS) continue;
        float sx = (float)px + (float)pw * (float)(1.0 - age / RENDER_HISTORY_SECONDS);
        float sv = (float)(py + PLOT_H - 1) - (float)(PLOT_H - 2) * fminf(s->speed / top, 1.0f);
        if (have_last) {
            image_draw_line(f->img, last_x, last_y, sx, sv, 1.5f, SPEED_COLOR);
            int x0 = (int)floorf(last_x), x1 = (int)ceilf(sx);
            image_fill_rect(f->img, x0, sy, NAV_MAX(x1 - x0, 1), STRIP_H,
                            render_history_state_color((HistoryState)s->state));
        }
        states |= 1u << s->state;
        last_x = sx, last_y = sv;
        have_last = true;
    }
    /* The states the strip shows, in their colours. */
    int cx = px, cy = sy + STRIP_H + 3;
    for (int s = 0; s < HISTORY_STATES; s++) {
        if (!(states & (1u << s))) continue;
        image_fill_rect(f->img, cx, cy + 2, lh - 4, lh - 4, render_history_state_color((HistoryState)s));
        cx += lh - 2;
        cx += font_draw(f->img, font, cx, cy, render_history_state_name((HistoryState)s), TEXT, 1) + 8;
    }
    int ry = cy + lh + 4;
    int routes = render_history_route_count(h, id);
    /* A version 2 record has no routes; a run may have shown none yet. */
    bool no_routes = f->info->trace && !f->info->session && f->info->trace->version < 3;
    const char *head = routes      ? "route choices:"
                       : no_routes ? "route choices: not in the record"
                                   : "route choices: none seen";
    font_draw(f->img, font, x + 4, ry, head, DIM, 1);
    for (int k = routes - 1; k >= 0; k--) {
        const HistoryRoute *r = render_history_route(h, id, k);
        char line[160];
        snprintf(line, sizeof line, "%7.2f s  %s", (double)r->tick * dt, r->text);
        fit_text(font, line, w - 8);
        ry += lh;
        font_draw(f->img, font, x + 4, ry, line, TEXT, 1);
    }
}

/* }======= */

bool render_panel_size(const Frame *f, int *w, int *h)
{
    char text[2048];
    const char *e;
    if (!panel_text(f, text, sizeof text, &e)) return false;
    render_text_box_size(f, text, w, h);
    int hh = history_height(f);
    if (hh) {
        *w = NAV_MAX(*w, history_width(f));
        *h += 2 + hh;
    }
    return true;
}

void render_panel(const Frame *f, bool block)
{
    char text[2048];
    const char *e;
    if (!panel_text(f, text, sizeof text, &e)) return;
    int w, h, tw, th;
    render_panel_size(f, &w, &h);
    int x = f->img->width - w - PAD;
    if (block) {
        labels_block(&f->r->labels, x, PAD, w, h);
        return;
    }
    render_text_box_size(f, text, &tw, &th);
    frame_text_box(f, f->img->width - tw - PAD, PAD, text, e ? nav_rgba(255, 200, 200, 255) : TEXT);
    int hh = history_height(f);
    if (!hh) return;
    image_fill_rect(f->img, x, PAD + th + 2, w, hh, nav_rgba(12, 14, 20, 200));
    plot(f, x, PAD + th + 2, w);
}

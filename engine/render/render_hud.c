/*
** render_hud.c — the text over the picture: the HUD (tick, where the
** tick's time went, routing caches, bot counts), the status line, the
** legend of what the frame drew (with the scale bar and north arrow), the
** help screen, the selected bot's panel (render_panel.c), a failed
** reload's error in red, the overlays on named even with the legend off;
** and the frame's labels, placed clear of all of these.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render_history.h"
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

static void hud_text(const Frame *f, char *text, size_t cap)
{
    size_t n = 0;
    const RenderInfo *in = f->info;
    n += (size_t)snprintf(text + n, cap - n, "%s %s  tick %llu  %.2f s", in->mode ? in->mode : "navbot",
                          in->title ? in->title : world_name(f->w), (unsigned long long)sim_tick(f->sim),
                          sim_time(f->sim));
    if (in->time_scale > 0.0f && n < cap) n += (size_t)snprintf(text + n, cap - n, "  x%.2g", (double)in->time_scale);
    if (in->paused && n < cap) n += (size_t)snprintf(text + n, cap - n, "  PAUSED");
    if (in->fps > 0.0 && n < cap) n += (size_t)snprintf(text + n, cap - n, "  %.0f fps", in->fps);
    if (in->session && n < cap) {
        NavSessionTimes t;
        session_times(in->session, &t);
        n += (size_t)snprintf(text + n, cap - n, "\ntick %.2f ms: lua %.2f  routing %.2f  grid %.2f  movement %.2f",
                              t.tick_ms, t.lua_ms, t.path_ms - t.grid_ms, t.grid_ms, t.move_ms);
    }
    if (n < cap && world_class_count(f->w)) {
        NavError err;
        nav_error_clear(&err);
        int cls = f->v->cls >= 0 && f->v->cls < world_class_count(f->w) ? f->v->cls : 0;
        NavRouter *r = sim_router(f->sim, cls, &err);
        if (r) {
            NavRouterStats st;
            router_stats(r, &st);
            uint64_t q = st.hits + st.misses;
            n += (size_t)snprintf(text + n, cap - n,
                                  "\nroutes (%s): %u caches, %.2f of %.0f MiB, hits %llu of %llu (%.1f%%)",
                                  world_class(f->w, cls)->name, st.caches, (double)st.cache_bytes / 1048576.0,
                                  (double)st.cap_bytes / 1048576.0, (unsigned long long)st.hits, (unsigned long long)q,
                                  q ? 100.0 * (double)st.hits / (double)q : 0.0);
        }
    }
    int arrived, stuck, faulted;
    bot_counts(f, &arrived, &stuck, &faulted);
    uint32_t bots = sim_bot_count(f->sim);
    if (n < cap)
        n += (size_t)snprintf(text + n, cap - n, "\nbots %u: alive %u  arrived %d  stuck %d  faulted %d", bots,
                              bots - (uint32_t)faulted, arrived, stuck, faulted);
    if (f->v->level >= 0 && n < cap)
        n += (size_t)snprintf(text + n, cap - n, "\nstorey %d of %d: %s (z %.1f)", f->v->level + 1,
                              render_level_count(f->r, f->w), render_level_name(f->r, f->w, f->v->level),
                              (double)render_level_z(f->r, f->w, f->v->level));
}

static void hud(const Frame *f)
{
    char text[1024];
    hud_text(f, text, sizeof text);
    int h = frame_text_box(f, PAD, PAD, text, TEXT);
    if (f->v->status[0]) frame_text_box(f, PAD, PAD + h + 2, f->v->status, nav_rgba(255, 230, 140, 255));
}

/* The HUD and the status line: no label goes under them. */
static void hud_block(const Frame *f)
{
    char text[1024];
    hud_text(f, text, sizeof text);
    int w, h;
    render_text_box_size(f, text, &w, &h);
    labels_block(&f->r->labels, PAD, PAD, w, h);
    if (f->v->status[0]) {
        int sw, sh;
        render_text_box_size(f, f->v->status, &sw, &sh);
        labels_block(&f->r->labels, PAD, PAD + h + 2, sw, sh);
    }
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

/* Where the storey's name goes: the top middle, moved right of the HUD
** (or under it, when there is no room) where the HUD would cover it.
** False when the view shows every floor. */
static bool storey_label_at(const Frame *f, RenderStoreyLabel *l)
{
    if (f->v->level < 0 || f->v->level >= render_level_count(f->r, f->w)) return false;
    render_storey_label(f->r, f->w, f->v->level, f->img->width, l);
    if (!f->v->hud) return true;
    char text[2048];
    hud_text(f, text, sizeof text);
    int hw, hh;
    render_text_box_size(f, text, &hw, &hh);
    hw = (hw + 63) / 64 * 64; /* steady while the HUD's numbers change */
    if (l->x >= PAD + hw + PAD) return true;
    int right = f->img->width, pw, ph;
    if (render_panel_size(f, &pw, &ph)) right -= pw + PAD;
    if (PAD + hw + PAD + l->w + PAD <= right) {
        l->x = PAD + hw + PAD;
    } else {
        /* Under the HUD and its status line. */
        int sw = 0, sh = 0;
        if (f->v->status[0]) render_text_box_size(f, f->v->status, &sw, &sh);
        l->x = PAD;
        l->y = PAD + hh + (sh ? 2 + sh : 0) + PAD;
    }
    return true;
}

static void storey_label(const Frame *f)
{
    RenderStoreyLabel l;
    if (!storey_label_at(f, &l)) return;
    image_fill_rect(f->img, l.x, l.y, l.w, l.h, RENDER_LABEL_BOX);
    font_draw(f->img, f->r->font, l.x + 6, l.y + 4, l.text, RENDER_LABEL_TEXT, 2);
}

/* }======= */

/* {======= legend ======= */

static void legend_contents(const Frame *f, Legend *l)
{
    bool solid, below;
    uint32_t c = render_world_contents_shown(f, &solid, &below);
    if (!c && !solid && !below) return;
    legend_add(l, LEGEND_TITLE, DIM, "floor:");
    const Renderer *r = f->r;
    if (c & (1u << NAV_CONTENTS_FLOOR)) {
        if (r->shade_hi - r->shade_lo > 0.1f) legend_ramp(l, LEGEND_RAMP_HEIGHT, NULL, r->shade_lo, r->shade_hi, "m");
        else legend_add(l, LEGEND_CHIP, render_mix(RENDER_GROUND_LO, RENDER_GROUND_HI, 0.5f), "floor");
    }
    static const struct {
        int contents;
        NavColor c;
    } LIQUIDS[] = {
        { NAV_CONTENTS_WATER, { 55, 110, 200, 255 } }, { NAV_CONTENTS_LAVA, { 235, 85, 20, 255 } },
        { NAV_CONTENTS_SLIME, { 100, 200, 60, 255 } }, { NAV_CONTENTS_LADDER, { 150, 95, 40, 255 } },
        { NAV_CONTENTS_CLIP, { 140, 70, 170, 255 } },  { NAV_CONTENTS_VOID, { 4, 4, 8, 255 } },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(LIQUIDS); k++)
        if (c & (1u << LIQUIDS[k].contents))
            legend_add(l, LEGEND_CHIP, LIQUIDS[k].c, world_contents_name((NavContents)LIQUIDS[k].contents));
    if (solid) legend_add(l, LEGEND_CHIP, nav_rgba(46, 46, 54, 255), "solid");
    if (below) legend_add(l, LEGEND_CHIP, nav_rgba(60, 64, 66, 255), "storey below");
}

static void legend_things(const Frame *f, Legend *l)
{
    static const struct {
        uint32_t bit;
        uint8_t style;
        NavColor c;
        const char *name;
    } THINGS[] = {
        { RENDER_THING_DOOR, LEGEND_CHIP, { 140, 90, 50, 255 }, "door" },
        { RENDER_THING_LOCKED, LEGEND_CHIP, { 200, 40, 40, 255 }, "locked door" },
        { RENDER_THING_ELEVATOR, LEGEND_CHIP, { 70, 72, 84, 255 }, "elevator" },
        { RENDER_THING_TELEPORTER, LEGEND_CHIP, { 170, 90, 255, 255 }, "teleporter" },
        { RENDER_THING_JUMP_PAD, LEGEND_CHIP, { 230, 200, 0, 255 }, "jump pad" },
        { RENDER_THING_CRATE, LEGEND_CHIP, { 190, 130, 60, 255 }, "crate" },
        { RENDER_THING_SPAWN, LEGEND_CHIP, { 60, 220, 90, 255 }, "spawn" },
        { RENDER_THING_GOAL | RENDER_THING_BOT_GOAL, LEGEND_CHIP, { 255, 215, 0, 255 }, "goal" },
        { RENDER_THING_OBSTACLE, LEGEND_CHIP, { 230, 40, 60, 255 }, "obstacle" },
        { RENDER_THING_STOREY_MARK, LEGEND_RING, { 150, 150, 160, 255 }, "way to storey N" },
    };
    bool any = false;
    for (size_t k = 0; k < NAV_ARRAY_COUNT(THINGS); k++) {
        if (!(f->things & THINGS[k].bit)) continue;
        if (!any) legend_add(l, LEGEND_TITLE, DIM, "things:");
        any = true;
        legend_add(l, (LegendStyle)THINGS[k].style, THINGS[k].c, THINGS[k].name);
    }
    if (!f->brain_count && !(f->things & (RENDER_THING_PLAYER | RENDER_THING_FAULTED | RENDER_THING_ELSEWHERE))) return;
    legend_add(l, LEGEND_TITLE, DIM, "bots:");
    for (int k = 0; k < f->brain_count; k++) legend_add(l, LEGEND_CHIP, f->brain_colors[k], f->brains[k]);
    if (f->things & RENDER_THING_PLAYER) legend_add(l, LEGEND_CHIP, nav_rgba(255, 170, 20, 255), "player");
    if (f->things & RENDER_THING_FAULTED) legend_add(l, LEGEND_CHIP, nav_rgba(230, 30, 30, 255), "faulted");
    if (f->things & RENDER_THING_ELSEWHERE) legend_add(l, LEGEND_RING, nav_rgba(18, 20, 26, 255), "on storey N");
    if (f->things & RENDER_THING_ROUTE) legend_add(l, LEGEND_LINE, nav_rgba(255, 255, 255, 255), "route");
}

/* "overlays: links, trails, placement preview" (" none"); false when none is on. */
static bool overlays_text(const Frame *f, char *on, size_t cap)
{
    uint32_t ov = f->v->overlays;
    size_t n = (size_t)snprintf(on, cap, "overlays:");
    bool any = false;
    for (int o = 0; o < RENDER_OVERLAY_COUNT && n < cap; o++)
        if (ov & RENDER_BIT(o)) {
            n += (size_t)snprintf(on + n, cap - n, "%s %s", any ? "," : "", render_overlay_name((RenderOverlay)o));
            any = true;
        }
    if (f->v->place_on && n < cap) {
        n += (size_t)snprintf(on + n, cap - n, "%s placement preview", any ? "," : "");
        any = true;
    }
    if (!any && n < cap) snprintf(on + n, cap - n, " none");
    return any;
}

static void legend_overlays(const Frame *f, Legend *l)
{
    uint32_t ov = f->v->overlays;
    char on[320];
    overlays_text(f, on, sizeof on);
    legend_add(l, LEGEND_TEXT, DIM, on);
    if (ov & RENDER_BIT(RENDER_HEAT)) {
        if (f->r->heat_drawn) {
            legend_ramp(l, LEGEND_RAMP_HEAT, "time to the goal:", 0.0f, f->r->heat_seconds, "s");
            legend_add(l, LEGEND_CHIP, nav_rgba(0, 0, 0, 255), "no route");
        } else {
            legend_add(l, LEGEND_TEXT, DIM, "heat map: no goal (select a bot, or G)");
        }
    }
    if (ov & RENDER_BIT(RENDER_CLUSTERS)) legend_add(l, LEGEND_CHIP, nav_rgba(255, 170, 0, 255), "portal");
    if (ov & RENDER_BIT(RENDER_GRID)) {
        legend_add(l, LEGEND_CHIP, nav_rgba(40, 200, 80, 255), "passable");
        legend_add(l, LEGEND_CHIP, nav_rgba(220, 30, 30, 255), "blocked");
    }
    if (ov & RENDER_BIT(RENDER_EXPLORED)) {
        legend_add(l, LEGEND_CHIP, nav_rgba(40, 220, 220, 255), "open");
        legend_add(l, LEGEND_CHIP, nav_rgba(170, 60, 220, 255), "closed");
    }
    if (ov & RENDER_BIT(RENDER_TRACES)) {
        legend_add(l, LEGEND_LINE, nav_rgba(60, 255, 120, 255), "trace clear");
        legend_add(l, LEGEND_LINE, nav_rgba(255, 60, 60, 255), "trace hit");
    }
    if (ov & RENDER_BIT(RENDER_MEMORY)) {
        legend_add(l, LEGEND_CHIP, nav_rgba(90, 220, 120, 255), "known area");
        legend_add(l, LEGEND_LINE, nav_rgba(255, 220, 40, 255), "frontier");
    }
    if ((ov & RENDER_BIT(RENDER_TRAILS)) && !f->info->history)
        legend_add(l, LEGEND_TEXT, DIM, "trails: none kept for this picture");
}

/* What this frame drew, by name: links by travel type, floors, things,
** bots, the overlays on; "H: help" last in a window. */
static void build_legend(const Frame *f, Legend *l)
{
    legend_clear(l);
    legend_travel(l, "links:", f->travel);
    if (f->trail_travel) {
        legend_travel(l, "trails:", f->trail_travel);
        char fade[48];
        snprintf(fade, sizeof fade, "(fading over %.0f s)", RENDER_HISTORY_SECONDS);
        legend_add(l, LEGEND_TEXT, DIM, fade);
    }
    legend_contents(f, l);
    legend_things(f, l);
    legend_overlays(f, l);
    if (f->info->help) legend_add(l, LEGEND_TEXT, DIM, "H: help");
}

/* }======= */

/* {======= what must be seen whatever is switched off ======= */

/* Why the brains' last reload failed, each brain's: the old version runs
** on until a reload of it succeeds. False when none failed. */
static bool reload_text(const Frame *f, char *text, size_t cap)
{
    if (!f->info->session) return false;
    BrainHost *h = session_brains(f->info->session);
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < brain_host_brain_count(h) && n < cap; i++) {
        BrainStats st;
        if (!brain_host_brain_stats(h, i, &st) || !st.reload_error) continue;
        n += (size_t)snprintf(text + n, cap - n, "%sreload of %s failed (the old version runs on):\n", n ? "\n" : "",
                              st.file);
        /* Wrapped, so a long traceback stays inside the picture. */
        int col = 0;
        for (const char *p = st.reload_error; *p && n + 2 < cap; p++) {
            if (*p == '\n' || col >= 100) {
                text[n++] = '\n';
                col = 0;
                if (*p == '\n') continue;
            }
            text[n++] = *p == '\t' ? ' ' : *p;
            col++;
        }
        text[n < cap ? n : cap - 1] = '\0';
    }
    return n > 0;
}

/* Boxes at the bottom left, over the legend band (bottom the band's top
** row): the overlays on when the legend that names them is off, and over
** that a failed reload's error. Kept free of labels (block) or drawn. */
static void notices(const Frame *f, int bottom, bool block)
{
    char text[2048];
    int y = bottom, w, h;
    if (!f->v->legend && overlays_text(f, text, sizeof text)) {
        render_text_box_size(f, text, &w, &h);
        y -= h + PAD;
        if (block) labels_block(&f->r->labels, PAD, y, w, h);
        else frame_text_box(f, PAD, y, text, DIM);
    }
    if (reload_text(f, text, sizeof text)) {
        render_text_box_size(f, text, &w, &h);
        y -= h + PAD;
        if (block) labels_block(&f->r->labels, PAD, y, w, h);
        else frame_text_box(f, PAD, y, text, RENDER_ERROR_TEXT);
    }
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
    Renderer *r = f->r;
    int width = f->img->width, height = f->img->height;
    /* Laid out first, so the labels keep off the HUD, the panel, the
    ** storey's name and the legend. */
    Legend *legend = &r->legend;
    int band_y = height;
    if (f->v->legend) {
        build_legend(f, legend);
        band_y = height - legend_band_height(legend, r->font, width);
        labels_block(&r->labels, 0, band_y, width, height - band_y);
    }
    if (f->v->hud) hud_block(f);
    RenderStoreyLabel sl;
    if (storey_label_at(f, &sl)) labels_block(&r->labels, sl.x, sl.y, sl.w, sl.h);
    render_panel(f, true);
    notices(f, band_y, true);
    labels_place(&r->labels, r->font, width, height);
    if (r->labels.nomem) r->nomem = true;
    labels_draw(&r->labels, f->img, r->font);
    if (f->v->legend) {
        legend_band_draw(legend, f->img, r->font, band_y, f->v->zoom, &r->scale);
        r->scale_shown = true;
        r->band_y = band_y;
    }
    if (f->v->hud) hud(f);
    storey_label(f);
    render_panel(f, false);
    notices(f, band_y, false);
    help(f);
}

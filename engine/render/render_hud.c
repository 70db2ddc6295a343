/*
** render_hud.c — the text over the picture: the HUD (tick, where the
** tick's time went, routing caches, bot counts), the status line, the
** legend of what the frame drew (with the scale bar and north arrow), the
** help screen and the selected bot's panel; and the frame's labels,
** placed clear of all of these.
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

/* The size of frame_text_box's box round text. */
static void text_box_size(const Frame *f, const char *text, int *w, int *h)
{
    int lines = 1;
    for (const char *p = text; *p; p++) lines += *p == '\n' && p[1];
    *w = font_text_width(f->r->font, text, 1) + 8;
    *h = lines * font_line_height(f->r->font, 1) + 6;
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
    text_box_size(f, text, &w, &h);
    labels_block(&f->r->labels, PAD, PAD, w, h);
    if (f->v->status[0]) {
        int sw, sh;
        text_box_size(f, f->v->status, &sw, &sh);
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
static bool panel_text(const Frame *f, char *text, size_t cap, const char **fault);

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
    text_box_size(f, text, &hw, &hh);
    hw = (hw + 63) / 64 * 64; /* steady while the HUD's numbers change */
    if (l->x >= PAD + hw + PAD) return true;
    int right = f->img->width, pw, ph;
    const char *e;
    if (panel_text(f, text, sizeof text, &e)) {
        text_box_size(f, text, &pw, &ph);
        right -= pw + PAD;
    }
    if (PAD + hw + PAD + l->w + PAD <= right) {
        l->x = PAD + hw + PAD;
    } else {
        /* Under the HUD and its status line. */
        int sw = 0, sh = 0;
        if (f->v->status[0]) text_box_size(f, f->v->status, &sw, &sh);
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

static void legend_overlays(const Frame *f, Legend *l)
{
    uint32_t ov = f->v->overlays;
    char on[256] = "overlays:";
    size_t n = strlen(on);
    for (int o = 0; o < RENDER_OVERLAY_COUNT && n < sizeof on; o++)
        if (ov & RENDER_BIT(o))
            n += (size_t)snprintf(on + n, sizeof on - n, "%s %s", n > 9 ? "," : "",
                                  render_overlay_name((RenderOverlay)o));
    if (!ov) snprintf(on + n, sizeof on - n, " none");
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
}

/* What this frame drew, by name: links by travel type, floors, things,
** bots, the overlays on; "H: help" last in a window. */
static void build_legend(const Frame *f, Legend *l)
{
    legend_clear(l);
    legend_travel(l, "links:", f->travel);
    legend_contents(f, l);
    legend_things(f, l);
    legend_overlays(f, l);
    if (f->info->help) legend_add(l, LEGEND_TEXT, DIM, "H: help");
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

/* The selected bot's panel text; false when no bot is selected. *e the
** bot's last fault, NULL none. */
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
        text + n, cap - n,
        "bot %d  %s  (%s)\npos %.2f %.2f %.2f  yaw %.0f\nspeed %.2f m/s  vz %.2f\nstate %s%s%s%s%s%s%s\n"
        "say: %s\nmove %.2f %.2f  %s (%d)%s%s%s\ngoals reached %d, queued %d, skipped %d",
        id, who, world_class(f->w, b->cls)->name, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2],
        (double)b->yaw, (double)speed, (double)b->vel[2], b->on_ground ? "ground " : "air ",
        b->in_water ? "water " : "", b->on_ladder ? "ladder " : "", b->crouched ? "crouched " : "",
        b->climbing ? "climbing " : "", b->riding >= 0 ? "riding " : "", b->jumping ? "jumping" : "", b->say,
        (double)b->control.move[0], (double)b->control.move[1], b->control.reason[0] ? b->control.reason : "-",
        b->control.priority, b->control.jump ? " jump" : "", b->control.crouch ? " crouch" : "",
        b->control.use ? " use" : "", b->goals_reached, b->goal_count, b->goals_skipped);
    if (n < cap && b->arrival_time >= 0.0)
        n += (size_t)snprintf(text + n, cap - n, "\narrived at %.2f s", b->arrival_time);
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

static void panel(const Frame *f, bool block)
{
    char text[2048];
    const char *e;
    if (!panel_text(f, text, sizeof text, &e)) return;
    int w, h;
    text_box_size(f, text, &w, &h);
    if (block) labels_block(&f->r->labels, f->img->width - w - PAD, PAD, w, h);
    else frame_text_box(f, f->img->width - w - PAD, PAD, text, e ? nav_rgba(255, 200, 200, 255) : TEXT);
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
    panel(f, true);
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
    panel(f, false);
    help(f);
}

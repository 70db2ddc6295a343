/*
** render_bots.c — bots: body and heading, route and the link being taken,
** goal, this tick's move requests as arrows, hull traces, state text and
** faults. Routes, requests and traces come from what brains showed
** (sim.h, "What bots intend"); a replay poses them from its record
** (script/run_trace.h), so it draws the same.
*/
#include "render/render_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "script/run_trace.h"
#include "script/session.h"
#include "sim/sim_debug.h"
#include "grid/grid_short.h"
#include "sim/sim_unit.h"

/* Above this many bots only the selected one's route is drawn. */
#define ROUTES_FOR_ALL 64

void render_bot_goal_of(const NavSim *sim, int bot, float goal[3], bool *has)
{
    *has = false;
    if (bot < 0 || (uint32_t)bot >= sim_bot_count(sim)) return;
    const NavBot *b = sim_bot(sim, (uint32_t)bot);
    if (b->goal_count <= 0) return;
    memcpy(goal, b->goals[0], 3 * sizeof goal[0]);
    *has = true;
}

/* {======= who the bot is: from the session, or from the record ======= */

static bool bot_faulted(const Frame *f, uint32_t id)
{
    if (f->info->session) return session_bot_faulted(f->info->session, id);
    const RunTrace *t = f->info->trace;
    if (!t || f->info->frame >= t->frame_count) return false;
    const RunTraceFrame *fr = &t->frames[f->info->frame];
    for (uint32_t k = 0; k < fr->count; k++)
        if (t->bots[fr->first + k].id == id) return (t->bots[fr->first + k].flags & RUN_TRACE_FAULTED) != 0;
    return false;
}

static const char *bot_brain(const Frame *f, uint32_t id)
{
    if (f->info->session) return session_bot_brain(f->info->session, id);
    const RunTrace *t = f->info->trace;
    return t && id < t->bot_count ? t->bot_info[id].brain : "";
}

/* }======= */

static NavColor reason_color(const char *why)
{
    if (strcmp(why, "avoid") == 0) return nav_rgba(0, 230, 255, 255);
    if (strcmp(why, "climb") == 0) return nav_rgba(255, 140, 30, 255);
    if (strcmp(why, "unstick") == 0) return nav_rgba(255, 50, 50, 255);
    if (strcmp(why, "path") == 0 || strcmp(why, "goal") == 0) return nav_rgba(255, 255, 255, 255);
    return nav_rgba(190, 190, 200, 255);
}

static bool is_player(const Frame *f, uint32_t id) { return f->info->has_player && f->info->player == id; }

#define PLAYER_COLOR nav_rgba(255, 170, 20, 255)

/* One colour per brain, so mixed crowds can be told apart. */
static NavColor brain_color(const char *brain)
{
    uint32_t h = 2166136261u;
    for (const char *p = brain; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    NavColor c = render_cluster_tint(h % 97u);
    return render_mix(c, nav_rgba(40, 60, 200, 255), 0.35f);
}

static NavColor bot_color(const Frame *f, uint32_t id)
{
    if (bot_faulted(f, id)) return nav_rgba(230, 30, 30, 255);
    if (is_player(f, id)) return PLAYER_COLOR;
    return brain_color(bot_brain(f, id));
}

static void polyline_to(const Frame *f, float *px, float *py, const float p[3], float thick, NavColor c)
{
    float qx, qy;
    frame_to_px(f, p[0], p[1], &qx, &qy);
    image_draw_line(f->img, *px, *py, qx, qy, thick, c);
    *px = qx, *py = qy;
}

static void draw_route(Frame *f, const NavBot *b, const SimBotShow *sh, bool selected)
{
    float px, py;
    frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
    float thick = selected ? 2.5f : 1.5f;
    f->things |= RENDER_THING_ROUTE;
    if (sh->path_count > 0) {
        /* A unit's detour round other units (its first points) in amber. */
        for (int i = 0; i < sh->path_count; i++)
            polyline_to(f, &px, &py, sh->path[i], thick,
                        i < sh->detour_count ? nav_rgba(255, 190, 60, selected ? 240 : 190)
                                             : nav_rgba(255, 255, 255, selected ? 230 : 150));
        return;
    }
    NavError err;
    nav_error_clear(&err);
    NavRouter *router = sim_router(f->sim, sh->cls, &err);
    if (!router || sh->link_count == 0) return;
    const NavAreaGraph *ag = router_graph(router);
    uint32_t here = area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]);
    /* The link being taken: the first that leaves the area the bot is in,
    ** else (mid-link, in the air, on a lift) the route's first. */
    int taking = 0;
    for (int i = 0; i < sh->link_count; i++)
        if (sh->links[i] < area_reach_count(ag) && area_reach(ag, sh->links[i])->from == here) {
            taking = i;
            break;
        }
    for (int i = taking; i < sh->link_count; i++) {
        if (sh->links[i] >= area_reach_count(ag)) break;
        const NavReach *re = area_reach(ag, sh->links[i]);
        NavColor walk = nav_rgba(255, 255, 255, selected ? 230 : 150);
        polyline_to(f, &px, &py, re->start, thick, walk);
        NavColor c = re->type == NAV_TRAVEL_WALK ? walk : render_travel_color((NavTravelType)re->type);
        float sx = px, sy = py;
        polyline_to(f, &px, &py, re->end, i == taking ? thick + 2.5f : thick, c);
        if (re->type != NAV_TRAVEL_WALK) frame_drew_travel(f, re->type, sx, sy, px, py);
        if (i == taking && re->type != NAV_TRAVEL_WALK) {
            image_fill_circle(f->img, sx, sy, 4.0f, c);
            if (selected || f->v->zoom >= 10.0f)
                frame_label(f, RENDER_LABEL_LINK, sx, sy, 4.0f, 5, -13, area_travel_name((NavTravelType)re->type), NULL,
                            c);
        }
    }
}

static void draw_requests(const Frame *f, const NavBot *b, const SimBotShow *sh)
{
    float px, py;
    frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
    float len = fmaxf(frame_px(f, 1.5f), 22.0f);
    for (int i = 0; i < sh->req_count; i++) {
        const SimShowRequest *q = &sh->req[i];
        float m = sqrtf(q->dir[0] * q->dir[0] + q->dir[1] * q->dir[1]);
        if (m < 1e-4f) continue;
        bool won = strcmp(q->reason, b->control.reason) == 0 && q->priority == b->control.priority;
        float k = len * fminf(m, 1.0f) / m;
        frame_arrow(f, px, py, px + q->dir[0] * k, py - q->dir[1] * k, won ? 2.5f : 1.2f, reason_color(q->reason));
    }
}

static void draw_traces(const Frame *f, const SimBotShow *sh)
{
    for (int i = 0; i < sh->trace_count; i++) {
        const SimShowTrace *t = &sh->traces[i];
        NavColor c = t->hit ? nav_rgba(255, 60, 60, 220) : nav_rgba(60, 255, 120, 200);
        float x0, y0, x1, y1;
        frame_to_px(f, t->start[0], t->start[1], &x0, &y0);
        frame_to_px(f, t->end[0], t->end[1], &x1, &y1);
        image_draw_line(f->img, x0, y0, x1, y1, 1.0f, c);
        float mn[3] = { t->end[0] - t->half[0], t->end[1] - t->half[1], 0 };
        float mx[3] = { t->end[0] + t->half[0], t->end[1] + t->half[1], 0 };
        frame_box(f, mn, mx, nav_rgba(0, 0, 0, 0), c);
    }
}

static void draw_goal(Frame *f, const NavBot *b, bool selected)
{
    if (b->goal_count <= 0) return;
    float gx, gy, px, py;
    frame_to_px(f, b->goals[0][0], b->goals[0][1], &gx, &gy);
    NavColor c = nav_rgba(255, 215, 0, selected ? 255 : 160);
    if (frame_shows(f, b->goals[0][0], b->goals[0][1], b->goals[0][0], b->goals[0][1]))
        f->things |= RENDER_THING_BOT_GOAL;
    image_draw_line(f->img, gx - 5, gy - 5, gx + 5, gy + 5, 2.0f, c);
    image_draw_line(f->img, gx - 5, gy + 5, gx + 5, gy - 5, 2.0f, c);
    if (selected) {
        frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
        float r = fmaxf(frame_px(f, b->goals[0][3]), 4.0f);
        image_draw_line(f->img, gx - r, gy, gx + r, gy, 1.0f, c);
        image_draw_line(f->img, gx, gy - r, gx, gy + r, 1.0f, c);
    }
}

/* A bot was drawn: its brain (or the player, or a fault) goes in the legend. */
static void drew_bot(Frame *f, uint32_t id, float px, float py, float r)
{
    if (px + r < 0.0f || py + r < 0.0f || px - r > (float)f->img->width || py - r > (float)f->img->height) return;
    if (bot_faulted(f, id)) f->things |= RENDER_THING_FAULTED;
    if (is_player(f, id)) {
        f->things |= RENDER_THING_PLAYER;
        return;
    }
    const char *brain = bot_brain(f, id);
    char name[32];
    snprintf(name, sizeof name, "%.31s", *brain ? brain : "no brain");
    for (int k = 0; k < f->brain_count; k++)
        if (strcmp(f->brains[k], name) == 0) return;
    if (f->brain_count >= RENDER_LEGEND_BRAINS) return;
    snprintf(f->brains[f->brain_count], sizeof f->brains[0], "%s", name);
    f->brain_colors[f->brain_count++] = brain_color(brain);
}

static void draw_body(Frame *f, const NavBot *b, uint32_t id, bool selected)
{
    const NavClass *cl = world_class(f->w, b->cls);
    float px, py;
    frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
    float r = fmaxf(frame_px(f, cl->radius), 3.0f);
    bool bad = bot_faulted(f, id), player = is_player(f, id);
    if (selected) image_fill_circle(f->img, px, py, r + 4.0f, nav_rgba(255, 255, 255, 230));
    if (player) {
        /* A white ring round a black one: the player stands out in a crowd. */
        image_fill_circle(f->img, px, py, r + (selected ? 7.0f : 4.0f), nav_rgba(255, 255, 255, 255));
        image_fill_circle(f->img, px, py, r + (selected ? 5.0f : 2.5f), nav_rgba(10, 10, 14, 255));
    }
    image_fill_circle(f->img, px, py, r + 1.0f, nav_rgba(10, 10, 14, 255));
    NavColor body = bot_color(f, id);
    if (b->crouched) body = render_mix(body, nav_rgba(0, 0, 0, 255), 0.35f);
    image_fill_circle(f->img, px, py, r, body);
    if (b->in_water) image_fill_circle(f->img, px, py, 0.5f * r, nav_rgba(120, 200, 255, 255));
    if (b->on_ladder || b->climbing) image_fill_circle(f->img, px, py, 0.5f * r, nav_rgba(160, 100, 40, 255));
    if (b->riding >= 0) image_fill_circle(f->img, px, py, 0.5f * r, nav_rgba(20, 20, 20, 255));
    float yaw = b->yaw * (float)NAV_PI / 180.0f;
    image_draw_line(f->img, px, py, px + cosf(yaw) * (r + 5.0f), py - sinf(yaw) * (r + 5.0f), 2.0f,
                    nav_rgba(255, 255, 255, 255));
    if (bad) {
        float k = r + 3.0f;
        image_draw_line(f->img, px - k, py - k, px + k, py + k, 3.0f, nav_rgba(255, 0, 0, 255));
        image_draw_line(f->img, px - k, py + k, px + k, py - k, 3.0f, nav_rgba(255, 0, 0, 255));
    }
    drew_bot(f, id, px, py, r);
    float gap = r + (player ? (selected ? 7.0f : 4.0f) : selected ? 4.0f : 1.0f);
    if (player) {
        /* Always named, whatever the zoom and the crowd. */
        char text[SIM_SAY_MAX + BRAIN_NAME_MAX + 32];
        const char *brain = bot_brain(f, id);
        snprintf(text, sizeof text, "player%s%s%s%s", *brain ? " (" : "", brain, *brain ? ")" : "",
                 bad ? ": FAULTED" : "");
        RenderLabel *l =
            labels_add(&f->r->labels, RENDER_LABEL_PLAYER, px, py, gap, (int)(r + 6.0f), (int)(-r - 6.0f), text,
                       bad ? "player: FAULTED" : "player", bad ? nav_rgba(255, 120, 120, 255) : PLAYER_COLOR);
        if (l) l->boxed = true;
    } else if (selected || (f->v->labels && f->v->zoom >= 8.0f && sim_bot_count(f->sim) <= ROUTES_FOR_ALL)) {
        /* Short of room: the id and brain, then the id alone. */
        char text[SIM_SAY_MAX + BRAIN_NAME_MAX + 32], brief[BRAIN_NAME_MAX + 16];
        snprintf(text, sizeof text, "%u %s%s%s", id, bot_brain(f, id), b->say[0] ? ": " : "", bad ? "FAULTED" : b->say);
        snprintf(brief, sizeof brief, "%u%s", id, bad ? " FAULTED" : "");
        frame_label(f, selected ? RENDER_LABEL_SELECTED : RENDER_LABEL_BOT, px, py, gap, (int)(r + 3.0f),
                    (int)(-r - 5.0f), text, brief, bad ? nav_rgba(255, 120, 120, 255) : nav_rgba(255, 255, 255, 255));
    }
}

static void ring(NavImage *img, float x, float y, float r, float thick, NavColor c)
{
    const int SEGMENTS = 32;
    for (int k = 0; k < SEGMENTS; k++) {
        float a0 = 2.0f * (float)NAV_PI * (float)k / (float)SEGMENTS;
        float a1 = 2.0f * (float)NAV_PI * (float)(k + 1) / (float)SEGMENTS;
        image_draw_line(img, x + r * cosf(a0), y + r * sinf(a0), x + r * cosf(a1), y + r * sinf(a1), thick, c);
    }
}

/* Is the bot on the storey shown (every bot is when all floors are)? */
static bool on_storey(const Frame *f, const NavBot *b)
{
    int n = render_level_count(f->r, f->w);
    if (f->v->level < 0 || f->v->level >= n) return true;
    return render_level_at(f->r, f->w, b->pos[2]) == f->v->level;
}

/* A bot on another storey: a ring in its colour with nothing inside (the
** floor shown stays visible through it) and the number of its storey, so
** the crowd is known about without being mistaken for this floor's. */
static void draw_elsewhere(Frame *f, const NavBot *b, uint32_t id, bool selected)
{
    const NavClass *cl = world_class(f->w, b->cls);
    float px, py;
    frame_to_px(f, b->pos[0], b->pos[1], &px, &py);
    float r = fmaxf(frame_px(f, cl->radius), 4.0f);
    NavColor c = bot_faulted(f, id) ? nav_rgba(230, 30, 30, 255) : bot_color(f, id);
    ring(f->img, px, py, r, selected ? 3.0f : 2.0f, c);
    if (selected) ring(f->img, px, py, r + 3.0f, 1.0f, nav_rgba(255, 255, 255, 230));
    if (frame_shows(f, b->pos[0], b->pos[1], b->pos[0], b->pos[1])) f->things |= RENDER_THING_ELSEWHERE;
    char text[32], brief[12];
    int storey = render_level_at(f->r, f->w, b->pos[2]) + 1;
    snprintf(text, sizeof text, "%s%d", is_player(f, id) ? "player, storey " : "", storey);
    snprintf(brief, sizeof brief, "%d", storey);
    frame_label(f, is_player(f, id) ? RENDER_LABEL_PLAYER : RENDER_LABEL_ELSEWHERE, px, py, r + 1.0f, (int)(r + 1.0f),
                (int)(-r - 3.0f), text, brief, c);
}

/* Formations: each member's slot, a small hollow square, joined to the
** member when it is more than a metre off it; the anchor a cross. */
static void draw_formations(const Frame *f)
{
    NavSim *sim = f->sim;
    for (int id = 1; id <= sim_formation_count(sim); id++) {
        NavFormationInfo in;
        if (!sim_formation_info(sim, id, &in) || in.status == NAV_FORMATION_IDLE) continue;
        NavColor c = nav_rgba(120, 220, 255, 200);
        float ax, ay;
        frame_to_px(f, in.x, in.y, &ax, &ay);
        image_draw_line(f->img, ax - 5, ay - 5, ax + 5, ay + 5, 2.0f, c);
        image_draw_line(f->img, ax - 5, ay + 5, ax + 5, ay - 5, 2.0f, c);
        float h = fmaxf(frame_px(f, 0.25f), 2.0f);
        for (int k = 0; k < in.members; k++) {
            uint32_t bot;
            float xy[2];
            if (!sim_formation_slot(sim, id, k, &bot, xy)) break;
            float sx, sy;
            frame_to_px(f, xy[0], xy[1], &sx, &sy);
            image_draw_line(f->img, sx - h, sy - h, sx + h, sy - h, 1.0f, c);
            image_draw_line(f->img, sx + h, sy - h, sx + h, sy + h, 1.0f, c);
            image_draw_line(f->img, sx + h, sy + h, sx - h, sy + h, 1.0f, c);
            image_draw_line(f->img, sx - h, sy + h, sx - h, sy - h, 1.0f, c);
            const NavBot *b = sim_bot(sim, bot);
            if (b && hypotf(b->pos[0] - xy[0], b->pos[1] - xy[1]) > 1.0f) {
                float bx, by;
                frame_to_px(f, b->pos[0], b->pos[1], &bx, &by);
                image_draw_line(f->img, bx, by, sx, sy, 1.0f, nav_rgba(120, 220, 255, 90));
            }
        }
    }
}

/* The last detour search (overlay "explored", with the grid search's
** cells): outline edges of blocked cells dim, other units' grown squares
** amber, the search square grey, corner vertices as dots (filled when
** expanded). */
static void short_edge(void *user, float ax, float ay, float bx, float by, GridShortEdgeKind kind)
{
    const Frame *f = user;
    float x0, y0, x1, y1;
    frame_to_px(f, ax, ay, &x0, &y0);
    frame_to_px(f, bx, by, &x1, &y1);
    NavColor c = kind == GRID_SHORT_EDGE_SQUARE  ? nav_rgba(255, 190, 60, 200)
                 : kind == GRID_SHORT_EDGE_RANGE ? nav_rgba(200, 200, 200, 120)
                                                 : nav_rgba(255, 120, 120, 160);
    image_draw_line(f->img, x0, y0, x1, y1, 1.0f, c);
}

static void short_vertex(void *user, float x, float y, GridShortVertexKind kind, bool reached, bool expanded)
{
    const Frame *f = user;
    (void)kind;
    if (!reached) return;
    float px, py;
    frame_to_px(f, x, y, &px, &py);
    image_fill_circle(f->img, px, py, expanded ? 2.5f : 1.5f, nav_rgba(255, 230, 120, expanded ? 230 : 140));
}

void render_bots(Frame *f)
{
    NavSim *sim = f->sim;
    uint32_t n = sim_bot_count(sim);
    int sel = f->v->selected;
    bool all_routes = n <= ROUTES_FOR_ALL;
    uint64_t tick = sim_tick(sim);
    /* Routes first, under every body. */
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        if (!on_storey(f, b)) continue;
        bool selected = (int)i == sel;
        if (!all_routes && !selected) continue;
        const SimBotShow *sh = sim_show_peek(sim, i);
        if (sh) draw_route(f, b, sh, selected);
        draw_goal(f, b, selected);
    }
    draw_formations(f);
    if (f->v->overlays & RENDER_BIT(RENDER_EXPLORED))
        sim_unit_visit_short(sim, &(GridShortVisitor){ .edge = short_edge, .vertex = short_vertex, .user = f });
    /* Bots of other storeys under this storey's bodies. */
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        if (!on_storey(f, b)) draw_elsewhere(f, b, i, (int)i == sel);
    }
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        if (!on_storey(f, b) || (int)i == sel) continue;
        draw_body(f, b, i, false);
    }
    if (sel >= 0 && (uint32_t)sel < n && on_storey(f, sim_bot(sim, (uint32_t)sel)))
        draw_body(f, sim_bot(sim, (uint32_t)sel), (uint32_t)sel, true);
    /* This tick's intent on top: made while the brains thought before the
    ** last step, so tagged with the tick before the current one. */
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        const SimBotShow *sh = sim_show_peek(sim, i);
        if (!sh || sh->tick + 1 != tick || !on_storey(f, b)) continue;
        if (!all_routes && (int)i != sel) continue;
        draw_requests(f, b, sh);
        if (f->v->overlays & RENDER_BIT(RENDER_TRACES)) draw_traces(f, sh);
    }
}

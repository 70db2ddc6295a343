/*
** window.c — the SDL2 simulation window: the renderer's canvas shown as a
** streaming texture, the simulation advanced at its tick rate times the
** time scale, and the controls (player.h, PLAYER_KEYS). Also the player
** the window and headless runs share.
**
** Everything drawn comes from render/: the window only turns input into
** view changes and simulation commands.
*/
#include "cli/player.h"

#include <SDL.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render/snapshot.h"

/* {======= the player ======= */

/* The tick just played goes into the history. */
static void remember(Player *p)
{
    if (!p->history) return;
    RenderInfo info;
    player_info(p, &info);
    render_history_record(p->history, p->sim, &info);
}

bool player_step(Player *p)
{
    if (p->session) {
        session_step(p->session);
        if (p->record) run_trace_tick(p->record, p->session);
        remember(p);
        return true;
    }
    if (!p->trace || p->frame + 1 >= p->trace->frame_count) return false;
    run_trace_pose(p->trace, ++p->frame, p->sim);
    remember(p);
    return true;
}

void player_seek(Player *p, int64_t frame)
{
    if (!p->trace) return;
    if (frame < 0) frame = 0;
    if (frame >= (int64_t)p->trace->frame_count) frame = (int64_t)p->trace->frame_count - 1;
    p->frame = (uint32_t)frame;
    run_trace_pose(p->trace, p->frame, p->sim);
    render_history_replay(p->history, p->trace, p->frame, p->sim);
}

void player_info(const Player *p, RenderInfo *info)
{
    memset(info, 0, sizeof *info);
    info->session = p->session;
    info->trace = p->trace;
    info->frame = p->frame;
    info->title = p->title;
    info->mode = p->trace ? "replay" : "sim";
    bool driving = p->body && player_body_drive(p->body) == PLAYER_DRIVE_INPUT;
    info->help = driving ? PLAYER_KEYS_DRIVING : PLAYER_KEYS;
    if (p->body) {
        info->has_player = true;
        info->player = player_body_bot(p->body);
    }
    info->history = p->history;
}

const char *const PLAYER_KEYS =
    "Space      run / pause               . or N   one tick (paused)\n"
    "+ / -      time scale x2 / half      0        time scale 1\n"
    "wheel      zoom at the cursor        drag     pan (left or middle button)\n"
    "arrows     pan (replay: seek 1 s, shift 10 s; [ ] one tick)\n"
    "Home       the whole map             F        follow the selected bot\n"
    "Tab        select the next bot       left click   a bot: select it;\n"
    "                                          elsewhere: what is there (area, cell, time)\n"
    "right click  send the selected bot there (shift: queue it as another goal)\n"
    "O          drop a 1 m obstacle at the cursor   Delete  remove the obstacle there\n"
    "G          heat map goal at the cursor (again: back to the selected bot's goal)\n"
    "PgUp/PgDn  storey shown (stacked maps)   S  the storey follows the selected bot\n"
    "C          next mover class\n"
    "1 areas  2 links  3 clusters  4 heat map  5 grid  6 regions\n"
    "7 explored cells  8 obstacles  9 hull traces  M the selected bot's memory\n"
    "B          trails: where each bot went lately, by travel type, fading with age\n"
    "P          preview a house's footprint under the cursor (again: bigger, then off)\n"
    "           green: may be built; red: why not; blue: spawn points   Y  turn it 15 deg\n"
    "L legend   U HUD   T labels   R reload scripts (also when saved)\n"
    "F12        screenshot (PNG)          H        this help     Esc / Q  quit\n"
    "(Enter also runs / pauses, V makes the storey follow, K picks the class)";

const char *const PLAYER_KEYS_DRIVING =
    "The keys drive the player (the amber body in a white ring):\n"
    "W A S D / arrows  move (up is north)     Space  jump (in water: jump out)\n"
    "C (held)   crouch; on a ladder: climb down   E (held)  use: a lift leaves now\n"
    "mouse      where the player faces        ladders: walk into the wall to climb,\n"
    "                                         away from it (or C) to climb down\n"
    "Enter      run / pause               . or N   one tick (paused)\n"
    "+ / -      time scale x2 / half      0        time scale 1\n"
    "wheel      zoom at the cursor        drag     pan (F: stop or start following)\n"
    "Home       the whole map             F        follow the selected bot\n"
    "Tab        select the next bot       left click   a bot: select it; elsewhere: what is there\n"
    "right click  send the selected bot there (shift: queue it as another goal)\n"
    "O          drop a 1 m obstacle at the cursor   Delete  remove the obstacle there\n"
    "G          heat map goal at the cursor (again: back to the selected bot's goal)\n"
    "PgUp/PgDn  storey shown              V        the storey follows the selected bot\n"
    "K          next mover class\n"
    "1 areas  2 links  3 clusters  4 heat map  5 grid  6 regions\n"
    "7 explored cells  8 obstacles  9 hull traces  M the selected bot's memory\n"
    "B          trails: where each bot went lately, by travel type, fading with age\n"
    "P          preview a house's footprint (again: bigger, then off)   Y  turn it 15 deg\n"
    "L legend   U HUD   T labels   R reload scripts (also when saved)\n"
    "F12        screenshot (PNG)          H        this help     Esc / Q  quit";

/* }======= */

/* {======= the window ======= */

typedef struct Win {
    const CliContext *cx;
    Player *p;
    RenderView *v;
    Renderer *r;
    NavImage *img;
    SDL_Window *window;
    SDL_Renderer *sdl;
    SDL_Texture *tex;
    bool paused, follow, quit, dragging;
    bool follow_storey; /* S: the storey shown is the selected bot's */
    int drag_x, drag_y, press_x, press_y, mouse_x, mouse_y;
    bool driving;      /* the keys drive p->body */
    bool jump_pressed; /* Space went down since the last tick */
    bool mouse_in;     /* the pointer is over the window */
    float time_scale;
    double fps;
} Win;

static bool make_canvas(Win *w, int width, int height)
{
    NavError err;
    if (w->img && w->img->width == width && w->img->height == height) return true;
    image_destroy(w->img);
    if (w->tex) SDL_DestroyTexture(w->tex);
    w->img = image_create(width, height, &err);
    w->tex = SDL_CreateTexture(w->sdl, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, width, height);
    return w->img && w->tex;
}

static void status(Win *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The line under the HUD. */
static void status(Win *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->v->status, sizeof w->v->status, fmt, ap);
    va_end(ap);
}

static void cursor_world(const Win *w, float *x, float *y)
{
    render_to_world(w->v, w->img->width, w->img->height, (float)w->mouse_x, (float)w->mouse_y, x, y);
}

/* The floor height under (x, y) as the floor selector shows it. */
static float floor_z(const Win *w, float x, float y)
{
    const NavWorld *wd = sim_world(w->p->sim);
    float top = w->v->level >= 0 ? render_level_z(w->r, wd, w->v->level + 1) : INFINITY;
    const NavFloor *f = world_floor_at(wd, x, y, isfinite(top) ? top - 0.1f : 1e6f, isfinite(top) ? top : 2e6f);
    return f ? world_standing_height(f) : 0.0f;
}

static void screenshot(Win *w)
{
    char path[200];
    snprintf(path, sizeof path, "%.150s/navbot-%s-%06llu.png", w->p->shots ? w->p->shots : ".",
             w->p->trace ? "replay" : "sim", (unsigned long long)sim_tick(w->p->sim));
    NavError err;
    if (NAV_SUCCEEDED(image_write_png(w->img, path, &err))) {
        status(w, "screenshot: %s", path);
        fprintf(w->cx->err, "navbot: screenshot %s\n", path);
    } else {
        status(w, "screenshot failed: %s", err.message);
    }
}

static void zoom_at(Win *w, int mx, int my, float factor)
{
    float x0, y0, x1, y1;
    render_to_world(w->v, w->img->width, w->img->height, (float)mx, (float)my, &x0, &y0);
    w->v->zoom = fminf(fmaxf(w->v->zoom * factor, 0.2f), 400.0f);
    render_to_world(w->v, w->img->width, w->img->height, (float)mx, (float)my, &x1, &y1);
    w->v->center[0] += x0 - x1;
    w->v->center[1] += y0 - y1;
}

static void obstacle_key(Win *w, bool drop)
{
    float x, y;
    cursor_world(w, &x, &y);
    NavSim *sim = w->p->sim;
    if (!w->p->session) {
        status(w, "%s", "a replay shows what was recorded: obstacles cannot change");
        return;
    }
    if (drop) {
        float z = floor_z(w, x, y);
        float mn[3] = { x - 0.5f, y - 0.5f, z }, mx[3] = { x + 0.5f, y + 0.5f, z + 2.0f };
        uint32_t id = sim_add_obstacle(sim, mn, mx);
        if (id) status(w, "obstacle %u dropped", id);
        else status(w, "no memory for an obstacle");
        return;
    }
    for (uint32_t i = sim_obstacle_count(sim); i-- > 0;) {
        uint32_t id;
        float mn[3], mx[3];
        if (!sim_obstacle_at(sim, i, &id, mn, mx)) continue;
        if (x >= mn[0] && x <= mx[0] && y >= mn[1] && y <= mx[1]) {
            sim_remove_obstacle(sim, id);
            status(w, "obstacle %u removed", id);
            return;
        }
    }
    status(w, "%s", "no obstacle under the cursor");
}

/* PgUp/PgDn: a storey picked by hand stops following the bot. */
static void storey_chosen(Win *w)
{
    const NavWorld *wd = sim_world(w->p->sim);
    if (w->follow_storey) w->follow_storey = false;
    if (w->v->level < 0) status(w, "%s", "all storeys, seen from above");
    else
        status(w, "storey %d of %d: %s", w->v->level + 1, render_level_count(w->r, wd),
               render_level_name(w->r, wd, w->v->level));
}

static void click(Win *w, int button, bool shift)
{
    NavSim *sim = w->p->sim;
    float x, y;
    cursor_world(w, &x, &y);
    if (button == SDL_BUTTON_LEFT) {
        int b =
            render_pick_bot_shown(w->r, sim, w->v, w->img->width, w->img->height, (float)w->mouse_x, (float)w->mouse_y);
        if (b >= 0) {
            w->v->selected = b;
            w->v->status[0] = '\0';
            render_invalidate(w->r); /* the heat map follows the selection */
            return;
        }
        render_query(w->r, sim, w->v, x, y, w->v->status, sizeof w->v->status);
    } else if (button == SDL_BUTTON_RIGHT) {
        if (w->v->selected < 0) {
            status(w, "%s", "select a bot first (left click), then right click where it should go");
            return;
        }
        if (!w->p->session) {
            status(w, "%s", "a replay cannot give goals");
            return;
        }
        if (w->driving && (uint32_t)w->v->selected == player_body_bot(w->p->body)) {
            status(w, "%s", "the player goes where your keys take it: select a bot (Tab) to send it");
            return;
        }
        float p[3] = { x, y, floor_z(w, x, y) };
        if (!shift) sim_bot_clear_goals(sim, (uint32_t)w->v->selected);
        bool ok = sim_bot_push_goal(sim, (uint32_t)w->v->selected, p, 0.0f);
        status(w, "bot %d: goal (%.1f, %.1f, %.1f)%s", w->v->selected, (double)p[0], (double)p[1], (double)p[2],
               ok ? "" : " refused: its queue is full");
    }
}

/* S (V): the storey shown follows the selected bot, or no longer. */
static void storey_follows(Win *w)
{
    w->follow_storey = !w->follow_storey;
    if (w->follow_storey && render_level_count(w->r, sim_world(w->p->sim)) == 0)
        status(w, "%s", "the storey follows the selected bot (this map has one storey)");
    else status(w, "the storey %s the selected bot", w->follow_storey ? "follows" : "no longer follows");
}

/* C (K): the next mover class for the overlays. */
static void next_class(Win *w)
{
    const NavWorld *wd = sim_world(w->p->sim);
    if (world_class_count(wd)) w->v->cls = (w->v->cls + 1) % world_class_count(wd);
    status(w, "class: %s", world_class_count(wd) ? world_class(wd, w->v->cls)->name : "none");
}

/* {======= driving the player ======= */

/* The keys that drive the player, by their place on the keyboard (W A S
** D on any layout) or their name (the arrows). */
static bool drive_key(SDL_Scancode sc)
{
    switch (sc) {
    case SDL_SCANCODE_W:
    case SDL_SCANCODE_A:
    case SDL_SCANCODE_S:
    case SDL_SCANCODE_D:
    case SDL_SCANCODE_UP:
    case SDL_SCANCODE_DOWN:
    case SDL_SCANCODE_LEFT:
    case SDL_SCANCODE_RIGHT:
    case SDL_SCANCODE_C:
    case SDL_SCANCODE_E:
    case SDL_SCANCODE_SPACE: return true;
    default: return false;
    }
}

/* The player's controls for the tick about to move (player_body.h): the
** keys held now, a jump pressed since the last tick, the mouse's point. */
static void drive_input(void *user, NavSim *sim, uint32_t bot, PlayerControls *out)
{
    Win *w = user;
    const Uint8 *ks = SDL_GetKeyboardState(NULL);
    PlayerKeys k;
    memset(&k, 0, sizeof k);
    k.north = ks[SDL_SCANCODE_W] || ks[SDL_SCANCODE_UP];
    k.south = ks[SDL_SCANCODE_S] || ks[SDL_SCANCODE_DOWN];
    k.west = ks[SDL_SCANCODE_A] || ks[SDL_SCANCODE_LEFT];
    k.east = ks[SDL_SCANCODE_D] || ks[SDL_SCANCODE_RIGHT];
    k.jump = ks[SDL_SCANCODE_SPACE] || w->jump_pressed;
    k.crouch = ks[SDL_SCANCODE_C];
    k.use = ks[SDL_SCANCODE_E];
    w->jump_pressed = false;
    if (w->mouse_in && w->img) {
        float x, y;
        cursor_world(w, &x, &y);
        k.look = true;
        k.look_at[0] = x, k.look_at[1] = y, k.look_at[2] = floor_z(w, x, y);
    }
    player_keys_controls(sim, bot, &k, out);
}

/* }======= */

static void key(Win *w, SDL_Keycode k, SDL_Scancode sc, bool shift)
{
    RenderView *v = w->v;
    const NavWorld *wd = sim_world(w->p->sim);
    float pan = 60.0f / v->zoom;
    int64_t second = w->p->trace ? w->p->trace->hz : 30;
    if (w->driving && drive_key(sc)) {
        /* Read as held at each tick; a jump tapped between ticks is kept. */
        if (sc == SDL_SCANCODE_SPACE) w->jump_pressed = true;
        return;
    }
    switch (k) {
    case SDLK_ESCAPE:
    case SDLK_q: w->quit = true; break;
    case SDLK_SPACE:
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
    case SDLK_PAUSE: w->paused = !w->paused; break;
    case SDLK_PERIOD:
    case SDLK_n:
        if (w->paused) player_step(w->p);
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: w->time_scale = fminf(w->time_scale * 2.0f, 64.0f); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: w->time_scale = fmaxf(w->time_scale * 0.5f, 1.0f / 64.0f); break;
    case SDLK_0: w->time_scale = 1.0f; break;
    case SDLK_LEFT:
        if (w->p->trace) player_seek(w->p, (int64_t)w->p->frame - (shift ? 10 : 1) * second);
        else v->center[0] -= pan;
        break;
    case SDLK_RIGHT:
        if (w->p->trace) player_seek(w->p, (int64_t)w->p->frame + (shift ? 10 : 1) * second);
        else v->center[0] += pan;
        break;
    case SDLK_LEFTBRACKET: player_seek(w->p, (int64_t)w->p->frame - 1); break;
    case SDLK_RIGHTBRACKET: player_seek(w->p, (int64_t)w->p->frame + 1); break;
    case SDLK_UP: v->center[1] += pan; break;
    case SDLK_DOWN: v->center[1] -= pan; break;
    case SDLK_HOME: {
        RenderView fit;
        render_view_fit(&fit, wd, w->img->width, w->img->height);
        v->center[0] = fit.center[0], v->center[1] = fit.center[1], v->zoom = fit.zoom;
        if (w->p->trace && shift) player_seek(w->p, 0);
        break;
    }
    case SDLK_END:
        if (w->p->trace) player_seek(w->p, (int64_t)w->p->trace->frame_count - 1);
        break;
    case SDLK_f: w->follow = !w->follow; break;
    case SDLK_TAB: {
        uint32_t n = sim_bot_count(w->p->sim);
        if (n) v->selected = (int)(((uint32_t)(v->selected + 1)) % n);
        render_invalidate(w->r);
        break;
    }
    case SDLK_o: obstacle_key(w, true); break;
    case SDLK_DELETE:
    case SDLK_BACKSPACE: obstacle_key(w, false); break;
    case SDLK_g:
        if (v->heat_goal_set) {
            v->heat_goal_set = false;
            status(w, "%s", "heat map: the selected bot's goal");
        } else {
            float x, y;
            cursor_world(w, &x, &y);
            v->heat_goal[0] = x, v->heat_goal[1] = y, v->heat_goal[2] = floor_z(w, x, y);
            v->heat_goal_set = true;
            v->overlays |= RENDER_BIT(RENDER_HEAT);
            status(w, "%s", "heat map: travel time to the cursor's point");
        }
        break;
    case SDLK_PAGEUP: {
        int n = render_level_count(w->r, wd);
        if (n) v->level = v->level < 0 ? n - 1 : v->level == n - 1 ? -1 : v->level + 1;
        storey_chosen(w);
        break;
    }
    case SDLK_PAGEDOWN: {
        int n = render_level_count(w->r, wd);
        if (n) v->level = v->level < 0 ? n - 1 : v->level == 0 ? -1 : v->level - 1;
        storey_chosen(w);
        break;
    }
    case SDLK_s:
    case SDLK_v: storey_follows(w); break;
    case SDLK_c:
    case SDLK_k: next_class(w); break;
    case SDLK_l: v->legend = !v->legend; break;
    case SDLK_u: v->hud = !v->hud; break;
    case SDLK_t: v->labels = !v->labels; break;
    case SDLK_h:
    case SDLK_F1: v->help = !v->help; break;
    case SDLK_r:
        if (w->p->session) {
            int n = session_reload_changed(w->p->session);
            /* A failure is shown in red until a reload succeeds (render_hud.c). */
            status(w, "reload: %d brain(s) changed on disk and were reloaded", n);
        }
        break;
    case SDLK_p: {
        /* Footprints to preview, then none again. */
        static const float SIZES[][2] = { { 6, 6 }, { 10, 8 }, { 16, 12 } };
        int n = (int)(sizeof SIZES / sizeof SIZES[0]), at = 0;
        while (v->place_on && at < n && !(SIZES[at][0] == v->place[2] && SIZES[at][1] == v->place[3])) at++;
        at = v->place_on ? at + 1 : 0;
        v->place_on = at < n;
        if (v->place_on) {
            v->place[2] = SIZES[at][0], v->place[3] = SIZES[at][1];
            cursor_world(w, &v->place[0], &v->place[1]);
            status(w, "placing a %.0f x %.0f m house: Y turns it, P the next size", (double)v->place[2],
                   (double)v->place[3]);
        } else {
            status(w, "%s", "placement preview off");
        }
        break;
    }
    case SDLK_y: v->place[4] = fmodf(v->place[4] + (shift ? 345.0f : 15.0f), 360.0f); break;
    case SDLK_m: v->overlays ^= RENDER_BIT(RENDER_MEMORY); break;
    case SDLK_b: v->overlays ^= RENDER_BIT(RENDER_TRAILS); break;
    case SDLK_F12: screenshot(w); break;
    default:
        if (k >= SDLK_1 && k <= SDLK_9) {
            int o = (int)(k - SDLK_1);
            if (o < RENDER_OVERLAY_COUNT) v->overlays ^= RENDER_BIT(o);
        }
        break;
    }
}

static void events(Win *w)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        switch (e.type) {
        case SDL_QUIT: w->quit = true; break;
        case SDL_KEYDOWN: key(w, e.key.keysym.sym, e.key.keysym.scancode, (e.key.keysym.mod & KMOD_SHIFT) != 0); break;
        case SDL_MOUSEWHEEL: zoom_at(w, w->mouse_x, w->mouse_y, e.wheel.y > 0 ? 1.25f : 0.8f); break;
        case SDL_MOUSEMOTION:
            w->mouse_x = e.motion.x, w->mouse_y = e.motion.y;
            w->mouse_in = true;
            if (w->dragging) {
                w->v->center[0] -= (float)(e.motion.x - w->drag_x) / w->v->zoom;
                w->v->center[1] += (float)(e.motion.y - w->drag_y) / w->v->zoom;
                w->drag_x = e.motion.x, w->drag_y = e.motion.y;
            }
            break;
        case SDL_MOUSEBUTTONDOWN:
            w->mouse_x = e.button.x, w->mouse_y = e.button.y;
            if (e.button.button == SDL_BUTTON_MIDDLE) {
                w->dragging = true;
                w->drag_x = e.button.x, w->drag_y = e.button.y;
            } else if (e.button.button == SDL_BUTTON_LEFT) {
                /* A click selects or queries; a drag pans. Decided on release. */
                w->dragging = true;
                w->drag_x = w->press_x = e.button.x, w->drag_y = w->press_y = e.button.y;
            } else {
                click(w, e.button.button, (SDL_GetModState() & KMOD_SHIFT) != 0);
            }
            break;
        case SDL_MOUSEBUTTONUP:
            w->mouse_x = e.button.x, w->mouse_y = e.button.y;
            if (w->dragging && e.button.button == SDL_BUTTON_LEFT && abs(e.button.x - w->press_x) < 3 &&
                abs(e.button.y - w->press_y) < 3)
                click(w, SDL_BUTTON_LEFT, false);
            w->dragging = false;
            break;
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_LEAVE) w->mouse_in = false;
            if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                int ww, hh;
                SDL_GetRendererOutputSize(w->sdl, &ww, &hh);
                make_canvas(w, ww, hh);
            }
            break;
        default: break;
        }
    }
}

int window_run(const CliContext *cx, Player *p, RenderView *v, int width, int height, uint64_t max_ticks,
               float time_scale)
{
    Win w = { .cx = cx, .p = p, .v = v, .time_scale = time_scale > 0 ? time_scale : 1.0f };
    NavError err;
    nav_error_clear(&err);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(cx->err, "navbot: no window: %s (use --headless to draw to PNG instead)\n", SDL_GetError());
        return CLI_BAD_INPUT;
    }
    if (p->body) {
        /* The camera on the player, and on its storey. */
        w.follow = true;
        w.follow_storey = true;
        if (player_body_drive(p->body) == PLAYER_DRIVE_NONE) {
            /* Until `done` below lets go of w. */
            player_body_drive_input(p->body, drive_input, &w);
            w.driving = true;
            /* The help would hide the player, who is in the middle: a line. */
            v->help = false;
            status(&w, "%s",
                   "W A S D or arrows move the player, Space jumps, C crouches, E uses, the mouse faces; "
                   "Enter pauses; H lists every key");
        }
    }
    int rc = CLI_OK;
    w.r = render_create(&err);
    if (!w.r) {
        cli_print_error(cx, NULL, &err);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    char title[300];
    snprintf(title, sizeof title, "navbot %s — %s", p->trace ? "replay" : "sim", p->title ? p->title : "");
    w.window =
        SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, SDL_WINDOW_RESIZABLE);
    if (w.window) w.sdl = SDL_CreateRenderer(w.window, -1, 0);
    if (!w.window || !w.sdl || !make_canvas(&w, width, height)) {
        fprintf(cx->err, "navbot: no window: %s\n", SDL_GetError());
        rc = CLI_BAD_INPUT;
        goto done;
    }
    double hz = p->trace ? p->trace->hz : 1.0 / sim_dt(p->sim);
    uint64_t freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter(), last_reload = last;
    double owed = 0.0;
    uint64_t played = 0;
    while (!w.quit) {
        events(&w);
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        w.fps = w.fps > 0 ? 0.95 * w.fps + 0.05 / fmax(dt, 1e-4) : 1.0 / fmax(dt, 1e-4);
        if (!w.paused) {
            /* Ticks owed at the time scale; never more than a few per frame,
            ** so a slow tick slows the picture instead of freezing it. */
            owed = fmin(owed + dt * hz * w.time_scale, 8.0);
            while (owed >= 1.0) {
                owed -= 1.0;
                if (!player_step(p)) {
                    w.paused = true;
                    status(&w, "%s", "end of the record (Home with shift: from the start)");
                    break;
                }
                if (max_ticks && ++played >= max_ticks) w.quit = true;
            }
        }
        /* Scripts saved while running come back on their own. */
        if (p->session && (double)(now - last_reload) / (double)freq > 0.5) {
            last_reload = now;
            int n = session_reload_changed(p->session);
            if (n > 0) status(&w, "reloaded %d brain(s) saved on disk", n);
        }
        if (w.follow && v->selected >= 0 && (uint32_t)v->selected < sim_bot_count(p->sim)) {
            const NavBot *b = sim_bot(p->sim, (uint32_t)v->selected);
            v->center[0] = b->pos[0], v->center[1] = b->pos[1];
        }
        if (w.follow_storey && v->selected >= 0 && (uint32_t)v->selected < sim_bot_count(p->sim)) {
            const NavBot *b = sim_bot(p->sim, (uint32_t)v->selected);
            int level = render_level_at(w.r, sim_world(p->sim), b->pos[2]);
            if (level >= 0) v->level = level;
        }
        RenderInfo info;
        player_info(p, &info);
        info.paused = w.paused;
        info.time_scale = w.time_scale;
        info.fps = w.fps;
        /* The next frame shows the line (this one is drawn already). */
        if (v->place_on) cursor_world(&w, &v->place[0], &v->place[1]); /* the preview under the cursor */
        if (NAV_FAILED(render_draw(w.r, w.img, p->sim, v, &info)))
            status(&w, "%s", "out of memory drawing: the picture is incomplete");
        SDL_UpdateTexture(w.tex, NULL, w.img->pixels, w.img->width * 4);
        SDL_RenderClear(w.sdl);
        SDL_RenderCopy(w.sdl, w.tex, NULL, NULL);
        SDL_RenderPresent(w.sdl);
        /* About 60 frames a second at most; the tick rate is kept by `owed`. */
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
        if (spent < 1.0 / 60.0) SDL_Delay((uint32_t)((1.0 / 60.0 - spent) * 1000.0));
    }
    /* The frame the window showed last, exactly as it showed it. */
    if (p->last_frame && w.img) {
        if (NAV_SUCCEEDED(image_write_png(w.img, p->last_frame, &err))) {
            fprintf(cx->err, "navbot: the last frame is in %s (%dx%d)\n", p->last_frame, w.img->width, w.img->height);
        } else {
            cli_print_error(cx, NULL, &err);
            rc = CLI_BAD_INPUT;
        }
    }
done:
    /* w goes with this frame: the player stops listening to it. */
    if (w.driving) player_body_drive_input(p->body, NULL, NULL);
    image_destroy(w.img);
    if (w.tex) SDL_DestroyTexture(w.tex);
    if (w.sdl) SDL_DestroyRenderer(w.sdl);
    if (w.window) SDL_DestroyWindow(w.window);
    render_destroy(w.r);
    SDL_Quit();
    return rc;
}

/* }======= */

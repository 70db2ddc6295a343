/*
** navbot_session.c — sessions of the public C API: a NavSession
** (script/session.h) on a world's map, with brains found by name in the
** project folders and the bundled one, bots added, driven and read back,
** and pictures painted by the renderer made on the first one.
*/
#define _GNU_SOURCE /* realpath */
#include "api_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lua/lua_paths.h"
#include "render/font.h"
#include "render/snapshot.h"

/* {======= sessions ======= */

static void log_drop(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static void log_forward(void *user, const char *line)
{
    NavbotSession *s = user;
    s->log(s->log_user, line);
}

NavbotStatus navbot_session_create(NavbotWorld *w, const NavbotSessionDesc *desc, NavbotSession **out, NavbotError *err)
{
    api_error_clear(err);
    if (out) *out = NULL;
    if (!w || !out)
        return api_error_set(err, NAVBOT_E_PARAM, NULL, "navbot_session_create: world and out must not be NULL");
    NavbotSessionDesc d = desc ? *desc : (NavbotSessionDesc){ 0 };
    if (d.tick_hz < 0 || d.tick_hz > 1000)
        return api_error_set(err, NAVBOT_E_PARAM, "tick_hz", "must be 1 to 1000 (0: 30), got %d", d.tick_hz);
    NavbotSession *s = nav_calloc(1, sizeof *s);
    if (!s) return api_error_set(err, NAVBOT_E_NOMEM, NULL, "out of memory for the session");
    s->world = w;
    s->log = d.log;
    s->log_user = d.log_user;
    if (!nav_lua_bundled_root(s->bundled, sizeof s->bundled)) s->bundled[0] = '\0';
    NavSessionDesc sd = { .seed = d.seed,
                          .tick_hz = d.tick_hz,
                          .memory_limit = d.memory_limit,
                          .instructions_per_tick = d.instructions_per_tick,
                          .log = d.log ? log_forward : log_drop,
                          .log_user = s };
    for (int i = 0; i < NAVBOT_MAX_PROJECT_DIRS && d.project_dirs[i]; i++) {
        if (!d.project_dirs[i][0] || strlen(d.project_dirs[i]) >= BRAIN_ROOT_MAX) {
            nav_free(s);
            return api_error_set(err, NAVBOT_E_PARAM, "project_dirs", "entry %d is empty or longer than %d bytes", i,
                                 BRAIN_ROOT_MAX - 1);
        }
        snprintf(s->dirs[s->dir_count], sizeof s->dirs[0], "%s", d.project_dirs[i]);
        sd.extra_roots[s->dir_count] = s->dirs[s->dir_count];
        s->dir_count++;
    }
    /* Without a bundled folder the brains come from the project folders
    ** alone; the root is then one of those, never the current directory. */
    sd.root = s->bundled[0] ? s->bundled : s->dir_count ? s->dirs[0] : "/nonexistent/navbot-bundled-folder";
    NavError e;
    nav_error_clear(&e);
    s->s = session_create(w->w, &sd, &e);
    if (!s->s) {
        nav_free(s);
        return api_error_from(err, &e);
    }
    /* Graphs the world loaded from files: the session loads them too, so
    ** its bots route on the same graph. */
    for (int c = 0; c < world_class_count(w->w); c++) {
        if (!w->graph_file[c]) continue;
        NavAreaGraph *ag = area_load(w->w, c, w->graph_file[c], &e);
        if (!ag || !sim_set_graph(session_sim(s->s), c, ag, &e)) {
            area_destroy(ag);
            session_destroy(s->s);
            nav_free(s);
            return api_error_from(err, &e);
        }
    }
    *out = s;
    return NAVBOT_OK;
}

void navbot_session_destroy(NavbotSession *s)
{
    if (!s) return;
    render_destroy(s->renderer);
    session_destroy(s->s);
    nav_free(s);
}

const char *navbot_session_error(const NavbotSession *s) { return s ? s->error : ""; }

static bool bot_ok(const NavbotSession *s, int id)
{
    return id >= 0 && (uint32_t)id < sim_bot_count(session_sim(s->s));
}

/* Same folder? Compared by their real paths. */
static bool same_dir(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* A brain given as a path (".../bots/NAME.lua") as the name the brain host
** knows: NAME, when the folder above bots/ is the bundled folder or one of
** the project folders. A plain name is copied as it is. */
static NavbotStatus brain_name(NavbotSession *s, const char *brain, char *name, size_t cap)
{
    size_t len = strlen(brain);
    bool path = strchr(brain, '/') != NULL || (len > 4 && strcmp(brain + len - 4, ".lua") == 0);
    if (!path) {
        if (len >= cap) return api_fail(s->error, NAVBOT_E_PARAM, "brain: the name '%.64s...' is too long", brain);
        memcpy(name, brain, len + 1);
        return NAVBOT_OK;
    }
    char dir[PATH_MAX];
    if (len >= sizeof dir) return api_fail(s->error, NAVBOT_E_PARAM, "brain: the path is too long");
    memcpy(dir, brain, len + 1);
    char *slash = strrchr(dir, '/');
    const char *file = slash ? slash + 1 : dir;
    size_t flen = strlen(file);
    if (flen <= 4 || strcmp(file + flen - 4, ".lua") != 0 || flen - 4 >= cap)
        return api_fail(s->error, NAVBOT_E_PARAM, "brain: '%s' is neither a brain name nor a path to a .lua file",
                        brain);
    memcpy(name, file, flen - 4);
    name[flen - 4] = '\0';
    if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    char real[PATH_MAX];
    if (!realpath(dir, real)) return api_fail(s->error, NAVBOT_E_PARAM, "brain: no folder '%s' (for %s)", dir, brain);
    char *up = strrchr(real, '/');
    if (!up || strcmp(up + 1, "bots") != 0)
        return api_fail(s->error, NAVBOT_E_PARAM,
                        "brain: %s is not in a bots/ folder of a project (a folder holding bots/ and lua/)", brain);
    *up = '\0';
    const char *root = real[0] ? real : "/";
    if (s->bundled[0] && same_dir(root, s->bundled)) return NAVBOT_OK;
    for (int i = 0; i < s->dir_count; i++)
        if (same_dir(root, s->dirs[i])) return NAVBOT_OK;
    return api_fail(s->error, NAVBOT_E_PARAM,
                    "brain: %s belongs to the project folder %s, which is not among the session's project_dirs", brain,
                    root);
}

NavbotStatus navbot_session_add_bot(NavbotSession *s, const NavbotBotDesc *desc, int *id)
{
    if (id) *id = -1;
    if (!s) return NAVBOT_E_PARAM;
    s->error[0] = '\0';
    if (!desc) return api_fail(s->error, NAVBOT_E_PARAM, "desc must not be NULL");
    const NavWorld *w = s->world->w;
    if (desc->cls < 0 || desc->cls >= world_class_count(w))
        return api_fail(s->error, NAVBOT_E_PARAM, "cls: no class %d in %s (it has %d)", desc->cls, world_name(w),
                        world_class_count(w));
    if (!api_finite3(desc->at) || !isfinite(desc->yaw))
        return api_fail(s->error, NAVBOT_E_PARAM, "at: the point and yaw must be finite numbers");
    if (desc->has_goal && (!api_finite3(desc->goal) || !isfinite(desc->goal_radius) || desc->goal_radius < 0.0f))
        return api_fail(s->error, NAVBOT_E_PARAM, "goal: the point must be finite and goal_radius >= 0");
    char name[BRAIN_NAME_MAX + 8];
    name[0] = '\0';
    if (desc->brain && desc->brain[0]) {
        NavbotStatus st = brain_name(s, desc->brain, name, sizeof name);
        if (st != NAVBOT_OK) return st;
    }
    NavError e;
    nav_error_clear(&e);
    NavBotDesc bd = { .cls = desc->cls, .pos = { desc->at[0], desc->at[1], desc->at[2] }, .yaw = desc->yaw };
    int got = session_add_bot(s->s, NULL, &bd, &e);
    if (got < 0) {
        api_fail_nav(s->error, &e);
        /* The class and numbers were checked above: what is left is no room. */
        return (e.status & NAV_E_NOMEM) ? NAVBOT_E_NOMEM : NAVBOT_E_FULL;
    }
    if (desc->has_goal) sim_bot_push_goal(session_sim(s->s), (uint32_t)got, desc->goal, desc->goal_radius);
    if (id) *id = got;
    if (name[0] && !session_attach_brain(s->s, (uint32_t)got, name)) {
        const char *why = session_bot_error(s->s, (uint32_t)got);
        if (!s->bundled[0])
            return api_fail(s->error, NAVBOT_E_BRAIN,
                            "%s (navbot's bundled folder was not found beside this program or library: "
                            "give PREFIX/share/navbot in NavbotSessionDesc.project_dirs)",
                            why ? why : "the brain did not load");
        return api_fail(s->error, NAVBOT_E_BRAIN, "%s", why ? why : "the brain did not load");
    }
    return NAVBOT_OK;
}

NavbotStatus navbot_session_set_controls(NavbotSession *s, int id, const NavbotControls *c)
{
    if (!s) return NAVBOT_E_PARAM;
    s->error[0] = '\0';
    if (!c) return api_fail(s->error, NAVBOT_E_PARAM, "controls must not be NULL");
    if (!bot_ok(s, id)) return api_fail(s->error, NAVBOT_E_PARAM, "id: no bot %d", id);
    if (!isfinite(c->move[0]) || !isfinite(c->move[1]))
        return api_fail(s->error, NAVBOT_E_PARAM, "move: must be finite numbers");
    NavBotControl *ctl = sim_bot_control(session_sim(s->s), (uint32_t)id);
    float len = sqrtf(c->move[0] * c->move[0] + c->move[1] * c->move[1]);
    float k = len > 1.0f ? 1.0f / len : 1.0f;
    ctl->move[0] = c->move[0] * k;
    ctl->move[1] = c->move[1] * k;
    ctl->jump = c->jump;
    ctl->crouch = c->crouch;
    ctl->use = c->use;
    snprintf(ctl->reason, sizeof ctl->reason, "%s", "caller");
    return NAVBOT_OK;
}

NavbotStatus navbot_session_add_goal(NavbotSession *s, int id, const float goal[3], float radius)
{
    if (!s) return NAVBOT_E_PARAM;
    s->error[0] = '\0';
    if (!bot_ok(s, id)) return api_fail(s->error, NAVBOT_E_PARAM, "id: no bot %d", id);
    if (!goal || !api_finite3(goal) || !isfinite(radius) || radius < 0.0f)
        return api_fail(s->error, NAVBOT_E_PARAM, "goal: a finite point and a radius >= 0");
    if (!sim_bot_push_goal(session_sim(s->s), (uint32_t)id, goal, radius))
        return api_fail(s->error, NAVBOT_E_FULL, "goal: bot %d has %d goals queued already", id, SIM_MAX_GOALS);
    return NAVBOT_OK;
}

NavbotStatus navbot_session_step(NavbotSession *s, int ticks)
{
    if (!s) return NAVBOT_E_PARAM;
    s->error[0] = '\0';
    if (ticks < 0) return api_fail(s->error, NAVBOT_E_PARAM, "ticks: must be >= 0, got %d", ticks);
    for (int i = 0; i < ticks; i++) session_step(s->s);
    return NAVBOT_OK;
}

int navbot_session_bot_count(const NavbotSession *s) { return s ? (int)sim_bot_count(session_sim(s->s)) : 0; }

uint64_t navbot_session_tick(const NavbotSession *s) { return s ? sim_tick(session_sim(s->s)) : 0; }

double navbot_session_time(const NavbotSession *s) { return s ? sim_time(session_sim(s->s)) : 0.0; }

uint64_t navbot_session_hash(const NavbotSession *s) { return s ? sim_trace_hash(session_sim(s->s)) : 0; }

NavbotStatus navbot_session_bot(const NavbotSession *s, int id, NavbotBotState *out)
{
    if (!s || !out) return NAVBOT_E_PARAM;
    if (!bot_ok(s, id)) return NAVBOT_E_PARAM;
    const NavSim *sim = session_sim(s->s);
    const NavBot *b = sim_bot(sim, (uint32_t)id);
    memset(out, 0, sizeof *out);
    out->id = id;
    out->cls = b->cls;
    memcpy(out->pos, b->pos, sizeof out->pos);
    memcpy(out->vel, b->vel, sizeof out->vel);
    out->yaw = b->yaw;
    out->on_ground = b->on_ground;
    out->in_water = b->in_water;
    out->on_ladder = b->on_ladder;
    out->crouched = b->crouched;
    out->arrived = sim_bot_arrived(sim, (uint32_t)id);
    out->goals_reached = b->goals_reached;
    out->goals_left = b->goal_count;
    out->arrival_time = b->arrival_time;
    out->stuck_time = b->stuck_time;
    out->distance = b->distance;
    out->faulted = session_bot_faulted(s->s, (uint32_t)id);
    out->error = out->faulted ? session_bot_error(s->s, (uint32_t)id) : NULL;
    if (out->faulted && !out->error) out->error = "faulted";
    out->brain = session_bot_brain(s->s, (uint32_t)id);
    if (!out->brain) out->brain = "";
    out->state = b->say;
    return NAVBOT_OK;
}

NavbotStatus navbot_session_png(NavbotSession *s, const char *path, int width)
{
    if (!s) return NAVBOT_E_PARAM;
    s->error[0] = '\0';
    if (!path || !path[0]) return api_fail(s->error, NAVBOT_E_PARAM, "path: no file name given");
    if (width == 0) width = 1280;
    if (width < 64 || width > 8192)
        return api_fail(s->error, NAVBOT_E_PARAM, "width: 64 to 8192 (0: 1280), got %d", width);
    NavError e;
    nav_error_clear(&e);
    if (!s->renderer) {
        char font[PATH_MAX + 64];
        bool have = s->bundled[0] &&
                    snprintf(font, sizeof font, "%s/assets/%s", s->bundled, NAV_FONT_DEFAULT_FILE) < (int)sizeof font;
        s->renderer = render_create_font(have ? font : NULL, &e);
        if (!s->renderer) return api_fail_nav(s->error, &e);
    }
    NavSim *sim = session_sim(s->s);
    const NavWorld *w = sim_world(sim);
    int pw, ph;
    render_picture_size(w, width, &pw, &ph);
    RenderView v;
    render_view_fit(&v, w, pw, ph);
    v.selected = -1;
    RenderInfo info = { .session = s->s, .mode = "navbot", .title = world_name(w) };
    if (NAV_FAILED(render_png(s->renderer, sim, &v, &info, pw, ph, path, &e))) return api_fail_nav(s->error, &e);
    return NAVBOT_OK;
}

/* }======= */

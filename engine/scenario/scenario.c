/*
** scenario.c — loading and running regression scenarios (scenario.h): one
** run from start to end, the small helpers and the failure report.
**
** The scenario file is Lua; lua/scenario.lua checks what it writes and
** hands back plain tables (each expectation, event and bot carrying
** `where`, the file:line it was written at). This file reads those
** tables, builds the world and the session, and keeps the expectations'
** state in C, so a check over 200 bots each tick costs no Lua. Free-form
** checks, event conditions and actions are Lua functions called under the
** sandbox's instruction budget.
*/
#include "scenario/scenario_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/fileio.h"
#include "map/map.h"
#include "route/route.h"
#include "script/nav_api.h"
#include "script/run_trace.h"
#include "lua/sandbox.h"

/* {======= small helpers ======= */

/* snprintf for paths and messages: false when the text did not fit (it
** is cut, never overrun). */
bool scen_textf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < cap;
}

void scen_copy_first_line(char *out, size_t cap, const char *text)
{
    size_t n = strcspn(text, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

void scen_join_path(char *out, size_t cap, const char *root, const char *rel)
{
    if (rel[0] == '/' || strcmp(root, ".") == 0) snprintf(out, cap, "%s", rel);
    else scen_textf(out, cap, "%s/%s", root, rel);
}

/* Into the result's ring of the last lines: what happened before a failure. */
void scen_log_line(Run *r, const char *fmt, ...)
{
    ScenarioResult *o = r->out;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (o->log_count == SCENARIO_LOG_LINES) {
        memmove(o->log[0], o->log[1], (SCENARIO_LOG_LINES - 1) * sizeof o->log[0]);
        o->log_count--;
    }
    scen_copy_first_line(o->log[o->log_count++], sizeof o->log[0], buf);
}

static void session_log(void *user, const char *line)
{
    Run *r = user;
    scen_log_line(r, "%.2f s  %s", r->sim ? sim_time(r->sim) : 0.0, line);
}

void scen_travel_names(uint32_t used, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        if (!(used & NAV_TFL_TYPE(t))) continue;
        int k = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", area_travel_name((NavTravelType)t));
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
    if (!n) snprintf(buf, cap, "none");
}

/* }======= */

/* {======= failures ======= */

/* Everything the report says about a bot at this moment. */
static void bot_state(Run *r, uint32_t id, char *out, size_t cap)
{
    const NavBot *b = sim_bot(r->sim, id);
    char used[256], body[128] = "";
    scen_travel_names(b->travel_used, used, sizeof used);
    size_t n = 0;
    const struct {
        bool on;
        const char *what;
    } flags[] = {
        { b->on_ground, "on ground" }, { b->in_water, "in water" }, { b->on_ladder, "on a ladder" },
        { b->crouched, "crouched" },   { b->climbing, "climbing" }, { b->riding >= 0, "riding an elevator" },
    };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(flags); k++)
        if (flags[k].on) n += (size_t)snprintf(body + n, sizeof body - n, "%s%s", n ? ", " : "", flags[k].what);
    if (!n) snprintf(body, sizeof body, "in the air");
    const char *brain = *session_bot_brain(r->s, id) ? session_bot_brain(r->s, id) : "none";
    char replay[160];
    const ScenPlayer *pl = scen_player_of(r, id);
    if (pl) {
        snprintf(replay, sizeof replay, "none: a player that played %llu of its recording's %llu ticks",
                 (unsigned long long)player_body_ticks(pl->body), (unsigned long long)pl->rec->ticks);
        brain = replay;
    }
    int k = snprintf(out, cap,
                     "%s (bot %u, brain %s, class %s) at (%.2f, %.2f, %.2f), %s; says \"%s\"; goals %d reached, "
                     "%d left, %d skipped; travel used: %s; stuck %.1f s (%.1f s in all)",
                     r->names[id].name, id, brain, world_class(r->w, b->cls)->name, (double)b->pos[0],
                     (double)b->pos[1], (double)b->pos[2], body, b->say, b->goals_reached, b->goal_count,
                     b->goals_skipped, used, (double)b->stuck_time, b->stuck_total);
    const char *e = session_bot_error(r->s, id);
    if (e && k > 0 && (size_t)k < cap) {
        char first[512];
        scen_copy_first_line(first, sizeof first, e);
        snprintf(out + k, cap - (size_t)k, "; faulted: %s", first);
    }
}

/* The first failure ends the run: filled in, reported to on_failure with
** the session as it is now. */
void scen_fail(Run *r, const char *where, const char *text, int bot, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = true;
    ScenarioFailure *f = &r->out->failure;
    memset(f, 0, sizeof *f);
    snprintf(f->expectation, sizeof f->expectation, "%s: %s", where, text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    f->bot = bot;
    f->tick = r->sim ? sim_tick(r->sim) : 0;
    f->time = r->sim ? sim_time(r->sim) : 0.0;
    if (bot >= 0) {
        snprintf(f->bot_name, sizeof f->bot_name, "%s", r->names[bot].name);
        bot_state(r, (uint32_t)bot, f->bot_state, sizeof f->bot_state);
    }
    if (r->opt->on_failure && r->s) r->opt->on_failure(r->opt->user, r->s, f);
}

/* }======= */

/* {======= one run, start to end ======= */

static void release(Run *r)
{
    if (r->trace) run_trace_close(r->trace, NULL);
    r->trace = NULL;
    sandbox_destroy(r->sb); /* first: its nav module points into the simulation */
    r->sb = NULL;
    for (int i = 0; i < r->nplayers; i++) {
        player_body_destroy(r->players[i].body); /* before the session it hooks into */
        player_record_destroy(r->players[i].rec);
    }
    nav_free(r->players);
    r->players = NULL;
    r->nplayers = 0;
    session_destroy(r->s);
    world_destroy(r->w);
    scen_remove_work(r);
    for (int i = 0; i < r->nex; i++) {
        nav_free(r->ex[i].bots);
        nav_free(r->ex[i].done);
        nav_free(r->ex[i].optimum);
    }
    nav_free(r->ex);
    nav_free(r->ev);
    nav_free(r->names);
    nav_free(r->pick);
    nav_free(r->source);
    r->source = NULL;
    nav_lua_path_free(&r->search);
}

/* The scenario's Lua state (the rest of the run goes on inside it). */
static NavStatus open_state(Run *r, NavError *err)
{
    r->sb = sandbox_create(&(SandboxDesc){ .memory_limit = SCEN_MEMORY,
                                           .instruction_limit = SCEN_INSTRUCTIONS,
                                           .seed = 1,
                                           .what = "scenario scripts",
                                           .print = session_log,
                                           .print_user = r },
                           err);
    if (!r->sb) return err ? err->status : NAV_FAILURE | NAV_E_NOMEM;
    r->L = sandbox_state(r->sb);
    return NAV_OK;
}

static NavStatus load_file(Run *r, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    lua_State *L = r->L;
    r->ref_core = r->ref_loaded = r->ref_spec = r->ref_ctx = r->ref_until = LUA_NOREF;
    lua_pushcfunction(L, scen_op_setup);
    lua_pushlightuserdata(L, r);
    if (NAV_FAILED(sandbox_call(r->sb, 1, 0, &e)))
        return nav_error_set(err, NAV_E_NOMEM, r->path, 0, 0, NULL, "cannot set up its Lua state: %s", e.message);

    char *buf;
    size_t n;
    if (NAV_FAILED(fileio_read(r->path, SCEN_FILE_MAX, &buf, &n, &e)))
        return nav_error_set(err, e.status & ~NAV_FAILURE, r->path, 0, 0, NULL, "%s: %s", r->path, e.message);
    char chunk[SCEN_PATH_MAX + 1];
    snprintf(chunk, sizeof chunk, "@%s", r->path);
    NavStatus st = sandbox_load(r->sb, buf, n, chunk, &e);
    r->source = buf; /* fileio_read ends it with a NUL */
    if (NAV_SUCCEEDED(st)) st = sandbox_call(r->sb, 0, 1, &e);
    if (NAV_FAILED(st)) {
        char msg[512];
        const char *m = e.message;
        if (strncmp(m, "syntax error: ", 14) == 0) m += 14; /* Lua's own message says what is wrong */
        scen_copy_first_line(msg, sizeof msg, m);
        NavStatus detail = e.status & NAV_E_NOMEM ? NAV_E_NOMEM : NAV_E_FORMAT;
        /* Lua's messages start with "file:line:"; add the file when not. */
        if (strncmp(msg, r->path, strlen(r->path)) == 0 || strstr(msg, ".lua:"))
            return nav_error_set(err, detail, r->path, e.line, 0, NULL, "%s", msg);
        return nav_error_set(err, detail, r->path, e.line, 0, NULL, "%s: %s", r->path, msg);
    }
    bool is_spec = false;
    if (lua_type(L, -1) == LUA_TTABLE) {
        scen_get_field(L, -1, "_kind");
        is_spec = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "scenario") == 0;
        lua_pop(L, 1);
    }
    if (!is_spec) {
        const char *got = luaL_typename(L, -1);
        return nav_error_set(err, NAV_E_FORMAT, r->path, 0, 0, NULL,
                             "%s: the file must return the scenario: `local S = require \"scenario\"` ... "
                             "`return S.scenario { ... }` (it returned %s)",
                             r->path, got);
    }
    r->ref_spec = luaL_ref(L, LUA_REGISTRYINDEX);
    /* The context every check and action gets: the library's `context`. */
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_loaded);
    scen_get_field(L, -1, "scenario");
    scen_get_field(L, -1, "context");
    r->ref_ctx = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, 0);
    return NAV_OK;
}

/* The scenario's map: an absolute path as is; else beside the scenario
** file, else in the root. False with tried naming both. */
static bool find_map(const Run *r, char *out, size_t cap, char *tried, size_t tried_cap)
{
    struct stat st;
    if (r->map[0] == '/' || strncmp(r->map, "generate:", 9) == 0) {
        snprintf(out, cap, "%s", r->map);
        return true;
    }
    scen_join_path(out, cap, r->dir, r->map);
    if (stat(out, &st) == 0) return true;
    snprintf(tried, tried_cap, "%s", out);
    if (!r->root[0]) return false;
    scen_join_path(out, cap, r->root, r->map);
    if (stat(out, &st) == 0) return true;
    size_t n = strlen(tried);
    snprintf(tried + n, tried_cap - n, " nor %s", out);
    return false;
}

/* Everything after the Lua state is made, inside a protected call of it
** (one_run): the code here reads the scenario's tables with the Lua API,
** and any of those calls may fail for memory. */
static NavStatus run_in_state(Run *r, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    NavStatus st = load_file(r, err);
    if (NAV_FAILED(st)) return st;
    if (NAV_FAILED(st = scen_read_spec(r, err))) return st;

    char map_path[SCEN_PATH_MAX], tried[2 * SCEN_PATH_MAX + 8];
    if (!find_map(r, map_path, sizeof map_path, tried, sizeof tried))
        return scen_spec_error(err, r->where, "map: no file %s", tried);
    snprintf(r->map_path, sizeof r->map_path, "%s", map_path);
    char shown[SCEN_PATH_MAX];
    nav_lua_display_name(map_path, r->root, shown, sizeof shown);
    r->w = map_load_file(map_path, &(NavMapOptions){ .lua_path = &r->search, .name = shown }, &e);
    if (!r->w) {
        char buf[512];
        return scen_spec_error_from(err, &e, r->where, "map: %s", nav_error_format(&e, buf, sizeof buf));
    }
    if (world_class_count(r->w) == 0) return scen_spec_error(err, r->where, "map: %s has no mover classes", r->map);
    if (NAV_FAILED(st = scen_make_work(r, err))) return st;

    NavSessionDesc sd = { .root = r->root,
                          .seed = r->seed,
                          .tick_hz = r->hz,
                          .log = session_log,
                          .log_user = r,
                          .instructions_per_tick = r->instructions,
                          .memory_limit = r->memory,
                          .lua_path = r->opt->lua_path };
    int k = 0;
    if (r->work[0]) sd.extra_roots[k++] = r->work;
    sd.extra_roots[k++] = r->dir;
    r->s = session_create(r->w, &sd, &e);
    if (!r->s) {
        char buf[512];
        return scen_spec_error_from(err, &e, r->where, "session: %s", nav_error_format(&e, buf, sizeof buf));
    }
    r->sim = session_sim(r->s);
    nav_api_open(r->L, r->sim);

    if (NAV_FAILED(st = scen_setup_bots(r, err))) return st;
    if (NAV_FAILED(st = scen_setup_expectations(r, err))) return st;
    if (NAV_FAILED(st = scen_setup_events(r, err))) return st;
    for (int i = 0; i < r->nex; i++)
        if (r->ex[i].kind == EX_NEAR_OPTIMAL) scen_compute_optimum(r, &r->ex[i]);
    r->out->bots = (int)r->nnames;

    if (r->record && r->opt->trace_path) {
        r->trace = run_trace_create(r->opt->trace_path, r->s, r->map_path, r->root, r->seed, &e);
        if (!r->trace) {
            char buf[512];
            return nav_error_set(err, NAV_E_IO, r->opt->trace_path, 0, 0, NULL, "trace: %s",
                                 nav_error_format(&e, buf, sizeof buf));
        }
    }
    scen_simulate(r);
    r->out->passed = !r->failed;
    r->out->hash = sim_trace_hash(r->sim);
    r->out->ticks = sim_tick(r->sim);
    r->out->sim_time = sim_time(r->sim);
    if (r->out->passed && r->opt->on_end) r->opt->on_end(r->opt->user, r->s);
    if (r->trace) {
        NavStatus closed = run_trace_close(r->trace, &e);
        r->trace = NULL;
        if (NAV_FAILED(closed)) {
            char buf[512];
            return nav_error_set(err, NAV_E_IO, r->opt->trace_path, 0, 0, NULL, "trace: %s",
                                 nav_error_format(&e, buf, sizeof buf));
        }
    }
    return NAV_OK;
}

typedef struct InState {
    Run *r;
    NavError *err;
    NavStatus st;
} InState;

static int in_state(lua_State *L)
{
    InState *p = lua_touserdata(L, 1);
    lua_settop(L, 0);
    p->st = run_in_state(p->r, p->err);
    return 0;
}

static NavStatus one_run(Run *r, NavError *err)
{
    NavError e;
    nav_error_clear(&e);
    NavStatus st = nav_lua_path_add(&r->search, r->dir, NAV_LUA_DIR_ANY, &e);
    if (NAV_SUCCEEDED(st)) st = nav_lua_path_append(&r->search, r->opt->lua_path, &e);
    if (NAV_SUCCEEDED(st) && r->root[0]) st = nav_lua_path_add_bundled(&r->search, r->root, &e);
    if (NAV_FAILED(st)) return nav_error_set(err, st, r->path, 0, 0, NULL, "%s", e.message);
    if (NAV_FAILED(st = open_state(r, err))) return st;
    InState p = { r, err, NAV_OK };
    lua_pushcfunction(r->L, in_state);
    lua_pushlightuserdata(r->L, &p);
    int rc = lua_pcall(r->L, 1, 0, 0);
    if (rc == LUA_OK) return p.st;
    /* Only an allocation fails there: every script runs under its own
    ** protected call (sandbox_call). */
    const char *msg = lua_type(r->L, -1) == LUA_TSTRING ? lua_tostring(r->L, -1) : "?";
    st = nav_error_set(err, rc == LUA_ERRMEM ? NAV_E_NOMEM : NAV_E_FORMAT, r->path, 0, 0, NULL, "%s",
                       rc == LUA_ERRMEM ? "out of memory running the scenario" : msg);
    lua_settop(r->L, 0);
    return st;
}

static void init_run(Run *r, const char *path, const ScenarioOptions *opt, ScenarioResult *out, bool record)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->opt = opt;
    r->out = out;
    r->record = record;
    r->path = path;
    if (opt->root && *opt->root) snprintf(r->root, sizeof r->root, "%s", opt->root);
    else if (!nav_lua_bundled_root(r->root, sizeof r->root)) r->root[0] = '\0';
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(r->dir, sizeof r->dir, "%.*s", (int)(slash - path), path);
    else snprintf(r->dir, sizeof r->dir, ".");
    if (!r->dir[0]) snprintf(r->dir, sizeof r->dir, "/");
    /* Files in the root are named relative to it (nav_lua_display_name). */
    snprintf(r->lib_prefix, sizeof r->lib_prefix, "@lua/");
}

NavStatus scenario_run_file(const char *path, const ScenarioOptions *opt, ScenarioResult *out, NavError *err)
{
    ScenarioOptions none = { 0 };
    if (!opt) opt = &none;
    memset(out, 0, sizeof *out);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out->name, sizeof out->name, "%.*s", (int)n, base);
    out->runs = 1;

    Run *r = nav_malloc(sizeof *r);
    if (!r) return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for the run");
    init_run(r, path, opt, out, true);
    NavStatus st = one_run(r, err);
    int runs = r->runs;
    release(r);
    if (NAV_SUCCEEDED(st) && out->passed && runs == 2) {
        /* Determinism: the same file again in this process must give the
        ** same run, bit for bit. */
        out->runs = 2;
        ScenarioResult *again = nav_malloc(sizeof *again);
        if (!again) {
            nav_free(r);
            return nav_error_set(err, NAV_E_NOMEM, path, 0, 0, NULL, "out of memory for the run");
        }
        memset(again, 0, sizeof *again);
        snprintf(again->name, sizeof again->name, "%s", out->name);
        ScenarioOptions quiet = *opt;
        quiet.on_failure = NULL;
        quiet.on_end = NULL;
        quiet.trace_path = NULL;
        init_run(r, path, &quiet, again, false);
        st = one_run(r, err);
        release(r);
        if (NAV_SUCCEEDED(st) && !again->passed) {
            out->passed = false;
            out->failure = again->failure;
            scen_textf(out->failure.message, sizeof out->failure.message,
                       "the second run failed where the first passed: %s", again->failure.message);
        } else if (NAV_SUCCEEDED(st) && (again->hash != out->hash || again->ticks != out->ticks)) {
            out->passed = false;
            memset(&out->failure, 0, sizeof out->failure);
            out->failure.bot = -1;
            out->failure.tick = again->ticks;
            out->failure.time = again->sim_time;
            snprintf(out->failure.expectation, sizeof out->failure.expectation, "%s: runs = 2 (determinism)", path);
            snprintf(out->failure.message, sizeof out->failure.message,
                     "two runs in one process differ: trace hash %016llx after %llu ticks, then %016llx after %llu "
                     "ticks",
                     (unsigned long long)out->hash, (unsigned long long)out->ticks, (unsigned long long)again->hash,
                     (unsigned long long)again->ticks);
        }
        nav_free(again);
    }
    nav_free(r);
    return st;
}

/* }======= */

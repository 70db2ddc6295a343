/*
** scenario_setup.c — setting up a scenario run: the work folder for
** temporary brains, the bots, the expectations and the events.
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include "scenario/scenario_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <limits.h>
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

static const char *const EXPECT_NAMES[] = {
    "arrives",     "near_optimal", "uses",   "never_uses", "never_enters",
    "never_stuck", "no_faults",    "faults", "no_overlap", "check",
};

/* {======= setting up: temp brains, bots, expectations, events ======= */

NavStatus scen_make_work(Run *r, NavError *err)
{
    if (!r->ntemp) return NAV_OK;
    const char *base = r->opt->work_dir && *r->opt->work_dir ? r->opt->work_dir : "/tmp";
    snprintf(r->work, sizeof r->work, "%s/navbot-%s-XXXXXX", base, r->out->name);
    if (!mkdtemp(r->work)) {
        NavStatus st = nav_error_set(err, NAV_E_IO, r->work, 0, 0, NULL, "cannot make a folder for temp_brains: %s",
                                     strerror(errno));
        r->work[0] = '\0';
        return st;
    }
    char bots[SCEN_PATH_MAX];
    scen_textf(bots, sizeof bots, "%s/bots", r->work);
    if (mkdir(bots, 0755) != 0)
        return nav_error_set(err, NAV_E_IO, bots, 0, 0, NULL, "cannot make the folder: %s", strerror(errno));
    r->stamp_base = time(NULL);
    for (int i = 0; i < r->ntemp; i++) {
        /* The brain as the session would find it without the copy. */
        char from[SCEN_PATH_MAX], root_bots[SCEN_PATH_MAX], to[SCEN_PATH_MAX];
        scen_textf(from, sizeof from, "%s/bots/%s.lua", r->dir, r->temp_brains[i]);
        struct stat st;
        if (stat(from, &st) != 0) {
            scen_join_path(root_bots, sizeof root_bots, r->root[0] ? r->root : ".", "bots");
            scen_textf(from, sizeof from, "%s/%s.lua", root_bots, r->temp_brains[i]);
        }
        char *buf;
        size_t n;
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(fileio_read(from, SCEN_FILE_MAX, &buf, &n, &e)))
            return scen_spec_error(err, r->where, "temp_brains: brain '%s': no %s/bots/%s.lua nor %s",
                                   r->temp_brains[i], r->dir, r->temp_brains[i], from);
        scen_textf(to, sizeof to, "%s/bots/%s.lua", r->work, r->temp_brains[i]);
        bool ok = scen_write_file(to, buf, n);
        nav_free(buf);
        if (!ok || !scen_stamp_write(r, to))
            return nav_error_set(err, NAV_E_IO, to, 0, 0, NULL, "cannot write: %s", strerror(errno));
    }
    return NAV_OK;
}

void scen_remove_work(Run *r)
{
    if (!r->work[0]) return;
    char path[SCEN_PATH_MAX];
    for (int i = 0; i < r->ntemp; i++) {
        scen_textf(path, sizeof path, "%s/bots/%s.lua", r->work, r->temp_brains[i]);
        unlink(path);
    }
    scen_textf(path, sizeof path, "%s/bots", r->work);
    rmdir(path);
    rmdir(r->work);
    r->work[0] = '\0';
}

static bool add_name(Run *r, const char *name, const char *group)
{
    NamedBot *nb = nav_realloc(r->names, (r->nnames + 1) * sizeof *nb);
    if (!nb) return false;
    r->names = nb;
    snprintf(nb[r->nnames].name, sizeof nb[r->nnames].name, "%s", name);
    snprintf(nb[r->nnames].group, sizeof nb[r->nnames].group, "%s", group);
    r->nnames++;
    return true;
}

static bool name_taken(const Run *r, const char *name)
{
    for (uint32_t i = 0; i < r->nnames; i++)
        if (strcmp(r->names[i].name, name) == 0 || strcmp(r->names[i].group, name) == 0) return true;
    return false;
}

/* One bot{} at the top of the stack (index b): its bots placed, goals
** queued, brains attached. */
static NavStatus add_bots(Run *r, int b, int default_cls, NavError *err)
{
    lua_State *L = r->L;
    char where[SCEN_WHERE_MAX], name[64], brain[SCEN_PATH_MAX] = "", cls_name[64];
    if (!scen_get_string(L, b, "where", where, sizeof where)) snprintf(where, sizeof where, "%s", r->where);
    if (!scen_get_string(L, b, "name", name, sizeof name)) snprintf(name, sizeof name, "bot");
    scen_get_string(L, b, "brain", brain, sizeof brain);
    if (nav_lua_is_file(brain) && brain[0] != '/' && brain[0] != '~') {
        /* A brain file's path is relative to the scenario's folder. */
        char rel[SCEN_PATH_MAX];
        snprintf(rel, sizeof rel, "%s", brain);
        scen_join_path(brain, sizeof brain, r->dir, rel);
    }
    int cls = default_cls;
    if (scen_get_string(L, b, "class", cls_name, sizeof cls_name) && (cls = world_find_class(r->w, cls_name)) < 0)
        return scen_spec_error(err, where, "bot '%s': no class '%s' in %s", name, cls_name, r->map);
    if (name_taken(r, name))
        return scen_spec_error(err, where, "bot '%s': the name is taken; give each bot{} its own name", name);
    char what[96];
    scen_textf(what, sizeof what, "bot '%s'", name);
    int64_t whole = 1;
    double v, goal_radius = 0.0, yaw_given = 0.0;
    if (scen_get_whole(L, b, where, what, "count", 1, SIM_MAX_BOTS, &whole, err) < 0 ||
        scen_get_finite(L, b, where, what, "goal_radius", 0.0, 1e6, &goal_radius, err) < 0 ||
        scen_get_finite(L, b, where, what, "yaw", -1e6, 1e6, &yaw_given, err) < 0)
        return NAV_FAILURE | NAV_E_FORMAT;
    int count = (int)whole;
    bool formation = scen_get_bool(L, b, "formation");

    float at[3], yaw;
    char why[256];
    scen_get_field(L, b, "at");
    bool ok = scen_resolve_place(L, -1, r->w, at, &yaw, why, sizeof why);
    lua_pop(L, 1);
    if (!ok) return scen_spec_error(err, where, "bot '%s': at: %s", name, why);
    if (scen_get_number(L, b, "yaw", &v)) yaw = (float)yaw_given;

    float goals[SIM_MAX_GOALS][3];
    int ngoals = scen_push_list(L, b, "goals");
    if (ngoals > SIM_MAX_GOALS) {
        lua_pop(L, 1);
        return scen_spec_error(err, where, "bot '%s': at most %d goals", name, SIM_MAX_GOALS);
    }
    for (int g = 0; g < ngoals; g++) {
        lua_rawgeti(L, -1, g + 1);
        ok = scen_resolve_place(L, -1, r->w, goals[g], NULL, why, sizeof why);
        lua_pop(L, 1);
        if (!ok) {
            lua_pop(L, 1);
            return scen_spec_error(err, where, "bot '%s': goals[%d]: %s", name, g + 1, why);
        }
    }
    lua_pop(L, 1);

    for (int k = 0; k < count; k++) {
        float pos[3];
        /* Rings enough for the whole group a body apart. */
        int rings = 11;
        while (1 + 4 * rings * (rings + 1) < 2 * count) rings++;
        if (!sim_place_free(r->sim, cls, at, rings, pos))
            return scen_spec_error(err, where, "bot '%s': no room for a %s near (%.2f, %.2f, %.2f) (bot %d of %d)",
                                   name, world_class(r->w, cls)->name, (double)at[0], (double)at[1], (double)at[2],
                                   k + 1, count);
        NavError e;
        nav_error_clear(&e);
        int id =
            session_add_bot(r->s, NULL, &(NavBotDesc){ .cls = cls, .pos = { pos[0], pos[1], pos[2] }, .yaw = yaw }, &e);
        if (id < 0) return scen_spec_error_from(err, &e, where, "bot '%s': %s", name, e.message);
        char full[64];
        if (count == 1) snprintf(full, sizeof full, "%s", name);
        else scen_textf(full, sizeof full, "%s#%d", name, k + 1);
        if (!add_name(r, full, name))
            return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the bots' names");
        for (int g = 0; g < ngoals; g++) {
            float p[3] = { goals[g][0], goals[g][1], goals[g][2] };
            if (formation) {
                /* Keep its place in the group: the goal moved as the bot
                ** stands from `at`, onto the nearest spot a body fits. */
                float want[3] = { p[0] + pos[0] - at[0], p[1] + pos[1] - at[1], p[2] }, got[3];
                if (sim_place_free(r->sim, cls, want, 6, got)) memcpy(p, got, sizeof p);
            }
            sim_bot_push_goal(r->sim, (uint32_t)id, p, (float)goal_radius);
        }
        /* Goals first, then the brain, so spawn() sees them. */
        if (brain[0]) session_attach_brain(r->s, (uint32_t)id, brain);
    }
    return NAV_OK;
}

/* One player{} at the top of the stack (index b): the recording read
** (relative to the scenario's folder) and checked against the run, the
** body put exactly where the recording starts, its goals queued, and the
** replay hooked in before the first tick. */
static NavStatus add_player(Run *r, int b, NavError *err)
{
    lua_State *L = r->L;
    char where[SCEN_WHERE_MAX], name[64], file[SCEN_PATH_MAX], path[SCEN_PATH_MAX], buf[768];
    if (!scen_get_string(L, b, "where", where, sizeof where)) snprintf(where, sizeof where, "%s", r->where);
    if (!scen_get_string(L, b, "name", name, sizeof name)) snprintf(name, sizeof name, "player");
    if (!scen_get_string(L, b, "file", file, sizeof file))
        return scen_spec_error(err, where, "player '%s': which recording? (file = \"players/NAME.player\")", name);
    if (file[0] == '/') snprintf(path, sizeof path, "%s", file);
    else scen_join_path(path, sizeof path, r->dir, file);
    if (name_taken(r, name))
        return scen_spec_error(err, where, "player '%s': the name is taken; give each bot{} and player{} its own name",
                               name);
    char what[96];
    scen_textf(what, sizeof what, "player '%s'", name);
    double goal_radius = 0.0;
    if (scen_get_finite(L, b, where, what, "goal_radius", 0.0, 1e6, &goal_radius, err) < 0)
        return NAV_FAILURE | NAV_E_FORMAT;
    float goals[SIM_MAX_GOALS][3];
    char why[256];
    int ngoals = scen_push_list(L, b, "goals");
    if (ngoals > SIM_MAX_GOALS) {
        lua_pop(L, 1);
        return scen_spec_error(err, where, "player '%s': at most %d goals", name, SIM_MAX_GOALS);
    }
    for (int g = 0; g < ngoals; g++) {
        lua_rawgeti(L, -1, g + 1);
        bool ok = scen_resolve_place(L, -1, r->w, goals[g], NULL, why, sizeof why);
        lua_pop(L, 1);
        if (!ok) {
            lua_pop(L, 1);
            return scen_spec_error(err, where, "player '%s': goals[%d]: %s", name, g + 1, why);
        }
    }
    lua_pop(L, 1);

    /* Room first, so that a recording read is always someone's to free. */
    ScenPlayer *np = nav_realloc(r->players, (size_t)(r->nplayers + 1) * sizeof *np);
    if (!np) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the players");
    r->players = np;
    ScenPlayer *pl = &r->players[r->nplayers];
    memset(pl, 0, sizeof *pl);
    NavError e;
    nav_error_clear(&e);
    if (!(pl->rec = player_record_load(path, &e)))
        return scen_spec_error_from(err, &e, where, "player '%s': %s", name, nav_error_format(&e, buf, sizeof buf));
    r->nplayers++;
    const PlayerRecord *rec = pl->rec;
    if (NAV_FAILED(player_record_check(rec, r->map, r->seed, (uint32_t)r->hz, &e)))
        return scen_spec_error(err, where, "player '%s': %s (the scenario's map, seed and hz must be the recording's)",
                               name, nav_error_format(&e, buf, sizeof buf));
    int cls = world_find_class(r->w, rec->info.cls);
    if (cls < 0)
        return scen_spec_error(err, where, "player '%s': %s:%d: class: no class '%s' in %s", name, path,
                               rec->line_class, rec->info.cls, r->map);
    /* Exactly where it was recorded, or it would not move the same way. */
    const NavClass *c = world_class(r->w, cls);
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height }, zero[3] = { 0 };
    NavTrace tr;
    sim_trace(r->sim, mins, maxs, rec->info.spawn, zero, -1, &tr);
    if (tr.start_solid)
        return scen_spec_error(err, where,
                               "player '%s': %s:%d: spawn: the recording starts at (%.2f, %.2f, %.2f), where "
                               "something stands in this run (list the player{} before the bots)",
                               name, path, rec->line_spawn, (double)rec->info.spawn[0], (double)rec->info.spawn[1],
                               (double)rec->info.spawn[2]);
    NavBotDesc bd = { .cls = cls, .yaw = rec->info.yaw };
    memcpy(bd.pos, rec->info.spawn, sizeof bd.pos);
    int id = session_add_bot(r->s, NULL, &bd, &e);
    if (id < 0) return scen_spec_error_from(err, &e, where, "player '%s': %s", name, e.message);
    if (!add_name(r, name, name))
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for the bots' names");
    for (int g = 0; g < ngoals; g++) sim_bot_push_goal(r->sim, (uint32_t)id, goals[g], (float)goal_radius);
    if (!(pl->body = player_body_create(r->s, (uint32_t)id, &e)))
        return scen_spec_error_from(err, &e, where, "player '%s': %s", name, e.message);
    player_body_drive_replay(pl->body, rec);
    return NAV_OK;
}

const ScenPlayer *scen_player_of(const Run *r, uint32_t id)
{
    for (int i = 0; i < r->nplayers; i++)
        if (r->players[i].body && player_body_bot(r->players[i].body) == id) return &r->players[i];
    return NULL;
}

bool scen_name_spawned(Run *r)
{
    for (uint32_t id = r->nnames; id < sim_bot_count(r->sim); id++) {
        char name[64];
        scen_textf(name, sizeof name, "spawned#%u", id);
        if (!add_name(r, name, "spawned")) return false;
    }
    return true;
}

NavStatus scen_setup_bots(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    char cls_name[64];
    int cls = 0;
    if (scen_get_string(L, t, "class", cls_name, sizeof cls_name) && (cls = world_find_class(r->w, cls_name)) < 0) {
        lua_settop(L, t - 1);
        return scen_spec_error(err, r->where, "scenario: no class '%s' in %s", cls_name, r->map);
    }
    int n = scen_push_table_list(r, t, "bots", "a bot{}", err);
    if (n < 0) {
        lua_settop(L, t - 1);
        return NAV_FAILURE | NAV_E_FORMAT;
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        char kind[16] = "";
        scen_get_string(L, lua_gettop(L), "_kind", kind, sizeof kind);
        NavStatus st =
            strcmp(kind, "player") == 0 ? add_player(r, lua_gettop(L), err) : add_bots(r, lua_gettop(L), cls, err);
        lua_pop(L, 1);
        if (NAV_FAILED(st)) {
            lua_settop(L, t - 1);
            return st;
        }
    }
    lua_settop(L, t - 1);
    return NAV_OK;
}

/* The bots a selector list names (bots, groups, "*"), minus `except`. */
static NavStatus select_bots(Run *r, int list, int except, const char *where, Expect *x, NavError *err)
{
    lua_State *L = r->L;
    nav_free(r->pick);
    uint8_t *pick = r->pick = nav_calloc(r->nnames + 1, 1);
    if (!pick) return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for expectations");
    for (int pass = 0; pass < 2; pass++) {
        int idx = pass ? except : list;
        if (!idx || lua_type(L, idx) != LUA_TTABLE) continue;
        lua_Unsigned len = lua_rawlen(L, idx);
        int n = len > (lua_Unsigned)INT_MAX ? INT_MAX : (int)len;
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, idx, i);
            const char *name = lua_tostring(L, -1);
            bool any = false;
            for (uint32_t b = 0; name && b < r->nnames; b++) {
                if (strcmp(name, "*") == 0 || strcmp(name, r->names[b].name) == 0 ||
                    strcmp(name, r->names[b].group) == 0) {
                    pick[b] = pass ? 0 : 1;
                    any = true;
                }
            }
            if (!any) {
                char known[512] = "";
                size_t k = 0;
                for (uint32_t b = 0; b < r->nnames && k < sizeof known - 64; b++) {
                    if (b > 0 && strcmp(r->names[b].group, r->names[b - 1].group) == 0) continue;
                    k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", r->names[b].group);
                }
                NavStatus st = scen_spec_error(err, where, "%s: no bot or group named '%s' (bots: %s)", x->text,
                                               name ? name : "?", known);
                lua_pop(L, 1);
                return st;
            }
            lua_pop(L, 1);
        }
    }
    x->bots = nav_malloc((r->nnames + 1) * sizeof *x->bots);
    x->done = nav_calloc(r->nnames + 1, 1);
    x->optimum = nav_calloc(r->nnames + 1, sizeof *x->optimum);
    if (!x->bots || !x->done || !x->optimum)
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for expectations");
    for (uint32_t b = 0; b < r->nnames; b++)
        if (pick[b]) x->bots[x->nbots++] = b;
    return NAV_OK;
}

/* Names in the list field k of the table at idx, mapped to bits by fn. */
static NavStatus name_bits(Run *r, int idx, const char *k, const char *where, const char *what, int (*fn)(const char *),
                           uint32_t *bits, NavError *err)
{
    lua_State *L = r->L;
    int n = scen_push_list(L, idx, k);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *name = lua_tostring(L, -1);
        int bit = name ? fn(name) : -1;
        lua_pop(L, 1);
        if (bit < 0) {
            lua_pop(L, 1);
            return scen_spec_error(err, where, "%s: unknown %s '%s'", k, what, name ? name : "?");
        }
        *bits |= 1u << bit;
    }
    lua_pop(L, 1);
    return NAV_OK;
}

static int travel_bit(const char *name) { return area_travel_from_name(name); }

static int area_flag_bit(const char *name)
{
    uint32_t flag = area_kind_flag(name);
    if (!flag) return -1;
    int bit = 0;
    while (!(flag & (1u << bit))) bit++;
    return bit;
}

static int contents_bit(const char *name)
{
    for (int c = 0; c < NAV_CONTENTS_COUNT; c++)
        if (strcmp(world_contents_name((NavContents)c), name) == 0) return c;
    return -1;
}

static int route_flag_bit(const char *name)
{
    uint32_t f = route_flag_of_name(name);
    if (!f || (f & (f - 1))) return -1;
    int bit = 0;
    while (!(f & (1u << bit))) bit++;
    return bit;
}

NavStatus scen_setup_expectations(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    int n = scen_push_table_list(r, t, "expect", "an expectation", err);
    if (n < 0) {
        lua_settop(L, t - 1);
        return NAV_FAILURE | NAV_E_FORMAT;
    }
    int list = lua_gettop(L);
    NavStatus st = NAV_OK;
    if (n > 0 && !(r->ex = nav_calloc((size_t)n, sizeof *r->ex)))
        st = nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for expectations");
    for (int i = 1; i <= n && NAV_SUCCEEDED(st); i++) {
        lua_rawgeti(L, list, i);
        int e = lua_gettop(L);
        Expect *x = &r->ex[r->nex++];
        x->fn = LUA_NOREF;
        char kind[32] = "";
        if (!scen_get_string(L, e, "where", x->where, sizeof x->where))
            snprintf(x->where, sizeof x->where, "%s", r->where);
        scen_get_string(L, e, "text", x->text, sizeof x->text);
        scen_get_string(L, e, "kind", kind, sizeof kind);
        int k = -1;
        for (size_t j = 0; j < NAV_ARRAY_COUNT(EXPECT_NAMES); j++)
            if (strcmp(kind, EXPECT_NAMES[j]) == 0) k = (int)j;
        if (k < 0) {
            st = scen_spec_error(err, x->where, "expect[%d]: unknown expectation '%s'", i, kind);
            break;
        }
        x->kind = (ExpectKind)k;
        double v;
        if (scen_get_number(L, e, "within", &v)) x->within = v;
        if (scen_get_number(L, e, "factor", &v)) x->factor = v;
        if (scen_get_number(L, e, "longer", &v)) x->longer = v;
        scen_get_string(L, e, "matching", x->matching, sizeof x->matching);
        x->at_end = scen_get_bool(L, e, "at_end");
        if (x->kind == EX_CHECK) {
            if (scen_get_field(L, e, "fn") == LUA_TFUNCTION) x->fn = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_pop(L, 1);
        }
        st = name_bits(r, e, "types", x->where, "travel type", travel_bit, &x->travel, err);
        if (NAV_SUCCEEDED(st))
            st = name_bits(r, e, "flags", x->where, x->kind == EX_NEAR_OPTIMAL ? "travel flag" : "area flag",
                           x->kind == EX_NEAR_OPTIMAL ? route_flag_bit : area_flag_bit,
                           x->kind == EX_NEAR_OPTIMAL ? &x->route_flags : &x->area_flags, err);
        if (NAV_SUCCEEDED(st)) st = name_bits(r, e, "contents", x->where, "contents", contents_bit, &x->contents, err);
        if (x->kind == EX_NEAR_OPTIMAL && !x->route_flags) x->route_flags = NAV_TFL_DEFAULT;
        if (NAV_SUCCEEDED(st)) {
            scen_get_field(L, e, "bots");
            scen_get_field(L, e, "except");
            st = select_bots(r, e + 1, e + 2, x->where, x, err);
        }
        lua_settop(L, list);
    }
    lua_settop(L, t - 1);
    return st;
}

NavStatus scen_setup_events(Run *r, NavError *err)
{
    lua_State *L = r->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_spec);
    int t = lua_gettop(L);
    int n = scen_push_table_list(r, t, "events", "an event", err);
    if (n < 0) {
        lua_settop(L, t - 1);
        return NAV_FAILURE | NAV_E_FORMAT;
    }
    int list = lua_gettop(L);
    if (n > 0 && !(r->ev = nav_calloc((size_t)n, sizeof *r->ev))) {
        lua_settop(L, t - 1);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for events");
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        int e = lua_gettop(L);
        Event *x = &r->ev[r->nev++];
        x->cond = x->actions = LUA_NOREF;
        if (!scen_get_string(L, e, "where", x->where, sizeof x->where))
            snprintf(x->where, sizeof x->where, "%s", r->where);
        scen_get_string(L, e, "text", x->text, sizeof x->text);
        char trig[16] = "";
        scen_get_string(L, e, "trigger", trig, sizeof trig);
        x->trigger = strcmp(trig, "tick") == 0 ? TRIG_TICK : strcmp(trig, "when") == 0 ? TRIG_WHEN : TRIG_TIME;
        if (x->trigger == TRIG_WHEN) {
            if (scen_get_field(L, e, "value") == LUA_TFUNCTION) x->cond = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_pop(L, 1);
        } else {
            scen_get_number(L, e, "value", &x->at);
        }
        /* Each action a table holding its function (run_actions reads
        ** them while the scenario runs). */
        bool actions_ok = true;
        if (scen_get_field(L, e, "actions") == LUA_TTABLE) {
            lua_Unsigned na = lua_rawlen(L, -1);
            for (lua_Unsigned k = 1; k <= na && actions_ok; k++) {
                lua_rawgeti(L, -1, (lua_Integer)k);
                actions_ok = scen_get_field(L, -1, "fn") == LUA_TFUNCTION;
                lua_pop(L, 2);
            }
            x->actions = luaL_ref(L, LUA_REGISTRYINDEX);
        } else {
            lua_pop(L, 1);
        }
        lua_settop(L, list);
        if (x->actions == LUA_NOREF || !actions_ok || (x->trigger == TRIG_WHEN && x->cond == LUA_NOREF)) {
            lua_settop(L, t - 1);
            return scen_spec_error(err, x->where, "events[%d]: not an event made by scenario.at, .at_tick or .when", i);
        }
    }
    lua_settop(L, t - 1);
    return NAV_OK;
}

/* Route time from p to q for class cls, seconds; < 0 when there is none. */
static double route_seconds(Run *r, int cls, const float p[3], const float q[3], uint32_t flags)
{
    NavError e;
    nav_error_clear(&e);
    NavRouter *rt = sim_router(r->sim, cls, &e);
    if (!rt) return -1.0;
    const NavAreaGraph *ag = router_graph(rt);
    float snap[3];
    uint32_t a = area_point_area(ag, p[0], p[1], p[2]);
    if (a == NAV_NO_AREA) a = area_nearest_area(ag, p[0], p[1], p[2], 2.0f, snap);
    uint32_t b = area_point_area(ag, q[0], q[1], q[2]);
    if (b == NAV_NO_AREA) b = area_nearest_area(ag, q[0], q[1], q[2], 2.0f, snap);
    if (a == NAV_NO_AREA || b == NAV_NO_AREA) return -1.0;
    /* A route's time ends on entering the goal's area; crossing that area
    ** to the goal itself is part of getting there. */
    uint32_t links[4096];
    NavRoute route = { .time = ROUTE_UNREACHABLE };
    int n;
    if (NAV_FAILED(router_route_links(rt, a, p, b, flags, links, (int)NAV_ARRAY_COUNT(links), &n, &route)) ||
        route.time == ROUTE_UNREACHABLE)
        return -1.0;
    if (n == 0) return area_time_between(ag, a, p, q) / 100.0;
    if (n > (int)NAV_ARRAY_COUNT(links)) return route.time / 100.0; /* too long to list: without the last part */
    const NavReach *last = area_reach(ag, links[n - 1]);
    return (route.time + area_time_between(ag, b, last->end, q)) / 100.0;
}

/* near_optimal: the routed optimum from where each bot starts through its
** goals in order (after spawn, so goals a brain queued count). */
void scen_compute_optimum(Run *r, Expect *x)
{
    for (int i = 0; i < x->nbots; i++) {
        const NavBot *b = sim_bot(r->sim, x->bots[i]);
        double total = 0.0;
        const float *from = b->pos;
        for (int g = 0; g < b->goal_count && total >= 0.0; g++) {
            double leg = route_seconds(r, b->cls, from, b->goals[g], x->route_flags);
            total = leg < 0.0 ? -1.0 : total + leg;
            from = b->goals[g];
        }
        x->optimum[i] = b->goal_count ? total : -1.0;
    }
}

/* }======= */

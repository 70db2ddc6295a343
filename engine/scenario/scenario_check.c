/*
** scenario_check.c — running a scenario: its events when they fire,
** its expectations each tick and at the end.
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

#include "area/area.h"
#include "core/fileio.h"
#include "map/map.h"
#include "route/route.h"
#include "script/nav_api.h"
#include "script/run_trace.h"
#include "lua/sandbox.h"

/* {======= running: events, expectations each tick and at the end ======= */

static void run_actions(Run *r, Event *x)
{
    lua_State *L = r->L;
    scen_log_line(r, "%.2f s  %s (%s)", sim_time(r->sim), x->text, x->where);
    lua_rawgeti(L, LUA_REGISTRYINDEX, x->actions);
    int list = lua_gettop(L);
    int n = (int)lua_rawlen(L, list); /* each a table with fn: scen_setup_events checked */
    for (int i = 1; i <= n && !r->failed; i++) {
        lua_rawgeti(L, list, i);
        char text[128] = "action", where[SCEN_WHERE_MAX];
        scen_get_string(L, -1, "text", text, sizeof text);
        if (!scen_get_string(L, -1, "where", where, sizeof where)) snprintf(where, sizeof where, "%s", x->where);
        scen_get_field(L, -1, "fn");
        lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref_ctx);
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(sandbox_call(r->sb, 1, 0, &e))) {
            char msg[512];
            scen_copy_first_line(msg, sizeof msg, e.message);
            scen_fail(r, x->where, x->text, -1, "the action '%s' (%s) failed: %s", text, where, msg);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, list - 1);
}

static void fire_events(Run *r)
{
    for (int i = 0; i < r->nev && !r->failed; i++) {
        Event *x = &r->ev[i];
        if (x->fired) continue;
        bool due = false;
        if (x->trigger == TRIG_TIME) due = sim_time(r->sim) + 1e-9 >= x->at;
        else if (x->trigger == TRIG_TICK) due = (double)sim_tick(r->sim) >= x->at;
        else {
            char msg[512];
            if (!scen_call_ref(r, x->cond, 1, msg, sizeof msg)) {
                scen_fail(r, x->where, x->text, -1, "the condition failed: %s", msg);
                return;
            }
            due = lua_toboolean(r->L, -1);
            lua_pop(r->L, 1);
        }
        if (!due) continue;
        x->fired = true;
        run_actions(r, x);
    }
}

/* Bot a's and b's bodies overlap (by more than a hair). */
static bool overlap(const NavSim *sim, const NavBot *a, const NavBot *b)
{
    float alo[3], ahi[3], blo[3], bhi[3];
    sim_bot_box(sim, a, alo, ahi);
    sim_bot_box(sim, b, blo, bhi);
    for (int k = 0; k < 3; k++)
        if (a->pos[k] + ahi[k] <= b->pos[k] + blo[k] + SCEN_OVERLAP_EPS ||
            b->pos[k] + bhi[k] <= a->pos[k] + alo[k] + SCEN_OVERLAP_EPS)
            return false;
    return true;
}

static double deadline(const Run *r, const Expect *x) { return x->within > 0.0 ? x->within : r->time_limit; }

/* A free-form check: true when it held. */
static bool run_check(Run *r, Expect *x)
{
    lua_State *L = r->L;
    char msg[512];
    int top = lua_gettop(L);
    if (!scen_call_ref(r, x->fn, 3, msg, sizeof msg)) {
        scen_fail(r, x->where, x->text, -1, "the check raised an error: %s", msg);
        return false;
    }
    bool ok = lua_isnil(L, top + 1) || lua_toboolean(L, top + 1);
    if (!ok) {
        const char *m = lua_tostring(L, top + 2);
        int bot = -1;
        if (lua_type(L, top + 3) == LUA_TSTRING) {
            for (uint32_t b = 0; b < r->nnames; b++)
                if (strcmp(r->names[b].name, lua_tostring(L, top + 3)) == 0) bot = (int)b;
        } else if (lua_isinteger(L, top + 3) && lua_tointeger(L, top + 3) >= 0 &&
                   lua_tointeger(L, top + 3) < (lua_Integer)r->nnames) {
            bot = (int)lua_tointeger(L, top + 3);
        }
        scen_fail(r, x->where, x->text, bot, "%s", m ? m : "the check returned false");
    }
    lua_settop(L, top);
    return ok;
}

static void check_tick(Run *r, Expect *x)
{
    NavSim *sim = r->sim;
    double now = sim_time(sim);
    for (int i = 0; i < x->nbots && !r->failed; i++) {
        uint32_t id = x->bots[i];
        const NavBot *b = sim_bot(sim, id);
        switch (x->kind) {
        case EX_ARRIVES:
            if (x->done[i]) break;
            if (sim_bot_arrived(sim, id)) x->done[i] = 1;
            else if (now > deadline(r, x) + 1e-9)
                scen_fail(r, x->where, x->text, (int)id, "not arrived after %.2f s (%d goals reached, %d left)", now,
                          b->goals_reached, b->goal_count);
            break;
        case EX_NEAR_OPTIMAL: {
            if (x->done[i]) break;
            double opt = x->optimum[i], allowed = opt * x->factor;
            if (opt < 0.0) {
                scen_fail(r, x->where, x->text, (int)id,
                          "no routed optimum: no route from its start through its goals");
            } else if (sim_bot_arrived(sim, id)) {
                x->done[i] = 1;
                if (b->arrival_time > allowed + 1e-9)
                    scen_fail(r, x->where, x->text, (int)id,
                              "arrived after %.2f s; the routed optimum is %.2f s, so %.2fx, over the %gx allowed",
                              b->arrival_time, opt, opt > 0 ? b->arrival_time / opt : 0.0, x->factor);
            } else if (now > allowed + 1e-9) {
                scen_fail(r, x->where, x->text, (int)id,
                          "not arrived after %.2f s: %gx the routed optimum of %.2f s (%d goals reached, %d left)", now,
                          x->factor, opt, b->goals_reached, b->goal_count);
            }
            break;
        }
        case EX_NEVER_USES:
            if (b->travel_used & x->travel) {
                char names[256];
                scen_travel_names(b->travel_used & x->travel, names, sizeof names);
                scen_fail(r, x->where, x->text, (int)id, "used %s", names);
            }
            break;
        case EX_NEVER_ENTERS: {
            NavAreaGraph *ag = sim_graph(sim, b->cls, NULL);
            uint32_t a = ag ? area_point_area(ag, b->pos[0], b->pos[1], b->pos[2]) : NAV_NO_AREA;
            if (a == NAV_NO_AREA) break;
            const NavArea *ar = area_get(ag, a);
            /* A body whose feet are above a liquid's surface stands on the
            ** bank beside it, its centre just over the edge: not in it. */
            bool liquid = ar->flags & (NAV_AREA_LIQUID | NAV_AREA_LAVA | NAV_AREA_SLIME);
            if (liquid && b->pos[2] >= ar->zmax - 0.01f) break;
            if ((ar->flags & x->area_flags) || (x->contents & (1u << ar->contents)))
                scen_fail(r, x->where, x->text, (int)id, "entered area %u (%s%s%s%s%s%s)", a,
                          world_contents_name((NavContents)ar->contents), ar->flags & NAV_AREA_LEDGE ? ", ledge" : "",
                          ar->flags & NAV_AREA_LIQUID ? ", liquid" : "", ar->flags & NAV_AREA_CROUCH ? ", crouch" : "",
                          ar->flags & NAV_AREA_LADDER ? ", ladder" : "",
                          ar->flags & (NAV_AREA_LAVA | NAV_AREA_SLIME) ? ", hurts" : "");
            break;
        }
        case EX_NEVER_STUCK:
            if (b->stuck_time > x->longer)
                scen_fail(r, x->where, x->text, (int)id, "stuck for %.2f s (wishing to move without moving)",
                          (double)b->stuck_time);
            break;
        case EX_NO_FAULTS:
            if (session_bot_faulted(r->s, id)) {
                char first[512];
                scen_copy_first_line(first, sizeof first, session_bot_error(r->s, id));
                scen_fail(r, x->where, x->text, (int)id, "faulted: %s", first);
            }
            break;
        case EX_FAULTS:
            if (x->done[i]) break;
            if (session_bot_faulted(r->s, id)) {
                const char *e = session_bot_error(r->s, id);
                if (x->matching[0] && !strstr(e, x->matching)) {
                    char first[512];
                    scen_copy_first_line(first, sizeof first, e);
                    scen_fail(r, x->where, x->text, (int)id, "faulted, but with '%s' (expected it to mention '%s')",
                              first, x->matching);
                }
                x->done[i] = 1;
            } else if (x->within > 0.0 && now > x->within + 1e-9) {
                scen_fail(r, x->where, x->text, (int)id, "has not faulted after %.2f s", now);
            }
            break;
        default: break;
        }
    }
    if (r->failed) return;
    if (x->kind == EX_NO_OVERLAP) {
        uint32_t n = sim_bot_count(sim);
        for (uint32_t i = 0; i < n && !r->failed; i++) {
            const NavBot *a = sim_bot(sim, i);
            for (uint32_t j = i + 1; j < n; j++) {
                const NavBot *b = sim_bot(sim, j);
                if (fabsf(a->pos[0] - b->pos[0]) > 4.0f || fabsf(a->pos[1] - b->pos[1]) > 4.0f) continue;
                if (!overlap(sim, a, b)) continue;
                scen_fail(r, x->where, x->text, (int)i,
                          "%s and %s overlap: at (%.3f, %.3f, %.3f) and (%.3f, %.3f, %.3f)", r->names[i].name,
                          r->names[j].name, (double)a->pos[0], (double)a->pos[1], (double)a->pos[2], (double)b->pos[0],
                          (double)b->pos[1], (double)b->pos[2]);
                break;
            }
        }
    } else if (x->kind == EX_CHECK && !x->at_end) {
        run_check(r, x);
    }
}

static void check_end(Run *r, Expect *x)
{
    NavSim *sim = r->sim;
    double now = sim_time(sim);
    for (int i = 0; i < x->nbots && !r->failed; i++) {
        uint32_t id = x->bots[i];
        const NavBot *b = sim_bot(sim, id);
        switch (x->kind) {
        case EX_ARRIVES:
            if (!x->done[i])
                scen_fail(r, x->where, x->text, (int)id,
                          "not arrived when the run ended at %.2f s (%d goals reached, %d left)", now, b->goals_reached,
                          b->goal_count);
            break;
        case EX_NEAR_OPTIMAL:
            if (!x->done[i])
                scen_fail(r, x->where, x->text, (int)id,
                          "not arrived when the run ended at %.2f s (routed optimum %.2f s)", now, x->optimum[i]);
            break;
        case EX_USES:
            if ((b->travel_used & x->travel) != x->travel) {
                char missing[256], used[256];
                scen_travel_names(x->travel & ~b->travel_used, missing, sizeof missing);
                scen_travel_names(b->travel_used, used, sizeof used);
                scen_fail(r, x->where, x->text, (int)id, "never used %s (used: %s)", missing, used);
            }
            break;
        case EX_FAULTS:
            if (!x->done[i]) scen_fail(r, x->where, x->text, (int)id, "never faulted (the run ended at %.2f s)", now);
            break;
        default: break;
        }
    }
    if (!r->failed && x->kind == EX_CHECK && x->at_end) run_check(r, x);
}

/* Every live bot that had goals has none left (and some bot had goals);
** or every bot faulted. */
static bool all_arrived(Run *r)
{
    bool any = false;
    uint32_t alive = 0;
    for (uint32_t i = 0; i < r->nnames; i++) {
        const NavBot *b = sim_bot(r->sim, i);
        if (session_bot_faulted(r->s, i)) continue;
        bool had = b->goals_reached + b->goals_skipped + b->goal_count > 0;
        if (!had && scen_player_of(r, i)) {
            /* A player without goals holds the run while its recording plays. */
            if (!player_body_replay_over(scen_player_of(r, i)->body)) return false;
            continue;
        }
        alive++;
        any |= had;
        if (had && b->goal_count > 0) return false;
    }
    return alive == 0 || any;
}

static bool should_stop(Run *r)
{
    if (r->until == UNTIL_ARRIVED) return all_arrived(r);
    if (r->until == UNTIL_FUNCTION) {
        char msg[512];
        if (!scen_call_ref(r, r->ref_until, 1, msg, sizeof msg)) {
            scen_fail(r, r->where, "until", -1, "the until function failed: %s", msg);
            return true;
        }
        bool stop = lua_toboolean(r->L, -1);
        lua_pop(r->L, 1);
        return stop;
    }
    return false;
}

void scen_simulate(Run *r)
{
    uint64_t limit = (uint64_t)ceil(r->time_limit * r->hz - 1e-9);
    bool stopped = false;
    if (r->opt->max_ticks && r->opt->max_ticks < limit) {
        limit = r->opt->max_ticks;
        stopped = true;
    }
    while (!r->failed && sim_tick(r->sim) < limit) {
        fire_events(r);
        if (!r->failed && !scen_name_spawned(r)) scen_fail(r, r->where, "scenario", -1, "out of memory");
        if (r->failed) break;
        session_step(r->s);
        if (!scen_name_spawned(r)) scen_fail(r, r->where, "scenario", -1, "out of memory");
        if (r->trace) run_trace_tick(r->trace, r->s);
        if (r->record && r->opt->on_tick) r->opt->on_tick(r->opt->user, r->s);
        for (int i = 0; i < r->nex && !r->failed; i++) check_tick(r, &r->ex[i]);
        if (!r->failed && should_stop(r)) {
            stopped = true;
            break;
        }
    }
    for (int i = 0; i < r->nex && !r->failed; i++) check_end(r, &r->ex[i]);
    if (!r->failed && !stopped && r->until != UNTIL_TIME) {
        if (r->until == UNTIL_ARRIVED) {
            int left = 0, first = -1;
            for (uint32_t i = 0; i < r->nnames; i++) {
                if (session_bot_faulted(r->s, i) || sim_bot(r->sim, i)->goal_count == 0) continue;
                left++;
                if (first < 0) first = (int)i;
            }
            scen_fail(r, r->where, "scenario", first,
                      "the time limit of %g s ran out with %d bot%s still short of %s goals", r->time_limit, left,
                      left == 1 ? "" : "s", left == 1 ? "its" : "their");
        } else {
            scen_fail(r, r->where, "scenario", -1, "the time limit of %g s ran out before the until function held",
                      r->time_limit);
        }
    }
}

/* }======= */

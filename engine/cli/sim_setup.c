/*
** sim_setup.c — options, bot placement and the report shared by `navbot
** run` and `navbot sim` (sim_setup.h).
*/
#include "cli/sim_setup.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "area/area.h"

/* {======= arguments ======= */

bool sim_setup_parse_group(const char *s, BotGroup *g)
{
    memset(g, 0, sizeof *g);
    g->count = 1;
    size_t n = strcspn(s, ":@");
    if (n == 0 || n >= sizeof g->brain) return false;
    memcpy(g->brain, s, n);
    s += n;
    if (*s == ':') {
        s++;
        char *end;
        errno = 0;
        long c = strtol(s, &end, 10);
        if (end == s || errno || c < 1 || c > SIM_MAX_BOTS) return false;
        g->count = (int)c;
        s = end;
    }
    if (*s == '@') {
        if (!s[1]) return false;
        g->where = s + 1;
        s += strlen(s);
    }
    return *s == '\0';
}



/* }======= */

/* {======= placing bots ======= */

/* An entity's spot: the middle of its box's floor. */
static void entity_spot(const NavEntity *en, float p[3])
{
    p[0] = 0.5f * (en->mins[0] + en->maxs[0]);
    p[1] = 0.5f * (en->mins[1] + en->maxs[1]);
    p[2] = en->mins[2];
}

/* WHERE: "X,Y[,Z]" (no Z: the highest floor there) or an entity's name.
** False when it is neither; *yaw gets the entity's facing (0 for points). */
static bool where_point(const NavWorld *w, const char *s, float p[3], float *yaw)
{
    bool has_z;
    *yaw = 0.0f;
    if (cli_parse_point(s, p, &has_z)) {
        if (!has_z) {
            const NavFloor *f = world_floor_at(w, p[0], p[1], 1e6f, 1e6f);
            p[2] = f ? f->z : 0.0f;
        }
        return true;
    }
    int e = world_find_entity(w, s);
    if (e < 0) return false;
    entity_spot(world_entity(w, e), p);
    *yaw = world_entity(w, e)->yaw;
    return true;
}

/* Where a group's next bot starts: its WHERE, else the map's spawn points
** in turn. CLI_OK with pos set, else the error is printed. */
static int group_start(const CliContext *cx, const char *cmd, const NavWorld *w, const BotGroup *g, int *spawn_turn, float pos[3],
                       float *yaw)
{
    if (g->where) {
        if (where_point(w, g->where, pos, yaw)) return CLI_OK;
        fprintf(cx->err, "navbot %s: --bot %s@%s: no spawn or entity '%s' in %s, and not X,Y[,Z]\n", cmd, g->brain,
                g->where, g->where, world_source(w));
        return CLI_USAGE;
    }
    int spawns = 0;
    for (int i = 0; i < world_entity_count(w); i++) spawns += world_entity(w, i)->type == NAV_ENTITY_SPAWN;
    if (!spawns) {
        fprintf(cx->err, "navbot %s: %s has no spawn points; say where: --bot %s@X,Y[,Z]\n", cmd, world_source(w),
                g->brain);
        return CLI_USAGE;
    }
    int want = (*spawn_turn)++ % spawns;
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *en = world_entity(w, i);
        if (en->type != NAV_ENTITY_SPAWN || want-- > 0) continue;
        entity_spot(en, pos);
        *yaw = en->yaw;
        break;
    }
    return CLI_OK;
}

/* }======= */


void sim_setup_travel_names(uint32_t used, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        if (!(used & NAV_TFL_TYPE(t))) continue;
        int k = snprintf(buf + n, cap - n, "%s%s", n ? "," : "", area_travel_name((NavTravelType)t));
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
    if (!n) snprintf(buf, cap, "-");
}

void sim_setup_report(const CliContext *cx, NavSession *s, const SimSetup *a)
{
    NavSim *sim = session_sim(s);
    uint32_t n = sim_bot_count(sim);
    int arrived = 0, faulted = 0;
    for (uint32_t i = 0; i < n; i++) {
        const NavBot *b = sim_bot(sim, i);
        char travel[256];
        sim_setup_travel_names(b->travel_used, travel, sizeof travel);
        bool ok = sim_bot_arrived(sim, i), bad = session_bot_faulted(s, i);
        arrived += ok;
        faulted += bad;
        fprintf(cx->out, "bot %-3u %-10s ", i, session_bot_brain(s, i));
        if (ok) fprintf(cx->out, "arrived %7.2f s", b->arrival_time);
        else fprintf(cx->out, "%-17s", "not arrived");
        fprintf(cx->out, "  goals %d/%d  distance %7.1f m  stuck %5.1f s  travel %s\n", b->goals_reached,
                b->goals_reached + b->goal_count, b->distance, b->stuck_total, travel);
        const char *e = session_bot_error(s, i);
        if (e) {
            /* The first line is the message; the traceback follows, indented. */
            fprintf(cx->out, "        faulted: ");
            for (const char *p = e; *p; p++) {
                fputc(*p, cx->out);
                if (*p == '\n' && p[1]) fputs("        ", cx->out);
            }
            fputc('\n', cx->out);
        }
    }
    fprintf(cx->out, "%u bots: %d arrived, %d faulted; %llu ticks (%.2f s) at %u Hz, seed %llu\n", n, arrived,
            faulted, (unsigned long long)sim_tick(sim), sim_time(sim), a->hz, (unsigned long long)a->seed);
    fprintf(cx->out, "trace hash %016llx\n", (unsigned long long)sim_trace_hash(sim));
}


static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}


bool sim_setup_all_done(NavSession *s)
{
    NavSim *sim = session_sim(s);
    bool any = false;
    uint32_t alive = 0;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (session_bot_faulted(s, i)) continue;
        alive++;
        bool had = b->goals_reached + b->goals_skipped + b->goal_count > 0;
        any |= had;
        /* Bots that never had a goal (wanderers, hiders) do not hold the run. */
        if (had && b->goal_count > 0) return false;
    }
    /* No live bot with goals: nothing to wait for but the cap, unless all faulted. */
    return alive == 0 || any;
}


void sim_setup_defaults(SimSetup *a)
{
    memset(a, 0, sizeof *a);
    a->root = NULL;
    a->seed = 1;
    a->hz = SIM_DEFAULT_TICK_HZ;
}

int sim_setup_add_group(const CliContext *cx, const CliCommand *cmd, SimSetup *a, const char *text)
{
    if (a->group_count == SETUP_MAX_GROUPS)
        return cli_usage_error(cx, cmd, "at most %d bot groups", SETUP_MAX_GROUPS);
    if (!sim_setup_parse_group(text, &a->groups[a->group_count]))
        return cli_usage_error(cx, cmd, "bot %s: expected BRAIN[:COUNT][@WHERE], COUNT from 1 to %d", text,
                               SIM_MAX_BOTS);
    a->group_count++;
    return CLI_OK;
}

int sim_setup_option(const CliContext *cx, const CliCommand *cmd, SimSetup *a, int argc, char **argv, int *i)
{
    const char *val;
    int r;
    uint32_t u;
    if (strcmp(argv[*i], "--quiet") == 0) {
        a->quiet = true;
    } else if ((r = cli_take_value("--bot", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--bot needs BRAIN[:COUNT][@WHERE]"), -1;
        if (sim_setup_add_group(cx, cmd, a, val) != CLI_OK) return -1;
    } else if ((r = cli_take_value("--bot-goal", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--bot-goal needs an entity name or X,Y[,Z]"), -1;
        if (!a->group_count) return cli_usage_error(cx, cmd, "--bot-goal %s: give it after the --bot it is for", val), -1;
        BotGroup *g = &a->groups[a->group_count - 1];
        if (g->goal_count == SIM_MAX_GOALS)
            return cli_usage_error(cx, cmd, "at most %d --bot-goal options per --bot", SIM_MAX_GOALS), -1;
        g->goals[g->goal_count++] = val;
    } else if ((r = cli_take_value("--goal", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--goal needs an entity name or X,Y[,Z]"), -1;
        if (a->goal_count == SETUP_MAX_GOALS)
            return cli_usage_error(cx, cmd, "at most %d --goal options", SETUP_MAX_GOALS), -1;
        a->goals[a->goal_count++] = val;
    } else if ((r = cli_take_value("--seed", argc, argv, i, &val)) != 0) {
        if (r < 0 || !cli_parse_u32(val, &u))
            return cli_usage_error(cx, cmd, "--seed needs a whole number (0 to 4294967295)"), -1;
        a->seed = u;
    } else if ((r = cli_take_value("--hz", argc, argv, i, &val)) != 0) {
        if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 1000)
            return cli_usage_error(cx, cmd, "--hz needs a whole number from 1 to 1000"), -1;
        a->hz = u;
    } else if ((r = cli_take_value("--class", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--class needs a class name"), -1;
        a->cls_name = val;
    } else if ((r = cli_take_value("--root", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--root needs a folder"), -1;
        a->root = val;
    } else {
        return 0;
    }
    return 1;
}

static void log_to_err(void *user, const char *line)
{
    const CliContext *cx = user;
    fprintf(cx->err, "%s\n", line);
}

int sim_setup_start(const CliContext *cx, const char *cmd, const SimSetup *a, NavWorld **wout, NavSession **sout)
{
    NavError e;
    nav_error_clear(&e);
    *wout = NULL;
    *sout = NULL;
    NavWorld *w = cli_load_map(cx, cmd, a->map, &e);
    if (!w) return CLI_BAD_INPUT;
    NavSession *s = NULL;
    int rc = CLI_OK, cls = 0, spawn_turn = 0;
    if (world_class_count(w) == 0) {
        fprintf(cx->err, "navbot %s: %s: the map has no mover classes\n", cmd, a->map);
        rc = CLI_BAD_INPUT;
        goto fail;
    }
    if (a->cls_name && (cls = world_find_class(w, a->cls_name)) < 0) {
        fprintf(cx->err, "navbot %s: --class: no class '%s' in %s; its classes are:", cmd, a->cls_name, a->map);
        for (int i = 0; i < world_class_count(w); i++) fprintf(cx->err, " %s", world_class(w, i)->name);
        fprintf(cx->err, "\n");
        rc = CLI_USAGE;
        goto fail;
    }
    float goals[SETUP_MAX_GOALS][3];
    for (int g = 0; g < a->goal_count; g++) {
        float ignored;
        if (!where_point(w, a->goals[g], goals[g], &ignored)) {
            fprintf(cx->err, "navbot %s: --goal %s: no entity '%s' in %s, and not X,Y[,Z]\n", cmd, a->goals[g],
                    a->goals[g], a->map);
            rc = CLI_USAGE;
            goto fail;
        }
    }
    s = session_create(w, &(NavSessionDesc){ .root = a->root, .lua_path = cx->lua_path, .seed = a->seed, .tick_hz = (int)a->hz,
                                             .log = a->quiet ? log_none : log_to_err, .log_user = (void *)cx },
                       &e);
    if (!s) {
        cli_print_error(cx, cmd, &e);
        rc = CLI_BAD_INPUT;
        goto fail;
    }
    for (int gi = 0; gi < a->group_count; gi++) {
        const BotGroup *g = &a->groups[gi];
        float own[SIM_MAX_GOALS][3];
        for (int q = 0; q < g->goal_count; q++) {
            float ignored;
            if (!where_point(w, g->goals[q], own[q], &ignored)) {
                fprintf(cx->err, "navbot %s: --bot-goal %s: no entity '%s' in %s, and not X,Y[,Z]\n", cmd,
                        g->goals[q], g->goals[q], a->map);
                rc = CLI_USAGE;
                goto fail;
            }
        }
        for (int k = 0; k < g->count; k++) {
            float want[3] = { 0, 0, 0 }, pos[3], yaw = 0.0f;
            if ((rc = group_start(cx, cmd, w, g, &spawn_turn, want, &yaw)) != CLI_OK) goto fail;
            if (!sim_place_free(session_sim(s), cls, want, 0, pos)) {
                fprintf(cx->err, "navbot %s: --bot %s: no room for a %s near (%.2f, %.2f, %.2f)\n", cmd, g->brain,
                        world_class(w, cls)->name, (double)want[0], (double)want[1], (double)want[2]);
                rc = CLI_BAD_INPUT;
                goto fail;
            }
            /* The bot and its goals first, then the brain, so spawn() sees them. */
            nav_error_clear(&e);
            NavBotDesc bd = { .cls = cls, .pos = { pos[0], pos[1], pos[2] }, .yaw = yaw };
            int got = session_add_bot(s, NULL, &bd, &e);
            if (got < 0) {
                cli_print_error(cx, cmd, &e);
                rc = CLI_BAD_INPUT;
                goto fail;
            }
            for (int q = 0; q < g->goal_count; q++) sim_bot_push_goal(session_sim(s), (uint32_t)got, own[q], 0.0f);
            for (int q = 0; q < a->goal_count; q++) sim_bot_push_goal(session_sim(s), (uint32_t)got, goals[q], 0.0f);
            session_attach_brain(s, (uint32_t)got, g->brain);
        }
    }
    *wout = w;
    *sout = s;
    return CLI_OK;
fail:
    session_destroy(s);
    world_destroy(w);
    return rc;
}

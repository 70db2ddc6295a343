/*
** sim_setup.c — options, bot placement and the report shared by `navbot
** run` and `navbot sim` (sim_setup.h).
*/
#include "cli/sim_setup.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "script/bot_outcome.h"

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

/* WHERE: "X,Y[,Z]" (cli_floor_point: no Z, the lowest floor there) or an
** entity's name. CLI_OK with p set; else the error is printed: a point off
** the floor is bad input (1), a name that is neither is bad usage (2).
** *yaw gets the entity's facing (0 for points). */
int sim_setup_where(const CliContext *cx, const char *cmd, const char *arg, const NavWorld *w, const char *s,
                    float p[3], float *yaw)
{
    *yaw = 0.0f;
    bool not_point;
    int rc = cli_point_arg(cx, cmd, arg, s, w, p, &not_point);
    if (!not_point) return rc;
    int e = world_find_entity(w, s);
    if (e < 0) {
        fprintf(cx->err, "navbot %s: %s %s: no spawn or entity '%s' in %s, and not X,Y[,Z]\n", cmd, arg, s, s,
                world_source(w));
        return CLI_USAGE;
    }
    entity_spot(world_entity(w, e), p);
    *yaw = world_entity(w, e)->yaw;
    return CLI_OK;
}

bool sim_setup_first_spawn(const NavWorld *w, float p[3], float *yaw)
{
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *en = world_entity(w, i);
        if (en->type != NAV_ENTITY_SPAWN) continue;
        entity_spot(en, p);
        *yaw = en->yaw;
        return true;
    }
    return false;
}

/* Where a group's next bot starts: its WHERE, else the map's spawn points
** in turn. CLI_OK with pos set, else the error is printed. */
static int group_start(const CliContext *cx, const char *cmd, const NavWorld *w, const BotGroup *g, int *spawn_turn,
                       float pos[3], float *yaw)
{
    if (g->where) {
        char arg[1100];
        snprintf(arg, sizeof arg, "--bot %s@", g->brain);
        bool not_point;
        int rc = cli_point_arg(cx, cmd, arg, g->where, w, pos, &not_point);
        if (!not_point) return rc;
        int e = world_find_entity(w, g->where);
        if (e < 0) {
            fprintf(cx->err, "navbot %s: --bot %s@%s: no spawn or entity '%s' in %s, and not X,Y[,Z]\n", cmd, g->brain,
                    g->where, g->where, world_source(w));
            return CLI_USAGE;
        }
        entity_spot(world_entity(w, e), pos);
        *yaw = world_entity(w, e)->yaw;
        return CLI_OK;
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

/* Spreading bots over the free floor round a start: spots on a square
** lattice a body apart, reached from the start's spot by steps between
** lattice neighbours that stay on floor (within a step up or down, with
** head room, and in sight of each other at the body's middle), in the
** order they are reached (so the nearest fill first). A spot is taken when
** a body there overlaps nothing: world, entities, bots placed before. */
typedef struct Spread {
    float want[3];
    float (*spots)[3];
    int count, next;
    int placed; /* bodies placed from it */
    bool built;
    bool nomem; /* its spots could not be listed */
} Spread;

#define SPREAD_MAX_SPOTS (1 << 20)

static bool spread_build(const NavSim *sim, int cls, Spread *sp)
{
    const NavWorld *w = sim_world(sim);
    const NavClass *c = world_class(w, cls);
    float spacing = 2.0f * c->radius + 0.1f;
    float extent = (float)(world_width(w) > world_height(w) ? world_width(w) : world_height(w)) * world_cell_size(w);
    int R = (int)ceilf(extent / spacing) + 1, side = 2 * R + 1;
    uint8_t *seen = nav_calloc((size_t)side * (size_t)side, 1);
    int *queue = nav_malloc(sizeof(int) * (size_t)SPREAD_MAX_SPOTS);
    sp->spots = nav_malloc(sizeof *sp->spots * (size_t)SPREAD_MAX_SPOTS);
    sp->built = true;
    if (!seen || !queue || !sp->spots) {
        nav_free(seen);
        nav_free(queue);
        sp->nomem = true;
        return false;
    }
    const NavFloor *f0 = world_floor_at(w, sp->want[0], sp->want[1], sp->want[2], c->step);
    int head = 0, tail = 0;
    if (f0 && isfinite(f0->z)) {
        queue[tail++] = R * side + R;
        seen[R * side + R] = 1;
        sp->spots[sp->count][0] = sp->want[0];
        sp->spots[sp->count][1] = sp->want[1];
        sp->spots[sp->count][2] = f0->z;
        sp->count++;
    }
    while (head < tail && sp->count < SPREAD_MAX_SPOTS) {
        int cur = queue[head], at = head++;
        int ci = cur % side, cj = cur / side;
        const float *from = sp->spots[at];
        static const int D[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },  { 0, -1 },
                                     { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } };
        for (int d = 0; d < 8 && sp->count < SPREAD_MAX_SPOTS; d++) {
            int ni = ci + D[d][0], nj = cj + D[d][1];
            if (ni < 0 || nj < 0 || ni >= side || nj >= side || seen[nj * side + ni]) continue;
            float x = sp->want[0] + (float)(ni - R) * spacing, y = sp->want[1] + (float)(nj - R) * spacing;
            const NavFloor *f = world_floor_at(w, x, y, from[2], c->step);
            if (!f || !isfinite(f->z) || from[2] - f->z > c->step || f->ceiling - f->z < c->height) continue;
            float a[3] = { from[0], from[1], from[2] + 0.5f * c->height }, b[3] = { x, y, f->z + 0.5f * c->height };
            if (!world_line_of_sight(w, a, b)) continue;
            seen[nj * side + ni] = 1;
            queue[tail++] = nj * side + ni;
            sp->spots[sp->count][0] = x;
            sp->spots[sp->count][1] = y;
            sp->spots[sp->count][2] = f->z;
            sp->count++;
        }
    }
    nav_free(seen);
    nav_free(queue);
    return true;
}

/* Does a body of class c at p overlap the player's body kept free (NULL:
** none)? */
static bool on_reserved(const NavClass *c, const float p[3], const SimPlayerSpot *keep)
{
    if (!keep) return false;
    float reach = c->radius + keep->radius;
    return fabsf(p[0] - keep->pos[0]) < reach && fabsf(p[1] - keep->pos[1]) < reach &&
           p[2] < keep->pos[2] + keep->height && keep->pos[2] < p[2] + c->height;
}

/* The next free spot of sp for a body of class cls; false when none is left. */
static bool spread_take(const NavSim *sim, int cls, Spread *sp, const SimPlayerSpot *keep, float out[3])
{
    if (!sp->built && !spread_build(sim, cls, sp)) return false;
    const NavClass *c = world_class(sim_world(sim), cls);
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    while (sp->next < sp->count) {
        const float *s = sp->spots[sp->next++];
        float p[3] = { s[0], s[1], s[2] + 0.01f }, zero[3] = { 0, 0, 0 };
        if (on_reserved(c, p, keep)) continue;
        NavTrace tr;
        sim_trace(sim, mins, maxs, p, zero, -1, &tr);
        if (tr.start_solid) continue;
        memcpy(out, p, sizeof p);
        return true;
    }
    return false;
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

void sim_setup_report(const CliContext *cx, NavSession *s, const SimSetup *a, const SimPlayer *pl)
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
        if (pl && pl->body && (int)i == pl->bot) {
            char who[BRAIN_NAME_MAX + 16];
            const char *brain = session_bot_brain(s, i);
            snprintf(who, sizeof who, "player%s%s", *brain ? ":" : "", brain);
            fprintf(cx->out, "bot %-3u %-10s ", i, who);
        } else {
            fprintf(cx->out, "bot %-3u %-10s ", i, session_bot_brain(s, i));
        }
        /* The words the selected bot's panel shows too (bot_outcome.h). */
        char outcome[48];
        bot_outcome_text(sim, i, pl && pl->body && (int)i == pl->bot, 7, outcome, sizeof outcome);
        fprintf(cx->out, "%-17s", outcome);
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
    fprintf(cx->out, "%u bots: %d arrived, %d faulted; %llu ticks (%.2f s) at %u Hz, seed %llu\n", n, arrived, faulted,
            (unsigned long long)sim_tick(sim), sim_time(sim), a->hz, (unsigned long long)a->seed);
    fprintf(cx->out, "trace hash %016llx\n", (unsigned long long)sim_trace_hash(sim));
}


static void log_none(void *user, const char *line)
{
    (void)user;
    (void)line;
}


bool sim_setup_all_done(NavSession *s, const SimPlayer *pl)
{
    NavSim *sim = session_sim(s);
    if (pl && pl->body && player_body_drive(pl->body) == PLAYER_DRIVE_REPLAY && !player_body_replay_over(pl->body))
        return false;
    bool any = false;
    uint32_t alive = 0;
    for (uint32_t i = 0; i < sim_bot_count(sim); i++) {
        const NavBot *b = sim_bot(sim, i);
        if (session_bot_faulted(s, i)) continue;
        bool had = b->goals_reached + b->goals_skipped + b->goal_count > 0;
        /* A player without goals goes where it is driven: nothing to wait for. */
        if (pl && pl->body && (int)i == pl->bot && !had) continue;
        alive++;
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
    if (a->group_count == SETUP_MAX_GROUPS) return cli_usage_error(cx, cmd, "at most %d bot groups", SETUP_MAX_GROUPS);
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
        if (!a->group_count)
            return cli_usage_error(cx, cmd, "--bot-goal %s: give it after the --bot it is for", val), -1;
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
        a->seed_given = true;
    } else if ((r = cli_take_value("--hz", argc, argv, i, &val)) != 0) {
        if (r < 0 || !cli_parse_u32(val, &u) || u < 1 || u > 1000)
            return cli_usage_error(cx, cmd, "--hz needs a whole number from 1 to 1000"), -1;
        a->hz = u;
        a->hz_given = true;
    } else if ((r = cli_take_value("--class", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--class needs a class name"), -1;
        a->cls_name = val;
    } else if ((r = cli_take_value("--root", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--root needs a folder"), -1;
        a->root = val;
    } else if (strcmp(argv[*i], "--player") == 0 || strncmp(argv[*i], "--player=", 9) == 0) {
        /* The value is optional: --player=V, or a next argument that is
        ** @WHERE or CLASS@WHERE (a bare word after --player is a bot). */
        const char *spec = NULL;
        if (argv[*i][8] == '=') spec = argv[*i] + 9;
        else if (*i + 1 < argc && argv[*i + 1][0] != '-' && strchr(argv[*i + 1], '@')) spec = argv[++*i];
        if (spec && (strchr(spec, '@') ? !strchr(spec, '@')[1] : !*spec))
            return cli_usage_error(cx, cmd, "--player needs [CLASS][@WHERE] (got '%s')", spec), -1;
        if (a->player.spec && spec) return cli_usage_error(cx, cmd, "one --player only"), -1;
        a->player.on = true;
        if (spec) a->player.spec = spec;
    } else if ((r = cli_take_value("--player-brain", argc, argv, i, &val)) != 0) {
        if (r < 0 || !*val) return cli_usage_error(cx, cmd, "--player-brain needs a brain (a name or a .lua file)"), -1;
        a->player.on = true;
        a->player.brain = val;
    } else if ((r = cli_take_value("--record-player", argc, argv, i, &val)) != 0) {
        if (r < 0 || !*val) return cli_usage_error(cx, cmd, "--record-player needs a file name"), -1;
        a->player.on = true;
        a->player.record = val;
    } else if ((r = cli_take_value("--play-player", argc, argv, i, &val)) != 0) {
        if (r < 0 || !*val) return cli_usage_error(cx, cmd, "--play-player needs a recording's file name"), -1;
        a->player.on = true;
        a->player.play = val;
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

int sim_setup_start(const CliContext *cx, const char *cmd, const SimSetup *a, SimPlayer *pl, NavWorld **wout,
                    NavSession **sout)
{
    NavError e;
    nav_error_clear(&e);
    *wout = NULL;
    *sout = NULL;
    NavWorld *w = cli_load_map(cx, cmd, a->map, &e);
    if (!w) return CLI_BAD_INPUT;
    NavSession *s = NULL;
    int rc = CLI_OK, cls = 0, spawn_turn = 0;
    /* One spread per distinct start, shared by every group starting there. */
    Spread spreads[SETUP_MAX_GROUPS + 16];
    int nspreads = 0;
    memset(spreads, 0, sizeof spreads);
    if ((cls = cli_find_class(cx, cmd, w, a->map, a->cls_name, &rc)) < 0) goto fail;
    float goals[SETUP_MAX_GOALS][3];
    for (int g = 0; g < a->goal_count; g++) {
        float ignored;
        if ((rc = sim_setup_where(cx, cmd, "--goal", w, a->goals[g], goals[g], &ignored)) != CLI_OK) goto fail;
    }
    s = session_create(w,
                       &(NavSessionDesc){ .root = a->root,
                                          .lua_path = cx->lua_path,
                                          .seed = a->seed,
                                          .tick_hz = (int)a->hz,
                                          .log = a->quiet ? log_none : log_to_err,
                                          .log_user = (void *)cx },
                       &e);
    if (!s) {
        cli_print_error(cx, cmd, &e);
        rc = CLI_BAD_INPUT;
        goto fail;
    }
    /* The player's spot first, kept free of the bots placed before it. */
    SimPlayerSpot spot, *keep = NULL;
    if (a->player.on) {
        if ((rc = sim_player_spot(cx, cmd, a, pl, session_sim(s), &spot)) != CLI_OK) goto fail;
        keep = &spot;
    }
    for (int gi = 0; gi < a->group_count; gi++) {
        const BotGroup *g = &a->groups[gi];
        float own[SIM_MAX_GOALS][3];
        for (int q = 0; q < g->goal_count; q++) {
            float ignored;
            if ((rc = sim_setup_where(cx, cmd, "--bot-goal", w, g->goals[q], own[q], &ignored)) != CLI_OK) goto fail;
        }
        for (int k = 0; k < g->count; k++) {
            float want[3] = { 0, 0, 0 }, pos[3], yaw = 0.0f;
            if ((rc = group_start(cx, cmd, w, g, &spawn_turn, want, &yaw)) != CLI_OK) goto fail;
            Spread *sp = NULL;
            for (int i = 0; i < nspreads && !sp; i++)
                if (memcmp(spreads[i].want, want, sizeof want) == 0) sp = &spreads[i];
            if (!sp && nspreads < (int)NAV_ARRAY_COUNT(spreads)) {
                sp = &spreads[nspreads++];
                memcpy(sp->want, want, sizeof want);
            }
            if (!sp) {
                /* More distinct starts than spreads kept: the rings round it. */
                if (!sim_place_free(session_sim(s), cls, want, 0, pos)) {
                    fprintf(cx->err, "navbot %s: --bot %s: no room for a %s near (%.2f, %.2f, %.2f)\n", cmd, g->brain,
                            world_class(w, cls)->name, (double)want[0], (double)want[1], (double)want[2]);
                    rc = CLI_BAD_INPUT;
                    goto fail;
                }
            } else if (!spread_take(session_sim(s), cls, sp, keep, pos)) {
                if (sp->nomem) {
                    fprintf(cx->err, "navbot %s: --bot %s: out of memory placing the bots\n", cmd, g->brain);
                    rc = CLI_BAD_INPUT;
                    goto fail;
                }
                int fit = sp ? sp->placed : 0;
                fprintf(cx->err,
                        "navbot %s: --bot %s: only %d %s fit on the free floor reachable from (%.2f, %.2f, %.2f)%s; "
                        "give fewer, or spread them over more places (--bot BRAIN:COUNT@WHERE)\n",
                        cmd, g->brain, fit, fit == 1 ? "body" : "bodies", (double)want[0], (double)want[1],
                        (double)want[2], g->where ? "" : " (a spawn point)");
                rc = CLI_BAD_INPUT;
                goto fail;
            }
            if (sp) sp->placed++;
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
    for (int i = 0; i < nspreads; i++) nav_free(spreads[i].spots);
    nspreads = 0;
    if (keep && (rc = sim_player_place(cx, cmd, a, s, pl, keep, (const float(*)[3])goals, a->goal_count)) != CLI_OK)
        goto fail;
    *wout = w;
    *sout = s;
    return CLI_OK;
fail:
    for (int i = 0; i < nspreads; i++) nav_free(spreads[i].spots);
    if (pl) sim_player_free(pl);
    session_destroy(s);
    world_destroy(w);
    return rc;
}

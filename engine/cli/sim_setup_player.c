/*
** sim_setup_player.c — the player of `navbot sim` and `navbot run`
** (sim_setup.h): --player [CLASS][@WHERE], --player-brain BRAIN,
** --record-player FILE and --play-player FILE.
**
** The player is added after every bot, so the bots keep the ids they have
** without it; its spot is chosen first, and the bots are spread round it.
** Its class is CLASS, else the map's first; it starts at WHERE, else at
** the map's first spawn point (the nearest free spot). A replayed
** player's class and start are the recording's, exactly, and its seed and
** tick rate become the run's.
*/
#include <string.h>

#include "cli/sim_setup.h"

/* [CLASS][@WHERE] split: class (cap bytes; "" when none) and where (NULL). */
static const char *split_spec(const char *spec, char *cls, size_t cap)
{
    cls[0] = '\0';
    if (!spec) return NULL;
    const char *at = strchr(spec, '@');
    size_t n = at ? (size_t)(at - spec) : strlen(spec);
    if (n >= cap) n = cap - 1;
    memcpy(cls, spec, n);
    cls[n] = '\0';
    return at ? at + 1 : NULL;
}

int sim_player_prepare(const CliContext *cx, const CliCommand *cmd, SimSetup *a, SimPlayer *pl, bool run)
{
    memset(pl, 0, sizeof *pl);
    pl->bot = -1;
    PlayerArgs *pa = &a->player;
    if (!pa->on) return CLI_OK;
    if (pa->play && pa->brain)
        return cli_usage_error(cx, cmd,
                               "--play-player and --player-brain exclude each other (the recording drives "
                               "the player)");
    if (run && !pa->play && !pa->brain)
        return cli_usage_error(cx, cmd,
                               "the player needs --player-brain BRAIN or --play-player FILE here (keys drive it only "
                               "in navbot sim's window)");
    if (!pa->play) return CLI_OK;
    NavError e;
    nav_error_clear(&e);
    PlayerRecord *r = player_record_load(pa->play, &e);
    if (!r) {
        cli_print_error(cx, cmd->name, &e);
        return CLI_BAD_INPUT;
    }
    char cls[PLAYER_RECORD_CLASS_MAX];
    const char *where = split_spec(pa->spec, cls, sizeof cls);
    if (cls[0] && strcmp(cls, r->info.cls) != 0) {
        fprintf(cx->err, "navbot %s: --player %s: the recording %s is of a %s (%s:%d); leave the class out\n",
                cmd->name, pa->spec, pa->play, r->info.cls, pa->play, r->line_class);
        player_record_destroy(r);
        return CLI_USAGE;
    }
    if (where) {
        fprintf(cx->err,
                "navbot %s: --player %s: a replayed player starts where the recording says (%s:%d); leave @%s out\n",
                cmd->name, pa->spec, pa->play, r->line_spawn, where);
        player_record_destroy(r);
        return CLI_USAGE;
    }
    if (!a->seed_given) a->seed = r->info.seed;
    if (!a->hz_given) a->hz = r->info.hz;
    if (NAV_FAILED(player_record_check(r, a->map, a->seed, a->hz, &e))) {
        cli_print_error(cx, cmd->name, &e);
        player_record_destroy(r);
        return CLI_BAD_INPUT;
    }
    pl->replay = r;
    return CLI_OK;
}

/* Is a body of class cls free standing at p (nothing solid in it)? */
static bool free_at(const NavSim *sim, int cls, const float p[3])
{
    const NavClass *c = world_class(sim_world(sim), cls);
    float mins[3] = { -c->radius, -c->radius, 0.0f }, maxs[3] = { c->radius, c->radius, c->height };
    float zero[3] = { 0, 0, 0 };
    NavTrace tr;
    sim_trace(sim, mins, maxs, p, zero, -1, &tr);
    return !tr.start_solid;
}

int sim_player_spot(const CliContext *cx, const char *cmd, const SimSetup *a, const SimPlayer *pl, const NavSim *sim,
                    SimPlayerSpot *out)
{
    const NavWorld *w = sim_world(sim);
    const PlayerArgs *pa = &a->player;
    const PlayerRecord *rec = pl->replay;
    char cls_name[PLAYER_RECORD_CLASS_MAX];
    const char *where = split_spec(pa->spec, cls_name, sizeof cls_name);
    if (rec) snprintf(cls_name, sizeof cls_name, "%s", rec->info.cls);
    int cls = cls_name[0] ? world_find_class(w, cls_name) : 0;
    if (cls < 0 || world_class_count(w) == 0) {
        if (rec)
            fprintf(cx->err, "navbot %s: %s:%d: class: the recording's class '%s' is not one of %s's\n", cmd, pa->play,
                    rec->line_class, cls_name, a->map);
        else
            fprintf(cx->err, "navbot %s: --player %s: no class '%s' in %s (to add a bot, give it before --player)\n",
                    cmd, pa->spec ? pa->spec : "", cls_name, a->map);
        return rec ? CLI_BAD_INPUT : CLI_USAGE;
    }
    memset(out, 0, sizeof *out);
    out->cls = cls;
    out->radius = world_class(w, cls)->radius;
    out->height = world_class(w, cls)->height;
    if (rec) {
        /* Exactly where it was, or the run would not be the same. */
        memcpy(out->pos, rec->info.spawn, sizeof out->pos);
        out->yaw = rec->info.yaw;
        if (!free_at(sim, cls, out->pos)) {
            fprintf(cx->err,
                    "navbot %s: %s:%d: spawn: the recording starts at (%.2f, %.2f, %.2f), in something solid\n", cmd,
                    pa->play, rec->line_spawn, (double)out->pos[0], (double)out->pos[1], (double)out->pos[2]);
            return CLI_BAD_INPUT;
        }
        return CLI_OK;
    }
    float want[3];
    int rc;
    if (where) {
        if ((rc = sim_setup_where(cx, cmd, "--player @", w, where, want, &out->yaw)) != CLI_OK) return rc;
    } else if (!sim_setup_first_spawn(w, want, &out->yaw)) {
        fprintf(cx->err, "navbot %s: %s has no spawn points; say where the player starts: --player @X,Y[,Z]\n", cmd,
                world_source(w));
        return CLI_USAGE;
    }
    if (!sim_place_free(sim, cls, want, 0, out->pos)) {
        fprintf(cx->err, "navbot %s: --player: no room for a %s near (%.2f, %.2f, %.2f)\n", cmd,
                world_class(w, cls)->name, (double)want[0], (double)want[1], (double)want[2]);
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

int sim_player_place(const CliContext *cx, const char *cmd, const SimSetup *a, NavSession *s, SimPlayer *pl,
                     const SimPlayerSpot *spot, const float (*goals)[3], int goal_count)
{
    NavSim *sim = session_sim(s);
    const NavWorld *w = sim_world(sim);
    const PlayerArgs *pa = &a->player;
    const PlayerRecord *rec = pl->replay;
    /* The bots kept off the spot; a bot a brain spawned could not. */
    if (!free_at(sim, spot->cls, spot->pos)) {
        fprintf(cx->err, "navbot %s: the player's start (%.2f, %.2f, %.2f) is taken by a bot\n", cmd,
                (double)spot->pos[0], (double)spot->pos[1], (double)spot->pos[2]);
        return CLI_BAD_INPUT;
    }
    NavError e;
    nav_error_clear(&e);
    NavBotDesc bd = { .cls = spot->cls, .pos = { spot->pos[0], spot->pos[1], spot->pos[2] }, .yaw = spot->yaw };
    int id = session_add_bot(s, NULL, &bd, &e);
    if (id < 0 || !(pl->body = player_body_create(s, (uint32_t)id, &e))) {
        cli_print_error(cx, cmd, &e);
        return CLI_BAD_INPUT;
    }
    pl->bot = id;
    if (rec) {
        player_body_drive_replay(pl->body, rec);
    } else if (pa->brain) {
        /* Goals first, then the brain, so spawn() sees them (as for bots). */
        for (int q = 0; q < goal_count; q++) sim_bot_push_goal(sim, (uint32_t)id, goals[q], 0.0f);
        session_attach_brain(s, (uint32_t)id, pa->brain);
        player_body_drive_brain(pl->body);
    }
    if (pa->record) {
        PlayerRecordInfo info;
        memset(&info, 0, sizeof info);
        snprintf(info.map, sizeof info.map, "%s", a->map);
        info.seed = a->seed;
        info.hz = a->hz;
        snprintf(info.cls, sizeof info.cls, "%s", world_class(w, spot->cls)->name);
        memcpy(info.spawn, spot->pos, sizeof info.spawn);
        info.yaw = spot->yaw;
        if (!player_body_record(pl->body, &info)) {
            fprintf(cx->err, "navbot %s: out of memory for the player's recording\n", cmd);
            return CLI_BAD_INPUT;
        }
    }
    return CLI_OK;
}

int sim_player_finish(const CliContext *cx, const char *cmd, const SimSetup *a, SimPlayer *pl)
{
    if (!pl->body || !a->player.record) return CLI_OK;
    const PlayerRecord *r = player_body_recording(pl->body);
    if (!player_body_record_ok(pl->body)) {
        fprintf(cx->err, "navbot %s: out of memory recording the player: %s not written\n", cmd, a->player.record);
        return CLI_BAD_INPUT;
    }
    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(player_record_save(r, a->player.record, &e))) {
        cli_print_error(cx, cmd, &e);
        return CLI_BAD_INPUT;
    }
    fprintf(cx->err, "navbot %s: player recording written to %s (%llu ticks; replay: navbot %s %s --play-player %s)\n",
            cmd, a->player.record, (unsigned long long)r->ticks, cmd, a->map, a->player.record);
    return CLI_OK;
}

void sim_player_free(SimPlayer *pl)
{
    if (!pl) return;
    player_body_destroy(pl->body);
    pl->body = NULL;
    player_record_destroy(pl->replay);
    pl->replay = NULL;
    pl->bot = -1;
}

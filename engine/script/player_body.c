/*
** player_body.c — a body the user drives (player_body.h).
*/
#include "script/player_body.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

/* {======= keys to controls ======= */

static void face_vector(NavDir d, float v[2])
{
    static const float dirs[4][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
    v[0] = dirs[d][0];
    v[1] = dirs[d][1];
}

/* The ladder the body is on or at, as sim_move.c finds it: the floor
** under its feet is a ladder's and the feet are below the top. */
static const NavFloor *ladder_here(const NavSim *sim, const NavBot *b)
{
    const NavWorld *w = sim_world(sim);
    const NavFloor *f = world_floor_at(w, b->pos[0], b->pos[1], b->pos[2] + 0.05f, 0.1f);
    const NavClass *c = world_class(w, b->cls);
    if (!f || f->contents != NAV_CONTENTS_LADDER || !c || c->ladder_speed <= 0.0f || !(b->pos[2] < f->top + 0.1f))
        return NULL;
    return f;
}

void player_keys_controls(const NavSim *sim, uint32_t bot, const PlayerKeys *k, PlayerControls *out)
{
    memset(out, 0, sizeof *out);
    float wx = (float)k->east - (float)k->west, wy = (float)k->north - (float)k->south;
    float len = hypotf(wx, wy);
    if (len > 0.0f) wx /= len, wy /= len;
    out->move[0] = wx;
    out->move[1] = wy;
    out->jump = k->jump;
    out->crouch = k->crouch;
    out->use = k->use;
    if (k->look && isfinite(k->look_at[0]) && isfinite(k->look_at[1]) && isfinite(k->look_at[2])) {
        out->look = true;
        memcpy(out->look_at, k->look_at, sizeof out->look_at);
    }
    const NavBot *b = sim_bot(sim, bot);
    if (!b) return;
    const NavFloor *f = ladder_here(sim, b);
    if (!f) return;
    const NavWorld *w = sim_world(sim);
    const NavClass *c = world_class(w, b->cls);
    float face[2];
    face_vector(world_floor_face(f), face);
    float along = wx * face[0] + wy * face[1];
    bool above_foot = b->pos[2] > f->z + 0.05f;
    if (!above_foot || !(along < -0.3f || k->crouch)) return;
    /* Down: the part of the wish across the wall is kept (sideways along
    ** the ladder); the part away from the wall becomes a pull toward the
    ** spot a body's radius off it, so the body stays over the ladder and
    ** clears the edge of the floor it climbs down from. */
    out->ladder_down = true;
    out->crouch = false;
    float tx = wx - along * face[0], ty = wy - along * face[1];
    float cs = world_cell_size(w), cx, cy;
    int ix, iy;
    if (!world_point_cell(w, b->pos[0], b->pos[1], &ix, &iy)) return;
    world_cell_center(w, ix, iy, &cx, &cy);
    float wall = cx * face[0] + cy * face[1] + 0.5f * cs;
    float want = wall - fminf(c->radius + 0.02f, cs - 0.01f);
    float at = b->pos[0] * face[0] + b->pos[1] * face[1];
    float per_tick = 0.5f * c->ladder_speed * sim_dt(sim); /* metres a tick at a full wish */
    float n = per_tick > 0.0f ? (want - at) / per_tick : 0.0f;
    n = fmaxf(-1.0f, fminf(1.0f, n));
    float mx = tx + n * face[0], my = ty + n * face[1], ml = hypotf(mx, my);
    if (ml > 1.0f) mx /= ml, my /= ml;
    out->move[0] = mx;
    out->move[1] = my;
}

/* }======= */

/* {======= a driven body ======= */

struct PlayerBody {
    NavSession *s;
    uint32_t bot;
    PlayerDrive drive;
    PlayerInputFn input;
    void *input_user;
    const PlayerRecord *replay;
    PlayerCursor cursor;
    uint64_t played;
    PlayerRecord *record;
    bool record_failed;
};

#define PLAYER_REASON "player"

static void before_move(void *user, NavSession *s)
{
    PlayerBody *p = user;
    NavSim *sim = session_sim(s);
    NavBotControl *ctl = sim_bot_control(sim, p->bot);
    if (!ctl) return;
    PlayerControls c;
    memset(&c, 0, sizeof c);
    switch (p->drive) {
    case PLAYER_DRIVE_NONE: player_controls_set(ctl, &c, PLAYER_REASON); break;
    case PLAYER_DRIVE_INPUT:
        p->input(p->input_user, sim, p->bot, &c);
        player_controls_set(ctl, &c, PLAYER_REASON);
        break;
    case PLAYER_DRIVE_REPLAY:
        /* Past the end the body stands still (c stays zero). */
        if (p->played < p->replay->ticks) player_record_at(p->replay, p->played++, &p->cursor, &c);
        player_controls_set(ctl, &c, PLAYER_REASON);
        break;
    case PLAYER_DRIVE_BRAIN:
        /* Its controls alone move it, as they will in a replay. */
        sim_bot_set_avoid(sim, p->bot, NULL);
        player_controls_get(ctl, &c);
        break;
    }
    if (p->record && !p->record_failed && !player_record_add(p->record, &c)) p->record_failed = true;
}

PlayerBody *player_body_create(NavSession *s, uint32_t bot, NavError *err)
{
    if (bot >= sim_bot_count(session_sim(s))) {
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "bot", "no bot %u to drive", bot);
        return NULL;
    }
    PlayerBody *p = nav_calloc(1, sizeof *p);
    if (!p) {
        nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory for a player");
        return NULL;
    }
    p->s = s;
    p->bot = bot;
    if (!session_add_before_move(s, before_move, p)) {
        nav_free(p);
        nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, NULL, "at most %d players in a session", SESSION_MAX_BEFORE_MOVE);
        return NULL;
    }
    return p;
}

void player_body_destroy(PlayerBody *p)
{
    if (!p) return;
    session_remove_before_move(p->s, before_move, p);
    player_record_destroy(p->record);
    nav_free(p);
}

void player_body_drive_input(PlayerBody *p, PlayerInputFn fn, void *user)
{
    p->drive = fn ? PLAYER_DRIVE_INPUT : PLAYER_DRIVE_NONE;
    p->input = fn;
    p->input_user = user;
}

void player_body_drive_replay(PlayerBody *p, const PlayerRecord *rec)
{
    p->drive = rec ? PLAYER_DRIVE_REPLAY : PLAYER_DRIVE_NONE;
    p->replay = rec;
    p->played = 0;
    memset(&p->cursor, 0, sizeof p->cursor);
}

void player_body_drive_brain(PlayerBody *p) { p->drive = PLAYER_DRIVE_BRAIN; }

bool player_body_record(PlayerBody *p, const PlayerRecordInfo *info)
{
    NavError e;
    PlayerRecord *r = player_record_new(info, &e);
    if (!r) return false;
    player_record_destroy(p->record);
    p->record = r;
    p->record_failed = false;
    return true;
}

const PlayerRecord *player_body_recording(const PlayerBody *p) { return p->record; }
bool player_body_record_ok(const PlayerBody *p) { return p->record && !p->record_failed; }
uint32_t player_body_bot(const PlayerBody *p) { return p->bot; }
PlayerDrive player_body_drive(const PlayerBody *p) { return p->drive; }
uint64_t player_body_ticks(const PlayerBody *p) { return p->played; }

bool player_body_replay_over(const PlayerBody *p)
{
    return p->drive == PLAYER_DRIVE_REPLAY && p->played >= p->replay->ticks;
}

/* }======= */

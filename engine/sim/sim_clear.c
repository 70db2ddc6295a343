/*
** sim_clear.c — places a bot with nothing to do should not stand in
** (sim_bot_in_the_way, sim.h): where others arrive or pass one at a time.
** A bot that parks on a teleporter's exit keeps everyone sent through it
** waiting (the sim sends nobody into an occupied exit); one on a jump
** pad's landing spot is landed on; one on a lift platform rides it away
** from its stop, and one under it is in the shaft; one at a ladder's foot
** or top blocks the only way up or down; one at either end of a jump
** across a gap keeps the jumpers waiting (a jump into a body drops into
** the gap, so they wait for the landing to clear). And one that another
** body landed on (a crowd at a goal under a ledge) steps out from under
** it.
*/
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

#define EXIT_CLEAR 1.2f   /* metres round a teleporter exit or pad landing to keep clear */
#define LADDER_CLEAR 0.6f /* metres round ladder cells */
#define GAP_CLEAR 0.5f    /* metres beyond two radii round a gap's take-off and landing */
#define GAP_AREAS 16      /* areas round the bot whose gaps are looked at */

typedef struct Clear {
    float pos[2]; /* the bot */
    float best;   /* how deep inside a zone it is (the deepest wins) */
    float away[2];
    const char *what;
} Clear;

/* A disc of radius r round (x, y) at height z: inside, push outward. */
static void disc(Clear *c, const float bot[3], const float at[3], float r, float height, const char *what)
{
    float dx = bot[0] - at[0], dy = bot[1] - at[1], dz = bot[2] - at[2];
    if (fabsf(dz) > height) return;
    float d = hypotf(dx, dy);
    if (d >= r || r - d <= c->best) return;
    c->best = r - d;
    if (d < 1e-3f) {
        dx = 1.0f; /* dead centre: any way out, the same every time */
        dy = 0.0f;
        d = 1.0f;
    }
    c->away[0] = dx / d;
    c->away[1] = dy / d;
    c->what = what;
}

/* A box grown by r (x, y) over heights lo..hi: inside, push out by its
** nearest side. */
static void box(Clear *c, const float bot[3], const float mins[3], const float maxs[3], float r, float lo, float hi,
                const char *what)
{
    if (bot[2] < lo || bot[2] > hi) return;
    float x0 = mins[0] - r, x1 = maxs[0] + r, y0 = mins[1] - r, y1 = maxs[1] + r;
    if (bot[0] <= x0 || bot[0] >= x1 || bot[1] <= y0 || bot[1] >= y1) return;
    float to[4] = { bot[0] - x0, x1 - bot[0], bot[1] - y0, y1 - bot[1] };
    static const float DIR[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (to[i] < to[k]) k = i;
    if (to[k] <= c->best) return;
    c->best = to[k];
    c->away[0] = DIR[k][0];
    c->away[1] = DIR[k][1];
    c->what = what;
}

/* Ladder cells within reach of the body, on its floor or just above it. */
static void ladders(Clear *c, const NavSim *sim, const NavBot *b, float r)
{
    const NavWorld *w = sim->w;
    float cs = world_cell_size(w);
    int cx, cy;
    if (!world_point_cell(w, b->pos[0], b->pos[1], &cx, &cy)) return;
    int reach = (int)ceilf((r + LADDER_CLEAR) / cs);
    for (int y = cy - reach; y <= cy + reach; y++)
        for (int x = cx - reach; x <= cx + reach; x++) {
            int n;
            const NavFloor *f = world_column(w, x, y, &n);
            for (int i = 0; f && i < n; i++) {
                if (f[i].contents != NAV_CONTENTS_LADDER) continue;
                float fx, fy;
                world_cell_center(w, x, y, &fx, &fy);
                float lo[3] = { fx - cs / 2, fy - cs / 2, f[i].z }, hi[3] = { fx + cs / 2, fy + cs / 2, f[i].top };
                /* Its foot and its top: where climbers get on and off. */
                box(c, b->pos, lo, hi, r + LADDER_CLEAR, f[i].z - 0.5f, f[i].top + 0.5f, "a ladder");
            }
        }
}

/* Both ends of the jumps across gaps that land in or leave areas round
** the body: the landing (a jumper waits while a body stands within two
** radii of it, follow.lua) and the take-off (the run-up). Only with the
** class's graph built already: a bot that stands idle before anybody
** routed blocks no gap. */
static void gaps(Clear *c, const NavSim *sim, const NavBot *b, const NavClass *cls)
{
    const NavAreaGraph *ag = b->cls >= 0 && b->cls < NAV_MAX_CLASSES ? sim->graph[b->cls] : NULL;
    if (!ag) return;
    float r = 2.0f * cls->radius + GAP_CLEAR;
    float mins[3] = { b->pos[0] - r, b->pos[1] - r, b->pos[2] - cls->height };
    float maxs[3] = { b->pos[0] + r, b->pos[1] + r, b->pos[2] + cls->height };
    uint32_t near[GAP_AREAS];
    int n = area_box_areas(ag, mins, maxs, near, GAP_AREAS);
    if (n > GAP_AREAS) n = GAP_AREAS;
    for (int i = 0; i < n; i++) {
        uint32_t count;
        const uint32_t *in = area_incoming(ag, near[i], &count);
        for (uint32_t k = 0; k < count; k++) {
            const NavReach *l = area_reach(ag, in[k]);
            if (l->type == NAV_TRAVEL_JUMP) disc(c, b->pos, l->end, r, cls->height, "a gap's landing");
        }
        const NavArea *a = area_get(ag, near[i]);
        for (uint32_t k = 0; k < a->reach_count; k++) {
            const NavReach *l = area_reach(ag, a->first_reach + k);
            if (l->type == NAV_TRAVEL_JUMP) disc(c, b->pos, l->start, r, cls->height, "a gap's edge");
        }
    }
}

bool sim_bot_in_the_way(const NavSim *sim, uint32_t id, float away[2], const char **what)
{
    if (id >= sim->bot_count) return false;
    const NavBot *b = &sim->bots[id];
    const NavClass *cls = world_class(sim->w, b->cls);
    float r = cls->radius;
    Clear c = { { b->pos[0], b->pos[1] }, 0.0f, { 0, 0 }, NULL };
    for (int i = 0; i < sim->ent_count; i++) {
        const NavEntity *e = world_entity(sim->w, i);
        switch (e->type) {
        case NAV_ENTITY_TELEPORTER:
            disc(&c, b->pos, e->u.teleporter.dest, EXIT_CLEAR + r, cls->height, "a teleporter's exit");
            box(&c, b->pos, e->mins, e->maxs, r, e->mins[2] - 0.5f, e->maxs[2], "a teleporter");
            break;
        case NAV_ENTITY_JUMP_PAD:
            disc(&c, b->pos, e->u.jump_pad.target, EXIT_CLEAR + r, cls->height, "a jump pad's landing");
            box(&c, b->pos, e->mins, e->maxs, r, e->mins[2] - 0.5f, e->maxs[2], "a jump pad");
            break;
        case NAV_ENTITY_ELEVATOR: {
            /* The platform at any height and the shaft under it. */
            const NavElevator *el = &e->u.elevator;
            box(&c, b->pos, e->mins, e->maxs, r, el->stops[0] - 0.5f, el->stops[el->stop_count - 1] + 0.5f, "a lift");
            break;
        }
        default: break;
        }
    }
    ladders(&c, sim, b, r);
    gaps(&c, sim, b, cls);
    if (b->topped_tick && b->topped_tick + 1 >= sim->tick) {
        /* Another body on its head (dropped onto it): out from under. */
        float at[3] = { b->topped_at[0], b->topped_at[1], b->pos[2] };
        c.best = 0.0f;
        c.what = NULL;
        disc(&c, b->pos, at, 2.0f * r + 0.1f, cls->height, "a body on its head");
    }
    if (!c.what) return false;
    memcpy(away, c.away, sizeof c.away);
    if (what) *what = c.what;
    return true;
}

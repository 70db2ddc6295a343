/*
** sim_avoid_internal.h — what the avoidance solver (sim_avoid.c) and its
** obstacle edges (sim_avoid_edges.c) share: settings, lines, segments,
** the per-sim scratch with its cached edge maps.
*/
#ifndef NAV_SIM_AVOID_INTERNAL_H
#define NAV_SIM_AVOID_INTERNAL_H

#include "sim/sim_internal.h"


#define DEF_HORIZON 1.5f
#define DEF_WALL_HORIZON 0.3f
#define DEF_RANGE 4.0f
#define DEF_NEIGHBOURS 8
#define DEF_RESPONSIBILITY 0.5f
#define MATE_RANK 0.5f      /* metres: formation mates' slots this much apart in depth are in different ranks */
#define MATE_BEHIND 0.9f    /* share of the room the one further back makes, between formation mates */
#define BODY_SCALE 1.2f     /* a bot's disc for avoiding bots: 1.2 x its box's half width */
#define FORBID_MARGIN 0.05f /* metres the centre keeps off forbidden ground */
#define WALL_REACH_MAX 4.0f /* metres scanned for obstacle edges, at most */
#define WINDOW_MAX 16       /* cells each side of the bot's cell, at most */
#define RIGHT_BIAS 0.03f    /* the preferred velocity turned right by this much of itself */
#define PASS_RIGHT 0.1f     /* sine of the angle within which a meeting counts as head-on */
#define PINNED 0.1f         /* of the preferred speed: less is pinned */
#define PARKED_SPEED 1.5f   /* m/s: the most a bot with no wish moves to make room */
#define YIELD_AFTER 1.0f    /* seconds stuck before a bot may give way */
#define LP_EPS 1e-5f
#define FAR_REF UINT32_MAX /* a neighbour found in the far list */

typedef struct Line {
    float n[2]; /* unit normal: the allowed side is n . v >= c */
    float c;
} Line;

typedef struct Segment {
    float a[2], b[2]; /* relative to the bot */
    float n[2];       /* into the side the bot may be on */
    float clear;      /* what the bot's centre keeps off it */
    float dist;       /* from the bot */
} Segment;

enum { CELL_OPEN = 0, CELL_FORBID = 1, CELL_WALL = 2 };

#define WINDOW_SIDE (2 * WINDOW_MAX + 1)
#define WINDOW_EDGES (4 * WINDOW_SIDE * WINDOW_SIDE)

/* Crossings out of every cell, per class and forbid bits, worked out on
** first use, block by block: 2 bits (CELL_*) per direction (E, W, N, S),
** EDGE_KNOWN once done. A block is clean when no crossing in it is
** blocked (most of an open map), so a bot there scans nothing. Columns
** with more than one floor depend on the bot's height: their blocks are
** scanned live. */
#define EDGE_KNOWN 0x8000u
#define EDGE_BLOCK 8
#define EDGE_MAPS 8
#define EDGE_MAX_CELLS (16u * 1024u * 1024u)
enum { BLOCK_UNKNOWN = 0, BLOCK_CLEAN, BLOCK_DIRTY, BLOCK_LIVE };
enum { DIR_E = 0, DIR_W, DIR_N, DIR_S };

typedef struct EdgeMap {
    int cls;
    uint32_t forbid;
    uint16_t *cell;
    uint8_t *block;
} EdgeMap;

struct SimAvoidScratch {
    EdgeMap maps[EDGE_MAPS];
    int map_count;
    bool no_cache; /* the world is too big for the maps */
    uint8_t edge[WINDOW_SIDE * WINDOW_SIDE];
    uint8_t kind[WINDOW_SIDE * WINDOW_SIDE];
    float h[WINDOW_SIDE * WINDOW_SIDE];
    Segment seg[WINDOW_EDGES];
    Line lines[SIM_AVOID_MAX_LINES];
    Line proj[SIM_AVOID_MAX_LINES];
};

static inline float dot2(const float a[2], const float b[2]) { return a[0] * b[0] + a[1] * b[1]; }
static inline float cross2(const float a[2], const float b[2]) { return a[0] * b[1] - a[1] * b[0]; }
static inline float fminf_(float a, float b) { return a < b ? a : b; }
static inline float fmaxf_(float a, float b) { return a > b ? a : b; }

/* sim_avoid_edges.c */
/* What a cell is to a body of class c on a floor near height z (CELL_*),
** *h the floor's height there. */
uint8_t sim_avoid_cell_kind(const NavWorld *w, const NavClass *c, uint32_t forbid, float up, int cx, int cy, float z,
                            float *h);
/* The obstacle edges round bot b into sc->seg, nearest first; returns
** how many (at most SIM_AVOID_MAX_SEGMENTS). */
int sim_avoid_gather_segments(const NavSim *sim, SimAvoidScratch *sc, const NavBot *b, const NavClass *c,
                              uint32_t forbid, float vmax, float wall_horizon);
/* The cached edge maps' memory. */
void sim_avoid_edges_free(SimAvoidScratch *sc);

#endif

/*
** map_generate.c — deterministic generated worlds for benchmarks and
** stress tests. The same arguments give the same world.
**
**   map_generate_terrain   one floor of rolling hills, buildings, ponds and
**                          tree clusters
**   map_generate_building  stacked storeys of rooms, corridors and halls,
**                          joined by staircases, ladders and lifts (its
**                          layout is described above that function)
*/
#include "map/map.h"
#include "core/random.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static uint32_t hash2(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

/* Smooth value noise in [0, 1) with a lattice every `scale` cells. */
static float noise(int x, int y, int scale, uint32_t seed)
{
    int gx = x / scale, gy = y / scale;
    float fx = (float)(x % scale) / (float)scale, fy = (float)(y % scale) / (float)scale;
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    float a = (float)(hash2((uint32_t)gx, (uint32_t)gy, seed) & 0xFFFF) / 65536.0f;
    float b = (float)(hash2((uint32_t)gx + 1, (uint32_t)gy, seed) & 0xFFFF) / 65536.0f;
    float c = (float)(hash2((uint32_t)gx, (uint32_t)gy + 1, seed) & 0xFFFF) / 65536.0f;
    float d = (float)(hash2((uint32_t)gx + 1, (uint32_t)gy + 1, seed) & 0xFFFF) / 65536.0f;
    return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy;
}

NavWorld *map_generate_terrain(int width, int height, uint32_t seed, NavError *err)
{
    char name[64];
    snprintf(name, sizeof name, "generated-%dx%d-%u", width, height, seed);
    NavWorld *w = world_create(
        &(NavWorldDesc){ .width = width, .height = height, .cell_size = 0.5f, .name = name, .source = name }, err);
    if (!w) return NULL;
    size_t cells = (size_t)width * (size_t)height;
    NavFloorAt *items = nav_malloc(cells * sizeof *items);
    if (!items) {
        world_destroy(w);
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory generating %zu cells", cells);
        return NULL;
    }
    size_t n = 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            /* Hills in 0.1 m terraces keep neighbouring cells within a step. */
            float hill = noise(x, y, 64, seed) * 4.0f + noise(x, y, 16, seed + 1) * 0.8f;
            float z = floorf(hill * 10.0f) / 10.0f;
            bool tree = noise(x, y, 24, seed + 2) > 0.72f && (hash2((uint32_t)x, (uint32_t)y, seed + 3) & 3u) == 0;
            /* Buildings: 12 x 12 blocks on a 48-cell lattice, some of them. */
            int bx = x % 48, by = y % 48;
            bool building = bx >= 8 && bx < 20 && by >= 8 && by < 20 &&
                            (hash2((uint32_t)(x / 48), (uint32_t)(y / 48), seed + 4) & 3u) == 0;
            bool door = building && by == 14 && (bx == 8 || bx == 19);
            bool pond = noise(x, y, 40, seed + 5) > 0.8f;
            if ((tree || building) && !door) continue;
            NavFloor f = { .z = z, .ceiling = INFINITY, .top = z, .contents = NAV_CONTENTS_FLOOR };
            if (pond) {
                f.contents = NAV_CONTENTS_WATER;
                f.top = 0.0f;
                f.z = -1.5f;
                if (z > 0.0f) f.ceiling = INFINITY;
            }
            items[n].cell = (uint32_t)y * (uint32_t)width + (uint32_t)x;
            items[n].floor = f;
            n++;
        }
    }
    NavStatus s = world_set_floors(w, items, n, err);
    nav_free(items);
    NavClass human = class_defaults();
    if (NAV_FAILED(s) || NAV_FAILED(world_add_layer(w, "ground", 0.0f, err)) ||
        NAV_FAILED(world_add_class(w, &human, NULL, err))) {
        world_destroy(w);
        return NULL;
    }
    return w;
}

/* {======= building =======
**
** A building fills the whole map: an outer wall on the border cells, and
** on every storey a layout of its own made by recursive division. A region
** is split across its longer side by a wall (now and then by two walls
** around a corridor 4 cells wide) with doorways 3 to 5 cells wide in it:
** 1 in a wall under 8 cells, 2 in a longer one (sometimes 3 from 16
** cells), one per 8 cells along each side of a corridor, so the maze has
** loops. Splitting stops at a room (no side over
** a limit drawn per region from 6 to 14 cells; rooms 9 cells or more
** across may hold a block of furniture 3 cells clear of the walls) or, one
** time in four for a region 14 to 40 cells a side, at an open hall with
** 2 x 2 pillars and 3-cell aisles. Rooms are at least 4 cells across. A new
** wall never meets another beside one of its doorways, so each doorway
** keeps the room a mover needs and every storey is one connected maze.
**
** Storeys are 4 m apart; storey k stands at z = 4k on a 0.2 m slab, so a
** room's ceiling is 3.8 m up; the top storey has a roof at the same
** height. A wall is a column with no floor on that storey. Open air (a
** stairwell, a hatch, a lift shaft) is a column with no floor on that
** storey either, but the space below reaches up through it: the ceiling of
** a floor is the slab of the next storey above that is not open air.
**
** Storeys are joined by connectors, each standing in a lobby: a ring of
** 3 cells cleared of the maze's walls on the storeys it serves, so it
** always meets the maze. Lobbies never overlap on a storey. A connector is
** drawn in its own (u, v) frame and placed turned or mirrored (orient:
** bit 0 runs u north instead of east, bit 1 mirrors v).
**
**   staircase  (every storey) 25 x 11 cells, a switchback as in
**              maps/tower.lua: two lanes 4 cells wide (lane A v 1-4, lane B
**              v 6-9) with a newel wall (v 5) between, and landings 4 cells
**              long at both ends (u 1-4 and u 20-23). A flight is 15 steps
**              of 0.25 m (u 5-19), 16 risers = one storey, well within the
**              class's 0.45 m step. From even storeys the flight climbs
**              lane A toward +u, from odd storeys lane B toward -u; the
**              landing at the foot of a storey's flight is also where the
**              flight from below arrives (u 1-4 on even storeys, u 20-23 on
**              odd), and it opens to the lobby through a 5-cell doorway in
**              the end wall. Over a flight the next storey is open air, so
**              every step has 4.05 m of headroom or more; the storey after
**              that closes the well. The other landing and the unused lane
**              are solid.
**   lift       (every storey) a 4 x 4 shaft (u 1-4, v 1-4) walled on three
**              sides and open to the lobby at v 0; floor on the ground
**              storey, open air above. An elevator entity with a stop on
**              every storey (speed 2 m/s, wait 2 s). Walking into the
**              shaft when the car is elsewhere is a real fall.
**   ladder     (storeys k and k + 1) 3 cells wide (u 2-4, v 3) leaning on
**              a wall at v 4 (its face), top 4 m above its foot; on storey
**              k + 1 the cells over it and the row in front of it (v 2-3)
**              are a hatch, deep enough for the climber's body, with a
**              railing on three sides, and the floor beyond the wall (v 4
**              on) is where the climb ends.
**
** A 256 x 256 building has 4 staircases, 2 lifts and 3 ladders per pair
** of storeys; smaller ones fewer, and at least 1 of each. The spawn point
** "spawn" stands on the ground storey in front of the first lift (in a
** one-storey building, on the first open cell from the south-west).
*/

#define B_STOREY_H 4.0f /* storey to storey */
#define B_SLAB 0.2f     /* floor slab, under the storey it carries */
#define B_RISE 0.25f    /* stair step */
#define B_MIN_SIDE 48   /* room for a staircase, a lift and two ladders */
#define B_MIN_ROOM 4    /* narrowest room, cells between walls */
#define B_CORRIDOR 4    /* corridor width, cells between walls */
#define B_MARGIN 3      /* lobby ring around a connector */

/* Plan cell codes. */
enum {
    B_WALL = 0,
    B_FLOOR,
    B_EMPTY,     /* open air */
    B_LADDER,    /* + NavDir of its face: 3 .. 6 */
    B_STEP = 16, /* + i: stair step i * B_RISE above the storey, i = 1 .. 15 */
};

enum { CONN_STAIRS, CONN_LIFT, CONN_LADDER };
static const int CONN_U[3] = { 25, 6, 7 }, CONN_V[3] = { 11, 6, 6 };

typedef struct Rng {
    uint64_t s;
} Rng;

/* splitmix64, high half */
static uint32_t rng_u32(Rng *r) { return (uint32_t)(nav_rand_next(&r->s) >> 32); }

/* Uniform in [lo, hi]; lo when the range is empty. */
static int rng_int(Rng *r, int lo, int hi)
{
    if (hi <= lo) return lo;
    return lo + (int)(rng_u32(r) % (uint32_t)(hi - lo + 1));
}

static Rng rng_stream(uint32_t seed, uint32_t stream)
{
    return (Rng){ ((uint64_t)seed << 32) ^ ((uint64_t)stream * 0xd1b54a32d192ed03ull) };
}

typedef struct Rect {
    int x0, y0, x1, y1; /* inclusive */
} Rect;

typedef struct Connector {
    int kind;   /* CONN_* */
    int x, y;   /* south-west cell of its block */
    int orient; /* bit 0: u runs north; bit 1: v mirrored */
    int k0, k1; /* storeys it serves */
} Connector;

typedef struct Plan {
    int w, h, storeys;
    uint8_t *cell;  /* storeys * w * h codes, storey by storey, rows south first */
    uint8_t *taken; /* same shape: cells in a connector's lobby */
    uint8_t *door;  /* w * h: doorway cells of the storey being divided */
    Rect *stack;    /* regions still to divide */
    size_t stack_n, stack_cap;
    Connector *conn;
    int conn_n, conn_cap;
} Plan;

static size_t plan_at(const Plan *p, int k, int x, int y)
{
    return ((size_t)k * (size_t)p->h + (size_t)y) * (size_t)p->w + (size_t)x;
}

/* {======= storeys: recursive division ======= */

static bool push_rect(Plan *p, Rect r)
{
    if (p->stack_n == p->stack_cap) {
        size_t ncap = p->stack_cap ? p->stack_cap * 2 : 64;
        Rect *n = nav_realloc(p->stack, ncap * sizeof *n);
        if (!n) return false;
        p->stack = n;
        p->stack_cap = ncap;
    }
    p->stack[p->stack_n++] = r;
    return true;
}

/* Can a wall at `at` (a column when vertical, else a row) run across r?
** Not beside a doorway in the walls it meets at its ends, which would
** narrow the way through it. */
static bool wall_clear_of_doors(const Plan *p, bool vertical, int at, Rect r)
{
    for (int d = -1; d <= 1; d++) {
        int t = at + d;
        if (vertical) {
            if (t < 0 || t >= p->w) continue;
            if (p->door[(size_t)(r.y0 - 1) * (size_t)p->w + (size_t)t] ||
                p->door[(size_t)(r.y1 + 1) * (size_t)p->w + (size_t)t])
                return false;
        } else {
            if (t < 0 || t >= p->h) continue;
            if (p->door[(size_t)t * (size_t)p->w + (size_t)(r.x0 - 1)] ||
                p->door[(size_t)t * (size_t)p->w + (size_t)(r.x1 + 1)])
                return false;
        }
    }
    return true;
}

/* A wall at `at` from `from` to `to` with `doors` doorways 3 to 5 cells
** wide (they may overlap). */
static void wall_with_doors(Plan *p, int k, bool vertical, int at, int from, int to, int doors, Rng *rng)
{
    for (int t = from; t <= to; t++) p->cell[vertical ? plan_at(p, k, at, t) : plan_at(p, k, t, at)] = B_WALL;
    int len = to - from + 1;
    for (int d = 0; d < doors; d++) {
        int dw = NAV_MIN(rng_int(rng, 3, 5), len);
        int s = rng_int(rng, from, to - dw + 1);
        for (int t = s; t < s + dw; t++) {
            int x = vertical ? at : t, y = vertical ? t : at;
            p->cell[plan_at(p, k, x, y)] = B_FLOOR;
            p->door[(size_t)y * (size_t)p->w + (size_t)x] = 1;
        }
    }
}

/* Split r across its `vertical` axis: one wall, or two around a corridor.
** Pushes the rooms left on either side. False when no wall fits. */
static bool split_region(Plan *p, int k, Rect r, bool vertical, Rng *rng, bool *nomem)
{
    int lo = vertical ? r.x0 : r.y0, hi = vertical ? r.x1 : r.y1;   /* across the split */
    int from = vertical ? r.y0 : r.x0, to = vertical ? r.y1 : r.x1; /* along the wall */
    int span = hi - lo + 1, len = to - from + 1;
    bool corridor = span >= 2 * B_MIN_ROOM + B_CORRIDOR + 2 + 4 && len >= 24 && rng_int(rng, 0, 2) == 0;
    int gap = corridor ? B_CORRIDOR + 1 : 0; /* second wall at a + gap */
    /* Any place clear of the doorways, uniformly; a corridor that does not
    ** fit becomes a single wall. */
    int a_min = lo + B_MIN_ROOM, a_max = hi - B_MIN_ROOM - gap, fits = 0;
    for (int a = a_min; a <= a_max; a++)
        fits += wall_clear_of_doors(p, vertical, a, r) && (!gap || wall_clear_of_doors(p, vertical, a + gap, r));
    if (!fits && corridor) {
        corridor = false;
        gap = 0;
        a_max = hi - B_MIN_ROOM;
        for (int a = a_min; a <= a_max; a++) fits += wall_clear_of_doors(p, vertical, a, r);
    }
    if (!fits) return false;
    int pick = rng_int(rng, 0, fits - 1);
    for (int a = a_min; a <= a_max; a++) {
        if (!wall_clear_of_doors(p, vertical, a, r) || (gap && !wall_clear_of_doors(p, vertical, a + gap, r))) continue;
        if (pick-- > 0) continue;
        if (corridor) {
            int doors = NAV_MAX(1, len / 8);
            wall_with_doors(p, k, vertical, a, from, to, doors, rng);
            wall_with_doors(p, k, vertical, a + gap, from, to, doors, rng);
        } else {
            wall_with_doors(p, k, vertical, a, from, to, 1 + (len >= 8) + (len >= 16 && rng_int(rng, 0, 1)), rng);
        }
        Rect first = r, second = r;
        if (vertical) {
            first.x1 = a - 1;
            second.x0 = a + gap + 1;
        } else {
            first.y1 = a - 1;
            second.y0 = a + gap + 1;
        }
        if (!push_rect(p, first) || !push_rect(p, second)) *nomem = true;
        return true;
    }
    return false;
}

/* 2 x 2 pillars every 5 cells, 3 cells clear of the hall's walls. */
static void hall_pillars(Plan *p, int k, Rect r)
{
    for (int y = r.y0 + 3; y + 1 <= r.y1 - 3; y += 5)
        for (int x = r.x0 + 3; x + 1 <= r.x1 - 3; x += 5)
            for (int dy = 0; dy < 2; dy++)
                for (int dx = 0; dx < 2; dx++) p->cell[plan_at(p, k, x + dx, y + dy)] = B_WALL;
}

/* Rooms 9 cells or more across may get a block of furniture (a table,
** a cabinet) 3 cells or more from every wall, so the way round it stays
** open and no doorway is blocked. */
static void room_furniture(Plan *p, int k, Rect r, Rng *rng)
{
    int rw = r.x1 - r.x0 + 1, rh = r.y1 - r.y0 + 1;
    if (rw < 9 || rh < 9 || rng_int(rng, 0, 2) == 0) return;
    int fw = rng_int(rng, 1, NAV_MIN(3, rw - 8)), fh = rng_int(rng, 1, NAV_MIN(3, rh - 8));
    int x = rng_int(rng, r.x0 + 3, r.x1 - 3 - fw + 1), y = rng_int(rng, r.y0 + 3, r.y1 - 3 - fh + 1);
    for (int dy = 0; dy < fh; dy++)
        for (int dx = 0; dx < fw; dx++) p->cell[plan_at(p, k, x + dx, y + dy)] = B_WALL;
}

static bool divide_storey(Plan *p, int k, Rng *rng)
{
    memset(p->door, 0, (size_t)p->w * (size_t)p->h);
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            bool border = x == 0 || y == 0 || x == p->w - 1 || y == p->h - 1;
            p->cell[plan_at(p, k, x, y)] = border ? B_WALL : B_FLOOR;
        }
    p->stack_n = 0;
    if (!push_rect(p, (Rect){ 1, 1, p->w - 2, p->h - 2 })) return false;
    bool nomem = false;
    while (p->stack_n && !nomem) {
        Rect r = p->stack[--p->stack_n];
        int rw = r.x1 - r.x0 + 1, rh = r.y1 - r.y0 + 1;
        int room = rng_int(rng, 6, 14);
        if (rw <= room && rh <= room) {
            room_furniture(p, k, r, rng);
            continue;
        }
        if (rw >= 14 && rh >= 14 && rw <= 40 && rh <= 40 && rng_int(rng, 0, 3) == 0) {
            hall_pillars(p, k, r);
            continue;
        }
        bool vertical = rw > rh || (rw == rh && (rng_u32(rng) & 1u));
        if (!split_region(p, k, r, vertical, rng, &nomem)) split_region(p, k, r, !vertical, rng, &nomem);
    }
    return !nomem;
}

/* }======= */

/* {======= connectors ======= */

static void conn_size(const Connector *c, int *bw, int *bh)
{
    bool turned = c->orient & 1;
    *bw = turned ? CONN_V[c->kind] : CONN_U[c->kind];
    *bh = turned ? CONN_U[c->kind] : CONN_V[c->kind];
}

/* World cell of block cell (u, v). */
static void conn_cell(const Connector *c, int u, int v, int *x, int *y)
{
    if (c->orient & 2) v = CONN_V[c->kind] - 1 - v;
    *x = c->x + ((c->orient & 1) ? v : u);
    *y = c->y + ((c->orient & 1) ? u : v);
}

/* World point (metres) of block point (u, v) in cells. */
static void conn_point(const Connector *c, float u, float v, float cs, float *x, float *y)
{
    if (c->orient & 2) v = (float)CONN_V[c->kind] - v;
    *x = ((float)c->x + ((c->orient & 1) ? v : u)) * cs;
    *y = ((float)c->y + ((c->orient & 1) ? u : v)) * cs;
}

/* The world direction of the block's +v. */
static NavDir conn_dir_v(const Connector *c)
{
    static const NavDir dir[4] = { NAV_DIR_NORTH, NAV_DIR_EAST, NAV_DIR_SOUTH, NAV_DIR_WEST };
    return dir[c->orient & 3];
}

static Rect conn_lobby(const Connector *c)
{
    int bw, bh;
    conn_size(c, &bw, &bh);
    return (Rect){ c->x - B_MARGIN, c->y - B_MARGIN, c->x + bw - 1 + B_MARGIN, c->y + bh - 1 + B_MARGIN };
}

static bool lobby_free(const Plan *p, const Connector *c)
{
    Rect l = conn_lobby(c);
    if (l.x0 < 1 || l.y0 < 1 || l.x1 > p->w - 2 || l.y1 > p->h - 2) return false;
    for (int k = c->k0; k <= c->k1; k++)
        for (int y = l.y0; y <= l.y1; y++)
            for (int x = l.x0; x <= l.x1; x++)
                if (p->taken[plan_at(p, k, x, y)]) return false;
    return true;
}

/* Find a free lobby for c: random places first, then every place in
** order (so a small map still finds the one that fits). */
static bool place_connector(Plan *p, Connector c, Rng *rng, bool *nomem)
{
    bool found = false;
    for (int attempt = 0; attempt < 64 && !found; attempt++) {
        c.orient = rng_int(rng, 0, 3);
        int bw, bh;
        conn_size(&c, &bw, &bh);
        c.x = rng_int(rng, 1 + B_MARGIN, p->w - 2 - B_MARGIN - bw + 1);
        c.y = rng_int(rng, 1 + B_MARGIN, p->h - 2 - B_MARGIN - bh + 1);
        found = lobby_free(p, &c);
    }
    for (int o = 0; o < 4 && !found; o++)
        for (int y = 1 + B_MARGIN; y < p->h && !found; y++)
            for (int x = 1 + B_MARGIN; x < p->w && !found; x++) {
                Connector t = c;
                t.orient = o;
                t.x = x;
                t.y = y;
                if (lobby_free(p, &t)) {
                    c = t;
                    found = true;
                }
            }
    if (!found) return false;
    if (p->conn_n == p->conn_cap) {
        int ncap = p->conn_cap ? p->conn_cap * 2 : 16;
        Connector *n = nav_realloc(p->conn, (size_t)ncap * sizeof *n);
        if (!n) {
            *nomem = true;
            return false;
        }
        p->conn = n;
        p->conn_cap = ncap;
    }
    p->conn[p->conn_n++] = c;
    Rect l = conn_lobby(&c);
    for (int k = c.k0; k <= c.k1; k++)
        for (int y = l.y0; y <= l.y1; y++)
            for (int x = l.x0; x <= l.x1; x++) p->taken[plan_at(p, k, x, y)] = 1;
    return true;
}

/* What the staircase puts at block cell (u, v) on storey k. */
static uint8_t stairs_code(const Plan *p, int k, int u, int v)
{
    bool low_end = k % 2 == 0; /* this storey's landing is at u 1-4, else at u 20-23 */
    bool lane_a = v >= 1 && v <= 4, lane_b = v >= 6 && v <= 9;
    if (u == 0 || u == CONN_U[CONN_STAIRS] - 1) {
        bool doorway = v >= 3 && v <= 7 && (u == 0) == low_end;
        return doorway ? B_FLOOR : B_WALL;
    }
    if (v == 0 || v == CONN_V[CONN_STAIRS] - 1) return B_WALL;
    if (u <= 4) return low_end ? B_FLOOR : B_WALL;
    if (u >= 20) return low_end ? B_WALL : B_FLOOR;
    if (!lane_a && !lane_b) return B_WALL; /* newel */
    bool up_lane = lane_a == low_end;      /* lane A climbs from even storeys */
    if (up_lane) {
        if (k == p->storeys - 1) return B_WALL;
        return (uint8_t)(B_STEP + (lane_a ? u - 4 : 20 - u));
    }
    return k >= 1 ? B_EMPTY : B_WALL; /* the well over the flight from below */
}

static uint8_t lift_code(int k, int u, int v)
{
    if (u >= 1 && u <= 4 && v >= 1 && v <= 4) return k == 0 ? B_FLOOR : B_EMPTY;
    if (v >= 1 && (u == 0 || u == 5 || v == 5)) return B_WALL;
    return B_FLOOR;
}

static uint8_t ladder_code(const Connector *c, int k, int u, int v)
{
    bool rungs = u >= 2 && u <= 4 && v == 3;
    if (k == c->k0) {
        if (rungs) return (uint8_t)(B_LADDER + conn_dir_v(c));
        return v == 4 && u >= 1 && u <= 5 ? B_WALL : B_FLOOR;
    }
    /* The hatch: over the rungs and the row in front of them, so the
    ** climber's body (0.8 m for a human) fits between the wall and the
    ** railing. */
    if (u >= 2 && u <= 4 && (v == 2 || v == 3)) return B_EMPTY;
    bool railing = (v == 1 && u >= 1 && u <= 5) || ((u == 1 || u == 5) && (v == 2 || v == 3));
    return railing ? B_WALL : B_FLOOR;
}

static void stamp_connectors(Plan *p)
{
    for (int i = 0; i < p->conn_n; i++) {
        const Connector *c = &p->conn[i];
        Rect l = conn_lobby(c);
        for (int k = c->k0; k <= c->k1; k++)
            for (int y = l.y0; y <= l.y1; y++)
                for (int x = l.x0; x <= l.x1; x++) p->cell[plan_at(p, k, x, y)] = B_FLOOR;
    }
    for (int i = 0; i < p->conn_n; i++) {
        const Connector *c = &p->conn[i];
        for (int k = c->k0; k <= c->k1; k++)
            for (int v = 0; v < CONN_V[c->kind]; v++)
                for (int u = 0; u < CONN_U[c->kind]; u++) {
                    int x, y;
                    conn_cell(c, u, v, &x, &y);
                    uint8_t code = c->kind == CONN_STAIRS ? stairs_code(p, k, u, v)
                                   : c->kind == CONN_LIFT ? lift_code(k, u, v)
                                                          : ladder_code(c, k, u, v);
                    p->cell[plan_at(p, k, x, y)] = code;
                }
    }
}

/* }======= */

/* {======= floors and entities ======= */

static uint64_t fnv_more(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The plan as floors: one per storey that is neither wall nor open air,
** its ceiling the slab of the next storey up that is not open air. */
static size_t plan_floors(const Plan *p, NavFloorAt *items)
{
    size_t n = 0;
    float roof = (float)p->storeys * B_STOREY_H - B_SLAB;
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++)
            for (int k = 0; k < p->storeys; k++) {
                uint8_t code = p->cell[plan_at(p, k, x, y)];
                if (code == B_WALL || code == B_EMPTY) continue;
                float base = (float)k * B_STOREY_H;
                float ceiling = roof;
                for (int j = k + 1; j < p->storeys; j++)
                    if (p->cell[plan_at(p, j, x, y)] != B_EMPTY) {
                        ceiling = (float)j * B_STOREY_H - B_SLAB;
                        break;
                    }
                NavFloor f = {
                    .z = base, .ceiling = ceiling, .top = base, .contents = NAV_CONTENTS_FLOOR, .layer = (uint16_t)k
                };
                if (code >= B_STEP) {
                    f.z = f.top = base + (float)(code - B_STEP) * B_RISE;
                } else if (code >= B_LADDER) {
                    f.contents = NAV_CONTENTS_LADDER;
                    f.top = base + B_STOREY_H;
                    f.flags = (uint8_t)((code - B_LADDER) << NAV_FLOOR_FACE_SHIFT);
                }
                items[n].cell = (uint32_t)y * (uint32_t)p->w + (uint32_t)x;
                items[n].floor = f;
                n++;
            }
    return n;
}

/* The lifts' elevators and the spawn point, in a fixed order. */
static int plan_entities(const Plan *p, float cs, NavEntity *out, int cap)
{
    int n = 0, lifts = 0;
    for (int i = 0; i < p->conn_n && n < cap; i++) {
        const Connector *c = &p->conn[i];
        if (c->kind != CONN_LIFT) continue;
        NavEntity *e = &out[n++];
        memset(e, 0, sizeof *e);
        e->type = NAV_ENTITY_ELEVATOR;
        snprintf(e->name, sizeof e->name, "lift_%d", ++lifts);
        float ax, ay, bx, by;
        conn_point(c, 1.0f, 1.0f, cs, &ax, &ay);
        conn_point(c, 5.0f, 5.0f, cs, &bx, &by);
        NavElevator *el = &e->u.elevator;
        el->stop_count = p->storeys;
        for (int k = 0; k < p->storeys; k++) el->stops[k] = (float)k * B_STOREY_H;
        el->speed = 2.0f;
        el->wait = 2.0f;
        el->thickness = B_SLAB;
        e->mins[0] = fminf(ax, bx);
        e->mins[1] = fminf(ay, by);
        e->mins[2] = el->stops[0] - el->thickness;
        e->maxs[0] = fmaxf(ax, bx);
        e->maxs[1] = fmaxf(ay, by);
        e->maxs[2] = el->stops[p->storeys - 1];
    }
    if (n >= cap) return n;
    NavEntity *s = &out[n];
    memset(s, 0, sizeof *s);
    s->type = NAV_ENTITY_SPAWN;
    snprintf(s->name, sizeof s->name, "spawn");
    bool placed = false;
    for (int i = 0; i < p->conn_n && !placed; i++) {
        if (p->conn[i].kind != CONN_LIFT) continue;
        conn_point(&p->conn[i], 3.0f, -1.5f, cs, &s->mins[0], &s->mins[1]);
        placed = true;
    }
    /* No lift (one storey): the first cell with open floor all around. */
    for (int y = 1; y < p->h - 1 && !placed; y++)
        for (int x = 1; x < p->w - 1 && !placed; x++) {
            bool open = true;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) open = open && p->cell[plan_at(p, 0, x + dx, y + dy)] == B_FLOOR;
            if (!open) continue;
            s->mins[0] = ((float)x + 0.5f) * cs;
            s->mins[1] = ((float)y + 0.5f) * cs;
            placed = true;
        }
    if (!placed) return n;
    s->mins[2] = 0.0f;
    memcpy(s->maxs, s->mins, sizeof s->maxs);
    return n + 1;
}

/* }======= */

static void plan_free(Plan *p)
{
    nav_free(p->cell);
    nav_free(p->taken);
    nav_free(p->door);
    nav_free(p->stack);
    nav_free(p->conn);
}

static int clamp_count(long long v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }

NavWorld *map_generate_building(int width, int height, int storeys, uint32_t seed, NavError *err)
{
    char name[64];
    snprintf(name, sizeof name, "building-%dx%dx%d-%u", width, height, storeys, seed);
    if (width < B_MIN_SIDE || height < B_MIN_SIDE || width > NAV_MAX_WORLD_SIDE || height > NAV_MAX_WORLD_SIDE) {
        nav_error_set(err, NAV_E_PARAM, name, 0, 0,
                      width < B_MIN_SIDE || width > NAV_MAX_WORLD_SIDE ? "width" : "height",
                      "a generated building is %d to %d cells a side, got %d x %d", B_MIN_SIDE, NAV_MAX_WORLD_SIDE,
                      width, height);
        return NULL;
    }
    if (storeys < 1 || storeys > NAV_ELEVATOR_MAX_STOPS) {
        nav_error_set(err, NAV_E_PARAM, name, 0, 0, "storeys",
                      "a generated building has 1 to %d storeys (its lifts stop at every one), got %d",
                      NAV_ELEVATOR_MAX_STOPS, storeys);
        return NULL;
    }
    uint64_t all = (uint64_t)width * (uint64_t)height * (uint64_t)storeys;
    if (all > NAV_MAX_CELLS) {
        nav_error_set(err, NAV_E_PARAM, name, 0, 0, "size", "%d x %d cells on %d storeys is over the limit of %u cells",
                      width, height, storeys, NAV_MAX_CELLS);
        return NULL;
    }

    Plan p = { .w = width, .h = height, .storeys = storeys };
    size_t cells = (size_t)width * (size_t)height, total = (size_t)all;
    p.cell = nav_malloc(total);
    p.taken = nav_calloc(total, 1);
    p.door = nav_malloc(cells);
    NavFloorAt *items = NULL;
    NavWorld *w = NULL;
    bool nomem = !p.cell || !p.taken || !p.door;

    /* Connectors first: their places do not depend on the mazes. */
    int stairs = 0, lifts = 0, ladders = 0;
    if (!nomem && storeys > 1) {
        long long area = (long long)width * height;
        Rng rng = rng_stream(seed, 0xC0);
        int want_stairs = clamp_count(area / (128 * 128), 1, 16),
            want_lifts = clamp_count(1 + area / (200 * 200), 1, 4);
        int want_ladders = clamp_count(area / (128 * 128), 1, 3);
        for (int i = 0; i < want_stairs && !nomem; i++)
            if (place_connector(&p, (Connector){ .kind = CONN_STAIRS, .k0 = 0, .k1 = storeys - 1 }, &rng, &nomem))
                stairs++;
        for (int i = 0; i < want_lifts && !nomem; i++)
            if (place_connector(&p, (Connector){ .kind = CONN_LIFT, .k0 = 0, .k1 = storeys - 1 }, &rng, &nomem))
                lifts++;
        for (int k = 0; k + 1 < storeys && !nomem; k++) {
            int here = 0;
            for (int i = 0; i < want_ladders && !nomem; i++)
                if (place_connector(&p, (Connector){ .kind = CONN_LADDER, .k0 = k, .k1 = k + 1 }, &rng, &nomem)) here++;
            if (!here && !nomem) {
                nav_error_set(err, NAV_E_PARAM, name, 0, 0, NULL,
                              "no room for a ladder from storey %d to %d on a %d x %d building", k, k + 1, width,
                              height);
                plan_free(&p);
                return NULL;
            }
            ladders += here;
        }
        if (!nomem && (!stairs || !lifts)) {
            nav_error_set(err, NAV_E_PARAM, name, 0, 0, NULL, "no room for a %s on a %d x %d building",
                          stairs ? "lift" : "staircase", width, height);
            plan_free(&p);
            return NULL;
        }
    }
    for (int k = 0; k < storeys && !nomem; k++) {
        Rng rng = rng_stream(seed, (uint32_t)k + 1);
        nomem = !divide_storey(&p, k, &rng);
    }
    if (!nomem) {
        stamp_connectors(&p);
        items = nav_malloc(total * sizeof *items);
        nomem = !items;
    }
    if (nomem) {
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory generating %d storeys of %zu cells", storeys,
                      cells);
        nav_free(items);
        plan_free(&p);
        return NULL;
    }

    w = world_create(
        &(NavWorldDesc){ .width = width, .height = height, .cell_size = 0.5f, .name = name, .source = name }, err);
    if (!w) {
        nav_free(items);
        plan_free(&p);
        return NULL;
    }
    size_t n = plan_floors(&p, items);
    NavEntity ents[8];
    int ent_n = plan_entities(&p, 0.5f, ents, (int)NAV_ARRAY_COUNT(ents));
    plan_free(&p);
    uint64_t hash = fnv_more(map_hash((const char *)items, n * sizeof *items), ents, (size_t)ent_n * sizeof *ents);
    NavStatus s = world_set_floors(w, items, n, err);
    nav_free(items);
    NavClass human = class_defaults();
    for (int k = 0; k < storeys && NAV_SUCCEEDED(s); k++) {
        char layer[NAV_NAME_MAX];
        if (k == 0) snprintf(layer, sizeof layer, "ground");
        else snprintf(layer, sizeof layer, "floor %d", k);
        s = world_add_layer(w, layer, (float)k * B_STOREY_H, err);
    }
    for (int i = 0; i < ent_n && NAV_SUCCEEDED(s); i++) s = world_add_entity(w, &ents[i], NULL, err);
    if (NAV_SUCCEEDED(s)) s = world_add_class(w, &human, NULL, err);
    if (NAV_FAILED(s)) {
        world_destroy(w);
        return NULL;
    }
    char description[160];
    snprintf(description, sizeof description,
             "Generated building: %d storeys of rooms, corridors and halls, %d staircases, %d ladders, %d lifts",
             storeys, stairs, ladders, lifts);
    if (NAV_FAILED(world_set_metadata(w, description, NULL, err))) {
        world_destroy(w);
        return NULL;
    }
    world_set_source_hash(w, hash);
    return w;
}

/* }======= */

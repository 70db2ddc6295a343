/*
** trace.h — the hull trace: sweep a mover's axis-aligned box through the
** world's solid and a list of dynamic boxes, and say where it stops and
** what it hit. The primitive under a bot's per-tick move, a slide move, a
** drop test or "does this hull fit here".
**
** The solid, exactly:
**   - Outside the map (x outside [0, W*s) or y outside [0, H*s)) is solid
**     at every height. Nothing bounds the map above or below: that is up to
**     the columns.
**   - Column (cx, cy) is the cell square [cx*s, (cx+1)*s) x [cy*s,
**     (cy+1)*s) in x and y; in z it is open inside its spans [z, ceiling]
**     and solid everywhere else: below the lowest span, between two spans,
**     above the highest span's ceiling. A column with no span is a wall.
**   - Every span is open space, whatever its contents: water, lava and
**     slime (z is the bed; the liquid is swum through), ladders, and CLIP,
**     which is a no-walk marking for the navigation builders, not a wall: a
**     trace goes through it. A VOID span has no bottom (z = -INFINITY), so a
**     box falls there for ever.
**   - Two spans of a column that touch (one's ceiling equals the next one's
**     z: a slab of zero thickness) keep the zero-thickness slab between them:
**     a box fits a column only when ONE span holds its whole height
**     [origin.z + mins.z, origin.z + maxs.z], as world_line_of_sight reads it.
**     A box may stand on such a slab or touch it from below, never cross it.
**   - Dynamic boxes (NavBox) are solid inside [mins, maxs]; a box that is
**     flat on an axis is a zero-thickness wall, like the slab above; one
**     with mins > maxs on an axis is empty.
**
** Touching is not overlapping. The moving box is closed and solid is open:
** the box overlaps solid when, on every axis, its interval [lo, hi] and the
** solid's (a, b) have lo < b and hi > a. A box standing exactly on a floor
** (origin.z + mins.z == floor.z), or flush against a wall face, fits, and
** can slide along that floor or face; moving into it is a hit at that
** instant. All of this is computed in double from the float inputs (a cell
** index times the cell size is exact in double, and so is a float plus a
** float unless their magnitudes are some 2^29 apart), so world_box_fits is
** exact for the box the caller described.
**
** The sweep is exact, not sampled. The swept box is tested against each
** solid piece (a map edge; a column's gap or slab; a dynamic box) as a
** swept AABB against an AABB: per axis the open time interval of overlap is
** computed analytically, the three are intersected and the earliest entry
** over all pieces is the hit. The columns are walked strip by strip along
** the move's larger horizontal axis, each strip limited to the rows the box
** crosses while inside it, and the walk stops at the first strip entered
** after the best hit so far: a short move looks at the few cells under its
** swept box, a whole-map trace at a band of cells along its line.
**
** The result, NavTrace:
**   touch     the fraction of the move at which the box first touches what
**             it hit, computed exactly and rounded to float (1 = no hit; 0
**             with start_solid): the time of impact, for callers that need
**             it, and what lets a test check a hit to the rounding rather
**             than to the pull-back.
**   fraction  where the box is left: touch pulled back so the box is
**             NAV_TRACE_EPSILON metres off the face it hit along the face's
**             normal (Quake's way; a glancing hit may pull back to 0), and
**             the box at `end` is checked to overlap nothing (world and
**             boxes but the ignored one): if float
**             rounding put it into solid it is pulled back further, down to
**             0 (the start, which is known to fit). So a trace from `end`
**             never starts in solid because of the previous one.
**   end       start + delta * fraction, in float
**   normal    the hit face's outward normal, one of +-x, +-y, +-z; zero
**             when there is no hit or the box started in solid. When the box
**             meets an edge or a corner exactly (two axes enter at the same
**             instant), z wins, then x, then y: landing on the top edge of a
**             ledge is a landing.
**   hit, start_solid, is_static, box, cell
**             what was hit: start_solid means the box overlapped something
**             at the start (fraction = touch = 0, end = start, and the other
**             fields name the first overlapped thing found). is_static is
**             true for the world, with cell the column (cx, cy) or (-1, -1)
**             for the map's outer edge; otherwise box is the index of the
**             dynamic box. Of things touched at the same instant, the one
**             the box would stay in longest is named (a row of cells behind
**             one face names a cell the box really runs into, not a corner
**             it clips), except that the world keeps a tie against a
**             dynamic box.
**
** The move is start -> end1 with end1 = start + delta rounded to float
** (what the caller gets as `end` when nothing is hit); fractions are of
** that move. An overlap lasting under 1e-12 of the move (a box grazing an
** edge it only touches, up to rounding) is not a hit.
**
** STEP BY STEP
**   float mins[3] = { -0.4f, -0.4f, 0.0f }, maxs[3] = { 0.4f, 0.4f, 1.8f };
**   NavTrace tr;
**   world_trace_box(w, mins, maxs, feet, move, NULL, 0, -1, &tr);
**   if (tr.start_solid) ...stuck: push out or give up...
**   copy tr.end to feet; if (tr.hit) slide: remove the move's component
**   along tr.normal and trace the rest of the move again.
**   world_box_fits(w, mins, maxs, spot)        before placing a mover
**
** Inputs must be finite and mins < maxs on x and y (a hull, not a ray: use
** world_line_of_sight for rays; a box of no width would slip between two
** wall cells along their shared side). mins.z == maxs.z (a flat box) is
** allowed; both spans hold it at a zero-thickness slab, so it passes
** through one. NAV_ASSERT checks the hull's order in debug builds. A
** non-finite input gives a start_solid result that names nothing
** (is_static false, box -1). The fixed NAV_TRACE_EPSILON assumes
** coordinates under a few kilometres, where a float's step is well under it.
**
** DOES NOT: allocate or keep state (one call reads the world and the boxes
** and writes *out; worlds and traces can run on any number of threads);
** apply gravity, steps or sliding (that is the mover's loop around it);
** look at entities by itself (elevators, doors and crates block only when
** passed in as NavBox); treat contents as solid (no liquid, ladder, clip or
** void stops a trace); handle rotated boxes.
*/
#ifndef NAV_TRACE_H
#define NAV_TRACE_H

#include <stdbool.h>

#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Defines ======= */

/* How far (metres, along the hit face's normal) a stopped box is left off
** the face it hit: 1 mm (the part Quake's SURFACE_CLIP_EPSILON plays). */
#define NAV_TRACE_EPSILON 1e-3f

/* }======= */

/* {======= Types ======= */

/* A box that moves or blocks: mins/maxs in world coordinates. */
typedef struct NavBox {
    float mins[3], maxs[3];
} NavBox;

typedef struct NavTrace {
    float fraction;  /* 0..1 of the move done; 1 = no hit (see above for the pull-back) */
    float touch;     /* 0..1: fraction where the box touches what it hit (exact, then rounded); 1 = no hit */
    float end[3];    /* origin at fraction: the box there overlaps nothing */
    float normal[3]; /* outward normal of the face hit: +-x, +-y or +-z; zero if none */
    bool hit;
    bool start_solid; /* the box overlapped solid at the start (fraction 0) */
    bool is_static;   /* hit the world (true) or a dynamic box (false); false when no hit */
    int box;          /* index of the dynamic box hit, -1 for the world or no hit */
    int cell[2];      /* the column hit (cx, cy); -1, -1 for the map's edge, a box or no hit */
} NavTrace;

/* }======= */

/* {======= Functions ======= */

/* Sweep the box [origin + mins, origin + maxs] from origin = start by delta
** against the world's solid and against `count` dynamic boxes (entities,
** other bots; boxes may be NULL when count is 0). `ignore` is an index in
** boxes to skip (the mover's own box), or -1. */
void world_trace_box(const NavWorld *w, const float mins[3], const float maxs[3], const float start[3],
                     const float delta[3], const NavBox *boxes, int count, int ignore, NavTrace *out);

/* Does the box at origin overlap nothing solid (the world only; touching is
** fine)? False for non-finite input. */
bool world_box_fits(const NavWorld *w, const float mins[3], const float maxs[3], const float origin[3]);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAV_TRACE_H */

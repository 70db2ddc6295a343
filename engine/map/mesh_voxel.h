/*
** mesh_voxel.h — triangles to columns of solid spans, with Recast's
** rasterizer and heightfield filters (Debian's librecast-dev). This header
** is the C side of engine/map/mesh_voxel.cpp, the engine's one C++ file:
** Recast's API takes references, overloads and bitfields that C cannot
** call, so the bridge copies plain arrays in and plain arrays out and no
** Recast type crosses it.
**
** Coordinates are navbot's: z up, column (x, y) covering [x*cs, (x+1)*cs)
** by [y*cs, (y+1)*cs). Heights are voxels of voxel_height metres counted up
** from zmin. A span is solid from voxel smin to smax; the open space above
** it (to the next span's smin, or the sky) is where a floor can be.
**
** The caller must hand over triangles that lie inside the grid (every
** vertex within [0, width*cs] x [0, height*cs] x [zmin, zmin +
** voxels*voxel_height]) with finite coordinates; mesh_voxelize checks that
** once more and refuses anything else with NAV_E_PARAM, so Recast never
** sees input it would assert on or overflow with.
**
** DOES NOT: keep anything between calls (Recast's heightfield is freed
** before it returns), touch Recast's global allocator hooks (an embedder
** may use Recast too), or know about materials, liquids or floors.
*/
#ifndef NAV_MESH_VOXEL_H
#define NAV_MESH_VOXEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Defines ======= */

/* Recast keeps a span's heights in 13 bits (8191); a little is left over
** for the half-voxel shift the loader gives heights (map_mesh.c). */
#define MESH_VOXEL_MAX 8000

/* Area ids (Recast: 0 is "not walkable", up to 63). Where two triangles'
** spans merge within the climb of each other, the higher id wins. */
#define MESH_AREA_NONE 0
#define MESH_AREA_MAX 63

/* }======= */

/* {======= Types ======= */

typedef struct MeshVoxelDesc {
    const float *verts; /* x, y, z per vertex, metres, z up */
    int vert_count;
    const int *tris;      /* three vertex indices per triangle */
    const uint8_t *areas; /* per triangle: MESH_AREA_NONE or an id up to MESH_AREA_MAX */
    int tri_count;
    int width, height;  /* columns */
    float cell_size;    /* metres */
    float voxel_height; /* metres */
    float zmin;         /* bottom of voxel 0 */
    int voxels;         /* voxels in a column, 1 to MESH_VOXEL_MAX */
    int climb;          /* voxels: spans this close merge, keeping the walkable id */
    /* The filters, in Recast's order: a non-walkable span within `climb`
    ** over a walkable one becomes walkable (a kerb, a stair's riser); with
    ** `ledges`, a walkable span beside a drop of more than `ledge_drop`, or
    ** whose walkable neighbours differ by more than that, is not walkable;
    ** a walkable span with `clearance` voxels or less to the span above is
    ** not walkable. */
    bool filter;
    bool ledges;
    int ledge_drop;   /* voxels */
    int clearance;    /* voxels */
    const char *file; /* for messages */
} MeshVoxelDesc;

typedef struct MeshSpan {
    uint16_t smin, smax; /* solid from voxel smin up to voxel smax */
    uint8_t area;        /* after the filters */
} MeshSpan;

/* Spans by column, lowest first: column c = y * width + x holds
** spans[column_start[c] .. column_start[c + 1]). */
typedef struct MeshVoxels {
    uint32_t *column_start;
    MeshSpan *spans;
    uint32_t span_count;
} MeshVoxels;

/* }======= */

/* {======= Functions ======= */

/* Rasterize d's triangles, run the filters asked for and copy the spans
** into *out (free with mesh_voxels_free). NAV_E_PARAM for a desc or a
** vertex out of range, NAV_E_NOMEM when memory runs out (Recast's or
** ours), with err naming d->file; *out is then empty. */
NavStatus mesh_voxelize(const MeshVoxelDesc *d, MeshVoxels *out, NavError *err);
void mesh_voxels_free(MeshVoxels *v);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif

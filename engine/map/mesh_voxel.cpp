/*
** mesh_voxel.cpp — the bridge to Recast (mesh_voxel.h says what it does).
**
** C++ only because Recast is: no exceptions, no RTTI, no standard library.
** Every allocation of ours goes through core/alloc.h; Recast's own (the
** heightfield and its span pools) go through Recast's allocator and are
** freed with rcFreeHeightField before returning, on every path.
*/
#include "map/mesh_voxel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <Recast.h>

#include "core/alloc.h"

namespace
{

/* Keeps Recast's last error message: the base class drops every message. */
class Context : public rcContext
{
  public:
    Context() : rcContext(true) { last[0] = '\0'; }
    char last[200];

  protected:
    void doLog(const rcLogCategory category, const char *msg, const int len) override
    {
        if (category != RC_LOG_ERROR) return;
        int n = len < (int)sizeof last - 1 ? len : (int)sizeof last - 1;
        if (n < 0) n = 0;
        memcpy(last, msg, (size_t)n);
        last[n] = '\0';
    }
};

NavStatus check_desc(const MeshVoxelDesc *d, NavError *err)
{
    const char *file = d->file ? d->file : "mesh";
    if (d->width < 1 || d->height < 1 || (int64_t)d->width * d->height > INT32_MAX)
        return nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL, "voxelize: a grid of %d x %d columns", d->width,
                             d->height);
    if (!(d->cell_size > 0.0f) || !(d->voxel_height > 0.0f) || !isfinite(d->zmin) || d->voxels < 1 ||
        d->voxels > MESH_VOXEL_MAX || d->climb < 0 || d->clearance < 0 || d->ledge_drop < 0)
        return nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL, "voxelize: a bad cell size, voxel height or filter");
    if (d->tri_count < 0 || d->vert_count < 0 || (d->tri_count > 0 && (!d->tris || !d->areas || !d->verts)))
        return nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL, "voxelize: no triangle arrays");
    /* The grid's box, with a hair of slack for vertices on its faces. */
    float xmax = (float)d->width * d->cell_size, ymax = (float)d->height * d->cell_size;
    float zmax = d->zmin + (float)d->voxels * d->voxel_height;
    float slack = 1e-3f * d->cell_size;
    for (int i = 0; i < d->vert_count; i++) {
        const float *v = d->verts + 3 * i;
        if (!(v[0] >= -slack && v[0] <= xmax + slack && v[1] >= -slack && v[1] <= ymax + slack &&
              v[2] >= d->zmin - slack && v[2] <= zmax + slack))
            return nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL,
                                 "voxelize: vertex %d (%g, %g, %g) is outside the grid", i, (double)v[0], (double)v[1],
                                 (double)v[2]);
    }
    for (int t = 0; t < d->tri_count; t++) {
        const int *k = d->tris + 3 * t;
        if (k[0] < 0 || k[1] < 0 || k[2] < 0 || k[0] >= d->vert_count || k[1] >= d->vert_count ||
            k[2] >= d->vert_count || d->areas[t] > MESH_AREA_MAX)
            return nav_error_set(err, NAV_E_PARAM, file, 0, 0, NULL, "voxelize: triangle %d is out of range", t);
    }
    return NAV_OK;
}

/* Copy the heightfield's spans into plain arrays, column by column in
** navbot's order (Recast's z is our y, so its row-major columns are ours). */
NavStatus export_spans(const rcHeightfield *hf, MeshVoxels *out)
{
    size_t columns = (size_t)hf->width * (size_t)hf->height;
    size_t count = 0;
    for (size_t c = 0; c < columns; c++)
        for (const rcSpan *s = hf->spans[c]; s; s = s->next) count++;
    if (count > UINT32_MAX) return NAV_FAILURE | NAV_E_NOMEM;
    out->column_start = (uint32_t *)nav_malloc((columns + 1) * sizeof *out->column_start);
    out->spans = (MeshSpan *)nav_malloc((count ? count : 1) * sizeof *out->spans);
    if (!out->column_start || !out->spans) return NAV_FAILURE | NAV_E_NOMEM;
    uint32_t n = 0;
    for (size_t c = 0; c < columns; c++) {
        out->column_start[c] = n;
        for (const rcSpan *s = hf->spans[c]; s; s = s->next) {
            out->spans[n].smin = (uint16_t)s->smin;
            out->spans[n].smax = (uint16_t)s->smax;
            out->spans[n].area = (uint8_t)s->area;
            n++;
        }
    }
    out->column_start[columns] = n;
    out->span_count = n;
    return NAV_OK;
}

} // namespace

extern "C" void mesh_voxels_free(MeshVoxels *v)
{
    if (!v) return;
    nav_free(v->column_start);
    nav_free(v->spans);
    memset(v, 0, sizeof *v);
}

extern "C" NavStatus mesh_voxelize(const MeshVoxelDesc *d, MeshVoxels *out, NavError *err)
{
    memset(out, 0, sizeof *out);
    NavStatus st = check_desc(d, err);
    if (NAV_FAILED(st)) return st;
    const char *file = d->file ? d->file : "mesh";

    /* Recast is y up: (x, y, z) ours is (x, z, y) there. That swap mirrors
    ** the mesh, which would turn its triangles' winding; nothing here reads
    ** the winding (the caller decides walkability, areas[]), and Recast's
    ** spans do not depend on it. */
    float *rv = (float *)nav_malloc(((size_t)d->vert_count * 3 + 1) * sizeof *rv);
    if (!rv) return nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory voxelizing the mesh");
    for (int i = 0; i < d->vert_count; i++) {
        rv[3 * i + 0] = d->verts[3 * i + 0];
        rv[3 * i + 1] = d->verts[3 * i + 2];
        rv[3 * i + 2] = d->verts[3 * i + 1];
    }

    Context ctx;
    float bmin[3] = { 0.0f, d->zmin, 0.0f };
    float bmax[3] = { (float)d->width * d->cell_size, d->zmin + (float)d->voxels * d->voxel_height,
                      (float)d->height * d->cell_size };
    rcHeightfield *hf = rcAllocHeightfield();
    bool ok = hf && rcCreateHeightfield(&ctx, *hf, d->width, d->height, bmin, bmax, d->cell_size, d->voxel_height);
    if (ok && d->tri_count > 0)
        ok = rcRasterizeTriangles(&ctx, rv, d->vert_count, d->tris, d->areas, d->tri_count, *hf, d->climb);
    nav_free(rv);
    if (ok && d->filter) {
        rcFilterLowHangingWalkableObstacles(&ctx, d->climb, *hf);
        if (d->ledges) rcFilterLedgeSpans(&ctx, d->clearance, d->ledge_drop, *hf);
        rcFilterWalkableLowHeightSpans(&ctx, d->clearance, *hf);
    }
    if (ok) {
        st = export_spans(hf, out);
        if (NAV_FAILED(st)) {
            mesh_voxels_free(out);
            rcFreeHeightField(hf);
            return nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory copying the voxels");
        }
    }
    rcFreeHeightField(hf);
    if (!ok) {
        /* Recast fails only when an allocation does. */
        return nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory voxelizing the mesh%s%s",
                             ctx.last[0] ? ": " : "", ctx.last);
    }
    return NAV_OK;
}

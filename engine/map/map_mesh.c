/*
** map_mesh.c — mesh maps: a Wavefront .obj level voxelized into navbot's
** columns of stacked floors (docs/maps.md, "Mesh maps").
**
** The pipeline: read the .obj (map_obj.c); run the sidecar, NAME.obj.lua,
** if there is one (map_mesh_sidecar.c); place the mesh in the world (the
** up axis, scale and offset; the world starts at x = 0, y = 0 and the mesh
** must lie there) and size the grid; create the world and its classes;
** rasterize the triangles into solid spans with Recast and run its
** heightfield filters (mesh_voxel.h); turn the open space above each span
** into a floor; then the liquids and ladders; then the entities.
**
** Walkability: a triangle is ground when its slope is within the
** steepest max_slope of the world's classes (every class's floors are
** kept; a class's own limits are the grid's and the area graph's to
** apply). Recast's merge and low-obstacle filter use the highest step,
** its low-height filter the lowest clearance a class needs (crouched if it
** can crouch). A span whose top is not walkable is a clip floor (movers
** fall past it and never stand on it) when a body fits over it, and solid
** when none does (the inside of a wall or a slab). Recast's ledge filter
** marks floors beside drops as not walkable, which would cut the edge
** off every balcony and river bank the area graph jumps and swims from;
** it runs only when the sidecar asks (clip_ledges), with the longest safe
** fall as the drop.
**
** Heights: Recast counts a span's top up (ceil) and its bottom down
** (floor) to whole voxels. The heightfield starts half a voxel below the
** mesh's lowest point, so a surface at a whole number of voxels above it
** reads exactly (a floor at 3.00 m is 3.00 m, not 3.05) and any other is
** off by at most half a voxel. A sloped surface reads its highest point
** in the cell as the floor and its lowest as a ceiling.
*/
#include "map/map_mesh_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/limits.h"
#include "core/timer.h"
#include "map/mesh_voxel.h"

/* Area ids handed to Recast: ground wins over clip where two surfaces
** meet within a step; liquids go into a heightfield of their own. */
enum { AREA_GROUND = MESH_AREA_MAX, AREA_CLIP = MESH_AREA_MAX - 1, AREA_WATER = 1, AREA_LAVA, AREA_SLIME };

#define DEFAULT_VOXEL_HEIGHT 0.05f
#define MAX_AUTO_VOXEL_HEIGHT 0.25f
#define SIDE_EPS 1e-4f

static MeshMaterial material_of(const MeshLoad *m, uint32_t t)
{
    return m->set.materials ? (MeshMaterial)m->set.materials[m->mesh.t_mat[t]] : MESH_MAT_SOLID;
}

static bool is_liquid_mat(MeshMaterial k) { return k == MESH_MAT_WATER || k == MESH_MAT_LAVA || k == MESH_MAT_SLIME; }

/* {======= placing the mesh ======= */

NavStatus map_mesh_place(MeshLoad *m, NavError *err)
{
    const ObjMesh *o = &m->mesh;
    const MeshSettings *s = &m->set;
    if (o->nt == 0)
        return nav_error_set(err, NAV_E_FORMAT, m->file, 0, 0, NULL,
                             "no faces: a mesh map needs triangles (f lines) to stand on");
    m->remap = nav_malloc((size_t)o->nv * sizeof *m->remap);
    if (!m->remap) return nav_error_set(err, NAV_E_NOMEM, m->file, 0, 0, NULL, "out of memory placing the mesh");
    for (uint32_t i = 0; i < o->nv; i++) m->remap[i] = -1;
    uint32_t used = 0, kept = 0;
    for (uint32_t t = 0; t < o->nt; t++) {
        if (material_of(m, t) == MESH_MAT_IGNORE) continue;
        kept++;
        for (int k = 0; k < 3; k++) {
            uint32_t v = o->tri[3 * t + (uint32_t)k];
            if (m->remap[v] < 0) m->remap[v] = (int)used++;
        }
    }
    if (kept == 0)
        return nav_error_set(err, NAV_E_FORMAT, m->sidecar[0] ? m->sidecar : m->file, 0, 0, "materials",
                             "every face's material is \"ignore\": nothing is left to stand on");
    m->verts = nav_malloc((size_t)used * 3 * sizeof *m->verts);
    if (!m->verts) return nav_error_set(err, NAV_E_NOMEM, m->file, 0, 0, NULL, "out of memory placing the mesh");
    m->vert_count = used;

    /* The .obj's up axis to ours by a rotation, (x, y, z) -> (x, -z, y):
    ** a plain swap would mirror the level. */
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    uint32_t lo_v[3] = { 0, 0, 0 }, hi_v[3] = { 0, 0, 0 };
    for (uint32_t i = 0; i < o->nv; i++) {
        if (m->remap[i] < 0) continue;
        const float *r = o->v + 3 * i;
        double p[3] = { r[0], s->up == 'z' ? r[1] : -(double)r[2], s->up == 'z' ? r[2] : r[1] };
        for (int k = 0; k < 3; k++) {
            p[k] = p[k] * s->scale + s->offset[k];
            if (p[k] < lo[k]) lo[k] = p[k], lo_v[k] = i;
            if (p[k] > hi[k]) hi[k] = p[k], hi_v[k] = i;
            m->verts[3 * (uint32_t)m->remap[i] + (uint32_t)k] = (float)p[k];
        }
    }
    static const char *const AXIS[2] = { "x", "y" };
    float cs = m->opt->mesh_cell_size > 0.0f ? m->opt->mesh_cell_size
                                             : (s->cell_size > 0.0f ? s->cell_size : NAV_DEFAULT_CELL_SIZE);
    uint64_t cap = m->opt->mesh_max_cells ? m->opt->mesh_max_cells : NAV_LIMIT_CELLS;
    int side[2];
    for (int k = 0; k < 2; k++) {
        if (lo[k] < -SIDE_EPS)
            return nav_error_set(err, NAV_E_FORMAT, m->file, (int)o->v_line[lo_v[k]], 0, NULL,
                                 "this vertex lies at %s = %g m, outside the world: navbot's world starts at x = 0, "
                                 "y = 0 (z up); move the mesh there or give the sidecar an offset",
                                 AXIS[k], lo[k]);
        /* A mesh ending on a cell's edge needs no column past it. */
        double cells = fmax(1.0, ceil(hi[k] / cs - 1e-4));
        if (cells > NAV_LIMIT_WORLD_SIDE)
            return nav_error_set(err, NAV_E_FORMAT, m->file, (int)o->v_line[hi_v[k]], 0, NULL,
                                 "this vertex lies at %s = %g m: %.0f cells of %g m, over the limit of %d cells a side",
                                 AXIS[k], hi[k], cells, (double)cs, NAV_LIMIT_WORLD_SIDE);
        side[k] = (int)cells;
    }
    if ((uint64_t)side[0] * (uint64_t)side[1] > cap)
        return nav_error_set(err, NAV_E_FORMAT, m->file, 0, 0, NULL,
                             "the mesh spans %g x %g m: %d x %d cells of %g m, over the limit of %llu cells", hi[0],
                             hi[1], side[0], side[1], (double)cs, (unsigned long long)cap);
    for (uint32_t i = 0; i < used; i++)
        for (int k = 0; k < 2; k++)
            if (m->verts[3 * i + (uint32_t)k] < 0.0f) m->verts[3 * i + (uint32_t)k] = 0.0f;
    m->width = side[0];
    m->height = side[1];
    m->cell_size = cs;

    /* Voxels: fine enough for stairs, few enough for Recast's 13 bits. */
    double range = hi[2] - lo[2];
    float ch = s->voxel_height > 0.0f ? s->voxel_height : DEFAULT_VOXEL_HEIGHT;
    if (range / ch + 5.0 > MESH_VOXEL_MAX) {
        if (s->voxel_height > 0.0f)
            return nav_error_set(err, NAV_E_FORMAT, m->sidecar, 0, 0, "voxel_height",
                                 "the mesh is %g m tall: %.0f voxels of %g m, over Recast's %d; a larger "
                                 "voxel_height, or none (chosen to fit)",
                                 range, range / ch, (double)ch, MESH_VOXEL_MAX);
        ch = (float)(range / (MESH_VOXEL_MAX - 6));
        /* Past that, floors a quarter of a metre off: a stray vertex. */
        if (ch > MAX_AUTO_VOXEL_HEIGHT)
            return nav_error_set(err, NAV_E_FORMAT, m->file, (int)o->v_line[hi_v[2]], 0, NULL,
                                 "this vertex lies at z = %g m, %g m above the lowest (line %u): a mesh map may be "
                                 "%.0f m tall",
                                 hi[2], range, o->v_line[lo_v[2]], MAX_AUTO_VOXEL_HEIGHT * (MESH_VOXEL_MAX - 6));
    }
    /* Voxels on whole multiples of their height from z = 0: a floor at
    ** 3.00 m reads 3.00 m wherever the mesh's lowest point is. */
    m->base_z = (float)(floor(lo[2] / ch) * ch);
    if (m->base_z > lo[2]) m->base_z -= ch;
    m->voxel_height = ch;
    m->voxels = (int)ceil((hi[2] - m->base_z) / ch) + 3;
    m->stats.columns = (uint32_t)side[0] * (uint32_t)side[1];

    /* The cells the triangles' boxes cover, summed: a few huge triangles
    ** over a large grid would rasterize for minutes. */
    uint64_t cover = 0, worst = 0;
    uint32_t worst_t = 0;
    for (uint32_t t = 0; t < o->nt; t++) {
        if (material_of(m, t) == MESH_MAT_IGNORE) continue;
        float bl[2] = { INFINITY, INFINITY }, bh[2] = { -INFINITY, -INFINITY };
        for (int k = 0; k < 3; k++) {
            const float *p = m->verts + 3 * (uint32_t)m->remap[o->tri[3 * t + (uint32_t)k]];
            for (int a = 0; a < 2; a++) bl[a] = fminf(bl[a], p[a]), bh[a] = fmaxf(bh[a], p[a]);
        }
        uint64_t n = (uint64_t)(floorf(bh[0] / cs) - floorf(bl[0] / cs) + 1.0f) *
                     (uint64_t)(floorf(bh[1] / cs) - floorf(bl[1] / cs) + 1.0f);
        cover += n;
        if (n > worst) worst = n, worst_t = t;
    }
    uint64_t grid = (uint64_t)side[0] * (uint64_t)side[1];
    if (cover > NAV_LIMIT_MESH_COVER * grid)
        return nav_error_set(err, NAV_E_FORMAT, m->file, (int)o->t_line[worst_t], 0, NULL,
                             "the triangles cover %llu cells in all, over %d times the grid's %llu (the face on this "
                             "line alone covers %llu): huge overlapping triangles",
                             (unsigned long long)cover, NAV_LIMIT_MESH_COVER, (unsigned long long)grid,
                             (unsigned long long)worst);
    return NAV_OK;
}

NavStatus map_mesh_create_world(MeshLoad *m, NavError *err)
{
    char base[64];
    if (m->set.name[0]) {
        snprintf(base, sizeof base, "%s", m->set.name);
    } else {
        snprintf(base, sizeof base, "%s", fileio_basename(m->file));
        char *dot = strrchr(base, '.');
        if (dot && dot != base) *dot = '\0';
    }
    m->world = world_create(&(NavWorldDesc){ .width = m->width,
                                             .height = m->height,
                                             .cell_size = m->cell_size,
                                             .gravity = m->set.gravity,
                                             .name = base,
                                             .source = m->file },
                            err);
    if (!m->world) return NAV_FAILURE | err->status;
    NavStatus st = world_set_metadata(m->world, m->set.description, m->set.author, err);
    if (NAV_FAILED(st)) return st;
    if (m->set.layer_count == 0) return world_add_layer(m->world, "mesh", m->base_z, err);
    for (int i = 0; i < m->set.layer_count && NAV_SUCCEEDED(st); i++)
        st = world_add_layer(m->world, m->set.layers[i].name, m->set.layers[i].z, err);
    return st;
}

/* }======= */

/* {======= voxels to floors ======= */

/* What the classes of the world ask of the voxels (the most permissive). */
typedef struct Reach {
    float cos_slope, step, clear, fall;
} Reach;

static Reach class_reach(const NavWorld *w)
{
    Reach r = { 1.0f, 0.0f, INFINITY, 0.0f };
    float slope = 0.0f;
    for (int i = 0; i < world_class_count(w); i++) {
        const NavClass *k = world_class(w, i);
        slope = fmaxf(slope, k->max_slope);
        r.step = fmaxf(r.step, k->step);
        r.fall = fmaxf(r.fall, k->max_fall);
        r.clear = fminf(r.clear, class_can_crouch(k) ? fminf(k->crouch_height, k->height) : k->height);
    }
    if (!isfinite(r.clear)) r.clear = 0.0f;
    r.cos_slope = cosf(slope * (float)NAV_PI / 180.0f);
    return r;
}

typedef struct TriList {
    int *tris;
    uint8_t *areas;
    int count;
} TriList;

/* Sorts the triangles into solid ground and walls, and liquid surfaces. */
static NavStatus sort_triangles(MeshLoad *m, const Reach *r, TriList *solid, TriList *liquid, NavError *err)
{
    const ObjMesh *o = &m->mesh;
    solid->tris = nav_malloc((size_t)o->nt * 3 * sizeof *solid->tris);
    solid->areas = nav_malloc(o->nt);
    liquid->tris = nav_malloc((size_t)o->nt * 3 * sizeof *liquid->tris);
    liquid->areas = nav_malloc(o->nt);
    if (!solid->tris || !solid->areas || !liquid->tris || !liquid->areas)
        return nav_error_set(err, NAV_E_NOMEM, m->file, 0, 0, NULL, "out of memory voxelizing the mesh");
    for (uint32_t t = 0; t < o->nt; t++) {
        MeshMaterial k = material_of(m, t);
        if (k == MESH_MAT_IGNORE) continue;
        int v[3];
        for (int i = 0; i < 3; i++) v[i] = m->remap[o->tri[3 * t + (uint32_t)i]];
        TriList *into = is_liquid_mat(k) ? liquid : solid;
        uint8_t area;
        if (is_liquid_mat(k)) {
            area = k == MESH_MAT_WATER ? AREA_WATER : k == MESH_MAT_LAVA ? AREA_LAVA : AREA_SLIME;
        } else {
            /* The slope by the normal's height, whichever way the triangle
            ** is wound: exporters flip faces, and a span's top is its top. */
            const float *a = m->verts + 3 * v[0], *b = m->verts + 3 * v[1], *c = m->verts + 3 * v[2];
            double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
            double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                            e1[0] * e2[1] - e1[1] * e2[0] };
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            bool ground = len > 0.0 && fabs(n[2]) / len >= (double)r->cos_slope - 1e-6;
            area = !ground ? MESH_AREA_NONE : k == MESH_MAT_CLIP ? AREA_CLIP : AREA_GROUND;
        }
        memcpy(into->tris + 3 * into->count, v, sizeof v);
        into->areas[into->count++] = area;
    }
    return NAV_OK;
}

static void trilist_free(TriList *t)
{
    nav_free(t->tris);
    nav_free(t->areas);
}

static uint8_t liquid_contents(uint8_t area)
{
    return area == AREA_WATER ? NAV_CONTENTS_WATER : area == AREA_LAVA ? NAV_CONTENTS_LAVA : NAV_CONTENTS_SLIME;
}

/* The floors of the solid spans, and the mesh's own liquid surfaces. */
static size_t make_floors(const MeshLoad *m, const Reach *r, const MeshVoxels *sv, const MeshVoxels *lv,
                          NavFloorAt *items, uint32_t *item_start)
{
    size_t n = 0;
    float ch = m->voxel_height, base = m->base_z;
    uint32_t columns = (uint32_t)m->width * (uint32_t)m->height;
    for (uint32_t c = 0; c < columns; c++) {
        item_start[c] = (uint32_t)n;
        for (uint32_t i = sv->column_start[c]; i < sv->column_start[c + 1]; i++) {
            const MeshSpan *s = &sv->spans[i];
            float z = base + (float)(s->smax - 1) * ch;
            float ceiling = i + 1 < sv->column_start[c + 1] ? base + (float)sv->spans[i + 1].smin * ch : INFINITY;
            uint8_t contents = NAV_CONTENTS_FLOOR;
            if (s->area == AREA_CLIP) contents = NAV_CONTENTS_CLIP;
            else if (s->area == MESH_AREA_NONE) {
                if (ceiling - z < r->clear - 1e-4f) continue; /* no body fits: inside a wall or a slab */
                contents = NAV_CONTENTS_CLIP;
            }
            NavFloor f = { .z = z, .ceiling = ceiling, .top = z, .contents = contents };
            /* The lowest liquid surface over this floor and under its ceiling. */
            if (lv && lv->column_start) {
                for (uint32_t j = lv->column_start[c]; j < lv->column_start[c + 1]; j++) {
                    float top = base + (float)(lv->spans[j].smax - 1) * ch;
                    if (top > z + 1e-3f && top <= ceiling + 1e-3f && (f.top == z || top < f.top)) {
                        f.top = fminf(top, ceiling);
                        f.contents = liquid_contents(lv->spans[j].area);
                    }
                }
            }
            items[n].cell = c;
            items[n].floor = f;
            n++;
        }
    }
    item_start[columns] = (uint32_t)n;
    return n;
}

/* The sidecar's liquid and ladder boxes, over the floors made. */
static NavStatus apply_boxes(const MeshLoad *m, NavFloorAt *items, const uint32_t *item_start, NavError *err)
{
    float cs = m->cell_size;
    for (int b = 0; b < m->set.box_count; b++) {
        const MeshBox *x = &m->set.boxes[b];
        bool ladder = x->contents == NAV_CONTENTS_LADDER;
        /* The columns whose centre the box covers. */
        int x0 = (int)ceilf(x->min[0] / cs - 0.5f), x1 = (int)ceilf(x->max[0] / cs - 0.5f) - 1;
        int y0 = (int)ceilf(x->min[1] / cs - 0.5f), y1 = (int)ceilf(x->max[1] / cs - 0.5f) - 1;
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 >= m->width) x1 = m->width - 1;
        if (y1 >= m->height) y1 = m->height - 1;
        int hits = 0;
        for (int cy = y0; cy <= y1; cy++) {
            for (int cx = x0; cx <= x1; cx++) {
                uint32_t c = (uint32_t)cy * (uint32_t)m->width + (uint32_t)cx;
                for (uint32_t i = item_start[c]; i < item_start[c + 1]; i++) {
                    NavFloor *f = &items[i].floor;
                    if ((x->zmin_given && f->z < x->min[2] - 1e-3f) || f->z >= x->max[2]) continue;
                    f->contents = x->contents;
                    f->top = ladder ? x->max[2] : fminf(x->max[2], f->ceiling);
                    if (ladder) f->flags = (uint8_t)(x->face << NAV_FLOOR_FACE_SHIFT);
                    hits++;
                    if (ladder) break; /* the lowest floor of the column is the ladder's foot */
                }
            }
        }
        if (hits == 0)
            return nav_error_set(err, NAV_E_FORMAT, m->sidecar, 0, 0, x->field,
                                 "no floor lies in the box (x %g to %g, y %g to %g, below z %g): %s", (double)x->min[0],
                                 (double)x->max[0], (double)x->min[1], (double)x->max[1], (double)x->max[2],
                                 ladder ? "a ladder's box holds its foot and reaches up to its top"
                                        : "a liquid's box holds its bed and reaches up to its surface");
    }
    return NAV_OK;
}

NavStatus map_mesh_build_floors(MeshLoad *m, NavError *err)
{
    Reach r = class_reach(m->world);
    TriList solid = { 0 }, liquid = { 0 };
    MeshVoxels sv = { 0 }, lv = { 0 };
    NavFloorAt *items = NULL;
    uint32_t *item_start = NULL;
    NavStatus st = sort_triangles(m, &r, &solid, &liquid, err);
    float ch = m->voxel_height;
    uint64_t t0 = timer_now_ns();
    MeshVoxelDesc d = {
        .verts = m->verts,
        .vert_count = (int)m->vert_count,
        .width = m->width,
        .height = m->height,
        .cell_size = m->cell_size,
        .voxel_height = ch,
        .zmin = m->base_z - 0.5f * ch,
        .voxels = m->voxels,
        .climb = (int)floorf(r.step / ch + 1e-3f),
        .file = m->file,
    };
    if (NAV_SUCCEEDED(st)) {
        d.tris = solid.tris, d.areas = solid.areas, d.tri_count = solid.count;
        d.filter = true;
        d.ledges = m->set.clip_ledges;
        d.ledge_drop = (int)floorf(r.fall / ch + 1e-3f);
        /* Recast keeps a walkable span whose gap (voxels) is over
        ** clearance; ours measures a voxel more (heights.) */
        int need = (int)ceilf(r.clear / ch - 1e-3f) - 1;
        d.clearance = need > 1 ? need - 1 : 0;
        st = mesh_voxelize(&d, &sv, err);
    }
    if (NAV_SUCCEEDED(st) && liquid.count > 0) {
        d.tris = liquid.tris, d.areas = liquid.areas, d.tri_count = liquid.count;
        d.filter = false;
        st = mesh_voxelize(&d, &lv, err);
    }
    m->stats.voxelize_ms = timer_ms_since(t0);
    m->stats.spans = sv.span_count;
    t0 = timer_now_ns();
    if (NAV_SUCCEEDED(st)) {
        uint32_t columns = (uint32_t)m->width * (uint32_t)m->height;
        items = nav_malloc(((size_t)sv.span_count + 1) * sizeof *items);
        item_start = nav_malloc(((size_t)columns + 1) * sizeof *item_start);
        if (!items || !item_start)
            st = nav_error_set(err, NAV_E_NOMEM, m->file, 0, 0, NULL, "out of memory making %u floors", sv.span_count);
    }
    size_t n = 0;
    if (NAV_SUCCEEDED(st)) {
        n = make_floors(m, &r, &sv, liquid.count > 0 ? &lv : NULL, items, item_start);
        st = apply_boxes(m, items, item_start, err);
    }
    if (NAV_SUCCEEDED(st)) {
        /* Each floor in the highest layer at or below it (half a metre of
        ** slack: a layer's z is its floor, a stair's first steps are in it). */
        int layers = world_layer_count(m->world);
        for (size_t i = 0; i < n; i++) {
            uint16_t k = 0;
            for (int j = 1; j < layers; j++)
                if (world_layer(m->world, j)->z <= items[i].floor.z + 0.5f) k = (uint16_t)j;
            items[i].floor.layer = k;
        }
        st = world_set_floors(m->world, items, n, err);
    }
    m->stats.floors_ms = timer_ms_since(t0);
    nav_free(items);
    nav_free(item_start);
    mesh_voxels_free(&sv);
    mesh_voxels_free(&lv);
    trilist_free(&solid);
    trilist_free(&liquid);
    return st;
}

/* }======= */

/* {======= loading ======= */

static uint64_t hash_more(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

NavWorld *map_load_obj(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions defaults = { 0 };
    if (!opt) opt = &defaults;
    NavError local;
    if (!err) err = &local;
    nav_error_clear(err);
    uint64_t t0 = timer_now_ns();
    MeshLoad *m = nav_calloc(1, sizeof *m);
    char sidecar[300];
    snprintf(sidecar, sizeof sidecar, "%s.lua", name);
    if (!m) {
        nav_error_set(err, NAV_E_NOMEM, name, 0, 0, NULL, "out of memory loading the mesh");
        return NULL;
    }
    m->file = name;
    m->sidecar = opt->mesh_sidecar ? sidecar : "";
    m->opt = opt;
    m->set.up = 'y';
    m->set.scale = 1.0f;
    NavStatus st = obj_parse(buf, len, name, NAV_LIMIT_MESH_TRIANGLES, &m->mesh, err);
    m->stats.parse_ms = timer_ms_since(t0);
    m->stats.triangles = m->mesh.nt;
    if (NAV_SUCCEEDED(st) && opt->mesh_sidecar) {
        st = map_mesh_sidecar_load(m, opt->mesh_sidecar, opt->mesh_sidecar_len, err);
    } else if (NAV_SUCCEEDED(st)) {
        st = map_mesh_place(m, err);
        if (NAV_SUCCEEDED(st)) st = map_mesh_create_world(m, err);
        NavClass human = class_defaults();
        if (NAV_SUCCEEDED(st)) st = world_add_class(m->world, &human, NULL, err);
        if (NAV_SUCCEEDED(st)) st = map_mesh_build_floors(m, err);
    }
    NavWorld *w = NULL;
    if (NAV_SUCCEEDED(st)) {
        w = m->world;
        m->world = NULL;
        /* The world is the mesh, the sidecar and the cell size asked for. */
        uint64_t h = map_hash(buf, len);
        if (opt->mesh_sidecar)
            h = hash_more(hash_more(h, "\n--sidecar\n", 11), opt->mesh_sidecar, opt->mesh_sidecar_len);
        h = hash_more(h, &m->cell_size, sizeof m->cell_size);
        world_set_source_hash(w, h);
        m->stats.total_ms = timer_ms_since(t0);
        if (opt->mesh_stats) *opt->mesh_stats = m->stats;
    }
    world_destroy(m->world);
    obj_free(&m->mesh);
    nav_free(m->set.materials);
    nav_free(m->set.boxes);
    nav_free(m->verts);
    nav_free(m->remap);
    nav_free(m);
    return w;
}

NavWorld *map_load_obj_file(const char *path, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions o = { 0 };
    if (opt) o = *opt;
    NavError local;
    if (!err) err = &local;
    /* path names the mesh or its sidecar; either way both are looked for. */
    char mesh[FILEIO_PATH_MAX], side[FILEIO_PATH_MAX + 8], name[FILEIO_PATH_MAX];
    size_t n = strlen(path);
    bool named_sidecar = n > 8 && strcmp(path + n - 8, ".obj.lua") == 0;
    if (n >= sizeof mesh) {
        nav_error_set(err, NAV_E_PARAM, path, 0, 0, NULL, "path too long");
        return NULL;
    }
    snprintf(mesh, sizeof mesh, "%.*s", (int)(named_sidecar ? n - 4 : n), path);
    snprintf(side, sizeof side, "%s.lua", mesh);
    const char *shown = o.name && *o.name ? o.name : path;
    size_t sn = strlen(shown);
    snprintf(name, sizeof name, "%.*s", (int)(sn > 8 && strcmp(shown + sn - 8, ".obj.lua") == 0 ? sn - 4 : sn), shown);

    char *data = NULL, *text = NULL;
    size_t len = 0, text_len = 0;
    if (NAV_FAILED(fileio_read(mesh, NAV_MAP_MAX_FILE_BYTES, &data, &len, err))) return NULL;
    struct stat st;
    if (named_sidecar || stat(side, &st) == 0) {
        if (NAV_FAILED(fileio_read(side, NAV_MAP_MAX_FILE_BYTES, &text, &text_len, err))) {
            nav_free(data);
            return NULL;
        }
        o.mesh_sidecar = text;
        o.mesh_sidecar_len = text_len;
    }
    NavWorld *w = map_load_obj(data, len, name, &o, err);
    nav_free(data);
    nav_free(text);
    return w;
}

/* }======= */

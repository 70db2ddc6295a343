/*
** map_mesh_internal.h — what the mesh map loader's files share.
**
** map_obj.c reads the Wavefront .obj text into an ObjMesh (vertices as
** written, triangles fanned from the faces, material per triangle);
** map_mesh_sidecar.c runs the Lua sidecar and reads its settings, classes
** and entities with the native loader's readers; map_mesh.c places the
** mesh in the world, voxelizes it (mesh_voxel.h) and turns the spans into
** floors, liquids and ladders.
*/
#ifndef NAV_MAP_MESH_INTERNAL_H
#define NAV_MAP_MESH_INTERNAL_H

#include "map/map.h"

/* {======= the .obj text ======= */

#define OBJ_NAME_MAX 64
#define OBJ_MAX_MATERIALS 4096

typedef struct ObjMesh {
    float *v;         /* x, y, z per vertex, as written */
    uint32_t *v_line; /* the line of each vertex */
    uint32_t nv, v_cap;
    uint32_t *tri;    /* three 0-based vertex indices per triangle */
    uint32_t *t_line; /* the line of the face each triangle came from */
    uint16_t *t_mat;  /* material of each triangle (0: none given) */
    uint32_t nt, t_cap;
    char (*mat)[OBJ_NAME_MAX]; /* names; mat[0] is "" (no usemtl yet) */
    uint32_t nmat, mat_cap;
    uint32_t faces;
} ObjMesh;

/* Parse buf (len bytes, any NUL is an error) as an .obj file. At most
** max_items vertices and as many triangles. NAV_E_FORMAT naming file:line
** and what is wrong, or NAV_E_NOMEM; *m is emptied either way first. */
NavStatus obj_parse(const char *buf, size_t len, const char *file, uint32_t max_items, ObjMesh *m, NavError *err);
void obj_free(ObjMesh *m);

/* }======= */

/* {======= what the sidecar may set ======= */

/* What a material (usemtl) makes of its triangles. */
typedef enum MeshMaterial {
    MESH_MAT_SOLID = 0, /* ground or wall, by its slope */
    MESH_MAT_CLIP,      /* solid, but no floor on it is walked */
    MESH_MAT_WATER,     /* a liquid's surface: not solid */
    MESH_MAT_LAVA,
    MESH_MAT_SLIME,
    MESH_MAT_IGNORE, /* left out */
    MESH_MAT_COUNT
} MeshMaterial;

/* A liquid or a ladder given as a box: the floors of the columns whose
** centre it covers, lying from min[2] (any height when not given) up to
** below max[2], take its contents with max[2] as their top. */
typedef struct MeshBox {
    float min[3], max[3];
    bool zmin_given;
    uint8_t contents; /* NavContents */
    uint8_t face;     /* ladders: NavDir */
    char field[32];   /* "liquids[2]", for messages */
} MeshBox;

typedef struct MeshSettings {
    char name[64], description[512], author[128];
    float cell_size;    /* 0: the default */
    float voxel_height; /* 0: automatic */
    float gravity;
    char up; /* 'y' (the .obj convention) or 'z' */
    float scale;
    float offset[3];
    bool clip_ledges;
    uint8_t *materials; /* MeshMaterial per material of the mesh (nmat), or NULL */
    MeshBox *boxes;     /* liquids, then ladders */
    int box_count;
    int layer_count;
    NavLayer layers[NAV_MAX_LAYERS];
} MeshSettings;

/* }======= */

/* {======= one load ======= */

typedef struct MeshLoad {
    const char *file;    /* the mesh's name in messages */
    const char *sidecar; /* the sidecar's name in messages ("" when none) */
    const NavMapOptions *opt;
    ObjMesh mesh;
    MeshSettings set;
    NavWorld *world;

    /* Placed in the world (map_mesh_place): the vertices the triangles use,
    ** in world metres, and the grid. */
    float *verts;
    uint32_t vert_count;
    int *remap; /* mesh vertex -> verts index, -1 when unused */
    int width, height;
    float cell_size;
    float base_z; /* lowest height of the mesh */
    float voxel_height;
    int voxels;
    NavMeshStats stats;
} MeshLoad;

/* Places the mesh (up axis, scale, offset), sizes the grid and checks it
** against the limits. Errors name the mesh and the line of the vertex at
** fault. */
NavStatus map_mesh_place(MeshLoad *m, NavError *err);
/* Creates the world for the placed mesh (width, height, cell size and the
** settings' name, gravity, metadata and layers). */
NavStatus map_mesh_create_world(MeshLoad *m, NavError *err);
/* Voxelizes for the world's classes and sets its floors. */
NavStatus map_mesh_build_floors(MeshLoad *m, NavError *err);

/* The sidecar: runs sidecar text, reads the settings into m->set, then
** (between reads) calls place and create_world, reads the classes, calls
** build_floors and reads the entities. Without a sidecar map_mesh.c makes
** those calls itself. */
NavStatus map_mesh_sidecar_load(MeshLoad *m, const char *text, size_t len, NavError *err);

/* }======= */

#endif

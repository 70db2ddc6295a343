/*
** map_mesh_sidecar.c — a mesh map's sidecar, NAME.obj.lua: what the mesh
** does not carry (docs/maps.md, "Mesh maps"). Like a native map it is a
** Lua chunk that returns a table and runs in the same sandbox; its
** classes and entities are read by the native loader's readers
** (map_lua_things.c), in the native map's field names.
**
** The order matters: the settings come first (they size the grid), then
** the world is made and the classes read (the voxels depend on them),
** then the mesh is voxelized, then the entities are read (they stand on
** the floors). The two reading steps are protected Lua calls; the
** voxelizing between them is plain C. Every block lives in the MeshLoad
** or the LoadCtx, so a Lua error's longjmp leaks nothing.
*/
#include "map/map_lua_internal.h"
#include "map/map_mesh_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "lua/sandbox.h"

typedef struct Sidecar {
    LoadCtx c; /* the native reader's context: file, error, world */
    MeshLoad *m;
} Sidecar;

static const char *const SIDECAR_FIELDS[] = {
    "name",        "description", "author",  "cell_size", "voxel_height", "gravity",  "up",      "scale", "offset",
    "clip_ledges", "materials",   "liquids", "ladders",   "layers",       "entities", "classes", NULL,
};

static const char *const MATERIAL_NAMES[MESH_MAT_COUNT] = { "floor", "clip", "water", "lava", "slime", "ignore" };

/* {======= settings ======= */

static void read_materials(Sidecar *sd, lua_State *L, int map)
{
    LoadCtx *c = &sd->c;
    const ObjMesh *o = &sd->m->mesh;
    int t = map_lua_raw_field(L, map, "materials");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        FAIL(c, L, "materials", "expected a table { material = \"water\", ... }, got %s", luaL_typename(L, -1));
    int tab = lua_gettop(L);
    uint8_t *kinds = nav_calloc(o->nmat, 1);
    if (!kinds) FAIL_NOMEM(c, L, "materials", "out of memory");
    sd->m->set.materials = kinds;
    lua_pushnil(L);
    while (lua_next(L, tab)) {
        char field[96];
        if (lua_type(L, -2) != LUA_TSTRING)
            FAIL(c, L, "materials", "keys must be material names (usemtl in the .obj), found a %s",
                 luaL_typename(L, -2));
        const char *name = lua_tostring(L, -2);
        snprintf(field, sizeof field, "materials.%.60s", name);
        uint32_t k = 0;
        for (uint32_t i = 1; i < o->nmat && !k; i++)
            if (strcmp(o->mat[i], name) == 0) k = i;
        if (!k) {
            char list[200] = "";
            size_t n = 0;
            for (uint32_t i = 1; i < o->nmat && n + 40 < sizeof list; i++)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i > 1 ? ", " : "", o->mat[i]);
            FAIL(c, L, field, "no face of %s uses this material (usemtl); %s%s", sd->m->file,
                 o->nmat > 1 ? "its materials are: " : "it names no material", list);
        }
        if (lua_type(L, -1) != LUA_TSTRING)
            FAIL(c, L, field, "expected \"floor\", \"clip\", \"water\", \"lava\", \"slime\" or \"ignore\", got %s",
                 luaL_typename(L, -1));
        const char *v = lua_tostring(L, -1);
        int kind = -1;
        for (int i = 0; i < MESH_MAT_COUNT; i++)
            if (strcmp(v, MATERIAL_NAMES[i]) == 0) kind = i;
        if (kind < 0) FAIL(c, L, field, "unknown kind '%.40s' (expected floor, clip, water, lava, slime or ignore)", v);
        kinds[k] = (uint8_t)kind;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static const char *const LIQUID_FIELDS[] = { "type", "min", "max", NULL };
static const char *const LADDER_FIELDS[] = { "min", "max", "face", NULL };

static int read_face(LoadCtx *c, lua_State *L, int box, const char *path)
{
    static const char *const NAMES[8] = { "north", "east", "south", "west", "n", "e", "s", "w" };
    char face[16], field[64];
    map_lua_read_string(c, L, box, "face", path, true, NULL, face, sizeof face);
    for (int i = 0; i < 8; i++)
        if (strcmp(face, NAMES[i]) == 0) return i % 4;
    map_lua_join_path(field, sizeof field, path, "face");
    return FAIL(c, L, field, "expected north, east, south or west (or n, e, s, w), got '%s'", face);
}

/* liquids = { { type = "water", min = {x, y[, z]}, max = {x, y, z} } } and
** ladders = { { min = ..., max = ..., face = "north" } }. */
static void read_boxes(Sidecar *sd, lua_State *L, int map, const char *key)
{
    LoadCtx *c = &sd->c;
    MeshSettings *s = &sd->m->set;
    bool ladders = strcmp(key, "ladders") == 0;
    int t = map_lua_raw_field(L, map, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE) FAIL(c, L, key, "expected a list of boxes, got %s", luaL_typename(L, -1));
    int list = lua_gettop(L);
    int n = map_lua_check_list(c, L, list, key);
    if (s->box_count + n > NAV_MAX_ENTITIES) FAIL(c, L, key, "more than %d liquid and ladder boxes", NAV_MAX_ENTITIES);
    MeshBox *grown = nav_realloc_array(s->boxes, (size_t)(s->box_count + n + 1), sizeof *grown);
    if (!grown) FAIL_NOMEM(c, L, key, "out of memory");
    s->boxes = grown;
    for (int i = 0; i < n; i++) {
        MeshBox *b = &s->boxes[s->box_count];
        memset(b, 0, sizeof *b);
        snprintf(b->field, sizeof b->field, "%s[%d]", key, i + 1);
        char field[64];
        lua_rawgeti(L, list, i + 1);
        int box = lua_gettop(L);
        if (lua_type(L, box) != LUA_TTABLE)
            FAIL(c, L, b->field, "expected a table { %s }, got %s",
                 ladders ? "min = {x, y}, max = {x, y, top}, face = \"north\""
                         : "type = \"water\", min = {x, y}, max = {x, y, surface}",
                 luaL_typename(L, box));
        map_lua_check_fields(c, L, box, ladders ? LADDER_FIELDS : LIQUID_FIELDS, b->field);
        if (ladders) {
            b->contents = NAV_CONTENTS_LADDER;
            b->face = (uint8_t)read_face(c, L, box, b->field);
        } else {
            char type[16];
            map_lua_read_string(c, L, box, "type", b->field, false, "water", type, sizeof type);
            if (strcmp(type, "water") == 0) b->contents = NAV_CONTENTS_WATER;
            else if (strcmp(type, "lava") == 0) b->contents = NAV_CONTENTS_LAVA;
            else if (strcmp(type, "slime") == 0) b->contents = NAV_CONTENTS_SLIME;
            else {
                map_lua_join_path(field, sizeof field, b->field, "type");
                FAIL(c, L, field, "expected water, lava or slime, got '%s'", type);
            }
        }
        bool zmax_given;
        map_lua_join_path(field, sizeof field, b->field, "min");
        if (map_lua_raw_field(L, box, "min") == LUA_TNIL) FAIL(c, L, field, "missing; expected {x, y} or {x, y, z}");
        map_lua_read_vec_top(c, L, field, b->min, &b->zmin_given);
        lua_pop(L, 1);
        map_lua_join_path(field, sizeof field, b->field, "max");
        if (map_lua_raw_field(L, box, "max") == LUA_TNIL)
            FAIL(c, L, field, "missing; expected {x, y, z}, z the %s", ladders ? "ladder's top" : "liquid's surface");
        map_lua_read_vec_top(c, L, field, b->max, &zmax_given);
        lua_pop(L, 1);
        if (!zmax_given) FAIL(c, L, field, "needs a z: the %s", ladders ? "ladder's top" : "liquid's surface");
        if (!(b->min[0] < b->max[0] && b->min[1] < b->max[1] && (!b->zmin_given || b->min[2] < b->max[2])))
            FAIL(c, L, b->field, "min must be below max on every axis given");
        lua_pop(L, 1);
        s->box_count++;
    }
    lua_pop(L, 1);
}

static void read_layers(Sidecar *sd, lua_State *L, int map)
{
    static const char *const FIELDS[] = { "name", "z", NULL };
    LoadCtx *c = &sd->c;
    MeshSettings *s = &sd->m->set;
    int t = map_lua_raw_field(L, map, "layers");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        FAIL(c, L, "layers", "expected a list { { name = ..., z = ... }, ... }, got %s", luaL_typename(L, -1));
    int list = lua_gettop(L);
    int n = map_lua_check_list(c, L, list, "layers");
    if (n > NAV_MAX_LAYERS) FAIL(c, L, "layers", "more than %d layers", NAV_MAX_LAYERS);
    for (int i = 0; i < n; i++) {
        char path[32];
        snprintf(path, sizeof path, "layers[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        if (lua_type(L, -1) != LUA_TTABLE)
            FAIL(c, L, path, "expected { name = ..., z = ... }, got %s", luaL_typename(L, -1));
        map_lua_check_fields(c, L, -1, FIELDS, path);
        NavLayer *ly = &s->layers[i];
        map_lua_read_string(c, L, -1, "name", path, false, "", ly->name, sizeof ly->name);
        ly->z = map_lua_read_number(c, L, -1, "z", path, true, 0.0f, -1e6f, 1e6f);
        if (i > 0 && !(ly->z > s->layers[i - 1].z)) {
            char field[48];
            map_lua_join_path(field, sizeof field, path, "z");
            FAIL(c, L, field, "layers rise: %g is not above the layer before (%g)", (double)ly->z,
                 (double)s->layers[i - 1].z);
        }
        lua_pop(L, 1);
    }
    s->layer_count = n;
    lua_pop(L, 1);
}

/* Protected: arg 1 the sidecar's table, arg 2 the Sidecar. Reads the
** settings, places the mesh, makes the world and reads the classes. */
static int read_setup(lua_State *L)
{
    Sidecar *sd = lua_touserdata(L, 2);
    LoadCtx *c = &sd->c;
    MeshSettings *s = &sd->m->set;
    if (lua_type(L, 1) != LUA_TTABLE)
        FAIL(c, L, NULL, "a sidecar must return a table, it returned %s", luaL_typename(L, 1));
    map_lua_check_fields(c, L, 1, SIDECAR_FIELDS, "");
    map_lua_read_string(c, L, 1, "name", "", false, "", s->name, sizeof s->name);
    map_lua_read_string(c, L, 1, "description", "", false, "", s->description, sizeof s->description);
    map_lua_read_string(c, L, 1, "author", "", false, "", s->author, sizeof s->author);
    s->cell_size = map_lua_read_number(c, L, 1, "cell_size", "", false, 0.0f, 0.01f, 100.0f);
    s->voxel_height = map_lua_read_number(c, L, 1, "voxel_height", "", false, 0.0f, 0.005f, 1.0f);
    s->gravity = map_lua_read_number(c, L, 1, "gravity", "", false, 0.0f, 0.01f, 1000.0f);
    s->scale = map_lua_read_number(c, L, 1, "scale", "", false, 1.0f, 1e-4f, 1e4f);
    s->clip_ledges = map_lua_read_bool(c, L, 1, "clip_ledges", "", false);
    char up[8];
    map_lua_read_string(c, L, 1, "up", "", false, "y", up, sizeof up);
    if (strcmp(up, "y") != 0 && strcmp(up, "z") != 0)
        FAIL(c, L, "up", "expected \"y\" (the .obj convention, Blender's export) or \"z\", got '%s'", up);
    s->up = up[0];
    if (map_lua_raw_field(L, 1, "offset") != LUA_TNIL) {
        bool z_given;
        map_lua_read_vec_top(c, L, "offset", s->offset, &z_given);
    }
    lua_pop(L, 1);
    read_materials(sd, L, 1);
    read_boxes(sd, L, 1, "liquids");
    read_boxes(sd, L, 1, "ladders");
    read_layers(sd, L, 1);

    NavError e;
    nav_error_clear(&e);
    if (NAV_FAILED(map_mesh_place(sd->m, &e)) || NAV_FAILED(map_mesh_create_world(sd->m, &e)))
        return map_lua_fail_with(c, L, &e);
    c->world = sd->m->world;
    map_lua_read_classes(c, L, 1);
    return 0;
}

/* }======= */

/* {======= entities ======= */

/* A mesh map has no legend, so no marks: say so rather than "no legend
** entry has mark". */
static void refuse_marks(LoadCtx *c, lua_State *L, int map)
{
    if (map_lua_raw_field(L, map, "entities") == LUA_TTABLE) {
        int list = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, list);
        for (lua_Integer i = 1; i <= n && i <= NAV_MAX_ENTITIES; i++) {
            if (lua_rawgeti(L, list, i) == LUA_TTABLE) {
                static const char *const KEYS[] = { "at", "dest", "target" };
                for (int k = 0; k < 3; k++) {
                    bool mark = map_lua_raw_field(L, -1, KEYS[k]) == LUA_TSTRING;
                    lua_pop(L, 1);
                    if (mark) {
                        char field[64];
                        snprintf(field, sizeof field, "entities[%lld].%s", (long long)i, KEYS[k]);
                        FAIL(c, L, field, "a mesh map has no marks: give a point {x, y, z}%s",
                             k == 0 ? ", or a box's min and max" : "");
                    }
                }
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* Protected: arg 1 the table, arg 2 the Sidecar. */
static int read_things(lua_State *L)
{
    Sidecar *sd = lua_touserdata(L, 2);
    refuse_marks(&sd->c, L, 1);
    map_lua_read_entities(&sd->c, L, 1);
    return 0;
}

/* }======= */

/* Runs fn(table, sd) under the sandbox; a failure not raised through the
** context (a Lua error, the memory cap) becomes the sidecar's error. */
static NavStatus call_step(Sandbox *sb, int table, lua_CFunction fn, Sidecar *sd, NavError *err)
{
    lua_State *L = sandbox_state(sb);
    lua_pushcfunction(L, fn);
    lua_pushvalue(L, table);
    lua_pushlightuserdata(L, sd);
    NavError perr;
    nav_error_clear(&perr);
    NavStatus st = sandbox_call(sb, 2, 0, &perr);
    if (NAV_FAILED(st) && !sd->c.failed) {
        *err = perr;
        map_lua_tidy_error(err, sd->m->sidecar);
    }
    return NAV_FAILED(st) ? (NAV_FAILURE | (err->status ? err->status : NAV_E_FORMAT)) : NAV_OK;
}

NavStatus map_mesh_sidecar_load(MeshLoad *m, const char *text, size_t len, NavError *err)
{
    const NavMapOptions *opt = m->opt;
    Sandbox *sb = map_lua_sandbox(opt, m->sidecar, err);
    if (!sb) return NAV_FAILURE | err->status;
    lua_State *L = sandbox_state(sb);
    char chunkname[320];
    snprintf(chunkname, sizeof chunkname, "@%s", m->sidecar);
    NavStatus st = sandbox_load(sb, text, len, chunkname, err);
    if (NAV_FAILED(st)) {
        /* "syntax error: FILE:LINE: msg" to the file and line. */
        if (strncmp(err->message, "syntax error: ", 14) == 0) {
            NavError tmp = *err;
            snprintf(tmp.message, sizeof tmp.message, "%s", err->message + 14);
            map_lua_tidy_error(&tmp, m->sidecar);
            snprintf(err->message, sizeof err->message, "syntax error: %.480s", tmp.message);
            err->line = tmp.line;
        }
        snprintf(err->file, sizeof err->file, "%s", m->sidecar);
        sandbox_destroy(sb);
        return st;
    }
    st = sandbox_call(sb, 0, 1, err);
    if (NAV_FAILED(st)) {
        map_lua_tidy_error(err, m->sidecar);
        sandbox_destroy(sb);
        return st;
    }
    int table = lua_gettop(L);
    Sidecar *sd = nav_calloc(1, sizeof *sd);
    if (!sd) {
        sandbox_destroy(sb);
        return nav_error_set(err, NAV_E_NOMEM, m->sidecar, 0, 0, NULL, "out of memory reading the sidecar");
    }
    sd->m = m;
    sd->c.file = m->sidecar;
    sd->c.src = text;
    sd->c.len = len;
    sd->c.err = err;
    st = call_step(sb, table, read_setup, sd, err);
    if (NAV_SUCCEEDED(st)) st = map_mesh_build_floors(m, err);
    if (NAV_SUCCEEDED(st)) st = call_step(sb, table, read_things, sd, err);
    nav_free(sd);
    sandbox_destroy(sb);
    return st;
}

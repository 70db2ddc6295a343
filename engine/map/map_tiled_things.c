/*
** map_tiled_things.c — Tiled maps: the map's properties (its fields and
** the mover classes) and the objects of object layers (the entities).
**
** An object's class (`type`) is the entity type; its rectangle is the
** entity's box (a point entity stands at a point object, or at the middle
** of a rectangle); its name is the entity's name and its properties the
** entity's fields. An object layer belongs to the storey of the tile layer
** it is drawn over: an entity stands on the floor at its point on that
** storey (or the first one below it), unless a `z` property places it.
** A teleporter's `dest` and a jump pad's `target` name a mark (a string)
** or another object (an object property): an object without a class may
** serve as one, and for nothing else.
*/
#include "map/map_tiled_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "map/map_lua_internal.h"

#define MAX_OBJECTS NAV_LIMIT_TILED_OBJECTS

/* {======= map properties ======= */

static const char *const MAP_PROPS[] = { "name", "description", "author", "cell_size", "gravity", NULL };

/* classes[name] on the stack top, made when missing. */
static void push_class(TiledCtx *t, lua_State *L, int classes, const char *name, const char *field)
{
    if (!name[0]) tiled_fail(t, L, field, "a class property needs a class name: class.NAME.FIELD");
    if (lua_getfield(L, classes, name) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, classes, name);
    }
}

void tiled_read_map_properties(TiledCtx *t, lua_State *L, int map, int native)
{
    t->cell_size = NAV_DEFAULT_CELL_SIZE;
    t->storey_height = 4.0f;
    tiled_push_properties(t, L, map, "properties");
    int props = lua_gettop(L);
    lua_newtable(L);
    int classes = lua_gettop(L);
    bool any_class = false;

    /* The smallest unknown name first, so the message does not depend on
    ** the order of the table. */
    char bad[80] = "";
    lua_pushnil(L);
    while (lua_next(L, props)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
        bool ok = strncmp(k, "class.", 6) == 0 || strcmp(k, "storey_height") == 0;
        for (int i = 0; MAP_PROPS[i]; i++) ok = ok || strcmp(k, MAP_PROPS[i]) == 0;
        if (!ok && (!bad[0] || strcmp(k, bad) < 0)) snprintf(bad, sizeof bad, "%s", k);
    }
    if (bad[0])
        tiled_fail(t, L, "map properties",
                   "unknown map property '%s' (expected name, description, author, cell_size, gravity, "
                   "storey_height or class.NAME.FIELD)",
                   bad);

    lua_pushnil(L);
    while (lua_next(L, props)) {
        const char *k = lua_tostring(L, -2);
        char field[128];
        snprintf(field, sizeof field, "map property '%.100s'", k);
        if (strcmp(k, "storey_height") == 0) {
            double v = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || !(v > 0 && v <= 10000))
                tiled_fail(t, L, field, "expected a height from 0 to 10000 metres between storeys");
            t->storey_height = (float)v;
        } else if (strncmp(k, "class.", 6) == 0) {
            any_class = true;
            const char *name = k + 6;
            const char *dot = strchr(name, '.');
            char cname[64];
            snprintf(cname, sizeof cname, "%.*s", (int)(dot ? (size_t)(dot - name) : strlen(name)), name);
            push_class(t, L, classes, cname, field);
            if (dot) {
                lua_pushvalue(L, -2);
                lua_setfield(L, -2, dot + 1);
            } else if (lua_type(L, -2) == LUA_TTABLE) {
                /* A class-typed property: its members. */
                int members = lua_gettop(L) - 1;
                lua_pushnil(L);
                while (lua_next(L, members)) {
                    lua_pushvalue(L, -2);
                    lua_insert(L, -2);
                    lua_rawset(L, -4);
                }
            } else {
                tiled_fail(t, L, field, "expected class.%s.FIELD (such as class.%s.radius) or a class value", cname,
                           cname);
            }
            lua_pop(L, 1);
        } else {
            if (strcmp(k, "cell_size") == 0 && lua_type(L, -1) == LUA_TNUMBER)
                t->cell_size = (float)lua_tonumber(L, -1);
            lua_pushvalue(L, -2);
            lua_pushvalue(L, -2);
            lua_rawset(L, native);
        }
        lua_pop(L, 1);
    }
    if (any_class) lua_setfield(L, native, "classes");
    else lua_pop(L, 1);
    lua_pop(L, 1);
    if (!(t->cell_size > 0)) t->cell_size = NAV_DEFAULT_CELL_SIZE; /* the native reader says what is wrong */
}

/* }======= */

/* {======= objects ======= */

typedef struct TypeProps {
    const char *type;
    const char *props[6];
} TypeProps;

static const TypeProps TYPE_PROPS[] = {
    { "spawn", { "team" } },
    { "goal", { "item" } },
    { "elevator", { "stops", "speed", "wait", "thickness" } },
    { "teleporter", { "dest", "dest_yaw", "height" } },
    { "jump_pad", { "target", "apex", "height" } },
    { "door", { "open", "speed", "height" } },
    { "crate", { "mass", "height" } },
};

static const TypeProps *type_props(const char *type)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(TYPE_PROPS); i++)
        if (strcmp(TYPE_PROPS[i].type, type) == 0) return &TYPE_PROPS[i];
    return NULL;
}

/* The metres of a pixel position. */
static float metres_x(const TiledCtx *t, double px) { return (float)(px / t->tile_w * t->cell_size); }
static float metres_y(const TiledCtx *t, double py)
{
    return (float)(((double)t->height * t->tile_h - py) / t->tile_h * t->cell_size);
}

/* The object's box in pixels (x0, y0 top-left; x1, y1 bottom-right). */
typedef struct PixBox {
    double x0, y0, x1, y1;
    bool point;
} PixBox;

static PixBox object_box(TiledCtx *t, lua_State *L, int obj, double ox, double oy, const char *field)
{
    if (tiled_get(L, obj, "template") != LUA_TNIL)
        tiled_fail(t, L, field,
                   "the object is a template instance: export with Detach templates "
                   "(Edit > Preferences > Export Options) or detach it");
    lua_pop(L, 1);
    char shape[24];
    tiled_string(t, L, obj, "shape", field, shape, sizeof shape);
    static const char *const FLAGS[] = { "point", "ellipse", "polygon", "polyline", "text", "capsule" };
    for (size_t i = 0; !shape[0] && i < NAV_ARRAY_COUNT(FLAGS); i++) {
        int ty = tiled_get(L, obj, FLAGS[i]);
        if ((ty == LUA_TBOOLEAN && lua_toboolean(L, -1)) || ty == LUA_TTABLE)
            snprintf(shape, sizeof shape, "%s", FLAGS[i]);
        lua_pop(L, 1);
    }
    if (!shape[0]) snprintf(shape, sizeof shape, "rectangle");
    if (strcmp(shape, "rectangle") != 0 && strcmp(shape, "point") != 0)
        tiled_fail(t, L, field, "the object is a %s; navbot reads rectangles, points and tile objects", shape);
    double rot = tiled_number(t, L, obj, "rotation", field, false, 0);
    if (rot != 0)
        tiled_fail(t, L, field,
                   "the object is rotated (%g degrees); navbot's boxes are not: set rotation 0 "
                   "(and give a yaw property to face a way)",
                   rot);
    PixBox b;
    b.x0 = ox + tiled_number(t, L, obj, "x", field, true, 0);
    b.y0 = oy + tiled_number(t, L, obj, "y", field, true, 0);
    double w = tiled_number(t, L, obj, "width", field, false, 0),
           h = tiled_number(t, L, obj, "height", field, false, 0);
    b.point = strcmp(shape, "point") == 0;
    if (b.point) w = h = 0;
    if (w < 0 || h < 0) tiled_fail(t, L, field, "the object's size %g x %g is negative", w, h);
    /* A tile object stands on its (x, y): the bottom-left corner. */
    if (tiled_get(L, obj, "gid") != LUA_TNIL) b.y0 -= h;
    lua_pop(L, 1);
    b.x1 = b.x0 + w;
    b.y1 = b.y0 + h;
    double lim = 1e9;
    if (fabs(b.x0) > lim || fabs(b.y0) > lim || b.x1 > lim || b.y1 > lim)
        tiled_fail(t, L, field, "the object lies far outside the map");
    return b;
}

static int find_object(const TiledCtx *t, int id)
{
    for (int i = 0; i < t->object_count; i++)
        if (t->objects[i].id == id) return i;
    return -1;
}

/* Calls fn for each object of each object layer, in drawing order, with
** the object at the stack top. */
typedef void (*ObjectFn)(TiledCtx *t, lua_State *L, int obj, int storey, const char *layer, double ox, double oy,
                         int native);

static void each_object(TiledCtx *t, lua_State *L, int flat, int native, ObjectFn fn)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, flat);
    int tile_layers = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, flat, i);
        int layer = lua_gettop(L);
        char type[24], name[64];
        tiled_string(t, L, layer, "type", NULL, type, sizeof type);
        tiled_string(t, L, layer, "name", NULL, name, sizeof name);
        if (strcmp(type, "tilelayer") == 0) tile_layers++;
        if (strcmp(type, "objectgroup") != 0) {
            lua_pop(L, 1);
            continue;
        }
        char field[96];
        snprintf(field, sizeof field, "layer '%.40s'", name);
        tiled_push_properties(t, L, layer, field);
        char bad[64];
        static const char *const NONE[] = { NULL };
        if (map_lua_unknown_key(L, -1, NONE, bad, sizeof bad))
            tiled_fail(t, L, field, "unknown property '%s' (object layers take none; give properties to objects)", bad);
        lua_pop(L, 1);
        double ox = tiled_number(t, L, layer, "navbot_ox", field, false, 0);
        double oy = tiled_number(t, L, layer, "navbot_oy", field, false, 0);
        int ty = tiled_get(L, layer, "objects");
        if (ty != LUA_TTABLE && ty != LUA_TNIL) tiled_fail(t, L, field, "'objects': expected a list");
        int objects = lua_gettop(L);
        lua_Integer m = ty == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, objects) : 0;
        for (lua_Integer j = 1; j <= m; j++) {
            if (lua_rawgeti(L, objects, j) != LUA_TTABLE)
                tiled_fail(t, L, field, "objects[%lld]: expected a table", (long long)j);
            fn(t, L, lua_gettop(L), tile_layers > 0 ? tile_layers - 1 : 0, name, ox, oy, native);
            lua_settop(L, objects);
        }
        lua_settop(L, layer - 1);
    }
}

static void object_field(lua_State *L, int obj, const char *layer, char *out, size_t cap)
{
    lua_Integer id = tiled_get(L, obj, "id") == LUA_TNUMBER ? (lua_Integer)lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    snprintf(out, cap, "layer '%.40s', object %lld", layer, (long long)id);
}

/* Pass 1: every object's id, point and whether it has a type. */
static void collect(TiledCtx *t, lua_State *L, int obj, int storey, const char *layer, double ox, double oy, int native)
{
    (void)native;
    char field[128];
    object_field(L, obj, layer, field, sizeof field);
    double id = tiled_number(t, L, obj, "id", field, true, 0);
    if (id != floor(id) || id < 0 || id > 2147483647.0) tiled_fail(t, L, field, "bad object id %g", id);
    if (find_object(t, (int)id) >= 0) tiled_fail(t, L, field, "a second object with id %g", id);
    if (t->object_count >= t->object_cap) {
        if (t->object_cap >= MAX_OBJECTS) tiled_fail(t, L, field, "more than %d objects", MAX_OBJECTS);
        int cap = t->object_cap ? 2 * t->object_cap : 64;
        TiledObject *o = nav_realloc_array(t->objects, (size_t)cap, sizeof *o);
        if (!o) tiled_fail_nomem(t, L, field, "the objects");
        t->objects = o;
        t->object_cap = cap;
    }
    TiledObject *o = &t->objects[t->object_count++];
    memset(o, 0, sizeof *o);
    o->id = (int)id;
    o->storey = storey;
    snprintf(o->layer, sizeof o->layer, "%.*s", (int)sizeof o->layer - 1, layer); /* names are cut to fit */
    char type[32];
    tiled_class(t, L, obj, field, type, sizeof type);
    o->typed = type[0] != '\0';
    PixBox b = object_box(t, L, obj, ox, oy, field);
    double cx = 0.5 * (b.x0 + b.x1), cy = 0.5 * (b.y0 + b.y1);
    o->x = metres_x(t, cx);
    o->y = metres_y(t, cy);
    o->z = NAN;
    tiled_push_properties(t, L, obj, field);
    if (tiled_get(L, -1, "z") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER) tiled_fail(t, L, field, "property 'z': expected a number (metres)");
        o->z = (float)lua_tonumber(L, -1);
    } else {
        /* On a box's edge the cell inside it counts. */
        int col = (int)floor((b.point ? cx : cx - 1e-6) / t->tile_w);
        int row = (int)floor((b.point ? cy : cy - 1e-6) / t->tile_h);
        float z;
        if (tiled_floor_z(t, storey, col, row, &z)) o->z = z;
    }
}

/* Pushes {x, y, z} (or {x, y} when the floor decides). */
static void push_point(lua_State *L, float x, float y, float z)
{
    lua_createtable(L, 3, 0);
    lua_pushnumber(L, x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, y);
    lua_rawseti(L, -2, 2);
    if (!isnan(z)) {
        lua_pushnumber(L, z);
        lua_rawseti(L, -2, 3);
    }
}

/* "0, 4, 8" into a list of numbers. */
static void push_stops(TiledCtx *t, lua_State *L, const char *s, const char *field)
{
    lua_newtable(L);
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == ',' || *s == '\t' || *s == ';') s++;
        if (!*s) break;
        char *end;
        double v = strtod(s, &end);
        if (end == s || !isfinite(v))
            tiled_fail(t, L, field, "property 'stops': '%s' is not a list of heights such as \"0, 4, 8\"", s);
        if (n >= NAV_ELEVATOR_MAX_STOPS + 1) break; /* the native reader says how many are allowed */
        lua_pushnumber(L, v);
        lua_rawseti(L, -2, ++n);
        s = end;
    }
}

/* Pass 2: each typed object into an entity. */
static void emit(TiledCtx *t, lua_State *L, int obj, int storey, const char *layer, double ox, double oy, int native)
{
    char field[128];
    object_field(L, obj, layer, field, sizeof field);
    int index = find_object(t, (int)tiled_number(t, L, obj, "id", field, true, 0));
    TiledObject *o = &t->objects[index];
    if (!o->typed) return;
    char type[32], name[64];
    tiled_class(t, L, obj, field, type, sizeof type);
    const TypeProps *tp = type_props(type);
    if (!tp)
        tiled_fail(t, L, field,
                   "unknown object type '%s' (expected spawn, goal, elevator, teleporter, jump_pad, door or crate)",
                   type);
    tiled_push_properties(t, L, obj, field);
    int props = lua_gettop(L);
    const char *allowed[10];
    int na = 0;
    allowed[na++] = "yaw";
    allowed[na++] = "z";
    for (int i = 0; i < 6 && tp->props[i]; i++) allowed[na++] = tp->props[i];
    allowed[na] = NULL;
    char bad[64];
    if (map_lua_unknown_key(L, props, allowed, bad, sizeof bad)) {
        char list[160] = "";
        size_t n = 0;
        for (int i = 0; allowed[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", allowed[i]);
        tiled_fail(t, L, field, "unknown property '%s' for a %s (expected one of: %s)", bad, type, list);
    }

    if (t->entity_count >= NAV_MAX_ENTITIES)
        tiled_fail(t, L, field, "more than the limit of %d entities", NAV_MAX_ENTITIES);
    lua_newtable(L);
    int e = lua_gettop(L);
    lua_pushstring(L, type);
    lua_setfield(L, e, "type");
    tiled_string(t, L, obj, "name", field, name, sizeof name);
    if (name[0]) {
        lua_pushstring(L, name);
        lua_setfield(L, e, "name");
    }
    PixBox b = object_box(t, L, obj, ox, oy, field);
    bool box = strcmp(type, "spawn") != 0 && strcmp(type, "goal") != 0;
    if (!box) {
        push_point(L, o->x, o->y, o->z);
        lua_setfield(L, e, "pos");
    } else {
        if (b.point || b.x1 <= b.x0 || b.y1 <= b.y0)
            tiled_fail(t, L, field, "a %s is a box: draw it as a rectangle, not a point", type);
        bool lift = strcmp(type, "elevator") == 0; /* its heights come from its stops */
        push_point(L, metres_x(t, b.x0), metres_y(t, b.y1), lift ? 0.0f : o->z);
        lua_setfield(L, e, "min");
        push_point(L, metres_x(t, b.x1), metres_y(t, b.y0), NAN);
        lua_setfield(L, e, "max");
    }

    /* The fields, as they are but for stops and references. */
    lua_pushnil(L);
    while (lua_next(L, props)) {
        const char *k = lua_tostring(L, -2);
        if (strcmp(k, "z") == 0) {
            lua_pop(L, 1);
            continue;
        }
        if (strcmp(k, "stops") == 0 && lua_type(L, -1) == LUA_TSTRING) {
            push_stops(t, L, lua_tostring(L, -1), field);
            lua_replace(L, -2);
        } else if ((strcmp(k, "dest") == 0 || strcmp(k, "target") == 0) && lua_type(L, -1) == LUA_TTABLE) {
            if (tiled_get(L, -1, "id") != LUA_TNUMBER)
                tiled_fail(t, L, field, "property '%s': expected an object or the name of a mark", k);
            double id = lua_tonumber(L, -1);
            lua_pop(L, 1);
            int ref = id == floor(id) && fabs(id) < 2147483647.0 ? find_object(t, (int)id) : -1;
            if (ref < 0) tiled_fail(t, L, field, "property '%s' names object %g, which the map does not have", k, id);
            t->objects[ref].referenced = true;
            push_point(L, t->objects[ref].x, t->objects[ref].y, t->objects[ref].z);
            lua_replace(L, -2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, e);
    }
    if (tiled_get(L, native, "entities") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, native, "entities");
    }
    lua_pushvalue(L, e);
    lua_rawseti(L, -2, t->entity_count + 1);
    t->entity_object[t->entity_count++] = index;
    (void)storey;
}

void tiled_read_objects(TiledCtx *t, lua_State *L, int flat, int native)
{
    each_object(t, L, flat, native, collect);
    t->entity_object = nav_calloc((size_t)(t->object_count ? t->object_count : 1), sizeof *t->entity_object);
    if (!t->entity_object) tiled_fail_nomem(t, L, NULL, "the objects");
    each_object(t, L, flat, native, emit);
    for (int i = 0; i < t->object_count; i++) {
        const TiledObject *o = &t->objects[i];
        if (!o->typed && !o->referenced) {
            char field[96];
            snprintf(field, sizeof field, "layer '%s', object %d", o->layer, o->id);
            tiled_fail(t, L, field,
                       "the object has no type: give it a class (spawn, goal, elevator, teleporter, jump_pad, door "
                       "or crate), or make it the dest of a teleporter or the target of a jump pad");
        }
    }
}

/* }======= */

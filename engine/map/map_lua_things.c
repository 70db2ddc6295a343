/*
** map_lua_things.c — native Lua maps: the mover classes and the entities.
*/
#include "map/map_lua_internal.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua/sandbox.h"

/* {======= classes ======= */

static void read_class_top(LoadCtx *c, lua_State *L, const char *name, const char *path, NavClass *out)
{
    int nf;
    const NavClassField *fields = class_fields(&nf);
    const char *allowed[NAV_ARRAY_COUNT(((NavClass *)0)->name) + 32];
    int na = 0;
    allowed[na++] = "name";
    for (int i = 0; i < nf; i++) allowed[na++] = fields[i].name;
    allowed[na] = NULL;

    if (lua_type(L, -1) != LUA_TTABLE)
        FAIL(c, L, path, "expected a table of class fields, got %s", luaL_typename(L, -1));
    map_lua_check_fields(c, L, -1, allowed, path);
    NavClass k = class_defaults();
    if (name) snprintf(k.name, sizeof k.name, "%s", name);
    else map_lua_read_string(c, L, -1, "name", path, true, NULL, k.name, sizeof k.name);
    for (int i = 0; i < nf; i++) {
        float *v = (float *)((char *)&k + fields[i].offset);
        *v = map_lua_read_number(c, L, -1, fields[i].name, path, false, *v, fields[i].min, fields[i].max);
    }
    NavError cerr;
    if (NAV_FAILED(class_validate(&k, c->file, path, &cerr))) map_lua_fail_with(c, L, &cerr);
    *out = k;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const NavClass *)a)->name, ((const NavClass *)b)->name);
}

void map_lua_read_classes(LoadCtx *c, lua_State *L, int map)
{
    NavClass list[NAV_MAX_CLASSES];
    int n = 0;
    int t = map_lua_raw_field(L, map, "classes");
    if (t != LUA_TNIL && t != LUA_TTABLE)
        FAIL(c, L, "classes", "expected a list of classes, got %s", luaL_typename(L, -1));
    if (t == LUA_TTABLE) {
        int classes = lua_gettop(L);
        lua_Integer len = (lua_Integer)lua_rawlen(L, classes);
        if (len > 0) {
            int m = map_lua_check_list(c, L, classes, "classes");
            if (m > NAV_MAX_CLASSES) FAIL(c, L, "classes", "more than %d classes", NAV_MAX_CLASSES);
            for (int i = 0; i < m; i++) {
                char path[32];
                snprintf(path, sizeof path, "classes[%d]", i + 1);
                lua_rawgeti(L, classes, i + 1);
                read_class_top(c, L, NULL, path, &list[n++]);
                lua_pop(L, 1);
            }
        } else {
            /* Keyed by name: read in name order so loads repeat exactly. */
            lua_pushnil(L);
            while (lua_next(L, classes)) {
                if (lua_type(L, -2) != LUA_TSTRING)
                    FAIL(c, L, "classes", "keys must be class names, found a %s", luaL_typename(L, -2));
                if (n >= NAV_MAX_CLASSES) FAIL(c, L, "classes", "more than %d classes", NAV_MAX_CLASSES);
                char path[64];
                const char *name = lua_tostring(L, -2);
                snprintf(path, sizeof path, "classes.%.40s", name);
                if (strlen(name) >= NAV_CLASS_NAME_MAX)
                    FAIL(c, L, path, "class name longer than %d characters", NAV_CLASS_NAME_MAX - 1);
                if (map_lua_has_field(L, -1, "name"))
                    FAIL(c, L, path, "a class keyed by name must not also set 'name'");
                read_class_top(c, L, name, path, &list[n++]);
                lua_pop(L, 1);
            }
            qsort(list, (size_t)n, sizeof list[0], compare_names);
        }
    }
    lua_pop(L, 1);

    bool has_human = false;
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i].name, "human") == 0) has_human = true;
        for (int j = 0; j < i; j++)
            if (strcmp(list[i].name, list[j].name) == 0) {
                char path[32];
                snprintf(path, sizeof path, "classes[%d]", i + 1);
                FAIL(c, L, path, "a class named '%s' is already defined", list[i].name);
            }
    }
    NavError cerr;
    if (!has_human) {
        NavClass human = class_defaults();
        if (NAV_FAILED(world_add_class(c->world, &human, NULL, &cerr))) map_lua_fail_with(c, L, &cerr);
    }
    for (int i = 0; i < n; i++)
        if (NAV_FAILED(world_add_class(c->world, &list[i], NULL, &cerr))) map_lua_fail_with(c, L, &cerr);
}

/* }======= */

/* {======= entities ======= */

static const char *const ENTITY_FIELDS[] = {
    "type",   "name",     "yaw",  "pos",       "min", "max", "at", "height", /* common */
    "team",                                                                  /* spawn */
    "stops",  "speed",    "wait", "thickness",                               /* elevator (speed: door too) */
    "dest",   "dest_yaw",                                                    /* teleporter */
    "target", "apex",                                                        /* jump pad */
    "open",                                                                  /* door */
    "mass",                                                                  /* crate */
    "item",                                                                  /* goal */
    NULL,
};

/* Which type-specific fields belong to which type. */
static bool field_applies(NavEntityType t, const char *f)
{
    static const struct {
        const char *field;
        int type;
        int type2;
    } own[] = {
        { "team", NAV_ENTITY_SPAWN, -1 },
        { "stops", NAV_ENTITY_ELEVATOR, -1 },
        { "speed", NAV_ENTITY_ELEVATOR, NAV_ENTITY_DOOR },
        { "wait", NAV_ENTITY_ELEVATOR, -1 },
        { "thickness", NAV_ENTITY_ELEVATOR, -1 },
        { "dest", NAV_ENTITY_TELEPORTER, -1 },
        { "dest_yaw", NAV_ENTITY_TELEPORTER, -1 },
        { "target", NAV_ENTITY_JUMP_PAD, -1 },
        { "apex", NAV_ENTITY_JUMP_PAD, -1 },
        { "open", NAV_ENTITY_DOOR, -1 },
        { "mass", NAV_ENTITY_CRATE, -1 },
        { "item", NAV_ENTITY_GOAL, -1 },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(own); i++)
        if (strcmp(own[i].field, f) == 0) return (int)t == own[i].type || (int)t == own[i].type2;
    return true;
}

/* Lowest non-void floor of the column under (x, y), for points given
** without a height. */
static bool ground_z(const LoadCtx *c, float x, float y, float *z)
{
    int cx, cy, n;
    if (!world_point_cell(c->world, x, y, &cx, &cy)) return false;
    const NavFloor *f = world_column(c->world, cx, cy, &n);
    for (int i = 0; i < n; i++) {
        if (f[i].contents == NAV_CONTENTS_VOID) continue;
        *z = f[i].contents == NAV_CONTENTS_WATER || f[i].contents == NAV_CONTENTS_LAVA ||
                     f[i].contents == NAV_CONTENTS_SLIME
                 ? f[i].top
                 : f[i].z;
        return true;
    }
    return false;
}

static const Mark *mark_named(LoadCtx *c, lua_State *L, const char *name, const char *field)
{
    int m = map_lua_find_mark(c, name);
    if (m < 0) FAIL(c, L, field, "no legend entry has mark = \"%s\"", name);
    if (c->marks[m].layer < 0) FAIL(c, L, field, "mark \"%s\" is in the legend but on no cell of any layer", name);
    return &c->marks[m];
}

/* A position field: {x, y[, z]} or the name of a mark (its centre). */
static void read_point(LoadCtx *c, lua_State *L, int ent, const char *key, const char *path, bool required, vec3 out)
{
    char field[96];
    map_lua_join_path(field, sizeof field, path, key);
    lua_pushstring(L, key);
    int t = lua_rawget(L, ent);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) FAIL(c, L, field, "missing; expected {x, y, z} or the name of a mark");
        return;
    }
    if (t == LUA_TSTRING) {
        const Mark *m = mark_named(c, L, lua_tostring(L, -1), field);
        float cs = world_cell_size(c->world);
        out[0] = 0.5f * (float)(m->x0 + m->x1 + 1) * cs;
        out[1] = 0.5f * (float)(m->y0 + m->y1 + 1) * cs;
        out[2] = m->zmin;
    } else {
        bool z_given;
        map_lua_read_vec_top(c, L, field, out, &z_given);
        if (!z_given && !ground_z(c, out[0], out[1], &out[2]))
            FAIL(c, L, field, "(%g, %g) has no floor to stand on; give a z or move it", (double)out[0], (double)out[1]);
    }
    lua_pop(L, 1);
}

static float default_height(NavEntityType t)
{
    switch (t) {
    case NAV_ENTITY_TELEPORTER: return 2.0f;
    case NAV_ENTITY_JUMP_PAD: return 0.5f;
    case NAV_ENTITY_DOOR: return 3.0f;
    case NAV_ENTITY_CRATE: return 1.0f;
    default: return 0.0f;
    }
}

/* The box of a volume entity: at = "mark", or min/max corners. */
static void read_box(LoadCtx *c, lua_State *L, int ent, const char *path, NavEntity *e)
{
    char field[96];
    float height = map_lua_read_number(c, L, ent, "height", path, false, default_height(e->type), 0.01f, 10000.0f);
    if (map_lua_has_field(L, ent, "at")) {
        if (map_lua_has_field(L, ent, "min") || map_lua_has_field(L, ent, "max"))
            FAIL(c, L, path, "give either at = \"mark\" or min and max, not both");
        char mark[NAV_ENTITY_NAME_MAX];
        map_lua_read_string(c, L, ent, "at", path, true, NULL, mark, sizeof mark);
        map_lua_join_path(field, sizeof field, path, "at");
        const Mark *m = mark_named(c, L, mark, field);
        float cs = world_cell_size(c->world);
        e->mins[0] = (float)m->x0 * cs;
        e->mins[1] = (float)m->y0 * cs;
        e->mins[2] = m->zmin;
        e->maxs[0] = (float)(m->x1 + 1) * cs;
        e->maxs[1] = (float)(m->y1 + 1) * cs;
        e->maxs[2] = m->zmin + height;
        return;
    }
    if (!map_lua_has_field(L, ent, "min") || !map_lua_has_field(L, ent, "max"))
        FAIL(c, L, path, "a %s needs at = \"mark\" or both min = {x, y, z} and max = {x, y, z}",
             entity_type_name(e->type));
    bool zmin_given, zmax_given;
    map_lua_join_path(field, sizeof field, path, "min");
    map_lua_raw_field(L, ent, "min");
    map_lua_read_vec_top(c, L, field, e->mins, &zmin_given);
    lua_pop(L, 1);
    map_lua_join_path(field, sizeof field, path, "max");
    map_lua_raw_field(L, ent, "max");
    map_lua_read_vec_top(c, L, field, e->maxs, &zmax_given);
    lua_pop(L, 1);
    if (!zmin_given) {
        float cx = 0.5f * (e->mins[0] + e->maxs[0]), cy = 0.5f * (e->mins[1] + e->maxs[1]);
        if (!ground_z(c, cx, cy, &e->mins[2]))
            FAIL(c, L, path, "the box's centre has no floor under it; give min = {x, y, z}");
    }
    if (!zmax_given) e->maxs[2] = e->mins[2] + height;
}

static void read_entity(LoadCtx *c, lua_State *L, int index, NavEntity *e)
{
    char path[32], field[96];
    snprintf(path, sizeof path, "entities[%d]", index + 1);
    if (lua_type(L, -1) != LUA_TTABLE)
        FAIL(c, L, path, "expected a table { type = ..., ... }, got %s", luaL_typename(L, -1));
    int ent = lua_gettop(L);
    map_lua_check_fields(c, L, ent, ENTITY_FIELDS, path);
    memset(e, 0, sizeof *e);

    char type[24];
    map_lua_read_string(c, L, ent, "type", path, true, NULL, type, sizeof type);
    int t = entity_type_from_name(type);
    if (t < 0) {
        map_lua_join_path(field, sizeof field, path, "type");
        FAIL(c, L, field,
             "unknown entity type '%s' (expected spawn, elevator, teleporter, jump_pad, door, crate or goal)", type);
    }
    e->type = (NavEntityType)t;
    for (const char *const *f = ENTITY_FIELDS; *f; f++) {
        if (map_lua_has_field(L, ent, *f) && !field_applies(e->type, *f)) {
            map_lua_join_path(field, sizeof field, path, *f);
            FAIL(c, L, field, "does not apply to a %s", type);
        }
    }
    map_lua_read_string(c, L, ent, "name", path, false, "", e->name, sizeof e->name);
    e->yaw = map_lua_read_number(c, L, ent, "yaw", path, false, 0.0f, -3600.0f, 3600.0f);

    bool volume = entity_is_volume(e->type);
    if (!volume) {
        if (map_lua_has_field(L, ent, "min") || map_lua_has_field(L, ent, "max") || map_lua_has_field(L, ent, "height"))
            FAIL(c, L, path, "a %s is a point: give pos = {x, y, z} or at = \"mark\"", type);
        if (map_lua_has_field(L, ent, "pos") == map_lua_has_field(L, ent, "at"))
            FAIL(c, L, path, "a %s needs exactly one of pos = {x, y, z} or at = \"mark\"", type);
        read_point(c, L, ent, map_lua_has_field(L, ent, "pos") ? "pos" : "at", path, true, e->mins);
        glm_vec3_copy(e->mins, e->maxs);
    } else if (e->type != NAV_ENTITY_ELEVATOR) {
        if (map_lua_has_field(L, ent, "pos"))
            FAIL(c, L, path, "a %s is a box: give min and max, or at = \"mark\"", type);
        read_box(c, L, ent, path, e);
    }

    switch (e->type) {
    case NAV_ENTITY_SPAWN:
        e->u.spawn.team = (int)map_lua_read_number(c, L, ent, "team", path, false, 0.0f, 0.0f, 255.0f);
        break;
    case NAV_ENTITY_GOAL:
        map_lua_read_string(c, L, ent, "item", path, false, "", e->u.goal.item, sizeof e->u.goal.item);
        break;
    case NAV_ENTITY_ELEVATOR: {
        NavElevator *el = &e->u.elevator;
        map_lua_join_path(field, sizeof field, path, "stops");
        lua_pushliteral(L, "stops");
        if (lua_rawget(L, ent) != LUA_TTABLE)
            FAIL(c, L, field, "expected a list of platform heights, lowest first, e.g. {0, 4, 8}");
        int n = map_lua_check_list(c, L, -1, field);
        if (n < 2 || n > NAV_ELEVATOR_MAX_STOPS)
            FAIL(c, L, field, "an elevator needs 2 to %d stops, got %d", NAV_ELEVATOR_MAX_STOPS, n);
        for (int i = 0; i < n; i++) {
            if (lua_rawgeti(L, -1, i + 1) != LUA_TNUMBER)
                FAIL(c, L, field, "stop %d: expected a number, got %s", i + 1, luaL_typename(L, -1));
            el->stops[i] = (float)lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        el->stop_count = n;
        el->speed = map_lua_read_number(c, L, ent, "speed", path, false, 2.0f, -1e9f, 1e9f);
        el->wait = map_lua_read_number(c, L, ent, "wait", path, false, 2.0f, -1e9f, 1e9f);
        el->thickness = map_lua_read_number(c, L, ent, "thickness", path, false, 0.2f, -1e9f, 1e9f);
        if (map_lua_has_field(L, ent, "height")) FAIL(c, L, path, "an elevator's height comes from its stops");
        if (map_lua_has_field(L, ent, "pos"))
            FAIL(c, L, path, "an elevator is a platform: give at = \"mark\" or min and max");
        read_box(c, L, ent, path, e);
        e->mins[2] = el->stops[0] - el->thickness;
        e->maxs[2] = el->stops[n - 1];
        break;
    }
    case NAV_ENTITY_TELEPORTER:
        read_point(c, L, ent, "dest", path, true, e->u.teleporter.dest);
        e->u.teleporter.dest_yaw = map_lua_read_number(c, L, ent, "dest_yaw", path, false, 0.0f, -3600.0f, 3600.0f);
        break;
    case NAV_ENTITY_JUMP_PAD:
        read_point(c, L, ent, "target", path, true, e->u.jump_pad.target);
        e->u.jump_pad.apex = map_lua_read_number(c, L, ent, "apex", path, false, 2.0f, -1e9f, 1e9f);
        break;
    case NAV_ENTITY_DOOR:
        e->u.door.open = map_lua_read_bool(c, L, ent, "open", path, false);
        e->u.door.speed = map_lua_read_number(c, L, ent, "speed", path, false, 2.0f, -1e9f, 1e9f);
        break;
    case NAV_ENTITY_CRATE:
        e->u.crate.mass = map_lua_read_number(c, L, ent, "mass", path, false, 50.0f, -1e9f, 1e9f);
        break;
    default: break;
    }
}

void map_lua_read_entities(LoadCtx *c, lua_State *L, int map)
{
    lua_pushliteral(L, "entities");
    int t = lua_rawget(L, map);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE) FAIL(c, L, "entities", "expected a list of entities, got %s", luaL_typename(L, -1));
    int list = lua_gettop(L);
    int n = map_lua_check_list(c, L, list, "entities");
    /* Before reading any: a million entities fail at once, not after a
    ** million checks against the ones before. */
    if (n > NAV_MAX_ENTITIES) FAIL(c, L, "entities", "%d entities is over the limit of %d", n, NAV_MAX_ENTITIES);
    for (int i = 0; i < n; i++) {
        NavEntity e;
        lua_rawgeti(L, list, i + 1);
        read_entity(c, L, i, &e);
        lua_pop(L, 1);
        NavError eerr;
        if (NAV_FAILED(world_add_entity(c->world, &e, NULL, &eerr))) map_lua_fail_with(c, L, &eerr);
    }
    lua_pop(L, 1);
}

/* }======= */

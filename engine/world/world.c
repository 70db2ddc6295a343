/*
** world.c — cell columns of stacked floors, entities and classes.
**
** Floors are stored as one flat array grouped by column (compressed-row
** layout): column_start[c] .. column_start[c+1] index the floors of cell c,
** lowest first. Lookups are two array reads; nothing is a pointer graph.
*/
#include "world/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

struct NavWorld {
    char name[64];
    char source[256];
    char *description;
    char *author;
    int width, height;
    float cell_size;
    float gravity;
    uint64_t source_hash;

    uint32_t *column_start; /* width*height + 1 entries */
    NavFloor *floors;
    uint32_t floor_count;

    NavLayer layers[NAV_MAX_LAYERS];
    int layer_count;

    NavClass classes[NAV_MAX_CLASSES];
    int class_count;

    NavEntity *entities;
    int entity_count, entity_cap;
};

static void copy_name(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src ? src : ""); }

NavWorld *world_create(const NavWorldDesc *desc, NavError *err)
{
    const char *src = desc->source;
    if (desc->width <= 0 || desc->height <= 0 || desc->width > NAV_MAX_WORLD_SIDE ||
        desc->height > NAV_MAX_WORLD_SIDE) {
        nav_error_set(err, NAV_E_FORMAT, src, 0, 0, "size", "map size %d x %d is out of range (1 to %d cells a side)",
                      desc->width, desc->height, NAV_MAX_WORLD_SIDE);
        return NULL;
    }
    if ((uint64_t)desc->width * (uint64_t)desc->height > NAV_MAX_CELLS) {
        nav_error_set(err, NAV_E_FORMAT, src, 0, 0, "size", "map of %d x %d cells is over the limit of %u cells",
                      desc->width, desc->height, NAV_MAX_CELLS);
        return NULL;
    }
    float cs = desc->cell_size == 0.0f ? NAV_DEFAULT_CELL_SIZE : desc->cell_size;
    if (!isfinite(cs) || cs < 0.01f || cs > 100.0f) {
        nav_error_set(err, NAV_E_FORMAT, src, 0, 0, "cell_size", "cell size must be from 0.01 to 100 metres, got %g",
                      (double)cs);
        return NULL;
    }
    float g = desc->gravity == 0.0f ? NAV_DEFAULT_GRAVITY : desc->gravity;
    if (!isfinite(g) || g <= 0.0f || g > 1000.0f) {
        nav_error_set(err, NAV_E_FORMAT, src, 0, 0, "gravity", "gravity must be above 0 and at most 1000 m/s^2, got %g",
                      (double)g);
        return NULL;
    }

    NavWorld *w = nav_calloc(1, sizeof *w);
    size_t cells = (size_t)desc->width * (size_t)desc->height;
    uint32_t *starts = w ? nav_calloc(cells + 1, sizeof *starts) : NULL;
    if (!w || !starts) {
        nav_free(w);
        nav_free(starts);
        nav_error_set(err, NAV_E_NOMEM, src, 0, 0, NULL, "out of memory creating a %d x %d world", desc->width,
                      desc->height);
        return NULL;
    }
    w->column_start = starts;
    w->width = desc->width;
    w->height = desc->height;
    w->cell_size = cs;
    w->gravity = g;
    copy_name(w->name, sizeof w->name, desc->name && desc->name[0] ? desc->name : "untitled");
    copy_name(w->source, sizeof w->source, src);
    return w;
}

void world_destroy(NavWorld *w)
{
    if (!w) return;
    nav_free(w->column_start);
    nav_free(w->floors);
    nav_free(w->entities);
    nav_free(w->description);
    nav_free(w->author);
    nav_free(w);
}

/* {======= floors ======= */

static int compare_floor_at(const void *pa, const void *pb)
{
    const NavFloorAt *a = pa, *b = pb;
    if (a->cell != b->cell) return a->cell < b->cell ? -1 : 1;
    /* -INFINITY sorts first, as a void is the bottom of its column. */
    if (a->floor.z != b->floor.z) return a->floor.z < b->floor.z ? -1 : 1;
    return 0;
}

NavStatus world_set_floors(NavWorld *w, const NavFloorAt *items, size_t count, NavError *err)
{
    size_t cells = (size_t)w->width * (size_t)w->height;
    if (count > UINT32_MAX / 2)
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, NULL, "too many floors (%zu)", count);
    for (size_t i = 0; i < count; i++) {
        const NavFloor *f = &items[i].floor;
        int cx = (int)(items[i].cell % (uint32_t)w->width), cy = (int)(items[i].cell / (uint32_t)w->width);
        if (items[i].cell >= cells)
            return nav_error_set(err, NAV_E_PARAM, w->source, 0, 0, NULL, "floor %zu names cell %u outside the map", i,
                                 items[i].cell);
        if (f->contents >= NAV_CONTENTS_COUNT)
            return nav_error_set(err, NAV_E_PARAM, w->source, 0, 0, NULL, "cell (%d, %d): bad contents %d", cx, cy,
                                 f->contents);
        bool is_void = f->contents == NAV_CONTENTS_VOID;
        if ((is_void ? !(f->z == -INFINITY) : !isfinite(f->z)) || isnan(f->ceiling) || isnan(f->top))
            return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, NULL,
                                 "cell (%d, %d): floor height is not a number", cx, cy);
        if (!(f->ceiling > f->z))
            return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, NULL,
                                 "cell (%d, %d): ceiling %g is not above the floor at %g", cx, cy, (double)f->ceiling,
                                 (double)f->z);
    }

    NavFloorAt *sorted = nav_malloc((count ? count : 1) * sizeof *sorted);
    NavFloor *floors = nav_malloc((count ? count : 1) * sizeof *floors);
    uint32_t *starts = nav_calloc(cells + 1, sizeof *starts);
    if (!sorted || !floors || !starts) {
        nav_free(sorted);
        nav_free(floors);
        nav_free(starts);
        return nav_error_set(err, NAV_E_NOMEM, w->source, 0, 0, NULL, "out of memory storing %zu floors", count);
    }
    if (count) memcpy(sorted, items, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_floor_at);

    for (size_t i = 0; i < count; i++) {
        if (i > 0 && sorted[i].cell == sorted[i - 1].cell && sorted[i - 1].floor.ceiling > sorted[i].floor.z) {
            uint32_t c = sorted[i].cell;
            int cx = (int)(c % (uint32_t)w->width), cy = (int)(c / (uint32_t)w->width);
            NavStatus s = nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, NULL,
                                        "cell (%d, %d): the floor of layer %d at %g reaches into the floor of "
                                        "layer %d at %g",
                                        cx, cy, sorted[i - 1].floor.layer + 1, (double)sorted[i - 1].floor.z,
                                        sorted[i].floor.layer + 1, (double)sorted[i].floor.z);
            nav_free(sorted);
            nav_free(floors);
            nav_free(starts);
            return s;
        }
        floors[i] = sorted[i].floor;
        starts[sorted[i].cell + 1]++;
    }
    for (size_t c = 0; c < cells; c++) starts[c + 1] += starts[c];
    nav_free(sorted);

    nav_free(w->floors);
    nav_free(w->column_start);
    w->floors = floors;
    w->column_start = starts;
    w->floor_count = (uint32_t)count;
    return NAV_OK;
}

const NavFloor *world_column(const NavWorld *w, int cx, int cy, int *count)
{
    if (!world_cell_valid(w, cx, cy)) {
        *count = 0;
        return NULL;
    }
    size_t c = (size_t)cy * (size_t)w->width + (size_t)cx;
    *count = (int)(w->column_start[c + 1] - w->column_start[c]);
    return w->floors + w->column_start[c];
}

const NavFloor *world_floor_store(const NavWorld *w, const uint32_t **column_start)
{
    *column_start = w->column_start;
    return w->floors;
}

uint32_t world_column_first(const NavWorld *w, int cx, int cy)
{
    return w->column_start[(size_t)cy * (size_t)w->width + (size_t)cx];
}

uint32_t world_floor_total(const NavWorld *w) { return w->floor_count; }

const NavFloor *world_floor_at(const NavWorld *w, float x, float y, float z, float tolerance)
{
    int cx, cy, n;
    if (!world_point_cell(w, x, y, &cx, &cy)) return NULL;
    const NavFloor *f = world_column(w, cx, cy, &n);
    for (int i = n - 1; i >= 0; i--) {
        if (f[i].z <= z + tolerance && z < f[i].ceiling) return &f[i];
    }
    return NULL;
}

/* }======= */

/* {======= geometry ======= */

int world_width(const NavWorld *w) { return w->width; }
int world_height(const NavWorld *w) { return w->height; }
float world_cell_size(const NavWorld *w) { return w->cell_size; }
float world_gravity(const NavWorld *w) { return w->gravity; }
const char *world_name(const NavWorld *w) { return w->name; }
const char *world_source(const NavWorld *w) { return w->source; }
const char *world_description(const NavWorld *w) { return w->description ? w->description : ""; }
const char *world_author(const NavWorld *w) { return w->author ? w->author : ""; }
uint64_t world_source_hash(const NavWorld *w) { return w->source_hash; }
void world_set_source_hash(NavWorld *w, uint64_t hash) { w->source_hash = hash; }

static char *dup_or_null(const char *s)
{
    if (!s || !s[0]) return NULL;
    size_t n = strlen(s) + 1;
    char *d = nav_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

NavStatus world_set_metadata(NavWorld *w, const char *description, const char *author, NavError *err)
{
    char *d = dup_or_null(description), *a = dup_or_null(author);
    if ((!d && description && description[0]) || (!a && author && author[0])) {
        nav_free(d);
        nav_free(a);
        return nav_error_set(err, NAV_E_NOMEM, w->source, 0, 0, NULL, "out of memory for the description");
    }
    nav_free(w->description);
    nav_free(w->author);
    w->description = d;
    w->author = a;
    return NAV_OK;
}

bool world_cell_valid(const NavWorld *w, int cx, int cy)
{
    return cx >= 0 && cy >= 0 && cx < w->width && cy < w->height;
}

bool world_point_cell(const NavWorld *w, float x, float y, int *cx, int *cy)
{
    if (!isfinite(x) || !isfinite(y)) return false;
    float fx = floorf(x / w->cell_size), fy = floorf(y / w->cell_size);
    if (fx < 0.0f || fy < 0.0f || fx >= (float)w->width || fy >= (float)w->height) return false;
    *cx = (int)fx;
    *cy = (int)fy;
    return true;
}

void world_cell_center(const NavWorld *w, int cx, int cy, float *x, float *y)
{
    *x = ((float)cx + 0.5f) * w->cell_size;
    *y = ((float)cy + 0.5f) * w->cell_size;
}

/* }======= */

/* {======= layers and classes ======= */

NavStatus world_add_layer(NavWorld *w, const char *name, float z, NavError *err)
{
    if (w->layer_count >= NAV_MAX_LAYERS)
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, "layers", "more than %d layers", NAV_MAX_LAYERS);
    if (!isfinite(z))
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, "layers", "layer height is not a finite number");
    NavLayer *l = &w->layers[w->layer_count++];
    copy_name(l->name, sizeof l->name, name);
    l->z = z;
    return NAV_OK;
}

int world_layer_count(const NavWorld *w) { return w->layer_count; }
const NavLayer *world_layer(const NavWorld *w, int i) { return (i >= 0 && i < w->layer_count) ? &w->layers[i] : NULL; }

NavStatus world_add_class(NavWorld *w, const NavClass *c, int *index, NavError *err)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "classes[%d]", w->class_count + 1);
    NavStatus s = class_validate(c, w->source, prefix, err);
    if (NAV_FAILED(s)) return s;
    if (w->class_count >= NAV_MAX_CLASSES)
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, "classes", "more than %d classes", NAV_MAX_CLASSES);
    if (world_find_class(w, c->name) >= 0)
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix, "a class named '%s' is already defined",
                             c->name);
    w->classes[w->class_count] = *c;
    if (index) *index = w->class_count;
    w->class_count++;
    return NAV_OK;
}

int world_class_count(const NavWorld *w) { return w->class_count; }
const NavClass *world_class(const NavWorld *w, int i) { return (i >= 0 && i < w->class_count) ? &w->classes[i] : NULL; }

int world_find_class(const NavWorld *w, const char *name)
{
    for (int i = 0; i < w->class_count; i++)
        if (strcmp(w->classes[i].name, name) == 0) return i;
    return -1;
}

/* }======= */

/* {======= entities ======= */

static bool point_in_open_space(const NavWorld *w, const vec3 p)
{
    const NavFloor *f = world_floor_at(w, p[0], p[1], p[2], 0.05f);
    return f && f->contents != NAV_CONTENTS_VOID;
}

static bool box_inside_map(const NavWorld *w, const NavEntity *e)
{
    float mx = (float)w->width * w->cell_size, my = (float)w->height * w->cell_size;
    return e->mins[0] >= 0.0f && e->mins[1] >= 0.0f && e->maxs[0] <= mx && e->maxs[1] <= my;
}

NavStatus world_add_entity(NavWorld *w, const NavEntity *e, int *index, NavError *err)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "entities[%d]", w->entity_count + 1);
    char field[96];
    if (w->entity_count >= NAV_MAX_ENTITIES)
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix, "more than the limit of %d entities",
                             NAV_MAX_ENTITIES);
    NavStatus s = entity_validate(e, w->source, prefix, err);
    if (NAV_FAILED(s)) return s;
    const char *tn = entity_type_name(e->type);

    if (!box_inside_map(w, e) && !entity_is_volume(e->type))
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix,
                             "%s at (%g, %g) is outside the map (0, 0)-(%g, %g)", tn, (double)e->mins[0],
                             (double)e->mins[1], (double)((float)w->width * w->cell_size),
                             (double)((float)w->height * w->cell_size));
    if (!box_inside_map(w, e))
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix,
                             "%s at (%g, %g)-(%g, %g) is outside the map (0, 0)-(%g, %g)", tn, (double)e->mins[0],
                             (double)e->mins[1], (double)e->maxs[0], (double)e->maxs[1],
                             (double)((float)w->width * w->cell_size), (double)((float)w->height * w->cell_size));

    if (!entity_is_volume(e->type)) {
        if (!point_in_open_space(w, e->mins))
            return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix,
                                 "%s at (%g, %g, %g) is not on a floor (inside a wall or over a void)", tn,
                                 (double)e->mins[0], (double)e->mins[1], (double)e->mins[2]);
    }
    if (e->type == NAV_ENTITY_TELEPORTER && !point_in_open_space(w, e->u.teleporter.dest)) {
        snprintf(field, sizeof field, "%s.dest", prefix);
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, field,
                             "destination (%g, %g, %g) is not on a floor (outside the map, in a wall or over a void)",
                             (double)e->u.teleporter.dest[0], (double)e->u.teleporter.dest[1],
                             (double)e->u.teleporter.dest[2]);
    }
    if (e->type == NAV_ENTITY_JUMP_PAD && !point_in_open_space(w, e->u.jump_pad.target)) {
        snprintf(field, sizeof field, "%s.target", prefix);
        return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, field,
                             "target (%g, %g, %g) is not on a floor (outside the map, in a wall or over a void)",
                             (double)e->u.jump_pad.target[0], (double)e->u.jump_pad.target[1],
                             (double)e->u.jump_pad.target[2]);
    }

    for (int i = 0; i < w->entity_count; i++) {
        const NavEntity *o = &w->entities[i];
        if (e->name[0] && strcmp(e->name, o->name) == 0)
            return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix,
                                 "the name '%s' is already used by entities[%d]", e->name, i + 1);
        if (entity_is_volume(e->type) && entity_is_volume(o->type) && entity_boxes_overlap(e, o))
            return nav_error_set(err, NAV_E_FORMAT, w->source, 0, 0, prefix, "%s%s%s overlaps %s%s%s (entities[%d])",
                                 tn, e->name[0] ? " " : "", e->name, entity_type_name(o->type), o->name[0] ? " " : "",
                                 o->name, i + 1);
    }

    if (w->entity_count == w->entity_cap) {
        int ncap = w->entity_cap ? w->entity_cap * 2 : 16;
        NavEntity *ne = nav_realloc(w->entities, (size_t)ncap * sizeof *ne);
        if (!ne) return nav_error_set(err, NAV_E_NOMEM, w->source, 0, 0, prefix, "out of memory for entities");
        w->entities = ne;
        w->entity_cap = ncap;
    }
    w->entities[w->entity_count] = *e;
    if (index) *index = w->entity_count;
    w->entity_count++;
    return NAV_OK;
}

int world_entity_count(const NavWorld *w) { return w->entity_count; }
const NavEntity *world_entity(const NavWorld *w, int i)
{
    return (i >= 0 && i < w->entity_count) ? &w->entities[i] : NULL;
}

int world_find_entity(const NavWorld *w, const char *name)
{
    for (int i = 0; i < w->entity_count; i++)
        if (name[0] && strcmp(w->entities[i].name, name) == 0) return i;
    return -1;
}

/* }======= */

/* {======= statistics ======= */

void world_stats(const NavWorld *w, NavWorldStats *out)
{
    memset(out, 0, sizeof *out);
    out->min_z = INFINITY;
    out->max_z = -INFINITY;
    size_t cells = (size_t)w->width * (size_t)w->height;
    for (size_t c = 0; c < cells; c++) {
        uint32_t n = w->column_start[c + 1] - w->column_start[c];
        if (n == 0) out->solid_columns++;
        if (n > out->max_floors_in_column) out->max_floors_in_column = n;
    }
    for (uint32_t i = 0; i < w->floor_count; i++) {
        const NavFloor *f = &w->floors[i];
        out->floors_by_contents[f->contents]++;
        if (f->flags & NAV_FLOOR_PORTAL) out->portal_floors++;
        if (f->contents != NAV_CONTENTS_VOID) {
            if (f->z < out->min_z) out->min_z = f->z;
            if (f->z > out->max_z) out->max_z = f->z;
        }
    }
    out->floors = w->floor_count;
    for (int i = 0; i < w->entity_count; i++) out->entities_by_type[w->entities[i].type]++;
    if (w->floor_count == 0) out->min_z = out->max_z = 0.0f;
}

size_t world_memory(const NavWorld *w)
{
    size_t cells = (size_t)w->width * (size_t)w->height;
    return sizeof *w + (cells + 1) * sizeof(uint32_t) + (size_t)w->floor_count * sizeof(NavFloor) +
           (size_t)w->entity_cap * sizeof(NavEntity);
}

static const char *const CONTENTS_NAMES[NAV_CONTENTS_COUNT] = {
    "floor", "water", "lava", "slime", "ladder", "clip", "void",
};

const char *world_contents_name(NavContents c)
{
    return (unsigned)c < NAV_CONTENTS_COUNT ? CONTENTS_NAMES[c] : "unknown";
}

const char *world_dir_name(NavDir d)
{
    static const char *const names[4] = { "north", "east", "south", "west" };
    return (unsigned)d < 4 ? names[d] : "unknown";
}

/* }======= */

/* {======= line of sight ======= */

/* Does some span of column (cx, cy) hold heights lo to hi? */
static bool column_holds(const NavWorld *w, int cx, int cy, float lo, float hi)
{
    int n;
    const NavFloor *f = world_column(w, cx, cy, &n);
    for (int i = 0; i < n; i++) {
        float bottom = f[i].contents == NAV_CONTENTS_VOID ? -INFINITY : f[i].z;
        if (bottom <= lo + 1e-4f && f[i].ceiling >= hi - 1e-4f) return true;
    }
    return false;
}

bool world_line_of_sight(const NavWorld *w, const float a[3], const float b[3])
{
    float s = w->cell_size;
    int cx, cy, ex, ey;
    if (!world_point_cell(w, a[0], a[1], &cx, &cy) || !world_point_cell(w, b[0], b[1], &ex, &ey)) return false;
    double dx = (double)b[0] - a[0], dy = (double)b[1] - a[1];
    int stepx = dx > 0 ? 1 : -1, stepy = dy > 0 ? 1 : -1;
    /* Parameter t along a->b where the segment crosses the next cell line
    ** in x and in y, and how much t one whole cell takes. */
    double tx = INFINITY, ty = INFINITY, ddx = INFINITY, ddy = INFINITY;
    if (dx != 0.0) {
        double next = (double)(stepx > 0 ? cx + 1 : cx) * s;
        tx = (next - a[0]) / dx;
        ddx = s / fabs(dx);
    }
    if (dy != 0.0) {
        double next = (double)(stepy > 0 ? cy + 1 : cy) * s;
        ty = (next - a[1]) / dy;
        ddy = s / fabs(dy);
    }
    double t0 = 0.0;
    for (int guard = 0; guard < 4 * (w->width + w->height) + 8; guard++) {
        double t1 = fmin(fmin(tx, ty), 1.0);
        float z0 = (float)(a[2] + (b[2] - a[2]) * t0), z1 = (float)(a[2] + (b[2] - a[2]) * t1);
        if (!column_holds(w, cx, cy, fminf(z0, z1), fmaxf(z0, z1))) return false;
        if (t1 >= 1.0 || (cx == ex && cy == ey)) return true;
        t0 = t1;
        /* Through a corner exactly: both neighbours must be open. */
        if (tx == ty) {
            if (!world_cell_valid(w, cx + stepx, cy) || !world_cell_valid(w, cx, cy + stepy)) return false;
            if (!column_holds(w, cx + stepx, cy, fminf(z0, z1), fmaxf(z0, z1)) ||
                !column_holds(w, cx, cy + stepy, fminf(z0, z1), fmaxf(z0, z1)))
                return false;
            cx += stepx;
            cy += stepy;
            tx += ddx;
            ty += ddy;
        } else if (tx < ty) {
            cx += stepx;
            tx += ddx;
        } else {
            cy += stepy;
            ty += ddy;
        }
        if (!world_cell_valid(w, cx, cy)) return false;
    }
    return true;
}

/* }======= */

/*
** area_file.c — the compiled area graph on disk.
**
** Layout, all integers little-endian, floats as IEEE-754 bits:
**   header   "NAVAREA1"  u32 version  u32 byte-order marker 0x01020304
**            (bytes 04 03 02 01)  u32 section count
**            u64 map hash (world_source_hash: a hash of the map file's
**            contents, or of a generated map's parameters)
**            u64 class hash (its name and every value)  char[32] class name
**            u32 world width  u32 world height  u32 floors
**            u32 crc32 of everything above
**   sections u32 tag  u32 byte size  u32 crc32 of the payload, payload:
**            AREA  u32 count, then each area's fields
**            LINK  u32 count, u32 static count, then each link's fields
**            FLOR  per world floor: u32 area, u8 kind, u8 portal mark
**            CLUS  u32 clusters, u32 portals, then clusters, portals and
**                  the cluster-portal list; u8 entities added
**            NARW  u32 count, then each narrow opening: u32 from, u32 to,
**                  u32 type, 3 f32 point, f32 width
** Version 2: links only where the body fits (the box clearance, openings
** between cells, ladder hatches), edges that span the opening, and NARW;
** version 3: the byte-order marker and the class name. A file of another
** version is refused (compile again), never read as this one; so is one
** whose marker reads 01 02 03 04 (a writer that stored its integers
** big-endian), and one whose counts pass core/limits.h.
** A file is refused, with a message naming what is wrong, when the magic,
** version or a checksum does not match, when a size runs past the end,
** when a count or an index is out of range, or when the map or the class
** changed since it was written (then it is stale: compile again).
*/
#include "area/area_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"

#define MAGIC "NAVAREA1"
#define VERSION 3u
#define BYTE_ORDER_MARK 0x01020304u
#define SECTIONS 5u
#define TAG(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* {======= checksums and hashes ======= */

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint64_t class_hash(const NavClass *c)
{
    uint64_t h = 14695981039346656037ull;
    const uint8_t *p = (const uint8_t *)c->name;
    for (size_t i = 0; i < sizeof c->name && p[i]; i++) h = (h ^ p[i]) * 1099511628211ull;
    int nf;
    const NavClassField *f = class_fields(&nf);
    for (int i = 0; i < nf; i++) {
        float v = *(const float *)((const char *)c + f[i].offset);
        uint32_t bits;
        memcpy(&bits, &v, 4);
        for (int k = 0; k < 4; k++) h = (h ^ ((bits >> (8 * k)) & 0xFFu)) * 1099511628211ull;
    }
    return h;
}

/* }======= */

/* {======= writing ======= */

typedef struct Out {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} Out;

static void put(Out *o, const void *data, size_t n)
{
    if (o->failed) return;
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + n) cap *= 2;
        uint8_t *np = nav_realloc(o->p, cap);
        if (!np) {
            o->failed = true;
            return;
        }
        o->p = np;
        o->cap = cap;
    }
    memcpy(o->p + o->n, data, n);
    o->n += n;
}

static void put_u8(Out *o, uint8_t v) { put(o, &v, 1); }
static void put_u32(Out *o, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(o, b, 4);
}
static void put_u64(Out *o, uint64_t v)
{
    put_u32(o, (uint32_t)v);
    put_u32(o, (uint32_t)(v >> 32));
}
static void put_f32(Out *o, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(o, v);
}
static void put_vec(Out *o, const float *v)
{
    for (int i = 0; i < 3; i++) put_f32(o, v[i]);
}

/* Section: tag, size and crc are patched in after the payload. */
static size_t begin_section(Out *o, uint32_t tag)
{
    put_u32(o, tag);
    put_u32(o, 0);
    put_u32(o, 0);
    return o->n;
}

static void patch_u32(Out *o, size_t at, uint32_t v)
{
    if (o->failed) return;
    o->p[at] = (uint8_t)v;
    o->p[at + 1] = (uint8_t)(v >> 8);
    o->p[at + 2] = (uint8_t)(v >> 16);
    o->p[at + 3] = (uint8_t)(v >> 24);
}

static void end_section(Out *o, size_t start)
{
    if (o->failed) return;
    size_t size = o->n - start;
    patch_u32(o, start - 8, (uint32_t)size);
    patch_u32(o, start - 4, crc32(o->p + start, size));
}

NavStatus area_save_buffer(const NavAreaGraph *ag, uint8_t **data, size_t *len, NavError *err)
{
    Out o = { 0 };
    put(&o, MAGIC, 8);
    put_u32(&o, VERSION);
    put_u32(&o, BYTE_ORDER_MARK);
    put_u32(&o, SECTIONS);
    put_u64(&o, world_source_hash(ag->world));
    put_u64(&o, class_hash(&ag->cls));
    char cname[32] = { 0 };
    snprintf(cname, sizeof cname, "%s", ag->cls.name);
    put(&o, cname, sizeof cname);
    put_u32(&o, (uint32_t)ag->w);
    put_u32(&o, (uint32_t)ag->h);
    put_u32(&o, world_floor_total(ag->world));
    if (!o.failed) put_u32(&o, crc32(o.p, o.n));

    size_t s = begin_section(&o, TAG('A', 'R', 'E', 'A'));
    put_u32(&o, ag->area_count);
    for (uint32_t i = 0; i < ag->area_count; i++) {
        const NavArea *a = &ag->areas[i];
        put_u32(&o, (uint32_t)a->x0);
        put_u32(&o, (uint32_t)a->y0);
        put_u32(&o, (uint32_t)a->x1);
        put_u32(&o, (uint32_t)a->y1);
        put_f32(&o, a->zmin);
        put_f32(&o, a->zmax);
        put_vec(&o, a->center);
        put_u32(&o, a->flags);
        put_u32(&o, a->travel_flags);
        put_u32(&o, a->layer);
        put_u32(&o, a->contents);
        put_u32(&o, a->cluster);
        put_u32(&o, (uint32_t)a->portal);
        put_u32(&o, a->first_reach);
        put_u32(&o, a->reach_count);
    }
    end_section(&o, s);

    s = begin_section(&o, TAG('L', 'I', 'N', 'K'));
    put_u32(&o, ag->reach_count);
    put_u32(&o, ag->static_reaches);
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        const NavReach *r = &ag->reaches[i];
        put_u32(&o, r->from);
        put_u32(&o, r->to);
        put_u32(&o, r->type);
        put_u32(&o, r->travel_flags);
        put_vec(&o, r->start);
        put_vec(&o, r->end);
        put_vec(&o, r->edge[0]);
        put_vec(&o, r->edge[1]);
        put_u32(&o, r->time);
        put_u32(&o, (uint32_t)r->entity);
    }
    end_section(&o, s);

    s = begin_section(&o, TAG('F', 'L', 'O', 'R'));
    uint32_t floors = world_floor_total(ag->world);
    for (uint32_t i = 0; i < floors; i++) {
        put_u32(&o, ag->floor_area[i]);
        put_u8(&o, ag->floor_kind[i]);
        put_u8(&o, ag->floor_portal[i]);
    }
    end_section(&o, s);

    s = begin_section(&o, TAG('C', 'L', 'U', 'S'));
    put_u32(&o, ag->cluster_count);
    put_u32(&o, ag->portal_count);
    for (uint32_t c = 1; c <= ag->cluster_count; c++) {
        put_u32(&o, ag->clusters[c].area_count);
        put_u32(&o, ag->clusters[c].portal_count);
        put_u32(&o, ag->clusters[c].first_portal);
    }
    for (uint32_t p = 0; p < ag->portal_count; p++) {
        put_u32(&o, ag->portals[p].area);
        put_u32(&o, ag->portals[p].front);
        put_u32(&o, ag->portals[p].back);
    }
    for (uint32_t p = 0; p < 2 * ag->portal_count; p++) put_u32(&o, ag->cluster_portals[p]);
    put_u8(&o, ag->entities_added ? 1 : 0);
    end_section(&o, s);

    s = begin_section(&o, TAG('N', 'A', 'R', 'W'));
    put_u32(&o, ag->narrow_count);
    for (uint32_t i = 0; i < ag->narrow_count; i++) {
        const NavNarrow *nw = &ag->narrow[i];
        put_u32(&o, nw->from);
        put_u32(&o, nw->to);
        put_u32(&o, nw->type);
        put_vec(&o, nw->point);
        put_f32(&o, nw->width);
    }
    end_section(&o, s);

    if (o.failed) {
        nav_free(o.p);
        return nav_error_set(err, NAV_E_NOMEM, NULL, 0, 0, NULL, "out of memory writing the area graph");
    }
    *data = o.p;
    *len = o.n;
    return NAV_OK;
}

NavStatus area_save(const NavAreaGraph *ag, const char *path, NavError *err)
{
    uint8_t *data;
    size_t len;
    NavStatus s = area_save_buffer(ag, &data, &len, err);
    if (NAV_FAILED(s)) return s;
    /* fileio_write: a crash or a full disk never leaves half a file. */
    s = fileio_write(path, data, len, 0, err);
    nav_free(data);
    if (NAV_FAILED(s)) return s;
    return NAV_OK;
}

/* }======= */

/* {======= reading ======= */

typedef struct In {
    const uint8_t *p;
    size_t n, at;
    bool bad;
} In;

static bool take(In *in, void *out, size_t n)
{
    if (in->bad || in->n - in->at < n) {
        in->bad = true;
        memset(out, 0, n);
        return false;
    }
    memcpy(out, in->p + in->at, n);
    in->at += n;
    return true;
}

static uint8_t get_u8(In *in)
{
    uint8_t v;
    take(in, &v, 1);
    return v;
}
static uint32_t get_u32(In *in)
{
    uint8_t b[4];
    take(in, b, 4);
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static uint64_t get_u64(In *in)
{
    uint64_t lo = get_u32(in);
    return lo | ((uint64_t)get_u32(in) << 32);
}
static float get_f32(In *in)
{
    uint32_t v = get_u32(in);
    float f;
    memcpy(&f, &v, 4);
    return f;
}
static void get_vec(In *in, float *v)
{
    for (int i = 0; i < 3; i++) v[i] = get_f32(in);
}

/* The payload of the next section, which must carry `tag`. */
static bool section(In *in, uint32_t tag, In *payload, const char *name, const char *file, NavError *err)
{
    uint32_t t = get_u32(in), size = get_u32(in), crc = get_u32(in);
    if (in->bad) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, name, "truncated before the %s section", name);
        return false;
    }
    if (t != tag) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, name, "expected the %s section here", name);
        return false;
    }
    if (size > in->n - in->at) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, name, "the %s section is truncated (%u bytes, %zu left)", name,
                      size, in->n - in->at);
        return false;
    }
    if (crc32(in->p + in->at, size) != crc) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, name, "checksum mismatch in the %s section (corrupt file)", name);
        return false;
    }
    *payload = (In){ in->p + in->at, size, 0, false };
    in->at += size;
    return true;
}

#define REFUSE(...)                                                      \
    do {                                                                 \
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, NULL, __VA_ARGS__); \
        goto fail;                                                       \
    } while (0)
#define NOMEM(what)                                                                              \
    do {                                                                                         \
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory loading the %s", what); \
        goto fail;                                                                               \
    } while (0)

NavAreaGraph *area_load_buffer(const NavWorld *world, int cls, const uint8_t *data, size_t len, const char *file,
                               NavError *err)
{
    if (cls < 0 || cls >= world_class_count(world)) {
        nav_error_set(err, NAV_E_PARAM, file, 0, 0, "class", "no class %d in the world", cls);
        return NULL;
    }
    In in = { data, len, 0, false };
    char magic[8];
    NavAreaGraph *ag = NULL;
    if (!take(&in, magic, 8) || memcmp(magic, MAGIC, 8) != 0) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, NULL, "not a compiled area graph (bad magic)");
        return NULL;
    }
    uint32_t version = get_u32(&in);
    if (!in.bad && version != VERSION) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "version",
                      "version %u; this navbot reads version %u: compile again", version, VERSION);
        return NULL;
    }
    uint8_t mark[4];
    take(&in, mark, 4);
    uint32_t sections = get_u32(&in);
    uint64_t map_hash = get_u64(&in), cls_hash = get_u64(&in);
    char cname[33] = { 0 };
    take(&in, cname, 32);
    uint32_t w = get_u32(&in), h = get_u32(&in), floors = get_u32(&in);
    size_t header_len = in.at;
    uint32_t header_crc = get_u32(&in);
    if (in.bad) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, NULL, "truncated header");
        return NULL;
    }
    if (mark[0] == 1 && mark[1] == 2 && mark[2] == 3 && mark[3] == 4) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "byte order",
                      "written big-endian (marker 01 02 03 04); this navbot reads little-endian files: compile again");
        return NULL;
    }
    if (mark[0] != 4 || mark[1] != 3 || mark[2] != 2 || mark[3] != 1) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "byte order",
                      "unknown byte-order marker %02x %02x %02x %02x (corrupt file)", mark[0], mark[1], mark[2],
                      mark[3]);
        return NULL;
    }
    if (crc32(data, header_len) != header_crc) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, NULL, "header checksum mismatch (corrupt file)");
        return NULL;
    }
    if (sections != SECTIONS) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, NULL, "expected %u sections, the header says %u", SECTIONS,
                      sections);
        return NULL;
    }
    if (map_hash != world_source_hash(world) || w != (uint32_t)world_width(world) ||
        h != (uint32_t)world_height(world) || floors != world_floor_total(world)) {
        nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "map", "stale: the map changed since this file was compiled");
        return NULL;
    }
    if (cls_hash != class_hash(world_class(world, cls))) {
        const char *want = world_class(world, cls)->name;
        if (strcmp(cname, want) != 0)
            nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "class", "stale: compiled for class '%s', not '%s'", cname,
                          want);
        else
            nav_error_set(err, NAV_E_FORMAT, file, 0, 0, "class",
                          "stale: compiled for other values of class '%s' (radius, height, steps, ...)", want);
        return NULL;
    }

    ag = nav_calloc(1, sizeof *ag);
    if (!ag) {
        nav_error_set(err, NAV_E_NOMEM, file, 0, 0, NULL, "out of memory loading the area graph");
        return NULL;
    }
    ag->world = world;
    ag->floors = world_floor_store(world, &ag->column_start);
    ag->cls = *world_class(world, cls);
    ag->cls_index = cls;
    ag->w = (int)w;
    ag->h = (int)h;
    ag->cs = world_cell_size(world);
    ag->desc.max_area_side = 32;
    ag->desc.max_cluster_areas = 256;

    In s;
    /* AREA */
    if (!section(&in, TAG('A', 'R', 'E', 'A'), &s, "AREA", file, err)) goto fail;
    ag->area_count = get_u32(&s);
    if (ag->area_count > NAV_LIMIT_AREAS)
        REFUSE("AREA: %u areas, over the limit of %u", ag->area_count, NAV_LIMIT_AREAS);
    if ((uint64_t)ag->area_count * 68u > s.n) REFUSE("AREA: %u areas do not fit the section", ag->area_count);
    ag->area_cap = ag->area_count;
    ag->areas = nav_calloc(ag->area_count ? ag->area_count : 1, sizeof *ag->areas);
    if (!ag->areas) NOMEM("areas");
    for (uint32_t i = 0; i < ag->area_count; i++) {
        NavArea *a = &ag->areas[i];
        a->x0 = (int32_t)get_u32(&s);
        a->y0 = (int32_t)get_u32(&s);
        a->x1 = (int32_t)get_u32(&s);
        a->y1 = (int32_t)get_u32(&s);
        a->zmin = get_f32(&s);
        a->zmax = get_f32(&s);
        get_vec(&s, a->center);
        a->flags = get_u32(&s);
        a->travel_flags = get_u32(&s);
        a->layer = (uint16_t)get_u32(&s);
        uint32_t contents = get_u32(&s);
        a->contents = (uint8_t)contents;
        a->cluster = get_u32(&s);
        a->portal = (int32_t)get_u32(&s);
        a->first_reach = get_u32(&s);
        a->reach_count = get_u32(&s);
        if (a->x0 < 0 || a->y0 < 0 || a->x1 < a->x0 || a->y1 < a->y0 || a->x1 >= (int32_t)w || a->y1 >= (int32_t)h)
            REFUSE("AREA: area %u has a rectangle outside the map", i);
        /* Routing shifts by it (1u << contents): only known contents. */
        if (contents >= NAV_CONTENTS_COUNT)
            REFUSE("AREA: area %u has contents %u (known: 0 to %d)", i, contents, NAV_CONTENTS_COUNT - 1);
    }
    if (s.bad || s.at != s.n) REFUSE("AREA: the section's size does not match its contents");

    /* LINK */
    if (!section(&in, TAG('L', 'I', 'N', 'K'), &s, "LINK", file, err)) goto fail;
    ag->reach_count = get_u32(&s);
    ag->static_reaches = get_u32(&s);
    if (ag->reach_count > NAV_LIMIT_LINKS)
        REFUSE("LINK: %u links, over the limit of %u", ag->reach_count, NAV_LIMIT_LINKS);
    if ((uint64_t)ag->reach_count * 72u > s.n || ag->static_reaches > ag->reach_count)
        REFUSE("LINK: %u links do not fit the section", ag->reach_count);
    ag->reach_cap = ag->reach_count;
    ag->reaches = nav_calloc(ag->reach_count ? ag->reach_count : 1, sizeof *ag->reaches);
    if (!ag->reaches) NOMEM("links");
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        NavReach *r = &ag->reaches[i];
        r->from = get_u32(&s);
        r->to = get_u32(&s);
        r->type = get_u32(&s);
        r->travel_flags = get_u32(&s);
        get_vec(&s, r->start);
        get_vec(&s, r->end);
        get_vec(&s, r->edge[0]);
        get_vec(&s, r->edge[1]);
        r->time = get_u32(&s);
        r->entity = (int32_t)get_u32(&s);
        if (r->from >= ag->area_count || r->to >= ag->area_count || r->type >= NAV_TRAVEL_COUNT ||
            r->entity >= world_entity_count(world) || r->entity < -1)
            REFUSE("LINK: link %u names an area, type or entity that does not exist", i);
    }
    if (s.bad || s.at != s.n) REFUSE("LINK: the section's size does not match its contents");
    for (uint32_t i = 0; i < ag->area_count; i++) {
        const NavArea *a = &ag->areas[i];
        if ((uint64_t)a->first_reach + a->reach_count > ag->reach_count)
            REFUSE("AREA: area %u's links run past the link list", i);
        for (uint32_t k = 0; k < a->reach_count; k++)
            if (ag->reaches[a->first_reach + k].from != i) REFUSE("LINK: links are not grouped by area");
    }
    /* And the other way: every link in its area's group (routers index a
    ** link by its place in the group of the area it leaves). */
    for (uint32_t i = 0; i < ag->reach_count; i++) {
        const NavArea *a = &ag->areas[ag->reaches[i].from];
        if (i < a->first_reach || i - a->first_reach >= a->reach_count)
            REFUSE("LINK: link %u is not among the links of area %u, which it leaves", i, ag->reaches[i].from);
    }

    /* FLOR */
    if (!section(&in, TAG('F', 'L', 'O', 'R'), &s, "FLOR", file, err)) goto fail;
    if ((uint64_t)floors * 6u != s.n) REFUSE("FLOR: expected %u floors", floors);
    ag->floor_area = nav_malloc((floors ? floors : 1) * sizeof *ag->floor_area);
    ag->floor_kind = nav_malloc(floors ? floors : 1);
    ag->floor_portal = nav_malloc(floors ? floors : 1);
    if (!ag->floor_area || !ag->floor_kind || !ag->floor_portal) NOMEM("floors");
    for (uint32_t i = 0; i < floors; i++) {
        ag->floor_area[i] = get_u32(&s);
        ag->floor_kind[i] = get_u8(&s);
        ag->floor_portal[i] = get_u8(&s);
        if (ag->floor_area[i] != NAV_NO_AREA && ag->floor_area[i] >= ag->area_count)
            REFUSE("FLOR: floor %u names area %u of %u", i, ag->floor_area[i], ag->area_count);
        if (ag->floor_kind[i] > KIND_LADDER) REFUSE("FLOR: floor %u has an unknown kind", i);
    }

    /* CLUS */
    if (!section(&in, TAG('C', 'L', 'U', 'S'), &s, "CLUS", file, err)) goto fail;
    ag->cluster_count = get_u32(&s);
    ag->portal_count = get_u32(&s);
    if (((uint64_t)ag->cluster_count * 12u + (uint64_t)ag->portal_count * 20u + 1u) != s.n - s.at)
        REFUSE("CLUS: %u clusters and %u portals do not fit the section", ag->cluster_count, ag->portal_count);
    ag->clusters = nav_calloc((size_t)ag->cluster_count + 1, sizeof *ag->clusters);
    ag->portals = nav_malloc((ag->portal_count ? ag->portal_count : 1) * sizeof *ag->portals);
    ag->cluster_portals = nav_malloc((2 * (size_t)ag->portal_count + 1) * sizeof *ag->cluster_portals);
    if (!ag->clusters || !ag->portals || !ag->cluster_portals) NOMEM("clusters");
    for (uint32_t c = 1; c <= ag->cluster_count; c++) {
        ag->clusters[c].area_count = get_u32(&s);
        ag->clusters[c].portal_count = get_u32(&s);
        ag->clusters[c].first_portal = get_u32(&s);
        if ((uint64_t)ag->clusters[c].first_portal + ag->clusters[c].portal_count > 2u * ag->portal_count)
            REFUSE("CLUS: cluster %u's portal list runs past the end", c);
    }
    for (uint32_t p = 0; p < ag->portal_count; p++) {
        NavPortal *pt = &ag->portals[p];
        pt->area = get_u32(&s);
        pt->front = get_u32(&s);
        pt->back = get_u32(&s);
        if (pt->area >= ag->area_count || pt->front < 1 || pt->front > ag->cluster_count || pt->back < 1 ||
            pt->back > ag->cluster_count)
            REFUSE("CLUS: portal %u names an area or cluster that does not exist", p);
    }
    for (uint32_t p = 0; p < 2 * ag->portal_count; p++) {
        ag->cluster_portals[p] = get_u32(&s);
        if (ag->cluster_portals[p] >= ag->portal_count) REFUSE("CLUS: the cluster-portal list names portal %u", p);
    }
    ag->entities_added = get_u8(&s) != 0;
    for (uint32_t i = 0; i < ag->area_count; i++) {
        const NavArea *a = &ag->areas[i];
        if (a->cluster > ag->cluster_count || (a->portal >= 0 && (uint32_t)a->portal >= ag->portal_count) ||
            a->portal < -1)
            REFUSE("AREA: area %u names a cluster or portal that does not exist", i);
    }
    if (s.bad || s.at != s.n) REFUSE("CLUS: the section's size does not match its contents");

    /* NARW */
    if (!section(&in, TAG('N', 'A', 'R', 'W'), &s, "NARW", file, err)) goto fail;
    ag->narrow_count = get_u32(&s);
    if ((uint64_t)ag->narrow_count * 28u != s.n - s.at)
        REFUSE("NARW: %u narrow openings do not fit the section", ag->narrow_count);
    ag->narrow_cap = ag->narrow_count;
    ag->narrow = nav_malloc((ag->narrow_count ? ag->narrow_count : 1) * sizeof *ag->narrow);
    if (!ag->narrow) NOMEM("narrow openings");
    for (uint32_t i = 0; i < ag->narrow_count; i++) {
        NavNarrow *nw = &ag->narrow[i];
        nw->from = get_u32(&s);
        nw->to = get_u32(&s);
        nw->type = get_u32(&s);
        get_vec(&s, nw->point);
        nw->width = get_f32(&s);
        if (nw->from >= ag->area_count || nw->to >= ag->area_count || nw->type >= NAV_TRAVEL_COUNT)
            REFUSE("NARW: narrow opening %u names an area or type that does not exist", i);
    }
    if (s.bad || in.at != in.n) REFUSE("trailing bytes after the last section");
    if (NAV_FAILED(area_index_travel(ag))) NOMEM("travel tables");
    return ag;

fail:
    area_destroy(ag);
    return NULL;
}

#undef REFUSE
#undef NOMEM

NavAreaGraph *area_load(const NavWorld *world, int cls, const char *path, NavError *err)
{
    char *data;
    size_t len;
    if (NAV_FAILED(fileio_read(path, NAV_LIMIT_NAV_FILE_BYTES, &data, &len, err))) return NULL;
    NavAreaGraph *ag = area_load_buffer(world, cls, (const uint8_t *)data, len, path, err);
    nav_free(data);
    return ag;
}

bool area_graph_equal(const NavAreaGraph *a, const NavAreaGraph *b)
{
    if (a->area_count != b->area_count || a->reach_count != b->reach_count || a->cluster_count != b->cluster_count ||
        a->portal_count != b->portal_count || a->static_reaches != b->static_reaches ||
        a->entities_added != b->entities_added)
        return false;
    uint32_t floors = world_floor_total(a->world);
    if (floors != world_floor_total(b->world)) return false;
    return memcmp(a->areas, b->areas, (size_t)a->area_count * sizeof *a->areas) == 0 &&
           memcmp(a->reaches, b->reaches, (size_t)a->reach_count * sizeof *a->reaches) == 0 &&
           memcmp(a->floor_area, b->floor_area, (size_t)floors * sizeof *a->floor_area) == 0 &&
           memcmp(a->floor_kind, b->floor_kind, floors) == 0 && memcmp(a->floor_portal, b->floor_portal, floors) == 0 &&
           memcmp(a->clusters + 1, b->clusters + 1, (size_t)a->cluster_count * sizeof *a->clusters) == 0 &&
           memcmp(a->portals, b->portals, (size_t)a->portal_count * sizeof *a->portals) == 0 &&
           memcmp(a->cluster_portals, b->cluster_portals, 2 * (size_t)a->portal_count * sizeof(uint32_t)) == 0 &&
           a->narrow_count == b->narrow_count &&
           (a->narrow_count == 0 || memcmp(a->narrow, b->narrow, (size_t)a->narrow_count * sizeof *a->narrow) == 0);
}

/* }======= */

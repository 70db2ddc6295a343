/*
** map.c — format dispatch and file reading for the map loaders.
*/
#include "map/map.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fileio.h"

uint64_t map_hash(const char *buf, size_t len)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)buf[i];
        h *= 1099511628211ull;
    }
    return h;
}

NavMapFormat map_format_for_path(const char *path)
{
    const char *ext = fileio_extension(path);
    size_t n = strlen(path);
    /* A mesh's sidecar (NAME.obj.lua) stands for its mesh. */
    if (strcmp(ext, "obj") == 0 || (n > 8 && strcmp(path + n - 8, ".obj.lua") == 0)) return NAV_MAP_OBJ;
    if (strcmp(ext, "lua") == 0) return NAV_MAP_LUA;
    if (strcmp(ext, "map") == 0) return NAV_MAP_MOVINGAI;
    if (strcmp(ext, "tmj") == 0 || strcmp(ext, "json") == 0) return NAV_MAP_TILED;
    return NAV_MAP_AUTO;
}

const char *map_format_name(NavMapFormat f)
{
    switch (f) {
    case NAV_MAP_LUA: return "lua";
    case NAV_MAP_MOVINGAI: return "movingai";
    case NAV_MAP_TILED: return "tiled";
    case NAV_MAP_OBJ: return "obj";
    default: return "auto";
    }
}

NavWorld *map_load_buffer(const char *buf, size_t len, const char *name, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions defaults = { 0 };
    if (!opt) opt = &defaults;
    NavMapFormat f = opt->format;
    if (f == NAV_MAP_AUTO) f = map_format_for_path(name);
    if (f == NAV_MAP_AUTO) {
        /* No telling extension: a Moving AI map announces itself, and a
        ** JSON document starts with its object. */
        size_t i = 0;
        while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')) i++;
        f = (len >= 4 && memcmp(buf, "type", 4) == 0) ? NAV_MAP_MOVINGAI
            : (i < len && buf[i] == '{')              ? NAV_MAP_TILED
                                                      : NAV_MAP_LUA;
    }
    /* A mesh map hashes its sidecar and cell size too (map_load_obj). */
    if (f == NAV_MAP_OBJ) return map_load_obj(buf, len, name, opt, err);
    NavWorld *w = f == NAV_MAP_MOVINGAI ? map_load_movingai(buf, len, name, err)
                  : f == NAV_MAP_TILED  ? map_load_tiled(buf, len, name, opt, err)
                                        : map_load_lua(buf, len, name, opt, err);
    if (w) world_set_source_hash(w, map_hash(buf, len));
    return w;
}

NavWorld *map_load_file(const char *path, const NavMapOptions *opt, NavError *err)
{
    NavMapOptions o = { 0 };
    if (opt) o = *opt;
    if (o.format == NAV_MAP_AUTO) o.format = map_format_for_path(path);
    if (o.format == NAV_MAP_AUTO) {
        nav_error_set(err, NAV_E_PARAM, path, 0, 0, NULL,
                      "unknown map format: expected a .lua map, a Tiled .tmj or .json map, a Moving AI .map file "
                      "or an .obj mesh");
        return NULL;
    }
    if (o.format == NAV_MAP_OBJ) return map_load_obj_file(path, &o, err);
    char *data;
    size_t len;
    if (NAV_FAILED(fileio_read(path, NAV_MAP_MAX_FILE_BYTES, &data, &len, err))) return NULL;
    NavWorld *w = map_load_buffer(data, len, o.name && *o.name ? o.name : path, &o, err);
    nav_free(data);
    return w;
}

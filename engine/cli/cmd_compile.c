/*
** cmd_compile.c — `navbot compile MAP [--class NAME] [-o FILE]`: compile a
** map's area graph and write it beside the map (MAP-without-extension
** .CLASS.nav) or to FILE. An up-to-date file is kept; a stale or corrupt
** one is rebuilt with a notice.
*/
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "cli/cli.h"
#include "core/timer.h"
#include "map/map.h"

static void default_output(const char *map, const char *cls, char *out, size_t cap)
{
    const char *slash = strrchr(map, '/');
    const char *dot = strrchr(map, '.');
    size_t stem = (dot && (!slash || dot > slash)) ? (size_t)(dot - map) : strlen(map);
    snprintf(out, cap, "%.*s.%s.nav", (int)stem, map, cls);
}

static int run_compile(const CliContext *cx, int argc, char **argv)
{
    const char *path = NULL, *class_name = NULL, *output = NULL;
    bool force = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--class") == 0 || strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cx, &cli_cmd_compile, "%s needs a value", argv[i]);
            if (argv[i][1] == 'o') output = argv[++i];
            else class_name = argv[++i];
        } else if (strcmp(argv[i], "--force") == 0) {
            force = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_compile, "unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return cli_usage_error(cx, &cli_cmd_compile, "one map at a time (got '%s' and '%s')", path, argv[i]);
        }
    }
    if (!path) return cli_usage_error(cx, &cli_cmd_compile, "which map? give a path such as maps/gauntlet.lua");

    NavError e;
    nav_error_clear(&e);
    NavWorld *w = map_load_file(path, &(NavMapOptions){ .mesh_cell_size = cx->mesh_cell_size }, &e);
    char buf[1024];
    if (!w) {
        fprintf(cx->err, "navbot: %s\n", nav_error_format(&e, buf, sizeof buf));
        return CLI_BAD_INPUT;
    }
    int rc = CLI_OK;
    int cls = cli_find_class(cx, "compile", w, path, class_name, &rc);
    if (cls < 0) {
        world_destroy(w);
        return rc;
    }
    char out[1024];
    if (output) snprintf(out, sizeof out, "%s", output);
    else default_output(path, world_class(w, cls)->name, out, sizeof out);

    if (!force) {
        NavError le;
        NavAreaGraph *old = area_load(w, cls, out, &le);
        if (old) {
            fprintf(cx->out, "%s is up to date (use --force to compile anyway)\n", out);
            area_destroy(old);
            world_destroy(w);
            return CLI_OK;
        }
        if (!(le.status & NAV_E_IO))
            fprintf(cx->err, "navbot compile: %s: compiling again\n", nav_error_format(&le, buf, sizeof buf));
    }

    uint64_t t0 = timer_now_ns();
    NavAreaGraph *ag = area_build(w, cls, NULL, &e);
    double ms = timer_ms_since(t0);
    if (!ag || NAV_FAILED(area_save(ag, out, &e))) {
        fprintf(cx->err, "navbot: %s\n", nav_error_format(&e, buf, sizeof buf));
        area_destroy(ag);
        world_destroy(w);
        return CLI_BAD_INPUT;
    }
    NavAreaStats st;
    area_stats(ag, &st);
    fprintf(cx->out, "%s: class %s, %u areas, %u links, %u clusters, %u portals, compiled in %.1f ms -> %s\n", path,
            world_class(w, cls)->name, st.areas, st.reaches, st.clusters, st.portals, ms, out);
    area_destroy(ag);
    world_destroy(w);
    return CLI_OK;
}

const CliCommand cli_cmd_compile = {
    .name = "compile",
    .summary = "Compile a map's area graph for a class into a .nav file",
    .usage = "navbot compile MAP [--class NAME] [-o FILE] [--force]",
    .help = "Writes MAP's area graph (areas, links, clusters, portals) for one class.\n"
            "The file is versioned and checksummed and remembers the map's content\n"
            "hash: an up-to-date file is kept, a stale or corrupt one is compiled\n"
            "again with a notice.\n"
            "\n"
            "options:\n"
            "  --class NAME  the class (default: the map's first)\n"
            "  -o FILE       where to write (default: beside the map, NAME.CLASS.nav)\n"
            "  --force       compile even when the file is up to date\n"
            "\n"
            "examples:\n"
            "  navbot compile maps/gauntlet.lua\n"
            "  navbot info maps/gauntlet.lua --areas --nav maps/gauntlet.human.nav\n",
    .run = run_compile,
};

/*
** cmd_bench_compile.c — `navbot bench compile [--json] [--generate N]
** [--generate-mesh T] MAP...`: how long compiling area graphs takes and
** how much they hold, per map and class; --generate adds an N x N
** generated single-floor map. Mesh maps (.obj) first report their load:
** triangles, columns, the voxelizing time per million triangles and the
** columns made per second; --generate-mesh adds a generated mesh level of
** about T triangles at 0.25 m cells (or --cell's).
*/
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "cli/cli.h"
#include "core/alloc.h"
#include "core/limits.h"
#include "core/json.h"
#include "core/timer.h"
#include "map/map.h"

static void bench_world(const CliContext *cx, const NavWorld *w, const char *label, bool json)
{
    for (int c = 0; c < world_class_count(w); c++) {
        NavError e;
        /* The mean of a few runs when one is quick. */
        int runs = 0;
        double total = 0.0;
        NavAreaGraph *ag = NULL;
        do {
            area_destroy(ag);
            uint64_t t0 = timer_now_ns();
            ag = area_build(w, c, NULL, &e);
            total += timer_ms_since(t0);
            runs++;
        } while (ag && total < 200.0 && runs < 5);
        if (!ag) {
            char buf[1024];
            fprintf(cx->err, "navbot bench compile: %s: %s\n", label, nav_error_format(&e, buf, sizeof buf));
            continue;
        }
        NavAreaStats st;
        area_stats(ag, &st);
        double ms = total / runs;
        size_t cells = (size_t)world_width(w) * (size_t)world_height(w);
        if (json) {
            JsonWriter j;
            json_init(&j, cx->out, false);
            json_object_begin(&j);
            json_key(&j, "map");
            json_string(&j, label);
            json_key(&j, "class");
            json_string(&j, world_class(w, c)->name);
            json_key(&j, "width");
            json_int(&j, world_width(w));
            json_key(&j, "height");
            json_int(&j, world_height(w));
            json_key(&j, "compile_ms");
            json_number(&j, ms);
            json_key(&j, "areas");
            json_int(&j, st.areas);
            json_key(&j, "reachabilities");
            json_int(&j, st.reaches);
            json_key(&j, "clusters");
            json_int(&j, st.clusters);
            json_key(&j, "portals");
            json_int(&j, st.portals);
            json_key(&j, "areas_ms");
            json_number(&j, st.areas_ms);
            json_key(&j, "reaches_ms");
            json_number(&j, st.reaches_ms);
            json_key(&j, "clusters_ms");
            json_number(&j, st.clusters_ms);
            json_key(&j, "travel_ms");
            json_number(&j, st.travel_ms);
            json_key(&j, "passes");
            json_int(&j, st.cluster_rounds);
            json_key(&j, "largest_cluster");
            json_int(&j, st.largest_cluster);
            json_key(&j, "bytes");
            json_int(&j, (int64_t)st.bytes);
            json_key(&j, "bytes_per_cell");
            json_number(&j, (double)st.bytes / (double)cells);
            json_object_end(&j);
            json_finish(&j);
        } else {
            fprintf(cx->out,
                    "%-28s %-10s %5d x %-5d %9.2f ms %7u areas %8u links %6u clusters %6u portals %10zu bytes (%.1f "
                    "per cell)\n",
                    label, world_class(w, c)->name, world_width(w), world_height(w), ms, st.areas, st.reaches,
                    st.clusters, st.portals, st.bytes, (double)st.bytes / (double)cells);
            fprintf(cx->out,
                    "%-28s %-10s   areas %.2f ms, links %.2f ms, clusters %.2f ms (%u pass%s, largest %u areas), "
                    "crossing times %.2f ms\n",
                    "", "", st.areas_ms, st.reaches_ms, st.clusters_ms, st.cluster_rounds,
                    st.cluster_rounds == 1 ? "" : "es", st.largest_cluster, st.travel_ms);
        }
        area_destroy(ag);
    }
}

/* What loading a mesh took, as text or one JSON line. */
static void bench_mesh(const CliContext *cx, const char *label, const NavMeshStats *ms, bool json)
{
    double per_million = ms->triangles ? ms->voxelize_ms / 1000.0 * 1e6 / (double)ms->triangles : 0.0;
    double cells_per_s = ms->voxelize_ms + ms->floors_ms > 0.0
                             ? (double)ms->columns / ((ms->voxelize_ms + ms->floors_ms) / 1000.0)
                             : 0.0;
    if (json) {
        JsonWriter j;
        json_init(&j, cx->out, false);
        json_object_begin(&j);
        json_key(&j, "map");
        json_string(&j, label);
        json_key(&j, "mesh_triangles");
        json_int(&j, ms->triangles);
        json_key(&j, "columns");
        json_int(&j, ms->columns);
        json_key(&j, "spans");
        json_int(&j, ms->spans);
        json_key(&j, "parse_ms");
        json_number(&j, ms->parse_ms);
        json_key(&j, "voxelize_ms");
        json_number(&j, ms->voxelize_ms);
        json_key(&j, "floors_ms");
        json_number(&j, ms->floors_ms);
        json_key(&j, "load_ms");
        json_number(&j, ms->total_ms);
        json_key(&j, "voxelize_s_per_million_triangles");
        json_number(&j, per_million);
        json_key(&j, "cells_per_second");
        json_number(&j, cells_per_s);
        json_object_end(&j);
        json_finish(&j);
        return;
    }
    fprintf(cx->out,
            "%-28s mesh       %u triangles -> %u columns, %u spans: load %.2f ms (read %.2f, voxelize %.2f, "
            "floors %.2f)\n",
            label, ms->triangles, ms->columns, ms->spans, ms->total_ms, ms->parse_ms, ms->voxelize_ms, ms->floors_ms);
    fprintf(cx->out, "%-28s            voxelizing %.3f s per million triangles, %.2f million cells a second\n", "",
            per_million, cells_per_s / 1e6);
}

/* A mesh map loaded as cli_load_map would, with its load's figures. */
static NavWorld *load_mesh(const CliContext *cx, const char *path, const char *buf, size_t len, NavMeshStats *ms,
                           NavError *e)
{
    NavMapOptions o = { .lua_path = cx->map_lua_path, .mesh_cell_size = cx->mesh_cell_size, .mesh_stats = ms };
    NavWorld *w = buf ? map_load_buffer(buf, len, path, &o, e) : map_load_file(path, &o, e);
    if (!w) cli_print_error(cx, NULL, e);
    return w;
}

int bench_compile_run(const CliContext *cx, int argc, char **argv);
int bench_compile_run(const CliContext *cx, int argc, char **argv)
{
    bool json = false;
    uint32_t generate = 0, generate_mesh = 0;
    int maps = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--generate") == 0) {
            if (i + 1 >= argc || !cli_parse_u32(argv[i + 1], &generate) || generate < 8 || generate > 8192)
                return cli_usage_error(cx, &cli_cmd_bench, "--generate needs a side from 8 to 8192 cells");
            i++;
        } else if (strcmp(argv[i], "--generate-mesh") == 0) {
            if (i + 1 >= argc || !cli_parse_u32(argv[i + 1], &generate_mesh) || generate_mesh < 1000 ||
                generate_mesh > NAV_LIMIT_MESH_TRIANGLES / 2)
                return cli_usage_error(cx, &cli_cmd_bench, "--generate-mesh needs a triangle count from 1000 to %u",
                                       NAV_LIMIT_MESH_TRIANGLES / 2);
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_bench, "unknown option '%s'", argv[i]);
        } else {
            maps++;
        }
    }
    if (!maps && !generate && !generate_mesh)
        return cli_usage_error(cx, &cli_cmd_bench, "bench compile needs maps, --generate N or --generate-mesh T");
    int status = CLI_OK;
    for (int i = 2; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (strcmp(argv[i], "--generate") == 0 || strcmp(argv[i], "--generate-mesh") == 0) i++;
            continue;
        }
        NavError e;
        NavMeshStats ms;
        bool mesh = map_format_for_path(argv[i]) == NAV_MAP_OBJ;
        NavWorld *w = mesh ? load_mesh(cx, argv[i], NULL, 0, &ms, &e) : cli_load_map(cx, NULL, argv[i], &e);
        if (!w) {
            status = CLI_BAD_INPUT;
            continue;
        }
        if (!json) fprintf(cx->err, "bench compile: %s...\n", argv[i]);
        if (mesh) bench_mesh(cx, argv[i], &ms, json);
        bench_world(cx, w, argv[i], json);
        world_destroy(w);
    }
    if (generate_mesh) {
        NavError e;
        size_t len;
        char *obj = map_generate_mesh_obj(generate_mesh, 1, &len, &e);
        char label[64];
        snprintf(label, sizeof label, "generated mesh (%u)", generate_mesh);
        if (!json) fprintf(cx->err, "bench compile: generating a mesh of about %u triangles...\n", generate_mesh);
        /* At 0.25 m cells unless --cell says otherwise. */
        CliContext quarter = *cx;
        if (quarter.mesh_cell_size <= 0.0f) quarter.mesh_cell_size = 0.25f;
        NavMeshStats ms;
        NavWorld *w = obj ? load_mesh(&quarter, "generated.obj", obj, len, &ms, &e) : NULL;
        nav_free(obj);
        if (!w) {
            if (!obj) cli_print_error(cx, NULL, &e);
            return CLI_BAD_INPUT;
        }
        bench_mesh(cx, label, &ms, json);
        bench_world(cx, w, label, json);
        world_destroy(w);
    }
    if (generate) {
        NavError e;
        if (!json) fprintf(cx->err, "bench compile: generating %u x %u...\n", generate, generate);
        NavWorld *w = map_generate_terrain((int)generate, (int)generate, 1, &e);
        if (!w) {
            char buf[1024];
            fprintf(cx->err, "navbot: %s\n", nav_error_format(&e, buf, sizeof buf));
            return CLI_BAD_INPUT;
        }
        bench_world(cx, w, world_name(w), json);
        world_destroy(w);
    }
    return status;
}

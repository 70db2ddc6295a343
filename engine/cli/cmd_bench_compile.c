/*
** cmd_bench_compile.c — `navbot bench compile [--json] [--generate N] MAP...`:
** how long compiling area graphs takes and how much they hold, per map and
** class; --generate adds an N x N generated single-floor map.
*/
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "cli/cli.h"
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

int bench_compile_run(const CliContext *cx, int argc, char **argv);
int bench_compile_run(const CliContext *cx, int argc, char **argv)
{
    bool json = false;
    uint32_t generate = 0;
    int maps = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--generate") == 0) {
            if (i + 1 >= argc || !cli_parse_u32(argv[i + 1], &generate) || generate < 8 || generate > 8192)
                return cli_usage_error(cx, &cli_cmd_bench, "--generate needs a side from 8 to 8192 cells");
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_bench, "unknown option '%s'", argv[i]);
        } else {
            maps++;
        }
    }
    if (!maps && !generate) return cli_usage_error(cx, &cli_cmd_bench, "bench compile needs maps or --generate N");
    int status = CLI_OK;
    for (int i = 2; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (strcmp(argv[i], "--generate") == 0) i++;
            continue;
        }
        NavError e;
        NavWorld *w = cli_load_map(cx, NULL, argv[i], &e);
        if (!w) {
            status = CLI_BAD_INPUT;
            continue;
        }
        if (!json) fprintf(cx->err, "bench compile: %s...\n", argv[i]);
        bench_world(cx, w, argv[i], json);
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

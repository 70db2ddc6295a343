/*
** cmd_info.c — `navbot info MAP [--json]`: what a map holds.
*/
#include <math.h>
#include <string.h>

#include "cli/cli.h"
#include "core/json.h"
#include "core/timer.h"
#include "area/area.h"
#include "map/map.h"
#include "render/render_graph.h"

static void write_text(const CliContext *cx, const NavWorld *w, const char *path, double load_ms)
{
    FILE *o = cx->out;
    NavWorldStats st;
    world_stats(w, &st);
    float cs = world_cell_size(w);
    fprintf(o, "map        %s\n", world_name(w));
    fprintf(o, "file       %s (%s)\n", path, map_format_name(map_format_for_path(path)));
    if (world_description(w)[0]) fprintf(o, "about      %s\n", world_description(w));
    if (world_author(w)[0]) fprintf(o, "author     %s\n", world_author(w));
    fprintf(o, "size       %d x %d cells of %g m = %g x %g m\n", world_width(w), world_height(w), (double)cs,
            (double)(cs * (float)world_width(w)), (double)(cs * (float)world_height(w)));
    fprintf(o, "gravity    %g m/s^2\n", (double)world_gravity(w));
    fprintf(o, "layers     %d:", world_layer_count(w));
    for (int i = 0; i < world_layer_count(w); i++)
        fprintf(o, "%s %s (z %g)", i ? "," : "", world_layer(w, i)->name, (double)world_layer(w, i)->z);
    fprintf(o, "\n");
    fprintf(o, "heights    %g to %g m\n", (double)st.min_z, (double)st.max_z);
    fprintf(o, "floors     %u in %d columns; up to %u in one column; %u solid columns\n", st.floors,
            world_width(w) * world_height(w), st.max_floors_in_column, st.solid_columns);
    fprintf(o, "contents  ");
    for (int c = 0; c < NAV_CONTENTS_COUNT; c++)
        fprintf(o, " %s %u%s", world_contents_name((NavContents)c), st.floors_by_contents[c],
                c + 1 < NAV_CONTENTS_COUNT ? "," : "");
    fprintf(o, "\nportals    %u cells marked\n", st.portal_floors);
    fprintf(o, "entities   %d:", world_entity_count(w));
    bool first = true;
    for (int t = 0; t < NAV_ENTITY_TYPE_COUNT; t++) {
        if (!st.entities_by_type[t]) continue;
        fprintf(o, "%s %s %u", first ? "" : ",", entity_type_name((NavEntityType)t), st.entities_by_type[t]);
        first = false;
    }
    fprintf(o, "\n");
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        vec3 p;
        entity_origin(e, p);
        fprintf(o, "  %-10s %-14s at (%.2f, %.2f, %.2f)", entity_type_name(e->type), e->name[0] ? e->name : "-",
                (double)p[0], (double)p[1], (double)p[2]);
        if (e->type == NAV_ENTITY_ELEVATOR) {
            fprintf(o, " stops");
            for (int s = 0; s < e->u.elevator.stop_count; s++) fprintf(o, " %g", (double)e->u.elevator.stops[s]);
        } else if (e->type == NAV_ENTITY_TELEPORTER) {
            fprintf(o, " -> (%.2f, %.2f, %.2f)", (double)e->u.teleporter.dest[0], (double)e->u.teleporter.dest[1],
                    (double)e->u.teleporter.dest[2]);
        } else if (e->type == NAV_ENTITY_JUMP_PAD) {
            fprintf(o, " -> (%.2f, %.2f, %.2f)", (double)e->u.jump_pad.target[0], (double)e->u.jump_pad.target[1],
                    (double)e->u.jump_pad.target[2]);
        } else if (e->type == NAV_ENTITY_GOAL && e->u.goal.item[0]) {
            fprintf(o, " item %s", e->u.goal.item);
        }
        fprintf(o, "\n");
    }
    fprintf(o, "classes    %d\n", world_class_count(w));
    for (int i = 0; i < world_class_count(w); i++) {
        const NavClass *k = world_class(w, i);
        fprintf(o,
                "  %-10s radius %g, height %g, crouch %g, step %g, jump %g, climb %g, fall %g, gap %g, run %g m/s%s\n",
                k->name, (double)k->radius, (double)k->height, (double)k->crouch_height, (double)k->step,
                (double)k->barrier_jump, (double)k->climb, (double)k->max_fall, (double)k->jump_gap,
                (double)k->run_speed, class_can_swim(k) ? ", swims" : "");
    }
    fprintf(o, "memory     %zu bytes\n", world_memory(w));
    fprintf(o, "load time  %.2f ms\n", load_ms);
}

static void json_vec3(JsonWriter *j, const char *key, const vec3 v)
{
    json_key(j, key);
    json_array_begin(j);
    for (int i = 0; i < 3; i++) json_number(j, v[i]);
    json_array_end(j);
}

/* The picture --png wrote. */
typedef struct Picture {
    const char *path;
    int width, height;
    float cell_px; /* pixels per cell */
} Picture;

/* The graphs whose narrow openings are listed: the one described, and
** with no --class or --nav every other class's too. */
typedef struct NarrowSet {
    const NavAreaGraph *graphs[NAV_MAX_CLASSES];
    int count;
} NarrowSet;

static void write_areas_json(JsonWriter *j, const NavAreaGraph *ag, const Picture *pic);
static void write_narrow_json(JsonWriter *j, const NarrowSet *ns);

static void write_json(const CliContext *cx, const NavWorld *w, const char *path, double load_ms, const NarrowSet *ns,
                       const NavAreaGraph *ag, const Picture *pic)
{
    NavWorldStats st;
    world_stats(w, &st);
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "name");
    json_string(&j, world_name(w));
    json_key(&j, "file");
    json_string(&j, path);
    json_key(&j, "format");
    json_string(&j, map_format_name(map_format_for_path(path)));
    json_key(&j, "description");
    json_string(&j, world_description(w));
    json_key(&j, "width");
    json_int(&j, world_width(w));
    json_key(&j, "height");
    json_int(&j, world_height(w));
    json_key(&j, "cell_size");
    json_number(&j, world_cell_size(w));
    json_key(&j, "gravity");
    json_number(&j, world_gravity(w));
    json_key(&j, "layers");
    json_array_begin(&j);
    for (int i = 0; i < world_layer_count(w); i++) {
        json_object_begin(&j);
        json_key(&j, "name");
        json_string(&j, world_layer(w, i)->name);
        json_key(&j, "z");
        json_number(&j, world_layer(w, i)->z);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "floors");
    json_int(&j, st.floors);
    json_key(&j, "solid_columns");
    json_int(&j, st.solid_columns);
    json_key(&j, "max_floors_in_column");
    json_int(&j, st.max_floors_in_column);
    json_key(&j, "min_z");
    json_number(&j, st.min_z);
    json_key(&j, "max_z");
    json_number(&j, st.max_z);
    json_key(&j, "cells_by_contents");
    json_object_begin(&j);
    for (int c = 0; c < NAV_CONTENTS_COUNT; c++) {
        json_key(&j, world_contents_name((NavContents)c));
        json_int(&j, st.floors_by_contents[c]);
    }
    json_key(&j, "solid");
    json_int(&j, st.solid_columns);
    json_object_end(&j);
    json_key(&j, "portal_cells");
    json_int(&j, st.portal_floors);
    json_key(&j, "entities_by_type");
    json_object_begin(&j);
    for (int t = 0; t < NAV_ENTITY_TYPE_COUNT; t++) {
        json_key(&j, entity_type_name((NavEntityType)t));
        json_int(&j, st.entities_by_type[t]);
    }
    json_object_end(&j);
    json_key(&j, "entities");
    json_array_begin(&j);
    for (int i = 0; i < world_entity_count(w); i++) {
        const NavEntity *e = world_entity(w, i);
        json_object_begin(&j);
        json_key(&j, "type");
        json_string(&j, entity_type_name(e->type));
        json_key(&j, "name");
        json_string(&j, e->name);
        json_vec3(&j, "min", e->mins);
        json_vec3(&j, "max", e->maxs);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "classes");
    json_array_begin(&j);
    int nf;
    const NavClassField *fields = class_fields(&nf);
    for (int i = 0; i < world_class_count(w); i++) {
        const NavClass *k = world_class(w, i);
        json_object_begin(&j);
        json_key(&j, "name");
        json_string(&j, k->name);
        for (int f = 0; f < nf; f++) {
            json_key(&j, fields[f].name);
            json_number(&j, *(const float *)((const char *)k + fields[f].offset));
        }
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "memory_bytes");
    json_int(&j, (int64_t)world_memory(w));
    json_key(&j, "load_ms");
    json_number(&j, load_ms);
    if (ag) write_areas_json(&j, ag, pic);
    if (ns && ns->count) write_narrow_json(&j, ns);
    json_object_end(&j);
    json_finish(&j);
}


static void write_narrow_text(FILE *o, const NarrowSet *ns)
{
    fprintf(o, "narrow openings (where two floors meet through a gap the body does not fit)\n");
    for (int g = 0; g < ns->count; g++) {
        const NavAreaGraph *ag = ns->graphs[g];
        const NavClass *c = area_class(ag);
        uint32_t n = area_narrow_count(ag);
        fprintf(o, "  %-10s body %.2f m: ", c->name, 2.0 * c->radius);
        if (n == 0) fprintf(o, "none\n");
        else fprintf(o, "%u\n", n);
        for (uint32_t i = 0; i < n; i++) {
            const NavNarrow *nw = area_narrow(ag, i);
            fprintf(o, "    at (%.2f, %.2f, %.2f)  width %.2f m  %-14s areas %u - %u\n", nw->point[0], nw->point[1],
                    nw->point[2], nw->width, area_travel_name((NavTravelType)nw->type), nw->from, nw->to);
        }
    }
}

static void write_narrow_json(JsonWriter *j, const NarrowSet *ns)
{
    json_key(j, "narrow_openings");
    json_array_begin(j);
    for (int g = 0; g < ns->count; g++) {
        const NavAreaGraph *ag = ns->graphs[g];
        const NavClass *c = area_class(ag);
        json_object_begin(j);
        json_key(j, "class");
        json_string(j, c->name);
        json_key(j, "body_width");
        json_number(j, 2.0 * c->radius);
        json_key(j, "openings");
        json_array_begin(j);
        for (uint32_t i = 0; i < area_narrow_count(ag); i++) {
            const NavNarrow *nw = area_narrow(ag, i);
            json_object_begin(j);
            json_key(j, "x");
            json_number(j, nw->point[0]);
            json_key(j, "y");
            json_number(j, nw->point[1]);
            json_key(j, "z");
            json_number(j, nw->point[2]);
            json_key(j, "width");
            json_number(j, nw->width);
            json_key(j, "type");
            json_string(j, area_travel_name((NavTravelType)nw->type));
            json_key(j, "areas");
            json_array_begin(j);
            json_int(j, nw->from);
            json_int(j, nw->to);
            json_array_end(j);
            json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
}

static void write_areas_text(const CliContext *cx, const NavAreaGraph *ag, const Picture *pic)
{
    NavAreaStats st;
    area_stats(ag, &st);
    FILE *o = cx->out;
    fprintf(o, "area graph for class %s\n", area_class(ag)->name);
    fprintf(o, "  areas      %u\n", st.areas);
    fprintf(o, "  links      %u:", st.reaches);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++)
        fprintf(o, "%s %s %u", t ? "," : "", area_travel_name((NavTravelType)t), st.reaches_by_type[t]);
    fprintf(o, "\n  clusters   %u (largest %u areas)\n  portals    %u\n", st.clusters, st.largest_cluster, st.portals);
    fprintf(o, "  memory     %zu bytes\n  compile    %.2f ms (%u pass%s)\n", st.bytes, st.compile_ms, st.cluster_rounds,
            st.cluster_rounds == 1 ? "" : "es");
    if (pic->path)
        fprintf(o, "  png        %s (%d x %d px, %g px per cell)\n", pic->path, pic->width, pic->height,
                (double)pic->cell_px);
}

static void write_areas_json(JsonWriter *j, const NavAreaGraph *ag, const Picture *pic)
{
    NavAreaStats st;
    area_stats(ag, &st);
    json_key(j, "class");
    json_string(j, area_class(ag)->name);
    json_key(j, "areas");
    json_int(j, st.areas);
    json_key(j, "reachabilities");
    json_int(j, st.reaches);
    json_key(j, "reachabilities_by_type");
    json_object_begin(j);
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++) {
        json_key(j, area_travel_name((NavTravelType)t));
        json_int(j, st.reaches_by_type[t]);
    }
    json_object_end(j);
    json_key(j, "clusters");
    json_int(j, st.clusters);
    json_key(j, "portals");
    json_int(j, st.portals);
    json_key(j, "area_memory_bytes");
    json_int(j, (int64_t)st.bytes);
    json_key(j, "compile_ms");
    json_number(j, st.compile_ms);
    json_key(j, "largest_cluster");
    json_int(j, st.largest_cluster);
    if (pic->path) {
        json_key(j, "png");
        json_string(j, pic->path);
    }
}

static int run_info(const CliContext *cx, int argc, char **argv)
{
    const char *path = NULL;
    const char *class_name = NULL, *nav = NULL;
    Picture pic = { NULL, 0, 0, 0 };
    bool json = false, areas = false;
    const char *level_arg = NULL;
    CliView view = { 0 };
    bool view_given = false;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_view_option(cx, &cli_cmd_info, &view, argc, argv, &i)) != 0) {
            if (r < 0) return CLI_USAGE;
            view_given = true;
        } else if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--areas") == 0) areas = true;
        else if (strcmp(argv[i], "--class") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cx, &cli_cmd_info, "--class needs a class name");
            class_name = argv[++i];
        } else if (strcmp(argv[i], "--nav") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cx, &cli_cmd_info, "--nav needs a compiled .nav file");
            nav = argv[++i];
        } else if (strcmp(argv[i], "--png") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) return cli_usage_error(cx, &cli_cmd_info, "--png needs a file name");
            pic.path = argv[++i];
        } else if (strcmp(argv[i], "--level") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0])
                return cli_usage_error(cx, &cli_cmd_info, "--level needs a storey: its number from 1 or its name");
            level_arg = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error(cx, &cli_cmd_info, "unknown option '%s'", argv[i]);
        else if (!path) path = argv[i];
        else return cli_usage_error(cx, &cli_cmd_info, "one map at a time (got '%s' and '%s')", path, argv[i]);
    }
    if (!path) return cli_usage_error(cx, &cli_cmd_info, "which map? give a path such as maps/arena.lua");

    NavError e;
    nav_error_clear(&e);
    uint64_t t0 = timer_now_ns();
    NavWorld *w = cli_load_map(cx, NULL, path, &e);
    double ms = timer_ms_since(t0);
    if (!w) return CLI_BAD_INPUT;
    int level = -1;
    if (level_arg && !pic.path) {
        world_destroy(w);
        return cli_usage_error(cx, &cli_cmd_info, "--level picks the storey --png draws: give --png FILE too");
    }
    if (view_given && !pic.path) {
        world_destroy(w);
        return cli_usage_error(cx, &cli_cmd_info,
                               "--view, --px-per-m and --width shape the picture --png draws: give --png FILE too");
    }
    int lrc = cli_resolve_level(cx, "info", level_arg, w, &level);
    if (lrc == CLI_OK) lrc = cli_view_check(cx, &cli_cmd_info, &view, w, 0);
    if (lrc != CLI_OK) {
        world_destroy(w);
        return lrc;
    }
    NavAreaGraph *ag = NULL;
    if (areas || class_name || nav || pic.path) {
        int rc = CLI_OK;
        int cls = cli_find_class(cx, "info", w, path, class_name, &rc);
        if (cls < 0) {
            world_destroy(w);
            return rc;
        }
        ag = nav ? area_load(w, cls, nav, &e) : area_build(w, cls, NULL, &e);
        if (!ag) {
            cli_print_error(cx, NULL, &e);
            world_destroy(w);
            return CLI_BAD_INPUT;
        }
    }
    if (pic.path) {
        RenderGraphView gv = { .level = level, .box_set = view.box_set, .px_per_m = view.scale, .legend = true };
        memcpy(gv.box, view.box, sizeof gv.box);
        RenderGraphPicture drawn;
        NavImage *img = render_area_graph_view(ag, &gv, &drawn, &e);
        NavStatus ps = img ? image_write_png(img, pic.path, &e) : NAV_FAILURE;
        if (img) {
            pic.cell_px = drawn.px_per_m * world_cell_size(w);
            pic.width = img->width;
            pic.height = img->height;
        }
        image_destroy(img);
        if (NAV_FAILED(ps)) {
            cli_print_error(cx, NULL, &e);
            area_destroy(ag);
            world_destroy(w);
            return CLI_BAD_INPUT;
        }
    }
    /* Narrow openings: the graph's own class, and every other class of the
    ** map when none was picked (each compiled; the terrain alone decides). */
    NarrowSet ns = { .count = 0 };
    NavAreaGraph *others[NAV_MAX_CLASSES] = { 0 };
    int shown = ag ? (class_name ? world_find_class(w, class_name) : 0) : -1;
    if (areas && ag) {
        bool all = !class_name && !nav;
        for (int c = 0; c < world_class_count(w) && c < NAV_MAX_CLASSES; c++) {
            if (c == shown) {
                ns.graphs[ns.count++] = ag;
                continue;
            }
            if (!all) continue;
            others[c] = area_compile(w, c, NULL, &e);
            if (!others[c]) {
                cli_print_error(cx, NULL, &e);
                for (int k = 0; k < c; k++) area_destroy(others[k]);
                area_destroy(ag);
                world_destroy(w);
                return CLI_BAD_INPUT;
            }
            ns.graphs[ns.count++] = others[c];
        }
    }
    if (json) {
        write_json(cx, w, path, ms, &ns, ag, &pic);
    } else {
        write_text(cx, w, path, ms);
        if (ag) write_areas_text(cx, ag, &pic);
        if (ns.count) write_narrow_text(cx->out, &ns);
    }
    for (int c = 0; c < NAV_MAX_CLASSES; c++) area_destroy(others[c]);
    area_destroy(ag);
    world_destroy(w);
    return CLI_OK;
}

const CliCommand cli_cmd_info = {
    .name = "info",
    .summary = "Describe a map: size, layers, floors by contents, entities, classes",
    .usage = "navbot info MAP [--areas] [--class NAME] [--nav FILE] [--json]\n"
             "                   [--png FILE [--level N|NAME] [--view X0,Y0,X1,Y1] [--px-per-m N | --width N]]",
    .help = "MAP is a native Lua map (maps/*.lua), a Tiled map (*.tmj, *.json, or Tiled's\n"
            "Lua export), a Moving AI grid (*.map) or a triangle mesh (*.obj, with its\n"
            "sidecar NAME.obj.lua when there is one).\n"
            "\n"
            "options:\n"
            "  --json    print one JSON object instead of text\n"
            "  --cell M  a mesh map's cell size in metres (every command takes it)\n"
            "  --areas   also compile the area graph (areas, links by travel type,\n"
            "            clusters, portals, memory, compile time) and list the\n"
            "            narrow openings: where two floors meet through a gap\n"
            "            the class's body (2 x radius) does not fit, with the\n"
            "            gap's middle, its width, the link it would have been\n"
            "            and the two areas; for every class of the map unless\n"
            "            --class or --nav picks one\n"
            "  --class NAME  the class the area graph is for (default: the first)\n"
            "  --nav FILE    load the area graph from a compiled file instead of\n"
            "                compiling it (a corrupt or stale file is refused)\n"
            "  --png FILE    draw the area graph top-down: areas tinted by cluster,\n"
            "                portals amber, links coloured by travel type (walk grey,\n"
            "                crouch brown, barrier jump orange, ledge red, jump\n"
            "                magenta, climb dark brown, ladder green, swim blue,\n"
            "                water jump cyan, teleport violet, elevator black, jump\n"
            "                pad gold) with a dot where each lands; under the map a\n"
            "                legend names the colours drawn, with a scale bar in\n"
            "                metres and a north arrow\n"
            "  --level N|NAME  with --png, one storey of a stacked map (by number from\n"
            "                1 or by layer name)\n"
            "  --view X0,Y0,X1,Y1  with --png, that part of the map: its south-west and\n"
            "                north-east corners in metres\n"
            "  --px-per-m N  with --png, the scale in pixels per metre (up to 1000;\n"
            "                default: the longer side near 1024 pixels)\n"
            "  --width N     with --png, the map N pixels wide (160 to 8192)\n"
            "\n"
            "examples:\n"
            "  navbot info maps/arena.lua\n"
            "  navbot info maps/gauntlet.lua --areas --class human\n"
            "  navbot info maps/tower.lua --png tower-areas.png\n"
            "  navbot info maps/valley.lua --png town.png --view 30,80,95,135 --px-per-m 10\n"
            "  navbot info maps/house.obj --cell 0.25 --class human\n"
            "  navbot info tests/data/movingai/lak303d.map --json\n",
    .run = run_info,
};

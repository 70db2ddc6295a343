/*
** cmd_route.c — `navbot route MAP --from X,Y[,Z] --to X,Y[,Z] ...`: one
** route over the area graph (router_route_links), its links and travel
** time, as text, JSON or a PNG picture with a travel-time heat map.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "cli/cli.h"
#include "core/image.h"
#include "core/json.h"
#include "core/timer.h"
#include "map/map.h"
#include "render/render_graph.h"
#include "route/route.h"

/* How far --from and --to may be from the floor of an area. */
#define ROUTE_SNAP_RADIUS 2.0f

typedef struct RouteArgs {
    const char *map;
    const char *cls_name; /* NULL: the map's first class */
    const char *nav;      /* NULL: compile the area graph */
    const char *png;
    const char *level; /* --level: the storey --png draws, by number or name */
    bool json;
    bool has_from, has_to;
    float from[3], to[3]; /* metres */
    bool from_z, to_z;    /* was Z given? */
    uint32_t flags;       /* NAV_TFL_* */
    int storey;           /* from 1, the storey --png draws; 0 every floor */
    CliView view;         /* --view, --px-per-m, --width: the part --png draws and its size */
    bool view_given;
} RouteArgs;

/* {======= travel flags by name ======= */

/* Every name --flags takes, comma separated. */
static void list_flag_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    uint32_t bits;
    int words = 0;
    while (route_flag_word(words, &bits)) words++;
    for (int t = 0; t <= NAV_TRAVEL_COUNT + words; t++) {
        const char *name = t < NAV_TRAVEL_COUNT           ? area_travel_name((NavTravelType)t)
                           : t < NAV_TRAVEL_COUNT + words ? route_flag_word(t - NAV_TRAVEL_COUNT, &bits)
                                                          : "default";
        int k = snprintf(buf + n, cap - n, "%s%s", t ? ", " : "", name);
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
}

/* The names of the bits in flags, in --flags order, each passed to fn. */
static void each_flag_name(uint32_t flags, void (*fn)(void *user, const char *name), void *user)
{
    for (int t = 0; t < NAV_TRAVEL_COUNT; t++)
        if (flags & NAV_TFL_TYPE(t)) fn(user, area_travel_name((NavTravelType)t));
    uint32_t bits;
    const char *word;
    for (int k = 0; (word = route_flag_word(k, &bits)) != NULL; k++)
        if (flags & bits) fn(user, word);
}

/* }======= */

/* {======= argument parsing ======= */


/* --flags NAME,NAME,... */
static int parse_flags(const CliContext *cx, const char *s, uint32_t *out)
{
    const CliCommand *cmd = &cli_cmd_route;
    char names[512];
    list_flag_names(names, sizeof names);
    *out = 0;
    const char *p = s;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[32];
        if (len == 0) return cli_usage_error(cx, cmd, "--flags '%s' has an empty name; the names are: %s", s, names);
        uint32_t bits = 0;
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            bits = route_flag_of_name(name);
        }
        if (!bits)
            return cli_usage_error(cx, cmd, "--flags: unknown name '%.*s'; the names are: %s", (int)len, p, names);
        *out |= bits;
        if (!end) return CLI_OK;
        p = end + 1;
    }
}

static int parse_args(const CliContext *cx, int argc, char **argv, RouteArgs *a)
{
    const CliCommand *cmd = &cli_cmd_route;
    memset(a, 0, sizeof *a);
    a->flags = NAV_TFL_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        int r;
        if ((r = cli_view_option(cx, cmd, &a->view, argc, argv, &i)) != 0) {
            if (r < 0) return CLI_USAGE;
            a->view_given = true;
        } else if (strcmp(arg, "--json") == 0) a->json = true;
        else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else if ((r = cli_take_value("--nav", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--nav needs a compiled .nav file");
            a->nav = val;
        } else if ((r = cli_take_value("--from", argc, argv, &i, &val)) != 0 ||
                   (r = cli_take_value("--to", argc, argv, &i, &val)) != 0) {
            bool from = strncmp(arg, "--from", 6) == 0;
            const char *opt = from ? "--from" : "--to";
            if (r < 0) return cli_usage_error(cx, cmd, "%s needs a point X,Y or X,Y,Z in metres", opt);
            if (!cli_parse_point(val, from ? a->from : a->to, from ? &a->from_z : &a->to_z))
                return cli_usage_error(
                    cx, cmd, "%s '%s' is not a point X,Y or X,Y,Z in metres (such as 2,28 or 3.5,20,3.5)", opt, val);
            if (from) a->has_from = true;
            else a->has_to = true;
        } else if ((r = cli_take_value("--flags", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--flags needs a list of travel types such as walk,jump,water");
            if ((r = parse_flags(cx, val, &a->flags)) != CLI_OK) return r;
        } else if ((r = cli_take_value("--png", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--png needs a file name");
            a->png = val;
        } else if ((r = cli_take_value("--level", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0])
                return cli_usage_error(cx, cmd, "--level needs a storey: its number from 1 or its name");
            a->level = val;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_usage_error(cx, cmd, "unknown option '%s'", arg);
        } else if (!a->map) {
            a->map = arg;
        } else {
            return cli_usage_error(cx, cmd, "one map at a time (got '%s' and '%s')", a->map, arg);
        }
    }
    if (!a->map) return cli_usage_error(cx, cmd, "which map? give a path such as maps/gauntlet.lua");
    if (!a->has_from) return cli_usage_error(cx, cmd, "missing --from X,Y[,Z] (the start, in metres)");
    if (!a->has_to) return cli_usage_error(cx, cmd, "missing --to X,Y[,Z] (the goal, in metres)");
    return CLI_OK;
}

/* }======= */

/* {======= points to areas ======= */

/* A point of --from or --to placed in an area. */
typedef NavAreaPlace Place;

static void place_point(const NavAreaGraph *ag, const float p[3], bool has_z, Place *out)
{
    area_place_point(ag, p, has_z, ROUTE_SNAP_RADIUS, out);
}

/* }======= */

/* {======= the run ======= */

typedef struct RouteLink {
    uint32_t reach;
    uint32_t elapsed; /* from the start to the end of this link, hundredths */
} RouteLink;

typedef struct RouteRun {
    const RouteArgs *a;
    const NavWorld *w;
    const NavAreaGraph *ag;
    double graph_ms; /* compiling or loading the area graph */
    Place from, to;
    NavRoute route;      /* .time: to enter the goal's area */
    uint32_t point_time; /* to the goal point: the route, then across the goal's area */
    RouteLink *links;
    int link_count;
    double route_us;
    NavRouterStats stats; /* right after the route */
    const char *png_written;
    int png_w, png_h;
    float png_cell_px;
} RouteRun;

static bool reachable(const RouteRun *r) { return r->route.time != ROUTE_UNREACHABLE; }

/* }======= */

/* {======= picture ======= */

static NavStatus write_picture(NavRouter *router, RouteRun *r, const uint32_t *links, NavError *err)
{
    RenderRoute rr = { .router = router,
                       .goal_area = r->to.area,
                       .flags = r->a->flags,
                       .links = links,
                       .link_count = r->link_count,
                       .reachable = reachable(r),
                       .storey = r->a->storey };
    memcpy(rr.from, r->from.point, sizeof rr.from);
    memcpy(rr.to, r->to.point, sizeof rr.to);
    const CliView *v = &r->a->view;
    RenderGraphView gv = { .level = r->a->storey - 1, .box_set = v->box_set, .px_per_m = v->scale, .legend = true };
    memcpy(gv.box, v->box, sizeof gv.box);
    RenderGraphPicture drawn;
    NavImage *img = render_route_view(&rr, &gv, &drawn, err);
    if (!img) return NAV_FAILURE | err->status;
    NavStatus st = image_write_png(img, r->a->png, err);
    r->png_w = img->width;
    r->png_h = img->height;
    r->png_cell_px = drawn.px_per_m * world_cell_size(r->w);
    image_destroy(img);
    return st;
}

/* }======= */

/* {======= output ======= */

typedef struct NameList {
    FILE *out;
    bool any;
} NameList;

static void print_name(void *user, const char *name)
{
    NameList *l = user;
    fprintf(l->out, "%s%s", l->any ? ", " : "", name);
    l->any = true;
}

static const char *plural(uint32_t n) { return n == 1 ? "" : "s"; }

static void write_place_text(FILE *o, const char *label, const Place *p)
{
    fprintf(o, "%-10s (%.2f, %.2f, %.2f) m in area %u", label, (double)p->point[0], (double)p->point[1],
            (double)p->point[2], p->area);
    if (p->nearest)
        fprintf(o, " (the nearest floor to (%.2f, %.2f, %.2f))", (double)p->asked[0], (double)p->asked[1],
                (double)p->asked[2]);
    fprintf(o, "\n");
}

static void write_text(const CliContext *cx, const RouteRun *r)
{
    FILE *o = cx->out;
    const RouteArgs *a = r->a;
    NavAreaStats gs;
    area_stats(r->ag, &gs);
    fprintf(o, "map        %s (%s)\n", world_name(r->w), a->map);
    fprintf(o, "class      %s\n", area_class(r->ag)->name);
    fprintf(o, "graph      %u area%s, %u link%s, %u cluster%s; %s in %.2f ms\n", gs.areas, plural(gs.areas), gs.reaches,
            plural(gs.reaches), gs.clusters, plural(gs.clusters), a->nav ? "loaded" : "compiled", r->graph_ms);
    fprintf(o, "flags      ");
    each_flag_name(a->flags, print_name, &(NameList){ o, false });
    fprintf(o, "\n");
    write_place_text(o, "from", &r->from);
    write_place_text(o, "to", &r->to);
    if (!reachable(r)) {
        fprintf(o, "time       unreachable: no route from area %u into area %u with these flags\n", r->from.area,
                r->to.area);
    } else {
        fprintf(o, "time       %.2f s (%u hundredths) to the goal point; %.2f s to enter its area\n",
                (double)r->point_time / 100.0, r->point_time, (double)r->route.time / 100.0);
        fprintf(o, "links      %d%s\n", r->link_count, r->link_count == 0 ? " (the start is in the goal area)" : "");
        for (int k = 0; k < r->link_count; k++) {
            const NavReach *l = area_reach(r->ag, r->links[k].reach);
            fprintf(o,
                    "  %3d  link %-5u %-14s area %u -> %u  (%.2f, %.2f, %.2f) -> (%.2f, %.2f, %.2f)  %.2f s, "
                    "at %.2f s\n",
                    k, r->links[k].reach, area_travel_name((NavTravelType)l->type), l->from, l->to, (double)l->start[0],
                    (double)l->start[1], (double)l->start[2], (double)l->end[0], (double)l->end[1], (double)l->end[2],
                    (double)l->time / 100.0, (double)r->links[k].elapsed / 100.0);
        }
    }
    const NavRouterStats *s = &r->stats;
    fprintf(o,
            "router     %u cache%s (%u area, %u portal, %u overlay), %zu cache bytes of %zu; %llu hits, "
            "%llu misses, %llu fallbacks; query %.1f us\n",
            s->caches, plural(s->caches), s->area_caches, s->portal_caches, s->overlay_caches, s->cache_bytes,
            s->cap_bytes, (unsigned long long)s->hits, (unsigned long long)s->misses, (unsigned long long)s->fallbacks,
            r->route_us);
    if (r->png_written)
        fprintf(o, "png        %s (%d x %d px, %g px per cell)\n", r->png_written, r->png_w, r->png_h,
                (double)r->png_cell_px);
}

/* Metres to the millimetre, so floats print short. */
static double mm(float v) { return round((double)v * 1000.0) / 1000.0; }

/* [x, y, z] on one line, even in a pretty document. */
static void json_point(JsonWriter *j, const float p[3])
{
    json_array_begin(j);
    bool pretty = j->pretty;
    j->pretty = false;
    for (int k = 0; k < 3; k++) json_number(j, mm(p[k]));
    json_array_end(j);
    j->pretty = pretty;
}

static void json_place(JsonWriter *j, const Place *p)
{
    json_object_begin(j);
    json_key(j, "point");
    json_point(j, p->point);
    json_key(j, "area");
    json_int(j, p->area);
    json_key(j, "asked");
    json_point(j, p->asked);
    json_key(j, "nearest");
    json_bool(j, p->nearest);
    json_object_end(j);
}

static void json_flag_name(void *user, const char *name) { json_string(user, name); }

static void write_json(const CliContext *cx, const RouteRun *r)
{
    const RouteArgs *a = r->a;
    const NavRouterStats *s = &r->stats;
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, a->map);
    json_key(&j, "name");
    json_string(&j, world_name(r->w));
    json_key(&j, "class");
    json_string(&j, area_class(r->ag)->name);
    json_key(&j, "nav");
    if (a->nav) json_string(&j, a->nav);
    else json_null(&j);
    json_key(&j, "graph_ms");
    json_number(&j, r->graph_ms);
    json_key(&j, "from");
    json_place(&j, &r->from);
    json_key(&j, "to");
    json_place(&j, &r->to);
    json_key(&j, "flags");
    json_array_begin(&j);
    each_flag_name(a->flags, json_flag_name, &j);
    json_array_end(&j);
    json_key(&j, "travel_flags");
    json_int(&j, a->flags);
    json_key(&j, "reachable");
    json_bool(&j, reachable(r));
    json_key(&j, "time");
    if (reachable(r)) json_int(&j, r->point_time);
    else json_null(&j);
    json_key(&j, "seconds");
    if (reachable(r)) json_number(&j, (double)r->point_time / 100.0);
    else json_null(&j);
    json_key(&j, "enter_time");
    if (reachable(r)) json_int(&j, r->route.time);
    else json_null(&j);
    json_key(&j, "links");
    json_array_begin(&j);
    for (int k = 0; k < r->link_count; k++) {
        const NavReach *l = area_reach(r->ag, r->links[k].reach);
        json_object_begin(&j);
        json_key(&j, "reach");
        json_int(&j, r->links[k].reach);
        json_key(&j, "type");
        json_string(&j, area_travel_name((NavTravelType)l->type));
        json_key(&j, "from_area");
        json_int(&j, l->from);
        json_key(&j, "to_area");
        json_int(&j, l->to);
        json_key(&j, "start");
        json_point(&j, l->start);
        json_key(&j, "end");
        json_point(&j, l->end);
        json_key(&j, "time");
        json_int(&j, l->time);
        json_key(&j, "elapsed");
        json_int(&j, r->links[k].elapsed);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "route_us");
    json_number(&j, r->route_us);
    json_key(&j, "router");
    json_object_begin(&j);
    json_key(&j, "caches");
    json_int(&j, s->caches);
    json_key(&j, "area_caches");
    json_int(&j, s->area_caches);
    json_key(&j, "portal_caches");
    json_int(&j, s->portal_caches);
    json_key(&j, "overlay_caches");
    json_int(&j, s->overlay_caches);
    json_key(&j, "cache_bytes");
    json_int(&j, (int64_t)s->cache_bytes);
    json_key(&j, "cap_bytes");
    json_int(&j, (int64_t)s->cap_bytes);
    json_key(&j, "fixed_bytes");
    json_int(&j, (int64_t)s->fixed_bytes);
    json_key(&j, "hits");
    json_int(&j, (int64_t)s->hits);
    json_key(&j, "misses");
    json_int(&j, (int64_t)s->misses);
    json_key(&j, "fallbacks");
    json_int(&j, (int64_t)s->fallbacks);
    json_object_end(&j);
    if (r->png_written) {
        json_key(&j, "png");
        json_string(&j, r->png_written);
    }
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

static int place_or_fail(const CliContext *cx, const NavAreaGraph *ag, const char *opt, const float p[3], bool has_z,
                         Place *out)
{
    /* Off the map, in a wall or over a void: bad input, with the nearest floor. */
    float on[3], near[3];
    const char *why = "";
    if (!cli_floor_point(area_world(ag), p, has_z, on, near, &why)) {
        fprintf(cx->err, "navbot route: %s ", opt);
        if (has_z) fprintf(cx->err, "%g,%g,%g", (double)p[0], (double)p[1], (double)p[2]);
        else fprintf(cx->err, "%g,%g", (double)p[0], (double)p[1]);
        fprintf(cx->err, ": %s; the nearest floor is at %.2f,%.2f,%.2f\n", why, (double)near[0], (double)near[1],
                (double)near[2]);
        return CLI_BAD_INPUT;
    }
    place_point(ag, p, has_z, out);
    if (out->area != NAV_NO_AREA) return CLI_OK;
    fprintf(cx->err, "navbot route: %s ", opt);
    if (has_z) fprintf(cx->err, "%g,%g,%g", (double)p[0], (double)p[1], (double)p[2]);
    else fprintf(cx->err, "%g,%g", (double)p[0], (double)p[1]);
    fprintf(cx->err,
            ": no area of class %s there or within %g m (a wall, a void, outside the map, or no floor at that "
            "height)\n",
            area_class(ag)->name, (double)ROUTE_SNAP_RADIUS);
    return CLI_BAD_INPUT;
}

static int run_route(const CliContext *cx, int argc, char **argv)
{
    RouteArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;

    NavError e;
    nav_error_clear(&e);
    NavWorld *w = cli_load_map(cx, "route", a.map, &e);
    if (!w) return CLI_BAD_INPUT;
    int level = -1;
    if (a.level && !a.png) {
        world_destroy(w);
        return cli_usage_error(cx, &cli_cmd_route, "--level picks the storey --png draws: give --png FILE too");
    }
    if (a.view_given && !a.png) {
        world_destroy(w);
        return cli_usage_error(cx, &cli_cmd_route,
                               "--view, --px-per-m and --width shape the picture --png draws: give --png FILE too");
    }
    if ((rc = cli_resolve_level(cx, "route", a.level, w, &level)) != CLI_OK ||
        (rc = cli_view_check(cx, &cli_cmd_route, &a.view, w, 0)) != CLI_OK) {
        world_destroy(w);
        return rc;
    }
    a.storey = level + 1;

    NavAreaGraph *ag = NULL;
    NavRouter *router = NULL;
    RouteRun r = { .a = &a, .w = w };
    uint32_t cap;
    uint32_t *links = NULL;
    uint64_t t0;
    int cls;

    if ((cls = cli_find_class(cx, "route", w, a.map, a.cls_name, &rc)) < 0) goto done;

    t0 = timer_now_ns();
    ag = a.nav ? area_load(w, cls, a.nav, &e) : area_build(w, cls, NULL, &e);
    r.graph_ms = timer_ms_since(t0);
    if (!ag) {
        cli_print_error(cx, "route", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    r.ag = ag;

    if ((rc = place_or_fail(cx, ag, "--from", a.from, a.from_z, &r.from)) != CLI_OK) goto done;
    if ((rc = place_or_fail(cx, ag, "--to", a.to, a.to_z, &r.to)) != CLI_OK) goto done;

    router = router_create(ag, NULL, &e);
    if (!router) {
        cli_print_error(cx, "route", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }

    /* A route takes each link at most once. */
    cap = area_reach_count(ag);
    links = nav_malloc((cap ? cap : 1) * sizeof *links);
    r.links = nav_malloc((cap ? cap : 1) * sizeof *r.links);
    if (!links || !r.links) {
        fprintf(cx->err, "navbot route: out of memory for %u links\n", cap);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    t0 = timer_now_ns();
    router_route_links(router, r.from.area, r.from.point, r.to.area, a.flags, links, (int)cap, &r.link_count, &r.route);
    r.route_us = (double)(timer_now_ns() - t0) / 1e3;
    if (r.link_count > (int)cap) r.link_count = (int)cap;
    if (!reachable(&r)) r.link_count = 0;
    r.point_time = r.route.time;
    if (reachable(&r)) {
        /* The last leg: from where the route enters the goal's area (or the
        ** start, already in it) straight to the goal point; the area is
        ** convex. */
        const float *entry = r.link_count ? area_reach(ag, links[r.link_count - 1])->end : r.from.point;
        r.point_time += area_time_between(ag, r.to.area, entry, r.to.point);
    }
    for (int k = 0; k < r.link_count; k++) {
        /* Time left from the end of the link: the rest is behind. */
        NavRoute left;
        r.links[k].reach = links[k];
        r.links[k].elapsed = r.route.time;
        if (NAV_SUCCEEDED(
                router_next(router, links[k], r.to.area, a.flags | area_get(ag, r.from.area)->travel_flags, &left)) &&
            left.time <= r.route.time)
            r.links[k].elapsed = r.route.time - left.time;
    }
    router_stats(router, &r.stats);

    if (a.png) {
        if (NAV_FAILED(write_picture(router, &r, links, &e))) {
            cli_print_error(cx, "route", &e);
            rc = CLI_BAD_INPUT;
            goto done;
        }
        r.png_written = a.png;
    }
    if (a.json) write_json(cx, &r);
    else write_text(cx, &r);

done:
    nav_free(links);
    nav_free(r.links);
    router_destroy(router);
    area_destroy(ag);
    world_destroy(w);
    return rc;
}

const CliCommand cli_cmd_route = {
    .name = "route",
    .summary = "Route between two points over the area graph and print or draw it",
    .usage = "navbot route MAP --from X,Y[,Z] --to X,Y[,Z] [--flags LIST] [--class NAME] [--nav FILE]\n"
             "                    [--json] [--png FILE [--level N|NAME] [--view X0,Y0,X1,Y1]\n"
             "                    [--px-per-m N | --width N]]",
    .help = "Compiles MAP's area graph for the class (with its elevators, teleporters\n"
            "and jump pads) or loads it with --nav, places --from and --to in areas\n"
            "and asks the router for the fastest route between them. Prints the start\n"
            "and goal areas, the travel time to the goal point (the route into the goal's\n"
            "area, then straight across it, from the class's physics; the time to enter\n"
            "the area is given too) and each link of the route: its index, travel type, the\n"
            "areas it leads from and to, where it starts and lands, its own time and\n"
            "the time elapsed at its end; then the router's caches. A goal the flags\n"
            "cannot reach is an answer, not an error: it is printed and exits 0.\n"
            "\n"
            "Points are in metres, x east, y north, z up. With Z left out a point is\n"
            "on the lowest floor at X,Y that belongs to an area, as every command reads\n"
            "a point. A point off the map, in a wall or over a void is bad input (the\n"
            "message gives the nearest floor); one on a floor but not over an area\n"
            "moves to the nearest floor of one within 2 m (the output says so).\n"
            "\n"
            "options:\n"
            "  --from X,Y[,Z]  start point, metres (required)\n"
            "  --to X,Y[,Z]    goal point, metres (required); the route ends in its area\n"
            "  --flags LIST    what the mover may do, comma separated: the travel types\n"
            "                  walk, crouch, barrier_jump, walk_off_ledge, jump, climb,\n"
            "                  ladder, swim, water_jump, teleport, elevator, jump_pad;\n"
            "                  the contents water, lava, slime, donotenter; fly (no\n"
            "                  ledge penalty); default (every travel type and water,\n"
            "                  the default). Standing in or going to water, lava or\n"
            "                  slime allows it.\n"
            "  --class NAME    mover class (default: the map's first class)\n"
            "  --nav FILE      load the area graph from a compiled file (navbot compile)\n"
            "                  instead of compiling it; a corrupt or stale file is refused\n"
            "  --json          print one JSON object: map, class, from and to (point,\n"
            "                  area), flags, reachable, time (to the goal point, hundredths\n"
            "                  of a second), seconds, enter_time (hundredths, to enter the\n"
            "                  goal's area), links (reach, type, from_area, to_area, start,\n"
            "                  end, time, elapsed), router (cache statistics)\n"
            "  --png FILE      draw the area graph (as info --png does) with each area\n"
            "                  tinted by its travel time to the goal, red near to blue\n"
            "                  far (unreachable areas untinted), the route over it\n"
            "                  (walks white, links in their travel type's colour), a\n"
            "                  green disc at the start and a blue one at the goal; under\n"
            "                  the map a legend (the route's travel types, the markers,\n"
            "                  the heat map's scale in seconds, the links and areas), a\n"
            "                  scale bar in metres and a north arrow\n"
            "  --level N|NAME  with --png, draw one storey of a stacked map (by number\n"
            "                  from 1 or by layer name), as info --png --level does\n"
            "  --view X0,Y0,X1,Y1  with --png, draw that part of the map (corners in\n"
            "                  metres: south-west, north-east)\n"
            "  --px-per-m N, --width N  with --png, the picture's scale or width, as in\n"
            "                  info --png\n"
            "\n"
            "Exit status: 0 a route was asked (reachable or not), 1 the map, the .nav\n"
            "file or a point is bad (no area near --from or --to) or the PNG cannot be\n"
            "written, 2 bad usage: a missing or malformed option, an unknown --flags\n"
            "name or class.\n"
            "\n"
            "examples:\n"
            "  navbot route maps/gauntlet.lua --from 10,18 --to 5,5 --flags walk,teleport\n"
            "  navbot route maps/gauntlet.lua --from 2,28 --to 3.5,20,3.5 --png /tmp/flag.png\n"
            "  navbot route maps/tower.lua --from 1.5,13.5 --to 15.5,11.5,12 --json\n"
            "  navbot route maps/valley.lua --from 61.5,107.5 --to 40,107.5 --png /tmp/town.png --view 30,80,95,135\n",
    .run = run_route,
};

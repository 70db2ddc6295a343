/*
** cmd_path.c — `navbot path MAP --from X,Y --to X,Y ...`: one grid search,
** its waypoints, flags and counters, optionally smoothed, as text, JSON or
** a PNG picture.
*/
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "core/image.h"
#include "core/json.h"
#include "core/timer.h"
#include "grid/grid.h"
#include "grid/grid_search.h"
#include "map/map.h"

#define PI_F 3.14159265358979f

typedef struct PathArgs {
    const char *map;
    const char *cls_name; /* NULL: the map's first class */
    bool has_from, has_to;
    float fx, fy, tx, ty; /* metres */
    const char *goal_text;
    GridGoalType goal_type;
    float goal_r;         /* circles, metres */
    float goal_w, goal_h; /* squares: full sizes, metres */
    float goal_angle_deg;
    bool astar, smooth, json;
    uint32_t max_nodes;
    const char *png;
    GridClearance clearance;
} PathArgs;

/* {======= argument parsing ======= */


/* count numbers separated by commas, and nothing after them. */
static bool parse_numbers(const char *s, float *out, int count)
{
    for (int k = 0; k < count; k++) {
        if (k > 0) {
            if (*s != ',') return false;
            s++;
        }
        if (!cli_parse_number(&s, &out[k])) return false;
    }
    return *s == '\0';
}


/* --goal point | circle:R | square:W,H,ANGLE | inv-circle:R | inv-square:W,H,ANGLE */
static bool parse_goal(const char *s, PathArgs *a)
{
    float v[3];
    if (strcmp(s, "point") == 0) {
        a->goal_type = GRID_GOAL_POINT;
        return true;
    }
    bool inv = strncmp(s, "inv-", 4) == 0;
    const char *kind = inv ? s + 4 : s;
    if (strncmp(kind, "circle:", 7) == 0) {
        if (!parse_numbers(kind + 7, v, 1) || v[0] < 0.0f) return false;
        a->goal_type = inv ? GRID_GOAL_INV_CIRCLE : GRID_GOAL_CIRCLE;
        a->goal_r = v[0];
        return true;
    }
    if (strncmp(kind, "square:", 7) == 0) {
        if (!parse_numbers(kind + 7, v, 3) || v[0] < 0.0f || v[1] < 0.0f) return false;
        a->goal_type = inv ? GRID_GOAL_INV_SQUARE : GRID_GOAL_SQUARE;
        a->goal_w = v[0];
        a->goal_h = v[1];
        a->goal_angle_deg = v[2];
        return true;
    }
    return false;
}

static int parse_args(const CliContext *cx, int argc, char **argv, PathArgs *a)
{
    const CliCommand *cmd = &cli_cmd_path;
    memset(a, 0, sizeof *a);
    a->goal_type = GRID_GOAL_POINT;
    a->goal_text = "point";
    a->clearance = GRID_CLEARANCE_ROUND;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        int r;
        if (strcmp(arg, "--astar") == 0) a->astar = true;
        else if (strcmp(arg, "--smooth") == 0) a->smooth = true;
        else if (strcmp(arg, "--json") == 0) a->json = true;
        else if ((r = cli_take_value("--class", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--class needs a class name");
            a->cls_name = val;
        } else if ((r = cli_take_value("--from", argc, argv, &i, &val)) != 0 ||
                   (r = cli_take_value("--to", argc, argv, &i, &val)) != 0) {
            bool from = strncmp(arg, "--from", 6) == 0;
            const char *opt = from ? "--from" : "--to";
            float v[2];
            if (r < 0) return cli_usage_error(cx, cmd, "%s needs a point X,Y in metres", opt);
            if (!parse_numbers(val, v, 2))
                return cli_usage_error(cx, cmd, "%s '%s' is not a point X,Y in metres (such as 10.5,20.5)", opt, val);
            if (from) {
                a->fx = v[0];
                a->fy = v[1];
                a->has_from = true;
            } else {
                a->tx = v[0];
                a->ty = v[1];
                a->has_to = true;
            }
        } else if ((r = cli_take_value("--goal", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--goal needs a shape such as circle:5");
            if (!parse_goal(val, a))
                return cli_usage_error(cx, cmd,
                                       "--goal '%s' is not one of point, circle:R, square:W,H,ANGLE, "
                                       "inv-circle:R, inv-square:W,H,ANGLE (metres, degrees; sizes >= 0)",
                                       val);
            a->goal_text = val;
        } else if ((r = cli_take_value("--max-nodes", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--max-nodes needs a number of nodes (0: no budget)");
            if (!cli_parse_u32(val, &a->max_nodes))
                return cli_usage_error(cx, cmd, "--max-nodes '%s' is not a whole number from 0 to %u", val, UINT32_MAX);
        } else if ((r = cli_take_value("--png", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !val[0]) return cli_usage_error(cx, cmd, "--png needs a file name");
            a->png = val;
        } else if ((r = cli_take_value("--clearance", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, cmd, "--clearance needs round or square");
            if (strcmp(val, "round") == 0) a->clearance = GRID_CLEARANCE_ROUND;
            else if (strcmp(val, "square") == 0) a->clearance = GRID_CLEARANCE_SQUARE;
            else return cli_usage_error(cx, cmd, "--clearance '%s' is not round or square", val);
        } else if (arg[0] == '-' && arg[1]) {
            return cli_usage_error(cx, cmd, "unknown option '%s'", arg);
        } else if (!a->map) {
            a->map = arg;
        } else {
            return cli_usage_error(cx, cmd, "one map at a time (got '%s' and '%s')", a->map, arg);
        }
    }
    if (!a->map) return cli_usage_error(cx, cmd, "which map? give a path such as maps/arena.lua");
    if (!a->has_from) return cli_usage_error(cx, cmd, "missing --from X,Y (the start, in metres)");
    if (!a->has_to) return cli_usage_error(cx, cmd, "missing --to X,Y (the goal, in metres)");
    return CLI_OK;
}

/* }======= */

static const struct {
    uint32_t bit;
    const char *word;
} FLAG_WORDS[] = {
    { GRID_PATH_FOUND, "found" },           { GRID_PATH_PARTIAL, "partial" },
    { GRID_PATH_GOAL_MOVED, "goal moved" }, { GRID_PATH_START_MOVED, "start moved" },
    { GRID_PATH_NO_PATH, "no path" },       { GRID_PATH_TRUNCATED, "truncated" },
};

static void print_flags(FILE *o, uint32_t flags)
{
    bool any = false;
    for (size_t k = 0; k < NAV_ARRAY_COUNT(FLAG_WORDS); k++) {
        if (!(flags & FLAG_WORDS[k].bit)) continue;
        fprintf(o, "%s%s", any ? ", " : "", FLAG_WORDS[k].word);
        any = true;
    }
    if (flags & ~0x3fu) fprintf(o, "%sunknown 0x%x", any ? ", " : "", (unsigned)(flags & ~0x3fu));
    else if (!any) fprintf(o, "none");
}

static void describe_goal(FILE *o, const PathArgs *a)
{
    switch (a->goal_type) {
    case GRID_GOAL_POINT: fprintf(o, "point"); break;
    case GRID_GOAL_CIRCLE:
    case GRID_GOAL_INV_CIRCLE:
        fprintf(o, "%s, radius %g m", a->goal_type == GRID_GOAL_CIRCLE ? "circle" : "outside a circle",
                (double)a->goal_r);
        break;
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE:
        fprintf(o, "%s %g x %g m at %g degrees", a->goal_type == GRID_GOAL_SQUARE ? "square" : "outside a square",
                (double)a->goal_w, (double)a->goal_h, (double)a->goal_angle_deg);
        break;
    }
}

/* {======= picture ======= */

typedef struct Canvas {
    NavImage *img;
    int scale;  /* pixels per cell */
    int height; /* grid height in cells */
    float cell; /* cell size, metres */
} Canvas;

/* Pixel of a point in cell units (x east, y north). */
static void cell_units_to_px(const Canvas *c, float x, float y, float *px, float *py)
{
    *px = x * (float)c->scale;
    *py = ((float)c->height - y) * (float)c->scale;
}

static void tint_cell(const Canvas *c, int x, int y, NavColor col)
{
    image_fill_rect(c->img, x * c->scale, (c->height - 1 - y) * c->scale, c->scale, c->scale, col);
}

static void visit_cell(void *user, int x, int y, bool closed)
{
    const Canvas *c = user;
    tint_cell(c, x, y, closed ? nav_rgba(60, 130, 255, 120) : nav_rgba(255, 200, 40, 130));
}

static void draw_polyline(const Canvas *c, const GridWaypoint *p, int n, float thick, NavColor col)
{
    for (int k = 0; k + 1 < n; k++) {
        float x0, y0, x1, y1;
        cell_units_to_px(c, (float)p[k].x + 0.5f, (float)p[k].y + 0.5f, &x0, &y0);
        cell_units_to_px(c, (float)p[k + 1].x + 0.5f, (float)p[k + 1].y + 0.5f, &x1, &y1);
        image_draw_line(c->img, x0, y0, x1, y1, thick, col);
    }
}

static void draw_marker(const Canvas *c, float px, float py, float r, NavColor col)
{
    image_fill_circle(c->img, px, py, r + 1.5f, nav_rgba(0, 0, 0, 255));
    image_fill_circle(c->img, px, py, r, col);
}

static NavStatus write_picture(const NavGrid *g, const GridSearch *s, int cls, const GridGoal *goal, const PathArgs *a,
                               const GridPath *path, const GridPath *smooth, int *out_w, int *out_h, int *out_scale,
                               NavError *err)
{
    int w = grid_width(g), h = grid_height(g);
    int longer = NAV_MAX(w, h);
    int scale = NAV_MAX(1, 1024 / longer);
    if ((int64_t)w * scale > NAV_IMAGE_MAX_SIDE || (int64_t)h * scale > NAV_IMAGE_MAX_SIDE)
        return nav_error_set(err, NAV_E_PARAM, a->png, 0, 0, NULL, "map of %d x %d cells is too large to draw", w, h);
    NavImage *img = image_create(w * scale, h * scale, err);
    if (!img) return NAV_FAILURE | NAV_E_NOMEM;
    Canvas c = { img, scale, h, grid_cell_size(g) };

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            NavColor col = grid_passable(g, cls, x, y)          ? nav_rgba(236, 236, 228, 255)
                           : grid_terrain_blocked(g, cls, x, y) ? nav_rgba(44, 48, 58, 255)
                                                                : nav_rgba(140, 140, 148, 255);
            tint_cell(&c, x, y, col);
        }
    grid_search_visit(s, visit_cell, &c);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (grid_goal_contains(g, goal, x, y)) tint_cell(&c, x, y, nav_rgba(230, 40, 210, 110));

    float thick = fmaxf(2.0f, fminf(0.5f * (float)scale, 6.0f));
    float mark = fmaxf(3.5f, fminf(0.9f * (float)scale, 12.0f));
    /* The smoothed path under the path: it shows where smoothing cut a corner. */
    if (smooth)
        draw_polyline(&c, smooth->points, smooth->count, fmaxf(1.0f, thick * 0.5f), nav_rgba(120, 20, 170, 255));
    draw_polyline(&c, path->points, path->count, thick, nav_rgba(225, 45, 25, 255));

    float px, py;
    /* The requested goal centre: a black cross. */
    cell_units_to_px(&c, a->tx / c.cell, a->ty / c.cell, &px, &py);
    image_draw_line(img, px - mark, py - mark, px + mark, py + mark, 2.0f, nav_rgba(0, 0, 0, 255));
    image_draw_line(img, px - mark, py + mark, px + mark, py - mark, 2.0f, nav_rgba(0, 0, 0, 255));
    /* The requested start: green; the path's end: blue. */
    cell_units_to_px(&c, a->fx / c.cell, a->fy / c.cell, &px, &py);
    draw_marker(&c, px, py, mark, nav_rgba(30, 180, 60, 255));
    if (path->count > 0) {
        const GridWaypoint *e = &path->points[path->count - 1];
        cell_units_to_px(&c, (float)e->x + 0.5f, (float)e->y + 0.5f, &px, &py);
        draw_marker(&c, px, py, mark, nav_rgba(40, 80, 230, 255));
    }

    NavStatus st = image_write_png(img, a->png, err);
    *out_w = img->width;
    *out_h = img->height;
    *out_scale = scale;
    image_destroy(img);
    return st;
}

/* }======= */

/* {======= output ======= */

typedef struct PathRun {
    const PathArgs *a;
    const NavWorld *w;
    const NavGrid *g;
    const GridSearch *s;
    int cls;
    int sx, sy, tcx, tcy; /* start cell; the cell of --to (-1 outside) */
    GridGoal goal;
    GridPath path;
    GridPath smooth; /* count < 0: not asked */
    double build_ms, time_us;
    const char *png_written;
    int png_w, png_h, png_scale;
} PathRun;

static void write_waypoints_text(FILE *o, const NavGrid *g, const GridPath *p)
{
    for (int k = 0; k < p->count; k++) {
        float mx, my;
        grid_cell_center(g, p->points[k].x, p->points[k].y, &mx, &my);
        fprintf(o, "  %4d  cell (%d, %d)  at (%.2f, %.2f) m\n", k, p->points[k].x, p->points[k].y, (double)mx,
                (double)my);
    }
}

static void write_text(const CliContext *cx, const PathRun *r)
{
    FILE *o = cx->out;
    const PathArgs *a = r->a;
    float cs = grid_cell_size(r->g);
    const NavClass *k = grid_class(r->g, r->cls);
    GridStats gs;
    grid_stats(r->g, &gs);
    fprintf(o, "map        %s (%s), %d x %d cells of %g m\n", world_name(r->w), a->map, grid_width(r->g),
            grid_height(r->g), (double)cs);
    fprintf(o, "class      %s (radius %g m), %s clearance\n", k->name, (double)k->radius,
            a->clearance == GRID_CLEARANCE_SQUARE ? "square" : "round");
    fprintf(o, "grid       built in %.2f ms (hierarchy included), %zu bytes; search state %zu bytes\n", r->build_ms,
            gs.bytes, grid_search_memory(r->s));
    fprintf(o, "from       (%g, %g) m = cell (%d, %d)\n", (double)a->fx, (double)a->fy, r->sx, r->sy);
    fprintf(o, "to         (%g, %g) m", (double)a->tx, (double)a->ty);
    if (r->tcx >= 0) fprintf(o, " = cell (%d, %d)", r->tcx, r->tcy);
    else fprintf(o, " (outside the map)");
    fprintf(o, "\ngoal       ");
    describe_goal(o, a);
    fprintf(o, "\nsearch     %s", a->astar ? "A*" : "JPS");
    if (a->max_nodes) fprintf(o, ", at most %u nodes", a->max_nodes);
    fprintf(o, "\nresult     ");
    print_flags(o, r->path.flags);
    fprintf(o, "\nlength     %.4f cells = %.4f m\n", r->path.length, r->path.length * cs);
    fprintf(o, "nodes      %u expanded, %u generated, %u touched\n", r->path.expanded, r->path.generated,
            r->path.touched);
    fprintf(o, "time       %.1f us\n", r->time_us);
    fprintf(o, "waypoints  %d\n", r->path.count);
    write_waypoints_text(o, r->g, &r->path);
    if (r->smooth.count >= 0) {
        fprintf(o, "smoothed   %d waypoints, length %.4f cells = %.4f m\n", r->smooth.count, r->smooth.length,
                r->smooth.length * cs);
        write_waypoints_text(o, r->g, &r->smooth);
    }
    if (r->png_written)
        fprintf(o, "png        %s (%d x %d px, %d px per cell)\n", r->png_written, r->png_w, r->png_h, r->png_scale);
}

/* [x, y] on one line, even in a pretty document. */
static void json_pair(JsonWriter *j, double x, double y)
{
    json_array_begin(j);
    bool pretty = j->pretty;
    j->pretty = false;
    json_number(j, x);
    json_number(j, y);
    json_array_end(j);
    j->pretty = pretty;
}

static void json_waypoints(JsonWriter *j, const GridPath *p)
{
    json_array_begin(j);
    for (int k = 0; k < p->count; k++) json_pair(j, p->points[k].x, p->points[k].y);
    json_array_end(j);
}

static void write_json(const CliContext *cx, const PathRun *r)
{
    const PathArgs *a = r->a;
    float cs = grid_cell_size(r->g);
    GridStats gs;
    grid_stats(r->g, &gs);
    JsonWriter j;
    json_init(&j, cx->out, true);
    json_object_begin(&j);
    json_key(&j, "map");
    json_string(&j, a->map);
    json_key(&j, "name");
    json_string(&j, world_name(r->w));
    json_key(&j, "width");
    json_int(&j, grid_width(r->g));
    json_key(&j, "height");
    json_int(&j, grid_height(r->g));
    json_key(&j, "cell_size");
    json_number(&j, cs);
    json_key(&j, "class");
    json_string(&j, grid_class(r->g, r->cls)->name);
    json_key(&j, "clearance");
    json_string(&j, a->clearance == GRID_CLEARANCE_SQUARE ? "square" : "round");
    json_key(&j, "algorithm");
    json_string(&j, a->astar ? "astar" : "jps");
    json_key(&j, "max_nodes");
    json_int(&j, a->max_nodes);
    json_key(&j, "from");
    json_pair(&j, a->fx, a->fy);
    json_key(&j, "from_cell");
    json_pair(&j, r->sx, r->sy);
    json_key(&j, "to");
    json_pair(&j, a->tx, a->ty);
    json_key(&j, "to_cell");
    if (r->tcx >= 0) json_pair(&j, r->tcx, r->tcy);
    else json_null(&j);
    json_key(&j, "goal");
    json_object_begin(&j);
    json_key(&j, "type");
    json_string(&j, grid_goal_type_name(a->goal_type));
    json_key(&j, "spec");
    json_string(&j, a->goal_text);
    json_key(&j, "x");
    json_number(&j, a->tx);
    json_key(&j, "y");
    json_number(&j, a->ty);
    if (a->goal_type == GRID_GOAL_CIRCLE || a->goal_type == GRID_GOAL_INV_CIRCLE) {
        json_key(&j, "r");
        json_number(&j, a->goal_r);
    } else if (a->goal_type == GRID_GOAL_SQUARE || a->goal_type == GRID_GOAL_INV_SQUARE) {
        json_key(&j, "w");
        json_number(&j, a->goal_w);
        json_key(&j, "h");
        json_number(&j, a->goal_h);
        json_key(&j, "angle_deg");
        json_number(&j, a->goal_angle_deg);
    }
    json_object_end(&j);
    json_key(&j, "found");
    json_bool(&j, (r->path.flags & GRID_PATH_FOUND) != 0);
    json_key(&j, "flags");
    json_array_begin(&j);
    for (size_t k = 0; k < NAV_ARRAY_COUNT(FLAG_WORDS); k++)
        if (r->path.flags & FLAG_WORDS[k].bit) json_string(&j, FLAG_WORDS[k].word);
    json_array_end(&j);
    json_key(&j, "length");
    json_number(&j, r->path.length);
    json_key(&j, "length_m");
    json_number(&j, r->path.length * cs);
    json_key(&j, "waypoints");
    json_waypoints(&j, &r->path);
    json_key(&j, "expanded");
    json_int(&j, r->path.expanded);
    json_key(&j, "generated");
    json_int(&j, r->path.generated);
    json_key(&j, "touched");
    json_int(&j, r->path.touched);
    json_key(&j, "time_us");
    json_number(&j, r->time_us);
    json_key(&j, "build_ms");
    json_number(&j, r->build_ms);
    json_key(&j, "grid_bytes");
    json_int(&j, (int64_t)gs.bytes);
    json_key(&j, "search_bytes");
    json_int(&j, (int64_t)grid_search_memory(r->s));
    if (r->smooth.count >= 0) {
        json_key(&j, "smoothed");
        json_object_begin(&j);
        json_key(&j, "length");
        json_number(&j, r->smooth.length);
        json_key(&j, "length_m");
        json_number(&j, r->smooth.length * cs);
        json_key(&j, "waypoints");
        json_waypoints(&j, &r->smooth);
        json_object_end(&j);
    }
    if (r->png_written) {
        json_key(&j, "png");
        json_string(&j, r->png_written);
    }
    json_object_end(&j);
    json_finish(&j);
}

/* }======= */

static int run_path(const CliContext *cx, int argc, char **argv)
{
    PathArgs a;
    int rc = parse_args(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;

    NavError e;
    nav_error_clear(&e);
    NavWorld *w = cli_load_map(cx, "path", a.map, &e);
    if (!w) return CLI_BAD_INPUT;

    NavGrid *g = NULL;
    GridSearch *s = NULL;
    GridWaypoint *buf = NULL;
    PathRun r = { .a = &a, .w = w, .tcx = -1, .tcy = -1 };
    float cs = world_cell_size(w);
    const char *cls_name = NULL;
    uint64_t t0;
    int cap;
    NavStatus st;
    rc = CLI_OK;

    if (cli_find_class(cx, "path", w, a.map, a.cls_name, &rc) < 0) goto done;
    cls_name = a.cls_name ? a.cls_name : world_class(w, 0)->name;
    /* The start must stand on a floor (bad input otherwise, with the nearest
    ** one); a point goal must be on the map (a goal in a wall is fine: the
    ** search ends at the reachable cell nearest it). */
    {
        float p[3] = { a.fx, a.fy, 0.0f }, on[3], near[3];
        const char *why = "";
        if (!cli_floor_point(w, p, false, on, near, &why)) {
            fprintf(cx->err, "navbot path: --from %g,%g: %s", (double)a.fx, (double)a.fy, why);
            if (!world_point_cell(w, a.fx, a.fy, &r.sx, &r.sy))
                fprintf(cx->err, " (0 to %g by 0 to %g m)", (double)(cs * (float)world_width(w)),
                        (double)(cs * (float)world_height(w)));
            fprintf(cx->err, "; the nearest floor is at %.2f,%.2f\n", (double)near[0], (double)near[1]);
            rc = CLI_BAD_INPUT;
            goto done;
        }
        world_point_cell(w, a.fx, a.fy, &r.sx, &r.sy);
    }
    if (!world_point_cell(w, a.tx, a.ty, &r.tcx, &r.tcy)) {
        r.tcx = r.tcy = -1;
        if (a.goal_type == GRID_GOAL_POINT) {
            float p[3] = { a.tx, a.ty, 0.0f }, on[3], near[3];
            const char *why = "";
            cli_floor_point(w, p, false, on, near, &why);
            fprintf(cx->err,
                    "navbot path: --to %g,%g: outside the map (0 to %g by 0 to %g m); the nearest floor is at "
                    "%.2f,%.2f\n",
                    (double)a.tx, (double)a.ty, (double)(cs * (float)world_width(w)),
                    (double)(cs * (float)world_height(w)), (double)near[0], (double)near[1]);
            rc = CLI_BAD_INPUT;
            goto done;
        }
    }

    t0 = timer_now_ns();
    g = grid_create(w, &(NavGridDesc){ .clearance = a.clearance }, &e);
    r.build_ms = timer_ms_since(t0);
    if (!g) {
        cli_print_error(cx, "path", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    r.g = g;
    r.cls = grid_find_class(g, cls_name);
    if (r.cls < 0) {
        fprintf(cx->err, "navbot path: the grid has no class '%s' though the map has (engine bug)\n", cls_name);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    s = grid_search_create(g, &e);
    if (!s) {
        cli_print_error(cx, "path", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    r.s = s;

    switch (a.goal_type) {
    case GRID_GOAL_POINT: r.goal = grid_goal_point(a.tx, a.ty); break;
    case GRID_GOAL_CIRCLE:
    case GRID_GOAL_INV_CIRCLE:
        r.goal = grid_goal_circle(a.tx, a.ty, a.goal_r, a.goal_type == GRID_GOAL_INV_CIRCLE);
        break;
    case GRID_GOAL_SQUARE:
    case GRID_GOAL_INV_SQUARE:
        r.goal = grid_goal_square(a.tx, a.ty, a.goal_w * 0.5f, a.goal_h * 0.5f, a.goal_angle_deg * PI_F / 180.0f,
                                  a.goal_type == GRID_GOAL_INV_SQUARE);
        break;
    }

    /* A path visits a cell at most once: cells + a few always fit. */
    cap = grid_width(g) * grid_height(g) + 8;
    buf = nav_malloc(sizeof *buf * (size_t)cap * (a.smooth ? 2 : 1));
    if (!buf) {
        fprintf(cx->err, "navbot path: out of memory for %d waypoints\n", cap);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    r.path = (GridPath){ .points = buf, .cap = cap };
    t0 = timer_now_ns();
    st = grid_find_path(s,
                        &(GridQuery){ .cls = r.cls,
                                      .sx = r.sx,
                                      .sy = r.sy,
                                      .goal = r.goal,
                                      .algorithm = a.astar ? GRID_ASTAR : GRID_JPS,
                                      .max_nodes = a.max_nodes },
                        &r.path);
    r.time_us = (double)(timer_now_ns() - t0) / 1e3;
    if (NAV_FAILED(st)) {
        fprintf(cx->err, "navbot path: the search refused the query: %s\n", nav_status_name(st));
        rc = CLI_BAD_INPUT;
        goto done;
    }
    r.smooth.count = -1;
    if (a.smooth) {
        r.smooth = r.path;
        r.smooth.points = buf + cap;
        memcpy(r.smooth.points, r.path.points, sizeof *buf * (size_t)r.path.count);
        r.smooth.count = grid_smooth_path(g, r.cls, r.smooth.points, r.path.count, &r.smooth.length);
    }
    if (a.png) {
        if (NAV_FAILED(write_picture(g, s, r.cls, &r.goal, &a, &r.path, a.smooth ? &r.smooth : NULL, &r.png_w, &r.png_h,
                                     &r.png_scale, &e))) {
            cli_print_error(cx, "path", &e);
            rc = CLI_BAD_INPUT;
            goto done;
        }
        r.png_written = a.png;
    }
    if (a.json) write_json(cx, &r);
    else write_text(cx, &r);

done:
    nav_free(buf);
    grid_search_destroy(s);
    grid_destroy(g);
    world_destroy(w);
    return rc;
}

const CliCommand cli_cmd_path = {
    .name = "path",
    .summary = "Find a grid path between two points and print or draw it",
    .usage = "navbot path MAP --from X,Y --to X,Y [--class NAME] [--goal SHAPE] [--astar] [--smooth]\n"
             "                   [--max-nodes N] [--clearance round|square] [--json] [--png FILE]",
    .help = "Builds the navcell grid of MAP's ground floor (the build time is printed),\n"
            "then searches from the cell of --from to the goal around --to with jump\n"
            "point search (or textbook A* with --astar). Prints the waypoints (cells and\n"
            "metres of the cell centres), the length in cells and metres, the result\n"
            "flags (found, partial, goal moved, start moved, no path, truncated), the\n"
            "nodes expanded / generated / touched and the search time. A search that\n"
            "finds no path still exits 0: the flags say what happened.\n"
            "\n"
            "Points are in metres, x east and y north from the south-west corner; a\n"
            "point lies in cell (floor(x / cell size), floor(y / cell size)). On a Moving\n"
            "AI map (cells of 1 m) scenario cell (x, y) is the point x+0.5,H-0.5-y,\n"
            "H the map height, since the file's first row is the north edge.\n"
            "\n"
            "options:\n"
            "  --from X,Y       start point, metres (required)\n"
            "  --to X,Y         goal point or goal shape centre, metres (required)\n"
            "  --class NAME     mover class (default: the map's first class; Moving AI\n"
            "                   maps have point and human)\n"
            "  --goal SHAPE     point (default), circle:R, square:W,H,ANGLE, inv-circle:R,\n"
            "                   inv-square:W,H,ANGLE: R radius, W,H full sizes in metres,\n"
            "                   ANGLE counter-clockwise in degrees; inv- goals are reached\n"
            "                   outside the shape\n"
            "  --astar          use the textbook A* instead of jump point search\n"
            "  --smooth         also print the any-angle smoothed path\n"
            "  --max-nodes N    stop after N expansions (0: no budget); a stopped search\n"
            "                   returns a partial path to the node nearest the goal\n"
            "  --clearance M    round (default, Euclidean) or square (Chebyshev) clearance\n"
            "  --json           print one JSON object: map, class, from, to, goal, found,\n"
            "                   flags, length, length_m, waypoints ([x,y] cells), expanded,\n"
            "                   generated, touched, time_us, build_ms, smoothed (--smooth)\n"
            "  --png FILE       draw the grid and the search to FILE (PNG, north up, each\n"
            "                   cell N pixels, about 1024 px on the longer side): light\n"
            "                   passable, dark terrain, grey blocked by clearance; blue\n"
            "                   cells expanded, yellow only generated; magenta the goal\n"
            "                   cells; red the path (purple the smoothed one); green disc\n"
            "                   the start, blue disc the path's end, black cross --to\n"
            "\n"
            "Exit status: 0 a search ran (whatever it found), 1 the map cannot be\n"
            "loaded or the PNG written, or --from is outside the map, in a wall or over\n"
            "a void, or a point --to is outside the map (the message gives the nearest\n"
            "floor); 2 bad usage: a missing or malformed option, an unknown class.\n"
            "\n"
            "examples:\n"
            "  navbot path tests/data/movingai/lak303d.map --from 10.5,80.5 --to 11.5,81.5\n"
            "  navbot path tests/data/movingai/lak303d.map --class human --from 73.5,151.5 \\\n"
            "      --to 115.5,82.5 --smooth --png /tmp/path.png\n"
            "  navbot path maps/arena.lua --from 2,2 --to 10,8 --goal circle:1.5 --json\n"
            "  navbot path maps/valley.lua --from 5,5 --to 200,180 --astar --max-nodes 5000\n",
    .run = run_path,
};

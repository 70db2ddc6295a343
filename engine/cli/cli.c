/*
** cli.c — command dispatch and help.
*/
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/nav.h"
#include "map/map.h"
#include "render/render.h"

static const CliCommand cli_cmd_help;

static const CliCommand *const COMMANDS[] = {
    &cli_cmd_info,   &cli_cmd_compile, &cli_cmd_path, &cli_cmd_route, &cli_cmd_run,  &cli_cmd_sim,
    &cli_cmd_replay, &cli_cmd_test,    &cli_cmd_init, &cli_cmd_bench, &cli_cmd_soak, &cli_cmd_help,
};

static const CliCommand *find_command(const char *name)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(COMMANDS); i++)
        if (strcmp(COMMANDS[i]->name, name) == 0) return COMMANDS[i];
    return NULL;
}

static void print_overview(FILE *f)
{
    fprintf(f,
            "navbot %s - a bot navigation engine scripted in Lua\n"
            "\n"
            "usage: navbot COMMAND [ARGS...]\n"
            "       navbot help COMMAND     details of one command\n"
            "       navbot --version\n"
            "\n"
            "commands:\n",
            NAV_VERSION_STRING);
    for (size_t i = 0; i < NAV_ARRAY_COUNT(COMMANDS); i++)
        fprintf(f, "  %-10s %s\n", COMMANDS[i]->name, COMMANDS[i]->summary);
    fprintf(f, "\n"
               "Maps are native Lua maps (maps/*.lua, see docs/maps.md), Tiled maps (*.tmj,\n"
               "*.json, or Tiled's Lua export), Moving AI benchmark grids (*.map) or triangle\n"
               "meshes (*.obj, voxelized into floors; a sidecar NAME.obj.lua beside one adds\n"
               "entities, classes, liquids, ladders).\n"
               "Every command takes --cell M: the cell size of the mesh maps it loads by\n"
               "path, in metres (a scenario's map keeps its sidecar's).\n"
               "Every command takes --lua-path DIR (repeatable): brains, scenarios and maps\n"
               "find modules in their own folder, then each DIR, then NAVBOT_PATH's folders\n"
               "(colon-separated), then navbot's bundled lua/ and bots/ (beside the executable).\n"
               "Points X,Y without Z are on the lowest floor under them.\n"
               "Exit status: 0 success, 1 bad input, 2 bad usage (run: 3 a bot did not arrive;\n"
               "soak: 3 a map did not pass).\n");
}

static void print_command_help(FILE *f, const CliCommand *cmd)
{
    fprintf(f, "usage: %s\n\n%s\n", cmd->usage, cmd->summary);
    if (cmd->help && cmd->help[0]) fprintf(f, "\n%s", cmd->help);
}

int cli_usage_error(const CliContext *cx, const CliCommand *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(cx->err, "navbot %s: ", cmd->name);
    vfprintf(cx->err, fmt, ap);
    va_end(ap);
    fprintf(cx->err, "\nusage: %s\n(see 'navbot help %s')\n", cmd->usage, cmd->name);
    return CLI_USAGE;
}

bool cli_parse_u32(const char *s, uint32_t *out)
{
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return false;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

int cli_take_value(const char *name, int argc, char **argv, int *i, const char **val)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *val = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

bool cli_parse_number(const char **s, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(*s, &end);
    if (end == *s || errno == ERANGE || !isfinite(v) || fabs(v) > 1e30) return false;
    *out = (float)v;
    *s = end;
    return true;
}

void cli_text_add(CliText *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (t->n + (size_t)k + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->n + (size_t)k + 1) cap *= 2;
        char *s = nav_realloc(t->s, cap);
        if (!s) {
            t->dropped = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

bool cli_parse_point(const char *s, float p[3], bool *has_z)
{
    float v[3] = { 0, 0, 0 };
    int n = 0;
    while (n < 3) {
        if (!cli_parse_number(&s, &v[n])) return false;
        n++;
        if (*s == '\0') break;
        if (*s != ',') return false;
        s++;
    }
    if (*s != '\0' || n < 2) return false;
    memcpy(p, v, sizeof v);
    if (has_z) *has_z = n == 3;
    return true;
}

int cli_find_class(const CliContext *cx, const char *cmd, const NavWorld *w, const char *map, const char *name, int *rc)
{
    const char *c = cmd ? cmd : "info";
    if (world_class_count(w) == 0) {
        fprintf(cx->err, "navbot %s: %s: the map has no mover classes\n", c, map);
        *rc = CLI_BAD_INPUT;
        return -1;
    }
    int cls = name ? world_find_class(w, name) : 0;
    if (cls < 0) {
        fprintf(cx->err, "navbot %s: --class: no class '%s' in %s; its classes are:", c, name, map);
        for (int i = 0; i < world_class_count(w); i++) fprintf(cx->err, " %s", world_class(w, i)->name);
        fprintf(cx->err, "\n");
        *rc = CLI_USAGE;
    }
    return cls;
}

void cli_print_error(const CliContext *cx, const char *cmd, const NavError *e)
{
    char buf[1024];
    fprintf(cx->err, "navbot%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", nav_error_format(e, buf, sizeof buf));
}

static void print_map_line(void *user, const char *line) { fprintf((FILE *)user, "[map] %s\n", line); }

/* "generate:building:W:H:STOREYS:SEED" or "generate:terrain:W:H:SEED":
** a generated map (map.h) instead of a file, so benchmarks' generated maps
** can be run and watched like any other. */
static NavWorld *load_generated(const char *spec, NavError *e)
{
    const char *kind = spec + strlen(CLI_GENERATED_PREFIX);
    bool building = strncmp(kind, "building:", 9) == 0, terrain = strncmp(kind, "terrain:", 8) == 0;
    uint32_t v[4] = { 0, 0, 0, 0 };
    int want = building ? 4 : 3, got = 0;
    const char *s = kind + (building ? 9 : 8);
    while ((building || terrain) && got < want) {
        char num[16];
        size_t n = strcspn(s, ":");
        if (n == 0 || n >= sizeof num) break;
        memcpy(num, s, n);
        num[n] = '\0';
        if (!cli_parse_u32(num, &v[got])) break;
        got++;
        s += n;
        if (*s == ':' && got < want) s++;
    }
    if ((!building && !terrain) || got != want || *s) {
        nav_error_set(e, NAV_E_PARAM, spec, 0, 0, NULL,
                      "not a generated map: give generate:building:WIDTH:HEIGHT:STOREYS:SEED or "
                      "generate:terrain:WIDTH:HEIGHT:SEED");
        return NULL;
    }
    if (v[0] > 100000 || v[1] > 100000) {
        nav_error_set(e, NAV_E_PARAM, spec, 0, 0, NULL, "the width and height are cells, up to 100000");
        return NULL;
    }
    if (building) return map_generate_building((int)v[0], (int)v[1], (int)v[2], v[3], e);
    return map_generate_terrain((int)v[0], (int)v[1], v[2], e);
}

NavWorld *cli_load_map(const CliContext *cx, const char *cmd, const char *path, NavError *e)
{
    if (strncmp(path, CLI_GENERATED_PREFIX, strlen(CLI_GENERATED_PREFIX)) == 0) {
        NavWorld *g = load_generated(path, e);
        if (!g) cli_print_error(cx, cmd, e);
        return g;
    }
    if (cx->mesh_cell_size > 0.0f && map_format_for_path(path) != NAV_MAP_OBJ) {
        nav_error_set(e, NAV_E_PARAM, path, 0, 0, "--cell",
                      "only a mesh map (.obj) takes a cell size; this map sets its own");
        cli_print_error(cx, cmd, e);
        return NULL;
    }
    NavWorld *w = map_load_file(path,
                                &(NavMapOptions){ .print = print_map_line,
                                                  .print_user = cx->err,
                                                  .lua_path = cx->map_lua_path,
                                                  .mesh_cell_size = cx->mesh_cell_size },
                                e);
    if (!w) cli_print_error(cx, cmd, e);
    return w;
}

/* The floor a point stands on: see cli.h. */
static const NavFloor *floor_under(const NavWorld *w, float x, float y, float z, bool has_z)
{
    int cx, cy, n;
    if (!world_point_cell(w, x, y, &cx, &cy)) return NULL;
    if (has_z) {
        const NavFloor *f = world_floor_at(w, x, y, z, 0.5f);
        return f && isfinite(f->z) ? f : NULL;
    }
    const NavFloor *f = world_column(w, cx, cy, &n);
    for (int i = 0; i < n; i++)
        if (isfinite(f[i].z)) return &f[i];
    return NULL;
}

bool cli_floor_point(const NavWorld *w, const float p[3], bool has_z, float out[3], float near[3], const char **why)
{
    float x = p[0], y = p[1], z = p[2];
    const NavFloor *f = floor_under(w, x, y, z, has_z);
    if (f) {
        out[0] = x, out[1] = y, out[2] = world_standing_height(f);
        return true;
    }
    int cx, cy, n;
    if (!world_point_cell(w, x, y, &cx, &cy)) {
        *why = "outside the map";
    } else {
        const NavFloor *col = world_column(w, cx, cy, &n);
        bool any = false;
        for (int i = 0; i < n; i++) any |= isfinite(col[i].z);
        *why = any ? "in a wall or solid at that height" : n ? "over a void" : "in a wall";
    }
    /* The nearest column with a floor, by a scan of every cell: an error
    ** path, so simple beats fast. */
    float best = INFINITY;
    near[0] = x, near[1] = y, near[2] = has_z ? z : 0.0f;
    for (int j = 0; j < world_height(w); j++) {
        for (int i = 0; i < world_width(w); i++) {
            const NavFloor *col = world_column(w, i, j, &n);
            int k = 0;
            while (k < n && !isfinite(col[k].z)) k++;
            if (k == n) continue;
            float fx, fy;
            world_cell_center(w, i, j, &fx, &fy);
            float d = (fx - x) * (fx - x) + (fy - y) * (fy - y);
            if (d < best) {
                best = d;
                near[0] = fx, near[1] = fy, near[2] = world_standing_height(&col[k]);
            }
        }
    }
    return false;
}

int cli_point_arg(const CliContext *cx, const char *cmd, const char *arg, const char *text, const NavWorld *w,
                  float p[3], bool *not_point)
{
    bool has_z;
    if (not_point) *not_point = false;
    if (!cli_parse_point(text, p, &has_z)) {
        if (not_point) *not_point = true;
        return CLI_USAGE;
    }
    const char *why = "";
    float near[3];
    if (cli_floor_point(w, p, has_z, p, near, &why)) return CLI_OK;
    size_t an = strlen(arg);
    bool glued = an && (arg[an - 1] == '@' || arg[an - 1] == '=');
    fprintf(cx->err, "navbot %s: %s%s%s: %s", cmd, arg, glued ? "" : " ", text, why);
    if (strcmp(why, "outside the map") == 0)
        fprintf(cx->err, " (%.1f x %.1f m)", (double)(world_width(w) * world_cell_size(w)),
                (double)(world_height(w) * world_cell_size(w)));
    fprintf(cx->err, "; the nearest floor is at %.2f,%.2f,%.2f\n", (double)near[0], (double)near[1], (double)near[2]);
    return CLI_BAD_INPUT;
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

static int run_help(const CliContext *cx, int argc, char **argv)
{
    if (argc < 2) {
        print_overview(cx->out);
        return CLI_OK;
    }
    const CliCommand *cmd = find_command(argv[1]);
    if (!cmd) {
        fprintf(cx->err, "navbot help: unknown command '%s'\n\n", argv[1]);
        print_overview(cx->err);
        return CLI_USAGE;
    }
    print_command_help(cx->out, cmd);
    return CLI_OK;
}

static const CliCommand cli_cmd_help = {
    .name = "help",
    .summary = "Show the commands, or the details of one",
    .usage = "navbot help [COMMAND]",
    .help = "",
    .run = run_help,
};

/* Takes every --lua-path DIR out of argv (compacting it; returns the new
** argc), adding DIR to p; -1 when one has no value or is not a folder
** (printed). */
static int take_lua_paths(FILE *err, int argc, char **argv, NavLuaPath *p)
{
    int n = 2;
    for (int i = 2; i < argc; i++) {
        const char *val;
        int r = cli_take_value("--lua-path", argc, argv, &i, &val);
        if (r == 0) {
            argv[n++] = argv[i];
            continue;
        }
        char dir[NAV_LUA_PATH_CAP];
        struct stat st;
        if (r < 0 || !*val || !nav_lua_path_expand(val, dir, sizeof dir)) {
            fprintf(err, "navbot %s: --lua-path needs a folder\n", argv[1]);
            return -1;
        }
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(err, "navbot %s: --lua-path %s: no such folder\n", argv[1], val);
            return -1;
        }
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(nav_lua_path_add(p, dir, NAV_LUA_DIR_ANY, &e))) {
            fprintf(err, "navbot %s: --lua-path %s: %s\n", argv[1], val, e.message);
            return -1;
        }
    }
    argv[n] = NULL;
    return n;
}

/* Takes --cell M out of argv (compacting it; returns the new argc) into
** *cell; -1 when its value is missing or out of range (printed). */
static int take_cell(FILE *err, int argc, char **argv, float *cell)
{
    int n = 2;
    for (int i = 2; i < argc; i++) {
        const char *val;
        int r = cli_take_value("--cell", argc, argv, &i, &val);
        if (r == 0) {
            argv[n++] = argv[i];
            continue;
        }
        const char *s = r > 0 ? val : "";
        float v;
        if (r < 0 || !cli_parse_number(&s, &v) || *s || v < 0.01f || v > 100.0f) {
            fprintf(err, "navbot %s: --cell needs a cell size in metres, from 0.01 to 100\n", argv[1]);
            return -1;
        }
        *cell = v;
    }
    argv[n] = NULL;
    return n;
}

static int run_command(const CliCommand *cmd, CliContext *cx, int argc, char **argv)
{
    NavLuaPath user = { 0 }, maps = { 0 };
    char **args = nav_malloc((size_t)(argc + 1) * sizeof *args);
    if (!args) {
        fprintf(cx->err, "navbot: out of memory reading the command line\n");
        return CLI_BAD_INPUT;
    }
    memcpy(args, argv, (size_t)argc * sizeof *args);
    args[argc] = NULL;
    int rc = CLI_USAGE;
    int n = take_lua_paths(cx->err, argc, args, &user);
    if (n >= 0) n = take_cell(cx->err, n, args, &cx->mesh_cell_size);
    if (n >= 0) {
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(nav_lua_path_add_list(&user, getenv("NAVBOT_PATH"), &e)) ||
            NAV_FAILED(nav_lua_path_append(&maps, &user, &e))) {
            fprintf(cx->err, "navbot %s: %s\n", cmd->name, e.message);
        } else {
            nav_lua_path_add_bundled(&maps, NULL, &e); /* none found: maps see only the others */
            cx->lua_path = &user;
            cx->map_lua_path = &maps;
            rc = cmd->run(cx, n - 1, args + 1);
        }
    }
    nav_lua_path_free(&user);
    nav_lua_path_free(&maps);
    nav_free(args);
    return rc;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    CliContext cx = { out, err, NULL, NULL, 0.0f };
    if (argc < 2) {
        print_overview(err);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_overview(out);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        fprintf(out, "navbot %s\n", NAV_VERSION_STRING);
        return CLI_OK;
    }
    const CliCommand *cmd = find_command(name);
    if (!cmd) {
        fprintf(err, "navbot: unknown command '%s'\n\n", name);
        print_overview(err);
        return CLI_USAGE;
    }
    if (cmd != &cli_cmd_help && wants_help(argc - 1, argv + 1)) {
        print_command_help(out, cmd);
        return CLI_OK;
    }
    return run_command(cmd, &cx, argc, argv);
}

int cli_resolve_level(const CliContext *cx, const char *cmd, const char *text, const NavWorld *w, int *level)
{
    *level = -1;
    if (!text) return CLI_OK;
    NavError e;
    nav_error_clear(&e);
    Renderer *r = render_create(&e);
    if (!r) {
        cli_print_error(cx, cmd, &e);
        return CLI_BAD_INPUT;
    }
    int found = render_level_parse(r, w, text);
    int n = render_level_count(r, w);
    char list[RENDER_LEVEL_LIST_MAX];
    render_level_list(r, w, list, sizeof list);
    render_destroy(r);
    if (found >= 0) {
        /* One storey has no selector: level 1 is the whole map. */
        *level = n ? found : -1;
        return CLI_OK;
    }
    fprintf(cx->err, "navbot %s: --level %s: %s has no such storey; its storeys are: %s\n", cmd, text, world_source(w),
            list);
    return CLI_USAGE;
}

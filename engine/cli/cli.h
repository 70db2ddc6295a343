/*
** cli.h — the navbot command line: a table of commands, each with its
** usage and help text, run through cli_main so tests can drive it in
** process with their own output streams.
**
** Exit status: 0 success, 1 bad input (a map, a file), 2 bad usage.
*/
#ifndef NAV_CLI_H
#define NAV_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/nav.h"
#include "lua/lua_paths.h"
#include "world/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CLI_NOT_ARRIVED: `run --until-arrived` ended with a bot that faulted or
** did not arrive. */
enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2, CLI_NOT_ARRIVED = 3 };

#define CLI_GENERATED_PREFIX "generate:"

typedef struct CliContext {
    FILE *out; /* results */
    FILE *err; /* errors and progress */
    /* Every --lua-path DIR of the command line, then NAVBOT_PATH's
    ** folders: searched after a script's own folder and before the
    ** bundled lua/ and bots/ (lua_paths.h). NULL: none. */
    const NavLuaPath *lua_path;
    /* The same plus the bundled lua/ and bots/: what maps require along. */
    const NavLuaPath *map_lua_path;
    /* --cell M (any command): the cell size of mesh maps (.obj); 0: the
    ** sidecar's or the default. */
    float mesh_cell_size;
} CliContext;

typedef struct CliCommand {
    const char *name;
    const char *summary;                                     /* one line for `navbot --help` */
    const char *usage;                                       /* "navbot info MAP [--json]" */
    const char *help;                                        /* the rest of `navbot help NAME` */
    int (*run)(const CliContext *cx, int argc, char **argv); /* argv[0] is the command name */
} CliCommand;

/* Entry point: argv as main() gets it. `--lua-path DIR` (repeatable) is
** taken out of any command's arguments; NAVBOT_PATH is read here. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

/* Reports a usage error for cmd and returns CLI_USAGE. */
int cli_usage_error(const CliContext *cx, const CliCommand *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A whole token of decimal digits that fits 32 bits. */
bool cli_parse_u32(const char *s, uint32_t *out);
/* Does argv[*i] name option `name`, as "--name VALUE" or "--name=VALUE"?
** 0: no; 1: yes, *val set (the first form consumes the next argument);
** -1: yes but the value is missing. */
int cli_take_value(const char *name, int argc, char **argv, int *i, const char **val);
/* A finite number at *s (magnitude up to 1e30); advances *s past it. */
bool cli_parse_number(const char **s, float *out);
/* A growing text (a report built piece by piece); zero is empty. Out of
** memory, a piece is dropped and `dropped` says so. nav_free(t->s) when
** done. */
typedef struct CliText {
    char *s;
    size_t n, cap;
    bool dropped;
} CliText;
void cli_text_add(CliText *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "X,Y" or "X,Y,Z" and nothing after; *has_z (may be NULL) says which, and
** z is 0 when it is left out. False, p unchanged, when it is not that. */
bool cli_parse_point(const char *s, float p[3], bool *has_z);
/* Where a point argument stands, the same for every command: "X,Y" (no Z)
** is on the lowest floor of that column (not a void); "X,Y,Z" on the
** highest floor at or below Z + 0.5 m. False when the point is outside
** the map, in a wall (no floor there, or none at that height) or over a
** void: then *why says which and near gets the nearest floor point (the
** lowest floor of the nearest column that has one). out and near may be
** the same array as p. */
bool cli_floor_point(const NavWorld *w, const float p[3], bool has_z, float out[3], float near[3], const char **why);
/* Parses TEXT ("X,Y[,Z]") and puts it on a floor (cli_floor_point).
** CLI_OK with p set; CLI_USAGE when TEXT is not a point (*not_point set,
** nothing printed: the caller may try an entity name); CLI_BAD_INPUT with
** "navbot CMD: ARG TEXT: outside the map (W x H m); the nearest floor is at
** (x, y, z)" printed. */
int cli_point_arg(const CliContext *cx, const char *cmd, const char *arg, const char *text, const NavWorld *w,
                  float p[3], bool *not_point);
/* --level TEXT (NULL: not given, *level = -1): a storey's number from 1
** or its layer's name in w. CLI_OK with *level the renderer's level index
** (-1 for a map of one storey, which is all of it); CLI_USAGE with
** "navbot CMD: --level TEXT: MAP has no such storey; its storeys are:
** 1 (ground), 2 (second), ..." printed. */
int cli_resolve_level(const CliContext *cx, const char *cmd, const char *text, const NavWorld *w, int *level);
/* The part of the map a picture shows and its size, as every picture
** command takes them (cli_view.c): --view X0,Y0,X1,Y1 (metres, the
** south-west and north-east corners), --px-per-m N or --width N. */
#define CLI_VIEW_MAX_SIDE 8192
#define CLI_VIEW_MIN_WIDTH 160
#define CLI_VIEW_MIN_MAP_ROWS 16
#define CLI_VIEW_MAX_PX_PER_M 1000.0f
typedef struct CliView {
    bool box_set;
    float box[4];         /* --view; the whole map after cli_view_check when not given */
    const char *view_arg; /* as given, for messages */
    float px_per_m;       /* --px-per-m, 0 not given */
    int width;            /* --width, 0 not given */
    /* Resolved by cli_view_check: the scale (pixels per metre, 0 when
    ** neither --px-per-m nor --width was given: the command's default) and
    ** then the picture's size. */
    float scale;
    int pic_w, pic_h;
} CliView;
/* 1: argv[*i] was one of these options, taken into v; 0: not one; -1: a
** usage error (a malformed or empty box, a scale or width out of range),
** printed. */
int cli_view_option(const CliContext *cx, const CliCommand *cmd, CliView *v, int argc, char **argv, int *i);
/* Against the map w: the box must overlap it, --px-per-m and --width are
** not both given, and the picture (the box at the scale, extra_h rows
** added for what is drawn round the map) is from 160 pixels wide and 16
** high of map to 8192 a side. CLI_OK with v resolved, or CLI_USAGE with
** the reason printed. */
int cli_view_check(const CliContext *cx, const CliCommand *cmd, CliView *v, const NavWorld *w, int extra_h);
/* "navbot CMD: message" on stderr for a failed load or build (plain
** "navbot: " when cmd is NULL). */
void cli_print_error(const CliContext *cx, const char *cmd, const NavError *e);
/* The mover class --class names in a loaded map (name NULL: the first).
** When there is none, prints why ("the map has no mover classes", or "no
** class 'x' in MAP; its classes are: ...") as "navbot CMD: ...", sets *rc
** (CLI_BAD_INPUT or CLI_USAGE) and returns -1. */
int cli_find_class(const CliContext *cx, const char *cmd, const NavWorld *w, const char *map, const char *name,
                   int *rc);
/* Load a map, its scripts' print() lines going to stderr marked [map],
** a mesh map at cx's --cell size (a --cell with any other map is an error).
** A path starting "generate:" names a generated map instead of a file:
** generate:building:WIDTH:HEIGHT:STOREYS:SEED or generate:terrain:WIDTH:HEIGHT:SEED
** (map.h map_generate_building, map_generate_terrain);
** on failure the error is printed as cli_print_error does and NULL comes
** back (e holds it). */
NavWorld *cli_load_map(const CliContext *cx, const char *cmd, const char *path, NavError *e);

/* Commands */
extern const CliCommand cli_cmd_info;
extern const CliCommand cli_cmd_compile;
extern const CliCommand cli_cmd_path;
extern const CliCommand cli_cmd_route;
extern const CliCommand cli_cmd_bench;
extern const CliCommand cli_cmd_run;
extern const CliCommand cli_cmd_sim;
extern const CliCommand cli_cmd_replay;
extern const CliCommand cli_cmd_test;
extern const CliCommand cli_cmd_init;
extern const CliCommand cli_cmd_soak;

#ifdef __cplusplus
}
#endif

#endif

/*
** cmd_init.c — `navbot init DIR`: a starter project that works at once from
** any folder: a brain (bots/scout.lua) built on navbot's bundled lua/, a
** small map (maps/yard.lua), a scenario (tests/scout_crosses_yard.lua) with
** its golden trace hash, and a README saying how to run each.
**
** Nothing is overwritten: when any of the files exists, nothing is written
** and the command exits 1 naming it. The golden hash is recorded by running
** the scenario once (as `navbot test --update-golden` would), so the
** project's first `navbot test tests/` passes on this build.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cli/cli.h"
#include "core/fileio.h"

static const char BRAIN[] = "-- scout: runs to its goals, in order, with navbot's path follower, and hops\n"
                            "-- when it has been stuck for a second. Given no goals (navbot run without\n"
                            "-- --goal), it heads for every goal entity of the map.\n"
                            "--\n"
                            "-- `require` looks in this file's folder first, then in every --lua-path DIR,\n"
                            "-- then NAVBOT_PATH, then navbot's own lua/ (follow, policy, avoid, ...):\n"
                            "-- docs/lua-api.md in navbot's sources lists them all.\n"
                            "local follow = require \"follow\"\n"
                            "\n"
                            "local brain = {}\n"
                            "\n"
                            "-- Once per bot. Globals are this bot's own: every scout has its own `f`.\n"
                            "function brain.spawn(bot)\n"
                            "  f = follow.new(bot, { policy = \"default\" })\n"
                            "  if bot:goals() == 0 then\n"
                            "    for _, name in ipairs(nav.entities(\"goal\")) do\n"
                            "      local g = nav.entity(name).pos\n"
                            "      bot:add_goal(g[1], g[2], g[3])\n"
                            "    end\n"
                            "  end\n"
                            "end\n"
                            "\n"
                            "-- Every tick (dt seconds): follow the route to the next goal.\n"
                            "function brain.think(bot, dt)\n"
                            "  if f:update(dt) == \"moving\" and bot:state().stuck_time > 1 then bot:jump() end\n"
                            "end\n"
                            "\n"
                            "return brain\n";

static const char MAP[] = "-- yard: two rooms joined by a doorway, a raised step to climb and a flag\n"
                          "-- to reach. docs/maps.md in navbot's sources has every field.\n"
                          "return {\n"
                          "  name = \"yard\",\n"
                          "  cell_size = 0.5,\n"
                          "  legend = {\n"
                          "    [\"#\"] = \"solid\",\n"
                          "    [\".\"] = \"floor\",\n"
                          "    [\"=\"] = { type = \"floor\", h = 0.4 },   -- a step up\n"
                          "    [\"A\"] = { type = \"floor\", mark = \"spawn\" },\n"
                          "    [\"G\"] = { type = \"floor\", mark = \"flag\" },\n"
                          "  },\n"
                          "  layers = {\n"
                          "    { z = 0, rows = [[\n"
                          "################################\n"
                          "#..............#...............#\n"
                          "#..A...........#...............#\n"
                          "#..............#..........G....#\n"
                          "#..............#...............#\n"
                          "#..............................#\n"
                          "#..............................#\n"
                          "#..............................#\n"
                          "#..............#...............#\n"
                          "#......==......#......====.....#\n"
                          "#......==......#......====.....#\n"
                          "#..............#...............#\n"
                          "#..............#...............#\n"
                          "################################\n"
                          "]] },\n"
                          "  },\n"
                          "  entities = {\n"
                          "    { type = \"spawn\", name = \"spawn\", at = \"spawn\" },\n"
                          "    { type = \"goal\", name = \"flag\", at = \"flag\", item = \"flag\" },\n"
                          "  },\n"
                          "}\n";

static const char SCENARIO[] =
    "-- The scout crosses the yard, through the doorway, to the flag. Paths are\n"
    "-- relative to this file's folder; `require \"scenario\"` is navbot's own.\n"
    "local S = require \"scenario\"\n"
    "\n"
    "return S.scenario {\n"
    "  description = \"the scout reaches the flag\",\n"
    "  map = \"../maps/yard.lua\",\n"
    "  time_limit = 20,\n"
    "  bots = {\n"
    "    S.bot { name = \"scout\", brain = \"../bots/scout.lua\", at = \"spawn\", goals = { \"flag\" } },\n"
    "  },\n"
    "  expect = {\n"
    "    S.arrives(\"scout\", { within = 10 }),\n"
    "    S.never_stuck(\"scout\", { longer = 2 }),\n"
    "    S.no_faults(),\n"
    "  },\n"
    "}\n";

static const char README[] =
    "# A navbot project\n"
    "\n"
    "Made by `navbot init`. Run these from this folder (paths are relative to\n"
    "it; navbot finds its own Lua library beside its executable):\n"
    "\n"
    "```sh\n"
    "navbot run maps/yard.lua --bot bots/scout.lua                 # headless: did the scout arrive, and when\n"
    "navbot run maps/yard.lua --bot bots/scout.lua:4 --goal flag   # four scouts, all to the flag\n"
    "navbot test tests/                                            # every scenario; last line: N passed, N failed\n"
    "navbot sim maps/yard.lua bots/scout.lua                       # watch it in a window (headless PNG without a "
    "display)\n"
    "navbot sim maps/yard.lua bots/scout.lua --headless --ticks 300 --png yard.png\n"
    "```\n"
    "\n"
    "- `bots/scout.lua` is the brain: `spawn(bot)` once, `think(bot, dt)` every\n"
    "  tick. `require` finds modules in the brain's own folder, then in each\n"
    "  `--lua-path DIR`, then in `NAVBOT_PATH` (folders separated by `:`), then\n"
    "  in navbot's bundled `lua/` (`follow`, `policy`, `avoid`, `climb`, ...).\n"
    "- `maps/yard.lua` is the map: a legend from characters to cells, rows of\n"
    "  cells (0.5 m each, the first row is the north edge) and entities.\n"
    "- `tests/scout_crosses_yard.lua` is a regression scenario; its trace hash is\n"
    "  kept in `tests/scout_crosses_yard.hash`. After a reviewed change in\n"
    "  behaviour, record it again: `navbot test --update-golden tests/scout_crosses_yard.lua`.\n"
    "\n"
    "Exit status of `navbot run`: 0 when every bot arrived (or with `--ticks N`,\n"
    "when the run ended), 3 when a bot faulted or did not arrive, 1 bad input,\n"
    "2 bad usage.\n";

typedef struct Starter {
    const char *rel;
    const char *text;
} Starter;

static const Starter FILES[] = {
    { "bots/scout.lua", BRAIN },
    { "maps/yard.lua", MAP },
    { "tests/scout_crosses_yard.lua", SCENARIO },
    { "README.md", README },
};

#define SCENARIO_FILE "tests/scout_crosses_yard.lua"
#define HASH_FILE "tests/scout_crosses_yard.hash"

/* mkdir -p */
static bool make_dir(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

static int run_init(const CliContext *cx, int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') return cli_usage_error(cx, &cli_cmd_init, "unknown option '%s'", argv[i]);
        if (dir) return cli_usage_error(cx, &cli_cmd_init, "one folder only (got '%s' and '%s')", dir, argv[i]);
        dir = argv[i];
    }
    if (!dir) return cli_usage_error(cx, &cli_cmd_init, "which folder? (navbot init DIR)");
    char path[4096];
    const char *both[NAV_ARRAY_COUNT(FILES) + 1];
    for (size_t i = 0; i < NAV_ARRAY_COUNT(FILES); i++) both[i] = FILES[i].rel;
    both[NAV_ARRAY_COUNT(FILES)] = HASH_FILE;
    int taken = 0;
    for (size_t i = 0; i < NAV_ARRAY_COUNT(both); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, both[i]);
        if (access(path, F_OK) == 0) {
            fprintf(cx->err, "navbot init: %s exists; not overwriting it\n", path);
            taken++;
        }
    }
    if (taken) {
        fprintf(cx->err, "navbot init: nothing written (choose another folder, or move %s away)\n",
                taken == 1 ? "that file" : "those files");
        return CLI_BAD_INPUT;
    }
    static const char *const SUBDIRS[] = { "", "/bots", "/maps", "/tests" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(SUBDIRS); i++) {
        snprintf(path, sizeof path, "%s%s", dir, SUBDIRS[i]);
        if (!make_dir(path)) {
            fprintf(cx->err, "navbot init: cannot make %s: %s\n", path, strerror(errno));
            return CLI_BAD_INPUT;
        }
    }
    for (size_t i = 0; i < NAV_ARRAY_COUNT(FILES); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, FILES[i].rel);
        /* A safe write that never replaces a file made meanwhile. */
        NavError e;
        nav_error_clear(&e);
        if (NAV_FAILED(fileio_write(path, FILES[i].text, strlen(FILES[i].text), FILEIO_NO_REPLACE, &e))) {
            char msg[1024];
            fprintf(cx->err, "navbot init: %s\n", nav_error_format(&e, msg, sizeof msg));
            return CLI_BAD_INPUT;
        }
        fprintf(cx->out, "wrote %s\n", path);
    }

    /* The scenario's golden hash, from one run on this build. */
    snprintf(path, sizeof path, "%s/%s", dir, SCENARIO_FILE);
    char *log = NULL;
    size_t log_len = 0;
    FILE *quiet = open_memstream(&log, &log_len);
    if (!quiet) {
        fprintf(cx->err, "navbot init: out of memory\n");
        return CLI_BAD_INPUT;
    }
    CliContext inner = *cx;
    inner.out = inner.err = quiet;
    char *args[] = { "test", "--update-golden", path, NULL };
    int rc = cli_cmd_test.run(&inner, 3, args);
    fclose(quiet);
    if (rc != CLI_OK) {
        fprintf(cx->err, "navbot init: the starter scenario did not pass on this build:\n%s", log ? log : "");
        nav_free(log);
        return CLI_BAD_INPUT;
    }
    nav_free(log);
    fprintf(cx->out, "wrote %s/%s\n", dir, HASH_FILE);
    fprintf(cx->out,
            "\nTry it (README.md says more):\n"
            "  cd %s\n"
            "  navbot run maps/yard.lua --bot bots/scout.lua\n"
            "  navbot test tests/\n"
            "  navbot sim maps/yard.lua bots/scout.lua\n",
            dir);
    return CLI_OK;
}

const CliCommand cli_cmd_init = {
    .name = "init",
    .summary = "write a starter project: a brain, a map, a scenario and a README",
    .usage = "navbot init DIR",
    .help = "Makes DIR (if needed) and writes a project that works at once, from any\n"
            "folder, with navbot's bundled Lua library:\n"
            "\n"
            "  bots/scout.lua                 a brain: follows its route to its goals\n"
            "  maps/yard.lua                  a small map: two rooms, a doorway, a flag\n"
            "  tests/scout_crosses_yard.lua   a regression scenario, and its golden\n"
            "  tests/scout_crosses_yard.hash  trace hash (recorded by running it once)\n"
            "  README.md                      how to run each\n"
            "\n"
            "Nothing is overwritten: if any of these files exists, nothing is written.\n"
            "\n"
            "Exit status: 0 written; 1 a file exists or cannot be written; 2 bad usage.\n"
            "\n"
            "Example:\n"
            "  navbot init demo && cd demo && navbot run maps/yard.lua --bot bots/scout.lua\n",
    .run = run_init,
};

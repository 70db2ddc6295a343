/*
** test_cli.c — the navbot command line, driven in process through
** cli_main with captured output: help, exit codes, info on every bundled
** and every Moving AI map, and bad input.
*/
#define _DEFAULT_SOURCE /* mkstemps */
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/nav.h"
#include "test_cli_run.h"
#include "test_support.h"


Test(cli, help_lists_commands)
{
    Run r = NAVBOT("--help");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "usage: navbot COMMAND"));
    cr_assert_not_null(strstr(r.out, "info"));
    run_free(&r);

    r = NAVBOT("help", "info");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "usage: navbot info MAP [--areas]"));
    run_free(&r);

    r = NAVBOT("info", "--help");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "--json"));
    run_free(&r);

    r = NAVBOT("--version");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "navbot "));
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, usage_errors_exit_2)
{
    Run r = navbot(1, (const char *[]){ "navbot", NULL });
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    r = NAVBOT("frobnicate");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "unknown command 'frobnicate'"));
    run_free(&r);
    r = NAVBOT("info");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "which map?"));
    run_free(&r);
    r = NAVBOT("info", "maps/arena.lua", "--bogus");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "unknown option '--bogus'"));
    run_free(&r);
    r = NAVBOT("help", "nothing");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, info_on_every_bundled_map)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(BUNDLED_MAPS); i++) {
        Run r = NAVBOT("info", BUNDLED_MAPS[i]);
        cr_assert_eq(r.status, CLI_OK, "%s: %s", BUNDLED_MAPS[i], r.err);
        cr_assert_not_null(strstr(r.out, "size "));
        cr_assert_not_null(strstr(r.out, "classes "));
        run_free(&r);

        r = NAVBOT("info", BUNDLED_MAPS[i], "--json");
        cr_assert_eq(r.status, CLI_OK, "%s: %s", BUNDLED_MAPS[i], r.err);
        const char *keys[] = { "\"width\"", "\"height\"", "\"cell_size\"", "\"layers\"", "\"cells_by_contents\"",
                               "\"entities_by_type\"", "\"classes\"" };
        for (size_t k = 0; k < NAV_ARRAY_COUNT(keys); k++)
            cr_assert_not_null(strstr(r.out, keys[k]), "%s --json lacks %s", BUNDLED_MAPS[i], keys[k]);
        run_free(&r);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(cli, info_on_every_movingai_map)
{
    for (size_t i = 0; i < NAV_ARRAY_COUNT(MOVINGAI_MAPS); i++) {
        char rel[128], path[512];
        snprintf(rel, sizeof rel, "movingai/%s.map", MOVINGAI_MAPS[i].name);
        TEST_DATA_PATH(path, rel);
        Run r = NAVBOT("info", path, "--json");
        cr_assert_eq(r.status, CLI_OK, "%s: %s", path, r.err);
        char want[64];
        snprintf(want, sizeof want, "\"floor\": %d", MOVINGAI_MAPS[i].passable);
        cr_assert_not_null(strstr(r.out, want), "%s: no %s in\n%s", path, want, r.out);
        run_free(&r);
    }
    NAV_TEST_LEAK_CHECK();
}

Test(cli, bad_map_exits_1_with_a_located_message)
{
    char path[] = "/tmp/navbot_cli_bad_XXXXXX.lua";
    int fd = mkstemps(path, 4);
    cr_assert_geq(fd, 0);
    const char src[] = "return {\n  layers = { { rows = {\n    '...',\n    '.Z.' } } } }\n";
    cr_assert_eq(write(fd, src, sizeof src - 1), (ssize_t)(sizeof src - 1));
    close(fd);
    Run r = NAVBOT("info", path);
    unlink(path);
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_str_empty(r.out, "nothing on stdout for a failed load");
    char want[128];
    snprintf(want, sizeof want, "%s:4:7: layers[1].rows[2]: unknown legend character 'Z'", path);
    cr_assert_not_null(strstr(r.err, want), "stderr: %s", r.err);
    run_free(&r);

    r = NAVBOT("info", "maps/does_not_exist.lua");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "maps/does_not_exist.lua: cannot open"));
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, info_png_draws_the_area_graph)
{
    char path[] = "/tmp/navbot_cli_png_XXXXXX.png";
    int fd = mkstemps(path, 4);
    cr_assert_geq(fd, 0);
    close(fd);
    Run r = NAVBOT("info", "maps/gauntlet.lua", "--png", path);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "png "), "no png line in\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "px per cell"));
    run_free(&r);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    unsigned char magic[8] = { 0 };
    cr_assert_eq(fread(magic, 1, 8, f), 8u);
    fclose(f);
    cr_assert(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", path);
    unlink(path);

    r = NAVBOT("info", "maps/gauntlet.lua", "--png", "/nonexistent-dir/x.png");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "/nonexistent-dir/x.png"), "the error does not name the file:\n%s", r.err);
    run_free(&r);

    r = NAVBOT("info", "maps/gauntlet.lua", "--png");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

/* {======= navbot route ======= */

/* gauntlet: spawn_hall (10, 18) in S10 and the sealed vault S11 (5, 5),
** which only the teleporter (or the lift from the gallery, itself reached
** only from the vault) leads into; the flag on the perch (3.5, 20, 3.5),
** reached only by the jump pad. */
Test(cli, route_names_the_travel_types_it_takes)
{
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "from       (10.00, 18.00, 0.00) m in area "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "time       "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, " teleport "), "no teleport link in\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "router     "), "no router stats in\n%s", r.out);
    cr_assert_null(strstr(r.out, "unreachable"));
    run_free(&r);

    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "3.5,20,3.5");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, " jump_pad "), "no jump pad link in\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "to         (3.50, 20.00, 3.50) m in area "), "%s", r.out);
    run_free(&r);

    r = NAVBOT("help", "route");
    cr_assert_eq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "usage: navbot route MAP --from X,Y[,Z] --to X,Y[,Z]"));
    run_free(&r);
    r = NAVBOT("--help");
    cr_assert_not_null(strstr(r.out, "  route "), "navbot --help does not list route:\n%s", r.out);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, route_json)
{
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--json");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    const char *keys[] = { "\"map\"",   "\"class\"",     "\"from\"",    "\"to\"",      "\"point\"",   "\"area\"",
                           "\"flags\"", "\"time\"",      "\"seconds\"", "\"links\"",   "\"reach\"",   "\"type\"",
                           "\"from_area\"", "\"to_area\"", "\"start\"", "\"end\"", "\"router\"", "\"cache_bytes\"" };
    for (size_t k = 0; k < NAV_ARRAY_COUNT(keys); k++)
        cr_assert_not_null(strstr(r.out, keys[k]), "route --json lacks %s:\n%s", keys[k], r.out);
    cr_assert_not_null(strstr(r.out, "\"reachable\": true"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"type\": \"teleport\""), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"jump_pad\""), "the default flags are not listed:\n%s", r.out);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, route_unreachable_is_an_answer)
{
    /* Walking alone never gets into the vault. */
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags", "walk");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "unreachable"), "%s", r.out);
    cr_assert_str_empty(r.err);
    run_free(&r);

    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags=walk,crouch,water", "--json");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "\"reachable\": false"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"time\": null"), "%s", r.out);
    run_free(&r);

    /* Walking and the teleporter do. */
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags", "walk,teleport", "--json");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "\"reachable\": true"), "%s", r.out);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, route_bad_input)
{
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags", "walk,hover");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "unknown name 'hover'"), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "barrier_jump"), "the valid names are not listed:\n%s", r.err);
    cr_assert_not_null(strstr(r.err, "donotenter"), "%s", r.err);
    run_free(&r);

    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--flags", "");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "missing --to"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10", "--to", "5,5");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "5,5", "--class", "robot");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "no class 'robot'"), "%s", r.err);
    run_free(&r);

    /* Deep in the solid block between S2, S10 and the stairs: more than
    ** 2 m from any floor. */
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "15.75,17.75", "--to", "5,5");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_str_empty(r.out);
    cr_assert_not_null(strstr(r.err, "--from 15.75,17.75"), "the error does not name --from and the point:\n%s", r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "10,18", "--to", "15.75,17.75,0");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_not_null(strstr(r.err, "--to 15.75,17.75,0"), "%s", r.err);
    run_free(&r);

    /* In a wall, even beside a floor: bad input naming the nearest floor. */
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "20,28", "--to", "5,5");
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "--from 20,28: in a wall; the nearest floor is at 18.75,27.75,0.00"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "500,5", "--to", "5,5");
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "--from 500,5: outside the map; the nearest floor is at "), "%s", r.err);
    run_free(&r);
    NAV_TEST_LEAK_CHECK();
}

Test(cli, route_png_and_nav)
{
    char png[] = "/tmp/navbot_cli_route_XXXXXX.png";
    int fd = mkstemps(png, 4);
    cr_assert_geq(fd, 0);
    close(fd);
    Run r = NAVBOT("route", "maps/gauntlet.lua", "--from", "2,28", "--to", "3.5,20,3.5", "--png", png);
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "png        "), "no png line in\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "px per cell)"));
    run_free(&r);
    FILE *f = fopen(png, "rb");
    cr_assert_not_null(f);
    unsigned char magic[8] = { 0 };
    cr_assert_eq(fread(magic, 1, 8, f), 8u);
    fclose(f);
    cr_assert(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", png);
    unlink(png);

    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "2,28", "--to", "5,5", "--png", "/nonexistent-dir/x.png");
    cr_assert_eq(r.status, CLI_BAD_INPUT);
    cr_assert_str_empty(r.out);
    cr_assert_not_null(strstr(r.err, "/nonexistent-dir/x.png"), "the error does not name the file:\n%s", r.err);
    run_free(&r);

    /* A compiled graph gives the same route. */
    char nav[] = "/tmp/navbot_cli_route_XXXXXX.nav";
    fd = mkstemps(nav, 4);
    cr_assert_geq(fd, 0);
    close(fd);
    r = NAVBOT("compile", "maps/gauntlet.lua", "-o", nav, "--force");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--nav", nav, "--from", "10,18", "--to", "5,5");
    cr_assert_eq(r.status, CLI_OK, "%s", r.err);
    cr_assert_not_null(strstr(r.out, " teleport "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "loaded in"), "%s", r.out);
    run_free(&r);
    unlink(nav);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/*
** test_cli_input.c — bad input gets its message and exit status: points
** off the map, in walls or over voids (1, naming the nearest floor),
** options out of range (2, with the range), brains and policies with
** unknown keys (the bot faults, naming the key and the expected ones),
** --until-arrived (3 unless every bot arrived); and points without Z read
** the same way everywhere, bots spread over the floor, route times to the
** goal point.
*/
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "map/map.h"
#include "test_cli_run.h"
#include "test_support.h"

static void expect(Run *r, int status, const char *in_err)
{
    cr_assert_eq(r->status, status, "status %d, expected %d:\n%s%s", r->status, status, r->out, r->err);
    if (in_err) cr_assert_not_null(strstr(r->err, in_err), "'%s' not in:\n%s", in_err, r->err);
    run_free(r);
}

/* A brain file in a fresh temporary folder; path gets its name. */
static void temp_brain(char path[96], const char *text)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/navbot-input-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, 96, "%s/brain.lua", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static void temp_brain_remove(const char *path)
{
    unlink(path);
    char dir[96];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
}

Test(cli_input, points_off_the_floor_exit_1_naming_the_nearest_floor)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "500,500");
    expect(&r, 1, "navbot run: --goal 500,500: outside the map (24.0 x 14.0 m); the nearest floor is at 23.25,13.25,0.00");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "0.2,0.2");
    expect(&r, 1, "--goal 0.2,0.2: in a wall; the nearest floor is at 0.75,0.75,0.00");
    r = NAVBOT("run", "maps/gauntlet.lua", "--bot", "runner", "--goal", "33.25,15.25");
    expect(&r, 1, "--goal 33.25,15.25: over a void; the nearest floor is at ");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner@-4,13", "--ticks", "1");
    expect(&r, 1, "--bot runner@-4,13: outside the map (24.0 x 14.0 m); the nearest floor is at 0.75,12.75,0.00");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--bot-goal", "30,2");
    expect(&r, 1, "--bot-goal 30,2: outside the map");
    r = NAVBOT("sim", "maps/arena.lua", "runner", "--goal", "500,500", "--headless", "--ticks", "1");
    expect(&r, 1, "navbot sim: --goal 500,500: outside the map");
    /* With a Z: no floor at that height (inside the solid under a floor). */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "5,5,-3");
    expect(&r, 1, "--goal 5,5,-3: in a wall or solid at that height");
    r = NAVBOT("route", "maps/arena.lua", "--from", "2,12", "--to", "500,5");
    expect(&r, 1, "navbot route: --to 500,5: outside the map; the nearest floor is at 23.25,");
    r = NAVBOT("path", "maps/arena.lua", "--from", "0.2,0.2", "--to", "12,7");
    expect(&r, 1, "navbot path: --from 0.2,0.2: in a wall; the nearest floor is at 0.75,0.75");
    r = NAVBOT("path", "maps/arena.lua", "--from", "2,12", "--to", "-1,7");
    expect(&r, 1, "navbot path: --to -1,7: outside the map");
    /* Not a point and not an entity: usage. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "nowhere");
    expect(&r, 2, "--goal nowhere: no spawn or entity 'nowhere'");
}

Test(cli_input, options_out_of_range_exit_2_with_the_range)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--hz", "0");
    expect(&r, 2, "--hz needs a whole number from 1 to 1000");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--ticks", "-1");
    expect(&r, 2, "--ticks needs a whole number from 1 to 134217728 (the limit)");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--ticks", "0");
    expect(&r, 2, "--ticks needs a whole number from 1 to 134217728 (the limit)");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--until-arrived", "--max-ticks", "0");
    expect(&r, 2, "--max-ticks needs a whole number from 1 to 134217728 (the limit)");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner:0");
    expect(&r, 2, "COUNT from 1 to");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner:-3");
    expect(&r, 2, "COUNT from 1 to");
    r = NAVBOT("sim", "maps/tower.lua", "runner", "--headless", "--ticks", "1", "--level", "9", "--png", "/tmp/navbot-level.png");
    expect(&r, 2,
           "navbot sim: --level 9: maps/tower.lua has no such storey; its storeys are: 1 (ground), 2 (second), 3 "
           "(third), 4 (roof)");
    r = NAVBOT("sim", "maps/arena.lua", "runner", "--headless", "--ticks", "1", "--level", "2", "--png", "/tmp/navbot-level.png");
    expect(&r, 2, "has no such storey; its storeys are: 1 (one storey)");
    r = NAVBOT("sim", "maps/tower.lua", "runner", "--headless", "--ticks", "1", "--level", "0");
    expect(&r, 2, "--level 0: maps/tower.lua has no such storey");
    r = NAVBOT("sim", "maps/arena.lua", "runner", "--headless", "--hz", "0");
    expect(&r, 2, "--hz needs a whole number from 1 to 1000");
    r = NAVBOT("test", "--jobs", "0");
    expect(&r, 2, "--jobs");
    unlink("/tmp/navbot-level.png");
}

Test(cli_input, a_brain_with_an_unknown_key_faults_naming_it)
{
    char path[96];
    temp_brain(path, "return { spawn = function(bot) end, thinks = function(bot, dt) end, zzz = 1 }\n");
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", path, "--ticks", "3");
    cr_assert_eq(r.status, 0, "--ticks runs exit 0: %s", r.err);
    cr_assert_not_null(strstr(r.out, "the brain table has an unknown key 'thinks'; expected spawn, think, behave"),
                       "%s", r.out);
    cr_assert_not_null(strstr(r.out, "1 faulted"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("run", "maps/arena.lua", "--bot", path, "--goal", "12,7");
    expect(&r, 3, NULL);
    temp_brain_remove(path);
}

Test(cli_input, a_misspelt_policy_field_faults_naming_it)
{
    char path[96];
    temp_brain(path, "local policy = require 'policy'\n"
                     "return { spawn = function(bot) policy.define('careful', { forbids = { 'jump' } }) end }\n");
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", path, "--ticks", "2");
    cr_assert_eq(r.status, 0);
    cr_assert_not_null(strstr(r.out, "policy.define('careful'): unknown field 'forbids'; expected avoid, contents, forbid or slack"),
                       "%s", r.out);
    run_free(&r);
    temp_brain_remove(path);

    temp_brain(path, "local policy = require 'policy'\n"
                     "return { spawn = function(bot) policy.define('careful', { avoid = { 'jmup' } }) end }\n");
    r = NAVBOT("run", "maps/arena.lua", "--bot", path, "--ticks", "2");
    cr_assert_not_null(strstr(r.out, "policy.define('careful'): avoid: unknown travel type 'jmup'; expected one of: walk,"),
                       "%s", r.out);
    run_free(&r);
    temp_brain_remove(path);
}

Test(cli_input, until_arrived_exits_0_only_when_every_bot_arrived)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "12,7", "--until-arrived");
    expect(&r, 0, NULL);
    /* The default is --until-arrived. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "12,7");
    expect(&r, 0, NULL);
    /* One that does not arrive by the cap. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--goal", "12,7", "--until-arrived", "--max-ticks", "5");
    expect(&r, 3, "stopped at the cap of 5 ticks");
    /* One that faults, beside one that arrives. */
    char path[96];
    temp_brain(path, "return { think = function(bot) error('boom') end }\n");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--bot", path, "--goal", "12,7");
    cr_assert_eq(r.status, 3, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "1 arrived, 1 faulted"), "%s", r.out);
    run_free(&r);
    /* --ticks runs end 0 whatever happened. */
    r = NAVBOT("run", "maps/arena.lua", "--bot", path, "--goal", "12,7", "--ticks", "5");
    expect(&r, 0, NULL);
    temp_brain_remove(path);
}

/* Every bot's position from run --json, in order. */
static int json_positions(const char *json, float (*pos)[3], int cap)
{
    int n = 0;
    for (const char *p = strstr(json, "\"pos\""); p && n < cap; p = strstr(p + 1, "\"pos\"")) {
        const char *q = strchr(p, '[');
        cr_assert_not_null(q);
        q++;
        for (int k = 0; k < 3; k++) {
            char *end;
            while (*q == ' ' || *q == ',' || *q == '\n') q++;
            pos[n][k] = strtof(q, &end);
            q = end;
        }
        n++;
    }
    return n;
}

Test(cli_input, many_bots_spread_over_the_floor_or_say_how_many_fit)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner:1000@spawn_a", "--ticks", "1");
    expect(&r, 1, "navbot run: --bot runner: only 280 bodies fit on the free floor reachable from (1.75, 12.75, 0.00)");
    r = NAVBOT("run", "maps/arena.lua", "--bot", "runner:280@spawn_a", "--ticks", "1", "--json", "--quiet");
    cr_assert_eq(r.status, 0, "%s", r.err);
    static float pos[300][3];
    int n = json_positions(r.out, pos, 300);
    run_free(&r);
    cr_assert_eq(n, 280);
    /* No two bodies overlap (0.8 m wide, moved at most one tick's run). */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1];
            cr_assert(fmaxf(fabsf(dx), fabsf(dy)) >= 0.8f - 0.41f, "bots %d and %d at (%g, %g) and (%g, %g)", i, j,
                      pos[i][0], pos[i][1], pos[j][0], pos[j][1]);
        }
    /* A thousand where there is room. */
    r = NAVBOT("run", "maps/valley.lua", "--bot", "rts:1000@20,40", "--ticks", "1", "--quiet");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "1000 bots:"), "%s", r.out);
    run_free(&r);
}

/* No Z means the lowest floor (not a void) under X,Y, for every command:
** checked against the columns themselves on the stacked tower. */
Test(cli_input, a_point_without_z_is_on_the_lowest_floor)
{
    NavError e;
    nav_error_clear(&e);
    NavWorld *w = map_load_file("maps/tower.lua", NULL, &e);
    cr_assert_not_null(w, "%s", e.message);
    int stacked = 0;
    char where[64] = "";
    float want_z = 0;
    for (int cy = 0; cy < world_height(w); cy++) {
        for (int cx = 0; cx < world_width(w); cx++) {
            int n;
            const NavFloor *f = world_column(w, cx, cy, &n);
            float lowest = INFINITY;
            int finite = 0;
            for (int i = 0; i < n; i++)
                if (isfinite(f[i].z)) {
                    finite++;
                    if (f[i].z < lowest) lowest = world_standing_height(&f[i]);
                }
            float x, y, out[3], near[3];
            world_cell_center(w, cx, cy, &x, &y);
            float p[3] = { x, y, 0.0f };
            const char *why = NULL;
            bool ok = cli_floor_point(w, p, false, out, near, &why);
            cr_assert_eq(ok, finite > 0, "cell %d,%d", cx, cy);
            if (!ok) continue;
            cr_assert_float_eq(out[2], lowest, 1e-6f, "cell %d,%d", cx, cy);
            if (finite >= 2 && f[0].contents == NAV_CONTENTS_FLOOR && !where[0] && cx > 2 && cy > 2 &&
                f[n - 1].z - f[0].z > 2.0f) {
                stacked++;
                snprintf(where, sizeof where, "%g,%g", (double)x, (double)y);
                want_z = lowest;
            }
        }
    }
    cr_assert(stacked, "the tower has stacked floors");
    world_destroy(w);
    /* run and route put it there too. */
    char bot[96];
    snprintf(bot, sizeof bot, "runner@%s", where);
    Run r = NAVBOT("run", "maps/tower.lua", "--bot", bot, "--ticks", "1", "--json", "--quiet");
    cr_assert_eq(r.status, 0, "%s", r.err);
    float pos[1][3];
    cr_assert_eq(json_positions(r.out, pos, 1), 1);
    cr_assert(fabsf(pos[0][2] - want_z) < 0.5f, "run put the bot at z %g, the lowest floor is %g", pos[0][2], want_z);
    run_free(&r);
    r = NAVBOT("route", "maps/tower.lua", "--from", where, "--to", where);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *from = strstr(r.out, "from       (");
    cr_assert_not_null(from, "%s", r.out);
    float fx, fy, fz;
    cr_assert_eq(sscanf(from, "from       (%f, %f, %f)", &fx, &fy, &fz), 3);
    cr_assert(fabsf(fz - want_z) < 0.5f, "route put --from at z %g, the lowest floor is %g", fz, want_z);
    run_free(&r);
}

/* route's time is to the goal point: within one area it is the walk across
** it, not 0; and it is never less than the time to enter the goal's area. */
Test(cli_input, route_time_is_to_the_goal_point)
{
    /* One area: 1.5 m north at the human's run of 6 m/s. */
    Run r = NAVBOT("route", "maps/arena.lua", "--from", "3,10.5", "--to", "3,12", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *t = strstr(r.out, "\"time\":");
    const char *en = strstr(r.out, "\"enter_time\":");
    cr_assert(t && en, "%s", r.out);
    long time = strtol(t + 7, NULL, 10), enter = strtol(en + 13, NULL, 10);
    cr_assert_eq(enter, 0, "%s", r.out);
    cr_assert(time >= 24 && time <= 26, "%ld hundredths for 1.5 m", time);
    run_free(&r);
    /* Across areas: the route into the goal's area, then on to the point. */
    r = NAVBOT("route", "maps/arena.lua", "--from", "3,10.5", "--to", "6,10.5", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    t = strstr(r.out, "\"time\":");
    en = strstr(r.out, "\"enter_time\":");
    time = strtol(t + 7, NULL, 10), enter = strtol(en + 13, NULL, 10);
    cr_assert_gt(time, enter, "%s", r.out);
    run_free(&r);
    r = NAVBOT("route", "maps/gauntlet.lua", "--from", "2,28", "--to", "3.5,20,3.5");
    cr_assert_eq(r.status, 0);
    cr_assert_not_null(strstr(r.out, "to the goal point;"), "%s", r.out);
    run_free(&r);
}

/* navbot test --json: one object; a golden mismatch names the first tick
** where the per-tick hashes part (here tick 11, altered in a copy). */
Test(cli_input, test_json_and_the_first_differing_tick)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/navbot-golden-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char lua[128], hash[128], text[1 << 16];
    snprintf(lua, sizeof lua, "%s/travel_walk.lua", dir);
    snprintf(hash, sizeof hash, "%s/travel_walk.hash", dir);
    FILE *in = fopen("tests/scenarios/travel_walk.lua", "r");
    cr_assert_not_null(in);
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    FILE *out = fopen(lua, "w");
    fwrite(text, 1, n, out);
    fclose(out);
    in = fopen("tests/scenarios/travel_walk.hash", "r");
    cr_assert_not_null(in);
    n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    char *per = strstr(text, "per-tick ");
    cr_assert_not_null(per, "the golden file keeps per-tick hashes");
    /* Tick 11's hash: characters 80..87 after the word. */
    char *d = per + 9 + 10 * 8;
    *d = *d == '0' ? '1' : '0';
    text[0] = text[0] == '0' ? '1' : '0'; /* and the final hash */
    out = fopen(hash, "w");
    fwrite(text, 1, n, out);
    fclose(out);

    Run r = NAVBOT("test", "--json", "--keep", dir, lua);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert_eq(r.out[0], '{', "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"name\": \"travel_walk\""), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"passed\": false"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"seconds\": "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "The traces first differ at tick 11 "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"failed\": 1"), "%s", r.out);
    cr_assert_null(strstr(r.out, "0 passed, 1 failed"), "only JSON: %s", r.out);
    run_free(&r);

    r = NAVBOT("test", "--json", "tests/scenarios/travel_walk.lua", "tests/scenarios/travel_swim.lua", "--jobs", "2");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "\"failures\": []"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\"passed\": 2"), "%s", r.out);
    run_free(&r);

    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

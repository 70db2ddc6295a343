/*
** test_lua_paths.c — where navbot finds Lua files: the bundled library
** beside the executable whatever the current folder, the search order
** (own folder, --lua-path, NAVBOT_PATH, bundled), brains given by path,
** maps and scenarios that require helpers, and `navbot init`.
*/
#define _DEFAULT_SOURCE /* realpath */
#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lua/lua_paths.h"
#include "test_cli_run.h"
#include "test_support.h"

/* {======= helpers ======= */

static void put(const char *dir, const char *rel, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char sub[PATH_MAX];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            remove_tree(sub);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* A fresh temporary folder; the repository's root (the tests' folder) in repo. */
static void temp_dir(char out[64], char repo[PATH_MAX])
{
    cr_assert_not_null(getcwd(repo, PATH_MAX));
    snprintf(out, 64, "/tmp/navbot-paths-XXXXXX");
    cr_assert_not_null(mkdtemp(out));
}

static const char *GUARD =
    "local follow = require \"follow\"\n"   /* bundled lua/ */
    "local helper = require \"helper\"\n"   /* --lua-path or NAVBOT_PATH */
    "local near = require \"near\"\n"       /* the brain's own folder */
    "local brain = {}\n"
    "function brain.spawn(bot) f = follow.new(bot, { policy = \"default\" }) print(helper.word .. near.word) end\n"
    "function brain.think(bot, dt) f:update(dt) end\n"
    "return brain\n";

/* }======= */

Test(lua_paths, the_bundled_library_is_found_beside_the_executable)
{
    char dir[PATH_MAX], root[PATH_MAX], repo[PATH_MAX], real[PATH_MAX], want[PATH_MAX + 8];
    cr_assert_not_null(getcwd(repo, sizeof repo));
    cr_assert_not_null(realpath(repo, real));
    cr_assert(nav_lua_bundled_root(root, sizeof root));
    cr_assert(nav_lua_bundled_dir(dir, sizeof dir));
    cr_assert_str_eq(root, real, "the tests run from the checkout, which holds the bundled lua/");
    snprintf(want, sizeof want, "%s/lua", real);
    cr_assert_str_eq(dir, want);
    /* Not the current folder: the same answer from elsewhere. */
    cr_assert_eq(chdir("/"), 0);
    char again[PATH_MAX];
    cr_assert(nav_lua_bundled_dir(again, sizeof again));
    cr_assert_str_eq(again, want);
    cr_assert_eq(chdir(repo), 0);
}

Test(lua_paths, modules_are_found_in_order_and_misses_list_every_file)
{
    char tmp[64], repo[PATH_MAX];
    temp_dir(tmp, repo);
    put(tmp, "a/x.lua", "return 1\n");
    put(tmp, "b/x.lua", "return 2\n");
    put(tmp, "b/ai/path.lua", "return 3\n");
    char a[128], b[128], c[128];
    snprintf(a, sizeof a, "%s/a/", tmp); /* a trailing '/' is dropped */
    snprintf(b, sizeof b, "%s/b", tmp);
    snprintf(c, sizeof c, "%s/c", tmp);
    NavLuaPath p = { 0 };
    NavError e;
    nav_error_clear(&e);
    cr_assert(NAV_SUCCEEDED(nav_lua_path_add(&p, a, NAV_LUA_DIR_MODULES, &e)));
    char list[600];
    snprintf(list, sizeof list, ":%s::%s:%s", b, c, b); /* empty items skipped, b once */
    cr_assert(NAV_SUCCEEDED(nav_lua_path_add_list(&p, list, &e)));
    cr_assert_eq(p.count, 3);
    char path[NAV_LUA_PATH_CAP], tried[1024], want[512];
    cr_assert_eq(nav_lua_path_find(&p, "x", false, path, sizeof path, tried, sizeof tried), 0);
    snprintf(want, sizeof want, "%s/a/x.lua", tmp);
    cr_assert_str_eq(path, want);
    /* Brains skip modules-only folders. */
    cr_assert_eq(nav_lua_path_find(&p, "x", true, path, sizeof path, tried, sizeof tried), 1);
    cr_assert_eq(nav_lua_path_find(&p, "ai.path", false, path, sizeof path, tried, sizeof tried), 1);
    snprintf(want, sizeof want, "%s/b/ai/path.lua", tmp);
    cr_assert_str_eq(path, want);
    cr_assert_eq(nav_lua_path_find(&p, "gone", false, path, sizeof path, tried, sizeof tried), -1);
    snprintf(want, sizeof want, "\n\tno file '%s/a/gone.lua'\n\tno file '%s/b/gone.lua'\n\tno file '%s/c/gone.lua'", tmp,
             tmp, tmp);
    cr_assert_str_eq(tried, want);
    nav_lua_path_free(&p);

    cr_assert_null(nav_lua_name_problem("ai.path"));
    cr_assert_not_null(nav_lua_name_problem("../x"));
    cr_assert_not_null(nav_lua_name_problem("a/b"));
    cr_assert_not_null(nav_lua_name_problem(""));
    cr_assert(nav_lua_is_file("./guard.lua"));
    cr_assert(nav_lua_is_file("guard.lua"));
    cr_assert(nav_lua_is_file("~/bots/guard"));
    cr_assert(!nav_lua_is_file("guard"));
    remove_tree(tmp);
}

/* --bot as a path from another folder: require finds the brain's own
** folder, then --lua-path, then the bundled lua/; without the --lua-path
** the fault lists every file looked for; NAVBOT_PATH works like it. */
Test(lua_paths, a_brain_by_path_requires_along_the_search_path_from_any_folder)
{
    char tmp[64], repo[PATH_MAX];
    temp_dir(tmp, repo);
    put(tmp, "game/bots/guard.lua", GUARD);
    put(tmp, "game/bots/near.lua", "return { word = \"-near\" }\n");
    put(tmp, "game/lib/helper.lua", "return { word = \"helper\" }\n");
    char map[PATH_MAX + 32], lib[128], guard[128], elsewhere[128];
    snprintf(map, sizeof map, "%s/maps/arena.lua", repo);
    snprintf(lib, sizeof lib, "%s/game/lib", tmp);
    snprintf(guard, sizeof guard, "%s/game/bots/guard.lua", tmp);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tmp);
    mkdir(elsewhere, 0700);
    cr_assert_eq(chdir(elsewhere), 0);

    char want[PATH_MAX + 64];
    Run r = NAVBOT("run", map, "--bot", guard, "--lua-path", lib, "--goal", "12,7", "--ticks", "5");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.out, "faulted:"), "%s", r.out);
    cr_assert_not_null(strstr(r.err, "helper-near"), "%s", r.err);
    run_free(&r);

    /* A relative path, from the current folder. */
    r = NAVBOT("run", map, "--bot", "../game/bots/guard.lua", "--lua-path", "../game/lib", "--ticks", "2");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.out, "faulted:"), "%s", r.out);
    run_free(&r);

    r = NAVBOT("run", map, "--bot", guard, "--ticks", "2");
    cr_assert_eq(r.status, 0, "a brain's fault is the bot's: %s", r.err);
    snprintf(want, sizeof want, "module 'helper' not found:");
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "no file '%s/game/bots/helper.lua'", tmp);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "no file '%s/lua/helper.lua'", repo);
    cr_assert_not_null(strstr(r.out, want), "the bundled lua/ is searched: %s", r.out);
    run_free(&r);

    char env[256];
    snprintf(env, sizeof env, "%s/nothing:%s", tmp, lib);
    setenv("NAVBOT_PATH", env, 1);
    r = NAVBOT("run", map, "--bot", guard, "--ticks", "2");
    unsetenv("NAVBOT_PATH");
    cr_assert_eq(r.status, 0);
    cr_assert_null(strstr(r.out, "faulted:"), "NAVBOT_PATH: %s", r.out);
    run_free(&r);

    /* A brain name is looked up along --lua-path too. */
    char bots[128];
    snprintf(bots, sizeof bots, "%s/game/bots", tmp);
    r = NAVBOT("run", map, "--bot", "guard", "--lua-path", bots, "--lua-path", lib, "--ticks", "2");
    cr_assert_eq(r.status, 0);
    cr_assert_null(strstr(r.out, "faulted:"), "%s", r.out);
    run_free(&r);

    /* The bundled runner by name, from here. */
    r = NAVBOT("run", map, "--bot", "runner", "--ticks", "2");
    cr_assert_eq(r.status, 0);
    cr_assert_null(strstr(r.out, "faulted:"), "%s", r.out);
    run_free(&r);

    r = NAVBOT("run", map, "--bot", "nobody", "--ticks", "2");
    cr_assert_not_null(strstr(r.out, "brain 'nobody' not found:"), "%s", r.out);
    snprintf(want, sizeof want, "no file '%s/bots/nobody.lua'", repo);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    run_free(&r);

    r = NAVBOT("run", map, "--bot", "runner", "--lua-path", "no/such/folder");
    cr_assert_eq(r.status, 2);
    cr_assert_not_null(strstr(r.err, "--lua-path no/such/folder: no such folder"), "%s", r.err);
    run_free(&r);

    cr_assert_eq(chdir(repo), 0);
    remove_tree(tmp);
}

/* A map requires a helper beside it, and one along --lua-path. */
Test(lua_paths, maps_require_helpers)
{
    char tmp[64], repo[PATH_MAX];
    temp_dir(tmp, repo);
    put(tmp, "maps/rooms.lua", "local rows = require \"rowmaker\"\n"
                               "local legend = require \"legend\"\n"
                               "return { name = \"rooms\", legend = legend,\n"
                               "  layers = { { z = 0, rows = rows(8, 6) } },\n"
                               "  entities = { { type = \"spawn\", name = \"s\", at = { 1, 1 } } } }\n");
    put(tmp, "maps/rowmaker.lua", "return function(w, h)\n"
                                  "  local t = { string.rep('#', w) }\n"
                                  "  for i = 1, h - 2 do t[#t + 1] = '#' .. string.rep('.', w - 2) .. '#' end\n"
                                  "  t[#t + 1] = string.rep('#', w)\n"
                                  "  return table.concat(t, '\\n')\n"
                                  "end\n");
    put(tmp, "common/legend.lua", "return { ['#'] = 'solid', ['.'] = 'floor' }\n");
    char map[128], common[128];
    snprintf(map, sizeof map, "%s/maps/rooms.lua", tmp);
    snprintf(common, sizeof common, "%s/common", tmp);
    Run r = NAVBOT("info", map, "--lua-path", common);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "rooms"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("info", map);
    cr_assert_eq(r.status, 1);
    cr_assert_not_null(strstr(r.err, "module 'legend' not found:"), "%s", r.err);
    run_free(&r);
    remove_tree(tmp);
}

/* init into a temporary folder, then from elsewhere: run the brain on the
** map and the scenario with navbot test; a second init refuses. */
Test(lua_paths, init_writes_a_project_that_works_from_anywhere)
{
    char tmp[64], repo[PATH_MAX];
    temp_dir(tmp, repo);
    char proj[128], other[128];
    snprintf(proj, sizeof proj, "%s/demo/nested", tmp);
    snprintf(other, sizeof other, "%s/other", tmp);
    mkdir(other, 0700);
    cr_assert_eq(chdir(other), 0);
    Run r = NAVBOT("init", proj);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    run_free(&r);
    static const char *const files[] = { "bots/scout.lua", "maps/yard.lua", "tests/scout_crosses_yard.lua",
                                         "tests/scout_crosses_yard.hash", "README.md" };
    char path[256];
    for (size_t i = 0; i < NAV_ARRAY_COUNT(files); i++) {
        snprintf(path, sizeof path, "%s/%s", proj, files[i]);
        cr_assert_eq(access(path, R_OK), 0, "%s", path);
    }

    char map[256], brain[256], tests[256];
    snprintf(map, sizeof map, "%s/maps/yard.lua", proj);
    snprintf(brain, sizeof brain, "%s/bots/scout.lua", proj);
    snprintf(tests, sizeof tests, "%s/tests", proj);
    r = NAVBOT("run", map, "--bot", brain);
    cr_assert_eq(r.status, 0, "every bot arrived: %s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "1 arrived, 0 faulted"), "%s", r.out);
    run_free(&r);
    r = NAVBOT("test", tests);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "1 passed, 0 failed"), "%s", r.out);
    run_free(&r);

    /* The README's commands, from the project's folder. */
    cr_assert_eq(chdir(proj), 0);
    r = NAVBOT("run", "maps/yard.lua", "--bot", "bots/scout.lua:4", "--goal", "flag");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    run_free(&r);
    r = NAVBOT("test", "tests/");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    run_free(&r);

    cr_assert_eq(chdir(other), 0);
    r = NAVBOT("init", proj);
    cr_assert_eq(r.status, 1);
    snprintf(path, sizeof path, "%s/bots/scout.lua exists; not overwriting it", proj);
    cr_assert_not_null(strstr(r.err, path), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "nothing written"), "%s", r.err);
    run_free(&r);

    r = NAVBOT("init");
    cr_assert_eq(r.status, 2);
    run_free(&r);
    cr_assert_eq(chdir(repo), 0);
    remove_tree(tmp);
}

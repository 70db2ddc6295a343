/*
** test_limits.c — the limits of core/limits.h, each refused where the
** input is read with an error naming the file, the line when there is
** one, the field and the limit: a 20,000 x 20,000 Moving AI header, a map
** declaring a million entities, a trace and a golden file claiming 2^40
** ticks, a .nav file claiming more areas or links than allowed, a bot past
** the simulation's limit, a run or scenario asking for more ticks.
** (Brain memory and instructions: test_brain.c and the script_loops
** scenario.)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "area/area.h"
#include "core/limits.h"
#include "map/map.h"
#include "scenario/golden.h"
#include "script/run_trace.h"
#include "sim/sim.h"
#include "test_cli_run.h"
#include "test_support.h"

static void put_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static char *limit_text(unsigned long long v)
{
    static char s[32];
    snprintf(s, sizeof s, "%llu", v);
    return s;
}

Test(limits, movingai_header_past_the_side_or_the_cells)
{
    NavError err;
    nav_error_clear(&err);
    const char *big = "type octile\nheight 20000\nwidth 20000\nmap\n";
    cr_assert_null(map_load_movingai(big, strlen(big), "big.map", &err));
    cr_assert_str_eq(err.file, "big.map");
    cr_assert_eq(err.line, 2, "the height line");
    cr_assert_str_eq(err.field, "height");
    cr_assert_not_null(strstr(err.message, limit_text(NAV_LIMIT_WORLD_SIDE)), "%s", err.message);

    /* Each side within the limit, the cells not. */
    const char *wide = "type octile\nheight 16000\nwidth 16000\nmap\n";
    nav_error_clear(&err);
    cr_assert_null(map_load_movingai(wide, strlen(wide), "wide.map", &err));
    cr_assert_eq(err.line, 3, "the later of the size lines");
    cr_assert_str_eq(err.field, "size");
    cr_assert_not_null(strstr(err.message, limit_text(NAV_LIMIT_CELLS)), "%s", err.message);
}

Test(limits, a_million_entities_fail_at_once)
{
    const char *src = "local e, t = {}, { type = 'goal', at = { 1, 0.5, 0 } }\n"
                      "for i = 1, 1000000 do e[i] = t end\n"
                      "return { name = 'many', layers = { { rows = { '....', '....' } } }, entities = e }\n";
    NavError err;
    nav_error_clear(&err);
    cr_assert_null(map_load_buffer(src, strlen(src), "many.lua", NULL, &err));
    cr_assert_str_eq(err.file, "many.lua");
    cr_assert_str_eq(err.field, "entities");
    cr_assert_not_null(strstr(err.message, "1000000 entities is over the limit of 4096"), "%s", err.message);

    /* One past the limit, added one by one (a generated map, the API). */
    const char *ok = "return { layers = { { rows = { '....', '....' } } } }";
    NavWorld *w = map_load_buffer(ok, strlen(ok), "one.lua", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavEntity e;
    memset(&e, 0, sizeof e);
    e.type = NAV_ENTITY_GOAL;
    e.mins[0] = e.maxs[0] = 0.75f;
    e.mins[1] = e.maxs[1] = 0.75f;
    for (int i = 0; i < NAV_LIMIT_ENTITIES; i++)
        cr_assert(NAV_SUCCEEDED(world_add_entity(w, &e, NULL, &err)), "entity %d: %s", i, err.message);
    nav_error_clear(&err);
    cr_assert(NAV_FAILED(world_add_entity(w, &e, NULL, &err)));
    cr_assert_str_eq(err.field, "entities[4097]");
    cr_assert_not_null(strstr(err.message, "limit of 4096 entities"), "%s", err.message);
    cr_assert_eq(world_entity_count(w), NAV_LIMIT_ENTITIES);
    world_destroy(w);
}

Test(limits, a_trace_claiming_2_to_the_40_ticks_is_refused)
{
    const char *path = "/tmp/navbot_test_limits_big.trace";
    put_text(path, "navbot-trace 2\nmap maps/arena.lua\nseed 1\nhz 30\nroot .\nbot 0 runner human\n"
                   "tick 1 0000000000000001\nb 0 2 12 0 0 0 0 0 g\n"
                   "tick 1099511627776 0000000000000002\nb 0 2 12 0 0 0 0 0 g\n");
    NavError err;
    nav_error_clear(&err);
    cr_assert_null(run_trace_load(path, &err));
    cr_assert_str_eq(err.file, path);
    cr_assert_eq(err.line, 9);
    cr_assert_str_eq(err.field, "tick");
    cr_assert_not_null(strstr(err.message, "1099511627776 is over the limit of 134217728 ticks"), "%s", err.message);
    /* The command line says the same and exits 1. */
    Run r = NAVBOT("replay", path, "--headless", "--png-every", "30", "/tmp/navbot_test_limits_frames");
    cr_assert_eq(r.status, CLI_BAD_INPUT, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "over the limit"), "%s", r.err);
    run_free(&r);
    remove(path);
}

Test(limits, a_golden_file_claiming_2_to_the_40_ticks_is_not_read)
{
    const char *path = "/tmp/navbot_test_limits_golden.hash";
    put_text(path, "00000000000000aa 1099511627776 ticks 1.00 s\nper-tick 0000000100000002\n");
    ScenarioGolden g;
    scenario_golden_read("/tmp/navbot_test_limits_golden.lua", &g);
    cr_assert(g.exists);
    cr_assert_not(g.valid);
    cr_assert_null(g.per_tick, "no per-tick table for 2^40 ticks");
    cr_assert_not_null(strstr(g.problem, "over the limit of 134217728"), "%s", g.problem);
    scenario_golden_free(&g);
    remove(path);
}

/* CRC-32 (IEEE), to re-seal a patched section. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void set32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

Test(limits, a_nav_file_claiming_too_many_areas_or_links_is_refused)
{
    NavWorld *w = test_load_map("maps/arena.lua");
    NavError err;
    NavAreaGraph *ag = area_build(w, 0, NULL, &err);
    cr_assert_not_null(ag, "%s", err.message);
    uint8_t *data;
    size_t len;
    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    /* The header is 84 bytes; the AREA section's tag, size, crc, then its count. */
    size_t area_at = 84;
    cr_assert_eq(memcmp(data + area_at, "AREA", 4), 0);
    uint32_t size = get32(data + area_at + 4);
    set32(data + area_at + 12, NAV_LIMIT_AREAS + 1);
    set32(data + area_at + 8, crc32_of(data + area_at + 12, size));
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "many.nav", &err));
    cr_assert_str_eq(err.file, "many.nav");
    cr_assert_not_null(strstr(err.message, "over the limit of 4194304"), "%s", err.message);
    nav_free(data);

    cr_assert(NAV_SUCCEEDED(area_save_buffer(ag, &data, &len, &err)));
    size_t link_at = area_at + 12 + size;
    cr_assert_eq(memcmp(data + link_at, "LINK", 4), 0);
    uint32_t lsize = get32(data + link_at + 4);
    set32(data + link_at + 12, NAV_LIMIT_LINKS + 1);
    set32(data + link_at + 8, crc32_of(data + link_at + 12, lsize));
    nav_error_clear(&err);
    cr_assert_null(area_load_buffer(w, 0, data, len, "many.nav", &err));
    cr_assert_not_null(strstr(err.message, "over the limit of 33554432"), "%s", err.message);
    nav_free(data);
    area_destroy(ag);
    world_destroy(w);
}

Test(limits, runs_and_scenarios_asking_for_too_many_ticks)
{
    Run r = NAVBOT("run", "maps/arena.lua", "--bot", "runner", "--ticks", "134217729");
    cr_assert_eq(r.status, CLI_USAGE);
    cr_assert_not_null(strstr(r.err, "134217728"), "%s", r.err);
    run_free(&r);
    r = NAVBOT("sim", "maps/arena.lua", "runner", "--headless", "--ticks", "1099511627776");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);
    r = NAVBOT("soak", "--ticks", "200000000");
    cr_assert_eq(r.status, CLI_USAGE);
    run_free(&r);

    const char *path = "/tmp/navbot_test_limits_forever.lua";
    put_text(path,
             "local S = require 'scenario'\n"
             "return S.scenario { map = 'maps/arena.lua', time_limit = 1e12,\n"
             "  bots = { S.bot { name = 'r', brain = 'runner', at = 'spawn_a' } }, expect = { S.no_faults() } }\n");
    r = NAVBOT("test", path);
    cr_assert_neq(r.status, CLI_OK);
    cr_assert_not_null(strstr(r.out, "time_limit"), "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "limit of 134217728 ticks"), "%s%s", r.out, r.err);
    run_free(&r);
    remove(path);
}

Test(limits, a_bot_past_the_simulation_limit_is_refused)
{
    /* A map of exactly NAV_LIMIT_BOTS free cells, one bot on each. */
    const char *src = "return { cell_size = 1.0, layers = { { rows = (string.rep('.', 256) .. '\\n'):rep(256) } } }";
    NavError err;
    NavWorld *w = map_load_buffer(src, strlen(src), "field.lua", NULL, &err);
    cr_assert_not_null(w, "%s", err.message);
    NavSim *sim = sim_create(w, &(NavSimDesc){ .seed = 1 }, &err);
    cr_assert_not_null(sim, "%s", err.message);
    for (int i = 0; i < NAV_LIMIT_BOTS; i++) {
        NavBotDesc d = { .cls = 0, .pos = { (float)(i % 256) + 0.5f, (float)(i / 256) + 0.5f, 0 } };
        cr_assert_geq(sim_add_bot(sim, &d, &err), 0, "bot %d: %s", i, err.message);
    }
    nav_error_clear(&err);
    cr_assert_lt(sim_add_bot(sim, &(NavBotDesc){ .cls = 0, .pos = { 0.5f, 0.5f, 0 } }, &err), 0);
    cr_assert_not_null(strstr(err.message, "65536"), "%s", err.message);
    sim_destroy(sim);
    world_destroy(w);
}

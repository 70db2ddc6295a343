/*
** test_player_body.c — the player (script/player_body.h and the command
** line's --player options): keys held as a person would hold them take a
** human up and down a ladder, onto a lift and through a teleporter; the
** controls recorded while keys or a brain drive give the same run, tick
** for tick, when replayed; recordings that are broken or belong to
** another run are refused by `navbot run`, `navbot sim` and scenarios
** with the file, line and field.
*/
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "scenario/scenario.h"
#include "script/player_body.h"
#include "test_cli_run.h"
#include "test_support.h"

static void quiet(void *user, const char *line)
{
    (void)user;
    (void)line;
}

/* {======= keys ======= */

/* What the test holds down; read by the body each tick. */
typedef struct Hands {
    PlayerKeys keys;
} Hands;

static void hands_input(void *user, NavSim *sim, uint32_t bot, PlayerControls *out)
{
    Hands *h = user;
    player_keys_controls(sim, bot, &h->keys, out);
    h->keys.jump = false; /* a tap */
}

typedef struct Rig {
    NavWorld *w;
    NavSession *s;
    NavSim *sim;
    PlayerBody *p;
    uint32_t bot;
    Hands hands;
} Rig;

static void rig_open(Rig *r, const char *map, const float at[3])
{
    memset(r, 0, sizeof *r);
    r->w = test_load_map(map);
    NavError e;
    r->s = session_create(r->w, &(NavSessionDesc){ .seed = 1, .log = quiet }, &e);
    cr_assert_not_null(r->s, "%s", e.message);
    r->sim = session_sim(r->s);
    int id = session_add_bot(r->s, NULL, &(NavBotDesc){ .pos = { at[0], at[1], at[2] } }, &e);
    cr_assert_geq(id, 0, "%s", e.message);
    r->bot = (uint32_t)id;
    r->p = player_body_create(r->s, r->bot, &e);
    cr_assert_not_null(r->p, "%s", e.message);
    player_body_drive_input(r->p, hands_input, &r->hands);
}

static void rig_close(Rig *r)
{
    player_body_destroy(r->p);
    session_destroy(r->s);
    world_destroy(r->w);
}

static const NavBot *body(const Rig *r) { return sim_bot(r->sim, r->bot); }

static void hold(Rig *r, bool n, bool s, bool e, bool w)
{
    r->hands.keys.north = n, r->hands.keys.south = s, r->hands.keys.east = e, r->hands.keys.west = w;
}

Test(player_keys, diagonals_are_full_speed_not_faster_and_the_mouse_faces)
{
    Rig r;
    rig_open(&r, "maps/arena.lua", (float[3]){ 2, 12, 0 });
    PlayerKeys k;
    memset(&k, 0, sizeof k);
    k.north = k.east = true;
    k.look = true;
    k.look_at[0] = 5, k.look_at[1] = 12;
    PlayerControls c;
    player_keys_controls(r.sim, r.bot, &k, &c);
    cr_assert_float_eq(hypotf(c.move[0], c.move[1]), 1.0f, 1e-6);
    cr_assert_gt(c.move[0], 0.0f);
    cr_assert_gt(c.move[1], 0.0f);
    cr_assert(c.look);
    cr_assert_eq(c.look_at[0], 5.0f);
    k.north = k.south = true; /* opposite keys cancel */
    k.east = false;
    player_keys_controls(r.sim, r.bot, &k, &c);
    cr_assert_eq(c.move[0], 0.0f);
    cr_assert_eq(c.move[1], 0.0f);
    /* Held keys drive the body; the facing follows the mouse. */
    r.hands.keys = k;
    hold(&r, false, false, true, false);
    for (int t = 0; t < 15; t++) session_step(r.s);
    cr_assert_gt(body(&r)->pos[0], 3.0f, "x %.2f", (double)body(&r)->pos[0]);
    cr_assert_float_eq(body(&r)->facing, 0.0f, 1.0f); /* toward (5, 12): east */
    rig_close(&r);
    NAV_TEST_LEAK_CHECK();
}

/* Tower, ladder 1: the store room's ladder (x 24.5-26, y 8.5-9), leaning
** on the wall to its north, up through the hatch into the second-floor
** hall (z 4). */
Test(player_keys, a_human_climbs_a_ladder_up_and_down_with_the_keys)
{
    Rig r;
    rig_open(&r, "maps/tower.lua", (float[3]){ 25.25f, 7.0f, 0.0f });
    const NavClass *c = world_class(r.w, 0);
    /* Up: walk north into the ladder's wall and keep going. */
    hold(&r, true, false, false, false);
    int t = 0;
    bool laddered = false;
    for (; t < 300; t++) {
        session_step(r.s);
        laddered |= body(&r)->on_ladder;
        if (body(&r)->on_ground && body(&r)->pos[2] > 3.9f && body(&r)->pos[1] > 9.3f) break;
    }
    cr_assert_lt(t, 300, "not up after 10 s: at (%.2f, %.2f, %.2f)", (double)body(&r)->pos[0],
                 (double)body(&r)->pos[1], (double)body(&r)->pos[2]);
    cr_assert(laddered);
    for (int k = 0; k < 15; k++) session_step(r.s);
    cr_assert_float_eq(body(&r)->pos[2], 4.0f, 0.05f);
    cr_assert_gt(body(&r)->pos[1], 9.5f);
    /* Down: walk back south into the hatch; away from the wall climbs down. */
    hold(&r, false, true, false, false);
    float slowest = 0.0f;
    for (t = 0; t < 300; t++) {
        session_step(r.s);
        slowest = fminf(slowest, body(&r)->vel[2]);
        if (body(&r)->on_ground && body(&r)->pos[2] < 0.1f) break;
    }
    cr_assert_lt(t, 300, "not down after 10 s: at (%.2f, %.2f, %.2f)", (double)body(&r)->pos[0],
                 (double)body(&r)->pos[1], (double)body(&r)->pos[2]);
    /* Climbed, never fell: no faster than the ladder, nothing walked off. */
    cr_assert_geq(slowest, -c->ladder_speed - 0.01f, "fell at %.2f m/s", (double)slowest);
    cr_assert_eq(body(&r)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_WALK_OFF_LEDGE), 0u);
    cr_assert(body(&r)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_LADDER));
    /* At the foot, south walks away into the store room. */
    for (int k = 0; k < 20; k++) session_step(r.s);
    cr_assert_lt(body(&r)->pos[1], 8.0f);
    cr_assert_float_eq(body(&r)->pos[2], 0.0f, 0.05f);
    rig_close(&r);
    NAV_TEST_LEAK_CHECK();
}

/* Tower, the lift: shaft x 24-26, y 19.5-21.5, open to the south, waiting
** at 0. Walk in, press E: it leaves at once and carries the body up. */
Test(player_keys, a_human_rides_the_lift_with_use)
{
    Rig r;
    rig_open(&r, "maps/tower.lua", (float[3]){ 25.0f, 18.0f, 0.0f });
    int lift = world_find_entity(r.w, "lift");
    cr_assert_geq(lift, 0);
    hold(&r, true, false, false, false);
    int t = 0;
    for (; t < 60 && body(&r)->pos[1] < 20.4f; t++) session_step(r.s);
    hold(&r, false, false, false, false);
    for (int k = 0; k < 3; k++) session_step(r.s);
    cr_assert_geq(body(&r)->riding, 0, "not on the lift: at (%.2f, %.2f, %.2f)", (double)body(&r)->pos[0],
                  (double)body(&r)->pos[1], (double)body(&r)->pos[2]);
    cr_assert_eq(sim_entity(r.sim, lift)->phase, 0, "the lift left before use");
    r.hands.keys.use = true;
    session_step(r.s);
    session_step(r.s);
    cr_assert_eq(sim_entity(r.sim, lift)->phase, 1, "use did not send the lift");
    r.hands.keys.use = false;
    for (t = 0; t < 150 && body(&r)->pos[2] < 3.9f; t++) session_step(r.s);
    cr_assert_geq(body(&r)->pos[2], 3.9f);
    cr_assert(body(&r)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_ELEVATOR));
    rig_close(&r);
    NAV_TEST_LEAK_CHECK();
}

/* Gauntlet: from the stair hall onto the teleporter's pad, steering by
** the four keys as a person does (a key while the pad is more than a
** hand off that way). */
Test(player_keys, a_human_takes_a_teleporter)
{
    NavWorld *w = test_load_map("maps/gauntlet.lua");
    const NavEntity *pad = world_entity(w, world_find_entity(w, "tele_hall"));
    const NavEntity *hall = world_entity(w, world_find_entity(w, "spawn_hall"));
    float tx = 0.5f * (pad->mins[0] + pad->maxs[0]), ty = 0.5f * (pad->mins[1] + pad->maxs[1]);
    float at[3] = { 0.5f * (hall->mins[0] + hall->maxs[0]), 0.5f * (hall->mins[1] + hall->maxs[1]), hall->mins[2] };
    world_destroy(w);
    Rig r;
    rig_open(&r, "maps/gauntlet.lua", at);
    bool jumped = false;
    for (int t = 0; t < 300 && !jumped; t++) {
        float dx = tx - body(&r)->pos[0], dy = ty - body(&r)->pos[1];
        hold(&r, dy > 0.2f, dy < -0.2f, dx > 0.2f, dx < -0.2f);
        float before[2] = { body(&r)->pos[0], body(&r)->pos[1] };
        session_step(r.s);
        jumped = hypotf(body(&r)->pos[0] - before[0], body(&r)->pos[1] - before[1]) > 2.0f;
    }
    cr_assert(jumped, "never sent: at (%.2f, %.2f)", (double)body(&r)->pos[0], (double)body(&r)->pos[1]);
    cr_assert(body(&r)->travel_used & NAV_TFL_TYPE(NAV_TRAVEL_TELEPORT));
    rig_close(&r);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= recording and replaying ======= */

#define CLIMB_TICKS 240

Test(player_body, keys_recorded_replay_the_same_run)
{
    Rig r;
    rig_open(&r, "maps/tower.lua", (float[3]){ 25.25f, 7.0f, 0.0f });
    PlayerRecordInfo info = { .map = "maps/tower.lua", .seed = 1, .hz = 30, .cls = "human", .spawn = { 25.25f, 7.0f, 0 } };
    cr_assert(player_body_record(r.p, &info));
    /* A second body, a brain's, near by: its run depends on the player's. */
    NavError e;
    int other = session_add_bot(r.s, "runner", &(NavBotDesc){ .pos = { 23.5f, 5.5f, 0 } }, &e);
    cr_assert_geq(other, 0, "%s", e.message);
    float goal[3] = { 25.25f, 11.0f, 4.0f };
    sim_bot_push_goal(r.sim, (uint32_t)other, goal, 0);
    uint64_t hash[CLIMB_TICKS];
    for (int t = 0; t < CLIMB_TICKS; t++) {
        hold(&r, t < 150, t >= 150, t % 40 < 5, false);
        r.hands.keys.jump = t == 20;
        r.hands.keys.crouch = t >= 200 && t < 210;
        r.hands.keys.look = true;
        r.hands.keys.look_at[0] = (float)t, r.hands.keys.look_at[1] = 3, r.hands.keys.look_at[2] = 0;
        session_step(r.s);
        hash[t] = sim_trace_hash(r.sim);
    }
    const PlayerRecord *rec = player_body_recording(r.p);
    cr_assert(player_body_record_ok(r.p));
    cr_assert_eq(rec->ticks, CLIMB_TICKS);
    /* Through the text, as a file would. */
    size_t n;
    char *text = player_record_text(rec, &n);
    PlayerRecord *back = player_record_parse(text, n, "keys.player", &e);
    cr_assert_not_null(back, "%s", e.message);
    nav_free(text);
    rig_close(&r);

    Rig q;
    rig_open(&q, "maps/tower.lua", (float[3]){ 25.25f, 7.0f, 0.0f });
    other = session_add_bot(q.s, "runner", &(NavBotDesc){ .pos = { 23.5f, 5.5f, 0 } }, &e);
    sim_bot_push_goal(q.sim, (uint32_t)other, goal, 0);
    player_body_drive_replay(q.p, back);
    for (int t = 0; t < CLIMB_TICKS; t++) {
        session_step(q.s);
        cr_assert_eq(sim_trace_hash(q.sim), hash[t], "the replay parted at tick %d", t + 1);
    }
    cr_assert(player_body_replay_over(q.p));
    cr_assert_eq(player_body_ticks(q.p), CLIMB_TICKS);
    /* Past its end the body stands still. */
    float was[3];
    memcpy(was, body(&q)->pos, sizeof was);
    for (int t = 0; t < 30; t++) session_step(q.s);
    cr_assert_float_eq(hypotf(body(&q)->pos[0] - was[0], body(&q)->pos[1] - was[1]), 0.0f, 0.2f);
    rig_close(&q);
    player_record_destroy(back);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= the command line ======= */

static char tmp[256];

static void tmp_path(char *out, size_t cap, const char *name)
{
    if (!tmp[0]) {
        snprintf(tmp, sizeof tmp, "/tmp/navbot-player-XXXXXX");
        cr_assert_not_null(mkdtemp(tmp));
    }
    snprintf(out, cap, "%s/%s", tmp, name);
}

static void remove_tmp(void)
{
    if (!tmp[0]) return;
    static const char *const NAMES[] = { "roof.player", "broken.player", "sim.player", "s.lua", "p.png" };
    char p[400];
    for (size_t i = 0; i < NAV_ARRAY_COUNT(NAMES); i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, NAMES[i]);
        unlink(p);
    }
    rmdir(tmp);
    tmp[0] = '\0';
}

TestSuite(player_cli, .fini = remove_tmp);

static const char *hash_line(const char *out)
{
    const char *h = strstr(out, "trace hash ");
    cr_assert_not_null(h, "%s", out);
    return h;
}

Test(player_cli, run_records_a_brain_and_replays_it_with_the_same_hash)
{
    char rec[300];
    tmp_path(rec, sizeof rec, "roof.player");
    Run a = NAVBOT("run", "maps/tower.lua", "--player", "@25.2,6", "--player-brain", "runner", "--goal", "goal_roof",
                   "--record-player", rec);
    cr_assert_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_assert_not_null(strstr(a.out, "player:runner arrived"), "%s", a.out);
    cr_assert_not_null(strstr(a.err, "player recording written to"), "%s", a.err);
    Run b = NAVBOT("run", "maps/tower.lua", "--play-player", rec);
    cr_assert_eq(b.status, 0, "%s%s", b.out, b.err);
    cr_assert_str_eq(hash_line(b.out), hash_line(a.out));
    cr_assert_not_null(strstr(b.out, "player     no goals"), "%s", b.out);
    /* And headless in navbot sim, with a bot beside it that does not
    ** change the player's run. */
    char png[300];
    tmp_path(png, sizeof png, "p.png");
    Run c = NAVBOT("sim", "maps/tower.lua", "--play-player", rec, "--headless", "--png", png);
    cr_assert_eq(c.status, 0, "%s%s", c.out, c.err);
    cr_assert_str_eq(hash_line(c.out), hash_line(a.out));
    /* JSON says which bot is the player. */
    Run d = NAVBOT("run", "maps/tower.lua", "--play-player", rec, "--json");
    cr_assert_eq(d.status, 0, "%s", d.err);
    cr_assert_not_null(strstr(d.out, "\"player\": true"), "%s", d.out);
    run_free(&a);
    run_free(&b);
    run_free(&c);
    run_free(&d);
}

Test(player_cli, a_broken_or_mismatched_recording_is_refused_naming_file_line_and_field)
{
    char rec[300], broken[300];
    tmp_path(rec, sizeof rec, "roof.player");
    tmp_path(broken, sizeof broken, "broken.player");
    Run a = NAVBOT("run", "maps/tower.lua", "--player", "@25.2,6", "--player-brain", "runner", "--goal", "goal_roof",
                   "--ticks", "40", "--record-player", rec);
    cr_assert_eq(a.status, 0, "%s", a.err);
    run_free(&a);
    char want[400];

    Run b = NAVBOT("run", "maps/tower.lua", "--play-player", rec, "--seed", "2");
    cr_assert_eq(b.status, 1);
    snprintf(want, sizeof want, "%s:3: seed: the recording was made with seed 1, this run's seed is 2", rec);
    cr_assert_not_null(strstr(b.err, want), "%s", b.err);
    run_free(&b);

    b = NAVBOT("run", "maps/gauntlet.lua", "--play-player", rec);
    cr_assert_eq(b.status, 1);
    snprintf(want, sizeof want, "%s:2: map: the recording is of the map maps/tower.lua", rec);
    cr_assert_not_null(strstr(b.err, want), "%s", b.err);
    run_free(&b);

    b = NAVBOT("run", "maps/tower.lua", "--play-player", rec, "--hz", "60");
    cr_assert_eq(b.status, 1);
    cr_assert_not_null(strstr(b.err, ":4: hz:"), "%s", b.err);
    run_free(&b);

    b = NAVBOT("run", "maps/tower.lua", "--play-player", rec, "--player", "@3,3");
    cr_assert_eq(b.status, 2);
    cr_assert_not_null(strstr(b.err, "starts where the recording says"), "%s", b.err);
    run_free(&b);

    /* A run line spoilt in place. */
    FILE *f = fopen(broken, "w");
    cr_assert_not_null(f);
    fputs("navbot-player 1\nmap maps/tower.lua\nseed 1\nhz 30\nclass human\nspawn 25.2 6 0.01 0\nticks 3\n"
          "3 0 1 - here -\nend\n",
          f);
    fclose(f);
    b = NAVBOT("run", "maps/tower.lua", "--play-player", broken);
    cr_assert_eq(b.status, 1);
    snprintf(want, sizeof want, "%s:8: look: expected '-' or X,Y,Z, got 'here'", broken);
    cr_assert_not_null(strstr(b.err, want), "%s", b.err);
    run_free(&b);

    f = fopen(broken, "w");
    fputs("navbot-player 1\nmap maps/tower.lua\nseed 1\nhz 30\nclass dragon\nspawn 25.2 6 0.01 0\nticks 1\n"
          "1 0 1 - - -\nend\n",
          f);
    fclose(f);
    b = NAVBOT("sim", "maps/tower.lua", "--play-player", broken, "--headless", "--ticks", "1", "--png", "/dev/null");
    cr_assert_eq(b.status, 1);
    snprintf(want, sizeof want, "%s:5: class: the recording's class 'dragon'", broken);
    cr_assert_not_null(strstr(b.err, want), "%s", b.err);
    run_free(&b);

    b = NAVBOT("run", "maps/tower.lua", "--play-player", "/nonexistent/x.player");
    cr_assert_eq(b.status, 1);
    cr_assert_not_null(strstr(b.err, "/nonexistent/x.player"), "%s", b.err);
    run_free(&b);
}

Test(player_cli, usage)
{
    Run b = NAVBOT("run", "maps/tower.lua", "--player");
    cr_assert_eq(b.status, 2);
    cr_assert_not_null(strstr(b.err, "--player-brain BRAIN or --play-player FILE"), "%s", b.err);
    run_free(&b);
    b = NAVBOT("run", "maps/tower.lua", "--play-player", "x", "--player-brain", "runner");
    cr_assert_eq(b.status, 2);
    run_free(&b);
    b = NAVBOT("sim", "maps/tower.lua", "--player", "dragon@spawn_west", "--headless", "--ticks", "1");
    cr_assert_eq(b.status, 2);
    cr_assert_not_null(strstr(b.err, "no class 'dragon'"), "%s", b.err);
    run_free(&b);
    b = NAVBOT("sim", "maps/tower.lua", "--player=@", "--headless", "--ticks", "1");
    cr_assert_eq(b.status, 2);
    run_free(&b);
}

Test(player_cli, sim_with_a_player_records_the_keys_it_held)
{
    char rec[300], png[300];
    tmp_path(rec, sizeof rec, "sim.player");
    tmp_path(png, sizeof png, "p.png");
    /* Headless nobody holds a key: the player stands, and no runner is
    ** added for it. */
    Run a = NAVBOT("sim", "maps/tower.lua", "--player", "human@spawn_hall", "--headless", "--ticks", "12",
                   "--record-player", rec, "--png", png);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_not_null(strstr(a.out, "1 bots:"), "%s", a.out);
    NavError e;
    PlayerRecord *r = player_record_load(rec, &e);
    cr_assert_not_null(r, "%s", e.message);
    cr_assert_eq(r->ticks, 12);
    cr_assert_eq(r->run_count, 1);
    cr_assert_eq(r->runs[0].c.move[0], 0.0f);
    player_record_destroy(r);
    run_free(&a);
}

/* }======= */

/* {======= scenarios ======= */

static const char *scenario_error(const char *text)
{
    char path[300];
    tmp_path(path, sizeof path, "s.lua");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    static ScenarioResult res;
    static NavError err;
    nav_error_clear(&err);
    NavStatus st = scenario_run_file(path, NULL, &res, &err);
    if (NAV_SUCCEEDED(st)) return res.passed ? "passed" : res.failure.message;
    return err.message;
}

Test(player_cli, scenario_players_are_checked_against_their_recording)
{
    char rec[300];
    tmp_path(rec, sizeof rec, "roof.player");
    Run a = NAVBOT("run", "maps/tower.lua", "--player", "@25.2,6", "--player-brain", "runner", "--goal", "goal_roof",
                   "--record-player", rec);
    cr_assert_eq(a.status, 0, "%s", a.err);
    run_free(&a);
    const char *msg = scenario_error("local S = require \"scenario\"\n"
                                     "return S.scenario { map = \"maps/tower.lua\", time_limit = 15,\n"
                                     "  bots = { S.player { file = \"roof.player\", goals = { \"goal_roof\" } } },\n"
                                     "  expect = { S.arrives(\"player\"), S.uses(\"player\", \"ladder\") } }\n");
    cr_assert_str_eq(msg, "passed");
    msg = scenario_error("local S = require \"scenario\"\n"
                         "return S.scenario { map = \"maps/tower.lua\", seed = 4,\n"
                         "  bots = { S.player { file = \"roof.player\" } } }\n");
    cr_assert_not_null(strstr(msg, "s.lua:3: player 'player': "), "%s", msg);
    cr_assert_not_null(strstr(msg, "roof.player:3: seed: the recording was made with seed 1"), "%s", msg);
    msg = scenario_error("local S = require \"scenario\"\n"
                         "return S.scenario { map = \"maps/tower.lua\",\n"
                         "  bots = { S.player { name = \"p\", file = \"missing.player\" } } }\n");
    cr_assert_not_null(strstr(msg, "s.lua:3: player 'p': "), "%s", msg);
    cr_assert_not_null(strstr(msg, "missing.player"), "%s", msg);
    /* A bot standing where the recording starts. */
    msg = scenario_error("local S = require \"scenario\"\n"
                         "return S.scenario { map = \"maps/tower.lua\",\n"
                         "  bots = { S.bot { name = \"b\", at = { 25.2, 6 } },\n"
                         "           S.player { file = \"roof.player\" } } }\n");
    cr_assert_not_null(strstr(msg, "roof.player:6: spawn: "), "%s", msg);
    msg = scenario_error("local S = require \"scenario\"\n"
                         "return S.scenario { map = \"maps/tower.lua\",\n"
                         "  bots = { S.player { file = \"roof.player\", fiel = 1 } } }\n");
    cr_assert_not_null(strstr(msg, "unknown field 'fiel'"), "%s", msg);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

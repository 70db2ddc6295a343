/*
** fuzz_player.c — player recordings (player_record.h: what
** `--record-player` writes and `--play-player` and S.player read). The
** input is the recording's text, parsed from memory. One that is read
** must be written back to text that reads the same, bit for bit, and is
** replayed into a body on maps/arena.lua for up to 64 ticks (its controls,
** whatever they are, must move the body without harm).
*/
#include "fuzz_support.h"

#include "core/alloc.h"
#include "script/player_body.h"

static NavWorld *world;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) world = fuzz_load_map("maps/arena.lua");
    NavError err;
    nav_error_clear(&err);
    PlayerRecord *r = player_record_parse((const char *)data, size, "input.player", &err);
    if (!r) {
        fuzz_must_say_why(&err);
        return 0;
    }
    size_t n;
    char *text = player_record_text(r, &n);
    if (!text) abort();
    PlayerRecord *again = player_record_parse(text, n, "again.player", &err);
    if (!again || again->ticks != r->ticks || again->run_count != r->run_count) abort();
    for (uint32_t i = 0; i < r->run_count; i++)
        if (again->runs[i].count != r->runs[i].count || !player_controls_equal(&again->runs[i].c, &r->runs[i].c))
            abort();
    player_record_destroy(again);
    nav_free(text);

    NavSession *s = session_create(world, &(NavSessionDesc){ .seed = 1, .log = fuzz_drop_line }, &err);
    if (!s) abort();
    float at[3];
    fuzz_entity_point(world, "spawn_a", at);
    int id = session_add_bot(s, NULL, &(NavBotDesc){ .pos = { at[0], at[1], at[2] } }, &err);
    PlayerBody *p = id >= 0 ? player_body_create(s, (uint32_t)id, &err) : NULL;
    if (!p) abort();
    player_body_drive_replay(p, r);
    for (int t = 0; t < 64 && !player_body_replay_over(p); t++) session_step(s);
    player_body_destroy(p);
    session_destroy(s);
    player_record_destroy(r);
    return 0;
}

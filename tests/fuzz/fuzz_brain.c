/*
** fuzz_brain.c — bot brains: the input is a brain file's Lua source, run
** for a few ticks by two bots on maps/arena.lua (one with a goal, so it
** moves and events fire) under a small instruction budget and memory cap.
** The sandbox must hold: whatever the script does, its bot faults or
** runs, and the tick returns; a hang (budget not enforced) or a crash is a
** finding. The brain may require the bundled lua/ modules.
*/
#include "fuzz_support.h"

#include "script/session.h"

#define FUZZ_BRAIN_TICKS 6

static NavWorld *world;
static float spawn_a[3], spawn_b[3], centre[3];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!world) {
        world = fuzz_load_map("maps/arena.lua");
        fuzz_entity_point(world, "spawn_a", spawn_a);
        fuzz_entity_point(world, "spawn_b", spawn_b);
        fuzz_entity_point(world, "centre", centre);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/brain.lua", fuzz_scratch());
    fuzz_write_file(path, data, size);
    NavError err;
    nav_error_clear(&err);
    NavSession *s = session_create(world,
                                   &(NavSessionDesc){ .root = FUZZ_ROOT,
                                                      .seed = 7,
                                                      .memory_limit = 16u << 20,
                                                      .instructions_per_tick = 200000,
                                                      .log = fuzz_drop_line },
                                   &err);
    if (!s) {
        fprintf(stderr, "session: %s\n", err.message);
        abort();
    }
    int a = session_add_bot(s, path, &(NavBotDesc){ .pos = { spawn_a[0], spawn_a[1], spawn_a[2] } }, &err);
    int b = session_add_bot(s, path, &(NavBotDesc){ .pos = { spawn_b[0], spawn_b[1], spawn_b[2] }, .yaw = 180 }, &err);
    if (a >= 0) sim_bot_push_goal(session_sim(s), (uint32_t)a, centre, 0.5f);
    for (int t = 0; t < FUZZ_BRAIN_TICKS; t++) session_step(s);
    for (int id = 0; id < 2; id++) {
        int bot = id ? b : a;
        if (bot < 0) continue;
        const char *e = session_bot_error(s, (uint32_t)bot);
        if (session_bot_faulted(s, (uint32_t)bot) && (!e || !e[0])) {
            fprintf(stderr, "bot %d faulted with no message\n", bot);
            __builtin_trap();
        }
    }
    session_destroy(s);
    return 0;
}

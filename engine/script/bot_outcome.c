/*
** bot_outcome.c — what a run says of a bot (bot_outcome.h).
*/
#include "script/bot_outcome.h"

#include <stdio.h>

BotOutcome bot_outcome(const NavSim *sim, uint32_t id, bool player)
{
    if (sim_bot_arrived(sim, id)) return BOT_OUTCOME_ARRIVED;
    const NavBot *b = id < sim_bot_count(sim) ? sim_bot(sim, id) : NULL;
    bool had = b && b->goals_reached + b->goals_skipped + b->goal_count > 0;
    return player && !had ? BOT_OUTCOME_NO_GOALS : BOT_OUTCOME_NOT_ARRIVED;
}

void bot_outcome_text(const NavSim *sim, uint32_t id, bool player, int width, char *out, size_t cap)
{
    switch (bot_outcome(sim, id, player)) {
    case BOT_OUTCOME_ARRIVED:
        snprintf(out, cap, "arrived %*.2f s", width > 0 ? width : 0, sim_bot(sim, id)->arrival_time);
        break;
    case BOT_OUTCOME_NO_GOALS: snprintf(out, cap, "no goals"); break;
    default: snprintf(out, cap, "not arrived"); break;
    }
}

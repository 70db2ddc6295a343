/*
** bot_outcome.h — what a run says of a bot: arrived (and when), not
** arrived, or (a player that was never given goals) no goals. The run
** report (`navbot run`, `navbot sim`), the selected bot's panel in the
** window and in pictures, and the pictures' history strip all take it
** from here, so none of them can say "arrived" of a bot the others do
** not.
**
** DOES NOT: say whether the bot faulted (session_bot_faulted; a bot may
** arrive and then fault), or know anything in a replay, whose record
** keeps no goals reached.
*/
#ifndef NAV_BOT_OUTCOME_H
#define NAV_BOT_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

typedef enum BotOutcome {
    BOT_OUTCOME_ARRIVED,     /* reached a goal and has none left (sim_bot_arrived) */
    BOT_OUTCOME_NOT_ARRIVED, /* goals left, or never reached one */
    BOT_OUTCOME_NO_GOALS     /* the player, never given a goal: nothing to arrive at */
} BotOutcome;

/* Bot id's outcome; `player`: it is the run's player (a body driven from
** outside, which may go without goals). */
BotOutcome bot_outcome(const NavSim *sim, uint32_t id, bool player);

/* The same in words: "arrived 12.34 s" (the time right-aligned in
** `width` characters when width > 0, as the report's columns want),
** "not arrived", "no goals". */
void bot_outcome_text(const NavSim *sim, uint32_t id, bool player, int width, char *out, size_t cap);

#endif

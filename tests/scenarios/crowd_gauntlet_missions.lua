-- gauntlet: eight runners with missions of their own (a bench competence
-- crowd). One of them, stuck on a detour, was thrown over the gap by a
-- jump meant to free it, landed on the far side, and then walked back
-- toward the jump's start, into the gap: "fell out of the world". A jump
-- link whose landing side the bot already stands on is taken.
local S = require "scenario"

return S.scenario {
  description = "eight runners on their own missions, none lost in the gap",
  map = "maps/gauntlet.lua",
  time_limit = 50,
  bots = {
    S.bot { name = "r0", brain = "runner", at = { 11.25, 28.50, 0.00 }, goals = { { 19.00, 8.00, 4.00 } } },
    S.bot { name = "r1", brain = "runner", at = { 17.75, 22.50, 0.00 }, goals = { { 10.25, 15.75, 0.00 } } },
    S.bot { name = "r2", brain = "runner", at = { 1.50, 17.75, 0.00 }, goals = { { 26.00, 25.75, 0.00 } } },
    S.bot { name = "r3", brain = "runner", at = { 2.50, 18.75, 3.50 }, goals = { { 1.00, 2.50, 0.00 } } },
    S.bot { name = "r4", brain = "runner", at = { 3.25, 16.75, 0.00 }, goals = { { 16.75, 26.50, 0.00 } } },
    S.bot { name = "r5", brain = "runner", at = { 6.50, 25.00, 0.00 }, goals = { { 34.75, 19.50, 1.00 } } },
    S.bot { name = "r6", brain = "runner", at = { 35.50, 16.00, 1.00 }, goals = { { 9.50, 26.25, 0.00 } } },
    S.bot { name = "r7", brain = "runner", at = { 34.75, 4.25, 3.00 }, goals = { { 15.75, 5.00, 4.00 } } },
  },
  expect = {
    S.arrives("r0", { within = 45 }),
    S.arrives("r1", { within = 45 }),
    S.arrives("r2", { within = 45 }),
    S.arrives("r3", { within = 45 }),
    S.arrives("r4", { within = 45 }),
    S.arrives("r5", { within = 45 }),
    S.arrives("r6", { within = 45 }),
    S.arrives("r7", { within = 45 }),
    S.no_faults(),
  },
}

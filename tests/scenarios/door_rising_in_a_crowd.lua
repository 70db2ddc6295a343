-- Eight runners on the fort, each with its own mission (a case of navbot
-- bench competence). Runner b comes to the halls' door as it starts to
-- rise and stands for the panel, bumped by the others; standing for a
-- door counted as stuck, so after 2 s it routed round the door and took
-- the lift the long way (22 s for a 1.4 s mission). Standing for a rising
-- panel is now waiting (up to follow.DOOR_WAIT), and b walks through.
local S = require "scenario"

return S.scenario {
  description = "a runner standing for a rising door waits for it rather than going round",
  map = "maps/tiled/fort.tmj",
  seed = 3,
  time_limit = 30,
  bots = {
    S.bot { name = "a", brain = "runner", at = { 2.25, 10.00, 4.00 }, goals = { { 1.50, 1.50, 0.00 } } },
    S.bot { name = "b", brain = "runner", at = { 9.75, 5.25, 0.00 }, goals = { { 3.50, 8.75, 0.00 } } },
    S.bot { name = "c", brain = "runner", at = { 4.00, 9.00, 0.00 }, goals = { { 10.50, 8.75, 0.40 } } },
    S.bot { name = "d", brain = "runner", at = { 4.50, 1.25, 0.00 }, goals = { { 11.50, 2.00, 0.00 } } },
    S.bot { name = "e", brain = "runner", at = { 12.25, 1.50, 0.00 }, goals = { { 8.50, 9.75, 0.00 } } },
    S.bot { name = "f", brain = "runner", at = { 2.50, 2.00, 0.00 }, goals = { { 14.50, 7.25, 0.00 } } },
    S.bot { name = "g", brain = "runner", at = { 14.25, 5.75, 0.00 }, goals = { { 9.75, 10.50, 0.00 } } },
    S.bot { name = "h", brain = "runner", at = { 4.50, 3.00, 0.00 }, goals = { { 14.50, 9.25, 0.00 } } },
  },
  expect = {
    S.arrives("b", { within = 6 }),
    S.never_uses("b", "elevator"),
    S.arrives("*", { within = 25 }),
    S.no_faults(),
  },
}

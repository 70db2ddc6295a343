-- Eight runners from all over gauntlet are sent to the flag on its perch,
-- which only the jump pad reaches and which holds about six bodies. The
-- first to come stand round the flag; those knocked off the perch still
-- hold it, standing idle below, and the latecomers arrive by touching
-- them. Before, a bot below the goal could not arrive by touching a
-- holder (the goal's height was checked first), and one that had arrived
-- by the pad kept the engine's avoidance paused for the flight: a
-- latecomer walking round it to line up for the pad pushed against it
-- for the rest of the run.
local S = require "scenario"

return S.scenario {
  description = "eight runners sent to the perch all arrive",
  map = "maps/gauntlet.lua",
  time_limit = 60,
  bots = {
    S.bot { name = "a", brain = "runner", at = { 34.00, 11.75, 1.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "b", brain = "runner", at = { 37.50, 17.25, 1.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "c", brain = "runner", at = { 26.50, 23.50, 0.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "d", brain = "runner", at = { 1.00, 14.50, 0.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "e", brain = "runner", at = { 14.75, 5.75, 4.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "f", brain = "runner", at = { 10.50, 22.25, 0.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "g", brain = "runner", at = { 22.25, 14.25, 4.00 }, goals = { { 2.75, 20.75, 3.5 } } },
    S.bot { name = "h", brain = "runner", at = { 5.00, 28.75, 0.00 }, goals = { { 2.75, 20.75, 3.5 } } },
  },
  expect = {
    S.arrives("*", { within = 45 }),
    S.never_stuck("*", { longer = 10 }),
    S.no_faults(),
  },
}

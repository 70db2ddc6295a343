-- Runners jumping the gauntlet's void gap from both sides at once (a case
-- of navbot bench competence: eight runners on their own missions, two of
-- them meeting over the gap). Two bots jumping at each other met in
-- mid-air and both fell out of the world; now the gap is taken one side
-- at a time, and nobody jumps while a body stands where it would land.
local S = require "scenario"

return S.scenario {
  description = "runners cross the gap from both sides and none falls",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "south1", brain = "runner", at = { 37.5, 16.0, 1.0 }, goals = { { 30.0, 3.75, 0.0 } } },
    S.bot { name = "north1", brain = "runner", at = { 35.0, 12.25, 1.0 }, goals = { { 26.5, 23.75, 0.0 } } },
    S.bot { name = "south2", brain = "runner", at = { 35.25, 16.5, 1.0 }, goals = { { 37.75, 9.0, 1.0 } } },
    S.bot { name = "north2", brain = "runner", at = { 37.5, 11.0, 1.0 }, goals = { { 34.0, 19.5, 1.0 } } },
  },
  expect = {
    S.arrives("*", { within = 35 }),
    S.no_faults(),
  },
}

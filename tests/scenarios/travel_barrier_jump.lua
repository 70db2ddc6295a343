-- The terrace S5 stands 1.0 m above the east bank: too high to step, low
-- enough to jump onto.
local S = require "scenario"

return S.scenario {
  description = "jump onto the terrace",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 36, 23 }, goals = { { 36, 18, 1 } } },
  },
  expect = {
    S.arrives("runner", { within = 10 }),
    S.uses("runner", "barrier_jump"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

-- Starting in the pool, whose surface is 0.7 m below both banks: out by
-- a water jump onto the west bank.
local S = require "scenario"

return S.scenario {
  description = "water jump out of the pool",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 29.5, 25, -2.9 }, goals = { { 25.5, 25 } } },
  },
  expect = {
    S.arrives("runner", { within = 10 }),
    S.uses("runner", "water_jump"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

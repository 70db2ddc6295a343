-- The runner swims the gauntlet's pool and water-jumps out onto the east
-- bank: the pool is the only way from the west bank to goal_pool.
local S = require "scenario"

return S.scenario {
  description = "swim the pool, water-jump out",
  map = "maps/gauntlet.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "swimmer", brain = "runner", at = { 25.5, 25.0 }, goals = { "goal_pool" } },
  },
  expect = {
    S.arrives("swimmer", { within = 12 }),
    S.uses("swimmer", "swim", "water_jump"),
    S.never_stuck("swimmer", { longer = 2 }),
    S.near_optimal("swimmer", { factor = 1.6 }),
    S.no_faults(),
  },
}

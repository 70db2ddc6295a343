-- Up the ladder from the yard into the loft, 4 m above.
local S = require "scenario"

return S.scenario {
  description = "climb the ladder to the loft",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_yard", goals = { "goal_loft" } },
  },
  expect = {
    S.arrives("runner", { within = 20 }),
    S.uses("runner", "ladder"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

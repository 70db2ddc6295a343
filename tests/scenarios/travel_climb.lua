-- A 2.0 m wall between S6 and the high terrace S7: above the 1.2 m jump,
-- within the 2.2 m climb.
local S = require "scenario"

return S.scenario {
  description = "climb the wall",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 36, 11, 1 }, goals = { "goal_terrace" } },
  },
  expect = {
    S.arrives("runner", { within = 12 }),
    S.uses("runner", "climb"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

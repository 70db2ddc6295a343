-- The jump pad launches onto the perch and the flag: no other way up.
local S = require "scenario"

return S.scenario {
  description = "jump pad to the flag",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_hall", goals = { "goal_flag" } },
  },
  expect = {
    S.arrives("runner", { within = 15 }),
    S.uses("runner", "jump_pad"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

-- Same scenario, same run: four brains (runner, climber, coward, cautious)
-- share the gauntlet for 20 s, and the whole scenario runs twice in one
-- process (runs = 2). Any difference in the trace hash or tick count
-- between the two runs fails.
local S = require "scenario"

return S.scenario {
  description = "two runs in one process give the same trace hash",
  map = "maps/gauntlet.lua",
  seed = 7,
  time_limit = 20,
  ["until"] = "time",
  runs = 2,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_start" },
    S.bot { name = "climber", brain = "climber", at = "spawn_hall" },
    S.bot { name = "coward", brain = "coward", at = "spawn_yard" },
    S.bot { name = "cautious", brain = "cautious", at = "spawn_hall" },
  },
  expect = {
    S.no_faults(),
    S.no_overlap(),
  },
}

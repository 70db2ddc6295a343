-- Off the loft into the ladder's opening: a 4.0 m drop into the yard, the
-- human's whole max_fall. One way down; the ladder is the way back up.
local S = require "scenario"

return S.scenario {
  description = "walk off the loft into the yard",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "goal_loft", goals = { "spawn_yard" } },
  },
  expect = {
    S.arrives("runner", { within = 8 }),
    S.uses("runner", "walk_off_ledge"),
    S.never_uses("runner", "ladder", "jump"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

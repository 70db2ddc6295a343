-- Up the house mesh's stairs: from the hall of the ground storey to the
-- upper storey's west room by the stairwell. The stairs (15 steps of
-- 0.2 m, voxelized from boxes) are the short way; the ramp outside is the
-- long one, so a bot near the optimum took the stairs.
local S = require "scenario"

return S.scenario {
  description = "walk up the house mesh's stairs to the upper storey",
  map = "maps/house.obj",
  time_limit = 20,
  bots = {
    S.bot { name = "climber", brain = "runner", at = { 8, 6 }, goals = { "goal_stairs_top" } },
  },
  expect = {
    S.arrives("climber", { within = 8 }),
    S.near_optimal("climber", { factor = 1.5 }),
    S.uses("climber", "walk"),
    S.never_stuck("climber", { longer = 1 }),
    S.no_faults(),
  },
}

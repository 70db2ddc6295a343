-- Across the arena corner to corner on foot: round the pillars and the low
-- walls, onto nothing higher than a step.
local S = require "scenario"

return S.scenario {
  description = "walk across the arena",
  map = "maps/arena.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "walker", brain = "runner", at = "spawn_a", goals = { "spawn_b" } },
  },
  expect = {
    S.arrives("walker", { within = 8 }),
    S.uses("walker", "walk"),
    S.never_uses("walker", "crouch", "barrier_jump", "walk_off_ledge", "jump", "climb", "ladder", "swim",
                 "water_jump", "teleport", "elevator", "jump_pad"),
    S.near_optimal("walker", { factor = 1.3 }),
    S.never_stuck("walker", { longer = 1 }),
    S.no_faults(),
  },
}

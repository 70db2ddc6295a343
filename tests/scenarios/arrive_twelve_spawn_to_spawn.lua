-- Twelve runners cross the arena from spawn_a to spawn_b. Only one can
-- stand within the goal's radius; the rest arrive in rings round it by
-- touching a bot that arrived before them. Before, one arrived and the
-- other eleven pressed round it until the time ran out.
local S = require "scenario"

return S.scenario {
  description = "twelve runners from one spawn to the other all arrive",
  map = "maps/arena.lua",
  time_limit = 90,
  bots = {
    S.bot { name = "runner", brain = "runner", count = 12, at = "spawn_a", goals = { "spawn_b" } },
  },
  expect = {
    S.arrives("runner", { within = 80 }),
    S.no_faults(),
    S.no_overlap(),
  },
}

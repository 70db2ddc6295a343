-- The hall's teleporter is the only way into the sealed vault.
local S = require "scenario"

return S.scenario {
  description = "teleport into the vault",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_hall", goals = { { 8, 3, 0 } } },
  },
  expect = {
    S.arrives("runner", { within = 15 }),
    S.uses("runner", "teleport"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

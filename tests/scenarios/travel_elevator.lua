-- The lift is the only way from the vault up to the gallery.
local S = require "scenario"

return S.scenario {
  description = "ride the lift to the gallery",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 5, 8, 0 }, goals = { "goal_gallery" } },
  },
  expect = {
    S.arrives("runner", { within = 25 }),
    S.uses("runner", "elevator"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

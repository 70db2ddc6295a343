-- The crouch tunnel (1.4 m of headroom) is the only way from the hall to
-- the west bank: the runner crouches through it.
local S = require "scenario"

return S.scenario {
  description = "crouch through the tunnel",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 15, 25 }, goals = { { 25.5, 25 } } },
  },
  expect = {
    S.arrives("runner", { within = 15 }),
    S.uses("runner", "crouch"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

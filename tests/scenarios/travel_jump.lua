-- A bottomless gap 2.5 m wide between the terraces S5 and S6: a running
-- jump across.
local S = require "scenario"

return S.scenario {
  description = "jump the gap",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 36, 18, 1 }, goals = { { 36, 11, 1 } } },
  },
  expect = {
    S.arrives("runner", { within = 10 }),
    S.uses("runner", "jump"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 2 }),
    S.no_faults(),
  },
}

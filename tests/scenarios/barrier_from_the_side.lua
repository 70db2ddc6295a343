-- warehouse: the runner comes to a 1 m barrier jump along the barrier, not
-- toward it. Jumping on the way, it flew along the barrier, landed beside
-- it and tried again, until it gave the link up and went round (9.9 s). It
-- lines up behind the start on the jump's line and jumps once running
-- along it.
local S = require "scenario"

return S.scenario {
  description = "a runner lines up for a barrier jump it comes to from the side",
  map = "tests/data/maps/warehouse.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "jumper", brain = "runner", at = { 21.5, 13.5 }, goals = { { 32.25, 2.0, 1.0 } } },
  },
  expect = {
    S.arrives("jumper", { within = 7 }),
    S.uses("jumper", "barrier_jump"),
    S.never_stuck("jumper", { longer = 1 }),
    S.no_faults(),
  },
}

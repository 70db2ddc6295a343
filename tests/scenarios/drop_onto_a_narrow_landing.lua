-- A runner on the house's top floor drops to the terrace 3 m below (a
-- case of navbot bench competence). At a run it flew past the terrace and
-- down to the ground, 6 m, and climbed back by a barrier jump and the
-- stairs (7.9 s for a 5.5 s mission, stuck 3.6 s). It now walks off an
-- edge where a run would carry it past the floor the drop means to land
-- on.
local S = require "scenario"

return S.scenario {
  description = "a runner walks off a ledge whose landing a run would overshoot",
  map = "maps/house.obj.lua",
  time_limit = 20,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 4.25, 13.75, 6.0 }, goals = { { 13.0, 12.75, 3.0 } } },
  },
  expect = {
    S.arrives("r", { within = 6 }),
    S.never_uses("r", "barrier_jump"),
    S.no_faults(),
  },
}

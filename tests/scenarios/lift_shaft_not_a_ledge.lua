-- A runner on the tower's first storey sent down to the courtyard (a case
-- of navbot bench competence). The area graph had a walk off the ledge
-- into the lift's open shaft; the runner waited at its edge, dropped in
-- after the platform had left, and rode it back up. Drops into a shaft
-- are no longer links: it takes the balcony or the stairs.
local S = require "scenario"

return S.scenario {
  description = "a runner goes down a storey without dropping into the lift shaft",
  map = "maps/tower.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 15.75, 4.75, 4.0 }, goals = { { 24.75, 10.25, 0.0 } } },
  },
  expect = {
    S.arrives("r", { within = 15 }),
    S.no_faults(),
    S.never_uses("r", "elevator"),
  },
}

-- A runner in the Tiled fort's west hall heads for the shut door to the
-- east hall, past a teleporter beside it (a case of navbot bench
-- competence on that map). It ran into the rising panel at full speed,
-- the avoidance slid it off along the door, and it brushed the
-- teleporter's corner: sent to the vault, back by the vault's teleporter,
-- and into the same corner again, 93 m walked for a 3.8 s route. Now it
-- slows for a shut door on its way (the door opens for a bot near it),
-- and a body inside a trigger's margin steps out of it before it walks on.
local S = require "scenario"

return S.scenario {
  description = "a runner waits for the door beside a teleporter, never takes the teleporter",
  map = "maps/tiled/fort.tmj",
  time_limit = 20,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 2.5, 6.0, 0.0 }, goals = { { 10.5, 10.75, 0.0 } } },
  },
  expect = {
    S.arrives("r", { within = 5 }),
    S.no_faults(),
    S.never_uses("r", "teleport"),
  },
}

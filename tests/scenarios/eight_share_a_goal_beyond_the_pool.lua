-- Eight runners from all over the fort are sent to one spot east of the
-- pool (a case of navbot bench competence). The first to come stand round
-- it, on the landing of the jump across the pool, with no room nearby to
-- step aside to; the jumpers behind waited for the landing to clear for
-- the rest of the run. Now a jumper that has waited LANDING_WAIT routes
-- round that jump for a while (another landing, a swim, the long way).
local S = require "scenario"

local GOAL = { 13.25, 4.0, 0.0 }

return S.scenario {
  description = "eight runners sharing a goal by a crowded jump landing all arrive",
  map = "maps/tiled/fort.tmj",
  time_limit = 30,
  bots = {
    S.bot { name = "a", brain = "runner", at = { 2.75, 6.75, 0.0 }, goals = { GOAL } },
    S.bot { name = "b", brain = "runner", at = { 1.25, 1.25, 0.0 }, goals = { GOAL } },
    S.bot { name = "c", brain = "runner", at = { 5.50, 3.25, 0.0 }, goals = { GOAL } },
    S.bot { name = "d", brain = "runner", at = { 9.50, 10.50, 0.0 }, goals = { GOAL } },
    S.bot { name = "e", brain = "runner", at = { 13.00, 10.50, 4.0 }, goals = { GOAL } },
    S.bot { name = "f", brain = "runner", at = { 1.75, 10.25, 4.0 }, goals = { GOAL } },
    S.bot { name = "g", brain = "runner", at = { 5.00, 10.00, 4.0 }, goals = { GOAL } },
    S.bot { name = "h", brain = "runner", at = { 3.50, 10.25, 4.0 }, goals = { GOAL } },
  },
  expect = {
    S.arrives("*", { within = 26 }),
    S.no_faults(),
  },
}

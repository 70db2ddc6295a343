-- The fort's hall opens north through a corridor whose mouth the jump pad
-- fills (a case of navbot bench competence). The route walks across the
-- pad's floor to the corridor; the walk's target lay just past the pad's
-- edge, so going round the pad was skipped and the runner was thrown up
-- to the perch, then wandered 40 m back. Now a target a body there would
-- touch the pad from is moved clear of it, and no move (a path's, an
-- avoidance's) may take the body onto a trigger its route does not take.
local S = require "scenario"

return S.scenario {
  description = "a runner never steps on a jump pad its route does not take",
  map = "maps/tiled/fort.tmj",
  time_limit = 20,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 11.25, 1.25, 0.0 }, goals = { { 3.0, 7.75, 0.0 } } },
  },
  expect = {
    S.arrives("r", { within = 6 }),
    S.never_uses("r", "jump_pad"),
    S.no_faults(),
  },
}

-- A runner stands at a gap's take-off with the wall right behind it (the
-- fort's void, a case of navbot bench competence). Too slow to clear the
-- gap, it backed off for a run-up into the wall for 3 s, again and again,
-- before something else threw it over. With no room behind the start it
-- now jumps from a stand: air control carries it over the metre-wide gap.
local S = require "scenario"

return S.scenario {
  description = "a gap jump with no room for a run-up is taken from a stand",
  map = "maps/tiled/fort.tmj",
  time_limit = 20,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 14.75, 7.75, 0.0 }, goals = { { 10.0, 10.25, 0.0 } } },
  },
  expect = {
    S.arrives("r", { within = 3 }),
    S.uses("r", "jump"),
    S.never_stuck("r", { longer = 1 }),
    S.no_faults(),
  },
}

-- A runner leaves the perch over the jump pad that threw it up there (a
-- case of navbot bench competence). At a run it flew off the edge, landed
-- on the pad and was thrown back up, again and again; its stuck time
-- stayed 0, for it never stopped moving. Now it walks off the ledge
-- above a trigger, and drops short of the pad.
local S = require "scenario"

return S.scenario {
  description = "a runner drops off the perch beside the jump pad, not onto it",
  map = "maps/gauntlet.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "r", brain = "runner", at = { 4.0, 20.75, 3.5 }, goals = { { 3.25, 11.5, 0.0 } } },
  },
  expect = {
    S.arrives("r", { within = 15 }),
    S.no_faults(),
    S.never_uses("r", "jump_pad"),
  },
}

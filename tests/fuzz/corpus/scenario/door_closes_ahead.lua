-- The tower's west door is locked just as the runner comes to it: the
-- route changes, round the courtyard to the tower's open east side and
-- through the hall to the goal, never through the locked door.
local S = require "scenario"

local went_round = false

return S.scenario {
  description = "a door closes ahead; the route goes the long way round",
  map = "maps/tower.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = { 1.5, 20 }, goals = { "goal_ground" } },
  },
  events = {
    S.when(S.near("runner", "door_west", 2), S.door("door_west", "locked")),
  },
  expect = {
    S.arrives("runner", { within = 25 }),
    S.never_stuck("runner", { longer = 1.5 }),
    S.no_faults(),
    S.check("never through the locked door", function(sc)
      local x, y = sc:bot("runner"):pos()
      local inside = x > 3.5 and x < 28.5 and y > 4.5 and y < 21.5
      if inside and not went_round then return false, "inside the tower without going round", "runner" end
    end),
    S.check("goes round to the east side", function(sc)
      local x = sc:bot("runner"):pos()
      if x > 29 then went_round = true end
    end),
  },
}

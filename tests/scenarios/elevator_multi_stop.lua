-- The tower's lift stops at every storey (0, 4, 8 and 12 m). The runner
-- boards on the ground floor and rides it past the second and third floor
-- stops to the roof without stepping off.
local S = require "scenario"

local low, high = math.huge, -math.huge
local stops = {}

return S.scenario {
  description = "one ride through several elevator stops",
  map = "maps/tower.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "rider", brain = "runner", at = { 25, 17.5, 0 }, goals = { { 25, 17.5, 12 } } },
  },
  expect = {
    S.arrives("rider", { within = 25 }),
    S.uses("rider", "elevator"),
    S.never_uses("rider", "ladder"),
    S.no_faults(),
    S.check("rides through the stops", function(sc)
      local b = sc:bot("rider")
      if b:state().riding < 0 then return end
      local _, _, z = b:pos()
      low, high = math.min(low, z), math.max(high, z)
      local lift = nav.entity("lift")
      if lift.phase == 0 then stops[lift.stop] = true end
    end),
    S.check_at_end("one ride from the ground to the roof", function(sc)
      if high - low < 11.9 then return false, string.format("rode from %.2f to %.2f m only", low, high), "rider" end
      local n = 0
      for _ in pairs(stops) do n = n + 1 end
      if n < 3 then return false, string.format("the lift stopped at %d stops during the ride, not the 3 or more of a multi-stop ride", n), "rider" end
    end),
  },
}

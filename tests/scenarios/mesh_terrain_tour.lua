-- A runner tours the terrain mesh (maps/terrain.obj and its sidecar): up
-- the mesa's 20.6 degree ramp of earth (its 56 degree cliffs are clip),
-- up the hill's 30 degree face (not its 55 degree one), up the ladder the
-- sidecar leans on the lookout, and round the mesa to the east, keeping
-- out of the lava pit the sidecar fills.
local S = require "scenario"

return S.scenario {
  description = "runner tours the terrain mesh: slopes, a ladder, lava kept clear of",
  map = "maps/terrain.obj",
  time_limit = 60,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_south" },
  },
  expect = {
    S.arrives("runner", { within = 40 }),
    S.uses("runner", "walk", "ladder"),
    S.never_enters("runner", { contents = { "lava", "clip" } }),
    S.never_stuck("runner", { longer = 3 }),
    S.no_faults(),
    S.check_at_end("every goal of the terrain visited", function(sc)
      local _, reached = nav.bot(sc:ids("runner")[1]):goals()
      if reached ~= 4 then return false, string.format("reached %d goals of 4", reached) end
    end),
  },
}

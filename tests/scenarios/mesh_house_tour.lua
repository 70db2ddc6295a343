-- A runner tours the goals of the house mesh (maps/house.obj, voxelized
-- from triangles; its sidecar maps/house.obj.lua places them): the ground
-- storey past the table, the upper storey's rooms up the stairs and
-- through the inside doorway, the ramp's landing outside. Every way is a
-- walk (stairs and ramp alike) and nobody stands still on the way.
local S = require "scenario"

return S.scenario {
  description = "runner tours the house mesh: stairs, upper storey, ramp landing",
  map = "maps/house.obj",
  time_limit = 40,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_yard" },
  },
  expect = {
    S.arrives("runner", { within = 30 }),
    S.never_stuck("runner", { longer = 1 }),
    S.never_uses("runner", "jump", "climb", "barrier_jump"),
    S.no_faults(),
    S.check_at_end("every goal of the house visited", function(sc)
      local _, reached = nav.bot(sc:ids("runner")[1]):goals()
      if reached ~= 4 then return false, string.format("reached %d goals of 4", reached) end
    end),
  },
}

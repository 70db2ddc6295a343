-- A runner tours the five goals of the Tiled fort (saved as JSON, its
-- tileset external):
-- the vault through a teleporter, the perch by the jump pad, the loft up
-- the ladder or the lift, and the roof deck only by the lift.
local S = require "scenario"

return S.scenario {
  description = "a runner tours the Tiled fort (tmj)",
  map = "maps/tiled/fort.tmj",
  seed = 3,
  time_limit = 120,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_west" },
  },
  expect = {
    S.arrives("runner", { within = 100 }),
    S.uses("runner", "teleport"),
    S.uses("runner", "elevator"),
    S.no_faults(),
    S.check_at_end("every goal of the fort visited", function(sc)
      local _, reached = nav.bot(sc:info("runner").id):goals()
      if reached ~= 5 then return false, string.format("reached %d goals of 5", reached) end
    end),
  },
}

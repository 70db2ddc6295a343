-- Three runners tour the tower's five goals from its three spawns, seed 7
-- (navbot run maps/tower.lua --bot runner:3 --seed 7). They meet on
-- stairs, ladders and the lift on the way. When stuck meant standing
-- still and arrival meant standing on the goal, two of them ran on for
-- 300 s (800 m and more) and never reached their last goal.
local S = require "scenario"

return S.scenario {
  description = "three runners on the tower, seed 7, all finish the tour",
  map = "maps/tower.lua",
  seed = 7,
  time_limit = 200,
  bots = {
    S.bot { name = "west", brain = "runner", at = "spawn_west" },
    S.bot { name = "east", brain = "runner", at = "spawn_east" },
    S.bot { name = "hall", brain = "runner", at = "spawn_hall" },
  },
  expect = {
    S.arrives("*", { within = 180 }),
    S.no_faults(),
    S.check_at_end("every goal of the map visited", function(sc)
      for _, id in ipairs(sc:ids("*")) do
        local _, reached = nav.bot(id):goals()
        if reached ~= 5 then return false, string.format("bot %d reached %d goals of 5", id, reached) end
      end
    end),
  },
}

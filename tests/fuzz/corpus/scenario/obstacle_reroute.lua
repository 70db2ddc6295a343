-- An obstacle drops across the runner's way while it crosses the tower's
-- ground floor from the west door to the open east side: a 6 m wide block
-- in the middle of the hall. The route changes, round one end of it.
local S = require "scenario"

local round, last_x = false, nil

return S.scenario {
  description = "an obstacle appears mid-route; the route goes round it",
  map = "maps/tower.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_west", goals = { "spawn_east" } },
  },
  events = {
    S.at(2, S.add_obstacle("block", { 16, 9.5, 0 }, { 18, 15.5, 3 })),
  },
  expect = {
    S.arrives("runner", { within = 12 }),
    S.never_stuck("runner", { longer = 1.5 }),
    S.no_faults(),
    S.check("round the block", function(sc)
      local x, y = sc:bot("runner"):pos()
      if last_x and last_x < 17 and x >= 17 and sc:time() > 2 then
        if y > 9.1 and y < 15.9 then return false, string.format("crossed x = 17 at y %.2f, where the block stands", y), "runner" end
        round = true
      end
      last_x = x
    end),
    S.check_at_end("the route changed", function(sc)
      if not round then return false, "never went round the block", "runner" end
    end),
  },
}

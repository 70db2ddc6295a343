-- Four sealed rooms joined only by teleporters (tests/scenarios/maps/
-- relay.lua): the runner takes the chain room 1 -> 2 -> 3 -> 4 to the goal,
-- three teleports in all, and never the pad in room 4 that leads back.
local S = require "scenario"

local sent = 0
local last = nil

return S.scenario {
  description = "a chain of three teleporters",
  map = "tests/scenarios/maps/relay.lua",
  time_limit = 20,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_relay", goals = { "goal_relay" } },
  },
  expect = {
    S.arrives("runner", { within = 8 }),
    S.uses("runner", "teleport"),
    S.near_optimal("runner", { factor = 1.5 }),
    S.never_stuck("runner", { longer = 1 }),
    S.no_faults(),
    S.check("teleports only forward", function(sc)
      local x, y = sc:bot("runner"):pos()
      if last and math.abs(x - last) > 2 then
        if x < last then return false, string.format("sent back from x %.2f to %.2f", last, x), "runner" end
        sent = sent + 1
      end
      last = x
    end),
    S.check_at_end("three teleports", function(sc)
      if sent ~= 3 then return false, string.format("%d teleports, not 3", sent), "runner" end
    end),
  },
}

-- The climber goes up the 2 m wall from the terrace S6 to the high terrace
-- and its goal, then down 3 m into the yard: up by climbing, down by
-- dropping off the edge, never by a ladder or the stairs.
local S = require "scenario"

local top, bottom = -math.huge, math.huge

return S.scenario {
  description = "climbing up a wall and dropping down a ledge",
  map = "maps/gauntlet.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "climber", brain = "climber", at = { 36, 11, 1 }, goals = { "goal_terrace", { 28, 4, 0 } } },
  },
  expect = {
    S.arrives("climber", { within = 10 }),
    S.uses("climber", "climb"),
    S.never_uses("climber", "ladder", "elevator", "teleport", "jump_pad"),
    S.never_stuck("climber", { longer = 1 }),
    S.near_optimal("climber", { factor = 1.5 }),
    S.no_faults(),
    S.check("up 2 m, then down 3 m", function(sc)
      local _, _, z = sc:bot("climber"):pos()
      local reached = select(2, sc:bot("climber"):goals())
      if reached == 0 then top = math.max(top, z) else bottom = math.min(bottom, z) end
    end),
    S.check_at_end("went up and came down", function(sc)
      if top < 2.99 then return false, string.format("never climbed to the high terrace (highest %.2f m)", top), "climber" end
      if bottom > 0.01 then return false, string.format("never got down to the yard (lowest %.2f m)", bottom), "climber" end
    end),
  },
}

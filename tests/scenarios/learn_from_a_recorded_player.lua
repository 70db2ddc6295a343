-- A learner in the tower's store room knows its storey and nothing else,
-- and does not explore: the hall above is beyond what it knows. A
-- recorded player (players/tower_roof.player, the controls of a run made
-- with a keyboard-driven body's recording) climbs the store room's ladder
-- in its sight; the learner learns the ladder from watching the player,
-- and climbs it to the hall. It never goes up before the player has shown
-- the way, nor by any other way.
local S = require "scenario"

local shown = false

return S.scenario {
  description = "a learner learns a ladder from a recorded player and climbs it",
  map = "maps/tower.lua",
  time_limit = 40,
  bots = {
    S.player { name = "player", file = "players/tower_roof.player", goals = { "goal_roof" } },
    S.bot { name = "learner", brain = "learner_own_floor", at = { 27.5, 5.5, 0 }, goals = { { 24, 12.5, 4 } } },
  },
  expect = {
    S.arrives("learner", { within = 30 }),
    S.uses("learner", "ladder"),
    S.never_uses("learner", "elevator"),
    S.no_faults(),
    S.check("the learner waits to be shown, then takes the ladder", function(sc)
      if sc:bot("player"):state().on_ladder then shown = true end
      local x, y, z = sc:bot("learner"):pos()
      if z > 1.5 and not shown then return false, "went up before the player showed the way", "learner" end
      if z > 1.5 and z < 3.5 and not (x > 24 and x < 26.5 and y > 7.5 and y < 10) then
        return false, string.format("went up at (%.1f, %.1f, %.1f), not by the ladder", x, y, z), "learner"
      end
    end),
  },
}

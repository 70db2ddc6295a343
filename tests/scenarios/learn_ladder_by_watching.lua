-- A learner in the tower's observatory knows its own floor and nothing
-- else: the roof is beyond what it knows, and it does not explore, so it
-- waits. A demonstrator climbs the observatory's ladder to the roof in its
-- sight; the learner learns the ladder by watching, takes it, sees the
-- roof deck from the hatch and walks to the goal. It never goes up any
-- other way (the stairs it was never shown).
local S = require "scenario"

local shown = false

return S.scenario {
  description = "a learner reaches the roof by the ladder it saw climbed, never before",
  map = "maps/tower.lua",
  time_limit = 60,
  bots = {
    S.bot { name = "learner", brain = "learner_own_floor", at = { 23, 5.5, 8 }, goals = { "goal_roof" } },
    S.bot { name = "guide", brain = "demonstrator", at = { 27.5, 6, 8 }, goals = { "goal_roof" } },
  },
  expect = {
    S.arrives("learner", { within = 45 }),
    S.arrives("guide", { within = 30 }),
    S.uses("learner", "ladder"),
    S.never_uses("learner", "elevator"),
    S.no_faults(),
    S.check("the learner waits until it has seen the ladder climbed", function(sc)
      local _, _, gz = sc:bot("guide"):pos()
      if gz > 10 then shown = true end
      local x, y, z = sc:bot("learner"):pos()
      if z > 9 and not shown then return false, "went up before the guide showed the way", "learner" end
      -- Up the ladder (x 24.5-26, y 8.5-9) and nowhere else.
      if z > 10 and z < 11.5 and not (x > 24 and x < 26.5 and y > 7.5 and y < 10) then
        return false, string.format("left the third floor at (%.1f, %.1f, %.1f), not by the ladder", x, y, z), "learner"
      end
    end),
    S.check_at_end("the learner waited, saying so", function(sc)
      if not shown then return false, "the guide never climbed" end
    end),
  },
}

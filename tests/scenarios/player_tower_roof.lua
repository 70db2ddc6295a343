-- A recorded player climbs from the ground floor of the tower to its roof:
-- from the store room up ladder 1 through the hatch into the second-floor
-- hall, then up the stair flights. The recording (players/tower_roof.player)
-- holds only the controls, tick by tick; the body goes where its physics
-- takes it, so a replay that drops, shifts or misreads a tick ends
-- elsewhere and the scenario fails. Made with:
--   navbot run maps/tower.lua --player @25.2,6 --player-brain runner --goal goal_roof \
--     --record-player tests/scenarios/players/tower_roof.player
local S = require "scenario"

local started_on_ground, climbed_from = false, nil

return S.scenario {
  description = "a recorded player climbs the ladder and the stairs to the roof",
  map = "maps/tower.lua",
  time_limit = 20,
  bots = {
    S.player { name = "player", file = "players/tower_roof.player", goals = { "goal_roof" } },
  },
  expect = {
    S.check("starts on the ground floor", function(sc)
      local _, _, z = sc:bot("player"):pos()
      if sc:tick() == 1 then
        if z > 0.5 then return false, "the player starts at height " .. z, "player" end
        started_on_ground = true
      end
    end),
    S.check("takes the ladder up from the ground floor", function(sc)
      local st = sc:bot("player"):state()
      local _, _, z = sc:bot("player"):pos()
      if st.on_ladder and not climbed_from then climbed_from = z end
    end),
    S.arrives("player", { within = 12 }),
    S.uses("player", "ladder"),
    S.never_uses("player", "elevator", "jump_pad", "teleport"),
    S.check_at_end("on the roof, having climbed from the ground", function(sc)
      local _, _, z = sc:bot("player"):pos()
      if not started_on_ground then return false, "never seen on the ground floor", "player" end
      if not climbed_from or climbed_from > 0.5 then return false, "never on a ladder at its foot", "player" end
      if z < 11.9 then return false, string.format("ends at height %.2f, not on the roof (12)", z), "player" end
    end),
    S.no_faults(),
  },
}

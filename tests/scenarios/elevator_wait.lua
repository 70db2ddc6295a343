-- The lift is held at the bottom of its shaft while a cautious bot, up in
-- the gallery, wants to go down to the vault: it waits beside the shaft
-- (its policy forbids dropping the 4 m into it), boards when the lift comes
-- up after the hold, and rides down.
local S = require "scenario"

local released = false
local waited = false

return S.scenario {
  description = "waiting for a held elevator, then riding it",
  map = "maps/gauntlet.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "rider", brain = "cautious", at = "goal_gallery", goals = { { 5, 8, 0 } } },
  },
  events = {
    S.at_tick(0, S.hold_elevator("lift")),
    S.at(10, S.release_elevator("lift"), function() released = true end),
  },
  expect = {
    S.arrives("rider", { within = 20 }),
    S.uses("rider", "elevator"),
    S.never_uses("rider", "walk_off_ledge"),
    S.no_faults(),
    S.check("waits while the lift is held", function(sc)
      local _, _, z = sc:bot("rider"):pos()
      if not released and z < 3.9 then return false, "left the gallery while the lift was held", "rider" end
      if sc:info("rider").say == "waiting for the lift" then waited = true end
    end),
    S.check_at_end("waited beside the shaft", function(sc)
      if not waited then return false, "never said it was waiting for the lift", "rider" end
    end),
  },
}

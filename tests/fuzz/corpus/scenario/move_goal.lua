-- The runner heads for the arena's far corner; a second in, its goal is
-- moved to the dais in the middle. It turns for the new goal and reaches
-- it, never the old one.
local S = require "scenario"

return S.scenario {
  description = "a goal moved mid-run",
  map = "maps/arena.lua",
  time_limit = 15,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_a", goals = { "spawn_b" } },
  },
  events = {
    S.at(1, S.move_goal("runner", "centre")),
  },
  expect = {
    S.arrives("runner", { within = 5 }),
    S.no_faults(),
    S.check_at_end("at the new goal, not the old one", function(sc)
      local x, y = sc:bot("runner"):pos()
      local c = sc:point("centre")
      if (x - c[1]) ^ 2 + (y - c[2]) ^ 2 > 1 then return false, string.format("ended at (%.2f, %.2f), not on the dais", x, y), "runner" end
      local _, reached = sc:bot("runner"):goals()
      if reached ~= 1 then return false, string.format("reached %d goals, not 1", reached), "runner" end
    end),
  },
}

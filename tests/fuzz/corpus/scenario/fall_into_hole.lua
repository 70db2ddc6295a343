-- A bot walks east into a bottomless pit. The simulation stops its body
-- at most 10 m under the lowest floor (it would otherwise fall for ever)
-- and its brain faults, saying where it fell out of the world.
local S = require "scenario"

return S.scenario {
  description = "a bot that walks into a pit is stopped and faulted",
  map = "tests/scenarios/maps/hole.lua",
  time_limit = 8,
  ["until"] = "time",
  bots = {
    S.bot { name = "walker", brain = "pacer", at = "spawn_hole" },
  },
  expect = {
    S.faults("walker", { matching = "fell out of the world at (", within = 6 }),
    S.check("never falls further than 10 m under the floor", function(sc)
      local _, _, z = sc:bot("walker"):pos()
      if z < -10.001 then return false, string.format("at z = %.2f", z), "walker" end
    end),
    S.check_at_end("stopped in the pit", function(sc)
      local x, y, z = sc:bot("walker"):pos()
      local vx, vy, vz = sc:bot("walker"):velocity()
      if x < 6 or x > 8.5 then return false, string.format("stopped at x = %.2f, the pit is at x 6-8", x), "walker" end
      if z > -9.5 then return false, string.format("stopped at z = %.2f, above 10 m under the floor", z), "walker" end
      if vx * vx + vy * vy + vz * vz > 0 then return false, "still moving", "walker" end
      local err = sc:info("walker").error or ""
      local want = string.format("fell out of the world at (%.2f, %.2f, %.2f)", x, y, z)
      if not err:find(want, 1, true) then return false, string.format("error '%s', want '%s'", err, want), "walker" end
    end),
  },
}

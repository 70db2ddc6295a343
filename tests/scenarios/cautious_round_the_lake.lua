-- Two bots to the far shore of a lake: the runner swims straight across,
-- the cautious bot, whose policy forbids swimming, walks round an end and
-- never sets foot in the water.
local S = require "scenario"

return S.scenario {
  description = "a bot forbidden to swim walks round the lake",
  map = "tests/scenarios/maps/lake.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "swimmer", brain = "runner", at = "spawn_south", goals = { "goal_north" } },
    S.bot { name = "cautious", brain = "cautious", at = "spawn_south", goals = { { 18, 13 } } },
  },
  expect = {
    S.arrives({ "swimmer", "cautious" }, { within = 15 }),
    S.uses("swimmer", "swim"),
    S.never_uses("cautious", "swim", "water_jump"),
    S.never_enters("cautious", { flags = { "liquid" }, contents = { "water" } }),
    S.near_optimal("cautious", { factor = 1.5, flags = { "walk" } }),
    S.check_at_end("going round takes longer than swimming", function(sc)
      local s, c = sc:info("swimmer").arrival_time, sc:info("cautious").arrival_time
      if c <= s then return false, string.format("cautious arrived at %.2f s, not after the swimmer (%.2f s)", c, s), "cautious" end
    end),
    S.no_faults(),
  },
}

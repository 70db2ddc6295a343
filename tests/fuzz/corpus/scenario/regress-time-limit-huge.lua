local S = require "scenario"
return S.scenario {
  map = "maps/arena.lua",
  time_limit = math.huge,
  bots = { S.bot { name = "r", brain = "runner", at = "spawn_a" } },
}

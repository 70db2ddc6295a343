local S = require "scenario"
return S.scenario {
  map = "maps/arena.lua",
  seed = -1,
  bots = { S.bot { name = "r", brain = "runner", at = "spawn_a" } },
}

local S = require "scenario"
return S.scenario {
  map = "maps/arena.lua",
  bots = { S.bot { name = "r", brain = "runner", at = "spawn_a" } },
  events = { nil, S.at(1, S.reload()) },
}

local S = require "scenario"
return S.scenario {
  map = "maps/arena.lua",
  bots = { S.bot { name = "r", brain = "runner", at = "spawn_a" } },
  expect = { S.no_faults(), nil, 5 },
}

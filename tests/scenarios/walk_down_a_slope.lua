-- Along a 1 m lane between woods in the valley that falls a metre over ten
-- (one area, the floor's height changing cell by cell), then up through the
-- woods to a spot beyond. bot:walkable once compared the height at the lane's
-- end with the height the trace came into the area at, so every point down
-- the lane looked off the floor: the runner aimed at the next link's far
-- end instead, cut the corner into the trees and paced there for half a
-- minute.
local S = require "scenario"

return S.scenario {
  description = "a runner walks down a sloping lane between woods",
  map = "maps/valley.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "walker", brain = "runner", at = { 59.5, 233.5 }, goals = { { 71.25, 245.5, 0.75 } } },
  },
  expect = {
    S.arrives("walker", { within = 8 }),
    S.near_optimal("walker", { factor = 1.3 }),
    S.never_stuck("walker", { longer = 1 }),
    S.no_faults(),
  },
}

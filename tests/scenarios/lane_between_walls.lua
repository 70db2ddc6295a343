-- canal: the 1 m lane between the warehouse and the north wall. The body
-- (0.8 m) fits, but the lane is narrower than an area's cells need, so a
-- walk link crosses it and the bot is on no area on the way. It once gave
-- up its route there ("the bot is on no area") and, the router unable to
-- tell it the time left, counted the walk as stuck.
local S = require "scenario"

return S.scenario {
  description = "a runner walks a lane narrower than an area",
  map = "tests/data/maps/canal.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "walker", brain = "runner", at = { 39.0, 19.75 }, goals = { { 10.5, 25.75, 0 } } },
  },
  expect = {
    S.arrives("walker", { within = 12 }),
    S.never_stuck("walker", { longer = 1 }),
    S.no_faults(),
  },
}

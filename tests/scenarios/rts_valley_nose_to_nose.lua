-- The 400 wandering RTS units of rts_valley_four_hundred, with seed 16.
-- Units that meet one coming the other way where neither finds a way
-- round the other (nose to nose in the woods' one-cell lanes, a chain of
-- them, or under a rock) waited for one until the run ended: with the
-- CLI's placement, seed 13 had two for 40 s and seed 10 a chain of four
-- for 27 s. A unit held up for 4 s by one coming the other way now gives
-- its order up ("blocked"); bots/rts picks a new point to wander to (a
-- standing order is planned again from where the unit is). No unit stuck
-- over 10 s.
local S = require "scenario"

local SPAWNS = { "t1_a", "t1_b", "t1_c", "t2_a", "t2_b", "t2_c" }
local bots = {}
for k, at in ipairs(SPAWNS) do
  bots[k] = S.bot { name = "rts_" .. at, brain = "rts", count = k <= 4 and 67 or 66, at = at }
end

return S.scenario {
  description = "400 RTS units on seed 16: none stuck over 10 s nose to nose",
  map = "maps/valley.lua",
  seed = 16,
  time_limit = 60,
  ["until"] = "time",
  bots = bots,
  expect = {
    S.no_faults(),
    S.never_stuck("*", { longer = 10 }),
  },
}

-- 200 RTS units cross the valley's town in two formations of 100 whose
-- ways cross in the market square: one enters by the west gate and leaves
-- by the east gate for the river bank, the other comes in by the south gate
-- and leaves by the north gate for the fields beyond. Each unit walks to its
-- own place in the formation at the far end (grid paths, bots/rts.lua). No
-- two bodies may ever overlap and no brain may fault.
--
-- Units hold where they were sent once they get there (bots/rts.lua), and
-- make room for the ones still coming that lean on them (unit motion and
-- reciprocal avoidance). Slots are not handed out far-first, so a late
-- unit may find its place boxed in by the ones that got there before it,
-- and the eastward group's slots nearest the river fall in the water: the
-- run ends once 185 of the 200 have arrived, and fails if that takes
-- longer than the time limit.
local S = require "scenario"

local WANT = 185

return S.scenario {
  description = "200 bots crossing the valley without overlaps",
  map = "maps/valley.lua",
  class = "infantry",
  seed = 11,
  time_limit = 170,
  ["until"] = function(sc)
    local n = 0
    for _, id in ipairs(sc:ids("*")) do
      if select(3, nav.bot(id):goals()) then n = n + 1 end
    end
    return n >= WANT
  end,
  bots = {
    S.bot { name = "eastward", brain = "rts", count = 100, at = { 46, 107.5 }, goals = { { 95, 140 } },
            formation = true, goal_radius = 1.5 },
    S.bot { name = "northward", brain = "rts", count = 100, at = { 61.5, 94 }, goals = { { 50, 165 } },
            formation = true, goal_radius = 1.5 },
  },
  expect = {
    S.no_overlap(),
    S.no_faults(),
  },
}

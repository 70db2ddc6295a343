-- 400 RTS units wander the valley for 60 s, as `navbot run maps/valley.lua
-- --bot rts:400 --ticks 1800` runs them: 67 at each of the six spawns,
-- each unit sent to a random point within 60 m that its class reaches, a
-- new one each time it gets there (bots/rts.lua). Their ways cross in the
-- woods' one-cell lanes, at the mouths of dead ends and along the town's
-- walls. Stuck is the exception: at most 4 units stuck over 3 s, none over
-- 10 s. (The map's first class swims: no unit here meets water it
-- cannot cross.)
--
-- It failed before units stepped out of a wall's cell they had been
-- pressed into (the grid counts a cell a wall touches whole: every step
-- out "hit" the cell the body already stood in) and before one of two
-- units met head on in a dead end's mouth backed out for the other (each
-- waited for the other for 39 s).
local S = require "scenario"

local SPAWNS = { "t1_a", "t1_b", "t1_c", "t2_a", "t2_b", "t2_c" }
local bots = {}
for k, at in ipairs(SPAWNS) do
  bots[k] = S.bot { name = "rts_" .. at, brain = "rts", count = k <= 4 and 67 or 66, at = at }
end

local over3 = {} -- ids of units with a stuck spell over 3 s
local n3 = 0

return S.scenario {
  description = "400 RTS units wander the valley for 60 s, stuck over 3 s at most 4, none over 10 s",
  map = "maps/valley.lua",
  seed = 1,
  time_limit = 60,
  ["until"] = "time",
  bots = bots,
  expect = {
    S.no_faults(),
    S.never_stuck("*", { longer = 10 }),
    S.check("at most 4 units stuck over 3 s", function()
      for _, b in ipairs(nav.bots()) do
        local id = b:id()
        if not over3[id] and b:state().stuck_time > 3 then
          over3[id] = true
          n3 = n3 + 1
          if n3 > 4 then return false, n3 .. " units have been stuck over 3 s" end
        end
      end
    end),
  },
}

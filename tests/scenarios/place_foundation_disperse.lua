-- Twenty infantry stand in the town square; a foundation 7 x 7 m is laid
-- on them by a builder whose body laps over its west edge. All twenty
-- are moved off it (out of the footprint grown by their radius) onto
-- passable navcells, none overlapping; the builder stays where it was;
-- the grid no longer passes through the foundation.
local S = require "scenario"

local F = { x = 61.5, y = 107.5, hw = 3.5, hh = 3.5 }
local R = 0.5 -- infantry's radius
local moved, stranded, builder_at

return S.scenario {
  description = "a foundation laid on 20 standing units: all clear it, the builder stays, none overlapping",
  map = "maps/valley.lua",
  class = "infantry",
  time_limit = 2,
  runs = 2,
  ["until"] = "time",
  bots = {
    S.bot { name = "crowd", count = 20, at = { F.x, F.y } },
    S.bot { name = "builder", at = { F.x - F.hw - R + 0.3, F.y } },
  },
  events = {
    S.at_tick(1, function(sc)
      for _, id in ipairs(sc:ids("crowd")) do
        local x, y = nav.bot(id):pos()
        if math.abs(x - F.x) >= F.hw + R or math.abs(y - F.y) >= F.hh + R then
          error(string.format("crowd bot %d at (%.2f, %.2f) is not in the way to begin with", id, x, y))
        end
      end
      builder_at = { sc:bot("builder"):pos() }
      local id
      id, moved, stranded = nav.place_foundation { x = F.x, y = F.y, hw = F.hw, hh = F.hh, builder = sc:bot("builder") }
      assert(id, moved)
      sc:log(string.format("foundation %d: %d moved, %d stranded", id, moved, stranded))
    end),
  },
  expect = {
    S.no_overlap(),
    S.check_at_end("all twenty moved, none stranded", function(sc)
      if moved ~= 20 or stranded ~= 0 then return false, string.format("%s moved, %s stranded", moved, stranded) end
    end),
    S.check_at_end("off the foundation, on passable navcells", function(sc)
      for _, id in ipairs(sc:ids("crowd")) do
        local x, y = nav.bot(id):pos()
        if math.abs(x - F.x) < F.hw + R and math.abs(y - F.y) < F.hh + R then
          return false, string.format("still on the foundation at (%.2f, %.2f)", x, y), sc:info(id).name
        end
        if not nav.grid_passable(x, y, "infantry") then
          return false, string.format("on a blocked cell at (%.2f, %.2f)", x, y), sc:info(id).name
        end
      end
    end),
    S.check_at_end("the builder stays", function(sc)
      local x, y, z = sc:bot("builder"):pos()
      if x ~= builder_at[1] or y ~= builder_at[2] or z ~= builder_at[3] then
        return false, string.format("moved from (%.2f, %.2f) to (%.2f, %.2f)", builder_at[1], builder_at[2], x, y), "builder"
      end
    end),
    S.check_at_end("the grid goes round the foundation", function(sc)
      if nav.grid_passable(F.x, F.y, "infantry") then return false, "its centre is still passable" end
    end),
  },
}

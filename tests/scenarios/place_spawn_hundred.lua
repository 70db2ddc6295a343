-- A hundred infantry appear round one building on the valley's open
-- ground west of the river, rallying east: every one finds a spot on a
-- passable navcell, off the building, and none overlaps another (their
-- spawn squares, radius + 1/8 m, do not overlap either).
local S = require "scenario"

local B = { x = 20, y = 60, hw = 5, hh = 4 }
local HALF = 0.5 + 0.125 -- infantry's radius and the spawn margin
local placed = 0

return S.scenario {
  description = "100 units spawned round one building: all placed, none overlapping, all on passable navcells",
  map = "maps/valley.lua",
  time_limit = 2,
  ["until"] = "time",
  bots = { S.bot { name = "watcher", at = { 60, 107 } } },
  events = {
    S.at_tick(0, function(sc)
      assert(nav.place_foundation { x = B.x, y = B.y, hw = B.hw, hh = B.hh })
      local pts = nav.spawn_points { x = B.x, y = B.y, hw = B.hw, hh = B.hh, class = "infantry", n = 100,
                                     rally_x = 40, rally_y = 60 }
      for i = 1, #pts, 2 do
        assert(nav.spawn { x = pts[i], y = pts[i + 1], class = "infantry", yaw = 0 })
        placed = placed + 1
      end
      sc:log(string.format("%d spawn points, %d bots", #pts // 2, placed))
    end),
  },
  expect = {
    S.no_overlap(),
    S.check_at_end("all hundred placed", function(sc)
      if placed ~= 100 or #nav.bots() ~= 101 then
        return false, string.format("%d placed, %d bots", placed, #nav.bots())
      end
    end),
    S.check_at_end("the first nearest the rally point, east", function(sc)
      local x = nav.bot(1):pos()
      if x < B.x + B.hw then return false, string.format("the first stands at x %.2f", x) end
    end),
    S.check_at_end("on passable navcells, off the building, squares apart", function(sc)
      local at = {}
      for _, bot in ipairs(nav.bots()) do
        if bot:id() > 0 then
          local x, y = bot:pos()
          if not nav.grid_passable(x, y, "infantry") then
            return false, string.format("bot %d on a blocked cell at (%.2f, %.2f)", bot:id(), x, y)
          end
          if math.abs(x - B.x) < B.hw + HALF - 1e-3 and math.abs(y - B.y) < B.hh + HALF - 1e-3 then
            return false, string.format("bot %d on the building at (%.2f, %.2f)", bot:id(), x, y)
          end
          for _, p in ipairs(at) do
            if math.abs(x - p[1]) < 2 * HALF - 1e-3 and math.abs(y - p[2]) < 2 * HALF - 1e-3 then
              return false, string.format("bot %d's square overlaps bot %d's", bot:id(), p[3])
            end
          end
          at[#at + 1] = { x, y, bot:id() }
        end
      end
    end),
  },
}

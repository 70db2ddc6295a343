-- Buildings refused on the valley, each with its reason and its text:
-- on the hills (0.25 m bands a metre apart: 14 degrees) for a class
-- allowing 10; in the river (2 m deep) on dry-land rules; at the south
-- ford for rules allowing 0.3 m (its 0.25 m shoal at x 131 passes, the
-- 0.4 m middle from x 132 does not); too near a building laid first, and
-- on top of it; off the map. A refused foundation is not laid.
local S = require "scenario"

local CASES = {
  { "hills", { x = 30, y = 30, hw = 5, hh = 5, rules = { max_slope = 10 } },
    "slope", "slope 14 deg at (25.5, 25.5) over the limit of 10" },
  { "river", { x = 140, y = 60, hw = 1, hh = 1 },
    "water", "water 2 m deep at (139.5, 59.5) over the limit of 0" },
  { "ford", { x = 137, y = 43.5, hw = 6, hh = 0.5, rules = { max_water = 0.3 } },
    "water", "water 0.4 m deep at (132.5, 43.5) over the limit of 0.3" },
  { "near", { x = 28, y = 60, hw = 3, hh = 3, rules = { spacing = 3 } },
    "obstruction", "2 m from obstacle 1 at (25, 57), at least 3 needed" },
  { "on top", { x = 24, y = 60, hw = 3, hh = 3 },
    "obstruction", "overlaps obstacle 1 at (21, 57)" },
  { "off the map", { x = 2, y = 100, hw = 4, hh = 2 },
    "off_map", "off the map at (-2, 98)" },
}

local got = {}

return S.scenario {
  description = "placement refused on a slope, in water and too near another building, each with its reason",
  map = "maps/valley.lua",
  time_limit = 0.5,
  ["until"] = "time",
  bots = { S.bot { name = "watcher", at = { 60, 107 } } },
  events = {
    S.at_tick(0, function(sc)
      local first = assert(nav.place_foundation { x = 20, y = 60, hw = 3, hh = 3 })
      assert(first == 1, "the first building is obstacle " .. first)
      for i, c in ipairs(CASES) do
        local ok, why, text = nav.can_place(c[2])
        local id, fwhy, ftext = nav.place_foundation(c[2])
        got[i] = { ok = ok, why = why, text = text, laid = id, fwhy = fwhy, ftext = ftext }
      end
    end),
  },
  expect = {
    S.check_at_end("each refused with its reason and text", function(sc)
      for i, c in ipairs(CASES) do
        local g = got[i]
        if g.ok ~= false or g.why ~= c[3] or g.text ~= c[4] then
          return false, string.format("%s: got %s, %s, '%s'; expected false, %s, '%s'", c[1], tostring(g.ok),
                                      tostring(g.why), tostring(g.text), c[3], c[4])
        end
        if g.laid ~= nil or g.fwhy ~= c[3] or g.ftext ~= c[4] then
          return false, string.format("%s: the foundation was laid or refused otherwise (%s, %s)", c[1],
                                      tostring(g.laid), tostring(g.ftext))
        end
      end
    end),
    S.check_at_end("only the first building stands", function(sc)
      if not nav.remove_obstacle(1) or nav.remove_obstacle(2) then return false, "obstacles other than the first" end
    end),
  },
}

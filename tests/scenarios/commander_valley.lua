-- The commander brain (bots/commander.lua) plays a small RTS opening on
-- the valley: it lays a barracks, trains 40 infantry round it, forms them
-- up in a box and a wedge and sends them across the southern ford; on the
-- way it lays a building across the first formation's path, whose units
-- step out of the footprint while the formation plans its way round.
-- Both formations must get across, no two bodies may ever overlap
-- (spawned units included) and no brain may fault.
local S = require "scenario"

local laid, trained = false, 0

return S.scenario {
  description = "a commander trains 40 units and marches two formations across the valley",
  map = "maps/valley.lua",
  seed = 2,
  time_limit = 240,
  ["until"] = function(sc) return sc:info("commander").say:find("both formations across", 1, true) ~= nil end,
  bots = {
    S.bot { name = "commander", brain = "commander", at = { 22, 43 } },
  },
  expect = {
    S.no_overlap(),
    S.no_faults(),
    S.check("the building in the way is laid", function(sc)
      if sc:info("commander").say:find("stepped aside", 1, true) then laid = true end
      trained = math.max(trained, #nav.bots() - 1)
    end),
    S.check_at_end("40 trained, the building laid, both across", function(sc)
      if trained ~= 40 then return false, trained .. " units trained" end
      if not laid then return false, "no building was laid in the formation's way" end
      if not sc:info("commander").say:find("both formations across", 1, true) then
        return false, "says: " .. sc:info("commander").say
      end
    end),
  },
}

-- Three runners, two from spawn_a and one from spawn_b, sent to one point
-- on the dais (navbot run maps/arena.lua --bot runner:3 --goal 12,7). The
-- first there holds the point; the others cannot stand on it and arrive
-- by touching the one that holds it, or one that arrived that way,
-- standing round it. Before arrival by touch, the last one circled the
-- other two for ever.
local S = require "scenario"

return S.scenario {
  description = "three runners sent to one point all arrive",
  map = "maps/arena.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "a1", brain = "runner", at = "spawn_a", goals = { { 12, 7 } } },
    S.bot { name = "b", brain = "runner", at = "spawn_b", goals = { { 12, 7 } } },
    S.bot { name = "a2", brain = "runner", at = "spawn_a", goals = { { 12, 7 } } },
  },
  expect = {
    S.arrives("*", { within = 30 }),
    S.no_faults(),
    S.no_overlap(),
    S.check_at_end("all stand round the point", function(sc)
      for _, id in ipairs(sc:ids("*")) do
        local x, y = nav.bot(id):pos()
        local d = math.sqrt((x - 12) ^ 2 + (y - 7) ^ 2)
        if d > 4 then return false, string.format("bot %d arrived %.2f m from the point", id, d) end
      end
    end),
  },
}

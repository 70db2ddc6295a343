-- A runner with nothing left to do, swimming in the fort's pool just
-- below where the jump across it lands, is in the jumpers' way: a jump
-- into a body drops into the pool, so they wait for the landing to
-- clear. It cannot step aside in the water; it climbs out onto the bank
-- (a water jump) instead, and the jumper behind it gets across.
--
-- Failed before: the swimmer, with no floor to step aside to, stayed in
-- the pool ("idle").
local S = require "scenario"

return S.scenario {
  description = "an idle swimmer below a gap's landing climbs out, and the jumper gets across",
  map = "maps/tiled/fort.tmj",
  seed = 1,
  time_limit = 20,
  ["until"] = "time",
  bots = {
    S.bot { name = "swimmer", brain = "runner", at = { 12.7, 3.9 }, goals = { { 12.7, 3.9, -1.4 } }, goal_radius = 1.0 },
    S.bot { name = "jumper", brain = "runner", at = { 8.0, 3.9 }, goals = { { 13.8, 3.9, 0 } } },
  },
  expect = {
    S.no_faults(),
    S.arrives("jumper", { within = 12 }),
    S.check_at_end("the swimmer is out of the water", function(sc)
      local st = nav.bot(sc:info("swimmer").id):state()
      if st.in_water or not st.on_ground then return false, "still in the water", "swimmer" end
    end),
  },
}

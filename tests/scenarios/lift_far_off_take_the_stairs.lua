-- A runner beside tower's lift is sent up to the first floor just after
-- the platform has left for the top: it would wait some 20 s for it to go
-- round. Weighing that wait (ride.weigh_wait), it takes the stairs
-- instead, and the walk away from the lift to the stairs counts as
-- progress (the engine judges it by the route that shuns the lift).
local S = require "scenario"

return S.scenario {
  description = "a long wait for the lift: the stairs instead",
  map = "maps/tower.lua",
  time_limit = 40,
  bots = {
    -- On its way to the lift's mouth when its order comes.
    S.bot { name = "runner", brain = "runner", at = { 25.0, 6.0, 0 }, goals = { { 25.0, 17.5, 0 } } },
  },
  events = {
    -- The lift waits 2 s at the ground, then rises through every stop.
    S.at(2.5, S.move_goal("runner", { 21.75, 14.75, 8 })),
  },
  expect = {
    S.arrives("runner", { within = 20 }),
    S.never_uses("runner", "elevator"),
    S.never_stuck("runner", { longer = 3 }),
    S.no_faults(),
    S.check("the lift had gone when it was sent", function(sc)
      if sc:time() >= 2.5 and sc:time() < 2.6 then
        local lift = nav.entity("lift")
        if lift.phase == 0 and lift.offset < 0.1 then return false, "the lift still stood at the ground" end
      end
    end),
  },
}

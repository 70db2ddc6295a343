-- A brain whose script raises an error two seconds in: that bot faults,
-- its error names the file and line, it stops where it is, and the runner
-- beside it carries on to its goal.
local S = require "scenario"

local faulted_at = nil

return S.scenario {
  description = "a script that errors faults alone",
  map = "maps/gauntlet.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "runner", brain = "runner", at = "spawn_start", goals = { "goal_pool" } },
    S.bot { name = "erratic", brain = "erratic", at = { 2, 24 }, goals = { { 2, 20.5 } } },
  },
  expect = {
    S.faults("erratic", { matching = "bots/erratic.lua:16: attempt to index a nil value", within = 2.2 }),
    S.no_faults({ except = "erratic" }),
    S.arrives("runner", { within = 15 }),
    S.check("a faulted bot stops", function(sc)
      if not faulted_at then
        if sc:info("erratic").faulted then faulted_at = sc:time() end
        return
      end
      -- It stops walking on with its last wish (at 6 m/s); a parked body
      -- still makes room, at a walk (1.5 m/s at most), for a bot held up
      -- behind it (a body left in a doorway would close it for good).
      local vx, vy = sc:bot("erratic"):velocity()
      if sc:time() > faulted_at + 0.5 and vx * vx + vy * vy > 4.0 then
        return false, string.format("still moving at %.2f m/s half a second after its fault", math.sqrt(vx * vx + vy * vy)), "erratic"
      end
    end),
  },
}

-- Forty runners, twenty from each spawn, sent to the flag on the dais.
-- At least 95 % of them must arrive (standing round the flag in rings)
-- within the time limit; the run ends when all have or at the limit.
-- Before arrival by touch, two did.
local S = require "scenario"

local WANT = 38

return S.scenario {
  description = "forty runners sent to the centre: at least 95 % arrive",
  map = "maps/arena.lua",
  time_limit = 60,
  ["until"] = function(sc)
    local n = 0
    for _, id in ipairs(sc:ids("*")) do
      if select(3, nav.bot(id):goals()) then n = n + 1 end
    end
    return n == 40
  end,
  bots = {
    S.bot { name = "west", brain = "runner", count = 20, at = "spawn_a", goals = { "centre" } },
    S.bot { name = "east", brain = "runner", count = 20, at = "spawn_b", goals = { "centre" } },
  },
  expect = {
    S.no_faults(),
    S.no_overlap(),
    S.check_at_end("at least 38 of 40 arrive", function(sc)
      local n = 0
      for _, id in ipairs(sc:ids("*")) do
        if select(3, nav.bot(id):goals()) then n = n + 1 end
      end
      if n < WANT then return false, string.format("%d of 40 arrived", n) end
    end),
  },
}

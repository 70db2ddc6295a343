-- Three bots want the gallery, which only a lift reaches; its platform
-- holds one body. They ride it in turns: the one with the claim boards,
-- the others wait beside the shaft (saying so, and for whom) and never
-- crowd onto the platform, until the lift has come back down for them.
local S = require "scenario"

local waited = false
local names = { "a", "b", "c" }

return S.scenario {
  description = "a one-body lift carries three bots up in turns",
  map = "tests/scenarios/maps/choke.lua",
  time_limit = 60,
  bots = {
    S.bot { name = "a", brain = "runner", at = { 4, 3 }, goals = { { 14.5, 1.5, 4 } } },
    S.bot { name = "b", brain = "runner", at = { 4, 5.5 }, goals = { { 14.5, 5.5, 4 } } },
    S.bot { name = "c", brain = "runner", at = { 4, 8 }, goals = { { 14.5, 8.5, 4 } } },
  },
  expect = {
    S.arrives("*", { within = 25 }),
    S.uses("*", "elevator"),
    S.no_faults(),
    S.no_overlap(),
    S.check("one rider at a time", function(sc)
      local on = {}
      for _, name in ipairs(names) do
        local x, y = sc:bot(name):pos()
        -- Over the platform (x 10-11, y 5-6), or riding it.
        if sc:bot(name):state().riding >= 0 or (x > 10 and x < 11 and y > 5 and y < 6) then on[#on + 1] = name end
      end
      if #on > 1 then return false, table.concat(on, " and ") .. " are on the one-body platform together" end
    end),
    S.check("a waiting bot says what it waits for", function(sc)
      for _, name in ipairs(names) do
        local holder = sc:info(name).say:match("^waiting for the lift %(bot (%d+) on it%)$")
        if holder then
          waited = true
          if tonumber(holder) == sc:info(name).id then return false, "waits for itself", name end
        end
      end
    end),
    S.check_at_end("someone waited for its turn", function(sc)
      if not waited then return false, "nobody said it was waiting for the lift's rider" end
    end),
  },
}

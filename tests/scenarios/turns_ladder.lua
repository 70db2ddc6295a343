-- Three runners meet at the tower's first ladder: two in the store room
-- climb to the hall above while the third comes down through the hatch.
-- The ladder and its hatch are used by one at a time; the others wait
-- clear of its foot and its top, saying for whom, and all arrive.
local S = require "scenario"

local waited = false
local names = { "up1", "up2", "down" }

return S.scenario {
  description = "a ladder and its hatch taken in turn by three runners",
  map = "maps/tower.lua",
  seed = 7,
  time_limit = 40,
  bots = {
    S.bot { name = "up1", brain = "runner", at = { 23.5, 6.5, 0 }, goals = { { 22, 12, 4 } } },
    S.bot { name = "up2", brain = "runner", at = { 27, 5, 0 }, goals = { { 27, 12.5, 4 } } },
    S.bot { name = "down", brain = "runner", at = { 24, 12.5, 4 }, goals = { { 27, 6, 0 } } },
  },
  expect = {
    S.arrives("*", { within = 20 }),
    S.uses({ "up1", "up2" }, "ladder"),
    S.no_faults(),
    S.no_overlap(),
    S.check("one at a time in the ladder's shaft", function(sc)
      local in_shaft = {}
      for _, name in ipairs(names) do
        local x, y, z = sc:bot(name):pos()
        -- Ladder 1 and the hatch over it: x 24.5-26, y 8-9, between the floors.
        if x > 24.3 and x < 26.2 and y > 7.8 and y < 9.2 and z > 0.3 and z < 3.8 then in_shaft[#in_shaft + 1] = name end
      end
      if #in_shaft > 1 then return false, table.concat(in_shaft, " and ") .. " are in the ladder's shaft together" end
    end),
    S.check("a waiting bot says what it waits for", function(sc)
      for _, name in ipairs(names) do
        local holder = sc:info(name).say:match("^waiting for the ladder %(bot (%d+) on it%)$")
        if holder then
          waited = true
          local x, y = nav.bot(tonumber(holder)):pos()
          if math.abs(x - 25.25) > 4 or math.abs(y - 8.75) > 4 then
            return false, ("says it waits for bot %s, which is not at the ladder"):format(holder), name
          end
        end
      end
    end),
    S.check_at_end("someone waited for the ladder", function(sc)
      if not waited then return false, "nobody said it was waiting for the ladder" end
    end),
  },
}

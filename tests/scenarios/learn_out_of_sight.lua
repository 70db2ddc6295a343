-- Learners stand still while a demonstrator climbs the store room's
-- ladder from the tower's ground floor to the hall above. The one in the
-- store room sees it and learns the ladder; the one on the third floor,
-- out of sight behind floors and walls, learns nothing of the ladder or
-- of the floors below. Then the watcher's memory is saved, loaded into a
-- third learner that saw nothing, and routes within both memories are the
-- same.
local S = require "scenario"

local FILE = "build/scenarios/learn_out_of_sight.navmem"
local saved, loaded, compared = false, false, false

-- Known links of a bot's memory that are ladders, or that end below z.
local function ladders(mem, below)
  local n = 0
  for _, id in ipairs(mem:links()) do
    local l = nav.link(id)
    if l.type == "ladder" or l.finish[3] < below then n = n + 1 end
  end
  return n
end

local PAIRS = {
  { { 27, 5.5, 0 }, { 24, 12.5, 4 } },   -- store room to the hall above, by the ladder
  { { 27, 5.5, 0 }, { 23, 6.5, 0 } },    -- across the store room
  { { 5, 6, 8 }, { 24, 12.5, 4 } },      -- from the dormitory: not known
}

return S.scenario {
  description = "a learner out of sight learns nothing of the ladder; a saved memory routes the same",
  map = "maps/tower.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "watcher", brain = "learner_still", at = { 27, 5.5, 0 } },
    S.bot { name = "blind", brain = "learner_still", at = { 5, 6, 8 } },
    S.bot { name = "heir", brain = "learner_still", at = { 13, 17, 8 } },
    S.bot { name = "guide", brain = "demonstrator", at = { 23.5, 6, 0 }, goals = { { 24, 12.5, 4 } } },
  },
  expect = {
    S.arrives("guide", { within = 40 }),
    S.uses("guide", "ladder"),
    S.no_faults(),
    S.check("the watcher learns the ladder; the blind learner nothing above", function(sc)
      if ladders(sc:bot("blind"):memory(), 7) > 0 then return false, "learned a link it could not see", "blind" end
      local _, reached = sc:bot("guide"):goals()
      if reached > 0 and not saved then
        if ladders(sc:bot("watcher"):memory(), -1) == 0 then return false, "did not learn the ladder it saw", "watcher" end
        local ok, why = sc:bot("watcher"):memory():save(FILE)
        if not ok then return false, "save: " .. tostring(why), "watcher" end
        saved = true
        local heir = sc:bot("heir"):memory()
        local ok, why = heir:load(FILE)
        if not ok then return false, "load: " .. tostring(why), "heir" end
        loaded = true
        local w = sc:bot("watcher"):memory()
        for i, p in ipairs(PAIRS) do
          local a, b = w:route(p[1], p[2]), heir:route(p[1], p[2])
          if (a == nil) ~= (b == nil) then return false, "pair " .. i .. ": one memory has a route, the other not" end
          if a and (a.time ~= b.time or #a.links ~= #b.links) then
            return false, string.format("pair %d: %.2f s in %d links vs %.2f s in %d", i, a.time, #a.links, b.time, #b.links)
          end
          if i == 1 and not a then return false, "the saved memory has no way up the ladder" end
          if i == 3 and a then return false, "a way known from a room never seen" end
        end
        compared = true
      end
    end),
    S.check_at_end("the memory was saved, loaded and compared", function(sc)
      if not compared then return false, "saved " .. tostring(saved) .. ", loaded " .. tostring(loaded) end
    end),
  },
}

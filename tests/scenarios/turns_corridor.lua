-- Two pairs cross a corridor one body wide from both ends at once. Head on
-- in it nobody could pass; they take turns: one side goes through while
-- the other waits back from its mouth and to the side, saying what it
-- waits for, then the other side goes.
local S = require "scenario"

local waited = {}

-- Bots inside the corridor (x 7.5-16.5, y 14.5-16), and which way they face.
local function inside(sc)
  local east, west = 0, 0
  for _, name in ipairs({ "west1", "west2", "east1", "east2" }) do
    local x, y = sc:bot(name):pos()
    if x > 8.3 and x < 15.7 and y > 14.5 and y < 16 then
      if name:sub(1, 4) == "west" then east = east + 1 else west = west + 1 end
    end
  end
  return east, west
end

return S.scenario {
  description = "two pairs cross a one-body corridor from both ends, one way at a time",
  map = "tests/scenarios/maps/choke.lua",
  time_limit = 40,
  bots = {
    S.bot { name = "west1", brain = "runner", at = { 2.5, 15.25 }, goals = { { 21, 12, 0 } } },
    S.bot { name = "west2", brain = "runner", at = { 4.5, 15.25 }, goals = { { 21, 18.5, 0 } } },
    S.bot { name = "east1", brain = "runner", at = { 21.5, 15.25 }, goals = { { 3, 12, 0 } } },
    S.bot { name = "east2", brain = "runner", at = { 19.5, 15.25 }, goals = { { 3, 18.5, 0 } } },
  },
  expect = {
    S.arrives("*", { within = 30 }),
    S.no_faults(),
    S.no_overlap(),
    S.check("one way at a time in the corridor", function(sc)
      local east, west = inside(sc)
      if east > 0 and west > 0 then
        return false, ("%d going east and %d going west inside the corridor"):format(east, west)
      end
    end),
    S.check("a waiting bot says what it waits for", function(sc)
      for _, name in ipairs({ "west1", "west2", "east1", "east2" }) do
        local say = sc:info(name).say
        local holder = say:match("^waiting for the corridor %(bot (%d+) in it%)$")
        if holder then
          waited[name] = true
          local x, y = nav.bot(tonumber(holder)):pos()
          if x < 3.5 or x > 20.5 then
            return false, ("says it waits for bot %s, which is nowhere near the corridor"):format(holder), name
          end
        elseif say:match("^waiting for") and not say:match("^waiting for the corridor %(") then
          return false, "waits saying '" .. say .. "'", name
        end
      end
    end),
    S.check_at_end("someone waited", function(sc)
      if not next(waited) then return false, "nobody said it was waiting for the corridor" end
    end),
  },
}

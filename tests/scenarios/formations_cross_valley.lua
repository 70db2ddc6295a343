-- 200 RTS infantry in five formations (a box and a column by the southern
-- ford, a wedge, a line and another box by the middle one) cross the
-- valley from the west bank to the east. Each forms up where its units
-- were spawned, then is ordered across: to the ford's west end, its east
-- end, then its goal, without stopping on the way. On the march the ranks
-- walk the anchor's path, narrowing to the files the ground fits (in the
-- lanes between the woods a box goes as a file) and widening after. Each
-- must arrive in shape (its members' mean distance from their slots under
-- 1 m), no two bodies may ever overlap, and no unit may be stuck more
-- than 3 s, waiting included. The goals are open ground that fits each
-- shape; the line and the column are told which way to face there.
local S = require "scenario"

-- Each ford by its west end and its east end: infantry swim, and the
-- shortest way would take them across deep water.
local SOUTH_FORD = { { 126, 44 }, { 148, 44 } }
local MIDDLE_FORD = { { 100, 120 }, { 124, 120 } }
local GROUPS = {
  { name = "box",    shape = "box",    n = 48, at = { 50, 30 },  via = SOUTH_FORD,  to = { 241, 20 },  start = 0 },
  { name = "column", shape = "column", n = 40, at = { 35, 6 },   via = SOUTH_FORD,  to = { 169, 83 },  face = 0, start = 12 },
  { name = "wedge",  shape = "wedge",  n = 44, at = { 15, 125 }, via = MIDDLE_FORD, to = { 168, 121 }, start = 0 },
  { name = "line",   shape = "line",   n = 20, at = { 20, 38 },  via = MIDDLE_FORD, to = { 223, 158 }, face = 90, start = 0 },
  { name = "box2",   shape = "box",    n = 48, at = { 80, 160 }, via = MIDDLE_FORD, to = { 238, 100 }, start = 5 },
}

local formed = {}   -- group name -> formation id
local moved = {}    -- group name -> sent across

local bots, events = {}, {}
for _, g in ipairs(GROUPS) do
  bots[#bots + 1] = S.bot { name = g.name, brain = "rts", class = "infantry", count = g.n, at = g.at }
  -- Formed up where they stand (facing east), then off to the ford
  -- `start` seconds after the formation stands in shape.
  local ready
  events[#events + 1] = S.at_tick(0, function(sc)
    formed[g.name] = nav.formation(sc:ids(g.name), { shape = g.shape })
    nav.formation_move(formed[g.name], g.at[1], g.at[2], 0)
  end)
  events[#events + 1] = S.when(function()
    local info = formed[g.name] and nav.formation_info(formed[g.name])
    if info and info.status == "arrived" then ready = ready or nav.time() end
    return ready ~= nil and nav.time() >= ready + g.start
  end, function()
    nav.formation_move(formed[g.name], g.via[1][1], g.via[1][2])
    moved[g.name] = 1
  end)
  -- At each end of the ford on to the next point, without stopping.
  for k = 2, #g.via + 1 do
    events[#events + 1] = S.when(function()
      local info = moved[g.name] == k - 1 and nav.formation_info(formed[g.name])
      return info and info.path_left == 0
    end, function()
      local p = g.via[k] or g.to
      nav.formation_move(formed[g.name], p[1], p[2], not g.via[k] and g.face or nil)
      moved[g.name] = k
    end)
  end
end

return S.scenario {
  description = "200 units in five formations cross the valley by the fords and arrive in shape",
  map = "maps/valley.lua",
  seed = 3,
  time_limit = 200,
  ["until"] = function()
    for _, g in ipairs(GROUPS) do
      local f = formed[g.name]
      local info = f and nav.formation_info(f)
      if moved[g.name] ~= #g.via + 1 or not info or info.status ~= "arrived" then return false end
    end
    return true
  end,
  bots = bots,
  events = events,
  expect = {
    S.no_overlap(),
    S.no_faults(),
    S.never_stuck("*", { longer = 3 }),
    S.check_at_end("every formation arrived in shape", function()
      for _, g in ipairs(GROUPS) do
        local f = formed[g.name]
        local info = f and nav.formation_info(f)
        if moved[g.name] ~= #g.via + 1 or not info or info.status ~= "arrived" then
          return false, g.name .. " is " .. (info and info.status or "not formed")
        end
        if info.slot_error >= 1.0 then
          return false, string.format("%s arrived with a mean slot error of %.2f m", g.name, info.slot_error)
        end
      end
    end),
  },
}

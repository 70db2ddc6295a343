-- commander: an RTS player in miniature, for maps/valley.lua. It lays a
-- barracks near where it stands, trains units there one at a time
-- (nav.spawn_points, nav.spawn), forms them up in two formations and
-- sends them across the river to the east bank (nav.formation,
-- nav.formation_move). When the first formation is on its way, the
-- commander lays a building across its path (nav.place_foundation): the
-- units standing there step out of the footprint, and the formation plans
-- its way round it. Its state text says what it is doing.
--
--   navbot sim maps/valley.lua commander
--   navbot run maps/valley.lua --bot commander --ticks 4500
--
-- Tunables below; the units it trains have no brain of their own (their
-- formation drives them).
local TRAIN = 40              -- units to train
local TRAIN_EVERY = 6         -- ticks between two units
local CLASS = "infantry"
local GROUPS = {              -- two formations, where each goes, when (seconds after forming)
  { shape = "box",   size = 20, to = { 190, 45 }, after = 0 },
  { shape = "wedge", size = 20, to = { 200, 30 }, after = 12 },
}
local BLOCK_AHEAD = 14        -- metres ahead of the first formation the building goes
local BLOCK_AT_X = 70         -- ...once its anchor is this far east
local BARRACKS = { hw = 4, hh = 3, rules = { max_slope = 15 } }

local brain = {}
local state = "site"
local barracks                -- {x, y} of the barracks once laid
local trained, spots, next_train = {}, nil, 0
local formations, sent, formed_at = {}, {}, 0
local blocked = false

-- The first spot near (x, y), searching outward, where the barracks may
-- stand (nav.can_place), or nil.
local function find_site(x, y)
  for ring = 0, 12 do
    for dx = -ring, ring do
      for dy = -ring, ring do
        if math.max(math.abs(dx), math.abs(dy)) == ring then
          local sx, sy = x + 12 + dx * 3, y + 12 + dy * 3
          if nav.can_place{ x = sx, y = sy, hw = BARRACKS.hw, hh = BARRACKS.hh, rules = BARRACKS.rules } then
            return sx, sy
          end
        end
      end
    end
  end
end

local steps = {}

function steps.site(bot)
  local x, y = bot:pos()
  local sx, sy = find_site(x, y)
  if not sx then
    bot:say("no site for the barracks")
    return "done"
  end
  local id = nav.place_foundation{ x = sx, y = sy, hw = BARRACKS.hw, hh = BARRACKS.hh, rules = BARRACKS.rules,
                                   builder = bot }
  if not id then return "site" end
  barracks = { sx, sy }
  bot:say(string.format("barracks at (%.0f, %.0f)", sx, sy))
  return "train"
end

function steps.train(bot)
  if nav.tick() < next_train then return "train" end
  next_train = nav.tick() + TRAIN_EVERY
  -- Spawn points round the barracks, nearest the rally point (the east)
  -- first; looked up again when used up (units that walked off free some).
  if not spots or #spots == 0 then
    spots = nav.spawn_points{ x = barracks[1], y = barracks[2], hw = BARRACKS.hw, hh = BARRACKS.hh,
                              class = CLASS, n = 8, rally_x = barracks[1] + 40, rally_y = barracks[2] }
  end
  if #spots >= 2 then
    local unit = nav.spawn{ x = spots[1], y = spots[2], class = CLASS, team = 1 }
    table.remove(spots, 1)
    table.remove(spots, 1)
    if unit then trained[#trained + 1] = unit end
  else
    spots = nil
  end
  bot:say(string.format("training %d of %d", #trained, TRAIN))
  if #trained >= TRAIN then return "form" end
  return "train"
end

function steps.form(bot)
  local at = 1
  for i, g in ipairs(GROUPS) do
    local members = {}
    for k = at, at + g.size - 1 do members[#members + 1] = trained[k] end
    at = at + g.size
    formations[i] = nav.formation(members, { shape = g.shape })
  end
  formed_at = nav.time()
  bot:say("formed up")
  return "march"
end

function steps.march(bot)
  for i, g in ipairs(GROUPS) do
    if not sent[i] and nav.time() >= formed_at + g.after then
      nav.formation_move(formations[i], g.to[1], g.to[2])
      sent[i] = true
      bot:say(string.format("formation %d on its way", i))
    end
  end
  local first = nav.formation_info(formations[1])
  if not blocked and first.status == "moving" and first.x >= BLOCK_AT_X then
    -- A building across the first formation's way, a little ahead of it.
    local a = math.rad(first.facing)
    local x, y = first.x + math.cos(a) * BLOCK_AHEAD, first.y + math.sin(a) * BLOCK_AHEAD
    local id, moved = nav.place_foundation{ x = x, y = y, hw = 3, hh = 6, angle = first.facing }
    blocked = true
    if id then bot:say(string.format("a building in their way; %d stepped aside", moved)) end
  end
  for _, f in ipairs(formations) do
    local info = nav.formation_info(f)
    if info.status ~= "arrived" and info.status ~= "failed" then return "march" end
  end
  bot:say("both formations across")
  return "done"
end

function steps.done() return "done" end

function brain.think(bot)
  bot:move(0, 0, 0, state)
  state = steps[state](bot)
end

return brain

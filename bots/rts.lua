-- rts: an RTS unit for crowds of thousands on open maps (maps/valley.lua).
-- It moves by the engine's unit motion (bot:move_unit): the sim walks it
-- along a grid path for its class, tests each next move against the grid
-- and the other units, takes a short way round a unit in its way,
-- follows one going its way, and plans again when it cannot get by
-- (docs/lua-api.md, "Unit motion"). This brain only gives the orders:
--   - its queued goal (bot:goal()) when it has one, as a circle of the
--     goal's radius: units sent to one point stand round it, the later
--     ones arriving when they touch one that is there;
--   - else a random point its class can reach within RANGE metres, a new
--     one each time it arrives or is blocked for good (the crowds of
--     navbot bench crowd);
--   - an order given up as blocked (held up by units with no way round)
--     is planned again from where the unit stands;
--   - a unit that was sent somewhere stays there once its queue is done,
--     as RTS units hold where they were ordered to;
--   - a unit in a formation (nav.formation) is led by it: no orders.
--
-- Cheap by construction, because 10,000 of these tick together:
--   - This file is both the brain and the one module all its bots share:
--     run for a bot it returns require "rts", so the bots share one set of
--     functions, and per-bot state lives in flat arrays indexed by a slot
--     number (a struct of arrays).
--   - The common tick is one comparison: a unit looks at its order only
--     on its wake tick, every LOOK_EVERY ticks (spread over the ticks by
--     slot), and the walking is done in C.
-- Randomness comes from nav.random, drawn in bot order, so the same seed
-- gives the same run. bench crowd's C baseline (engine/cli/
-- cmd_bench_crowd.c) follows the same rules: change both together.
local modname = ...
if modname ~= "rts" then return require "rts" end

local min, max = math.min, math.max
local random, grid_reachable = nav.random, nav.grid_reachable

local RANGE = 60            -- metres: how far a random goal may be, each axis
local LOOK_EVERY = 8        -- ticks between looks at the order and the queue
local RETRY = 30            -- ticks before trying again when nowhere to go
-- Reciprocal avoidance between units (bot:avoidance) on top of unit
-- motion, kept to the ground the unit's grid paths use: units coming at
-- each other turn aside early instead of meeting nose to nose.
local AVOID = true

local brain = {}

-- {======= per-bot state, one array per field =======

local slot_of = {}          -- bot userdata -> slot
local count = 0
local wake = {}             -- tick of the next look
local gx, gy, gz = {}, {}, {} -- the queued goal being walked to (gx false: none)
local ordered = {}          -- it has had a queued goal: no random ones after

local W, H = nav.grid_size()
local now, last = 0, math.huge -- the tick, and the slot that ran last

local function new_slot(bot)
  count = count + 1
  local i = count
  slot_of[bot] = i
  wake[i] = nav.tick() + i % LOOK_EVERY
  gx[i], gy[i], gz[i], ordered[i] = false, 0, 0, false
  if AVOID then
    local forbid = { "lava", "slime" }
    if bot:class().swim_speed <= 0 then forbid[3] = "deep_water" end
    bot:avoidance{ forbid = forbid }
  end
  return i
end

-- }=======

-- {======= orders =======

-- A random point near the bot that its class can reach, or nil. Drawn
-- evenly from the part of the square round it that is on the map: a
-- point clamped to the map's edge would pile the units up in its
-- corners, every one pushing for the same spot.
local function random_goal(bot)
  local px, py = bot:pos()
  local x0, x1 = max(0.5, px - RANGE), min(W - 0.5, px + RANGE)
  local y0, y1 = max(0.5, py - RANGE), min(H - 0.5, py + RANGE)
  for _ = 1, 8 do
    local x = x0 + random() * (x1 - x0)
    local y = y0 + random() * (y1 - y0)
    if grid_reachable(bot, x, y) then return x, y end
  end
  return nil
end

-- The wake tick's look: a new queued goal is ordered at once; a unit
-- with no queue wanders (new random goals) unless it was ordered before.
local function look(bot, i, t)
  if bot:formation() then return t + LOOK_EVERY end -- its formation leads it
  local x, y, z, r = bot:goal()
  if x then
    local renew = false
    if x == gx[i] and y == gy[i] and z == gz[i] then
      -- Held up so long it gave the order up (units nose to nose in a
      -- lane): the order stands, so plan it afresh from here.
      local status, doing = bot:unit()
      renew = status == "failed" and doing == "blocked"
    end
    if renew or x ~= gx[i] or y ~= gy[i] or z ~= gz[i] then
      gx[i], gy[i], gz[i], ordered[i] = x, y, z, true
      bot:move_unit(x, y, r > 0 and { goal = "circle", radius = r } or nil)
    end
    return t + LOOK_EVERY
  end
  if gx[i] then              -- the queue is done (or cleared): hold
    gx[i] = false
    bot:stop_unit()
  end
  if ordered[i] then return t + LOOK_EVERY end
  local status = bot:unit()
  if status == "moving" then return t + LOOK_EVERY end
  local rx, ry = random_goal(bot)
  if not rx then return t + RETRY end
  bot:move_unit(rx, ry)
  return t + LOOK_EVERY
end

-- }=======

function brain.think(bot)
  local i = slot_of[bot] or new_slot(bot)
  -- Bots run in slot order, so a slot no later than the last one run
  -- starts a new tick: one nav.tick() a tick instead of one a bot.
  if i <= last then now = nav.tick() end
  last = i
  if now >= wake[i] then wake[i] = look(bot, i, now) end
end

return brain

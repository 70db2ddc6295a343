-- rts: an RTS unit for crowds of thousands on open maps (maps/valley.lua).
-- It walks grid paths (nav.grid_path, smoothed) rather than area routes:
-- goal = its queued bot goal when it has one (bot:goal()), else a random
-- point its class can reach within RANGE metres; one path per goal; the
-- bot heads for the next waypoint each tick; it re-plans when the queued
-- goal changes or when it is stuck (it first steps aside for a moment,
-- since what blocks it is usually another unit), and picks a new random
-- goal when it arrives.
--
-- Cheap by construction, because 10,000 of these tick together:
--   - This file is both the brain and the module all its bots share: run
--     for a bot it returns require "rts", so every bot shares one set of
--     functions instead of its own closures, and per-bot state lives in
--     flat arrays indexed by a slot number (struct of arrays; a path is
--     one flat {x1, y1, x2, y2, ...} array).
--   - A tick is two or three engine calls (bot:pos, bot:move, and now and
--     then bot:goal); path queries are spread out: at most PLANS_PER_TICK
--     per tick for all the bots of the brain, the rest wait their turn
--     (a new crowd fills in over its first seconds), and a stuck bot
--     waits longer each time before asking again.
-- Everything is drawn from nav.random in bot order, so the same seed
-- gives the same run.
local modname = ...
if modname ~= "rts" then return require "rts" end

local sqrt, floor, min, max = math.sqrt, math.floor, math.min, math.max

local RANGE = 60            -- metres: how far a random goal may be (each axis)
local REACH = 0.6           -- metres: a waypoint is passed within this
local PLANS_PER_TICK = 256  -- path queries per tick, all bots of the brain
local STUCK_EVERY = 30      -- ticks between progress checks
local STUCK_MOVE = 0.5      -- metres a moving bot covers between checks, at least
local SIDESTEP = 12         -- ticks spent stepping aside when stuck
local GOAL_EVERY = 8        -- ticks between looks at the queued goal
local OPTS = { smooth = true }

local brain = {}

-- {======= per-bot state, one array per field =======

local slot_of = {}          -- bot userdata -> slot
local count = 0
local gx, gy = {}, {}       -- goal being walked to
local queued = {}           -- the goal came from bot:goal()
local path, wi = {}, {}     -- waypoints (flat) or false; index of the next x
local plan_at = {}          -- tick from which it may (re)plan; false: has what it needs
local check_at, cx, cy = {}, {}, {} -- next progress check, and where it was at the last
local stuck = {}            -- checks in a row without progress
local aside = {}            -- ticks of sidestep left (direction in sx, sy)
local sx, sy = {}, {}

local W, H = nav.grid_size()
local goal_of = false       -- bot.goal when the engine has it (looked up once)
local plan_tick, plans = -1, 0

local function new_slot(bot)
  count = count + 1
  local i = count
  slot_of[bot] = i
  gx[i], gy[i], queued[i] = 0, 0, false
  path[i], wi[i] = false, 1
  local t = nav.tick()
  plan_at[i] = t
  check_at[i], cx[i], cy[i] = t + STUCK_EVERY, bot:pos()
  stuck[i], aside[i], sx[i], sy[i] = 0, 0, 0, 0
  if goal_of == false then goal_of = bot.goal or nil end
  return i
end

-- }=======

-- {======= goals and plans =======

-- A random reachable point near the bot, or nil after a few misses.
local function random_goal(bot, px, py)
  for _ = 1, 8 do
    local x = min(W - 0.5, max(0.5, px + (2 * nav.random() - 1) * RANGE))
    local y = min(H - 0.5, max(0.5, py + (2 * nav.random() - 1) * RANGE))
    if nav.grid_reachable(bot, x, y) then return x, y end
  end
  return nil
end

-- Looks at the queued goal: true when the bot must plan again.
local function goal_changed(bot, i)
  if not goal_of then return false end
  local x, y = goal_of(bot)
  if x then
    if not queued[i] or x ~= gx[i] or y ~= gy[i] then
      gx[i], gy[i], queued[i] = x, y, true
      return true
    end
  elseif queued[i] then
    queued[i] = false       -- reached (the sim pops it) or cleared
    return true
  end
  return false
end

-- Plans a path (a new random goal when it has none, or want_new); false
-- when this tick's budget is spent.
local function plan(bot, i, t, px, py, want_new)
  if t ~= plan_tick then plan_tick, plans = t, 0 end
  if plans >= PLANS_PER_TICK then return false end
  plans = plans + 1
  if not queued[i] and (want_new or not path[i]) then
    local x, y = random_goal(bot, px, py)
    if not x then
      plan_at[i] = t + 30
      return true
    end
    gx[i], gy[i] = x, y
  end
  local p, how = nav.grid_path(bot, gx[i], gy[i], OPTS)
  if p and queued[i] and how == "found" then
    -- The path ends at the goal cell's centre; a queued goal is reached
    -- when the bot is within its radius of the point itself.
    p[#p + 1], p[#p + 2] = gx[i], gy[i]
  end
  if p and #p > 0 then
    path[i], wi[i], plan_at[i] = p, 1, false
  elseif p then
    -- There already: a random goal is replaced next tick; a queued one
    -- waits for the sim to take it off the queue.
    path[i], plan_at[i] = false, not queued[i] and t + 1
  else
    path[i], plan_at[i] = false, t + 30 -- nowhere to go from here: later
  end
  return true
end

-- }=======

function brain.think(bot, dt)
  local i = slot_of[bot] or new_slot(bot)
  local t = nav.tick()
  local px, py = bot:pos()
  -- The queued goal: looked at now and then while walking, every tick
  -- while waiting (so a goal reached is followed by the next at once).
  if (not path[i] or (t + i) % GOAL_EVERY == 0) and goal_changed(bot, i) then plan_at[i] = t end
  local want = plan_at[i]
  if want and t >= want then plan(bot, i, t, px, py, stuck[i] >= 2) end

  -- Stuck: no progress since the last check while on a path.
  if t >= check_at[i] then
    local dx, dy = px - cx[i], py - cy[i]
    check_at[i], cx[i], cy[i] = t + STUCK_EVERY, px, py
    if path[i] and dx * dx + dy * dy < STUCK_MOVE * STUCK_MOVE then
      local s = stuck[i] + 1
      stuck[i] = s
      -- Step aside, square to the way it was going, left or right at random.
      local p, k = path[i], wi[i]
      local wx, wy = p[k] - px, p[k + 1] - py
      local d = sqrt(wx * wx + wy * wy) + 1e-6
      local side = nav.random() < 0.5 and -1 or 1
      sx[i], sy[i], aside[i] = -wy / d * side, wx / d * side, SIDESTEP
      plan_at[i] = t + SIDESTEP + min(s, 8) * 15
    else
      stuck[i] = 0
    end
  end
  if aside[i] > 0 then
    aside[i] = aside[i] - 1
    bot:move(sx[i], sy[i], 1, "aside")
    return
  end

  local p = path[i]
  if not p then
    bot:move(0, 0, 0, "idle")
    return
  end
  local k = wi[i]
  local dx, dy = p[k] - px, p[k + 1] - py
  local d2 = dx * dx + dy * dy
  while d2 < REACH * REACH do
    k = k + 2
    if k > #p then          -- arrived: a new goal (or the next queued one)
      path[i], wi[i] = false, 1
      if not plan_at[i] then plan_at[i] = t + 1 end
      bot:move(0, 0, 0, "arrived")
      return
    end
    dx, dy = p[k] - px, p[k + 1] - py
    d2 = dx * dx + dy * dy
  end
  wi[i] = k
  local d = sqrt(d2)
  bot:move(dx / d, dy / d, 1, "path")
end

return brain

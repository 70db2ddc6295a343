-- rts: an RTS unit for crowds of thousands on open maps (maps/valley.lua).
-- It walks grid paths (nav.grid_path, smoothed) rather than area routes:
-- its goal is its queued bot goal when it has one (bot:goal()), else a
-- random point its class can reach within RANGE metres; it asks for one
-- path per goal, heads for the next waypoint each tick, re-plans when the
-- queued goal changes or when it is stuck (first stepping aside for a
-- moment: what blocks a unit in a crowd is mostly another unit). A unit
-- never given a goal picks a new random one each time it arrives (the
-- crowds of navbot bench crowd); one that was sent somewhere stays there
-- once its queue is done, as RTS units hold where they were ordered to
-- (wandering off, it would walk back into the units still coming).
--
-- Cheap by construction, because 10,000 of these tick together:
--   - This file is both the brain and the one module all its bots share:
--     run for a bot it returns require "rts", so the bots share one set of
--     functions rather than each making its own closures, and per-bot
--     state lives in flat arrays indexed by a slot number (a struct of
--     arrays; a path is one flat {x1, y1, x2, y2, ...} array).
--   - The common tick is bot:pos, a little arithmetic and bot:move. The
--     rest (looking at the queued goal, planning, the progress check)
--     waits for the bot's wake tick.
--   - Path queries are spread out: at most PLANS_PER_TICK a tick for all
--     the bots of the brain, the others wait their turn (a new crowd fills
--     in over its first ticks), and a stuck bot waits longer each time.
-- Randomness comes from nav.random, drawn in bot order, so the same seed
-- gives the same run. bench crowd's C baseline (engine/cli/
-- cmd_bench_crowd.c) follows the same rules: change both together.
local modname = ...
if modname ~= "rts" then return require "rts" end

local sqrt, min, max, huge = math.sqrt, math.min, math.max, math.huge
local random, grid_path, grid_reachable = nav.random, nav.grid_path, nav.grid_reachable

local RANGE = 60            -- metres: how far a random goal may be, each axis
local REACH = 0.6           -- metres: a waypoint is passed within this
local PLANS_PER_TICK = 256  -- path queries a tick, all bots of the brain
local STUCK_EVERY = 30      -- ticks between progress checks
local STUCK_MOVE = 0.5      -- metres a walking bot covers between checks, at least
local SIDESTEP = 12         -- ticks spent stepping aside when stuck
local GOAL_EVERY = 8        -- ticks between looks at the queued goal while walking
local RETRY = 30            -- ticks before trying again when nowhere to go
-- Reciprocal avoidance between units (bot:avoidance), kept to the ground
-- the unit's grid paths use. With it, units that hold their ground give
-- way to the ones still coming (tests/scenarios/crowd_valley.lua) and a
-- crowd that wanders the valley is stuck about half as much.
local AVOID = true
local OPTS = { smooth = true }

local brain = {}

-- {======= per-bot state, one array per field =======

local slot_of = {}          -- bot userdata -> slot
local count = 0
local wake = {}             -- tick of the next slow step (goal, plan, progress)
local plan_at = {}          -- tick from which it may plan; false: has what it needs
local check_at, cx, cy = {}, {}, {} -- next progress check, and where it was at the last one
local goal_at = {}          -- next look at the queued goal
local gx, gy = {}, {}       -- the goal being walked to
local queued = {}           -- the goal came from bot:goal()
local ordered = {}          -- it has had a queued goal: no random ones after
local path, wi = {}, {}     -- waypoints (flat) or false; index of the next x
local stuck = {}            -- progress checks in a row that failed
local aside = {}            -- ticks of stepping aside left (direction in sx, sy)
local sx, sy = {}, {}

local W, H = nav.grid_size()
local goal_of = false       -- bot.goal when the engine has it (looked up once)
local now, last = 0, huge   -- the tick, and the slot that ran last
local plan_tick, plans = -1, 0

local function new_slot(bot)
  count = count + 1
  local i = count
  slot_of[bot] = i
  local t = nav.tick()
  -- Periodic work is spread over the ticks by slot, so a crowd that
  -- started together does not check all at once.
  wake[i], plan_at[i], goal_at[i] = t, t, t + i % GOAL_EVERY
  check_at[i], cx[i], cy[i] = t + STUCK_EVERY + i % STUCK_EVERY, bot:pos()
  gx[i], gy[i], queued[i], ordered[i] = 0, 0, false, false
  path[i], wi[i] = false, 1
  stuck[i], aside[i], sx[i], sy[i] = 0, 0, 0, 0
  if goal_of == false then goal_of = bot.goal or nil end
  -- Other units: the engine's reciprocal avoidance when AVOID is on, kept
  -- to the ground its grid paths use: never lava or slime, deep water only
  -- if it swims.
  if AVOID then
    local forbid = { "lava", "slime" }
    if bot:class().swim_speed <= 0 then forbid[3] = "deep_water" end
    bot:avoidance{ forbid = forbid }
  end
  return i
end

-- }=======

-- {======= goals and plans =======

-- A random point near the bot that its class can reach, or nil. Drawn
-- evenly from the part of the square round it that is on the map: a
-- point clamped to the map's edge would pile the units up in its
-- corners, every one pushing for the same spot.
local function random_goal(bot, px, py)
  local x0, x1 = max(0.5, px - RANGE), min(W - 0.5, px + RANGE)
  local y0, y1 = max(0.5, py - RANGE), min(H - 0.5, py + RANGE)
  for _ = 1, 8 do
    local x = x0 + random() * (x1 - x0)
    local y = y0 + random() * (y1 - y0)
    if grid_reachable(bot, x, y) then return x, y end
  end
  return nil
end

-- Looks at the queued goal; true when the bot must plan again.
local function goal_changed(bot, i)
  if not goal_of then return false end
  local x, y = goal_of(bot)
  if x then
    if not queued[i] or x ~= gx[i] or y ~= gy[i] then
      gx[i], gy[i], queued[i], ordered[i] = x, y, true, true
      return true
    end
  elseif queued[i] then
    -- Reached (the sim took it off) or cleared: a random goal next.
    queued[i], path[i] = false, false
    return true
  end
  return false
end

-- Plans a path, to a new random goal when it has none (or is stuck
-- again and again). Nothing when this tick's budget is spent: it stays
-- due and tries next tick.
local function plan(bot, i, t, px, py)
  if t ~= plan_tick then plan_tick, plans = t, 0 end
  if plans >= PLANS_PER_TICK then return end
  plans = plans + 1
  if not queued[i] and ordered[i] then
    path[i], plan_at[i] = false, false -- its orders done: it holds
    return
  end
  if not queued[i] and (not path[i] or stuck[i] >= 2) then
    local x, y = random_goal(bot, px, py)
    if not x then
      plan_at[i] = t + RETRY
      return
    end
    gx[i], gy[i] = x, y
  end
  local p, how = grid_path(bot, gx[i], gy[i], OPTS)
  if p and queued[i] and how == "found" then
    -- The path ends at the centre of the goal's cell; a queued goal is
    -- reached within its radius of the point itself.
    p[#p + 1], p[#p + 2] = gx[i], gy[i]
  end
  if p and #p > 0 then
    path[i], wi[i], plan_at[i] = p, 1, false
    if nav.watching() then -- the window draws the path
      local pts = {}
      for k = 1, #p - 1, 2 do pts[#pts + 1] = { p[k], p[k + 1], 0 } end
      bot:show_path(pts)
    end
  elseif p then
    -- There already: a random goal is replaced next tick; a queued one
    -- waits for the sim to take it off the queue.
    path[i], plan_at[i] = false, not queued[i] and t + 1
  else
    path[i], plan_at[i] = false, t + RETRY -- nowhere to go from here
  end
end

-- Stuck: no progress since the last check while on a path. Step aside,
-- square to the way it was going, left or right at random, then plan
-- again (later each time it happens in a row).
local function check_progress(bot, i, t, px, py)
  local dx, dy = px - cx[i], py - cy[i]
  check_at[i], cx[i], cy[i] = t + STUCK_EVERY, px, py
  local p = path[i]
  if not p or dx * dx + dy * dy >= STUCK_MOVE * STUCK_MOVE then
    stuck[i] = 0
    return
  end
  local s = stuck[i] + 1
  stuck[i] = s
  local k = wi[i]
  local wx, wy = p[k] - px, p[k + 1] - py
  local d = sqrt(wx * wx + wy * wy) + 1e-6
  local side = random() < 0.5 and -1 or 1
  sx[i], sy[i], aside[i] = -wy / d * side, wx / d * side, SIDESTEP
  plan_at[i] = t + SIDESTEP + min(s, 8) * 15
end

-- Everything but following the path, when the bot's wake tick comes.
local function slow(bot, i, t, px, py)
  -- The queued goal: looked at now and then while walking, every tick
  -- while waiting (so a goal reached is followed by the next at once).
  if t >= goal_at[i] or not path[i] then
    goal_at[i] = goal_of and t + GOAL_EVERY or huge
    if goal_changed(bot, i) then plan_at[i] = t end
  end
  local pa = plan_at[i]
  if pa and t >= pa then plan(bot, i, t, px, py) end
  if t >= check_at[i] then check_progress(bot, i, t, px, py) end
  pa = plan_at[i]
  local w = min(goal_at[i], check_at[i])
  if pa then w = min(w, max(pa, t + 1)) end
  if not path[i] then w = t + 1 end
  wake[i] = w
end

-- }=======

function brain.think(bot, dt)
  local i = slot_of[bot] or new_slot(bot)
  -- Bots run in slot order, so a slot no later than the last one run
  -- starts a new tick: one nav.tick() a tick instead of one a bot.
  if i <= last then now = nav.tick() end
  last = i
  local t = now
  local px, py = bot:pos()
  if t >= wake[i] then slow(bot, i, t, px, py) end

  local a = aside[i]
  if a > 0 then
    aside[i] = a - 1
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
    if k > #p then          -- arrived: a new goal, or the next queued one
      path[i], wi[i] = false, 1
      if not plan_at[i] then plan_at[i] = t + 1 end
      wake[i] = t + 1
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

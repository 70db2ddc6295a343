-- demonstrator: shows the way. It runs its goals as the runner does (every
-- goal of the map when given none), but as a guide: while a bot that
-- learns (one with a navigation memory, bot:memory()) and is within
-- AUDIENCE metres does not see it, it stops and waits for it to come into
-- sight, then goes back into its sight (PATIENCE seconds at most each
-- time), and before a link that is not a plain walk (a ladder, a lift, a
-- jump, a teleporter, a pad) it waits until all of them see it, so that
-- they learn the link.
-- It plays the part of a player showing bots around, without a window.
local follow = require "follow"
local tour = require "tour"

local brain = {}
local PATIENCE = 30    -- seconds it waits for a watcher at a time
local AUDIENCE = 60    -- metres within which learners are waited for
local NEAR = 1.5       -- metres from a link's start where it waits to be watched
local GO_ON = 3        -- seconds it walks on after giving up waiting
local BACK_AFTER = 1.5 -- seconds waiting before it goes back for a learner out of sight

local state = {}

-- Learners near: how many, how many of them see it, and the nearest that
-- does not.
local function audience(bot)
  local x, y, z = bot:pos()
  local near, seeing, lost, ld = 0, 0, nil, math.huge
  for _, o in ipairs(nav.bots()) do
    if o ~= bot and o:has_memory() then
      local ox, oy, oz = o:pos()
      if (ox - x) ^ 2 + (oy - y) ^ 2 + (oz - z) ^ 2 < AUDIENCE * AUDIENCE then
        near = near + 1
        local d = (ox - x) ^ 2 + (oy - y) ^ 2 + (oz - z) ^ 2
        if o:sees(bot) then seeing = seeing + 1 elseif d < ld then lost, ld = o, d end
      end
    end
  end
  return near, seeing, lost
end

function brain.spawn(bot)
  state[bot:id()] = { f = follow.new(bot, { policy = "runner" }), waited = 0, go_on = 0, shown = nil }
  if bot:goals() == 0 then tour.queue_map_goals(bot, "runner") end
end

local function wait(bot, s, dt, what)
  s.waited = s.waited + dt
  if s.waited >= PATIENCE then
    s.waited, s.go_on = 0, GO_ON
    return false
  end
  bot:move(0, 0)
  bot:wait()
  bot:say(string.format("showing the way: waiting for %s (%.0f s)", what, s.waited))
  return true
end

function brain.think(bot, dt)
  local s = state[bot:id()]
  local f = s.f
  s.go_on = math.max(0, s.go_on - dt)
  if bot:goal() and not f.link and s.go_on == 0 then
    local near, seeing, lost = audience(bot)
    local l = f.route and f.route.links[1]
    local x, y = bot:pos()
    local at_link = l and l.type ~= "walk" and l.type ~= "crouch" and s.shown ~= l.id and
                    math.sqrt((l.start[1] - x) ^ 2 + (l.start[2] - y) ^ 2) < NEAR
    if at_link and seeing < near then
      if wait(bot, s, dt, "a watcher at the " .. l.type) then return end
    elseif seeing < near then
      -- Wait a moment, then go back into the sight of the nearest one.
      if s.waited < BACK_AFTER then
        if wait(bot, s, dt, "its learners to catch up") then return end
      elseif s.waited < PATIENCE then
        s.waited = s.waited + dt
        local lx, ly, lz = lost:pos()
        f:set_goal(lx, ly, lz)
        f:update(dt)
        bot:say("showing the way: going back for a learner")
        return
      else
        s.waited, s.go_on = 0, GO_ON
      end
    else
      s.waited = 0
      if at_link then s.shown = l.id end
    end
  end
  if f.fixed and not f.link then f:set_goal(nil) end
  f:update(dt)
end

return brain

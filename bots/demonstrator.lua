-- demonstrator: shows the way. It runs its goals as the runner does (every
-- goal of the map when given none), but as a guide to its pupils, the
-- bots that learn (with a navigation memory, bot:memory()) and saw it
-- lately: while one of them, within AUDIENCE metres, does not see it, it
-- stops and waits for it to come into sight, then goes back into its
-- sight (PATIENCE seconds at most each time), and before a link that is
-- not a plain walk (a ladder, a lift, a jump, a teleporter, a pad) it
-- waits until they all see it, so that they learn the link.
-- It plays the part of a player showing bots around, without a window.
local follow = require "follow"
local tour = require "tour"

local brain = {}
local PATIENCE = 30    -- seconds it waits for a watcher at a time
local AUDIENCE = 60    -- metres within which learners are waited for
local NEAR = 1.5       -- metres from a link's start where it waits to be watched
local GO_ON = 3        -- seconds it walks on after giving up waiting
local BACK_AFTER = 1.5 -- seconds waiting before it goes back for a learner out of sight
local PUPIL_TIME = 20  -- seconds a learner that saw it counts as following it

local state = {}

-- Its pupils: learners (bots with a memory) that saw it in the last
-- PUPIL_TIME seconds and are within AUDIENCE metres. Learners that never
-- saw it are not waited for. Returns how many, how many see it now, and
-- the nearest that does not.
local function audience(bot, s)
  local x, y, z = bot:pos()
  local now = nav.time()
  local near, seeing, lost, ld = 0, 0, nil, math.huge
  for _, o in ipairs(nav.bots()) do
    if o ~= bot and o:has_memory() then
      local ox, oy, oz = o:pos()
      local d = (ox - x) ^ 2 + (oy - y) ^ 2 + (oz - z) ^ 2
      local sees = o:sees(bot)
      if sees then s.pupils[o:id()] = now end
      local last = s.pupils[o:id()]
      if last and now - last < PUPIL_TIME and d < AUDIENCE * AUDIENCE then
        near = near + 1
        if sees then seeing = seeing + 1 elseif d < ld then lost, ld = o, d end
      end
    end
  end
  return near, seeing, lost
end

function brain.spawn(bot)
  state[bot:id()] = { f = follow.new(bot, { policy = "runner" }), waited = 0, go_on = 0, shown = nil, pupils = {} }
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
  -- The link next: the one being taken when follow has begun it (a
  -- ladder, a lift: it is taken with care from some way before its start).
  local l = f.link or (f.route and f.route.links[1])
  local x, y = bot:pos()
  local at_link = l and l.type ~= "walk" and l.type ~= "crouch" and s.shown ~= l.id and f.phase == nil and
                  math.sqrt((l.start[1] - x) ^ 2 + (l.start[2] - y) ^ 2) < NEAR
  if bot:goal() and (at_link or not f.link) and s.go_on == 0 then
    local near, seeing, lost = audience(bot, s)
    if at_link and seeing < near then
      if wait(bot, s, dt, "a watcher at the " .. l.type) then return end
    elseif seeing < near then
      -- Wait a moment, then go back into the sight of the nearest one.
      if s.waited < BACK_AFTER then
        if wait(bot, s, dt, "its learners to catch up") then return end
      elseif s.waited < PATIENCE then
        -- Back on foot only: through a teleporter or down a ledge it would
        -- cross the learner coming the other way, or not get back.
        local lx, ly, lz = lost:pos()
        local back = bot:route(lx, ly, lz)
        local l1 = back and back.links[1]
        if l1 and (l1.type == "walk" or l1.type == "crouch") then
          s.waited = s.waited + dt
          f:set_goal(lx, ly, lz)
          f:update(dt)
          bot:say("showing the way: going back for a learner")
          return
        end
        if wait(bot, s, dt, "its learners to catch up") then return end
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

-- ride.lua: riding elevators, for follow (lua/follow.lua). A follower
-- that comes to an elevator link waits beside the shaft (never under the
-- platform) until the platform stands at this stop with room on it
-- (turns:lift), boards onto a spot of its own, waits a moment for the
-- others boarding, rides (holding use) and steps off at the other stop.
-- Each function takes the follower as its first argument; follow's
-- methods f:ride and f:all_aboard call them.
local arbiter = require "arbiter"
local policy = require "policy"

local ride = {}

ride.BOARD_MARGIN = 0.5    -- seconds to spare when boarding a lift that is about to leave
ride.BOARD_WAIT = 4.0      -- seconds riders wait for the others to board before going
ride.WEIGH_AFTER = 3.0     -- seconds of wait for the platform before another way is weighed
ride.WEIGH_EVERY = 1.0     -- seconds between weighings while waiting

local sqrt, abs, huge = math.sqrt, math.abs, math.huge

local function hdist(ax, ay, bx, by)
  local dx, dy = ax - bx, ay - by
  return sqrt(dx * dx + dy * dy)
end

-- The elevator: wait out from under the platform until it stands at this
-- stop and there is room on it (turns:lift), board, ride (use: go now),
-- step off at the other stop.
function ride.ride(self, l, dt, st, x, y, z)
  local bot = self.bot
  local e = nav.entity(l.entity)
  local s, f = l.start, l.finish
  local at_start = e.phase == 0 and abs(e.offset - s[3]) < 0.05
  local at_finish = e.phase == 0 and abs(e.offset - f[3]) < 0.05
  local lo, hi = e.mins, e.maxs
  local r = bot:class().radius
  local over = x > lo[1] - r and x < hi[1] + r and y > lo[2] - r and y < hi[2] + r
  if self.phase == "off" then
    -- Off the platform into the area the link lands in.
    local ax, ay, az = bot:area_center(l.to)
    self:say("stepping off")
    self:head(ax, ay, arbiter.PATH, "off lift")
    local here = bot:area()
    return (here == l.to and st.riding < 0) or self.phase_time > 4
  end
  -- The shaft: its middle, half sizes, and the side to board from (an
  -- axis and its sign).
  local ox, oy = (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2
  local hw, hd = (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2
  local sx, sy = ride.shaft_side(self, l, x, y, ox, oy, hw, hd, r)
  -- Room on the platform: alone, a rider stands in its middle; sharing it,
  -- each on its own spot.
  if self.phase ~= "ride" and not over and hdist(x, y, s[1], s[2]) > 3 and
     not nav.sight({ x, y, z + 0.9 }, { s[1], s[2], s[3] + 0.9 }) then
    -- Out of sight of the stop (a corner of the shaft between): the
    -- straight lines below lead into walls from here. To the mouth of
    -- the shaft on its boarding side first; pushed or led so far off that
    -- the mouth is out of sight too, plan again.
    local mx, my = ox + sx * (hw + r + 0.6), oy + sy * (hd + r + 0.6)
    if not nav.sight({ x, y, z + 0.9 }, { mx, my, s[3] + 0.9 }) then return true end
    self:say("to the lift")
    self:head(mx, my, arbiter.PATH, "to lift")
    return false
  end
  local granted, holder, place, holders, ch = self.turns:lift(l, e)
  self:avoidance_pause()
  local cx, cy = ox, oy
  if granted and holders > 1 then cx, cy = self.turns:lift_slot(e, place) end
  if st.riding == l.entity then
    if self.phase ~= "ride" then self.aboard = 0 end
    self.phase = "ride"
    self.aboard = self.aboard + dt
    if at_finish then
      self.phase = "off"
      self.phase_time = 0
      bot:use(false)
      return false
    end
    self:say("riding")
    -- Go now from a stop on the way; never while moving, or the lift would
    -- leave its last stop the moment it got there, with the bot stepping
    -- off; nor while others it carries may still be boarding (but not
    -- for ever: one that cannot get on for the bodies in the way takes
    -- the next trip).
    local go = holders <= 1 or self.aboard > ride.BOARD_WAIT or ride.all_aboard(self, ch.key, l.entity)
    bot:use(e.phase == 0 and go)
    -- Stand on its spot: a body hanging over the edge would meet the
    -- shaft's rim on the way.
    local dx, dy = cx - x, cy - y
    local d = math.sqrt(dx * dx + dy * dy)
    if d > 0.1 then
      local k = math.min(1, d / 0.5) / d
      self.arb:request(dx * k, dy * k, arbiter.CLIMB, "ride")
    else
      self.arb:request(0, 0, arbiter.CLIMB, "ride")
    end
    return false
  end
  if self.phase == "ride" then
    -- Was riding and is not: off at the top (or pushed off): re-plan.
    bot:use(false)
    return true
  end
  -- Under the platform while it is above this stop: get out from under it.
  local under = over and e.offset > z + 0.3 and abs(z - s[3]) < 0.5
  -- The mouth of the shaft on the side it boards from, in line with where
  -- it will stand.
  local mx = sx ~= 0 and ox + sx * (hw + r + 0.15) or cx
  local my = sy ~= 0 and oy + sy * (hd + r + 0.15) or cy
  -- Boarding takes a while; a lift about to leave is let go (walking
  -- into its shaft as it sinks drops the body after it).
  if at_start and granted and self.phase ~= "board" then
    local need = hdist(x, y, cx, cy) / bot:class().run_speed + ride.BOARD_MARGIN
    if (e.wait_left or math.huge) < need then at_start = false end
  end
  if at_start and granted then
    self.phase = "board"
    self:say("boarding")
    -- Straight in through the mouth: from the side, the shaft's edge
    -- would catch the body. In line is within the platform's width less
    -- a body, of the spot it will stand on.
    local lim = math.max(0.1, (sx ~= 0 and hd or hw) - r - 0.15)
    local lateral = sx ~= 0 and y - cy or x - cx
    if not over and abs(lateral) > lim then
      -- A little inside the limit: a target on it is reached (and moved
      -- to no more) a hair outside it.
      local k = lateral > 0 and lim - 0.1 or 0.1 - lim
      if sx ~= 0 then my = cy + k else mx = cx + k end
      self:head(mx, my, arbiter.PATH, "to lift")
    else
      self:head(cx, cy, arbiter.PATH, "board")
    end
    return false
  end
  -- Waiting for the platform (not yet on it): is another way quicker?
  if not over and st.riding < 0 and ride.weigh_wait(self, l, e) then return true end
  if not granted and not under and not over then
    -- Someone else's turn: stand back from the mouth and to its side.
    ch.entry, ch.dir = { mx, my, s[3] }, { -sx, -sy }
    ch.aside = (sx ~= 0 and hd or hw) + r + 0.3
    self.phase = "wait"
    self.turns:wait(self, ch, holder, place)
    return self.phase_time > 120
  end
  -- Wait beside the shaft on the side it boards from, a body's width out
  -- and out of the lane in front of the mouth (riders step off through
  -- it): to the side of the mouth nearer the bot, when there is floor in
  -- sight of the mouth there; in line with the shaft when not.
  local wx, wy = ride.wait_spot(self, l, x, y, z, ox, oy, lo, hi, sx, sy, r)
  self.phase = "wait"
  -- (Over the platform without room on it counts as under it: off it.)
  under = under or (over and not granted and abs(z - s[3]) < 0.5)
  self:say(under and "out from under the lift" or "waiting for the lift")
  bot:wait() -- the lift comes: waiting, not stuck
  if under or hdist(x, y, wx, wy) > 0.3 then
    self:head(wx, wy, arbiter.PATH, under and "from under lift" or "to lift")
  else
    self.arb:request(0, 0, arbiter.PATH, "wait lift")
  end
  return self.phase_time > 60
end

-- Where to wait for the platform at link l's stop (see ride.ride).
function ride.wait_spot(self, l, x, y, z, cx, cy, lo, hi, sx, sy, r)
  local hx, hy = (hi[1] - lo[1]) / 2 + r + 0.3, (hi[2] - lo[2]) / 2 + r + 0.3
  local sz = l.start[3]
  -- Aside: a body's width out, past the mouth's edge on the bot's side
  -- (then the other side).
  local lateral = sx ~= 0 and y - cy or x - cx
  local first = lateral >= 0 and 1 or -1
  local mouth = sx ~= 0 and { cx + sx * hx, cy } or { cx, cy + sy * hy }
  for _, side in ipairs({ first, -first }) do
    local px, py
    if sx ~= 0 then px, py = cx + sx * hx, cy + side * hy
    else px, py = cx + side * hx, cy + sy * hy end
    if self.bot:walkable(px, py, sz) and
       nav.sight({ mouth[1], mouth[2], sz + 0.9 }, { px, py, sz + 0.9 }) then
      return px, py
    end
  end
  if sx ~= 0 then return cx + sx * hx, math.max(cy - hy + r, math.min(cy + hy - r, y)) end
  return math.max(cx - hx + r, math.min(cx + hx - r, x)), cy + sy * hy
end

-- Seconds until lift e next stands at the stop at height z (its `eta`).
function ride.eta(e, z)
  for k, h in ipairs(e.stops) do
    if abs(h - z) < 0.05 then return e.eta[k] end
  end
  return 0
end

-- A wait for the platform longer than WEIGH_AFTER: is another way
-- quicker than the wait and the ride? The route is asked again with
-- the wait added to this link's cost; when it no longer starts with
-- the lift, the lift is routed round (follow:shun) until the platform
-- is due, and true is returned. Weighed once per WEIGH_EVERY.
function ride.weigh_wait(self, l, e)
  local now = nav.time()
  if self.weighed_link == l.id and now - self.weighed_at < ride.WEIGH_EVERY then return false end
  self.weighed_link, self.weighed_at = l.id, now
  -- (A held lift, math.huge, comes when it is let go: no telling when.)
  local wait = ride.eta(e, l.start[3])
  if wait < ride.WEIGH_AFTER or wait == huge or not self.goal then return false end
  local avoid = self:avoid_table() or {}
  avoid[l.id] = (avoid[l.id] or 0) + wait
  local g = self.goal
  local other = policy.route(self.bot, g[1], g[2], g[3], self.policy, avoid)
  if not other or (other.links[1] and other.links[1].id == l.id) then return false end
  self:shun(l, string.format("another way: the lift comes in %.0f s", wait), wait, wait)
  return true
end

-- Is every bot that holds a place on the lift (claim key) riding it?
function ride.all_aboard(self, key, entity)
  for _, c in ipairs(nav.claims()) do
    if c.key == key then
      for _, id in ipairs(c.holders) do
        local o = nav.bot(id)
        if o and o:state().riding ~= entity then return false end
      end
    end
  end
  return true
end

-- The side of a lift's shaft to board from at link l's stop: of the sides
-- whose mouth (just outside the shaft, at the stop's height) is floor the
-- bot can stand on, the one nearest the bot; the nearest side when none
-- is (a walled side would have the bot wait and push where it cannot get
-- in). Kept per link: the shaft does not move.
function ride.shaft_side(self, l, x, y, ox, oy, hw, hd, r)
  self.sides = self.sides or {}
  local open = self.sides[l.id]
  if not open then
    open = {}
    local z = l.start[3]
    for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
      local mx, my = ox + d[1] * (hw + r + 0.2), oy + d[2] * (hd + r + 0.2)
      local a = nav.area(mx, my, z + 0.1, self.bot:class().name)
      if a and abs(a.zmax - z) < 0.5 and not a.liquid then open[#open + 1] = d end
    end
    self.sides[l.id] = open
  end
  local best, bd = nil, huge
  for _, d in ipairs(#open > 0 and open or { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
    local mx, my = ox + d[1] * (hw + r), oy + d[2] * (hd + r)
    local dd = hdist(x, y, mx, my)
    if dd < bd then best, bd = d, dd end
  end
  return best[1], best[2]
end

return ride

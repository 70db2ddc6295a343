-- follow.lua: reactive path following, as Left 4 Dead's bots do it. The
-- route over the area graph says which links to take; the bot heads for
-- the furthest point along it that it can walk to in a straight line
-- (so it cuts corners naturally instead of zigzagging between area
-- edges), re-plans when it leaves the route or the world changes, and
-- handles each travel type when it comes to one: crouch through, line up
-- and jump, climb (finding the edge with climb.edge), take the ladder,
-- swim and water-jump out, step into the teleporter, step onto the jump
-- pad, and for an elevator: wait beside the shaft (never under the
-- platform) until it is at this stop, board, ride, and step off.
-- Chokepoints are taken in turn (turns.lua): a ladder or its hatch, a
-- climb, a one-body doorway or corridor is claimed before the bot goes
-- in, a lift's platform by as many as it holds; a bot that must wait
-- stands clear and says what it waits for.
-- Avoidance of other bots and crates, stuck recovery and the arbitration
-- of these move requests are built in.
--
--   local follow = require "follow"
--   local f = follow.new(bot, { policy = "runner" })
--   function brain.think(bot, dt)
--     local status = f:update(dt)     -- "moving", "idle" (no goal left), "no route"
--   end
local policy = require "policy"
local arbiter = require "arbiter"
local avoid = require "avoid"
local climb = require "climb"
local stuck = require "stuck"
local turns = require "turns"
local ride = require "ride"
local room = require "room"
local triggers = require "triggers"

local follow = {}
follow.__index = follow

follow.REPLAN = 1.0         -- seconds between routine re-plans
follow.LOOK = 6             -- walk links looked ahead for a straight line
follow.TARGET_EVERY = 0.2   -- seconds between straight-line checks
follow.ARRIVE = 1.0         -- metres from the goal point where the bot slows down
follow.LEDGE_SLOW = 0.15     -- of full speed, walking off a ledge when a run would land on a trigger
follow.LANDING_WAIT = 3.0    -- seconds waiting for a body to leave a gap jump's landing
follow.RUN_UP = 2.5         -- metres backed off before a gap jump taken from a stand
follow.RUN_UP_MIN = 1.0     -- less room than this behind the start: jump from a stand
follow.BARRIER_BACK = 2.0    -- metres behind a barrier jump's start where a bot from the side lines up
follow.PAD_BACK = 0.3        -- metres clear of a jump pad where a bot lines up for it
follow.PAD_NEAR = 0.3        -- ...and how near that spot counts as there
follow.DOOR_LOOK = 3.0       -- metres ahead where a shut door on the way is slowed for
follow.DOOR_STOP = 0.3       -- metres short of a panel still too low where the bot stands
follow.DOOR_WAIT = 5.0       -- seconds standing for a door's panel count as waiting, not stuck

local sqrt, abs, huge = math.sqrt, math.abs, math.huge

local function hdist(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  return sqrt(dx * dx + dy * dy)
end

-- opts: policy (name, default "default"), avoid (default true: the
-- engine's avoidance of other bots by the policy's rules, and steering
-- round crates and doors), say (state text on the bot, default true),
-- route (function(bot, x, y, z, policy, avoid) -> route | nil, why: how
-- routes are found; default policy.route, the whole graph; learn.lua
-- gives one within what the bot knows).
function follow.new(bot, opts)
  opts = opts or {}
  local self = setmetatable({
    bot = bot,
    policy = opts.policy or "default",
    route_fn = opts.route or policy.route,
    use_avoid = opts.avoid ~= false,
    use_say = opts.say ~= false,
    arb = arbiter.new(bot),
    stuck = stuck.new(),
    turns = turns.new(bot),     -- chokepoints claimed and waited for
    route = nil, route_age = huge, area = nil,
    goal = nil,                 -- {x, y, z} the route is for
    target = nil, target_age = huge,
    link = nil,                 -- the link being taken when it needs care
    phase = nil, phase_time = 0,
    status = "idle",
    replans = 0,
    shunned = {},               -- link id -> { untilt = time it is routed round until, cost = extra seconds }
    shun_check = 0,
    why = nil,                  -- what the last stuck spell was put down to
  }, follow)
  -- Other bots: the engine's reciprocal avoidance, on the policy's ground
  -- (a cautious bot is never shoved into water or off a ledge).
  if self.use_avoid then avoid.enable(bot, self.policy) end
  return self
end

function follow:say(text)
  if self.use_say then self.bot:say(text) end
end

-- The engine's avoidance off while a careful link is taken: its run-up
-- bent by a passing bot, a jump falls short into the gap; and its
-- obstacle lines keep the body off the open shaft of a lift it means to
-- step onto. Back on at the next plan (follow:replan).
function follow:avoidance_pause()
  if self.use_avoid and not self.avoid_off then
    self.bot:avoidance(false)
    self.avoid_off = true
  end
end

-- Forget the route: the next update plans again.
function follow:replan()
  self.route, self.link, self.phase = nil, nil, nil
  if self.avoid_off then
    avoid.enable(self.bot, self.policy)
    self.avoid_off = false
  end
end

local function same_goal(g, x, y, z)
  return g and g[1] == x and g[2] == y and g[3] == z
end

-- {======= the link being taken ======= }

-- Links that need more than walking toward their end, and are kept until
-- done even when the bot's area changes on the way.
local CAREFUL = {
  barrier_jump = true, jump = true, climb = true, ladder = true, water_jump = true,
  teleport = true, elevator = true, jump_pad = true,
}

-- Triggers (teleporters, jump pads) are kept clear of by triggers.lua:
-- the area graph lets a route walk across the floor they stand on.
local crosses = triggers.crosses
follow.crosses = crosses

-- Doors, found once: (name, static box) of each.
local doors = nil
local function door_boxes()
  if doors then return doors end
  doors = {}
  for _, name in ipairs(nav.entities("door")) do
    local e = nav.entity(name)
    doors[#doors + 1] = { name = name, lo = e.mins, hi = e.maxs }
  end
  return doors
end

-- A door on the straight way to (x, y), within DOOR_LOOK, whose panel is
-- not yet above the body: the scale of speed to keep (0: stand and let it
-- open; a door opens for a bot that comes near it) or nil. A bot that ran
-- into the rising panel at full speed slid along it, off its way (into a
-- teleporter beside the door, on a small map).
function follow:door_scale(bx, by, bz, x, y)
  local list = door_boxes()
  if #list == 0 then return nil end
  local c = self.bot:class()
  local r = c.radius
  for _, d in ipairs(list) do
    local x0, y0, x1, y1 = d.lo[1] - r, d.lo[2] - r, d.hi[1] + r, d.hi[2] + r
    local near = bx > x0 - follow.DOOR_LOOK and bx < x1 + follow.DOOR_LOOK and by > y0 - follow.DOOR_LOOK and
      by < y1 + follow.DOOR_LOOK and bz > d.lo[3] - 1.0 and bz < d.hi[3]
    if near and not (bx > x0 and bx < x1 and by > y0 and by < y1) and crosses(bx, by, x, y, x0, y0, x1, y1) then
      local e = nav.entity(d.name)
      if e.box_mins[3] < bz + c.height and e.phase ~= 1 then
        -- Distance to the grown box, along neither axis inside it.
        local gx = bx < x0 and x0 - bx or (bx > x1 and bx - x1 or 0)
        local gy = by < y0 and y0 - by or (by > y1 and by - y1 or 0)
        local gap = sqrt(gx * gx + gy * gy)
        self.why = "waiting for the door " .. d.name .. " to open"
        return math.max(0, math.min(1, (gap - follow.DOOR_STOP) / follow.DOOR_LOOK))
      end
    end
  end
  return nil
end

-- The trigger the bot means to take (-1: none): its link's, or that of the
-- next link when the route walks onto a trigger's floor to take it.
function follow:allowed_trigger()
  local l = self.link
  if l and (l.type == "teleport" or l.type == "jump_pad") then return l.entity end
  local links = self.route and self.route.links
  for i = 1, links and math.min(2, #links) or 0 do
    local k = links[i]
    if k.type == "teleport" or k.type == "jump_pad" then return k.entity end
    if k.type ~= "walk" then break end
  end
  return -1
end

function follow:head(x, y, priority, reason, allowed)
  local bx, by, bz = self.bot:pos()
  -- The trigger the route takes may be crossed (allowed: -1 for none).
  allowed = allowed or self:allowed_trigger()
  -- A shut door is looked for on the way to the target itself: the way
  -- round a trigger beside the door leads up to it by a corner.
  local door = self:door_scale(bx, by, bz, x, y)
  local cx, cy = triggers.detour(self.bot, bx, by, bz, x, y, allowed)
  if cx then x, y = cx, cy end
  local dx, dy = x - bx, y - by
  local d = sqrt(dx * dx + dy * dy)
  -- Full speed until the last few centimetres (jumps need their run-up);
  -- at a walk off a ledge where a run would land on a trigger below, or
  -- fly past the floor the drop means to land on.
  if d > 0.05 then dx, dy = dx / d, dy / d else dx, dy = 0, 0 end
  if d > 0.05 then
    local st = self.bot:state()
    if st.on_ground then
      if not self.bot:walkable(bx + dx * triggers.LEDGE_NEAR, by + dy * triggers.LEDGE_NEAR, bz) and
         (triggers.lands_on(self.bot, bx, by, bz, dx, dy, allowed, false) or self:overshoots(bx, by, bz, dx, dy)) then
        dx, dy = dx * follow.LEDGE_SLOW, dy * follow.LEDGE_SLOW
      end
    elseif not st.on_ladder and not st.climbing and not st.in_water and st.riding < 0 and
           triggers.lands_on(self.bot, bx, by, bz, dx, dy, allowed, true) then
      dx, dy = 0, 0 -- falling toward it: no speed added in the air
    end
  end
  if door then
    dx, dy = dx * door, dy * door
    -- Standing for a panel that rises: waiting, not stuck (an unlocked
    -- door opens for a bot near it; a locked one is off every route), up
    -- to DOOR_WAIT, after which the stuck logic may route round it.
    self.door_since = self.door_since or nav.time()
    if door < 0.25 and nav.time() - self.door_since < follow.DOOR_WAIT then self.bot:wait() end
  else
    self.door_since = nil
  end
  self.arb:request(dx, dy, priority or arbiter.PATH, reason or "path")
end

-- The furthest point of the route's leading walk links the bot can walk
-- to in a straight line; the first link's end when none is. Past the
-- first link the whole body must pass (bot:walkable's wide) and stay in
-- the route's areas: a line that cuts across ground the route goes round
-- (the corner of a terrace, say) may have the body jump up it or push
-- along its edge, or take it into an area from which the way on is far
-- longer than the router's.
function follow:straight_target()
  local links = self.route.links
  local bot = self.bot
  local best = nil
  -- The route's corridor: its areas up to the furthest link looked at.
  local corridor = { self.route.area }
  for i = 1, math.min(#links, follow.LOOK) do corridor[#corridor + 1] = links[i].to end
  for i = 1, math.min(#links, follow.LOOK) do
    local l = links[i]
    if l.type ~= "walk" then
      if not best then best = l.start end
      break
    end
    if bot:walkable(l.finish[1], l.finish[2], l.finish[3], nil, i > 1, i > 1 and corridor or nil) then best = l.finish
    elseif best then break
    else
      -- Not even the first link's end is straight ahead (a corner that a
      -- straight line would cut over water or a drop): by its start.
      local x, y = bot:pos()
      if hdist(x, y, l.start[1], l.start[2]) > 0.5 and bot:walkable(l.start[1], l.start[2], l.start[3]) then
        best = l.start
      else
        best = l.finish
      end
      break
    end
    if i == #links and self.goal and bot:walkable(self.goal[1], self.goal[2], self.goal[3], nil, true, corridor) then
      best = self.goal
    end
  end
  return best or links[1].finish
end

-- Crouch when a crouch link starts within a couple of metres on the route
-- (a tunnel ahead): standing up at its mouth would only bump the lintel.
function follow:crouch_ahead(x, y)
  if self.route.crouch then return true end
  local links = self.route.links
  for i = 1, math.min(#links, 3) do
    local l = links[i]
    if (l.type == "crouch" or l.crouch) and (i == 1 or hdist(x, y, l.start[1], l.start[2]) < 2.0) then return true end
  end
  return false
end

-- The id of a bot standing within a body or so of point p (a jump's
-- landing), or nil.
function follow:landing_taken(p)
  local me, r = self.bot:id(), self.bot:class().radius
  for _, o in ipairs(nav.bots()) do
    if o:id() ~= me then
      local x, y, z = o:pos()
      if hdist(x, y, p[1], p[2]) < 2 * r + 0.3 and math.abs(z - p[3]) < 1.5 then return o:id() end
    end
  end
  return nil
end

-- How each travel type's link is taken: TAKE[type](self, l, state, x, y,
-- z, dt), true when the link is done (follow:take calls it).
local TAKE = {}
follow.TAKE = TAKE

-- One tick of taking link l: the handler of its travel type (TAKE below;
-- walking is the default). Returns true when the link is done.
function follow:take(l, dt)
  local st = self.bot:state()
  local x, y, z = self.bot:pos()
  self.phase_time = self.phase_time + dt
  return (TAKE[l.type] or TAKE.walk)(self, l, st, x, y, z, dt)
end

-- Walk (or crouch, swim) toward the link's end. A swimmer whose link ends
-- on a bank above the water heaves out at the edge (the bank is within a
-- step of the surface, but not of its feet).
function TAKE.walk(self, l, st, x, y, z)
  local f = l.finish
  self:head(f[1], f[2], arbiter.PATH, l.type)
  if st.in_water and f[3] > z + self.bot:class().step and hdist(x, y, f[1], f[2]) < 1.2 then self.bot:jump() end
  return false
end

-- The unit direction of a jump, from the link's start to its end.
local function jump_direction(s, f)
  local jx, jy = f[1] - s[1], f[2] - s[2]
  local jl = sqrt(jx * jx + jy * jy) + 1e-6
  return jx / jl, jy / jl
end

-- Where to back off to for a run-up: the furthest point behind the start,
-- along the jump, that the whole body walks to (RUN_UP at most, down to
-- RUN_UP_MIN); nil when a wall or a drop leaves less room than that.
function follow:run_up_point(s, jx, jy)
  local d = follow.RUN_UP
  while d >= follow.RUN_UP_MIN do
    local bx, by = s[1] - jx * d, s[2] - jy * d
    if self.bot:walkable(bx, by, s[3], nil, true) then return bx, by end
    d = d - 0.5
  end
  return nil
end

-- Backing off for a run-up: done near the point behind the start, or
-- after 3 s whatever happened.
function follow:run_up(x, y)
  local bx, by = self.back[1], self.back[2]
  self:head(bx, by, arbiter.PATH, "run-up")
  if hdist(x, y, bx, by) < 0.3 or self.phase_time > 3 then self.phase, self.phase_time = nil, 0 end
  return false
end

-- At the edge without the speed a gap needs (it stood there, or was held
-- up there)?
function follow:too_slow(jx, jy)
  local vx, vy = self.bot:velocity()
  return vx * jx + vy * jy < 0.8 * self.bot:class().run_speed
end

-- To the start, coming from behind it along the jump; a barrier jump
-- takes off on the way when close.
function follow:line_up(l, st, to_start)
  local s = l.start
  if l.type == "barrier_jump" and st.on_ground then
    -- Come at the barrier square on, at a run: a bot that jumps while
    -- running along it flies along it, lands beside it and tries again.
    -- From the side, first a spot behind the start on the jump's line;
    -- then the jump comes on the way, once running along that line.
    local jx, jy = jump_direction(s, l.finish)
    local x, y = self.bot:pos()
    local bx, by = s[1] - x, s[2] - y
    local along, off = bx * jx + by * jy, abs(bx * jy - by * jx)
    if along < 0.2 or off > along then
      local ax, ay = s[1] - jx * follow.BARRIER_BACK, s[2] - jy * follow.BARRIER_BACK
      if hdist(x, y, ax, ay) > 0.3 and self.bot:walkable(ax, ay, s[3]) then
        self:head(ax, ay, arbiter.PATH, "lining up for the barrier")
        return false
      end
    end
    -- Aim through the start at the landing, so the run is along the jump.
    self:head(s[1] + jx, s[2] + jy, arbiter.PATH, "to " .. l.type)
    local vx, vy = self.bot:velocity()
    local v = sqrt(vx * vx + vy * vy)
    if to_start < 0.9 and v > 0.5 * self.bot:class().run_speed and vx * jx + vy * jy > 0.8 * v then
      self.bot:jump()
      self.phase, self.phase_time = "air", 0
    end
    return false
  end
  self:head(s[1], s[2], arbiter.PATH, "to " .. l.type)
  return false
end

-- Somebody standing where a jump across a gap would land: a jump into a
-- body stops dead in mid-air and drops into the gap. Wait for it to clear
-- (true while waiting); after LANDING_WAIT it routes round the jump for
-- a while (another landing, a swim, the long way): one standing there
-- may hold a goal, with no room nearby to step aside to. One jumping
-- down lands beside or slides off.
function follow:landing_blocked(f, dt)
  local other = self:landing_taken(f)
  if not other then
    self.landing_wait = 0
    return false
  end
  self.landing_wait = (self.landing_wait or 0) + dt
  self.arb:request(0, 0, arbiter.PATH, "landing taken")
  self:say(("waiting for the landing to clear (bot %d)"):format(other))
  if self.landing_wait < follow.LANDING_WAIT then
    self.bot:wait()
  else
    self.landing_wait = 0
    self:shun(self.link, ("landing taken by bot %d"):format(other))
  end
  return true
end

-- Jumps and barrier jumps: a gap needs a run-up, so at the edge too slow
-- the bot backs off and comes again; then the take-off, and the flight to
-- the end until it lands (after 3 s it landed somewhere else: re-plan).
function TAKE.jump(self, l, st, x, y, z, dt)
  local s, f = l.start, l.finish
  local jx, jy = jump_direction(s, f)
  if self.phase == "back" then return self:run_up(x, y) end
  local to_start = hdist(x, y, s[1], s[2])
  -- Already across, standing on the landing's side (thrown over by a
  -- jump to get unstuck, or pushed): taken. Heading back to the start
  -- from there would walk it into the gap.
  if self.phase == nil and st.on_ground and abs(z - f[3]) <= self.bot:class().step and
     hdist(x, y, f[1], f[2]) < to_start and (x - s[1]) * jx + (y - s[2]) * jy > 0 then
    return true
  end
  if self.phase == nil and l.type == "jump" and to_start < 1.5 and f[3] > s[3] - 0.5 and self:landing_blocked(f, dt) then
    return false
  end
  if self.phase == nil and l.type == "jump" and to_start <= 0.35 and st.on_ground and self:too_slow(jx, jy) then
    -- With no room behind the start (a gap beside a wall) it jumps from
    -- a stand: air control carries it over a narrow gap, and backing into
    -- the wall would only waste the time.
    local bx, by = self:run_up_point(s, jx, jy)
    if bx then
      self.phase, self.phase_time, self.back = "back", 0, { bx, by }
      return false
    end
  end
  if self.phase == nil then
    if to_start > 0.35 or not st.on_ground then return self:line_up(l, st, to_start) end
    self.bot:jump()
    self.phase, self.phase_time = "air", 0
  end
  self:head(f[1], f[2], arbiter.PATH, l.type)
  return (self.phase_time > 0.15 and st.on_ground) or self.phase_time > 3
end
TAKE.barrier_jump = TAKE.jump

-- Climbing to a ledge: close to the start, find the edge up there, then
-- climb to a little above its floor, so the feet clear the lip. Done on
-- the ledge; or held at the climb's end point, just above it, where the
-- body stays climbing (never standing) until let go; or after 5 s.
function TAKE.climb(self, l, st, x, y, z)
  local bot, s, f = self.bot, l.start, l.finish
  if self.phase == nil then
    if hdist(x, y, s[1], s[2]) > bot:class().radius + 0.5 then
      self:head(s[1], s[2], arbiter.PATH, "to climb")
      return false
    end
    self.edge = climb.edge(bot, f[1] - x, f[2] - y) or f
    self.phase, self.phase_time = "climb", 0
  end
  local e = self.edge
  bot:climb_to(e[1], e[2], e[3] + 0.05)
  self:head(e[1], e[2], arbiter.CLIMB, "climb")
  local held = st.climbing and z >= e[3] - 0.01 and hdist(x, y, e[1], e[2]) < 0.05
  if held or (st.on_ground and z >= e[3] - 0.1 and not st.climbing and self.phase_time > 0.1) or self.phase_time > 5 then
    bot:climb_to(nil)
    return true
  end
  return false
end

-- Ladders: to the foot (or the top), then up or down the middle of the
-- ladder's area (a hatch above is no wider) until standing off it at the
-- end's height; 10 s at most.
function TAKE.ladder(self, l, st, x, y, z)
  local bot, s, f = self.bot, l.start, l.finish
  local down = f[3] < z - 0.5
  bot:ladder_down(down)
  local ax, ay = bot:area_center(down and l.to or l.from)
  local done
  if st.on_ladder or self.phase == "ladder" then
    self.phase = "ladder"
    if z > math.max(s[3], f[3]) - 0.3 then self:head(f[1], f[2], arbiter.CLIMB, "ladder")
    else self:head(ax + (f[1] - s[1]), ay + (f[2] - s[2]), arbiter.CLIMB, "ladder") end
    done = (st.on_ground and not st.on_ladder and abs(z - f[3]) < 0.5) or self.phase_time > 10
  else
    self:head(f[1], f[2], arbiter.PATH, "to ladder")
    done = self.phase_time > 10
  end
  if done then bot:ladder_down(false) end
  return done
end

-- Out of the water onto a bank: jump near the start, done dry on the bank.
function TAKE.water_jump(self, l, st, x, y, z)
  local s, f = l.start, l.finish
  self:head(f[1], f[2], arbiter.PATH, "water jump")
  if st.in_water and hdist(x, y, s[1], s[2]) < 1.2 then self.bot:jump() end
  if st.on_ground and z > s[3] - 0.1 and not st.in_water then return true end
  return self.phase_time > 8
end

-- Into the teleporter: sent when the body jumped far in one tick.
function TAKE.teleport(self, l, st, x, y)
  if hdist(x, y, self.last_x or x, self.last_y or y) > 2 then return true end
  self:head(l.start[1], l.start[2], arbiter.PATH, "teleporter")
  return self.phase_time > 6
end

-- Onto the pad, then steer the flight to the end until landed.
-- Where to step onto a jump pad from: behind it, on the line from its
-- landing through its middle. A pad throws a body from where the body
-- touches it, so one walked in at the corner nearest the landing is thrown
-- from there, lower over what stands between (a roof's edge): come in from
-- the far side, as the pad's own throw was worked out. Nil when that spot
-- is not on the floor.
function follow:pad_lineup(l, x, y)
  local s, f = l.start, l.finish
  local dx, dy = f[1] - s[1], f[2] - s[2]
  local d = sqrt(dx * dx + dy * dy)
  if d < 0.1 then return nil end
  local e = nav.entity(l.entity)
  local half = 0.5 * math.max(e.maxs[1] - e.mins[1], e.maxs[2] - e.mins[2])
  local back = half + self.bot:class().radius + follow.PAD_BACK
  local ax, ay = s[1] - dx / d * back, s[2] - dy / d * back
  local c = self.bot:class()
  local a = nav.area_at({ ax, ay, s[3] }, c.name)
  if not a or a.liquid or a.zmin > s[3] + c.step or a.zmax < s[3] - c.step then return nil end
  return ax, ay
end

function TAKE.jump_pad(self, l, st, x, y, z)
  local s, f = l.start, l.finish
  if self.phase == nil or self.phase == "lineup" then
    if not st.on_ground or z > s[3] + 0.3 then
      self.phase, self.phase_time = "air", 0
    elseif self.phase == nil then
      if self.pad_for ~= l then self.pad_for, self.pad_x, self.pad_y = l, self:pad_lineup(l, x, y) end
      local ax, ay = self.pad_x, self.pad_y
      -- Already behind the pad, within 45 degrees of the throw's line: in
      -- line (bots coming together must not all wait for one spot).
      local dx, dy = f[1] - s[1], f[2] - s[2]
      local back, off = (s[1] - x) * dx + (s[2] - y) * dy, abs((s[1] - x) * dy - (s[2] - y) * dx)
      if ax and back > 0 and off <= back then ax = nil end
      if ax and hdist(x, y, ax, ay) > follow.PAD_NEAR then
        self:head(ax, ay, arbiter.PATH, "lining up for the jump pad", -1)
        return self.phase_time > 8
      end
      self.phase = "lineup" -- in line (or no room to line up): onto the pad
    end
    if self.phase == "lineup" then
      self:head(s[1], s[2], arbiter.PATH, "to jump pad")
      return self.phase_time > 8
    end
  end
  self:head(f[1], f[2], arbiter.PATH, "flying")
  return (st.on_ground and self.phase_time > 0.2) or self.phase_time > 6
end

function TAKE.elevator(self, l, st, x, y, z, dt)
  return self:ride(l, dt, st, x, y, z)
end

-- Down through a hatch: railings flank it, and the link's end may be at
-- its side. Line up with the middle of the ladder's area below, then go
-- over the edge along that line. False when there is nothing to line up
-- (already below the edge): a plain walk then.
function follow:through_hatch(l, x, y, z)
  local s, f = l.start, l.finish
  local ax, ay = self.bot:area_center(l.to)
  local dx, dy = f[1] - s[1], f[2] - s[2]
  local d = sqrt(dx * dx + dy * dy)
  if not (d > 1e-6 and z > f[3] + 0.5) then return false end
  dx, dy = dx / d, dy / d
  local across = (ax - s[1]) * -dy + (ay - s[2]) * dx
  local px, py = s[1] - dy * across, s[2] + dx * across
  local off = (x - px) * -dy + (y - py) * dx
  if abs(off) > 0.1 and hdist(x, y, px, py) > 0.15 then
    self:head(px - dx * 0.3, py - dy * 0.3, arbiter.PATH, "to hatch")
  else
    self:head(px + dx, py + dy, arbiter.PATH, l.type)
  end
  return true
end

function TAKE.walk_off_ledge(self, l, st, x, y, z)
  if self.turns:hatch(l) and self:through_hatch(l, x, y, z) then return false end
  self.drop_to = l.finish
  local done = TAKE.walk(self, l, st, x, y, z)
  self.drop_to = nil
  return done
end

-- Walking off a ledge (drop_to: the link's landing), would a run off the
-- edge just ahead (unit dx, dy) carry the body past the floor it means to
-- land on, down to a lower one (a narrow terrace, a balcony)? Then it
-- walks off. The floor is looked for where a run would come down.
function follow:overshoots(bx, by, bz, dx, dy)
  local f = self.drop_to
  if not f or bz - f[3] < 0.5 then return false end
  local c = self.bot:class()
  local fly = c.run_speed * sqrt(2 * (bz - f[3]) / triggers.GRAVITY) + triggers.LEDGE_NEAR
  local a = nav.area(bx + dx * fly, by + dy * fly, f[3] + 0.2, c.name)
  -- No area there: a wall stops the run above the landing, not past it.
  return a ~= nil and a.zmax < f[3] - c.step
end

-- The elevator (lua/ride.lua): wait out from under the platform until it
-- stands at this stop, board, ride, step off.
function follow:ride(l, dt, st, x, y, z) return ride.ride(self, l, dt, st, x, y, z) end

-- {======= no progress ======= }

follow.SHUN_AFTER = 2.0     -- seconds without progress before a link is shunned
follow.SHUN_FOR = 20        -- seconds a shunned link stays shunned
follow.SHUN_COST = 60       -- extra seconds a shunned link costs this bot

-- The links this bot routes round, as bot:route wants them (nil if none).
function follow:avoid_table()
  local now, t = nav.time(), nil
  for id, sh in pairs(self.shunned) do
    if sh.untilt <= now then self.shunned[id] = nil
    else
      t = t or {}
      t[id] = sh.cost
    end
  end
  return t
end

follow.SHUN_MAX = 16        -- links shunned at once (bot:route takes 32)

-- Route round link l for a while, and plan again: for `seconds`
-- (SHUN_FOR) it costs this bot `cost` (SHUN_COST) more. With SHUN_MAX
-- shunned already, the one due to expire first (the lowest id on a tie)
-- goes.
function follow:shun(l, why, cost, seconds)
  if l and l.id then
    local n, first, first_at = 0, nil, math.huge
    for id, sh in pairs(self.shunned) do
      n = n + 1
      if not first or sh.untilt < first_at or (sh.untilt == first_at and id < first) then
        first, first_at = id, sh.untilt
      end
    end
    if n >= follow.SHUN_MAX and not self.shunned[l.id] then self.shunned[first] = nil end
    self.shunned[l.id] = { untilt = nav.time() + (seconds or follow.SHUN_FOR), cost = cost or follow.SHUN_COST }
    self.why = why .. " at a " .. l.type .. " link"
  end
  self.link, self.phase, self.edge = nil, nil, nil
  self:replan()
end

-- What stops the bot, looking where it wants to go: "bot", "entity"
-- (a crate, a door), "wall", or nil when the way is clear.
function follow:blocker()
  local dx, dy = self.arb:winner()
  local len = sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return nil end
  local tr = self.bot:trace(dx / len * 0.8, dy / len * 0.8, 0)
  if not tr.hit or tr.start_solid then return nil end
  if tr.bot then return "bot", tr.bot end
  if not tr.static then return "entity" end
  return "wall"
end

function follow:unstick(dt)
  local bot = self.bot
  local st = bot:state()
  if self.link then
    -- Careful links have their own time limits; one that makes no
    -- progress at all for long is given up and routed round (once per
    -- SHUN_AFTER of the spell: the next link gets its chance).
    if st.stuck_time == 0 then self.shun_check = 0 end
    if st.stuck_time > follow.SHUN_AFTER * 2 and st.stuck_time >= self.shun_check then
      self.shun_check = st.stuck_time + follow.SHUN_AFTER
      self:shun(self.link, "no progress")
    end
    return
  end
  local action = self.stuck:update(bot, dt)
  if action == "jump" then bot:jump()
  elseif action == "replan" then self:replan()
  elseif action == "sidestep" then self.arb:request(self.stuck.sx, self.stuck.sy, arbiter.UNSTICK, "unstick") end
  if st.stuck_time == 0 then self.why = nil end
  if st.stuck_time < follow.SHUN_AFTER or not self.route then
    self.shun_check = 0
    return
  end
  -- Once per spell (and again every SHUN_AFTER seconds of it): why?
  if st.stuck_time < self.shun_check then return end
  self.shun_check = st.stuck_time + follow.SHUN_AFTER
  local what, who = self:blocker()
  if what == "bot" then
    -- Another bot in the way that avoidance has not taken us round (it
    -- does not give way: boxed in itself, say): steer round it with hull
    -- traces for a while.
    self.why = "blocked by bot " .. tostring(who)
    self.steer_bots_until = nav.time() + follow.SHUN_AFTER
    return
  end
  -- A wall, a crate, or circling with nothing ahead: the first link of
  -- the route is one this body does not manage here. Route round it.
  self:shun(self.route.links[1], what == "entity" and "blocked by an object" or "no progress")
end

-- {======= each tick ======= }

-- One tick toward the bot's goal (bot:goal(), or the one given with
-- set_goal). Returns the status: "moving", "idle" (no goal), "no route".
function follow:update(dt)
  local bot = self.bot
  local gx, gy, gz = bot:goal()
  local x, y, z = bot:pos()
  if self.ashore and (gx or (not bot:state().in_water and bot:state().on_ground)) then
    -- Ashore (or given something to do): back to the queue.
    self.ashore, self.fixed = nil, nil
    self:replan()
  end
  if self.fixed then gx, gy, gz = self.fixed[1], self.fixed[2], self.fixed[3] end
  if not gx then
    -- Nothing to do: out of the way of others, then stand still, with
    -- the engine's avoidance on (a bot that arrived by a careful link, a
    -- jump pad say, had it paused: standing idle it would then never
    -- make room for a body walking into it).
    self.status = "idle"
    if self.link or self.avoid_off then
      self.link, self.phase, self.edge = nil, nil, nil
      self:replan()
    end
    local ax, ay, what = bot:in_the_way()
    local tx, ty, bank = room.out_of_the_way(bot, self.policy, x, y, z, ax, ay)
    if bank then
      -- Swimming, with nowhere to step aside to in the water: out onto
      -- the bank by the route there (a water jump, most often).
      self.ashore = true
      self:set_goal(bank[1], bank[2], bank[3])
      self:say("out of the water, out of the way at " .. what)
      self.arb:apply()
      return self.status
    end
    if tx then
      self:head(tx, ty, arbiter.PATH, "make room")
      self:say("making room at " .. what)
    else
      self.arb:request(0, 0, arbiter.IDLE, "idle")
      self:say("idle")
    end
    self.arb:apply()
    bot:crouch(false)
    self.turns:release_all()
    self.last_x, self.last_y = x, y
    return self.status
  end
  if not same_goal(self.goal, gx, gy, gz) then
    self.goal = { gx, gy, gz }
    self:replan()
  end
  self.route_age = self.route_age + dt
  self.target_age = self.target_age + dt

  -- Stuck recovery: the engine judges progress along the route; without
  -- any for a while, first the quick remedies (jump, sidestep, re-plan),
  -- then find out why and route round what cannot be taken.
  self:unstick(dt)

  self.turns:step(self)

  -- Taking a careful link: stay on it until done. A gap or a climb not
  -- yet begun still waits its turn (a bot that came to it before another
  -- took it must not follow that one over).
  if self.link and self.phase == nil and (self.link.type == "jump" or self.link.type == "climb") and
     self.turns:gate(self, { self.link }) then
    return self:finish(x, y)
  end
  if self.link then
    if self:take(self.link, dt) then
      self.link, self.phase, self.edge = nil, nil, nil
      self:replan()
    else
      return self:finish(x, y)
    end
  end

  -- Plan when there is no route, the bot changed area, or now and then.
  local area = bot:area()
  if not self.route or self.route_age > follow.REPLAN or (area and area ~= self.area) then
    local route, why = self.route_fn(bot, gx, gy, gz, self.policy, self:avoid_table())
    local held = self.route or self.last_route
    if not route and not area and held and #held.links > 0 and held.links[1].type == "walk" then
      -- On no area: in a passage narrower than an area's cells (a 1 m
      -- lane the body fits), walked along the link that crosses it. Keep
      -- the route in hand (a re-plan forgets it) until the far end.
      route = held
    end
    self.last_route = route
    self.route, self.route_age, self.area = route, 0, area
    bot:show_route(route)
    self.target_age = huge
    self.replans = self.replans + 1
    if not route then
      self.status = "no route"
      self:say("no route: " .. tostring(why))
      self.arb:request(0, 0, arbiter.IDLE, "no route")
      return self:finish(x, y)
    end
  end
  local links = self.route.links
  if #links == 0 then
    -- In the goal's area: straight there.
    bot:crouch(false)
    -- Slowing down over the last metre: arriving at a run overshoots
    -- (and a spot by a wall is left again, pushed off by avoidance).
    local dx, dy = gx - x, gy - y
    if dx * dx + dy * dy < follow.ARRIVE * follow.ARRIVE then
      self.arb:request(dx / follow.ARRIVE, dy / follow.ARRIVE, arbiter.PATH, "goal")
    else
      self:head(gx, gy, arbiter.PATH, "goal")
    end
    self:say("to goal")
    return self:finish(x, y)
  end
  -- A chokepoint ahead someone else has: wait clear of it.
  if self.turns:gate(self, links) then return self:finish(x, y) end
  local l = links[1]
  if CAREFUL[l.type] then
    self.link, self.phase, self.phase_time = l, nil, 0
    self:avoidance_pause()
    self:say(l.type)
    self:take(l, dt)
    return self:finish(x, y)
  end
  if l.type == "walk" then
    if self.target_age > follow.TARGET_EVERY then
      self.target = self:straight_target()
      self.target_age = 0
    end
    bot:crouch(self:crouch_ahead(x, y))
    self:head(self.target[1], self.target[2], arbiter.PATH, "path")
    self:say("walk")
  else
    bot:crouch(self:crouch_ahead(x, y))
    self:take(l, dt)
    self:say(l.type)
  end
  return self:finish(x, y)
end

-- Avoidance over the winning path request, then the move.
function follow:finish(x, y)
  local bot = self.bot
  -- Stuck: the state text says why, as far as the bot could tell.
  if self.use_say and self.why and bot:state().stuck_time > 0 then self:say(self.why) end
  if self.use_avoid and not self.link then
    local dx, dy, pr = self.arb:winner()
    if pr >= arbiter.PATH and pr < arbiter.AVOID then
      local sx, sy = avoid.steer(bot, dx, dy, nil, (self.steer_bots_until or 0) > nav.time())
      if sx then self.arb:request(sx, sy, arbiter.AVOID, "avoid") end
    end
  end
  local dx, dy, pr, why = self.arb:winner()
  if pr >= arbiter.PATH and pr < arbiter.CLIMB then
    local gx, gy = triggers.guard(self.bot, dx, dy, self:allowed_trigger())
    if gx ~= dx or gy ~= dy then self.arb:request(gx, gy, pr, why) end
  end
  self.arb:apply()
  self.last_x, self.last_y = x, y
  if self.status ~= "no route" or self.route then self.status = "moving" end
  return self.status
end

-- Head for a point instead of the bot's goal queue (nil: back to the queue).
function follow:set_goal(x, y, z)
  self.fixed = x and { x, y, z } or nil
end

-- A blocking move for coroutine brains (behave): go to `where` and return
-- how it ended, yielding a tick at a time meanwhile:
--   "arrived"      the bot reached it (its goal queue's rules: within
--                  `radius`, or standing against bots that hold the spot)
--   "unreachable"  no route under the policy: at once, or for `patience`
--                  seconds on end while moving (a door locked meanwhile)
--   "stuck"        stuck (bot:state().stuck_time) for `stuck` seconds
-- It takes over the bot's goal queue (cleared at the start, empty at the
-- end) and leaves the bot standing. where: a point {x, y, z}, an entity
-- name or index, or x, y, z numbers (then opts comes fifth). opts: policy
-- (default "default"), radius (metres, default 0), stuck (seconds, default
-- 5), patience (seconds, default 1), avoid, say (as follow.new).
--
--   function brain.behave(bot, dt)
--     local how = follow.move_to(bot, "goal_pool")
--     if how ~= "arrived" then bot:say(how) end
--   end
function follow.move_to(bot, a, b, c, d)
  local x, y, z, opts
  if type(a) == "table" then
    x, y, z, opts = a[1] or a.x, a[2] or a.y, a[3] or a.z or 0, b
  elseif type(a) == "string" or math.type(a) == "integer" and b == nil then
    local e = nav.entity(a)
    x, y, z, opts = e.pos[1], e.pos[2], e.pos[3], b
  else
    x, y, z, opts = a, b, c, d
  end
  if type(x) ~= "number" or type(y) ~= "number" or type(z) ~= "number" then
    error("follow.move_to: where must be a point {x, y, z}, an entity, or x, y, z", 2)
  end
  opts = opts or {}
  if type(opts) ~= "table" then error("follow.move_to: opts must be a table", 2) end
  local known = { policy = true, radius = true, stuck = true, patience = true, avoid = true, say = true }
  for k in pairs(opts) do
    if not known[k] then
      error("follow.move_to: unknown option '" .. tostring(k) .. "' (accepted: policy, radius, stuck, patience, avoid, say)", 2)
    end
  end
  local stuck_limit, patience = opts.stuck or 5, opts.patience or 1
  local f = follow.new(bot, { policy = opts.policy, avoid = opts.avoid, say = opts.say })
  local function stop(how)
    bot:clear_goals()
    f:update(0)        -- no goal: it stands still and lets go of its claims
    return how
  end
  bot:clear_goals()
  local bx, by, bz = bot:pos()
  local flags = policy.flags(f.policy)
  if not nav.route({ bx, by, bz }, { x, y, z }, { flags = flags, class = bot:class().name }) then
    return stop("unreachable")
  end
  bot:add_goal(x, y, z, opts.radius or 0)
  local _, reached0 = bot:goals()
  local dt, no_route = nav.dt(), 0
  while true do
    local status = f:update(dt)
    local _, reached = bot:goals()
    if reached > reached0 then return stop("arrived") end
    if status == "no route" then
      no_route = no_route + dt
      if no_route >= patience then return stop("unreachable") end
    else
      no_route = 0
    end
    if bot:state().stuck_time >= stuck_limit then return stop("stuck") end
    dt = coroutine.yield()
  end
end

return follow

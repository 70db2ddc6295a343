-- turns.lua: chokepoints taken in turn, for path following. Where only so
-- many bodies fit at once, bots claim the place (bot:claim) and the ones
-- not granted wait clear of it:
--   ladder    a ladder link, up or down, and a drop through its hatch
--             (a walk off a ledge landing at the ladder): one at a time;
--             waiters stand a body or two back from its foot or top and
--             to the side, out of the way of the one coming off it
--   climb     a climb link: one at a time
--   gap       a jump over a gap: one side at a time (two bots jumping
--             at each other meet in mid-air and fall), GAP_ABREAST at once
--   lift      an elevator link: as many as its platform holds (follow's
--             ride asks, through turns:lift)
--   doorway / corridor   walk or crouch links through an opening narrower
--             than two bodies side by side (the link's crossed edge is
--             narrower than a body, and the walls measured across the way
--             through are less than two bodies apart): one way at a time,
--             keyed by the narrow areas so both ends agree
-- A bot asks when the chokepoint is the link it is about to take or lies
-- within APPROACH metres ahead on its route; it holds its claim while the
-- chokepoint is on its route or it is still within CLEAR of its ends, and
-- lets go after.
--
--   local turns = require "turns"
--   local t = turns.new(bot)
--   each tick: t:step(f)                       -- renew or let go
--   after planning: if t:gate(f, route.links) then (waiting: it asked to stand) end
local arbiter = require "arbiter"

local turns = {}
turns.__index = turns

turns.APPROACH = 3.0  -- metres from a chokepoint's entry at which a bot asks for it
turns.CLEAR = 1.2     -- metres from its ends a holder keeps its claim
turns.BACK = 1.3      -- a waiter stands this far back from the entry...
turns.ASIDE = 1.0     -- ...and this far to the side
turns.LOOK = 6        -- route links looked ahead
turns.GAP_ABREAST = 1 -- bots jumping a gap at once (one side at a time)

local sqrt, abs, floor, max = math.sqrt, math.abs, math.floor, math.max

local function hdist(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  return sqrt(dx * dx + dy * dy)
end

-- The unit horizontal direction from a to b, or nil when they are one above the other.
local function dir(a, b)
  local dx, dy = b[1] - a[1], b[2] - a[2]
  local d = sqrt(dx * dx + dy * dy)
  if d < 1e-6 then return nil end
  return { dx / d, dy / d }
end

function turns.new(bot)
  local c = bot:class()
  return setmetatable({
    bot = bot, cls = c.name, r = c.radius, h = c.height,
    held = {},        -- claims held, in the order granted: { key, links, entry, exit, ... }
    waiting = nil,    -- the key it waited for last tick
    cache = {},       -- per link id: what it is a part of
    spot = nil,       -- where it waits: { key, place, x, y, age }
  }, turns)
end

-- {======= which chokepoint a link is part of =======

-- The ladder area at or next to point p (a ladder's foot, a hatch's floor), or nil.
function turns:ladder_area(p)
  local a = nav.area(p[1], p[2], p[3], self.cls)
  if a and a.ladder then return a.id end
  for _, o in ipairs({ { 0.5, 0 }, { -0.5, 0 }, { 0, 0.5 }, { 0, -0.5 }, { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
    a = nav.area(p[1] + o[1], p[2] + o[2], p[3], self.cls)
    if a and a.ladder then return a.id end
  end
  return nil
end

-- Where the walls stand across the way at p (a body's centre, going along
-- unit u): the free width, measured with sight lines at mid-body height
-- up to `reach` each side.
local function across(p, u, z, reach)
  local n = { -u[2], u[1] }
  local width = 0
  for s = -1, 1, 2 do
    local from = { p[1], p[2], z }
    local lo, hi = 0, reach
    if nav.sight(from, { p[1] + n[1] * s * hi, p[2] + n[2] * s * hi, z }) then
      lo = hi
    else
      for _ = 1, 6 do
        local m = (lo + hi) / 2
        if nav.sight(from, { p[1] + n[1] * s * m, p[2] + n[2] * s * m, z }) then lo = m else hi = m end
      end
    end
    width = width + lo
  end
  return width
end

-- Does walk-off-ledge link l drop through a ladder's hatch?
function turns:hatch(l)
  if l.type ~= "walk_off_ledge" then return false end
  local c = self.cache[l.id]
  if c == nil then
    local area = self:ladder_area(l.finish)
    c = area and { key = "ladder/" .. self.cls .. "/" .. area } or false
    self.cache[l.id] = c
  end
  return c ~= false
end

-- Is the way along links[i..j] (walk or crouch links) narrower than two
-- bodies side by side anywhere? Samples every quarter metre.
function turns:narrow_way(links, i, j)
  local two = 4 * self.r
  local pts = {}
  for k = i, j do
    pts[#pts + 1] = links[k].start
    pts[#pts + 1] = links[k].finish
  end
  for k = 1, #pts - 1 do
    local a, b = pts[k], pts[k + 1]
    local u = dir(a, b)
    if u then
      local len = hdist(a[1], a[2], b[1], b[2])
      local crouch = links[i + floor((k - 1) / 2)].type == "crouch"
      local z = math.min(a[3], b[3]) + (crouch and 0.6 or 0.9)
      local n = max(1, floor(len / 0.25))
      for s = 0, n do
        local t = s / n
        local p = { a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t }
        if across(p, u, z, two) < two then return true end
      end
    end
  end
  return false
end

-- Could link l be part of a one-body way (the opening it crosses, wall to
-- wall, narrower than two bodies)?
function turns:narrow_link(l)
  if l.type ~= "walk" and l.type ~= "crouch" then return false end
  local w = l.width or 0
  return w > 0 and w < 4 * self.r + 0.05
end

-- The chokepoint links[i] is part of: { key, name, capacity, side, entry,
-- exit, dir, links = {[id] = true}, last = index of its last link }, or nil.
function turns:choke(links, i)
  local l = links[i]
  local t = l.type
  local ch
  if t == "ladder" or t == "walk_off_ledge" then
    if t == "walk_off_ledge" then self:hatch(l) end
    local c = self.cache[l.id]
    if c == nil then
      local area = self:ladder_area(l.start) or self:ladder_area(l.finish)
      c = area and { key = "ladder/" .. self.cls .. "/" .. area } or false
      self.cache[l.id] = c
    end
    if c then ch = { key = c.key, name = "ladder", capacity = 1, side = 0 } end
  elseif t == "climb" then
    local a, b = math.min(l.from, l.to), math.max(l.from, l.to)
    ch = { key = "climb/" .. self.cls .. "/" .. a .. "-" .. b, name = "climb", capacity = 1, side = 0 }
  elseif t == "jump" and l.finish[3] > l.start[3] - 0.5 then
    -- A gap: bots jumping from both sides at once meet in mid-air and
    -- fall; one side at a time, a few abreast.
    local a, b = math.min(l.from, l.to), math.max(l.from, l.to)
    -- Waiters stand well back: the far side's entry is this side's landing.
    ch = { key = "gap/" .. self.cls .. "/" .. a .. "-" .. b, name = "gap", capacity = turns.GAP_ABREAST, side = l.from,
           back = 2 * turns.BACK }
  elseif self:narrow_link(l) then
    local j = i
    while j < #links and j < i + turns.LOOK and self:narrow_link(links[j + 1]) do j = j + 1 end
    local id = "way/" .. l.id .. "-" .. links[j].id
    local c = self.cache[id]
    if c == nil then
      c = false
      if self:narrow_way(links, i, j) then
        -- Keyed by the narrow areas inside (the lowest id, the same from
        -- either end), or for one link by its two areas.
        local key
        if j > i then
          local lowest = links[i].to
          for k = i + 1, j - 1 do lowest = math.min(lowest, links[k].to) end
          key = "way/" .. self.cls .. "/" .. lowest
        else
          key = "way/" .. self.cls .. "/" .. math.min(l.from, l.to) .. "-" .. math.max(l.from, l.to)
        end
        local len = 0
        for k = i, j do len = len + hdist(links[k].start[1], links[k].start[2], links[k].finish[1], links[k].finish[2]) end
        local s, f = links[i].start, links[j].finish
        len = max(len, hdist(s[1], s[2], f[1], f[2]))
        c = { key = key, name = (j - i <= 1 and len < 3) and "doorway" or "corridor",
              capacity = max(2, floor(len / (2 * self.r + 0.4)) + 1) }
      end
      self.cache[id] = c
    end
    if c then
      -- The side: the area it comes from, so the two ends never hold it at once.
      ch = { key = c.key, name = c.name, capacity = c.capacity, side = l.from, last = j }
    end
  end
  if not ch then return nil end
  ch.last = ch.last or i
  local s, f = links[i].start, links[ch.last].finish
  ch.entry, ch.exit = s, f
  ch.dir = dir(s, f) or dir(s, links[i].finish) or { 1, 0 }
  ch.links = {}
  for k = i, ch.last do ch.links[links[k].id] = true end
  return ch
end

-- }======= 

-- {======= holding =======

local function held_index(self, key)
  for k, rec in ipairs(self.held) do
    if rec.key == key then return k end
  end
  return nil
end

local function holds_link(self, id)
  for _, rec in ipairs(self.held) do
    if rec.links[id] then return rec end
  end
  return nil
end

function turns:ask(ch)
  return self.bot:claim(ch.key, { capacity = ch.capacity, side = ch.side })
end

-- Keep ch as held (granted just now).
function turns:hold(ch)
  local k = held_index(self, ch.key)
  if k then
    local rec = self.held[k]
    for id in pairs(ch.links) do rec.links[id] = true end
    return rec
  end
  self.held[#self.held + 1] = ch
  return ch
end

function turns:release_all()
  for _, rec in ipairs(self.held) do self.bot:release(rec.key) end
  self.held = {}
  if self.waiting then self.bot:release(self.waiting) end
  self.waiting = nil
end

-- Is the bot still at the chokepoint: on its link, with it ahead on the
-- route, or near one of its ends?
local function still_there(self, rec, f, x, y, z)
  if f.link and f.link.id and rec.links[f.link.id] then return true end
  local links = f.route and f.route.links
  if links then
    for i = 1, math.min(#links, turns.LOOK) do
      if rec.links[links[i].id] then return true end
    end
  end
  local e, o = rec.entry, rec.exit
  if hdist(x, y, o[1], o[2]) < turns.CLEAR and abs(z - o[3]) < 5 then return true end
  return hdist(x, y, e[1], e[2]) < turns.CLEAR and abs(z - e[3]) < 1
end

-- Each tick, before anything moves: renew what is still in use, let go of
-- what is behind.
function turns:step(f)
  local x, y, z = self.bot:pos()
  for k = #self.held, 1, -1 do
    local rec = self.held[k]
    if still_there(self, rec, f, x, y, z) then
      self:ask(rec)
    else
      self.bot:release(rec.key)
      table.remove(self.held, k)
    end
  end
end

-- }=======

-- {======= waiting =======

local ORDINAL = { "next", "2nd", "3rd" }

local function waiting_text(ch, holder, place)
  local where = (ch.name == "doorway" or ch.name == "corridor") and "in it" or "on it"
  if holder then return ("waiting for the %s (bot %d %s)"):format(ch.name, holder, where) end
  return ("waiting for the %s (%s in line)"):format(ch.name, ORDINAL[place] or (place .. "th"))
end

-- Where to wait for ch at place `place`: back from its entry and to the
-- side, further back the further down the queue.
function turns:wait_spot(ch, place, x, y)
  local sp = self.spot
  if sp and sp.key == ch.key and sp.place == place and sp.age < 1.0 then return sp.x, sp.y end
  local e, d = ch.entry, ch.dir
  local n = { -d[2], d[1] }
  local back = (ch.back or turns.BACK) + 0.9 * (math.min(place, 4) - 1)
  local bx, by = e[1] - d[1] * back, e[2] - d[2] * back
  -- The side the bot is on first.
  local s = ((x - e[1]) * n[1] + (y - e[2]) * n[2]) >= 0 and 1 or -1
  local aside = ch.aside or turns.ASIDE
  local tries = {
    { bx + n[1] * aside * s, by + n[2] * aside * s },
    { bx - n[1] * aside * s, by - n[2] * aside * s },
    { bx, by },
    { e[1] - d[1] * (back + 1), e[2] - d[2] * (back + 1) },
  }
  local wx, wy = nil, nil
  local eye = e[3] + 0.9
  for _, p in ipairs(tries) do
    -- Floor to stand on, in sight of the entry (not in the next room).
    if self.bot:walkable(p[1], p[2], e[3]) and nav.sight({ e[1], e[2], eye }, { p[1], p[2], eye }) then
      wx, wy = p[1], p[2]
      break
    end
  end
  -- Nowhere to stand aside that it can walk to: stay where it is, or back
  -- off from the entry.
  if not wx then
    if hdist(x, y, e[1], e[2]) > turns.CLEAR then wx, wy = x, y else wx, wy = bx, by end
  end
  self.spot = { key = ch.key, place = place, x = wx, y = wy, age = 0 }
  return wx, wy
end

-- Wait for ch: stand at the waiting spot and say what for.
function turns:wait(f, ch, holder, place)
  local x, y = self.bot:pos()
  local wx, wy = self:wait_spot(ch, place, x, y)
  self.spot.age = self.spot.age + nav.dt()
  f:say(waiting_text(ch, holder, place))
  if hdist(x, y, wx, wy) > 0.3 then
    f:head(wx, wy, arbiter.PATH, "wait turn")
  else
    f.arb:request(0, 0, arbiter.PATH, "wait turn")
  end
  self.bot:ladder_down(false)
  self.bot:crouch(false)
end

-- Before moving along the route: ask for the chokepoints coming up. True
-- when the bot must wait (it has asked to stand or to go to where it
-- waits); false to go on.
function turns:gate(f, links)
  local x, y, z = self.bot:pos()
  local i, waited = 1, nil
  local result = false
  while i <= math.min(#links, turns.LOOK) do
    local l = links[i]
    if holds_link(self, l.id) or l.type == "elevator" then
      i = i + 1
    else
      local ch = self:choke(links, i)
      if not ch then
        i = i + 1
      else
        local e = ch.entry
        local near = hdist(x, y, e[1], e[2]) < turns.APPROACH and abs(z - e[3]) < 2.5
        if not near and not (i == 1 and (l.type == "ladder" or l.type == "climb")) then break end
        local ok, holder, place = self:ask(ch)
        if ok then
          self:hold(ch)
          i = ch.last + 1
        else
          -- Holding a way further on (granted as it came near) while it
          -- waits here locks two bots that each hold what the other waits
          -- for: let go of every claim it has not started on (not the
          -- lift's: its place in the platform's queue is kept).
          for k = #self.held, 1, -1 do
            local rec = self.held[k]
            local on = f.link and f.link.id and rec.links[f.link.id]
            if not on and rec.name ~= "lift" then
              self.bot:release(rec.key)
              table.remove(self.held, k)
            end
          end
          waited = ch.key
          self:wait(f, ch, holder, place)
          result = true
          break
        end
      end
    end
  end
  -- No longer waiting for what it waited for (and not holding it now): out of its queue.
  if self.waiting and self.waiting ~= waited and not held_index(self, self.waiting) then
    self.bot:release(self.waiting)
  end
  self.waiting = waited
  return result
end

-- }=======

-- {======= the lift =======

-- How many bodies of this class stand on the platform side by side.
function turns:platform(e)
  local w, d = e.maxs[1] - e.mins[1], e.maxs[2] - e.mins[2]
  local body = 2 * self.r + 0.2
  local cols, rows = max(1, floor(w / body + 1e-6)), max(1, floor(d / body + 1e-6))
  return cols, rows
end

-- Ask for the lift of elevator link l (entity e): granted, holder, place,
-- holders (bot:claim's answers). A holder keeps it till off and clear.
function turns:lift(l, e)
  local cols, rows = self:platform(e)
  local ch = { key = "lift/" .. l.entity, name = "lift", capacity = cols * rows, side = 0,
               entry = l.start, exit = l.finish, dir = { 1, 0 }, links = { [l.id] = true } }
  local ok, holder, place, holders = self:ask(ch)
  if ok then self:hold(ch) end
  return ok, holder, place, holders, ch
end

-- Where a rider of rank `place` stands on the platform when it shares it.
function turns:lift_slot(e, place)
  local cols, rows = self:platform(e)
  local k = (place - 1) % (cols * rows)
  local i, j = k % cols, floor(k / cols)
  local lo, hi = e.mins, e.maxs
  return lo[1] + (hi[1] - lo[1]) * (i + 0.5) / cols, lo[2] + (hi[2] - lo[2]) * (j + 0.5) / rows
end


-- }=======

return turns

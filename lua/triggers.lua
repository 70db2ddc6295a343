-- triggers.lua: keeping bodies off the teleporters and jump pads their
-- route does not take. The area graph lets a route walk across the floor
-- a trigger stands on; a body that touches one is sent away whatever the
-- route meant. So a walk goes round a trigger on its way (detour), a move
-- that would touch one is cut short (guard), and a run off a ledge that
-- would land on one below is slowed to a walk (lands_on).
--
--   local triggers = require "triggers"
--   local cx, cy = triggers.detour(bot, bx, by, bz, x, y, allowed)  -- a corner, or nil
--   dx, dy = triggers.guard(bot, dx, dy, allowed)
-- `allowed` is the entity index of the trigger the route takes (-1: none).
local triggers = {}

triggers.LOOK = 0.6        -- metres ahead a move is kept off triggers the route does not take
triggers.LEDGE_NEAR = 1.0  -- metres before an edge where a run off it is checked
triggers.GRAVITY = 20      -- m/s^2, as the engine's bodies fall

local sqrt, abs = math.sqrt, math.abs

local function hdist(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  return sqrt(dx * dx + dy * dy)
end

-- The teleporters and jump pads of the map, found once.
local boxes = nil
local function trigger_boxes()
  if boxes then return boxes end
  boxes = {}
  for _, kind in ipairs({ "teleporter", "jump_pad" }) do
    for _, name in ipairs(nav.entities(kind)) do
      local e = nav.entity(name)
      boxes[#boxes + 1] = { index = e.index, lo = e.mins, hi = e.maxs }
    end
  end
  return boxes
end

-- One axis of the slab test: the part [t0, t1] of the segment's parameter
-- left within lo < p + t d < hi (empty when t0 >= t1).
local function slab(p, d, lo, hi, t0, t1)
  if abs(d) < 1e-9 then
    if p <= lo or p >= hi then return 1, 0 end
    return t0, t1
  end
  local u, v = (lo - p) / d, (hi - p) / d
  if u > v then u, v = v, u end
  if u > t0 then t0 = u end
  if v < t1 then t1 = v end
  return t0, t1
end

-- Does the segment (ax, ay)-(bx, by) cross the rectangle (x0, y0)-(x1, y1)
-- (slab test)? Allocates nothing.
local function crosses(ax, ay, bx, by, x0, y0, x1, y1)
  local t0, t1 = slab(ax, bx - ax, x0, x1, 0, 1)
  if t0 >= t1 then return false end
  t0, t1 = slab(ay, by - ay, y0, y1, t0, t1)
  return t0 < t1
end
triggers.crosses = crosses

-- A corner to go round a trigger on the way from the bot to (x, y), or
-- nil when the way is clear. `allowed` is the entity the link uses.
function triggers.detour(bot, bx, by, bz, x, y, allowed)
  local r = bot:class().radius + 0.15
  local moved = false
  for _, t in ipairs(trigger_boxes()) do
    if t.index ~= allowed and bz > t.lo[3] - 1.0 and bz < t.hi[3] + 0.5 then
      local g = r
      -- A point to reach within the margin (a goal beside the trigger):
      -- a body may come as close as not touching it.
      if x > t.lo[1] - g and x < t.hi[1] + g and y > t.lo[2] - g and y < t.hi[2] + g then g = r - 0.13 end
      local x0, y0, x1, y1 = t.lo[1] - g, t.lo[2] - g, t.hi[1] + g, t.hi[2] + g
      local target_in = x > x0 and x < x1 and y > y0 and y < y1
      if target_in then
        -- A body standing at the target would touch the trigger (a link's
        -- start or a goal hard by it): aim just clear of it, by the
        -- nearest side that is floor, and go round the trigger to there.
        local m = 0.05
        local sides = { { x - x0, x0 - m, y }, { x1 - x, x1 + m, y }, { y - y0, x, y0 - m }, { y1 - y, x, y1 + m } }
        table.sort(sides, function(a, b) return a[1] < b[1] end)
        for _, sd in ipairs(sides) do
          if bot:walkable(sd[2], sd[3], bz) then
            x, y, moved, target_in = sd[2], sd[3], true, false
            break
          end
        end
      end
      if not target_in and bx > x0 and bx < x1 and by > y0 and by < y1 then
        -- Within the margin already (pushed in, or cutting a corner after
        -- one): out by the nearest side that is floor, before anything
        -- else; a line from in here may graze the trigger.
        local m = 0.05
        local sides = { { bx - x0, x0 - m, by }, { x1 - bx, x1 + m, by }, { by - y0, bx, y0 - m }, { y1 - by, bx, y1 + m } }
        table.sort(sides, function(a, b) return a[1] < b[1] end)
        for _, sd in ipairs(sides) do
          if bot:walkable(sd[2], sd[3], bz) then return sd[2], sd[3] end
        end
      end
      if not target_in and crosses(bx, by, x, y, x0, y0, x1, y1) then
        -- The shortest way round: by one corner, or by two along a side
        -- (from the far side of it); corners in walls left out.
        local m = 0.05
        local cs = { { x0 - m, y0 - m }, { x1 + m, y0 - m }, { x1 + m, y1 + m }, { x0 - m, y1 + m } }
        local free = {}
        for k, c in ipairs(cs) do free[k] = bot:walkable(c[1], c[2], bz) end
        local best, bd = nil, math.huge
        for k, c in ipairs(cs) do
          if free[k] and not crosses(bx, by, c[1], c[2], x0, y0, x1, y1) then
            local d = hdist(bx, by, c[1], c[2])
            if not crosses(c[1], c[2], x, y, x0, y0, x1, y1) then
              d = d + hdist(c[1], c[2], x, y)
            else
              local via = math.huge
              for _, j in ipairs({ k % 4 + 1, (k + 2) % 4 + 1 }) do
                local n = cs[j]
                if free[j] and not crosses(n[1], n[2], x, y, x0, y0, x1, y1) then
                  via = math.min(via, hdist(c[1], c[2], n[1], n[2]) + hdist(n[1], n[2], x, y))
                end
              end
              d = d + via
            end
            if d < bd then best, bd = c, d end
          end
        end
        if best then return best[1], best[2] end
      end
    end
  end
  if moved then return x, y end
  return nil
end

-- Would a run off the ledge just ahead (unit direction dx, dy) land the
-- body on a trigger a few metres below (one it is not meant to take)? At
-- a run a body flies metres on and lands where nobody aimed: on a jump
-- pad that throws it back up, say.
-- In the air (fly = nil), is a trigger below within the reach of its
-- fall?
function triggers.lands_on(bot, bx, by, bz, dx, dy, allowed, in_air)
  local c = bot:class()
  local r = c.radius + 0.15
  for _, t in ipairs(trigger_boxes()) do
    local h = bz - t.hi[3]
    if t.index ~= allowed and h >= 0.5 and h < 6.0 then
      local fly = c.run_speed * sqrt(2 * h / triggers.GRAVITY)
      if in_air then
        local px, py = math.max(t.lo[1], math.min(t.hi[1], bx)), math.max(t.lo[2], math.min(t.hi[2], by))
        if hdist(bx, by, px, py) < fly + r then return true end
      else
        local lx, ly = bx + dx * (fly + triggers.LEDGE_NEAR), by + dy * (fly + triggers.LEDGE_NEAR)
        if lx > t.lo[1] - r and lx < t.hi[1] + r and ly > t.lo[2] - r and ly < t.hi[2] + r then return true end
      end
    end
  end
  return false
end

-- The winning move (dx, dy) without the part that would take the body onto
-- a trigger it does not mean to take within TRIGGER_LOOK metres: whatever
-- asked for the move (avoidance, a sidestep, a slide off a door's panel),
-- a teleporter or a jump pad is never touched by chance. A body on one's
-- edge already is left to triggers.detour.
function triggers.guard(bot, dx, dy, allowed)
  local bx, by, bz = bot:pos()
  local d = sqrt(dx * dx + dy * dy)
  if d < 1e-6 then return dx, dy end
  local g = bot:class().radius + 0.05
  local look = triggers.LOOK / d
  for _, t in ipairs(trigger_boxes()) do
    if t.index ~= allowed and bz > t.lo[3] - 1.0 and bz < t.hi[3] + 0.5 then
      local x0, y0, x1, y1 = t.lo[1] - g, t.lo[2] - g, t.hi[1] + g, t.hi[2] + g
      local inside = bx > x0 and bx < x1 and by > y0 and by < y1
      if not inside and crosses(bx, by, bx + dx * look, by + dy * look, x0, y0, x1, y1) then
        if (bx <= x0 and dx > 0) or (bx >= x1 and dx < 0) then dx = 0 end
        if (by <= y0 and dy > 0) or (by >= y1 and dy < 0) then dy = 0 end
      end
    end
  end
  return dx, dy
end

return triggers

-- climb.lua: the climbing-edge search of Left 4 Dead's bots, with hull
-- traces of the bot's own box, and its way back down.
--
-- Up (climb.edge): something static blocks the way ahead within reach.
--   1. trace up for the headroom over the bot (capped at its climb height);
--   2. trace forward at rising heights, from the floor up to that headroom,
--      until one gets clearly past the blocking face: the gap;
--   3. from there, a little past the face, trace down: the ledge's height;
--   4. step back toward the bot, tracing down, while the floor stays at
--      that height: the last such point is the edge to grab.
-- Down (climb.drop_edge): the floor ahead ends in a drop; find the last
-- standing point before it and the floor below, so the bot can walk off or
-- climb down.
--
--   local climb = require "climb"
--   local edge = climb.edge(bot, dx, dy)         -- {x, y, z} or nil, why
--   if edge then bot:climb_to(edge[1], edge[2], edge[3]) end
local climb = {}

climb.REACH = 1.0        -- how close the face must be
climb.HULL_STEP = 0.1    -- height step of the forward traces
climb.BACK_STEP = 0.05   -- precision of the edge search
climb.SAFETY = 0.1       -- a floor this much lower is past the edge

local function box(bot)
  local c = bot:class()
  local st = bot:state()
  local h = st.crouched and math.min(c.height, 1.2) or c.height
  return { -c.radius, -c.radius, 0 }, { c.radius, c.radius, h }, c
end

-- The edge to climb to going (dx, dy), or nil and why.
function climb.edge(bot, dx, dy)
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return nil, "no direction" end
  dx, dy = dx / len, dy / len
  local mins, maxs, c = box(bot)
  if c.climb <= 0 then return nil, "this class cannot climb" end
  local x, y, z = bot:pos()
  local id = bot:id()
  local ahead = nav.trace(mins, maxs, { x, y, z }, { dx * climb.REACH, dy * climb.REACH, 0 }, id)
  if not ahead.hit then return nil, "nothing ahead" end
  if not ahead.static then return nil, "the obstacle moves" end
  local ground = ahead.fraction * climb.REACH
  local past = ground + 2 * c.radius
  -- 1. headroom
  local up = nav.trace(mins, maxs, { x, y, z }, { 0, 0, c.climb + 0.05 }, id)
  local ceiling = up.fraction * (c.climb + 0.05)
  -- 2. the gap: forward traces at rising heights
  local h, found = 0, false
  while h <= ceiling do
    local fwd = nav.trace(mins, maxs, { x, y, z + h }, { dx * past, dy * past, 0 }, id)
    if not fwd.hit and not fwd.start_solid then found = true break end
    h = h + climb.HULL_STEP
  end
  if not found then return nil, "no gap within the climb height" end
  -- 3. down onto the ledge, a little past the face
  local px, py, pz = x + dx * past, y + dy * past, z + h
  local down = nav.trace(mins, maxs, { px, py, pz }, { 0, 0, -(h + 0.05) }, id)
  if not down.hit then return nil, "no ledge past the face" end
  local level = down.fraction * (h + 0.05)
  local edge = { px, py, pz - level }
  if edge[3] <= z + 0.05 then return nil, "not a ledge: the floor past it is no higher" end
  -- 4. back toward the face while the floor keeps that height
  local back = 0
  while back <= past do
    local tx, ty = px - dx * back, py - dy * back
    local t = nav.trace(mins, maxs, { tx, ty, pz }, { 0, 0, -(h + 0.05) }, id)
    if t.start_solid or not t.hit or t.fraction * (h + 0.05) > level + climb.SAFETY then break end
    edge = { tx, ty, pz - t.fraction * (h + 0.05) }
    back = back + climb.BACK_STEP
  end
  return edge
end

-- Going down: the floor ahead (dx, dy) ends within `reach` metres in a drop.
-- Returns the last standing point {x, y, z} and the floor height below the
-- drop, or nil and why.
function climb.drop_edge(bot, dx, dy, reach)
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return nil, "no direction" end
  dx, dy = dx / len, dy / len
  reach = reach or 2.0
  local mins, maxs, c = box(bot)
  local x, y, z = bot:pos()
  local id = bot:id()
  local step = climb.BACK_STEP * 2
  local last = { x, y, z }
  local d = 0
  while d <= reach do
    local tx, ty = x + dx * d, y + dy * d
    local fwd = nav.trace(mins, maxs, { x, y, z + c.step }, { dx * d, dy * d, 0 }, id)
    if fwd.hit then return nil, "a wall before any drop" end
    local t = nav.trace(mins, maxs, { tx, ty, z + c.step }, { 0, 0, -(c.step + c.max_fall + 0.1) }, id)
    local below = t.hit and (z + c.step - t.fraction * (c.step + c.max_fall + 0.1)) or -math.huge
    if below < z - c.step then return last, below end
    last = { tx, ty, below }
    d = d + step
  end
  return nil, "no drop ahead"
end

return climb

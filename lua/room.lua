-- room: where a bot with nothing to do goes to be out of others' way
-- (follow.lua's idle bots), once the engine says it stands where others
-- arrive or pass one at a time (bot:in_the_way(): a ladder's foot, a
-- teleporter's exit, a gap's landing...).
local policy = require "policy"

local room = {}

local function hdist(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  return math.sqrt(dx * dx + dy * dy)
end

-- A spot a couple of metres out of the way along (ax, ay), or square to
-- it, that the bot walks to on the floor (no drop, no water, no ladder:
-- making room never breaks its policy); nil when there is none.
function room.toward(bot, x, y, z, ax, ay)
  for _, d in ipairs({ { ax, ay }, { -ay, ax }, { ay, -ax } }) do
    local tx, ty = x + d[1] * 2.0, y + d[2] * 2.0
    if bot:walkable(tx, ty, z) then return tx, ty end
  end
  return nil
end

-- The nearest end of a link out of the bot's area onto dry floor that
-- policy `name` allows (a water jump or a walk out of a pool), or nil.
function room.nearest_bank(bot, name, x, y)
  local a = bot:area()
  if not a then return nil end
  local cls = bot:class().name
  local here = nav.area(a, cls)
  local best, bd = nil, math.huge
  for _, l in ipairs(here and here.links or {}) do
    local to = nav.area(l.to, cls)
    local f = l.finish
    local d = hdist(x, y, f[1], f[2])
    if to and not to.liquid and policy.allows(name, l.type) and d < bd then best, bd = f, d end
  end
  return best
end

-- For a bot in the way along (ax, ay) (nil: in nobody's way): a spot on
-- its floor to step to (tx, ty); or, swimming with no such spot, the
-- bank to climb out onto (nil, nil, point); or nothing.
function room.out_of_the_way(bot, name, x, y, z, ax, ay)
  if not ax then return nil end
  local tx, ty = room.toward(bot, x, y, z, ax, ay)
  if tx then return tx, ty end
  if bot:state().in_water then return nil, nil, room.nearest_bank(bot, name, x, y) end
  return nil
end

return room

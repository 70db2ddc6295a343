-- avoid.lua: steering around dynamic obstacles (other bots, crates, doors
-- on the move) with hull traces, as Left 4 Dead's bots do: sweep the bot's
-- box along the way it wants to go; if something that is not part of the
-- level is close ahead, steer along it, to the side nearer the wanted
-- direction. Static walls are left to path following (and climbing).
--
--   local avoid = require "avoid"
--   local sx, sy = avoid.steer(bot, dx, dy)   -- nil when the way is clear
local avoid = {}

avoid.LOOKAHEAD = 1.2   -- metres swept ahead

function avoid.steer(bot, dx, dy, lookahead)
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return nil end
  dx, dy = dx / len, dy / len
  local reach = lookahead or avoid.LOOKAHEAD
  local tr = bot:trace(dx * reach, dy * reach, 0)
  if not tr.hit or tr.static or tr.start_solid then return nil end
  -- Slide along the obstacle: the tangent of its surface nearer the wanted way.
  local nx, ny = tr.normal[1], tr.normal[2]
  local tx, ty = -ny, nx
  if tx * dx + ty * dy < 0 then tx, ty = -tx, -ty end
  -- Closer obstacles push harder away.
  local push = 1 - tr.fraction
  local sx, sy = tx + nx * push, ty + ny * push
  -- Prefer a side that is itself clear.
  local side = bot:trace(sx * 0.6, sy * 0.6, 0)
  if side.hit and side.fraction < 0.3 then
    sx, sy = -tx + nx * push, -ty + ny * push
  end
  return sx, sy
end

return avoid

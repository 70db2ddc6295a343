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
avoid.KEEP = 15         -- ticks a side is kept after the last steer...
avoid.HEAD_ON = 0.5     -- ...while the wanted way is this close to straight at the obstacle

-- The side each bot last went round by (bot id -> { side, tick }): with an
-- obstacle dead ahead the way it wants to go swings from one side to the
-- other as it steps aside, and choosing afresh each tick would send it back
-- and forth in front of a bot that stands still.
local chosen = {}

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
  local id, now = bot:id(), nav.tick()
  local last = chosen[id]
  -- The side nearer the wanted way; when both are about as near (the
  -- obstacle dead ahead), the side taken lately.
  local dot = tx * dx + ty * dy
  local sign = dot < 0 and -1 or 1
  if last and now - last.tick <= avoid.KEEP and math.abs(dot) < avoid.HEAD_ON then sign = last.side end
  -- Closer obstacles push harder away.
  local push = 1 - tr.fraction
  local sx, sy = sign * tx + nx * push, sign * ty + ny * push
  -- Prefer a side that is itself clear.
  local side = bot:trace(sx * 0.6, sy * 0.6, 0)
  if side.hit and side.fraction < 0.3 then
    sign = -sign
    sx, sy = sign * tx + nx * push, sign * ty + ny * push
  end
  chosen[id] = { side = sign, tick = now }
  return sx, sy
end

return avoid

-- avoid.lua: staying clear of what moves.
--
-- Other bots: the engine's reciprocal avoidance (bot:avoidance), turned on
-- with forbid flags that follow the bot's travel policy, so that being
-- pushed aside never sends a bot where its policy would not go (a
-- cautious bot is not shoved into the pool).
--
-- Crates and doors on the move: hull-trace steering, as Left 4 Dead's
-- bots do: sweep the bot's box along the way it wants to go; if an entity
-- or obstacle (or a bot, while this one has no avoidance on) is close
-- ahead, steer along it, to the side nearer the wanted direction. Static
-- walls are left to path following (and climbing).
--
--   local avoid = require "avoid"
--   avoid.enable(bot, "cautious")             -- bots, by the policy's rules
--   local sx, sy = avoid.steer(bot, dx, dy)   -- nil when the way is clear
--   avoid.steer(bot, dx, dy, nil, true)       -- round bots too
local policy = require "policy"

local avoid = {}

avoid.LOOKAHEAD = 1.2   -- metres swept ahead
avoid.KEEP = 15         -- ticks a side is kept after the last steer...
avoid.HEAD_ON = 0.5     -- ...while the wanted way is this close to straight at the obstacle

-- The side each bot last went round by (bot id -> { side, tick }): with an
-- obstacle dead ahead the way it wants to go swings from one side to the
-- other as it steps aside, and choosing afresh each tick would send it back
-- and forth in front of a bot that stands still.
local chosen = {}

-- The forbid names for the engine from a travel policy: liquids the policy
-- may not enter (its contents), deep water when it may not swim, ledges
-- when it may not walk off them.
function avoid.forbid_for(policy_name)
  local p = policy.get(policy_name)
  local allowed = {}
  for _, c in ipairs(p.contents) do allowed[c] = true end
  local forbid = {}
  for _, liquid in ipairs({ "water", "lava", "slime" }) do
    if not allowed[liquid] then forbid[#forbid + 1] = liquid end
  end
  if allowed.water and p.forbid.swim then forbid[#forbid + 1] = "deep_water" end
  if p.forbid.walk_off_ledge then forbid[#forbid + 1] = "ledge" end
  return forbid
end

-- Turn the bot's avoidance of other bots on, keeping to the policy's
-- ground; settings (optional) as bot:avoidance takes them (their forbid
-- list is added to the policy's).
function avoid.enable(bot, policy_name, settings)
  local s = {}
  for k, v in pairs(settings or {}) do s[k] = v end
  local forbid = avoid.forbid_for(policy_name)
  for _, name in ipairs(s.forbid or {}) do forbid[#forbid + 1] = name end
  s.forbid = forbid
  bot:avoidance(s)
end

function avoid.disable(bot)
  bot:avoidance(false)
end

-- bots: steer round bots too, even with the engine's avoidance on (for a
-- bot stuck behind one that does not give way: a faulted body, say).
function avoid.steer(bot, dx, dy, lookahead, bots)
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return nil end
  dx, dy = dx / len, dy / len
  local reach = lookahead or avoid.LOOKAHEAD
  local tr = bot:trace(dx * reach, dy * reach, 0)
  -- The level is path following's; bots are the engine's when this bot
  -- has avoidance on (avoid.enable), else steered round like the rest.
  if not tr.hit or tr.static or tr.start_solid then return nil end
  if tr.what == "bot" and not bots and bot:avoidance().on then return nil end
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

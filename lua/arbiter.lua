-- arbiter.lua: movement requests and their arbitration. Path following,
-- obstacle avoidance, climbing and stuck recovery each ask for a move; the
-- request with the highest priority wins the tick and goes to bot:move
-- with its reason, so a window can show who steered. While something is
-- watching (nav.watching()), every request is also shown as an arrow.
--
--   local arbiter = require "arbiter"
--   local arb = arbiter.new(bot)
--   arb:request(dx, dy, arbiter.PATH, "path")
--   arb:request(sx, sy, arbiter.AVOID, "avoid")
--   arb:apply()          -- the avoid request moves the bot
local arbiter = {}
arbiter.__index = arbiter

arbiter.IDLE, arbiter.PATH, arbiter.AVOID, arbiter.CLIMB, arbiter.UNSTICK = 0, 10, 20, 30, 40

function arbiter.new(bot)
  return setmetatable({ bot = bot, dx = 0, dy = 0, priority = -1, reason = "idle", watch = nav.watching() },
    arbiter)
end

-- Ask for a move; a later request of the same priority replaces an earlier one.
function arbiter:request(dx, dy, priority, reason)
  if self.watch then self.bot:show_request(dx, dy, priority, reason or "") end
  if priority >= self.priority then
    self.dx, self.dy, self.priority, self.reason = dx, dy, priority, reason or ""
  end
end

-- The winning request this tick (dx, dy, priority, reason).
function arbiter:winner()
  return self.dx, self.dy, self.priority, self.reason
end

-- Send the winner to the bot and start the next tick's round.
function arbiter:apply()
  if self.priority < 0 then
    self.bot:move(0, 0, arbiter.IDLE, "idle")
  else
    self.bot:move(self.dx, self.dy, self.priority, self.reason)
  end
  self.dx, self.dy, self.priority, self.reason = 0, 0, -1, "idle"
  self.watch = nav.watching()
end

return arbiter

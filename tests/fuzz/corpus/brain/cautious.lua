-- cautious: never walks off a ledge, never swims, never jumps a gap, keeps
-- out of lava and slime. Goals it cannot reach that way are dropped (and
-- said so) rather than risked.
local follow = require "follow"
local tour = require "tour"

local brain = {}

function brain.spawn(bot)
  f = follow.new(bot, { policy = "cautious" })
  if bot:goals() == 0 then tour.queue_map_goals(bot, "cautious") end
end

function brain.think(bot, dt)
  local status = f:update(dt)
  if status == "no route" then
    -- Unreachable without risk: skip this goal.
    local gx, gy, gz = bot:goal()
    print(string.format("goal (%.1f, %.1f, %.1f) cannot be reached safely; skipping it", gx, gy, gz))
    tour.drop_head(bot)
    f:replan()
  end
end

return brain

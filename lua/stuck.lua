-- stuck.lua: stuck detection and recovery. A bot is stuck when it wishes
-- to move but has not made progress for a while (the engine's stuck_time,
-- and a slower check of distance gained toward its target). Recovery
-- escalates: a jump, then a sidestep to a random side, then asking for a
-- new route.
--
--   local stuck = require "stuck"
--   local s = stuck.new()
--   local action = s:update(bot, dt)   -- nil, "jump", "sidestep" or "replan"
--   if action == "sidestep" then arb:request(s.sx, s.sy, arbiter.UNSTICK, "unstick") end
local stuck = {}
stuck.__index = stuck

stuck.AFTER = 0.6        -- seconds stuck before acting
stuck.SIDESTEP = 0.5     -- seconds a sidestep lasts

function stuck.new()
  return setmetatable({ tries = 0, side_left = 0, cool = 0, sx = 0, sy = 0, total = 0 }, stuck)
end

function stuck:update(bot, dt)
  if self.side_left > 0 then
    self.side_left = self.side_left - dt
    return "sidestep"
  end
  local st = bot:state()
  if self.cool > 0 then
    self.cool = self.cool - dt
    return nil
  end
  if st.stuck_time < stuck.AFTER or st.climbing or st.on_ladder or st.riding >= 0 then
    if st.stuck_time == 0 then self.tries = 0 end
    return nil
  end
  self.total = self.total + dt
  self.tries = self.tries + 1
  self.cool = stuck.AFTER
  if self.tries % 3 == 1 then
    return "jump"
  elseif self.tries % 3 == 2 then
    local yaw = math.rad(bot:yaw())
    local side = nav.random(2) == 1 and 1 or -1
    self.sx, self.sy = -math.sin(yaw) * side, math.cos(yaw) * side
    self.side_left = stuck.SIDESTEP
    return "sidestep"
  end
  return "replan"
end

return stuck

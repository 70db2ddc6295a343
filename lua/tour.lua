-- tour.lua: goal queues for bots that visit several places. queue_map_goals
-- orders the map's goal entities greedily, nearest next by travel time
-- under a policy, and queues those reachable.
--
--   local tour = require "tour"
--   tour.queue_map_goals(bot, "runner")   -- how many were queued
local policy = require "policy"

local tour = {}

function tour.queue_map_goals(bot, policy_name)
  local flags = policy.flags(policy_name)
  local left = {}
  for _, name in ipairs(nav.entities("goal")) do left[#left + 1] = nav.entity(name).pos end
  local x, y, z = bot:pos()
  local here = { x, y, z }
  local cls = bot:class().name
  local n = 0
  while #left > 0 do
    local best, bt = nil, math.huge
    for i, g in ipairs(left) do
      local t = nav.route_time(here, g, flags, cls)
      if t and t < bt then best, bt = i, t end
    end
    if not best then break end
    local g = table.remove(left, best)
    if not bot:add_goal(g[1], g[2], g[3]) then break end
    n = n + 1
    here = g
  end
  return n
end

-- Drop the goal at the head of the queue without reaching it.
function tour.drop_head(bot)
  return bot:skip_goal()
end

return tour

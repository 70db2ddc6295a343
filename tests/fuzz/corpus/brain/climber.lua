-- climber: like the runner, but prefers climbing: ladders, lifts, pads and
-- teleporters only when a climb is far slower or impossible. Climbs up
-- walls and drops back down.
local follow = require "follow"
local tour = require "tour"

local brain = {}

function brain.spawn(bot)
  f = follow.new(bot, { policy = "climber" })
  if bot:goals() == 0 then tour.queue_map_goals(bot, "climber") end
end

function brain.think(bot, dt)
  f:update(dt)
end

return brain

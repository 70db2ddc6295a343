-- runner: visits goals across the whole map, using every travel type its
-- policy allows. With goals queued (navbot run --goal ...) it runs to them
-- in order; with none, it queues every goal of the map, nearest first by
-- travel time, and runs the tour.
local follow = require "follow"
local tour = require "tour"

local brain = {}

function brain.spawn(bot)
  f = follow.new(bot, { policy = "runner" })
  local queued = bot:goals()
  if queued == 0 then tour.queue_map_goals(bot, "runner") end
end

function brain.think(bot, dt)
  f:update(dt)
end

return brain

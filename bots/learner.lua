-- learner: knows only what it has seen. It starts knowing the area it
-- stands in, learns every link it crosses and every link it sees another
-- body cross (a runner, a demonstrator, the player), routes only over
-- what it knows, explores on foot toward its goals when they are beyond
-- that, and goes where it last saw someone when there is nothing left to
-- explore (lua/learn.lua). With goals queued (navbot run --goal ...) it
-- goes to them in order; with none it queues every goal of the map, as the
-- runner does, and finds its own way to each.
local learn = require "learn"
local tour = require "tour"

local brain = {}
local learners = {}

function brain.spawn(bot)
  learners[bot:id()] = learn.new(bot)
  if bot:goals() == 0 then tour.queue_map_goals(bot, "runner") end
end

function brain.think(bot, dt)
  learners[bot:id()]:update(dt)
end

function brain.on_learn(bot, info)
  learners[bot:id()]:learned(info)
end

return brain

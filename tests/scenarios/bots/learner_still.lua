-- A learner that stands where it is and only watches: it learns what it
-- sees bodies do (and the floor in sight), nothing else.
local brain = {}

function brain.spawn(bot)
  bot:memory()
end

function brain.think(bot, dt)
  bot:move(0, 0)
  bot:say("watching")
end

return brain

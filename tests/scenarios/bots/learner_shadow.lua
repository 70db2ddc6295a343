-- A learner that first follows the first body it sees moving (a teacher
-- with no memory of its own) round its tour, learning what it sees it do,
-- then goes to the goals it is given by what it learned, never exploring.
local learn = require "learn"

local brain, ls = {}, {}

function brain.spawn(bot)
  ls[bot:id()] = learn.new(bot, { shadow = true, explore = false })
end

function brain.think(bot, dt) ls[bot:id()]:update(dt) end
function brain.on_learn(bot, info) ls[bot:id()]:learned(info) end

return brain

-- A learner that knows the floor it starts on (every walk of its storey)
-- and nothing else, does not explore, and learns only what it sees.
local learn = require "learn"

local brain, ls = {}, {}

function brain.spawn(bot)
  local x, y, z = bot:pos()
  local layer = z > 10 and "roof" or z > 6 and "third" or z > 2 and "second" or "ground"
  ls[bot:id()] = learn.new(bot, { explore = false, knows = { types = { "walk", "crouch" }, layer = layer } })
end

function brain.think(bot, dt) ls[bot:id()]:update(dt) end
function brain.on_learn(bot, info) ls[bot:id()]:learned(info) end

return brain

-- erratic: heads for its goal like the runner, then its script fails two
-- seconds in (a runtime error: indexing nil), as a buggy brain would. For
-- the scenario script_errors: the error must stop this bot alone.
local follow = require "follow"

local brain = {}

function brain.spawn(bot)
  f = follow.new(bot, { policy = "default" })
end

function brain.think(bot, dt)
  f:update(dt)
  if nav.time() >= 2 then
    local plan = nil
    return plan.next_step   -- the bug
  end
end

return brain

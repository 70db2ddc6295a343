-- pacer: walks one way at half speed, counting its ticks in a global, and
-- says where it heads and how many ticks it has walked. The scenario
-- hot_reload rewrites HEADING in a temporary copy and reloads: the bot must
-- turn, keeping its count (globals survive a reload).
local HEADING = "east"

local DIRS = { east = { 1, 0 }, north = { 0, 1 }, west = { -1, 0 }, south = { 0, -1 } }

local brain = {}

steps = steps or 0

function brain.think(bot, dt)
  steps = steps + 1
  local d = DIRS[HEADING]
  bot:move(d[1] * 0.5, d[2] * 0.5)
  bot:say(HEADING .. " " .. steps)
end

return brain

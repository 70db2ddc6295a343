-- spinner: walks east for a second, then loops forever inside one tick,
-- as a brain with an endless loop would. For the scenario script_loops:
-- the instruction budget must stop it, and only it.
local brain = {}

function brain.think(bot, dt)
  bot:move(1, 0)
  if nav.time() >= 1 then
    local n = 0
    while true do n = n + 1 end
  end
end

return brain

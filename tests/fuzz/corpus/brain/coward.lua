-- coward: keeps out of sight of a target. The target is the nearest other
-- bot (or a fixed point when there is none: the map's first goal). While
-- the target can see it, it runs to the nearest hiding place (an area
-- whose centre the target cannot see, found by the router's hide search,
-- never passing close to the target); once hidden it stays put.
local follow = require "follow"

local brain = {}

local function eye(x, y, z) return { x, y, z + 1.6 } end

local function target_of(bot)
  local best, bd = nil, math.huge
  local x, y = bot:pos()
  for _, other in ipairs(nav.bots()) do
    if other ~= bot then
      local ox, oy, oz = other:pos()
      local d = (ox - x) ^ 2 + (oy - y) ^ 2
      if d < bd then best, bd = { ox, oy, oz }, d end
    end
  end
  if best then return best end
  local goals = nav.entities("goal")
  if goals[1] then return nav.entity(goals[1]).pos end
  return nil
end

function brain.spawn(bot)
  f = follow.new(bot, { policy = "default" })
  hidden_for = 0
  spot = nil
end

function brain.think(bot, dt)
  local t = target_of(bot)
  if not t then f:update(dt) return end
  local x, y, z = bot:pos()
  local seen = nav.sight(eye(t[1], t[2], t[3]), eye(x, y, z))
  if seen then
    hidden_for = 0
    local sx, sy, sz = bot:hide(t[1], t[2], t[3] + 1.6, 3.0)
    if sx then
      spot = { sx, sy, sz }
      f:set_goal(sx, sy, sz)
      bot:say("hiding")
    else
      bot:say("nowhere to hide")
    end
  else
    hidden_for = hidden_for + dt
    if hidden_for > 0.5 then
      f:set_goal(nil)
      spot = nil
      bot:say("hidden")
      bot:move(0, 0, 0, "hidden")
      return
    end
  end
  if spot then f:update(dt) else bot:move(0, 0, 0, "hidden") end
end

return brain

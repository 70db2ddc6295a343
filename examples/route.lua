-- route.lua: navbot from a plain lua5.4 through `require "nav"` (nav.so).
--
--   LUA_CPATH="$PREFIX/lib/lua/5.4/?.so;;" lua5.4 route.lua [MAP]
--
-- Loads a map (the bundled gauntlet unless one is given), routes between
-- its spawn and its goal with two travel-flag sets, then runs three runner
-- bots there for up to 40 seconds and prints who arrived.
local nav = require "nav"

local path = arg[1] or assert(nav.bundled("maps/gauntlet.lua"))
local map <close> = nav.load_map(path)
local info = map:info()
print(string.format("map %s: %d x %d cells of %.2f m, classes: %s", info.name, info.width, info.height,
                    info.cell_size, table.concat(info.classes, ", ")))

local g = map:compile()
print(string.format("area graph: %d areas, %d links, %d clusters", g.areas, g.links, g.clusters))

-- The first spawn point and the first goal of the map.
local start, goal
for _, name in ipairs { "spawn", "spawn_a", "start" } do
  local ok, p = pcall(map.point, map, name)
  if ok then start = p break end
end
for _, name in ipairs { "goal", "centre", "flag" } do
  local ok, p = pcall(map.point, map, name)
  if ok then goal = p break end
end
start = start or map:random_point({ info.size[1] / 2, info.size[2] / 2 })
goal = goal or map:random_point(start)

local r, why = map:route(start, goal)
if not r then error("no route: " .. why) end
print(string.format("route: %.2f s over %d links", r.time, r.links))
for i, p in ipairs(r.points) do
  print(string.format("  %2d (%.2f, %.2f, %.2f) %s", i, p[1], p[2], p[3], p.travel))
end
local dry = map:route_time(start, goal, { "walk", "crouch", "barrier_jump", "walk_off_ledge", "ladder" })
print("without jumps, water or lifts: " .. (dry and string.format("%.2f s", dry) or "no route"))

local sim <close> = map:sim { seed = 7 }
for i = 1, 3 do
  local at = map:random_point(start, 3)
  sim:add_bot { brain = "runner", at = at, goal = goal }
end
for _ = 1, 40 do
  sim:step(30)
  local all = true
  for _, b in ipairs(sim:bots()) do all = all and b.arrived end
  if all then break end
end
local arrived = 0
for _, b in ipairs(sim:bots()) do
  if b.arrived then arrived = arrived + 1 end
  print(string.format("bot %d (%s): %s", b.id, b.brain,
                      b.arrived and string.format("arrived after %.2f s", b.arrival_time)
                      or b.faulted and ("faulted: " .. b.error) or ("not arrived, " .. b.state)))
end
print(string.format("%d of %d arrived in %.2f s", arrived, #sim:bots(), sim:time()))
os.exit(arrived == #sim:bots() and 0 or 3)

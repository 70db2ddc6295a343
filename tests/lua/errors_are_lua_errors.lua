-- lua5.4 test: bad input to require "nav" raises a Lua error that names
-- the argument (or the key), never a crash; closed objects say so.
local nav = require "nav"

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  err = tostring(err)
  assert(err:find(pattern, 1, true), "error '" .. err .. "' lacks '" .. pattern .. "'")
end

fails("load_map: /no/such/map.lua", nav.load_map, "/no/such/map.lua")
fails("bad argument #1 to 'nav.load_map' (a map path or a map table expected, got number)", nav.load_map, 42)
fails("map.legend: a function cannot be part of a map", nav.load_map, { legend = function() end })
fails("unknown key 'sede'", nav.load_map, assert(nav.bundled("maps/arena.lua")), { sede = 1 })
fails("cell_size", nav.load_map, { name = "x", cell_size = "big" })

local map = nav.load_map(assert(nav.bundled("maps/arena.lua")))
local a = map:point("spawn_a")
fails("(name: no entity 'nowhere' in arena)", map.point, map, "nowhere")
fails("from: a point table {x, y [, z]} expected, got string", map.route, map, "here", a)
fails("to: a point needs x and y", map.route, map, a, { 1 })
fails("to: y must be a finite number", map.route, map, a, { 1, 0 / 0 })
fails("unknown travel flag 'wlak'", map.route_time, map, a, a, { "wlak" })
fails("flags: an empty list allows nothing", map.route_time, map, a, a, {})
fails("no class 'giant'; the map's classes are: human", map.route_time, map, a, a, nil, "giant")
fails("options: unknown key 'flag'; the keys are: flags class", map.route, map, a, a, { flag = "walk" })
fails("from: point: (-3, 2) is off the map", map.route, map, { -3, 2 }, a)
fails("an empty box", map.trace, map, { 0.4, 0.4, 0 }, { -0.4, -0.4, 1 }, a, { 1, 0, 0 })
fails("radius", map.random_point, map, a, -1)
fails("from: a point table {x, y [, z]} expected, got nil", map.grid_path, map, nil, a)
fails("nav.Map expected, got table", map.route, {}, a, a)

local sim = map:sim()
fails("options: unknown key 'sead'", map.sim, map, { sead = 1 })
fails("options: hz must be an integer from 1 to 1000", map.sim, map, { hz = 0 })
fails("bot: unknown key 'goa'", sim.add_bot, sim, { at = a, goa = a })
fails("bot: at (a point) is required", sim.add_bot, sim, { brain = "runner" })
fails("at: point: (300, 2) is off the map", sim.add_bot, sim, { at = { 300, 2 } })
fails("add_bot: pos: no floor to stand on at (0.10, 0.10, 0.00)", sim.add_bot, sim, { at = { 0.1, 0.1, 0 } })
fails("brain: /tmp/x.lua is not in a bots/ folder", sim.add_bot, sim, { at = a, brain = "/tmp/x.lua" })
fails("no bot 0 (there are 0)", sim.bot, sim, 0)
fails("ticks: 0 to 100000000", sim.step, sim, -1)
fails("width: 64 to 8192", sim.png, sim, os.tmpname(), 10)
fails("png: ", sim.png, sim, "/no/such/dir/x.png")
local id = sim:add_bot { at = a }
fails("controls: unknown key 'jmp'", sim.control, sim, id, { jmp = true })
fails("move: x must be a finite number", sim.control, sim, id, { move = { "east", 0 } })

-- A map with a simulation on it stays open; closed objects refuse work.
fails("map:close: 1 simulation(s) still run on it", map.close, map)
sim:close()
sim:close() -- twice is fine
fails("the simulation is closed", sim.step, sim)
map:close()
fails("the map is closed", map.route, map, a, a)
assert(tostring(map) == "nav.Map (closed)")
print("errors_are_lua_errors: ok")

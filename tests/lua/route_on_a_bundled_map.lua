-- lua5.4 test: routes, route times, grid paths, traces and samples on a
-- bundled map through require "nav", checked against numbers worked out
-- here (the straight line at run speed, the polyline of a walk).
local nav = require "nav"

local map <close> = nav.load_map(assert(nav.bundled("maps/arena.lua")))
local info = map:info()
assert(info.name == "arena" and info.classes[1] == "human", "map info")
assert(nav.travel_types()[1] == "walk" and #nav.travel_types() == 12, "travel types")

local a, b = map:point("spawn_a"), map:point("spawn_b")
local function d2(p, q) return math.sqrt((p[1] - q[1]) ^ 2 + (p[2] - q[2]) ^ 2) end

-- A walk across flat ground takes its polyline at 6 m/s.
local r = assert(map:route(a, b, { flags = { "walk" } }))
local length = 0
for i = 2, #r.points do length = length + d2(r.points[i - 1], r.points[i]) end
assert(#r.points == 2 * r.links + 2, "waypoints: start, two per link, goal")
assert(math.abs(r.time - length / 6) <= 0.01 * (r.links + 2) + 1e-3,
       string.format("time %.3f vs %.3f m at 6 m/s", r.time, length))
assert(r.time >= d2(a, b) / 6 - 1e-3, "no faster than the straight line")
assert(math.abs(map:route_time(a, b, { "walk" }) - r.time) < 1e-6, "route_time agrees")
assert(math.abs(map:route_time(a, b, 1) - r.time) < 1e-6, "flags as an integer")
assert(math.abs(map:route_time(a, b, "walk") - r.time) < 1e-6, "flags as a string")

-- Points without z stand on the lowest floor; the dais is 0.4 m up.
local c = map:point("centre")
local rc = assert(map:route(a, { c[1], c[2] }))
assert(math.abs(rc.to[3] - 0.4) < 1e-4, "z taken from the floor: " .. rc.to[3])
assert(map:floor_z(c[1], c[2]) == rc.to[3])

-- No answer is nil and why, not an error.
local none, why = map:route(a, b, { flags = { "ladder" } })
assert(none == nil and why:find("no route"), tostring(why))
assert(map:route_time(a, b, { "ladder" }) == nil)

-- Grid path: from near the start to near the goal, no shorter than the line.
local g = assert(map:grid_path(a, b, { smooth = true }))
assert(#g.points >= 2 and g.length >= d2(a, b) - 0.75, "grid path length " .. g.length)
assert(d2(g.points[1], a) < 0.75 and d2(g.points[#g.points], b) < 0.75, "grid path ends")

-- A hull trace west into the outer wall (its face at x = 0.5).
local t = map:trace({ -0.4, -0.4, 0 }, { 0.4, 0.4, 1.8 }, { 8, 1.5, 0.01 }, { -10, 0, 0 })
assert(t.hit and t.static and t.what == "world" and math.abs(t.end_pos[1] - 0.9) < 0.02, "trace end " .. t.end_pos[1])
assert(not map:trace({ -0.4, -0.4, 0 }, { 0.4, 0.4, 1.8 }, { 8, 1.5, 0.01 }, { 1, 0, 0 }).hit)

-- Samples: within the radius, reachable.
for _ = 1, 20 do
  local p = assert(map:random_point(a, 4))
  assert(d2(p, a) <= 4 + 1e-4, "sample within 4 m")
  assert(map:route_time(a, p), "sample reachable")
end

-- The area graph, compiled, saved and loaded into another copy of the map.
local info1 = map:compile()
local file = os.tmpname()
map:save_graph(file)
local copy <close> = nav.load_map(assert(nav.bundled("maps/arena.lua")))
local info2 = copy:load_graph(file)
os.remove(file)
assert(info2.loaded and info2.areas == info1.areas and info2.links == info1.links, "loaded graph")
assert(math.abs(copy:route_time(a, b) - map:route_time(a, b)) < 1e-6)

-- A map given as a table.
local small = nav.load_map({
  name = "box", cell_size = 0.5,
  legend = { ["#"] = "solid", ["."] = "floor" },
  layers = { { name = "ground", z = 0, rows = "########\n#......#\n#......#\n#......#\n########" } },
  classes = { { name = "human" } },
}, { name = "box.lua" })
assert(small:info().name == "box")
assert(small:route_time({ 1.25, 1.25 }, { 2.75, 1.25 }) > 0)
small:close()
print("route_on_a_bundled_map: ok")

-- warehouse: racks with 3 m aisles, loose crates, a loading dock 1 m up
-- and a mezzanine reached by a ladder. Made to test crowds: narrow aisles
-- where bots meet head on, crates that block half an aisle, a dock edge
-- that is jumped up and walked off, one ladder for everyone going up.
--
-- 80 x 60 cells of 0.5 m = 40 x 30 m. Below, "col c, row r" counts from
-- the north-west corner (row 0 is the north edge); x = c * 0.5,
-- y = (59 - r) * 0.5.
--
--   racks      solid, 1 m thick (2 cols), at cols 8, 16, 24, 32, 40, 48;
--              north block rows 6-25, south block rows 32-52. Aisles
--              between racks are 6 cols = 3 m; a cross aisle (rows
--              26-31, 3 m) and aisles along the north and south walls.
--   underpass  the rack at col 24 has a 1.5 m wide gap at rows 14-16
--              under a shelf at 1.3 m: crouch through.
--   dock       cols 60-78, every row, floor 1.0 m up: a barrier jump from
--              the floor (col 59), a walk off its edge back down, and
--              four 0.2 m steps at rows 40-45 (cols 56-59).
--   mezzanine  upper layer (z 4) over the dock's north end, cols 59-78,
--              rows 1-19; the ground wall under its west edge (col 59,
--              rows 1-19) carries a ladder (cols 58, rows 8-10, facing
--              east, top 4 m). Its south edge drops 3 m onto the dock.
--   crates     six loose 1 m crates in the aisles.
local W, H = 80, 60

local function grid(fill)
  local g = {}
  for r = 0, H - 1 do
    g[r] = {}
    for c = 0, W - 1 do g[r][c] = fill end
  end
  return g
end

local function rect(g, c0, r0, c1, r1, ch)
  for r = r0, r1 do
    for c = c0, c1 do g[r][c] = ch end
  end
end

local function rows(g)
  local out = {}
  for r = 0, H - 1 do
    local line = {}
    for c = 0, W - 1 do line[#line + 1] = g[r][c] end
    out[#out + 1] = table.concat(line)
  end
  return out
end

local ground = grid(".")
-- outer walls
rect(ground, 0, 0, W - 1, 0, "#")
rect(ground, 0, H - 1, W - 1, H - 1, "#")
rect(ground, 0, 0, 0, H - 1, "#")
rect(ground, W - 1, 0, W - 1, H - 1, "#")
-- racks
for _, c in ipairs({ 8, 16, 24, 32, 40, 48 }) do
  rect(ground, c, 6, c + 1, 25, "#")
  rect(ground, c, 32, c + 1, 52, "#")
end
rect(ground, 24, 14, 25, 16, "u")            -- underpass under a shelf
-- the dock and its steps
rect(ground, 60, 1, 78, 58, "=")
rect(ground, 56, 40, 56, 45, "a")
rect(ground, 57, 40, 57, 45, "b")
rect(ground, 58, 40, 58, 45, "c")
rect(ground, 59, 40, 59, 45, "d")
-- the wall under the mezzanine's west edge, and its ladder
rect(ground, 59, 1, 59, 19, "#")
rect(ground, 58, 8, 58, 10, "H")
-- spawns and goals
rect(ground, 3, 2, 4, 3, "A")
rect(ground, 3, 55, 4, 56, "B")
rect(ground, 53, 28, 54, 29, "C")
rect(ground, 70, 50, 71, 51, "D")
rect(ground, 20, 40, 21, 41, "g")
rect(ground, 44, 3, 45, 4, "h")
rect(ground, 68, 30, 69, 31, "i")

local upper = grid(" ")
rect(upper, 59, 1, 78, 19, ".")
rect(upper, 59, 0, 79, 0, "#")
rect(upper, 79, 0, 79, 19, "#")
rect(upper, 74, 4, 75, 5, "m")

return {
  name = "warehouse",
  description = "Racks with 3 m aisles, loose crates, a loading dock 1 m up with steps, a crouch underpass, a mezzanine up a ladder",
  cell_size = 0.5,
  legend = {
    ["#"] = "solid",
    ["."] = "floor",
    [" "] = "empty",
    ["u"] = { type = "floor", ceiling = 1.3 },
    ["="] = { type = "floor", h = 1.0 },
    ["a"] = { type = "floor", h = 0.2 },
    ["b"] = { type = "floor", h = 0.4 },
    ["c"] = { type = "floor", h = 0.6 },
    ["d"] = { type = "floor", h = 0.8 },
    ["H"] = { type = "ladder", top = 4, face = "east" },
    ["A"] = { type = "floor", mark = "spawn_nw" },
    ["B"] = { type = "floor", mark = "spawn_sw" },
    ["C"] = { type = "floor", mark = "spawn_mid" },
    ["D"] = { type = "floor", h = 1.0, mark = "spawn_dock" },
    ["g"] = { type = "floor", mark = "goal_aisle" },
    ["h"] = { type = "floor", mark = "goal_north" },
    ["i"] = { type = "floor", h = 1.0, mark = "goal_dock" },
    ["m"] = { type = "floor", mark = "goal_mezzanine" },
  },
  layers = {
    { name = "floor", z = 0, rows = rows(ground) },
    { name = "mezzanine", z = 4, rows = rows(upper) },
  },
  entities = {
    { type = "spawn", name = "spawn_nw", at = "spawn_nw", yaw = 0 },
    { type = "spawn", name = "spawn_sw", at = "spawn_sw", yaw = 0 },
    { type = "spawn", name = "spawn_mid", at = "spawn_mid", yaw = 90 },
    { type = "spawn", name = "spawn_dock", at = "spawn_dock", yaw = 180 },
    { type = "goal", name = "goal_aisle", at = "goal_aisle", item = "crate_key" },
    { type = "goal", name = "goal_north", at = "goal_north", item = "health" },
    { type = "goal", name = "goal_dock", at = "goal_dock", item = "ammo" },
    { type = "goal", name = "goal_mezzanine", at = "goal_mezzanine", item = "flag" },
    -- loose crates: each takes half an aisle or a corner of a crossing
    { type = "crate", name = "crate_1", min = { 5.0, 18.0 }, max = { 6.0, 19.0 } },
    { type = "crate", name = "crate_2", min = { 13.5, 9.0 }, max = { 14.5, 10.0 } },
    { type = "crate", name = "crate_3", min = { 17.0, 14.0 }, max = { 18.0, 15.0 } },
    { type = "crate", name = "crate_4", min = { 25.5, 22.0 }, max = { 26.5, 23.0 } },
    { type = "crate", name = "crate_5", min = { 27.0, 4.5 }, max = { 28.0, 5.5 } },
    { type = "crate", name = "crate_6", min = { 33.0, 12.0 }, max = { 34.0, 13.0 } },
  },
}

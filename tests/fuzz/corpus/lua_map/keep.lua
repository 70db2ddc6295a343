-- keep: a three-storey keep behind a moat. The ways up are narrow on
-- purpose: a ladder through a hatch to the first floor, another from there
-- to the roof, and a lift stopping at all three; the way in is a gate
-- with a door or a postern corridor one body wide; the moat is crossed on
-- a causeway or swum (water jump out). Crowds must take turns.
--
-- 80 x 64 cells of 0.5 m = 40 x 32 m; "col c, row r" from the north-west
-- corner: x = c * 0.5, y = (63 - r) * 0.5. Layers: ground (z 0), first
-- (z 4), roof (z 8).
--
--   ward       ground around the keep, rows 1-40
--   keep       walls cols 10-69, rows 8-36 (the west wall 4 m thick, the
--              others 1 m); inside cols 18-67, rows 10-34
--   gate       cols 38-41 in the south wall (rows 35-36): a door
--   postern    rows 20-22 through the west wall (cols 10-17): 1.5 m wide,
--              4 m long, room for one body at a time
--   ladders    ground -> first: cols 24-25, row 14, leaning on a pillar to
--              the north (rows 12-13), through a hatch; first -> roof:
--              cols 44-45, row 30, leaning on a block to the south (rows
--              31-32)
--   lift       cols 52-55, rows 14-17, stops 0, 4 and 8
--   moat       rows 41-47 (3.5 m: too wide to jump), water 0.6 m below
--              the banks, 2 m deep, with a 4 m causeway at cols 36-43
--   bailey     rows 48-62, south of the moat
local W, H = 80, 64

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

local function border(g)
  rect(g, 0, 0, W - 1, 0, "#")
  rect(g, 0, H - 1, W - 1, H - 1, "#")
  rect(g, 0, 0, 0, H - 1, "#")
  rect(g, W - 1, 0, W - 1, H - 1, "#")
end

-- the keep's walls, in every layer
local function keep_walls(g)
  rect(g, 10, 8, 69, 9, "#")     -- north
  rect(g, 10, 35, 69, 36, "#")   -- south
  rect(g, 10, 8, 17, 36, "#")    -- west, thick
  rect(g, 68, 8, 69, 36, "#")    -- east
end

local ground = grid(".")
border(ground)
keep_walls(ground)
rect(ground, 38, 35, 41, 36, "G")        -- the gate's doorway
rect(ground, 10, 20, 17, 22, ".")        -- the postern
rect(ground, 23, 12, 26, 13, "#")        -- pillar the first ladder leans on
rect(ground, 24, 14, 25, 14, "H")
rect(ground, 52, 14, 55, 17, "E")        -- lift shaft, bottom
rect(ground, 1, 41, 78, 47, "~")         -- moat
rect(ground, 36, 41, 43, 47, ".")        -- causeway
rect(ground, 5, 55, 6, 56, "A")
rect(ground, 70, 58, 71, 59, "B")
rect(ground, 3, 3, 4, 4, "C")
rect(ground, 74, 20, 75, 21, "D")
rect(ground, 30, 25, 31, 26, "g")
rect(ground, 40, 54, 41, 55, "j")

local first = grid(" ")
keep_walls(first)
rect(first, 18, 10, 67, 34, ".")
rect(first, 24, 14, 25, 14, " ")         -- the hatch over the first ladder
rect(first, 52, 14, 55, 17, " ")         -- lift shaft
rect(first, 43, 31, 46, 32, "#")         -- block the second ladder leans on
rect(first, 44, 30, 45, 30, "L")
rect(first, 60, 28, 61, 29, "h")

local roof = grid(" ")
keep_walls(roof)
rect(roof, 18, 10, 67, 34, ".")
rect(roof, 44, 30, 45, 30, " ")          -- the hatch over the second ladder
rect(roof, 52, 14, 55, 17, " ")          -- lift shaft
rect(roof, 20, 30, 21, 31, "i")

return {
  name = "keep",
  description = "Three-storey keep behind a moat: ladders through hatches, a three-stop lift, a gate door, a one-body postern, a causeway or a swim",
  cell_size = 0.5,
  legend = {
    ["#"] = "solid",
    ["."] = "floor",
    [" "] = "empty",
    ["~"] = { type = "water", h = -0.6, depth = 2 },
    ["G"] = { type = "floor", mark = "gate" },
    ["E"] = { type = "floor", mark = "lift" },
    ["H"] = { type = "ladder", top = 4, face = "north" },
    ["L"] = { type = "ladder", top = 4, face = "south" },
    ["A"] = { type = "floor", mark = "spawn_bailey_w" },
    ["B"] = { type = "floor", mark = "spawn_bailey_e" },
    ["C"] = { type = "floor", mark = "spawn_ward" },
    ["D"] = { type = "floor", mark = "spawn_east" },
    ["g"] = { type = "floor", mark = "goal_hall" },
    ["j"] = { type = "floor", mark = "goal_bailey" },
    ["h"] = { type = "floor", mark = "goal_first" },
    ["i"] = { type = "floor", mark = "goal_roof" },
  },
  layers = {
    { name = "ground", z = 0, rows = rows(ground) },
    { name = "first", z = 4, rows = rows(first) },
    { name = "roof", z = 8, rows = rows(roof) },
  },
  entities = {
    { type = "spawn", name = "spawn_bailey_w", at = "spawn_bailey_w", yaw = 90 },
    { type = "spawn", name = "spawn_bailey_e", at = "spawn_bailey_e", yaw = 90 },
    { type = "spawn", name = "spawn_ward", at = "spawn_ward", yaw = 0 },
    { type = "spawn", name = "spawn_east", at = "spawn_east", yaw = 180 },
    { type = "door", name = "gate", at = "gate", height = 3 },
    { type = "elevator", name = "lift", at = "lift", stops = { 0, 4, 8 }, speed = 2, wait = 2 },
    { type = "goal", name = "goal_hall", at = "goal_hall", item = "health" },
    { type = "goal", name = "goal_bailey", at = "goal_bailey", item = "ammo" },
    { type = "goal", name = "goal_first", at = "goal_first", item = "armor" },
    { type = "goal", name = "goal_roof", at = "goal_roof", item = "flag" },
  },
}

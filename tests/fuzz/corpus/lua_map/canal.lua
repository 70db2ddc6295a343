-- canal: a town on both sides of a canal. Two narrow bridges arch over
-- the water on ramps; anyone else swims and water-jumps out. South of the
-- canal a low quay runs under a terrace 2.5 m up: stairs lead up, its edge
-- is a one-way drop. On the north bank a jump pad throws bots onto a
-- warehouse roof 3.5 m up, left by dropping off its edge.
--
-- 96 x 64 cells of 0.5 m = 48 x 32 m; "col c, row r" from the north-west
-- corner: x = c * 0.5, y = (63 - r) * 0.5. Layers: ground (z 0) and
-- deck (z 1.5, the bridges' decks over the water).
--
--   north bank rows 1-27, street level 0
--   roof       cols 56-75, rows 3-12, 3.5 m up: only the jump pad (cols
--              82-84, rows 8-10) reaches it
--   canal      rows 28-35, water 0.7 m below the banks, 2 m deep
--   bridges    cols 20-23 and 70-73: ramps of 0.25 m rise on both banks
--              (rows 22-27 up, rows 36-41 down) to decks at 1.5 m over the
--              water (rows 28-35, headroom 1.8 m above the water below)
--   quay       rows 36-49, level 0
--   stairs     cols 40-43, rows 40-49, up to the terrace
--   terrace    rows 50-62, 2.5 m up; its north edge drops onto the quay
local W, H = 96, 64

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

-- Ramp and stair cells: one legend character per height, 0.25 m apart.
local STEP = "123456789"                 -- 0.25 .. 2.25 m
local legend = {
  ["#"] = "solid",
  ["."] = "floor",
  [" "] = "empty",
  ["~"] = { type = "water", h = -0.7, depth = 2 },
  ["T"] = { type = "floor", h = 2.5 },
  ["R"] = { type = "floor", h = 3.5 },
  ["J"] = { type = "floor", mark = "pad" },
  ["P"] = { type = "floor", h = 3.5, mark = "roof_landing" },
  ["A"] = { type = "floor", mark = "spawn_north_w" },
  ["B"] = { type = "floor", mark = "spawn_north_e" },
  ["C"] = { type = "floor", mark = "spawn_quay" },
  ["D"] = { type = "floor", h = 2.5, mark = "spawn_terrace" },
  ["g"] = { type = "floor", h = 2.5, mark = "goal_terrace" },
  ["q"] = { type = "floor", mark = "goal_quay" },
  ["n"] = { type = "floor", mark = "goal_street" },
  ["r"] = { type = "floor", h = 3.5, mark = "goal_roof" },
}
for i = 1, #STEP do legend[STEP:sub(i, i)] = { type = "floor", h = 0.25 * i } end
local function step(k) return STEP:sub(k, k) end

local ground = grid(".")
rect(ground, 0, 0, W - 1, 0, "#")
rect(ground, 0, H - 1, W - 1, H - 1, "#")
rect(ground, 0, 0, 0, H - 1, "#")
rect(ground, W - 1, 0, W - 1, H - 1, "#")
rect(ground, 1, 28, W - 2, 35, "~")
rect(ground, 56, 3, 75, 12, "R")
rect(ground, 64, 6, 65, 7, "r")
rect(ground, 58, 9, 59, 10, "P")
rect(ground, 82, 8, 84, 10, "J")
for _, c in ipairs({ 20, 70 }) do
  for k = 1, 6 do
    rect(ground, c, 21 + k, c + 3, 21 + k, step(k))   -- north ramp: rows 22-27, 0.25 .. 1.5
    rect(ground, c, 42 - k, c + 3, 42 - k, step(k))   -- south ramp: rows 41-36, 0.25 .. 1.5
  end
end
rect(ground, 1, 50, W - 2, 62, "T")
for k = 1, 9 do rect(ground, 40, 40 + k, 43, 40 + k, step(k)) end   -- rows 41-49, 0.25 .. 2.25
rect(ground, 6, 5, 7, 6, "A")
rect(ground, 88, 20, 89, 21, "B")
rect(ground, 10, 44, 11, 45, "C")
rect(ground, 80, 57, 81, 58, "D")
rect(ground, 24, 56, 25, 57, "g")
rect(ground, 60, 44, 61, 45, "q")
rect(ground, 40, 16, 41, 17, "n")

local deck = grid(" ")
for _, c in ipairs({ 20, 70 }) do rect(deck, c, 28, c + 3, 35, ".") end

return {
  name = "canal",
  description = "Canal town: two ramped bridges over the water or a swim, a quay under a 2.5 m terrace (stairs up, ledge down), a jump pad onto a roof",
  cell_size = 0.5,
  legend = legend,
  layers = {
    { name = "ground", z = 0, rows = rows(ground) },
    { name = "deck", z = 1.5, rows = rows(deck) },
  },
  entities = {
    { type = "spawn", name = "spawn_north_w", at = "spawn_north_w", yaw = 270 },
    { type = "spawn", name = "spawn_north_e", at = "spawn_north_e", yaw = 270 },
    { type = "spawn", name = "spawn_quay", at = "spawn_quay", yaw = 90 },
    { type = "spawn", name = "spawn_terrace", at = "spawn_terrace", yaw = 90 },
    { type = "jump_pad", name = "pad_roof", at = "pad", target = "roof_landing", apex = 2 },
    { type = "goal", name = "goal_terrace", at = "goal_terrace", item = "health" },
    { type = "goal", name = "goal_quay", at = "goal_quay", item = "ammo" },
    { type = "goal", name = "goal_street", at = "goal_street", item = "armor" },
    { type = "goal", name = "goal_roof", at = "goal_roof", item = "flag" },
  },
}

-- valley: a large open RTS-style map, computed in Lua.
--
-- 256 x 256 cells of 1 m (cell_size = 1.0) = 256 x 256 m, one layer
-- (z = 0). The rows are generated below, deterministically: the only
-- randomness is an integer hash of the cell written in this file (no
-- math.random). Coordinates are in cells = metres, x east from the west
-- edge, y north from the south edge (row 1 of the grid is y = 255).
--
--   river    flows north-south across the whole map, centre
--            x = 128 + 16 sin(y/31) + 7 sin(y/13 + 1.3) (about 105 to 151),
--            7 to 13 m wide. Deep water ('~'): surface 0.1 m below the
--            banks, 2 m deep. Swimmers cross it anywhere; nothing wades it.
--   fords    three shallow crossings the river's whole width: water
--            0.4 m deep (',') with a 0.25 m deep shoal (';') against each
--            bank, so the bed steps down 0.35 m, then 0.15 m, and every class
--            (siege engines too) can wade across:
--              ford_south   y 40-47   (8 m wide)
--              ford_middle  y 118-124 (7 m)
--              ford_north   y 222-227 (6 m, north of the ridge)
--   ridge    a mountain ridge right across the map, centre
--            y = 192 + 6 sin(x/29), 9 to 13 m thick; its top is a plateau at
--            10 m ('M') with no way up. The valley around it is capped at
--            4.5 m (and is at most 4 m next to it), so the ridge is a cliff of
--            more than 5.5 m on both sides: too high to climb, too high to
--            drop from. The river cuts through it in a gorge (swimmers
--            only). Three passes cross it at valley level, straight
--            north-south slots between cliffs, sized for the classes'
--            widths (2 x radius) with at least 0.5 m to spare either way:
--              pass_west    x 38-39   (2 m: humans and infantry)
--              pass_middle  x 84-86   (3 m: and cavalry, 2.5 m wide)
--              pass_east    x 196-201 (6 m: and siege engines, 3.5 m wide)
--   town     a walled town on the west bank, x 34-89, y 84-131, flat at 0 m.
--            Wall 'W' 2 m thick with four 6 m gates 'G' (marked as cluster
--            portals): north and south gates at x 59-64, west and east gates
--            at y 105-110. Main streets (8 m) join the gates and cross at
--            the square (x 54-69, y 100-115); a 4 m lane runs inside the
--            wall; houses 'B' (7 x 5-6 m) stand in rows with 3 m alleys
--            (cavalry fits, siege does not).
--   hills    value noise, smoothed and cut into height bands of 0.25 m
--            ('0'..'9', 'a'..'i' = 0 to 4.5 m) so that neighbouring cells,
--            diagonals included, differ by one band at most: every hill is
--            walkable (0.25 m steps, 14 degrees). Flat within 10 m of the
--            river and around the town.
--   forests  clusters of trees 'T' (solid cells), dense in their cores and
--            thinner at the edges, so infantry slips through where cavalry
--            and siege go round. Kept clear of the river banks, the town,
--            the passes, the fords, spawns and goals.
--
-- Spawns: team 1 south-west (x 20-26, y 40-46), team 2 east (x 232-238,
-- y 150-156). Goals: town_square, relic_north (north-west, past the
-- ridge), mine_east (north-east, past the ridge), camp_east (x 228, y 95),
-- hill_crest (the first of the highest cells east of the river and south
-- of the ridge, found by the generator: x 184, y 4, 4.5 m).
--
-- Classes: human (always there), infantry, cavalry and siege; see the end
-- of the file.
--
-- Cost: about 51 million Lua instructions, 0.4 s and under 3 MiB, well
-- inside the sandbox's 200 million instructions and 64 MiB.

local W, H = 256, 256
local floor, sin, max, min, abs, sqrt = math.floor, math.sin, math.max, math.min, math.abs, math.sqrt

-- {======= noise: integer hash -> [0, 1), value noise, fractal sum =======

local function hash(ix, iy, seed)
  local h = ix * 374761393 + iy * 668265263 + seed * 1442695041
  h = (h ~ (h >> 13)) * 1274126177
  h = h ~ (h >> 16)
  return (h & 0xffffff) / 0x1000000
end

local function smooth(t) return t * t * (3 - 2 * t) end

local function vnoise(x, y, scale, seed)
  local fx, fy = x / scale, y / scale
  local ix, iy = floor(fx), floor(fy)
  local tx, ty = smooth(fx - ix), smooth(fy - iy)
  local a, b = hash(ix, iy, seed), hash(ix + 1, iy, seed)
  local c, d = hash(ix, iy + 1, seed), hash(ix + 1, iy + 1, seed)
  local top = a + (b - a) * tx
  local bottom = c + (d - c) * tx
  return top + (bottom - top) * ty
end

local function fbm(x, y)
  return 0.55 * vnoise(x, y, 48, 1) + 0.30 * vnoise(x, y, 24, 2) + 0.15 * vnoise(x, y, 12, 3)
end

local function clamp01(v) return v < 0 and 0 or (v > 1 and 1 or v) end

-- }=======

-- {======= the features' shapes =======

local function river_x(y) return 128 + 16 * sin(y / 31) + 7 * sin(y / 13 + 1.3) end
local function river_hw(y) return 5 + 1.5 * sin(y / 19) end -- half width

local FORDS = {
  { name = "ford_south", y0 = 40, y1 = 47 },
  { name = "ford_middle", y0 = 118, y1 = 124 },
  { name = "ford_north", y0 = 222, y1 = 227 },
}
local function ford_at(y)
  for _, f in ipairs(FORDS) do
    if y >= f.y0 and y <= f.y1 then return f end
  end
end

local function ridge_y(x) return 192 + 6 * sin(x / 29) end
local function ridge_hw(x) return 4 + floor(2.99 * vnoise(x, 0, 9, 11)) end -- 4..6
local PASSES = {
  { name = "pass_west", x0 = 38, x1 = 39 },     -- 2 m
  { name = "pass_middle", x0 = 84, x1 = 86 },   -- 3 m
  { name = "pass_east", x0 = 196, x1 = 201 },   -- 6 m
}
local function in_pass(x)
  for _, p in ipairs(PASSES) do
    if x >= p.x0 and x <= p.x1 then return p end
  end
end

-- Per row and per column, computed once.
local RX, RHW, FORD = {}, {}, {}   -- by y: river centre, half width, ford
for y = 0, H - 1 do RX[y], RHW[y], FORD[y] = river_x(y), river_hw(y), ford_at(y) end
local RY, RYW, PASS = {}, {}, {}   -- by x: ridge centre, half thickness, pass
for x = 0, W - 1 do RY[x], RYW[x], PASS[x] = ridge_y(x), ridge_hw(x), in_pass(x) or false end

local TOWN = { x0 = 34, y0 = 84, x1 = 89, y1 = 131, wall = 2 }
local GATE_X0, GATE_X1 = 59, 64   -- north and south gates, main street N-S
local GATE_Y0, GATE_Y1 = 105, 110 -- west and east gates, main street E-W
local SQUARE = { x0 = 54, y0 = 100, x1 = 69, y1 = 115 }

local function town_dist(x, y)
  local dx = max(TOWN.x0 - x, 0, x - TOWN.x1)
  local dy = max(TOWN.y0 - y, 0, y - TOWN.y1)
  return sqrt(dx * dx + dy * dy)
end

-- House columns and rows (inclusive cell ranges).
local HOUSE_X = { { 40, 46 }, { 50, 56 }, { 67, 73 }, { 77, 83 } }
local HOUSE_Y = { { 90, 95 }, { 99, 103 }, { 112, 117 }, { 121, 125 } }

-- Streets, the square and the 4 m lane inside the wall: never built on.
local function town_street(x, y)
  local t = TOWN
  local ex, ey = min(x - t.x0, t.x1 - x), min(y - t.y0, t.y1 - y)
  return ex < t.wall + 4 or ey < t.wall + 4
      or (x >= GATE_X0 - 1 and x <= GATE_X1 + 1)
      or (y >= GATE_Y0 - 1 and y <= GATE_Y1 + 1)
      or (x >= SQUARE.x0 - 1 and x <= SQUARE.x1 + 1 and y >= SQUARE.y0 - 1 and y <= SQUARE.y1 + 1)
end

-- What the town puts in a cell inside its rectangle: "W" wall, "G" gate,
-- "B" house, "0" street or square.
local function town_cell(x, y)
  local t = TOWN
  local ex = min(x - t.x0, t.x1 - x)   -- distance in from the west/east wall
  local ey = min(y - t.y0, t.y1 - y)
  if ex < t.wall or ey < t.wall then
    if ey < t.wall and ex >= t.wall and x >= GATE_X0 and x <= GATE_X1 then return "G" end
    if ex < t.wall and ey >= t.wall and y >= GATE_Y0 and y <= GATE_Y1 then return "G" end
    return "W"
  end
  -- houses on a grid of lots between the streets, 3 m alleys between
  -- them; a lot is left empty (a yard) now and then, and no house touches
  -- a street or the square
  for _, xs in ipairs(HOUSE_X) do
    if x >= xs[1] and x <= xs[2] then
      for _, ys in ipairs(HOUSE_Y) do
        if y >= ys[1] and y <= ys[2] then
          if hash(xs[1], ys[1], 21) < 0.1 then return "0" end
          for _, cx in ipairs({ xs[1], xs[2] }) do
            for _, cy in ipairs({ ys[1], ys[2] }) do
              if town_street(cx, cy) then return "0" end
            end
          end
          return "B"
        end
      end
    end
  end
  return "0"
end

-- }=======

-- {======= heights: bands of 0.25 m, smoothed so neighbours differ by one =======

local BAND, MAX_BAND = 0.25, 18
local level = {} -- level[y * W + x + 1]
for y = 0, H - 1 do
  local rx, rhw = RX[y], RHW[y]
  for x = 0, W - 1 do
    local dr = abs(x - rx) - rhw
    local mask = smooth(clamp01((dr - 10) / 30)) * smooth(clamp01(town_dist(x, y) / 20))
    local h = mask > 0 and 6.5 * clamp01((fbm(x, y) - 0.3) / 0.55) * mask or 0
    level[y * W + x + 1] = min(MAX_BAND, floor(h / BAND))
  end
end
-- Two chamfer sweeps: level(p) = min over q of level(q) + chebyshev(p, q).
-- Only lowers cells, so the flat town and banks stay flat.
for y = 0, H - 1 do
  for x = 0, W - 1 do
    local i = y * W + x + 1
    local v = level[i]
    if x > 0 then v = min(v, level[i - 1] + 1) end
    if y > 0 then
      v = min(v, level[i - W] + 1)
      if x > 0 then v = min(v, level[i - W - 1] + 1) end
      if x < W - 1 then v = min(v, level[i - W + 1] + 1) end
    end
    level[i] = v
  end
end
for y = H - 1, 0, -1 do
  for x = W - 1, 0, -1 do
    local i = y * W + x + 1
    local v = level[i]
    if x < W - 1 then v = min(v, level[i + 1] + 1) end
    if y < H - 1 then
      v = min(v, level[i + W] + 1)
      if x > 0 then v = min(v, level[i + W - 1] + 1) end
      if x < W - 1 then v = min(v, level[i + W + 1] + 1) end
    end
    level[i] = v
  end
end

-- }=======

-- {======= cells =======

local BANDS = "0123456789abcdefghi" -- band k is BANDS[k + 1], h = 0.25 k
local cell = {}                     -- cell[y * W + x + 1] = legend character

for y = 0, H - 1 do
  local rx, rhw = RX[y], RHW[y]
  local ford = FORD[y]
  for x = 0, W - 1 do
    local i = y * W + x + 1
    local ch
    local dx = abs(x - rx)
    if dx <= rhw then
      if ford then
        ch = (dx > rhw - 1) and ";" or ","
      else
        ch = "~"
      end
    elseif abs(y - RY[x]) <= RYW[x] and not PASS[x] then
      ch = "M"
    elseif x >= TOWN.x0 and x <= TOWN.x1 and y >= TOWN.y0 and y <= TOWN.y1 then
      ch = town_cell(x, y)
    else
      local k = level[i]
      ch = BANDS:sub(k + 1, k + 1)
    end
    cell[i] = ch
  end
end

-- }=======

-- {======= spawns, goals, and the highest hill east of the river =======

local function cell_centre(x, y) return { x + 0.5, y + 0.5 } end

local crest_x, crest_y, crest_k = 200, 100, -1
for y = 4, 165 do
  for x = 165, 250 do
    local k = level[y * W + x + 1]
    if cell[y * W + x + 1] ~= "M" and k > crest_k then crest_x, crest_y, crest_k = x, y, k end
  end
end

local SPAWNS = {
  { name = "t1_a", team = 1, x = 20, y = 40, yaw = 0 },
  { name = "t1_b", team = 1, x = 26, y = 40, yaw = 0 },
  { name = "t1_c", team = 1, x = 20, y = 46, yaw = 0 },
  { name = "t2_a", team = 2, x = 238, y = 156, yaw = 180 },
  { name = "t2_b", team = 2, x = 232, y = 156, yaw = 180 },
  { name = "t2_c", team = 2, x = 238, y = 150, yaw = 180 },
}
local GOALS = {
  { name = "town_square", item = "flag", x = 61, y = 107 },
  { name = "relic_north", item = "relic", x = 60, y = 232 },
  { name = "mine_east", item = "gold", x = 214, y = 226 },
  { name = "camp_east", item = "supplies", x = 228, y = 95 },
  { name = "hill_crest", item = "watchtower", x = crest_x, y = crest_y },
}

-- }=======

-- {======= forests =======

local function near_any(x, y, list, r)
  for _, p in ipairs(list) do
    local dx, dy = x - p.x, y - p.y
    if dx * dx + dy * dy <= r * r then return true end
  end
  return false
end

local is_band = {}
for k = 1, #BANDS do is_band[BANDS:sub(k, k)] = true end
local function pass_near(x) return PASS[x] or PASS[max(x - 6, 0)] or PASS[min(x + 6, W - 1)] end
for y = 0, H - 1 do
  local rx, rhw = RX[y], RHW[y]
  for x = 0, W - 1 do
    local i = y * W + x + 1
    local ch = cell[i]
    if is_band[ch] then
      local f = (vnoise(x, y, 20, 7) * 2 + vnoise(x, y, 9, 8)) / 3
      if f > 0.6 then
        local clear = abs(x - rx) - rhw < 8
            or town_dist(x, y) < 6
            or abs(y - RY[x]) < RYW[x] + 3
            or pass_near(x) and abs(y - RY[x]) < 16
            or near_any(x, y, SPAWNS, 14)
            or near_any(x, y, GOALS, 5)
        if not clear then
          for _, fd in ipairs(FORDS) do
            if y >= fd.y0 - 12 and y <= fd.y1 + 12 and abs(x - rx) < rhw + 14 then clear = true end
          end
        end
        local density = f > 0.68 and 0.7 or 0.35
        if not clear and hash(x, y, 9) < density then cell[i] = "T" end
      end
    end
  end
end

-- }=======

-- {======= rows, north first =======

local rows = {}
local line = {}
for r = 1, H do
  local y = H - r
  for x = 0, W - 1 do line[x + 1] = cell[y * W + x + 1] end
  rows[r] = table.concat(line)
end

local legend = {
  ["~"] = { type = "water", h = -0.1, depth = 2.0 },   -- river: swim only
  [","] = { type = "water", h = -0.1, depth = 0.4 },   -- ford: wade
  [";"] = { type = "water", h = -0.1, depth = 0.25 },  -- ford shoal at the banks
  ["M"] = { type = "floor", h = 10 },                  -- ridge top, cliffs all round
  ["T"] = "solid",                                     -- tree
  ["B"] = "solid",                                     -- house
  ["W"] = "solid",                                     -- town wall
  ["G"] = { type = "floor", portal = true },           -- town gate
}
for k = 0, MAX_BAND do legend[BANDS:sub(k + 1, k + 1)] = { type = "floor", h = k * BAND } end

local entities = {}
for _, s in ipairs(SPAWNS) do
  entities[#entities + 1] = { type = "spawn", name = s.name, team = s.team, yaw = s.yaw, pos = cell_centre(s.x, s.y) }
end
for _, g in ipairs(GOALS) do
  entities[#entities + 1] = { type = "goal", name = g.name, item = g.item, pos = cell_centre(g.x, g.y) }
end

-- }=======

return {
  name = "valley",
  description = "256 x 256 m RTS valley: river with three fords, ridge with three passes, walled town, hills, forests",
  cell_size = 1.0,
  legend = legend,
  layers = { { name = "ground", z = 0, rows = rows } },
  entities = entities,
  -- Widths (2 x radius) are picked against the 1 m grid: every pass,
  -- gate, street and alley is a whole number of metres, so a class is
  -- either 0.5 m narrower than a gap or 0.5 m wider, never a tight fit:
  -- infantry 1 m, cavalry 2.5 m, siege 3.5 m.
  classes = {
    -- foot soldiers: a little wider than a human, no ladders
    { name = "infantry", radius = 0.5, height = 1.8, run_speed = 5, ladder_speed = 0 },
    -- riders: wide and fast, no crouching, climbing or ladders; horses swim
    -- slowly and ford up to 0.8 m
    { name = "cavalry", radius = 1.25, height = 2.4, crouch_height = 0, step = 0.45, barrier_jump = 1.0,
      climb = 0, max_fall = 2.0, jump_gap = 2.0, max_slope = 35, wade_depth = 0.8, run_speed = 12,
      crouch_speed = 0, swim_speed = 1.5, ladder_speed = 0 },
    -- siege engines: wide and slow, small steps, no jumping, climbing,
    -- crouching, swimming or ladders; they cross the river only at fords
    { name = "siege", radius = 1.75, height = 3.0, crouch_height = 0, step = 0.35, barrier_jump = 0.35,
      climb = 0, max_fall = 0.5, jump_gap = 0, max_slope = 20, wade_depth = 0.5, run_speed = 2,
      crouch_speed = 0, swim_speed = 0, ladder_speed = 0 },
  },
}

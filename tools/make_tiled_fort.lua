-- make_tiled_fort.lua: writes maps/tiled/, the bundled Tiled map "fort",
-- in both of the formats navbot reads from Tiled:
--   fort.tmj             the map as Tiled saves JSON (tile layers in CSV, the
--                        roof in uncompressed base64), its tileset external
--   cells.tsj            that tileset (JSON), with cells.png, its picture
--   fort.lua             the same map as Tiled's Lua export writes it (the
--                        tileset embedded, properties as name = value)
--   fort.tiled-project   the project Tiled opens the folder with
-- Run from the repository's root: lua5.4 tools/make_tiled_fort.lua
--
-- The fort is 32 x 24 cells of 0.5 m (16 x 12 m), 16-pixel tiles, three
-- storeys. Tiled's row 0 is the north edge; cell (col, row) covers
-- x = col*0.5 .. +0.5 and y = (23 - row)*0.5 .. +0.5.
--   ground  z 0  west hall (cols 1-14, rows 1-13), vault (cols 1-14,
--                rows 15-22, sealed), east hall (cols 16-30, rows 1-22);
--                the halls meet through a door (col 15, rows 8-10, a
--                portal, lintel above) and a crouch tunnel (col 15,
--                rows 4-6, 1.4 m).
--   upper   z 4  (a layer property) a gallery along the north wall, cols
--                1-27, rows 1-3 (the loft's end, cols 1-14, reaches row
--                4): up the ladder (cols 2-4, row 5, leaning north on the
--                wall under the loft) or the lift.
--   roof    z 8  (the layer order, storey_height 4) a deck, cols 24-27,
--                rows 1-3, reached only by the lift.
-- Lift: shaft cols 28-30, rows 1-3, stops 0, 4 and 8. Teleporters: the
-- west hall's pad (cols 10-11, rows 10-11) sends to the point object
-- arrive_vault in the vault; the vault's pad (cols 12-13, rows 20-21) to
-- the mark west_arrival (col 7, row 11). Jump pad: cols 18-19, rows
-- 18-19, to the goal on the perch (cols 27-30, rows 19-22, h 3; drop
-- back down). Water: a pool, cols 20-25, rows 12-16. Also a dais (h 0.4),
-- a clip strip, lava, slime, a void pit and a crate.

local W, H, T = 32, 24, 16

-- {======= the tileset =======

-- Local id -> class, properties (in the order written), colour.
local TILES = {
  [0] = { class = "floor", colour = { 200, 200, 190 } },
  [1] = { class = "solid", colour = { 70, 60, 60 } },
  [2] = { class = "water", props = { { "h", "float", -0.5 }, { "depth", "float", 1.5 } }, colour = { 60, 110, 220 } },
  [3] = { class = "ladder", props = { { "top", "float", 4 }, { "face", "string", "north" } }, colour = { 150, 100, 40 } },
  [4] = { class = "floor", props = { { "ceiling", "float", 1.4 } }, colour = { 150, 150, 120 } },
  [5] = { class = "floor", props = { { "portal", "bool", true } }, colour = { 220, 190, 120 } },
  [6] = { class = "floor", props = { { "h", "float", 3 } }, colour = { 120, 170, 110 } },
  [7] = { class = "floor", props = { { "h", "float", 0.4 } }, colour = { 170, 190, 150 } },
  [8] = { class = "lava", props = { { "h", "float", -0.1 }, { "depth", "float", 0.3 } }, colour = { 230, 80, 20 } },
  [9] = { class = "slime", props = { { "h", "float", -0.1 }, { "depth", "float", 0.3 } }, colour = { 120, 200, 40 } },
  [10] = { class = "clip", colour = { 200, 120, 200 } },
  [11] = { class = "void", colour = { 10, 10, 10 } },
  -- No class: the kind comes from a property.
  [12] = { props = { { "type", "string", "floor" }, { "mark", "string", "west_arrival" } }, colour = { 240, 240, 120 } },
}
local TILECOUNT, COLUMNS = 16, 4

-- }=======

-- {======= the storeys (gids: local id + 1; 0 = empty) =======

local function grid(fill)
  local g = {}
  for r = 0, H - 1 do
    g[r] = {}
    for c = 0, W - 1 do g[r][c] = fill end
  end
  return g
end

local function box(g, c0, c1, r0, r1, tile)
  for r = r0, r1 do
    for c = c0, c1 do g[r][c] = tile + 1 end
  end
end

local FLOOR, WALL, WATER, LADDER, CROUCH, DOOR, PERCH, DAIS, LAVA, SLIME, CLIP, VOID, ARRIVAL =
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12

local ground = grid(WALL + 1)
box(ground, 1, 14, 1, 13, FLOOR)       -- west hall
box(ground, 1, 5, 1, 4, WALL)          -- the wall the ladder leans on
box(ground, 2, 4, 5, 5, LADDER)
box(ground, 6, 8, 7, 7, CLIP)
box(ground, 1, 2, 12, 13, LAVA)
box(ground, 7, 7, 11, 11, ARRIVAL)
box(ground, 1, 14, 15, 22, FLOOR)      -- vault
box(ground, 16, 30, 1, 22, FLOOR)      -- east hall
box(ground, 15, 15, 8, 10, DOOR)
box(ground, 15, 15, 4, 6, CROUCH)
box(ground, 20, 25, 12, 16, WATER)
box(ground, 20, 22, 5, 7, DAIS)
box(ground, 27, 28, 8, 9, VOID)
box(ground, 29, 30, 13, 14, SLIME)
box(ground, 27, 30, 19, 22, PERCH)

local upper = grid(0)
box(upper, 1, 27, 1, 3, FLOOR)        -- gallery
box(upper, 1, 14, 4, 4, FLOOR)        -- the loft's end over the wall
box(upper, 15, 15, 8, 10, WALL)       -- lintel over the door

local roof = grid(0)
box(roof, 24, 27, 1, 3, FLOOR)

-- }=======

-- {======= objects =======

-- Pixel helpers: the corner of cell (c, r), a point in its middle.
local function px(c) return c * T end
local function mid(c) return c * T + T / 2 end

-- { id, name, class, shape, x, y, w, h, props = { {name, type, value} } }
local OBJECTS = {
  ground = {
    { id = 1, name = "spawn_west", type = "spawn", shape = "point", x = mid(3), y = mid(10),
      props = { { "team", "int", 1 }, { "yaw", "float", 0 } } },
    { id = 2, name = "spawn_east", type = "spawn", shape = "point", x = mid(26), y = mid(6),
      props = { { "team", "int", 2 }, { "yaw", "float", 180 } } },
    { id = 3, name = "door_halls", type = "door", x = px(15), y = px(8), w = T, h = 3 * T,
      props = { { "height", "float", 3 } } },
    { id = 4, name = "crate", type = "crate", x = px(17), y = px(15), w = 2 * T, h = 2 * T,
      props = { { "mass", "float", 40 } } },
    { id = 5, name = "tele_west", type = "teleporter", x = px(10), y = px(10), w = 2 * T, h = 2 * T,
      props = { { "dest", "object", 6 }, { "dest_yaw", "float", 0 } } },
    { id = 6, name = "arrive_vault", shape = "point", x = mid(8), y = mid(18) },
    { id = 7, name = "tele_vault", type = "teleporter", x = px(12), y = px(20), w = 2 * T, h = 2 * T,
      props = { { "dest", "string", "west_arrival" } } },
    { id = 8, name = "pad", type = "jump_pad", x = px(18), y = px(18), w = 2 * T, h = 2 * T,
      props = { { "target", "object", 11 }, { "apex", "float", 2 } } },
    { id = 9, name = "lift", type = "elevator", x = px(28), y = px(1), w = 3 * T, h = 3 * T,
      props = { { "stops", "string", "0, 4, 8" }, { "speed", "float", 2 }, { "wait", "float", 2 } } },
    { id = 10, name = "goal_hall", type = "goal", shape = "point", x = mid(23), y = mid(19),
      props = { { "item", "string", "health" } } },
    { id = 11, name = "goal_perch", type = "goal", shape = "point", x = px(29), y = px(21),
      props = { { "item", "string", "flag" } } },
    { id = 12, name = "goal_vault", type = "goal", x = px(2), y = px(19), w = 2 * T, h = 2 * T,
      props = { { "item", "string", "armour" } } },
  },
  upper = {
    { id = 13, name = "goal_loft", type = "goal", shape = "point", x = mid(11), y = mid(2) },
  },
  roof = {
    { id = 14, name = "goal_roof", type = "goal", shape = "point", x = px(26), y = px(2),
      props = { { "item", "string", "flag" }, { "z", "float", 8 } } },
  },
}

local MAP_PROPS = {
  { "name", "string", "fort" },
  { "description", "string", "A small fort drawn in Tiled: three storeys, a door, a crouch tunnel, water, a ladder, a lift, teleporters, a jump pad and a crate" },
  { "author", "string", "navbot" },
  { "cell_size", "float", 0.5 },
  { "gravity", "float", 20 },
  { "storey_height", "float", 4 },
  { "class.dog.radius", "float", 0.3 },
  { "class.dog.height", "float", 0.7 },
  { "class.dog.crouch_height", "float", 0.5 },
  { "class.dog.climb", "float", 0 },
  { "class.dog.ladder_speed", "float", 0 },
}

-- }=======

-- {======= writing JSON =======

local function num(v)
  if math.type(v) == "integer" or v == math.floor(v) then return string.format("%d", math.floor(v)) end
  return string.format("%.14g", v)
end

local function jstr(s) return '"' .. s:gsub('[%c"\\]', function(ch) return string.format("\\u%04x", ch:byte()) end) .. '"' end

local function jvalue(ty, v)
  if ty == "string" then return jstr(v) end
  if ty == "bool" then return v and "true" or "false" end
  return num(v)
end

local function jprops(props, indent)
  if not props or #props == 0 then return nil end
  local out = {}
  for _, p in ipairs(props) do
    out[#out + 1] = string.format('%s {\n%s  "name":%s,\n%s  "type":"%s",\n%s  "value":%s\n%s }', indent, indent,
      jstr(p[1]), indent, p[2], indent, jvalue(p[2], p[3]), indent)
  end
  return "[\n" .. table.concat(out, ",\n") .. "\n" .. indent .. "]"
end

local function flat(g)
  local d = {}
  for r = 0, H - 1 do
    for c = 0, W - 1 do d[#d + 1] = g[r][c] end
  end
  return d
end

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

local function base64(bytes)
  local out = {}
  for i = 1, #bytes, 3 do
    local a, b, c = bytes:byte(i, i + 2)
    local n = (a << 16) | ((b or 0) << 8) | (c or 0)
    out[#out + 1] = B64:sub((n >> 18) + 1, (n >> 18) + 1) .. B64:sub(((n >> 12) & 63) + 1, ((n >> 12) & 63) + 1) ..
      (b and B64:sub(((n >> 6) & 63) + 1, ((n >> 6) & 63) + 1) or "=") .. (c and B64:sub((n & 63) + 1, (n & 63) + 1) or "=")
  end
  return table.concat(out)
end

local function csv(g)
  local rows = {}
  for r = 0, H - 1 do
    local row = {}
    for c = 0, W - 1 do row[#row + 1] = tostring(g[r][c]) end
    rows[#rows + 1] = table.concat(row, ",")
  end
  return table.concat(rows, ",\n")
end

local function json_tile_layer(id, name, g, props, b64)
  local parts = { "  {" }
  if b64 then
    local bytes = {}
    for _, v in ipairs(flat(g)) do bytes[#bytes + 1] = string.pack("<I4", v) end
    parts[#parts + 1] = '   "compression":"",\n   "data":"' .. base64(table.concat(bytes)) .. '",\n   "encoding":"base64",'
  else
    parts[#parts + 1] = '   "data":[' .. csv(g) .. '],'
  end
  parts[#parts + 1] = string.format('   "height":%d,\n   "id":%d,\n   "name":%s,\n   "opacity":1,', H, id, jstr(name))
  local p = jprops(props, "   ")
  if p then parts[#parts + 1] = '   "properties":' .. p .. "," end
  parts[#parts + 1] = string.format('   "type":"tilelayer",\n   "visible":true,\n   "width":%d,\n   "x":0,\n   "y":0\n  }', W)
  return table.concat(parts, "\n")
end

local function json_object(o)
  local f = {}
  f[#f + 1] = string.format('"height":%s', num(o.h or 0))
  f[#f + 1] = string.format('"id":%d', o.id)
  f[#f + 1] = string.format('"name":%s', jstr(o.name))
  if o.shape == "point" then f[#f + 1] = '"point":true' end
  local p = jprops(o.props, "      ")
  if p then f[#f + 1] = '"properties":' .. p end
  f[#f + 1] = '"rotation":0'
  f[#f + 1] = string.format('"type":%s', jstr(o.type or ""))
  f[#f + 1] = '"visible":true'
  f[#f + 1] = string.format('"width":%s', num(o.w or 0))
  f[#f + 1] = string.format('"x":%s', num(o.x))
  f[#f + 1] = string.format('"y":%s', num(o.y))
  return "     {\n      " .. table.concat(f, ",\n      ") .. "\n     }"
end

local function json_object_layer(id, name, objects)
  local list = {}
  for _, o in ipairs(objects) do list[#list + 1] = json_object(o) end
  return string.format('  {\n   "draworder":"topdown",\n   "id":%d,\n   "name":%s,\n   "objects":[\n%s\n   ],\n' ..
    '   "opacity":1,\n   "type":"objectgroup",\n   "visible":true,\n   "x":0,\n   "y":0\n  }', id, jstr(name),
    table.concat(list, ",\n"))
end

local function json_tiles()
  local out = {}
  for id = 0, TILECOUNT - 1 do
    local t = TILES[id]
    if t then
      local f = { string.format('"id":%d', id) }
      local p = jprops(t.props, "   ")
      if p then f[#f + 1] = '"properties":' .. p end
      if t.class then f[#f + 1] = string.format('"type":%s', jstr(t.class)) end
      out[#out + 1] = "  {\n   " .. table.concat(f, ",\n   ") .. "\n  }"
    end
  end
  return "[\n" .. table.concat(out, ",\n") .. "\n ]"
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  print("wrote " .. path)
end

-- }=======

-- {======= the picture: a PNG of solid squares, stored (not deflated) =======

local CRC = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do c = (c & 1) ~= 0 and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  CRC[i] = c
end

local function crc32(s)
  local c = 0xFFFFFFFF
  for i = 1, #s do c = CRC[(c ~ s:byte(i)) & 0xFF] ~ (c >> 8) end
  return c ~ 0xFFFFFFFF
end

local function adler32(s)
  local a, b = 1, 0
  for i = 1, #s do
    a = (a + s:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end

local function chunk(kind, data)
  return string.pack(">I4", #data) .. kind .. data .. string.pack(">I4", crc32(kind .. data))
end

local function png(w, h, pixel)
  local rows = {}
  for y = 0, h - 1 do
    local row = { "\0" }
    for x = 0, w - 1 do row[#row + 1] = string.char(table.unpack(pixel(x, y))) end
    rows[#rows + 1] = table.concat(row)
  end
  local raw = table.concat(rows)
  local blocks, i = {}, 1
  repeat
    local part = raw:sub(i, i + 65534)
    i = i + #part
    local last = i > #raw and 1 or 0
    blocks[#blocks + 1] = string.pack("<B I2 I2", last, #part, (~#part) & 0xFFFF) .. part
  until i > #raw
  local z = "\x78\x01" .. table.concat(blocks) .. string.pack(">I4", adler32(raw))
  return "\137PNG\r\n\26\n" .. chunk("IHDR", string.pack(">I4 I4 B B B B B", w, h, 8, 2, 0, 0, 0)) ..
    chunk("IDAT", z) .. chunk("IEND", "")
end

local function tile_pixel(x, y)
  local id = (y // T) * COLUMNS + (x // T)
  local t = TILES[id]
  local c = t and t.colour or { 255, 0, 255 }
  local lx, ly = x % T, y % T
  if lx == 0 or ly == 0 then return { c[1] // 2, c[2] // 2, c[3] // 2 } end -- a darker edge
  if id == LADDER and (ly % 4 == 0 or lx == 3 or lx == 12) then return { 90, 50, 10 } end
  return c
end

-- }=======

-- {======= Lua export =======

local function lvalue(ty, v)
  if ty == "string" then return string.format("%q", v) end
  if ty == "bool" then return v and "true" or "false" end
  if ty == "object" then return string.format("{ id = %d }", v) end
  return num(v)
end

local function lprops(props, indent)
  if not props or #props == 0 then return "{}" end
  local out = {}
  for _, p in ipairs(props) do out[#out + 1] = string.format('%s  [%q] = %s', indent, p[1], lvalue(p[2], p[3])) end
  return "{\n" .. table.concat(out, ",\n") .. "\n" .. indent .. "}"
end

local function lua_tile_layer(id, name, g, props, indent)
  local rows = {}
  for r = 0, H - 1 do
    local row = {}
    for c = 0, W - 1 do row[#row + 1] = tostring(g[r][c]) end
    rows[#rows + 1] = indent .. "    " .. table.concat(row, ", ")
  end
  return string.format([[%s{
%s  type = "tilelayer",
%s  x = 0,
%s  y = 0,
%s  width = %d,
%s  height = %d,
%s  id = %d,
%s  name = %q,
%s  visible = true,
%s  opacity = 1,
%s  offsetx = 0,
%s  offsety = 0,
%s  parallaxx = 1,
%s  parallaxy = 1,
%s  properties = %s,
%s  encoding = "lua",
%s  data = {
%s
%s  }
%s}]], indent, indent, indent, indent, indent, W, indent, H, indent, id, indent, name, indent, indent, indent, indent,
    indent, indent, indent, lprops(props, indent .. "  "), indent, indent, table.concat(rows, ",\n"), indent, indent)
end

local function lua_object(o, indent)
  return string.format([[%s{
%s  id = %d,
%s  name = %q,
%s  type = %q,
%s  shape = %q,
%s  x = %s,
%s  y = %s,
%s  width = %s,
%s  height = %s,
%s  rotation = 0,
%s  visible = true,
%s  properties = %s
%s}]], indent, indent, o.id, indent, o.name, indent, o.type or "", indent, o.shape or "rectangle", indent, num(o.x),
    indent, num(o.y), indent, num(o.w or 0), indent, num(o.h or 0), indent, indent, indent,
    lprops(o.props, indent .. "  "), indent)
end

local function lua_object_layer(id, name, objects, indent)
  local list = {}
  for _, o in ipairs(objects) do list[#list + 1] = lua_object(o, indent .. "    ") end
  return string.format([[%s{
%s  type = "objectgroup",
%s  draworder = "topdown",
%s  id = %d,
%s  name = %q,
%s  visible = true,
%s  opacity = 1,
%s  offsetx = 0,
%s  offsety = 0,
%s  parallaxx = 1,
%s  parallaxy = 1,
%s  properties = {},
%s  objects = {
%s
%s  }
%s}]], indent, indent, indent, indent, id, indent, name, indent, indent, indent, indent, indent, indent, indent, indent,
    table.concat(list, ",\n"), indent, indent)
end

local function lua_tiles()
  local out = {}
  for id = 0, TILECOUNT - 1 do
    local t = TILES[id]
    if t then
      out[#out + 1] = string.format('        {\n          id = %d,\n          type = %q,\n          properties = %s\n        }',
        id, t.class or "", lprops(t.props, "          "))
    end
  end
  return table.concat(out, ",\n")
end

-- }=======

local DIR = "maps/tiled/"
local UPPER_PROPS = { { "z", "float", 4 }, { "slab", "float", 0.2 } }

write(DIR .. "cells.png", png(COLUMNS * T, (TILECOUNT // COLUMNS) * T, tile_pixel))

write(DIR .. "cells.tsj", string.format([[{ "columns":%d,
 "image":"cells.png",
 "imageheight":%d,
 "imagewidth":%d,
 "margin":0,
 "name":"cells",
 "spacing":0,
 "tilecount":%d,
 "tiledversion":"1.8.2",
 "tileheight":%d,
 "tiles":%s,
 "tilewidth":%d,
 "type":"tileset",
 "version":"1.8"
}
]], COLUMNS, (TILECOUNT // COLUMNS) * T, COLUMNS * T, TILECOUNT, T, json_tiles(), T))

local layers = {
  json_tile_layer(1, "ground", ground, nil, false),
  json_object_layer(2, "ground things", OBJECTS.ground),
  -- The first floor is a group: its layers count as if they stood here.
  string.format('  {\n   "id":3,\n   "layers":[\n%s,\n%s\n   ],\n   "name":"first floor",\n   "opacity":1,\n' ..
    '   "type":"group",\n   "visible":true,\n   "x":0,\n   "y":0\n  }',
    json_tile_layer(4, "upper", upper, UPPER_PROPS, false), json_object_layer(5, "upper things", OBJECTS.upper)),
  json_tile_layer(6, "roof", roof, nil, true),
  json_object_layer(7, "roof things", OBJECTS.roof),
}

write(DIR .. "fort.tmj", string.format([[{ "compressionlevel":-1,
 "height":%d,
 "infinite":false,
 "layers":[
%s],
 "nextlayerid":8,
 "nextobjectid":15,
 "orientation":"orthogonal",
 "properties":%s,
 "renderorder":"right-down",
 "tiledversion":"1.8.2",
 "tileheight":%d,
 "tilesets":[
  {
   "firstgid":1,
   "source":"cells.tsj"
  }],
 "tilewidth":%d,
 "type":"map",
 "version":"1.8",
 "width":%d
}
]], H, table.concat(layers, ",\n"), jprops(MAP_PROPS, " "), T, T, W))

write(DIR .. "fort.lua", string.format([[return {
  version = "1.5",
  luaversion = "5.1",
  tiledversion = "1.8.2",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = %d,
  height = %d,
  tilewidth = %d,
  tileheight = %d,
  nextlayerid = 8,
  nextobjectid = 15,
  properties = %s,
  tilesets = {
    {
      name = "cells",
      firstgid = 1,
      tilewidth = %d,
      tileheight = %d,
      spacing = 0,
      margin = 0,
      columns = %d,
      image = "cells.png",
      imagewidth = %d,
      imageheight = %d,
      objectalignment = "unspecified",
      tileoffset = {
        x = 0,
        y = 0
      },
      grid = {
        orientation = "orthogonal",
        width = %d,
        height = %d
      },
      properties = {},
      wangsets = {},
      tilecount = %d,
      tiles = {
%s
      }
    }
  },
  layers = {
%s,
%s,
    {
      type = "group",
      id = 3,
      name = "first floor",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      layers = {
%s,
%s
      }
    },
%s,
%s
  }
}
]], W, H, T, T, lprops(MAP_PROPS, "  "), T, T, COLUMNS, COLUMNS * T, (TILECOUNT // COLUMNS) * T, T, T, TILECOUNT,
  lua_tiles(), lua_tile_layer(1, "ground", ground, nil, "    "),
  lua_object_layer(2, "ground things", OBJECTS.ground, "    "),
  lua_tile_layer(4, "upper", upper, UPPER_PROPS, "        "),
  lua_object_layer(5, "upper things", OBJECTS.upper, "        "),
  lua_tile_layer(6, "roof", roof, nil, "    "),
  lua_object_layer(7, "roof things", OBJECTS.roof, "    ")))

write(DIR .. "fort.tiled-project", [[{
    "automappingRulesFile": "",
    "commands": [
    ],
    "extensionsPath": "extensions",
    "folders": [
        "."
    ],
    "propertyTypes": [
    ]
}
]])

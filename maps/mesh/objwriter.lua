-- objwriter.lua: builds a triangle mesh and writes it as Wavefront .obj
-- (with its .mtl), for the generators of the bundled mesh maps
-- (gen_house.lua, gen_terrain.lua). Plain Lua 5.4, no navbot needed.
--
-- Coordinates are navbot's: x east, y north, z up, metres. The .obj is
-- written Y-up, as the format's convention and navbot's default read it:
-- a point (x, y, z) is written as `v x z -y` (a rotation, so faces keep
-- their winding). Faces are wound counter-clockwise seen from outside.

local W = {}
W.__index = W

function W.new()
  return setmetatable({ verts = {}, index = {}, faces = {}, materials = {}, material = nil, tris = 0 }, W)
end

-- The index of a vertex, shared by every face that uses the same point.
function W:vertex(x, y, z)
  local key = string.format("%.4f %.4f %.4f", x, z, -y)
  local i = self.index[key]
  if not i then
    self.verts[#self.verts + 1] = key
    i = #self.verts
    self.index[key] = i
  end
  return i
end

-- Faces from here on are of material `name` (`colour`: r, g, b for viewers).
function W:use(name, r, g, b)
  if not self.materials[name] then
    self.materials[name] = { r or 0.7, g or 0.7, b or 0.7 }
    self.materials[#self.materials + 1] = name
  end
  self.material = name
end

-- A polygon of points {x, y, z}, counter-clockwise seen from outside.
function W:face(pts)
  local idx = {}
  for i, p in ipairs(pts) do idx[i] = self:vertex(p[1], p[2], p[3]) end
  self.faces[#self.faces + 1] = { material = self.material, idx = idx }
  self.tris = self.tris + #pts - 2
end

-- An axis-aligned box. `inset` pulls its sides in from the given x and y
-- (default 0.02 m), so a box drawn on cell edges fills those cells and no
-- face lies on the edge of the next cell.
function W:box(x0, y0, z0, x1, y1, z1, inset)
  local e = inset or 0.02
  x0, y0, x1, y1 = x0 + e, y0 + e, x1 - e, y1 - e
  self:face { { x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 } } -- top
  self:face { { x0, y0, z0 }, { x0, y1, z0 }, { x1, y1, z0 }, { x1, y0, z0 } } -- bottom
  self:face { { x0, y0, z0 }, { x1, y0, z0 }, { x1, y0, z1 }, { x0, y0, z1 } } -- south
  self:face { { x1, y1, z0 }, { x0, y1, z0 }, { x0, y1, z1 }, { x1, y1, z1 } } -- north
  self:face { { x0, y1, z0 }, { x0, y0, z0 }, { x0, y0, z1 }, { x0, y1, z1 } } -- west
  self:face { { x1, y0, z0 }, { x1, y1, z0 }, { x1, y1, z1 }, { x1, y0, z1 } } -- east
end

-- Writes NAME.obj and NAME.mtl (path without the extension).
function W:write(path, header)
  local base = path:match("([^/]+)$")
  local f = assert(io.open(path .. ".obj", "w"))
  for line in (header or ""):gmatch("[^\n]+") do f:write("# ", line, "\n") end
  f:write(string.format("# %d vertices, %d faces, %d triangles\n", #self.verts, #self.faces, self.tris))
  f:write("mtllib ", base, ".mtl\n")
  f:write("o ", base, "\n")
  for _, v in ipairs(self.verts) do f:write("v ", v, "\n") end
  local current
  for _, fc in ipairs(self.faces) do
    if fc.material ~= current then
      f:write("usemtl ", fc.material, "\n")
      current = fc.material
    end
    f:write("f ", table.concat(fc.idx, " "), "\n")
  end
  f:close()
  local m = assert(io.open(path .. ".mtl", "w"))
  m:write("# materials of ", base, ".obj: colours for viewers; navbot reads only the names (the sidecar maps them)\n")
  for _, name in ipairs(self.materials) do
    local c = self.materials[name]
    m:write(string.format("newmtl %s\nKd %.3f %.3f %.3f\n", name, c[1], c[2], c[3]))
  end
  m:close()
  return self.tris
end

return W

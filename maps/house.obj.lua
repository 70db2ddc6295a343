-- house.obj.lua: the sidecar of maps/house.obj (a mesh made by
-- maps/mesh/gen_house.lua, which describes its layout). It adds what the
-- mesh does not carry: the cell size, the storeys' names, and where bots
-- start and what they go to. Coordinates are the world's: x east, y
-- north, z up, metres (the mesh is Y-up, as .obj files are).
--
--   navbot info maps/house.obj
--   navbot run maps/house.obj --bot runner
return {
  name = "house",
  description = "A two-storey house from a mesh: stairs inside, a ramp and a door outside",
  cell_size = 0.25,

  layers = {
    { name = "ground", z = 0 },
    { name = "upper", z = 3 },
    { name = "roof", z = 6 },
  },

  entities = {
    { type = "spawn", name = "spawn_yard", pos = { 8, 2 } },
    { type = "goal", name = "goal_ground", pos = { 13, 10, 0 } },    -- the ground storey, past the table
    { type = "goal", name = "goal_upper", pos = { 13, 6, 3 } },      -- the upper storey's east room
    { type = "goal", name = "goal_landing", pos = { 17, 12.5, 3 } }, -- top of the ramp, outside
    { type = "goal", name = "goal_stairs_top", pos = { 7, 9.5, 3 } }, -- the upper storey's west room, by the stairwell
  },
}

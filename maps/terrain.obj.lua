-- terrain.obj.lua: the sidecar of maps/terrain.obj (a mesh made by
-- maps/mesh/gen_terrain.lua, which describes its layout): the mesh's
-- materials, a lava pit, a ladder, the bots' start and goals, and a
-- second class. Coordinates are the world's: x east, y north, z up.
--
--   navbot info maps/terrain.obj --areas
--   navbot run maps/terrain.obj --bot runner
return {
  name = "terrain",
  description = "Slopes under and over 45 degrees, a mesa, a pond, a lava pit and a lookout, from a mesh",
  cell_size = 0.5,

  -- What the .obj's materials (usemtl) are: the pond's surface is water
  -- over the bowl under it, and treetops are not ground.
  materials = { water = "water", leaves = "ignore" },

  -- The lava pit, filled to 0.2 m under the ground round it.
  liquids = {
    { type = "lava", min = { 27.5, 3.5 }, max = { 32.5, 8.5, -0.2 } },
  },

  -- On the lookout's south face, up to its top.
  ladders = {
    { min = { 33, 31.5 }, max = { 34.5, 32, 4 }, face = "north" },
  },

  entities = {
    { type = "spawn", name = "spawn_south", pos = { 3, 3 } },
    { type = "goal", name = "goal_mesa", pos = { 29, 20 } },    -- up the ramp of earth
    { type = "goal", name = "goal_hill", pos = { 9, 31 } },     -- up the hill's 30 degree face
    { type = "goal", name = "goal_lookout", pos = { 33.5, 33.5, 4 } }, -- up the ladder
    { type = "goal", name = "goal_east", pos = { 38, 20 } },    -- round the mesa's cliffs
  },

  classes = {
    { name = "human" },
    -- A mule: wider, no crouching, climbing or ladders.
    { name = "mule", radius = 0.5, height = 1.6, crouch_height = 0, climb = 0, ladder_speed = 0 },
  },
}

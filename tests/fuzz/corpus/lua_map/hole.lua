-- hole: a short hall with a bottomless pit across it. A bot that walks
-- east from the spawn falls into the pit.
--
-- Grid: 24 x 8 cells of 0.5 m = 12 x 4 m, floor at z 0; the pit is cols
-- 12-15 (x 6-8) across the whole hall; spawn_hole at (2.25, 2.25).
return {
  name = "hole",
  description = "A hall with a bottomless pit across it",
  cell_size = 0.5,
  legend = {
    ["#"] = "solid",
    ["."] = "floor",
    ["_"] = "void",
    ["S"] = { type = "floor", mark = "spawn_hole" },
  },
  layers = {
    { name = "ground", z = 0, rows = [[
########################
#...........____.......#
#...........____.......#
#...........____.......#
#...S.......____.......#
#...........____.......#
#...........____.......#
########################
]] },
  },
  entities = {
    { type = "spawn", name = "spawn_hole", at = "spawn_hole" },
  },
}

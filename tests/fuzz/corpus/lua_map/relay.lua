-- relay: four sealed rooms in a row, joined only by teleporters: a pad in
-- room 1 sends to room 2, room 2's pad to room 3, room 3's to room 4 (the
-- goal), and a pad in room 4 back to room 1. Getting to the goal takes the
-- chain of three teleports, each arrival a few steps from the next pad.
--
-- Grid: 64 x 20 cells of 0.5 m = 32 x 10 m; rooms at cols 1-14, 16-29,
-- 31-46 and 48-62 (x 0.5-7.5, 8-15, 15.5-23.5, 24-31.5), walls between.
-- spawn_relay at (1.75, 5.25), goal_relay at (29.25, 5.25); the pads at x 5.75,
-- 13.75 and 21.75 send to x 9.25, 17.25 and 25.25 (y 5.25), the back pad at
-- (29.75, 2.25) to (2.25, 7.75).
return {
  name = "relay",
  description = "Four sealed rooms joined only by a chain of teleporters",
  cell_size = 0.5,
  legend = {
    ["1"] = { type = "floor", mark = "pad1" },
    ["2"] = { type = "floor", mark = "pad2" },
    ["3"] = { type = "floor", mark = "pad3" },
    ["4"] = { type = "floor", mark = "pad4" },
    ["a"] = { type = "floor", mark = "arrive2" },
    ["b"] = { type = "floor", mark = "arrive3" },
    ["c"] = { type = "floor", mark = "arrive4" },
    ["d"] = { type = "floor", mark = "arrive1" },
    ["S"] = { type = "floor", mark = "spawn_relay" },
    ["G"] = { type = "floor", mark = "goal_relay" },
  },
  layers = {
    { name = "ground", z = 0, rows = [[
################################################################
#..............#..............#................#...............#
#..............#..............#................#...............#
#..............#..............#................#...............#
#...d..........#..............#................#...............#
#..............#..............#................#...............#
#..............#..............#................#...............#
#..............#..............#................#...............#
#.........111..#..........222.#...........333..#...............#
#..S......111..#..a.......222.#...b.......333..#..c.......G....#
#.........111..#..........222.#...........333..#...............#
#..............#..............#................#...............#
#..............#..............#................#...............#
#..............#..............#................#...............#
#..............#..............#................#..........444..#
#..............#..............#................#..........444..#
#..............#..............#................#..........444..#
#..............#..............#................#...............#
#..............#..............#................#...............#
################################################################
]] },
  },
  entities = {
    { type = "spawn", name = "spawn_relay", at = "spawn_relay" },
    { type = "teleporter", name = "tele_1", at = "pad1", dest = "arrive2", dest_yaw = 0 },
    { type = "teleporter", name = "tele_2", at = "pad2", dest = "arrive3", dest_yaw = 0 },
    { type = "teleporter", name = "tele_3", at = "pad3", dest = "arrive4", dest_yaw = 0 },
    { type = "teleporter", name = "tele_4", at = "pad4", dest = "arrive1", dest_yaw = 0 },
    { type = "goal", name = "goal_relay", at = "goal_relay", item = "flag" },
  },
}

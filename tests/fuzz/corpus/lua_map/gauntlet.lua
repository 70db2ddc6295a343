-- gauntlet: a course that needs every travel type of the "human" class.
--
-- A bot runs from spawn_start (S1, north-west) to the flag on the perch.
-- Each section is walled off from the next, and the only link between
-- them is the feature named in the list, so a route to any goal past a
-- section must use that section's travel type:
--
--   S1 start  --door-->  S2 hall  --crouch tunnel-->  S3 west bank
--   --swim the pool, water jump out-->  S4 east bank (goal_pool)
--   --barrier jump 1.0 m-->  S5 terrace  --jump the 2.5 m void gap-->  S6
--   --climb a 2.0 m wall-->  S7 high terrace (goal_terrace)
--   --walk off a 3.0 m ledge (one way)-->  S8 yard
--   --ladder, 4 m-->  S9 loft, upper storey z = 4 (goal_loft)
--   --stairs, 16 risers of 0.25 m down-->  S10 stair hall
--   --jump pad (one way)-->  perch at 3.5 m (goal_flag), drop back to S1/S10
--   S10 --teleporter pair-->  S11 vault (sealed, roofed)
--   S11 --elevator, stops 0 and 4-->  S12 gallery, upper storey (goal_gallery)
--
-- Dropping off the perch (3.5 m, one way) into S1 closes the loop, so a
-- bot can run the course again. Going back the way it came works on every
-- two-way feature (door, tunnel, pool, terraces, gap, stairs, ladder,
-- teleporters, elevator); the ledge and the jump pad are one way.
-- Walking off the loft into the ladder's opening, or off the gallery into
-- the shaft while the lift is down, is a 4.0 m drop (exactly the human's
-- max_fall): a way down those two features, never a way up.
--
-- Grid: 80 x 60 cells of 0.5 m = 40 x 30 m. Row 0 is the north edge; a
-- cell at (col, row) covers x = col*0.5 .. col*0.5 + 0.5 and
-- y = (59 - row)*0.5 .. + 0.5. Coordinates below are "cols a-b, rows c-d"
-- (inclusive) and the same box in metres.
--
-- Two layers: "ground" (z = 0) and "upper" (z = 4). In the upper layer a
-- space is open sky over the ground room below, '#' is a roof or wall and
-- '.' is upper-storey floor (the ground under it is solid). Ground walls
-- under open sky are walls all the way up, so nothing is climbed but the
-- features. Corridors are at least 3 cells (1.5 m) wide; every room open
-- to the sky has unlimited headroom, the roofed ones (tunnel, vault) 3.8 m
-- except the crouch tunnel (1.4 m).
--
-- Sections and features:
--   S1 start room     cols 1-16, rows 1-18: x 0.5-8.5 m, y 20.5-29.5 m, floor 0.
--                     spawn_start 'A' at cols 3-4, rows 3-4. A clip strip 'x'
--                     (no-walk) at cols 6-12, rows 11-12: x 3-6.5, y 23.5-24.5.
--   door              col 17, rows 8-10: x 8.5-9 m, y 24.5-26 m; a 3-cell
--                     doorway in the S1/S2 wall (lintel at 3.8 m) closed by
--                     the door entity door_hall (3 m tall).
--   S2 hall           cols 18-37, rows 1-18: x 9-19 m, y 20.5-29.5 m, floor 0.
--                     Slime '%' in the corner cols 34-37, rows 15-18:
--                     x 17-19 m, y 20.5-22.5 m (surface 0.1 m below the floor, 0.3 deep).
--   crouch tunnel     cols 38-47, rows 8-11: x 19-24 m, y 24-26 m; 4 cells
--                     wide, 10 long, ceiling 1.4 m (roofed in the upper layer).
--   S3 west bank      cols 48-53, rows 1-18: x 24-27 m, y 20.5-29.5 m, floor 0.
--   pool              cols 54-63, rows 1-18: x 27-32 m, y 20.5-29.5 m; water
--                     from wall to wall, 5 m across (more than a 3 m jump),
--                     surface 0.7 m below both banks, 2.2 m deep: swim across
--                     and water-jump out.
--   S4 east bank      cols 64-78, rows 1-18: x 32-39.5 m, y 20.5-29.5 m, floor 0.
--                     goal_pool 'G' at cols 71-72, rows 8-9.
--   barrier jump      the S4/S5 edge, row 18 | row 19, cols 66-78 (y 20.5 m):
--                     S5 is 1.0 m above S4 (too high to step, 0.45; low enough
--                     to jump, 1.2).
--   S5 terrace        cols 66-78, rows 19-28: x 33-39.5 m, y 15.5-20.5 m, h 1.0.
--   gap               cols 66-78, rows 29-33: x 33-39.5 m, y 13-15.5 m; a
--                     bottomless void 5 cells = 2.5 m wide, wall to wall.
--   S6 terrace        cols 66-78, rows 34-42: x 33-39.5 m, y 8.5-13 m, h 1.0.
--   climb             the S6/S7 edge, row 42 | row 43, cols 66-78 (y 8.5 m):
--                     a 2.0 m wall (above the 1.2 m jump, within the 2.2 m climb).
--   S7 high terrace   cols 66-78, rows 43-58: x 33-39.5 m, y 0.5-8.5 m, h 3.0.
--                     goal_terrace 'Q' at cols 73-74, rows 52-53.
--   ledge             col 65, rows 48-53: x 32.5-33 m, y 3-6 m; a 3 m wide
--                     opening where S7 (h 3.0) drops 3.0 m into S8. One way:
--                     3.0 m is above the 2.2 m climb.
--   S8 yard           cols 44-64, rows 44-58: x 22-32.5 m, y 0.5-8 m, floor 0.
--                     spawn_yard 'Y' at cols 47-48, rows 54-55. Lava '*' in the
--                     corner cols 60-64, rows 55-58: x 30-32.5 m, y 0.5-2.5 m.
--   ladder            cols 53-55, row 44: x 26.5-28 m, y 7.5-8 m; 'H' cells
--                     leaning on the wall to their north (face north), top 4 m;
--                     over that wall (rows 41-43) the upper storey's passage
--                     leads into the loft.
--   S9 loft (upper)   cols 40-61, rows 22-40: x 20-31 m, y 9.5-19 m, z 4;
--                     passage cols 53-55, rows 41-43. goal_loft 'K' at cols
--                     50-51, rows 25-26.
--   stairs            cols 24-38, rows 30-33: x 12-19.5 m, y 13-15 m; 15 steps
--                     'a'..'o' of 0.25 m (h 0.25 at col 24 .. 3.75 at col 38),
--                     the loft landing at col 39 (z 4) and S10 at col 23 (z 0).
--                     4 cells wide between walls; the upper layer is open
--                     over the whole flight.
--   S10 stair hall    cols 1-23, rows 20-38: x 0.5-12 m, y 10.5-20 m, floor 0.
--                     spawn_hall 'B' at cols 19-20, rows 23-24.
--   jump pad          'J' cols 5-7, rows 28-30: x 2.5-4 m, y 14.5-16 m; its
--                     target is the flag mark 'P' on the perch.
--   perch             cols 4-9, rows 17-22: x 2-5 m, y 18.5-21.5 m, h 3.5;
--                     in the S1/S10 wall, reached only by the jump pad.
--                     goal_flag 'P' at cols 6-7, rows 19-20.
--   teleporters       pad tele_hall 'T' cols 12-14, rows 34-36 (x 6-7.5 m,
--                     y 11.5-13 m) in S10 sends to the arrival 'u' (col 10,
--                     row 49) in the vault; pad tele_vault 'V' cols 5-7,
--                     rows 48-50 (x 2.5-4 m, y 4.5-6 m) in S11 sends to the
--                     arrival 't' (col 17, row 35) in the hall. Each arrival
--                     cell is 2-3 cells clear of the pad beside it.
--   S11 vault         cols 1-19, rows 40-58: x 0.5-10 m, y 0.5-10 m, floor 0,
--                     roofed at 3.8 m; no door, only the teleporter and the lift.
--   elevator          shaft 'E' cols 20-23, rows 46-49: x 10-12 m, y 5-7 m;
--                     open above, stops at 0 (vault) and 4 (gallery).
--   S12 gallery       cols 24-40, rows 42-57: x 12-20.5 m, y 1-9 m, z 4
--                     (upper), walled on every side but the shaft.
--                     goal_gallery 'R' at cols 34-35, rows 52-53.
return {
  name = "gauntlet",
  description = "Course through every travel type: door, crouch, swim, water jump, barrier jump, gap jump, climb, ledge, ladder, stairs, jump pad, teleporters, elevator",
  cell_size = 0.5,

  legend = {
    ["#"] = "solid",
    ["."] = "floor",
    [" "] = "empty",                                        -- upper layer: open sky
    ["v"] = "void",                                         -- the gap: bottomless
    ["x"] = "clip",                                         -- no-walk strip
    ["A"] = { type = "floor", mark = "spawn_start" },
    ["B"] = { type = "floor", mark = "spawn_hall" },
    ["Y"] = { type = "floor", mark = "spawn_yard" },
    ["D"] = { type = "floor", mark = "door" },
    ["C"] = { type = "floor", ceiling = 1.4 },              -- crouch tunnel
    ["~"] = { type = "water", h = -0.7, depth = 2.2 },      -- pool
    ["G"] = { type = "floor", mark = "goal_pool" },
    ["1"] = { type = "floor", h = 1.0 },                    -- terraces S5, S6
    ["3"] = { type = "floor", h = 3.0 },                    -- high terrace S7
    ["Q"] = { type = "floor", h = 3.0, mark = "goal_terrace" },
    ["*"] = { type = "lava", h = -0.1, depth = 0.3 },
    ["%"] = { type = "slime", h = -0.1, depth = 0.3 },
    ["H"] = { type = "ladder", top = 4, face = "north" },
    ["K"] = { type = "floor", mark = "goal_loft" },        -- upper layer
    ["R"] = { type = "floor", mark = "goal_gallery" },     -- upper layer
    ["J"] = { type = "floor", mark = "jump" },
    ["p"] = { type = "floor", h = 3.5 },                    -- perch
    ["P"] = { type = "floor", h = 3.5, mark = "flag" },
    ["T"] = { type = "floor", mark = "tele_hall" },
    ["t"] = { type = "floor", mark = "arrive_hall" },
    ["V"] = { type = "floor", mark = "tele_vault" },
    ["u"] = { type = "floor", mark = "arrive_vault" },
    ["E"] = { type = "floor", mark = "lift" },
    -- the flight of stairs, 0.25 m a step
    ["a"] = { type = "floor", h = 0.25 },
    ["b"] = { type = "floor", h = 0.5 },
    ["c"] = { type = "floor", h = 0.75 },
    ["d"] = { type = "floor", h = 1 },
    ["e"] = { type = "floor", h = 1.25 },
    ["f"] = { type = "floor", h = 1.5 },
    ["g"] = { type = "floor", h = 1.75 },
    ["h"] = { type = "floor", h = 2 },
    ["i"] = { type = "floor", h = 2.25 },
    ["j"] = { type = "floor", h = 2.5 },
    ["k"] = { type = "floor", h = 2.75 },
    ["l"] = { type = "floor", h = 3 },
    ["m"] = { type = "floor", h = 3.25 },
    ["n"] = { type = "floor", h = 3.5 },
    ["o"] = { type = "floor", h = 3.75 },
  },

  layers = {
    { name = "ground", z = 0, rows = [[
################################################################################
#................#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#..AA............#....................##########......~~~~~~~~~~...............#
#..AA............#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#................D....................CCCCCCCCCC......~~~~~~~~~~.......GG......#
#................D....................CCCCCCCCCC......~~~~~~~~~~.......GG......#
#................D....................CCCCCCCCCC......~~~~~~~~~~...............#
#.....xxxxxxx....#....................CCCCCCCCCC......~~~~~~~~~~...............#
#.....xxxxxxx....#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#................#....................##########......~~~~~~~~~~...............#
#................#................%%%%##########......~~~~~~~~~~...............#
#................#................%%%%##########......~~~~~~~~~~...............#
#...pppppp.......#................%%%%##########......~~~~~~~~~~...............#
#...pppppp.......#................%%%%##########......~~~~~~~~~~...............#
####ppPPpp########################################################1111111111111#
#...ppPPpp..............##########################################1111111111111#
#...pppppp..............##########################################1111111111111#
#...pppppp..............##########################################1111111111111#
#..................BB...##########################################1111111111111#
#..................BB...##########################################1111111111111#
#.......................##########################################1111111111111#
#.......................##########################################1111111111111#
#.......................##########################################1111111111111#
#....JJJ................##########################################1111111111111#
#....JJJ................##########################################vvvvvvvvvvvvv#
#....JJJ................abcdefghijklmno###########################vvvvvvvvvvvvv#
#.......................abcdefghijklmno###########################vvvvvvvvvvvvv#
#.......................abcdefghijklmno###########################vvvvvvvvvvvvv#
#.......................abcdefghijklmno###########################vvvvvvvvvvvvv#
#...........TTT.........##########################################1111111111111#
#...........TTT..t......##########################################1111111111111#
#...........TTT.........##########################################1111111111111#
#.......................##########################################1111111111111#
#.......................##########################################1111111111111#
##################################################################1111111111111#
#...................##############################################1111111111111#
#...................##############################################1111111111111#
#...................##############################################1111111111111#
#...................##############################################3333333333333#
#...................########################.........HHH.........#3333333333333#
#...................########################.....................#3333333333333#
#...................EEEE####################.....................#3333333333333#
#...................EEEE####################.....................#3333333333333#
#....VVV............EEEE####################......................3333333333333#
#....VVV..u.........EEEE####################......................3333333333333#
#....VVV............########################......................3333333333333#
#...................########################......................3333333333333#
#...................########################......................3333333QQ3333#
#...................########################......................3333333QQ3333#
#...................########################...YY................#3333333333333#
#...................########################...YY...........*****#3333333333333#
#...................########################................*****#3333333333333#
#...................########################................*****#3333333333333#
#...................########################................*****#3333333333333#
################################################################################
]] },

    { name = "upper", z = 4, rows = [[
################################################################################
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
#                #                    ##########                               #
####      ########################################################             #
#                       ##########################################             #
#                       ##########################################             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################..........KK..........####             #
#                       ################..........KK..........####             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################......................####             #
#                                      .......................####             #
#                                      .......................####             #
#                                      .......................####             #
#                                      .......................####             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################......................####             #
#                       ################......................####             #
########################################......................####             #
########################################......................####             #
#####################################################...##########             #
########################.................############...##########             #
########################.................############...##########             #
########################.................###                     #             #
########################.................###                     #             #
####################    .................###                     #             #
####################    .................###                     #             #
####################    .................###                                   #
####################    .................###                                   #
########################.................###                                   #
########################.................###                                   #
########################..........RR.....###                                   #
########################..........RR.....###                                   #
########################.................###                     #             #
########################.................###                     #             #
########################.................###                     #             #
########################.................###                     #             #
############################################                     #             #
################################################################################
]] },
  },

  entities = {
    { type = "spawn", name = "spawn_start", at = "spawn_start", team = 1, yaw = 0 },
    { type = "spawn", name = "spawn_hall", at = "spawn_hall", team = 2, yaw = 180 },
    { type = "spawn", name = "spawn_yard", at = "spawn_yard", yaw = 90 },

    { type = "door", name = "door_hall", at = "door", height = 3 },

    { type = "teleporter", name = "tele_hall", at = "tele_hall", dest = "arrive_vault", dest_yaw = 0 },
    { type = "teleporter", name = "tele_vault", at = "tele_vault", dest = "arrive_hall", dest_yaw = 0 },

    { type = "elevator", name = "lift", at = "lift", stops = { 0, 4 }, speed = 2, wait = 2 },

    { type = "jump_pad", name = "pad_perch", at = "jump", target = "flag", apex = 2 },

    { type = "goal", name = "goal_pool", at = "goal_pool", item = "health" },
    { type = "goal", name = "goal_terrace", at = "goal_terrace", item = "armor" },
    { type = "goal", name = "goal_loft", at = "goal_loft", item = "ammo" },
    { type = "goal", name = "goal_gallery", at = "goal_gallery", item = "megahealth" },
    { type = "goal", name = "goal_flag", at = "flag", item = "flag" },
  },
}

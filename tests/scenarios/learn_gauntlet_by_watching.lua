-- Two learners that know nothing follow a demonstrator round the whole
-- gauntlet (a door, a crouch tunnel, a swim, a barrier jump, a gap, a
-- climb, a drop, a ladder, stairs, a jump pad, teleporters, a lift),
-- learning each feature by watching it taken. When the demonstrator has
-- reached every goal they are put back at the start, given the same goals
-- in the same order, and reach every one by what they learned, without
-- exploring.
local S = require "scenario"

local TOUR = { "goal_pool", "goal_terrace", "goal_loft", "goal_flag", "goal_gallery" }

return S.scenario {
  description = "learners that watched a demonstrator's gauntlet tour reach every goal it reached",
  map = "maps/gauntlet.lua",
  time_limit = 300,
  bots = {
    S.bot { name = "guide", brain = "demonstrator", at = "spawn_start", goals = TOUR },
    S.bot { name = "p1", brain = "learner_shadow", at = { 2.0, 26.5 }, goals = TOUR },
    S.bot { name = "p2", brain = "learner_shadow", at = { 3.5, 26.5 }, goals = TOUR },
  },
  events = {
    S.when(S.reached("guide", 5), S.teleport("p1", { 2.0, 26.5 }), S.teleport("p2", { 3.5, 26.5 }),
           S.move_goal("p1", table.unpack(TOUR)), S.move_goal("p2", table.unpack(TOUR))),
  },
  expect = {
    S.arrives("guide", { within = 150 }),
    S.arrives({ "p1", "p2" }),
    S.uses({ "p1", "p2" }, "ladder", "teleport", "elevator", "jump_pad", "swim", "climb"),
    S.no_faults(),
  },
}

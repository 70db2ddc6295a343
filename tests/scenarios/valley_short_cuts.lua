-- Two runners on long valley missions, far apart. The first used to cut
-- across terraces its route went round (a straight line a point sample
-- passed): it jumped up them into areas whose way on was far longer, and
-- stood stuck 3.3 s. The second cut across a large area to its next area
-- by another part of the edge they share: the progress measure timed the
-- leg to the link's start point, which it walked away from, and called
-- 3.3 s of running no progress.
local S = require "scenario"

return S.scenario {
  description = "short cuts on valley stay in the corridor and count as progress",
  map = "maps/valley.lua",
  time_limit = 90,
  bots = {
    S.bot { name = "terraces", brain = "runner", at = { 5.25, 91.0, 0 }, goals = { { 62.75, 24.25, 1.5 } } },
    S.bot { name = "across", brain = "runner", at = { 241.25, 236.75, 1.75 }, goals = { { 239.5, 38.75, 0 } } },
  },
  expect = {
    S.arrives("terraces", { within = 25 }),
    S.arrives("across", { within = 80 }),
    S.never_stuck("*", { longer = 3 }),
    S.no_faults(),
  },
}

-- canal: a runner comes to the jump pad from the side of its landing (the
-- roof). A pad throws a body from where the body touches it; stepping on
-- at the near corner, the throw was too low to clear the roof's edge and
-- the runner fell back beside the pad, again and again. It lines up on the
-- far side and runs in along the throw.
local S = require "scenario"

return S.scenario {
  description = "a runner lines up for a jump pad",
  map = "tests/data/maps/canal.lua",
  time_limit = 30,
  bots = {
    S.bot { name = "flyer", brain = "runner", at = { 39.67, 29.72 }, goals = { { 29.5, 27.0, 3.5 } } },
  },
  expect = {
    S.arrives("flyer", { within = 8 }),
    S.uses("flyer", "jump_pad"),
    S.no_faults(),
  },
}

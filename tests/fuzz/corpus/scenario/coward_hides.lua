-- The coward keeps out of sight of the nearest other bot: a watcher that
-- stands on the arena's dais. Seen at the start, it runs for cover behind
-- a pillar and stays there: out of sight within 4 s, and at the end.
local S = require "scenario"

local seen_since = nil

local function sees(sc)
  local wx, wy, wz = sc:bot("watcher"):pos()
  local cx, cy, cz = sc:bot("coward"):pos()
  return nav.sight({ wx, wy, wz + 1.6 }, { cx, cy, cz + 1.6 })
end

return S.scenario {
  description = "hiding from a target",
  map = "maps/arena.lua",
  time_limit = 12,
  ["until"] = "time",
  bots = {
    S.bot { name = "watcher", at = "centre" },
    S.bot { name = "coward", brain = "coward", at = { 18, 4 } },
  },
  expect = {
    S.check("seen at the start", function(sc)
      if sc:tick() == 1 and not sees(sc) then return false, "starts out of sight: nothing to hide from", "coward" end
    end),
    S.check("out of sight within 4 s of being seen", function(sc)
      if sees(sc) then
        seen_since = seen_since or sc:time()
        if sc:time() - seen_since > 4 then
          return false, string.format("in the watcher's sight since %.2f s", seen_since), "coward"
        end
      else
        seen_since = nil
      end
    end),
    S.check_at_end("hidden at the end", function(sc)
      if sees(sc) then return false, "the watcher sees it", "coward" end
      if sc:info("coward").say ~= "hidden" then return false, "says '" .. sc:info("coward").say .. "', not hidden", "coward" end
    end),
    S.never_stuck("coward", { longer = 1 }),
    S.no_faults(),
  },
}

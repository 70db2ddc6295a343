-- Hot reload mid-run: two pacers walk east from a temporary copy of
-- bots/pacer.lua. One is faulted at 1 s. At 2 s the copy is rewritten to
-- head north and reloaded: the live pacer turns north keeping its tick
-- count (globals survive), the faulted one starts afresh and walks north.
local S = require "scenario"

local at_reload = {}

return S.scenario {
  description = "a brain rewritten and reloaded mid-run",
  map = "maps/arena.lua",
  time_limit = 4,
  ["until"] = "time",
  temp_brains = { "pacer" },
  bots = {
    S.bot { name = "live", brain = "pacer", at = { 3, 2 } },
    S.bot { name = "broken", brain = "pacer", at = { 3, 5 } },
  },
  events = {
    S.at(1, S.fault("broken", "injected: the pacer tripped")),
    S.at(2, function(sc)
      for _, name in ipairs({ "live", "broken" }) do
        local x, y = sc:bot(name):pos()
        at_reload[name] = { x = x, y = y, say = sc:info(name).say }
      end
    end, S.edit_brain("pacer", 'local HEADING = "east"', 'local HEADING = "north"'), S.reload()),
  },
  expect = {
    S.faults("broken", { matching = "injected: the pacer tripped", within = 1.1 }),
    S.check("east before the reload", function(sc)
      if sc:time() < 1.9 then
        local vx, vy = sc:bot("live"):velocity()
        if vy > 0.1 then return false, "heading north before the reload", "live" end
      end
    end),
    S.check_at_end("north after the reload, memory kept", function(sc)
      local x, y = sc:bot("live"):pos()
      local was = at_reload.live
      if y < was.y + 2 then return false, string.format("went from y %.2f to %.2f: not north", was.y, y), "live" end
      if math.abs(x - was.x) > 0.5 then return false, "drifted east or west after the reload", "live" end
      local before = tonumber(was.say:match("%d+"))
      local now = tonumber(sc:info("live").say:match("north (%d+)"))
      if not now then return false, "says '" .. sc:info("live").say .. "', not north", "live" end
      if now <= before + 30 then return false, string.format("its tick count went from %d to %d: memory lost", before, now), "live" end
    end),
    S.check_at_end("the faulted pacer starts afresh", function(sc)
      local info = sc:info("broken")
      if info.faulted then return false, "still faulted after the reload", "broken" end
      local x, y = sc:bot("broken"):pos()
      if y < at_reload.broken.y + 2 then return false, "did not walk north after the reload", "broken" end
      local n = tonumber(info.say:match("north (%d+)"))
      if not n or n > 65 then return false, "says '" .. info.say .. "': its count did not start again", "broken" end
    end),
  },
}

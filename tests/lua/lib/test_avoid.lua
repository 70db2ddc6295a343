-- avoid.lua: the ground a policy forbids, avoidance settings merged, and
-- steering round what a trace hits: nothing when clear, along the
-- obstacle's surface on the side nearer the wanted way, keeping the side
-- a while when the obstacle is dead ahead.
local check = require "check"
local fake = require "fake_nav"
fake.install()
local avoid = require "avoid"
local policy = require "policy"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

test("forbid lists from policies", function()
  check.list(avoid.forbid_for("default"), { "lava", "slime" })
  check.list(avoid.forbid_for("cautious"), { "water", "lava", "slime", "ledge" })
  policy.define("test_wader", { forbid = { "swim" }, contents = { "water" } })
  check.list(avoid.forbid_for("test_wader"), { "lava", "slime", "deep_water" })
end)

test("enable merges the settings with the policy's forbid list", function()
  local bot = fake.bot()
  local settings = { radius = 0.5, forbid = { "door" } }
  avoid.enable(bot, "cautious", settings)
  local s = bot.avoidance_set[1]
  check.eq(s.radius, 0.5)
  check.list(s.forbid, { "water", "lava", "slime", "ledge", "door" })
  check.list(settings.forbid, { "door" }, "the caller's table is left alone")
  avoid.disable(bot)
  check.eq(bot.avoidance_set[2], false)
end)

-- A wall east of the bot, its normal pointing back at it (-x): traces
-- going east hit it, the rest are clear.
local function wall(fraction)
  return function(dx)
    if dx > 0 then return { hit = true, fraction = fraction, normal = { -1, 0, 0 }, what = "world" } end
    return { hit = false, fraction = 1, normal = { 0, 0, 0 } }
  end
end

test("nothing to steer round: no steering", function()
  check.eq(avoid.steer(fake.bot(), 1, 0), nil, "clear ahead")
  check.eq(avoid.steer(fake.bot { trace = wall(0.5) }, 0, 0), nil, "no wanted way")
  local static = fake.bot { trace = function() return { hit = true, static = true, fraction = 0.2, normal = { -1, 0, 0 } } end }
  check.eq(avoid.steer(static, 1, 0), nil, "the map's own walls are path following's")
  local other = fake.bot {
    avoidance_on = true,
    trace = function() return { hit = true, fraction = 0.2, normal = { -1, 0, 0 }, what = "bot" } end,
  }
  check.eq(avoid.steer(other, 1, 0), nil, "bots are the engine's when its avoidance is on")
  check.truthy(avoid.steer(other, 1, 0, nil, true), "unless told to steer round bots too")
end)

test("along the surface, on the side nearer the wanted way, pushed off", function()
  fake.install()
  local bot = fake.bot { id = 1, trace = wall(0.25) }
  -- Wanted: ahead and a little north: slide north (+y), pushed back (-x).
  local sx, sy = avoid.steer(bot, 1, 0.3)
  check.truthy(sy > 0, "slides north: " .. tostring(sy))
  check.near(sx, -0.75, 1e-9, "pushed off by 1 - fraction")
  bot = fake.bot { id = 2, trace = wall(0.25) }
  sx, sy = avoid.steer(bot, 1, -0.3)
  check.truthy(sy < 0, "slides south: " .. tostring(sy))
end)

test("dead ahead, the side taken lately is kept for KEEP ticks", function()
  fake.install()
  local bot = fake.bot { id = 3, trace = wall(0.5) }
  local _, first = avoid.steer(bot, 1, 0.2)
  check.truthy(first > 0, "first north")
  fake.step(1)
  local _, again = avoid.steer(bot, 1, -0.05)
  check.truthy(again > 0, "nearly head-on: still north")
  fake.step(avoid.KEEP + 1)
  local _, later = avoid.steer(bot, 1, -0.05)
  check.truthy(later < 0, "after KEEP ticks: the nearer side, south")
end)

return tests

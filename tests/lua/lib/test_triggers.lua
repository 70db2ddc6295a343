-- triggers.lua: a move is kept off teleporters and jump pads the route
-- does not take; a target a body would touch one from is moved clear.
local check = require "check"
local fake = require "fake_nav"
-- One jump pad, the box (0, 0)-(1, 1), index 3.
fake.install { entities = { pad = { kind = "jump_pad", index = 3, mins = { 0, 0, 0 }, maxs = { 1, 1, 0.5 } } } }
local triggers = require "triggers"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

test("guard: a move toward a pad loses the part that would touch it", function()
  local bot = fake.bot { pos = { -0.6, 0.5, 0 } }
  -- Straight at it from the west, 0.6 m off its edge (0.15 from touching).
  local dx, dy = triggers.guard(bot, 1, 0, -1)
  check.eq(dx, 0, "toward the pad")
  check.eq(dy, 0)
  -- Diagonally: the part along the edge stays.
  dx, dy = triggers.guard(bot, 0.6, 0.8, -1)
  check.eq(dx, 0)
  check.eq(dy, 0.8)
  -- Away from it, or along it: untouched.
  dx, dy = triggers.guard(bot, -1, 0, -1)
  check.eq(dx, -1)
  dx, dy = triggers.guard(bot, 0, 1, -1)
  check.eq(dx, 0)
  check.eq(dy, 1)
  -- The pad the route takes: never held back.
  dx, dy = triggers.guard(bot, 1, 0, 3)
  check.eq(dx, 1)
  -- Far away (beyond LOOK): untouched.
  local far = fake.bot { pos = { -3, 0.5, 0 } }
  dx = triggers.guard(far, 1, 0, -1)
  check.eq(dx, 1)
  -- Above the pad's reach (another storey): untouched.
  local up = fake.bot { pos = { -0.6, 0.5, 4 } }
  dx = triggers.guard(up, 1, 0, -1)
  check.eq(dx, 1)
end)

test("detour: a target a body would touch the pad from is moved clear", function()
  -- The target 0.25 m north of the pad: a body there (radius 0.4) touches it.
  local bot = fake.bot { pos = { 2.5, 2.0, 0 } }
  local x, y = triggers.detour(bot, 2.5, 2.0, 0, 0.5, 1.25, -1)
  check.truthy(x ~= nil, "moved")
  check.near(x, 0.5, 1e-9, "along the nearest side")
  check.truthy(y >= 1.0 + 0.4, "clear of the pad: y = " .. tostring(y))
  -- The pad the route takes: the target stays.
  x = triggers.detour(bot, 2.5, 2.0, 0, 0.5, 1.25, 3)
  check.eq(x, nil)
  -- A line that passes the pad wide: no detour.
  x = triggers.detour(bot, 2.5, 2.0, 0, -2.5, 2.0, -1)
  check.eq(x, nil)
  -- A line across the pad: round a corner that is floor.
  local across = fake.bot { pos = { -1.5, 0.5, 0 } }
  x, y = triggers.detour(across, -1.5, 0.5, 0, 2.5, 0.5, -1)
  check.truthy(x ~= nil, "a corner")
  check.truthy(y < -0.4 or y > 1.4, "outside the pad's reach: y = " .. tostring(y))
end)

return tests

-- follow.lua's helpers: crosses against a sampling oracle and allocating
-- nothing; the table of link handlers covering every travel type; the
-- walk and jump handlers on a fake bot.
local check = require "check"
local fake = require "fake_nav"
fake.install()
local follow = require "follow"
local arbiter = require "arbiter"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

-- A small deterministic generator (an LCG), values in [lo, hi).
local seed = 12345
local function rand(lo, hi)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return lo + (hi - lo) * seed / 2147483648
end

-- The oracle: sample the segment. Inside the open rectangle somewhere:
-- true. No sample inside and every sample farther from the rectangle than
-- the step between samples: false. Else too close to call (nil).
local function oracle(ax, ay, bx, by, x0, y0, x1, y1)
  local n = 1500
  local len = math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
  local nearest = math.huge
  for i = 0, n do
    local t = i / n
    local x, y = ax + (bx - ax) * t, ay + (by - ay) * t
    if x > x0 and x < x1 and y > y0 and y < y1 then return true end
    local dx = math.max(x0 - x, 0, x - x1)
    local dy = math.max(y0 - y, 0, y - y1)
    nearest = math.min(nearest, math.sqrt(dx * dx + dy * dy))
  end
  if nearest > 2 * len / n + 1e-9 then return false end
  return nil
end

test("crosses agrees with sampling the segment", function()
  local decided, yes = 0, 0
  for i = 1, 1500 do
    local x0, y0 = rand(-5, 5), rand(-5, 5)
    local x1, y1 = x0 + rand(0.1, 4), y0 + rand(0.1, 4)
    local ax, ay, bx, by = rand(-8, 8), rand(-8, 8), rand(-8, 8), rand(-8, 8)
    if i % 7 == 0 then bx = ax end -- vertical segments
    if i % 11 == 0 then by = ay end -- horizontal ones
    local want = oracle(ax, ay, bx, by, x0, y0, x1, y1)
    if want ~= nil then
      decided = decided + 1
      if want then yes = yes + 1 end
      check.eq(follow.crosses(ax, ay, bx, by, x0, y0, x1, y1), want,
        string.format("segment (%g, %g)-(%g, %g), box (%g, %g)-(%g, %g)", ax, ay, bx, by, x0, y0, x1, y1))
    end
  end
  check.truthy(decided > 1350, "decided " .. decided)
  check.truthy(yes > 150 and yes < decided - 150, "crossing " .. yes .. " of " .. decided)
  -- On the border is not inside (open rectangle).
  check.eq(follow.crosses(0, 0, 2, 0, 0, 0, 1, 1), false, "along the bottom edge")
  check.eq(follow.crosses(0, 0.5, 2, 0.5, 0, 0, 1, 1), true, "through the middle")
  check.eq(follow.crosses(-1, 1, 1, -1, 0, 0, 1, 1), false, "through a corner only")
  check.eq(follow.crosses(-1, 1.5, 1, -0.5, 0, 0, 1, 1), true, "cutting a corner")
end)

test("crosses allocates nothing", function()
  local crosses = follow.crosses
  crosses(0, 0, 1, 1, 0, 0, 1, 1)
  harness.gc_stop()
  local before = harness.memory()
  for i = 1, 20000 do crosses(i * 0.001, 0, 1, 1, 0.2, 0.2, 0.8, 0.9) end
  local after = harness.memory()
  harness.gc_restart()
  check.eq(after - before, 0, "bytes allocated by 20000 calls")
end)

test("every travel type has a handler; walking covers walk, crouch, swim", function()
  local own = { barrier_jump = true, jump = true, climb = true, ladder = true, water_jump = true, teleport = true,
                jump_pad = true, elevator = true, walk_off_ledge = true, walk = true }
  for _, t in ipairs(nav.travel_types()) do
    local h = follow.TAKE[t]
    if own[t] then check.eq(type(h), "function", "handler for " .. t)
    else check.eq(h, nil, t .. " is walked") end
  end
  for t in pairs(own) do check.truthy(check.has(nav.travel_types(), t), t .. " is an engine travel type") end
end)

-- A follower without its planner: enough for the link handlers.
local function follower(bot)
  return setmetatable({ bot = bot, arb = arbiter.new(bot), phase_time = 0, use_say = true,
                        turns = { hatch = function() return false end } },
    follow)
end

test("walking heads for the link's end", function()
  local bot = fake.bot { pos = { 0, 0, 0 } }
  local f = follower(bot)
  local done = f:take({ type = "crouch", start = { 0, 0, 0 }, finish = { 3, 4, 0 } }, 0.1)
  check.eq(done, false, "a walk is done by the route, not the handler")
  f.arb:apply()
  local m = bot.moves[1]
  check.near(m[1], 0.6, 1e-9, "dx")
  check.near(m[2], 0.8, 1e-9, "dy")
  check.eq(m[3], arbiter.PATH)
  check.eq(m[4], "crouch")
  check.near(f.phase_time, 0.1, 1e-12, "the phase clock runs")
end)

test("a gap jump: too slow at the edge backs off, fast enough takes off", function()
  local link = { type = "jump", start = { 0, 0, 0 }, finish = { 4, 0, 0 } }
  local slow = fake.bot { pos = { 0.1, 0, 0 }, velocity = { 1, 0, 0 } }
  local f = follower(slow)
  check.eq(f:take(link, 0.1), false)
  check.eq(f.phase, "back", "backs off for a run-up")
  check.eq(slow.jumps, 0)
  local fast = fake.bot { pos = { 0.1, 0, 0 }, velocity = { 6, 0, 0 } }
  fake.install { bots = { slow, fast } }
  f = follower(fast)
  f:take(link, 0.1)
  check.eq(f.phase, "air")
  check.eq(fast.jumps, 1, "jumped")
  -- A barrier jump never backs off: it jumps on the way, close enough,
  -- once running along the jump's line; standing, it runs in first.
  local barrier = { type = "barrier_jump", start = { 0, 0, 0 }, finish = { 1, 0, 1 } }
  local wall = fake.bot { pos = { -0.8, 0, 0 }, velocity = { 5, 0, 0 } }
  f = follower(wall)
  f:take(barrier, 0.1)
  check.eq(f.phase, "air")
  check.eq(wall.jumps, 1)
  local still = fake.bot { pos = { -0.8, 0, 0 }, velocity = { 0, 0, 0 } }
  f = follower(still)
  f:take(barrier, 0.1)
  check.eq(f.phase, nil, "standing: runs in first")
  check.eq(still.jumps, 0)
  -- Running along the barrier (across the jump's line): no jump.
  local along = fake.bot { pos = { -0.5, -0.3, 0 }, velocity = { 0, 5, 0 } }
  f = follower(along)
  f:take(barrier, 0.1)
  check.eq(along.jumps, 0, "jumped running along the barrier")
end)

test("a gap jump waits while a body stands on its landing", function()
  local link = { id = 17, type = "jump", start = { 0, 0, 0 }, finish = { 4, 0, 0 } }
  local me = fake.bot { id = 0, pos = { 0.1, 0, 0 }, velocity = { 6, 0, 0 } }
  local there = fake.bot { id = 1, pos = { 4.2, 0.3, 0 } }
  fake.install { bots = { me, there } }
  local f = follower(me)
  f.shunned = {}
  f.link = link
  check.eq(f:take(link, 0.5), false)
  check.eq(me.jumps, 0, "jumped into a body")
  check.eq(me.waited, 1, "said it waits")
  f.arb:apply()
  check.list(me.moves[1], { 0, 0, arbiter.PATH, "landing taken" })
  check.eq(me.said[1], "waiting for the landing to clear (bot 1)")
  -- At LANDING_WAIT it routes round the jump for a while (the one there
  -- may hold a goal): the link is shunned and the route dropped.
  for _ = 1, 5 do f:take(link, 0.5) end
  check.eq(me.waited, follow.LANDING_WAIT / 0.5 - 1, "waits while under LANDING_WAIT")
  check.truthy(f.shunned[17], "the jump is shunned")
  check.eq(f.why, "landing taken by bot 1 at a jump link")
  check.eq(f.link, nil, "dropped")
  check.eq(f.landing_wait, 0)
  -- Cleared: it jumps.
  there.p = { 9, 9, 0 }
  f:take(link, 0.1)
  check.eq(me.jumps, 1)
  check.eq(f.landing_wait, 0)
end)

test("a gap jump backs off as far as there is room, or jumps from a stand", function()
  local link = { type = "jump", start = { 0, 0, 0 }, finish = { 2.5, 0, 0 } }
  -- Room behind the start down to x = -1.2: it backs off to -1.0.
  local some = fake.bot { pos = { 0.1, 0, 0 }, walkable = function(x) return x >= -1.2 end }
  local f = follower(some)
  check.eq(f:take(link, 0.1), false)
  check.eq(f.phase, "back")
  check.near(f.back[1], -1.0, 1e-5, "the run-up's start")
  check.eq(some.jumps, 0)
  -- A wall right behind the start: no run-up, a standing jump.
  local wall = fake.bot { pos = { 0.1, 0, 0 }, walkable = function(x) return x >= -0.3 end }
  f = follower(wall)
  f:take(link, 0.1)
  check.eq(f.phase, "air", "took off")
  check.eq(wall.jumps, 1)
end)

test("a teleporter is taken when the body jumped far in a tick", function()
  local bot = fake.bot { pos = { 0, 0, 0 } }
  local f = follower(bot)
  f.last_x, f.last_y = 0.1, 0
  local link = { type = "teleport", start = { 1, 0, 0 }, finish = { 30, 0, 0 } }
  check.eq(f:take(link, 0.1), false, "walking to the pad")
  bot.p = { 30, 0, 0 }
  check.eq(f:take(link, 0.1), true, "sent")
end)

return tests

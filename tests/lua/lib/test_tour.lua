-- tour.lua: the map's goals queued nearest next by travel time, the
-- unreachable left out, the policy's flags and the bot's class asked for.
local check = require "check"
local fake = require "fake_nav"
fake.install()
local tour = require "tour"
local policy = require "policy"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

local function goals(xs)
  local e = {}
  for i, x in ipairs(xs) do e["goal_" .. i] = { kind = "goal", pos = { x, 0, 0 } } end
  e.spawn = { kind = "spawn", pos = { 100, 0, 0 } }
  return e
end

test("goals go in greedily, nearest next", function()
  fake.install { entities = goals({ 10, 3, 20, -1 }) }
  local bot = fake.bot { pos = { 0, 0, 0 } }
  check.eq(tour.queue_map_goals(bot, "runner"), 4)
  local order = {}
  for i, g in ipairs(bot.goals) do order[i] = g[1] end
  check.list(order, { -1, 3, 10, 20 }, "from 0: -1, then 3 from there, then 10, then 20")
end)

test("unreachable goals are left out; a full queue stops it", function()
  fake.install {
    entities = goals({ 5, 7, 9 }),
    route_time = function(a, b) if b[1] == 7 then return nil end return math.abs(b[1] - a[1]) end,
  }
  local bot = fake.bot { pos = { 0, 0, 0 } }
  check.eq(tour.queue_map_goals(bot, "runner"), 2)
  check.eq(bot.goals[1][1], 5)
  check.eq(bot.goals[2][1], 9)
  fake.install { entities = goals({ 5, 7, 9 }) }
  bot = fake.bot { pos = { 0, 0, 0 }, max_goals = 1 }
  check.eq(tour.queue_map_goals(bot, "runner"), 1, "add_goal refused the second")
end)

test("the route times are asked with the policy's flags and the bot's class", function()
  local asked = {}
  fake.install {
    entities = goals({ 2 }),
    route_time = function(a, b, flags, cls)
      asked[#asked + 1] = { flags, cls }
      return 1
    end,
  }
  local bot = fake.bot { pos = { 0, 0, 0 }, class = { name = "scout", radius = 0.3 } }
  tour.queue_map_goals(bot, "cautious")
  check.eq(#asked, 1)
  check.list(asked[1][1], policy.flags("cautious"), "flags")
  check.eq(asked[1][2], "scout")
end)

test("drop_head skips the head goal", function()
  local bot = fake.bot()
  check.eq(tour.drop_head(bot), true)
  check.eq(bot.skipped, 1)
end)

return tests

-- arbiter.lua: the highest priority wins a tick, a later request of the
-- same priority replaces an earlier one, apply moves the bot and starts
-- over, requests are shown while watching.
local check = require "check"
local fake = require "fake_nav"
fake.install()
local arbiter = require "arbiter"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

test("the highest priority wins, whatever the order", function()
  local bot = fake.bot()
  local arb = arbiter.new(bot)
  arb:request(1, 0, arbiter.AVOID, "avoid")
  arb:request(0, 1, arbiter.PATH, "path")
  arb:request(-1, 0, arbiter.IDLE, "idle")
  local dx, dy, pr, why = arb:winner()
  check.list({ dx, dy, pr, why }, { 1, 0, arbiter.AVOID, "avoid" })
  arb:request(0, -1, arbiter.UNSTICK, "unstick")
  check.eq(select(4, arb:winner()), "unstick")
end)

test("a later request of the same priority replaces the earlier", function()
  local arb = arbiter.new(fake.bot())
  arb:request(1, 0, arbiter.PATH, "first")
  arb:request(0, 1, arbiter.PATH, "second")
  check.eq(select(4, arb:winner()), "second")
  arb:request(0, 1, arbiter.PATH)
  check.eq(select(4, arb:winner()), "", "no reason: empty")
end)

test("apply moves the bot by the winner and starts the next round", function()
  local bot = fake.bot()
  local arb = arbiter.new(bot)
  arb:request(0.6, 0.8, arbiter.CLIMB, "climb")
  arb:apply()
  check.list(bot.moves[1], { 0.6, 0.8, arbiter.CLIMB, "climb" })
  arb:apply()
  check.list(bot.moves[2], { 0, 0, arbiter.IDLE, "idle" }, "a round with no request stands still")
  check.eq(select(3, arb:winner()), -1)
end)

test("requests are shown while something watches", function()
  fake.install { watching = false }
  local bot = fake.bot()
  local arb = arbiter.new(bot)
  arb:request(1, 0, arbiter.PATH, "path")
  check.eq(#bot.shown, 0, "shown while nothing watched")
  fake.world.watching = true
  arb:request(1, 0, arbiter.PATH, "path")
  check.eq(#bot.shown, 0, "watching is read at the start of a round")
  arb:apply()
  arb:request(0, 1, arbiter.IDLE, "low")
  arb:request(1, 0, arbiter.PATH, "high")
  check.eq(#bot.shown, 2, "every request shown, winner or not")
  check.list(bot.shown[1], { 0, 1, arbiter.IDLE, "low" })
end)

return tests

-- policy.lua: flag sets from forbid/avoid/contents, the preferred route
-- within the slack, errors for unknown policies.
local check = require "check"
local fake = require "fake_nav"
fake.install()
local policy = require "policy"

local tests = {}
local function test(name, f) tests[#tests + 1] = { name, f } end

test("the default policy allows every travel type and water", function()
  local flags = policy.flags("default")
  for _, t in ipairs(nav.travel_types()) do check.truthy(check.has(flags, t), "default lacks " .. t) end
  check.truthy(check.has(flags, "water"), "default lacks water")
  check.eq(#flags, #nav.travel_types() + 1, "default's flag count")
  check.eq(policy.get("default").preferred, nil, "a policy avoiding nothing has no preferred set")
  check.eq(policy.get(nil).name, "default", "nil is the default policy")
end)

test("forbid drops a type, avoid leaves it out of the preferred set only", function()
  local p = policy.define("test_jumpless", { forbid = { "jump" }, avoid = { "ladder" }, slack = 2 })
  check.eq(check.has(p.full, "jump"), false, "full has the forbidden jump")
  check.eq(check.has(p.full, "ladder"), true, "full lacks the avoided ladder")
  check.eq(check.has(p.preferred, "ladder"), false, "preferred has the avoided ladder")
  check.eq(check.has(p.preferred, "jump"), false, "preferred has the forbidden jump")
  check.eq(#p.full, #nav.travel_types(), "every type but jump, plus water")
  check.eq(p.slack, 2)
  check.eq(policy.allows("test_jumpless", "jump"), false)
  check.eq(policy.allows("test_jumpless", "ladder"), true)
end)

test("contents: water unless swimming is forbidden; listed liquids", function()
  check.list(policy.get("default").contents, { "water" })
  check.list(policy.get("cautious").contents, {}, "cautious enters no liquid")
  local dry = policy.define("test_dry", { forbid = { "swim" } })
  check.list(dry.contents, {}, "no swimming, no water")
  check.eq(check.has(dry.full, "water"), false)
  local hot = policy.define("test_hot", { contents = { "water", "lava" } })
  check.list(hot.contents, { "water", "lava" })
  check.truthy(check.has(hot.full, "lava"), "lava allowed")
end)

test("route: the preferred route within the slack, else the full one", function()
  policy.define("test_slack", { avoid = { "ladder" }, slack = 1.5 })
  local p = policy.get("test_slack")
  local full_key, pref_key = table.concat(p.full, ","), table.concat(p.preferred, ",")
  local bot = fake.bot { routes = { [full_key] = { time = 10, tag = "full" }, [pref_key] = { time = 14, tag = "pref" } } }
  check.eq(policy.route(bot, 1, 2, 0, "test_slack").tag, "pref", "14 s is within 1.5 x 10 s")
  bot = fake.bot { routes = { [full_key] = { time = 10, tag = "full" }, [pref_key] = { time = 16, tag = "pref" } } }
  check.eq(policy.route(bot, 1, 2, 0, "test_slack").tag, "full", "16 s is over 1.5 x 10 s")
  bot = fake.bot { routes = { [full_key] = { time = 10, tag = "full" } } }
  check.eq(policy.route(bot, 1, 2, 0, "test_slack").tag, "full", "no preferred route")
  bot = fake.bot { routes = { [pref_key] = { time = 99, tag = "pref" } } }
  check.eq(policy.route(bot, 1, 2, 0, "test_slack").tag, "pref", "only the preferred route")
  bot = fake.bot {}
  local r, why = policy.route(bot, 1, 2, 0, "test_slack")
  check.eq(r, nil)
  check.eq(why, "no route")
  bot = fake.bot { routes = { [table.concat(policy.flags("default"), ",")] = { time = 3 } } }
  check.eq(policy.route(bot, 1, 2, 0, "default").time, 3)
  check.eq(bot.route_calls, 1, "a policy avoiding nothing asks once")
end)

test("an unknown policy is an error naming it", function()
  check.errors("no travel policy 'nope'", policy.get, "nope")
  check.errors("name must be a string", policy.define, 7, {})
end)

return tests

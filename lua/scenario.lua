-- scenario.lua: regression scenarios for `navbot test`. A scenario file
-- (tests/scenarios/NAME.lua) returns scenario { ... }: a map, a seed, bots
-- with brains and goals, events that change the world while they run, and
-- expectations the run must meet. The engine (engine/script/scenario.c)
-- runs it headless and reports the first expectation that fails.
--
--   local S = require "scenario"
--   return S.scenario {
--     map = "maps/gauntlet.lua",
--     time_limit = 30,
--     bots = { S.bot { name = "swimmer", brain = "runner", at = "spawn_start", goals = { "goal_pool" } } },
--     -- or a recorded player: S.player { name = "player", file = "players/run.player" }
--     events = { S.at(4, S.door("door_hall", "open")) },
--     expect = {
--       S.arrives("swimmer", { within = 20 }),
--       S.uses("swimmer", "swim", "water_jump"),
--       S.no_faults(),
--     },
--   }
--
-- Only scenario files can use this module: it needs the engine's
-- "scenario.core", which exists in a scenario's Lua state and never in a
-- bot brain's. docs/scenarios.md is the guide; every constructor checks
-- its arguments and a mistake is an error naming the scenario file's line.
local core = require "scenario.core"

local S = {}

-- {======= checking what a scenario file gives =======

-- key: the field the message is about, so that the line can be found
-- after `return S.scenario { ... }`, a tail call that leaves no trace of
-- the scenario file on the stack.
local function fail(msg, key)
  error(core.where(key) .. ": " .. msg, 0)
end

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, ", ")
end

-- Fields of table t must be among allowed (name -> type or list of types).
local function check_fields(what, t, allowed)
  if type(t) ~= "table" then fail(what .. ": expected a table, got " .. type(t)) end
  for k, v in pairs(t) do
    local want = allowed[k]
    if want == nil then
      fail(string.format("%s: unknown field '%s' (fields: %s)", what, tostring(k), sorted_keys(allowed)), tostring(k))
    end
    local ok = false
    for ty in want:gmatch("[^|]+") do
      if type(v) == ty or (ty == "integer" and math.type(v) == "integer") then ok = true end
    end
    if not ok then
      fail(string.format("%s: field '%s' must be %s, got %s", what, k, (want:gsub("|", " or ")), type(v)), k)
    end
  end
  return t
end

-- The elements of list field `field` of t, checked to be a list: keys 1
-- to n and no others, no holes (ipairs would stop at the first nil and
-- leave the rest unchecked). Returns the list's length.
local function list_length(what, t, field)
  local l = t[field]
  if l == nil then return 0 end
  local n = 0
  for k in pairs(l) do
    if math.type(k) ~= "integer" or k < 1 then
      fail(string.format("%s: field '%s' must be a list, but it has the key %s", what, field, tostring(k)), field)
    end
    if k > n then n = k end
  end
  for i = 1, n do
    if l[i] == nil then
      fail(string.format("%s: field '%s' has a hole: %s[%d] is nil", what, field, field, i), field)
    end
  end
  return n
end

local function need(what, t, field)
  if t[field] == nil then fail(string.format("%s: field '%s' is required", what, field), field) end
end

local function positive(what, field, v)
  if v ~= nil and not (v > 0) then fail(string.format("%s: field '%s' must be above 0, got %s", what, field, v), field) end
end

local TRAVEL = {}
for _, t in ipairs(core.travel_types()) do TRAVEL[t] = true end
local ROUTE_FLAGS = { water = true, lava = true, slime = true, fly = true }
for t in pairs(TRAVEL) do ROUTE_FLAGS[t] = true end
local AREA_FLAGS = {}
for _, f in ipairs(core.area_flags()) do AREA_FLAGS[f] = true end
local CONTENTS = { floor = true, water = true, lava = true, slime = true, ladder = true, clip = true, void = true }

local function name_list(what, names, known, kind)
  local out = {}
  for i, n in ipairs(names) do
    if type(n) ~= "string" or not known[n] then
      fail(string.format("%s: '%s' is not a %s (%s)", what, tostring(n), kind, sorted_keys(known)))
    end
    out[i] = n
  end
  return out
end

-- A bot selector: a bot's name, a group's name, "*" (every bot) or a list of those.
local function selector(what, sel)
  if type(sel) == "string" then return { sel } end
  if type(sel) == "table" and #sel > 0 then
    for _, s in ipairs(sel) do
      if type(s) ~= "string" then fail(what .. ": bots are named by strings") end
    end
    return sel
  end
  fail(what .. ": which bot? give a name, a list of names or \"*\" (got " .. type(sel) .. ")")
end

-- A place: an entity's name or {x, y [, z]} (no z: the highest floor there).
local function place(what, p)
  if type(p) == "string" then return p end
  if type(p) == "table" and type(p[1]) == "number" and type(p[2]) == "number" and
     (p[3] == nil or type(p[3]) == "number") and #p <= 3 then
    return { p[1], p[2], p[3] }
  end
  fail(what .. ": a place is an entity's name or {x, y [, z]}")
end

local function describe(sel)
  return table.concat(sel, ", ")
end

local function varargs_or_list(...)
  local first = ...
  if type(first) == "table" then return first end
  return { ... }
end

-- }=======

-- {======= the scenario and its bots =======

--- scenario { map = PATH, ... }: the whole scenario; the file returns it.
function S.scenario(spec)
  check_fields("scenario", spec, {
    name = "string", description = "string", map = "string", seed = "integer", hz = "integer",
    class = "string", time_limit = "number", ["until"] = "string|function", runs = "integer",
    bots = "table", expect = "table", events = "table", temp_brains = "table",
    instructions = "integer", memory = "integer",
  })
  need("scenario", spec, "map")
  need("scenario", spec, "bots")
  positive("scenario", "time_limit", spec.time_limit)
  if spec.hz and (spec.hz < 1 or spec.hz > 1000) then fail("scenario: field 'hz' must be from 1 to 1000", "hz") end
  if spec.runs and (spec.runs < 1 or spec.runs > 2) then fail("scenario: field 'runs' must be 1 or 2", "runs") end
  if type(spec["until"]) == "string" and spec["until"] ~= "arrived" and spec["until"] ~= "time" then
    fail("scenario: field 'until' must be \"arrived\", \"time\" or a function", "until")
  end
  if spec.seed and spec.seed < 0 then fail("scenario: field 'seed' must not be negative", "seed") end
  for i = 1, list_length("scenario", spec, "bots") do
    local b = spec.bots[i]
    if type(b) ~= "table" or (b._kind ~= "bot" and b._kind ~= "player") then
      fail(string.format("scenario: bots[%d] is not a bot: use scenario.bot { ... } or scenario.player { ... }", i),
           "bots")
    end
  end
  if #spec.bots == 0 then fail("scenario: no bots", "bots") end
  for i = 1, list_length("scenario", spec, "expect") do
    local e = spec.expect[i]
    if type(e) ~= "table" or e._kind ~= "expect" then
      fail(string.format("scenario: expect[%d] is not an expectation (scenario.arrives, .uses, .check, ...)", i), "expect")
    end
  end
  for i = 1, list_length("scenario", spec, "events") do
    local e = spec.events[i]
    if type(e) ~= "table" or e._kind ~= "event" then
      fail(string.format("scenario: events[%d] is not an event (scenario.at, .at_tick, .when)", i), "events")
    end
  end
  for i = 1, list_length("scenario", spec, "temp_brains") do
    if type(spec.temp_brains[i]) ~= "string" then
      fail(string.format("scenario: temp_brains[%d] must be a brain's name", i), "temp_brains")
    end
  end
  spec._kind = "scenario"
  spec.where = core.where()
  return spec
end

--- bot { brain = NAME, at = PLACE, ... }: one bot, or `count` of them side by side.
function S.bot(spec)
  check_fields("bot", spec, {
    name = "string", brain = "string", class = "string", at = "string|table", goals = "table",
    goal_radius = "number", count = "integer", formation = "boolean", yaw = "number",
  })
  need("bot", spec, "at")
  local b = {}
  for k, v in pairs(spec) do b[k] = v end
  b.at = place("bot", spec.at)
  b.goals = {}
  for i = 1, list_length("bot", spec, "goals") do b.goals[i] = place("bot: goals[" .. i .. "]", spec.goals[i]) end
  b.name = spec.name or spec.brain or "bot"
  if b.name == "*" or b.name:find("#", 1, true) then fail("bot: a name cannot be '*' or hold '#'") end
  if spec.count and spec.count < 1 then fail("bot: field 'count' must be at least 1") end
  if spec.goal_radius and spec.goal_radius < 0 then fail("bot: field 'goal_radius' must not be negative") end
  if spec.formation and #b.goals == 0 then fail("bot: formation needs goals") end
  b._kind = "bot"
  b.where = core.where()
  return b
end

--- player { file = RECORDING, name = NAME, goals = {...} }: a body that replays a
--- player's recording (navbot run/sim --record-player), tick by tick from the first.
function S.player(spec)
  check_fields("player", spec, { name = "string", file = "string", goals = "table", goal_radius = "number" })
  need("player", spec, "file")
  local p = {}
  for k, v in pairs(spec) do p[k] = v end
  p.goals = {}
  for i = 1, list_length("player", spec, "goals") do p.goals[i] = place("player: goals[" .. i .. "]", spec.goals[i]) end
  p.name = spec.name or "player"
  if p.name == "*" or p.name:find("#", 1, true) then fail("player: a name cannot be '*' or hold '#'") end
  if spec.goal_radius and spec.goal_radius < 0 then fail("player: field 'goal_radius' must not be negative") end
  p._kind = "player"
  p.where = core.where()
  return p
end

-- }=======

-- {======= expectations =======

local function expect(kind, sel, text, extra)
  local e = extra or {}
  e._kind, e.kind, e.bots, e.text, e.where = "expect", kind, sel, text, core.where()
  return e
end

--- arrives(BOTS, { within = SECONDS }): every goal reached by then (default: the time limit).
function S.arrives(sel, opts)
  sel = selector("arrives", sel)
  opts = check_fields("arrives", opts or {}, { within = "number" })
  positive("arrives", "within", opts.within)
  local text = "arrives(" .. describe(sel) .. (opts.within and (", within " .. opts.within .. " s") or "") .. ")"
  return expect("arrives", sel, text, { within = opts.within })
end

--- near_optimal(BOTS, { factor = F, flags = {...} }): arrives within F times the routed optimum.
function S.near_optimal(sel, opts)
  sel = selector("near_optimal", sel)
  opts = check_fields("near_optimal", opts or {}, { factor = "number", flags = "table" })
  need("near_optimal", opts, "factor")
  if not (opts.factor >= 1) then fail("near_optimal: factor must be at least 1") end
  local flags = opts.flags and name_list("near_optimal: flags", opts.flags, ROUTE_FLAGS, "travel flag") or nil
  return expect("near_optimal", sel, string.format("near_optimal(%s, factor %g)", describe(sel), opts.factor),
                { factor = opts.factor, flags = flags })
end

--- uses(BOTS, TYPE, ...): each travel type used at least once by the end.
function S.uses(sel, ...)
  sel = selector("uses", sel)
  local types = name_list("uses", varargs_or_list(...), TRAVEL, "travel type")
  if #types == 0 then fail("uses: which travel types?") end
  return expect("uses", sel, "uses(" .. describe(sel) .. ": " .. table.concat(types, ", ") .. ")", { types = types })
end

--- never_uses(BOTS, TYPE, ...): none of these travel types, ever.
function S.never_uses(sel, ...)
  sel = selector("never_uses", sel)
  local types = name_list("never_uses", varargs_or_list(...), TRAVEL, "travel type")
  if #types == 0 then fail("never_uses: which travel types?") end
  return expect("never_uses", sel, "never_uses(" .. describe(sel) .. ": " .. table.concat(types, ", ") .. ")",
                { types = types })
end

--- never_enters(BOTS, { flags = {...}, contents = {...} }): the area under its feet never has them.
function S.never_enters(sel, opts)
  sel = selector("never_enters", sel)
  opts = check_fields("never_enters", opts, { flags = "table", contents = "table" })
  local flags = name_list("never_enters: flags", opts.flags or {}, AREA_FLAGS, "area flag")
  local contents = name_list("never_enters: contents", opts.contents or {}, CONTENTS, "contents")
  if #flags + #contents == 0 then fail("never_enters: give flags or contents") end
  local all = {}
  for _, f in ipairs(flags) do all[#all + 1] = f end
  for _, c in ipairs(contents) do all[#all + 1] = c end
  return expect("never_enters", sel, "never_enters(" .. describe(sel) .. ": " .. table.concat(all, ", ") .. ")",
                { flags = flags, contents = contents })
end

--- never_stuck(BOTS, { longer = SECONDS }): never wishing to move without moving for longer.
function S.never_stuck(sel, opts)
  sel = selector("never_stuck", sel)
  opts = check_fields("never_stuck", opts or {}, { longer = "number" })
  need("never_stuck", opts, "longer")
  positive("never_stuck", "longer", opts.longer)
  return expect("never_stuck", sel, string.format("never_stuck(%s, longer than %g s)", describe(sel), opts.longer),
                { longer = opts.longer })
end

--- no_faults({ except = {...} }): no brain faults (every bot but those listed).
function S.no_faults(opts)
  opts = check_fields("no_faults", opts or {}, { except = "table|string" })
  local except = opts.except and selector("no_faults: except", opts.except) or {}
  local text = "no_faults(" .. (#except > 0 and ("except " .. describe(except)) or "") .. ")"
  return expect("no_faults", { "*" }, text, { except = except })
end

--- faults(BOTS, { matching = TEXT, within = SECONDS }): the brain must fault, its error mentioning TEXT.
function S.faults(sel, opts)
  sel = selector("faults", sel)
  opts = check_fields("faults", opts or {}, { matching = "string", within = "number" })
  positive("faults", "within", opts.within)
  local text = "faults(" .. describe(sel) .. (opts.matching and (", matching '" .. opts.matching .. "'") or "") ..
               (opts.within and (", within " .. opts.within .. " s") or "") .. ")"
  return expect("faults", sel, text, { matching = opts.matching, within = opts.within })
end

--- no_overlap(): no two bots' bodies overlap, any tick.
function S.no_overlap()
  return expect("no_overlap", { "*" }, "no_overlap()")
end

--- check(TEXT, function(sc) ... end): a free-form check every tick. It fails
--- by returning false [, message [, bot name]] or by raising an error.
function S.check(text, fn)
  if type(text) ~= "string" or type(fn) ~= "function" then fail("check: expected check(\"what it checks\", function(sc) ... end)") end
  return expect("check", { "*" }, "check(" .. text .. ")", { fn = fn, at_end = false })
end

--- check_at_end(TEXT, function(sc) ... end): the same, once, when the run ends.
function S.check_at_end(text, fn)
  if type(text) ~= "string" or type(fn) ~= "function" then fail("check_at_end: expected check_at_end(\"what it checks\", function(sc) ... end)") end
  return expect("check", { "*" }, "check_at_end(" .. text .. ")", { fn = fn, at_end = true })
end

-- }=======

-- {======= events: when, and what happens =======

-- An action is a function(sc) with a text for the run's log.
local function action(text, fn)
  return { _kind = "action", text = text, fn = fn, where = core.where() }
end

local function actions(what, ...)
  local list = { ... }
  if #list == 0 then fail(what .. ": nothing to do (give one or more actions)") end
  local out = {}
  for i, a in ipairs(list) do
    if type(a) == "function" then
      out[i] = action("function", a)
    elseif type(a) == "table" and a._kind == "action" then
      out[i] = a
    else
      fail(string.format("%s: action %d is not an action (scenario.door, .add_obstacle, ... or a function(sc))", what, i))
    end
  end
  return out
end

local function event(trigger, value, text, list)
  local e = { _kind = "event", trigger = trigger, value = value, actions = list, where = core.where() }
  local names = {}
  for i, a in ipairs(list) do names[i] = a.text end
  e.text = text .. ": " .. table.concat(names, "; ")
  return e
end

--- at(SECONDS, ACTION, ...): at this simulated time (before that tick moves anything).
function S.at(seconds, ...)
  if type(seconds) ~= "number" or seconds < 0 then fail("at: the time must be seconds from 0") end
  return event("time", seconds, string.format("at %g s", seconds), actions("at", ...))
end

--- at_tick(N, ACTION, ...): before tick N is simulated (0: before the first).
function S.at_tick(n, ...)
  if math.type(n) ~= "integer" or n < 0 then fail("at_tick: the tick must be a whole number from 0") end
  return event("tick", n, "at tick " .. n, actions("at_tick", ...))
end

--- when(CONDITION, ACTION, ...): the first time the condition holds (checked before each tick).
function S.when(cond, ...)
  local fn, text
  if type(cond) == "function" then fn, text = cond, "when function"
  elseif type(cond) == "table" and cond._kind == "condition" then fn, text = cond.fn, "when " .. cond.text
  else fail("when: a condition is a function(sc) or scenario.near, .says, .riding, .reached") end
  return event("when", fn, text, actions("when", ...))
end

-- Conditions.
local function condition(text, fn) return { _kind = "condition", text = text, fn = fn } end

--- near(BOT, PLACE, RADIUS): the bot is within RADIUS metres (horizontally) of the place.
function S.near(bot, where, radius)
  if type(bot) ~= "string" or type(radius) ~= "number" then fail("near: expected near(bot, place, radius)") end
  local p = place("near", where)
  return condition(string.format("%s near %s", bot, type(p) == "string" and p or "a point"), function(sc)
    local x, y = sc:bot(bot):pos()
    local q = sc:point(p)
    return (x - q[1]) ^ 2 + (y - q[2]) ^ 2 <= radius * radius
  end)
end

--- says(BOT, TEXT): the bot's state text contains TEXT.
function S.says(bot, text)
  if type(bot) ~= "string" or type(text) ~= "string" then fail("says: expected says(bot, text)") end
  return condition(string.format("%s says '%s'", bot, text), function(sc)
    return sc:info(bot).say:find(text, 1, true) ~= nil
  end)
end

--- riding(BOT): the bot stands on an elevator.
function S.riding(bot)
  if type(bot) ~= "string" then fail("riding: expected riding(bot)") end
  return condition(bot .. " riding", function(sc) return sc:bot(bot):state().riding >= 0 end)
end

--- reached(BOT, N): the bot has reached N goals.
function S.reached(bot, n)
  if type(bot) ~= "string" or math.type(n) ~= "integer" then fail("reached: expected reached(bot, count)") end
  return condition(string.format("%s reached %d goals", bot, n), function(sc)
    local _, reached = sc:bot(bot):goals()
    return reached >= n
  end)
end

-- Actions.

--- add_obstacle(NAME, MINS, MAXS): drop a solid box; the name is for remove_obstacle.
function S.add_obstacle(name, mins, maxs)
  if type(name) ~= "string" or type(mins) ~= "table" or type(maxs) ~= "table" then
    fail("add_obstacle: expected add_obstacle(name, {x0, y0, z0}, {x1, y1, z1})")
  end
  return action("add obstacle " .. name, function(sc)
    if sc.obstacles[name] then error("add_obstacle: there is already an obstacle '" .. name .. "'", 0) end
    sc.obstacles[name] = nav.add_obstacle(mins, maxs)
  end)
end

--- remove_obstacle(NAME)
function S.remove_obstacle(name)
  if type(name) ~= "string" then fail("remove_obstacle: expected remove_obstacle(name)") end
  return action("remove obstacle " .. name, function(sc)
    local id = sc.obstacles[name]
    if not id then error("remove_obstacle: no obstacle '" .. name .. "' (add_obstacle makes one)", 0) end
    nav.remove_obstacle(id)
    sc.obstacles[name] = nil
  end)
end

--- door(NAME, "open" | "shut" | "locked"): open it, let it shut, or lock it shut.
function S.door(name, state)
  local how = { open = { true, false }, shut = { false, false }, locked = { false, true } }
  if type(name) ~= "string" or not how[state] then fail("door: expected door(name, \"open\" | \"shut\" | \"locked\")") end
  return action("door " .. name .. " " .. state, function() nav.door(name, how[state][1], how[state][2]) end)
end

--- hold_elevator(NAME) / release_elevator(NAME): stop it where it is, let it go on.
function S.hold_elevator(name)
  if type(name) ~= "string" then fail("hold_elevator: expected hold_elevator(name)") end
  return action("hold elevator " .. name, function() core.hold_elevator(name, true) end)
end

function S.release_elevator(name)
  if type(name) ~= "string" then fail("release_elevator: expected release_elevator(name)") end
  return action("release elevator " .. name, function() core.hold_elevator(name, false) end)
end

--- teleport(BOT, PLACE): put the bot there at once, standing (a place its body fits).
function S.teleport(bot, where)
  if type(bot) ~= "string" then fail("teleport: expected teleport(bot, place)") end
  local p = place("teleport", where)
  return action("teleport " .. bot, function(sc)
    local q = sc:point(p)
    for _, id in ipairs(sc:ids(bot)) do core.teleport(id, q[1], q[2], q[3]) end
  end)
end

--- move_goal(BOT, PLACE, ...): replace the bot's goals with these.
function S.move_goal(bot, ...)
  if type(bot) ~= "string" then fail("move_goal: expected move_goal(bot, place, ...)") end
  local places = {}
  for i, p in ipairs({ ... }) do places[i] = place("move_goal", p) end
  if #places == 0 then fail("move_goal: where to?") end
  return action("move goal of " .. bot, function(sc)
    local b = sc:bot(bot)
    b:clear_goals()
    for _, p in ipairs(places) do
      local q = sc:point(p)
      b:add_goal(q[1], q[2], q[3])
    end
  end)
end

--- write_brain(NAME, TEXT): rewrite a temporary brain (one listed in temp_brains).
function S.write_brain(name, text)
  if type(name) ~= "string" or type(text) ~= "string" then fail("write_brain: expected write_brain(name, text)") end
  return action("write brain " .. name, function() core.write_brain(name, text) end)
end

--- edit_brain(NAME, OLD, NEW): replace the text OLD (it must be there) in a temporary brain.
function S.edit_brain(name, old, new)
  if type(name) ~= "string" or type(old) ~= "string" or type(new) ~= "string" then
    fail("edit_brain: expected edit_brain(name, old_text, new_text)")
  end
  local where = core.where()
  return action("edit brain " .. name, function()
    local text = core.read_brain(name)
    local i, j = text:find(old, 1, true)
    if not i then error(where .. ": edit_brain: '" .. old .. "' is not in brain " .. name, 0) end
    core.write_brain(name, text:sub(1, i - 1) .. new .. text:sub(j + 1))
  end)
end

--- reload(): reload the brains whose files changed (hot reload, as while bots run).
function S.reload()
  return action("reload", function() core.reload() end)
end

--- fault(BOT, MESSAGE): make the bot's brain fault as if its script had raised MESSAGE.
function S.fault(bot, message)
  if type(bot) ~= "string" then fail("fault: expected fault(bot [, message])") end
  return action("fault " .. bot, function(sc)
    for _, id in ipairs(sc:ids(bot)) do core.fault(id, message or "fault injected by the scenario") end
  end)
end

-- }=======

-- {======= the view checks, conditions and actions get: sc =======

local sc = { obstacles = {} }
S.context = sc

--- sc:bot(NAME): the bot's nav.Bot handle (see docs/lua-api.md).
function sc:bot(name)
  local ids = core.ids(name)
  if #ids ~= 1 then error("no single bot named '" .. tostring(name) .. "' (bots: " .. table.concat(core.names(), ", ") .. ")", 2) end
  return nav.bot(ids[1])
end

--- sc:ids(SELECTOR): the ids of a bot, a group or "*".
function sc:ids(name)
  local ids = core.ids(name)
  if #ids == 0 then error("no bot or group named '" .. tostring(name) .. "'", 2) end
  return ids
end

--- sc:info(NAME): what the engine knows of the bot beyond nav.Bot: name, brain,
--- say, faulted, error, arrived, goals_left, goals_reached, goals_skipped,
--- arrival_time, stuck_total, travel (a set of travel type names).
function sc:info(name)
  local ids = core.ids(name)
  if #ids ~= 1 then error("no single bot named '" .. tostring(name) .. "'", 2) end
  return core.info(ids[1])
end

--- sc:point(PLACE): an entity's name or {x, y [, z]} as {x, y, z}.
function sc:point(p) return { core.point(p) } end

function sc:time() return nav.time() end
function sc:tick() return nav.tick() end

--- sc:log(TEXT): a line in the run's log (printed when the scenario fails).
function sc:log(text) core.log(tostring(text)) end

-- }=======

return S

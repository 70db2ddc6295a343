-- fake_nav.lua: a stand-in for the engine's `nav` module and its bots, for
-- testing lua/ modules on their own (tests/unit/test_lua_lib.c runs the
-- tests/lua/lib/test_*.lua files). The names (travel types, area flags) are
-- the engine's own, handed in by the runner as `engine`; everything else
-- is what a test sets: entities, route times, traces, the clock.
--
--   local fake = require "fake_nav"
--   fake.install { entities = { goal_a = { pos = { 1, 2, 0 } } } }
--   local bot = fake.bot { pos = { 0, 0, 0 } }
--   ... bot.moves, bot.shown, bot.goals record what the module did ...
local fake = {}

-- Sets the global `nav` afresh; opts: entities (name -> { kind, pos,
-- mins, maxs, index }), bots (what nav.bots() lists), route_time(a, b,
-- flags, class) (default: the straight distance over 5 m/s), watching
-- (boolean).
function fake.install(opts)
  opts = opts or {}
  local world = { tick = 0, watching = opts.watching or false, entities = opts.entities or {}, bots = opts.bots or {} }
  fake.world = world
  nav = {
    travel_types = engine.travel_types,
    area_flags = engine.area_flags,
    watching = function() return world.watching end,
    tick = function() return world.tick end,
    time = function() return world.tick / 30 end,
    random = function(n) return 1 end,
    entities = function(kind)
      local names = {}
      for name, e in pairs(world.entities) do
        if kind == nil or e.kind == kind then names[#names + 1] = name end
      end
      table.sort(names)
      return names
    end,
    entity = function(name) return world.entities[name] end,
    bots = function() return world.bots end,
    route_time = opts.route_time or function(a, b)
      local dx, dy, dz = b[1] - a[1], b[2] - a[2], b[3] - a[3]
      return math.sqrt(dx * dx + dy * dy + dz * dz) / 5
    end,
  }
  return world
end

-- One tick passes.
function fake.step(n)
  fake.world.tick = fake.world.tick + (n or 1)
end

local Bot = {}
Bot.__index = Bot

-- opts: id, pos, class (a table like bot:class()), routes (flags list ->
-- route table or nil), trace(dx, dy, dz) -> a trace table,
-- walkable(x, y, z) -> boolean (default: everywhere), velocity, state,
-- avoidance_on.
function fake.bot(opts)
  opts = opts or {}
  local b = setmetatable({
    opts = opts,
    p = opts.pos or { 0, 0, 0 },
    moves = {}, shown = {}, goals = {}, said = {}, avoidance_set = {},
    skipped = 0, jumps = 0, max_goals = opts.max_goals or math.huge,
  }, Bot)
  return b
end

function Bot:id() return self.opts.id or 0 end
function Bot:pos() return self.p[1], self.p[2], self.p[3] end
function Bot:class()
  return self.opts.class or { name = "human", radius = 0.4, step = 0.5, run_speed = 6, climb = 1.5, max_fall = 3 }
end
function Bot:velocity() local v = self.opts.velocity or { 0, 0, 0 } return v[1], v[2], v[3] end
function Bot:state() return self.opts.state or { on_ground = true, riding = -1 } end
function Bot:walkable(x, y, z)
  if self.opts.walkable then return self.opts.walkable(x, y, z) end
  return true
end
function Bot:move(dx, dy, priority, reason) self.moves[#self.moves + 1] = { dx, dy, priority, reason } end
function Bot:show_request(dx, dy, priority, reason) self.shown[#self.shown + 1] = { dx, dy, priority, reason } end
function Bot:say(text) self.said[#self.said + 1] = text end
function Bot:jump() self.jumps = self.jumps + 1 end
function Bot:wait() self.waited = (self.waited or 0) + 1 end
function Bot:skip_goal() self.skipped = self.skipped + 1 return true end
function Bot:add_goal(x, y, z)
  if #self.goals >= self.max_goals then return false end
  self.goals[#self.goals + 1] = { x, y, z }
  return true
end

-- bot:route: the route the test gave for these flags (keyed by the
-- flags joined with commas), else nil, "no route".
function Bot:route(x, y, z, flags, avoid)
  self.route_calls = (self.route_calls or 0) + 1
  local key = table.concat(flags or {}, ",")
  local r = (self.opts.routes or {})[key]
  if r then return r end
  return nil, "no route"
end

-- bot:avoidance(settings) records them; bot:avoidance() reads { on = ... }.
function Bot:avoidance(settings)
  if settings == nil then return { on = self.opts.avoidance_on or false } end
  self.avoidance_set[#self.avoidance_set + 1] = settings
  return true
end

function Bot:trace(dx, dy, dz)
  self.traces = (self.traces or 0) + 1
  if self.opts.trace then return self.opts.trace(dx, dy, dz) end
  return { hit = false, fraction = 1, normal = { 0, 0, 0 } }
end

return fake

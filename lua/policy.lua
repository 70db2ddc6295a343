-- policy.lua: travel-flag policies. A policy is a named table saying which
-- travel types and contents a kind of bot may use, and which ones it would
-- rather avoid when another way is not much slower. The core routes with
-- flag sets; a policy turns into one or two of them (cached), and
-- policy.route picks the route the policy prefers.
--
--   local policy = require "policy"
--   policy.define("careful", { forbid = { "walk_off_ledge", "swim" }, avoid = { "jump" }, slack = 1.5 })
--   local route = policy.route(bot, x, y, z, "careful")   -- bot:route's table, or nil, why
local policy = {}

-- Every travel type, from the engine's one table of their names.
local ALL = nav.travel_types()

local defined = {}

-- spec: { forbid = {names}, avoid = {names}, slack = factor, contents = {"water", ...} }
-- forbid: never used. avoid: used only when the route without them is more
-- than `slack` times slower (or there is none). contents: liquids it may
-- enter ("water" by default; add "lava" or "slime" to allow them).
-- The fields a spec may have: a misspelt one ("forbids") is an error, not
-- a policy that silently allows everything.
local FIELDS = { forbid = "a list of travel types", avoid = "a list of travel types",
                 slack = "a number", contents = "a list of contents" }
local FIELD_NAMES = "avoid, contents, forbid or slack"
local CONTENTS = { water = true, lava = true, slime = true, donotenter = true }

local function check_spec(name, spec)
  if type(spec) ~= "table" then
    error(("policy.define('%s'): the spec must be a table, got %s"):format(name, type(spec)), 3)
  end
  local bad = nil
  for k in pairs(spec) do
    if not FIELDS[k] and (bad == nil or tostring(k) < tostring(bad)) then bad = k end
  end
  if bad ~= nil then
    error(("policy.define('%s'): unknown field '%s'; expected %s"):format(name, tostring(bad), FIELD_NAMES), 3)
  end
  local types = {}
  for _, t in ipairs(ALL) do types[t] = true end
  for _, field in ipairs({ "forbid", "avoid", "contents" }) do
    local list = spec[field]
    if list ~= nil and type(list) ~= "table" then
      error(("policy.define('%s'): %s must be %s"):format(name, field, FIELDS[field]), 3)
    end
    for _, t in ipairs(list or {}) do
      local ok = (field == "contents") and CONTENTS[t] or (field ~= "contents" and types[t])
      if not ok then
        error(("policy.define('%s'): %s: unknown %s '%s'; expected one of: %s"):format(name, field,
          field == "contents" and "contents" or "travel type", tostring(t),
          field == "contents" and "water, lava, slime, donotenter" or table.concat(ALL, ", ")), 3)
      end
    end
  end
  if spec.slack ~= nil and (type(spec.slack) ~= "number" or spec.slack < 1) then
    error(("policy.define('%s'): slack must be a number of at least 1"):format(name), 3)
  end
end

function policy.define(name, spec)
  assert(type(name) == "string", "policy.define: name must be a string")
  spec = spec or {}
  check_spec(name, spec)
  local forbid, avoid = {}, {}
  for _, t in ipairs(spec.forbid or {}) do forbid[t] = true end
  for _, t in ipairs(spec.avoid or {}) do avoid[t] = true end
  local full, preferred = {}, {}
  for _, t in ipairs(ALL) do
    if not forbid[t] then
      full[#full + 1] = t
      if not avoid[t] then preferred[#preferred + 1] = t end
    end
  end
  for _, c in ipairs(spec.contents or { "water" }) do
    if not (c == "water" and (forbid.swim)) then
      full[#full + 1] = c
      preferred[#preferred + 1] = c
    end
  end
  local contents = {}
  for _, c in ipairs(spec.contents or { "water" }) do
    if not (c == "water" and forbid.swim) or spec.contents then contents[#contents + 1] = c end
  end
  defined[name] = {
    name = name,
    contents = contents,
    full = full,
    preferred = #preferred < #full and preferred or nil,
    slack = spec.slack or 1.5,
    forbid = forbid,
    avoid = avoid,
  }
  return defined[name]
end

function policy.get(name)
  local p = defined[name or "default"]
  if not p then error("no travel policy '" .. tostring(name) .. "'", 2) end
  return p
end

-- The flag list for the core (every allowed travel type and content).
function policy.flags(name)
  return policy.get(name).full
end

function policy.allows(name, travel_type)
  return not policy.get(name).forbid[travel_type]
end

-- The route the policy prefers from the bot to (x, y, z); avoid: links
-- this bot shuns (bot:route's avoid table), or nil.
function policy.route(bot, x, y, z, name, avoid)
  local p = policy.get(name)
  local full, why = bot:route(x, y, z, p.full, avoid)
  if not p.preferred then return full, why end
  local pref = bot:route(x, y, z, p.preferred, avoid)
  if pref and (not full or pref.time <= full.time * p.slack) then return pref end
  return full, why
end

policy.define("default", {})
policy.define("runner", {})
-- Prefers climbing: ladders, lifts, pads and teleporters only when a climb
-- is far slower or impossible.
policy.define("climber", { avoid = { "ladder", "elevator", "jump_pad", "teleport" }, slack = 4.0 })
-- Never walks off a ledge, never swims, no gap jumps; avoids slime and lava.
policy.define("cautious", { forbid = { "walk_off_ledge", "swim", "water_jump", "jump" }, contents = {} })
-- Grid units do not use the area graph, but a policy keeps brains uniform:
-- they wade fords (water no deeper than the class wades) and never swim.
policy.define("rts", { forbid = { "climb", "ladder", "jump", "barrier_jump", "swim", "water_jump" },
                       contents = { "water" } })

return policy

-- check.lua: assertions for the lua/ module tests. Each raises an error
-- naming what differed, at the caller's line.
local check = {}

local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for i = 1, #v do parts[#parts + 1] = show(v[i]) end
  return "{ " .. table.concat(parts, ", ") .. " }"
end
check.show = show

function check.eq(got, want, what)
  if got ~= want then error(string.format("%s: got %s, want %s", what or "value", show(got), show(want)), 2) end
end

function check.near(got, want, tol, what)
  if type(got) ~= "number" or math.abs(got - want) > tol then
    error(string.format("%s: got %s, want %s within %g", what or "value", show(got), show(want), tol), 2)
  end
end

function check.truthy(v, what)
  if not v then error((what or "expected a true value") .. ": got " .. show(v), 2) end
end

-- Lists equal element by element (shallow).
function check.list(got, want, what)
  local same = type(got) == "table" and #got == #want
  for i = 1, #want do same = same and got[i] == want[i] end
  if not same then error(string.format("%s: got %s, want %s", what or "list", show(got), show(want)), 2) end
end

-- f(...) raises an error whose message contains `part`.
function check.errors(part, f, ...)
  local ok, e = pcall(f, ...)
  if ok then error("no error (wanted one with " .. show(part) .. ")", 2) end
  if not tostring(e):find(part, 1, true) then error("error " .. show(tostring(e)) .. " lacks " .. show(part), 2) end
end

-- Does list l hold v?
function check.has(l, v)
  for _, x in ipairs(l) do if x == v then return true end end
  return false
end

return check

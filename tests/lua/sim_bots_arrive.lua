-- lua5.4 test: a simulation through require "nav": brains bring bots to
-- their goal, a broken brain faults its bot only, a body driven from this
-- script moves as told, runs repeat, output and pictures are written.
local nav = require "nav"

local map <close> = nav.load_map(assert(nav.bundled("maps/gauntlet.lua")))
local start, goal = map:point("spawn_start"), map:point("goal_loft")

local lines = {}
local function run(seed)
  local sim = map:sim { seed = seed, print = function(line) lines[#lines + 1] = line end }
  for i = 0, 2 do
    local id = sim:add_bot { brain = "runner", at = { start[1] + i, start[2], start[3] }, goal = goal }
    assert(id == i, "ids in order")
  end
  return sim
end

local sim <close> = run(11)
local ticks = 0
repeat
  ticks = sim:step(30)
  local all = true
  for _, b in ipairs(sim:bots()) do all = all and b.arrived end
until all or ticks >= 30 * 60
for _, b in ipairs(sim:bots()) do
  assert(b.arrived, string.format("bot %d not arrived at (%.1f, %.1f, %.1f): %s", b.id, b.pos[1], b.pos[2], b.pos[3], b.state))
  assert(not b.faulted and b.error == nil and b.brain == "runner" and b.class == "human")
  assert(math.abs(b.pos[3] - goal[3]) < 1.0, "on the goal's floor")
  assert(b.arrival_time > 0 and b.goals_left == 0 and b.goals_reached == 1)
end
assert(sim:tick() == ticks and math.abs(sim:time() - ticks / 30) < 1e-9)

-- The same seed and bots give the same run.
do
  local again <close> = run(11)
  again:step(ticks)
  assert(again:hash() == sim:hash(), "same run, same trace hash")
end

-- A brain that does not load: the bot is added, faulted, and says why;
-- the others go on.
local bad = map:sim {}
local ok_id = bad:add_bot { brain = "runner", at = start, goal = goal }
local id, why = bad:add_bot { brain = "no_such_brain", at = { start[1] + 1, start[2] } }
assert(id == 1 and why:find("no_such_brain"), tostring(why))
bad:step(60)
local st = bad:bot(id)
assert(st.faulted and st.error:find("no_such_brain"), "faulted with its reason")
assert(not bad:bot(ok_id).faulted and bad:bot(ok_id).distance > 1, "the other bot runs")
bad:close()

-- A project folder of our own: a brain that prints and requires a module.
local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir -p " .. dir .. "/bots " .. dir .. "/lua"))
local f = assert(io.open(dir .. "/lua/speed.lua", "w"))
f:write("return { east = 1 }\n")
f:close()
f = assert(io.open(dir .. "/bots/walker.lua", "w"))
f:write("local speed = require 'speed'\nreturn { spawn = function(bot) print('hello from walker') end,\n" ..
        "think = function(bot) bot:move(speed.east, 0) end }\n")
f:close()
do
  local own <close> = map:sim { dirs = { dir }, print = function(line) lines[#lines + 1] = line end }
  local w1 = own:add_bot { brain = "walker", at = start }
  local w2 = own:add_bot { brain = dir .. "/bots/walker.lua", at = { start[1], start[2] - 2 } }
  -- A body driven from here: east at full speed.
  local body = own:add_bot { at = { start[1], start[2] - 4 } }
  own:control(body, { move = { 1, 0 } })
  own:step(30)
  for _, i in ipairs { w1, w2, body } do
    local b = own:bot(i)
    assert(not b.faulted, tostring(b.error))
    assert(b.pos[1] - start[1] > 3, string.format("bot %d moved %.2f m east", i, b.pos[1] - start[1]))
  end
  local png = os.tmpname()
  own:png(png, 320)
  local pf = assert(io.open(png, "rb"))
  assert(pf:read(8) == "\137PNG\r\n\26\n", "a PNG")
  pf:close()
  os.remove(png)
end
os.execute("rm -r " .. dir)
local hello = false
for _, l in ipairs(lines) do hello = hello or l:find("hello from walker", 1, true) ~= nil end
assert(hello, "print from a brain reaches the print option")
print("sim_bots_arrive: ok")

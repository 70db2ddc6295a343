-- learn.lua: bots that know only what they have seen. A learner has a
-- navigation memory (bot:memory()): the engine teaches it every link it
-- crosses itself and every link it sees another body cross (a ladder
-- climbed, a lift ridden, a gap jumped), and it routes only over those.
-- When its goal is beyond what it knows it
--   1. explores: walks (crouches, swims) over the unknown link at the edge
--      of what it knows that looks best for the goal, and learns by crossing;
--   2. watches: with nothing left to explore on foot, it takes the last
--      link it saw a body take (a ladder, a lift ...) to see what is
--      beyond, or goes where it last saw another body, to see it move again;
--   3. waits, saying so, until it sees a way.
-- Its searches are sliced (bot:memory_route without `now`): while one
-- runs the bot keeps walking its last route, and the answer is from where
-- the bot is when it is ready.
--
--   local learn = require "learn"
--   local l = learn.new(bot, { explore = true })
--   function brain.think(bot, dt) l:update(dt) end
--   function brain.on_learn(bot, info) l:learned(info) end
local follow = require "follow"
local policy = require "policy"

local learn = {}
learn.__index = learn

learn.LOOK_EVERY = 0.25   -- seconds between looks for a body to watch
learn.FORGET_SEEN = 30    -- seconds after which a body seen is not followed any more
learn.NEAR_SEEN = 2.5     -- metres from where it was seen that count as there
learn.TRY_AGAIN = 30      -- seconds a frontier link that could not be crossed is left alone
learn.STUCK_GIVE_UP = 3   -- seconds stuck at a frontier before it is left alone
learn.SHADOW_REST = 4     -- seconds a teacher stands still before the shadowing ends
learn.SHADOW_GAP = 3.0    -- metres a shadow keeps from its teacher

local huge, sqrt = math.huge, math.sqrt

local KNOWN_OPTS = { policy = true, explore = true, try = true, watch = true, knows = true, sight = true,
                     floors = true, links_per_area = true, say = true, shadow = true }

-- opts (all optional):
--   policy   the travel policy (policy.lua), default "runner"
--   explore  walk into what it does not know (default true)
--   try      travel types it tries when exploring (default {"walk", "crouch",
--            "swim", "water_jump"}: what a body can see it may try; ladders,
--            lifts, jumps, pads and teleporters it takes once it saw them used)
--   watch    go where it last saw another body when it knows no way (default true)
--   knows    what it knows at the start: nil (the area it stands in), or a
--            table for mem:learn_reachable from where it stands
--            ({ types = {"walk"}, layer = "ground" }: its storey on foot)
--   sight    metres it sees bodies and floors at (default: the engine's, 30)
--   floors   learns the walks to floor it sees (default true); false: only
--            what it crosses and what it sees bodies do
--   shadow   first follow a teacher round (true: the first body it sees
--            moving that has no memory; or a bot id) until it has rested
--            SHADOW_REST seconds, learning what it sees it do; then go to
--            its own goals (default false)
--   links_per_area  the memory's bound (default 8)
--   say      state text (default true)
function learn.new(bot, opts)
  opts = opts or {}
  for k in pairs(opts) do
    if not KNOWN_OPTS[k] then
      error("learn.new: unknown option '" .. tostring(k) ..
            "' (accepted: policy, explore, try, watch, knows, sight, floors, links_per_area, say, shadow)", 2)
    end
  end
  local self = setmetatable({
    bot = bot,
    policy = opts.policy or "runner",
    explore = opts.explore ~= false,
    try = opts.try or { "walk", "crouch", "swim", "water_jump" },
    watch = opts.watch ~= false,
    use_say = opts.say ~= false,
    mode = "idle",       -- "known", "thinking", "explore", "watch", "wait"
    last = nil,          -- the last route it had (kept while a search runs)
    searching = false,
    shun = {},           -- frontier link id -> time it may be tried again
    frontier = nil,
    seen = nil,          -- { x, y, z, t, id } where another body was last seen
    look_age = huge,
    learned_count = 0,
    shadow = opts.shadow and true or false,
    teacher = type(opts.shadow) == "number" and opts.shadow or nil,
    rest = 0,
  }, learn)
  self.mem = bot:memory(opts.links_per_area and { links_per_area = opts.links_per_area } or nil)
  if opts.sight then bot:sight(opts.sight) end
  if opts.floors == false then bot:sight_floors(false) end
  if opts.knows then
    local x, y, z = bot:pos()
    self.mem:learn_reachable(x, y, z, opts.knows)
  end
  self.follow = follow.new(bot, {
    policy = self.policy, say = false,
    route = function(b, x, y, z, pol, avoid) return self:route(b, x, y, z, pol, avoid) end,
  })
  return self
end

function learn:say(text)
  if self.use_say then self.bot:say(text) end
end

-- Plan again, but never while taking a link (a climb, a jump, a ladder):
-- follow would let go of it halfway.
function learn:replan()
  if not self.follow.link then self.follow:replan() end
end

-- Frontier links it should not try now.
function learn:shunned()
  local now, list = nav.time(), {}
  for id, untilt in pairs(self.shun) do
    if untilt > now then list[#list + 1] = id else self.shun[id] = nil end
  end
  table.sort(list)
  while #list > 32 do table.remove(list) end
  return list
end

-- follow's route function: within memory, else the frontier, else where
-- another body was last seen.
function learn:route(bot, gx, gy, gz, pol)
  local flags = policy.flags(pol)
  if self.mode == "shadow" then
    local r, why = bot:memory_route(gx, gy, gz, { flags = flags, now = true })
    if r and #r.links > 0 then self.last = r return r end
    -- No known way to where the teacher was seen: the way it was seen to
    -- go, if any.
    local lead = self.lead
    if lead then
      r = bot:memory_route(lead.finish[1], lead.finish[2], lead.finish[3], { flags = flags, now = true })
      if r and #r.links > 0 then self.last = r return r end
    end
    -- Seen over there, no way known: walk toward it over floor not yet
    -- known (on foot only).
    r = bot:explore_route(gx, gy, gz, { flags = flags, try = self.try, shun = self:shunned() })
    if r then
      self.frontier, self.last = r.frontier, r
      return r
    end
    return nil, why or "beside its teacher"
  end
  local r, why = bot:memory_route(gx, gy, gz, { flags = flags })
  if r then
    self.searching = r.partial
    self.mode = r.partial and "thinking" or "known"
    self.follow:set_goal(nil)
    self.last = r
    return r
  end
  if why == "searching" or why == "queued" then
    self.searching = true
    self.mode = "thinking"
    if self.last and self.mode_before ~= "wait" then return self.last end
    return nil, "thinking"
  end
  self.searching = false
  if self.explore then
    local shun = self:shunned()
    local ex = bot:explore_route(gx, gy, gz, { flags = flags, try = self.try, shun = shun })
    if not ex and #shun > 0 then
      -- Nothing else to try: the links left alone get another go.
      self.shun = {}
      ex = bot:explore_route(gx, gy, gz, { flags = flags, try = self.try })
    end
    if ex then
      self.mode, self.frontier, self.last = "explore", ex.frontier, ex
      self.follow:set_goal(nil)
      return ex
    end
  end
  -- Where it last saw a body go by a link it did not know: take the link
  -- too, to see what is beyond.
  local lead = self.lead
  if self.watch and lead then
    local tr = bot:memory_route(lead.finish[1], lead.finish[2], lead.finish[3], { flags = flags, now = true })
    if tr and #tr.links > 0 then
      self.mode, self.last = "lead", tr
      return tr
    end
    self.lead = nil
  end
  local s = self.seen
  if self.watch and s and nav.time() - s.t < learn.FORGET_SEEN then
    local tr = bot:memory_route(s.x, s.y, s.z, { flags = flags, now = true })
    if tr and #tr.links > 0 then
      self.mode, self.last = "watch", tr
      return tr
    end
  end
  self.mode, self.last = "wait", nil
  return nil, "no way known"
end

-- Look for another body to learn from: the nearest one in sight that moves.
function learn:look(dt)
  self.look_age = self.look_age + dt
  if self.look_age < learn.LOOK_EVERY then return end
  self.look_age = 0
  local bot = self.bot
  local x, y, z = bot:pos()
  local best, bd = nil, huge
  for _, o in ipairs(nav.bots()) do
    if o ~= bot and bot:sees(o) then
      local ox, oy, oz = o:pos()
      local vx, vy = o:velocity()
      local d = (ox - x) ^ 2 + (oy - y) ^ 2 + (oz - z) ^ 2
      if vx * vx + vy * vy > 0.25 and d < bd then best, bd = o, d end
    end
  end
  if best then
    local ox, oy, oz = best:pos()
    self.seen = { x = ox, y = oy, z = oz, t = nav.time(), id = best:id() }
  end
end

-- What the engine taught it (brain.on_learn): plan again with it.
function learn:learned(info)
  self.learned_count = self.learned_count + 1
  if info.how == "watched" and info.link.type ~= "walk" and info.link.type ~= "crouch" then self.lead = info.link end
  if self.mode ~= "known" then
    self:replan()
    self.wait_age = 1.0 -- a waiting learner looks again at once
  end
end

-- Shadowing: the teacher, if it is still touring; nil when done.
function learn:teacher_at(dt)
  if not self.shadow then return nil end
  local bot = self.bot
  if not self.teacher then
    for _, o in ipairs(nav.bots()) do
      local vx, vy = o:velocity()
      if o ~= bot and not o:has_memory() and bot:sees(o) and vx * vx + vy * vy > 0.25 then
        self.teacher = o:id()
        break
      end
    end
    if not self.teacher then return nil end
  end
  local t = nav.bot(self.teacher)
  if not t then self.shadow = false return nil end
  -- Resting: standing still with no goal left (a teacher waiting for its
  -- pupils, or for a lift, has not finished).
  local vx, vy = t:velocity()
  if vx * vx + vy * vy < 0.04 and t:goals() == 0 then self.rest = self.rest + dt else self.rest = 0 end
  if self.rest > learn.SHADOW_REST then
    self.shadow = false
    self.mode = "idle"
    self.follow:set_goal(nil)
    self:replan()
    return nil
  end
  self.teacher_visible = bot:sees(t)
  -- Where it was last seen standing (a point in the air is on no floor).
  local st = t:state()
  if (self.teacher_visible and (st.on_ground or st.in_water)) or not self.teacher_seen then
    local x, y, z = t:pos()
    self.teacher_seen = { x, y, z }
  end
  return self.teacher_seen
end

function learn:update(dt)
  local bot = self.bot
  local tp = self:teacher_at(dt)
  if tp then
    if self.mode ~= "shadow" then self.mode = "shadow" self:replan() end
    local x, y = bot:pos()
    -- Near enough: a few metres from a teacher in sight; out of sight, on
    -- the very spot it was last seen (from there it may be seen again).
    local gap = self.teacher_visible and learn.SHADOW_GAP or 0.5
    -- (A link being taken is finished first: a teleporter, a climb.)
    local near = sqrt((tp[1] - x) ^ 2 + (tp[2] - y) ^ 2) < gap and not self.follow.link
    local moved = not self.shadow_at or sqrt((tp[1] - self.shadow_at[1]) ^ 2 + (tp[2] - self.shadow_at[2]) ^ 2) > 1
    -- A new target re-plans, so not while taking a link (a jump, a ladder).
    if moved and not self.follow.link then
      self.shadow_at = { tp[1], tp[2], tp[3] }
      self.follow:set_goal(tp[1], tp[2], tp[3])
    end
    if near then
      -- Lost on the spot where the teacher was last seen: take the link it
      -- was last seen taking, if any, to find it again.
      self.lost = self.teacher_visible and 0 or (self.lost or 0) + dt
      local lead = self.lead
      if self.lost > 1.0 and lead and not self.follow.link then
        self.follow:set_goal(lead.finish[1], lead.finish[2], lead.finish[3])
        self.shadow_at = { lead.finish[1], lead.finish[2], lead.finish[3] }
        self.teacher_seen = self.shadow_at
        self.lead = nil
      else
        bot:move(0, 0)
        bot:wait()
        self:say("watching its teacher")
        return "watching"
      end
    end
    local status = self.follow:update(dt)
    self:say("following its teacher")
    return status
  end
  if self.watch then self:look(dt) end
  local gx, gy, gz = bot:goal()
  -- Keep the sliced search going; take its answer when ready.
  if self.searching and gx then
    local r = bot:memory_route(gx, gy, gz, { flags = policy.flags(self.policy) })
    if r and not r.partial then
      self.searching = false
      self:replan()
    elseif not r then
      self:replan()
    end
  end
  -- A frontier it does not get nearer to: leave it alone for a while.
  if self.mode == "explore" and self.frontier then
    local fr, x, y, z = self.frontier, bot:pos()
    local d = sqrt((fr.start[1] - x) ^ 2 + (fr.start[2] - y) ^ 2 + (fr.start[3] - z) ^ 2)
    local p = self.progress
    if not p or p.id ~= fr.id then
      self.progress = { id = fr.id, best = d, since = 0 }
    elseif d < p.best - 0.5 then
      p.best, p.since = d, 0
    else
      p.since = p.since + dt
      if p.since > learn.STUCK_GIVE_UP then
        self.shun[fr.id] = nav.time() + learn.TRY_AGAIN
        self.frontier, self.progress = nil, nil
        self:replan()
      end
    end
  end
  -- Watching: near where the body was seen, stand and look.
  if self.mode == "watch" and self.seen then
    local x, y = bot:pos()
    if sqrt((x - self.seen.x) ^ 2 + (y - self.seen.y) ^ 2) < learn.NEAR_SEEN then self.seen = nil end
  end
  -- No way known: stand and look (waiting is not being stuck), and try
  -- again every second (it may have seen something meanwhile).
  if self.mode == "wait" and gx then
    self.wait_age = (self.wait_age or 0) + dt
    if self.wait_age < 1.0 then
      bot:move(0, 0)
      bot:wait()
      self:say("waiting to see a way")
      return "waiting"
    end
    self.wait_age = 0
    self:replan()
  end
  self.mode_before = self.mode
  local status = self.follow:update(dt)
  if self.use_say then
    if not gx then self:say("idle")
    elseif self.mode == "known" then self:say("known way")
    elseif self.mode == "thinking" then self:say("thinking (searching what it knows)")
    elseif self.mode == "explore" then self:say("exploring: " .. (self.frontier and self.frontier.type or "?"))
    elseif self.mode == "watch" then self:say("watching: going where it saw a body")
    elseif self.mode == "lead" then self:say("going the way it saw a body go")
    else self:say("waiting to see a way") end
  end
  return status
end

return learn

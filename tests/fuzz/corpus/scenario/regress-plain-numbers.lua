return { _kind = "scenario", map = "maps/arena.lua", seed = -1, time_limit = math.huge, bots = { { _kind = "bot", name = "r", at = "spawn_a", count = 1e300 } } }

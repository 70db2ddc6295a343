return { _kind = "scenario", map = "maps/arena.lua", bots = { { _kind = "bot", name = "r", at = "spawn_a" } }, expect = { 5 } }

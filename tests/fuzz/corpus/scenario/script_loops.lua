-- A brain that loops forever one second in: the per-tick instruction
-- budget stops it (a fault naming the budget and the file), and the other
-- bots never notice.
local S = require "scenario"

return S.scenario {
  description = "a script that loops forever is stopped by its budget",
  map = "maps/arena.lua",
  time_limit = 10,
  bots = {
    S.bot { name = "spinner", brain = "spinner", at = { 3, 3 } },
    S.bot { name = "runner", brain = "runner", at = "spawn_a", goals = { "spawn_b" } },
  },
  expect = {
    S.faults("spinner", { matching = "instruction budget", within = 1.1 }),
    S.faults("spinner", { matching = "bots/spinner.lua:" }),
    S.no_faults({ except = "spinner" }),
    S.arrives("runner", { within = 8 }),
    S.near_optimal("runner", { factor = 1.3 }),
  },
}

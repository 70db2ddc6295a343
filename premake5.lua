-- navbot build description.
--
-- One file for both premake generations: a real premake5 (`premake5 gmake`,
-- or `gmake2` on older betas) and Debian's premake4 4.3
-- (`premake4 --file=premake5.lua gmake`). Only the API both understand is
-- used directly; the few calls that differ go through the shims below.
-- premake4 runs Lua 5.1, so no goto, no integer division, no bit operators.
--
-- Actions added here (they generate, build and run in one go):
--   run   build release and run the main job: a runner on maps/gauntlet.lua
--         in the window, or headless to build/navbot-sim.png with no display
--   test  build debug + sanitize, run the unit tests; build release, check
--         the window under Xvfb and run every scenario (tests/scenarios);
--         print one summary line
--   fuzz  fuzz the map loaders with clang's libFuzzer (FUZZ_SECONDS=60)
--
-- Configurations: debug, release, sanitize (ASan + UBSan, -O1).

local P4 = tostring(_PREMAKE_VERSION or ""):match("^4%.") ~= nil
local PREMAKE = _PREMAKE_COMMAND or (P4 and "premake4 --file=premake5.lua" or "premake5")
local GMAKE = P4 and "gmake" or (_PREMAKE_VERSION and tostring(_PREMAKE_VERSION):match("beta[1-4]") and "gmake2" or "gmake")

-- {======= shims over the premake4 / premake5 differences =======

local container = workspace or solution

local function when(cfg)           -- nil resets the filter
  if filter then
    filter(cfg and ("configurations:" .. cfg) or {})
  else
    configuration(cfg or {})
  end
end

local function debug_symbols()
  if symbols then symbols "On" else flags { "Symbols" } end
end

local function optimize_speed()
  if optimize then optimize "Speed" else flags { "OptimizeSpeed" } end
end

local function c11()
  if cdialect then cdialect "C11" else buildoptions { "-std=c11" } end
end

local function shell_output(cmd)
  local f = io.popen(cmd .. " 2>/dev/null")
  local s = f:read("*a") or ""
  f:close()
  return (s:gsub("%s+$", ""))
end

-- Lua 5.1 returns a number from os.execute, Lua 5.3 returns ok, how, code.
local function succeeded(a, _, c)
  if type(a) == "number" then return a == 0 end
  return a == true and (c or 0) == 0
end

-- }=======

-- {======= dependencies, all from Debian's packages via pkg-config =======

local PKGS = "lua5.4 sdl2 cglm stb"
local pkg_cflags = shell_output("pkg-config --cflags " .. PKGS)
local pkg_libs = shell_output("pkg-config --libs " .. PKGS)
local criterion_libs = shell_output("pkg-config --libs criterion")
if criterion_libs == "" then criterion_libs = "-lcriterion" end

-- }=======

local WARNINGS = { "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes",
                   "-Wmissing-prototypes", "-Wno-unused-parameter" }
local SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

local function common_settings()
  language "C"
  c11()
  buildoptions(WARNINGS)
  if pkg_cflags ~= "" then buildoptions { pkg_cflags } end
  defines { "_POSIX_C_SOURCE=200809L" }
  includedirs { "engine" }
  targetdir "bin"

  when "debug"
    defines { "NAV_DEBUG" }
    debug_symbols()
    buildoptions { "-O0" }
    targetdir "bin/debug"
  when "release"
    defines { "NDEBUG" }
    optimize_speed()
    debug_symbols()
    targetdir "bin/release"
  when "sanitize"
    defines { "NAV_DEBUG", "NAV_SANITIZE" }
    debug_symbols()
    buildoptions { "-O1", SANITIZE }
    linkoptions { SANITIZE }
    targetdir "bin/sanitize"
  when(nil)
end

-- Splits pkg-config's --libs into library names and search paths, so the
-- libraries go through links{} and land after navbot_core on the command
-- line in both generations (linkoptions would come before it).
local function split_libs(flags)
  local names, dirs, other = {}, {}, {}
  for tok in flags:gmatch("%S+") do
    if tok:sub(1, 2) == "-l" then table.insert(names, tok:sub(3))
    elseif tok:sub(1, 2) == "-L" then table.insert(dirs, tok:sub(3))
    else table.insert(other, tok) end
  end
  return names, dirs, other
end

local function link_engine(extra_libs)
  local names, dirs, other = split_libs(pkg_libs .. " " .. (extra_libs or "") .. " -lm")
  local all = { "navbot_core" }
  for _, n in ipairs(names) do table.insert(all, n) end
  links(all)
  if #dirs > 0 then libdirs(dirs) end
  if #other > 0 then linkoptions(other) end
end

container "navbot"
  configurations { "debug", "release", "sanitize" }
  location "build"

-- The engine library: no file-system housekeeping (the scenario runner's
-- temporary folders and golden files live in engine/scenario, built only
-- into the command line tool and the tests).
project "navbot_core"
  kind "StaticLib"
  common_settings()
  files { "engine/**.c", "engine/**.h" }
  excludes { "engine/cli/**", "engine/scenario/**" }

project "navbot"
  kind "ConsoleApp"
  common_settings()
  files { "engine/cli/**.c", "engine/cli/**.h", "engine/scenario/**.c", "engine/scenario/**.h" }
  link_engine()

project "navbot_tests"
  kind "ConsoleApp"
  common_settings()
  includedirs { "tests/unit" }
  files { "tests/unit/**.c", "tests/unit/**.h", "engine/cli/**.c", "engine/cli/**.h",
          "engine/scenario/**.c", "engine/scenario/**.h" }
  excludes { "engine/cli/main.c" }
  link_engine(criterion_libs)

-- {======= actions: generate + build + run in one command =======

local function sh(cmd)
  print("+ " .. cmd)
  io.stdout:flush()
  return succeeded(os.execute(cmd))
end

local function jobs()
  local n = tonumber(shell_output("nproc")) or 2
  return tostring(n)
end

local function build(config, target)
  if not sh(PREMAKE .. " " .. GMAKE .. " >/dev/null") then return false end
  -- make relinks only when an object is newer than the binary, so a source
  -- file removed since the last build would stay linked in. Relinking is
  -- cheap; drop the executables.
  os.remove("bin/" .. config .. "/navbot")
  os.remove("bin/" .. config .. "/navbot_tests")
  return sh("make --no-print-directory -C build -j" .. jobs() .. " config=" .. config ..
            (target and (" " .. target) or ""))
end

newaction {
  trigger = "run",
  description = "Build the release navbot and run the main job on a bundled map",
  execute = function()
    if not build("release", "navbot") then os.exit(1) end
    io.stdout:flush()
    local display = (os.getenv("DISPLAY") or "") ~= "" or (os.getenv("WAYLAND_DISPLAY") or "") ~= ""
    local cmd = "bin/release/navbot sim maps/gauntlet.lua runner"
    if not display then cmd = cmd .. " --headless --png build/navbot-sim.png" end
    os.exit(sh(cmd) and 0 or 1)
  end
}

-- Runs a Criterion binary and returns passed, failed. Its report is echoed
-- after the run. Sanitizer reports count as failures even when Criterion
-- passed the test: LeakSanitizer reports at a worker's exit, after the
-- test's result is in, so only the log shows a leak. `workers` overrides
-- the parallel job count.
local function criterion(binary, label, workers)
  local tap = "build/" .. label .. ".tap"
  local log = "build/" .. label .. ".log"
  os.remove(tap)
  local ok = sh(binary .. " --jobs=" .. (workers or jobs()) .. " --tap=" .. tap .. " 2>" .. log)
  local passed, failed = 0, 0
  local f = io.open(tap, "r")
  if f then
    for line in f:lines() do
      if line:match("^ok ") and not line:match("# SKIP") then passed = passed + 1
      elseif line:match("^not ok ") then failed = failed + 1 end
    end
    f:close()
  end
  local reports = 0
  f = io.open(log, "r")
  if f then
    for line in f:lines() do
      print(line)
      if line:match("ERROR: LeakSanitizer") or line:match("ERROR: AddressSanitizer") or
         line:match("runtime error:") then
        reports = reports + 1
      end
    end
    f:close()
  end
  if reports > 0 then
    print(string.format("%s: %d sanitizer report(s) in %s", label, reports, log))
    failed = failed + reports
  end
  if not ok and failed == 0 then failed = 1 end -- the runner itself died
  print(string.format("%s: %d passed, %d failed", label, passed, failed))
  return passed, failed
end

-- Runs every regression scenario (tests/scenarios/*.lua) with the release
-- navbot and returns passed, failed from its last line, `N passed, N
-- failed`. Its report is echoed; a failure there names the expectation,
-- the picture and the trace left in build/scenarios.
local function scenarios()
  local log = "build/scenarios.log"
  local ok = sh("bin/release/navbot test --jobs " .. jobs() .. " >" .. log .. " 2>&1")
  local passed, failed, last = 0, 0, nil
  local f = io.open(log, "r")
  if f then
    for line in f:lines() do
      print(line)
      last = line
    end
    f:close()
  end
  local p, n = (last or ""):match("^(%d+) passed, (%d+) failed$")
  if p then passed, failed = tonumber(p), tonumber(n) end
  if not p or (not ok and failed == 0) then failed = failed + 1 end -- the runner itself died
  print(string.format("scenarios: %d passed, %d failed", passed, failed))
  return passed, failed
end

-- The real window under a virtual X server: `navbot sim` runs five seconds
-- of the gauntlet in its SDL2 window while xwd takes a screenshot of the
-- X server's screen, which must show a picture (many colours, mostly not
-- black). Returns passed, failed.
local function u32be(s, at)
  local a, b, c, d = s:byte(at + 1, at + 4)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

local function window_check()
  local shot = "build/window-xvfb.xwd"
  os.remove(shot)
  local ok = sh("xvfb-run -a -s '-screen 0 1280x800x24' sh -c " ..
                "'bin/release/navbot sim maps/gauntlet.lua runner --ticks 150 --quiet >build/window-xvfb.log 2>&1 & " ..
                "sleep 3; xwd -root -silent > " .. shot .. "; wait $!'")
  local f = io.open(shot, "rb")
  local data = f and f:read("*a") or ""
  if f then f:close() end
  local verdict = "no screenshot"
  local good = false
  if #data > 100 then
    local header, width, height = u32be(data, 0), u32be(data, 16), u32be(data, 20)
    local bpp, line, ncolors = u32be(data, 44), u32be(data, 48), u32be(data, 76)
    local base = header + ncolors * 12
    local seen, distinct, lit, samples = {}, 0, 0, 0
    if bpp == 32 then
      for y = 0, height - 1, 7 do
        for x = 0, width - 1, 11 do
          local at = base + y * line + x * 4
          local px = data:sub(at + 1, at + 3)
          if #px == 3 then
            samples = samples + 1
            if not seen[px] then seen[px] = true; distinct = distinct + 1 end
            if px ~= "\0\0\0" then lit = lit + 1 end
          end
        end
      end
    end
    good = ok and distinct >= 16 and samples > 0 and lit > samples / 2
    verdict = string.format("%dx%d screenshot, %d colours, %d%% not black", width, height, distinct,
                            samples > 0 and math.floor(100 * lit / samples) or 0)
  end
  print(string.format("window under Xvfb: %s: %s", good and "ok" or "FAILED", verdict))
  return good and 1 or 0, good and 0 or 1
end

newaction {
  trigger = "test",
  description = "Build debug, sanitize and release; run the unit tests, the window test and every scenario; end with 'N passed, N failed'",
  execute = function()
    local total_p, total_f = 0, 0
    for _, cfg in ipairs({ "debug", "sanitize" }) do
      if not build(cfg) then
        print("0 passed, 1 failed")
        os.exit(1)
      end
      -- Under the sanitizers one worker: Criterion's parallel runner leaks a
      -- record of its own at exit with this many tests, and LeakSanitizer
      -- cannot tell that allocation from one made by a test.
      local p, f = criterion("bin/" .. cfg .. "/navbot_tests", "unit-" .. cfg, cfg == "sanitize" and 1 or nil)
      total_p, total_f = total_p + p, total_f + f
    end
    if not build("release", "navbot") then
      print(string.format("%d passed, %d failed", total_p, total_f + 1))
      os.exit(1)
    end
    local wp, wf = window_check()
    total_p, total_f = total_p + wp, total_f + wf
    -- Scenarios run on the release build: the same hashes as debug, faster.
    local sp, sf = scenarios()
    total_p, total_f = total_p + sp, total_f + sf
    -- The summary is the last line (os.exit skips premake's own "Done.").
    print(string.format("%d passed, %d failed", total_p, total_f))
    io.stdout:flush()
    os.exit(total_f > 0 and 1 or 0)
  end
}

newaction {
  trigger = "fuzz",
  description = "Fuzz both map loaders with clang's libFuzzer (FUZZ_SECONDS, default 60)",
  execute = function()
    local seconds = tonumber(os.getenv("FUZZ_SECONDS") or "") or 60
    local sources = {}
    for _, f in ipairs(os.matchfiles("engine/**.c")) do
      if not f:match("^engine/cli/") and not f:match("^engine/scenario/") then table.insert(sources, f) end
    end
    os.mkdir("bin/fuzz")
    os.mkdir("build/fuzz-corpus")
    -- Seed corpus: every bundled map behind the Lua selector byte, and a
    -- small grid behind the Moving AI one.
    for i, m in ipairs(os.matchfiles("maps/*.lua")) do
      local src = io.open(m, "rb"); local text = src:read("*a"); src:close()
      local out = io.open("build/fuzz-corpus/lua" .. i, "wb"); out:write("\0" .. text); out:close()
    end
    local out = io.open("build/fuzz-corpus/grid", "wb")
    out:write("\1type octile\nheight 3\nwidth 3\nmap\n.@.\n...\nT..\n")
    out:close()
    local cmd = "clang -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -DNAV_DEBUG -Iengine " .. pkg_cflags ..
      " -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined " ..
      table.concat(sources, " ") .. " tests/fuzz/fuzz_maps.c -o bin/fuzz/fuzz_maps " .. pkg_libs .. " -lm"
    if not sh(cmd) then os.exit(1) end
    io.stdout:flush()
    os.exit(sh("bin/fuzz/fuzz_maps -max_total_time=" .. seconds .. " -max_len=65536 -rss_limit_mb=2048 " ..
               "-timeout=10 build/fuzz-corpus") and 0 or 1)
  end
}

-- }=======

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
--         print one summary line (the run is tests/driver.lua)
--   docs  build release and run every command line README.md and docs/
--         show (tests/driver.lua; also part of `test`)
--   fuzz  fuzz the map loaders with clang's libFuzzer (FUZZ_SECONDS=60;
--         tests/driver.lua)
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

newaction {
  trigger = "test",
  description = "Build debug, sanitize and release; run the unit tests, the window test and every scenario; end with 'N passed, N failed'",
  execute = function()
    -- The test run itself lives in tests/driver.lua; this file only builds.
    local driver = dofile("tests/driver.lua")
    os.exit(driver.test { build = build, sh = sh, jobs = jobs } and 0 or 1)
  end
}

newaction {
  trigger = "docs",
  description = "Build the release navbot and run every command line shown in README.md and docs/",
  execute = function()
    if not build("release", "navbot") then os.exit(1) end
    local driver = dofile("tests/driver.lua")
    local _, failed = driver.docs_check()
    os.exit(failed == 0 and 0 or 1)
  end
}

newaction {
  trigger = "fuzz",
  description = "Fuzz both map loaders with clang's libFuzzer (FUZZ_SECONDS, default 60)",
  execute = function()
    local driver = dofile("tests/driver.lua")
    os.exit(driver.fuzz { sh = sh, cflags = pkg_cflags, libs = pkg_libs } and 0 or 1)
  end
}

-- }=======

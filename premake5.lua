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
--   install  build release and install navbot, libnavbot.so/.a, navbot.h,
--         navbot.pc, nav.so and the bundled lua/, bots/, maps/ into
--         $DESTDIR$PREFIX (PREFIX default /usr/local; docs/c-api.md)
--   test-install  only the install checks of `test`: install into
--         build/prefix, build and run examples/ and tests/lua against it
--   fuzz  run every fuzzer of tests/fuzz with clang's libFuzzer, one after
--         the other (FUZZ_SECONDS=60 each, FUZZ_ONLY=NAME; tests/driver.lua)
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

-- Both generations put buildoptions on C and C++ compiles alike (premake4's
-- CXXFLAGS holds its CFLAGS), so flags for one language are wrapped in a
-- make conditional on the rule's source ($<): the engine's one C++ file
-- (engine/map/mesh_voxel.cpp, the bridge to Recast) gets neither -std=c11
-- nor the C-only warnings, and C files get none of the C++ flags.
local function c_only(opts) return "$(if $(filter %.c,$<)," .. opts .. ")" end
local function cxx_only(opts) return "$(if $(filter %.cpp,$<)," .. opts .. ")" end

local function c11()
  if cdialect then cdialect "C11" else buildoptions { c_only("-std=c11") } end
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

local PKGS = "lua5.4 sdl2 cglm stb libcjson"
local pkg_cflags = shell_output("pkg-config --cflags " .. PKGS)
local pkg_libs = shell_output("pkg-config --libs " .. PKGS)
-- Recast (Debian's librecast-dev) voxelizes mesh maps. It ships no
-- pkg-config file; it is C++, so the C++ runtime is linked too.
local RECAST_CFLAGS = "-I/usr/include/recastnavigation"
local RECAST_LIBS = "-lRecast -lstdc++"
pkg_cflags = pkg_cflags .. " " .. RECAST_CFLAGS
pkg_libs = pkg_libs .. " " .. RECAST_LIBS
local criterion_libs = shell_output("pkg-config --libs criterion")
if criterion_libs == "" then criterion_libs = "-lcriterion" end

-- }=======

local WARNINGS = { "-Wall", "-Wextra", "-Wshadow", c_only("-Wstrict-prototypes -Wmissing-prototypes"),
                   "-Wno-unused-parameter", cxx_only("-std=c++11 -fno-exceptions -fno-rtti") }
local SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

local function common_settings()
  language "C"
  c11()
  buildoptions(WARNINGS)
  if pkg_cflags ~= "" then buildoptions { pkg_cflags } end
  defines { "_POSIX_C_SOURCE=200809L" }
  includedirs { "engine", "include" }
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

-- The shared objects need only Lua (libnavbot.so links it; nav.so gets it
-- from the interpreter), cJSON (the Tiled map loader), stb and libm, not SDL2.
local function link_lua_only(with_lua)
  local names, dirs = split_libs((with_lua and shell_output("pkg-config --libs lua5.4") or "") .. " " ..
                                  shell_output("pkg-config --libs stb libcjson") .. " " .. RECAST_LIBS .. " -lm")
  links(names)
  if #dirs > 0 then libdirs(dirs) end
end

container "navbot"
  configurations { "debug", "release", "sanitize" }
  location "build"

-- The engine library: no file-system housekeeping (the scenario runner's
-- temporary folders and golden files live in engine/scenario, built only
-- into the command line tool and the tests).
-- Position independent and hidden by default, so that the shared library
-- and the Lua module link it in and export only what they mark. The public
-- API (engine/api, include/navbot.h) is in it too: libnavbot.a is this
-- library, installed under that name.
project "navbot_core"
  kind "StaticLib"
  common_settings()
  buildoptions { "-fPIC", "-fvisibility=hidden" }
  defines { "NAVBOT_BUILD" }
  files { "engine/**.c", "engine/**.cpp", "engine/**.h", "include/**.h" }
  excludes { "engine/cli/**", "engine/scenario/**", "engine/api/nav_module*.c" }

-- libnavbot.so: the public API (navbot_*) and nothing else; the engine
-- comes from navbot_core with its symbols kept local (--exclude-libs).
project "navbot_shared"
  kind "SharedLib"
  targetname "navbot"
  common_settings()
  buildoptions { "-fPIC", "-fvisibility=hidden" }
  defines { "NAVBOT_BUILD" }
  files { "engine/api/navbot_*.c", "engine/api/api_internal.h" }
  linkoptions { "-Wl,-soname,libnavbot.so.0", "-Wl,--exclude-libs,ALL", "-Wl,--no-undefined" }
  links { "navbot_core" }
  link_lua_only(true)

-- nav.so for a stock lua5.4 (`require "nav"`): luaopen_nav only. liblua is
-- not linked: the interpreter that loads the module provides it.
project "nav"
  kind "SharedLib"
  targetname "nav"
  targetprefix ""
  common_settings()
  buildoptions { "-fPIC", "-fvisibility=hidden" }
  defines { "NAVBOT_BUILD" }
  files { "engine/api/nav_module*.c", "engine/api/nav_module_internal.h" }
  linkoptions { "-Wl,--exclude-libs,ALL" }
  links { "navbot_core" }
  link_lua_only(false)

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

-- {======= install =======

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- The pkg-config file for an install under prefix.
local function pc_text(prefix)
  return table.concat({
    "prefix=" .. prefix,
    "exec_prefix=${prefix}",
    "libdir=${prefix}/lib",
    "includedir=${prefix}/include",
    "",
    "Name: navbot",
    "Description: bot navigation engine: area routing, grid paths, simulation, Lua brains",
    "Version: 0.1.0",
    "Requires.private: lua5.4 libcjson",
    "Cflags: -I${includedir}",
    "Libs: -L${libdir} -lnavbot",
    "Libs.private: -llua5.4 -lcjson -lstb -lRecast -lstdc++ -lm",
    "",
  }, "\n")
end

-- Copy the release build into DESTDIR/PREFIX (the layout of
-- docs/c-api.md): bin/navbot, include/navbot.h, lib/libnavbot.so.0 with
-- its libnavbot.so link, lib/libnavbot.a, lib/pkgconfig/navbot.pc,
-- lib/lua/5.4/nav.so, share/navbot/{lua,bots,maps,assets}. The release
-- build must exist (build_for_install).
local function install(prefix, destdir)
  local root = (destdir or "") .. prefix
  local q = shell_quote
  local steps = {
    "mkdir -p " .. q(root .. "/bin") .. " " .. q(root .. "/include") .. " " .. q(root .. "/lib/pkgconfig") .. " " ..
      q(root .. "/lib/lua/5.4") .. " " .. q(root .. "/share/navbot"),
    "cp bin/release/navbot " .. q(root .. "/bin/navbot"),
    "cp include/navbot.h " .. q(root .. "/include/navbot.h"),
    "cp bin/release/libnavbot.so " .. q(root .. "/lib/libnavbot.so.0"),
    "ln -sf libnavbot.so.0 " .. q(root .. "/lib/libnavbot.so"),
    "cp bin/release/libnavbot_core.a " .. q(root .. "/lib/libnavbot.a"),
    "cp bin/release/nav.so " .. q(root .. "/lib/lua/5.4/nav.so"),
    "rm -rf " .. q(root .. "/share/navbot/lua") .. " " .. q(root .. "/share/navbot/bots") .. " " ..
      q(root .. "/share/navbot/maps") .. " " .. q(root .. "/share/navbot/assets"),
    "cp -R lua bots maps assets " .. q(root .. "/share/navbot/"),
  }
  for _, cmd in ipairs(steps) do
    if not sh(cmd) then return false end
  end
  local f = io.open(root .. "/lib/pkgconfig/navbot.pc", "w")
  if not f then
    print("install: cannot write " .. root .. "/lib/pkgconfig/navbot.pc")
    return false
  end
  f:write(pc_text(prefix))
  f:close()
  print("installed navbot into " .. root)
  return true
end

local function build_for_install()
  return build("release", "navbot navbot_shared nav")
end

newaction {
  trigger = "install",
  description = "Build release and install into $DESTDIR$PREFIX (PREFIX default /usr/local)",
  execute = function()
    local prefix = os.getenv("PREFIX") or ""
    if prefix == "" then prefix = "/usr/local" end
    if prefix:sub(1, 1) ~= "/" then
      print("install: PREFIX must be an absolute path, got " .. prefix)
      os.exit(2)
    end
    if not build_for_install() then os.exit(1) end
    os.exit(install(prefix, os.getenv("DESTDIR")) and 0 or 1)
  end
}

-- }=======

newaction {
  trigger = "test",
  description = "Build debug, sanitize and release; run the unit tests, the window test and every scenario; end with 'N passed, N failed'",
  execute = function()
    -- The test run itself lives in tests/driver.lua; this file only builds.
    local driver = dofile("tests/driver.lua")
    os.exit(driver.test { build = build, sh = sh, jobs = jobs, install = install,
                        build_for_install = build_for_install, cflags = pkg_cflags, libs = pkg_libs } and 0 or 1)
  end
}

newaction {
  trigger = "test-install",
  description = "Install into build/prefix and run the examples and tests/lua against it (part of test)",
  execute = function()
    local driver = dofile("tests/driver.lua")
    os.exit(driver.test_install { build = build, sh = sh, jobs = jobs, install = install,
                                  build_for_install = build_for_install } and 0 or 1)
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
  description = "Run every fuzzer (tests/fuzz) with clang's libFuzzer, FUZZ_SECONDS each (default 60; FUZZ_ONLY=NAME)",
  execute = function()
    local driver = dofile("tests/driver.lua")
    os.exit(driver.fuzz { sh = sh, jobs = jobs, cflags = pkg_cflags, libs = pkg_libs } and 0 or 1)
  end
}

-- }=======

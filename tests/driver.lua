-- tests/driver.lua: what `premake4 --file=premake5.lua test` and `fuzz`
-- run. premake5.lua builds; this file runs the tests and counts them:
-- the layer and layout checks of engine/, the unit tests (debug, then
-- under the sanitizers; they run the Lua library's tests in
-- tests/lua/lib too), the real window under Xvfb, every regression scenario, and one
-- summary line,
-- `N passed, N failed`. It runs inside premake (Lua 5.1 in premake4):
-- no goto, no integer division, no bit operators.
--
-- Each entry point takes the build's helpers: cx.build(config [, target])
-- generates and builds, cx.sh(cmd) runs a command and says whether it
-- succeeded, cx.jobs() is the job count.

local driver = {}

-- Runs a Criterion binary and returns passed, failed. Its report is echoed
-- after the run. Sanitizer reports count as failures even when Criterion
-- passed the test: LeakSanitizer reports at a worker's exit, after the
-- test's result is in, so only the log shows a leak. `workers` overrides
-- the parallel job count.
local function criterion(cx, binary, label, workers)
  local tap = "build/" .. label .. ".tap"
  local log = "build/" .. label .. ".log"
  os.remove(tap)
  local ok = cx.sh(binary .. " --jobs=" .. (workers or cx.jobs()) .. " --tap=" .. tap .. " 2>" .. log)
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
local function scenarios(cx)
  local log = "build/scenarios.log"
  local ok = cx.sh("bin/release/navbot test --jobs " .. cx.jobs() .. " >" .. log .. " 2>&1")
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

-- The soak test at a size that fits here (README.md, "Long runs", gives
-- the long one): every bundled map twice for SOAK_TICKS ticks with the
-- world changing under the bots; memory flat after the warm-up, routing
-- caches under their cap, both runs' hashes the same (navbot soak exits 0).
-- Its table is echoed; progress goes to build/soak.log. Returns passed, failed.
local SOAK_TICKS = 10000

local function soak(cx)
  local log = "build/soak.log"
  local ok = cx.sh("bin/release/navbot soak --ticks " .. SOAK_TICKS .. " 2>" .. log)
  print(string.format("soak: %s (%d ticks a run; progress in %s)", ok and "ok" or "FAILED", SOAK_TICKS, log))
  return ok and 1 or 0, ok and 0 or 1
end

-- {======= docs that are true =======
--
-- Every command line shown in README.md and docs/*.md, in a fenced code
-- block and starting `navbot ` or `bin/release/navbot `, runs with the
-- release navbot from the repository's root and must exit 0 (quoted
-- messages, "navbot run: ...", are not commands). Lines ending
-- in `\` go on with the next. Window commands (sim and replay without
-- --headless) run with no display, so they draw headless as documented,
-- their picture going to build/docs/ and a sim to 90 ticks. Some lines are
-- not run, each for the reason in DOC_SKIP. Every --option the docs name
-- must be one some command's help lists.

local DOC_SKIP = {
  { "^navbot bench ", "a benchmark: minutes of work, run by hand" },
  { "%-%-update%-golden", "rewrites golden hashes" },
  { "^navbot test%s*$", "every scenario: the scenarios step runs them" },
  { "^navbot test %-%-jobs", "every scenario: the scenarios step runs them" },
  { "^navbot init ", "writes a project: tests/unit/test_lua_paths.c runs it" },
  { "^navbot soak", "a long run: the soak step runs it at a size that fits the test command" },
}
-- Options the docs name that belong to other tools.
local DOC_OPTIONS_ELSEWHERE = {
  ["--file"] = "premake4's", ["--help"] = "every command's",
  ["--cflags"] = "pkg-config's", ["--libs"] = "pkg-config's", ["--static"] = "pkg-config's",
  ["--defined-only"] = "nm's", ["--exclude-libs"] = "ld's",
}

local function run_quiet(cmd)
  local a, _, c = os.execute(cmd)
  if type(a) == "number" then return a == 0 end
  return a == true and (c or 0) == 0
end

local function doc_files()
  local files = { "README.md" }
  for _, f in ipairs(os.matchfiles("docs/*.md")) do table.insert(files, f) end
  table.sort(files, function(x, y) return x < y end)
  return files
end

-- The command lines of one file: { line = N, cmd = "navbot ..." }.
local function doc_commands(path)
  local out, fenced, n, pending, at = {}, false, 0, nil, 0
  for raw in io.lines(path) do
    n = n + 1
    local line = raw:gsub("^%s+", "")
    if line:match("^```") then
      fenced = not fenced
      pending = nil
    elseif fenced then
      if pending then
        pending = pending .. " " .. line
      elseif (line:match("^navbot ") or line:match("^bin/release/navbot ")) and not line:match("^%S*navbot %S+: ") then
        -- (a line "navbot run: ..." is a message the docs quote, not a command)
        pending, at = line, n
      end
      if pending then
        if pending:match("\\%s*$") then
          pending = pending:gsub("\\%s*$", "")
        else
          table.insert(out, { line = at, cmd = (pending:gsub("^bin/release/navbot ", "navbot ")) })
          pending = nil
        end
      end
    end
  end
  return out
end

local function docs_check()
  os.mkdir("build/docs")
  local passed, failed, skipped = 0, 0, 0
  for _, path in ipairs(doc_files()) do
    for _, c in ipairs(doc_commands(path)) do
      local cmd = c.cmd:gsub("%s+#.*$", ""):gsub("%s+$", "")
      local why
      for _, s in ipairs(DOC_SKIP) do
        if cmd:match(s[1]) then why = s[2] break end
      end
      if why then
        skipped = skipped + 1
      else
        local verb = cmd:match("^navbot (%S+)")
        if (verb == "sim" or verb == "replay") and not cmd:match("%-%-headless") then
          if not cmd:match("%-%-png") then cmd = cmd .. " --png build/docs/" .. verb .. "-" .. c.line .. ".png" end
          if verb == "sim" and not cmd:match("%-%-ticks") then cmd = cmd .. " --ticks 90" end
        end
        local log = "build/docs/last.log"
        local ok = run_quiet("env -u DISPLAY -u WAYLAND_DISPLAY bin/release/" .. cmd .. " >" .. log .. " 2>&1 </dev/null")
        if ok then
          passed = passed + 1
        else
          failed = failed + 1
          print(string.format("FAIL  %s:%d: %s", path, c.line, cmd))
          for l in io.lines(log) do print("      " .. l) end
        end
      end
    end
  end
  -- Options the docs name that no command knows.
  local known = {}
  local helps = { "info", "compile", "path", "route", "run", "sim", "replay", "test", "init", "bench", "soak",
                  "bench compile", "bench route", "bench grid", "bench crowd", "bench competence" }
  for _, h in ipairs(helps) do
    local p = io.popen("bin/release/navbot " .. h .. " --help 2>&1")
    for o in p:read("*a"):gmatch("%-%-[%a][%w%-]*") do known[o] = true end
    p:close()
  end
  local unknown = 0
  for _, path in ipairs(doc_files()) do
    local n = 0
    for line in io.lines(path) do
      n = n + 1
      -- An option starts a word (not "where--opts" in a link's anchor).
      for o in (" " .. line):gmatch("[%s`(%[\"'=]+(%-%-[%a][%w%-]*)") do
        if not known[o] and not DOC_OPTIONS_ELSEWHERE[o] then
          print(string.format("FAIL  %s:%d: %s is no option of any navbot command", path, n, o))
          unknown = unknown + 1
        end
      end
    end
  end
  if unknown > 0 then failed = failed + 1 else passed = passed + 1 end
  print(string.format("docs: %d passed, %d failed (%d command lines not run, by DOC_SKIP)", passed, failed, skipped))
  return passed, failed
end

driver.docs_check = docs_check

-- }=======

-- The real window under a virtual X server: `navbot sim` runs five seconds
-- of the gauntlet in its SDL2 window while xwd takes a screenshot of the
-- X server's screen, which must show a picture (many colours, mostly not
-- black). Returns passed, failed.
local function u32be(s, at)
  local a, b, c, d = s:byte(at + 1, at + 4)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

local function window_check(cx)
  local shot = "build/window-xvfb.xwd"
  os.remove(shot)
  local ok = cx.sh("xvfb-run -a -s '-screen 0 1280x800x24' sh -c " ..
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

-- The layers of engine/, lowest first (docs/architecture.md): a file may
-- include headers of its own layer and of the layers below it. Returns
-- passed, failed (one check); each violation is printed with its place.
local LAYERS = { "core", "lua", "world", "map", "grid", "area", "route", "sim", "script", "render", "api", "scenario", "cli" }

local function check_layers()
  local rank = {}
  for i, name in ipairs(LAYERS) do rank[name] = i end
  local bad = 0
  local files = os.matchfiles("engine/**.c")
  for _, h in ipairs(os.matchfiles("engine/**.h")) do table.insert(files, h) end
  for _, path in ipairs(files) do
    local layer = path:match("^engine/([%w_]+)/")
    if not rank[layer] then
      print(string.format("%s: in no layer (add its folder to LAYERS in tests/driver.lua)", path))
      bad = bad + 1
    else
      local n = 0
      for line in io.lines(path) do
        n = n + 1
        local inc = line:match('^%s*#%s*include%s+"([%w_]+)/')
        if inc and rank[inc] and rank[inc] > rank[layer] then
          print(string.format("%s:%d: %s includes %s, a layer above it", path, n, layer, inc))
          bad = bad + 1
        end
      end
    end
  end
  print(string.format("layers: %s", bad == 0 and "every include goes down or across" or (bad .. " violation(s)")))
  return bad == 0 and 1 or 0, bad == 0 and 0 or 1
end

driver.check_layers = check_layers

-- Every engine file laid out as .clang-format says (Debian's clang-format,
-- which .ci/setup installs): one check, failing with the files that
-- differ. `clang-format -i FILE` lays one out. Returns passed, failed.
local function check_format(cx)
  local files = os.matchfiles("engine/**.c")
  for _, h in ipairs(os.matchfiles("engine/**.h")) do table.insert(files, h) end
  table.sort(files)
  local log = "build/format.log"
  os.mkdir("build")
  if not cx.sh("clang-format --version >/dev/null 2>&1") then
    print("format: clang-format is not installed (.ci/setup installs it)")
    return 0, 1
  end
  local list = io.open("build/format.files", "w")
  list:write(table.concat(files, "\n"), "\n")
  list:close()
  local ok = cx.sh("xargs clang-format --style=file --dry-run --Werror <build/format.files >" .. log .. " 2>&1")
  local bad, seen = {}, {}
  local f = io.open(log, "r")
  if f then
    for line in f:lines() do
      local path = line:match("^(engine/[^:]+):%d+:%d+: error:")
      if path and not seen[path] then
        seen[path] = true
        table.insert(bad, path)
      end
    end
    f:close()
  end
  if ok then
    print(string.format("format: %d engine files as .clang-format says", #files))
    return 1, 0
  end
  for _, path in ipairs(bad) do print(path .. ": not as .clang-format says (clang-format -i " .. path .. ")") end
  print(string.format("format: %d of %d engine files differ (see %s)", #bad, #files, log))
  return 0, 1
end

driver.check_format = check_format

-- {======= the installed library =======

local function read_all(path)
  local f = io.open(path, "r")
  if not f then return "" end
  local s = f:read("*a") or ""
  f:close()
  return s
end

-- One named check: prints its verdict and returns 1, 0 or 0, 1.
local function verdict(name, good, detail)
  print(string.format("%s: %s%s", name, good and "ok" or "FAILED", detail and detail ~= "" and (": " .. detail) or ""))
  return good and 1 or 0, good and 0 or 1
end

local function lua_tests()
  local list = os.matchfiles("tests/lua/*.lua")
  table.sort(list)
  return list
end

-- Sanitizer runtimes for a stock lua5.4 loading the sanitize build's
-- nav.so (the interpreter itself is not instrumented).
local function sanitizer_preload(cx)
  local f = io.popen("gcc -print-file-name=libasan.so; gcc -print-file-name=libubsan.so")
  local a, u = f:read("*l"), f:read("*l")
  f:close()
  if not a or not a:find("/") or not u or not u:find("/") then return nil end
  return a .. " " .. u
end

-- Install the release build into build/prefix (the install action's
-- code), then use it as a user would, from another directory: the C
-- example built with pkg-config against libnavbot.so, the Lua example and
-- tests/lua/*.lua under a stock lua5.4 with the installed nav.so, and the
-- exported symbols. The Lua tests run once more on the sanitize build's
-- nav.so. Returns passed, failed.
local function installed(cx)
  local cwd = os.getcwd()
  local prefix = cwd .. "/build/prefix"
  local p, f = 0, 0
  local function count(a, b) p, f = p + a, f + b end
  cx.sh("rm -rf '" .. prefix .. "'")
  if not cx.install(prefix, nil) then
    count(verdict("install into build/prefix", false))
    return p, f
  end
  count(verdict("install into build/prefix", true))
  local env = "cd '" .. cwd .. "/build' && "
  local lib = prefix .. "/lib"
  local cpath = "LUA_CPATH='" .. lib .. "/lua/5.4/?.so' "

  -- libnavbot.so exports navbot_* only; nav.so luaopen_nav only and needs no liblua.
  local syms = "build/libnavbot-symbols.txt"
  cx.sh("nm -D --defined-only '" .. lib .. "/libnavbot.so.0' | awk '{print $3}' >" .. syms ..
        " && nm -D --defined-only '" .. lib .. "/lua/5.4/nav.so' | awk '{print \"nav.so:\" $3}' >>" .. syms ..
        " && readelf -d '" .. lib .. "/lua/5.4/nav.so' | grep NEEDED | sed 's/^/needed:/' >>" .. syms)
  local api, stray = 0, {}
  for line in read_all(syms):gmatch("[^\n]+") do
    if line:match("^navbot_") then api = api + 1
    elseif line == "nav.so:luaopen_nav" then -- the module's one entry
    elseif line:match("^needed:") then
      if line:match("liblua") then table.insert(stray, line) end
    else table.insert(stray, line) end
  end
  count(verdict("exported symbols", api >= 30 and #stray == 0,
                string.format("%d navbot_* in libnavbot.so%s", api, #stray > 0 and (", unexpected: " .. table.concat(stray, " ")) or "")))

  -- The C example through pkg-config, run from build/.
  local pc = "PKG_CONFIG_PATH='" .. lib .. "/pkgconfig' pkg-config --cflags --libs navbot"
  local built = cx.sh("cc -std=c11 -Wall -Wextra -Werror examples/embed.c $(" .. pc .. ") -o build/embed")
  local ran = built and cx.sh(env .. "LD_LIBRARY_PATH='" .. lib .. "' ./embed >embed.log 2>&1")
  local out = read_all("build/embed.log")
  count(verdict("examples/embed.c built with pkg-config and run", ran and out:find("4 of 4 arrived", 1, true) ~= nil,
                (out:match("[^\n]*arrived in[^\n]*") or "see build/embed.log")))

  -- The Lua example and the Lua tests with the installed nav.so.
  local lua = "lua5.4"
  ran = cx.sh(env .. cpath .. lua .. " '" .. cwd .. "/examples/route.lua' >route-lua.log 2>&1")
  out = read_all("build/route-lua.log")
  count(verdict("examples/route.lua under lua5.4", ran, out:match("[^\n]*arrived in[^\n]*") or "see build/route-lua.log"))
  for _, t in ipairs(lua_tests()) do
    local name = t:match("([^/]+)%.lua$")
    ran = cx.sh(env .. cpath .. lua .. " '" .. cwd .. "/" .. t .. "' >lua-" .. name .. ".log 2>&1")
    count(verdict("lua5.4 " .. t, ran, not ran and read_all("build/lua-" .. name .. ".log"):sub(1, 400) or nil))
  end

  -- The complete programs in the docs, as printed there.
  local function block(path, lang, out)
    local text = read_all(path)
    local code = text:match("\n```" .. lang .. "\n(.-)\n```")
    local f = code and io.open(out, "w")
    if f then f:write(code, "\n") f:close() end
    return f ~= nil
  end
  built = block("docs/c-api.md", "c", "build/doc-c-api.c") and
          cx.sh("cc -std=c11 -Wall -Wextra -Werror build/doc-c-api.c $(" .. pc .. ") -o build/doc-c-api")
  ran = built and cx.sh(env .. "LD_LIBRARY_PATH='" .. lib .. "' ./doc-c-api >doc-c-api.log 2>&1")
  out = read_all("build/doc-c-api.log")
  count(verdict("docs/c-api.md's example", ran and out:find("arrived", 1, true) ~= nil, out:match("[^\n]*") or ""))
  ran = block("docs/lua-module.md", "lua", "build/doc-lua-module.lua") and
        cx.sh(env .. cpath .. lua .. " doc-lua-module.lua >doc-lua-module.log 2>&1")
  out = read_all("build/doc-lua-module.log")
  count(verdict("docs/lua-module.md's example", ran and out:find("true", 1, true) ~= nil, out:match("[^\n]*") or ""))

  -- The installed navbot as a newcomer uses it, from a folder outside the
  -- repository: a starter project, its bots run on its maps until they
  -- arrive (exit 0 only then), and its scenario passes. Nothing of the
  -- repository is in reach: the brains' lua/ comes from the install.
  local demo = cwd .. "/build/installed-demo"
  cx.sh("rm -rf '" .. demo .. "' && mkdir -p '" .. demo .. "'")
  local navbot = "'" .. prefix .. "/bin/navbot'"
  local inited = cx.sh("cd '" .. demo .. "' && " .. navbot .. " init demo >init.log 2>&1")
  ran = inited and cx.sh("cd '" .. demo .. "/demo' && " .. navbot ..
                         " run maps/*.lua --bot bots/*.lua --until-arrived --max-ticks 1800 >run.log 2>&1")
  local tested = inited and cx.sh("cd '" .. demo .. "/demo' && " .. navbot .. " test tests/ >test.log 2>&1")
  out = read_all(demo .. "/demo/run.log")
  count(verdict("installed navbot: init, run and test a project outside the repository", inited and ran and tested,
                out:match("[^\n]*arrived, [^\n]*") or "see build/installed-demo"))

  -- The same Lua tests on the sanitize build's nav.so.
  local preload = sanitizer_preload(cx)
  local reports, failed_runs = 0, 0
  if preload then
    for _, t in ipairs(lua_tests()) do
      local log = "lua-sanitize-" .. t:match("([^/]+)%.lua$") .. ".log"
      if not cx.sh(env .. "LD_PRELOAD='" .. preload .. "' ASAN_OPTIONS=detect_leaks=1 LUA_CPATH='" .. cwd ..
                   "/bin/sanitize/?.so' " .. lua .. " '" .. cwd .. "/" .. t .. "' >" .. log .. " 2>&1") then
        failed_runs = failed_runs + 1
      end
      for line in read_all("build/" .. log):gmatch("[^\n]+") do
        if line:match("ERROR: LeakSanitizer") or line:match("ERROR: AddressSanitizer") or line:match("runtime error:") then
          reports = reports + 1
          print(line)
        end
      end
    end
  end
  count(verdict("nav.so under the sanitizers", preload ~= nil and reports == 0 and failed_runs == 0,
                preload and string.format("%d report(s), %d failed run(s)", reports, failed_runs) or "no libasan"))
  return p, f
end

-- Just the installed library's checks (premake5.lua's `test-install`):
-- builds what they need, prints one summary line.
function driver.test_install(cx)
  if not cx.build("sanitize", "nav") or not cx.build_for_install() then
    print("0 passed, 1 failed")
    return false
  end
  local p, f = installed(cx)
  print(string.format("%d passed, %d failed", p, f))
  return f == 0
end

-- }=======

function driver.test(cx)
  local total_p, total_f = check_layers()
  local fp, ff = check_format(cx)
  total_p, total_f = total_p + fp, total_f + ff
  for _, cfg in ipairs({ "debug", "sanitize" }) do
    if not cx.build(cfg) then
      print("0 passed, 1 failed")
      return false
    end
    -- Under the sanitizers one worker: Criterion's parallel runner leaks a
    -- record of its own at exit with this many tests, and LeakSanitizer
    -- cannot tell that allocation from one made by a test.
    local p, f = criterion(cx, "bin/" .. cfg .. "/navbot_tests", "unit-" .. cfg, cfg == "sanitize" and 1 or nil)
    total_p, total_f = total_p + p, total_f + f
  end
  if not cx.build_for_install() then
    print(string.format("%d passed, %d failed", total_p, total_f + 1))
    return false
  end
  local wp, wf = window_check(cx)
  total_p, total_f = total_p + wp, total_f + wf
  local ip, ifl = installed(cx)
  total_p, total_f = total_p + ip, total_f + ifl
  -- Scenarios run on the release build: the same hashes as debug, faster.
  local sp, sf = scenarios(cx)
  total_p, total_f = total_p + sp, total_f + sf
  local dp, df = docs_check()
  total_p, total_f = total_p + dp, total_f + df
  local kp, kf = soak(cx)
  total_p, total_f = total_p + kp, total_f + kf
  -- The summary is the last line (the caller exits before premake's "Done.").
  print(string.format("%d passed, %d failed", total_p, total_f))
  io.stdout:flush()
  return total_f == 0
end

-- Fuzz the map loaders with clang's libFuzzer for FUZZ_SECONDS (60).
-- cx.cflags and cx.libs: pkg-config's flags for the dependencies.
function driver.fuzz(cx)
  local seconds = tonumber(os.getenv("FUZZ_SECONDS") or "") or 60
  local sources = {}
  for _, f in ipairs(os.matchfiles("engine/**.c")) do
    -- The loaders and what they stand on; not the tool, the scenario
    -- runner or the public API (which needs include/).
    if not f:match("^engine/cli/") and not f:match("^engine/scenario/") and not f:match("^engine/api/") then
      table.insert(sources, f)
    end
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
  local cmd = "clang -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -DNAV_DEBUG -Iengine " .. cx.cflags ..
    " -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined " ..
    table.concat(sources, " ") .. " tests/fuzz/fuzz_maps.c -o bin/fuzz/fuzz_maps " .. cx.libs .. " -lm"
  if not cx.sh(cmd) then return false end
  io.stdout:flush()
  return cx.sh("bin/fuzz/fuzz_maps -max_total_time=" .. seconds .. " -max_len=65536 -rss_limit_mb=2048 " ..
               "-timeout=10 build/fuzz-corpus")
end

return driver

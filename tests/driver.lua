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

-- Counts a Criterion run from its TAP file and echoes its log. Sanitizer
-- reports count as failures even when Criterion passed the test:
-- LeakSanitizer reports at a worker's exit, after the test's result is in,
-- so only the log shows a leak. Returns passed, failed.
local function criterion_counts(tap, log)
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
    print(string.format("%s: %d sanitizer report(s)", log, reports))
    failed = failed + reports
  end
  return passed, failed
end

-- Runs a Criterion binary with its own parallel runner (`workers` of them,
-- the job count unless given) and returns passed, failed.
local function criterion(cx, binary, label, workers)
  local tap = "build/" .. label .. ".tap"
  local log = "build/" .. label .. ".log"
  os.remove(tap)
  local ok = cx.sh(binary .. " --jobs=" .. (workers or cx.jobs()) .. " --tap=" .. tap .. " 2>" .. log)
  local passed, failed = criterion_counts(tap, log)
  if not ok and failed == 0 then failed = 1 end -- the runner itself died
  print(string.format("%s: %d passed, %d failed", label, passed, failed))
  return passed, failed
end

-- Seconds the slowest suites take under the sanitizers (the rest take about
-- one each). Only the split into shards uses them: a wrong figure makes
-- one shard finish later, never a test go missing.
local SUITE_SECONDS = { grid_movingai = 41, alloc_fail_sim = 31, alloc_fail_cli = 20,
                        render_view = 14, alloc_fail = 11, route = 8 }

-- The suites of a Criterion binary (`--list`), in its order.
local function criterion_suites(binary)
  local p = io.popen(binary .. " --list 2>&1")
  local names = {}
  for line in p:lines() do
    local name = line:match("^([%w_]+): %d+ tests?$")
    if name then names[#names + 1] = name end
  end
  p:close()
  return names
end

-- Splits the suites into n shards of about equal time, heaviest first.
local function criterion_shards(names, n)
  local order = {}
  for i, name in ipairs(names) do order[i] = name end
  table.sort(order, function(a, b)
    local sa, sb = SUITE_SECONDS[a] or 1, SUITE_SECONDS[b] or 1
    if sa ~= sb then return sa > sb end
    return a < b
  end)
  local shards, load = {}, {}
  for i = 1, n do shards[i], load[i] = {}, 0 end
  for _, name in ipairs(order) do
    local best = 1
    for i = 2, n do if load[i] < load[best] then best = i end end
    table.insert(shards[best], name)
    load[best] = load[best] + (SUITE_SECONDS[name] or 1)
  end
  return shards
end

-- Runs a Criterion binary as several one-worker processes side by side,
-- each over its own suites. Under the sanitizers Criterion's parallel
-- runner leaks a record of its own at exit with this many tests, and
-- LeakSanitizer cannot tell that allocation from one made by a test; one
-- worker per process keeps the leak check exact and the cores busy.
local function criterion_sharded(cx, binary, label)
  local n = tonumber(cx.jobs()) or 1
  local names = criterion_suites(binary)
  if #names == 0 then
    print(label .. ": " .. binary .. " --list named no suites")
    return 0, 1
  end
  local shards = criterion_shards(names, math.max(1, math.min(n, #names)))
  local parts = {}
  for i, shard in ipairs(shards) do
    local base = "build/" .. label .. "-" .. i
    os.remove(base .. ".tap")
    os.remove(base .. ".rc")
    parts[#parts + 1] = "( " .. binary .. " --jobs=1 --filter '@(" .. table.concat(shard, "|") ..
                        ")/*' --tap=" .. base .. ".tap 2>" .. base .. ".log; echo $? >" .. base .. ".rc ) &"
  end
  cx.sh(table.concat(parts, " ") .. " wait")
  local passed, failed = 0, 0
  for i = 1, #shards do
    local base = "build/" .. label .. "-" .. i
    local p, f = criterion_counts(base .. ".tap", base .. ".log")
    local rc = io.open(base .. ".rc", "r")
    local code = rc and tonumber(rc:read("*l") or "")
    if rc then rc:close() end
    if code ~= 0 and f == 0 then f = 1 end -- the runner itself died
    passed, failed = passed + p, failed + f
  end
  print(string.format("%s: %d passed, %d failed (%d shards)", label, passed, failed, #shards))
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
local SOAK_TICKS = 6000

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
  -- The window's own frames checked by their pixels: each storey of the
  -- tower named, the legend band, no PAUSED (tests/unit/test_window_xvfb.c,
  -- skipped unless NAVBOT_TEST_WINDOW is set). Its pictures stay in
  -- build/pictures/window-tower-N.png.
  local p, f = criterion(cx, "NAVBOT_TEST_WINDOW=1 xvfb-run -a -s '-screen 0 1280x800x24' " ..
                             "bin/debug/navbot_tests --filter 'window_xvfb/*'", "window-xvfb", 1)
  if p == 0 and f == 0 then f = 1 end -- skipped or never ran: not a pass
  return (good and 1 or 0) + p, (good and 0 or 1) + f
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

-- Stage clock: each stage of the test run says how long it took, and the
-- run ends with the table, so a slow stage is easy to find.
local function stage_clock()
  local clock = { rows = {}, started = os.time(), last = os.time() }
  function clock.mark(name)
    local now = os.time()
    clock.rows[#clock.rows + 1] = { name, now - clock.last }
    print(string.format("-- %s took %d s", name, now - clock.last))
    clock.last = now
  end
  function clock.report()
    local parts = {}
    for _, r in ipairs(clock.rows) do parts[#parts + 1] = string.format("%s %d s", r[1], r[2]) end
    print(string.format("stages (%d s in all): %s", os.time() - clock.started, table.concat(parts, ", ")))
  end
  return clock
end

function driver.test(cx)
  local clock = stage_clock()
  local total_p, total_f = check_layers()
  local fp, ff = check_format(cx)
  total_p, total_f = total_p + fp, total_f + ff
  clock.mark("layers and format")
  for _, cfg in ipairs({ "debug", "sanitize" }) do
    if not cx.build(cfg) then
      print("0 passed, 1 failed")
      return false
    end
    clock.mark("build " .. cfg)
    local binary = "bin/" .. cfg .. "/navbot_tests"
    local p, f
    if cfg == "sanitize" then p, f = criterion_sharded(cx, binary, "unit-" .. cfg)
    else p, f = criterion(cx, binary, "unit-" .. cfg) end
    total_p, total_f = total_p + p, total_f + f
    clock.mark("unit " .. cfg)
  end
  if not cx.build_for_install() then
    print(string.format("%d passed, %d failed", total_p, total_f + 1))
    return false
  end
  clock.mark("build release")
  local wp, wf = window_check(cx)
  total_p, total_f = total_p + wp, total_f + wf
  clock.mark("window")
  local ip, ifl = installed(cx)
  total_p, total_f = total_p + ip, total_f + ifl
  clock.mark("install")
  -- Scenarios run on the release build: the same hashes as debug, faster.
  local sp, sf = scenarios(cx)
  total_p, total_f = total_p + sp, total_f + sf
  clock.mark("scenarios")
  local dp, df = docs_check()
  total_p, total_f = total_p + dp, total_f + df
  clock.mark("docs")
  local kp, kf = soak(cx)
  total_p, total_f = total_p + kp, total_f + kf
  clock.mark("soak")
  -- Every fuzzer briefly, and every regression input replayed.
  local zp, zf = driver.fuzz_check(cx)
  total_p, total_f = total_p + zp, total_f + zf
  clock.mark("fuzz")
  clock.report()
  -- The summary is the last line (the caller exits before premake's "Done.").
  print(string.format("%d passed, %d failed", total_p, total_f))
  io.stdout:flush()
  return total_f == 0
end

-- {======= fuzzing =======
--
-- One libFuzzer harness per input navbot reads (tests/fuzz/fuzz_NAME.c),
-- built with Debian's clang under ASan and UBSan. The engine is compiled
-- once into build/fuzz/libengine.a (a generated makefile, so a rebuild
-- compiles only what changed) and every harness links it. Each harness
-- has a seed corpus kept in the repository, tests/fuzz/corpus/NAME/
-- (bundled files, and every input that once crashed, hung or leaked: the
-- regression inputs); what a run finds goes to build/fuzz/corpus-NAME,
-- crashes to build/fuzz/artifacts/. tests/fuzz/NAME.dict (or the one the
-- entry names: lua.dict for the Lua inputs) is the fuzzer's dictionary. Harnesses run from the repository's
-- root (FUZZ_ROOT, compiled in, is that folder).

-- A setting given as NAME=VALUE after the action (`fuzz FUZZ_SECONDS=3600`)
-- or in the environment.
local function setting(name)
  for _, a in ipairs(_ARGS or {}) do
    local v = a:match("^" .. name .. "=(.*)$")
    if v then return v end
  end
  return os.getenv(name) or ""
end

local FUZZERS = {
  { name = "lua_map", max_len = 65536, dict = "lua" },
  { name = "movingai_map", max_len = 65536 },
  { name = "tiled_map", max_len = 65536 },
  { name = "obj_map", max_len = 65536 },
  { name = "scen", max_len = 16384 },
  { name = "nav", max_len = 262144 },
  { name = "trace", max_len = 65536 },
  { name = "player", max_len = 65536 },
  { name = "scenario", max_len = 16384, dict = "lua" },
  { name = "brain", max_len = 16384, dict = "lua" },
  { name = "nav_api", max_len = 4096 },
  { name = "memory_file", max_len = 16384 },
}

local function fuzz_makefile(cx)
  local sources = {}
  for _, f in ipairs(os.matchfiles("engine/**.c")) do
    -- Everything but the command line tool (its window needs a display).
    if not f:match("^engine/cli/") then table.insert(sources, f) end
  end
  -- The bridge to Recast (engine/map/mesh_voxel.cpp) is C++.
  for _, f in ipairs(os.matchfiles("engine/**.cpp")) do table.insert(sources, f) end
  table.sort(sources)
  local objs = {}
  for i, f in ipairs(sources) do objs[i] = "build/fuzz/obj/" .. f:gsub("%.cp?p?$", ".o") end
  local bins = {}
  for i, fz in ipairs(FUZZERS) do bins[i] = "bin/fuzz/fuzz_" .. fz.name end
  local mk = {
    "# Generated by tests/driver.lua (driver.fuzz_build): do not edit.",
    "CC = clang",
    "CXX = clang++",
    "SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer",
    "COMMON = -g -O1 -Wall -Wextra -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L -DNAV_DEBUG " ..
      "-DNAV_SANITIZE -DNAVBOT_BUILD -Iengine -Iinclude -Itests/fuzz " .. (cx.cflags or "") ..
      " -DFUZZ_ROOT='\"" .. os.getcwd() .. "\"'",
    "CFLAGS = -std=c11 $(COMMON)",
    "CXXFLAGS = -std=c++11 -fno-exceptions -fno-rtti $(COMMON)",
    "LIBS = " .. (cx.libs or "") .. " -lm",
    "OBJS = " .. table.concat(objs, " "),
    "all: " .. table.concat(bins, " "),
    "build/fuzz/obj/%.o: %.c",
    "\t@mkdir -p $(dir $@)",
    "\t@echo 'clang $<'",
    "\t@$(CC) $(CFLAGS) $(SAN) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@",
    "build/fuzz/obj/%.o: %.cpp",
    "\t@mkdir -p $(dir $@)",
    "\t@echo 'clang++ $<'",
    "\t@$(CXX) $(CXXFLAGS) $(SAN) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@",
    "build/fuzz/libengine.a: $(OBJS)",
    "\t@rm -f $@ && ar rcs $@ $(OBJS)",
    "bin/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_support.h build/fuzz/libengine.a",
    "\t@mkdir -p bin/fuzz",
    "\t@echo 'clang $< -> $@'",
    "\t@$(CC) $(CFLAGS) $(SAN) -fsanitize=fuzzer $< build/fuzz/libengine.a $(LIBS) -o $@",
    "-include $(OBJS:.o=.d)",
    "",
  }
  os.mkdir("build/fuzz")
  local f = io.open("build/fuzz/Makefile", "w")
  f:write(table.concat(mk, "\n"))
  f:close()
end

-- Build every harness; false when the build failed.
local function fuzz_build(cx)
  if not cx.sh("clang --version >/dev/null 2>&1") then
    print("fuzz: clang is not installed (.ci/setup installs it)")
    return false
  end
  fuzz_makefile(cx)
  return cx.sh("make --no-print-directory -f build/fuzz/Makefile -j" .. cx.jobs() .. " all")
end

local function fuzz_selected()
  local only = setting("FUZZ_ONLY")
  local out = {}
  for _, fz in ipairs(FUZZERS) do
    if only == "" or only == fz.name or only == "fuzz_" .. fz.name then table.insert(out, fz) end
  end
  return out
end

local function corpus_files(name)
  local list = os.matchfiles("tests/fuzz/corpus/" .. name .. "/*")
  table.sort(list)
  return list
end

-- Run one fuzzer for `seconds` (-jobs=1), from its seed corpus into
-- build/fuzz/corpus-NAME. Prints one line: executions, executions per
-- second, coverage (libFuzzer's cov: and ft:) and the verdict. Returns ok.
local function fuzz_one(cx, fz, seconds)
  local work = "build/fuzz/corpus-" .. fz.name
  local log = "build/fuzz/" .. fz.name .. ".log"
  os.mkdir(work)
  os.mkdir("build/fuzz/artifacts")
  local dict = "tests/fuzz/" .. (fz.dict or fz.name) .. ".dict"
  local has_dict = os.isfile(dict)
  local cmd = "bin/fuzz/fuzz_" .. fz.name .. " -max_total_time=" .. seconds .. " -max_len=" .. fz.max_len ..
    " -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/" .. fz.name .. "-" ..
    (has_dict and (" -dict=" .. dict) or "") .. " " .. work .. " tests/fuzz/corpus/" .. fz.name ..
    " >" .. log .. " 2>&1"
  local ok = cx.sh(cmd)
  local execs, rate, cov, ft, corp = "?", "?", "?", "?", "?"
  local f = io.open(log, "r")
  local tail = {}
  if f then
    for line in f:lines() do
      local c, t = line:match("cov: (%d+) ft: (%d+)")
      if c then cov, ft = c, t end
      local cp = line:match("corp: (%d+/%S+)")
      if cp then corp = cp end
      execs = line:match("^stat::number_of_executed_units: (%d+)") or execs
      rate = line:match("^stat::average_exec_per_sec: +(%d+)") or rate
      table.insert(tail, line)
      if #tail > 40 then table.remove(tail, 1) end
    end
    f:close()
  end
  if not ok then
    for _, line in ipairs(tail) do print("      " .. line) end
  end
  print(string.format("fuzz_%s: %s, %s executions, %s exec/s, cov: %s ft: %s, corpus %s (%s)", fz.name,
                      ok and "ok" or "FAILED", execs, rate, cov, ft, corp, log))
  return ok
end

-- Replay every file of a fuzzer's seed corpus once (the regression
-- inputs). Returns passed, failed: a file that crashes, hangs or leaks
-- fails, and is named.
local function fuzz_replay(cx, fz)
  local files = corpus_files(fz.name)
  if #files == 0 then
    print(string.format("fuzz_%s corpus: no files in tests/fuzz/corpus/%s", fz.name, fz.name))
    return 0, 1
  end
  local log = "build/fuzz/" .. fz.name .. "-replay.log"
  local list = "build/fuzz/" .. fz.name .. "-replay.files"
  local lf = io.open(list, "w")
  lf:write(table.concat(files, "\n"), "\n")
  lf:close()
  local ok = cx.sh("xargs bin/fuzz/fuzz_" .. fz.name .. " -timeout=10 -rss_limit_mb=2048 <" .. list ..
                   " >" .. log .. " 2>&1")
  local done, running = {}, nil
  local f = io.open(log, "r")
  if f then
    for line in f:lines() do
      local r = line:match("^Running: (.*)$")
      if r then running = r end
      local e = line:match("^Executed (.-) in %d+ ms$")
      if e then done[e] = true; running = nil end
    end
    f:close()
  end
  local passed, failed = 0, 0
  for _, path in ipairs(files) do
    if done[path] then passed = passed + 1 end
  end
  if not ok or passed < #files then
    failed = #files - passed
    if failed == 0 then failed = 1 end
    print(string.format("fuzz_%s corpus: FAILED on %s (see %s)", fz.name, running or "?", log))
  end
  print(string.format("fuzz_%s corpus: %d passed, %d failed", fz.name, passed, failed))
  return passed, failed
end

-- The test command's part: build the harnesses, replay every corpus
-- file, run each fuzzer FUZZ_SECONDS (default 5: eleven of them keep the
-- test command under 15 minutes). Returns passed, failed.
function driver.fuzz_check(cx)
  local seconds = tonumber(setting("FUZZ_SECONDS")) or 5
  if not fuzz_build(cx) then
    print("fuzz: the harnesses did not build")
    return 0, 1
  end
  local p, f = 0, 0
  for _, fz in ipairs(fuzz_selected()) do
    local rp, rf = fuzz_replay(cx, fz)
    p, f = p + rp, f + rf
    if fuzz_one(cx, fz, seconds) then p = p + 1 else f = f + 1 end
  end
  print(string.format("fuzz: %d passed, %d failed", p, f))
  return p, f
end

-- `premake4 --file=premake5.lua fuzz`: every fuzzer (or FUZZ_ONLY=NAME)
-- for FUZZ_SECONDS (default 60) each, one after the other.
function driver.fuzz(cx)
  local seconds = tonumber(setting("FUZZ_SECONDS")) or 60
  if not fuzz_build(cx) then return false end
  local all = true
  local selected = fuzz_selected()
  if #selected == 0 then
    print("fuzz: FUZZ_ONLY names no fuzzer")
    return false
  end
  for _, fz in ipairs(selected) do
    if not fuzz_one(cx, fz, seconds) then all = false end
  end
  return all
end

-- }=======

return driver

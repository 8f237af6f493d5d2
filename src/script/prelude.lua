-- Trusted set-up code, run once before any card or planet script is loaded.
-- It receives the host's pcall and xpcall, `charge` (adds work one instruction
-- does not measure to the run's budget), `restart_count` (restarts the running
-- thread's hook count) and the hook's period, and returns what the engine needs
-- to run scripts (see the `return` at the end).
--
-- Invariant: a run of a script depends only on the game state and the answers
-- (ENGINEERING.md invariant 3). Every run therefore starts from nothing: the
-- script's compiled chunk is executed again into a fresh environment, so its
-- top-level locals, globals and tables are new each time, and everything shared
-- between runs (the libraries, ctx, the halt sentinel) is read-only.
local host_pcall, host_xpcall, charge, restart_count, HOOK_EVERY = ...

-- Bounded pattern matching: the instruction budget cannot interrupt C code, so
-- a pattern's worst case is estimated before it runs ((n+1)^(q+1) steps for a
-- subject of n characters and q quantifiers).
-- Each step tests one pattern item, and a set `[...]` tests every character
-- of it, so the longest set multiplies the estimate. The estimate is also
-- charged to the run's budget (a step is about a sixteenth of an instruction).
local find, match, gmatch, gsub, sub = string.find, string.match, string.gmatch, string.gsub, string.sub
local MAX_STEPS = 1e7
local function guard(name, s, p)
  if type(s) ~= "string" and type(s) ~= "number" then return end
  if type(p) ~= "string" then return end
  if #p > 256 then error(name .. ": pattern longer than 256 characters", 3) end
  -- `q` counts what can make the matcher go back over the subject: the
  -- quantifiers, `%b` (it scans to the end for every start) and back
  -- references (`%1`). A set is read as Lua reads it: a `]` right after `[`
  -- or `[^` belongs to the set.
  local q, i, widest, set_start = 0, 1, 1, nil
  while i <= #p do
    local c = sub(p, i, i)
    if c == "%" then
      local class = sub(p, i + 1, i + 1)
      if set_start == nil and (class == "b" or find(class, "^%d$")) then q = q + 1 end
      i = i + 2
    elseif set_start == nil and c == "[" then
      set_start = i
      i = i + 1
      if sub(p, i, i) == "^" then i = i + 1 end
      if sub(p, i, i) == "]" then i = i + 1 end
    elseif set_start ~= nil and c == "]" then
      if i - set_start > widest then widest = i - set_start end
      set_start = nil
      i = i + 1
    else
      if set_start == nil and (c == "*" or c == "+" or c == "-" or c == "?") then q = q + 1 end
      i = i + 1
    end
  end
  local steps = (#tostring(s) + 1) ^ (q + 1) * widest
  if steps > MAX_STEPS then
    error(name .. ": pattern too costly for a subject of " .. #tostring(s) .. " characters", 3)
  end
  charge(steps / 16)
end
string.find = function(s, p, init, plain)
  if not plain then guard("string.find", s, p) end
  return find(s, p, init, plain)
end
string.match = function(s, p, init) guard("string.match", s, p); return match(s, p, init) end
string.gmatch = function(s, p, init) guard("string.gmatch", s, p); return gmatch(s, p, init) end
string.gsub = function(s, p, r, n)
  if type(s) == "string" then guard("string.gsub", s .. s, p) end
  return gsub(s, p, r, n)
end
string.dump = nil

-- Library functions whose work grows with their input run in C, where the hook
-- does not count: each charges its input's size first (a sixteenth of an
-- instruction per character or item, about what the C loop costs).
local function charged(f, size)
  return function(...)
    charge(size(...) / 16)
    return f(...)
  end
end
local function length(s) return type(s) == "string" and #s or 0 end
local function result_length(s, n, sep)
  if type(n) ~= "number" or n < 1 then return 0 end
  -- Each copy costs a step even when it is empty (`rep('', huge)` loops).
  return (length(s) + length(sep) + 1) * n
end
local function all_lengths(...)
  local total = 0
  for i = 1, select("#", ...) do total = total + length((select(i, ...))) end
  return total
end
for _, name in ipairs({ "upper", "lower", "reverse", "byte", "sub" }) do
  string[name] = charged(string[name], length)
end
string.rep = charged(string.rep, result_length)
string.char = charged(string.char, function(...) return select("#", ...) end)
for _, name in ipairs({ "len", "codepoint", "offset" }) do
  utf8[name] = charged(utf8[name], length)
end
utf8.char = charged(utf8.char, function(...) return select("#", ...) end)
local raw_concat, raw_move, raw_insert, raw_remove, raw_unpack =
  table.concat, table.move, table.insert, table.remove, table.unpack

-- table.sort for scripts: a merge sort in Lua. Lua's own sort picks pivots
-- from the clock when a partition comes out unbalanced, which a comparator can
-- observe; this one depends on the list and `less` alone, the hook counts its
-- work, and it is stable.
local function merge_sort(t, less)
  if type(t) ~= "table" then
    error("bad argument #1 to 'sort' (table expected, got " .. type(t) .. ")", 3)
  end
  if less ~= nil and type(less) ~= "function" then
    error("bad argument #2 to 'sort' (function expected, got " .. type(less) .. ")", 3)
  end
  less = less or function(a, b) return a < b end
  local n = #t
  local from, to = {}, {}
  for i = 1, n do from[i] = t[i] end
  local width = 1
  while width < n do
    local i = 1
    while i <= n do
      local mid, hi = math.min(i + width, n + 1), math.min(i + 2 * width, n + 1)
      local a, b, k = i, mid, i
      while a < mid and b < hi do
        if less(from[b], from[a]) then
          to[k], b = from[b], b + 1
        else
          to[k], a = from[a], a + 1
        end
        k = k + 1
      end
      while a < mid do to[k], a, k = from[a], a + 1, k + 1 end
      while b < hi do to[k], b, k = from[b], b + 1, k + 1 end
      i = hi
    end
    from, to = to, from
    width = width * 2
  end
  for i = 1, n do t[i] = from[i] end
end
local function range(i, j) return (type(i) == "number" and type(j) == "number" and j >= i) and (j - i + 1) or 0 end
-- A table's length as the C functions take it: `#`, which may call `__len`.
local function size(t) return type(t) == "table" and #t or 0 end
local script_table = {
  concat = function(t, sep, i, j)
    charge(range(i or 1, j or size(t)) * (1 + length(sep)) / 16)
    return raw_concat(t, sep, i, j)
  end,
  move = function(a1, f, e, t, a2)
    charge(range(f, e))
    return raw_move(a1, f, e, t, a2)
  end,
  insert = function(t, ...)
    charge(size(t) / 16)
    return raw_insert(t, ...)
  end,
  remove = function(t, ...)
    charge(size(t) / 16)
    return raw_remove(t, ...)
  end,
  sort = function(t, less) return merge_sort(t, less) end,
  unpack = function(t, i, j)
    charge(range(i or 1, j or size(t)))
    return raw_unpack(t, i, j)
  end,
  pack = table.pack,
}

-- pairs in a fixed order (numbers, then strings, then booleans), so that no
-- script depends on Lua's seeded hash order.
local rawnext, tsort = next, table.sort
-- The tables behind the read-only proxies scripts see (the libraries and ctx,
-- filled below), so that pairs over a proxy lists what it reads through to.
local PROXIED = {}
-- The base names environments read through to (filled below): pairs over an
-- environment lists them too, unless the script's own global hides one.
local BASE_NAMES = {}
local function is_env(t)
  return rawget(t, "_G") == t and getmetatable(t) == "locked"
end
-- The keys in the fixed order, sorted without a Lua comparator: Lua's own
-- `<` in C for numbers and for strings, so that the instructions a `pairs`
-- costs do not depend on the order `next` gives the keys in (which follows a
-- hash seed that differs from one Lua state to the next).
local function sorted_keys(keys)
  local numbers, strings, falses, trues = {}, {}, 0, 0
  for i = 1, #keys do
    local k = keys[i]
    local kind = type(k)
    if kind == "number" then
      numbers[#numbers + 1] = k
    elseif kind == "string" then
      strings[#strings + 1] = k
    elseif k == false then
      falses = 1
    elseif k == true then
      trues = 1
    else
      error("pairs: a table with " .. kind .. " keys has no fixed order; keep such values in a list", 3)
    end
  end
  tsort(numbers)
  tsort(strings)
  local out = numbers
  for i = 1, #strings do out[#out + 1] = strings[i] end
  if falses == 1 then out[#out + 1] = false end
  if trues == 1 then out[#out + 1] = true end
  return out
end

local function sorted_pairs(t)
  -- The iterator reads through a proxy to what it hides, but hands back the
  -- proxy itself as `pairs`' second value, never the table behind it.
  local shown = t
  t = PROXIED[t] or t
  local keys = {}
  for k in rawnext, t do keys[#keys + 1] = k end
  if type(t) == "table" and is_env(t) then
    for k in rawnext, BASE_NAMES do
      if rawget(t, k) == nil then keys[#keys + 1] = k end
    end
  end
  keys = sorted_keys(keys)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end, shown, nil
end

-- No addresses: tostring and string.format show a table, function, thread or
-- userdata by its type (or its __tostring), never by where it lives in memory.
local raw_tostring, raw_format, getmt = tostring, string.format, getmetatable
local opaque = { table = true, ["function"] = true, thread = true, userdata = true }
local function safe_tostring(v)
  if opaque[type(v)] then
    local mt = getmt(v)
    if type(mt) == "table" and rawget(mt, "__tostring") then return raw_tostring(v) end
    return type(v)
  end
  return raw_tostring(v)
end
string.format = function(fmt, ...)
  if type(fmt) == "string" and find(fmt, "%%[-+ #0-9.]*p") then
    error("string.format: %p is not available to card scripts", 2)
  end
  charge(all_lengths(fmt, ...) / 16)
  local args = table.pack(...)
  for i = 1, args.n do
    if opaque[type(args[i])] then args[i] = safe_tostring(args[i]) end
  end
  return raw_format(fmt, table.unpack(args, 1, args.n))
end

-- No finalizers: a __gc metamethod would run at an unpredictable moment,
-- possibly inside another script's run.
local raw_setmetatable = setmetatable
-- Metamethods whose effect depends on the collector or on unwinding, not on the
-- state and the answers: a finalizer (__gc), weak references (__mode) and
-- to-be-closed handlers (__close, which could run after the budget is spent).
local FORBIDDEN = { __gc = true, __mode = true, __close = true }

-- setmetatable for scripts: the table gets a snapshot of `mt`, so fields added to
-- `mt` later change nothing; getmetatable still returns the script's own `mt`
-- (unless it sets __metatable). Forbidden fields are refused.
local function safe_setmetatable(t, mt)
  if type(t) ~= "table" then
    error("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")", 2)
  end
  if mt == nil then return raw_setmetatable(t, nil) end
  if type(mt) ~= "table" then
    error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
  end
  local snapshot = {}
  for k, v in rawnext, mt do
    if FORBIDDEN[k] then
      error("setmetatable: " .. tostring(k) .. " metamethods are not allowed in card scripts", 2)
    end
    snapshot[k] = v
  end
  if rawget(mt, "__metatable") == nil then snapshot.__metatable = mt end
  -- A function metamethod runs through a Lua wrapper: a C function looping
  -- over a table (table.concat, table.move) then runs Lua for each item, which
  -- the hook counts, even when the metamethod is itself a C function.
  for k, v in rawnext, snapshot do
    if type(v) == "function" and k ~= "__metatable" then
      snapshot[k] = function(...) return v(...) end
    end
  end
  return raw_setmetatable(t, snapshot)
end

local function copy(t, without)
  local out = {}
  for k, v in rawnext, t do
    if not (without and without[k]) then out[k] = v end
  end
  return out
end

-- How the engine calls scripts: the raw pcall, with no message handler, so a
-- question's halt costs no traceback. Never given to scripts.
local raw_pcall = pcall
local function runner(f, ...)
  return raw_pcall(f, ...)
end

-- A card's play runs in a coroutine the engine creates around `body` (so that a
-- question can suspend the run and the answer continue it, see mod.rs). That
-- coroutine is RUN[1] while it runs (set here and wherever it resumes). Lua
-- 5.4's pcall lets a yield through, so the script's errors are still caught
-- here, without a traceback.
local RUN = {}
local co_running = coroutine.running
local call_script -- defined below
local function body(co, chunk, ctx)
  RUN[1] = co
  return raw_pcall(call_script, chunk, "play", ctx)
end

-- Scripts see the coroutine library as if they ran on the main thread: the
-- engine's coroutine is hidden from them, and they cannot yield out of it.
local co_isyieldable, co_yield, co_status = coroutine.isyieldable, coroutine.yield, coroutine.status
local MAIN = co_running()
local function script_running()
  local co, main = co_running()
  if co == RUN[1] then return MAIN, true end
  return co, main
end
local function script_isyieldable(co)
  if co == nil then co = co_running() end
  if co == RUN[1] then return false end
  return co_isyieldable(co)
end
local function script_yield(...)
  if co_running() == RUN[1] then error("attempt to yield from outside a coroutine", 0) end
  return co_yield(...)
end
local function script_status(co)
  if co == MAIN and co_running() == RUN[1] then return "running" end
  return co_status(co)
end
local script_coroutine = copy(coroutine)
script_coroutine.running, script_coroutine.isyieldable = script_running, script_isyieldable
script_coroutine.yield, script_coroutine.status = script_yield, script_status
-- A new coroutine starts a fresh hook count, so one that runs fewer
-- instructions than the hook's period would never be counted: making one costs
-- a whole period.
local co_create, co_wrap = coroutine.create, coroutine.wrap
script_coroutine.create = function(f)
  charge(HOOK_EVERY)
  return co_create(f)
end
script_coroutine.wrap = function(f)
  charge(HOOK_EVERY)
  return co_wrap(f)
end
-- Scripts see the main thread in place of the engine's coroutine; neither is
-- theirs to close.
local co_close = coroutine.close
script_coroutine.close = function(co)
  if co == MAIN or co == RUN[1] then error("cannot close a running coroutine", 2) end
  return co_close(co)
end

-- The value `ask_*` return when the run must stop for an answer (the host has
-- marked the run halted). Where the engine's coroutine can yield, the proxy
-- suspends the run there; when the engine resumes it with one more answer, the
-- proxy asks the host again, which now finds that answer. Anywhere else (inside
-- pcall, a script's own coroutine, a C function such as table.sort) it raises the
-- sentinel, which unwinds the script (the host pcall will not catch it) and the
-- engine runs the script again from the start once the answer is known.
local function refuse_write(what)
  return function() error(what .. " is read-only", 2) end
end
local HALT = setmetatable({}, { __tostring = function() return "the script was stopped" end,
  __newindex = refuse_write("the halt value"), __metatable = "locked" })
-- Every host function whose name starts with `ask_` asks a question (ctx/asking.rs).
local function is_question(name)
  return name:sub(1, 4) == "ask_"
end

-- Stops the run for the answer to a question (`answer` is HALT): suspends the
-- engine's coroutine where it can yield, or raises HALT to unwind the run.
-- The engine resumes it with `true, answer` when it has taken the answer the
-- same call would now return (questions.rs, `on_resume`), or with nothing
-- when the call must be made again.
local function suspend()
  local co = RUN[1]
  if co_running() ~= co or not co_isyieldable() then error(HALT, 0) end
  local given, answer = co_yield(HALT)
  RUN[1] = co
  return given, answer
end

-- The host gives a checker as six values (checkers: six per checker in one list);
-- the tables scripts see are made here, which is cheaper than making them in Rust.
local function checker_of(f)
  return function(self, sq)
    local square, owner, kind, ring, snookle, hippo = f(self, sq)
    if square == nil then return nil end
    return { square = square, owner = owner, kind = kind, ring = ring, snookle = snookle, hippo = hippo }
  end
end
local function checkers_of(f)
  return function(self, filter)
    local flat = f(self, filter)
    local out = {}
    for i = 1, #flat, 6 do
      out[#out + 1] = { square = flat[i], owner = flat[i + 1], kind = flat[i + 2], ring = flat[i + 3],
        snookle = flat[i + 4], hippo = flat[i + 5] }
    end
    return out
  end
end

-- The `ctx` every run is given: an empty, read-only table that reads through
-- to the host's functions (each ask_* wrapped to stop the run as above). Being
-- empty, every write to it reaches __newindex and is refused, so no run can
-- leave anything in it for the next, and one ctx serves every script.
local function make_ctx(api)
  local methods = {}
  for name, f in rawnext, api do
    if name == "checker" then
      methods[name] = checker_of(f)
    elseif name == "checkers" then
      methods[name] = checkers_of(f)
    elseif is_question(name) then
      methods[name] = function(self, ...)
        local answer = f(self, ...)
        while answer == HALT do
          local given, resumed = suspend()
          if given then return resumed end
          answer = f(self, ...)
        end
        return answer
      end
    else
      methods[name] = f
    end
  end
  raw_setmetatable(methods, {
    __index = function(_, name) error("ctx has no method '" .. tostring(name) .. "'", 2) end,
  })
  local ctx = raw_setmetatable({}, { __index = methods, __newindex = refuse_write("ctx"), __metatable = "locked" })
  PROXIED[ctx] = methods
  return ctx
end

-- A library as scripts see it: an empty table that reads through to the
-- library and refuses writes (scripts have no rawset, and the metatable is
-- locked), so one library serves every script and every run.
local function read_only(name, library)
  local proxy = raw_setmetatable({}, { __index = library, __newindex = refuse_write(name), __metatable = "locked" })
  PROXIED[proxy] = library
  return proxy
end

local LIBS = {
  string = read_only("string", string), table = read_only("table", script_table),
  utf8 = read_only("utf8", copy(utf8)), coroutine = read_only("coroutine", script_coroutine),
  math = read_only("math", copy(math, { random = true, randomseed = true })),
}

-- What every environment reads through to. Reachable only through the locked
-- metatable of environments, so no script can change it; reading a name it
-- does not have either is an error.
local BASE = raw_setmetatable({
  assert = assert, error = error, ipairs = ipairs, pairs = sorted_pairs,
  select = select, tonumber = tonumber, tostring = safe_tostring, type = type,
  pcall = host_pcall, xpcall = host_xpcall,
  rawequal = rawequal, rawlen = rawlen, rawget = rawget,
  setmetatable = safe_setmetatable, getmetatable = getmetatable,
  unpack = script_table.unpack, _VERSION = _VERSION,
  string = LIBS.string, table = LIBS.table, utf8 = LIBS.utf8, coroutine = LIBS.coroutine, math = LIBS.math,
}, {
  __index = function(_, name) error("undefined global '" .. tostring(name) .. "'", 2) end,
})
local ENV_MT = { __index = BASE, __metatable = "locked" }
for k in rawnext, BASE do BASE_NAMES[k] = true end

-- A fresh environment: empty but for `_G`, which names the environment itself;
-- the base names are read through the metatable. (This runs before every run
-- of every script, so it is kept this small.)
local function new_env()
  -- Room for `_G` and three functions from the start (the nil fields only size
  -- the table), so a script's first definitions do not grow it step by step.
  local env = { _G = false, play = nil, can_play = nil, check = nil }
  env._G = env
  return raw_setmetatable(env, ENV_MT)
end

-- One run of a script: its chunk (compiled with `local _ENV = ...` in front)
-- runs into a fresh environment, then the function `name` it defined is called.
function call_script(chunk, name, ...)
  restart_count()
  local env = new_env()
  chunk(env)
  local f = rawget(env, name)
  if type(f) ~= "function" then error("the script no longer defines a function " .. name, 0) end
  return f(...)
end

-- Runs a chunk's top level once, into a fresh environment, and returns the
-- environment (the engine checks what the script defines when it loads).
local function instantiate(chunk)
  local env = new_env()
  chunk(env)
  return env
end

return {
  call_script = call_script, instantiate = instantiate, runner = runner,
  halt = HALT, make_ctx = make_ctx, body = body, void = raw_setmetatable({}, {
    __index = function() error("a script's chunk ran outside its environment", 2) end,
    __newindex = function() error("a script's chunk ran outside its environment", 2) end,
    __metatable = "locked",
  }),
}

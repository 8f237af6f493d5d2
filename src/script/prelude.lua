-- Trusted set-up code, run once before any card or planet script is loaded.
-- It receives the host's pcall and xpcall, `charge` (adds work one instruction
-- does not measure to the run's budget), `restart_count` (restarts the running
-- thread's hook count), the hook's period, `rethrow_stop` (raises again an
-- error a script's own coroutine caught, when it is an engine stop) and
-- `locate` (gives an error raised inside a library function the script's
-- line), and returns what the engine needs to run scripts (see the `return`
-- at the end).
--
-- Invariant: a run of a script depends only on the game state and the answers
-- (ARCHITECTURE.md invariant 3). Every run therefore starts from nothing: the
-- script's compiled chunk is executed again into a fresh environment, so its
-- top-level locals, globals and tables are new each time, and everything shared
-- between runs (the libraries, ctx, the halt sentinel) is read-only.
local host_pcall, host_xpcall, charge, restart_count, HOOK_EVERY, rethrow_stop, locate = ...

-- THE SCRIPT LIBRARY (default deny). Scripts reach only the functions of
-- string_lib, table_lib, utf8_lib, math_lib and script_coroutine below and the
-- base functions of BASE; cards/README.md ("The script library") lists the same
-- functions with the same costs, and a test holds the two together. The
-- instruction hook does not run inside C functions, so every function whose
-- work grows with its input is charged first, from its inputs as the C code
-- will read them: numeric strings are converted to the numbers C would see, a
-- length is read once and that length is what runs, and a charge beyond the
-- run's budget stops the run before the C function starts. Costs are in
-- instructions; `n` is a length in characters or items.
-- The C functions, called through these tables so that their own error
-- messages name them as scripts know them ("bad argument #2 to 'rep'").
local C = {
  string = { find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub,
    sub = string.sub, rep = string.rep, format = string.format, byte = string.byte, char = string.char,
    len = string.len, upper = string.upper, lower = string.lower, reverse = string.reverse },
  table = { concat = table.concat, unpack = table.unpack },
  utf8 = { char = utf8.char, codepoint = utf8.codepoint, len = utf8.len, offset = utf8.offset },
}
local CS, CT, CU = C.string, C.table, C.utf8
local sfind, ssub = string.find, string.sub
local raw_unpack, raw_pack = table.unpack, table.pack
local tointeger, raw_tonumber, raw_type, raw_select = math.tointeger, tonumber, type, select
local log = math.log

-- Arguments as the C library reads them (luaL_checkinteger, luaL_checklstring):
-- a numeric string is a number, a number is a string.
-- An argument error at the script's line: `level` 3 from a library function,
-- 4 from the helpers below, which a library function calls.
local function bad(pos, fname, msg, level)
  error("bad argument #" .. pos .. " to '" .. fname .. "' (" .. msg .. ")", level or 3)
end
local function int_arg(v, pos, fname, default)
  if v == nil and default ~= nil then return default end
  local n = v
  if raw_type(v) == "string" then
    charge(#v / 16)
    n = raw_tonumber(v)
  end
  if raw_type(n) == "number" then
    local i = tointeger(n)
    if i then return i end
    bad(pos, fname, "number has no integer representation", 4)
  end
  bad(pos, fname, "number expected, got " .. (v == nil and "no value" or raw_type(v)), 4)
end
local function str_arg(v, pos, fname, default)
  if v == nil and default ~= nil then return default end
  local t = raw_type(v)
  if t == "string" then return v end
  if t == "number" then return tostring(v) end
  bad(pos, fname, "string expected, got " .. (v == nil and "no value" or t), 4)
end
-- A table's length read once, as `#` reads it (maybe through `__len`).
local function len_arg(t, pos, fname)
  if raw_type(t) ~= "table" then bad(pos, fname, "table expected, got " .. raw_type(t), 4) end
  local n = #t
  if raw_type(n) ~= "number" or tointeger(n) == nil then error("object length is not an integer", 4) end
  return tointeger(n)
end

-- Pattern matching (find, match, gmatch, gsub). The matcher backtracks: a
-- subject of n characters against a pattern of m characters with q items that
-- can make it go back (the quantifiers * + - ?, %b, back references %1-%9)
-- takes at most (n+1)^(q+1) * (m+1) steps, each testing one pattern item
-- (a set [...] tests every character of it, so its length is part of m).
-- That bound is charged (a step is about a sixteenth of an instruction), and
-- a pattern whose bound exceeds MAX_STEPS is refused before it runs.
local MAX_STEPS = 1e7
local MAX_PATTERN = 256
local function pattern_cost(fname, n, p)
  local m = #p
  if m > MAX_PATTERN then error(fname .. ": pattern longer than " .. MAX_PATTERN .. " characters", 3) end
  local q, i, in_set = 0, 1, false
  while i <= m do
    local c = ssub(p, i, i)
    if c == "%" then
      local class = ssub(p, i + 1, i + 1)
      if not in_set and (class == "b" or sfind(class, "^%d$")) then q = q + 1 end
      i = i + 2
    elseif not in_set and c == "[" then
      in_set = true
      i = i + 1
      if ssub(p, i, i) == "^" then i = i + 1 end
      if ssub(p, i, i) == "]" then i = i + 1 end
    elseif in_set and c == "]" then
      in_set = false
      i = i + 1
    else
      if not in_set and (c == "*" or c == "+" or c == "-" or c == "?") then q = q + 1 end
      i = i + 1
    end
  end
  local steps = (n + 1) ^ (q + 1) * (m + 1)
  if steps > MAX_STEPS then
    error(fname .. ": pattern too costly for a subject of " .. n .. " characters", 3)
  end
  return steps / 16
end

local string_lib = {
  -- O(1)
  len = CS.len,
  -- n = the subject's length
  sub = function(s, i, j)
    s = str_arg(s, 1, "sub")
    charge(#s / 16)
    return CS.sub(s, int_arg(i, 2, "sub", 1), int_arg(j, 3, "sub", -1))
  end,
  byte = function(s, i, j)
    s = str_arg(s, 1, "byte")
    charge(#s / 16)
    i = int_arg(i, 2, "byte", 1)
    return CS.byte(s, i, int_arg(j, 3, "byte", i))
  end,
  -- n = the number of arguments
  char = function(...)
    charge(raw_select("#", ...) / 16)
    return CS.char(...)
  end,
  upper = function(s) s = str_arg(s, 1, "upper"); charge(#s / 16); return CS.upper(s) end,
  lower = function(s) s = str_arg(s, 1, "lower"); charge(#s / 16); return CS.lower(s) end,
  reverse = function(s) s = str_arg(s, 1, "reverse"); charge(#s / 16); return CS.reverse(s) end,
  -- (#s + #sep + 1) * count: every copy costs a step, also an empty one
  -- (in floats: an integer product could wrap around to a small charge)
  rep = function(s, count, sep)
    s = str_arg(s, 1, "rep")
    count = int_arg(count, 2, "rep")
    sep = str_arg(sep, 3, "rep", "")
    if count > 0 then charge((#s + #sep + 1.0) * count / 16) end
    return CS.rep(s, count, sep)
  end,
  -- plain: (#s + 1) * (#p + 1); a pattern: its bound (above)
  find = function(s, p, init, plain)
    s, p = str_arg(s, 1, "find"), str_arg(p, 2, "find")
    init = int_arg(init, 3, "find", 1)
    if plain then
      charge((#s + 1) * (#p + 1) / 16)
    else
      charge(pattern_cost("string.find", #s, p))
    end
    return CS.find(s, p, init, plain)
  end,
  match = function(s, p, init)
    s, p = str_arg(s, 1, "match"), str_arg(p, 2, "match")
    charge(pattern_cost("string.match", #s, p))
    return CS.match(s, p, int_arg(init, 3, "match", 1))
  end,
  -- the bound once, for the whole iteration
  gmatch = function(s, p, init)
    s, p = str_arg(s, 1, "gmatch"), str_arg(p, 2, "gmatch")
    charge(pattern_cost("string.gmatch", #s, p))
    return CS.gmatch(s, p, int_arg(init, 3, "gmatch", 1))
  end,
  -- the bound, plus the result: (#s + 1) * (#r + 1) for a replacement string
  gsub = function(s, p, r, count)
    s, p = str_arg(s, 1, "gsub"), str_arg(p, 2, "gsub")
    local cost = pattern_cost("string.gsub", #s, p)
    if raw_type(r) == "string" then cost = cost + (#s + 1) * (#r + 1) / 16 end
    charge(cost)
    return CS.gsub(s, p, r, count ~= nil and int_arg(count, 4, "gsub") or nil)
  end,
  -- format is defined below, with tostring: the lengths of the format and of
  -- every argument, four times over (%q escapes)
}

-- Lists: loops in Lua, so the hook counts their work whatever the table's
-- metamethods do; only a plain copy goes to C.
-- Sizes in floats: `j - i` in integers wraps around for far-apart bounds.
local function check_range_size(i, j, fname)
  if j >= i and (j + 0.0) - i >= 1e6 then error("too many results to " .. fname, 3) end
end
local table_lib = {
  -- n = j - i + 1, plus the characters copied
  concat = function(t, sep, i, j)
    sep = str_arg(sep, 2, "concat", "")
    i = int_arg(i, 3, "concat", 1)
    if j == nil then j = len_arg(t, 1, "concat") else j = int_arg(j, 4, "concat") end
    local parts, total = {}, 0
    for k = i, j do
      local v = t[k]
      local kind = raw_type(v)
      if kind == "number" then v = tostring(v) elseif kind ~= "string" then
        error("invalid value (at index " .. k .. ") in table for 'concat'", 2)
      end
      parts[#parts + 1] = v
      total = total + #v + #sep
    end
    charge(total / 16)
    return CT.concat(parts, sep)
  end,
  -- n = #t - pos (the items shifted)
  insert = function(t, ...)
    local e = len_arg(t, 1, "insert") + 1
    local count = raw_select("#", ...)
    if count == 1 then
      t[e] = ...
      return
    end
    if count ~= 2 then error("wrong number of arguments to 'insert'", 2) end
    local pos, v = ...
    pos = int_arg(pos, 2, "insert")
    if pos < 1 or pos > e then bad(2, "insert", "position out of bounds") end
    for k = e, pos + 1, -1 do t[k] = t[k - 1] end
    t[pos] = v
  end,
  remove = function(t, pos)
    local size = len_arg(t, 1, "remove")
    pos = int_arg(pos, 2, "remove", size)
    if pos ~= size and (pos < 1 or pos > size + 1) then bad(2, "remove", "position out of bounds") end
    local v = t[pos]
    for k = pos, size - 1 do t[k] = t[k + 1] end
    if pos <= size then t[size] = nil end
    return v
  end,
  -- n = e - f + 1
  move = function(a1, f, e, to, a2)
    if raw_type(a1) ~= "table" then bad(1, "move", "table expected, got " .. raw_type(a1)) end
    f, e, to = int_arg(f, 2, "move"), int_arg(e, 3, "move"), int_arg(to, 4, "move")
    if a2 == nil then a2 = a1 elseif raw_type(a2) ~= "table" then bad(5, "move", "table expected, got " .. raw_type(a2)) end
    if e >= f then
      if to > e or to <= f or a1 ~= a2 then
        for k = 0, e - f do a2[to + k] = a1[f + k] end
      else
        for k = e - f, 0, -1 do a2[to + k] = a1[f + k] end
      end
    end
    return a2
  end,
  -- n = j - i + 1 (at most a million)
  unpack = function(t, i, j)
    i = int_arg(i, 2, "unpack", 1)
    if j == nil then j = len_arg(t, 1, "unpack") else j = int_arg(j, 3, "unpack") end
    check_range_size(i, j, "unpack")
    if j >= i then charge(((j + 0.0) - i + 1) / 16) end
    return CT.unpack(t, i, j)
  end,
  -- n = the number of arguments
  pack = raw_pack,
  -- a stable merge sort in Lua, n log n comparisons, all counted by the hook
  sort = nil, -- set below
}
local unpack = table_lib.unpack

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
table_lib.sort = merge_sort

-- utf8: n = the subject's length; char: the number of arguments.
local utf8_lib = {
  char = function(...) charge(raw_select("#", ...) / 16); return CU.char(...) end,
  charpattern = utf8.charpattern,
  codes = utf8.codes, -- O(1) a step
  codepoint = function(s, i, j, lax) s = str_arg(s, 1, "codepoint"); charge(#s / 16); return CU.codepoint(s, i, j, lax) end,
  len = function(s, i, j, lax) s = str_arg(s, 1, "len"); charge(#s / 16); return CU.len(s, i, j, lax) end,
  offset = function(s, n, i) s = str_arg(s, 1, "offset"); charge(#s / 16); return CU.offset(s, n, i) end,
}
-- math: every function is O(1) (min and max: the number of arguments); no
-- random numbers (the game's generator is ctx's).
local math_lib = {}
for _, name in ipairs({ "abs", "ceil", "floor", "fmod", "modf", "sqrt", "exp", "log", "sin", "cos", "tan",
  "asin", "acos", "atan", "tointeger", "type", "ult", "max", "min", "huge", "pi", "maxinteger", "mininteger" }) do
  math_lib[name] = math[name]
end

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
local UNORDERED_KINDS = { "function", "table", "thread", "userdata" }
local function sorted_keys(keys)
  local numbers, strings, falses, trues = {}, {}, 0, 0
  -- Keys that have no order are noted, and refused only once every key was
  -- seen: what the error says, and the work done before it, do not depend on
  -- the order `next` gives the keys in.
  local unordered = nil
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
      unordered = unordered or {}
      unordered[kind] = true
    end
  end
  if unordered then
    local told = nil
    for i = 1, #UNORDERED_KINDS do
      local kind = UNORDERED_KINDS[i]
      if unordered[kind] then told = told and (told .. " or " .. kind) or kind end
    end
    error("pairs: a table with " .. told .. " keys has no fixed order; keep such values in a list", 3)
  end
  -- Lua's sort in C: n log n comparisons, a string comparison as long as
  -- the shorter string at most.
  local n, chars = #keys, 0
  for i = 1, #strings do chars = chars + #strings[i] end
  if n > 1 then charge((n + chars / 16) * log(n, 2)) end
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
string_lib.format = function(fmt, ...)
  fmt = str_arg(fmt, 1, "format")
  if sfind(fmt, "%%[-+ #0-9.]*p") then
    error("string.format: %p is not available to card scripts", 2)
  end
  local args = raw_pack(...)
  local total = #fmt
  for i = 1, args.n do
    local v = args[i]
    if opaque[raw_type(v)] then v = safe_tostring(v); args[i] = v end
    if raw_type(v) == "string" then total = total + #v end
  end
  charge(total * 4 / 16)
  return CS.format(fmt, raw_unpack(args, 1, args.n))
end

-- tonumber reads a whole string: n = its length.
local function safe_tonumber(v, base)
  if raw_type(v) == "string" then charge(#v / 16) end
  if base == nil then return raw_tonumber(v) end
  return raw_tonumber(v, base)
end

-- The string metatable's __index is the real string table: it is emptied and
-- given the library's functions, so `s:rep(n)` is the charged rep too.
for name in rawnext, string do string[name] = nil end
for name, f in rawnext, string_lib do string[name] = f end

-- No finalizers: a __gc metamethod would run at an unpredictable moment,
-- possibly inside another script's run.
local raw_setmetatable = setmetatable
-- Metamethods whose effect depends on the collector or on unwinding, not on the
-- state and the answers: a finalizer (__gc), weak references (__mode) and
-- to-be-closed handlers (__close, which could run after the budget is spent).
local FORBIDDEN_NAMES = { "__close", "__gc", "__mode" }

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
  -- Refusals are looked up in a fixed order, before any key is visited, so
  -- that which one is told does not depend on the order `next` gives.
  for i = 1, #FORBIDDEN_NAMES do
    if rawget(mt, FORBIDDEN_NAMES[i]) ~= nil then
      error("setmetatable: " .. FORBIDDEN_NAMES[i] .. " metamethods are not allowed in card scripts", 2)
    end
  end
  -- A __call that is not a function is itself called through its own
  -- __call, a chain Lua follows in C without end.
  local call = rawget(mt, "__call")
  if call ~= nil and type(call) ~= "function" then
    error("setmetatable: __call must be a function", 2)
  end
  local snapshot = {}
  for k, v in rawnext, mt do
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

-- How the engine calls scripts: the raw xpcall, whose handler only gives an
-- error raised inside a library function the script's line in place of the
-- prelude's (no traceback, so a question's halt costs nothing). Never given
-- to scripts.
local raw_xpcall, raw_pcall = xpcall, pcall
local function at_script_line(e)
  if type(e) == "string" and ssub(e, 1, 8) == "prelude:" then return locate(e) end
  return e
end
local function runner(f, ...)
  return raw_xpcall(f, at_script_line, ...)
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
  return raw_xpcall(call_script, at_script_line, chunk, "play", ctx)
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
local co_create, co_resume, co_close = coroutine.create, coroutine.resume, coroutine.close
-- The engine's stops (a question's halt, the budget, running out of memory)
-- unwind the whole run: a script's own coroutine does not catch them. After a
-- resume that failed, `rethrow_stop` raises the error again when it is a stop.
local function resumed(ok, ...)
  if not ok then rethrow_stop((...)) end
  return ok, ...
end
local function wrapped(co, ok, ...)
  if ok then return ... end
  local e = ...
  rethrow_stop(e)
  co_close(co)
  error(e, 0)
end
local script_coroutine = {
  running = script_running, isyieldable = script_isyieldable, yield = script_yield, status = script_status,
  -- A new coroutine starts a fresh hook count, so one that runs fewer
  -- instructions than the hook's period would never be counted: making one
  -- costs a whole period.
  create = function(f)
    charge(HOOK_EVERY)
    return co_create(f)
  end,
  wrap = function(f)
    charge(HOOK_EVERY)
    local co = co_create(f)
    return function(...) return wrapped(co, co_resume(co, ...)) end
  end,
  resume = function(co, ...) return resumed(co_resume(co, ...)) end,
  -- Scripts see the main thread in place of the engine's coroutine; neither
  -- is theirs to close.
  close = function(co)
    if co == MAIN or co == RUN[1] then error("cannot close a running coroutine", 2) end
    return co_close(co)
  end,
}

-- The value a question returns when the run must stop for an answer (the host has
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

-- The host gives a checker as seven values (checkers: seven per checker in one
-- list); the tables scripts see are made here, which is cheaper than making them
-- in Rust. The number is 0 where checkers are not numbered, and then no `id`.
local function checker_of(f)
  return function(self, sq)
    local square, owner, kind, ring, snookle, hippo, id = f(self, sq)
    if square == nil then return nil end
    return { square = square, owner = owner, kind = kind, ring = ring, snookle = snookle, hippo = hippo,
      id = id ~= 0 and id or nil }
  end
end
local function checkers_of(f)
  return function(self, filter)
    local flat = f(self, filter)
    local out = {}
    for i = 1, #flat, 7 do
      local id = flat[i + 6]
      out[#out + 1] = { square = flat[i], owner = flat[i + 1], kind = flat[i + 2], ring = flat[i + 3],
        snookle = flat[i + 4], hippo = flat[i + 5], id = id ~= 0 and id or nil }
    end
    return out
  end
end

-- The `ctx` every run is given: an empty, read-only table that reads through
-- to the host's functions, wrapped as their declarations say (`shapes`, from
-- ctx/mod.rs: each question to stop the run as above, a checker's values made
-- into a table). Being empty, every write to it reaches __newindex and is
-- refused, so no run can leave anything in it for the next, and one ctx serves
-- every script.
local function make_ctx(api, shapes)
  local methods = {}
  for name, f in rawnext, api do
    local shape = shapes[name]
    if shape == "checker" then
      methods[name] = checker_of(f)
    elseif shape == "checkers" then
      methods[name] = checkers_of(f)
    elseif shape == "question" then
      -- The count restarts as the host's answer comes back (or its error:
      -- caught here only to restart first) and again before the script goes
      -- on, so that the instructions in between, which differ when the run
      -- halts here and resumes, never count: a resumed run counts exactly as
      -- a run afresh with the same answers (sandbox.rs).
      methods[name] = function(self, ...)
        local ok, answer = raw_pcall(f, self, ...)
        restart_count()
        while ok and answer == HALT do
          local given, resumed = suspend()
          if given then
            answer = resumed
            break
          end
          ok, answer = raw_pcall(f, self, ...)
        end
        restart_count()
        if not ok then error(answer, 0) end
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
  string = read_only("string", string_lib), table = read_only("table", table_lib),
  utf8 = read_only("utf8", utf8_lib), coroutine = read_only("coroutine", script_coroutine),
  math = read_only("math", math_lib),
}

-- What every environment reads through to. Reachable only through the locked
-- metatable of environments, so no script can change it; reading a name it
-- does not have either is an error.
local BASE = raw_setmetatable({
  assert = assert, error = error, ipairs = ipairs, pairs = sorted_pairs,
  select = select, tonumber = safe_tonumber, tostring = safe_tostring, type = type,
  pcall = host_pcall, xpcall = host_xpcall,
  rawequal = rawequal, rawlen = rawlen, rawget = rawget,
  setmetatable = safe_setmetatable, getmetatable = getmetatable,
  unpack = unpack, _VERSION = _VERSION,
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
  restart_count()
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

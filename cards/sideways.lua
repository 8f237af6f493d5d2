-- Sideways (R8.10): step any unfrozen checker orthogonally, or a chain of
-- orthogonal jumps with one of your checkers. The kernel's step and jump targets
-- apply R4.5, R4.6, R4.7 and walls (R5.3, R5.6).

-- The squares of both lists in one (ask_square offers them in board order
-- and each once, however they are gathered).
local function concat(a, b)
  local out = table.move(a, 1, #a, 1, {})
  return table.move(b, 1, #b, #out + 1, out)
end

local function contains(list, x)
  for _, v in ipairs(list) do
    if v == x then return true end
  end
  return false
end

function play(ctx)
  local me = ctx:player()
  local steps = ctx:step_targets_of({ hippo = false }, "orthogonal")
  local jumps = ctx:jump_targets_of({ owner = me, hippo = false }, "orthogonal")
  local movers, targets = {}, {}
  for _, sq in ipairs(ctx:checker_squares{ hippo = false }) do
    local s, j = steps[sq], jumps[sq]
    if s or j then
      movers[#movers + 1] = sq
      targets[sq] = (s and j) and concat(s, j) or s or j
    end
  end
  if #movers == 0 then
    ctx:log("Sideways: no checker can step or jump orthogonally")
    return
  end

  local from = ctx:ask_checker("Sideways: which checker moves?", movers)
  local to = ctx:ask_square(
    "Sideways: where to? (next square: a step; two squares away: a jump that captures)", targets[from])
  if contains(steps[from] or {}, to) then
    ctx:relocate(from, to)
    return
  end

  local was_pawn = ctx:checker(from).kind == "pawn"
  local king_row = ctx:squares{ king_row = me }
  local at = ctx:jump(from, to)
  while not (was_pawn and contains(king_row, at)) do -- R4.4: the chain ends there
    local more = ctx:jump_targets(at, "orthogonal")
    if #more == 0 then break end
    local nxt = ctx:ask_square("Sideways: jump again from " .. at .. "? (none: stop)", more, { optional = true })
    if not nxt then break end
    at = ctx:jump(at, nxt)
  end
end

-- Sideways (R8.10): step any unfrozen checker orthogonally, or a chain of
-- orthogonal jumps with one of your checkers. The kernel's step and jump targets
-- apply R4.5, R4.6, R4.7 and walls (R5.3, R5.6).

local function contains(list, x)
  for _, v in ipairs(list) do
    if v == x then return true end
  end
  return false
end

function play(ctx)
  local me = ctx:player()
  -- Any unfrozen checker with an orthogonal step, and yours with an orthogonal
  -- jump (ask_checker offers each square once, in board order).
  local movers = ctx:checker_squares{ hippo = false, can_step = "orthogonal" }
  for _, sq in ipairs(ctx:checker_squares{ owner = me, hippo = false, can_jump = "orthogonal" }) do
    movers[#movers + 1] = sq
  end
  if #movers == 0 then
    ctx:log("Sideways: no checker can step or jump orthogonally")
    return
  end

  local from = ctx:ask_checker("Sideways: which checker moves?", movers)
  local steps = ctx:step_targets(from, "orthogonal")
  local targets = table.move(steps, 1, #steps, 1, {})
  if ctx:checker(from).owner == me then
    for _, sq in ipairs(ctx:jump_targets(from, "orthogonal")) do targets[#targets + 1] = sq end
  end
  local to = ctx:ask_square(
    "Sideways: where to? (next square: a step; two squares away: a jump that captures)", targets)
  if contains(steps, to) then
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

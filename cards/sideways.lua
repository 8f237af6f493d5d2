-- Sideways (R8.10): step any unfrozen checker orthogonally, or a chain of
-- orthogonal jumps with one of your checkers. The kernel's step_targets and
-- jump_targets apply R4.5, R4.6, R4.7 and walls (R5.3, R5.6).

-- a1, b1, ... h8 order, as the rest of the API lists squares.
local function square_order(a, b)
  local ra, rb = tonumber(a:sub(2)), tonumber(b:sub(2))
  if ra ~= rb then return ra < rb end
  return a < b
end

local function contains(list, x)
  for _, v in ipairs(list) do
    if v == x then return true end
  end
  return false
end

function play(ctx)
  local me = ctx:player()
  local movers, steps, targets = {}, {}, {}
  for _, c in ipairs(ctx:checkers{ hippo = false }) do
    local s = ctx:step_targets(c.square, "orthogonal")
    local all = {}
    for _, t in ipairs(s) do all[#all + 1] = t end
    if c.owner == me then
      for _, t in ipairs(ctx:jump_targets(c.square, "orthogonal")) do all[#all + 1] = t end
    end
    if #all > 0 then
      table.sort(all, square_order)
      movers[#movers + 1] = c.square
      steps[c.square], targets[c.square] = s, all
    end
  end
  if #movers == 0 then
    ctx:log("Sideways: no checker can step or jump orthogonally")
    return
  end

  local from = ctx:ask_checker("Sideways: which checker moves?", movers)
  local to = ctx:ask_square(
    "Sideways: where to? (next square: a step; two squares away: a jump that captures)", targets[from])
  if contains(steps[from], to) then
    ctx:relocate(from, to)
    return
  end

  local was_pawn = ctx:checker(from).kind == "pawn"
  local king_row = ctx:squares{ king_row = me }
  local at = ctx:jump(from, to)
  while not (was_pawn and contains(king_row, at)) do -- R4.4: the chain ends there
    local more = ctx:jump_targets(at, "orthogonal")
    if #more == 0 then break end
    table.sort(more, square_order)
    local nxt = ctx:ask_square("Sideways: jump again from " .. at .. "? (none: stop)", more, { optional = true })
    if not nxt then break end
    at = ctx:jump(at, nxt)
  end
end

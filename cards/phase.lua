-- Phase (R8.16): lift an opposing checker, make a move with it absent that does
-- not end on its square, then put it back.

-- The user's moves with the checker on `sq` away, none ending on its square.
local function without(sq)
  return { without = sq, not_to = { sq } }
end

function play(ctx)
  local candidates = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = ctx:opponent() }) do
    if ctx:count_moves(without(sq)) > 0 then candidates[#candidates + 1] = sq end
  end
  if #candidates == 0 then
    ctx:log("Phase: lifting any opposing checker would leave you no move")
    return
  end
  local sq = ctx:ask_checker("Phase: which opposing checker is lifted?", candidates)
  local move = ctx:ask_move("Phase: your move while " .. sq .. " is away?", ctx:legal_moves(without(sq)))
  ctx:lift(sq)
  ctx:play_move(move, { not_to = { sq } })
  ctx:put_back(sq)
end

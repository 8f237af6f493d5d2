-- Phase (R8.16): lift an opposing checker, make a move with it absent that does
-- not end on its square, then put it back.

-- The moves the user would have with the checker on `sq` lifted. The caller
-- must put it back (ctx:put_back), which leaves the game as it was.
local function moves_without(ctx, sq)
  ctx:lift(sq)
  return ctx:legal_moves{ not_to = { sq } }
end

-- How many of them there are (the same lift, without listing the moves).
local function count_without(ctx, sq)
  ctx:lift(sq)
  return ctx:count_moves{ not_to = { sq } }
end

function play(ctx)
  local candidates = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = ctx:opponent() }) do
    local n = count_without(ctx, sq)
    ctx:put_back(sq)
    if n > 0 then candidates[#candidates + 1] = sq end
  end
  if #candidates == 0 then
    ctx:log("Phase: lifting any opposing checker would leave you no move")
    return
  end
  local sq = ctx:ask_checker("Phase: which opposing checker is lifted?", candidates)
  local moves = moves_without(ctx, sq)
  local move = ctx:ask_move("Phase: your move while " .. sq .. " is away?", moves)
  ctx:play_move(move, { not_to = { sq } })
  ctx:put_back(sq)
end

-- Phase (R8.16): lift an opposing checker, make a move with it absent that does
-- not end on its square, then put it back.
function play(ctx)
  -- The opposing checkers whose lifting leaves you such a move.
  local liftable = { owner = ctx:opponent(), lift_leaves_move = true }
  if ctx:count(liftable) == 0 then
    ctx:log("Phase: lifting any of {opponent}'s checkers would leave {user} no move")
    return
  end
  local sq = ctx:ask_checker_where("Phase: which opposing checker is lifted?", liftable)
  local move = ctx:ask_move_where("Phase: your move while " .. sq .. " is away?", { without = sq, not_to = { sq } })
  ctx:lift(sq)
  ctx:play_move(move, { not_to = { sq } })
  ctx:put_back(sq)
end

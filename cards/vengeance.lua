-- Vengeance (a nightmare card): the first time one of the user's checkers is
-- captured, the user removes an opponent's pawn of their choice. The handler's
-- question becomes a decision of the user's, in the middle of the opponent's
-- turn; the effect then ends itself.

function play(ctx)
  ctx:add_effect{ lasts = 3 }
end

function on_captured(ctx, event, effect)
  if event.checker.owner ~= ctx:player() then return end
  local pawns = ctx:checker_squares{ owner = ctx:opponent(), kind = "pawn" }
  if #pawns > 0 then
    local sq = ctx:ask_checker("Vengeance: which of your opponent's pawns leaves the board?", pawns)
    ctx:remove_checker(sq)
  end
  ctx:end_effect()
end

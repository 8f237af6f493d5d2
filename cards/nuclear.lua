-- Nuclear (a nightmare card): for the rest of the game, a captured pawn
-- explodes and takes every checker around it off the board.
--
-- `play` only puts the effect in force; `on_captured` runs each time a checker
-- is captured, for as long as the effect lasts.

function play(ctx)
  ctx:add_effect{ lasts = "game" }
end

-- event: {kind = "captured", at = square, checker = {owner, kind, ...}, by = square, player}
function on_captured(ctx, event, effect)
  if event.checker.kind ~= "pawn" then return end
  for _, dir in ipairs({ "n", "ne", "e", "se", "s", "sw", "w", "nw" }) do
    local sq = ctx:neighbour(event.at, dir)
    if sq and ctx:checker(sq) then
      ctx:remove_checker(sq)
    end
  end
end

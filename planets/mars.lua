-- Mars (R9.4): the player's emperors have captured three checkers this game.
-- The engine raises the counter whenever an emperor captures; the emperors
-- need not still be on the board.
function check(ctx, player)
  return ctx:counter(player, "emperor_captures") >= 3
end

-- For the computer players: emperor captures so far, out of three.
function progress(ctx, player)
  return math.min(ctx:counter(player, "emperor_captures") / 3, 1)
end

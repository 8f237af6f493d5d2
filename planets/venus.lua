-- Venus (R9.1): four of the player's checkers carry snookles.
function check(ctx, player)
  return ctx:count{ owner = player, snookle = true } >= 4
end

-- For the computer players: checkers with snookles, out of four.
function progress(ctx, player)
  return math.min(ctx:count{ owner = player, snookle = true } / 4, 1)
end

-- For the end of the game: the checkers whose snookles make it hold.
function squares(ctx, player)
  return ctx:checker_squares{ owner = player, snookle = true }
end

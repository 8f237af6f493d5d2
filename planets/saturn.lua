-- Saturn (R9.6): four of the player's checkers carry rings.
function check(ctx, player)
  return ctx:count{ owner = player, ring = true } >= 4
end

-- For the computer players: ringed checkers, out of four.
function progress(ctx, player)
  return math.min(ctx:count{ owner = player, ring = true } / 4, 1)
end

-- For the end of the game: the checkers whose rings make it hold.
function squares(ctx, player)
  return ctx:checker_squares{ owner = player, ring = true }
end

-- Uranus (R9.8): four of the player's checkers stand on off-colour (light)
-- squares. Colours are fixed to the board, whatever the orientation.
function check(ctx, player)
  return ctx:count{ owner = player, colour = "light" } >= 4
end

-- For the computer players: checkers on light squares, out of four.
function progress(ctx, player)
  return math.min(ctx:count{ owner = player, colour = "light" } / 4, 1)
end

-- For the end of the game: the player's checkers on light squares.
function squares(ctx, player)
  return ctx:checker_squares{ owner = player, colour = "light" }
end

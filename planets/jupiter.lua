-- Jupiter (R9.5): the monolith covers d4 e4 d5 e5, that is its lower-left
-- square is d4.
function check(ctx, player)
  return ctx:monolith() == "d4"
end

-- For the computer players: once the monolith is on the board, the closer its
-- lower-left square is to d4 (in pushes, counting diagonals as two), the more
-- done; a monolith on d4 is all done.
function progress(ctx, player)
  local at = ctx:monolith()
  if at == nil then return 0 end
  local file, rank = at:byte(1) - ("a"):byte(), tonumber(at:sub(2)) - 1
  local pushes = math.abs(file - 3) + math.abs(rank - 3)
  return pushes == 0 and 1 or 0.5 * (1 - pushes / 7)
end

-- For the end of the game: the monolith's four squares.
function squares(ctx, player)
  local at = ctx:monolith()
  if at == nil then return {} end
  return ctx:block_squares(at)
end

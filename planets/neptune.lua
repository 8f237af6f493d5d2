-- Neptune (R9.7): three squares hold water, whoever put it there.
function check(ctx, player)
  return #ctx:squares{ terrain = "water" } >= 3
end

-- For the computer players: water squares so far, out of three.
function progress(ctx, player)
  return math.min(#ctx:squares{ terrain = "water" } / 3, 1)
end

-- For the end of the game: the waters that make it hold.
function squares(ctx, player)
  return ctx:squares{ terrain = "water" }
end

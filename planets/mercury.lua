-- Mercury (R9.3): three squares hold fire, whoever put it there.
function check(ctx, player)
  return #ctx:squares{ terrain = "fire" } >= 3
end

-- For the computer players: fire squares so far, out of three.
function progress(ctx, player)
  return math.min(#ctx:squares{ terrain = "fire" } / 3, 1)
end

-- For the end of the game: the fires that make it hold.
function squares(ctx, player)
  return ctx:squares{ terrain = "fire" }
end

-- Mercury (R9.3): three squares hold fire, whoever put it there.
function check(ctx, player)
  return #ctx:squares{ terrain = "fire" } >= 3
end

-- Neptune (R9.7): three squares hold water, whoever put it there.
function check(ctx, player)
  return #ctx:squares{ terrain = "water" } >= 3
end

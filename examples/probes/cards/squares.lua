function play(ctx)
  for _ = 1, 1000 do ctx:squares{ empty = true } end
end

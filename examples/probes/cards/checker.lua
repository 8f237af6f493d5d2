function play(ctx)
  for _ = 1, 1000 do ctx:checker("c3") end
end

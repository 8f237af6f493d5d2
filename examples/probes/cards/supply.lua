function play(ctx)
  for _ = 1, 1000 do ctx:supply("water") end
end

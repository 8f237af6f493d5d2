function play(ctx)
  for _ = 1, 1000 do ctx:player() end
end
